//! One game of Flip-Flush: the deal, Place / Flip / pass turns, calls,
//! knock-outs, the three ways a game ends, and the gambling pot.
//! `docs/rules/flip-flush.md` states every rule and reading this file
//! implements; `tests/flip_flush_rules.rs` checks them one by one.
//!
//! Like Flip 7, a game is generic over the [`Chooser`] that makes every
//! decision, the [`Observer`] that records statistics and the trace, and the
//! [`Draw`] source (a random generator, or a stacked deck). A chooser never
//! sees the [`Table`]: it gets a [`View`] holding only what its player knows.
//!
//! Every game ends: a Place uses up a card from a hand and a Flip turns a
//! card placed earlier, so a game has at most two actions per card dealt,
//! and a pass happens only when that player can do neither (when nobody
//! can, the game is over). No turn cap is needed.

use super::cards::{ALL, CELLS, Card, CardSet, Cell, Deck, Grid, SUITS, pairs_complete, suit, suit_set};
pub use crate::engine::observe::{Observer, Silent};
use crate::engine::observe::Observed;
use crate::engine::rng::Draw;

/// Fewest players.
pub const MIN_PLAYERS: usize = 2;
/// Most players.
pub const MAX_PLAYERS: usize = 6;
/// Cards dealt to each player.
pub const HAND_SIZE: usize = 8;
/// `--memory` is held in millionths: this is probability 1.
pub const MEMORY_ONE: u32 = 1_000_000;
/// [`Table::placer`] of an empty cell.
const NOBODY: u8 = 0xFF;

/// Options fixed for every game of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Players at the table ([`MIN_PLAYERS`]..=[`MAX_PLAYERS`]).
    pub players: usize,
    /// The gambling variant: stakes and a pot instead of knock-outs.
    pub gambling: bool,
    /// Chance, in millionths, that a player remembers a card they place
    /// face-down ([`MEMORY_ONE`]: always).
    pub memory: u32,
}

impl Rules {
    /// The standard game for `players` players: no gambling, full memory.
    pub fn standard(players: usize) -> Rules {
        Rules {
            players,
            gambling: false,
            memory: MEMORY_ONE,
        }
    }
}

/// A player's action on their turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// Put `card` from the hand face-down on `cell`, removing what was there.
    Place {
        /// The card (must be in the hand).
        card: Card,
        /// The cell (0..9, row by row).
        cell: usize,
    },
    /// Turn the face-down card on `cell` face-up, calling a Flush or not.
    Flip {
        /// The cell (must hold a face-down card).
        cell: usize,
        /// Whether a Flush is called before the Flip.
        call: bool,
    },
}

/// Why a player is knocked out (or, gambling, pays a stake).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Called a Flush and the Flip made none.
    WrongCall,
    /// The Flip made a new Flush that was not called.
    MissedFlush,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The seat called a Flush and the Flip made one.
    Call(usize),
    /// Every other seat was knocked out.
    LastStanding(usize),
    /// Every card on the grid face-up and no hand left: everybody still in
    /// the game ties.
    Tie,
}

impl End {
    /// The winner, if any.
    pub fn winner(self) -> Option<usize> {
        match self {
            End::Call(s) | End::LastStanding(s) => Some(s),
            End::Tie => None,
        }
    }
}

/// Everything that happens at the table, in order. Built only for observers
/// that ask for events ([`Observer::EVENTS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The hands are dealt (and, gambling, the antes are in the pot).
    Dealt,
    /// A card was placed face-down.
    Place {
        /// Who placed it.
        seat: usize,
        /// The card.
        card: Card,
        /// Where.
        cell: usize,
        /// What the cell held before (now out of the game).
        covered: Cell,
        /// Whether the player will remember the card.
        remembered: bool,
    },
    /// A card was turned face-up.
    Flip {
        /// Who flipped it.
        seat: usize,
        /// Where.
        cell: usize,
        /// The card.
        card: Card,
        /// Whether a Flush was called.
        call: bool,
        /// Whether the Flip made a new Flush.
        flush: bool,
    },
    /// The seat could neither Place nor Flip.
    Pass {
        /// The player.
        seat: usize,
    },
    /// The seat is knocked out (standard game).
    KnockedOut {
        /// The player.
        seat: usize,
        /// Why.
        fault: Fault,
    },
    /// The seat pays one stake into the pot instead (gambling).
    Pays {
        /// The player.
        seat: usize,
        /// Why.
        fault: Fault,
    },
}

