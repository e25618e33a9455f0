//! Solo single rounds of number cards only, the round of every "at which
//! score should I stay" study, played at full speed.
//!
//! With number cards alone (`--without actions,modifiers`) a solo round
//! is the set of numbers held: the deal flips one card, then the player
//! hits or stays until a duplicate busts them, a seventh number makes a
//! Flip 7 or they stay. [`NumbersOnly`] plays exactly those rounds, with
//! everything in registers: the mask of numbers held, their sum and count,
//! the pile a local array shuffled one step per card drawn. It draws the
//! same random numbers in the same order as [`Table::play_solo_rounds`]
//! (and so as [`Table::play_game`]), so every round, and every output, is
//! the same; tests play both and compare.
//!
//! A rule decides from the numbers held ([`HandRule`]): a threshold on
//! their sum, or the answers of a policy kept by their mask
//! ([`AskedOnce`]), each asked once of the policy itself.

use super::cards::{KINDS, MAX_NUMBER, PLUS2, fresh_pile};
use super::policies::{Policy, Seats};
use super::rules::{Arrangement, FLIP7_BONUS, FLIP7_CARDS, Hand, Rules, SoloTally, Status, Table};
use crate::engine::rng::{FreshPicks, Pile, SimRng, next_game_seed};

/// Hands of number cards, by their mask (numbers 0 to 12).
pub const HANDS: usize = 1 << (MAX_NUMBER as usize + 1);

/// Hit or Stay from the numbers held alone.
pub trait HandRule {
    /// Whether to hit holding the numbers of `mask`, worth `sum`.
    fn hit(&mut self, mask: u16, sum: u16) -> bool;
}

/// `stay-at-N`: hit while the numbers are worth less than N.
pub struct StayAt(pub u16);

impl HandRule for StayAt {
    #[inline(always)]
    fn hit(&mut self, _: u16, sum: u16) -> bool {
        sum < self.0
    }
}

/// Solo single rounds of a deck of number cards only.
pub struct NumbersOnly {
    fresh: Pile,
    cards: usize,
}

impl NumbersOnly {
    /// The rounds of `rules`, when they are solo single rounds of number
    /// cards only from a deck of 9 to 128 cards: a round draws at most
    /// seven, so it never runs out, its fifth draw finds at least five cards
    /// (what [`FreshPicks::pick`] asks), and the pile to restore after it
    /// is the first half of its slots.
    pub fn of(rules: &Rules) -> Option<NumbersOnly> {
        let cards: usize = rules.composition.iter().map(|&c| usize::from(c)).sum();
        let numbers_only = rules.composition[usize::from(PLUS2)..].iter().all(|&c| c == 0);
        (rules.players == 1 && rules.single_round && numbers_only && cards > FLIP7_CARDS as usize + 1 && cards <= 128).then(|| {
            NumbersOnly {
                fresh: fresh_pile(&rules.composition),
                cards,
            }
        })
    }

    /// Plays `games` rounds, each from a generator of its own drawn from
    /// `batch` ([`crate::engine::rng::game_rng`], made as far as the round
    /// needs it: [`FreshPicks`]), with `rule` deciding.
    // Inlined into its one caller: kept apart (which the compiler chose or
    // not as the rest of the crate changed), the answers kept by mask cost
    // 58 more instructions a round (the optimal rule, 2026-12-07).
    #[inline(always)]
    pub fn play<R: HandRule>(&self, rule: &mut R, batch: &mut SimRng, games: u64) -> SoloTally {
        let mut pile = self.fresh;
        let mut tally = SoloTally::default();
        // Kept in registers, not written back at every round.
        let mut seeds = batch.clone();
        for _ in 0..games {
            let mut d = FreshPicks::new(next_game_seed(&mut seeds));
            let mut len = self.cards;
            let (mut mask, mut sum, mut count) = (0u16, 0u16, 0u32);
            let status = loop {
                // The draw, as `Deck::draw` makes it: the shuffle's step for
                // the top card (pick `count` of the fresh pile: every card
                // drawn so far is a number held), then the top card. The top
                // is not written: it is never read again before the pile is
                // restored.
                let j = d.pick(count as usize, len) & 255;
                len -= 1;
                let card = pile[j];
                pile[j] = pile[len & 255];
                let bit = 1u16 << (card & 15);
                if mask & bit != 0 {
                    break Status::Busted;
                }
                mask |= bit;
                sum += u16::from(card);
                count += 1;
                if count >= FLIP7_CARDS {
                    break Status::Flip7;
                }
                if !rule.hit(mask, sum) {
                    break Status::Stayed;
                }
            };
            // A deck of number cards fills at most the first half of the slots.
            pile[..128].copy_from_slice(&self.fresh[..128]);
            let score = u64::from(match status {
                Status::Busted => 0,
                Status::Flip7 => sum + FLIP7_BONUS,
                _ => sum,
            });
            tally.add(score, (self.cards - len) as u64, status);
        }
        *batch = seeds;
        tally
    }
}

/// The answers of a policy whose Hit or Stay in a solo round of number
/// cards depends on the numbers held alone (`optimal-round`, `ev`,
/// `bust-prob:P`, the thresholds): what is unseen is the fresh deck less
/// those numbers, and nothing else is on the table. Each answer is asked
/// of the policy once per thread, at a table arranged holding those
/// numbers, and kept by their mask.
pub struct AskedOnce<'a> {
    seats: &'a mut Seats,
    rules: Rules,
    known: Option<Box<Known>>,
}

/// The answers an [`AskedOnce`] has asked, by the mask of numbers held (0
/// not asked yet, 1 stay, 2 hit), for one policy and deck.
struct Known {
    policy: Policy,
    composition: [u8; KINDS],
    answers: [u8; HANDS],
}

