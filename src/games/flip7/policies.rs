//! Flip 7 policies: how a seat decides Hit or Stay and where its action
//! cards go. A policy is a value parsed from a spec string such as
//! `stay-at-25` or `ev+flip-three:self-when-safe`; it sees only what a
//! player at the table sees (the [`Table`] exposes no draw-pile order), but
//! for `peek`, which cheats on purpose: it reads the next card.
//!
//! A spec is a Hit-or-Stay [`Rule`] followed by optional parts, joined
//! with `+`: `RULE[+hit-on-second-chance][+freeze:C][+flip-three:C][+second-chance:C][+target:SEAT]`.
//! Choices left out are the defaults of `stay-at-N`.

use std::fmt;

use rand::{Rng, SeedableRng};

use super::cards::{Card, FLIP_THREE, FREEZE, KINDS, MAX_NUMBER, SECOND_CHANCE, TIMES2, plus_value};
use super::optimal;
use super::max_win::Between;
use super::Flip7;
use crate::engine::custom::{self, Custom, Decision, User};
use crate::engine::ismcts;
use crate::engine::game::{Game, PolicyDoc, PolicySection};
use super::rules::{Chooser, FLIP7_BONUS, FLIP7_CARDS, MAX_PLAYERS, Silent, Status, TARGET, Table};
use super::stats::Flip7Stats;
use crate::engine::observe::Silent as ObserveNothing;
use crate::engine::rng::{Draw, SimRng};
use crate::engine::runner::play_games;

/// A Hit-or-Stay rule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rule {
    /// `stay-at-N`: stay once the cards in front (numbers, `x2`, modifiers)
    /// are worth at least N; otherwise hit.
    StayAt(u16),
    /// `cards-N`: stay once holding N number cards; otherwise hit.
    Cards(u8),
    /// `bust-prob:P`: hit while the chance that the next card busts is below
    /// P, counting every card seen (see [`next_card_counts`]); a held Second
    /// Chance makes that chance 0.
    BustProb(f64),
    /// `ev`: hit while the expected round score after one more card, from
    /// the counted draw pile, exceeds the score banked by staying.
    Ev,
    /// `endgame:N` (`endgame` = `endgame:25`): a threshold that looks at
    /// the game scores; see [`endgame_threshold`].
    Endgame(u16),
    /// `optimal-round`: the Hit or Stay that maximises the expected round
    /// score, solved exactly over the counted draw pile (see the module
    /// [`super::optimal`]).
    OptimalRound,
    /// `rollout:K`: plays K imagined continuations of the game after Hit and
    /// K after Stay, from what the player knows, and takes the one that wins
    /// more often; see [`rollout_hits`].
    Rollout(u32),
    /// `advise:N`: the Hit or Stay `sim advise` recommends, from at most N
    /// playouts of each (see [`super::advise::advised_hit`]).
    Advise(u32),
    /// `stay-at-numbers-N`: stay once the number cards in front add up to at
    /// least N (modifiers and `x2` ignored); otherwise hit.
    StayAtNumbers(u16),
    /// `chase:BASE/SLOPE`: `stay-at` a threshold of BASE + SLOPE x (the
    /// highest game total at the table - the player's own total); see
    /// [`chase_threshold`]. Both in thousandths (BASE and SLOPE have at
    /// most three decimals), so that the threshold is exact and the rule
    /// keeps the size of the others.
    Chase {
        /// The threshold when leading (or level with the leader), in
        /// thousandths of a point.
        base: u32,
        /// Thousandths of a point of threshold per point behind the leader.
        slope: u32,
    },
    /// `stay-at-random:LO..HI`: `stay-at-N` with N drawn uniformly from LO to
    /// HI (both included) for each game, from the game's own random stream
    /// (see [`Seats::draw_game_values`]).
    StayAtRandom {
        /// The smallest threshold drawn.
        lo: u16,
        /// The largest threshold drawn.
        hi: u16,
    },
    /// `peek`: **cheats**. Looks at the next card of the draw pile and hits
    /// unless it would bust (see [`peek_hits`]). No player can do this; it is
    /// an upper bound on what knowing the next card is worth.
    Peek,
    /// `max-win:MODEL` (`max-win` = `max-win:ev`): the Hit or Stay, and the
    /// Freeze and Flip Three targets, that maximise the chance to win the
    /// game, with the opponents modelled as playing MODEL; see
    /// [`super::max_win`].
    MaxWin(Model),
    /// `max-win:MODEL+thresholds`: `max-win` with the threshold
    /// approximation between rounds on every deck ([`Between::Thresholds`]);
    /// the model interned, so that a rule stays two words.
    MaxWinThresholds(&'static Model),
    /// `ismcts:N` (`+playout:RULE`): information-set Monte Carlo tree search
    /// with N iterations per Hit-or-Stay decision, RULE (a [`Model`],
    /// [`DEFAULT_PLAYOUT`] unless given) playing every seat below the tree; see
    /// [`super::search`].
    Ismcts(&'static Searched),
    /// A user policy's Hit-or-Stay rule, written as code and registered by
    /// the program ([`crate::cli::Builder::policy`]); it sees a
    /// [`PlayerView`].
    User(User<HitRule>),
}

/// The opponents' rule that `max-win:MODEL` assumes: the Hit-or-Stay rules
/// cheap enough to simulate for its tables (not `optimal-round`,
/// `rollout:K`, `peek`, `stay-at-random` or `max-win`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Model {
    /// `stay-at-N`.
    StayAt(u16),
    /// `cards-N`.
    Cards(u8),
    /// `bust-prob:P`.
    BustProb(f64),
    /// `ev`.
    Ev,
    /// `endgame:N`.
    Endgame(u16),
    /// `stay-at-numbers-N`.
    StayAtNumbers(u16),
    /// `chase:BASE/SLOPE`, in thousandths.
    Chase {
        /// BASE in thousandths.
        base: u32,
        /// SLOPE in thousandths.
        slope: u32,
    },
}

impl Model {
    /// The model as a rule.
    pub fn rule(self) -> Rule {
        match self {
            Model::StayAt(n) => Rule::StayAt(n),
            Model::Cards(n) => Rule::Cards(n),
            Model::BustProb(p) => Rule::BustProb(p),
            Model::Ev => Rule::Ev,
            Model::Endgame(n) => Rule::Endgame(n),
            Model::StayAtNumbers(n) => Rule::StayAtNumbers(n),
            Model::Chase { base, slope } => Rule::Chase { base, slope },
        }
    }

    /// The model of a rule, if it can be one.
    pub fn of(rule: Rule) -> Option<Model> {
        Some(match rule {
            Rule::StayAt(n) => Model::StayAt(n),
            Rule::Cards(n) => Model::Cards(n),
            Rule::BustProb(p) => Model::BustProb(p),
            Rule::Ev => Model::Ev,
            Rule::Endgame(n) => Model::Endgame(n),
            Rule::StayAtNumbers(n) => Model::StayAtNumbers(n),
            Rule::Chase { base, slope } => Model::Chase { base, slope },
            Rule::OptimalRound
            | Rule::Rollout(_)
            | Rule::Advise(_)
            | Rule::Ismcts(_)
            | Rule::StayAtRandom { .. }
            | Rule::Peek
            | Rule::MaxWin(_)
            | Rule::MaxWinThresholds(_)
            | Rule::User(_) => {
                return None;
            }
        })
    }
}

/// The Hit-or-Stay rule of a user policy, as the game keeps it.
pub type HitRule = dyn HitDecision;

/// A user's Hit-or-Stay closure as the game keeps it: the closure, and the
/// game loop compiled for it, which a line-up of that rule alone plays
/// (the closure then inlined in the loop, as a built-in rule is). Made
/// from the closure by [`Decision::boxed`]; a user never implements it.
pub trait HitDecision: Send + Sync {
    /// Whether the player whose view is `v` hits.
    fn hit(&self, v: &PlayerView<'_>) -> bool;
    /// Plays `games` games at `table` with this rule in every seat and the
    /// default action-card choices, into `acc`: the games [`Seats`] plays.
    fn play_alone(&self, table: &mut Table, rng: &mut SimRng, games: u64, acc: &mut Flip7Stats);
}

/// A user's closure, kept with its compiled game loop.
struct InCode<F>(F);

impl<F: Fn(&PlayerView<'_>) -> bool + Send + Sync> HitDecision for InCode<F> {
    #[inline]
    fn hit(&self, v: &PlayerView<'_>) -> bool {
        (self.0)(v)
    }

    fn play_alone(&self, table: &mut Table, rng: &mut SimRng, games: u64, acc: &mut Flip7Stats) {
        play_games(&mut (table, &mut OneRule(&self.0)), rng, games, acc, None::<ObserveNothing>);
    }
}

/// Every seat plays one user closure with the default choices.
struct OneRule<'a, F>(&'a F);

