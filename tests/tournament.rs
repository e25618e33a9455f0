//! `sim tournament`: balanced seating, common random numbers, reproducible
//! files, and the game-agnostic interface on both games.

use std::path::Path;

use crate::common;
use common::*;

use sim::engine::game::Game;
use sim::games::flip7::policies::Policy;
use sim::games::flip7::{Flip7, Flip7Options};
use sim::studies::arrange::arrangements;
use sim::studies::play::trace;

fn read_csv(path: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let mut rows = vec![r.headers().unwrap().iter().map(String::from).collect()];
    for rec in r.records() {
        rows.push(rec.unwrap().iter().map(String::from).collect());
    }
    rows
}

#[test]
fn seat_rotation_is_balanced() {
    for (entrants, players) in [
        (2, 2),
        (3, 3),
        (4, 4),
        (5, 5),
        (6, 6),
        (4, 2),
        (5, 3),
        (6, 4),
        (7, 5),
        (8, 6),
    ] {
        let arr = arrangements(entrants, players).unwrap();
        let mut seat_count = vec![vec![0usize; players]; entrants];
        let mut meet = vec![vec![0usize; entrants]; entrants];
        for seats in &arr.seats {
            assert_eq!(seats.len(), players);
            let mut seen = seats.clone();
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), players, "an entrant sits twice: {seats:?}");
            for (s, &e) in seats.iter().enumerate() {
                seat_count[e][s] += 1;
                for &f in seats {
                    meet[e][f] += 1;
                }
            }
        }
        let each = seat_count[0][0];
        assert!(each > 0);
        for row in &seat_count {
            assert!(
                row.iter().all(|&c| c == each),
                "{entrants}/{players}: {seat_count:?}"
            );
        }
        let together = meet[0][1];
        for (e, row) in meet.iter().enumerate() {
            for (f, &m) in row.iter().enumerate() {
                if e != f {
                    assert_eq!(m, together, "{entrants}/{players}: pairs meet unequally");
                }
            }
        }
        let times = match each {
            1 => "once".to_string(),
            2 => "twice".to_string(),
            n => format!("{n} times"),
        };
        assert!(arr.how.contains(&format!("every seat {times}")), "{}", arr.how);
    }
    // Small tables: every order; large ones: rotations.
    assert_eq!(arrangements(4, 4).unwrap().seats.len(), 24);
    assert_eq!(arrangements(6, 6).unwrap().seats.len(), 6);
    assert_eq!(arrangements(6, 4).unwrap().seats.len(), 15 * 24);
}

fn flip7_table(players: u16) -> Flip7Options {
    Flip7Options {
        players,
        single_round: false,
        fresh_deck: false,
        without: None,
    }
}

/// Splits a tournament trace into one text per arrangement (without the
/// heading line).
fn per_arrangement(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with("arrangement ") {
            out.push(String::new());
        } else {
            let cur = out.last_mut().expect("heading first");
            cur.push_str(line);
            cur.push('\n');
        }
    }
    out
}

#[test]
fn every_arrangement_replays_the_same_deals() {
    let table = flip7_table(3);
    let specs = ["stay-at-18", "cards-3", "bust-prob:0.3"];
    let policies: Vec<Policy> = specs.iter().map(|s| Policy::parse(s).unwrap()).collect();
    let arr = arrangements(3, 3).unwrap();
    let sims: Vec<_> = arr
        .seats
        .iter()
        .map(|seats| {
            let lineup: Vec<Policy> = seats.iter().map(|&e| policies[e]).collect();
            Flip7::simulation(&table, &lineup).unwrap()
        })
        .collect();
    let names: Vec<Vec<String>> = arr
        .seats
        .iter()
        .map(|seats| seats.iter().map(|&e| specs[e].to_string()).collect())
        .collect();
    // Deals from the second batch on too: 1030 games, look at the last 10.
    let mut out = Vec::new();
    trace::<Flip7>(&sims, &names, 99, 1030, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.starts_with("arrangement 0: seat 0 = stay-at-18, seat 1 = cards-3, seat 2 = bust-prob:0.3\n")
    );
    let parts = per_arrangement(&text);
    assert_eq!(parts.len(), 6);
    // The opening deal of every game (before anybody decides anything) is
    // the same card for the same seat in every arrangement, even though the
    // earlier games were played differently.
    let deals = |t: &str| -> Vec<String> {
        let mut v = Vec::new();
        let mut game = String::new();
        let mut in_first_round = false;
        for line in t.lines() {
            if line.starts_with("game ") {
                game = line.to_string();
            } else if line.starts_with("  round ") {
                in_first_round = line.starts_with("  round 1 ");
                if in_first_round {
                    v.push(format!("{game} {line}"));
                }
            } else if in_first_round && line.contains(" is dealt ") {
                v.push(format!("{game} {line}"));
            } else if line.contains(" hits") || line.contains(" stays") {
                in_first_round = false;
            }
        }
        v
    };
    let first = deals(&parts[0]);
    // A round line and at least two dealt cards per game (an action card
    // dealt first can interrupt the deal).
    assert!(first.len() > 1030 * 3, "{}", first.len());
    assert!(first.iter().any(|l| l.starts_with("game 1029:")));
    for (a, p) in parts.iter().enumerate().skip(1) {
        assert_eq!(deals(p), first, "arrangement {a} saw other deals");
    }
    // And the arrangements did play differently after the deal.
    assert_ne!(parts[0], parts[5]);
}

