//! Standard errors and intervals that respect how the games were played.
//!
//! Games are not always independent of one another: the rounds of one
//! game share its deck and its scores, and a tournament replays every deal
//! under many seatings. The estimates here are ratios `R = sum x / sum g`
//! over *units* that are independent of one another (a game, or a deal
//! with all its seatings), and their variance is the ratio (cluster)
//! estimator
//!
//! ```text
//! Var R = K / (K - 1) * sum_u (x_u - R g_u)^2 / (sum_u g_u)^2
//! ```
//!
//! over the `K` units. [`Ratio`] keeps the five integer sums that formula
//! needs, so units can be added one at a time and totals merged in any
//! order with the same result.
//!
//! Intervals use Student's t with `K - 1` degrees of freedom. With fewer
//! than [`FEW_UNITS`] units, or when every unit gave the same value (a
//! zero spread says nothing about the next units), a share's interval is
//! widened to at least the Wilson interval of `K` trials: the variance of a
//! mean of `K` independent values in `[0, 1]` with mean `p` is at most
//! `p (1 - p) / K`, so that fallback is never narrower than the truth
//! allows.

use super::stats::{Z95, wilson95_f};

/// Below this many independent units a share's interval is at least the
/// conservative Wilson interval of the units.
pub const FEW_UNITS: u64 = 30;

/// The sums of a ratio estimate over independent units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Ratio {
    /// Units added.
    pub units: u64,
    /// Sum of `x`.
    pub sx: i128,
    /// Sum of `g`.
    pub sg: i128,
    /// Sum of `x * x`.
    pub sxx: i128,
    /// Sum of `x * g`.
    pub sxg: i128,
    /// Sum of `g * g`.
    pub sgg: i128,
}

impl Ratio {
    /// Adds one unit with numerator `x` and denominator `g`.
    #[inline]
    pub fn add(&mut self, x: i64, g: i64) {
        let (x, g) = (i128::from(x), i128::from(g));
        self.units += 1;
        self.sx += x;
        self.sg += g;
        self.sxx += x * x;
        self.sxg += x * g;
        self.sgg += g * g;
    }

    /// Adds the units of `o`.
    pub fn merge(&mut self, o: &Ratio) {
        self.units += o.units;
        self.sx += o.sx;
        self.sg += o.sg;
        self.sxx += o.sxx;
        self.sxg += o.sxg;
        self.sgg += o.sgg;
    }

    /// `sum x / sum g` (NaN when `sum g` is 0).
    pub fn estimate(&self) -> f64 {
        if self.sg == 0 {
            f64::NAN
        } else {
            self.sx as f64 / self.sg as f64
        }
    }

    /// `K / (K - 1) * sum (x - R g)^2`, the spread of the units around the
    /// estimate (so that `Var R = spread / (sum g)^2`); `None` with fewer
    /// than two units or no denominator.
    pub fn spread(&self) -> Option<f64> {
        if self.units < 2 || self.sg == 0 {
            return None;
        }
        // sum (x - R g)^2 * (sum g)^2 = sxx sg^2 - 2 sx sxg sg + sx^2 sgg,
        // exact in integers while it fits.
        let k = self.units as f64;
        let exact = (|| {
            let a = self.sxx.checked_mul(self.sg)?.checked_mul(self.sg)?;
            let b = self
                .sx
                .checked_mul(self.sxg)?
                .checked_mul(self.sg)?
                .checked_mul(2)?;
            let c = self.sx.checked_mul(self.sx)?.checked_mul(self.sgg)?;
            a.checked_sub(b)?.checked_add(c)
        })();
        let sg = self.sg as f64;
        let ss = match exact {
            Some(v) => v as f64 / (sg * sg),
            None => {
                let r = self.estimate();
                self.sxx as f64 - 2.0 * r * self.sxg as f64 + r * r * self.sgg as f64
            }
        };
        Some(ss.max(0.0) * k / (k - 1.0))
    }

    /// The variance of [`Ratio::estimate`], when it can be estimated.
    pub fn variance(&self) -> Option<f64> {
        let sg = self.sg as f64;
        self.spread().map(|s| s / (sg * sg))
    }

    /// The standard error of [`Ratio::estimate`], when it can be estimated.
    pub fn stderr(&self) -> Option<f64> {
        self.variance().map(f64::sqrt)
    }

    /// A 95% interval of a mean: `R ± t * se` (`None` with fewer than two
    /// units).
    pub fn mean_interval(&self) -> Option<(f64, f64)> {
        let r = self.estimate();
        let se = self.stderr()?;
        let h = t975(self.units - 1) * se;
        Some((r - h, r + h))
    }

    /// A 95% interval of a share in `[0, 1]` (each unit's `x` is between 0
    /// and its `g`): `R ± t * se`, widened to at least the Wilson interval
    /// of `K` trials when there are few units or no spread (see the module).
    pub fn share_interval(&self) -> (f64, f64) {
        let r = self.estimate();
        if !r.is_finite() {
            return (f64::NAN, f64::NAN);
        }
        let k = self.units;
        let wilson = wilson95_f(r, k as f64);
        let se = match self.stderr() {
            Some(se) => se,
            None => return wilson,
        };
        let h = t975(k - 1) * se;
        let t = ((r - h).max(0.0), (r + h).min(1.0));
        if k < FEW_UNITS || se == 0.0 {
            (t.0.min(wilson.0), t.1.max(wilson.1))
        } else {
            t
        }
    }
}

