//! [`Memo`]: the arena of blocks of values, the hash table (open
//! addressing, keyed by packed hand part and generation) that finds them,
//! and the root they are relative to.

use super::Rule;
use super::bounds::Prophet;
use super::cuts::Cut;
use super::state::{Base, Part};
use crate::games::flip7::cards::KINDS;
use crate::games::flip7::rules::Hand;

/// Bits of a packed hand part, the lowest of a slot of the index.
const PART_BITS: u32 = 30;
/// Bits of a block's number, above the hand part: at most 16M blocks (of
/// at least 64 values: more than 8 GB of values).
const ID_BITS: u32 = 24;
/// The memo's generation sits above both.
const GEN_SHIFT: u32 = PART_BITS + ID_BITS;
const GEN_LIMIT: u64 = 1 << (64 - GEN_SHIFT);
/// The bits of a slot that its hand part and generation take.
const TAG_MASK: u64 = ((1 << PART_BITS) - 1) | (!0 << GEN_SHIFT);
/// Smallest block index (slots), small so that small searches stay in cache.
const MIN_BITS: u32 = 10;

/// What a bounding search worked out about a hand part besides its values,
/// the same for every search of the same root: a later search of the
/// decision that meets the part again takes it instead of working it out
/// again. (That the part is in the memo and not exact also tells that not
/// every combination of modifiers stays there, by the rule or by its
/// prophet bound.) On 200 games at two and four players, seeds 7 and 8:
/// 5.210 G instructions to 5.016 G. Also taking it from the last upper
/// search where the search before has no block gave nothing (5.024 G);
/// from any earlier search of the decision, at most 7% more parts would
/// find it. Taking whole blocks that are not exact from an earlier search
/// in the same direction, where all its stops would stop again, cost more
/// (5.564 G against 5.231 G): few blocks qualified, with looser values.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Known {
    /// The chance to reach the part ([`Base::reach`]).
    pub(super) reach: f64,
    /// Its prophet bound, if it was worked out.
    pub(super) prophet: Option<Prophet>,
}

