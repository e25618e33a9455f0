//! The play-by-play of `sim ib-flip --trace`: an [`Observer`] that writes
//! one line per event of the very games the statistics are taken from, as
//! text or (`--trace-format json`) as JSON Lines. `docs/rules/ib-flip.md`
//! gives the JSON schema. The trace sees everything, face-down cards too.

use serde_json::{Value, json};

use super::cards::{CardSet, RANK_NAMES, ZERO, cards_of, name, names};
use super::rules::{End, Event, FlipCause, Out, Source, Table};
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

/// A target's name: a rank, or `zero`.
pub fn target_name(t: u8) -> &'static str {
    if t == ZERO { "zero" } else { RANK_NAMES[usize::from(t)] }
}

fn source_key(s: Source) -> &'static str {
    match s {
        Source::Hand => "hand",
        Source::FaceUp => "face_up",
        Source::FaceDown => "face_down",
        Source::Revealed => "revealed",
    }
}

/// How a player left, for JSON and text.
pub fn out_key(o: Out) -> String {
    match o {
        Out::In => "in".into(),
        Out::Legal => "legal".into(),
        Out::Illegal(k) => format!("illegal_{}", k.key()),
        Out::EightsFlip => "eights_flip".into(),
        Out::Last => "last_left".into(),
    }
}

fn cause_key(c: FlipCause) -> String {
    match c {
        FlipCause::Ten => "10".into(),
        FlipCause::Set(r) => format!("set_{}", RANK_NAMES[usize::from(r)]),
        FlipCause::RevealedTen => "revealed_10".into(),
    }
}

fn pile(t: &Table) -> String {
    let v: Vec<String> = t.live().map(|(c, _)| name(c)).collect();
    if v.is_empty() { "-".into() } else { v.join(" ") }
}

impl Trace<'_, '_> {
    fn json_event(&mut self, t: &Table, e: Event) {
        let w = &mut *self.w;
        match e {
            Event::Dealt => {
                let seats: Vec<Value> = (0..t.players())
                    .map(|s| {
                        json!({
                            "down": t.downs(s).iter().map(|&c| name(c)).collect::<Vec<_>>(),
                            "up": list(t.up(s)),
                            "hand": list(t.hand(s)),
                        })
                    })
                    .collect();
                let draw: Vec<String> = t.draw_pile().map(name).collect();
                w.event("deal", json!({ "players": t.players(), "seats": seats, "draw": draw }));
            }
            Event::Fixed { seat, up, drew } => w.event(
                "fix",
                json!({ "seat": seat, "up": list(up), "hand": list(t.hand(seat)), "drew": list(drew) }),
            ),
            Event::Starts { seat, card } => w.event("start", json!({ "seat": seat, "card": name(card) })),
            Event::Play {
                seat,
                cards,
                from,
                target,
            } => w.event(
                "play",
                json!({ "seat": seat, "cards": list(cards), "from": source_key(from), "on": target_name(target) }),
            ),
            Event::Drew { seat, cards } => w.event("draw", json!({ "seat": seat, "cards": list(cards) })),
            Event::AddOn { seat, cards } => w.event("add_on", json!({ "seat": seat, "cards": list(cards) })),
            Event::Reveal { seat, card, ok } => {
                w.event("reveal", json!({ "seat": seat, "card": name(card), "ok": ok }))
            }
            Event::FaceDown { seat, card, ok } => {
                w.event("face_down", json!({ "seat": seat, "card": name(card), "ok": ok }))
            }
            Event::Pickup { seat, cards } => w.event("pickup", json!({ "seat": seat, "cards": list(cards) })),
            Event::NineDraw { seat, card } => w.event("nine_draw", json!({ "seat": seat, "card": name(card) })),
            Event::Flip { seat, cause, cards } => {
                w.event("flip", json!({ "seat": seat, "cause": cause_key(cause), "cards": cards }))
            }
            Event::ThreeDealt { to, card } => w.event("three_dealt", json!({ "to": to, "card": name(card) })),
            Event::ThreeTaken { seat, card } => {
                w.event("three_taken", json!({ "seat": seat, "card": card.map(name) }))
            }
            Event::NinesFlip { seat, cards, top } => w.event(
                "nines_flip",
                json!({ "seat": seat, "cards": cards, "top": name(top), "live": t.live().map(|(c, _)| name(c)).collect::<Vec<_>>() }),
            ),
            Event::Reverse { seat } => w.event("reverse", json!({ "seat": seat })),
            Event::Skip { seat, turns } => w.event("skip", json!({ "seat": seat, "turns": turns })),
            Event::Finished { seat, place, how } => {
                w.event("finished", json!({ "seat": seat, "place": place, "how": out_key(how) }))
            }
        }
    }

