//! The command line: built from the registry of games, so it names no
//! game. For each game `G` there are `sim G` (with the game's own actions,
//! such as `sim flip7 solve`), `sim tournament G`, `sim sweep G` and
//! `sim tune G`. This
//! file only parses and dispatches; the runs themselves live in
//! [`crate::studies`], their pages in [`crate::report`].

use crate::engine::custom::{Custom, Decision, Params};
use crate::engine::failure::Failure;
use clap::{ArgMatches, Args, Command, FromArgMatches};

use crate::engine::game::{Game, Visitor};
use crate::engine::job::{PROCESS_OPTIONS, command_line, command_path, run_words};
use crate::engine::show::print;
use crate::studies::args::{SweepArgs, TournamentArgs};
use crate::studies::run::{self, PlayArgs};
use crate::studies::tune::TuneArgs;

/// A `sim` with policies of your own: registers each, then runs the
/// whole command line, on which every command (runs, tournaments, sweeps,
/// shards and merge, `--list-policies`) then accepts them by name.
///
/// A user policy has a form, its name with any parameters after a `:`
/// joined by `/` (`leader-aware:N`), one line on what it does (shown by
/// `--list-policies`), and a maker: from the parameters of a spec it makes
/// the game's decision, a closure over the game's view of what a player
/// may know (see [`crate::engine::custom::Custom`]). A parameter refused
/// by [`Params`] gives the message a built-in spec gives.
///
/// ```no_run
/// use sim::prelude::*;
///
/// fn main() -> std::process::ExitCode {
///     Builder::new()
///         .policy::<Flip7, _>("leader-aware:N", "stay at 25, at 35 once an opponent has N points", |p| {
///             let n = p.whole("N", 0..=200)?;
///             Ok(move |v: &Flip7View| v.banked() < if v.leader_total() >= n { 35 } else { 25 })
///         })
///         .run()
/// }
/// ```
#[derive(Default)]
pub struct Builder {
    refused: Vec<String>,
}

impl Builder {
    /// A `sim` with no user policy yet.
    pub fn new() -> Builder {
        Builder::default()
    }

    /// Adds the user policy `form` (`leader-aware:N`, or a bare name) of
    /// game `G`, doing what `does` says; `make` makes its decision from a
    /// spec's [`Params`], or says why they are refused. A form that is
    /// malformed, taken twice or the name of a built-in spec makes
    /// [`Builder::run`] fail with a message saying so.
    pub fn policy<G, F>(
        mut self,
        form: &str,
        does: &str,
        make: impl Fn(&Params) -> Result<F, String> + Send + Sync + 'static,
    ) -> Builder
    where
        G: Custom,
        F: Decision<G>,
    {
        if let Err(e) = crate::engine::custom::register::<G, F, _>(form, does, make) {
            self.refused.push(e);
        }
        self
    }

    /// Runs `sim` on this process's command line; the exit code is `sim`'s
    /// (0 done, 1 a failed run, 2 a wrong command line or a refused user
    /// policy).
    pub fn run(self) -> std::process::ExitCode {
        let code = match self.run_from(std::env::args_os()) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("error: {}", e.message());
                e.code()
            }
        };
        std::process::ExitCode::from(u8::try_from(code).unwrap_or(1))
    }

    /// Runs `sim` on the command line `args` (its first word is the
    /// program's name); `--help` and `--version` print and end the process
    /// as `sim`'s do.
    pub fn run_from<I, T>(self, args: I) -> Result<(), Failure>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        if !self.refused.is_empty() {
            return Err(Failure::Usage(self.refused.join("\n")));
        }
        let matches = command().try_get_matches_from(args).unwrap_or_else(|e| e.exit());
        main_with(&matches)
    }
}

/// The whole command line of `sim`.
pub fn command() -> Command {
    negative_numbers_are_values(whole_command())
}

/// Every option that takes a value takes a negative number as one
/// (`--round-cap -1`), so that its parser says what is accepted instead
/// of clap calling the number an unexpected argument; in `cmd` and every
/// command below it.
fn negative_numbers_are_values(cmd: Command) -> Command {
    let subs: Vec<String> = cmd.get_subcommands().map(|s| s.get_name().to_string()).collect();
    let mut cmd = cmd.mut_args(|a| {
        if a.get_action().takes_values() {
            a.allow_negative_numbers(true)
        } else {
            a
        }
    });
    for name in subs {
        cmd = cmd.mut_subcommand(name, negative_numbers_are_values);
    }
    cmd
}

