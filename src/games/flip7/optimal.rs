//! The exact round-optimum Hit/Stay decision (`optimal-round`): the choice
//! that maximises the expected score of the current round for a player who
//! counts every card seen, within the model below.
//!
//! # The model
//!
//! - **The unseen cards** are those of [`next_card_counts`]: the deck
//!   composition less the discard pile and the cards in play (the discard
//!   pile itself when the draw pile is empty). Every order of them is
//!   equally likely; the real order is never looked at (the [`Table`] does
//!   not reveal it).
//! - **Opponents' future draws are ignored**: the player reasons as if
//!   nobody else drew a card before the round ends for them, and as if the
//!   players now in the round stayed in it.
//! - **A number card**: a new number is added (a seventh different number is
//!   a Flip 7: the round ends, +15, not doubled by `x2`); a duplicate uses
//!   the held Second Chance (the duplicate and the Second Chance are
//!   discarded) or busts the player (round score 0).
//! - **Modifiers** add (`+2`..`+10`) or double the number sum (`x2`; two of
//!   them make x4). The score is that of [`Hand::score`]:
//!   `(number_sum << times2) + plus`, and 15 more for a Flip 7.
//! - **Second Chance**: kept when none is held; otherwise passed on or
//!   discarded, which does not affect the player.
//! - **Freeze and Flip Three**: while another player is in the round they
//!   are given to an opponent and do not affect the player. When the player
//!   is the only one left (always so in solo play) they hit the player, as
//!   `rules.rs` resolves them: a Freeze freezes the player, who banks; a
//!   Flip Three makes the player flip three cards, stopping at a bust or a
//!   Flip 7, keeping a Second Chance at once (usable in the same flips) and
//!   setting aside a Freeze or Flip Three drawn meanwhile. The set-aside
//!   cards then take effect one by one in the order flipped, after any
//!   waiting already: a Flip Three flips three more; a Freeze freezes the
//!   player, and every card waiting behind it then fizzles.
//! - **The pile running out** (of counted cards) ends the round for the
//!   player, who banks. This ignores the reshuffle of the discard pile; it
//!   can matter only when fewer cards are left than the player could still
//!   draw, which never happens in a solo round from a fresh full deck (a
//!   round cannot last 94 cards).
//! - **The decision**: hit iff the expected round score of hitting (and then
//!   playing optimally) exceeds the score banked by staying by more than
//!   [`TIE`] (1e-9 points). Smaller differences count as ties, and a tie
//!   stays: floating-point rounding never decides.
//!
//! # The state, and what is left out of it exactly
//!
//! - Which held number a cancelled duplicate was does not matter: held
//!   numbers stay held, so only the total count of their remaining copies
//!   (the cards that bust) enters any later probability. A state records
//!   the numbers held and how many duplicates were cancelled.
//! - Numbers not held keep their counts until drawn, so the rest of a state
//!   is: the modifiers, Second Chances and Flip Threes drawn since the
//!   root, whether a Second Chance is held, and during a Flip Three the
//!   number of forced flips left and whether a Freeze waits. While no
//!   Freeze waits, every waiting card is a Flip Three, so their order does
//!   not matter and they only add three flips each. Once a Freeze waits,
//!   nothing is decided any more and Freezes and Flip Threes are blanks
//!   (they fizzle behind it): the flips left split into blanks and other
//!   cards with hypergeometric chances, the other cards come in uniform
//!   order among themselves, so the state is the hand and the number of
//!   other cards still to draw before banking.
//! - Cards that can never affect the player are dropped from the pile: with
//!   opponents in the round, Freeze and Flip Three. As the order is
//!   uniform, the next card that matters is uniform among the cards that
//!   matter, and the pile running out of cards that matter is the same as
//!   staying. This changes no decision and no state's value (the better of
//!   staying and hitting): where hitting is better, a card given away just
//!   leads to the same choice again; where staying is better, nothing is
//!   drawn. It does change the value of hitting where staying is better (a
//!   card given away is a free second chance to stay), so [`evaluate`]
//!   puts them back for the root by a closed formula, and its `hit` is the
//!   value of hitting in the full model.
//! - A spare Second Chance is not dropped: Second Chances matter again once
//!   the held one is used, so drawing a spare one is a move to the same
//!   hand with one fewer in the pile.
//!
//! # How it is computed
//!
//! States are grouped in blocks: one block per "hand part" (everything but
//! the modifiers), holding the values of every combination of modifiers
//! drawn (`2^k` of them with `k` modifiers unseen in one deck). A block is
//! computed from its successors' blocks with tight loops over the
//! combinations; blocks are found through a hash table keyed by the packed
//! hand part and kept in one arena ([`Memo`], reusable: after warm-up a
//! decision allocates nothing).
//!
//! To save work without changing any result:
//!
//! - [`hits`] first tries bounds: hitting once and then staying is a lower
//!   bound of the value of hitting (when it beats staying, hit); the chance
//!   that the next card does not bust times the best score still reachable
//!   is an upper bound, and so is the average over the next one or two
//!   cards of the better of staying and that bound, each state there also
//!   capped by its prophet bound: the expected score just before the first
//!   card that would bust, which no way of playing can beat.
//!   When one of them cannot beat staying, stay. Most decisions end there,
//!   in about a microsecond.
//! - Otherwise [`decide`] runs bounding searches before the exact one: the
//!   same search, but stopped at the states where the player has drawn a
//!   first Flip Three or a second Second Chance since the root, or where a
//!   Freeze waits (then a second Flip Three; then a third of each), which
//!   take a bound of their value instead. Below: staying, or hitting once
//!   and then staying, where the player decides; during forced flips, the
//!   chance that none of them busts, is a Flip Three or repeats a number
//!   times the score then (counting no `x2`). Above: the prophet bound,
//!   less, during forced flips without a Second Chance, the score banked
//!   times the chance that one of them busts. Every step of the search
//!   (averages with positive weights, the better of two choices) keeps
//!   bounds bounds, so the bounding searches bound the value of hitting:
//!   when the lower one beats staying, hit; when the upper one does not,
//!   stay; only the rest (about 1 in 100 of the decisions searched, in
//!   the timing harness of `tests/flip7_optimal.rs`) needs the exact
//!   search. A near Flip Three or Second Chance is likely, a
//!   second or third one much less, so the deeper states left out weigh
//!   little while being most of the states.
//! - A block where that upper bound cannot beat staying for any combination
//!   of modifiers is worth the banked scores and is not expanded.
//! - The memo of one search stays valid for any later state that follows
//!   from the same root by the player's own draws (every later decision of
//!   a solo round, or of the last player in a round): block keys are
//!   relative to that root, and a consistent later query reuses every block
//!   already computed.

use super::cards::{FLIP_THREE, FREEZE, KINDS, MAX_NUMBER, PLUS2, SECOND_CHANCE, TIMES2, plus_value};
use super::policies::next_card_counts;
use super::rules::{FLIP7_BONUS, FLIP7_CARDS, Hand, Table};
use crate::engine::bits::ones;

/// Differences of expected score below this many points count as ties
/// (and a tie stays).
pub const TIE: f64 = 1e-9;

/// The Hit/Stay rule whose value is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Hit iff hitting is worth more than staying (by more than [`TIE`]).
    Optimal,
    /// `stay-at-N`: stay when [`Hand::banked`] is at least N.
    StayAt(u16),
}

/// The expected round score of each choice in a state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Values {
    /// Score banked by staying now.
    pub stay: f64,
    /// Expected round score of hitting now and then following the rule.
    pub hit: f64,
}

impl Values {
    /// Whether the optimal rule hits: `hit > stay + TIE`.
    pub fn hits(&self) -> bool {
        self.hit > self.stay + TIE
    }

    /// The value of the better choice (ties stay).
    pub fn best(&self) -> f64 {
        if self.hits() { self.hit } else { self.stay }
    }
}

/// Modifier kinds (`+2` .. `+10`, `x2`), indexed by `card - PLUS2`.
const MODS: usize = (TIMES2 - PLUS2) as usize + 1;
const I_TIMES2: usize = MODS - 1;
const NUMBERS: usize = MAX_NUMBER as usize + 1;

/// Most cards of one modifier kind, and of one action kind, that the
/// packed state can count (two decks need 2 and 6).
const MAX_MODS_PER_KIND: u8 = 3;
const MAX_ACTIONS_PER_KIND: u8 = 6;

/// Bits of a packed hand part; the memo's generation sits above them.
const PART_BITS: u32 = 30;
const GEN_LIMIT: u64 = 1 << (64 - PART_BITS);
/// Values held beyond which the search starts loading successors ahead
/// (about 8 MB: below that they are mostly in the processor's caches).
const TOUCH_ABOVE: usize = 1 << 20;
/// Smallest block index (slots), small so that small searches stay in cache.
const MIN_BITS: u32 = 10;

/// Everything of a state but the modifiers drawn: one block of values.
#[derive(Clone, Copy, Debug)]
struct Part {
    /// Numbers held (absolute).
    mask: u16,
    sum: u16,
    count: u8,
    /// Copies left of the numbers held (the cards that bust).
    busts: u16,
    /// Duplicates cancelled since the root.
    dups: u8,
    /// Holds a Second Chance.
    sc: bool,
    /// Second Chances drawn since the root.
    sc_drawn: u8,
    /// Flip Threes drawn since the root (0 in effective-draw mode).
    ft_drawn: u8,
    /// Forced flips left (those of the Flip Three under way and three for
    /// each one waiting); in effective-draw mode, the effective draws
    /// left; 0 when the player decides.
    forced: u8,
    /// Effective-draw mode: a Freeze waits behind the forced flips, so
    /// Freezes and Flip Threes are blanks; they are left out of the pile
    /// and `forced` counts the other cards still to draw before banking.
    frozen: bool,
}

