//! Classic Flip: the complete game (`sim classic-flip`): collect five of a
//! kind, call "Flip!", bluff over the hand limit, challenge, and use eight
//! action cards.
//!
//! - [`cards`]: cards, card sets, the deck and the scoring of a hand.
//! - [`rules`]: one game, generic over decisions, observers and the random
//!   source; the [`rules::View`] a player decides from.
//! - [`policies`]: the policies, parsed from composable specs.
//! - [`rollout`] and [`search`]: `rollout:K` and `ismcts:N`, which decide
//!   by playing the game on in sampled worlds.
//! - [`stats`]: integer accumulators, the CSV fields and the console table.
//! - [`trace`]: the play-by-play.
//! - [`play`]: `sim play classic-flip`, a person against the bots.
//! - [`score_command`]: `sim classic-flip score CARDS...`.
//! - [`advise`] and [`advise_trace`]: `sim advise classic-flip`, a decision
//!   read from a JSON trace and its moves played out.
//!
//! This file plugs the game into the engine: [`ClassicFlip`] implements
//! [`Game`]. Every game draws its own generator from the batch's
//! ([`game_rng`](crate::engine::rng::game_rng)), so results depend on the seed and the number of games
//! only, never on `--threads`.

pub mod advise;
pub mod advise_trace;
pub mod cards;
pub mod counter;
pub mod play;
pub mod policies;
pub mod rollout;
pub mod rules;
pub mod score_command;
pub mod search;
pub mod stats;
pub mod trace;

use clap::{Args, FromArgMatches};

use self::cards::{ACTIONS, DEFAULT_GOLD, Deck, Func, RANK_NAMES, parse_rank};
use self::policies::{Policy, Seats};
use self::rules::{DEFAULT_ROUND_CAP, MAX_PLAYERS, MIN_PLAYERS, Rules, Table};
use self::stats::ClassicStats;
use self::trace::Trace;
use crate::engine::args::whole_in;
use crate::engine::game::{Game, PolicyDoc, PolicySection, SeatResult, Variant};
use crate::engine::ismcts;
use crate::engine::observe::{Observer, TraceWriter};
use crate::engine::rng::SimRng;
use crate::engine::strategies::seat_policies;
use crate::engine::runner::{PlaysGames, Seated};

/// Classic Flip, as the engine sees it.
pub struct ClassicFlip;

/// What `--without` switches off: action functions, and action cards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Without {
    /// Functions off (mask of [`Func::bit`]).
    pub funcs: u8,
    /// Action cards removed from the deck (bit per action index).
    pub cards: u8,
}

impl Without {
    /// Parses a comma-separated list (see the option's help).
    pub fn parse(text: &str) -> Result<Without, String> {
        let mut w = Without::default();
        for part in text.split(',').map(str::trim) {
            let key = part.to_ascii_lowercase();
            if let Some(f) = Func::ALL.iter().find(|f| f.key() == key || f.key().replace('_', "-") == key) {
                w.funcs |= f.bit();
                continue;
            }
            match key.as_str() {
                "2x" => w.cards |= 1 << cards::TWO_X,
                "7-10" | "7>>>10" => w.cards |= 1 << cards::SEVEN_TEN,
                "any" => w.cards |= 1 << cards::ANY,
                "actions" => {
                    w.cards = 0xFF;
                    w.funcs = 0xFF;
                }
                _ => {
                    return Err(format!(
                        "'{part}' is not an action; give a comma-separated list of draw, take, steal, block, swap, reboot, chaos, plus-turn, 2x, 7-10, any, actions (e.g. take,steal)"
                    ));
                }
            }
        }
        // A dual card with both functions off leaves the deck.
        for (i, pair) in [
            (cards::DRAW_TAKE, [Func::Draw, Func::Take]),
            (cards::DRAW_STEAL, [Func::Draw, Func::Steal]),
            (cards::DRAW_BLOCK, [Func::Draw, Func::Block]),
            (cards::SWAP_REBOOT, [Func::Swap, Func::Reboot]),
            (cards::CHAOS_TURN, [Func::Chaos, Func::PlusTurn]),
        ] {
            if pair.iter().all(|f| w.funcs & f.bit() != 0) {
                w.cards |= 1 << i;
            }
        }
        Ok(w)
    }

