//! Random streams: one generator per batch, derived from `(seed, batch)`.
//!
//! Every batch of games owns its own generator, so the games a batch plays
//! depend only on the seed and the batch index, never on which thread ran it.

use rand::{Rng, SeedableRng, TryRng};

/// The generator used by every simulation: xoshiro256++ (Blackman and
/// Vigna), 256 bits of state, the same numbers as the `rand_xoshiro` crate's
/// `Xoshiro256PlusPlus` from the same seed (a test compares them). Its own
/// type so that a game's generator is made straight from its four words
/// ([`seeded_game_rng`]), without the crate's round trip through seed
/// bytes and its check for an all-zero seed: a sixth of a solo round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimRng {
    s: [u64; 4],
}

impl SimRng {
    /// The generator whose state is `s`, which must not be all zero (the
    /// one state xoshiro never leaves).
    #[inline(always)]
    fn from_words(s: [u64; 4]) -> SimRng {
        debug_assert!(s != [0; 4]);
        SimRng { s }
    }
}

impl TryRng for SimRng {
    type Error = std::convert::Infallible;

    /// The upper half of the next 64 bits (the lowest bits of xoshiro's
    /// words are the weakest).
    #[inline(always)]
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok((self.next_u64() >> 32) as u32)
    }

    #[inline(always)]
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let s = &mut self.s;
        let out = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        Ok(out)
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), Self::Error> {
        rand::rand_core::utils::fill_bytes_via_next_word(dest, || self.try_next_u64())
    }
}

impl SeedableRng for SimRng {
    type Seed = [u8; 32];

    /// The state read from `seed` as four little-endian words; an all-zero
    /// seed becomes `seed_from_u64(0)`'s state.
    fn from_seed(seed: [u8; 32]) -> SimRng {
        if seed == [0; 32] {
            return SimRng::seed_from_u64(0);
        }
        SimRng::from_words(std::array::from_fn(|k| {
            u64::from_le_bytes(seed[8 * k..8 * k + 8].try_into().expect("8 bytes"))
        }))
    }

    /// The state made of SplitMix64's first four outputs from `seed`.
    #[inline]
    fn seed_from_u64(seed: u64) -> SimRng {
        seeded_game_rng(seed)
    }
}

/// One step of SplitMix64: a strong 64-bit mixing function.
#[inline]
pub fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The generator of batch `batch` of a run seeded with `seed`.
pub fn batch_rng(seed: u64, batch: u64) -> SimRng {
    SimRng::seed_from_u64(splitmix64(seed ^ splitmix64(batch)))
}

/// The generator of the next game of a batch: seeded from the batch's
/// generator, so that a game's deal depends only on the seed, the batch and
/// its place in the batch, never on how earlier games were played. That is
/// what lets a tournament replay the same deals under other seatings
/// (common random numbers).
#[inline]
pub fn game_rng(batch: &mut SimRng) -> SimRng {
    seeded_game_rng(next_game_seed(batch))
}

/// The seed of the next game of a batch, drawn from the batch's generator:
/// [`game_rng`] is [`seeded_game_rng`] of it. A traced game shows its seed,
/// so that it can be played again alone.
#[inline]
pub fn next_game_seed(batch: &mut SimRng) -> u64 {
    batch.next_u64()
}

/// The generator of the game whose seed is `seed` ([`next_game_seed`]):
/// its four words are SplitMix64's first four outputs from `seed`
/// (`SimRng::seed_from_u64(seed)`). SplitMix64 is one-to-one, so at most one
/// of the four is zero and the state is never all zero.
#[inline]
pub fn seeded_game_rng(seed: u64) -> SimRng {
    SimRng::from_words(std::array::from_fn(|k| seed_word(seed, k as u64)))
}

