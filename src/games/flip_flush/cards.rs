//! Flip-Flush cards, card sets, the deck and the bit-packed 3x3 grid.
//!
//! A card is one byte, `suit * 13 + rank` (suit 0..4 = clubs, diamonds,
//! hearts, spades; rank 0..13 = ace, 2..10, jack, queen, king), so the 13
//! cards of a suit are 13 consecutive bits of a [`CardSet`] (a `u64` with
//! bit `c` set for card `c`). Only suits matter to the rules.
//!
//! The grid is one `u64`: cell `i` (0..9, row by row) uses bits `7i..7i+7`,
//! the low six for the card (or [`NO_CARD`] when the cell is empty) and the
//! seventh for face-up.

use crate::engine::bits::ones;
use crate::engine::rng::Draw;

/// A card: `suit * 13 + rank`.
pub type Card = u8;

/// A set of cards: bit `c` set for card `c`.
pub type CardSet = u64;

/// Cards in the deck.
pub const DECK: usize = 52;
/// Suits.
pub const SUITS: usize = 4;
/// Ranks per suit.
pub const RANKS: u8 = 13;
/// Cells of the grid.
pub const CELLS: usize = 9;
/// Every card of the deck.
pub const ALL: CardSet = (1 << DECK) - 1;
/// Every cell of the grid, as a cell mask (bit `i` for cell `i`).
pub const ALL_CELLS: u16 = (1 << CELLS) - 1;

/// Card field of an empty cell.
pub const NO_CARD: u8 = 0x3F;

/// The suit of `c` (0..4).
#[inline(always)]
pub fn suit(c: Card) -> usize {
    // c / 13 for c < 52, without a division.
    ((u32::from(c) * 79) >> 10) as usize
}

/// The rank of `c` (0..13).
#[inline]
pub fn rank(c: Card) -> u8 {
    c - suit(c) as u8 * RANKS
}

/// The card of `rank` in `suit`.
#[inline]
pub fn card(suit: usize, rank: u8) -> Card {
    debug_assert!(suit < SUITS && rank < RANKS);
    suit as u8 * RANKS + rank
}

/// The cards of suit `s`.
#[inline(always)]
pub const fn suit_set(s: usize) -> CardSet {
    0x1FFF << (13 * s)
}

/// Suit letters, in suit order.
pub const SUIT_LETTERS: [char; SUITS] = ['C', 'D', 'H', 'S'];

/// The card's name: rank then suit letter, e.g. `AS`, `10H`, `QC`.
pub fn name(c: Card) -> String {
    const RANK_NAMES: [&str; 13] = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
    if usize::from(c) >= DECK {
        return format!("?{c}");
    }
    format!("{}{}", RANK_NAMES[usize::from(rank(c))], SUIT_LETTERS[suit(c)])
}

/// Parses a name written by [`name`] (for tests and examples).
pub fn parse(text: &str) -> Option<Card> {
    let (r, s) = text.split_at(text.len().checked_sub(1)?);
    let s = SUIT_LETTERS.iter().position(|&l| s.starts_with(l))?;
    let r = match r {
        "A" => 0,
        "J" => 10,
        "Q" => 11,
        "K" => 12,
        n => n.parse::<u8>().ok().filter(|n| (2..=10).contains(n))? - 1,
    };
    Some(card(s, r))
}

/// The cards of a set, lowest first.
pub fn cards_of(set: CardSet) -> impl Iterator<Item = Card> {
    ones(set).map(|c| c as Card)
}

/// The eight lines of the grid as cell masks: three rows, three columns,
/// two diagonals.
pub const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// For each cell, the lines through it (as indices into [`LINES`]), as a
/// bit mask over the eight lines.
pub const LINES_THROUGH: [u8; CELLS] = {
    let mut t = [0u8; CELLS];
    let mut l = 0;
    while l < LINES.len() {
        let mut c = 0;
        while c < CELLS {
            if LINES[l] & (1 << c) != 0 {
                t[c] |= 1 << l;
            }
            c += 1;
        }
        l += 1;
    }
    t
};

/// For each cell, the other two cells of each line through it (up to four
/// pairs; unused pairs are 0, which never completes a line: see
/// [`pairs_complete`]).
pub const PAIRS: [[u16; 4]; CELLS] = {
    let mut t = [[0u16; 4]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut n = 0;
        let mut l = 0;
        while l < LINES.len() {
            if LINES[l] & (1 << c) != 0 {
                t[c][n] = LINES[l] & !(1 << c);
                n += 1;
            }
            l += 1;
        }
        c += 1;
    }
    t
};

/// For each set of cells (a 9-bit mask), the cells that some line would
/// complete: a line through the cell has both its other cells in the set.
pub const COMPLETES: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut set = 0;
    while set < 512 {
        let mut c = 0;
        while c < CELLS {
            let mut k = 0;
            while k < 4 {
                let m = PAIRS[c][k];
                // An unused pair (0) must not count.
                if m != 0 && m & set as u16 == m {
                    t[set] |= 1 << c;
                }
                k += 1;
            }
            c += 1;
        }
        set += 1;
    }
    t
};

