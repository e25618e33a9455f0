//! `report.html` and the pictures of a study: written beside the CSVs,
//! self-contained, turned off by `--no-report`, listed by `--json`; the
//! console conclusions they share.

use crate::common;
use common::*;

/// Everything a page must not do to stay self-contained and offline.
fn assert_self_contained(page: &str) {
    for bad in ["http://", "https://", "<script src", "<link", "@import", "url("] {
        assert!(!page.contains(bad), "report.html contains {bad:?}");
    }
}

#[test]
fn tournament_report_is_one_self_contained_page_with_conclusion_first() {
    let dir = tempfile::tempdir().unwrap();
    let out = ok(&sim_dated(
        &[
            "tournament",
            "ib-flip",
            "--policies",
            "lowest,saver,counter",
            "--players",
            "3",
            "--games",
            "300",
            "--seed",
            "18446744073709551615",
            "--out",
            "t",
        ],
        dir.path(),
    ));
    assert!(
        out.contains("wrote t/report.html") || out.contains("report.html"),
        "{out}"
    );
    for f in [
        "standings.svg",
        "standings.png",
        "head-to-head.svg",
        "head-to-head.png",
        "report.html",
    ] {
        assert!(dir.path().join("t").join(f).is_file(), "{f} missing");
    }
    let page = std::fs::read_to_string(dir.path().join("t/report.html")).unwrap();
    assert_self_contained(&page);
    let conclusion = page.find("class=\"conclusion\"").expect("a conclusion");
    let table = page.find("<table class=\"sortable\"").expect("a sortable table");
    assert!(conclusion < table, "the conclusion comes first");
    assert!(page.contains("best: "), "the conclusion names the best");
    assert_eq!(
        page.matches("<svg").count(),
        2,
        "the forest plot and the heatmap, inline"
    );
    for name in ["lowest", "saver", "counter"] {
        assert!(
            page.contains(&format!("<td>{name}</td>")),
            "{name} in the standings"
        );
    }
    assert!(page.contains("mean place"), "ib-flip has places");
    assert!(page.contains("Holm"), "the method names the correction");
    assert!(page.contains("18446744073709551615"), "the seed");
    // SOURCE_DATE_EPOCH 1700000000 (sim_dated): the date is injectable.
    assert!(page.contains("2023-11-14 22:13:20 UTC"), "the date");
    let heat = std::fs::read_to_string(dir.path().join("t/head-to-head.svg")).unwrap();
    assert!(
        heat.contains("Holm"),
        "the heatmap's legend says Holm decided the marks"
    );
}

