//! Flip 7 variants that other simulators play: each one's defining
//! behaviour on a stacked deck (`+hit-on-second-chance`,
//! `stay-at-numbers-N`, `chase:BASE/SLOPE`, `stay-at-random:LO..HI`,
//! `+target:SEAT`, `peek`), the per-game draw of `stay-at-random`, how
//! `peek` is marked as cheating, and the distribution of rounds per game.

use sim::engine::rng::{Stacked, batch_rng};
use sim::engine::runner::{RunConfig, run};
use sim::games::flip7::Flip7Sim;
use sim::games::flip7::cards::{Card, Deck, FLIP_THREE, FREEZE, PLUS10, SECOND_CHANCE, Without, composition};
use sim::games::flip7::policies::{Policy, Seats, chase_threshold};
use sim::games::flip7::rules::{Chooser, Rules, Table};
use sim::games::flip7::stats::Flip7Stats;

use crate::common::*;

fn table(top: &[Card], players: usize) -> Table {
    let comp = composition(1, Without::default());
    let mut t = Table::new(Rules {
        players,
        composition: comp,
        single_round: false,
        fresh_deck: false,
    });
    t.set_deck(Deck::stacked(comp, top));
    t
}

fn seats(spec: &str, players: usize) -> Seats {
    Seats::new(vec![Policy::parse(spec).unwrap(); players])
}

/// Plays one round with `chooser` and returns the table as the round ends.
fn round_end<C: Chooser>(mut t: Table, chooser: &mut C) -> Table {
    struct Snapshot(Option<Table>);
    impl sim::games::flip7::rules::Observer<Table> for Snapshot {
        const EVENTS: bool = false;
        fn round_end(&mut self, t: &Table) {
            self.0 = Some(t.clone());
        }
    }
    let mut snap = Snapshot(None);
    t.play_round(chooser, &mut snap, &mut Stacked);
    snap.0.unwrap()
}

/// Every seat hits until it has flipped `limits[seat]` cards; the table is
/// kept when seat `stop` is next asked once every other seat has flipped
/// its cards or left the round.
struct StopAt {
    limits: Vec<u8>,
    stop: usize,
    snap: Option<Table>,
}

impl Chooser for StopAt {
    fn hit(&mut self, t: &Table, seat: usize) -> bool {
        let others_done = (0..t.players())
            .filter(|&s| s != self.stop)
            .all(|s| !t.is_active(s) || t.hand(s).flipped >= self.limits[s]);
        if self.snap.is_none()
            && seat == self.stop
            && others_done
            && t.hand(seat).flipped >= self.limits[seat]
        {
            self.snap = Some(t.clone());
        }
        self.snap.is_none() && t.hand(seat).flipped < self.limits[seat]
    }
    fn target(&mut self, _: &Table, chooser: usize, _: Card) -> usize {
        chooser
    }
    fn second_chance_to(&mut self, _: &Table, _: usize) -> Option<usize> {
        None
    }
}

/// The table when seat `stop` is asked Hit or Stay after the cards `top`
/// were flipped, each seat taking `limits[seat]` of them (clockwise from
/// seat 1: seat 0 deals), with game totals `totals`.
pub(crate) fn state(top: &[Card], limits: &[u8], stop: usize, totals: &[u32]) -> Table {
    let mut t = table(top, limits.len());
    t.set_totals(totals);
    let mut c = StopAt {
        limits: limits.to_vec(),
        stop,
        snap: None,
    };
    t.play_round(&mut c, &mut sim::games::flip7::rules::Silent, &mut Stacked);
    c.snap.expect("the round reached the stop")
}

