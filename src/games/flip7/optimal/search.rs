//! The search over one root: the successors of a hand part by the next
//! card, and each block of values computed from its successors' blocks.

use std::mem::MaybeUninit;

use super::bounds::Prophet;
use super::cuts::{Cut, free_block};
use super::memo::{Known, Memo};
use super::state::{FREE_KEY_BITS, MAX_ACTIONS_PER_KIND, NUMBERS, Part, Target, numbers_in};
use super::{Rule, TIE};
use crate::games::flip7::rules::{FLIP7_BONUS, FLIP7_CARDS};

/// Values held beyond which the search starts loading successors ahead
/// (about 8 MB: below that they are mostly in the processor's caches).
/// (With the search compiled for AVX2, 1 MB, or prefetching the index
/// slots of the successors at every size, made no clear change in time:
/// medians of 21 interleaved one-thread runs.)
const TOUCH_ABOVE: usize = 1 << 20;

/// Most forced flips left at once (a Flip Three under way and five
/// waiting, with two decks).
pub(super) const MAX_FORCED: usize = 3 + 2 * MAX_ACTIONS_PER_KIND as usize;

/// The successors of a hand part by the next card.
#[derive(Clone, Copy, Debug)]
struct Moves {
    /// Cards other than modifiers and Freezes that end forced flips: (how
    /// many, where they lead), the first `len` set (see [`Moves::list`]).
    /// Left uninitialised: the search makes a `Moves` at every block it
    /// computes, and initialising the whole list took a call of `memcpy`.
    entries: [MaybeUninit<(u16, Target)>; NUMBERS + 4],
    len: usize,
    /// Where a modifier leads.
    modifier: Target,
    /// A Freeze drawn during forced flips (no Freeze waiting yet): (how
    /// many, the hand then with `forced` = the flips left, blanks left).
    freeze: Option<(u16, Part, u8)>,
}

impl Moves {
    /// No successor yet. (A function, not a constant: a constant was
    /// copied whole, by `memcpy`.)
    #[inline(always)]
    fn empty() -> Moves {
        Moves {
            entries: [const { MaybeUninit::uninit() }; NUMBERS + 4],
            len: 0,
            modifier: Target::Same,
            freeze: None,
        }
    }

    /// Adds a successor to the list.
    #[inline(always)]
    fn push(&mut self, cards: u16, t: Target) {
        self.entries[self.len] = MaybeUninit::new((cards, t));
        self.len += 1;
    }

    /// The successors of the list.
    #[inline(always)]
    fn list(&self) -> &[(u16, Target)] {
        // SAFETY: `push` set the first `len` entries, and only it writes
        // them; `len` never exceeds the array's length (`push` indexes
        // with bounds checks).
        unsafe { std::slice::from_raw_parts(self.entries.as_ptr().cast(), self.len) }
    }

    /// [`Moves::list`], to resolve its targets.
    #[inline(always)]
    fn list_mut(&mut self) -> &mut [(u16, Target)] {
        // SAFETY: as in `list`.
        unsafe { std::slice::from_raw_parts_mut(self.entries.as_mut_ptr().cast(), self.len) }
    }
}

/// [`binomials`], worked out when compiling (Pascal's triangle).
static BINOMIALS: [[f64; MAX_FORCED + 1]; 201] = {
    let mut t = [[0.0; MAX_FORCED + 1]; 201];
    t[0][0] = 1.0;
    let mut n = 1;
    while n <= 200 {
        t[n][0] = 1.0;
        let mut k = 1;
        while k <= MAX_FORCED && k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0.0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// `binomial(n, k)` for `n <= 200`, `k <= MAX_FORCED`, as `f64` (exact
/// below 2^53, which covers one deck). Worked out when compiling: a table
/// made at its first use was checked at every use, in the search's inner
/// loops (0.5% of the instructions).
pub(super) fn binomials() -> &'static [[f64; MAX_FORCED + 1]] {
    &BINOMIALS
}

/// `1 / binomial(n, k)` for the pairs of [`binomials`] (0 where that is 0):
/// divisions become multiplications in the search's inner loops.
pub(super) fn inverse_binomials() -> &'static [[f64; MAX_FORCED + 1]] {
    static TABLE: [[f64; MAX_FORCED + 1]; 201] = {
        let mut t = [[0.0; MAX_FORCED + 1]; 201];
        let mut n = 0;
        while n <= 200 {
            let mut k = 0;
            while k <= MAX_FORCED {
                let b = BINOMIALS[n][k];
                t[n][k] = if b > 0.0 { 1.0 / b } else { 0.0 };
                k += 1;
            }
            n += 1;
        }
        t
    };
    &TABLE
}