impl Part {
    #[inline]
    fn key(&self) -> u64 {
        u64::from(self.mask)
            | u64::from(self.dups) << 13
            | u64::from(self.sc) << 16
            | u64::from(self.sc_drawn) << 17
            | u64::from(self.ft_drawn) << 20
            | u64::from(self.forced) << 24
            | u64::from(self.frozen) << 29
    }
}

/// Where a card leads, for every combination of modifiers at once.
#[derive(Clone, Copy, Debug)]
enum Target {
    /// A state whose values are a block (the same combination of modifiers).
    Part(Part),
    /// The block already computed.
    Block(u32),
    /// The round ends with a Flip 7 at this number sum.
    Flip7(u16),
    /// The round ends with the player banking this number sum.
    Bank(u16),
    /// The modifier drawn leads to the same hand part (decision states).
    Same,
}

/// What a memo's keys are relative to: the root of the search that started
/// it, and tables derived from it.
#[derive(Clone, Debug, Default)]
struct Base {
    rule: Option<Rule>,
    cut: Cut,
    numbers: u16,
    count: u8,
    plus: u16,
    times2: u8,
    pile: [u8; KINDS],
    /// Copies of each number not held at the root.
    copies: [u8; NUMBERS],
    /// Numbers not held at the root with copies left.
    avail: u16,
    sc: u8,
    freeze: u8,
    flip_three: u8,
    /// Numbers, Second Chances, Freezes and Flip Threes in the pile.
    others: u16,
    /// Combinations of modifiers drawn: the block size.
    size: usize,
    /// Index step of one more modifier of each kind.
    stride: [usize; MODS],
    /// Per combination: `plus` and `times2` of the hand, modifiers left in
    /// all, their `+N` points and `x2` cards.
    plus_at: Vec<u16>,
    times2_at: Vec<u8>,
    mods_left: Vec<u16>,
    plus_left: Vec<u16>,
    times2_left: Vec<u8>,
    /// Per combination: `2^times2` and `plus`, so that a banked score is
    /// `sum * mult + plus_f` (exact: small integers).
    mult: Vec<f64>,
    plus_f: Vec<f64>,
    /// Modifier kinds with cards left at the root.
    kinds: usize,
    /// Per such kind and combination: the cards of the kind left (as a
    /// weight) and the combination after drawing one (the same
    /// combination when none is left: the weight is then 0).
    mod_weight: Vec<Vec<f64>>,
    mod_next: Vec<Vec<u32>>,
}

impl Base {
    fn set(&mut self, rule: Rule, hand: &Hand, pile: &[u8; KINDS]) {
        self.rule = Some(rule);
        self.numbers = hand.numbers;
        self.count = hand.count;
        self.plus = hand.plus;
        self.times2 = hand.times2;
        self.pile = *pile;
        self.avail = 0;
        for (n, (copies, &c)) in self.copies.iter_mut().zip(pile.iter()).enumerate() {
            *copies = if hand.numbers & (1 << n) != 0 { 0 } else { c };
            if *copies > 0 {
                self.avail |= 1 << n;
            }
        }
        self.sc = pile[SECOND_CHANCE as usize];
        self.freeze = pile[FREEZE as usize];
        self.flip_three = pile[FLIP_THREE as usize];
        self.others = pile[..NUMBERS].iter().map(|&c| u16::from(c)).sum::<u16>()
            + u16::from(self.sc)
            + u16::from(self.freeze)
            + u16::from(self.flip_three);
        let mut size = 1;
        for j in 0..MODS {
            self.stride[j] = size;
            size *= usize::from(pile[PLUS2 as usize + j]) + 1;
        }
        self.size = size;
        self.plus_at.clear();
        self.times2_at.clear();
        self.mods_left.clear();
        self.plus_left.clear();
        self.times2_left.clear();
        self.mult.clear();
        self.plus_f.clear();
        // Modifier kinds with cards left (no allocation: this runs at every
        // new root).
        let mut kinds = [0usize; MODS];
        self.kinds = 0;
        for j in (0..MODS).filter(|&j| pile[PLUS2 as usize + j] > 0) {
            kinds[self.kinds] = j;
            self.kinds += 1;
        }
        let active = &kinds[..self.kinds];
        if self.mod_weight.len() < MODS {
            self.mod_weight.resize(MODS, Vec::new());
            self.mod_next.resize(MODS, Vec::new());
        }
        for a in 0..self.kinds {
            self.mod_weight[a].clear();
            self.mod_next[a].clear();
        }
        for m in 0..size {
            let mut left = [0u8; MODS];
            let (mut plus, mut plus_left, mut total) = (hand.plus, 0u16, 0u16);
            for j in 0..MODS {
                let have = pile[PLUS2 as usize + j];
                let drawn = ((m / self.stride[j]) % (usize::from(have) + 1)) as u8;
                left[j] = have - drawn;
                total += u16::from(left[j]);
                if j < I_TIMES2 {
                    let v = plus_value(PLUS2 + j as u8);
                    plus += u16::from(drawn) * v;
                    plus_left += u16::from(left[j]) * v;
                }
            }
            let times2 = hand.times2 + pile[TIMES2 as usize] - left[I_TIMES2];
            self.plus_at.push(plus);
            self.times2_at.push(times2);
            self.mods_left.push(total);
            self.plus_left.push(plus_left);
            self.times2_left.push(left[I_TIMES2]);
            self.mult.push(f64::from(1u32 << times2));
            self.plus_f.push(f64::from(plus));
            for (a, &j) in active.iter().enumerate() {
                self.mod_weight[a].push(f64::from(left[j]));
                let next = if left[j] > 0 { m + self.stride[j] } else { m };
                self.mod_next[a].push(next as u32);
            }
        }
    }

    /// The hand part and combination of modifiers of `hand` facing `pile`,
    /// if the state follows from this root by drawing cards.
    fn locate(&self, rule: Rule, hand: &Hand, pile: &[u8; KINDS]) -> Option<(Part, usize)> {
        if self.rule != Some(rule) || self.numbers & !hand.numbers != 0 {
            return None;
        }
        let mut drawn = [0u8; KINDS];
        for k in 0..KINDS {
            drawn[k] = self.pile[k].checked_sub(pile[k])?;
        }
        let new = hand.numbers & !self.numbers;
        let mut numbers_drawn = 0u32;
        let mut busts = 0u16;
        for (n, &d) in drawn.iter().enumerate().take(NUMBERS) {
            let held = hand.numbers & (1 << n) != 0;
            if (!held && d > 0) || (new & (1 << n) != 0 && d == 0) {
                return None;
            }
            numbers_drawn += u32::from(d);
            if held {
                busts += u16::from(pile[n]);
            }
        }
        let dups = numbers_drawn - new.count_ones();
        let mut m = 0;
        for j in 0..MODS {
            m += usize::from(drawn[PLUS2 as usize + j]) * self.stride[j];
        }
        if dups > 7
            || drawn[FREEZE as usize] > 0
            || hand.plus != self.plus_at[m]
            || hand.times2 != self.times2_at[m]
        {
            return None;
        }
        let part = Part {
            mask: hand.numbers,
            sum: hand.number_sum,
            count: hand.count,
            busts,
            dups: dups as u8,
            sc: hand.second_chance,
            sc_drawn: drawn[SECOND_CHANCE as usize],
            ft_drawn: drawn[FLIP_THREE as usize],
            forced: 0,
            frozen: false,
        };
        Some((part, m))
    }

    /// Cards left that are not modifiers and count for `p`: all of them;
    /// in effective-draw mode, all but Freezes and Flip Threes.
    #[inline]
    fn others_left(&self, p: &Part) -> u16 {
        let drawn = u16::from(p.count - self.count) + u16::from(p.dups) + u16::from(p.sc_drawn);
        if p.frozen {
            self.others - u16::from(self.freeze) - u16::from(self.flip_three) - drawn
        } else {
            self.others - drawn - u16::from(p.ft_drawn)
        }
    }

    #[inline]
    fn banked(&self, sum: u16, m: usize) -> f64 {
        f64::from(sum) * self.mult[m] + self.plus_f[m]
    }
}

/// Reusable scratch for the search: the blocks of values computed, the hash
/// table that finds them and the root they are relative to. It keeps its
/// memory from one decision to the next.
#[derive(Clone)]
pub struct Memo {
    /// `(key | generation << PART_BITS, block)`; a slot of another
    /// generation is empty.
    slots: Vec<(u64, u32)>,
    /// Slots in use: the first `1 << bits`.
    bits: u32,
    blocks: usize,
    generation: u64,
    /// Values, `base.size` per block.
    arena: Vec<f64>,
    base: Base,
    acc: Vec<f64>,
    scratch: Vec<(u64, u32)>,
    expanded: u64,
    searches: u64,
    /// The memos of the bounding searches of [`decide`]: below, above.
    bounds: Vec<Memo>,
}

impl Default for Memo {
    fn default() -> Memo {
        Memo::new()
    }
}

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Memo")
            .field("blocks", &self.blocks)
            .field("block_size", &self.base.size)
            .field("expanded", &self.expanded)
            .field("searches", &self.searches)
            .finish()
    }
}

impl Memo {
    /// An empty memo.
    pub fn new() -> Memo {
        Memo {
            slots: vec![(0, 0); 1 << MIN_BITS],
            bits: MIN_BITS,
            blocks: 0,
            generation: 1,
            arena: Vec::new(),
            base: Base::default(),
            acc: Vec::new(),
            scratch: Vec::new(),
            expanded: 0,
            searches: 0,
            bounds: Vec::new(),
        }
    }

