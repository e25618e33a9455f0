//! `sim play ib-flip`: a person at one seat, the bots at the others.
//!
//! IB-Flip hides cards: every hand is seen by its owner only (its size by
//! all), the face-down cards by nobody (their owner included), the draw
//! pile's order by nobody. The table is drawn as the person's seat sees
//! it: the live pile and what to play on, each seat's face-up cards, the
//! sizes of hands and face-down rows, the hand cards everybody knows of
//! (picked up in view of all), and the person's own hand. The narration
//! is the readable trace's, with the three kinds of line that name hidden
//! cards rewritten: the deal (face-down cards and other hands), another
//! seat's fixing (its hand) and another seat's draws (a count only).
//!
//! The person decides the fixing (which cards go face up: the cards'
//! names, space-separated), each turn's play (a rank and how many, or
//! reveal / pick up when stuck), the add-on of drawn cards of the rank
//! just played, and which face-down card to turn.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use serde_json::{Value, json};

use super::IbFlip;
use super::cards::*;
use super::policies::{Policy, Seats};
use super::rules::{Action, Chooser, End, Event, Observer, Out, Table, View, Zone, fix_is_legal};
use super::trace::{Trace, out_key, target_name};
use crate::engine::console::{ByLine, Choice, Console, Session, WIDTH, columns, seats_painted, wrapped};
use crate::engine::observe::{TraceFormat, TraceWriter};
use crate::engine::rng::{Draw, seeded_game_rng};

/// The person's seat asked, every other seat played by its bot.
struct Person<'s> {
    session: &'s RefCell<Session<IbFlip>>,
    me: usize,
    names: Vec<String>,
    bots: Seats,
    /// The cards the person drew last (for the add-on).
    drawn: Rc<Cell<CardSet>>,
    /// The person's fixing steps so far.
    fix_steps: u32,
}

impl Person<'_> {
    fn ask(&self, v: &View<'_>, question: &str, when: &str, stand_in: Value, choices: &[Choice]) -> usize {
        let fixing = stand_in["event"] == "fix";
        let drawn = {
            let s = self.session.borrow();
            drawing(v, &self.names, &s.console, fixing)
        };
        self.session.borrow_mut().ask(&drawn, question, when, stand_in, choices)
    }
}

