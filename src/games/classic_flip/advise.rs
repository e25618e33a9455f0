//! `sim advise classic-flip`: a Classic Flip decision read from a JSON
//! trace ([`super::advise_trace`]), as the engine's advice needs it
//! ([`Position`]).
//!
//! The position is the table the rules engine holds when it asks the
//! decision, replayed from the trace. What the mover is shown and what
//! the moves are follow from what the mover knows only (its [`View`]):
//! its hand, the community, the discard pile, every hand's size, total
//! and penalty, the cards it knows in other hands, the caller. A playout
//! deals everything else anew with the search's sampler
//! ([`View::sample_world`], which gathers the unseen cards in card order
//! before shuffling them, so that where they lay in the trace cannot
//! matter), plays the move, and plays the rest of the game with the model
//! in every seat ([`Table::finish_game_from`]).
//!
//! The moves are every legal start option (draw two, the call, each
//! community card, each action card's playable functions, Any's included,
//! Take and Swap on every opponent; a Steal takes its victims and
//! community slots as `rollout:K` chooses them), and at the other
//! decisions the candidates `rollout:K` and `ismcts:N` weigh: no challenge
//! or each player a challenge could win against; the discard of the model
//! and the discards keeping seven to ten cards; no Block or a Block with
//! each kind of Block card held; every card of the hand a Take sees; every
//! pair of the penalty discards; at the discard down to six inside a hand
//! challenge, every card when one goes, else the model's discard and
//! every discard that swaps one of its cards for a kept one. The model's
//! own answer comes first, and
//! the move the trace records is added when it is none of these.

use rand::SeedableRng;
use serde_json::{Value, json};

use super::advise_trace::{self, Answer, Ask, Replayed};
use super::cards::{ACTION_CARDS, ANY, Card, CardSet, Func, action, cards_of, count};
use super::policies::{Policy, Wants, start_options, steal_slots, steal_victims};
use super::rollout::{
    Fixed, Scripted, block_options, challenge_options, collector_rule, discard_options, first_then, forced_options,
    penalty_options, pick_options,
};
use super::rules::{Chooser, EMPTY, End, LIMIT_6, Observer, Play, Rules, Start, Table, View};
use super::trace::json_name;
use crate::engine::advise::{WIN_CHANCE, Measure, Move, Position, TraceCut};
use crate::engine::rng::SimRng;

const MEASURES: &[Measure] = &[
    WIN_CHANCE,
    Measure {
        name: "round score",
        key: "round_score",
        chance: false,
    },
];

/// A Classic Flip decision, ready for playouts.
pub struct ClassicFlipPosition {
    replayed: Replayed,
    model: Policy,
    moves: Vec<(Fixed, Move)>,
}

/// The decision a traced answer makes, as a move of the search.
fn fixed_of(a: Answer) -> Fixed {
    match a {
        Answer::Start(s) => Fixed::Start(s),
        Answer::Challenge(q) => Fixed::Challenge(Some(q)),
        Answer::Discard(c) => Fixed::Discard(c),
        Answer::Block(c) => Fixed::Block(Some(c)),
        Answer::Pick(c) => Fixed::Pick(c),
        Answer::Penalty(c) => Fixed::Penalty(c),
        Answer::Forced(c) => Fixed::Forced(c),
    }
}

/// Card names as the trace writes them (decks), and the community
/// slots of the decision.
struct Cards(u8, [Card; 3]);

impl Cards {
    fn of(r: &Replayed) -> Cards {
        Cards(r.rules.deck.decks, r.view.community())
    }
    fn one(&self, c: Card) -> String {
        json_name(c, self.0)
    }
    fn list(&self, s: CardSet) -> Vec<String> {
        cards_of(s).map(|c| self.one(c)).collect()
    }
    fn words(&self, s: CardSet) -> String {
        if s == 0 { "nothing".into() } else { self.list(s).join(" ") }
    }
}

