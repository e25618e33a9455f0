//! [`Memo`]: the arena of blocks of values, the hash table (open
//! addressing, keyed by packed hand part and generation) that finds them,
//! and the root they are relative to.

use super::Rule;
use super::cuts::Cut;
use super::state::{Base, Part};
use crate::games::flip7::cards::KINDS;
use crate::games::flip7::rules::Hand;

/// Bits of a packed hand part; the memo's generation sits above them.
const PART_BITS: u32 = 30;
const GEN_LIMIT: u64 = 1 << (64 - PART_BITS);
/// Smallest block index (slots), small so that small searches stay in cache.
const MIN_BITS: u32 = 10;

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
    pub(super) blocks: usize,
    generation: u64,
    /// Values, `base.size` per block.
    pub(super) arena: Vec<f64>,
    /// Per block: whether its values are exact (no bounding search
    /// stopped anywhere below it), so any search of the same root may
    /// take them.
    pub(super) exact: Vec<bool>,
    pub(super) base: Base,
    pub(super) acc: Vec<f64>,
    scratch: Vec<(u64, u32)>,
    pub(super) expanded: u64,
    pub(super) searches: u64,
    /// The memos of the bounding searches of [`decide`](super::decide): two
    /// a level (below, above), then those of the world without Freezes and
    /// Flip Threes (above), one for each of its levels and one at the first
    /// level's own threshold.
    pub(super) bounds: Vec<Memo>,
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
            exact: Vec::new(),
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

    /// Exact searches since the memo was made: calls of [`evaluate`](super::evaluate), and
    /// the decisions of [`decide`](super::decide) no bound settled.
    pub fn searches(&self) -> u64 {
        self.searches
    }

    /// Bounding searches since the memo was made (see [`decide`](super::decide)).
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
        self.exact.clear();
        self.generation += 1;
        if self.generation == GEN_LIMIT {
            self.slots.fill((0, 0));
            self.generation = 1;
        }
    }

    /// The part and combination of `hand` facing `pile`, reusing the memo
    /// when its root applies, otherwise starting afresh with this root.
    pub(super) fn locate(&mut self, rule: Rule, cut: Cut, hand: &Hand, pile: &[u8; KINDS]) -> (Part, usize) {
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
    pub(super) fn get(&self, key: u64) -> Option<u32> {
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

    pub(super) fn insert(&mut self, key: u64, block: u32) {
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
    pub(super) fn touch_key(&self, key: u64) {
        let full = key | self.generation << PART_BITS;
        std::hint::black_box(self.slots[self.slot(full)].0);
    }

    /// Starts loading the values of block `id` (one read per cache line).
    #[inline]
    pub(super) fn touch_block(&self, id: u32) {
        let size = self.base.size;
        let at = id as usize * size;
        for i in (at..at + size).step_by(8) {
            std::hint::black_box(self.arena[i]);
        }
    }

    /// The values of the block keyed `key` if they are exact.
    #[inline]
    pub(super) fn exact_block(&self, key: u64) -> Option<&[f64]> {
        self.get(key).filter(|&id| self.exact[id as usize]).map(|id| self.block(id))
    }

    /// The values of the block of `p`.
    #[inline]
    pub(super) fn block(&self, id: u32) -> &[f64] {
        let size = self.base.size;
        let at = id as usize * size;
        &self.arena[at..at + size]
    }
}
