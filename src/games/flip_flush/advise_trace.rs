//! A Flip-Flush decision read from a JSON trace cut at it, for
//! `sim advise flip-flush --trace FILE --at LINE`.
//!
//! The game is replayed through the rules engine itself
//! ([`Table::play_game`]): the hands the `deal` event lists are dealt (a
//! stacked deck), every earlier Place and Flip is answered as the trace
//! records it (a scripted [`Chooser`]), each card placed is remembered as
//! its `place` event says, and everything the engine does in turn (the
//! card a Place covers, the card a Flip shows and whether it makes a
//! Flush, passes, knock-outs, stakes) is checked against the trace's next
//! event. Where the trace and the rules part, the reading stops with
//! `line N: ...`. The table is kept as it stands when the rules ask the
//! mover for the decision at the line asked about.
//!
//! The table read holds every card where the trace put it, the hidden ones
//! too: the advice only ever looks at it through the mover's
//! [`super::rules::View`] ([`super::advise`]).

use std::cell::{Cell as Flag, RefCell};

use serde_json::Value;

use super::cards::{ALL, CELLS, Card, CardSet, Cell, Deck, name, parse};
use super::rules::{Chooser, End, Event, Fault, HAND_SIZE, MAX_PLAYERS, MEMORY_ONE, MIN_PLAYERS, Move, Observer, Rules, Table, View};
use crate::engine::advise::TraceCut;
use crate::engine::rng::{Draw, Stacked};

/// A decision read from a trace: the table when the mover is asked.
#[derive(Clone, Debug)]
pub struct Read {
    /// The table's rules (from the run line).
    pub rules: Rules,
    /// The table, every card where the trace put it; whose turn it is is
    /// [`Read::mover`] (the table's own turn marker is not kept up).
    pub table: Table,
    /// The seat asked to Place or Flip.
    pub mover: usize,
    /// The line of the decision in the trace (1-based).
    pub line: usize,
    /// The game's number in the trace.
    pub game: u64,
    /// Gambling, a game played on after its batch (1, 2, ...).
    pub played_on: Option<u64>,
    /// The move the trace made at the decision.
    pub played: Move,
    /// Gambling: the pot earlier tied games of the table left, in the pot
    /// besides this game's antes and stakes (the table read does not hold
    /// it).
    pub carried: u32,
    /// Each seat's hand now, a knocked-out seat's the hand it dropped
    /// (hidden cards: for the tests that continue the traced game).
    pub hands: Vec<CardSet>,
}

impl Read {
    /// The card of every Place of the game so far, in order (hidden ones
    /// too: with [`Read::hands`], the world the trace dealt, in the form
    /// [`View::determinize`] takes).
    pub fn places(&self) -> Vec<Card> {
        (0..self.table.log_len())
            .map(|i| self.table.log_entry(i))
            .filter(|e| !e.flip)
            .map(|e| e.card.expect("the log holds every card"))
            .collect()
    }
}

/// A field of an event, or an error naming the line.
fn field<'a>(line: usize, v: &'a Value, key: &str) -> Result<&'a Value, String> {
    v.get(key)
        .ok_or_else(|| format!("line {line}: the '{}' event has no '{key}'", kind(v)))
}

fn kind(v: &Value) -> &str {
    v["event"].as_str().unwrap_or("?")
}

fn number(line: usize, v: &Value, key: &str, below: usize, what: &str) -> Result<usize, String> {
    field(line, v, key)?
        .as_u64()
        .map(|x| x as usize)
        .filter(|&x| x < below)
        .ok_or_else(|| format!("line {line}: '{key}' {} is not {what}", v[key]))
}

fn card_of(line: usize, v: &Value) -> Result<Card, String> {
    let text = field(line, v, "card")?.as_str().unwrap_or_default();
    parse(text).ok_or_else(|| format!("line {line}: '{text}' is not a card (rank, then suit C, D, H or S: AD, 10H, 2S)"))
}

fn flag(line: usize, v: &Value, key: &str) -> Result<bool, String> {
    field(line, v, key)?
        .as_bool()
        .ok_or_else(|| format!("line {line}: '{key}' is not true or false"))
}

/// A list of card names as a set, refusing repeats.
fn card_set(line: usize, v: &Value, what: &str) -> Result<CardSet, String> {
    let list = v
        .as_array()
        .ok_or_else(|| format!("line {line}: {what} is not a list of cards"))?;
    let mut set: CardSet = 0;
    for c in list {
        let text = c.as_str().unwrap_or_default();
        let card = parse(text).ok_or_else(|| format!("line {line}: {what}: '{text}' is not a card"))?;
        if set >> card & 1 != 0 {
            return Err(format!("line {line}: {what} names {text} twice"));
        }
        set |= 1 << card;
    }
    Ok(set)
}

