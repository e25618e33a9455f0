//! Classic Flip cards, card sets, the deck and the scoring of a combined
//! hand.
//!
//! A card is one byte. Within one deck, `k = card % 60`:
//! - `k < 52`: a number card, suit `k / 13` (0 red, 1 blue, 2 purple,
//!   3 gold) and rank `k % 13` (0..13 = 2, 3, .., 10, J, Q, K, A; rank 6
//!   is the 8, a Wild 8 in every suit);
//! - `52 <= k < 60`: an action card ([`ACTIONS`] order).
//!
//! The second deck (5-8 players, or `--decks 2`) is the same layout plus
//! 60. Only seven gold ranks exist in a deck (reading C1: 8 9 10 J Q K A,
//! `--gold-ranks` to change them); the other gold ids are never dealt.
//! A set of cards is a `u128`, bit `c` for card `c`, so both decks share
//! one code path and a hand is scored with a few dozen popcounts.

/// A card id.
pub type Card = u8;
/// A set of cards: bit `c` for card `c`.
pub type CardSet = u128;
/// A rank index, 0..13 = 2..A.
pub type Rank = u8;

/// Ids per deck (60: 52 number slots, 8 actions).
pub const PER_DECK: u8 = 60;
/// Ranks.
pub const RANKS: usize = 13;
/// The rank index of the 8.
pub const EIGHT: Rank = 6;
/// Rank names.
pub const RANK_NAMES: [&str; RANKS] = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
/// Suit letters: red, blue, purple, gold.
pub const SUIT_LETTERS: [char; 4] = ['R', 'B', 'P', 'G'];
/// The gold suit.
pub const GOLD: u8 = 3;

/// Action cards, in id order (id `52 + index`).
pub const ACTIONS: [&str; 8] = [
    "Draw/Take",
    "Draw/Steal",
    "Draw/Block",
    "Swap/Reboot",
    "Chaos/+Turn",
    "2X",
    "7>>>10",
    "Any",
];
/// Action index of Draw/Take.
pub const DRAW_TAKE: u8 = 0;
/// Action index of Draw/Steal.
pub const DRAW_STEAL: u8 = 1;
/// Action index of Draw/Block.
pub const DRAW_BLOCK: u8 = 2;
/// Action index of Swap/Reboot.
pub const SWAP_REBOOT: u8 = 3;
/// Action index of Chaos/+Turn.
pub const CHAOS_TURN: u8 = 4;
/// Action index of 2X.
pub const TWO_X: u8 = 5;
/// Action index of 7>>>10.
pub const SEVEN_TEN: u8 = 6;
/// Action index of Any.
pub const ANY: u8 = 7;

/// The default gold ranks (C1): 8 9 10 J Q K A.
pub const DEFAULT_GOLD: u16 = 0b1_1111_1100_0000;

/// An action function (one half of a dual card, C8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Func {
    /// Draw three cards.
    Draw = 0,
    /// Look at a hand and take one card.
    Take = 1,
    /// Blindly take one card from each of up to three opponents.
    Steal = 2,
    /// Stop a Take or Steal against one's own hand (a reaction).
    Block = 3,
    /// Exchange hands.
    Swap = 4,
    /// Discard the hand and draw as many.
    Reboot = 5,
    /// Collect every hand and the community, deal them out again.
    Chaos = 6,
    /// One extra turn.
    PlusTurn = 7,
}

impl Func {
    /// Every function, in [`Func`] order.
    pub const ALL: [Func; 8] = [
        Func::Draw,
        Func::Take,
        Func::Steal,
        Func::Block,
        Func::Swap,
        Func::Reboot,
        Func::Chaos,
        Func::PlusTurn,
    ];

    /// The function's bit in a function mask.
    #[inline]
    pub fn bit(self) -> u8 {
        1 << self as u8
    }

