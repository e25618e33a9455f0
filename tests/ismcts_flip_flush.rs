//! `ismcts:N` in Flip-Flush (`src/games/flip_flush/search.rs`): its specs,
//! that it sees only what its player may know, that runs repeat on any
//! number of threads and in every kind of run, and that it makes the
//! obvious decisions.

use sim::engine::ismcts;
use sim::engine::rng::batch_rng;
use sim::games::flip_flush::FlipFlushSim;
use sim::games::flip_flush::cards::{self, Card};
use sim::games::flip_flush::policies::{Policy, Seats};
use sim::games::flip_flush::rules::{Chooser, MEMORY_ONE, Move, Rules, Silent, Table};

fn c(text: &str) -> Card {
    cards::parse(text).unwrap_or_else(|| panic!("no card {text}"))
}

/// `ismcts:N` and `ismcts:N+playout:SPEC` parse and print back; the
/// playout is the default policy unless given; bad values are refused
/// naming them and what is accepted.
#[test]
fn ismcts_specs_parse_print_back_and_refuse_bad_values() {
    let p = Policy::parse("ismcts:100").unwrap();
    assert_eq!(p.to_string(), "ismcts:100");
    let s = p.search.expect("a search");
    assert_eq!((s.n, s.playout), (100, Policy::default_policy()));
    assert_eq!(
        Policy::parse("ismcts:9+playout:default").unwrap().to_string(),
        "ismcts:9"
    );
    let counter = "call-at:0.5+count+flip-likely+flip-safe+place-block+place-build";
    let spec = format!("ismcts:5+playout:{counter}");
    let p = Policy::parse(&spec).unwrap();
    assert_eq!(p.to_string(), spec);
    assert_eq!(Policy::parse(&p.to_string()).unwrap(), p);
    assert_eq!(p.search.unwrap().playout, Policy::parse(counter).unwrap());
    // A playout written short prints as its whole spec, and parses back.
    let short = Policy::parse("ismcts:7+playout:never-call").unwrap();
    assert_eq!(Policy::parse(&short.to_string()).unwrap(), short);
    for (bad, says) in [
        (
            "ismcts:0",
            "'ismcts:0': N must be a whole number from 1 to 1000000 (ismcts:N)",
        ),
        (
            "ismcts:abc",
            "'ismcts:abc': N must be a whole number from 1 to 1000000",
        ),
        ("ismcts:1000001", "N must be a whole number from 1 to 1000000"),
        (
            "ismcts:5+flip-safe",
            "ismcts:N takes no other part than +playout:SPEC",
        ),
        ("ismcts:5+playout:nonsense", "the playout SPEC 'nonsense'"),
        (
            "ismcts:5+playout:ismcts:3",
            "the playout SPEC cannot itself be ismcts:N",
        ),
    ] {
        let e = Policy::parse(bad).unwrap_err();
        assert!(e.contains(says), "{bad}: {e}");
    }
    let e = ismcts::parse_iterations("ismcts:0").unwrap().unwrap_err();
    assert!(Policy::parse("ismcts:0").unwrap_err().contains(&e));
}

/// `sim flip-flush --list-policies` lists `ismcts:N` with the engine's line.
#[test]
fn ismcts_is_listed_by_list_policies() {
    use crate::common::{ok, sim};
    let dir = tempfile::tempdir().unwrap();
    let out = ok(&sim(&["flip-flush", "--list-policies"], dir.path()));
    assert!(
        out.contains(ismcts::DOC.spec) && out.contains(ismcts::DOC.does),
        "{out}"
    );
    assert!(out.contains("ismcts:N+playout:SPEC"), "{out}");
}

