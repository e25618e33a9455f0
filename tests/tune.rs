//! `sim tune`: it finds the known best threshold of the solo round with
//! far fewer games than a sweep of equal confidence, finds a planted best
//! candidate over many seeds, its fresh intervals cover the exact values,
//! it runs for every game the same for any --threads, it resumes, and bad
//! command lines are refused.

use std::collections::HashMap;
use std::path::Path;

use crate::common;
use common::*;

use sim::engine::game::{Game, Visitor};

/// The numbers-only solo round, whose exact values `sim flip7 solve` gives.
const SOLO: [&str; 8] = [
    "--players",
    "1",
    "--single-round",
    "--without",
    "actions,modifiers",
    "--objective",
    "mean-round-score",
    "--no-progress",
];

/// The exact expected round score of every stay-at-N, from `sim flip7
/// solve --without actions,modifiers`.
fn exact_values(dir: &Path) -> HashMap<String, f64> {
    ok(&sim(
        &[
            "flip7",
            "solve",
            "--without",
            "actions,modifiers",
            "--out",
            "solve",
        ],
        dir,
    ));
    let text = std::fs::read_to_string(dir.join("solve/thresholds.csv")).unwrap();
    csv_rows(&text)
        .into_iter()
        .map(|r| (r["rule"].clone(), r["expected_round_score"].parse().unwrap()))
        .collect()
}