    /// In words and for file names: `take,steal,2x`.
    pub fn label(&self) -> String {
        let mut v: Vec<String> = Func::ALL
            .iter()
            .filter(|f| self.funcs & f.bit() != 0)
            .map(|f| f.key().replace('_', "-"))
            .collect();
        for (i, k) in [(cards::TWO_X, "2x"), (cards::SEVEN_TEN, "7-10"), (cards::ANY, "any")] {
            if self.cards & (1 << i) != 0 {
                v.push(k.into());
            }
        }
        v.join(",")
    }
}

/// Parses `--gold-ranks`: the ranks of the seven gold cards (C1), seven
/// distinct ranks, comma-separated.
pub fn parse_gold(text: &str) -> Result<u16, String> {
    const ACCEPTED: &str = "give seven distinct ranks from 2,3,4,5,6,7,8,9,10,J,Q,K,A, comma-separated \
                            (e.g. 8,9,10,J,Q,K,A)";
    let mut m = 0u16;
    for part in text.split(',').map(str::trim) {
        match parse_rank(part) {
            Some(r) if m & (1 << r) == 0 => m |= 1 << r,
            _ => return Err(format!("'{part}' is not a new rank; {ACCEPTED}")),
        }
    }
    let n = m.count_ones();
    if n != 7 {
        return Err(format!(
            "{n} ranks, but a deck has seven gold cards (C1), one of each gold rank; {ACCEPTED}"
        ));
    }
    Ok(m)
}

fn gold_label(m: u16) -> String {
    (0..13)
        .filter(|r| m & (1 << r) != 0)
        .map(|r| RANK_NAMES[r])
        .collect::<Vec<_>>()
        .join(",")
}

/// The table options of `sim classic-flip`, `sim tournament classic-flip`
/// and `sim sweep classic-flip`.
#[derive(Args, Debug, Clone)]
pub struct ClassicFlipOptions {
    /// Players at the table (2 to 8).
    #[arg(long, default_value_t = 4, value_parser = whole_in::<u16>(MIN_PLAYERS as u16..=MAX_PLAYERS as u16))]
    pub players: u16,

    /// Decks (1 or 2; default: one for 2-4 players, two for 5-8, C39).
    #[arg(long, value_parser = whole_in::<u8>(1..=2))]
    pub decks: Option<u8>,

    /// Ranks of the seven gold cards (C1): seven distinct ranks,
    /// comma-separated.
    #[arg(long, value_name = "RANKS", default_value = "8,9,10,J,Q,K,A", value_parser = parse_gold)]
    pub gold_ranks: u16,

    /// Points that win the game (200; 500 for the long game, C38).
    #[arg(long, default_value_t = 200, value_parser = whole_in::<u32>(1..=1_000_000))]
    pub target: u32,

    /// Action functions or cards to switch off, comma-separated: draw,
    /// take, steal, block, swap, reboot, chaos, plus-turn (a function; a
    /// dual card with both off leaves the deck), 2x, 7-10, any (the card
    /// leaves the deck), actions (all eight cards). E.g. --without take,steal.
    #[arg(long, value_name = "ACTIONS", value_parser = Without::parse)]
    pub without: Option<Without>,

    /// Turns after which a round is stopped as void (C32).
    #[arg(long, value_name = "TURNS", default_value_t = DEFAULT_ROUND_CAP, value_parser = whole_in::<u32>(1..=10_000_000))]
    pub round_cap: u32,

    /// Whether community 2X, Gold 8, Any and gold cards double every
    /// player's score (C17 (a), on) or count only from one's own hand (off).
    #[arg(long, value_name = "ON|OFF", default_value = "on", value_parser = ["on", "off"])]
    pub community_multipliers: String,
}

