//! The rules of Classic Flip (`docs/rules/classic-flip.md`), one test per
//! reading C1..C43 the engine implements (named `cN_...`), plus the rules
//! the text states plainly (calling, final turns, challenges).
//!
//! Most tests set up a stacked position ([`Position`]: every card's place,
//! the draw pile top first, the rest of the deck on the discard pile) and
//! play turns through the real engine with a scripted [`Chooser`]: start
//! options, challenges, discards, blocks and picks are taken from queues
//! (defaults: draw two, no challenge, keep everything, no block).
//! Random draws use [`Stacked`]: a Steal takes the victim's highest card
//! (by id), a reshuffle or a Chaos keeps the order it collects cards in.

use std::collections::VecDeque;

use sim::engine::rng::{Draw, Stacked};
use sim::games::classic_flip::cards::*;
use sim::games::classic_flip::rules::*;

fn c(text: &str) -> Card {
    parse(text).unwrap_or_else(|| panic!("no card {text}"))
}

/// A set of cards; a card named twice is the second deck's copy.
fn set(text: &str) -> CardSet {
    let mut m = 0;
    for t in text.split_whitespace() {
        let x = c(t);
        m |= if m & bit(x) != 0 {
            bit(x + PER_DECK)
        } else {
            bit(x)
        };
    }
    m
}

fn pts(text: &str) -> u32 {
    points(set(text))
}

/// Every decision taken from a queue; defaults when a queue is empty.
#[derive(Default)]
struct Script {
    starts: VecDeque<Start>,
    challenges: VecDeque<Option<usize>>,
    discards: VecDeque<CardSet>,
    blocks: VecDeque<Option<Card>>,
    picks: VecDeque<Card>,
    penalty: VecDeque<CardSet>,
    /// (seat, limit, forced) of every discard question.
    limits: Vec<(usize, u32, bool)>,
}

impl Chooser for Script {
    fn start<D: Draw>(&mut self, _v: &View<'_>, _d: &mut D) -> Start {
        self.starts.pop_front().unwrap_or(Start::Draw2)
    }
    fn take_pick<D: Draw>(&mut self, v: &View<'_>, target: usize, _d: &mut D) -> Card {
        self.picks
            .pop_front()
            .unwrap_or_else(|| v.known(target).trailing_zeros() as Card)
    }
    fn block<D: Draw>(&mut self, _v: &View<'_>, _by: usize, _f: Func, _d: &mut D) -> Option<Card> {
        self.blocks.pop_front().flatten()
    }
    fn challenge<D: Draw>(&mut self, _v: &View<'_>, _d: &mut D) -> Option<usize> {
        self.challenges.pop_front().flatten()
    }
    fn discard<D: Draw>(&mut self, v: &View<'_>, limit: u32, forced: bool, _d: &mut D) -> CardSet {
        self.limits.push((v.seat(), limit, forced));
        if forced {
            if let Some(x) = self.discards.pop_front() {
                return x;
            }
            let n = count(v.hand()) - limit;
            return cards_of(v.hand()).take(n as usize).fold(0, |m, x| m | bit(x));
        }
        self.discards.pop_front().unwrap_or(0)
    }
    fn take_penalty<D: Draw>(&mut self, _v: &View<'_>, _pile: CardSet, _d: &mut D) -> CardSet {
        self.penalty.pop_front().unwrap_or(0)
    }
}

/// Records every event and checks every card's place after each.
#[derive(Default)]
struct Log(Vec<Event>);

impl Observer<Table> for Log {
    const EVENTS: bool = true;
    fn event(&mut self, t: &Table, e: Event) {
        t.check();
        self.0.push(e);
    }
}

/// A table of `players` with these hands, community and draw pile (top
/// first); every other card of the deck on the discard pile.
fn table_with(rules: Rules, hands: &[&str], community: [&str; 3], draw: &str) -> Table {
    let hands: Vec<CardSet> = hands.iter().map(|h| set(h)).collect();
    let com: [Card; 3] = community.map(|x| if x == "-" { EMPTY } else { c(x) });
    let draw: Vec<Card> = draw.split_whitespace().map(c).collect();
    let mut used: CardSet = hands.iter().fold(0, |m, &h| m | h);
    for &x in com.iter().chain(&draw) {
        if x != EMPTY {
            used |= bit(x);
        }
    }
    let mut t = Table::new(rules);
    t.set_position(&Position {
        hands,
        community: com,
        draw,
        discard: rules.deck.all & !used,
        totals: vec![0; rules.players],
        ..Default::default()
    });
    t
}

fn table(players: usize, hands: &[&str], community: [&str; 3], draw: &str) -> Table {
    table_with(Rules::standard(players), hands, community, draw)
}

fn play(card: &str, func: Func) -> Play {
    Play::new(c(card), func)
}

fn turn(t: &mut Table, p: usize, s: &mut Script) -> Log {
    let mut log = Log::default();
    t.full_turn(p, s, &mut log, &mut Stacked);
    log
}

// ---------------------------------------------------------------------
// Cards (C1-C7)
// ---------------------------------------------------------------------

#[test]
fn c1_gold_cards_are_8_to_ace_and_gold_ranks_change_them() {
    let d = Deck::standard(1);
    for r in ["8", "9", "10", "J", "Q", "K", "A"] {
        assert!(d.all & bit(c(&format!("G{r}"))) != 0, "G{r}");
    }
    for r in ["2", "3", "4", "5", "6", "7"] {
        assert!(d.all & bit(c(&format!("G{r}"))) == 0, "G{r}");
    }
    let gold = sim::games::classic_flip::parse_gold("2,4,6,8,10,Q,A").unwrap();
    let d = Deck::new(1, gold, 0);
    assert_eq!(d.len(), 54);
    assert!(d.all & bit(c("G2")) != 0 && d.all & bit(c("GK")) == 0);
}

#[test]
fn c2_three_colour_suits_of_thirteen_and_54_cards() {
    let d = Deck::standard(1);
    for s in ["R", "B", "P"] {
        let n = RANK_NAMES
            .iter()
            .filter(|r| d.all & bit(c(&format!("{s}{r}"))) != 0)
            .count();
        assert_eq!(n, 13, "{s}");
    }
    assert_eq!(d.len(), 54);
    assert_eq!(count(d.all & ACTION_CARDS), 8);
}