impl Chooser for Person<'_> {
    fn fix<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> CardSet {
        if v.seat() != self.me {
            return self.bots.fix(v, d);
        }
        let sets = fix_sets(v);
        let up_now = v.up(self.me);
        let choices: Vec<Choice> = sets
            .iter()
            .map(|&up| {
                let hand = format!("hand {}", shown((v.hand() | up_now) & !up));
                let label = if up == up_now { format!("{hand} (as now)") } else { hand };
                Choice::new(shown(up), label, fix_key(up))
            })
            .collect();
        let stand_in = json!({
            "event": "fix", "seat": self.me, "step": self.fix_steps + 1,
            "up": list(up_now), "hand": list(v.hand()), "drew": Vec::<String>::new(),
        });
        self.fix_steps += 1;
        let question = "Fixing: which cards go face up? Type them, e.g. KS AH 2D, in any order\n\
                        (at most 3 ranks; cards of one rank stack in one slot; hand refills to 3)";
        let k = self.ask(v, question, "fixing, the cards face up (the rest in hand)", stand_in, &choices);
        sets[k]
    }

    fn act<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Action {
        if v.seat() != self.me {
            return self.bots.act(v, d);
        }
        let (actions, choices) = turn_choices(v);
        let stand_in = turn_stand_in(v);
        let on = target_name(v.target());
        let from = if v.zone(self.me) == Zone::Hand { "your hand" } else { "your face-up cards" };
        let question = if v.legal() == 0 {
            format!("Nothing in {from} goes on {on}: reveal the draw pile's top, or pick up?")
        } else {
            format!("Your turn, on {on}: which play from {from}?")
        };
        let when = format!("move {}, a turn on {on} ({} held)", v.moves(), held(v).count_ones());
        let k = self.ask(v, &question, &when, stand_in, &choices);
        actions[k]
    }

    fn add_on<D: Draw>(&mut self, v: &View<'_>, rank: Rank, avail: u8, d: &mut D) -> u8 {
        if v.seat() != self.me {
            return self.bots.add_on(v, rank, avail, d);
        }
        let mut same = self.drawn.get() & rank_set(rank) & v.hand();
        if same.count_ones() != u32::from(avail) {
            // Never expected: the drawn cards as the rules count them.
            same = lowest_k(v.hand() & rank_set(rank), u32::from(avail));
        }
        let r = RANK_NAMES[usize::from(rank)];
        let choices: Vec<Choice> = (0..=avail)
            .map(|k| {
                let label = match k {
                    0 => "add none".to_string(),
                    _ => format!("add {}", shown(lowest_k(same, u32::from(k)))),
                };
                Choice::new(k.to_string(), label, format!("add:{k}"))
            })
            .collect();
        let stand_in = json!({ "event": "add_on", "seat": self.me, "cards": list(lowest_k(same, 1)) });
        let question = format!("You drew {} of the rank you played ({r}): add how many to the play?", shown(same));
        let when = format!("move {}, adding drawn {r}s", v.moves());
        let k = self.ask(v, &question, &when, stand_in, &choices);
        k as u8
    }

    fn face_down<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> usize {
        if v.seat() != self.me {
            return self.bots.face_down(v, d);
        }
        let n = v.down_count(self.me);
        let choices: Vec<Choice> = (0..n)
            .map(|k| Choice::new((k + 1).to_string(), format!("card {} of {n}", k + 1), format!("slot:{k}")))
            .collect();
        // The stand-in names the card that will turn up: only the advice
        // reads it, and its playouts deal the face-down cards afresh.
        let c = v.table().downs(self.me)[0];
        let ok = v.can_on(v.target()) & (1 << rank(c)) != 0;
        let stand_in = json!({
            "event": "face_down", "seat": self.me, "slot": 0, "card": name(c), "ok": ok, "move": v.moves(),
        });
        let on = target_name(v.target());
        let question = format!("Your face-down cards, on {on}: which do you turn (nobody knows them)?");
        let when = format!("move {}, a face-down card on {on}", v.moves());
        self.ask(v, &question, &when, stand_in, &choices)
    }

    fn deterministic(&self) -> bool {
        // As the run line's notes say: the repetition rule holds when every
        // bot decides without random numbers.
        self.bots.deterministic()
    }
}

/// The JSON names of a set's cards, lowest id first (as the trace lists them).
fn list(s: CardSet) -> Vec<String> {
    cards_of(s).map(name).collect()
}

/// A set's cards in the game order (lowest first), for the person.
fn shown(s: CardSet) -> String {
    if s == 0 {
        return "-".into();
    }
    let mut v: Vec<String> = Vec::new();
    for r in BY_ORDER {
        v.extend(cards_of(s & rank_set(r)).map(name));
    }
    v.join(" ")
}

/// `sim advise`'s key of a fixing answer.
fn fix_key(up: CardSet) -> String {
    format!("up:{}", list(up).join(","))
}

/// Every legal face-up set of the fixing, as `sim advise` orders them: the
/// cards up now first, then by how many cards change place.
fn fix_sets(v: &View<'_>) -> Vec<CardSet> {
    let up_now = v.up(v.seat());
    let pool = v.hand() | up_now;
    let cards: Vec<Card> = cards_of(pool).collect();
    let mut sets: Vec<CardSet> = (0u32..1 << cards.len())
        .map(|bits| {
            (0..cards.len())
                .filter(|i| bits >> i & 1 == 1)
                .fold(0, |m, i| m | 1 << cards[i])
        })
        .filter(|&up| fix_is_legal(pool, up))
        .collect();
    sets.sort_by_key(|&up| ((up ^ up_now).count_ones(), up));
    sets
}

/// The cards the person plays from now: the hand, or the face-up cards.
fn held(v: &View<'_>) -> CardSet {
    if v.zone(v.seat()) == Zone::Hand { v.hand() } else { v.up(v.seat()) }
}

