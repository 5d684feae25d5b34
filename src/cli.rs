//! The command line: clap types only.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::report::Format;
use crate::util::i18n::Lang;
use crate::util::shard::Shard;
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
    /// Cases run at once (default: one per core).
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

#[derive(Subcommand)]
pub enum Command {
    /// Make your own course folder (exercises, cases, referee, bots) and start there.
    Init {
        /// The folder to make; it must not exist, or be empty (default: gomoku).
        dir: Option<PathBuf>,
        /// Make it from this course folder instead of the course built into clings.
        #[arg(long, value_name = "COURSE")]
        from: Option<PathBuf>,
    },
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
        /// Grade the exercise files in DIR (a copy of exercises/, or a repository with the
        /// course layout) without touching the course's own files or progress.
        #[arg(long, value_name = "DIR")]
        submission: Option<PathBuf>,
        /// Add hidden cases from DIR (same layout as fixtures/): verdicts and hints only.
        #[arg(long, value_name = "DIR")]
        fixtures: Option<PathBuf>,
        /// Write the report in --format to FILE; the terminal still gets the human report.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Practice chapters (`graded = false`) count toward the result too: without it,
        /// every exercise of a graded chapter passing is a pass (exit 0). Exercises named
        /// count whatever their chapter.
        #[arg(long, visible_alias = "all-chapters")]
        count_practice: bool,
    },
    /// Grade a whole class: every subdirectory of SUBMISSIONS is one student's submission.
    Grade {
        /// The directory of submissions (one subdirectory per student).
        #[arg(required_unless_present = "merge", conflicts_with = "merge")]
        submissions: Option<PathBuf>,
        /// Combine the grades.json of several shards into one gradebook.
        #[arg(long, num_args = 1.., value_name = "GRADES_JSON")]
        merge: Vec<PathBuf>,
        /// Grade only slice K of N (deterministic by student name), e.g. 2/4.
        #[arg(long, value_name = "K/N")]
        shard: Option<Shard>,
        /// Add hidden cases from DIR (same layout as fixtures/).
        #[arg(long, value_name = "DIR")]
        fixtures: Option<PathBuf>,
        /// Where grades.csv and grades.json are written.
        #[arg(long, value_name = "DIR", default_value = ".")]
        out: PathBuf,
        /// Also write the class report, a self-contained HTML page, to FILE.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
    },
    /// Draw the class report of gradebooks already written (several are merged as
    /// `grade --merge` does): no grading, no course needed.
    Report {
        /// The grades.json files.
        #[arg(required = true, value_name = "GRADES_JSON")]
        gradebooks: Vec<PathBuf>,
        /// Write the report, a self-contained HTML page, to FILE.
        #[arg(long, value_name = "FILE", required = true)]
        html: PathBuf,
    },
    /// Two players play Gomoku through the course's referee, the board drawn move by
    /// move; each game's replay is written (the `replay` exercise's format).
    Battle {
        /// A player: a C file, a student's directory (course layout), or a course bot by
        /// name (a file of bots/: random, priorities, strong).
        a: String,
        /// The other player, the same way.
        b: String,
        /// How many games, colours alternating (A has X in the first).
        #[arg(long, default_value_t = 1)]
        games: u32,
        /// The seed of the course bots' games (game N plays with SEED + N - 1).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Where each game's replay is written (game-1.txt, ...).
        #[arg(long, value_name = "DIR", default_value = "battle")]
        out: PathBuf,
        /// In a terminal, the pause between two moves drawn, in milliseconds (the
        /// programs play at their own pace: a game between bots lasts a blink).
        #[arg(long, value_name = "MS", default_value_t = 150)]
        delay: u64,
        /// The exercise whose referee judges (default: the first that has one).
        #[arg(long)]
        exercise: Option<String>,
    },
    /// A class tournament: every player meets every other in two games, colours
    /// swapped (round robin), games in parallel; standings with a rating, crosstable,
    /// every game's record.
    Tournament {
        /// The directory of submissions (one subdirectory per student, as for `grade`).
        #[arg(required_unless_present = "merge", conflicts_with = "merge")]
        submissions: Option<PathBuf>,
        /// Add a course bot as a player (repeat for several): random, priorities, strong.
        #[arg(long = "bot", value_name = "NAME")]
        bots: Vec<String>,
        /// How many times each pair meets; each time is two games, colours swapped.
        #[arg(long, default_value_t = 1)]
        rounds: u32,
        /// The seed of the course bots' games (each game has its own, recorded).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Play only slice K of N of the games (deterministic), e.g. 2/4.
        #[arg(long, value_name = "K/N")]
        shard: Option<Shard>,
        /// Combine the tournament.json of several shards into one.
        #[arg(long, num_args = 1.., value_name = "TOURNAMENT_JSON")]
        merge: Vec<PathBuf>,
        /// Where tournament.json, standings.csv and the games' replays are written.
        #[arg(long, value_name = "DIR", default_value = "tournament")]
        out: PathBuf,
        /// Also write the tournament's page to FILE: standings, crosstable and every
        /// game replayable on a board, one self-contained HTML page.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
        /// The exercise whose referee judges (default: the first that has one).
        #[arg(long)]
        exercise: Option<String>,
    },
    /// Instructor tools: check the course, add cases, recompute expected outputs.
    Dev {
        #[command(subcommand)]
        command: DevCommand,
    },
    /// Put the original skeleton of an exercise back.
    Reset {
        name: String,
        /// Do not ask for confirmation.
        #[arg(long, short)]
        yes: bool,
    },
}

