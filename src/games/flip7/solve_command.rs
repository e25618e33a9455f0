//! `sim flip7 solve`: the exact solo-round values of [`super::solve`] as
//! two CSV files and a one-line summary.

use clap::Args;

use super::cards::{Without, composition};
use super::game_solve::Ties;
use super::rules::FLIP7_CARDS;
use super::solve;
use crate::engine::columns::{RUN_COLUMNS, csv_bytes};
use crate::engine::exhibit::{Exhibit, Surface};
use crate::engine::failure::Failure;
use crate::engine::version::SIM_VERSION;

/// `sim flip7 solve`: exact expected score of a solo round from a fresh
/// deck: the optimal Hit/Stay rule, every stay-at-N for N = 0..60, and the
/// optimal decision for every set of numbers held. Any deck (--without).
#[derive(Args, Debug, Clone)]
pub struct SolveArgs {
    /// Card kinds removed from the deck (default: the full deck).
    #[arg(long, value_name = "KINDS", value_parser = Without::parse)]
    pub without: Option<Without>,

    /// Folder for thresholds.csv and decisions.csv (default:
    /// results/flip7-solve[_without-KINDS]/); with --game, for game.csv
    /// (default: results/flip7-game_FIELD_TIES/).
    #[arg(long, value_name = "DIR")]
    pub out: Option<std::path::PathBuf>,

    /// Solve the whole game in the independent-rounds model (number cards
    /// only: give --without actions,modifiers): the exact chance to win
    /// from every pair of totals, field against field and for the best
    /// response to the field, with a page mapping the best response's
    /// stance (or, with --players 3, every triple of totals).
    #[arg(long)]
    pub game: bool,

    /// With --game: the opponent's strategy (a spec or strategy name whose
    /// rounds decide from its own cards and the totals).
    #[arg(long, value_name = "SPEC", default_value = "optimal-round", requires = "game")]
    pub field: String,

    /// With --game: a tie for the lead at 200 or more: play-on (sim's
    /// rules) or split (half a win each, as the published analysis).
    #[arg(long, value_name = "RULE", default_value = "play-on", value_parser = Ties::parse, requires = "game")]
    pub ties: Ties,

    /// With --game: look for the equilibrium by fictitious play, STEPS
    /// exact best responses averaged into the field (1 to 1000; about 5 s
    /// a step), from the score maximiser; writes equilibrium.csv (default
    /// folder results/flip7-equilibrium_TIES/).
    #[arg(long, value_name = "STEPS", requires = "game", conflicts_with = "field",
          value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub equilibrium: Option<u16>,

    /// With --game: players at the table, 2 or 3. At 3, the chance to win
    /// of the field against two of itself, from every triple of totals
    /// (ties at the top split; a field that plays one round at every
    /// total), written for the totals of every --step.
    #[arg(long, value_name = "N", default_value_t = 2, requires = "game",
          value_parser = clap::value_parser!(u8).range(2..=3))]
    pub players: u8,

    /// With --game --players 3: write the totals 0, STEP, 2 STEP, ...
    /// (1 to 50; 1 writes all 4 million triples with the opponents' totals
    /// in order, about 150 MB).
    #[arg(long, value_name = "STEP", default_value_t = 5, requires = "game",
          value_parser = clap::value_parser!(u8).range(1..=50))]
    pub step: u8,

    /// With --game: the total that ends the game (10 to 1000; the rules'
    /// 200), to study shorter or longer games.
    #[arg(long, value_name = "N", default_value_t = 200, requires = "game",
          value_parser = clap::value_parser!(u16).range(10..=1000))]
    pub target: u16,

    /// With --game --players 3: also the exact best response to two
    /// players of the field (about 8 minutes on 2 cores).
    #[arg(long, requires = "game")]
    pub best_response: bool,
}

/// CSV bytes of `header` and `rows`, every row ending with the
/// [`RUN_COLUMNS`] as every CSV does: `seed` empty (the values are exact,
/// no seed plays into them) and the `sim_version` that wrote them.
fn exact_csv(header: &[&str], rows: Vec<Vec<String>>) -> Result<Vec<u8>, String> {
    let header: Vec<String> = header.iter().copied().chain(RUN_COLUMNS).map(String::from).collect();
    let stamp = [String::new(), SIM_VERSION.to_string()];
    let rows: Vec<Vec<String>> = rows
        .into_iter()
        .map(|r| r.into_iter().chain(stamp.iter().cloned()).collect())
        .collect();
    csv_bytes(&header, &rows)
}

