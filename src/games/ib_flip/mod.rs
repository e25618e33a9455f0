//! IB-Flip: the complete game (`sim ib-flip`), a shedding game of the
//! Shithead / Palace family with card powers, flips and a finishing order.
//!
//! - [`advise`]: a position at a traced decision, for `sim advise ib-flip`.
//! - [`cards`]: cards, card sets, the game order and the play-on table.
//! - [`rules`]: one game, generic over decisions, observers and the random
//!   source; the [`rules::View`] a player decides from.
//! - [`play`]: `sim play ib-flip`, a person against the bots.
//! - [`policies`]: the play rules and fixing choices, parsed from specs.
//! - [`search`]: the game through the engine's search interface (`ismcts:N`).
//! - [`stats`]: integer accumulators, the CSV fields and the console table.
//! - [`trace`]: the play-by-play.
//!
//! This file plugs the game into the engine: [`IbFlip`] implements
//! [`Game`]. Every game draws its own generator from the batch's
//! ([`game_rng`](crate::engine::rng::game_rng)), so results depend on the seed and the number of games
//! only, never on `--threads`.

pub mod advise;
pub mod cards;
pub mod play;
pub mod policies;
pub mod rules;
pub mod search;
pub mod stats;
pub mod trace;

use clap::Args;

use self::cards::{Powers, RANK_NAMES, SETS_OFF, SPECIAL_OFF, parse_rank};
use self::policies::{Policy, Seats};
use self::rules::{DEFAULT_MOVE_CAP, MAX_PLAYERS, MIN_PLAYERS, Rules, Table};
use self::stats::IbFlipStats;
use self::trace::Trace;
use crate::engine::args::whole_in;
use crate::engine::game::{Game, PolicyDoc, PolicySection, SeatResult, Variant};
use crate::engine::ismcts;
use crate::engine::observe::{Observer, TraceWriter};
use crate::engine::rng::SimRng;
use crate::engine::strategies::seat_policies;
use crate::engine::runner::{PlaysGames, Seated};

/// IB-Flip, as the engine sees it.
pub struct IbFlip;

/// The table options of `sim ib-flip`, `sim tournament ib-flip` and
/// `sim sweep ib-flip`.
#[derive(Args, Debug, Clone, serde::Serialize)]
pub struct IbFlipOptions {
    /// Players at the table (2 to 5).
    #[arg(long, default_value_t = 4, value_parser = whole_in::<u16>(MIN_PLAYERS as u16..=MAX_PLAYERS as u16))]
    pub players: u16,

    /// Card powers to switch off, comma-separated: 2,3,4,5,6,7,8,9,10,A
    /// (the card then plays as an ordinary card at its place in the game
    /// order), sets (no four-of-a-kind flips), special (sets of 3s, 4s, 8s
    /// and 9s flip like any other set). E.g. --without 4,8,9.
    #[arg(long, value_name = "POWERS", value_parser = parse_without)]
    #[serde(serialize_with = "without_powers")]
    pub without: Option<Powers>,

    /// A player who can play may pick up the live cards instead (no
    /// shipped policy does; the option exists for policies that might).
    #[arg(long)]
    pub voluntary_pickup: bool,

    /// Moves after which a game is stopped as a stalemate.
    #[arg(long, value_name = "MOVES", default_value_t = DEFAULT_MOVE_CAP, value_parser = whole_in::<u32>(1..=100_000_000))]
    pub move_cap: u32,
}

/// Parses `--without`: ranks with a power, `sets`, `special`.
pub fn parse_without(text: &str) -> Result<Powers, String> {
    let mut off: Powers = 0;
    for part in text.split(',').map(str::trim) {
        let bit = match part.to_ascii_lowercase().as_str() {
            "sets" => SETS_OFF,
            "special" => SPECIAL_OFF,
            _ => match parse_rank(part) {
                Some(r) if !matches!(RANK_NAMES[usize::from(r)], "J" | "Q" | "K") => 1 << r,
                _ => {
                    return Err(format!(
                        "'{part}' is not a power; give a comma-separated list of 2,3,4,5,6,7,8,9,10,A,sets,special, e.g. 4,8,9"
                    ));
                }
            },
        };
        off |= bit;
    }
    Ok(off)
}

/// `--without` in a run's `table`: the powers switched off, a list (empty
/// when not given).
fn without_powers<S: serde::Serializer>(off: &Option<Powers>, s: S) -> Result<S::Ok, S::Error> {
    let label = without_label(off.unwrap_or(0));
    let words: Vec<&str> = label.split(',').filter(|w| !w.is_empty()).collect();
    serde::Serialize::serialize(&words, s)
}

