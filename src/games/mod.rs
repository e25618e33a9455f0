//! The games, and the registry: the one list of them.
//!
//! Each game lives in a folder of the same shape (`cards`, `rules`,
//! `policies`, `stats`, `trace` and a `mod.rs` that implements
//! [`Game`](crate::engine::game::Game)). Adding a game is its folder and
//! one line in the list below: `sim GAME`, `sim tournament GAME`,
//! `sim sweep GAME`, `--list-policies` and the tests that loop over every
//! game then include it.

use crate::engine::game::Visitor;

/// Declares each game's module and calls the visitor with each game, in
/// the order the help lists them.
macro_rules! registry {
    ($($module:ident :: $game:ident),+ $(,)?) => {
        $(pub mod $module;)+

        /// Calls `v` once with every game.
        pub fn each(v: &mut impl Visitor) {
            $(v.visit::<$module::$game>();)+
        }
    };
}

registry! {
    flip7::Flip7,
    flip_flush::FlipFlush,
    ib_flip::IbFlip,
    classic_flip::ClassicFlip,
}