    /// Lowercase key for CSV columns, `--without` and the JSON trace.
    pub fn key(self) -> &'static str {
        match self {
            Func::Draw => "draw",
            Func::Take => "take",
            Func::Steal => "steal",
            Func::Block => "block",
            Func::Swap => "swap",
            Func::Reboot => "reboot",
            Func::Chaos => "chaos",
            Func::PlusTurn => "plus_turn",
        }
    }

    /// Whether the function may be played once "Flip!" has been called.
    #[inline]
    pub fn after_flip(self) -> bool {
        matches!(self, Func::Draw | Func::Reboot | Func::PlusTurn)
    }
}

/// The functions an action card offers (mask of [`Func::bit`]): Any
/// offers all of them (C6).
pub fn functions(c: Card) -> u8 {
    match action(c) {
        Some(DRAW_TAKE) => Func::Draw.bit() | Func::Take.bit(),
        Some(DRAW_STEAL) => Func::Draw.bit() | Func::Steal.bit(),
        Some(DRAW_BLOCK) => Func::Draw.bit() | Func::Block.bit(),
        Some(SWAP_REBOOT) => Func::Swap.bit() | Func::Reboot.bit(),
        Some(CHAOS_TURN) => Func::Chaos.bit() | Func::PlusTurn.bit(),
        Some(ANY) => 0xFF,
        _ => 0,
    }
}

/// The position of a card within its deck.
#[inline(always)]
pub fn slot(c: Card) -> u8 {
    c % PER_DECK
}

/// The rank of a number card (`None` for an action card).
#[inline]
pub fn rank(c: Card) -> Option<Rank> {
    let k = slot(c);
    (k < 52).then_some(k % 13)
}

/// The suit of a number card (0 red, 1 blue, 2 purple, 3 gold).
#[inline]
pub fn suit(c: Card) -> Option<u8> {
    let k = slot(c);
    (k < 52).then_some(k / 13)
}

/// The action index of an action card.
#[inline]
pub fn action(c: Card) -> Option<u8> {
    let k = slot(c);
    (k >= 52).then_some(k - 52)
}

/// The card of `suit` and `rank` in deck `copy` (0 or 1).
#[inline]
pub const fn number(suit: u8, rank: Rank, copy: u8) -> Card {
    copy * PER_DECK + suit * 13 + rank
}

/// The action card `index` in deck `copy`.
#[inline]
pub const fn action_card(index: u8, copy: u8) -> Card {
    copy * PER_DECK + 52 + index
}

/// The one-card set of `c`.
#[inline(always)]
pub const fn bit(c: Card) -> CardSet {
    1u128 << c
}

const fn both(c: Card) -> CardSet {
    bit(c) | bit(c + PER_DECK)
}

const fn nat_mask(r: Rank) -> CardSet {
    let mut m = 0;
    let mut s = 0;
    while s < 4 {
        m |= both(number(s, r, 0));
        s += 1;
    }
    m
}

/// Natural cards of each rank (every suit, gold included, both decks).
/// The 8s are listed too (C3) though a kind of 8s never beats another.
pub const NAT: [CardSet; RANKS] = {
    let mut a = [0; RANKS];
    let mut r = 0;
    while r < RANKS {
        a[r] = nat_mask(r as u8);
        r += 1;
    }
    a
};

/// The gold card of each rank (both decks).
pub const GOLD_OF: [CardSet; RANKS] = {
    let mut a = [0; RANKS];
    let mut r = 0;
    while r < RANKS {
        a[r] = both(number(GOLD, r as u8, 0));
        r += 1;
    }
    a
};

