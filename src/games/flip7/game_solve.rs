//! Flip 7 as a whole game, solved exactly in the independent-rounds model.
//!
//! # The model
//!
//! - **Rounds are independent**: each player plays each round alone, from
//!   a fresh shuffled deck of its own, without seeing the others' cards,
//!   and all at once: there is no turn order, so neither who deals nor who
//!   goes first enters the model (its grids are the same for every deal).
//! - **A round** from the number cards only: the first card is dealt, then
//!   the player hits or stays; a duplicate busts (round score 0), a
//!   seventh different number ends the round with the number sum plus the
//!   Flip 7 bonus, a stay banks the number sum.
//! - **The game** ends after a round in which a total reaches the target
//!   (200). The highest total wins. A tie for the lead at the target or
//!   above is settled by [`Ties`]: played on ([`Ties::PlayOn`], as `sim`'s
//!   rules play it, the rule text asking for a single winner) or split
//!   ([`Ties::Split`], half a win each, as the published analysis of this
//!   model counts it).
//!
//! # What is computed
//!
//! - [`NumberDeck::round`]: the exact distribution of a round's score
//!   under any Hit/Stay rule on the numbers held.
//! - [`duel`]: `W(a, b)`, the chance that the player at total `a` wins
//!   against the opponent at `b`, both playing rules given per cell.
//! - [`best_response`]: the same against a given opponent when the player
//!   picks, at every pair of totals, the round rule that maximises its
//!   chance to win: a finite Markov decision problem over the numbers
//!   held, whose utility of a round score `x` is the chance to win from
//!   the totals after the round. A round where both score 0 comes back to
//!   the same totals, so a cell's utility of 0 contains the cell's own
//!   value: [`best_cell`] finds that fixed point by Newton steps, each a
//!   fixed round policy's exact linear equation, until the policy repeats.
//! - [`rounds_to_target`]: the expected rounds a solo player needs.

use super::cards::{KINDS, MAX_NUMBER};
use super::policies::{Policy, Rule};
use super::rules::{Arrangement, FLIP7_BONUS, FLIP7_CARDS, Hand, Rules, Status, Table};

/// Number kinds (0 to 12).
const NUMBERS: usize = MAX_NUMBER as usize + 1;

/// Sets of numbers held.
pub(super) const MASKS: usize = 1 << NUMBERS;

/// Differences of chance to win below this count as ties (and a tie stays).
const TIE: f64 = 1e-13;

/// How a tie for the lead at or above the target ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    /// Another round is played until one total leads alone (`sim`'s rules).
    PlayOn,
    /// Every tied leader wins an equal share (the published analysis).
    Split,
}

impl Ties {
    /// The flag value of each reading: `play-on`, `split`.
    pub const ACCEPTED: &'static str = "play-on (sim's rules: another round until one total leads) or split (a tie at the top counts as half a win)";

    /// The flag's word: `play-on` or `split` (also in folder names).
    pub fn word(self) -> &'static str {
        match self {
            Ties::PlayOn => "play-on",
            Ties::Split => "split",
        }
    }

    /// How a summary says it: a tie at the top is `played on` or `split`.
    pub fn said(self) -> &'static str {
        match self {
            Ties::PlayOn => "played on",
            Ties::Split => "split",
        }
    }

    /// Parses `play-on` or `split`.
    pub fn parse(text: &str) -> Result<Ties, String> {
        match text {
            "play-on" => Ok(Ties::PlayOn),
            "split" => Ok(Ties::Split),
            _ => Err(format!("'{text}': expected {}", Ties::ACCEPTED)),
        }
    }
}

/// The distribution of one round's score.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundScores {
    /// `pmf[x]`: the chance that the round scores exactly `x` (a bust
    /// counts as 0).
    pub pmf: Vec<f64>,
    /// The chance that the round ends in a bust.
    pub bust: f64,
}

impl RoundScores {
    /// The expected round score.
    pub fn mean(&self) -> f64 {
        self.pmf.iter().enumerate().map(|(x, p)| x as f64 * p).sum()
    }

    /// The chance of a score of exactly `x` (0 beyond the largest).
    #[inline]
    pub fn at(&self, x: usize) -> f64 {
        self.pmf.get(x).copied().unwrap_or(0.0)
    }

    /// The chance of a score below `x`.
    pub fn below(&self, x: usize) -> f64 {
        self.pmf[..x.min(self.pmf.len())].iter().sum()
    }
}

