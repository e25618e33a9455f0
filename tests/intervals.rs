//! Coverage of the intervals tournaments and sweeps report: the same small
//! tournament (and sweep) is played with many seeds, and the share of 95%
//! intervals that contain the mean over all seeds pooled is counted, for
//! win rates, mean scores, round scores and head-to-head shares.
//!
//! A 95% interval that respects how the games were played (every deal
//! replayed in every arrangement; the rounds of a game sharing a deck)
//! covers the pooled mean about 95% of the time. The earlier intervals
//! (Wilson over all games, batch means over two batches) covered it only
//! 55-90% of the time.

// Lists of batch ranges that hold one range.
#![allow(clippy::single_range_in_vec_init)]

use sim::analysis::standings::{self as analysis, Setup};
use sim::analysis::tally::Moments;
use sim::engine::design::{Ratio, t975};
use sim::engine::game::{Game, default_options};
use sim::engine::runner::{self, RunConfig};
use sim::engine::stats::wilson95;
use sim::games::flip7::{Flip7, Flip7Options};
use sim::studies::arrange::arrangements;
use sim::studies::play::play_batches;

/// No progress bar.
fn hidden() -> indicatif::ProgressBar {
    indicatif::ProgressBar::hidden()
}

/// Never asked to stop.
static GO: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Hits and trials of "the interval contains the pooled mean".
#[derive(Default)]
struct Coverage {
    hits: u32,
    trials: u32,
}

impl Coverage {
    fn count(&mut self, (lo, hi): (f64, f64), truth: f64) {
        self.trials += 1;
        self.hits += u32::from(lo <= truth && truth <= hi);
    }

    /// The share covered, checked to be near 95%: at least 90% (the issue's
    /// bar) and below 99.5% (an interval that always covers is too wide).
    fn check(&self, what: &str) {
        let share = f64::from(self.hits) / f64::from(self.trials);
        eprintln!("{what}: {}/{} = {share:.3}", self.hits, self.trials);
        assert!(
            share >= 0.90,
            "{what}: only {share:.3} of 95% intervals cover the pooled mean"
        );
        assert!(
            share <= 0.995,
            "{what}: {share:.3} of 95% intervals cover: too wide"
        );
    }
}

/// One simulation per seat arrangement of `words` at `players` seats.
fn tournament<G: Game>(opts: &G::Options, words: &[&str], players: usize) -> (Vec<Vec<usize>>, Vec<G::Sim>) {
    let policies: Vec<G::Policy> = words.iter().map(|w| G::parse_policy(w).unwrap()).collect();
    let arr = arrangements(words.len(), players).unwrap();
    let sims = arr
        .seats
        .iter()
        .map(|s| {
            let lineup: Vec<G::Policy> = s.iter().map(|&e| policies[e].clone()).collect();
            G::simulation(opts, &lineup).unwrap()
        })
        .collect();
    (arr.seats, sims)
}

fn options(players: u16) -> Flip7Options {
    let mut o = default_options::<Flip7>();
    o.players = players;
    o
}

