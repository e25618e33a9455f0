//! Game-agnostic Monte Carlo machinery: random streams, the parallel runner,
//! interval estimates, argument parsing helpers and safe output files.

pub mod args;
pub mod output;
pub mod rng;
pub mod runner;
pub mod stats;
pub mod strategies;
