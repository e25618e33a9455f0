//! Regression tests named after bad inputs and faults that once crashed,
//! hung, threw work away or left files behind (issue 18's list). Each
//! checks the rule: every destination is checked before any game is
//! played, nothing is written unless the run succeeds, a closed pipe ends
//! quietly, and the message names the option, the value and what is
//! accepted.

use std::process::{Command, Stdio};

use crate::common;
use common::*;

#[test]
fn sweep_of_a_range_of_huge_numbers_is_refused_not_hung() {
    for spec in ["stay-at-{1e300..-1e300}", "bust-prob:{0.1..0.9..1e-20}"] {
        refused(
            &["sweep", "flip7", "--policy", spec, "--games", "1K"],
            &["--policy", spec, "more than 1000 values"],
        );
    }
    refused(
        &[
            "sweep",
            "flip-flush",
            "--policy",
            "call-at:{0..1..1e-20}",
            "--games",
            "1K",
        ],
        &["--policy", "more than 1000 values"],
    );
}

#[test]
fn solve_out_dash_is_refused_and_creates_no_folder() {
    refused(
        &["flip7", "solve", "--out", "-"],
        &["--out '-'", "must be a folder"],
    );
}

#[test]
fn solve_out_a_file_is_refused_before_solving() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("f.csv"), "mine").unwrap();
    let o = sim(&["flip7", "solve", "--out", "f.csv"], dir.path());
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--out 'f.csv' must be a folder"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(dir.path().join("f.csv")).unwrap(), "mine");
}

#[test]
fn bad_xlsx_destinations_leave_no_output_folder() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("a-folder")).unwrap();
    for (xlsx, says) in [
        ("-", "--xlsx needs a file path"),
        ("a-folder", "--xlsx 'a-folder' is a folder"),
        ("/proc/no/such/book.xlsx", "--xlsx '/proc/no/such/book.xlsx'"),
    ] {
        for cmd in [
            vec![
                "tournament",
                "flip7",
                "--policies",
                "stay-at-20,stay-at-30",
                "--players",
                "2",
            ],
            vec!["sweep", "flip7", "--policy", "stay-at-{20,30}"],
        ] {
            let mut args = cmd.clone();
            args.extend(["--games", "1K", "--seed", "1", "--out", "out", "--xlsx", xlsx]);
            let o = sim(&args, dir.path());
            assert!(!o.status.success(), "{args:?}");
            assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
            assert_eq!(files_in(dir.path()), ["a-folder"], "{args:?} left files");
        }
    }
}

#[test]
fn xlsx_to_a_full_device_fails_before_any_file_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let o = sim(
        &[
            "tournament",
            "flip7",
            "--policies",
            "stay-at-20,stay-at-30",
            "--players",
            "2",
            "--games",
            "1K",
            "--seed",
            "1",
            "--out",
            "out",
            "--xlsx",
            "/dev/full",
        ],
        dir.path(),
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("/dev/full"), "{}", stderr(&o));
    assert!(files_in(dir.path()).is_empty(), "{:?}", files_in(dir.path()));
}

#[test]
fn out_name_too_long_is_refused_before_playing() {
    let long = format!("{}.csv", "x".repeat(300));
    refused(
        &["flip7", "--games", "2B", "--out", &long],
        &["--out", "at most 255"],
    );
    let folder = "y".repeat(300);
    refused(
        &[
            "tournament",
            "flip-flush",
            "--policies",
            "default,default",
            "--players",
            "2",
            "--games",
            "1B",
            "--out",
            &folder,
        ],
        &["--out", "at most 255"],
    );
}

#[test]
fn list_policies_and_solve_into_a_closed_pipe_end_quietly() {
    let into_closed_pipe = |args: &[&str]| into_closed_pipe(args, tempfile::tempdir().unwrap().path(), 0);
    into_closed_pipe(&["flip7", "--list-policies"]);
    into_closed_pipe(&["flip-flush", "--list-policies"]);
    into_closed_pipe(&["flip7", "solve", "--without", "actions,modifiers", "--out", "s"]);
    into_closed_pipe(&["flip7", "--games", "2K", "--seed", "1", "--out", "x.csv"]);
}

#[test]
fn an_interrupted_or_refused_run_leaves_no_folder() {
    // The folders of --out are made only when the results are written.
    refused(
        &[
            "flip7",
            "--games",
            "1K",
            "--policy",
            "nope",
            "--out",
            "new/deeper/x.csv",
        ],
        &["--policy", "nope"],
    );
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sim"))
        .args([
            "tournament",
            "flip7",
            "--policies",
            "stay-at-20,stay-at-30",
            "--players",
            "2",
            "--games",
            "2B",
        ])
        .args(["--out", "t/u", "--no-charts"])
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(files_in(dir.path()).is_empty(), "{:?}", files_in(dir.path()));
}

