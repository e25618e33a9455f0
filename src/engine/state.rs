//! State files: what a shard, an interrupted run or a checkpoint keeps of
//! the batches it played, so that `sim merge` or `--resume` can finish the
//! run exactly as one uninterrupted process would have.
//!
//! A state file is one JSON object (format `sim-state`, version
//! [`VERSION`]; every field is described in `docs/cluster.md`):
//!
//! - `definition`: what makes two processes parts of the same run (the
//!   command, the game, its options, the policies as resolved, the seed
//!   as a string of digits, the games, the version of `sim`). States merge
//!   only when their definitions are equal.
//! - `command`: the command line of the run (without `--shard`, `--state`,
//!   `--resume`, `--checkpoint` and `--threads`), which `sim merge` runs to
//!   write the files.
//! - `batches`, `shard` and `done`: the run's batches, the share this
//!   process was given, and the half-open batch ranges it played.
//! - `tally`: the integer totals of those batches (the game's accumulator
//!   or the tournament's tally); no float crosses a shard boundary.
//! - `checksum`: FNV-1a (64 bits) of the file written with an empty
//!   checksum, so a truncated or altered file is refused.

use std::ops::Range;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

/// The `format` field of every state file.
pub const FORMAT: &str = "sim-state";

/// The version of the state format this build writes. Version 1 (the
/// seed of the definition a JSON number) is read too.
pub const VERSION: u32 = 2;

/// The oldest version of the state format this build reads.
pub const OLDEST_VERSION: u32 = 1;