/// The command line before [`negative_numbers_are_values`].
fn whole_command() -> Command {
    let mut b = Build::default();
    crate::games::each(&mut b);
    Command::new("sim")
        .version(crate::engine::version::SIM_VERSION)
        .propagate_version(true)
        .about("Monte Carlo strategy simulator for the Flip family of card games.")
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommands(b.games)
        .subcommand(advise_command(b.advisers))
        .subcommand(play_command(b.players))
        .subcommand(tournament_command(b.tournaments))
        .subcommand(completions_command())
        .subcommand(man_command())
        .subcommand(merge_command())
        .subcommand(report_command())
        .subcommand(sweep_command(b.sweeps))
        .subcommand(tune_command(b.tunes))
}

/// `sim play`, with every game a person can play (`games`).
fn play_command(games: Vec<Command>) -> Command {
    Command::new("play")
        .about(
            "Play a game against the bots in the terminal (or from a script on standard input), \
             with sim advise's hints if you like; the game's trace is saved.",
        )
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommands(games)
}

/// `sim advise`, with the advice of every game that has it (`games`).
fn advise_command(games: Vec<Command>) -> Command {
    Command::new("advise")
        .about(
            "Advice on one position: every legal move with its chance to win (by playouts with \
             common random numbers, 95% intervals) and the game's exact figures, and the move to play.",
        )
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommands(games)
}

/// `sim tournament`, with the tournament of every game (`games`).
fn tournament_command(games: Vec<Command>) -> Command {
    Command::new("tournament")
        .about(
            "Tournament: policies play every seat on the same deals; standings, \
             head-to-head table, ratings, charts.",
        )
        .long_about(
            "Tournament: every entrant plays every seat, on the same deals in every seat \
             arrangement (common random numbers). Writes standings.csv (one row per \
             entrant: win rate with its 95% interval, score, round score, a Bradley-Terry \
             rating), pairwise.csv (one row per ordered pair: head-to-head share, its test \
             against 50%, Holm-corrected), the standings chart and, with --xlsx, a \
             workbook. Standard errors count each deal, with all its arrangements, as one \
             independent unit.",
        )
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommands(games)
}

/// `sim completions SHELL`.
fn completions_command() -> Command {
    Command::new("completions")
        .about("Prints a shell completion script, e.g. sim completions bash > ~/.local/share/bash-completion/completions/sim")
        .arg(
            clap::Arg::new("shell")
                .required(true)
                .value_parser(clap::value_parser!(clap_complete::Shell))
                .help("The shell: bash, zsh, fish, elvish or powershell"),
        )
}

/// `sim man [--out DIR]`.
fn man_command() -> Command {
    Command::new("man")
        .about("Prints the man page of sim (roff), or with --out DIR writes one page per command")
        .arg(
            clap::Arg::new("out")
                .long("out")
                .value_name("DIR")
                .value_parser(clap::value_parser!(std::path::PathBuf))
                .help("Folder for sim.1, sim-flip7.1, sim-tournament-flip7.1, ..."),
        )
}

/// `sim merge STATE...`.
fn merge_command() -> Command {
    Command::new("merge")
        .about(
            "Adds up the state files of a run's shards (--shard K/N --state PATH) and writes \
             the run's files: the same bytes one process playing the whole run writes.",
        )
        .arg(
            clap::Arg::new("states")
                .value_name("STATE")
                .required(true)
                .num_args(1..)
                .value_parser(clap::value_parser!(std::path::PathBuf))
                .help("The state files, one per shard, in any order"),
        )
        .args(summary_args())
        .after_help(
            "The state files are kept: they are the shards' results.\n\n\
             Example:\n  for k in 1 2 3 4; do sim flip7 --games 10M --seed 1 --shard $k/4 --state s$k.json & done; wait\n  \
             sim merge s1.json s2.json s3.json s4.json",
        )
}