#[test]
fn no_report_writes_no_page_and_json_lists_the_page_when_written() {
    let dir = tempfile::tempdir().unwrap();
    let args = |out: &'static str, extra: &'static [&'static str]| -> Vec<&'static str> {
        let mut v = vec![
            "tournament",
            "flip7",
            "--policies",
            "stay-at-20,stay-at-25",
            "--players",
            "2",
            "--games",
            "200",
            "--seed",
            "1",
            "--out",
            out,
            "--no-charts",
        ];
        v.extend(extra);
        v
    };
    ok(&sim_dated(&args("a", &["--no-report"]), dir.path()));
    // study.json stays: sim report DIR makes the page later.
    assert_eq!(
        files_in(&dir.path().join("a")),
        ["pairwise.csv", "standings.csv", "study.json"]
    );
    let json: serde_json::Value =
        serde_json::from_str(&ok(&sim_dated(&args("b", &["--json"]), dir.path()))).unwrap();
    let files: Vec<&str> = json["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert!(files.iter().any(|f| f.ends_with("report.html")), "{files:?}");
}

#[test]
fn sweep_names_its_best_region_on_the_console_and_in_its_page() {
    let dir = tempfile::tempdir().unwrap();
    let out = ok(&sim_dated(
        &[
            "sweep",
            "flip7",
            "--policy",
            "stay-at-{20..32..4}",
            "--players",
            "2",
            "--games",
            "2000",
            "--seed",
            "5",
            "--out",
            "s",
            "--no-charts",
        ],
        dir.path(),
    ));
    assert!(!out.contains("highest win rate"), "{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("best: stay-at-"))
        .expect("a best line");
    let page = std::fs::read_to_string(dir.path().join("s/report.html")).unwrap();
    assert_self_contained(&page);
    assert!(
        page.contains(line.split(';').next().unwrap()),
        "the page says the same"
    );
    assert_eq!(
        page.matches("<svg").count(),
        1,
        "the chart, inline, even with --no-charts"
    );
    assert_eq!(
        files_in(&dir.path().join("s")),
        ["report.html", "study.json", "sweep.csv"]
    );
}

#[test]
fn tournament_console_gives_the_best_and_the_lead_in_points() {
    let dir = tempfile::tempdir().unwrap();
    let out = ok(&sim(
        &[
            "tournament",
            "flip7",
            "--policies",
            "stay-at-10,stay-at-25",
            "--players",
            "2",
            "--games",
            "2000",
            "--seed",
            "2",
            "--out",
            "t",
            "--no-report",
            "--no-charts",
        ],
        dir.path(),
    ));
    assert!(
        out.contains(
            "best: stay-at-25; the other entrant is behind it (the paired 95% interval of its difference in win rate from stay-at-25"
        ),
        "{out}"
    );
    let lead = out
        .lines()
        .find(|l| l.starts_with("stay-at-25 wins ") && l.contains("points more often than stay-at-10"))
        .expect("the lead in points");
    assert!(lead.contains("paired 95% CI"), "{lead}");
    assert!(out.contains("not significant after Holm's correction") || !out.contains("not significant"));
}

/// Every file under `dir` (in its folders too), by path, with its bytes.
fn contents(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut all = Vec::new();
    for f in files_in(dir) {
        let path = dir.join(&f);
        if path.is_dir() {
            all.extend(contents(&path).into_iter().map(|(g, b)| (format!("{f}/{g}"), b)));
        } else {
            all.push((f, std::fs::read(path).unwrap()));
        }
    }
    all
}

/// Removes the page and the pictures of the study in `dir`, rebuilds them
/// with `sim report DIR` and checks that every file has the bytes the
/// study wrote.
fn rebuilds_the_same(dir: &std::path::Path, study: &str) {
    let folder = dir.join(study);
    let before = contents(&folder);
    assert!(before.iter().any(|(f, _)| f == "report.html"), "{before:?}");
    assert!(before.iter().any(|(f, _)| f == "study.json"));
    for (f, _) in &before {
        if f.ends_with(".html") || f.ends_with(".svg") || f.ends_with(".png") {
            std::fs::remove_file(folder.join(f)).unwrap();
        }
    }
    // Run from elsewhere: nothing depends on the current folder.
    let out = ok(&sim(&["report", folder.to_str().unwrap()], dir));
    assert!(out.contains("rebuilt from study.json"), "{out}");
    assert!(out.contains("best: "), "the conclusion: {out}");
    let after = contents(&folder);
    assert_eq!(
        before.iter().map(|f| &f.0).collect::<Vec<_>>(),
        after.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    for ((name, a), (_, b)) in before.iter().zip(&after) {
        assert!(a == b, "{study}/{name} differs after sim report");
    }
}

#[test]
fn sim_report_rebuilds_the_same_bytes_for_tournaments_and_sweeps() {
    let dir = tempfile::tempdir().unwrap();
    let tournament = [
        "tournament",
        "flip7",
        "--policies",
        "stay-at-20,stay-at-25,stay-at-30",
        "--players",
        "2",
        "--games",
        "3000",
        "--seed",
        "18446744073709551615",
        "--threads",
        "1",
        "--out",
        "t",
    ];
    ok(&sim_dated(&tournament, dir.path()));
    rebuilds_the_same(dir.path(), "t");
    // Places (IB-Flip's mean place panel and columns).
    ok(&sim_dated(
        &[
            "tournament",
            "ib-flip",
            "--policies",
            "lowest,saver,counter",
            "--players",
            "3",
            "--games",
            "300",
            "--seed",
            "7",
            "--threads",
            "1",
            "--out",
            "p",
        ],
        dir.path(),
    ));
    let page = std::fs::read_to_string(dir.path().join("p/report.html")).unwrap();
    assert!(page.contains("mean place"));
    rebuilds_the_same(dir.path(), "p");
    ok(&sim_dated(
        &[
            "sweep",
            "flip7",
            "--policy",
            "stay-at-{20..32..4}",
            "--players",
            "2",
            "--games",
            "2000",
            "--seed",
            "5",
            "--threads",
            "1",
            "--out",
            "s",
        ],
        dir.path(),
    ));
    rebuilds_the_same(dir.path(), "s");
    // Shards, then sim merge: the merged study's page, rebuilt.
    for k in ["1/2", "2/2"] {
        let state = format!("st{}.json", &k[..1]);
        let mut args = tournament.to_vec();
        args.pop();
        args.extend(["m", "--shard", k, "--state", &state]);
        ok(&sim_dated(&args, dir.path()));
    }
    ok(&sim_dated(&["merge", "st1.json", "st2.json"], dir.path()));
    let merged = std::fs::read_to_string(dir.path().join("m/study.json")).unwrap();
    assert!(!merged.contains("--shard"), "the whole run's command: {merged}");
    rebuilds_the_same(dir.path(), "m");
    // The merged run is the whole run: the same figures, page and all
    // but its command line.
    let whole = std::fs::read_to_string(dir.path().join("t/standings.csv")).unwrap();
    assert_eq!(
        whole,
        std::fs::read_to_string(dir.path().join("m/standings.csv")).unwrap()
    );
}

#[test]
fn sim_report_after_no_report_writes_the_page_and_no_charts_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    ok(&sim_dated(
        &[
            "tournament",
            "flip7",
            "--policies",
            "stay-at-20,stay-at-25",
            "--players",
            "2",
            "--games",
            "500",
            "--seed",
            "2",
            "--out",
            "t",
            "--no-report",
            "--no-charts",
        ],
        dir.path(),
    ));
    let json: serde_json::Value =
        serde_json::from_str(&ok(&sim(&["report", "t", "--no-charts", "--json"], dir.path()))).unwrap();
    assert_eq!(json["study"], "tournament");
    assert_eq!(json["game"], "flip7");
    assert_eq!(json["files"], serde_json::json!(["t/report.html"]));
    assert_eq!(
        files_in(&dir.path().join("t")),
        ["pairwise.csv", "report.html", "standings.csv", "study.json"]
    );
    let page = std::fs::read_to_string(dir.path().join("t/report.html")).unwrap();
    assert_self_contained(&page);
    // The date is the run's, not the rebuild's.
    assert!(page.contains("2023-11-14 22:13:20 UTC"), "the run's date");
    assert!(page.contains("--no-report"), "the run's command line");
}

/// `sim report` refuses with exit 2, names `fragments`, and writes
/// nothing into `dir` (whose files are given).
fn report_refused(dir: &std::path::Path, arg: &str, fragments: &[&str]) {
    let before = contents(dir);
    let o = sim(&["report", arg], dir);
    assert_eq!(o.status.code(), Some(2), "{arg}: {}", stderr(&o));
    let err = stderr(&o);
    for f in fragments {
        assert!(err.contains(f), "{arg}: message lacks {f:?}:\n{err}");
    }
    assert!(o.stdout.is_empty());
    assert_eq!(before, contents(dir), "{arg}: files changed");
}

#[test]
fn sim_report_refuses_what_is_not_a_finished_study() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    report_refused(
        d,
        "missing",
        &["DIR 'missing' does not exist", "tournament or sweep"],
    );
    std::fs::write(d.join("file.csv"), "a\n").unwrap();
    report_refused(
        d,
        "file.csv",
        &["'file.csv' is a file, not a folder", "study.json"],
    );
    std::fs::create_dir(d.join("empty")).unwrap();
    report_refused(
        d,
        "empty",
        &[
            "'empty' is not the folder of a tournament or sweep",
            "no study.json, standings.csv or sweep.csv",
        ],
    );
    // A study of an older sim: its CSVs without study.json.
    ok(&sim_dated(
        &[
            "sweep",
            "flip7",
            "--policy",
            "stay-at-{20..24..4}",
            "--players",
            "2",
            "--games",
            "200",
            "--seed",
            "9",
            "--out",
            "old",
            "--no-charts",
        ],
        d,
    ));
    std::fs::rename(d.join("old/study.json"), d.join("study.keep")).unwrap();
    std::fs::remove_file(d.join("old/report.html")).unwrap();
    report_refused(
        d,
        "old",
        &[
            "holds a sweep's sweep.csv but no study.json",
            "older sim",
            "Run the sweep again with this sim with --seed 9",
        ],
    );
    // study.json of another format, or broken, or without its CSV.
    let good = std::fs::read_to_string(d.join("study.keep")).unwrap();
    std::fs::write(
        d.join("old/study.json"),
        good.replace("\"format\": 1", "\"format\": 99"),
    )
    .unwrap();
    report_refused(d, "old", &["is of format 99; this sim reads format 1"]);
    std::fs::write(d.join("old/study.json"), "{not json").unwrap();
    report_refused(
        d,
        "old",
        &["old/study.json' is not a study file this sim can read"],
    );
    std::fs::write(d.join("old/study.json"), &good).unwrap();
    std::fs::rename(d.join("old/sweep.csv"), d.join("sweep.keep")).unwrap();
    report_refused(d, "old", &["'old' is a sweep study but has no sweep.csv"]);
    // Files of two runs.
    let csv = std::fs::read_to_string(d.join("sweep.keep")).unwrap();
    std::fs::write(d.join("old/sweep.csv"), csv.replace(",9,", ",10,")).unwrap();
    report_refused(d, "old", &["sweep.csv is of seed 10 but study.json of seed 9"]);
    // The destination is checked before anything is written: a folder
    // where the page goes.
    std::fs::write(d.join("old/sweep.csv"), &csv).unwrap();
    std::fs::create_dir(d.join("old/report.html")).unwrap();
    let o = sim(&["report", "old"], d);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("report.html"), "{}", stderr(&o));
    assert!(
        !d.join("old/sweep.svg").exists(),
        "no chart written before the refusal"
    );
    std::fs::remove_dir(d.join("old/report.html")).unwrap();
    ok(&sim(&["report", "old"], d));
}

#[test]
fn a_plain_run_with_different_policies_writes_a_short_report_beside_its_csv() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = |out: &str, policy: &str, extra: &[&str]| {
        let mut args = vec![
            "flip7",
            "--players",
            "2",
            "--policy",
            policy,
            "--games",
            "2000",
            "--seed",
            "3",
            "--threads",
            "1",
            "--out",
            out,
        ];
        args.extend(extra);
        sim_dated(&args, d)
    };
    let out = ok(&run("a/run.csv", "stay-at-15,stay-at-25", &[]));
    assert!(out.contains("report: a/run.report.html"), "{out}");
    assert_eq!(files_in(&d.join("a")), ["run.csv", "run.report.html"]);
    let page = std::fs::read_to_string(d.join("a/run.report.html")).unwrap();
    assert_self_contained(&page);
    let conclusion = page.find("class=\"conclusion\"").expect("a conclusion");
    let table = page.find("<table class=\"sortable\"").expect("a seat table");
    assert!(conclusion < table);
    assert!(page.contains("seat 1 (stay-at-25) wins most"), "the best seat");
    assert!(page.contains("95% CI"), "intervals");
    assert!(page.contains("sim tournament flip7"), "the fair comparison named");
    assert!(page.contains("2 players, 2,000 games, seed 3") || page.contains("2 players, 2K games, seed 3"));
    assert!(page.contains("run.csv"), "the CSV beside it");
    assert_eq!(page.matches("<svg").count(), 1, "the seats' chart, inline");
    // The same run gives the same page.
    ok(&run("b/run.csv", "stay-at-15,stay-at-25", &[]));
    let again = std::fs::read_to_string(d.join("b/run.report.html")).unwrap();
    assert_eq!(page.replace("a/run.csv", "b/run.csv"), again);
    // --json lists it; --no-report turns it off; one policy or stdout: none.
    let json: serde_json::Value =
        serde_json::from_str(&ok(&run("c/run.csv", "stay-at-15,stay-at-25", &["--json"]))).unwrap();
    assert_eq!(
        json["files"],
        serde_json::json!(["c/run.csv", "c/run.report.html"])
    );
    ok(&run("d/run.csv", "stay-at-15,stay-at-25", &["--no-report"]));
    assert_eq!(files_in(&d.join("d")), ["run.csv"]);
    ok(&run("e/run.csv", "stay-at-15", &[]));
    assert_eq!(files_in(&d.join("e")), ["run.csv"]);
    let o = run("-", "stay-at-15,stay-at-25", &[]);
    assert!(o.status.success());
    assert!(!files_in(d).iter().any(|f| f.ends_with(".html")));
    // Its destination is checked before any game is played.
    std::fs::create_dir_all(d.join("f/run.report.html")).unwrap();
    let o = run("f/run.csv", "stay-at-15,stay-at-25", &[]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("report.html"), "{}", stderr(&o));
    assert_eq!(files_in(&d.join("f")), ["run.report.html"], "no CSV written");
}