/// Memos of other searches that a search draws on, each used only when
/// its root is the search's (see [`decide`](super::decide)).
#[derive(Clone, Copy, Default)]
pub(super) struct Aids<'m> {
    /// For a player alone in the round: a memo of the world without
    /// Freezes and Flip Threes (exact or upper values). The decision parts
    /// where it stays are not expanded; an upper bounding search also caps
    /// its bounds by it where it stops.
    pub(super) free: Option<&'m Memo>,
    /// A memo whose exact blocks (no bounding search stopped below them)
    /// are taken instead of computed.
    pub(super) exact: Option<&'m Memo>,
    /// A memo of an upper bounding search: the decision parts where it
    /// stays are not expanded.
    pub(super) upper: Option<&'m Memo>,
}

/// The search over one root.
pub(super) struct Search<'m> {
    pub(super) memo: &'m mut Memo,
    pub(super) aids: Aids<'m>,
    pub(super) rule: Rule,
    pub(super) cut: Cut,
    /// The [`threshold`](super::cuts::threshold) of a bounding search's
    /// cut (0 for the exact search), worked out once.
    pub(super) threshold: f64,
}

impl<'m> Search<'m> {
    /// The search over the root of `memo` by `rule`, stopping where `cut`
    /// says, drawing on `aids`.
    pub(super) fn new(memo: &'m mut Memo, aids: Aids<'m>, rule: Rule, cut: Cut) -> Search<'m> {
        let threshold = match cut {
            Cut::Exact => 0.0,
            Cut::Lower(g) | Cut::Upper(g) => super::cuts::threshold(g),
        };
        Search { memo, aids, rule, cut, threshold }
    }
}