/// A seat set of a Steal, as `1,2,3`.
fn seats_of(mask: u8) -> String {
    (0..8).filter(|s| mask & (1 << s) != 0).map(|s: u8| s.to_string()).collect::<Vec<_>>().join(",")
}

/// A move's name and key.
fn describe(f: Fixed, cards: &Cards) -> Move {
    let (name, key) = match f {
        Fixed::Start(Start::Draw2) => ("draw two".to_string(), "draw2".to_string()),
        Fixed::Start(Start::Flip) => ("call Flip!".into(), "flip".into()),
        Fixed::Start(Start::Community(slot)) => {
            let c = cards.1[usize::from(slot).min(2)];
            let card = if c == EMPTY { "-".into() } else { cards.one(c) };
            (format!("take community {card} (slot {slot})"), format!("community:{slot}"))
        }
        Fixed::Start(Start::Play(p)) => play_words(&p, cards),
        Fixed::Challenge(None) => ("no challenge".into(), "none".into()),
        Fixed::Challenge(Some(q)) => (format!("challenge seat {q}"), format!("challenge:{q}")),
        Fixed::Discard(c) => (
            format!("discard {}", cards.words(c)),
            format!("discard:{}", cards.list(c).join(",")),
        ),
        Fixed::Block(None) => ("no Block".into(), "none".into()),
        Fixed::Block(Some(c)) => (format!("Block with {}", cards.one(c)), format!("block:{}", cards.one(c))),
        Fixed::Pick(c) => (format!("take {}", cards.one(c)), format!("pick:{}", cards.one(c))),
        Fixed::Penalty(c) => (
            format!("take {}", cards.words(c)),
            format!("penalty:{}", cards.list(c).join(",")),
        ),
        Fixed::Forced(c) => (
            format!("discard {}", cards.words(c)),
            format!("discard:{}", cards.list(c).join(",")),
        ),
    };
    Move {
        name,
        key,
        exact: Vec::new(),
    }
}

/// An action card played: in words and as a key.
fn play_words(p: &Play, cards: &Cards) -> (String, String) {
    let card = cards.one(p.card);
    let f = p.func.key();
    match p.func {
        Func::Take | Func::Swap => (
            format!("play {card} as {} seat {}", if p.func == Func::Take { "take from" } else { "swap with" }, p.target),
            format!("{f}:{}:{card}", p.target),
        ),
        Func::Steal => {
            let slots = if p.slots == 0 { String::new() } else { format!(" and community slot {}", seats_of(p.slots)) };
            (
                format!("play {card} as steal from seat {}{slots}", seats_of(p.victims)),
                format!("steal:{}:{}:{card}", seats_of(p.victims), seats_of(p.slots)),
            )
        }
        _ => (format!("play {card} as {}", f.replace('_', " ")), format!("{f}:{card}")),
    }
}

/// The advice's key of the set of cards `cards` chosen at `v`: a
/// discard, end-of-turn or forced (`discard:...`), or the cards taken
/// from a caught player's discards (`penalty:...`).
pub(super) fn set_key(v: &View<'_>, cards: CardSet, penalty: bool) -> String {
    let names = Cards(v.rules().deck.decks, v.community());
    describe(if penalty { Fixed::Penalty(cards) } else { Fixed::Discard(cards) }, &names).key
}

/// Every legal start option of `v`'s player as [`all_starts`] lists them,
/// each with its name and its key in the advice (for `sim play`, whose
/// moves must be the advice's).
pub(super) fn start_moves(v: &View<'_>) -> Vec<(Start, Move)> {
    let cards = Cards(v.rules().deck.decks, v.community());
    all_starts(v)
        .into_iter()
        .map(|s| (s, describe(Fixed::Start(s), &cards)))
        .collect()
}