    /// States whose value the memo holds for its current root (blocks times
    /// combinations of modifiers).
    pub fn states(&self) -> usize {
        self.blocks * self.base.size
    }

    /// States computed since the memo was made, by exact and bounding
    /// searches: a measure of work.
    pub fn expanded(&self) -> u64 {
        self.expanded + self.bounds.iter().map(Memo::expanded).sum::<u64>()
    }

    /// Exact searches since the memo was made: calls of [`evaluate`], and
    /// the decisions of [`decide`] no bound settled.
    pub fn searches(&self) -> u64 {
        self.searches
    }

    /// Bounding searches since the memo was made (see [`decide`]).
    pub fn bounding_searches(&self) -> u64 {
        self.bounds.iter().map(|m| m.searches).sum()
    }

    /// Bytes held by the memo (with those of its bounding searches).
    pub fn bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<(u64, u32)>()
            + (self.arena.capacity() + self.acc.capacity()) * std::mem::size_of::<f64>()
            + self.bounds.iter().map(Memo::bytes).sum::<usize>()
    }

    /// Forgets every value (the memory is kept).
    pub fn clear(&mut self) {
        self.base.rule = None;
        self.new_generation();
        for m in &mut self.bounds {
            m.clear();
        }
    }

    fn new_generation(&mut self) {
        // Size the index for a search like the last one.
        let want = (self.blocks * 4)
            .next_power_of_two()
            .trailing_zeros()
            .max(MIN_BITS);
        self.bits = want.min(self.slots.len().trailing_zeros());
        self.blocks = 0;
        self.arena.clear();
        self.generation += 1;
        if self.generation == GEN_LIMIT {
            self.slots.fill((0, 0));
            self.generation = 1;
        }
    }

    /// The part and combination of `hand` facing `pile`, reusing the memo
    /// when its root applies, otherwise starting afresh with this root.
    fn locate(&mut self, rule: Rule, cut: Cut, hand: &Hand, pile: &[u8; KINDS]) -> (Part, usize) {
        if self.base.cut == cut
            && let Some(found) = self.base.locate(rule, hand, pile)
        {
            return found;
        }
        self.new_generation();
        self.base.set(rule, hand, pile);
        self.base.cut = cut;
        self.acc.resize(self.base.size, 0.0);
        self.base.locate(rule, hand, pile).expect("a root locates itself")
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize
    }

    #[inline]
    fn get(&self, key: u64) -> Option<u32> {
        let full = key | self.generation << PART_BITS;
        let mask = (1usize << self.bits) - 1;
        let mut i = self.slot(full);
        loop {
            let (k, v) = self.slots[i];
            if k == full {
                return Some(v);
            }
            if k >> PART_BITS != self.generation {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    fn insert(&mut self, key: u64, block: u32) {
        if (self.blocks + 1) * 2 > 1 << self.bits {
            self.grow();
        }
        let full = key | self.generation << PART_BITS;
        let mask = (1usize << self.bits) - 1;
        let mut i = self.slot(full);
        while self.slots[i].0 >> PART_BITS == self.generation {
            debug_assert_ne!(self.slots[i].0, full, "block computed twice");
            i = (i + 1) & mask;
        }
        self.slots[i] = (full, block);
    }

    #[cold]
    fn grow(&mut self) {
        let used = 1usize << self.bits;
        let generation = self.generation;
        self.scratch.clear();
        self.scratch.extend(
            self.slots[..used]
                .iter()
                .filter(|(k, _)| k >> PART_BITS == generation),
        );
        self.bits += 1;
        let size = 1usize << self.bits;
        if self.slots.len() < size {
            self.slots.resize(size, (0, 0));
        }
        self.slots[..size].fill((0, 0));
        let mask = size - 1;
        for &(full, block) in &self.scratch {
            let mut i = self.slot(full);
            while self.slots[i].0 != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = (full, block);
        }
    }

    /// Starts loading the index slot of `key` (a hint: the value is not
    /// used), so that several misses overlap.
    #[inline]
    fn touch_key(&self, key: u64) {
        let full = key | self.generation << PART_BITS;
        std::hint::black_box(self.slots[self.slot(full)].0);
    }

    /// Starts loading the values of block `id` (one read per cache line).
    #[inline]
    fn touch_block(&self, id: u32) {
        let size = self.base.size;
        let at = id as usize * size;
        for i in (at..at + size).step_by(8) {
            std::hint::black_box(self.arena[i]);
        }
    }

    /// The values of the block of `p`.
    #[inline]
    fn block(&self, id: u32) -> &[f64] {
        let size = self.base.size;
        let at = id as usize * size;
        &self.arena[at..at + size]
    }
}

/// Most forced flips left at once (a Flip Three under way and five
/// waiting, with two decks).
const MAX_FORCED: usize = 3 + 2 * MAX_ACTIONS_PER_KIND as usize;

/// The successors of a hand part by the next card.
#[derive(Clone, Copy, Debug)]
struct Moves {
    /// Cards other than modifiers and Freezes that end forced flips: (how
    /// many, where they lead).
    list: [(u16, Target); NUMBERS + 4],
    len: usize,
    /// Where a modifier leads.
    modifier: Target,
    /// A Freeze drawn during forced flips (no Freeze waiting yet): (how
    /// many, the hand then with `forced` = the flips left, blanks left).
    freeze: Option<(u16, Part, u8)>,
}

/// `binomial(n, k)` for `n <= 200`, `k <= MAX_FORCED`, as `f64` (exact
/// below 2^53, which covers one deck).
fn binomials() -> &'static [[f64; MAX_FORCED + 1]] {
    static TABLE: std::sync::OnceLock<Vec<[f64; MAX_FORCED + 1]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = vec![[0.0; MAX_FORCED + 1]; 201];
        for n in 0..=200 {
            t[n][0] = 1.0;
            for k in 1..=MAX_FORCED.min(n) {
                t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0.0 };
            }
        }
        t
    })
}

/// `1 / binomial(n, k)` for the pairs of [`binomials`] (0 where that is 0):
/// divisions become multiplications in the search's inner loops.
fn inverse_binomials() -> &'static [[f64; MAX_FORCED + 1]] {
    static TABLE: std::sync::OnceLock<Vec<[f64; MAX_FORCED + 1]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        binomials()
            .iter()
            .map(|row| row.map(|b| if b > 0.0 { 1.0 / b } else { 0.0 }))
            .collect()
    })
}

/// Whether a search is exact or stops early with bounds of the values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Cut {
    /// Every state reachable is computed.
    #[default]
    Exact,
    /// The states where [`LEVELS`]`[level]` stops take a lower bound of
    /// their value.
    Lower(u8),
    /// They take an upper bound.
    Upper(u8),
}

/// Where the bounding searches stop, from the cheapest: at the state where
/// the player has drawn this many Flip Threes, or this many Second Chances,
/// since the root, or (if set) once a Freeze waits during forced flips.
const LEVELS: [(u8, u8, bool); 3] = [(1, 2, true), (2, 2, false), (3, 3, false)];

/// The search over one root.
struct Search<'m> {
    memo: &'m mut Memo,
    rule: Rule,
    cut: Cut,
}

