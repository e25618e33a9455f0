//! Runs beyond one process: shards merged by `sim merge`, interrupted runs
//! resumed with `--resume`, killed runs resumed from `--checkpoint`, and
//! the state files `sim merge` refuses. The files written must be the
//! bytes one uninterrupted process writes.

use crate::common;
use common::*;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sim::engine::game::{Game, Visitor};

/// The name and default policy of every registered game.
fn game_names() -> Vec<&'static str> {
    struct Names(Vec<&'static str>);
    impl Visitor for Names {
        fn visit<G: Game>(&mut self) {
            self.0.push(G::NAME);
        }
    }
    let mut n = Names(Vec::new());
    sim::games::each(&mut n);
    n.0
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `base` with `more` added.
fn with<'a>(base: &[&'a str], more: &[&'a str]) -> Vec<&'a str> {
    let mut v = base.to_vec();
    v.extend(more);
    v
}

/// Plays `base` as `n` shards writing `stem-K.json` in `dir`, then merges
/// them (in reverse order) and returns the merge's stdout. The shards'
/// state files are kept: they are the shards' results.
fn shards_and_merge(base: &[&str], n: u64, stem: &str, dir: &Path) -> String {
    let mut states = Vec::new();
    for k in 1..=n {
        let shard = format!("{k}/{n}");
        let state = format!("{stem}-{k}.json");
        let out = ok(&sim(&with(base, &["--shard", &shard, "--state", &state]), dir));
        assert!(out.contains(&format!("shard {k}/{n}")), "{out}");
        states.push(state);
    }
    states.reverse();
    let mut merge = vec!["merge"];
    merge.extend(states.iter().map(String::as_str));
    let out = ok(&sim_dated(&merge, dir));
    for s in &states {
        assert!(dir.join(s).is_file(), "sim merge removed the shard state {s}");
    }
    out
}

#[test]
fn every_game_sharded_and_merged_writes_the_bytes_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    for game in game_names() {
        // 5 batches of 1024 games (the last one short).
        let whole = format!("{game}-whole.csv");
        ok(&sim(
            &[game, "--games", "4500", "--seed", "3", "--out", &whole],
            dir.path(),
        ));
        for n in [1u64, 2, 3, 8] {
            let merged = format!("{game}-{n}.csv");
            let base = [game, "--games", "4500", "--seed", "3", "--out", &merged];
            let summary = shards_and_merge(&base, n, &format!("{game}-{n}"), dir.path());
            assert!(
                summary.contains(&format!("merged from {n} state file")),
                "{summary}"
            );
            assert_eq!(
                read(&dir.path().join(&merged)),
                read(&dir.path().join(&whole)),
                "{game} in {n} shards"
            );
        }
    }
}

#[test]
fn a_tournament_and_a_sweep_sharded_and_merged_write_the_same_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The same command in two folders: played whole in one, in shards in
    // the other (the workbook records the command and, with
    // SOURCE_DATE_EPOCH, a fixed date).
    let (whole, parts) = (d.join("whole"), d.join("parts"));
    std::fs::create_dir(&whole).unwrap();
    std::fs::create_dir(&parts).unwrap();
    let t = [
        "tournament",
        "flip7",
        "--policies",
        "stay-at-20,stay-at-25,ev",
        "--players",
        "2",
        "--games",
        "2500",
        "--seed",
        "6",
        "--out",
        "t",
        "--xlsx",
        "t.xlsx",
    ];
    ok(&sim_dated(&t, &whole));
    // 3 batches: 2 and 5 shards (some empty).
    for n in [2, 5] {
        shards_and_merge(&t, n, &format!("t{n}"), &parts);
        for f in [
            "t/standings.csv",
            "t/pairwise.csv",
            "t/standings.svg",
            "t/standings.png",
            "t.xlsx",
        ] {
            assert_eq!(read(&whole.join(f)), read(&parts.join(f)), "{f}, {n} shards");
        }
    }
    let s = |out: &'static str| {
        vec![
            "sweep",
            "ib-flip",
            "--policy",
            "saver+burn-at:{6..10..2}",
            "--games",
            "1500",
            "--seed",
            "2",
            "--out",
            out,
        ]
    };
    ok(&sim(&s("sw"), d));
    // 3 values of 2 batches: 6 units, in 4 and 9 shards.
    for n in [4, 9] {
        shards_and_merge(&s("sm"), n, &format!("s{n}"), d);
        for f in ["sweep.csv", "sweep.svg", "sweep.png"] {
            assert_eq!(
                read(&d.join("sw").join(f)),
                read(&d.join("sm").join(f)),
                "{f}, {n} shards"
            );
        }
    }
}