/// Every legal start option of `v`'s player: [`start_options`], Any
/// played as each function, and after each Steal the bots' way (its
/// victims and community slots) every other legal choice of them.
fn all_starts(v: &View<'_>) -> Vec<Start> {
    let mut all = Vec::new();
    for s in some_starts(v) {
        all.push(s);
        if let Start::Play(p) = s
            && p.func == Func::Steal
        {
            all.extend(other_steals(v, p).into_iter().map(Start::Play));
        }
    }
    all
}

/// The Steals of `p`'s card but its own victims and slots: every set of
/// victims of the size the rules ask (each opponent at four players or
/// fewer, three of them at more) with every set of community slots
/// allowed (none or up to three cards in all), in mask order.
fn other_steals(v: &View<'_>, p: Play) -> Vec<Play> {
    let n = v.players();
    let opponents = ((1u16 << n) - 1) as u8 & !(1 << v.seat());
    let want = (n - 1).min(3) as u32;
    let filled = (0..3u8).filter(|&s| v.community()[usize::from(s)] != EMPTY).fold(0u8, |m, s| m | 1 << s);
    let mut out = Vec::new();
    for victims in (1..=opponents).filter(|m| m & !opponents == 0 && m.count_ones() == want) {
        for slots in (0..=filled).filter(|m| m & !filled == 0) {
            let mut q = p;
            q.victims = victims;
            q.slots = slots;
            if (victims, slots) != (p.victims, p.slots) && v.playable(&q) {
                out.push(q);
            }
        }
    }
    out
}

/// [`start_options`] and Any played as each function.
fn some_starts(v: &View<'_>) -> Vec<Start> {
    let wants = Wants::of(v);
    let mut all = start_options(v, &wants);
    for c in cards_of(v.hand() & ACTION_CARDS).filter(|&c| action(c) == Some(ANY)) {
        for f in Func::ALL {
            let mut p = Play::new(c, f);
            let targets: Vec<u8> = match f {
                Func::Take | Func::Swap => (0..v.players()).filter(|&q| q != v.seat()).map(|q| q as u8).collect(),
                _ => vec![0],
            };
            if f == Func::Steal {
                p.victims = steal_victims(v);
                p.slots = steal_slots(v, &wants);
            }
            for t in targets {
                p.target = t;
                if v.playable(&p) {
                    all.push(Start::Play(p));
                }
            }
        }
    }
    all
}

/// The moves of the decision: the model's answer first, then the others
/// considered, then the trace's when it is none of them.
fn moves_of(r: &Replayed, model: Policy) -> Vec<Fixed> {
    let v = View::new(&r.view, r.mover);
    // The model's answers and the discards it is asked for depend on the
    // view only; a fixed generator keeps a random model's answer fixed.
    let mut d = SimRng::seed_from_u64(0);
    let mut m = model;
    let mut moves = match r.ask {
        Ask::Start => first_then(m.start(&v, &mut d), all_starts(&v))
            .into_iter()
            .map(Fixed::Start)
            .collect::<Vec<_>>(),
        Ask::Challenge => challenge_options(m.challenge(&v, &mut d), &v).into_iter().map(Fixed::Challenge).collect(),
        Ask::Discard { limit } => {
            let first = m.discard(&v, limit, false, &mut d);
            discard_options(first, &collector_rule(&model), &v, limit, &mut d)
                .into_iter()
                .map(Fixed::Discard)
                .collect()
        }
        Ask::Block { by, func } => block_options(m.block(&v, by, func, &mut d), &v)
            .into_iter()
            .map(Fixed::Block)
            .collect(),
        Ask::Pick { from } => pick_options(m.take_pick(&v, from, &mut d), &v, from)
            .into_iter()
            .map(Fixed::Pick)
            .collect(),
        Ask::Penalty { pile } => penalty_options(m.take_penalty(&v, pile, &mut d), pile)
            .into_iter()
            .map(Fixed::Penalty)
            .collect(),
        Ask::Forced { .. } => {
            let need = v.hand_size(r.mover).saturating_sub(LIMIT_6);
            forced_options(m.discard(&v, LIMIT_6, true, &mut d), &v, need)
                .into_iter()
                .map(Fixed::Forced)
                .collect()
        }
    };
    if let Some(f) = r.traced.map(fixed_of)
        && !moves.contains(&f)
    {
        moves.push(f);
    }
    moves
}