/// A deck of number cards only, with the round's states: every set of
/// numbers a player can hold.
#[derive(Clone, Debug)]
pub struct NumberDeck {
    counts: [u32; NUMBERS],
    total: u32,
    /// `inv_left[k]`: 1 / the cards left after `k` numbers are drawn.
    inv_left: Vec<f64>,
    /// The draws from each set: `next[first[m]..first[m + 1]]`, each a
    /// new number's set and its chance (the solver's inner loop).
    first: Vec<u32>,
    next: Vec<(u16, f64)>,
    /// The chance that the next card busts each set.
    busts: Vec<f64>,
    /// Sets of at most [`FLIP7_CARDS`] numbers the deck holds, by size.
    order: Vec<u16>,
    /// The score of each set when the round ends with it.
    score: Vec<u16>,
}

impl NumberDeck {
    /// The number cards of `composition`; refused when it holds modifiers
    /// or action cards (this model plays numbers only).
    pub fn new(composition: &[u8; KINDS]) -> Result<NumberDeck, String> {
        if composition[NUMBERS..].iter().any(|&c| c > 0) {
            return Err("the game solver plays number cards only (give --without actions,modifiers)".into());
        }
        let mut counts = [0u32; NUMBERS];
        for (c, &k) in counts.iter_mut().zip(composition) {
            *c = u32::from(k);
        }
        let total: u32 = counts.iter().sum();
        let mut order: Vec<u16> = (0..MASKS as u16)
            .filter(|&m| m.count_ones() <= FLIP7_CARDS && (0..NUMBERS).all(|n| m & (1 << n) == 0 || counts[n] > 0))
            .collect();
        order.sort_by_key(|m| m.count_ones());
        let score = (0..MASKS as u16)
            .map(|m| {
                let sum: u16 = (0..NUMBERS as u16).filter(|n| m & (1 << n) != 0).sum();
                if m.count_ones() == FLIP7_CARDS { sum + FLIP7_BONUS } else { sum }
            })
            .collect();
        let inv_left = (0..=FLIP7_CARDS).map(|k| 1.0 / f64::from(total.saturating_sub(k).max(1))).collect();
        let mut deck = NumberDeck {
            counts,
            total,
            inv_left,
            first: Vec::new(),
            next: Vec::new(),
            busts: Vec::new(),
            order,
            score,
        };
        let (mut first, mut next, mut busts) = (vec![0u32; MASKS + 1], Vec::new(), vec![0.0; MASKS]);
        for m in 0..MASKS as u16 {
            first[usize::from(m)] = next.len() as u32;
            if m.count_ones() < FLIP7_CARDS && deck.total > m.count_ones() {
                deck.each_draw(m, |n, q| next.push((m | (1 << n), q)));
                busts[usize::from(m)] = deck.bust_chance(m);
            }
        }
        first[MASKS] = next.len() as u32;
        (deck.first, deck.next, deck.busts) = (first, next, busts);
        Ok(deck)
    }

    /// The draws from `mask` that add a number: each new set and its chance.
    #[inline]
    fn draws_from(&self, mask: u16) -> &[(u16, f64)] {
        let m = usize::from(mask);
        &self.next[self.first[m] as usize..self.first[m + 1] as usize]
    }

    /// The highest score a round can make.
    pub fn max_score(&self) -> usize {
        self.order.iter().map(|&m| usize::from(self.score[usize::from(m)])).max().unwrap_or(0)
    }

    /// The sum of the numbers of `mask` (its score when the player stays).
    #[inline]
    pub fn sum(&self, mask: u16) -> u16 {
        self.score[usize::from(mask)]
    }

    /// Calls `f(number, chance)` for each number the next card can be
    /// that `mask` does not hold; the rest of the chance busts
    /// ([`NumberDeck::bust_chance`]). Made once, into `next`.
    fn each_draw(&self, mask: u16, mut f: impl FnMut(usize, f64)) {
        let inv = self.inv_left[mask.count_ones() as usize];
        let mut free = !mask & ((1 << NUMBERS) - 1);
        while free != 0 {
            let n = free.trailing_zeros() as usize;
            free &= free - 1;
            if self.counts[n] > 0 {
                f(n, f64::from(self.counts[n]) * inv);
            }
        }
    }

    /// The chance that the next card repeats a number of `mask`.
    #[inline]
    fn bust_chance(&self, mask: u16) -> f64 {
        let mut busting = 0;
        let mut held = mask;
        while held != 0 {
            busting += self.counts[held.trailing_zeros() as usize] - 1;
            held &= held - 1;
        }
        f64::from(busting) * self.inv_left[mask.count_ones() as usize]
    }

    /// Whether a round holding `mask` is over whatever the player wants.
    #[inline]
    fn ends(&self, mask: u16) -> bool {
        mask.count_ones() == FLIP7_CARDS || self.total == mask.count_ones()
    }