#[test]
fn merge_refuses_states_that_do_not_make_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let base = ["flip7", "--games", "5000", "--seed", "1", "--out", "m.csv"];
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let state = format!("s{k}.json");
        ok(&sim(&with(&base, &["--shard", &shard, "--state", &state]), d));
    }
    let other = [
        "flip7", "--games", "5000", "--seed", "2", "--shard", "1/3", "--state", "o1.json",
    ];
    ok(&sim(&other, d));
    let refused_merge = |states: &[&str], fragments: &[&str]| {
        let mut args = vec!["merge"];
        args.extend(states);
        let o = sim(&args, d);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        for f in fragments {
            assert!(err.contains(f), "{args:?}: lacks {f:?}: {err}");
        }
        assert!(!d.join("m.csv").exists(), "{args:?} wrote the CSV");
    };
    refused_merge(&["s1.json", "s2.json"], &["batches 4 to 5 of 5 are missing"]);
    refused_merge(
        &["s1.json", "s2.json", "s2.json", "s3.json"],
        &["s2.json", "given twice"],
    );
    refused_merge(
        &["o1.json", "s2.json", "s3.json"],
        &["o1.json", "s2.json", "different runs", "seed: 2 vs 1"],
    );
    // Damaged files.
    let text = String::from_utf8(read(&d.join("s1.json"))).unwrap();
    std::fs::write(d.join("cut.json"), &text[..text.len() / 2]).unwrap();
    refused_merge(&["cut.json", "s2.json", "s3.json"], &["cut.json", "truncated"]);
    let games = text.find("\"games\"").unwrap();
    let mut altered = text.clone().into_bytes();
    let digit = text[games..].find(|c: char| c.is_ascii_digit()).unwrap() + games;
    altered[digit] = if altered[digit] == b'9' {
        b'8'
    } else {
        altered[digit] + 1
    };
    std::fs::write(d.join("altered.json"), altered).unwrap();
    refused_merge(
        &["altered.json", "s2.json", "s3.json"],
        &["altered.json", "checksum"],
    );
    std::fs::write(
        d.join("future.json"),
        text.replacen("\"version\": 2", "\"version\": 9", 1),
    )
    .unwrap();
    refused_merge(
        &["future.json", "s2.json", "s3.json"],
        &["future.json", "version 9", "newer"],
    );
    std::fs::write(d.join("notes.json"), "{\"hello\": 1}").unwrap();
    refused_merge(&["notes.json"], &["notes.json", "not a sim state file"]);
    // The three together do merge.
    ok(&sim(&["merge", "s1.json", "s2.json", "s3.json"], d));
    assert!(d.join("m.csv").exists());
}

#[test]
fn shard_options_are_checked_before_any_game() {
    refused(
        &["flip7", "--shard", "3/2", "--seed", "1", "--state", "s.json"],
        &["--shard", "3/2", "K/N"],
    );
    refused(
        &["flip7", "--shard", "0/2", "--seed", "1", "--state", "s.json"],
        &["--shard", "0/2"],
    );
    refused(&["flip7", "--shard", "1/2", "--state", "s.json"], &["--seed"]);
    refused(&["flip7", "--shard", "1/2", "--seed", "1"], &["--state"]);
    refused(&["flip7", "--checkpoint", "0"], &["--checkpoint", "0"]);
    refused(&["flip7", "--resume", "nowhere.json"], &["nowhere.json"]);
    refused(
        &["flip7", "--games", "3", "--trace", "--checkpoint", "5"],
        &["--trace", "--checkpoint"],
    );
    refused(
        &[
            "tournament",
            "flip7",
            "--policies",
            "ev,stay-at-20",
            "--players",
            "2",
            "--until-ci",
            "0.01",
            "--seed",
            "1",
            "--shard",
            "1/2",
            "--state",
            "s.json",
        ],
        &["--until-ci", "--shard"],
    );
    refused(
        &[
            "flip7",
            "--seed",
            "1",
            "--shard",
            "1/2",
            "--state",
            "/dev/null/s.json",
        ],
        &["--state", "/dev/null/s.json"],
    );
}

