//! `sim play flip-flush`: a person against the bots, from a script on
//! standard input and through a pseudo-terminal. A game plays to its end
//! and its saved trace replays card for card to the same winner; a wrong
//! key is explained and asked again; `q`, the end of input and Ctrl-C each
//! end the game with the trace saved; `--hint` puts `sim advise`'s answer
//! before each decision and reviews them after.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::common::*;
use crate::trace_json::{Traced, replay_flip_flush};

/// The saved trace: its run line and its events.
fn saved(path: &Path) -> Traced {
    let (head, events) = saved_play(path);
    Traced {
        head,
        events,
        csv: Vec::new(),
    }
}

/// Seat 0's hand in the deal of `seed` at `players`, as keys (`7h`).
fn hand_keys(players: &str, seed: &str, dir: &Path) -> Vec<String> {
    let args = [
        "play",
        "flip-flush",
        "--players",
        players,
        "--seed",
        seed,
        "--save",
        "deal.jsonl",
    ];
    ok(&piped(&args, "q\n", dir));
    let t = saved(&dir.join("deal.jsonl"));
    let deal = t.events.iter().find(|e| e["event"] == "deal").expect("a deal");
    deal["hands"][0]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_lowercase())
        .collect()
}

/// Keys that answer any decision of seat 0 within 17 lines, over and
/// over: flip each cell, then place each card of the hand on cell 0.
fn script(hand: &[String], rounds: usize) -> String {
    let mut keys: Vec<String> = (0..9).map(|c| format!("f{c}")).collect();
    keys.extend(hand.iter().map(|k| format!("{k}0")));
    let once: String = keys.iter().map(|k| format!("{k}\n")).collect();
    once.repeat(rounds)
}

/// The closing lines of a game played to its end: one of these.
const ENDS: [&str; 5] = [
    "You win: you called",
    "You win: everybody else",
    "wins by calling",
    "wins as the last",
    "A tie between",
];

#[test]
fn flip_flush_play_a_scripted_game_plays_to_its_end_and_its_trace_replays_to_the_same_winner() {
    let dir = tempfile::tempdir().unwrap();
    let hand = hand_keys("2", "3", dir.path());
    let args = [
        "play",
        "flip-flush",
        "--players",
        "2",
        "--seed",
        "3",
        "--save",
        "game.jsonl",
    ];
    let o = piped(&args, &script(&hand, 40), dir.path());
    let out = ok(&o);
    assert!(
        out.contains("sim play flip-flush: you are seat 0 of 2; seat 1 ismcts:1000."),
        "{out}"
    );
    assert!(
        out.contains("Your move: ") && out.contains("the grid at the end: "),
        "{out}"
    );
    assert!(
        out.contains("the trace (") && out.contains("is saved to game.jsonl"),
        "{out}"
    );
    assert!(ENDS.iter().any(|e| out.contains(e)), "{out}");
    let wide: Vec<&str> = out.lines().filter(|l| l.chars().count() > 80).collect();
    assert!(wide.is_empty(), "wider than 80 columns: {wide:?}");
    let t = saved(&dir.path().join("game.jsonl"));
    assert_eq!(t.head["command"], "flip-flush");
    assert_eq!(t.head["policies"], serde_json::json!(["person", "ismcts:1000"]));
    assert_eq!(
        t.events[0]["seed"], "3",
        "the first event carries the deal's seed"
    );
    let wins = replay_flip_flush(&t);
    let end = t.events.last().unwrap();
    assert_eq!(end["event"], "game_end");
    match end["winner"].as_u64() {
        Some(0) => assert!(out.contains("You win: ") && wins == [1, 0], "{out}"),
        Some(1) => assert!(
            out.contains("seat 1 (ismcts:1000) wins ") && wins == [0, 1],
            "{out}"
        ),
        _ => assert!(out.contains("A tie between") && wins == [0, 0], "{out}"),
    }
    // The same seed and the same moves: the same game, to the byte.
    let again = [
        "play",
        "flip-flush",
        "--players",
        "2",
        "--seed",
        "3",
        "--save",
        "again.jsonl",
    ];
    let o2 = piped(&again, &script(&hand, 40), dir.path());
    assert_eq!(ok(&o2).replace("again.jsonl", "game.jsonl"), out);
    let read = |f: &str| std::fs::read(dir.path().join(f)).unwrap();
    assert_eq!(read("again.jsonl"), read("game.jsonl"));
    // `sim advise` reads the person's first decision from the saved trace.
    let text = std::fs::read_to_string(dir.path().join("game.jsonl")).unwrap();
    let line = text
        .lines()
        .position(|l| {
            let e: Value = serde_json::from_str(l).unwrap();
            matches!(e["event"].as_str(), Some("place" | "flip")) && e["seat"] == 0
        })
        .expect("the person moved")
        + 1;
    let at = line.to_string();
    let advice = sim(
        &[
            "advise",
            "flip-flush",
            "--trace",
            "game.jsonl",
            "--at",
            &at,
            "--budget",
            "200",
        ],
        dir.path(),
    );
    assert!(
        ok(&advice).contains("seat 0 to place or flip"),
        "{}",
        stdout(&advice)
    );
}

