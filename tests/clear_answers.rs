//! Clear answers, tried as a new user would: every case refused names the
//! option, the value and what is accepted, with the exit code the README
//! promises (2 for a wrong command line, 1 for a run that fails); every
//! case handled does what docs/command-line.md says.

use std::path::Path;
use std::process::{Command, Output};

use crate::common::{fails_with, files_in, ok, output_into_closed_pipe, refused, sim, stderr, stdout};

const GAMES: [&str; 4] = ["flip7", "flip-flush", "ib-flip", "classic-flip"];

/// Runs `sim` with `args` in `dir` as in `sh -c 'ulimit -f 1; ...'`: no
/// file may grow past one block, so writing any real output fails (a
/// full disk, in effect: the folders can be made, the files not).
fn with_tiny_file_limit(args: &[&str], dir: &Path) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 1; trap '' XFSZ; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run sh")
}

#[test]
fn games_no_run_can_play_or_count_are_refused_naming_the_largest() {
    let dir = tempfile::tempdir().unwrap();
    for games in [
        "18446744073709551615",
        "100000000000001",
        "100001B",
        "99999999999999999999999",
    ] {
        for cmd in [
            &["flip7", "--games", games][..],
            &[
                "tournament",
                "flip7",
                "--policies",
                "ev,ev,ev,ev",
                "--games",
                games,
            ],
            &["sweep", "flip7", "--policy", "stay-at-{20..21}", "--games", games],
        ] {
            fails_with(
                2,
                cmd,
                dir.path(),
                &["--games", games, "at most 100000B", "e.g. 5000, 250K"],
            );
        }
    }
    assert!(files_in(dir.path()).is_empty());
}

#[test]
fn a_trace_of_more_games_than_people_read_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for game in GAMES {
        fails_with(
            2,
            &[game, "--trace", "--games", "1B"],
            dir.path(),
            &["--trace", "10K", "1B"],
        );
        // The default --games, 100K, is too many to trace as well.
        fails_with(2, &[game, "--trace"], dir.path(), &["--trace", "10K", "100K"]);
    }
    fails_with(
        2,
        &["flip7", "--trace", "--games", "10001"],
        dir.path(),
        &["--games 10K at most"],
    );
    assert!(files_in(dir.path()).is_empty());
}

#[test]
fn a_traced_run_whose_reader_goes_away_still_writes_its_csv() {
    for game in GAMES {
        let dir = tempfile::tempdir().unwrap();
        let base = [game, "--games", "1500", "--seed", "4", "--threads", "1"];
        ok(&sim(&[&base[..], &["--out", "plain.csv"]].concat(), dir.path()));
        let plain = std::fs::read(dir.path().join("plain.csv")).unwrap();
        for (format, read) in [("text", 64), ("json", 64), ("text", 0), ("json", 0)] {
            let args = [
                &base[..],
                &["--trace", "--trace-format", format, "--out", "o.csv"],
            ]
            .concat();
            let o = output_into_closed_pipe(&args, dir.path(), read);
            assert!(o.status.success(), "{args:?}: {:?} {}", o.status, stderr(&o));
            let traced = std::fs::read(dir.path().join("o.csv"))
                .unwrap_or_else(|e| panic!("{args:?}: no o.csv ({e}): {}", stderr(&o)));
            assert_eq!(traced, plain, "{args:?}: not the CSV of the same run untraced");
            match format {
                // The summary went to the closed stdout: nothing is shown.
                "text" => assert!(stderr(&o).is_empty(), "{args:?}: {}", stderr(&o)),
                // JSON Lines keep stdout pure: the summary is on stderr.
                _ => assert!(stderr(&o).contains("CSV: o.csv"), "{args:?}: {}", stderr(&o)),
            }
            std::fs::remove_file(dir.path().join("o.csv")).unwrap();
        }
    }
}

