//! Reports of graded exercises: for people (`human`) and for machines (`json`, `junit`,
//! `github`, `gradescope`); what a student reads about their progress and hints (`student`); and a
//! whole class's page for its teacher (`html`, from the figures of `class`, its charts
//! drawn by `svg`); and a class tournament's page (`tournament_html`).

pub mod class;
pub mod diagnostics;
pub mod diff;
pub mod github;
pub mod gradescope;
pub mod html;
pub mod human;
pub mod json;
pub mod junit;
pub mod markup;
pub mod student;
pub mod svg;
pub mod tournament_html;

use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use clap::ValueEnum;

use crate::util::atomic;

use crate::grade::passing::Counting;
use crate::grade::results::{CaseResult, ExerciseResult, HiddenTotal};
use crate::util::i18n::{Lang, count};
use crate::util::style;
use crate::util::timings::{self, Phase};
use crate::verdict::Finding;
use crate::verdict::compare::Divergence;

/// Diff lines under a failing case, in the reports that are files, before the rest is
/// counted.
const DIFF_LINES: usize = 40;
/// Input lines under a failing case, in the reports that are files, before the rest is
/// counted.
const INPUT_LINES: usize = 40;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    #[default]
    Human,
    Json,
    Junit,
    Github,
    Gradescope,
}

/// Prints the report of a grading in `format`, to stdout or to `output` (the log then gets
/// the human report); every format tells the exercises that count (`counting`, see
/// [`crate::grade::passing`]) from the practice that does not. GitHub's format also prints its
/// annotations and appends its summary to `$GITHUB_STEP_SUMMARY`.
pub fn publish(
    results: &[ExerciseResult],
    counting: Counting,
    format: Format,
    output: Option<&Path>,
    lang: Lang,
) -> Result<()> {
    let _timing = timings::measure(Phase::Report);
    let log = human::report(results, counting, lang);
    let formatted = match format {
        Format::Human => log.clone(),
        Format::Json => json::render(results, counting, lang) + "\n",
        Format::Junit => junit::render(results, counting, lang),
        Format::Github => github::summary(results, counting, lang),
        Format::Gradescope => gradescope::render(results, lang) + "\n",
    };
    // The Actions runner reads stdout for workflow commands, and the human report quotes
    // programs and the compiler: only clings' own annotations may be live.
    let log = match format {
        Format::Github => github::fenced(&log)?,
        _ => log,
    };
    match (output, format) {
        (Some(path), _) => {
            print!("{log}");
            atomic::write(path, formatted.as_bytes())?;
        }
        // Annotations only work on stdout, where the Actions runner reads them.
        (None, Format::Github) => print!("{log}"),
        (None, _) => print!("{formatted}"),
    }
    if format == Format::Github {
        print!("{}", github::annotations(results, counting, lang));
        if let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|path| !path.is_empty())
        {
            append(&PathBuf::from(path), &formatted)?;
        }
    }
    Ok(())
}

fn append(path: &Path, text: &str) -> Result<()> {
    use std::io::Write;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut file| file.write_all(text.as_bytes()))
        .with_context(|| format!("cannot append the summary to {}", path.display()))
}

/// What the reports say before a bonus case's failure: it did not fail the exercise.
pub fn bonus_missed(lang: Lang) -> &'static str {
    lang.pick("bonus, not required: ", "加分项，不影响通过：")
}

/// What every report says about a case. A hidden case gets its verdict's fixed sentence:
/// the rest of the finding (signal, exit status, sanitizer line) is the program's to
/// choose, and a program that knows its hidden input could write it there. A run stopped
/// after its output had gone wrong is told where it went wrong first, the stop after it as
/// its consequence; a wrong output, which input line it answered there.
pub fn case_message(case: &CaseResult, lang: Lang) -> String {
    if case.case.hidden {
        return case.finding.sealed_message(lang).to_string();
    }
    let message = case.finding.message(lang);
    match &case.diverged {
        Some(found) if case.wrong_before_it_stopped() => lang.pick(
            format!(
                "{}; after that, as a consequence: {message}",
                went_wrong(found, lang)
            ),
            format!("{}；之后，作为后果：{message}", went_wrong(found, lang)),
        ),
        Some(found) if case.finding == Finding::WrongOutput && found.input_line.is_some() => {
            format!("{message}: {}", went_wrong(found, lang))
        }
        _ => message,
    }
}