/// Runs `sim flip7 solve`.
pub fn run(args: &SolveArgs) -> Result<Option<Exhibit>, Failure> {
    if args.best_response && args.players != 3 {
        return Err(Failure::Usage(
            "--best-response goes with --players 3 (at two players the best response is always solved)".into(),
        ));
    }
    if args.equilibrium.is_some() && args.players == 3 {
        return Err(Failure::Usage("--equilibrium plays two players; leave out --players 3".into()));
    }
    if args.equilibrium.is_some() {
        run_equilibrium(args).map(|()| None)
    } else if args.game && args.players == 3 {
        run_trio(args).map(|()| None)
    } else if args.game {
        run_game(args).map(Some)
    } else {
        run_round(args).map(|()| None).map_err(Failure::from)
    }
}

/// Runs `sim flip7 solve` without `--game`: the solo round.
fn run_round(args: &SolveArgs) -> Result<(), String> {
    use crate::engine::output::Output;
    let without = args.without.unwrap_or_default();
    let deck = if without == Without::default() {
        "full deck".to_string()
    } else {
        format!("deck without {}", without.label())
    };
    let dir = args.out.clone().unwrap_or_else(|| {
        let mut name = "flip7-solve".to_string();
        if without != Without::default() {
            name.push_str(&format!("_without-{}", without.label()));
        }
        std::path::PathBuf::from("results").join(name)
    });
    if dir.as_os_str() == "-" || dir.is_file() {
        return Err(format!(
            "--out '{}' must be a folder (solve writes thresholds.csv and decisions.csv into it)",
            dir.display()
        ));
    }
    let thresholds_out = Output::prepare(&dir.join("thresholds.csv"), "--out")?;
    let decisions_out = Output::prepare(&dir.join("decisions.csv"), "--out")?;

    let comp = composition(1, without);
    let started = std::time::Instant::now();
    let optimum = solve::optimal(&comp).map_err(|e| format!("--without {}: {e}", without.label()))?;
    let mut thresholds = vec![vec!["optimal".to_string(), format!("{:.6}", optimum.optimal)]];
    let ns: Vec<u16> = (0..=60).collect();
    let values = solve::thresholds(&comp, &ns)?;
    let mut best = (0u16, f64::MIN);
    for (&n, &v) in ns.iter().zip(&values) {
        if v > best.1 {
            best = (n, v);
        }
        thresholds.push(vec![format!("stay-at-{n}"), format!("{v:.6}")]);
    }
    let mut decisions = Vec::new();
    for mask in 1usize..(1 << 13) {
        let cards = mask.count_ones();
        if cards >= FLIP7_CARDS {
            continue;
        }
        let numbers: Vec<String> = (0..=12)
            .filter(|n| mask & (1 << n) != 0)
            .map(|n: usize| n.to_string())
            .collect();
        let sum: usize = (0..=12).filter(|n| mask & (1 << n) != 0).sum();
        let decision = if optimum.hit[mask] { "hit" } else { "stay" };
        decisions.push(vec![
            numbers.join(" "),
            cards.to_string(),
            sum.to_string(),
            decision.to_string(),
            format!("{:.6}", optimum.value[mask]),
        ]);
    }
    let thresholds = exact_csv(&["rule", "expected_round_score"], thresholds)?;
    let decisions = exact_csv(
        &["numbers", "cards", "sum", "decision", "expected_round_score"],
        decisions,
    )?;
    // Both files or, when one cannot be written, neither (nor the folder).
    crate::engine::output::commit_all(vec![(thresholds_out, &thresholds), (decisions_out, &decisions)])?;
    let text = format!(
        "exact solo round, fresh {deck}: optimal rule {:.4}; best threshold stay-at-{} {:.4} \
         ({} states, {:.1} s)\nwrote {}\nwrote {}\n",
        optimum.optimal,
        best.0,
        best.1,
        optimum.states,
        started.elapsed().as_secs_f64(),
        dir.join("thresholds.csv").display(),
        dir.join("decisions.csv").display()
    );
    crate::engine::show::print(text.as_bytes())
}

/// The number cards of `--without`, or the usage error of a deck with
/// more.
fn number_deck(without: Without) -> Result<(super::game_solve::NumberDeck, [u8; super::cards::KINDS]), Failure> {
    let comp = composition(1, without);
    let deck = super::game_solve::NumberDeck::new(&comp).map_err(|_| {
        let given = if without == Without::default() { "the full deck".to_string() } else { format!("--without {}", without.label()) };
        Failure::Usage(format!(
            "--game with {given}: the game is solved for the number cards only so far; give --without actions,modifiers"
        ))
    })?;
    Ok((deck, comp))
}

