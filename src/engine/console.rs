//! A person at the table: what every game's `sim play` shares.
//!
//! [`Console`] reads the person's moves, one line each, from a terminal or
//! from a script on standard input, and writes the table, the narration
//! of the game and the prompts, in colour where the terminal shows it
//! (`NO_COLOR` honoured). [`Session`] is one game of `sim play`: the
//! console, the game's JSON trace as it is written (saved when the game
//! ends or the person quits), the hint (`sim advise`'s answer before each
//! of the person's decisions) and the review of the decisions where the
//! person's move and the advice differed.
//!
//! A game plays its own rules engine with a chooser that asks the
//! person's seat through [`Session::ask`] and its bots for every other
//! seat, and an observer that writes the trace into
//! [`Session::trace_sink`] and tells the person what happened through
//! [`Session::narrate`]. When the person quits, [`Session::ask`] unwinds
//! out of the game with a [`Quit`] payload that `sim play` catches: the
//! game so far is saved all the same.
//!
//! This module names no game.

use std::io::{BufRead, IsTerminal, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

use super::advise::{self, Budget};
use super::game::Game;

/// Why the person's game ended early: the payload [`Session::ask`] unwinds
/// with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quit {
    /// The person typed `q`.
    Asked,
    /// Standard input ended (Ctrl-D, or the end of a script).
    EndOfInput,
    /// Standard output was closed (`sim play ... | head`).
    Closed,
    /// A script (standard input not a terminal) gave [`WRONG_KEYS`] keys
    /// in a row that fit no move of one decision: it does not fit this
    /// game, and reading on could last for ever (`yes s | sim play ...`).
    Stuck,
}

/// How many wrong keys in a row a script may give at one decision.
pub const WRONG_KEYS: u32 = 20;

impl Quit {
    /// In words, for the closing line.
    pub fn said(self) -> &'static str {
        match self {
            Quit::Asked => "you quit",
            Quit::EndOfInput => "the input ended",
            Quit::Closed => "the output was closed",
            Quit::Stuck => "the script's keys fit no move here (20 in a row)",
        }
    }
}

/// One legal move offered to the person.
#[derive(Clone, Debug)]
pub struct Choice {
    /// What the person types (`h`, `2`, `r5`).
    pub key: String,
    /// The move in words (`hit`, `Freeze to seat 2`).
    pub label: String,
    /// The move's key in `sim advise`'s answer (`hit`, `seat:2`), to put
    /// the advice beside the person's move.
    pub advised_as: String,
}

impl Choice {
    /// A move typed as `key`, shown as `label`, advised as `advised_as`.
    pub fn new(key: impl Into<String>, label: impl Into<String>, advised_as: impl Into<String>) -> Choice {
        Choice {
            key: key.into(),
            label: label.into(),
            advised_as: advised_as.into(),
        }
    }
}

/// The terminal (or the script) the person plays through.
pub struct Console {
    input: Box<dyn BufRead>,
    /// Standard input is not a terminal: each move read is echoed, so that
    /// the transcript of a scripted game reads as one.
    echo: bool,
    colour: bool,
    symbols: bool,
    pause: Duration,
}

/// The colours of the seats, by seat number (cycled): ANSI codes.
const SEAT_COLOURS: [&str; 6] = ["36", "33", "35", "32", "34", "31"];

impl Console {
    /// The process's standard input and output. Colours when standard
    /// output is a terminal that shows them and `NO_COLOR` is not set;
    /// card symbols on a terminal whose locale is UTF-8; `pause` after each
    /// bot's move on a terminal (`None`: 0.4 s there, none otherwise).
    pub fn stdio(pause: Option<Duration>) -> Console {
        let tty = std::io::stdout().is_terminal();
        let env = |k: &str| std::env::var(k).unwrap_or_default();
        let colour =
            tty && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && env("TERM") != "dumb";
        let locale = [env("LC_ALL"), env("LC_CTYPE"), env("LANG")]
            .into_iter()
            .find(|v| !v.is_empty())
            .unwrap_or_default()
            .to_ascii_uppercase();
        Console {
            input: Box::new(std::io::BufReader::new(std::io::stdin())),
            echo: !std::io::stdin().is_terminal(),
            colour,
            symbols: tty && (locale.contains("UTF-8") || locale.contains("UTF8")),
            pause: pause.unwrap_or(if tty {
                Duration::from_millis(400)
            } else {
                Duration::ZERO
            }),
        }
    }

