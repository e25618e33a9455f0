//! Helpers shared by the tests that run the `sim` binary.
#![allow(dead_code)] // each test file uses its own subset

use sim::engine::runner::{RunConfig, Simulation, run};
use std::io::Read;

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The folder of the example programs (`examples/`), built once for the
/// whole test run: `cargo test` builds them already, and a run of some
/// modules alone (`cargo test --test integration library::`) builds them
/// here.
pub fn examples_dir() -> &'static Path {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut build = Command::new(cargo);
        build.args(["build", "--examples", "--quiet"]);
        if !cfg!(debug_assertions) {
            build.arg("--release");
        }
        let status = build
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("run cargo build --examples");
        assert!(status.success(), "cargo build --examples failed");
        // This test binary is target/PROFILE/deps/integration-HASH; the
        // examples are in target/PROFILE/examples.
        let exe = std::env::current_exe().unwrap();
        exe.parent().unwrap().parent().unwrap().join("examples")
    })
}

/// The example programs' names (`examples/NAME.rs`), sorted.
pub fn example_names() -> Vec<String> {
    files_in(&Path::new(env!("CARGO_MANIFEST_DIR")).join("examples"))
        .into_iter()
        .filter_map(|f| f.strip_suffix(".rs").map(str::to_string))
        .collect()
}

/// Runs the example program `name` with `args` in `dir`.
pub fn example(name: &str, args: &[&str], dir: &Path) -> Output {
    let path = examples_dir().join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    Command::new(&path)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("run {}: {e}", path.display()))
}

/// Runs `sim` with `args` in `dir`.
pub fn sim(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run sim")
}

/// Runs `sim` with `args` in `dir` with a fixed `SOURCE_DATE_EPOCH`, so
/// that a workbook it writes records the same date every time (the same
/// run then gives the same bytes).
pub fn sim_dated(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .current_dir(dir)
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .output()
        .expect("run sim")
}

/// The text of sheet `name` of the workbook at `path`: its cells' strings
/// (shared strings and inline ones) in the order the sheet's XML holds
/// them, and its numbers, joined by newlines.
pub fn workbook_sheet(path: &Path, name: &str) -> String {
    let mut zip = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    let mut read = |file: &str| -> String {
        let mut text = String::new();
        zip.by_name(file)
            .unwrap_or_else(|e| panic!("{}: {file}: {e}", path.display()))
            .read_to_string(&mut text)
            .unwrap();
        text
    };
    let book = read("xl/workbook.xml");
    // Sheet k (1-based, in the order of workbook.xml) is xl/worksheets/sheetK.xml.
    let names: Vec<&str> = book
        .split("<sheet ")
        .skip(1)
        .map(|s| s.split("name=\"").nth(1).unwrap().split('"').next().unwrap())
        .collect();
    let k = names
        .iter()
        .position(|n| *n == name)
        .unwrap_or_else(|| panic!("no sheet {name} in {names:?}"));
    let sheet = read(&format!("xl/worksheets/sheet{}.xml", k + 1));
    let shared: Vec<String> = match zip.by_name("xl/sharedStrings.xml") {
        Ok(mut f) => {
            let mut text = String::new();
            f.read_to_string(&mut text).unwrap();
            text.split("<t")
                .skip(1)
                .map(|t| {
                    t.split_once('>')
                        .unwrap()
                        .1
                        .split("</t>")
                        .next()
                        .unwrap()
                        .to_string()
                })
                .collect()
        }
        Err(_) => Vec::new(),
    };
    let mut cells = Vec::new();
    for c in sheet.split("<c ").skip(1) {
        let value = c.split("<v>").nth(1).map(|v| v.split("</v>").next().unwrap());
        match (c.contains("t=\"s\""), value) {
            (true, Some(i)) => cells.push(shared[i.parse::<usize>().unwrap()].clone()),
            (false, Some(v)) => cells.push(v.to_string()),
            _ => {}
        }
    }
    cells.join("\n")
}

/// What the run wrote to stderr.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// What the run wrote to stdout.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Asserts the run succeeded and returns its stdout.
pub fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", stderr(o));
    stdout(o)
}

/// Names of the entries of `dir`, sorted (empty if it does not exist).
pub fn files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|r| {
            r.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Runs a bad command line in a fresh folder: it must be refused with a
/// message naming each of `fragments`, print nothing to stdout and leave
/// nothing behind.
pub fn refused(args: &[&str], fragments: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let o = sim(args, dir.path());
    assert!(!o.status.success(), "{args:?} was accepted");
    let err = stderr(&o);
    for f in fragments {
        assert!(err.contains(f), "{args:?}: message lacks {f:?}:\n{err}");
    }
    assert!(o.stdout.is_empty(), "{args:?} printed to stdout");
    assert!(
        files_in(dir.path()).is_empty(),
        "{args:?} left {:?}",
        files_in(dir.path())
    );
}

/// Runs `sim` in `dir` with a reader on stdout that takes `read` bytes and
/// then goes away (as `sim ... | head -c N`, or `| true` with 0).
pub fn output_into_closed_pipe(args: &[&str], dir: &Path, read: usize) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sim");
    let mut first = vec![0u8; read];
    child.stdout.as_mut().unwrap().read_exact(&mut first).unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

/// [`output_into_closed_pipe`], and the run must end quietly, with exit 0
/// and nothing on stderr.
pub fn into_closed_pipe(args: &[&str], dir: &Path, read: usize) {
    let o = output_into_closed_pipe(args, dir, read);
    assert!(o.status.success(), "{args:?}: {:?} {}", o.status, stderr(&o));
    assert!(stderr(&o).is_empty(), "{args:?}: {}", stderr(&o));
}

pub fn console_table<'a>(text: &'a str, header: &str, rows: usize) -> Vec<&'a str> {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with(header))
        .unwrap_or_else(|| panic!("no table headed {header:?} in:\n{text}"));
    assert!(
        at + rows < lines.len() + 1,
        "the table headed {header:?} is cut short:\n{text}"
    );
    lines[at..=at + rows].to_vec()
}

