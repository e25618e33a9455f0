//! Plays every arrangement on the same deals.
//!
//! Deal `i` of a tournament is game `i mod 1024` of batch `i / 1024` of the
//! engine. Every arrangement plays batch `b` with the same generator
//! [`batch_rng`]`(seed, b)`, and the engine gives each game its own
//! generator drawn from that stream ([`crate::engine::rng::game_rng`]), so
//! game `i` starts from the same shuffled deck in every arrangement, however
//! the earlier games of the batch went: common random numbers.
//!
//! What a tournament keeps ([`Tally`]) is integer sums of a fixed size:
//! totals per arrangement and seat, "who beat whom" per bootstrap group of
//! batches, and the sums behind every standard error ([`Moments`]), added
//! up deal by deal. The batches run in parallel and their tallies are
//! added in whatever order they finish: integer sums, so nothing depends
//! on the number of threads, and memory does not grow with the deals.

use std::io::Write;
use std::ops::Range;

use std::sync::atomic::AtomicBool;

use indicatif::ProgressBar;

use crate::analysis::tally::{GROUPS, Tally, pair_index};
use crate::engine::game::{Game, SeatResult};
use crate::engine::observe::TraceFormat;
use crate::engine::rng::batch_rng;
use crate::engine::runner::{self, Batches, RunConfig, Simulation, batch_len};

/// Plays the batches in `batches` (sorted ranges) of a tournament of
/// `deals` deals, every arrangement (`sims[a]`, seated as
/// `arrangements[a]`) on every batch, on `pool`, and returns their tally
/// and the ranges played. `bar` counts the games played. Once `stop` is
/// set no batch starts.
#[allow(clippy::too_many_arguments)]
pub fn play_batches<G: Game>(
    opts: &G::Options,
    sims: &[G::Sim],
    arrangements: &[Vec<usize>],
    entrants: usize,
    seed: u64,
    deals: u64,
    batches: &[Range<u64>],
    pool: &rayon::ThreadPool,
    bar: &ProgressBar,
    stop: &AtomicBool,
) -> Result<(Tally, Vec<Range<u64>>), String> {
    let players = G::players(opts);
    let empty = || Tally::new(entrants, arrangements.len(), players);
    let each = Batches {
        ranges: batches,
        stop,
        bar,
    };
    each.play(
        pool,
        empty,
        |a, b| a.merge(&b),
        |acc, b| {
            let t = play_one::<G>(opts, sims, arrangements, entrants, seed, deals, b, empty())?;
            acc.merge(&t);
            Ok(batch_len(deals, b) * sims.len() as u64)
        },
    )
}

/// Sums kept per entrant and deal: wins, score, rounds, round scores,
/// losses, places and games with every place given.
const PER_ENTRANT: usize = 7;

