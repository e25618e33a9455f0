//! `sim play flip7`: a person against the bots, from a script on standard
//! input and through a pseudo-terminal. A game plays to its end and its
//! saved trace replays card for card to the same winner; a wrong key is
//! explained and asked again; `q`, the end of input and Ctrl-C each end
//! the game with the trace saved; `--hint` puts `sim advise`'s answer
//! before each decision and reviews them after.

use std::path::Path;
use std::process::Command;

use crate::common::*;
use crate::trace_json::{Traced, replay_flip7};

/// Moves that answer any decision of a two-player game within three lines:
/// `s` stays, `0` or `1` names a target, `1` takes an extra Second Chance.
fn stay_script(rounds: usize) -> String {
    "s\n0\n1\n".repeat(rounds)
}

/// The saved trace: its run line and its events.
fn saved(path: &Path) -> Traced {
    let (head, events) = saved_play(path);
    Traced {
        head,
        events,
        csv: Vec::new(),
    }
}

#[test]
fn a_scripted_game_plays_to_its_end_and_its_trace_replays_to_the_same_winner() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "play",
        "flip7",
        "--players",
        "2",
        "--seed",
        "3",
        "--save",
        "game.jsonl",
    ];
    let o = piped(&args, &stay_script(3000), dir.path());
    let out = ok(&o);
    assert!(
        out.contains("sim play flip7: you are seat 0 of 2; seat 1 max-win."),
        "{out}"
    );
    assert!(
        out.contains("Hit or stay?") && out.contains("final totals: seat 0 "),
        "{out}"
    );
    assert!(
        out.contains("the trace (") && out.contains("is saved to game.jsonl"),
        "{out}"
    );
    let wide: Vec<&str> = out.lines().filter(|l| l.chars().count() > 80).collect();
    assert!(wide.is_empty(), "wider than 80 columns: {wide:?}");
    let t = saved(&dir.path().join("game.jsonl"));
    assert_eq!(t.head["command"], "flip7");
    assert_eq!(t.head["policies"], serde_json::json!(["person", "max-win"]));
    assert_eq!(
        t.events[0]["seed"], "3",
        "the first event carries the deal's seed"
    );
    let wins = replay_flip7(&t);
    let end = t.events.last().unwrap();
    assert_eq!(end["event"], "game_end");
    match end["winner"].as_u64() {
        Some(0) => assert!(out.contains("You win with") && wins == [1, 0], "{out}"),
        Some(1) => assert!(
            out.contains("seat 1 (max-win) wins with") && wins == [0, 1],
            "{out}"
        ),
        _ => assert!(out.contains("No unique winner"), "{out}"),
    }
    // The same seed and the same moves: the same game, to the byte.
    let again = piped(
        &[
            "play",
            "flip7",
            "--players",
            "2",
            "--seed",
            "3",
            "--save",
            "again.jsonl",
        ],
        &stay_script(3000),
        dir.path(),
    );
    assert_eq!(ok(&again).replace("again.jsonl", "game.jsonl"), out);
    let read = |f: &str| std::fs::read(dir.path().join(f)).unwrap();
    assert_eq!(read("again.jsonl"), read("game.jsonl"));
    // `sim advise` reads the person's first decision from the saved trace.
    let text = std::fs::read_to_string(dir.path().join("game.jsonl")).unwrap();
    let line = text
        .lines()
        .position(|l| l.contains("\"event\":\"stay\",\"seat\":0"))
        .expect("the person stayed")
        + 1;
    let advice = sim(
        &[
            "advise",
            "flip7",
            "--trace",
            "game.jsonl",
            "--at",
            &line.to_string(),
            "--budget",
            "500",
        ],
        dir.path(),
    );
    assert!(ok(&advice).contains("seat 0 to move"), "{}", stdout(&advice));
}

#[test]
fn a_wrong_key_is_explained_and_the_end_of_input_saves_the_game_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let o = piped(
        &[
            "play",
            "flip7",
            "--players",
            "3",
            "--seed",
            "4",
            "--save",
            "g.jsonl",
        ],
        "x\n\nh\n",
        dir.path(),
    );
    let out = ok(&o);
    assert!(
        out.contains("'x' is not a move here: type h or s, or q to quit"),
        "{out}"
    );
    assert!(out.contains("nothing typed: type h or s, or q to quit"), "{out}");
    assert!(out.contains("seat 0 (you) hits"), "{out}");
    assert!(
        out.contains("the input ended: the game is left unfinished."),
        "{out}"
    );
    let t = saved(&dir.path().join("g.jsonl"));
    assert!(t.events.iter().any(|e| e["event"] == "hit" && e["seat"] == 0));
    assert!(t.events.iter().all(|e| e["event"] != "game_end"));
}

#[test]
fn q_quits_with_the_trace_saved_where_it_says() {
    let dir = tempfile::tempdir().unwrap();
    let o = piped(
        &["play", "flip7", "--players", "2", "--seed", "1"],
        "q\n",
        dir.path(),
    );
    let out = ok(&o);
    assert!(out.contains("you quit: the game is left unfinished."), "{out}");
    assert!(out.contains("is saved to sim-play-flip7-1.jsonl"), "{out}");
    assert!(dir.path().join("sim-play-flip7-1.jsonl").is_file());
}

