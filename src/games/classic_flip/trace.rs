//! The play-by-play of `sim classic-flip --trace`: an [`Observer`] that
//! writes one line per event of the very games the statistics are taken
//! from, as text or (`--trace-format json`) as JSON Lines.
//! `docs/rules/classic-flip.md` lists the JSON events. The trace sees
//! everything, hidden cards too.

use serde_json::{Value, json};

use super::cards::{Card, CardSet, Func, LIMIT10, PER_DECK, bit, cards_of, count, name, names};
use super::rules::{EMPTY, End, Event, LIMIT, LIMIT_6, LIMIT_10, Play, Table};
use crate::engine::observe::{Observer, TraceWriter};
use crate::engine::show::plural;

/// Writes the events of each game to a [`TraceWriter`].
///
/// For JSON it follows the draw pile itself (from the deal and every
/// reshuffle), so that it can list the cards of every draw in the order
/// they came off the pile: the engine reports a draw as a set. It also
/// remembers the action being played (a Steal's random index, whose Take
/// or Steal a Block stops). None of this costs an untraced run anything.
pub struct Trace<'a, 'w> {
    w: &'a mut TraceWriter<'w>,
    /// The draw pile after the last event, top first.
    pile: Vec<Card>,
    /// Cards of the old pile taken by the draw a reshuffle interrupted.
    pending: Vec<Card>,
    /// The action card in play, if any.
    play: Option<Play>,
    /// Decks in play (two: card names carry their copy, `R5#2`).
    decks: u8,
}

impl<'a, 'w> Trace<'a, 'w> {
    /// A trace of the games to come into `w`.
    pub fn new(w: &'a mut TraceWriter<'w>) -> Trace<'a, 'w> {
        Trace {
            w,
            pile: Vec::new(),
            pending: Vec::new(),
            play: None,
            decks: 1,
        }
    }
}

/// A card's name in the JSON trace: as [`name`], and with two decks the
/// copy after `#` (`R5#1`, `R5#2`), so that every card has its own name.
pub fn json_name(c: Card, decks: u8) -> String {
    if decks >= 2 {
        format!("{}#{}", name(c), c / PER_DECK + 1)
    } else {
        name(c)
    }
}