impl Search<'_> {
    /// Where a hand part goes after a card's effect: the end of the forced
    /// flips with a Freeze waiting banks.
    #[inline]
    fn settle(c: Part) -> Target {
        if c.forced == 0 && c.frozen {
            Target::Bank(c.sum)
        } else {
            Target::Part(c)
        }
    }

    /// The successors of `p` by the card drawn.
    fn moves(&self, p: &Part) -> Moves {
        let b = &self.memo.base;
        let mut mv = Moves {
            list: [(0u16, Target::Same); NUMBERS + 4],
            len: 0,
            modifier: Target::Same,
            freeze: None,
        };
        let mut push = |cards: u16, t: Target| {
            mv.list[mv.len] = (cards, t);
            mv.len += 1;
        };
        let mut c0 = *p;
        c0.forced = p.forced.saturating_sub(1);
        // A held number: the Second Chance cancels it (or the player busts).
        if p.busts > 0 && p.sc {
            let mut c = c0;
            c.sc = false;
            c.busts -= 1;
            c.dups += 1;
            push(p.busts, Self::settle(c));
        }
        // A new number.
        for n in numbers_in(b.avail & !p.mask) {
            let copies = b.copies[n];
            let mut c = c0;
            c.mask |= 1 << n;
            c.sum += n as u16;
            c.count += 1;
            c.busts += u16::from(copies) - 1;
            let t = if u32::from(c.count) >= FLIP7_CARDS {
                Target::Flip7(c.sum)
            } else {
                Self::settle(c)
            };
            push(u16::from(copies), t);
        }
        // Second Chance: kept, or a spare one passed on.
        let sc_left = b.sc - p.sc_drawn;
        if sc_left > 0 {
            let mut c = c0;
            c.sc = true;
            c.sc_drawn += 1;
            push(u16::from(sc_left), Self::settle(c));
        }
        // Freeze and Flip Three (in the pile only when they hit the player;
        // once a Freeze waits they are blanks, taken out of the effective
        // draws).
        if !p.frozen {
            let ft_left = b.flip_three - p.ft_drawn;
            if b.freeze > 0 {
                if p.forced == 0 {
                    push(u16::from(b.freeze), Target::Bank(p.sum));
                } else {
                    let mut w = c0;
                    w.frozen = true;
                    w.ft_drawn = 0;
                    mv.freeze = Some((u16::from(b.freeze), w, b.freeze - 1 + ft_left));
                }
            }
            if ft_left > 0 {
                let mut c = c0;
                c.ft_drawn += 1;
                c.forced += 3;
                push(u16::from(ft_left), Target::Part(c));
            }
        }
        mv.modifier = if p.forced == 0 {
            Target::Same
        } else {
            Self::settle(c0)
        };
        mv
    }

    /// Whether every combination of modifiers of decision part `p` stays,
    /// by the rule or by the upper bound.
    fn all_stay(&self, p: &Part) -> bool {
        let b = &self.memo.base;
        let others = b.others_left(p);
        let bust = if p.sc { 0 } else { p.busts };
        let (top, bonus) = best_numbers(b.avail & !p.mask, p.count);
        (0..b.size).all(|m| {
            let banked = b.banked(p.sum, m);
            let total = others + b.mods_left[m];
            if total == 0 {
                return true;
            }
            match self.rule {
                Rule::StayAt(t) => banked >= f64::from(t),
                Rule::Optimal => {
                    let best = ((u32::from(p.sum) + top) << (b.times2_at[m] + b.times2_left[m]))
                        + u32::from(b.plus_at[m] + b.plus_left[m])
                        + bonus;
                    f64::from(best) * f64::from(total - bust) / f64::from(total) <= banked + TIE
                }
            }
        })
    }

    /// The modifier-free parts of the prophet bound of decision part `p`
    /// (see [`prophet_bound`]).
    fn prophet(&self, p: &Part) -> Prophet {
        let b = &self.memo.base;
        prophet_bound(
            b.avail & !p.mask,
            &b.copies,
            u32::from(p.count),
            u32::from(p.busts),
            p.sc,
            u32::from(b.sc - p.sc_drawn),
        )
    }

    /// Resolves `t` to a computed block when it is a hand part.
    #[inline]
    fn resolve(&mut self, t: &mut Target) {
        if let Target::Part(c) = *t {
            *t = Target::Block(self.ensure(&c));
        }
    }

    /// The blocks of `w` (a hand in effective-draw mode) with 1..=`flips`
    /// effective draws left: `ids[k - 1]`.
    fn effective_blocks(&mut self, w: &Part, flips: u8) -> [u32; MAX_FORCED] {
        let mut ids = [0; MAX_FORCED];
        for k in 1..=flips {
            let mut c = *w;
            c.forced = k;
            ids[usize::from(k) - 1] = self.ensure(&c);
        }
        ids
    }

    /// The block of `p`, computed (with its successors) if needed.
    fn ensure(&mut self, p: &Part) -> u32 {
        let key = p.key();
        if let Some(id) = self.memo.get(key) {
            return id;
        }
        if self.cut_here(p) {
            let id = self.alloc(key);
            self.leaf(p, id);
            return id;
        }
        if p.forced == 0 && self.all_stay(p) {
            let id = self.alloc(key);
            let (b, arena) = (&self.memo.base, &mut self.memo.arena);
            let at = id as usize * b.size;
            for m in 0..b.size {
                arena[at + m] = b.banked(p.sum, m);
            }
            return id;
        }
        let mut mv = self.moves(p);
        // Beyond the processor's caches: most successors are already
        // computed, so start loading their index slots, and then their
        // values, together rather than one miss after another.
        let big = self.memo.arena.len() > TOUCH_ABOVE;
        if big {
            for (_, t) in mv.list[..mv.len].iter().chain(std::iter::once(&(0, mv.modifier))) {
                if let Target::Part(c) = t {
                    self.memo.touch_key(c.key());
                }
            }
        }
        for i in 0..mv.len {
            self.resolve(&mut mv.list[i].1);
        }
        self.resolve(&mut mv.modifier);
        let freeze = mv
            .freeze
            .map(|(cards, w, blanks)| (cards, w, blanks, self.effective_blocks(&w, w.forced)));
        if big {
            for (_, t) in mv.list[..mv.len].iter().chain(std::iter::once(&(0, mv.modifier))) {
                if let Target::Block(id) = t {
                    self.memo.touch_block(*id);
                }
            }
        }
        let id = self.alloc(key);
        self.fill(p, id, &mv, freeze);
        id
    }

    /// Whether a bounding search stops at `p`.
    #[inline]
    fn cut_here(&self, p: &Part) -> bool {
        let level = match self.cut {
            Cut::Exact => return false,
            Cut::Lower(l) | Cut::Upper(l) => l,
        };
        let (ft, sc, frozen) = LEVELS[usize::from(level)];
        p.ft_drawn >= ft || p.sc_drawn >= sc || (frozen && p.frozen)
    }

    /// Fills block `id` of `p` with bounds of its values: below, the score
    /// banked by staying where the player decides, 0 during forced flips;
    /// above, the better of staying and the prophet bound.
    fn leaf(&mut self, p: &Part, id: u32) {
        let pr = match self.cut {
            Cut::Upper(_) => self.prophet(p),
            _ => Prophet::default(),
        };
        let decides = p.forced == 0 && !p.frozen;
        let forced = if decides { 3 } else { usize::from(p.forced) };
        let survive = self.survive_poly(p, forced);
        let (binom, inverse) = (binomials(), inverse_binomials());
        let b = &self.memo.base;
        let others = b.others_left(p);
        let sc_left = u16::from(b.sc - p.sc_drawn);
        let ft_left = if p.frozen {
            0
        } else {
            u16::from(b.flip_three - p.ft_drawn)
        };
        let singles = sc_left + if p.frozen { 0 } else { u16::from(b.freeze) };
        let good = |ones: usize, f: usize| good_draws(&binom[ones], &survive, f);
        // Their chance, for up to `flips` flips from `cards` cards.
        let safe = |cards: u16, ones: u16, flips: usize| {
            let n = usize::from(cards);
            let f = flips.min(n);
            good(usize::from(ones), f) * inverse[n][f]
        };
        let not_held = b.avail & !p.mask;
        // A new number drawn at a decision: the cards and the sum of the
        // number sums they lead to, and the Flip 7 bonus they bring.
        // During forced flips of a lower bound, weighted[k]: the sum over
        // numbers not held of value * copies * good draws of `k` other
        // cards (the polynomial without it).
        let (mut new_cards, mut new_sums) = (0.0, 0.0);
        let mut weighted = [0.0; MAX_FORCED + 1];
        let weigh = !decides && matches!(self.cut, Cut::Lower(_));
        for n in numbers_in(not_held) {
            let c = f64::from(b.copies[n]);
            new_cards += c;
            new_sums += c * (f64::from(p.sum) + n as f64);
            if weigh {
                let mut without = [0.0; MAX_FORCED + 1];
                // survive = without * (1 + c x): divide.
                without[0] = survive[0];
                for d in 1..forced {
                    without[d] = survive[d] - c * without[d - 1];
                }
                for (w, x) in weighted.iter_mut().zip(&without) {
                    *w += n as f64 * c * x;
                }
            }
        }
        let flip7 = if u32::from(p.count) + 1 >= FLIP7_CARDS {
            new_cards * f64::from(FLIP7_BONUS)
        } else {
            0.0
        };
        // Cards after which a hit then stay banks the same score.
        let keep = f64::from(sc_left) + f64::from(b.freeze) + if p.sc { f64::from(p.busts) } else { 0.0 };
        let (top, bonus) = best_numbers(not_held, p.count);
        let at = id as usize * b.size;
        let out = &mut self.memo.arena[at..at + b.size];
        for (m, o) in out.iter_mut().enumerate() {
            let banked = b.banked(p.sum, m);
            *o = match self.cut {
                Cut::Lower(_) if decides => {
                    // Hitting once and then staying (or staying now).
                    let cards = others + b.mods_left[m];
                    if cards == 0 {
                        banked
                    } else {
                        let mut acc = new_sums * b.mult[m] + new_cards * b.plus_f[m] + flip7 + keep * banked;
                        if ft_left > 0 {
                            acc += f64::from(ft_left) * banked * safe(cards - 1, singles + b.mods_left[m], 3);
                        }
                        for k in 0..b.kinds {
                            let next = b.mod_next[k][m] as usize;
                            acc += b.mod_weight[k][m] * b.banked(p.sum, next);
                        }
                        banked.max(acc / f64::from(cards))
                    }
                }
                // When none of the forced flips busts, is a Flip Three or
                // repeats a number: the score banked, plus the numbers and
                // `+N` cards drawn (an `x2` counts nothing).
                Cut::Lower(_) => {
                    let cards = usize::from(others + b.mods_left[m]);
                    let f = forced.min(cards);
                    if f == 0 {
                        banked
                    } else {
                        let ones = usize::from(singles + b.mods_left[m]);
                        let all = good(ones, f);
                        // Good draws with one given card that never hurts.
                        let with_one = if ones == 0 { 0.0 } else { good(ones - 1, f - 1) };
                        let numbers: f64 = (0..f).map(|k| binom[ones][f - 1 - k] * weighted[k]).sum();
                        let plus = f64::from(b.plus_left[m]) * with_one;
                        (banked * all + numbers * b.mult[m] + plus) * inverse[cards][f]
                    }
                }
                _ => {
                    let k = b.times2_left[m];
                    let best = ((u32::from(p.sum) + top) << (b.times2_at[m] + k))
                        + u32::from(b.plus_at[m] + b.plus_left[m])
                        + bonus;
                    let value = (f64::from(p.sum)
                        + pr.numbers
                        + f64::from(u32::from(p.sum) + pr.top) * f64::from((1u32 << k) - 1) * pr.one)
                        * b.mult[m]
                        + b.plus_f[m]
                        + f64::from(b.plus_left[m]) * pr.one
                        + pr.bonus;
                    let value = value.min(f64::from(best));
                    if decides {
                        value.max(banked)
                    } else if p.sc {
                        value
                    } else {
                        // The prophet may stop before a card that busts;
                        // forced flips may not: when one of them busts
                        // (with no Second Chance drawn among them and no
                        // Flip 7 possible before it), the player loses at
                        // least the score banked now.
                        let cards = usize::from(others + b.mods_left[m]);
                        let f = forced.min(cards);
                        if u32::from(p.count) + f as u32 > FLIP7_CARDS {
                            value
                        } else {
                            let no_sc = cards - usize::from(sc_left);
                            let kill = (binom[no_sc][f] - binom[no_sc - usize::from(p.busts)][f])
                                * inverse[cards][f];
                            value - banked * kill
                        }
                    }
                }
            };
        }
    }

    /// The number of ways to draw `k` cards (`k <= flips`), at most one of
    /// each number not held and none of any other number: the coefficients
    /// of the product of `1 + copies x` over the numbers not held.
    fn survive_poly(&self, p: &Part, flips: usize) -> [f64; MAX_FORCED + 1] {
        let b = &self.memo.base;
        let mut poly = [0.0; MAX_FORCED + 1];
        poly[0] = 1.0;
        for n in numbers_in(b.avail & !p.mask) {
            let c = f64::from(b.copies[n]);
            for d in (1..=flips).rev() {
                poly[d] += c * poly[d - 1];
            }
        }
        poly
    }

    fn alloc(&mut self, key: u64) -> u32 {
        let id = self.memo.blocks as u32;
        self.memo.insert(key, id);
        self.memo.blocks += 1;
        let size = self.memo.base.size;
        self.memo.arena.resize(self.memo.arena.len() + size, 0.0);
        id
    }

    /// Computes the block `id` of `p` from its successors.
    fn fill(&mut self, p: &Part, id: u32, mv: &Moves, freeze: Option<(u16, Part, u8, [u32; MAX_FORCED])>) {
        let memo = &mut *self.memo;
        memo.expanded += memo.base.size as u64;
        let b = &memo.base;
        let size = b.size;
        let mut acc = std::mem::take(&mut memo.acc);
        // The round ends (banking, Flip 7): one pass for all such cards, in
        // exact integer arithmetic.
        let (mut cards_sum, mut cards, mut bonus) = (0.0, 0.0, 0.0);
        for &(c, t) in &mv.list[..mv.len] {
            let w = f64::from(c);
            match t {
                Target::Flip7(sum) => {
                    cards_sum += w * f64::from(sum);
                    cards += w;
                    bonus += w * f64::from(FLIP7_BONUS);
                }
                Target::Bank(sum) => {
                    cards_sum += w * f64::from(sum);
                    cards += w;
                }
                _ => {}
            }
        }
        for ((a, mult), plus) in acc.iter_mut().zip(&b.mult).zip(&b.plus_f) {
            *a = cards_sum * mult + cards * plus + bonus;
        }
        for &(c, t) in &mv.list[..mv.len] {
            if let Target::Block(child) = t {
                let w = f64::from(c);
                for (a, v) in acc.iter_mut().zip(memo.block(child)) {
                    *a += w * v;
                }
            }
        }
        // A Freeze during forced flips: it waits, and the flips left are
        // effective draws or blanks (hypergeometric), then the player banks.
        if let Some((cards, w, blanks, ids)) = freeze {
            let (binom, inverse) = (binomials(), inverse_binomials());
            let effective = b.others_left(&w);
            for (m, a) in acc.iter_mut().enumerate() {
                let n = usize::from(effective + b.mods_left[m]);
                let blanks = usize::from(blanks);
                let r = usize::from(w.forced).min(n + blanks);
                let mut v = 0.0;
                for k in r.saturating_sub(blanks)..=r.min(n) {
                    let chance = binom[n][k] * binom[blanks][r - k];
                    let value = if k == 0 {
                        b.banked(w.sum, m)
                    } else {
                        memo.arena[ids[k - 1] as usize * size + m]
                    };
                    v += chance * value;
                }
                *a += f64::from(cards) * v * inverse[n + blanks][r];
            }
        }
        // Modifiers leading to another block (or to banking).
        match mv.modifier {
            Target::Block(child) => {
                let src = memo.block(child);
                for k in 0..b.kinds {
                    for ((a, w), &next) in acc.iter_mut().zip(&b.mod_weight[k]).zip(&b.mod_next[k]) {
                        *a += w * src[next as usize];
                    }
                }
            }
            Target::Bank(sum) => {
                let sum = f64::from(sum);
                for k in 0..b.kinds {
                    for ((a, w), &next) in acc.iter_mut().zip(&b.mod_weight[k]).zip(&b.mod_next[k]) {
                        let next = next as usize;
                        *a += w * (sum * b.mult[next] + b.plus_f[next]);
                    }
                }
            }
            Target::Same => {}
            Target::Part(_) | Target::Flip7(_) => unreachable!("resolved before"),
        }
        let others = f64::from(b.others_left(p));
        let at = id as usize * size;
        let out = &mut memo.arena[at..at + size];
        let sum = f64::from(p.sum);
        if p.forced > 0 {
            for (m, o) in out.iter_mut().enumerate() {
                let total = others + f64::from(b.mods_left[m]);
                *o = if total == 0.0 {
                    sum * b.mult[m] + b.plus_f[m]
                } else {
                    acc[m] / total
                };
            }
        } else {
            // From the most modifiers drawn down: a modifier drawn in a
            // decision state leads to a later combination of the same block.
            let same = matches!(mv.modifier, Target::Same);
            for m in (0..size).rev() {
                let mut a = acc[m];
                if same {
                    for k in 0..b.kinds {
                        a += b.mod_weight[k][m] * out[b.mod_next[k][m] as usize];
                    }
                }
                let total = others + f64::from(b.mods_left[m]);
                let banked = sum * b.mult[m] + b.plus_f[m];
                out[m] = if total == 0.0 {
                    banked
                } else {
                    let hit = a / total;
                    match self.rule {
                        Rule::Optimal if hit > banked + TIE => hit,
                        Rule::Optimal => banked,
                        Rule::StayAt(t) if banked >= f64::from(t) => banked,
                        Rule::StayAt(_) => hit,
                    }
                };
            }
        }
        memo.acc = acc;
    }

    /// The value of hitting at decision part `p` with combination `m`.
    fn hit_value(&mut self, p: &Part, m: usize) -> f64 {
        let others = self.memo.base.others_left(p);
        let total = others + self.memo.base.mods_left[m];
        if total == 0 {
            return self.memo.base.banked(p.sum, m);
        }
        let mut mv = self.moves(p);
        for i in 0..mv.len {
            self.resolve(&mut mv.list[i].1);
        }
        let own = self.ensure(p);
        let memo = &*self.memo;
        let b = &memo.base;
        let mut a = 0.0;
        for &(cards, t) in &mv.list[..mv.len] {
            let v = match t {
                Target::Block(c) => memo.block(c)[m],
                Target::Flip7(sum) => b.banked(sum, m) + f64::from(FLIP7_BONUS),
                Target::Bank(sum) => b.banked(sum, m),
                Target::Part(_) | Target::Same => unreachable!("resolved before"),
            };
            a += f64::from(cards) * v;
        }
        let src = memo.block(own);
        for k in 0..b.kinds {
            a += b.mod_weight[k][m] * src[b.mod_next[k][m] as usize];
        }
        a / f64::from(total)
    }
}

