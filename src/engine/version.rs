//! Which `sim` wrote a result: the package version and the commit it was
//! built from, as `sim --version` shows them. Every CSV of a run, its
//! JSON summary, its JSON trace, its workbook and its state files carry
//! it, so that results joined from several runs keep it.

/// `0.1.0 (commit 565fe3d01234)`: the version of the package and the
/// commit built (`-modified` when tracked files differed from it,
/// `unknown` outside a git checkout).
pub const SIM_VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("SIM_COMMIT"), ")");
