//! `sim play ib-flip`: a person against the bots, from a script on
//! standard input and through a pseudo-terminal. A game plays to its end
//! and its saved trace replays, every rule checked, to the same places; a
//! wrong key is explained and asked again; `q`, the end of input and
//! Ctrl-C each end the game with the trace saved; `--hint` puts `sim
//! advise`'s answer before each decision and reviews them after.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::common::*;
use crate::replay_ib_flip::replay_saved;

/// The face-up cards seat 0 is dealt with `--players 2 --seed 3`: its
/// fixing keeps them.
const KEEP: &str = "9C 10C 4S";

/// Keys that answer any later decision within 17 lines (fewer than the
/// 20 wrong keys a script may give in a row): every rank, reveal, pick up,
/// a face-down card, an add-on.
fn any_move(times: usize) -> String {
    "3\n6\n8\n9\nj\nqx1\nk\na\n7\n2\n10\n4\n5\nr\np\n1\n0\n".repeat(times)
}

/// The saved trace: its run line and its events.
fn saved(path: &Path) -> (Value, Vec<Value>) {
    saved_play(path)
}

fn game(save: &str) -> Vec<String> {
    ["play", "ib-flip", "--players", "2", "--seed", "3", "--save", save]
        .map(String::from)
        .to_vec()
}

#[test]
fn ib_flip_play_a_scripted_game_plays_to_its_end_and_its_trace_replays_to_the_same_places() {
    let dir = tempfile::tempdir().unwrap();
    let script = format!("{KEEP}\n{}", any_move(400));
    let args = game("game.jsonl");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = ok(&piped(&args, &script, dir.path())).to_string();
    assert!(
        out.contains("sim play ib-flip: you are seat 0 of 2; seat 1 ismcts:1000."),
        "{out}"
    );
    assert!(out.contains("Fixing: which cards go face up?"), "{out}");
    assert!(out.contains("which play from your hand?"), "{out}");
    assert!(out.contains("places: "), "{out}");
    assert!(out.contains("is saved to game.jsonl"), "{out}");
    let wide: Vec<&str> = out.lines().filter(|l| l.chars().count() > 80).collect();
    assert!(wide.is_empty(), "wider than 80 columns: {wide:?}");
    let (head, events) = saved(&dir.path().join("game.jsonl"));
    assert_eq!(head["command"], "ib-flip");
    assert_eq!(head["policies"], serde_json::json!(["person", "ismcts:1000"]));
    assert_eq!(head["repetition_detector"]["runs"], false, "{head}");
    assert_eq!(events[0]["seed"], "3", "the first event carries the seed");
    let places = replay_saved(&head, &events);
    let end = events.last().unwrap();
    assert_eq!(end["event"], "game_end");
    let traced: Vec<u8> = end["places"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_u64().unwrap() as u8)
        .collect();
    assert_eq!(places, traced);
    match places[0] {
        1 => assert!(out.contains("You win after"), "{out}"),
        _ => assert!(out.contains("seat 1 (ismcts:1000) wins after"), "{out}"),
    }
    // The same seed and the same moves: the same game, to the byte.
    let again = game("again.jsonl");
    let again: Vec<&str> = again.iter().map(String::as_str).collect();
    let twice = ok(&piped(&again, &script, dir.path())).to_string();
    assert_eq!(twice.replace("again.jsonl", "game.jsonl"), out);
    let read = |f: &str| std::fs::read(dir.path().join(f)).unwrap();
    assert_eq!(read("again.jsonl"), read("game.jsonl"));
    // `sim advise` reads the person's decisions from the saved trace.
    let text = std::fs::read_to_string(dir.path().join("game.jsonl")).unwrap();
    for want in ["\"event\":\"fix\",\"seat\":0", "\"event\":\"play\",\"seat\":0"] {
        let line = 1 + text
            .lines()
            .position(|l| l.contains(want) && !l.contains("\"from\":\"face_down\""))
            .unwrap_or_else(|| panic!("no {want}"));
        let advice = sim(
            &[
                "advise",
                "ib-flip",
                "--trace",
                "game.jsonl",
                "--at",
                &line.to_string(),
                "--budget",
                "300",
            ],
            dir.path(),
        );
        assert!(ok(&advice).contains("seat 0 to move"), "{}", stdout(&advice));
    }
}

#[test]
fn ib_flip_play_a_wrong_key_is_explained_and_the_end_of_input_saves_the_game_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let args = game("g.jsonl");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // A set typed in another order is the same set.
    let o = piped(&args, "x\n\n4s 10c,9c\n", dir.path());
    let out = ok(&o);
    assert!(
        out.contains("'x' is not a move here: type a listed key (? lists all 20), or q to quit"),
        "{out}"
    );
    assert!(
        out.contains("nothing typed: type a listed key (? lists all 20)"),
        "{out}"
    );
    assert!(out.contains("seat 0 (you) plays 3C from hand on zero"), "{out}");
    assert!(
        out.contains("the input ended: the game is left unfinished."),
        "{out}"
    );
    let (_, events) = saved(&dir.path().join("g.jsonl"));
    assert!(events.iter().any(|e| e["event"] == "fix" && e["seat"] == 0));
    assert!(events.iter().all(|e| e["event"] != "game_end"));
}

