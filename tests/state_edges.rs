//! State files at their edges: a state edited so that its checksum still
//! matches but its totals cannot be, and `sim merge` given the state of a
//! whole run or of a tune that was interrupted.

use std::path::Path;
use std::time::Duration;

use serde_json::Value;

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

/// A tune of half a second on one thread (its race runs ten rounds),
/// writing to `a`.
const TUNE_RUN: [&str; 21] = [
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

/// FNV-1a, 64 bits: the state's checksum, as `src/engine/state.rs`
/// computes it.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The state file `text` with its tally changed by `edit` and its
/// checksum computed again as the state does (over the file written with
/// an empty checksum, without its last newline): a state edited with care.
fn edited(text: &str, edit: impl Fn(&mut Value)) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let key = "  \"tally\": ";
    let at = lines.iter().position(|l| l.starts_with(key)).unwrap();
    let mut tally: Value = serde_json::from_str(&lines[at][key.len()..lines[at].len() - 1]).unwrap();
    edit(&mut tally);
    lines[at] = format!("{key}{tally},");
    let sum = lines
        .iter()
        .position(|l| l.starts_with("  \"checksum\": "))
        .unwrap();
    lines[sum] = "  \"checksum\": \"\"".into();
    let h = fnv1a(lines.join("\n").as_bytes());
    lines[sum] = format!("  \"checksum\": \"{h:016x}\"");
    lines.join("\n") + "\n"
}

/// `sim` with `args` in `d` is refused with code 2 and says `fragments`.
fn refused_here(args: &[&str], d: &Path, fragments: &[&str]) {
    let o = sim(args, d);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    for f in fragments {
        assert!(err.contains(f), "{args:?}: message lacks {f:?}:\n{err}");
    }
}

#[test]
fn a_state_edited_with_its_checksum_made_again_is_refused_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = ["flip7", "--games", "5K", "--seed", "1"];
    let mut shard = run.to_vec();
    shard.extend(["--shard", "1/2", "--state", "s.json"]);
    ok(&sim(&shard, d));
    let text = std::fs::read_to_string(d.join("s.json")).unwrap();
    // The same bytes when nothing is edited: the checksum is made as the
    // state makes it.
    assert_eq!(edited(&text, |_| {}), text);
    // One seat with more wins than games.
    let more = edited(&text, |t| {
        t["seats"][2]["wins"] = (t["games"].as_u64().unwrap() + 100).into();
    });
    std::fs::write(d.join("e.json"), more).unwrap();
    let said = [
        "state file 'e.json' is not consistent: seat 2 has 2148 wins in 2048 games \
         (tally.seats[2].wins); it was edited or damaged: write it again by running the shard again",
    ];
    refused_here(&["merge", "e.json"], d, &said);
    refused_here(&["flip7", "--resume", "e.json"], d, &said);
    // Every seat's wins raised by a third: each below the games, but the
    // four win rates add up to more than all.
    let third = edited(&text, |t| {
        for s in t["seats"].as_array_mut().unwrap() {
            s["wins"] = (s["wins"].as_u64().unwrap() * 4 / 3).into();
        }
    });
    std::fs::write(d.join("t.json"), third).unwrap();
    refused_here(
        &["merge", "t.json"],
        d,
        &["not consistent: ", "(tally.seats[].wins)"],
    );
    // The state's own fields: a range beyond the shard's batches.
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let end = lines.iter().position(|l| l == "  \"done\": [").unwrap() + 3;
    lines[end] = "      3".into();
    let sum = lines
        .iter()
        .position(|l| l.starts_with("  \"checksum\": "))
        .unwrap();
    lines[sum] = "  \"checksum\": \"\"".into();
    let h = fnv1a(lines.join("\n").as_bytes());
    lines[sum] = format!("  \"checksum\": \"{h:016x}\"");
    std::fs::write(d.join("r.json"), lines.join("\n") + "\n").unwrap();
    refused_here(
        &["merge", "r.json"],
        d,
        &[
            "state file 'r.json' is not consistent: range [0, 3) is not within shard 1/2's batches, 0..2 (done[0])",
        ],
    );
    // The state as written merges with the other shard.
    let mut other = run.to_vec();
    other.extend(["--shard", "2/2", "--state", "s2.json"]);
    ok(&sim(&other, d));
    ok(&sim(&["merge", "s.json", "s2.json"], d));
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
    let run = TUNE_RUN;
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

#[test]
fn solve_csvs_end_with_seed_and_sim_version() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let version = ok(&sim(&["--version"], d));
    let version = version.trim().strip_prefix("sim ").unwrap();
    ok(&sim(
        &["flip7", "solve", "--without", "actions,modifiers", "--out", "x"],
        d,
    ));
    for (file, header) in [
        ("thresholds.csv", "rule,expected_round_score"),
        ("decisions.csv", "numbers,cards,sum,decision,expected_round_score"),
    ] {
        let text = std::fs::read_to_string(d.join("x").join(file)).unwrap();
        let mut lines = text.lines();
        assert_eq!(
            lines.next(),
            Some(format!("{header},seed,sim_version").as_str()),
            "{file}"
        );
        // The values are exact: no seed, the seed cell empty.
        for l in lines {
            assert!(l.ends_with(&format!(",,{version}")), "{file}: {l}");
        }
    }
}

/// The JSON trace's run line of `game` with `more`, and its game ends.
fn run_line(game: &str, more: &[&str], d: &Path) -> (Value, Vec<Value>) {
    let mut args = vec![
        game,
        "--games",
        "3",
        "--seed",
        "5",
        "--trace",
        "--trace-format",
        "json",
    ];
    args.extend(more);
    args.extend(["--out", "x.csv"]);
    let lines: Vec<Value> = ok(&sim(&args, d))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let ends = lines
        .iter()
        .filter(|e| e["event"] == "game_end")
        .cloned()
        .collect();
    (lines[0].clone(), ends)
}

