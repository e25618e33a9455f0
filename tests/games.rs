//! What every registered game must do, checked for each game in the
//! registry (`sim::games::each`): a new game gets these tests by being
//! registered. Rules and policies of each game have their own files.

use std::process::Command;

use crate::common;
use common::*;

use sim::engine::columns::CORE_HEADER;
use sim::engine::game::{Game, Visitor, default_options};

/// What the tests need to know of a game.
struct Registered {
    name: &'static str,
    about: &'static str,
    default_policy: &'static str,
    players: std::ops::RangeInclusive<usize>,
    sweep: &'static str,
    default_players: usize,
    first_spec: &'static str,
    /// Whether a word parses as a policy spec of the game.
    parses: fn(&str) -> bool,
    /// Whether a word resolves in a strategy library (a spec, a strategy
    /// name or a file) for the game.
    resolves: fn(&sim::engine::strategies::Library, &str) -> bool,
}

#[derive(Default)]
struct Collect(Vec<Registered>);

impl Visitor for Collect {
    fn visit<G: Game>(&mut self) {
        self.0.push(Registered {
            name: G::NAME,
            about: G::ABOUT,
            default_policy: G::DEFAULT_POLICY,
            players: G::PLAYERS,
            sweep: G::SWEEP_EXAMPLE,
            default_players: G::players(&default_options::<G>()),
            first_spec: G::CATALOGUE[0].1[0].spec,
            parses: |w| G::parse_policy(w).is_ok(),
            resolves: |lib, w| lib.resolve(G::NAME, w, G::parse_policy).is_ok(),
        });
    }
}

fn games() -> Vec<Registered> {
    let mut c = Collect::default();
    sim::games::each(&mut c);
    assert!(c.0.len() >= 2, "the registry lists the games");
    c.0
}

#[test]
fn every_game_has_a_command_a_tournament_and_a_sweep() {
    let dir = tempfile::tempdir().unwrap();
    let help = ok(&sim(&["--help"], dir.path()));
    for g in games() {
        assert!(
            help.contains(g.about),
            "sim --help lacks {}'s about:\n{help}",
            g.name
        );
        let version = ok(&sim(&["tournament", g.name, "--version"], dir.path()));
        assert!(
            version.contains(env!("CARGO_PKG_VERSION")) && version.contains("(commit "),
            "{version}"
        );
        for cmd in [vec![g.name], vec!["tournament", g.name], vec!["sweep", g.name]] {
            let mut args = cmd.clone();
            args.push("--help");
            let text = ok(&sim(&args, dir.path()));
            assert!(
                text.contains("Examples:") || text.contains("Example:"),
                "{args:?}"
            );
        }
        assert!(g.players.contains(&g.default_players), "{}", g.name);
    }
}

#[test]
fn same_seed_gives_the_same_bytes_for_one_and_two_threads() {
    for g in games() {
        let dir = tempfile::tempdir().unwrap();
        for t in ["1", "2"] {
            let out = format!("t{t}.csv");
            ok(&sim(
                &[
                    g.name,
                    "--games",
                    "2500",
                    "--seed",
                    "17",
                    "--threads",
                    t,
                    "--out",
                    &out,
                ],
                dir.path(),
            ));
        }
        let one = std::fs::read(dir.path().join("t1.csv")).unwrap();
        let two = std::fs::read(dir.path().join("t2.csv")).unwrap();
        assert_eq!(one, two, "{}", g.name);
        let text = String::from_utf8(one).unwrap();
        let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
        assert_eq!(header[..CORE_HEADER.len()], CORE_HEADER, "{}", g.name);
        assert_eq!(text.lines().count(), 1 + g.default_players, "{}", g.name);
        for line in text.lines().skip(1) {
            assert_eq!(line.split(',').count(), header.len(), "{}: {line}", g.name);
            assert!(
                !line.contains("NaN") && !line.contains("inf"),
                "{}: {line}",
                g.name
            );
        }
    }
}