/// Whether some line through `cell` has both other cells in `cells`.
#[inline(always)]
pub fn pairs_complete(cell: usize, cells: u16) -> bool {
    COMPLETES[usize::from(cells) & 511] >> cell & 1 != 0
}

/// What a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// No card.
    Empty,
    /// A face-down card.
    Down(Card),
    /// A face-up card.
    Up(Card),
}

/// The 3x3 grid, bit-packed into one `u64` (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid(u64);

const _: () = assert!(std::mem::size_of::<Grid>() == 8 && 7 * CELLS <= 64);

const UP_BIT: u64 = 0x40;
const CELL_BITS: u64 = 0x7F;

impl Grid {
    /// Nine empty cells.
    pub const EMPTY: Grid = {
        let mut g = 0u64;
        let mut i = 0;
        while i < CELLS {
            g |= (NO_CARD as u64) << (7 * i);
            i += 1;
        }
        Grid(g)
    };

    /// The packed bits.
    #[inline]
    pub fn bits(self) -> u64 {
        self.0
    }

    /// What cell `i` holds.
    #[inline(always)]
    pub fn cell(self, i: usize) -> Cell {
        let raw = (self.0 >> (7 * i)) & CELL_BITS;
        let c = (raw & 0x3F) as Card;
        if c == NO_CARD {
            Cell::Empty
        } else if raw & UP_BIT != 0 {
            Cell::Up(c)
        } else {
            Cell::Down(c)
        }
    }

    /// The card in cell `i`, face-up or down (`None` when empty).
    #[inline(always)]
    pub fn card(self, i: usize) -> Option<Card> {
        let c = ((self.0 >> (7 * i)) & 0x3F) as Card;
        (c != NO_CARD).then_some(c)
    }

    /// Puts `c` face-down in cell `i`, returning what was there.
    #[inline(always)]
    pub fn place(&mut self, i: usize, c: Card) -> Cell {
        let old = self.cell(i);
        self.0 = (self.0 & !(CELL_BITS << (7 * i))) | (u64::from(c) << (7 * i));
        old
    }

    /// Turns the card in cell `i` face-up and returns it. The cell must hold
    /// a face-down card.
    #[inline(always)]
    pub fn flip(&mut self, i: usize) -> Card {
        debug_assert!(matches!(self.cell(i), Cell::Down(_)));
        self.0 |= UP_BIT << (7 * i);
        ((self.0 >> (7 * i)) & 0x3F) as Card
    }

    /// Cell masks of the face-up and of the face-down cells.
    pub fn masks(self) -> (u16, u16) {
        let (mut up, mut down) = (0u16, 0u16);
        for i in 0..CELLS {
            match self.cell(i) {
                Cell::Up(_) => up |= 1 << i,
                Cell::Down(_) => down |= 1 << i,
                Cell::Empty => {}
            }
        }
        (up, down)
    }