/// The actions of a turn and their choices: each playable rank with every
/// number of its cards (`8` one, `8x2` two...; queens `qx1`, `qx2`...,
/// as `q` quits), `r` reveal, `p` pick up.
fn turn_choices(v: &View<'_>) -> (Vec<Action>, Vec<Choice>) {
    let legal = v.legal();
    let cards = held(v);
    let mut actions = Vec::new();
    let mut choices = Vec::new();
    for r in BY_ORDER {
        if legal & (1 << r) == 0 {
            continue;
        }
        let of_rank = cards & rank_set(r);
        let word = RANK_NAMES[usize::from(r)].to_ascii_lowercase();
        for k in 1..=of_rank.count_ones() {
            // `q` quits: every play of queens names its count.
            let key = if k == 1 && r != QUEEN { word.clone() } else { format!("{word}x{k}") };
            let label = format!("play {}", shown(lowest_k(of_rank, k)));
            let advised = format!("play:{}x{k}", RANK_NAMES[usize::from(r)]);
            actions.push(Action::Play { rank: r, count: k as u8 });
            choices.push(Choice::new(key, label, advised));
        }
    }
    if legal == 0 {
        actions.push(Action::Reveal);
        choices.push(Choice::new("r", "reveal the top card", "reveal"));
    }
    if legal == 0 || v.rules().voluntary_pickup {
        actions.push(Action::Pickup);
        let label = format!("pick up {}", crate::engine::show::plural(v.live_count() as u64, "card"));
        choices.push(Choice::new("p", label, "pickup"));
    }
    (actions, choices)
}

/// A move of this turn as the trace writes it: the lowest legal rank's
/// lowest card, or (stuck) the pick-up.
fn turn_stand_in(v: &View<'_>) -> Value {
    let p = v.seat();
    let legal = v.legal();
    let Some(r) = BY_ORDER.into_iter().find(|&r| legal & (1 << r) != 0) else {
        let live: Vec<String> = v.live().map(|(c, _)| name(c)).collect();
        return json!({ "event": "pickup", "seat": p, "cards": live, "move": v.moves() });
    };
    let from = if v.zone(p) == Zone::Hand { "hand" } else { "face_up" };
    let card = lowest_k(held(v) & rank_set(r), 1);
    json!({
        "event": "play", "seat": p, "cards": list(card), "from": from,
        "on": target_name(v.target()), "move": v.moves(),
    })
}

/// What a seat has left and how it stands, in words.
fn state(v: &View<'_>, s: usize) -> String {
    let t = v.table();
    if !v.is_active(s) {
        let how = match t.how(s) {
            Out::Legal => "finished".to_string(),
            Out::Last => "last left".to_string(),
            o => out_key(o).replace('_', " "),
        };
        return format!("out: place {} ({how})", t.place(s));
    }
    match v.zone(s) {
        Zone::Hand => "plays from the hand".into(),
        Zone::FaceUp => "plays face up".into(),
        Zone::FaceDown => "plays face down".into(),
    }
}

/// The live pile, its last cards (the top last) and what goes on it.
fn live_line(v: &View<'_>) -> String {
    let live: Vec<String> = v.live().map(|(c, _)| name(c)).collect();
    let n = live.len();
    const SHOWN: usize = 12;
    let cards = if n == 0 {
        "empty".to_string()
    } else if n > SHOWN {
        format!("... {}", live[n - SHOWN..].join(" "))
    } else {
        live.join(" ")
    };
    let on = match target_name(v.target()) {
        "zero" => "anything (zero)".to_string(),
        t => t.to_string(),
    };
    format!("live pile ({n}): {cards}   play on: {on}")
}

