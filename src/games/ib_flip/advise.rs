//! `sim advise ib-flip --trace FILE [--at LINE]`: an IB-Flip position at a
//! traced decision, as the engine's advice needs it ([`Position`]).
//!
//! # Reading the position
//!
//! The game's trace is replayed through the rules engine itself: the deal
//! as the `deal` event lists it, every earlier decision answered as the
//! trace records it (a scripted [`Chooser`]), every random outcome (a 9's
//! card, a 9s flip's pile) drawn as the trace shows it. Each event the
//! engine produces is written by the game's own trace writer and compared
//! with the trace's line; the first that differs is refused (`line N: ...`).
//! The table is kept at the moment the player of line `--at` is asked its
//! decision (default: the trace's last decision).
//!
//! The decisions that can be asked about:
//!
//! - a turn with cards in hand or face up (its line: the turn's `play`,
//!   a `reveal`, or a `pickup` the player chose while stuck): every legal
//!   play, each rank with every number of its cards, or, stuck with a hand
//!   and a draw pile, reveal or pick up (with `--voluntary-pickup`, picking
//!   up is a move at every turn);
//! - a face-down card (its `face_down` line): which slot to turn;
//! - an add-on (its `add_on` line, or the `draw` line after which the
//!   player was offered drawn cards of the rank just played, also when it
//!   added none): how many to add;
//! - a step of fixing (its `fix` line): which cards to have face up, every
//!   legal set of the hand and face-up cards (at least 3 cards of at most 3
//!   ranks, at most 3 left in hand), the cards up now first. A game resumes
//!   there through [`Table::resume_fixing`]: the step, the rest of the
//!   fixing, the start and the play.
//!
//! # Playouts
//!
//! A playout draws a world from what the mover knows only
//! ([`View::sample_world`]: the cards it cannot locate, gathered in card
//! order, then shuffled into every hidden place), so two traces that
//! differ only in cards the mover cannot see give the same answer to the
//! byte. It then plays the move and the rest of the game with the model in
//! every seat. The face-down slots are the same to the mover: the playout
//! of slot `j` puts into slot `j` the card the world dealt to the first
//! slot, so that every slot meets the same card and they compare exactly
//! equal. The mover's win (first place) goes into the first measure, the
//! players it finishes ahead of into the second (a stalemate leaves the
//! seats still in level with one another, between the places given).

use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

use serde_json::{Value, json};

use super::cards::*;
use super::policies::{Policy, Seats};
use super::rules::{
    AddOnAsked, Action, CHAIN, Chooser, End, Event, FixAsked, GHOST, ONE, Out, Rules, Silent, Table, UNPLAYED, View,
    Zone, fix_is_legal,
};
use super::trace::{Trace, out_key, target_name};
use crate::engine::advise::{WIN_CHANCE, Measure, Move, Position, TraceCut};
use crate::engine::observe::{Observer, TraceFormat, TraceWriter};
use crate::engine::rng::{Draw, SimRng};

/// The decision the mover is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// A turn with cards in hand or face up.
    Turn,
    /// Which face-down card to turn.
    FaceDown,
    /// How many drawn cards to add to the play in progress.
    AddOn(AddOnAsked),
    /// A step of fixing: which cards to have face up.
    Fix(FixAsked),
}

/// An answer to a decision, as the rules engine takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A turn's action.
    Act(Action),
    /// The face-down slot turned.
    Slot(usize),
    /// Drawn cards added.
    AddOn(u8),
    /// Fixing: the face-up cards.
    Fix(CardSet),
}

/// The table kept at a decision of the replay.
#[derive(Clone, Debug)]
struct Kept {
    table: Table,
    mover: usize,
    decision: Decision,
    line: usize,
    /// The trace's answer, when the trace goes on past the decision.
    traced: Option<Answer>,
    /// The index (into the game's events) of the first event after the
    /// decision was asked.
    next: usize,
}

/// What the replay shares between the trace writer's sink, the scripted
/// chooser and the scripted draws.
struct Shared {
    events: Vec<(usize, Value)>,
    /// Index of the next event the engine is to write.
    next: usize,
    /// The lines after `events` are not checked (the cut ends there).
    ended: bool,
    /// The decision was found, or the replay failed: nothing more is read.
    done: bool,
    error: Option<String>,
    buf: Vec<u8>,
    /// Lines written by the engine so far (compared or not).
    written: usize,
    /// The cards of the last `draw` event.
    drew: CardSet,
    /// Where the fixing stands (the seat fixing, its steps so far).
    fixing: FixAsked,
}

impl Shared {
    fn fail(&mut self, why: String) {
        if self.error.is_none() && !self.done {
            self.error = Some(why);
        }
        self.done = true;
    }

