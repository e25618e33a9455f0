//! `ismcts:N`, the engine's information-set Monte Carlo tree search: the
//! search itself on tiny games whose best move is known, and in each game
//! that implements it, that it sees only what its player may know, that
//! runs repeat on any number of threads, and that it makes the obvious
//! decisions.

use sim::engine::game::Game;
use sim::engine::ismcts::{Descent, Search, Tree, search, share_win};
use sim::engine::rng::{Draw, SimRng, Stacked, batch_rng};
use sim::games::flip7::cards::{Card, Deck, SECOND_CHANCE, Without, composition};
use sim::games::flip7::policies::{Policy, Seats};
use sim::games::flip7::rules::{Chooser, Rules, Silent, Table};
use sim::games::flip7::{Flip7, Flip7Sim};

/// True with chance `p` (in millionths).
fn chance(rng: &mut SimRng, p: f64) -> bool {
    f64::from(rng.below(1_000_000)) < p * 1e6
}

/// Two moves, then a coin: player 0 picks a row, player 1 (who sees it) a
/// column, and player 0 wins with chance `WIN[row][column]`. Row 0 has the
/// best average but row 1 the best worst case, which is what player 0 gets
/// against a player 1 that answers well.
struct Matrix;

const WIN: [[f64; 2]; 3] = [[0.9, 0.1], [0.6, 0.55], [0.2, 0.95]];

impl Search for Matrix {
    type Move = u8;
    fn players(&self) -> usize {
        2
    }
    fn iterate(&mut self, rng: &mut SimRng, d: &mut Descent<'_, u8>, utility: &mut [f64]) {
        let row = d.choose(0, &[0, 1, 2], 0).unwrap_or_else(|| rng.below(3) as u8);
        let col = d.choose(1, &[0, 1], 0).unwrap_or_else(|| rng.below(2) as u8);
        let won = chance(rng, WIN[usize::from(row)][usize::from(col)]);
        share_win(utility, std::iter::once(if won { 0 } else { 1 }));
    }
}

#[test]
fn the_search_finds_the_best_worst_case_of_a_matrix_game() {
    let mut tree = Tree::new();
    for seed in 0..5 {
        assert_eq!(search(&mut Matrix, 5000, seed, &mut tree), 1, "seed {seed}");
    }
    let root = tree.root();
    assert_eq!(root.iter().map(|r| r.visits).sum::<u32>(), 5000);
}

/// A hidden coin: player 0 may guess it (1 if right, 0 if wrong) or pass
/// (a sure 0.6). Every determinization knows the coin, so a search that
/// let each one choose would always guess; the information set does not,
/// and guessing wins half the time.
struct Coin;

impl Search for Coin {
    type Move = u8;
    fn players(&self) -> usize {
        1
    }
    fn iterate(&mut self, rng: &mut SimRng, d: &mut Descent<'_, u8>, utility: &mut [f64]) {
        let coin = rng.below(2) as u8;
        let guess = d.choose(0, &[0, 1, 2], 0).expect("the root is in the tree");
        utility[0] = match guess {
            2 => f64::from(chance(rng, 0.6)),
            g => f64::from(g == coin),
        };
    }
}

#[test]
fn the_search_does_not_see_through_its_determinizations() {
    let mut tree = Tree::new();
    for seed in 0..5 {
        assert_eq!(search(&mut Coin, 4000, seed, &mut tree), 2, "seed {seed}");
    }
}

/// Moves that are legal in some determinizations only: the availability
/// counts compare them fairly, and a move legal in one world in ten is
/// still found when it is the best.
struct Rare;

impl Search for Rare {
    type Move = u8;
    fn players(&self) -> usize {
        1
    }
    fn iterate(&mut self, rng: &mut SimRng, d: &mut Descent<'_, u8>, utility: &mut [f64]) {
        let rare = chance(rng, 0.1);
        // The root is the same in every world; the rare move is one level down.
        let _ = d.choose(0, &[0], 0);
        let legal: &[u8] = if rare { &[0, 1] } else { &[0] };
        let mv = d.choose(0, legal, 0).unwrap_or(0);
        utility[0] = if mv == 1 { 1.0 } else { 0.3 };
    }
}

