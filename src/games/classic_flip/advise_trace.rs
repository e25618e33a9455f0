//! A Classic Flip decision read from a JSON trace, for `sim advise
//! classic-flip --trace FILE --at LINE`.
//!
//! The game is replayed through the rules engine itself from its first
//! deal: every random outcome as the trace prints it (the deal, each
//! reshuffle, a Steal's card, a Chaos deal) is handed to the engine by a
//! scripted [`Draw`], every earlier decision as the trace records it by a
//! scripted [`Chooser`], and every event the engine makes is written as
//! the trace writes it and compared with the trace's own line: the first
//! difference refuses the trace with its line. The table is kept at the
//! moment the engine asks the decision of line `--at`; a start option is
//! kept just before its turn begins (the `turn` event), where the engine
//! resumes a whole turn.
//!
//! The same scripts also play a kept table on with the trace's later
//! events ([`Replayed::play_on_as_traced`]), which the tests use to check
//! that the table kept is the one the game went on from.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::rc::Rc;

use rand::SeedableRng;
use serde_json::{Value, json};

use super::cards::{ANY_CARDS, Card, CardSet, Func, bit, cards_of, count};
use super::policies::Policy;
use super::rules::{BLOCK_CARDS, Chooser, EMPTY, End, Observer, Play, Resume, Rules, Start, Table, View};
use super::trace::{Trace, json_name};
use super::{ClassicFlipOptions, ClassicFlipSim, Without, parse_gold};
use crate::engine::advise::TraceCut;
use crate::engine::observe::{TraceFormat, TraceWriter};
use crate::engine::rng::{Draw, SimRng};

/// What is decided at a traced decision, with what the rules engine
/// needs to resume the turn there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// The start option of a turn (the call included).
    Start,
    /// The hand challenge at the end of a turn.
    Challenge,
    /// The end-of-turn discard, to `limit`.
    Discard {
        /// The hand limit at the end of the turn.
        limit: u32,
    },
    /// The Block reaction to `by`'s Take or Steal.
    Block {
        /// The player of the Take or Steal.
        by: usize,
        /// Take or Steal.
        func: Func,
    },
    /// The card a Take picks from `from`'s hand.
    Pick {
        /// The hand taken from.
        from: usize,
    },
    /// The cards taken from the penalty discards `pile`.
    Penalty {
        /// The cards the caught player discarded.
        pile: CardSet,
    },
    /// The discard down to six inside `challenger`'s hand challenge of
    /// `challenged`: by the challenged player when the challenge was won,
    /// by the challenger when it failed.
    Forced {
        /// The player whose turn it is, who challenged.
        challenger: usize,
        /// The player challenged.
        challenged: usize,
    },
}

impl Ask {
    /// Whose turn the engine resumes, and where, for this decision of `me`.
    pub fn resume(self, me: usize) -> (usize, Resume) {
        match self {
            Ask::Start => (me, Resume::Turn),
            Ask::Challenge => (me, Resume::Challenge),
            Ask::Discard { .. } => (me, Resume::Discard),
            Ask::Block { by, .. } => (by, Resume::Block { victim: me }),
            Ask::Pick { from } => (me, Resume::TakePick { from }),
            Ask::Penalty { pile } => (me, Resume::PenaltyPick { pile }),
            Ask::Forced { challenger, challenged } => (
                challenger,
                Resume::PenaltyDiscard {
                    challenged,
                    won: me == challenged,
                },
            ),
        }
    }
}

/// A decision as the trace records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A start option.
    Start(Start),
    /// A hand challenge of the seat.
    Challenge(usize),
    /// The end-of-turn discard.
    Discard(CardSet),
    /// A Block with the card.
    Block(Card),
    /// The card a Take picked.
    Pick(Card),
    /// The discard down to six inside a hand challenge.
    Forced(CardSet),
    /// The cards taken from the penalty discards.
    Penalty(CardSet),
}

/// One decision of the trace: its line, who made it, what it was.
#[derive(Clone, Copy, Debug)]
struct Entry {
    line: usize,
    seat: usize,
    answer: Answer,
}

/// One random outcome of the trace.
#[derive(Clone, Debug)]
enum Random {
    /// A shuffle's result, as the engine's array holds it (a pile bottom
    /// first, a Chaos deal in the order dealt).
    Shuffle(Vec<Card>),
    /// A Steal's card: the `value`-th of `n`.
    Below { n: u32, value: u32 },
}