    /// The next event the engine is to write, if the replay still reads.
    fn upcoming(&self) -> Option<&(usize, Value)> {
        if self.done || self.ended {
            return None;
        }
        self.events.get(self.next)
    }

    /// Compares one line written by the engine with the trace's.
    fn line(&mut self, text: &[u8]) {
        self.written += 1;
        if self.done || self.ended {
            return;
        }
        let Some((n, want)) = self.events.get(self.next) else {
            self.ended = true;
            return;
        };
        let n = *n;
        let strip = |v: &Value| {
            let mut v = v.clone();
            if let Some(o) = v.as_object_mut() {
                o.remove("seed");
                o.remove("played_on");
            }
            v
        };
        let want = strip(want);
        // The same text is the same event; else the same JSON value.
        let same_text = serde_json::to_string(&want).is_ok_and(|w| w.as_bytes() == text);
        let got: Value = if same_text {
            Value::Null
        } else {
            serde_json::from_slice(text).unwrap_or(Value::Null)
        };
        if !same_text && strip(&got) != want {
            self.fail(format!(
                "line {n}: the trace does not follow the rules here: it has {want}, where replaying the game from its deal gives {}",
                strip(&got)
            ));
            return;
        }
        self.next += 1;
        if self.next == self.events.len() {
            self.ended = true;
        }
    }
}

type Link = Rc<RefCell<Shared>>;

/// The trace writer's output, checked line by line.
struct Sink(Link);

impl Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let mut s = self.0.borrow_mut();
        s.buf.extend_from_slice(bytes);
        while let Some(i) = s.buf.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = s.buf.drain(..=i).collect();
            s.line(&line[..i]);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The game's trace writer while the replay reads, and the last cards drawn.
struct Checked<'a, 'w> {
    trace: Trace<'a, 'w>,
    link: Link,
}

impl Observer<Table> for Checked<'_, '_> {
    const EVENTS: bool = true;

    fn event(&mut self, t: &Table, e: Event) {
        match e {
            Event::Drew { cards, .. } => self.link.borrow_mut().drew = cards,
            Event::FixStep { seat, drew, .. } => {
                let f = &mut self.link.borrow_mut().fixing;
                f.seat = seat;
                f.steps += 1;
                f.drew |= drew;
            }
            Event::Fixed { seat, .. } => {
                self.link.borrow_mut().fixing = FixAsked {
                    seat: seat + 1,
                    steps: 0,
                    drew: 0,
                }
            }
            _ => {}
        }
        let reading = !self.link.borrow().done;
        if reading {
            self.trace.event(t, e);
        }
    }

    fn game_end(&mut self, t: &Table, end: End) {
        let reading = !self.link.borrow().done;
        if reading {
            self.trace.game_end(t, end);
        }
    }
}

/// The random outcomes of play, as the trace shows them.
struct Scripted {
    link: Link,
    rng: SimRng,
}

impl Draw for Scripted {
    fn below(&mut self, n: u32) -> u32 {
        let mut s = self.link.borrow_mut();
        let Some((line, e)) = s.upcoming().cloned() else {
            return self.rng.below(n);
        };
        let ok = e["event"] == "nine_draw" && e["of"].as_u64() == Some(u64::from(n));
        match e["index"].as_u64().filter(|&k| ok && k < u64::from(n)) {
            Some(k) => k as u32,
            None => {
                s.fail(format!(
                    "line {line}: the trace does not follow the rules: a 9 draws one of the {n} cards of the discard pile here, but the trace has {e}"
                ));
                self.rng.below(n)
            }
        }
    }

    fn shuffle(&mut self, cards: &mut [u8]) {
        let mut s = self.link.borrow_mut();
        if let Some((line, e)) = s.upcoming().cloned() {
            let order: Option<Vec<Card>> = e["live"]
                .as_array()
                .and_then(|a| a.iter().map(|c| c.as_str().and_then(parse)).collect());
            let set = |v: &[Card]| v.iter().fold(0u64, |m, &c| m | 1 << c);
            match order {
                Some(o) if e["event"] == "nines_flip" && o.len() == cards.len() && set(&o) == set(cards) => {
                    cards.copy_from_slice(&o);
                    return;
                }
                _ => s.fail(format!(
                    "line {line}: the trace does not follow the rules: a 9s flip turns up the {} cards of the discard pile here, but the trace has {e}",
                    cards.len()
                )),
            }
        }
        for i in (1..cards.len()).rev() {
            let j = self.rng.below(i as u32 + 1) as usize;
            cards.swap(i, j);
        }
    }
}

/// Every decision answered as the trace records it; the table kept at the
/// decision asked for.
struct Script {
    link: Link,
    /// The line of the decision to keep (`None`: every one, the last kept).
    at: Option<usize>,
    kept: Option<Kept>,
    /// Whether to keep decisions at all (not while checking a resumption).
    keeping: bool,
    /// Cards of the play in progress so far.
    played: u32,
    deterministic: bool,
    fallback: Policy,
    rules: Rules,
}