#[test]
fn c3_every_8_is_wild() {
    // Four 8s and a King: five Kings, doubled by the Gold 8 (and Gold K absent).
    assert_eq!(pts("R8 B8 P8 G8 RK"), 20);
    assert_eq!(pts("R8 B8 P8 RK BK"), 10);
}

#[test]
fn c4_the_gold_8_stands_for_any_rank() {
    // 2s have no gold card: three natural 2s, the red and gold 8s.
    assert_eq!(pts("R2 B2 P2 R8 G8"), 20);
}

#[test]
fn c5_wilds_may_duplicate_held_cards() {
    // The red 8 as a second red Q.
    assert_eq!(pts("RQ BQ PQ GQ R8"), 20);
}

#[test]
fn c6_any_is_any_card_including_a_duplicate_gold_card() {
    assert_eq!(pts("Any GA G8 RA BA PA 2X"), 320);
    // Any alone adds one to the kind and one doubling.
    assert_eq!(pts("RA BA PA GA Any"), 40);
}

#[test]
fn c7_7to10_and_any_raise_the_limit_while_held() {
    let t = table(2, &["R2 7>>>10", "R3 Any"], ["R4", "R5", "R6"], "R7 R9");
    assert_eq!(t.limit_for(0, t.hand(0)), 10);
    assert_eq!(t.limit_for(1, t.hand(1)), 10);
    assert_eq!(t.limit_for(0, set("R2")), 7);
}

// ---------------------------------------------------------------------
// Action cards (C8-C18)
// ---------------------------------------------------------------------

#[test]
fn c8_a_dual_card_plays_one_function() {
    let mut t = table(2, &["Draw/Take R2", "R3 R4"], ["R5", "R6", "R7"], "B2 B3 B4 B5");
    assert!(!t.playable(0, &play("Draw/Take", Func::Steal)));
    let mut s = Script::default();
    s.starts.push_back(Start::Play(play("Draw/Take", Func::Draw)));
    turn(&mut t, 0, &mut s);
    assert_eq!(t.hand(0), set("R2 B2 B3 B4"));
    assert_eq!(t.hand(1), set("R3 R4"), "no card taken");
    assert!(t.discard() & bit(c("Draw/Take")) != 0);
}

#[test]
fn c9_action_cards_only_as_the_start_and_block_only_as_a_reaction() {
    let t = table(2, &["Draw/Block R2", "R3"], ["R5", "R6", "R7"], "B2 B3 B4");
    let mut p = play("Draw/Block", Func::Block);
    p.target = 1;
    assert!(!t.playable(0, &p));
    assert!(t.playable(0, &play("Draw/Block", Func::Draw)));
}

#[test]
fn c10_plus_turn_gives_a_full_extra_turn_at_once() {
    let mut t = table(2, &["Chaos/+Turn R2", "R3"], ["R5", "R6", "R7"], "B2 B3 B4 B5");
    let mut s = Script::default();
    s.starts
        .push_back(Start::Play(play("Chaos/+Turn", Func::PlusTurn)));
    let log = turn(&mut t, 0, &mut s);
    let turns: Vec<_> = log.0.iter().filter(|e| matches!(e, Event::Turn { .. })).collect();
    assert_eq!(turns.len(), 2);
    assert_eq!(*turns[1], Event::Turn { seat: 0, extra: true });
    assert_eq!(t.hand(0), set("R2 B2 B3"), "the extra turn drew two");
}

#[test]
fn c11_draw_and_draw_two_both_grow_the_hand_by_two() {
    let mut t = table(2, &["Draw/Steal R2", "R3"], ["R5", "R6", "R7"], "B2 B3 B4 B5");
    let mut s = Script::default();
    s.starts.push_back(Start::Play(play("Draw/Steal", Func::Draw)));
    turn(&mut t, 0, &mut s);
    assert_eq!(count(t.hand(0)), 4);
    turn(&mut t, 1, &mut Script::default());
    assert_eq!(count(t.hand(1)), 3);
}

#[test]
fn c12_block_stops_a_take_before_the_hand_is_seen_and_both_cards_are_spent() {
    let mut t = table(
        2,
        &["Draw/Take R2", "Draw/Block RA BA"],
        ["R5", "R6", "R7"],
        "B2 B3",
    );
    let mut s = Script::default();
    let mut p = play("Draw/Take", Func::Take);
    p.target = 1;
    s.starts.push_back(Start::Play(p));
    s.blocks.push_back(Some(c("Draw/Block")));
    turn(&mut t, 0, &mut s);
    assert_eq!(t.hand(1), set("RA BA"));
    assert_eq!(t.hand(0), set("R2"));
    assert_eq!(View::new(&t, 0).known(1), 0, "the taker saw nothing");
    assert!(t.discard() & set("Draw/Take Draw/Block") == set("Draw/Take Draw/Block"));
    assert_eq!(t.counts(1).funcs[Func::Block as usize], 1);
}

#[test]
fn c12_an_unblocked_take_shows_the_taker_the_whole_hand() {
    let mut t = table(3, &["Draw/Take R2", "RA BA", "R3"], ["R5", "R6", "R7"], "B2 B3");
    let mut s = Script::default();
    let mut p = play("Draw/Take", Func::Take);
    p.target = 1;
    s.starts.push_back(Start::Play(p));
    s.picks.push_back(c("BA"));
    turn(&mut t, 0, &mut s);
    assert_eq!(t.hand(0), set("R2 BA"));
    assert_eq!(View::new(&t, 0).known(1), set("RA"), "the taker knows the rest");
    assert_eq!(View::new(&t, 1).known(0), set("BA"), "the target knows the card");
    assert_eq!(View::new(&t, 2).known(0), 0, "the others do not");
}

