//! The Slurm recipe of `scripts/slurm/` on a real Slurm: the test runs
//! `scripts/slurm/test-local-cluster.sh` with this build of `sim`. The
//! script brings up a one-node cluster on localhost (installing Debian's
//! Slurm and munge if missing), runs a sharded run and a sharded
//! tournament as job arrays with their merge jobs, checks the merged files
//! against one process, checks that a failed shard cancels its merge, and
//! stops its daemons.
//!
//! It needs Slurm installed, or root and `apt-get` to install it (as on
//! CI); on a machine with neither it says so and checks nothing else.
//! Because it may install packages and start daemons, it runs only when
//! asked: `cargo test --release -- --ignored slurm` (`.ci/run` asks).

use std::process::Command;

fn have(cmd: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {cmd} >/dev/null")])
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
#[ignore = "installs and starts Slurm; run it with: cargo test --release -- --ignored slurm"]
fn slurm_job_arrays_and_their_merge_write_the_bytes_of_one_process() {
    let installed = ["slurmctld", "slurmd", "sbatch", "munged"]
        .iter()
        .all(|c| have(c));
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"));
    if !(installed || root && have("apt-get")) {
        eprintln!("skipped: Slurm is not installed and cannot be (needs root and apt-get)");
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/slurm/test-local-cluster.sh");
    let out = Command::new("bash")
        .args([script, env!("CARGO_BIN_EXE_sim")])
        .output()
        .expect("run the cluster script");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    assert!(text.contains("all checks passed"), "{text}");
    assert_eq!(text.matches("\nok   ").count(), 6, "{text}");
}
