//! The command line: clap types only.

use clap::{Parser, Subcommand, ValueEnum};

use crate::i18n::Lang;
use crate::report::Format;
use crate::style::ColorChoice;

#[derive(Parser)]
#[command(
    name = "clings",
    version,
    about = "Graded C exercises: compile, run against fixtures, diff, hint."
)]
pub struct Cli {
    /// Language of messages, titles and hints (default: from LANG, else English).
    #[arg(long, global = true, value_enum)]
    pub lang: Option<LangArg>,
    /// When to colour the output.
    #[arg(long, global = true, value_enum, default_value_t)]
    pub color: ColorChoice,
    /// Cases run at once (default: one per core).
    #[arg(long, short, global = true)]
    pub jobs: Option<usize>,
    /// Fail instead of running student programs without isolation (for CI).
    #[arg(long, global = true)]
    pub require_isolation: bool,
    #[command(subcommand)]
    pub command: Option<Command>,
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

#[derive(Subcommand)]
pub enum Command {
    /// Every exercise in order, with its state and the course's progress.
    List,
    /// Compile an exercise and run it on its cases; marks it done when all pass.
    Run {
        /// An exercise name, or `next` for the next unfinished exercise.
        #[arg(default_value = "next")]
        name: String,
    },
    /// The next hint of the current (or named) exercise.
    Hint {
        name: Option<String>,
        /// Show every hint revealed so far instead of revealing a new one.
        #[arg(long)]
        all: bool,
    },
    /// Run the cases of the named exercises (all by default) and report.
    Test {
        names: Vec<String>,
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Put the original skeleton of an exercise back.
    Reset {
        name: String,
        /// Do not ask for confirmation.
        #[arg(long, short)]
        yes: bool,
    },
}
