//! The studies: what each command plays and concludes, for any game.
//!
//! A game takes part through [`crate::engine::game::Game`]: it builds a
//! simulation from a line-up of policies (one per seat) and reads each
//! seat's results out of that simulation's accumulator as a
//! [`crate::engine::game::SeatResult`]. Each study reads its options,
//! plans its batches, plays them through the engine, analyses them with
//! [`crate::analysis`] and hands its results to the pages of
//! [`crate::report`], which the command line calls next.
//!
//! - [`run`]: `sim GAME`, the plain run every game shares.
//! - [`advise`]: `sim advise GAME`, the moves of one position compared.
//! - [`args`]: the options of `sim tournament GAME` and `sim sweep GAME`.
//! - [`arrange`]: which entrant sits in which seat, for every arrangement.
//! - [`play`]: plays every arrangement on the same deals, batch by batch.
//! - [`tournament`]: a tournament from its options to its files.
//! - [`expand`]: `{a..b}` and `{x,y}` expansion of a policy spec.
//! - [`sweep`]: a sweep from its options to its files.
//! - [`tune`]: `sim tune GAME`, a race for the best policy of a family.
//! - [`versus`]: `sim play GAME`, a person against the bots.
//! - [`study`]: `study.json` beside a study's CSVs, read back into the
//!   analysis it was written from.
//! - [`files`]: a study's output folder.

pub mod advise;
pub mod args;
pub mod arrange;
pub mod expand;
pub mod files;
pub mod play;
pub mod run;
pub mod study;
pub mod sweep;
pub mod tournament;
pub mod tune;
pub mod versus;