#[test]
fn identical_entrants_play_identical_games_in_every_arrangement() {
    let table = flip7_table(3);
    let p = Policy::parse("stay-at-25").unwrap();
    let arr = arrangements(3, 3).unwrap();
    let sims: Vec<_> = arr
        .seats
        .iter()
        .map(|_| Flip7::simulation(&table, &[p, p, p]).unwrap())
        .collect();
    let names = vec![vec!["x".to_string(); 3]; arr.seats.len()];
    let mut out = Vec::new();
    trace::<Flip7>(&sims, &names, 7, 40, &mut out).unwrap();
    let parts = per_arrangement(&String::from_utf8(out).unwrap());
    assert!(parts.iter().all(|p| p == &parts[0]));
}

#[test]
fn copies_of_one_policy_tie_exactly_and_crn_removes_their_noise() {
    let dir = tempfile::tempdir().unwrap();
    let text = ok(&sim(
        &[
            "tournament",
            "flip7",
            "--policies",
            "stay-at-25,stay-at-25,stay-at-30",
            "--players",
            "3",
            "--games",
            "3K",
            "--seed",
            "4",
            "--threads",
            "2",
            "--out",
            "t",
            "--no-charts",
        ],
        dir.path(),
    ));
    assert!(text.contains("6 arrangements"), "{text}");
    let pw = read_csv(&dir.path().join("t/pairwise.csv"));
    let col = |name: &str| pw[0].iter().position(|h| h == name).unwrap();
    let row = pw
        .iter()
        .find(|r| r[col("entrant")] == "stay-at-25" && r[col("opponent")] == "stay-at-25#2")
        .unwrap();
    // Seat for seat, the copies swap places on the same deals: each wins
    // exactly the games the other wins in the mirrored arrangement.
    assert_eq!(row[col("entrant_wins")], row[col("opponent_wins")]);
    assert_eq!(row[col("h2h_share")], "0.500000");
    assert_eq!(row[col("significant")], "0");
    assert_eq!(row[col("diff_variance_crn")].parse::<f64>().unwrap(), 0.0);
    assert!(row[col("diff_variance_independent")].parse::<f64>().unwrap() > 0.0);
    let st = read_csv(&dir.path().join("t/standings.csv"));
    let wins: Vec<&str> = st[1..]
        .iter()
        .filter(|r| r[1].starts_with("stay-at-25"))
        .map(|r| r[7].as_str())
        .collect();
    assert_eq!(wins.len(), 2);
    assert_eq!(wins[0], wins[1]);
}

/// The same command (its outputs named alike, in a folder of its own) with
/// another --threads writes the same bytes, the workbook too (its date
/// fixed by SOURCE_DATE_EPOCH).
#[test]
fn same_seed_different_threads_identical_files() {
    let dir = tempfile::tempdir().unwrap();
    let mut runs = Vec::new();
    for threads in ["1", "2", "5"] {
        let here = dir.path().join(format!("threads{threads}"));
        std::fs::create_dir(&here).unwrap();
        let (out, xlsx) = (here.join("t"), here.join("t.xlsx"));
        ok(&sim_dated(
            &[
                "tournament",
                "flip7",
                "--policies",
                "cautious,stay-at-25,aggressive",
                "--players",
                "3",
                "--games",
                "25K",
                "--until-ci",
                "0.004",
                "--seed",
                "11",
                "--threads",
                threads,
                "--out",
                "t",
                "--xlsx",
                "t.xlsx",
            ],
            &here,
        ));
        let files: Vec<Vec<u8>> = [
            "standings.csv",
            "pairwise.csv",
            "standings.svg",
            "standings.png",
            "head-to-head.svg",
        ]
        .iter()
        .map(|f| std::fs::read(out.join(f)).unwrap())
        .chain([std::fs::read(&xlsx).unwrap()])
        .collect();
        runs.push(files);
    }
    assert!(runs[0][5].starts_with(b"PK"), "xlsx is a zip");
    assert!(runs[0][3].starts_with(b"\x89PNG"));
    for r in &runs[1..] {
        for (k, (a, b)) in runs[0].iter().zip(r).enumerate() {
            assert!(a == b, "file {k} differs between thread counts");
        }
    }
}

