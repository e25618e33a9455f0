//! `sim play flip-flush`: a person at one seat, the bots at the others.
//!
//! The table is drawn from the person's [`View`] alone: the grid (face-up
//! cards, face-down cells, who placed each card, and the face-down cards
//! the person placed and remembers), how many cards each player holds and
//! who is still in, the person's own hand, how many cards Places removed
//! and how many lie set aside, the pot when gambling. The narration is
//! written here, not taken from the readable trace (which names every
//! card): another player's Place says only where a card went, and a
//! face-down card removed by a Place is named only when the person has
//! seen it (placed it and remembers it).
//!
//! Every turn is one decision, typed as a key: a card and a cell place the
//! card face-down (`7h4`), `f` and a cell flips that cell (`f4`), `c` and
//! a cell calls a Flush and flips it (`c4`). A pass is never asked: the
//! rules pass for a player who can neither Place nor Flip.

use std::cell::RefCell;

use serde_json::{Value, json};

use super::FlipFlush;
use super::cards::{CELLS, Card, CardSet, DECK, cards_of, name, suit, suit_set};
use super::policies::Seats;
use super::rules::{Chooser, End, Event, Fault, HAND_SIZE, MEMORY_ONE, Move, Observer, Table, View};
use super::trace::Trace;
use crate::engine::console::{Choice, Console, Session, seats_painted};
use crate::engine::observe::{TraceFormat, TraceWriter};
use crate::engine::rng::{Draw, seeded_game_rng};
use crate::engine::show::plural;

/// The person's seat asked, every other seat played by its bot.
struct Person<'s> {
    session: &'s RefCell<Session<FlipFlush>>,
    me: usize,
    names: Vec<String>,
    bots: Seats,
}

impl Chooser for Person<'_> {
    fn choose<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Move {
        if v.seat() != self.me {
            return self.bots.choose(v, d);
        }
        let (moves, choices): (Vec<Move>, Vec<Choice>) = menu(v).into_iter().unzip();
        let drawn = {
            let s = self.session.borrow();
            drawing(v, &self.names, &s.console)
        };
        let when = format!("move {}, holding {}", v.history_len() + 1, hand_text(v.hand(), None));
        let k = self
            .session
            .borrow_mut()
            .ask(&drawn, &question(v), &when, stand_in(v), &choices);
        moves[k]
    }
}

/// A card as the person types it: `7h`, `10s`, `ac`.
fn key_of(c: Card) -> String {
    name(c).to_lowercase()
}

/// A card as drawn: `7H`, or `7♥` where the console draws symbols.
fn shown(c: Card, console: Option<&Console>) -> String {
    let text = name(c);
    match console {
        Some(k) if k.symbols() => {
            let (rank, _) = text.split_at(text.len() - 1);
            format!("{rank}{}", ['♣', '♦', '♥', '♠'][suit(c)])
        }
        _ => text,
    }
}

/// The cards of `set`, lowest first, or `none`.
fn hand_text(set: CardSet, console: Option<&Console>) -> String {
    let cards: Vec<String> = cards_of(set).map(|c| shown(c, console)).collect();
    if cards.is_empty() { "none".into() } else { cards.join(" ") }
}

/// Every legal move of the person, with its key: each face-down cell
/// flipped (`f4`) and called (`c4`), then each card of the hand on each
/// cell (`7h4`). A Place is advised as `sim advise` names it, by the
/// lowest card of its suit: only suits matter to the rules.
fn menu(v: &View<'_>) -> Vec<(Move, Choice)> {
    let mut out = Vec::new();
    for cell in (0..CELLS).filter(|&c| v.down() >> c & 1 != 0) {
        out.push((
            Move::Flip { cell, call: false },
            Choice::new(format!("f{cell}"), format!("flip cell {cell}"), format!("flip:{cell}")),
        ));
        out.push((
            Move::Flip { cell, call: true },
            Choice::new(format!("c{cell}"), format!("call and flip cell {cell}"), format!("call:{cell}")),
        ));
    }
    for card in cards_of(v.hand()) {
        let lowest = (v.hand() & suit_set(suit(card))).trailing_zeros() as Card;
        for cell in 0..CELLS {
            out.push((
                Move::Place { card, cell },
                Choice::new(
                    format!("{}{cell}", key_of(card)),
                    format!("{} on cell {cell}", name(card)),
                    format!("place:{}:{cell}", name(lowest)),
                ),
            ));
        }
    }
    out
}

