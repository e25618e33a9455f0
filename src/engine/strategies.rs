//! Named strategies: small TOML files that give a policy spec a name.
//!
//! A strategy file `<game>-<name>.toml` holds three keys:
//!
//! ```toml
//! game = "flip-flush"
//! policy = "call-at:0.6+flip-safe+place-build"
//! description = "Calls only on good odds; otherwise builds and flips safely."
//! ```
//!
//! `game` and `policy` are required strings, `description` is an optional
//! string, and any other key is an error. The files are read with the
//! `toml` crate (any TOML that gives those keys is accepted; a leading
//! UTF-8 byte-order mark is skipped). Every error names the file, the line
//! where one applies, and what was expected, e.g.
//! `strategies/flip7-x.toml:3: unknown key 'colour'; expected game, policy or description`.
//!
//! A strategy is found through a [`Library`] of layers, lowest precedence
//! first:
//!
//! 1. built in: the repository's `strategies/*.toml`, compiled into the
//!    binary by `build.rs`, so an installed `sim` has them in any folder;
//! 2. `strategies/` of the current folder;
//! 3. the folder named by the environment variable `SIM_STRATEGIES`;
//! 4. the folder given by `--strategies DIR`.
//!
//! A file of a later layer overrides one of the same file name in an
//! earlier layer. [`Library::resolve`] turns a `--policy` word into a
//! parsed policy of any game: a path ending in `.toml`, else a spec the
//! game understands, else a strategy name.

use std::collections::BTreeMap;
use std::fmt;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use super::game::Game;

mod built_in {
    include!(concat!(env!("OUT_DIR"), "/built_in_strategies.rs"));
}

/// The strategy files built into the binary: file name and contents.
pub fn built_in() -> &'static [(&'static str, &'static str)] {
    built_in::BUILT_IN
}

/// Where a strategy file came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Built into the binary; the file name, e.g. `flip7-counter.toml`.
    BuiltIn(&'static str),
    /// A file, its path as shown to the user (relative to the current
    /// folder where it was found there).
    File(PathBuf),
}

impl Origin {
    /// The file as a path: `strategies/NAME` for a built-in one.
    pub fn file(&self) -> String {
        match self {
            Origin::BuiltIn(name) => format!("strategies/{name}"),
            Origin::File(path) => path.display().to_string(),
        }
    }

    /// How errors name the file: the path, or `built-in strategies/NAME`.
    fn label(&self) -> String {
        match self {
            Origin::BuiltIn(_) => format!("built-in {}", self.file()),
            Origin::File(_) => self.file(),
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::BuiltIn(_) => write!(f, "built in: {}", self.file()),
            Origin::File(_) => write!(f, "{}", self.file()),
        }
    }
}

/// A strategy file, read and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strategy {
    /// Where it came from.
    pub origin: Origin,
    /// The `game` key.
    pub game: String,
    /// The `policy` key: a spec string of that game (or, in a line-up, a
    /// comma-separated list of them).
    pub policy: String,
    /// Line of the `policy` key (1-based), for errors about the spec.
    pub policy_line: usize,
    /// The `description` key (empty when absent).
    pub description: String,
}

/// Where a resolved policy came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A spec string given on the command line.
    Spec,
    /// A strategy file.
    File(Strategy),
}

/// A `--policy` word turned into a policy of some game.
#[derive(Clone, Debug, PartialEq)]
pub struct Resolved<T> {
    /// The parsed policy.
    pub policy: T,
    /// The word as given (a spec, a strategy name, or a path).
    pub label: String,
    /// Where the spec came from.
    pub source: Source,
}

/// The file name of strategy `name` of `game`: `<game>-<name>.toml`.
pub fn file_name(game: &str, name: &str) -> String {
    format!("{game}-{name}.toml")
}

/// A folder layer of a [`Library`].
#[derive(Clone, Debug)]
struct Folder {
    /// The folder as shown (relative to the current folder, or absolute).
    shown: PathBuf,
    /// What named it: `the current folder`, `SIM_STRATEGIES`, `--strategies`.
    from: &'static str,
}

/// Where strategies come from: the built-in files, then folders, each
/// overriding the files of the same name before it (see the module doc).
#[derive(Clone, Debug)]
pub struct Library {
    /// The current folder: relative paths are read from here.
    cwd: PathBuf,
    /// Whether the built-in files are the lowest layer.
    built_in: bool,
    /// Folder layers, lowest precedence first.
    folders: Vec<Folder>,
}

/// A strategy file found in a library, not yet parsed.
struct Found {
    origin: Origin,
    text: Result<String, String>,
}

impl Found {
    fn built_in(file: &'static str, text: &'static str) -> Found {
        Found {
            origin: Origin::BuiltIn(file),
            text: Ok(text.to_string()),
        }
    }

