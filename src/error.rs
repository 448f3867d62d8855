//! How a command fails: [`CliError`], the exit codes, and [`note!`] for messages on
//! standard error.

/// `eprintln!` that ignores write failures: with standard error closed (`2>&1 | head`) the
/// summary and messages are dropped instead of panicking.
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// Exit code: every puzzle solved.
pub const EXIT_OK: u8 = 0;
/// Exit code: some puzzle was not solved, or some input was bad.
pub const EXIT_UNSOLVED: u8 = 1;
/// Exit code: bad arguments.
pub const EXIT_USAGE: u8 = 2;

/// A command failure: usage errors exit with 2, everything else with 1.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad arguments or arguments that do not fit together.
    #[error("{0}")]
    Usage(String),
    /// Reading or writing failed.
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// Anything else that stops the command.
    #[error("{0}")]
    Failed(String),
}

impl CliError {
    /// The exit code this failure ends the program with.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => EXIT_USAGE,
            CliError::Io { .. } | CliError::Failed(_) => EXIT_UNSOLVED,
        }
    }
}

/// Turns a `--flag` validation failure into a usage error.
pub fn usage(message: impl Into<String>) -> CliError {
    CliError::Usage(message.into())
}

/// Whether results were written (`Ok(true)`), or the reader is gone (`Ok(false)`): a closed
/// pipe, as in `csp ... | head`, means the reader has seen enough and ends the command
/// quietly. Any other failure to write is an error about `context`.
pub fn written(result: std::io::Result<()>, context: &str) -> Result<bool, CliError> {
    match result {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
        Err(source) => Err(CliError::Io {
            context: context.to_string(),
            source,
        }),
    }
}