impl<F: Fn(&PlayerView<'_>) -> bool> Chooser for OneRule<'_, F> {
    #[inline(always)]
    fn hit(&mut self, t: &Table, seat: usize) -> bool {
        (self.0)(&PlayerView { t, seat })
    }
    #[inline(always)]
    fn target(&mut self, t: &Table, chooser: usize, card: Card) -> usize {
        if card == FREEZE {
            default_freeze_target(t, chooser)
        } else {
            default_flip_three_target(t, chooser)
        }
    }
    #[inline]
    fn second_chance_to(&mut self, t: &Table, holder: usize) -> Option<usize> {
        default_second_chance_to(t, holder)
    }
}

/// The user rule every seat of `policies` plays, when they all play the
/// same one (the same spec) with the default choices.
pub fn one_user_rule(policies: &[Policy]) -> Option<&'static HitRule> {
    let Rule::User(first) = policies.first()?.rule else {
        return None;
    };
    let plain = Policy::with_defaults(Rule::User(first));
    policies.iter().all(|p| *p == plain).then(|| first.decide())
}

/// Where a Freeze goes (`+freeze:CHOICE`). Only active opponents are
/// candidates; ties go to the first clockwise from the chooser; the chooser
/// itself when nobody else is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FreezeChoice {
    /// `leader` (default): the highest game total.
    #[default]
    Leader,
    /// `most-cards`: the most number cards (the nearest to a Flip 7), ties
    /// by game total.
    MostCards,
    /// `least-banked`: the lowest score in front this round (their round
    /// ends with the least).
    LeastBanked,
    /// `self-when-safe`: the chooser itself when its own Hit-or-Stay rule
    /// would stay now (a Freeze then banks its cards like a stay and keeps
    /// every opponent in the round, exposed to busting); otherwise `leader`.
    SelfWhenSafe,
}

/// Where a Flip Three goes (`+flip-three:CHOICE`); candidates and ties as
/// for [`FreezeChoice`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FlipThreeChoice {
    /// `most-cards` (default): the most number cards, ties by game total.
    #[default]
    MostCards,
    /// `leader`: the highest game total, ties by number cards.
    Leader,
    /// `most-banked`: the highest score in front this round (the most to
    /// lose).
    MostBanked,
    /// `self-when-safe`: the chooser itself when the counted chance that
    /// three more cards bust it is below [`SAFE_FLIP_THREE`] (see
    /// [`flip_three_bust_chance`]); otherwise `most-cards`.
    SelfWhenSafe,
}

/// Who receives a spare Second Chance (`+second-chance:CHOICE`): an active
/// opponent without one; ties first clockwise; discarded when there is none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PassChoice {
    /// `lowest` (default): the lowest game total.
    #[default]
    Lowest,
    /// `least-banked`: the lowest score in front this round (who has least
    /// to protect).
    LeastBanked,
    /// `fewest-cards`: the fewest number cards (the least likely to need it
    /// soon).
    FewestCards,
}

/// `self-when-safe` for Flip Three targets the chooser below this chance of
/// busting within the three cards.
pub const SAFE_FLIP_THREE: f64 = 0.15;

/// `rollout:K` plays the continuations, and breaks ties between Hit and
/// Stay, with `stay-at-ROLLOUT_BASE` and the default choices for every seat.
pub const ROLLOUT_BASE: u16 = 25;

/// What `ismcts:N` (`+playout:RULE`) says: kept once per process and
/// pointed to, so that a rule stays two words.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Searched {
    /// Iterations per decision.
    pub n: u32,
    /// The rule every seat plays below the tree.
    pub playout: Model,
}

/// The playout rule of `ismcts:N` unless `+playout:RULE` is given: the
/// game's default policy, `stay-at-28` (a test checks they agree).
pub const DEFAULT_PLAYOUT: Model = Model::StayAt(28);

/// `rule` (which must be `ismcts:N`) with `+playout:RULE` of spec `spec`.
fn with_playout(spec: &str, rule: Rule, playout: &str) -> Result<Rule, String> {
    let Rule::Ismcts(&Searched { n, .. }) = rule else {
        return Err(format!("'{spec}': playout:RULE is a choice of ismcts:N only"));
    };
    let model = Rule::parse(playout.trim()).ok().and_then(Model::of).ok_or_else(|| {
        format!(
            "'{spec}': the playout RULE '{}' must be a rule cheap to simulate: stay-at-N, cards-N, \
             bust-prob:P, ev, endgame:N, stay-at-numbers-N or chase:BASE/SLOPE (ismcts:N+playout:RULE)",
            playout.trim()
        )
    })?;
    Ok(Rule::Ismcts(ismcts::intern(Searched { n, playout: model })))
}


/// Largest K accepted by `rollout:K`.
pub const MAX_ROLLOUTS: u32 = 100_000;

/// A complete policy: a Hit-or-Stay rule and the three action-card choices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy {
    /// When to hit.
    pub rule: Rule,
    /// Where its Freezes go.
    pub freeze: FreezeChoice,
    /// Where its Flip Threes go.
    pub flip_three: FlipThreeChoice,
    /// Who gets its spare Second Chances.
    pub second_chance: PassChoice,
    /// `+hit-on-second-chance`: hits whenever it holds a Second Chance,
    /// whatever its rule says (the next card cannot bust it).
    pub hit_on_second_chance: bool,
    /// `+target:SEAT`: every Freeze and Flip Three goes to this seat when it
    /// is still in the round and is not the chooser; otherwise the `freeze`
    /// and `flip-three` choices decide.
    pub target: Option<u8>,
}

impl From<Rule> for Policy {
    fn from(rule: Rule) -> Policy {
        Policy::with_defaults(rule)
    }
}

/// Every spec form and choice, as `sim flip7 --list-policies` prints them.
pub const CATALOGUE: &[PolicySection] = &[
    (
        "Hit-or-Stay rules",
        &[
            PolicyDoc {
                spec: "stay-at-N",
                does: "stay once the cards in front are worth N points or more (numbers, x2, modifiers)",
            },
            PolicyDoc {
                spec: "cards-N",
                does: "stay once holding N number cards (1 to 7)",
            },
            PolicyDoc {
                spec: "bust-prob:P",
                does: "hit while the counted chance that the next card busts is below P (0 < P <= 1)",
            },
            PolicyDoc {
                spec: "ev",
                does: "hit while the counted expected round score after one more card beats staying",
            },
            PolicyDoc {
                spec: "endgame:N",
                does: "stay-at-N that reads the game scores: banks a winning round, presses when an opponent nears 200, plays safe far ahead (endgame = endgame:25)",
            },
            PolicyDoc {
                spec: "optimal-round",
                does: "the exact round-score optimum over the counted draw pile (opponents' draws ignored)",
            },
            PolicyDoc {
                spec: "rollout:K",
                does: "plays K imagined continuations after Hit and after Stay (stay-at-25 for everyone) and picks what wins more (1 <= K <= 100000; slow)",
            },
            PolicyDoc {
                spec: "advise:N",
                does: "the Hit or Stay sim advise recommends: at most N playouts of each (common random numbers, every seat then playing ev), stopping once the best separates (1 <= N <= 1000000; slow)",
            },
            ismcts::DOC,
            PolicyDoc {
                spec: "stay-at-numbers-N",
                does: "stay once the number cards alone add up to N or more (modifiers and x2 ignored)",
            },
            PolicyDoc {
                spec: "chase:BASE/SLOPE",
                does: "stay-at a threshold of BASE + SLOPE x (highest game total - own total), e.g. chase:25/0.1 (BASE, SLOPE >= 0, at most 3 decimals)",
            },
            PolicyDoc {
                spec: "stay-at-random:LO..HI",
                does: "stay-at-N with N drawn at random from LO to HI (both included) for each game, from the game's own random stream",
            },
            PolicyDoc {
                spec: "max-win:MODEL",
                does: "the Hit or Stay and the Freeze and Flip Three targets that maximise the chance to win the game, opponents modelled as MODEL (a rule above but optimal-round, rollout, stay-at-random, peek; max-win = max-win:ev); between rounds, on number cards alone from three players, the exact best response of the independent-rounds model (+thresholds: the threshold approximation on every deck)",
            },
            PolicyDoc {
                spec: "peek",
                does: "CHEATS: sees the next card of the draw pile and hits unless it would bust; an upper bound for card counting, not a strategy",
            },
        ],
    ),
    (
        "+hit-on-second-chance, +target:SEAT (added to any rule)",
        &[
            PolicyDoc {
                spec: "hit-on-second-chance",
                does: "hit whenever holding a Second Chance, whatever the rule says",
            },
            PolicyDoc {
                spec: "target:SEAT",
                does: "every Freeze and Flip Three to seat SEAT (0-based) while it is in the round and is not you; otherwise the freeze and flip-three choices",
            },
        ],
    ),
    (
        "+playout:RULE (added to ismcts:N)",
        &[PolicyDoc {
            spec: "playout:RULE",
            does: "every seat plays RULE below the search tree (stay-at-N, cards-N, bust-prob:P, ev, endgame:N, stay-at-numbers-N or chase:BASE/SLOPE; default stay-at-28)",
        }],
    ),
    (
        "+freeze:CHOICE (where a Freeze goes)",
        &[
            PolicyDoc {
                spec: "leader",
                does: "(default) the active opponent with the highest game total",
            },
            PolicyDoc {
                spec: "most-cards",
                does: "the active opponent with the most number cards",
            },
            PolicyDoc {
                spec: "least-banked",
                does: "the active opponent with the lowest score in front",
            },
            PolicyDoc {
                spec: "self-when-safe",
                does: "yourself when your rule would stay now, else leader",
            },
        ],
    ),
    (
        "+flip-three:CHOICE (where a Flip Three goes)",
        &[
            PolicyDoc {
                spec: "most-cards",
                does: "(default) the active opponent with the most number cards",
            },
            PolicyDoc {
                spec: "leader",
                does: "the active opponent with the highest game total",
            },
            PolicyDoc {
                spec: "most-banked",
                does: "the active opponent with the highest score in front",
            },
            PolicyDoc {
                spec: "self-when-safe",
                does: "yourself when three cards bust you with counted chance below 15%, else most-cards",
            },
        ],
    ),
    (
        "+second-chance:CHOICE (who gets a spare Second Chance)",
        &[
            PolicyDoc {
                spec: "lowest",
                does: "(default) the active opponent without one with the lowest game total",
            },
            PolicyDoc {
                spec: "least-banked",
                does: "the active opponent without one with the lowest score in front",
            },
            PolicyDoc {
                spec: "fewest-cards",
                does: "the active opponent without one with the fewest number cards",
            },
        ],
    ),
];

