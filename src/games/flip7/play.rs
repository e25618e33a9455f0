//! `sim play flip7`: a person at one seat, the bots at the others.
//!
//! Every card of Flip 7 is played face up, so the table is drawn whole
//! (totals, the cards in front of each player, their state, the draw and
//! discard piles' sizes) and the narration is the readable trace's, line
//! by line. Only the order of the draw pile is hidden, and neither the
//! drawing nor the narration reads it. The person decides Hit or Stay,
//! whom a drawn Freeze or Flip Three goes to, and whom an extra Second
//! Chance is passed to.

use std::cell::RefCell;

use serde_json::json;

use super::Flip7;
use super::cards::{Card, name};
use super::policies::{Policy, Seats};
use super::rules::{Chooser, Status, TARGET, Table};
use super::trace::Trace;
use crate::engine::console::{ByLine, Choice, Session, seats_painted};
use crate::engine::observe::{TraceFormat, TraceWriter};
use crate::engine::rng::{seeded_game_rng, splitmix64};

/// The person's seat asked, every other seat played by its bot.
struct Person<'s> {
    session: &'s RefCell<Session<Flip7>>,
    me: usize,
    names: Vec<String>,
    bots: Seats,
}

impl Person<'_> {
    fn ask(&self, t: &Table, question: &str, when: &str, stand_in: serde_json::Value, choices: &[Choice]) -> usize {
        let drawn = {
            let s = self.session.borrow();
            drawing(t, self.me, &self.names, &s.console)
        };
        self.session.borrow_mut().ask(&drawn, question, when, stand_in, choices)
    }
}

impl Chooser for Person<'_> {
    fn hit(&mut self, t: &Table, seat: usize) -> bool {
        if seat != self.me {
            return self.bots.hit(t, seat);
        }
        let banked = t.hand(seat).banked();
        let choices = [
            Choice::new("h", "hit", "hit"),
            Choice::new("s", format!("stay with {banked}"), "stay"),
        ];
        let when = format!("round {}, hit or stay holding {}", t.round() + 1, cards_text(t, seat));
        let stand_in = json!({ "event": "stay", "seat": seat, "banked": banked });
        self.ask(t, "Hit or stay?", &when, stand_in, &choices) == 0
    }

    fn target(&mut self, t: &Table, chooser: usize, card: Card) -> usize {
        if chooser != self.me {
            return self.bots.target(t, chooser, card);
        }
        let to: Vec<usize> = (0..t.players()).filter(|&s| t.is_active(s)).collect();
        let word = name(card);
        let choices: Vec<Choice> = to
            .iter()
            .map(|&s| Choice::new(s.to_string(), whom(s, self.me), format!("seat:{s}")))
            .collect();
        let when = format!("round {}, whom to give {word}", t.round() + 1);
        let stand_in = json!({ "event": "assign", "from": chooser, "to": to[0], "card": word });
        let k = self.ask(t, &format!("Whom do you give the {word}?"), &when, stand_in, &choices);
        to[k]
    }

    fn second_chance_to(&mut self, t: &Table, holder: usize) -> Option<usize> {
        if holder != self.me {
            return self.bots.second_chance_to(t, holder);
        }
        let to: Vec<usize> = (0..t.players())
            .filter(|&s| s != holder && t.is_active(s) && !t.hand(s).second_chance)
            .collect();
        if to.is_empty() {
            return None;
        }
        let choices: Vec<Choice> = to
            .iter()
            .map(|&s| Choice::new(s.to_string(), whom(s, self.me), format!("seat:{s}")))
            .collect();
        let when = format!("round {}, whom to pass the extra Second Chance", t.round() + 1);
        let stand_in = json!({ "event": "second_chance_given", "from": holder, "to": to[0] });
        let k = self.ask(t, "Whom do you pass your extra Second Chance?", &when, stand_in, &choices);
        Some(to[k])
    }
}

/// A seat as a choice of target.
fn whom(s: usize, me: usize) -> String {
    if s == me { "yourself".into() } else { format!("seat {s}") }
}

/// The cards in front of `seat`: numbers, then x2, +N and Second Chance.
fn cards_text(t: &Table, seat: usize) -> String {
    let h = t.hand(seat);
    let mut parts: Vec<String> = (0..=12u8).filter(|&n| h.has(n)).map(|n| n.to_string()).collect();
    for _ in 0..h.times2 {
        parts.push("x2".into());
    }
    if h.plus > 0 {
        parts.push(format!("+{}", h.plus));
    }
    if h.second_chance {
        parts.push("2nd-chance".into());
    }
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join(" ")
    }
}

/// The table as seat `me` sees it (everything but the draw pile's order),
/// at most 80 columns wide.
fn drawing(t: &Table, me: usize, names: &[String], c: &crate::engine::console::Console) -> String {
    let discards: u32 = t.discard_counts().iter().map(|&k| u32::from(k)).sum();
    let dot = if c.symbols() { " · " } else { " | " };
    let head = [
        format!("round {}", t.round() + 1),
        format!("dealer seat {}", t.dealer()),
        format!("draw pile {}", t.pile_len()),
        format!("discard pile {discards}"),
        format!("first to {TARGET} wins"),
    ]
    .join(dot);
    let mut out = format!("\n{}\n", c.paint("1", &head));
    for (s, name) in names.iter().enumerate().take(t.players()) {
        let h = t.hand(s);
        let state = match h.status {
            Status::Active => format!("in, {} so far", h.banked()),
            Status::Stayed => format!("stayed with {}", h.banked()),
            Status::Frozen => format!("frozen with {}", h.banked()),
            Status::Busted => "busted".into(),
            Status::Flip7 => format!("Flip 7! {}", h.score()),
        };
        let mark = if s == me { ">" } else { " " };
        let label = format!("seat {s}");
        let name: String = name.chars().take(12).collect();
        let row = format!(
            "{mark} {label:<7} {name:<12} {:>4}   {:<26} {state}",
            t.total(s),
            cards_text(t, s)
        );
        out.push_str(&c.seat(s, me, &row));
        out.push('\n');
    }
    out
}

