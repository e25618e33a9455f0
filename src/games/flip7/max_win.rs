//! `max-win`: the Hit or Stay, and the target of every Freeze and Flip
//! Three, that maximise the chance to win the game, not the round score.
//!
//! # How it decides
//!
//! A decision weighs the round's possible endings for the player by what
//! each is worth for the game: `u(x)`, the chance to win the game when the
//! player's round ends with `x` points, given every game total and what
//! each opponent has in front of it now. Then it plays the round to
//! maximise the expected `u`, counting every card seen:
//!
//! - **Hit or Stay**: hit when the expected `u` of hitting beats `u` of the
//!   score banked now. Hitting is valued by an exact look-ahead over the
//!   counted draw pile ([`next_card_counts`]) of [`DEPTH`] cards: after
//!   each card the player may stay or hit again, and at the last level of
//!   the look-ahead it stays (as `ev` does after one card). A duplicate
//!   busts (or spends the Second Chance), a seventh number ends the round
//!   with the bonus; modifiers add and double. With an opponent in the
//!   round, Freezes and Flip Threes go to opponents and are left out of the
//!   count (they change no decision, see [`super::optimal`]); alone in the
//!   round, a Freeze banks and a Flip Three forces the next card.
//! - **Targets**: each player who may receive the Freeze or Flip Three is
//!   tried, and the one that leaves the player the best expected `u` is
//!   chosen. A Freeze fixes the frozen player's round at what it has in
//!   front; a Flip Three aimed at an opponent busts it with its counted
//!   chance of busting within three cards
//!   ([`super::policies::flip_three_bust_chance`]), and otherwise leaves it
//!   to finish its round; aimed at the player, the three cards are counted
//!   exactly (and it is valued as if it then stayed). Spare Second Chances go where the default sends them (the
//!   lowest game total).
//!
//! # The win-chance tables
//!
//! `u` comes from tables computed once per process for each model of the
//! opponents, table size and deck ([`Tables::get`]), from a fixed seed, so
//! every run and every thread uses the same numbers:
//!
//! 1. **Round-score distributions**, by simulating [`SAMPLE_ROUNDS`] single
//!    rounds from a fresh deck for each threshold of [`THRESHOLDS`], the
//!    player playing `stay-at-T` (in every seat in turn) against opponents
//!    playing the model: the player's round score under each threshold;
//!    each opponent's round score; and, for every score `v` an opponent
//!    had in front when asked Hit or Stay, the distribution of its final
//!    round score from there (with fewer than [`MIN_SAMPLES`] such
//!    moments, it is taken to stay at `v`).
//! 2. **Between rounds**, the chance `W(a, z)` to win the game from a
//!    game total `a` against a best opponent total `z` (both below 200), by
//!    dynamic programming over the totals: each round the player picks the
//!    threshold that maximises its chance, the opponents' best total moves
//!    by the best of `players - 1` independent model round scores, the game
//!    ends once a total reaches 200 with a single leader, and a round where
//!    nothing moves is solved in closed form (no iteration).
//! 3. **On number cards alone, from three players** ([`Between::Exact`]),
//!    `W` is instead the exact best response of the independent-rounds
//!    model over every round rule ([`exact_win`]), the best opponent total
//!    moving by the best of the others' exact model rounds: head to head it
//!    wins 0.3 to 0.65 points more than the thresholds at three and four
//!    players, and no more at two (docs/flip7.md), where the thresholds
//!    stay. `max-win+thresholds` keeps them everywhere.
//!
//! # What is approximated (and stated, and tested where it can be)
//!
//! - The model: the opponents play the model policy (`max-win:MODEL`;
//!   `max-win` alone assumes `ev`, which plays nearly the same rounds as
//!   `optimal-round`: 20.286 and 20.299 points a solo round); their
//!   Freeze and Flip Three targets are the model's.
//! - Rounds are independent and dealt from a fresh deck in the tables (the
//!   real deck carries its discard pile from round to round; the look-ahead
//!   counts it exactly).
//! - With more than two players, `W` sees only the best opponent total and
//!   treats every opponent as standing there (a cautious summary); the
//!   decision itself uses every opponent's total and hand.
//! - Who deals is not in the tables; a Flip 7 by someone else ending the
//!   round early is in the simulated distributions only.
//! - Beyond the look-ahead's depth the player stays; Flip Threes it draws
//!   during its own forced flips count as blanks.
//! - Alone at the table (one player), every policy wins: `u(x) = x`, so it
//!   maximises the round score with the same look-ahead.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use super::cards::{Card, FLIP_THREE, FREEZE, KINDS, MAX_NUMBER, SECOND_CHANCE, TIMES2, plus_value};
use super::policies::{
    Policy, Seats, default_flip_three_target, default_freeze_target, flip_three_bust_chance,
    next_card_counts,
};
use super::rules::{Chooser, FLIP7_BONUS, FLIP7_CARDS, Rules, Silent, Status, TARGET, Table};
use crate::engine::rng::batch_rng;