/// The field's policy (`--field`, checked that the model can play it),
/// whether its rounds change with the totals, and its name for a folder.
fn field_policy(args: &SolveArgs) -> Result<(super::policies::Policy, bool, String), Failure> {
    use super::game_solve::Field;
    use crate::engine::strategies::{Library, cwd};
    let spec = args.field.trim();
    let usage = |e: String| Failure::Usage(format!("--field {spec}: {e}"));
    let library = Library::new(&cwd()?, None)?;
    let policy = library.resolve_policy::<super::Flip7>(spec).map_err(usage)?.policy;
    let per_cell = Field::solvable(&policy).map_err(usage)?;
    let name = spec.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    Ok((policy, per_cell, name))
}

/// The default folder's ending for a target other than the rules' 200.
fn to_target(args: &SolveArgs) -> String {
    if args.target == 200 { String::new() } else { format!("_to-{}", args.target) }
}

/// The folder `--out` names, or `results/NAME`; refused when it is a file.
fn game_dir(args: &SolveArgs, name: String, file: &str) -> Result<std::path::PathBuf, Failure> {
    let dir = args.out.clone().unwrap_or_else(|| std::path::PathBuf::from("results").join(name));
    if dir.as_os_str() == "-" || dir.is_file() {
        return Err(Failure::Usage(format!(
            "--out '{}' must be a folder (solve --game writes {file} into it)",
            dir.display()
        )));
    }
    Ok(dir)
}

/// Runs `sim flip7 solve --game`: the two grids of the model, as one CSV
/// row per pair of totals, the figures from 0-0, and the page with the
/// map of the best response's stance.
fn run_game(args: &SolveArgs) -> Result<Exhibit, Failure> {
    use super::game_solve::{Field, best_among, best_response, duel, rounds_to_target};
    use crate::engine::output::Output;
    let target = usize::from(args.target);
    let (deck, comp) = number_deck(args.without.unwrap_or_default())?;
    let field_spec = args.field.trim();
    let usage = |e: String| Failure::Usage(format!("--field {field_spec}: {e}"));
    let (policy, _, field_name) = field_policy(args)?;
    let dir = game_dir(args, format!("flip7-game_{field_name}_{}{}", args.ties.word(), to_target(args)), "game.csv")?;
    let out = Output::prepare(&dir.join("game.csv"), "--out")?;
    let page = Output::prepare(&dir.join("report.html"), "--out")?;
    let chart_files = (
        Output::prepare(&dir.join("stance.svg"), "--out")?,
        Output::prepare(&dir.join("stance.png"), "--out")?,
    );
    let started = std::time::Instant::now();
    let field = Field::of(&policy, &deck, &comp, target).map_err(usage)?;
    let pick = |own: usize, other: usize| field.at(own, other);
    let fair = duel(target, args.ties, &pick, &pick);
    let br = best_response(&deck, target, args.ties, &pick);
    // The best response that may only switch between thresholds: which
    // part of the exact best response's edge a stay-at-N chosen by the
    // totals already takes (the full deck's best response is sought
    // among such rules).
    let stays: Vec<_> = (0..=deck.max_score()).map(|n| deck.round(|m| usize::from(deck.sum(m)) < n)).collect();
    let switching = best_among(&stays, target, args.ties, &pick);
    let mut rows = Vec::with_capacity(target * target);
    for a in 0..target {
        for b in 0..target {
            let round = &br.rounds[a * target + b];
            let (bust, mean) = (round.bust, round.mean());
            rows.push(vec![
                a.to_string(),
                b.to_string(),
                format!("{:.10}", fair.at(a, b)),
                format!("{:.10}", br.grid.at(a, b)),
                format!("{bust:.10}"),
                format!("{mean:.6}"),
                format!("{:.6}", field.at(a, b).mean()),
                format!("{:.10}", switching.grid.at(a, b)),
                switching.choice[a * target + b].to_string(),
            ]);
        }
    }
    let header = [
        "own_total",
        "opponent_total",
        "field_win",
        "best_response_win",
        "best_response_bust",
        "best_response_round_score",
        "field_round_score",
        "threshold_response_win",
        "threshold_response_stay_at",
    ];
    let bytes = exact_csv(&header, rows)?;
    let (w0, b0) = (fair.at(0, 0), br.grid.at(0, 0));
    let model = format!(
        "exact two-player game, independent rounds from a fresh deck of number cards, ties at the top {}",
        args.ties.said()
    );
    let t0 = switching.grid.at(0, 0);
    let lines = [
        format!("from 0-0: the field against itself wins {w0:.4}; the best response to it wins {b0:.4} ({:+.2} points)", 100.0 * (b0 - w0)),
        format!("alone, the field needs {:.4} rounds on average to reach {target}", rounds_to_target(target, field.at(0, 0))),
        format!(
            "a stay-at-N chosen by the totals wins {t0:.4} from 0-0 ({:+.2} points, {:.1}% of the best response's edge)",
            100.0 * (t0 - w0),
            100.0 * (t0 - w0) / (b0 - w0)
        ),
    ];
    let stance: Vec<f64> = (0..target * target).map(|i| br.rounds[i].bust - field.at(i / target, i % target).bust).collect();
    let files = ["game.csv", "report.html", "stance.svg", "stance.png"];
    let wrote: String = files.iter().map(|f| format!("wrote {}\n", dir.join(f).display())).collect();
    let text = format!(
        "{model}; field {field_spec}\n{}\n{}\n{}\n({} pairs of totals, {:.1} s)\n{wrote}",
        lines[0],
        lines[1],
        lines[2],
        target * target,
        started.elapsed().as_secs_f64(),
    );
    Ok(Exhibit {
        files: vec![(out, bytes)],
        title: format!("Flip 7 solved: the best response to {field_spec}"),
        run_line: model.clone(),
        summary: vec![
            format!("field: {field_spec}"),
            lines[0].clone(),
            lines[1].clone(),
            lines[2].clone(),
            "The map: how much more often the best response's round busts than the field's, at each pair of \
             totals (blue: it takes more risk, as when behind near the end; orange: less, as when ahead). \
             game.csv has every value."
                .to_string(),
        ],
        surfaces: vec![Surface {
            title: "the best response's stance: its bust chance less the field's".into(),
            run_line: format!("{model}; field {field_spec}"),
            rows: "own total".into(),
            cols: "opponent's total".into(),
            side: target,
            block: 4,
            values: stance,
            legend: [
                "each block: the best response's chance to bust in its round, less the field's, over 4 x 4 pairs of totals"
                    .into(),
                "riskier".into(),
                "safer".into(),
            ],
            files: chart_files,
        }],
        page,
        command: crate::engine::job::command_line(&std::env::args().skip(1).collect::<Vec<_>>()),
        text,
    })
}