#[test]
fn c13_steal_takes_a_random_card_per_victim_and_community_cards_with_two_players() {
    // Stacked: the victim's highest card by id. Two players: plus up to two
    // community cards, chosen, replaced from the draw pile.
    let mut t = table(2, &["Draw/Steal R2", "R3 BK"], ["R5", "GA", "R7"], "B2 B3");
    let mut s = Script::default();
    let mut p = play("Draw/Steal", Func::Steal);
    p.victims = 0b10;
    p.slots = 0b011;
    s.starts.push_back(Start::Play(p));
    turn(&mut t, 0, &mut s);
    assert_eq!(t.hand(0), set("R2 BK R5 GA"));
    assert_eq!(t.hand(1), set("R3"));
    assert_eq!(t.community(), [c("B2"), c("B3"), c("R7")]);
    // Three players: one community card at most; four: none.
    let t3 = table(3, &["Draw/Steal", "R3", "R4"], ["R5", "R6", "R7"], "B2 B3");
    let mut p = play("Draw/Steal", Func::Steal);
    p.victims = 0b110;
    p.slots = 0b011;
    assert!(!t3.playable(0, &p));
    p.slots = 0b001;
    assert!(t3.playable(0, &p));
    // Five or more players: exactly three victims, chosen.
    let t6 = table(
        6,
        &["Draw/Steal", "R3", "R4", "B4", "P4", "G9"],
        ["R5", "R6", "R7"],
        "B2",
    );
    let mut p = play("Draw/Steal", Func::Steal);
    p.victims = 0b11110;
    assert!(!t6.playable(0, &p));
    p.victims = 0b01110;
    assert!(t6.playable(0, &p));
}

#[test]
fn c14_swap_exchanges_the_hands_without_the_swap_card() {
    let mut t = table(2, &["Swap/Reboot R2", "RA BA PA"], ["R5", "R6", "R7"], "B2");
    let mut s = Script::default();
    let mut p = play("Swap/Reboot", Func::Swap);
    p.target = 1;
    s.starts.push_back(Start::Play(p));
    turn(&mut t, 0, &mut s);
    assert_eq!(t.hand(0), set("RA BA PA"));
    assert_eq!(t.hand(1), set("R2"));
    assert_eq!(View::new(&t, 1).known(0), set("RA BA PA"));
}

#[test]
fn c15_reboot_draws_as_many_as_the_hand_held_without_the_card() {
    let mut t = table(2, &["Swap/Reboot R2 R3", "R4"], ["R5", "R6", "R7"], "B2 B3 B4");
    let mut s = Script::default();
    s.starts.push_back(Start::Play(play("Swap/Reboot", Func::Reboot)));
    turn(&mut t, 0, &mut s);
    assert_eq!(t.hand(0), set("B2 B3"));
    assert!(t.discard() & set("R2 R3") == set("R2 R3"));
}

#[test]
fn c16_chaos_deals_every_card_from_the_player_until_none_is_left() {
    // Pool (Stacked keeps the order): seat 1's hand, seat 2's, seat 0's,
    // then the community; dealt one at a time from seat 1.
    let mut t = table(
        3,
        &["R2 R3", "Chaos/+Turn R4", "R5 R6 R7"],
        ["B2", "B3", "B4"],
        "P2 P3 P4",
    );
    let mut s = Script::default();
    s.starts.push_back(Start::Play(play("Chaos/+Turn", Func::Chaos)));
    turn(&mut t, 1, &mut s);
    // Pool: R4 | R5 R6 R7 | R2 R3 | B2 B3 B4 = 9 cards, 3 each from seat 1.
    assert_eq!(t.hand(1), set("R4 R7 B2"));
    assert_eq!(t.hand(2), set("R5 R2 B3"));
    assert_eq!(t.hand(0), set("R6 R3 B4"));
    assert_eq!(t.community(), [c("P2"), c("P3"), c("P4")]);
    assert!(t.grace(0) && t.grace(2) && !t.grace(1));
}

#[test]
fn c17_community_multipliers_count_for_everybody_unless_switched_off() {
    let t = table(
        2,
        &["RK BK PK R8 B8", "R9 B9 P9 P8 Any"],
        ["2X", "R2", "R3"],
        "B2",
    );
    assert_eq!(t.score_of(0).points, 20);
    assert_eq!(
        t.score_of(1).points,
        40,
        "five 9s, x2 for the community 2X, x2 for Any"
    );
    let mut r = Rules::standard(2);
    r.community_multipliers = false;
    let t = table_with(
        r,
        &["RK BK PK R8 B8", "R9 B9 P9 P8 Any"],
        ["2X", "R2", "R3"],
        "B2",
    );
    assert_eq!(t.score_of(0).points, 10);
    assert_eq!(t.score_of(1).points, 20, "only its own Any doubles");
}

#[test]
fn c18_action_cards_in_the_community_stay_and_can_be_taken() {
    let mut t = table(2, &["R2", "R3"], ["Any", "R6", "R7"], "B2");
    let mut s = Script::default();
    s.starts.push_back(Start::Community(0));
    turn(&mut t, 0, &mut s);
    assert_eq!(t.hand(0), set("R2 Any"));
    assert_eq!(t.community()[0], c("B2"));
}

// ---------------------------------------------------------------------
// Hand limit and challenges (C19-C28)
// ---------------------------------------------------------------------

#[test]
fn c19_c20_keeping_more_than_the_limit_is_a_risk_only_checked_at_the_end_of_a_turn() {
    let mut t = table(2, &["R2 R3 R4 R5 R6 R7 R9", "B3"], ["P5", "P6", "P7"], "B2 B4");
    let mut s = Script::default();
    let log = turn(&mut t, 0, &mut s);
    assert_eq!(count(t.hand(0)), 9);
    assert_eq!(t.counts(0).over_limit, 1);
    assert!(log.0.contains(&Event::Discarded {
        seat: 0,
        cards: 0,
        kept: 9,
        limit: 7
    }));
}

#[test]
fn c21_hand_sizes_are_public() {
    let t = table(2, &["R2 R3 R4", "B3"], ["P5", "P6", "P7"], "B2 B4");
    let v = View::new(&t, 1);
    assert_eq!(v.hand_size(0), 3);
    assert_eq!(v.known(0), 0);
}