/// The stages after a study's play, alone: its files read back
/// (`read_back`) and its pages made from them (`pages`) give the very
/// bytes the tournament and the sweep wrote.
#[test]
fn a_study_read_back_from_its_files_makes_the_pages_it_wrote() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let tour = [
        "tournament",
        "flip7",
        "--policies",
        "stay-at-20,ev",
        "--players",
        "2",
        "--games",
        "2000",
    ];
    let sweep = [
        "sweep",
        "flip7",
        "--policy",
        "stay-at-{20..30..5}",
        "--players",
        "2",
        "--games",
        "2000",
    ];
    for (run, out, csvs) in [
        (&tour[..], "t", &["standings.csv", "pairwise.csv"][..]),
        (&sweep[..], "s", &["sweep.csv"][..]),
    ] {
        let mut args = run.to_vec();
        args.extend(["--seed", "4", "--out", out]);
        ok(&sim_dated(&args, d));
        let read = |name: &str| std::fs::read(d.join(out).join(name)).unwrap();
        let files: Vec<(&str, Vec<u8>)> = csvs.iter().map(|n| (*n, read(n))).collect();
        let borrowed: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (*n, b.as_slice())).collect();
        let back = sim::studies::study::read_back(&read("study.json"), &borrowed).unwrap();
        assert!(!back.conclusion.is_empty(), "{out}");
        let pages = sim::report::study::pages(&back, true, true).unwrap();
        assert!(pages.len() >= 3, "{out}");
        for (name, bytes) in pages {
            assert!(read(name) == bytes, "{out}/{name} is not what the study wrote");
        }
    }
}
