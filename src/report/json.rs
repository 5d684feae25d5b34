//! The `clings-results/1` document: one JSON object describing a whole run.

use serde::Serialize;

use crate::grade::ExerciseResult;
use crate::i18n::Lang;

pub const SCHEMA: &str = "clings-results/1";

#[derive(Serialize)]
struct Results<'a> {
    schema: &'static str,
    exercises: Vec<Exercise<'a>>,
    passed: usize,
    failed: usize,
    points: u32,
    max_points: u32,
}

#[derive(Serialize)]
struct Exercise<'a> {
    name: &'a str,
    source: String,
    status: &'static str,
    points: u32,
    max_points: u32,
    cases: Vec<Case<'a>>,
}

#[derive(Serialize)]
struct Case<'a> {
    name: &'a str,
    verdict: &'static str,
    points: u32,
    max_points: u32,
    time_ms: u64,
    message: String,
}

pub fn render(results: &[ExerciseResult], lang: Lang) -> String {
    let passed = results.iter().filter(|r| r.passed()).count();
    let document = Results {
        schema: SCHEMA,
        exercises: results
            .iter()
            .map(|result| Exercise {
                name: &result.name,
                source: result.source.display().to_string(),
                status: result.status.as_str(),
                points: result.points(),
                max_points: result.max_points(),
                cases: result
                    .cases
                    .iter()
                    .map(|case| Case {
                        name: &case.case.name,
                        verdict: case.finding.verdict().as_str(),
                        points: case.points(),
                        max_points: case.case.points(),
                        time_ms: case.elapsed.as_millis() as u64,
                        message: case.finding.message(lang),
                    })
                    .collect(),
            })
            .collect(),
        passed,
        failed: results.len() - passed,
        points: results.iter().map(ExerciseResult::points).sum(),
        max_points: results.iter().map(ExerciseResult::max_points).sum(),
    };
    serde_json::to_string_pretty(&document).expect("results serialise")
}