impl ClassicFlipPosition {
    /// The decision of `cut`, every seat playing `model` after the move.
    pub fn from_trace(cut: &TraceCut, model: Policy) -> Result<ClassicFlipPosition, String> {
        let replayed = advise_trace::read(cut)?;
        let cards = Cards::of(&replayed);
        let moves = moves_of(&replayed, model)
            .into_iter()
            .map(|f| (f, describe(f, &cards)))
            .collect();
        Ok(ClassicFlipPosition { replayed, model, moves })
    }

    /// The decision as replayed: the tables kept, who decides, what.
    pub fn replayed(&self) -> &Replayed {
        &self.replayed
    }

    /// The rules of the game.
    pub fn rules(&self) -> &Rules {
        &self.replayed.rules
    }
}

/// Hears the end of the decision's round: the mover's points in it.
struct FirstRound {
    seat: usize,
    points: Option<u32>,
}

impl Observer<Table> for FirstRound {
    const EVENTS: bool = false;
    fn round_end(&mut self, t: &Table) {
        if self.points.is_none() {
            self.points = Some(t.points(self.seat));
        }
    }
    fn game_end(&mut self, _t: &Table, _end: End) {}
}

/// The decision in words and as a JSON key.
fn decision_words(ask: Ask, me: usize, cards: &Cards) -> (String, String) {
    match ask {
        Ask::Start => ("the start of its turn".into(), "start".into()),
        Ask::Challenge => ("whether to challenge a hand".into(), "challenge".into()),
        Ask::Discard { limit } => (format!("its end-of-turn discard (limit {limit})"), format!("discard:{limit}")),
        Ask::Block { by, func } => (
            format!("whether to Block seat {by}'s {}", func.key()),
            format!("block:{by}:{}", func.key()),
        ),
        Ask::Pick { from } => (format!("which card its Take takes from seat {from}"), format!("pick:{from}")),
        Ask::Penalty { pile } => (
            format!("what to take of the penalty discards {}", cards.words(pile)),
            "penalty".into(),
        ),
        Ask::Forced { challenger, challenged } if me == challenged => (
            format!("its discard down to six, caught over the limit by seat {challenger}'s hand challenge"),
            "forced".into(),
        ),
        Ask::Forced { challenged, .. } => (
            format!("its discard down to six after its failed hand challenge of seat {challenged}"),
            "forced".into(),
        ),
    }
}