/// The powers switched off, in words and for file names.
fn without_label(off: Powers) -> String {
    let mut v: Vec<&str> = (0..13)
        .filter(|&r| off & (1 << r) != 0)
        .map(|r| RANK_NAMES[r])
        .collect();
    if off & SETS_OFF != 0 {
        v.push("sets");
    }
    if off & SPECIAL_OFF != 0 {
        v.push("special");
    }
    v.join(",")
}

const CATALOGUE: &[PolicySection] = &[
    (
        "Play rules (exactly one)",
        &[
            PolicyDoc {
                spec: "lowest",
                does: "the lowest playable rank in the game order, every copy; always reveals when stuck",
            },
            PolicyDoc {
                spec: "random",
                does: "a random playable rank and number of cards",
            },
            PolicyDoc {
                spec: "saver",
                does: "lowest, but keeps 2s, 10s, 4s, 5s and 7s for when stuck",
            },
            PolicyDoc {
                spec: "saver+burn-at:T",
                does: "saver that burns with a 10 (or completes a set) once the live pile has T cards or more",
            },
            PolicyDoc {
                spec: "attacker",
                does: "8s, 4s, 7s and 3s aimed at the next player when they are closest to finishing; else saver",
            },
            PolicyDoc {
                spec: "finisher",
                does: "(default) lowest, planning its last cards so that it never finishes illegally when it can avoid it",
            },
            PolicyDoc {
                spec: "counter",
                does: "perfect memory: the rank with the best exact chance that the next player cannot answer",
            },
            PolicyDoc {
                spec: "rollout:K",
                does: "K determinized playouts per playable rank (worlds consistent with what it knows); best mean place",
            },
            ismcts::DOC,
        ],
    ),
    (
        "+playout:RULE (added to ismcts:N)",
        &[PolicyDoc {
            spec: "playout:RULE",
            does: "every seat plays RULE below the search tree (random, lowest, saver, attacker, finisher or counter; \
                   saver takes +burn-at:T; default finisher)",
        }],
    ),
    (
        "Fixing (+fix:CHOICE, with any play rule)",
        &[
            PolicyDoc {
                spec: "fix:strong",
                does: "(default) the three strongest cards face up",
            },
            PolicyDoc {
                spec: "fix:keep",
                does: "the face-up cards as dealt",
            },
            PolicyDoc {
                spec: "fix:stack",
                does: "the three strongest face up, hand cards of those ranks stacked on them, drawing back to three",
            },
        ],
    ),
];

impl Game for IbFlip {
    const NAME: &'static str = "ib-flip";
    const ABOUT: &'static str = "IB-Flip: shed your cards through powers and flips; finish first, and legally.";
    const DEFAULT_POLICY: &'static str = "finisher";
    const PLAYERS: std::ops::RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const POLICY_HELP: &'static str = "Policy for every seat, or a comma-separated list with one per seat. \
        Each is a spec (e.g. lowest, saver+burn-at:8, counter+fix:stack; see --list-policies), \
        a strategy name (strategies/ib-flip-NAME.toml) or a .toml path.";
    const POLICY_INTRO: &'static str = "A policy is one play rule, optionally joined by + to a fixing choice,\n\
        e.g. saver+burn-at:8+fix:stack. A comma-separated list gives one per seat.\n";
    const CATALOGUE: &'static [PolicySection] = CATALOGUE;
    const SWEEP_EXAMPLE: &'static str = "saver+burn-at:{4..16..4}";

    type Options = IbFlipOptions;
    type Policy = Policy;
    type Sim = IbFlipSim;

    fn parse_policy(spec: &str) -> Result<Policy, String> {
        Policy::parse(spec)
    }

    fn players(opts: &IbFlipOptions) -> usize {
        usize::from(opts.players)
    }

    fn variants(opts: &IbFlipOptions) -> Vec<Variant> {
        let mut v = Vec::new();
        if let Some(off) = opts.without.filter(|&o| o != 0) {
            let label = without_label(off);
            v.push(Variant {
                file: format!("without-{}", label.replace(',', "-")),
                words: format!("without the powers {label}"),
            });
        }
        if opts.voluntary_pickup {
            v.push(Variant {
                file: "voluntary-pickup".into(),
                words: "voluntary pickup".into(),
            });
        }
        if opts.move_cap != DEFAULT_MOVE_CAP {
            v.push(Variant {
                file: format!("cap{}", opts.move_cap),
                words: format!("move cap {}", opts.move_cap),
            });
        }
        v
    }

    fn simulation(opts: &IbFlipOptions, seats: &[Policy]) -> Result<IbFlipSim, String> {
        let rules = Rules {
            players: Self::players(opts),
            off: opts.without.unwrap_or(0),
            voluntary_pickup: opts.voluntary_pickup,
            move_cap: opts.move_cap,
        };
        IbFlipSim::new(rules, seats)
    }

