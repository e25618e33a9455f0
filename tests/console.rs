//! What `sim` prints on the console: tables whose columns fit their
//! content, whatever the length of a policy's name, and wording that
//! counts right (`once`, `1 entrant`, `2.4M games`).

use crate::common;
use common::*;

use sim::engine::game::{Game, Visitor, default_options};

/// Name, default policy, default players and sweep example of every game.
fn games() -> Vec<(&'static str, &'static str, usize, &'static str)> {
    struct Collect(Vec<(&'static str, &'static str, usize, &'static str)>);
    impl Visitor for Collect {
        fn visit<G: Game>(&mut self) {
            self.0.push((
                G::NAME,
                G::DEFAULT_POLICY,
                G::players(&default_options::<G>()),
                G::SWEEP_EXAMPLE,
            ));
        }
    }
    let mut c = Collect(Vec::new());
    sim::games::each(&mut c);
    c.0
}

/// A strategy file of `game` playing `policy`, at a path of more than 60
/// characters (relative to `dir`), as a policy word would name it.
fn long_strategy_path(dir: &std::path::Path, game: &str, policy: &str) -> String {
    let path = format!("strategies-for-the-console-test/{game}-a-strategy-with-a-very-long-name.toml");
    assert!(path.len() > 60);
    std::fs::create_dir_all(dir.join("strategies-for-the-console-test")).unwrap();
    std::fs::write(
        dir.join(&path),
        format!("game = \"{game}\"\npolicy = \"{policy}\"\n"),
    )
    .unwrap();
    path
}

#[test]
fn every_game_lines_up_its_seat_table_under_a_long_policy_name() {
    for (game, policy, players, _) in games() {
        let dir = tempfile::tempdir().unwrap();
        let path = long_strategy_path(dir.path(), game, policy);
        // The long name in one seat, short ones in the others.
        let mut seats = vec![path.clone()];
        seats.extend(std::iter::repeat_n(policy.to_string(), players - 1));
        let out = ok(&sim(
            &[
                game,
                "--policy",
                &seats.join(","),
                "--games",
                "300",
                "--seed",
                "1",
                "--out",
                "x.csv",
            ],
            dir.path(),
        ));
        let table = console_table(&out, "seat  policy", players);
        assert!(table[1].contains(&path), "{game}: {out}");
        assert_aligned(&table);
    }
}

#[test]
fn a_tournament_and_a_sweep_line_up_their_tables() {
    for (game, policy, _, sweep) in games() {
        let dir = tempfile::tempdir().unwrap();
        let path = long_strategy_path(dir.path(), game, policy);
        let entrants = format!("{path},{policy}");
        let out = ok(&sim(
            &[
                "tournament",
                game,
                "--policies",
                &entrants,
                "--players",
                "2",
                "--games",
                "200",
                "--seed",
                "1",
                "--no-charts",
                "--out",
                "t",
            ],
            dir.path(),
        ));
        let standings = console_table(&out, "rank  entrant", 2);
        assert!(standings.iter().any(|l| l.contains(&path)), "{game}: {out}");
        assert_aligned(&standings);

        let out = ok(&sim(
            &[
                "sweep",
                game,
                "--policy",
                sweep,
                "--games",
                "200",
                "--seed",
                "1",
                "--no-charts",
                "--out",
                "s",
            ],
            dir.path(),
        ));
        let values = out
            .lines()
            .next()
            .and_then(|l| l.split(": ").nth(1))
            .and_then(|l| l.split(' ').next())
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or_else(|| panic!("no value count in: {out}"));
        assert_aligned(&console_table(&out, "value", values));
    }
}

/// The checker itself: a row pushed out of line is caught.
#[test]
fn a_table_out_of_line_is_caught() {
    let good = [
        "seat  policy  win rate",
        "   0  a         41.00%",
        "   1  bb         9.00%",
    ];
    assert_aligned(&good);
    let pushed = [
        "seat  policy  win rate",
        "   0  a-long-policy 41.00%",
        "   1  bb         9.00%",
    ];
    assert!(std::panic::catch_unwind(|| assert_aligned(&pushed)).is_err());
}

#[test]
fn classic_flip_labels_its_per_game_per_round_and_total_columns() {
    let dir = tempfile::tempdir().unwrap();
    let out = ok(&sim(
        &["classic-flip", "--games", "200", "--seed", "1", "--out", "x.csv"],
        dir.path(),
    ));
    let lines: Vec<&str> = out.lines().collect();
    let header = lines
        .iter()
        .position(|l| l.starts_with("seat  policy"))
        .unwrap_or_else(|| panic!("no seat table: {out}"));
    let groups = lines[header - 1];
    for label in ["per game", "per round", "per call", "in all"] {
        assert!(groups.contains(label), "{label} missing over the header:\n{out}");
    }
    // Each label's dashed span covers the columns it names.
    let over = |label: &str, column: &str| {
        let at = groups.find(label).unwrap();
        let start = groups[..at].rfind("  ").map_or(0, |i| i + 2);
        let end = groups[at..].find("  ").map_or(groups.len(), |i| at + i);
        let col = lines[header].find(column).unwrap();
        assert!(
            start <= col && col + column.len() <= end,
            "{label} is not over {column}:\n{out}"
        );
    };
    over("per game", "final score");
    over("per round", "calls");
    over("in all", "challenges");
}

#[test]
fn counts_are_worded_in_the_singular_and_plural_they_need() {
    let dir = tempfile::tempdir().unwrap();
    // 3 entrants at 2 seats: 6 arrangements, each entrant twice in each
    // seat; 400 deals make 2,400 games.
    let out = ok(&sim(
        &[
            "tournament",
            "flip7",
            "--policies",
            "stay-at-20,stay-at-25,ev",
            "--players",
            "2",
            "--games",
            "400",
            "--seed",
            "1",
            "--no-charts",
            "--out",
            "t",
        ],
        dir.path(),
    ));
    assert!(out.contains("every entrant sits in every seat twice"), "{out}");
    assert!(
        out.contains("400 deals (common random numbers): 2.4K games in all"),
        "{out}"
    );
    // 2 entrants at 2 seats: once each.
    let out = ok(&sim(
        &[
            "tournament",
            "flip7",
            "--policies",
            "stay-at-20,ev",
            "--players",
            "2",
            "--games",
            "100",
            "--seed",
            "1",
            "--no-charts",
            "--out",
            "t2",
        ],
        dir.path(),
    ));
    assert!(out.contains("every entrant sits in every seat once"), "{out}");
    assert!(out.contains("Holm-corrected for 1 comparison at"), "{out}");
    refused(
        &["tournament", "flip7", "--policies", "ev", "--players", "2"],
        &["--policies lists 1 entrant but --players is 2"],
    );
    // A built-in strategy says where it comes from in one parenthesis.
    let listed = ok(&sim(&["flip7", "--list-policies"], dir.path()));
    assert!(listed.contains("(built in: strategies/flip7-"), "{listed}");
    assert!(!listed.contains("(built in ("), "{listed}");
    // A single-round game ends after 1 round, not "1 rounds".
    let trace = ok(&sim(
        &[
            "flip7",
            "--single-round",
            "--games",
            "3",
            "--seed",
            "1",
            "--trace",
            "--out",
            "r.csv",
        ],
        dir.path(),
    ));
    assert!(trace.contains(" after 1 round"), "{trace}");
    assert!(!trace.contains(" 1 rounds"), "{trace}");
    // Flip-Flush with gambling: the tied last game of seed 3 is played on
    // for one game.
    let trace = ok(&sim(
        &[
            "flip-flush",
            "--gambling",
            "--players",
            "3",
            "--games",
            "1",
            "--seed",
            "3",
            "--trace",
            "--out",
            "f.csv",
        ],
        dir.path(),
    ));
    assert!(
        trace.contains("play went on for 1 game (played on above"),
        "{trace}"
    );
    // The summary's speed ("... 421 games/s") is no count of games.
    let counts: String = trace
        .lines()
        .filter(|l| !l.contains(" games/s)"))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(!counts.contains("1 games"), "{trace}");
    assert!(trace.contains("game 0, played on 1: "), "{trace}");
}
