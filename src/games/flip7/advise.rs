//! `sim advise flip7`: a Flip 7 position at a decision, given by flags or
//! read from a JSON trace ([`super::advise_trace`]), as the engine's advice
//! needs it ([`Position`]).
//!
//! A position holds what every player at the table sees: each player's
//! total, cards in front and state, the dealer, whose turn it is, the cards
//! assigned and waiting, a Flip Three being resolved, and the discard pile.
//! The draw pile is every other card, in an order nobody knows: each
//! playout shuffles it anew, so that no advice can depend on it.

use rand::Rng;
use serde_json::{Value, json};

use super::cards::{
    Card, FLIP_THREE, FREEZE, KINDS, MAX_NUMBER, SECOND_CHANCE, TIMES2, Without, composition, decks_for, is_plus,
    parse_card, plus_value, short_name,
};
use super::policies::{Policy, Seats, next_card_counts};
use super::rules::{Answer, Arrangement, Aside, Hand, MAX_PLAYERS, Observer, Resume, Rules, Status, TARGET, Table};
use crate::engine::advise::{WIN_CHANCE, Exact, Measure, Move, Position};
use crate::engine::rng::SimRng;

/// The model every seat plays after the move when `--model` is not given:
/// the one `max-win` assumes of its opponents.
pub const DEFAULT_MODEL: &str = "ev";

/// One player at the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// Game total before this round.
    pub total: u32,
    /// Number cards, modifiers and a Second Chance in front (a busted
    /// player's duplicate too), in the order given. Freezes and Flip
    /// Threes in front follow from the rest of the position.
    pub cards: Vec<Card>,
    /// In the round, stayed, frozen or busted.
    pub status: Status,
}

/// What the player to move decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Hit or Stay.
    HitOrStay,
    /// Whom to give this Freeze or Flip Three (drawn, or set aside by a
    /// Flip Three).
    Assign(Card),
    /// Whom to pass a second Second Chance just flipped.
    PassSecondChance,
}

/// A Flip 7 position as every player sees it, at a decision.
#[derive(Clone, Debug)]
pub struct Parts {
    /// Card kinds removed from the deck.
    pub without: Without,
    /// Every game is a single round.
    pub single_round: bool,
    /// Every round is dealt from the whole deck, shuffled afresh.
    pub fresh_deck: bool,
    /// 0-based round; its dealer is `round mod players`.
    pub round: u32,
    /// Every player, in seat order.
    pub seats: Vec<Seat>,
    /// Cards of each kind in the discard pile.
    pub discard: [u8; KINDS],
    /// Freezes and Flip Threes assigned and waiting, in order, with targets.
    pub pending: Vec<(Card, usize)>,
    /// Whose turn it is, whether the deal is under way, a Flip Three being
    /// resolved.
    pub resume: Resume,
    /// Who decides.
    pub mover: usize,
    /// What is decided.
    pub decision: Decision,
}

/// A checked position with its table, ready for playouts.
pub struct Flip7Position {
    parts: Parts,
    table: Table,
    model: Policy,
    moves: Vec<(Answer, Move)>,
}

const MEASURES: &[Measure] = &[
    WIN_CHANCE,
    Measure {
        name: "round score",
        key: "round_score",
        chance: false,
    },
];

/// A state in the read-back's words.
fn state_words(s: Status) -> &'static str {
    match s {
        Status::Active => "in the round",
        st => state_word(st),
    }
}

fn state_word(s: Status) -> &'static str {
    match s {
        Status::Active => "in",
        Status::Stayed => "stayed",
        Status::Frozen => "frozen",
        Status::Busted => "busted",
        Status::Flip7 => "Flip 7",
    }
}

/// A list of cards by short name, comma-separated.
pub fn card_list(cards: &[Card]) -> String {
    cards.iter().map(|&c| short_name(c)).collect::<Vec<_>>().join(",")
}

/// Every card of a count per kind, in kind order.
fn cards_of(counts: &[u8; KINDS]) -> Vec<Card> {
    (0..KINDS)
        .flat_map(|k| std::iter::repeat_n(k as Card, usize::from(counts[k])))
        .collect()
}

impl Parts {
    fn players(&self) -> usize {
        self.seats.len()
    }

    fn dealer(&self) -> usize {
        (self.round % self.players() as u32) as usize
    }