/// Cards of look-ahead after a hit.
pub const DEPTH: u32 = 2;

/// Rounds simulated for each threshold when the tables are made.
pub const SAMPLE_ROUNDS: u64 = 40_000;

/// Fewer moments than this at a score in front, and an opponent is taken
/// to stay there.
pub const MIN_SAMPLES: u64 = 50;

/// The round rules the player picks from between rounds in the tables
/// (`stay-at-T`; 200 plays for a Flip 7).
pub const THRESHOLDS: [u16; 18] = [1, 8, 12, 15, 18, 20, 22, 24, 26, 28, 30, 33, 36, 40, 45, 50, 60, 200];

/// The seed of the tables' simulations (fixed: the tables are the same in
/// every run).
const TABLE_SEED: u64 = 0x006d_6178_2d77_696e;

/// Round scores above this are counted as this (two decks and two x2
/// cards reach at most 327).
const MAX_SCORE: usize = 511;

/// Game totals below the target: the side of the tables.
const SIDE: usize = TARGET as usize;

/// A distribution over whole numbers: (value, chance), by value.
pub type Dist = Vec<(u32, f64)>;

/// The win-chance tables of one model, table size and deck.
#[derive(Debug)]
pub struct Tables {
    players: usize,
    single_round: bool,
    /// `win[a * SIDE + z]`: see the module documentation.
    win: Vec<f64>,
    /// By score in front when asked: an opponent's final round score.
    after: Vec<Dist>,
    /// The same, given that it does not bust.
    after_safe: Vec<Dist>,
    /// The player's round score under each of [`THRESHOLDS`].
    mine: Vec<Dist>,
    /// An opponent's round score from the start of a round.
    theirs: Dist,
}

/// What the tables are made for.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    model: String,
    players: usize,
    composition: [u8; KINDS],
    single_round: bool,
    between: Between,
}

/// Asks the inner policies, and notes the score in front of every
/// opponent of the player each time it is asked Hit or Stay.
struct Recorder {
    seats: Seats,
    me: usize,
    asked: Vec<(usize, u16)>,
}

impl Chooser for Recorder {
    fn hit(&mut self, t: &Table, seat: usize) -> bool {
        if seat != self.me {
            self.asked.push((seat, t.hand(seat).banked()));
        }
        self.seats.hit(t, seat)
    }
    fn target(&mut self, t: &Table, chooser: usize, card: Card) -> usize {
        self.seats.target(t, chooser, card)
    }
    fn second_chance_to(&mut self, t: &Table, holder: usize) -> Option<usize> {
        self.seats.second_chance_to(t, holder)
    }
}

/// Counts to a distribution.
fn normalised(counts: &[u64]) -> Dist {
    let n: u64 = counts.iter().sum();
    counts
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(v, &c)| (v as u32, c as f64 / n as f64))
        .collect()
}

/// The chances of the best of `k` independent draws, value by value, from
/// those of one draw (listed by value).
fn best_of_chances(chances: impl Iterator<Item = f64>, k: usize) -> impl Iterator<Item = f64> {
    let (mut below, mut last) = (0.0f64, 0.0);
    chances.map(move |p| {
        below += p;
        let cdf = below.min(1.0).powi(k as i32);
        let chance = cdf - last;
        last = cdf;
        chance
    })
}

/// The distribution of the best of `k` independent draws of `d`.
fn best_of(d: &Dist, k: usize) -> Dist {
    d.iter().map(|&(v, _)| v).zip(best_of_chances(d.iter().map(|&(_, p)| p), k)).collect()
}

/// How `max-win` finds the chance to win between rounds, `W(a, z)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Between {
    /// At three or more players on a deck of number cards only, the exact
    /// best response of the independent-rounds model over every round
    /// rule ([`exact_win`]); elsewhere as [`Between::Thresholds`].
    Exact,
    /// The player picks among the [`THRESHOLDS`] each round
    /// (`max-win+thresholds`).
    Thresholds,
}

