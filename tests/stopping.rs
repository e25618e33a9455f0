//! Ctrl-C stops any run within about a second, whatever its size: the
//! work of a stop does not depend on the batches not yet played (a run of
//! 10^14 games, 97,656,250,000 batches, used to walk every one of them,
//! and took minutes to stop).

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `sim args` in a fresh folder, sends SIGINT after half a second,
/// and returns the exit code, stderr and how long the process took to end
/// after the signal.
fn stop_after_half_a_second(args: &[&str]) -> (Option<i32>, String, Duration) {
    let dir = tempfile::tempdir().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let sent = Instant::now();
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let o = child.wait_with_output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        sent.elapsed(),
    )
}

/// The largest count every command takes, and a generous bound on the
/// stop for a busy machine (it takes hundredths of a second when idle).
const HUGE: &str = "100000B";
const PROMPT: Duration = Duration::from_secs(5);

fn stops_promptly(args: &[&str]) {
    let (code, err, took) = stop_after_half_a_second(args);
    assert_eq!(code, Some(130), "{args:?}: {err}");
    assert!(err.contains("interrupted after"), "{args:?}: {err}");
    assert!(took < PROMPT, "{args:?} took {took:?} to stop: {err}");
}

#[test]
fn ctrl_c_stops_a_run_of_10_to_the_14_games_at_once() {
    stops_promptly(&[
        "flip7",
        "--games",
        HUGE,
        "--threads",
        "1",
        "--seed",
        "1",
        "--out",
        "r.csv",
    ]);
}

#[test]
fn ctrl_c_stops_a_run_with_checkpoints_of_10_to_the_14_games_at_once() {
    let run = [
        "flip7",
        "--games",
        HUGE,
        "--threads",
        "1",
        "--seed",
        "1",
        "--out",
        "r.csv",
    ];
    stops_promptly(&[&run[..], &["--checkpoint", "60"]].concat());
}

#[test]
fn ctrl_c_stops_a_sweep_and_a_tournament_of_10_to_the_14_games_at_once() {
    stops_promptly(&[
        "sweep",
        "flip7",
        "--policy",
        "stay-at-{20,30}",
        "--games",
        HUGE,
        "--threads",
        "1",
        "--seed",
        "1",
        "--out",
        "s",
    ]);
    stops_promptly(&[
        "tournament",
        "flip7",
        "--policies",
        "ev,stay-at-25",
        "--players",
        "2",
        "--games",
        HUGE,
        "--threads",
        "1",
        "--seed",
        "1",
        "--out",
        "t",
    ]);
}

/// Two candidates in four seats: 12500B fresh deals are the 10^14 games
/// tune takes at most.
#[test]
fn ctrl_c_stops_a_tune_with_10_to_the_14_fresh_games_at_once() {
    stops_promptly(&[
        "tune",
        "flip7",
        "--policy",
        "stay-at-{20,30}",
        "--budget",
        "10K",
        "--fresh",
        "12500B",
        "--threads",
        "1",
        "--seed",
        "1",
        "--out",
        "u",
    ]);
}