/// Starts `sim args` in `dir`, waits until it has played for `after`, then
/// sends it `signal` (a name for kill(1)); returns its exit code and stderr.
pub(crate) fn interrupt(args: &[&str], dir: &Path, after: Duration, signal: &str) -> (Option<i32>, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    let killed = Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let o = child.wait_with_output().unwrap();
    (o.status.code(), String::from_utf8_lossy(&o.stderr).into_owned())
}

/// Interrupts `run` (which writes into `out`) after a moment with
/// `signal`, checks it wrote nothing but its state `state`, then resumes
/// it with `--resume STATE` and nothing else (plus `more`); returns what
/// the resume printed.
fn interrupt_and_resume(
    d: &Path,
    run: &[&str],
    out: &str,
    state: &str,
    signal: &str,
    more: &[&str],
) -> String {
    // On one thread: a run of a fraction of a second is still under way.
    let (code, err) = interrupt(
        &with(run, &["--out", out, "--threads", "1"]),
        d,
        Duration::from_millis(300),
        signal,
    );
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("interrupted after") && err.contains(state), "{err}");
    // The message says how to go on: the command and --resume alone.
    let path = if run[0] == "tournament" || run[0] == "sweep" {
        &run[..2]
    } else {
        &run[..1]
    };
    let hint = format!("sim {} --resume {state}", path.join(" "));
    assert!(err.contains(&hint), "{hint} not in: {err}");
    assert!(!d.join(out).exists(), "an interrupted run wrote {out}");
    assert!(d.join(state).is_file(), "no state {state}");
    let mut again = path.to_vec();
    again.extend(["--resume", state]);
    again.extend(more);
    let text = ok(&sim(&again, d));
    assert!(text.contains("resumed from 1 state file"), "{text}");
    text
}

#[test]
fn an_interrupted_run_resumed_from_its_state_alone_writes_the_bytes_of_an_uninterrupted_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Long enough (about 0.7 s on one core) to be under way after 0.3 s.
    let run = ["flip7", "--games", "800K", "--seed", "11", "--no-progress"];
    let text = interrupt_and_resume(d, &run, "r.csv", "r.csv.state.json", "INT", &[]);
    assert!(text.contains("removed its state file r.csv.state.json"), "{text}");
    assert!(!d.join("r.csv.state.json").exists(), "the state outlived its run");
    ok(&sim(&with(&run, &["--out", "u.csv"]), d));
    assert_eq!(read(&d.join("r.csv")), read(&d.join("u.csv")));

    // A tournament stopped by SIGTERM, resumed the same way; its state
    // kept with --keep-state.
    let t = [
        "tournament",
        "flip7",
        "--policies",
        "stay-at-20,stay-at-25",
        "--players",
        "2",
        "--games",
        "1M",
        "--seed",
        "2",
        "--no-charts",
        "--no-progress",
    ];
    let text = interrupt_and_resume(d, &t, "ta", "ta.state.json", "TERM", &["--keep-state"]);
    assert!(
        text.contains("state kept (--keep-state): ta.state.json"),
        "{text}"
    );
    assert!(d.join("ta.state.json").is_file());
    ok(&sim(&with(&t, &["--out", "tb"]), d));
    for f in ["standings.csv", "pairwise.csv"] {
        assert_eq!(read(&d.join("ta").join(f)), read(&d.join("tb").join(f)), "{f}");
    }

    // A sweep, with its --threads changed on the way.
    let s = [
        "sweep",
        "flip7",
        "--policy",
        "stay-at-{20,25}",
        "--games",
        "500K",
        "--seed",
        "4",
        "--no-charts",
        "--no-progress",
    ];
    interrupt_and_resume(d, &s, "sa", "sa.state.json", "INT", &["--threads", "2"]);
    assert!(!d.join("sa.state.json").exists(), "the state outlived its run");
    ok(&sim(&with(&s, &["--out", "sb"]), d));
    assert_eq!(read(&d.join("sa/sweep.csv")), read(&d.join("sb/sweep.csv")));
}