/// Asserts that a console table (its header line, then its rows) is
/// aligned: the gaps of two or more spaces that every line shares split it
/// into exactly as many columns as the header has labels (a label holds
/// single spaces at most), so every row's columns start and end where the
/// header's do.
pub fn assert_aligned(table: &[&str]) {
    let grid: Vec<Vec<char>> = table.iter().map(|l| l.chars().collect()).collect();
    let width = grid.iter().map(Vec::len).max().unwrap_or(0);
    let blank = |c: usize| grid.iter().all(|l| l.get(c).is_none_or(|&ch| ch == ' '));
    // Shared gaps of at least two spaces between the first and the last
    // character any line has.
    let start = (0..width).find(|&c| !blank(c)).unwrap_or(0);
    let mut gaps = 0;
    let mut run = 0;
    for c in start..width {
        if blank(c) {
            run += 1;
        } else {
            if run >= 2 {
                gaps += 1;
            }
            run = 0;
        }
    }
    let labels = table[0].split("  ").filter(|l| !l.trim().is_empty()).count();
    assert_eq!(
        gaps + 1,
        labels,
        "the rows do not line up with the {labels} columns of the header:\n{}",
        table.join("\n")
    );
}

/// Rows of a CSV as maps from column name to cell.
pub fn csv_rows(text: &str) -> Vec<std::collections::HashMap<String, String>> {
    let mut lines = text.lines();
    let head: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines
        .map(|l| head.iter().cloned().zip(l.split(',').map(String::from)).collect())
        .collect()
}

/// A traced run: the run line, the events, and the CSV it wrote.
pub struct Run {
    pub head: Value,
    pub events: Vec<Value>,
    pub csv: String,
}

/// Plays `args` with a JSON trace and reads each event as it comes (on
/// two cores the replay keeps up with the run instead of waiting for it);
/// then the CSV the run wrote.
pub fn streamed(args: &[&str], mut each: impl FnMut(&Value)) -> String {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let mut all = args.to_vec();
    all.extend(["--trace", "--trace-format", "json", "--out", "run.csv"]);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(&all)
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let out = std::io::BufReader::with_capacity(1 << 20, child.stdout.take().unwrap());
    for line in out.lines() {
        let line = line.unwrap();
        let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        each(&v);
    }
    assert!(child.wait().unwrap().success());
    std::fs::read_to_string(dir.path().join("run.csv")).unwrap()
}

/// Plays `args` with a JSON trace and the CSV written beside it.
pub fn traced(args: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let mut all = args.to_vec();
    all.extend(["--trace", "--trace-format", "json", "--out", "run.csv"]);
    let text = ok(&sim(&all, dir.path()));
    let mut events: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    let head = events.remove(0);
    assert_eq!(head["event"], "run", "{head}");
    let csv = std::fs::read_to_string(dir.path().join("run.csv")).unwrap();
    Run { head, events, csv }
}

/// Checks a seat's row of a run's CSV against the wins a replay counted:
/// the columns every game shares (seat, players, games, wins, win rate and
/// its interval; the policy is checked by each replay).
pub fn assert_seat_wins(
    row: &std::collections::HashMap<String, String>,
    seat: usize,
    players: usize,
    games: u64,
    wins: u64,
) {
    let want = sim::engine::columns::SeatWins::new(seat, "", players, games, wins).csv_fields();
    for (k, col) in [
        "seat",
        "policy",
        "players",
        "games",
        "wins",
        "win_rate",
        "win_rate_ci95_low",
        "win_rate_ci95_high",
    ]
    .iter()
    .enumerate()
    {
        if *col != "policy" {
            assert_eq!(row[*col], want[k], "seat {seat} {col}");
        }
    }
}

/// The options that keep a tournament or a sweep quiet, on one thread with
/// seed 1 (a plain run takes all but the first: `--no-charts` is theirs
/// only).
pub const QUIET: [&str; 7] = [
    "--no-charts",
    "--no-report",
    "--no-progress",
    "--threads",
    "1",
    "--seed",
    "1",
];

