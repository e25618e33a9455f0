//! The play-by-play of `sim classic-flip --trace`: an [`Observer`] that
//! writes one line per event of the very games the statistics are taken
//! from, as text or (`--trace-format json`) as JSON Lines.
//! `docs/rules/classic-flip.md` lists the JSON events. The trace sees
//! everything, hidden cards too.

use serde_json::{Value, json};

use super::cards::{Card, CardSet, cards_of, name, names};
use super::rules::{EMPTY, End, Event, Table};
use crate::engine::observe::{Observer, TraceWriter};
use crate::engine::run::plural;

/// Writes the events of each game to a [`TraceWriter`].
pub struct Trace<'a, 'w> {
    w: &'a mut TraceWriter<'w>,
}

impl<'a, 'w> Trace<'a, 'w> {
    /// A trace of the games to come into `w`.
    pub fn new(w: &'a mut TraceWriter<'w>) -> Trace<'a, 'w> {
        Trace { w }
    }
}

fn list(s: CardSet) -> Value {
    cards_of(s).map(name).collect::<Vec<String>>().into()
}

fn card(c: Card) -> Value {
    if c == EMPTY { Value::Null } else { name(c).into() }
}

fn community(t: &Table) -> Vec<Value> {
    t.community().iter().map(|&c| card(c)).collect()
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

impl Trace<'_, '_> {
    fn json_event(&mut self, t: &Table, e: Event) {
        let w = &mut *self.w;
        match e {
            Event::Dealt => {
                let hands: Vec<Value> = (0..t.players()).map(|p| list(t.hand(p))).collect();
                w.event(
                    "deal",
                    json!({ "round": t.round(), "dealer": t.dealer(), "hands": hands, "community": community(t),
                            "draw": t.draw_pile().map(name).collect::<Vec<_>>() }),
                );
            }
            Event::Turn { seat, extra } => w.event("turn", json!({ "seat": seat, "extra": extra, "turn": t.turns() + 1 })),
            Event::Drew { seat, cards } => w.event("draw", json!({ "seat": seat, "cards": list(cards) })),
            Event::Community { seat, card: c, replaced } => w.event(
                "community",
                json!({ "seat": seat, "card": name(c), "replaced": card(replaced) }),
            ),
            Event::Played { seat, play } => w.event(
                "play",
                json!({ "seat": seat, "card": name(play.card), "function": play.func.key(), "target": play.target,
                        "victims": met_from(t, seat, play.victims),
                        "slots": (0..3).filter(|&s| play.slots & (1 << s) != 0).collect::<Vec<_>>() }),
            ),
            Event::Blocked { seat, card: c } => w.event("block", json!({ "seat": seat, "card": name(c) })),
            Event::Took { seat, from, card: c } => {
                w.event("take", json!({ "seat": seat, "from": from, "card": name(c) }))
            }
            Event::Swapped { seat, with } => w.event("swap", json!({ "seat": seat, "with": with })),
            Event::Rebooted { seat, cards } => w.event("reboot", json!({ "seat": seat, "discarded": list(cards) })),
            Event::Chaos { seat } => {
                let hands: Vec<Value> = (0..t.players()).map(|p| list(t.hand(p))).collect();
                w.event("chaos", json!({ "seat": seat, "hands": hands }))
            }
            Event::Called { seat, points } => w.event("flip", json!({ "seat": seat, "points": points })),
            Event::Challenge {
                seat,
                target,
                won,
                shown,
            } => w.event(
                "challenge",
                json!({ "seat": seat, "target": target, "won": won, "shown": card(shown) }),
            ),
            Event::PenaltyDiscard { seat, cards } => {
                w.event("penalty_discard", json!({ "seat": seat, "cards": list(cards) }))
            }
            Event::PenaltyTaken { seat, cards } => w.event("penalty_take", json!({ "seat": seat, "cards": list(cards) })),
            Event::Discarded {
                seat,
                cards,
                kept,
                limit,
            } => w.event(
                "discard",
                json!({ "seat": seat, "cards": list(cards), "kept": kept, "limit": limit, "hand": list(t.hand(seat)) }),
            ),
            Event::Reshuffled { cards } => w.event("reshuffle", json!({ "cards": cards })),
            Event::CutOff => w.event("cut_off", json!({ "turns": t.turns() })),
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
            Event::Community { seat, card: c, replaced } => w.line(format_args!(
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
            Event::Chaos { seat } => w.line(format_args!("  seat {seat}: chaos, every hand dealt again")),
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
            let hands: Vec<Value> = (0..n).map(|p| list(t.hand(p))).collect();
            self.w.event(
                "round_end",
                json!({ "round": t.round(), "cut_off": t.cut_off(), "caller": t.caller(), "community": community(t),
                        "hands": hands, "points": pts, "totals": totals }),
            );
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