/// `sim report DIR`.
fn report_command() -> Command {
    Command::new("report")
        .about(
            "Rebuilds report.html (and the charts) of a finished tournament or sweep from the \
             files in its folder (its CSVs and study.json), also after sim merge: the same \
             bytes the run wrote.",
        )
        .arg(
            clap::Arg::new("dir")
                .value_name("DIR")
                .required(true)
                .value_parser(clap::value_parser!(std::path::PathBuf))
                .help("The study's folder (the --out of sim tournament or sim sweep)"),
        )
        .arg(
            clap::Arg::new("no-charts")
                .long("no-charts")
                .action(clap::ArgAction::SetTrue)
                .help("Rebuild report.html only, not the SVG and PNG charts"),
        )
        .args(summary_args())
        .after_help(
            "Example:\n  sim tournament GAME --policies A,B --seed 1 --out t --no-report\n  sim report t",
        )
}

/// `sim sweep`, with the sweep of every game (`games`).
fn sweep_command(games: Vec<Command>) -> Command {
    Command::new("sweep")
        .about(
            "Sweep: one run per value of a policy parameter, e.g. --policy \
             'stay-at-{10..40}'; CSV and charts.",
        )
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommands(games)
}

/// `sim tune`, with the tuning of every game (`games`).
fn tune_command(games: Vec<Command>) -> Command {
    Command::new("tune")
        .about(
            "Tune: the best policy of a family, e.g. --policy 'stay-at-{10..40}', by a race \
             on common deals, then estimates on fresh deals; CSV and a chart.",
        )
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommands(games)
}

/// Runs the parsed command line.
pub fn main_with(m: &ArgMatches) -> Result<(), Failure> {
    match m.subcommand() {
        Some(("completions", c)) => return Ok(completions(c)?),
        Some(("man", c)) => return Ok(man_pages(c)?),
        Some(("merge", c)) => return merge(c),
        Some(("report", c)) => {
            return crate::report::study::report(&crate::report::study::ReportArgs {
                dir: c
                    .get_one::<std::path::PathBuf>("dir")
                    .cloned()
                    .unwrap_or_default(),
                no_charts: c.get_flag("no-charts"),
                show: crate::engine::show::ShowArgs {
                    json: c.get_flag("json"),
                    quiet: c.get_flag("quiet"),
                },
            });
        }
        _ => {}
    }
    let (kind, m) = match m.subcommand() {
        Some(("advise", a)) => (Kind::Advise, a),
        Some(("play", a)) => (Kind::Versus, a),
        Some(("tournament", t)) => (Kind::Tournament, t),
        Some(("sweep", s)) => (Kind::Sweep, s),
        Some(("tune", s)) => (Kind::Tune, s),
        _ => (Kind::Play, m),
    };
    let Some((name, args)) = m.subcommand() else {
        return Err(Failure::Usage("no game given; see sim --help".into()));
    };
    // `--resume STATE` alone: the rest of the command line is the state's.
    let rebuilt;
    let args = match args.try_get_many::<std::path::PathBuf>("resume") {
        Ok(Some(mut states)) => match states.next() {
            Some(first) => {
                rebuilt = resumed_command(kind, name, args, first)?;
                &rebuilt
            }
            None => args,
        },
        _ => args,
    };
    let mut d = Dispatch {
        kind,
        name,
        args,
        result: None,
    };
    crate::games::each(&mut d);
    d.result
        .unwrap_or_else(|| Err(Failure::Usage(format!("unknown game '{name}'"))))
}

/// The subcommands of every game, gathered from the registry.
#[derive(Default)]
struct Build {
    games: Vec<Command>,
    tournaments: Vec<Command>,
    sweeps: Vec<Command>,
    tunes: Vec<Command>,
    advisers: Vec<Command>,
    players: Vec<Command>,
}

