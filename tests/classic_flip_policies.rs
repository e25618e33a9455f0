//! Classic Flip policies and invariants: every card in exactly one place
//! after every event, the hand limit kept by policies that do not bluff,
//! every game ends, for every player count; policies see only what their
//! player can know (re-dealing every card the player cannot know never
//! changes a decision); the policies' own rules.

use sim::engine::rng::{Draw, SimRng, batch_rng, game_rng};
use sim::games::classic_flip::cards::*;
use sim::games::classic_flip::policies::{Policy, Seats, chance_of_limit10};
use sim::games::classic_flip::rules::*;

/// Checks the table after every event: every card in one place; at the
/// end of a turn the hand within the limit for seats that do not bluff.
struct Invariants {
    bluffers: u8,
    events: u64,
    rounds: u64,
}

impl Observer<Table> for Invariants {
    const EVENTS: bool = true;
    fn event(&mut self, t: &Table, e: Event) {
        t.check();
        self.events += 1;
        if let Event::Discarded {
            seat, kept, limit, ..
        } = e
        {
            assert_eq!(kept, count(t.hand(seat)));
            if self.bluffers & (1 << seat) == 0 {
                assert!(kept <= limit, "seat {seat} kept {kept} over {limit}");
            }
        }
        if let Event::PenaltyDiscard { seat, .. } = e {
            assert_eq!(count(t.hand(seat)), 6);
        }
    }
    fn round_end(&mut self, t: &Table) {
        self.rounds += 1;
        if let Some(c) = t.caller() {
            assert!(!t.cut_off() || t.turns() >= t.rules().round_cap, "caller {c}");
        }
    }
}

/// A two-player table with these hands, community and game totals, every
/// other card in the draw pile.
pub(crate) fn two_hands(hand0: CardSet, hand1: CardSet, community: [&str; 3], totals: [u32; 2]) -> Table {
    let deck = Rules::standard(2).deck.all;
    let com = community.map(|x| parse(x).unwrap());
    let used = hand0 | hand1 | com.iter().fold(0, |m, &c| m | bit(c));
    let mut t = Table::new(Rules::standard(2));
    t.set_position(&Position {
        hands: vec![hand0, hand1],
        community: com,
        draw: cards_of(deck & !used).collect(),
        discard: 0,
        totals: totals.to_vec(),
        ..Default::default()
    });
    t
}

/// The set of the named cards (`RK`, `B8`, ...).
fn cards(names: &[&str]) -> CardSet {
    names.iter().fold(0, |m, c| m | bit(parse(c).unwrap()))
}

fn lineup(players: usize, specs: &[&str]) -> Vec<Policy> {
    (0..players)
        .map(|s| Policy::parse(specs[s % specs.len()]).unwrap())
        .collect()
}

#[test]
fn every_card_stays_in_one_place_limits_hold_and_every_game_ends_for_every_player_count() {
    let specs = [
        "collector",
        "random",
        "thief+sheriff:0.5",
        "bluffer:9+caller:20",
        "thief+bluffer:10",
    ];
    for players in 2..=8 {
        let policies = lineup(players, &specs);
        let bluffers = (0..players)
            .filter(|&s| policies[s].bluff > 7)
            .fold(0u8, |m, s| m | 1 << s);
        let mut rules = Rules::standard(players);
        rules.round_cap = 400;
        let mut t = Table::new(rules);
        let mut seats = Seats::new(policies);
        let mut obs = Invariants {
            bluffers,
            events: 0,
            rounds: 0,
        };
        let mut batch = batch_rng(players as u64, 7);
        for _ in 0..30 {
            let mut rng = game_rng(&mut batch);
            let end = t.play_game(&mut seats, &mut obs, &mut rng);
            if let Some(w) = end.winner {
                assert!(t.total(w) >= rules.target);
            }
        }
        assert!(obs.rounds >= 30);
    }
}

