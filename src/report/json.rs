//! The `clings-results/1` document: one JSON object describing a whole run. The same
//! types read it back, for the gradebook that collects one per student.

use serde::{Deserialize, Serialize};

use crate::grade::{ExerciseResult, Totals};
use crate::i18n::Lang;
use crate::report::{case_message, case_time};

pub const SCHEMA: &str = "clings-results/1";

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
}

#[derive(Debug, Deserialize, Serialize)]
pub struct ChapterReport {
    pub name: String,
    pub title: String,
    /// Whether its points count in the total.
    pub graded: bool,
    pub passed: usize,
    pub failed: usize,
    pub points: u32,
    pub max_points: u32,
}

#[derive(Debug, Deserialize, Serialize)]
pub struct ExerciseReport {
    pub name: String,
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
}

pub fn document(results: &[ExerciseResult], lang: Lang) -> Results {
    let totals = Totals::of(results);
    Results {
        schema: SCHEMA.to_string(),
        exercises: results
            .iter()
            .map(|result| ExerciseReport {
                name: result.name.clone(),
                chapter: result.chapter.name.clone(),
                source: result.source.display().to_string(),
                status: result.status.as_str().to_string(),
                points: result.points(),
                max_points: result.max_points(),
                cases: result
                    .cases
                    .iter()
                    .map(|case| CaseReport {
                        name: case.case.name.clone(),
                        verdict: case.finding.verdict().as_str().to_string(),
                        points: case.points(),
                        max_points: case.case.points(),
                        time_ms: case_time(case).map(|time| time.as_millis() as u64),
                        message: case_message(case, lang),
                        hidden: case.case.hidden,
                    })
                    .collect(),
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
                passed: totals.passed,
                failed: totals.failed,
                points: totals.points,
                max_points: totals.max_points,
            })
            .collect(),
    }
}

pub fn render(results: &[ExerciseResult], lang: Lang) -> String {
    serde_json::to_string_pretty(&document(results, lang)).expect("results serialise")
}
