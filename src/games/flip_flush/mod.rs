//! Flip-Flush: the complete game (`sim flip-flush`).
//!
//! - [`cards`]: cards, card sets, the deck and the bit-packed grid.
//! - [`rules`]: one game, generic over decisions, observers and the deck
//!   order; the [`rules::View`] a player decides from.
//! - [`policies`]: call rules and Place/Flip heuristics, parsed from specs.
//! - [`stats`]: integer accumulators, the CSV fields and the console table.
//! - [`trace`]: the play-by-play.
//! - [`advise`], [`advise_trace`]: a decision read from a JSON trace, for
//!   `sim advise flip-flush`.
//! - [`play`]: `sim play flip-flush`, a person against the bots.
//!
//! This file plugs the game into the engine: [`FlipFlush`] implements
//! [`Game`].
//!
//! One batch of the engine ([`crate::engine::runner::BATCH_GAMES`] games
//! played in order) is one table: with `--gambling` the pot a tied game
//! leaves carries over to the next game of the same batch, every batch
//! starts with an empty pot, and a pot left by a batch's last game is played
//! for until won ([`FlipFlushSim::play_on`]). Results therefore depend on
//! the seed and the number of games only, never on `--threads`.

pub mod advise;
pub mod advise_trace;
pub mod cards;
pub mod play;
pub mod policies;
pub mod rules;
pub mod search;
pub mod stats;
pub mod trace;
pub mod worlds;

use clap::Args;

use self::policies::{Policy, Seats};
use self::rules::{MAX_PLAYERS, MEMORY_ONE, MIN_PLAYERS, Rules, Table};
use self::stats::FlipFlushStats;
use self::trace::Trace;
use crate::engine::ismcts;
use crate::engine::args::whole_in;
use crate::engine::game::{Game, PolicyDoc, PolicySection, SeatResult, Variant};
use crate::engine::observe::{Observer, TraceWriter};
use crate::engine::rng::{SimRng, next_game_seed, seeded_game_rng};
use crate::engine::strategies::seat_policies;
use crate::engine::runner::{PlaysGames, Seated};

/// Flip-Flush, as the engine sees it.
pub struct FlipFlush;

/// The table options of `sim flip-flush`, `sim tournament flip-flush` and
/// `sim sweep flip-flush`. Serialized into a run's `table` (`memory` as a
/// number from 0 to 1).
#[derive(Args, Debug, Clone, serde::Serialize)]
pub struct FlipFlushOptions {
    /// Players at the table (2 to 6).
    #[arg(long, default_value_t = 4, value_parser = whole_in::<u16>(MIN_PLAYERS as u16..=MAX_PLAYERS as u16))]
    pub players: u16,

    /// Gambling variant: antes, a stake paid instead of a knock-out, the
    /// winner takes the pot, a tie leaves it for the next game of the table
    /// (in a tournament the score of a game is then its net stakes).
    #[arg(long)]
    pub gambling: bool,

    /// Chance (0 to 1) that a player remembers each card they place
    /// face-down, decided when it is placed.
    #[arg(long, value_name = "P", default_value = "1", value_parser = parse_memory)]
    #[serde(serialize_with = "memory_number")]
    pub memory: u32,
}

/// `--memory` (held in millionths) in a run's `table`: the probability as
/// a JSON number, `1` or `0.5`.
fn memory_number<S: serde::Serializer>(p: &u32, s: S) -> Result<S::Ok, S::Error> {
    if p.is_multiple_of(MEMORY_ONE) {
        s.serialize_u32(p / MEMORY_ONE)
    } else {
        s.serialize_f64(f64::from(*p) / f64::from(MEMORY_ONE))
    }
}