/// The question, with the keys explained by moves of this turn.
fn question(v: &View<'_>) -> String {
    let flip = (0..CELLS).find(|&c| v.down() >> c & 1 != 0);
    let card = cards_of(v.hand()).next();
    match (card, flip) {
        (Some(c), Some(f)) => format!(
            "Your move: type a card and a cell to place it face-down ({}4: {} on cell 4),\n\
             f and a cell to flip it (f{f}), c and a cell to call a Flush and flip (c{f}).",
            key_of(c),
            name(c)
        ),
        (Some(c), None) => format!(
            "Your move: nothing lies face-down, so place a card: type it and a cell\n\
             ({}4 puts {} face-down on cell 4).",
            key_of(c),
            name(c)
        ),
        (None, _) => format!(
            "Your move: your hand is empty, so flip: f and a cell flips it (f{0}),\n\
             c and a cell calls a Flush and flips it (c{0}).",
            flip.unwrap_or(0)
        ),
    }
}

/// The JSON event of a move at this decision, for the hint: a Place of
/// the lowest card held on cell 0, or a Flip of the first face-down cell.
fn stand_in(v: &View<'_>) -> Value {
    match cards_of(v.hand()).next() {
        Some(c) => json!({
            "event": "place", "seat": v.seat(), "card": name(c), "cell": 0,
            "covered": null, "covered_face": null, "remembered": true,
        }),
        None => json!({
            "event": "flip", "seat": v.seat(), "cell": v.down().trailing_zeros(), "call": false,
        }),
    }
}

/// Cards Places removed from the grid so far (public: every Place is seen).
fn removed(v: &View<'_>) -> usize {
    let places = (0..v.history_len()).filter(|&i| !v.history(i).flip).count();
    places - (v.up() | v.down()).count_ones() as usize
}

/// One cell as seat `v.seat()` sees it: `7H by 1`, `## by 0`, `(9S) by 0`
/// (face-down, placed and remembered by the viewer), `..` (empty).
fn cell_text(v: &View<'_>, i: usize, c: &Console) -> String {
    let card = match (v.face_up(i), v.known_card(i), v.placer(i)) {
        (Some(k), _, _) => shown(k, Some(c)),
        (None, Some(k), _) => format!("({})", shown(k, Some(c))),
        (None, None, Some(_)) => "##".into(),
        _ => return format!("[{i}] {:<10}", ".."),
    };
    let by = v.placer(i).map_or(String::new(), |p| format!(" by {p}"));
    format!("[{i}] {:<10}", format!("{card}{by}"))
}

/// The table as seat `v.seat()` sees it, from its view alone, at most 80
/// columns wide.
fn drawing(v: &View<'_>, names: &[String], c: &Console) -> String {
    let me = v.seat();
    let n = v.players();
    let held: usize = (0..n).map(|s| v.hand_len(s) as usize).sum();
    let aside = DECK - HAND_SIZE * n;
    let dot = if c.symbols() { " · " } else { " | " };
    let mut head = vec![
        format!("move {}", v.history_len() + 1),
        format!("{} in hands", plural(held as u64, "card")),
        format!("{} removed", removed(v)),
        format!("{aside} set aside"),
    ];
    if v.gambling() {
        head.push(format!("pot {}", v.pot()));
    }
    if v.memory() != MEMORY_ONE {
        head.push(format!("memory {}", super::probability_label(v.memory())));
    }
    let mut out = format!("\n{}\n", c.paint("1", &head.join(dot)));
    for (s, who) in names.iter().enumerate().take(n) {
        let state = match v.alive_mask() >> s & 1 != 0 {
            true => format!("in, {}", plural(v.hand_len(s).into(), "card")),
            false => "knocked out".into(),
        };
        let mark = if s == me { ">" } else { " " };
        let who: String = who.chars().take(16).collect();
        let row = format!("{mark} seat {s}  {who:<16} {state}");
        out.push_str(&c.seat(s, me, &row));
        out.push('\n');
    }
    for row in 0..3 {
        let cells: Vec<String> = (0..3).map(|k| cell_text(v, 3 * row + k, c)).collect();
        out.push_str(&format!("  {}\n", cells.join("   ").trim_end()));
    }
    out.push_str(&c.paint(
        "2",
        "  (## face-down; (card) face-down, yours and remembered; by N: placed by seat N)",
    ));
    out.push('\n');
    out.push_str(&format!("your hand: {}\n", hand_text(v.hand(), Some(c))));
    out
}

