//! Flip 7 policies: what they compute, that they see only what a player
//! sees, and how they compare with exact values.

use sim::engine::rng::{Stacked, batch_rng};
use sim::engine::runner::{RunConfig, run};
use sim::games::flip7::Flip7Sim;
use sim::games::flip7::cards::{Card, Deck, FLIP_THREE, SECOND_CHANCE, TIMES2, Without, composition};
use sim::games::flip7::policies::{Policy, Rule, Seats, bust_chance, expected_after_hit, next_card_counts};
use sim::games::flip7::rules::{Chooser, Rules, Silent, Table};
use sim::games::flip7::solve;

/// Plays with `inner`, and at every Hit-or-Stay asks each policy of
/// `probes` the same question on a copy of the table whose unseen draw pile
/// has been shuffled again: the answer must not change.
struct ShuffleProbe {
    inner: Seats,
    probes: Vec<Policy>,
    rng: sim::engine::rng::SimRng,
    checks: u64,
    /// Two tables of each probe: for the real and the reordered pile.
    tables: Vec<(Seats, Seats)>,
}

impl ShuffleProbe {
    fn reordered(&mut self, t: &Table) -> Table {
        let mut other = t.clone();
        other.shuffle_draw_pile(&mut self.rng);
        other
    }

    /// Every probe, as a whole table of itself, answers `ask` the same on
    /// both tables (each side keeps its own scratch space from call to call,
    /// as in a simulation).
    fn same<T: PartialEq + std::fmt::Debug>(
        &mut self,
        t: &Table,
        ask: impl Fn(&mut Seats, &Table) -> T,
        what: &str,
    ) {
        let other = self.reordered(t);
        if self.tables.is_empty() {
            self.tables = (self.probes.iter())
                .map(|p| {
                    let (mut seats, mut again) = (
                        Seats::new(vec![*p; t.players()]),
                        Seats::new(vec![*p; t.players()]),
                    );
                    // What a policy fixes for a game (a stay-at-random
                    // threshold) is the same on both sides: the answers
                    // may depend on it and on what the player sees, and on
                    // nothing else.
                    let draws = batch_rng(7, 0);
                    seats.draw_game_values(&mut draws.clone());
                    again.draw_game_values(&mut draws.clone());
                    (seats, again)
                })
                .collect();
        }
        for (p, (seats, again)) in self.probes.iter().zip(&mut self.tables) {
            assert_eq!(
                ask(seats, t),
                ask(again, &other),
                "{p} changed its {what} with the pile reordered"
            );
            self.checks += 1;
        }
    }
}

impl Chooser for ShuffleProbe {
    fn hit(&mut self, t: &Table, seat: usize) -> bool {
        self.same(t, |s, t| s.hit(t, seat), "Hit or Stay");
        self.inner.hit(t, seat)
    }
    fn target(&mut self, t: &Table, chooser: usize, card: Card) -> usize {
        self.same(t, |s, t| s.target(t, chooser, card), "target");
        self.inner.target(t, chooser, card)
    }
    fn second_chance_to(&mut self, t: &Table, holder: usize) -> Option<usize> {
        self.same(t, |s, t| s.second_chance_to(t, holder), "Second Chance recipient");
        self.inner.second_chance_to(t, holder)
    }
}

/// Plays `games` four-player games with the first four probes at the
/// table, checking every probe at every decision; returns the checks made.
fn probe_games(specs: &str, games: u64) -> u64 {
    let probes = Policy::parse_list(specs).unwrap();
    let mut probe = ShuffleProbe {
        inner: Seats::new((0..4).map(|s| probes[s % probes.len()]).collect()),
        probes,
        rng: batch_rng(99, 1),
        checks: 0,
        tables: Vec::new(),
    };
    let rules = Rules {
        players: 4,
        composition: composition(1, Without::default()),
        single_round: false,
        fresh_deck: false,
    };
    let mut table = Table::new(rules);
    for g in 0..games {
        let mut rng = batch_rng(4242, g);
        table.new_game(&mut rng);
        table.play_game(&mut probe, &mut Silent, &mut rng);
    }
    probe.checks
}