    fn parse(&self, game: &str) -> Result<Strategy, String> {
        let text = self.text.as_ref().map_err(Clone::clone)?;
        parse_strategy(text, self.origin.clone(), game)
    }
}

impl Library {
    /// The library of a run in `cwd`: built-in files, `cwd/strategies/`,
    /// the folder of the environment variable `SIM_STRATEGIES` (when set
    /// and not empty) and the folder of `--strategies`. A folder named by
    /// the variable or the flag must exist.
    pub fn new(cwd: &Path, strategies_flag: Option<&Path>) -> Result<Library, String> {
        let env = std::env::var_os("SIM_STRATEGIES")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from);
        Library::with_layers(cwd, true, env.as_deref(), strategies_flag)
    }

    /// A library from explicit layers, reading no environment variable:
    /// the built-in files when `built_in`, `cwd/strategies/`, then
    /// `env_folder` (as if given by `SIM_STRATEGIES`) and `flag_folder` (as
    /// if given by `--strategies`). Relative folders are taken from `cwd`.
    pub fn with_layers(
        cwd: &Path,
        built_in: bool,
        env_folder: Option<&Path>,
        flag_folder: Option<&Path>,
    ) -> Result<Library, String> {
        let mut folders = vec![Folder {
            shown: PathBuf::from("strategies"),
            from: "the current folder",
        }];
        for (dir, from) in [(env_folder, "SIM_STRATEGIES"), (flag_folder, "--strategies")] {
            let Some(dir) = dir else { continue };
            if !cwd.join(dir).is_dir() {
                let given = dir.display();
                return Err(match from {
                    "SIM_STRATEGIES" => format!(
                        "SIM_STRATEGIES='{given}' is not a folder; expected the path of a folder of \
                         <game>-<name>.toml strategy files (or leave it unset)"
                    ),
                    _ => format!(
                        "--strategies '{given}' is not a folder; expected the path of a folder of \
                         <game>-<name>.toml strategy files"
                    ),
                });
            }
            folders.push(Folder {
                shown: dir.to_path_buf(),
                from,
            });
        }
        Ok(Library {
            cwd: cwd.to_path_buf(),
            built_in,
            folders,
        })
    }

    /// Every strategy of `game` in every layer, sorted by name, after
    /// overrides: the name and the file read and checked (or why it could
    /// not be).
    pub fn list(&self, game: &str) -> Vec<(String, Result<Strategy, String>)> {
        let prefix = format!("{game}-");
        let name_of = |file: &str| -> Option<String> {
            let name = file.strip_prefix(&prefix)?.strip_suffix(".toml")?;
            valid_name(name).then(|| name.to_string())
        };
        let mut found: BTreeMap<String, Found> = BTreeMap::new();
        if self.built_in {
            for &(file, text) in built_in() {
                if let Some(name) = name_of(file) {
                    found.insert(name, Found::built_in(file, text));
                }
            }
        }
        for folder in &self.folders {
            let entries = std::fs::read_dir(self.cwd.join(&folder.shown));
            for entry in entries.into_iter().flatten().flatten() {
                let Ok(file) = entry.file_name().into_string() else {
                    continue;
                };
                let Some(name) = name_of(&file) else { continue };
                if entry.path().is_file() {
                    found.insert(name, self.read(folder.shown.join(&file)));
                }
            }
        }
        found
            .into_iter()
            .map(|(name, f)| {
                let strategy = f.parse(game);
                (name, strategy)
            })
            .collect()
    }

    /// Resolves one `--policy` word of `game`, in this order:
    ///
    /// 1. a word ending in `.toml` is a path to a strategy file (relative
    ///    to the current folder);
    /// 2. otherwise `parse(word)`: a spec or a built-in name of the game;
    /// 3. otherwise the strategy `<game>-<word>.toml` of the highest layer
    ///    that has it.
    ///
    /// When nothing matches, the error is `parse`'s, followed by where the
    /// strategy file was looked for. Errors about a file name the file,
    /// and where it applies the line.
    pub fn resolve<T>(
        &self,
        game: &str,
        word: &str,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Result<Resolved<T>, String> {
        let word = word.trim();
        let found = if word.ends_with(".toml") {
            self.path(word)?
        } else {
            let parse_error = match parse(word) {
                Ok(policy) => {
                    return Ok(Resolved {
                        policy,
                        label: word.to_string(),
                        source: Source::Spec,
                    });
                }
                Err(e) => e,
            };
            match self.find(game, word) {
                Some(found) => found,
                None => {
                    return Err(format!(
                        "{parse_error}; or a strategy name ({}), or a path to a .toml strategy file",
                        self.not_found(game, word)
                    ));
                }
            }
        };
        let strategy = found.parse(game)?;
        let policy = parse(&strategy.policy).map_err(|e| {
            format!(
                "{}:{}: the policy spec is not valid: {e}",
                strategy.origin.label(),
                strategy.policy_line
            )
        })?;
        Ok(Resolved {
            policy,
            label: word.to_string(),
            source: Source::File(strategy),
        })
    }

    /// [`Library::resolve`] for game `G`, where a spec may also name a
    /// strategy where it expects a rule (`max-win:balanced`,
    /// `ismcts:10+playout:counter`): a strategy of one part (`stay-at-25`)
    /// stands for it; one of several parts does where the spec takes a
    /// whole spec there (its catalogue's `KEY:SPEC`, the last part), and is
    /// refused otherwise with the rule it stands for: `'saboteur' is the
    /// strategy stay-at-25+... (strategies/flip7-saboteur.toml): write
    /// max-win:stay-at-25`.
    pub fn resolve_policy<G: Game>(&self, word: &str) -> Result<Resolved<G::Policy>, String> {
        let refused = match self.resolve(G::NAME, word, G::parse_policy) {
            Ok(r) => return Ok(r),
            Err(e) => e,
        };
        let word = word.trim();
        let parts: Vec<&str> = word.split('+').collect();
        for (i, part) in parts.iter().map(|p| p.trim()).enumerate() {
            let Some((key, name)) = part.rsplit_once(':') else {
                continue;
            };
            let Some(strategy) = self.find(G::NAME, name).and_then(|f| f.parse(G::NAME).ok()) else {
                continue;
            };
            if strategy.policy.contains(',') {
                continue;
            }
            let key = key.rsplit(':').next().unwrap_or(key);
            let whole = G::CATALOGUE
                .iter()
                .flat_map(|(_, docs)| docs.iter())
                .any(|d| d.spec.ends_with(&format!("{key}:SPEC")));
            let several = strategy.policy.contains('+');
            let with = |policy: &str| {
                let mut spelt: Vec<String> = parts.iter().map(|p| p.to_string()).collect();
                spelt[i] = format!("{}{policy}", &part[..part.len() - name.len()]);
                spelt.join("+")
            };
            let stands = format!(
                "'{name}' is the strategy {} ({})",
                strategy.policy,
                strategy.origin.file()
            );
            if !several || (whole && i + 1 == parts.len()) {
                // A spec wrong with the strategy's text too is refused for
                // what is wrong with it as given, unless that was the name
                // (`max-win:winner`, a strategy no model may be).
                let about_name = refused.contains(&format!("'{name}'"));
                let policy = G::parse_policy(&with(&strategy.policy)).map_err(|e| match about_name {
                    true => format!("{stands}: {e}"),
                    false => refused,
                })?;
                return Ok(Resolved {
                    policy,
                    label: word.to_string(),
                    source: Source::Spec,
                });
            }
            let rule = with(strategy.policy.split('+').next().unwrap_or_default());
            if G::parse_policy(&rule).is_ok() {
                return Err(format!("{stands}: write {rule}"));
            }
        }
        Err(refused)
    }

    /// The line-up file `name_or_path` of `game` (for `sim tournament
    /// --lineup`): a path ending in `.toml` (relative to the current
    /// folder) or a strategy name, whose policy is a comma-separated list
    /// of specs or strategy names. The list itself is not checked here.
    pub fn lineup(&self, game: &str, name_or_path: &str) -> Result<Strategy, String> {
        let word = name_or_path.trim();
        let found = if word.ends_with(".toml") {
            self.path(word)?
        } else {
            self.find(game, word).ok_or_else(|| {
                format!(
                    "no line-up named '{word}' ({}); expected a strategy name or a path to a .toml file",
                    self.not_found(game, word)
                )
            })?
        };
        found.parse(game)
    }

    /// Reads `shown` (relative to the current folder, or absolute).
    fn read(&self, shown: PathBuf) -> Found {
        let text =
            read_text(&self.cwd.join(&shown)).map_err(|e| format!("cannot read '{}': {e}", shown.display()));
        Found {
            origin: Origin::File(shown),
            text,
        }
    }

    /// The strategy file at path `word`, which must exist.
    fn path(&self, word: &str) -> Result<Found, String> {
        if !self.cwd.join(word).is_file() {
            return Err(format!("strategy file '{word}' not found"));
        }
        Ok(self.read(PathBuf::from(word)))
    }

    /// Strategy `name` of `game` from the highest layer that has it.
    fn find(&self, game: &str, name: &str) -> Option<Found> {
        if !valid_name(name) {
            return None;
        }
        let file = file_name(game, name);
        for folder in self.folders.iter().rev() {
            let shown = folder.shown.join(&file);
            match std::fs::metadata(self.cwd.join(&shown)) {
                Ok(m) if m.is_file() => return Some(self.read(shown)),
                Ok(_) => {}
                Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {}
                // A folder that cannot be looked into (no permission): say
                // so, rather than that there is no such strategy.
                Err(e) => {
                    let text = Err(format!(
                        "cannot look for '{}' ({}): {e}",
                        shown.display(),
                        folder.from
                    ));
                    return Some(Found {
                        origin: Origin::File(shown),
                        text,
                    });
                }
            }
        }
        if !self.built_in {
            return None;
        }
        built_in()
            .iter()
            .find(|(f, _)| *f == file)
            .map(|&(f, text)| Found::built_in(f, text))
    }

    /// Where strategy `name` of `game` was looked for, e.g. `no
    /// strategies/flip7-x.toml built in or in the current folder, nor
    /// /my/dir/flip7-x.toml (SIM_STRATEGIES)`.
    fn not_found(&self, game: &str, name: &str) -> String {
        let file = file_name(game, name);
        let mut text = match self.built_in {
            true => format!("no strategies/{file} built in or in the current folder"),
            false => format!("no strategies/{file} in the current folder"),
        };
        for folder in &self.folders[1..] {
            text += &format!(", nor {} ({})", folder.shown.join(&file).display(), folder.from);
        }
        text
    }
}

