//! `sim sweep`: one row per value with the columns of a normal run,
//! reproducible files, and bad specs refused.

use crate::common;
use common::*;

#[test]
fn rows_are_the_normal_runs_seat_zero_rows() {
    let dir = tempfile::tempdir().unwrap();
    let text = ok(&sim(
        &[
            "sweep",
            "flip7",
            "--policy",
            "stay-at-{20..30..5}",
            "--players",
            "3",
            "--games",
            "3000",
            "--seed",
            "8",
            "--out",
            "s",
            "--xlsx",
            "s.xlsx",
        ],
        dir.path(),
    ));
    assert!(text.contains("3 values"), "{text}");
    let sweep = std::fs::read_to_string(dir.path().join("s/sweep.csv")).unwrap();
    let lines: Vec<&str> = sweep.lines().collect();
    assert_eq!(lines.len(), 4);
    for (k, value) in ["20", "25", "30"].iter().enumerate() {
        // The field: the default, stay-at-28.
        let spec = format!("stay-at-{value},stay-at-28,stay-at-28");
        let csv = format!("run{value}.csv");
        ok(&sim(
            &[
                "flip7",
                "--policy",
                &spec,
                "--players",
                "3",
                "--games",
                "3000",
                "--seed",
                "8",
                "--out",
                &csv,
            ],
            dir.path(),
        ));
        let run = std::fs::read_to_string(dir.path().join(&csv)).unwrap();
        let run: Vec<&str> = run.lines().collect();
        assert_eq!(lines[0], format!("parameter,value,{}", run[0]));
        assert_eq!(lines[k + 1], format!("stay-at-{{20..30..5}},{value},{}", run[1]));
    }
    for f in ["s/sweep.svg", "s/sweep.png", "s.xlsx"] {
        assert!(std::fs::metadata(dir.path().join(f)).unwrap().len() > 1000, "{f}");
    }
}

/// The same command (its outputs named alike, in a folder of its own) with
/// another --threads writes the same bytes, the workbook too (its date
/// fixed by SOURCE_DATE_EPOCH).
#[test]
fn same_seed_different_threads_identical_files() {
    let dir = tempfile::tempdir().unwrap();
    let mut runs = Vec::new();
    for threads in ["1", "2", "3"] {
        let here = dir.path().join(format!("threads{threads}"));
        std::fs::create_dir(&here).unwrap();
        let (out, xlsx) = ("s", "s.xlsx");
        ok(&sim_dated(
            &[
                "sweep",
                "flip-flush",
                "--policy",
                "call-at:{0.2,0.5,0.8}",
                "--players",
                "3",
                "--games",
                "2100",
                "--seed",
                "5",
                "--threads",
                threads,
                "--out",
                out,
                "--xlsx",
                xlsx,
            ],
            &here,
        ));
        let files: Vec<Vec<u8>> = ["sweep.csv", "sweep.svg", "sweep.png"]
            .iter()
            .map(|f| std::fs::read(here.join(out).join(f)).unwrap())
            .chain([std::fs::read(here.join(xlsx)).unwrap()])
            .collect();
        runs.push(files);
    }
    for r in &runs[1..] {
        assert!(r == &runs[0], "files differ between thread counts");
    }
    let csv = String::from_utf8(runs[0][0].clone()).unwrap();
    assert_eq!(csv.lines().count(), 4);
    assert!(
        csv.lines()
            .nth(2)
            .unwrap()
            .starts_with("\"call-at:{0.2,0.5,0.8}\",0.5,0,call-at:0.5,")
    );
}

#[test]
fn bad_sweeps_are_refused_before_playing() {
    let dir = tempfile::tempdir().unwrap();
    for (spec, needle) in [
        ("stay-at-25", "no {...} group"),
        ("stay-at-{10..", "unclosed"),
        ("stay-at-{a,b}", "'a' is not a number"),
        ("bust-prob:{0.5..2..0.5}", "at value 1.5"),
    ] {
        let o = sim(
            &["sweep", "flip7", "--policy", spec, "--games", "1000"],
            dir.path(),
        );
        assert!(!o.status.success(), "{spec}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(needle), "{spec}: {e}");
    }
    assert!(!dir.path().join("results").exists());
}
