//! IB-Flip with a burn rule of your own: `saver+burn-to-stop:T` plays
//! `saver` and burns the pile (one 10, or completing a set) once it holds
//! T cards, or at once when the next player is about to go out (two cards
//! or fewer left), to take the pile's cards out of their reach.
//!
//! `cargo run --release --example ib_flip_burn_to_stop -- ib-flip --policy saver+burn-to-stop:8`

use sim::prelude::*;

fn main() -> std::process::ExitCode {
    Builder::new()
        .policy::<IbFlip, _>(
            "burn-to-stop:T",
            "with saver: burn at T cards, or when the next player has two cards or fewer left",
            |p| {
                let t = p.whole("T", 1..=52)?;
                Ok(move |v: &IbFlipView| v.pile_size() >= t || v.cards_left(v.next()) <= 2)
            },
        )
        .run()
}
