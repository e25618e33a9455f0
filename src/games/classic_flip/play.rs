//! `sim play classic-flip`: a person at one seat, the bots at the others.
//!
//! Hands are hidden. Before each of the person's decisions the table is
//! drawn from the person's [`View`] only: every total, every hand's size
//! and limit, the community, the discard pile (face up), the draw pile's
//! count, the caller of "Flip!", the person's own hand and its score, and
//! the cards the person knows to be in another hand. The narration is
//! written from the events as that seat may know them: another seat's
//! draw is "draws 2 cards", a Take or Steal between two other seats names
//! no card, and the hands are shown when the round is scored.
//!
//! The person decides the start of each turn (the advice's own moves, so
//! that the hint has a figure for each), a hand challenge, a Block, the
//! card a Take picks, and the sets of cards of a discard or a pick from
//! the penalty discards, those a card at a time.

use std::cell::RefCell;

use serde_json::{Value, json};

use super::ClassicFlip;
use super::advise::{set_key, start_moves};
use super::cards::{ANY, Card, CardSet, Func, action, bit, cards_of, count, name, names};
use super::policies::Seats;
use super::rules::{BLOCK_CARDS, Chooser, EMPTY, End, Event, LIMIT_6, Observer, Start, Table, View};
use super::trace::{Trace, json_name};
use crate::engine::console::{Choice, Console, Session, seats_painted, wrapped};
use crate::engine::observe::{TraceFormat, TraceWriter};
use crate::engine::rng::{Draw, seeded_game_rng};
use crate::engine::show::plural;

/// What every seat has seen that a [`View`] does not carry: the round,
/// its dealer and the cards last put on the discard pile.
#[derive(Clone, Debug, Default)]
struct Public {
    round: u32,
    dealer: usize,
    last: CardSet,
}

/// The person's seat asked, every other seat played by its bot.
struct Person<'s> {
    session: &'s RefCell<Session<ClassicFlip>>,
    public: &'s RefCell<Public>,
    me: usize,
    names: Vec<String>,
    bots: Seats,
}

/// A set of cards asked a card at a time.
struct SetAsk<'a> {
    /// The question, a card at a time (`Discard which card?`).
    question: &'a str,
    /// What is chosen, for the line above the menu.
    explain: String,
    /// The cards to choose among.
    pool: CardSet,
    /// How many at least and at most.
    min: u32,
    max: u32,
    /// The key and label that end the choice early (`k`, `keep the rest`).
    done: Option<(&'a str, &'a str)>,
    /// The bot's choice of the whole set, offered as `b` at the first card.
    bot: CardSet,
    /// The trace event of an answer here, for the hint, and the decision
    /// in the review's words.
    stand_in: Value,
    when: String,
    /// Cards taken from a caught player's discards (else a discard).
    penalty: bool,
}

/// One entry of a set's menu.
#[derive(Clone, Copy)]
enum Pick {
    Card(Card),
    Done,
    Bot,
}

