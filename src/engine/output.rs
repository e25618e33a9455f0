//! Output files that are either complete or absent.
//!
//! The destination is checked before any game is played (the file itself,
//! or a probe in the nearest folder that exists, is created and removed at
//! once), so a bad `--out` fails at once. Nothing is on disk while the
//! games run, not even a missing folder, so an interrupted or refused run
//! leaves nothing behind; at the end the folders are made, the result is
//! written to a temporary sibling and renamed, so the file appears under
//! its name only when complete.

use std::io::Write;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

/// Where a result goes.
pub enum Output {
    /// Standard output (`--out -`).
    Stdout,
    /// An existing special file (a device such as `/dev/null`, or a pipe),
    /// written in place: it cannot be replaced by renaming.
    Special(std::fs::File, PathBuf),
    /// A file, written to a temporary sibling and renamed when complete.
    File {
        /// Final path.
        path: PathBuf,
        /// Its folder, where the temporary file goes.
        dir: PathBuf,
    },
}

impl Output {
    /// Prepares `path` (`-` for stdout). `flag` names the option in errors.
    /// Creates the parent folder when it is missing.
    pub fn prepare(path: &Path, flag: &str) -> Result<Output, String> {
        if path.as_os_str() == "-" {
            return Ok(Output::Stdout);
        }
        let shown = path.display();
        check_path_length(path).map_err(|e| format!("{flag} '{shown}': {e}"))?;
        check_not_dangling(path, flag)?;
        if let Ok(meta) = std::fs::metadata(path)
            && !meta.is_file()
            && !meta.is_dir()
        {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| format!("{flag} '{shown}': cannot open for writing: {e}"))?;
            return Ok(Output::Special(file, path.to_path_buf()));
        }
        if path.is_dir() {
            let stdout = if flag == "--out" { ", or - for stdout" } else { "" };
            return Err(format!(
                "{flag} '{shown}' is a folder; give a file path such as results/run.csv{stdout}"
            ));
        }
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        check_name_lengths(path, flag)?;
        if parent.is_dir() {
            probe_file(path).map_err(|e| format!("{flag} '{shown}': cannot write it: {e}"))?;
        } else {
            check_folders_can_be_made(path, &parent, flag)?;
        }
        Ok(Output::File {
            path: path.to_path_buf(),
            dir: parent,
        })
    }

    /// Writes `bytes` and moves the file into place. Returns the path written
    /// (None for stdout). On failure nothing of it is left, not even the
    /// folders it made.
    pub fn commit(self, bytes: &[u8]) -> Result<Option<PathBuf>, String> {
        Ok(commit_all(vec![(self, bytes)])?.pop().flatten())
    }

    /// The path this output writes (none for stdout).
    pub fn path(&self) -> Option<&Path> {
        match self {
            Output::Stdout => None,
            Output::Special(_, path) | Output::File { path, .. } => Some(path),
        }
    }
}

/// Refuses `path` (given to `flag`) when it, or a folder above it, is a
/// symbolic link to nothing.
fn check_not_dangling(path: &Path, flag: &str) -> Result<(), String> {
    if let Some((link, target)) = dangling_link(path) {
        let shown = path.display();
        let what = if link == path {
            format!("{flag} '{shown}' is")
        } else {
            format!("{flag} '{shown}': '{}' is", link.display())
        };
        return Err(format!(
            "{what} a symbolic link to '{}', which does not exist; create it, or remove the link",
            target.display()
        ));
    }
    Ok(())
}

/// Refuses `path` (given to `flag`) when a name in it is longer than file
/// systems take: it fails now, not at the rename.
fn check_name_lengths(path: &Path, flag: &str) -> Result<(), String> {
    for part in path.components() {
        if part.as_os_str().len() > 255 {
            return Err(format!(
                "{flag} '{}': a name in the path is {} bytes long; file systems take at most 255",
                path.display(),
                part.as_os_str().len()
            ));
        }
    }
    Ok(())
}

/// For `path` (given to `flag`) in the missing folder `parent`: the
/// folders are made only when the result is written; checks that they
/// can be: the nearest existing one must be a writable folder.
fn check_folders_can_be_made(path: &Path, parent: &Path, flag: &str) -> Result<(), String> {
    let shown = path.display();
    let existing = parent
        .ancestors()
        .find(|a| a.as_os_str().is_empty() || a.exists())
        .map(|a| {
            if a.as_os_str().is_empty() {
                Path::new(".")
            } else {
                a
            }
        })
        .unwrap_or(Path::new("."));
    if !existing.is_dir() {
        return Err(format!(
            "{flag} '{shown}': cannot create the folder '{}': '{}' is not a folder",
            parent.display(),
            existing.display()
        ));
    }
    drop(partial_file(existing).map_err(|e| {
        format!(
            "{flag} '{shown}': cannot create the folder '{}': {e}",
            parent.display()
        )
    })?);
    Ok(())
}

