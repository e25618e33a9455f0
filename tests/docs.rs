//! The documentation, run: every command shown in README.md and docs/**.md
//! is executed, and every output shown is compared with what it prints.
//! docs/testing-the-docs.md explains the conventions to writers; in short:
//!
//! - A ```` ```console ```` block holds `$ COMMAND` lines, each followed by
//!   the output it prints (stdout and stderr together). In an output line
//!   `[..]` matches any text; a line `...` matches any number of lines.
//! - A ```` ```sh ```` block holds commands (one a line, `\` continues a
//!   line, `#` starts a comment); each must succeed, its output is not
//!   checked.
//! - Every other block must show no command: no line starting with `$ `,
//!   and a line starting with `sim ` or `scripts/` only as a synopsis with
//!   a placeholder in capitals (`sim tournament GAME ...`). A block fenced
//!   with four backticks or more shows blocks (to writers) and is not read.
//! - An HTML comment right before a block changes how it runs:
//!   `<!-- doc-test: replace "A" "B" -->` runs every command with A
//!   replaced by B (a long run made short), `<!-- doc-test: games N -->`
//!   runs it with every `--games` value set to N, and
//!   `<!-- doc-test: skip: REASON -->` does not run it, allowed only for
//!   commands that cannot run inside a test (those starting with `cargo `,
//!   `scripts/slurm/`, `squeue`, `scripts/same-results.sh`, `scripts/fresh-clone-times.sh` or
//!   `scripts/advise-calibration.py`, after any
//!   `VAR=value` in front).
//! - An inline code span that is a command (`sim ...`, `scripts/...`,
//!   `cargo ...`) must be part of a command run (or skipped) on the same
//!   page, unless it holds a placeholder in capitals or is a bare
//!   subcommand name (`sim merge`).
//!
//! The word `sim` is the binary under test (a `sim` link on PATH; on a
//! page that names `examples/`, each example program is on PATH by its
//! name too, as `flip7_leader_aware`), and the
//! environment variable `SIM` names it too, for the scripts. The commands of
//! one page run in order in one fresh folder, so a merge can follow its
//! shards; the scripts of `scripts/` are copied into it.
//!
//! `SIM_DOCS_BLESS=1 cargo test --release --test integration docs::`
//! rewrites the expected output of every console block that no longer
//! matches with what the commands print now, keeping the lines that still
//! match (and so their `[..]` and `...`) and writing `([..])` for the
//! threads, time and rate of a run (`[..]` for a JSON summary's threads
//! and seconds) and `(commit [..])` for the build that printed it. Review
//! the diff, then commit it.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A command that runs longer than this fails the page (and is killed).
const COMMAND_LIMIT: Duration = Duration::from_secs(60);

/// Commands that may be skipped (with a reason): they build or install
/// `sim` itself, need a Slurm cluster, or compare two builds over a
/// fixed list of runs (a minute and more).
const SKIPPABLE: &[&str] = &[
    "cargo ",
    "scripts/slurm/",
    "squeue",
    "scripts/same-results.sh ",
    "scripts/fresh-clone-times.sh",
    "scripts/advise-calibration.py",
];

/// What an HTML comment before a block asks.
#[derive(Debug, Clone)]
enum Marker {
    Skip,
    Replace(String, String),
    Games(String),
}

#[derive(Debug)]
struct Block {
    lang: String,
    /// Line index of the opening fence.
    open: usize,
    /// Line index of the closing fence.
    close: usize,
    /// Indentation of the fence, removed from the body's lines.
    indent: usize,
    body: Vec<String>,
    markers: Vec<Marker>,
}

/// One command of a block: its text as shown and, for a console block,
/// the output lines shown after it.
#[derive(Debug)]
struct Cmd {
    text: String,
    lines: Vec<String>,
    expected: Vec<String>,
}

fn is_fence(line: &str) -> bool {
    line.trim_start().starts_with("```")
}

fn marker_of(line: &str) -> Option<Result<Marker, String>> {
    let t = line.trim();
    let inner = t.strip_prefix("<!--")?.strip_suffix("-->")?.trim();
    let spec = inner.strip_prefix("doc-test:")?.trim();
    Some(parse_marker(spec))
}