/// Makes every decision of every seat.
pub trait Chooser {
    /// The move of the player `v.seat()`, who can Place or Flip (or both).
    /// The engine checks it: a placed card must be in the hand, a flipped
    /// cell must hold a face-down card.
    fn choose<D: Draw>(&mut self, v: &View<'_>, d: &mut D) -> Move;
}

/// What observers of a Flip-Flush table hear: [`Event`]s, and how each
/// game ended (the pot, when gambling, already paid out).
impl Observed for Table {
    type Event = Event;
    type End = End;
}

/// A Flip-Flush table: the grid, the hands, what each player remembers, and
/// (gambling) the pot, which carries over from one game to the next.
#[derive(Clone, Debug)]
pub struct Table {
    rules: Rules,
    deck: Deck,
    grid: Grid,
    /// Face-up cells, face-down cells, face-up cells of each suit: caches of
    /// what the grid says, kept in step with it.
    up: u16,
    down: u16,
    suit_up: [u16; SUITS],
    /// Three bits per cell: 0 unless face-up, else 1 + the card's suit.
    up_code: u32,
    /// Seat that placed the card on each cell ([`NOBODY`] when empty).
    placer: [u8; CELLS],
    /// The same as cell masks: the cells holding a card each seat placed.
    placed_by: [u16; MAX_PLAYERS],
    /// Cells whose card was placed while the cell was hot: the other two
    /// cells of a line through it face-up and of one suit (public).
    placed_hot: u16,
    /// For each cell, the suits (bit mask) that would have completed a line
    /// through it when its card was placed (0: the cell was not hot).
    placed_demand: [u8; CELLS],
    /// For each cell, how many cards its placer held just before placing
    /// its card (public: everybody sees every Place).
    placed_hand: [u8; CELLS],
    hands: [CardSet; MAX_PLAYERS],
    /// Cards in all hands together.
    in_hands: u32,
    /// Cards in each hand (public).
    held: [u8; MAX_PLAYERS],
    alive: u8,
    /// Face-down cells whose card each player remembers (cards they placed).
    mem_cells: [u16; MAX_PLAYERS],
    /// Cards each player remembers placing (on the grid or covered since).
    mem_cards: [CardSet; MAX_PLAYERS],
    /// Every card that has been face-up this game (on the grid or removed).
    shown: CardSet,
    /// Cards removed from the grid by a Place.
    removed: CardSet,
    /// Hands of knocked-out players.
    dropped: CardSet,
    pot: u32,
    pot_at_start: u32,
    /// Stakes each seat has put into the pot since it was last won.
    paid: [u32; MAX_PLAYERS],
    net: [i32; MAX_PLAYERS],
    turns: [u16; MAX_PLAYERS],
    calls: [u16; MAX_PLAYERS],
    wrong_calls: [u16; MAX_PLAYERS],
    missed: [u16; MAX_PLAYERS],
    turn: u32,
    next: usize,
    /// Every Place and Flip of this game, in order ([`Table::log_entry`]).
    log: [u16; MAX_LOG],
    log_len: u8,
}

/// Most moves a game can hold: every Place uses up a card (at most 48) and
/// every Flip turns a placed card face-up.
pub const MAX_LOG: usize = 2 * HAND_SIZE * MAX_PLAYERS;

/// One move of the public history, as a player sees it
/// ([`View::history`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Logged {
    /// Who moved.
    pub seat: usize,
    /// The cell placed on or flipped.
    pub cell: usize,
    /// A Flip (else a Place).
    pub flip: bool,
    /// A Flip with a call.
    pub call: bool,
    /// The card, when the viewer saw it: a flipped card, a placed card
    /// that was flipped later or that the viewer placed and remembers.
    pub card: Option<Card>,
}

impl Table {
    /// A table with an empty pot, ready for [`Table::new_game`].
    pub fn new(rules: Rules) -> Table {
        assert!((MIN_PLAYERS..=MAX_PLAYERS).contains(&rules.players));
        assert!(rules.memory <= MEMORY_ONE);
        Table {
            rules,
            deck: Deck::full(),
            grid: Grid::EMPTY,
            up: 0,
            down: 0,
            suit_up: [0; SUITS],
            up_code: 0,
            placer: [NOBODY; CELLS],
            placed_by: [0; MAX_PLAYERS],
            placed_hot: 0,
            placed_demand: [0; CELLS],
            placed_hand: [0; CELLS],
            hands: [0; MAX_PLAYERS],
            in_hands: 0,
            held: [0; MAX_PLAYERS],
            alive: 0,
            mem_cells: [0; MAX_PLAYERS],
            mem_cards: [0; MAX_PLAYERS],
            shown: 0,
            removed: 0,
            dropped: 0,
            pot: 0,
            pot_at_start: 0,
            paid: [0; MAX_PLAYERS],
            net: [0; MAX_PLAYERS],
            turns: [0; MAX_PLAYERS],
            calls: [0; MAX_PLAYERS],
            wrong_calls: [0; MAX_PLAYERS],
            missed: [0; MAX_PLAYERS],
            turn: 0,
            next: 0,
            log: [0; MAX_LOG],
            log_len: 0,
        }
    }