#[test]
fn ib_flip_run_line_says_whether_the_repetition_detector_runs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (head, _) = run_line("ib-flip", &[], d);
    let det = &head["repetition_detector"];
    assert_eq!(det["runs"], true, "{head}");
    assert_eq!(det["from_move"], 400, "{head}");
    let compares: Vec<&str> = det["compares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert!(
        compares.contains(&"hands") && compares.contains(&"live_pile"),
        "{head}"
    );
    // A seat drawing random numbers: no game ends by repetition.
    let (head, ends) = run_line("ib-flip", &["--players", "2", "--policy", "finisher,random"], d);
    assert_eq!(head["repetition_detector"]["runs"], false, "{head}");
    assert!(ends.iter().all(|e| e["repetition"] != true));
    // The line's keys, in order: the detector after the table's, before
    // the version.
    let keys: Vec<&String> = head.as_object().unwrap().keys().collect();
    let at = keys.iter().position(|k| *k == "repetition_detector").unwrap();
    assert_eq!(keys[at + 1], "sim_version");
    // Other games say nothing of it.
    for g in ["flip7", "classic-flip", "flip-flush"] {
        let (head, _) = run_line(g, &[], d);
        assert!(head.get("repetition_detector").is_none(), "{g}: {head}");
    }
}

#[test]
fn ib_flip_rules_give_finisher_as_the_default_policy() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules/ib-flip.md")).unwrap();
    assert!(doc.contains("`finisher` (default)"), "docs/rules/ib-flip.md");
    assert!(!doc.contains("`lowest` (default)"), "docs/rules/ib-flip.md");
    let dir = tempfile::tempdir().unwrap();
    let (head, _) = run_line("ib-flip", &[], dir.path());
    assert_eq!(head["policies"][0], "finisher", "{head}");
}

#[test]
fn flip7_rules_document_round_end_cards_as_a_count() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules/flip7.md")).unwrap();
    let row = doc.lines().find(|l| l.starts_with("| `round_end` |")).unwrap();
    assert!(
        row.contains("`cards` (how many cards are in front of the seat, a number"),
        "{row}"
    );
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec![
        "flip7",
        "--games",
        "2",
        "--seed",
        "5",
        "--trace",
        "--trace-format",
        "json",
    ];
    args.extend(["--out", "x.csv"]);
    let text = ok(&sim(&args, dir.path()));
    let ends: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["event"] == "round_end")
        .collect();
    assert!(!ends.is_empty());
    for e in &ends {
        for s in e["seats"].as_array().unwrap() {
            assert!(s["cards"].is_u64(), "{e}");
        }
    }
}

#[test]
fn a_tournament_or_sweep_state_edited_with_its_checksum_made_again_is_refused_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let tournament = [
        "tournament",
        "flip7",
        "--policies",
        "stay-at-20,stay-at-25",
        "--players",
        "2",
        "--games",
        "2K",
        "--seed",
        "1",
        "--no-charts",
        "--shard",
        "1/1",
        "--state",
        "t.json",
    ];
    ok(&sim(&tournament, d));
    let text = std::fs::read_to_string(d.join("t.json")).unwrap();
    let more = edited(&text, |t| {
        t["seats"][1]["wins"] = (t["deals"].as_u64().unwrap() + 1).into()
    });
    std::fs::write(d.join("te.json"), more).unwrap();
    refused_here(
        &["merge", "te.json"],
        d,
        &[
            "state file 'te.json' is not consistent: seat 1 has 2001 wins",
            "(tally.seats[1].wins)",
        ],
    );
    let sweep = [
        "sweep",
        "flip7",
        "--policy",
        "stay-at-{20..24..2}",
        "--games",
        "2K",
        "--seed",
        "1",
        "--no-charts",
        "--shard",
        "1/1",
        "--state",
        "w.json",
    ];
    ok(&sim(&sweep, d));
    let text = std::fs::read_to_string(d.join("w.json")).unwrap();
    let more = edited(&text, |t| t[1]["seats"][0]["wins"] = 9999.into());
    std::fs::write(d.join("we.json"), more).unwrap();
    refused_here(
        &["merge", "we.json"],
        d,
        &[
            "state file 'we.json' is not consistent: seat 0 has 9999 wins in 2000 games (tally[1].seats[0].wins)",
        ],
    );
}

/// A tune's state is checked in itself too: a race round whose candidates
/// played different numbers of deals is refused, naming the field.
#[test]
fn a_tune_state_edited_with_its_checksum_made_again_is_refused_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = TUNE_RUN;
    interrupted(&run, d, 150);
    let text = std::fs::read_to_string(d.join("a.state.json")).unwrap();
    // Nothing edited: the state goes on.
    std::fs::write(d.join("same.json"), edited(&text, |_| {})).unwrap();
    assert_eq!(std::fs::read_to_string(d.join("same.json")).unwrap(), text);
    let units = |t: &mut Value| {
        let c = &mut t["rounds"][0]["cand"][1]["units"];
        *c = (c.as_u64().unwrap() + 1).into();
    };
    std::fs::write(d.join("a.state.json"), edited(&text, units)).unwrap();
    refused_here(
        &["tune", "flip7", "--resume", "a.state.json"],
        d,
        &["is not consistent", "(tally.rounds[0].cand)"],
    );
}
