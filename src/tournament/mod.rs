//! Tournaments and sweeps for any game: the game-agnostic part.
//!
//! A game takes part through [`crate::engine::game::Game`]: it builds a
//! simulation from a line-up of policies (one per seat) and reads each
//! seat's results out of that simulation's accumulator as a
//! [`crate::engine::game::SeatResult`]. Everything else (seat
//! arrangements, common random numbers, standings, head-to-head tables,
//! ratings, significance, sweeps, CSV, charts and workbooks) lives here and
//! in [`crate::report`].
//!
//! - [`args`]: the options of `sim tournament GAME` and `sim sweep GAME`.
//! - [`arrange`]: which entrant sits in which seat, for every arrangement.
//! - [`play`]: plays every arrangement on the same deals, batch by batch.
//! - [`analysis`]: standings, pairwise table, Bradley-Terry ratings,
//!   significance and the variance saved by common random numbers.
//! - [`run`]: a tournament from its options to its files.
//! - [`console`]: the standings and head-to-head table as text.
//! - [`expand`]: `{a..b}` and `{x,y}` expansion of a policy spec.
//! - [`sweep`]: a sweep from its options to its files.
//! - [`tune`]: `sim tune GAME`, a race for the best policy of a family.
//! - [`tune_page`]: the `report.html` page of `sim tune`.
//! - [`page`]: the charts and `report.html` of a tournament or sweep.
//! - [`study`]: `study.json` beside a study's CSVs, and `sim report DIR`,
//!   which rebuilds the page and charts from those files.
//! - [`files`], [`workbook`]: the output files and the spreadsheet.

pub mod analysis;
pub mod args;
pub mod arrange;
pub mod console;
pub mod expand;
pub mod files;
pub mod page;
pub mod play;
pub mod run;
pub mod study;
pub mod sweep;
pub mod tune;
pub mod tune_page;
pub mod workbook;