/// The information test: at every turn of many games (2 to 4 players, full,
/// partial and no memory, with and without gambling), the cards the
/// searching player has not seen are re-dealt among the places that hold
/// them, and `ismcts:N` with the same random numbers must make the same
/// move.
#[test]
fn redealing_what_the_searcher_cannot_know_never_changes_its_move() {
    let searched = Policy::parse("ismcts:40").unwrap();
    let others = [
        "default",
        "call-at:0.3+read:0.7+place-hot+flip-likely+flip-own+place-block",
        "call-at:0.15+read:0+flip-likely+place-trap+flip-safe+place-build",
    ];
    let (mut decisions, mut moved) = (0, 0);
    for g in 0..24u64 {
        let players = 2 + (g % 3) as usize;
        let memory = [MEMORY_ONE, 600_000, 0][(g / 3 % 3) as usize];
        let mut t = Table::new(Rules {
            players,
            gambling: g % 2 == 1,
            memory,
        });
        let mut rng = batch_rng(g, 77);
        t.new_game(&mut rng);
        let mut seats = Seats::new(
            (0..players)
                .map(|s| Policy::parse(others[(s + g as usize) % others.len()]).unwrap())
                .collect(),
        );
        for turn in 0..60 {
            let seat = turn % players;
            if !t.is_alive(seat) || (t.hand(seat) == 0 && t.grid().masks().1 == 0) {
                continue;
            }
            let mut a = batch_rng(99, turn as u64);
            let mut b = a.clone();
            let here = searched.choose(&t.view(seat), &mut a);
            let world = t.redeal_hidden(seat, &mut batch_rng(7, (g << 8) + turn as u64));
            world.check_invariants().unwrap();
            moved +=
                usize::from(world.grid() != t.grid() || (0..players).any(|s| world.hand(s) != t.hand(s)));
            let there = searched.choose(&world.view(seat), &mut b);
            assert_eq!(
                here, there,
                "game {g}, turn {turn}: the move changed with cards seat {seat} cannot know"
            );
            decisions += 1;
            let mv = seats.choose(&t.view(seat), &mut rng);
            if t.apply(seat, mv, &mut Silent, &mut rng).is_some() {
                break;
            }
        }
    }
    assert!(
        decisions > 300 && moved > decisions / 2,
        "{decisions} decisions, {moved} re-deals moved a card"
    );
}

/// A run with an `ismcts` seat gives the same statistics on 1 and 2
/// threads (two batches of games), with and without gambling.
#[test]
fn ismcts_runs_repeat_on_any_number_of_threads() {
    for gambling in [false, true] {
        let policies = Policy::parse_list("ismcts:3,default").unwrap();
        let rules = Rules {
            gambling,
            ..Rules::standard(2)
        };
        let sim = FlipFlushSim::new(rules, &policies).unwrap();
        crate::common::same_on_one_and_two_threads(&sim, 1300, &format!("gambling {gambling}"));
    }
}

/// `ismcts:N` plays in a plain run, a tournament, a sweep, and in shards
/// merged by `sim merge` (the same CSV as the whole run); a bad N is
/// refused naming it.
#[test]
fn ismcts_plays_in_runs_tournaments_sweeps_and_shards() {
    crate::common::ismcts_in_every_kind_of_run("flip-flush", "default");
}

/// Plays the `script` of moves `(seat, move)` on a table of `players`
/// dealt `hands` (eight cards each, seat 0 first), then asks `spec` for
/// the move of `seat`.
fn decision(players: usize, hands: &[&str], script: &[(usize, Move)], seat: usize, spec: &str) -> Move {
    let mut top = Vec::new();
    for k in 0..8 {
        for h in hands {
            top.push(c(h.split_whitespace().nth(k).expect("eight cards a hand")));
        }
    }
    let mut t = Table::new(Rules::standard(players));
    t.set_deck(cards::Deck::stacked(&top));
    t.deal(&mut sim::engine::rng::Stacked);
    let mut rng = batch_rng(1, 1);
    for &(s, mv) in script {
        assert!(
            t.apply(s, mv, &mut Silent, &mut rng).is_none(),
            "the script ended the game"
        );
    }
    Policy::parse(spec)
        .unwrap()
        .choose(&t.view(seat), &mut batch_rng(5, 5))
}

