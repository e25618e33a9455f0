//! Seat arrangements: which entrant sits in which seat.
//!
//! With `E` entrants at a table of `P` seats (`E >= P >= 2`):
//!
//! 1. every set of `P` entrants out of `E` is chosen (all `C(E, P)` of
//!    them, in lexicographic order; just one set when `E == P`);
//! 2. each set is seated in all `P!` orders when `P! <= 24` (`P <= 4`), in
//!    lexicographic order, otherwise in its `P` cyclic rotations (seat `s`
//!    of rotation `r` gets the set's member `(s + r) mod P`: a Latin
//!    square).
//!
//! Either way every entrant sits in every seat equally often: a set that
//! contains it seats it in each seat `(P - 1)!` times (orders) or once
//! (rotations), and every entrant is in the same number `C(E-1, P-1)` of
//! sets. All entrants also meet every other entrant equally often.

use crate::engine::show::plural;

/// At most this many arrangements: each one replays every deal.
pub const MAX_ARRANGEMENTS: usize = 10_000;

/// The arrangements and a sentence saying how they were made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrangements {
    /// `seats[a][s]`: the entrant in seat `s` of arrangement `a`.
    pub seats: Vec<Vec<usize>>,
    /// How they were made, in words.
    pub how: String,
}

fn binomial(n: usize, k: usize) -> Option<usize> {
    let mut r: usize = 1;
    for i in 0..k {
        r = r.checked_mul(n - i)? / (i + 1);
    }
    Some(r)
}

fn factorial(n: usize) -> usize {
    (1..=n).product()
}

/// All `k`-subsets of `0..n` in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut c: Vec<usize> = (0..k).collect();
    loop {
        out.push(c.clone());
        // Find the rightmost element that can still move right.
        let mut i = k;
        loop {
            if i == 0 {
                return out;
            }
            i -= 1;
            if c[i] < n - k + i {
                break;
            }
            if i == 0 {
                return out;
            }
        }
        c[i] += 1;
        for j in i + 1..k {
            c[j] = c[j - 1] + 1;
        }
    }
}

/// All orders of `items` in lexicographic order of positions.
fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    let mut idx: Vec<usize> = (0..items.len()).collect();
    let mut out = vec![items.to_vec()];
    // Next permutation, lexicographic.
    loop {
        let Some(i) = (1..idx.len()).rev().find(|&i| idx[i - 1] < idx[i]) else {
            return out;
        };
        let j = (i..idx.len())
            .rev()
            .find(|&j| idx[j] > idx[i - 1])
            .expect("exists");
        idx.swap(i - 1, j);
        idx[i..].reverse();
        out.push(idx.iter().map(|&k| items[k]).collect());
    }
}

/// The arrangements of `entrants` entrants over `players` seats, the
/// entrants listed by `--policies`.
pub fn arrangements(entrants: usize, players: usize) -> Result<Arrangements, String> {
    arrangements_listed(entrants, players, "--policies")
}

/// [`arrangements`] of entrants listed by `from` (`--policies`, or
/// `--lineup NAME (FILE:LINE)`), which its errors name.
pub fn arrangements_listed(entrants: usize, players: usize, from: &str) -> Result<Arrangements, String> {
    if players < 2 {
        return Err(format!(
            "--players {players}: a tournament needs at least 2 players"
        ));
    }
    if entrants < players {
        return Err(format!(
            "{from} lists {} but --players is {players}; list at least {players} (a policy may be listed more than once)",
            plural(entrants as u64, "entrant")
        ));
    }
    let sets = binomial(entrants, players).unwrap_or(usize::MAX);
    let all_orders = factorial(players) <= 24;
    let per_set = if all_orders { factorial(players) } else { players };
    let total = sets.saturating_mul(per_set);
    if total > MAX_ARRANGEMENTS {
        return Err(format!(
            "{from}: {entrants} entrants at {players} seats make {total} seat arrangements (at most {MAX_ARRANGEMENTS}); list fewer entrants or raise --players"
        ));
    }
    let mut seats = Vec::with_capacity(total);
    for set in combinations(entrants, players) {
        if all_orders {
            seats.extend(permutations(&set));
        } else {
            for r in 0..players {
                seats.push((0..players).map(|s| set[(s + r) % players]).collect());
            }
        }
    }
    let order = if all_orders {
        format!("in all {per_set} orders")
    } else {
        format!("in its {players} cyclic rotations (a Latin square)")
    };
    let how = if sets == 1 {
        format!(
            "{total} arrangements: the {entrants} entrants {order}; every entrant sits in every seat {}",
            times(total / entrants)
        )
    } else {
        format!(
            "{total} arrangements: each of the {sets} sets of {players} entrants out of {entrants}, {order}; every entrant sits in every seat {}",
            times(total / entrants)
        )
    };
    Ok(Arrangements { seats, how })
}

/// `once`, `twice`, `3 times`.
fn times(n: usize) -> String {
    match n {
        1 => "once".to_string(),
        2 => "twice".to_string(),
        n => format!("{n} times"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_tables_get_every_order() {
        let a = arrangements(3, 3).unwrap();
        assert_eq!(a.seats.len(), 6);
        assert_eq!(a.seats[0], vec![0, 1, 2]);
        assert_eq!(a.seats[5], vec![2, 1, 0]);
        assert_eq!(arrangements(4, 4).unwrap().seats.len(), 24);
    }

    #[test]
    fn combinations_are_complete() {
        assert_eq!(combinations(5, 3).len(), 10);
        assert_eq!(combinations(4, 4), vec![vec![0, 1, 2, 3]]);
        assert_eq!(combinations(3, 1), vec![vec![0], vec![1], vec![2]]);
    }

    #[test]
    fn too_few_entrants_are_refused() {
        assert!(arrangements(2, 3).unwrap_err().contains("at least 3"));
        assert!(arrangements(3, 1).is_err());
    }
}
