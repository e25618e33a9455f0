//! State files at their edges: a state edited so that its checksum still
//! matches but its totals cannot be, and `sim merge` given the state of a
//! whole run or of a tune that was interrupted.

use std::path::Path;
use std::time::Duration;

use crate::common::{ok, sim, stderr};
use crate::shards::interrupt;

/// Interrupts `run` (with `--threads 1`) early and returns what it said,
/// checking it stopped as an interrupt does.
fn interrupted(run: &[&str], d: &Path, after: u64) -> String {
    let mut args = run.to_vec();
    args.extend(["--threads", "1"]);
    let (code, err) = interrupt(&args, d, Duration::from_millis(after), "INT");
    assert_eq!(code, Some(130), "{err}");
    err
}

/// `sim merge` refuses `states` with code 2 and no output; returns its
/// message.
fn merge_refused(states: &[&str], d: &Path) -> String {
    let mut args = vec!["merge"];
    args.extend(states);
    let o = sim(&args, d);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    stderr(&o)
}

#[test]
fn merge_of_an_interrupted_run_says_to_resume_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = ["flip7", "--games", "2M", "--seed", "7", "--out", "big.csv"];
    let err = interrupted(&run, d, 300);
    assert!(err.contains("sim flip7 --resume big.csv.state.json"), "{err}");
    let err = merge_refused(&["big.csv.state.json"], d);
    assert!(
        err.contains(
            "state file 'big.csv.state.json' is of a whole run that was interrupted, not of a shard"
        ) && err.contains("to go on with the run: sim flip7 --resume big.csv.state.json"),
        "{err}"
    );
    assert!(!err.contains("a shard not given"), "{err}");
    assert!(!d.join("big.csv").exists());
}

#[test]
fn merge_of_an_interrupted_tune_says_to_resume_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = [
        "tune",
        "flip7",
        "--policy",
        "stay-at-{20..26}",
        "--seed",
        "6",
        "--players",
        "1",
        "--single-round",
        "--without",
        "actions,modifiers",
        "--objective",
        "mean-round-score",
        "--no-progress",
        "--margin",
        "0.001",
        "--budget",
        "16M",
        "--no-charts",
        "--out",
        "a",
    ];
    let err = interrupted(&run, d, 150);
    assert!(err.contains("sim tune flip7 --resume a.state.json"), "{err}");
    let err = merge_refused(&["a.state.json"], d);
    assert!(
        err.contains("state file 'a.state.json' is of a whole run that was interrupted")
            && err.contains("to go on with the run: sim tune flip7 --resume a.state.json"),
        "{err}"
    );
    assert!(!d.join("a").exists());
    // And the resume it names goes on with the race.
    ok(&sim(&["tune", "flip7", "--resume", "a.state.json"], d));
}