    /// The exact distribution of a round's score when the player hits
    /// exactly where `hit(mask)` says (the first card is always dealt).
    pub fn round(&self, hit: impl Fn(u16) -> bool) -> RoundScores {
        let mut prob = vec![0.0f64; MASKS];
        let mut pmf = vec![0.0f64; self.max_score() + 1];
        let mut bust = 0.0;
        prob[0] = 1.0;
        for &mask in &self.order {
            let p = prob[usize::from(mask)];
            if p == 0.0 {
                continue;
            }
            if self.ends(mask) || (mask != 0 && !hit(mask)) {
                pmf[usize::from(self.sum(mask))] += p;
                continue;
            }
            bust += p * self.busts[usize::from(mask)];
            for &(to, q) in self.draws_from(mask) {
                prob[usize::from(to)] += p * q;
            }
        }
        pmf[0] += bust;
        RoundScores { pmf, bust }
    }

    /// The round rule that maximises the expected utility `u[x]` of the
    /// round's score `x` (`u` long enough for [`NumberDeck::max_score`]):
    /// its value from the fresh deck, with `hit[mask]` set where it hits.
    pub fn best(&self, u: &[f64], hit: &mut [bool]) -> f64 {
        let mut value = vec![0.0f64; MASKS];
        for &mask in self.order.iter().rev() {
            let m = usize::from(mask);
            let stay = u[usize::from(self.sum(mask))];
            if self.ends(mask) {
                value[m] = stay;
                hit[m] = false;
                continue;
            }
            let mut h = u[0] * self.busts[m];
            for &(to, q) in self.draws_from(mask) {
                h += q * value[usize::from(to)];
            }
            hit[m] = mask == 0 || h > stay + TIE;
            value[m] = if hit[m] { h } else { stay };
        }
        value[0]
    }

    /// The score maximiser: hits where that raises the expected score.
    pub fn greedy(&self) -> Vec<bool> {
        let u: Vec<f64> = (0..=self.max_score()).map(|x| x as f64).collect();
        let mut hit = vec![false; MASKS];
        self.best(&u, &mut hit);
        hit
    }
}

/// The rounds of a player of the field in the model: the distinct round
/// score distributions, and which one it plays at each pair of totals.
#[derive(Clone, Debug)]
pub struct Field {
    /// Each distinct round the field plays.
    pub rounds: Vec<RoundScores>,
    /// `pick[own * target + other]`: the round played at those totals.
    pick: Vec<u32>,
    target: usize,
}

impl Field {
    /// One round at every pair of totals.
    pub fn constant(target: usize, round: RoundScores) -> Field {
        Field {
            rounds: vec![round],
            pick: vec![0; target * target],
            target,
        }
    }

    /// The round played at the player's own total `own` against `other`.
    #[inline]
    pub fn at(&self, own: usize, other: usize) -> &RoundScores {
        &self.rounds[self.index_at(own, other)]
    }

    /// Which of [`Field::rounds`] is played at `own` against `other`.
    #[inline]
    pub fn index_at(&self, own: usize, other: usize) -> usize {
        self.pick[own.min(self.target - 1) * self.target + other.min(self.target - 1)] as usize
    }

    /// Whether the model can play `policy`: `Ok(true)` when its rounds
    /// change with the totals (one question per score and cell), `Ok(false)`
    /// when they do not, and the reason when the model cannot play it.
    pub fn solvable(policy: &Policy) -> Result<bool, String> {
    Ok(match policy.rule {
        Rule::StayAt(_)
        | Rule::Cards(_)
        | Rule::BustProb(_)
        | Rule::Ev
        | Rule::StayAtNumbers(_)
        | Rule::OptimalRound => false,
        Rule::Endgame(_) | Rule::Chase { .. } => true,
        _ => {
            return Err(
                "its rounds depend on what the model's rounds hide (the others' cards) or on its own random \
                 numbers or search; the model plays rules that decide from the player's own cards and the totals: \
                 stay-at-N, stay-at-numbers-N, cards-N, bust-prob:P, ev, optimal-round, endgame:N, chase:BASE/SLOPE \
                 (and the strategies made of them)"
                    .into(),
            );
        }
    })
    }

