//! `sim tournament GAME`: every entrant in every seat on the same deals,
//! then the standings, the head-to-head table, the charts and the workbook.

use std::io::Write;
use std::time::Instant;

use super::args::TournamentArgs;
use super::arrange::arrangements_listed;
use super::files::{Files, fe};
use super::play::play_batches;
use super::study::{
    Book, BookTables, FORMAT, Kind, ReadBack, STUDY_FILE, StudyDone, StudyFile, TournamentPart, read_back,
};
use crate::analysis::console::{write_conclusion, write_pairwise, write_standings};
use crate::analysis::standings::{self as analysis, Report, Setup};
use crate::analysis::tally::Tally;
use crate::engine::args::format_count;
use crate::engine::columns::{f6, run_csv_bytes};
use crate::engine::failure::{Failure, Usage};
use crate::engine::game::Game;
use crate::engine::job::{Finished, Job, Leftovers, show_shard, stop_flag};
use crate::engine::output::{file_label, state_beside};
use crate::engine::runner::{self, batch_count};
use crate::engine::show::{plural, table_json, timing};
use crate::engine::strategies::{Library, Resolved};
use crate::engine::strategies::{describe_sources, empty_in_list, simulation_of};

/// The entrant words of `--policies` or of a `--lineup` file, and how
/// errors about one of them name where it was written (`--policies`, or
/// `--lineup NAME (FILE:LINE):`).
fn entrant_words(
    game: &str,
    policies: Option<&str>,
    lineup: Option<&str>,
    library: &Library,
) -> Result<(Vec<String>, String), String> {
    let (text, from) = match (policies, lineup) {
        (Some(p), _) => (p.to_string(), "--policies".to_string()),
        (None, Some(l)) => {
            let s = library
                .lineup(game, l)
                .map_err(|e| format!("--lineup {l}: {e}"))?;
            let at = format!("--lineup {l} ({}:{}):", s.origin.file(), s.policy_line);
            (s.policy, at)
        }
        (None, None) => return Err("give --policies A,B,C or --lineup NAME".into()),
    };
    if text.split(',').any(|w| w.trim().is_empty()) {
        let flag = if policies.is_some() {
            "--policies"
        } else {
            from.trim_end_matches(':')
        };
        return Err(empty_in_list(flag, &text));
    }
    Ok((text.split(',').map(|w| w.trim().to_string()).collect(), from))
}

/// Labels made unique: a policy listed again becomes `NAME#2`, `NAME#3`.
fn unique_labels(words: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    for w in words {
        let seen = words.iter().take(out.len()).filter(|v| *v == w).count();
        out.push(if seen == 0 {
            w.clone()
        } else {
            format!("{w}#{}", seen + 1)
        });
    }
    out
}

/// Standings CSV columns (docs/tournament.md documents each), before the
/// [`RUN_COLUMNS`](crate::engine::columns::RUN_COLUMNS) every CSV ends with.
pub const STANDINGS_HEADER: [&str; 27] = [
    "rank",
    "entrant",
    "policy",
    "players",
    "arrangements",
    "deals",
    "games",
    "wins",
    "win_rate",
    "win_rate_ci95_low",
    "win_rate_ci95_high",
    "losses",
    "loss_rate",
    "loss_rate_ci95_low",
    "loss_rate_ci95_high",
    "mean_place",
    "mean_place_stderr",
    "mean_score",
    "mean_score_stderr",
    "rounds",
    "mean_round_score",
    "round_score_stderr",
    "rating",
    "rating_stderr",
    "win_rate_variance_crn",
    "win_rate_variance_independent",
    "variance_ratio",
];

/// Pairwise CSV columns, before the
/// [`RUN_COLUMNS`](crate::engine::columns::RUN_COLUMNS) every CSV ends with.
pub const PAIRWISE_HEADER: [&str; 16] = [
    "entrant",
    "opponent",
    "games_together",
    "entrant_wins",
    "opponent_wins",
    "entrant_win_rate_together",
    "h2h_share",
    "h2h_ci95_low",
    "h2h_ci95_high",
    "h2h_stderr",
    "p_value",
    "p_holm",
    "significant",
    "diff_variance_crn",
    "diff_variance_independent",
    "variance_ratio",
];