/// Writes several outputs of one run, all or none of the files: stdout
/// and devices first (a device that cannot take its bytes, such as
/// `/dev/full`, fails the run before any file is made), then every file
/// to a temporary sibling, and only when all are written are they moved
/// into place. When anything fails, the files and the folders this call
/// made are removed again, so a failed run (a full disk) leaves nothing
/// behind. Returns each output's path, in order (None for stdout).
pub fn commit_all(items: Vec<(Output, &[u8])>) -> Result<Vec<Option<PathBuf>>, String> {
    let mut written: Vec<Option<PathBuf>> = vec![None; items.len()];
    let mut files = Vec::new();
    for (i, (out, bytes)) in items.into_iter().enumerate() {
        match out {
            Output::Stdout => {
                let mut stdout = std::io::stdout().lock();
                ignore_closed_pipe(stdout.write_all(bytes).and_then(|_| stdout.flush()))
                    .map_err(|e| format!("cannot write to stdout: {e}"))?;
            }
            Output::Special(mut file, path) => {
                file.write_all(bytes)
                    .and_then(|_| file.flush())
                    .map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
                written[i] = Some(path);
            }
            Output::File { path, dir } => files.push((i, path, dir, bytes)),
        }
    }
    let mut undo = Undo::default();
    let result = (|| {
        let mut finished = Vec::new();
        for (i, path, dir, bytes) in files {
            let shown = path.display().to_string();
            undo.make_dirs(&dir)
                .map_err(|e| format!("cannot create the folder '{}': {e}", dir.display()))?;
            let mut tmp = partial_file(&dir).map_err(|e| format!("cannot write '{shown}': {e}"))?;
            tmp.write_all(bytes)
                .and_then(|_| tmp.as_file().sync_all())
                .map_err(|e| format!("cannot write '{shown}': {}", without_temporary_name(&e)))?;
            finished.push((i, path, tmp));
        }
        for (i, path, tmp) in finished {
            let new = std::fs::symlink_metadata(&path).is_err();
            tmp.persist(&path).map_err(|e| {
                format!(
                    "cannot move the finished file to '{}': {}",
                    path.display(),
                    e.error
                )
            })?;
            if new {
                undo.files.push(path.clone());
            }
            written[i] = Some(path);
        }
        Ok(())
    })();
    match result {
        Ok(()) => Ok(written),
        Err(e) => {
            undo.undo();
            Err(e)
        }
    }
}

/// What [`commit_all`] made, to remove when it fails.
#[derive(Default)]
struct Undo {
    /// Folders made, outermost first.
    dirs: Vec<PathBuf>,
    /// Files that did not exist before.
    files: Vec<PathBuf>,
}