#[test]
fn a_move_legal_in_few_worlds_is_still_chosen_when_best() {
    let mut tree = Tree::new();
    search(&mut Rare, 3000, 1, &mut tree);
    // Of the ~300 rare worlds, the rare move was played in nearly all.
    let root = tree.root();
    assert_eq!(root.len(), 1);
    assert!(root[0].mean > 0.3 + 0.7 * 0.08, "{root:?}");
}

/// Flip 7: at every Hit-or-Stay of a game, an `ismcts` seat answers the
/// same on the table and on a copy whose unseen draw pile is dealt anew
/// (each side with the same seed: only what the player sees may matter).
#[test]
fn flip7_shuffling_the_unseen_deck_never_changes_a_search() {
    struct Probe {
        inner: Seats,
        sides: (Seats, Seats),
        rng: SimRng,
        checks: u32,
    }
    impl Chooser for Probe {
        fn hit(&mut self, t: &Table, seat: usize) -> bool {
            if seat == 0 {
                let mut other = t.clone();
                other.shuffle_draw_pile(&mut self.rng);
                let (a, b) = (self.sides.0.hit(t, seat), self.sides.1.hit(&other, seat));
                assert_eq!(a, b, "ismcts changed its Hit or Stay with the pile reordered");
                self.checks += 1;
            }
            self.inner.hit(t, seat)
        }
        fn target(&mut self, t: &Table, chooser: usize, card: Card) -> usize {
            self.inner.target(t, chooser, card)
        }
        fn second_chance_to(&mut self, t: &Table, holder: usize) -> Option<usize> {
            self.inner.second_chance_to(t, holder)
        }
    }
    let p = Policy::parse("ismcts:30").unwrap();
    let lineup = vec![p, Policy::stay_at(25), Policy::parse("ev").unwrap()];
    let seats = || {
        let mut s = Seats::new(lineup.clone());
        s.seed(77);
        s
    };
    let mut probe = Probe {
        inner: Seats::new(lineup.clone()),
        sides: (seats(), seats()),
        rng: batch_rng(5, 5),
        checks: 0,
    };
    let mut table = Table::new(Rules {
        players: 3,
        composition: composition(1, Without::default()),
        single_round: false,
        fresh_deck: false,
    });
    for g in 0..6 {
        let mut rng = batch_rng(31, g);
        table.new_game(&mut rng);
        table.play_game(&mut probe, &mut Silent, &mut rng);
    }
    assert!(probe.checks > 100, "only {} decisions checked", probe.checks);
}

/// Flip 7: a run with `ismcts` seats gives the same statistics on 1 and 2
/// threads (more than one batch of games).
#[test]
fn flip7_runs_repeat_on_any_number_of_threads() {
    let policies = Policy::parse_list("ismcts:4,stay-at-25").unwrap();
    let sim = Flip7Sim::new(2, &policies, true, Without::default()).unwrap();
    crate::common::same_on_one_and_two_threads(&sim, 1500, "flip7");
}