    /// The cards in front of each seat, action cards included: a frozen
    /// player's Freeze, cards waiting for their target, the card being
    /// assigned or passed, a Flip Three being resolved and what it set aside.
    fn fronts(&self) -> Vec<Vec<Card>> {
        let mut f: Vec<Vec<Card>> = self.seats.iter().map(|s| s.cards.clone()).collect();
        for (s, seat) in self.seats.iter().enumerate() {
            if seat.status == Status::Frozen {
                f[s].push(FREEZE);
            }
        }
        for &(card, to) in &self.pending {
            f[to].push(card);
        }
        match self.decision {
            Decision::Assign(card) => f[self.mover].push(card),
            Decision::PassSecondChance => f[self.mover].push(SECOND_CHANCE),
            Decision::HitOrStay => {}
        }
        if let Some((t, _, aside)) = self.resume.flip_three {
            f[t].push(FLIP_THREE);
            f[t].extend_from_slice(aside.cards());
        }
        f
    }

    /// The hand of seat `s` as the rules engine holds it.
    fn hand(&self, s: usize, front: usize) -> Hand {
        let seat = &self.seats[s];
        let mut numbers: Vec<Card> = seat.cards.iter().copied().filter(|&c| c <= MAX_NUMBER).collect();
        numbers.sort_unstable();
        numbers.dedup();
        let plus = seat.cards.iter().filter(|&&c| is_plus(c)).map(|&c| plus_value(c)).sum();
        let times2 = seat.cards.iter().filter(|&&c| c == TIMES2).count() as u8;
        let sc = seat.cards.contains(&SECOND_CHANCE);
        Hand::holding(&numbers, plus, times2, sc).in_front(seat.status, front as u8)
    }

    /// Checks everything about the position that the rules rule out, in
    /// words that name what is wrong.
    fn check(&self) -> Result<(), String> {
        let n = self.players();
        if n == 0 || n > MAX_PLAYERS {
            return Err(format!("{n} players: Flip 7 takes 1 to {MAX_PLAYERS}"));
        }
        let seat_ok = |what: &str, s: usize| match s < n {
            true => Ok(()),
            false => Err(format!("{what} {s}: the seats are 0 to {}", n - 1)),
        };
        seat_ok("seat to move", self.mover)?;
        seat_ok("turn of seat", self.resume.turn)?;
        for (s, seat) in self.seats.iter().enumerate() {
            check_seat(s, seat)?;
        }
        let mover = &self.seats[self.mover];
        if mover.status != Status::Active {
            return Err(format!(
                "seat {} is asked to move but has {}",
                self.mover,
                match mover.status {
                    Status::Stayed => "stayed",
                    Status::Frozen => "been frozen",
                    _ => "busted",
                }
            ));
        }
        for &(card, to) in &self.pending {
            seat_ok("a pending card's target, seat", to)?;
            if card != FREEZE && card != FLIP_THREE {
                return Err(format!("only a Freeze or a Flip Three waits for its target, not {}", short_name(card)));
            }
        }
        self.check_decision()?;
        self.check_cards()
    }

    fn check_decision(&self) -> Result<(), String> {
        let m = self.mover;
        match self.decision {
            Decision::HitOrStay if self.resume.flip_three.is_some() => {
                Err("a player resolving a Flip Three is not asked Hit or Stay (give the card it must assign, or the Second Chance it must pass)".into())
            }
            Decision::HitOrStay if self.resume.turn != m => Err(format!(
                "seat {m} is asked Hit or Stay but it is seat {}'s turn",
                self.resume.turn
            )),
            Decision::Assign(c) if c != FREEZE && c != FLIP_THREE => Err(format!(
                "only a Freeze (F) or a Flip Three (F3) is assigned, not {}",
                short_name(c)
            )),
            Decision::PassSecondChance if !self.seats[m].cards.contains(&SECOND_CHANCE) => Err(format!(
                "seat {m} passes a Second Chance only when it already holds one"
            )),
            Decision::PassSecondChance if self.second_chance_takers().is_empty() => Err(
                "nobody else in the round can take the extra Second Chance: it is discarded, there is nothing to decide"
                    .into(),
            ),
            _ => match self.resume.flip_three {
                Some((t, left, _)) if t != m => Err(format!("seat {t} resolves the Flip Three but seat {m} is to move ({left} flips left)")),
                Some((_, left, _)) if left > 2 => Err(format!("{left} flips left: a Flip Three has at most 2 left after a decision")),
                Some((_, left, _)) if left > 0 && self.decision != Decision::PassSecondChance => Err(
                    "with flips left, the only decision is passing a Second Chance; cards set aside are assigned after the three flips"
                        .into(),
                ),
                _ => Ok(()),
            },
        }
    }