/// The 97.5% quantile of Student's t with `df` degrees of freedom (the
/// multiplier of a two-sided 95% interval); the normal one for `df == 0`
/// is not defined, so it returns infinity there.
pub fn t975(df: u64) -> f64 {
    // Exact to the digits shown for small df (standard tables); beyond,
    // the Cornish-Fisher expansion in 1/df, good to 1e-6 from df = 30.
    const TABLE: [f64; 30] = [
        12.706_205, 4.302_653, 3.182_446, 2.776_445, 2.570_582, 2.446_912, 2.364_624, 2.306_004, 2.262_157,
        2.228_139, 2.200_985, 2.178_813, 2.160_369, 2.144_787, 2.131_450, 2.119_905, 2.109_816, 2.100_922,
        2.093_024, 2.085_963, 2.079_614, 2.073_873, 2.068_658, 2.063_899, 2.059_539, 2.055_529, 2.051_831,
        2.048_407, 2.045_230, 2.042_272,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df as usize - 1],
        _ => {
            let z = Z95;
            let v = df as f64;
            let z3 = z * z * z;
            let z5 = z3 * z * z;
            let z7 = z5 * z * z;
            z + (z3 + z) / (4.0 * v)
                + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * v * v)
                + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * v * v * v)
        }
    }
}

/// `m ± se` with enough decimals that a small standard error shows two
/// significant digits (never `± 0.00` for an error that is not zero); an
/// error that is exactly zero (every unit gave the same value) shows as
/// `± 0`.
pub fn plus_minus(m: f64, se: f64, decimals: usize) -> String {
    if se == 0.0 {
        return format!("{m:.decimals$} ± 0");
    }
    let d = decimals_for(se, decimals);
    format!("{m:.d$} ± {se:.d$}")
}

/// At least `min` decimals, more when `x` needs them for two significant
/// digits (at most 8).
pub fn decimals_for(x: f64, min: usize) -> usize {
    if !(x.is_finite() && x > 0.0) {
        return min;
    }
    let need = (1.0 - x.log10().floor()) as i64;
    (need.clamp(min as i64, 8)) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stats::mean_stderr;

    #[test]
    fn with_unit_denominators_it_is_the_sample_mean_and_its_error() {
        let mut r = Ratio::default();
        for x in [1, 2, 3, 4] {
            r.add(x, 1);
        }
        assert_eq!(r.estimate(), 2.5);
        let (_, se) = mean_stderr(4, 10, 30);
        assert!((r.stderr().unwrap() - se).abs() < 1e-12);
    }

    #[test]
    fn ratio_variance_matches_the_direct_formula() {
        let units = [(3i64, 2i64), (10, 5), (0, 1), (7, 4), (2, 2)];
        let mut r = Ratio::default();
        for &(x, g) in &units {
            r.add(x, g);
        }
        let sx: f64 = units.iter().map(|u| u.0 as f64).sum();
        let sg: f64 = units.iter().map(|u| u.1 as f64).sum();
        let rr = sx / sg;
        let ss: f64 = units
            .iter()
            .map(|&(x, g)| (x as f64 - rr * g as f64).powi(2))
            .sum();
        let want = ss * 5.0 / 4.0 / (sg * sg);
        assert!(
            (r.variance().unwrap() - want).abs() < 1e-15,
            "{:?} {want}",
            r.variance()
        );
        // Merging halves gives the same sums.
        let mut a = Ratio::default();
        let mut b = Ratio::default();
        for (i, &(x, g)) in units.iter().enumerate() {
            if i % 2 == 0 { a.add(x, g) } else { b.add(x, g) }
        }
        a.merge(&b);
        assert_eq!(a, r);
    }

    #[test]
    fn one_unit_has_no_error_and_a_conservative_share_interval() {
        let mut r = Ratio::default();
        r.add(3, 10);
        assert_eq!(r.stderr(), None);
        assert_eq!(r.mean_interval(), None);
        let (lo, hi) = r.share_interval();
        assert!(lo < 0.3 && hi > 0.3 && hi - lo > 0.5, "{lo} {hi}");
    }

    #[test]
    fn a_share_without_spread_still_has_a_width() {
        // Never won in 1000 deals: the t interval is [0, 0]; the Wilson
        // fallback is not.
        let mut r = Ratio::default();
        for _ in 0..1000 {
            r.add(0, 6);
        }
        let (lo, hi) = r.share_interval();
        assert_eq!(lo, 0.0);
        assert!(hi > 0.003 && hi < 0.01, "{hi}");
    }

    #[test]
    fn t_quantiles() {
        assert!((t975(1) - 12.706_2).abs() < 1e-4);
        assert!((t975(10) - 2.228_1).abs() < 1e-4);
        // Known values beyond the table.
        assert!((t975(40) - 2.021_075).abs() < 1e-5, "{}", t975(40));
        assert!((t975(60) - 2.000_298).abs() < 1e-5, "{}", t975(60));
        assert!((t975(120) - 1.979_930).abs() < 1e-5, "{}", t975(120));
        assert!((t975(1_000_000) - Z95).abs() < 1e-5);
        // Decreasing towards z.
        for df in 1..200 {
            assert!(t975(df) > t975(df + 1), "{df}");
        }
    }

    #[test]
    fn small_errors_get_more_decimals() {
        assert_eq!(plus_minus(19.068, 0.0021, 3), "19.0680 ± 0.0021");
        assert_eq!(plus_minus(19.068, 0.21, 3), "19.068 ± 0.210");
        assert_eq!(plus_minus(174.7, 0.004, 2), "174.7000 ± 0.0040");
        assert_eq!(plus_minus(1.0, 0.0, 2), "1.00 ± 0");
    }
}