#[test]
fn the_hint_comes_before_each_decision_and_the_review_after_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "play",
        "flip7",
        "--players",
        "2",
        "--seed",
        "3",
        "--hint",
        "--budget",
        "500",
        "--save",
        "h.jsonl",
    ];
    let o = piped(&args, &"h\n0\n1\n".repeat(6), dir.path());
    let out = ok(&o);
    let lines: Vec<&str> = out.lines().collect();
    let hints: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("hint: "))
        .collect();
    assert!(!hints.is_empty(), "{out}");
    assert!(
        hints
            .iter()
            .all(|&i| lines[i].ends_with("   (500 playouts a move)")
                && lines[i + 1].starts_with("  win chance: ")),
        "{out}"
    );
    assert!(
        hints
            .iter()
            .any(|&i| lines[i + 1].starts_with("  win chance: h ") && lines[i + 1].contains(", s ")),
        "{out}"
    );
    assert!(out.contains("review: "), "{out}");
}

#[test]
fn bad_options_are_refused_before_a_card_is_dealt() {
    play_refuses(
        "flip7",
        "s\n",
        "Hit or stay?",
        vec![
            (
                vec!["--players", "2", "--seat", "2"],
                "--seat 2: the table has 2 players (seats 0 to 1)",
            ),
            (
                vec!["--players", "3", "--bots", "ev,ev,ev"],
                "--bots ev,ev,ev: 3 given; give one for every other seat, or one per other seat (2)",
            ),
            (vec!["--bots", "yolo"], "--bots yolo: "),
            (
                vec!["--players", "1", "--bots", "ev"],
                "you are alone at the table",
            ),
            (vec!["--save", "."], "--save '.' is a folder"),
            (vec!["--save", "-"], "--save -: the trace is saved to a file"),
        ],
    );
}

/// Through a pseudo-terminal, as a person plays: every prompt answered
/// (stay, or the first target offered) until the game ends.
#[test]
fn a_game_through_a_terminal_plays_to_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sim"));
    cmd.args([
        "play",
        "flip7",
        "--players",
        "2",
        "--seed",
        "5",
        "--pause",
        "0",
        "--save",
        "t.jsonl",
    ])
    .current_dir(dir.path())
    .env("NO_COLOR", "1");
    let mut p = rexpect::session::spawn_command(cmd, Some(20_000)).expect("a terminal");
    p.exp_string("Hit or stay?").unwrap();
    p.exp_string("> ").unwrap();
    p.send_line("x").unwrap();
    p.exp_string("'x' is not a move here").unwrap();
    p.send_line("s").unwrap();
    loop {
        let (_, found) = p
            .exp_regex(r"Hit or stay\?|Whom do you [^?]+\?|final totals")
            .unwrap();
        if found == "final totals" {
            break;
        }
        let menu = p.exp_string("> ").unwrap();
        let key = if found.starts_with("Hit") {
            "s".to_string()
        } else {
            let k = &menu[menu.find('[').expect("a key") + 1..];
            k[..k.find(']').unwrap()].to_string()
        };
        p.send_line(&key).unwrap();
    }
    p.exp_eof().unwrap();
    let t = saved(&dir.path().join("t.jsonl"));
    replay_flip7(&t);
    assert_eq!(t.events.last().unwrap()["event"], "game_end");
}

/// Ctrl-C at a prompt ends the process (130) with the game so far saved;
/// Ctrl-D ends the input, and the game, the same way as a script's end.
#[test]
fn ctrl_c_and_ctrl_d_end_the_game_with_its_trace_saved() {
    let dir = tempfile::tempdir().unwrap();
    let spawn = |save: &str| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_sim"));
        cmd.args([
            "play",
            "flip7",
            "--players",
            "2",
            "--seed",
            "5",
            "--pause",
            "0",
            "--save",
            save,
        ])
        .current_dir(dir.path())
        .env("NO_COLOR", "1");
        rexpect::session::spawn_command(cmd, Some(20_000)).expect("a terminal")
    };
    let mut p = spawn("c.jsonl");
    p.exp_string("Hit or stay?").unwrap();
    p.exp_string("> ").unwrap();
    p.send_control('c').unwrap();
    p.exp_string("interrupted: the game so far (").unwrap();
    p.exp_string("is saved to c.jsonl").unwrap();
    p.exp_eof().unwrap();
    let t = saved(&dir.path().join("c.jsonl"));
    assert!(t.events.iter().all(|e| e["event"] != "game_end"));

    let mut p = spawn("d.jsonl");
    p.exp_string("Hit or stay?").unwrap();
    p.exp_string("> ").unwrap();
    p.send_control('d').unwrap();
    p.exp_string("the input ended: the game is left unfinished.")
        .unwrap();
    p.exp_string("is saved to d.jsonl").unwrap();
    p.exp_eof().unwrap();
    assert!(dir.path().join("d.jsonl").is_file());
}