#[test]
fn flip_flush_plugs_in_without_rounds() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("ff");
    let text = ok(&sim(
        &[
            "tournament",
            "flip-flush",
            "--policies",
            "default,builder,gambler",
            "--players",
            "3",
            "--games",
            "1500",
            "--seed",
            "3",
            "--out",
            base.to_str().unwrap(),
            "--no-charts",
        ],
        Path::new(env!("CARGO_MANIFEST_DIR")),
    ));
    assert!(text.contains("not played in rounds"), "{text}");
    let st = read_csv(&base.join("standings.csv"));
    let col = |name: &str| st[0].iter().position(|h| h == name).unwrap();
    for r in &st[1..] {
        assert_eq!(r[col("mean_round_score")], "");
        assert_eq!(r[col("mean_score")], "", "no score without --gambling");
        assert_eq!(r[col("games")], "9000");
    }
}

#[test]
fn lineups_come_from_strategy_files_and_bad_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("strategies")).unwrap();
    std::fs::write(
        dir.path().join("strategies/flip7-trio.toml"),
        "game = \"flip7\"\npolicy = \"stay-at-20, stay-at-25,cards-4\"\ndescription = \"three thresholds\"\n",
    )
    .unwrap();
    let text = ok(&sim(
        &[
            "tournament",
            "flip7",
            "--lineup",
            "trio",
            "--players",
            "3",
            "--games",
            "1024",
            "--seed",
            "1",
            "--out",
            "l",
            "--no-charts",
        ],
        dir.path(),
    ));
    assert!(text.contains("3 entrants"), "{text}");
    assert!(text.contains("cards-4"), "{text}");

    let refuse = |args: &[&str], needle: &str| {
        let o = sim(args, dir.path());
        assert!(!o.status.success());
        let e = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(e.contains(needle), "{args:?}: {e}");
    };
    refuse(
        &[
            "tournament",
            "flip7",
            "--policies",
            "stay-at-20,stay-at-25",
            "--players",
            "4",
        ],
        "at least 4",
    );
    refuse(
        &["tournament", "flip7", "--policies", "stay-at-20,nonsense"],
        "--policies 'nonsense'",
    );
    refuse(
        &["tournament", "flip7", "--policies", "a,b", "--until-ci", "2"],
        "between 0 and 0.5",
    );
    refuse(
        &["tournament", "flip7", "--lineup", "missing"],
        "--lineup missing",
    );
    // Nothing was written by the refused runs.
    assert!(!dir.path().join("results").exists());
}

/// A tournament's tally is integer sums of a fixed size: the tallies of
/// disjoint batch ranges, added in any order, are the tally of the whole
/// run (what shards of one run rely on), and a run of more batches than
/// there are bootstrap groups keeps the same number of groups.
#[test]
fn tallies_of_disjoint_batch_ranges_add_up_to_the_whole_run() {
    use sim::analysis::tally::{GROUPS, Tally};
    use sim::studies::play::play_batches;
    let opts = flip7_table(2);
    let policies = [
        Policy::parse("stay-at-18").unwrap(),
        Policy::parse("stay-at-25").unwrap(),
    ];
    let arr = arrangements(2, 2).unwrap();
    let sims: Vec<_> = arr
        .seats
        .iter()
        .map(|s| Flip7::simulation(&opts, &[policies[s[0]], policies[s[1]]]).unwrap())
        .collect();
    let bar = indicatif::ProgressBar::hidden();
    let batches = GROUPS + 6;
    let deals = batches * 1024 - 100;
    let play = |r: std::ops::Range<u64>, threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let go = std::sync::atomic::AtomicBool::new(false);
        let (t, done) = play_batches::<Flip7>(
            &opts,
            &sims,
            &arr.seats,
            2,
            9,
            deals,
            std::slice::from_ref(&r),
            &pool,
            &bar,
            &go,
        )
        .unwrap();
        assert_eq!(done, vec![r]);
        t
    };
    let whole = play(0..batches, 2);
    assert_eq!(whole.deals, deals);
    assert_eq!(whole.batches, batches);
    assert_eq!(whole.beats.len() as u64, GROUPS);
    assert!(whole.beats.iter().all(|g| g.len() == 4));
    let mut parts = Tally::new(2, arr.seats.len(), 2);
    for r in [40..batches, 0..3, 3..40] {
        parts.merge(&play(r, 1));
    }
    assert_eq!(parts, whole);
    // Who beat whom adds up to the wins.
    let beats: u64 = whole.beats.iter().flatten().sum();
    let wins: u64 = whole.seats.iter().map(|s| s.wins).sum();
    assert_eq!(beats, wins);
}
