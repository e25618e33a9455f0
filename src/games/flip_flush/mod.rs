//! Flip-Flush: the complete game (`sim flip-flush`).
//!
//! - [`cards`]: cards, card sets, the deck and the bit-packed grid.
//! - [`rules`]: one game, generic over decisions, observers and the deck
//!   order; the [`rules::View`] a player decides from.
//! - [`policies`]: call rules and Place/Flip heuristics, parsed from specs.
//! - [`stats`]: integer accumulators and the CSV.
//! - [`trace`]: the play-by-play.
//!
//! One batch of the engine ([`crate::engine::runner::BATCH_GAMES`] games
//! played in order) is one table: with `--gambling` the pot a tied game
//! leaves carries over to the next game of the same batch, and every batch
//! starts with an empty pot. Results therefore depend on the seed and the
//! number of games only, never on `--threads`.

pub mod cards;
pub mod policies;
pub mod rules;
pub mod stats;
pub mod trace;

use std::io::Write;
use std::path::Path;

use clap::Args;

use self::policies::{Policy, Seats};
use self::rules::{MAX_PLAYERS, MEMORY_ONE, MIN_PLAYERS, Rules, Table};
use self::stats::FlipFlushStats;
use self::trace::Trace;
use crate::cli::{RunArgs, RunLabel, describe_sources, execute, seat_policies};
use crate::engine::rng::{SimRng, game_rng};
use crate::engine::runner::Simulation;
use crate::engine::strategies::{Library, Resolved};
use crate::tournament::Contest;

/// The game's name: subcommand and strategy-file prefix.
pub const GAME: &str = "flip-flush";

/// `sim flip-flush`: simulate games of Flip-Flush.
#[derive(Args, Debug, Clone)]
pub struct FlipFlushArgs {
    /// Policy for every seat, or a comma-separated list with one per seat.
    /// Each is a spec (e.g. call-at:0.6+flip-safe+place-build, or default),
    /// a strategy name (strategies/flip-flush-NAME.toml) or a .toml path.
    /// See docs/flip-flush.md.
    #[arg(long, value_name = "SPEC[,SPEC...]", default_value = "default", value_parser = parse_policies)]
    pub policy: PolicyList,

    #[command(flatten)]
    pub table: FlipFlushTable,

    #[command(flatten)]
    pub run: RunArgs,
}

/// The parsed `--policy` list: one resolved policy per item.
#[derive(Clone, Debug)]
pub struct PolicyList(pub Vec<Resolved<Policy>>);

fn parse_policies(text: &str) -> Result<PolicyList, String> {
    let dir = std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))?;
    parse_policy_list(text, &dir)
}

/// Resolves a comma-separated `--policy` list, strategy files looked up
/// under `dir`.
pub fn parse_policy_list(text: &str, dir: &Path) -> Result<PolicyList, String> {
    let library = Library::new(dir, None)?;
    text.split(',')
        .map(|word| library.resolve(GAME, word, Policy::parse))
        .collect::<Result<Vec<_>, _>>()
        .map(PolicyList)
}

fn parse_memory(text: &str) -> Result<u32, String> {
    policies::parse_probability(text.trim())
        .map_err(|_| "expected a probability from 0 to 1 (at most six decimals), e.g. 0.5".to_string())
}

/// A configured Flip-Flush simulation: rules and one policy per seat.
#[derive(Clone, Debug)]
pub struct FlipFlush {
    /// The rules of every game.
    pub rules: Rules,
    /// `policies[s]` plays seat `s`.
    pub policies: Vec<Policy>,
}

impl FlipFlush {
    /// A simulation of `rules.players` players; `policies` holds one policy
    /// for every seat or exactly one per seat.
    pub fn new(rules: Rules, policies: &[Policy]) -> Result<FlipFlush, String> {
        let players = rules.players;
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(format!("--players {players}: Flip-Flush is for 2 to 6 players"));
        }
        if rules.memory > MEMORY_ONE {
            return Err("--memory must be from 0 to 1".into());
        }
        let policies = seat_policies(policies, players)?;
        Ok(FlipFlush { rules, policies })
    }
}