/// A header of `&str` as owned strings.
pub fn header(h: &[&str]) -> Vec<String> {
    h.iter().map(|s| s.to_string()).collect()
}

/// Who plays: the entrants' policies and names, the arrangements of the
/// seats, and each arrangement's simulation.
struct Entrants<G: Game> {
    resolved: Vec<Resolved<G::Policy>>,
    names: Vec<String>,
    arr: super::arrange::Arrangements,
    sims: Vec<G::Sim>,
}

/// Reads the entrants of `--policies` or `--lineup` and seats them.
fn entrants<G: Game>(args: &TournamentArgs<G::Options>) -> Result<Entrants<G>, Failure> {
    let opts = &args.options;
    let library = args.common.library().usage()?;
    let (words, from) = entrant_words(
        G::NAME,
        args.policies.as_deref(),
        args.lineup.as_deref(),
        &library,
    )
    .usage()?;
    let resolved: Vec<Resolved<G::Policy>> = words
        .iter()
        .map(|w| {
            library
                .resolve_policy::<G>(w)
                .map_err(|e| format!("{from} '{w}': {e}"))
        })
        .collect::<Result<_, _>>()
        .usage()?;
    let names = unique_labels(&words);
    let players = G::players(opts);
    let arr = arrangements_listed(names.len(), players, from.trim_end_matches(':')).usage()?;
    let given: Vec<(String, &G::Policy)> = words
        .iter()
        .zip(&resolved)
        .map(|(w, r)| (format!("{from} '{w}'"), &r.policy))
        .collect();
    let sims: Vec<G::Sim> = arr
        .seats
        .iter()
        .map(|seats| {
            let lineup: Vec<G::Policy> = seats.iter().map(|&e| resolved[e].policy.clone()).collect();
            simulation_of::<G>(opts, &lineup, &given)
        })
        .collect::<Result<_, _>>()
        .usage()?;
    Ok(Entrants {
        resolved,
        names,
        arr,
        sims,
    })
}

/// What a tournament is, worked out and checked before any deal is
/// played: its seed, its files and its job.
struct Plan {
    seed: u64,
    threads: usize,
    /// The output folder (none for a shard, which writes its state).
    files: Option<Files>,
    workbook_time: Option<i64>,
    study_date: String,
    job: Job<Tally>,
}

/// The names of a tournament's files (the CSVs, the charts and the page
/// asked for, and `study.json`).
fn file_names(args: &super::args::Common) -> Vec<&'static str> {
    let mut names = vec!["standings.csv", "pairwise.csv"];
    if !args.no_charts {
        names.extend([
            "standings.svg",
            "standings.png",
            "head-to-head.svg",
            "head-to-head.png",
        ]);
    }
    if !args.no_report {
        names.push("report.html");
    }
    names.push(STUDY_FILE);
    names
}