fn parse_marker(spec: &str) -> Result<Marker, String> {
    if let Some(reason) = spec.strip_prefix("skip:") {
        if reason.trim().is_empty() {
            return Err("skip needs a reason: `skip: REASON`".into());
        }
        return Ok(Marker::Skip);
    }
    if let Some(n) = spec.strip_prefix("games ") {
        return Ok(Marker::Games(n.trim().to_string()));
    }
    if let Some(rest) = spec.strip_prefix("replace ") {
        let parts: Vec<&str> = rest.split('"').collect();
        // `"A" "B"` splits into ["", A, " ", B, ""].
        if parts.len() == 5 && parts[0].trim().is_empty() && parts[2].trim().is_empty() {
            return Ok(Marker::Replace(parts[1].to_string(), parts[3].to_string()));
        }
        return Err(format!("replace takes two quoted strings: {spec}"));
    }
    Err(format!("unknown doc-test marker: {spec}"))
}

/// The fenced blocks of a page, with the markers right before each.
fn blocks(lines: &[String]) -> Result<Vec<Block>, String> {
    let mut out = Vec::new();
    let mut pending: Vec<Marker> = Vec::new();
    let mut pending_line = 0;
    let mut i = 0;
    while i < lines.len() {
        let line = &lines[i];
        if let Some(m) = marker_of(line) {
            pending.push(m.map_err(|e| format!("line {}: {e}", i + 1))?);
            pending_line = i;
            i += 1;
            continue;
        }
        if is_fence(line) {
            let indent = line.len() - line.trim_start().len();
            let ticks = line.trim_start().chars().take_while(|&c| c == '`').count();
            let lang = line.trim().trim_start_matches('`').trim().to_string();
            // A block that shows blocks (four backticks or more) is an
            // example, never run and never checked.
            let lang = if ticks > 3 {
                format!("example {lang}")
            } else {
                lang
            };
            let closes = |l: &str| {
                let t = l.trim();
                t.len() >= ticks && t.chars().all(|c| c == '`')
            };
            let mut j = i + 1;
            while j < lines.len() && !closes(&lines[j]) {
                j += 1;
            }
            if j == lines.len() {
                return Err(format!("line {}: block never closed", i + 1));
            }
            let body = lines[i + 1..j]
                .iter()
                .map(|l| {
                    let k = l.len() - l.trim_start().len();
                    l[k.min(indent)..].to_string()
                })
                .collect();
            out.push(Block {
                lang,
                open: i,
                close: j,
                indent,
                body,
                markers: std::mem::take(&mut pending),
            });
            i = j + 1;
            continue;
        }
        if !pending.is_empty() {
            return Err(format!(
                "line {}: a doc-test marker must come right before a fenced block",
                pending_line + 1
            ));
        }
        i += 1;
    }
    if !pending.is_empty() {
        return Err(format!(
            "line {}: a doc-test marker with no block after it",
            pending_line + 1
        ));
    }
    Ok(out)
}

/// Joins a line ending in `\` with the next.
fn continued(lines: &[String], mut i: usize) -> (String, usize) {
    let mut text = lines[i].clone();
    while text.trim_end().ends_with('\\') && i + 1 < lines.len() {
        i += 1;
        text.push('\n');
        text.push_str(&lines[i]);
    }
    (text, i + 1)
}

fn console_commands(body: &[String]) -> Result<Vec<Cmd>, String> {
    let mut cmds: Vec<Cmd> = Vec::new();
    let mut i = 0;
    while i < body.len() {
        if let Some(rest) = body[i].strip_prefix("$ ") {
            let first = i;
            let mut lines = body.to_vec();
            lines[i] = rest.to_string();
            let (text, next) = continued(&lines, i);
            cmds.push(Cmd {
                text,
                lines: body[first..next].to_vec(),
                expected: Vec::new(),
            });
            i = next;
        } else if let Some(c) = cmds.last_mut() {
            c.expected.push(body[i].clone());
            i += 1;
        } else {
            return Err(format!(
                "console block with output before any `$ ` line: {:?}",
                body[i]
            ));
        }
    }
    Ok(cmds)
}

fn sh_commands(body: &[String]) -> Vec<Cmd> {
    let mut cmds = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let t = body[i].trim();
        if t.is_empty() || t.starts_with('#') {
            i += 1;
            continue;
        }
        let (text, next) = continued(body, i);
        cmds.push(Cmd {
            text,
            lines: body[i..next].to_vec(),
            expected: Vec::new(),
        });
        i = next;
    }
    cmds
}

