//! `sim play classic-flip`: a person against the bots, from a script on
//! standard input and through a pseudo-terminal. A game plays to its end
//! and its saved trace replays with the trace test's replayer to the same
//! winner; a wrong key is explained and asked again; `q`, the end of
//! input, Ctrl-C and Ctrl-D each end the game with the trace saved;
//! `--hint` puts `sim advise`'s answer before each decision it can answer
//! and reviews them after; bad options are refused before the deal.

use std::path::Path;
use std::process::Command;

use crate::common::*;
use crate::replay_classic_flip::replay_saved;

/// Moves that answer any decision within three lines: `d` draws two at
/// the start of a turn, `n` declines a challenge or a Block, `b` leaves a
/// set of cards (or a Take's pick) to the bot.
fn script(turns: usize) -> String {
    "d\nn\nb\n".repeat(turns)
}

/// The saved trace: its run line and its events.
fn saved(path: &Path) -> Run {
    let (head, events) = saved_play(path);
    Run {
        head,
        events,
        csv: String::new(),
    }
}

fn two_players(seed: &str, save: &str) -> Vec<String> {
    [
        "play",
        "classic-flip",
        "--players",
        "2",
        "--seed",
        seed,
        "--save",
        save,
    ]
    .map(String::from)
    .to_vec()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn a_scripted_game_plays_to_its_end_and_its_trace_replays_to_the_same_winner() {
    let dir = tempfile::tempdir().unwrap();
    let o = piped(&strs(&two_players("3", "game.jsonl")), &script(3000), dir.path());
    let out = ok(&o);
    assert!(
        out.contains("sim play classic-flip: you are seat 0 of 2; seat 1 ismcts:100."),
        "{out}"
    );
    assert!(
        out.contains("Your turn: how do you start it?") && out.contains("final totals: seat 0 "),
        "{out}"
    );
    assert!(out.contains("is saved to game.jsonl"), "{out}");
    let wide: Vec<&str> = out.lines().filter(|l| l.chars().count() > 80).collect();
    assert!(wide.is_empty(), "wider than 80 columns: {wide:?}");
    let t = saved(&dir.path().join("game.jsonl"));
    assert_eq!(t.head["command"], "classic-flip");
    assert_eq!(t.head["policies"], serde_json::json!(["person", "ismcts:100"]));
    assert_eq!(
        t.events[0]["seed"], "3",
        "the first event carries the deal's seed"
    );
    let wins = replay_saved(&t);
    let end = t.events.last().unwrap();
    assert_eq!(end["event"], "game_end");
    match end["winner"].as_u64() {
        Some(0) => assert!(out.contains("You win with") && wins == [1, 0], "{out}"),
        Some(1) => assert!(
            out.contains("seat 1 (ismcts:100) wins with") && wins == [0, 1],
            "{out}"
        ),
        _ => assert!(out.contains("No winner"), "{out}"),
    }
    // The same seed and the same moves: the same game, to the byte.
    let again = piped(&strs(&two_players("3", "again.jsonl")), &script(3000), dir.path());
    assert_eq!(ok(&again).replace("again.jsonl", "game.jsonl"), out);
    let read = |f: &str| std::fs::read(dir.path().join(f)).unwrap();
    assert_eq!(read("again.jsonl"), read("game.jsonl"));
    // `sim advise` reads the person's first start from the saved trace.
    let text = std::fs::read_to_string(dir.path().join("game.jsonl")).unwrap();
    let line = text
        .lines()
        .position(|l| l.contains("\"event\":\"draw\",\"seat\":0"))
        .expect("the person drew")
        + 1;
    let advice = sim(
        &[
            "advise",
            "classic-flip",
            "--trace",
            "game.jsonl",
            "--at",
            &line.to_string(),
            "--budget",
            "100",
        ],
        dir.path(),
    );
    let said = ok(&advice);
    assert!(
        said.contains("seat 0 to move") && said.contains("the trace's move: draw two"),
        "{said}"
    );
}

#[test]
fn a_wrong_key_is_explained_and_the_end_of_input_saves_the_game_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let o = piped(&strs(&two_players("4", "g.jsonl")), "x\n\nd\n", dir.path());
    let out = ok(&o);
    assert!(out.contains("'x' is not a move here: type "), "{out}");
    assert!(out.contains("nothing typed: type "), "{out}");
    assert!(out.contains("seat 0 (you) draws "), "{out}");
    assert!(
        out.contains("the input ended: the game is left unfinished."),
        "{out}"
    );
    let t = saved(&dir.path().join("g.jsonl"));
    assert!(t.events.iter().any(|e| e["event"] == "draw" && e["seat"] == 0));
    assert!(t.events.iter().all(|e| e["event"] != "game_end"));
}

#[test]
fn q_quits_with_the_trace_saved_where_it_says() {
    let dir = tempfile::tempdir().unwrap();
    let o = piped(
        &["play", "classic-flip", "--players", "2", "--seed", "1"],
        "q\n",
        dir.path(),
    );
    let out = ok(&o);
    assert!(out.contains("you quit: the game is left unfinished."), "{out}");
    assert!(out.contains("is saved to sim-play-classic-flip-1.jsonl"), "{out}");
    assert!(dir.path().join("sim-play-classic-flip-1.jsonl").is_file());
}