    /// A console reading `input` (a script), writing plain text, without
    /// pauses: what tests drive.
    pub fn scripted(input: impl BufRead + 'static) -> Console {
        Console {
            input: Box::new(input),
            echo: true,
            colour: false,
            symbols: false,
            pause: Duration::ZERO,
        }
    }

    /// Whether card symbols (Unicode) may be drawn.
    pub fn symbols(&self) -> bool {
        self.symbols
    }

    /// `text` in the ANSI style `code` (`1` bold, `2` dim, `31` red...),
    /// or as it is without colours.
    pub fn paint(&self, code: &str, text: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// `text` in seat `seat`'s colour, bold for the person's seat `me`.
    pub fn seat(&self, seat: usize, me: usize, text: &str) -> String {
        let c = SEAT_COLOURS[seat % SEAT_COLOURS.len()];
        if seat == me {
            self.paint(&format!("1;{c}"), text)
        } else {
            self.paint(c, text)
        }
    }

    /// Writes `text` to standard output as it is. A closed output ends the
    /// game ([`Quit::Closed`]).
    pub fn say(&self, text: &str) {
        let mut out = std::io::stdout().lock();
        if out.write_all(text.as_bytes()).and_then(|_| out.flush()).is_err() {
            drop(out);
            std::panic::resume_unwind(Box::new(Quit::Closed));
        }
    }

    /// Waits the pause after a bot's move.
    pub fn pause(&self) {
        if !self.pause.is_zero() {
            std::thread::sleep(self.pause);
        }
    }

    /// One line of input, trimmed; `None` at its end.
    fn read_line(&mut self) -> Option<String> {
        let mut line = String::new();
        match self.input.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line.trim().to_string()),
        }
    }

    /// Asks for one of `choices` until one is typed: lists them with their
    /// keys (wrapped within [`WIDTH`] columns; past [`MENU_LINES`] lines
    /// the rest is listed on `?`), explains a wrong key and asks again.
    /// `q` (or `quit`) and the end of input unwind with [`Quit`]. Returns
    /// the index of the choice.
    pub fn choose(&mut self, question: &str, choices: &[Choice]) -> usize {
        let menu: Vec<String> = choices
            .iter()
            .map(|c| format!("[{}] {}", self.paint("1", &c.key), c.label))
            .chain(std::iter::once(format!("[{}] quit", self.paint("1", "q"))))
            .collect();
        let lines = wrapped(&menu, "  ", "  ");
        let shown = lines.len().min(MENU_LINES);
        let mut text = format!("{question}\n");
        for l in &lines[..shown] {
            text.push_str(l);
            text.push('\n');
        }
        if shown < lines.len() {
            text.push_str(&format!(
                "  ... [{}] to list all {} moves\n",
                self.paint("1", "?"),
                choices.len()
            ));
        }
        self.say(&text);
        let mut wrong = 0;
        loop {
            self.say("> ");
            let Some(line) = self.read_line() else {
                self.say("\n");
                std::panic::resume_unwind(Box::new(Quit::EndOfInput));
            };
            if self.echo {
                self.say(&format!("{line}\n"));
            }
            let typed = line.to_lowercase();
            if typed == "q" || typed == "quit" {
                std::panic::resume_unwind(Box::new(Quit::Asked));
            }
            if typed == "?" {
                self.say(&format!("{}\n", lines.join("\n")));
                continue;
            }
            if let Some(i) = choices.iter().position(|c| same_key(&c.key, &typed)) {
                return i;
            }
            let what = if typed.is_empty() {
                "nothing typed".to_string()
            } else {
                format!("'{line}' is not a move here")
            };
            let keys = if choices.len() <= 8 {
                or_list(&choices.iter().map(|c| c.key.clone()).collect::<Vec<_>>())
            } else {
                format!("a listed key (? lists all {})", choices.len())
            };
            // Past the columns (a long key typed, many moves) it wraps.
            let said = format!("{what}: type {keys}, or q to quit");
            let words: Vec<String> = said.split(' ').map(str::to_string).collect();
            let lines = match columns(&said) > WIDTH {
                true => wrapped(&words, "", " ").join("\n"),
                false => said,
            };
            self.say(&format!("{lines}\n"));
            wrong += 1;
            if self.echo && wrong >= WRONG_KEYS {
                std::panic::resume_unwind(Box::new(Quit::Stuck));
            }
        }
    }
}