    /// Replaces the deck the next [`Table::deal`] deals from (stacked-deck
    /// tests).
    pub fn set_deck(&mut self, deck: Deck) {
        self.deck = deck;
    }

    /// Starts a new game from a freshly shuffled full deck.
    #[inline]
    pub fn new_game<D: Draw>(&mut self, d: &mut D) {
        self.deck = Deck::full();
        self.deal(d);
    }

    /// Starts a new game from the current deck: clears the grid, takes the
    /// antes (gambling; the pot keeps what an earlier tie left in it) and
    /// deals eight cards to each player, one at a time clockwise from seat 0.
    pub fn deal<D: Draw>(&mut self, d: &mut D) {
        let n = self.players();
        self.grid = Grid::EMPTY;
        self.up = 0;
        self.down = 0;
        self.suit_up = [0; SUITS];
        self.up_code = 0;
        self.placer = [NOBODY; CELLS];
        self.placed_by = [0; MAX_PLAYERS];
        self.placed_hot = 0;
        self.placed_demand = [0; CELLS];
        self.placed_hand = [0; CELLS];
        self.hands = [0; MAX_PLAYERS];
        self.alive = ((1u16 << n) - 1) as u8;
        self.mem_cells = [0; MAX_PLAYERS];
        self.mem_cards = [0; MAX_PLAYERS];
        self.shown = 0;
        self.removed = 0;
        self.dropped = 0;
        self.pot_at_start = self.pot;
        self.net = [0; MAX_PLAYERS];
        if self.rules.gambling {
            self.pot += n as u32;
            self.net[..n].fill(-1);
            for p in &mut self.paid[..n] {
                *p += 1;
            }
        }
        self.turns = [0; MAX_PLAYERS];
        self.calls = [0; MAX_PLAYERS];
        self.wrong_calls = [0; MAX_PLAYERS];
        self.missed = [0; MAX_PLAYERS];
        self.turn = 0;
        self.next = 0;
        self.log_len = 0;
        for _ in 0..HAND_SIZE {
            for h in &mut self.hands[..n] {
                *h |= 1u64 << self.deck.deal(d);
            }
        }
        self.in_hands = (HAND_SIZE * n) as u32;
        self.held = [0; MAX_PLAYERS];
        self.held[..n].fill(HAND_SIZE as u8);
    }

    /// Plays the game dealt by [`Table::deal`] (or continues one a test set
    /// up) to its end: turns go clockwise (seat 0, 1, ...) skipping players
    /// knocked out.
    pub fn play_game<C: Chooser, O: Observer<Table>, D: Draw>(&mut self, ch: &mut C, obs: &mut O, d: &mut D) -> End {
        if O::EVENTS {
            obs.event(self, Event::Dealt);
        }
        let n = self.players();
        let mut s = self.next;
        let end = loop {
            if self.down == 0 && self.in_hands == 0 {
                break End::Tie;
            }
            if self.is_alive(s) {
                let end = if self.hands[s] == 0 && self.down == 0 {
                    self.turns[s] += 1;
                    self.turn += 1;
                    if O::EVENTS {
                        obs.event(self, Event::Pass { seat: s });
                    }
                    None
                } else {
                    let mv = ch.choose(&View { t: self, seat: s }, d);
                    self.apply(s, mv, obs, d)
                };
                if let Some(end) = end {
                    break end;
                }
            }
            s = if s + 1 == n { 0 } else { s + 1 };
            self.next = s;
        };
        self.finish(end, obs)
    }

    /// Pays out the pot for a correct call and tells the observer.
    fn finish<O: Observer<Table>>(&mut self, end: End, obs: &mut O) -> End {
        if let End::Call(w) = end
            && self.rules.gambling
        {
            self.net[w] += self.pot as i32;
            self.pot = 0;
            self.paid = [0; MAX_PLAYERS];
        }
        obs.game_end(self, end);
        end
    }

    /// Plays one move of `seat` (counted as a turn of that seat) and returns
    /// how the game ended, if it did. [`Table::play_game`] uses it for every
    /// move; tests and tools use it to set up positions. Panics on a move the
    /// rules do not allow.
    pub fn apply<O: Observer<Table>, D: Draw>(
        &mut self,
        seat: usize,
        mv: Move,
        obs: &mut O,
        d: &mut D,
    ) -> Option<End> {
        assert!(self.is_alive(seat), "seat {seat} is not in the game");
        self.turns[seat] += 1;
        self.turn += 1;
        // seat (3 bits), cell (4), card (6), flip, call.
        let entry = match mv {
            Move::Place { card, cell } => seat | cell << 3 | usize::from(card) << 7,
            Move::Flip { cell, call } => {
                let card = self.grid.card(cell).map_or(0, usize::from);
                seat | cell << 3 | card << 7 | 1 << 13 | usize::from(call) << 14
            }
        };
        if usize::from(self.log_len) < MAX_LOG {
            self.log[usize::from(self.log_len)] = entry as u16;
            self.log_len += 1;
        }
        match mv {
            Move::Place { card, cell } => {
                self.place(seat, card, cell, obs, d);
                None
            }
            Move::Flip { cell, call } => self.flip(seat, cell, call, obs),
        }
    }