#[test]
fn tournament_intervals_cover_the_pooled_mean_over_many_seeds() {
    let words = ["stay-at-15", "stay-at-25", "bust-prob:0.3", "stay-at-35"];
    let opts = options(3);
    let (seats, sims) = tournament::<Flip7>(&opts, &words, 3);
    let names: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let deals = 150;
    let seeds = 160u64;
    let mut reports = Vec::new();
    let mut pooled: Option<Moments> = None;
    for seed in 0..seeds {
        let tally = play_batches::<Flip7>(
            &opts,
            &sims,
            &seats,
            names.len(),
            1000 + seed,
            deals,
            &[0..1],
            &pool,
            &hidden(),
            &GO,
        )
        .unwrap()
        .0;
        let setup = Setup {
            names: &names,
            arrangements: &seats,
            seed,
            has_score: true,
            has_rounds: true,
            has_places: false,
        };
        reports.push(analysis::analyse(&setup, &tally));
        match pooled.as_mut() {
            Some(p) => p.merge(&tally.moments),
            None => pooled = Some(tally.moments),
        }
    }
    let pooled = pooled.unwrap();
    let (mut win, mut score, mut round, mut h2h) = (
        Coverage::default(),
        Coverage::default(),
        Coverage::default(),
        Coverage::default(),
    );
    for r in &reports {
        assert_eq!(r.units, deals, "one unit per deal");
        for s in &r.standings {
            let e = s.entrant;
            win.count(s.win_ci, pooled.win[e].estimate());
            let t = t975(r.units - 1);
            let (m, se) = s.score.unwrap();
            score.count((m - t * se, m + t * se), pooled.score[e].estimate());
            let (m, se) = s.round_score.unwrap();
            round.count((m - t * se, m + t * se), pooled.round[e].estimate());
        }
        for p in r.pairs.iter().filter(|p| p.a < p.b) {
            let k = sim::analysis::tally::pair_index(p.a, p.b, names.len());
            h2h.count(p.h2h_ci, pooled.h2h[k].estimate());
        }
    }
    win.check("win rate");
    score.check("mean final score");
    round.check("mean round score");
    h2h.check("head-to-head share");
}

#[test]
fn sweep_intervals_cover_the_pooled_mean_over_many_seeds() {
    // What `sim sweep` reports for the swept seat: the Wilson interval of
    // its win rate (the games of a run are independent) and its round
    // score with the error grouped by game.
    let opts = options(3);
    let seeds = 250u64;
    let (mut win, mut round) = (Coverage::default(), Coverage::default());
    for value in [15, 30] {
        let lineup: Vec<_> = [
            format!("stay-at-{value}"),
            "stay-at-25".into(),
            "stay-at-25".into(),
        ]
        .iter()
        .map(|w| Flip7::parse_policy(w).unwrap())
        .collect();
        let sim = Flip7::simulation(&opts, &lineup).unwrap();
        let mut results = Vec::new();
        let mut wins = 0;
        let mut games = 0;
        let mut rounds = Ratio::default();
        for seed in 0..seeds {
            let cfg = RunConfig {
                games: 300,
                seed: 5000 + seed,
                threads: 1,
                progress: false,
            };
            let acc = runner::run(&sim, &cfg).unwrap();
            let (g, seats) = Flip7::seat_results(&opts, &acc);
            wins += seats[0].wins;
            games += g;
            rounds.merge(&seats[0].round_by_game);
            results.push((g, seats[0]));
        }
        let rate = wins as f64 / games as f64;
        for (g, s) in &results {
            win.count(wilson95(s.wins, *g), rate);
            round.count(s.round_by_game.mean_interval().unwrap(), rounds.estimate());
        }
    }
    win.check("sweep win rate");
    round.check("sweep round score");
}

#[test]
fn deals_linked_by_a_carried_pot_form_one_unit() {
    // Flip-Flush gambling: a tied game leaves its pot to the next game, so
    // the two are not independent; the tournament joins such deals into one
    // unit. Without gambling every deal is a unit of its own.
    use sim::games::flip_flush::FlipFlush;
    let units = |gambling: bool, words: &[&str]| {
        let mut opts = default_options::<FlipFlush>();
        opts.players = 3;
        opts.gambling = gambling;
        let (seats, sims) = tournament::<FlipFlush>(&opts, words, 3);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let t = play_batches::<FlipFlush>(
            &opts,
            &sims,
            &seats,
            words.len(),
            7,
            1500,
            &[0..2],
            &pool,
            &hidden(),
            &GO,
        )
        .unwrap()
        .0;
        t.moments.units()
    };
    let calling = ["call-at:0.2", "call-at:0.3", "default"];
    assert_eq!(units(false, &calling), 1500);
    let joined = units(true, &calling);
    assert!(joined > 50 && joined < 1500, "{joined}");
    // Nobody ever calls: every pot carries to the end of its batch.
    assert_eq!(
        units(true, &["never-call", "never-call+count", "never-call+read:0"]),
        2
    );
}
