//! Criterion benches of Flip-Flush: one whole game and one batch through the
//! runner (the unit of parallel work), 4 players, with the default policy
//! (which reads its opponents), the counting `counter` (the default before
//! it) and the cheap `call-at:0.5+count+place-random` baseline.
//!
//! Run: `cargo bench --features bench --bench flip_flush`. Figures are
//! medians; compare runs made on the same machine in the same session.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

mod common;
use common::bench_batches;
use sim::engine::rng::batch_rng;
use sim::engine::runner::BATCH_GAMES;
use sim::games::flip_flush::FlipFlushSim;
use sim::games::flip_flush::policies::{Policy, Seats};
use sim::games::flip_flush::rules::{Rules, Silent, Table};

const SPECS: [(&str, &str); 3] = [
    ("default", "default"),
    (
        "counter",
        "call-at:0.5+count+flip-likely+flip-safe+place-block+place-build",
    ),
    ("random", "call-at:0.5+count+place-random"),
];

fn bench_game(c: &mut Criterion) {
    let mut g = c.benchmark_group("flip_flush");
    g.throughput(Throughput::Elements(1));
    for (label, spec) in SPECS {
        let mut rng = batch_rng(1, 0);
        let mut table = Table::new(Rules::standard(4));
        let mut seats = Seats::new(vec![Policy::parse(spec).unwrap(); 4]);
        g.bench_function(format!("game_4p_{label}"), |b| {
            b.iter(|| {
                table.new_game(&mut rng);
                black_box(table.play_game(&mut seats, &mut Silent, &mut rng))
            })
        });
    }
    g.finish();
}

fn bench_batch(c: &mut Criterion) {
    let mut g = c.benchmark_group("flip_flush_batch");
    g.throughput(Throughput::Elements(BATCH_GAMES));
    g.sample_size(20);
    for (label, spec) in SPECS {
        for gambling in [false, true] {
            let rules = Rules {
                gambling,
                ..Rules::standard(4)
            };
            let sim = FlipFlushSim::new(rules, &[Policy::parse(spec).unwrap()]).unwrap();
            let name = format!("batch_4p_{label}{}", if gambling { "_gambling" } else { "" });
            bench_batches(&mut g, name, &sim);
        }
    }
    g.finish();
}

criterion_group! {
    name = benches;
    // No charts: they need system fonts, which a bare machine may lack
    // (criterion then panics after measuring). The figures are printed.
    config = Criterion::default().without_plots();
    targets = bench_game, bench_batch
}
criterion_main!(benches);
