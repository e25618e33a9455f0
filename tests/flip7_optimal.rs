//! The exact round-optimum engine (`optimal`) and the solo-round solver
//! (`solve`): engine against solver, against a brute force over every order
//! of a small pile, against the real rules engine over every order of a
//! small deck, and against simulation of whole decks.
//!
//! Run with `cargo test --release` (the full-deck tests solve about 85
//! million states). `timing_of_typical_decisions` (ignored) measures
//! decisions per second: `cargo test --release --test integration timing
//! -- --ignored --nocapture`.

use std::time::Instant;

use sim::engine::rng::{Stacked, batch_rng};
use sim::games::flip7::cards::{
    Card, Deck, FLIP_THREE, FREEZE, KINDS, MAX_NUMBER, PLUS2, SECOND_CHANCE, TIMES2, Without, composition,
    plus_value,
};
use sim::games::flip7::optimal::{self, Memo, Rule};
use sim::games::flip7::policies::next_card_counts;
use sim::games::flip7::rules::{Chooser, Hand, Observer, Rules, Silent, Table};
use sim::games::flip7::solve;

/// Plays Hit/Stay with [`optimal::hits`]; Freeze and Flip Three go to the
/// first opponent still in the round clockwise (to the chooser when alone),
/// a spare Second Chance to the first opponent in without one.
struct OptimalRound {
    memo: Memo,
}

impl OptimalRound {
    fn new() -> OptimalRound {
        OptimalRound { memo: Memo::new() }
    }
}

fn first_opponent(t: &Table, from: usize, ok: impl Fn(usize) -> bool) -> Option<usize> {
    let n = t.players();
    (1..n).map(|i| (from + i) % n).find(|&s| t.is_active(s) && ok(s))
}

impl Chooser for OptimalRound {
    fn hit(&mut self, t: &Table, seat: usize) -> bool {
        optimal::hits(t, seat, &mut self.memo)
    }
    fn target(&mut self, t: &Table, chooser: usize, _card: Card) -> usize {
        first_opponent(t, chooser, |_| true).unwrap_or(chooser)
    }
    fn second_chance_to(&mut self, t: &Table, holder: usize) -> Option<usize> {
        first_opponent(t, holder, |s| !t.hand(s).second_chance)
    }
}

/// Sums the round scores of seat 0.
#[derive(Default)]
struct RoundScores {
    rounds: u64,
    sum: f64,
    sum_sq: f64,
}

impl Observer<Table> for RoundScores {
    const EVENTS: bool = false;
    fn round_end(&mut self, t: &Table) {
        let x = f64::from(t.hand(0).score());
        self.rounds += 1;
        self.sum += x;
        self.sum_sq += x * x;
    }
}

impl RoundScores {
    fn mean(&self) -> f64 {
        self.sum / self.rounds as f64
    }
    fn stderr(&self) -> f64 {
        let n = self.rounds as f64;
        let var = (self.sum_sq - self.sum * self.sum / n) / (n - 1.0);
        (var / n).sqrt()
    }
}

fn solo_rules(comp: [u8; KINDS]) -> Rules {
    Rules {
        players: 1,
        composition: comp,
        single_round: true,
        fresh_deck: false,
    }
}

fn numbers_only() -> [u8; KINDS] {
    composition(1, Without::parse("actions,modifiers").unwrap())
}

fn full_deck() -> [u8; KINDS] {
    composition(1, Without::default())
}

/// The solver's answer for the full deck (a few seconds), computed once for
/// every test of this module that needs it.
fn full_deck_solved() -> &'static solve::SoloRound {
    static SOLVED: std::sync::OnceLock<solve::SoloRound> = std::sync::OnceLock::new();
    SOLVED.get_or_init(|| solve::optimal(&full_deck()).unwrap())
}

fn deck(cards: &[Card]) -> [u8; KINDS] {
    let mut c = [0; KINDS];
    for &k in cards {
        c[k as usize] += 1;
    }
    c
}

// ---------------------------------------------------------------------------
// Engine against solver.

/// The value of hitting at a fresh table (nothing dealt yet): the first card
/// is then the deal, so this is the value of the round.
fn engine_value_at_fresh_table(comp: [u8; KINDS]) -> f64 {
    let t = Table::new(solo_rules(comp));
    optimal::values(&t, 0, &mut Memo::new()).hit
}