/// Plays a 2-player Flip 7 round from a stacked deck, seat 1 dealing first
/// and hitting while it has flipped fewer than `hits1` cards, seat 0
/// hitting until it has flipped `before` cards; then seat 0's next
/// Hit-or-Stay is asked of `spec`.
fn flip7_decision(top: &[Card], hits1: u8, before: u8, single_round: bool, spec: &str) -> bool {
    struct Script {
        hits1: u8,
        before: u8,
        asked: Seats,
        answer: Option<bool>,
    }
    impl Chooser for Script {
        fn hit(&mut self, t: &Table, seat: usize) -> bool {
            if seat == 1 {
                return t.hand(1).flipped < self.hits1;
            }
            if t.hand(0).flipped < self.before {
                return true;
            }
            if self.answer.is_none() {
                self.answer = Some(self.asked.hit(t, 0));
            }
            false
        }
        fn target(&mut self, _: &Table, chooser: usize, _: Card) -> usize {
            chooser
        }
        fn second_chance_to(&mut self, _: &Table, _: usize) -> Option<usize> {
            None
        }
    }
    let comp = composition(1, Without::default());
    let mut t = Table::new(Rules {
        players: 2,
        composition: comp,
        single_round,
        fresh_deck: false,
    });
    t.set_deck(Deck::stacked(comp, top));
    let mut asked = Seats::new(vec![Policy::parse(spec).unwrap(); 2]);
    asked.seed(3);
    let mut script = Script {
        hits1,
        before,
        asked,
        answer: None,
    };
    t.play_round(&mut script, &mut Silent, &mut Stacked);
    script.answer.expect("seat 0 was asked")
}

/// Flip 7: with five high numbers in front (50 points, more than half the
/// unseen cards bust it) the search stays; in a one-round game, holding a
/// Second Chance (nothing can bust it) and 33 points against an opponent
/// who has 35 and stays next, where the playout rule stays, it hits: a
/// Stay loses.
#[test]
fn flip7_obvious_decisions() {
    // Deal: seat 1 then seat 0 (the dealer, last); then passes, seat 1 first.
    // Seat 1: 3, then stays. Seat 0: 12, 11, 10, 9, 8.
    let high = [3, 12, 11, 10, 9, 8];
    assert!(
        !flip7_decision(&high, 1, 5, false, "ismcts:1000"),
        "stays on 50 with a likely bust"
    );
    // Seat 1: 9, 8, 7, 6, 5 (35 points). Seat 0: 12, 11, Second Chance, 10 (33).
    let behind = [9, 12, 8, 11, 7, SECOND_CHANCE, 6, 10, 5];
    for playout in ["stay-at-25", "stay-at-28"] {
        assert!(!flip7_decision(&behind, 5, 4, true, playout), "{playout} stays");
    }
    assert!(
        flip7_decision(&behind, 5, 4, true, "ismcts:1000"),
        "hits when a Stay loses and no card can bust it"
    );
}

/// Flip 7: `ismcts:N` and its playout parse, print back, and refuse bad
/// values naming them and what is accepted.
#[test]
fn flip7_specs_parse_and_refuse_bad_values() {
    for spec in [
        "ismcts:100",
        "ismcts:5+playout:ev",
        "ismcts:7+playout:stay-at-20+freeze:most-cards",
    ] {
        assert_eq!(Policy::parse(spec).unwrap().to_string(), spec);
    }
    assert_eq!(
        Policy::parse("ismcts:9+playout:stay-at-28").unwrap().to_string(),
        "ismcts:9"
    );
    // The playout rule by default is the game's default policy.
    assert_eq!(
        Policy::parse(&format!("ismcts:9+playout:{}", <Flip7 as Game>::DEFAULT_POLICY))
            .unwrap()
            .to_string(),
        "ismcts:9"
    );
    for (bad, says) in [
        (
            "ismcts:0",
            "N must be a whole number from 1 to 1000000 (ismcts:N)",
        ),
        ("ismcts:abc", "'ismcts:abc': N must be a whole number"),
        (
            "ismcts:10+playout:peek",
            "the playout RULE 'peek' must be a rule cheap to simulate",
        ),
        ("ev+playout:ev", "playout:RULE is a choice of ismcts:N only"),
        ("ismcts:3+playout:ev+playout:ev", "playout is chosen twice"),
        (
            "ismcts:3+playout:stay-at-28+playout:ev",
            "playout is chosen twice",
        ),
    ] {
        let e = Policy::parse(bad).unwrap_err();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

/// Flip 7: `ismcts:N` plays in tournaments and sweeps from the command
/// line, and a bad N is refused naming it.
#[test]
fn flip7_ismcts_runs_in_tournaments_and_sweeps() {
    crate::common::ismcts_in_every_kind_of_run("flip7", "stay-at-28");
}