impl Person<'_> {
    fn drawn(&self, v: &View<'_>) -> String {
        let s = self.session.borrow();
        drawing(v, &self.public.borrow(), &self.names, &s.console)
    }

    fn ask(&self, v: &View<'_>, question: &str, when: &str, stand_in: Value, choices: &[Choice]) -> usize {
        let drawn = self.drawn(v);
        let when = format!("round {}, {when}", self.public.borrow().round + 1);
        self.session.borrow_mut().ask(&drawn, question, &when, stand_in, choices)
    }

    /// Asks for a set of cards a card at a time; the hint, before the
    /// first card, names the advice's whole sets.
    fn ask_set(&self, v: &View<'_>, a: &SetAsk<'_>) -> CardSet {
        let drawn = self.drawn(v);
        self.session.borrow().console.say(&drawn);
        let weighed = self.session.borrow_mut().hint_open(a.stand_in.clone());
        let chosen = self.pick_set(a);
        let when = format!("round {}, {}", self.public.borrow().round + 1, a.when);
        self.session.borrow_mut().settle(&when, weighed, &set_key(v, chosen, a.penalty));
        chosen
    }

    /// The cards of a set, asked one at a time.
    fn pick_set(&self, a: &SetAsk<'_>) -> CardSet {
        let mut chosen: CardSet = 0;
        while count(chosen) < a.max {
            let n = count(chosen);
            let mut choices = Vec::new();
            let mut picks = Vec::new();
            for c in cards_of(a.pool & !chosen) {
                let key = card_key(c);
                if choices.iter().all(|ch: &Choice| ch.key != key) {
                    choices.push(Choice::new(key, name(c), ""));
                    picks.push(Pick::Card(c));
                }
            }
            if let Some((key, label)) = a.done.filter(|_| n >= a.min) {
                choices.push(Choice::new(key, label, ""));
                picks.push(Pick::Done);
            }
            if n == 0 && choices.len() > 1 {
                let label = format!("as the bot would: {}", if a.bot == 0 { "none".into() } else { names(a.bot) });
                choices.push(Choice::new("b", label, ""));
                picks.push(Pick::Bot);
            }
            let mut text = String::new();
            let so_far = if n == 0 { String::new() } else { format!(" (so far: {})", names(chosen)) };
            let said = format!("{}{so_far}", a.explain);
            let words: Vec<String> = said.split(' ').map(str::to_string).collect();
            for l in wrapped(&words, "", " ") {
                text.push_str(&l);
                text.push('\n');
            }
            let mut s = self.session.borrow_mut();
            s.console.say(&text);
            let k = if choices.len() == 1 {
                s.console.say(&format!("{} {}, the only one\n", a.question, choices[0].label));
                0
            } else {
                s.console.choose(a.question, &choices)
            };
            drop(s);
            match picks[k] {
                Pick::Card(c) => chosen |= bit(c),
                Pick::Done => break,
                Pick::Bot => return a.bot,
            }
        }
        chosen
    }
}

/// Cards as the JSON trace names them: a legal answer stands in for the
/// person's in the trace the hint reads (the bot's own set).
fn json_cards(v: &View<'_>, cards: CardSet) -> Vec<String> {
    cards_of(cards).map(|c| super::trace::json_name(c, v.rules().deck.decks)).collect()
}

/// The key a card is typed as: `r5`, `b10`, `ga`; an action card by its
/// initials (`dt` Draw/Take, `ds`, `db`, `sr` Swap/Reboot, `ct`
/// Chaos/+Turn, `2x`, `710`, `any`).
fn card_key(c: Card) -> String {
    const ACTION_KEYS: [&str; 8] = ["dt", "ds", "db", "sr", "ct", "2x", "710", "any"];
    match action(c) {
        Some(a) => ACTION_KEYS[usize::from(a)].to_string(),
        None => name(c).to_lowercase(),
    }
}

/// The key of a start option: `d` draw two, `f` call Flip!, `c1`..`c3` a
/// community card, and an action card's function: `dr` Draw, `t1` Take
/// from seat 1, `st` Steal, `sw1` Swap with seat 1, `rb` Reboot, `ch`
/// Chaos, `pt` +Turn; `a` before it when the card is Any.
fn start_key(s: &Start) -> String {
    match s {
        Start::Draw2 => "d".into(),
        Start::Flip => "f".into(),
        Start::Community(slot) => format!("c{}", slot + 1),
        Start::Play(p) => {
            let f = match p.func {
                Func::Draw => "dr".into(),
                Func::Take => format!("t{}", p.target),
                Func::Steal => {
                    let slots: String =
                        (0..3).filter(|s| p.slots & (1 << s) != 0).map(|s| (s + 1).to_string()).collect();
                    let victims: String = (0..8).filter(|q| p.victims & (1 << q) != 0).map(|q| q.to_string()).collect();
                    if slots.is_empty() { format!("st{victims}") } else { format!("st{victims}c{slots}") }
                }
                Func::Block => "bl".into(),
                Func::Swap => format!("sw{}", p.target),
                Func::Reboot => "rb".into(),
                Func::Chaos => "ch".into(),
                Func::PlusTurn => "pt".into(),
            };
            if action(p.card) == Some(ANY) { format!("a{f}") } else { f }
        }
    }
}

