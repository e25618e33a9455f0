//! `sim flip7 solve`: the exact solo-round values of [`super::solve`] as
//! two CSV files and a one-line summary.

use clap::Args;

use super::cards::{Without, composition};
use super::rules::FLIP7_CARDS;
use super::solve;
use crate::engine::columns::{RUN_COLUMNS, csv_bytes};
use crate::engine::version::SIM_VERSION;

/// `sim flip7 solve`: exact expected score of a solo round from a fresh
/// deck: the optimal Hit/Stay rule, every stay-at-N for N = 0..60, and the
/// optimal decision for every set of numbers held. Any deck (--without).
#[derive(Args, Debug, Clone)]
pub struct SolveArgs {
    /// Card kinds removed from the deck (default: the full deck).
    #[arg(long, value_name = "KINDS", value_parser = Without::parse)]
    pub without: Option<Without>,

    /// Folder for thresholds.csv and decisions.csv (default:
    /// results/flip7-solve[_without-KINDS]/).
    #[arg(long, value_name = "DIR")]
    pub out: Option<std::path::PathBuf>,
}

/// CSV bytes of `header` and `rows`, every row ending with the
/// [`RUN_COLUMNS`] as every CSV does: `seed` empty (the values are exact,
/// no seed plays into them) and the `sim_version` that wrote them.
fn exact_csv(header: &[&str], rows: Vec<Vec<String>>) -> Result<Vec<u8>, String> {
    let header: Vec<String> = header.iter().copied().chain(RUN_COLUMNS).map(String::from).collect();
    let stamp = [String::new(), SIM_VERSION.to_string()];
    let rows: Vec<Vec<String>> = rows
        .into_iter()
        .map(|r| r.into_iter().chain(stamp.iter().cloned()).collect())
        .collect();
    csv_bytes(&header, &rows)
}

/// Runs `sim flip7 solve`.
pub fn run(args: &SolveArgs) -> Result<(), String> {
    use crate::engine::output::Output;
    let without = args.without.unwrap_or_default();
    let deck = if without == Without::default() {
        "full deck".to_string()
    } else {
        format!("deck without {}", without.label())
    };
    let dir = args.out.clone().unwrap_or_else(|| {
        let mut name = "flip7-solve".to_string();
        if without != Without::default() {
            name.push_str(&format!("_without-{}", without.label()));
        }
        std::path::PathBuf::from("results").join(name)
    });
    if dir.as_os_str() == "-" || dir.is_file() {
        return Err(format!(
            "--out '{}' must be a folder (solve writes thresholds.csv and decisions.csv into it)",
            dir.display()
        ));
    }
    let thresholds_out = Output::prepare(&dir.join("thresholds.csv"), "--out")?;
    let decisions_out = Output::prepare(&dir.join("decisions.csv"), "--out")?;

    let comp = composition(1, without);
    let started = std::time::Instant::now();
    let optimum = solve::optimal(&comp).map_err(|e| format!("--without {}: {e}", without.label()))?;
    let mut thresholds = vec![vec!["optimal".to_string(), format!("{:.6}", optimum.optimal)]];
    let ns: Vec<u16> = (0..=60).collect();
    let values = solve::thresholds(&comp, &ns)?;
    let mut best = (0u16, f64::MIN);
    for (&n, &v) in ns.iter().zip(&values) {
        if v > best.1 {
            best = (n, v);
        }
        thresholds.push(vec![format!("stay-at-{n}"), format!("{v:.6}")]);
    }
    let mut decisions = Vec::new();
    for mask in 1usize..(1 << 13) {
        let cards = mask.count_ones();
        if cards >= FLIP7_CARDS {
            continue;
        }
        let numbers: Vec<String> = (0..=12)
            .filter(|n| mask & (1 << n) != 0)
            .map(|n: usize| n.to_string())
            .collect();
        let sum: usize = (0..=12).filter(|n| mask & (1 << n) != 0).sum();
        let decision = if optimum.hit[mask] { "hit" } else { "stay" };
        decisions.push(vec![
            numbers.join(" "),
            cards.to_string(),
            sum.to_string(),
            decision.to_string(),
            format!("{:.6}", optimum.value[mask]),
        ]);
    }
    let thresholds = exact_csv(&["rule", "expected_round_score"], thresholds)?;
    let decisions = exact_csv(
        &["numbers", "cards", "sum", "decision", "expected_round_score"],
        decisions,
    )?;
    // Both files or, when one cannot be written, neither (nor the folder).
    crate::engine::output::commit_all(vec![(thresholds_out, &thresholds), (decisions_out, &decisions)])?;
    let text = format!(
        "exact solo round, fresh {deck}: optimal rule {:.4}; best threshold stay-at-{} {:.4} \
         ({} states, {:.1} s)\nwrote {}\nwrote {}\n",
        optimum.optimal,
        best.0,
        best.1,
        optimum.states,
        started.elapsed().as_secs_f64(),
        dir.join("thresholds.csv").display(),
        dir.join("decisions.csv").display()
    );
    crate::engine::show::print(text.as_bytes())
}
