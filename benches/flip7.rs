//! Criterion benches of the Flip 7 hot paths: one round, one whole game, a
//! batch through the runner (the unit of parallel work), and whole games
//! with the strongest policies.
//!
//! Run: `cargo bench --features bench --bench flip7`. Figures are medians;
//! compare runs made on the same machine in the same session.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

mod common;
use common::bench_batches;
use sim::engine::rng::batch_rng;
use sim::engine::runner::BATCH_GAMES;
use sim::games::flip7::Flip7Sim;
use sim::games::flip7::cards::{Without, composition};
use sim::games::flip7::optimal::{Memo, decide, random_state};
use sim::games::flip7::policies::{Policy, Seats, Thresholds};
use sim::games::flip7::rules::{Rules, Silent, Table};

fn rules(players: usize) -> Rules {
    Rules {
        players,
        composition: composition(1, Without::default()),
        single_round: false,
        fresh_deck: false,
    }
}

fn bench_round(c: &mut Criterion) {
    let mut g = c.benchmark_group("flip7");
    g.throughput(Throughput::Elements(1));
    let mut rng = batch_rng(1, 0);
    let mut table = Table::new(rules(4));
    // The chooser of plain threshold runs (the main job).
    let mut seats = Thresholds::uniform(25);
    // The general chooser, which dispatches on each seat's rule.
    let mut general = Seats::new(vec![Policy::stay_at(25); 4]);
    table.new_game(&mut rng);
    g.bench_function("round_4p_stay-at-25", |b| {
        b.iter(|| {
            // Fresh deck every 8 rounds so reshuffles weigh as in real games.
            if table.round().is_multiple_of(8) {
                table.new_game(&mut rng);
            }
            table.play_round(&mut seats, &mut Silent, &mut rng);
            black_box(table.total(0))
        })
    });
    g.bench_function("game_4p_stay-at-25", |b| {
        b.iter(|| {
            table.new_game(&mut rng);
            black_box(table.play_game(&mut seats, &mut Silent, &mut rng))
        })
    });
    g.bench_function("game_4p_stay-at-25_general_chooser", |b| {
        b.iter(|| {
            table.new_game(&mut rng);
            black_box(table.play_game(&mut general, &mut Silent, &mut rng))
        })
    });
    g.finish();
}

fn bench_batch(c: &mut Criterion) {
    let mut g = c.benchmark_group("flip7_batch");
    g.throughput(Throughput::Elements(BATCH_GAMES));
    g.sample_size(20);
    for players in [2, 4, 6] {
        let sim = Flip7Sim::new(players, &[Policy::stay_at(25)], false, Without::default()).unwrap();
        bench_batches(&mut g, format!("batch_{players}p_stay-at-25"), &sim);
    }
    g.finish();
}

/// Solo single rounds, a batch through the runner as
/// `sim flip7 --players 1 --single-round` plays them: numbers only with
/// `stay-at-23`, and the full deck with `stay-at-25` (the rounds of
/// `scripts/peer-speed.sh`).
fn bench_solo(c: &mut Criterion) {
    let mut g = c.benchmark_group("flip7_solo");
    g.throughput(Throughput::Elements(BATCH_GAMES));
    g.sample_size(20);
    let numbers = Without {
        freeze: true,
        flip_three: true,
        second_chance: true,
        modifiers: true,
    };
    for (name, at, without) in [
        ("numbers_stay-at-23", 23, numbers),
        ("full_deck_stay-at-25", 25, Without::default()),
    ] {
        let sim = Flip7Sim::new(1, &[Policy::stay_at(at)], true, without).unwrap();
        bench_batches(&mut g, format!("batch_1p_single_round_{name}"), &sim);
    }
    g.finish();
}

/// Whole two-player games with a searching or game-weighing seat against
/// `stay-at-25`, one seat each: `max-win` (its win-chance tables are made
/// before the measurement, as a run makes them once) and `optimal-round`.
fn bench_strong(c: &mut Criterion) {
    let mut g = c.benchmark_group("flip7_strong");
    g.throughput(Throughput::Elements(1));
    g.sample_size(20);
    for spec in ["max-win", "optimal-round", "ev"] {
        let mut table = Table::new(rules(2));
        let mut seats = Seats::new(vec![Policy::parse(spec).unwrap(), Policy::stay_at(25)]);
        let mut rng = batch_rng(3, 0);
        // Warm-up game: tables and memos made.
        table.new_game(&mut rng);
        table.play_game(&mut seats, &mut Silent, &mut rng);
        g.bench_function(format!("game_2p_{spec}_vs_stay-at-25"), |b| {
            b.iter(|| {
                table.new_game(&mut rng);
                black_box(table.play_game(&mut seats, &mut Silent, &mut rng))
            })
        });
    }
    g.finish();
}

/// `optimal-round`'s decisions alone: the same 300 random states that its
/// bounds without a search leave open (alone in the round and at a table),
/// each decided afresh. A whole run's time depends on the few decisions
/// near a tie its seed meets; this measures changes to the search on a
/// fixed set of decisions.
fn bench_optimal_decisions(c: &mut Criterion) {
    let mut rng = batch_rng(23, 0);
    let mut memo = Memo::new();
    let mut states = Vec::new();
    while states.len() < 300 {
        let (hand, unseen) = random_state(&mut rng);
        for solo in [false, true] {
            memo.clear();
            let searches = memo.searches() + memo.bounding_searches();
            decide(&hand, &unseen, solo, &mut memo);
            if memo.searches() + memo.bounding_searches() > searches {
                states.push((hand, unseen, solo));
            }
        }
    }
    let mut g = c.benchmark_group("flip7_optimal");
    g.throughput(Throughput::Elements(states.len() as u64));
    g.sample_size(10);
    g.bench_function("decide_300_searched_states", |b| {
        b.iter(|| {
            for (hand, unseen, solo) in &states {
                memo.clear();
                black_box(decide(hand, unseen, *solo, &mut memo));
            }
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    // No charts: they need system fonts, which a bare machine may lack
    // (criterion then panics after measuring). The figures are printed.
    config = Criterion::default().without_plots();
    targets = bench_round, bench_batch, bench_solo, bench_strong, bench_optimal_decisions
}
criterion_main!(benches);
