//! `sim flip-flush` through the binary: reproducibility, output names, the
//! trace, strategy files and bad input.

use std::path::Path;

use crate::common;
use common::*;

const HEADER: &str = "seat,policy,players,games,wins,win_rate,win_rate_ci95_low,win_rate_ci95_high,\
ties,tie_rate,wins_by_call,wins_last_standing,knocked_out_wrong_call,knocked_out_missed_flush,\
mean_turns,mean_calls";

#[test]
fn same_seed_gives_identical_bytes_for_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    for extra in [&[][..], &["--gambling", "--memory", "0.5", "--players", "5"][..]] {
        let mut outputs = Vec::new();
        for threads in ["1", "2", "8"] {
            let out = format!("t{threads}.csv");
            let mut args = vec![
                "flip-flush",
                "--games",
                "20K",
                "--seed",
                "42",
                "--threads",
                threads,
                "--out",
                &out,
            ];
            args.extend_from_slice(extra);
            let o = sim(&args, dir.path());
            assert!(o.status.success(), "{}", stderr(&o));
            outputs.push(std::fs::read(dir.path().join(&out)).unwrap());
        }
        assert!(outputs.iter().all(|b| b == &outputs[0]), "{extra:?}");
        let text = String::from_utf8(outputs[0].clone()).unwrap();
        let header = text.lines().next().unwrap();
        if extra.is_empty() {
            assert_eq!(header, format!("{HEADER},seed,sim_version"));
            assert_eq!(text.lines().count(), 5);
        } else {
            assert_eq!(
                header,
                format!(
                    "{HEADER},mean_net_stakes,mean_net_stakes_ci95_low,mean_net_stakes_ci95_high,seed,sim_version"
                )
            );
            assert_eq!(text.lines().count(), 6);
        }
    }
}