    /// The field playing `policy` in the model: its Hit or Stay asked of
    /// a table where it holds each set of numbers at the pair of totals,
    /// alone in the round, the other player's round unseen. A policy whose
    /// rounds depend on more than its cards and the totals (the others'
    /// cards, its own random numbers, a search) is refused with a reason.
    pub fn of(policy: &Policy, deck: &NumberDeck, composition: &[u8; KINDS], target: usize) -> Result<Field, String> {
        let per_cell = Field::solvable(policy)?;
        let ask = |mask: u16, own: usize, other: usize| -> bool {
            let numbers: Vec<u8> = (0..NUMBERS as u8).filter(|n| mask & (1 << n) != 0).collect();
            let mine = Hand::holding(&numbers, 0, 0, false).in_front(Status::Active, numbers.len() as u8);
            let theirs = Hand::default().in_front(Status::Stayed, 0);
            let mut in_play = [0u8; KINDS];
            for &n in &numbers {
                in_play[usize::from(n)] = 1;
            }
            let rules = Rules {
                players: 2,
                composition: *composition,
                single_round: false,
                fresh_deck: false,
            };
            let arrangement = Arrangement {
                round: 1,
                totals: &[own as u32, other as u32],
                hands: &[mine, theirs],
                discard: [0; KINDS],
                in_play,
                pending: &[],
            };
            let table = Table::arranged(rules, &arrangement).expect("a hand of the deck's own numbers");
            policy.hit(&table, 0)
        };
        let rule_at = |own: usize, other: usize| -> Vec<bool> {
            let mut hit = vec![false; MASKS];
            for &m in &deck.order {
                if m != 0 && !deck.ends(m) {
                    hit[usize::from(m)] = ask(m, own, other);
                }
            }
            hit
        };
        if !per_cell {
            let hit = rule_at(0, 0);
            return Ok(Field::constant(target, deck.round(|m| hit[usize::from(m)])));
        }
        // Endgame and chase decide from the score in front and the totals:
        // one question per score, a round per distinct answer.
        let mut first_of_sum: Vec<Option<u16>> = vec![None; deck.max_score() + 1];
        for &m in &deck.order {
            if m != 0 && !deck.ends(m) {
                first_of_sum[usize::from(deck.sum(m))].get_or_insert(m);
            }
        }
        let mut known: std::collections::HashMap<Vec<bool>, u32> = std::collections::HashMap::new();
        let mut rounds = Vec::new();
        let mut pick = vec![0u32; target * target];
        // The questions on two threads; the rounds in cell order.
        use rayon::prelude::*;
        let answers: Vec<Vec<bool>> = (0..target * target)
            .into_par_iter()
            .map(|cell| {
                let (own, other) = (cell / target, cell % target);
                first_of_sum.iter().map(|m| m.is_some_and(|m| ask(m, own, other))).collect()
            })
            .collect();
        for own in 0..target {
            for other in 0..target {
                let by_sum = &answers[own * target + other];
                let next = known.len() as u32;
                let i = *known.entry(by_sum.clone()).or_insert_with(|| {
                    rounds.push(deck.round(|m| by_sum[usize::from(deck.sum(m))]));
                    next
                });
                pick[own * target + other] = i;
            }
        }
        Ok(Field { rounds, pick, target })
    }
}

/// The chance to win of each cell of a two-player grid: `win[a * target + b]`
/// for the player at `a` against the opponent at `b`, both below the target.
#[derive(Clone, Debug)]
pub struct Grid {
    /// The target (200).
    pub target: usize,
    /// `win[a * target + b]`.
    pub win: Vec<f64>,
}

impl Grid {
    /// The chance to win from totals `a` and `b`.
    #[inline]
    pub fn at(&self, a: usize, b: usize) -> f64 {
        self.win[a * self.target + b]
    }
}

/// The value of totals `a` and `b` once a round has ended there, with
/// `w` the grid so far (for totals below the target) and `tie` the value
/// of a tie at the top.
#[inline]
pub(super) fn after(target: usize, w: &[f64], a: usize, b: usize, tie: f64) -> f64 {
    if a < target && b < target {
        w[a * target + b]
    } else if a > b {
        1.0
    } else if a < b {
        0.0
    } else {
        tie
    }
}

/// What a round score of `x` for the player at totals `(a, b)` is worth,
/// over the opponent's round `d2` (both scoring 0 left out: the cell's own
/// value, which the caller solves for).
#[inline]
fn worth(target: usize, w: &[f64], (a, b): (usize, usize), x: usize, d2: &RoundScores, tie: f64) -> f64 {
    d2.pmf
        .iter()
        .enumerate()
        .filter(|&(y, _)| x + y > 0)
        .map(|(y, &q)| q * after(target, w, a + x, b + y, tie))
        .sum()
}

/// The chance to win a tie at the top (equal totals at the target or
/// above) when the player's rounds score by `me` and the opponent's by
/// `opp`.
pub fn tie_value(ties: Ties, me: &RoundScores, opp: &RoundScores) -> f64 {
    match ties {
        Ties::Split => 0.5,
        Ties::PlayOn => {
            let (mut ahead, mut level) = (0.0, 0.0);
            for (x, &p) in me.pmf.iter().enumerate() {
                ahead += p * opp.below(x);
                level += p * opp.at(x);
            }
            ahead / (1.0 - level)
        }
    }
}