#[test]
fn c22_a_hand_received_by_swap_is_not_judged_until_its_owner_has_played() {
    let mut t = table(
        3,
        &["Swap/Reboot R2 R3 R4 R5 R6 R7 R9 R10 RJ", "B3", "P3"],
        ["P5", "P6", "P7"],
        "B2 B4 B5 B6",
    );
    let mut s = Script::default();
    let mut p = play("Swap/Reboot", Func::Swap);
    p.target = 1;
    s.starts.push_back(Start::Play(p));
    turn(&mut t, 0, &mut s);
    assert_eq!(count(t.hand(1)), 9);
    // Seat 2 challenges seat 1: lost, the hand was received.
    let mut s = Script::default();
    s.challenges.push_back(Some(1));
    let log = turn(&mut t, 2, &mut s);
    assert!(
        log.0
            .iter()
            .any(|e| matches!(e, Event::Challenge { won: false, .. }))
    );
    assert!(t.failed(2));
}

#[test]
fn c23_c28_a_penalised_player_is_caught_above_six_even_with_7to10() {
    let mut t = table(
        2,
        &["R2", "B3 B4 B5 B6 B7 B9 7>>>10"],
        ["P5", "P6", "P7"],
        "B2 P2",
    );
    t.set_penalised(1);
    let mut s = Script::default();
    s.challenges.push_back(Some(1));
    let log = turn(&mut t, 0, &mut s);
    assert!(
        log.0
            .iter()
            .any(|e| matches!(e, Event::Challenge { won: true, .. })),
        "{:?}",
        log.0
    );
    assert_eq!(count(t.hand(1)), 6);
}

#[test]
fn c24_one_challenge_a_turn_and_the_caller_can_be_challenged_in_the_final_turns() {
    let mut t = table(
        2,
        &["RA BA PA GA R8 B9 B10 BJ BQ", "R2"],
        ["P5", "P6", "P7"],
        "B2 B3 B4 B5",
    );
    let mut s = Script::default();
    s.starts.push_back(Start::Flip);
    turn(&mut t, 0, &mut s);
    assert_eq!(t.caller(), Some(0));
    let mut s = Script::default();
    s.challenges.push_back(Some(0));
    s.discards.push_back(set("B9 B10 BJ"));
    s.penalty.push_back(set("B9"));
    let log = turn(&mut t, 1, &mut s);
    let challenges = log
        .0
        .iter()
        .filter(|e| matches!(e, Event::Challenge { .. }))
        .count();
    assert_eq!(challenges, 1);
    assert_eq!(count(t.hand(0)), 6);
}

#[test]
fn c25_the_caught_player_chooses_the_discards_and_the_challenger_takes_up_to_two() {
    let mut t = table(
        2,
        &["R2", "B3 B4 B5 B6 B7 B9 B10 BJ"],
        ["P5", "P6", "P7"],
        "B2 P2",
    );
    let mut s = Script::default();
    s.challenges.push_back(Some(1));
    s.discards.push_back(set("B3 B4"));
    s.penalty.push_back(set("B3 B4"));
    turn(&mut t, 0, &mut s);
    assert_eq!(t.hand(1), set("B5 B6 B7 B9 B10 BJ"));
    assert!(t.penalised(1));
    assert_eq!(t.hand(0) & set("B3 B4"), set("B3 B4"));
    assert_eq!(View::new(&t, 1).known(0) & set("B3 B4"), set("B3 B4"), "public");
}

#[test]
fn c26_challenge_then_action_card_to_the_discard_then_discard_to_the_limit() {
    let mut t = table(
        2,
        &["Draw/Take R2 R3 R4 R5 R6", "B3 B4 B5 B6 B7 B9 B10 BJ"],
        ["P5", "P6", "P7"],
        "B2 P2 P3",
    );
    let mut s = Script::default();
    s.starts.push_back(Start::Play(play("Draw/Take", Func::Draw)));
    s.challenges.push_back(Some(1));
    s.penalty.push_back(set("B3"));
    let log = turn(&mut t, 0, &mut s);
    let at = |f: &dyn Fn(&Event) -> bool| log.0.iter().position(f).unwrap();
    let ch = at(&|e| matches!(e, Event::Challenge { .. }));
    let dis = at(&|e| matches!(e, Event::Discarded { .. }));
    assert!(ch < dis);
    // The challenger's hand at E3 counts the card taken: 5 + 3 + 1 = 9.
    assert_eq!(s.limits.last(), Some(&(0, 7, false)));
    assert_eq!(count(t.hand(0)), 9);
}

#[test]
fn c27_a_failed_challenger_discards_to_six_and_keeps_six_until_its_next_turn() {
    let mut t = table(
        2,
        &["R2 R3 R4 R5 R6 R7 R9", "B3"],
        ["P5", "P6", "P7"],
        "B2 P2 P3 P4 P8 P9",
    );
    let mut s = Script::default();
    s.challenges.push_back(Some(1));
    turn(&mut t, 0, &mut s);
    assert_eq!(s.limits[0], (0, 6, true));
    assert_eq!(s.limits[1], (0, 6, false));
    assert!(t.failed(0));
    turn(&mut t, 1, &mut Script::default());
    let mut s = Script::default();
    turn(&mut t, 0, &mut s);
    assert!(!t.failed(0));
    assert_eq!(s.limits[0], (0, 7, false));
}

#[test]
fn hand_challenges_on_8_to_10_cards_fail_against_a_shown_7to10_or_any() {
    for card in ["7>>>10", "Any"] {
        let hand = format!("B3 B4 B5 B6 B7 B9 B10 {card}");
        let mut t = table(2, &["R2", &hand], ["P5", "P6", "P7"], "B2 P2");
        let mut s = Script::default();
        s.challenges.push_back(Some(1));
        let log = turn(&mut t, 0, &mut s);
        assert!(
            log.0.contains(&Event::Challenge {
                seat: 0,
                target: 1,
                won: false,
                shown: c(card)
            }),
            "{card}"
        );
        assert_eq!(View::new(&t, 0).known(1), bit(c(card)));
    }
    // Eleven cards are caught whatever they hold.
    let mut t = table(
        2,
        &["R2", "B3 B4 B5 B6 B7 B9 B10 BJ BQ BK 7>>>10"],
        ["P5", "P6", "P7"],
        "B2 P2",
    );
    let mut s = Script::default();
    s.challenges.push_back(Some(1));
    let log = turn(&mut t, 0, &mut s);
    assert!(
        log.0
            .iter()
            .any(|e| matches!(e, Event::Challenge { won: true, .. }))
    );
}

