//! Builds the shipped strategy files into the binary: every
//! `strategies/*.toml` becomes one entry of a static table
//! `BUILT_IN: &[(&str, &str)]` (file name, contents), written to
//! `$OUT_DIR/built_in_strategies.rs` and included by
//! `src/engine/strategies.rs`, so an installed `sim` finds them from any
//! folder.

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    commit(&root);
    let folder = root.join("strategies");
    println!("cargo:rerun-if-changed=strategies");
    let mut files: Vec<(String, PathBuf)> = match std::fs::read_dir(&folder) {
        Ok(entries) => entries
            .map(|e| e.expect("reading strategies/"))
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                let path = e.path();
                (name.ends_with(".toml") && path.is_file()).then_some((name, path))
            })
            .collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    let mut code = String::from(
        "/// The shipped strategy files (`strategies/*.toml`): file name and contents.\n\
         pub static BUILT_IN: &[(&str, &str)] = &[\n",
    );
    for (name, path) in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let path = path.to_str().expect("strategy file paths are UTF-8");
        let _ = writeln!(code, "    ({name:?}, include_str!({path:?})),");
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    std::fs::write(out.join("built_in_strategies.rs"), code).expect("writing built_in_strategies.rs");
}

/// Sets `SIM_COMMIT` for `sim --version`: the commit built, with
/// `-modified` when tracked files differ from it, or `unknown` outside a
/// git checkout (a packaged crate).
fn commit(root: &std::path::Path) {
    // Read-only queries: a plain `git status` refreshes and rewrites
    // `.git/index` (in a fresh clone it always does), and the index is
    // watched below, so the next `cargo run` would build everything again.
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("--no-optional-locks")
            .args(args)
            .current_dir(root)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let commit = match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(hash) => {
            let modified =
                git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
            if modified {
                format!("{hash}-modified")
            } else {
                hash
            }
        }
        None => "unknown".to_string(),
    };
    println!("cargo:rustc-env=SIM_COMMIT={commit}");
    // Look again when the checkout moves or its files change (only paths
    // that exist: a missing one would rerun this script on every build).
    for watched in [".git/HEAD", ".git/index", ".git/refs/heads"] {
        if root.join(watched).exists() {
            println!("cargo:rerun-if-changed={watched}");
        }
    }
}