/// Longest piece of a line a message quotes where the output went wrong.
const QUOTED: usize = 40;

/// "the output went wrong first on line 1, answering input line 2 (`7 7`): expected
/// "Invalid move! Try again.", printed "Player X, enter row col: …"".
fn went_wrong(found: &Divergence, lang: Lang) -> String {
    let quote = |text: &Option<String>, none_en: &str, none_zh: &str| match text {
        None => lang.pick(none_en, none_zh).to_string(),
        Some(text) if text.is_empty() => lang.pick("the end of the line", "行尾").to_string(),
        Some(text) => {
            let cut: String = text.chars().take(QUOTED).collect();
            let more = if cut.len() < text.len() { "…" } else { "" };
            format!("\"{}{more}\"", style::one_line(&cut))
        }
    };
    let expected = quote(&found.expected, "the end of the output", "输出结束");
    let printed = quote(&found.printed, "nothing more", "没有更多输出");
    let line = found.line;
    let (at_en, at_zh) = match &found.input_line {
        Some((number, text)) => {
            let text = style::one_line(text);
            (
                format!(", answering input line {number} (`{text}`)"),
                format!("，对应输入第 {number} 行（`{text}`）"),
            )
        }
        None => (String::new(), String::new()),
    };
    lang.pick(
        format!("the output went wrong first on line {line}{at_en}: expected {expected}, printed {printed}"),
        format!("输出最早在第 {line} 行出错{at_zh}：期望 {expected}，实际输出 {printed}"),
    )
}

/// All that a report says of an exercise's hidden cases under `--hidden-feedback total`.
pub fn hidden_total(total: HiddenTotal, lang: Lang) -> String {
    let HiddenTotal { passed, cases } = total;
    lang.pick(
        format!("hidden cases: {passed}/{cases} passed"),
        format!("隐藏用例：通过 {passed}/{cases} 个"),
    )
}

/// How long a case ran, for the reports that show it; none for a hidden case, whose time
/// to the millisecond would be one more way for a program to spell out its input.
pub fn case_time(case: &CaseResult) -> Option<Duration> {
    (!case.case.hidden).then_some(case.elapsed)
}

/// What the reports that are files show under a failing case: the hint that fits; for a
/// public case, its input and, for a wrong output, the diff, in plain text (a file has no
/// terminal to colour it), control characters escaped.
pub fn failure_details(case: &CaseResult, lang: Lang) -> String {
    let mut body = String::new();
    if let Some(hint) = case.hint() {
        let _ = writeln!(
            body,
            "{} {}",
            lang.pick("hint:", "提示："),
            style::visible(hint.get(lang))
        );
    }
    // A hidden case gives away nothing but its verdict and its hint.
    if case.case.hidden {
        return body;
    }
    let input = String::from_utf8_lossy(&case.input);
    if !input.trim().is_empty() {
        let _ = writeln!(body, "{}", lang.pick("input:", "输入："));
        let lines: Vec<&str> = input.lines().collect();
        for line in lines.iter().take(INPUT_LINES) {
            let _ = writeln!(body, "  {}", style::visible(line));
        }
        if lines.len() > INPUT_LINES {
            let rest = lines.len() - INPUT_LINES;
            let _ = writeln!(
                body,
                "  {}",
                lang.pick(
                    format!("… {}", count(rest, "more line", "more lines")),
                    format!("… 另有 {rest} 行"),
                )
            );
        }
    }
    if let Some(compared) = case.compared() {
        let drawn = diff::plain(
            compared.expected,
            compared.actual,
            case.mode,
            DIFF_LINES,
            lang,
        );
        let _ = writeln!(body, "{drawn}");
    }
    body
}