#[test]
fn a_summary_that_cannot_be_written_names_the_summary_and_the_files_written() {
    let dir = tempfile::tempdir().unwrap();
    for (args, written) in [
        (
            &["flip7", "--games", "2K", "--seed", "1", "--out", "o.csv"][..],
            "o.csv",
        ),
        (
            &[
                "flip7", "--games", "2K", "--seed", "1", "--out", "j.csv", "--json",
            ],
            "j.csv",
        ),
        (
            &[
                "tournament",
                "flip7",
                "--policies",
                "ev,stay-at-20",
                "--players",
                "2",
                "--games",
                "2K",
                "--seed",
                "1",
                "--out",
                "t",
                "--no-charts",
            ],
            "t/standings.csv",
        ),
    ] {
        let full = std::fs::File::create("/dev/full").unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_sim"))
            .args(args)
            .current_dir(dir.path())
            .stdout(full)
            .output()
            .unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        for f in ["summary", "stdout", "No space left on device", written] {
            assert!(err.contains(f), "{args:?}: lacks {f:?}: {err}");
        }
        assert!(dir.path().join(written).is_file(), "{args:?}");
    }
}

#[test]
fn mismatched_states_are_refused_naming_the_mismatch_and_the_right_command() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = ["flip7", "--games", "20K", "--seed", "1", "-q"];
    for (k, state) in [("1/2", "s1.json"), ("2/2", "s2.json"), ("1/1", "w.json")] {
        ok(&sim(&[&run[..], &["--shard", k, "--state", state]].concat(), d));
    }
    let before: Vec<Vec<u8>> = ["s1.json", "s2.json", "w.json"]
        .iter()
        .map(|f| std::fs::read(d.join(f)).unwrap())
        .collect();
    fails_with(
        2,
        &[
            "flip7", "--resume", "s1.json", "--shard", "2/2", "--seed", "1", "--state", "x.json",
        ],
        d,
        &["'s1.json'", "shard 1/2", "--shard 2/2", "sim merge s1.json"],
    );
    fails_with(
        2,
        &[
            "flip7", "--resume", "w.json", "--shard", "1/2", "--seed", "1", "--state", "x.json",
        ],
        d,
        &["'w.json'", "shard 1/1", "--shard 1/2", "sim merge w.json"],
    );
    // A finished shard resumed as a plain run: nothing is left to play.
    fails_with(
        2,
        &["flip7", "--resume", "w.json"],
        d,
        &["'w.json'", "shard 1/1", "finished", "sim merge w.json"],
    );
    fails_with(
        2,
        &["flip7", "--resume", "s1.json"],
        d,
        &["finished", "sim merge s1.json"],
    );
    // Two shards resumed as one run.
    fails_with(
        2,
        &["flip7", "--resume", "s1.json", "--resume", "s2.json"],
        d,
        &["shard 1/2", "shard 2/2", "sim merge s1.json s2.json"],
    );
    // Nothing was relabelled or written: the merge still works.
    let after: Vec<Vec<u8>> = ["s1.json", "s2.json", "w.json"]
        .iter()
        .map(|f| std::fs::read(d.join(f)).unwrap())
        .collect();
    assert!(before == after, "a refused resume changed a state file");
    assert_eq!(files_in(d), ["s1.json", "s2.json", "w.json"]);
    ok(&sim(&["merge", "s1.json", "s2.json", "-q"], d));
    ok(&sim(&["merge", "w.json", "-q"], d));
}

#[test]
fn outputs_of_one_run_on_one_file_are_refused_before_any_game() {
    let tournament = [
        "tournament",
        "flip7",
        "--policies",
        "ev,stay-at-20",
        "--players",
        "2",
        "--games",
        "1B",
        "--seed",
        "1",
    ];
    refused(
        &[&tournament[..], &["--out", "t", "--xlsx", "t/standings.csv"]].concat(),
        &["--out 't' (its standings.csv)", "--xlsx", "one file"],
    );
    refused(
        &[&tournament[..], &["--out", "t", "--xlsx", "t"]].concat(),
        &["--out 't' and --xlsx are one file"],
    );
    refused(
        &[
            &tournament[..],
            &["--out", "t", "--xlsx", "./t/../t/standings.png"],
        ]
        .concat(),
        &["--out 't' (its standings.png)", "--xlsx", "one file"],
    );
    refused(
        &[
            "sweep",
            "flip7",
            "--policy",
            "stay-at-{20..21}",
            "--games",
            "1B",
            "--out",
            "s",
            "--xlsx",
            "s/sweep.csv",
        ],
        &["--out 's' (its sweep.csv)", "--xlsx", "one file"],
    );
    refused(
        &[
            "flip7",
            "--games",
            "1B",
            "--out",
            "o.csv",
            "--state",
            "o.csv",
            "--checkpoint",
            "60",
        ],
        &["--out", "--state", "'o.csv'", "one file"],
    );
    let dir = tempfile::tempdir().unwrap();
    fails_with(
        2,
        &[
            "flip7",
            "--games",
            "1B",
            "--out",
            "o.csv",
            "--state",
            "./o.csv",
            "--checkpoint",
            "60",
        ],
        dir.path(),
        &["--out and --state are one file"],
    );
}