/// One state file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct State {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`VERSION`] when written by this build.
    pub version: u32,
    /// What makes states parts of one run.
    pub definition: Value,
    /// The run's command line after `sim`.
    pub command: Vec<String>,
    /// Batches of the whole run.
    pub batches: u64,
    /// `[K, N]` for shard K of N, or none for a whole run.
    pub shard: Option<[u64; 2]>,
    /// Half-open batch ranges played, sorted and disjoint.
    pub done: Vec<[u64; 2]>,
    /// The integer totals of those batches, as written (kept as raw JSON so
    /// that integers of any size come back exactly).
    pub tally: Box<RawValue>,
    /// FNV-1a of the file with this field empty, in hex.
    pub checksum: String,
}

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl State {
    /// The file's bytes, checksum included.
    pub fn to_bytes(&self) -> Result<Vec<u8>, String> {
        let mut s = self.clone();
        s.checksum = String::new();
        let body = serde_json::to_vec_pretty(&s).map_err(|e| format!("cannot encode a state: {e}"))?;
        s.checksum = format!("{:016x}", fnv1a(&body));
        let mut bytes = serde_json::to_vec_pretty(&s).map_err(|e| format!("cannot encode a state: {e}"))?;
        bytes.push(b'\n');
        Ok(bytes)
    }

    /// Reads and checks the state file at `path`: its format, version and
    /// checksum. Errors name the file.
    pub fn read(path: &Path) -> Result<State, String> {
        let shown = path.display();
        let bytes = std::fs::read(path).map_err(|e| format!("state file '{shown}': cannot read it: {e}"))?;
        /// The fields read first, to say what a file is before reading it.
        #[derive(Deserialize)]
        struct Head {
            format: Option<String>,
            version: Option<u64>,
        }
        let head: Head = serde_json::from_slice(&bytes).map_err(|e| {
            format!("state file '{shown}' is not a complete state file (truncated or not JSON: {e})")
        })?;
        if head.format.as_deref() != Some(FORMAT) {
            return Err(format!(
                "'{shown}' is not a sim state file (no \"format\": \"{FORMAT}\")"
            ));
        }
        match head.version {
            Some(v) if (u64::from(OLDEST_VERSION)..=u64::from(VERSION)).contains(&v) => {}
            Some(v) if v > u64::from(VERSION) => {
                return Err(format!(
                    "state file '{shown}' has format version {v}, newer than this sim reads ({VERSION}): \
                     merge it with the sim that wrote it"
                ));
            }
            other => {
                return Err(format!(
                    "state file '{shown}' has format version {}, this sim reads versions \
                     {OLDEST_VERSION} to {VERSION}",
                    other.map_or("none".to_string(), |v| v.to_string())
                ));
            }
        }
        let mut state: State =
            serde_json::from_slice(&bytes).map_err(|e| format!("state file '{shown}' is damaged: {e}"))?;
        let mut blank = state.clone();
        blank.checksum = String::new();
        let body = serde_json::to_vec_pretty(&blank).map_err(|e| e.to_string())?;
        if format!("{:016x}", fnv1a(&body)) != state.checksum {
            return Err(format!(
                "state file '{shown}' is damaged: its checksum does not match its contents"
            ));
        }
        if let Err(what) = state.check_fields() {
            return Err(format!(
                "state file '{shown}' is not consistent: {what}; it was edited or damaged: {}",
                state.remedy()
            ));
        }
        // Version 1 wrote the seed as a number (exact in the file, but not
        // through every JSON tool): read it as the string version 2 writes.
        if let Some(seed) = state.definition.get("seed").filter(|s| s.is_u64()) {
            state.definition["seed"] = seed.to_string().into();
        }
        Ok(state)
    }

    /// What a state that is not consistent asks for: its part of the run
    /// played again.
    pub fn remedy(&self) -> String {
        match self.shard {
            Some([k, n]) => format!("write it again by running the shard again (--shard {k}/{n})"),
            None => "play the run again without it".to_string(),
        }
    }

    /// Refuses fields that cannot be together: a shard K/N with K from 1 to
    /// N, and batch ranges not empty, in order, not touching or
    /// overlapping, within the run's batches and the shard's share. Says
    /// what is wrong and names the field.
    fn check_fields(&self) -> Result<(), String> {
        let share = match self.shard {
            Some([k, n]) if k == 0 || k > n => {
                return Err(format!("shard {k}/{n} is not one of its run's shards (shard)"));
            }
            Some([k, n]) => share(k, n, self.batches),
            None => 0..self.batches,
        };
        let part = match self.shard {
            Some([k, n]) => format!("shard {k}/{n}'s batches, {}..{}", share.start, share.end),
            None => format!("the run's {} batches", self.batches),
        };
        for (i, r) in self.ranges().iter().enumerate() {
            let shown = format!("[{}, {})", r.start, r.end);
            if r.start >= r.end {
                return Err(format!("range {shown} is empty or reversed (done[{i}])"));
            }
            if r.start < share.start || r.end > share.end {
                return Err(format!("range {shown} is not within {part} (done[{i}])"));
            }
            if i > 0 && self.done[i - 1][1] >= r.start {
                return Err(format!(
                    "range {shown} does not come after the range before it, [{}, {}): ranges are \
                     sorted and apart (done[{i}])",
                    self.done[i - 1][0],
                    self.done[i - 1][1]
                ));
            }
        }
        Ok(())
    }

    /// The batch ranges played.
    pub fn ranges(&self) -> Vec<Range<u64>> {
        self.done.iter().map(|r| r[0]..r[1]).collect()
    }
}

/// The batches of shard `k` of `n` (1-based) of a run of `batches`
/// batches: the `k`-th of `n` consecutive ranges as equal as whole batches
/// allow (empty when there are more shards than batches).
pub fn share(k: u64, n: u64, batches: u64) -> Range<u64> {
    let cut = |i: u64| (u128::from(batches) * u128::from(i) / u128::from(n)) as u64;
    cut(k - 1)..cut(k)
}