/// The decisions and random outcomes of a stretch of a trace, in order.
#[derive(Clone, Debug, Default)]
struct Script {
    decisions: VecDeque<Entry>,
    randoms: VecDeque<(usize, Random)>,
}

/// A field of an event, or an error naming the line.
fn field<'a>(line: usize, v: &'a Value, key: &str) -> Result<&'a Value, String> {
    v.get(key)
        .ok_or_else(|| format!("line {line}: the '{}' event has no '{key}'", v["event"].as_str().unwrap_or("?")))
}

fn whole(line: usize, v: &Value, key: &str) -> Result<u64, String> {
    field(line, v, key)?
        .as_u64()
        .ok_or_else(|| format!("line {line}: '{key}' is not a whole number"))
}

/// The cards of the game, by their names in the trace.
struct Names {
    map: HashMap<String, Card>,
    players: usize,
}

impl Names {
    fn new(rules: &Rules) -> Names {
        let decks = rules.deck.decks;
        let map = cards_of(rules.deck.all).map(|c| (json_name(c, decks), c)).collect();
        Names {
            map,
            players: rules.players,
        }
    }

    fn seat(&self, line: usize, v: &Value, key: &str) -> Result<usize, String> {
        let s = whole(line, v, key)? as usize;
        if s < self.players {
            Ok(s)
        } else {
            Err(format!("line {line}: '{key}' {s} is not a seat of the {} players", self.players))
        }
    }

    fn card_of(&self, line: usize, v: &Value) -> Result<Card, String> {
        let text = v.as_str().ok_or_else(|| format!("line {line}: {v} is not a card's name"))?;
        self.map
            .get(text)
            .copied()
            .ok_or_else(|| format!("line {line}: '{text}' is not a card of this game's deck"))
    }

    fn card(&self, line: usize, v: &Value, key: &str) -> Result<Card, String> {
        self.card_of(line, field(line, v, key)?)
    }

    fn seq(&self, line: usize, v: &Value, key: &str) -> Result<Vec<Card>, String> {
        field(line, v, key)?
            .as_array()
            .ok_or_else(|| format!("line {line}: '{key}' is not a list of cards"))?
            .iter()
            .map(|c| self.card_of(line, c))
            .collect()
    }

    fn set(&self, line: usize, v: &Value, key: &str) -> Result<CardSet, String> {
        Ok(self.seq(line, v, key)?.into_iter().fold(0, |m, c| m | bit(c)))
    }

    /// The engine's deal array of a `deal` event: bottom first, so that
    /// the engine's pops give each seat its hand, the community its
    /// slots and leave the draw pile as the event lists it.
    fn deal(&self, line: usize, v: &Value) -> Result<Vec<Card>, String> {
        let n = self.players;
        let dealer = self.seat(line, v, "dealer")?;
        let hands = field(line, v, "hands")?
            .as_array()
            .filter(|h| h.len() == n)
            .ok_or_else(|| format!("line {line}: 'hands' does not hold {n} hands"))?;
        let hands: Vec<Vec<Card>> = hands
            .iter()
            .enumerate()
            .map(|(s, h)| {
                let cards = self.seq(line, &json!({ "h": h }), "h")?;
                if cards.len() == 3 {
                    Ok(cards)
                } else {
                    Err(format!("line {line}: seat {s} is dealt {} cards, not three", cards.len()))
                }
            })
            .collect::<Result<_, String>>()?;
        let community = self.seq(line, v, "community")?;
        if community.len() != 3 {
            return Err(format!("line {line}: the community is dealt {} cards, not three", community.len()));
        }
        let mut order = Vec::new();
        for pass in 0..3 {
            for k in 1..=n {
                order.push(hands[(dealer + k) % n][pass]);
            }
            order.push(community[pass]);
        }
        order.extend(self.seq(line, v, "draw")?);
        order.reverse();
        Ok(order)
    }

