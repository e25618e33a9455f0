//! Every output says which run it is of: the seed as an exact JSON string
//! (seeds are drawn above 2^53, where JSON tools round numbers), the
//! `seed` and `sim_version` columns that end every CSV row, and the "Run"
//! sheet of a workbook.

use crate::common;
use common::*;

use serde_json::Value;
use sim::engine::version::SIM_VERSION;

/// Above 2^53: a JSON number this large comes back wrong from most tools.
const SEED: &str = "17797063525853281234";

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

#[test]
fn every_json_output_holds_a_seed_above_2_53_as_its_exact_string() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let exact = format!("\"seed\": \"{SEED}\"");
    let run = ok(&sim(
        &[
            "flip7", "--games", "2000", "--seed", SEED, "--json", "--out", "a.csv",
        ],
        d,
    ));
    assert!(run.contains(&exact), "{run}");
    assert_eq!(json(&run)["seed"], SEED);
    assert_eq!(json(&run)["sim_version"], SIM_VERSION);
    let tournament = ok(&sim(
        &[
            "tournament",
            "flip7",
            "--policies",
            "ev,stay-at-20",
            "--players",
            "2",
            "--games",
            "500",
            "--seed",
            SEED,
            "--json",
            "--no-charts",
            "--out",
            "t",
        ],
        d,
    ));
    assert_eq!(json(&tournament)["seed"], SEED, "{tournament}");
    let sweep = ok(&sim(
        &[
            "sweep",
            "flip7",
            "--policy",
            "stay-at-{20,25}",
            "--games",
            "500",
            "--seed",
            SEED,
            "--json",
            "--no-charts",
            "--out",
            "s",
        ],
        d,
    ));
    assert_eq!(json(&sweep)["seed"], SEED, "{sweep}");
    // The JSON trace: its first line describes the run.
    let trace = ok(&sim(
        &[
            "flip7",
            "--games",
            "2",
            "--seed",
            SEED,
            "--trace",
            "--trace-format",
            "json",
            "--out",
            "b.csv",
        ],
        d,
    ));
    let head = json(trace.lines().next().unwrap());
    assert_eq!(head["event"], "run", "{head}");
    assert_eq!(head["seed"], SEED, "{head}");
    assert_eq!(head["games"], 2, "{head}");
    // A state file.
    ok(&sim(
        &[
            "flip7", "--games", "2000", "--seed", SEED, "--shard", "1/2", "--state", "s.json",
        ],
        d,
    ));
    let state = std::fs::read_to_string(d.join("s.json")).unwrap();
    assert!(state.contains(&exact), "{state}");
    assert_eq!(json(&state)["definition"]["seed"], SEED);
}

/// The last two fields of every line of a CSV.
fn run_fields(csv: &str) -> Vec<(String, String)> {
    let mut r = csv::Reader::from_reader(csv.as_bytes());
    let header = r.headers().unwrap().clone();
    let n = header.len();
    assert_eq!(
        (&header[n - 2], &header[n - 1]),
        ("seed", "sim_version"),
        "the CSV does not end with seed,sim_version: {csv}"
    );
    r.records()
        .map(|row| {
            let row = row.unwrap();
            assert_eq!(row.len(), n, "{csv}");
            (row[n - 2].to_string(), row[n - 1].to_string())
        })
        .collect()
}

