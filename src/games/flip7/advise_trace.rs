//! A Flip 7 position read from a JSON trace cut at a decision, for
//! `sim advise flip7 --trace FILE --at LINE`.
//!
//! The trace is followed event by event from the game's start, keeping
//! what every player sees: totals, the cards in front, states, the
//! discard pile, cards waiting for their target, a Flip Three under way
//! and whose turn it is. The order of the draw pile (the deck the `game`
//! event lists, the piles of `reshuffle` events) is never read: only its
//! size changes what a player knows, so the advice cannot depend on a card
//! the player cannot see.

use std::collections::VecDeque;

use serde_json::Value;

use super::advise::{Decision, Parts, Seat};
use super::cards::{Card, FLIP_THREE, FREEZE, KINDS, MAX_NUMBER, SECOND_CHANCE, Without, parse_card};
use super::rules::{Aside, Resume, Status};
use crate::engine::advise::TraceCut;

/// What the trace has shown so far of the game.
struct Follow {
    n: usize,
    round: u32,
    dealer: usize,
    totals: Vec<u32>,
    cards: Vec<Vec<Card>>,
    status: Vec<Status>,
    discard: [u8; KINDS],
    pending: VecDeque<(Card, usize)>,
    /// A Flip Three under way: its player, flips made, cards set aside and
    /// not yet assigned.
    flip_three: Option<(usize, u8, Vec<Card>)>,
    /// Whose turn it is and whether it is part of the initial deal.
    turn: usize,
    turn_dealing: bool,
    /// The deal is under way; the next place in the round's order it visits.
    in_deal: bool,
    deal_next: usize,
    over: bool,
}

/// A field of an event, or an error naming the line.
fn field<'a>(line: usize, v: &'a Value, key: &str) -> Result<&'a Value, String> {
    v.get(key).ok_or_else(|| format!("line {line}: the {} event has no '{key}'", v["event"]))
}

fn seat_of(line: usize, v: &Value, key: &str, n: usize) -> Result<usize, String> {
    field(line, v, key)?
        .as_u64()
        .map(|s| s as usize)
        .filter(|&s| s < n)
        .ok_or_else(|| format!("line {line}: '{key}' is not a seat of the {n} players"))
}

fn card_of(line: usize, v: &Value, key: &str) -> Result<Card, String> {
    let text = field(line, v, key)?.as_str().unwrap_or_default();
    parse_card(text).map_err(|e| format!("line {line}: {e}"))
}

impl Follow {
    fn new(n: usize) -> Follow {
        Follow {
            n,
            round: 0,
            dealer: 0,
            totals: vec![0; n],
            cards: vec![Vec::new(); n],
            status: vec![Status::Active; n],
            discard: [0; KINDS],
            pending: VecDeque::new(),
            flip_three: None,
            turn: 0,
            turn_dealing: false,
            in_deal: false,
            deal_next: 0,
            over: false,
        }
    }

    /// The place of seat `s` in this round's order (from the dealer's left).
    fn place(&self, s: usize) -> usize {
        (s + self.n - self.dealer - 1) % self.n
    }

    /// Whether a Hit or Stay of seat `s` now is a turn of the initial deal.
    fn deal_turn(&self, s: usize) -> bool {
        self.in_deal && self.place(s) >= self.deal_next
    }

    fn remove(&mut self, line: usize, s: usize, c: Card) -> Result<(), String> {
        match self.cards[s].iter().position(|&x| x == c) {
            Some(i) => {
                self.cards[s].remove(i);
                Ok(())
            }
            None => Err(format!("line {line}: seat {s} has no {c} in front")),
        }
    }

    fn discard(&mut self, c: Card) {
        self.discard[usize::from(c)] = self.discard[usize::from(c)].saturating_add(1);
    }

    fn pop_pending(&mut self, line: usize, card: Card, seat: usize) -> Result<(), String> {
        match self.pending.pop_front() {
            Some((c, s)) if c == card && s == seat => Ok(()),
            _ => Err(format!("line {line}: no {card} was waiting for seat {seat}")),
        }
    }