impl Position for ClassicFlipPosition {
    fn game(&self) -> &'static str {
        "classic-flip"
    }

    fn mover(&self) -> usize {
        self.replayed.mover
    }

    fn players(&self) -> usize {
        self.replayed.rules.players
    }

    fn moves(&self) -> Vec<Move> {
        self.moves.iter().map(|(_, m)| m.clone()).collect()
    }

    fn measures(&self) -> &'static [Measure] {
        MEASURES
    }

    fn score_measure(&self) -> Option<usize> {
        Some(1)
    }

    fn model(&self) -> String {
        self.model.to_string()
    }

    fn read_back(&self) -> (Vec<String>, Value) {
        let r = &self.replayed;
        let t = &r.view;
        let v = View::new(t, r.mover);
        let cards = Cards::of(r);
        let n = r.rules.players;
        let (what, key) = decision_words(r.ask, r.mover, &cards);
        let mut lines = vec![format!(
            "round {}, seat {} deals, turn {}; seat {} to decide {what} (trace line {})",
            t.round() + 1,
            t.dealer(),
            t.turns(),
            r.mover,
            r.line
        )];
        let mut seats = Vec::new();
        for q in 0..n {
            let known = v.known(q);
            let mut notes = Vec::new();
            if v.penalised(q) {
                notes.push("penalised (limit 6)".to_string());
            }
            if v.grace(q) {
                notes.push("protected (a hand received by Swap or Chaos)".into());
            }
            if t.caller() == Some(q) {
                notes.push("called Flip!".into());
            }
            let notes = if notes.is_empty() { String::new() } else { format!("; {}", notes.join(", ")) };
            if q == r.mover {
                lines.push(format!(
                    "seat {q} (to move): total {}, hand {} ({} cards, worth {} now){notes}",
                    v.total(q),
                    cards.words(known),
                    v.hand_size(q),
                    v.score().points
                ));
            } else {
                let seen = if known == 0 { String::new() } else { format!(", known to hold {}", cards.words(known)) };
                lines.push(format!("seat {q}: total {}, {} cards{seen}{notes}", v.total(q), v.hand_size(q)));
            }
            seats.push(json!({
                "seat": q,
                "total": v.total(q),
                "cards": v.hand_size(q),
                "known": cards.list(known),
                "penalised": v.penalised(q),
                "protected": v.grace(q),
            }));
        }
        let com: Vec<Value> = v
            .community()
            .iter()
            .map(|&c| if c == EMPTY { Value::Null } else { cards.one(c).into() })
            .collect();
        let com_words: Vec<String> = v
            .community()
            .iter()
            .map(|&c| if c == EMPTY { "-".into() } else { cards.one(c) })
            .collect();
        let discard = v.discard();
        lines.push(format!(
            "community {}; draw pile {} cards; discard pile {} cards{}",
            com_words.join(" "),
            v.draw_count(),
            count(discard),
            if discard == 0 { String::new() } else { format!(": {}", cards.words(discard)) }
        ));
        if v.played() != 0 {
            lines.push(format!("in play: {}", cards.words(v.played())));
        }
        if let Some(c) = t.caller() {
            lines.push(format!("seat {c} has called Flip!: these are the final turns"));
        }
        let traced = r.traced.map(fixed_of).map(|f| describe(f, &cards));
        if let Some(m) = &traced {
            lines.push(format!("the trace's move: {}", m.name));
        }
        let json = json!({
            "players": n,
            "round": t.round() + 1,
            "dealer": t.dealer(),
            "turn": t.turns(),
            "line": r.line,
            "mover": r.mover,
            "decision": key,
            "hand": cards.list(v.hand()),
            "seats": seats,
            "community": com,
            "draw_pile": v.draw_count(),
            "discard": cards.list(discard),
            "in_play": cards.list(v.played()),
            "caller": t.caller(),
            "traced": traced.map(|m| m.key),
        });
        (lines, json)
    }

    fn playout(&self, mv: usize, rng: &mut SimRng, out: &mut [f64]) {
        let r = &self.replayed;
        let me = r.mover;
        let mut w = View::new(&r.resume, me).sample_world(rng);
        let mut ch = Scripted {
            me,
            mine: self.model,
            others: self.model,
            fixed: Some(self.moves[mv].0),
        };
        let mut first = FirstRound { seat: me, points: None };
        let (actor, at) = r.ask.resume(me);
        let end = w.finish_game_from(actor, at, &mut ch, &mut first, rng);
        out[0] = match end.winner {
            Some(s) => f64::from(u8::from(s == me)),
            None => {
                // The game cap: the leaders share.
                let n = r.rules.players;
                let top = (0..n).map(|q| w.total(q)).max().unwrap_or(0);
                let leaders = (0..n).filter(|&q| w.total(q) == top).count();
                if w.total(me) == top { 1.0 / leaders as f64 } else { 0.0 }
            }
        };
        out[1] = f64::from(first.points.unwrap_or(0));
    }
}