/// `W(a, z)` at three or more players on a deck of number cards only, exactly in the
/// independent-rounds model ([`super::game_solve`]): the best response over
/// every round rule (a Hit or Stay for every set of numbers held) when the
/// best opponent total moves each round by the best of `players - 1`
/// rounds of `model`, a tie at the top played on. `None` at two players,
/// where the model does not solve the deck (any modifier or action card),
/// or where it cannot play `model`.
pub fn exact_win(model: &Policy, rules: &Rules) -> Option<Vec<f64>> {
    use super::game_solve::{Field, NumberDeck, RoundScores, Ties, best_response};
    let deck = NumberDeck::new(&rules.composition).ok()?;
    let field = Field::of(model, &deck, &rules.composition, SIDE).ok()?;
    // At two players the exact grid wins no more than the thresholds'
    // (measured in docs/flip7.md): it is taken from three players on.
    let others = rules.players.checked_sub(1).filter(|&k| k >= 2)?;
    // The best of `others` rounds of each round the field plays.
    let best: Vec<RoundScores> = field
        .rounds
        .iter()
        .map(|r| RoundScores {
            pmf: best_of_chances(r.pmf.iter().copied(), others).collect(),
            bust: r.bust.powi(others as i32),
        })
        .collect();
    let opp = |b: usize, a: usize| &best[field.index_at(b, a)];
    Some(best_response(&deck, SIDE, Ties::PlayOn, &opp).grid.win)
}

impl Tables {
    /// The tables for `model` at a table of `rules`, made on first use in
    /// this process and shared after.
    pub fn get(model: &Policy, between: Between, rules: &Rules) -> Arc<Tables> {
        static MADE: OnceLock<Mutex<HashMap<Key, Arc<Tables>>>> = OnceLock::new();
        let key = Key {
            model: model.to_string(),
            players: rules.players,
            composition: rules.composition,
            single_round: rules.single_round,
            between,
        };
        let mut made = MADE.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
        made.entry(key)
            .or_insert_with(|| Arc::new(Tables::make(model, between, rules, SAMPLE_ROUNDS)))
            .clone()
    }

    /// Simulates the round-score distributions and solves the game for
    /// `model` at a table of `rules` ([`Tables::get`] keeps them).
    pub fn make(model: &Policy, between: Between, rules: &Rules, rounds: u64) -> Tables {
        let players = rules.players;
        let round_rules = Rules {
            single_round: true,
            ..*rules
        };
        let mut table = Table::new(round_rules);
        let mut mine = Vec::new();
        let mut theirs = vec![0u64; MAX_SCORE + 1];
        let mut after = vec![vec![0u64; MAX_SCORE + 1]; MAX_SCORE + 1];
        for (i, &threshold) in THRESHOLDS.iter().enumerate() {
            let mut counts = vec![0u64; MAX_SCORE + 1];
            let mut rng = batch_rng(TABLE_SEED, i as u64);
            // One line-up for each seat the player takes in turn.
            let mut recorders: Vec<Recorder> = (0..players)
                .map(|me| {
                    let mut seats = vec![*model; players];
                    seats[me] = Policy::stay_at(threshold);
                    Recorder {
                        seats: Seats::new(seats),
                        me,
                        asked: Vec::new(),
                    }
                })
                .collect();
            for r in 0..rounds {
                let me = (r % players as u64) as usize;
                let rec = &mut recorders[me];
                rec.asked.clear();
                table.new_game(&mut rng);
                table.play_game(rec, &mut Silent, &mut rng);
                let score = |s: usize| (table.total(s) as usize).min(MAX_SCORE);
                counts[score(me)] += 1;
                for s in (0..players).filter(|&s| s != me) {
                    theirs[score(s)] += 1;
                }
                for &(s, v) in &rec.asked {
                    after[usize::from(v).min(MAX_SCORE)][score(s)] += 1;
                }
            }
            mine.push(normalised(&counts));
        }
        let stays = |v: usize| vec![(v as u32, 1.0)];
        let (after, after_safe) = after
            .iter()
            .enumerate()
            .map(|(v, c)| {
                let safe: Vec<u64> = c.iter().enumerate().map(|(y, &n)| if y == 0 { 0 } else { n }).collect();
                let whole = if c.iter().sum::<u64>() < MIN_SAMPLES {
                    stays(v)
                } else {
                    normalised(c)
                };
                let safe = if safe.iter().sum::<u64>() < MIN_SAMPLES {
                    stays(v)
                } else {
                    normalised(&safe)
                };
                (whole, safe)
            })
            .unzip();
        let theirs = normalised(&theirs);
        let mut t = Tables {
            players,
            single_round: rules.single_round,
            win: vec![0.0; SIDE * SIDE],
            after,
            after_safe,
            mine,
            theirs,
        };
        if players > 1 && !rules.single_round {
            let exact = if between == Between::Exact { exact_win(model, rules) } else { None };
            match exact {
                Some(win) => t.win = win,
                None => t.solve(),
            }
        }
        t
    }

