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
        // Names longer than file systems take fail now, not at the rename.
        for part in path.components() {
            if part.as_os_str().len() > 255 {
                return Err(format!(
                    "{flag} '{shown}': a name in the path is {} bytes long; file systems take at most 255",
                    part.as_os_str().len()
                ));
            }
        }
        if parent.is_dir() {
            probe_file(path).map_err(|e| format!("{flag} '{shown}': cannot write it: {e}"))?;
        } else {
            // The folders are made only when the result is written; check
            // that they can be: the nearest existing one must be a writable
            // folder.
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
        }
        Ok(Output::File {
            path: path.to_path_buf(),
            dir: parent,
        })
    }

    /// Writes `bytes` and moves the file into place. Returns the path written
    /// (None for stdout).
    pub fn commit(self, bytes: &[u8]) -> Result<Option<PathBuf>, String> {
        match self {
            Output::Stdout => {
                let mut out = std::io::stdout().lock();
                ignore_closed_pipe(out.write_all(bytes).and_then(|_| out.flush()))
                    .map_err(|e| format!("cannot write to stdout: {e}"))?;
                Ok(None)
            }
            Output::Special(mut file, path) => {
                file.write_all(bytes)
                    .and_then(|_| file.flush())
                    .map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
                Ok(Some(path))
            }
            Output::File { path, dir } => {
                let shown = path.display().to_string();
                std::fs::create_dir_all(&dir)
                    .map_err(|e| format!("cannot create the folder '{}': {e}", dir.display()))?;
                let mut tmp = partial_file(&dir).map_err(|e| format!("cannot write '{shown}': {e}"))?;
                tmp.write_all(bytes)
                    .and_then(|_| tmp.as_file().sync_all())
                    .map_err(|e| format!("cannot write '{shown}': {e}"))?;
                tmp.persist(&path)
                    .map_err(|e| format!("cannot move the finished file to '{shown}': {}", e.error))?;
                Ok(Some(path))
            }
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
    // tempfile adds "at path <the temporary name>" to its errors: the
    // reader never asked for that file, so only the system's reason stays.
    b.tempfile_in(dir).map_err(|e| {
        std::io::Error::new(
            e.kind(),
            e.to_string().split(" at path ").next().unwrap_or("").to_string(),
        )
    })
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