#[test]
fn engine_equals_solver_at_the_fresh_number_only_deck() {
    let engine = engine_value_at_fresh_table(numbers_only());
    let solver = solve::optimal(&numbers_only()).unwrap().optimal;
    assert!((engine - solver).abs() < 1e-9, "engine {engine} solver {solver}");
    assert!((solver - 18.5652).abs() < 5e-5, "{solver}");
}

#[test]
fn engine_equals_solver_at_the_fresh_full_deck() {
    let engine = engine_value_at_fresh_table(full_deck());
    let solver = full_deck_solved();
    assert!(
        (engine - solver.optimal).abs() < 1e-9,
        "engine {engine} solver {}",
        solver.optimal
    );
    // Holding 12, 11 and 10 and nothing else: the engine from that state
    // agrees with the solver's decision table.
    let mask = (1 << 12) | (1 << 11) | (1 << 10);
    let h = Hand::holding(&[12, 11, 10], 0, 0, false);
    let mut pile = full_deck();
    for n in [12, 11, 10] {
        pile[n] -= 1;
    }
    let v = optimal::evaluate(&h, &pile, true, Rule::Optimal, &mut Memo::new());
    assert!((v.best() - solver.value[mask]).abs() < 1e-9);
    assert_eq!(v.hits(), solver.hit[mask]);
}

// ---------------------------------------------------------------------------
// Brute force: the model played literally over every order of a small pile.

/// The player's state in the literal model: the hand, and in solo play the
/// Freeze and Flip Three cards waiting and the Flip Three under way.
#[derive(Clone, Debug)]
struct Literal {
    numbers: u16,
    sum: u32,
    count: u32,
    times2: u32,
    plus: u32,
    sc: bool,
    /// Assigned Freeze / Flip Three cards waiting, first in first out.
    queue: Vec<Card>,
    /// Flips left of the Flip Three under way.
    flips: u8,
    /// Cards set aside during it.
    aside: Vec<Card>,
}

enum After {
    Goes(Literal),
    Ends(f64),
}

impl Literal {
    fn from_hand(h: &Hand) -> Literal {
        Literal {
            numbers: h.numbers,
            sum: u32::from(h.number_sum),
            count: u32::from(h.count),
            times2: u32::from(h.times2),
            plus: u32::from(h.plus),
            sc: h.second_chance,
            queue: Vec::new(),
            flips: 0,
            aside: Vec::new(),
        }
    }

    fn banked(&self) -> f64 {
        f64::from((self.sum << self.times2) + self.plus)
    }

    /// A card flipped for the player (a hit, or a flip of a Flip Three).
    fn flip(&self, c: Card, solo: bool) -> After {
        let mut s = self.clone();
        let forced = s.flips > 0;
        if c <= MAX_NUMBER {
            if s.numbers & (1 << c) != 0 {
                if !s.sc {
                    return After::Ends(0.0);
                }
                s.sc = false;
            } else {
                s.numbers |= 1 << c;
                s.sum += u32::from(c);
                s.count += 1;
                if s.count == 7 {
                    return After::Ends(s.banked() + 15.0);
                }
            }
        } else if c == TIMES2 {
            s.times2 += 1;
        } else if c < TIMES2 {
            s.plus += u32::from(plus_value(c));
        } else if c == SECOND_CHANCE {
            s.sc = true; // kept, or a spare passed on: the same either way
        } else if solo {
            if forced {
                s.aside.push(c);
            } else {
                s.queue.push(c);
            }
        } // else: given to an opponent
        if forced {
            s.flips -= 1;
            if s.flips == 0 {
                let aside = std::mem::take(&mut s.aside);
                s.queue.extend(aside);
            }
        }
        // The waiting cards take effect, in order, once no flip is under way.
        while s.flips == 0 && !s.queue.is_empty() {
            if s.queue.remove(0) == FREEZE {
                return After::Ends(s.banked());
            }
            s.flips = 3;
        }
        After::Goes(s)
    }
}

/// Every distinct order of `counts`, in lexicographic order (each equally
/// likely).
fn orders(counts: &mut [u8; KINDS], prefix: &mut Vec<Card>, out: &mut Vec<Vec<Card>>) {
    if counts.iter().all(|&c| c == 0) {
        out.push(prefix.clone());
        return;
    }
    for k in 0..KINDS {
        if counts[k] > 0 {
            counts[k] -= 1;
            prefix.push(k as Card);
            orders(counts, prefix, out);
            prefix.pop();
            counts[k] += 1;
        }
    }
}