/// Spec forms accepted by [`Policy::parse`], for error messages.
pub const ACCEPTED: &str = "RULE[+hit-on-second-chance][+freeze:CHOICE][+flip-three:CHOICE][+second-chance:CHOICE][+target:SEAT] \
                            with RULE one of stay-at-N, cards-N, bust-prob:P, ev, endgame:N, optimal-round, rollout:K, \
                            ismcts:N, stay-at-numbers-N, chase:BASE/SLOPE, stay-at-random:LO..HI, max-win:MODEL, peek \
                            (see sim flip7 --list-policies)";

fn choice<T: Copy>(what: &str, word: &str, options: &[(&str, T)]) -> Result<T, String> {
    options
        .iter()
        .find(|(name, _)| *name == word)
        .map(|&(_, v)| v)
        .ok_or_else(|| {
            let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
            format!("unknown {what} choice '{word}'; accepted: {}", names.join(", "))
        })
}

const FREEZE_CHOICES: &[(&str, FreezeChoice)] = &[
    ("leader", FreezeChoice::Leader),
    ("most-cards", FreezeChoice::MostCards),
    ("least-banked", FreezeChoice::LeastBanked),
    ("self-when-safe", FreezeChoice::SelfWhenSafe),
];
const FLIP_THREE_CHOICES: &[(&str, FlipThreeChoice)] = &[
    ("most-cards", FlipThreeChoice::MostCards),
    ("leader", FlipThreeChoice::Leader),
    ("most-banked", FlipThreeChoice::MostBanked),
    ("self-when-safe", FlipThreeChoice::SelfWhenSafe),
];
const PASS_CHOICES: &[(&str, PassChoice)] = &[
    ("lowest", PassChoice::Lowest),
    ("least-banked", PassChoice::LeastBanked),
    ("fewest-cards", PassChoice::FewestCards),
];