/// Whether `word` can name a strategy file: letters, digits, `-` and `_`.
fn valid_name(word: &str) -> bool {
    !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The text of a file.
fn read_text(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| e.to_string())
}

/// Reads and checks a strategy file of `game` at `path`.
pub fn load(path: &Path, game: &str) -> Result<Strategy, String> {
    let text = read_text(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    parse_strategy(&text, Origin::File(path.to_path_buf()), game)
}

/// The keys of a strategy file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StrategyFile {
    game: Option<Spanned<String>>,
    policy: Option<Spanned<String>>,
    description: Option<String>,
}

/// Parses the text of a strategy file of `game` (`origin` labels errors).
pub fn parse_strategy(text: &str, origin: Origin, game: &str) -> Result<Strategy, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let shown = origin.label();
    let line_of = |offset: usize| {
        let before = &text.as_bytes()[..offset.min(text.len())];
        1 + before.iter().filter(|&&b| b == b'\n').count()
    };
    let file: StrategyFile = toml::from_str(text).map_err(|e| {
        let found = e.span().and_then(|span| text.get(span)).unwrap_or("");
        let what = toml_message(e.message(), found);
        match e.span() {
            Some(span) => format!("{shown}:{}: {what}", line_of(span.start)),
            None => format!("{shown}: {what}"),
        }
    })?;
    let Some(file_game) = file.game else {
        return Err(format!(
            "{shown}: missing the key 'game' (expected game = \"{game}\")"
        ));
    };
    let game_line = line_of(file_game.span().start);
    let file_game = file_game.into_inner();
    if file_game != game {
        return Err(format!(
            "{shown}:{game_line}: expected game = \"{game}\", found \"{file_game}\""
        ));
    }
    let Some(policy) = file.policy else {
        return Err(format!(
            "{shown}: missing the key 'policy' (expected policy = \"<spec>\")"
        ));
    };
    Ok(Strategy {
        origin,
        game: file_game,
        policy_line: line_of(policy.span().start),
        policy: policy.into_inner(),
        description: file.description.unwrap_or_default(),
    })
}