#[test]
fn flip_flush_play_a_wrong_key_is_explained_and_the_end_of_input_saves_the_game_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let hand = hand_keys("3", "4", dir.path());
    let args = [
        "play",
        "flip-flush",
        "--players",
        "3",
        "--seed",
        "4",
        "--save",
        "g.jsonl",
    ];
    let o = piped(&args, &format!("x\n\n{}4\n", hand[0]), dir.path());
    let out = ok(&o);
    assert!(
        out.contains("'x' is not a move here: type a listed key (? lists all 72),"),
        "{out}"
    );
    assert!(
        out.contains("nothing typed: type a listed key (? lists all 72)"),
        "{out}"
    );
    let card = hand[0].to_uppercase();
    assert!(
        out.contains(&format!("seat 0 (you) places {card} on cell 4")),
        "{out}"
    );
    assert!(out.contains("  seat 1 places a card on cell "), "{out}");
    assert!(
        out.contains("the input ended: the game is left unfinished."),
        "{out}"
    );
    let wide: Vec<&str> = out.lines().filter(|l| l.chars().count() > 80).collect();
    assert!(wide.is_empty(), "wider than 80 columns: {wide:?}");
    let t = saved(&dir.path().join("g.jsonl"));
    assert!(
        t.events
            .iter()
            .any(|e| e["event"] == "place" && e["seat"] == 0 && e["cell"] == 4)
    );
    assert!(t.events.iter().all(|e| e["event"] != "game_end"));
}

#[test]
fn flip_flush_play_q_quits_with_the_trace_saved_where_it_says() {
    let dir = tempfile::tempdir().unwrap();
    let o = piped(
        &["play", "flip-flush", "--players", "2", "--seed", "1"],
        "q\n",
        dir.path(),
    );
    let out = ok(&o);
    assert!(out.contains("you quit: the game is left unfinished."), "{out}");
    assert!(out.contains("is saved to sim-play-flip-flush-1.jsonl"), "{out}");
    let t = saved(&dir.path().join("sim-play-flip-flush-1.jsonl"));
    assert_eq!(t.events.len(), 1, "the deal, and no move");
}

#[test]
fn flip_flush_play_the_hint_comes_before_each_decision_and_the_review_after_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let hand = hand_keys("2", "3", dir.path());
    let args = [
        "play",
        "flip-flush",
        "--players",
        "2",
        "--seed",
        "3",
        "--hint",
        "--budget",
        "100",
        "--save",
        "h.jsonl",
    ];
    let o = piped(&args, &script(&hand, 1), dir.path());
    let out = ok(&o);
    let lines: Vec<&str> = out.lines().collect();
    let hints: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("hint: "))
        .collect();
    assert!(hints.len() >= 2, "{out}");
    assert!(
        hints
            .iter()
            .all(|&i| lines[i].ends_with("   (100 playouts a move)")
                && lines[i + 1].starts_with("  win chance: ")),
        "{out}"
    );
    // The first decision: 8 cards on 9 cells, but only suits matter, so
    // the advice weighs one card of each suit on each cell.
    let first = lines[hints[0] + 1..hints[0] + 4].join("\n");
    assert!(first.contains("(the best 5 of "), "{out}");
    assert!(out.contains("review: "), "{out}");
    let wide: Vec<&str> = out.lines().filter(|l| l.chars().count() > 80).collect();
    assert!(wide.is_empty(), "wider than 80 columns: {wide:?}");
}

