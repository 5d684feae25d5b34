//! How much a grading tells of its hidden cases (`--hidden-feedback`). A student who may
//! submit again reads whatever a report says of a hidden case as a question answered about
//! it: a program that fails a case only when one cell of its board holds a stone learns that
//! bit of the hidden input per submission. So per-push feedback tells nothing of them by
//! default, and the grade that counts, run once at the deadline, gives their verdicts.

use clap::ValueEnum;

use crate::grade::results::{CaseResult, ExerciseResult, HiddenTotal, allow_passing};
use crate::verdict::{Finding, Status};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum HiddenFeedback {
    /// The hidden cases are not run: no report, points or exit status depends on them.
    #[default]
    None,
    /// One line per exercise, how many of its hidden cases passed; its status, its points
    /// and the exit status count the public cases only.
    Total,
    /// Each hidden case's verdict, points and hint, counted in every total and the exit
    /// status: the teacher's grading that counts.
    Verdicts,
}

impl HiddenFeedback {
    /// Whether the hidden cases run at all.
    pub fn runs_hidden(self) -> bool {
        self != HiddenFeedback::None
    }

    /// `results` as this setting reports them: with `total`, each exercise's hidden cases
    /// are taken out and counted, and its status is that of its public cases alone.
    pub fn apply(self, results: Vec<ExerciseResult>) -> Vec<ExerciseResult> {
        match self {
            HiddenFeedback::Total => results.into_iter().map(counted).collect(),
            HiddenFeedback::None | HiddenFeedback::Verdicts => results,
        }
    }
}

fn counted(mut result: ExerciseResult) -> ExerciseResult {
    let (hidden, public): (Vec<CaseResult>, Vec<CaseResult>) =
        result.cases.into_iter().partition(|case| case.case.hidden);
    if !hidden.is_empty() {
        result.hidden_total = Some(HiddenTotal {
            passed: hidden
                .iter()
                .filter(|case| case.finding == Finding::Passed)
                .count(),
            cases: hidden.len(),
        });
    }
    // A missing file or a compile error says nothing of any case.
    if matches!(result.status, Status::Passed | Status::Failed) {
        result.status = match allow_passing(&public) {
            true => Status::Passed,
            false => Status::Failed,
        };
    }
    result.cases = public;
    result
}
