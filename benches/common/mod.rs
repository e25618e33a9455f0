//! What the benches share.

use std::hint::black_box;

use criterion::BenchmarkGroup;
use criterion::measurement::WallTime;
use sim::engine::rng::batch_rng;
use sim::engine::runner::{BATCH_GAMES, Simulation};

/// Times one batch of `sim`'s games through the runner, a new batch (its
/// own generator) each time.
pub fn bench_batches<S: Simulation>(g: &mut BenchmarkGroup<'_, WallTime>, name: String, sim: &S) {
    g.bench_function(name, |b| {
        let mut n = 0;
        b.iter(|| {
            let mut acc = sim.new_acc();
            let mut rng = batch_rng(7, n);
            n += 1;
            sim.play_batch(&mut rng, BATCH_GAMES, &mut acc, None);
            black_box(acc)
        })
    });
}