/// A start option in a few words (`take PK`, `swap hands with seat 1`,
/// `Any as steal from seat 1 and 2 community`).
fn start_label(s: &Start, v: &View<'_>) -> String {
    match s {
        Start::Draw2 => "draw two".into(),
        Start::Flip => format!("call Flip! ({} points)", v.score().points),
        Start::Community(slot) => {
            let c = v.community()[usize::from(*slot).min(2)];
            format!("take {}", if c == EMPTY { "-".into() } else { name(c) })
        }
        Start::Play(p) => {
            let what = match p.func {
                Func::Draw => "draw three".into(),
                Func::Take => format!("take from seat {}", p.target),
                Func::Steal => {
                    let victims: Vec<String> =
                        (0..v.players()).filter(|q| p.victims & (1 << q) != 0).map(|q| q.to_string()).collect();
                    let com = v.community();
                    let slots: Vec<String> =
                        (0..3).filter(|&s| p.slots & (1 << s) != 0 && com[s] != EMPTY).map(|s| name(com[s])).collect();
                    let community =
                        if slots.is_empty() { String::new() } else { format!(" and community {}", slots.join(" ")) };
                    format!("steal from seat {}{community}", victims.join(","))
                }
                Func::Block => "block".into(),
                Func::Swap => format!("swap hands with seat {}", p.target),
                Func::Reboot => "reboot".into(),
                Func::Chaos => "chaos".into(),
                Func::PlusTurn => "+turn".into(),
            };
            if action(p.card) == Some(ANY) { format!("Any as {what}") } else { what }
        }
    }
}

