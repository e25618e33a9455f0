//! Every integration test, in one test crate: one binary to build and link
//! (a test binary per file cost a full link each). Each module is one
//! subject; `cargo test --release --test integration MODULE::` runs one.

mod common;

mod build_script;
mod classic_flip_advise;
mod classic_flip_cli;
mod classic_flip_policies;
mod classic_flip_rules;
mod clear_answers;
mod cli;
mod console;
mod docs;
mod flip7_advise;
mod flip7_game_solve;
mod flip7_invariants;
mod flip7_max_win;
mod flip7_optimal;
mod flip7_play;
mod flip7_policies;
mod flip7_rules;
mod flip7_stats;
mod flip7_variants;
mod flip_flush_advise;
mod flip_flush_cli;
mod flip_flush_rules;
mod games;
mod ib_flip_advise;
mod ib_flip_cli;
mod ib_flip_play;
mod ib_flip_policies;
mod ib_flip_rules;
mod intervals;
mod ismcts;
mod ismcts_classic_flip;
mod ismcts_flip_flush;
mod ismcts_ib_flip;
mod layers;
mod library;
mod message_edges;
mod parsers_prop;
mod provenance;
mod regressions;
mod replay_classic_flip;
mod replay_ib_flip;
mod report;
mod shards;
mod slurm;
mod state_edges;
mod stopping;
mod sweep;
mod tournament;
mod trace_json;
mod tune;
mod tune_edges;