/// Runs `sim flip7 solve --game --equilibrium STEPS`: fictitious play in
/// the two-player model, step by step, the last pair's exact equilibrium,
/// and equilibrium.csv.
fn run_equilibrium(args: &SolveArgs) -> Result<(), Failure> {
    let steps = usize::from(args.equilibrium.unwrap_or(1));
    use super::game_equilibrium::{fictitious_play, pair_equilibrium};
    use super::game_solve::duel;
    use crate::engine::output::Output;
    use crate::engine::show::print;
    let target = usize::from(args.target);
    let (deck, _) = number_deck(args.without.unwrap_or_default())?;
    let dir = game_dir(args, format!("flip7-equilibrium_{}{}", args.ties.word(), to_target(args)), "equilibrium.csv")?;
    let out = Output::prepare(&dir.join("equilibrium.csv"), "--out")?;
    let started = std::time::Instant::now();
    print(
        format!(
            "fictitious play in the two-player model (independent rounds, number cards, ties at the top {}), \
             {steps} steps from the score maximiser, each adding the best response to the field:\n",
            args.ties.said()
        )
        .as_bytes(),
    )?;
    let mut shown = Ok(());
    let played = fictitious_play(&deck, target, args.ties, steps, |k, w| {
        if shown.is_ok() {
            let field = if k == 0 { "the score maximiser".to_string() } else { format!("the average of {} rounds", k + 1) };
            shown = print(format!("  step {k:>3}: the best response to {field} wins {w:.4} from 0-0\n").as_bytes());
        }
    });
    shown?;
    let pick = |own: usize, other: usize| &played.field[own * target + other];
    let fair = duel(target, args.ties, &pick, &pick);
    let last = pair_equilibrium(&deck, target, &fair.win, (target - 1, target - 1));
    let mut rows = Vec::with_capacity(target * target);
    for a in 0..target {
        for b in 0..target {
            let (f, r) = (&played.field[a * target + b], &played.best.rounds[a * target + b]);
            rows.push(vec![
                a.to_string(),
                b.to_string(),
                format!("{:.10}", fair.at(a, b)),
                format!("{:.10}", f.bust),
                format!("{:.6}", f.mean()),
                format!("{:.10}", played.best.grid.at(a, b)),
                format!("{:.10}", r.bust),
                format!("{:.6}", r.mean()),
            ]);
        }
    }
    let header = [
        "own_total",
        "opponent_total",
        "field_win",
        "field_bust",
        "field_round_score",
        "best_response_win",
        "best_response_bust",
        "best_response_round_score",
    ];
    let bytes = exact_csv(&header, rows)?;
    crate::engine::output::commit_all(vec![(out, &bytes)])?;
    let last_word = played.worth.last().copied().unwrap_or(0.5);
    let text = format!(
        "at an equilibrium the best response wins 0.5; after {} the field gives away {:.2} points\n\
         both at {}: the exact equilibrium of that round mixes {} round rules (certified within {:.0e}); \
         the best of them played alone guarantees {:.4}, {:.2} points below the round's value {:.4}\n\
         ({:.1} s)\nwrote {}\n",
        crate::engine::show::plural(steps as u64, "step"),
        100.0 * (last_word - 0.5),
        target - 1,
        last.mine.parts.len(),
        last.gap.max(1e-15),
        last.best_pure,
        100.0 * (last.value - last.best_pure),
        last.value,
        started.elapsed().as_secs_f64(),
        dir.join("equilibrium.csv").display()
    );
    Ok(print(text.as_bytes())?)
}