    /// Follows one event.
    fn event(&mut self, line: usize, v: &Value) -> Result<(), String> {
        let name = v["event"].as_str().unwrap_or_default();
        let seat = |key: &str| seat_of(line, v, key, self.n);
        match name {
            "game" => {}
            "round" => {
                let r = field(line, v, "round")?.as_u64().unwrap_or(1).max(1);
                self.round = (r - 1) as u32;
                self.dealer = seat("dealer")?;
                for s in 0..self.n {
                    self.cards[s].clear();
                    self.status[s] = Status::Active;
                }
                self.pending.clear();
                self.flip_three = None;
                (self.in_deal, self.deal_next) = (true, 0);
                if v.get("deck").is_some_and(Value::is_array) {
                    // A fresh deck (--fresh-deck): nothing is out of it.
                    self.discard = [0; KINDS];
                }
            }
            "reshuffle" => self.discard = [0; KINDS],
            "hit" | "stay" => {
                let s = seat("seat")?;
                self.turn_dealing = self.deal_turn(s);
                if self.turn_dealing {
                    self.deal_next = self.place(s) + 1;
                } else {
                    self.in_deal = false;
                }
                self.turn = s;
                if name == "stay" {
                    self.status[s] = Status::Stayed;
                }
            }
            "flip" => self.flip(line, v)?,
            "bust" => self.status[seat("seat")?] = Status::Busted,
            "second_chance_used" => {
                let s = seat("seat")?;
                let dup = card_of(line, v, "duplicate")?;
                self.remove(line, s, dup)?;
                self.remove(line, s, SECOND_CHANCE)?;
                self.discard(dup);
                self.discard(SECOND_CHANCE);
            }
            "second_chance_given" => {
                let to = seat("to")?;
                self.cards[to].push(SECOND_CHANCE);
            }
            "second_chance_discarded" => self.discard(SECOND_CHANCE),
            "assign" => {
                let (from, to) = (seat("from")?, seat("to")?);
                let card = card_of(line, v, "card")?;
                if let Some((t, _, aside)) = &mut self.flip_three
                    && *t == from
                    && !aside.is_empty()
                {
                    aside.remove(0);
                }
                self.pending.push_back((card, to));
            }
            "set_aside" => {
                let card = card_of(line, v, "card")?;
                match &mut self.flip_three {
                    Some((_, _, aside)) => aside.push(card),
                    None => return Err(format!("line {line}: a card set aside with no Flip Three under way")),
                }
            }
            "fizzle" => {
                let (s, card) = (seat("seat")?, card_of(line, v, "card")?);
                self.pop_pending(line, card, s)?;
                self.discard(card);
            }
            "frozen" => {
                let s = seat("seat")?;
                self.pop_pending(line, FREEZE, s)?;
                self.status[s] = Status::Frozen;
            }
            "flip_three" => {
                let s = seat("seat")?;
                self.pop_pending(line, FLIP_THREE, s)?;
                self.flip_three = Some((s, 0, Vec::new()));
            }
            "discard" => {
                let (s, card) = (seat("seat")?, card_of(line, v, "card")?);
                self.discard(card);
                if let Some((t, _, aside)) = &mut self.flip_three
                    && *t == s
                {
                    if card == FLIP_THREE {
                        self.flip_three = None;
                    } else if let Some(i) = aside.iter().position(|&c| c == card) {
                        aside.remove(i);
                    }
                }
            }
            "flip7" => self.status[seat("seat")?] = Status::Flip7,
            "round_end" => self.round_end(line, v)?,
            "game_end" => self.over = true,
            "exhausted" => {}
            other => return Err(format!("line {line}: '{other}' is not a Flip 7 event")),
        }
        Ok(())
    }

    fn flip(&mut self, line: usize, v: &Value) -> Result<(), String> {
        let s = seat_of(line, v, "seat", self.n)?;
        let card = card_of(line, v, "card")?;
        match v["via"].as_str().unwrap_or_default() {
            "deal" => {
                self.deal_next = self.place(s) + 1;
                (self.turn, self.turn_dealing) = (s, true);
            }
            "flip-three" => {
                if let Some((_, done, _)) = &mut self.flip_three {
                    *done = v["nth"].as_u64().unwrap_or(1) as u8;
                }
            }
            _ => {}
        }
        // Numbers, modifiers and a first Second Chance stay in front; a
        // Freeze or Flip Three is assigned or set aside next, a second
        // Second Chance passed or discarded next.
        let keeps = card <= MAX_NUMBER
            || (card < FREEZE)
            || (card == SECOND_CHANCE && !self.cards[s].contains(&SECOND_CHANCE));
        if keeps {
            self.cards[s].push(card);
        }
        Ok(())
    }