/// toml's message on one line, with the wording of an unknown key, a
/// duplicate key and an unquoted value made plainer (`found` is the text
/// the error points at).
fn toml_message(message: &str, found: &str) -> String {
    let one_line = message
        .trim()
        .split('\n')
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("; ");
    let found = found.trim();
    let shown = (!found.is_empty() && !found.contains('\n')).then_some(found);
    if let Some(rest) = one_line.strip_prefix("unknown field `")
        && let Some((key, _)) = rest.split_once('`')
    {
        return format!("unknown key '{key}'; expected game, policy or description");
    }
    match (one_line.as_str(), shown) {
        ("duplicate key", Some(key)) => {
            let key = key.trim_matches(|c| c == '"' || c == '\'');
            format!("the key '{key}' is given twice; expected each key once")
        }
        (m, Some(value)) if m.starts_with("string values must be quoted") => {
            format!("expected a quoted string after '=', found {value} (write \"{value}\")")
        }
        _ => one_line,
    }
}

/// The current folder, where strategy folders and `.toml` paths are read.
pub fn cwd() -> Result<PathBuf, String> {
    std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))
}

/// Resolves a comma-separated list of policy words of game `G` (specs,
/// strategy names, `.toml` paths) in `library`. `flag` names the option in
/// errors.
pub fn resolve_policies<G: Game>(
    text: &str,
    library: &Library,
    flag: &str,
) -> Result<Vec<Resolved<G::Policy>>, String> {
    text.split(',')
        .map(|word| {
            if word.trim().is_empty() {
                return Err(empty_in_list(flag, text));
            }
            library.resolve_policy::<G>(word).map_err(|e| {
                let word = word.trim();
                // A line-up file is for tournaments: say so.
                match library.lineup(G::NAME, word) {
                    Ok(s) if s.policy.contains(',') => format!(
                        "{flag} '{word}' is a line-up of {} policies ({}), for tournaments: \
                         use sim tournament {} --lineup {word}, or give {flag} one spec per seat",
                        s.policy.split(',').count(),
                        s.origin.file(),
                        G::NAME
                    ),
                    // The flag's prefix quotes the word: a game's message
                    // that quotes it again says it once.
                    _ => {
                        let e = e.strip_prefix(&format!("'{word}': ")).unwrap_or(&e);
                        let e = e.replacen(&format!("unknown policy '{word}'"), "unknown policy", 1);
                        let e = e.replacen(&format!(" in '{word}'"), "", 1);
                        format!("{flag} '{word}': {e}")
                    }
                }
            })
        })
        .collect()
}