#[test]
fn a_run_that_cannot_write_its_files_leaves_no_folder_behind() {
    for args in [
        &[
            "tournament",
            "flip7",
            "--policies",
            "ev,stay-at-20",
            "--players",
            "2",
            "--games",
            "1K",
            "--seed",
            "1",
            "--out",
            "new/t",
        ][..],
        &[
            "sweep",
            "flip7",
            "--policy",
            "stay-at-{20..21}",
            "--games",
            "1K",
            "--seed",
            "1",
            "--out",
            "new/s",
        ],
        &[
            "flip7",
            "solve",
            "--without",
            "actions,modifiers",
            "--out",
            "new/solve",
        ],
        &["man", "--out", "new/man"],
        &["flip7", "--games", "1K", "--seed", "1", "--out", "new/run.csv"],
    ] {
        let dir = tempfile::tempdir().unwrap();
        let o = with_tiny_file_limit(args, dir.path());
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("cannot write 'new/") && err.contains("File too large"),
            "{args:?}: {err}"
        );
        assert!(
            !err.contains(".sim-partial"),
            "{args:?} names its temporary file: {err}"
        );
        assert!(
            files_in(dir.path()).is_empty(),
            "{args:?} left {:?}",
            files_in(dir.path())
        );
    }
}

#[test]
fn bluff_prior_alone_is_refused_and_every_parameter_is_named_as_its_spec_does() {
    let dir = tempfile::tempdir().unwrap();
    for spec in [
        "bluff-prior:0.2",
        "thief+bluff-prior:0.2",
        "sheriff:0+bluff-prior:0.2",
    ] {
        fails_with(
            2,
            &["classic-flip", "--policy", spec, "--games", "10"],
            dir.path(),
            &["--policy", spec, "needs sheriff:Q", "rollout:K"],
        );
    }
    for spec in ["sheriff:0.3+bluff-prior:0.2", "rollout:1+bluff-prior:0.2"] {
        ok(&sim(
            &["classic-flip", "--policy", spec, "--games", "2", "--out", "x.csv"],
            dir.path(),
        ));
    }
    // bluffer:K: one range, 7 to 10, in the help, the list and the errors.
    let listed = ok(&sim(&["classic-flip", "--list-policies"], dir.path()));
    assert!(listed.contains("K 7 to 10; 7 = no bluff"), "{listed}");
    assert!(!listed.contains("8-10"), "{listed}");
    let err = fails_with(
        2,
        &["classic-flip", "--policy", "bluffer:11"],
        dir.path(),
        &["bluffer:11"],
    );
    assert!(
        err.contains("from 7 to 10") && err.contains("K 7..=10 cards, 7 = no bluff"),
        "{err}"
    );
    let same = ok(&sim(
        &[
            "classic-flip",
            "--policy",
            "bluffer:7",
            "--games",
            "2",
            "--out",
            "x.csv",
        ],
        dir.path(),
    ));
    assert!(same.contains("policy bluffer:7 = collector"), "{same}");
    // Flip-Flush: Q of read:Q and worlds:K/Q, P and Q of call-at:P/Q.
    for (spec, name) in [
        ("read:2", "Q"),
        ("worlds:5/2", "Q"),
        ("call-at:0.2/7", "Q"),
        ("call-at:7", "P"),
    ] {
        fails_with(
            2,
            &["flip-flush", "--policy", spec],
            dir.path(),
            &[spec, &format!("{name} must be a number from 0 to 1")],
        );
    }
}

