//! Why a command failed, and the exit code that says so.
//!
//! Exit codes: 0 done; 1 the run was refused or failed for a reason other
//! than its arguments: an output that cannot be written (`--out`,
//! `--state`, `--xlsx`), whether found before any game is played or at the
//! end, a full disk, a summary that cannot be shown; 2 the command line
//! was wrong: clap's parse errors, and every value the parser accepted in
//! form but the command refuses (an unknown policy, a player count the
//! game does not allow, a sweep range too large, state files that do not
//! belong together, options that do not go together, two outputs on one
//! file); 130 stopped by Ctrl-C or SIGTERM, with what was done kept in a
//! state file.

/// A failed command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Bad input on the command line or in a file it names (exit 2).
    Usage(String),
    /// Anything else (exit 1).
    Run(String),
    /// Stopped by Ctrl-C or SIGTERM after writing what it had done to a
    /// state file (exit 130).
    Interrupted(String),
}

impl Failure {
    /// The process exit code.
    pub fn code(&self) -> i32 {
        match self {
            Failure::Usage(_) => 2,
            Failure::Run(_) => 1,
            Failure::Interrupted(_) => 130,
        }
    }

    /// The message.
    pub fn message(&self) -> &str {
        match self {
            Failure::Usage(m) | Failure::Run(m) | Failure::Interrupted(m) => m,
        }
    }
}

impl From<String> for Failure {
    fn from(m: String) -> Failure {
        Failure::Run(m)
    }
}

impl From<&str> for Failure {
    fn from(m: &str) -> Failure {
        Failure::Run(m.to_string())
    }
}

/// Marks an error of checking the command line's values as a usage error.
pub trait Usage<T> {
    /// `Err(m)` becomes [`Failure::Usage`]`(m)`.
    fn usage(self) -> Result<T, Failure>;
}

impl<T> Usage<T> for Result<T, String> {
    fn usage(self) -> Result<T, Failure> {
        self.map_err(Failure::Usage)
    }
}
