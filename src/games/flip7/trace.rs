//! The play-by-play of `sim flip7 --trace`: an [`Observer`] that writes one
//! line per event of the very games the statistics are taken from, as text
//! or (`--trace-format json`) as JSON Lines. `docs/rules/flip7.md` gives
//! the JSON schema.

use serde_json::{Value, json};

use super::cards::{Card, FLIP_THREE, KINDS, name};
use super::rules::{Event, MAX_RESHUFFLES_PER_ROUND, Status, Table, Via};
use crate::engine::observe::{Observer, TraceWriter};
use crate::engine::show::plural;

/// Writes the events of each game to a [`TraceWriter`].
pub struct Trace<'a, 'w> {
    w: &'a mut TraceWriter<'w>,
}

impl<'a, 'w> Trace<'a, 'w> {
    /// A trace of the games to come into `w`.
    pub fn new(w: &'a mut TraceWriter<'w>) -> Trace<'a, 'w> {
        Trace { w }
    }

    fn line(&mut self, text: std::fmt::Arguments<'_>) {
        self.w.line(text);
    }
}

fn hand_text(t: &Table, s: usize) -> String {
    let h = t.hand(s);
    let mut parts: Vec<String> = (0..=12u8).filter(|&n| h.has(n)).map(|n| n.to_string()).collect();
    if h.times2 > 0 {
        parts.push(format!(
            "x2{}",
            if h.times2 > 1 {
                format!(" ({})", h.times2)
            } else {
                String::new()
            }
        ));
    }
    if h.plus > 0 {
        parts.push(format!("+{}", h.plus));
    }
    if h.second_chance {
        parts.push("Second Chance".into());
    }
    format!("[{}]", parts.join(" "))
}

/// Every card of a count per kind, by name, in kind order.
fn cards(counts: &[u8; KINDS]) -> Value {
    let names: Vec<String> = (0..KINDS)
        .flat_map(|k| std::iter::repeat_n(name(k as Card), usize::from(counts[k])))
        .collect();
    names.into()
}

fn outcome(status: Status) -> &'static str {
    match status {
        Status::Busted => "bust",
        Status::Stayed => "stayed",
        Status::Frozen => "frozen",
        Status::Flip7 => "Flip 7",
        Status::Active => "cut off",
    }
}

