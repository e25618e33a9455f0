//! `sim tournament GAME`: every entrant in every seat on the same deals,
//! then the standings, the head-to-head table, the charts and the workbook.

use std::io::Write;
use std::time::Instant;

use super::args::TournamentArgs;
use super::arrange::arrangements_listed;
use super::files::{Files, fe};
use super::play::play_batches;
use super::study::{FORMAT, Kind, STUDY_FILE, StudyFile, TournamentPart, rebuild};
use crate::analysis::console::{write_conclusion, write_pairwise, write_standings};
use crate::analysis::standings::{self as analysis, Setup};
use crate::analysis::tally::Tally;
use crate::engine::args::format_count;
use crate::engine::columns::{f6, run_csv_bytes};
use crate::engine::failure::{Failure, Usage};
use crate::engine::game::Game;
use crate::engine::job::{Finished, Job, show_shard, stop_flag};
use crate::engine::output::{file_label, state_beside};
use crate::engine::runner::{self, batch_count};
use crate::engine::show::{plural, table_json, timing};
use crate::engine::strategies::{Library, Resolved};
use crate::engine::strategies::{describe_sources, empty_in_list};
use crate::report::workbook::tournament_workbook;
use crate::report::xlsx::RunSheet;

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

/// Runs `sim tournament GAME`.
pub fn run<G: Game>(args: &TournamentArgs<G::Options>) -> Result<(), Failure> {
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
                .resolve(G::NAME, w, G::parse_policy)
                .map_err(|e| format!("{from} '{w}': {e}"))
        })
        .collect::<Result<_, _>>()
        .usage()?;
    let names = unique_labels(&words);
    let players = G::players(opts);
    let arr = arrangements_listed(names.len(), players, from.trim_end_matches(':')).usage()?;
    let sims: Vec<G::Sim> = arr
        .seats
        .iter()
        .map(|seats| {
            let lineup: Vec<G::Policy> = seats.iter().map(|&e| resolved[e].policy.clone()).collect();
            G::simulation(opts, &lineup)
        })
        .collect::<Result<_, _>>()
        .usage()?;

    let seed = args.common.seed.unwrap_or_else(rand::random);
    let threads = args.common.threads();
    let mut parts = vec![
        "tournament".to_string(),
        G::NAME.to_string(),
        file_label(&names),
        format!("{players}p"),
        format_count(args.games),
    ];
    parts.extend(G::variants(opts).into_iter().map(|v| v.file));
    if let Some(w) = args.until_ci {
        parts.push(format!("ci{w}"));
    }
    parts.push(format!("seed{seed}"));
    let out_dir = args.common.out_dir(&parts);
    let mut file_names = vec!["standings.csv", "pairwise.csv"];
    if !args.common.no_charts {
        file_names.extend([
            "standings.svg",
            "standings.png",
            "head-to-head.svg",
            "head-to-head.png",
        ]);
    }
    if !args.common.no_report {
        file_names.push("report.html");
    }
    file_names.push(STUDY_FILE);
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
    let files = if job_args.shard.is_none() {
        Some(Files::prepare(&out_dir, &file_names, args.common.xlsx.as_ref())?)
    } else {
        None
    };
    let specs: Vec<String> = resolved.iter().map(|r| r.policy.to_string()).collect();
    let definition = serde_json::json!({
        "command": "sim tournament GAME",
        "game": G::NAME,
        "players": players,
        "entrants": names,
        "policies": specs,
        "variants": G::variants(opts).into_iter().map(|v| v.file).collect::<Vec<_>>(),
        "games": args.games,
        "until_ci": args.until_ci.map(|w| w.to_string()),
        "seed": seed.to_string(),
    });
    let total_batches = batch_count(args.games);
    let mut job: Job<Tally> = Job::start(
        job_args,
        definition,
        total_batches,
        &state_beside(&out_dir),
        Tally::new(names.len(), arr.seats.len(), players),
        Tally::merge,
    )?;
    job.check_outputs(
        files
            .as_ref()
            .map(|f| f.destinations(&out_dir))
            .unwrap_or_default(),
    )?;

    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} worker threads: {e}"))?;
    let start = Instant::now();
    let todo = job.games_todo(|b| runner::batch_len(args.games, b));
    let bar = runner::progress_bar(args.common.progress(), todo * arr.seats.len() as u64);
    let mut stop_note = String::new();
    let mut play = |ranges: &[std::ops::Range<u64>]| {
        play_batches::<G>(
            opts,
            &sims,
            &arr.seats,
            names.len(),
            seed,
            args.games,
            ranges,
            &pool,
            &bar,
            stop_flag(),
        )
    };
    let played = match args.until_ci {
        None => job.play(0..total_batches, &mut play),
        Some(w) => {
            // Checkpoints after 4 batches, then about 25% more each time:
            // fixed by the seed and W alone, never by the threads (nor by
            // an interruption: a resumed run goes through the same ones).
            let mut done = 0;
            let mut next = 4.min(total_batches);
            loop {
                if let Err(e) = job.play(done..next, &mut play) {
                    break Err(e);
                }
                done = next;
                if job.done_beyond(done) {
                    // Resumed past this checkpoint: the first process
                    // checked it here and went on.
                    next = (done + done.div_ceil(4)).min(total_batches);
                    continue;
                }
                let widest = analysis::widest_half_width(&job.tally().moments);
                if widest < w {
                    stop_note = format!(
                        "--until-ci {w}: stopped after {}, widest win-rate interval ±{widest:.4}",
                        plural(job.tally().deals, "deal")
                    );
                    break Ok(());
                }
                if done >= total_batches {
                    stop_note = format!(
                        "--until-ci {w}: reached --games {} with the widest win-rate interval still ±{widest:.4}",
                        format_count(args.games)
                    );
                    break Ok(());
                }
                next = (done + done.div_ceil(4)).min(total_batches);
            }
        }
    };
    bar.finish_and_clear();
    played?;
    let resumed = job.resumed_note();
    let played_games = job.played_here(|b| runner::batch_len(args.games, b)) * arr.seats.len() as u64;
    let command = job.command_line();
    let (tally, leftovers) = match args.until_ci {
        // The run stopped early on purpose: what was played is the run.
        Some(_) => job.into_tally(),
        None => match job.finish()? {
            Finished::Complete(t, left) => (t, left),
            Finished::Shard(message) => {
                return show_shard(message, "tournament", job_args, &args.common.show);
            }
        },
    };
    let files = files.expect("a whole run has its files");
    let secs = start.elapsed().as_secs_f64();

    let setup = Setup {
        names: &names,
        arrangements: &arr.seats,
        seed,
        has_score: G::score_name(opts).is_some(),
        has_rounds: G::has_rounds(opts),
        has_places: G::has_places(opts),
    };
    let report = analysis::analyse(&setup, &tally);
    let deals = report.deals;
    let games_total = deals * arr.seats.len() as u64;

    // CSV.
    let specs: Vec<String> = resolved.iter().map(|r| r.policy.to_string()).collect();
    let standings_rows: Vec<Vec<String>> = report
        .standings
        .iter()
        .map(|s| {
            vec![
                s.rank.to_string(),
                names[s.entrant].clone(),
                specs[s.entrant].clone(),
                players.to_string(),
                arr.seats.len().to_string(),
                deals.to_string(),
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
                s.loss.map_or(String::new(), |v| f6(v.0)),
                s.loss.map_or(String::new(), |v| f6(v.1.0)),
                s.loss.map_or(String::new(), |v| f6(v.1.1)),
                s.place.map_or(String::new(), |v| f6(v.0)),
                s.place.map_or(String::new(), |v| f6(v.1)),
                s.score.map_or(String::new(), |v| f6(v.0)),
                s.score.map_or(String::new(), |v| f6(v.1)),
                if G::has_rounds(opts) {
                    s.rounds.to_string()
                } else {
                    String::new()
                },
                s.round_score.map_or(String::new(), |v| f6(v.0)),
                s.round_score.map_or(String::new(), |v| f6(v.1)),
                f6(s.rating),
                f6(s.rating_se),
                fe(s.var_crn),
                fe(s.var_independent),
                f6(s.var_crn / s.var_independent),
            ]
        })
        .collect();
    let pair_rows: Vec<Vec<String>> = report
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
        .collect();
    let standings_csv = run_csv_bytes(&header(&STANDINGS_HEADER), &standings_rows, seed)?;
    let pairwise_csv = run_csv_bytes(&header(&PAIRWISE_HEADER), &pair_rows, seed)?;
    let study_json = StudyFile {
        format: FORMAT,
        kind: Kind::Tournament,
        game: G::NAME.to_string(),
        sim_version: crate::engine::version::SIM_VERSION.to_string(),
        command: command.clone(),
        seed: seed.to_string(),
        date: study_date,
        players,
        tournament: Some(TournamentPart {
            entrants: names.clone(),
            policies: specs.clone(),
            arrangements: arr.seats.len(),
            has_places: G::has_places(opts),
            score: G::score_name(opts).map(String::from),
            units: report.units,
            batches: report.batches,
        }),
        sweep: None,
    }
    .to_bytes()?;
    // The console, the page and the charts all say what the files say:
    // the analysis read back from them (as `sim report DIR` reads it).
    let rebuilt = rebuild(
        &study_json,
        &[("standings.csv", &standings_csv), ("pairwise.csv", &pairwise_csv)],
        !args.common.no_charts,
        !args.common.no_report,
    )?;
    let report = rebuilt.report.expect("a tournament's analysis");

    // Summary.
    let mut summary = Vec::new();
    let _ = writeln!(
        summary,
        "sim tournament {}: {} entrants, {}, {}, seed {seed} ({})",
        G::NAME,
        names.len(),
        plural(players as u64, "player"),
        plural(deals, "deal"),
        timing(threads, played_games, secs)
    );
    let _ = writeln!(summary, "{}", arr.how);
    let _ = writeln!(
        summary,
        "every arrangement plays the same {} (common random numbers): {} in all",
        plural(deals, "deal"),
        plural(games_total, "game")
    );
    if !stop_note.is_empty() {
        let _ = writeln!(summary, "{stop_note}");
    }
    if let Some(n) = resumed {
        let _ = writeln!(summary, "{n}");
    }
    describe_sources(&resolved, &mut summary);
    write_standings::<G>(&mut summary, opts, &names, &report);
    for (name, _) in names.iter().zip(&resolved).filter(|(_, r)| G::cheats(&r.policy)) {
        let _ = writeln!(
            summary,
            "{name} cheats: its policy sees what no player can; its results are an upper bound, not a strategy"
        );
    }
    write_conclusion(&mut summary, &names, &report);
    write_pairwise(&mut summary, &names, &report);

    // Charts and workbook.
    let mut contents: Vec<(&str, Vec<u8>)> =
        vec![("standings.csv", standings_csv), ("pairwise.csv", pairwise_csv)];
    let title = format!(
        "{} tournament: {players} players, {} x {}, seed {seed}",
        G::NAME,
        plural(deals, "deal"),
        plural(arr.seats.len() as u64, "arrangement")
    );
    contents.extend(rebuilt.files);
    contents.push((STUDY_FILE, study_json));
    let json = serde_json::json!({
        "command": format!("tournament {}", G::NAME),
        "entrants": names,
        "players": players,
        "arrangements": arr.seats.len(),
        "deals": deals,
        "seed": seed.to_string(),
        "threads": threads,
        "seconds": secs,
        "sim_version": crate::engine::version::SIM_VERSION,
        "standings": table_json(&header(&STANDINGS_HEADER), &standings_rows, &["entrant", "policy"]),
        "pairwise": table_json(&header(&PAIRWISE_HEADER), &pair_rows, &["entrant", "opponent"]),
    });
    let xlsx_bytes = match workbook_time {
        Some(time) => Some(tournament_workbook(
            &title,
            &names,
            &report,
            standings_rows,
            pair_rows,
            &RunSheet { command, seed, time },
        )?),
        None => None,
    };
    let written = files.commit(&contents, xlsx_bytes, &mut summary)?;
    leftovers.settle(&mut summary);
    Ok(args.common.show.show(&summary, json, &written)?)
}
