//! The command line: the options every command shares, and which command runs (each
//! command's own arguments are in its file under `commands/`).

use clap::{Parser, Subcommand, ValueEnum};

use crate::commands;
use crate::util::i18n::Lang;
use crate::util::style::ColorChoice;

#[derive(Parser)]
#[command(
    name = "clings",
    version,
    about = "Graded C exercises: compile, run against fixtures, diff, hint.",
    long_about = "Graded C exercises: compile, run against fixtures, diff, hint.\n\n\
                  Without a command, clings starts watch mode: the current exercise is \
                  graded again each time you save it."
)]
pub struct Cli {
    /// Language of messages, titles and hints (default: from LANG, else English).
    #[arg(long, global = true, value_enum)]
    pub lang: Option<LangArg>,
    /// When to colour the output.
    #[arg(long, global = true, value_enum, default_value_t)]
    pub color: ColorChoice,
    /// How many run at once (default: one per core): cases (`test`), submissions
    /// (`grade`, each one's cases one after another), games (`tournament`).
    #[arg(long, short, global = true, value_parser = at_least_one_job)]
    pub jobs: Option<usize>,
    /// Watch mode (no command): run the exercise only when `r` is pressed, not on save.
    #[arg(long)]
    pub manual: bool,
    /// Watch mode (no command): look for saves every half second instead of relying on
    /// file notifications (for network drives or WSL's /mnt, where they may not arrive).
    #[arg(long, conflicts_with = "manual")]
    pub poll: bool,
    /// Fail instead of running student programs without isolation (for CI).
    #[arg(long, global = true)]
    pub require_isolation: bool,
    /// Grade other people's code (`--submission`, `grade`) even where it cannot be
    /// isolated: their programs and their compiles can then read and change whatever
    /// this user can.
    #[arg(long, global = true, conflicts_with = "require_isolation")]
    pub allow_unisolated: bool,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// `--jobs N`: no job at all would run nothing, so 0 is refused rather than taken as 1.
fn at_least_one_job(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) => {
            Err("0 jobs would run nothing: give at least 1 (the default is one per core)".into())
        }
        Ok(jobs) => Ok(jobs),
        Err(_) => Err(format!("{text:?} is not a number of jobs (1, 2, ...)")),
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub enum LangArg {
    En,
    Zh,
}

impl From<LangArg> for Lang {
    fn from(arg: LangArg) -> Lang {
        match arg {
            LangArg::En => Lang::En,
            LangArg::Zh => Lang::Zh,
        }
    }
}

/// Each command owns its arguments (in its own file under `commands/`).
#[derive(Subcommand)]
pub enum Command {
    Init(commands::init::Args),
    /// Every exercise in order, with its state and the course's progress.
    List,
    Run(commands::run::Args),
    Hint(commands::hint::Args),
    Test(commands::test::Args),
    Grade(commands::grade::Args),
    Report(commands::report::Args),
    Battle(commands::battle::Args),
    Tournament(commands::tournament::Args),
    Pbrain(commands::pbrain::Args),
    Dev {
        #[command(subcommand)]
        command: commands::dev::Command,
    },
    Reset(commands::reset::Args),
}