#[test]
fn hit_on_second_chance_hits_past_the_threshold_while_holding_one() {
    // Solo: dealt 12, then Second Chance, 10, 5 (27 with a Second Chance
    // held), then a duplicate 12, then 3.
    let deck = [12, SECOND_CHANCE, 10, 5, 12, 3];
    let plain = round_end(table(&deck, 1), &mut seats("stay-at-25", 1));
    assert_eq!(
        (plain.hand(0).flipped, plain.hand(0).score()),
        (4, 27),
        "stays at 27"
    );
    let t = round_end(table(&deck, 1), &mut seats("stay-at-25+hit-on-second-chance", 1));
    // It hits on 27, the 12 takes the Second Chance, and without one it
    // stays at 27 as its threshold says.
    assert_eq!((t.hand(0).flipped, t.hand(0).score()), (5, 27));
    assert!(!t.hand(0).second_chance);
    // The rule alone, and through a policy outside a simulation.
    let holding = state(&deck, &[4], 0, &[0]);
    assert!(holding.hand(0).second_chance && holding.hand(0).banked() == 27);
    assert!(!Policy::parse("stay-at-25").unwrap().hit(&holding, 0));
    assert!(
        Policy::parse("stay-at-25+hit-on-second-chance")
            .unwrap()
            .hit(&holding, 0)
    );
    assert!(seats("ev+hit-on-second-chance", 1).hit(&holding, 0));
}

#[test]
fn stay_at_numbers_ignores_modifiers() {
    // Solo: 10 and +10 in front: worth 20, of which 10 in numbers.
    let t = state(&[10, PLUS10, 9], &[2], 0, &[0]);
    assert_eq!((t.hand(0).banked(), t.hand(0).number_sum), (20, 10));
    assert!(!seats("stay-at-15", 1).hit(&t, 0));
    assert!(seats("stay-at-numbers-15", 1).hit(&t, 0));
    assert!(!seats("stay-at-numbers-10", 1).hit(&t, 0));
    // Played out: it hits the 9 (19 in numbers) and stays there.
    let end = round_end(table(&[10, PLUS10, 9, 3], 1), &mut seats("stay-at-numbers-15", 1));
    assert_eq!((end.hand(0).flipped, end.hand(0).score()), (3, 29));
}

#[test]
fn chase_raises_its_threshold_with_the_gap_to_the_leader() {
    // Two players: seat 1 is dealt 10, seat 0 (the dealer) 9, 8, 11 = 28.
    let behind = state(&[10, 9, 8, 11], &[3, 1], 0, &[100, 180]);
    assert_eq!(behind.hand(0).banked(), 28);
    // 25 + 0.1 x (180 - 100) = 33: it hits where stay-at-25 stays.
    assert_eq!(chase_threshold(&behind, 0, 25_000, 100), 33_000);
    assert!(seats("chase:25/0.1", 2).hit(&behind, 0));
    assert!(!seats("stay-at-25", 2).hit(&behind, 0));
    // Level with the leader, or leading, it is stay-at-BASE.
    let level = state(&[10, 9, 8, 11], &[3, 1], 0, &[180, 180]);
    assert_eq!(chase_threshold(&level, 0, 25_000, 100), 25_000);
    assert!(!seats("chase:25/0.1", 2).hit(&level, 0));
    let ahead = state(&[10, 9, 8, 11], &[3, 1], 0, &[180, 100]);
    assert_eq!(chase_threshold(&ahead, 0, 25_000, 100), 25_000);
    assert_eq!(chase_threshold(&ahead, 1, 25_000, 100), 33_000);
    // Exact at the boundary: holding 33 against a threshold of 33, it stays.
    let edge = state(&[10, 9, 8, 11, 5], &[4, 1], 0, &[100, 180]);
    assert_eq!(edge.hand(0).banked(), 33);
    assert!(!seats("chase:25/0.1", 2).hit(&edge, 0));
    assert!(seats("chase:25.001/0.1", 2).hit(&edge, 0));
}

/// A four-player table at seat 0's decision (the end of the first pass),
/// every seat in the round: seat 1 holds 9, 8; seat 2 holds 12, +10; seat 3
/// holds 0, 1; seat 0 holds 5. Totals 50, 80, 150, 120.
fn target_table() -> Table {
    state(
        &[9, 12, 0, 5, 8, PLUS10, 1],
        &[1, 2, 2, 2],
        0,
        &[50, 80, 150, 120],
    )
}

