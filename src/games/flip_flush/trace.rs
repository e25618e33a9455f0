//! The play-by-play of `sim flip-flush --trace`: an [`Observer`] that writes
//! one line per event of the very games the statistics are taken from, as
//! text or (`--trace-format json`) as JSON Lines. `docs/rules/flip-flush.md`
//! gives the JSON schema.
//!
//! Cells are numbered row by row: `0 1 2 / 3 4 5 / 6 7 8`. The grid is
//! drawn after every flip: face-up cards by name, `##` face-down, `..` empty.

use serde_json::{Value, json};

use super::cards::{ALL, CardSet, Cell, cards_of, name};
use super::Settled;
use super::rules::{End, Event, Fault, Table};
use crate::engine::observe::{Observer, TraceWriter};
use crate::engine::show::plural;

/// Writes the events of each game to a [`TraceWriter`].
pub struct Trace<'a, 'w> {
    w: &'a mut TraceWriter<'w>,
    /// The pot as the trace last saw it (gambling).
    pot: u32,
    /// The number of the first game after the batch, while games are
    /// played on.
    after: u64,
}

impl<'a, 'w> Trace<'a, 'w> {
    /// A trace of the games to come into `w`.
    pub fn new(w: &'a mut TraceWriter<'w>) -> Trace<'a, 'w> {
        Trace { w, pot: 0, after: 0 }
    }

    fn line(&mut self, text: std::fmt::Arguments<'_>) {
        self.w.line(text);
    }

    /// The `k`-th game played on after the batch's last game (gambling),
    /// with seed `seed`, is about to be dealt: it is numbered as that last
    /// game and marked as played on (`played_on` in JSON, `played on k`
    /// in text).
    pub fn begin_played_on(&mut self, k: u32, seed: u64) {
        if self.w.played_on().is_none() {
            self.after = self.w.game();
        }
        self.w.start_at(self.after.saturating_sub(1));
        self.w.set_played_on(Some(k));
        self.w.game_seed(seed);
    }

    /// The game played on is over: the games that follow are counted
    /// games again, numbered on from the batch's last one.
    pub fn end_played_on(&mut self) {
        self.w.set_played_on(None);
        self.w.start_at(self.after);
    }

    /// `game 12`, or `game 12, played on 3` for a game played on.
    fn label(&self) -> String {
        match self.w.played_on() {
            Some(k) => format!("game {}, played on {k}", self.w.game()),
            None => format!("game {}", self.w.game()),
        }
    }

    /// How the pot left by the batch's last game was settled (gambling),
    /// after the games played on: one line, or one `play_on` event,
    /// numbered as that last game.
    pub fn play_on(&mut self, s: &Settled) {
        let after = self.w.game();
        let g = after.saturating_sub(1);
        if self.w.json() {
            self.w.start_at(g);
            self.w.event(
                "play_on",
                json!({ "pot": s.pot, "games": s.games, "winner": s.winner, "returned": s.winner.is_none(), "net": s.net }),
            );
            self.w.start_at(after);
            return;
        }
        let net: Vec<String> = s.net.iter().enumerate().map(|(i, v)| format!("seat {i} {v:+}")).collect();
        let how = match s.winner {
            Some(w) => format!("until seat {w} won it"),
            None => "and nobody won it, so it went back to those who paid it in".to_string(),
        };
        self.line(format_args!(
            "after game {g}, the last of its batch: its pot of {} stayed on the table, so play went on for {} (played on above: not counted; their stakes are) {how}; stakes: {}",
            s.pot,
            plural(s.games.into(), "game"),
            net.join(", ")
        ));
    }
}

fn fault_text(f: Fault) -> &'static str {
    match f {
        Fault::WrongCall => "called a Flush that did not come",
        Fault::MissedFlush => "made a Flush without calling it",
    }
}

fn fault_key(f: Fault) -> &'static str {
    match f {
        Fault::WrongCall => "wrong_call",
        Fault::MissedFlush => "missed_flush",
    }
}

/// The cards of a set by name, lowest first.
fn names(set: CardSet) -> Value {
    cards_of(set).map(name).collect::<Vec<String>>().into()
}

