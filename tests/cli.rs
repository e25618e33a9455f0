//! The `sim` binary: output files, reproducibility and bad input.

use std::path::Path;

use crate::common;
use common::*;

#[test]
fn same_seed_gives_identical_csv_bytes_for_any_threads() {
    let dir = tempfile::tempdir().unwrap();
    let mut outputs = Vec::new();
    for threads in ["1", "2", "8"] {
        let out = format!("t{threads}.csv");
        let o = sim(
            &[
                "flip7",
                "--policy",
                "stay-at-25",
                "--games",
                "20K",
                "--seed",
                "42",
                "--threads",
                threads,
                "--out",
                &out,
            ],
            dir.path(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        outputs.push(std::fs::read(dir.path().join(&out)).unwrap());
    }
    assert!(outputs.iter().all(|b| b == &outputs[0]));
    let text = String::from_utf8(outputs[0].clone()).unwrap();
    assert!(
        text.starts_with("seat,policy,players,games,wins,win_rate,win_rate_ci95_low,win_rate_ci95_high,")
    );
    assert_eq!(text.lines().count(), 5);
}

#[test]
fn default_output_goes_to_results_with_a_descriptive_name() {
    let dir = tempfile::tempdir().unwrap();
    let o = sim(
        &["flip7", "--games", "2K", "--seed", "9", "--players", "3"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        files_in(&dir.path().join("results")),
        vec!["flip7_stay-at-28_3p_2K_seed9.csv"]
    );
    let stdout = String::from_utf8(o.stdout).unwrap();
    assert!(stdout.contains("seed 9"), "{stdout}");
    assert!(
        stdout.contains("CSV: results/flip7_stay-at-28_3p_2K_seed9.csv"),
        "{stdout}"
    );
}

#[test]
fn seed_is_printed_when_random_and_repeats_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let o = sim(&["flip7", "--games", "3K", "--out", "a.csv"], dir.path());
    assert!(o.status.success());
    let stdout = String::from_utf8(o.stdout).unwrap();
    let seed = stdout
        .split("seed ")
        .nth(1)
        .unwrap()
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap();
    let o = sim(
        &["flip7", "--games", "3K", "--seed", seed, "--out", "b.csv"],
        dir.path(),
    );
    assert!(o.status.success());
    assert_eq!(
        std::fs::read(dir.path().join("a.csv")).unwrap(),
        std::fs::read(dir.path().join("b.csv")).unwrap()
    );
}

#[test]
fn out_dash_writes_csv_to_stdout_and_summary_to_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let o = sim(
        &["flip7", "--games", "1K", "--seed", "1", "--out", "-"],
        dir.path(),
    );
    assert!(o.status.success());
    let stdout = String::from_utf8(o.stdout.clone()).unwrap();
    assert!(stdout.starts_with("seat,policy,"));
    assert_eq!(stdout.lines().count(), 5);
    assert!(stderr(&o).contains("seed 1"));
    assert!(files_in(dir.path()).is_empty());
}

#[test]
fn trace_plays_the_same_games_as_the_statistics() {
    let dir = tempfile::tempdir().unwrap();
    let o = sim(
        &[
            "flip7",
            "--games",
            "5",
            "--seed",
            "3",
            "--trace",
            "--out",
            "traced.csv",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let trace = String::from_utf8(o.stdout).unwrap();
    let o2 = sim(
        &["flip7", "--games", "5", "--seed", "3", "--out", "plain.csv"],
        dir.path(),
    );
    assert!(o2.status.success());
    let csv = std::fs::read_to_string(dir.path().join("plain.csv")).unwrap();
    assert_eq!(
        csv,
        std::fs::read_to_string(dir.path().join("traced.csv")).unwrap()
    );
    // Wins in the trace agree with the CSV.
    for (seat, line) in csv.lines().skip(1).enumerate() {
        let wins: usize = line.split(',').nth(4).unwrap().parse().unwrap();
        let traced = trace.matches(&format!(": seat {seat} wins with")).count();
        assert_eq!(traced, wins, "seat {seat}\n{trace}");
    }
    assert_eq!(
        trace
            .lines()
            .filter(|l| l.starts_with("game ") && l.ends_with(" players"))
            .count(),
        5
    );
}

#[test]
fn unknown_policy_is_refused() {
    refused(&["flip7", "--policy", "yolo"], &["--policy", "yolo", "stay-at-N"]);
}

#[test]
fn wrong_number_of_policies_is_refused() {
    refused(
        &["flip7", "--policy", "stay-at-20,stay-at-30", "--players", "3"],
        &["--policy", "2", "--players", "3"],
    );
}

#[test]
fn zero_games_is_refused() {
    refused(
        &["flip7", "--games", "0"],
        &["--games", "'0'", "at least 1", "10M"],
    );
}

#[test]
fn bad_games_suffix_is_refused() {
    refused(&["flip7", "--games", "10X"], &["--games", "'10X'", "K, M or B"]);
}

#[test]
fn zero_players_is_refused() {
    refused(
        &["flip7", "--players", "0"],
        &["--players", "'0'", "from 1 to 36"],
    );
}

#[test]
fn unknown_without_kind_is_refused() {
    refused(
        &["flip7", "--without", "jokers"],
        &["--without", "jokers", "flip-three", "modifiers"],
    );
}

#[test]
fn unknown_game_is_refused() {
    refused(&["flip8"], &["flip8", "flip7"]);
}

#[test]
fn unwritable_out_is_refused_before_playing() {
    refused(
        &["flip7", "--games", "1B", "--out", "/proc/no/such/dir/x.csv"],
        &["--out", "/proc/no/such/dir/x.csv"],
    );
    let dir = tempfile::tempdir().unwrap();
    let o = sim(&["flip7", "--games", "1K", "--out", "."], dir.path());
    assert!(!o.status.success());
    assert!(stderr(&o).contains("is a folder"));
}

#[test]
fn named_strategies_resolve_from_the_strategies_folder() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("strategies")).unwrap();
    std::fs::write(
        dir.path().join("strategies/flip7-mine.toml"),
        "game = \"flip7\"\npolicy = \"stay-at-21\"\ndescription = \"mine\"\n",
    )
    .unwrap();
    let o = sim(
        &[
            "flip7",
            "--policy",
            "mine,stay-at-30",
            "--players",
            "2",
            "--games",
            "2K",
            "--seed",
            "4",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let stdout = String::from_utf8(o.stdout).unwrap();
    assert!(
        stdout.contains("policy mine = stay-at-21 (from strategies/flip7-mine.toml)"),
        "{stdout}"
    );
    let csv_name = "results/flip7_mine+stay-at-30_2p_2K_seed4.csv";
    let csv = std::fs::read_to_string(dir.path().join(csv_name)).unwrap();
    assert!(csv.lines().nth(1).unwrap().starts_with("0,mine,2,2000,"), "{csv}");
    // The same strategy as a path.
    let o = sim(
        &[
            "flip7",
            "--policy",
            "strategies/flip7-mine.toml",
            "--games",
            "1K",
            "--out",
            "-",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn shipped_flip7_strategies_all_load() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = 0;
    for entry in std::fs::read_dir(root.join("strategies")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let Some(stem) = name.strip_prefix("flip7-").and_then(|n| n.strip_suffix(".toml")) else {
            continue;
        };
        let text = std::fs::read_to_string(root.join("strategies").join(&name)).unwrap();
        if text.lines().any(|l| l.starts_with("policy") && l.contains(',')) {
            // A tournament line-up (sim tournament --lineup), not one policy.
            let out = tempfile::tempdir().unwrap();
            let out = out.path().to_str().unwrap();
            let args = [
                "tournament",
                "flip7",
                "--lineup",
                stem,
                // A few deals in every arrangement: the line-up loads and
                // plays (1680 arrangements of 8 entrants at 4 seats).
                "--games",
                "10",
                "--seed",
                "1",
                "--out",
                out,
            ];
            let o = sim(&args, root);
            assert!(o.status.success(), "{name}: {}", stderr(&o));
            continue;
        }
        found += 1;
        let o = sim(
            // A few games: the strategy loads and plays (the searching
            // ones play a few dozen games a second).
            &[
                "flip7", "--policy", stem, "--games", "20", "--seed", "1", "--out", "-",
            ],
            root,
        );
        assert!(o.status.success(), "{name}: {}", stderr(&o));
    }
    assert!(found >= 5, "only {found} flip7 strategies shipped");
}

#[test]
fn malformed_strategy_file_is_refused_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("strategies")).unwrap();
    std::fs::write(
        dir.path().join("strategies/flip7-bad.toml"),
        "game = \"flip7\"\npolicy = stay-at-20\n",
    )
    .unwrap();
    let o = sim(&["flip7", "--policy", "bad", "--games", "1K"], dir.path());
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("--policy") && err.contains("strategies/flip7-bad.toml:2:") && err.contains("expected"),
        "{err}"
    );
    assert!(!dir.path().join("results").exists());
    std::fs::write(
        dir.path().join("strategies/flip7-bad.toml"),
        "game = \"flip7\"\npolicy = \"stay-at-x\"\n",
    )
    .unwrap();
    let o = sim(&["flip7", "--policy", "bad", "--games", "1K"], dir.path());
    assert!(!o.status.success());
    assert!(stderr(&o).contains("stay-at-x"), "{}", stderr(&o));
}

#[test]
fn solve_writes_the_exact_solo_values() {
    let dir = tempfile::tempdir().unwrap();
    let o = sim(
        &[
            "flip7",
            "solve",
            "--without",
            "actions,modifiers",
            "--out",
            "exact",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let stdout = String::from_utf8(o.stdout).unwrap();
    assert!(
        stdout.contains("optimal rule 18.5652; best threshold stay-at-23 18.5212"),
        "{stdout}"
    );
    let t = std::fs::read_to_string(dir.path().join("exact/thresholds.csv")).unwrap();
    assert!(
        t.starts_with("rule,expected_round_score,seed,sim_version\noptimal,18.5652"),
        "{t}"
    );
    // Exact: no seed plays into the values, the seed cell is empty.
    assert!(t.lines().nth(1).unwrap().contains(",,0.1.0 (commit "), "{t}");
    assert!(t.contains("\nstay-at-25,18.4061"), "{t}");
    assert_eq!(t.lines().count(), 1 + 1 + 61);
    let d = std::fs::read_to_string(dir.path().join("exact/decisions.csv")).unwrap();
    assert!(
        d.lines().any(|l| l.starts_with("12,1,12,hit,")),
        "holding a lone 12 one hits"
    );
    // Every set of 1 to 6 different numbers has a row.
    let sets: usize = (1..=6)
        .map(|k| (0..k).fold(1, |acc, i| acc * (13 - i) / (i + 1)))
        .sum();
    assert_eq!(d.lines().count(), 1 + sets);
}

/// With modifiers in the deck: the solver's stay-at-25 value agrees with a
/// simulation of the same solo round, and the optimum beats every threshold.
#[test]
fn solve_handles_modifiers_and_agrees_with_simulation() {
    let dir = tempfile::tempdir().unwrap();
    let o = sim(
        &["flip7", "solve", "--without", "actions", "--out", "exact"],
        dir.path(),
    );
    let out = ok(&o);
    assert!(out.contains("deck without actions: optimal rule"), "{out}");
    let t = std::fs::read_to_string(dir.path().join("exact/thresholds.csv")).unwrap();
    let value = |rule: &str| -> f64 {
        let line = t.lines().find(|l| l.starts_with(&format!("{rule},"))).unwrap();
        line.split(',').nth(1).unwrap().parse().unwrap()
    };
    let optimal = value("optimal");
    for n in 0..=60 {
        assert!(value(&format!("stay-at-{n}")) <= optimal + 1e-9, "stay-at-{n}");
    }
    let args = [
        "flip7",
        "--players",
        "1",
        "--single-round",
        "--without",
        "actions",
        "--policy",
        "stay-at-25",
        "--games",
        "1M",
        "--seed",
        "8",
        "--out",
        "-",
    ];
    let csv = ok(&sim(&args, dir.path()));
    let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    let (mean, se): (f64, f64) = (row[11].parse().unwrap(), row[12].parse().unwrap());
    let exact = value("stay-at-25");
    assert!(
        (mean - exact).abs() < 4.0 * se,
        "simulated {mean} ± {se}, exact {exact}"
    );
}

#[test]
fn list_policies_names_every_rule_choice_and_strategy() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = ok(&sim(&["flip7", "--list-policies"], root));
    for word in [
        "stay-at-N",
        "cards-N",
        "bust-prob:P",
        "ev",
        "endgame:N",
        "optimal-round",
        "rollout:K",
        "max-win:MODEL",
        "+freeze:CHOICE",
        "+flip-three:CHOICE",
        "+second-chance:CHOICE",
        "self-when-safe",
        "most-banked",
        "fewest-cards",
        "balanced",
        "optimal",
        "line-up:",
    ] {
        assert!(out.contains(word), "--list-policies lacks {word}:\n{out}");
    }
    assert!(!out.contains("cannot be used"), "{out}");
}

#[test]
fn unknown_action_card_choice_is_refused() {
    refused(
        &["flip7", "--policy", "ev+freeze:nobody"],
        &[
            "--policy",
            "nobody",
            "leader, most-cards, least-banked, self-when-safe",
        ],
    );
    refused(
        &["flip7", "--policy", "ev+colour:red"],
        &["--policy", "colour", "freeze, flip-three, second-chance"],
    );
    refused(
        &["flip7", "--policy", "rollout:0"],
        &["--policy", "rollout:0", "K must be"],
    );
}

/// `rollout:K` draws its own random numbers, from the batch's stream: a run
/// still repeats to the byte whatever the number of threads.
#[test]
fn rollout_runs_repeat_exactly_for_any_threads() {
    let dir = tempfile::tempdir().unwrap();
    let run = |threads: &str| {
        let args = [
            "flip7",
            "--policy",
            "rollout:2+flip-three:self-when-safe,stay-at-25",
            "--players",
            "2",
            "--games",
            "1500",
            "--seed",
            "3",
            "--threads",
            threads,
            "--out",
            "-",
        ];
        ok(&sim(&args, dir.path()))
    };
    let one = run("1");
    assert!(one.contains("rollout:2+flip-three:self-when-safe"), "{one}");
    assert_eq!(one, run("2"));
}

/// `mean_cards_per_round` counts every card flipped from the deck for the
/// seat, even in rounds the cycle guard ends, where one seat can flip
/// hundreds of cards (this run has such rounds): the CSV agrees with the
/// flips of the JSON trace of the same run, seat by seat.
#[test]
fn mean_cards_per_round_counts_every_flip_at_36_players_seed_18() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "flip7",
        "--players",
        "36",
        "--games",
        "200",
        "--seed",
        "18",
        "--policy",
        "cards-7",
        "--trace",
        "--trace-format",
        "json",
        "--out",
        "run.csv",
    ];
    let trace = ok(&sim(&args, dir.path()));
    let mut flips = [0u64; 36];
    let mut this_round = [0u64; 36];
    let mut most_in_a_round = 0;
    let mut rounds = 0u64;
    for line in trace.lines() {
        if line.contains(r#""event":"round""#) {
            rounds += 1;
            this_round = [0; 36];
        } else if line.contains(r#""event":"flip""#) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let s = v["seat"].as_u64().unwrap() as usize;
            flips[s] += 1;
            this_round[s] += 1;
            most_in_a_round = most_in_a_round.max(this_round[s]);
        }
    }
    assert!(
        most_in_a_round > 255,
        "no seat flipped more than 255 cards in a round"
    );
    let csv = std::fs::read_to_string(dir.path().join("run.csv")).unwrap();
    for row in csv_rows(&csv) {
        let s: usize = row["seat"].parse().unwrap();
        assert_eq!(row["rounds"].parse::<u64>().unwrap(), rounds);
        let expected = flips[s] as f64 / rounds as f64;
        let got: f64 = row["mean_cards_per_round"].parse().unwrap();
        assert!(
            (got - expected).abs() < 1e-6,
            "seat {s}: CSV {got}, trace {expected}"
        );
    }
}

/// `sim tournament GAME --help` gives the players a tournament takes: at
/// least 2, where the game alone may allow 1.
#[test]
fn tournament_help_gives_the_tournament_player_range() {
    use sim::engine::game::{Game, Visitor};
    struct Ranges(Vec<(&'static str, usize, usize)>);
    impl Visitor for Ranges {
        fn visit<G: Game>(&mut self) {
            self.0.push((G::NAME, *G::PLAYERS.start(), *G::PLAYERS.end()));
        }
    }
    let mut r = Ranges(Vec::new());
    sim::games::each(&mut r);
    let dir = tempfile::tempdir().unwrap();
    for (game, start, end) in r.0 {
        let help = ok(&sim(&["tournament", game, "--help"], dir.path()));
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with("--players"))
            .unwrap_or_else(|| panic!("{game}: no --players in:\n{help}"));
        assert!(
            line.contains(&format!("{} to {end}", start.max(2))),
            "{game}: {line}"
        );
        assert!(!line.contains(&format!("1 to {end}")), "{game}: {line}");
        let own = ok(&sim(&[game, "--help"], dir.path()));
        assert!(own.contains(&format!("{start} to {end}")), "{game}: {own}");
    }
    refused(
        &[
            "tournament",
            "flip7",
            "--policies",
            "ev,stay-at-20",
            "--players",
            "1",
        ],
        &["--players 1", "at least 2"],
    );
}

/// Every help text stands on its own: none sends the reader to a file of
/// the repository, which an installed `sim` does not have.
#[test]
fn no_help_text_points_to_a_docs_file() {
    let mut stack = vec![sim::cli::command()];
    let mut seen = 0;
    while let Some(mut cmd) = stack.pop() {
        cmd.build();
        let help = cmd.render_long_help().to_string();
        for bad in ["docs/", ".md", "README"] {
            assert!(!help.contains(bad), "{}: {bad} in:\n{help}", cmd.get_name());
        }
        stack.extend(cmd.get_subcommands().cloned());
        seen += 1;
    }
    assert!(seen > 12, "only {seen} commands walked");
}
