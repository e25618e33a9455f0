//! The games. Each lives in a folder of the same shape: `cards`, `rules`,
//! `policies`, `stats`, `trace` and a `mod.rs` that plugs it into the engine.

pub mod flip7;
pub mod flip_flush;