#[test]
fn default_output_name_describes_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let o = sim(&["flip-flush", "--games", "2K", "--seed", "9"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let o = sim(
        &[
            "flip-flush",
            "--games",
            "2K",
            "--seed",
            "9",
            "--players",
            "3",
            "--gambling",
            "--memory",
            "0.5",
            "--policy",
            "call-at:0.6+flip-safe,never-call,default",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        files_in(&dir.path().join("results")),
        vec![
            "flip-flush_call-at-0.6+flip-safe+never-call+default_3p_2K_gambling_memory0.5_seed9.csv",
            // Seats with different policies: the short report beside it.
            "flip-flush_call-at-0.6+flip-safe+never-call+default_3p_2K_gambling_memory0.5_seed9.report.html",
            "flip-flush_default_4p_2K_seed9.csv",
        ]
    );
    let out = stdout(&o);
    assert!(
        out.contains("seed 9") && out.contains("CSV: results/flip-flush_"),
        "{out}"
    );
    let csv = std::fs::read_to_string(dir.path().join(
        "results/flip-flush_call-at-0.6+flip-safe+never-call+default_3p_2K_gambling_memory0.5_seed9.csv",
    ))
    .unwrap();
    let policies: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(policies, ["call-at:0.6+flip-safe", "never-call", "default"]);
}

#[test]
fn trace_plays_the_same_games_as_the_statistics() {
    let dir = tempfile::tempdir().unwrap();
    let o = sim(
        &[
            "flip-flush",
            "--games",
            "30",
            "--seed",
            "3",
            "--trace",
            "--out",
            "traced.csv",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let trace = stdout(&o);
    let o2 = sim(
        &["flip-flush", "--games", "30", "--seed", "3", "--out", "plain.csv"],
        dir.path(),
    );
    assert!(o2.status.success());
    let csv = std::fs::read_to_string(dir.path().join("plain.csv")).unwrap();
    assert_eq!(
        csv,
        std::fs::read_to_string(dir.path().join("traced.csv")).unwrap()
    );
    for (seat, line) in csv.lines().skip(1).enumerate() {
        let fields: Vec<&str> = line.split(',').collect();
        let wins: usize = fields[4].parse().unwrap();
        let ties: usize = fields[8].parse().unwrap();
        let traced = trace.matches(&format!(": seat {seat} wins ")).count();
        assert_eq!(traced, wins, "seat {seat}\n{trace}");
        let tied = trace
            .lines()
            .filter(|l| {
                l.contains(": tie between seats ")
                    && l.split("seats ")
                        .nth(1)
                        .unwrap()
                        .split(" after")
                        .next()
                        .unwrap()
                        .split(", ")
                        .any(|s| s == seat.to_string())
            })
            .count();
        assert_eq!(tied, ties, "seat {seat}");
    }
    let games = trace
        .lines()
        .filter(|l| l.starts_with("game ") && l.ends_with(" players"))
        .count();
    assert_eq!(games, 30);
}

#[test]
fn out_dash_writes_the_csv_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let o = sim(
        &[
            "flip-flush",
            "--games",
            "1K",
            "--seed",
            "1",
            "--out",
            "-",
            "--players",
            "2",
        ],
        dir.path(),
    );
    assert!(o.status.success());
    assert!(stdout(&o).starts_with(HEADER));
    assert_eq!(stdout(&o).lines().count(), 3);
    assert!(stderr(&o).contains("seed 1"));
    assert!(files_in(dir.path()).is_empty());
}

#[test]
fn strategies_resolve_by_name_and_by_path_and_keep_their_label() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("strategies")).unwrap();
    std::fs::write(
        dir.path().join("strategies/flip-flush-calm.toml"),
        "game = \"flip-flush\"\npolicy = \"sure-only+flip-safe+place-build\"\ndescription = \"x\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("mine.toml"),
        "game = 'flip-flush'\npolicy = 'sure-only+flip-safe+place-build'\n",
    )
    .unwrap();
    let o = sim(
        &[
            "flip-flush",
            "--games",
            "2K",
            "--seed",
            "5",
            "--players",
            "2",
            "--policy",
            "calm,mine.toml",
            "--out",
            "a.csv",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("policy calm = sure-only+read:0.1+flip-safe+place-build (from "),
        "{}",
        stdout(&o)
    );
    let a = std::fs::read_to_string(dir.path().join("a.csv")).unwrap();
    assert!(a.contains("\n0,calm,") && a.contains("\n1,mine.toml,"), "{a}");
    // The same spec written out plays the very same games.
    let o = sim(
        &[
            "flip-flush",
            "--games",
            "2K",
            "--seed",
            "5",
            "--players",
            "2",
            "--policy",
            "sure-only+flip-safe+place-build",
            "--out",
            "b.csv",
        ],
        dir.path(),
    );
    assert!(o.status.success());
    let b = std::fs::read_to_string(dir.path().join("b.csv")).unwrap();
    let numbers = |t: &str| -> Vec<String> {
        t.lines()
            .skip(1)
            .map(|l| l.split(',').skip(2).collect::<Vec<_>>().join(","))
            .collect()
    };
    assert_eq!(numbers(&a), numbers(&b));
}

#[test]
fn every_shipped_strategy_file_parses() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut names = Vec::new();
    for entry in std::fs::read_dir(root.join("strategies")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if let Some(n) = name
            .strip_prefix("flip-flush-")
            .and_then(|n| n.strip_suffix(".toml"))
        {
            // A tournament line-up (a list of policies) is no seat policy.
            let text = std::fs::read_to_string(root.join("strategies").join(&name)).unwrap();
            if !text.lines().any(|l| l.starts_with("policy") && l.contains(',')) {
                names.push(n.to_string());
            }
        }
    }
    names.sort();
    assert!(names.len() >= 4, "{names:?}");
    // Tables of at most six players: four strategies at a time (a last one
    // left alone plays the first).
    for chunk in names.chunks(4) {
        let mut seats = chunk.to_vec();
        if seats.len() == 1 {
            seats.push(names[0].clone());
        }
        let o = sim(
            &[
                "flip-flush",
                "--games",
                "1K",
                "--seed",
                "1",
                "--players",
                &seats.len().to_string(),
                "--policy",
                &seats.join(","),
                "--out",
                "-",
            ],
            root,
        );
        assert!(o.status.success(), "{}", stderr(&o));
        for n in &seats {
            assert!(stdout(&o).contains(&format!(",{n},")), "{n}");
        }
    }
}

/// Runs a bad command line; checks the exit code, that the message names
/// every expected fragment, and that nothing was written.
fn refused(args: &[&str], fragments: &[&str], setup: impl Fn(&Path)) {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    let before = files_in(dir.path());
    let o = sim(args, dir.path());
    assert!(!o.status.success(), "{args:?} was accepted");
    let err = stderr(&o);
    for f in fragments {
        assert!(err.contains(f), "{args:?}: message lacks {f:?}:\n{err}");
    }
    assert_eq!(files_in(dir.path()), before, "{args:?} left a file");
    assert!(o.stdout.is_empty(), "{args:?} printed to stdout");
}

#[test]
fn seven_players_are_refused() {
    refused(
        &["flip-flush", "--players", "7"],
        &["--players", "'7'", "from 2 to 6"],
        |_| {},
    );
    refused(
        &["flip-flush", "--players", "1"],
        &["--players", "'1'", "from 2 to 6"],
        |_| {},
    );
}

#[test]
fn memory_outside_0_to_1_is_refused() {
    refused(
        &["flip-flush", "--memory", "1.5"],
        &["--memory", "'1.5'", "from 0 to 1"],
        |_| {},
    );
    refused(
        &["flip-flush", "--memory=-0.1"],
        &["--memory", "'-0.1'", "from 0 to 1"],
        |_| {},
    );
}

#[test]
fn unknown_policy_is_refused_with_what_is_accepted() {
    refused(
        &["flip-flush", "--policy", "yolo"],
        &["--policy", "yolo", "call-at:P", "strategies/flip-flush-yolo.toml"],
        |_| {},
    );
    refused(
        &["flip-flush", "--policy", "call-at:2"],
        &["--policy", "call-at:2", "from 0 to 1"],
        |_| {},
    );
}

#[test]
fn malformed_strategy_file_is_refused_naming_file_line_and_expectation() {
    let write = |body: &'static str| {
        move |dir: &Path| {
            std::fs::create_dir_all(dir.join("strategies")).unwrap();
            std::fs::write(dir.join("strategies/flip-flush-bad.toml"), body).unwrap();
        }
    };
    refused(
        &["flip-flush", "--policy", "bad"],
        &[
            "strategies/flip-flush-bad.toml:2:",
            "expected a quoted string",
            "--policy",
        ],
        write("game = \"flip-flush\"\npolicy = call-at:0.5\n"),
    );
    refused(
        &["flip-flush", "--policy", "bad"],
        &[
            "strategies/flip-flush-bad.toml:3: the policy spec is not valid",
            "unknown part 'flip-wild'",
        ],
        write("game = \"flip-flush\"\n# spec\npolicy = \"call-at:0.5+flip-wild\"\n"),
    );
    refused(
        &["flip-flush", "--policy", "bad"],
        &["flip-flush-bad.toml:1: expected game = \"flip-flush\", found \"flip7\""],
        write("game = \"flip7\"\npolicy = \"stay-at-20\"\n"),
    );
    refused(
        &["flip-flush", "--policy", "strategies/none.toml"],
        &["strategy file 'strategies/none.toml' not found"],
        |_| {},
    );
}

#[test]
fn wrong_number_of_policies_is_refused() {
    refused(
        &["flip-flush", "--policy", "default,never-call", "--players", "3"],
        &["--policy", "2", "--players", "3"],
        |_| {},
    );
}
