//! Flip 7: the complete game (`sim flip7`).
//!
//! - [`cards`]: card kinds, the deck, the draw and discard piles.
//! - [`rules`]: one game, generic over decisions, observers and the deck order.
//! - [`policies`]: Hit-or-Stay rules and action-card choices.
//! - [`stats`]: integer accumulators and the CSV.
//! - [`trace`]: the play-by-play.

pub mod cards;
pub mod optimal;
pub mod policies;
pub mod rules;
pub mod solve;
pub mod stats;
pub mod trace;

use std::io::Write;

use clap::Args;

use self::cards::{Without, composition, decks_for};
use self::policies::{Policy, Seats, Thresholds};
use self::rules::{MAX_PLAYERS, Rules, Table};
use self::stats::Flip7Stats;
use self::trace::Trace;
use crate::cli::{RunArgs, RunLabel, describe_sources, execute, seat_policies};
use crate::engine::rng::{SimRng, game_rng};
use crate::engine::runner::Simulation;
use crate::engine::strategies::{Library, Resolved};
use crate::tournament::Contest;

/// `sim flip7`: simulate games of Flip 7.
#[derive(Args, Debug, Clone)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Flip7Args {
    /// Instead of simulating: `solve` computes exact values.
    #[command(subcommand)]
    pub action: Option<Flip7Action>,

    /// Policy for every seat, or a comma-separated list with one per seat.
    /// Each is a spec (RULE[+freeze:C][+flip-three:C][+second-chance:C];
    /// see --list-policies), a strategy name (strategies/flip7-NAME.toml)
    /// or a .toml path.
    #[arg(long, value_name = "SPEC[,SPEC...]", default_value = "stay-at-25", value_parser = parse_policies)]
    pub policy: PolicyList,

    /// Lists every policy spec, action-card choice and shipped strategy,
    /// then exits.
    #[arg(long)]
    pub list_policies: bool,

    #[command(flatten)]
    pub table: Flip7Table,

    #[command(flatten)]
    pub run: RunArgs,
}

/// The game's name: subcommand and strategy-file prefix.
pub const GAME: &str = "flip7";

/// What `sim flip7` can do besides simulating.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum Flip7Action {
    /// Exact expected score of a solo round from a fresh deck: the optimal
    /// Hit/Stay rule, every stay-at-N for N = 0..60, and the optimal
    /// decision for every set of numbers held. Any deck (--without).
    Solve(SolveArgs),
}

/// `sim flip7 solve`.
#[derive(Args, Debug, Clone)]
pub struct SolveArgs {
    /// Card kinds removed from the deck (default: the full deck).
    #[arg(long, value_name = "KINDS", value_parser = Without::parse)]
    pub without: Option<Without>,

    /// Folder for thresholds.csv and decisions.csv (default:
    /// results/flip7-solve[_without-<KINDS>]/).
    #[arg(long, value_name = "DIR")]
    pub out: Option<std::path::PathBuf>,
}

/// Runs `sim flip7 solve`.
pub fn solve_command(args: &SolveArgs) -> Result<(), String> {
    use crate::engine::output::Output;
    let without = args.without.unwrap_or_default();
    let deck = if without == Without::default() {
        "full deck".to_string()
    } else {
        format!("deck without {}", without.label())
    };
    let comp = composition(1, without);
    let started = std::time::Instant::now();
    let optimum = solve::optimal(&comp).map_err(|e| format!("--without {}: {e}", without.label()))?;
    let dir = args.out.clone().unwrap_or_else(|| {
        let mut name = "flip7-solve".to_string();
        if without != Without::default() {
            name.push_str(&format!("_without-{}", without.label()));
        }
        std::path::PathBuf::from("results").join(name)
    });
    let thresholds_out = Output::prepare(&dir.join("thresholds.csv"), "--out")?;
    let decisions_out = Output::prepare(&dir.join("decisions.csv"), "--out")?;

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
        if cards >= FLIP7_CARDS_U32 {
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
    thresholds_out.commit(thresholds.as_bytes())?;
    decisions_out.commit(decisions.as_bytes())?;
    println!(
        "exact solo round, fresh {deck}: optimal rule {:.4}; best threshold stay-at-{} {:.4} \
         ({} states, {:.1} s)",
        optimum.optimal,
        best.0,
        best.1,
        optimum.states,
        started.elapsed().as_secs_f64()
    );
    println!("wrote {}", dir.join("thresholds.csv").display());
    println!("wrote {}", dir.join("decisions.csv").display());
    Ok(())
}

const FLIP7_CARDS_U32: u32 = rules::FLIP7_CARDS;

/// The parsed `--policy` list: one resolved policy per item.
#[derive(Clone, Debug)]
pub struct PolicyList(pub Vec<Resolved<Policy>>);

fn parse_policies(text: &str) -> Result<PolicyList, String> {
    let dir = std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))?;
    let library = Library::new(&dir, None)?;
    text.split(',')
        .map(|word| library.resolve(GAME, word, Policy::parse))
        .collect::<Result<Vec<_>, _>>()
        .map(PolicyList)
}