fn parse_memory(text: &str) -> Result<u32, String> {
    policies::parse_probability(text.trim(), "P")
        .map_err(|_| "expected a probability from 0 to 1 (at most six decimals), e.g. 0.5".to_string())
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

/// Every spec form, as `sim flip-flush --list-policies` prints them.
const CATALOGUE: &[PolicySection] = &[
    (
        "Call rules (at most one; used on every flip)",
        &[
            PolicyDoc {
                spec: "call-at:P",
                does: "call a Flush when the chance that this flip makes one (counted, or read with read:Q) is at least P (0 to 1)",
            },
            PolicyDoc {
                spec: "call-at:P/Q",
                does: "(default call-at:0.15/0.5) call-at:P at a table of three or more, call-at:Q at a table of two",
            },
            PolicyDoc {
                spec: "never-call",
                does: "never call",
            },
            PolicyDoc {
                spec: "sure-only",
                does: "call only when the flip makes a Flush for certain",
            },
        ],
    ),
    (
        "Model of the opponents (at most one; default read:0.1)",
        &[
            PolicyDoc {
                spec: "read:Q",
                does: "read a card placed on a hot cell: its placer put a demanded suit there with probability Q when it could choose (read:0 expects traps, read:1 attempts)",
            },
            PolicyDoc {
                spec: "worlds:K/Q",
                does: "read the whole history from K sampled worlds: each player's hand followed through its Places (a demanded suit on a hot cell with probability Q when it can choose, as read:Q; Q 0.1 if not given) and a card its placer left face-down on a hot cell through its turn is not a Flush it remembers",
            },
            PolicyDoc {
                spec: "count",
                does: "no model: every card the player has not seen is equally likely anywhere",
            },
        ],
    ),
    (
        "Steps (tried in the order written; the first that proposes a move plays it)",
        &[
            PolicyDoc {
                spec: "flip-likely",
                does: "flip the face-down cell most likely to make a Flush, if the call rule would call there",
            },
            PolicyDoc {
                spec: "flip-own",
                does: "flip a remembered card that makes a Flush, or progress an own known line safely",
            },
            PolicyDoc {
                spec: "flip-safe",
                does: "flip a cell that cannot make a Flush, leaving the fewest hot cells behind",
            },
            PolicyDoc {
                spec: "place-block",
                does: "cover a hot cell (two face-up cards of one suit in its line), most suspicious first",
            },
            PolicyDoc {
                spec: "place-build",
                does: "place the card and cell that most raise the lines the player knows",
            },
            PolicyDoc {
                spec: "place-random",
                does: "a random hand card on a random cell",
            },
            PolicyDoc {
                spec: "place-trap",
                does: "cover a hot cell with a card of a suit it does not demand: a block, and a trap for a reader who calls",
            },
            PolicyDoc {
                spec: "place-hot",
                does: "put a card of the demanded suit on a hot cell, to flip and call it next turn",
            },
        ],
    ),
    (
        "Search (instead of the parts above)",
        &[
            ismcts::DOC,
            PolicyDoc {
                spec: "ismcts:N+playout:SPEC",
                does: "every seat plays the policy SPEC (a whole spec, the rest of the text) below the search tree (default: default)",
            },
        ],
    ),
    (
        "Names",
        &[PolicyDoc {
            spec: "default",
            does: policies::DEFAULT_SPEC,
        }],
    ),
];

impl Game for FlipFlush {
    const NAME: &'static str = "flip-flush";
    const ABOUT: &'static str = "Flip-Flush: place and flip on a 3x3 grid; call the Flush.";
    const DEFAULT_POLICY: &'static str = "default";
    const PLAYERS: std::ops::RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const POLICY_HELP: &'static str = "Policy for every seat, or a comma-separated list with one per seat. \
        Each is a spec (e.g. call-at:0.6+flip-safe+place-build, or default; see --list-policies), \
        a strategy name (strategies/flip-flush-NAME.toml) or a .toml path.";
    const POLICY_INTRO: &'static str = "A policy is default, or parts joined by +: at most one call rule, at most one model of\n\
        the opponents and steps tried in order, e.g. call-at:0.3+read:0+flip-likely+place-trap+flip-safe.\n\
        Parts not given are the default's. A comma-separated list gives one per seat.\n";
    const CATALOGUE: &'static [PolicySection] = CATALOGUE;
    const SWEEP_EXAMPLE: &'static str = "call-at:{0.1..0.9..0.1}";

    type Options = FlipFlushOptions;
    type Policy = Policy;
    type Sim = FlipFlushSim;

    fn parse_policy(spec: &str) -> Result<Policy, String> {
        Policy::parse(spec)
    }

    fn players(opts: &FlipFlushOptions) -> usize {
        usize::from(opts.players)
    }

    fn variants(opts: &FlipFlushOptions) -> Vec<Variant> {
        let mut v = Vec::new();
        if opts.gambling {
            v.push(Variant {
                file: "gambling".into(),
                words: "gambling (one table per batch of 1024 games)".into(),
            });
        }
        if opts.memory != MEMORY_ONE {
            v.push(Variant {
                file: format!("memory{}", probability_label(opts.memory)),
                words: format!("memory {}", probability_label(opts.memory)),
            });
        }
        v
    }

    fn simulation(opts: &FlipFlushOptions, seats: &[Policy]) -> Result<FlipFlushSim, String> {
        let rules = Rules {
            players: Self::players(opts),
            gambling: opts.gambling,
            memory: opts.memory,
        };
        FlipFlushSim::new(rules, seats)
    }

    /// Without gambling a game of Flip-Flush has no score, only a winner.
    fn score_name(opts: &FlipFlushOptions) -> Option<&'static str> {
        opts.gambling.then_some("net stakes")
    }

    /// Flip-Flush is not played in rounds.
    fn has_rounds(_: &FlipFlushOptions) -> bool {
        false
    }

    /// The gambling pot a tied game leaves carries over to the next one.
    fn carries_over(_: &FlipFlushOptions, acc: &FlipFlushStats) -> bool {
        acc.pot_games > 0
    }

    fn seat_results(_: &FlipFlushOptions, acc: &FlipFlushStats) -> (u64, Vec<SeatResult>) {
        let seats = acc.seats.iter().map(|s| SeatResult {
            wins: s.wins,
            score_sum: s.net_sum,
            ..Default::default()
        });
        (acc.games, seats.collect())
    }

    fn csv_columns(opts: &FlipFlushOptions) -> Vec<&'static str> {
        let mut h = stats::CSV_COLUMNS.to_vec();
        if opts.gambling {
            h.extend(stats::CSV_GAMBLING);
        }
        h
    }

    fn csv_fields(_: &FlipFlushOptions, acc: &FlipFlushStats) -> Vec<Vec<String>> {
        acc.rows().iter().map(stats::SeatRow::csv_fields).collect()
    }

    fn summary(_: &FlipFlushOptions, acc: &FlipFlushStats, names: &[String], out: &mut Vec<u8>) {
        stats::summary(acc, names, out);
    }

    const ADVISES: bool = true;

    /// A decision read from a JSON trace (`--trace FILE --at LINE`), every
    /// seat playing `model` (the default policy) after the move.
    fn advise_position(
        _m: &clap::ArgMatches,
        model: Policy,
        trace: Option<&crate::engine::advise::TraceCut>,
    ) -> Result<Box<dyn crate::engine::advise::Position>, String> {
        let cut = trace.ok_or("no position: give --trace FILE")?;
        let read = advise_trace::read(cut)?;
        Ok(Box::new(advise::FlipFlushPosition::new(read, model)))
    }

    const PLAYS: bool = true;
    /// The search at 1,000 iterations: first of every shipped strategy in
    /// the two-player tournament of `docs/flip-flush.md`, at about 10 ms a
    /// decision.
    const PLAY_BOTS: &'static str = "ismcts:1000";

    fn play(
        session: &std::cell::RefCell<crate::engine::console::Session<FlipFlush>>,
        opts: &FlipFlushOptions,
        seats: &[Policy],
        seed: u64,
    ) -> Result<String, String> {
        play::play(session, &Self::simulation(opts, seats)?, seed)
    }
}