impl Chooser for Person<'_> {
    fn start<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Start {
        if v.seat() != self.me {
            return self.bots.start(v, d);
        }
        let mut starts: Vec<Start> = Vec::new();
        let mut choices: Vec<Choice> = Vec::new();
        let mut stolen: u128 = 0;
        for (s, mv) in start_moves(v) {
            let mut key = start_key(&s);
            // The first Steal of each card is the bots' way, keyed short.
            if let Start::Play(p) = s
                && p.func == Func::Steal
                && stolen & (1u128 << p.card) == 0
            {
                stolen |= 1u128 << p.card;
                key = if action(p.card) == Some(ANY) { "ast".into() } else { "st".into() };
            }
            if choices.iter().all(|c| c.key != key) {
                choices.push(Choice::new(key, start_label(&s, v), mv.key));
                starts.push(s);
            }
        }
        let stand_in = json!({ "event": "draw", "seat": self.me, "cards": [] });
        let when = format!("turn {}, the start", v.turns());
        starts[self.ask(v, "Your turn: how do you start it?", &when, stand_in, &choices)]
    }

    fn take_pick<D: Draw>(&mut self, v: &View<'_>, target: usize, d: &mut D) -> Card {
        if v.seat() != self.me {
            return self.bots.take_pick(v, target, d);
        }
        let decks = v.rules().deck.decks;
        let mut cards = Vec::new();
        let mut choices: Vec<Choice> = Vec::new();
        for c in cards_of(v.known(target)) {
            let key = card_key(c);
            if choices.iter().all(|ch| ch.key != key) {
                choices.push(Choice::new(key, name(c), format!("pick:{}", json_name(c, decks))));
                cards.push(c);
            }
        }
        let stand_in = json!({ "event": "take", "seat": self.me, "from": target,
                               "card": json_name(cards[0], decks), "index": null, "of": null });
        let question = format!("Seat {target}'s hand is shown to you: which card do you take?");
        let when = format!("turn {}, the card taken from seat {target}", v.turns());
        cards[self.ask(v, &question, &when, stand_in, &choices)]
    }

    fn block<D: Draw>(&mut self, v: &View<'_>, by: usize, func: Func, d: &mut D) -> Option<Card> {
        if v.seat() != self.me {
            return self.bots.block(v, by, func, d);
        }
        let decks = v.rules().deck.decks;
        let lowest = |m: CardSet| (m != 0).then(|| m.trailing_zeros() as Card);
        let mut cards = vec![None];
        let mut choices = vec![Choice::new("n", "no Block", "none")];
        for (key, c) in [("b", lowest(v.hand() & BLOCK_CARDS)), ("a", lowest(v.hand() & super::cards::ANY_CARDS))] {
            if let Some(c) = c {
                let label = format!("Block with {}", name(c));
                choices.push(Choice::new(key, label, format!("block:{}", json_name(c, decks))));
                cards.push(Some(c));
            }
        }
        let card = cards.iter().flatten().next().copied().unwrap_or(EMPTY);
        let stand_in = json!({ "event": "block", "seat": self.me, "card": json_name(card, decks), "against": func.key() });
        let question = format!("Seat {by} plays {} against your hand: do you Block it?", func.key());
        let when = format!("seat {by}'s {}, a Block", func.key());
        cards[self.ask(v, &question, &when, stand_in, &choices)]
    }

    fn challenge<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Option<usize> {
        if v.seat() != self.me {
            return self.bots.challenge(v, d);
        }
        let open = v.over_base_limit() & !v.grace_mask() & !(1 << self.me);
        let seats: Vec<usize> = (0..v.players()).filter(|&q| open & (1 << q) != 0).collect();
        if seats.is_empty() {
            return None;
        }
        let mut choices = vec![Choice::new("n", "no challenge", "none")];
        for &q in &seats {
            let label = format!("challenge seat {q} ({} cards)", v.hand_size(q));
            choices.push(Choice::new(q.to_string(), label, format!("challenge:{q}")));
        }
        let stand_in = json!({ "event": "challenge", "seat": self.me, "target": seats[0], "size": v.hand_size(seats[0]),
                               "penalised": v.penalised(seats[0]), "protected": false, "limit": 7, "won": true,
                               "shown": null });
        let when = format!("turn {}, a hand challenge", v.turns());
        let k = self.ask(v, "Do you challenge a hand over its limit?", &when, stand_in, &choices);
        (k > 0).then(|| seats[k - 1])
    }

    fn discard<D: Draw>(&mut self, v: &View<'_>, limit: u32, forced: bool, d: &mut D) -> CardSet {
        if v.seat() != self.me {
            return self.bots.discard(v, limit, forced, d);
        }
        let size = count(v.hand());
        let bot = self.bots.discard(v, limit, forced, d);
        if forced {
            let need = size.saturating_sub(LIMIT_6);
            let a = SetAsk {
                question: "Discard which card?",
                explain: format!("The challenge: discard {} to keep six (a card at a time).", plural(need.into(), "card")),
                pool: v.hand(),
                min: need,
                max: need,
                done: None,
                bot,
                stand_in: json!({ "event": "penalty_discard", "seat": self.me, "cards": json_cards(v, bot) }),
                when: format!("turn {}, the discard to six", v.turns()),
                penalty: false,
            };
            return self.ask_set(v, &a);
        }
        if size <= limit {
            return 0;
        }
        let over = size - limit;
        let a = SetAsk {
            question: "Discard which card?",
            explain: format!(
                "End of your turn: {size} cards, limit {limit}. Discard {} (a card at a time), or keep \
                 more: a bluff a challenge may catch.",
                plural(over.into(), "card")
            ),
            pool: v.hand(),
            min: 0,
            max: over,
            done: Some(("k", "keep the rest")),
            bot,
            stand_in: json!({ "event": "discard", "seat": self.me, "cards": json_cards(v, bot),
                              "kept": size - count(bot), "limit": limit }),
            when: format!("turn {}, the discard to {limit}", v.turns()),
            penalty: false,
        };
        self.ask_set(v, &a)
    }

    fn take_penalty<D: Draw>(&mut self, v: &View<'_>, pile: CardSet, d: &mut D) -> CardSet {
        if v.seat() != self.me {
            return self.bots.take_penalty(v, pile, d);
        }
        let bot = self.bots.take_penalty(v, pile, d);
        let a = SetAsk {
            question: "Take which card?",
            explain: format!("You caught them: take up to two of their discards {} (a card at a time).", names(pile)),
            pool: pile,
            min: 0,
            max: count(pile).min(2),
            done: Some(("n", "take no more")),
            bot,
            stand_in: json!({ "event": "penalty_take", "seat": self.me, "cards": json_cards(v, bot) }),
            when: format!("turn {}, the caught player's discards", v.turns()),
            penalty: true,
        };
        self.ask_set(v, &a)
    }
}

