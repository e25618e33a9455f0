//! The play-by-play of `sim flip-flush --trace`: an [`Observer`] that writes
//! one line per event of the very games the statistics are taken from.
//!
//! Cells are numbered row by row: `0 1 2 / 3 4 5 / 6 7 8`. The grid is
//! drawn after every flip: face-up cards by name, `##` face-down, `..` empty.

use super::cards::{Cell, cards_of, name};
use super::rules::{End, Event, Fault, Table};
use crate::engine::observe::{Observer, TraceWriter};

/// Writes the events of each game to a [`TraceWriter`].
pub struct Trace<'a, 'w> {
    w: &'a mut TraceWriter<'w>,
    /// The pot as the trace last saw it (gambling).
    pot: u32,
}

impl<'a, 'w> Trace<'a, 'w> {
    /// A trace of the games to come into `w`.
    pub fn new(w: &'a mut TraceWriter<'w>) -> Trace<'a, 'w> {
        Trace { w, pot: 0 }
    }

    fn line(&mut self, text: std::fmt::Arguments<'_>) {
        self.w.line(text);
    }
}

fn fault_text(f: Fault) -> &'static str {
    match f {
        Fault::WrongCall => "called a Flush that did not come",
        Fault::MissedFlush => "made a Flush without calling it",
    }
}

impl Observer<Table> for Trace<'_, '_> {
    const EVENTS: bool = true;

    fn event(&mut self, t: &Table, e: Event) {
        match e {
            Event::Dealt => {
                let g = self.w.game();
                self.pot = t.pot();
                if t.rules().gambling {
                    let pot = t.pot();
                    self.line(format_args!(
                        "game {g}: {} players, pot {pot} after the antes",
                        t.players()
                    ));
                } else {
                    self.line(format_args!("game {g}: {} players", t.players()));
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
        let g = self.w.game();
        let turns = t.turn_count();
        let gambling = t.rules().gambling;
        match end {
            End::Call(w) if gambling => {
                let pot = self.pot;
                self.line(format_args!(
                    "game {g}: seat {w} wins by a correct call after {turns} turns and takes the pot of {pot}"
                ))
            }
            End::Call(w) => self.line(format_args!(
                "game {g}: seat {w} wins by a correct call after {turns} turns"
            )),
            End::LastStanding(w) => self.line(format_args!(
                "game {g}: seat {w} wins as the last player in after {turns} turns"
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
                    "game {g}: tie between seats {} after {turns} turns{pot}",
                    tied.join(", ")
                ))
            }
        }
        self.w.next_game();
    }
}