fn name_of<T: PartialEq + Copy>(options: &[(&'static str, T)], v: T) -> &'static str {
    options
        .iter()
        .find(|(_, x)| *x == v)
        .map(|(n, _)| *n)
        .expect("every choice has a name")
}

impl Rule {
    /// A `max-win` rule's model and how it finds the chance to win
    /// between rounds; `None` for any other rule.
    pub fn max_win(self) -> Option<(Model, Between)> {
        match self {
            Rule::MaxWin(m) => Some((m, Between::Exact)),
            Rule::MaxWinThresholds(m) => Some((*m, Between::Thresholds)),
            _ => None,
        }
    }

    /// Parses a Hit-or-Stay rule such as `stay-at-25`.
    pub fn parse(spec: &str) -> Result<Rule, String> {
        let spec = spec.trim();
        // A user policy first: its name is never a built-in spec (the
        // builder refuses those), but may start as one (`cards-max`).
        if let Some(user) = custom::parse::<HitRule>(<Flip7 as Game>::NAME, spec) {
            return user.map(Rule::User);
        }
        let whole = |n: &str, what: &str| {
            n.parse::<u16>()
                .map_err(|_| format!("'{spec}': N must be a whole number from 0 to 65535 ({what})"))
        };
        if let Some(n) = spec.strip_prefix("stay-at-numbers-") {
            return whole(n, "stay-at-numbers-N").map(Rule::StayAtNumbers);
        }
        if let Some(range) = spec.strip_prefix("stay-at-random:") {
            let bad = || {
                format!(
                    "'{spec}': LO and HI must be whole numbers from 0 to 65535 with LO <= HI \
                     (stay-at-random:LO..HI)"
                )
            };
            let (lo, hi) = range.split_once("..").ok_or_else(bad)?;
            return match (lo.parse::<u16>(), hi.parse::<u16>()) {
                (Ok(lo), Ok(hi)) if lo <= hi => Ok(Rule::StayAtRandom { lo, hi }),
                _ => Err(bad()),
            };
        }
        if let Some(n) = spec.strip_prefix("stay-at-") {
            return whole(n, "stay-at-N").map(Rule::StayAt);
        }
        if let Some(args) = spec.strip_prefix("chase:") {
            return match args.split_once('/').map(|(b, s)| (thousandths(b), thousandths(s))) {
                Some((Some(base), Some(slope))) => Ok(Rule::Chase { base, slope }),
                _ => Err(format!(
                    "'{spec}': BASE and SLOPE must be numbers from 0 to 1000000 with at most three decimals \
                     (chase:BASE/SLOPE, e.g. chase:25/0.1)"
                )),
            };
        }
        if let Some(n) = spec.strip_prefix("cards-") {
            return match n.parse::<u8>() {
                Ok(n @ 1..=7) => Ok(Rule::Cards(n)),
                _ => Err(format!(
                    "'{spec}': N must be a whole number from 1 to 7 (cards-N)"
                )),
            };
        }
        if let Some(p) = spec.strip_prefix("bust-prob:") {
            return match p.parse::<f64>() {
                Ok(p) if p > 0.0 && p <= 1.0 => Ok(Rule::BustProb(p)),
                _ => Err(format!(
                    "'{spec}': P must be a number above 0 and at most 1 (bust-prob:P)"
                )),
            };
        }
        if let Some(k) = spec.strip_prefix("rollout:") {
            return match k.parse::<u32>() {
                Ok(k @ 1..=MAX_ROLLOUTS) => Ok(Rule::Rollout(k)),
                _ => Err(format!(
                    "'{spec}': K must be a whole number from 1 to {MAX_ROLLOUTS} (rollout:K)"
                )),
            };
        }
        if let Some(n) = spec.strip_prefix("advise:") {
            return match n.parse::<u32>() {
                Ok(n @ 1..=1_000_000) if !n.to_string().starts_with('+') => Ok(Rule::Advise(n)),
                _ => Err(format!("'{spec}': N must be a whole number from 1 to 1000000 (advise:N)")),
            };
        }
        if let Some(n) = ismcts::parse_iterations(spec) {
            return n.map(|n| {
                Rule::Ismcts(ismcts::intern(Searched {
                    n,
                    playout: DEFAULT_PLAYOUT,
                }))
            });
        }
        if let Some(model) = spec.strip_prefix("max-win:") {
            let rule = Rule::parse(model).map_err(|e| format!("'{spec}': MODEL: {e}"))?;
            return Model::of(rule).map(Rule::MaxWin).ok_or_else(|| {
                format!(
                    "'{spec}': MODEL must be a rule cheap to simulate: stay-at-N, cards-N, bust-prob:P, ev, \
                     endgame:N, stay-at-numbers-N or chase:BASE/SLOPE (max-win:MODEL)"
                )
            });
        }
        if let Some(n) = spec.strip_prefix("endgame:") {
            return whole(n, "endgame:N").map(Rule::Endgame);
        }
        match spec {
            "ev" => Ok(Rule::Ev),
            "endgame" => Ok(Rule::Endgame(25)),
            "optimal-round" => Ok(Rule::OptimalRound),
            "peek" => Ok(Rule::Peek),
            "max-win" => Ok(Rule::MaxWin(Model::Ev)),
            _ => Err(format!("unknown policy '{spec}'")),
        }
    }

    /// Whether the rule decides from the hand alone (cheap, inline).
    #[inline]
    fn hit_simple(self, t: &Table, seat: usize) -> Option<bool> {
        match self {
            Rule::StayAt(n) => Some(t.hand(seat).banked() < n),
            Rule::Cards(n) => Some(t.hand(seat).count < n),
            _ => None,
        }
    }
}

impl Policy {
    /// Parses a spec string such as `stay-at-25` or
    /// `ev+freeze:least-banked+flip-three:self-when-safe`.
    pub fn parse(spec: &str) -> Result<Policy, String> {
        let spec = spec.trim();
        let mut parts = spec.split('+');
        let rule = parts.next().unwrap_or_default();
        let mut p = Policy::from(Rule::parse(rule).map_err(|e| {
            format!("{e}; accepted: {ACCEPTED}{}", custom::accepted(<Flip7 as Game>::NAME))
        })?);
        let mut seen = Vec::new();
        for part in parts {
            if let Some(rule) = part.trim().strip_prefix("playout:") {
                if seen.contains(&"playout") {
                    return Err(format!("'{spec}': playout is chosen twice"));
                }
                seen.push("playout");
                p.rule = with_playout(spec, p.rule, rule)?;
                continue;
            }
            if Rule::parse(part.trim()).is_ok() {
                return Err(format!(
                    "'{spec}' has two Hit-or-Stay rules ('{}' and '{}'); give one",
                    rule.trim(),
                    part.trim()
                ));
            }
            if part.trim() == "hit-on-second-chance" {
                if p.hit_on_second_chance {
                    return Err(format!("'{spec}': hit-on-second-chance is given twice"));
                }
                p.hit_on_second_chance = true;
                continue;
            }
            if part.trim() == "thresholds" {
                p.rule = match p.rule {
                    Rule::MaxWin(m) => Rule::MaxWinThresholds(ismcts::intern(m)),
                    Rule::MaxWinThresholds(_) => return Err(format!("'{spec}': thresholds is given twice")),
                    _ => return Err(format!("'{spec}': thresholds is a choice of max-win only")),
                };
                continue;
            }
            let (key, value) = part.trim().split_once(':').ok_or_else(|| {
                format!(
                    "'{spec}': '{part}' is not a choice; expected hit-on-second-chance, freeze:CHOICE, \
                     flip-three:CHOICE, second-chance:CHOICE, target:SEAT, (after ismcts:N) playout:RULE \
                     or (after max-win) thresholds"
                )
            })?;
            if seen.contains(&key) {
                return Err(format!("'{spec}': {key} is chosen twice"));
            }
            seen.push(key);
            let err = |e: String| format!("'{spec}': {e}");
            match key {
                "freeze" => p.freeze = choice("freeze", value, FREEZE_CHOICES).map_err(err)?,
                "flip-three" => {
                    p.flip_three = choice("flip-three", value, FLIP_THREE_CHOICES).map_err(err)?
                }
                "second-chance" => {
                    p.second_chance = choice("second-chance", value, PASS_CHOICES).map_err(err)?
                }
                "target" => {
                    p.target = match value.parse::<u8>() {
                        Ok(seat) if usize::from(seat) < MAX_PLAYERS => Some(seat),
                        _ => {
                            return Err(format!(
                                "'{spec}': SEAT must be a seat number from 0 to {} (target:SEAT)",
                                MAX_PLAYERS - 1
                            ));
                        }
                    }
                }
                _ => {
                    return Err(format!(
                        "'{spec}': unknown choice '{key}'; accepted: freeze, flip-three, second-chance, target"
                    ));
                }
            }
        }
        Ok(p)
    }

    /// Parses a comma-separated list of specs (one per seat, or one for all).
    pub fn parse_list(text: &str) -> Result<Vec<Policy>, String> {
        text.split(',').map(Policy::parse).collect()
    }

    /// `rule` with the default action-card choices.
    pub const fn with_defaults(rule: Rule) -> Policy {
        Policy {
            rule,
            freeze: FreezeChoice::Leader,
            flip_three: FlipThreeChoice::MostCards,
            second_chance: PassChoice::Lowest,
            hit_on_second_chance: false,
            target: None,
        }
    }

    /// `stay-at-N` with the default choices.
    pub const fn stay_at(n: u16) -> Policy {
        Policy::with_defaults(Rule::StayAt(n))
    }

    /// Whether `seat` hits. Rules with look-ahead state (`optimal-round`,
    /// `rollout:K`) get fresh scratch space here; simulations go through
    /// [`Seats`], which keeps it.
    pub fn hit(&self, t: &Table, seat: usize) -> bool {
        if self.hit_on_second_chance && t.hand(seat).second_chance {
            return true;
        }
        self.rule
            .hit_simple(t, seat)
            .unwrap_or_else(|| hit_with(self.rule, t, seat, &mut Scratch::new(0)))
    }

    /// Whether the policy draws random numbers of its own (`rollout:K`).
    pub fn is_random(&self) -> bool {
        matches!(self.rule, Rule::Rollout(_) | Rule::Advise(_) | Rule::Ismcts(_))
    }

    /// Whether, alone in a single round of number cards only, this policy's
    /// Hit or Stay depends on the numbers held alone (what is unseen is then
    /// the fresh deck less those numbers): the thresholds, the counting
    /// rules and `optimal-round`, not the rules that draw random numbers or
    /// read anything else.
    pub fn decides_by_numbers_held(&self) -> bool {
        matches!(
            self.rule,
            Rule::OptimalRound | Rule::Ev | Rule::BustProb(_) | Rule::StayAt(_) | Rule::Cards(_) | Rule::StayAtNumbers(_)
        )
    }

    /// Whether the policy draws a value for each game
    /// (`stay-at-random:LO..HI`; see [`Seats::draw_game_values`]).
    pub fn draws_per_game(&self) -> bool {
        matches!(self.rule, Rule::StayAtRandom { .. })
    }

    /// Whether the policy sees what no player may see (`peek`): its results
    /// are marked as cheating wherever they are shown.
    pub fn cheats(&self) -> bool {
        matches!(self.rule, Rule::Peek)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::StayAt(n) => write!(f, "stay-at-{n}"),
            Rule::Cards(n) => write!(f, "cards-{n}"),
            Rule::BustProb(p) => write!(f, "bust-prob:{p}"),
            Rule::Ev => write!(f, "ev"),
            Rule::Endgame(n) => write!(f, "endgame:{n}"),
            Rule::OptimalRound => write!(f, "optimal-round"),
            Rule::Rollout(k) => write!(f, "rollout:{k}"),
            Rule::Advise(n) => write!(f, "advise:{n}"),
            Rule::Ismcts(s) => write!(f, "ismcts:{}", s.n),
            Rule::StayAtNumbers(n) => write!(f, "stay-at-numbers-{n}"),
            Rule::Chase { base, slope } => {
                write!(f, "chase:{}/{}", decimal(*base), decimal(*slope))
            }
            Rule::StayAtRandom { lo, hi } => write!(f, "stay-at-random:{lo}..{hi}"),
            Rule::Peek => write!(f, "peek"),
            Rule::MaxWin(_) | Rule::MaxWinThresholds(_) => {
                let (m, between) = self.max_win().expect("a max-win rule");
                match m {
                    Model::Ev => write!(f, "max-win")?,
                    m => write!(f, "max-win:{}", m.rule())?,
                }
                match between {
                    Between::Exact => Ok(()),
                    Between::Thresholds => write!(f, "+thresholds"),
                }
            }
            Rule::User(u) => write!(f, "{u}"),
        }
    }
}

/// The canonical spec: the rule, then the choices that differ from the
/// defaults.
impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.rule)?;
        if let Rule::Ismcts(&Searched { playout, .. }) = self.rule
            && playout != DEFAULT_PLAYOUT
        {
            write!(f, "+playout:{}", playout.rule())?;
        }
        if self.hit_on_second_chance {
            write!(f, "+hit-on-second-chance")?;
        }
        if self.freeze != FreezeChoice::default() {
            write!(f, "+freeze:{}", name_of(FREEZE_CHOICES, self.freeze))?;
        }
        if self.flip_three != FlipThreeChoice::default() {
            write!(f, "+flip-three:{}", name_of(FLIP_THREE_CHOICES, self.flip_three))?;
        }
        if self.second_chance != PassChoice::default() {
            write!(f, "+second-chance:{}", name_of(PASS_CHOICES, self.second_chance))?;
        }
        if let Some(seat) = self.target {
            write!(f, "+target:{seat}")?;
        }
        Ok(())
    }
}

/// Scratch space of the rules that search: the memo of `optimal-round`,
/// and the table copy and random numbers of `rollout:K`. Made once per
/// batch of games, so nothing is allocated per decision.
pub struct Scratch {
    memo: Option<Box<optimal::Memo>>,
    lookahead: Option<Box<Table>>,
    rng: SimRng,
    max_win: super::max_win::Scratch,
    search: super::search::SearchScratch,
}

impl Scratch {
    /// Empty scratch space; `seed` seeds the random numbers of `rollout:K`.
    pub fn new(seed: u64) -> Scratch {
        Scratch {
            memo: None,
            lookahead: None,
            rng: SimRng::seed_from_u64(seed),
            max_win: Default::default(),
            search: Default::default(),
        }
    }
}

thread_local! {
    /// The `optimal-round` memo of this thread, kept from one batch of games
    /// to the next: its values are exact whatever it held before, and a
    /// solo round from a fresh deck reuses its whole-deck search from game
    /// to game (see [`optimal`](super::optimal)'s memo) instead of starting
    /// it again for every batch.
    static SHARED_MEMO: std::cell::Cell<Box<optimal::Memo>> = Default::default();
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Some(memo) = self.memo.take() {
            SHARED_MEMO.set(memo);
        }
    }
}