    /// Seats that may take a Second Chance passed by the mover.
    fn second_chance_takers(&self) -> Vec<usize> {
        (0..self.players())
            .filter(|&s| {
                s != self.mover
                    && self.seats[s].status == Status::Active
                    && !self.seats[s].cards.contains(&SECOND_CHANCE)
            })
            .collect()
    }

    /// No kind has more cards placed than the deck holds.
    fn check_cards(&self) -> Result<(), String> {
        let comp = composition(decks_for(self.players()), self.without);
        let in_play = self.in_play();
        for k in 0..KINDS {
            let placed = u32::from(in_play[k]) + u32::from(self.discard[k]);
            if placed > u32::from(comp[k]) {
                let c = short_name(k as Card);
                return Err(format!(
                    "{placed} cards {c} are in the position ({} in front of the players, {} in the discard pile) but the deck holds {}",
                    in_play[k], self.discard[k], comp[k]
                ));
            }
        }
        Ok(())
    }

    fn in_play(&self) -> [u8; KINDS] {
        let mut c = [0u8; KINDS];
        for f in self.fronts() {
            for card in f {
                c[usize::from(card)] = c[usize::from(card)].saturating_add(1);
            }
        }
        c
    }

    /// The position as `sim advise flip7` flags.
    pub fn flags(&self) -> String {
        let mut f: Vec<String> = Vec::new();
        for s in &self.seats {
            let state = match s.status {
                Status::Active => String::new(),
                st => format!(":{}", state_word(st)),
            };
            f.push(format!("--seat {}:{}{state}", s.total, card_list(&s.cards)));
        }
        f.push(format!("--turn {}", self.resume.turn));
        if self.mover != self.resume.turn {
            f.push(format!("--mover {}", self.mover));
        }
        f.push(format!("--dealer {}", self.dealer()));
        if self.round as usize != self.dealer() {
            f.push(format!("--round {}", self.round + 1));
        }
        if self.resume.dealing {
            f.push("--dealing".into());
        }
        match self.decision {
            Decision::Assign(c) => f.push(format!("--assign {}", short_name(c))),
            Decision::PassSecondChance => f.push("--assign SC".into()),
            Decision::HitOrStay => {}
        }
        if !self.pending.is_empty() {
            let p: Vec<String> = self.pending.iter().map(|&(c, s)| format!("{}:{s}", short_name(c))).collect();
            f.push(format!("--pending {}", p.join(",")));
        }
        if let Some((_, left, aside)) = self.resume.flip_three {
            f.push(format!("--flips-left {left}"));
            if !aside.cards().is_empty() {
                f.push(format!("--set-aside {}", card_list(aside.cards())));
            }
        }
        if self.discard.iter().any(|&c| c > 0) {
            f.push(format!("--seen {}", card_list(&cards_of(&self.discard))));
        }
        if self.without != Without::default() {
            f.push(format!("--without {}", self.without.label().replace('+', ",")));
        }
        if self.single_round {
            f.push("--single-round".into());
        }
        if self.fresh_deck {
            f.push("--fresh-deck".into());
        }
        f.join(" ")
    }
}

/// What one seat may hold in its state.
fn check_seat(s: usize, seat: &Seat) -> Result<(), String> {
    if seat.total >= TARGET {
        return Err(format!(
            "seat {s} has a total of {}: a total of {TARGET} or more ends the game after the round",
            seat.total
        ));
    }
    let mut held = [0u8; 32];
    for &c in &seat.cards {
        if c == FREEZE || c == FLIP_THREE {
            return Err(format!(
                "seat {s}: a {} is never kept in front (give it with --assign, --pending or --set-aside)",
                short_name(c)
            ));
        }
        held[usize::from(c)] += 1;
    }
    if held[usize::from(SECOND_CHANCE)] > 1 {
        return Err(format!("seat {s} holds two Second Chances: a player keeps one at most"));
    }
    let numbers = held[..=usize::from(MAX_NUMBER)].iter().filter(|&&k| k > 0).count();
    if seat.status != Status::Busted {
        if let Some(n) = (0..=MAX_NUMBER).find(|&n| held[usize::from(n)] > 1) {
            return Err(format!("seat {s} holds two {n}s: a duplicate number busts (mark the seat busted)"));
        }
        if numbers >= 7 {
            return Err(format!("seat {s} holds seven numbers: a Flip 7 ends the round"));
        }
    } else if held[usize::from(SECOND_CHANCE)] > 0 {
        return Err(format!("seat {s} is busted but holds a Second Chance, which would have saved it"));
    }
    Ok(())
}