#[test]
fn negative_games_and_seeds_get_the_accepted_form_not_unexpected_argument() {
    refused(&["flip7", "--games", "-1"], &["--games", "'-1'", "at least 1"]);
    refused(
        &["flip7", "--seed", "-1"],
        &["--seed", "'-1'", "0 to 18446744073709551615"],
    );
    refused(
        &["flip7", "--seed", "abc"],
        &["--seed", "'abc'", "0 to 18446744073709551615"],
    );
    refused(
        &["tournament", "flip7", "--policies", "a,b", "--games", "-5"],
        &["--games", "'-5'"],
    );
    refused(
        &["sweep", "flip7", "--policy", "stay-at-{1,2}", "--seed", "x"],
        &["--seed", "'x'"],
    );
}

#[test]
fn one_player_one_value_and_one_thread_are_singular() {
    let dir = tempfile::tempdir().unwrap();
    let text = ok(&sim(
        &[
            "flip7",
            "--players",
            "1",
            "--games",
            "3",
            "--seed",
            "1",
            "--trace",
            "--out",
            "x.csv",
        ],
        dir.path(),
    ));
    assert!(
        text.contains("sim flip7: 1 player, 3 games, seed 1 (1 thread,"),
        "{text}"
    );
    let text = ok(&sim(
        &[
            "sweep",
            "flip7",
            "--policy",
            "stay-at-{20}",
            "--players",
            "1",
            "--games",
            "1K",
            "--seed",
            "1",
            "--no-charts",
            "--out",
            "s",
        ],
        dir.path(),
    ));
    assert!(text.contains("1 value of stay-at-{20}, 1 player,"), "{text}");
}

#[test]
fn errors_inside_a_lineup_file_name_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("mine.toml"),
        "game = \"flip7\"\n\npolicy = \"stay-at-20,nope\"\n",
    )
    .unwrap();
    let o = sim(
        &["tournament", "flip7", "--lineup", "mine.toml", "--players", "2"],
        dir.path(),
    );
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--lineup mine.toml (mine.toml:3): 'nope'"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_lineup_given_to_policy_suggests_the_tournament() {
    refused(
        &["flip7", "--policy", "shipped"],
        &[
            "--policy 'shipped' is a line-up",
            "sim tournament flip7 --lineup shipped",
        ],
    );
}

#[test]
fn head_to_head_without_decided_games_says_none_not_zero_percent_both_ways() {
    let dir = tempfile::tempdir().unwrap();
    let text = ok(&sim(
        &[
            "tournament",
            "flip-flush",
            "--policies",
            // Players who never win: they never call (or only when sure)
            // and block every hot cell, so every game is a tie.
            "never-call+count+flip-likely+flip-safe+place-block+place-build,\
             never-call+count+flip-likely+flip-safe+place-block+place-build,\
             sure-only+count+flip-likely+flip-safe+place-block+place-build,\
             sure-only+count+flip-likely+flip-safe+place-block+place-build",
            "--players",
            "4",
            "--games",
            "1K",
            "--seed",
            "1",
            "--no-charts",
            "--out",
            "t",
            "--xlsx",
            "t.xlsx",
        ],
        dir.path(),
    ));
    assert!(text.contains("no decided games"), "{text}");
    let matrix_row = text.lines().find(|l| l.starts_with("never-call+count")).unwrap();
    assert!(
        matrix_row.contains("none") && !matrix_row.contains('%'),
        "{matrix_row}"
    );
    let csv = std::fs::read_to_string(dir.path().join("t/pairwise.csv")).unwrap();
    let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(row[3..5], ["0", "0"], "{csv}");
    assert_eq!(row[6], "", "h2h_share of no decided game: {csv}");
    assert!(dir.path().join("t.xlsx").is_file());
}

/// Exit codes (README): 2 for a command line that is wrong, whether clap
/// or the command finds it (an unknown policy, a player count the game
/// does not allow, a sweep range too large); 1 for a run that fails for
/// another reason (an output that cannot be written); 0 for success.
#[test]
fn usage_errors_found_after_parsing_exit_2_like_parse_errors() {
    let dir = tempfile::tempdir().unwrap();
    let code = |args: &[&str]| sim(args, dir.path()).status.code();
    for args in [
        &["flip7", "--games", "x"][..],
        &["flip7", "--policy", "nonsense", "--games", "1"],
        &["flip7", "--policy", "stay-at-25,stay-at-30", "--games", "1"],
        &["flip-flush", "--players", "9", "--games", "1"],
        &[
            "tournament",
            "flip7",
            "--policies",
            "stay-at-25,nonsense",
            "--games",
            "1",
        ],
        &["tournament", "flip7", "--policies", "stay-at-25", "--games", "1"],
        &["sweep", "flip7", "--policy", "stay-at-{1..5000}", "--games", "1"],
        &[
            "sweep",
            "flip7",
            "--policy",
            "stay-at-{1,2}",
            "--field",
            "nonsense",
            "--games",
            "1",
        ],
        &["flip7", "--strategies", "no-such-folder", "--games", "1"],
    ] {
        assert_eq!(code(args), Some(2), "{args:?}");
    }
    assert_eq!(
        code(&["flip7", "--games", "1", "--out", "/proc/nope/x.csv"]),
        Some(1)
    );
    assert_eq!(code(&["flip7", "--games", "1", "--out", "-"]), Some(0));
    assert!(files_in(dir.path()).is_empty(), "{:?}", files_in(dir.path()));
}