/// Batch `b`: every arrangement plays its deals, and each deal's results
/// over all arrangements are summed before they go into the design sums as
/// one unit (deals linked by a game that carries over are summed
/// together). `tally` is empty and comes back holding the batch.
#[allow(clippy::too_many_arguments)]
fn play_one<G: Game>(
    opts: &G::Options,
    sims: &[G::Sim],
    arrangements: &[Vec<usize>],
    entrants: usize,
    seed: u64,
    deals: u64,
    b: u64,
    mut tally: Tally,
) -> Result<Tally, String> {
    let n = batch_len(deals, b) as usize;
    let players = G::players(opts);
    let pairs = entrants * entrants.saturating_sub(1) / 2;
    let seat_pairs = players * players.saturating_sub(1) / 2;
    // Per deal: for each entrant the [`PER_ENTRANT`] sums; for each pair
    // the wins of its lower and of its higher entrant.
    let width = PER_ENTRANT * entrants + 2 * pairs;
    let mut part = vec![0i64; n * width];
    // Deal d carries over to deal d + 1 in some arrangement.
    let mut linked = vec![false; n];
    let m = &mut tally.moments;
    let mut seats = Vec::with_capacity(sims.len() * players);
    let mut beats = vec![0u64; entrants * entrants];
    let mut failed = None;
    for (a, sim) in sims.iter().enumerate() {
        let who = &arrangements[a];
        let mut rng = batch_rng(seed, b);
        let mut total = vec![SeatResult::default(); players];
        // This arrangement's own unit so far (for the variance had it
        // played its own deals).
        let mut cur = vec![0i64; players];
        let mut cur_games = 0i64;
        let mut d = 0usize;
        sim.play_each(&mut rng, n as u64, &mut |acc| {
            let (games, res) = G::seat_results(opts, acc);
            if games != 1 || res.len() != players || d >= n {
                failed.get_or_insert_with(|| format!("internal: one game of batch {b} gave {games} games"));
                return;
            }
            let carry = G::carries_over(opts, acc);
            linked[d] |= carry;
            let row = &mut part[d * width..(d + 1) * width];
            for (s, r) in res.iter().enumerate() {
                for &j in who {
                    if j != who[s] {
                        beats[who[s] * entrants + j] += r.wins;
                    }
                }
                let e = PER_ENTRANT * who[s];
                row[e] += r.wins as i64;
                row[e + 1] += r.score_sum;
                row[e + 2] += r.rounds as i64;
                row[e + 3] += r.round_score_sum as i64;
                row[e + 4] += r.losses as i64;
                row[e + 5] += r.place_sum as i64;
                row[e + 6] += r.placed as i64;
                cur[s] += r.wins as i64;
                total[s].add(r);
            }
            for s in 0..players {
                for t in s + 1..players {
                    let (i, j) = (who[s].min(who[t]), who[s].max(who[t]));
                    let (wi, wj) = if who[s] < who[t] {
                        (res[s].wins, res[t].wins)
                    } else {
                        (res[t].wins, res[s].wins)
                    };
                    let k = PER_ENTRANT * entrants + 2 * pair_index(i, j, entrants);
                    row[k] += wi as i64;
                    row[k + 1] += wj as i64;
                }
            }
            cur_games += 1;
            d += 1;
            if !carry || d == n {
                for s in 0..players {
                    m.seat_win[a * players + s].add(cur[s], cur_games);
                    for t in s + 1..players {
                        m.seat_diff[a * seat_pairs + pair_index(s, t, players)]
                            .add(cur[s] - cur[t], cur_games);
                    }
                }
                cur.fill(0);
                cur_games = 0;
            }
        });
        if let Some(e) = failed.take() {
            return Err(e);
        }
        if d != n {
            return Err(format!("internal: batch {b} played {d} games, expected {n}"));
        }
        seats.extend(total);
    }
    // Arrangements each entrant, and each pair, sits in.
    let mut sits = vec![0i64; entrants];
    let mut together = vec![0i64; pairs];
    for who in arrangements {
        for (s, &e) in who.iter().enumerate() {
            sits[e] += 1;
            for &f in &who[s + 1..] {
                together[pair_index(e.min(f), e.max(f), entrants)] += 1;
            }
        }
    }
    // Units: runs of deals joined while some arrangement carries over.
    let mut unit = vec![0i64; width];
    let mut unit_deals = 0i64;
    for d in 0..n {
        for (u, v) in unit.iter_mut().zip(&part[d * width..(d + 1) * width]) {
            *u += v;
        }
        unit_deals += 1;
        if linked[d] && d + 1 < n {
            continue;
        }
        for e in 0..entrants {
            let g = sits[e] * unit_deals;
            let u = &unit[PER_ENTRANT * e..PER_ENTRANT * (e + 1)];
            m.win[e].add(u[0], g);
            m.score[e].add(u[1], g);
            m.round[e].add(u[3], u[2]);
            m.loss[e].add(u[4], g);
            m.place[e].add(u[5], u[6]);
        }
        let h = PER_ENTRANT * entrants;
        for k in 0..pairs {
            let (wi, wj) = (unit[h + 2 * k], unit[h + 2 * k + 1]);
            m.h2h[k].add(wi, wi + wj);
            m.diff[k].add(wi - wj, together[k] * unit_deals);
        }
        unit.fill(0);
        unit_deals = 0;
    }
    tally.seats = seats;
    tally.deals = n as u64;
    tally.batches = 1;
    tally.beats[(b % GROUPS) as usize] = beats;
    Ok(tally)
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
        match writeln!(out, "arrangement {a}: {}", seats.join(", ")) {
            // The reader has gone.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => break,
            Err(e) => return Err(e.to_string()),
            Ok(()) => {}
        }
        runner::run_traced(sim, &cfg, TraceFormat::Text, out)?;
    }
    Ok(())
}
