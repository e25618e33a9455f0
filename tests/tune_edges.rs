//! `sim tune` at its edges, one test a case: counts of games past the cap,
//! spaces too large to number, an interrupt whose state cannot be written,
//! a list where a family or a spec is expected, an objective the options
//! do not give, an objective that separates no one, and cheating
//! candidates.

use std::path::Path;
use std::time::Duration;

use crate::common::{fails_with, ok, sim};

/// The numbers-only solo round of Flip 7, fast to play.
const SOLO: [&str; 6] = [
    "--players",
    "1",
    "--single-round",
    "--without",
    "actions,modifiers",
    "--no-progress",
];

/// `base` and then `more`.
fn with<'a>(base: &[&'a str], more: &[&'a str]) -> Vec<&'a str> {
    let mut v = base.to_vec();
    v.extend(more);
    v
}

/// `--fresh` deals whose games pass 10^14 are refused as `--games` is,
/// before any game: 10^14 deals for each of 8 finalists is 8 x 10^14 games.
#[test]
fn fresh_deals_whose_games_pass_the_cap_are_refused_as_games_are() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let games = fails_with(
        2,
        &["flip7", "--games", "800000B"],
        d,
        &["at most 100000B (10^14 games)"],
    );
    let cap = games
        .lines()
        .next()
        .unwrap()
        .rsplit("': ")
        .next()
        .unwrap()
        .to_string();
    let family = [
        "tune",
        "flip7",
        "--policy",
        "stay-at-{10..40}",
        "--method",
        "halving",
        "--objective",
        "mean-round-score",
    ];
    let err = fails_with(
        2,
        &with(&with(&family, &SOLO), &["--fresh", "100000B", "--out", "o"]),
        d,
        &[
            "--fresh 100000B: 800,000,000,000,000 games (100,000,000,000,000 deals, each played by up to 8 survivors in 1 seat)",
            &cap,
        ],
    );
    assert!(!d.join("o").exists(), "{err}");
    // The deals themselves are capped as before.
    fails_with(2, &with(&family, &["--fresh", "800000B"]), d, &[&cap]);
    // At the cap it is accepted (and refused only for its budget here).
    let race = [
        "tune",
        "flip7",
        "--policy",
        "stay-at-{20,25}",
        "--objective",
        "mean-round-score",
        "--budget",
        "1K",
    ];
    fails_with(
        2,
        &with(&with(&race, &SOLO), &["--fresh", "50000B"]),
        d,
        &["--budget 1000"],
    );
}

/// Interrupted while its state cannot be written (a full disk), a run
/// keeps nothing: it fails (exit 1), not with the 130 of a run whose state
/// was kept.
#[test]
fn an_interrupted_tune_whose_state_cannot_be_written_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = [
        "tune",
        "flip7",
        "--players",
        "2",
        "--policy",
        "stay-at-{20..30}",
        "--margin",
        "0.01",
        "--budget",
        "100M",
        "--threads",
        "1",
        "--no-progress",
        "--state",
        "/dev/full",
        "--out",
        "o",
    ];
    let (code, err) = crate::shards::interrupt(&run, d, Duration::from_millis(500), "INT");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("interrupted; the state could not be written"),
        "{err}"
    );
    assert!(!d.join("o").exists(), "{err}");
}

/// A family of 4.8 x 10^19 candidates, more than a u64 numbers, is counted
/// exactly and refused, not saturated to 2^64 - 1 and sampled unevenly.
#[test]
fn a_space_too_large_to_number_is_refused_with_its_exact_size() {
    let dir = tempfile::tempdir().unwrap();
    let family = "chase:{0..999}{0..999}.{0..999}/{0..999}{0..999}.{0..999}\
                  +freeze:{leader|most-cards|least-banked|self-when-safe}\
                  +flip-three:{most-cards|leader|most-banked|self-when-safe}\
                  +second-chance:{lowest|least-banked|fewest-cards}";
    let tune = [
        "tune",
        "flip7",
        "--policy",
        family,
        "--objective",
        "mean-round-score",
    ];
    for method in ["halving", "race"] {
        let err = fails_with(
            2,
            &with(&with(&tune, &SOLO), &["--method", method, "--out", "o"]),
            dir.path(),
            &[
                "makes 48,000,000,000,000,000,000 candidates (1000 x 1000 x 1000 x 1000 x 1000 x 1000 x 4 x 4 x 3 values multiplied)",
                "more than the 18,446,744,073,709,551,615 (2^64 - 1) that can be numbered",
            ],
        );
        assert!(!err.contains("18,446,744,073,709,551,615 candidates"), "{err}");
        assert!(!dir.path().join("o").exists());
    }
}