/// Wild cards: the four 8s and Any (both decks).
pub const WILD: CardSet = NAT[EIGHT as usize] | both(action_card(ANY, 0));
/// Multipliers (each doubles once, C34): 2X, the Gold 8 and Any.
pub const MULT: CardSet = both(action_card(TWO_X, 0)) | GOLD_OF[EIGHT as usize] | both(action_card(ANY, 0));
/// The cards that raise the hand limit to 10 while held (C7): 7>>>10, Any.
pub const LIMIT10: CardSet = both(action_card(SEVEN_TEN, 0)) | both(action_card(ANY, 0));
/// Every action card.
pub const ACTION_CARDS: CardSet = {
    let mut m = 0;
    let mut i = 0;
    while i < 8 {
        m |= both(action_card(i, 0));
        i += 1;
    }
    m
};
/// Any (both decks).
pub const ANY_CARDS: CardSet = both(action_card(ANY, 0));
/// The 2X cards.
pub const TWO_X_CARDS: CardSet = both(action_card(TWO_X, 0));
/// The 7>>>10 cards.
pub const SEVEN_TEN_CARDS: CardSet = both(action_card(SEVEN_TEN, 0));

/// The cards of a set, lowest id first: the low 64 ids, then the high
/// ones (with one deck, nothing). Two 64-bit loops cost half the
/// instructions of one 128-bit loop; folds (`sum`, `any`, `fold`,
/// `for_each`) run them one after the other with no test between.
#[inline]
pub fn cards_of(s: CardSet) -> impl Iterator<Item = Card> {
    Bits64(s as u64).chain(Bits64((s >> 64) as u64).map(|c| c + 64))
}

/// The set bits of a 64-bit word, lowest first.
#[derive(Clone, Copy)]
struct Bits64(u64);

impl Iterator for Bits64 {
    type Item = Card;

    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let c = self.0.trailing_zeros() as Card;
        self.0 &= self.0 - 1;
        Some(c)
    }
}

/// The `i`-th card (from the lowest id) of a set with more than `i` cards.
#[inline]
pub fn nth(mut s: CardSet, i: u32) -> Card {
    for _ in 0..i {
        s &= s - 1;
    }
    s.trailing_zeros() as Card
}

/// Number of cards in a set.
#[inline(always)]
pub fn count(s: CardSet) -> u32 {
    s.count_ones()
}

/// A card's name: `R5`, `G8`, `B10`, `PQ`, or the action's name.
pub fn name(c: Card) -> String {
    match (suit(c), rank(c), action(c)) {
        (Some(s), Some(r), _) => format!("{}{}", SUIT_LETTERS[usize::from(s)], RANK_NAMES[usize::from(r)]),
        (_, _, Some(a)) => ACTIONS[usize::from(a)].to_string(),
        _ => unreachable!(),
    }
}

/// The names of a set, space-separated (`-` when empty).
pub fn names(s: CardSet) -> String {
    if s == 0 {
        return "-".into();
    }
    cards_of(s).map(name).collect::<Vec<_>>().join(" ")
}

/// Parses a rank name (`2`..`10`, `J`, `Q`, `K`, `A`, any case).
pub fn parse_rank(text: &str) -> Option<Rank> {
    let t = text.to_ascii_uppercase();
    RANK_NAMES.iter().position(|&n| n == t).map(|i| i as Rank)
}

/// The action cards' accepted spellings (besides the printed names).
const ACTION_ALIASES: [(&str, u8); 16] = [
    ("DRAW/TAKE", DRAW_TAKE),
    ("DRAW-TAKE", DRAW_TAKE),
    ("DRAW/STEAL", DRAW_STEAL),
    ("DRAW-STEAL", DRAW_STEAL),
    ("DRAW/BLOCK", DRAW_BLOCK),
    ("DRAW-BLOCK", DRAW_BLOCK),
    ("SWAP/REBOOT", SWAP_REBOOT),
    ("SWAP-REBOOT", SWAP_REBOOT),
    ("CHAOS/+TURN", CHAOS_TURN),
    ("CHAOS-TURN", CHAOS_TURN),
    ("2X", TWO_X),
    ("X2", TWO_X),
    ("7>>>10", SEVEN_TEN),
    ("7-10", SEVEN_TEN),
    ("ANY", ANY),
    ("7>10", SEVEN_TEN),
];