/// The person's round score as words.
fn score_text(v: &View<'_>) -> String {
    let s = v.score();
    match s.rank {
        Some(r) => format!(
            "{} of a kind of {}s, {} points",
            s.kind,
            super::cards::RANK_NAMES[usize::from(r)],
            s.points
        ),
        None => format!("no five of a kind (best {}), 0 points", s.kind),
    }
}

/// The table as the person at `v.seat()` sees it, within 80 columns:
/// read from the view (what that seat knows) and the public record only.
fn drawing(v: &View<'_>, p: &Public, names: &[String], c: &Console) -> String {
    let me = v.seat();
    let dot = if c.symbols() { " · " } else { " | " };
    let head = [
        format!("round {}", p.round + 1),
        format!("dealer seat {}", p.dealer),
        format!("turn {}", v.turns()),
        format!("draw pile {}", v.draw_count()),
        format!("discards {}", count(v.discard())),
        format!("first to {}", v.rules().target),
    ]
    .join(dot);
    let mut out = format!("\n{}\n", c.paint("1", &head));
    let community: Vec<String> = v
        .community()
        .iter()
        .map(|&k| if k == EMPTY { "-".into() } else { name(k) })
        .collect();
    let last = if p.last == 0 { "-".into() } else { names_of(p.last) };
    out.push_str(&format!("community: {}   last discarded: {last}\n", community.join(" ")));
    if let Some(s) = v.caller() {
        out.push_str(&c.paint("1", &format!("seat {s} called Flip!: every other seat has one last turn\n")));
    }
    for (s, who) in names.iter().enumerate().take(v.players()) {
        out.push_str(&c.seat(s, me, &seat_row(v, s, who)));
        out.push('\n');
        let known = v.known(s);
        if s != me && known != 0 {
            for l in wrapped(&[format!("known to you in it: {}", names_of(known))], "            ", " ") {
                out.push_str(&l);
                out.push('\n');
            }
        }
    }
    let hand: Vec<String> = cards_of(v.hand()).map(name).collect();
    let mut items = vec!["your hand:".to_string()];
    items.extend(if hand.is_empty() { vec!["-".to_string()] } else { hand });
    for l in wrapped(&items, "", " ") {
        out.push_str(&l);
        out.push('\n');
    }
    out.push_str(&format!("with the community: {}\n", score_text(v)));
    out
}

/// One seat's line of the drawing.
fn seat_row(v: &View<'_>, s: usize, who: &str) -> String {
    let me = v.seat();
    let mut state = Vec::new();
    if s == me {
        state.push(format!("limit {}", v.limit_for(v.hand())));
    }
    if v.penalised(s) {
        state.push("caught: limit 6".into());
    }
    if v.grace(s) {
        state.push("protected".into());
    }
    if s != me && v.over_base_limit() & (1 << s) != 0 {
        state.push("over 7".into());
    }
    if v.caller() == Some(s) {
        state.push("called Flip!".into());
    }
    let mark = if s == me { ">" } else { " " };
    let who: String = who.chars().take(14).collect();
    let cards = plural(v.hand_size(s).into(), "card");
    format!(
        "{mark} seat {s:<2} {who:<14} {:>4}   {cards:<9} {}",
        v.total(s),
        state.join(", ")
    )
    .trim_end()
    .to_string()
}

/// A set's card names (`-` when empty).
fn names_of(s: CardSet) -> String {
    names(s)
}

/// The events told to the person as its seat may know them.
struct Told<'s> {
    me: usize,
    public: &'s RefCell<Public>,
    say: Box<dyn FnMut(&str) + 's>,
}

