//! What grading found: each case's result, each exercise's, and their totals, as every
//! report and the gradebook read them.

use std::path::PathBuf;
use std::time::Duration;

use crate::course::Chapter;
use crate::course::fixture::{Case, Failure};
use crate::sandbox::{Left, Side};
use crate::util::i18n::Text;
use crate::verdict::compare::{CompareMode, Divergence};
use crate::verdict::{FileProblem, Finding, Status};

#[derive(Clone)]
pub struct CaseResult {
    pub case: Case,
    pub finding: Finding,
    pub mode: CompareMode,
    pub elapsed: Duration,
    /// The input as the reports may show it (see [`Case::shown_input`]).
    pub input: Vec<u8>,
    /// The files given to the program, as the reports may show them (see
    /// [`Case::shown_given`]).
    pub given: Vec<(String, Vec<u8>)>,
    pub expected: Vec<u8>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// The files the program was to leave: their expected content, and what it left.
    pub expected_files: Vec<(String, Vec<u8>)>,
    pub left_files: Vec<(String, Left)>,
    /// What the program and the referee said, in an interactive case (none of a hidden
    /// one's).
    pub conversation: Vec<(Side, String)>,
    /// The hint of the known mistake that the exercise's results show, on each case it
    /// explains that fails as it does (see [`Mistake`]).
    pub mistake: Option<Text>,
    /// Where a failing run's stdout first parted from the expected output (none where a
    /// checker or referee judged it).
    pub diverged: Option<Divergence>,
}

/// The two sides of a wrong output that a report draws as a diff: stdout's, or those of
/// the file that differs, named.
pub struct Compared<'a> {
    pub file: Option<&'a str>,
    pub expected: &'a [u8],
    pub actual: &'a [u8],
}

impl CaseResult {
    /// A case that was not run, for the reason `finding` gives, compared by `mode` had it.
    pub fn unrun(case: Case, finding: Finding, mode: CompareMode) -> CaseResult {
        CaseResult {
            case,
            finding,
            mode,
            elapsed: Duration::ZERO,
            input: Vec::new(),
            given: Vec::new(),
            expected: Vec::new(),
            stdout: Vec::new(),
            stderr: Vec::new(),
            expected_files: Vec::new(),
            left_files: Vec::new(),
            conversation: Vec::new(),
            mistake: None,
            diverged: None,
        }
    }

    /// What the diff of this case is of: stdout when it is wrong (also when the run was
    /// stopped after it had gone wrong), the file that differs; `None` when no diff tells
    /// what went wrong (a missing file, a wrong exit status, another verdict).
    pub fn compared(&self) -> Option<Compared<'_>> {
        if self.wrong_before_it_stopped() {
            // A loop's output goes on: the diff shows it up to a little past the wrong.
            return self.diverged.as_ref().map(|found| Compared {
                file: None,
                expected: &self.expected,
                actual: found.shown.as_bytes(),
            });
        }
        let name = match &self.finding {
            Finding::WrongOutput => {
                return Some(Compared {
                    file: None,
                    expected: &self.expected,
                    actual: &self.stdout,
                });
            }
            Finding::WrongFile {
                name,
                problem: FileProblem::Differs,
            } => name,
            _ => return None,
        };
        let expected = self
            .expected_files
            .iter()
            .find_map(|(file, content)| (file == name).then_some(content))?;
        let actual = self.left_files.iter().find_map(|(file, left)| match left {
            Left::File(content) if file == name => Some(content),
            _ => None,
        })?;
        Some(Compared {
            file: Some(name),
            expected,
            actual,
        })
    }

    /// The case's hint that fits how it failed, if any (see [`CaseConfig::hint_for`]).
    pub fn hint(&self) -> Option<&Text> {
        self.hint_and_sharpness().map(|(hint, _)| hint)
    }

    /// The hint, and how sharply it names the mistake: the reports show the failures
    /// with the sharpest hints in full first. A known mistake that the results of the
    /// whole exercise show is the sharpest (3), then a rule that read the output (2).
    pub fn hint_and_sharpness(&self) -> Option<(&Text, u8)> {
        if self.finding == Finding::Passed {
            return None;
        }
        if let Some(mistake) = &self.mistake {
            return Some((mistake, 3));
        }
        self.case.config.hint_for(&Failure {
            verdict: self.finding.verdict(),
            stdout: &self.stdout,
            report: match &self.finding {
                Finding::Sanitizer { report } => Some(report),
                _ => None,
            },
            message: match &self.finding {
                Finding::Rejected { message, .. } => Some(message),
                _ => None,
            },
            diverged: self.diverged.as_ref(),
        })
    }

    /// Whether the run was stopped or crashed after its output had already gone wrong:
    /// the wrong output is then the first thing to fix, the stop its consequence.
    pub fn wrong_before_it_stopped(&self) -> bool {
        !matches!(self.finding, Finding::Passed | Finding::WrongOutput)
            && self.diverged.as_ref().is_some_and(Divergence::differs)
    }

    /// Whether the case failed as `verdict` says (see [`Failure::is`]).
    pub fn fails_as(&self, verdict: crate::verdict::Verdict) -> bool {
        self.finding.verdict() == verdict
            || (verdict == crate::verdict::Verdict::WrongOutput && self.wrong_before_it_stopped())
    }

    /// Whether the exercise may pass with this result: the case passed, or it is a bonus.
    pub fn allows_passing(&self) -> bool {
        self.finding == Finding::Passed || self.case.bonus()
    }

    /// Whether the case ran and failed: a case not run says nothing of a mistake.
    pub fn failed(&self) -> bool {
        !matches!(
            self.finding,
            Finding::Passed | Finding::Skipped | Finding::NotRun | Finding::Missing
        )
    }

    pub fn points(&self) -> u32 {
        if self.finding == Finding::Passed {
            self.case.points()
        } else {
            0
        }
    }
}

