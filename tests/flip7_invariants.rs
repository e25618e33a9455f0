//! Invariants of whole random games: every card is in exactly one place at
//! every moment, every game ends, round scores add up to the game totals.

use sim::engine::rng::batch_rng;
use sim::games::flip7::cards::{Without, composition, decks_for};
use sim::games::flip7::policies::{Policy, Seats};
use sim::games::flip7::rules::{Event, MAX_ROUNDS, Observer, Rules, Status, TARGET, Table};

/// Checks the table after every event and keeps score.
#[derive(Default)]
struct Checker {
    events: u64,
    previous_totals: Vec<u32>,
    rounds: u32,
    winner_checked: bool,
}

impl Observer<Table> for Checker {
    const EVENTS: bool = true;

    fn event(&mut self, t: &Table, e: Event) {
        self.events += 1;
        if let Err(msg) = t.check_invariants() {
            panic!("after {e:?}: {msg}");
        }
    }

    fn round_end(&mut self, t: &Table) {
        let n = t.players();
        if self.previous_totals.len() != n {
            self.previous_totals = vec![0; n];
        }
        t.check_invariants().unwrap();
        let mut flip7s = 0;
        for s in 0..n {
            let h = t.hand(s);
            let gained = t.total(s) - self.previous_totals[s];
            assert_eq!(gained, u32::from(h.score()), "seat {s}");
            match h.status {
                Status::Busted => assert_eq!(gained, 0),
                Status::Flip7 => {
                    flip7s += 1;
                    assert_eq!(h.numbers.count_ones(), 7);
                }
                _ => assert!(h.numbers.count_ones() < 7),
            }
            self.previous_totals[s] = t.total(s);
        }
        assert!(flip7s <= 1, "at most one Flip 7 per round");
        if flip7s == 0 {
            // The round ended because nobody was left in it, or no card was
            // left to draw anywhere, or (players who never stay only) the
            // cycle guard: never with cards left to reshuffle otherwise.
            let cut_off = (0..n).filter(|&s| t.hand(s).status == Status::Active).count();
            if cut_off > 0 {
                assert_eq!(t.pile_len(), 0, "round cut off with cards left to draw");
                let discards: u32 = t.discard_counts().iter().map(|&c| u32::from(c)).sum();
                assert_eq!(
                    discards > 0,
                    t.cycled(),
                    "round cut off with {discards} cards in the discard pile"
                );
            }
        }
        self.rounds += 1;
    }

    fn game_end(&mut self, t: &Table, winner: Option<usize>) {
        let n = t.players();
        let best = (0..n).map(|s| t.total(s)).max().unwrap();
        match winner {
            Some(w) => {
                assert_eq!(t.total(w), best);
                assert_eq!((0..n).filter(|&s| t.total(s) == best).count(), 1);
                if !t.rules().single_round {
                    assert!(best >= TARGET);
                }
            }
            None => {
                let tied = (0..n).filter(|&s| t.total(s) == best).count() > 1;
                assert!(t.rules().single_round && tied || t.round() >= MAX_ROUNDS);
            }
        }
        self.winner_checked = true;
    }
}

fn play_many(players: usize, policies: &[Policy], without: Without, single_round: bool, games: u64) {
    let rules = Rules {
        players,
        composition: composition(decks_for(players), without),
        single_round,
        fresh_deck: false,
    };
    let mut table = Table::new(rules);
    let seat_policies: Vec<Policy> = (0..players).map(|s| policies[s % policies.len()]).collect();
    let mut seats = Seats::new(seat_policies);
    for g in 0..games {
        let mut rng = batch_rng(0xC0FFEE + players as u64, g);
        let mut checker = Checker::default();
        table.new_game(&mut rng);
        table.play_game(&mut seats, &mut checker, &mut rng);
        assert!(checker.winner_checked && checker.events > 0);
        assert!(
            checker.rounds < MAX_ROUNDS,
            "a game with sensible policies ran {} rounds",
            checker.rounds
        );
    }
}

const MIXED: [Policy; 4] = [
    Policy::stay_at(0),
    Policy::stay_at(15),
    Policy::stay_at(30),
    Policy::stay_at(60),
];

#[test]
fn cards_are_conserved_in_every_game_small_tables() {
    for players in 1..=6 {
        play_many(players, &MIXED, Without::default(), false, 300);
    }
}

#[test]
fn cards_are_conserved_with_many_players_and_reshuffles() {
    // 18 players exhaust one deck within a round; 19 and more use two decks.
    for players in [12, 18, 19, 36] {
        play_many(players, &MIXED, Without::default(), false, 20);
    }
}

