//! `sim`: a Monte Carlo strategy simulator for the Flip family of card games.
//!
//! Arrows point down only, through five floors: the [`engine`] (the game
//! interface, runner, random streams, statistics, state and output files),
//! the [`analysis`] (what the figures say), the [`studies`] (plain run,
//! tournament, sweep, tune), the [`report`]s (pages, charts, workbooks)
//! and the command line ([`cli`]), built from the registry in [`games`].
//! Each game implements [`engine::game::Game`] and uses the engine, which
//! names no game; docs/development.md draws the floors.
//!
//! # Your own policy in code
//!
//! A program that depends on this crate can add policies written in Rust
//! to every command of `sim`, by name, with [`cli::Builder`]; the
//! [`prelude`] holds what such a program needs. Each game's view of what
//! its player may know is its `PlayerView` (in the prelude as
//! [`prelude::Flip7View`] and so on). See `docs/custom-policies.md` and the
//! programs in `examples/`.

pub mod analysis;
pub mod cli;
pub mod engine;
pub mod games;
pub mod report;
pub mod studies;

/// What a program with policies of its own needs: the [`cli::Builder`],
/// the [`engine::custom::Params`] of a spec, each game and its view.
///
/// ```no_run
/// use sim::prelude::*;
///
/// fn main() -> std::process::ExitCode {
///     Builder::new()
///         .policy::<Flip7, _>("stay-below:N", "stay once the cards in front are worth N", |p| {
///             let n = p.whole("N", 0..=400)?;
///             Ok(move |v: &Flip7View| v.banked() < n)
///         })
///         .run()
/// }
/// ```
pub mod prelude {
    pub use crate::cli::Builder;
    pub use crate::engine::custom::Params;
    pub use crate::games::classic_flip::ClassicFlip;
    pub use crate::games::classic_flip::policies::PlayerView as ClassicFlipView;
    pub use crate::games::flip_flush::FlipFlush;
    pub use crate::games::flip_flush::policies::PlayerView as FlipFlushView;
    pub use crate::games::flip7::Flip7;
    pub use crate::games::flip7::policies::PlayerView as Flip7View;
    pub use crate::games::ib_flip::IbFlip;
    pub use crate::games::ib_flip::policies::PlayerView as IbFlipView;
}