/// Runs `sim tune flip7` on the solo round with `more` options and returns
/// its JSON summary.
fn solo_tune(dir: &Path, policy: &str, seed: u64, more: &[&str]) -> serde_json::Value {
    let seed = seed.to_string();
    let out = format!("t{seed}");
    let mut args = vec![
        "tune", "flip7", "--policy", policy, "--seed", &seed, "--out", &out, "--json",
    ];
    args.extend(SOLO);
    args.extend(["--no-charts"]);
    args.extend(more);
    let text = ok(&sim(&args, dir));
    std::fs::remove_dir_all(dir.join(&out)).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn fresh_of(j: &serde_json::Value, spec: &str) -> (f64, f64, f64) {
    let row = j["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["policy"] == spec)
        .unwrap();
    let f = |k: &str| row[k].as_f64().unwrap_or_else(|| panic!("{k} of {spec}: {row}"));
    (f("fresh_estimate"), f("fresh_ci95_low"), f("fresh_ci95_high"))
}

/// The proof, on a few seeds (scripts/tune-known-answer.sh runs
/// 200): the threshold chosen is within 0.03 of the best exact value, and
/// the race with its fresh deals plays at most a third of the games a
/// sweep of equal confidence needs.
#[test]
fn the_known_best_solo_threshold_is_found_with_a_third_of_a_sweeps_games() {
    let dir = tempfile::tempdir().unwrap();
    let exact = exact_values(dir.path());
    let best = (10..=40)
        .map(|n| exact[&format!("stay-at-{n}")])
        .fold(f64::MIN, f64::max);
    for seed in 1..=3 {
        let j = solo_tune(
            dir.path(),
            "stay-at-{10..40}",
            seed,
            &["--margin", "0.03", "--budget", "200M"],
        );
        let winner = j["winner"].as_str().unwrap();
        assert!(
            best - exact[winner] <= 0.03,
            "seed {seed}: {winner} {}",
            exact[winner]
        );
        let tune = j["race_games"].as_u64().unwrap() + j["fresh_games"].as_u64().unwrap();
        let sweep = j["sweep_games"].as_u64().unwrap();
        assert!(
            tune * 3 <= sweep,
            "seed {seed}: {tune} games against a sweep's {sweep}"
        );
        assert_eq!(j["stop"], "within-margin", "seed {seed}");
    }
}

/// A planted answer: of stay-at-21, 23 and 25, stay-at-23 is better by
/// more than 0.1 points (exactly), twice the margin. The race must name
/// it at its stated confidence (95%) on every seed but at most one of 20,
/// and the winner's fresh 95% interval must cover its exact value as often
/// as such an interval does (at least 17 of 20).
#[test]
fn a_planted_best_is_found_and_its_fresh_interval_covers_the_exact_value() {
    let dir = tempfile::tempdir().unwrap();
    let exact = exact_values(dir.path());
    assert!(exact["stay-at-23"] - exact["stay-at-21"].max(exact["stay-at-25"]) > 0.1);
    let (mut found, mut covered) = (0, 0);
    for seed in 1..=20 {
        let j = solo_tune(
            dir.path(),
            "stay-at-{21|23|25}",
            seed,
            &["--margin", "0.05", "--budget", "50M", "--fresh", "5K"],
        );
        let winner = j["winner"].as_str().unwrap().to_string();
        found += usize::from(winner == "stay-at-23");
        let (_, lo, hi) = fresh_of(&j, &winner);
        covered += usize::from(lo <= exact[&winner] && exact[&winner] <= hi);
    }
    assert!(found >= 19, "found the planted best {found} times of 20");
    assert!(covered >= 17, "covered {covered} times of 20");
}

struct Entry {
    name: &'static str,
    sweep: &'static str,
    players: usize,
}

struct Collect(Vec<Entry>);

impl Visitor for Collect {
    fn visit<G: Game>(&mut self) {
        self.0.push(Entry {
            name: G::NAME,
            sweep: G::SWEEP_EXAMPLE,
            players: (*G::PLAYERS.start()).max(2),
        });
    }
}

/// Every game, through the game interface: a small race on its sweep
/// example against its default field, the same files for 1 and 2 threads,
/// every candidate listed once, the winner a survivor with a fresh
/// estimate.
#[test]
fn every_game_tunes_and_the_files_do_not_depend_on_threads() {
    let mut c = Collect(Vec::new());
    sim::games::each(&mut c);
    for g in c.0 {
        let dir = tempfile::tempdir().unwrap();
        let players = g.players.to_string();
        for t in ["1", "2"] {
            let out = format!("t{t}");
            ok(&sim(
                &[
                    "tune",
                    g.name,
                    "--policy",
                    g.sweep,
                    "--players",
                    &players,
                    "--budget",
                    "60K",
                    "--fresh",
                    "2K",
                    "--seed",
                    "5",
                    "--threads",
                    t,
                    "--no-charts",
                    "--no-progress",
                    "--out",
                    &out,
                ],
                dir.path(),
            ));
        }
        for f in ["candidates.csv", "rounds.csv"] {
            let a = std::fs::read_to_string(dir.path().join("t1").join(f)).unwrap();
            let b = std::fs::read_to_string(dir.path().join("t2").join(f)).unwrap();
            assert_eq!(a, b, "{}: {f}", g.name);
        }
        let rows = csv_rows(&std::fs::read_to_string(dir.path().join("t1/candidates.csv")).unwrap());
        assert!(rows.len() >= 2, "{}", g.name);
        let winners: Vec<_> = rows.iter().filter(|r| r["status"] == "winner").collect();
        assert_eq!(winners.len(), 1, "{}", g.name);
        assert!(!winners[0]["fresh_estimate"].is_empty(), "{}", g.name);
        assert!(winners[0]["dropped_in_round"].is_empty(), "{}", g.name);
    }
}

/// Several groups (a range and choices) make every combination; a
/// candidate dropped in a round played no deal after it.
#[test]
fn several_groups_make_every_combination_and_dropped_ones_stop_playing() {
    let dir = tempfile::tempdir().unwrap();
    let text = ok(&sim(
        &[
            "tune",
            "flip7",
            "--policy",
            "{chase|chase}:{18..26..4}/0.1",
            "--players",
            "2",
            "--single-round",
            "--budget",
            "300K",
            "--seed",
            "3",
            "--out",
            "t",
        ],
        dir.path(),
    ));
    assert!(text.contains("6 candidates"), "{text}");
    let rows = csv_rows(&std::fs::read_to_string(dir.path().join("t/candidates.csv")).unwrap());
    let specs: Vec<&str> = rows.iter().map(|r| r["policy"].as_str()).collect();
    assert_eq!(
        specs,
        [
            "chase:18/0.1",
            "chase:22/0.1",
            "chase:26/0.1",
            "chase:18/0.1",
            "chase:22/0.1",
            "chase:26/0.1"
        ]
    );
    let rounds = csv_rows(&std::fs::read_to_string(dir.path().join("t/rounds.csv")).unwrap());
    for r in &rows {
        if let Ok(k) = r["dropped_in_round"].parse::<usize>() {
            let deals: u64 = rounds[k]["deals_total"].parse().unwrap();
            assert_eq!(r["race_deals"], deals.to_string(), "{r:?}");
        }
    }
    for f in ["race.svg", "race.png"] {
        assert!(
            std::fs::metadata(dir.path().join("t").join(f)).unwrap().len() > 1000,
            "{f}"
        );
    }
}

/// Ctrl-C writes the state; `sim tune flip7 --resume STATE` alone goes on
/// and writes the files an uninterrupted run writes.
#[test]
fn an_interrupted_race_resumed_from_its_state_writes_the_same_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A margin too fine to reach: the race runs ten rounds, about half a
    // second on one core (2026-12-02), so the signal comes early in it.
    let mut run = vec!["tune", "flip7", "--policy", "stay-at-{20..26}", "--seed", "6"];
    run.extend(SOLO);
    run.extend(["--margin", "0.001", "--budget", "16M", "--no-charts"]);
    let mut first = run.to_vec();
    first.extend(["--out", "a", "--threads", "1"]);
    let (code, err) = crate::shards::interrupt(&first, d, std::time::Duration::from_millis(150), "INT");
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("sim tune flip7 --resume a.state.json"), "{err}");
    assert!(!d.join("a").exists(), "an interrupted race wrote its folder");
    let text = ok(&sim(&["tune", "flip7", "--resume", "a.state.json"], d));
    assert!(text.contains("resumed from 1 state file"), "{text}");
    let mut whole = run.to_vec();
    whole.extend(["--out", "b"]);
    ok(&sim(&whole, d));
    for f in ["candidates.csv", "rounds.csv"] {
        assert_eq!(
            std::fs::read_to_string(d.join("a").join(f)).unwrap(),
            std::fs::read_to_string(d.join("b").join(f)).unwrap(),
            "{f}"
        );
    }
}

