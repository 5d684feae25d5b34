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

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::course::Chapter;
    use crate::course::fixture::{Case, CaseConfig};
    use crate::util::i18n::Text;

    fn case(name: &str, hidden: bool, bonus: bool, finding: Finding) -> CaseResult {
        let case = Case {
            name: name.into(),
            input: None,
            expected_path: PathBuf::from(format!("{name}.out")),
            config: CaseConfig {
                bonus,
                ..CaseConfig::default()
            },
            given: Vec::new(),
            expected_files: Vec::new(),
            hidden,
        };
        CaseResult::unrun(case, finding, crate::verdict::compare::CompareMode::Lines)
    }

    fn exercise(status: Status, cases: Vec<CaseResult>) -> ExerciseResult {
        ExerciseResult {
            name: "sum".into(),
            title: Text::Plain("sum".into()),
            chapter: Chapter::implicit(),
            source: PathBuf::from("sum.c"),
            status,
            unchanged: false,
            diagnostics: String::new(),
            cases,
            hidden_total: None,
        }
    }

    /// A public case passed, a public bonus missed, one hidden case passed, one failed.
    fn failed_by_a_hidden_case() -> ExerciseResult {
        exercise(
            Status::Failed,
            vec![
                case("01", false, false, Finding::Passed),
                case("02", false, true, Finding::WrongOutput),
                case("h1", true, false, Finding::Passed),
                case("h2", true, false, Finding::WrongOutput),
            ],
        )
    }

    #[test]
    fn total_counts_the_hidden_cases_and_passes_by_the_public_ones() {
        let result = HiddenFeedback::Total
            .apply(vec![failed_by_a_hidden_case()])
            .remove(0);
        let names: Vec<&str> = result.cases.iter().map(|c| c.case.name.as_str()).collect();
        assert_eq!(names, ["01", "02"]);
        assert_eq!(
            result.status,
            Status::Passed,
            "a bonus missed fails nothing"
        );
        assert_eq!(
            result.hidden_total,
            Some(HiddenTotal {
                passed: 1,
                cases: 2
            })
        );
        // A failing public case still fails it.
        let mut failing = failed_by_a_hidden_case();
        failing.cases[0].finding = Finding::WrongOutput;
        let result = HiddenFeedback::Total.apply(vec![failing]).remove(0);
        assert_eq!(result.status, Status::Failed);
    }

    #[test]
    fn total_keeps_a_compile_error_and_an_exercise_without_hidden_cases_as_they_are() {
        let unbuilt = exercise(
            Status::CompileError,
            vec![case("01", false, false, Finding::NotRun)],
        );
        let result = HiddenFeedback::Total.apply(vec![unbuilt]).remove(0);
        assert_eq!(result.status, Status::CompileError);
        assert_eq!(result.hidden_total, None, "no hidden case to count");
    }

    #[test]
    fn verdicts_and_none_leave_the_results_as_graded() {
        for feedback in [HiddenFeedback::Verdicts, HiddenFeedback::None] {
            let result = feedback.apply(vec![failed_by_a_hidden_case()]).remove(0);
            assert_eq!(result.cases.len(), 4);
            assert_eq!(result.status, Status::Failed);
            assert_eq!(result.hidden_total, None);
        }
        assert!(!HiddenFeedback::None.runs_hidden());
        assert!(HiddenFeedback::Total.runs_hidden() && HiddenFeedback::Verdicts.runs_hidden());
    }
}