    /// The chance to win from game totals `a` (the player) and `z` (the
    /// best opponent) after a round, or before the next one.
    #[inline]
    pub fn outcome(&self, a: u32, z: u32) -> f64 {
        if self.single_round {
            return f64::from(u8::from(a > z));
        }
        if a >= TARGET || z >= TARGET {
            return match a.cmp(&z) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Less => 0.0,
                // A tie at the top plays on: an even share.
                std::cmp::Ordering::Equal => 1.0 / self.players as f64,
            };
        }
        self.win[a as usize * SIDE + z as usize]
    }

    /// `W(a, z)` for every pair of totals below 200, from the highest down.
    fn solve(&mut self) {
        let field = best_of(&self.theirs, self.players - 1);
        let (q0, field_up): (f64, Dist) = {
            let q0 = field.iter().find(|(y, _)| *y == 0).map_or(0.0, |x| x.1);
            (q0, field.iter().copied().filter(|(y, _)| *y > 0).collect())
        };
        // h[a'] for the current z: the chance to win when the player's total
        // is a' after its round and the field's round is still to be added.
        let width = SIDE + MAX_SCORE + 1;
        let mut h = vec![0.0; width];
        for z in (0..SIDE).rev() {
            // Totals the player reaches at or past 200: the field's round decides.
            for (a, slot) in h.iter_mut().enumerate().skip(SIDE) {
                *slot = field
                    .iter()
                    .map(|&(y, p)| p * self.outcome(a as u32, z as u32 + y))
                    .sum();
            }
            for a in (0..SIDE).rev() {
                // The field moves (y > 0) from (a, z).
                let moved: f64 = field_up
                    .iter()
                    .map(|&(y, p)| p * self.outcome(a as u32, z as u32 + y))
                    .sum();
                let mut best = 0.0f64;
                for dist in &self.mine {
                    let (mut p0, mut rest) = (0.0, 0.0);
                    for &(x, p) in dist {
                        if x == 0 {
                            p0 = p;
                        } else {
                            rest += p * h[a + x as usize];
                        }
                    }
                    // W = p0 (q0 W + moved) + rest.
                    let w = (p0 * moved + rest) / (1.0 - p0 * q0);
                    best = best.max(w);
                }
                self.win[a * SIDE + z] = best;
                h[a] = q0 * best + moved;
            }
        }
    }

    /// The distribution of an opponent's final round score when it has `v`
    /// in front and is still in the round (`safe`: given it does not bust).
    fn finish(&self, v: u16, safe: bool) -> &Dist {
        let v = usize::from(v).min(MAX_SCORE);
        if safe { &self.after_safe[v] } else { &self.after[v] }
    }
}

/// How an opponent's round may end, as game totals.
#[derive(Clone, Copy, Debug)]
enum Ending {
    /// Its total is this.
    Fixed(u32),
    /// Its total plus a draw of [`Tables::finish`] at `v`.
    Open { total: u32, v: u16, safe: bool },
    /// Busts with this chance (total unchanged), else as `Open` given no bust.
    Risky { total: u32, v: u16, bust: f64 },
}

/// The reusable buffers of `max-win` (kept in the policies' scratch).
#[derive(Default)]
pub struct Scratch {
    /// The tables last used, with the model and table rules they are for.
    tables: Option<(Policy, Between, Rules, Arc<Tables>)>,
    field: Dist,
    cdf: Vec<f64>,
    cdf_one: Vec<f64>,
    memo: Vec<f64>,
}

impl Scratch {
    fn tables(&mut self, model: &Policy, between: Between, t: &Table) -> Arc<Tables> {
        let rules = t.rules();
        let same = |r: &Rules| {
            r.players == rules.players && r.composition == rules.composition && r.single_round == rules.single_round
        };
        match &self.tables {
            Some((m, b, r, tables)) if m == model && *b == between && same(r) => tables.clone(),
            _ => {
                let tables = Tables::get(model, between, rules);
                self.tables = Some((*model, between, *rules, tables.clone()));
                tables
            }
        }
    }
}

/// `u(x)` for one decision: the chance to win when the player's round
/// ends with `x` points, memoised.
struct Utility<'a> {
    tables: &'a Tables,
    /// The player's game total.
    a: u32,
    /// The best opponent total after this round.
    field: &'a Dist,
    /// No opponent: `u(x) = x`.
    linear: bool,
    memo: &'a mut Vec<f64>,
}

impl Utility<'_> {
    #[inline]
    fn u(&mut self, x: u32) -> f64 {
        if self.linear {
            return f64::from(x);
        }
        let x = (x as usize).min(MAX_SCORE);
        let m = self.memo[x];
        if !m.is_nan() {
            return m;
        }
        let a = self.a + x as u32;
        let v = self.field.iter().map(|&(z, p)| p * self.tables.outcome(a, z)).sum();
        self.memo[x] = v;
        v
    }
}

