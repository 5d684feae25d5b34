//! Gradescope's autograder `results.json`
//! (<https://gradescope-autograders.readthedocs.io/en/latest/specs/>): one test per case,
//! named `exercise/case`, with its points, its status and, as its output, what the JUnit
//! report puts in a failure's body. A hidden case is shown to students only once the
//! teacher publishes the grades (`after_published`), and even then says no more than in
//! any other report: its verdict's fixed sentence and its hint. Nothing students see before
//! that depends on a hidden case: the submission's `output` counts the public cases alone,
//! and there is no top-level `score`, so Gradescope totals the tests, a total its spec
//! withholds from students while any test is hidden ("If test cases are hidden, students
//! will not be able to see their total score"). The points count the chapters that count
//! for a grade; a practice chapter's cases are no tests (each would be a failure worth
//! nothing, "not run" when the student did not start it): one line of `output` gives its
//! points.
//! Every text is `"text"` for Gradescope (its default for the submission's output renders
//! HTML), and a time is given nowhere: a hidden case's is withheld in every report.

use std::fmt::Write;

use serde::Serialize;

use crate::grade::results::{CaseResult, ExerciseResult, Totals};
use crate::report::{case_message, diagnostics, failure_details, hidden_total};
use crate::util::i18n::Lang;
use crate::verdict::{Status, Verdict};

/// Gradescope's visibility of a public case: always shown.
const VISIBLE: &str = "visible";
/// Gradescope's visibility of a hidden case: shown once the grades are published.
const AFTER_PUBLISHED: &str = "after_published";
/// Plain text, nothing in it rendered.
const TEXT: &str = "text";

#[derive(Debug, Serialize)]
struct Results {
    /// Shown to students whatever the tests' visibility.
    output: String,
    output_format: &'static str,
    test_output_format: &'static str,
    test_name_format: &'static str,
    /// The log of `run_autograder` is the teacher's: it may hold what the student must
    /// not see (the setup's own output).
    stdout_visibility: &'static str,
    tests: Vec<Test>,
}

#[derive(Debug, Serialize)]
struct Test {
    name: String,
    score: u32,
    max_score: u32,
    status: &'static str,
    output: String,
    visibility: &'static str,
}

fn document(results: &[ExerciseResult], lang: Lang) -> Results {
    let (points, max_points) = public_points(results.iter().filter(|r| r.chapter.graded));
    let mut output = format!("{} {points}/{max_points}", lang.pick("Points:", "得分："));
    for (chapter, _) in Totals::by_chapter(results) {
        if !chapter.graded {
            let (points, max_points) =
                public_points(results.iter().filter(|r| r.chapter.name == chapter.name));
            let _ = write!(
                output,
                "\n{} {} {points}/{max_points}",
                lang.pick("Practice, not counted:", "练习，不计分："),
                chapter.title.get(lang),
            );
        }
    }
    for result in results {
        if let Some(total) = result.hidden_total {
            let _ = write!(output, "\n{}: {}", result.name, hidden_total(total, lang));
        }
    }
    Results {
        output,
        output_format: TEXT,
        test_output_format: TEXT,
        test_name_format: TEXT,
        stdout_visibility: "hidden",
        tests: results
            .iter()
            .filter(|result| result.chapter.graded)
            .flat_map(|result| exercise_tests(result, lang))
            .collect(),
    }
}

/// The points, and the most, of the public cases of `results`.
fn public_points<'a>(results: impl Iterator<Item = &'a ExerciseResult>) -> (u32, u32) {
    results
        .flat_map(|result| &result.cases)
        .filter(|case| !case.case.hidden)
        .fold((0, 0), |(points, max), case| {
            (points + case.points(), max + case.case.points())
        })
}

/// One test per case of `result`. Cases that never ran carry the reason: the exercise is
/// missing, or the compiler's diagnostics, on its first public case (the first case when
/// all are hidden), as the JSON report keeps one diff.
fn exercise_tests(result: &ExerciseResult, lang: Lang) -> Vec<Test> {
    let diagnostics_at = (result.status == Status::CompileError).then(|| {
        result
            .cases
            .iter()
            .position(|case| !case.case.hidden)
            .unwrap_or(0)
    });
    result
        .cases
        .iter()
        .enumerate()
        .map(|(index, case)| {
            let mut output = case_output(case, lang);
            if diagnostics_at == Some(index) {
                output.push_str(&diagnostics::plain(&result.diagnostics));
            }
            Test {
                name: format!("{}/{}", result.name, case.case.name),
                score: case.points(),
                max_score: case.case.points(),
                status: match case.finding.verdict() {
                    Verdict::Passed => "passed",
                    _ => "failed",
                },
                output,
                visibility: if case.case.hidden {
                    AFTER_PUBLISHED
                } else {
                    VISIBLE
                },
            }
        })
        .collect()
}

/// The case's message, and under a failure what the JUnit report shows in its body.
fn case_output(case: &CaseResult, lang: Lang) -> String {
    let mut output = case_message(case, lang);
    output.push('\n');
    if case.finding.verdict() != Verdict::Passed {
        output.push_str(&failure_details(case, lang));
    }
    output
}

pub fn render(results: &[ExerciseResult], lang: Lang) -> String {
    serde_json::to_string_pretty(&document(results, lang)).expect("results serialise")
}