/// The rules that need more than the hand, kept out of line so that the
/// cheap ones stay small inside the game loop.
#[inline(never)]
fn hit_with(rule: Rule, t: &Table, seat: usize, scratch: &mut Scratch) -> bool {
    match rule {
        Rule::BustProb(p) => bust_chance(t, seat) < p,
        Rule::Ev => ev_hits(t, seat),
        Rule::Endgame(n) => t.hand(seat).banked() < endgame_threshold(t, seat, n),
        Rule::OptimalRound => {
            let memo = scratch.memo.get_or_insert_with(|| {
                let mut memo = SHARED_MEMO.take();
                if t.players() == 1 && t.rules().single_round && memo.searches() == 0 {
                    // Every solo round starts from a fresh deck: one search
                    // from there answers every later decision of every game.
                    let fresh = super::rules::Hand::default();
                    optimal::evaluate(
                        &fresh,
                        &t.rules().composition,
                        true,
                        optimal::Rule::Optimal,
                        &mut memo,
                    );
                }
                memo
            });
            optimal::hits(t, seat, memo)
        }
        Rule::Rollout(k) => rollout_hits(t, seat, k, scratch),
        Rule::Advise(n) => super::advise::advised_hit(t, seat, n, scratch.rng.next_u64()),
        Rule::Ismcts(s) => {
            let seed = scratch.rng.next_u64();
            super::search::hits(t, seat, s.n, s.playout, seed, &mut scratch.search)
        }
        Rule::StayAtNumbers(n) => t.hand(seat).number_sum < n,
        Rule::Chase { base, slope } => u64::from(t.hand(seat).banked()) * 1000 < chase_threshold(t, seat, base, slope),
        // Outside a simulation no game has drawn a threshold: LO.
        Rule::StayAtRandom { lo, .. } => t.hand(seat).banked() < lo,
        Rule::Peek => peek_hits(t, seat),
        Rule::MaxWin(_) | Rule::MaxWinThresholds(_) => {
            let (m, between) = rule.max_win().expect("a max-win rule");
            super::max_win::hits(t, seat, &Policy::from(m.rule()), between, &mut scratch.max_win)
        }
        Rule::User(u) => u.decide().hit(&PlayerView { t, seat }),
        Rule::StayAt(_) | Rule::Cards(_) => rule.hit_simple(t, seat).expect("a simple rule"),
    }
}

impl Custom for Flip7 {
    type Decide = HitRule;
    const DECIDES: &'static str = "a Hit-or-Stay rule: the RULE of a spec, with the choices of stay-at-N unless given";
}

impl<F: Fn(&PlayerView<'_>) -> bool + Send + Sync + 'static> Decision<Flip7> for F {
    fn boxed(self) -> Box<HitRule> {
        Box::new(InCode(self))
    }
}

/// What a Flip 7 player may know when asked Hit or Stay: its own cards in
/// front, everybody's game totals, who is still in the round, and the
/// counted chance of busting. A user policy decides from this alone (no
/// draw-pile order, no internals).
///
/// ```
/// use sim::games::flip7::policies::PlayerView;
/// // Stay at 25, or at 35 when an opponent is within 30 points of winning.
/// let leader_aware = |v: &PlayerView| {
///     let n = if v.leader_total() + 30 >= v.target() { 35 } else { 25 };
///     v.banked() < n
/// };
/// # let _ = leader_aware;
/// ```
#[derive(Clone, Copy)]
pub struct PlayerView<'a> {
    t: &'a Table,
    seat: usize,
}

impl<'a> PlayerView<'a> {
    /// The view of `seat` at table `t` (for tests of a rule).
    pub fn new(t: &'a Table, seat: usize) -> PlayerView<'a> {
        PlayerView { t, seat }
    }

    /// The deciding player's seat (0 is the first player).
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// Players at the table.
    pub fn players(&self) -> usize {
        self.t.players()
    }

    /// The points the cards in front of the deciding player are worth now:
    /// what staying banks (numbers, x2, modifiers; 15 more with seven
    /// numbers).
    pub fn banked(&self) -> u32 {
        u32::from(self.t.hand(self.seat).banked())
    }

    /// The points in front of player `seat` this round (its cards are face
    /// up, so everybody sees them).
    pub fn banked_of(&self, seat: usize) -> u32 {
        u32::from(self.t.hand(seat).banked())
    }

    /// Number cards the deciding player holds (seven make a Flip 7).
    pub fn numbers(&self) -> u32 {
        self.t.hand(self.seat).number_count()
    }

    /// Whether the deciding player holds a Second Chance (the next
    /// duplicate number will not bust it).
    pub fn has_second_chance(&self) -> bool {
        self.t.hand(self.seat).second_chance
    }

    /// The game total of player `seat` before this round.
    pub fn total(&self, seat: usize) -> u32 {
        self.t.total(seat)
    }

    /// The deciding player's own game total before this round.
    pub fn my_total(&self) -> u32 {
        self.t.total(self.seat)
    }

    /// The highest game total among the other players (0 alone at the
    /// table).
    pub fn leader_total(&self) -> u32 {
        (0..self.players())
            .filter(|&s| s != self.seat)
            .map(|s| self.t.total(s))
            .max()
            .unwrap_or(0)
    }

    /// The game total that ends the game (200).
    pub fn target(&self) -> u32 {
        TARGET
    }

    /// Whether player `seat` is still in this round.
    pub fn is_active(&self, seat: usize) -> bool {
        self.t.is_active(seat)
    }

    /// The round being played (1 is the first).
    pub fn round(&self) -> u32 {
        self.t.round()
    }

    /// The chance that the next card busts the deciding player, counting
    /// every card seen this deck (0 with a Second Chance), as the built-in
    /// `bust-prob:P` reads it.
    pub fn bust_chance(&self) -> f64 {
        bust_chance(self.t, self.seat)
    }
}

/// The threshold `chase:BASE/SLOPE` plays, in thousandths of a point:
/// BASE + SLOPE x (the highest game total at the table, the player's own
/// included, - the player's own total), with BASE and SLOPE in thousandths.
/// The totals are public; the gap is 0 for the leader.
pub fn chase_threshold(t: &Table, seat: usize, base: u32, slope: u32) -> u64 {
    let leader = (0..t.players()).map(|s| t.total(s)).max().unwrap_or(0);
    u64::from(base) + u64::from(slope) * u64::from(leader - t.total(seat))
}

/// A number of at least 0 with at most three decimals (`25`, `0.1`,
/// `12.345`), in thousandths; at most 1,000,000.
fn thousandths(text: &str) -> Option<u32> {
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    let digits = |x: &str| x.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(frac) || frac.len() > 3 || (text.contains('.') && frac.is_empty()) {
        return None;
    }
    let whole: u32 = whole.parse().ok().filter(|&w| w <= 1_000_000)?;
    let frac: u32 = format!("{frac:0<3}").parse().ok()?;
    let x = whole * 1000 + frac;
    (x <= 1_000_000_000).then_some(x)
}

/// Thousandths written back as a decimal number, without trailing zeros.
fn decimal(x: u32) -> String {
    let (whole, frac) = (x / 1000, x % 1000);
    if frac == 0 {
        whole.to_string()
    } else {
        format!("{whole}.{frac:03}").trim_end_matches('0').to_string()
    }
}

/// `peek` (**cheating**: it reads the draw pile, which no player can):
/// hits unless the next card would hurt it. A number it already holds
/// (without a Second Chance to cancel it) would bust it, and a Flip Three
/// would come back to it when nobody else is in the round: it stays on
/// those, and hits on anything else (every other card adds to the score,
/// leaves it unchanged, or goes to an opponent). When the draw pile is
/// empty the next card is not decided yet (the discard pile is shuffled at
/// the draw): it plays `ev` then.
pub fn peek_hits(t: &Table, seat: usize) -> bool {
    let h = t.hand(seat);
    match t.peek_next_card() {
        None => ev_hits(t, seat),
        Some(c) if c <= MAX_NUMBER => !h.has(c) || h.second_chance,
        Some(FLIP_THREE) => t.active_mask() & !(1u64 << seat) != 0,
        Some(_) => true,
    }
}

/// Every seat plays `stay-at-N` (each its own N) with the default choices.
/// The chooser of plain threshold runs (the main job: no dispatch on the
/// rule at each decision) and of `rollout:K`'s imagined continuations; it
/// plays exactly as [`Seats`] with the same policies.
#[derive(Clone, Debug)]
pub struct Thresholds {
    /// Indexed by seat masked to 64 slots, as in [`Seats`].
    at: [u16; 64],
}

impl Thresholds {
    /// Every seat stays at `n`.
    pub const fn uniform(n: u16) -> Thresholds {
        Thresholds { at: [n; 64] }
    }