#[test]
fn bad_templates_objectives_and_options_are_refused_before_any_game() {
    let base = ["tune", "flip7", "--seed", "1", "--out", "t"];
    let with = |more: &[&'static str]| -> Vec<&'static str> {
        let mut v = base.to_vec();
        v.extend(more);
        v
    };
    refused(
        &with(&["--policy", "stay-at-25"]),
        &["--policy 'stay-at-25'", "no {...} group"],
    );
    refused(&with(&["--policy", "stay-at-{}"]), &["--policy", "empty group"]);
    refused(
        &with(&["--policy", "stay-at-{25}"]),
        &["--policy 'stay-at-{25}'", "one candidate"],
    );
    refused(
        &with(&["--policy", "stay-at-{20..25"]),
        &["--policy", "without its '}'"],
    );
    refused(
        &with(&["--policy", "chase:{1..20}/{1..20}"]),
        &["--policy", "400 candidates", "20 x 20", "200"],
    );
    refused(
        &with(&["--policy", "stay-at-{20|banana}"]),
        &["--policy", "candidate 'stay-at-banana'"],
    );
    refused(
        &with(&["--policy", "stay-at-{20,25}", "--objective", "fun"]),
        &["--objective 'fun'", "win-rate, mean-score, mean-round-score"],
    );
    refused(
        &[
            "tune",
            "ib-flip",
            "--policy",
            "saver+burn-at:{4,8}",
            "--objective",
            "mean-score",
        ],
        &["--objective 'mean-score'", "ib-flip", "win-rate"],
    );
    refused(
        &with(&["--policy", "stay-at-{20,25}", "--margin", "0"]),
        &["--margin", "above 0"],
    );
    refused(
        &with(&["--policy", "stay-at-{20,25}", "--budget", "5000"]),
        &["--budget 5000", "8192 games", "at least"],
    );
    refused(
        &with(&["--policy", "stay-at-{20,25}", "--xlsx", "t.xlsx"]),
        &["--xlsx", "no workbook"],
    );
    refused(
        &with(&[
            "--policy",
            "stay-at-{20,25}",
            "--shard",
            "1/2",
            "--state",
            "s.json",
        ]),
        &["--shard", "does not split"],
    );
    refused(
        &with(&["--policy", "stay-at-{20,25}", "--out", "/dev/null/x"]),
        &["--out"],
    );
}

/// A space too large to race whole: `chase:BASE/SLOPE` on the solo round,
/// where a lone player's chase threshold is BASE whatever the SLOPE, so
/// every candidate's exact value is its BASE's stay-at value (best 23,
/// then 22). `--method halving` draws 64 of the 3,131 candidates, halves
/// them to 8 finalists and races those: on most seeds the winner is
/// within 0.05 of the best of the whole space, and on nearly every seed
/// within 0.05 of the best candidate drawn.
#[test]
fn halving_finds_a_planted_region_of_a_large_space_on_most_seeds() {
    let dir = tempfile::tempdir().unwrap();
    let exact = exact_values(dir.path());
    let best = (10..=40)
        .map(|n| exact[&format!("stay-at-{n}")])
        .fold(f64::MIN, f64::max);
    let value = |spec: &str| {
        let base = spec.trim_start_matches("chase:").split('/').next().unwrap();
        exact[&format!("stay-at-{base}")]
    };
    let (mut near_best, mut near_sample_best) = (0, 0);
    for seed in 1..=10 {
        let j = solo_tune(
            dir.path(),
            "chase:{10..40}/{0..1..0.01}",
            seed,
            &[
                "--method", "halving", "--margin", "0.05", "--budget", "2M", "--fresh", "2K",
            ],
        );
        assert_eq!(j["method"], "halving");
        assert_eq!(j["space"], 3131);
        let rows = j["candidates"].as_array().unwrap();
        assert_eq!(rows.len(), 64, "seed {seed}");
        let cut = rows.iter().filter(|r| r["status"] == "cut").count();
        assert_eq!(cut, 56, "seed {seed}");
        let sample_best = rows
            .iter()
            .map(|r| value(r["policy"].as_str().unwrap()))
            .fold(f64::MIN, f64::max);
        let won = value(j["winner"].as_str().unwrap());
        near_best += usize::from(best - won <= 0.05);
        near_sample_best += usize::from(sample_best - won <= 0.05);
    }
    assert!(
        near_best >= 8,
        "within 0.05 of the best on {near_best} seeds of 10"
    );
    assert!(
        near_sample_best >= 9,
        "within 0.05 of the sample's best on {near_sample_best} seeds of 10"
    );
}

/// The halving gives the same files for 1 and 2 threads, and a halving
/// interrupted mid-stage and resumed writes the files of a whole run.
#[test]
fn halving_is_the_same_for_any_threads_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut run = vec![
        "tune",
        "flip7",
        "--policy",
        "chase:{15..30}/{0..0.5..0.05}",
        "--method",
        "halving",
        "--sample",
        "40",
        "--seed",
        "8",
    ];
    run.extend(SOLO);
    run.extend([
        "--margin",
        "0.001",
        "--budget",
        "16M",
        "--fresh",
        "1K",
        "--no-charts",
    ]);
    let mut first = run.to_vec();
    first.extend(["--out", "a", "--threads", "1"]);
    let (code, err) = crate::shards::interrupt(&first, d, std::time::Duration::from_millis(150), "INT");
    assert_eq!(code, Some(130), "{err}");
    let text = ok(&sim(&["tune", "flip7", "--resume", "a.state.json"], d));
    assert!(text.contains("resumed from 1 state file"), "{text}");
    assert!(
        text.contains("40 candidates drawn at random from the 176"),
        "{text}"
    );
    let mut whole = run.to_vec();
    whole.extend(["--out", "b", "--threads", "2"]);
    ok(&sim(&whole, d));
    for f in ["candidates.csv", "rounds.csv"] {
        assert_eq!(
            std::fs::read_to_string(d.join("a").join(f)).unwrap(),
            std::fs::read_to_string(d.join("b").join(f)).unwrap(),
            "{f}"
        );
    }
    let rounds = csv_rows(&std::fs::read_to_string(d.join("b/rounds.csv")).unwrap());
    let phases: Vec<&str> = rounds.iter().map(|r| r["phase"].as_str()).collect();
    assert_eq!(&phases[..3], ["halving", "halving", "halving"], "{phases:?}");
    assert!(phases[3..].iter().all(|p| *p == "race"), "{phases:?}");
    assert_eq!(rounds[0]["candidates"], "40");
    assert_eq!(rounds[2]["survivors"], "8");
}