/// The options in a run's `table`, every one as the run plays it: `decks`
/// resolved from the players when not given, `gold_ranks` and `without`
/// as lists of words.
impl serde::Serialize for ClassicFlipOptions {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let players = usize::from(self.players);
        let decks = self.decks.unwrap_or(if players >= 5 { 2 } else { 1 });
        let words = |label: String| -> Vec<String> {
            label.split(',').filter(|w| !w.is_empty()).map(String::from).collect()
        };
        let mut t = s.serialize_struct("ClassicFlipOptions", 7)?;
        t.serialize_field("players", &self.players)?;
        t.serialize_field("decks", &decks)?;
        t.serialize_field("gold_ranks", &words(gold_label(self.gold_ranks)))?;
        t.serialize_field("target", &self.target)?;
        t.serialize_field("without", &words(self.without.unwrap_or_default().label()))?;
        t.serialize_field("round_cap", &self.round_cap)?;
        t.serialize_field("community_multipliers", &self.community_multipliers)?;
        t.end()
    }
}

impl ClassicFlipOptions {
    /// The rules these options give.
    pub fn rules(&self) -> Rules {
        let players = usize::from(self.players);
        let decks = self.decks.unwrap_or(if players >= 5 { 2 } else { 1 });
        let w = self.without.unwrap_or_default();
        Rules {
            players,
            deck: Deck::new(decks, self.gold_ranks, w.cards),
            target: self.target,
            off: w.funcs,
            round_cap: self.round_cap,
            community_multipliers: self.community_multipliers == "on",
        }
    }
}

const CATALOGUE: &[PolicySection] = &[
    (
        "Play rule (at most one; default collector)",
        &[
            PolicyDoc {
                spec: "collector",
                does: "(default) greedy set builder: calls at once, denies community wilds, draws three with Draw halves",
            },
            PolicyDoc {
                spec: "random",
                does: "a uniformly random legal start option and random discards; never challenges (no other part)",
            },
            PolicyDoc {
                spec: "counter",
                does: "every start option it can value (draws, community takes, Take, Steal, Swap, Reboot, Any's actions) by its exact expected round score over the unseen cards; discards by the same value; calls when waiting gains less than it gives the best opponent",
            },
            PolicyDoc {
                spec: "rollout:K",
                does: "K determinized playouts of the round per start option, call, challenge, end-of-turn discard, Block, Take pick and penalty pick (worlds consistent with what it knows)",
            },
            ismcts::DOC,
        ],
    ),
    (
        "+playout:SPEC (last part of ismcts:N; +bluff-prior:B weights its worlds)",
        &[PolicyDoc {
            spec: "playout:SPEC",
            does: "every seat plays SPEC below the search tree (collector or random as its play rule, with any other parts; default collector); the rest of the spec is SPEC",
        }],
    ),
    (
        "Action-card use (+thief)",
        &[PolicyDoc {
            spec: "thief",
            does: "aggressive Take, Steal, Swap into a known better hand, Chaos when behind, Swap or Reboot when worth more than drawing two; always Block",
        }],
    ),
    (
        "Experiments (+no-deny, +wild-any)",
        &[
            PolicyDoc {
                spec: "no-deny",
                does: "never take a community card",
            },
            PolicyDoc {
                spec: "wild-any",
                does: "never play Any as an action",
            },
        ],
    ),
    (
        "Call timing (+caller:S)",
        &[PolicyDoc {
            spec: "caller:S",
            does: "call Flip! once the round score is at least S points (default 10: at once)",
        }],
    ),
    (
        "Bluffing (+bluffer:K)",
        &[PolicyDoc {
            spec: "bluffer:K",
            does: "keep up to K cards (K 7 to 10; 7 = no bluff) without a 7>>>10 while nobody has challenged this round",
        }],
    ),
    (
        "Challenging (+sheriff:Q, +bluff-prior:B)",
        &[
            PolicyDoc {
                spec: "sheriff:Q",
                does: "challenge when the exact chance the target holds a 7>>>10 or Any is below Q (default 0: certain wins only)",
            },
            PolicyDoc {
                spec: "bluff-prior:B",
                does: "with sheriff:Q (Q above 0) or rollout:K, the chance given the target's behaviour: a share B of players bluff, the others are over seven only with a 7>>>10 or Any",
            },
        ],
    ),
];