/// Parses one card name (deck 0): a suit letter R, B, P or G and a rank
/// (`GA`, `R8`, `b10`), or an action card (`Draw/Take`, `draw-take`, `2X`,
/// `7>>>10`, `7-10`, `Any`, ...).
pub fn parse(text: &str) -> Option<Card> {
    let t = text.trim().to_ascii_uppercase();
    if let Some(&(_, a)) = ACTION_ALIASES.iter().find(|(n, _)| *n == t) {
        return Some(action_card(a, 0));
    }
    let mut chars = t.chars();
    let first = chars.next()?;
    let s = SUIT_LETTERS.iter().position(|&l| l == first)? as u8;
    let r = parse_rank(chars.as_str())?;
    Some(number(s, r, 0))
}

/// What the card names accepted by [`parse`] look like, for messages.
pub const CARD_FORMS: &str = "a suit letter R, B, P or G (red, blue, purple, gold) and a rank 2-10, J, Q, K, A \
     (e.g. GA, R8, B10; the four 8s, R8 B8 P8 G8, are the Wild 8s), or an action card: Draw/Take, Draw/Steal, Draw/Block, Swap/Reboot, Chaos/+Turn, 2X, 7>>>10, Any";

/// The deck of a game: which cards exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deck {
    /// Every card of the deck(s).
    pub all: CardSet,
    /// Number of decks (1 or 2).
    pub decks: u8,
}

impl Deck {
    /// `decks` decks with gold cards of the ranks in `gold` (bit r for rank
    /// r) and without the action cards in `no_actions` (bit i for action
    /// index i).
    pub fn new(decks: u8, gold: u16, no_actions: u8) -> Deck {
        let mut one: CardSet = 0;
        for s in 0..3 {
            for r in 0..13 {
                one |= bit(number(s, r, 0));
            }
        }
        for r in 0..13 {
            if gold & (1 << r) != 0 {
                one |= bit(number(GOLD, r, 0));
            }
        }
        for a in 0..8 {
            if no_actions & (1 << a) == 0 {
                one |= bit(action_card(a, 0));
            }
        }
        let all = if decks >= 2 { one | one << PER_DECK } else { one };
        Deck { all, decks }
    }

    /// The standard deck(s) (C1 gold ranks, every action card).
    pub fn standard(decks: u8) -> Deck {
        Deck::new(decks, DEFAULT_GOLD, 0)
    }

    /// Cards in the deck(s).
    pub fn len(&self) -> usize {
        count(self.all) as usize
    }

    /// Whether the deck is empty (never).
    pub fn is_empty(&self) -> bool {
        self.all == 0
    }
}

/// How a combined hand scores (section "Scoring"): the best kind, its
/// base points and every doubling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Score {
    /// The round score.
    pub points: u32,
    /// The best kind's size (naturals of the rank plus every wild).
    pub kind: u32,
    /// The rank collected (`None` when nothing reaches five).
    pub rank: Option<Rank>,
    /// 10 for five of a kind, 20 for six or more, else 0.
    pub base: u32,
    /// The doublings (2X, Gold 8, Any, the gold card of the rank).
    pub doublings: u32,
}

/// For every index x below N: bit i of x moved to bit `width * (i +
/// first)` (each bit of a set to the low bit of its nibble or byte).
pub(crate) const fn spread_table<const N: usize>(width: u32, first: u32) -> [u64; N] {
    let mut t = [0u64; N];
    let mut x = 0;
    while x < N {
        let mut i = 0;
        while x >> i != 0 {
            if x & (1 << i) != 0 {
                t[x] |= 1 << (width * (i + first));
            }
            i += 1;
        }
        x += 1;
    }
    t
}

/// Spreads the low 7 bits of an index into nibbles (bit i to nibble i).
const SPREAD_LO: [u64; 128] = spread_table(4, 0);