#[test]
fn out_dash_writes_the_csv_to_stdout_and_the_summary_to_stderr() {
    for g in games() {
        let dir = tempfile::tempdir().unwrap();
        let o = sim(
            &[g.name, "--games", "300", "--seed", "3", "--out", "-"],
            dir.path(),
        );
        let csv = ok(&o);
        assert!(csv.starts_with("seat,policy,"), "{}: {csv}", g.name);
        assert!(stderr(&o).contains(&format!("sim {}:", g.name)), "{}", g.name);
        assert!(files_in(dir.path()).is_empty(), "{}: wrote files", g.name);
    }
}

#[test]
fn the_default_policy_is_named_in_the_summary_and_the_csv() {
    for g in games() {
        let dir = tempfile::tempdir().unwrap();
        let text = ok(&sim(
            &[g.name, "--games", "200", "--seed", "4", "--out", "x.csv"],
            dir.path(),
        ));
        assert!(text.contains(g.default_policy), "{}: {text}", g.name);
        assert!(text.contains("1 thread,") || text.contains("threads,"), "{text}");
        let csv = std::fs::read_to_string(dir.path().join("x.csv")).unwrap();
        assert!(
            csv.lines().nth(1).unwrap().contains(g.default_policy),
            "{}",
            g.name
        );
    }
}

#[test]
fn the_trace_numbers_every_game() {
    for g in games() {
        let dir = tempfile::tempdir().unwrap();
        let text = ok(&sim(
            &[g.name, "--games", "3", "--seed", "5", "--trace", "--out", "x.csv"],
            dir.path(),
        ));
        for n in 0..3 {
            assert!(
                text.contains(&format!("game {n}: ")),
                "{}: game {n} missing",
                g.name
            );
        }
        assert!(!text.contains("game 3: "), "{}", g.name);
    }
}

/// A trace whose reader goes away ends the trace quietly, not the run:
/// the rest is played untraced and the CSV written.
#[test]
fn a_closed_trace_pipe_ends_the_trace_quietly_and_the_csv_is_written() {
    for g in games() {
        let dir = tempfile::tempdir().unwrap();
        let args = [
            g.name, "--games", "2000", "--seed", "6", "--trace", "--out", "x.csv",
        ];
        into_closed_pipe(&args, dir.path(), 64);
        assert_eq!(files_in(dir.path()), ["x.csv"], "{}", g.name);
    }
}

#[test]
fn list_policies_names_the_spec_forms_and_the_shipped_strategies() {
    let root = env!("CARGO_MANIFEST_DIR");
    for g in games() {
        let text = ok(&sim(&[g.name, "--list-policies"], std::path::Path::new(root)));
        assert!(text.contains(g.first_spec), "{}: {text}", g.name);
        assert!(
            text.contains(&format!("strategies/{}-NAME.toml", g.name)),
            "{}",
            g.name
        );
        assert!(!text.contains("cannot be used"), "{}: {text}", g.name);
    }
}

#[test]
fn bad_input_is_refused_naming_the_flag_the_value_and_what_is_accepted() {
    for g in games() {
        let too_many = (g.players.end() + 1).to_string();
        refused(&[g.name, "--games", "0"], &["--games", "'0'", "at least 1"]);
        refused(&[g.name, "--players", &too_many], &["--players", &too_many]);
        refused(
            &[g.name, "--policy", "no-such-policy"],
            &["--policy", "no-such-policy"],
        );
        refused(&[g.name, "--seed", "abc"], &["--seed", "abc"]);
        refused(&[g.name, "--no-such-flag"], &["--no-such-flag"]);
        refused(
            &["tournament", g.name, "--policies", "no-such-policy,x"],
            &["--policies", "no-such-policy"],
        );
        refused(&["sweep", g.name, "--policy", "x-{1..}"], &["--policy"]);
    }
}