impl Told<'_> {
    /// `seat S` as the narration names it.
    fn cards_or_count(&self, seat: usize, cards: CardSet) -> String {
        if seat == self.me { names(cards) } else { plural(count(cards).into(), "card") }
    }

    /// A new round: the public record starts again, and the person is
    /// told its own three cards.
    fn dealt(&self, t: &Table) -> String {
        *self.public.borrow_mut() = Public {
            round: t.round(),
            dealer: t.dealer(),
            last: 0,
        };
        let community: Vec<String> = t.community().iter().filter(|&&c| c != EMPTY).map(|&c| name(c)).collect();
        format!(
            "round {} (dealer seat {}): community {}; you are dealt {}",
            t.round() + 1,
            t.dealer(),
            community.join(" "),
            names(t.hand(self.me))
        )
    }

    /// The line an event is told as, if any.
    fn line(&mut self, t: &Table, e: Event) -> Option<String> {
        let me = self.me;
        Some(match e {
            Event::Dealt => self.dealt(t),
            Event::Turn { seat, extra } => {
                format!("turn {}{}: seat {seat}", t.turns() + 1, if extra { " (extra)" } else { "" })
            }
            Event::Drew { seat, cards } => format!("  seat {seat} draws {}", self.cards_or_count(seat, cards)),
            Event::Community { seat, card, replaced, .. } => format!(
                "  seat {seat} takes community {}; replaced by {}",
                name(card),
                if replaced == EMPTY { "nothing".into() } else { name(replaced) }
            ),
            Event::Played { seat, play } => played_line(t, seat, &play),
            Event::Blocked { seat, card } => format!("  seat {seat} blocks with {}", name(card)),
            Event::Took { seat, from, card } => {
                if seat == me || from == me {
                    format!("  seat {seat} takes {} from seat {from}", name(card))
                } else {
                    format!("  seat {seat} takes a card from seat {from}")
                }
            }
            Event::Swapped { seat, with } => format!("  seat {seat} swaps hands with seat {with}"),
            Event::Rebooted { seat, cards } => {
                self.public.borrow_mut().last = cards;
                format!("  seat {seat} reboots, discarding {}", names(cards))
            }
            Event::Chaos { seat, .. } => format!(
                "  seat {seat}: chaos, every hand and the community dealt again; you now hold {}",
                names(t.hand(me))
            ),
            Event::Refilled => format!("  the community is now {}", community_text(t)),
            Event::PlayedDiscarded { card, .. } => {
                self.public.borrow_mut().last = bit(card);
                return None;
            }
            Event::Called { seat, points } => {
                if seat == me {
                    format!("  seat {seat} calls Flip! holding {points} points")
                } else {
                    format!("  seat {seat} calls Flip!")
                }
            }
            Event::Challenge { seat, target, won, shown } => {
                let shows = match shown {
                    EMPTY => String::new(),
                    c if seat == me || target == me => format!(" (shows {})", name(c)),
                    _ => " (shows a 7>>>10 or an Any)".into(),
                };
                let verdict = if won { "caught" } else { "cleared" };
                format!("  seat {seat} challenges seat {target} ({} cards): {verdict}{shows}", count(t.hand(target)))
            }
            Event::PenaltyDiscard { seat, cards } => {
                self.public.borrow_mut().last = cards;
                format!("  seat {seat} discards to six: {}", names(cards))
            }
            Event::PenaltyTaken { seat, cards } => {
                format!("  seat {seat} takes from the penalty discards: {}", names(cards))
            }
            Event::Discarded { seat, cards, kept, limit } => {
                if cards == 0 && kept <= limit {
                    return None;
                }
                if cards != 0 {
                    self.public.borrow_mut().last = cards;
                }
                format!("  seat {seat} discards {}; keeps {kept} (limit {limit})", names(cards))
            }
            Event::Reshuffled { cards } => {
                self.public.borrow_mut().last = 0;
                format!("  the discard pile ({}) is shuffled into a new draw pile", plural(cards.into(), "card"))
            }
            Event::CutOff => format!("  round cut off after {} (void)", plural(t.turns().into(), "turn")),
        })
    }
}

/// An action card played, as every seat sees it.
fn played_line(t: &Table, seat: usize, play: &super::rules::Play) -> String {
    let what = match play.func {
        Func::Take => format!(" from seat {}", play.target),
        Func::Swap => format!(" with seat {}", play.target),
        Func::Steal => {
            let victims: Vec<String> =
                (0..t.players()).filter(|q| play.victims & (1 << q) != 0).map(|q| format!("seat {q}")).collect();
            let slots = count(u128::from(play.slots));
            let community = if slots > 0 { format!(" and {slots} community") } else { String::new() };
            format!(" from {}{community}", victims.join(", "))
        }
        _ => String::new(),
    };
    format!("  seat {seat} plays {} as {}{what}", name(play.card), play.func.key().replace('_', " "))
}

