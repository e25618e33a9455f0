//! Messages at the edges of what the command line takes, one test per
//! case.

use std::path::Path;

use crate::common::{fails_with, files_in, sim, stderr};
use sim::engine::show::{rate_text, report_line, timing};

/// Plays `args` (one short game, the summary on stderr) and returns the
/// summary.
fn summary(args: &[&str], dir: &Path) -> String {
    let mut all = args.to_vec();
    all.extend(["--games", "1", "--seed", "1", "--threads", "1", "--out", "-"]);
    let o = sim(&all, dir);
    assert!(o.status.success(), "{all:?}: {}", stderr(&o));
    stderr(&o)
}

#[test]
fn list_policies_names_the_playout_ismcts_plays() {
    let dir = tempfile::tempdir().unwrap();
    // The default playout as each game's listing says it, and as its spec
    // would write it (a default playout is left out of the spec).
    for (game, listed, playout) in [
        ("flip7", "default stay-at-28)", "stay-at-28"),
        ("flip-flush", "(default: default)", "default"),
        ("ib-flip", "default finisher)", "finisher"),
        ("classic-flip", "default collector)", "collector"),
    ] {
        let o = sim(&[game, "--list-policies"], dir.path());
        let listing = String::from_utf8_lossy(&o.stdout).into_owned();
        let line = listing
            .lines()
            .find(|l| l.contains("below the search tree"))
            .unwrap();
        assert!(line.contains(listed), "{game}: {line}");
        let spec = format!("ismcts:1+playout:{playout}");
        let shown = summary(&[game, "--policy", &spec], dir.path());
        assert!(
            shown.contains(&format!("policy {spec} = ismcts:1\n")),
            "{game}: {shown}"
        );
    }
    let o = sim(&["flip7", "--list-policies"], dir.path());
    assert!(!String::from_utf8_lossy(&o.stdout).contains("default stay-at-25"));
}

#[test]
fn rates_below_one_game_a_second_keep_their_digits() {
    assert_eq!(report_line(2, 5.9), "0.34 games/s");
    assert_eq!(report_line(1, 140.0), "0.0071 games/s");
    assert_eq!(report_line(1, 1.25), "0.80 games/s");
    assert_eq!(report_line(5, 1.0), "5 games/s");
    assert_eq!(report_line(2_500, 1.0), "2.5K games/s");
    assert_eq!(timing(2, 2, 5.9), "2 threads, 5.90 s, 0.34 games/s");
}

/// The progress bar's rate is written as the summary's: below a thousand
/// games a second it showed `0K games/s`.
#[test]
fn the_progress_bar_rate_is_the_summary_rate() {
    assert_eq!(rate_text(340.0), "340 games/s");
    assert_eq!(rate_text(0.34), "0.34 games/s");
    assert_eq!(rate_text(2_500.0), "2.5K games/s");
    assert_eq!(rate_text(1_100_000.0), "1.10M games/s");
}

/// A shard number past the limit is refused naming the limit.
#[test]
fn a_shard_past_a_million_names_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "flip7",
        "--shard",
        "1/99999999999999999999",
        "--seed",
        "1",
        "--state",
        "s.json",
    ];
    fails_with(
        2,
        &args,
        dir.path(),
        &[
            "--shard",
            "1 <= K <= N <= 1000000",
            "got '1/99999999999999999999'",
        ],
    );
}

#[test]
fn numbers_too_large_for_their_type_name_the_accepted_range() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let sweep = ["sweep", "flip7", "--policy", "stay-at-{20..21}"];
    let tournament = ["tournament", "flip7", "--policies", "ev,ev"];
    let tune = ["tune", "flip7", "--policy", "stay-at-{20..21}"];
    let cases: Vec<(Vec<&str>, &str, &str)> = vec![
        (vec!["flip7"], "--players", "1 to 36"),
        (vec!["flip-flush"], "--players", "2 to 6"),
        (vec!["ib-flip"], "--players", "2 to 5"),
        (vec!["classic-flip"], "--players", "2 to 8"),
        (vec!["classic-flip"], "--decks", "1 to 2"),
        (vec!["classic-flip"], "--target", "1 to 1000000"),
        (vec!["classic-flip"], "--round-cap", "1 to 10000000"),
        (vec!["ib-flip"], "--move-cap", "1 to 100000000"),
        (vec!["flip7"], "--threads", "1 to 1024"),
        (sweep.to_vec(), "--threads", "1 to 1024"),
        (sweep.to_vec(), "--players", "1 to 36"),
        (tournament.to_vec(), "--threads", "1 to 1024"),
        (tune.to_vec(), "--players", "1 to 36"),
        (tune.to_vec(), "--threads", "1 to 1024"),
    ];
    for (command, flag, range) in &cases {
        for value in ["99999999999999999999", "-1", "1.5", "", "0"] {
            let mut args = command.clone();
            args.extend([*flag, value]);
            let quoted = format!("'{value}'");
            let expected = format!("expected a whole number from {range}");
            fails_with(2, &args, d, &[flag, &quoted, &expected]);
        }
    }
    let err = fails_with(2, &["flip7", "--players", "99999999999999999999"], d, &[]);
    assert!(err.starts_with(
        "error: invalid value '99999999999999999999' for '--players <PLAYERS>': \
         expected a whole number from 1 to 36\n"
    ));
    assert!(files_in(d).is_empty());
}

