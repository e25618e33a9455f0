//! `sim classic-flip` from the command line: `score` (the rule text's
//! sample hands), the text trace, the CSV columns, options, the same
//! bytes for any `--threads`, a sweep, and bad input. The JSON trace is
//! replayed in `replay_classic_flip.rs`.

use crate::common;
use common::*;

#[test]
fn score_explains_the_sample_hands() {
    let dir = tempfile::tempdir().unwrap();
    let run = |cards: &[&str]| {
        let mut args = vec!["classic-flip", "score"];
        args.extend(cards);
        ok(&sim(&args, dir.path()))
    };
    let out = run(&["RA", "BA", "PA", "Any"]);
    assert!(out.contains("score: 0 points"), "{out}");
    let out = run(&["RA", "BA", "PA", "GA", "R8"]);
    assert!(
        out.contains("x2 gold card of the rank (GA) = 20") && out.contains("score: 20 points"),
        "{out}"
    );
    let out = run(&["GA", "G8", "RA", "BA", "PA"]);
    assert!(out.contains("score: 40 points"), "{out}");
    let out = run(&["Any", "GA", "G8", "RA", "BA", "PA", "2X"]);
    assert!(
        out.contains("6 of a kind of A") && out.contains("base: 20 points"),
        "{out}"
    );
    assert!(out.contains("score: 320 points"), "{out}");
    // A card named twice is the second deck's copy.
    let out = run(&["RA", "BA", "PA", "RA", "R8"]);
    assert!(out.contains("score: 10 points"), "{out}");
}

#[test]
fn score_refuses_what_is_not_a_card() {
    refused(
        &["classic-flip", "score", "RA", "XZ"],
        &["CARDS", "'XZ'", "suit letter"],
    );
    refused(
        &["classic-flip", "score", "RA", "RA", "RA"],
        &["'RA'", "more than twice"],
    );
}

#[test]
fn the_text_trace_reads_as_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let text = ok(&sim(
        &[
            "classic-flip",
            "--trace",
            "--games",
            "1",
            "--seed",
            "2",
            "--players",
            "2",
            "--out",
            "x.csv",
        ],
        dir.path(),
    ));
    assert!(text.contains("game 0 round 1: dealer 0"), "{text}");
    assert!(text.contains("calls Flip! holding"), "{text}");
    assert!(text.contains("wins after"), "{text}");
}

#[test]
fn the_csv_has_every_documented_column_and_rates_between_0_and_1() {
    let dir = tempfile::tempdir().unwrap();
    ok(&sim(
        &[
            "classic-flip",
            "--games",
            "300",
            "--seed",
            "1",
            "--policy",
            "thief+sheriff:0.4,bluffer:9,collector,random",
            "--out",
            "x.csv",
        ],
        dir.path(),
    ));
    let csv = std::fs::read_to_string(dir.path().join("x.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/csv.md")).unwrap();
    // The game's own section, and the columns every game shares.
    let section_of = |title: &str| {
        doc.split(title)
            .nth(1)
            .and_then(|s| s.split("\n## ").next())
            .unwrap_or_else(|| panic!("docs/csv.md has a section {title:?}"))
            .to_string()
    };
    let section = section_of("## Classic Flip") + &section_of("## Columns of every game");
    for col in &header[8..] {
        assert!(
            section.contains(&format!("`{col}`")),
            "docs/csv.md does not document {col} for Classic Flip"
        );
    }
    let rows: Vec<Vec<String>> = lines.map(|l| l.split(',').map(String::from).collect()).collect();
    assert_eq!(rows.len(), 4);
    for row in &rows {
        for (h, v) in header.iter().zip(row) {
            if h.ends_with("_rate") || h.starts_with("score_") || h.contains("ci95") {
                let x: f64 = v.parse().unwrap();
                assert!((0.0..=1.0).contains(&x), "{h} = {x}");
            }
        }
    }
    let col = |name: &str, row: usize| -> f64 {
        rows[row][header.iter().position(|h| *h == name).unwrap()]
            .parse()
            .unwrap()
    };
    // The ladder adds up to every round.
    let ladder: f64 = [
        "score_0",
        "score_10",
        "score_20",
        "score_40",
        "score_80",
        "score_160",
        "score_320_plus",
    ]
    .iter()
    .map(|c| col(c, 0))
    .sum();
    assert!((ladder - 1.0).abs() < 1e-5);
    assert!(col("challenges", 0) > 0.0, "the sheriff challenges");
    assert!(col("over_limit_turns", 1) > 0.0, "the bluffer bluffs");
    assert_eq!(col("challenges", 3), 0.0, "random never challenges");
    assert!(
        col("take_per_game", 0) > 0.0 && col("steal_per_game", 0) > 0.0,
        "the thief takes and steals"
    );
}