// ---------------------------------------------------------------------
// Calling Flip, the round, scoring, the game (C29-C43)
// ---------------------------------------------------------------------

#[test]
fn c29_flip_needs_five_of_a_kind_with_the_community() {
    let t = table(2, &["RA BA", "R2"], ["PA", "GA", "R8"], "B2");
    assert!(t.can_call(0));
    assert!(!t.can_call(1));
}

#[test]
#[should_panic(expected = "without five of a kind")]
fn c29_a_call_without_five_of_a_kind_is_refused() {
    let mut t = table(2, &["RA", "R2"], ["PA", "GA", "R3"], "B2");
    let mut s = Script::default();
    s.starts.push_back(Start::Flip);
    turn(&mut t, 0, &mut s);
}

#[test]
fn flip_ends_the_callers_turn_and_every_other_player_has_one_final_turn() {
    let mut t = table(
        3,
        &["RA BA PA GA R8", "R2", "R3"],
        ["P5", "P6", "P7"],
        "B2 B3 B4 B5 B6 B7 B9 B10",
    );
    let mut s = Script::default();
    s.starts.push_back(Start::Flip);
    let mut log = Log::default();
    t.play_turns_from(0, &mut s, &mut log, &mut Stacked);
    let turns: Vec<usize> = log
        .0
        .iter()
        .filter_map(|e| match e {
            Event::Turn { seat, .. } => Some(*seat),
            _ => None,
        })
        .collect();
    assert_eq!(turns, [0, 1, 2]);
    assert_eq!(t.hand(0), set("RA BA PA GA R8"), "the caller draws nothing");
    assert!(
        !log.0
            .iter()
            .any(|e| matches!(e, Event::Discarded { seat: 0, .. }))
    );
}

#[test]
fn after_flip_community_take_chaos_swap_steal_and_take_are_forbidden() {
    let mut t = table(
        3,
        &[
            "RA BA PA GA R8",
            "Draw/Take Draw/Steal Swap/Reboot Chaos/+Turn Any",
            "R3",
        ],
        ["P5", "P6", "P7"],
        "B2 B3 B4 B5 B6 B7 B9 B10",
    );
    let mut s = Script::default();
    s.starts.push_back(Start::Flip);
    turn(&mut t, 0, &mut s);
    let mut take = play("Draw/Take", Func::Take);
    take.target = 2;
    let mut steal = play("Draw/Steal", Func::Steal);
    steal.victims = 0b101;
    let mut swap = play("Swap/Reboot", Func::Swap);
    swap.target = 2;
    for p in [take, steal, swap, play("Chaos/+Turn", Func::Chaos)] {
        assert!(!t.playable(1, &p), "{p:?}");
        let mut any = p;
        any.card = c("Any");
        assert!(!t.playable(1, &any), "Any as {p:?}");
    }
    for p in [
        play("Draw/Take", Func::Draw),
        play("Swap/Reboot", Func::Reboot),
        play("Chaos/+Turn", Func::PlusTurn),
        play("Any", Func::Draw),
    ] {
        assert!(t.playable(1, &p), "{p:?}");
    }
}

#[test]
#[should_panic(expected = "not allowed now")]
fn after_flip_community_cards_cannot_be_taken() {
    let mut t = table(2, &["RA BA PA GA R8", "R2"], ["P5", "P6", "P7"], "B2 B3");
    let mut s = Script::default();
    s.starts.push_back(Start::Flip);
    s.starts.push_back(Start::Community(0));
    turn(&mut t, 0, &mut s);
    turn(&mut t, 1, &mut s);
}

#[test]
fn plus_turn_in_a_final_turn_gives_a_second_final_turn() {
    let mut t = table(
        2,
        &["RA BA PA GA R8", "Chaos/+Turn"],
        ["P5", "P6", "P7"],
        "B2 B3 B4 B5",
    );
    let mut s = Script::default();
    s.starts.push_back(Start::Flip);
    s.starts
        .push_back(Start::Play(play("Chaos/+Turn", Func::PlusTurn)));
    let mut log = Log::default();
    t.play_turns_from(0, &mut s, &mut log, &mut Stacked);
    assert_eq!(t.hand(1), set("B2 B3"));
}

#[test]
fn c30_the_caller_is_scored_at_the_end_of_the_round() {
    let mut t = table(
        2,
        &["RA BA PA GA R8 B9 B10 BJ BQ", "R2"],
        ["P5", "P6", "P7"],
        "B2 B3",
    );
    let mut s = Script::default();
    s.starts.push_back(Start::Flip);
    s.challenges.push_back(Some(0));
    // Caught: the caller discards an Ace and the 8.
    s.discards.push_back(set("RA R8 B9"));
    s.discards.push_back(0);
    let mut log = Log::default();
    t.play_turns_from(0, &mut s, &mut log, &mut Stacked);
    t.score_round();
    assert_eq!(t.points(0), 0);
}

#[test]
fn c31_an_empty_draw_pile_is_refilled_from_the_shuffled_discard_pile() {
    let mut t = table(2, &["R2", "R3"], ["P5", "P6", "P7"], "B2");
    let before = count(t.discard());
    turn(&mut t, 0, &mut Script::default());
    assert_eq!(t.reshuffles(), 1);
    assert_eq!(count(t.hand(0)), 3);
    assert_eq!(t.draw_count() as u32, before - 1);
    assert_eq!(t.discard(), 0);
}

#[test]
fn c31_with_both_piles_empty_a_draw_gives_what_is_left() {
    let mut t = table(2, &["R2", "R3"], ["P5", "P6", "P7"], "B2");
    // Move the whole discard pile into seat 1's hand.
    let rest = t.discard();
    let hands = vec![set("R2"), set("R3") | rest];
    t.set_position(&Position {
        hands,
        community: [c("P5"), c("P6"), c("P7")],
        draw: vec![c("B2")],
        discard: 0,
        totals: vec![0, 0],
        ..Default::default()
    });
    turn(&mut t, 0, &mut Script::default());
    assert_eq!(t.hand(0), set("R2 B2"));
}

