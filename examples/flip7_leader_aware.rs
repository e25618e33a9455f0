//! Flip 7 with a policy of your own: `leader-aware:N` stays at 25 points,
//! but presses on to 35 once an opponent has N points or more (the game
//! ends at 200, so a leader that close must be caught this round).
//!
//! Every `sim` command takes it by name, e.g.
//! `cargo run --release --example flip7_leader_aware -- flip7 --policy leader-aware:170`
//! or a tournament against the shipped strategies:
//! `... -- tournament flip7 --policies leader-aware:170,stay-at-25,endgame`.

use sim::prelude::*;

fn main() -> std::process::ExitCode {
    Builder::new()
        .policy::<Flip7, _>(
            "leader-aware:N",
            "stay-at-25, but stay-at-35 once an opponent has N points or more",
            |p| {
                let n = p.whole("N", 0..=200)?;
                Ok(move |v: &Flip7View| {
                    let at = if v.leader_total() >= n { 35 } else { 25 };
                    v.banked() < at
                })
            },
        )
        .run()
}