#[test]
fn options_change_the_game_and_name_the_files() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        vec!["--without", "take,steal,2x"],
        vec!["--gold-ranks", "2,4,6,8,10,Q,A"],
        vec!["--target", "500"],
        vec!["--decks", "2"],
        vec!["--round-cap", "50"],
        vec!["--community-multipliers", "off"],
    ] {
        let mut all = vec!["classic-flip", "--games", "50", "--seed", "1"];
        all.extend(&args);
        let text = ok(&sim(&all, dir.path()));
        assert!(text.contains("classic-flip"), "{text}");
    }
    let files = files_in(&dir.path().join("results"));
    assert!(
        files.iter().any(|f| f.contains("without-take-steal-2x")),
        "{files:?}"
    );
    assert!(files.iter().any(|f| f.contains("target500")), "{files:?}");
    assert!(
        files.iter().any(|f| f.contains("gold-2-4-6-8-10-Q-A")),
        "{files:?}"
    );
}

#[test]
fn same_seed_same_bytes_for_any_thread_count_with_every_policy() {
    let dir = tempfile::tempdir().unwrap();
    let run = |threads: &str, out: &str| {
        ok(&sim(
            &[
                "classic-flip",
                "--games",
                "2100",
                "--seed",
                "9",
                "--threads",
                threads,
                "--policy",
                "thief+sheriff:0.3,bluffer:9+caller:40,random,counter",
                "--out",
                out,
            ],
            dir.path(),
        ));
        std::fs::read(dir.path().join(out)).unwrap()
    };
    // Three batches (of 1,024 games): one thread plays them in turn,
    // three one each. (Two threads, a third split, left out: `counter`
    // makes each run take seconds, and the split is the engine's, tested
    // for every game in games.rs.)
    assert_eq!(run("1", "a.csv"), run("3", "c.csv"));
}

#[test]
fn a_sweep_of_the_call_threshold_runs() {
    let dir = tempfile::tempdir().unwrap();
    ok(&sim(
        &[
            "sweep",
            "classic-flip",
            "--policy",
            "caller:{10,40}",
            "--games",
            "200",
            "--seed",
            "1",
            "--no-charts",
            "--out",
            "s",
        ],
        dir.path(),
    ));
    assert!(!files_in(&dir.path().join("s")).is_empty());
}

#[test]
fn bad_input_is_refused_naming_the_flag_the_value_and_what_is_accepted() {
    refused(&["classic-flip", "--players", "9"], &["--players", "9"]);
    refused(&["classic-flip", "--players", "1"], &["--players", "1"]);
    refused(&["classic-flip", "--decks", "3"], &["--decks", "3"]);
    refused(
        &["classic-flip", "--gold-ranks", "8,X"],
        &["--gold-ranks", "'X'", "2,3,4,5,6,7,8,9,10,J,Q,K,A"],
    );
    refused(&["classic-flip", "--gold-ranks", "8,8"], &["--gold-ranks", "'8'"]);
    refused(
        &["classic-flip", "--without", "take,fly"],
        &["--without", "'fly'", "plus-turn"],
    );
    refused(&["classic-flip", "--target", "0"], &["--target", "0"]);
    refused(&["classic-flip", "--round-cap", "0"], &["--round-cap", "0"]);
    refused(
        &["classic-flip", "--community-multipliers", "maybe"],
        &["--community-multipliers", "maybe", "on"],
    );
    refused(
        &["classic-flip", "--policy", "caller:x"],
        &["--policy", "caller:x", "0 to 100000"],
    );
    refused(
        &["classic-flip", "--policy", "bluffer:12"],
        &["--policy", "bluffer:12", "7 to 10"],
    );
    refused(
        &["classic-flip", "--policy", "sheriff:2"],
        &["--policy", "sheriff:2", "0 to 1"],
    );
    refused(
        &["classic-flip", "--policy", "random+thief"],
        &["--policy", "random takes no other part"],
    );
    refused(&["classic-flip", "--policy", "hoarder"], &["--policy", "hoarder"]);
}

/// Every call is counted once as top (ties count, and a voided round is a
/// tie at 0 for everybody) or as outscored: the two shares add to 1. This
/// run voids rounds at the round cap with calls in them.
#[test]
fn a_call_in_a_voided_round_counts_as_a_tie_for_top_seed_30() {
    let dir = tempfile::tempdir().unwrap();
    ok(&sim(
        &[
            "classic-flip",
            "--players",
            "3",
            "--games",
            "50",
            "--seed",
            "30",
            "--round-cap",
            "6",
            "--policy",
            "random",
            "--out",
            "run.csv",
        ],
        dir.path(),
    ));
    let csv = std::fs::read_to_string(dir.path().join("run.csv")).unwrap();
    for row in csv_rows(&csv) {
        let top: f64 = row["caller_top_rate"].parse().unwrap();
        let outscored: f64 = row["outscored_after_call"].parse().unwrap();
        let calls: u64 = row["calls"].parse().unwrap();
        assert!(calls > 0, "{row:?}");
        assert!((top + outscored - 1.0).abs() < 2e-6, "{row:?}");
    }
}
