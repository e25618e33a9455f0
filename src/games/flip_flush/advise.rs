//! `sim advise flip-flush`: a Flip-Flush decision read from a JSON trace
//! ([`super::advise_trace`]), as the engine's advice needs it
//! ([`Position`]).
//!
//! The position is what the mover knows at its turn: the grid (face-up
//! cards, face-down cells and who placed each card), its own hand and the
//! face-down cards it placed and remembers, how many cards every other
//! player holds, who is still in, the pot (gambling) and the whole public
//! history. Every playout deals the cards the mover has not seen anew from
//! that alone, with the sampler of the search (`ismcts:N`,
//! [`super::worlds::Problem`]): uniformly, then (under a model that reads
//! the opponents, `read:Q` or `worlds:K/Q`) resampled by how likely each
//! world makes the Places on hot cells; then it plays the move and the
//! rest of the game with the model in every seat. The table the trace
//! gives is read only through the mover's [`View`], so two traces that
//! differ only in cards the mover has not seen give the same advice.
//!
//! **Moves.** Only suits matter, so a Place is one card of each suit held
//! (the lowest) on each of the nine cells; then each face-down cell
//! flipped without a call and with one.

use serde_json::{Value, json};

use super::advise_trace::Read;
use super::cards::{CELLS, Card, CardSet, SUITS, name, suit, suit_set};
use super::policies::{Model, Policy, Seats};
use super::rules::{Chooser, End, MEMORY_ONE, Move as Play, Rules, Silent, Table, View};
use super::worlds::Problem;
use crate::engine::advise::{WIN_CHANCE, Measure, Move, Position};
use crate::engine::rng::{Draw, SimRng};

/// Uniform worlds drawn in each playout, of which one is kept in
/// proportion to its weight, when the model reads the opponents and the
/// history holds evidence (sampling-importance-resampling).
pub const RESAMPLED: usize = 16;

const PLAIN: &[Measure] = &[WIN_CHANCE];

const GAMBLING: &[Measure] = &[
    WIN_CHANCE,
    Measure {
        name: "net stakes",
        key: "net_stakes",
        chance: false,
    },
];

/// A checked Flip-Flush decision, ready for playouts.
pub struct FlipFlushPosition {
    read: Read,
    model: Policy,
    moves: Vec<(Play, Move)>,
    /// The mover's problem: the pool of unseen cards, the Places whose
    /// card it did not see, the other hands (and the evidence, when read).
    problem: Problem,
    /// Whether worlds are resampled by weight.
    weighted: bool,
}

/// A move in words and as a JSON key.
fn words(mv: Play) -> (String, String) {
    match mv {
        Play::Place { card, cell } => (format!("place {} on cell {cell}", name(card)), format!("place:{}:{cell}", name(card))),
        Play::Flip { cell, call: false } => (format!("flip cell {cell}"), format!("flip:{cell}")),
        Play::Flip { cell, call: true } => (format!("flip cell {cell} calling a Flush"), format!("call:{cell}")),
    }
}

/// The Place as advised: the lowest card of its suit in `hand`.
fn lowest_of_suit(hand: CardSet, mv: Play) -> Play {
    match mv {
        Play::Place { card, cell } => Play::Place {
            card: (hand & suit_set(suit(card))).trailing_zeros() as Card,
            cell,
        },
        flip => flip,
    }
}

/// Every legal move of the player of `v`: the lowest card of each suit held
/// on each cell, then each face-down cell flipped without and with a call.
pub fn legal_moves(v: &View<'_>) -> Vec<Play> {
    let mut out = Vec::new();
    for s in 0..SUITS {
        let h = v.hand() & suit_set(s);
        if h != 0 {
            let card = h.trailing_zeros() as Card;
            out.extend((0..CELLS).map(|cell| Play::Place { card, cell }));
        }
    }
    for cell in (0..CELLS).filter(|&c| v.down() >> c & 1 != 0) {
        out.extend([false, true].map(|call| Play::Flip { cell, call }));
    }
    out
}