/// Why a player is knocked out or pays, in words.
fn fault_text(f: Fault) -> &'static str {
    match f {
        Fault::WrongCall => "called a Flush that did not come",
        Fault::MissedFlush => "made a Flush without calling it",
    }
}

/// What seat `me` is told of event `e` (the table `t` as it stands after
/// it), read through `me`'s view: nothing `me` cannot know.
fn told(t: &Table, me: usize, e: Event) -> Vec<String> {
    let v = t.view(me);
    match e {
        Event::Dealt => {
            let pot = if v.gambling() { format!("; pot {} after the antes", v.pot()) } else { String::new() };
            vec![
                format!(
                    "{HAND_SIZE} cards dealt to each of {} players, {} set aside{pot}",
                    v.players(),
                    DECK - HAND_SIZE * v.players()
                ),
                format!("you hold {}", hand_text(v.hand(), None)),
            ]
        }
        Event::Place {
            seat,
            card,
            cell,
            covered,
            remembered,
        } => {
            let what = if seat == me { name(card) } else { "a card".into() };
            let over = match covered {
                super::cards::Cell::Empty => String::new(),
                super::cards::Cell::Up(k) => format!(", removing face-up {}", name(k)),
                super::cards::Cell::Down(k) if v.unseen() >> k & 1 == 0 => {
                    format!(", removing face-down {}", name(k))
                }
                super::cards::Cell::Down(_) => ", removing a face-down card".into(),
            };
            let memo = if seat == me && !remembered { " (you will not remember it)" } else { "" };
            vec![format!("  seat {seat} places {what} on cell {cell}{over}{memo}")]
        }
        Event::Flip {
            seat,
            cell,
            card,
            call,
            flush,
        } => {
            let said = if call { "calls a Flush and flips" } else { "flips" };
            let result = if flush { ": a Flush" } else { "" };
            vec![format!("  seat {seat} {said} cell {cell}: {}{result}", name(card))]
        }
        Event::Pass { seat } => vec![format!("  seat {seat} passes: no card to place, nothing to flip")],
        Event::KnockedOut { seat, fault } => {
            vec![format!("  seat {seat} {} and is knocked out", fault_text(fault))]
        }
        Event::Pays { seat, fault } => vec![format!(
            "  seat {seat} {} and pays a stake: pot {}",
            fault_text(fault),
            v.pot()
        )],
    }
}

/// Tells the person every event, as that seat may know it.
struct Narration<'s> {
    session: &'s RefCell<Session<FlipFlush>>,
    me: usize,
}

impl Observer<Table> for Narration<'_> {
    const EVENTS: bool = true;

    fn event(&mut self, t: &Table, e: Event) {
        let s = self.session.borrow();
        for line in told(t, self.me, e) {
            let (painted, bot) = seats_painted(&s.console, &line, self.me);
            s.narrate(&painted, bot);
        }
    }
}

/// The closing lines: who won and how, the grid at the end, and the
/// stakes when gambling.
fn closing(t: &Table, end: End, me: usize, names: &[String], c: &Console) -> String {
    let turns = plural(t.turn_count().into(), "turn");
    let line = match end {
        End::Call(w) if w == me => format!("You win: you called the Flush and it came, after {turns}!"),
        End::Call(w) => format!("seat {w} ({}) wins by calling a Flush, after {turns}.", names[w]),
        End::LastStanding(w) if w == me => format!("You win: everybody else is knocked out, after {turns}!"),
        End::LastStanding(w) => format!("seat {w} ({}) wins as the last player in, after {turns}.", names[w]),
        End::Tie => {
            let tied: Vec<String> = (0..t.players())
                .filter(|&s| t.is_alive(s))
                .map(|s| if s == me { format!("{s} (you)") } else { s.to_string() })
                .collect();
            format!(
                "A tie between seats {}, after {turns}:\nevery card is face-up and nobody holds a card.",
                crate::engine::console::or_list(&tied).replace(" or ", " and ")
            )
        }
    };
    let mut out = format!("\n{}\n", c.paint("1", &line));
    out.push_str(&c.paint("2", &format!("the grid at the end: {}", t.grid().picture())));
    if t.rules().gambling {
        let net: Vec<String> = (0..t.players()).map(|s| format!("seat {s} {:+}", t.net(s))).collect();
        let pot = match end {
            End::Tie => format!("; the pot of {} is left for a next game", t.pot()),
            _ => String::new(),
        };
        out.push('\n');
        out.push_str(&c.paint("2", &format!("stakes: {}{pot}", net.join(", "))));
    }
    out
}