    #[inline]
    fn place<O: Observer<Table>, D: Draw>(&mut self, s: usize, card: Card, cell: usize, obs: &mut O, d: &mut D) {
        assert!(cell < CELLS, "seat {s} placed on cell {cell}");
        let bit = 1u64 << card;
        assert!(
            self.hands[s] & bit != 0,
            "seat {s} placed card {card}, which is not in the hand"
        );
        let cb = 1u16 << cell;
        self.placed_hand[cell] = self.held[s];
        self.held[s] -= 1;
        self.hands[s] &= !bit;
        self.in_hands -= 1;
        let covered = self.grid.place(cell, card);
        match covered {
            Cell::Empty => {}
            Cell::Down(c) => self.removed |= 1 << c,
            Cell::Up(c) => {
                self.removed |= 1 << c;
                self.up &= !cb;
                self.suit_up[suit(c)] &= !cb;
                self.up_code &= !(7 << (3 * cell));
            }
        }
        self.down |= cb;
        for m in &mut self.mem_cells {
            *m &= !cb;
        }
        let remembered = match self.rules.memory {
            MEMORY_ONE => true,
            0 => false,
            p => d.below(MEMORY_ONE) < p,
        };
        if remembered {
            self.mem_cells[s] |= cb;
            self.mem_cards[s] |= bit;
        }
        self.placer[cell] = s as u8;
        for m in &mut self.placed_by {
            *m &= !cb;
        }
        self.placed_by[s] |= cb;
        // Most cells are not hot: only then look at the suits.
        let demand = if pairs_complete(cell, self.up) {
            u8::from(pairs_complete(cell, self.suit_up[0]))
                | u8::from(pairs_complete(cell, self.suit_up[1])) << 1
                | u8::from(pairs_complete(cell, self.suit_up[2])) << 2
                | u8::from(pairs_complete(cell, self.suit_up[3])) << 3
        } else {
            0
        };
        let hot = demand != 0;
        self.placed_demand[cell] = demand;
        self.placed_hot = (self.placed_hot & !cb) | (u16::from(hot) << cell);
        if O::EVENTS {
            obs.event(
                self,
                Event::Place {
                    seat: s,
                    card,
                    cell,
                    covered,
                    remembered,
                },
            );
        }
    }

    #[inline]
    fn flip<O: Observer<Table>>(&mut self, s: usize, cell: usize, call: bool, obs: &mut O) -> Option<End> {
        assert!(
            cell < CELLS && self.down & (1 << cell) != 0,
            "seat {s} flipped cell {cell}, which holds no face-down card"
        );
        let cb = 1u16 << cell;
        let card = self.grid.flip(cell);
        let su = suit(card);
        self.down &= !cb;
        self.up |= cb;
        self.suit_up[su] |= cb;
        self.up_code |= (su as u32 + 1) << (3 * cell);
        self.shown |= 1 << card;
        for m in &mut self.mem_cells {
            *m &= !cb;
        }
        // Only a line through the flipped cell can have become a Flush, and
        // any Flush through it is new: the cell was face-down before.
        let flush = pairs_complete(cell, self.suit_up[su]);
        self.calls[s] += u16::from(call);
        if O::EVENTS {
            obs.event(
                self,
                Event::Flip {
                    seat: s,
                    cell,
                    card,
                    call,
                    flush,
                },
            );
        }
        match (call, flush) {
            (true, true) => Some(End::Call(s)),
            (false, false) => None,
            (true, false) => self.fault(s, Fault::WrongCall, obs),
            (false, true) => self.fault(s, Fault::MissedFlush, obs),
        }
    }

    #[cold]
    fn fault<O: Observer<Table>>(&mut self, s: usize, fault: Fault, obs: &mut O) -> Option<End> {
        match fault {
            Fault::WrongCall => self.wrong_calls[s] += 1,
            Fault::MissedFlush => self.missed[s] += 1,
        }
        if self.rules.gambling {
            self.pot += 1;
            self.paid[s] += 1;
            self.net[s] -= 1;
            if O::EVENTS {
                obs.event(self, Event::Pays { seat: s, fault });
            }
            return None;
        }
        self.alive &= !(1 << s);
        self.dropped |= self.hands[s];
        self.in_hands -= self.hands[s].count_ones();
        self.hands[s] = 0;
        self.held[s] = 0;
        if O::EVENTS {
            obs.event(self, Event::KnockedOut { seat: s, fault });
        }
        (self.alive.count_ones() == 1).then(|| End::LastStanding(self.alive.trailing_zeros() as usize))
    }