impl Visitor for Build {
    fn visit<G: Game>(&mut self) {
        let name = G::NAME;
        let policy = G::DEFAULT_POLICY;
        // The about text is set after the arguments: clap's derive would
        // otherwise put the arguments struct's doc comment there.
        let mut play = PlayArgs::<G::Options>::augment_args(Command::new(name))
            .about(G::ABOUT)
            .mut_arg("policy", |a| a.help(G::POLICY_HELP).default_value(policy))
            .after_help(format!(
                "Examples:\n  sim {name} --games 1M --seed 1\n  sim {name} --policy {policy} --players 2 --out run.csv\n  \
                 sim {name} --games 3 --trace\n  sim {name} --list-policies"
            ));
        let actions = G::actions();
        if !actions.is_empty() {
            play = play.args_conflicts_with_subcommands(true).subcommands(actions);
        }
        self.games.push(play);
        if G::ADVISES {
            let advise = crate::studies::advise::AdviseArgs::augment_args(Command::new(name))
                .mut_arg("budget", |a| a.default_value(G::ADVISE_BUDGET));
            self.advisers.push(
                G::advise_flags(advise)
                    .about(format!("Advice on one position of {name}: every legal move's chance to win."))
                    .after_help(format!(
                        "Example:\n  sim {name} --games 1 --seed 1 --trace --trace-format json > game.jsonl\n  \
                         sim advise {name} --trace game.jsonl"
                    )),
            );
        }
        if G::PLAYS {
            let bots = G::PLAY_BOTS;
            self.players.push(
                crate::studies::versus::VersusArgs::<G::Options>::augment_args(Command::new(name))
                    .about(format!(
                        "Play {name} against the bots (they play {bots} unless --bots says otherwise)."
                    ))
                    .after_help(format!(
                        "Examples:\n  sim play {name}\n  sim play {name} --hint --seed 7\n  \
                         printf 'h\\ns\\n' | sim play {name} --seed 1   (moves from a script)"
                    )),
            );
        }
        let tournament = TournamentArgs::<G::Options>::augment_args(Command::new(name));
        let has_players = tournament.get_arguments().any(|a| a.get_id() == "players");
        let tournament = match has_players {
            true => tournament.mut_arg("players", |a| tournament_players(a, G::PLAYERS)),
            false => tournament,
        };
        self.tournaments.push(
            tournament
                .about(format!("A {name} tournament."))
                .after_help(format!(
                    "Examples:\n  sim tournament {name} --policies {policy},A,B --games 10K --seed 1\n  \
                 sim tournament {name} --lineup NAME --until-ci 0.005"
                )),
        );
        self.sweeps.push(
            SweepArgs::<G::Options>::augment_args(Command::new(name))
                .about(format!("Sweep a {name} policy parameter."))
                .after_help(format!(
                    "Example:\n  sim sweep {name} --policy '{}' --games 50K --seed 1",
                    G::SWEEP_EXAMPLE
                )),
        );
        self.tunes.push(
            TuneArgs::<G::Options>::augment_args(Command::new(name))
                .about(format!("Find the best {name} policy of a family."))
                .after_help(format!(
                    "Example:\n  sim tune {name} --policy '{}' --seed 1",
                    G::SWEEP_EXAMPLE
                )),
        );
    }
}

/// The `--players` option of a tournament: the game's help with the
/// range a tournament takes (at least 2 players, where the game itself
/// allows 1).
fn tournament_players(arg: clap::Arg, players: std::ops::RangeInclusive<usize>) -> clap::Arg {
    let (start, end) = (*players.start(), *players.end());
    let low = start.max(2);
    let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
    let game = format!("{start} to {end}");
    let help = if low == start {
        help
    } else if help.contains(&game) {
        help.replacen(&game, &format!("{low} to {end}"), 1)
    } else {
        format!("{help} (a tournament: {low} to {end})")
    };
    arg.help(help)
}

/// Which of the three commands of a game was asked for.
#[derive(Clone, Copy)]
enum Kind {
    Play,
    Advise,
    Versus,
    Tournament,
    Sweep,
    Tune,
}

/// Runs the chosen command of the game named `name`.
struct Dispatch<'a> {
    kind: Kind,
    name: &'a str,
    args: &'a ArgMatches,
    result: Option<Result<(), Failure>>,
}