/// A configured Flip-Flush simulation: rules and one policy per seat.
#[derive(Clone, Debug)]
pub struct FlipFlushSim {
    /// The rules of every game.
    pub rules: Rules,
    /// `policies[s]` plays seat `s`.
    pub policies: Vec<Policy>,
}

impl FlipFlushSim {
    /// A simulation of `rules.players` players; `policies` holds one policy
    /// for every seat or exactly one per seat.
    pub fn new(rules: Rules, policies: &[Policy]) -> Result<FlipFlushSim, String> {
        let players = rules.players;
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(format!("--players {players}: Flip-Flush is for 2 to 6 players"));
        }
        if rules.memory > MEMORY_ONE {
            return Err("--memory must be from 0 to 1".into());
        }
        let policies = seat_policies(policies, players)?;
        Ok(FlipFlushSim { rules, policies })
    }
}

impl Seated for FlipFlushSim {
    type Table = Table;
    type At = (Table, Seats);
    type Acc = FlipFlushStats;
    type Trace<'a, 'w: 'a> = Trace<'a, 'w>;

    fn acc(&self) -> FlipFlushStats {
        FlipFlushStats::new(self.rules.players, self.rules.gambling)
    }

    /// One batch is one table: the pot starts empty and carries over from
    /// game to game within the batch.
    fn sit(&self) -> (Table, Seats) {
        (Table::new(self.rules), Seats::new(self.policies.clone()))
    }

