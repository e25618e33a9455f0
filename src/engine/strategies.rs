//! Named strategies: small TOML files that give a policy spec a name.
//!
//! A strategy file `strategies/<game>-<name>.toml` holds three keys:
//!
//! ```toml
//! game = "flip-flush"
//! policy = "call-at:0.6+flip-safe+place-build"
//! description = "Calls only on good odds; otherwise builds and flips safely."
//! ```
//!
//! `game` and `policy` are required, `description` is optional, and any
//! other key is an error. Only the part of TOML these files need is read:
//! blank lines, `#` comments, and `key = "basic string"` or
//! `key = 'literal string'` on one line (basic strings know the escapes
//! `\"`, `\\`, `\n`, `\t`). Everything else is refused with the file, the
//! line and what was expected.
//!
//! [`resolve`] turns a `--policy` word into a parsed policy for any game:
//! a spec the game understands first, then a strategy name, then a path.

use std::path::{Path, PathBuf};

/// A strategy file, read and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strategy {
    /// The file it came from.
    pub path: PathBuf,
    /// The `game` key.
    pub game: String,
    /// The `policy` key: a spec string of that game.
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

/// Every strategy of `game` in `dir/strategies/`, sorted by name: the name
/// and the file read and checked (or why it could not be).
pub fn list(game: &str, dir: &Path) -> Vec<(String, Result<Strategy, String>)> {
    let folder = dir.join("strategies");
    let prefix = format!("{game}-");
    let mut found: Vec<(String, Result<Strategy, String>)> = std::fs::read_dir(&folder)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let file = entry.file_name().into_string().ok()?;
            let name = file.strip_prefix(&prefix)?.strip_suffix(".toml")?.to_string();
            let path = Path::new("strategies").join(&file);
            Some((name, load(&dir.join(&path), game)))
        })
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

/// The file name of strategy `name` of `game`: `<game>-<name>.toml`.
pub fn file_name(game: &str, name: &str) -> String {
    format!("{game}-{name}.toml")
}

