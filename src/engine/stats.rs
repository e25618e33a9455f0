//! Interval estimates computed from integer accumulators.

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// 95% Wilson score interval for `k` successes in `n` trials.
/// Returns `(0, 0)` when `n == 0`.
pub fn wilson95(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    wilson95_f(k as f64 / n as f64, n as f64)
}

/// 95% Wilson score interval of a share `p` observed over `n` trials (`n`
/// need not be whole: it is the number of independent units).
pub fn wilson95_f(p: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 0.0);
    }
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Mean and standard error of the mean from a count, a sum and a sum of
/// squares (all exact integers). Uses the sample variance (n - 1).
pub fn mean_stderr(n: u64, sum: u128, sum_sq: u128) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let nf = n as f64;
    let mean = sum as f64 / nf;
    if n < 2 {
        return (mean, 0.0);
    }
    // n*sum_sq - sum^2 is exact in integers while it fits; fall back to floats.
    let var = match (sum_sq.checked_mul(u128::from(n)), sum.checked_mul(sum)) {
        (Some(a), Some(b)) if a >= b => (a - b) as f64 / (nf * (nf - 1.0)),
        _ => ((sum_sq as f64) - (sum as f64) * mean) / (nf - 1.0),
    };
    (mean, (var.max(0.0) / nf).sqrt())
}

/// `num / den`, or 0 when `den == 0`.
pub fn ratio(num: u64, den: u64) -> f64 {
    if den == 0 { 0.0 } else { num as f64 / den as f64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_known_values() {
        // 5 of 10: Wilson 95% interval is [0.2366, 0.7634].
        let (lo, hi) = wilson95(5, 10);
        assert!((lo - 0.236_593).abs() < 1e-5, "{lo}");
        assert!((hi - 0.763_407).abs() < 1e-5, "{hi}");
        // 0 of 20: [0, 0.1611].
        let (lo, hi) = wilson95(0, 20);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.161_125).abs() < 1e-5, "{hi}");
    }

    #[test]
    fn mean_stderr_of_small_sample() {
        // 1, 2, 3, 4: mean 2.5, sample sd 1.2910, se 0.6455
        let (m, se) = mean_stderr(4, 10, 30);
        assert_eq!(m, 2.5);
        assert!((se - 0.645_497).abs() < 1e-6, "{se}");
    }
}
