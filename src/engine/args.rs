//! Parsers for command-line values shared by every game.

use std::fmt::Display;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// The most games (or deals) one run may ask for: 10^14, written
/// `100000B`. Two limits meet there. Time: at about a million games a
/// second per core, 10^14 games are three years of one core, or a week of
/// a 500-core cluster cut into shards, the largest run anyone can finish
/// (the largest a u64 holds, 1.8 x 10^19, would take hundreds of thousands
/// of years). Counting: a run keeps its totals (points, rounds, cards,
/// turns) in u64 integers, so with 10^14 games each game may add up to
/// 180,000 to a total before it overflows, far more than any game adds (a
/// Flip 7 game's final score is about 175 points a seat).
pub const MAX_GAMES: u64 = 100_000_000_000_000;

/// Parses a positive game count: `1000`, `1_000_000`, `250K`, `10M`, `2B`
/// (K = thousand, M = million, B = billion; case-insensitive), at most
/// [`MAX_GAMES`].
pub fn parse_count(text: &str) -> Result<u64, String> {
    const ACCEPTED: &str = "expected a whole number of at least 1, optionally with _ \
                            separators and a K, M or B suffix (thousand, million, \
                            billion), e.g. 5000, 250K, 10M, 1_000_000";
    let t = text.trim();
    let (digits, mult) = match t.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&t[..t.len() - 1], 1_000u64),
        Some('M') => (&t[..t.len() - 1], 1_000_000),
        Some('B') => (&t[..t.len() - 1], 1_000_000_000),
        _ => (t, 1),
    };
    let digits = digits.replace('_', "");
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ACCEPTED.to_string());
    }
    let n: u128 = digits.parse().map_err(|_| too_many())?;
    let n = n
        .checked_mul(u128::from(mult))
        .and_then(|n| u64::try_from(n).ok())
        .ok_or_else(too_many)?;
    if n == 0 {
        return Err(format!("must be at least 1; {ACCEPTED}"));
    }
    if n > MAX_GAMES {
        return Err(too_many());
    }
    Ok(n)
}

/// The refusal of a count above [`MAX_GAMES`] (of `--games`, or of the
/// games another count of a command makes).
pub fn too_many() -> String {
    format!(
        "more than a run can play or count: at most {} (10^14 games); e.g. 5000, 250K, 10M",
        format_count(MAX_GAMES)
    )
}

/// Parses a seed: a whole number from 0 to 2^64 - 1.
pub fn parse_seed(text: &str) -> Result<u64, String> {
    text.trim()
        .replace('_', "")
        .parse::<u64>()
        .map_err(|_| format!("expected a whole number from 0 to {} (e.g. 1 or 2025)", u64::MAX))
}