impl FlipFlushPosition {
    /// The decision `read`, every seat playing `model` after the move.
    pub fn new(read: Read, model: Policy) -> FlipFlushPosition {
        let v = read.table.view(read.mover);
        let q = match model.model {
            Model::Read(q) | Model::Worlds(_, q) => Some(q),
            Model::Count => None,
        };
        let problem = Problem::from_view(&v, 0, &[0; CELLS], q.unwrap_or(0));
        let evidence = problem.events.iter().any(|e| e.demand != 0 || e.kept != 0);
        let moves = legal_moves(&v)
            .into_iter()
            .map(|m| {
                let (name, key) = words(m);
                (m, Move { name, key, exact: Vec::new() })
            })
            .collect();
        FlipFlushPosition {
            weighted: q.is_some() && evidence,
            read,
            model,
            moves,
            problem,
        }
    }

    /// The decision as read from the trace.
    pub fn read(&self) -> &Read {
        &self.read
    }

    /// The rules engine's move of each advised move, in order.
    pub fn plays(&self) -> Vec<Play> {
        self.moves.iter().map(|(p, _)| *p).collect()
    }

    /// The table of one playout: the mover's view completed by a world
    /// drawn from `rng`, the mover to play.
    pub fn deal_unseen(&self, rng: &mut SimRng) -> Table {
        let e = self.problem.events.len();
        let p = self.read.rules.players;
        let mut cards: Vec<Card> = vec![0; e];
        let mut hands: Vec<CardSet> = vec![0; p];
        self.problem.uniform_world(rng, &mut cards, &mut hands);
        if self.weighted {
            let mut total = self.problem.world_weight(&cards, &hands, false);
            let (mut c2, mut h2) = (cards.clone(), hands.clone());
            for _ in 1..RESAMPLED {
                self.problem.uniform_world(rng, &mut c2, &mut h2);
                let w = self.problem.world_weight(&c2, &h2, false);
                total += w;
                // Keep the new world with probability w / total: in the
                // end each is kept in proportion to its weight.
                if w > 0.0 && unit(rng) * total < w {
                    cards.copy_from_slice(&c2);
                    hands.copy_from_slice(&h2);
                }
            }
        }
        self.read.table.view(self.read.mover).determinize(&cards, &hands, rng)
    }

    fn rules(&self) -> Rules {
        self.read.rules
    }
}

/// A uniform number in `[0, 1)`.
fn unit(rng: &mut SimRng) -> f64 {
    f64::from(rng.below(1 << 30)) / f64::from(1u32 << 30)
}

/// The move first, then the model in every seat.
struct First {
    first: Option<Play>,
    seats: Seats,
}

impl Chooser for First {
    fn choose<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Play {
        match self.first.take() {
            Some(m) => m,
            None => self.seats.choose(v, d),
        }
    }
}

impl Position for FlipFlushPosition {
    fn game(&self) -> &'static str {
        "flip-flush"
    }

    fn mover(&self) -> usize {
        self.read.mover
    }

    fn players(&self) -> usize {
        self.rules().players
    }

    fn moves(&self) -> Vec<Move> {
        self.moves.iter().map(|(_, m)| m.clone()).collect()
    }

    fn measures(&self) -> &'static [Measure] {
        if self.rules().gambling { GAMBLING } else { PLAIN }
    }

    fn score_measure(&self) -> Option<usize> {
        self.rules().gambling.then_some(1)
    }

    fn model(&self) -> String {
        self.model.to_string()
    }

    fn read_back(&self) -> (Vec<String>, Value) {
        read_back(&self.read, &self.moves)
    }

    fn playout(&self, mv: usize, rng: &mut SimRng, out: &mut [f64]) {
        let mut t = self.deal_unseen(rng);
        let me = self.read.mover;
        let mut ch = First {
            first: Some(self.moves[mv].0),
            seats: Seats::new(vec![self.model; self.players()]),
        };
        let end = t.play_game(&mut ch, &mut Silent, rng);
        out[0] = match end {
            End::Tie if t.is_alive(me) => 1.0 / f64::from(t.alive_mask().count_ones()),
            End::Tie => 0.0,
            e => f64::from(u8::from(e.winner() == Some(me))),
        };
        if let Some(o) = out.get_mut(1) {
            // The table holds this game's stakes only: the winner also
            // takes what earlier ties left in the pot.
            let carried = if end == End::Call(me) { self.read.carried } else { 0 };
            *o = f64::from(t.net(me)) + f64::from(carried);
        }
    }
}

