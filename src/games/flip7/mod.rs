//! Flip 7: the complete game (`sim flip7`).
//!
//! - [`cards`]: card kinds, the deck, the draw and discard piles.
//! - [`rules`]: one game, generic over decisions, observers and the deck order.
//! - [`policies`]: Hit-or-Stay rules and action-card choices.
//! - [`stats`]: integer accumulators, the CSV fields and the console table.
//! - [`trace`]: the play-by-play.
//! - [`advise`], [`advise_trace`]: a position for `sim advise flip7`, by
//!   flags or from a JSON trace.
//! - [`search`]: Flip 7 through the engine's search interface (`ismcts:N`).
//! - [`optimal`], [`solve`], [`solve_command`]: the exact round optimum,
//!   the exact solo solver and `sim flip7 solve`.
//!
//! This file plugs the game into the engine: [`Flip7`] implements
//! [`Game`].

pub mod advise;
pub mod advise_trace;
pub mod cards;
pub mod game_equilibrium;
pub mod game_rounds;
pub mod game_solve;
pub mod game_trio;
pub mod max_win;
pub mod optimal;
pub mod play;
pub mod policies;
pub mod rules;
pub mod search;
pub mod solve;
pub mod solo;
pub mod solve_command;
pub mod stats;
pub mod trace;

use clap::{Args, FromArgMatches};

use self::cards::{Without, composition, decks_for};
use self::policies::{Policy, Seats, Thresholds, UserRules};
use self::rules::{MAX_PLAYERS, Rules, Table};
use self::stats::Flip7Stats;
use self::trace::Trace;
use crate::engine::args::whole_in;
use crate::engine::game::{Game, PolicySection, SeatResult, Variant};
use crate::engine::observe::{Observer, Silent, TraceWriter};
use crate::engine::rng::SimRng;
use crate::engine::strategies::seat_policies;
use crate::engine::runner::{PlaysGames, Simulation, play_games};

/// Flip 7, as the engine sees it.
pub struct Flip7;

/// The table options of `sim flip7`, `sim tournament flip7` and
/// `sim sweep flip7`. Serialized into a run's `table` (`without`: the card
/// kinds removed, a list).
#[derive(Args, Debug, Clone, serde::Serialize)]
pub struct Flip7Options {
    /// Players at the table (1 to 36; two decks are used above 18).
    #[arg(long, default_value_t = 4, value_parser = whole_in::<u16>(1..=MAX_PLAYERS as u16))]
    pub players: u16,

    /// Every game is a single round from a fresh, full deck.
    #[arg(long)]
    pub single_round: bool,

    /// Every round is dealt from the whole deck, shuffled afresh (as the
    /// published analyses and several simulators play): no discard pile
    /// carries over from round to round.
    #[arg(long)]
    pub fresh_deck: bool,

    /// House rule: remove card kinds from the deck. Comma-separated:
    /// freeze, flip-three, second-chance, actions (all three), modifiers.
    #[arg(long, value_name = "KINDS", value_parser = Without::parse)]
    #[serde(serialize_with = "without_kinds")]
    pub without: Option<Without>,
}

/// `--without` in a run's `table`: every kind removed, one word each
/// (`actions` written as its three kinds), none when not given.
fn without_kinds<S: serde::Serializer>(w: &Option<Without>, s: S) -> Result<S::Ok, S::Error> {
    let w = w.unwrap_or_default();
    let kinds: Vec<&str> = [
        (w.freeze, "freeze"),
        (w.flip_three, "flip-three"),
        (w.second_chance, "second-chance"),
        (w.modifiers, "modifiers"),
    ]
    .into_iter()
    .filter_map(|(on, k)| on.then_some(k))
    .collect();
    serde::Serialize::serialize(&kinds, s)
}