/// The parser of a whole number in `range`, for a numeric option: every
/// value it refuses (too large for its type, negative, a fraction, empty,
/// out of range) gets the same answer, the range: `expected a whole number
/// from 1 to 36`. Written `value_parser = whole_in::<u16>(1..=36)`, the
/// type that of the option's field.
pub fn whole_in<T>(
    range: RangeInclusive<T>,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: FromStr + PartialOrd + Display + Clone + Send + Sync + 'static,
{
    move |text: &str| {
        text.parse::<T>()
            .ok()
            .filter(|n| range.contains(n))
            .ok_or_else(|| {
                format!(
                    "expected a whole number from {} to {}",
                    range.start(),
                    range.end()
                )
            })
    }
}

/// Formats a count the way [`parse_count`] reads it, shortest exact form:
/// `10M`, `250K`, `1500`.
pub fn format_count(n: u64) -> String {
    for (mult, suffix) in [(1_000_000_000, "B"), (1_000_000, "M"), (1_000, "K")] {
        if n >= mult && n.is_multiple_of(mult) {
            return format!("{}{suffix}", n / mult);
        }
    }
    n.to_string()
}

/// Formats a count for people: `2.4M`, `18K`, `1.25B` when the count is
/// that number exactly (at most two decimals), else every digit, grouped
/// by thousands from 10,000 on (`12,345`, `2401`).
pub fn human_count(n: u64) -> String {
    for (mult, suffix) in [(1_000_000_000u64, "B"), (1_000_000, "M"), (1_000, "K")] {
        // Exact with at most two decimals: a whole number of hundredths.
        if n >= mult && n.is_multiple_of(mult / 100) {
            let whole = n / mult;
            let hundredths = (n % mult) / (mult / 100);
            let decimals = format!("{hundredths:02}");
            let decimals = decimals.trim_end_matches('0');
            return if decimals.is_empty() {
                format!("{whole}{suffix}")
            } else {
                format!("{whole}.{decimals}{suffix}")
            };
        }
        if n >= mult {
            break;
        }
    }
    if n < 10_000 {
        return n.to_string();
    }
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_with_suffixes_and_separators() {
        assert_eq!(parse_count("10M"), Ok(10_000_000));
        assert_eq!(parse_count("250k"), Ok(250_000));
        assert_eq!(parse_count("2B"), Ok(2_000_000_000));
        assert_eq!(parse_count("1_000_000"), Ok(1_000_000));
        assert_eq!(parse_count("7"), Ok(7));
    }

    #[test]
    fn bad_counts_are_refused() {
        for bad in ["0", "0M", "10X", "", "M", "-5", "1.5M"] {
            let err = parse_count(bad).unwrap_err();
            assert!(err.contains("e.g. 5000, 250K, 10M"), "{bad}: {err}");
        }
        assert!(parse_count("0").unwrap_err().starts_with("must be at least 1"));
    }

    #[test]
    fn counts_beyond_what_a_run_can_play_are_refused_naming_the_largest() {
        assert_eq!(parse_count("100000B"), Ok(MAX_GAMES));
        assert_eq!(parse_count("100_000_000_000_000"), Ok(MAX_GAMES));
        for bad in [
            "100000000000001",
            "18446744073709551615",
            "99999999999999999999",
            "99999999999999999999999999999999999999999",
            "20000000000B",
        ] {
            let err = parse_count(bad).unwrap_err();
            assert!(err.contains("at most 100000B"), "{bad}: {err}");
            assert!(err.contains("e.g. 5000, 250K, 10M"), "{bad}: {err}");
        }
    }

    #[test]
    fn seeds_are_whole_numbers_in_range() {
        assert_eq!(parse_seed("0"), Ok(0));
        assert_eq!(parse_seed("18446744073709551615"), Ok(u64::MAX));
        for bad in ["-1", "abc", "18446744073709551616", "1.5", ""] {
            assert!(
                parse_seed(bad).unwrap_err().contains("0 to 18446744073709551615"),
                "{bad}"
            );
        }
    }

    #[test]
    fn whole_numbers_out_of_their_range_or_type_are_refused_with_the_range() {
        let players = whole_in::<u16>(1..=36);
        assert_eq!(players("36"), Ok(36));
        assert_eq!(players("1"), Ok(1));
        for bad in ["0", "37", "-1", "1.5", "", "abc", "65536", "99999999999999999999"] {
            assert_eq!(
                players(bad),
                Err("expected a whole number from 1 to 36".into()),
                "{bad}"
            );
        }
    }

    #[test]
    fn counts_format_back() {
        for n in [1, 999, 1000, 1500, 250_000, 10_000_000, 2_000_000_000] {
            assert_eq!(parse_count(&format_count(n)), Ok(n));
        }
        assert_eq!(format_count(10_000_000), "10M");
    }

    #[test]
    fn counts_for_people_are_short_and_exact() {
        for (n, shown) in [
            (1, "1"),
            (999, "999"),
            (1000, "1K"),
            (2400, "2.4K"),
            (2401, "2401"),
            (2410, "2.41K"),
            (18_000, "18K"),
            (12_345, "12,345"),
            (2_400_000, "2.4M"),
            (1_250_000, "1.25M"),
            (1_234_567, "1,234,567"),
            (1_234_000, "1,234,000"),
            (3_000_000_000, "3B"),
            (1_500_000_000, "1.5B"),
        ] {
            assert_eq!(human_count(n), shown, "{n}");
        }
    }
}
