//! Classic Flip's decision-heavy paths: scoring a combined hand, the
//! start decisions of the collector, the thief, the counter and
//! `rollout:4` (four playouts of the round per start option), the
//! sheriff's exact chance, the end-of-turn discard, and one whole round. The whole game
//! with the default policy is in `benches/games.rs`.
//!
//! Run: `cargo bench --features bench --bench classic_flip`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use sim::engine::rng::{batch_rng, game_rng};
use sim::games::classic_flip::cards::*;
use sim::games::classic_flip::policies::{Policy, Seats, chance_of_limit10};
use sim::games::classic_flip::rules::*;

/// Mid-round positions from real games: the table at the start of turns.
fn positions(players: usize, n: usize) -> Vec<Table> {
    let mut out = Vec::new();
    let mut t = Table::new(Rules::standard(players));
    let mut seats = Seats::new(vec![Policy::parse("collector").unwrap(); players]);
    let mut batch = batch_rng(1, 1);
    while out.len() < n {
        let mut rng = game_rng(&mut batch);
        t.new_game();
        t.deal(&mut rng);
        for turn in 0..12 {
            let p = turn % players;
            t.full_turn(p, &mut seats, &mut Silent, &mut rng);
            if t.caller().is_some() {
                break;
            }
            out.push(t.clone());
        }
    }
    out
}

fn benches(c: &mut Criterion) {
    let tables = positions(4, 256);
    let hands: Vec<CardSet> = tables.iter().map(|t| t.combined(0)).collect();
    let mut g = c.benchmark_group("classic_flip");
    g.bench_function("score_combined_hand", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % hands.len();
            black_box(score(black_box(hands[i])))
        })
    });
    for spec in ["collector", "thief+sheriff:0.3", "counter", "rollout:4"] {
        let mut pol = Policy::parse(spec).unwrap();
        g.bench_function(format!("start_decision_{spec}"), |b| {
            let mut i = 0;
            let mut rng = batch_rng(2, 2);
            b.iter(|| {
                i = (i + 1) % tables.len();
                let v = View::new(&tables[i], 0);
                black_box(pol.start(&v, &mut rng))
            })
        });
    }
    g.bench_function("discard_collector", |b| {
        let mut pol = Policy::parse("collector").unwrap();
        let mut i = 0;
        let mut rng = batch_rng(3, 3);
        b.iter(|| {
            i = (i + 1) % tables.len();
            let v = View::new(&tables[i], 0);
            black_box(pol.discard(&v, 7, false, &mut rng))
        })
    });
    g.bench_function("sheriff_chance", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % tables.len();
            let v = View::new(&tables[i], 0);
            black_box(chance_of_limit10(&v, 1))
        })
    });
    g.bench_function("round_4p_collector", |b| {
        let mut t = Table::new(Rules::standard(4));
        let mut seats = Seats::new(vec![Policy::parse("collector").unwrap(); 4]);
        let mut batch = batch_rng(4, 4);
        b.iter(|| {
            let mut rng = game_rng(&mut batch);
            t.new_game();
            t.deal(&mut rng);
            t.play_turns_from(1, &mut seats, &mut Silent, &mut rng);
            black_box(t.turns())
        })
    });
    g.finish();
}

criterion_group! {
    name = classic_flip;
    config = Criterion::default().without_plots();
    targets = benches
}
criterion_main!(classic_flip);