impl Flip7Position {
    /// A checked position whose seats all play `model` after the move.
    pub fn new(parts: Parts, model: Policy) -> Result<Flip7Position, String> {
        parts.check()?;
        let n = parts.players();
        let rules = Rules {
            players: n,
            composition: composition(decks_for(n), parts.without),
            single_round: parts.single_round,
            fresh_deck: parts.fresh_deck,
        };
        let fronts = parts.fronts();
        let hands: Vec<Hand> = (0..n).map(|s| parts.hand(s, fronts[s].len())).collect();
        let totals: Vec<u32> = parts.seats.iter().map(|s| s.total).collect();
        let table = Table::arranged(
            rules,
            &Arrangement {
                round: parts.round,
                totals: &totals,
                hands: &hands,
                discard: parts.discard,
                in_play: parts.in_play(),
                pending: &parts.pending,
            },
        )?;
        let moves = moves(&parts, &table);
        Ok(Flip7Position {
            parts,
            table,
            model,
            moves,
        })
    }

    /// The position's parts.
    pub fn parts(&self) -> &Parts {
        &self.parts
    }

    /// The table at the decision, its draw pile in kind order.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The rules engine's answer of each move, in the order of the moves.
    pub fn answers(&self) -> Vec<Answer> {
        self.moves.iter().map(|(a, _)| *a).collect()
    }
}

/// Every legal move with its exact figures.
fn moves(p: &Parts, t: &Table) -> Vec<(Answer, Move)> {
    let m = p.mover;
    let to_seat = |card: &str, s: usize| {
        let who = if s == m { " (itself)" } else { "" };
        format!("{card} to seat {s}{who}")
    };
    match p.decision {
        Decision::HitOrStay => vec![
            (
                Answer::Hit(true),
                Move {
                    name: "hit".into(),
                    key: "hit".into(),
                    exact: vec![Some(next_card_busts(t, m))],
                },
            ),
            (
                Answer::Hit(false),
                Move {
                    name: "stay".into(),
                    key: "stay".into(),
                    exact: vec![Some(Exact {
                        value: 0.0,
                        text: "0 (no card)".into(),
                    })],
                },
            ),
        ],
        Decision::Assign(card) => (0..p.players())
            .filter(|&s| p.seats[s].status == Status::Active)
            .map(|to| {
                let word = if card == FREEZE { "Freeze" } else { "Flip Three" };
                (
                    Answer::Target { from: m, card, to },
                    Move {
                        name: to_seat(word, to),
                        key: format!("seat:{to}"),
                        exact: vec![None],
                    },
                )
            })
            .collect(),
        Decision::PassSecondChance => p
            .second_chance_takers()
            .into_iter()
            .map(|to| {
                (
                    Answer::SecondChance { from: m, to: Some(to) },
                    Move {
                        name: to_seat("Second Chance", to),
                        key: format!("seat:{to}"),
                        exact: vec![None],
                    },
                )
            })
            .collect(),
    }
}

/// The exact chance that the next card busts `seat`: a number it holds,
/// counted over every card that may come next (the draw pile, or the
/// discard pile reshuffled when the draw pile is empty); nothing when it
/// holds a Second Chance.
fn next_card_busts(t: &Table, seat: usize) -> Exact {
    let h = t.hand(seat);
    let (counts, total) = next_card_counts(t);
    if total == 0 {
        return Exact {
            value: 0.0,
            text: "0 (no card left)".into(),
        };
    }
    if h.second_chance {
        return Exact {
            value: 0.0,
            text: "0 (Second Chance)".into(),
        };
    }
    let dup: u32 = (0..=MAX_NUMBER)
        .filter(|&n| h.has(n))
        .map(|n| u32::from(counts[usize::from(n)]))
        .sum();
    let value = f64::from(dup) / f64::from(total);
    Exact {
        value,
        text: format!("{dup}/{total} = {value:.4}"),
    }
}

/// Hears the end of the first round: the mover's round score.
struct FirstRound {
    seat: usize,
    score: Option<u16>,
}

impl Observer<Table> for FirstRound {
    const EVENTS: bool = false;
    fn round_end(&mut self, t: &Table) {
        if self.score.is_none() {
            self.score = Some(t.hand(self.seat).score());
        }
    }
}