    /// The thresholds of `policies` when every one is a plain `stay-at-N`
    /// with the default choices.
    pub fn of(policies: &[Policy]) -> Option<Thresholds> {
        let mut t = Thresholds::uniform(0);
        for (at, p) in t.at.iter_mut().zip(policies) {
            match p.rule {
                Rule::StayAt(n) if *p == Policy::stay_at(n) => *at = n,
                _ => return None,
            }
        }
        (policies.len() <= MAX_PLAYERS).then_some(t)
    }
}

impl Chooser for Thresholds {
    #[inline(always)]
    fn hit(&mut self, t: &Table, seat: usize) -> bool {
        t.hand(seat).banked() < self.at[seat & 63]
    }
    #[inline(always)]
    fn target(&mut self, t: &Table, chooser: usize, card: Card) -> usize {
        if card == FREEZE {
            default_freeze_target(t, chooser)
        } else {
            default_flip_three_target(t, chooser)
        }
    }
    #[inline]
    fn second_chance_to(&mut self, t: &Table, holder: usize) -> Option<usize> {
        default_second_chance_to(t, holder)
    }
}

/// Every seat plays a user policy's Hit-or-Stay rule (each its own) with
/// the default choices: the chooser of such line-ups, calling each rule
/// straight from the game loop, as [`Thresholds`] does for `stay-at-N`.
/// It plays exactly as [`Seats`] with the same policies.
#[derive(Clone)]
pub struct UserRules {
    /// Indexed by seat masked to 64 slots, as in [`Seats`].
    rules: [&'static HitRule; 64],
}

/// The rule of the seats a [`UserRules`] has no player for: stay.
const STAY: &HitRule = &InCode(|_: &PlayerView<'_>| false);

impl UserRules {
    /// The rules of `policies` when every one is a user policy's rule with
    /// the default choices.
    pub fn of(policies: &[Policy]) -> Option<UserRules> {
        let mut rules = [STAY; 64];
        for (r, p) in rules.iter_mut().zip(policies) {
            match p.rule {
                Rule::User(u) if *p == Policy::with_defaults(p.rule) => *r = u.decide(),
                _ => return None,
            }
        }
        (policies.len() <= MAX_PLAYERS).then_some(UserRules { rules })
    }
}

impl Chooser for UserRules {
    #[inline(always)]
    fn hit(&mut self, t: &Table, seat: usize) -> bool {
        self.rules[seat & 63].hit(&PlayerView { t, seat })
    }
    #[inline(always)]
    fn target(&mut self, t: &Table, chooser: usize, card: Card) -> usize {
        if card == FREEZE {
            default_freeze_target(t, chooser)
        } else {
            default_flip_three_target(t, chooser)
        }
    }
    #[inline]
    fn second_chance_to(&mut self, t: &Table, holder: usize) -> Option<usize> {
        default_second_chance_to(t, holder)
    }
}

/// `rollout:K`: for each of K imagined deals, copies the table, shuffles
/// its unseen draw pile anew (the player never knows the real order), and
/// plays the rest of the game once after Hit and once after Stay from that
/// same deal (common random numbers), every seat then playing
/// `stay-at-25`. Hits when Hit wins more of the K games than Stay; on a
/// tie, does what `stay-at-25` would.
pub fn rollout_hits(t: &Table, seat: usize, k: u32, scratch: &mut Scratch) -> bool {
    let copy = scratch.lookahead.get_or_insert_with(|| Box::new(t.clone()));
    let mut wins = [0u32; 2]; // after Stay, after Hit
    for _ in 0..k {
        let deal = scratch.rng.next_u64();
        for (hit, won) in [false, true].into_iter().zip(wins.iter_mut()) {
            (**copy).clone_from(t);
            let mut d = SimRng::seed_from_u64(deal);
            copy.shuffle_draw_pile(&mut d);
            let winner = copy.finish_game_from(
                seat,
                hit,
                &mut Thresholds::uniform(ROLLOUT_BASE),
                &mut Silent,
                &mut d,
            );
            *won += u32::from(winner == Some(seat));
        }
    }
    match wins[1].cmp(&wins[0]) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Equal => t.hand(seat).banked() < ROLLOUT_BASE,
    }
}

/// The threshold `endgame:N` plays in the current state: N, adjusted by the
/// game scores (all public):
///
/// - **banking wins:** when the game total plus the cards in front reach 200
///   and beat every opponent's total plus what they have in front, stay
///   (threshold 0 above that point: the banked score is enough);
/// - **an opponent is close:** when an opponent could end the game this
///   round (their total plus their cards in front reach 200) or already
///   stands at 200 - N or more, and this player cannot catch them by
///   staying, the threshold rises to what it takes to pass them (at most
///   N + 25);
/// - **far ahead:** at least 50 points ahead of every opponent, the
///   threshold drops to N - 5 (play safe).
pub fn endgame_threshold(t: &Table, seat: usize, n: u16) -> u16 {
    let me = t.total(seat);
    let banked = u32::from(t.hand(seat).banked());
    let mut best_other = 0u32; // an opponent's total plus cards in front
    let mut best_total = 0u32; // an opponent's game total
    for s in (0..t.players()).filter(|&s| s != seat) {
        let h = t.hand(s);
        let in_front = if h.status == Status::Busted {
            0
        } else {
            u32::from(h.banked())
        };
        best_other = best_other.max(t.total(s) + in_front);
        best_total = best_total.max(t.total(s));
    }
    if me + banked >= TARGET && me + banked > best_other {
        return 0;
    }
    let n32 = u32::from(n);
    let threatened = best_other >= TARGET || best_total + n32 >= TARGET;
    if threatened && me + banked <= best_other {
        let to_pass = best_other + 1 - me;
        return to_pass.clamp(n32, n32 + 25) as u16;
    }
    if t.players() > 1 && me >= best_total + 50 {
        return n.saturating_sub(5);
    }
    n
}

/// What a player who tracks every card seen knows of the next card: the
/// count of each kind it may be, and their total. Cards in front of players
/// and in the discard pile are public, so the draw pile holds the rest;
/// when the draw pile is empty the next card comes from the reshuffled
/// discard pile. Never looks at the draw pile's order.
pub fn next_card_counts(t: &Table) -> ([u8; KINDS], u32) {
    let mut counts = [0u8; KINDS];
    if t.pile_len() == 0 {
        counts = *t.discard_counts();
    } else {
        let comp = t.rules().composition;
        for (k, c) in counts.iter_mut().enumerate() {
            *c = comp[k] - t.discard_counts()[k] - t.in_play_counts()[k];
        }
    }
    let total = counts.iter().map(|&c| u32::from(c)).sum();
    (counts, total)
}

/// The chance that the next card busts `seat`: a number it holds, unless it
/// holds a Second Chance.
pub fn bust_chance(t: &Table, seat: usize) -> f64 {
    let h = t.hand(seat);
    if h.second_chance {
        return 0.0;
    }
    let (counts, total) = next_card_counts(t);
    if total == 0 {
        return 0.0;
    }
    let dup: u32 = (0..=MAX_NUMBER)
        .filter(|&n| h.has(n))
        .map(|n| u32::from(counts[usize::from(n)]))
        .sum();
    f64::from(dup) / f64::from(total)
}

/// Expected round score of `seat` after one more card from the counted draw
/// pile, scoring the round as if it ended right after: a new number adds
/// (doubled by x2, with the Flip 7 bonus for a seventh), a duplicate scores
/// 0 (or is cancelled by a held Second Chance), a modifier adds or doubles,
/// and an action card leaves the score unchanged (it is passed on).
pub fn expected_after_hit(t: &Table, seat: usize) -> f64 {
    let (sum, total) = score_after_hit_sum(t, seat);
    if total == 0 {
        return f64::from(t.hand(seat).banked());
    }
    sum as f64 / f64::from(total)
}

/// The `ev` rule in exact integers: hit when the expected score after one
/// more card beats the banked score, i.e. `sum > banked * total`.
fn ev_hits(t: &Table, seat: usize) -> bool {
    let (sum, total) = score_after_hit_sum(t, seat);
    sum > u64::from(t.hand(seat).banked()) * u64::from(total)
}

/// The sum over every card the next draw may be (each counted once) of the
/// round score right after it, and the number of such cards; see
/// [`expected_after_hit`].
fn score_after_hit_sum(t: &Table, seat: usize) -> (u64, u32) {
    let h = t.hand(seat);
    let (counts, total) = next_card_counts(t);
    let banked = u64::from(h.banked());
    let bonus = if u32::from(h.count) + 1 >= FLIP7_CARDS {
        FLIP7_BONUS
    } else {
        0
    };
    let mut sum = 0u64;
    for (k, &c) in counts.iter().enumerate() {
        let card = k as Card;
        let after = if card <= MAX_NUMBER {
            if h.has(card) {
                if h.second_chance { banked } else { 0 }
            } else {
                u64::from(((h.number_sum + u16::from(card)) << h.times2) + h.plus + bonus)
            }
        } else if card == TIMES2 {
            u64::from((h.number_sum << (h.times2 + 1)) + h.plus)
        } else if card < TIMES2 {
            banked + u64::from(plus_value(card))
        } else {
            banked
        };
        sum += u64::from(c) * after;
    }
    (sum, total)
}

/// The chance that three more cards bust `seat`, from the counted draw
/// pile: exact over every sequence of three cards, a held Second Chance
/// cancelling the first duplicate and one drawn on the way kept for later.
/// Action cards drawn on the way count as neither bust nor safe beyond
/// taking their place among the three (as a set-aside card would).
pub fn flip_three_bust_chance(t: &Table, seat: usize) -> f64 {
    let h = t.hand(seat);
    let (mut counts, total) = next_card_counts(t);
    let dup: u32 = (0..=MAX_NUMBER)
        .filter(|&n| h.has(n))
        .map(|n| u32::from(counts[usize::from(n)]))
        .sum();
    bust_within(&mut counts, total, h.numbers, dup, h.second_chance, 3)
}

/// The chance of a bust within `left` more cards from `counts` (`total`
/// cards), holding the numbers of `held` (`dup` cards left would duplicate
/// one) and a Second Chance if `sc`. Only the total of duplicating cards
/// matters, not which number they duplicate; the last card needs no
/// recursion.
fn bust_within(counts: &mut [u8; KINDS], total: u32, held: u16, dup: u32, sc: bool, left: u8) -> f64 {
    if left == 0 || total == 0 {
        return 0.0;
    }
    let all = f64::from(total);
    if left == 1 {
        return if sc { 0.0 } else { f64::from(dup) / all };
    }
    let mut p = 0.0;
    let mut rest = total; // cards that change nothing (modifiers, Freeze, Flip Three)
    if dup > 0 {
        rest -= dup;
        p += f64::from(dup) / all
            * if sc {
                bust_within(counts, total - 1, held, dup - 1, false, left - 1)
            } else {
                1.0
            };
    }
    for k in 0..=usize::from(MAX_NUMBER) {
        let c = counts[k];
        if c == 0 || held & (1 << k) != 0 {
            continue;
        }
        rest -= u32::from(c);
        counts[k] -= 1;
        let after = bust_within(
            counts,
            total - 1,
            held | 1 << k,
            dup + u32::from(c) - 1,
            sc,
            left - 1,
        );
        counts[k] += 1;
        p += f64::from(c) / all * after;
    }
    let spare = u32::from(counts[usize::from(SECOND_CHANCE)]);
    if spare > 0 {
        rest -= spare;
        counts[usize::from(SECOND_CHANCE)] -= 1;
        p += f64::from(spare) / all * bust_within(counts, total - 1, held, dup, true, left - 1);
        counts[usize::from(SECOND_CHANCE)] += 1;
    }
    if rest > 0 {
        p += f64::from(rest) / all * bust_within(counts, total - 1, held, dup, sc, left - 1);
    }
    p
}

/// The first opponent of `chooser` still in the round, clockwise from its
/// left, with the greatest `key` among those for which `key` is not `None`.
///
/// Written without data-dependent branches (the loop runs over every seat,
/// and the comparison compiles to conditional moves): who is active and
/// what they hold is unpredictable, and this runs for every action card.
#[inline]
fn best_opponent(t: &Table, chooser: usize, key: impl Fn(usize) -> Option<u64>) -> Option<usize> {
    let n = t.players();
    let (mut best_seat, mut best_key) = (chooser, 0u64);
    let mut s = chooser;
    for _ in 1..n {
        s = if s + 1 == n { 0 } else { s + 1 };
        // Keys are shifted up by one so that 0 means "not a candidate".
        let k = match key(s) {
            Some(k) if t.is_active(s) => k + 1,
            _ => 0,
        };
        let better = k > best_key;
        best_seat = if better { s } else { best_seat };
        best_key = if better { k } else { best_key };
    }
    (best_key > 0).then_some(best_seat)
}

/// Default Freeze target: the active opponent with the highest game total,
/// ties to the first clockwise from the chooser; the chooser itself when no
/// opponent is active.
pub fn default_freeze_target(t: &Table, chooser: usize) -> usize {
    best_opponent(t, chooser, |s| Some(u64::from(t.total(s)))).unwrap_or(chooser)
}

/// Default Flip Three target: the active opponent with the most number cards,
/// ties by highest game total, then first clockwise; the chooser itself when
/// no opponent is active.
pub fn default_flip_three_target(t: &Table, chooser: usize) -> usize {
    best_opponent(t, chooser, |s| {
        Some((u64::from(t.hand(s).number_count()) << 32) | u64::from(t.total(s)))
    })
    .unwrap_or(chooser)
}

/// Default recipient of a spare Second Chance: the active opponent without
/// one who has the lowest game total, ties first clockwise; `None` (discard)
/// when there is none.
pub fn default_second_chance_to(t: &Table, holder: usize) -> Option<usize> {
    // Lowest total first: the key falls as the total rises.
    best_opponent(t, holder, |s| {
        (!t.hand(s).second_chance).then(|| u64::from(u32::MAX - t.total(s)))
    })
}

/// How [`Seats`] decides a seat's Hit or Stay inline.
#[derive(Clone, Copy, Debug)]
enum Quick {
    /// A plain `stay-at-N`.
    StayAt(u16),
    /// A plain `cards-N`.
    Cards(u8),
    /// Any other rule, out of line ([`hit_with`]).
    Other,
    /// `+hit-on-second-chance` or `stay-at-random`, out of line.
    Special,
    /// A user policy's rule, called through its pointer in
    /// [`Seats::users`].
    User,
}

/// One policy per seat: the [`Chooser`] used by simulations, with the
/// scratch space of the rules that search.
pub struct Seats {
    /// Indexed by seat masked to 64 slots: no bounds check in the hot loop.
    policies: Box<[Policy; 64]>,
    scratch: Scratch,
    /// What [`Seats::hit`] decides inline for each seat (the plain rules);
    /// everything else goes out of line, so that the new parts of a spec
    /// cost the policies without them nothing.
    quick: [Quick; 64],
    /// Per seat: bit 0 when its Freezes go to the default target, bit 1
    /// when its Flip Threes do (no `+target`, default choices).
    default_targets: [u8; 64],
    /// The threshold each `stay-at-random:LO..HI` seat plays this game
    /// (LO until [`Seats::draw_game_values`] draws one).
    drawn: [u16; 64],
    /// Seats at the table.
    players: usize,
    /// The rule of each [`Quick::User`] seat (stay for the others).
    users: [&'static HitRule; 64],
}

impl Seats {
    /// `policies[s]` plays seat `s`.
    pub fn new(policies: Vec<Policy>) -> Seats {
        assert!(policies.len() <= MAX_PLAYERS);
        let mut all = Box::new([Policy::stay_at(0); 64]);
        all[..policies.len()].copy_from_slice(&policies);
        let mut drawn = [0; 64];
        let mut quick = [Quick::StayAt(0); 64];
        let mut default_targets = [3; 64];
        let mut users = [STAY; 64];
        for (s, p) in policies.iter().enumerate() {
            if let Rule::StayAtRandom { lo, .. } = p.rule {
                drawn[s] = lo;
            }
            quick[s] = match p.rule {
                _ if p.hit_on_second_chance => Quick::Special,
                Rule::StayAtRandom { .. } => Quick::Special,
                Rule::StayAt(n) => Quick::StayAt(n),
                Rule::Cards(n) => Quick::Cards(n),
                Rule::User(u) => {
                    users[s] = u.decide();
                    Quick::User
                }
                _ => Quick::Other,
            };
            let plain = p.target.is_none() && p.rule.max_win().is_none();
            default_targets[s] = u8::from(plain && p.freeze == FreezeChoice::Leader)
                | u8::from(plain && p.flip_three == FlipThreeChoice::MostCards) << 1;
        }
        Seats {
            policies: all,
            scratch: Scratch::new(0),
            quick,
            default_targets,
            drawn,
            players: policies.len(),
            users,
        }
    }