fn read(path: &std::path::Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_short_tournament_and_sweep_run_for_every_game_and_repeat_exactly() {
    for g in games() {
        let dir = tempfile::tempdir().unwrap();
        let players = (*g.players.start()).max(2).to_string();
        let entrants = format!("{0},{0}", g.default_policy);
        for t in ["1", "2"] {
            let out = format!("t{t}");
            ok(&sim(
                &[
                    "tournament",
                    g.name,
                    "--policies",
                    &entrants,
                    "--players",
                    &players,
                    "--games",
                    "1500",
                    "--seed",
                    "8",
                    "--threads",
                    t,
                    "--no-charts",
                    "--out",
                    &out,
                ],
                dir.path(),
            ));
            let out = format!("s{t}");
            ok(&sim(
                &[
                    "sweep",
                    g.name,
                    "--policy",
                    g.sweep,
                    "--games",
                    "1200",
                    "--seed",
                    "9",
                    "--threads",
                    t,
                    "--no-charts",
                    "--out",
                    &out,
                ],
                dir.path(),
            ));
        }
        for f in ["t1/standings.csv", "t1/pairwise.csv", "s1/sweep.csv"] {
            let other = f.replacen('1', "2", 1);
            assert_eq!(
                read(&dir.path().join(f)),
                read(&dir.path().join(&other)),
                "{}: {f}",
                g.name
            );
        }
        let standings = read(&dir.path().join("t1/standings.csv"));
        assert_eq!(standings.lines().count(), 3, "{}: {standings}", g.name);
        assert!(
            standings.contains(&format!("{}#2", g.default_policy)),
            "{}",
            g.name
        );
        let sweep = read(&dir.path().join("s1/sweep.csv"));
        assert!(sweep.lines().count() >= 3, "{}: {sweep}", g.name);
    }
}

/// The shipped strategies are built into the binary: they work from any
/// folder; a folder given by --strategies or SIM_STRATEGIES adds to them
/// and overrides them by name, and --list-policies says where each came
/// from.
#[test]
fn strategies_work_from_any_folder_and_folders_override_them() {
    for g in games() {
        let empty = tempfile::tempdir().unwrap();
        let listed = ok(&sim(&[g.name, "--list-policies"], empty.path()));
        let built_in: Vec<&str> = listed
            .lines()
            .zip(listed.lines().skip(2))
            .filter(|(_, origin)| origin.contains("(built in: strategies/"))
            .map(|(line, _)| line.split_whitespace().next().unwrap())
            // A name that is also a spec (`endgame`) is read as the spec.
            .filter(|name| !(g.parses)(name))
            .collect();
        assert!(
            !built_in.is_empty(),
            "{}: no built-in strategy listed:\n{listed}",
            g.name
        );
        for name in &built_in {
            let line_up = listed.lines().any(|l| {
                let mut words = l.split_whitespace();
                words.next() == Some(name) && words.next() == Some("line-up:")
            });
            if line_up {
                continue;
            }
            let text = ok(&sim(
                &[
                    g.name, "--policy", name, "--games", "50", "--seed", "1", "--out", "x.csv",
                ],
                empty.path(),
            ));
            assert!(
                text.contains(&format!("(built in: strategies/{}-{name}.toml)", g.name)),
                "{}: {text}",
                g.name
            );
        }
        // A folder of one's own overrides a built-in name and adds a new one.
        let mine = tempfile::tempdir().unwrap();
        let name = built_in[0];
        let file = |n: &str| mine.path().join(format!("{}-{n}.toml", g.name));
        let body = format!("game = \"{}\"\npolicy = \"{}\"\n", g.name, g.default_policy);
        std::fs::write(file(name), &body).unwrap();
        std::fs::write(file("my-own"), &body).unwrap();
        let dir = mine.path().to_str().unwrap();
        let listed = ok(&sim(
            &[g.name, "--list-policies", "--strategies", dir],
            empty.path(),
        ));
        assert!(listed.contains("my-own"), "{}: {listed}", g.name);
        let text = ok(&sim(
            &[
                g.name,
                "--policy",
                name,
                "--strategies",
                dir,
                "--games",
                "50",
                "--seed",
                "1",
                "--out",
                "x.csv",
            ],
            empty.path(),
        ));
        assert!(
            text.contains(&format!("(from {dir}/{}-{name}.toml)", g.name)),
            "{}: {text}",
            g.name
        );
        let o = Command::new(env!("CARGO_BIN_EXE_sim"))
            .args([
                g.name, "--policy", "my-own", "--games", "50", "--seed", "1", "--out", "x.csv",
            ])
            .env("SIM_STRATEGIES", dir)
            .current_dir(empty.path())
            .output()
            .unwrap();
        assert!(ok(&o).contains("policy my-own"), "{}", g.name);
        refused(
            &[g.name, "--strategies", "/no/such/folder"],
            &["--strategies", "/no/such/folder"],
        );
    }
}

/// `sim completions SHELL` and `sim man` know every game's commands.
#[test]
fn completions_and_man_pages_cover_every_game() {
    let dir = tempfile::tempdir().unwrap();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = ok(&sim(&["completions", shell], dir.path()));
        for g in games() {
            assert!(script.contains(g.name), "{shell}: no {}", g.name);
        }
    }
    refused(&["completions", "tcsh"], &["tcsh", "bash"]);
    let page = ok(&sim(&["man"], dir.path()));
    assert!(page.contains(".TH sim 1"), "{page}");
    ok(&sim(&["man", "--out", "pages"], dir.path()));
    for g in games() {
        for page in [
            format!("sim-{}.1", g.name),
            format!("sim-tournament-{}.1", g.name),
            format!("sim-sweep-{}.1", g.name),
        ] {
            let text = std::fs::read_to_string(dir.path().join("pages").join(&page)).unwrap();
            assert!(text.contains("games"), "{page}");
        }
    }
}

