//! IB-Flip policies (`src/games/ib_flip/policies.rs`): what each play rule
//! and fixing choice does in a position built for it, and the determinized
//! worlds of `rollout:K` (only consistent worlds).

use sim::engine::rng::{Stacked, batch_rng};
use sim::games::ib_flip::cards::*;
use sim::games::ib_flip::policies::Policy;
use sim::games::ib_flip::rules::*;

fn set(text: &str) -> CardSet {
    parse_set(text).unwrap()
}

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace().map(|t| parse(t).unwrap()).collect()
}

/// A position: hands, face-up cards, face-down cards (`None`: three spare
/// cards), live cards (bottom first), discard pile; seat 0 to move.
fn table(
    players: usize,
    hands: &[&str],
    ups: &[&str],
    downs: &[Option<&str>],
    live: &str,
    discard: &str,
) -> Table {
    let mut pos = Position {
        hands: hands.iter().map(|h| set(h)).collect(),
        ups: (0..players).map(|s| ups.get(s).map_or(0, |u| set(u))).collect(),
        downs: vec![Vec::new(); players],
        live: cards(live).into_iter().map(|c| (c, 0)).collect(),
        discard: set(discard),
        ..Default::default()
    };
    let mut used = pos.discard | pos.live.iter().fold(0, |m, &(c, _)| m | 1 << c);
    for s in 0..players {
        used |= pos.hands[s] | pos.ups[s];
        if let Some(Some(d)) = downs.get(s) {
            pos.downs[s] = cards(d);
            used |= set(d);
        }
    }
    let mut free = cards_of(ALL & !used).collect::<Vec<_>>().into_iter();
    for s in 0..players {
        if downs.get(s).is_none_or(|d| d.is_none()) {
            pos.downs[s] = (&mut free).take(3).collect();
        }
    }
    let mut t = Table::new(Rules::standard(players));
    t.set_position(&pos);
    t
}

fn act(spec: &str, t: &Table) -> Action {
    Policy::parse(spec)
        .unwrap()
        .act(&View::new(t, t.current()), &mut Stacked)
}

fn play(rank: &str, count: u8) -> Action {
    Action::Play {
        rank: parse_rank(rank).unwrap(),
        count,
    }
}

#[test]
fn lowest_plays_the_lowest_rank_in_the_game_order_every_copy() {
    let t = table(2, &["3H 3D 5H KH", "2S"], &[], &[], "", "");
    assert_eq!(act("lowest", &t), play("3", 2));
}

#[test]
fn every_policy_avoids_the_eight_that_flips_the_eights() {
    let t = table(3, &["8S KH", "2S", "2D"], &[], &[], "8H 8D 8C", "");
    for spec in ["lowest", "saver", "attacker", "finisher", "counter"] {
        assert_eq!(act(spec, &t), play("K", 1), "{spec}");
    }
    // Two 8s in hand on two 8s: only one is played.
    let t = table(3, &["8S 8C KH", "2S", "2D"], &[], &[], "8H 8D", "");
    assert_eq!(act("lowest", &t), play("8", 1));
    let t = table(3, &["8S 8C", "2S", "2D"], &[], &[], "JH 8D", "");
    assert_eq!(act("lowest", &t), play("8", 2));
}

#[test]
fn saver_keeps_power_cards_and_burns_at_its_threshold() {
    let t = table(2, &["2H 10H 7H KH", "2S"], &[], &[], "QH", "");
    assert_eq!(act("saver", &t), play("K", 1));
    assert_eq!(act("lowest", &t), play("K", 1));
    // Only power cards: the lowest of them, one 2 or 10 at a time.
    let t = table(2, &["2H 10H 7H", "2S"], &[], &[], "QH", "");
    assert_eq!(act("saver", &t), play("7", 1));
    let t = table(2, &["2H 2D 10H", "2S"], &[], &[], "QH", "");
    assert_eq!(act("saver", &t), play("2", 1));
    assert_eq!(act("lowest", &t), play("2", 2));
    let t = table(2, &["10H KH", "2S"], &[], &[], "3H 3D 6H 6D 8H 9H JH QH", "");
    assert_eq!(act("saver+burn-at:8", &t), play("10", 1));
    assert_eq!(act("saver+burn-at:9", &t), play("K", 1));
}

