//! The `clings-results/1` document of a run, drawn from its results (the diff included)
//! and written as JSON.

use crate::grade::document::{
    CaseReport, ChapterReport, ExerciseReport, HiddenCasesReport, Results, SCHEMA,
};
use crate::grade::passing::{Counting, Passing};
use crate::grade::results::{CaseResult, ExerciseResult, Totals};
use crate::report::diff;
use crate::report::{case_message, case_time};
use crate::util::i18n::Lang;

/// Lines of the one diff an exercise's results keep: enough to see the mistake, and a
/// class's gradebook (and the page drawn from it) stays small.
const DIFF_LINES: usize = 20;

pub fn document(results: &[ExerciseResult], counting: Counting, lang: Lang) -> Results {
    let totals = Totals::of(results);
    let outcome = Passing::of(results, counting);
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
                unchanged: result.unchanged,
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
                hidden_cases: result.hidden_total.map(|total| HiddenCasesReport {
                    passed: total.passed,
                    cases: total.cases,
                }),
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