fn community_text(t: &Table) -> String {
    t.community()
        .iter()
        .map(|&c| if c == EMPTY { "-".to_string() } else { name(c) })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The seats of `set` (a bit per seat) in the order a play by `seat`
/// meets them: clockwise from the next seat.
fn met_from(t: &Table, seat: usize, set: u8) -> Vec<usize> {
    let n = t.players();
    (1..n).map(|k| (seat + k) % n).filter(|&q| set & (1 << q) != 0).collect()
}

/// The hand limit a challenge judges `q` by: 6 when penalised, 10 while
/// holding 7>>>10 or Any, else 7.
fn judged_limit(t: &Table, q: usize) -> u32 {
    if t.penalised(q) {
        LIMIT_6
    } else if t.hand(q) & LIMIT10 != 0 {
        LIMIT_10
    } else {
        LIMIT
    }
}

impl Trace<'_, '_> {
    fn card(&self, c: Card) -> Value {
        if c == EMPTY { Value::Null } else { json_name(c, self.decks).into() }
    }

    fn list(&self, s: CardSet) -> Value {
        cards_of(s).map(|c| json_name(c, self.decks)).collect::<Vec<String>>().into()
    }

    fn seq(&self, cards: &[Card]) -> Value {
        cards.iter().map(|&c| json_name(c, self.decks)).collect::<Vec<String>>().into()
    }

    fn community(&self, t: &Table) -> Value {
        t.community().iter().map(|&c| self.card(c)).collect::<Vec<Value>>().into()
    }

    fn hands(&self, t: &Table) -> Value {
        (0..t.players()).map(|p| self.list(t.hand(p))).collect::<Vec<Value>>().into()
    }

    /// The cards taken off the draw pile since the last event, in the
    /// order taken (the old pile's first, when a reshuffle came between).
    fn taken(&mut self, t: &Table) -> Vec<Card> {
        let gone = self.pile.len() - t.draw_count();
        let mut v = std::mem::take(&mut self.pending);
        v.extend(self.pile.drain(..gone));
        debug_assert!(self.pile.iter().copied().eq(t.draw_pile()), "the trace lost the draw pile");
        v
    }

    fn json_event(&mut self, t: &Table, e: Event) {
        match e {
            Event::Dealt => {
                self.decks = t.rules().deck.decks;
                self.pile = t.draw_pile().collect();
                self.pending.clear();
                self.play = None;
                let fields = json!({ "round": t.round(), "dealer": t.dealer(), "hands": self.hands(t),
                                     "community": self.community(t), "draw": self.seq(&self.pile) });
                self.w.event("deal", fields);
            }
            Event::Turn { seat, extra } => {
                self.w.event("turn", json!({ "seat": seat, "extra": extra, "turn": t.turns() + 1 }))
            }
            Event::Drew { seat, cards } => {
                let order = self.taken(t);
                debug_assert_eq!(order.iter().fold(0, |m, &c| m | bit(c)), cards);
                let fields = json!({ "seat": seat, "cards": self.seq(&order) });
                self.w.event("draw", fields);
            }
            Event::Community {
                seat,
                slot,
                card: c,
                replaced,
            } => {
                let order = self.taken(t);
                debug_assert_eq!(order.first().copied().unwrap_or(EMPTY), replaced);
                let fields = json!({ "seat": seat, "slot": slot, "card": self.card(c), "replaced": self.card(replaced) });
                self.w.event("community", fields);
            }
            Event::Played { seat, play } => {
                self.play = Some(play);
                let target = matches!(play.func, Func::Take | Func::Swap).then_some(play.target);
                let fields = json!({ "seat": seat, "card": self.card(play.card), "function": play.func.key(), "target": target,
                                     "victims": met_from(t, seat, play.victims),
                                     "slots": (0..3).filter(|&s| play.slots & (1 << s) != 0).collect::<Vec<_>>() });
                self.w.event("play", fields);
            }
            Event::Blocked { seat, card: c } => {
                let against = self.play.map(|p| p.func.key());
                let fields = json!({ "seat": seat, "card": self.card(c), "against": against });
                self.w.event("block", fields);
            }
            Event::Took { seat, from, card: c } => {
                // A Steal's card is drawn at random: its index in the
                // victim's hand before the Steal, lowest card first.
                let steal = self.play.is_some_and(|p| p.func == Func::Steal);
                let index = steal.then(|| count((t.hand(from) | bit(c)) & (bit(c) - 1)));
                let fields = json!({ "seat": seat, "from": from, "card": self.card(c), "index": index,
                                     "of": steal.then(|| count(t.hand(from)) + 1) });
                self.w.event("take", fields);
            }
            Event::Swapped { seat, with } => self.w.event("swap", json!({ "seat": seat, "with": with })),
            Event::Rebooted { seat, cards } => {
                let fields = json!({ "seat": seat, "discarded": self.list(cards) });
                self.w.event("reboot", fields);
            }
            Event::Chaos { seat, deal } => {
                let fields = json!({ "seat": seat, "deal": self.seq(deal.cards()), "hands": self.hands(t) });
                self.w.event("chaos", fields);
            }
            Event::Refilled => {
                self.taken(t);
                let fields = json!({ "community": self.community(t) });
                self.w.event("refill", fields);
            }
            Event::PlayedDiscarded { seat, card: c } => {
                self.play = None;
                let fields = json!({ "seat": seat, "card": self.card(c) });
                self.w.event("action_discard", fields);
            }
            Event::Called { seat, points } => self.w.event("flip", json!({ "seat": seat, "points": points })),
            Event::Challenge {
                seat,
                target,
                won,
                shown,
            } => {
                let fields = json!({ "seat": seat, "target": target, "size": count(t.hand(target)),
                                     "penalised": t.penalised(target), "protected": t.grace(target),
                                     "limit": judged_limit(t, target), "won": won, "shown": self.card(shown) });
                self.w.event("challenge", fields);
            }
            Event::PenaltyDiscard { seat, cards } => {
                let fields = json!({ "seat": seat, "cards": self.list(cards) });
                self.w.event("penalty_discard", fields);
            }
            Event::PenaltyTaken { seat, cards } => {
                let fields = json!({ "seat": seat, "cards": self.list(cards) });
                self.w.event("penalty_take", fields);
            }
            Event::Discarded {
                seat,
                cards,
                kept,
                limit,
            } => {
                let fields = json!({ "seat": seat, "cards": self.list(cards), "kept": kept, "limit": limit,
                                     "hand": self.list(t.hand(seat)) });
                self.w.event("discard", fields);
            }
            Event::Reshuffled { cards } => {
                // Whatever the last event left on the pile has been drawn
                // by the draw in progress.
                self.pending.append(&mut self.pile);
                self.pile = t.draw_pile().collect();
                let fields = json!({ "cards": cards, "draw": self.seq(&self.pile) });
                self.w.event("reshuffle", fields);
            }
            Event::CutOff => self.w.event("cut_off", json!({ "turns": t.turns() })),
        }
    }

    fn text_event(&mut self, t: &Table, e: Event) {
        let w = &mut *self.w;
        match e {
            Event::Dealt => {
                w.line(format_args!(
                    "game {} round {}: dealer {}, community {}",
                    w.game(),
                    t.round() + 1,
                    t.dealer(),
                    community_text(t)
                ));
                for p in 0..t.players() {
                    w.line(format_args!("  seat {p}: {}", names(t.hand(p))));
                }
            }
            Event::Turn { seat, extra } => {
                let x = if extra { " (extra)" } else { "" };
                w.line(format_args!("turn {}{x}: seat {seat}", t.turns() + 1))
            }
            Event::Drew { seat, cards } => w.line(format_args!("  seat {seat} draws {}", names(cards))),
            Event::Community {
                seat, card: c, replaced, ..
            } => w.line(format_args!(
                "  seat {seat} takes community {}; replaced by {}",
                name(c),
                if replaced == EMPTY { "nothing".into() } else { name(replaced) }
            )),
            Event::Played { seat, play } => {
                w.line(format_args!("  seat {seat} plays {} as {}", name(play.card), play.func.key()))
            }
            Event::Blocked { seat, card: c } => w.line(format_args!("  seat {seat} blocks with {}", name(c))),
            Event::Took { seat, from, card: c } => {
                w.line(format_args!("  seat {seat} takes {} from seat {from}", name(c)))
            }
            Event::Swapped { seat, with } => w.line(format_args!("  seat {seat} swaps hands with seat {with}")),
            Event::Rebooted { seat, cards } => w.line(format_args!("  seat {seat} reboots, discarding {}", names(cards))),
            Event::Chaos { seat, .. } => w.line(format_args!("  seat {seat}: chaos, every hand dealt again")),
            Event::Refilled | Event::PlayedDiscarded { .. } => {}
            Event::Called { seat, points } => w.line(format_args!("  seat {seat} calls Flip! holding {points} points")),
            Event::Challenge {
                seat,
                target,
                won,
                shown,
            } => w.line(format_args!(
                "  seat {seat} challenges seat {target}: {}{}",
                if won { "caught" } else { "cleared" },
                if shown == EMPTY { String::new() } else { format!(" (shows {})", name(shown)) }
            )),
            Event::PenaltyDiscard { seat, cards } => {
                w.line(format_args!("  seat {seat} discards to six: {}", names(cards)))
            }
            Event::PenaltyTaken { seat, cards } => {
                w.line(format_args!("  seat {seat} takes from the penalty discards: {}", names(cards)))
            }
            Event::Discarded {
                seat,
                cards,
                kept,
                limit,
            } => w.line(format_args!(
                "  seat {seat} discards {}; keeps {kept} (limit {limit}): {}",
                names(cards),
                names(t.hand(seat))
            )),
            Event::Reshuffled { cards } => {
                w.line(format_args!("  the discard pile ({}) is reshuffled", plural(cards.into(), "card")))
            }
            Event::CutOff => w.line(format_args!(
                "  round cut off after {} (void)",
                plural(t.turns().into(), "turn")
            )),
        }
    }
}

impl Observer<Table> for Trace<'_, '_> {
    const EVENTS: bool = true;

    /// The game's first JSON event carries its seed.
    fn game_seed(&mut self, seed: u64) {
        self.w.game_seed(seed);
    }

    fn event(&mut self, t: &Table, e: Event) {
        if self.w.json() {
            self.json_event(t, e);
        } else {
            self.text_event(t, e);
        }
    }

    fn round_end(&mut self, t: &Table) {
        let n = t.players();
        if self.w.json() {
            let pts: Vec<u32> = (0..n).map(|p| t.points(p)).collect();
            let totals: Vec<u32> = (0..n).map(|p| t.total(p)).collect();
            let fields = json!({ "round": t.round(), "cut_off": t.cut_off(), "caller": t.caller(),
                                 "community": self.community(t), "hands": self.hands(t), "points": pts, "totals": totals });
            self.w.event("round_end", fields);
        } else {
            let w = &mut *self.w;
            w.line(format_args!("round {} scored (community {}):", t.round() + 1, community_text(t)));
            for p in 0..n {
                w.line(format_args!(
                    "  seat {p}: {} -> {} points, total {}",
                    names(t.hand(p)),
                    t.points(p),
                    t.total(p)
                ));
            }
        }
    }

    fn game_end(&mut self, t: &Table, end: End) {
        if self.w.json() {
            let totals: Vec<u32> = (0..t.players()).map(|p| t.total(p)).collect();
            self.w.event(
                "game_end",
                json!({ "winner": end.winner, "rounds": t.round(), "totals": totals }),
            );
        } else {
            match end.winner {
                Some(s) => self.w.line(format_args!(
                    "game {}: seat {s} wins after {}",
                    self.w.game(),
                    plural(t.round().into(), "round")
                )),
                None => self.w.line(format_args!("game {}: no winner (game cap)", self.w.game())),
            }
        }
        self.w.next_game();
    }
}