/// A list of specs given to --policy or --field is named as such: tune
/// takes one family, and --field one spec for every other seat.
#[test]
fn a_list_given_to_tune_policy_or_field_says_tune_takes_one_family_and_one_field() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for policy in ["stay-at-{20,30},ev", "ev,stay-at-{20,30}"] {
        let err = fails_with(
            2,
            &["tune", "flip7", "--policy", policy],
            d,
            &[
                &format!("--policy '{policy}': sim tune takes one spec, a family"),
                "not a list of seats; every other seat plays --field",
                "e.g. --policy 'stay-at-{20,30}' --field ev",
            ],
        );
        assert!(!err.contains("whole number"), "{err}");
    }
    // A list inside a group of choices is a list too.
    fails_with(
        2,
        &["tune", "flip7", "--policy", "{ev,ev|peek}"],
        d,
        &["not a list of seats"],
    );
    let err = fails_with(
        2,
        &["tune", "flip7", "--policy", "stay-at-{20,30}", "--field", "ev,ev"],
        d,
        &[
            "--field 'ev,ev': --field takes one spec, for every seat but the candidate's",
            "not a list",
        ],
    );
    assert!(!err.contains("unknown policy"), "{err}");
}

/// An objective one of the game's options gives is named with that option.
#[test]
fn net_stakes_without_gambling_says_it_needs_gambling() {
    let dir = tempfile::tempdir().unwrap();
    let tune = [
        "tune",
        "flip-flush",
        "--policy",
        "call-at:{0.1,0.2}",
        "--objective",
        "net-stakes",
    ];
    fails_with(
        2,
        &tune,
        dir.path(),
        &[
            "--objective 'net-stakes': flip-flush has no such objective without --gambling: give --gambling to tune it",
        ],
    );
    // One no option gives is refused as before.
    let tune = [
        "tune",
        "flip-flush",
        "--policy",
        "call-at:{0.1,0.2}",
        "--objective",
        "mean-place",
    ];
    fails_with(
        2,
        &tune,
        dir.path(),
        &["--objective 'mean-place': flip-flush has no such objective here; it has win-rate"],
    );
}

/// One player wins every game: a win rate cannot tell candidates apart,
/// which is certain before any game is played.
#[test]
fn a_win_rate_with_one_player_is_refused_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let tune = ["tune", "flip7", "--policy", "stay-at-{20,25}", "--out", "o"];
    fails_with(
        2,
        &with(&tune, &SOLO),
        dir.path(),
        &[
            "--objective win-rate with 1 player: the one player wins every game",
            "choose another objective (mean-score, mean-round-score), or --players 2 or more",
        ],
    );
    assert!(!dir.path().join("o").exists());
}

/// A cheating candidate (Flip 7's `peek`) is marked wherever it is shown,
/// as a plain run marks it: the console, candidates.csv, the page and the
/// JSON.
#[test]
fn a_cheating_candidate_is_marked_in_the_console_the_csv_and_the_page() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = [
        "tune",
        "flip7",
        "--players",
        "2",
        "--policy",
        "{stay-at-25|peek}",
        "--budget",
        "10K",
        "--fresh",
        "1K",
        "--seed",
        "1",
        "--no-progress",
        "--no-charts",
    ];
    let text = ok(&sim(&with(&run, &["--out", "o"]), d));
    assert!(text.contains("peek (winner, cheats)"), "{text}");
    assert!(
        text.contains(
            "peek cheats: its policy sees what no player can; its results are an upper bound, not a strategy"
        ),
        "{text}"
    );
    assert!(text.contains("winner: peek (cheats);"), "{text}");
    let csv = std::fs::read_to_string(d.join("o/candidates.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines[0].ends_with(",fresh_diff_ci95_high,cheats,seed,sim_version"),
        "{csv}"
    );
    assert!(
        lines[1].starts_with("1,stay-at-25,") && lines[1].contains(",0,1,"),
        "{csv}"
    );
    assert!(
        lines[2].starts_with("2,peek,") && lines[2].contains(",1,1,"),
        "{csv}"
    );
    let page = std::fs::read_to_string(d.join("o/report.html")).unwrap();
    assert!(page.contains("peek (cheats)"), "the survivors' table");
    assert!(
        page.contains("It cheats: its policy sees what no player can"),
        "the conclusion"
    );
    let json: serde_json::Value =
        serde_json::from_str(&ok(&sim(&with(&run, &["--out", "j", "--json"]), d))).unwrap();
    assert_eq!(json["candidates"][1]["cheats"], 1, "{json}");
    // Without a cheating candidate the files have no such column.
    let honest = [
        "tune",
        "flip7",
        "--players",
        "2",
        "--policy",
        "stay-at-{20,25}",
        "--budget",
        "10K",
    ];
    let text = ok(&sim(
        &with(&honest, &["--fresh", "1K", "--no-progress", "--out", "h"]),
        d,
    ));
    assert!(!text.contains("cheat"), "{text}");
    let csv = std::fs::read_to_string(d.join("h/candidates.csv")).unwrap();
    assert!(!csv.contains("cheats"), "{csv}");
}