/// The sum of the best numbers still to add (at most `7 - count` of those in
/// `avail`) and the Flip 7 bonus if seven can be reached.
#[inline]
fn best_numbers(mut avail: u16, count: u8) -> (u32, u32) {
    let room = FLIP7_CARDS.saturating_sub(u32::from(count));
    let bonus = if avail.count_ones() >= room {
        u32::from(FLIP7_BONUS)
    } else {
        0
    };
    let mut top = 0;
    for _ in 0..room {
        if avail == 0 {
            break;
        }
        let hi = 15 - avail.leading_zeros();
        top += hi;
        avail ^= 1 << hi;
    }
    (top, bonus)
}

/// The draws of `f` cards that neither bust, nor draw a Flip Three, nor
/// repeat a number, with `ways[j]` the ways to draw `j` of the cards that
/// never hurt and `survive[k]` those to draw `k` new numbers (see
/// [`Search::survive_poly`]).
#[inline(always)]
fn good_draws(ways: &[f64; MAX_FORCED + 1], survive: &[f64; MAX_FORCED + 1], f: usize) -> f64 {
    (0..=f).map(|k| ways[f - k] * survive[k]).sum()
}

/// The numbers in the mask `bits`, from the lowest.
#[inline]
fn numbers_in(bits: u16) -> impl Iterator<Item = usize> {
    ones(u64::from(bits)).map(|n| n as usize)
}

/// The parts of the prophet bound that do not depend on the modifiers
/// (all zero: no gain at all).
#[derive(Clone, Copy, Debug, Default)]
struct Prophet {
    /// Bound of the expected sum of the numbers added.
    numbers: f64,
    /// Chance bound that a given card comes before the bust.
    one: f64,
    /// Sum of the best numbers that can still be added.
    top: u32,
    /// Bound of the expected Flip 7 bonus.
    bonus: f64,
}

