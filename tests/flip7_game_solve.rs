//! `sim flip7 solve --game`: Flip 7 as a whole game in the
//! independent-rounds model, its CSV and its refusals.

use crate::common::{csv_rows, ok, refused, sim};

/// The published figures of the model (number cards, ties split): the
/// field against itself shares the game out, and the best response to the
/// score maximiser wins 0.5593 from 0-0.
#[test]
fn solve_game_reproduces_the_published_model() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "flip7",
        "solve",
        "--game",
        "--without",
        "actions,modifiers",
        "--ties",
        "split",
        "--out",
        "g",
    ];
    let out = ok(&sim(&args, dir.path()));
    assert!(
        out.contains("the best response to it wins 0.5593 (+5.93 points)"),
        "{out}"
    );
    assert!(
        out.contains("needs 11.5134 rounds on average to reach 200"),
        "{out}"
    );
    let text = std::fs::read_to_string(dir.path().join("g/game.csv")).unwrap();
    let rows = csv_rows(&text);
    assert_eq!(rows.len(), 200 * 200);
    // The page: the figures from 0-0 and the stance map, inline and beside it.
    let page = std::fs::read_to_string(dir.path().join("g/report.html")).unwrap();
    assert!(
        page.contains("Flip 7 solved: the best response to optimal-round"),
        "{page}"
    );
    assert!(page.contains("the best response to it wins 0.5593 (+5.93 points)"));
    assert!(page.contains("<svg") && page.contains("riskier") && page.contains("stance.png"));
    let png = std::fs::read(dir.path().join("g/stance.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    let svg = std::fs::read_to_string(dir.path().join("g/stance.svg")).unwrap();
    assert!(
        svg.contains("own total") && svg.contains("opponent&apos;s total")
            || svg.contains("opponent's total")
    );
    let cell = |a: usize, b: usize, col: &str| -> f64 { rows[a * 200 + b][col].parse().unwrap() };
    assert_eq!(rows[18 * 200]["own_total"], "18");
    assert_eq!(rows[18 * 200]["seed"], "");
    assert!((cell(18, 0, "field_win") - 0.6258608530).abs() < 1e-10);
    assert!((cell(0, 0, "best_response_win") - 0.5593448823).abs() < 1e-10);
    assert!((cell(110, 160, "best_response_win") - 0.1083074736).abs() < 1e-10);
    assert!((cell(0, 0, "field_round_score") - 18.565218).abs() < 1e-6);
    for a in 0..200 {
        for b in 0..200 {
            let sum = cell(a, b, "field_win") + cell(b, a, "field_win");
            assert!((sum - 1.0).abs() < 2e-10, "W({a}, {b}) + W({b}, {a}) = {sum}");
            // The best response never does worse than playing as the field.
            assert!(cell(a, b, "best_response_win") >= cell(a, b, "field_win") - 1e-10);
        }
    }
    // Behind, the best response takes more risk than ahead.
    assert!(cell(110, 160, "best_response_bust") > 0.5 && cell(110, 60, "best_response_bust") < 0.25);
}

#[test]
fn solve_game_refuses_what_it_cannot_solve() {
    refused(
        &["flip7", "solve", "--game"],
        &["--game with the full deck", "--without actions,modifiers"],
    );
    refused(
        &["flip7", "solve", "--game", "--without", "actions", "--out", "g"],
        &["--game with --without actions", "number cards only"],
    );
    refused(
        &[
            "flip7",
            "solve",
            "--game",
            "--without",
            "actions,modifiers",
            "--field",
            "max-win",
            "--out",
            "g",
        ],
        &["--field max-win", "the others' cards", "stay-at-N"],
    );
    refused(
        &[
            "flip7",
            "solve",
            "--game",
            "--without",
            "actions,modifiers",
            "--field",
            "nonsense",
            "--out",
            "g",
        ],
        &["--field nonsense", "unknown policy"],
    );
    refused(
        &[
            "flip7",
            "solve",
            "--game",
            "--without",
            "actions,modifiers",
            "--ties",
            "coin",
            "--out",
            "g",
        ],
        &["--ties", "'coin'", "play-on", "split"],
    );
    refused(&["flip7", "solve", "--field", "ev"], &["--game"]);
}

/// Every output is checked before anything is solved: a file where the
/// folder should be is refused at once and left as it was.
#[test]
fn solve_game_checks_its_folder_first() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("g"), "mine").unwrap();
    let o = sim(
        &[
            "flip7",
            "solve",
            "--game",
            "--without",
            "actions,modifiers",
            "--out",
            "g",
        ],
        dir.path(),
    );
    assert!(!o.status.success());
    assert!(crate::common::stderr(&o).contains("--out 'g' must be a folder"));
    assert_eq!(std::fs::read_to_string(dir.path().join("g")).unwrap(), "mine");
    // A page that cannot be written (a folder in its place) is refused
    // before solving, and nothing else is written beside it.
    std::fs::create_dir_all(dir.path().join("h/report.html")).unwrap();
    let o = sim(
        &[
            "flip7",
            "solve",
            "--game",
            "--without",
            "actions,modifiers",
            "--out",
            "h",
        ],
        dir.path(),
    );
    assert!(!o.status.success());
    assert!(
        crate::common::stderr(&o).contains("report.html"),
        "{}",
        crate::common::stderr(&o)
    );
    assert!(!dir.path().join("h/game.csv").exists() && !dir.path().join("h/stance.png").exists());
}