#[test]
fn target_aims_every_freeze_and_flip_three_at_its_seat() {
    let t = target_table();
    let target = |spec: &str, card: Card, chooser: usize| seats(spec, 4).target(&t, chooser, card);
    // The defaults: Freeze to the leader (seat 2), Flip Three to the most
    // number cards (seat 3).
    assert_eq!(target("stay-at-25", FREEZE, 0), 2);
    assert_eq!(target("stay-at-25", FLIP_THREE, 0), 3);
    for card in [FREEZE, FLIP_THREE] {
        assert_eq!(target("stay-at-25+target:1", card, 0), 1);
        // The named seat choosing: its own choices decide.
        assert_eq!(
            target("stay-at-25+target:0", card, 0),
            target("stay-at-25", card, 0)
        );
    }
    // With +freeze/+flip-three, those choices are the fallback.
    assert_eq!(target("stay-at-25+freeze:most-cards+target:0", FREEZE, 0), 3);
    assert_eq!(target("stay-at-25+freeze:most-cards+target:1", FREEZE, 0), 1);
}

#[test]
fn target_falls_back_when_its_seat_has_left_the_round() {
    // Seat 1 is dealt 9 and stays; seat 2 holds 12, 8; seat 3 holds 0, 1;
    // seat 0 holds 5.
    let t = state(&[9, 12, 0, 5, 8, 1], &[1, 1, 2, 2], 0, &[50, 80, 150, 120]);
    assert!(!t.is_active(1) && t.is_active(2) && t.is_active(3));
    let s = &mut seats("stay-at-25+target:1", 4);
    assert_eq!(s.target(&t, 0, FREEZE), 2, "the leader among those still in");
    assert_eq!(s.target(&t, 0, FLIP_THREE), 2, "most cards, ties by total");
}

#[test]
fn target_must_name_a_seat_at_the_table() {
    let p = Policy::parse_list("stay-at-25,stay-at-25+target:2").unwrap();
    let e = Flip7Sim::new(2, &p, false, Without::default()).unwrap_err();
    assert!(e.contains("seat 2 is not at the table"), "{e}");
    refused(
        &[
            "flip7",
            "--players",
            "3",
            "--policy",
            "ev+target:3",
            "--games",
            "10",
        ],
        &["seat 3 is not at the table"],
    );
}

#[test]
fn peek_hits_unless_the_next_card_hurts() {
    // Solo: dealt 5; next 7 (hit), then 5 (it would bust: stay).
    let end = round_end(table(&[5, 7, 5], 1), &mut seats("peek", 1));
    assert_eq!((end.hand(0).flipped, end.hand(0).score()), (2, 12));
    // stay-at-25 takes the 5 and busts.
    let plain = round_end(table(&[5, 7, 5], 1), &mut seats("stay-at-25", 1));
    assert_eq!(plain.hand(0).score(), 0);
    // With a Second Chance a duplicate does not bust: it hits it, and stays
    // before the next duplicate once the Second Chance is used.
    let end = round_end(table(&[5, SECOND_CHANCE, 5, 7, 7], 1), &mut seats("peek", 1));
    assert_eq!((end.hand(0).flipped, end.hand(0).score()), (4, 12));
    // Alone, a Flip Three would come back to it: it stays.
    let alone = state(&[5, FLIP_THREE], &[1], 0, &[0]);
    assert!(!seats("peek", 1).hit(&alone, 0));
    // With an opponent in the round, the Flip Three goes to them: it hits.
    let two = state(&[9, 5, 3, FLIP_THREE], &[1, 2], 0, &[0, 0]);
    assert!(two.is_active(1) && seats("peek", 2).hit(&two, 0));
}

/// `peek` is left out of the re-deal test of `flip7_policies` (shuffling
/// the unseen draw pile never changes an answer) because it reads the draw
/// pile: re-dealing does change its answers.
#[test]
fn peek_is_the_one_policy_that_reads_the_draw_pile() {
    let t = state(&[5, 7], &[1], 0, &[0]);
    let mut rng = batch_rng(5, 0);
    let answers: Vec<bool> = (0..200)
        .map(|_| {
            let mut other = t.clone();
            other.shuffle_draw_pile(&mut rng);
            seats("peek", 1).hit(&other, 0)
        })
        .collect();
    assert!(answers.contains(&true) && answers.contains(&false));
    assert!(Policy::parse("peek").unwrap().cheats());
}

