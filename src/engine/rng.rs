//! Random streams: one generator per batch, derived from `(seed, batch)`.
//!
//! Every batch of games owns its own generator, so the games a batch plays
//! depend only on the seed and the batch index, never on which thread ran it.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The generator used by every simulation.
pub type SimRng = Xoshiro256PlusPlus;

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

/// A source of uniform indices: how a game picks the next card from a pile.
///
/// The simulator uses [`SimRng`]; tests use [`Stacked`] to play a deck in a
/// known order through exactly the same game code.
pub trait Draw {
    /// A uniform whole number in `0..n` (`n > 0`).
    fn below(&mut self, n: u32) -> u32;
}

impl Draw for SimRng {
    /// Lemire's multiply-and-reject method: unbiased, and almost never
    /// needs a division.
    #[inline]
    fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let mut m = u64::from(self.next_u32()) * u64::from(n);
        let mut low = m as u32;
        if low < n {
            let threshold = n.wrapping_neg() % n;
            while low < threshold {
                m = u64::from(self.next_u32()) * u64::from(n);
                low = m as u32;
            }
        }
        (m >> 32) as u32
    }
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