/// `--equilibrium STEPS`: fictitious play from the score maximiser. The
/// first line is the published best response (0.5593); one step of
/// averaging lowers it; the last round of the game, both at 199, is solved
/// exactly and mixes round rules; equilibrium.csv has a row per pair.
#[test]
fn solve_game_equilibrium_plays_fictitiously_and_solves_the_last_round() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "flip7",
        "solve",
        "--game",
        "--without",
        "actions,modifiers",
        "--ties",
        "split",
        "--equilibrium",
        "1",
        "--out",
        "e",
    ];
    let out = ok(&sim(&args, dir.path()));
    assert!(
        out.contains("step   0: the best response to the score maximiser wins 0.5593 from 0-0"),
        "{out}"
    );
    assert!(
        out.contains("step   1: the best response to the average of 2 rounds wins 0.5386 from 0-0"),
        "{out}"
    );
    assert!(
        out.contains("after 1 step the field gives away 3.86 points"),
        "{out}"
    );
    assert!(
        out.contains("both at 199: the exact equilibrium of that round mixes 17 round rules"),
        "{out}"
    );
    assert!(
        out.contains("guarantees 0.4989, 0.11 points below the round's value 0.5000"),
        "{out}"
    );
    let text = std::fs::read_to_string(dir.path().join("e/equilibrium.csv")).unwrap();
    let rows = csv_rows(&text);
    assert_eq!(rows.len(), 200 * 200);
    let cell = |a: usize, b: usize, col: &str| -> f64 { rows[a * 200 + b][col].parse().unwrap() };
    assert!((cell(0, 0, "field_win") - 0.5).abs() < 1e-10);
    assert!((cell(0, 0, "best_response_win") - 0.5386).abs() < 5e-5);
    for (a, b) in [(18, 0), (120, 150), (199, 3)] {
        assert!((cell(a, b, "field_win") + cell(b, a, "field_win") - 1.0).abs() < 1e-9);
        assert!(cell(a, b, "best_response_win") >= cell(a, b, "field_win") - 1e-9);
    }
    refused(
        &[
            "flip7",
            "solve",
            "--game",
            "--without",
            "actions,modifiers",
            "--equilibrium",
            "0",
        ],
        &["--equilibrium", "0", "1..=1000"],
    );
    refused(
        &[
            "flip7",
            "solve",
            "--game",
            "--without",
            "actions,modifiers",
            "--equilibrium",
            "2",
            "--field",
            "ev",
        ],
        &["--equilibrium", "--field"],
    );
    refused(
        &[
            "flip7",
            "solve",
            "--game",
            "--without",
            "actions,modifiers",
            "--equilibrium",
            "2",
            "--players",
            "3",
        ],
        &["--equilibrium plays two players", "--players 3"],
    );
}

