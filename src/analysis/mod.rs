//! What the figures of a study say: standings, head-to-head shares,
//! ratings, significance and the best region ([`standings`]), and the
//! words of conclusions and the console tables that give them
//! ([`console`]). It plays nothing and writes no file: the studies
//! ([`crate::studies`]) and the reports ([`crate::report`]) above it use it.

pub mod console;
pub mod standings;
pub mod tally;

/// The median of the finite values (NaN when there are none).
pub fn median(mut v: Vec<f64>) -> f64 {
    v.retain(|x| x.is_finite());
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}