#[test]
fn a_playout_given_twice_is_refused_as_given_twice() {
    let dir = tempfile::tempdir().unwrap();
    for (game, spec) in [
        ("flip-flush", "ismcts:5+playout:counter+playout:counter"),
        ("flip-flush", "ismcts:5+playout:default+playout:count"),
        ("classic-flip", "ismcts:5+playout:collector+playout:collector"),
        ("flip7", "ismcts:5+playout:ev+playout:ev"),
        ("ib-flip", "ismcts:5+playout:counter+playout:counter"),
    ] {
        let quoted = format!("--policy '{spec}': playout is chosen twice");
        fails_with(2, &[game, "--policy", spec], dir.path(), &[&quoted]);
    }
    // Two rules of the same spec say so too.
    for (game, spec, rules) in [
        (
            "flip7",
            "ismcts:5+ismcts:6",
            "two Hit-or-Stay rules ('ismcts:5' and 'ismcts:6')",
        ),
        (
            "flip7",
            "ev+stay-at-20",
            "two Hit-or-Stay rules ('ev' and 'stay-at-20')",
        ),
        ("ib-flip", "saver+saver", "two play rules ('saver' and 'saver')"),
        (
            "ib-flip",
            "ismcts:5+rollout:3",
            "two play rules ('ismcts:5' and 'rollout:3')",
        ),
    ] {
        fails_with(2, &[game, "--policy", spec], dir.path(), &[rules]);
    }
}

#[test]
fn seat_messages_name_their_flag() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let past = "seat 5 is not at the table (seats are 0 to 3 with 4 players)";
    let sweep = ["sweep", "flip7", "--games", "10"];
    for (args, from) in [
        (
            [
                &sweep[..],
                &["--policy", "stay-at-{20..21}", "--field", "stay-at-25+target:5"],
            ]
            .concat(),
            "--field 'stay-at-25+target:5': ",
        ),
        (
            [&sweep[..], &["--policy", "stay-at-{20..21}+target:5"]].concat(),
            "--policy 'stay-at-{20..21}+target:5' at value 20: 'stay-at-20+target:5': ",
        ),
        (
            vec![
                "flip7",
                "--games",
                "10",
                "--policy",
                "ev,ev,ev,stay-at-25+target:5",
            ],
            "--policy 'stay-at-25+target:5': ",
        ),
        (
            vec![
                "tournament",
                "flip7",
                "--games",
                "10",
                "--policies",
                "ev,ev,ev,stay-at-25+target:5",
            ],
            "--policies 'stay-at-25+target:5': ",
        ),
    ] {
        fails_with(2, &args, d, &[&format!("error: {from}{past}")]);
    }
    assert!(files_in(d).is_empty());
}

#[test]
fn strategy_names_where_a_rule_is_expected() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Where the name stands for the whole of what is expected, it is taken.
    for (game, spec, means) in [
        (
            "flip-flush",
            "ismcts:10+playout:counter",
            "ismcts:10+playout:call-at:0.5+count+flip-likely+flip-safe+place-block+place-build",
        ),
        ("flip7", "max-win:balanced", "max-win:stay-at-25"),
        (
            "flip7",
            "ismcts:2+playout:cautious",
            "ismcts:2+playout:stay-at-18",
        ),
        (
            "classic-flip",
            "ismcts:2+playout:robber",
            "ismcts:2+playout:thief",
        ),
        ("ib-flip", "ismcts:2+playout:hunter", "ismcts:2+playout:attacker"),
    ] {
        let shown = summary(&[game, "--players", "2", "--policy", spec], d);
        assert!(
            shown.contains(&format!("policy {spec} = {means}\n")),
            "{spec}: {shown}"
        );
    }
    // Where it cannot be (a strategy of several parts where one rule is
    // expected), the refusal says what the name is and what to write.
    for (game, spec, said) in [
        (
            "flip7",
            "max-win:saboteur",
            "--policy 'max-win:saboteur': 'saboteur' is the strategy stay-at-25+freeze:least-banked+\
             flip-three:most-banked+second-chance:fewest-cards (strategies/flip7-saboteur.toml): \
             write max-win:stay-at-25",
        ),
        (
            "flip7",
            "ismcts:5+playout:opportunist",
            "'opportunist' is the strategy ev+flip-three:self-when-safe+freeze:self-when-safe \
             (strategies/flip7-opportunist.toml): write ismcts:5+playout:ev",
        ),
        (
            "flip7",
            "max-win:winner",
            "--policy 'max-win:winner': 'winner' is the strategy max-win (strategies/flip7-winner.toml): \
             'max-win:max-win': MODEL must be a rule cheap to simulate",
        ),
        (
            "ib-flip",
            "ismcts:5+playout:memory",
            "'memory' is the strategy counter+fix:stack (strategies/ib-flip-memory.toml): \
             write ismcts:5+playout:counter",
        ),
    ] {
        fails_with(2, &[game, "--policy", spec], d, &[said]);
    }
    assert!(files_in(d).is_empty());
}
