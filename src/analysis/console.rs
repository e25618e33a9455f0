//! The console summary of a tournament: standings and head-to-head table.

use std::io::Write;

use super::median;
use super::standings::{Report, Standing, lead};
use crate::engine::design::{FEW_UNITS, plus_minus};
use crate::engine::game::Game;
use crate::engine::show::plural;
use crate::engine::table::{Table, interval, percent};

/// `m ± se`, or `m` alone when there are too few units for an error.
fn estimate(m: f64, se: f64, decimals: usize) -> String {
    if se.is_finite() {
        plus_minus(m, se, decimals)
    } else {
        format!("{m:.decimals$} (1 unit: no error)")
    }
}

/// The standings table: rank, win rate, loss rate and mean place (for a
/// game with a finishing order), score (for a game with one), round score
/// (for a game with rounds) and rating.
pub fn write_standings<G: Game>(w: &mut Vec<u8>, opts: &G::Options, names: &[String], report: &Report) {
    let score = G::score_name(opts);
    let rounds = G::has_rounds(opts);
    let places = G::has_places(opts);
    let mut t = Table::new();
    t.right("rank").left("entrant").right("win rate").right("95% CI");
    if places {
        t.right("loss rate").right("95% CI").right("mean place");
    }
    if let Some(name) = score {
        t.right(name);
    }
    if rounds {
        t.right("round score");
    }
    t.right("rating (BT)");
    for s in &report.standings {
        let mut cells = vec![
            s.rank.to_string(),
            names[s.entrant].clone(),
            percent(s.win_rate),
            interval(s.win_ci.0, s.win_ci.1),
        ];
        if places {
            match (s.loss, s.place) {
                (Some((rate, (lo, hi))), Some((m, se))) => cells.extend([
                    percent(rate),
                    interval(lo, hi),
                    if m.is_finite() {
                        estimate(m, se, 3)
                    } else {
                        "-".to_string()
                    },
                ]),
                _ => cells.extend(["-".to_string(), String::new(), "-".to_string()]),
            }
        }
        if score.is_some() {
            cells.push(s.score.map_or("-".to_string(), |(m, se)| estimate(m, se, 2)));
        }
        if rounds {
            cells.push(
                s.round_score
                    .map_or("-".to_string(), |(m, se)| estimate(m, se, 3)),
            );
        }
        cells.push(if s.rating_se.is_finite() {
            plus_minus(s.rating, s.rating_se, 1)
        } else {
            format!("{:.1}", s.rating)
        });
        t.row(cells);
    }
    let _ = w.write_all(t.render().as_bytes());
    if places {
        let _ = writeln!(
            w,
            "(loss rate: last place; mean place: 1 = first, over games with every place given)"
        );
    }
    if report.standings.iter().any(|s| !s.rating_se.is_finite()) {
        let _ = writeln!(
            w,
            "(rating errors need at least {} batches of 1024 deals: none shown)",
            super::standings::MIN_BOOTSTRAP_BATCHES
        );
    }
    if G::score_name(opts).is_none() {
        let _ = writeln!(w, "({} has no per-game score under these options)", G::NAME);
    }
    if !G::has_rounds(opts) {
        let _ = writeln!(w, "({} is not played in rounds: no round score)", G::NAME);
    }
}