    /// The start option of a `draw`, `community`, `play` or `flip` event
    /// that opens a turn.
    fn start(&self, line: usize, v: &Value) -> Result<Start, String> {
        Ok(match v["event"].as_str().unwrap_or_default() {
            "draw" => Start::Draw2,
            "community" => Start::Community(whole(line, v, "slot")?.min(255) as u8),
            "flip" => Start::Flip,
            _ => {
                let card = self.card(line, v, "card")?;
                let key = field(line, v, "function")?.as_str().unwrap_or_default();
                let func = Func::ALL
                    .into_iter()
                    .find(|f| f.key() == key)
                    .ok_or_else(|| format!("line {line}: '{key}' is not an action function"))?;
                let mut p = Play::new(card, func);
                if matches!(func, Func::Take | Func::Swap) {
                    p.target = self.seat(line, v, "target")? as u8;
                }
                for s in field(line, v, "victims")?.as_array().cloned().unwrap_or_default() {
                    let q = self.seat(line, &json!({ "victim": s }), "victim")?;
                    p.victims |= 1 << q;
                }
                for s in field(line, v, "slots")?.as_array().cloned().unwrap_or_default() {
                    match s.as_u64() {
                        Some(k) if k < 3 => p.slots |= 1 << k,
                        _ => return Err(format!("line {line}: {s} is not a community slot (0 to 2)")),
                    }
                }
                Start::Play(p)
            }
        })
    }

    /// The decisions and random outcomes of `events`, in order.
    fn script(&self, events: &[(usize, Value)]) -> Result<Script, String> {
        let mut s = Script::default();
        let mut opens = false;
        for (line, v) in events {
            let line = *line;
            let name = v["event"].as_str().unwrap_or_default();
            let mut decide = |seat: usize, answer: Answer| s.decisions.push_back(Entry { line, seat, answer });
            match name {
                "deal" => s.randoms.push_back((line, Random::Shuffle(self.deal(line, v)?))),
                "reshuffle" => {
                    let mut pile = self.seq(line, v, "draw")?;
                    pile.reverse();
                    s.randoms.push_back((line, Random::Shuffle(pile)));
                }
                "chaos" => s.randoms.push_back((line, Random::Shuffle(self.seq(line, v, "deal")?))),
                "take" => {
                    let seat = self.seat(line, v, "seat")?;
                    match field(line, v, "index")?.as_u64() {
                        Some(value) => {
                            let n = whole(line, v, "of")? as u32;
                            s.randoms.push_back((line, Random::Below { n, value: value as u32 }));
                        }
                        None => decide(seat, Answer::Pick(self.card(line, v, "card")?)),
                    }
                }
                "draw" | "community" if !opens => {}
                "draw" | "community" | "play" | "flip" => {
                    let seat = self.seat(line, v, "seat")?;
                    decide(seat, Answer::Start(self.start(line, v)?));
                }
                "challenge" => {
                    let seat = self.seat(line, v, "seat")?;
                    decide(seat, Answer::Challenge(self.seat(line, v, "target")?));
                }
                "discard" => decide(self.seat(line, v, "seat")?, Answer::Discard(self.set(line, v, "cards")?)),
                "block" => decide(self.seat(line, v, "seat")?, Answer::Block(self.card(line, v, "card")?)),
                "penalty_discard" => decide(self.seat(line, v, "seat")?, Answer::Forced(self.set(line, v, "cards")?)),
                "penalty_take" => decide(self.seat(line, v, "seat")?, Answer::Penalty(self.set(line, v, "cards")?)),
                "turn" | "refill" | "action_discard" | "swap" | "reboot" | "cut_off" | "round_end" | "game_end" => {}
                other => return Err(format!("line {line}: '{other}' is not a classic-flip event")),
            }
            opens = name == "turn" || (opens && name == "reshuffle");
        }
        Ok(s)
    }
}

/// The rules of the run line's `table`.
pub fn rules_of(run: &Value) -> Result<Rules, String> {
    let t = &run["table"];
    let num = |key: &str| {
        t[key]
            .as_u64()
            .ok_or_else(|| format!("the trace's run line has no table '{key}'"))
    };
    let words = |key: &str| -> Result<String, String> {
        let list = t[key]
            .as_array()
            .ok_or_else(|| format!("the trace's run line has no table '{key}'"))?;
        Ok(list.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(","))
    };
    let players = num("players")?;
    let without = words("without")?;
    let opts = ClassicFlipOptions {
        players: u16::try_from(players).map_err(|_| format!("the trace has {players} players"))?,
        decks: Some(u8::try_from(num("decks")?).map_err(|_| "the trace's table has a strange number of decks")?),
        gold_ranks: parse_gold(&words("gold_ranks")?).map_err(|e| format!("the trace's gold ranks: {e}"))?,
        target: u32::try_from(num("target")?).map_err(|_| "the trace's target is too large")?,
        without: if without.is_empty() { None } else { Some(Without::parse(&without)?) },
        round_cap: u32::try_from(num("round_cap")?).map_err(|_| "the trace's round cap is too large")?,
        community_multipliers: t["community_multipliers"].as_str().unwrap_or("on").to_string(),
    };
    let rules = opts.rules();
    ClassicFlipSim::new(rules, &[Policy::default()]).map_err(|e| format!("the trace's table: {e}"))?;
    Ok(rules)
}

