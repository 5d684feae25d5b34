//! The command line: clap types only.

use clap::{Parser, Subcommand, ValueEnum};

use crate::i18n::Lang;
use crate::report::Format;
use crate::style::ColorChoice;

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
    /// Cases run at once (default: one per core).
    #[arg(long, short, global = true)]
    pub jobs: Option<usize>,
    /// Watch mode (no command): run the exercise only when `r` is pressed, not on save.
    #[arg(long)]
    pub manual: bool,
    /// Watch mode (no command): look for saves every half second instead of relying on
    /// file notifications (for network drives or WSL's /mnt, where they may not arrive).
    #[arg(long, conflicts_with = "manual")]
    pub poll: bool,
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