impl Position for Flip7Position {
    fn game(&self) -> &'static str {
        "flip7"
    }

    fn mover(&self) -> usize {
        self.parts.mover
    }

    fn players(&self) -> usize {
        self.parts.players()
    }

    fn moves(&self) -> Vec<Move> {
        self.moves.iter().map(|(_, m)| m.clone()).collect()
    }

    fn measures(&self) -> &'static [Measure] {
        MEASURES
    }

    fn ranked_by(&self) -> usize {
        // Alone at the table every move wins: the round score decides.
        usize::from(self.players() == 1)
    }

    fn score_measure(&self) -> Option<usize> {
        Some(1)
    }

    fn exact_measure(&self, mv: usize, measure: usize) -> bool {
        // A stay, or a Freeze given to oneself, banks the cards in front.
        measure == 1
            && match self.moves[mv].0 {
                Answer::Hit(hit) => !hit,
                Answer::Target { from, card, to } => card == FREEZE && to == from,
                Answer::SecondChance { .. } => false,
            }
    }

    fn exact_names(&self) -> &'static [&'static str] {
        &["next card busts"]
    }

    fn model(&self) -> String {
        self.model.to_string()
    }

    fn read_back(&self) -> (Vec<String>, Value) {
        read_back(&self.parts, &self.table)
    }

    fn playout(&self, mv: usize, rng: &mut SimRng, out: &mut [f64]) {
        let at = &self.parts.resume;
        play_on(&self.table, at, self.moves[mv].0, self.model, self.parts.mover, rng, out);
    }
}

/// One playout from table `t` at a decision of `mover` (where `at` says):
/// the unseen draw pile dealt anew, `answer`, then the rest of the game with
/// `model` in every seat; the mover's win share into `out[0]` (a tie
/// shared) and its round score into `out[1]`.
fn play_on(t: &Table, at: &Resume, answer: Answer, model: Policy, mover: usize, rng: &mut SimRng, out: &mut [f64]) {
    let mut t = t.clone();
    t.shuffle_draw_pile(rng);
    let n = t.players();
    let mut seats = Seats::new(vec![model; n]);
    if model.is_random() {
        seats.seed(rng.next_u64());
    }
    if model.draws_per_game() {
        seats.draw_game_values(rng);
    }
    let mut first = FirstRound {
        seat: mover,
        score: None,
    };
    t.finish_game_at(at, answer, &mut seats, &mut first, rng);
    let best = (0..n).map(|s| t.total(s)).max().unwrap_or(0);
    let leaders = (0..n).filter(|&s| t.total(s) == best).count();
    out[0] = if t.total(mover) == best { 1.0 / leaders as f64 } else { 0.0 };
    out[1] = f64::from(first.score.unwrap_or(0));
}

/// A Hit or Stay at a live table, for `advise:N`: the same playouts as
/// `sim advise` (every seat then playing [`DEFAULT_MODEL`]).
struct LiveDecision<'a> {
    table: &'a Table,
    seat: usize,
    model: Policy,
}

impl Position for LiveDecision<'_> {
    fn game(&self) -> &'static str {
        "flip7"
    }

    fn mover(&self) -> usize {
        self.seat
    }

    fn players(&self) -> usize {
        self.table.players()
    }

    fn moves(&self) -> Vec<Move> {
        let mv = |name: &str| Move {
            name: name.into(),
            key: name.into(),
            exact: Vec::new(),
        };
        vec![mv("hit"), mv("stay")]
    }

    fn measures(&self) -> &'static [Measure] {
        MEASURES
    }

    fn ranked_by(&self) -> usize {
        usize::from(self.players() == 1)
    }

    fn score_measure(&self) -> Option<usize> {
        Some(1)
    }

    fn model(&self) -> String {
        self.model.to_string()
    }

    fn read_back(&self) -> (Vec<String>, Value) {
        (Vec::new(), Value::Null)
    }

    fn playout(&self, mv: usize, rng: &mut SimRng, out: &mut [f64]) {
        let at = Resume {
            turn: self.seat,
            dealing: self.table.dealing(),
            flip_three: None,
        };
        play_on(self.table, &at, Answer::Hit(mv == 0), self.model, self.seat, rng, out);
    }
}

/// `advise:N`: whether `sim advise` recommends that `seat` hit at table
/// `t`, from at most `budget` playouts of each move seeded with `seed`.
pub fn advised_hit(t: &Table, seat: usize, budget: u32, seed: u64) -> bool {
    let position = LiveDecision {
        table: t,
        seat,
        model: Policy::parse(DEFAULT_MODEL).expect("the default model parses"),
    };
    let budget = crate::engine::advise::Budget {
        playouts: u64::from(budget),
        time: None,
        seed,
    };
    crate::engine::advise::advise(&position, &budget).best == 0
}

