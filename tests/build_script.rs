//! `build.rs` must not make the next build start over: on a fresh clone,
//! `cargo build --release` then `cargo run --release -- ...` compiles
//! nothing the second time. Cargo reruns the build script (and rebuilds
//! `sim`) when a file it watches changes, and it watches `.git/index`; a
//! plain `git status` rewrites that file in a fresh clone. The test runs
//! this build's own build script in a fresh clone of the checkout and
//! checks that every file it watches is left as it was.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

/// The newest compiled build script of `sim` beside this test binary
/// (`target/<profile>/build/sim-*/build-script-build`).
fn build_script() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let profile_dir = exe.parent()?.parent()?;
    std::fs::read_dir(profile_dir.join("build"))
        .ok()?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("sim-"))
        .map(|e| e.path().join("build-script-build"))
        .filter(|p| p.is_file())
        .max_by_key(|p| p.metadata().and_then(|m| m.modified()).ok())
}

fn git(args: &[&str], dir: &Path) -> Option<String> {
    let o = Command::new("git").args(args).current_dir(dir).output().ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

/// Bytes and modification time of a file.
fn snapshot(p: &Path) -> (Vec<u8>, SystemTime) {
    (
        std::fs::read(p).unwrap(),
        p.metadata().unwrap().modified().unwrap(),
    )
}

#[test]
fn build_script_in_a_fresh_clone_changes_no_file_it_watches() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if git(&["rev-parse", "HEAD"], root).is_none() {
        eprintln!("skipped: not a git checkout");
        return;
    }
    let script = build_script().expect("the compiled build script of sim");
    let tmp = tempfile::tempdir().unwrap();
    let clone = tmp.path().join("clone");
    git(
        &[
            "clone",
            "--quiet",
            root.to_str().unwrap(),
            clone.to_str().unwrap(),
        ],
        tmp.path(),
    )
    .expect("git clone of the checkout");
    let head = git(&["rev-parse", "--short=12", "HEAD"], &clone).unwrap();
    let out_dir = tmp.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let run = || {
        let o = Command::new(&script)
            .env("CARGO_MANIFEST_DIR", &clone)
            .env("OUT_DIR", &out_dir)
            .current_dir(&clone)
            .output()
            .expect("run the build script");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let watched_before = |text: &str| -> Vec<(PathBuf, (Vec<u8>, SystemTime))> {
        text.lines()
            .filter_map(|l| l.strip_prefix("cargo:rerun-if-changed="))
            .map(|p| clone.join(p))
            .filter(|p| p.is_file())
            .map(|p| {
                let s = snapshot(&p);
                (p, s)
            })
            .collect()
    };
    let index = clone.join(".git/index");
    let index_before = snapshot(&index);
    let first = run();
    assert!(
        first.contains(&format!("cargo:rustc-env=SIM_COMMIT={head}\n")),
        "a clean clone is built as commit {head}, not modified:\n{first}"
    );
    assert!(first.contains("cargo:rerun-if-changed=.git/index"), "{first}");
    assert_eq!(snapshot(&index), index_before, ".git/index was rewritten");
    let watched = watched_before(&first);
    assert!(!watched.is_empty(), "{first}");
    let second = run();
    assert_eq!(first, second, "a second run of the build script says the same");
    for (path, before) in watched {
        assert_eq!(snapshot(&path), before, "{} changed", path.display());
    }
}