/// The rules of the run line's `table`.
fn rules_of(run: &Value) -> Result<Rules, String> {
    let t = &run["table"];
    let players = t["players"]
        .as_u64()
        .map(|p| p as usize)
        .filter(|p| (MIN_PLAYERS..=MAX_PLAYERS).contains(p))
        .ok_or_else(|| format!("line 1: the run's table has no players from {MIN_PLAYERS} to {MAX_PLAYERS}"))?;
    let gambling = t["gambling"]
        .as_bool()
        .ok_or("line 1: the run's table does not say whether it gambles")?;
    let memory = t["memory"]
        .as_f64()
        .filter(|m| (0.0..=1.0).contains(m))
        .ok_or("line 1: the run's table has no memory from 0 to 1")?;
    Ok(Rules {
        players,
        gambling,
        memory: (memory * f64::from(MEMORY_ONE)).round() as u32,
    })
}

/// The decision of `cut`: the table just before the Place or Flip at line
/// `cut.at` (by default the last of the trace), replayed through the rules
/// engine from the game's deal. Refuses a line that is no decision, and a
/// trace that does not follow the rules, naming the line.
pub fn read(cut: &TraceCut) -> Result<Read, String> {
    let rules = rules_of(&cut.run)?;
    // A game played on (gambling) shares its number with the batch's last
    // game: the game asked about starts at the last deal.
    let start = cut
        .events
        .iter()
        .rposition(|(_, v)| kind(v) == "deal")
        .ok_or_else(|| match cut.events.first() {
            Some((l, _)) => format!("line {l}: no deal starts this game before the line asked about"),
            None => "the trace has no game".to_string(),
        })?;
    let events = &cut.events[start..];
    let is_decision = |v: &Value| matches!(kind(v), "place" | "flip");
    let target = match cut.at {
        Some(at) => {
            let (line, v) = events.last().expect("the cut ends at --at");
            if !is_decision(v) {
                return Err(format!(
                    "--at {at}: line {line} is a '{}' event, not a decision (a place or a flip)",
                    kind(v)
                ));
            }
            events.len() - 1
        }
        None => events
            .iter()
            .rposition(|(_, v)| is_decision(v))
            .ok_or_else(|| format!("the trace's last game (line {}) has no place or flip to advise on", events[0].0))?,
    };
    let (deal_line, deal) = &events[0];
    let deal_line = *deal_line;
    let n = rules.players;
    if deal["players"].as_u64() != Some(n as u64) {
        return Err(format!(
            "line {deal_line}: the deal is for {} players but the run's table has {n}",
            deal["players"]
        ));
    }
    let hands_v = field(deal_line, deal, "hands")?
        .as_array()
        .filter(|h| h.len() == n)
        .ok_or_else(|| format!("line {deal_line}: 'hands' is not one hand for each of the {n} players"))?;
    let mut hands = Vec::with_capacity(n);
    let mut dealt: CardSet = 0;
    for (s, h) in hands_v.iter().enumerate() {
        let set = card_set(deal_line, h, &format!("seat {s}'s hand"))?;
        if set.count_ones() as usize != HAND_SIZE {
            return Err(format!(
                "line {deal_line}: seat {s} is dealt {} cards, not {HAND_SIZE}",
                set.count_ones()
            ));
        }
        if dealt & set != 0 {
            return Err(format!("line {deal_line}: seat {s} is dealt a card another seat holds"));
        }
        dealt |= set;
        hands.push(set);
    }
    let undealt = card_set(deal_line, field(deal_line, deal, "undealt")?, "'undealt'")?;
    if undealt != ALL & !dealt {
        return Err(format!(
            "line {deal_line}: the undealt cards are not the rest of the 52 cards"
        ));
    }
    let carried = if rules.gambling {
        let pot = field(deal_line, deal, "pot")?.as_u64().unwrap_or(0) as u32;
        pot.checked_sub(n as u32)
            .ok_or_else(|| format!("line {deal_line}: a pot of {pot} after the {n} antes"))?
    } else {
        0
    };
    // One card at a time clockwise from seat 0: card `k` of each hand in
    // the `k`-th round.
    let order: Vec<Vec<Card>> = hands.iter().map(|&h| super::cards::cards_of(h).collect()).collect();
    let top: Vec<Card> = (0..HAND_SIZE).flat_map(|k| order.iter().map(move |h| h[k])).collect();
    let mut table = Table::new(rules);
    table.set_deck(Deck::stacked(&top));
    table.deal(&mut Stacked);
    let remembered = Flag::new(false);
    let follow = RefCell::new(Follow {
        events: &events[..=target],
        next: 1,
        held: hands,
        snapshot: None,
        stop: None,
    });
    table.play_game(&mut Script(&follow, &remembered), &mut Check(&follow), &mut Remembered(&remembered));
    let f = follow.into_inner();
    match f.stop {
        Some(Stop::Asked(mover, played)) => Ok(Read {
            rules,
            table: f.snapshot.expect("the deal is seen before any decision"),
            mover,
            line: events[target].0,
            game: deal["game"].as_u64().unwrap_or(0),
            played_on: deal["played_on"].as_u64(),
            played,
            carried,
            hands: f.held,
        }),
        Some(Stop::Wrong(e)) => Err(e),
        None => Err(format!(
            "line {}: the rules ended the game before this event",
            events[f.next.min(target)].0
        )),
    }
}