/// What the chooser, the draw and the observer of a replay share: the
/// first error, and whether the replay is over (the decision was kept,
/// or the trace was refused): from then on the game is finished by
/// `collector` and a generator, unheard.
#[derive(Default)]
struct Shared {
    error: RefCell<Option<String>>,
    done: Cell<bool>,
    /// Trace lines before the decision the observer has not matched yet.
    unmatched: Cell<usize>,
    /// The observer kept the table at the turn of a start option; the
    /// chooser keeps the table as the start is asked.
    start_kept: Cell<bool>,
}

impl Shared {
    fn fail(&self, why: String) {
        if !self.done.get() {
            *self.error.borrow_mut() = Some(why);
            self.done.set(true);
        }
    }
}

/// The decision kept: the kind, who decides, the table as the engine
/// asks it.
struct Kept {
    ask: Ask,
    seat: usize,
    table: Table,
}

/// Answers every decision as the trace recorded it; asked the decision
/// to keep (the script spent, the kind and seat of `target`), keeps the
/// table.
struct Scripted<'s> {
    shared: &'s Shared,
    decisions: VecDeque<Entry>,
    /// The kind and seat of the decision to keep (`None`: play on to the
    /// game's end with the script alone).
    target: Option<(usize, &'static str, usize)>,
    kept: Option<Kept>,
    /// The table as a kept start option is asked.
    start_view: Option<Table>,
    /// The last hand challenge answered (challenger, challenged): who
    /// discards to six next is one of them.
    challenge: Option<(usize, usize)>,
    fallback: Policy,
}

/// The word for a decision kind in messages.
fn kind_word(a: &Answer) -> &'static str {
    match a {
        Answer::Start(_) => "start",
        Answer::Challenge(_) => "challenge",
        Answer::Discard(_) => "discard",
        Answer::Block(_) => "block",
        Answer::Pick(_) => "pick",
        Answer::Forced(_) => "forced",
        Answer::Penalty(_) => "penalty",
    }
}

fn kind_words(kind: &str) -> &'static str {
    match kind {
        "start" => "a start option",
        "challenge" => "a hand challenge",
        "discard" => "an end-of-turn discard",
        "block" => "a Block",
        "pick" => "a Take's pick",
        "forced" => "a discard down to six",
        _ => "a pick from the penalty discards",
    }
}

impl Scripted<'_> {
    /// The trace's answer to decision `kind` of `v`'s player; `None` when
    /// the trace records nothing here for an `optional` decision (no
    /// challenge, no Block), when the decision is kept, or once the
    /// replay is over.
    fn next(&mut self, v: &View<'_>, kind: &'static str, optional: bool, ask: impl Fn() -> Ask) -> Option<Entry> {
        if self.shared.done.get() {
            if kind == "start" && self.shared.start_kept.replace(false) {
                self.start_view = Some(v.table().clone());
            }
            return None;
        }
        let seat = v.seat();
        let Some(e) = self.decisions.front().copied() else {
            if let Some((line, k, s)) = self.target
                && k == kind
                && s == seat
            {
                let left = self.shared.unmatched.get();
                if left > 0 {
                    self.shared.fail(format!(
                        "line {line}: the rules ask seat {seat} for {} while {left} of the trace's events before it are still to come",
                        kind_words(kind)
                    ));
                    return None;
                }
                self.kept = Some(Kept {
                    ask: ask(),
                    seat,
                    table: v.table().clone(),
                });
                self.shared.done.set(true);
                return None;
            }
            if !optional {
                let at = self.target.map_or(String::new(), |(line, _, _)| format!("line {line}: "));
                self.shared.fail(format!(
                    "{at}the rules ask seat {seat} for {} that the trace does not record",
                    kind_words(kind)
                ));
            }
            return None;
        };
        if kind_word(&e.answer) == kind && e.seat == seat {
            self.decisions.pop_front();
            return Some(e);
        }
        if !optional {
            self.shared.fail(format!(
                "line {}: the trace has {} of seat {} where the rules ask seat {seat} for {}",
                e.line,
                kind_words(kind_word(&e.answer)),
                e.seat,
                kind_words(kind)
            ));
        }
        None
    }

    fn illegal(&self, e: &Entry, why: &str) {
        self.shared
            .fail(format!("line {}: seat {} {why}: the rules do not allow it", e.line, e.seat));
    }
}