impl Trace<'_, '_> {
    /// One event as a JSON object (the text form's twin, field for field).
    fn json_event(&mut self, t: &Table, e: Event) {
        let w = &mut *self.w;
        match e {
            Event::Dealt => {
                self.pot = t.pot();
                let hands: Vec<Value> = (0..t.players()).map(|s| names(t.hand(s))).collect();
                let dealt = (0..t.players()).fold(0, |acc: CardSet, s| acc | t.hand(s));
                let mut f = json!({ "players": t.players(), "hands": hands, "undealt": names(ALL & !dealt) });
                if t.rules().gambling {
                    f["pot"] = t.pot().into();
                }
                w.event("deal", f);
            }
            Event::Place {
                seat,
                card,
                cell,
                covered,
                remembered,
            } => {
                let (covered, face) = match covered {
                    Cell::Empty => (Value::Null, Value::Null),
                    Cell::Down(c) => (name(c).into(), "down".into()),
                    Cell::Up(c) => (name(c).into(), "up".into()),
                };
                w.event(
                    "place",
                    json!({
                        "seat": seat,
                        "card": name(card),
                        "cell": cell,
                        "covered": covered,
                        "covered_face": face,
                        "remembered": remembered,
                    }),
                );
            }
            Event::Flip {
                seat,
                cell,
                card,
                call,
                flush,
            } => w.event(
                "flip",
                json!({ "seat": seat, "cell": cell, "card": name(card), "call": call, "flush": flush }),
            ),
            Event::Pass { seat } => w.event("pass", json!({ "seat": seat })),
            Event::KnockedOut { seat, fault } => {
                w.event("knocked_out", json!({ "seat": seat, "fault": fault_key(fault) }))
            }
            Event::Pays { seat, fault } => {
                self.pot = t.pot();
                w.event("pays", json!({ "seat": seat, "fault": fault_key(fault), "pot": t.pot() }))
            }
        }
    }

    fn json_end(&mut self, t: &Table, end: End) {
        let (result, winner) = match end {
            End::Call(w) => ("call", Some(w)),
            End::LastStanding(w) => ("last_standing", Some(w)),
            End::Tie => ("tie", None),
        };
        let tied: Vec<usize> = match end {
            End::Tie => (0..t.players()).filter(|&s| t.is_alive(s)).collect(),
            _ => Vec::new(),
        };
        let mut f = json!({ "result": result, "winner": winner, "tied": tied, "turns": t.turn_count() });
        if t.rules().gambling {
            // The pot won (or, after a tie, the pot left for the next game)
            // and each seat's net stakes this game.
            f["pot"] = if winner.is_some() { self.pot } else { t.pot() }.into();
            f["net"] = (0..t.players()).map(|s| t.net(s)).collect::<Vec<i32>>().into();
        }
        self.w.event("game_end", f);
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
            Event::Dealt => {
                let g = self.label();
                self.pot = t.pot();
                if t.rules().gambling {
                    let pot = t.pot();
                    self.line(format_args!(
                        "{g}: {} players, pot {pot} after the antes",
                        t.players()
                    ));
                } else {
                    self.line(format_args!("{g}: {} players", t.players()));
                }
                for s in 0..t.players() {
                    let hand: Vec<String> = cards_of(t.hand(s)).map(name).collect();
                    self.line(format_args!("  seat {s} holds {}", hand.join(" ")));
                }
            }
            Event::Place {
                seat,
                card,
                cell,
                covered,
                remembered,
            } => {
                let over = match covered {
                    Cell::Empty => String::new(),
                    Cell::Down(c) => format!(", removing face-down {}", name(c)),
                    Cell::Up(c) => format!(", removing face-up {}", name(c)),
                };
                let memo = if remembered { "" } else { " (and forgets it)" };
                self.line(format_args!(
                    "  seat {seat} places {} on cell {cell}{over}{memo}",
                    name(card)
                ));
            }
            Event::Flip {
                seat,
                cell,
                card,
                call,
                flush,
            } => {
                let said = if call { "calls a Flush and flips" } else { "flips" };
                let result = if flush { ": Flush" } else { "" };
                let grid = t.grid().picture();
                self.line(format_args!(
                    "  seat {seat} {said} cell {cell}: {}{result}   [{grid}]",
                    name(card)
                ));
            }
            Event::Pass { seat } => self.line(format_args!("  seat {seat} passes")),
            Event::KnockedOut { seat, fault } => self.line(format_args!(
                "  seat {seat} {} and is knocked out",
                fault_text(fault)
            )),
            Event::Pays { seat, fault } => {
                self.pot = t.pot();
                self.line(format_args!(
                    "  seat {seat} {} and pays a stake: pot {}",
                    fault_text(fault),
                    t.pot()
                ))
            }
        }
    }

    fn game_end(&mut self, t: &Table, end: End) {
        if self.w.json() {
            self.json_end(t, end);
            self.w.next_game();
            return;
        }
        let g = self.label();
        let turns = plural(t.turn_count().into(), "turn");
        let gambling = t.rules().gambling;
        match end {
            End::Call(w) if gambling => {
                let pot = self.pot;
                self.line(format_args!(
                    "{g}: seat {w} wins by a correct call after {turns} and takes the pot of {pot}"
                ))
            }
            End::Call(w) => self.line(format_args!(
                "{g}: seat {w} wins by a correct call after {turns}"
            )),
            End::LastStanding(w) => self.line(format_args!(
                "{g}: seat {w} wins as the last player in after {turns}"
            )),
            End::Tie => {
                let tied: Vec<String> = (0..t.players())
                    .filter(|&s| t.is_alive(s))
                    .map(|s| s.to_string())
                    .collect();
                let pot = if gambling {
                    format!("; the pot of {} stays for the next game", t.pot())
                } else {
                    String::new()
                };
                self.line(format_args!(
                    "{g}: tie between seats {} after {turns}{pot}",
                    tied.join(", ")
                ))
            }
        }
        self.w.next_game();
    }
}
