//! Reports of graded exercises: for people (`human`) and for machines (`json`, `junit`,
//! `github`); and what a student reads about their progress and hints (`student`).

pub mod diagnostics;
pub mod github;
pub mod human;
pub mod json;
pub mod junit;
pub mod student;

use std::time::Duration;

use clap::ValueEnum;

use crate::grade::CaseResult;
use crate::i18n::Lang;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    #[default]
    Human,
    Json,
    Junit,
    Github,
}

/// What every report says about a case. A hidden case gets its verdict's fixed sentence:
/// the rest of the finding (signal, exit status, sanitizer line) is the program's to
/// choose, and a program that knows its hidden input could write it there.
pub fn case_message(case: &CaseResult, lang: Lang) -> String {
    if case.case.hidden {
        case.finding.sealed_message(lang).to_string()
    } else {
        case.finding.message(lang)
    }
}

/// How long a case ran, for the reports that show it; none for a hidden case, whose time
/// to the millisecond would be one more way for a program to spell out its input.
pub fn case_time(case: &CaseResult) -> Option<Duration> {
    (!case.case.hidden).then_some(case.elapsed)
}