/// The table as seat `v.seat()` sees it, within 80 columns: the piles,
/// whose turn, each seat's face-up cards, hand size (the person's hand,
/// the cards of others' hands everybody knows), face-down count, state;
/// `fixing` before the first move.
fn drawing(v: &View<'_>, names: &[String], c: &Console, fixing: bool) -> String {
    let me = v.seat();
    let t = v.table();
    let cur = t.current();
    let dot = if c.symbols() { " · " } else { " | " };
    let turn = if fixing {
        "fixing, seat 0 first".to_string()
    } else if cur == me {
        "your turn".to_string()
    } else {
        format!("seat {cur} to play")
    };
    let dir = if v.reversed() { "counter-clockwise" } else { "clockwise" };
    let head = [
        format!("move {}", v.moves()),
        format!("draw pile {}", v.draw_count()),
        format!("discard {} (face down)", v.discard_count()),
        dir.to_string(),
        turn,
    ]
    .join(dot);
    let mut out = format!("\n{}\n{}\n", c.paint("1", &head), live_line(v));
    for (s, label) in names.iter().enumerate().take(v.players()) {
        let mark = if s == me { ">" } else { " " };
        let name: String = label.chars().take(12).collect();
        let (count, cards) = if s == me {
            (v.hand_size(s), format!("your hand: {}", shown(v.hand())))
        } else {
            (v.hand_size(s), format!("known in its hand: {}", shown(v.known_hand(s))))
        };
        let row = format!(
            "{mark} seat {s} {name:<12}  hand {count:>2}  down {}  up {:<12}  {}",
            v.down_count(s),
            shown(v.up(s)),
            state(v, s)
        );
        let mut lines = fold(&row, "", "      ");
        if s == me || v.known_hand(s) != 0 {
            lines.extend(fold(&cards, "      ", "        "));
        }
        for line in lines {
            debug_assert!(columns(&line) <= WIDTH);
            out.push_str(&c.seat(s, me, &line));
            out.push('\n');
        }
    }
    out
}

/// `text` folded at its spaces within [`WIDTH`] columns: its words after
/// `first` on the first line, after `rest` on the others.
fn fold(text: &str, first: &str, rest: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = first.to_string();
    for (i, w) in text.split(' ').enumerate() {
        if i > 0 && !w.is_empty() && columns(&line) + 1 + columns(w) > WIDTH {
            lines.push(line.trim_end().to_string());
            line = format!("{rest}{w}");
            continue;
        }
        if i > 0 {
            line.push(' ');
        }
        line.push_str(w);
    }
    lines.push(line);
    lines
}