/// `W(a, b)` for every pair of totals below `target`, when the player's
/// round at totals `(a, b)` scores by `me(a, b)` and the opponent's by
/// `opp(b, a)` (its own total first).
pub fn duel<'a>(
    target: usize,
    ties: Ties,
    me: &dyn Fn(usize, usize) -> &'a RoundScores,
    opp: &dyn Fn(usize, usize) -> &'a RoundScores,
) -> Grid {
    let mut w = vec![0.0f64; target * target];
    let tie = tie_value(ties, me(target - 1, target - 1), opp(target - 1, target - 1));
    for a in (0..target).rev() {
        for b in (0..target).rev() {
            let (d1, d2) = (me(a, b), opp(b, a));
            let mut num = 0.0;
            for (x, &p) in d1.pmf.iter().enumerate() {
                if p == 0.0 {
                    continue;
                }
                num += p * worth(target, &w, (a, b), x, d2, tie);
            }
            w[a * target + b] = num / (1.0 - d1.at(0) * d2.at(0));
        }
    }
    Grid { target, win: w }
}

/// The best response at one cell: its chance to win and its round.
#[derive(Clone, Debug)]
pub struct BestCell {
    /// The chance to win with the best round rule.
    pub win: f64,
    /// The best round rule's score distribution.
    pub round: RoundScores,
}

/// The best round rule when a round score `x` is worth `known[x] +
/// coef[x] * w` and `w` is the value being found (the cell's own chance to
/// win): Newton steps from `guess`, each solving the fixed rule's linear
/// equation, until the value settles.
pub fn best_cell(deck: &NumberDeck, known: &[f64], coef: &[f64], guess: f64) -> BestCell {
    let mut hit = vec![false; MASKS];
    let mut last: Option<(Vec<bool>, RoundScores, f64)> = None;
    let mut w = guess;
    let mut u = vec![0.0; known.len()];
    for _ in 0..64 {
        for ((u, k), c) in u.iter_mut().zip(known).zip(coef) {
            *u = k + c * w;
        }
        let value = deck.best(&u, &mut hit);
        if let Some((rule, round, s)) = &last
            && *rule == hit
        {
            // The rule is its own best response at its own value.
            return BestCell {
                win: (value - s * w) / (1.0 - s),
                round: round.clone(),
            };
        }
        let round = deck.round(|m| hit[usize::from(m)]);
        let s: f64 = round.pmf.iter().zip(coef).map(|(p, c)| p * c).sum();
        w = (value - s * w) / (1.0 - s);
        last = Some((hit.clone(), round, s));
    }
    let (_, round, _) = last.expect("at least one step");
    BestCell { win: w, round }
}

/// The best response's grid against `opp(b, a)`, with its round at every
/// cell (`rounds[a * target + b]`).
pub struct BestResponse {
    /// Its chance to win.
    pub grid: Grid,
    /// Its round at each cell (`rounds[a * target + b]`).
    pub rounds: Vec<RoundScores>,
}

/// The exact best response against an opponent whose rounds score by
/// `opp(b, a)`: at every pair of totals, the round rule that maximises
/// the chance to win the game. Cells of one diagonal (`a + b`) are solved
/// in parallel, each needing only higher diagonals.
pub fn best_response<'a>(
    deck: &NumberDeck,
    target: usize,
    ties: Ties,
    opp: &(dyn Fn(usize, usize) -> &'a RoundScores + Sync),
) -> BestResponse {
    let xs = deck.max_score() + 1;
    let top = opp(target - 1, target - 1);
    // A tie at the top: every score's worth is fixed but for a tie again.
    let tie = match ties {
        Ties::Split => 0.5,
        Ties::PlayOn => {
            let known: Vec<f64> = (0..xs).map(|x| top.below(x)).collect();
            let coef: Vec<f64> = (0..xs).map(|x| top.at(x)).collect();
            best_cell(deck, &known, &coef, 0.5).win
        }
    };
    let (grid, rounds) = by_diagonals(target, xs, tie, opp, |a, b, known, w| {
        let mut coef = vec![0.0; xs];
        coef[0] = opp(b, a).at(0);
        let guess = if a + 1 < target { w[(a + 1) * target + b] } else { 0.5 };
        let cell = best_cell(deck, known, &coef, guess);
        (cell.win, cell.round)
    });
    BestResponse { grid, rounds }
}

