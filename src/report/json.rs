//! The `clings-results/1` document: one JSON object describing a whole run. The same
//! types read it back, for the gradebook that collects one per student.

use serde::{Deserialize, Serialize};

use crate::grade::passing::{Counting, Outcome};
use crate::grade::{CaseResult, ExerciseResult, Totals};
use crate::report::diff;
use crate::report::{case_message, case_time};
use crate::util::i18n::Lang;

pub const SCHEMA: &str = "clings-results/1";

/// Lines of the one diff an exercise's results keep: enough to see the mistake, and a
/// class's gradebook (and the page drawn from it) stays small.
const DIFF_LINES: usize = 20;

#[derive(Debug, Deserialize, Serialize)]
pub struct Results {
    pub schema: String,
    pub exercises: Vec<ExerciseReport>,
    pub passed: usize,
    pub failed: usize,
    /// The points of the chapters that count for a grade.
    pub points: u32,
    pub max_points: u32,
    /// The totals of each chapter of the exercises graded.
    #[serde(default)]
    pub chapters: Vec<ChapterReport>,
    /// Whether the run passed: every exercise that counts passed (the exit status is 0).
    #[serde(default)]
    pub success: bool,
    /// What counted: `graded` (the chapters that count for a grade), `with_practice`
    /// (`--count-practice`) or `named` (the exercises named).
    #[serde(default)]
    pub counting: String,
    /// The names of the chapters whose exercises counted.
    #[serde(default)]
    pub counted_chapters: Vec<String>,
}

#[derive(Debug, Deserialize, Serialize)]
pub struct ChapterReport {
    pub name: String,
    pub title: String,
    /// Whether its points count in the total.
    pub graded: bool,
    /// Whether its exercises counted toward `success`.
    #[serde(default)]
    pub counted: bool,
    pub passed: usize,
    pub failed: usize,
    pub points: u32,
    pub max_points: u32,
}

#[derive(Debug, Deserialize, Serialize)]
pub struct ExerciseReport {
    pub name: String,
    /// In the language of the grading.
    #[serde(default)]
    pub title: String,
    /// The name of its chapter.
    #[serde(default)]
    pub chapter: String,
    pub source: String,
    pub status: String,
    pub points: u32,
    pub max_points: u32,
    pub cases: Vec<CaseReport>,
}

#[derive(Debug, Deserialize, Serialize)]
pub struct CaseReport {
    pub name: String,
    pub verdict: String,
    pub points: u32,
    pub max_points: u32,
    /// Null for a hidden case (see [`case_time`]).
    pub time_ms: Option<u64>,
    pub message: String,
    pub hidden: bool,
    /// A bonus case (`bonus = true`): its points count, its failure does not fail the
    /// exercise.
    #[serde(default)]
    pub bonus: bool,
    /// What the case tests, in the language of the grading; null for a hidden case.
    #[serde(default)]
    pub description: Option<String>,
    /// The hint shown for this failure (hidden cases get theirs too); null when it passed
    /// or no hint fits.
    #[serde(default)]
    pub hint: Option<String>,
    /// The first diff of the exercise, in plain text: on its first public case whose output
    /// (or left file) is wrong, null on every other case. Never a hidden case's.
    #[serde(default)]
    pub diff: Option<String>,
}

pub fn document(results: &[ExerciseResult], counting: Counting, lang: Lang) -> Results {
    let totals = Totals::of(results);
    let outcome = Outcome::of(results, counting);
    Results {
        schema: SCHEMA.to_string(),
        exercises: results
            .iter()
            .map(|result| ExerciseReport {
                name: result.name.clone(),
                title: result.title.get(lang).to_string(),
                chapter: result.chapter.name.clone(),
                source: result.source.display().to_string(),
                status: result.status.as_str().to_string(),
                points: result.points(),
                max_points: result.max_points(),
                cases: {
                    let first_diff = result
                        .cases
                        .iter()
                        .enumerate()
                        .find_map(|(index, case)| Some((index, diff_of(case, lang)?)));
                    result
                        .cases
                        .iter()
                        .enumerate()
                        .map(|(index, case)| CaseReport {
                            name: case.case.name.clone(),
                            verdict: case.finding.verdict().as_str().to_string(),
                            points: case.points(),
                            max_points: case.case.points(),
                            time_ms: case_time(case).map(|time| time.as_millis() as u64),
                            message: case_message(case, lang),
                            hidden: case.case.hidden,
                            bonus: case.case.bonus(),
                            description: case
                                .case
                                .config
                                .description
                                .as_ref()
                                .filter(|_| !case.case.hidden)
                                .map(|text| text.get(lang).to_string()),
                            hint: case.hint().map(|hint| hint.get(lang).to_string()),
                            diff: first_diff
                                .as_ref()
                                .filter(|(at, _)| *at == index)
                                .map(|(_, diff)| diff.clone()),
                        })
                        .collect()
                },
            })
            .collect(),
        passed: totals.passed,
        failed: totals.failed,
        points: totals.points,
        max_points: totals.max_points,
        chapters: Totals::by_chapter(results)
            .into_iter()
            .map(|(chapter, totals)| ChapterReport {
                name: chapter.name.clone(),
                title: chapter.title.get(lang).to_string(),
                graded: chapter.graded,
                counted: outcome.counts(chapter),
                passed: totals.passed,
                failed: totals.failed,
                points: totals.points,
                max_points: totals.max_points,
            })
            .collect(),
        success: outcome.passed,
        counting: counting.as_str().to_string(),
        counted_chapters: outcome.counted.iter().map(|c| c.name.clone()).collect(),
    }
}

/// A public case's wrong output (or the file that differs, named) as a plain diff.
fn diff_of(case: &CaseResult, lang: Lang) -> Option<String> {
    if case.case.hidden {
        return None;
    }
    let compared = case.compared()?;
    let drawn = diff::plain(
        compared.expected,
        compared.actual,
        case.mode,
        DIFF_LINES,
        lang,
    );
    Some(match compared.file {
        Some(file) => format!("{file}:\n{drawn}"),
        None => drawn,
    })
}

pub fn render(results: &[ExerciseResult], counting: Counting, lang: Lang) -> String {
    serde_json::to_string_pretty(&document(results, counting, lang)).expect("results serialise")
}