fn cards_in(v: &Value) -> Option<Vec<Card>> {
    v.as_array()?.iter().map(|c| c.as_str().and_then(parse)).collect()
}

fn set_of(cards: &[Card]) -> CardSet {
    cards.iter().fold(0, |m, &c| m | 1 << c)
}

impl Script {
    /// The trace's answer to the decision `decision` of `v`'s player, from
    /// the next event, checked against the rules; `None` past the cut.
    /// `Err` when the trace has something else there.
    fn read(&self, v: &View<'_>, decision: Decision) -> Result<Option<Answer>, String> {
        let s = self.link.borrow();
        let Some((line, e)) = s.upcoming() else {
            return Ok(None);
        };
        let p = v.seat();
        let kind = e["event"].as_str().unwrap_or("?");
        let seat_ok = e["seat"].as_u64() == Some(p as u64);
        let wrong = |what: &str| format!("line {line}: the trace does not follow the rules: seat {p} is asked {what} here, but the trace has {e}");
        match decision {
            Decision::Turn => {
                let legal = v.legal();
                let zone = v.zone(p);
                let can_reveal = legal == 0 && zone == Zone::Hand && v.draw_count() > 0;
                match kind {
                    "play" if seat_ok => {
                        let from = if zone == Zone::Hand { "hand" } else { "face_up" };
                        let cards = cards_in(&e["cards"]).unwrap_or_default();
                        let r = cards.first().map(|&c| rank(c));
                        let held = if zone == Zone::Hand { v.hand() } else { v.up(p) };
                        match r {
                            Some(r)
                                if e["from"] == from
                                    && cards.iter().all(|&c| rank(c) == r)
                                    && legal & (1 << r) != 0
                                    && cards.len() as u32 <= count_rank(held, r) =>
                            {
                                Ok(Some(Answer::Act(Action::Play {
                                    rank: r,
                                    count: cards.len() as u8,
                                })))
                            }
                            _ => Err(wrong("for a turn (a legal play)")),
                        }
                    }
                    "reveal" if seat_ok && can_reveal => Ok(Some(Answer::Act(Action::Reveal))),
                    "pickup" if seat_ok && (legal == 0 || self.rules.voluntary_pickup) => {
                        Ok(Some(Answer::Act(Action::Pickup)))
                    }
                    _ => Err(wrong("for a turn")),
                }
            }
            Decision::FaceDown => match e["slot"].as_u64() {
                Some(k) if kind == "face_down" && seat_ok && (k as usize) < v.down_count(p) => {
                    Ok(Some(Answer::Slot(k as usize)))
                }
                _ => Err(wrong("which face-down card to turn")),
            },
            Decision::AddOn(asked) => {
                if kind != "add_on" {
                    return Ok(Some(Answer::AddOn(0)));
                }
                let cards = cards_in(&e["cards"]).unwrap_or_default();
                let same = asked.drawn & rank_set(asked.rank);
                if seat_ok && !cards.is_empty() && set_of(&cards) & !same == 0 {
                    Ok(Some(Answer::AddOn(cards.len() as u8)))
                } else {
                    Err(wrong("how many drawn cards to add"))
                }
            }
            Decision::Fix(_) => {
                let pool = v.hand() | v.up(p);
                match cards_in(&e["up"]).map(|c| set_of(&c)) {
                    Some(up) if kind == "fix" && seat_ok && fix_is_legal(pool, up) => Ok(Some(Answer::Fix(up))),
                    _ => Err(wrong("to fix its face-up cards")),
                }
            }
        }
    }

    /// Answers decision `decision` of `v`'s player: the trace's answer, or
    /// once the replay reads no more, `fallback`.
    fn ask(&mut self, v: &View<'_>, decision: Decision, fallback: Answer) -> Answer {
        if self.link.borrow().done {
            return fallback;
        }
        let answer = match self.read(v, decision) {
            Ok(a) => a,
            Err(why) => {
                self.link.borrow_mut().fail(why);
                return fallback;
            }
        };
        if self.keeping {
            let s = self.link.borrow();
            // Nothing written past the lines compared: the ask follows the
            // last of them at once.
            let fresh = s.written == s.next;
            let upcoming = s.upcoming().map(|(l, e)| (*l, e["event"] == "add_on"));
            // The lines that name this decision: the next event, and for an
            // add-on the draw just written (which names it even when none
            // is added).
            let mut named: Vec<usize> = Vec::new();
            match decision {
                Decision::AddOn(_) => {
                    if let Some((l, true)) = upcoming {
                        named.push(l);
                    }
                    if fresh && s.next > 0 {
                        named.push(s.events[s.next - 1].0);
                    }
                }
                _ => named.extend(upcoming.map(|(l, _)| l)),
            }
            let line = match self.at {
                Some(at) => named.contains(&at).then_some(at),
                None => named.first().copied(),
            };
            let ended = s.ended;
            let next = s.next;
            drop(s);
            if let Some(line) = line {
                self.kept = Some(Kept {
                    table: v.table().clone(),
                    mover: v.seat(),
                    decision,
                    line,
                    traced: answer,
                    next,
                });
                if self.at.is_some() {
                    self.link.borrow_mut().done = true;
                }
            } else if ended {
                // Past the cut: the rest of the game is not read.
                self.link.borrow_mut().done = true;
            }
        }
        if self.link.borrow().done {
            return fallback;
        }
        answer.unwrap_or(fallback)
    }
}