impl Simulation for FlipFlush {
    type Acc = FlipFlushStats;

    fn new_acc(&self) -> FlipFlushStats {
        FlipFlushStats::new(self.rules.players, self.rules.gambling)
    }

    /// One batch is one table: the pot starts empty and carries over from
    /// game to game within the batch.
    fn play_batch(
        &self,
        rng: &mut SimRng,
        first_game: u64,
        games: u64,
        acc: &mut FlipFlushStats,
        trace: Option<&mut dyn Write>,
    ) {
        let mut table = Table::new(self.rules);
        let mut seats = Seats::new(self.policies.clone());
        match trace {
            None => {
                for _ in 0..games {
                    let mut rng = game_rng(rng);
                    table.new_game(&mut rng);
                    table.play_game(&mut seats, acc, &mut rng);
                }
            }
            Some(out) => {
                let mut obs = (Trace::new(out, first_game), &mut *acc);
                for _ in 0..games {
                    let mut rng = game_rng(rng);
                    table.new_game(&mut rng);
                    table.play_game(&mut seats, &mut obs, &mut rng);
                }
            }
        }
    }
}

/// A probability held in millionths, written shortest: `1`, `0.5`, `0.25`.
fn probability_label(p: u32) -> String {
    if p.is_multiple_of(MEMORY_ONE) {
        return (p / MEMORY_ONE).to_string();
    }
    format!("0.{:06}", p % MEMORY_ONE)
        .trim_end_matches('0')
        .to_string()
}

/// Runs `sim flip-flush` with parsed arguments.
pub fn run(args: &FlipFlushArgs) -> Result<(), String> {
    let table = &args.table;
    let players = table.players();
    let chosen: Vec<Policy> = args.policy.0.iter().map(|r| r.policy).collect();
    let sim = table.simulation(&chosen)?;
    let labels: Vec<String> = if args.policy.0.len() == 1 {
        vec![args.policy.0[0].label.clone(); players]
    } else {
        args.policy.0.iter().map(|r| r.label.clone()).collect()
    };
    let name_extras = table.name_extras();
    let mut describe_extras = Vec::new();
    if table.gambling {
        describe_extras.push("gambling (one table per batch of 1024 games)".to_string());
    }
    if table.memory != MEMORY_ONE {
        describe_extras.push(format!("memory {}", probability_label(table.memory)));
    }
    let label = RunLabel {
        game: GAME,
        policies: &labels,
        players,
        name_extras,
        describe_extras,
    };
    execute(&sim, &args.run, label, |acc, summary| {
        describe_sources(&args.policy.0, summary);
        let _ = summary_table(summary, acc, &labels);
        acc.csv(&labels)
    })
}

fn summary_table(w: &mut dyn Write, acc: &FlipFlushStats, names: &[String]) -> std::io::Result<()> {
    let width = names.iter().map(String::len).max().unwrap_or(6).clamp(6, 40);
    write!(
        w,
        "{:>4}  {:<width$} {:>25}  {:>6} {:>6} {:>6}  {:>6} {:>6}  {:>5} {:>5}",
        "seat", "policy", "win rate [95% CI]", "tie", "call", "last", "wrong", "missed", "turns", "calls"
    )?;
    if acc.gambling {
        write!(w, "  {:>24}", "net stakes/game [95% CI]")?;
    }
    writeln!(w)?;
    let pct = |k: u64| 100.0 * k as f64 / acc.games.max(1) as f64;
    for r in acc.rows(names) {
        write!(
            w,
            "{:>4}  {:<width$} {:>6.2}% [{:>6.2}, {:>6.2}]  {:>5.1}% {:>5.1}% {:>5.1}%  {:>6.3} {:>6.3}  {:>5.1} {:>5.2}",
            r.seat,
            r.policy,
            100.0 * r.win_rate,
            100.0 * r.win_ci.0,
            100.0 * r.win_ci.1,
            100.0 * r.tie_rate,
            pct(r.wins_by_call),
            pct(r.wins_last_standing),
            r.wrong_calls as f64 / acc.games.max(1) as f64,
            r.missed_flushes as f64 / acc.games.max(1) as f64,
            r.mean_turns,
            r.mean_calls,
        )?;
        if let Some((m, lo, hi)) = r.net {
            write!(w, "  {m:>+7.3} [{lo:>+7.3}, {hi:>+7.3}]")?;
        }
        writeln!(w)?;
    }
    writeln!(
        w,
        "tied games: {:.2}%, mean turns per game: {:.2} (wrong, missed: wrong calls and missed Flushes per game, knock-outs{})",
        pct(acc.tied_games),
        acc.turns as f64 / acc.games.max(1) as f64,
        if acc.gambling { " or stakes paid" } else { "" }
    )
}

