//! The console summary of a tournament: standings and head-to-head table.

use std::io::Write;

use super::analysis::{Report, best_region, lead};
use super::run::median;
use crate::engine::design::{FEW_UNITS, plus_minus};
use crate::engine::game::Game;
use crate::engine::run::plural;
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
            super::analysis::MIN_BOOTSTRAP_BATCHES
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

/// The conclusion in words, one sentence a line: the best entrant and
/// those this run cannot tell from it (95% win-rate intervals that
/// overlap), and the lead of the first over the second in points of win
/// rate with its interval.
pub fn conclusion(names: &[String], report: &Report) -> Vec<String> {
    let st = &report.standings;
    let pts: Vec<(f64, f64, f64)> = st.iter().map(|s| (s.win_rate, s.win_ci.0, s.win_ci.1)).collect();
    let mut lines = Vec::new();
    let Some((best, near)) = best_region(&pts) else {
        return lines;
    };
    let top = &names[st[best].entrant];
    let near: Vec<String> = near.iter().map(|&i| names[st[i].entrant].clone()).collect();
    lines.push(match near.len() {
        0 => format!("best: {top}; no other entrant's 95% interval reaches its interval"),
        1 => format!(
            "best: {top}; {} is within its interval (its 95% interval overlaps the best's: this run cannot tell them apart)",
            near[0]
        ),
        _ => format!(
            "best: {top}; {} are within its interval (their 95% intervals overlap the best's: this run cannot tell them apart)",
            and_list(&near)
        ),
    });
    if st.len() >= 2 {
        let (a, b) = (st[0].entrant, st[1].entrant);
        if let Some((d, lo, hi)) = lead(report, a, b) {
            lines.push(format!(
                "{} wins {d:.2} points more often than {} in the games they play together (95% CI {lo:.2} to {hi:.2} points)",
                names[a], names[b]
            ));
        }
    }
    lines
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

#[allow(clippy::needless_range_loop)] // entrant indices index names and pairs
/// The head-to-head table, the significant differences and the variance
/// saved by common random numbers.
pub fn write_pairwise(w: &mut Vec<u8>, names: &[String], report: &Report) {
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