/// Reusable scratch for the search: the blocks of values computed, the hash
/// table that finds them and the root they are relative to. It keeps its
/// memory from one decision to the next.
#[derive(Clone)]
pub struct Memo {
    /// `key | block << PART_BITS | generation << GEN_SHIFT` (8 bytes, so
    /// that more of the index stays in the processor's caches); a slot of
    /// another generation is empty.
    slots: Vec<u64>,
    /// Slots in use: the first `1 << bits`.
    bits: u32,
    pub(super) blocks: usize,
    generation: u64,
    /// Values, `base.size` per block: the first `blocks` blocks are this
    /// search's (the rest are left from earlier ones, so that a block is
    /// written once, by the search).
    ///
    /// (Tried on 500 four-player games with one `optimal-round` seat,
    /// seeds 1 to 10, 16.05 G instructions, and timed on 2,000 games a
    /// seed, medians of 5 interleaved one-thread runs: the blocks that are
    /// not exact stored as `f32` rounded outward, still bounds, so the
    /// same decisions: 17.03 G and 0.95 of the speed, the extra pass and
    /// conversions costing more than the memory saved. The arena started
    /// at a cache line: 16.20 G and 0.97 of the speed. Everything in
    /// `f32`, which is not exact and so not an option: 15.54 G and 1.08
    /// and 1.11 times the speed in two runs.)
    ///
    /// Memory matters more than the instruction count shows: on 500
    /// four-player games with one `optimal-round` seat, seed 3, the build
    /// of 5bb4051^ took 14.0 times as many instructions as this one
    /// (21.37 G against 1.53 G), but about 10 times as much time. In
    /// valgrind's cache model (48 KB and 2 MB, as on the development
    /// machine) 81% of the misses of the second level are writes: of
    /// bounds where a search stops (31%), of blocks computed (23%), of the
    /// arena as it grows (17%), of [`Known`] (17%) and of exact blocks
    /// copied (8%). [`Known`] packed into 40 bytes rather than
    /// 48 (the prophet bound's absence marked in `top`): 5% fewer misses
    /// of the second level, 0.4% more instructions; not clearly less time.
    pub(super) arena: Vec<f64>,
    /// Per block: whether its values are exact (no bounding search
    /// stopped anywhere below it), so any search of the same root may
    /// take them.
    pub(super) exact: Vec<bool>,
    /// Per block: what the search worked out about its hand part besides
    /// its values (for the blocks that are not exact).
    pub(super) known: Vec<Known>,
    pub(super) base: Base,
    pub(super) acc: Vec<f64>,
    scratch: Vec<u64>,
    pub(super) expanded: u64,
    pub(super) searches: u64,
    /// The memos of the bounding searches of [`decide`](super::decide): a
    /// small pool, from which each search takes one that no later search
    /// of the decision reads.
    pub(super) bounds: Vec<Memo>,
    /// The indices of `bounds` from the least recently taken to the most.
    pub(super) recent: Vec<usize>,
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
            slots: vec![0; 1 << MIN_BITS],
            bits: MIN_BITS,
            blocks: 0,
            generation: 1,
            arena: Vec::new(),
            exact: Vec::new(),
            known: Vec::new(),
            base: Base::default(),
            acc: Vec::new(),
            scratch: Vec::new(),
            expanded: 0,
            searches: 0,
            bounds: Vec::new(),
            recent: Vec::new(),
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
        self.slots.capacity() * std::mem::size_of::<u64>()
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
        // Size the index for a search like the last one. (Half as large,
        // growing at 70% full rather than 50%: 4.916 G instructions against
        // 4.906 G on 200 games at two and four players, seeds 7 and 8, and
        // no clear change in time. Sized for 8 times the blocks of the
        // search before in the decision, which the next one mostly
        // outgrows: 0.7% fewer instructions on 500 four-player games with
        // one `optimal-round` seat, seeds 1 to 10, but not less time, 0.99
        // and 0.92 of it in two interleaved runs.)
        let want = (self.blocks * 4)
            .next_power_of_two()
            .trailing_zeros()
            .max(MIN_BITS);
        self.bits = want.min(self.slots.len().trailing_zeros());
        self.blocks = 0;
        self.exact.clear();
        self.known.clear();
        self.next_generation();
    }

    /// A generation whose slots are all empty: every slot holds an older
    /// one (after the last of them, every slot is cleared).
    fn next_generation(&mut self) {
        self.generation += 1;
        if self.generation == GEN_LIMIT {
            self.slots.fill(0);
            self.generation = 1;
        }
    }

    /// The part and combination of `hand` facing `pile`, reusing the memo
    /// when its root applies, otherwise starting afresh with this root.
    pub(super) fn locate(&mut self, rule: Rule, cut: Cut, hand: &Hand, pile: &[u8; KINDS], donors: &[Option<&Base>]) -> (Part, usize) {
        if self.base.cut == cut
            && let Some(found) = self.base.locate(rule, hand, pile)
        {
            return found;
        }
        self.new_generation();
        self.base.set(rule, hand, pile, donors);
        self.base.cut = cut;
        self.acc.resize(self.base.size, 0.0);
        self.base.locate(rule, hand, pile).expect("a root locates itself")
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize
    }

    #[inline(always)]
    pub(super) fn get(&self, key: u64) -> Option<u32> {
        let tag = key | self.generation << GEN_SHIFT;
        let mask = (1usize << self.bits) - 1;
        let mut i = self.slot(tag);
        loop {
            let e = self.slots[i];
            if e & TAG_MASK == tag {
                return Some((e >> PART_BITS) as u32 & ((1 << ID_BITS) - 1));
            }
            if e >> GEN_SHIFT != self.generation {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    #[inline(always)]
    pub(super) fn insert(&mut self, key: u64, block: u32) {
        if (self.blocks + 1) * 2 > 1 << self.bits {
            self.grow();
        }
        assert!(block < 1 << ID_BITS, "a search of more than {} blocks", 1u32 << ID_BITS);
        debug_assert!(key < 1 << PART_BITS);
        let tag = key | self.generation << GEN_SHIFT;
        let mask = (1usize << self.bits) - 1;
        let mut i = self.slot(tag);
        while self.slots[i] >> GEN_SHIFT == self.generation {
            debug_assert_ne!(self.slots[i] & TAG_MASK, tag, "block computed twice");
            i = (i + 1) & mask;
        }
        self.slots[i] = tag | u64::from(block) << PART_BITS;
    }

    /// Doubles the index. Its entries move to a new generation, which
    /// leaves every other slot empty without writing it.
    #[cold]
    fn grow(&mut self) {
        let used = 1usize << self.bits;
        let generation = self.generation;
        self.scratch.clear();
        self.scratch.extend(
            self.slots[..used]
                .iter()
                .filter(|&&e| e >> GEN_SHIFT == generation)
                .map(|&e| e & !(!0 << GEN_SHIFT)),
        );
        self.bits += 1;
        let size = 1usize << self.bits;
        if self.slots.len() < size {
            self.slots.resize(size, 0);
        }
        self.next_generation();
        let mask = size - 1;
        for &e in &self.scratch {
            let e = e | self.generation << GEN_SHIFT;
            let mut i = self.slot(e & TAG_MASK);
            while self.slots[i] >> GEN_SHIFT == self.generation {
                i = (i + 1) & mask;
            }
            self.slots[i] = e;
        }
    }

    /// Starts loading the index slot of `key` without waiting for it, so
    /// that several misses overlap: a prefetch hint on x86-64, elsewhere a
    /// read whose value is not used.
    #[inline(always)]
    pub(super) fn touch_key(&self, key: u64) {
        let tag = key | self.generation << GEN_SHIFT;
        let i = self.slot(tag);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch reads nothing and never faults; the address
        // is in `slots` anyway.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(self.slots.as_ptr().add(i).cast())
        }
        #[cfg(not(target_arch = "x86_64"))]
        std::hint::black_box(self.slots[i]);
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

    /// The values of the block of `p`.
    #[inline]
    pub(super) fn block(&self, id: u32) -> &[f64] {
        let size = self.base.size;
        let at = id as usize * size;
        &self.arena[at..at + size]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_finds_this_generation_only_across_growth_and_wraparound() {
        // Keys spread over the whole hand-part range; block numbers up to
        // the largest that fits.
        let key = |i: u64, g: u64| (i * 0x9E37_79B1 + g * 7919) & ((1 << PART_BITS) - 1);
        let mut memo = Memo::new();
        let mut last: Vec<u64> = Vec::new();
        for g in 0..2 * GEN_LIMIT + 5 {
            memo.new_generation();
            for &k in &last {
                assert_eq!(memo.get(k), None, "generation {g}: key {k} of the generation before");
            }
            // Now and then enough keys to grow the index several times.
            let n = if g % 300 == 0 { 5000 } else { 40 };
            last = (0..n).map(|i| key(i, g)).collect();
            last.sort_unstable();
            last.dedup();
            for (i, &k) in last.iter().enumerate() {
                let block = if i == 0 { (1 << ID_BITS) - 1 } else { i as u32 };
                memo.insert(k, block);
                memo.blocks += 1;
            }
            for (i, &k) in last.iter().enumerate() {
                let block = if i == 0 { (1 << ID_BITS) - 1 } else { i as u32 };
                assert_eq!(memo.get(k), Some(block), "generation {g}");
            }
        }
    }

    #[test]
    fn growth_that_wraps_the_generation_keeps_every_entry_and_drops_the_rest() {
        // Growth moves the entries to a new generation; when that is past
        // the last one, every slot is cleared first. Keys left in the slots
        // from an early generation, which the count reaches again after
        // the wrap, must not come back.
        let key = |i: u64| (i * 0x9E37_79B1) & ((1 << PART_BITS) - 1);
        let mut memo = Memo::new();
        memo.new_generation();
        assert_eq!(memo.generation, 2);
        let old: Vec<u64> = (10_000..10_400).map(key).collect();
        for (i, &k) in old.iter().enumerate() {
            memo.insert(k, i as u32);
            memo.blocks += 1;
        }
        memo.new_generation();
        memo.generation = GEN_LIMIT - 3;
        let (start, bits) = (memo.generation, memo.bits);
        // Four doublings: the last two generations, then 1 and 2 again.
        let keys: Vec<u64> = (0..5000).map(key).collect();
        for (i, &k) in keys.iter().enumerate() {
            memo.insert(k, i as u32);
            memo.blocks += 1;
        }
        assert_eq!((memo.bits, memo.generation), (bits + 4, 2), "from generation {start}");
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(memo.get(k), Some(i as u32), "key {k}");
        }
        for &k in &old {
            assert_eq!(memo.get(k), None, "key {k} of the generation before");
        }
        // No slot left from generation 2 counts as one of this one.
        let current = memo.slots.iter().filter(|&&e| e >> GEN_SHIFT == memo.generation).count();
        assert_eq!(current, keys.len());
    }
}