/// The distribution of the best opponent total after this round, for the
/// endings of each opponent, into `out`.
fn field_of(tables: &Tables, endings: &[Ending], cdf: &mut Vec<f64>, one: &mut Vec<f64>, out: &mut Dist) {
    out.clear();
    // Wide enough for the highest total any opponent can reach (the
    // distributions are by value, so their last entry is the highest).
    let top = |total: u32, v: u16, safe: bool| total + tables.finish(v, safe).last().map_or(0, |x| x.0);
    let highest = endings
        .iter()
        .map(|e| match *e {
            Ending::Fixed(total) => total,
            Ending::Open { total, v, safe } => top(total, v, safe),
            Ending::Risky { total, v, .. } => top(total, v, true),
        })
        .max()
        .unwrap_or(0);
    let width = (highest as usize + 1).min(4 * SIDE + 2 * MAX_SCORE);
    cdf.clear();
    cdf.resize(width, 1.0);
    for e in endings {
        one.clear();
        one.resize(width, 0.0);
        let last = width - 1;
        let add = |one: &mut [f64], total: u32, d: &Dist, scale: f64| {
            for &(y, p) in d {
                one[((total + y) as usize).min(last)] += scale * p;
            }
        };
        match *e {
            Ending::Fixed(total) => one[(total as usize).min(last)] += 1.0,
            Ending::Open { total, v, safe } => add(one, total, tables.finish(v, safe), 1.0),
            Ending::Risky { total, v, bust } => {
                one[(total as usize).min(last)] += bust;
                add(one, total, tables.finish(v, true), 1.0 - bust);
            }
        }
        let mut below = 0.0;
        for (c, p) in cdf.iter_mut().zip(one.iter()) {
            below += p;
            *c *= below.min(1.0);
        }
    }
    let mut last = 0.0;
    for (z, &c) in cdf.iter().enumerate() {
        if c > last {
            out.push((z as u32, c - last));
            last = c;
        }
    }
}

/// What `seat` knows of its hand for the look-ahead.
#[derive(Clone, Copy, Debug)]
struct Look {
    numbers: u16,
    sum: u16,
    count: u8,
    plus: u16,
    times2: u8,
    sc: bool,
}

impl Look {
    fn of(t: &Table, seat: usize) -> Look {
        let h = t.hand(seat);
        Look {
            numbers: h.numbers,
            sum: h.number_sum,
            count: h.count,
            plus: h.plus,
            times2: h.times2,
            sc: h.second_chance,
        }
    }

    #[inline]
    fn banked(&self) -> u32 {
        (u32::from(self.sum) << self.times2) + u32::from(self.plus)
    }
}

/// The counted pile the look-ahead draws from: `counts` per kind (held
/// numbers included), their `total`, and `busts`, the copies of held
/// numbers among them.
#[derive(Clone, Copy, Debug)]
struct Pile {
    counts: [u8; KINDS],
    total: u32,
    busts: u32,
}

impl Pile {
    fn new(h: &Look, mut counts: [u8; KINDS], solo: bool) -> Pile {
        if !solo {
            counts[usize::from(FREEZE)] = 0;
            counts[usize::from(FLIP_THREE)] = 0;
        }
        let busts = (0..=MAX_NUMBER)
            .filter(|&n| h.numbers & (1 << n) != 0)
            .map(|n| u32::from(counts[usize::from(n)]))
            .sum();
        Pile {
            total: counts.iter().map(|&c| u32::from(c)).sum(),
            counts,
            busts,
        }
    }
}

/// The best expected `u` from a state where the player may stay or hit,
/// looking `depth` more cards ahead after a hit.
fn choose(h: Look, pile: &mut Pile, solo: bool, depth: u32, u: &mut Utility) -> f64 {
    let stay = u.u(h.banked());
    if depth == 0 || pile.total == 0 {
        return stay;
    }
    stay.max(hit(h, pile, solo, depth - 1, u))
}

/// The expected `u` of drawing the next card, then choosing with `depth`
/// more cards of look-ahead.
fn hit(h: Look, pile: &mut Pile, solo: bool, depth: u32, u: &mut Utility) -> f64 {
    next_card(h, pile, u, &mut |c, pile, u, action| match action {
        None => choose(c, pile, solo, depth, u),
        // Only counted alone in the round: a Freeze banks.
        Some(FREEZE) => u.u(c.banked()),
        // Alone in the round: at least the next card is forced.
        Some(_) if pile.total == 0 => u.u(c.banked()),
        Some(_) => hit(c, pile, solo, depth.saturating_sub(1), u),
    })
}

/// The expected `u` of `left` forced flips for the player, banking what
/// they leave (every card counted, Freezes and Flip Threes as blanks).
fn forced(h: Look, pile: &mut Pile, left: u32, u: &mut Utility) -> f64 {
    if left == 0 || pile.total == 0 {
        return u.u(h.banked());
    }
    next_card(h, pile, u, &mut |c, pile, u, _| forced(c, pile, left - 1, u))
}

/// What [`next_card`] does with a hand still in the round.
type Then<'a> = dyn FnMut(Look, &mut Pile, &mut Utility, Option<Card>) -> f64 + 'a;