impl Chooser for Scripted<'_> {
    fn start<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Start {
        if let Some(e) = self.next(v, "start", false, || Ask::Start)
            && let Answer::Start(s) = e.answer
        {
            let legal = match s {
                Start::Draw2 => true,
                Start::Flip => v.can_call(),
                Start::Community(slot) => v.caller().is_none() && slot < 3 && v.community()[usize::from(slot)] != EMPTY,
                Start::Play(p) => v.playable(&p),
            };
            if legal {
                return s;
            }
            self.illegal(&e, "cannot start its turn so");
        }
        self.fallback.start(v, d)
    }

    fn take_pick<D: Draw>(&mut self, v: &View<'_>, target: usize, d: &mut D) -> Card {
        if let Some(e) = self.next(v, "pick", false, || Ask::Pick { from: target })
            && let Answer::Pick(c) = e.answer
        {
            if v.known(target) & bit(c) != 0 {
                return c;
            }
            self.illegal(&e, &format!("takes a card seat {target} does not hold"));
        }
        self.fallback.take_pick(v, target, d)
    }

    fn block<D: Draw>(&mut self, v: &View<'_>, by: usize, func: Func, d: &mut D) -> Option<Card> {
        if let Some(e) = self.next(v, "block", true, || Ask::Block { by, func }) {
            if let Answer::Block(c) = e.answer
                && v.hand() & (BLOCK_CARDS | ANY_CARDS) & bit(c) != 0
            {
                return Some(c);
            }
            self.illegal(&e, "blocks with a card it cannot block with");
        }
        if self.shared.done.get() { self.fallback.block(v, by, func, d) } else { None }
    }

    fn challenge<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Option<usize> {
        if let Some(e) = self.next(v, "challenge", true, || Ask::Challenge) {
            if let Answer::Challenge(q) = e.answer
                && q != v.seat()
            {
                self.challenge = Some((v.seat(), q));
                return Some(q);
            }
            self.illegal(&e, "challenges itself");
        }
        if self.shared.done.get() { self.fallback.challenge(v, d) } else { None }
    }

    fn discard<D: Draw>(&mut self, v: &View<'_>, limit: u32, forced: bool, d: &mut D) -> CardSet {
        let kind = if forced { "forced" } else { "discard" };
        let (challenger, challenged) = self.challenge.unwrap_or((v.seat(), v.seat()));
        let ask = move || {
            if forced {
                Ask::Forced { challenger, challenged }
            } else {
                Ask::Discard { limit }
            }
        };
        if let Some(e) = self.next(v, kind, false, ask) {
            let out = match e.answer {
                Answer::Discard(c) | Answer::Forced(c) => c,
                _ => 0,
            };
            let held = out & !v.hand() == 0;
            if held && (!forced || count(out) + limit == v.hand_size(v.seat())) {
                return out;
            }
            self.illegal(&e, if held { "discards a wrong number of cards to six" } else { "discards cards it does not hold" });
        }
        self.fallback.discard(v, limit, forced, d)
    }

    fn take_penalty<D: Draw>(&mut self, v: &View<'_>, pile: CardSet, d: &mut D) -> CardSet {
        if let Some(e) = self.next(v, "penalty", false, || Ask::Penalty { pile })
            && let Answer::Penalty(c) = e.answer
        {
            if c & !pile == 0 && count(c) <= 2 {
                return c;
            }
            self.illegal(&e, "takes cards the penalty discards do not hold, or more than two");
        }
        self.fallback.take_penalty(v, pile, d)
    }
}

/// Hands the engine the trace's random outcomes in order; a generator
/// once the replay is over.
struct Dealer<'s> {
    shared: &'s Shared,
    randoms: VecDeque<(usize, Random)>,
    rng: SimRng,
}

impl Dealer<'_> {
    fn fail(&mut self, why: String) {
        self.shared.fail(why);
    }
}