/// `a`, `a and b`, `a, b and c`.
pub fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The conclusion in words, one sentence a line: the best entrant (the
/// highest win rate) and those this run cannot tell from it, then the
/// lead of the first over the second in points with its interval. Both
/// sentences use one test, so they never disagree: the paired difference
/// of win rates over the games two entrants play together, with its 95%
/// interval from the shared deals ([`lead`]). An entrant is "within" the
/// best's reach when that interval reaches 0 (or when it has no error).
pub fn conclusion(names: &[String], report: &Report) -> Vec<String> {
    let st = &report.standings;
    let mut lines = Vec::new();
    let Some(top) = st.first() else {
        return lines;
    };
    if !top.win_rate.is_finite() {
        return lines;
    }
    let leads: Vec<Option<(f64, f64, f64)>> =
        st.iter().map(|s| lead(report, top.entrant, s.entrant)).collect();
    lines.push(best_sentence(names, st, &leads));
    if let Some(line) = lead_sentence(names, report, &leads) {
        lines.push(line);
    }
    lines
}

/// The conclusion's first sentence: the best entrant (the first of the
/// standings `st`), the entrants whose paired interval from it (`leads`,
/// in standings order) reaches 0, and the test that says so.
fn best_sentence(names: &[String], st: &[Standing], leads: &[Option<(f64, f64, f64)>]) -> String {
    let best = &names[st[0].entrant];
    let near: Vec<String> = st
        .iter()
        .zip(leads)
        .skip(1)
        .filter(|(_, l)| l.is_none_or(|(_, lo, _)| lo <= 0.0))
        .map(|(s, _)| names[s.entrant].clone())
        .collect();
    // Which test decides, said in the sentence itself.
    let test = |each: &str| {
        format!(
            "the paired 95% interval of {each} difference in win rate from {best}, over the games played together on the same deals,"
        )
    };
    // With three or more entrants, "behind" is one comparison at a time:
    // the head-to-head table's Holm correction may not back every one.
    let alone = if st.len() > 2 && near.len() + 1 < st.len() {
        "; each comparison alone, before Holm's correction"
    } else {
        ""
    };
    let behind: Vec<String> = st
        .iter()
        .skip(1)
        .map(|s| names[s.entrant].clone())
        .filter(|n| !near.contains(n))
        .collect();
    let others = |alone: &str| match alone.is_empty() {
        true => String::new(),
        false => format!(
            "; {} {} behind it (each comparison alone, before Holm's correction)",
            and_list(&behind),
            if behind.len() == 1 { "is" } else { "are" }
        ),
    };
    match near.len() {
        _ if st.len() < 2 => format!("best: {best}"),
        0 if st.len() == 2 => format!(
            "best: {best}; the other entrant is behind it ({} excludes 0)",
            test("its")
        ),
        0 => format!(
            "best: {best}; every other entrant is behind it ({} excludes 0{alone})",
            test("each one's")
        ),
        1 => format!(
            "best: {best}; {} cannot be told from it ({} reaches 0){}",
            near[0],
            test("its"),
            others(alone)
        ),
        _ => format!(
            "best: {best}; {} cannot be told from it ({} reaches 0){}",
            and_list(&near),
            test("each one's"),
            others(alone)
        ),
    }
}

/// The conclusion's second sentence: the lead of the first entrant over
/// the second in points with its paired interval (`leads[1]`), and a
/// caution when Holm's correction does not back it; `None` with fewer
/// than two entrants or no lead.
fn lead_sentence(names: &[String], report: &Report, leads: &[Option<(f64, f64, f64)>]) -> Option<String> {
    let st = &report.standings;
    if st.len() < 2 {
        return None;
    }
    let (a, b) = (st[0].entrant, st[1].entrant);
    let (d, lo, hi) = leads[1]?;
    let mut line = format!(
        "{} wins {d:.2} points more often than {} in the games they play together (paired 95% CI {lo:.2} to {hi:.2} points)",
        names[a], names[b]
    );
    let holm = report.pairs.iter().find(|p| p.a == a && p.b == b);
    if lo > 0.0 && holm.is_some_and(|p| !p.significant) {
        line.push_str(&format!(
            "; this pair alone, before Holm's correction: over all {} pairs the head-to-head below does not call it significant",
            names.len() * (names.len() - 1) / 2
        ));
    }
    Some(line)
}

/// Writes [`conclusion`] to `w`.
pub fn write_conclusion(w: &mut Vec<u8>, names: &[String], report: &Report) {
    for line in conclusion(names, report) {
        let _ = writeln!(w, "{line}");
    }
}

/// The common-random-numbers figure in one plain sentence: the median,
/// over pairs, of the variance of their win-rate difference with shared
/// deals over that with independent deals; `None` when it cannot be
/// measured.
pub fn crn_sentence(report: &Report) -> Option<String> {
    let ratios: Vec<f64> = report
        .pairs
        .iter()
        .filter(|p| p.a < p.b)
        .map(|p| p.diff_var_crn / p.diff_var_independent)
        .filter(|x| x.is_finite())
        .collect();
    let med = median(ratios.clone());
    if !med.is_finite() {
        return None;
    }
    let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let range = format!("median over pairs; {:.0}% to {:.0}%", 100.0 * lo, 100.0 * hi);
    Some(if med < 0.9 {
        format!(
            "common random numbers: because every arrangement plays the same deals, the luck of the deal partly cancels out of each comparison: a pair's win-rate difference varies {:.0}% as much as with fresh deals for every arrangement ({range}), as good as {:.1}x as many games",
            100.0 * med,
            1.0 / med
        )
    } else if med <= 1.1 {
        format!(
            "common random numbers: sharing the deals makes little difference here: a pair's win-rate difference varies {:.0}% as much as with fresh deals for every arrangement ({range})",
            100.0 * med
        )
    } else {
        format!(
            "common random numbers: sharing the deals does not help here: a pair's win-rate difference varies {:.0}% as much as with fresh deals for every arrangement ({range}), because at one table a deal one entrant wins is a deal the other loses, so shared deals push the two apart instead of cancelling out; the intervals above already include this",
            100.0 * med
        )
    })
}

/// The head-to-head table, the significant differences and the variance
/// saved by common random numbers.
pub fn write_pairwise(w: &mut Vec<u8>, names: &[String], report: &Report) {
    write_head_to_head(w, names, report);
    write_test(w, names.len(), report);
    write_pair_lists(w, names, report);
    let undecided: Vec<String> = report
        .pairs
        .iter()
        .filter(|p| p.a < p.b && p.h2h.is_nan())
        .map(|p| format!("{} and {}", names[p.a], names[p.b]))
        .collect();
    if !undecided.is_empty() {
        let _ = writeln!(
            w,
            "no decided games (neither ever won at a table with the other; \"none\" above): {}",
            undecided.join("; ")
        );
    }
    match crn_sentence(report) {
        Some(line) => {
            let _ = writeln!(w, "{line}");
        }
        None => {
            let _ = writeln!(
                w,
                "common random numbers: the variance saved cannot be measured here (fewer than 2 independent units, or no variation at all)"
            );
        }
    }
}

#[allow(clippy::needless_range_loop)] // entrant indices index names and pairs
/// Writes the head-to-head table: a row and a column per entrant, each
/// cell the share of their decided games the row entrant won, starred
/// where significant.
fn write_head_to_head(w: &mut Vec<u8>, names: &[String], report: &Report) {
    let n = names.len();
    let _ = writeln!(
        w,
        "head-to-head: of the games won by either of two entrants at the same table, the share the row entrant won"
    );
    let mut t = Table::new();
    t.left("");
    for name in names {
        t.right(name);
    }
    for a in 0..n {
        let mut cells = vec![names[a].clone()];
        for b in 0..n {
            if a == b {
                cells.push("- ".to_string());
            } else {
                let p = report.pairs.iter().find(|p| p.a == a && p.b == b).expect("pair");
                let mark = if p.significant { "*" } else { " " };
                cells.push(if p.h2h.is_nan() {
                    format!("none{mark}")
                } else {
                    format!("{}{mark}", percent(p.h2h))
                });
            }
        }
        t.row(cells);
    }
    let _ = w.write_all(t.render().as_bytes());
}

/// Writes what the table's star means: the test, Holm's correction over
/// the pairs of `n` entrants, and the independent units its errors come
/// from.
fn write_test(w: &mut Vec<u8>, n: usize, report: &Report) {
    let tests = n * (n - 1) / 2;
    let unit = if report.units == report.deals {
        "one per deal".to_string()
    } else {
        format!(
            "{} joined into them where a game carried its pot over to the next",
            plural(report.deals, "deal")
        )
    };
    let mut how = format!(
        "standard errors over {} ({unit}), each with all its arrangements",
        plural(report.units, "independent unit")
    );
    if report.units < FEW_UNITS {
        how.push_str(&format!(
            "; fewer than {FEW_UNITS} units: Student's t, and win-rate intervals at least as wide as the Wilson interval of the units"
        ));
    }
    let _ = writeln!(
        w,
        "* significant: two-sided test of the share against 50%, Holm-corrected for {} at the 5% level ({how})",
        plural(tests as u64, "comparison")
    );
}

/// Writes each pair once (the entrant that won more of their decided
/// games first), with its share, interval and corrected p-value: first
/// the significant pairs, then the others.
fn write_pair_lists(w: &mut Vec<u8>, names: &[String], report: &Report) {
    let mut yes = Vec::new();
    let mut no = Vec::new();
    for p in report
        .pairs
        .iter()
        .filter(|p| p.h2h > 0.5 || (p.h2h == 0.5 && p.a < p.b))
    {
        let mut text = format!(
            "{} over {}: {:.2}% [{:.2}, {:.2}] of their decided games, corrected p {}",
            names[p.a],
            names[p.b],
            100.0 * p.h2h,
            100.0 * p.h2h_ci.0,
            100.0 * p.h2h_ci.1,
            p_text(p.p_holm)
        );
        if !p.significant && p.p_value < 0.05 {
            text.push_str(&format!(
                " (alone p {}: Holm's correction decided it is not significant)",
                p_text(p.p_value)
            ));
        }
        if p.significant {
            yes.push(text)
        } else {
            no.push(text)
        }
    }
    if yes.is_empty() {
        let _ = writeln!(w, "no difference between entrants is statistically significant");
    } else {
        let _ = writeln!(w, "significant (the first really does better than the second):");
        for t in yes {
            let _ = writeln!(w, "  {t}");
        }
    }
    if !no.is_empty() {
        let _ = writeln!(
            w,
            "not significant after Holm's correction (could be chance; play more deals to tell):"
        );
        for t in no {
            let _ = writeln!(w, "  {t}");
        }
    }
}

/// `= 0.012`, `= 3.1e-5`, `< 1e-15` (below what the normal tail
/// approximation can tell apart).
fn p_text(p: f64) -> String {
    if p < 1e-15 {
        "< 1e-15".into()
    } else if p < 0.001 {
        format!("= {p:.1e}")
    } else {
        format!("= {p:.3}")
    }
}

/// The sweep's conclusion: `best: X; Y and Z are within its interval`.
pub fn region_sentence(best: &str, near: &[String]) -> String {
    match near.len() {
        0 => format!("best: {best}; no other value's 95% interval reaches its interval"),
        1 => format!(
            "best: {best}; {} is within its interval (the 95% intervals overlap: this run cannot tell them apart)",
            near[0]
        ),
        _ => format!(
            "best: {best}; {} are within its interval (their 95% intervals overlap its: this run cannot tell them apart)",
            and_list(near)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::standings::{Pair, Standing};

    fn standing(entrant: usize, win_rate: f64, half: f64) -> Standing {
        Standing {
            rank: entrant + 1,
            entrant,
            games: 1000,
            wins: (win_rate * 1000.0) as u64,
            win_rate,
            win_ci: (win_rate - half, win_rate + half),
            losses: 0,
            loss: None,
            place: None,
            score: None,
            rounds: 0,
            round_score: None,
            rating: 1500.0,
            rating_se: f64::NAN,
            var_crn: f64::NAN,
            var_independent: f64::NAN,
        }
    }

    fn pair(a: usize, b: usize, a_wins: u64, b_wins: u64, diff_var: f64) -> Pair {
        Pair {
            a,
            b,
            games_together: 1000,
            a_wins,
            b_wins,
            h2h: a_wins as f64 / (a_wins + b_wins) as f64,
            h2h_ci: (0.0, 1.0),
            h2h_se: 0.1,
            p_value: 0.5,
            p_holm: 0.5,
            significant: false,
            diff_var_crn: diff_var,
            diff_var_independent: diff_var,
        }
    }

    /// Three entrants, best first; `wins[e]` of 1000 games together with
    /// the best, the paired difference's variance `var[e]`.
    fn report(rates: [f64; 3], half: f64, best_wins: [u64; 2], var: [f64; 2]) -> Report {
        let mut pairs = Vec::new();
        for (i, (&w, &v)) in best_wins.iter().zip(&var).enumerate() {
            let e = i + 1;
            pairs.push(pair(0, e, w, 400, v));
            pairs.push(pair(e, 0, 400, w, v));
        }
        pairs.push(pair(1, 2, 300, 300, 1e-4));
        pairs.push(pair(2, 1, 300, 300, 1e-4));
        Report {
            standings: (0..3).map(|e| standing(e, rates[e], half)).collect(),
            pairs,
            deals: 1000,
            batches: 1,
            units: 1000,
        }
    }

    fn names() -> Vec<String> {
        ["a", "b", "c"].map(String::from).to_vec()
    }

    #[test]
    fn overlapping_plain_intervals_do_not_make_a_clear_lead_a_tie() {
        // The plain intervals overlap (±3 points), but the paired
        // difference of a over b is 5 points ± 1.96: b is behind.
        let r = report([0.40, 0.38, 0.20], 0.03, [450, 500], [1e-4, 1e-4]);
        let lines = conclusion(&names(), &r);
        assert!(
            lines[0].starts_with("best: a; every other entrant is behind it (the paired 95% interval"),
            "{lines:?}"
        );
        assert!(
            lines[1].contains("wins 5.00 points more often than b"),
            "{lines:?}"
        );
        assert!(
            lines[1].contains("paired 95% CI 3.04 to 6.96 points"),
            "{lines:?}"
        );
    }

    #[test]
    fn an_entrant_the_paired_interval_cannot_tell_apart_is_named_with_the_test() {
        // a over b by 1 point ± 3.9: b cannot be told from a; c is behind.
        let r = report([0.40, 0.39, 0.20], 0.005, [410, 700], [4e-4, 1e-4]);
        let lines = conclusion(&names(), &r);
        assert!(
            lines[0]
                .starts_with("best: a; b cannot be told from it (the paired 95% interval of its difference"),
            "{lines:?}"
        );
        assert!(lines[0].contains("reaches 0"), "{lines:?}");
        assert!(
            lines[0].ends_with("); c is behind it (each comparison alone, before Holm's correction)"),
            "{lines:?}"
        );
        assert!(lines[1].contains("paired 95% CI -2.92 to 4.92"), "{lines:?}");
    }

    #[test]
    fn the_best_line_and_the_lead_line_never_disagree() {
        // Many made-up reports: the second entrant is named as one the
        // run cannot tell from the best exactly when the lead's interval
        // reaches 0.
        let mut x: u64 = 12345;
        let mut next = |m: u64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % m
        };
        for _ in 0..2000 {
            let w1 = 380 + next(80);
            let w2 = 300 + next(200);
            let v1 = (1 + next(40)) as f64 * 1e-5;
            let v2 = (1 + next(40)) as f64 * 1e-5;
            let half = next(50) as f64 / 1000.0;
            let r = report([0.4, 0.39, 0.3], half, [w1, w2], [v1, v2]);
            let lines = conclusion(&names(), &r);
            let (_, lo, _) = lead(&r, 0, 1).expect("a lead");
            let tie = lines[0].contains("b cannot be told")
                || lines[0].contains("b and c cannot")
                || lines[0].contains("c and b cannot");
            assert_eq!(tie, lo <= 0.0, "{lines:?}");
            let ci = lines[1].split("paired 95% CI ").nth(1).expect("an interval");
            let low: f64 = ci.split(' ').next().unwrap().parse().unwrap();
            // The interval as printed says the same (to its two decimals).
            assert!(if tie { low <= 0.0 } else { low >= 0.0 }, "{lines:?}");
        }
    }
}
