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

use crate::analysis::tally::{GROUPS, Moments, Tally, pair_index};
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

/// The sizes of a batch's sums, from the entrants and the seats.
#[derive(Clone, Copy)]
struct Shape {
    /// Entrants.
    entrants: usize,
    /// Seats at the table.
    players: usize,
    /// Unordered pairs of entrants.
    pairs: usize,
    /// Unordered pairs of seats.
    seat_pairs: usize,
    /// Sums per deal: for each entrant the [`PER_ENTRANT`] sums; for each
    /// pair the wins of its lower and of its higher entrant.
    width: usize,
}

impl Shape {
    /// The shape of a tournament of `entrants` entrants at `players` seats.
    fn new(entrants: usize, players: usize) -> Shape {
        let pairs = entrants * entrants.saturating_sub(1) / 2;
        Shape {
            entrants,
            players,
            pairs,
            seat_pairs: players * players.saturating_sub(1) / 2,
            width: PER_ENTRANT * entrants + 2 * pairs,
        }
    }
}

/// One batch under way: what each of its arrangements plays.
struct Batch<'a, G: Game> {
    /// The game's options.
    opts: &'a G::Options,
    /// The sizes of its sums.
    shape: Shape,
    /// The tournament's seed.
    seed: u64,
    /// The batch's number.
    b: u64,
    /// Its deals.
    n: usize,
}

/// What the arrangements of a batch add up, deal by deal.
struct BatchSums {
    /// `part[d * width..(d + 1) * width]`: deal `d`'s sums over every
    /// arrangement ([`Shape::width`]).
    part: Vec<i64>,
    /// Deal d carries over to deal d + 1 in some arrangement.
    linked: Vec<bool>,
    /// `beats[i * entrants + j]`: games `i` won at a table with `j`.
    beats: Vec<u64>,
}

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
    let shape = Shape::new(entrants, players);
    let batch = Batch::<G> {
        opts,
        shape,
        seed,
        b,
        n,
    };
    let mut sums = BatchSums {
        part: vec![0i64; n * shape.width],
        linked: vec![false; n],
        beats: vec![0u64; entrants * entrants],
    };
    let m = &mut tally.moments;
    let mut seats = Vec::with_capacity(sims.len() * players);
    for (a, sim) in sims.iter().enumerate() {
        let total = play_arrangement(&batch, sim, a, &arrangements[a], &mut sums, m)?;
        seats.extend(total);
    }
    let sittings = Sittings::new(arrangements, shape);
    add_units(&sums, &sittings, shape, n, m);
    tally.seats = seats;
    tally.deals = n as u64;
    tally.batches = 1;
    tally.beats[(b % GROUPS) as usize] = sums.beats;
    Ok(tally)
}

/// Arrangement `a` (`sim`, seated as `who`) plays the deals of `batch`:
/// adds each deal's results to `sums` and its seats' units (for the
/// variance had it played its own deals) to `m`. Returns its totals per
/// seat.
fn play_arrangement<G: Game>(
    batch: &Batch<'_, G>,
    sim: &G::Sim,
    a: usize,
    who: &[usize],
    sums: &mut BatchSums,
    m: &mut Moments,
) -> Result<Vec<SeatResult>, String> {
    let Shape {
        entrants,
        players,
        width,
        ..
    } = batch.shape;
    let (opts, b, n) = (batch.opts, batch.b, batch.n);
    let BatchSums { part, linked, beats } = sums;
    let mut failed = None;
    let mut rng = batch_rng(batch.seed, b);
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
        add_pair_wins(row, who, &res, entrants);
        cur_games += 1;
        d += 1;
        if !carry || d == n {
            add_seat_unit(m, a, batch.shape, &cur, cur_games);
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
    Ok(total)
}

/// Adds one game's wins of the seats `res` (seated as `who`, of
/// `entrants` entrants) to the pairs' sums of its deal's `row`: for each
/// pair at the table, the wins of its lower and of its higher entrant.
#[inline]
fn add_pair_wins(row: &mut [i64], who: &[usize], res: &[SeatResult], entrants: usize) {
    let players = res.len();
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
}

/// Adds one unit of arrangement `a`'s own (`cur`: its seats' wins over
/// `cur_games` games) to its seats' sums in `m`, as if the arrangement
/// had played its own deals.
#[inline]
fn add_seat_unit(m: &mut Moments, a: usize, shape: Shape, cur: &[i64], cur_games: i64) {
    let Shape {
        players, seat_pairs, ..
    } = shape;
    for s in 0..players {
        m.seat_win[a * players + s].add(cur[s], cur_games);
        for t in s + 1..players {
            m.seat_diff[a * seat_pairs + pair_index(s, t, players)].add(cur[s] - cur[t], cur_games);
        }
    }
}

/// How many arrangements each entrant, and each pair, sits in.
struct Sittings {
    /// Per entrant.
    sits: Vec<i64>,
    /// Per unordered pair ([`pair_index`]).
    together: Vec<i64>,
}

impl Sittings {
    /// The sittings of `arrangements` (of `shape`'s entrants).
    fn new(arrangements: &[Vec<usize>], shape: Shape) -> Sittings {
        let entrants = shape.entrants;
        let mut sits = vec![0i64; entrants];
        let mut together = vec![0i64; shape.pairs];
        for who in arrangements {
            for (s, &e) in who.iter().enumerate() {
                sits[e] += 1;
                for &f in &who[s + 1..] {
                    together[pair_index(e.min(f), e.max(f), entrants)] += 1;
                }
            }
        }
        Sittings { sits, together }
    }
}

/// Adds the `n` deals of a batch to the design sums `m` as independent
/// units: runs of deals joined while some arrangement carries over, each
/// with the sums over every arrangement (`sums`), counted over the games
/// its entrants and pairs played (`sittings`).
fn add_units(sums: &BatchSums, sittings: &Sittings, shape: Shape, n: usize, m: &mut Moments) {
    let Shape {
        entrants,
        pairs,
        width,
        ..
    } = shape;
    let (part, linked) = (&sums.part, &sums.linked);
    let (sits, together) = (&sittings.sits, &sittings.together);
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
