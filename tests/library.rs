//! `sim` as a library: the programs in `examples/`, each a `sim` with a
//! policy written in code, run every command with it; a user policy gives
//! the same bytes on 1 and 2 threads and through shards and merge; a
//! user re-implementation of `stay-at-N` plays the built-in's games; the
//! builder refuses a user policy it cannot take.

use crate::common::*;

use std::path::Path;

use sim::prelude::*;

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One example program and how the tests drive it.
struct Example {
    /// The program (`examples/NAME.rs`).
    name: &'static str,
    /// Its game's command.
    game: &'static str,
    /// Its user policy's form, as `--list-policies` shows it.
    form: &'static str,
    /// A spec using the user policy.
    spec: &'static str,
    /// The same spec with a refused parameter, and what the refusal says.
    bad: (&'static str, &'static str),
    /// A sweep of the user policy's parameter.
    sweep: &'static str,
    /// A shipped policy to play against.
    rival: &'static str,
}

const EXAMPLES: [Example; 4] = [
    Example {
        name: "flip7_leader_aware",
        game: "flip7",
        form: "leader-aware:N",
        spec: "leader-aware:170",
        bad: (
            "leader-aware:250",
            "N must be a whole number from 0 to 200 (leader-aware:N)",
        ),
        sweep: "leader-aware:{150,190}",
        rival: "stay-at-25",
    },
    Example {
        name: "flip_flush_call_when_out",
        game: "flip-flush",
        form: "call-when-out:P/Q",
        spec: "call-when-out:0.5/0.3",
        bad: (
            "call-when-out:0.5",
            "call-when-out takes the parameters P, Q (call-when-out:P/Q)",
        ),
        sweep: "call-when-out:0.5/{0.1,0.3}",
        rival: "default",
    },
    Example {
        name: "ib_flip_burn_to_stop",
        game: "ib-flip",
        form: "burn-to-stop:T",
        spec: "saver+burn-to-stop:8",
        bad: (
            "saver+burn-to-stop:0",
            "T must be a whole number from 1 to 52 (burn-to-stop:T)",
        ),
        sweep: "saver+burn-to-stop:{6,10}",
        rival: "saver+burn-at:8",
    },
    Example {
        name: "classic_flip_doubter",
        game: "classic-flip",
        form: "doubter:P",
        spec: "caller:40+doubter:0.4",
        bad: ("doubter:x", "P must be a number from 0 to 1 (doubter:P)"),
        sweep: "doubter:{0.2,0.6}",
        rival: "collector",
    },
];

#[test]
fn every_example_lists_its_user_policy_and_refuses_a_bad_parameter_as_built_ins_do() {
    let dir = tempfile::tempdir().unwrap();
    for e in &EXAMPLES {
        let list = ok(&example(e.name, &[e.game, "--list-policies"], dir.path()));
        let section = list
            .split("User policies (written in code, added by this program):\n")
            .nth(1)
            .unwrap_or_else(|| panic!("{}: no user policies listed:\n{list}", e.name));
        assert!(
            section.starts_with(&format!("  {}", e.form)),
            "{}:\n{section}",
            e.name
        );
        let second = section.lines().nth(1).unwrap_or_default();
        assert!(
            second.starts_with("  (each is a "),
            "{}: what a user policy is:\n{section}",
            e.name
        );

        let (bad, says) = e.bad;
        let o = example(e.name, &[e.game, "--policy", bad, "--games", "10"], dir.path());
        assert_eq!(o.status.code(), Some(2), "{}: {bad} was accepted", e.name);
        let err = stderr(&o);
        assert!(err.starts_with(&format!("error: --policy '{bad}': ")), "{err}");
        assert!(err.contains(says), "{}: {err}", e.name);
        assert!(err.contains(&format!("user policies: {}", e.form)), "{err}");
        assert!(
            files_in(dir.path()).is_empty(),
            "{bad} left {:?}",
            files_in(dir.path())
        );
    }
    // The same refusal for a built-in parameter, for comparison.
    let o = example(
        "flip7_leader_aware",
        &["flip7", "--policy", "stay-at-x", "--games", "10"],
        dir.path(),
    );
    assert!(
        stderr(&o).starts_with(
            "error: --policy 'stay-at-x': N must be a whole number from 0 to 65535 (stay-at-N); accepted: "
        ),
        "{}",
        stderr(&o)
    );
}