/// Plays one game of `sim play flip7` (see [`crate::engine::game::Game::play`]).
pub fn play(
    session: &RefCell<Session<Flip7>>,
    sim: &super::Flip7Sim,
    seed: u64,
) -> Result<String, String> {
    let me = session.borrow().seat();
    let names = session.borrow().names().to_vec();
    let policies: Vec<Policy> = sim.policies.clone();
    let mut bots = Seats::new(policies.clone());
    if policies.iter().any(Policy::is_random) {
        // A stream of its own: the deal is the seed's whatever the bots.
        bots.seed(splitmix64(seed ^ 0x0B07_5EED));
    }
    let mut rng = seeded_game_rng(seed);
    let mut table = Table::new(sim.rules);
    table.new_game(&mut rng);
    if policies.iter().any(Policy::draws_per_game) {
        bots.draw_game_values(&mut rng);
    }
    let mut sink = session.borrow().trace_sink();
    let mut json = TraceWriter::with_format(&mut sink, TraceFormat::Json, 0);
    json.game_seed(seed);
    // The readable trace's lines, told to the person one by one (the
    // game's own header left out: the table and the closing line say it).
    let mut narration = ByLine::new(|text: &str| {
        if text.starts_with("game ") {
            return;
        }
        let s = session.borrow();
        let (painted, bot) = seats_painted(&s.console, text, me);
        s.narrate(&painted, bot);
    });
    let mut text = TraceWriter::with_format(&mut narration, TraceFormat::Text, 0);
    let mut person = Person {
        session,
        me,
        names: names.clone(),
        bots,
    };
    let winner = {
        let mut observers = (Trace::new(&mut json), Trace::new(&mut text));
        table.play_game(&mut person, &mut observers, &mut rng)
    };
    json.finish().map_err(|e| format!("the trace: {e}"))?;
    let rounds = crate::engine::show::plural(table.round().into(), "round");
    let totals: Vec<String> = (0..table.players())
        .map(|s| format!("seat {s} {}", table.total(s)))
        .collect();
    let line = match winner {
        Some(w) if w == me => format!("You win with {} after {rounds}!", table.total(w)),
        Some(w) => format!("seat {w} ({}) wins with {} after {rounds}.", names[w], table.total(w)),
        None => format!("No unique winner after {rounds}: a tie at the top."),
    };
    let c = &session.borrow().console;
    Ok(format!(
        "\n{}\n{}",
        c.paint("1", &line),
        c.paint("2", &format!("final totals: {}", totals.join(", ")))
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::console::Console;
    use crate::engine::observe::Silent;

    /// Stays at its first decision and keeps the table drawn for it; the
    /// other seat plays stay-at-20.
    struct First {
        drawn: Option<(String, usize)>,
        bots: Seats,
    }

    impl Chooser for First {
        fn hit(&mut self, t: &Table, seat: usize) -> bool {
            if seat != 0 {
                return self.bots.hit(t, seat);
            }
            let c = Console::scripted(std::io::Cursor::new(""));
            let names = ["you".to_string(), "stay-at-20".to_string()];
            self.drawn.get_or_insert_with(|| (drawing(t, 0, &names, &c), t.pile_len()));
            false
        }
        fn target(&mut self, t: &Table, chooser: usize, card: Card) -> usize {
            self.bots.target(t, chooser, card)
        }
        fn second_chance_to(&mut self, t: &Table, holder: usize) -> Option<usize> {
            self.bots.second_chance_to(t, holder)
        }
    }

    /// The table drawn at seat 0's first decision of the game of `seed`,
    /// with the draw pile's cards below its top `keep` put in reverse
    /// order when `reverse`; and how many cards the pile then held.
    fn first_drawing(seed: u64, keep: usize, reverse: bool) -> (String, usize) {
        let sim = super::super::Flip7Sim::new(2, &[Policy::stay_at(20)], false, Default::default()).unwrap();
        let mut table = Table::new(sim.rules);
        let mut rng = seeded_game_rng(seed);
        table.new_game(&mut rng);
        if reverse {
            let mut order = table.draw_order();
            order[keep..].reverse();
            table.set_draw_order(&order).unwrap();
        }
        let mut first = First {
            drawn: None,
            bots: Seats::new(vec![Policy::stay_at(20); 2]),
        };
        let full = table.pile_len();
        table.play_game(&mut first, &mut Silent, &mut rng);
        let (text, left) = first.drawn.expect("seat 0 decides");
        (text, full - left)
    }

    /// The information test: what the person is shown does not depend on
    /// the order of the cards still to be drawn, the one thing at a Flip 7
    /// table no seat can see (every card played lies face up).
    #[test]
    fn the_drawing_does_not_depend_on_the_cards_still_to_be_drawn() {
        for seed in 1..=20 {
            let (plain, drawn) = first_drawing(seed, 12, false);
            assert!(drawn < 12, "seed {seed}: {drawn} cards drawn before the first decision");
            let (reversed, _) = first_drawing(seed, 12, true);
            assert_eq!(plain, reversed, "seed {seed}");
            assert!(plain.contains("> seat 0  you "), "{plain}");
            assert!(plain.lines().all(|l| l.chars().count() <= 80), "{plain}");
        }
    }
}