#[test]
fn ib_flip_play_q_quits_with_the_trace_saved_where_it_says() {
    let dir = tempfile::tempdir().unwrap();
    let o = piped(
        &["play", "ib-flip", "--players", "2", "--seed", "1"],
        "q\n",
        dir.path(),
    );
    let out = ok(&o);
    assert!(out.contains("you quit: the game is left unfinished."), "{out}");
    assert!(out.contains("is saved to sim-play-ib-flip-1.jsonl"), "{out}");
    let (head, events) = saved(&dir.path().join("sim-play-ib-flip-1.jsonl"));
    assert_eq!(head["event"], "run");
    assert_eq!(events[0]["event"], "deal");
}

#[test]
fn ib_flip_play_the_hint_comes_before_each_decision_and_the_review_after_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut args = game("h.jsonl");
    args.extend(["--hint", "--budget", "300"].map(String::from));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let script = format!("{KEEP}\n{}", any_move(3));
    let out = ok(&piped(&args, &script, dir.path())).to_string();
    let lines: Vec<&str> = out.lines().collect();
    let hints: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("hint: "))
        .collect();
    assert!(hints.len() >= 3, "{out}");
    assert!(
        hints
            .iter()
            .all(|&i| lines[i].ends_with("   (300 playouts a move)")
                && lines[i + 1].starts_with("  win chance: ")),
        "{out}"
    );
    assert!(
        lines[hints[0]].starts_with("hint: face up ") && lines[hints[0] + 1].contains("9C 10C 4S "),
        "the fixing's hint: {out}"
    );
    assert!(out.contains("review: "), "{out}");
    let wide: Vec<&str> = lines.iter().filter(|l| l.chars().count() > 80).copied().collect();
    assert!(wide.is_empty(), "wider than 80 columns: {wide:?}");
}

#[test]
fn ib_flip_play_bad_options_are_refused_before_a_card_is_dealt() {
    play_refuses(
        "ib-flip",
        "3\n",
        "Fixing",
        vec![
            (
                vec!["--players", "2", "--seat", "2"],
                "--seat 2: the table has 2 players (seats 0 to 1)",
            ),
            (
                vec!["--players", "3", "--bots", "lowest,lowest,lowest"],
                "--bots lowest,lowest,lowest: 3 given; give one for every other seat, or one per other seat (2)",
            ),
            (vec!["--bots", "yolo"], "--bots yolo: "),
            (vec!["--players", "6"], "--players"),
            (vec!["--without", "J"], "'J' is not a power"),
            (vec!["--save", "."], "--save '.' is a folder"),
            (vec!["--save", "-"], "--save -: the trace is saved to a file"),
        ],
    );
}

fn terminal(dir: &Path, save: &str) -> rexpect::session::PtySession {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sim"));
    cmd.args([
        "play",
        "ib-flip",
        "--players",
        "2",
        "--seed",
        "5",
        "--pause",
        "0",
        "--bots",
        "ismcts:200",
        "--save",
        save,
    ])
    .current_dir(dir)
    .env("NO_COLOR", "1");
    rexpect::session::spawn_command(cmd, Some(20_000)).expect("a terminal")
}

/// Through a pseudo-terminal, as a person plays: every prompt answered
/// with a key of its menu's last line until the game ends.
#[test]
fn ib_flip_play_a_game_through_a_terminal_plays_to_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = terminal(dir.path(), "t.jsonl");
    p.exp_string("Fixing: which cards go face up?").unwrap();
    p.exp_string("> ").unwrap();
    p.send_line("x").unwrap();
    p.exp_string("'x' is not a move here").unwrap();
    p.exp_string("> ").unwrap();
    // `?` lists the whole menu again.
    p.send_line("?").unwrap();
    loop {
        let (before, found) = p.exp_regex(r"\[q\] quit|places: ").unwrap();
        if found == "places: " {
            break;
        }
        let at = before.rfind("\n  [").expect("a menu") + 4;
        let key = before[at..at + before[at..].find(']').unwrap()].to_string();
        p.exp_string("> ").unwrap();
        p.send_line(&key).unwrap();
    }
    p.exp_eof().unwrap();
    let (head, events) = saved(&dir.path().join("t.jsonl"));
    replay_saved(&head, &events);
    assert_eq!(events.last().unwrap()["event"], "game_end");
}

/// Ctrl-C at a prompt ends the process (130) with the game so far saved;
/// Ctrl-D ends the input, and the game, the same way as a script's end.
#[test]
fn ib_flip_play_ctrl_c_and_ctrl_d_end_the_game_with_its_trace_saved() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = terminal(dir.path(), "c.jsonl");
    p.exp_string("Fixing: which cards go face up?").unwrap();
    p.exp_string("> ").unwrap();
    p.send_control('c').unwrap();
    p.exp_string("interrupted: the game so far (").unwrap();
    p.exp_string("is saved to c.jsonl").unwrap();
    p.exp_eof().unwrap();
    let (_, events) = saved(&dir.path().join("c.jsonl"));
    assert!(events.iter().all(|e| e["event"] != "game_end"));

    let mut p = terminal(dir.path(), "d.jsonl");
    p.exp_string("Fixing: which cards go face up?").unwrap();
    p.exp_string("> ").unwrap();
    p.send_control('d').unwrap();
    p.exp_string("the input ended: the game is left unfinished.")
        .unwrap();
    p.exp_string("is saved to d.jsonl").unwrap();
    p.exp_eof().unwrap();
    assert!(dir.path().join("d.jsonl").is_file());
}
