//! IB-Flip cards, card sets, the game order and the play-on table.
//!
//! A card is one byte, `rank * 4 + suit`: rank 0..13 = 2, 3, 4, 5, 6, 7,
//! 8, 9, 10, J, Q, K, A and suit 0..4 = hearts, diamonds, clubs, spades
//! (the text's suit order, lowest first). The four cards of a rank are four
//! consecutive bits of a [`CardSet`] (a `u64`, bit `c` for card `c`), so the
//! cards of one rank in a zone are one mask away.

/// A card: `rank * 4 + suit`.
pub type Card = u8;
/// A set of cards: bit `c` set for card `c`.
pub type CardSet = u64;
/// A rank index (0..13 = 2..A).
pub type Rank = u8;

/// Cards in the deck.
pub const DECK: usize = 52;
/// Ranks.
pub const RANKS: usize = 13;
/// Every card.
pub const ALL: CardSet = (1 << DECK) - 1;

/// Rank indices by name.
pub const TWO: Rank = 0;
/// 3.
pub const THREE: Rank = 1;
/// 4.
pub const FOUR: Rank = 2;
/// 5.
pub const FIVE: Rank = 3;
/// 6.
pub const SIX: Rank = 4;
/// 7.
pub const SEVEN: Rank = 5;
/// 8.
pub const EIGHT: Rank = 6;
/// 9.
pub const NINE: Rank = 7;
/// 10.
pub const TEN: Rank = 8;
/// Jack.
pub const JACK: Rank = 9;
/// Queen.
pub const QUEEN: Rank = 10;
/// King.
pub const KING: Rank = 11;
/// Ace.
pub const ACE: Rank = 12;
/// The target "zero": an empty live pile, a lone 5, an Ace that became a one.
pub const ZERO: u8 = 13;

/// The rank of `c`.
#[inline(always)]
pub fn rank(c: Card) -> Rank {
    c >> 2
}

/// The suit of `c` (0 hearts, 1 diamonds, 2 clubs, 3 spades).
#[inline(always)]
pub fn suit(c: Card) -> u8 {
    c & 3
}

/// The four cards of rank `r`.
#[inline(always)]
pub const fn rank_set(r: Rank) -> CardSet {
    0xF << (4 * r as u32)
}

/// The ranks present in a card set, as a 13-bit mask (bit `r` for rank `r`).
#[inline(always)]
pub fn ranks_of(s: CardSet) -> u16 {
    // Fold each nibble onto its low bit (bit 4r), then gather by halving
    // the spacing: pairs in each byte, fours in each 16 bits, and so on.
    let x = s | (s >> 1);
    let x = (x | (x >> 2)) & 0x0001_1111_1111_1111;
    let x = (x | (x >> 3)) & 0x0303_0303_0303_0303;
    let x = (x | (x >> 6)) & 0x000F_000F_000F_000F;
    let x = (x | (x >> 12)) & 0x0000_00FF_0000_00FF;
    ((x | (x >> 24)) & 0xFFFF) as u16
}

/// Cards of rank `r` in `s`.
#[inline(always)]
pub fn count_rank(s: CardSet, r: Rank) -> u32 {
    (s & rank_set(r)).count_ones()
}

/// The cards of a set, lowest id first.
pub fn cards_of(mut s: CardSet) -> impl Iterator<Item = Card> {
    std::iter::from_fn(move || {
        if s == 0 {
            return None;
        }
        let c = s.trailing_zeros() as Card;
        s &= s - 1;
        Some(c)
    })
}

/// The `k`-th card (0-based, lowest id first) of a set.
#[inline]
pub fn nth_card(mut s: CardSet, k: u32) -> Card {
    for _ in 0..k {
        s &= s - 1;
    }
    s.trailing_zeros() as Card
}

/// The `k` lowest cards of a set.
#[inline]
pub fn lowest_k(s: CardSet, k: u32) -> CardSet {
    let mut out = 0;
    let mut m = s;
    for _ in 0..k {
        let b = m & m.wrapping_neg();
        out |= b;
        m &= m - 1;
    }
    out
}

/// Position of each rank in the game order
/// 3 < 6 < 8 < 9 < J < Q < K < A < 7 < 2 < 10 < 4 < 5 (the text's "lowest
/// card" order, which is also the play-on order).
pub const ORDER: [u8; RANKS] = [9, 0, 11, 12, 1, 8, 2, 3, 10, 4, 5, 6, 7];

/// The ranks from lowest to highest in the game order.
pub const BY_ORDER: [Rank; RANKS] = [THREE, SIX, EIGHT, NINE, JACK, QUEEN, KING, ACE, SEVEN, TWO, TEN, FOUR, FIVE];

/// The numeric value used by the 7 ("7 or lower", the Ace as one).
pub const fn face(r: Rank) -> u8 {
    if r == ACE { 1 } else { r + 2 }
}

/// Every rank.
pub const ALL_RANKS: u16 = (1 << RANKS) - 1;