/// Plans the tournament: its output folder, every destination checked,
/// and the job that plays its batches.
fn plan<G: Game>(args: &TournamentArgs<G::Options>, e: &Entrants<G>) -> Result<Plan, Failure> {
    let opts = &args.options;
    let players = G::players(opts);
    let seed = args.common.seed.unwrap_or_else(rand::random);
    let mut parts = vec![
        "tournament".to_string(),
        G::NAME.to_string(),
        file_label(&e.names),
        format!("{players}p"),
        format_count(args.games),
    ];
    parts.extend(G::variants(opts).into_iter().map(|v| v.file));
    if let Some(w) = args.until_ci {
        parts.push(format!("ci{w}"));
    }
    parts.push(format!("seed{seed}"));
    let out_dir = args.common.out_dir(&parts);
    let job_args = &args.common.job;
    if job_args.shard.is_some() && args.until_ci.is_some() {
        return Err(Failure::Usage(
            "--until-ci decides when to stop from all the deals played so far: it does not go with --shard"
                .into(),
        ));
    }
    let workbook_time = args.common.workbook_time()?;
    let study_date = args.common.study_date()?;
    // A shard writes only its state file.
    let files = match job_args.shard {
        None => Some(Files::prepare(
            &out_dir,
            &file_names(&args.common),
            args.common.xlsx.as_ref(),
        )?),
        Some(_) => None,
    };
    let specs = specs(e);
    let definition = serde_json::json!({
        "command": "sim tournament GAME",
        "game": G::NAME,
        "players": players,
        "entrants": e.names,
        "policies": specs,
        "variants": G::variants(opts).into_iter().map(|v| v.file).collect::<Vec<_>>(),
        "games": args.games,
        "until_ci": args.until_ci.map(|w| w.to_string()),
        "seed": seed.to_string(),
    });
    let empty = Tally::new(e.names.len(), e.arr.seats.len(), players);
    let job = Job::start(
        job_args,
        definition,
        batch_count(args.games),
        &state_beside(&out_dir),
        empty,
        Tally::merge,
    )?;
    let outputs = files
        .as_ref()
        .map(|f| f.destinations(&out_dir))
        .unwrap_or_default();
    job.check_outputs(outputs)?;
    Ok(Plan {
        seed,
        threads: args.common.threads(),
        files,
        workbook_time,
        study_date,
        job,
    })
}

/// Plays the tournament's batches: every one, or with `--until-ci` until
/// the widest win-rate interval is narrow enough. Gives what the summary
/// says of a stop by `--until-ci` (empty otherwise).
fn play<G: Game>(
    args: &TournamentArgs<G::Options>,
    e: &Entrants<G>,
    plan: &mut Plan,
) -> Result<String, Failure> {
    let pool = runner::pool(plan.threads)?;
    let total_batches = batch_count(args.games);
    let todo = plan.job.games_todo(|r| runner::games_in(args.games, r));
    let bar = runner::progress_bar(args.common.progress(), todo * e.arr.seats.len() as u64);
    let seed = plan.seed;
    let mut play = |ranges: &[std::ops::Range<u64>]| {
        let (opts, n) = (&args.options, e.names.len());
        play_batches::<G>(
            opts,
            &e.sims,
            &e.arr.seats,
            n,
            seed,
            args.games,
            ranges,
            &pool,
            &bar,
            stop_flag(),
        )
    };
    let played = match args.until_ci {
        None => plan.job.play(0..total_batches, &mut play).map(|()| String::new()),
        Some(w) => until_ci(&mut plan.job, w, args.games, &mut play),
    };
    bar.finish_and_clear();
    played
}

/// Plays until the widest win-rate interval is below `w`, or every batch
/// of `games` deals is played.
fn until_ci(
    job: &mut Job<Tally>,
    w: f64,
    games: u64,
    play: &mut crate::engine::job::Player<'_, Tally>,
) -> Result<String, Failure> {
    // Checkpoints after 4 batches, then about 25% more each time: fixed by
    // the seed and W alone, never by the threads (nor by an interruption:
    // a resumed run goes through the same ones).
    let total_batches = batch_count(games);
    let mut done = 0;
    let mut next = 4.min(total_batches);
    loop {
        job.play(done..next, play)?;
        done = next;
        if job.done_beyond(done) {
            // Resumed past this checkpoint: the first process checked it
            // here and went on.
            next = (done + done.div_ceil(4)).min(total_batches);
            continue;
        }
        let widest = analysis::widest_half_width(&job.tally().moments);
        if widest < w {
            return Ok(format!(
                "--until-ci {w}: stopped after {}, widest win-rate interval ±{widest:.4}",
                plural(job.tally().deals, "deal")
            ));
        }
        if done >= total_batches {
            return Ok(format!(
                "--until-ci {w}: reached --games {} with the widest win-rate interval still ±{widest:.4}",
                format_count(games)
            ));
        }
        next = (done + done.div_ceil(4)).min(total_batches);
    }
}