/// A configured Flip 7 simulation: rules and one policy per seat.
#[derive(Clone, Debug)]
pub struct Flip7 {
    /// The rules of every game.
    pub rules: Rules,
    /// `policies[s]` plays seat `s`.
    pub policies: Vec<Policy>,
}

impl Flip7 {
    /// A simulation of `players` players. `policies` holds one policy for
    /// every seat or exactly one per seat.
    pub fn new(
        players: usize,
        policies: &[Policy],
        single_round: bool,
        without: Without,
    ) -> Result<Flip7, String> {
        let policies = seat_policies(policies, players)?;
        let rules = Rules {
            players,
            composition: composition(decks_for(players), without),
            single_round,
        };
        Ok(Flip7 { rules, policies })
    }

    /// The policy spec of each seat.
    pub fn policy_names(&self) -> Vec<String> {
        self.policies.iter().map(Policy::to_string).collect()
    }
}

impl Simulation for Flip7 {
    type Acc = Flip7Stats;

    fn new_acc(&self) -> Flip7Stats {
        Flip7Stats::new(self.rules.players)
    }

    fn play_batch(
        &self,
        rng: &mut SimRng,
        first_game: u64,
        games: u64,
        acc: &mut Flip7Stats,
        trace: Option<&mut dyn Write>,
    ) {
        let mut table = Table::new(self.rules);
        if let Some(mut seats) = Thresholds::of(&self.policies) {
            // Plain thresholds (the main job): the same games, without
            // dispatching on the rule at every decision.
            play_traced(&mut table, &mut seats, acc, rng, games, first_game, trace);
        } else {
            let mut seats = Seats::new(self.policies.clone());
            if self.policies.iter().any(Policy::is_random) {
                // Only runs with `rollout:K` draw from the batch stream here,
                // so every other run keeps its games.
                seats.seed(rand::Rng::next_u64(rng));
            }
            play_traced(&mut table, &mut seats, acc, rng, games, first_game, trace);
        }
    }
}

/// [`play_games`] into `acc`, and to `trace` as well when given.
#[inline(always)]
fn play_traced<C: rules::Chooser>(
    table: &mut Table,
    seats: &mut C,
    acc: &mut Flip7Stats,
    rng: &mut SimRng,
    games: u64,
    first_game: u64,
    trace: Option<&mut dyn Write>,
) {
    match trace {
        None => play_games(table, seats, acc, rng, games),
        Some(out) => {
            let mut obs = (Trace::new(out, first_game), &mut *acc);
            play_games(table, seats, &mut obs, rng, games);
        }
    }
}

/// The games of a batch, each from its own stream of the batch's generator
/// (the same games whether traced or not).
#[inline(always)]
fn play_games<C: rules::Chooser, O: rules::Observer>(
    table: &mut Table,
    seats: &mut C,
    obs: &mut O,
    rng: &mut SimRng,
    games: u64,
) {
    for _ in 0..games {
        let mut rng = game_rng(rng);
        table.new_game(&mut rng);
        table.play_game(seats, obs, &mut rng);
    }
}

impl<O: rules::Observer> rules::Observer for &mut O {
    const EVENTS: bool = O::EVENTS;
    #[inline]
    fn event(&mut self, t: &Table, e: rules::Event) {
        (**self).event(t, e)
    }
    #[inline]
    fn round_end(&mut self, t: &Table) {
        (**self).round_end(t)
    }
    #[inline]
    fn game_end(&mut self, t: &Table, w: Option<usize>) {
        (**self).game_end(t, w)
    }
}