#[test]
fn one_deck_with_eight_players_and_every_action_switched_off_still_plays() {
    for (decks, off) in [(1, 0u8), (2, 0xFF)] {
        let mut rules = Rules::standard(8);
        rules.deck = Deck::new(decks, DEFAULT_GOLD, off);
        rules.off = off;
        let mut t = Table::new(rules);
        let mut seats = Seats::new(lineup(8, &["thief", "random"]));
        let mut obs = Invariants {
            bluffers: 0,
            events: 0,
            rounds: 0,
        };
        let mut batch = batch_rng(3, 3);
        for _ in 0..10 {
            let mut rng = game_rng(&mut batch);
            t.play_game(&mut seats, &mut obs, &mut rng);
        }
    }
}

/// Wraps the seats: before every decision, asks the same policy again in
/// a world where every card the player cannot know is dealt again, with
/// the same random numbers; the answers must agree.
struct Blindfold {
    seats: Seats,
    worlds: SimRng,
    checked: u64,
}

impl Blindfold {
    fn same<T: PartialEq + std::fmt::Debug, D: Draw + Clone>(
        &mut self,
        v: &View<'_>,
        d: &mut D,
        ask: impl Fn(&mut Seats, &View<'_>, &mut D) -> T,
    ) -> T {
        let mut d2 = d.clone();
        let a = ask(&mut self.seats, v, d);
        let world = v.sample_world(&mut self.worlds);
        let b = ask(&mut self.seats, &View::new(&world, v.seat()), &mut d2);
        assert_eq!(a, b, "seat {} decided differently in another world", v.seat());
        self.checked += 1;
        a
    }
}

impl Chooser for Blindfold {
    fn start<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Start {
        let mut r = SimRng::from_seed_u64(u64::from(d.below(u32::MAX)));
        self.same(v, &mut r, |s, v, d| s.start(v, d))
    }
    fn take_pick<D: Draw>(&mut self, v: &View<'_>, target: usize, d: &mut D) -> Card {
        let mut r = SimRng::from_seed_u64(u64::from(d.below(u32::MAX)));
        self.same(v, &mut r, |s, v, d| s.take_pick(v, target, d))
    }
    fn block<D: Draw>(&mut self, v: &View<'_>, by: usize, f: Func, d: &mut D) -> Option<Card> {
        let mut r = SimRng::from_seed_u64(u64::from(d.below(u32::MAX)));
        self.same(v, &mut r, |s, v, d| s.block(v, by, f, d))
    }
    fn challenge<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Option<usize> {
        let mut r = SimRng::from_seed_u64(u64::from(d.below(u32::MAX)));
        self.same(v, &mut r, |s, v, d| s.challenge(v, d))
    }
    fn discard<D: Draw>(&mut self, v: &View<'_>, limit: u32, forced: bool, d: &mut D) -> CardSet {
        let mut r = SimRng::from_seed_u64(u64::from(d.below(u32::MAX)));
        self.same(v, &mut r, |s, v, d| s.discard(v, limit, forced, d))
    }
    fn take_penalty<D: Draw>(&mut self, v: &View<'_>, pile: CardSet, d: &mut D) -> CardSet {
        let mut r = SimRng::from_seed_u64(u64::from(d.below(u32::MAX)));
        self.same(v, &mut r, |s, v, d| s.take_penalty(v, pile, d))
    }
}

trait FromSeed {
    fn from_seed_u64(s: u64) -> Self;
}
impl FromSeed for SimRng {
    fn from_seed_u64(s: u64) -> SimRng {
        rand::SeedableRng::seed_from_u64(s)
    }
}

#[test]
fn re_dealing_every_card_a_player_cannot_know_never_changes_a_decision() {
    let cases: [(&[&str], usize, u32); 6] = [
        (&["collector", "thief+sheriff:0.4", "bluffer:9", "random"], 4, 20),
        (&["counter", "thief"], 2, 6),
        (&["counter+sheriff:0.3", "thief+bluffer:10", "collector"], 3, 4),
        (&["rollout:2", "thief"], 2, 1),
        // Rollout challenges and discards (bluffers to challenge).
        (&["rollout:2+sheriff:0.3", "bluffer:10", "thief+bluffer:9"], 3, 1),
        (&["counter+thief", "rollout:1", "bluffer:10", "counter"], 4, 1),
    ];
    for (specs, players, games) in cases {
        let mut t = Table::new(Rules::standard(players));
        let mut ch = Blindfold {
            seats: Seats::new(lineup(players, specs)),
            worlds: batch_rng(99, players as u64),
            checked: 0,
        };
        let mut batch = batch_rng(5, players as u64);
        for _ in 0..games {
            let mut rng = game_rng(&mut batch);
            t.play_game(&mut ch, &mut Silent, &mut rng);
        }
        assert!(ch.checked > 100, "{specs:?}: {} decisions", ch.checked);
    }
}

#[test]
fn sheriff_chance_is_the_hypergeometric_count_over_the_unseen_cards() {
    // Seat 1 holds 8 unknown cards; seat 0 sees its own hand, the
    // community and the discard pile: the rest is unseen.
    let deck = Rules::standard(2).deck.all;
    let hand0 = bit(parse("R2").unwrap());
    let hand1: CardSet = cards_of(deck & !ACTION_CARDS & !hand0)
        .take(8)
        .fold(0, |m, c| m | bit(c));
    let t = two_hands(hand0, hand1, ["PA", "PK", "PQ"], [0, 0]);
    let v = View::new(&t, 0);
    let u = count(v.unseen());
    assert_eq!(u, 54 - 1 - 3);
    let mut none = 1.0;
    for i in 0..8 {
        none *= f64::from(u - 2 - i) / f64::from(u - i);
    }
    assert!((chance_of_limit10(&v, 1) - (1.0 - none)).abs() < 1e-12);
}

#[test]
fn caller_waits_for_its_threshold_and_collector_calls_at_once() {
    let t = two_hands(
        cards(&["RK", "BK", "PK", "R8", "B8"]),
        cards(&["B2"]),
        ["R2", "R3", "R4"],
        [0, 0],
    );
    let v = View::new(&t, 0);
    assert_eq!(v.score().points, 10);
    let mut rng = batch_rng(1, 1);
    assert_eq!(
        Policy::parse("collector").unwrap().start(&v, &mut rng),
        Start::Flip
    );
    assert_eq!(
        Policy::parse("caller:10").unwrap().start(&v, &mut rng),
        Start::Flip
    );
    assert_ne!(
        Policy::parse("caller:20").unwrap().start(&v, &mut rng),
        Start::Flip
    );
}

/// A two-player table: seat 0 holds nine cards, seat 1 `n` number cards
/// (none of them a 7>>>10 or Any), the rest is the draw pile.
fn over_limit_table(n: usize) -> Table {
    let deck = Rules::standard(2).deck.all;
    let hand0: CardSet = cards(&["RK", "BK", "PK", "R3", "B3", "P9", "R10", "B6", "2X"]);
    let com = [parse("R2").unwrap(), parse("B4").unwrap(), parse("P5").unwrap()];
    let used0 = hand0 | com.iter().fold(0, |m, &c| m | bit(c));
    let hand1: CardSet = cards_of(deck & !ACTION_CARDS & !used0 & !WILD)
        .step_by(3)
        .take(n)
        .fold(0, |m, c| m | bit(c));
    two_hands(hand0, hand1, ["R2", "B4", "P5"], [0, 0])
}

#[test]
fn rollout_challenge_and_discard_are_the_same_in_every_world_its_player_cannot_tell_apart() {
    let mut p = Policy::parse("rollout:6").unwrap();
    for n in [9, 11] {
        let t = over_limit_table(n);
        let v = View::new(&t, 0);
        let mut worlds = batch_rng(7, n as u64);
        let real_c = p.challenge(&v, &mut batch_rng(1, 1));
        let real_d = p.discard(&v, 7, false, &mut batch_rng(1, 2));
        assert!(count(real_d) >= 1, "nine cards: something to decide");
        for _ in 0..10 {
            let w = v.sample_world(&mut worlds);
            assert_ne!(w.hand(1), t.hand(1), "the world re-deals seat 1's hand");
            let wv = View::new(&w, 0);
            assert_eq!(p.challenge(&wv, &mut batch_rng(1, 1)), real_c, "{n} cards");
            assert_eq!(
                p.discard(&wv, 7, false, &mut batch_rng(1, 2)),
                real_d,
                "{n} cards"
            );
        }
        if n == 11 {
            // Eleven cards always lose a challenge: the playouts see it.
            assert_eq!(real_c, Some(1));
        }
    }
}

#[test]
fn sheriff_bluff_prior_chance_is_bayes_over_every_composition_of_the_hidden_hand() {
    use sim::games::classic_flip::policies::chance_given_over_limit;
    // Seat 1 holds 8 unknown cards; two 7>>>10/Any cards are unseen.
    let t = over_limit_table(8);
    let v = View::new(&t, 0);
    let u = count(v.unseen());
    let g = count(v.unseen() & LIMIT10);
    assert_eq!(g, 2);
    let binom = |n: u32, k: u32| -> f64 {
        if k > n {
            return 0.0;
        }
        (0..k).fold(1.0, |r, i| r * f64::from(n - i) / f64::from(i + 1))
    };
    for b in [0.0, 0.1, 0.5, 0.9, 1.0] {
        // Every hidden hand by how many 7>>>10/Any it holds (j), weighted
        // by how many hands have that j; a bluffer is over seven whatever
        // it holds, an honest player only with j > 0.
        let (mut hold, mut over) = (0.0, 0.0);
        for j in 0..=2u32 {
            let hands = binom(g, j) * binom(u - g, 8 - j);
            let likelihood = b + (1.0 - b) * if j > 0 { 1.0 } else { 0.0 };
            over += hands * likelihood;
            if j > 0 {
                hold += hands * likelihood;
            }
        }
        let e = chance_given_over_limit(&v, 1, b);
        assert!((e - hold / over).abs() < 1e-12, "b {b}: {e} vs {}", hold / over);
    }
    // The public chance at b = 1; certainty that it holds one at b = 0.
    assert!((chance_given_over_limit(&v, 1, 1.0) - chance_of_limit10(&v, 1)).abs() < 1e-12);
    assert_eq!(chance_given_over_limit(&v, 1, 0.0), 1.0);
}

#[test]
fn counter_discard_keeps_the_seven_with_the_best_expected_score_after_one_more_card() {
    // Seat 0 holds nine number cards and must drop two; brute force: every
    // seven of them, each valued by the mean score over every unseen card.
    let hand0: CardSet = cards(&["RK", "BK", "PK", "GK", "R3", "B3", "P9", "R10", "B6"]);
    let t = two_hands(hand0, cards(&["P2", "B2"]), ["R2", "B9", "G9"], [0, 0]);
    let com_set = t.community_set();
    let v = View::new(&t, 0);
    let unseen = v.unseen();
    let value = |k: CardSet| {
        cards_of(unseen)
            .map(|c| f64::from(points(k | com_set | bit(c))))
            .sum::<f64>()
            / f64::from(count(unseen))
    };
    let cards: Vec<Card> = cards_of(hand0).collect();
    let mut best = f64::MIN;
    for a in 0..9 {
        for b in a + 1..9 {
            best = best.max(value(hand0 & !bit(cards[a]) & !bit(cards[b])));
        }
    }
    let out = Policy::parse("counter")
        .unwrap()
        .discard(&v, 7, false, &mut batch_rng(1, 1));
    assert_eq!(count(out), 2);
    assert!(
        (value(hand0 & !out) - best).abs() < 1e-9,
        "kept {}",
        names(hand0 & !out)
    );
}

#[test]
fn counter_calls_once_more_points_cannot_matter_and_waits_while_a_draw_gains_more_than_it_gives() {
    // Seat 0: five Kings with a Wild 8 (10 points, a 2X or a gold King
    // would double it); seat 1 holds two low cards.
    let (hand0, hand1) = (cards(&["RK", "BK", "PK", "R8", "B8"]), cards(&["B2", "P3"]));
    let position = |totals: [u32; 2]| two_hands(hand0, hand1, ["R2", "R3", "R4"], totals);
    let mut p = Policy::parse("counter").unwrap();
    // 195 + 10 wins the game: more points are worth nothing.
    let t = position([195, 0]);
    assert_eq!(p.start(&View::new(&t, 0), &mut batch_rng(1, 1)), Start::Flip);
    // From 0, a draw two is worth more to it than a turn is to the
    // opponent with two low cards.
    let t = position([0, 0]);
    assert_ne!(p.start(&View::new(&t, 0), &mut batch_rng(1, 1)), Start::Flip);
}

/// Seat 0 plays `play` to start its turn, seat 1 decides its Block with
/// `blocker` (answers recorded), everybody else plays `collector`.
struct OneAction {
    play: Option<Play>,
    blocker: Policy,
    blocks: Vec<Option<Card>>,
}

impl Chooser for OneAction {
    fn start<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Start {
        match self.play.take() {
            Some(p) if v.seat() == 0 => Start::Play(p),
            _ => Policy::default().start(v, d),
        }
    }
    fn take_pick<D: Draw>(&mut self, v: &View<'_>, target: usize, d: &mut D) -> Card {
        Policy::default().take_pick(v, target, d)
    }
    fn block<D: Draw>(&mut self, v: &View<'_>, by: usize, f: Func, d: &mut D) -> Option<Card> {
        if v.seat() != 1 {
            return Policy::default().block(v, by, f, d);
        }
        let b = self.blocker.block(v, by, f, d);
        self.blocks.push(b);
        b
    }
    fn challenge<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Option<usize> {
        Policy::default().challenge(v, d)
    }
    fn discard<D: Draw>(&mut self, v: &View<'_>, limit: u32, forced: bool, d: &mut D) -> CardSet {
        Policy::default().discard(v, limit, forced, d)
    }
    fn take_penalty<D: Draw>(&mut self, v: &View<'_>, pile: CardSet, d: &mut D) -> CardSet {
        Policy::default().take_penalty(v, pile, d)
    }
}

#[test]
fn rollout_blocks_a_take_aimed_at_its_any_with_the_block_card_not_the_any() {
    // Seat 1 holds four Kings, Any and a Draw/Block: an unblocked Take
    // would take the Any (the most valuable card); blocking with the Any
    // gives it away as surely. The playouts must pick the Draw/Block.
    let t = two_hands(
        cards(&["Draw/Take", "R2", "B5"]),
        cards(&["Draw/Block", "Any", "RK", "BK", "PK", "GK"]),
        ["R3", "B4", "P6"],
        [0, 0],
    );
    let mut take = Play::new(parse("Draw/Take").unwrap(), Func::Take);
    take.target = 1;
    for (spec, seed) in [("rollout:64", 1), ("rollout:64", 2), ("collector", 1)] {
        let mut ch = OneAction {
            play: Some(take),
            blocker: Policy::parse(spec).unwrap(),
            blocks: Vec::new(),
        };
        let mut w = t.clone();
        w.full_turn(0, &mut ch, &mut Silent, &mut batch_rng(seed, 0));
        assert_eq!(ch.blocks, [Some(parse("Draw/Block").unwrap())], "{spec}");
        assert!(w.hand(1) & ANY_CARDS != 0, "{spec}: the Any stays");
    }
}