/// Resolves one `--policy` word of `game`, in this order:
///
/// 1. a word ending in `.toml` is a path to a strategy file (relative to
///    `dir`);
/// 2. otherwise `parse(word)`: a spec or a built-in name of the game;
/// 3. otherwise `strategies/<game>-<word>.toml` under `dir`, if it exists.
///
/// When nothing matches, the error is `parse`'s, followed by the strategy
/// file that was looked for. Errors about a file name the file, and where
/// it applies the line.
pub fn resolve<T>(
    game: &str,
    word: &str,
    dir: &Path,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<Resolved<T>, String> {
    let word = word.trim();
    if word.ends_with(".toml") {
        if !dir.join(word).is_file() {
            return Err(format!("strategy file '{word}' not found"));
        }
        return from_file(game, word, dir, Path::new(word), parse);
    }
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
    let named = Path::new("strategies").join(file_name(game, word));
    if valid_name(word) && dir.join(&named).is_file() {
        return from_file(game, word, dir, &named, parse);
    }
    Err(format!(
        "{parse_error}; or a strategy name (no file {}), or a path to a .toml strategy file",
        named.display()
    ))
}

/// Whether `word` can name a strategy file: letters, digits, `-` and `_`.
fn valid_name(word: &str) -> bool {
    !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Loads `dir/path`; errors and [`Strategy::path`] show `path` as given.
fn from_file<T>(
    game: &str,
    label: &str,
    dir: &Path,
    path: &Path,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<Resolved<T>, String> {
    let text = std::fs::read_to_string(dir.join(path))
        .map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    let strategy = parse_strategy(&text, path, game)?;
    let policy = parse(&strategy.policy).map_err(|e| {
        format!(
            "{}:{}: the policy spec is not valid: {e}",
            path.display(),
            strategy.policy_line
        )
    })?;
    Ok(Resolved {
        policy,
        label: label.to_string(),
        source: Source::File(strategy),
    })
}

/// Reads and checks a strategy file of `game`.
pub fn load(path: &Path, game: &str) -> Result<Strategy, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    parse_strategy(&text, path, game)
}

/// Parses the text of a strategy file (`path` only labels errors).
pub fn parse_strategy(text: &str, path: &Path, game: &str) -> Result<Strategy, String> {
    let shown = path.display();
    let mut found: [Option<(String, usize)>; 3] = [None, None, None];
    const KEYS: [&str; 3] = ["game", "policy", "description"];
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let at = |what: String| format!("{shown}:{line_no}: {what}");
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with('[') {
            return Err(at(format!(
                "expected key = \"value\", found a table header '{line}' (strategy files have no tables)"
            )));
        }
        let Some((key, rest)) = line.split_once('=') else {
            return Err(at(format!("expected key = \"value\", found '{line}'")));
        };
        let key = key.trim();
        let Some(slot) = KEYS.iter().position(|&k| k == key) else {
            return Err(at(format!(
                "unknown key '{key}'; expected game, policy or description"
            )));
        };
        if found[slot].is_some() {
            return Err(at(format!("the key '{key}' is given twice")));
        }
        let value = string_value(rest.trim()).map_err(at)?;
        found[slot] = Some((value, line_no));
    }
    let [g, p, d] = found;
    let Some((file_game, game_line)) = g else {
        return Err(format!(
            "{shown}: missing the key 'game' (expected game = \"{game}\")"
        ));
    };
    if file_game != game {
        return Err(format!(
            "{shown}:{game_line}: expected game = \"{game}\", found \"{file_game}\""
        ));
    }
    let Some((policy, policy_line)) = p else {
        return Err(format!(
            "{shown}: missing the key 'policy' (expected policy = \"<spec>\")"
        ));
    };
    Ok(Strategy {
        path: path.to_path_buf(),
        game: file_game,
        policy,
        policy_line,
        description: d.map(|(v, _)| v).unwrap_or_default(),
    })
}

/// The string after `=`: `"basic"` or `'literal'`, then only a comment.
fn string_value(text: &str) -> Result<String, String> {
    let mut chars = text.char_indices();
    let quote = match chars.next() {
        Some((_, q @ ('"' | '\''))) => q,
        Some(_) => return Err(format!("expected a quoted string after '=', found '{text}'")),
        None => return Err("expected a quoted string after '=', found nothing".into()),
    };
    let mut value = String::new();
    let mut end = None;
    while let Some((i, c)) = chars.next() {
        if c == quote {
            end = Some(i + 1);
            break;
        }
        if c == '\\' && quote == '"' {
            match chars.next() {
                Some((_, '"')) => value.push('"'),
                Some((_, '\\')) => value.push('\\'),
                Some((_, 'n')) => value.push('\n'),
                Some((_, 't')) => value.push('\t'),
                Some((_, other)) => {
                    return Err(format!(
                        "expected one of the escapes \\\" \\\\ \\n \\t, found '\\{other}'"
                    ));
                }
                None => break,
            }
        } else {
            value.push(c);
        }
    }
    let Some(end) = end else {
        return Err(format!("expected a closing {quote} on the same line"));
    };
    let after = text[end..].trim();
    if !after.is_empty() && !after.starts_with('#') {
        return Err(format!(
            "expected nothing but a # comment after the string, found '{after}'"
        ));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Strategy, String> {
        parse_strategy(text, Path::new("s.toml"), "g")
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
        let s = parse("policy = \"x\"\ngame = \"g\"").unwrap();
        assert_eq!(s.description, "");
    }

    #[test]
    fn malformed_files_name_the_file_line_and_expectation() {
        let cases = [
            ("game = \"g\"\npolicy = x\n", "s.toml:2: expected a quoted string"),
            ("game = \"g\"\npolicy = \"x\n", "s.toml:2: expected a closing \""),
            ("game = \"g\"\n[table]\n", "s.toml:2: expected key = \"value\""),
            (
                "game = \"g\"\nnope\n",
                "s.toml:2: expected key = \"value\", found 'nope'",
            ),
            (
                "game = \"g\"\ncolour = \"red\"\n",
                "s.toml:2: unknown key 'colour'",
            ),
            (
                "game = \"g\"\ngame = \"g\"\n",
                "s.toml:2: the key 'game' is given twice",
            ),
            (
                "game = \"h\"\npolicy = \"x\"\n",
                "s.toml:1: expected game = \"g\", found \"h\"",
            ),
            ("policy = \"x\"\n", "s.toml: missing the key 'game'"),
            ("game = \"g\"\n", "s.toml: missing the key 'policy'"),
            ("game = \"g\" x\n", "s.toml:1: expected nothing but a # comment"),
            ("game = \"\\q\"\n", "s.toml:1: expected one of the escapes"),
        ];
        for (text, expected) in cases {
            let err = parse(text).unwrap_err();
            assert!(err.starts_with(expected), "{text:?}: {err}");
        }
    }

    #[test]
    fn resolve_tries_spec_then_name_then_path() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("strategies")).unwrap();
        std::fs::write(
            dir.path().join("strategies/g-calm.toml"),
            "game = \"g\"\npolicy = \"seven\"\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("bad.toml"), "game = \"g\"\n\npolicy = \"oops\"\n").unwrap();
        let parse = |s: &str| match s {
            "seven" => Ok(7),
            "eight" => Ok(8),
            _ => Err(format!("unknown policy '{s}'")),
        };
        let r = resolve("g", "eight", dir.path(), parse).unwrap();
        assert_eq!((r.policy, r.label.as_str(), r.source), (8, "eight", Source::Spec));
        let r = resolve("g", "calm", dir.path(), parse).unwrap();
        assert_eq!(r.policy, 7);
        assert!(matches!(r.source, Source::File(ref s) if s.policy == "seven"));
        let r = resolve("g", "strategies/g-calm.toml", dir.path(), parse).unwrap();
        assert_eq!(r.policy, 7);
        let e = resolve("g", "wild", dir.path(), parse).unwrap_err();
        assert!(
            e.starts_with("unknown policy 'wild'") && e.contains("strategies/g-wild.toml"),
            "{e}"
        );
        let e = resolve("g", "bad.toml", dir.path(), parse).unwrap_err();
        assert!(
            e.contains("bad.toml:3: the policy spec is not valid: unknown policy 'oops'"),
            "{e}"
        );
        let e = resolve("g", "missing.toml", dir.path(), parse).unwrap_err();
        assert!(e.contains("'missing.toml' not found"), "{e}");
        // Names that are not plain words are never looked up as files.
        assert!(resolve("g", "../x", dir.path(), parse).is_err());
    }
}