/// Runs `sim` for `games` games from seed 12 on 1 and on 2 threads,
/// asserts the same statistics (`what` names the case) and returns them.
pub fn same_on_one_and_two_threads<S: Simulation>(sim: &S, games: u64, what: &str) -> S::Acc
where
    S::Acc: PartialEq + std::fmt::Debug,
{
    let at = |threads| {
        let cfg = RunConfig {
            games,
            seed: 12,
            threads,
            progress: false,
        };
        run(sim, &cfg).unwrap()
    };
    let one = at(1);
    assert_eq!(one, at(2), "{what}");
    one
}

/// `ismcts:N` of `game` works in every kind of run: a plain run (seat 0
/// `ismcts:1`, the other `opponent`, 1,100 two-player games: more than one
/// batch) gives the same CSV bytes as its two shards merged; a tournament
/// against `opponent` and a sweep of N name it; a bad N exits with 2 and
/// the shared message.
pub fn ismcts_in_every_kind_of_run(game: &str, opponent: &str) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let lineup = format!("ismcts:1,{opponent}");
    let base = [
        game,
        "--players",
        "2",
        "--policy",
        &lineup,
        "--games",
        "1100",
        "--seed",
        "3",
        "--no-progress",
    ];
    let whole = ok(&sim(&[&base[..], &["--out", "whole.csv"]].concat(), d));
    assert!(whole.contains("ismcts:1"), "{whole}");
    for k in ["1/2", "2/2"] {
        let state = format!("part-{}.json", &k[..1]);
        ok(&sim(
            &[
                &base[..],
                &["--out", "merged.csv", "--shard", k, "--state", &state],
            ]
            .concat(),
            d,
        ));
    }
    ok(&sim_dated(&["merge", "part-2.json", "part-1.json"], d));
    assert_eq!(
        std::fs::read(d.join("merged.csv")).unwrap(),
        std::fs::read(d.join("whole.csv")).unwrap(),
        "{game}: the merged shards differ from the whole run"
    );
    let quiet = QUIET;
    let pair = format!("ismcts:3,{opponent}");
    let t = [
        &[
            "tournament",
            game,
            "--players",
            "2",
            "--policies",
            &pair,
            "--games",
            "4",
        ][..],
        &quiet,
    ]
    .concat();
    assert!(ok(&sim(&t, d)).contains("ismcts:3"));
    let s = [
        &[
            "sweep",
            game,
            "--players",
            "2",
            "--policy",
            "ismcts:{1,2}",
            "--games",
            "4",
        ][..],
        &quiet,
    ]
    .concat();
    assert!(ok(&sim(&s, d)).contains("ismcts:2"));
    let bad = sim(&[game, "--policy", "ismcts:abc"], d);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("'ismcts:abc': N must be a whole number from 1 to 1000000"),
        "{}",
        stderr(&bad)
    );
}

/// Runs `sim` in `dir` and asserts it failed with `code` and a one-line
/// message naming each of `fragments` (clap adds a pointer to --help
/// below it); returns the message.
pub fn fails_with(code: i32, args: &[&str], dir: &Path, fragments: &[&str]) -> String {
    let o = sim(args, dir);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
    let first = err.lines().next().unwrap_or("");
    for f in fragments {
        assert!(
            first.contains(f),
            "{args:?}: the message's line lacks {f:?}:\n{err}"
        );
    }
    err
}

/// Writes `text` to `name` in `dir` and returns its path as text.
pub fn file(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// The JSON trace of `sim ARGS` as text (its CSV left in a folder that
/// goes away).
pub fn trace_text(args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let mut all = args.to_vec();
    all.extend([
        "--trace",
        "--trace-format",
        "json",
        "--no-report",
        "--out",
        "run.csv",
    ]);
    ok(&sim(&all, dir.path()))
}

/// `sim args...` in `dir` with `input` on standard input (a `sim play`
/// script); the game may end before it reads every line.
pub fn piped(args: &[&str], input: &str, dir: &Path) -> Output {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run sim");
    let mut stdin = child.stdin.take().unwrap();
    // A closed pipe is fine: the game ended first.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().expect("sim ends")
}

/// A saved `sim play` trace: its run line and its events, each a whole
/// JSON line.
pub fn saved_play(path: &Path) -> (Value, Vec<Value>) {
    let text = std::fs::read_to_string(path).expect("the trace is saved");
    assert!(text.ends_with('\n'), "the trace ends with a whole line");
    let mut lines = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("JSON lines"));
    let head = lines.next().expect("a run line");
    (head, lines.collect())
}

/// `sim play GAME` refuses each set of options with exit 2 and the
/// message given, before the first question (`asked`) and leaving no
/// file behind; `input` is a move it would read.
pub fn play_refuses(game: &str, input: &str, asked: &str, cases: Vec<(Vec<&str>, &str)>) {
    let dir = tempfile::tempdir().unwrap();
    for (args, says) in cases {
        let mut all = vec!["play", game];
        all.extend(args);
        let o = piped(&all, input, dir.path());
        assert_eq!(o.status.code(), Some(2), "{all:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{all:?}: {}", stderr(&o));
        assert!(!stdout(&o).contains(asked), "{all:?}");
    }
    assert!(files_in(dir.path()).is_empty(), "nothing left behind");
}