#[test]
fn gold_ranks_are_seven_as_the_help_and_the_rules_say() {
    let dir = tempfile::tempdir().unwrap();
    for ranks in ["2,3,4,5,6,7,8,9", "8,9,10,J,Q,K", "A"] {
        fails_with(
            2,
            &["classic-flip", "--gold-ranks", ranks],
            dir.path(),
            &["--gold-ranks", ranks, "seven distinct ranks"],
        );
    }
    let help = ok(&sim(&["classic-flip", "--help"], dir.path()));
    assert!(
        help.contains("seven gold cards (C1): seven distinct ranks"),
        "{help}"
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for doc in ["docs/rules/classic-flip.md", "docs/classic-flip.md"] {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        assert!(text.contains("seven distinct"), "{doc}");
        assert!(!text.contains("any distinct"), "{doc}");
    }
}

#[test]
fn messages_name_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A stray comma is an empty entry, not a policy named ''.
    let err = fails_with(
        2,
        &["flip7", "--policy", "stay-at-25,"],
        d,
        &["--policy 'stay-at-25,'", "empty entry"],
    );
    assert!(!err.contains("unknown policy"), "{err}");
    fails_with(
        2,
        &["tournament", "flip7", "--policies", "ev,,stay-at-20"],
        d,
        &["--policies 'ev,,stay-at-20'", "empty entry"],
    );
    // A line-up file's entrants are blamed on the file, not on --policies.
    std::fs::write(d.join("one.toml"), "game = \"flip7\"\npolicy = \"ev\"\n").unwrap();
    let many: Vec<String> = (0..500).map(|i| format!("stay-at-{}", i % 40 + 1)).collect();
    std::fs::write(
        d.join("many.toml"),
        format!("game = \"flip7\"\npolicy = \"{}\"\n", many.join(",")),
    )
    .unwrap();
    for (file, says) in [("one.toml", "lists 1 entrant"), ("many.toml", "500 entrants")] {
        let err = fails_with(
            2,
            &["tournament", "flip7", "--lineup", file, "--games", "10"],
            d,
            &["--lineup", file, says],
        );
        assert!(!err.contains("--policies"), "{err}");
    }
    // --field is one spec.
    let err = fails_with(
        2,
        &[
            "sweep",
            "flip7",
            "--policy",
            "stay-at-{20..22}",
            "--field",
            "ev,ev,ev",
        ],
        d,
        &["--field 'ev,ev,ev'", "one spec", "not a list"],
    );
    assert!(!err.contains("unknown policy"), "{err}");
    // A negative number is a value its option refuses, not an argument.
    fails_with(
        2,
        &["classic-flip", "--round-cap", "-1"],
        d,
        &["--round-cap", "'-1'", "from 1 to 10000000"],
    );
    fails_with(2, &["ib-flip", "--move-cap", "-5"], d, &["--move-cap", "'-5'"]);
    fails_with(
        2,
        &["flip7", "--players", "-3"],
        d,
        &["--players", "'-3'", "from 1 to 36"],
    );
    // Links to nothing: --out itself, and a results/ folder.
    std::os::unix::fs::symlink("nowhere/x.csv", d.join("dangling.csv")).unwrap();
    fails_with(
        1,
        &["flip7", "--games", "10", "--out", "dangling.csv"],
        d,
        &[
            "--out 'dangling.csv'",
            "symbolic link to 'nowhere/x.csv'",
            "does not exist",
        ],
    );
    let inner = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("/nonexistent/results", inner.path().join("results")).unwrap();
    let err = fails_with(
        1,
        &["flip7", "--games", "10"],
        inner.path(),
        &["'results' is a symbolic link"],
    );
    assert!(!err.contains("File exists"), "{err}");
    assert_eq!(files_in(inner.path()), ["results"]);
}