/// Which card powers are switched off (`--without`): bit `r` for rank `r`'s
/// power, [`SETS_OFF`] for the four-of-a-kind flips, [`SPECIAL_OFF`] for
/// the special flips of 3s, 4s, 8s and 9s (they flip as ordinary sets).
pub type Powers = u16;
/// The four-of-a-kind flip is off.
pub const SETS_OFF: Powers = 1 << 13;
/// The special flips are off.
pub const SPECIAL_OFF: Powers = 1 << 14;

/// Whether rank `r` keeps its power under `off`.
#[inline(always)]
pub fn power(off: Powers, r: Rank) -> bool {
    off & (1 << r) == 0
}

/// The ranks that may be played on target `t` (a rank, or [`ZERO`]) with
/// the powers `off` switched off. With every power on this is the rule
/// text's table (checked cell by cell in the tests):
///
/// - zero or 2: anything;
/// - 4: only 4, 5, 6;
/// - 7: 7 or lower by face value, the Ace as one;
/// - otherwise: a card at least as high in the game order.
///
/// A rank whose power is off is an ordinary card at its place in the game
/// order (a 5 is then a target like any other, only 5s go on it).
pub const fn can_on(t: u8, off: Powers) -> u16 {
    if t == ZERO {
        return ALL_RANKS;
    }
    let on = off & (1 << t) == 0;
    if on && t == TWO {
        return ALL_RANKS;
    }
    if on && t == FOUR {
        return (1 << FOUR) | (1 << FIVE) | (1 << SIX);
    }
    let mut m = 0u16;
    let mut r = 0;
    while r < RANKS {
        let ok = if on && t == SEVEN {
            face(r as Rank) <= 7
        } else {
            ORDER[r] >= ORDER[t as usize]
        };
        if ok {
            m |= 1 << r;
        }
        r += 1;
    }
    m
}

/// [`can_on`] for every target (14 entries, the last for zero).
pub fn can_on_table(off: Powers) -> [u16; 14] {
    std::array::from_fn(|t| can_on(t as u8, off))
}

/// The short name of a rank: `2`..`10`, `J`, `Q`, `K`, `A`.
pub const RANK_NAMES: [&str; RANKS] = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
/// Suit letters in suit order.
pub const SUIT_NAMES: [char; 4] = ['H', 'D', 'C', 'S'];

/// A card's name: rank then suit (`10H`, `AS`).
pub fn name(c: Card) -> String {
    format!("{}{}", RANK_NAMES[usize::from(rank(c))], SUIT_NAMES[usize::from(suit(c))])
}

/// The names of a set's cards, lowest id first, space-separated.
pub fn names(s: CardSet) -> String {
    cards_of(s).map(name).collect::<Vec<_>>().join(" ")
}

/// A rank from its name (`10`, `J`, `a`...).
pub fn parse_rank(text: &str) -> Option<Rank> {
    let t = text.trim().to_ascii_uppercase();
    RANK_NAMES.iter().position(|n| *n == t).map(|r| r as Rank)
}

/// A card from its name (`10H`, `as`), or `None`.
pub fn parse(text: &str) -> Option<Card> {
    let t = text.trim().to_ascii_uppercase();
    let s = t.chars().last()?;
    let suit = SUIT_NAMES.iter().position(|&x| x == s)?;
    let r = parse_rank(&t[..t.len() - 1])?;
    Some(r * 4 + suit as u8)
}

/// A set from names separated by spaces.
pub fn parse_set(text: &str) -> Option<CardSet> {
    text.split_whitespace().try_fold(0, |m, t| Some(m | 1u64 << parse(t)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for c in 0..DECK as Card {
            assert_eq!(parse(&name(c)), Some(c));
        }
        assert_eq!(name(0), "2H");
        assert_eq!(name(51), "AS");
    }

    #[test]
    fn ranks_of_finds_every_rank() {
        assert_eq!(ranks_of(0), 0);
        for m in [0x5u64, 0xF0F0_F0F0_F0F0, 0x000F_0000_0000_0001, ALL ^ (1 << 51)] {
            let slow = (0..RANKS as Rank).filter(|&r| m & rank_set(r) != 0).fold(0u16, |a, r| a | 1 << r);
            assert_eq!(ranks_of(m), slow, "{m:x}");
        }
        assert_eq!(ranks_of(ALL), ALL_RANKS);
        for c in 0..DECK as Card {
            assert_eq!(ranks_of(1 << c), 1 << rank(c));
        }
    }

    #[test]
    fn order_lists_every_rank_once() {
        for (i, &r) in BY_ORDER.iter().enumerate() {
            assert_eq!(usize::from(ORDER[usize::from(r)]), i);
        }
    }

    #[test]
    fn lowest_k_and_nth() {
        let s = 0b1011_0100u64;
        assert_eq!(lowest_k(s, 2), 0b1_0100);
        assert_eq!(nth_card(s, 2), 5);
    }
}
