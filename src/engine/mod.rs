//! Game-agnostic Monte Carlo machinery; it names no game.
//!
//! - [`game`]: the [`game::Game`] trait every game implements, and the
//!   registry's [`game::Visitor`].
//! - [`show`]: how a command shows its summary, and the words it uses.
//! - [`runner`]: fixed batches, one random stream per batch, threads.
//! - [`observe`]: observers of a game and the trace writer.
//! - [`custom`]: policies written as code by a user of the library.
//! - [`ismcts`]: information-set Monte Carlo tree search over any game
//!   that describes its decisions ([`ismcts::Search`]).
//! - [`advise`]: the moves of one position played out and compared
//!   ([`advise::Position`]), for `sim advise`.
//! - [`failure`]: why a command failed, and its exit code.
//! - [`exhibit`]: a game command's files and maps, for its page.
//! - [`matrix_game`]: zero-sum matrix games solved exactly (simplex).
//! - [`design`]: standard errors over independent units (games, deals).
//! - [`columns`]: the per-seat CSV's shared columns and CSV bytes.
//! - [`table`]: console tables sized to their content.
//! - [`version`]: which `sim` wrote a result.
//! - [`rng`], [`stats`], [`args`], [`output`], [`strategies`], [`bits`]:
//!   random streams, intervals, value parsers, safe output files, strategy
//!   files, bit sets.

pub mod advise;
pub mod args;
pub mod bits;
pub mod columns;
pub mod console;
pub mod custom;
pub mod design;
pub mod exhibit;
pub mod failure;
pub mod game;
pub mod ismcts;
pub mod job;
pub mod matrix_game;
pub mod observe;
pub mod output;
pub mod rng;
pub mod runner;
pub mod show;
pub mod state;
pub mod stats;
pub mod strategies;
pub mod table;
pub mod version;