#[test]
fn stay_at_random_draws_each_threshold_from_its_range() {
    let mut s = seats("stay-at-random:20..30", 3);
    assert_eq!(s.drawn_threshold(0), Some(20), "LO until a game draws");
    s.draw_game_values(&mut Stacked);
    assert_eq!(s.drawn_threshold(2), Some(30));
    let mut seen = [0u32; 11];
    let mut rng = batch_rng(1, 2);
    for _ in 0..11_000 {
        s.draw_game_values(&mut rng);
        for seat in 0..3 {
            let n = s.drawn_threshold(seat).unwrap();
            assert!((20..=30).contains(&n), "{n}");
            seen[usize::from(n - 20)] += 1;
        }
    }
    // 3,000 draws of each value expected; a uniform draw stays well inside.
    assert!(seen.iter().all(|&c| (2700..3300).contains(&c)), "{seen:?}");
    // It decides by the drawn threshold, from the hand alone.
    let t = state(&[12, 10], &[2], 0, &[0]);
    assert_eq!(t.hand(0).banked(), 22);
    s.draw_game_values(&mut Stacked);
    assert!(s.hit(&t, 0), "threshold 30");
    assert_eq!(seats("stay-at-25", 1).drawn_threshold(0), None);
}

fn play(players: usize, specs: &str, single_round: bool, games: u64, threads: usize) -> Flip7Stats {
    let sim = Flip7Sim::new(
        players,
        &Policy::parse_list(specs).unwrap(),
        single_round,
        Without::default(),
    )
    .unwrap();
    run(
        &sim,
        &RunConfig {
            games,
            seed: 17,
            threads,
            progress: false,
        },
    )
    .unwrap()
}

/// The threshold is drawn from the game's stream after the deck is
/// shuffled: every game is dealt the deck it gets with any other line-up.
/// A single round with four players never reshuffles, so a range of one
/// value plays exactly the games of that plain threshold.
#[test]
fn stay_at_random_keeps_the_deal_of_every_game() {
    let drawn = play(4, "stay-at-random:25..25", true, 5_000, 1);
    let plain = play(4, "stay-at-25", true, 5_000, 1);
    assert_eq!(drawn, plain);
}

#[test]
fn stay_at_random_repeats_on_any_number_of_threads() {
    let specs = "stay-at-random:15..35,stay-at-25,stay-at-random:20..30";
    let one = play(3, specs, false, 30_000, 1);
    let two = play(3, specs, false, 30_000, 2);
    assert_eq!(one, two);
    // And differs from a fixed threshold in full games (the draws matter).
    assert_ne!(
        one.seats[0],
        play(3, "stay-at-25,stay-at-25,stay-at-25", false, 30_000, 1).seats[0]
    );
}

#[test]
fn rounds_per_game_percentiles_are_exact_from_the_counts() {
    let mut acc = Flip7Stats::new(2);
    acc.games = 10;
    acc.rounds_per_game = vec![0, 1, 3, 5, 1];
    // At most 1 round: 1 game of 10 (10%); at most 2: 4; at most 3: 9.
    assert_eq!(acc.rounds_percentile(10), Some(1));
    assert_eq!(acc.rounds_percentile(11), Some(2));
    assert_eq!(acc.rounds_percentile(50), Some(3));
    assert_eq!(acc.rounds_percentile(90), Some(3));
    assert_eq!(acc.rounds_percentile(91), Some(4));
    assert_eq!(acc.rounds_percentile(100), Some(4));
    assert_eq!(Flip7Stats::new(2).rounds_percentile(50), None);
    // A run's histogram counts every game and adds up to its rounds.
    let acc = play(2, "stay-at-25", false, 3_000, 2);
    assert_eq!(acc.rounds_per_game.iter().sum::<u64>(), acc.games);
    let rounds: u64 = acc
        .rounds_per_game
        .iter()
        .enumerate()
        .map(|(r, &g)| r as u64 * g)
        .sum();
    assert_eq!(rounds, acc.rounds);
    assert_ne!(acc.rounds_per_game.last(), Some(&0), "no trailing zeros");
    let [p10, median, p90] = acc.rows()[0].rounds_per_game_percentiles.map(Option::unwrap);
    assert!(p10 <= median && median <= p90 && p10 >= 1, "{p10} {median} {p90}");
}