impl Chooser for Script {
    fn fix<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> CardSet {
        let fallback = self.fallback.fix(v, d);
        let asked = self.link.borrow().fixing;
        match self.ask(v, Decision::Fix(asked), Answer::Fix(fallback)) {
            Answer::Fix(up) => up,
            _ => fallback,
        }
    }

    fn act<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Action {
        let fallback = self.fallback.act(v, d);
        let a = match self.ask(v, Decision::Turn, Answer::Act(fallback)) {
            Answer::Act(a) => a,
            _ => fallback,
        };
        self.played = match a {
            Action::Play { count, .. } => u32::from(count),
            _ => 1,
        };
        a
    }

    fn add_on<D: Draw>(&mut self, v: &View<'_>, rank: Rank, avail: u8, d: &mut D) -> u8 {
        let fallback = self.fallback.add_on(v, rank, avail, d);
        let asked = AddOnAsked {
            rank,
            played: self.played,
            drawn: self.link.borrow().drew,
        };
        let k = match self.ask(v, Decision::AddOn(asked), Answer::AddOn(fallback)) {
            Answer::AddOn(k) if k <= avail => k,
            _ => fallback,
        };
        self.played += u32::from(k);
        k
    }

    fn face_down<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> usize {
        let fallback = self.fallback.face_down(v, d);
        self.played = 1;
        match self.ask(v, Decision::FaceDown, Answer::Slot(fallback)) {
            Answer::Slot(k) => k,
            _ => fallback,
        }
    }

    fn deterministic(&self) -> bool {
        self.deterministic
    }
}