    /// Draws what the seats' policies fix for one game: for each
    /// `stay-at-random:LO..HI` seat, in seat order, one threshold uniform
    /// from LO to HI. Simulations call it once per game, from the game's
    /// own random stream just after the deck is shuffled, so the deal is
    /// the one any other line-up gets and a game's draws depend on nothing
    /// but the seed. Other policies draw nothing.
    pub fn draw_game_values<D: Draw>(&mut self, d: &mut D) {
        for s in 0..self.players {
            if let Rule::StayAtRandom { lo, hi } = self.policies[s].rule {
                self.drawn[s] = lo + d.below(u32::from(hi - lo) + 1) as u16;
            }
        }
    }

    /// The threshold seat `seat` plays this game, if its policy is
    /// `stay-at-random:LO..HI`.
    pub fn drawn_threshold(&self, seat: usize) -> Option<u16> {
        matches!(self.policies[seat & 63].rule, Rule::StayAtRandom { .. }).then_some(self.drawn[seat & 63])
    }

    /// Seeds the random numbers of `rollout:K` (simulations do it once per
    /// batch, from the batch's stream, so runs repeat exactly).
    pub fn seed(&mut self, seed: u64) {
        self.scratch.rng = SimRng::seed_from_u64(seed);
    }

    #[inline(always)]
    fn decide(&mut self, t: &Table, seat: usize) -> bool {
        match self.quick[seat & 63] {
            Quick::StayAt(n) => t.hand(seat).banked() < n,
            Quick::Cards(n) => t.hand(seat).count < n,
            Quick::Other => hit_with(self.policies[seat & 63].rule, t, seat, &mut self.scratch),
            Quick::Special => self.decide_special(t, seat),
            Quick::User => self.users[seat & 63].hit(&PlayerView { t, seat }),
        }
    }

    /// The decisions of `+hit-on-second-chance` and `stay-at-random`.
    #[inline(never)]
    fn decide_special(&mut self, t: &Table, seat: usize) -> bool {
        let p = &self.policies[seat & 63];
        if p.hit_on_second_chance && t.hand(seat).second_chance {
            return true;
        }
        match p.rule {
            Rule::StayAtRandom { .. } => t.hand(seat).banked() < self.drawn[seat & 63],
            rule => hit_with(rule, t, seat, &mut self.scratch),
        }
    }