impl Game for Flip7 {
    const NAME: &'static str = "flip7";
    const ABOUT: &'static str = "Flip 7: press your luck to 200 points.";
    const DEFAULT_POLICY: &'static str = "stay-at-28";
    const PLAYERS: std::ops::RangeInclusive<usize> = 1..=MAX_PLAYERS;
    const POLICY_HELP: &'static str = "Policy for every seat, or a comma-separated list with one per seat. \
        Each is a spec (RULE[+hit-on-second-chance][+freeze:C][+flip-three:C][+second-chance:C][+target:SEAT]; \
        see --list-policies), \
        a strategy name (strategies/flip7-NAME.toml) or a .toml path.";
    const POLICY_INTRO: &'static str = "A policy is RULE[+freeze:CHOICE][+flip-three:CHOICE][+second-chance:CHOICE],\n\
        e.g. ev+flip-three:self-when-safe. A comma-separated list gives one per seat.\n\
        +hit-on-second-chance and +target:SEAT may be added too (below).\n";
    const CATALOGUE: &'static [PolicySection] = policies::CATALOGUE;
    const SWEEP_EXAMPLE: &'static str = "stay-at-{15..35..5}";

    type Options = Flip7Options;
    type Policy = Policy;
    type Sim = Flip7Sim;

    fn parse_policy(spec: &str) -> Result<Policy, String> {
        Policy::parse(spec)
    }

    fn cheats(policy: &Policy) -> bool {
        policy.cheats()
    }

    fn players(opts: &Flip7Options) -> usize {
        usize::from(opts.players)
    }

    fn variants(opts: &Flip7Options) -> Vec<Variant> {
        let mut v = Vec::new();
        if opts.single_round {
            v.push(Variant {
                file: "single-round".into(),
                words: "single rounds".into(),
            });
        }
        if opts.fresh_deck {
            v.push(Variant {
                file: "fresh-deck".into(),
                words: "a fresh deck every round".into(),
            });
        }
        if let Some(w) = opts.without.filter(|w| *w != Without::default()) {
            v.push(Variant {
                file: format!("without-{}", w.label()),
                words: format!("without {}", w.label()),
            });
        }
        v
    }

    fn simulation(opts: &Flip7Options, seats: &[Policy]) -> Result<Flip7Sim, String> {
        let without = opts.without.unwrap_or_default();
        let mut sim = Flip7Sim::new(Self::players(opts), seats, opts.single_round, without)?;
        sim.rules.fresh_deck = opts.fresh_deck;
        Ok(sim)
    }

    fn score_name(_: &Flip7Options) -> Option<&'static str> {
        Some("final score")
    }

    fn has_rounds(_: &Flip7Options) -> bool {
        true
    }

    fn seat_results(_: &Flip7Options, acc: &Flip7Stats) -> (u64, Vec<SeatResult>) {
        let seats = acc.seats.iter().map(|s| SeatResult {
            wins: s.wins,
            score_sum: s.final_score_sum as i64,
            rounds: acc.rounds,
            round_score_sum: s.final_score_sum,
            round_by_game: s.by_game,
            ..SeatResult::default()
        });
        (acc.games, seats.collect())
    }

    fn csv_columns(_: &Flip7Options) -> Vec<&'static str> {
        stats::CSV_COLUMNS.to_vec()
    }

    fn csv_fields(_: &Flip7Options, acc: &Flip7Stats) -> Vec<Vec<String>> {
        acc.rows().iter().map(stats::SeatRow::csv_fields).collect()
    }

    fn summary(_: &Flip7Options, acc: &Flip7Stats, names: &[String], out: &mut Vec<u8>) {
        stats::summary(acc, names, out);
    }

    const ADVISES: bool = true;
    const ADVISE_BY_FLAGS: bool = true;
    const ADVISE_MODEL: &'static str = advise::DEFAULT_MODEL;

    fn advise_flags(cmd: clap::Command) -> clap::Command {
        advise::AdviseFlags::augment_args(cmd)
    }

    fn advise_position(
        m: &clap::ArgMatches,
        model: Policy,
        trace: Option<&crate::engine::advise::TraceCut>,
    ) -> Result<Box<dyn crate::engine::advise::Position>, String> {
        let flags = advise::AdviseFlags::from_arg_matches(m).map_err(|e| e.to_string())?;
        let parts = match trace {
            Some(_) if flags.any() => {
                return Err("give the position either by --trace or by flags (--seat ...), not both".into());
            }
            Some(cut) => advise_trace::parts(cut)?,
            None => flags.parts()?,
        };
        Ok(Box::new(advise::Flip7Position::new(parts, model)?))
    }

    const PLAYS: bool = true;
    const PLAY_BOTS: &'static str = "max-win";

    fn play(
        session: &std::cell::RefCell<crate::engine::console::Session<Flip7>>,
        opts: &Flip7Options,
        seats: &[Policy],
        seed: u64,
    ) -> Result<String, String> {
        play::play(session, &Self::simulation(opts, seats)?, seed)
    }

    fn actions() -> Vec<clap::Command> {
        vec![solve_command::SolveArgs::augment_args(clap::Command::new("solve")).about(
            "Exact expected score of a solo round from a fresh deck: the optimal Hit/Stay rule, \
             every stay-at-N for N = 0..60, and the optimal decision for every set of numbers \
             held. Any deck (--without). With --game, the whole game solved in the \
             independent-rounds model (number cards): chances to win from every pair or triple \
             of totals, the best response to a strategy, the equilibrium.",
        )]
    }

    fn run_action(
        name: &str,
        args: &clap::ArgMatches,
    ) -> Result<Option<crate::engine::exhibit::Exhibit>, crate::engine::failure::Failure> {
        use crate::engine::failure::Failure;
        match name {
            "solve" => {
                let args = solve_command::SolveArgs::from_arg_matches(args)
                    .map_err(|e| Failure::Usage(e.to_string()))?;
                solve_command::run(&args)
            }
            _ => Err(format!("internal: flip7 has no action '{name}'").into()),
        }
    }
}