/// Word `k` of the state of [`seeded_game_rng`]`(seed)`.
#[inline(always)]
fn seed_word(seed: u64, k: u64) -> u64 {
    splitmix64(seed.wrapping_add(k.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
}

/// A source of uniform indices: how a game picks the next card from a pile.
///
/// The simulator uses [`SimRng`]; tests use [`Stacked`] to play a deck in a
/// known order through exactly the same game code.
pub trait Draw {
    /// Whether a pile shuffled card by card should make each step
    /// ([`Draw::shuffle_step`]) inline, where it draws: for loops that draw
    /// a few cards a game and do little else ([`InlineSteps`]). Out of line
    /// otherwise, so that loops which rarely shuffle that way stay short.
    const INLINE_STEPS: bool = false;

    /// A uniform whole number in `0..n` (`n > 0`).
    fn below(&mut self, n: u32) -> u32;

    /// Shuffles `cards` uniformly (Fisher-Yates from the end: position `i`
    /// receives a uniform pick among positions `0..=i`).
    fn shuffle(&mut self, cards: &mut [u8]) {
        for i in (1..cards.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            cards.swap(i, j);
        }
    }

    /// Shuffles the first `len` cards of a pile array, as [`Draw::shuffle`].
    /// The fixed array size lets every index be masked instead of checked.
    fn shuffle_pile(&mut self, pile: &mut Pile, len: usize) {
        self.shuffle(&mut pile[..len]);
    }

    /// One step of [`Draw::shuffle_pile`], made when a card is about to be
    /// drawn from a pile whose first `i` cards (`i >= 2`) are not yet
    /// shuffled: position `i - 1` (the top) receives its uniform pick among
    /// `0..i`. Steps from `len` down to 2 draw exactly the numbers
    /// `shuffle_pile(pile, len)` draws, in the same order, so a pile shuffled
    /// one card at a time (a card only when it is drawn) comes out in the
    /// same order as one shuffled whole; `lazy` carries what a step leaves
    /// for the next (a fresh [`LazyShuffle`] at the pile's first step).
    #[inline(always)]
    fn shuffle_step(&mut self, pile: &mut Pile, i: usize, lazy: &mut LazyShuffle) {
        let j = self.step_pick(i, lazy);
        pile.swap((i - 1) & 255, j & 255);
    }

    /// The pick of [`Draw::shuffle_step`] at `i`: the position among `0..i`
    /// whose card goes to the top. For a pile that is not read above its
    /// top, drawing `pile[j]` and moving the top card into its place is
    /// the step and the draw at once.
    #[inline(always)]
    fn step_pick(&mut self, i: usize, lazy: &mut LazyShuffle) -> usize {
        let _ = lazy;
        self.below(i as u32) as usize
    }
}

/// A game's generator ([`seeded_game_rng`] of its seed) made only as far
/// as the game uses it: its first 64-bit number depends on two of the four
/// seed words, so a game that draws one number (most solo rounds of a
/// lazily shuffled deck) never makes the other two, nor steps the state.
/// The same numbers, in the same order, as the generator made whole.
#[derive(Clone, Debug)]
pub struct LazyGameRng {
    seed: u64,
    /// The first number is still to be drawn (and `rest` not made).
    first: bool,
    /// The generator as it stands, once a number past the first is drawn.
    rest: Option<SimRng>,
}

impl LazyGameRng {
    /// The generator of the game whose seed is `seed` ([`next_game_seed`]).
    #[inline(always)]
    pub fn new(seed: u64) -> LazyGameRng {
        LazyGameRng {
            seed,
            first: true,
            rest: None,
        }
    }

    /// The next 64-bit number.
    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        if self.first {
            self.first = false;
            return first_number(self.seed);
        }
        self.made().next_u64()
    }

    /// The upper half of the next 64-bit number (as [`SimRng`]'s).
    #[inline(always)]
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// The whole generator, where the numbers drawn so far leave it.
    #[cold]
    #[inline(never)]
    fn made(&mut self) -> &mut SimRng {
        let (seed, first) = (self.seed, self.first);
        self.first = false;
        self.rest.get_or_insert_with(|| {
            if first {
                seeded_game_rng(seed)
            } else {
                after_first_number(seed)
            }
        })
    }
}

/// The first number of [`seeded_game_rng`]`(seed)`: xoshiro256++'s first
/// output from the state `[s0, _, _, s3]`.
#[inline(always)]
fn first_number(seed: u64) -> u64 {
    let (s0, s3) = (seed_word(seed, 0), seed_word(seed, 3));
    s0.wrapping_add(s3).rotate_left(23).wrapping_add(s0)
}

/// [`seeded_game_rng`]`(seed)` after its first number.
fn after_first_number(seed: u64) -> SimRng {
    let mut g = seeded_game_rng(seed);
    g.next_u64();
    g
}

/// A game's generator whose piles make their card-by-card shuffle steps
/// inline ([`Draw::INLINE_STEPS`]), made only as far as the game uses it
/// ([`LazyGameRng`]): the same numbers, in the same order, as the
/// [`SimRng`] of [`seeded_game_rng`].
pub struct InlineSteps(pub LazyGameRng);

impl Draw for InlineSteps {
    const INLINE_STEPS: bool = true;

    #[inline(always)]
    fn below(&mut self, n: u32) -> u32 {
        let x = self.0.next_u32();
        lemire_by(x, n, || self.0.next_u32())
    }

    fn shuffle(&mut self, cards: &mut [u8]) {
        self.0.made().shuffle(cards);
    }

    fn shuffle_pile(&mut self, pile: &mut Pile, len: usize) {
        self.0.made().shuffle_pile(pile, len);
    }

    #[inline(always)]
    fn step_pick(&mut self, i: usize, lazy: &mut LazyShuffle) -> usize {
        step_pick_by(i, lazy, || self.0.next_u64())
    }
}

/// What one step of a pile shuffled card by card ([`Draw::shuffle_step`])
/// leaves for the next: the 64 random bits [`SimRng`] splits into four
/// 16-bit picks, and how many of them are still to use.
#[derive(Clone, Copy, Debug, Default)]
pub struct LazyShuffle {
    bits: u64,
    left: u32,
}

/// A pile of at most 256 one-byte cards, stored in a fixed array.
pub type Pile = [u8; 256];

/// Lemire's multiply-and-reject method on a given 32-bit random `x`:
/// unbiased, and almost never needs a division or a fresh number.
#[inline(always)]
fn lemire(rng: &mut SimRng, x: u32, n: u32) -> u32 {
    lemire_by(x, n, || rng.next_u32())
}

/// [`lemire`] with `more` for a fresh 32-bit random number.
#[inline(always)]
fn lemire_by(x: u32, n: u32, mut more: impl FnMut() -> u32) -> u32 {
    debug_assert!(n > 0);
    let mut m = u64::from(x) * u64::from(n);
    let mut low = m as u32;
    if low < n {
        let threshold = n.wrapping_neg() % n;
        while low < threshold {
            m = u64::from(more()) * u64::from(n);
            low = m as u32;
        }
    }
    (m >> 32) as u32
}

impl Draw for SimRng {
    #[inline]
    fn below(&mut self, n: u32) -> u32 {
        let x = self.next_u32();
        lemire(self, x, n)
    }

    /// The same Fisher-Yates shuffle as [`Draw::shuffle_pile`] (the same
    /// order from the same generator): four positions per call of the
    /// generator, each from 16 random bits.
    fn shuffle(&mut self, cards: &mut [u8]) {
        assert!(cards.len() <= 1 << 16, "at most 65536 cards");
        let mut i = cards.len();
        while i >= 5 {
            let x = self.next_u64();
            for (k, shift) in [48, 32, 16, 0].into_iter().enumerate() {
                let j = lemire16(self, (x >> shift) as u16, (i - k) as u32) as usize;
                cards.swap(i - k - 1, j);
            }
            i -= 4;
        }
        while i >= 2 {
            let j = self.below(i as u32) as usize;
            cards.swap(i - 1, j);
            i -= 1;
        }
    }

    /// Fisher-Yates with four positions per call of the generator: each
    /// pick is Lemire's method on 16 random bits (a pile has at most 256
    /// cards, so a pick needs a fresh number about once in 250 shuffles).
    /// The same steps as `shuffle` with masked instead of checked indices:
    /// delegating to it costs 1.8% more instructions per Flip 7 game; a
    /// test checks the two give the same order.
    fn shuffle_pile(&mut self, pile: &mut Pile, len: usize) {
        assert!(len <= pile.len());
        let mut i = len;
        let cards = pile.as_mut_ptr();
        while i >= 5 {
            let x = self.next_u64();
            for (k, shift) in [48, 32, 16, 0].into_iter().enumerate() {
                let n = (i - k) as u32;
                let j = lemire16(self, (x >> shift) as u16, n) as usize;
                debug_assert!(j < i - k);
                // SAFETY: j < i - k <= len <= 256, the pile's length (the
                // mask a checked index would need is an instruction a step,
                // a tenth of a whole game's shuffle).
                unsafe { std::ptr::swap(cards.add(i - k - 1), cards.add(j)) };
            }
            i -= 4;
        }
        while i >= 2 {
            let j = self.below(i as u32) as usize;
            pile.swap((i - 1) & 255, j & 255);
            i -= 1;
        }
    }

    #[inline(always)]
    fn step_pick(&mut self, i: usize, lazy: &mut LazyShuffle) -> usize {
        step_pick_by(i, lazy, || self.next_u64())
    }
}

/// [`Draw::step_pick`] with `next` for the generator's next 64-bit number
/// (a 32-bit one is its upper half). As [`Draw::shuffle_pile`]: while at
/// least five cards are left, one 64-bit number makes the picks of four
/// steps (its top 16 bits first); the last three steps draw one number
/// each.
#[inline(always)]
fn step_pick_by(i: usize, lazy: &mut LazyShuffle, mut next: impl FnMut() -> u64) -> usize {
    (if lazy.left > 0 {
        lazy.left -= 1;
        lemire16_by((lazy.bits >> (16 * lazy.left)) as u16, i as u32, || {
            (next() >> 32) as u32
        })
    } else if i >= 5 {
        lazy.bits = next();
        lazy.left = 3;
        lemire16_by((lazy.bits >> 48) as u16, i as u32, || (next() >> 32) as u32)
    } else {
        let x = (next() >> 32) as u32;
        lemire_by(x, i as u32, || (next() >> 32) as u32)
    }) as usize
}

/// The picks of a solo round's pile shuffled card by card from its start,
/// from the game's own generator made as far as the round needs it
/// ([`LazyGameRng`]): a round of four picks or fewer, nearly every solo
/// round, draws one number. Pick `k` with `i` cards left is exactly what
/// [`Draw::step_pick`] picks there from a fresh [`LazyShuffle`], for piles
/// that have at least five cards at picks 0 and 4: picks 0 to 3 come from
/// the first number, picks 4 to 7 from the second (a test compares them).
/// For loops that know which pick they make, and so skip the bookkeeping.
pub struct FreshPicks {
    seed: u64,
    bits: u64,
    /// The generator after its first number, once a pick needs more.
    rest: Option<SimRng>,
}

impl FreshPicks {
    /// The picks of the game whose seed is `seed`.
    #[inline(always)]
    pub fn new(seed: u64) -> FreshPicks {
        FreshPicks {
            seed,
            bits: first_number(seed),
            rest: None,
        }
    }

    /// Pick `k` (0-based, below 8) with `i` cards left.
    #[inline(always)]
    pub fn pick(&mut self, k: usize, i: usize) -> usize {
        debug_assert!(k < 8 && (k & 3 != 0 || i >= 5));
        if k == 4 {
            self.bits = self.second_number();
        }
        let n = i as u32;
        let m = u32::from((self.bits >> (48 - 16 * (k & 3))) as u16) * n;
        if m & 0xFFFF < n {
            return self.pick_near_the_edge(m, n);
        }
        (m >> 16) as usize
    }

    /// The generator as it stands after the first number.
    #[inline(always)]
    fn rest(&mut self) -> &mut SimRng {
        let seed = self.seed;
        self.rest.get_or_insert_with(|| after_first_number(seed))
    }

    #[cold]
    #[inline(never)]
    fn second_number(&mut self) -> u64 {
        self.rest().next_u64()
    }

    /// [`lemire16`] from its first product `m`, where it may reject.
    #[cold]
    #[inline(never)]
    fn pick_near_the_edge(&mut self, mut m: u32, n: u32) -> usize {
        let threshold = ((1 << 16) - n) % n;
        while m & 0xFFFF < threshold {
            m = (self.rest().next_u32() >> 16) * n;
        }
        (m >> 16) as usize
    }
}

/// Lemire's method on 16 random bits `x`, for `n <= 2^16`: unbiased.
#[inline(always)]
fn lemire16(rng: &mut SimRng, x: u16, n: u32) -> u32 {
    lemire16_by(x, n, || rng.next_u32())
}

/// [`lemire16`] with `more` for a fresh 32-bit random number.
#[inline(always)]
fn lemire16_by(x: u16, n: u32, mut more: impl FnMut() -> u32) -> u32 {
    debug_assert!(n > 0 && n <= 1 << 16);
    let mut m = u32::from(x) * n;
    let mut low = m & 0xFFFF;
    if low < n {
        let threshold = ((1 << 16) - n) % n;
        while low < threshold {
            m = (more() >> 16) * n;
            low = m & 0xFFFF;
        }
    }
    m >> 16
}

/// Always picks the last index: a pile stored bottom-first is then drawn in
/// order from its top. Used to play stacked decks in tests.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stacked;

impl Draw for Stacked {
    #[inline]
    fn below(&mut self, n: u32) -> u32 {
        n - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_is_the_crates_xoshiro256_plus_plus() {
        use rand_xoshiro::Xoshiro256PlusPlus as Crate;
        let mut next = batch_rng(11, 3);
        let seeds = [
            0,
            1,
            u64::MAX,
            0x9E37_79B9_7F4A_7C15,
            0u64.wrapping_sub(0x9E37_79B9_7F4A_7C15),
        ];
        for seed in seeds.into_iter().chain((0..10_000).map(|_| next.next_u64())) {
            let (mut a, mut b) = (SimRng::seed_from_u64(seed), Crate::seed_from_u64(seed));
            for _ in 0..8 {
                assert_eq!(a.next_u64(), b.next_u64(), "seed {seed}");
                assert_eq!(a.next_u32(), b.next_u32(), "seed {seed}");
            }
            let mut bytes = [0u8; 32];
            a.fill_bytes(&mut bytes);
            let (mut a, mut b) = (SimRng::from_seed(bytes), Crate::from_seed(bytes));
            let (mut x, mut y) = ([0u8; 13], [0u8; 13]);
            a.fill_bytes(&mut x);
            b.fill_bytes(&mut y);
            assert_eq!(x, y, "seed {seed}");
        }
        let (mut a, mut b) = (SimRng::from_seed([0; 32]), Crate::from_seed([0; 32]));
        assert_eq!(a.next_u64(), b.next_u64(), "the all-zero seed");
        // The reference implementation's first outputs from the state 1, 2, 3, 4.
        let mut r = SimRng::from_words([1, 2, 3, 4]);
        let first: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
        assert_eq!(first, [41943041, 58720359, 3588806011781223]);
    }

    #[test]
    fn a_lazily_made_game_generator_draws_the_numbers_of_the_whole_one() {
        let mut seeds = batch_rng(4, 1);
        for _ in 0..1_000 {
            let seed = seeds.next_u64();
            // Made whole before any number, after the first, or never.
            for made_at in 0..3 {
                let (mut whole, mut lazy) = (seeded_game_rng(seed), LazyGameRng::new(seed));
                for k in 0..6 {
                    if k == made_at {
                        assert_eq!(&whole, lazy.made(), "seed {seed} made at {k}");
                    }
                    assert_eq!(whole.next_u64(), lazy.next_u64(), "seed {seed} number {k}");
                }
            }
            let (mut whole, mut lazy) = (seeded_game_rng(seed), InlineSteps(LazyGameRng::new(seed)));
            let (mut a, mut b): ([u8; 94], [u8; 94]) =
                (std::array::from_fn(|i| i as u8), std::array::from_fn(|i| i as u8));
            assert_eq!(whole.below(94), lazy.below(94));
            whole.shuffle(&mut a);
            lazy.shuffle(&mut b);
            assert_eq!(a, b);
        }
    }

    #[test]
    fn fresh_picks_are_the_picks_of_a_shuffle_card_by_card() {
        let mut seeds = batch_rng(2, 9);
        for len in [9usize, 10, 13, 79, 94, 200] {
            for _ in 0..2_000 {
                let seed = seeds.next_u64();
                let mut a = seeded_game_rng(seed);
                let (mut b, mut lazy) = (FreshPicks::new(seed), LazyShuffle::default());
                for k in 0..8 {
                    assert_eq!(a.step_pick(len - k, &mut lazy), b.pick(k, len - k), "{len} {k}");
                }
                assert_eq!(&a, b.rest(), "{len}");
            }
        }
    }

    #[test]
    fn a_game_generator_is_the_crates_seeded_from_the_same_number() {
        let mut next = batch_rng(11, 3);
        for seed in [
            0,
            1,
            u64::MAX,
            0x9E37_79B9_7F4A_7C15,
            0u64.wrapping_sub(0x9E37_79B9_7F4A_7C15),
        ]
        .into_iter()
        .chain((0..10_000).map(|_| next.next_u64()))
        {
            let (mut a, mut b) = (seeded_game_rng(seed), SimRng::seed_from_u64(seed));
            for _ in 0..4 {
                assert_eq!(a.next_u64(), b.next_u64(), "seed {seed}");
            }
        }
    }

    #[test]
    fn below_is_uniform_enough() {
        let mut rng = batch_rng(7, 0);
        let mut counts = [0u32; 6];
        for _ in 0..600_000 {
            counts[rng.below(6) as usize] += 1;
        }
        for c in counts {
            // expected 100_000, sd about 289
            assert!((98_500..101_500).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn shuffle_is_uniform_over_permutations() {
        // All 24 orders of 4 cards, each about 1/24 of the time.
        let mut rng = batch_rng(11, 2);
        let mut counts = std::collections::HashMap::new();
        for _ in 0..240_000 {
            let mut v = [0u8, 1, 2, 3];
            rng.shuffle(&mut v);
            *counts.entry(v).or_insert(0u32) += 1;
        }
        assert_eq!(counts.len(), 24);
        for (perm, c) in counts {
            // expected 10_000, sd about 98
            assert!((9_500..10_500).contains(&c), "{perm:?}: {c}");
        }
        // Odd lengths and tiny slices too.
        for len in 0..8 {
            let mut v: Vec<u8> = (0..len).collect();
            rng.shuffle(&mut v);
            v.sort();
            assert_eq!(v, (0..len).collect::<Vec<u8>>());
        }
    }

    #[test]
    fn shuffles_of_six_cards_are_uniform_over_the_720_orders() {
        // Four picks from one generator output, then the tail of single
        // picks: every order equally likely (chi-square, 719 degrees of
        // freedom: mean 719, sd 38; the bound is 5 sd above).
        for pile in [false, true] {
            let mut rng = batch_rng(12, u64::from(pile));
            let mut counts = std::collections::HashMap::new();
            let n = 216_000;
            for _ in 0..n {
                let mut v: Pile = [0; 256];
                v[..6].copy_from_slice(&[0, 1, 2, 3, 4, 5]);
                if pile {
                    rng.shuffle_pile(&mut v, 6);
                } else {
                    rng.shuffle(&mut v[..6]);
                }
                *counts
                    .entry(<[u8; 6]>::try_from(&v[..6]).unwrap())
                    .or_insert(0u32) += 1;
            }
            assert_eq!(counts.len(), 720);
            let e = n as f64 / 720.0;
            let chi2: f64 = counts.values().map(|&c| (f64::from(c) - e).powi(2) / e).sum();
            assert!(chi2 < 719.0 + 5.0 * 38.0, "pile {pile}: chi-square {chi2}");
        }
    }

    /// Shuffling a pile one step a card gives the order the whole shuffle
    /// gives and leaves the generator where the whole shuffle leaves it.
    #[test]
    fn a_pile_shuffled_card_by_card_comes_out_as_one_shuffled_whole() {
        for len in 0..=200usize {
            let mut whole = batch_rng(len as u64, 3);
            let mut steps = whole.clone();
            let mut a: Pile = std::array::from_fn(|i| i as u8);
            let mut b = a;
            whole.shuffle_pile(&mut a, len);
            let mut lazy = LazyShuffle::default();
            for i in (2..=len).rev() {
                steps.shuffle_step(&mut b, i, &mut lazy);
            }
            assert_eq!(a[..], b[..], "{len} cards");
            assert_eq!(whole.next_u64(), steps.next_u64(), "{len} cards");
            let (mut x, mut y) = (a, a);
            Stacked.shuffle_pile(&mut x, len);
            for i in (2..=len).rev() {
                Stacked.shuffle_step(&mut y, i, &mut lazy);
            }
            assert_eq!(x[..], y[..], "{len} cards, stacked");
        }
    }

    #[test]
    fn lemire16_is_exact_over_all_16_bit_inputs() {
        // Every 16-bit input: each result appears floor or ceil of 2^16 / n
        // times before rejection, and exactly equally often after it.
        for n in [1u32, 3, 7, 94, 188, 256] {
            let threshold = ((1 << 16) - n) % n;
            let mut counts = vec![0u32; n as usize];
            for x in 0..=u16::MAX {
                let m = u32::from(x) * n;
                if m & 0xFFFF >= threshold {
                    counts[(m >> 16) as usize] += 1;
                }
            }
            assert!(counts.iter().all(|&c| c == counts[0]), "n {n}");
        }
    }

    #[test]
    fn pile_shuffle_matches_slice_shuffle() {
        for len in [0, 1, 2, 3, 94, 188, 256] {
            let mut pile: Pile = std::array::from_fn(|i| i as u8);
            let mut v: Vec<u8> = pile[..len].to_vec();
            batch_rng(5, len as u64).shuffle_pile(&mut pile, len);
            batch_rng(5, len as u64).shuffle(&mut v);
            assert_eq!(&pile[..len], &v[..], "len {len}");
        }
    }

    #[test]
    fn stacked_shuffle_keeps_the_order() {
        let mut v = [5u8, 1, 4, 2];
        Stacked.shuffle(&mut v);
        assert_eq!(v, [5, 1, 4, 2]);
    }

    #[test]
    fn batch_streams_differ_and_repeat() {
        let a: Vec<u32> = (0..4).map(|_| batch_rng(1, 0).below(1000)).collect();
        assert!(a.iter().all(|&x| x == a[0]));
        let mut r0 = batch_rng(1, 0);
        let mut r1 = batch_rng(1, 1);
        let x: Vec<u32> = (0..8).map(|_| r0.below(1 << 30)).collect();
        let y: Vec<u32> = (0..8).map(|_| r1.below(1 << 30)).collect();
        assert_ne!(x, y);
    }
}