/// Runs `sim flip7 solve --game --players 3`: the field against two of
/// itself, every triple of totals, written at every `--step`.
fn run_trio(args: &SolveArgs) -> Result<(), Failure> {
    use super::game_solve::{Field, rounds_to_target, trio};
    use crate::engine::output::Output;
    let target = usize::from(args.target);
    let (deck, comp) = number_deck(args.without.unwrap_or_default())?;
    if args.ties == Ties::PlayOn {
        return Err(Failure::Usage(
            "--players 3 with --ties play-on: three players are solved with ties at the top split so far \
             (give --ties split)"
                .into(),
        ));
    }
    let field_spec = args.field.trim();
    let usage = |e: String| Failure::Usage(format!("--field {field_spec}: {e}"));
    let (policy, per_cell, field_name) = field_policy(args)?;
    if per_cell {
        return Err(usage(
            "at three players the field plays one round at every total (stay-at-N, stay-at-numbers-N, cards-N, \
             bust-prob:P, ev, optimal-round); this one's rounds change with the totals"
                .into(),
        ));
    }
    let dir = game_dir(args, format!("flip7-game3_{field_name}_split{}", to_target(args)), "game.csv")?;
    let out = Output::prepare(&dir.join("game.csv"), "--out")?;
    let started = std::time::Instant::now();
    let field = Field::of(&policy, &deck, &comp, target).map_err(usage)?;
    let round = field.at(0, 0);
    let w = trio(target, round);
    let at = |a: usize, b: usize, c: usize| w[(a * target + b) * target + c];
    let br = args.best_response.then(|| super::game_trio::best_response3(&deck, target, round));
    let step = usize::from(args.step);
    let mut rows = Vec::new();
    for a in (0..target).step_by(step) {
        for b in (0..target).step_by(step) {
            for c in (b..target).step_by(step) {
                let mut row = vec![a.to_string(), b.to_string(), c.to_string(), format!("{:.10}", at(a, b, c))];
                if let Some(br) = &br {
                    let i = (a * target + b) * target + c;
                    row.extend([format!("{:.10}", br.win[i]), format!("{:.10}", br.bust[i])]);
                }
                rows.push(row);
            }
        }
    }
    let mut header = vec!["own_total", "first_opponent_total", "second_opponent_total", "field_win"];
    if br.is_some() {
        header.extend(["best_response_win", "best_response_bust"]);
    }
    let bytes = exact_csv(&header, rows)?;
    let (lead, half) = (18.min(target - 1), target / 2);
    let responded = br.as_ref().map_or(String::new(), |br| {
        let w0 = br.at(0, 0, 0);
        format!(
            "the best response to two of it wins {w0:.4} from 0-0-0 ({:+.2} points over a third)\n",
            100.0 * (w0 - 1.0 / 3.0)
        )
    });
    crate::engine::output::commit_all(vec![(out, &bytes)])?;
    let text = format!(
        "exact three-player game, independent rounds from a fresh deck of number cards, ties at the top split; field {field_spec}\n\
         from 0-0-0: each wins {:.4}; a round's lead ({lead}-0-0) wins {:.4}; level at {half} with one player at 0 ({half}-{half}-0): {:.4}\n\
         {responded}alone, the field needs {:.4} rounds on average to reach {target}\n\
         ({} triples of totals, {:.1} s; written every {step})\nwrote {}\n",
        at(0, 0, 0),
        at(lead, 0, 0),
        at(half, half, 0),
        rounds_to_target(target, round),
        target * target * target,
        started.elapsed().as_secs_f64(),
        dir.join("game.csv").display()
    );
    Ok(crate::engine::show::print(text.as_bytes())?)
}