/// The rules of the run line's `table`.
fn rules_of(run: &Value, players: usize) -> Result<Rules, String> {
    let table = &run["table"];
    let words: Vec<&str> = table["without"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let off = if words.is_empty() {
        0
    } else {
        super::parse_without(&words.join(",")).map_err(|e| format!("line 1: the run's table: {e}"))?
    };
    Ok(Rules {
        players,
        off,
        voluntary_pickup: table["voluntary_pickup"].as_bool().unwrap_or(false),
        move_cap: table["move_cap"]
            .as_u64()
            .map_or(super::rules::DEFAULT_MOVE_CAP, |c| c.min(u64::from(u32::MAX)) as u32),
    })
}

/// The deck of a `deal` event, top card first, as [`Table::deal`] deals it.
fn deck_of(line: usize, e: &Value) -> Result<(usize, [Card; DECK]), String> {
    let bad = |why: &str| format!("line {line}: the deal {why}");
    let seats = e["seats"].as_array().ok_or_else(|| bad("lists no seats"))?;
    let n = seats.len();
    if !(super::rules::MIN_PLAYERS..=super::rules::MAX_PLAYERS).contains(&n) {
        return Err(bad(&format!("has {n} seats (IB-Flip is for 2 to 5 players)")));
    }
    let mut deck = Vec::with_capacity(DECK);
    for part in ["down", "up", "hand"] {
        for (s, seat) in seats.iter().enumerate() {
            let cards = cards_in(&seat[part]).ok_or_else(|| bad(&format!("names a card of seat {s} that is none")))?;
            if cards.len() != 3 {
                return Err(bad(&format!("gives seat {s} {} {part} cards, not 3", cards.len())));
            }
            deck.extend(cards);
        }
    }
    deck.extend(cards_in(&e["draw"]).ok_or_else(|| bad("names a draw-pile card that is none"))?);
    if deck.len() != DECK || set_of(&deck) != ALL {
        return Err(bad("does not deal the 52 cards once each"));
    }
    let mut d = [0; DECK];
    d.copy_from_slice(&deck);
    Ok((n, d))
}

/// Replays the game of `events` (its `deal` first) from the deal and keeps
/// the table at the decision of line `at` (the last decision when `None`).
fn replay(run: &Value, events: &[(usize, Value)], at: Option<usize>) -> Result<(Rules, Kept), String> {
    let (deal_line, deal) = events
        .iter()
        .find(|(_, v)| v["event"] == "deal")
        .ok_or("the trace holds no 'deal' event of this game before the decision")?;
    if events[0].1["event"] != "deal" {
        return Err(format!("line {}: the game's first event is not its deal", events[0].0));
    }
    let (n, deck) = deck_of(*deal_line, deal)?;
    let rules = rules_of(run, n)?;
    let link: Link = Rc::new(RefCell::new(Shared {
        events: events.to_vec(),
        next: 0,
        ended: false,
        done: false,
        error: None,
        buf: Vec::new(),
        written: 0,
        drew: 0,
        fixing: FixAsked {
            seat: 0,
            steps: 0,
            drew: 0,
        },
    }));
    let deterministic = run["repetition_detector"]["runs"].as_bool().unwrap_or(false);
    let mut script = Script {
        link: link.clone(),
        at,
        kept: None,
        keeping: true,
        played: 0,
        deterministic,
        fallback: Policy::parse("lowest")?,
        rules,
    };
    let mut table = Table::new(rules);
    table.deal(&deck);
    let game = deal["game"].as_u64().unwrap_or(0);
    let mut sink = Sink(link.clone());
    let mut w = TraceWriter::with_format(&mut sink, TraceFormat::Json, game);
    let mut obs = Checked {
        trace: Trace::new(&mut w),
        link: link.clone(),
    };
    let mut d = Scripted {
        link: link.clone(),
        rng: crate::engine::rng::seeded_game_rng(0),
    };
    table.play_game(&mut script, &mut obs, &mut d);
    drop(obs);
    let s = link.borrow();
    if let Some(e) = &s.error {
        return Err(e.clone());
    }
    let what = |v: &Value| v["event"].as_str().unwrap_or("?").to_string();
    match (script.kept, at) {
        (Some(k), _) => Ok((rules, k)),
        (None, Some(at)) => {
            let e = events.iter().find(|(l, _)| *l == at).map(|(_, v)| v);
            Err(format!(
                "--at {at}: line {at} is a '{}' event, not a decision (a fix, a turn's play from the hand or \
                 face up, a reveal, a pickup chosen while stuck, a face_down, an add_on, or a draw that offers \
                 drawn cards of the rank just played)",
                e.map(what).unwrap_or_else(|| "?".into())
            ))
        }
        (None, None) => Err("the trace has no decision to advise on".into()),
    }
}

/// An IB-Flip position at a traced decision, ready for playouts.
pub struct IbFlipPosition {
    rules: Rules,
    kept: Kept,
    model: Policy,
    moves: Vec<(Answer, Move)>,
}

const MEASURES: &[Measure] = &[
    WIN_CHANCE,
    Measure {
        name: "players beaten",
        key: "beaten",
        chance: false,
    },
];

/// Every legal answer of the decision, in words and keys.
fn moves_of(t: &Table, mover: usize, decision: Decision) -> Vec<(Answer, Move)> {
    let v = View::new(t, mover);
    let mv = |a: Answer, name: String, key: String| (a, Move { name, key, exact: Vec::new() });
    let mut out = Vec::new();
    match decision {
        Decision::Turn => {
            let legal = v.legal();
            let held = if v.zone(mover) == Zone::Hand { v.hand() } else { v.up(mover) };
            for r in BY_ORDER {
                if legal & (1 << r) == 0 {
                    continue;
                }
                let of_rank = held & rank_set(r);
                for k in 1..=of_rank.count_ones() {
                    out.push(mv(
                        Answer::Act(Action::Play { rank: r, count: k as u8 }),
                        format!("play {}", names(lowest_k(of_rank, k))),
                        format!("play:{}x{k}", RANK_NAMES[usize::from(r)]),
                    ));
                }
            }
            if legal == 0 {
                out.push(mv(
                    Answer::Act(Action::Reveal),
                    "reveal the top card of the draw pile".into(),
                    "reveal".into(),
                ));
            }
            if legal == 0 || t.rules().voluntary_pickup {
                out.push(mv(
                    Answer::Act(Action::Pickup),
                    format!("pick up the live pile ({} cards)", v.live_count()),
                    "pickup".into(),
                ));
            }
        }
        Decision::FaceDown => {
            for k in 0..v.down_count(mover) {
                out.push(mv(Answer::Slot(k), format!("turn face-down slot {k}"), format!("slot:{k}")));
            }
        }
        Decision::AddOn(asked) => {
            let same = asked.drawn & rank_set(asked.rank);
            for k in 0..=same.count_ones() {
                let name = if k == 0 { "add none".into() } else { format!("add {}", names(lowest_k(same, k))) };
                out.push(mv(Answer::AddOn(k as u8), name, format!("add:{k}")));
            }
        }
        Decision::Fix(_) => {
            // Every legal face-up set: the cards up now first, then by how
            // many cards change place, then by the cards.
            let up_now = v.up(mover);
            let pool = v.hand() | up_now;
            let cards: Vec<Card> = cards_of(pool).collect();
            let mut sets: Vec<CardSet> = (0u32..1 << cards.len())
                .map(|bits| {
                    cards
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| bits >> i & 1 == 1)
                        .fold(0, |m, (_, &c)| m | 1 << c)
                })
                .filter(|&up| fix_is_legal(pool, up))
                .collect();
            sets.sort_by_key(|&up| ((up ^ up_now).count_ones(), up));
            for up in sets {
                let key = format!("up:{}", cards_of(up).map(name).collect::<Vec<_>>().join(","));
                out.push(mv(
                    Answer::Fix(up),
                    format!("face up {}, hand {}", names(up), words(pool & !up)),
                    key,
                ));
            }
        }
    }
    out
}