#[derive(Subcommand)]
pub enum DevCommand {
    /// Validate the course: files, inputs, translations; solutions pass every case,
    /// skeletons and known-wrong programs fail at least one. What grading an exercise's
    /// programs found is remembered until something it read changes.
    Check {
        /// Only these exercises (what concerns the course as a whole is checked too);
        /// default: every exercise.
        exercises: Vec<String>,
    },
    /// Add a case whose expected output is computed by the reference solution.
    NewCase(NewCase),
    /// Recompute expected outputs from the reference solution, showing what changes.
    Bless {
        exercise: Option<String>,
        /// Write without asking.
        #[arg(long, short)]
        yes: bool,
    },
    /// Measure how strong the cases are: grade mutants of the reference solution (one small
    /// change each), print the share the cases kill, and for each survivor an input that
    /// tells it from the reference.
    Mutants(Mutants),
}

/// `dev mutants`: which exercises, and how hard to look for inputs.
#[derive(Args)]
pub struct Mutants {
    /// The exercises (default: every exercise with a reference solution).
    pub exercises: Vec<String>,
    /// Made-up inputs tried on a surviving mutant before it is called equivalent.
    #[arg(long, default_value_t = 300, value_name = "N")]
    pub tries: usize,
    /// The seed of the made-up inputs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Exit 1 unless every exercise's mutation score reaches this (for CI).
    #[arg(long, value_name = "PERCENT")]
    pub min_score: Option<f64>,
}

/// `dev new-case`: what the case is made of.
#[derive(Args)]
pub struct NewCase {
    pub exercise: String,
    pub name: String,
    /// The case's stdin (default: read from stdin, unless the exercise reads none, or the
    /// case has arguments).
    #[arg(long)]
    pub input: Option<PathBuf>,
    /// A command-line argument for the program (repeat for several).
    #[arg(long = "arg", value_name = "ARG", allow_hyphen_values = true)]
    pub args: Vec<String>,
    /// A file placed in the program's working directory before it starts, under its own
    /// name (repeat for several); copied to <case>.given/.
    #[arg(long, value_name = "FILE")]
    pub given: Vec<PathBuf>,
    /// A file the program must leave in its working directory (repeat for several); the
    /// reference solution's is written to <case>.expected/.
    #[arg(long = "expect-file", value_name = "NAME")]
    pub expect_files: Vec<String>,
    /// The exit status the program must end with (default 0).
    #[arg(long, value_name = "STATUS")]
    pub exit_code: Option<i32>,
    /// The case's description in English, written to its .toml (with --description-zh:
    /// every description is in both languages).
    #[arg(long, value_name = "TEXT")]
    pub description: Option<String>,
    /// The same description in Chinese.
    #[arg(long, value_name = "TEXT")]
    pub description_zh: Option<String>,
}