/// The position in lines of text and as JSON.
fn read_back(p: &Parts, t: &Table) -> (Vec<String>, Value) {
    let n = p.players();
    let decision = match p.decision {
        Decision::HitOrStay => "hit or stay".to_string(),
        Decision::Assign(c) => format!("whom to give the {}", if c == FREEZE { "Freeze" } else { "Flip Three" }),
        Decision::PassSecondChance => "whom to pass the extra Second Chance".into(),
    };
    let mut lines = vec![format!(
        "round {}, seat {} deals{}; seat {} to decide {decision}",
        p.round + 1,
        p.dealer(),
        if p.resume.dealing { " (the deal is under way)" } else { "" },
        p.mover
    )];
    let mut seats = Vec::new();
    for (s, seat) in p.seats.iter().enumerate() {
        let h = t.hand(s);
        let cards = if seat.cards.is_empty() { "no card".into() } else { card_list(&seat.cards).replace(',', " ") };
        lines.push(format!(
            "seat {s}: total {}, {}: {cards} (worth {})",
            seat.total,
            state_words(seat.status),
            if seat.status == Status::Busted { 0 } else { h.banked() }
        ));
        seats.push(json!({
            "seat": s,
            "total": seat.total,
            "cards": seat.cards.iter().map(|&c| short_name(c)).collect::<Vec<_>>(),
            "state": state_word(seat.status),
        }));
    }
    if !p.pending.is_empty() {
        let w: Vec<String> = p.pending.iter().map(|&(c, s)| format!("{} to seat {s}", short_name(c))).collect();
        lines.push(format!("waiting: {}", w.join(", ")));
    }
    if let Some((ft, left, aside)) = p.resume.flip_three {
        lines.push(format!(
            "seat {ft} is resolving a Flip Three: {left} flips left, set aside still to assign: {}",
            if aside.cards().is_empty() { "none".into() } else { card_list(aside.cards()) }
        ));
    }
    let discard = cards_of(&p.discard);
    lines.push(format!(
        "draw pile: {} cards; discard pile: {}",
        t.pile_len(),
        if discard.is_empty() {
            "empty".into()
        } else {
            format!("{} cards: {}", discard.len(), card_list(&discard).replace(',', " "))
        }
    ));
    lines.push(format!("as flags: {}", p.flags()));
    let json = json!({
        "players": n,
        "round": p.round + 1,
        "dealer": p.dealer(),
        "turn": p.resume.turn,
        "dealing": p.resume.dealing,
        "mover": p.mover,
        "decision": match p.decision {
            Decision::HitOrStay => "hit-or-stay".to_string(),
            Decision::Assign(c) => format!("assign {}", short_name(c)),
            Decision::PassSecondChance => "pass SC".to_string(),
        },
        "seats": seats,
        "pending": p.pending.iter().map(|&(c, s)| json!({ "card": short_name(c), "seat": s })).collect::<Vec<_>>(),
        "flip_three": p.resume.flip_three.map(|(s, left, aside)| json!({
            "seat": s, "flips_left": left, "set_aside": aside.cards().iter().map(|&c| short_name(c)).collect::<Vec<_>>()
        })),
        "discard": discard.iter().map(|&c| short_name(c)).collect::<Vec<_>>(),
        "draw_pile": t.pile_len(),
        "flags": p.flags(),
    });
    (lines, json)
}