/// The chooser of a playout: the move first, then the model.
struct Then {
    first: Option<Answer>,
    seats: Seats,
}

impl Chooser for Then {
    fn fix<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> CardSet {
        match self.first.take() {
            Some(Answer::Fix(up)) => up,
            _ => self.seats.fix(v, d),
        }
    }
    fn act<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Action {
        match self.first.take() {
            Some(Answer::Act(a)) => a,
            _ => self.seats.act(v, d),
        }
    }
    fn add_on<D: Draw>(&mut self, v: &View<'_>, rank: Rank, avail: u8, d: &mut D) -> u8 {
        self.seats.add_on(v, rank, avail, d)
    }
    fn face_down<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> usize {
        match self.first.take() {
            Some(Answer::Slot(k)) => k,
            _ => self.seats.face_down(v, d),
        }
    }
    fn deterministic(&self) -> bool {
        self.seats.deterministic()
    }
}

/// Players `me` finishes ahead of (a better place); after a stalemate the
/// seats still in stand level with one another (half a player each), at
/// the places nobody was given.
fn beaten(t: &Table, me: usize) -> f64 {
    let n = t.players();
    let given: Vec<u8> = (0..n).map(|q| t.place(q)).filter(|&p| p != 0).collect();
    let free: Vec<u8> = (1..=n as u8).filter(|p| !given.contains(p)).collect();
    let middle = if free.is_empty() {
        0.0
    } else {
        free.iter().map(|&p| f64::from(p)).sum::<f64>() / free.len() as f64
    };
    let standing = |q: usize| match t.place(q) {
        0 => middle,
        p => f64::from(p),
    };
    let mine = standing(me);
    (0..n)
        .filter(|&q| q != me)
        .map(|q| {
            let s = standing(q);
            if s > mine {
                1.0
            } else if s == mine {
                0.5
            } else {
                0.0
            }
        })
        .sum()
}

impl IbFlipPosition {
    /// The position of `cut` at its decision (the line `--at`, or the
    /// trace's last decision), every seat playing `model` after the move.
    pub fn from_trace(cut: &TraceCut, model: Policy) -> Result<IbFlipPosition, String> {
        let (rules, kept) = replay(&cut.run, &cut.events, cut.at)?;
        let moves = moves_of(&kept.table, kept.mover, kept.decision);
        Ok(IbFlipPosition {
            rules,
            kept,
            model,
            moves,
        })
    }

    /// The table at the decision as the trace has it, hidden cards included.
    pub fn table(&self) -> &Table {
        &self.kept.table
    }

    /// The trace line of the decision.
    pub fn line(&self) -> usize {
        self.kept.line
    }

    /// The decision.
    pub fn decision(&self) -> Decision {
        self.kept.decision
    }

    /// The move the trace made at the decision (an index into the moves),
    /// when the trace goes on past it.
    pub fn traced_move(&self) -> Option<usize> {
        let t = self.kept.traced?;
        self.moves.iter().position(|(a, _)| *a == t)
    }

    /// The answers of the moves, in order.
    pub fn answers(&self) -> Vec<Answer> {
        self.moves.iter().map(|(a, _)| *a).collect()
    }