    fn trace<'a, 'w>(w: &'a mut TraceWriter<'w>) -> Trace<'a, 'w> {
        Trace::new(w)
    }

    /// After the batch's last game the table plays on until the pot is
    /// won ([`FlipFlushSim::play_on`]); the stakes of settling it belong
    /// to the last game.
    fn after_last_game(
        &self,
        at: &mut (Table, Seats),
        rng: &mut SimRng,
        acc: &mut FlipFlushStats,
        mut trace: Option<&mut Trace<'_, '_>>,
    ) {
        let settled = self.play_on(&mut at.0, &mut at.1, rng, acc, trace.as_deref_mut());
        if let (Some(settled), Some(trace)) = (settled, trace) {
            trace.play_on(&settled);
        }
    }

    fn clear(&self, acc: &mut FlipFlushStats) {
        acc.clear();
    }
}

/// Gambling: at most this many games are played on after a batch's last
/// game to settle the pot it left.
pub const PLAY_ON_CAP: u32 = 256;

/// How the pot left after a batch's last game was settled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settled {
    /// The pot after the last game.
    pub pot: u32,
    /// Games played on.
    pub games: u32,
    /// Who won it (None: returned to those who paid it in).
    pub winner: Option<usize>,
    /// Stakes each seat won or lost in the games played on (the return
    /// included).
    pub net: Vec<i64>,
}

impl FlipFlushSim {
    /// Gambling: the rule keeps a tied game's pot for the next game, so a
    /// table whose last game left a pot plays on, game after game (each
    /// dealt from the batch's stream like any other), until someone wins
    /// it; those games settle the pot: their stakes count, the games do not
    /// ([`FlipFlushStats::played_on`]). After [`PLAY_ON_CAP`] games without
    /// a winner (policies that never call) the pot goes back to those who
    /// paid it in. `None` when there was nothing to settle. A `trace`
    /// writes every game played on, each with its seed, as it writes the
    /// counted games (numbered as the batch's last game, and marked as
    /// played on).
    pub fn play_on(
        &self,
        table: &mut Table,
        seats: &mut Seats,
        rng: &mut SimRng,
        acc: &mut FlipFlushStats,
        mut trace: Option<&mut Trace<'_, '_>>,
    ) -> Option<Settled> {
        if !self.rules.gambling || table.pot() == 0 {
            return None;
        }
        let n = self.rules.players;
        let mut settled = Settled {
            pot: table.pot(),
            games: 0,
            winner: None,
            net: vec![0; n],
        };
        let mut on = PlayedOn(acc);
        while table.pot() > 0 && settled.games < PLAY_ON_CAP {
            // The same generator as `game_rng`, its seed told to the trace.
            let seed = next_game_seed(rng);
            let mut rng = seeded_game_rng(seed);
            table.new_game(&mut rng);
            settled.games += 1;
            let end = match trace.as_deref_mut() {
                Some(t) => {
                    t.begin_played_on(settled.games, seed);
                    let end = table.play_game(seats, &mut (&mut *t, &mut on), &mut rng);
                    t.end_played_on();
                    end
                }
                None => table.play_game(seats, &mut on, &mut rng),
            };
            for (s, v) in settled.net.iter_mut().enumerate() {
                *v += i64::from(table.net(s));
            }
            if let rules::End::Call(w) = end {
                settled.winner = Some(w);
            }
        }
        if table.pot() > 0 {
            let back = table.return_pot();
            on.0.pot_returned(&back[..n]);
            for (v, b) in settled.net.iter_mut().zip(back) {
                *v += i64::from(b);
            }
        }
        Some(settled)
    }
}

/// The statistics' view of a game played on: only its stakes count.
struct PlayedOn<'a>(&'a mut FlipFlushStats);

impl crate::engine::observe::Observer<Table> for PlayedOn<'_> {
    const EVENTS: bool = false;

    fn game_end(&mut self, t: &Table, _end: rules::End) {
        self.0.played_on(t);
    }
}

impl PlaysGames<Table> for (Table, Seats) {
    #[inline]
    fn play_one<O: Observer<Table>>(&mut self, rng: &mut SimRng, obs: &mut O) {
        self.0.new_game(rng);
        self.0.play_game(&mut self.1, obs, rng);
    }
}