/// Seat 0's remembered heart lies on the third cell of a line of two
/// face-up hearts: flipping it with a call wins at once (at 2, 3 and 4
/// players, and with another hot cell holding a card it does not know).
/// And at a table where the only face-down card is seat 1's, on a cell
/// where nothing can make a Flush, seat 0 never calls there.
#[test]
fn ismcts_makes_the_obvious_decisions() {
    let place = |card: &str, cell| Move::Place { card: c(card), cell };
    let flip = |cell| Move::Flip { cell, call: false };
    let hands = [
        "2H 4H 5C 7C 9S JS KD QD",
        "3H 6D 8D 10C 2S 4S 6S 8S",
        "AC 3C 9C JC KC QC 2D 3D",
        "AS 3S 5S 7S 9D JD KS QS",
    ];
    for players in [2, 3, 4] {
        // Row 0: 2H and 3H face-up; seat 0 puts 4H on cell 2.
        let mut script = vec![(0, place("2H", 0)), (1, place("3H", 1))];
        script.extend((2..players).map(|s| (s, place(["AC", "AS"][s - 2], 5 + s))));
        script.extend([(0, flip(0)), (1, flip(1))]);
        script.extend((2..players).map(|s| (s, place(["3C", "3S"][s - 2], 3))));
        script.push((0, place("4H", 2)));
        script.push((1, place("6D", 4)));
        script.extend((2..players).map(|s| (s, place(["9C", "5S"][s - 2], 6 + (s - 2)))));
        let mv = decision(players, &hands[..players], &script, 0, "ismcts:300");
        assert_eq!(mv, Move::Flip { cell: 2, call: true }, "{players} players");
    }
    // A longer game before the same sure Flush: face-down cards of seat 1
    // that seat 0 does not know lie on the grid too.
    let script = [
        (0, place("2H", 0)),
        (1, place("3H", 1)),
        (0, flip(0)),
        (1, flip(1)),
        (0, place("5C", 5)),
        (1, place("10C", 8)),
        (0, flip(5)),
        (1, place("6D", 6)),
        (0, place("4H", 2)),
        (1, place("8D", 3)),
    ];
    let mv = decision(2, &hands[..2], &script, 0, "ismcts:300");
    assert_eq!(
        mv,
        Move::Flip { cell: 2, call: true },
        "the sure Flush, not the guess"
    );
}

/// A determinization (`View::determinize` from a world of
/// `Problem::uniform_world`) is a valid table that keeps everything the
/// player sees and puts the world's cards where the world says: the other
/// hands, and the cards of the Places the player did not see.
#[test]
fn a_determinization_keeps_what_the_player_sees_and_deals_the_world() {
    use sim::games::flip_flush::worlds::Problem;
    let mut checked = 0;
    for g in 0..30u64 {
        let players = 2 + (g % 3) as usize;
        let memory = [MEMORY_ONE, 500_000, 0][(g % 3) as usize];
        let mut t = Table::new(Rules {
            players,
            gambling: g % 2 == 0,
            memory,
        });
        let mut rng = batch_rng(g, 3);
        t.new_game(&mut rng);
        let mut seats = Seats::new(vec![Policy::default_policy(); players]);
        for turn in 0..40 {
            let seat = turn % players;
            if !t.is_alive(seat) || (t.hand(seat) == 0 && t.grid().masks().1 == 0) {
                continue;
            }
            let v = t.view(seat);
            let p = Problem::from_view(&v, 0, &[0; 9], 100_000);
            let mut cards = vec![0; p.events.len()];
            let mut hands = vec![0; players];
            p.uniform_world(&mut rng, &mut cards, &mut hands);
            let w = v.determinize(&cards, &hands, &mut rng);
            w.check_invariants()
                .unwrap_or_else(|e| panic!("game {g}, turn {turn}: {e}"));
            let wv = w.view(seat);
            assert_eq!(
                (
                    wv.hand(),
                    wv.unseen(),
                    wv.up_code(),
                    wv.down(),
                    wv.known(),
                    wv.history_len()
                ),
                (
                    v.hand(),
                    v.unseen(),
                    v.up_code(),
                    v.down(),
                    v.known(),
                    v.history_len()
                )
            );
            for i in 0..v.history_len() {
                assert_eq!(wv.history(i), v.history(i), "move {i} as seat {seat} saw it");
            }
            for s in (0..players).filter(|&s| s != seat && t.is_alive(s)) {
                assert_eq!(w.hand(s), hands[s], "seat {s}'s hand is the world's");
            }
            let mut place = 0;
            for i in 0..w.log_len() {
                let e = w.log_entry(i);
                if !e.flip {
                    assert_eq!(e.card, Some(cards[place]), "Place {place} holds the world's card");
                    place += 1;
                }
            }
            checked += 1;
            let mv = seats.choose(&v, &mut rng);
            if t.apply(seat, mv, &mut Silent, &mut rng).is_some() {
                break;
            }
        }
    }
    assert!(checked > 300, "{checked} positions");
}