#[test]
fn finisher_plays_a_two_before_its_last_card() {
    // Last cards: a 2 and a K. Lowest plays the K, then must finish on the 2.
    let t = table(2, &["2H KH", "2S"], &[], &[Some(""), None], "QH", "");
    assert_eq!(act("lowest", &t), play("K", 1));
    assert_eq!(act("finisher", &t), play("2", 1));
    // Last card choice: an 8 would come back (two players), a K would not.
    let t = table(2, &["8H 8D KH", "2S"], &[], &[Some(""), None], "6H", "");
    assert_eq!(act("finisher", &t), play("8", 2));
}

#[test]
fn attacker_skips_a_next_player_close_to_finishing() {
    // Seat 1 has one face-down card left; three players.
    let t = table(
        3,
        &["3H 8H", "2S KS QS", "2D KD QD"],
        &[],
        &[None, Some("AS"), None],
        "",
        "",
    );
    let t = {
        let mut t = t;
        let mut pos = Position {
            hands: (0..3).map(|s| t.hand(s)).collect(),
            ups: vec![0; 3],
            downs: (0..3).map(|s| t.downs(s).to_vec()).collect(),
            ..Default::default()
        };
        pos.hands[1] = 0;
        t.set_position(&pos);
        t
    };
    assert_eq!(act("attacker", &t), play("8", 1));
    assert_eq!(act("lowest", &t), play("3", 1));
}

#[test]
fn counter_sends_a_seven_to_a_player_known_to_hold_only_high_cards() {
    // Seat 1 picked up (known) K, Q, J, A: nothing 7 or lower; a big pile.
    let t = table(
        2,
        &["3H 7H", "KS QS JS 9S"],
        &[],
        &[],
        "6H 6D 6C 8H 8D 9H 9C JH QH 3D",
        "",
    );
    let mut pos = Position {
        hands: vec![t.hand(0), t.hand(1)],
        ups: vec![0, 0],
        downs: vec![t.downs(0).to_vec(), t.downs(1).to_vec()],
        live: t.live().collect(),
        known: vec![0, set("KS QS JS 9S")],
        ..Default::default()
    };
    pos.cur = 0;
    let mut t = t;
    t.set_position(&pos);
    assert_eq!(act("counter", &t), play("7", 1));
    assert_eq!(act("lowest", &t), play("3", 1));
}

#[test]
fn fixing_strong_keep_and_stack() {
    let t = table(2, &["KH KD 3H", "2S"], &["5H 4H 6H", ""], &[], "", "");
    let v = View::new(&t, 0);
    let fix = |spec: &str| Policy::parse(spec).unwrap().fix(&v, &mut Stacked);
    assert_eq!(fix("lowest"), set("5H 4H KH"));
    assert_eq!(fix("lowest+fix:keep"), set("5H 4H 6H"));
    assert_eq!(fix("lowest+fix:stack"), set("5H 4H KH KD"));
}

#[test]
fn determinized_worlds_keep_everything_the_player_knows_and_every_count() {
    let mut t = Table::new(Rules::standard(4));
    let mut rng = batch_rng(5, 5);
    t.new_game(&mut rng);
    let mut seats = sim::games::ib_flip::policies::Seats::new(vec![Policy::parse("lowest").unwrap(); 4]);
    t.set_move_cap(0);
    t.play_game(&mut seats, &mut Silent, &mut rng);
    for _ in 0..60 {
        if t.active_count() < 2 {
            break;
        }
        t.turn(&mut seats, &mut Silent, &mut rng);
        let p = t.current();
        let v = View::new(&t, p);
        let w = v.sample_world(&mut batch_rng(9, t.moves().into()));
        w.check();
        let unseen = v.unseen();
        assert_eq!(w.hand(p), t.hand(p));
        assert_eq!(w.live().collect::<Vec<_>>(), t.live().collect::<Vec<_>>());
        assert_eq!(w.draw_count(), t.draw_count());
        for q in 0..4 {
            assert_eq!(w.up(q), t.up(q));
            assert_eq!(w.downs(q).len(), t.downs(q).len());
            assert_eq!(w.hand(q).count_ones(), t.hand(q).count_ones());
            assert_eq!(w.hand(q) & t.known(q), t.known(q), "known cards stay");
            if q != p {
                assert_eq!(
                    w.hand(q) & !t.known(q) & !unseen,
                    0,
                    "only unseen cards are dealt"
                );
            }
            for &c in w.downs(q) {
                assert!(unseen & (1 << c) != 0);
            }
        }
        assert_eq!(
            w.discard() & !w.discard_hidden(),
            t.discard() & !t.discard_hidden()
        );
    }
}