/// Solves every pair of totals below `target` from the last diagonal
/// (`a + b`) back, the cells of one diagonal in parallel, each needing
/// only higher diagonals: `cell(a, b, known, w)` gives the chance to win
/// at `(a, b)` and what the cell keeps, from `known[x]`, the chance after
/// a round scoring `x` but for the round where both score 0 (which plays
/// the cell again), against `opp(b, a)`; `w` holds the chances of the
/// higher diagonals.
fn by_diagonals<'a, T: Send>(
    target: usize,
    xs: usize,
    tie: f64,
    opp: &(dyn Fn(usize, usize) -> &'a RoundScores + Sync),
    cell: impl Fn(usize, usize, &[f64], &[f64]) -> (f64, T) + Sync,
) -> (Grid, Vec<T>) {
    use rayon::prelude::*;
    let mut w = vec![0.0f64; target * target];
    let mut kept: Vec<Option<T>> = (0..target * target).map(|_| None).collect();
    for s in (0..=2 * (target - 1)).rev() {
        let lo = s.saturating_sub(target - 1);
        let hi = s.min(target - 1);
        let solved: Vec<(usize, (f64, T))> = (lo..hi + 1)
            .into_par_iter()
            .with_min_len(4)
            .map(|a| {
                let b = s - a;
                let d2 = opp(b, a);
                let known: Vec<f64> = (0..xs).map(|x| worth(target, &w, (a, b), x, d2, tie)).collect();
                (a, cell(a, b, &known, &w))
            })
            .collect();
        for (a, (win, k)) in solved {
            let i = a * target + (s - a);
            w[i] = win;
            kept[i] = Some(k);
        }
    }
    let kept = kept.into_iter().map(|k| k.expect("every cell solved")).collect();
    (Grid { target, win: w }, kept)
}

/// The best response among fixed round rules: at every pair of totals,
/// the rule of `menu` (each by its round's score distribution) that
/// maximises the chance to win against an opponent whose rounds score by
/// `opp(b, a)`. A lower bound of [`best_response`]'s chance, which may
/// take any rule at each pair; `choice[a * target + b]` is the index in
/// `menu` of the rule taken there.
pub struct BestAmong {
    /// Its chance to win.
    pub grid: Grid,
    /// The rule taken at each pair of totals (`choice[a * target + b]`).
    pub choice: Vec<u16>,
}

/// [`BestAmong`] for `menu` (not empty, at most 65,536 rules) against
/// `opp(b, a)`. A cell's chance with rule `r` is `K_r / (1 - p_r(0) q(0))`
/// (`K_r` the chance over the round's scores but the one where both score
/// 0, which plays the cell again); each cell needs only higher diagonals.
pub fn best_among<'a>(
    menu: &[RoundScores],
    target: usize,
    ties: Ties,
    opp: &(dyn Fn(usize, usize) -> &'a RoundScores + Sync),
) -> BestAmong {
    assert!(!menu.is_empty() && menu.len() <= 1 << 16);
    let xs = menu.iter().map(|r| r.pmf.len()).max().unwrap_or(1);
    let top = opp(target - 1, target - 1);
    // A tie at the top: the same tie again until it is broken, so one rule.
    let tie = match ties {
        Ties::Split => 0.5,
        Ties::PlayOn => menu.iter().map(|r| tie_value(ties, r, top)).fold(0.0, f64::max),
    };
    let (grid, choice) = by_diagonals(target, xs, tie, opp, |a, b, known, _| {
        let q0 = opp(b, a).at(0);
        let (mut best, mut at) = (f64::NEG_INFINITY, 0u16);
        for (r, round) in menu.iter().enumerate() {
            let k: f64 = round.pmf.iter().zip(known).map(|(p, k)| p * k).sum();
            let win = k / (1.0 - round.at(0) * q0);
            if win > best {
                (best, at) = (win, r as u16);
            }
        }
        (best, at)
    });
    BestAmong { grid, choice }
}

/// `W(a, b, c)` at three players: the chance that the player at `a` wins
/// against two opponents at `b` and `c`, all three playing rounds scored
/// by `d`, a tie for the lead at the target or above shared out equally
/// (`1 / k` to each of `k` leaders; [`Ties::Split`]). Indexed
/// `(a * target + b) * target + c`.
///
/// The three sums over the round scores are taken one at a time over
/// totals that run past the target by a round's largest score: `A` sums
/// over the second opponent's score, `B` over the first's, `W` over the
/// player's, each cell needing only cells further on, but for the round
/// where all three score 0, solved in closed form.
pub fn trio(target: usize, d: &RoundScores) -> Vec<f64> {
    let t = target;
    let xs = d.pmf.len();
    let e = t + xs;
    let d0 = d.at(0);
    let end = |a: usize, b: usize, c: usize| -> f64 {
        let top = a.max(b).max(c);
        if a < top { 0.0 } else { 1.0 / f64::from(1 + u8::from(b == top) + u8::from(c == top)) }
    };
    let mut w = vec![0.0f64; t * t * t];
    let mut sum_c = vec![0.0f64; e * e * t];
    let mut sum_bc = vec![0.0f64; e * t * t];
    for a in (0..e).rev() {
        for b in (0..e).rev() {
            for c in (0..t).rev() {
                let mut rest_c = 0.0;
                for z in 1..xs {
                    let cz = c + z;
                    let v = if a < t && b < t && cz < t { w[(a * t + b) * t + cz] } else { end(a, b, cz) };
                    rest_c += d.pmf[z] * v;
                }
                let live = a < t && b < t;
                let rest_b = if b < t { (1..xs).map(|y| d.pmf[y] * sum_c[(a * e + b + y) * t + c]).sum() } else { 0.0 };
                let here = if live {
                    let rest_a: f64 = (1..xs).map(|x| d.pmf[x] * sum_bc[((a + x) * t + b) * t + c]).sum();
                    let v = (rest_a + d0 * rest_b + d0 * d0 * rest_c) / (1.0 - d0 * d0 * d0);
                    w[(a * t + b) * t + c] = v;
                    v
                } else {
                    end(a, b, c)
                };
                let ac = d0 * here + rest_c;
                sum_c[(a * e + b) * t + c] = ac;
                if b < t {
                    sum_bc[(a * t + b) * t + c] = d0 * ac + rest_b;
                }
            }
        }
    }
    w
}

