//! `sim play GAME`: a person plays one game against the bots, in the
//! terminal or from a script on standard input.
//!
//! The options are read and every one checked, and the trace's file
//! prepared, before the first card is dealt. The game itself is the
//! game's own ([`Game::play`]) over a [`Session`]; this module seats the
//! bots, writes the trace's first line (the run's definition, as `sim GAME
//! --trace --trace-format json` writes it), and saves the trace when the
//! game ends, when the person quits (`q`, the end of input) and on Ctrl-C.

use std::cell::RefCell;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, FromArgMatches};

use crate::engine::advise::Budget;
use crate::engine::args::{parse_count, parse_seed, whole_in};
use crate::engine::console::{Console, Hint, Quit, Session, Shared};
use crate::engine::failure::{Failure, Usage};
use crate::engine::game::Game;
use crate::engine::output::Output;
use crate::engine::show::plural;
use crate::engine::strategies::{Library, cwd, empty_in_list};

/// The options of `sim play GAME`, beside the game's table options `O`.
#[derive(Args, Debug, Clone)]
pub struct VersusArgs<O: Args> {
    /// The table (the game's options, as `sim GAME` takes them).
    #[command(flatten)]
    pub table: O,

    /// Your seat (0 is the first; seat 0 deals the first round where the
    /// game has a dealer).
    #[arg(long, default_value_t = 0, value_parser = whole_in::<u16>(0..=u16::MAX))]
    pub seat: u16,

    /// The bots: one spec (or strategy name) for every other seat, or a
    /// comma-separated list with one per other seat, in seat order
    /// (default: the game's strongest strategy that answers at once).
    #[arg(long, value_name = "SPEC,...")]
    pub bots: Option<String>,

    /// Seed of the deal (default: a new one each time, shown at the start).
    #[arg(long, value_parser = parse_seed, allow_hyphen_values = true)]
    pub seed: Option<u64>,

    /// Before each of your decisions, show `sim advise`'s answer (its move
    /// and each move's chance to win); after the game, review the decisions
    /// where your move and the advice differed.
    #[arg(long)]
    pub hint: bool,

    /// Most playouts of each move for --hint (K and M accepted; the search
    /// stops earlier once the best move is separated, and after 5 seconds).
    #[arg(long, value_name = "N", value_parser = parse_count, default_value = "20K", requires = "hint")]
    pub budget: u64,

    /// Where the game's JSON trace is saved (default:
    /// sim-play-GAME-SEED.jsonl in the current folder).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,

    /// Milliseconds to wait after each bot's move (default: 400 on a
    /// terminal, 0 otherwise).
    #[arg(long, value_name = "MS", value_parser = whole_in::<u32>(0..=10_000))]
    pub pause: Option<u32>,

    /// A folder of strategy files (GAME-NAME.toml) for --bots.
    #[arg(long, value_name = "DIR")]
    pub strategies: Option<PathBuf>,
}

/// The longest a hint searches.
const HINT_TIME: Duration = Duration::from_secs(5);

