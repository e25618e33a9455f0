//! The play-by-play of `sim ib-flip --trace`: an [`Observer`] that writes
//! one line per event of the very games the statistics are taken from, as
//! text or (`--trace-format json`) as JSON Lines. `docs/rules/ib-flip.md`
//! gives the JSON schema. The trace sees everything, face-down cards too.

use serde_json::{Value, json};

use super::cards::{Card, CardSet, RANK_NAMES, ZERO, cards_of, name, names};
use super::rules::{End, Event, FlipCause, Out, REPEAT_FROM, SkipCause, Source, Table};
use super::IbFlipSim;
use crate::engine::observe::{Observer, TraceWriter};
use crate::engine::show::plural;

/// Writes the events of each game to a [`TraceWriter`].
///
/// For JSON it follows the draw pile and the live pile itself (from the
/// deal and every event), so that it can list drawn, flipped and picked-up
/// cards in their order: the engine reports them as sets or counts. It
/// also numbers each turn's first event with its move. None of this costs
/// an untraced run anything.
pub struct Trace<'a, 'w> {
    w: &'a mut TraceWriter<'w>,
    /// The draw pile after the last event, top first.
    draw: Vec<Card>,
    /// The live pile after the last event, bottom first.
    live: Vec<Card>,
    /// The move whose first event has been written.
    move_seen: u32,
    /// Fixing steps of the seat fixing so far.
    fix_steps: u32,
}

impl<'a, 'w> Trace<'a, 'w> {
    /// A trace of the games to come into `w`.
    pub fn new(w: &'a mut TraceWriter<'w>) -> Trace<'a, 'w> {
        Trace {
            w,
            draw: Vec::new(),
            live: Vec::new(),
            move_seen: 0,
            fix_steps: 0,
        }
    }
}

impl<'a, 'w> Trace<'a, 'w> {
    /// A trace of the game on `t` taken up in its middle (`sim advise`
    /// checks a resumed game against its trace): the draw and live piles
    /// as they are; `turn_begun` when the current turn's first event is
    /// already written; `fix_steps` the fixing steps the seat fixing has
    /// taken (0 once play has begun).
    pub fn resume(w: &'a mut TraceWriter<'w>, t: &Table, turn_begun: bool, fix_steps: u32) -> Trace<'a, 'w> {
        Trace {
            w,
            draw: t.draw_pile().collect(),
            live: t.live().map(|(c, _)| c).collect(),
            move_seen: if turn_begun { t.moves() } else { t.moves().saturating_sub(1) },
            fix_steps,
        }
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

fn seq(cards: &[Card]) -> Value {
    cards.iter().map(|&c| name(c)).collect::<Vec<String>>().into()
}

fn skip_key(c: SkipCause) -> &'static str {
    match c {
        SkipCause::Eights => "8s",
        SkipCause::Nine => "9",
        SkipCause::NinesFlip => "9s_flip",
    }
}

fn pile(t: &Table) -> String {
    let v: Vec<String> = t.live().map(|(c, _)| name(c)).collect();
    if v.is_empty() { "-".into() } else { v.join(" ") }
}

impl Trace<'_, '_> {
    /// The cards taken off the draw pile since the last event, top first.
    fn drawn(&mut self, t: &Table) -> Vec<Card> {
        let gone = self.draw.len() - t.draw_count();
        let v: Vec<Card> = self.draw.drain(..gone).collect();
        debug_assert!(self.draw.iter().copied().eq(t.draw_pile()), "the trace lost the draw pile");
        v
    }

    /// Adds `move` to the fields of a turn's first event.
    fn first_of_turn(&mut self, t: &Table, mut fields: Value) -> Value {
        if t.moves() != self.move_seen {
            self.move_seen = t.moves();
            fields["move"] = t.moves().into();
        }
        fields
    }