/// How the play went: the games this process played, the note of the
/// states resumed, the run's command line and the `--until-ci` note.
struct Played {
    games: u64,
    resumed: Option<String>,
    command: String,
    stop_note: String,
    secs: f64,
}

/// Runs `sim tournament GAME`: gives the tournament played and summed up,
/// for the report layer to make its pages, or `None` once a shard has
/// written its state.
pub fn run<G: Game>(args: &TournamentArgs<G::Options>) -> Result<Option<StudyDone>, Failure> {
    let e = entrants::<G>(args)?;
    let mut plan = plan::<G>(args, &e)?;
    let start = Instant::now();
    let stop_note = play::<G>(args, &e, &mut plan)?;
    let job = plan.job;
    let played = Played {
        games: job.played_here(|r| runner::games_in(args.games, r)) * e.arr.seats.len() as u64,
        resumed: job.resumed_note(),
        command: job.command_line(),
        stop_note,
        secs: 0.0,
    };
    let (tally, leftovers) = match args.until_ci {
        // The run stopped early on purpose: what was played is the run.
        Some(_) => job.into_tally(),
        None => match job.finish()? {
            Finished::Complete(t, left) => (t, left),
            Finished::Shard(message) => {
                show_shard(message, "tournament", &args.common.job, &args.common.show)?;
                return Ok(None);
            }
        },
    };
    let played = Played {
        secs: start.elapsed().as_secs_f64(),
        ..played
    };
    let ends = Ends {
        files: plan.files.expect("a whole run has its files"),
        workbook_time: plan.workbook_time,
        study_date: plan.study_date,
        seed: plan.seed,
        threads: plan.threads,
        leftovers,
    };
    Ok(Some(sum_up::<G>(args, &e, &tally, played, ends)?))
}

/// What a whole tournament ends with besides its tally.
struct Ends {
    files: Files,
    workbook_time: Option<i64>,
    study_date: String,
    seed: u64,
    threads: usize,
    leftovers: Leftovers,
}

/// The analysis, the CSVs and `study.json`, read back as `sim report DIR`
/// reads them, and the console summary of what they say.
fn sum_up<G: Game>(
    args: &TournamentArgs<G::Options>,
    e: &Entrants<G>,
    tally: &Tally,
    played: Played,
    ends: Ends,
) -> Result<StudyDone, Failure> {
    let opts = &args.options;
    let players = G::players(opts);
    let setup = Setup {
        names: &e.names,
        arrangements: &e.arr.seats,
        seed: ends.seed,
        has_score: G::score_name(opts).is_some(),
        has_rounds: G::has_rounds(opts),
        has_places: G::has_places(opts),
    };
    let report = analysis::analyse(&setup, tally);
    let standings_rows = standings_rows::<G>(opts, &e.names, &specs(e), e.arr.seats.len(), &report);
    let pair_rows = pair_rows(&e.names, &report);
    let standings_csv = run_csv_bytes(&header(&STANDINGS_HEADER), &standings_rows, ends.seed)?;
    let pairwise_csv = run_csv_bytes(&header(&PAIRWISE_HEADER), &pair_rows, ends.seed)?;
    let study_json = study_file::<G>(opts, e, &played, &ends, &report).to_bytes()?;
    // The console, the page and the charts all say what the files say:
    // the analysis read back from them (as `sim report DIR` reads it).
    let back = read_back(
        &study_json,
        &[("standings.csv", &standings_csv), ("pairwise.csv", &pairwise_csv)],
    )?;
    let deals = report.deals;
    let summary = summary::<G>(args, e, &back, &played, ends.threads, deals);
    let json = serde_json::json!({
        "command": format!("tournament {}", G::NAME),
        "entrants": e.names,
        "players": players,
        "arrangements": e.arr.seats.len(),
        "deals": deals,
        "seed": ends.seed.to_string(),
        "threads": ends.threads,
        "seconds": played.secs,
        "sim_version": crate::engine::version::SIM_VERSION,
        "standings": table_json(&header(&STANDINGS_HEADER), &standings_rows, &["entrant", "policy"]),
        "pairwise": table_json(&header(&PAIRWISE_HEADER), &pair_rows, &["entrant", "opponent"]),
    });
    let book = ends.workbook_time.map(|time| Book {
        title: format!(
            "{} tournament: {players} players, {} x {}, seed {}",
            G::NAME,
            plural(deals, "deal"),
            plural(e.arr.seats.len() as u64, "arrangement"),
            ends.seed
        ),
        command: played.command.clone(),
        seed: ends.seed,
        time,
        tables: BookTables::Tournament {
            names: e.names.clone(),
            standings: standings_rows,
            pairs: pair_rows,
        },
    });
    Ok(StudyDone {
        back,
        charts: !args.common.no_charts,
        page: !args.common.no_report,
        book,
        files: ends.files,
        csvs: vec![("standings.csv", standings_csv), ("pairwise.csv", pairwise_csv)],
        study_json,
        summary,
        json,
        leftovers: ends.leftovers,
        show: args.common.show,
    })
}