/// Options given beside --resume must be the state's: each one that is not
/// is named, with the state's value and the one given, and nothing is
/// played or written.
#[test]
fn options_beside_resume_that_differ_from_the_state_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let base = ["flip7", "--games", "5000", "--seed", "1", "--out", "m.csv"];
    ok(&sim(&with(&base, &["--shard", "1/2", "--state", "s1.json"]), d));
    let o = sim(
        &[
            "flip7",
            "--resume",
            "s1.json",
            "--games",
            "100000",
            "--players",
            "3",
            "--single-round",
        ],
        d,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    for f in [
        "--games: the state's 5000, given 100000",
        "--players: the state's 4 (the default), given 3",
        "--single-round: the state's false (the default), given true",
    ] {
        assert!(err.contains(f), "lacks {f:?}: {err}");
    }
    assert!(!d.join("m.csv").exists());
    // The same values written another way, and the state's own, are no
    // difference.
    let o = sim(
        &[
            "flip7",
            "--resume",
            "s1.json",
            "--games",
            "5K",
            "--seed",
            "1",
            "--threads",
            "1",
        ],
        d,
    );
    // The options match, but the shard is finished: nothing is left to
    // play, and its results come from sim merge.
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("finished") && stderr(&o).contains("sim merge s1.json"),
        "{}",
        stderr(&o)
    );
    assert!(d.join("s1.json").is_file());
    assert!(!d.join("m.csv").exists(), "a shard wrote the results");
    // Another command's state is refused with the command it belongs to.
    let o = sim(&["tournament", "flip7", "--resume", "s1.json"], d);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("is of a run of `sim flip7`")
            && stderr(&o).contains("sim flip7 --resume s1.json"),
        "{}",
        stderr(&o)
    );
    // A state of another shard than --shard says.
    let o = sim(
        &[
            "flip7", "--resume", "s1.json", "--shard", "2/2", "--state", "x.json", "--seed", "1",
        ],
        d,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("is of shard 1/2, not of shard 2/2 (--shard 2/2)"),
        "{}",
        stderr(&o)
    );
}

/// A state file written before the state kept its seed as a string
/// (format version 1) goes on as before; one written by another build of
/// sim is refused, naming both.
#[test]
fn old_state_files_are_read_or_refused_clearly() {
    use sim::engine::state::State;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = ["flip7", "--games", "5000", "--seed", "17797063525853281234"];
    let base = with(&run, &["--out", "o.csv"]);
    ok(&sim(&with(&base, &["--shard", "1/2", "--state", "new.json"]), d));
    let mut s = State::read(&d.join("new.json")).unwrap();
    assert_eq!(s.definition["seed"], "17797063525853281234");
    s.version = 1;
    s.definition["seed"] = 17_797_063_525_853_281_234u64.into();
    std::fs::write(d.join("v1.json"), s.to_bytes().unwrap()).unwrap();
    ok(&sim(&with(&base, &["--shard", "2/2", "--state", "two.json"]), d));
    ok(&sim(&["merge", "v1.json", "two.json"], d));
    ok(&sim(&with(&run, &["--out", "whole.csv"]), d));
    assert_eq!(read(&d.join("o.csv")), read(&d.join("whole.csv")));

    s.version = 2;
    s.definition["sim"] = "0.0.1 (commit 0123456789ab)".into();
    std::fs::write(d.join("other.json"), s.to_bytes().unwrap()).unwrap();
    let o = sim(&["flip7", "--resume", "other.json"], d);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("written by sim 0.0.1 (commit 0123456789ab); this is sim "),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_killed_run_resumes_from_its_last_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = [
        "flip7",
        "--games",
        "3M",
        "--seed",
        "5",
        "--no-progress",
        "--out",
        "k.csv",
    ];
    let child = Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(with(&run, &["--checkpoint", "1", "--state", "k.json"]))
        .current_dir(d)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait for a checkpoint, then kill without warning.
    let start = Instant::now();
    while !d.join("k.json").exists() {
        assert!(start.elapsed() < Duration::from_secs(60), "no checkpoint written");
        std::thread::sleep(Duration::from_millis(50));
    }
    let killed = Command::new("kill")
        .args(["-KILL", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let o = child.wait_with_output().unwrap();
    assert!(!o.status.success());
    assert!(!d.join("k.csv").exists());
    // The state holds the command: --resume alone goes on with it.
    ok(&sim(&["flip7", "--resume", "k.json"], d));
    assert!(!d.join("k.json").exists(), "the checkpoint outlived its run");
    let whole = [
        "flip7",
        "--games",
        "3M",
        "--seed",
        "5",
        "--no-progress",
        "--out",
        "w.csv",
    ];
    ok(&sim(&whole, d));
    assert_eq!(read(&d.join("k.csv")), read(&d.join("w.csv")));
}