#[test]
fn every_example_gives_the_same_bytes_on_one_and_two_threads_and_through_shards_and_merge() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for e in &EXAMPLES {
        // Two batches of 1024 games and a short third: two threads share them.
        let policy = format!("{},{}", e.spec, e.rival);
        let base = [
            e.game,
            "--policy",
            &policy,
            "--players",
            "2",
            "--games",
            "2500",
            "--seed",
            "7",
            "-q",
        ];
        let run = |more: &[&str]| {
            let args: Vec<&str> = base.iter().chain(more).copied().collect();
            ok(&example(e.name, &args, d));
        };
        let one = format!("{}-1.csv", e.name);
        run(&["--threads", "1", "--out", &one]);
        let two = format!("{}-2.csv", e.name);
        run(&["--threads", "2", "--out", &two]);
        assert_eq!(
            read(&d.join(&one)),
            read(&d.join(&two)),
            "{}: 1 and 2 threads differ",
            e.name
        );
        assert!(String::from_utf8(read(&d.join(&one))).unwrap().contains(e.spec));

        let merged = format!("{}-merged.csv", e.name);
        let mut states = Vec::new();
        for k in 1..=2 {
            let state = format!("{}-{k}.json", e.name);
            run(&["--out", &merged, "--shard", &format!("{k}/2"), "--state", &state]);
            states.push(state);
        }
        let mut merge = vec!["merge", "-q"];
        merge.extend(states.iter().map(String::as_str));
        ok(&example(e.name, &merge, d));
        assert_eq!(
            read(&d.join(&one)),
            read(&d.join(&merged)),
            "{}: shards and merge differ from one run",
            e.name
        );
        // The plain sim does not know the policy: its merge says so.
        let o = sim(&merge, d);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("unknown"), "{}", stderr(&o));
    }
}

#[test]
fn every_example_plays_its_user_policy_in_a_tournament_and_a_sweep() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for e in &EXAMPLES {
        let entrants = format!("{},{}", e.spec, e.rival);
        let out = format!("{}-tournament", e.name);
        let args = [
            "tournament",
            e.game,
            "--policies",
            &entrants,
            "--players",
            "2",
            "--games",
            "200",
            "--seed",
            "1",
            "--no-charts",
            "--no-progress",
            "--out",
            &out,
        ];
        let text = ok(&example(e.name, &args, d));
        assert!(text.contains(e.spec), "{}: {text}", e.name);
        let standings = String::from_utf8(read(&d.join(&out).join("standings.csv"))).unwrap();
        assert!(standings.contains(e.spec), "{}: {standings}", e.name);

        let out = format!("{}-sweep", e.name);
        let args = [
            "sweep",
            e.game,
            "--policy",
            e.sweep,
            "--field",
            e.rival,
            "--players",
            "2",
            "--games",
            "200",
            "--seed",
            "1",
            "--no-charts",
            "--no-progress",
            "--out",
            &out,
        ];
        let text = ok(&example(e.name, &args, d));
        assert!(text.contains(e.sweep), "{}: {text}", e.name);
        let sweep = String::from_utf8(read(&d.join(&out).join("sweep.csv"))).unwrap();
        assert_eq!(
            sweep.lines().count(),
            3,
            "{}: two values, a header:\n{sweep}",
            e.name
        );
    }
}

#[test]
fn a_user_tournament_sharded_and_merged_writes_the_bytes_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let base = [
        "tournament",
        "flip7",
        "--policies",
        "leader-aware:170,stay-at-25,endgame",
        "--players",
        "3",
        "--games",
        "300",
        "--seed",
        "2",
        "--no-charts",
        "-q",
    ];
    let with = |more: &[&str]| -> Vec<String> { base.iter().chain(more).map(|s| s.to_string()).collect() };
    let run = |args: Vec<String>| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ok(&example("flip7_leader_aware", &args, d));
    };
    run(with(&["--out", "whole"]));
    run(with(&["--out", "merged", "--shard", "1/2", "--state", "t1.json"]));
    run(with(&["--out", "merged", "--shard", "2/2", "--state", "t2.json"]));
    ok(&example(
        "flip7_leader_aware",
        &["merge", "-q", "t2.json", "t1.json"],
        d,
    ));
    for file in ["standings.csv", "pairwise.csv"] {
        assert_eq!(
            read(&d.join("whole").join(file)),
            read(&d.join("merged").join(file)),
            "{file}: shards and merge differ from one run"
        );
    }
}