    fn round_end(&mut self, line: usize, v: &Value) -> Result<(), String> {
        let seats = field(line, v, "seats")?.as_array().cloned().unwrap_or_default();
        for (s, seat) in seats.iter().enumerate().take(self.n) {
            self.totals[s] = seat["total"].as_u64().unwrap_or(0) as u32;
        }
        for c in field(line, v, "discarded")?.as_array().cloned().unwrap_or_default() {
            let card = parse_card(c.as_str().unwrap_or_default()).map_err(|e| format!("line {line}: {e}"))?;
            self.discard(card);
        }
        for s in 0..self.n {
            self.cards[s].clear();
        }
        self.in_deal = false;
        Ok(())
    }

    /// The decision an event records, and who makes it; `None` for an
    /// event that is no decision.
    fn decision(&self, line: usize, v: &Value) -> Result<Option<(usize, Decision)>, String> {
        let seat = |key: &str| seat_of(line, v, key, self.n);
        Ok(match v["event"].as_str().unwrap_or_default() {
            "hit" | "stay" => Some((seat("seat")?, Decision::HitOrStay)),
            "assign" => Some((seat("from")?, Decision::Assign(card_of(line, v, "card")?))),
            "second_chance_given" => Some((seat("from")?, Decision::PassSecondChance)),
            _ => None,
        })
    }

    /// The position just before decision `d` of `mover`.
    fn parts(&self, table: &Value, mover: usize, d: Decision) -> Result<Parts, String> {
        let without = table["without"]
            .as_array()
            .map(|kinds| kinds.iter().filter_map(|k| k.as_str()).collect::<Vec<_>>().join(","))
            .filter(|k| !k.is_empty())
            .map(|k| Without::parse(&k))
            .transpose()?
            .unwrap_or_default();
        let seats = (0..self.n)
            .map(|s| Seat {
                total: self.totals[s],
                cards: self.cards[s].clone(),
                status: self.status[s],
            })
            .collect();
        let (turn, dealing) = match d {
            Decision::HitOrStay => (mover, self.deal_turn(mover)),
            _ => (self.turn, self.turn_dealing),
        };
        let flip_three = match (&self.flip_three, d) {
            (Some((t, done, aside)), Decision::PassSecondChance) if *t == mover => {
                Some((*t, 3 - *done, Aside::of(aside)))
            }
            (Some((t, _, aside)), Decision::Assign(_)) if *t == mover && !aside.is_empty() => {
                Some((*t, 0, Aside::of(&aside[1..])))
            }
            _ => None,
        };
        Ok(Parts {
            without,
            single_round: table["single_round"].as_bool().unwrap_or(false),
            fresh_deck: table["fresh_deck"].as_bool().unwrap_or(false),
            round: self.round,
            seats,
            discard: self.discard,
            pending: self.pending.iter().copied().collect(),
            resume: Resume {
                turn,
                dealing,
                flip_three,
            },
            mover,
            decision: d,
        })
    }
}

/// The position of `cut` at its decision: the event at line `--at` (which
/// must be a decision), or the trace's last decision.
pub fn parts(cut: &TraceCut) -> Result<Parts, String> {
    let table = &cut.run["table"];
    let n = cut
        .events
        .iter()
        .find(|(_, v)| v["event"] == "game")
        .and_then(|(_, v)| v["players"].as_u64())
        .or_else(|| table["players"].as_u64())
        .ok_or("the trace does not say how many players there are")? as usize;
    if n == 0 || n > super::rules::MAX_PLAYERS {
        return Err(format!("the trace has {n} players"));
    }
    let mut follow = Follow::new(n);
    let mut last: Option<(Parts, usize)> = None;
    for (i, (line, v)) in cut.events.iter().enumerate() {
        let is_at = cut.at == Some(*line) && i + 1 == cut.events.len();
        if let Some((mover, d)) = follow.decision(*line, v)? {
            if is_at || cut.at.is_none() {
                last = Some((follow.parts(table, mover, d)?, *line));
            }
        } else if is_at {
            return Err(format!(
                "--at {line}: line {line} is a '{}' event, not a decision (a hit, stay, assign or second_chance_given)",
                v["event"].as_str().unwrap_or("?")
            ));
        }
        follow.event(*line, v)?;
    }
    match last {
        Some((p, _)) => Ok(p),
        None => Err("the trace has no decision to advise on (no hit, stay, assign or second_chance_given)".into()),
    }
}