    fn json_event(&mut self, t: &Table, e: Event) {
        // The live pile as the last event left it.
        let live_before = std::mem::replace(&mut self.live, t.live().map(|(c, _)| c).collect());
        match e {
            Event::Dealt => {
                self.draw = t.draw_pile().collect();
                self.move_seen = 0;
                self.fix_steps = 0;
                let seats: Vec<Value> = (0..t.players())
                    .map(|s| {
                        json!({
                            "down": t.downs(s).iter().map(|&c| name(c)).collect::<Vec<_>>(),
                            "up": list(t.up(s)),
                            "hand": list(t.hand(s)),
                        })
                    })
                    .collect();
                let fields = json!({ "players": t.players(), "seats": seats, "draw": seq(&self.draw) });
                self.w.event("deal", fields);
            }
            Event::FixStep { seat, up, drew } => {
                let order = self.drawn(t);
                debug_assert_eq!(order.iter().fold(0, |m, &c| m | 1 << c), drew);
                self.fix_steps += 1;
                let fields = json!({ "seat": seat, "step": self.fix_steps, "up": list(up), "hand": list(t.hand(seat)),
                                     "drew": seq(&order) });
                self.w.event("fix", fields);
            }
            Event::Fixed { .. } => self.fix_steps = 0,
            Event::Starts { seat, card } => self.w.event("start", json!({ "seat": seat, "card": name(card) })),
            Event::Play {
                seat,
                cards,
                from,
                target,
            } => {
                let fields = json!({ "seat": seat, "cards": list(cards), "from": source_key(from), "on": target_name(target) });
                let fields = self.first_of_turn(t, fields);
                self.w.event("play", fields);
            }
            Event::Drew { seat, cards } => {
                let order = self.drawn(t);
                debug_assert_eq!(order.iter().fold(0, |m, &c| m | 1 << c), cards);
                self.w.event("draw", json!({ "seat": seat, "cards": seq(&order) }));
            }
            Event::AddOn { seat, cards } => self.w.event("add_on", json!({ "seat": seat, "cards": list(cards) })),
            Event::Reveal { seat, card, ok } => {
                self.drawn(t);
                let fields = self.first_of_turn(t, json!({ "seat": seat, "card": name(card), "ok": ok }));
                self.w.event("reveal", fields);
            }
            Event::FaceDown { seat, slot, card, ok } => {
                let fields = json!({ "seat": seat, "slot": slot, "card": name(card), "ok": ok });
                let fields = self.first_of_turn(t, fields);
                self.w.event("face_down", fields);
            }
            Event::Pickup { seat, cards } => {
                // The live pile bottom first, then a failed revealed or
                // face-down card.
                let mut order = live_before;
                let rest = cards & !order.iter().fold(0, |m: CardSet, &c| m | 1 << c);
                order.extend(cards_of(rest));
                let fields = self.first_of_turn(t, json!({ "seat": seat, "cards": seq(&order) }));
                self.w.event("pickup", fields);
            }
            Event::NineDraw { seat, card } => {
                // Drawn at random: its index in the discard pile before,
                // lowest card first.
                let before = t.discard() | 1 << card;
                let index = (before & ((1 << card) - 1)).count_ones();
                let fields = json!({ "seat": seat, "card": name(card), "index": index, "of": before.count_ones() });
                self.w.event("nine_draw", fields);
            }
            Event::Flip { seat, cause, cards } => {
                debug_assert_eq!(live_before.len(), usize::from(cards));
                let fields = json!({ "seat": seat, "cause": cause_key(cause), "cards": seq(&live_before) });
                self.w.event("flip", fields);
            }
            Event::ThreeDealt { to, card } => self.w.event("three_dealt", json!({ "to": to, "card": name(card) })),
            Event::ThreeTaken { seat, card } => {
                self.w.event("three_taken", json!({ "seat": seat, "card": card.map(name) }))
            }
            Event::NinesFlip { seat, cards, top } => {
                let fields = json!({ "seat": seat, "cards": cards, "top": name(top), "live": seq(&self.live) });
                self.w.event("nines_flip", fields);
            }
            Event::Reverse { seat } => self.w.event("reverse", json!({ "seat": seat })),
            Event::Skip { seat, turns, cause } => {
                let fields = json!({ "seat": seat, "turns": turns, "cause": skip_key(cause) });
                self.w.event("skip", fields);
            }
            Event::Finished { seat, place, how } => {
                self.w.event("finished", json!({ "seat": seat, "place": place, "how": out_key(how) }))
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
            Event::FaceDown { seat, card, ok, .. } => w.line(format_args!(
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
            Event::Skip { seat, turns, .. } => w.line(format_args!("  seat {seat} skips {turns} turn(s)")),
            Event::FixStep { .. } => {}
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
                json!({ "result": result, "repetition": repetition, "repeats": repetition.then(|| t.repeats()),
                        "places": places, "moves": t.moves() }),
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

/// The run line's `repetition_detector`: whether a game may end as a
/// stalemate by repetition (only when every seat's policy decides from
/// what it sees with no random number: not `random`, `rollout:K` or
/// `ismcts:N`), from which move, and what it compares: the state before
/// each move, from [`REPEAT_FROM`] moves on, with every state since the
/// last random draw of play (a 9's card, a 9s flip's shuffle); the first
/// seen again ends the game (`game_end`'s `repetition`, `repeats`).
pub fn run_notes(sim: &IbFlipSim) -> serde_json::Map<String, Value> {
    let runs = sim.policies.iter().all(|p| p.deterministic());
    let detector = json!({
        "runs": runs,
        "from_move": REPEAT_FROM,
        "since": "the last random draw of play: a 9's card, a 9s flip's shuffle",
        "compares": [
            "hands", "face_up", "face_down", "known", "draw_pile_size", "live_pile",
            "discard_pile", "in", "turn", "direction"
        ],
    });
    let mut notes = serde_json::Map::new();
    notes.insert("repetition_detector".into(), detector);
    notes
}
