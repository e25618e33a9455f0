//! Classic Flip's `ismcts:N`: its specs, that it sees only what its player
//! may know, that runs repeat on any number of threads and in every kind
//! of run, and that it makes the obvious decisions.

use crate::classic_flip_policies::two_hands;
use crate::common::{ok, sim};

use rand::SeedableRng;
use sim::engine::game::Game;
use sim::engine::rng::{Draw, SimRng, batch_rng, game_rng};
use sim::games::classic_flip::cards::*;
use sim::games::classic_flip::policies::{Policy, Seats};
use sim::games::classic_flip::rules::*;
use sim::games::classic_flip::{ClassicFlip, ClassicFlipSim};

/// The set of the named cards (`RK`, `B8`, `Any`, ...).
fn cards(names: &[&str]) -> CardSet {
    names.iter().fold(0, |m, c| m | bit(parse(c).unwrap()))
}

#[test]
fn ismcts_specs_parse_print_back_and_refuse_bad_values() {
    for spec in [
        "ismcts:100",
        "ismcts:5+playout:thief+caller:40",
        "ismcts:7+bluff-prior:0.2",
        "ismcts:7+bluff-prior:0.2+playout:random",
    ] {
        assert_eq!(Policy::parse(spec).unwrap().to_string(), spec);
    }
    assert_eq!(
        Policy::parse("ismcts:9+playout:collector").unwrap().to_string(),
        "ismcts:9"
    );
    // The default playout is the game's default policy.
    let default = Policy::parse(ClassicFlip::DEFAULT_POLICY).unwrap();
    let searched = Policy::parse("ismcts:9").unwrap().searched().unwrap();
    assert_eq!((searched.n, searched.playout), (9, default));
    let thief = Policy::parse("ismcts:9+playout:thief")
        .unwrap()
        .searched()
        .unwrap();
    assert_eq!(thief.playout, Policy::parse("thief").unwrap());
    for (bad, says) in [
        (
            "ismcts:0",
            "'ismcts:0': N must be a whole number from 1 to 1000000 (ismcts:N)",
        ),
        ("ismcts:abc", "'ismcts:abc': N must be a whole number"),
        ("ismcts:1000001", "from 1 to 1000000"),
        (
            "ismcts:10+playout:counter",
            "the playout SPEC 'counter' must be a policy cheap to simulate",
        ),
        (
            "ismcts:10+playout:rollout:4",
            "must be a policy cheap to simulate",
        ),
        ("ismcts:10+playout:bogus", "unknown policy part 'bogus'"),
        ("ismcts:10+playout:", "empty policy"),
        (
            "collector+playout:thief",
            "playout:SPEC is a choice of ismcts:N only",
        ),
        ("playout:thief", "playout:SPEC is a choice of ismcts:N only"),
        ("ismcts:10+thief", "ismcts:N searches every decision itself"),
        ("ismcts:10+counter", "repeats a part"),
    ] {
        let e = Policy::parse(bad).unwrap_err();
        assert!(e.contains(says), "{bad}: {e}");
    }
    let dir = tempfile::tempdir().unwrap();
    let list = ok(&sim(&["classic-flip", "--list-policies"], dir.path()));
    assert!(
        list.contains("ismcts:N") && list.contains("playout:SPEC"),
        "{list}"
    );
}

/// Wraps the seats: before each decision of seat 0 (the `ismcts` seat),
/// asks the same policy again in two worlds where every card the player
/// cannot know is dealt again, all three with the same random numbers;
/// the answers must agree.
struct Blindfold {
    seats: Seats,
    worlds: SimRng,
    checked: [u32; 6],
    moved: u32,
}

