//! The built-in `stay-at-N` of Flip 7, written again as a user policy:
//! `user-stay-at:N` plays exactly the same games (the tests check it), so
//! comparing the two measures what a policy in code costs (see
//! docs/custom-policies.md, "Speed").
//!
//! `cargo run --release --example flip7_stay_at_in_code -- flip7 --policy user-stay-at:25`

use sim::prelude::*;

fn main() -> std::process::ExitCode {
    Builder::new()
        .policy::<Flip7, _>("user-stay-at:N", "stay-at-N, written in code", |p| {
            let n = p.whole("N", 0..=1000)?;
            Ok(move |v: &Flip7View| v.banked() < n)
        })
        .run()
}