/// The modifier-free parts of an upper bound of a state's value, for
/// `avail` the numbers not held with copies left (`copies[n]` of number
/// `n`), `count`
/// numbers held, `busts` cards left that would bust, a Second Chance held
/// (`held`) and `spare` Second Chances left in the pile.
///
/// Whatever the player does, the round ends at some point before the
/// first card that busts (or busts). The score only grows up to there, so
/// the expected score at that point bounds the value. Taking the cards in
/// order, a card lies in "slot" `i` when `i` of the `busts` cards come
/// before it (each slot with chance `1 / (busts + 1)`); to get past the
/// `i`-th of them the player needs `i` Second Chances by then: the held
/// one, then `t = i - held` of the pile's, which all come before it with a
/// chance of at most `C(spare, t) i^t (t + 1)! / ((busts + 1) ..
/// (busts + t + 1))` together with the card in slot `i`. New duplicates, Freezes and
/// forced flips only end the round sooner. With `X` of `k` x2 cards drawn,
/// `2^X - 1 <= X (2^k - 1) / k`, so the doubling adds at most `(sum + top)
/// (2^k - 1)` times a card's chance.
fn prophet_bound(avail: u16, copies: &[u8], count: u32, busts: u32, held: bool, spare: u32) -> Prophet {
    let (top, bonus) = best_numbers(avail, count as u8);
    let b = f64::from(busts);
    let cards: u32 = numbers_in(avail).map(|n| u32::from(copies[n])).sum();
    if busts == 0 {
        return Prophet {
            numbers: f64::from(top),
            one: 1.0,
            top,
            bonus: f64::from(bonus),
        };
    }
    // A card's chance to come before the end beyond slot 0.
    let slot = 1.0 / (b + 1.0);
    let mut beyond = 0.0;
    let held = u32::from(held);
    for i in 1..=busts.min(held + spare) {
        let t = i - held.min(i);
        let chance = if t == 0 {
            slot
        } else {
            let mut c = 1.0;
            for r in 1..=t {
                // C(spare, t) t! = spare (spare - 1) .. ; times i^t (t + 1)
                // over (busts + 1) .. (busts + t + 1).
                c *= f64::from(spare - r + 1) * f64::from(i) / (b + f64::from(r));
            }
            (c * f64::from(t + 1) / (b + f64::from(t) + 1.0)).min(slot)
        };
        beyond += chance;
    }
    let one = (slot + beyond).min(1.0);
    let mut sum = 0.0;
    for n in numbers_in(avail) {
        let c = f64::from(copies[n]);
        sum += n as f64 * (c / (b + c) + c * beyond).min(1.0);
    }
    let bonus = if bonus == 0 {
        0.0
    } else {
        // A Flip 7 needs `room` new number cards before the `(held + spare
        // + 1)`-th card that busts: at most that many busts among the first
        // `room + shields` number-or-bust cards.
        let room = FLIP7_CARDS - count;
        let shields = (held + spare).min(busts);
        let n = room + shields;
        let chance = if n > cards + busts {
            1.0
        } else {
            let mut chance = 0.0;
            for k in 0..=shields.min(n) {
                if n - k > cards {
                    continue;
                }
                chance += binomial(busts, k) * binomial(cards, n - k);
            }
            (chance / binomial(cards + busts, n)).min(1.0)
        };
        chance * f64::from(bonus)
    };
    Prophet {
        numbers: sum.min(f64::from(top)),
        one,
        top,
        bonus,
    }
}

/// `binomial(n, k)` as `f64`.
fn binomial(n: u32, k: u32) -> f64 {
    if k > n {
        return 0.0;
    }
    let mut v = 1.0;
    for i in 0..k.min(n - k) {
        v = v * f64::from(n - i) / f64::from(i + 1);
    }
    v
}

/// The unseen cards that matter: with an opponent in the round
/// (`solo == false`), Freeze and Flip Three are dropped.
fn counted(unseen: &[u8; KINDS], solo: bool) -> [u8; KINDS] {
    let mut pile = *unseen;
    if !solo {
        pile[FREEZE as usize] = 0;
        pile[FLIP_THREE as usize] = 0;
    }
    for m in PLUS2..=TIMES2 {
        assert!(
            pile[m as usize] <= MAX_MODS_PER_KIND,
            "the optimal-round engine counts at most {MAX_MODS_PER_KIND} of each modifier"
        );
    }
    for a in [FREEZE, FLIP_THREE, SECOND_CHANCE] {
        assert!(
            pile[a as usize] <= MAX_ACTIONS_PER_KIND,
            "the optimal-round engine counts at most {MAX_ACTIONS_PER_KIND} of each action card"
        );
    }
    pile
}

/// The values of staying and of hitting for a player holding `hand` when
/// the unseen cards are `unseen` (counts per kind, in random order), under
/// `rule`. `solo`: no other player is in the round (Freeze and Flip Three
/// hit the player). Exact within the model of the module documentation;
/// `memo` is reusable scratch.
pub fn evaluate(hand: &Hand, unseen: &[u8; KINDS], solo: bool, rule: Rule, memo: &mut Memo) -> Values {
    evaluate_cut(hand, unseen, solo, rule, Cut::Exact, memo)
}

/// [`evaluate`], or with `cut` a lower or upper bound of its `hit`.
fn evaluate_cut(
    hand: &Hand,
    unseen: &[u8; KINDS],
    solo: bool,
    rule: Rule,
    cut: Cut,
    memo: &mut Memo,
) -> Values {
    let pile = counted(unseen, solo);
    let stay = f64::from(hand.banked());
    if pile.iter().all(|&c| c == 0) {
        return Values { stay, hit: stay };
    }
    memo.searches += 1;
    let (part, m) = memo.locate(rule, cut, hand, &pile);
    let mut hit = Search { memo, rule, cut }.hit_value(&part, m);
    // Freezes and Flip Threes given away were left out. That changes no
    // decision and no state's value, but the value of hitting now, when
    // staying is better, counts that such a card would let the player
    // choose again: with `s` of them and `e` other cards, hitting is worth
    // (s * max(stay, value with s - 1) + e * value with none) / (s + e).
    let skipped = u16::from(unseen[FREEZE as usize] - pile[FREEZE as usize])
        + u16::from(unseen[FLIP_THREE as usize] - pile[FLIP_THREE as usize]);
    if skipped > 0 {
        let effective = f64::from(pile.iter().map(|&c| u16::from(c)).sum::<u16>());
        let none = hit;
        for s in 1..=skipped {
            let s = f64::from(s);
            let again = if hit > stay + TIE { hit } else { stay };
            hit = (s * again + effective * none) / (s + effective);
        }
    }
    Values { stay, hit }
}

/// Whether `seat` is the only player left in the round (so Freeze and Flip
/// Three come back to it).
pub fn is_solo(t: &Table, seat: usize) -> bool {
    t.active_mask() & !(1u64 << seat) == 0
}

/// The exact values of staying and hitting for `seat` now (see
/// [`evaluate`]), always by a full search.
pub fn values(t: &Table, seat: usize, memo: &mut Memo) -> Values {
    let (unseen, _) = next_card_counts(t);
    evaluate(t.hand(seat), &unseen, is_solo(t, seat), Rule::Optimal, memo)
}

/// The exact round-score-maximising choice for `seat`: `true` to hit. The
/// same answer as `values(t, seat, memo).hits()`, settled by bounds when
/// they suffice.
pub fn hits(t: &Table, seat: usize, memo: &mut Memo) -> bool {
    let (unseen, _) = next_card_counts(t);
    decide(t.hand(seat), &unseen, is_solo(t, seat), memo)
}

/// [`hits`] for a hand and unseen cards given directly.
pub fn decide(hand: &Hand, unseen: &[u8; KINDS], solo: bool, memo: &mut Memo) -> bool {
    let look = Look::new(hand, &counted(unseen, solo));
    if look.total == 0 {
        return false;
    }
    let stay = f64::from(look.banked());
    if look.hit_then_stay() > stay + TIE {
        return true;
    }
    for depth in 0..=UPPER_DEPTH {
        if look.upper(depth) <= stay + TIE {
            return false;
        }
    }
    // A state of an exact search already made (a later decision of the
    // same round) is answered from it.
    if memo.base.locate(Rule::Optimal, hand, &look.pile).is_some() {
        return evaluate(hand, unseen, solo, Rule::Optimal, memo).hits();
    }
    if memo.bounds.is_empty() {
        memo.bounds = vec![Memo::new(); 2 * LEVELS.len()];
    }
    // Bounding searches, from the cheapest, each side first where the last
    // bound came closer to deciding. With an opponent in the round no Flip
    // Three is counted, so only the first level cuts anything.
    let mut upper_first = look.upper(UPPER_DEPTH) - stay < stay - look.hit_then_stay();
    let levels = if solo { LEVELS.len() } else { 1 };
    for level in 0..levels {
        let (mut lower, mut upper) = (f64::NEG_INFINITY, f64::INFINITY);
        for upper_side in [upper_first, !upper_first] {
            let (cut, bounds) = if upper_side {
                (Cut::Upper(level as u8), &mut memo.bounds[2 * level + 1])
            } else {
                (Cut::Lower(level as u8), &mut memo.bounds[2 * level])
            };
            let hit = evaluate_cut(hand, unseen, solo, Rule::Optimal, cut, bounds).hit;
            if upper_side {
                upper = hit;
                if upper <= stay + TIE {
                    return false;
                }
            } else {
                lower = hit;
                if lower > stay + TIE {
                    return true;
                }
            }
        }
        upper_first = upper - stay < stay - lower;
    }
    evaluate(hand, unseen, solo, Rule::Optimal, memo).hits()
}

/// Levels of look-ahead of the upper bound tried by [`decide`] before a
/// search.
const UPPER_DEPTH: u32 = 2;

/// A state for the bounds of [`decide`]: the hand and the counted pile.
#[derive(Clone, Copy, Debug)]
struct Look {
    pile: [u8; KINDS],
    total: u32,
    busts: u32,
    numbers: u16,
    sum: u32,
    count: u32,
    times2: u32,
    plus: u32,
    sc: bool,
}