/// Runs `sim play G`.
pub fn run<G: Game>(args: &VersusArgs<G::Options>) -> Result<(), Failure> {
    let players = G::players(&args.table);
    let seat = usize::from(args.seat);
    if seat >= players {
        return Err(Failure::Usage(format!(
            "--seat {seat}: the table has {} (seats 0 to {})",
            plural(players as u64, "player"),
            players - 1
        )));
    }
    let library = Library::new(&cwd()?, args.strategies.as_deref()).usage()?;
    let (seats, names) = seat_bots::<G>(&library, args.bots.as_deref(), players, seat)?;
    let sim = G::simulation(&args.table, &seats).map_err(|e| Failure::Usage(format!("--bots: {e}")))?;
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let path = args
        .save
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("sim-play-{}-{seed}.jsonl", G::NAME)));
    if path.as_os_str() == "-" {
        return Err(Failure::Usage(
            "--save -: the trace is saved to a file (standard output shows the game)".into(),
        ));
    }
    Output::prepare(&path, "--save").usage()?;
    let hint = match args.hint {
        true => Some(hint::<G>(&library, args.budget, seed)?),
        false => None,
    };
    let trace = Shared::default();
    write_run_line::<G>(&trace, &args.table, &names, seed, G::run_notes(&sim))?;
    save_on_interrupt(trace.clone(), path.clone());
    let console = Console::stdio(args.pause.map(|ms| Duration::from_millis(ms.into())));
    console.say(&intro::<G>(players, seat, &names, seed, &path, args.hint));
    let session = RefCell::new(Session::new(console, seat, names.clone(), trace.clone(), hint));
    let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        G::play(&session, &args.table, &seats, seed)
    }));
    let session = session.into_inner();
    let (closing, quit) = match played {
        Ok(Ok(closing)) => (closing, None),
        Ok(Err(e)) => return Err(Failure::Run(e)),
        Err(payload) => match payload.downcast::<Quit>() {
            Ok(q) => (format!("{}: the game is left unfinished.", q.said()), Some(*q)),
            Err(other) => std::panic::resume_unwind(other),
        },
    };
    let saved = save(&trace, &path).map_err(Failure::Run)?;
    if quit == Some(Quit::Closed) {
        return Ok(());
    }
    let c = &session.console;
    c.say(&format!("{closing}\n"));
    c.say(&session.review());
    let lines = plural(saved as u64, "line");
    let shown = path.display();
    let mut said = format!("the trace ({lines}) is saved to {shown}; ask about any decision in it:");
    if said.chars().count() > 80 {
        said = format!("the trace ({lines}) is saved to {shown};\nask about any decision in it:");
    }
    c.say(&format!(
        "{said}\n  sim advise {} --trace {shown} --at LINE\n",
        G::NAME
    ));
    Ok(())
}

/// The policy of every seat (the person's seat holds the first bot's,
/// never asked) and the name each seat is shown by.
fn seat_bots<G: Game>(
    library: &Library,
    bots: Option<&str>,
    players: usize,
    seat: usize,
) -> Result<(Vec<G::Policy>, Vec<String>), Failure> {
    let text = bots.unwrap_or(G::PLAY_BOTS);
    let words: Vec<&str> = text.split(',').map(str::trim).collect();
    if words.iter().any(|w| w.is_empty()) {
        return Err(Failure::Usage(empty_in_list("--bots", text)));
    }
    let others = players - 1;
    if others == 0 && bots.is_some() {
        return Err(Failure::Usage(format!(
            "--bots {text}: you are alone at the table (give --players 2 or more for bots)"
        )));
    }
    if words.len() != 1 && words.len() != others {
        return Err(Failure::Usage(format!(
            "--bots {text}: {} given; give one for every other seat, or one per other seat ({others})",
            words.len()
        )));
    }
    let mut resolved = Vec::with_capacity(words.len());
    for w in &words {
        let r = library
            .resolve_policy::<G>(w)
            .map_err(|e| Failure::Usage(format!("--bots {w}: {e}")))?;
        resolved.push(r);
    }
    let mut seats = Vec::with_capacity(players);
    let mut names = Vec::with_capacity(players);
    let mut next = 0;
    for s in 0..players {
        if s == seat {
            seats.push(resolved[0].policy.clone());
            names.push("you".to_string());
        } else {
            let r = &resolved[next.min(resolved.len() - 1)];
            seats.push(r.policy.clone());
            names.push(r.label.clone());
            next += 1;
        }
    }
    Ok((seats, names))
}

/// The hint: `sim advise G`'s default model and no position flag.
fn hint<G: Game>(library: &Library, playouts: u64, seed: u64) -> Result<Hint<G>, Failure> {
    if !G::ADVISES {
        return Err(Failure::Usage(format!(
            "--hint: sim advise does not know {} positions",
            G::NAME
        )));
    }
    let model = library
        .resolve_policy::<G>(G::ADVISE_MODEL)
        .map_err(|e| Failure::Run(format!("internal: the advice's model {}: {e}", G::ADVISE_MODEL)))?
        .policy;
    let cmd = G::advise_flags(crate::studies::advise::AdviseArgs::augment_args(
        clap::Command::new(G::NAME),
    ));
    let flags = cmd
        .try_get_matches_from([G::NAME])
        .map_err(|e| Failure::Run(format!("internal: sim advise {}: {e}", G::NAME)))?;
    crate::studies::advise::AdviseArgs::from_arg_matches(&flags)
        .map_err(|e| Failure::Run(format!("internal: sim advise {}: {e}", G::NAME)))?;
    Ok(Hint {
        model,
        budget: Budget {
            playouts,
            time: Some(HINT_TIME),
            seed,
        },
        flags,
    })
}

