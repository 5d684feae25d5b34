//! The `clings-results/1` document: one JSON object describing a whole run. The same
//! types read it back, for the gradebook that collects one per student and for the pages
//! drawn from it; the JSON report fills them in.

use serde::{Deserialize, Serialize};

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

impl Results {
    /// Whether an exercise counts for a grade: its chapter is graded, or no chapter is (as
    /// `grade::passing` decides). Every count a teacher reads counts these alone.
    pub fn counts(&self, exercise: &ExerciseReport) -> bool {
        let graded = |name: &str| {
            self.chapters
                .iter()
                .find(|chapter| chapter.name == name)
                .is_none_or(|chapter| chapter.graded)
        };
        graded(&exercise.chapter) || !self.chapters.iter().any(|chapter| chapter.graded)
    }
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
    /// The file handed in is the exercise's skeleton, unchanged (false in gradebooks
    /// written before clings said so).
    #[serde(default)]
    pub unchanged: bool,
    pub points: u32,
    pub max_points: u32,
    pub cases: Vec<CaseReport>,
    /// How many of its hidden cases passed, when that is all that is told of them
    /// (`--hidden-feedback total`: they are not in `cases`); null otherwise.
    #[serde(default)]
    pub hidden_cases: Option<HiddenCasesReport>,
}

#[derive(Debug, Deserialize, Serialize)]
pub struct HiddenCasesReport {
    pub passed: usize,
    pub cases: usize,
}

#[derive(Debug, Deserialize, Serialize)]
pub struct CaseReport {
    pub name: String,
    pub verdict: String,
    pub points: u32,
    pub max_points: u32,
    /// Null for a hidden case, whose time could tell what it does.
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