impl Look {
    fn new(hand: &Hand, pile: &[u8; KINDS]) -> Look {
        let busts = (0..NUMBERS)
            .filter(|&n| hand.numbers & (1 << n) != 0)
            .map(|n| u32::from(pile[n]))
            .sum();
        Look {
            pile: *pile,
            total: pile.iter().map(|&c| u32::from(c)).sum(),
            busts,
            numbers: hand.numbers,
            sum: u32::from(hand.number_sum),
            count: u32::from(hand.count),
            times2: u32::from(hand.times2),
            plus: u32::from(hand.plus),
            sc: hand.second_chance,
        }
    }

    #[inline]
    fn banked(&self) -> u32 {
        (self.sum << self.times2) + self.plus
    }

    /// Numbers not held with copies left.
    #[inline]
    fn avail(&self) -> u16 {
        let mut a = 0;
        for n in 0..NUMBERS {
            if self.pile[n] > 0 && self.numbers & (1 << n) == 0 {
                a |= 1 << n;
            }
        }
        a
    }

    /// The best round score still reachable.
    fn best(&self) -> u32 {
        let (top, bonus) = best_numbers(self.avail(), self.count as u8);
        let plus_left: u32 = (PLUS2..TIMES2)
            .map(|m| u32::from(self.pile[m as usize]) * u32::from(plus_value(m)))
            .sum();
        ((self.sum + top) << (self.times2 + u32::from(self.pile[TIMES2 as usize])))
            + self.plus
            + plus_left
            + bonus
    }

    /// The state after drawing `card` (not a Freeze or Flip Three, and not
    /// a held number unless a Second Chance is held), and whether it ends
    /// the round with a Flip 7.
    fn after(&self, card: usize) -> (Look, bool) {
        let mut c = *self;
        c.pile[card] -= 1;
        c.total -= 1;
        if card < NUMBERS {
            if self.numbers & (1 << card) != 0 {
                c.sc = false;
                c.busts -= 1;
            } else {
                c.numbers |= 1 << card;
                c.sum += card as u32;
                c.count += 1;
                c.busts += u32::from(c.pile[card]);
            }
        } else if card == TIMES2 as usize {
            c.times2 += 1;
        } else if card == SECOND_CHANCE as usize {
            c.sc = true;
        } else {
            c.plus += u32::from(plus_value(card as u8));
        }
        (c, c.count >= FLIP7_CARDS)
    }

    /// An upper bound of the value of the state (the better of staying and
    /// hitting, whatever is done next): the expected score just before the
    /// first card that would bust, as if the player could see it coming
    /// (see [`prophet_bound`]).
    fn prophet(&self) -> f64 {
        let plus_left: u32 = (PLUS2..TIMES2)
            .map(|m| u32::from(self.pile[m as usize]) * u32::from(plus_value(m)))
            .sum();
        let p = prophet_bound(
            self.avail(),
            &self.pile,
            self.count,
            self.busts,
            self.sc,
            u32::from(self.pile[SECOND_CHANCE as usize]),
        );
        let k = u32::from(self.pile[TIMES2 as usize]);
        let value = (f64::from(self.sum)
            + p.numbers
            + f64::from(self.sum + p.top) * f64::from((1u32 << k) - 1) * p.one)
            * f64::from(1u32 << self.times2)
            + f64::from(self.plus)
            + f64::from(plus_left) * p.one
            + p.bonus;
        value.min(f64::from(self.best()))
    }

    /// Hitting once and then staying: a lower bound of the value of hitting
    /// (a Flip Three counts 0).
    fn hit_then_stay(&self) -> f64 {
        let banked = self.banked();
        let mut acc = 0u64;
        for k in 0..KINDS {
            let cards = u64::from(self.pile[k]);
            if cards == 0 || k == FLIP_THREE as usize {
                continue;
            }
            let v = if k == FREEZE as usize || (k < NUMBERS && self.numbers & (1 << k) != 0) {
                if k == FREEZE as usize || self.sc {
                    banked
                } else {
                    0
                }
            } else {
                let (c, flip7) = self.after(k);
                c.banked() + if flip7 { u32::from(FLIP7_BONUS) } else { 0 }
            };
            acc += cards * u64::from(v);
        }
        acc as f64 / f64::from(self.total)
    }