/// A line of the readable trace as seat `me` may be told it, or `None`
/// when it is left out (the game's header and result: the table and the
/// closing line say them). Lines naming hidden cards are rewritten: the
/// deal's (no face-down card, no other seat's hand), another seat's
/// fixing (its face-up cards only) and another seat's draws (a count).
fn told(line: &str, me: usize) -> Option<String> {
    if line.starts_with("game ") {
        return None;
    }
    let text = line.trim_start();
    let indent = &line[..line.len() - text.len()];
    let Some(rest) = text.strip_prefix("seat ") else {
        return Some(line.to_string());
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let seat: usize = rest[..digits].parse().ok()?;
    let tail = &rest[digits..];
    let mine = seat == me;
    let bracket = |key: &str| -> String {
        tail.find(key)
            .and_then(|at| {
                let from = at + key.len();
                tail[from..].find(']').map(|end| tail[from..from + end].to_string())
            })
            .unwrap_or_default()
    };
    let count = |cards: &str| cards.split_whitespace().count() as u64;
    let plural = crate::engine::show::plural;
    if tail.starts_with(": down [") {
        let hand = bracket("hand [");
        let hand = if mine { format!("hand [{hand}]") } else { plural(count(&hand), "card") + " in hand" };
        let downs = plural(count(&bracket("down [")), "card");
        return Some(format!("{indent}seat {seat}: up [{}], {hand}, {downs} face down", bracket("up [")));
    }
    if !mine && tail.starts_with(" fixes: ") {
        let drew = tail.find(", drew ").map_or(String::new(), |at| {
            format!(", draws {}", plural(count(&tail[at + 7..]), "card"))
        });
        return Some(format!("{indent}seat {seat} fixes: up [{}]{drew}", bracket("up [")));
    }
    if !mine && let Some(cards) = tail.strip_prefix(" draws ") {
        return Some(format!("{indent}seat {seat} draws {}", plural(count(cards), "card")));
    }
    Some(line.to_string())
}

/// Keeps the cards the person drew last, for the add-on's question.
struct Drawn {
    me: usize,
    cards: Rc<Cell<CardSet>>,
}

impl Observer<Table> for Drawn {
    const EVENTS: bool = true;
    fn event(&mut self, _t: &Table, e: Event) {
        if let Event::Drew { seat, cards } = e
            && seat == self.me
        {
            self.cards.set(cards);
        }
    }
}

/// The closing line: the places, or the stalemate.
fn closing(t: &Table, end: End, me: usize, names: &[String], c: &Console) -> String {
    let who = |s: usize| if s == me { "you".to_string() } else { format!("seat {s} ({})", names[s]) };
    let places: Vec<String> = (0..t.players())
        .map(|s| match t.place(s) {
            0 => format!("{} still in", who(s)),
            p => format!("{p}. {}", who(s)),
        })
        .collect();
    let line = match end {
        End::Stalemate { repetition } => {
            let why = if repetition { "the position repeats" } else { "the move cap" };
            format!("A stalemate after {} moves ({why}).", t.moves())
        }
        End::Complete => match (0..t.players()).find(|&s| t.place(s) == 1) {
            Some(w) if w == me => format!("You win after {} moves!", t.moves()),
            Some(w) => format!("{} wins after {} moves.", who(w), t.moves()),
            None => format!("The game ends after {} moves.", t.moves()),
        },
    };
    let items: Vec<String> = places.iter().map(|p| format!("{p};")).collect();
    let mut order = wrapped(&items, "", " ").join("\n");
    order.pop();
    format!("\n{}\n{}", c.paint("1", &line), c.paint("2", &format!("places: {order}")))
}

/// Plays one game of `sim play ib-flip` (see [`crate::engine::game::Game::play`]).
pub fn play(session: &RefCell<Session<IbFlip>>, sim: &super::IbFlipSim, seed: u64) -> Result<String, String> {
    let me = session.borrow().seat();
    let names = session.borrow().names().to_vec();
    let policies: Vec<Policy> = sim.policies.clone();
    let mut rng = seeded_game_rng(seed);
    let mut table = Table::new(sim.rules);
    table.new_game(&mut rng);
    let mut sink = session.borrow().trace_sink();
    let mut json = TraceWriter::with_format(&mut sink, TraceFormat::Json, 0);
    json.game_seed(seed);
    // The readable trace's lines, told to the person one by one as
    // [`told`] lets them through.
    let mut narration = ByLine::new(|text: &str| {
        let Some(text) = told(text, me) else { return };
        let s = session.borrow();
        let (painted, bot) = seats_painted(&s.console, &text, me);
        s.narrate(&fold(&painted, "", "      ").join("\n"), bot);
    });
    let mut text = TraceWriter::with_format(&mut narration, TraceFormat::Text, 0);
    let drawn = Rc::new(Cell::new(0));
    let mut person = Person {
        session,
        me,
        names: names.clone(),
        bots: Seats::new(policies),
        drawn: drawn.clone(),
        fix_steps: 0,
    };
    let end = {
        let mut observers = (
            (Trace::new(&mut json), Drawn { me, cards: drawn }),
            Trace::new(&mut text),
        );
        table.play_game(&mut person, &mut observers, &mut rng)
    };
    json.finish().map_err(|e| format!("the trace: {e}"))?;
    let c = &session.borrow().console;
    Ok(closing(&table, end, me, &names, c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::console::Shared;

    /// Plays `me` and the other seats with `finisher`; at each of `me`'s
    /// decisions taken while fewer than `keep` cards have left the draw
    /// pile and no face-down card is turned, keeps what the person would
    /// be shown: the drawing and the narration so far.
    struct Recorder {
        me: usize,
        keep: usize,
        bots: Seats,
        narration: Shared,
        shown: Vec<String>,
        worlds: crate::engine::rng::SimRng,
    }

    impl Recorder {
        fn record(&mut self, v: &View<'_>) {
            let hidden_untouched = (0..v.players()).all(|s| v.down_count(s) == 3);
            let drawn = DECK - 9 * v.players() - v.draw_count();
            if v.seat() != self.me || !hidden_untouched || drawn >= self.keep {
                return;
            }
            let c = Console::scripted(std::io::Cursor::new(""));
            let names: Vec<String> = (0..v.players()).map(|s| format!("bot {s}")).collect();
            let fixing = v.moves() == 0 && v.opening().is_none();
            let drawing_now = drawing(v, &names, &c, fixing);
            // Every hidden card dealt afresh: the same drawing.
            let world = v.sample_world(&mut self.worlds);
            assert_eq!(drawing(&View::new(&world, self.me), &names, &c, fixing), drawing_now);
            assert!(drawing_now.lines().all(|l| columns(l) <= WIDTH), "{drawing_now}");
            let text = String::from_utf8(self.narration.bytes()).unwrap();
            let told: Vec<String> = text.lines().filter_map(|l| told(l, self.me)).collect();
            self.shown.push(format!("{}\n{drawing_now}", told.join("\n")));
        }
    }

    impl Chooser for Recorder {
        fn fix<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> CardSet {
            self.record(v);
            self.bots.fix(v, d)
        }
        fn act<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Action {
            self.record(v);
            self.bots.act(v, d)
        }
        fn add_on<D: Draw>(&mut self, v: &View<'_>, rank: Rank, avail: u8, d: &mut D) -> u8 {
            self.record(v);
            self.bots.add_on(v, rank, avail, d)
        }
        fn face_down<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> usize {
            self.bots.face_down(v, d)
        }
        fn deterministic(&self) -> bool {
            true
        }
    }

    /// What seat `me` is shown in the game of `seed` at `players`, with
    /// every face-down card and the draw pile below its top `keep` cards
    /// put in reverse order when `hide`.
    fn shown(seed: u64, players: usize, me: usize, keep: usize, hide: bool) -> Vec<String> {
        let mut rng = seeded_game_rng(seed);
        let mut deck: [Card; DECK] = std::array::from_fn(|i| i as Card);
        rng.shuffle(&mut deck);
        if hide {
            let downs = 3 * players;
            let below = 9 * players + keep;
            let mut hidden: Vec<Card> = deck[..downs].iter().chain(&deck[below..]).copied().collect();
            hidden.reverse();
            deck[..downs].copy_from_slice(&hidden[..downs]);
            deck[below..].copy_from_slice(&hidden[downs..]);
        }
        let mut table = Table::new(super::super::rules::Rules::standard(players));
        table.deal(&deck);
        let narration = Shared::default();
        let mut sink = narration.clone();
        let mut w = TraceWriter::with_format(&mut sink, TraceFormat::Text, 0);
        let mut r = Recorder {
            me,
            keep,
            bots: Seats::new(vec![Policy::parse("finisher").unwrap(); players]),
            narration,
            shown: Vec::new(),
            worlds: seeded_game_rng(seed ^ 1),
        };
        table.play_game(&mut r, &mut Trace::new(&mut w), &mut rng);
        r.shown
    }

    /// The information test: what the person is shown (the drawing and
    /// the narration) does not change when what that seat cannot see
    /// changes: every face-down card, the draw pile's order below the
    /// cards drawn so far, and (for the drawing) every hidden card dealt
    /// afresh, other hands and the hidden discard included.
    #[test]
    fn what_the_person_is_shown_does_not_depend_on_the_hidden_cards() {
        for seed in 1..=12 {
            for (players, me) in [(2, 0), (2, 1), (4, 2)] {
                let plain = shown(seed, players, me, 10, false);
                assert!(!plain.is_empty(), "seed {seed}: no decision recorded");
                assert_eq!(plain, shown(seed, players, me, 10, true), "seed {seed}, {players} players");
            }
        }
    }

    #[test]
    fn hidden_cards_are_left_out_of_the_narration() {
        let deal = "  seat 1: down [2H 3H 4H] up [5S 6S 7S] hand [8D 9D JD]";
        assert_eq!(
            told(deal, 0).unwrap(),
            "  seat 1: up [5S 6S 7S], 3 cards in hand, 3 cards face down"
        );
        assert_eq!(
            told(deal, 1).unwrap(),
            "  seat 1: up [5S 6S 7S], hand [8D 9D JD], 3 cards face down"
        );
        assert_eq!(told("  seat 2 draws 5H 6C", 0).unwrap(), "  seat 2 draws 2 cards");
        assert_eq!(told("  seat 0 draws 5H 6C", 0).unwrap(), "  seat 0 draws 5H 6C");
        assert_eq!(
            told("  seat 1 fixes: up [AS AH 2D] hand [3C 4D 6H], drew 9C", 0).unwrap(),
            "  seat 1 fixes: up [AS AH 2D], draws 1 card"
        );
        assert_eq!(told("game 0: 2 players", 0), None);
        assert!(told("  seat 1 plays 8C from hand on 3   [live: 3C 8C]", 0).unwrap().contains("8C"));
    }
}