#[test]
fn every_csv_of_a_run_a_tournament_and_a_sweep_ends_with_the_seed_and_the_version() {
    use sim::engine::game::{Game, Visitor};
    struct Names(Vec<&'static str>);
    impl Visitor for Names {
        fn visit<G: Game>(&mut self) {
            self.0.push(G::NAME);
        }
    }
    let mut games = Names(Vec::new());
    sim::games::each(&mut games);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let expect = |csv: &str, seed: &str| {
        let rows = run_fields(csv);
        assert!(!rows.is_empty(), "{csv}");
        for (s, v) in rows {
            assert_eq!((s.as_str(), v.as_str()), (seed, SIM_VERSION), "{csv}");
        }
    };
    for game in games.0 {
        ok(&sim(
            &[game, "--games", "300", "--seed", SEED, "--out", "g.csv"],
            d,
        ));
        expect(&std::fs::read_to_string(d.join("g.csv")).unwrap(), SEED);
    }
    // A seed drawn at random is the one the summary prints.
    let out = ok(&sim(&["flip7", "--games", "300", "--out", "r.csv"], d));
    let seed = out.split("seed ").nth(1).unwrap().split(' ').next().unwrap();
    expect(&std::fs::read_to_string(d.join("r.csv")).unwrap(), seed);
    ok(&sim(
        &[
            "tournament",
            "flip7",
            "--policies",
            "ev,stay-at-20,stay-at-30",
            "--players",
            "2",
            "--games",
            "300",
            "--seed",
            SEED,
            "--no-charts",
            "--out",
            "t",
        ],
        d,
    ));
    for f in ["t/standings.csv", "t/pairwise.csv"] {
        expect(&std::fs::read_to_string(d.join(f)).unwrap(), SEED);
    }
    ok(&sim(
        &[
            "sweep",
            "flip7",
            "--policy",
            "stay-at-{20,25}",
            "--games",
            "300",
            "--seed",
            SEED,
            "--no-charts",
            "--out",
            "s",
        ],
        d,
    ));
    expect(&std::fs::read_to_string(d.join("s/sweep.csv")).unwrap(), SEED);
}

#[test]
fn a_workbook_has_a_run_sheet_with_its_command_seed_version_and_date() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = [
        "tournament",
        "flip7",
        "--policies",
        "ev,stay-at-20",
        "--players",
        "2",
        "--games",
        "300",
        "--seed",
        SEED,
        "--no-charts",
        "--out",
        "t",
        "--xlsx",
        "t.xlsx",
        "--threads",
        "2",
    ];
    ok(&sim_dated(&args, d));
    let run = workbook_sheet(&d.join("t.xlsx"), "Run");
    let lines: Vec<&str> = run.lines().collect();
    let value = |field: &str| {
        let at = lines
            .iter()
            .position(|l| *l == field)
            .unwrap_or_else(|| panic!("no {field}: {run}"));
        lines[at + 1]
    };
    // The run's command (not how this process took part: no --threads).
    assert_eq!(
        value("command"),
        format!(
            "sim tournament flip7 --policies ev,stay-at-20 --players 2 --games 300 --seed {SEED} \
             --no-charts --out t --xlsx t.xlsx"
        )
    );
    // Text, not a number rounded to 17797063525853282000.
    assert_eq!(value("seed"), SEED);
    assert_eq!(value("sim_version"), SIM_VERSION);
    // SOURCE_DATE_EPOCH=1700000000.
    assert_eq!(value("date"), "2023-11-14 22:13:20 UTC");
    // A sweep's workbook too.
    ok(&sim_dated(
        &[
            "sweep",
            "flip7",
            "--policy",
            "stay-at-{20,25}",
            "--games",
            "300",
            "--seed",
            "5",
            "--no-charts",
            "--out",
            "s",
            "--xlsx",
            "s.xlsx",
        ],
        d,
    ));
    assert!(workbook_sheet(&d.join("s.xlsx"), "Run").contains("2023-11-14 22:13:20 UTC"));
    // A date that is not a number of seconds is refused before playing.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_sim"))
        .args([
            "sweep",
            "flip7",
            "--policy",
            "stay-at-{20,25}",
            "--out",
            "x",
            "--xlsx",
            "x.xlsx",
        ])
        .current_dir(d)
        .env("SOURCE_DATE_EPOCH", "yesterday")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("SOURCE_DATE_EPOCH 'yesterday'"),
        "{}",
        stderr(&o)
    );
    assert!(!d.join("x").exists() && !d.join("x.xlsx").exists());
}
