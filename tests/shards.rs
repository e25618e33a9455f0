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
    ok(&sim(&merge, dir))
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
fn interrupt(args: &[&str], dir: &Path, after: Duration, signal: &str) -> (Option<i32>, String) {
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

#[test]
fn an_interrupted_run_resumed_writes_the_bytes_of_an_uninterrupted_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Long enough (about 2 s on 2 cores) to be under way after 0.3 s.
    let run = ["flip7", "--games", "2M", "--seed", "11", "--no-progress"];
    let (code, err) = interrupt(
        &with(&run, &["--out", "r.csv"]),
        d,
        Duration::from_millis(300),
        "INT",
    );
    assert_eq!(code, Some(130), "{err}");
    assert!(
        err.contains("interrupted after") && err.contains("r.csv.state.json"),
        "{err}"
    );
    assert!(!d.join("r.csv").exists(), "an interrupted run wrote its CSV");
    // The message says how to go on; do it.
    let again = with(&run, &["--out", "r.csv", "--resume", "r.csv.state.json"]);
    let out = ok(&sim(&again, d));
    assert!(out.contains("resumed from 1 state file"), "{out}");
    ok(&sim(&with(&run, &["--out", "u.csv"]), d));
    assert_eq!(read(&d.join("r.csv")), read(&d.join("u.csv")));

    // A tournament stopped by SIGTERM, resumed the same way.
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
    let (code, err) = interrupt(&with(&t, &["--out", "ta"]), d, Duration::from_millis(300), "TERM");
    assert_eq!(code, Some(130), "{err}");
    assert!(!d.join("ta").exists());
    ok(&sim(&with(&t, &["--out", "ta", "--resume", "ta.state.json"]), d));
    ok(&sim(&with(&t, &["--out", "tb"]), d));
    for f in ["standings.csv", "pairwise.csv"] {
        assert_eq!(read(&d.join("ta").join(f)), read(&d.join("tb").join(f)), "{f}");
    }
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
    ok(&sim(&with(&run, &["--resume", "k.json"]), d));
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