/// What `sim flip7 --list-policies` prints: every spec form and choice,
/// then the strategies of the [`Library`] of `dir`, each with its origin.
pub fn list_policies(dir: &std::path::Path) -> String {
    use std::fmt::Write as _;
    let mut out = String::from(
        "A policy is RULE[+freeze:CHOICE][+flip-three:CHOICE][+second-chance:CHOICE],\n\
         e.g. ev+flip-three:self-when-safe. A comma-separated list gives one per seat.\n",
    );
    for (title, entries) in policies::CATALOGUE {
        let _ = writeln!(out, "\n{title}:");
        for e in *entries {
            let _ = writeln!(out, "  {:<16} {}", e.spec, e.does);
        }
    }
    let _ = writeln!(
        out,
        "\nStrategies (--policy NAME: {GAME}-NAME.toml built in, or in strategies/ or $SIM_STRATEGIES):"
    );
    let found = match Library::new(dir, None) {
        Ok(library) => library.list(GAME),
        Err(e) => {
            let _ = writeln!(out, "  ({e})");
            Vec::new()
        }
    };
    if found.is_empty() {
        let _ = writeln!(out, "  (none)");
    }
    for (name, file) in found {
        // A file whose policy is a list is a line-up (for tournaments).
        let checked = file.and_then(|s| match s.policy.contains(',') {
            true => Ok((format!("line-up: {}", s.policy), s)),
            false => Policy::parse(&s.policy).map(|p| (p.to_string(), s)),
        });
        match checked {
            Ok((p, s)) => {
                let _ = writeln!(out, "  {name:<16} {p}   [{}]", s.origin);
                if !s.description.is_empty() {
                    let _ = writeln!(out, "  {:<16} {}", "", s.description);
                }
            }
            Err(e) => {
                let _ = writeln!(out, "  {name:<16} (cannot be used: {e})");
            }
        }
    }
    out
}

/// Runs `sim flip7` with parsed arguments.
pub fn run(args: &Flip7Args) -> Result<(), String> {
    if let Some(Flip7Action::Solve(solve)) = &args.action {
        return solve_command(solve);
    }
    if args.list_policies {
        let dir = std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))?;
        print!("{}", list_policies(&dir));
        return Ok(());
    }
    let table = &args.table;
    let players = table.players();
    let without = table.without.unwrap_or_default();
    let chosen: Vec<Policy> = args.policy.0.iter().map(|r| r.policy).collect();
    let sim = table.simulation(&chosen)?;
    let labels: Vec<String> = args.policy.0.iter().map(|r| r.label.clone()).collect();
    let names = seat_policies(&labels, players)?;
    let name_extras = table.name_extras();
    let mut describe_extras = Vec::new();
    if table.single_round {
        describe_extras.push("single rounds".to_string());
    }
    if without != Without::default() {
        describe_extras.push(format!("without {}", without.label()));
    }
    let label = RunLabel {
        game: "flip7",
        policies: &names,
        players,
        name_extras,
        describe_extras,
    };
    execute(&sim, &args.run, label, |acc, summary| {
        describe_sources(&args.policy.0, summary);
        let _ = summary_table(summary, acc, &names);
        if acc.no_winner > 0 {
            let _ = writeln!(summary, "{} games ended without a unique winner", acc.no_winner);
        }
        acc.csv(&names)
    })
}

fn summary_table(w: &mut dyn Write, acc: &Flip7Stats, names: &[String]) -> std::io::Result<()> {
    writeln!(
        w,
        "{:>4}  {:<14} {:>25}  {:>9}  {:>16}  {:>6} {:>6} {:>6} {:>6}  {:>5}",
        "seat",
        "policy",
        "win rate [95% CI]",
        "final",
        "round score",
        "bust",
        "stay",
        "frozen",
        "flip7",
        "cards"
    )?;
    for r in acc.rows(names) {
        writeln!(
            w,
            "{:>4}  {:<14} {:>6.2}% [{:>6.2}, {:>6.2}]  {:>9.2}  {:>7.3} ± {:<6.3}  {:>5.1}% {:>5.1}% {:>5.1}% {:>5.1}%  {:>5.2}",
            r.seat,
            r.policy,
            100.0 * r.win_rate,
            100.0 * r.win_ci.0,
            100.0 * r.win_ci.1,
            r.mean_final_score,
            r.mean_round_score,
            r.round_score_stderr,
            100.0 * r.bust_rate,
            100.0 * r.stayed_rate,
            100.0 * r.frozen_rate,
            100.0 * r.flip7_rate,
            r.mean_cards_per_round,
        )?;
    }
    let rows = acc.rows(names);
    if let Some(r) = rows.first() {
        writeln!(w, "mean rounds per game: {:.3}", r.mean_rounds_per_game)?;
    }
    Ok(())
}