/// The expected score from `s` when the orders still possible are `orders`
/// (all sharing their first `pos` cards, already drawn), playing optimally.
fn literal_value(orders: &[Vec<Card>], pos: usize, s: &Literal, solo: bool) -> f64 {
    let draw = literal_draw(orders, pos, s, solo);
    if s.flips > 0 {
        return draw; // a forced flip
    }
    let stay = s.banked();
    if draw > stay + optimal::TIE { draw } else { stay }
}

/// The expected score of flipping the next card from `s`: the orders are
/// grouped by their next card.
fn literal_draw(orders: &[Vec<Card>], pos: usize, s: &Literal, solo: bool) -> f64 {
    if pos == orders[0].len() {
        return s.banked(); // the pile ran out: the player banks
    }
    let mut total = 0.0;
    let mut i = 0;
    while i < orders.len() {
        let c = orders[i][pos];
        let j = i + orders[i..].iter().take_while(|o| o[pos] == c).count();
        let v = match s.flip(c, solo) {
            After::Ends(v) => v,
            After::Goes(next) => literal_value(&orders[i..j], pos + 1, &next, solo),
        };
        total += v * (j - i) as f64;
        i = j;
    }
    total / orders.len() as f64
}

fn brute_force_hit_value(h: &Hand, unseen: &[Card], solo: bool) -> f64 {
    let mut counts = deck(unseen);
    let mut all = Vec::new();
    orders(&mut counts, &mut Vec::new(), &mut all);
    literal_draw(&all, 0, &Literal::from_hand(h), solo)
}