impl Visitor for Dispatch<'_> {
    fn visit<G: Game>(&mut self) {
        if self.result.is_some() || self.name != G::NAME {
            return;
        }
        let m = self.args;
        let parsed = |e: clap::Error| Failure::Usage(e.to_string());
        self.result = Some(match self.kind {
            Kind::Play => match m.subcommand() {
                Some((action, args)) => G::run_action(action, args).and_then(|done| match done {
                    Some(exhibit) => crate::report::exhibit::publish(exhibit),
                    None => Ok(()),
                }),
                None => PlayArgs::<G::Options>::from_arg_matches(m)
                    .map_err(parsed)
                    .and_then(|a| play_run::<G>(&a)),
            },
            Kind::Advise => crate::studies::advise::AdviseArgs::from_arg_matches(m)
                .map_err(parsed)
                .and_then(|a| crate::studies::advise::run::<G>(&a, m)),
            Kind::Versus => crate::studies::versus::VersusArgs::<G::Options>::from_arg_matches(m)
                .map_err(parsed)
                .and_then(|a| crate::studies::versus::run::<G>(&a)),
            Kind::Tournament => TournamentArgs::<G::Options>::from_arg_matches(m)
                .map_err(parsed)
                .and_then(|a| publish(crate::studies::tournament::run::<G>(&a)?)),
            Kind::Sweep => SweepArgs::<G::Options>::from_arg_matches(m)
                .map_err(parsed)
                .and_then(|a| publish(crate::studies::sweep::run::<G>(&a)?)),
            Kind::Tune => TuneArgs::<G::Options>::from_arg_matches(m)
                .map_err(parsed)
                .and_then(|a| crate::report::tune_page::publish(crate::studies::tune::run::<G>(&a)?)),
        });
    }
}

/// `sim merge STATE...`: checks that the states are of one run and runs
/// that run's command with every state resumed and nothing left to play.
fn merge(m: &ArgMatches) -> Result<(), Failure> {
    use crate::engine::state::{State, differences};
    let paths: Vec<std::path::PathBuf> = m
        .get_many::<std::path::PathBuf>("states")
        .map(|v| v.cloned().collect())
        .unwrap_or_default();
    let states: Vec<State> = paths
        .iter()
        .map(|p| State::read(p))
        .collect::<Result<_, _>>()
        .map_err(Failure::Usage)?;
    let first = &states[0];
    for (p, s) in paths.iter().zip(&states).skip(1) {
        let diff = differences(&first.definition, &s.definition);
        if !diff.is_empty() {
            return Err(Failure::Usage(format!(
                "'{}' and '{}' are states of different runs: {}",
                paths[0].display(),
                p.display(),
                diff.join("; ")
            )));
        }
    }
    let mut argv: Vec<std::ffi::OsString> = vec!["sim".into()];
    argv.extend(
        run_words(first.command.iter().cloned())
            .into_iter()
            .map(Into::into),
    );
    for p in &paths {
        argv.push("--resume".into());
        argv.push(p.into());
    }
    argv.push("--merge-only".into());
    for flag in ["json", "quiet"] {
        if m.get_flag(flag) {
            argv.push(format!("--{flag}").into());
        }
    }
    let run = command().try_get_matches_from(argv).map_err(|e| {
        Failure::Usage(format!(
            "the command of '{}' ({}) cannot be run by this sim: {e}",
            paths[0].display(),
            first.command.join(" ")
        ))
    })?;
    main_with(&run)
}

/// The command line of the run whose state `state` is, for `sim NAME
/// --resume STATE` (`kind` says which command NAME is of): the state's own
/// command line with this process's [`PROCESS_OPTIONS`] (`--resume`,
/// `--threads`, ...) added, parsed; the matches of the game's command.
/// Every other option given (`given`) must have the state's value, else
/// the refusal names each difference.
fn resumed_command(
    kind: Kind,
    name: &str,
    given: &ArgMatches,
    state: &std::path::Path,
) -> Result<ArgMatches, Failure> {
    use crate::engine::state::State;
    let s = State::read(state).map_err(Failure::Usage)?;
    let shown = state.display();
    let path = kind_path(kind, name);
    let theirs = command_path(&s.command);
    if theirs != path.as_slice() {
        return Err(Failure::Usage(format!(
            "state file '{shown}' is of a run of `sim {}`, not of `sim {}`: go on with it with \
             sim {} --resume {shown}",
            theirs.join(" "),
            path.join(" "),
            theirs.join(" ")
        )));
    }
    let words = run_words(s.command.iter().cloned());
    let parse = |extra: &[std::ffi::OsString]| {
        let mut argv: Vec<std::ffi::OsString> = vec!["sim".into()];
        argv.extend(words.iter().map(Into::into));
        argv.extend(extra.iter().cloned());
        command().try_get_matches_from(argv).map_err(|e| {
            Failure::Usage(format!(
                "the command of state file '{shown}' ({}) cannot be run by this sim: {e}",
                command_line(&s.command)
            ))
        })
    };
    // The game's command of the parsed line, and its definition.
    let game_of = |m: ArgMatches| -> ArgMatches {
        let mut m = m;
        for word in &path {
            m = m.subcommand_matches(word).cloned().expect("the path was checked");
        }
        m
    };
    let mut def = command();
    for word in &path {
        def = def.find_subcommand(word).cloned().expect("a command of this sim");
    }
    let ours = game_of(parse(&[])?);
    let beside = Beside::new(&def, given, &ours);
    if !beside.differences.is_empty() {
        return Err(Failure::Usage(format!(
            "state file '{shown}' is of another run than the options given beside --resume; they \
             differ from the state's:\n  {}\nleave them out to go on with the state's run: sim {} \
             --resume {shown}",
            beside.differences.join("\n  "),
            path.join(" ")
        )));
    }
    Ok(game_of(parse(&beside.extra)?))
}