/// The table options of `sim flip7`, `sim tournament flip7` and
/// `sim sweep flip7`.
#[derive(Args, Debug, Clone)]
pub struct Flip7Table {
    /// Players at the table (1 to 36; two decks are used above 18).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=MAX_PLAYERS as i64))]
    pub players: u16,

    /// Every game is a single round from a fresh, full deck.
    #[arg(long)]
    pub single_round: bool,

    /// House rule: remove card kinds from the deck. Comma-separated:
    /// freeze, flip-three, second-chance, actions (all three), modifiers.
    #[arg(long, value_name = "KINDS", value_parser = Without::parse)]
    pub without: Option<Without>,
}

impl crate::tournament::Contest for Flip7Table {
    type Policy = Policy;
    type Sim = Flip7;

    fn game(&self) -> &'static str {
        GAME
    }
    fn players(&self) -> usize {
        usize::from(self.players)
    }
    fn name_extras(&self) -> Vec<String> {
        let mut v = Vec::new();
        if self.single_round {
            v.push("single-round".to_string());
        }
        if let Some(w) = self.without.filter(|w| *w != Without::default()) {
            v.push(format!("without-{}", w.label()));
        }
        v
    }
    fn score_name(&self) -> Option<&'static str> {
        Some("final score")
    }
    fn has_rounds(&self) -> bool {
        true
    }
    fn default_policy(&self) -> &'static str {
        "stay-at-25"
    }
    fn resolve(&self, word: &str, dir: &std::path::Path) -> Result<Resolved<Policy>, String> {
        Library::new(dir, None)?.resolve(GAME, word, Policy::parse)
    }
    fn simulation(&self, seats: &[Policy]) -> Result<Flip7, String> {
        let without = self.without.unwrap_or_default();
        Flip7::new(self.players(), seats, self.single_round, without)
    }
    fn results(&self, acc: &Flip7Stats) -> (u64, Vec<crate::tournament::SeatResult>) {
        let seats = acc.seats.iter().map(|s| crate::tournament::SeatResult {
            wins: s.wins,
            score_sum: s.final_score_sum as i64,
            rounds: acc.rounds,
            round_score_sum: s.round_score_sum,
            round_score_sq: s.round_score_sq,
        });
        (acc.games, seats.collect())
    }
    fn csv_header(&self) -> Vec<String> {
        stats::CSV_HEADER.iter().map(|h| h.to_string()).collect()
    }
    fn csv_rows(&self, acc: &Flip7Stats, names: &[String]) -> Vec<Vec<String>> {
        acc.rows(names).iter().map(stats::SeatRow::csv_fields).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::batch_rng;

    /// Plays `games` games with `chooser` and returns the statistics.
    fn stats_of<C: rules::Chooser>(chooser: &mut C, players: usize, seed: u64) -> Flip7Stats {
        let rules = Rules {
            players,
            composition: cards::composition(1, cards::Without::default()),
            single_round: false,
        };
        let mut table = Table::new(rules);
        let mut acc = Flip7Stats::new(players);
        play_games(&mut table, chooser, &mut acc, &mut batch_rng(seed, 0), 2000);
        acc
    }

    #[test]
    fn plain_thresholds_play_the_same_games_as_seats() {
        let lineups = [vec![25, 25, 25, 25], vec![15, 40], vec![0, 30, 22, 27, 60]];
        for (i, at) in lineups.iter().enumerate() {
            let policies: Vec<Policy> = at.iter().map(|&n| Policy::stay_at(n)).collect();
            let mut fast = Thresholds::of(&policies).expect("plain thresholds");
            let mut general = Seats::new(policies.clone());
            let seed = 40 + i as u64;
            assert_eq!(
                stats_of(&mut fast, at.len(), seed),
                stats_of(&mut general, at.len(), seed),
                "{at:?}"
            );
        }
        // Anything else is not a plain threshold.
        for spec in ["cards-4", "stay-at-25+freeze:most-cards", "ev"] {
            let p = vec![Policy::stay_at(25), Policy::parse(spec).unwrap()];
            assert!(Thresholds::of(&p).is_none(), "{spec}");
        }
    }
}
