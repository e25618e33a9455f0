//! Flip-Flush with a call rule of your own: `call-when-out:P/Q` calls a
//! Flush when the chance of one is at least P, but at least Q once its
//! hand is empty (it must then flip every turn, so it may as well dare).
//!
//! It is a call rule: the policy's other parts are the default's, or
//! given beside it (`call-when-out:0.5/0.3+flip-safe+place-build`).
//! `cargo run --release --example flip_flush_call_when_out -- flip-flush --policy call-when-out:0.5/0.3`

use sim::prelude::*;

fn main() -> std::process::ExitCode {
    Builder::new()
        .policy::<FlipFlush, _>(
            "call-when-out:P/Q",
            "call-at:P, or call-at:Q once its own hand is empty",
            |p| {
                let holding = p.number("P", 0.0..=1.0)?;
                let out = p.number("Q", 0.0..=1.0)?;
                Ok(move |v: &FlipFlushView, chance: f64| {
                    chance >= if v.my_hand_size() == 0 { out } else { holding }
                })
            },
        )
        .run()
}
