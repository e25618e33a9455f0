//! One criterion bench for every registered game: a batch of
//! [`BATCH_GAMES`] games with the game's default options and default
//! policy in every seat, through the same `play_batch` the runner calls.
//! A new game is measured here by being registered; its own hot paths
//! (a round, a decision) go in a bench of its own.
//!
//! Run: `cargo bench --features bench --bench games`. Figures are medians
//! per game.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

mod common;
use common::bench_batches;
use sim::engine::game::{Game, Visitor, default_options};
use sim::engine::runner::BATCH_GAMES;

struct Bench<'a>(&'a mut Criterion);

impl Visitor for Bench<'_> {
    fn visit<G: Game>(&mut self) {
        let opts = default_options::<G>();
        let players = G::players(&opts);
        let policy = G::parse_policy(G::DEFAULT_POLICY).expect("the default policy parses");
        let sim = G::simulation(&opts, &vec![policy; players]).expect("the default game builds");
        let mut g = self.0.benchmark_group("games");
        g.throughput(Throughput::Elements(BATCH_GAMES));
        g.sample_size(20);
        bench_batches(
            &mut g,
            format!("{}_batch_{players}p_{}", G::NAME, G::DEFAULT_POLICY),
            &sim,
        );
        g.finish();
    }
}

fn every_game(c: &mut Criterion) {
    sim::games::each(&mut Bench(c));
}

criterion_group! {
    name = benches;
    // No charts: they need system fonts, which a bare machine may lack.
    config = Criterion::default().without_plots();
    targets = every_game
}
criterion_main!(benches);