    // ----- What observers, tests and the trace may read (everything). -----

    /// The rules of this table.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Players at the table.
    #[inline]
    pub fn players(&self) -> usize {
        self.rules.players
    }

    /// The grid, face-down cards included.
    #[inline]
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// The hand of `seat`.
    #[inline]
    pub fn hand(&self, seat: usize) -> CardSet {
        self.hands[seat]
    }

    /// Whether `seat` is still in the game (always, gambling).
    #[inline]
    pub fn is_alive(&self, seat: usize) -> bool {
        self.alive & (1 << seat) != 0
    }

    /// Bit `s` set: seat `s` is still in the game.
    #[inline]
    pub fn alive_mask(&self) -> u8 {
        self.alive
    }

    /// The seat that placed the card on `cell`, if any.
    #[inline]
    pub fn placer(&self, cell: usize) -> Option<usize> {
        (self.placer[cell] != NOBODY).then_some(usize::from(self.placer[cell]))
    }

    /// Whether the card on `cell` was placed while the cell was hot (the
    /// other two cells of a line through it face-up and of one suit).
    #[inline]
    pub fn placed_hot(&self, cell: usize) -> bool {
        self.placed_hot & (1 << cell) != 0
    }

    /// Whether `seat` remembers the face-down card on `cell`.
    #[inline]
    pub fn remembers(&self, seat: usize, cell: usize) -> bool {
        self.mem_cells[seat] & (1 << cell) != 0
    }

    /// Every card that has been face-up this game.
    #[inline]
    pub fn shown(&self) -> CardSet {
        self.shown
    }

    /// Cards removed from the grid by a Place.
    #[inline]
    pub fn removed(&self) -> CardSet {
        self.removed
    }

    /// The pot (gambling): antes and stakes not yet won.
    #[inline]
    pub fn pot(&self) -> u32 {
        self.pot
    }

    /// Stakes `seat` has put into the pot since it was last won
    /// (gambling).
    #[inline]
    pub fn paid(&self, seat: usize) -> u32 {
        self.paid[seat]
    }

    /// Gives the pot back to those who paid into it since it was last won,
    /// each what they put in (a table that breaks up with a pot nobody
    /// won), and returns what each seat got back.
    pub fn return_pot(&mut self) -> [u32; MAX_PLAYERS] {
        let back = self.paid;
        self.paid = [0; MAX_PLAYERS];
        self.pot = 0;
        back
    }

    /// Stakes `seat` has won minus stakes paid this game (gambling).
    #[inline]
    pub fn net(&self, seat: usize) -> i32 {
        self.net[seat]
    }

    /// Turns `seat` has taken this game (Place, Flip or pass).
    #[inline]
    pub fn turns(&self, seat: usize) -> u32 {
        u32::from(self.turns[seat])
    }

    /// Flushes `seat` has called this game.
    #[inline]
    pub fn calls(&self, seat: usize) -> u32 {
        u32::from(self.calls[seat])
    }

    /// Wrong calls by `seat` this game.
    #[inline]
    pub fn wrong_calls(&self, seat: usize) -> u32 {
        u32::from(self.wrong_calls[seat])
    }

    /// Flushes `seat` made without calling this game.
    #[inline]
    pub fn missed_flushes(&self, seat: usize) -> u32 {
        u32::from(self.missed[seat])
    }

    /// Turns taken this game by all seats.
    #[inline]
    pub fn turn_count(&self) -> u32 {
        self.turn
    }

    /// Moves played this game (Places and Flips; passes are not logged).
    #[inline]
    pub fn log_len(&self) -> usize {
        usize::from(self.log_len)
    }

    /// Move `i` of this game, with its card whatever anybody saw.
    pub fn log_entry(&self, i: usize) -> Logged {
        let e = self.log[i];
        Logged {
            seat: usize::from(e & 7),
            cell: usize::from(e >> 3 & 15),
            flip: e >> 13 & 1 != 0,
            call: e >> 14 & 1 != 0,
            card: Some((e >> 7 & 63) as Card),
        }
    }

    /// A copy of this table in which the cards `seat` has not seen
    /// ([`View::unseen`]) are shuffled among the places that hold them
    /// (opponents' hands, the undealt rest, face-down cells `seat` does not
    /// know, cards removed unseen, knocked-out hands), every opponent's
    /// memory following its cards. Everything `seat` saw is unchanged, so
    /// a policy must decide the same in both (the information tests).
    pub fn redeal_hidden<D: Draw>(&self, seat: usize, d: &mut D) -> Table {
        let hidden = self.view(seat).unseen();
        let from: Vec<Card> = super::cards::cards_of(hidden).collect();
        let mut to = from.clone();
        for i in (1..to.len()).rev() {
            let j = d.below(i as u32 + 1) as usize;
            to.swap(i, j);
        }
        let mut perm: [Card; 64] = std::array::from_fn(|c| c as Card);
        for (&a, &b) in from.iter().zip(&to) {
            perm[usize::from(a)] = b;
        }
        self.relabel(&perm)
    }

