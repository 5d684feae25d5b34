//! One module per subcommand. Each returns whether it succeeded, for the exit code.

pub mod battle;
pub mod dev;
pub mod grade;
pub mod hint;
pub mod init;
pub mod list;
pub mod pbrain;
pub mod report;
pub mod reset;
pub mod run;
pub mod test;
pub mod tournament;

/// How a command ended, mapped to the process exit code by `main`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Everything asked for passed (exit 0).
    Success,
    /// An exercise failed (exit 1).
    Failure,
    /// Stopped by Ctrl-C or by this signal (exit 128 + its number, as shells report it).
    Stopped(i32),
}