#[test]
fn peek_is_marked_as_cheating_in_every_output() {
    let dir = tempfile::tempdir().unwrap();
    let o = sim(
        &[
            "flip7",
            "--players",
            "2",
            "--policy",
            "peek,stay-at-25",
            "--games",
            "2K",
            "--seed",
            "3",
            "--out",
            "p.csv",
        ],
        dir.path(),
    );
    let out = ok(&o);
    assert!(out.contains("peek (cheats)"), "{out}");
    assert!(out.contains("seat 0 (peek) cheats"), "{out}");
    let csv = std::fs::read_to_string(dir.path().join("p.csv")).unwrap();
    let rows = csv_rows(&csv);
    assert_eq!(rows[0]["cheats"], "1");
    assert_eq!(rows[1]["cheats"], "0");
    let t = ok(&sim(
        &[
            "tournament",
            "flip7",
            "--players",
            "2",
            "--policies",
            "peek,ev",
            "--games",
            "200",
            "--seed",
            "3",
            "--no-charts",
            "--out",
            "t",
        ],
        dir.path(),
    ));
    assert!(t.contains("peek cheats"), "{t}");
    let list = ok(&sim(&["flip7", "--list-policies"], dir.path()));
    let line = list.lines().find(|l| l.trim_start().starts_with("peek")).unwrap();
    assert!(line.contains("CHEATS"), "{line}");
}

/// `--fresh-deck` plays the model of the exact game solver: a solo player
/// of `stay-at-25` on the number cards needs, on average, the exact number
/// of rounds to reach 200 that the model gives (within four standard
/// errors of 100K games; the real deck, carrying its discard pile, needs
/// other rounds).
#[test]
fn fresh_deck_plays_the_exact_models_rounds() {
    use sim::games::flip7::game_solve::{NumberDeck, rounds_to_target};
    let deck = NumberDeck::new(&composition(1, Without::parse("actions,modifiers").unwrap())).unwrap();
    let exact = rounds_to_target(200, &deck.round(|m| deck.sum(m) < 25));
    let dir = tempfile::tempdir().unwrap();
    let run = |extra: &[&str]| -> f64 {
        let args = [
            &[
                "flip7",
                "--players",
                "1",
                "--without",
                "actions,modifiers",
                "--policy",
                "stay-at-25",
            ][..],
            &["--games", "100K", "--seed", "4", "--no-report", "--out", "r.csv"],
            extra,
        ]
        .concat();
        let out = ok(&sim(&args, dir.path()));
        let line = out
            .lines()
            .find(|l| l.starts_with("mean rounds per game: "))
            .unwrap();
        line["mean rounds per game: ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    // Rounds per game spread by about 2.3 (10th to 90th percentile 9 to 15).
    let se = 2.3 / (100_000f64).sqrt();
    let fresh = run(&["--fresh-deck"]);
    assert!(
        (fresh - exact).abs() < 4.0 * se,
        "{fresh} against the exact {exact}"
    );
    assert!((exact - 11.5672).abs() < 1e-4, "{exact}");
}

/// The same seed gives the same bytes on one thread and on two, with a
/// fresh deck every round; and the run says which rule it played.
#[test]
fn fresh_deck_is_the_same_on_any_threads_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let csv = |threads: &str| {
        let name = format!("t{threads}.csv");
        let out = ok(&sim(
            &[
                "flip7",
                "--players",
                "3",
                "--fresh-deck",
                "--games",
                "3K",
                "--seed",
                "9",
                "--threads",
                threads,
                "--no-report",
                "--out",
                &name,
            ],
            dir.path(),
        ));
        assert!(out.contains("a fresh deck every round"), "{out}");
        std::fs::read_to_string(dir.path().join(&name)).unwrap()
    };
    let (one, two) = (csv("1"), csv("2"));
    assert_eq!(one, two);
    let plain = ok(&sim(
        &[
            "flip7",
            "--players",
            "3",
            "--games",
            "3K",
            "--seed",
            "9",
            "--no-report",
            "--out",
            "p.csv",
        ],
        dir.path(),
    ));
    assert!(!plain.contains("fresh deck"));
    assert_ne!(std::fs::read_to_string(dir.path().join("p.csv")).unwrap(), one);
}