    /// A copy of this table with every card `c` replaced by `perm[c]`
    /// wherever it lies (hands, face-down cells, memories, removed cards,
    /// knocked-out hands, the history, the undealt rest): `perm` moves only
    /// cards nobody in particular has seen ([`Table::redeal_hidden`],
    /// [`View::determinize`]).
    fn relabel(&self, perm: &[Card; 64]) -> Table {
        let map_set = |set: CardSet| super::cards::cards_of(set).fold(0u64, |m, c| m | 1 << perm[usize::from(c)]);
        let mut t = self.clone();
        for i in 0..CELLS {
            if let Cell::Down(c) = self.grid.cell(i) {
                t.grid.place(i, perm[usize::from(c)]);
            }
        }
        for s in 0..self.players() {
            t.hands[s] = map_set(self.hands[s]);
            t.mem_cards[s] = map_set(self.mem_cards[s]);
        }
        t.removed = map_set(self.removed);
        t.dropped = map_set(self.dropped);
        for e in &mut t.log[..usize::from(self.log_len)] {
            let card = usize::from(*e >> 7 & 63);
            *e = (*e & !(63 << 7)) | u16::from(perm[card]) << 7;
        }
        t.deck.map(|c| perm[usize::from(c)]);
        t
    }

    /// What `seat` knows: the view its chooser gets.
    pub fn view(&self, seat: usize) -> View<'_> {
        View { t: self, seat }
    }

    /// Checks that every card is in exactly one place (a hand, the grid,
    /// removed, a knocked-out hand or the undealt rest), that the caches
    /// agree with the grid, that memories are of the player's own face-down
    /// cards, and that the stakes add up.
    pub fn check_invariants(&self) -> Result<(), String> {
        let n = self.players();
        let mut on_grid: CardSet = 0;
        for i in 0..CELLS {
            if let Some(c) = self.grid.card(i) {
                on_grid |= 1 << c;
                if self.placer(i).is_none_or(|p| p >= n) {
                    return Err(format!("cell {i} holds a card but no placer"));
                }
            } else if self.placer(i).is_some() {
                return Err(format!("empty cell {i} has a placer"));
            }
            for s in 0..n {
                if (self.placed_by[s] >> i & 1 != 0) != (self.placer(i) == Some(s)) {
                    return Err(format!("cell {i}: placed-by masks disagree with the placer"));
                }
            }
        }
        let parts = [
            ("the grid", on_grid),
            ("removed", self.removed),
            ("knocked-out hands", self.dropped),
            ("the undealt rest", self.deck.remaining()),
        ]
        .into_iter()
        .chain((0..n).map(|s| ("a hand", self.hands[s])));
        let mut seen: CardSet = 0;
        for (what, set) in parts {
            if seen & set != 0 {
                return Err(format!("a card in {what} is also somewhere else"));
            }
            seen |= set;
        }
        if seen != ALL {
            return Err(format!("{} cards are nowhere", (ALL & !seen).count_ones()));
        }
        let (up, down) = self.grid.masks();
        if (up, down) != (self.up, self.down) {
            return Err(format!(
                "face-up/down caches {:09b}/{:09b} but the grid has {up:09b}/{down:09b}",
                self.up, self.down
            ));
        }
        for (su, &m) in self.suit_up.iter().enumerate() {
            let want = (0..CELLS)
                .filter(|&i| matches!(self.grid.cell(i), Cell::Up(c) if suit(c) == su))
                .fold(0u16, |m, i| m | 1 << i);
            if m != want {
                return Err(format!("suit {su} face-up cache {m:09b}, grid {want:09b}"));
            }
        }
        let code = (0..CELLS).fold(0u32, |code, i| match self.grid.cell(i) {
            Cell::Up(c) => code | (suit(c) as u32 + 1) << (3 * i),
            _ => code,
        });
        if code != self.up_code {
            return Err(format!("face-up suit codes {:o}, grid {code:o}", self.up_code));
        }
        for s in 0..n {
            if self.mem_cells[s] & !self.down != 0 {
                return Err(format!("seat {s} remembers a cell that is not face-down"));
            }
            for i in 0..CELLS {
                if self.remembers(s, i) {
                    let c = self.grid.card(i).expect("face-down");
                    if self.placer(i) != Some(s) || self.mem_cards[s] & (1 << c) == 0 {
                        return Err(format!("seat {s} remembers cell {i}, which it did not place"));
                    }
                }
            }
            if u32::from(self.held[s]) != self.hands[s].count_ones() {
                return Err(format!("seat {s} holds {} cards but {} are counted", self.hands[s].count_ones(), self.held[s]));
            }
            if !self.is_alive(s) && self.hands[s] != 0 {
                return Err(format!("knocked-out seat {s} still holds cards"));
            }
        }
        let held: u32 = self.hands[..n].iter().map(|h| h.count_ones()).sum();
        if held != self.in_hands {
            return Err(format!("{} cards in hands but {} counted", held, self.in_hands));
        }
        let paid: u32 = self.paid[..n].iter().sum();
        if paid != self.pot {
            return Err(format!("stakes paid since the pot was last won {paid} != pot {}", self.pot));
        }
        let net: i64 = self.net[..n].iter().map(|&x| i64::from(x)).sum();
        if net + i64::from(self.pot) != i64::from(self.pot_at_start) {
            return Err(format!(
                "stakes: net {net} + pot {} != pot {} at the start",
                self.pot, self.pot_at_start
            ));
        }
        Ok(())
    }
}

