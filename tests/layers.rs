//! The floors of the house, read from the source: every file names only
//! its own floor and those below it (engine, analysis, studies, reports,
//! command line; the games on the engine), so no import runs up and no
//! circle of files spans two folders; and no function of the shared
//! floors is longer than [`MAX_LINES`] lines. docs/development.md draws
//! the floors.

use std::path::{Path, PathBuf};

/// The longest a function of the shared floors may be, from its `fn` line
/// to its closing brace (comments included).
const MAX_LINES: usize = 80;

/// Each top-level module of the crate and the modules it may name
/// (`crate::MODULE`), besides itself.
const MAY_NAME: &[(&str, &[&str])] = &[
    ("engine", &[]),
    ("analysis", &["engine"]),
    ("games", &["engine"]),
    ("studies", &["engine", "analysis"]),
    ("report", &["engine", "analysis", "studies"]),
    ("cli", &["engine", "analysis", "studies", "report", "games"]),
];

/// The floors whose functions are held to [`MAX_LINES`] (the games keep
/// their own rules engines and searches).
const SHARED: &[&str] = &["engine", "analysis", "studies", "report", "cli"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// The top-level module a file of `src/` belongs to (`engine` for
/// `src/engine/job.rs`, `cli` for `src/cli.rs`), or `None` for the crate
/// root (`lib.rs`, `main.rs`).
fn module_of(path: &Path) -> Option<String> {
    let rel = path.strip_prefix(src()).unwrap();
    let first = rel
        .components()
        .next()?
        .as_os_str()
        .to_string_lossy()
        .into_owned();
    match first.strip_suffix(".rs") {
        Some("lib" | "main") => None,
        Some(m) => Some(m.to_string()),
        None => Some(first),
    }
}

/// The code of a file without its comments and string literals (a doc
/// link or a message that names a module is not an import), and without
/// its `#[cfg(test)]` module.
fn code_of(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut skip_depth: Option<i64> = None;
    let mut depth = 0i64;
    let mut pending_test = false;
    for line in text.lines() {
        let code = strip(line);
        if code.trim() == "#[cfg(test)]" {
            pending_test = true;
            out.push(String::new());
            continue;
        }
        if pending_test && code.trim_start().starts_with("mod ") {
            skip_depth = Some(depth);
        }
        pending_test = false;
        for c in code.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
        }
        if let Some(d) = skip_depth {
            if depth <= d && code.contains('}') {
                skip_depth = None;
            }
            out.push(String::new());
            continue;
        }
        out.push(code);
    }
    out
}

/// One line without its comment and with every string and character
/// literal emptied (multi-line strings are rare enough in the shared
/// floors to be read as code).
fn strip(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => break,
            '"' => {
                out.push('"');
                while let Some(d) = chars.next() {
                    if d == '\\' {
                        chars.next();
                    } else if d == '"' {
                        break;
                    }
                }
                out.push('"');
            }
            '\'' => {
                // A character literal ('x', '\n', '{'), or a lifetime.
                let rest: String = chars.clone().take(3).collect();
                let mut r = rest.chars();
                match (r.next(), r.next(), r.next()) {
                    (Some('\\'), _, _) => {
                        for d in chars.by_ref() {
                            if d == '\'' {
                                break;
                            }
                        }
                        out.push_str("' '");
                    }
                    (Some(_), Some('\''), _) => {
                        chars.next();
                        chars.next();
                        out.push_str("' '");
                    }
                    _ => out.push('\''),
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// The top-level modules a file's code names as `crate::MODULE`.
fn named(code: &[String]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in code.iter().enumerate() {
        let mut rest = line.as_str();
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.push((i + 1, name));
            rest = after;
        }
    }
    out
}

#[test]
fn every_file_names_only_its_floor_and_those_below() {
    let mut wrong = Vec::new();
    for path in files(&src()) {
        let Some(module) = module_of(&path) else {
            continue;
        };
        let allowed = MAY_NAME
            .iter()
            .find(|(m, _)| *m == module)
            .unwrap_or_else(|| {
                panic!(
                    "{}: a new top-level module; give it a floor in MAY_NAME",
                    path.display()
                )
            })
            .1;
        let code = code_of(&std::fs::read_to_string(&path).unwrap());
        for (line, name) in named(&code) {
            if name != module && !allowed.contains(&name.as_str()) {
                wrong.push(format!(
                    "{}:{line}: {module} names crate::{name}",
                    path.strip_prefix(src()).unwrap().display()
                ));
            }
        }
        for (i, l) in code.iter().enumerate() {
            if l.contains("super::super::") {
                wrong.push(format!(
                    "{}:{}: super::super:: (name the module by crate::)",
                    path.strip_prefix(src()).unwrap().display(),
                    i + 1
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports that run up a floor:\n{}",
        wrong.join("\n")
    );
}

/// The functions of `code` longer than [`MAX_LINES`]: name, first line and
/// length.
fn long_functions(code: &[String]) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < code.len() {
        let line = code[i].trim_start();
        let is_fn = line
            .split_whitespace()
            .take_while(|w| *w != "fn")
            .all(|w| ["pub", "pub(crate)", "pub(super)", "const", "unsafe", "async"].contains(&w))
            && line.split_whitespace().any(|w| w == "fn");
        if !is_fn {
            i += 1;
            continue;
        }
        let name: String = line
            .split("fn ")
            .nth(1)
            .unwrap_or("")
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let (mut depth, mut opened, mut j) = (0i64, false, i);
        while j < code.len() {
            for c in code[j].chars() {
                match c {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if (opened && depth == 0) || (!opened && code[j].trim_end().ends_with(';')) {
                break;
            }
            j += 1;
        }
        let len = j - i + 1;
        if opened && len > MAX_LINES {
            out.push((name, i + 1, len));
        }
        i += 1;
    }
    out
}

#[test]
fn no_function_of_the_shared_floors_is_longer_than_80_lines() {
    let mut long = Vec::new();
    for path in files(&src()) {
        if !module_of(&path).is_some_and(|m| SHARED.contains(&m.as_str())) {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(&path).unwrap());
        for (name, line, len) in long_functions(&code) {
            long.push(format!(
                "{}:{line}: {name} has {len} lines",
                path.strip_prefix(src()).unwrap().display()
            ));
        }
    }
    assert!(
        long.is_empty(),
        "functions longer than {MAX_LINES} lines (split them into named stages):\n{}",
        long.join("\n")
    );
}

#[test]
fn the_checks_catch_what_they_look_for() {
    // An upward import is seen, in code but not in a comment or a string.
    let code = code_of("use crate::report::page;\n// crate::cli::Builder\nlet s = \"crate::studies\";\n");
    let names: Vec<String> = named(&code).into_iter().map(|(_, n)| n).collect();
    assert_eq!(names, ["report"]);
    // A test module is left out.
    let code = code_of("fn a() {}\n#[cfg(test)]\nmod tests {\n    use crate::cli;\n}\nfn b() {}\n");
    assert!(named(&code).is_empty());
    assert!(code[5].contains("fn b"));
    // A long function is found, with its length; braces in strings and
    // character literals do not count.
    let mut text = String::from("pub fn long() {\n    let c = '{';\n    let s = \"}}\";\n");
    text.push_str(&"    x();\n".repeat(MAX_LINES));
    text.push_str("}\nfn short() {\n}\n");
    let found = long_functions(&code_of(&text));
    assert_eq!(found, [("long".to_string(), 1, MAX_LINES + 4)]);
}