impl Draw for Dealer<'_> {
    fn below(&mut self, n: u32) -> u32 {
        if self.shared.done.get() {
            return Draw::below(&mut self.rng, n);
        }
        match self.randoms.pop_front() {
            Some((_, Random::Below { n: m, value })) if m == n && value < n => return value,
            Some((line, Random::Below { n: m, value })) => self.fail(format!(
                "line {line}: the Steal's card is the card {value} of {m}, but the victim holds {n} cards"
            )),
            Some((line, Random::Shuffle(_))) => self.fail(format!(
                "line {line}: the trace shuffles here, but the rules draw a Steal's card"
            )),
            None => self.fail("the rules draw a Steal's card the trace does not record".into()),
        }
        Draw::below(&mut self.rng, n)
    }

    fn shuffle(&mut self, cards: &mut [u8]) {
        if self.shared.done.get() {
            Draw::shuffle(&mut self.rng, cards);
            return;
        }
        match self.randoms.pop_front() {
            Some((line, Random::Shuffle(order))) => {
                let (mut a, mut b) = (order.clone(), cards.to_vec());
                a.sort_unstable();
                b.sort_unstable();
                if a == b {
                    cards.copy_from_slice(&order);
                } else {
                    self.fail(format!(
                        "line {line}: the trace's cards are not the {} cards the rules shuffle here",
                        cards.len()
                    ));
                }
            }
            Some((line, Random::Below { .. })) => self.fail(format!(
                "line {line}: the trace draws a Steal's card here, but the rules shuffle {} cards",
                cards.len()
            )),
            None => self.fail(format!("the rules shuffle {} cards the trace does not record", cards.len())),
        }
    }
}

/// A writer the checking observer reads back.
#[derive(Clone, Default)]
struct Buffer(Rc<RefCell<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// An event without the fields the replay cannot know (the game's
/// number and seed).
fn bare(v: &Value) -> Value {
    let mut v = v.clone();
    if let Some(o) = v.as_object_mut() {
        for k in ["game", "seed", "played_on"] {
            o.remove(k);
        }
    }
    v
}

/// Writes every event as the trace does and compares it with the trace's
/// next line; keeps the table at the `turn` line of a start option.
struct Checker<'a, 'w> {
    shared: &'a Shared,
    trace: Trace<'a, 'w>,
    buffer: Buffer,
    expected: VecDeque<(usize, Value)>,
    /// The `turn` line of the start option to keep.
    keep_at: Option<usize>,
    kept: Option<Table>,
}

impl Checker<'_, '_> {
    fn compare(&mut self, t: &Table) {
        let text = std::mem::take(&mut *self.buffer.0.borrow_mut());
        for l in String::from_utf8_lossy(&text).lines() {
            if self.shared.done.get() {
                return;
            }
            let got: Value = serde_json::from_str(l).unwrap_or(Value::Null);
            let Some((line, want)) = self.expected.pop_front() else {
                self.shared.fail(format!("the rules go on with {l} where the trace has no more lines"));
                return;
            };
            self.shared.unmatched.set(self.expected.len());
            let (got, want) = (bare(&got), bare(&want));
            if got != want {
                self.shared
                    .fail(format!("line {line}: the trace has {want} where the rules give {got}"));
                return;
            }
            if self.keep_at == Some(line) {
                self.kept = Some(t.clone());
                self.shared.start_kept.set(true);
                self.shared.done.set(true);
                return;
            }
        }
    }
}

impl Observer<Table> for Checker<'_, '_> {
    const EVENTS: bool = true;

    fn event(&mut self, t: &Table, e: super::rules::Event) {
        if !self.shared.done.get() {
            self.trace.event(t, e);
            self.compare(t);
        }
    }

    fn round_end(&mut self, t: &Table) {
        if !self.shared.done.get() {
            self.trace.round_end(t);
            self.compare(t);
        }
    }

    fn game_end(&mut self, t: &Table, end: End) {
        if !self.shared.done.get() {
            self.trace.game_end(t, end);
            self.compare(t);
        }
    }
}

/// The kind of decision an event records: `Some(kind)` for a decision
/// (`start` for the event that opens a turn, or the `turn` line itself),
/// given whether the event opens a turn.
fn decision_kind(v: &Value, opens: bool) -> Option<&'static str> {
    Some(match v["event"].as_str()? {
        "turn" => "start",
        "draw" | "community" if opens => "start",
        "play" | "flip" => "start",
        "challenge" => "challenge",
        "discard" => "discard",
        "block" => "block",
        "take" if v["index"].is_null() => "pick",
        "penalty_discard" => "forced",
        "penalty_take" => "penalty",
        _ => return None,
    })
}

/// A decision found in the trace.
#[derive(Clone, Copy, Debug)]
struct Found {
    /// Its line.
    line: usize,
    /// Its index among the game's events.
    index: usize,
    kind: &'static str,
    /// The index of the `turn` event a start option opens.
    turn: Option<usize>,
}