/// Spreads 6 bits into nibbles 7..13.
const SPREAD_HI: [u64; 64] = spread_table(4, 7);

/// The ranks of a 13-bit suit chunk as one nibble per rank.
#[inline(always)]
fn spread(chunk: u64) -> u64 {
    SPREAD_LO[(chunk & 0x7F) as usize] + SPREAD_HI[((chunk >> 7) & 0x3F) as usize]
}

/// How many number cards of each rank a set holds, one nibble per rank
/// (nibble r = rank r; at most 8, two decks of four suits). A table
/// lookup per suit instead of a popcount per rank: the build targets
/// plain x86-64, where a popcount is a dozen instructions.
#[inline]
pub fn rank_counts(m: CardSet) -> u64 {
    let lo = m as u64;
    let mut acc = spread(lo) + spread(lo >> 13) + spread(lo >> 26) + spread(lo >> 39);
    let hi = (m >> 60) as u64 & ((1 << 52) - 1);
    if hi != 0 {
        acc += spread(hi) + spread(hi >> 13) + spread(hi >> 26) + spread(hi >> 39);
    }
    acc
}

/// How many gold cards of each rank a set holds, one nibble per rank.
#[inline]
pub fn gold_counts(m: CardSet) -> u64 {
    let hi = (m >> 99) as u64 & 0x1FFF;
    spread((m >> 39) as u64) + if hi != 0 { spread(hi) } else { 0 }
}

/// The nibble of rank `r` in a [`rank_counts`] word.
#[inline(always)]
pub fn nibble(counts: u64, r: usize) -> u32 {
    ((counts >> (4 * r)) & 0xF) as u32
}

/// Wild cards in a set (8s and Any).
#[inline(always)]
pub fn wilds(m: CardSet, counts: u64) -> u32 {
    nibble(counts, EIGHT as usize) + bits_at(m, ANY_BITS)
}

/// The action-card bits of Any, 2X and the Gold 8 (both decks).
const ANY_BITS: [u8; 2] = [action_card(ANY, 0), action_card(ANY, 1)];
const FIXED_MULT_BITS: [u8; 6] = [
    action_card(TWO_X, 0),
    action_card(TWO_X, 1),
    number(GOLD, EIGHT, 0),
    number(GOLD, EIGHT, 1),
    action_card(ANY, 0),
    action_card(ANY, 1),
];

#[inline(always)]
fn bits_at<const N: usize>(m: CardSet, at: [u8; N]) -> u32 {
    at.iter().map(|&b| ((m >> b) & 1) as u32).sum()
}

/// Whether some rank reaches five of a kind in combined hand `m` (naturals
/// plus every wild), without a loop over the ranks: whether [`score`]
/// finds a scoring rank.
#[inline]
pub fn reaches_five(m: CardSet) -> bool {
    const ONES: u64 = 0x1_1111_1111_1111; // one per rank nibble
    let counts = rank_counts(m);
    let w = wilds(m, counts);
    if w >= 5 {
        return true;
    }
    // Nibble + (3 + w) has its top bit set exactly when nibble + w >= 5;
    // at most 8 + 7, so no nibble carries into the next. Rank 8 (wild)
    // is left out.
    let naturals = counts & !(0xF << (4 * EIGHT as u32));
    (naturals + u64::from(3 + w) * ONES) & (8 * ONES) != 0
}

/// The round score of combined hand `m` (C33: hand plus community).
#[inline]
pub fn points(m: CardSet) -> u32 {
    score(m).points
}

/// The round score of combined hand `m` and how it is reached: for every
/// rank but 8, kind = naturals + wilds (8s and Any), base 10 for five,
/// 20 for six or more, doubled once for each 2X, Gold 8 and Any (C34) and
/// for each gold card of the rank; the best rank counts. Ties between
/// ranks go to the higher rank.
#[inline]
pub fn score(m: CardSet) -> Score {
    score_split(m, m)
}