#[test]
fn greedy_players_exhaust_the_cards_and_the_round_still_ends() {
    // Everybody hits until bust or Flip 7: with 18 players the cards in front
    // can hold the whole deck, so draws run out entirely.
    play_many(18, &[Policy::stay_at(1000)], Without::default(), false, 30);
    play_many(
        18,
        &[Policy::stay_at(1000)],
        Without::parse("actions").unwrap(),
        true,
        200,
    );
}

#[test]
fn cards_are_conserved_under_every_house_rule() {
    for w in [
        "freeze",
        "flip-three",
        "second-chance",
        "actions",
        "modifiers",
        "actions,modifiers",
    ] {
        play_many(4, &MIXED, Without::parse(w).unwrap(), false, 150);
        play_many(3, &MIXED, Without::parse(w).unwrap(), true, 300);
    }
}

/// A counter-based source of random indices whose position can be read and
/// restarted: what lets a test replay a game from any moment.
#[derive(Clone)]
struct Counter(std::rc::Rc<std::cell::Cell<u64>>);

impl sim::engine::rng::Draw for Counter {
    fn below(&mut self, n: u32) -> u32 {
        let i = self.0.get();
        self.0.set(i + 1);
        (sim::engine::rng::splitmix64(i) % u64::from(n)) as u32
    }
}

/// Plays like `inner`; at every Hit-or-Stay it keeps a copy of the table,
/// the position of the random source and the answer.
struct Recorder {
    inner: Seats,
    at: Counter,
    moments: Vec<(Table, u64, usize, bool)>,
}

impl sim::games::flip7::rules::Chooser for Recorder {
    fn hit(&mut self, t: &Table, seat: usize) -> bool {
        let hit = self.inner.hit(t, seat);
        self.moments.push((t.clone(), self.at.0.get(), seat, hit));
        hit
    }
    fn target(&mut self, t: &Table, chooser: usize, card: sim::games::flip7::cards::Card) -> usize {
        self.inner.target(t, chooser, card)
    }
    fn second_chance_to(&mut self, t: &Table, holder: usize) -> Option<usize> {
        self.inner.second_chance_to(t, holder)
    }
}

/// `Table::finish_game_from` (the look-ahead of `rollout:K`) continues a
/// game from any Hit-or-Stay exactly as the game itself went on: same
/// totals, same winner, from every decision of every game, initial-deal
/// decisions (FAQ 18) included.
#[test]
fn finishing_a_game_from_any_decision_replays_it_exactly() {
    let mut resumed = 0;
    let mut in_deal = 0;
    for (players, single_round) in [(2, false), (4, false), (5, true), (7, false)] {
        let rules = Rules {
            players,
            composition: composition(1, Without::default()),
            single_round,
            fresh_deck: false,
        };
        let policies = Policy::parse_list("stay-at-20,ev,stay-at-30,cards-3").unwrap();
        let seat_policies: Vec<Policy> = (0..players).map(|s| policies[s % 4]).collect();
        for g in 0..30 {
            let at = Counter(std::rc::Rc::new(std::cell::Cell::new(g * 1_000_003)));
            let mut rec = Recorder {
                inner: Seats::new(seat_policies.clone()),
                at: at.clone(),
                moments: Vec::new(),
            };
            let mut table = Table::new(rules);
            table.new_game(&mut at.clone());
            let winner = table.play_game(&mut rec, &mut sim::games::flip7::rules::Silent, &mut at.clone());
            let totals: Vec<u32> = (0..players).map(|s| table.total(s)).collect();
            for (copy, position, seat, hit) in rec.moments {
                in_deal += usize::from(copy.dealing());
                let mut copy = copy;
                let mut seats = Seats::new(seat_policies.clone());
                let mut d = Counter(std::rc::Rc::new(std::cell::Cell::new(position)));
                let w = copy.finish_game_from(
                    seat,
                    hit,
                    &mut seats,
                    &mut sim::games::flip7::rules::Silent,
                    &mut d,
                );
                assert_eq!(w, winner, "{players} players, game {g}");
                let again: Vec<u32> = (0..players).map(|s| copy.total(s)).collect();
                assert_eq!(again, totals, "{players} players, game {g}");
                resumed += 1;
            }
        }
    }
    assert!(resumed > 5_000, "{resumed}");
    assert!(in_deal > 0, "no decision during an initial deal was replayed");
}