/// Every decision of the game's events, in order.
fn decisions(events: &[(usize, Value)]) -> Vec<Found> {
    let mut found = Vec::new();
    let (mut opens, mut turn) = (false, None);
    for (i, (line, v)) in events.iter().enumerate() {
        let name = v["event"].as_str().unwrap_or_default();
        if name == "turn" {
            turn = Some(i);
        }
        if let Some(kind) = decision_kind(v, opens) {
            found.push(Found {
                line: *line,
                index: i,
                kind,
                turn: if kind == "start" { turn } else { None },
            });
        }
        opens = name == "turn" || (opens && name == "reshuffle");
    }
    found
}

/// The decisions of a trace `sim advise` asks about, for messages.
const DECISIONS: &str = "a turn (its 'turn' line or the draw, community, play or flip that starts it), a challenge, \
     an end-of-turn discard, a penalty_discard (down to six inside a challenge), a block, a Take's pick (a 'take' with \
     a null index) or a penalty_take";

/// A traced decision, replayed: the table as the engine asks it, and the
/// table the engine resumes from.
pub struct Replayed {
    /// The rules of the run.
    pub rules: Rules,
    /// Who decides.
    pub mover: usize,
    /// What is decided.
    pub ask: Ask,
    /// The decision's line in the trace.
    pub line: usize,
    /// The line the engine's events resume at: the `turn` line of a start
    /// option, else the decision's own line.
    pub resume_line: usize,
    /// The table as the engine resumes it (for a start option, just before
    /// its turn begins), with the true hidden cards.
    pub resume: Table,
    /// The table as the engine asks the decision (what the mover sees).
    pub view: Table,
    /// The mover's answer as the trace records it (`None` when `--at` is
    /// the `turn` line of a start option).
    pub traced: Option<Answer>,
}

/// Reads the decision of `cut` (the event at `--at`, or the trace's last
/// decision) by replaying its game through the rules engine.
pub fn read(cut: &TraceCut) -> Result<Replayed, String> {
    let rules = rules_of(&cut.run)?;
    let names = Names::new(&rules);
    let events = &cut.events;
    let first = events.first().ok_or("the trace has no event of a game")?;
    if first.1["event"] != "deal" || first.1["round"] != 0 {
        return Err(format!(
            "line {}: a game's events start with its first deal, not a '{}' event",
            first.0,
            first.1["event"].as_str().unwrap_or("?")
        ));
    }
    let found = decisions(events);
    let target = match cut.at {
        Some(at) => {
            let last = &events[events.len() - 1].1;
            match found.last().filter(|f| f.line == at) {
                Some(f) => *f,
                None => {
                    let what = last["event"].as_str().unwrap_or("?");
                    let how = match what {
                        "draw" | "community" => " of an action card, not a turn's start option",
                        "take" => " of a Steal (a random card), not a decision",
                        _ => ", not a decision",
                    };
                    let article = if what.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
                    return Err(format!(
                        "--at {at}: line {at} is {article} '{what}' event{how} (give the line of {DECISIONS})"
                    ));
                }
            }
        }
        None => *found
            .last()
            .ok_or_else(|| format!("the trace has no decision to advise on ({DECISIONS})"))?,
    };
    let v = &events[target.index].1;
    let mover = names.seat(target.line, v, "seat")?;
    if let Some(t) = target.turn
        && events[t].1["seat"] != v["seat"]
    {
        return Err(format!(
            "line {}: seat {mover} starts a turn the trace's line {} gives seat {}",
            target.line, events[t].0, events[t].1["seat"]
        ));
    }
    // The events replayed: all before the decision; for a start option,
    // up to its `turn` line.
    let upto = match target.turn {
        Some(t) => t + 1,
        None => target.index,
    };
    let script = names.script(&events[..upto.min(target.index)])?;
    let traced = match (v["event"].as_str(), target.kind) {
        (Some("turn"), _) => None,
        (_, "start") => Some(Answer::Start(names.start(target.line, v)?)),
        _ => names
            .script(&events[target.index..=target.index])?
            .decisions
            .front()
            .map(|e| e.answer),
    };
    let shared = Shared::default();
    shared.unmatched.set(upto);
    let buffer = Buffer::default();
    let mut out = buffer.clone();
    let mut writer = TraceWriter::with_format(&mut out, TraceFormat::Json, 0);
    let mut checker = Checker {
        shared: &shared,
        trace: Trace::new(&mut writer),
        buffer,
        expected: events[..upto].iter().cloned().collect(),
        keep_at: target.turn.map(|t| events[t].0),
        kept: None,
    };
    let mut chooser = Scripted {
        shared: &shared,
        decisions: script.decisions,
        target: Some((target.line, target.kind, mover)),
        kept: None,
        start_view: None,
        challenge: None,
        fallback: Policy::default(),
    };
    let mut dealer = Dealer {
        shared: &shared,
        randoms: script.randoms,
        rng: SimRng::seed_from_u64(0),
    };
    let mut table = Table::new(rules);
    table.play_game(&mut chooser, &mut checker, &mut dealer);
    if let Some(e) = shared.error.borrow_mut().take() {
        return Err(e);
    }
    if let Some(e) = chooser.decisions.front() {
        return Err(format!(
            "line {}: the rules never ask seat {} for {} there",
            e.line,
            e.seat,
            kind_words(kind_word(&e.answer))
        ));
    }
    let (ask, resume, view) = match (target.kind, checker.kept, chooser.start_view, chooser.kept) {
        ("start", Some(resume), Some(view), _) => (Ask::Start, resume, view),
        (_, _, _, Some(k)) if k.seat == mover => (k.ask, k.table.clone(), k.table),
        _ => {
            return Err(format!(
                "line {}: the rules never ask seat {mover} for {} here",
                target.line,
                kind_words(target.kind)
            ));
        }
    };
    Ok(Replayed {
        rules,
        mover,
        ask,
        line: target.line,
        resume_line: target.turn.map_or(target.line, |t| events[t].0),
        resume,
        view,
        traced,
    })
}