/// Each entrant's policy, as a spec.
fn specs<G: Game>(e: &Entrants<G>) -> Vec<String> {
    e.resolved.iter().map(|r| r.policy.to_string()).collect()
}

/// The tournament's `study.json`.
fn study_file<G: Game>(
    opts: &G::Options,
    e: &Entrants<G>,
    played: &Played,
    ends: &Ends,
    report: &Report,
) -> StudyFile {
    StudyFile {
        format: FORMAT,
        kind: Kind::Tournament,
        game: G::NAME.to_string(),
        sim_version: crate::engine::version::SIM_VERSION.to_string(),
        command: played.command.clone(),
        seed: ends.seed.to_string(),
        date: ends.study_date.clone(),
        players: G::players(opts),
        tournament: Some(TournamentPart {
            entrants: e.names.clone(),
            policies: specs(e),
            arrangements: e.arr.seats.len(),
            has_places: G::has_places(opts),
            score: G::score_name(opts).map(String::from),
            units: report.units,
            batches: report.batches,
        }),
        sweep: None,
    }
}

/// The console summary of a tournament: what was played, then the
/// standings, the conclusion and the head-to-head table of its files read
/// back.
fn summary<G: Game>(
    args: &TournamentArgs<G::Options>,
    e: &Entrants<G>,
    back: &ReadBack,
    played: &Played,
    threads: usize,
    deals: u64,
) -> Vec<u8> {
    let (opts, names, seed) = (&args.options, &e.names, back.seed);
    let report = back.report.as_ref().expect("a tournament's analysis");
    let players = G::players(opts);
    let mut summary = Vec::new();
    let _ = writeln!(
        summary,
        "sim tournament {}: {} entrants, {}, {}, seed {seed} ({})",
        G::NAME,
        names.len(),
        plural(players as u64, "player"),
        plural(deals, "deal"),
        timing(threads, played.games, played.secs)
    );
    let _ = writeln!(summary, "{}", e.arr.how);
    let _ = writeln!(
        summary,
        "every arrangement plays the same {} (common random numbers): {} in all",
        plural(deals, "deal"),
        plural(deals * e.arr.seats.len() as u64, "game")
    );
    if !played.stop_note.is_empty() {
        let _ = writeln!(summary, "{}", played.stop_note);
    }
    if let Some(n) = &played.resumed {
        let _ = writeln!(summary, "{n}");
    }
    describe_sources(&e.resolved, &mut summary);
    write_standings::<G>(&mut summary, opts, names, report);
    for (name, _) in names
        .iter()
        .zip(&e.resolved)
        .filter(|(_, r)| G::cheats(&r.policy))
    {
        let _ = writeln!(
            summary,
            "{name} cheats: its policy sees what no player can; its results are an upper bound, not a strategy"
        );
    }
    write_conclusion(&mut summary, names, report);
    write_pairwise(&mut summary, names, report);
    summary
}