/// Runs a tune in `d` writing into `out` (and, with `json`, its `--json`
/// beside), and checks that no NaN is printed or written anywhere; returns
/// the console's text.
fn tune_without_nan(d: &Path, run: &[&str], out: &str, json: bool) -> String {
    let text = ok(&sim(&with(run, &["--out", out]), d));
    assert!(!text.contains("NaN"), "{text}");
    for f in ["candidates.csv", "rounds.csv", "report.html"] {
        let written = std::fs::read_to_string(d.join(out).join(f)).unwrap();
        assert!(!written.contains("NaN"), "{f}: {written}");
    }
    if !json {
        return text;
    }
    let json_out = format!("{out}-json");
    let json = ok(&sim(&with(run, &["--out", &json_out, "--json"]), d));
    assert!(!json.contains("NaN"), "{json}");
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(json["winner"].is_null(), "{json}");
    text
}

/// An objective that separates no one names no winner and writes no NaN:
/// a mean place where no game ends in a finishing order (every estimate
/// undefined), a win rate where no game is won (every estimate 0).
#[test]
fn an_objective_that_separates_no_one_names_no_winner_and_writes_no_nan() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let ib = [
        "tune",
        "ib-flip",
        "--objective",
        "mean-place",
        "--move-cap",
        "1",
        "--policy",
        "saver+burn-at:{4,8}",
        "--players",
        "2",
        "--budget",
        "20K",
        "--fresh",
        "2K",
        "--seed",
        "1",
        "--no-progress",
    ];
    let text = tune_without_nan(d, &ib, "ib", true);
    let why = "no winner: mean-place could not separate the candidates: no game gave it a value, so every estimate is undefined";
    assert!(text.contains(why), "{text}");
    assert!(
        !text.contains("(winner)") && !text.lines().any(|l| l.starts_with("winner:")),
        "{text}"
    );
    let csv = std::fs::read_to_string(d.join("ib/candidates.csv")).unwrap();
    assert!(!csv.contains(",winner,"), "{csv}");
    // Fresh deals were played, though they gave no estimate.
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .contains(",4096,8192,,,2048,4096,,,,,,,"),
        "{csv}"
    );
    let page = std::fs::read_to_string(d.join("ib/report.html")).unwrap();
    assert!(page.contains("No winner is named: mean-place could not separate the candidates"));
    assert_eq!(
        page.matches("could not separate the candidates").count(),
        1,
        "said once"
    );

    let classic = [
        "tune",
        "classic-flip",
        "--round-cap",
        "1",
        "--players",
        "2",
        "--policy",
        "{collector|random}",
        "--budget",
        "5K",
        "--fresh",
        "1K",
        "--seed",
        "1",
        "--no-progress",
        "--no-charts",
    ];
    let text = tune_without_nan(d, &classic, "cf", false);
    let why = "no winner: win-rate could not separate the candidates: every estimate, in the race and on fresh deals, is 0.0000%";
    assert!(text.contains(why), "{text}");
    assert!(!text.contains("(winner)"), "{text}");
    let rounds = std::fs::read_to_string(d.join("cf/rounds.csv")).unwrap();
    assert!(!rounds.contains("collector"), "no leader is named: {rounds}");
}

/// Tune's numbers and seats are refused as every command's are: `--sample`
/// with its range, a seat not at the table with the option and the
/// candidate it came from; a strategy's name inside a candidate stands
/// for its rule.
#[test]
fn tune_sample_seats_and_strategy_names_answer_as_every_command_does() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let family = ["tune", "flip7", "--policy", "stay-at-{20,30}"];
    fails_with(
        2,
        &with(
            &family,
            &["--method", "halving", "--sample", "99999999999999999999"],
        ),
        d,
        &[
            "--sample",
            "99999999999999999999",
            "expected a whole number from 2 to 4096",
        ],
    );
    fails_with(
        2,
        &with(&family, &["--field", "ev+target:5"]),
        d,
        &["--field 'ev+target:5': seat 5 is not at the table (seats are 0 to 3 with 4 players)"],
    );
    fails_with(
        2,
        &[
            "tune",
            "flip7",
            "--policy",
            "stay-at-{20,30}+target:{1,5}",
            "--players",
            "3",
        ],
        d,
        &[
            "--policy 'stay-at-{20,30}+target:{1,5}': candidate 'stay-at-20+target:5': seat 5 is not at the table",
        ],
    );
    let run = [
        "tune",
        "flip7",
        "--policy",
        "max-win:{balanced|cautious}",
        "--players",
        "2",
        "--budget",
        "8K",
        "--fresh",
        "1K",
        "--seed",
        "1",
        "--no-charts",
        "--out",
        "mw",
    ];
    let text = ok(&sim(&run, d));
    assert!(
        text.contains("2 candidates of max-win:{balanced|cautious}"),
        "{text}"
    );
}