#[test]
fn c32_a_round_nobody_ends_is_cut_off_void_and_counted() {
    let mut r = Rules::standard(2);
    r.round_cap = 10;
    let mut t = table_with(r, &["R2", "R3"], ["P5", "P6", "P7"], "B2");
    let mut s = Script::default();
    let mut log = Log::default();
    t.play_turns_from(0, &mut s, &mut log, &mut Stacked);
    assert!(t.cut_off());
    assert_eq!(t.turns(), 10);
    assert!(log.0.contains(&Event::CutOff));
    t.score_round();
    assert_eq!(t.points(0) + t.points(1), 0);
}

#[test]
fn c33_c36_hand_and_community_combine_and_other_action_cards_are_worthless() {
    let t = table(2, &["RA BA Draw/Take", "R2"], ["PA", "GA", "R8"], "B2");
    assert_eq!(t.score_of(0).points, 20);
    assert_eq!(pts("RA BA PA GA R8 Draw/Take Swap/Reboot 7>>>10"), 20);
}

#[test]
fn c34_each_multiplier_doubles_once() {
    // Gold 8 as a gold Ace: x2 for the Gold 8 and x2 for the Gold Ace, not more.
    assert_eq!(pts("GA G8 RA BA PA"), 40);
    // A 2X with no kind doubles nothing.
    assert_eq!(pts("2X RA BA"), 0);
    // Two decks: two 2X double twice.
    assert_eq!(pts("2X 2X RK BK PK R8 B8"), 40);
}

#[test]
fn c35_the_sample_hands_score_0_20_40_and_320() {
    assert_eq!(pts("RA BA PA Any"), 0);
    assert_eq!(pts("RA BA PA GA R8"), 20, "one deck: the fourth Ace is gold");
    assert_eq!(pts("GA G8 RA BA PA"), 40);
    assert_eq!(pts("Any GA G8 RA BA PA 2X"), 320);
    // With two decks, four non-gold Aces and a Wild 8 make the text's 10.
    assert_eq!(pts("RA BA PA RA R8"), 10);
}

#[test]
fn c37_a_tie_at_the_top_over_the_target_plays_another_round() {
    let mut t = table(3, &["R2", "R3", "R4"], ["P5", "P6", "P7"], "B2");
    t.set_position(&Position {
        hands: vec![set("R2"), set("R3"), set("R4")],
        community: [c("P5"), c("P6"), c("P7")],
        draw: vec![],
        discard: Rules::standard(3).deck.all & !set("R2 R3 R4 P5 P6 P7"),
        totals: vec![210, 210, 250 - 50],
        ..Default::default()
    });
    assert_eq!(t.leader(), None);
    t.set_position(&Position {
        hands: vec![set("R2"), set("R3"), set("R4")],
        community: [c("P5"), c("P6"), c("P7")],
        draw: vec![],
        discard: Rules::standard(3).deck.all & !set("R2 R3 R4 P5 P6 P7"),
        totals: vec![210, 220, 199],
        ..Default::default()
    });
    assert_eq!(t.leader(), Some(1));
}

#[test]
fn c38_the_long_game_plays_to_500() {
    let mut r = Rules::standard(2);
    r.target = 500;
    let mut t = table_with(r, &["R2", "R3"], ["P5", "P6", "P7"], "B2");
    t.set_position(&Position {
        hands: vec![set("R2"), set("R3")],
        community: [c("P5"), c("P6"), c("P7")],
        draw: vec![],
        discard: r.deck.all & !set("R2 R3 P5 P6 P7"),
        totals: vec![480, 200],
        ..Default::default()
    });
    assert_eq!(t.leader(), None);
}

#[test]
fn c39_two_decks_for_five_to_eight_players() {
    assert_eq!(Rules::standard(4).deck.len(), 54);
    assert_eq!(Rules::standard(5).deck.len(), 108);
    assert_eq!(Rules::standard(8).deck.decks, 2);
}

#[test]
fn c40_c41_every_round_deals_the_whole_deck_from_the_dealers_left() {
    let mut t = Table::new(Rules::standard(3));
    t.new_game();
    // Stacked: the pile is in id order, drawn from the top (highest id).
    t.deal(&mut Stacked);
    t.check();
    assert_eq!(t.dealer(), 0);
    let top = Rules::standard(3).deck.all;
    let highest = (127 - top.leading_zeros()) as Card;
    assert!(
        t.hand(1) & bit(highest) != 0,
        "the first card goes left of the dealer"
    );
    assert_eq!(t.community_set().count_ones(), 3);
    for p in 0..3 {
        assert_eq!(count(t.hand(p)), 3);
    }
    assert_eq!(t.draw_count(), 54 - 12);
}

#[test]
fn c42_the_discard_pile_is_public() {
    let t = table(2, &["R2", "R3"], ["P5", "P6", "P7"], "B2");
    assert_eq!(View::new(&t, 1).discard(), t.discard());
    assert_eq!(View::new(&t, 1).unseen() & t.discard(), 0);
}

#[test]
fn c43_draw_two_is_always_possible_so_nobody_needs_to_pass() {
    let mut t = table(2, &["R2", "R3"], ["P5", "P6", "P7"], "");
    t.set_position(&Position {
        hands: vec![
            set("R2"),
            set("R3") | (Rules::standard(2).deck.all & !set("R2 R3 P5 P6 P7")),
        ],
        community: [c("P5"), c("P6"), c("P7")],
        draw: vec![],
        discard: 0,
        totals: vec![0, 0],
        ..Default::default()
    });
    turn(&mut t, 0, &mut Script::default());
    assert_eq!(t.hand(0), set("R2"));
}

#[test]
fn a_whole_game_ends_with_a_unique_winner_over_the_target() {
    let mut t = Table::new(Rules::standard(4));
    let mut seats = sim::games::classic_flip::policies::Seats::new(vec![
        sim::games::classic_flip::policies::Policy::parse("collector").unwrap();
        4
    ]);
    let mut rng = sim::engine::rng::batch_rng(1, 0);
    let end = t.play_game(&mut seats, &mut Silent, &mut rng);
    let w = end.winner.unwrap();
    assert!(t.total(w) >= 200);
    assert!((0..4).all(|p| p == w || t.total(p) < t.total(w)));
}