/// Plays one game of `sim play flip-flush` (see
/// [`crate::engine::game::Game::play`]): the deal of `seed`, the bots of
/// `sim.policies` at every seat but the person's.
pub fn play(session: &RefCell<Session<FlipFlush>>, sim: &super::FlipFlushSim, seed: u64) -> Result<String, String> {
    let me = session.borrow().seat();
    let names = session.borrow().names().to_vec();
    let mut rng = seeded_game_rng(seed);
    let mut table = Table::new(sim.rules);
    table.new_game(&mut rng);
    let mut sink = session.borrow().trace_sink();
    let mut json = TraceWriter::with_format(&mut sink, TraceFormat::Json, 0);
    json.game_seed(seed);
    let mut person = Person {
        session,
        me,
        names: names.clone(),
        bots: Seats::new(sim.policies.clone()),
    };
    let end = {
        let mut observers = (Trace::new(&mut json), Narration { session, me });
        table.play_game(&mut person, &mut observers, &mut rng)
    };
    json.finish().map_err(|e| format!("the trace: {e}"))?;
    let c = &session.borrow().console;
    Ok(closing(&table, end, me, &names, c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::observe::Silent;
    use crate::engine::rng::SimRng;
    use super::super::cards::parse;
    use super::super::policies::Policy;
    use super::super::rules::Rules;

    fn plain() -> Console {
        Console::scripted(std::io::Cursor::new(""))
    }

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|s| if s == 0 { "you".into() } else { "bot".into() }).collect()
    }

    /// Every card `text` names (a word that reads as a card).
    fn named(text: &str) -> Vec<Card> {
        text.split(|c: char| !c.is_ascii_alphanumeric())
            .filter_map(|w| parse(&w.to_uppercase()))
            .collect()
    }

    /// Places its lowest card on a cell that moves with the history, and
    /// flips once its hand is empty: moves that read nothing hidden. Keeps
    /// seat 0's drawings until the first card is turned up.
    struct Public {
        drawn: Vec<String>,
    }

    impl Chooser for Public {
        fn choose<D: Draw>(&mut self, v: &View<'_>, _d: &mut D) -> Move {
            if v.seat() == 0 && v.up() == 0 {
                self.drawn.push(drawing(v, &names(v.players()), &plain()));
            }
            match cards_of(v.hand()).next() {
                Some(card) => Move::Place {
                    card,
                    cell: v.history_len() * 5 % CELLS,
                },
                None => Move::Flip {
                    cell: v.down().trailing_zeros() as usize,
                    call: false,
                },
            }
        }
    }

    /// What seat 0 is told, until the first card is turned up; and that
    /// no line names a card seat 0 has not seen.
    struct Told(Vec<String>, bool);

    impl Observer<Table> for Told {
        const EVENTS: bool = true;
        fn event(&mut self, t: &Table, e: Event) {
            let lines = told(t, 0, e);
            // Its own card, placed and forgotten, it saw as it placed it.
            let own = match e {
                Event::Place { seat: 0, card, .. } => 1u64 << card,
                _ => 0,
            };
            let unseen = t.view(0).unseen() & !own;
            for l in &lines {
                assert!(named(l).iter().all(|&c| unseen >> c & 1 == 0), "{l}");
            }
            self.1 |= matches!(e, Event::Flip { .. });
            if !self.1 {
                self.0.extend(lines);
            }
        }
    }

    /// The drawings and narration of seat 0 in the game `t` plays.
    fn public_game(mut t: Table, seed: u64) -> (Vec<String>, Vec<String>) {
        let mut p = Public { drawn: Vec::new() };
        let mut told = Told(Vec::new(), false);
        t.play_game(&mut p, &mut told, &mut seeded_game_rng(seed));
        (p.drawn, told.0)
    }

    /// The information test: what seat 0 is drawn and told does not change
    /// when the cards it has not seen (the other hands, the cards set
    /// aside, face-down cards it did not place) are dealt otherwise, and
    /// never names a card it has not seen.
    #[test]
    fn the_drawing_and_the_narration_do_not_depend_on_the_hidden_cards() {
        for seed in 1..=10 {
            let rules = Rules {
                players: 2 + (seed as usize % 3),
                gambling: seed % 2 == 0,
                memory: MEMORY_ONE / 2,
            };
            let mut a = Table::new(rules);
            a.new_game(&mut seeded_game_rng(seed));
            let b = a.redeal_hidden(0, &mut seeded_game_rng(seed + 100));
            assert_ne!(a.hand(1), b.hand(1), "seed {seed}: the hidden cards moved");
            let (drawn_a, told_a) = public_game(a, seed);
            let (drawn_b, told_b) = public_game(b, seed);
            assert_eq!(drawn_a, drawn_b, "seed {seed}");
            assert_eq!(told_a, told_b, "seed {seed}");
            assert!(drawn_a.len() >= HAND_SIZE, "seed {seed}");
            assert!(told_a.iter().any(|l| l.contains("removing a face-down card")), "{told_a:?}");
            assert!(told_a.iter().any(|l| l.starts_with("  seat 1 places a card on cell ")), "{told_a:?}");
        }
    }

    /// Records every move of a game its bots play.
    struct Recorded(Seats, Vec<(usize, Move)>);

    impl Chooser for Recorded {
        fn choose<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Move {
            let m = self.0.choose(v, d);
            self.1.push((v.seat(), m));
            m
        }
    }

    /// At every turn of seat 0 in games of the default policy, the drawing
    /// is the same after the cards seat 0 has not seen are dealt anew, fits
    /// 80 columns and names only cards seat 0 has seen.
    #[test]
    fn the_drawing_at_every_decision_shows_only_what_the_seat_knows() {
        for seed in 1..=10u64 {
            let rules = Rules::standard(2 + (seed as usize % 5));
            let mut t = Table::new(rules);
            let mut rng = seeded_game_rng(seed);
            t.new_game(&mut rng);
            let start = t.clone();
            let mut rec = Recorded(Seats::new(vec![Policy::default_policy(); rules.players]), Vec::new());
            t.play_game(&mut rec, &mut Silent, &mut rng);
            let mut t = start;
            let mut none: SimRng = seeded_game_rng(0);
            for &(seat, mv) in &rec.1 {
                if seat == 0 {
                    let v = t.view(0);
                    let shown = drawing(&v, &names(rules.players), &plain());
                    assert!(shown.lines().all(|l| l.chars().count() <= 80), "{shown}");
                    assert!(named(&shown).iter().all(|&c| v.unseen() >> c & 1 == 0), "{shown}");
                    for k in 0..3 {
                        let other = t.redeal_hidden(0, &mut seeded_game_rng(seed * 10 + k));
                        assert_eq!(drawing(&other.view(0), &names(rules.players), &plain()), shown);
                    }
                }
                t.apply(seat, mv, &mut Silent, &mut none);
            }
        }
    }

    #[test]
    fn every_move_has_a_key_of_its_own_and_an_advised_key() {
        let mut t = Table::new(Rules::standard(2));
        t.new_game(&mut seeded_game_rng(7));
        let v = t.view(0);
        let m = menu(&v);
        assert_eq!(m.len(), HAND_SIZE * CELLS);
        let mut keys: Vec<&str> = m.iter().map(|(_, c)| c.key.as_str()).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), m.len());
        let advised: Vec<String> = super::super::advise::legal_moves(&v)
            .into_iter()
            .map(|mv| match mv {
                Move::Place { card, cell } => format!("place:{}:{cell}", name(card)),
                Move::Flip { cell, call: false } => format!("flip:{cell}"),
                Move::Flip { cell, call: true } => format!("call:{cell}"),
            })
            .collect();
        assert!(m.iter().all(|(_, c)| advised.contains(&c.advised_as)));
    }
}