/// `--json` prints the summary as one JSON object with the CSV's figures
/// (for a run, a tournament and a sweep); `-q` prints nothing.
#[test]
fn json_summaries_carry_the_csv_figures_and_quiet_prints_nothing() {
    for g in games() {
        let dir = tempfile::tempdir().unwrap();
        let text = ok(&sim(
            &[
                g.name, "--games", "700", "--seed", "2", "--out", "x.csv", "--json",
            ],
            dir.path(),
        ));
        let v: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}: {text}", g.name));
        let csv = std::fs::read_to_string(dir.path().join("x.csv")).unwrap();
        let seats = v["seats"].as_array().unwrap();
        assert_eq!(seats.len(), g.default_players, "{}", g.name);
        for (seat, line) in seats.iter().zip(csv.lines().skip(1)) {
            let wins: u64 = line.split(',').nth(4).unwrap().parse().unwrap();
            assert_eq!(seat["wins"].as_u64(), Some(wins), "{}", g.name);
            assert_eq!(seat["policy"].as_str(), line.split(',').nth(1), "{}", g.name);
        }
        assert_eq!(v["files"][0].as_str().unwrap(), "x.csv", "{}", g.name);
        let quiet = sim(
            &[g.name, "--games", "700", "--seed", "2", "--out", "y.csv", "-q"],
            dir.path(),
        );
        assert!(ok(&quiet).is_empty() && stderr(&quiet).is_empty(), "{}", g.name);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("y.csv")).unwrap(),
            csv,
            "{}",
            g.name
        );
        let players = (*g.players.start()).max(2).to_string();
        let entrants = format!("{0},{0}", g.default_policy);
        let t = ok(&sim(
            &[
                "tournament",
                g.name,
                "--policies",
                &entrants,
                "--players",
                &players,
                "--games",
                "500",
                "--no-charts",
                "--out",
                "t",
                "--json",
            ],
            dir.path(),
        ));
        let t: serde_json::Value = serde_json::from_str(&t).unwrap();
        assert_eq!(t["standings"].as_array().unwrap().len(), 2, "{}", g.name);
        let s = ok(&sim(
            &[
                "sweep",
                g.name,
                "--policy",
                g.sweep,
                "--games",
                "500",
                "--no-charts",
                "--out",
                "s",
                "--json",
            ],
            dir.path(),
        ));
        let s: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert!(s["values"].as_array().unwrap().len() >= 2, "{}", g.name);
    }
}

