//! `sim ib-flip` from the command line: the text trace, `--without` (two
//! JSON traces of switched-off powers), `--move-cap`, the CSV columns and
//! bad input. The JSON trace is replayed in `replay_ib_flip.rs`.

use crate::common;
use common::*;

use serde_json::Value;

fn json_trace(args: &[&str]) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let mut all = vec!["ib-flip", "--trace", "--trace-format", "json", "--out", "x.csv"];
    all.extend(args);
    let text = ok(&sim(&all, dir.path()));
    let mut lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    // The first line describes the run; the events follow.
    assert_eq!(lines[0]["event"], "run", "{}", lines[0]);
    lines.remove(0);
    lines
}

#[test]
fn the_text_trace_shows_plays_and_places() {
    let dir = tempfile::tempdir().unwrap();
    let text = ok(&sim(
        &[
            "ib-flip", "--games", "2", "--seed", "1", "--trace", "--out", "x.csv",
        ],
        dir.path(),
    ));
    assert!(text.contains("game 0: 4 players"), "{text}");
    assert!(text.contains("starts with the lowest card"), "{text}");
    assert!(text.contains(" plays "), "{text}");
    assert!(text.contains("game 1: ends after"), "{text}");
}

#[test]
fn the_csv_has_a_place_column_per_player_and_the_outcomes_add_up() {
    let dir = tempfile::tempdir().unwrap();
    ok(&sim(
        &[
            "ib-flip",
            "--games",
            "3000",
            "--seed",
            "5",
            "--players",
            "3",
            "--out",
            "x.csv",
        ],
        dir.path(),
    ));
    let csv = std::fs::read_to_string(dir.path().join("x.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert!(header.contains(&"place_3") && !header.contains(&"place_4"));
    let col = |row: &[&str], name: &str| -> u64 {
        row[header.iter().position(|h| *h == name).unwrap()]
            .parse()
            .unwrap()
    };
    for line in lines {
        let row: Vec<&str> = line.split(',').collect();
        let outcomes: u64 = [
            "finish_legal",
            "finish_illegal_2",
            "finish_illegal_10",
            "finish_illegal_8",
            "finish_illegal_flip",
            "finish_illegal_9",
            "lost_8s_flip",
            "last_left",
            "stalemates",
        ]
        .iter()
        .map(|n| col(&row, n))
        .sum();
        assert_eq!(outcomes, 3000, "{line}");
    }
}

#[test]
fn without_and_the_move_cap_show_in_the_summary_and_the_file_name() {
    let dir = tempfile::tempdir().unwrap();
    let text = ok(&sim(
        &[
            "ib-flip",
            "--games",
            "200",
            "--seed",
            "2",
            "--without",
            "4,8,sets",
            "--move-cap",
            "50",
        ],
        dir.path(),
    ));
    assert!(text.contains("without the powers 4,8,sets"), "{text}");
    assert!(text.contains("stalemates: "), "{text}");
    let files = files_in(&dir.path().join("results"));
    assert!(
        files
            .iter()
            .any(|f| f.contains("without-4-8-sets") && f.contains("cap50")),
        "{files:?}"
    );
}

#[test]
fn bad_input_is_refused_clearly() {
    refused(
        &["ib-flip", "--without", "J"],
        &["--without", "'J' is not a power"],
    );
    refused(&["ib-flip", "--without", "4,x"], &["--without", "'x'"]);
    refused(&["ib-flip", "--move-cap", "0"], &["--move-cap", "0"]);
    refused(&["ib-flip", "--players", "6"], &["--players", "6"]);
    refused(
        &["ib-flip", "--policy", "lowest+burn-at:5"],
        &["--policy", "saver only"],
    );
    refused(
        &["ib-flip", "--policy", "rollout:0"],
        &["--policy", "rollout:0", "1 to 1000"],
    );
    refused(
        &["ib-flip", "--policy", "saver+fix:maybe"],
        &["--policy", "fix:strong, fix:keep or fix:stack"],
    );
}

#[test]
fn a_tournament_ranks_by_win_rate_and_reports_loss_rate_and_mean_place() {
    let dir = tempfile::tempdir().unwrap();
    let common = ["--players", "3", "--games", "3000", "--seed", "4"];
    let mut args = vec!["tournament", "ib-flip", "--policies", "lowest,random,counter"];
    args.extend(common);
    args.extend(["--no-charts", "--out", "t"]);
    let console = ok(&sim(&args, dir.path()));
    assert!(
        console.contains("loss rate") && console.contains("mean place"),
        "{console}"
    );
    let standings = csv_rows(&std::fs::read_to_string(dir.path().join("t/standings.csv")).unwrap());
    // IB-Flip has no score: the score columns are empty, and the console
    // says so instead of showing a column of it.
    for row in &standings {
        assert_eq!(row["mean_score"], "", "{row:?}");
        assert_eq!(row["mean_score_stderr"], "", "{row:?}");
    }
    assert!(console.contains("(ib-flip has no per-game score"), "{console}");
    // Ranked by win rate.
    let rates: Vec<f64> = standings.iter().map(|r| r["win_rate"].parse().unwrap()).collect();
    assert!(rates.windows(2).all(|w| w[0] >= w[1]), "{rates:?}");
    assert_eq!(standings[2]["entrant"], "random");

    // The same deals in every arrangement are the deals of a plain run of
    // the same seed: the tournament's losses and places of an entrant are
    // the plain runs' of its seats, over the six arrangements.
    let lineups = [
        ["lowest", "random", "counter"],
        ["lowest", "counter", "random"],
        ["random", "lowest", "counter"],
        ["random", "counter", "lowest"],
        ["counter", "lowest", "random"],
        ["counter", "random", "lowest"],
    ];
    let mut losses = std::collections::HashMap::<&str, u64>::new();
    let mut place_sum = std::collections::HashMap::<&str, f64>::new();
    let mut complete = 0.0;
    for (k, lineup) in lineups.iter().enumerate() {
        let policy = lineup.join(",");
        let out = format!("p{k}.csv");
        let mut args = vec!["ib-flip", "--policy", &policy, "--out", &out];
        args.extend(common);
        let summary = ok(&sim(&args, dir.path()));
        let rows = csv_rows(&std::fs::read_to_string(dir.path().join(&out)).unwrap());
        // A stalemate (a few in 3000 games) has no complete finishing
        // order: the mean place is over the other games.
        let stalemates: f64 = summary
            .split("stalemates: ")
            .nth(1)
            .and_then(|t| t.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no stalemate count: {summary}"));
        complete += 3000.0 - stalemates;
        for (s, who) in lineup.iter().enumerate() {
            *losses.entry(who).or_default() += rows[s]["losses"].parse::<u64>().unwrap();
            let mean: f64 = rows[s]["mean_place"].parse().unwrap();
            *place_sum.entry(who).or_default() += mean * (3000.0 - stalemates);
        }
    }
    for row in &standings {
        let who = row["entrant"].as_str();
        assert_eq!(row["losses"].parse::<u64>().unwrap(), losses[who], "{who}");
        let rate: f64 = row["loss_rate"].parse().unwrap();
        assert!(
            (rate - losses[who] as f64 / 18000.0).abs() < 1e-6,
            "{who}: {rate}"
        );
        let (lo, hi): (f64, f64) = (
            row["loss_rate_ci95_low"].parse().unwrap(),
            row["loss_rate_ci95_high"].parse().unwrap(),
        );
        assert!(lo < rate && rate < hi && hi - lo < 0.05, "{who}: [{lo}, {hi}]");
        let place: f64 = row["mean_place"].parse().unwrap();
        assert!((place - place_sum[who] / complete).abs() < 1e-5, "{who}: {place}");
        let se: f64 = row["mean_place_stderr"].parse().unwrap();
        assert!(se > 0.0 && se < 0.05, "{who}: {se}");
    }
    // Places 1..3 average 2 over the entrants.
    let mean: f64 = standings
        .iter()
        .map(|r| r["mean_place"].parse::<f64>().unwrap())
        .sum::<f64>()
        / 3.0;
    assert!((mean - 2.0).abs() < 1e-5, "{mean}");
}

#[test]
fn games_without_a_finishing_order_leave_loss_and_place_empty() {
    let dir = tempfile::tempdir().unwrap();
    ok(&sim(
        &[
            "tournament",
            "flip7",
            "--policies",
            "stay-at-20,stay-at-25",
            "--players",
            "2",
            "--games",
            "200",
            "--seed",
            "1",
            "--no-charts",
            "--out",
            "t",
        ],
        dir.path(),
    ));
    for row in csv_rows(&std::fs::read_to_string(dir.path().join("t/standings.csv")).unwrap()) {
        for col in ["losses", "loss_rate", "mean_place", "mean_place_stderr"] {
            assert_eq!(row[col], "", "{col}");
        }
    }
}

/// The events of game `game` from the first `nines_flip` on, in a trace.
fn after_nines_flip(events: &[Value], game: u64) -> &[Value] {
    let at = events
        .iter()
        .position(|e| e["game"] == game && e["event"] == "nines_flip")
        .unwrap_or_else(|| panic!("game {game} has no nines_flip"));
    &events[at..]
}

#[test]
fn without_8_an_8_a_nines_flip_turns_up_skips_nobody_seed_23_game_17() {
    let events = json_trace(&[
        "--players",
        "4",
        "--games",
        "18",
        "--seed",
        "23",
        "--policy",
        "random",
        "--without",
        "8",
    ]);
    let from = after_nines_flip(&events, 17);
    assert_eq!(from[0]["top"], "8D", "{}", from[0]);
    // The flipper plays next, on the 8.
    assert_eq!(from[1]["event"], "play", "{}", from[1]);
    assert_eq!(from[1]["seat"], from[0]["seat"], "{}", from[1]);
}

#[test]
fn without_10_a_10_a_nines_flip_turns_up_flips_nothing_seed_21_game_11() {
    let events = json_trace(&[
        "--players",
        "3",
        "--games",
        "12",
        "--seed",
        "21",
        "--policy",
        "random",
        "--without",
        "10",
    ]);
    let from = after_nines_flip(&events, 11);
    assert!(from[0]["top"].as_str().unwrap().starts_with("10"), "{}", from[0]);
    assert_ne!(from[1]["event"], "flip", "{}", from[1]);
    assert_eq!(from[1]["seat"], from[0]["seat"], "{}", from[1]);
}
