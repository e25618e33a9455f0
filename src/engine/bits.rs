//! Bit sets: the set bits of a word, for the card and number masks of every
//! game.

/// The indices of the bits set in `bits`, from the lowest.
#[inline]
pub fn ones(mut bits: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let i = bits.trailing_zeros();
        bits &= bits - 1;
        Some(i)
    })
}

#[cfg(test)]
mod tests {
    use super::ones;

    #[test]
    fn ones_lists_the_set_bits_from_the_lowest() {
        assert_eq!(ones(0).count(), 0);
        assert_eq!(ones(0b1011_0100).collect::<Vec<_>>(), [2, 4, 5, 7]);
        assert_eq!(ones(1 << 63 | 1).collect::<Vec<_>>(), [0, 63]);
    }
}