    /// Continues the game from the decision with the trace's real cards,
    /// the trace's answer to the decision and every later decision and
    /// random outcome as the trace has them, and checks each event against
    /// `events` (the game's events, to its end): `Err` names the first line
    /// that differs (a check of the reading and the resumption together).
    pub fn continue_as_traced(&self, run: &Value, events: &[(usize, Value)]) -> Result<(), String> {
        let link: Link = Rc::new(RefCell::new(Shared {
            events: events.to_vec(),
            next: self.kept.next,
            ended: false,
            done: false,
            error: None,
            buf: Vec::new(),
            written: 0,
            drew: 0,
            fixing: match self.kept.decision {
                Decision::Fix(asked) => asked,
                _ => FixAsked {
                    seat: 0,
                    steps: 0,
                    drew: 0,
                },
            },
        }));
        let mut script = Script {
            link: link.clone(),
            at: None,
            kept: None,
            keeping: false,
            played: 0,
            deterministic: run["repetition_detector"]["runs"].as_bool().unwrap_or(false),
            fallback: Policy::parse("lowest")?,
            rules: self.rules,
        };
        let mut t = self.kept.table.clone();
        let game = events.first().and_then(|(_, v)| v["game"].as_u64()).unwrap_or(0);
        let mut sink = Sink(link.clone());
        let mut w = TraceWriter::with_format(&mut sink, TraceFormat::Json, game);
        let begun = matches!(self.kept.decision, Decision::AddOn(_));
        let steps = match self.kept.decision {
            Decision::Fix(asked) => asked.steps,
            _ => 0,
        };
        let mut obs = Checked {
            trace: Trace::resume(&mut w, &t, begun, steps),
            link: link.clone(),
        };
        let mut d = Scripted {
            link: link.clone(),
            rng: crate::engine::rng::seeded_game_rng(0),
        };
        match self.kept.decision {
            Decision::AddOn(asked) => {
                let k = {
                    let s = link.borrow();
                    match s.events.get(s.next) {
                        Some((_, e)) if e["event"] == "add_on" => e["cards"].as_array().map_or(0, |a| a.len() as u8),
                        _ => 0,
                    }
                };
                script.played = asked.played + u32::from(k);
                t.resume_add_on(asked, k, &mut script, &mut obs, &mut d);
            }
            Decision::Fix(asked) => {
                t.resume_fixing(asked, &mut script, &mut obs, &mut d);
            }
            _ => {
                t.resume_turn(&mut script, &mut obs, &mut d);
            }
        }
        drop(obs);
        let s = link.borrow();
        if let Some(e) = &s.error {
            return Err(e.clone());
        }
        if s.next != s.events.len() {
            return Err(format!(
                "the resumed game ended before line {} of the trace",
                s.events.get(s.next).map_or(0, |(l, _)| *l)
            ));
        }
        Ok(())
    }
}

/// A live card in words: its name and what it is on the pile.
fn live_word(c: Card, f: u8) -> String {
    let what = [(GHOST, "ghost"), (CHAIN, "chain"), (ONE, "one"), (UNPLAYED, "turned up")]
        .iter()
        .filter(|(b, _)| f & b != 0)
        .map(|(_, w)| *w)
        .collect::<Vec<_>>();
    if what.is_empty() { name(c) } else { format!("{}({})", name(c), what.join(",")) }
}

fn list(s: CardSet) -> Vec<String> {
    cards_of(s).map(name).collect()
}

fn words(s: CardSet) -> String {
    if s == 0 { "none".into() } else { names(s) }
}