/// What one player knows, and nothing more: every face-up card, every
/// public action (who placed a card on each cell), their own hand, and the
/// cards they placed and remember. Policies see the table only through this.
#[derive(Clone, Copy)]
pub struct View<'a> {
    t: &'a Table,
    seat: usize,
}

impl View<'_> {
    /// The player.
    #[inline]
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// Players at the table.
    #[inline]
    pub fn players(&self) -> usize {
        self.t.players()
    }

    /// Bit `s` set: seat `s` is still in the game.
    #[inline]
    pub fn alive_mask(&self) -> u8 {
        self.t.alive
    }

    /// Whether this is the gambling variant.
    #[inline]
    pub fn gambling(&self) -> bool {
        self.t.rules.gambling
    }

    /// The pot (gambling).
    #[inline]
    pub fn pot(&self) -> u32 {
        self.t.pot
    }

    /// The player's hand.
    #[inline(always)]
    pub fn hand(&self) -> CardSet {
        self.t.hands[self.seat]
    }

    /// Cell mask of the face-up cards.
    #[inline(always)]
    pub fn up(&self) -> u16 {
        self.t.up
    }

    /// Cell mask of the face-down cards.
    #[inline(always)]
    pub fn down(&self) -> u16 {
        self.t.down
    }

    /// Cell mask of the empty cells.
    #[inline(always)]
    pub fn empty(&self) -> u16 {
        super::cards::ALL_CELLS & !(self.t.up | self.t.down)
    }

    /// Cell mask of the face-up cards of suit `s`.
    #[inline(always)]
    pub fn suit_up(&self, s: usize) -> u16 {
        self.t.suit_up[s]
    }

    /// Three bits per cell (cell `i` at bits `3i..3i+3`): 0 unless the cell
    /// holds a face-up card, else 1 + its suit.
    #[inline(always)]
    pub fn up_code(&self) -> u32 {
        self.t.up_code
    }

    /// The face-up card on `cell`, if any.
    #[inline]
    pub fn face_up(&self, cell: usize) -> Option<Card> {
        match self.t.grid.cell(cell) {
            Cell::Up(c) => Some(c),
            _ => None,
        }
    }

    /// Who placed the card on `cell` (public), if it holds one.
    #[inline]
    pub fn placer(&self, cell: usize) -> Option<usize> {
        self.t.placer(cell)
    }

    /// Cell mask of the cards `seat` placed that are still on the grid
    /// (public).
    #[inline(always)]
    pub fn placed_by(&self, seat: usize) -> u16 {
        self.t.placed_by[seat]
    }

    /// Cell mask of the cards placed while their cell was hot (public):
    /// see [`Table::placed_hot`].
    #[inline(always)]
    pub fn placed_hot(&self) -> u16 {
        self.t.placed_hot
    }

    /// The suits (bit mask) that would have completed a line through
    /// `cell` when its card was placed; 0 when the cell was not hot then
    /// (public history).
    #[inline(always)]
    pub fn placed_demand(&self, cell: usize) -> u8 {
        self.t.placed_demand[cell]
    }

    /// How many cards the placer of `cell`'s card held just before placing
    /// it (public: every Place is seen).
    #[inline(always)]
    pub fn placed_hand(&self, cell: usize) -> u32 {
        u32::from(self.t.placed_hand[cell])
    }

    /// The chance, in millionths, that a player remembers a card they
    /// place (the table's `--memory`, a public rule).
    #[inline(always)]
    pub fn memory(&self) -> u32 {
        self.t.rules.memory
    }

    /// Moves played this game (Places and Flips, in order).
    #[inline(always)]
    pub fn history_len(&self) -> usize {
        self.t.log_len()
    }

    /// Move `i` of this game as this player saw it: who, where, Place or
    /// Flip, called or not, and the card only if the player saw it (a
    /// flipped card; a placed card that was flipped later, or that this
    /// player placed and remembers).
    #[inline]
    pub fn history(&self, i: usize) -> Logged {
        let mut e = self.t.log_entry(i);
        if let Some(c) = e.card {
            let bit = 1u64 << c;
            let seen = e.flip || self.t.shown & bit != 0 || (e.seat == self.seat && self.t.mem_cards[self.seat] & bit != 0);
            if !seen {
                e.card = None;
            }
        }
        e
    }

    /// How many cards `seat` holds now (public).
    #[inline(always)]
    pub fn hand_len(&self, seat: usize) -> u32 {
        u32::from(self.t.held[seat])
    }

    /// Cell mask of the face-down cards this player remembers.
    #[inline(always)]
    pub fn known(&self) -> u16 {
        self.t.mem_cells[self.seat]
    }

    /// The face-down card on `cell`, if this player placed and remembers it.
    #[inline(always)]
    pub fn known_card(&self, cell: usize) -> Option<Card> {
        if self.known() & (1 << cell) != 0 {
            self.t.grid.card(cell)
        } else {
            None
        }
    }

    /// The cards this player has not seen: not in the hand, never face-up,
    /// not placed by this player and remembered. Every face-down card the
    /// player does not know is one of them, each equally likely.
    #[inline(always)]
    pub fn unseen(&self) -> CardSet {
        ALL & !(self.hand() | self.t.shown | self.t.mem_cards[self.seat])
    }

    /// Unseen cards of each suit.
    #[inline(always)]
    pub fn unseen_by_suit(&self) -> [u32; SUITS] {
        let u = self.unseen();
        std::array::from_fn(|s| (u & suit_set(s)).count_ones())
    }

    /// A full table consistent with this view (a determinization, for the
    /// search `ismcts:N`), built from what this player knows and the world
    /// given, never from the cards it has not seen: `places[i]` is the card
    /// of the game's Place number `i` (in the order of the history; read
    /// only for the Places whose card this player did not see), `hands[s]`
    /// the hand of every other seat now (a knocked-out seat: the hand it
    /// dropped); the unseen cards left over are the undealt rest. Each
    /// card of the world must be one this player has not seen. With a
    /// `--memory` strictly between 0 and 1, which of their Places the other
    /// players remember is drawn anew from `d` (with full or no memory it
    /// is public). It is this player's turn in the copy.
    pub fn determinize<D: Draw>(&self, places: &[Card], hands: &[CardSet], d: &mut D) -> Table {
        let t = self.t;
        let unseen = self.unseen();
        let mut perm: [Card; 64] = std::array::from_fn(|c| c as Card);
        let mut pair = |from: CardSet, to: CardSet| {
            debug_assert_eq!(from.count_ones(), to.count_ones(), "a world slot of the wrong size");
            for (a, b) in super::cards::cards_of(from).zip(super::cards::cards_of(to)) {
                perm[usize::from(a)] = b;
            }
        };
        let mut used: CardSet = 0;
        let mut place = 0;
        for i in 0..t.log_len() {
            let e = t.log_entry(i);
            if e.flip {
                continue;
            }
            let c = e.card.expect("the log holds every card");
            if unseen >> c & 1 != 0 {
                debug_assert!(unseen >> places[place] & 1 != 0, "a world card the player has seen");
                pair(1 << c, 1 << places[place]);
                used |= 1 << places[place];
            }
            place += 1;
        }
        let mut dropped: CardSet = 0;
        for (s, &h) in hands.iter().enumerate().take(t.players()) {
            if s == self.seat {
                continue;
            }
            if t.is_alive(s) {
                pair(t.hands[s], h);
            } else {
                dropped |= h;
            }
            used |= h;
        }
        pair(t.dropped, dropped);
        pair(t.deck.remaining(), unseen & !used);
        let mut w = t.relabel(&perm);
        w.next = self.seat;
        let p = t.rules.memory;
        if p != 0 && p != MEMORY_ONE {
            let mut last = 0u16;
            for s in 0..t.players() {
                if s != self.seat {
                    w.mem_cards[s] = 0;
                }
            }
            for i in 0..w.log_len() {
                let e = w.log_entry(i);
                if e.flip || e.seat == self.seat {
                    continue;
                }
                let kept = d.below(MEMORY_ONE) < p;
                last = (last & !(1 << e.cell)) | u16::from(kept) << e.cell;
                if kept {
                    w.mem_cards[e.seat] |= 1 << e.card.expect("the log holds every card");
                }
            }
            for s in 0..t.players() {
                if s != self.seat {
                    w.mem_cells[s] = w.placed_by[s] & w.down & last;
                }
            }
        }
        w
    }
}