/// Every rule and every action-card choice decides from what a player can
/// see: shuffling the unseen draw pile never changes an answer. Every
/// policy is here but `peek`, which cheats on purpose (it reads the next
/// card: `flip7_variants::peek_is_the_one_policy_that_reads_the_draw_pile`
/// checks that re-dealing does change its answers).
#[test]
fn shuffling_the_unseen_deck_never_changes_a_decision() {
    let checks = probe_games(
        "stay-at-25,cards-4,bust-prob:0.3,ev,endgame:25,\
         stay-at-20+freeze:self-when-safe+flip-three:self-when-safe+second-chance:least-banked,\
         ev+freeze:most-cards+flip-three:most-banked+second-chance:fewest-cards,\
         cards-3+freeze:least-banked+flip-three:leader,\
         stay-at-25+hit-on-second-chance,stay-at-numbers-20,chase:25/0.1,stay-at-random:15..35,\
         stay-at-25+target:2,ev+hit-on-second-chance+freeze:most-cards+target:1",
        300,
    );
    assert!(checks > 50_000, "only {checks} decisions checked");
}

/// The same for the rules that search or weigh the game (fewer games:
/// they are slow).
#[test]
fn shuffling_the_unseen_deck_never_changes_a_search() {
    let checks = probe_games("optimal-round,rollout:3,max-win,max-win:stay-at-25", 12);
    assert!(checks > 500, "only {checks} decisions checked");
}