    /// A target chosen by a rule other than the default (out of line).
    #[inline(never)]
    fn chosen_target(&mut self, t: &Table, chooser: usize, card: Card) -> usize {
        let p = self.policies[chooser & 63];
        if let Some(seat) = p.target.map(usize::from)
            && seat != chooser
            && t.is_active(seat)
        {
            return seat;
        }
        if let Some((m, between)) = p.rule.max_win() {
            return super::max_win::target(t, chooser, card, &Policy::from(m.rule()), between, &mut self.scratch.max_win);
        }
        let me_ok = t.is_active(chooser);
        let total = |s: usize| u64::from(t.total(s));
        let cards = |s: usize| u64::from(t.hand(s).number_count());
        let banked = |s: usize| u64::from(t.hand(s).banked());
        let pick =
            |key: &dyn Fn(usize) -> u64| best_opponent(t, chooser, |s| Some(key(s))).unwrap_or(chooser);
        if card == FREEZE {
            match p.freeze {
                FreezeChoice::Leader => default_freeze_target(t, chooser),
                FreezeChoice::MostCards => pick(&|s| (cards(s) << 32) | total(s)),
                FreezeChoice::LeastBanked => pick(&|s| u64::from(u16::MAX) - banked(s)),
                FreezeChoice::SelfWhenSafe => {
                    if me_ok && !self.decide(t, chooser) {
                        chooser
                    } else {
                        default_freeze_target(t, chooser)
                    }
                }
            }
        } else {
            match p.flip_three {
                FlipThreeChoice::MostCards => default_flip_three_target(t, chooser),
                FlipThreeChoice::Leader => pick(&|s| (total(s) << 8) | cards(s)),
                FlipThreeChoice::MostBanked => pick(&|s| banked(s)),
                FlipThreeChoice::SelfWhenSafe => {
                    if me_ok && flip_three_bust_chance(t, chooser) < SAFE_FLIP_THREE {
                        chooser
                    } else {
                        default_flip_three_target(t, chooser)
                    }
                }
            }
        }
    }
}

impl Chooser for Seats {
    #[inline(always)]
    fn hit(&mut self, t: &Table, seat: usize) -> bool {
        self.decide(t, seat)
    }

    #[inline(always)]
    fn target(&mut self, t: &Table, chooser: usize, card: Card) -> usize {
        let defaults = self.default_targets[chooser & 63];
        if card == FREEZE && defaults & 1 != 0 {
            default_freeze_target(t, chooser)
        } else if card != FREEZE && defaults & 2 != 0 {
            default_flip_three_target(t, chooser)
        } else {
            self.chosen_target(t, chooser, card)
        }
    }

    #[inline]
    fn second_chance_to(&mut self, t: &Table, holder: usize) -> Option<usize> {
        let without = |s: usize| !t.hand(s).second_chance;
        match self.policies[holder & 63].second_chance {
            PassChoice::Lowest => default_second_chance_to(t, holder),
            PassChoice::LeastBanked => best_opponent(t, holder, |s| {
                without(s).then(|| u64::from(u16::MAX - t.hand(s).banked()))
            }),
            PassChoice::FewestCards => best_opponent(t, holder, |s| {
                without(s).then(|| u64::from(u32::MAX - t.hand(s).number_count()))
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_specs() {
        assert_eq!(Policy::parse("stay-at-25"), Ok(Policy::stay_at(25)));
        assert_eq!(Policy::parse_list("stay-at-20,stay-at-30").unwrap().len(), 2);
        assert_eq!(Policy::stay_at(7).to_string(), "stay-at-7");
        let e = Policy::parse("yolo").unwrap_err();
        assert!(e.contains("'yolo'") && e.contains("stay-at-N"), "{e}");
        assert!(Policy::parse("stay-at-x").is_err());
        assert!(Policy::parse("stay-at--3").is_err());
        assert_eq!(Policy::parse("rollout:50").unwrap().rule, Rule::Rollout(50));
        assert!(Policy::parse("rollout:0").is_err());
        assert_eq!(Policy::parse("optimal-round").unwrap().rule, Rule::OptimalRound);
    }

    #[test]
    fn parses_action_card_choices_and_prints_them_back() {
        let p = Policy::parse("ev+flip-three:self-when-safe+freeze:least-banked").unwrap();
        assert_eq!(p.rule, Rule::Ev);
        assert_eq!(p.freeze, FreezeChoice::LeastBanked);
        assert_eq!(p.flip_three, FlipThreeChoice::SelfWhenSafe);
        assert_eq!(p.second_chance, PassChoice::Lowest);
        assert_eq!(p.to_string(), "ev+freeze:least-banked+flip-three:self-when-safe");
        // Defaults spelled out print as the bare rule.
        assert_eq!(
            Policy::parse("stay-at-25+freeze:leader+second-chance:lowest")
                .unwrap()
                .to_string(),
            "stay-at-25"
        );
        for bad in [
            "ev+freeze:nobody",
            "ev+freeze",
            "ev+colour:red",
            "ev+freeze:leader+freeze:most-cards",
        ] {
            let e = Policy::parse(bad).unwrap_err();
            assert!(e.contains(bad), "{e}");
        }
        let e = Policy::parse("ev+flip-three:nobody").unwrap_err();
        assert!(
            e.contains("most-cards, leader, most-banked, self-when-safe"),
            "{e}"
        );
    }

    #[test]
    fn parses_the_variants_and_prints_them_back() {
        let cases = [
            ("stay-at-numbers-20", "stay-at-numbers-20"),
            ("chase:25/0.1", "chase:25/0.1"),
            ("chase:25.0/0", "chase:25/0"),
            ("chase:12.345/0.050", "chase:12.345/0.05"),
            ("stay-at-random:20..30", "stay-at-random:20..30"),
            ("stay-at-random:25..25", "stay-at-random:25..25"),
            ("peek", "peek"),
            ("stay-at-25+hit-on-second-chance", "stay-at-25+hit-on-second-chance"),
            (
                "ev+target:2+freeze:most-cards+hit-on-second-chance",
                "ev+hit-on-second-chance+freeze:most-cards+target:2",
            ),
        ];
        for (spec, shown) in cases {
            let p = Policy::parse(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
            assert_eq!(p.to_string(), shown);
            assert_eq!(Policy::parse(shown), Ok(p), "{shown} parses back");
        }
        assert_eq!(
            Policy::parse("stay-at-random:20..30").unwrap().rule,
            Rule::StayAtRandom { lo: 20, hi: 30 }
        );
        assert!(Policy::parse("peek").unwrap().cheats());
        assert!(!Policy::parse("ev").unwrap().cheats());
        for bad in [
            "stay-at-numbers-x",
            "stay-at-random:30..20",
            "stay-at-random:20-30",
            "stay-at-random:..30",
            "chase:25",
            "chase:-1/0.1",
            "chase:25/nan",
            "chase:25/inf",
            "chase:25/0.0001",
            "chase:25./1",
            "chase:.5/1",
            "chase:1000001/0",
            "ev+target:x",
            "ev+target:36",
            "ev+hit-on-second-chance+hit-on-second-chance",
            "ev+target:1+target:2",
        ] {
            let e = Policy::parse(bad).unwrap_err();
            assert!(e.contains(bad), "{bad}: {e}");
        }
    }

    /// A rule is passed by value to the decision code of every seat: it
    /// stays two words (a larger one is passed through memory, which cost
    /// 2% more instructions per `ev` game when it was three).
    #[test]
    fn a_rule_stays_two_words() {
        assert!(std::mem::size_of::<Rule>() <= 16, "{}", std::mem::size_of::<Rule>());
    }

    #[test]
    fn every_catalogue_entry_parses() {
        for (_, entries) in CATALOGUE {
            for e in *entries {
                let spec = e
                    .spec
                    .replace("-N", "-4")
                    .replace(":N", ":4")
                    .replace(":P", ":0.3")
                    .replace(":K", ":3")
                    .replace("BASE/SLOPE", "25/0.1")
                    .replace("LO..HI", "20..30")
                    .replace(":SEAT", ":1")
.replace(":MODEL", ":stay-at-25")
                    .replace(":RULE", ":ev");
                // The parts added to a rule are tried on one.
                let spec = if ["hit-on-second-chance", "target:1"].contains(&spec.as_str()) {
                    format!("ev+{spec}")
                } else if spec == "playout:ev" {
                    format!("ismcts:4+{spec}")
                } else {
                    spec
                };
                let spec = if [
                    "leader",
                    "most-cards",
                    "least-banked",
                    "self-when-safe",
                    "most-banked",
                    "lowest",
                    "fewest-cards",
                ]
                .contains(&spec.as_str())
                {
                    continue;
                } else {
                    spec
                };
                Policy::parse(&spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
            }
        }
        for (key, options) in [
            ("freeze", FREEZE_CHOICES.iter().map(|o| o.0).collect::<Vec<_>>()),
            ("flip-three", FLIP_THREE_CHOICES.iter().map(|o| o.0).collect()),
            ("second-chance", PASS_CHOICES.iter().map(|o| o.0).collect()),
        ] {
            let listed: Vec<&str> = CATALOGUE
                .iter()
                .find(|(title, _)| title.starts_with(&format!("+{key}:")))
                .unwrap()
                .1
                .iter()
                .map(|e| e.spec)
                .collect();
            assert_eq!(listed, options, "{key}");
        }
    }
}