impl Position for IbFlipPosition {
    fn game(&self) -> &'static str {
        "ib-flip"
    }

    fn mover(&self) -> usize {
        self.kept.mover
    }

    fn players(&self) -> usize {
        self.rules.players
    }

    fn moves(&self) -> Vec<Move> {
        self.moves.iter().map(|(_, m)| m.clone()).collect()
    }

    fn measures(&self) -> &'static [Measure] {
        MEASURES
    }

    fn score_measure(&self) -> Option<usize> {
        Some(1)
    }

    fn model(&self) -> String {
        self.model.to_string()
    }

    fn read_back(&self) -> (Vec<String>, Value) {
        let t = &self.kept.table;
        let m = self.kept.mover;
        let v = View::new(t, m);
        let n = v.players();
        let decision = match self.kept.decision {
            Decision::Turn => format!(
                "to play a turn from its {} on {}",
                if v.zone(m) == Zone::Hand { "hand" } else { "face-up cards" },
                target_name(v.target())
            ),
            Decision::FaceDown => format!("to turn one of its {} face-down cards on {}", v.down_count(m), target_name(v.target())),
            Decision::AddOn(a) => format!(
                "how many drawn {}s to add to its play of {} so far",
                RANK_NAMES[usize::from(a.rank)],
                a.played
            ),
            Decision::Fix(a) => format!(
                "to choose its face-up cards from {} (fixing, step {}{})",
                names(v.hand() | v.up(m)),
                a.steps + 1,
                if a.drew == 0 { String::new() } else { format!(", having drawn {}", names(a.drew)) }
            ),
        };
        let when = match self.kept.decision {
            Decision::Fix(_) => "before the first move".to_string(),
            _ => format!("move {}", v.moves()),
        };
        let mut lines = vec![format!("line {}, {when}: seat {m} {decision}", self.kept.line)];
        let mut seats = Vec::new();
        for q in 0..n {
            let state = if v.is_active(q) {
                "in".to_string()
            } else {
                format!("out in place {} ({})", t.place(q), out_key(t.how(q)))
            };
            let hand = if q == m {
                format!("hand {}", words(v.hand()))
            } else {
                format!("{} in hand (known: {})", v.hand_size(q), words(v.known_hand(q)))
            };
            lines.push(format!(
                "seat {q}: {state}; {hand}; face up {}; {} face down",
                words(v.up(q)),
                v.down_count(q)
            ));
            let mut s = json!({
                "seat": q,
                "in": v.is_active(q),
                "place": t.place(q),
                "hand_size": v.hand_size(q),
                "known_hand": list(v.known_hand(q)),
                "face_up": list(v.up(q)),
                "face_down": v.down_count(q),
            });
            if !v.is_active(q) {
                s["how"] = out_key(t.how(q)).into();
            }
            if q == m {
                s["hand"] = list(v.hand()).into();
            }
            seats.push(s);
        }
        let live: Vec<String> = v.live().map(|(c, f)| live_word(c, f)).collect();
        let (run, len) = v.run();
        lines.push(format!(
            "live pile (bottom first): {}; target {}",
            if live.is_empty() { "empty".into() } else { live.join(" ") },
            target_name(v.target())
        ));
        let seen = v.discard_seen();
        let hidden = v.discard_count() - seen.count_ones();
        lines.push(format!(
            "draw pile: {} cards; discard pile: {} cards{}{}",
            v.draw_count(),
            v.discard_count(),
            if seen != 0 { format!(", seen {}", names(seen)) } else { String::new() },
            if hidden > 0 { format!(", {hidden} unseen") } else { String::new() }
        ));
        lines.push(format!(
            "play goes {}",
            if v.reversed() { "counter-clockwise (reversed)" } else { "clockwise" }
        ));
        let json = json!({
            "line": self.kept.line,
            "move": v.moves(),
            "players": n,
            "mover": m,
            "decision": match self.kept.decision {
                Decision::Turn => "turn",
                Decision::FaceDown => "face_down",
                Decision::AddOn(_) => "add_on",
                Decision::Fix(_) => "fix",
            },
            "seats": seats,
            "live": v.live().map(|(c, f)| json!({ "card": name(c), "ghost": f & GHOST != 0, "chain": f & CHAIN != 0,
                "one": f & ONE != 0, "turned_up": f & UNPLAYED != 0 })).collect::<Vec<_>>(),
            "target": target_name(v.target()),
            "run": { "rank": if len == 0 { "none" } else { target_name(run) }, "cards": len },
            "draw_pile": v.draw_count(),
            "discard_seen": list(seen),
            "discard_unseen": hidden,
            "reversed": v.reversed(),
            "add_on": match self.kept.decision {
                Decision::AddOn(a) => json!({ "rank": RANK_NAMES[usize::from(a.rank)], "played": a.played,
                    "drawn": list(a.drawn & rank_set(a.rank)) }),
                _ => Value::Null,
            },
            "fix": match self.kept.decision {
                Decision::Fix(a) => json!({ "step": a.steps + 1, "drew": list(a.drew) }),
                _ => Value::Null,
            },
        });
        (lines, json)
    }

    fn playout(&self, mv: usize, rng: &mut SimRng, out: &mut [f64]) {
        let me = self.kept.mover;
        let mut w = View::new(&self.kept.table, me).sample_world(rng);
        let mut seats = Seats::new(vec![self.model; self.rules.players]);
        let answer = self.moves[mv].0;
        match (self.kept.decision, answer) {
            (Decision::AddOn(asked), Answer::AddOn(k)) => {
                w.resume_add_on(asked, k, &mut seats, &mut Silent, rng);
            }
            (Decision::Fix(asked), _) => {
                w.resume_fixing(asked, &mut Then { first: Some(answer), seats }, &mut Silent, rng);
            }
            (Decision::FaceDown, Answer::Slot(j)) => {
                // Every slot meets the card the world dealt to the first.
                let mut downs = w.downs(me).to_vec();
                let first = downs.remove(0);
                downs.insert(j, first);
                w.set_downs(me, &downs);
                w.resume_turn(&mut Then { first: Some(answer), seats }, &mut Silent, rng);
            }
            _ => {
                w.resume_turn(&mut Then { first: Some(answer), seats }, &mut Silent, rng);
            }
        }
        out[0] = if w.place(me) == 1 { 1.0 } else { 0.0 };
        out[1] = beaten(&w, me);
        debug_assert!(w.how(me) != Out::In || w.place(me) == 0);
    }
}