/// Whether `typed` is `key`: the same words (separated by spaces or
/// commas), in any order and any case. A key of one word is typed as it
/// is; a key of several (a set of cards) in any order.
fn same_key(key: &str, typed: &str) -> bool {
    let words = |s: &str| {
        let mut w: Vec<String> = s
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        w.sort();
        w
    };
    key.eq_ignore_ascii_case(typed) || (key.contains(' ') && words(key) == words(typed))
}

/// The columns everything `sim play` writes fits in.
pub const WIDTH: usize = 80;

/// The most moves a hint gives figures for (the best ones) when there are
/// more than one more than this.
pub const HINT_MOVES: usize = 5;

/// The most lines a list of moves takes before the rest waits for `?`.
pub const MENU_LINES: usize = 4;

/// How many columns `text` takes on a terminal: its characters without
/// the ANSI colour sequences.
pub fn columns(text: &str) -> usize {
    let mut n = 0;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for e in chars.by_ref() {
                if e.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            n += 1;
        }
    }
    n
}

/// `items` laid out in lines of at most [`WIDTH`] columns, each line
/// starting with `indent` and the items of a line joined by `sep`; an item
/// longer than a line has one to itself.
pub fn wrapped(items: &[String], indent: &str, sep: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut used = 0;
    for item in items {
        let w = columns(item);
        if used > 0 && used + columns(sep) + w > WIDTH {
            lines.push(std::mem::take(&mut line));
            used = 0;
        }
        if used == 0 {
            line.push_str(indent);
            used = columns(indent);
        } else {
            line.push_str(sep);
            used += columns(sep);
        }
        line.push_str(item);
        used += w;
    }
    if used > 0 {
        lines.push(line);
    }
    lines
}

/// `line` with every `seat N` in seat N's colour ([`Console::seat`]), the
/// person's `seat me` followed by `(you)`; and whether the line tells of
/// another seat (it starts with `seat N`, N not `me`): a bot's move, after
/// which the narration pauses.
pub fn seats_painted(c: &Console, line: &str, me: usize) -> (String, bool) {
    let mut out = String::with_capacity(line.len() + 16);
    let mut rest = line;
    let mut first: Option<usize> = None;
    while let Some(at) = rest.find("seat ") {
        let digits = rest[at + 5..].bytes().take_while(u8::is_ascii_digit).count();
        let (before, tail) = rest.split_at(at);
        out.push_str(before);
        if digits == 0 {
            out.push_str("seat ");
            rest = &tail[5..];
            continue;
        }
        let label = &tail[..5 + digits];
        let n: usize = label[5..].parse().unwrap_or(usize::MAX);
        if first.is_none() && before.trim().is_empty() {
            first = Some(n);
        }
        let shown = if n == me {
            format!("{label} (you)")
        } else {
            label.to_string()
        };
        out.push_str(&c.seat(n, me, &shown));
        rest = &tail[5 + digits..];
    }
    out.push_str(rest);
    (out, first.is_some_and(|n| n != me))
}