/// A configured Flip 7 simulation: rules and one policy per seat.
#[derive(Clone, Debug)]
pub struct Flip7Sim {
    /// The rules of every game.
    pub rules: Rules,
    /// `policies[s]` plays seat `s`.
    pub policies: Vec<Policy>,
}

impl Flip7Sim {
    /// A simulation of `players` players. `policies` holds one policy for
    /// every seat or exactly one per seat.
    pub fn new(
        players: usize,
        policies: &[Policy],
        single_round: bool,
        without: Without,
    ) -> Result<Flip7Sim, String> {
        let policies = seat_policies(policies, players)?;
        for p in &policies {
            if let Some(seat) = p.target.filter(|&s| usize::from(s) >= players) {
                return Err(format!(
                    "'{p}': seat {seat} is not at the table (seats are 0 to {} with {players} players)",
                    players - 1
                ));
            }
        }
        let rules = Rules {
            players,
            composition: composition(decks_for(players), without),
            single_round,
            fresh_deck: false,
        };
        Ok(Flip7Sim { rules, policies })
    }

}

impl Flip7Sim {
    /// Whether a deck shuffled card by card ([`Table::shuffle_lazily`])
    /// plays these seats' games card for card as a deck shuffled whole:
    /// not when a seat reads the pile's order (`peek`) or draws from the
    /// game's generator after the deal (`stay-at-random`).
    fn lazy_shuffle_keeps_games(&self) -> bool {
        !self.policies.iter().any(|p| p.cheats() || p.draws_per_game())
    }
}

impl Simulation for Flip7Sim {
    type Acc = Flip7Stats;

    fn new_acc(&self) -> Flip7Stats {
        let mut acc = Flip7Stats::new(self.rules.players);
        for (s, p) in self.policies.iter().enumerate() {
            acc.cheating_seats |= u64::from(p.cheats()) << s;
        }
        acc
    }

