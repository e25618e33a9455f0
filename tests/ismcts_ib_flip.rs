//! IB-Flip's `ismcts:N` (the engine's information-set Monte Carlo tree
//! search, `src/games/ib_flip/search.rs`): its specs, that it sees only
//! what its player may know, that runs repeat on any number of threads and
//! in every kind of run, and that it makes the obvious decisions.

use crate::common::{ok, sim};

use sim::engine::rng::batch_rng;
use sim::games::ib_flip::IbFlipSim;
use sim::games::ib_flip::cards::*;
use sim::games::ib_flip::policies::{Play, Policy, Seats};
use sim::games::ib_flip::rules::*;

fn set(text: &str) -> CardSet {
    parse_set(text).unwrap_or_else(|| panic!("bad cards {text}"))
}

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace().map(|t| parse(t).unwrap()).collect()
}

/// `ismcts:N` and its playout parse, print back, default to the game's
/// default policy, and bad values are refused naming them and what is
/// accepted.
#[test]
fn specs_parse_print_back_and_refuse_bad_values() {
    for spec in [
        "ismcts:100",
        "ismcts:5+playout:counter",
        "ismcts:7+playout:saver+burn-at:8+fix:stack",
        "ismcts:1000000+playout:random+fix:keep",
    ] {
        assert_eq!(Policy::parse(spec).unwrap().to_string(), spec);
    }
    let p = Policy::parse("ismcts:9+playout:finisher").unwrap();
    assert_eq!(p.to_string(), "ismcts:9");
    match p.play {
        Play::Ismcts(s) => {
            assert_eq!(s.n, 9);
            assert_eq!(s.playout.to_string(), sim::games::ib_flip::IbFlip::DEFAULT_POLICY);
        }
        other => panic!("ismcts:9 parsed as {other:?}"),
    }
    assert!(!p.deterministic());
    for (bad, says) in [
        (
            "ismcts:0",
            "'ismcts:0': N must be a whole number from 1 to 1000000 (ismcts:N)",
        ),
        (
            "ismcts:abc",
            "'ismcts:abc': N must be a whole number from 1 to 1000000",
        ),
        ("ismcts:1000001", "from 1 to 1000000"),
        (
            "ismcts:10+playout:rollout:4",
            "the playout RULE 'rollout:4' must be a rule cheap to simulate",
        ),
        (
            "ismcts:10+playout:ismcts:3",
            "the playout RULE 'ismcts:3' must be a rule cheap to simulate",
        ),
        (
            "counter+playout:lowest",
            "playout:RULE is a choice of ismcts:N only",
        ),
        ("ismcts:3+playout:saver+playout:lowest", "playout is chosen twice"),
        ("ismcts:3+burn-at:8", "goes with saver only"),
    ] {
        let e = Policy::parse(bad).unwrap_err();
        assert!(e.contains(says), "{bad}: {e}");
        assert!(
            e.contains("accepted:") || e.contains("random, lowest, saver"),
            "{bad}: {e}"
        );
    }
}

use sim::engine::game::Game;

/// `sim ib-flip --list-policies` lists `ismcts:N` and its playout choice.
#[test]
fn the_catalogue_lists_ismcts_and_its_playout() {
    let dir = tempfile::tempdir().unwrap();
    let out = ok(&sim(&["ib-flip", "--list-policies"], dir.path()));
    assert!(
        out.contains("ismcts:N") && out.contains("information-set Monte Carlo tree search"),
        "{out}"
    );
    assert!(out.contains("playout:RULE"), "{out}");
}