#[test]
fn c12_c13_block_stops_a_steal_against_one_hand_only() {
    // Three players: seat 1 blocks, seat 2 is stolen from (its highest card).
    let mut t = table(
        3,
        &["Draw/Steal", "Draw/Block R5", "R6 BQ"],
        ["P2", "P3", "P4"],
        "B2 B3",
    );
    let mut s = Script::default();
    let mut p = play("Draw/Steal", Func::Steal);
    p.victims = 0b110;
    s.starts.push_back(Start::Play(p));
    s.blocks.push_back(Some(c("Draw/Block")));
    turn(&mut t, 0, &mut s);
    assert_eq!(t.hand(1), set("R5"));
    assert_eq!(t.hand(2), set("R6"));
    assert_eq!(t.hand(0), set("BQ"));
    assert_eq!(View::new(&t, 2).known(0), set("BQ"), "the victim knows the card");
    assert_eq!(View::new(&t, 1).known(0), 0, "the others do not");
}

#[test]
fn c6_any_plays_as_any_action_and_blocks() {
    // Two decks, so that both players can hold an Any.
    let rules = Rules {
        deck: Deck::standard(2),
        ..Rules::standard(2)
    };
    let any2 = c("Any") + PER_DECK;
    let mut t = table_with(rules, &["Any R2", "R5 R6"], ["P2", "P3", "P4"], "B2 B3 B4");
    let mut pos_hands = vec![t.hand(0), t.hand(1) | bit(any2)];
    // Move the second Any from the discard pile into seat 1's hand.
    let discard = t.discard() & !bit(any2);
    t.set_position(&Position {
        hands: std::mem::take(&mut pos_hands),
        community: t.community(),
        draw: t.draw_pile().collect(),
        discard,
        totals: vec![0, 0],
        ..Default::default()
    });
    let mut s = Script::default();
    let mut p = play("Any", Func::Take);
    p.target = 1;
    s.starts.push_back(Start::Play(p));
    s.blocks.push_back(Some(any2));
    turn(&mut t, 0, &mut s);
    assert_eq!(t.hand(1), set("R5 R6"), "the second Any blocked the Take");
    assert_eq!(t.hand(0), set("R2"));
    // Any as Draw.
    let mut t = table(2, &["Any R2", "R5"], ["P2", "P3", "P4"], "B2 B3 B4");
    let mut s = Script::default();
    s.starts.push_back(Start::Play(play("Any", Func::Draw)));
    turn(&mut t, 0, &mut s);
    assert_eq!(t.hand(0), set("R2 B2 B3 B4"));
}

/// Counts every hand from public actions only: the deal (three cards
/// each), how many cards each draw gives (not which), community takes,
/// action cards played and Blocks, one card per Take or Steal, Swap,
/// Reboot and every discard (face up), the penalty cards, and Chaos (the
/// cards collected, the community's read off the table, dealt one at a
/// time from its player).
#[derive(Default)]
struct PublicTally {
    size: [u32; MAX_PLAYERS],
    community: u32,
    checked: u64,
}

impl Observer<Table> for PublicTally {
    const EVENTS: bool = true;
    fn event(&mut self, t: &Table, e: Event) {
        let n = t.players();
        match e {
            Event::Dealt => self.size = [3; MAX_PLAYERS],
            Event::Drew { seat, cards } => self.size[seat] += count(cards),
            Event::Community { seat, .. } => self.size[seat] += 1,
            Event::Played { seat, .. } | Event::Blocked { seat, .. } => self.size[seat] -= 1,
            Event::Took { seat, from, .. } => {
                self.size[seat] += 1;
                self.size[from] -= 1;
            }
            Event::Swapped { seat, with } => self.size.swap(seat, with),
            Event::Rebooted { seat, cards }
            | Event::PenaltyDiscard { seat, cards }
            | Event::Discarded { seat, cards, .. } => self.size[seat] -= count(cards),
            Event::PenaltyTaken { seat, cards } => self.size[seat] += count(cards),
            Event::Chaos { seat, .. } => {
                let total: u32 = self.size[..n].iter().sum::<u32>() + self.community;
                for i in 0..n {
                    self.size[(seat + i) % n] = total / n as u32 + u32::from((i as u32) < total % n as u32);
                }
            }
            _ => {}
        }
        if let Event::Discarded { seat, kept, .. } = e {
            assert_eq!(kept, self.size[seat]);
        }
        // A reshuffle comes in the middle of a draw: counted at its end.
        if !matches!(e, Event::Reshuffled { .. }) {
            for p in 0..n {
                assert_eq!(self.size[p], count(t.hand(p)), "seat {p} after {e:?}");
            }
        }
        self.community = count(t.community_set());
        self.checked += 1;
    }
}

#[test]
fn c21_hidden_counts_every_hand_size_follows_from_public_actions() {
    use sim::engine::rng::{batch_rng, game_rng};
    use sim::games::classic_flip::policies::{Policy, Seats};
    for (players, specs) in [
        (2, ["thief", "random", "bluffer:10", "collector"]),
        (3, ["thief+sheriff:0.5", "random", "bluffer:9", "thief"]),
        (4, ["random", "thief", "bluffer:10+thief", "sheriff:0.6"]),
        (6, ["random", "thief", "bluffer:10", "collector"]),
    ] {
        let mut t = Table::new(Rules::standard(players));
        let mut seats = Seats::new(
            (0..players)
                .map(|s| Policy::parse(specs[s % 4]).unwrap())
                .collect(),
        );
        let mut tally = PublicTally::default();
        let mut batch = batch_rng(21, players as u64);
        for _ in 0..20 {
            let mut rng = game_rng(&mut batch);
            t.play_game(&mut seats, &mut tally, &mut rng);
        }
        assert!(
            tally.checked > 1_000,
            "{players} players: {} events",
            tally.checked
        );
    }
}

// ---------------------------------------------------------------------
// Playouts picking a turn up at a decision (`Table::play_on_from`)
// ---------------------------------------------------------------------