/// The words naming the command `name` of `kind` (`tournament flip7`).
fn kind_path(kind: Kind, name: &str) -> Vec<String> {
    match kind {
        Kind::Play => vec![name.to_string()],
        Kind::Tournament => vec!["tournament".to_string(), name.to_string()],
        Kind::Sweep => vec!["sweep".to_string(), name.to_string()],
        Kind::Tune => vec!["tune".to_string(), name.to_string()],
        Kind::Advise => vec!["advise".to_string(), name.to_string()],
        Kind::Versus => vec!["play".to_string(), name.to_string()],
    }
}

/// The options given beside `--resume STATE`: how this process takes
/// part ([`PROCESS_OPTIONS`]), passed on, and how the others differ from
/// the state's.
struct Beside {
    /// Each option whose value differs from the state's, said as the
    /// refusal says it.
    differences: Vec<String>,
    /// The [`PROCESS_OPTIONS`] given, as words to add to the state's
    /// command line.
    extra: Vec<std::ffi::OsString>,
}

impl Beside {
    /// The options of the game's command `def` given on the command line
    /// (`given`), against the state's command line parsed (`ours`).
    fn new(def: &Command, given: &ArgMatches, ours: &ArgMatches) -> Beside {
        let process = |id: &str| PROCESS_OPTIONS.iter().find(|(i, _, _)| *i == id);
        let mut differences = Vec::new();
        let mut extra: Vec<std::ffi::OsString> = Vec::new();
        for arg in def.get_arguments() {
            let id = arg.get_id().as_str();
            if given.value_source(id) != Some(clap::parser::ValueSource::CommandLine) {
                continue;
            }
            let long = arg
                .get_long()
                .map_or_else(|| id.to_string(), |l| format!("--{l}"));
            if let Some((_, _, takes_value)) = process(id) {
                // How this process takes part: passed on as given.
                if *takes_value {
                    for v in given.get_raw(id).into_iter().flatten() {
                        extra.push(long.clone().into());
                        extra.push(v.to_os_string());
                    }
                } else {
                    extra.push(long.clone().into());
                }
                continue;
            }
            if let Some(d) = difference(given, ours, id, &long) {
                differences.push(d);
            }
        }
        Beside { differences, extra }
    }
}

/// How the values given of the option `id` (named `long`; in `given`)
/// differ from the state's (in `ours`, its command line parsed), or none
/// when they are the same.
fn difference(given: &ArgMatches, ours: &ArgMatches, id: &str, long: &str) -> Option<String> {
    let given_values = raw(given, id);
    let state_values = raw(ours, id);
    let same = given_values.len() == state_values.len()
        && given_values
            .iter()
            .zip(&state_values)
            .all(|(a, b)| same_value(a, b));
    if same {
        return None;
    }
    let theirs = match ours.value_source(id) {
        Some(clap::parser::ValueSource::CommandLine) => state_values.join(" "),
        Some(_) if !state_values.is_empty() => format!("{} (the default)", state_values.join(" ")),
        _ => "(not given)".to_string(),
    };
    Some(format!(
        "{long}: the state's {theirs}, given {}",
        given_values.join(" ")
    ))
}