#[derive(Clone)]
pub struct ExerciseResult {
    pub name: String,
    pub title: Text,
    /// The chapter of the course it belongs to.
    pub chapter: Chapter,
    /// The file that was graded, as the student knows it.
    pub source: PathBuf,
    pub status: Status,
    /// The file handed in is the exercise's skeleton, byte for byte: the student has not
    /// started it (whatever points the skeleton earns).
    pub unchanged: bool,
    /// What the compiler printed (with its colour codes); empty when it said nothing.
    pub diagnostics: String,
    pub cases: Vec<CaseResult>,
    /// How many of its hidden cases passed, when that is all the reports say of them
    /// (`--hidden-feedback total`, see [`crate::grade::hidden`]); they are then left out of
    /// `cases`.
    pub hidden_total: Option<HiddenTotal>,
}

/// An exercise's hidden cases, counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HiddenTotal {
    pub passed: usize,
    pub cases: usize,
}

/// Whether an exercise with these results passes: every case passed, or is a bonus.
pub fn allow_passing<'a>(cases: impl IntoIterator<Item = &'a CaseResult>) -> bool {
    cases.into_iter().all(CaseResult::allows_passing)
}

impl ExerciseResult {
    pub fn passed(&self) -> bool {
        self.status == Status::Passed
    }

    pub fn points(&self) -> u32 {
        self.cases.iter().map(CaseResult::points).sum()
    }

    pub fn max_points(&self) -> u32 {
        self.cases.iter().map(|result| result.case.points()).sum()
    }

    /// The indices of the failing cases that ran, those that fail the exercise before the
    /// bonus ones, and among them those whose hints name the mistake most sharply first (a
    /// hint that read the output, then any fitting hint), then in order: the reports show
    /// the first ones in full.
    pub fn sharpest_failures(&self) -> Vec<usize> {
        let mut failing: Vec<(usize, bool, u8)> = self
            .cases
            .iter()
            .enumerate()
            .filter(|(_, case)| !matches!(case.finding, Finding::Passed | Finding::Skipped))
            .map(|(index, case)| {
                let sharpness = case.hint_and_sharpness().map_or(0, |(_, sharp)| sharp);
                (index, case.case.bonus(), sharpness)
            })
            .collect();
        failing
            .sort_by_key(|&(index, bonus, sharpness)| (bonus, std::cmp::Reverse(sharpness), index));
        failing.into_iter().map(|(index, _, _)| index).collect()
    }

    /// The hint a student sees first: that of the sharpest failure, if it has one.
    pub fn first_hint(&self) -> Option<&Text> {
        let first = *self.sharpest_failures().first()?;
        self.cases[first].hint()
    }

    pub fn cases_passed(&self) -> usize {
        self.cases
            .iter()
            .filter(|result| result.finding == Finding::Passed)
            .count()
    }
}

/// What the grading of several exercises adds up to, as every report totals it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Totals {
    pub passed: usize,
    pub failed: usize,
    pub points: u32,
    pub max_points: u32,
}

impl Totals {
    /// Exercises passed and failed, and the points of those in chapters that count for a
    /// grade.
    pub fn of(results: &[ExerciseResult]) -> Totals {
        Totals::add_up(results.iter(), |result| result.chapter.graded)
    }

    /// The totals of each chapter the results cover, in the order they come. A report
    /// that people read names the chapters only when there are several.
    pub fn by_chapter(results: &[ExerciseResult]) -> Vec<(&Chapter, Totals)> {
        let mut chapters: Vec<&Chapter> = Vec::new();
        for result in results {
            if !chapters
                .iter()
                .any(|known| known.name == result.chapter.name)
            {
                chapters.push(&result.chapter);
            }
        }
        let totals = chapters.into_iter().map(|chapter| {
            let mine = results
                .iter()
                .filter(|result| result.chapter.name == chapter.name);
            (chapter, Totals::add_up(mine, |_| true))
        });
        totals.collect()
    }

    /// Exercises passed and failed, and the points of those that `count`.
    fn add_up<'a>(
        results: impl Iterator<Item = &'a ExerciseResult>,
        count: impl Fn(&ExerciseResult) -> bool,
    ) -> Totals {
        let mut totals = Totals {
            passed: 0,
            failed: 0,
            points: 0,
            max_points: 0,
        };
        for result in results {
            match result.passed() {
                true => totals.passed += 1,
                false => totals.failed += 1,
            }
            if count(result) {
                totals.points += result.points();
                totals.max_points += result.max_points();
            }
        }
        totals
    }
}