/// The rows of `standings.csv`.
fn standings_rows<G: Game>(
    opts: &G::Options,
    names: &[String],
    specs: &[String],
    arrangements: usize,
    report: &Report,
) -> Vec<Vec<String>> {
    let players = G::players(opts);
    let opt = |v: Option<f64>| v.map_or(String::new(), f6);
    report
        .standings
        .iter()
        .map(|s| {
            vec![
                s.rank.to_string(),
                names[s.entrant].clone(),
                specs[s.entrant].clone(),
                players.to_string(),
                arrangements.to_string(),
                report.deals.to_string(),
                s.games.to_string(),
                s.wins.to_string(),
                f6(s.win_rate),
                f6(s.win_ci.0),
                f6(s.win_ci.1),
                if s.loss.is_some() {
                    s.losses.to_string()
                } else {
                    String::new()
                },
                opt(s.loss.map(|v| v.0)),
                opt(s.loss.map(|v| v.1.0)),
                opt(s.loss.map(|v| v.1.1)),
                opt(s.place.map(|v| v.0)),
                opt(s.place.map(|v| v.1)),
                opt(s.score.map(|v| v.0)),
                opt(s.score.map(|v| v.1)),
                if G::has_rounds(opts) {
                    s.rounds.to_string()
                } else {
                    String::new()
                },
                opt(s.round_score.map(|v| v.0)),
                opt(s.round_score.map(|v| v.1)),
                f6(s.rating),
                f6(s.rating_se),
                fe(s.var_crn),
                fe(s.var_independent),
                f6(s.var_crn / s.var_independent),
            ]
        })
        .collect()
}

/// The rows of `pairwise.csv`.
fn pair_rows(names: &[String], report: &Report) -> Vec<Vec<String>> {
    report
        .pairs
        .iter()
        .map(|p| {
            vec![
                names[p.a].clone(),
                names[p.b].clone(),
                p.games_together.to_string(),
                p.a_wins.to_string(),
                p.b_wins.to_string(),
                f6(p.a_wins as f64 / p.games_together.max(1) as f64),
                f6(p.h2h),
                f6(p.h2h_ci.0),
                f6(p.h2h_ci.1),
                f6(p.h2h_se),
                fe(p.p_value),
                fe(p.p_holm),
                u8::from(p.significant).to_string(),
                fe(p.diff_var_crn),
                fe(p.diff_var_independent),
                f6(p.diff_var_crn / p.diff_var_independent),
            ]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entrant_listed_twice_gets_a_number() {
        let words: Vec<String> = ["ev", "ev", "stay-at-25", "ev"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(unique_labels(&words), ["ev", "ev#2", "stay-at-25", "ev#3"]);
    }

    #[test]
    fn the_entrants_come_from_policies_or_a_lineup_and_no_empty_one() {
        let library = Library::new(std::path::Path::new("."), None).unwrap();
        let (words, from) = entrant_words("flip7", Some("ev, stay-at-25"), None, &library).unwrap();
        assert_eq!(
            (words.as_slice(), from.as_str()),
            (&["ev".to_string(), "stay-at-25".to_string()][..], "--policies")
        );
        let e = entrant_words("flip7", Some("ev,,stay-at-25"), None, &library).unwrap_err();
        assert!(
            e.contains("--policies 'ev,,stay-at-25' has an empty entry"),
            "{e}"
        );
        let e = entrant_words("flip7", None, None, &library).unwrap_err();
        assert!(e.contains("--policies A,B,C or --lineup NAME"), "{e}");
    }

    #[test]
    fn the_files_follow_the_options() {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            common: super::super::args::Common,
        }
        let names =
            |w: &[&str]| file_names(&Cli::parse_from(std::iter::once("sim").chain(w.iter().copied())).common);
        assert_eq!(
            names(&["--no-charts", "--no-report"]),
            ["standings.csv", "pairwise.csv", STUDY_FILE]
        );
        assert_eq!(names(&[]).len(), 8);
        assert!(names(&["--no-charts"]).contains(&"report.html"));
    }
}