impl Blindfold {
    fn same<T: PartialEq + std::fmt::Debug>(
        &mut self,
        kind: usize,
        v: &View<'_>,
        d: &mut impl Draw,
        ask: impl Fn(&mut Seats, &View<'_>, &mut SimRng) -> T,
    ) -> T {
        let seed = u64::from(d.below(u32::MAX));
        let a = ask(&mut self.seats, v, &mut SimRng::seed_from_u64(seed));
        if v.seat() != 0 {
            return a;
        }
        let (w1, w2) = (v.sample_world(&mut self.worlds), v.sample_world(&mut self.worlds));
        let place = |w: &Table| {
            (
                (0..2).map(|q| w.hand(q)).collect::<Vec<_>>(),
                w.draw_pile().collect::<Vec<_>>(),
            )
        };
        // Two worlds apart: at least one moved cards from where they are.
        self.moved += u32::from(place(&w1) != place(&w2));
        for w in [&w1, &w2] {
            let b = ask(
                &mut self.seats,
                &View::new(w, 0),
                &mut SimRng::seed_from_u64(seed),
            );
            assert_eq!(
                a, b,
                "ismcts decided differently in another world (decision kind {kind})"
            );
        }
        self.checked[kind] += 1;
        a
    }
}

impl Chooser for Blindfold {
    fn start<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Start {
        self.same(0, v, d, |s, v, d| s.start(v, d))
    }
    fn challenge<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Option<usize> {
        self.same(1, v, d, |s, v, d| s.challenge(v, d))
    }
    fn discard<D: Draw>(&mut self, v: &View<'_>, limit: u32, forced: bool, d: &mut D) -> CardSet {
        self.same(2, v, d, |s, v, d| s.discard(v, limit, forced, d))
    }
    fn block<D: Draw>(&mut self, v: &View<'_>, by: usize, f: Func, d: &mut D) -> Option<Card> {
        self.same(3, v, d, |s, v, d| s.block(v, by, f, d))
    }
    fn take_pick<D: Draw>(&mut self, v: &View<'_>, target: usize, d: &mut D) -> Card {
        self.same(4, v, d, |s, v, d| s.take_pick(v, target, d))
    }
    fn take_penalty<D: Draw>(&mut self, v: &View<'_>, pile: CardSet, d: &mut D) -> CardSet {
        self.same(5, v, d, |s, v, d| s.take_penalty(v, pile, d))
    }
}

#[test]
fn re_dealing_every_card_ismcts_cannot_know_never_changes_its_decision() {
    // A thief that bluffs: Takes and Steals to block, hands over seven to
    // challenge, discards to decide.
    for spec in ["ismcts:6", "ismcts:6+bluff-prior:0.1+playout:thief"] {
        let lineup = vec![
            Policy::parse(spec).unwrap(),
            Policy::parse("thief+bluffer:10").unwrap(),
        ];
        let mut ch = Blindfold {
            seats: Seats::new(lineup),
            worlds: batch_rng(99, 2),
            checked: [0; 6],
            moved: 0,
        };
        let mut t = Table::new(Rules::standard(2));
        let mut batch = batch_rng(5, 2);
        for _ in 0..6 {
            let mut rng = game_rng(&mut batch);
            t.play_game(&mut ch, &mut Silent, &mut rng);
        }
        let all: u32 = ch.checked.iter().sum();
        assert!(ch.checked[0] > 100, "{spec}: {:?} decisions", ch.checked);
        assert!(
            ch.checked[1] > 20 && ch.checked[2] > 20,
            "{spec}: challenges and discards {:?}",
            ch.checked
        );
        assert!(
            ch.moved * 10 > all * 9,
            "{spec}: {} of {all} re-deals moved cards",
            ch.moved
        );
    }
}

#[test]
fn ismcts_runs_repeat_on_any_number_of_threads() {
    let policies = [Policy::parse("ismcts:2").unwrap(), Policy::default()];
    let sim = ClassicFlipSim::new(Rules::standard(2), &policies).unwrap();
    // More than one batch of 1,024 games.
    crate::common::same_on_one_and_two_threads(&sim, 1100, "classic-flip");
}

#[test]
fn ismcts_plays_plain_runs_tournaments_sweeps_and_shards() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fn with<'a>(args: &[&'a str]) -> Vec<&'a str> {
        // `--no-charts` is an option of tournaments and sweeps only.
        let plain = usize::from(args[0] == "classic-flip");
        [args, &crate::common::QUIET[plain..]].concat()
    }
    let plain = ok(&sim(
        &with(&[
            "classic-flip",
            "--players",
            "2",
            "--policy",
            "ismcts:3,thief",
            "--games",
            "6",
            "--out",
            "plain.csv",
        ]),
        d,
    ));
    assert!(
        plain.contains("ismcts:3") && !plain.contains("round cap"),
        "{plain}"
    );
    let t = ok(&sim(
        &with(&[
            "tournament",
            "classic-flip",
            "--players",
            "2",
            "--policies",
            "ismcts:2+playout:thief,counter",
            "--games",
            "3",
        ]),
        d,
    ));
    assert!(t.contains("ismcts:2+playout:thief"), "{t}");
    crate::common::ismcts_in_every_kind_of_run("classic-flip", "collector");
}