/// The position in lines of text and as JSON: only what the mover knows.
fn read_back(r: &Read, moves: &[(Play, Move)]) -> (Vec<String>, Value) {
    let v = r.table.view(r.mover);
    let n = v.players();
    let me = r.mover;
    let game = match r.played_on {
        Some(k) => format!("game {}, played on {k}", r.game),
        None => format!("game {}", r.game),
    };
    let memory = super::probability_label(v.memory());
    let mut lines = vec![format!(
        "{game}, line {}: seat {me} to place or flip; {n} players, memory {memory}{}",
        r.line,
        if v.gambling() {
            format!(", gambling: pot {}", v.pot() + r.carried)
        } else {
            String::new()
        }
    )];
    let cell_text = |i: usize| -> (String, Value) {
        let placer = v.placer(i);
        match (v.face_up(i), v.known_card(i), placer) {
            (Some(c), _, Some(p)) => (format!("{}/{p}", name(c)), json!({ "cell": i, "face": "up", "card": name(c), "placer": p })),
            (None, Some(c), Some(p)) => (format!("({})/{p}", name(c)), json!({ "cell": i, "face": "down", "card": name(c), "placer": p })),
            (None, None, Some(p)) => (format!("##/{p}"), json!({ "cell": i, "face": "down", "card": null, "placer": p })),
            _ => ("..".into(), json!({ "cell": i, "face": "empty" })),
        }
    };
    let cells: Vec<(String, Value)> = (0..CELLS).map(cell_text).collect();
    let width = cells.iter().map(|c| c.0.len()).max().unwrap_or(2);
    lines.push(format!(
        "grid (card/placer; ## face-down, (card) face-down and remembered by seat {me}, .. empty):"
    ));
    for row in cells.chunks(3) {
        let r: Vec<String> = row.iter().map(|c| format!("{:<width$}", c.0)).collect();
        lines.push(format!("  {}", r.join("  ").trim_end()));
    }
    let hand: Vec<String> = super::cards::cards_of(v.hand()).map(name).collect();
    let mut seats = Vec::new();
    let mut others = Vec::new();
    for s in 0..n {
        let alive = v.alive_mask() >> s & 1 != 0;
        if s != me {
            others.push(match alive {
                true => format!("seat {s} {}", crate::engine::show::plural(v.hand_len(s).into(), "card")),
                false => format!("seat {s} out"),
            });
        }
        seats.push(json!({ "seat": s, "in": alive, "cards": v.hand_len(s) }));
    }
    lines.push(format!(
        "hand of seat {me}: {}; {}",
        if hand.is_empty() { "empty".into() } else { hand.join(" ") },
        others.join(", ")
    ));
    let (played, played_key) = words(lowest_of_suit(v.hand(), r.played));
    let (traced, _) = words(r.played);
    lines.push(format!(
        "{} cards unseen by seat {me}; the trace played: {traced}{}",
        v.unseen().count_ones(),
        if played == traced { String::new() } else { format!(" (here: {played}, only suits matter)") }
    ));
    debug_assert!(moves.iter().any(|(_, m)| m.key == played_key));
    let json = json!({
        "game": r.game,
        "played_on": r.played_on,
        "line": r.line,
        "players": n,
        "memory": if v.memory().is_multiple_of(MEMORY_ONE) { json!(v.memory() / MEMORY_ONE) } else { json!(f64::from(v.memory()) / f64::from(MEMORY_ONE)) },
        "gambling": v.gambling(),
        "pot": v.gambling().then_some(v.pot() + r.carried),
        "mover": me,
        "grid": cells.into_iter().map(|c| c.1).collect::<Vec<_>>(),
        "hand": hand,
        "seats": seats,
        "unseen": v.unseen().count_ones(),
        "played": played_key,
        "moves_played": v.history_len(),
    });
    (lines, json)
}