    /// IB-Flip has no score: a game ends in a finishing order, which
    /// tournaments report as the loss rate and the mean place.
    fn score_name(_: &IbFlipOptions) -> Option<&'static str> {
        None
    }

    /// IB-Flip is not played in rounds.
    fn has_rounds(_: &IbFlipOptions) -> bool {
        false
    }

    /// Every game is played to the full finishing order.
    fn has_places(_: &IbFlipOptions) -> bool {
        true
    }

    fn seat_results(_: &IbFlipOptions, acc: &IbFlipStats) -> (u64, Vec<SeatResult>) {
        let seats = acc.seats.iter().map(|s| SeatResult {
            wins: s.wins,
            losses: s.losses,
            place_sum: s.place_sum,
            placed: acc.complete(),
            ..Default::default()
        });
        (acc.games, seats.collect())
    }

    fn csv_columns(opts: &IbFlipOptions) -> Vec<&'static str> {
        stats::csv_columns(Self::players(opts))
    }

    fn csv_fields(_: &IbFlipOptions, acc: &IbFlipStats) -> Vec<Vec<String>> {
        (0..acc.seats.len()).map(|s| acc.csv_fields(s)).collect()
    }

    fn run_notes(sim: &IbFlipSim) -> serde_json::Map<String, serde_json::Value> {
        trace::run_notes(sim)
    }

    fn summary(_: &IbFlipOptions, acc: &IbFlipStats, names: &[String], out: &mut Vec<u8>) {
        stats::summary(acc, names, out);
    }

    const ADVISES: bool = true;

    /// Ten times the engine's default: IB-Flip's playouts are cheap (about
    /// a million a second on two cores), and its turns often offer moves
    /// within half a point of each other (one card of a rank or two), which
    /// 100K playouts cannot tell apart where a longer search can.
    const ADVISE_BUDGET: &'static str = "1M";

    const PLAYS: bool = true;

    /// `ismcts:1000`: the strongest bot measured (it beats every shipped
    /// rule of thumb, see docs/ib-flip.md) that still answers at once,
    /// about 6 ms a decision on one core.
    const PLAY_BOTS: &'static str = "ismcts:1000";

    fn play(
        session: &std::cell::RefCell<crate::engine::console::Session<IbFlip>>,
        opts: &IbFlipOptions,
        seats: &[Policy],
        seed: u64,
    ) -> Result<String, String> {
        play::play(session, &Self::simulation(opts, seats)?, seed)
    }

    /// IB-Flip positions are read from a JSON trace only: the game's own
    /// rules engine replays it up to the decision.
    fn advise_position(
        _m: &clap::ArgMatches,
        model: Policy,
        trace: Option<&crate::engine::advise::TraceCut>,
    ) -> Result<Box<dyn crate::engine::advise::Position>, String> {
        let cut = trace.ok_or("no position: give --trace FILE")?;
        Ok(Box::new(advise::IbFlipPosition::from_trace(cut, model)?))
    }
}

/// A configured IB-Flip simulation: rules and one policy per seat.
#[derive(Clone, Debug)]
pub struct IbFlipSim {
    /// The rules of every game.
    pub rules: Rules,
    /// `policies[s]` plays seat `s`.
    pub policies: Vec<Policy>,
}

impl IbFlipSim {
    /// A simulation of `rules.players` players; `policies` holds one policy
    /// for every seat or exactly one per seat.
    pub fn new(rules: Rules, policies: &[Policy]) -> Result<IbFlipSim, String> {
        let players = rules.players;
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(format!("--players {players}: IB-Flip is for 2 to 5 players"));
        }
        let policies = seat_policies(policies, players)?;
        Ok(IbFlipSim { rules, policies })
    }
}

impl Seated for IbFlipSim {
    type Table = Table;
    type At = (Table, Seats);
    type Acc = IbFlipStats;
    type Trace<'a, 'w: 'a> = Trace<'a, 'w>;

    fn acc(&self) -> IbFlipStats {
        IbFlipStats::new(self.rules.players)
    }

    fn sit(&self) -> (Table, Seats) {
        (Table::new(self.rules), Seats::new(self.policies.clone()))
    }

    fn trace<'a, 'w>(w: &'a mut TraceWriter<'w>) -> Trace<'a, 'w> {
        Trace::new(w)
    }
}

impl PlaysGames<Table> for (Table, Seats) {
    #[inline]
    fn play_one<O: Observer<Table>>(&mut self, rng: &mut SimRng, obs: &mut O) {
        self.0.new_game(rng);
        self.0.play_game(&mut self.1, obs, rng);
    }
}
