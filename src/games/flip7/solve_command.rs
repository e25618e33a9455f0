//! `sim flip7 solve`: the exact solo-round values of [`super::solve`] as
//! two CSV files and a one-line summary.

use clap::Args;

use super::cards::{Without, composition};
use super::rules::FLIP7_CARDS;
use super::solve;

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
    let mut thresholds = String::from("rule,expected_round_score\n");
    thresholds.push_str(&format!("optimal,{:.6}\n", optimum.optimal));
    let ns: Vec<u16> = (0..=60).collect();
    let values = solve::thresholds(&comp, &ns)?;
    let mut best = (0u16, f64::MIN);
    for (&n, &v) in ns.iter().zip(&values) {
        if v > best.1 {
            best = (n, v);
        }
        thresholds.push_str(&format!("stay-at-{n},{v:.6}\n"));
    }
    let mut decisions = String::from("numbers,cards,sum,decision,expected_round_score\n");
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
        decisions.push_str(&format!(
            "{},{cards},{sum},{decision},{:.6}\n",
            numbers.join(" "),
            optimum.value[mask]
        ));
    }
    // Both files or, when one cannot be written, neither (nor the folder).
    crate::engine::output::commit_all(vec![
        (thresholds_out, thresholds.as_bytes()),
        (decisions_out, decisions.as_bytes()),
    ])?;
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
