//! Messages at the edges of what the command line takes, one test per
//! case.

use std::path::Path;

use crate::common::{sim, stderr};
use sim::engine::show::{report_line, timing};

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