#[test]
fn every_shipped_strategy_of_every_game_resolves() {
    // Built-in strategies only: a library read from a folder without any.
    let dir = tempfile::tempdir().unwrap();
    let lib = sim::engine::strategies::Library::new(dir.path(), None).unwrap();
    for g in games() {
        let listed = lib.list(g.name);
        assert!(!listed.is_empty(), "{} ships no strategy", g.name);
        for (name, s) in listed {
            let s = s.unwrap_or_else(|e| panic!("{} {name}: {e}", g.name));
            for word in s.policy.split(',') {
                assert!(
                    (g.resolves)(&lib, word.trim()),
                    "{} {name}: '{word}' does not resolve",
                    g.name
                );
            }
        }
    }
}

#[test]
fn one_game_runs_print_and_write_no_nan() {
    // A run of one game (one deal) has no spread to measure: the errors are
    // left out, never shown or written as NaN.
    for g in games() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path();
        let two = format!("{},{}", g.default_policy, g.default_policy);
        let runs: Vec<Vec<&str>> = vec![
            vec![g.name, "--games", "1", "--seed", "3", "--out", "run.csv"],
            vec![
                "tournament",
                g.name,
                "--policies",
                &two,
                "--players",
                "2",
                "--games",
                "1",
                "--seed",
                "3",
                "--out",
                "t",
            ],
            vec![
                "sweep",
                g.name,
                "--policy",
                g.sweep,
                "--games",
                "1",
                "--seed",
                "3",
                "--out",
                "s",
                "--no-charts",
            ],
        ];
        for args in runs {
            let o = sim(&args, p);
            let text = format!("{}{}", ok(&o), stderr(&o));
            assert!(
                !text.contains("NaN") && !text.contains("± 0.00"),
                "{args:?}:\n{text}"
            );
        }
        for f in ["run.csv", "t/standings.csv", "t/pairwise.csv", "s/sweep.csv"] {
            let csv = std::fs::read_to_string(p.join(f)).unwrap();
            assert!(
                !csv.contains("NaN") && !csv.contains("inf"),
                "{} {f}:\n{csv}",
                g.name
            );
        }
    }
}

/// `play_each` (what tournaments use) plays exactly the games of
/// `play_batch` (what runs use): merged game by game, the statistics are
/// the same, for every game, with its default options and policy.
#[test]
fn play_each_plays_the_games_of_play_batch() {
    use sim::engine::rng::batch_rng;
    use sim::engine::runner::{Accumulator, Simulation};
    struct Check;
    impl Visitor for Check {
        fn visit<G: Game>(&mut self) {
            let opts = default_options::<G>();
            let policy = G::parse_policy(G::DEFAULT_POLICY).unwrap();
            let seats = vec![policy; G::players(&opts)];
            let sim = G::simulation(&opts, &seats).unwrap();
            let mut whole = sim.new_acc();
            sim.play_batch(&mut batch_rng(5, 2), 300, &mut whole, None);
            let mut merged = sim.new_acc();
            let mut count = 0;
            sim.play_each(&mut batch_rng(5, 2), 300, &mut |one| {
                count += 1;
                merged.merge(one);
            });
            assert_eq!(count, 300, "{}", G::NAME);
            assert_eq!(
                G::seat_results(&opts, &whole),
                G::seat_results(&opts, &merged),
                "{}",
                G::NAME
            );
            assert_eq!(
                G::csv_fields(&opts, &whole),
                G::csv_fields(&opts, &merged),
                "{}",
                G::NAME
            );
        }
    }
    sim::games::each(&mut Check);
}