/// The expected number of rounds a solo player whose rounds score by `d`
/// needs to reach `target`.
pub fn rounds_to_target(target: usize, d: &RoundScores) -> f64 {
    let mut e = vec![0.0f64; target + 1];
    for c in (0..target).rev() {
        let on: f64 = (1..d.pmf.len()).map(|s| d.pmf[s] * e[(c + s).min(target)]).sum();
        e[c] = (1.0 + on) / (1.0 - d.at(0));
    }
    e[0]
}

/// The model's deck and the score maximiser's round, for the tests of the
/// game solvers.
#[cfg(test)]
pub(super) mod fixtures {
    use super::{NumberDeck, RoundScores};
    use crate::games::flip7::cards::{Without, composition};

    /// The number cards of the rules' deck.
    pub fn deck() -> NumberDeck {
        NumberDeck::new(&composition(1, Without::parse("actions,modifiers").unwrap())).unwrap()
    }

    /// That deck and the round of its score maximiser.
    pub fn greedy_round() -> (NumberDeck, RoundScores) {
        let d = deck();
        let g = d.greedy();
        let r = d.round(|m| g[usize::from(m)]);
        (d, r)
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{deck, greedy_round};
    use super::*;
    use crate::games::flip7::cards::{Without, composition};

    #[test]
    fn the_score_maximiser_round_matches_the_solo_solver() {
        let (_, r) = greedy_round();
        assert!((r.mean() - 18.5652176141).abs() < 1e-9, "{}", r.mean());
        assert!((r.pmf.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!((r.bust - 0.3134964608).abs() < 1e-9, "{}", r.bust);
    }

    /// The published figures of the model (numbers only, ties split).
    #[test]
    fn published_grid_of_the_score_maximiser() {
        let (_, r) = greedy_round();
        let g = duel(200, Ties::Split, &|_, _| &r, &|_, _| &r);
        assert!((g.at(0, 0) - 0.5).abs() < 1e-12, "{}", g.at(0, 0));
        for (a, b, exact) in [
            (18, 0, 0.6258608530),
            (118, 100, 0.6621202292),
            (180, 162, 0.8231672233),
            (0, 18, 0.3741391470),
            (190, 0, 0.9999762739),
        ] {
            assert!((g.at(a, b) - exact).abs() < 1e-9, "W({a}, {b}) = {}", g.at(a, b));
        }
    }

    #[test]
    fn one_policy_each_side_shares_the_game_out() {
        let (_, r) = greedy_round();
        for ties in [Ties::Split, Ties::PlayOn] {
            let g = duel(120, ties, &|_, _| &r, &|_, _| &r);
            for a in (0..120).step_by(7) {
                for b in (0..120).step_by(5) {
                    assert!((g.at(a, b) + g.at(b, a) - 1.0).abs() < 1e-12, "{ties:?} {a} {b}");
                }
            }
        }
    }

    #[test]
    fn published_best_response_to_the_score_maximiser() {
        let (d, r) = greedy_round();
        let br = best_response(&d, 200, Ties::Split, &|_, _| &r);
        for (a, b, exact) in [
            (0, 0, 0.5593448823),
            (18, 0, 0.6820613337),
            (100, 100, 0.5586489858),
            (110, 160, 0.1083074736),
            (180, 162, 0.8913434432),
            (199, 199, 0.5854682845),
        ] {
            let w = br.grid.at(a, b);
            assert!((w - exact).abs() < 1e-9, "W_br({a}, {b}) = {w}");
        }
        // Behind at 110 against 160 it busts far more than when ahead.
        let bust_behind = br.rounds[110 * 200 + 160].bust;
        let bust_ahead = br.rounds[110 * 200 + 60].bust;
        assert!((bust_behind - 0.567).abs() < 5e-4 && (bust_ahead - 0.211).abs() < 5e-4);
    }

    /// Switching among the thresholds by the totals is a rule the exact
    /// best response may take at every cell, so it never wins more (and
    /// here takes most of its edge); a menu of the field's own round alone
    /// is the field against itself.
    #[test]
    fn the_best_threshold_by_the_totals_is_below_the_best_response() {
        let (d, r) = greedy_round();
        for ties in [Ties::Split, Ties::PlayOn] {
            let br = best_response(&d, 60, ties, &|_, _| &r);
            let stays: Vec<RoundScores> = (0..=d.max_score()).map(|n| d.round(|m| usize::from(d.sum(m)) < n)).collect();
            let among = best_among(&stays, 60, ties, &|_, _| &r);
            for i in 0..60 * 60 {
                assert!(among.grid.win[i] <= br.grid.win[i] + 1e-12, "{ties:?} cell {i}");
            }
            let (edge, part) = (br.grid.at(0, 0) - 0.5, among.grid.at(0, 0) - 0.5);
            assert!(part > 0.8 * edge && part < edge, "{ties:?}: {part} of {edge}");
            // Behind near the end it stays later than ahead.
            let stay = |a: usize, b: usize| among.choice[a * 60 + b];
            assert!(stay(30, 55) > stay(55, 30), "{} against {}", stay(30, 55), stay(55, 30));
            let alone = best_among(std::slice::from_ref(&r), 60, ties, &|_, _| &r);
            let fair = duel(60, ties, &|_, _| &r, &|_, _| &r);
            for i in 0..60 * 60 {
                assert!((alone.grid.win[i] - fair.win[i]).abs() < 1e-12, "{ties:?} cell {i}");
            }
        }
    }

    #[test]
    fn published_rounds_to_two_hundred_alone() {
        let (_, r) = greedy_round();
        assert!((rounds_to_target(200, &r) - 11.5133577238).abs() < 1e-9);
        assert!((rounds_to_target(100, &r) - 5.9524436753).abs() < 1e-9);
    }

    fn numbers_only() -> [u8; KINDS] {
        composition(1, Without::parse("actions,modifiers").unwrap())
    }

    #[test]
    fn the_field_asks_the_policy_itself() {
        let d = deck();
        let field = |spec: &str| Field::of(&Policy::parse(spec).unwrap(), &d, &numbers_only(), 200).unwrap();
        let (_, greedy) = greedy_round();
        assert_eq!(field("optimal-round").at(0, 0), &greedy);
        let f = field("stay-at-25");
        assert_eq!(f.rounds.len(), 1);
        assert_eq!(f.at(3, 150), &d.round(|m| d.sum(m) < 25));
        assert!((f.at(0, 0).mean() - 18.4061).abs() < 5e-5, "{}", f.at(0, 0).mean());
        // endgame:25 banks what wins the game and chases a close leader.
        let e = field("endgame:25");
        assert_eq!(e.at(0, 0), &d.round(|m| d.sum(m) < 25));
        assert_eq!(e.at(190, 0), &d.round(|m| d.sum(m) < 10));
        assert!(e.at(100, 190).mean() < e.at(100, 100).mean());
        let err = Field::of(&Policy::parse("max-win").unwrap(), &d, &numbers_only(), 200).unwrap_err();
        assert!(err.contains("the others' cards"), "{err}");
    }

    /// Three players of one rule share every game out (the three chances
    /// to win add up to 1 from any totals), so W(0, 0, 0) = 1/3.
    #[test]
    fn three_players_of_one_rule_share_the_game_out() {
        let (_, r) = greedy_round();
        let t = 60;
        let w = trio(t, &r);
        let at = |a: usize, b: usize, c: usize| w[(a * t + b) * t + c];
        assert!((at(0, 0, 0) - 1.0 / 3.0).abs() < 1e-12, "{}", at(0, 0, 0));
        for (a, b, c) in [(0, 10, 20), (59, 0, 30), (25, 25, 50), (40, 41, 3)] {
            let sum = at(a, b, c) + at(b, a, c) + at(c, a, b);
            assert!((sum - 1.0).abs() < 1e-12, "({a}, {b}, {c}): {sum}");
            assert!((at(a, b, c) - at(a, c, b)).abs() < 1e-12);
        }
        // Ahead of both, more than a third; behind both, less.
        assert!(at(30, 0, 0) > 0.5 && at(0, 30, 30) < 0.2);
    }

    #[test]
    fn a_deck_with_modifiers_is_refused() {
        let err = NumberDeck::new(&composition(1, Without::default())).unwrap_err();
        assert!(err.contains("--without actions,modifiers"), "{err}");
    }
}