/// Records every event and the table at the first event `at` accepts
/// (with the index of the next event).
struct Snap<F: Fn(&Event) -> bool> {
    log: Vec<Event>,
    at: F,
    taken: Option<(Table, usize)>,
}

impl<F: Fn(&Event) -> bool> Observer<Table> for Snap<F> {
    const EVENTS: bool = true;
    fn event(&mut self, t: &Table, e: Event) {
        t.check();
        self.log.push(e);
        if self.taken.is_none() && (self.at)(&e) {
            self.taken = Some((t.clone(), self.log.len()));
        }
    }
}

/// Plays seat 0's turn and the rest of the round (cut off after a few
/// turns) with `real`, keeping the table at the first event `at` accepts;
/// then plays on from that table with `Table::play_on_from(0, resume)` and
/// `rest` (the decisions not taken yet). Both must give the same events
/// and the same table.
fn resumes_like_the_turn(
    mut t: Table,
    mut real: Script,
    at: impl Fn(&Event) -> bool,
    resume: impl Fn(&Event) -> Resume,
    mut rest: Script,
) {
    let mut snap = Snap {
        log: Vec::new(),
        at,
        taken: None,
    };
    t.full_turn(0, &mut real, &mut snap, &mut Stacked);
    if !t.cut_off() {
        t.play_turns_from(1, &mut real, &mut snap, &mut Stacked);
    }
    let (mut w, from) = snap.taken.expect("the event happened");
    let resume = resume(&snap.log[from - 1]);
    let mut log = Log::default();
    w.play_on_from(0, resume, &mut rest, &mut log, &mut Stacked);
    assert_eq!(log.0, snap.log[from..], "{resume:?}: the same events");
    assert_eq!(format!("{w:?}"), format!("{t:?}"), "{resume:?}: the same table");
}

fn short_rules(players: usize) -> Rules {
    let mut r = Rules::standard(players);
    r.round_cap = 7;
    r
}

/// Three players with `hands`: seat 0 plays `play`; the table is kept as
/// the card is played and the turn picked up there at `resume`, with the
/// same Block answers and Take picks.
fn resumes_after_playing(
    hands: &[&str; 3],
    play: Play,
    blocks: &[Option<Card>],
    picks: &[Card],
    resume: Resume,
) {
    let t = table_with(
        short_rules(3),
        hands,
        ["R5", "R6", "R7"],
        "B2 P2 P3 P4 P5 P6 P7 P9 P10 PJ PQ PK PA B4 B5",
    );
    let script = |start: bool| Script {
        starts: if start {
            [Start::Play(play)].into()
        } else {
            [].into()
        },
        blocks: blocks.iter().copied().collect(),
        picks: picks.iter().copied().collect(),
        ..Default::default()
    };
    resumes_like_the_turn(
        t,
        script(true),
        |e| matches!(e, Event::Played { .. }),
        |_| resume,
        script(false),
    );
}

#[test]
fn play_on_from_a_block_plays_the_rest_of_a_steal_and_the_round_as_the_turn_does() {
    let mut p = play("Draw/Steal", Func::Steal);
    p.victims = 0b110;
    p.slots = 0b001;
    // Seat 1 lets it pass, seat 2 blocks with Any.
    let hands = ["Draw/Steal R2", "Draw/Block RA BA", "Any R3 B3"];
    resumes_after_playing(
        &hands,
        p,
        &[None, Some(c("Any"))],
        &[],
        Resume::Block { victim: 1 },
    );
}

#[test]
fn play_on_from_a_block_of_a_take_plays_on_as_the_turn_does() {
    let mut p = play("Draw/Take", Func::Take);
    p.target = 1;
    let hands = ["Draw/Take R2", "Draw/Block RA BA", "R3 B3"];
    for block in [Some(c("Draw/Block")), None] {
        resumes_after_playing(&hands, p, &[block], &[c("BA")], Resume::Block { victim: 1 });
    }
}

#[test]
fn play_on_from_a_take_pick_plays_on_as_the_turn_does() {
    let mut p = play("Draw/Take", Func::Take);
    p.target = 1;
    let hands = ["Draw/Take R2", "RA BA R9", "R3 B3"];
    resumes_after_playing(&hands, p, &[], &[c("BA")], Resume::TakePick { from: 1 });
}

/// Seat 1 holds eight cards and no 7>>>10 or Any: seat 0 draws two,
/// challenges and wins.
fn caught_bluffer() -> Table {
    table_with(
        short_rules(2),
        &["R2", "B3 B4 B5 B6 B7 B9 B10 BJ"],
        ["P5", "P6", "P7"],
        "B2 P2 P3 P4 P9 P10 PJ PQ PK PA R4 R5",
    )
}

#[test]
fn play_on_from_the_penalty_pick_plays_e2_e3_and_the_round_as_the_turn_does() {
    let real = Script {
        challenges: [Some(1)].into(),
        discards: [set("B3 B4")].into(),
        penalty: [set("B3")].into(),
        ..Default::default()
    };
    let rest = Script {
        penalty: [set("B3")].into(),
        ..Default::default()
    };
    resumes_like_the_turn(
        caught_bluffer(),
        real,
        |e| matches!(e, Event::PenaltyDiscard { .. }),
        |e| match *e {
            Event::PenaltyDiscard { cards, .. } => Resume::PenaltyPick { pile: cards },
            _ => unreachable!(),
        },
        rest,
    );
}

#[test]
fn play_on_from_the_challenge_or_the_discard_plays_on_as_the_turn_does() {
    let script = || Script {
        challenges: [Some(1)].into(),
        discards: [set("B3 B4")].into(),
        penalty: [set("B3 B4")].into(),
        ..Default::default()
    };
    let drew = |e: &Event| matches!(e, Event::Drew { seat: 0, .. });
    resumes_like_the_turn(caught_bluffer(), script(), drew, |_| Resume::Challenge, script());
    // No challenge: from the end-of-turn discard on.
    let script = || Script {
        discards: [set("R2")].into(),
        ..Default::default()
    };
    resumes_like_the_turn(caught_bluffer(), script(), drew, |_| Resume::Discard, script());
}