/// The table options of `sim flip-flush`, `sim tournament flip-flush` and
/// `sim sweep flip-flush`.
#[derive(Args, Debug, Clone)]
pub struct FlipFlushTable {
    /// Players at the table (2 to 6).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(MIN_PLAYERS as i64..=MAX_PLAYERS as i64))]
    pub players: u16,

    /// Gambling variant: antes, a stake paid instead of a knock-out, the
    /// winner takes the pot, a tie leaves it for the next game of the table
    /// (in a tournament the score of a game is then its net stakes).
    #[arg(long)]
    pub gambling: bool,

    /// Chance (0 to 1) that a player remembers each card they place
    /// face-down, decided when it is placed.
    #[arg(long, value_name = "P", default_value = "1", value_parser = parse_memory)]
    pub memory: u32,
}

impl crate::tournament::Contest for FlipFlushTable {
    type Policy = Policy;
    type Sim = FlipFlush;

    fn game(&self) -> &'static str {
        GAME
    }
    fn players(&self) -> usize {
        usize::from(self.players)
    }
    fn name_extras(&self) -> Vec<String> {
        let mut v = Vec::new();
        if self.gambling {
            v.push("gambling".to_string());
        }
        if self.memory != MEMORY_ONE {
            v.push(format!("memory{}", probability_label(self.memory)));
        }
        v
    }
    /// Without gambling a game of Flip-Flush has no score, only a winner.
    fn score_name(&self) -> Option<&'static str> {
        self.gambling.then_some("net stakes")
    }
    /// Flip-Flush is not played in rounds.
    fn has_rounds(&self) -> bool {
        false
    }
    fn default_policy(&self) -> &'static str {
        "default"
    }
    fn resolve(&self, word: &str, dir: &Path) -> Result<Resolved<Policy>, String> {
        Library::new(dir, None)?.resolve(GAME, word, Policy::parse)
    }
    fn simulation(&self, seats: &[Policy]) -> Result<FlipFlush, String> {
        let rules = Rules {
            players: self.players(),
            gambling: self.gambling,
            memory: self.memory,
        };
        FlipFlush::new(rules, seats)
    }
    fn results(&self, acc: &FlipFlushStats) -> (u64, Vec<crate::tournament::SeatResult>) {
        let seats = acc.seats.iter().map(|s| crate::tournament::SeatResult {
            wins: s.wins,
            score_sum: s.net_sum,
            ..Default::default()
        });
        (acc.games, seats.collect())
    }
    fn csv_header(&self) -> Vec<String> {
        let mut h: Vec<String> = stats::CSV_HEADER.iter().map(|h| h.to_string()).collect();
        if self.gambling {
            h.extend(stats::CSV_GAMBLING.iter().map(|h| h.to_string()));
        }
        h
    }
    fn csv_rows(&self, acc: &FlipFlushStats, names: &[String]) -> Vec<Vec<String>> {
        acc.rows(names).iter().map(stats::SeatRow::csv_fields).collect()
    }
}