#[test]
fn flip_flush_play_bad_options_are_refused_before_a_card_is_dealt() {
    play_refuses(
        "flip-flush",
        "q\n",
        "Your move",
        vec![
            (
                vec!["--players", "2", "--seat", "2"],
                "--seat 2: the table has 2 players (seats 0 to 1)",
            ),
            (
                vec!["--players", "4", "--bots", "default,default"],
                "--bots default,default: 2 given; give one for every other seat, or one per other seat (3)",
            ),
            (vec!["--bots", "yolo"], "--bots yolo: "),
            (vec!["--players", "7"], "--players"),
            (vec!["--memory", "2"], "--memory"),
            (vec!["--save", "."], "--save '.' is a folder"),
            (vec!["--save", "-"], "--save -: the trace is saved to a file"),
        ],
    );
}

/// `sim play flip-flush` in a pseudo-terminal of its own.
fn terminal(dir: &Path, save: &str) -> rexpect::session::PtySession {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sim"));
    cmd.args([
        "play",
        "flip-flush",
        "--players",
        "2",
        "--seed",
        "5",
        "--pause",
        "0",
        "--save",
        save,
    ])
    .current_dir(dir)
    .env("NO_COLOR", "1");
    rexpect::session::spawn_command(cmd, Some(20_000)).expect("a terminal")
}

/// Through a pseudo-terminal, as a person plays: every prompt answered
/// with the first move listed until the game ends.
#[test]
fn flip_flush_play_a_game_through_a_terminal_plays_to_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = terminal(dir.path(), "t.jsonl");
    p.exp_string("Your move").unwrap();
    p.exp_string("> ").unwrap();
    p.send_line("x").unwrap();
    p.exp_string("'x' is not a move here").unwrap();
    p.send_line("?").unwrap();
    // `?` lists every move, and the same prompt asks again.
    let all = p.exp_string("[q] quit").unwrap();
    p.exp_string("> ").unwrap();
    let k = &all[all.find('[').expect("a key") + 1..];
    p.send_line(&k[..k.find(']').unwrap()]).unwrap();
    loop {
        let (_, found) = p.exp_regex(r"Your move|the grid at the end").unwrap();
        if found != "Your move" {
            break;
        }
        let menu = p.exp_string("> ").unwrap();
        let k = &menu[menu.find('[').expect("a key") + 1..];
        p.send_line(&k[..k.find(']').unwrap()]).unwrap();
    }
    p.exp_string("is saved to t.jsonl").unwrap();
    p.exp_eof().unwrap();
    let t = saved(&dir.path().join("t.jsonl"));
    replay_flip_flush(&t);
    assert_eq!(t.events.last().unwrap()["event"], "game_end");
}

/// Ctrl-C at a prompt ends the process (130) with the game so far saved;
/// Ctrl-D ends the input, and the game, the same way as a script's end.
#[test]
fn flip_flush_play_ctrl_c_and_ctrl_d_end_the_game_with_its_trace_saved() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = terminal(dir.path(), "c.jsonl");
    p.exp_string("Your move").unwrap();
    p.exp_string("> ").unwrap();
    p.send_control('c').unwrap();
    p.exp_string("interrupted: the game so far (").unwrap();
    p.exp_string("is saved to c.jsonl").unwrap();
    p.exp_eof().unwrap();
    let t = saved(&dir.path().join("c.jsonl"));
    assert!(t.events.iter().any(|e| e["event"] == "deal"));
    assert!(t.events.iter().all(|e| e["event"] != "game_end"));

    let mut p = terminal(dir.path(), "d.jsonl");
    p.exp_string("Your move").unwrap();
    p.exp_string("> ").unwrap();
    p.send_control('d').unwrap();
    p.exp_string("the input ended: the game is left unfinished.")
        .unwrap();
    p.exp_string("is saved to d.jsonl").unwrap();
    p.exp_eof().unwrap();
    assert!(dir.path().join("d.jsonl").is_file());
}
