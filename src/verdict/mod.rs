//! The verdict vocabulary, the one place that names every result: a case's [`Verdict`]
//! (with the [`Finding`] behind it) and an exercise's [`Status`], each a word that every
//! report prints the same way, padded to [`WORD_WIDTH`]. Where a verdict is decided is
//! [`judge`]; what it says to a student, [`explain`].

pub mod compare;
mod explain;
mod judge;

pub use explain::signal_name;
pub use judge::{Checked, Expected, JudgedBy, judge, reaches_output};

/// The exit status a sanitizer report ends the program with (the toolchain sets it through
/// `UBSAN_OPTIONS`/`ASAN_OPTIONS`), so the judge can tell a report from `exit(1)`.
pub const SANITIZER_EXIT_CODE: i32 = 86;

/// The column every report gives a verdict or status word: the longest of them.
pub const WORD_WIDTH: usize = 13;

/// One word per result, the same in every report (and in a case's `[[hints]]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Passed,
    WrongOutput,
    CompileError,
    Timeout,
    OutputLimit,
    MemoryLimit,
    Crashed,
    NonzeroExit,
    Sanitizer,
    NotRun,
}

impl Verdict {
    /// Every verdict, in the README's order.
    pub const ALL: [Verdict; 10] = [
        Verdict::Passed,
        Verdict::WrongOutput,
        Verdict::CompileError,
        Verdict::Timeout,
        Verdict::OutputLimit,
        Verdict::MemoryLimit,
        Verdict::Crashed,
        Verdict::NonzeroExit,
        Verdict::Sanitizer,
        Verdict::NotRun,
    ];

    /// The verdict a report's word names (a gradebook read back).
    pub fn from_word(word: &str) -> Option<Verdict> {
        Verdict::ALL
            .into_iter()
            .find(|verdict| verdict.as_str() == word)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Passed => "passed",
            Verdict::WrongOutput => "wrong_output",
            Verdict::CompileError => "compile_error",
            Verdict::Timeout => "timeout",
            Verdict::OutputLimit => "output_limit",
            Verdict::MemoryLimit => "memory_limit",
            Verdict::Crashed => "crashed",
            Verdict::NonzeroExit => "nonzero_exit",
            Verdict::Sanitizer => "sanitizer",
            Verdict::NotRun => "not_run",
        }
    }
}

/// How far a program stopped for its time or its output had got with its input, and what
/// its output says of it: the evidence that blames a loop on scanf's EOF, or does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputRead {
    /// Some of its input was still unread.
    Partly,
    /// All of it was read, and nothing since says the program reads on: a loop of its own
    /// (a counter that never reaches its bound) is as likely as one on ended input.
    All,
    /// All of it was read, and its output ends in the same text again and again: a loop
    /// that goes on reading past the end (scanf returns EOF) and prints each time round.
    AllThenRepeats,
}

impl InputRead {
    /// The evidence of a stopped run: whether it had read all its input, and `stdout`.
    pub fn of(input_exhausted: bool, stdout: &[u8]) -> InputRead {
        match (input_exhausted, ends_in_repeats(stdout)) {
            (false, _) => InputRead::Partly,
            (true, false) => InputRead::All,
            (true, true) => InputRead::AllThenRepeats,
        }
    }
}

/// Whether `stdout` ends in three copies of one piece of text, the shortest such piece at
/// least 8 bytes long (a prompt; a message and a prompt; a board and its prompt): what a
/// loop on ended input prints each time round. A shorter piece is part of one thing
/// printed once: a board's row (` .  .  .`) repeats every 3 bytes.
fn ends_in_repeats(stdout: &[u8]) -> bool {
    const COPIES: usize = 3;
    const SHORTEST: usize = 8;
    const LONGEST: usize = 4096;
    let shortest = (1..=LONGEST)
        .take_while(|period| period * COPIES <= stdout.len())
        .find(|&period| {
            let tail = &stdout[stdout.len() - period * COPIES..];
            tail.chunks(period).all(|chunk| chunk == &tail[..period])
        });
    shortest.is_some_and(|period| {
        let unit = &stdout[stdout.len() - period..];
        period >= SHORTEST && unit.iter().any(|byte| !byte.is_ascii_whitespace())
    })
}