impl Game for ClassicFlip {
    const NAME: &'static str = "classic-flip";
    const ABOUT: &'static str = "Classic Flip: collect five of a kind, call Flip!, bluff and challenge.";
    const DEFAULT_POLICY: &'static str = "collector";
    const PLAYERS: std::ops::RangeInclusive<usize> = MIN_PLAYERS..=MAX_PLAYERS;
    const POLICY_HELP: &'static str = "Policy for every seat, or a comma-separated list with one per seat. \
        Each is a spec (parts joined by +, e.g. caller:40+sheriff:0.3, thief+bluffer:9; see --list-policies), \
        a strategy name (strategies/classic-flip-NAME.toml) or a .toml path.";
    const POLICY_INTRO: &'static str = "A policy is parts joined by +: a play rule, +thief, +caller:S, +bluffer:K, +sheriff:Q\n\
        (+bluff-prior:B), +no-deny, +wild-any,\n\
        e.g. counter+caller:40+sheriff:0.3. A comma-separated list gives one per seat.\n";
    const CATALOGUE: &'static [PolicySection] = CATALOGUE;
    const SWEEP_EXAMPLE: &'static str = "caller:{10,20,40,80}";

    type Options = ClassicFlipOptions;
    type Policy = Policy;
    type Sim = ClassicFlipSim;

    fn parse_policy(spec: &str) -> Result<Policy, String> {
        Policy::parse(spec)
    }

    fn players(opts: &ClassicFlipOptions) -> usize {
        usize::from(opts.players)
    }

    fn variants(opts: &ClassicFlipOptions) -> Vec<Variant> {
        let mut v = Vec::new();
        let players = usize::from(opts.players);
        if let Some(d) = opts.decks
            && d != if players >= 5 { 2 } else { 1 }
        {
            v.push(Variant {
                file: format!("decks{d}"),
                words: format!("{d} deck{}", if d == 1 { "" } else { "s" }),
            });
        }
        if opts.gold_ranks != DEFAULT_GOLD {
            let l = gold_label(opts.gold_ranks);
            v.push(Variant {
                file: format!("gold-{}", l.replace(',', "-")),
                words: format!("gold ranks {l}"),
            });
        }
        if opts.target != 200 {
            v.push(Variant {
                file: format!("target{}", opts.target),
                words: format!("target {}", opts.target),
            });
        }
        if let Some(w) = opts.without.filter(|w| *w != Without::default()) {
            let l = w.label();
            v.push(Variant {
                file: format!("without-{}", l.replace(',', "-")),
                words: format!("without {l}"),
            });
        }
        if opts.round_cap != DEFAULT_ROUND_CAP {
            v.push(Variant {
                file: format!("cap{}", opts.round_cap),
                words: format!("round cap {}", opts.round_cap),
            });
        }
        if opts.community_multipliers != "on" {
            v.push(Variant {
                file: "own-multipliers".into(),
                words: "community multipliers off".into(),
            });
        }
        v
    }

    fn simulation(opts: &ClassicFlipOptions, seats: &[Policy]) -> Result<ClassicFlipSim, String> {
        ClassicFlipSim::new(opts.rules(), seats)
    }