/// Why the replay stopped following the trace.
enum Stop {
    /// The mover is asked the decision at the target line; the trace made
    /// this move there.
    Asked(usize, Move),
    /// The trace and the rules parted.
    Wrong(String),
}

/// The replay's place in the trace.
struct Follow<'a> {
    /// The game's events from its deal to the decision asked about.
    events: &'a [(usize, Value)],
    /// The next event the rules engine should make.
    next: usize,
    /// Each seat's hand (a knocked-out seat's: the hand it dropped).
    held: Vec<CardSet>,
    /// The table after the last event.
    snapshot: Option<Table>,
    stop: Option<Stop>,
}

impl Follow<'_> {
    fn wrong(&mut self, e: String) {
        if self.stop.is_none() {
            self.stop = Some(Stop::Wrong(e));
        }
    }

    /// The move of the event at `line`, checked against the view of the
    /// seat asked.
    fn move_of(&self, line: usize, e: &Value, v: &View<'_>) -> Result<Move, String> {
        let seat = v.seat();
        match kind(e) {
            "place" => {
                let card = card_of(line, e)?;
                let cell = number(line, e, "cell", CELLS, "a cell (0 to 8)")?;
                if v.hand() >> card & 1 == 0 {
                    return Err(format!("line {line}: seat {seat} places {}, which is not in its hand", name(card)));
                }
                Ok(Move::Place { card, cell })
            }
            "flip" => {
                let cell = number(line, e, "cell", CELLS, "a cell (0 to 8)")?;
                if v.down() >> cell & 1 == 0 {
                    return Err(format!(
                        "line {line}: seat {seat} flips cell {cell}, which holds no face-down card"
                    ));
                }
                Ok(Move::Flip {
                    cell,
                    call: flag(line, e, "call")?,
                })
            }
            k => Err(format!(
                "line {line}: a '{k}' event where the rules ask seat {seat} to place or flip"
            )),
        }
    }
}

/// Any legal move, to end the replayed game once the decision is reached
/// (or the trace has parted from the rules).
fn any_move(v: &View<'_>) -> Move {
    match v.hand() {
        0 => Move::Flip {
            cell: v.down().trailing_zeros() as usize,
            call: false,
        },
        h => Move::Place {
            card: h.trailing_zeros() as Card,
            cell: 0,
        },
    }
}

/// The trace's decisions, in order.
struct Script<'f, 'a>(&'f RefCell<Follow<'a>>, &'f Flag<bool>);

impl Chooser for Script<'_, '_> {
    fn choose<D: Draw>(&mut self, v: &View<'_>, _d: &mut D) -> Move {
        let mut f = self.0.borrow_mut();
        if f.stop.is_some() {
            return any_move(v);
        }
        let (line, e) = &f.events[f.next];
        let line = *line;
        let who = e["seat"].as_u64();
        if who != Some(v.seat() as u64) {
            let e = format!(
                "line {line}: a '{}' event of seat {}, but the rules ask seat {} to place or flip here",
                kind(e),
                e["seat"],
                v.seat()
            );
            f.wrong(e);
            return any_move(v);
        }
        let mv = match f.move_of(line, e, v) {
            Ok(m) => m,
            Err(e) => {
                f.wrong(e);
                return any_move(v);
            }
        };
        if f.next + 1 == f.events.len() {
            f.stop = Some(Stop::Asked(v.seat(), mv));
            return any_move(v);
        }
        if let Move::Place { card, .. } = mv {
            self.1.set(e["remembered"].as_bool().unwrap_or(false));
            let s = v.seat();
            f.held[s] &= !(1 << card);
        }
        mv
    }
}

/// Memory drawn as the trace says (a card is remembered when the draw is
/// below the chance of remembering: 0 is, the highest draw is not).
struct Remembered<'f>(&'f Flag<bool>);