/// A verdict with the facts its message is made of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    Passed,
    WrongOutput,
    /// The exercise did not compile, so this case never ran.
    NotRun,
    /// The exercise's file does not exist, so there was nothing to run.
    Missing,
    /// Not run because the program had already run out of time on other cases: it loops
    /// (see the grading stage's `looping`).
    Skipped,
    Timeout {
        clock: Clock,
        limit_ms: u64,
        input: InputRead,
        /// Whether it was using the processor (rather than sleeping or waiting); assumed
        /// when unknown.
        busy: bool,
    },
    OutputLimit {
        limit_bytes: usize,
        input: InputRead,
    },
    MemoryLimit {
        limit_mb: u64,
    },
    Crashed {
        signal: i32,
    },
    NonzeroExit {
        code: i32,
    },
    /// The program ended with another exit status than the case asks for (a case may ask
    /// for one besides 0: 1 for a file that cannot be opened).
    WrongExitStatus {
        code: i32,
        expected: i32,
    },
    /// The course's checker or referee judged the output wrong, saying why (its words,
    /// escaped).
    Rejected {
        by: JudgedBy,
        message: String,
    },
    /// A file the program was to leave in its working directory is not as expected.
    WrongFile {
        name: String,
        problem: FileProblem,
    },
    /// The sanitizer's first report line, which names the file and line. It comes from
    /// the program's stderr, so its control characters are escaped (see [`crate::util::style::visible`]).
    Sanitizer {
        report: String,
    },
}

/// What is wrong with a file the program was to leave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileProblem {
    Missing,
    /// A directory, a link, a pipe or a device where a file was expected.
    NotAFile,
    /// Larger than the run may write.
    TooBig,
    /// Its content differs from the expected file's.
    Differs,
}

/// Which time limit a program ran into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// Processor time, counted by the kernel (RLIMIT_CPU).
    Cpu,
    /// Real time, counted by clings.
    Wall,
}

impl Finding {
    pub fn verdict(&self) -> Verdict {
        match self {
            Finding::Passed => Verdict::Passed,
            Finding::WrongOutput
            | Finding::WrongExitStatus { .. }
            | Finding::WrongFile { .. }
            | Finding::Rejected { .. } => Verdict::WrongOutput,
            Finding::NotRun | Finding::Missing | Finding::Skipped => Verdict::NotRun,
            Finding::Timeout { .. } => Verdict::Timeout,
            Finding::OutputLimit { .. } => Verdict::OutputLimit,
            Finding::MemoryLimit { .. } => Verdict::MemoryLimit,
            Finding::Crashed { .. } => Verdict::Crashed,
            Finding::NonzeroExit { .. } => Verdict::NonzeroExit,
            Finding::Sanitizer { .. } => Verdict::Sanitizer,
        }
    }
}

/// How an exercise as a whole came out. Its words are the case verdicts' where they mean
/// the same (`passed`, `compile_error`), so no report spells one of them by hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Passed,
    Failed,
    CompileError,
    /// The student's file does not exist.
    Missing,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Passed => Verdict::Passed.as_str(),
            Status::Failed => "failed",
            Status::CompileError => Verdict::CompileError.as_str(),
            Status::Missing => "missing",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdict_names_are_the_documented_words() {
        // The words of the README's verdict table, which every report (text, JSON, JUnit,
        // GitHub, grades.csv) prints.
        let words = [
            (Verdict::Passed, "passed"),
            (Verdict::WrongOutput, "wrong_output"),
            (Verdict::CompileError, "compile_error"),
            (Verdict::Timeout, "timeout"),
            (Verdict::OutputLimit, "output_limit"),
            (Verdict::MemoryLimit, "memory_limit"),
            (Verdict::Crashed, "crashed"),
            (Verdict::NonzeroExit, "nonzero_exit"),
            (Verdict::Sanitizer, "sanitizer"),
            (Verdict::NotRun, "not_run"),
        ];
        let readme = include_str!("../../README.md");
        for (verdict, word) in words {
            assert_eq!(verdict.as_str(), word);
            assert_eq!(Verdict::from_word(word), Some(verdict));
            assert!(readme.contains(&format!("| `{word}` |")), "{word}");
        }
    }

    #[test]
    fn every_word_fits_the_column_and_the_longest_fills_it() {
        let verdicts = Verdict::ALL;
        let statuses = [
            Status::Passed,
            Status::Failed,
            Status::CompileError,
            Status::Missing,
        ];
        let words: Vec<&str> = verdicts
            .iter()
            .map(|verdict| verdict.as_str())
            .chain(statuses.iter().map(|status| status.as_str()))
            .collect();
        assert_eq!(words.iter().map(|word| word.len()).max(), Some(WORD_WIDTH));
        assert_eq!(Status::CompileError.as_str(), "compile_error");
        assert_eq!(Status::Failed.as_str(), "failed");
    }
}