    /// An upper bound of the value of hitting (`total > 0`). At depth 0:
    /// the chance that the next card does not bust times the best score
    /// still reachable. Deeper: the average over the next card of the
    /// better of staying and the bound one level down (a Flip Three counts
    /// the best score still reachable).
    fn upper(&self, depth: u32) -> f64 {
        let safe = if self.sc {
            self.total
        } else {
            self.total - self.busts
        };
        if depth == 0 {
            return f64::from(self.best()) * f64::from(safe) / f64::from(self.total);
        }
        let banked = f64::from(self.banked());
        let mut acc = 0.0;
        let mut dup_done = false;
        for k in 0..KINDS {
            let cards = f64::from(self.pile[k]);
            if cards == 0.0 {
                continue;
            }
            let held = k < NUMBERS && self.numbers & (1 << k) != 0;
            let v = if k == FREEZE as usize {
                banked
            } else if k == FLIP_THREE as usize {
                self.prophet()
            } else if held && !self.sc {
                0.0
            } else {
                if held {
                    // Every held number leads to the same state.
                    if dup_done {
                        continue;
                    }
                    dup_done = true;
                }
                let (c, flip7) = self.after(k);
                let w = if held { f64::from(self.busts) } else { cards };
                let v = if flip7 {
                    f64::from(c.banked() + u32::from(FLIP7_BONUS))
                } else if c.total == 0 {
                    f64::from(c.banked())
                } else {
                    f64::from(c.banked()).max(c.upper(depth - 1)).min(c.prophet())
                };
                acc += w * v;
                continue;
            };
            acc += cards * v;
        }
        acc / f64::from(self.total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::flip7::cards::{Without, composition};

    fn unseen_after(comp: [u8; KINDS], h: &Hand) -> [u8; KINDS] {
        let mut u = comp;
        for n in 0..=12 {
            if h.has(n) {
                u[n as usize] -= 1;
            }
        }
        u
    }

    #[test]
    fn empty_pile_stays() {
        let h = Hand::holding(&[5], 0, 0, false);
        let v = evaluate(&h, &[0; KINDS], true, Rule::Optimal, &mut Memo::new());
        assert_eq!(v, Values { stay: 5.0, hit: 5.0 });
        assert!(!decide(&h, &[0; KINDS], false, &mut Memo::new()));
    }

    #[test]
    fn a_pile_that_cannot_hurt_is_always_hit() {
        // Only a +4 left: hitting adds 4.
        let mut u = [0; KINDS];
        u[PLUS2 as usize + 1] = 1;
        let h = Hand::holding(&[3, 9], 0, 0, false);
        let v = evaluate(&h, &u, false, Rule::Optimal, &mut Memo::new());
        assert_eq!(v.hit, 16.0);
        assert!(decide(&h, &u, false, &mut Memo::new()));
    }

    #[test]
    fn two_cards_left_are_weighed_exactly() {
        // Pile {9, 10}; holding 9: hit busts half the time, else 19 and then
        // only the 9 is left, which busts: stay at 19. Hit is worth 9.5.
        let mut u = [0; KINDS];
        u[9] = 1;
        u[10] = 1;
        let h = Hand::holding(&[9], 0, 0, false);
        let v = evaluate(&h, &u, false, Rule::Optimal, &mut Memo::new());
        assert!((v.hit - 9.5).abs() < 1e-12, "{v:?}");
        assert!(v.hits());
    }

    #[test]
    fn opponents_take_freeze_and_flip_three() {
        let mut u = [0; KINDS];
        u[4] = 1;
        u[FREEZE as usize] = 1;
        u[FLIP_THREE as usize] = 2;
        let h = Hand::holding(&[7], 0, 0, false);
        // With an opponent in, only the 4 matters.
        let multi = evaluate(&h, &u, false, Rule::Optimal, &mut Memo::new());
        assert_eq!(multi.hit, 11.0);
        // Solo: the Freeze (1/4) banks 7. The 4 (1/4) makes 11, and then a
        // hit only banks or flips the rest: 11 either way. A Flip Three
        // (2/4) flips three: every card left; the Freeze among them waits
        // and banks 11 at the end. So 7/4 + 3 * 11/4.
        let solo = evaluate(&h, &u, true, Rule::Optimal, &mut Memo::new());
        assert!((solo.hit - (7.0 + 33.0) / 4.0).abs() < 1e-12, "{solo:?}");
    }

    #[test]
    fn memo_is_reused_for_a_later_state_of_the_same_round() {
        let comp = composition(1, Without::default());
        let mut memo = Memo::new();
        let h0 = Hand::holding(&[8, 3, 4], 0, 0, false);
        let u0 = unseen_after(comp, &h0);
        evaluate(&h0, &u0, true, Rule::Optimal, &mut memo);
        let states = memo.states();
        // The player then drew an 11 and the +4.
        let h1 = Hand::holding(&[8, 3, 4, 11], 4, 0, false);
        let mut u1 = unseen_after(comp, &h1);
        u1[PLUS2 as usize + 1] -= 1;
        let reused = evaluate(&h1, &u1, true, Rule::Optimal, &mut memo);
        assert_eq!(memo.states(), states, "no new state computed");
        let fresh = evaluate(&h1, &u1, true, Rule::Optimal, &mut Memo::new());
        assert_eq!(reused, fresh);
    }

    #[test]
    fn bounds_hold_against_exact_values() {
        // Hands of the decide test and more, each facing the full deck less
        // some cards seen: the prophet bound is never below the value of
        // the state, the look-ahead bounds never below the value of hitting,
        // and hitting once then staying never above it.
        let comp = composition(1, Without::default());
        let mut memo = Memo::new();
        let hands = [
            Hand::holding(&[8], 0, 0, false),
            Hand::holding(&[12, 11], 0, 0, true),
            Hand::holding(&[12, 11, 10], 0, 0, false),
            Hand::holding(&[2, 5, 9, 11], 4, 1, false),
            Hand::holding(&[1, 3, 6, 8, 12], 0, 0, true),
            Hand::holding(&[0, 1, 2, 3, 4, 5], 10, 0, false),
            Hand::holding(&[7, 9, 10, 12], 6, 0, false),
        ];
        let seen: [&[u8]; 4] = [
            &[],
            &[12, 12, 12, 11, SECOND_CHANCE],
            &[TIMES2, PLUS2 + 4, 9, 9],
            &[SECOND_CHANCE, SECOND_CHANCE, 5, 6, 7],
        ];
        let mut checked = 0;
        for h in &hands {
            for gone in seen {
                let mut u = unseen_after(comp, h);
                for &c in gone {
                    u[c as usize] = u[c as usize].saturating_sub(1);
                }
                for solo in [false, true] {
                    // The bounds are of the counted pile (with an opponent
                    // in, Freezes and Flip Threes left out).
                    let pile = counted(&u, solo);
                    let exact = evaluate(h, &pile, solo, Rule::Optimal, &mut memo);
                    let look = Look::new(h, &pile);
                    let tie = 1e-9;
                    assert!(
                        look.prophet() + tie >= exact.best(),
                        "{h:?} {solo}: {exact:?} {}",
                        look.prophet()
                    );
                    for depth in 0..=UPPER_DEPTH {
                        assert!(
                            look.upper(depth) + tie >= exact.hit,
                            "{h:?} {solo} {depth}: {exact:?}"
                        );
                    }
                    assert!(look.hit_then_stay() <= exact.hit + tie, "{h:?} {solo}: {exact:?}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 56);
    }

    /// The expected score just before the first card that busts when every
    /// card is taken (Freeze and Flip Three as blanks): what the prophet
    /// bound bounds, by brute force.
    fn prophet_exact(l: &Look) -> f64 {
        if l.total == 0 {
            return f64::from(l.banked());
        }
        let mut acc = 0.0;
        for k in 0..KINDS {
            let cards = f64::from(l.pile[k]);
            if cards == 0.0 {
                continue;
            }
            let held = k < NUMBERS && l.numbers & (1 << k) != 0;
            let v = if held && !l.sc {
                f64::from(l.banked())
            } else if k == FREEZE as usize || k == FLIP_THREE as usize {
                let mut c = *l;
                c.pile[k] -= 1;
                c.total -= 1;
                prophet_exact(&c)
            } else {
                let (c, flip7) = l.after(k);
                if flip7 {
                    f64::from(c.banked() + u32::from(FLIP7_BONUS))
                } else {
                    prophet_exact(&c)
                }
            };
            acc += cards * v;
        }
        acc / f64::from(l.total)
    }

    #[test]
    fn prophet_bound_is_above_the_prophet_value() {
        let piles: [&[u8]; 6] = [
            &[3, 3, 5, 9, TIMES2, PLUS2 + 4, SECOND_CHANCE, 9],
            &[3, 3, 3, 5, 5, 11, TIMES2, SECOND_CHANCE, SECOND_CHANCE],
            &[1, 2, 4, 6, 8, 10, 12, 3],
            &[12, 12, 12, 11, 11, TIMES2, TIMES2, PLUS2],
            &[7, 7, 6, SECOND_CHANCE, FREEZE, FLIP_THREE, PLUS2 + 2, 0, 1],
            &[2, 2, 4, 4, 8, 8, SECOND_CHANCE, SECOND_CHANCE, SECOND_CHANCE],
        ];
        let hands = [
            Hand::holding(&[3], 0, 0, false),
            Hand::holding(&[3, 7, 11], 2, 0, false),
            Hand::holding(&[5, 9], 0, 1, true),
            Hand::holding(&[0, 1, 2, 4, 6], 0, 0, false),
            Hand::holding(&[12], 0, 0, true),
        ];
        let mut tight = f64::INFINITY;
        for pile in piles {
            let mut u = [0u8; KINDS];
            for &c in pile {
                u[c as usize] += 1;
            }
            for h in &hands {
                let look = Look::new(h, &u);
                let exact = prophet_exact(&look);
                let bound = look.prophet();
                assert!(bound + 1e-9 >= exact, "{h:?} {pile:?}: {bound} < {exact}");
                tight = tight.min(bound - exact);
            }
        }
        // Some case is close: the bound is not vacuous.
        assert!(tight < 0.5, "closest {tight}");
    }

    /// A random hand facing the full deck less the hand and some cards
    /// seen: cards are taken from a shuffled deck into the hand until it
    /// holds `1..=5` numbers (repeats, Freezes, Flip Threes and a second
    /// Second Chance are put aside as seen), then `0..75` more are seen.
    fn random_state(rng: &mut crate::engine::rng::SimRng) -> (Hand, [u8; KINDS]) {
        use crate::engine::rng::Draw;
        let comp = composition(1, Without::default());
        let mut deck: Vec<u8> = (0..KINDS as u8)
            .flat_map(|k| std::iter::repeat_n(k, usize::from(comp[usize::from(k)])))
            .collect();
        rng.shuffle(&mut deck);
        let want = rng.below(5) as usize + 1;
        let (mut numbers, mut plus, mut times2, mut sc) = (Vec::new(), 0, 0, false);
        let mut unseen = comp;
        let mut cards = deck.into_iter();
        while numbers.len() < want {
            let c = cards.next().expect("the deck holds enough numbers");
            unseen[usize::from(c)] -= 1;
            if c <= MAX_NUMBER && !numbers.contains(&c) {
                numbers.push(c);
            } else if c == TIMES2 {
                times2 += 1;
            } else if (PLUS2..TIMES2).contains(&c) {
                plus += plus_value(c);
            } else if c == SECOND_CHANCE {
                sc = true;
            }
        }
        for c in cards.take(rng.below(75) as usize) {
            unseen[usize::from(c)] -= 1;
        }
        (Hand::holding(&numbers, plus, times2, sc), unseen)
    }

    #[test]
    fn bounding_searches_bracket_the_exact_value() {
        // Every level of the bounding searches of `decide`, below and
        // above, against the exact value of hitting, alone in the round and
        // not; and `decide` against the exact choice.
        let mut rng = crate::engine::rng::batch_rng(11, 0);
        let (mut exact_memo, mut bound_memo, mut memo) = (Memo::new(), Memo::new(), Memo::new());
        let mut settled = [0; LEVELS.len()];
        let mut hard = 0;
        while hard < 40 {
            let (h, u) = random_state(&mut rng);
            for solo in [false, true] {
                // Only states the quick bounds of `decide` leave open.
                let look = Look::new(&h, &counted(&u, solo));
                let stay = f64::from(look.banked());
                if look.total == 0
                    || look.hit_then_stay() > stay + TIE
                    || look.upper(UPPER_DEPTH) <= stay + TIE
                {
                    continue;
                }
                hard += 1;
                let exact = evaluate(&h, &u, solo, Rule::Optimal, &mut exact_memo);
                for level in 0..LEVELS.len() as u8 {
                    let lower = evaluate_cut(&h, &u, solo, Rule::Optimal, Cut::Lower(level), &mut bound_memo);
                    let upper = evaluate_cut(&h, &u, solo, Rule::Optimal, Cut::Upper(level), &mut bound_memo);
                    assert_eq!(lower.stay, exact.stay);
                    assert!(
                        lower.hit <= exact.hit + TIE,
                        "{h:?} {u:?} {solo} {level}: {lower:?} {exact:?}"
                    );
                    assert!(
                        upper.hit + TIE >= exact.hit,
                        "{h:?} {u:?} {solo} {level}: {upper:?} {exact:?}"
                    );
                    if lower.hit > exact.stay + TIE || upper.hit <= exact.stay + TIE {
                        settled[usize::from(level)] += 1;
                    }
                }
                assert_eq!(
                    decide(&h, &u, solo, &mut memo),
                    exact.hits(),
                    "{h:?} {u:?} {solo}: {exact:?}"
                );
            }
        }
        // The bounds are not vacuous: they settle many of these, deeper
        // levels more.
        assert!(settled[0] > 10 && settled[2] > 30, "{settled:?}");
    }

    #[test]
    fn decide_agrees_with_a_full_search() {
        let comp = composition(1, Without::default());
        let mut memo = Memo::new();
        let mut fresh = Memo::new();
        let cases = [
            Hand::holding(&[8], 0, 0, false),
            Hand::holding(&[12, 11, 10], 0, 0, false),
            Hand::holding(&[12, 11, 10], 0, 0, true),
            Hand::holding(&[2, 5, 9, 11], 4, 1, false),
            Hand::holding(&[1, 3, 6, 8, 12], 0, 0, false),
            Hand::holding(&[0, 1, 2, 3, 4, 5], 10, 0, false),
            Hand::holding(&[7, 9, 10, 12], 0, 0, false),
        ];
        for h in &cases {
            let u = unseen_after(comp, h);
            for solo in [false, true] {
                let full = evaluate(h, &u, solo, Rule::Optimal, &mut fresh);
                assert_eq!(
                    decide(h, &u, solo, &mut memo),
                    full.hits(),
                    "{h:?} solo {solo}: {full:?}"
                );
            }
        }
    }
}