impl Trace<'_, '_> {
    /// One event as a JSON object (the text form's twin, field for field).
    fn json_event(&mut self, t: &Table, e: Event) {
        let w = &mut *self.w;
        match e {
            Event::RoundStart { round, dealer } => {
                if round == 0 {
                    // The shuffled deck: the random outcome of the game's
                    // start, in the order the cards will be drawn.
                    let deck: Vec<String> = t.draw_order().into_iter().map(name).collect();
                    w.event("game", json!({ "players": t.players(), "deck": deck }));
                }
                let mut fields = json!({ "round": round + 1, "dealer": dealer, "draw_pile": t.pile_len() });
                if t.rules().fresh_deck {
                    // Every round's deck, shuffled afresh, in draw order.
                    let deck: Vec<String> = t.draw_order().into_iter().map(name).collect();
                    fields["deck"] = json!(deck);
                }
                w.event("round", fields);
            }
            Event::Reshuffle { .. } => {
                // The discard pile shuffled, in the order it will be drawn
                // (the card this reshuffle was for is the first).
                let pile: Vec<String> = t.draw_order().into_iter().map(name).collect();
                w.event(
                    "reshuffle",
                    json!({ "draw_pile": pile, "reshuffles": t.reshuffles() }),
                )
            }
            Event::Exhausted { cycled } => w.event("exhausted", json!({ "cycled": cycled })),
            Event::Hit { seat } => w.event("hit", json!({ "seat": seat })),
            Event::Stay { seat } => w.event("stay", json!({ "seat": seat, "banked": t.hand(seat).banked() })),
            Event::Flip { seat, card, via } => {
                let (via, nth) = match via {
                    Via::Deal => ("deal", None),
                    Via::Hit => ("hit", None),
                    Via::FlipThree(k) => ("flip-three", Some(k)),
                };
                let mut f = json!({ "seat": seat, "card": name(card), "via": via });
                if let Some(k) = nth {
                    f["nth"] = k.into();
                }
                w.event("flip", f);
            }
            Event::Bust { seat } => w.event("bust", json!({ "seat": seat })),
            Event::SecondChanceUsed { seat, card } => {
                w.event("second_chance_used", json!({ "seat": seat, "duplicate": name(card) }))
            }
            Event::SecondChanceGiven { from, to } => {
                w.event("second_chance_given", json!({ "from": from, "to": to }))
            }
            Event::SecondChanceDiscarded { seat } => w.event("second_chance_discarded", json!({ "seat": seat })),
            Event::Assign { from, to, card } => {
                w.event("assign", json!({ "from": from, "to": to, "card": name(card) }))
            }
            Event::SetAside { seat, card } => w.event("set_aside", json!({ "seat": seat, "card": name(card) })),
            Event::Fizzle { seat, card } => w.event("fizzle", json!({ "seat": seat, "card": name(card) })),
            Event::Frozen { seat } => w.event("frozen", json!({ "seat": seat, "banked": t.hand(seat).banked() })),
            Event::FlipThreeStart { seat } => w.event("flip_three", json!({ "seat": seat })),
            Event::Flip7 { seat } => w.event("flip7", json!({ "seat": seat })),
            Event::Discard { seat, card } => w.event("discard", json!({ "seat": seat, "card": name(card) })),
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
            return self.json_event(t, e);
        }
        match e {
            Event::RoundStart { round, dealer } => {
                if round == 0 {
                    let g = self.w.game();
                    let players = plural(t.players() as u64, "player");
                    self.line(format_args!("game {g}: {players}"));
                }
                let left = t.pile_len();
                self.line(format_args!(
                    "  round {} (dealer seat {dealer}, {} in the draw pile)",
                    round + 1,
                    plural(left as u64, "card")
                ));
            }
            Event::Reshuffle { cards } => self.line(format_args!(
                "    discard pile reshuffled: {} in the draw pile",
                plural(cards as u64, "card")
            )),
            Event::Exhausted { cycled: false } => self.line(format_args!("    no card left to draw: the round ends")),
            Event::Exhausted { cycled: true } => self.line(format_args!(
                "    the same cards have cycled through {MAX_RESHUFFLES_PER_ROUND} reshuffles: the round ends (cycle guard)"
            )),
            Event::Hit { seat } => self.line(format_args!("    seat {seat} hits")),
            Event::Stay { seat } => {
                let b = t.hand(seat).banked();
                self.line(format_args!("    seat {seat} stays with {b}"));
            }
            Event::Flip { seat, card, via } => {
                let how = match via {
                    Via::Deal => "is dealt".to_string(),
                    Via::Hit => "flips".to_string(),
                    Via::FlipThree(k) => format!("flips ({k}/3)"),
                };
                let h = t.hand(seat);
                // The event comes before the card is resolved: show the row it joins.
                if h.numbers == 0 && h.plus == 0 && h.times2 == 0 && !h.second_chance {
                    self.line(format_args!("    seat {seat} {how} {}", name(card)));
                } else {
                    let row = hand_text(t, seat);
                    self.line(format_args!("    seat {seat} {how} {} onto {row}", name(card)));
                }
            }
            Event::Bust { seat } => self.line(format_args!("    seat {seat} busts")),
            Event::SecondChanceUsed { seat, card } => self.line(format_args!(
                "    seat {seat} discards the duplicate {card} with their Second Chance"
            )),
            Event::SecondChanceGiven { from, to } => self.line(format_args!(
                "    seat {from} passes the extra Second Chance to seat {to}"
            )),
            Event::SecondChanceDiscarded { seat } => self.line(format_args!(
                "    seat {seat} discards the extra Second Chance (nobody can take it)"
            )),
            Event::Assign { from, to, card } => {
                self.line(format_args!("    seat {from} gives {} to seat {to}", name(card)))
            }
            Event::SetAside { seat, card } => {
                self.line(format_args!("    seat {seat} sets {} aside", name(card)))
            }
            Event::Fizzle { seat, card } => self.line(format_args!(
                "    seat {seat} is out of the round: {} discarded unused",
                name(card)
            )),
            Event::Frozen { seat } => {
                let b = t.hand(seat).banked();
                self.line(format_args!("    seat {seat} is frozen with {b}"));
            }
            Event::FlipThreeStart { seat } => {
                self.line(format_args!("    seat {seat} resolves {}", name(FLIP_THREE)))
            }
            Event::Flip7 { seat } => self.line(format_args!("    seat {seat} makes a Flip 7!")),
            // Not in the readable trace (a Flip Three's own card leaving is
            // implied); the JSON trace has it.
            Event::Discard { .. } => {}
        }
    }

    fn round_end(&mut self, t: &Table) {
        let n = t.players();
        if self.w.json() {
            let seats: Vec<Value> = (0..n)
                .map(|s| {
                    let h = t.hand(s);
                    let numbers: Vec<u8> = (0..=12u8).filter(|&k| h.has(k)).collect();
                    json!({
                        "seat": s,
                        "numbers": numbers,
                        "x2": h.times2,
                        "plus": h.plus,
                        "second_chance": h.second_chance,
                        "cards": h.front(),
                        "outcome": outcome(h.status),
                        "score": h.score(),
                        "total": t.total(s),
                    })
                })
                .collect();
            let round = t.round() + 1;
            let discarded = cards(t.in_play_counts());
            self.w.event(
                "round_end",
                json!({ "round": round, "seats": seats, "discarded": discarded }),
            );
            return;
        }
        let outcome = |s: usize| outcome(t.hand(s).status);
        let scores: Vec<String> = (0..n)
            .map(|s| {
                let h = hand_text(t, s);
                format!(
                    "seat {s} {h} {}: {} -> total {}",
                    outcome(s),
                    t.hand(s).score(),
                    t.total(s)
                )
            })
            .collect();
        for line in scores {
            self.line(format_args!("    {line}"));
        }
    }

    fn game_end(&mut self, t: &Table, winner: Option<usize>) {
        let g = self.w.game();
        let rounds = t.round();
        if self.w.json() {
            let totals: Vec<u32> = (0..t.players()).map(|s| t.total(s)).collect();
            self.w.event(
                "game_end",
                json!({ "winner": winner, "rounds": rounds, "totals": totals }),
            );
            self.w.next_game();
            return;
        }
        match winner {
            Some(w) => {
                let total = t.total(w);
                self.line(format_args!(
                    "game {g}: seat {w} wins with {total} after {}",
                    plural(rounds.into(), "round")
                ))
            }
            None => self.line(format_args!(
                "game {g}: no unique winner after {}",
                plural(rounds.into(), "round")
            )),
        }
        self.w.next_game();
    }
}