#[test]
fn a_user_stay_at_n_plays_the_games_of_the_built_in_stay_at_n() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let csv = |policy: &str| {
        let args = [
            "flip7", "--policy", policy, "--games", "3000", "--seed", "11", "--out", "-", "-q",
        ];
        let out = ok(&example("flip7_stay_at_in_code", &args, d));
        // Every column but the policy's name.
        out.lines()
            .map(|l| {
                let mut f: Vec<&str> = l.split(',').collect();
                f.remove(1);
                f.join(",")
            })
            .collect::<Vec<_>>()
    };
    for n in ["18", "25", "33"] {
        let built_in = csv(&format!("stay-at-{n}"));
        assert_eq!(built_in.len(), 5, "{built_in:?}");
        // Every seat a user rule (called straight from the game loop), and
        // beside built-in seats (through the general chooser).
        let user = csv(&format!("user-stay-at:{n}"));
        assert_eq!(built_in, user, "user-stay-at:{n}");
        let mixed = csv(&format!(
            "stay-at-{n},user-stay-at:{n},stay-at-{n},user-stay-at:{n}"
        ));
        assert_eq!(built_in, mixed, "stay-at-{n} beside user-stay-at:{n}");
    }
}

#[test]
fn the_builder_refuses_a_user_policy_named_as_a_built_in_or_malformed() {
    let cases: [(&str, &str); 4] = [
        ("stay-at:N", "'stay-at' is a built-in spec; choose another name"),
        ("ev", "'ev' is a built-in spec; choose another name"),
        ("Leader aware", "its name must start with a lower-case letter"),
        ("leader-aware:N/", "its parameters are names joined by '/'"),
    ];
    for (form, says) in cases {
        let refused = Builder::new()
            .policy::<Flip7, _>(form, "never registered", |_| Ok(|v: &Flip7View| v.banked() < 25))
            .run_from(["sim", "flip7", "--list-policies"])
            .expect_err(form);
        assert_eq!(refused.code(), 2, "{form}");
        assert!(refused.message().contains(says), "{form}: {}", refused.message());
    }
}

#[test]
fn the_guide_shows_the_flip7_example_as_it_is() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let guide = std::fs::read_to_string(root.join("docs/custom-policies.md")).unwrap();
    let shown = guide
        .split("```rust\n")
        .nth(1)
        .and_then(|b| b.split("```\n").next())
        .expect("a rust block in docs/custom-policies.md");
    let file = std::fs::read_to_string(root.join("examples/flip7_leader_aware.rs")).unwrap();
    assert_eq!(
        shown, file,
        "docs/custom-policies.md shows another examples/flip7_leader_aware.rs"
    );
}

#[test]
fn a_user_policy_named_as_a_built_in_prefix_is_found_and_registered_once() {
    use sim::engine::game::Game;
    // Registered in this test process: `cards-max` begins as `cards-N`.
    let seven = |_: &Params| Ok(|v: &Flip7View| v.numbers() < 7);
    let _ = Builder::new().policy::<Flip7, _>("cards-max", "hits for seven numbers", seven);
    let p = Flip7::parse_policy("cards-max").expect("the user policy");
    assert_eq!(p.to_string(), "cards-max");
    let p = Flip7::parse_policy("cards-max+freeze:most-cards").expect("with a choice");
    assert_eq!(p.to_string(), "cards-max+freeze:most-cards");
    assert!(
        Flip7::parse_policy("cards-4").is_ok(),
        "the built-in still parses"
    );
    let again = Builder::new()
        .policy::<Flip7, _>("cards-max", "again", seven)
        .run_from(["sim", "flip7", "--list-policies"])
        .expect_err("registered twice");
    assert!(
        again
            .message()
            .contains("the user policy 'cards-max' of flip7 is registered twice"),
        "{}",
        again.message()
    );
}

#[test]
fn the_flip7_view_shows_the_totals_of_the_table_from_the_deciding_seat() {
    use sim::games::flip7::cards::{Without, composition, decks_for};
    use sim::games::flip7::rules::{Rules, Table};
    let rules = Rules {
        players: 4,
        composition: composition(decks_for(4), Without::default()),
        single_round: false,
        fresh_deck: false,
    };
    let mut t = Table::new(rules);
    t.set_totals(&[150, 120, 180, 90]);
    let v = Flip7View::new(&t, 1);
    assert_eq!((v.seat(), v.players(), v.target()), (1, 4, 200));
    assert_eq!((v.my_total(), v.leader_total(), v.total(3)), (120, 180, 90));
    assert_eq!(
        Flip7View::new(&t, 2).leader_total(),
        150,
        "the leader among the others"
    );
    assert_eq!((v.banked(), v.numbers(), v.has_second_chance()), (0, 0, false));
}