fn table_with_hand(top: &[Card], players: usize) -> Table {
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

/// A scripted round start: every seat hits until told to stop.
struct HitsUntil(Vec<u8>);
impl Chooser for HitsUntil {
    fn hit(&mut self, t: &Table, seat: usize) -> bool {
        t.hand(seat).flipped < self.0[seat]
    }
    fn target(&mut self, _: &Table, chooser: usize, _: Card) -> usize {
        chooser
    }
    fn second_chance_to(&mut self, _: &Table, _: usize) -> Option<usize> {
        None
    }
}

/// Observer that snapshots the table when the round ends.
struct Snapshot(Option<Table>);
impl sim::games::flip7::rules::Observer<Table> for Snapshot {
    const EVENTS: bool = false;
    fn round_end(&mut self, t: &Table) {
        self.0 = Some(t.clone());
    }
}

#[test]
fn bust_chance_counts_every_card_seen() {
    // Solo: dealt 5, hits 7 and stays. Counted pile: 94 - 2 cards; the
    // cards that bust are the four other 5s and six other 7s.
    let mut t = table_with_hand(&[5, 7], 1);
    let mut snap = Snapshot(None);
    t.play_round(&mut HitsUntil(vec![2]), &mut snap, &mut Stacked);
    let t = snap.0.unwrap();
    let p = bust_chance(&t, 0);
    assert!((p - 10.0 / 92.0).abs() < 1e-12, "{p}");
    let (counts, total) = next_card_counts(&t);
    assert_eq!(total, 92);
    assert_eq!(counts[5], 4);
    assert_eq!(counts[12], 12);
}

#[test]
fn bust_chance_is_zero_with_a_second_chance() {
    let mut t = table_with_hand(&[5, SECOND_CHANCE, 7], 1);
    let mut snap = Snapshot(None);
    t.play_round(&mut HitsUntil(vec![3]), &mut snap, &mut Stacked);
    assert_eq!(bust_chance(&snap.0.unwrap(), 0), 0.0);
}

#[test]
fn expected_score_after_one_more_card_by_hand() {
    // Holding 12 and x2 (banked 24), 92 cards left: 11 twelves bust; every
    // other number n adds 2n; +N adds N; x2 is gone; actions change nothing.
    let mut t = table_with_hand(&[12, TIMES2], 1);
    let mut snap = Snapshot(None);
    t.play_round(&mut HitsUntil(vec![2]), &mut snap, &mut Stacked);
    let t = snap.0.unwrap();
    let comp = composition(1, Without::default());
    let mut sum = 0.0;
    for n in 0..=11u32 {
        sum += f64::from(comp[n as usize]) * f64::from(2 * (12 + n));
    }
    for plus in [2.0, 4.0, 6.0, 8.0, 10.0] {
        sum += 24.0 + plus;
    }
    sum += 9.0 * 24.0; // action cards
    let expected = sum / 92.0;
    let got = expected_after_hit(&t, 0);
    assert!((got - expected).abs() < 1e-9, "{got} vs {expected}");
    assert_eq!(t.hand(0).banked(), 24);
    // And the ev policy hits exactly when that beats 24.
    assert_eq!(Policy::from(Rule::Ev).hit(&t, 0), expected > 24.0);
}

#[test]
fn flip_three_is_counted_as_seen_once_resolved() {
    // A Flip Three dealt to a solo player is discarded after resolving: it
    // is no longer among the cards the next draw can be.
    let mut t = table_with_hand(&[FLIP_THREE, 1, 2, 3], 1);
    let mut snap = Snapshot(None);
    t.play_round(&mut HitsUntil(vec![4]), &mut snap, &mut Stacked);
    let t = snap.0.unwrap();
    let (counts, total) = next_card_counts(&t);
    assert_eq!(counts[FLIP_THREE as usize], 2);
    assert_eq!(total, 90);
}

fn solo_mean(policy: &str, games: u64) -> (f64, f64) {
    let without = Without::parse("actions,modifiers").unwrap();
    let sim = Flip7Sim::new(1, &[Policy::parse(policy).unwrap()], true, without).unwrap();
    let acc = run(
        &sim,
        &RunConfig {
            games,
            seed: 31,
            threads: 2,
            progress: false,
        },
    )
    .unwrap();
    let row = &acc.rows()[0];
    (row.mean_round_score, row.round_score_stderr)
}

/// No rule can beat the exact optimum of the number-only solo round, and the
/// myopic `ev` rule comes close to it there.
#[test]
fn counting_policies_against_the_exact_solo_optimum() {
    let comp = composition(1, Without::parse("actions,modifiers").unwrap());
    let optimum = solve::optimal(&comp).unwrap().optimal;
    for policy in ["ev", "bust-prob:0.25", "cards-4"] {
        let (mean, se) = solo_mean(policy, 1_000_000);
        assert!(
            mean < optimum + 4.0 * se,
            "{policy}: {mean} above the optimum {optimum}"
        );
    }
    let (ev, se) = solo_mean("ev", 1_000_000);
    assert!(
        ev > optimum - 0.5 - 4.0 * se,
        "ev {ev} far below the optimum {optimum}"
    );
}

/// Two players: seat 1 is served first, then seat 0 (the dealer).
/// `cards` are dealt/hit in that order; `hits[s]` is how many cards seat s
/// takes in all; `totals` are the game totals before the round.
fn two_player_state(cards: &[Card], hits: [u8; 2], totals: [u32; 2]) -> Table {
    let mut t = table_with_hand(cards, 2);
    t.set_totals(&totals);
    let mut snap = Snapshot(None);
    t.play_round(&mut HitsUntil(hits.to_vec()), &mut snap, &mut Stacked);
    let mut end = snap.0.unwrap();
    // The snapshot is taken after scoring: put the totals back as they
    // were during the round.
    end.set_totals(&totals);
    end
}

#[test]
fn endgame_stays_when_banking_wins_the_game() {
    // Seat 0 holds 12 (worth 12) at 190: banking makes 202, beyond seat 1
    // (100 + 5 in front).
    let t = two_player_state(&[5, 12], [1, 1], [190, 100]);
    assert_eq!(t.hand(0).banked(), 12);
    assert!(!Policy::from(Rule::Endgame(25)).hit(&t, 0));
    assert!(Policy::stay_at(25).hit(&t, 0), "a plain threshold would hit");
}

#[test]
fn endgame_presses_when_an_opponent_is_about_to_win() {
    // Seat 1 stands at 190 with 10 in front; seat 0 at 120 holds 9 + 8 + 11
    // = 28: stay-at-25 would stay, endgame needs 71 to pass and hits (the
    // threshold is capped at 25 + 25 = 50).
    let t = two_player_state(&[10, 9, 8, 11], [3, 1], [120, 190]);
    assert_eq!(t.hand(0).banked(), 28);
    assert_eq!(sim::games::flip7::policies::endgame_threshold(&t, 0, 25), 50);
    assert!(Policy::from(Rule::Endgame(25)).hit(&t, 0));
    assert!(!Policy::stay_at(25).hit(&t, 0));
}

#[test]
fn endgame_plays_safe_when_far_ahead() {
    // Seat 0 at 150, seat 1 at 90: threshold 20; holding 12 + 10 = 22 it
    // stays where stay-at-25 would hit.
    let t = two_player_state(&[3, 12, 10], [2, 1], [150, 90]);
    assert_eq!(t.hand(0).banked(), 22);
    assert_eq!(sim::games::flip7::policies::endgame_threshold(&t, 0, 25), 20);
    assert!(!Policy::from(Rule::Endgame(25)).hit(&t, 0));
    assert!(Policy::stay_at(25).hit(&t, 0));
}

#[test]
fn endgame_beats_its_base_threshold_head_to_head() {
    let sim = Flip7Sim::new(
        2,
        &Policy::parse_list("endgame:25,stay-at-25").unwrap(),
        false,
        Without::default(),
    )
    .unwrap();
    let acc = run(
        &sim,
        &RunConfig {
            games: 200_000,
            seed: 8,
            threads: 2,
            progress: false,
        },
    )
    .unwrap();
    let ci = sim::engine::stats::wilson95(acc.seats[0].wins, acc.games);
    // Seat advantage is small in 2-player games; the endgame rule must win
    // clearly more than half (lower end of its 95% interval above 0.5).
    assert!(ci.0 > 0.5, "endgame win rate {ci:?}");
}

/// A four-player round stopped when seat 0 (the dealer, served last) is
/// asked Hit or Stay in the second pass. In front of the players:
/// seat 1: 9, 8, x2 (34, two numbers); seat 2: 12, +10, +2 (24, one
/// number); seat 3: 0, 1, 2 (3, three numbers); seat 0: 5, 6 (11).
/// Game totals: 50, 80, 150, 120.
fn choices_table() -> Table {
    struct StopAtSeat0 {
        snap: Option<Table>,
    }
    impl Chooser for StopAtSeat0 {
        fn hit(&mut self, t: &Table, seat: usize) -> bool {
            if self.snap.is_none() && seat == 0 && t.hand(1).flipped == 3 {
                self.snap = Some(t.clone());
            }
            self.snap.is_none()
        }
        fn target(&mut self, _: &Table, chooser: usize, _: Card) -> usize {
            chooser
        }
        fn second_chance_to(&mut self, _: &Table, _: usize) -> Option<usize> {
            None
        }
    }
    use sim::games::flip7::cards::{PLUS2, PLUS10};
    let mut t = table_with_hand(&[9, 12, 0, 5, 8, PLUS10, 1, 6, TIMES2, PLUS2, 2], 4);
    t.set_totals(&[50, 80, 150, 120]);
    let mut stop = StopAtSeat0 { snap: None };
    t.play_round(&mut stop, &mut Silent, &mut Stacked);
    let t = stop.snap.unwrap();
    let banked: Vec<u16> = (0..4).map(|s| t.hand(s).banked()).collect();
    assert_eq!(banked, [11, 34, 24, 3]);
    t
}

fn target_of(spec: &str, t: &Table, card: Card) -> usize {
    Seats::new(vec![Policy::parse(spec).unwrap(); 4]).target(t, 0, card)
}

#[test]
fn freeze_choices_pick_as_documented() {
    use sim::games::flip7::cards::FREEZE;
    let t = choices_table();
    assert_eq!(target_of("stay-at-25", &t, FREEZE), 2, "leader: highest total");
    assert_eq!(target_of("stay-at-25+freeze:most-cards", &t, FREEZE), 3);
    assert_eq!(target_of("stay-at-25+freeze:least-banked", &t, FREEZE), 3);
    // Holding 11: stay-at-25 would hit (not safe: the leader gets it),
    // stay-at-10 would stay (it freezes itself).
    assert_eq!(target_of("stay-at-25+freeze:self-when-safe", &t, FREEZE), 2);
    assert_eq!(target_of("stay-at-10+freeze:self-when-safe", &t, FREEZE), 0);
}

#[test]
fn flip_three_choices_pick_as_documented() {
    let t = choices_table();
    assert_eq!(target_of("stay-at-25", &t, FLIP_THREE), 3, "most number cards");
    assert_eq!(target_of("stay-at-25+flip-three:leader", &t, FLIP_THREE), 2);
    assert_eq!(target_of("stay-at-25+flip-three:most-banked", &t, FLIP_THREE), 1);
    // Holding 5 and 6, three cards bust seat 0 far more often than 15%.
    assert!(sim::games::flip7::policies::flip_three_bust_chance(&t, 0) > 0.15);
    assert_eq!(
        target_of("stay-at-25+flip-three:self-when-safe", &t, FLIP_THREE),
        3
    );
}

#[test]
fn second_chance_choices_pick_as_documented() {
    let t = choices_table();
    let to = |spec: &str| Seats::new(vec![Policy::parse(spec).unwrap(); 4]).second_chance_to(&t, 0);
    assert_eq!(to("stay-at-25"), Some(1), "lowest total");
    assert_eq!(to("stay-at-25+second-chance:least-banked"), Some(3));
    assert_eq!(to("stay-at-25+second-chance:fewest-cards"), Some(2));
}

/// The exact three-card bust chance against a direct count: every ordered
/// draw of three cards from the counted pile, played out.
#[test]
fn flip_three_bust_chance_matches_a_direct_count() {
    let t = choices_table();
    let (counts, _) = next_card_counts(&t);
    let mut pile: Vec<Card> = Vec::new();
    for (k, &c) in counts.iter().enumerate() {
        pile.extend(std::iter::repeat_n(k as Card, usize::from(c)));
    }
    let held = t.hand(0).numbers;
    let (mut busts, mut all) = (0u64, 0u64);
    for a in 0..pile.len() {
        for b in (0..pile.len()).filter(|&b| b != a) {
            for c in (0..pile.len()).filter(|&c| c != a && c != b) {
                all += 1;
                let (mut numbers, mut sc) = (held, false);
                for &card in &[pile[a], pile[b], pile[c]] {
                    if card <= 12 {
                        if numbers & (1 << card) != 0 {
                            if sc {
                                sc = false;
                            } else {
                                busts += 1;
                                break;
                            }
                        }
                        numbers |= 1 << card;
                    } else if card == SECOND_CHANCE {
                        sc = true;
                    }
                }
            }
        }
    }
    let direct = busts as f64 / all as f64;
    let exact = sim::games::flip7::policies::flip_three_bust_chance(&t, 0);
    assert!((direct - exact).abs() < 1e-12, "{direct} vs {exact}");
}

/// `optimal-round` in simulation (its memo kept per thread from batch to
/// batch) scores the exact optimum of the number-only solo round.
#[test]
fn optimal_round_policy_scores_the_exact_solo_optimum() {
    let comp = composition(1, Without::parse("actions,modifiers").unwrap());
    let optimum = solve::optimal(&comp).unwrap().optimal;
    let (mean, se) = solo_mean("optimal-round", 1_000_000);
    assert!(
        (mean - optimum).abs() < 4.0 * se,
        "{mean} ± {se} vs exact {optimum}"
    );
}