/// The refusal of a comma-separated list of policies `text` (given with
/// `flag`) with an empty entry, as a stray comma makes.
pub fn empty_in_list(flag: &str, text: &str) -> String {
    format!(
        "{flag} '{text}' has an empty entry (a comma too many?); give specs, strategy names or .toml \
         paths separated by single commas"
    )
}

/// Adds to the summary, once per policy, what a strategy name or a label
/// stands for and the file it came from.
pub fn describe_sources<T: std::fmt::Display>(resolved: &[Resolved<T>], summary: &mut Vec<u8>) {
    use std::io::Write as _;
    let mut listed: Vec<&str> = Vec::new();
    for r in resolved {
        if listed.contains(&r.label.as_str()) {
            continue;
        }
        listed.push(&r.label);
        let from = match &r.source {
            Source::Spec => String::new(),
            Source::File(s) => match &s.origin {
                Origin::BuiltIn(_) => format!(" (built in: {})", s.origin.file()),
                Origin::File(_) => format!(" (from {})", s.origin.file()),
            },
        };
        if r.policy.to_string() != r.label || !from.is_empty() {
            let _ = writeln!(summary, "policy {} = {}{from}", r.label, r.policy);
        }
    }
}

/// The simulation of `lineup` (one policy for every seat, or one per
/// seat), or its refusal. A refusal that one of the `given` policies
/// causes alone, where the table itself is fine (a `+target:SEAT` past the
/// last seat), names where that policy came from, its text first:
/// `(--field 'ev+target:5', policy)` gives `--field 'ev+target:5': seat 5
/// is not at the table (...)`.
pub fn simulation_of<G: Game>(
    opts: &G::Options,
    lineup: &[G::Policy],
    given: &[(String, &G::Policy)],
) -> Result<G::Sim, String> {
    let e = match G::simulation(opts, lineup) {
        Ok(sim) => return Ok(sim),
        Err(e) => e,
    };
    let alone = |p: &G::Policy| G::simulation(opts, std::slice::from_ref(p)).err();
    let table_refused = G::parse_policy(G::DEFAULT_POLICY).map_or(true, |d| alone(&d).is_some());
    if table_refused {
        return Err(e);
    }
    for (from, policy) in given {
        if let Some(e) = alone(policy) {
            // The prefix quotes the policy: a message that quotes it again
            // says it once.
            let shown = format!("'{policy}': ");
            let e = match e.strip_prefix(&shown) {
                Some(rest) if from.ends_with(&format!("'{policy}'")) => rest.to_string(),
                _ => e,
            };
            return Err(format!("{from}: {e}"));
        }
    }
    Err(e)
}