/// As [`score`], with the multipliers (2X, Gold 8, Any, gold of the rank)
/// counted from `mult_from` only (the C17 option that counts community
/// multipliers for nobody).
#[inline]
pub fn score_split(m: CardSet, mult_from: CardSet) -> Score {
    let counts = rank_counts(m);
    let w = wilds(m, counts);
    let m0 = bits_at(mult_from, FIXED_MULT_BITS);
    let gold = gold_counts(mult_from);
    let mut best = Score::default();
    for r in (0..RANKS).rev() {
        if r == EIGHT as usize {
            continue;
        }
        let k = nibble(counts, r) + w;
        if k >= 5 {
            let base = if k >= 6 { 20 } else { 10 };
            let d = m0 + nibble(gold, r);
            let p = base << d;
            if p > best.points {
                best = Score {
                    points: p,
                    kind: k,
                    rank: Some(r as Rank),
                    base,
                    doublings: d,
                };
            }
        } else if best.rank.is_none() && k > best.kind {
            best.kind = k;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(text: &str) -> CardSet {
        let mut m = 0;
        for t in text.split_whitespace() {
            let c = parse(t).unwrap();
            m |= if m & bit(c) != 0 { bit(c + PER_DECK) } else { bit(c) };
        }
        m
    }

    #[test]
    fn reaches_five_exactly_when_the_score_has_a_rank() {
        use crate::engine::rng::{Draw, SimRng};
        use rand::SeedableRng;
        let mut rng = SimRng::seed_from_u64(5);
        for decks in [1, 2] {
            let deck = Deck::standard(decks).all;
            let mut hits = 0;
            for _ in 0..50_000 {
                let keep = 2 + rng.below(12);
                let m = cards_of(deck).filter(|_| rng.below(keep) == 0).fold(0, |m, c| m | bit(c));
                assert_eq!(reaches_five(m), score(m).rank.is_some(), "{}", names(m));
                hits += u32::from(reaches_five(m));
            }
            assert!(hits > 1_000, "too few fives to test: {hits}");
        }
    }

    #[test]
    fn the_deck_has_54_cards_and_two_decks_108() {
        assert_eq!(Deck::standard(1).len(), 54);
        assert_eq!(Deck::standard(2).len(), 108);
        assert_eq!(count(Deck::standard(1).all & WILD), 5);
        assert_eq!(count(Deck::standard(1).all & MULT), 3);
    }

    #[test]
    fn names_parse_back() {
        for c in cards_of(Deck::standard(1).all) {
            assert_eq!(parse(&name(c)), Some(c), "{}", name(c));
        }
    }

    #[test]
    fn rank_counts_match_popcounts() {
        let all = Deck::standard(2).all;
        let mut x = 0x9E37_79B9_7F4A_7C15_u128 ^ (0xDEAD_BEEF_u128 << 64);
        for _ in 0..2000 {
            x = x.wrapping_mul(0x2545_F491_4F6C_DD1D_u128 | 1).wrapping_add(7);
            let m = x & all;
            let (c, g) = (rank_counts(m), gold_counts(m));
            for r in 0..RANKS {
                assert_eq!(nibble(c, r), count(m & NAT[r]));
                assert_eq!(nibble(g, r), count(m & GOLD_OF[r]));
            }
            assert_eq!(wilds(m, c), count(m & WILD));
            assert_eq!(bits_at(m, FIXED_MULT_BITS), count(m & MULT));
        }
    }

    #[test]
    fn sample_hands() {
        assert_eq!(points(set("RA BA PA Any")), 0);
        assert_eq!(points(set("GA G8 RA BA PA")), 40);
        assert_eq!(points(set("Any GA G8 RA BA PA 2X")), 320);
        assert_eq!(points(set("RA BA PA GA R8")), 20);
        assert_eq!(points(set("RA BA PA RA R8")), 10);
    }
}