impl Undo {
    /// Makes `dir` and any missing folder above it, noting each.
    fn make_dirs(&mut self, dir: &Path) -> std::io::Result<()> {
        let missing: Vec<&Path> = dir
            .ancestors()
            .take_while(|a| !a.as_os_str().is_empty() && std::fs::symlink_metadata(a).is_err())
            .collect();
        for a in missing.into_iter().rev() {
            match std::fs::create_dir(a) {
                Ok(()) => self.dirs.push(a.to_path_buf()),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && a.is_dir() => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Removes the files, then the folders (innermost first; a folder
    /// that something else has put a file in meanwhile stays).
    fn undo(self) {
        for f in &self.files {
            let _ = std::fs::remove_file(f);
        }
        for d in self.dirs.iter().rev() {
            let _ = std::fs::remove_dir(d);
        }
    }
}

/// The longest path the system takes, in bytes (`PATH_MAX`).
const PATH_MAX: usize = if cfg!(target_os = "linux") { 4096 } else { 1024 };

/// Room left for the name of the temporary sibling a file is written to.
const TEMPORARY_NAME: usize = 32;

/// Checks that `path` is short enough for the system, its temporary
/// sibling included: a relative path is taken from the current folder,
/// which may itself be too deep.
fn check_path_length(path: &Path) -> Result<(), String> {
    let len = path.as_os_str().len();
    if path.is_absolute() {
        if len + TEMPORARY_NAME >= PATH_MAX {
            return Err(format!(
                "the path is {len} bytes long; the system takes paths of fewer than {PATH_MAX} bytes (PATH_MAX)"
            ));
        }
        return Ok(());
    }
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))?;
    let deep = cwd.as_os_str().len();
    if deep + 1 + len + TEMPORARY_NAME >= PATH_MAX {
        return Err(format!(
            "the current folder's path is {deep} bytes long, too deep for a file below it: the system \
             takes paths of fewer than {PATH_MAX} bytes (PATH_MAX); run sim from a folder with a \
             shorter path, or give an absolute path"
        ));
    }
    Ok(())
}

/// The nearest of `path` and the folders above it that is a symbolic
/// link to nothing (a dangling link), with where it points.
fn dangling_link(path: &Path) -> Option<(PathBuf, PathBuf)> {
    for a in path.ancestors().take_while(|a| !a.as_os_str().is_empty()) {
        match std::fs::symlink_metadata(a) {
            Ok(m) if m.file_type().is_symlink() => {
                if std::fs::metadata(a).is_err() {
                    return Some((a.to_path_buf(), std::fs::read_link(a).unwrap_or_default()));
                }
                return None;
            }
            Ok(_) => return None,
            Err(_) => {}
        }
    }
    None
}

/// Refuses a run two of whose outputs are one file (`--xlsx` inside the
/// `--out` folder under one of its names, `--out` on the state file):
/// one would overwrite the other. `outputs` are what names each (`--xlsx`,
/// `--out 'dir' (its standings.csv)`) and its path; devices (`/dev/null`)
/// may take several.
pub fn check_distinct(outputs: &[(String, PathBuf)]) -> Result<(), String> {
    let keyed: Vec<(&String, &PathBuf, PathBuf)> = outputs
        .iter()
        .filter(|(_, p)| p.as_os_str() != "-")
        .filter(|(_, p)| std::fs::metadata(p).map_or(true, |m| m.is_file() || m.is_dir()))
        .map(|(what, p)| (what, p, same_file_key(p)))
        .collect();
    for (i, (a, pa, ka)) in keyed.iter().enumerate() {
        if let Some((b, _, _)) = keyed[..i].iter().find(|(_, _, kb)| kb == ka) {
            return Err(format!(
                "{b} and {a} are one file, '{}': each would overwrite the other; give each output \
                 of the run its own path",
                pa.display()
            ));
        }
    }
    Ok(())
}

/// `path` made absolute, with `.` and `..` worked out and the folders
/// that exist resolved (links followed), so that two spellings of one
/// file compare equal.
fn same_file_key(path: &Path) -> PathBuf {
    use std::path::Component;
    let abs = match std::env::current_dir() {
        Ok(cwd) => cwd.join(path),
        Err(_) => path.to_path_buf(),
    };
    let mut plain = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                plain.pop();
            }
            other => plain.push(other),
        }
    }
    // The longest part that exists, resolved; the rest as written.
    let mut rest = Vec::new();
    let mut head = plain.as_path();
    loop {
        if let Ok(real) = std::fs::canonicalize(head) {
            let mut key = real;
            key.extend(rest.iter().rev());
            return key;
        }
        match (head.file_name(), head.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name.to_os_string());
                head = parent;
            }
            _ => return plain,
        }
    }
}

/// Checks that `path` (in an existing folder) can be written, leaving it as
/// it was: an existing file is opened for writing without truncating it; a
/// new one is created and removed at once.
fn probe_file(path: &Path) -> std::io::Result<()> {
    if path.exists() {
        std::fs::OpenOptions::new().append(true).open(path).map(drop)
    } else {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)?;
        std::fs::remove_file(path)
    }
}

/// A temporary file in `dir`, removed unless persisted. Readable by all
/// (like any file a command writes), not private like most temporary files.
fn partial_file(dir: &Path) -> std::io::Result<NamedTempFile> {
    let mut b = tempfile::Builder::new();
    b.prefix(".sim-partial-");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        b.permissions(std::fs::Permissions::from_mode(0o644));
    }
    b.tempfile_in(dir)
        .map_err(|e| std::io::Error::new(e.kind(), without_temporary_name(&e)))
}

/// The system's reason of an error of a temporary file: tempfile adds "at
/// path `<the temporary name>`" to its errors, a file the reader never asked
/// for.
fn without_temporary_name(e: &std::io::Error) -> String {
    e.to_string().split(" at path ").next().unwrap_or("").to_string()
}

/// Treats a closed stdout (`sim ... | head`) as the reader's choice, not an
/// error: whatever was not read is simply not shown.
pub fn ignore_closed_pipe(r: std::io::Result<()>) -> Result<(), String> {
    match r {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(e.to_string()),
        Ok(()) => Ok(()),
    }
}

/// Where the state of an interrupted run goes when `--state` is not
/// given: beside its output, `NAME.state.json`.
pub fn state_beside(output: &Path) -> PathBuf {
    let mut name = output.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".state.json");
    output.with_file_name(name)
}