/// Whether this processor runs [`Search::ensure`] compiled for AVX2 and
/// the bit instructions of x86-64-v3 (see [`Search::ensure`]).
#[inline]
pub(super) fn wide() -> bool {
    #[cfg(test)]
    if PLAIN.get() {
        return false;
    }
    // The features of `Search::ensure_wide`'s attribute.
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

#[cfg(test)]
thread_local! {
    /// Tests set it to run the search compiled for any x86-64.
    pub(super) static PLAIN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
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
    #[inline(always)]
    fn moves(&self, p: &Part) -> Moves {
        let mut mv = Moves::empty();
        self.moves_into(p, &mut mv);
        mv
    }

    /// [`Search::moves`] written into `mv` (which must be empty), where the
    /// search keeps it: returned by value, the list was built on the
    /// stack and then copied by a call of `memcpy`.
    #[inline(always)]
    fn moves_into(&self, p: &Part, mv: &mut Moves) {
        let b = &self.memo.base;
        let mut c0 = *p;
        c0.forced = p.forced.saturating_sub(1);
        // A held number: the Second Chance cancels it (or the player busts).
        if p.busts > 0 && p.sc {
            let mut c = c0;
            c.sc = false;
            c.busts -= 1;
            c.dups += 1;
            mv.push(p.busts, Self::settle(c));
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
            mv.push(u16::from(copies), t);
        }
        // Second Chance: kept, or a spare one passed on.
        let sc_left = b.sc - p.sc_drawn;
        if sc_left > 0 {
            let mut c = c0;
            c.sc = true;
            c.sc_drawn += 1;
            mv.push(u16::from(sc_left), Self::settle(c));
        }
        // Freeze and Flip Three (in the pile only when they hit the player;
        // once a Freeze waits they are blanks, taken out of the effective
        // draws).
        if !p.frozen {
            let ft_left = b.flip_three - p.ft_drawn;
            if b.freeze > 0 {
                if p.forced == 0 {
                    mv.push(u16::from(b.freeze), Target::Bank(p.sum));
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
                mv.push(u16::from(ft_left), Target::Part(c));
            }
        }
        mv.modifier = if p.forced == 0 {
            Target::Same
        } else {
            Self::settle(c0)
        };
    }

    /// Every hand part reachable from `root` (for tests).
    #[cfg(test)]
    pub(super) fn parts(&self, root: &Part) -> Vec<Part> {
        let mut seen = std::collections::HashSet::new();
        let (mut stack, mut out) = (vec![*root], Vec::new());
        while let Some(p) = stack.pop() {
            if !seen.insert(p.key()) {
                continue;
            }
            out.push(p);
            let mv = self.moves(&p);
            for (_, t) in mv.list().iter().chain([&(0, mv.modifier)]) {
                if let Target::Part(c) = t {
                    stack.push(*c);
                }
            }
            if let Some((_, w, _)) = mv.freeze {
                stack.extend((1..=w.forced).map(|k| Part { forced: k, ..w }));
            }
        }
        out
    }

    /// Whether every combination of modifiers of decision part `p` stays,
    /// by the rule or by the upper bound; `pr` keeps the prophet bound of
    /// `p` if it was computed.
    #[inline(always)]
    pub(super) fn all_stay(&self, p: &Part, pr: &mut Option<Prophet>) -> bool {
        let b = &self.memo.base;
        let others = b.others_left(p);
        let bust = if p.sc { 0 } else { p.busts };
        let best = b.best(p);
        // (The first test worked out once per count of modifiers left,
        // before the loop: 1.7% more instructions on 500 four-player
        // games, seeds 1 to 10, as most calls end at the first
        // combination.)
        // A plain loop: an iterator adapter here was compiled out of line,
        // so only for any x86-64 (see `Search::ensure`).
        for m in 0..b.size {
            let banked = b.banked(p.sum, m);
            let total = others + b.mods_left[m];
            if total == 0 {
                continue;
            }
            let stays = match self.rule {
                Rule::StayAt(t) => banked >= f64::from(t),
                Rule::Optimal => {
                    best * f64::from(total - bust) / f64::from(total) <= banked + TIE || {
                        // Hitting: the prophet's value less what it keeps
                        // when the next card busts.
                        let value = self.prophet_of(p, pr).value_at(p.sum, b, m);
                        value - banked * f64::from(bust) / f64::from(total) <= banked + TIE
                    }
                }
            };
            if !stays {
                return false;
            }
        }
        true
    }

    /// Whether upper bounds `upper` of the values of decision part `p`
    /// stay for every combination of modifiers: then so does this search,
    /// whose values are no higher. The bounds are those of the world
    /// without Freezes and Flip Threes (see [`free_block`]), or of the last
    /// upper bounding search.
    #[inline(always)]
    fn stays_by(&self, p: &Part, upper: Option<&[f64]>) -> bool {
        let b = &self.memo.base;
        let Some(upper) = upper else { return false };
        for (m, &v) in upper.iter().enumerate() {
            if v > b.banked(p.sum, m) + TIE {
                return false;
            }
        }
        true
    }

    /// Whether the upper bounding search of `self.aids` stays at decision
    /// part `p` for every combination of modifiers: then so does this
    /// one (its values are no higher).
    /// `key`: the key of `p`.
    #[inline(always)]
    fn upper_stays(&self, p: &Part, key: u64) -> bool {
        let upper = self.aids.upper.and_then(|upper| upper.get(key).map(|id| upper.block(id)));
        self.stays_by(p, upper)
    }

    /// Resolves `t` to a computed block when it is a hand part.
    #[inline(always)]
    fn resolve<const WIDE: bool>(&mut self, t: &mut Target) {
        if let Target::Part(c) = *t {
            *t = Target::Block(self.ensure_as::<WIDE>(&c));
        }
    }

    /// The blocks of `w` (a hand in effective-draw mode) with 1..=`flips`
    /// effective draws left: `ids[k - 1]`.
    #[inline(always)]
    fn effective_blocks<const WIDE: bool>(&mut self, w: &Part, flips: u8) -> [u32; MAX_FORCED] {
        let mut ids = [0; MAX_FORCED];
        for k in 1..=flips {
            let mut c = *w;
            c.forced = k;
            ids[usize::from(k) - 1] = self.ensure_as::<WIDE>(&c);
        }
        ids
    }

    /// The block of `p`, computed (with its successors) if needed.
    ///
    /// The search is compiled twice: for any x86-64 processor, and for
    /// those with AVX2 and the bit instructions of x86-64-v3 (wider vectors
    /// over the combinations of modifiers, one instruction to count bits),
    /// taken when the processor has them ([`wide`]). Both do the same
    /// operations in the same order, without fused multiply-adds, so they
    /// give the same bits. (200 four-player games, seed 8: 0.795 G
    /// instructions against 0.885 G. Compiling `decide` and the quick
    /// bounds twice as well gave nothing: 0.791 G against 0.792 G. The
    /// second version compiled for AVX-512 as well, on a processor with
    /// it: 0.984 of the time over 40 interleaved pairs of one-thread runs
    /// of 1,000 four-player games, seeds 1 to 10, within the noise, and
    /// callgrind cannot count it.)
    fn ensure(&mut self, p: &Part) -> u32 {
        if wide() { self.ensure_as::<true>(p) } else { self.ensure_as::<false>(p) }
    }

    /// [`Search::ensure`] in the version `WIDE` picks. A block of this
    /// search already (about half of the parts met) is found here, before
    /// any call of the recursive search, and without loading the index
    /// slots of the other memos. (500 four-player games with one
    /// `optimal-round` seat, seeds 1 to 5: 7.64 G instructions against
    /// 7.98 G when `compute` looked it up.)
    #[inline(always)]
    fn ensure_as<const WIDE: bool>(&mut self, p: &Part) -> u32 {
        let key = p.key_as::<WIDE>();
        if let Some(id) = self.memo.get(key) {
            return id;
        }
        #[cfg(target_arch = "x86_64")]
        if WIDE {
            // SAFETY: `WIDE` is true only when `wide()` found the features.
            return unsafe { self.ensure_wide(p, key) };
        }
        self.ensure_plain(p, key)
    }

    fn ensure_plain(&mut self, p: &Part, key: u64) -> u32 {
        self.compute::<false>(p, key)
    }

    /// Its features are those [`wide`] looks for.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    fn ensure_wide(&mut self, p: &Part, key: u64) -> u32 {
        self.compute::<true>(p, key)
    }

    /// The body of [`Search::ensure`], inlined in each version.
    #[inline(always)]
    fn compute<const WIDE: bool>(&mut self, p: &Part, key: u64) -> u32 {
        // The index slots of the part in the memos it may be looked up in
        // below, loaded together rather than one miss after another.
        // (Medians of 21 interleaved one-thread runs, four players: 3% and
        // 6% less time.)
        if let Some(aid) = self.aids.exact {
            aid.touch_key(key);
        }
        if p.forced == 0 {
            if let Some(upper) = self.aids.upper {
                upper.touch_key(key);
            }
            if let Some(free) = self.aids.free {
                free.touch_key(key & FREE_KEY_BITS);
            }
        }
        // The block of the search before: taken if exact; otherwise what
        // that search worked out about the part. (Blocks made exact by any
        // earlier search of the decision, not only the last: on 1,000
        // four-player games with one `optimal-round` seat, seeds 1 and 3,
        // 663 and 911 of 200,000 blocks computed, against 42,465 and
        // 48,898 copied from the last search: not worth a store of them.)
        let mut before = None;
        if let Some(aid) = self.aids.exact
            && let Some(src) = aid.get(key)
        {
            if aid.exact[src as usize] {
                let values = aid.block(src);
                let id = self.alloc(key, true, Known::default());
                let at = id as usize * values.len();
                self.memo.arena[at..at + values.len()].copy_from_slice(values);
                return id;
            }
            before = Some(aid.known[src as usize]);
        }
        let mut pr = before.and_then(|k| k.prophet);
        // At a decision part, the values of the same state in the world
        // without Freezes and Flip Threes, if the search draws on it.
        let free = if p.forced == 0 { free_block(self.aids.free, key) } else { None };
        if p.forced == 0
            && (self.stays_by(p, free) || self.upper_stays(p, key) || (before.is_none() && self.all_stay(p, &mut pr)))
        {
            let id = self.alloc(key, true, Known::default());
            let (b, arena) = (&self.memo.base, &mut self.memo.arena);
            let at = id as usize * b.size;
            for m in 0..b.size {
                arena[at + m] = b.banked(p.sum, m);
            }
            return id;
        }
        let reach = match before {
            Some(k) => k.reach,
            None if self.cut != Cut::Exact => self.memo.base.reach(p),
            None => 0.0,
        };
        if self.cut_here(p, pr.as_ref(), reach) {
            let id = self.alloc(key, false, Known::default());
            self.leaf(p, id, &mut pr);
            self.memo.known[id as usize] = Known { reach, prophet: pr };
            if matches!(self.cut, Cut::Upper(_)) {
                let free = if p.forced == 0 { free } else { free_block(self.aids.free, key) };
                self.cap_by_free(id, free);
            }
            return id;
        }
        let mut mv = Moves::empty();
        self.moves_into(p, &mut mv);
        // Beyond the processor's caches: most successors are already
        // computed, so start loading their index slots, and then their
        // values, together rather than one miss after another.
        let big = self.memo.blocks * self.memo.base.size > TOUCH_ABOVE;
        if big {
            for (_, t) in mv.list().iter().chain(std::iter::once(&(0, mv.modifier))) {
                if let Target::Part(c) = t {
                    self.memo.touch_key(c.key_as::<WIDE>());
                }
            }
        }
        for i in 0..mv.len {
            self.resolve::<WIDE>(&mut mv.list_mut()[i].1);
        }
        self.resolve::<WIDE>(&mut mv.modifier);
        let freeze = mv
            .freeze
            .map(|(cards, w, blanks)| (cards, w, blanks, self.effective_blocks::<WIDE>(&w, w.forced)));
        if big {
            for (_, t) in mv.list().iter().chain(std::iter::once(&(0, mv.modifier))) {
                if let Target::Block(id) = t {
                    self.memo.touch_block(*id);
                }
            }
        }
        let exact = self.cut == Cut::Exact || {
            let memo = &*self.memo;
            let is_exact = |t: &Target| match *t {
                Target::Block(c) => memo.exact[c as usize],
                _ => true,
            };
            mv.list().iter().all(|(_, t)| is_exact(t))
                && is_exact(&mv.modifier)
                && freeze.is_none_or(|(_, w, _, ids)| ids[..usize::from(w.forced)].iter().all(|&c| memo.exact[c as usize]))
        };
        let id = self.alloc(key, exact, Known { reach, prophet: pr });
        self.fill(p, id, &mv, freeze);
        id
    }

    /// A new block for the part keyed `key`, whether it is `exact` and
    /// what is `known` about the part, written once (but where a bounding
    /// search stops: [`Search::leaf`] may work out the prophet bound after
    /// the block is made, and `known` is written again). (Written first as
    /// defaults and then again: 7.55 G instructions against 7.53 G on 500
    /// four-player games with one `optimal-round` seat, seeds 1 to 5.)
    #[inline(always)]
    fn alloc(&mut self, key: u64, exact: bool, known: Known) -> u32 {
        let id = self.memo.blocks as u32;
        self.memo.insert(key, id);
        self.memo.blocks += 1;
        self.memo.exact.push(exact);
        self.memo.known.push(known);
        // The arena keeps its length from one search to the next: only
        // growing it writes anything before the block is filled. (Huge
        // pages asked of the kernel by `madvise` over the 2 MB-aligned part
        // of the arena and the index: it gave some, but 1,000 four-player
        // games, seed 10, took more page faults, 25,000 against 18,500, and
        // more system time. Huge pages for every large allocation, by
        // glibc's `glibc.malloc.hugetlb=1`: 1.000 of the time over 80
        // interleaved pairs of one-thread runs of 1,000 four-player games.)
        let end = (id as usize + 1) * self.memo.base.size;
        if self.memo.arena.len() < end {
            self.memo.arena.resize(end, 0.0);
        }
        id
    }

    /// Computes the block `id` of `p` from its successors.
    #[inline(always)]
    fn fill(&mut self, p: &Part, id: u32, mv: &Moves, freeze: Option<(u16, Part, u8, [u32; MAX_FORCED])>) {
        let memo = &mut *self.memo;
        memo.expanded += memo.base.size as u64;
        let b = &memo.base;
        let size = b.size;
        let mut acc = std::mem::take(&mut memo.acc);
        // The round ends (banking, Flip 7): one pass for all such cards, in
        // exact integer arithmetic.
        let (mut cards_sum, mut cards, mut bonus) = (0.0, 0.0, 0.0);
        for &(c, t) in mv.list() {
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
        // (Four combinations at a time over every successor, in the same
        // order, so the same bits, with the sums held in registers rather
        // than in `acc`: 8.52 G instructions against 7.98 G on 500
        // four-player games with one `optimal-round` seat, seeds 1 to 5.)
        for &(c, t) in mv.list() {
            if let Target::Block(child) = t {
                let w = f64::from(c);
                for (a, v) in acc.iter_mut().zip(memo.block(child)) {
                    *a += w * v;
                }
            }
        }
        // A Freeze during forced flips: it waits, and the flips left are
        // effective draws or blanks (hypergeometric), then the player banks.
        // (The chances worked out once per count of modifiers left, before
        // the loop: 4.5% more instructions on 500 four-player games, seeds
        // 1 to 10.)
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
        // With one card of each kind, the weights are 1 where the kind is
        // not drawn yet and 0 where it is: adding only the former changes
        // no bit (`1 * v == v`, `a + 0 == a` for the non-negative sums).
        match mv.modifier {
            Target::Block(child) if b.single => {
                // The combinations without kind `k` come in runs of `bit`,
                // each followed by the run with it: added run by run.
                let src = memo.block(child);
                for k in 0..b.kinds {
                    let bit = 1 << k;
                    for (a, s) in acc[..size].chunks_exact_mut(2 * bit).zip(src.chunks_exact(2 * bit)) {
                        for (a, s) in a[..bit].iter_mut().zip(&s[bit..]) {
                            *a += s;
                        }
                    }
                }
            }
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
        let (acc_m, mult, plus_f, mods_left) = (&acc[..size], &b.mult[..size], &b.plus_f[..size], &b.mods_left_f[..size]);
        if p.forced > 0 {
            let per_m = acc_m.iter().zip(mult).zip(plus_f.iter().zip(mods_left));
            for (o, ((&a, &mult), (&plus, &left))) in out.iter_mut().zip(per_m) {
                let total = others + left;
                *o = if total == 0.0 { sum * mult + plus } else { a / total };
            }
        } else {
            // From the most modifiers drawn down: a modifier drawn in a
            // decision state leads to a later combination of the same block.
            // (Settling by count of kinds drawn, so that no combination
            // waits on the one before, or with no division where staying
            // is clearly better: 4.949 G and 4.937 G instructions against
            // 4.906 G on 200 games at two and four players, seeds 7 and 8,
            // and no clear change in time. Multiplying by one over the
            // cards left, looked up by the count of modifiers left, instead
            // of dividing: 8% more instructions on 500 four-player games,
            // seed 5, and 10% more time.)
            debug_assert!(matches!(mv.modifier, Target::Same));
            let stay_at = match self.rule {
                Rule::Optimal => None,
                Rule::StayAt(t) => Some(f64::from(t)),
            };
            // The better of staying and hitting, worth `a` over the cards left.
            let settle = |m: usize, a: f64| {
                let total = others + mods_left[m];
                let banked = sum * mult[m] + plus_f[m];
                if total == 0.0 {
                    banked
                } else {
                    let hit = a / total;
                    let stays = match stay_at {
                        None => hit <= banked + TIE,
                        Some(t) => banked >= t,
                    };
                    if stays { banked } else { hit }
                }
            };
            if b.single {
                for m in (0..size).rev() {
                    let mut a = acc_m[m];
                    let mut left = !m & (size - 1);
                    while left != 0 {
                        let i = m | (left & left.wrapping_neg());
                        debug_assert!(i < out.len());
                        // SAFETY: `i` has only bits of `size - 1` (a power
                        // of two with one card of each kind), and `out`
                        // holds `size` values. (Unchecked: 16.32 G
                        // instructions against 16.43 G on 500 four-player
                        // games, seeds 1 to 10.)
                        a += unsafe { *out.get_unchecked(i) };
                        left &= left - 1;
                    }
                    out[m] = settle(m, a);
                }
            } else {
                for m in (0..size).rev() {
                    let mut a = acc_m[m];
                    for k in 0..b.kinds {
                        a += b.mod_weight[k][m] * out[b.mod_next[k][m] as usize];
                    }
                    out[m] = settle(m, a);
                }
            }
        }
        memo.acc = acc;
    }

    /// The value of hitting at decision part `p` with combination `m`.
    pub(super) fn hit_value(&mut self, p: &Part, m: usize) -> f64 {
        let others = self.memo.base.others_left(p);
        let total = others + self.memo.base.mods_left[m];
        if total == 0 {
            return self.memo.base.banked(p.sum, m);
        }
        let mut mv = self.moves(p);
        for (_, t) in mv.list_mut() {
            if let Target::Part(c) = *t {
                *t = Target::Block(self.ensure(&c));
            }
        }
        let own = self.ensure(p);
        let memo = &*self.memo;
        let b = &memo.base;
        let mut a = 0.0;
        for &(cards, t) in mv.list() {
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