/// Self-play: two `ismcts` seats call their rounds (no round runs into
/// the round cap).
#[test]
fn ismcts_self_play_ends_its_rounds() {
    let policies = [Policy::parse("ismcts:20").unwrap()];
    let sim = ClassicFlipSim::new(Rules::standard(2), &policies).unwrap();
    let mut t = Table::new(sim.rules);
    let mut seats = Seats::new(vec![policies[0]; 2]);
    let mut batch = batch_rng(8, 0);
    let (mut rounds, mut turns) = (0, 0);
    for _ in 0..4 {
        let mut rng = game_rng(&mut batch);
        let end = t.play_game(
            &mut seats,
            &mut CapWatch {
                rounds: &mut rounds,
                turns: &mut turns,
            },
            &mut rng,
        );
        assert!(end.winner.is_some());
    }
    assert!(
        rounds >= 4 && turns < 60 * rounds,
        "{turns} turns in {rounds} rounds"
    );
}

/// Counts rounds and turns, and fails on a round cut off by the cap.
struct CapWatch<'a> {
    rounds: &'a mut u32,
    turns: &'a mut u32,
}

impl Observer<Table> for CapWatch<'_> {
    const EVENTS: bool = false;
    fn round_end(&mut self, t: &Table) {
        assert!(!t.cut_off(), "a round ran into the round cap");
        *self.rounds += 1;
        *self.turns += t.turns();
    }
}

/// Plays one turn of `seat` at `t`: its start is `start` (when given),
/// and the `ismcts` policy `spec` answers every decision of seat `asked`
/// of the kind `kind` (0 start, 1 challenge, 3 block, 4 Take pick), whose
/// answers are returned as text; `collector` decides the rest.
fn one_turn(
    t: &Table,
    seat: usize,
    start: Option<Start>,
    asked: usize,
    kind: usize,
    spec: &str,
    seed: u64,
) -> Vec<String> {
    struct Script {
        start: Option<Start>,
        asked: usize,
        kind: usize,
        policy: Policy,
        answers: Vec<String>,
    }
    impl Script {
        fn mine(&self, v: &View<'_>, kind: usize) -> bool {
            v.seat() == self.asked && kind == self.kind
        }
    }
    impl Chooser for Script {
        fn start<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Start {
            if let Some(s) = self.start.take() {
                return s;
            }
            if self.mine(v, 0) {
                let s = self.policy.start(v, d);
                self.answers.push(format!("{s:?}"));
                return s;
            }
            Policy::default().start(v, d)
        }
        fn challenge<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Option<usize> {
            if self.mine(v, 1) {
                let c = self.policy.challenge(v, d);
                self.answers.push(format!("{c:?}"));
                return c;
            }
            Policy::default().challenge(v, d)
        }
        fn discard<D: Draw>(&mut self, v: &View<'_>, limit: u32, forced: bool, d: &mut D) -> CardSet {
            Policy::default().discard(v, limit, forced, d)
        }
        fn block<D: Draw>(&mut self, v: &View<'_>, by: usize, f: Func, d: &mut D) -> Option<Card> {
            if self.mine(v, 3) {
                let b = self.policy.block(v, by, f, d);
                self.answers.push(b.map_or("none".into(), name));
                return b;
            }
            Policy::default().block(v, by, f, d)
        }
        fn take_pick<D: Draw>(&mut self, v: &View<'_>, target: usize, d: &mut D) -> Card {
            if self.mine(v, 4) {
                let c = self.policy.take_pick(v, target, d);
                self.answers.push(name(c));
                return c;
            }
            Policy::default().take_pick(v, target, d)
        }
        fn take_penalty<D: Draw>(&mut self, v: &View<'_>, pile: CardSet, d: &mut D) -> CardSet {
            Policy::default().take_penalty(v, pile, d)
        }
    }
    let mut ch = Script {
        start,
        asked,
        kind,
        policy: Policy::parse(spec).unwrap(),
        answers: Vec::new(),
    };
    let mut w = t.clone();
    w.one_turn(seat, &mut ch, &mut Silent, &mut batch_rng(seed, 0));
    ch.answers
}