/// At many turns of several games, an `ismcts` seat answers the same on
/// the table and on a world where every card its player cannot locate is
/// dealt anew (each side with the same random numbers): only what the
/// player sees may matter. The re-deals do move cards.
#[test]
fn redealing_what_the_player_cannot_know_never_changes_a_search() {
    let policy = Policy::parse("ismcts:24").unwrap();
    let mut checked = 0;
    let mut moved = 0;
    for players in [2, 3] {
        let seats = Seats::new(vec![Policy::parse("finisher").unwrap(); players]);
        for g in 0..5u64 {
            let mut t = Table::new(Rules::standard(players));
            let mut rng = batch_rng(g, players as u64);
            t.new_game(&mut rng);
            let mut seats = seats.clone();
            // Fix and start like a real game (a cap of 0 stops it there).
            t.set_move_cap(0);
            t.play_game(&mut seats, &mut Silent, &mut rng);
            while t.active_count() >= 2 && t.moves() < 200 {
                let p = t.current();
                if t.zone(p) != Zone::FaceDown && t.legal(p).count_ones() >= 2 {
                    let v = View::new(&t, p);
                    let mut a = batch_rng(99, t.moves().into());
                    let mut b = a.clone();
                    let here = policy.act(&v, &mut a);
                    let world = v.sample_world(&mut batch_rng(7, t.moves().into()));
                    world.check();
                    if (0..players).any(|q| q != p && world.hand(q) != t.hand(q))
                        || (0..players).any(|q| world.downs(q) != t.downs(q))
                    {
                        moved += 1;
                    }
                    let there = policy.act(&View::new(&world, p), &mut b);
                    assert_eq!(
                        here, there,
                        "the search changed with cards its player cannot know"
                    );
                    checked += 1;
                }
                t.turn(&mut seats, &mut Silent, &mut rng);
            }
        }
    }
    assert!(checked >= 100, "only {checked} decisions checked");
    assert!(
        moved * 10 >= checked * 9,
        "the re-deals moved hidden cards in {moved} of {checked}"
    );
}

/// A run with an `ismcts` seat gives the same statistics on 1 and 2
/// threads (two batches of games).
#[test]
fn runs_repeat_on_one_and_two_threads() {
    let policies = vec![
        Policy::parse("ismcts:3").unwrap(),
        Policy::parse("counter").unwrap(),
    ];
    let sim = IbFlipSim::new(Rules::standard(2), &policies).unwrap();
    let one = crate::common::same_on_one_and_two_threads(&sim, 1100, "ib-flip");
    assert_eq!(one.games, 1100);
}

/// `ismcts:N` plays in a plain run, a tournament, a sweep, and a run cut
/// into shards and merged (the merged CSV is the bytes of the whole run);
/// a bad N is refused naming it.
#[test]
fn ismcts_plays_in_runs_tournaments_sweeps_and_shards() {
    crate::common::ismcts_in_every_kind_of_run("ib-flip", "finisher");
}

/// The action `spec` takes for seat 0 to move in a two-player position.
fn decision(pos: &Position, spec: &str) -> Action {
    let mut t = Table::new(Rules::standard(2));
    t.set_position(pos);
    Policy::parse(spec)
        .unwrap()
        .act(&View::new(&t, 0), &mut batch_rng(5, 0))
}

/// Two positions where one play wins and the others lose, and `lowest`
/// plays another: the search finds the winning play.
#[test]
fn obvious_decisions() {
    // Last two cards, a 10 and a 6: the 10 first (it flips the pile, play
    // again), then the 6 finishes legally; the 6 first leaves a finish on
    // a 10, which is illegal (last place).
    let last_two = Position {
        hands: vec![set("10H 6S"), set("KH KD QC JS 9H")],
        ups: vec![0, 0],
        downs: vec![Vec::new(), cards("JH JD QH")],
        live: vec![(parse("3D").unwrap(), 0)],
        cur: 0,
        ..Default::default()
    };
    let ten = Action::Play { rank: TEN, count: 1 };
    assert_ne!(decision(&last_two, "lowest"), ten);
    for n in ["ismcts:100", "ismcts:1000"] {
        assert_eq!(decision(&last_two, n), ten, "{n}");
    }
    // The opponent's last card is a King everybody knows of (it picked it
    // up): only a 7 (7 or lower on it) stops it from finishing first.
    let block = Position {
        hands: vec![set("7H 6S 9D JC"), set("KH")],
        ups: vec![0, 0],
        downs: vec![cards("QH QD QC"), Vec::new()],
        live: vec![(parse("3C").unwrap(), 0)],
        known: vec![0, set("KH")],
        cur: 0,
        ..Default::default()
    };
    let seven = Action::Play {
        rank: SEVEN,
        count: 1,
    };
    assert_ne!(decision(&block, "lowest"), seven);
    for n in ["ismcts:100", "ismcts:1000"] {
        assert_eq!(decision(&block, n), seven, "{n}");
    }
}