/// `a`, `a or b`, `a, b or c`.
pub fn or_list(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// A writer into a buffer shared with the one who reads it (the game's
/// trace, read back for the hint and saved at the end or on Ctrl-C).
#[derive(Clone, Default)]
pub struct Shared(Arc<Mutex<Vec<u8>>>);

impl Shared {
    /// Everything written so far.
    pub fn bytes(&self) -> Vec<u8> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl Write for Shared {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// How the hint is asked: `sim advise`'s model, budget and empty position
/// flags (the position itself comes from the trace).
pub struct Hint<G: Game + ?Sized> {
    /// The policy every seat plays after the move, in the playouts.
    pub model: G::Policy,
    /// Playouts and seed.
    pub budget: Budget,
    /// `sim advise GAME` with no flag given.
    pub flags: clap::ArgMatches,
}

/// A decision where the person's move and the advice differed.
#[derive(Clone, Debug)]
pub struct Differed {
    /// What the decision was (`round 2, hit or stay at 21`).
    pub when: String,
    /// The person's move, in words.
    pub played: String,
    /// The advised move, in words.
    pub advised: String,
    /// The chance to win of the person's move, in the advice.
    pub played_win: f64,
    /// The chance to win of the advised move.
    pub advised_win: f64,
}

/// The moves the hint weighed at a decision answered a card at a time:
/// each move's key in the advice and its name, and its figure.
#[derive(Clone, Debug)]
pub struct Weighed {
    moves: Vec<(String, String)>,
    figures: Vec<f64>,
}

/// One game of `sim play`.
pub struct Session<G: Game + ?Sized> {
    /// The person's terminal.
    pub console: Console,
    seat: usize,
    names: Vec<String>,
    trace: Shared,
    hint: Option<Hint<G>>,
    differed: Vec<Differed>,
    decisions: u32,
}

impl<G: Game + ?Sized> Session<G> {
    /// The person at seat `seat`, talking through `console`, each seat
    /// shown as `names[s]` (the person's `you`); the trace goes to `trace`
    /// (the run's first line already in it); `hint`, when given, is asked
    /// before every decision.
    pub fn new(
        console: Console,
        seat: usize,
        names: Vec<String>,
        trace: Shared,
        hint: Option<Hint<G>>,
    ) -> Session<G> {
        Session {
            console,
            seat,
            names,
            trace,
            hint,
            differed: Vec::new(),
            decisions: 0,
        }
    }

    /// The person's seat.
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// The name each seat is shown by (the bot's spec; `you`).
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Where the game's JSON trace observer writes.
    pub fn trace_sink(&self) -> Shared {
        self.trace.clone()
    }

    /// Whether the hint was asked for (`--hint`): a game asking a decision
    /// without [`Session::ask`] says itself that the hint has none there.
    pub fn hints(&self) -> bool {
        self.hint.is_some()
    }

    /// The decisions the person made.
    pub fn decisions(&self) -> u32 {
        self.decisions
    }

    /// The decisions where the person's move and the advice differed.
    pub fn differed(&self) -> &[Differed] {
        &self.differed
    }

    /// One line of what happened; `bot` (another seat's move or card) is
    /// followed by the console's pause.
    pub fn narrate(&self, line: &str, bot: bool) {
        self.console.say(&format!("{line}\n"));
        if bot {
            self.console.pause();
        }
    }

    /// Asks the person for one of `choices` at the position drawn as
    /// `table`: `question` says what is decided, `when` names the decision
    /// in the review, and `stand_in` is the JSON event of a move at this
    /// decision (its fields without `game`): the trace up to it is the
    /// position `sim advise` reads for the hint. With one choice only, it
    /// is played and said. Returns the index of the choice made.
    pub fn ask(
        &mut self,
        table: &str,
        question: &str,
        when: &str,
        stand_in: Value,
        choices: &[Choice],
    ) -> usize {
        self.console.say(table);
        if choices.len() == 1 {
            self.console
                .say(&format!("{question} {}, the only move\n", choices[0].label));
            return 0;
        }
        let advice = self.hint.as_ref().map(|h| self.advise(h, stand_in, choices));
        match &advice {
            Some(Ok((_, text))) => self.console.say(text),
            Some(Err(why)) => self.console.say(&format!("hint: none here ({why})\n")),
            None => {}
        }
        let k = self.console.choose(question, choices);
        self.decisions += 1;
        if let Some(Ok((figures, _))) = advice {
            let best = (0..choices.len())
                .max_by(|&a, &b| figures[a].total_cmp(&figures[b]).then(b.cmp(&a)))
                .unwrap_or(k);
            if figures[k] < figures[best] {
                self.differed.push(Differed {
                    when: when.to_string(),
                    played: choices[k].label.clone(),
                    advised: choices[best].label.clone(),
                    played_win: figures[k],
                    advised_win: figures[best],
                });
            }
        }
        k
    }

    /// The hint at a decision the person answers a card at a time (a set
    /// of cards), where no menu names the whole moves: the advice's own
    /// moves, as it names them, the best few with their chances, said
    /// before the first card is asked (or why there is no hint). Returns
    /// what [`Session::settle`] reviews the move made against.
    pub fn hint_open(&mut self, stand_in: Value) -> Option<Weighed> {
        let h = self.hint.as_ref()?;
        let got = self.consult(h, stand_in).and_then(|(answer, win, measure)| {
            let choices: Vec<Choice> = answer
                .moves
                .iter()
                .map(|m| Choice::new(m.mv.name.clone(), m.mv.name.clone(), m.mv.key.clone()))
                .collect();
            let (figures, text) = self.figured(&answer, win, measure, &choices)?;
            Ok((choices, figures, text))
        });
        match got {
            Ok((choices, figures, text)) => {
                self.console.say(&text);
                let moves = choices.into_iter().map(|c| (c.advised_as, c.label)).collect();
                Some(Weighed { moves, figures })
            }
            Err(why) => {
                self.console.say(&format!("hint: none here ({why})\n"));
                None
            }
        }
    }

    /// Counts a decision answered a card at a time: `played_as` is the
    /// advice's key of the move made. With the hint given there
    /// (`weighed`), the review lists it when the advice weighed it and
    /// found a better one (a move the advice did not weigh is not
    /// reviewed).
    pub fn settle(&mut self, when: &str, weighed: Option<Weighed>, played_as: &str) {
        self.decisions += 1;
        let Some(w) = weighed else { return };
        let Some(k) = w.moves.iter().position(|(key, _)| key == played_as) else {
            return;
        };
        let best = (0..w.moves.len()).max_by(|&a, &b| w.figures[a].total_cmp(&w.figures[b]).then(b.cmp(&a)));
        if let Some(best) = best.filter(|&b| w.figures[k] < w.figures[b]) {
            self.differed.push(Differed {
                when: when.to_string(),
                played: w.moves[k].1.clone(),
                advised: w.moves[best].1.clone(),
                played_win: w.figures[k],
                advised_win: w.figures[best],
            });
        }
    }

    /// `sim advise`'s answer at the decision `stand_in` stands for: each
    /// choice's chance to win (in the order of `choices`) and the hint's
    /// text, or why there is no hint here.
    fn advise(&self, h: &Hint<G>, stand_in: Value, choices: &[Choice]) -> Result<(Vec<f64>, String), String> {
        let (answer, win, measure) = self.consult(h, stand_in)?;
        self.figured(&answer, win, measure, choices)
    }

    /// `sim advise`'s answer at the decision `stand_in` stands for, the
    /// index of the measure it ranks by, and that measure.
    fn consult(
        &self,
        h: &Hint<G>,
        stand_in: Value,
    ) -> Result<(advise::Advice, usize, advise::Measure), String> {
        let mut text = String::from_utf8_lossy(&self.trace.bytes()).into_owned();
        let mut event = serde_json::Map::new();
        event.insert("game".into(), 0.into());
        if let Value::Object(f) = stand_in {
            event.extend(f);
        }
        text.push_str(&Value::Object(event).to_string());
        text.push('\n');
        let cut = advise::cut_trace(&text, "the game", G::NAME, None)?;
        let position = G::advise_position(&h.flags, h.model.clone(), Some(&cut))?;
        let answer = advise::advise(position.as_ref(), &h.budget);
        let win = position.ranked_by();
        let measure = position.measures()[win];
        Ok((answer, win, measure))
    }

    /// The figures of `choices` in `answer` and the hint's text.
    fn figured(
        &self,
        answer: &advise::Advice,
        win: usize,
        measure: advise::Measure,
        choices: &[Choice],
    ) -> Result<(Vec<f64>, String), String> {
        let mut figures = Vec::with_capacity(choices.len());
        let mut parts = Vec::with_capacity(choices.len());
        for c in choices {
            let f = answer
                .moves
                .iter()
                .find(|m| m.mv.key == c.advised_as)
                .ok_or_else(|| format!("the advice has no move '{}'", c.advised_as))?;
            let (est, se) = f.estimates[win];
            figures.push(est);
            parts.push(if measure.chance {
                format!("{} {:.1}% ± {:.1}", c.key, 100.0 * est, 196.0 * se)
            } else {
                format!("{} {est:.1} ± {:.1}", c.key, 1.96 * se)
            });
        }
        let best = &answer.moves[answer.best].mv;
        let key = choices
            .iter()
            .find(|c| c.advised_as == best.key && c.key != c.label)
            .map_or(String::new(), |c| format!(" [{}]", c.key));
        let measure = measure.name;
        let head = format!(
            "{} {}{key}   ({} playouts a move)",
            self.console.paint("1;32", "hint:"),
            best.name,
            super::args::format_count(answer.playouts)
        );
        // Choices advised as one move (cards the rules do not tell apart)
        // are figured once, by the first of them.
        let mut order: Vec<usize> = (0..choices.len())
            .filter(|&i| choices[..i].iter().all(|c| c.advised_as != choices[i].advised_as))
            .collect();
        let distinct = order.len();
        let shown = if distinct > HINT_MOVES + 1 {
            order.sort_by(|&a, &b| figures[b].total_cmp(&figures[a]).then(a.cmp(&b)));
            order.truncate(HINT_MOVES);
            order.sort_unstable();
            HINT_MOVES
        } else {
            distinct
        };
        let mut items: Vec<String> = order.iter().map(|&i| parts[i].clone()).collect();
        items[0] = format!("{measure}: {}", items[0]);
        if shown < distinct {
            items.push(format!("(the best {shown} of {distinct} moves)"));
        }
        let mut text = format!("{head}\n");
        for l in wrapped(&items, "  ", ", ") {
            text.push_str(&l);
            text.push('\n');
        }
        Ok((figures, text))
    }

    /// The review after the game: the decisions where the person's move
    /// and the advice differed, with what each was worth.
    pub fn review(&self) -> String {
        if self.hint.is_none() {
            return String::new();
        }
        let n = self.decisions;
        if n == 0 {
            return "review: you made no decision.\n".to_string();
        }
        if self.differed.is_empty() {
            return format!(
                "review: your {} agreed with the advice.\n",
                super::show::plural(n.into(), "decision")
            );
        }
        let mut out = format!(
            "review: {} of your {} differed from the advice:\n",
            self.differed.len(),
            super::show::plural(n.into(), "decision")
        );
        for d in &self.differed {
            let played = format!(
                "    your move: {} ({:.1}% to win);",
                d.played,
                100.0 * d.played_win
            );
            let advised = format!("advised: {} ({:.1}%)", d.advised, 100.0 * d.advised_win);
            // Past the width, the advice goes on a line of its own.
            let sep = if columns(&played) + 1 + columns(&advised) > WIDTH {
                "\n    "
            } else {
                " "
            };
            out.push_str(&format!("  {}:\n{played}{sep}{advised}\n", d.when));
        }
        out
    }
}

/// A writer that hands each whole line written to it, without its
/// newline, to `each`: a game's readable trace told to the person line
/// by line, as the game writes it.
pub struct ByLine<F: FnMut(&str)> {
    line: Vec<u8>,
    each: F,
}

impl<F: FnMut(&str)> ByLine<F> {
    /// A writer calling `each` once a line.
    pub fn new(each: F) -> Self {
        ByLine {
            line: Vec::new(),
            each,
        }
    }
}

impl<F: FnMut(&str)> std::io::Write for ByLine<F> {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        for &byte in b {
            if byte == b'\n' {
                let text = String::from_utf8_lossy(&self.line).into_owned();
                self.line.clear();
                (self.each)(&text);
            } else {
                self.line.push(byte);
            }
        }
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choices() -> Vec<Choice> {
        vec![Choice::new("h", "hit", "hit"), Choice::new("s", "stay", "stay")]
    }

    fn targets() -> Vec<Choice> {
        vec![
            Choice::new("0", "yourself", "seat:0"),
            Choice::new("1", "seat 1", "seat:1"),
        ]
    }

    #[test]
    fn by_line_hands_on_whole_lines_however_they_are_written() {
        use std::io::Write;
        let mut got: Vec<String> = Vec::new();
        {
            let mut w = ByLine::new(|l: &str| got.push(l.to_string()));
            w.write_all(b"seat 1 hi").unwrap();
            w.write_all(b"ts\n\nseat 2 st").unwrap();
            w.write_all(b"ays\nhalf").unwrap();
        }
        assert_eq!(got, ["seat 1 hits", "", "seat 2 stays"]);
    }

    #[test]
    fn a_wrong_key_is_explained_and_asked_again() {
        let mut c = Console::scripted(std::io::Cursor::new("x\n\nS\n"));
        assert_eq!(c.choose("hit or stay?", &choices()), 1);
    }

    #[test]
    fn q_and_the_end_of_input_unwind_with_why() {
        let stuck = "s\n".repeat(WRONG_KEYS as usize + 1);
        for (script, why) in [
            ("x\nq\n", Quit::Asked),
            ("x\n", Quit::EndOfInput),
            (stuck.as_str(), Quit::Stuck),
        ] {
            let mut c = Console::scripted(std::io::Cursor::new(script.to_string()));
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| c.choose("?", &targets())));
            let payload = r.expect_err("quits");
            assert_eq!(*payload.downcast::<Quit>().expect("a Quit"), why);
        }
    }

    #[test]
    fn a_long_menu_is_wrapped_within_80_columns_and_the_rest_listed_on_a_question_mark() {
        let many: Vec<Choice> = (0..60)
            .map(|i| Choice::new(format!("k{i}"), format!("move number {i}"), format!("m{i}")))
            .collect();
        let lines = wrapped(
            &many.iter().map(|c| c.label.clone()).collect::<Vec<_>>(),
            "  ",
            "  ",
        );
        assert!(lines.len() > MENU_LINES);
        assert!(lines.iter().all(|l| columns(l) <= WIDTH), "{lines:?}");
        let mut c = Console::scripted(std::io::Cursor::new("?\nk59\n"));
        assert_eq!(c.choose("which?", &many), 59);
    }

    #[test]
    fn a_key_of_several_words_is_typed_in_any_order() {
        assert!(same_key("KS AH 2D", "2d ks ah"));
        assert!(same_key("KS AH 2D", "ah,2d, ks"));
        assert!(!same_key("KS AH 2D", "ks ah"));
        assert!(same_key("h", "H"));
        assert!(!same_key("h", "h h"));
    }

    #[test]
    fn columns_do_not_count_colour_codes() {
        assert_eq!(columns("\x1b[1;36mseat 1\x1b[0m"), 6);
        assert_eq!(columns("seat · 1"), 8);
    }

    #[test]
    fn or_list_joins_words() {
        let w = |v: &[&str]| or_list(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(w(&["h"]), "h");
        assert_eq!(w(&["h", "s"]), "h or s");
        assert_eq!(w(&["0", "1", "2"]), "0, 1 or 2");
    }

    #[test]
    fn seats_are_named_and_bots_found() {
        let c = Console::scripted(std::io::Cursor::new(""));
        assert_eq!(
            seats_painted(&c, "    seat 1 gives Freeze to seat 0", 0),
            ("    seat 1 gives Freeze to seat 0 (you)".to_string(), true)
        );
        assert_eq!(
            seats_painted(&c, "seat 0 hits", 0),
            ("seat 0 (you) hits".to_string(), false)
        );
        assert_eq!(
            seats_painted(&c, "the seat is 12", 3),
            ("the seat is 12".to_string(), false)
        );
        assert!(!seats_painted(&c, "round 2 (dealer seat 12)", 1).1);
    }

    #[test]
    fn plain_console_paints_nothing() {
        let c = Console::scripted(std::io::Cursor::new(""));
        assert_eq!(c.paint("1", "x"), "x");
        assert_eq!(c.seat(2, 0, "seat 2"), "seat 2");
    }
}
