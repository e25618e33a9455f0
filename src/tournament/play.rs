//! Plays every arrangement on the same deals.
//!
//! Deal `i` of a tournament is game `i mod 1024` of batch `i / 1024` of the
//! engine. Every arrangement plays batch `b` with the same generator
//! [`batch_rng`]`(seed, b)`, and the engine gives each game its own
//! generator drawn from that stream ([`crate::engine::rng::game_rng`]), so
//! game `i` starts from the same shuffled deck in every arrangement, however
//! the earlier games of the batch went: common random numbers.
//!
//! Results are kept per batch and per arrangement, in integers, in batch
//! order; the batches run in parallel but the records are collected by
//! index, so nothing depends on the number of threads.

use std::io::Write;
use std::ops::Range;

use rayon::prelude::*;

use crate::engine::game::{Game, SeatResult};
use crate::engine::observe::TraceFormat;
use crate::engine::rng::batch_rng;
use crate::engine::runner::{self, RunConfig, Simulation, batch_len};

/// One batch of deals, played by every arrangement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchRecord {
    /// Deals in the batch (games per arrangement).
    pub deals: u64,
    /// `seats[a * players + s]`: seat `s` of arrangement `a`.
    pub seats: Vec<SeatResult>,
}

/// Plays batches `batches` of a tournament of `deals` deals, every
/// arrangement (`sims[a]`) on every batch, on `pool`.
pub fn play_batches<G: Game>(
    opts: &G::Options,
    sims: &[G::Sim],
    seed: u64,
    deals: u64,
    batches: Range<u64>,
    pool: &rayon::ThreadPool,
) -> Result<Vec<BatchRecord>, String> {
    pool.install(|| {
        batches
            .into_par_iter()
            .map(|b| {
                let n = batch_len(deals, b);
                let players = G::players(opts);
                let mut seats = Vec::with_capacity(sims.len() * players);
                for sim in sims {
                    let mut rng = batch_rng(seed, b);
                    let mut acc = sim.new_acc();
                    sim.play_batch(&mut rng, n, &mut acc, None);
                    let (games, results) = G::seat_results(opts, &acc);
                    if games != n || results.len() != players {
                        return Err(format!("internal: batch {b} played {games} games, expected {n}"));
                    }
                    seats.extend(results);
                }
                Ok(BatchRecord { deals: n, seats })
            })
            .collect()
    })
}

/// Writes the play-by-play of the first `deals` deals for every
/// arrangement, one after the other, each headed by
/// `arrangement A: seat 0 = NAME, seat 1 = NAME, ...`. The same code plays
/// the tournament; this lets a reader (or a test) see the same deals
/// replayed under every seating.
pub fn trace<G: Game>(
    sims: &[G::Sim],
    lineups: &[Vec<String>],
    seed: u64,
    deals: u64,
    out: &mut dyn Write,
) -> Result<(), String> {
    let cfg = RunConfig {
        games: deals,
        seed,
        threads: 1,
        progress: false,
    };
    for (a, (sim, names)) in sims.iter().zip(lineups).enumerate() {
        let seats: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(s, n)| format!("seat {s} = {n}"))
            .collect();
        writeln!(out, "arrangement {a}: {}", seats.join(", ")).map_err(|e| e.to_string())?;
        if runner::run_traced(sim, &cfg, TraceFormat::Text, out)?.is_none() {
            // The reader has gone.
            break;
        }
    }
    Ok(())
}