/// `--players 3`: three players of one rule share the game out, so each
/// wins a third from 0-0-0 and the three chances of any totals add up to
/// 1; the CSV has the opponents' totals in order, at every `--step`.
#[test]
fn solve_game_three_players_share_the_game_out() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "flip7",
        "solve",
        "--game",
        "--without",
        "actions,modifiers",
        "--players",
        "3",
        "--ties",
        "split",
        "--step",
        "10",
        "--out",
        "t",
    ];
    let out = ok(&sim(&args, dir.path()));
    assert!(
        out.contains("from 0-0-0: each wins 0.3333; a round's lead (18-0-0) wins 0.4755"),
        "{out}"
    );
    let text = std::fs::read_to_string(dir.path().join("t/game.csv")).unwrap();
    let rows = csv_rows(&text);
    assert_eq!(rows.len(), 20 * 20 * 21 / 2);
    let win = |a: usize, b: usize, c: usize| -> f64 {
        let (b, c) = (b.min(c), b.max(c));
        let r = rows
            .iter()
            .find(|r| {
                r["own_total"] == a.to_string()
                    && r["first_opponent_total"] == b.to_string()
                    && r["second_opponent_total"] == c.to_string()
            })
            .unwrap();
        r["field_win"].parse().unwrap()
    };
    for (a, b, c) in [(0, 10, 20), (190, 0, 30), (100, 100, 50)] {
        let sum = win(a, b, c) + win(b, a, c) + win(c, a, b);
        assert!((sum - 1.0).abs() < 1e-9, "({a}, {b}, {c}): {sum}");
    }
    refused(
        &[
            "flip7",
            "solve",
            "--game",
            "--without",
            "actions,modifiers",
            "--players",
            "3",
            "--out",
            "t2",
        ],
        &["--players 3 with --ties play-on", "--ties split"],
    );
    refused(
        &[
            "flip7",
            "solve",
            "--game",
            "--without",
            "actions,modifiers",
            "--players",
            "3",
            "--ties",
            "split",
            "--field",
            "endgame",
            "--out",
            "t3",
        ],
        &["--field endgame", "one round at every total"],
    );
    refused(
        &["flip7", "solve", "--game", "--players", "4"],
        &["--players", "4", "2..=3"],
    );
}

/// `--target N` and `--best-response` at three players reproduce the
/// published figures of shorter games: to 50, the best response to the
/// score maximiser wins 0.5742 and a solo player needs 3.1716 rounds; to
/// 40, the best response to two score maximisers wins 0.4368 from 0-0-0.
#[test]
fn solve_game_shorter_games_and_the_three_player_best_response() {
    let dir = tempfile::tempdir().unwrap();
    let two = [
        "flip7",
        "solve",
        "--game",
        "--without",
        "actions,modifiers",
        "--ties",
        "split",
        "--target",
        "50",
        "--out",
        "f",
    ];
    let out = ok(&sim(&two, dir.path()));
    assert!(out.contains("the best response to it wins 0.5742"), "{out}");
    assert!(
        out.contains("needs 3.1716 rounds on average to reach 50"),
        "{out}"
    );
    assert_eq!(
        csv_rows(&std::fs::read_to_string(dir.path().join("f/game.csv")).unwrap()).len(),
        50 * 50
    );
    let three = [
        "flip7",
        "solve",
        "--game",
        "--without",
        "actions,modifiers",
        "--players",
        "3",
        "--ties",
        "split",
        "--target",
        "40",
        "--best-response",
        "--step",
        "1",
    ];
    let out = ok(&sim(&three, dir.path()));
    assert!(
        out.contains("the best response to two of it wins 0.4368 from 0-0-0 (+10.34 points over a third)"),
        "{out}"
    );
    assert!(
        out.contains("wrote results/flip7-game3_optimal-round_split_to-40/game.csv"),
        "{out}"
    );
    let text = std::fs::read_to_string(
        dir.path()
            .join("results/flip7-game3_optimal-round_split_to-40/game.csv"),
    )
    .unwrap();
    let rows = csv_rows(&text);
    assert_eq!(rows.len(), 40 * 40 * 41 / 2);
    for r in &rows {
        let (br, field): (f64, f64) = (
            r["best_response_win"].parse().unwrap(),
            r["field_win"].parse().unwrap(),
        );
        assert!(br >= field - 1e-9, "{r:?}");
    }
    refused(
        &[
            "flip7",
            "solve",
            "--game",
            "--without",
            "actions,modifiers",
            "--best-response",
            "--out",
            "g",
        ],
        &["--best-response goes with --players 3"],
    );
    refused(
        &["flip7", "solve", "--game", "--target", "5"],
        &["--target", "5", "10..=1000"],
    );
}