#[test]
fn a_strategies_folder_that_cannot_be_read_says_permission_denied() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("mine");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(
        folder.join("flip7-bold.toml"),
        "game = \"flip7\"\npolicy = \"stay-at-30\"\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o000)).unwrap();
    let o = sim(
        &[
            "flip7",
            "--strategies",
            "mine",
            "--policy",
            "bold",
            "--games",
            "10",
        ],
        dir.path(),
    );
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
    if o.status.success() {
        // The superuser reads every folder: nothing to refuse.
        eprintln!("skipped: running as the superuser, who can read a folder of mode 000");
        return;
    }
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("Permission denied") && err.contains("mine/flip7-bold.toml"),
        "{err}"
    );
    assert!(!err.contains("unknown policy"), "{err}");
}

#[test]
fn a_current_folder_too_deep_for_the_system_is_named() {
    let dir = tempfile::tempdir().unwrap();
    // 20 folders of 250 bytes, made and entered one at a time (a path this
    // long cannot be given whole): deeper than PATH_MAX (4096 bytes).
    let name = "d".repeat(250);
    let script =
        format!("for i in $(seq 20); do mkdir {name} && cd -P {name} || exit 99; done; exec \"$0\" \"$@\"");
    for args in [
        &["flip7", "--games", "10"][..],
        &["flip7", "--games", "10", "--out", "x.csv"],
    ] {
        let o = Command::new("sh")
            .arg("-c")
            .arg(&script)
            .arg(env!("CARGO_BIN_EXE_sim"))
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("current folder") && err.contains("PATH_MAX"),
            "{args:?}: {err}"
        );
        assert!(
            !err.contains("cannot create the folder 'results'"),
            "{args:?}: {err}"
        );
        assert!(stdout(&o).is_empty());
        std::fs::remove_dir_all(dir.path().join(&name)).unwrap();
    }
}

#[test]
fn exit_codes_are_two_for_a_wrong_command_line_and_one_for_a_failed_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let any5 = ["Any"; 5];
    let cards200: Vec<String> = (0..200).map(|i| format!("R{}", i % 9 + 2)).collect();
    let cards200: Vec<&str> = cards200.iter().map(String::as_str).collect();
    for (cards, names) in [
        (&["X9"][..], "'X9'"),
        (&["G1"], "'G1'"),
        (&["GA", "GA", "GA"], "'GA'"),
        (&any5[..], "'Any'"),
        (&cards200[..], "more than twice"),
        (&["R", "8"], "'R'"),
        (&["R11"], "'R11'"),
    ] {
        let args = [&["classic-flip", "score"][..], cards].concat();
        fails_with(2, &args, d, &["CARDS", names]);
    }
    fails_with(
        2,
        &["flip7", "--trace", "--games", "3", "--out", "-"],
        d,
        &["--out -", "--trace"],
    );
    fails_with(2, &["flip7", "--json", "--out", "-"], d, &["--out -", "--json"]);
    // A destination that cannot be written is a run that fails (exit 1),
    // for --state as for --out.
    std::fs::write(d.join("file"), "x").unwrap();
    fails_with(
        1,
        &[
            "flip7",
            "--games",
            "10",
            "--seed",
            "1",
            "--state",
            "file/s.json",
            "--checkpoint",
            "60",
        ],
        d,
        &["--state 'file/s.json'", "not a folder"],
    );
    fails_with(
        1,
        &["flip7", "--games", "10", "--out", "file/o.csv"],
        d,
        &["--out 'file/o.csv'", "not a folder"],
    );
    fails_with(
        1,
        &[
            "flip7",
            "--games",
            "10",
            "--seed",
            "1",
            "--shard",
            "1/2",
            "--state",
            "file/s.json",
        ],
        d,
        &["--state 'file/s.json'"],
    );
    assert_eq!(files_in(d), ["file"]);
}

#[test]
fn a_policy_error_quotes_the_spec_once() {
    let dir = tempfile::tempdir().unwrap();
    for (game, spec) in [
        ("classic-flip", "caller:x"),
        ("flip7", "stay-at-x"),
        ("ib-flip", "burn-at:x"),
        ("flip-flush", "call-at:x"),
        ("flip-flush", "read:2+call-at:0.1"),
    ] {
        let err = fails_with(2, &[game, "--policy", spec, "--games", "1"], dir.path(), &[spec]);
        let first = err.lines().next().unwrap();
        assert_eq!(
            first.matches(&format!("'{spec}'")).count(),
            1,
            "{game}: the spec is quoted more than once: {first}"
        );
    }
}