    fn text_event(&mut self, t: &Table, e: Event) {
        let w = &mut *self.w;
        match e {
            Event::Dealt => {
                let g = w.game();
                w.line(format_args!("game {g}: {} players", t.players()));
                for s in 0..t.players() {
                    let down: Vec<String> = t.downs(s).iter().map(|&c| name(c)).collect();
                    w.line(format_args!(
                        "  seat {s}: down [{}] up [{}] hand [{}]",
                        down.join(" "),
                        names(t.up(s)),
                        names(t.hand(s))
                    ));
                }
            }
            Event::Fixed { seat, up, drew } => {
                let drew = if drew == 0 {
                    String::new()
                } else {
                    format!(", drew {}", names(drew))
                };
                w.line(format_args!(
                    "  seat {seat} fixes: up [{}] hand [{}]{drew}",
                    names(up),
                    names(t.hand(seat))
                ));
            }
            Event::Starts { seat, card } => w.line(format_args!("  seat {seat} starts with the lowest card, {}", name(card))),
            Event::Play {
                seat,
                cards,
                from,
                target,
            } => w.line(format_args!(
                "  seat {seat} plays {} from {} on {}   [live: {}]",
                names(cards),
                source_key(from).replace('_', "-"),
                target_name(target),
                pile(t)
            )),
            Event::Drew { seat, cards } => w.line(format_args!("  seat {seat} draws {}", names(cards))),
            Event::AddOn { seat, cards } => w.line(format_args!("  seat {seat} adds {} just drawn", names(cards))),
            Event::Reveal { seat, card, ok } => w.line(format_args!(
                "  seat {seat} reveals {}{}",
                name(card),
                if ok { ", playable" } else { ", not playable" }
            )),
            Event::FaceDown { seat, card, ok } => w.line(format_args!(
                "  seat {seat} turns face-down {}{}",
                name(card),
                if ok { ", playable" } else { ", not playable" }
            )),
            Event::Pickup { seat, cards } => w.line(format_args!(
                "  seat {seat} picks up {} card(s): {}",
                cards.count_ones(),
                names(cards)
            )),
            Event::NineDraw { seat, card } => w.line(format_args!(
                "  seat {seat}'s 9 draws {} from the discard pile   [live: {}]",
                name(card),
                pile(t)
            )),
            Event::Flip { seat, cause, cards } => w.line(format_args!(
                "  seat {seat} flips {cards} card(s) ({})",
                cause_key(cause).replace('_', " ")
            )),
            Event::ThreeDealt { to, card } => w.line(format_args!("  seat {to} is dealt {}", name(card))),
            Event::ThreeTaken { seat, card } => match card {
                Some(c) => w.line(format_args!("  seat {seat} takes {} from the discard pile", name(c))),
                None => w.line(format_args!("  seat {seat} finds no 3 in the discard pile")),
            },
            Event::NinesFlip { seat, cards, top } => w.line(format_args!(
                "  seat {seat} flips the 9s: the discard pile ({}) is the live pile, top {}",
                plural(cards.into(), "card"),
                name(top)
            )),
            Event::Reverse { seat } => w.line(format_args!("  seat {seat} reverses the direction")),
            Event::Skip { seat, turns } => w.line(format_args!("  seat {seat} skips {turns} turn(s)")),
            Event::Finished { seat, place, how } => w.line(format_args!(
                "  seat {seat} is out ({}) in place {place}",
                out_key(how).replace('_', " ")
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
            self.json_event(t, e)
        } else {
            self.text_event(t, e)
        }
    }

    fn game_end(&mut self, t: &Table, end: End) {
        let places: Vec<u8> = (0..t.players()).map(|s| t.place(s)).collect();
        let (result, repetition) = match end {
            End::Complete => ("complete", false),
            End::Stalemate { repetition } => ("stalemate", repetition),
        };
        if self.w.json() {
            self.w.event(
                "game_end",
                json!({ "result": result, "repetition": repetition, "places": places, "moves": t.moves() }),
            );
        } else {
            let g = self.w.game();
            let order: Vec<String> = places.iter().map(|p| p.to_string()).collect();
            let what = match end {
                End::Complete => "ends".to_string(),
                End::Stalemate { repetition: true } => "is a stalemate (the position repeats)".to_string(),
                End::Stalemate { repetition: false } => "is a stalemate (move cap)".to_string(),
            };
            self.w.line(format_args!(
                "game {g}: {what} after {}; places by seat: {} (0 = still in)",
                plural(t.moves().into(), "move"),
                order.join(" ")
            ));
        }
        self.w.next_game();
    }
}