#[test]
fn the_hint_comes_before_each_decision_and_the_review_after_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut args = two_players("5", "h.jsonl");
    args.extend(["--hint", "--budget", "100"].map(String::from));
    let o = piped(&strs(&args), &script(8), dir.path());
    let out = ok(&o);
    let lines: Vec<&str> = out.lines().collect();
    let hints: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("hint: ") && !lines[i].starts_with("hint: none"))
        .collect();
    assert!(!hints.is_empty(), "{out}");
    assert!(
        hints
            .iter()
            .all(|&i| lines[i].ends_with("   (100 playouts a move)")
                && lines[i + 1].starts_with("  win chance: ")),
        "{out}"
    );
    assert!(hints.iter().any(|&i| lines[i + 1].contains(" d ")), "{out}");
    // A set of cards chosen a card at a time is hinted by whole sets.
    assert!(
        hints
            .iter()
            .any(|&i| lines[i].starts_with("hint: discard ") && lines[i + 1].contains("discard ")),
        "{out}"
    );
    assert!(!out.contains("hint: none"), "{out}");
    assert!(out.contains("review: "), "{out}");
    let wide: Vec<&str> = lines.iter().filter(|l| l.chars().count() > 80).copied().collect();
    assert!(wide.is_empty(), "wider than 80 columns: {wide:?}");
}

#[test]
fn bad_options_are_refused_before_a_card_is_dealt() {
    play_refuses(
        "classic-flip",
        "d\n",
        "how do you start it?",
        vec![
            (
                vec!["--players", "2", "--seat", "2"],
                "--seat 2: the table has 2 players (seats 0 to 1)",
            ),
            (
                vec!["--players", "3", "--bots", "collector,collector,collector"],
                "3 given; give one for every other seat, or one per other seat (2)",
            ),
            (vec!["--bots", "yolo"], "--bots yolo: "),
            (vec!["--players", "9"], "--players"),
            (vec!["--save", "."], "--save '.' is a folder"),
        ],
    );
}

/// The questions of `sim play classic-flip`, and the end.
const ASKED: &str = r"how do you start it\?|Do you challenge [^?]+\?|do you Block it\?|which card do you take\?|Discard which card\?|Take which card\?|final totals";

/// Through a pseudo-terminal, as a person plays: every question answered
/// (the bot's set where offered, else the first key) until the game ends.
#[test]
fn a_game_through_a_terminal_plays_to_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sim"));
    cmd.args(two_players("5", "t.jsonl")).args(["--pause", "0"]);
    cmd.current_dir(dir.path()).env("NO_COLOR", "1");
    let mut p = rexpect::session::spawn_command(cmd, Some(30_000)).expect("a terminal");
    p.exp_string("how do you start it?").unwrap();
    p.exp_string("> ").unwrap();
    p.send_line("x").unwrap();
    p.exp_string("'x' is not a move here").unwrap();
    p.send_line("d").unwrap();
    loop {
        let (_, found) = p.exp_regex(ASKED).unwrap();
        if found == "final totals" {
            break;
        }
        let menu = p.exp_string("> ").unwrap();
        let key = if menu.contains("[b] ") {
            "b".to_string()
        } else {
            let k = &menu[menu.find('[').expect("a key") + 1..];
            k[..k.find(']').unwrap()].to_string()
        };
        p.send_line(&key).unwrap();
    }
    p.exp_eof().unwrap();
    let t = saved(&dir.path().join("t.jsonl"));
    replay_saved(&t);
    assert_eq!(t.events.last().unwrap()["event"], "game_end");
}

/// Ctrl-C at a prompt ends the process with the game so far saved;
/// Ctrl-D ends the input, and the game, the same way as a script's end.
#[test]
fn ctrl_c_and_ctrl_d_end_the_game_with_its_trace_saved() {
    let dir = tempfile::tempdir().unwrap();
    let spawn = |save: &str| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_sim"));
        cmd.args(two_players("5", save)).args(["--pause", "0"]);
        cmd.current_dir(dir.path()).env("NO_COLOR", "1");
        rexpect::session::spawn_command(cmd, Some(20_000)).expect("a terminal")
    };
    let mut p = spawn("c.jsonl");
    p.exp_string("how do you start it?").unwrap();
    p.exp_string("> ").unwrap();
    p.send_control('c').unwrap();
    p.exp_string("interrupted: the game so far (").unwrap();
    p.exp_string("is saved to c.jsonl").unwrap();
    p.exp_eof().unwrap();
    let t = saved(&dir.path().join("c.jsonl"));
    assert!(t.events.iter().all(|e| e["event"] != "game_end"));

    let mut p = spawn("d.jsonl");
    p.exp_string("how do you start it?").unwrap();
    p.exp_string("> ").unwrap();
    p.send_control('d').unwrap();
    p.exp_string("the input ended: the game is left unfinished.")
        .unwrap();
    p.exp_string("is saved to d.jsonl").unwrap();
    p.exp_eof().unwrap();
    assert!(dir.path().join("d.jsonl").is_file());
}

#[test]
fn a_steal_is_played_on_the_victims_the_person_picks() {
    // Seed 4 at five players deals seat 0 the Any card: `ast` steals as
    // the bots would (seats 2, 3 and 4), `ast134` from seats 1, 3 and 4.
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "play",
        "classic-flip",
        "--players",
        "5",
        "--seed",
        "4",
        "--save",
        "s.jsonl",
    ];
    let o = piped(&args, &format!("?\nast134\n{}", script(3000)), dir.path());
    let out = ok(&o);
    assert!(out.contains("[ast] Any as steal from seat 2,3,4"), "{out}");
    for k in ["ast123", "ast124", "ast134"] {
        assert!(out.contains(&format!("[{k}] Any as steal from seat")), "{out}");
    }
    assert!(
        out.contains("seat 0 (you) plays Any as steal from seat 1, seat 3, seat 4"),
        "{out}"
    );
    let t = saved(&dir.path().join("s.jsonl"));
    let played = t
        .events
        .iter()
        .find(|e| e["event"] == "play" && e["seat"] == 0)
        .expect("the person's Steal is in the trace");
    assert_eq!(played["victims"], serde_json::json!([1, 3, 4]), "{played}");
    replay_saved(&t);
}
