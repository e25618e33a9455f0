//! `sim`: a Monte Carlo strategy simulator for the Flip family of card games.
//!
//! The [`engine`] runs any [`engine::runner::Simulation`] in parallel,
//! reproducibly; each game in [`games`] plugs into it.

pub mod cli;
pub mod engine;
pub mod games;
pub mod report;
pub mod tournament;
