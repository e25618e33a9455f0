//! `sim`: a Monte Carlo strategy simulator for the Flip family of card games.
//!
//! Arrows point down only: [`cli`] builds the command line from the
//! registry in [`games`] and dispatches to [`engine::run`] and
//! [`tournament`]; each game implements [`engine::game::Game`] and uses
//! the [`engine`], which names no game.

pub mod cli;
pub mod engine;
pub mod games;
pub mod report;
pub mod tournament;