/// A told line in lines of at most 74 columns (room for the `(you)` the
/// painting adds), the rest indented under it.
fn fold(line: &str) -> Vec<String> {
    let indent = line.len() - line.trim_start().len();
    let mut out: Vec<String> = Vec::new();
    let mut cur = line[..indent].to_string();
    for w in line[indent..].split(' ') {
        if cur.trim().is_empty() {
            cur.push_str(w);
        } else if cur.chars().count() + 1 + w.chars().count() > 74 {
            out.push(std::mem::replace(&mut cur, format!("{}    {w}", &line[..indent])));
        } else {
            cur.push(' ');
            cur.push_str(w);
        }
    }
    out.push(cur);
    out
}

/// The community slots in words.
fn community_text(t: &Table) -> String {
    t.community()
        .iter()
        .map(|&c| if c == EMPTY { "-".to_string() } else { name(c) })
        .collect::<Vec<_>>()
        .join(" ")
}

impl Observer<Table> for Told<'_> {
    const EVENTS: bool = true;

    fn event(&mut self, t: &Table, e: Event) {
        if let Some(l) = self.line(t, e) {
            for part in fold(&l) {
                (self.say)(&part);
            }
        }
    }

    /// The hands are shown at the scoring.
    fn round_end(&mut self, t: &Table) {
        (self.say)(&format!("round {} scored (community {}):", t.round() + 1, community_text(t)));
        for p in 0..t.players() {
            let line = format!("  seat {p}: {} points, total {}; held {}", t.points(p), t.total(p), names(t.hand(p)));
            for l in fold(&line) {
                (self.say)(&l);
            }
        }
    }

    fn game_end(&mut self, _t: &Table, _end: End) {}
}

/// Plays one game of `sim play classic-flip` (see
/// [`crate::engine::game::Game::play`]).
pub fn play(session: &RefCell<Session<ClassicFlip>>, sim: &super::ClassicFlipSim, seed: u64) -> Result<String, String> {
    let me = session.borrow().seat();
    let names = session.borrow().names().to_vec();
    let public = RefCell::new(Public::default());
    let mut rng = seeded_game_rng(seed);
    let mut table = Table::new(sim.rules);
    let mut sink = session.borrow().trace_sink();
    let mut json = TraceWriter::with_format(&mut sink, TraceFormat::Json, 0);
    json.game_seed(seed);
    let told = Told {
        me,
        public: &public,
        say: Box::new(|line: &str| {
            let s = session.borrow();
            let (painted, bot) = seats_painted(&s.console, line, me);
            s.narrate(&painted, bot);
        }),
    };
    let mut person = Person {
        session,
        public: &public,
        me,
        names: names.clone(),
        bots: Seats::new(sim.policies.clone()),
    };
    let end = {
        let mut observers = (Trace::new(&mut json), told);
        table.play_game(&mut person, &mut observers, &mut rng)
    };
    json.finish().map_err(|e| format!("the trace: {e}"))?;
    let rounds = plural(table.round().into(), "round");
    let totals: Vec<String> = (0..table.players()).map(|s| format!("seat {s} {}", table.total(s))).collect();
    let line = match end.winner {
        Some(w) if w == me => format!("You win with {} after {rounds}!", table.total(w)),
        Some(w) => format!("seat {w} ({}) wins with {} after {rounds}.", names[w], table.total(w)),
        None => format!("No winner after {rounds} (the game's cap)."),
    };
    let c = &session.borrow().console;
    Ok(format!(
        "\n{}\n{}",
        c.paint("1", &line),
        c.paint("2", &format!("final totals: {}", totals.join(", ")))
    ))
}