/// Sorts `ranges` and joins those that touch or overlap.
pub fn normalize(mut ranges: Vec<Range<u64>>) -> Vec<Range<u64>> {
    ranges.retain(|r| r.start < r.end);
    ranges.sort_by_key(|r| r.start);
    let mut out: Vec<Range<u64>> = Vec::with_capacity(ranges.len());
    for r in ranges {
        match out.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

/// The parts of `want` not in `have` (`have` normalized).
pub fn missing(want: &Range<u64>, have: &[Range<u64>]) -> Vec<Range<u64>> {
    let mut out = Vec::new();
    let mut at = want.start;
    for r in have {
        if r.end <= at || r.start >= want.end {
            continue;
        }
        if r.start > at {
            out.push(at..r.start);
        }
        at = at.max(r.end);
    }
    if at < want.end {
        out.push(at..want.end);
    }
    out
}

/// `a..b` as people count batches: `batch 4` or `batches 4 to 9`
/// (1-based, inclusive).
pub fn describe(r: &Range<u64>) -> String {
    if r.end == r.start + 1 {
        format!("batch {}", r.start + 1)
    } else {
        format!("batches {} to {}", r.start + 1, r.end)
    }
}

/// The keys whose values differ between two definitions, as
/// `key: A vs B`.
pub fn differences(a: &Value, b: &Value) -> Vec<String> {
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return vec![format!("{a} vs {b}")];
    };
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| {
            // A string (the seed) shows without its JSON quotes.
            let show = |v: Option<&Value>| match v {
                None => "(none)".to_string(),
                Some(Value::String(t)) => t.clone(),
                Some(v) => v.to_string(),
            };
            format!("{k}: {} vs {}", show(a.get(k)), show(b.get(k)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_cover_every_batch_once_for_any_shard_count() {
        for batches in [0u64, 1, 7, 64, 1000] {
            for n in 1..=12u64 {
                let mut next = 0;
                for k in 1..=n {
                    let r = share(k, n, batches);
                    assert_eq!(r.start, next);
                    next = r.end;
                }
                assert_eq!(next, batches);
            }
        }
    }

    #[test]
    fn missing_ranges_are_the_complement() {
        let have = normalize(vec![5..8, 0..2, 7..10, 12..13]);
        assert_eq!(have, vec![0..2, 5..10, 12..13]);
        assert_eq!(missing(&(0..15), &have), vec![2..5, 10..12, 13..15]);
        assert_eq!(missing(&(6..9), &have), vec![]);
        assert_eq!(missing(&(0..0), &have), vec![]);
    }

    #[test]
    fn a_state_round_trips_and_a_changed_byte_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        let s = State {
            format: FORMAT.into(),
            version: VERSION,
            definition: serde_json::json!({"game": "x", "seed": 1}),
            command: vec!["x".into()],
            batches: 10,
            shard: Some([1, 2]),
            done: vec![[0, 5]],
            tally: RawValue::from_string(format!("{{\"games\": 5120, \"big\": {}}}", i128::MAX)).unwrap(),
            checksum: String::new(),
        };
        std::fs::write(&path, s.to_bytes().unwrap()).unwrap();
        let back = State::read(&path).unwrap();
        assert_eq!(back.tally.get(), s.tally.get());
        #[derive(Deserialize)]
        struct T {
            big: i128,
        }
        assert_eq!(
            serde_json::from_str::<T>(back.tally.get()).unwrap().big,
            i128::MAX
        );
        assert_eq!(back.ranges(), vec![0..5]);
        let text = std::fs::read_to_string(&path).unwrap().replace("5120", "5121");
        std::fs::write(&path, text).unwrap();
        assert!(State::read(&path).unwrap_err().contains("checksum"));
    }

    #[test]
    fn a_version_1_state_with_a_numeric_seed_is_read_with_the_seed_as_a_string() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.json");
        let old = State {
            format: FORMAT.into(),
            version: 1,
            definition: serde_json::json!({"game": "x", "seed": 17_797_063_525_853_281_234u64}),
            command: vec!["x".into()],
            batches: 2,
            shard: None,
            done: vec![[0, 1]],
            tally: RawValue::from_string("{}".into()).unwrap(),
            checksum: String::new(),
        };
        std::fs::write(&path, old.to_bytes().unwrap()).unwrap();
        let back = State::read(&path).unwrap();
        assert_eq!(back.definition["seed"], "17797063525853281234");
    }
}