/// What comes after the next card from `pile`, each card weighted by its
/// count: a bust, a Flip 7 and the player's hand after a duplicate (with a
/// Second Chance), a new number, a modifier or a Second Chance are worked
/// out here; every hand still in the round goes to `then` (with the card
/// when it is a Freeze or Flip Three), the pile less the card.
fn next_card(
    h: Look,
    pile: &mut Pile,
    u: &mut Utility,
    then: &mut Then,
) -> f64 {
    let all = f64::from(pile.total);
    let mut acc = 0.0;
    pile.total -= 1;
    if pile.busts > 0 {
        let v = if h.sc {
            let mut c = h;
            c.sc = false;
            pile.busts -= 1;
            let v = then(c, pile, u, None);
            pile.busts += 1;
            v
        } else {
            u.u(0)
        };
        acc += f64::from(pile.busts) * v;
    }
    for k in 0..KINDS {
        let cards = pile.counts[k];
        if cards == 0 || (k <= usize::from(MAX_NUMBER) && h.numbers & (1 << k) != 0) {
            continue;
        }
        let card = k as Card;
        let mut c = h;
        pile.counts[k] -= 1;
        let v = if card <= MAX_NUMBER {
            c.numbers |= 1 << k;
            c.sum += u16::from(card);
            c.count += 1;
            if u32::from(c.count) >= FLIP7_CARDS {
                u.u(c.banked() + u32::from(FLIP7_BONUS))
            } else {
                pile.busts += u32::from(cards) - 1;
                let v = then(c, pile, u, None);
                pile.busts -= u32::from(cards) - 1;
                v
            }
        } else if card == FREEZE || card == FLIP_THREE {
            then(c, pile, u, Some(card))
        } else {
            if card == TIMES2 {
                c.times2 += 1;
            } else if card == SECOND_CHANCE {
                c.sc = true;
            } else {
                c.plus += plus_value(card);
            }
            then(c, pile, u, None)
        };
        pile.counts[k] += 1;
        acc += f64::from(cards) * v;
    }
    pile.total += 1;
    acc / all
}

/// How each opponent of `seat` may end the round, as it stands.
fn endings(t: &Table, seat: usize) -> Vec<Ending> {
    (0..t.players())
        .filter(|&s| s != seat)
        .map(|s| {
            let h = t.hand(s);
            let total = t.total(s);
            match h.status {
                Status::Active => Ending::Open {
                    total,
                    v: h.banked(),
                    safe: false,
                },
                Status::Busted => Ending::Fixed(total),
                _ => Ending::Fixed(total + u32::from(h.score())),
            }
        })
        .collect()
}

/// The utility of one decision for `seat` with the opponents' endings
/// `ends` (none: `u(x) = x`), in `scratch`'s buffers.
fn utility<'a>(tables: &'a Tables, t: &Table, seat: usize, ends: &[Ending], scratch: &'a mut Scratch) -> Utility<'a> {
    let linear = ends.is_empty();
    if !linear {
        field_of(tables, ends, &mut scratch.cdf, &mut scratch.cdf_one, &mut scratch.field);
    }
    scratch.memo.clear();
    scratch.memo.resize(MAX_SCORE + 1, f64::NAN);
    Utility {
        tables,
        a: t.total(seat),
        field: &scratch.field,
        linear,
        memo: &mut scratch.memo,
    }
}

/// Whether `seat` is the only player left in the round.
fn alone(t: &Table, seat: usize) -> bool {
    t.active_mask() & !(1u64 << seat) == 0
}

/// The best expected win chance of `seat` with the opponents' endings
/// `ends`, and whether hitting gives it (`seat` may be out of the round).
fn value_with(t: &Table, seat: usize, tables: &Tables, ends: &[Ending], scratch: &mut Scratch) -> (f64, bool) {
    let mut u = utility(tables, t, seat, ends, scratch);
    decide(t, seat, &mut u, DEPTH)
}

/// The better of staying and hitting for `seat` under `u`, with `depth`
/// cards of look-ahead after a hit (1: hit once, then stay).
fn decide(t: &Table, seat: usize, u: &mut Utility, depth: u32) -> (f64, bool) {
    let h = t.hand(seat);
    if !h.is_active() {
        return (u.u(u32::from(h.score())), false);
    }
    let look = Look::of(t, seat);
    let solo = alone(t, seat);
    let mut pile = Pile::new(&look, next_card_counts(t).0, solo);
    let stay = u.u(look.banked());
    if pile.total == 0 {
        return (stay, false);
    }
    let go = hit(look, &mut pile, solo, depth - 1, u);
    if go > stay + 1e-12 { (go, true) } else { (stay, false) }
}

/// Whether `seat` hits under `max-win` with opponents modelled by `model`.
pub fn hits(t: &Table, seat: usize, model: &Policy, between: Between, scratch: &mut Scratch) -> bool {
    let tables = scratch.tables(model, between, t);
    let ends = endings(t, seat);
    value_with(t, seat, &tables, &ends, scratch).1
}