/// A file-name-safe label for a line-up of policies: the spec when every
/// seat plays the same, else the specs joined by `+`.
pub fn file_label(names: &[String]) -> String {
    let joined = if names.iter().all(|n| n == &names[0]) {
        names[0].clone()
    } else {
        names.join("+")
    };
    let mut safe: String = joined
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._+-".contains(c) {
                c
            } else {
                '-'
            }
        })
        .collect();
    safe.truncate(120);
    safe
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_appears_only_when_committed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/out.csv");
        let out = Output::prepare(&path, "--out").unwrap();
        assert!(!path.exists());
        // Nothing at all is on disk while the games run, not even the folder.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        drop(out);
        assert!(!path.exists());
        let out = Output::prepare(&path, "--out").unwrap();
        out.commit(b"a,b\n1,2\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a,b\n1,2\n");
        assert_eq!(std::fs::read_dir(dir.path().join("sub")).unwrap().count(), 1);
    }

    #[test]
    fn devices_are_written_in_place_not_replaced() {
        let out = Output::prepare(Path::new("/dev/null"), "--out").unwrap();
        assert!(matches!(out, Output::Special(..)));
        out.commit(b"x\n").unwrap();
        let meta = std::fs::metadata("/dev/null").unwrap();
        assert!(!meta.is_file(), "/dev/null must stay a device");
    }

    #[test]
    fn unwritable_destination_is_refused_up_front() {
        let err = Output::prepare(Path::new("/proc/nope/out.csv"), "--out")
            .err()
            .unwrap();
        assert!(err.starts_with("--out '/proc/nope/out.csv'"), "{err}");
        let dir = tempfile::tempdir().unwrap();
        let err = Output::prepare(dir.path(), "--out").err().unwrap();
        assert!(err.contains("is a folder"), "{err}");
        // A file where a folder should be.
        std::fs::write(dir.path().join("f"), "x").unwrap();
        let err = Output::prepare(&dir.path().join("f/g/out.csv"), "--out")
            .err()
            .unwrap();
        assert!(err.contains("is not a folder"), "{err}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    /// Regression: an --out name too long for the file system failed only
    /// after the whole run, at the rename.
    #[test]
    fn a_name_too_long_is_refused_up_front() {
        let dir = tempfile::tempdir().unwrap();
        let long = "x".repeat(300) + ".csv";
        for path in [dir.path().join(&long), dir.path().join(&long).join("out.csv")] {
            let err = Output::prepare(&path, "--out").err().unwrap();
            assert!(err.contains("at most 255"), "{err}");
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn outputs_are_written_all_or_none_and_a_failure_removes_the_folders_made() {
        let dir = tempfile::tempdir().unwrap();
        let first = dir.path().join("new/a/x.csv");
        let second = dir.path().join("blocker/y.csv");
        let a = Output::prepare(&first, "--out").unwrap();
        let b = Output::prepare(&second, "--out").unwrap();
        // A file where the second output's folder must go: its folder
        // cannot be made when the results are written.
        std::fs::write(dir.path().join("blocker"), "x").unwrap();
        let err = commit_all(vec![(a, b"1".as_slice()), (b, b"2".as_slice())]).unwrap_err();
        assert!(err.contains("blocker"), "{err}");
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["blocker"], "the first output's folders stayed");
        // Both written when both can be.
        std::fs::remove_file(dir.path().join("blocker")).unwrap();
        let a = Output::prepare(&first, "--out").unwrap();
        let b = Output::prepare(&second, "--out").unwrap();
        let paths = commit_all(vec![(a, b"1".as_slice()), (b, b"2".as_slice())]).unwrap();
        assert_eq!(paths, [Some(first.clone()), Some(second.clone())]);
        assert_eq!(std::fs::read_to_string(&second).unwrap(), "2");
    }

    #[test]
    fn two_spellings_of_one_file_are_one_output_but_a_device_takes_several() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir(d.join("t")).unwrap();
        let err = check_distinct(&[
            ("--out".into(), d.join("t/standings.csv")),
            ("--xlsx".into(), d.join("t/../t/./standings.csv")),
        ])
        .unwrap_err();
        assert!(err.starts_with("--out and --xlsx are one file"), "{err}");
        // Below a folder that does not exist yet, too.
        assert!(check_distinct(&[("a".into(), d.join("n/x")), ("b".into(), d.join("n/../n/x"))]).is_err());
        check_distinct(&[("a".into(), d.join("t/a.csv")), ("b".into(), d.join("t/b.csv"))]).unwrap();
        check_distinct(&[("a".into(), "/dev/null".into()), ("b".into(), "/dev/null".into())]).unwrap();
    }

    #[test]
    fn an_existing_file_is_checked_without_being_emptied() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("keep.csv");
        std::fs::write(&path, "old").unwrap();
        let out = Output::prepare(&path, "--out").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        out.commit(b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
    }
}