/// The flags of `sim advise flip7` that give a position.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct AdviseFlags {
    /// One player, in seat order (give it once per player): TOTAL:CARDS
    /// or TOTAL:CARDS:STATE, e.g. 120:9,11,12 or 168:5,8,x2:stayed. CARDS
    /// are the number cards, modifiers (+4, x2) and Second Chance (SC) in
    /// front, comma-separated (a busted player's duplicate too); STATE is
    /// in (the default), stayed, frozen or busted.
    #[arg(long = "seat", value_name = "TOTAL:CARDS[:STATE]", allow_hyphen_values = true)]
    pub seats: Vec<String>,

    /// Whose turn it is: the player asked Hit or Stay, or whose deal card or
    /// Hit set off what is being resolved (default 0).
    #[arg(long, value_name = "SEAT")]
    pub turn: Option<usize>,

    /// Who decides, when it is not the player whose turn it is (the target
    /// of a Flip Three assigning what it set aside, or passing a Second
    /// Chance); default: --turn.
    #[arg(long, value_name = "SEAT")]
    pub mover: Option<usize>,

    /// Who dealt this round (default: the last seat, so that seat 0 plays
    /// first).
    #[arg(long, value_name = "SEAT")]
    pub dealer: Option<usize>,

    /// The round's number, from 1 (default: the first round the dealer
    /// deals); only the dealer matters to the rules.
    #[arg(long, value_name = "N")]
    pub round: Option<u32>,

    /// The initial deal is under way: the players after --turn in this
    /// round's order with nothing in front are still to be dealt.
    #[arg(long)]
    pub dealing: bool,

    /// The mover must give away this card instead of Hit or Stay: F
    /// (Freeze) or F3 (Flip Three) to any player in the round, or SC (a
    /// second Second Chance) to another player without one.
    #[arg(long, value_name = "CARD")]
    pub assign: Option<String>,

    /// Freezes and Flip Threes assigned and waiting to take effect, in
    /// order: CARD:SEAT,... (e.g. F3:2,F:0).
    #[arg(long, value_name = "CARD:SEAT,...")]
    pub pending: Option<String>,

    /// The mover is resolving a Flip Three with this many flips still to
    /// come (0 to 2; 0: the three are flipped and what was set aside is
    /// being assigned).
    #[arg(long, value_name = "N")]
    pub flips_left: Option<u8>,

    /// Freezes and Flip Threes the mover's Flip Three set aside and still
    /// to assign after this decision, in order (needs --flips-left).
    #[arg(long, value_name = "CARDS", requires = "flips_left")]
    pub set_aside: Option<String>,

    /// The discard pile: cards gone from the draw pile since the last
    /// reshuffle that are in front of nobody (earlier rounds' cards...).
    /// Default: empty, as in the first round.
    #[arg(long, value_name = "CARDS", conflicts_with = "pile", allow_hyphen_values = true)]
    pub seen: Option<String>,

    /// The draw pile itself, in place of --seen: the discard pile is then
    /// every card neither in it nor in front of a player.
    #[arg(long, value_name = "CARDS", allow_hyphen_values = true)]
    pub pile: Option<String>,

    /// House rule: card kinds removed from the deck (as sim flip7
    /// --without).
    #[arg(long, value_name = "KINDS", value_parser = Without::parse)]
    pub without: Option<Without>,

    /// Every game is a single round (as sim flip7 --single-round).
    #[arg(long)]
    pub single_round: bool,

    /// Every round is dealt from the whole deck (as sim flip7 --fresh-deck).
    #[arg(long)]
    pub fresh_deck: bool,
}

/// A comma-separated list of cards (`flag` names it in errors).
fn parse_cards(flag: &str, text: &str) -> Result<Vec<Card>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .map(|w| parse_card(w).map_err(|e| format!("{flag} {text}: {e}")))
        .collect()
}

/// One `--seat TOTAL:CARDS[:STATE]`.
fn parse_seat(text: &str) -> Result<Seat, String> {
    let parts: Vec<&str> = text.split(':').collect();
    let bad = |why: String| format!("--seat {text}: {why}; expected TOTAL:CARDS[:STATE], e.g. 120:9,11,12 or 168:5,8:stayed");
    if parts.len() > 3 {
        return Err(bad("too many ':'".into()));
    }
    let total = parts[0]
        .trim()
        .parse::<u32>()
        .map_err(|_| bad(format!("'{}' is not a game total (a whole number from 0 to 199)", parts[0])))?;
    let cards = parse_cards("--seat", parts.get(1).copied().unwrap_or(""))?;
    let status = match parts.get(2).map(|s| s.trim().to_ascii_lowercase()).as_deref() {
        None | Some("in") | Some("") => Status::Active,
        Some("stayed") => Status::Stayed,
        Some("frozen") => Status::Frozen,
        Some("busted") => Status::Busted,
        Some(other) => return Err(bad(format!("'{other}' is not a state (in, stayed, frozen or busted)"))),
    };
    Ok(Seat { total, cards, status })
}

impl AdviseFlags {
    /// Whether any flag giving a position was written.
    pub fn any(&self) -> bool {
        !self.seats.is_empty()
            || self.turn.is_some()
            || self.mover.is_some()
            || self.dealer.is_some()
            || self.round.is_some()
            || self.dealing
            || self.assign.is_some()
            || self.pending.is_some()
            || self.flips_left.is_some()
            || self.seen.is_some()
            || self.pile.is_some()
            || self.without.is_some()
            || self.single_round
    }