#[test]
fn engine_matches_brute_force_over_every_order_of_small_piles() {
    let (x2, sc, ft, fr) = (TIMES2, SECOND_CHANCE, FLIP_THREE, FREEZE);
    let plus4 = PLUS2 + 1;
    let plus10 = PLUS2 + 4;
    let cases: Vec<(Hand, Vec<Card>)> = vec![
        (
            Hand::holding(&[5], 0, 0, false),
            vec![5, 3, 7, x2, sc, ft, fr, plus4],
        ),
        (
            Hand::holding(&[2, 6], 0, 0, true),
            vec![2, 6, 6, 9, ft, ft, sc, plus10],
        ),
        (Hand::holding(&[], 0, 0, false), vec![1, 1, 4, fr, ft, sc, x2]),
        (
            Hand::holding(&[3], 4, 0, false),
            vec![3, 8, ft, ft, fr, 10, PLUS2, 3],
        ),
        (
            Hand::holding(&[9, 4], 0, 1, false),
            vec![9, 4, 12, sc, sc, ft, fr, fr],
        ),
        (
            Hand::holding(&[0, 1, 2, 3, 4], 0, 0, false),
            vec![5, 6, 2, ft, sc, 1, x2],
        ),
        // Two x2 (two decks), three Second Chances, three Flip Threes.
        (
            Hand::holding(&[6], 0, 0, false),
            vec![6, 6, 11, x2, x2, sc, sc, sc, ft, ft],
        ),
        (
            Hand::holding(&[7, 8], 2, 0, false),
            vec![7, 8, 8, 1, ft, ft, ft, fr, plus4, sc],
        ),
    ];
    for (h, unseen) in &cases {
        for solo in [true, false] {
            let exact = brute_force_hit_value(h, unseen, solo);
            let v = optimal::evaluate(h, &deck(unseen), solo, Rule::Optimal, &mut Memo::new());
            assert!(
                (v.hit - exact).abs() < 1e-9,
                "{h:?} facing {unseen:?} solo {solo}: engine {} brute force {exact}",
                v.hit
            );
            assert_eq!(
                optimal::decide(h, &deck(unseen), solo, &mut Memo::new()),
                v.hits(),
                "{h:?} facing {unseen:?} solo {solo}: bounds and search disagree"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// The real rules engine over every order of a small deck.

/// Plays a solo round of `comp` in every order (each once: all equally
/// likely) with the real rules engine and the optimal chooser; returns the
/// mean score.
fn mean_over_every_order<C: Chooser>(comp: [u8; KINDS], chooser: &mut C) -> f64 {
    let mut counts = comp;
    let mut all = Vec::new();
    orders(&mut counts, &mut Vec::new(), &mut all);
    let mut table = Table::new(solo_rules(comp));
    let mut scores = RoundScores::default();
    for order in &all {
        table.set_deck(Deck::stacked(comp, order));
        table.play_game(chooser, &mut scores, &mut Stacked);
        table.check_invariants().unwrap();
    }
    assert_eq!(scores.rounds, all.len() as u64);
    scores.mean()
}

/// Plays Hit/Stay by `stay-at-N` (Freeze and Flip Three to the chooser: these
/// are solo rounds).
struct StayAt(u16);

impl Chooser for StayAt {
    fn hit(&mut self, t: &Table, seat: usize) -> bool {
        t.hand(seat).banked() < self.0
    }
    fn target(&mut self, _t: &Table, chooser: usize, _card: Card) -> usize {
        chooser
    }
    fn second_chance_to(&mut self, _t: &Table, _holder: usize) -> Option<usize> {
        None
    }
}

/// Small decks whose round always ends before the deck runs out (so that
/// no reshuffle happens): every order played by `rules.rs` with the engine
/// deciding gives exactly the solver's value, and with `stay-at-N` deciding
/// the solver's value of `stay-at-N`. This checks that the model
/// resolves Freeze, Flip Three (also one drawn during another) and Second
/// Chance in solo play as the rules engine does.
#[test]
fn rules_engine_over_every_order_gives_the_solver_values() {
    let (x2, sc, ft, fr) = (TIMES2, SECOND_CHANCE, FLIP_THREE, FREEZE);
    for cards in [
        vec![1, 1, 2, 2, 3, 3, ft, ft, sc, fr],
        vec![4, 4, 4, 7, 7, ft, x2, PLUS2 + 1, sc, fr],
        vec![5, 5, 5, 9, 9, ft, ft, fr, sc],
    ] {
        let comp = deck(&cards);
        let exact = solve::optimal(&comp).unwrap().optimal;
        let mean = mean_over_every_order(comp, &mut OptimalRound::new());
        assert!(
            (mean - exact).abs() < 1e-9,
            "{cards:?}: every order {mean}, solver {exact}"
        );
        for n in [5, 9, 14] {
            let exact = solve::threshold(&comp, n).unwrap();
            let mean = mean_over_every_order(comp, &mut StayAt(n));
            assert!(
                (mean - exact).abs() < 1e-9,
                "{cards:?} stay-at-{n}: every order {mean}, solver {exact}"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Decisions never depend on the order of the unseen pile.

/// Seat 0 plays `optimal-round` and checks at each decision that shuffling
/// the unseen draw pile again does not change it; the others stay at 25.
struct ShuffleCheck {
    optimal: OptimalRound,
    reshuffle: sim::engine::rng::SimRng,
    decisions: u64,
}

impl Chooser for ShuffleCheck {
    fn hit(&mut self, t: &Table, seat: usize) -> bool {
        if seat != 0 {
            return t.hand(seat).banked() < 25;
        }
        let hit = self.optimal.hit(t, seat);
        for _ in 0..3 {
            let mut other = t.clone();
            other.shuffle_draw_pile(&mut self.reshuffle);
            assert_eq!(optimal::hits(&other, seat, &mut Memo::new()), hit);
            if t.hand(seat).count >= 3 {
                // A full search (smaller with more numbers held).
                assert_eq!(optimal::values(&other, seat, &mut Memo::new()).hits(), hit);
            }
        }
        self.decisions += 1;
        hit
    }
    fn target(&mut self, t: &Table, chooser: usize, card: Card) -> usize {
        self.optimal.target(t, chooser, card)
    }
    fn second_chance_to(&mut self, t: &Table, holder: usize) -> Option<usize> {
        self.optimal.second_chance_to(t, holder)
    }
}

#[test]
fn shuffling_the_unseen_pile_never_changes_a_decision() {
    let rules = Rules {
        players: 3,
        composition: full_deck(),
        single_round: false,
        fresh_deck: false,
    };
    let mut table = Table::new(rules);
    let mut check = ShuffleCheck {
        optimal: OptimalRound::new(),
        reshuffle: batch_rng(99, 0),
        decisions: 0,
    };
    for g in 0..6 {
        let mut rng = batch_rng(2024, g);
        table.new_game(&mut rng);
        table.play_game(&mut check, &mut Silent, &mut rng);
    }
    assert!(check.decisions > 100, "{} decisions", check.decisions);
}

// ---------------------------------------------------------------------------
// Simulation against the exact value.

/// Mean round score of `games` solo single-round games played by
/// `optimal-round`, with a memo first filled at the fresh deck (every later
/// state of every game follows from it, so decisions are memo look-ups).
fn simulated_solo_rounds(comp: [u8; KINDS], games: u64, seed: u64) -> RoundScores {
    let mut table = Table::new(solo_rules(comp));
    let mut chooser = OptimalRound::new();
    optimal::evaluate(&Hand::default(), &comp, true, Rule::Optimal, &mut chooser.memo);
    let mut scores = RoundScores::default();
    let mut batch = batch_rng(seed, 0);
    for _ in 0..games {
        let mut rng = sim::engine::rng::game_rng(&mut batch);
        table.new_game(&mut rng);
        table.play_game(&mut chooser, &mut scores, &mut rng);
    }
    scores
}

fn assert_within_4_stderr(scores: &RoundScores, exact: f64, what: &str) {
    let (mean, se) = (scores.mean(), scores.stderr());
    let z = (mean - exact) / se;
    assert!(se > 0.0 && se < 0.05, "{what}: standard error {se}");
    assert!(
        z.abs() < 4.0,
        "{what}: simulated {mean:.4} ± {se:.4} vs exact {exact:.4} ({z:.2} standard errors)"
    );
}

#[test]
fn simulated_number_only_rounds_match_the_exact_optimum() {
    let exact = solve::optimal(&numbers_only()).unwrap().optimal;
    let scores = simulated_solo_rounds(numbers_only(), 1_000_000, 11);
    eprintln!(
        "number-only deck: simulated {:.4} ± {:.4}, exact {exact:.4}",
        scores.mean(),
        scores.stderr()
    );
    assert_within_4_stderr(&scores, exact, "number-only deck");
}

#[test]
fn simulated_full_deck_rounds_match_the_exact_optimum() {
    let exact = full_deck_solved().optimal;
    let scores = simulated_solo_rounds(full_deck(), 300_000, 12);
    eprintln!(
        "full deck: simulated {:.4} ± {:.4}, exact {exact:.4}",
        scores.mean(),
        scores.stderr()
    );
    assert_within_4_stderr(&scores, exact, "full deck");
    // The check can fail: the number-only optimum, 1.7 points lower, is
    // rejected by far.
    assert!(((scores.mean() - 18.5652) / scores.stderr()).abs() > 20.0);
}

// ---------------------------------------------------------------------------
// Speed (ignored: a measurement, not a check).

/// Seat 0 plays `optimal-round`, the others stay at 25; with `states`,
/// seat 0 stays at 25 too and records the state of each of its Hit/Stay
/// decisions instead.
struct SeatZero {
    optimal: OptimalRound,
    states: Option<Vec<(Hand, [u8; KINDS], bool)>>,
}

impl Chooser for SeatZero {
    fn hit(&mut self, t: &Table, seat: usize) -> bool {
        match (&mut self.states, seat) {
            (None, 0) => self.optimal.hit(t, seat),
            (Some(states), 0) => {
                states.push((*t.hand(seat), next_card_counts(t).0, optimal::is_solo(t, seat)));
                t.hand(seat).banked() < 25
            }
            _ => t.hand(seat).banked() < 25,
        }
    }
    fn target(&mut self, t: &Table, chooser: usize, card: Card) -> usize {
        self.optimal.target(t, chooser, card)
    }
    fn second_chance_to(&mut self, t: &Table, holder: usize) -> Option<usize> {
        self.optimal.second_chance_to(t, holder)
    }
}

/// Decisions per second of [`optimal::decide`] on the decision states of
/// seat 0 in 4-player games (all seats staying at 25), by number of numbers
/// held and whether the player is alone in the round; each decision with a
/// fresh search (no memo reuse between decisions).
#[test]
#[ignore]
fn timing_of_typical_decisions() {
    let rules = Rules {
        players: 4,
        composition: full_deck(),
        single_round: false,
        fresh_deck: false,
    };
    let mut table = Table::new(rules);
    let mut rec = SeatZero {
        optimal: OptimalRound::new(),
        states: Some(Vec::new()),
    };
    // FLIP7_TIMING_GAMES: fewer games, e.g. under callgrind.
    let games = std::env::var("FLIP7_TIMING_GAMES").map_or(200, |g| g.parse().expect("a number"));
    for g in 0..games {
        let mut rng = batch_rng(77, g);
        table.new_game(&mut rng);
        table.play_game(&mut rec, &mut Silent, &mut rng);
    }
    let states = rec.states.expect("recorded");
    let mut memo = Memo::new();
    /// Per decision: microseconds and states computed.
    type Samples = Vec<(f64, u64)>;
    // By (numbers held, solo, how settled: 0 quick bounds, 1 bounding
    // searches, 2 exact search).
    let mut by: std::collections::BTreeMap<(u8, bool, u8), Samples> = Default::default();
    let all = Instant::now();
    for (h, u, solo) in &states {
        memo.clear();
        let t = Instant::now();
        let before = memo.expanded();
        let (searches, bounding) = (memo.searches(), memo.bounding_searches());
        optimal::decide(h, u, *solo, &mut memo);
        let micros = t.elapsed().as_secs_f64() * 1e6;
        let how = if memo.searches() > searches {
            2
        } else {
            u8::from(memo.bounding_searches() > bounding)
        };
        let key = (h.count, *solo, how);
        by.entry(key)
            .or_default()
            .push((micros, memo.expanded() - before));
    }
    let secs = all.elapsed().as_secs_f64();
    println!("numbers  solo  settled by  decisions  median us  mean us  median states  most states");
    for ((c, solo, how), mut v) in by {
        let how = ["bounds", "bounding", "exact"][usize::from(how)];
        let n = v.len();
        let mean = v.iter().map(|x| x.0).sum::<f64>() / n as f64;
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
        let median_us = v[n / 2].0;
        let most = v.iter().map(|x| x.1).max().unwrap_or(0);
        v.sort_by_key(|x| x.1);
        let median_states = v[n / 2].1;
        println!(
            "{c:>7}  {solo:>5}  {how:>10}  {n:>9}  {median_us:>9.1}  {mean:>7.1}  {median_states:>13}  {most:>11}"
        );
    }
    println!(
        "{} decisions, {:.0} decisions/s over all",
        states.len(),
        states.len() as f64 / secs
    );
    // Whole games: seat 0 plays optimal-round (one memo, reused when it
    // applies), the others stay at 25.
    for players in [2, 4] {
        let rules = Rules {
            players,
            composition: full_deck(),
            single_round: false,
            fresh_deck: false,
        };
        let mut table = Table::new(rules);
        let mut mixed = SeatZero {
            optimal: OptimalRound::new(),
            states: None,
        };
        let games = games.min(300);
        let t = Instant::now();
        for g in 0..games {
            let mut rng = batch_rng(5, g);
            table.new_game(&mut rng);
            table.play_game(&mut mixed, &mut Silent, &mut rng);
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{players} players, seat 0 optimal-round: {:.0} games/s, {} bounding and {} exact searches",
            games as f64 / secs,
            mixed.optimal.memo.bounding_searches(),
            mixed.optimal.memo.searches()
        );
    }
}

/// The full-deck figures: the optimal value and every `stay-at-N` for N =
/// 0..=60, as `sim flip7 solve` would compute them (ignored: a measurement;
/// run under `/usr/bin/time -v` for time and memory).
#[test]
#[ignore]
fn full_deck_solver_figures() {
    let t = Instant::now();
    let solved = full_deck_solved();
    println!(
        "optimal {:.6} ({} states, {:.1} s)",
        solved.optimal,
        solved.states,
        t.elapsed().as_secs_f64()
    );
    let t = Instant::now();
    let ns: Vec<u16> = (0..=60).collect();
    let values = solve::thresholds(&full_deck(), &ns).unwrap();
    let best = ns.iter().zip(&values).max_by(|a, b| a.1.total_cmp(b.1)).unwrap();
    for (n, v) in ns.iter().zip(&values) {
        println!("stay-at-{n} {v:.6}");
    }
    println!(
        "best threshold stay-at-{} {:.6}; 61 thresholds in {:.1} s",
        best.0,
        best.1,
        t.elapsed().as_secs_f64()
    );
}