/// The values of `id` as written on the command line (a flag's `true` or
/// `false`), or none.
fn raw(m: &ArgMatches, id: &str) -> Vec<String> {
    m.get_raw(id)
        .into_iter()
        .flatten()
        .map(|v| v.to_string_lossy().into_owned())
        .collect()
}

/// Whether two values written for one option mean the same: the same
/// text, the same count (`2M` and `2000000`) or the same number (`0.8`
/// and `0.80`).
fn same_value(a: &str, b: &str) -> bool {
    use crate::engine::args::parse_count;
    a == b
        || matches!((parse_count(a), parse_count(b)), (Ok(x), Ok(y)) if x == y)
        || matches!((a.trim().parse::<f64>(), b.trim().parse::<f64>()), (Ok(x), Ok(y)) if x == y)
}

/// `sim completions SHELL`: the completion script on stdout.
fn completions(m: &ArgMatches) -> Result<(), String> {
    let shell = *m
        .get_one::<clap_complete::Shell>("shell")
        .ok_or("internal: no shell")?;
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command(), "sim", &mut script);
    print(&script)
}

/// `sim man`: the top-level man page on stdout, or every command's page
/// into `--out DIR` (checked first; each file written whole).
fn man_pages(m: &ArgMatches) -> Result<(), String> {
    let render = |cmd: &Command| -> Result<Vec<u8>, String> {
        let mut page = Vec::new();
        clap_mangen::Man::new(cmd.clone())
            .render(&mut page)
            .map_err(|e| format!("cannot render the man page of {}: {e}", cmd.get_name()))?;
        Ok(page)
    };
    let mut root = command();
    root.build();
    let Some(dir) = m.get_one::<std::path::PathBuf>("out") else {
        return print(&render(&root)?);
    };
    // Every command down the tree, named as man pages are: sim-tournament-flip7.
    let mut pages: Vec<(String, Command)> = Vec::new();
    let mut stack = vec![("sim".to_string(), root)];
    while let Some((name, cmd)) = stack.pop() {
        for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
            stack.push((
                format!("{name}-{}", sub.get_name()),
                sub.clone().name(format!("{name}-{}", sub.get_name())),
            ));
        }
        pages.push((name, cmd));
    }
    pages.sort_by(|a, b| a.0.cmp(&b.0));
    let outs = pages
        .iter()
        .map(|(name, _)| crate::engine::output::Output::prepare(&dir.join(format!("{name}.1")), "--out"))
        .collect::<Result<Vec<_>, _>>()?;
    let rendered = pages
        .iter()
        .map(|(_, cmd)| render(cmd))
        .collect::<Result<Vec<_>, _>>()?;
    // All the pages or, when one cannot be written, none (nor the folder).
    let written = crate::engine::output::commit_all(
        outs.into_iter().zip(rendered.iter().map(Vec::as_slice)).collect(),
    )?;
    let mut listed = String::new();
    for p in written.into_iter().flatten() {
        listed.push_str(&format!("wrote {}\n", p.display()));
    }
    print(listed.as_bytes())
}

/// `--json` and `-q/--quiet`, the summary options of `sim merge` and `sim report`.
fn summary_args() -> [clap::Arg; 2] {
    [
        clap::Arg::new("json")
            .long("json")
            .action(clap::ArgAction::SetTrue)
            .conflicts_with("quiet")
            .help("Print the summary as one JSON object on stdout instead of text"),
        clap::Arg::new("quiet")
            .short('q')
            .long("quiet")
            .action(clap::ArgAction::SetTrue)
            .help("Print no summary (errors are still shown; files are still written)"),
    ]
}

/// `sim GAME`: the plain run, then its page (when it has one) made by the
/// report layer from the run's results, then its files.
fn play_run<G: Game>(args: &PlayArgs<G::Options>) -> Result<(), Failure> {
    let Some(done) = run::play::<G>(args)? else {
        return Ok(());
    };
    let page = match &done.page {
        Some(p) => Some(crate::report::run_page::run_page(p)?.into_bytes()),
        None => None,
    };
    done.write(page)
}

/// A tournament's or sweep's pages, charts and workbook, made by the
/// report layer from the study's results, then its files (nothing for a
/// shard, which has written its state).
fn publish(done: Option<crate::studies::study::StudyDone>) -> Result<(), Failure> {
    match done {
        Some(done) => crate::report::study::publish(done),
        None => Ok(()),
    }
}
