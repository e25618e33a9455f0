//! The files of a tournament or sweep: every destination checked before
//! any game is played, everything written only once the run is complete.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::engine::output::{Output, commit_all};

/// The files of a run, checked before any game is played.
pub struct Files {
    items: Vec<(Output, &'static str)>,
    xlsx: Option<Output>,
}

impl Files {
    /// Checks the folder `dir`, each file `names` in it, and the workbook
    /// path, before any game is played.
    pub fn prepare(dir: &Path, names: &[&'static str], xlsx: Option<&PathBuf>) -> Result<Files, String> {
        if dir.as_os_str() == "-" || dir.is_file() {
            return Err(format!(
                "--out '{}' must be a folder (the run writes several files into it)",
                dir.display()
            ));
        }
        let items = names
            .iter()
            .map(|n| Output::prepare(&dir.join(n), "--out").map(|o| (o, *n)))
            .collect::<Result<Vec<_>, _>>()?;
        let xlsx = match xlsx {
            Some(p) if p.as_os_str() == "-" => return Err("--xlsx needs a file path, not -".into()),
            Some(p) => Some(Output::prepare(p, "--xlsx")?),
            None => None,
        };
        Ok(Files { items, xlsx })
    }

    /// Every file the run writes, with what names it in errors (`--out
    /// 'DIR' (its NAME)`, `--xlsx`), for
    /// [`Job::check_outputs`](crate::engine::job::Job::check_outputs).
    pub fn destinations(&self, dir: &Path) -> Vec<(String, PathBuf)> {
        // The folder itself first: a workbook may not take its name either.
        let folder = (format!("--out '{}'", dir.display()), dir.to_path_buf());
        let mut all: Vec<(String, PathBuf)> = std::iter::once(folder)
            .chain(self.items.iter().filter_map(|(o, name)| {
                o.path()
                    .map(|p| (format!("--out '{}' (its {name})", dir.display()), p.to_path_buf()))
            }))
            .collect();
        if let Some(p) = self.xlsx.as_ref().and_then(Output::path) {
            all.push(("--xlsx".to_string(), p.to_path_buf()));
        }
        all
    }

    /// Writes every file (`contents` by name), lists them in `summary` and
    /// returns their paths: all of them or, when one cannot be written,
    /// none (see [`commit_all`]). The workbook goes first: a device that
    /// cannot take it (`--xlsx /dev/full`) then fails the run before any
    /// other file is written.
    pub fn commit(
        self,
        contents: &[(&str, Vec<u8>)],
        xlsx: Option<Vec<u8>>,
        summary: &mut Vec<u8>,
    ) -> Result<Vec<PathBuf>, String> {
        let mut outputs: Vec<(Output, &[u8])> = Vec::new();
        let workbook = match (self.xlsx, &xlsx) {
            (Some(out), Some(bytes)) => {
                outputs.push((out, bytes.as_slice()));
                true
            }
            _ => false,
        };
        for (out, name) in self.items {
            let bytes = contents
                .iter()
                .find(|(n, _)| n == &name)
                .map(|(_, b)| b.as_slice())
                .ok_or_else(|| format!("internal: no content for {name}"))?;
            outputs.push((out, bytes));
        }
        let mut paths = commit_all(outputs)?;
        // Listed with the workbook last.
        if workbook {
            let first = paths.remove(0);
            paths.push(first);
        }
        let written: Vec<PathBuf> = paths.into_iter().flatten().collect();
        for p in &written {
            let _ = writeln!(summary, "wrote {}", p.display());
        }
        Ok(written)
    }
}

/// A float in scientific notation with six decimals; empty when it is not
/// finite.
pub fn fe(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.6e}")
    } else {
        String::new()
    }
}