impl Draw for Remembered<'_> {
    fn below(&mut self, n: u32) -> u32 {
        if self.0.get() { 0 } else { n - 1 }
    }
}

/// Checks what the rules engine does against the trace.
struct Check<'f, 'a>(&'f RefCell<Follow<'a>>);

fn face(c: Cell) -> (Value, Value) {
    match c {
        Cell::Empty => (Value::Null, Value::Null),
        Cell::Down(c) => (name(c).into(), "down".into()),
        Cell::Up(c) => (name(c).into(), "up".into()),
    }
}

fn fault_key(f: Fault) -> &'static str {
    match f {
        Fault::WrongCall => "wrong_call",
        Fault::MissedFlush => "missed_flush",
    }
}

impl Observer<Table> for Check<'_, '_> {
    const EVENTS: bool = true;

    fn event(&mut self, t: &Table, ev: Event) {
        let mut f = self.0.borrow_mut();
        if f.stop.is_some() {
            return;
        }
        let at = f.next;
        let result = match ev {
            Event::Dealt => Ok(()),
            Event::Place {
                card,
                covered,
                remembered,
                ..
            } => {
                let (line, e) = &f.events[at];
                let (c, cf) = face(covered);
                if e["covered"] != c || e["covered_face"] != cf {
                    Err(format!(
                        "line {line}: the Place covers {} by the rules, the trace says {} ({})",
                        if c.is_null() { "nothing".into() } else { format!("{} (face {})", c.as_str().unwrap_or(""), cf.as_str().unwrap_or("")) },
                        e["covered"],
                        e["covered_face"]
                    ))
                } else if e["remembered"] != remembered {
                    Err(format!(
                        "line {line}: {} is {}remembered by the rules (memory {}), the trace says remembered: {}",
                        name(card),
                        if remembered { "" } else { "not " },
                        f64::from(t.rules().memory) / f64::from(MEMORY_ONE),
                        e["remembered"]
                    ))
                } else {
                    f.next += 1;
                    Ok(())
                }
            }
            Event::Flip { card, flush, .. } => {
                let (line, e) = &f.events[at];
                if e["card"] != name(card).as_str() {
                    Err(format!(
                        "line {line}: the Flip turns up {} by the rules, the trace says {}",
                        name(card),
                        e["card"]
                    ))
                } else if e["flush"] != flush {
                    Err(format!(
                        "line {line}: the Flip {} a Flush by the rules, the trace says flush: {}",
                        if flush { "makes" } else { "makes no" },
                        e["flush"]
                    ))
                } else {
                    f.next += 1;
                    Ok(())
                }
            }
            Event::Pass { seat } => expect(&f, at, "pass", seat, None, "seat {seat} passes (no card in hand, nothing face-down)"),
            Event::KnockedOut { seat, fault } => {
                expect(&f, at, "knocked_out", seat, Some(fault), "seat {seat} is knocked out")
            }
            Event::Pays { seat, fault } => expect(&f, at, "pays", seat, Some(fault), "seat {seat} pays a stake"),
        };
        match result {
            Ok(()) => {
                if !matches!(ev, Event::Place { .. } | Event::Flip { .. } | Event::Dealt) {
                    f.next += 1;
                }
                f.snapshot = Some(t.clone());
            }
            Err(e) => f.wrong(e),
        }
    }

    fn game_end(&mut self, _t: &Table, end: End) {
        let mut f = self.0.borrow_mut();
        if f.stop.is_none() {
            let line = f.events[f.next.min(f.events.len() - 1)].0;
            let how = match end {
                End::Call(w) => format!("seat {w} won by a call"),
                End::LastStanding(w) => format!("seat {w} is the last left"),
                End::Tie => "a tie: everything face-up and no card in hand".into(),
            };
            f.wrong(format!("line {line}: the game is over by the rules before this event ({how})"));
        }
    }
}

/// The trace's event `at` must be a `want` of `seat` (with `fault`).
fn expect(f: &Follow<'_>, at: usize, want: &str, seat: usize, fault: Option<Fault>, what: &str) -> Result<(), String> {
    let what = what.replace("{seat}", &seat.to_string());
    let (line, e) = f
        .events
        .get(at)
        .ok_or_else(|| format!("the rules go on past the trace: {what}"))?;
    let same = kind(e) == want
        && e["seat"].as_u64() == Some(seat as u64)
        && fault.is_none_or(|x| e["fault"] == fault_key(x));
    if same {
        return Ok(());
    }
    let fault = fault.map_or(String::new(), |x| format!(" ({})", fault_key(x)));
    Err(format!("line {line}: here {what}{fault} by the rules, but the trace has a '{}' event", kind(e)))
}