/// A seed of its own for a game without `--seed`.
fn fresh_seed() -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    crate::engine::rng::splitmix64(now ^ u64::from(std::process::id()).rotate_left(32)) % 1_000_000_000
}

/// The trace's first line: the run's definition, as `sim GAME --trace
/// --trace-format json` writes it for one game (the person's seat named
/// `you`, its policy `person`), with the game's run notes ([`Game::run_notes`]).
fn write_run_line<G: Game>(
    trace: &Shared,
    table: &G::Options,
    names: &[String],
    seed: u64,
    notes: serde_json::Map<String, serde_json::Value>,
) -> Result<(), Failure> {
    use std::io::Write;
    let table =
        serde_json::to_value(table).map_err(|e| Failure::Run(format!("internal: the table options: {e}")))?;
    let policies: Vec<&str> = names
        .iter()
        .map(|n| if n == "you" { "person" } else { n })
        .collect();
    let mut head = serde_json::json!({
        "event": "run",
        "command": G::NAME,
        "players": names.len(),
        "seats": names,
        "policies": policies,
        "variants": [],
        "table": table,
        "games": 1,
        "seed": seed.to_string(),
        "played_by": "sim play",
        "sim_version": crate::engine::version::SIM_VERSION,
    });
    if let Some(h) = head.as_object_mut() {
        h.extend(notes);
    }
    writeln!(trace.clone(), "{head}").map_err(|e| Failure::Run(e.to_string()))
}

/// What the person is told before the first card.
fn intro<G: Game>(
    players: usize,
    seat: usize,
    names: &[String],
    seed: u64,
    path: &std::path::Path,
    hint: bool,
) -> String {
    let bots: Vec<String> = (0..players)
        .filter(|&s| s != seat)
        .map(|s| format!("seat {s} {}", names[s]))
        .collect();
    let table = if bots.is_empty() {
        format!("you play alone at seat {seat}")
    } else {
        format!(
            "you are seat {seat} of {players}; {}",
            crate::engine::console::or_list(&bots).replace(" or ", " and ")
        )
    };
    let hint = if hint {
        "The advice (--hint) comes before each of your moves.\n"
    } else {
        ""
    };
    // Many bots with long names wrap within the columns.
    let first = format!("sim play {}: {table}.", G::NAME);
    let words: Vec<String> = first.split(' ').map(str::to_string).collect();
    let first = match crate::engine::console::columns(&first) > crate::engine::console::WIDTH {
        true => crate::engine::console::wrapped(&words, "", " ").join("\n"),
        false => first,
    };
    format!(
        "{first}\nseed {seed} (--seed {seed} deals this game again); the trace goes to\n  {}\n{hint}\
         Type a move's key and Enter; q quits (the game so far is saved).\n\n",
        path.display()
    )
}

/// Saves the trace's whole lines to `path`; returns how many.
fn save(trace: &Shared, path: &std::path::Path) -> Result<usize, String> {
    let mut bytes = trace.bytes();
    let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    bytes.truncate(whole);
    let lines = bytes.iter().filter(|&&b| b == b'\n').count();
    Output::prepare(path, "--save")?.commit(&bytes)?;
    Ok(lines)
}

/// On Ctrl-C (or SIGTERM): the game so far saved, and the process ended.
fn save_on_interrupt(trace: Shared, path: PathBuf) {
    let _ = ctrlc::set_handler(move || {
        let said = match save(&trace, &path) {
            Ok(n) => format!(
                "the game so far ({}) is saved to {}",
                plural(n as u64, "line"),
                path.display()
            ),
            Err(e) => format!("the trace could not be saved: {e}"),
        };
        eprintln!("\ninterrupted: {said}");
        std::process::exit(130);
    });
}
