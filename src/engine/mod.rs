//! Game-agnostic Monte Carlo machinery: random streams, the parallel runner,
//! interval estimates, argument parsing helpers, safe output files and bit
//! sets.

pub mod args;
pub mod bits;
pub mod output;
pub mod rng;
pub mod runner;
pub mod stats;
pub mod strategies;