/// report.html: written beside the CSV files, self-contained, the
/// conclusion first; `--json` lists it among the files; `--no-report`
/// leaves it out. A race that separates its candidates within one round
/// says that it saved nothing against a sweep, not a share above 100%.
#[test]
fn tune_writes_a_self_contained_report_and_says_when_it_saved_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut run = vec!["tune", "flip7", "--policy", "stay-at-{10|23}", "--seed", "2"];
    run.extend(SOLO);
    let mut a = run.to_vec();
    a.extend(["--out", "a"]);
    let text = ok(&sim(&a, d));
    assert!(text.contains("no saving here"), "{text}");
    assert!(!text.contains("tune played"), "{text}");
    let page = std::fs::read_to_string(d.join("a/report.html")).unwrap();
    assert!(!page.contains("http://") && !page.contains("https://"));
    let conclusion = page.find("class=\"conclusion\"").unwrap();
    assert!(conclusion < page.find("<svg").unwrap());
    assert!(page[conclusion..].contains("stay-at-23 is the best of the 2 candidates"));
    for part in ["Every candidate", "Method", "Run", "fresh estimate"] {
        assert!(page.contains(part), "{part}");
    }
    let mut b = run.to_vec();
    b.extend(["--out", "b", "--json", "--no-charts"]);
    let j: serde_json::Value = serde_json::from_str(&ok(&sim(&b, d))).unwrap();
    let files: Vec<&str> = j["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert!(files.iter().any(|f| f.ends_with("report.html")), "{files:?}");
    let mut c = run.to_vec();
    c.extend(["--out", "c", "--no-report"]);
    ok(&sim(&c, d));
    assert!(d.join("c/candidates.csv").exists());
    assert!(!d.join("c/report.html").exists());
}

/// The methods' refusals name the option that allows what was asked.
#[test]
fn large_spaces_and_method_options_are_refused_with_the_way_out() {
    let base = ["tune", "flip7", "--seed", "1", "--out", "t"];
    let with = |more: &[&'static str]| -> Vec<&'static str> {
        let mut v = base.to_vec();
        v.extend(more);
        v
    };
    refused(
        &with(&["--policy", "chase:{1..20}/{1..20}"]),
        &["--policy", "400 candidates", "--method halving", "--sample"],
    );
    refused(
        &with(&["--policy", "stay-at-{20,25}", "--sample", "10"]),
        &["--sample", "--method halving"],
    );
    refused(
        &with(&["--policy", "stay-at-{20,25}", "--method", "banana"]),
        &["--method", "banana", "race", "halving"],
    );
    refused(
        &with(&[
            "--policy",
            "chase:{1..20}/{1..20}",
            "--method",
            "halving",
            "--sample",
            "1",
        ]),
        &["--sample", "1"],
    );
    refused(
        &with(&[
            "--policy",
            "chase:{1..20}/{1..20}",
            "--method",
            "halving",
            "--budget",
            "100K",
        ]),
        &["--budget 100000", "halving of 64 candidates", "smaller --sample"],
    );
}