#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::SimRng;
    use rand::SeedableRng;
    use super::super::cards::{SEVEN_TEN, action_card};
    use super::super::rules::{Position, Rules};

    /// Seat 0's drawing and what it is told of a few events of other
    /// seats, at `t`.
    fn seen(t: &Table, events: &[Event]) -> (String, Vec<String>) {
        let names: Vec<String> = ["you", "bot a", "bot b"].map(String::from).to_vec();
        let public = RefCell::new(Public::default());
        let heard = RefCell::new(Vec::new());
        let mut told = Told {
            me: 0,
            public: &public,
            say: Box::new(|l: &str| heard.borrow_mut().push(l.to_string())),
        };
        for &e in events {
            told.event(t, e);
        }
        told.round_end(t);
        drop(told);
        let c = Console::scripted(std::io::Cursor::new(""));
        let drawn = drawing(&View::new(t, 0), &public.borrow(), &names, &c);
        let mut heard = heard.into_inner();
        // The hands are shown when the round is scored: every seat sees them.
        let scored = heard.iter().position(|l| l.contains("scored")).unwrap();
        heard.truncate(scored);
        (drawn, heard)
    }

    /// The events of other seats whose cards only they know: seat 1 draws
    /// two, takes a card from seat 2, swaps hands with it, calls Flip!,
    /// and is cleared by a card only its challenger sees.
    fn others(t: &Table, shown: Card) -> Vec<Event> {
        let drawn = t.draw_pile().take(2).fold(0, |m, c| m | bit(c));
        let card = cards_of(t.hand(2)).next().unwrap();
        vec![
            Event::Dealt,
            Event::Turn { seat: 1, extra: false },
            Event::Drew { seat: 1, cards: drawn },
            Event::Took { seat: 1, from: 2, card },
            Event::Swapped { seat: 1, with: 2 },
            Event::Called {
                seat: 1,
                points: t.score_of(1).points,
            },
            Event::Challenge {
                seat: 2,
                target: 1,
                won: false,
                shown,
            },
        ]
    }

    /// The information test: what seat 0 is shown and told does not
    /// change when the cards it cannot know (the other hands, the draw
    /// pile below what has been revealed) are dealt otherwise.
    #[test]
    fn the_drawing_and_the_narration_do_not_depend_on_the_cards_hidden_from_the_seat() {
        for seed in 1..=20u64 {
            let mut t = Table::new(Rules::standard(3));
            t.new_game();
            let mut rng = SimRng::seed_from_u64(seed);
            t.deal(&mut rng);
            let plain = seen(&t, &others(&t, action_card(SEVEN_TEN, 0)));
            // The hidden cards, shuffled and dealt again in the same sizes.
            let mut pool: Vec<Card> = cards_of(t.hand(1) | t.hand(2)).chain(t.draw_pile()).collect();
            pool.reverse();
            let (n1, n2) = (count(t.hand(1)) as usize, count(t.hand(2)) as usize);
            let set = |v: &[Card]| v.iter().fold(0, |m, &c| m | bit(c));
            let pos = Position {
                hands: vec![t.hand(0), set(&pool[..n1]), set(&pool[n1..n1 + n2])],
                community: t.community(),
                draw: pool[n1 + n2..].to_vec(),
                discard: t.discard(),
                totals: vec![0; 3],
                caller: None,
                penalised: 0,
                round: 0,
            };
            let mut other = t.clone();
            other.set_position(&pos);
            assert_ne!(other.hand(1), t.hand(1), "seed {seed}");
            let changed = seen(&other, &others(&other, action_card(ANY, 0)));
            assert_eq!(plain, changed, "seed {seed}");
            assert!(plain.0.contains("> seat 0  you"), "{}", plain.0);
            assert!(plain.0.lines().chain(plain.1.iter().map(String::as_str)).all(|l| l.chars().count() <= 80));
        }
    }

    #[test]
    fn keys_name_cards_and_starts() {
        assert_eq!(card_key(action_card(ANY, 0)), "any");
        assert_eq!(card_key(action_card(SEVEN_TEN, 0)), "710");
        assert_eq!(start_key(&Start::Community(0)), "c1");
        assert_eq!(fold("  seat 1 draws a card").len(), 1);
        assert!(fold(&format!("  {}", "word ".repeat(40))).iter().all(|l| l.chars().count() <= 74));
    }
}