    /// Three rows like `7H ## .. | ...`: face-up cards by name, `##` for a
    /// face-down card, `..` for an empty cell.
    pub fn picture(self) -> String {
        let rows: Vec<String> = (0..3)
            .map(|r| {
                (0..3)
                    .map(|k| match self.cell(3 * r + k) {
                        Cell::Empty => "..".to_string(),
                        Cell::Down(_) => "##".to_string(),
                        Cell::Up(c) => name(c),
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        rows.join(" | ")
    }
}

impl std::fmt::Debug for Grid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cells: Vec<String> = (0..CELLS)
            .map(|i| match self.cell(i) {
                Cell::Empty => "..".into(),
                Cell::Down(c) => format!("({})", name(c)),
                Cell::Up(c) => name(c),
            })
            .collect();
        write!(f, "Grid[{}]", cells.join(" "))
    }
}

/// The deck to deal from: an array whose first `len` cards are still in it.
/// A card is dealt by picking a uniform position, taking that card and
/// moving the last card into its place; with [`crate::engine::rng::Stacked`]
/// the pick is always the last position, so the array is dealt from its end.
#[derive(Clone, Debug)]
pub struct Deck {
    /// Room for 64 so that a position masked with 63 is always in bounds.
    cards: [Card; 64],
    len: usize,
}

impl Default for Deck {
    fn default() -> Deck {
        Deck::full()
    }
}

impl Deck {
    /// All 52 cards, in card order.
    pub fn full() -> Deck {
        Deck {
            cards: std::array::from_fn(|i| if i < DECK { i as Card } else { NO_CARD }),
            len: DECK,
        }
    }

    /// A full deck whose next cards dealt (with
    /// [`crate::engine::rng::Stacked`]) are `top`, in order. Panics on a
    /// repeated card or one that is not in the deck.
    pub fn stacked(top: &[Card]) -> Deck {
        let mut used: CardSet = 0;
        for &c in top {
            assert!(usize::from(c) < DECK, "no card {c}");
            assert!(used & (1 << c) == 0, "stacked deck repeats {}", name(c));
            used |= 1 << c;
        }
        let mut d = Deck::full();
        let mut at = 0;
        for c in cards_of(ALL & !used) {
            d.cards[at] = c;
            at += 1;
        }
        for &c in top.iter().rev() {
            d.cards[at] = c;
            at += 1;
        }
        d
    }

    /// Cards still in the deck.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the deck is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The cards still in the deck.
    pub fn remaining(&self) -> CardSet {
        self.cards[..self.len].iter().fold(0, |m, &c| m | 1 << c)
    }

    /// Replaces every card `c` still in the deck by `f(c)` (`f` must be a
    /// permutation of the deck's cards: tests re-deal hidden cards).
    pub fn map(&mut self, f: impl Fn(Card) -> Card) {
        for c in &mut self.cards[..self.len] {
            *c = f(*c);
        }
    }

    /// Deals one card (the deck must not be empty).
    #[inline(always)]
    pub fn deal<D: Draw>(&mut self, d: &mut D) -> Card {
        debug_assert!(self.len > 0);
        let j = d.below(self.len as u32) as usize;
        self.len -= 1;
        let c = self.cards[j & 63];
        self.cards[j & 63] = self.cards[self.len & 63];
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::{Stacked, batch_rng};

    #[test]
    fn suits_ranks_and_names() {
        for c in 0..DECK as Card {
            assert_eq!(suit(c), usize::from(c) / 13);
            assert_eq!(card(suit(c), rank(c)), c);
            assert_eq!(parse(&name(c)), Some(c), "{}", name(c));
            assert!(suit_set(suit(c)) & (1 << c) != 0);
        }
        assert_eq!(name(card(3, 0)), "AS");
        assert_eq!(name(card(2, 9)), "10H");
        assert_eq!(suit_set(0) | suit_set(1) | suit_set(2) | suit_set(3), ALL);
        assert_eq!(parse("1H"), None);
        assert_eq!(parse("11H"), None);
    }

    #[test]
    fn lines_are_the_eight_lines() {
        assert_eq!(LINES.iter().map(|l| l.count_ones()).sum::<u32>(), 24);
        // Centre on four lines, corners on three, edges on two.
        let through: Vec<u32> = LINES_THROUGH.iter().map(|m| m.count_ones()).collect();
        assert_eq!(through, [3, 2, 3, 2, 4, 2, 3, 2, 3]);
        for c in 0..CELLS {
            for (n, &p) in PAIRS[c].iter().enumerate() {
                if n < through[c] as usize {
                    assert_eq!(p.count_ones(), 2);
                    assert!(LINES.contains(&(p | 1 << c)));
                } else {
                    assert_eq!(p, 0);
                }
            }
        }
        assert!(pairs_complete(4, 0b100_000_001));
        assert!(!pairs_complete(4, 0b000_000_011));
        assert!(!pairs_complete(0, 0));
        // The table against the pairs, for every set and cell.
        for set in 0..512u16 {
            for (c, pairs) in PAIRS.iter().enumerate() {
                let by_pairs = pairs.iter().any(|&m| m != 0 && m & set == m);
                assert_eq!(pairs_complete(c, set), by_pairs, "{set:09b} {c}");
            }
        }
    }

    #[test]
    fn grid_packs_cells_into_one_word() {
        let mut g = Grid::EMPTY;
        assert!((0..CELLS).all(|i| g.cell(i) == Cell::Empty));
        assert_eq!(g.place(4, 51), Cell::Empty);
        assert_eq!(g.place(0, 0), Cell::Empty);
        assert_eq!(g.cell(4), Cell::Down(51));
        assert_eq!(g.flip(4), 51);
        assert_eq!(g.cell(4), Cell::Up(51));
        assert_eq!(g.place(4, 7), Cell::Up(51));
        assert_eq!(g.cell(4), Cell::Down(7));
        assert_eq!(g.cell(0), Cell::Down(0));
        assert_eq!(g.masks(), (0, 0b10001));
        assert_eq!(g.bits() >> 63, 0);
        assert_eq!(g.picture(), "## .. .. | .. ## .. | .. .. ..");
    }

    #[test]
    fn stacked_deck_deals_top_first_and_random_deals_are_a_permutation() {
        let mut d = Deck::stacked(&[5, 40, 12]);
        assert_eq!(d.deal(&mut Stacked), 5);
        assert_eq!(d.deal(&mut Stacked), 40);
        assert_eq!(d.deal(&mut Stacked), 12);
        assert_eq!(d.remaining(), ALL & !(1 << 5 | 1 << 40 | 1 << 12));
        let mut d = Deck::full();
        let mut rng = batch_rng(1, 2);
        let mut seen: CardSet = 0;
        while !d.is_empty() {
            let c = d.deal(&mut rng);
            assert!(seen & (1 << c) == 0);
            seen |= 1 << c;
        }
        assert_eq!(seen, ALL);
    }
}