    fn play_batch(&self, rng: &mut SimRng, games: u64, acc: &mut Flip7Stats, trace: Option<&mut TraceWriter<'_>>) {
        let mut table = Table::new(self.rules);
        table.shuffle_lazily(trace.is_none() && self.lazy_shuffle_keeps_games());
        let solo = trace.is_none() && self.solo_rounds();
        let trace = trace.map(Trace::new);
        if let Some(mut seats) = Thresholds::of(&self.policies) {
            // Plain thresholds (the main job): the same games, without
            // dispatching on the rule at every decision.
            if solo {
                let tally = match (solo::NumbersOnly::of(&self.rules), self.policies[0].rule) {
                    (Some(rounds), policies::Rule::StayAt(n)) => rounds.play(&mut solo::StayAt(n), rng, games),
                    _ => table.play_solo_rounds(&mut seats, rng, games),
                };
                acc.add_solo(&tally);
            } else {
                play_games(&mut (&mut table, &mut seats), rng, games, acc, trace);
            }
        } else if let (Some(rule), None) = (policies::one_user_rule(&self.policies), &trace) {
            // One user policy's rule alone: the game loop compiled for it.
            rule.play_alone(&mut table, rng, games, acc);
        } else if let Some(mut seats) = UserRules::of(&self.policies) {
            // User policies' rules alone: each called straight from the loop.
            play_games(&mut (&mut table, &mut seats), rng, games, acc, trace);
        } else {
            let mut seats = self.seats(rng);
            if self.policies.iter().any(Policy::draws_per_game) {
                play_games(&mut DrawsPerGame(&mut table, &mut seats), rng, games, acc, trace);
            } else if solo {
                self.play_solo(&mut table, &mut seats, rng, games, acc);
            } else {
                play_games(&mut (&mut table, &mut seats), rng, games, acc, trace);
            }
        }
    }

    fn play_each(&self, rng: &mut SimRng, games: u64, each: &mut dyn FnMut(&Flip7Stats)) {
        let mut table = Table::new(self.rules);
        table.shuffle_lazily(self.lazy_shuffle_keeps_games());
        let mut one = self.new_acc();
        let mut seats = self.seats(rng);
        let per_game = self.policies.iter().any(Policy::draws_per_game);
        let solo = self.solo_rounds();
        for _ in 0..games {
            if per_game {
                play_games(&mut DrawsPerGame(&mut table, &mut seats), rng, 1, &mut one, None::<Silent>);
            } else if solo {
                self.play_solo(&mut table, &mut seats, rng, 1, &mut one);
            } else {
                play_games(&mut (&mut table, &mut seats), rng, 1, &mut one, None::<Silent>);
            }
            each(&one);
            one.clear();
        }
    }
}

impl Flip7Sim {
    /// The seats of a batch. Only runs with `rollout:K` draw from the
    /// batch stream here, so every other run keeps its games.
    fn seats(&self, rng: &mut SimRng) -> Seats {
        let mut seats = Seats::new(self.policies.clone());
        if self.policies.iter().any(Policy::is_random) {
            seats.seed(rand::Rng::next_u64(rng));
        }
        seats
    }

    /// Whether the games are solo single rounds that
    /// [`Table::play_solo_rounds`] plays as the table of several would:
    /// one seat, one round, a deck shuffled as it is drawn.
    fn solo_rounds(&self) -> bool {
        self.rules.players == 1 && self.rules.single_round && self.lazy_shuffle_keeps_games()
    }

    /// Solo single rounds of `seats`: by the numbers held where they alone
    /// decide ([`solo::AskedOnce`]), else at the table.
    fn play_solo(&self, table: &mut Table, seats: &mut Seats, rng: &mut SimRng, games: u64, acc: &mut Flip7Stats) {
        let tally = match solo::NumbersOnly::of(&self.rules) {
            Some(rounds) if solo::AskedOnce::fits(&self.policies, &self.rules) => {
                rounds.play(&mut solo::AskedOnce::new(seats, self.policies[0], &self.rules), rng, games)
            }
            _ => table.play_solo_rounds(seats, rng, games),
        };
        acc.add_solo(&tally);
    }
}

/// A table whose seats fix something for each game (`stay-at-random:LO..HI`
/// draws its threshold): the draw comes from the game's own stream right
/// after the deck is shuffled, so every game is dealt the same deck as with
/// any other line-up, and runs repeat on any number of threads. Line-ups
/// without such a policy never come here, and keep their games.
struct DrawsPerGame<'a>(&'a mut Table, &'a mut Seats);

impl PlaysGames<Table> for DrawsPerGame<'_> {
    fn play_one<O: Observer<Table>>(&mut self, rng: &mut SimRng, obs: &mut O) {
        self.0.new_game(rng);
        self.1.draw_game_values(rng);
        self.0.play_game(self.1, obs, rng);
    }
}

