//! Classic Flip with a challenge rule of your own: `doubter:P` challenges
//! a player over the seven-card limit when, from every card it has seen,
//! the chance that they hold a 7>>>10 or Any (the cards that allow the
//! hand) is below P, i.e. when they are likely bluffing.
//!
//! It is one part of a spec: `doubter:0.4` plays `collector` with it,
//! `caller:40+doubter:0.4` adds a call rule.
//! `cargo run --release --example classic_flip_doubter -- classic-flip --policy doubter:0.4`

use sim::prelude::*;

fn main() -> std::process::ExitCode {
    Builder::new()
        .policy::<ClassicFlip, _>(
            "doubter:P",
            "challenge a player over the limit whose chance of holding 7>>>10 or Any is below P",
            |p| {
                let below = p.number("P", 0.0..=1.0)?;
                Ok(move |v: &ClassicFlipView, suspect: usize| v.chance_allowed(suspect) < below)
            },
        )
        .run()
}