/// `expected` matches `actual`: `[..]` in a line matches any text.
fn line_matches(expected: &str, actual: &str) -> bool {
    let (e, a) = (expected.trim_end(), actual.trim_end());
    let pieces: Vec<&str> = e.split("[..]").collect();
    if pieces.len() == 1 {
        return e == a;
    }
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if !a.starts_with(first) || a.len() < first.len() + last.len() || !a.ends_with(last) {
        return false;
    }
    let mut rest = &a[first.len()..a.len() - last.len()];
    for p in &pieces[1..pieces.len() - 1] {
        match rest.find(p) {
            Some(k) => rest = &rest[k + p.len()..],
            None => return false,
        }
    }
    true
}

/// The expected lines match the actual ones: a line `...` matches any
/// number of lines.
fn lines_match(expected: &[String], actual: &[String]) -> bool {
    match expected.first() {
        None => actual.is_empty(),
        Some(e) if e.trim() == "..." => (0..=actual.len()).any(|k| lines_match(&expected[1..], &actual[k..])),
        Some(e) => {
            !actual.is_empty() && line_matches(e, &actual[0]) && lines_match(&expected[1..], &actual[1..])
        }
    }
}

/// A line of output as it goes into a page: the threads, time and rate of
/// a run, which differ between runs and machines, become `([..])`.
fn redact(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(k) = rest.find('(') {
        let after = &rest[k + 1..];
        let digits = after.chars().take_while(|c| c.is_ascii_digit()).count();
        let volatile = digits > 0 && after[digits..].starts_with(" thread");
        match (volatile, after.find(')')) {
            (true, Some(end)) => {
                out.push_str(&rest[..k]);
                out.push_str("([..])");
                rest = &after[end + 1..];
            }
            _ => {
                out.push_str(&rest[..=k]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    // The same in a JSON summary: `"seconds": 0.07,`.
    for key in ["\"threads\": ", "\"seconds\": "] {
        if out.trim_start().starts_with(key) {
            let comma = if out.ends_with(',') { "," } else { "" };
            let k = out.find(key).unwrap() + key.len();
            out = format!("{}[..]{comma}", &out[..k]);
        }
    }
    // The build: `0.1.0 (commit 17bb096459ac)`, `-modified` or not.
    while let Some(k) = out.find("(commit ")
        && !out[k..].starts_with("(commit [..])")
    {
        let end = out[k..].find(')').map_or(out.len(), |e| k + e);
        out = format!("{}(commit [..]{}", &out[..k], &out[end..]);
    }
    // A time at the end of a bracket: `(4081 states, 0.1 s)`.
    let mut line = out.trim_end().to_string();
    while let Some(end) = line.find(" s)") {
        let head = &line[..end];
        let start = head.rfind(", ").map(|k| k + 2);
        match start {
            Some(k) if k < end && head[k..].chars().all(|c| c.is_ascii_digit() || c == '.') => {
                line = format!("{}[..]){}", &line[..k], &line[end + 3..]);
            }
            _ => break,
        }
    }
    line
}

/// New expected lines for `actual`: the old lines that still match are
/// kept (with their wildcards), the others replaced by what was printed.
fn bless(expected: &[String], actual: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while j < actual.len() {
        if i < expected.len() && expected[i].trim() == "..." {
            out.push(expected[i].clone());
            i += 1;
            if i == expected.len() {
                j = actual.len();
            } else if let Some(k) = (j..actual.len()).find(|&k| line_matches(&expected[i], &actual[k])) {
                j = k;
            }
            continue;
        }
        if i < expected.len() && line_matches(&expected[i], &actual[j]) {
            out.push(expected[i].clone());
            i += 1;
            j += 1;
            continue;
        }
        // A line shown later that matches this one: the lines between
        // are gone.
        if let Some(k) = (i..expected.len())
            .find(|&k| expected[k].trim() != "..." && line_matches(&expected[k], &actual[j]))
        {
            i = k;
            continue;
        }
        out.push(redact(&actual[j]));
        if i < expected.len() {
            i += 1;
        }
        j += 1;
    }
    if expected[i.min(expected.len())..]
        .iter()
        .any(|l| l.trim() == "...")
        && out.last().map(|l| l.trim()) != Some("...")
    {
        out.push("...".into());
    }
    out
}

/// Runs `cmd` with bash in `dir`; returns the exit code, stdout and stderr
/// together, and the time taken.
fn run(cmd: &str, dir: &Path, bin: &Path) -> (Option<i32>, Vec<String>, Duration) {
    use std::os::unix::process::CommandExt;
    let out = tempfile::tempfile().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let start = Instant::now();
    let mut child = Command::new("bash")
        .args(["-o", "pipefail", "-c", cmd])
        .current_dir(dir)
        .env("PATH", path)
        .env("SIM", bin.join("sim"))
        .env_remove("SIM_STRATEGIES")
        .env_remove("SIM_DOCS_BLESS")
        .stdin(Stdio::null())
        .stdout(Stdio::from(out.try_clone().unwrap()))
        .stderr(Stdio::from(out.try_clone().unwrap()))
        .process_group(0)
        .spawn()
        .expect("run bash");
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s.code();
        }
        if start.elapsed() > COMMAND_LIMIT {
            let _ = Command::new("kill")
                .args(["-KILL", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let took = start.elapsed();
    let mut text = String::new();
    let mut f = out;
    use std::io::Seek;
    f.seek(std::io::SeekFrom::Start(0)).unwrap();
    f.read_to_string(&mut text).unwrap();
    let lines = text.lines().map(|l| l.trim_end().to_string()).collect();
    (status, lines, took)
}

/// The command as the test runs it: the block's markers applied.
fn as_run(text: &str, markers: &[Marker]) -> String {
    let mut t = text.to_string();
    for m in markers {
        match m {
            Marker::Replace(a, b) => t = t.replace(a.as_str(), b),
            Marker::Games(n) => {
                let words: Vec<&str> = t.split(' ').collect();
                let mut out: Vec<String> = Vec::new();
                for (k, w) in words.iter().enumerate() {
                    if k > 0 && words[k - 1] == "--games" && !w.is_empty() {
                        out.push(n.clone());
                    } else {
                        out.push(w.to_string());
                    }
                }
                t = out.join(" ");
            }
            Marker::Skip => {}
        }
    }
    t
}

/// A word in capitals (`GAME`, `SPEC`, `N`): the text is a pattern, not a
/// command.
fn has_placeholder(text: &str) -> bool {
    text.contains("...")
        || text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|w| {
                w.starts_with(|c: char| c.is_ascii_uppercase()) && !w.chars().any(|c| c.is_ascii_lowercase())
            })
}

/// The text without leading environment assignments (`VAR=value cmd`).
fn without_env(text: &str) -> &str {
    let mut t = text.trim_start();
    loop {
        let var = t
            .chars()
            .take_while(|c| c.is_ascii_uppercase() || c == &'_')
            .count();
        if var == 0 || !t[var..].starts_with('=') {
            return t;
        }
        let value = &t[var + 1..];
        // A quoted value may hold spaces.
        let end = match value.strip_prefix('"') {
            Some(q) => match q.find('"') {
                Some(k) => k + 2,
                None => return t,
            },
            None => value.find(' ').unwrap_or(value.len()),
        };
        t = value[end..].trim_start();
    }
}

/// A command of `sim`, of a script of `scripts/`, or of cargo.
fn is_command(text: &str) -> bool {
    let t = without_env(text);
    let first = t.split_whitespace().next().unwrap_or("");
    t.starts_with("sim ")
        || t.starts_with("cargo ")
        || (first.starts_with("scripts/") && first.ends_with(".sh"))
}

fn squash(text: &str) -> String {
    text.replace("\\\n", " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The inline code spans of the text outside fenced blocks, with white
/// space squashed (a span may be wrapped over lines).
fn inline_spans(lines: &[String], blocks: &[Block]) -> Vec<(usize, String)> {
    let mut spans = Vec::new();
    let mut in_block = vec![false; lines.len()];
    for b in blocks {
        for f in in_block.iter_mut().take(b.close + 1).skip(b.open) {
            *f = true;
        }
    }
    let mut para: Vec<(usize, &str)> = Vec::new();
    let mut flush = |para: &mut Vec<(usize, &str)>| {
        let text: String = para.iter().map(|(_, l)| *l).collect::<Vec<_>>().join("\n");
        let first = para.first().map(|p| p.0).unwrap_or(0);
        let parts: Vec<&str> = text.split('`').collect();
        // Odd parts are inside backticks (a double backtick gives an
        // empty part and is read the same way).
        for (k, p) in parts.iter().enumerate() {
            if k % 2 == 1 && k + 1 < parts.len() {
                spans.push((first, squash(p)));
            }
        }
        para.clear();
    };
    for (i, l) in lines.iter().enumerate() {
        if in_block[i] || l.trim().is_empty() {
            flush(&mut para);
        } else {
            para.push((i, l));
        }
    }
    flush(&mut para);
    spans
}

/// Runs the page and checks it; returns its problems.
fn check_page(rel: &str) -> Vec<String> {
    let path = Path::new(ROOT).join(rel);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let blocks = match blocks(&lines) {
        Ok(b) => b,
        Err(e) => return vec![format!("{rel}: {e}")],
    };
    let bless_mode = std::env::var_os("SIM_DOCS_BLESS").is_some_and(|v| v != "0");
    let work = tempfile::tempdir().unwrap();
    let bin = work.path().join(".bin");
    fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_sim"), bin.join("sim")).unwrap();
    // A page that shows the example programs runs them by name.
    if text.contains("examples/") {
        let built = crate::common::examples_dir();
        for name in crate::common::example_names() {
            std::os::unix::fs::symlink(built.join(&name), bin.join(&name)).unwrap();
        }
    }
    let dir = work.path().join("work");
    fs::create_dir(&dir).unwrap();
    copy_dir(&Path::new(ROOT).join("scripts"), &dir.join("scripts"));

    let mut problems = Vec::new();
    let mut shown: Vec<String> = Vec::new();
    let mut replacements: Vec<(usize, usize, Vec<String>)> = Vec::new();
    let mut timings: Vec<(Duration, String)> = Vec::new();
    for b in &blocks {
        let at = format!("{rel}:{}", b.open + 1);
        let skip = b.markers.iter().any(|m| matches!(m, Marker::Skip));
        let cmds = match b.lang.as_str() {
            "console" => match console_commands(&b.body) {
                Ok(c) => c,
                Err(e) => {
                    problems.push(format!("{at}: {e}"));
                    continue;
                }
            },
            "sh" => sh_commands(&b.body),
            "bash" | "shell" | "shell-session" => {
                problems.push(format!("{at}: write ```sh or ```console, which are run"));
                continue;
            }
            l if l.starts_with("example ") => continue,
            _ => {
                if !b.markers.is_empty() {
                    problems.push(format!("{at}: a doc-test marker on a block that is not run"));
                }
                for l in &b.body {
                    let t = l.trim_start();
                    if t.starts_with("$ ")
                        || (is_command(t) && !t.starts_with("cargo ") && !has_placeholder(t))
                    {
                        problems.push(format!(
                            "{at}: a command in a ```{} block, which is not run: {t}",
                            b.lang
                        ));
                    }
                }
                continue;
            }
        };
        for c in &cmds {
            shown.push(squash(&c.text));
        }
        if skip {
            for c in &cmds {
                if !SKIPPABLE.iter().any(|p| without_env(&c.text).starts_with(p)) {
                    problems.push(format!(
                        "{at}: only {SKIPPABLE:?} commands may be skipped: {}",
                        c.text
                    ));
                }
            }
            continue;
        }
        for m in &b.markers {
            let used = match m {
                Marker::Replace(a, _) => cmds.iter().any(|c| c.text.contains(a.as_str())),
                Marker::Games(_) => cmds.iter().any(|c| c.text.contains("--games ")),
                Marker::Skip => true,
            };
            if !used {
                problems.push(format!("{at}: marker {m:?} changes no command of the block"));
            }
        }
        let shortened = !b.markers.is_empty();
        let mut new_body: Vec<String> = Vec::new();
        let mut changed = false;
        for c in &cmds {
            let cmd = as_run(&c.text, &b.markers);
            let (status, actual, took) = run(&cmd, &dir, &bin);
            timings.push((took, cmd.clone()));
            new_body.extend(c.lines.iter().cloned());
            match status {
                Some(0) => {}
                None => problems.push(format!(
                    "{at}: `{cmd}` ran longer than {COMMAND_LIMIT:?} and was stopped"
                )),
                Some(code) => {
                    problems.push(format!(
                        "{at}: `{cmd}` exited with {code}:\n{}",
                        actual.join("\n")
                    ));
                    new_body.extend(c.expected.iter().cloned());
                    continue;
                }
            }
            if b.lang != "console" {
                continue;
            }
            if lines_match(&c.expected, &actual) {
                new_body.extend(c.expected.iter().cloned());
            } else if bless_mode && !shortened {
                let new = bless(&c.expected, &actual);
                assert!(
                    lines_match(&new, &actual),
                    "{at}: bless made lines that do not match"
                );
                new_body.extend(new);
                changed = true;
            } else {
                new_body.extend(c.expected.iter().cloned());
                problems.push(format!(
                    "{at}: `{cmd}` printed other output{}\n--- shown\n{}\n--- printed\n{}\n---",
                    if shortened {
                        " (a shortened run: use [..] for what the long run prints differently)"
                    } else {
                        " (SIM_DOCS_BLESS=1 rewrites it)"
                    },
                    c.expected.join("\n"),
                    actual.join("\n")
                ));
            }
        }
        if changed {
            let pad = " ".repeat(b.indent);
            let body = new_body
                .iter()
                .map(|l| {
                    if l.is_empty() {
                        String::new()
                    } else {
                        format!("{pad}{l}")
                    }
                })
                .collect();
            replacements.push((b.open + 1, b.close, body));
        }
    }

    for (line, span) in inline_spans(&lines, &blocks) {
        if !is_command(&span) || has_placeholder(&span) {
            continue;
        }
        // A name, not a run: `sim merge`, `sim flip7 solve`, `sim --version`.
        let words = span.split(' ').count();
        let bare = words <= 2
            || (words <= 3
                && !span.contains(" -")
                && span
                    .split(' ')
                    .skip(1)
                    .all(|w| w.chars().all(|c| c.is_ascii_lowercase() || c == '-')));
        if bare || shown.iter().any(|c| c.contains(&span)) {
            continue;
        }
        problems.push(format!(
            "{rel}:{}: `{span}` is not part of any command run on this page (show it in a ```sh or ```console block)",
            line + 1
        ));
    }

    if !replacements.is_empty() {
        for (from, to, body) in replacements.into_iter().rev() {
            lines.splice(from..to, body);
        }
        let mut text = lines.join("\n");
        text.push('\n');
        fs::write(&path, text).unwrap();
        eprintln!("{rel}: blessed");
    }
    timings.sort_by_key(|t| std::cmp::Reverse(t.0));
    let total: Duration = timings.iter().map(|t| t.0).sum();
    eprintln!(
        "{rel}: {} commands in {:.1} s",
        timings.len(),
        total.as_secs_f64()
    );
    for (d, c) in timings.iter().take(3) {
        eprintln!("  {:.2} s  {}", d.as_secs_f64(), c.lines().next().unwrap_or(""));
    }
    problems
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// README.md and every Markdown file under docs/, relative to the root.
fn pages() -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    let mut v = vec![Path::new(ROOT).join("README.md")];
    walk(&Path::new(ROOT).join("docs"), &mut v);
    let mut v: Vec<String> = v
        .iter()
        .map(|p| p.strip_prefix(ROOT).unwrap().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn assert_page(rel: &str) {
    let problems = check_page(rel);
    assert!(
        problems.is_empty(),
        "{} problem(s):\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}

/// One test per page, so that pages run side by side.
macro_rules! page_tests {
    ($($name:ident => $rel:literal,)*) => {
        $(
            #[test]
            fn $name() {
                assert_page($rel);
            }
        )*

        #[test]
        fn every_page_has_its_test() {
            let mut tested = vec![$($rel.to_string()),*];
            tested.sort();
            assert_eq!(tested, pages(), "add the page to page_tests! in tests/docs.rs");
        }
    };
}

page_tests! {
    readme => "README.md",
    docs_index => "docs/README.md",
    advise => "docs/advise.md",
    play => "docs/play.md",
    flip7 => "docs/flip7.md",
    flip_flush => "docs/flip-flush.md",
    flip_flush_models => "docs/flip-flush-models.md",
    flip_flush_evidence => "docs/flip-flush-evidence.md",
    ib_flip => "docs/ib-flip.md",
    classic_flip => "docs/classic-flip.md",
    tournament => "docs/tournament.md",
    csv => "docs/csv.md",
    command_line => "docs/command-line.md",
    custom_policies => "docs/custom-policies.md",
    sweep => "docs/sweep.md",
    tune => "docs/tune.md",
    development => "docs/development.md",
    cluster => "docs/cluster.md",
    reproducibility => "docs/reproducibility.md",
    performance => "docs/performance.md",
    search => "docs/search.md",
    testing_the_docs => "docs/testing-the-docs.md",
    rules_flip7 => "docs/rules/flip7.md",
    rules_flip_flush => "docs/rules/flip-flush.md",
    rules_ib_flip => "docs/rules/ib-flip.md",
    rules_classic_flip => "docs/rules/classic-flip.md",
}

/// The GitHub anchor of a heading: lower case, spaces to `-`, other
/// punctuation dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for l in text.lines() {
        if is_fence(l) {
            fenced = !fenced;
        } else if !fenced && l.starts_with('#') {
            let base = slug(l.trim_start_matches('#'));
            let mut s = base.clone();
            let mut n = 1;
            while out.contains(&s) {
                s = format!("{base}-{n}");
                n += 1;
            }
            out.push(s);
        }
    }
    out
}

/// The targets of the Markdown links `[text](target)` of a text.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(k) = rest.find("](") {
        let after = &rest[k + 2..];
        if let Some(end) = after.find(')') {
            out.push(after[..end].trim().to_string());
        }
        rest = after;
    }
    out
}

#[test]
fn every_relative_link_points_to_a_file_and_heading_that_exist() {
    let mut problems = Vec::new();
    for rel in pages() {
        let path = Path::new(ROOT).join(&rel);
        let text = fs::read_to_string(&path).unwrap();
        for target in link_targets(&text) {
            if target.starts_with("http://")
                || target.starts_with("https://")
                || target.starts_with("mailto:")
            {
                continue;
            }
            let (file, anchor) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let dest = if file.is_empty() {
                path.clone()
            } else {
                path.parent().unwrap().join(file)
            };
            if !dest.exists() {
                problems.push(format!("{rel}: link to {target}: no such file"));
                continue;
            }
            if let Some(a) = anchor {
                let dest_text = fs::read_to_string(&dest).unwrap_or_default();
                if !anchors(&dest_text).iter().any(|x| x == a) {
                    problems.push(format!("{rel}: link to {target}: no such heading"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn no_page_names_an_issue_number() {
    let mut problems = Vec::new();
    for rel in pages() {
        let text = fs::read_to_string(Path::new(ROOT).join(&rel)).unwrap();
        for (n, line) in text.lines().enumerate() {
            let b = line.as_bytes();
            for (k, &c) in b.iter().enumerate() {
                // `#12`, but not a label such as `stay-at-25#2`.
                if c == b'#'
                    && b.get(k + 1).is_some_and(u8::is_ascii_digit)
                    && (k == 0 || !b[k - 1].is_ascii_alphanumeric())
                {
                    problems.push(format!("{rel}:{}: {line}", n + 1));
                }
            }
            let lower = line.to_lowercase();
            for w in ["issue ", "issues ", "pull request ", "/issues/", "/pull/"] {
                for (k, _) in lower.match_indices(w) {
                    if lower[k + w.len()..].starts_with(|c: char| c.is_ascii_digit()) {
                        problems.push(format!("{rel}:{}: {line}", n + 1));
                    }
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "issue numbers in the docs:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_readme_is_at_most_300_lines() {
    let text = fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let n = text.lines().count();
    assert!(n <= 300, "README.md has {n} lines; move the detail to docs/");
}

#[test]
fn the_matcher_and_bless() {
    let s = |v: &[&str]| v.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(line_matches("a [..] c", "a b b c"));
    assert!(line_matches("a[..]", "a"));
    assert!(!line_matches("a [..] c", "a b d"));
    assert!(!line_matches("ab[..]ba", "aba"));
    assert!(lines_match(&s(&["x", "...", "z"]), &s(&["x", "y", "y", "z"])));
    assert!(lines_match(&s(&["x", "...", "z"]), &s(&["x", "z"])));
    assert!(!lines_match(&s(&["x", "...", "z"]), &s(&["x", "y"])));
    assert_eq!(
        redact("sim flip7: 4 players, 1K games, seed 1 (2 threads, 0.01 s, 99K games/s)"),
        "sim flip7: 4 players, 1K games, seed 1 ([..])"
    );
    assert_eq!(
        redact("0,stay-at-25,4,1,1,1,0.2,1,1,0.1.0 (commit 17bb096459ac-modified)"),
        "0,stay-at-25,4,1,1,1,0.2,1,1,0.1.0 (commit [..])"
    );
    assert_eq!(
        redact("optimal (4081 states, 0.1 s)"),
        "optimal (4081 states, [..])"
    );
    // Lines that still match keep their wildcards; a changed line is
    // taken as printed; lines gone are dropped, new ones added, and a
    // `...` keeps standing for the lines it covers.
    let old = s(&["head [..]", "a 1", "gone", "...", "tail"]);
    let new = bless(&old, &s(&["head 9", "a 2", "b", "c", "tail", "more"]));
    assert_eq!(new, s(&["head [..]", "a 2", "b", "...", "tail", "more"]));
    let new = bless(&s(&["a", "...", "z"]), &s(&["a", "b", "c", "z"]));
    assert_eq!(new, s(&["a", "...", "z"]));
    assert!(has_placeholder("sim tournament GAME --policies A,B"));
    assert!(is_command("SIM_DOCS_BLESS=1 cargo test"));
    assert_eq!(without_env("RUSTFLAGS=\"-C x=y\" A=1 cargo build"), "cargo build");
    assert!(is_command("scripts/ab.sh a b"));
    assert!(!is_command("scripts/           measurement helpers"));
    assert!(!has_placeholder("sim flip7 --games 10M --seed 1"));
    assert_eq!(
        as_run("sim flip7 --games 10M --seed 1", &[Marker::Games("1K".into())]),
        "sim flip7 --games 1K --seed 1"
    );
}

/// The columns of every CSV that `sim` writes, for every game and for
/// tournaments and sweeps.
fn csv_headers() -> Vec<(String, Vec<String>)> {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_sim"))
            .args(args)
            .args(["--seed", "1", "--no-progress", "-q"])
            .current_dir(d)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    let header = |path: &Path| -> Vec<String> {
        let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        text.lines()
            .next()
            .unwrap()
            .split(',')
            .map(String::from)
            .collect()
    };
    let mut out = Vec::new();
    for (game, extra) in [
        ("flip7", &[][..]),
        ("flip-flush", &["--gambling"][..]),
        ("ib-flip", &[][..]),
        ("classic-flip", &[][..]),
    ] {
        let csv = format!("{game}.csv");
        let mut args = vec![game, "--games", "40", "--out", &csv];
        args.extend_from_slice(extra);
        run(&args);
        out.push((game.to_string(), header(&d.join(&csv))));
        let t = format!("t-{game}");
        let policies = match game {
            "flip7" => "stay-at-20,stay-at-25",
            "flip-flush" => "default,counter",
            "ib-flip" => "lowest,saver",
            _ => "collector,thief",
        };
        run(&[
            "tournament",
            game,
            "--policies",
            policies,
            "--players",
            "2",
            "--games",
            "20",
            "--out",
            &t,
            "--no-charts",
        ]);
        for f in ["standings.csv", "pairwise.csv"] {
            out.push((format!("{t}/{f}"), header(&d.join(&t).join(f))));
        }
    }
    run(&[
        "sweep",
        "flip7",
        "--policy",
        "stay-at-{20,25}",
        "--games",
        "40",
        "--out",
        "s",
        "--no-charts",
    ]);
    out.push(("sweep".into(), header(&d.join("s").join("sweep.csv"))));
    out
}

#[test]
fn every_csv_column_is_described_in_csv_md() {
    let doc = fs::read_to_string(Path::new(ROOT).join("docs/csv.md")).unwrap();
    let mut missing = Vec::new();
    for (what, columns) in csv_headers() {
        for c in columns {
            // place_1, place_2, ...: one column per place.
            let c = if c.starts_with("place_") && c[6..].chars().all(|d| d.is_ascii_digit()) {
                "place_1".to_string()
            } else {
                c
            };
            if !doc.contains(&format!("`{c}`")) {
                missing.push(format!("{what}: {c}"));
            }
        }
    }
    missing.dedup();
    assert!(
        missing.is_empty(),
        "columns not described in docs/csv.md:\n{}",
        missing.join("\n")
    );
}