thread_local! {
    /// This thread's answers of the last [`AskedOnce`], kept from one batch
    /// of games to the next.
    static KNOWN: std::cell::Cell<Option<Box<Known>>> = const { std::cell::Cell::new(None) };
}

impl<'a> AskedOnce<'a> {
    /// Whether the one seat of `policies` at a table of `rules` decides by
    /// the numbers held alone.
    pub fn fits(policies: &[Policy], rules: &Rules) -> bool {
        policies.len() == 1 && policies[0].decides_by_numbers_held() && NumbersOnly::of(rules).is_some()
    }

    /// The answers of the one seat of `seats` (which [`AskedOnce::fits`]).
    pub fn new(seats: &'a mut Seats, policy: Policy, rules: &Rules) -> AskedOnce<'a> {
        let composition = rules.composition;
        let known = KNOWN
            .take()
            .filter(|k| k.policy == policy && k.composition == composition)
            .unwrap_or_else(|| {
                Box::new(Known {
                    policy,
                    composition,
                    answers: [0; HANDS],
                })
            });
        AskedOnce {
            seats,
            rules: *rules,
            known: Some(known),
        }
    }

    /// The policy's answer holding the numbers of `mask`, asked at a table
    /// arranged as the round stands then.
    #[cold]
    #[inline(never)]
    fn ask(&mut self, mask: u16) -> bool {
        let numbers: Vec<u8> = (0..=MAX_NUMBER).filter(|&n| mask & (1 << n) != 0).collect();
        let mut in_play = [0u8; KINDS];
        for &n in &numbers {
            in_play[usize::from(n)] = 1;
        }
        let hand = Hand::holding(&numbers, 0, 0, false).in_front(Status::Active, numbers.len() as u8);
        let t = Table::arranged(
            self.rules,
            &Arrangement {
                round: 0,
                totals: &[0],
                hands: &[hand],
                discard: [0; KINDS],
                in_play,
                pending: &[],
            },
        )
        .expect("the numbers of a round of this deck");
        super::rules::Chooser::hit(self.seats, &t, 0)
    }
}

impl HandRule for AskedOnce<'_> {
    #[inline(always)]
    fn hit(&mut self, mask: u16, _: u16) -> bool {
        let held = usize::from(mask) & (HANDS - 1);
        let answer = self.known.as_ref().expect("kept until dropped").answers[held];
        if answer != 0 {
            return answer == 2;
        }
        let hit = self.ask(mask);
        self.known.as_mut().expect("kept until dropped").answers[held] = 1 + u8::from(hit);
        hit
    }
}

impl Drop for AskedOnce<'_> {
    fn drop(&mut self) {
        KNOWN.set(self.known.take());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::flip7::cards::{Without, composition};
    use crate::games::flip7::optimal;

    /// Every answer `optimal-round` gave in a solo round of number cards,
    /// kept by the numbers held, is the search's from that hand.
    #[test]
    fn the_answers_kept_by_the_numbers_held_are_the_searchs() {
        let numbers = Without::parse("actions,modifiers").unwrap();
        let rules = Rules {
            players: 1,
            composition: composition(1, numbers),
            single_round: true,
            fresh_deck: false,
        };
        let policy = Policy::parse("optimal-round").unwrap();
        let mut seats = Seats::new(vec![policy]);
        let rounds = NumbersOnly::of(&rules).expect("number cards only");
        let mut batch = crate::engine::rng::batch_rng(5, 0);
        let kept = {
            let mut asked = AskedOnce::new(&mut seats, policy, &rules);
            rounds.play(&mut asked, &mut batch, 20_000);
            asked.known.as_ref().unwrap().answers
        };
        let mut memo = optimal::Memo::default();
        let mut asked = 0;
        for (held, &answer) in kept.iter().enumerate().filter(|(_, a)| **a != 0) {
            let numbers: Vec<u8> = (0..=MAX_NUMBER).filter(|&n| held & (1 << n) != 0).collect();
            let hand = Hand::holding(&numbers, 0, 0, false);
            let mut unseen = rules.composition;
            for &n in &numbers {
                unseen[usize::from(n)] -= 1;
            }
            let searched = optimal::decide(&hand, &unseen, true, &mut memo);
            assert_eq!(answer == 2, searched, "numbers held {held:#b}");
            asked += 1;
        }
        assert!(asked > 500, "{asked} hands asked");
    }

    /// A deck of eight cards or fewer is the table's (a round could draw its
    /// fifth card from fewer than five), and so are a table of two and
    /// whole games.
    #[test]
    fn only_solo_single_rounds_of_number_cards_are_played_here() {
        let numbers = composition(1, Without::parse("actions,modifiers").unwrap());
        let rules = |players, single_round, composition| Rules {
            players,
            composition,
            single_round,
            fresh_deck: false,
        };
        assert!(NumbersOnly::of(&rules(1, true, numbers)).is_some());
        assert!(NumbersOnly::of(&rules(2, true, numbers)).is_none());
        assert!(NumbersOnly::of(&rules(1, false, numbers)).is_none());
        assert!(NumbersOnly::of(&rules(1, true, composition(1, Without::default()))).is_none());
        let mut seven = [0u8; KINDS];
        seven[..8].copy_from_slice(&[0, 1, 2, 3, 2, 0, 0, 0]);
        assert!(NumbersOnly::of(&rules(1, true, seven)).is_none());
        seven[5] = 1;
        assert!(NumbersOnly::of(&rules(1, true, seven)).is_some());
    }
}
