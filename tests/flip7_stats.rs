//! Simulated statistics against exact values.

use sim::engine::runner::{RunConfig, run};
use sim::games::flip7::Flip7Sim;
use sim::games::flip7::cards::Without;
use sim::games::flip7::policies::Policy;

fn solo_round_mean(threshold: u16, games: u64) -> (f64, f64) {
    let without = Without::parse("actions,modifiers").unwrap();
    let sim = Flip7Sim::new(1, &[Policy::stay_at(threshold)], true, without).unwrap();
    let cfg = RunConfig {
        games,
        seed: 20_251_121 + u64::from(threshold),
        threads: 2,
        progress: false,
    };
    let acc = run(&sim, &cfg).unwrap();
    let row = &acc.rows()[0];
    assert_eq!(row.rounds, games);
    (row.mean_round_score, row.round_score_stderr)
}

/// Published exact expected scores of a solo round from a fresh deck of
/// number cards only: stay-at-20 18.2451, stay-at-25 18.4061, stay-at-30
/// 17.1389. The simulated mean must be within 4 standard errors.
#[test]
fn solo_round_means_match_published_exact_values() {
    for (threshold, exact) in [(20, 18.2451), (25, 18.4061), (30, 17.1389)] {
        let (mean, se) = solo_round_mean(threshold, 2_000_000);
        assert!(se > 0.0 && se < 0.02, "stay-at-{threshold}: se {se}");
        let z = (mean - exact) / se;
        assert!(
            z.abs() < 4.0,
            "stay-at-{threshold}: mean {mean:.4} vs exact {exact} ({z:.2} standard errors)"
        );
    }
}

/// The same check must be able to fail: a threshold whose exact value is
/// clearly different is rejected by it.
#[test]
fn solo_round_check_tells_thresholds_apart() {
    let (mean, se) = solo_round_mean(20, 2_000_000);
    let z = (mean - 17.1389) / se;
    assert!(z.abs() > 20.0, "stay-at-20 looks like stay-at-30 ({z:.2} se)");
}

#[test]
fn every_game_has_one_winner_in_full_games() {
    let sim = Flip7Sim::new(4, &[Policy::stay_at(25)], false, Without::default()).unwrap();
    let acc = run(
        &sim,
        &RunConfig {
            games: 20_000,
            seed: 5,
            threads: 2,
            progress: false,
        },
    )
    .unwrap();
    assert_eq!(acc.no_winner, 0);
    assert_eq!(acc.seats.iter().map(|s| s.wins).sum::<u64>(), 20_000);
    for st in &acc.seats {
        assert_eq!(st.outcomes.iter().sum::<u64>(), acc.rounds);
    }
}

#[test]
fn same_seed_same_statistics_for_any_thread_count() {
    let sim = Flip7Sim::new(
        3,
        &Policy::parse_list("stay-at-15,stay-at-25,stay-at-35").unwrap(),
        false,
        Without::default(),
    )
    .unwrap();
    let one = run(
        &sim,
        &RunConfig {
            games: 30_000,
            seed: 77,
            threads: 1,
            progress: false,
        },
    )
    .unwrap();
    for threads in [2, 3, 8] {
        let many = run(
            &sim,
            &RunConfig {
                games: 30_000,
                seed: 77,
                threads,
                progress: false,
            },
        )
        .unwrap();
        assert_eq!(many, one, "threads {threads}");
    }
    let other = run(
        &sim,
        &RunConfig {
            games: 30_000,
            seed: 78,
            threads: 2,
            progress: false,
        },
    )
    .unwrap();
    assert_ne!(other, one);
}