/// Hears the ends of rounds and of the game, as the trace writes them.
struct Ends {
    decks: u8,
    seen: Vec<Value>,
}

impl Observer<Table> for Ends {
    const EVENTS: bool = false;

    fn round_end(&mut self, t: &Table) {
        let n = t.players();
        let card = |c: Card| if c == EMPTY { Value::Null } else { json_name(c, self.decks).into() };
        let hands: Vec<Vec<String>> = (0..n)
            .map(|p| cards_of(t.hand(p)).map(|c| json_name(c, self.decks)).collect())
            .collect();
        self.seen.push(json!({
            "event": "round_end", "round": t.round(), "cut_off": t.cut_off(), "caller": t.caller(),
            "community": t.community().iter().map(|&c| card(c)).collect::<Vec<_>>(), "hands": hands,
            "points": (0..n).map(|p| t.points(p)).collect::<Vec<_>>(),
            "totals": (0..n).map(|p| t.total(p)).collect::<Vec<_>>(),
        }));
    }

    fn game_end(&mut self, t: &Table, end: End) {
        self.seen.push(json!({
            "event": "game_end", "winner": end.winner, "rounds": t.round(),
            "totals": (0..t.players()).map(|p| t.total(p)).collect::<Vec<_>>(),
        }));
    }
}

impl Replayed {
    /// Plays the kept table on from the decision with the trace's own
    /// later decisions and random outcomes (the true hidden cards) of
    /// `game` (the game's events with their lines, the whole game or from
    /// the decision on), to the game's end: the `round_end` and `game_end`
    /// events the rules engine gives (without `game`), or the first place
    /// the trace and the rules part.
    pub fn play_on_as_traced(&self, game: &[(usize, Value)]) -> Result<Vec<Value>, String> {
        let names = Names::new(&self.rules);
        let later: Vec<(usize, Value)> = game.iter().filter(|(l, _)| *l >= self.resume_line).cloned().collect();
        let script = names.script(&later)?;
        let shared = Shared::default();
        let mut chooser = Scripted {
            shared: &shared,
            decisions: script.decisions,
            target: None,
            kept: None,
            start_view: None,
            challenge: None,
            fallback: Policy::default(),
        };
        let mut dealer = Dealer {
            shared: &shared,
            randoms: script.randoms,
            rng: SimRng::seed_from_u64(0),
        };
        let mut ends = Ends {
            decks: self.rules.deck.decks,
            seen: Vec::new(),
        };
        let (actor, at) = self.ask.resume(self.mover);
        let mut t = self.resume.clone();
        t.finish_game_from(actor, at, &mut chooser, &mut ends, &mut dealer);
        if let Some(e) = shared.error.borrow_mut().take() {
            return Err(e);
        }
        if let Some(e) = chooser.decisions.front() {
            return Err(format!("line {}: the game ended before this decision", e.line));
        }
        if let Some((line, _)) = dealer.randoms.front() {
            return Err(format!("line {line}: the game ended before this random outcome"));
        }
        Ok(ends.seen)
    }
}