    fn score_name(_: &ClassicFlipOptions) -> Option<&'static str> {
        Some("final score")
    }

    fn has_rounds(_: &ClassicFlipOptions) -> bool {
        true
    }

    // `..SeatResult::default()` keeps this compiling when SeatResult gains
    // fields (losses, places) that Classic Flip does not fill.
    #[allow(clippy::needless_update)]
    fn seat_results(_: &ClassicFlipOptions, acc: &ClassicStats) -> (u64, Vec<SeatResult>) {
        let seats = acc.seats.iter().map(|s| SeatResult {
            wins: s.wins,
            score_sum: s.final_score_sum as i64,
            rounds: acc.rounds,
            round_score_sum: s.round_score_sum,
            round_by_game: s.by_game,
            ..SeatResult::default()
        });
        (acc.games, seats.collect())
    }

    fn csv_columns(_: &ClassicFlipOptions) -> Vec<&'static str> {
        stats::csv_columns()
    }

    fn csv_fields(_: &ClassicFlipOptions, acc: &ClassicStats) -> Vec<Vec<String>> {
        (0..acc.seats.len()).map(|s| acc.csv_fields(s)).collect()
    }

    fn summary(_: &ClassicFlipOptions, acc: &ClassicStats, names: &[String], out: &mut Vec<u8>) {
        stats::summary(acc, names, out);
    }

    const PLAYS: bool = true;
    /// The search player at 100 iterations a decision: the strongest
    /// strategy at two players (docs/classic-flip.md, "Search player"),
    /// about 1 to 3 ms a decision.
    const PLAY_BOTS: &'static str = "ismcts:100";

    fn play(
        session: &std::cell::RefCell<crate::engine::console::Session<Self>>,
        opts: &ClassicFlipOptions,
        seats: &[Policy],
        seed: u64,
    ) -> Result<String, String> {
        play::play(session, &Self::simulation(opts, seats)?, seed)
    }

    const ADVISES: bool = true;

    fn advise_position(
        _m: &clap::ArgMatches,
        model: Policy,
        trace: Option<&crate::engine::advise::TraceCut>,
    ) -> Result<Box<dyn crate::engine::advise::Position>, String> {
        let cut = trace.ok_or("no position: give --trace FILE")?;
        Ok(Box::new(advise::ClassicFlipPosition::from_trace(cut, model)?))
    }

    fn actions() -> Vec<clap::Command> {
        vec![
            score_command::ScoreArgs::augment_args(clap::Command::new("score")).about(
                "The round score of a combined hand (hand plus community) and how it is reached: \
                 the kind, the base points and each doubling. Cards: R, B, P or G and a rank \
                 (GA, R8, B10), or an action card (2X, Any, 7>>>10, Draw/Take, ...).",
            ),
        ]
    }

    fn run_action(
        name: &str,
        args: &clap::ArgMatches,
    ) -> Result<Option<crate::engine::exhibit::Exhibit>, crate::engine::failure::Failure> {
        use crate::engine::failure::Failure;
        match name {
            "score" => {
                let a = score_command::ScoreArgs::from_arg_matches(args)
                    .map_err(|e| Failure::Usage(e.to_string()))?;
                score_command::run(&a).map(|()| None)
            }
            _ => Err(format!("internal: classic-flip has no action '{name}'").into()),
        }
    }
}

/// A configured Classic Flip simulation: rules and one policy per seat.
#[derive(Clone, Debug)]
pub struct ClassicFlipSim {
    /// The rules of every game.
    pub rules: Rules,
    /// `policies[s]` plays seat `s`.
    pub policies: Vec<Policy>,
}

impl ClassicFlipSim {
    /// A simulation of `rules.players` players; `policies` holds one policy
    /// for every seat or exactly one per seat.
    pub fn new(rules: Rules, policies: &[Policy]) -> Result<ClassicFlipSim, String> {
        let players = rules.players;
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(format!("--players {players}: Classic Flip is for 2 to 8 players"));
        }
        if rules.deck.len() < 3 * players + 3 {
            return Err(format!(
                "--players {players}: the deck of {} cards cannot deal three cards to each player and three to the community",
                rules.deck.len()
            ));
        }
        let policies = seat_policies(policies, players)?;
        Ok(ClassicFlipSim { rules, policies })
    }
}

impl Seated for ClassicFlipSim {
    type Table = Table;
    type At = (Table, Seats);
    type Acc = ClassicStats;
    type Trace<'a, 'w: 'a> = Trace<'a, 'w>;

    fn acc(&self) -> ClassicStats {
        ClassicStats::new(self.rules.players)
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
        self.0.play_game(&mut self.1, obs, rng);
    }
}

/// The action cards' names, for the rules document.
pub const ACTION_NAMES: [&str; 8] = ACTIONS;