impl<C: rules::Chooser> PlaysGames<Table> for (&mut Table, &mut C) {
    #[inline(always)]
    fn play_one<O: Observer<Table>>(&mut self, rng: &mut SimRng, obs: &mut O) {
        self.0.new_game(rng);
        self.0.play_game(self.1, obs, rng);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::batch_rng;
    use crate::engine::runner::Accumulator;

    /// A deck shuffled card by card plays the same games as one shuffled
    /// whole: the same statistics, game for game, for single rounds alone,
    /// at four, and with a searching seat at two.
    #[test]
    fn a_deck_shuffled_card_by_card_plays_the_games_of_one_shuffled_whole() {
        let cases = [
            (1, true, "actions,modifiers", "stay-at-23", 20_000),
            (1, true, "freeze", "stay-at-25", 20_000),
            (4, true, "modifiers", "stay-at-25", 5_000),
            (2, true, "second-chance", "optimal-round,stay-at-20", 200),
        ];
        for (players, single_round, without, spec, games) in cases {
            let policies = Policy::parse_list(spec).unwrap();
            let without = cards::Without::parse(without).unwrap();
            let sim = Flip7Sim::new(players, &policies, single_round, without).unwrap();
            let stats = |lazy: bool| {
                let mut table = Table::new(sim.rules);
                table.shuffle_lazily(lazy);
                let mut seats = Seats::new(sim.policies.clone());
                let mut acc = sim.new_acc();
                let mut rng = batch_rng(17, 2);
                play_games(&mut (&mut table, &mut seats), &mut rng, games, &mut acc, None::<Silent>);
                acc
            };
            assert_eq!(stats(true), stats(false), "{players} players, {spec}");
        }
    }

    /// Solo single rounds played by their fast paths (the table's solo
    /// loop, and for number cards alone the loop of the numbers held) are
    /// the games of the whole table, deck shuffled whole, game for game.
    #[test]
    fn solo_rounds_by_their_fast_paths_are_the_tables_games() {
        let cases = [
            ("actions,modifiers", "stay-at-23", 30_000),
            ("actions,modifiers", "stay-at-0", 5_000),
            ("actions,modifiers", "stay-at-200", 5_000),
            ("actions,modifiers", "optimal-round", 20_000),
            ("actions,modifiers", "ev", 5_000),
            ("actions,modifiers", "cards-4", 5_000),
            ("actions,modifiers", "bust-prob:0.3", 5_000),
            ("actions,modifiers", "stay-at-21+freeze:most-cards", 5_000),
            ("", "stay-at-25", 30_000),
            ("", "ev", 5_000),
            ("modifiers", "stay-at-30", 10_000),
            ("freeze,second-chance", "stay-at-25", 10_000),
            ("", "optimal-round", 300),
        ];
        for (without, spec, games) in cases {
            let policies = Policy::parse_list(spec).unwrap();
            let without = cards::Without::parse(without).unwrap_or_default();
            let sim = Flip7Sim::new(1, &policies, true, without).unwrap();
            assert!(sim.solo_rounds(), "{spec}");
            let mut fast = sim.new_acc();
            sim.play_batch(&mut batch_rng(23, 4), games, &mut fast, None);
            let mut table = Table::new(sim.rules);
            let mut seats = Seats::new(sim.policies.clone());
            let mut whole = sim.new_acc();
            play_games(&mut (&mut table, &mut seats), &mut batch_rng(23, 4), games, &mut whole, None::<Silent>);
            assert_eq!(fast, whole, "{without:?} {spec}");
            let mut each = sim.new_acc();
            sim.play_each(&mut batch_rng(23, 4), games.min(2_000), &mut |one| each.merge(one));
            let mut first = sim.new_acc();
            sim.play_batch(&mut batch_rng(23, 4), games.min(2_000), &mut first, None);
            assert_eq!(each, first, "{without:?} {spec}, game by game");
        }
    }

    /// Plays `games` games with `chooser` and returns the statistics.
    fn stats_of<C: rules::Chooser>(chooser: &mut C, players: usize, seed: u64) -> Flip7Stats {
        let rules = Rules {
            players,
            composition: cards::composition(1, cards::Without::default()),
            single_round: false,
            fresh_deck: false,
        };
        let mut table = Table::new(rules);
        let mut acc = Flip7Stats::new(players);
        play_games(&mut (&mut table, chooser), &mut batch_rng(seed, 0), 2000, &mut acc, None::<Silent>);
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
