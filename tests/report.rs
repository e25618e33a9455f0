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
    assert_eq!(files_in(&dir.path().join("a")), ["pairwise.csv", "standings.csv"]);
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
    assert_eq!(files_in(&dir.path().join("s")), ["report.html", "sweep.csv"]);
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
        out.contains("best: stay-at-25; no other entrant's 95% interval reaches its interval"),
        "{out}"
    );
    let lead = out
        .lines()
        .find(|l| l.starts_with("stay-at-25 wins ") && l.contains("points more often than stay-at-10"))
        .expect("the lead in points");
    assert!(lead.contains("95% CI"), "{lead}");
    assert!(out.contains("not significant after Holm's correction") || !out.contains("not significant"));
}