/// Where `chooser` sends `card` (a Freeze or Flip Three) under `max-win`:
/// the player still in the round whose receiving it leaves `chooser` the
/// best expected win chance (ties to the default target).
pub fn target(
    t: &Table,
    chooser: usize,
    card: Card,
    model: &Policy,
    between: Between,
    scratch: &mut Scratch,
) -> usize {
    let default = if card == FREEZE {
        default_freeze_target(t, chooser)
    } else {
        default_flip_three_target(t, chooser)
    };
    let candidates: Vec<usize> = std::iter::once(default)
        .chain((0..t.players()).filter(|&s| s != default && t.is_active(s)))
        .collect();
    if candidates.len() == 1 {
        return default;
    }
    let tables = scratch.tables(model, between, t);
    let base = endings(t, chooser);
    let others: Vec<usize> = (0..t.players()).filter(|&s| s != chooser).collect();
    let mut best = (f64::NEG_INFINITY, default);
    for &c in &candidates {
        let value = if c == chooser {
            let look = Look::of(t, chooser);
            let mut u = utility(&tables, t, chooser, &base, scratch);
            if card == FREEZE {
                u.u(look.banked())
            } else {
                let mut pile = Pile::new(&look, next_card_counts(t).0, true);
                forced(look, &mut pile, 3, &mut u)
            }
        } else {
            let i = others.iter().position(|&s| s == c).expect("an opponent");
            let mut ends = base.clone();
            let h = t.hand(c);
            let total = t.total(c);
            ends[i] = if card == FREEZE {
                Ending::Fixed(total + u32::from(h.banked()))
            } else {
                Ending::Risky {
                    total,
                    v: h.banked(),
                    bust: flip_three_bust_chance(t, c),
                }
            };
            value_with(t, chooser, &tables, &ends, scratch).0
        };
        if value > best.0 + 1e-12 {
            best = (value, c);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::batch_rng;
    use crate::games::flip7::cards::{Without, composition};

    fn rules(players: usize) -> Rules {
        Rules {
            players,
            composition: composition(1, Without::default()),
            single_round: false,
            fresh_deck: false,
        }
    }

    #[test]
    fn best_of_two_is_the_square_of_the_distribution_function() {
        let d = vec![(0, 0.5), (10, 0.5)];
        let b = best_of(&d, 2);
        assert_eq!(b, vec![(0, 0.25), (10, 0.75)]);
    }

    /// Tables from given distributions (no simulation).
    fn synthetic(players: usize, mine: Vec<Dist>, theirs: Dist) -> Tables {
        let mut t = Tables {
            players,
            single_round: false,
            win: vec![0.0; SIDE * SIDE],
            after: Vec::new(),
            after_safe: Vec::new(),
            mine,
            theirs,
        };
        t.solve();
        t
    }

    /// The same chances by plain value iteration (every state updated from
    /// the last sweep until nothing moves), independent of the closed form
    /// and the order of [`Tables::solve`].
    fn iterated(t: &Tables) -> Vec<f64> {
        let field = best_of(&t.theirs, t.players - 1);
        let mut w = vec![0.5; SIDE * SIDE];
        let at = |w: &[f64], a: u32, z: u32| {
            if a >= TARGET || z >= TARGET {
                match a.cmp(&z) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Less => 0.0,
                    std::cmp::Ordering::Equal => 1.0 / t.players as f64,
                }
            } else {
                w[a as usize * SIDE + z as usize]
            }
        };
        for _ in 0..10_000 {
            let mut next = w.clone();
            let mut moved = 0.0f64;
            for a in 0..SIDE as u32 {
                for z in 0..SIDE as u32 {
                    let best = t
                        .mine
                        .iter()
                        .map(|d| {
                            d.iter()
                                .flat_map(|&(x, p)| field.iter().map(move |&(y, q)| (x, y, p * q)))
                                .map(|(x, y, pq)| pq * at(&w, a + x, z + y))
                                .sum::<f64>()
                        })
                        .fold(0.0, f64::max);
                    moved = moved.max((best - w[a as usize * SIDE + z as usize]).abs());
                    next[a as usize * SIDE + z as usize] = best;
                }
            }
            w = next;
            if moved < 1e-13 {
                break;
            }
        }
        w
    }

    #[test]
    fn win_table_equals_plain_value_iteration() {
        // Coarse round scores (multiples of 40) keep the iteration short;
        // zeros (busts) give the self-loop that the closed form solves.
        let mine = vec![
            vec![(0, 0.3), (40, 0.7)],
            vec![(0, 0.6), (80, 0.4)],
            vec![(0, 0.1), (40, 0.5), (120, 0.4)],
        ];
        let theirs = vec![(0, 0.35), (40, 0.45), (80, 0.2)];
        for players in [2, 3] {
            let t = synthetic(players, mine.clone(), theirs.clone());
            let w = iterated(&t);
            let worst = (0..SIDE * SIDE).map(|i| (t.win[i] - w[i]).abs()).fold(0.0, f64::max);
            assert!(worst < 1e-9, "{players} players: off by {worst}");
        }
    }

    #[test]
    fn two_equal_players_share_the_game() {
        // One rule for both: W(a, z) + W(z, a) = 1 at two players.
        let d = vec![(0, 0.25), (10, 0.25), (25, 0.3), (60, 0.2)];
        let t = synthetic(2, vec![d.clone()], d);
        for (a, z) in [(0, 0), (10, 150), (199, 3), (120, 121)] {
            let sum = t.outcome(a, z) + t.outcome(z, a);
            assert!((sum - 1.0).abs() < 1e-9, "{a} {z}: {sum}");
        }
        assert!((t.outcome(77, 77) - 0.5).abs() < 1e-9);
    }

    #[test]
    fn win_chances_are_chances_and_grow_with_the_own_total() {
        let t = Tables::make(&Policy::stay_at(25), Between::Thresholds, &rules(2), 2_000);
        for a in (0..SIDE).step_by(7) {
            for z in (0..SIDE).step_by(7) {
                let w = t.outcome(a as u32, z as u32);
                assert!((0.0..=1.0 + 1e-12).contains(&w), "{a} {z} {w}");
                if a + 7 < SIDE {
                    assert!(t.outcome(a as u32 + 7, z as u32) + 1e-9 >= w, "{a} {z}");
                }
            }
        }
        // Far ahead wins nearly always; far behind nearly never.
        assert!(t.outcome(190, 0) > 0.95 && t.outcome(0, 190) < 0.05);
    }

    /// Plays `ev` games at `players` and hands every decision of a player
    /// with an opponent still in the round to `check`.
    fn ev_decisions(players: usize, games: u64, mut check: impl FnMut(&Table, usize)) {
        struct Probe<'f>(Seats, &'f mut dyn FnMut(&Table, usize));
        impl Chooser for Probe<'_> {
            fn hit(&mut self, t: &Table, seat: usize) -> bool {
                if !alone(t, seat) {
                    (self.1)(t, seat);
                }
                self.0.hit(t, seat)
            }
            fn target(&mut self, t: &Table, chooser: usize, card: Card) -> usize {
                self.0.target(t, chooser, card)
            }
            fn second_chance_to(&mut self, t: &Table, holder: usize) -> Option<usize> {
                self.0.second_chance_to(t, holder)
            }
        }
        let ev = Policy::parse("ev").unwrap();
        let mut probe = Probe(Seats::new(vec![ev; players]), &mut check);
        let mut table = Table::new(rules(players));
        for g in 0..games {
            let mut rng = batch_rng(31, g);
            table.new_game(&mut rng);
            table.play_game(&mut probe, &mut Silent, &mut rng);
        }
    }

    #[test]
    fn one_card_of_look_ahead_on_the_round_score_is_ev() {
        // With u(x) = x and one card, the look-ahead is `ev`'s rule: the
        // machinery (counted pile, busts, Second Chance, modifiers, the Flip
        // 7 bonus, action cards left out) agrees with it at every decision.
        let tables = Tables::make(&Policy::stay_at(25), Between::Thresholds, &rules(1), 10);
        let ev = Policy::parse("ev").unwrap();
        let mut memo = Vec::new();
        let field = Vec::new();
        let mut checked = 0;
        ev_decisions(3, 300, |t, seat| {
            memo.clear();
            memo.resize(MAX_SCORE + 1, f64::NAN);
            let mut u = Utility {
                tables: &tables,
                a: 0,
                field: &field,
                linear: true,
                memo: &mut memo,
            };
            assert_eq!(decide(t, seat, &mut u, 1).1, ev.hit(t, seat), "{:?}", t.hand(seat));
            checked += 1;
        });
        assert!(checked > 5_000, "{checked}");
    }

    #[test]
    fn a_deeper_look_ahead_never_values_hitting_less() {
        // Each extra card adds the option to stay or hit again, so the
        // value of the better choice cannot fall with depth.
        let tables = Tables::make(&Policy::parse("ev").unwrap(), Between::Thresholds, &rules(2), 2_000);
        let mut scratch = Scratch::default();
        let mut checked = 0;
        ev_decisions(2, 100, |t, seat| {
            let ends = endings(t, seat);
            let mut u = utility(&tables, t, seat, &ends, &mut scratch);
            let one = decide(t, seat, &mut u, 1).0;
            let two = decide(t, seat, &mut u, 2).0;
            assert!(two + 1e-12 >= one, "{one} {two}");
            checked += 1;
        });
        assert!(checked > 1_000, "{checked}");
    }
}