fn take_on(target: u8) -> Start {
    let mut take = Play::new(parse("Draw/Take").unwrap(), Func::Take);
    take.target = target;
    Start::Play(take)
}

#[test]
fn ismcts_picks_the_card_that_wins_the_game_where_collector_takes_the_2x() {
    // Both at 190 points. Seat 0 holds three Kings and takes from seat
    // 1's hand: the red Wild 8 makes five Kings with the community's Gold
    // K (20 points: the game, once it calls); `collector` takes the 2X
    // (the most valuable card), which leaves it at four Kings in a race.
    let t = two_hands(
        cards(&["Draw/Take", "RK", "BK", "PK"]),
        cards(&["2X", "R8", "R5", "B6"]),
        ["GK", "R2", "B3"],
        [190, 190],
    );
    assert_eq!(one_turn(&t, 0, Some(take_on(1)), 0, 4, "collector", 1), ["2X"]);
    for seed in [1, 2] {
        assert_eq!(
            one_turn(&t, 0, Some(take_on(1)), 0, 4, "ismcts:1000", seed),
            ["R8"],
            "seed {seed}"
        );
    }
}

#[test]
fn ismcts_blocks_a_take_aimed_at_its_any_with_the_block_card() {
    // Seat 1, at 190 points, holds four Kings, Any and a Draw/Block: five
    // Kings doubled twice, the game once it calls. An unblocked Take would
    // take the Any; blocking with the Any gives it away as surely.
    let t = two_hands(
        cards(&["Draw/Take", "R2", "B5"]),
        cards(&["Draw/Block", "Any", "RK", "BK", "PK", "GK"]),
        ["R3", "B4", "P6"],
        [0, 190],
    );
    for seed in [1, 2] {
        assert_eq!(
            one_turn(&t, 0, Some(take_on(1)), 1, 3, "ismcts:1000", seed),
            ["Draw/Block"],
            "seed {seed}"
        );
    }
}

#[test]
fn ismcts_calls_flip_when_the_call_wins_the_game() {
    // Seat 0, at 190 points, holds three Kings: with the community's Gold
    // 8 and Any they are five Kings doubled twice (40 points). A call
    // locks the community; anything else lets seat 1 take one of the two
    // wilds (as `collector` does: denial), and seat 0 is left at four.
    let t = two_hands(
        cards(&["RK", "BK", "PK"]),
        cards(&["RQ", "B5", "P6"]),
        ["G8", "Any", "R2"],
        [190, 150],
    );
    for seed in [1, 2] {
        assert_eq!(
            one_turn(&t, 0, None, 0, 0, "ismcts:1000", seed),
            ["Flip"],
            "seed {seed}"
        );
    }
}