/// One policy per seat from a `--policy` list that names one for every
/// seat or exactly one per seat.
pub fn seat_policies<P: Clone>(policies: &[P], players: usize) -> Result<Vec<P>, String> {
    match policies.len() {
        1 => Ok(vec![policies[0].clone(); players]),
        n if n == players => Ok(policies.to_vec()),
        n => Err(format!(
            "--policy lists {n} specs but --players is {players}; give one spec for every seat, or exactly {players}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Strategy, String> {
        parse_strategy(text, Origin::File(PathBuf::from("s.toml")), "g")
    }

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn strategy(policy: &str) -> String {
        format!("game = \"g\"\npolicy = \"{policy}\"\n")
    }

    #[test]
    fn reads_keys_comments_and_both_string_kinds() {
        let s = parse(
            "# a strategy\n\ngame = \"g\"\npolicy = 'a+b' # the spec\ndescription = \"say \\\"hi\\\"\"\n",
        )
        .unwrap();
        assert_eq!(s.game, "g");
        assert_eq!(s.policy, "a+b");
        assert_eq!(s.policy_line, 4);
        assert_eq!(s.description, "say \"hi\"");
        assert_eq!(s.origin, Origin::File(PathBuf::from("s.toml")));
        let s = parse("policy = \"x\"\ngame = \"g\"").unwrap();
        assert_eq!((s.description.as_str(), s.policy_line), ("", 1));
        // Any TOML that gives the keys: a multi-line string, CRLF lines.
        let s = parse("game = \"g\"\r\n\r\ndescription = \"\"\"\ntwo\nlines\"\"\"\r\npolicy = \"p\"\r\n")
            .unwrap();
        assert_eq!((s.description.as_str(), s.policy_line), ("two\nlines", 6));
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let s = parse("\u{feff}game = \"g\"\npolicy = \"x\"\n").unwrap();
        assert_eq!((s.game.as_str(), s.policy_line), ("g", 2));
        let e = parse("\u{feff}game = \"g\"\ncolour = \"red\"\n").unwrap_err();
        assert!(e.starts_with("s.toml:2: unknown key 'colour'"), "{e}");
    }

    #[test]
    fn malformed_files_name_the_file_line_and_expectation() {
        let cases = [
            (
                "game = \"g\"\npolicy = x\n",
                "s.toml:2: expected a quoted string after '=', found x (write \"x\")",
                "",
            ),
            ("game = \"g\"\npolicy = \"x\n", "s.toml:2: ", "expected"),
            (
                "game = \"g\"\n[table]\n",
                "s.toml:2: ",
                "expected game, policy or description",
            ),
            ("game = \"g\"\nnope\n", "s.toml:2: ", "expected"),
            (
                "game = \"g\"\ncolour = \"red\"\n",
                "s.toml:2: unknown key 'colour'; expected game, policy or description",
                "",
            ),
            (
                "game = \"g\"\ngame = \"g\"\n",
                "s.toml:2: the key 'game' is given twice",
                "",
            ),
            (
                "game = \"h\"\npolicy = \"x\"\n",
                "s.toml:1: expected game = \"g\", found \"h\"",
                "",
            ),
            ("game = 7\npolicy = \"x\"\n", "s.toml:1: ", "expected a string"),
            (
                "policy = \"x\"\n",
                "s.toml: missing the key 'game' (expected game = \"g\")",
                "",
            ),
            (
                "game = \"g\"\n",
                "s.toml: missing the key 'policy' (expected policy = \"<spec>\")",
                "",
            ),
            ("game = \"g\" x\n", "s.toml:1: ", "expected"),
            ("game = \"\\q\"\n", "s.toml:1: ", "escape"),
        ];
        for (text, start, contains) in cases {
            let err = parse(text).unwrap_err();
            assert!(
                err.starts_with(start) && err.contains(contains),
                "{text:?}: {err}"
            );
            assert!(!err.contains('\n'), "{text:?}: {err}");
        }
    }

    #[test]
    fn every_built_in_strategy_parses() {
        assert!(built_in().len() >= 10, "{:?}", built_in().len());
        // The registered games' names (the longest that prefixes a file
        // name is its game: `flip-flush-x` is not a `flip` file).
        struct Names(Vec<&'static str>);
        impl crate::engine::game::Visitor for Names {
            fn visit<G: crate::engine::game::Game>(&mut self) {
                self.0.push(G::NAME);
            }
        }
        let mut names = Names(Vec::new());
        crate::games::each(&mut names);
        for &(file, text) in built_in() {
            let game = names
                .0
                .iter()
                .copied()
                .filter(|g| file.strip_prefix(g).is_some_and(|r| r.starts_with('-')))
                .max_by_key(|g| g.len())
                .unwrap_or_else(|| panic!("{file}: of which game?"));
            let s = parse_strategy(text, Origin::BuiltIn(file), game).unwrap();
            assert!(!s.policy.is_empty() && !s.description.is_empty(), "{file}");
        }
        let lib = Library::with_layers(Path::new("/nonexistent-sim-dir"), true, None, None).unwrap();
        let listed = lib.list("flip7");
        assert!(listed.iter().any(|(n, _)| n == "counter"));
        for (name, s) in &listed {
            let s = s.as_ref().unwrap();
            assert_eq!(
                s.origin,
                Origin::BuiltIn(
                    built_in()
                        .iter()
                        .find(|f| f.0 == file_name("flip7", name))
                        .unwrap()
                        .0
                )
            );
        }
        let s = &listed.iter().find(|(n, _)| n == "counter").unwrap().1;
        assert_eq!(
            s.as_ref().unwrap().origin.to_string(),
            "built in: strategies/flip7-counter.toml"
        );
    }

    #[test]
    fn later_layers_override_earlier_ones_by_file_name() {
        let cwd = tempfile::tempdir().unwrap();
        let env = tempfile::tempdir().unwrap();
        let flag = tempfile::tempdir().unwrap();
        let cwd_dir = cwd.path().join("strategies");
        // counter: built in, overridden by the current folder, then the
        // variable's folder, then the flag's.
        write(
            &cwd_dir.join("flip7-counter.toml"),
            "game = \"flip7\"\npolicy = \"cwd\"\n",
        );
        write(
            &env.path().join("flip7-counter.toml"),
            "game = \"flip7\"\npolicy = \"env\"\n",
        );
        write(
            &flag.path().join("flip7-counter.toml"),
            "game = \"flip7\"\npolicy = \"flag\"\n",
        );
        write(
            &env.path().join("flip7-cautious.toml"),
            "game = \"flip7\"\npolicy = \"env\"\n",
        );
        write(
            &cwd_dir.join("flip7-mine.toml"),
            "game = \"flip7\"\npolicy = \"cwd\"\n",
        );
        write(
            &env.path().join("flip7-mine.toml"),
            "game = \"flip7\"\npolicy = \"env\"\n",
        );
        write(
            &cwd_dir.join("flip7-own.toml"),
            "game = \"flip7\"\npolicy = \"cwd\"\n",
        );
        write(
            &flag.path().join("flip-flush-own.toml"),
            "game = \"flip-flush\"\npolicy = \"flag\"\n",
        );
        write(
            &flag.path().join("flip7-bad name.toml"),
            "game = \"flip7\"\npolicy = \"flag\"\n",
        );
        let lib = |built_in, env_dir: Option<&Path>, flag_dir: Option<&Path>| {
            Library::with_layers(cwd.path(), built_in, env_dir, flag_dir).unwrap()
        };

        let all = lib(true, Some(env.path()), Some(flag.path()));
        let spec_of = |lib: &Library, name: &str| {
            lib.resolve("flip7", name, |s| match s {
                "cwd" | "env" | "flag" | "bust-prob:0.3" | "cautious" => Ok(s.to_string()),
                _ => Err(format!("unknown policy '{s}'")),
            })
        };
        // Names resolve through the layers; "cautious" is also a spec.
        assert_eq!(spec_of(&all, "counter").unwrap().policy, "flag");
        assert_eq!(spec_of(&all, "mine").unwrap().policy, "env");
        assert_eq!(spec_of(&all, "own").unwrap().policy, "cwd");
        let r = spec_of(&all, "cautious").unwrap();
        assert_eq!((r.policy.as_str(), r.source), ("cautious", Source::Spec));

        let listed = |lib: &Library| -> Vec<(String, String, String)> {
            lib.list("flip7")
                .into_iter()
                .map(|(n, s)| {
                    let s = s.unwrap();
                    (n, s.policy, s.origin.to_string())
                })
                .collect()
        };
        let shown = |dir: &Path, file: &str| dir.join(file).display().to_string();
        let full = listed(&all);
        let get = |name: &str| full.iter().find(|(n, ..)| n == name).unwrap().clone();
        assert_eq!(get("counter").1, "flag");
        assert_eq!(get("counter").2, shown(flag.path(), "flip7-counter.toml"));
        assert_eq!(get("cautious").1, "env");
        assert_eq!(get("mine").2, shown(env.path(), "flip7-mine.toml"));
        assert_eq!(get("own").2, "strategies/flip7-own.toml");
        assert!(
            get("balanced")
                .2
                .starts_with("built in: strategies/flip7-balanced.toml")
        );
        assert!(full.windows(2).all(|w| w[0].0 < w[1].0), "sorted by name");
        assert!(!full.iter().any(|(n, ..)| n == "bad name"), "not a name");

        // Without the flag's folder the variable's wins; without both the
        // current folder's; without any built-ins only files are listed.
        assert_eq!(
            spec_of(&lib(true, Some(env.path()), None), "counter")
                .unwrap()
                .policy,
            "env"
        );
        let cwd_only = lib(false, None, None);
        assert_eq!(spec_of(&cwd_only, "counter").unwrap().policy, "cwd");
        let names: Vec<String> = listed(&cwd_only).into_iter().map(|x| x.0).collect();
        assert_eq!(names, ["counter", "mine", "own"]);
        let builtin_only = Library::with_layers(env.path(), true, None, None).unwrap();
        let r = spec_of(&builtin_only, "counter").unwrap();
        assert_eq!(r.policy, "bust-prob:0.3");
        assert!(matches!(r.source, Source::File(ref s) if s.origin == Origin::BuiltIn("flip7-counter.toml")));

        // Where a name was looked for.
        let e = spec_of(&all, "wild").unwrap_err();
        assert!(e.starts_with("unknown policy 'wild'; or a strategy name (no strategies/flip7-wild.toml built in or in the current folder, nor "), "{e}");
        assert!(
            e.contains("(SIM_STRATEGIES)")
                && e.contains("(--strategies)")
                && e.ends_with("or a path to a .toml strategy file"),
            "{e}"
        );

        // A folder that does not exist is refused, naming where it came from.
        let missing = cwd.path().join("nope");
        let e = Library::with_layers(cwd.path(), true, Some(&missing), None).unwrap_err();
        assert!(
            e.starts_with("SIM_STRATEGIES='") && e.contains("nope' is not a folder; expected"),
            "{e}"
        );
        let e = Library::with_layers(cwd.path(), true, None, Some(Path::new("nope"))).unwrap_err();
        assert!(
            e.starts_with("--strategies 'nope' is not a folder; expected"),
            "{e}"
        );
        // A relative folder is taken from the current folder.
        let r = Library::with_layers(cwd.path(), false, None, Some(Path::new("strategies"))).unwrap();
        assert_eq!(spec_of(&r, "own").unwrap().policy, "cwd");
    }

    #[test]
    fn resolve_tries_path_then_spec_then_name() {
        let dir = tempfile::tempdir().unwrap();
        write(&dir.path().join("strategies/g-calm.toml"), &strategy("seven"));
        write(&dir.path().join("strategies/g-eight.toml"), &strategy("seven"));
        write(
            &dir.path().join("bad.toml"),
            "game = \"g\"\n\npolicy = \"oops\"\n",
        );
        let lib = Library::with_layers(dir.path(), false, None, None).unwrap();
        let parse = |s: &str| match s {
            "seven" => Ok(7),
            "eight" => Ok(8),
            _ => Err(format!("unknown policy '{s}'")),
        };
        let r = lib.resolve("g", "eight", parse).unwrap();
        assert_eq!((r.policy, r.label.as_str(), r.source), (8, "eight", Source::Spec));
        let r = lib.resolve("g", " calm ", parse).unwrap();
        assert_eq!((r.policy, r.label.as_str()), (7, "calm"));
        assert!(matches!(r.source, Source::File(ref s) if s.policy == "seven"
                && s.origin == Origin::File(PathBuf::from("strategies/g-calm.toml"))));
        let r = lib.resolve("g", "strategies/g-calm.toml", parse).unwrap();
        assert_eq!(r.policy, 7);
        let e = lib.resolve("g", "wild", parse).unwrap_err();
        assert_eq!(
            e,
            "unknown policy 'wild'; or a strategy name (no strategies/g-wild.toml in the current folder), \
             or a path to a .toml strategy file"
        );
        let e = lib.resolve("g", "bad.toml", parse).unwrap_err();
        assert_eq!(
            e,
            "bad.toml:3: the policy spec is not valid: unknown policy 'oops'"
        );
        let e = lib.resolve("g", "missing.toml", parse).unwrap_err();
        assert_eq!(e, "strategy file 'missing.toml' not found");
        // Names that are not plain words are never looked up as files.
        assert!(lib.resolve("g", "../x", parse).is_err());
        write(
            &dir.path().join("strategies/g-broken.toml"),
            "game = \"g\"\npolicy = ",
        );
        let e = lib.resolve("g", "broken", parse).unwrap_err();
        assert!(e.starts_with("strategies/g-broken.toml:2: "), "{e}");
    }

    #[test]
    fn lineups_come_from_names_or_paths() {
        let dir = tempfile::tempdir().unwrap();
        write(&dir.path().join("strategies/g-trio.toml"), &strategy("a, b,c"));
        write(&dir.path().join("four.toml"), &strategy("a,b,c,d"));
        let lib = Library::with_layers(dir.path(), false, None, None).unwrap();
        assert_eq!(lib.lineup("g", "trio").unwrap().policy, "a, b,c");
        assert_eq!(lib.lineup("g", "four.toml").unwrap().policy, "a,b,c,d");
        let e = lib.lineup("g", "missing").unwrap_err();
        assert!(
            e.starts_with("no line-up named 'missing' (no strategies/g-missing.toml in"),
            "{e}"
        );
        let e = lib.lineup("g", "gone.toml").unwrap_err();
        assert_eq!(e, "strategy file 'gone.toml' not found");
        let shipped = Library::with_layers(dir.path(), true, None, None).unwrap();
        let s = shipped.lineup("flip7", "shipped").unwrap();
        assert!(s.policy.split(',').count() >= 5);
        assert_eq!(s.origin, Origin::BuiltIn("flip7-shipped.toml"));
    }

    #[test]
    fn load_reads_a_file_by_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.toml");
        write(&path, &strategy("p"));
        assert_eq!(load(&path, "g").unwrap().origin, Origin::File(path.clone()));
        assert!(
            load(&dir.path().join("y.toml"), "g")
                .unwrap_err()
                .starts_with("cannot read '")
        );
    }
}