    /// The position these flags give.
    pub fn parts(&self) -> Result<Parts, String> {
        if self.seats.is_empty() {
            return Err("no position: give --seat TOTAL:CARDS[:STATE] once per player (e.g. --seat 120:9,11,12 --seat 168:5,8:stayed), or --trace FILE".into());
        }
        let seats: Vec<Seat> = self.seats.iter().map(|s| parse_seat(s)).collect::<Result<_, _>>()?;
        let n = seats.len();
        let seat_flag = |flag: &str, s: usize| match s < n {
            true => Ok(s),
            false => Err(format!("{flag} {s}: the seats are 0 to {} ({n} --seat given)", n - 1)),
        };
        let turn = seat_flag("--turn", self.turn.unwrap_or(0))?;
        let mover = seat_flag("--mover", self.mover.unwrap_or(turn))?;
        let dealer = seat_flag("--dealer", self.dealer.unwrap_or(n - 1))?;
        let round = match self.round {
            None => dealer as u32,
            Some(r) if r >= 1 && ((r - 1) as usize) % n == dealer => r - 1,
            Some(r) => {
                return Err(format!(
                    "--round {r}: seat {dealer} deals rounds {}, {}, ... (the dealer moves one seat each round)",
                    dealer + 1,
                    dealer + 1 + n
                ));
            }
        };
        let decision = match self.assign.as_deref().map(parse_card).transpose().map_err(|e| format!("--assign: {e}"))? {
            None => Decision::HitOrStay,
            Some(SECOND_CHANCE) => Decision::PassSecondChance,
            Some(c) if c == FREEZE || c == FLIP_THREE => Decision::Assign(c),
            Some(c) => return Err(format!("--assign {}: only F, F3 or SC is given away", short_name(c))),
        };
        let pending = self.pending_cards(n)?;
        let aside = parse_cards("--set-aside", self.set_aside.as_deref().unwrap_or(""))?;
        if aside.len() > 2 || aside.iter().any(|&c| c != FREEZE && c != FLIP_THREE) {
            return Err("--set-aside: at most two cards, each F or F3".into());
        }
        let flip_three = self.flips_left.map(|left| (mover, left, Aside::of(&aside)));
        let mut parts = Parts {
            without: self.without.unwrap_or_default(),
            single_round: self.single_round,
            fresh_deck: self.fresh_deck,
            round,
            seats,
            discard: [0; KINDS],
            pending,
            resume: Resume {
                turn,
                dealing: self.dealing,
                flip_three,
            },
            mover,
            decision,
        };
        parts.discard = self.discard_pile(&parts)?;
        Ok(parts)
    }

    fn pending_cards(&self, n: usize) -> Result<Vec<(Card, usize)>, String> {
        let Some(text) = &self.pending else {
            return Ok(Vec::new());
        };
        text.split(',')
            .map(str::trim)
            .filter(|w| !w.is_empty())
            .map(|w| {
                let bad = || format!("--pending {text}: '{w}' is not CARD:SEAT (F or F3, a seat 0 to {})", n - 1);
                let (c, s) = w.split_once(':').ok_or_else(bad)?;
                let card = parse_card(c).map_err(|e| format!("--pending {text}: {e}"))?;
                let seat = s.trim().parse::<usize>().ok().filter(|&s| s < n).ok_or_else(bad)?;
                Ok((card, seat))
            })
            .collect()
    }

    /// The discard pile: `--seen`, or what `--pile` leaves.
    fn discard_pile(&self, p: &Parts) -> Result<[u8; KINDS], String> {
        let mut discard = [0u8; KINDS];
        if let Some(seen) = &self.seen {
            for c in parse_cards("--seen", seen)? {
                discard[usize::from(c)] = discard[usize::from(c)].saturating_add(1);
            }
        } else if let Some(pile) = &self.pile {
            let comp = composition(decks_for(p.players()), p.without);
            let in_play = p.in_play();
            let mut left = [0i32; KINDS];
            for k in 0..KINDS {
                left[k] = i32::from(comp[k]) - i32::from(in_play[k]);
            }
            for c in parse_cards("--pile", pile)? {
                left[usize::from(c)] -= 1;
            }
            for k in 0..KINDS {
                if left[k] < 0 {
                    return Err(format!(
                        "--pile: {} cards {} in the draw pile and in front of the players, but the deck holds {}",
                        i32::from(comp[k]) - left[k],
                        short_name(k as Card),
                        comp[k]
                    ));
                }
                discard[k] = left[k] as u8;
            }
        }
        Ok(discard)
    }
}
