//! The report a student reads: one line per case, details for the cases that failed.

use std::fmt::Write;

use colored::Colorize;

use crate::course::Exercise;
use crate::grade::passing::{Counting, Passing};
use crate::grade::results::{CaseResult, ExerciseResult, Totals};
use crate::report::diff;
use crate::report::{bonus_missed, case_message, case_time, diagnostics, hidden_total};
use crate::sandbox::Side;
use crate::util::i18n::{Lang, count};
use crate::util::style;
use crate::verdict::{Finding, InputRead, Status, Verdict, WORD_WIDTH};

/// Failing cases shown in full besides the first, those with the sharpest hints; the others
/// get their one line.
const SHARPEST_IN_FULL: usize = 2;
/// Diff lines shown per case before the rest is counted.
const DIFF_LINES: usize = 40;
/// An input this small (a board) is shown next to its diff.
const SHORT_INPUT_LINES: usize = 20;
const SHORT_INPUT_BYTES: usize = 1200;
const STDERR_LINES: usize = 8;
/// The compiler's lines a screen shows whatever else it shows: the first error, its
/// source line and caret, and a note.
const COMPILER_HEAD_LINES: usize = 6;
/// The last lines of an interactive case's conversation that a failure shows.
const CONVERSATION_LINES: usize = 12;

/// The lines of a failure's diff that a screen shows with its verdict and hint, at least:
/// its three lines of headers and the first lines that differ.
const HEAD_DIFF_LINES: usize = 6;

/// How much of a report goes where.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// Every case on a line of its own: a printed report.
    Full,
    /// For a screen that must show the first failure without scrolling (watch mode):
    /// passed cases counted on one line.
    Screen,
}

pub fn exercise(result: &ExerciseResult, lang: Lang) -> String {
    let file = style::one_line(&result.source.display().to_string()).into_owned();
    laid_out(result, lang, &file, Layout::Full).0
}

/// Watch mode's report of an exercise.
pub struct ScreenReport {
    pub text: String,
    /// How many of the first lines a screen must show, whatever else it shows: through
    /// the first failure's hint and the start of its diff, or a compiler's first error.
    pub head_lines: usize,
}

/// The report for a screen, with the graded file shown as `file` (a clickable link).
pub fn for_screen(result: &ExerciseResult, lang: Lang, file: &str) -> ScreenReport {
    let (text, head) = laid_out(result, lang, file, Layout::Screen);
    let head_lines = head.unwrap_or(0).min(text.lines().count());
    ScreenReport { text, head_lines }
}

/// The report laid out as `layout` says, and how many of its first lines reach the end of
/// the first failure's hint and the start of its diff (or of the compiler's diagnostics).
fn laid_out(
    result: &ExerciseResult,
    lang: Lang,
    file: &str,
    layout: Layout,
) -> (String, Option<usize>) {
    let mut out = String::new();
    let title = format!("{} — {}", result.name, result.title.get(lang));
    let _ = writeln!(out, "{}  ({file})", title.bold());
    if !result.diagnostics.trim().is_empty() {
        out.push_str(&diagnostics::for_terminal(&result.diagnostics));
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    match result.status {
        Status::Missing => {
            let source = style::one_line(&result.source.display().to_string()).into_owned();
            let missing = lang.pick(
                format!("{source} does not exist"),
                format!("{source} 不存在"),
            );
            let _ = writeln!(out, "  {}", missing.red());
            return (out, None);
        }
        Status::CompileError => {
            let _ = writeln!(
                out,
                "  {} {}",
                Status::CompileError.as_str().red().bold(),
                lang.pick(
                    "the compiler found errors (above): fix the first one, then try again",
                    "编译器发现了错误（见上方）：先修正第一个错误，再试一次",
                )
            );
            // The title and the first error, with its source line and caret.
            return (out, Some(1 + COMPILER_HEAD_LINES));
        }
        Status::Passed | Status::Failed => {}
    }
    let width = result
        .cases
        .iter()
        .map(|r| display_name(r).len())
        .max()
        .unwrap_or(0);
    // The failures whose hints name the mistake most sharply, and the first one: its diff is
    // where a student starts reading.
    let sharpest = result.sharpest_failures();
    let fails_it = |index: &usize| !result.cases[*index].case.bonus();
    let first = (sharpest.iter().copied().filter(fails_it).min())
        .or_else(|| sharpest.iter().min().copied());
    let detailed: Vec<usize> = first
        .into_iter()
        .chain(
            sharpest
                .into_iter()
                .filter(|index| Some(*index) != first)
                .take(SHARPEST_IN_FULL),
        )
        .collect();
    let mut skipped = 0;
    let mut head = None;
    // On a screen the totals come first: the passed cases have no lines of their own.
    if layout == Layout::Screen {
        let _ = writeln!(out, "  {}", totals(result, lang));
    }
    for (index, case) in result.cases.iter().enumerate() {
        // Cases not run because the program loops get one line together, below.
        if case.finding == Finding::Skipped {
            skipped += 1;
            continue;
        }
        if layout == Layout::Screen && case.finding == Finding::Passed {
            continue;
        }
        let verdict = case.finding.verdict();
        let word = verdict_word(verdict);
        let name = display_name(case);
        let _ = write!(out, "  {word} {name:<width$} ");
        match case_time(case) {
            Some(elapsed) => {
                let _ = write!(out, "{:>5} ms", elapsed.as_millis());
            }
            None => out.push_str(&" ".repeat(8)),
        }
        if verdict == Verdict::Passed {
            out.push('\n');
            continue;
        }
        let bonus = if case.case.bonus() {
            bonus_missed(lang)
        } else {
            ""
        };
        let _ = writeln!(out, "  {bonus}{}", case_message(case, lang));
        if detailed.contains(&index) {
            let through_hint = details(&mut out, case, lang);
            head.get_or_insert(through_hint + HEAD_DIFF_LINES);
        }
    }
    if skipped > 0 {
        let _ = writeln!(out, "  {}", loop_stop(result, skipped, lang));
    }
    if layout == Layout::Full {
        let _ = writeln!(out, "  {}", totals(result, lang));
        // Under `--hidden-feedback total`, all that is said of the hidden cases.
        if let Some(total) = result.hidden_total {
            let _ = writeln!(out, "  {}", hidden_total(total, lang));
        }
    }
    (out, head)
}

/// "36/44 cases passed, 36/44 points".
fn totals(result: &ExerciseResult, lang: Lang) -> String {
    let passed = result.cases_passed();
    let (cases, points, max) = (result.cases.len(), result.points(), result.max_points());
    lang.pick(
        format!("{passed}/{cases} cases passed, {points}/{max} points"),
        format!("通过 {passed}/{cases} 个用例，得分 {points}/{max}"),
    )
}

/// Why the cases not run were not run, and which case to fix first: the first one, in the
/// course's order, that ran out of time.
fn loop_stop(result: &ExerciseResult, skipped: usize, lang: Lang) -> String {
    let timeouts: Vec<&str> = result
        .cases
        .iter()
        .filter(|case| case.finding.verdict() == Verdict::Timeout)
        .map(|case| case.case.name.as_str())
        .collect();
    let first = style::one_line(timeouts.first().copied().unwrap_or_default());
    let word = verdict_word(Verdict::NotRun);
    // scanf is named only where a timeout's output showed a loop on ended input.
    let on_eof = result.cases.iter().any(|case| {
        matches!(
            case.finding,
            Finding::Timeout {
                input: InputRead::AllThenRepeats,
                ..
            }
        )
    });
    let (why_en, why_zh) = match on_eof {
        true => (" (scanf's return value?)", "（检查 scanf 的返回值？）"),
        false => ("", ""),
    };
    lang.pick(
        format!(
            "{word} {}: the program ran out of time on {}, so it loops. Fix {first} \
             first{why_en}, then run again.",
            count(skipped, "more case", "more cases"),
            count(timeouts.len(), "case", "cases")
        ),
        format!(
            "{word} 另有 {skipped} 个用例未运行：程序在 {} 个用例上超时，说明它陷入了死循环。\
             先修好 {first}{why_zh}，再运行一次。",
            timeouts.len()
        ),
    )
}

/// A verdict as the reports' first column: padded to the longest word, green when it passed.
pub fn verdict_word(verdict: Verdict) -> String {
    column_word(verdict.as_str(), verdict == Verdict::Passed)
}

/// An exercise's status in the same column, green when it passed.
pub fn status_word(status: Status) -> String {
    column_word(status.as_str(), status == Status::Passed)
}

fn column_word(word: &str, passed: bool) -> String {
    let word = format!("{word:<WORD_WIDTH$}");
    if passed {
        word.green().to_string()
    } else {
        word.red().bold().to_string()
    }
}

/// A case's name on its line: the name of its file, which may hold any character.
fn display_name(result: &CaseResult) -> String {
    let name = style::one_line(&result.case.name);
    if result.case.hidden {
        format!("{name} (hidden)")
    } else {
        name.into_owned()
    }
}

/// `name — title`, in bold: the first line of every exercise's report.
pub fn title(exercise: &Exercise, lang: Lang) -> String {
    format!("{} — {}", exercise.name, exercise.title.get(lang))
        .bold()
        .to_string()
}

/// What the case was and what the program did (a hidden case gives away nothing of it),
/// and the hint: description, hint, diff or stderr, input. The hint comes right after the
/// description, as the line that names the mistake, with the start of the diff under it;
/// the input, often longer than the screen, comes last.
/// Returns how many lines `out` has once the hint is written.
fn details(out: &mut String, result: &CaseResult, lang: Lang) -> usize {
    let indent = "      ";
    let shown = !result.case.hidden;
    if let Some(description) = result.case.config.description.as_ref().filter(|_| shown) {
        let _ = writeln!(out, "{indent}{}", description.get(lang).italic());
    }
    let input = |out: &mut String| {
        if !shown {
            return;
        }
        let args = &result.case.config.args;
        if !args.is_empty() {
            let label = lang.pick("arguments:", "命令行参数：").dimmed();
            let _ = writeln!(out, "{indent}{label} {}", style::visible(&args.join(" ")));
        }
        if let Some(input) = short_text(&result.input) {
            let _ = writeln!(out, "{indent}{}", lang.pick("input:", "输入：").dimmed());
            for line in input.lines() {
                let _ = writeln!(out, "{indent}  {line}");
            }
        }
        for (name, content) in &result.given {
            let Some(content) = short_text(content) else {
                continue;
            };
            let label = lang.pick(format!("{name} (given):"), format!("{name}（给定文件）："));
            let _ = writeln!(out, "{indent}{}", label.dimmed());
            for line in content.lines() {
                let _ = writeln!(out, "{indent}  {line}");
            }
        }
    };
    let hint = |out: &mut String| {
        if let Some(hint) = result.hint() {
            let _ = writeln!(
                out,
                "{indent}{} {}",
                lang.pick("hint:", "提示：").yellow().bold(),
                hint.get(lang)
            );
        }
    };
    hint(out);
    let through_hint = out.lines().count();
    if shown {
        what_it_did(out, result, indent, lang);
    }
    // A hidden case's result holds no conversation.
    conversation(out, result, indent, lang);
    input(out);
    through_hint
}

/// The diff of a wrong output, the stderr of a program that ended badly.
/// A run stopped after its output had gone wrong gets the diff too, the wrong first.
fn what_it_did(out: &mut String, result: &CaseResult, indent: &str, lang: Lang) {
    if let Some(compared) = result.compared() {
        if let Some(file) = compared.file {
            let _ = writeln!(out, "{indent}{}", format!("{file}:").dimmed());
        }
        let drawn = diff::render(
            compared.expected,
            compared.actual,
            result.mode,
            DIFF_LINES,
            lang,
        );
        for line in drawn.lines() {
            let _ = writeln!(out, "{indent}{line}");
        }
    }
    match result.finding.verdict() {
        Verdict::Crashed | Verdict::NonzeroExit | Verdict::Sanitizer | Verdict::MemoryLimit => {
            let stderr = String::from_utf8_lossy(&result.stderr);
            if !stderr.trim().is_empty() {
                let _ = writeln!(
                    out,
                    "{indent}{}",
                    lang.pick("stderr:", "标准错误输出：").dimmed()
                );
                for line in stderr.trim_end().lines().take(STDERR_LINES) {
                    let _ = writeln!(out, "{indent}  {}", style::visible(line));
                }
            }
        }
        _ => {}
    }
}

/// The end of an interactive case's conversation, who said what: where the game went
/// wrong is usually in its last lines.
fn conversation(out: &mut String, result: &CaseResult, indent: &str, lang: Lang) {
    if result.conversation.is_empty() || result.finding == Finding::Passed {
        return;
    }
    let lines = &result.conversation;
    let skipped = lines.len().saturating_sub(CONVERSATION_LINES);
    let heading = lang.pick("conversation", "对话");
    let _ = match skipped {
        0 => writeln!(out, "{indent}{}", format!("{heading}:").dimmed()),
        _ => writeln!(
            out,
            "{indent}{}",
            lang.pick(
                format!(
                    "{heading}, its last {CONVERSATION_LINES} lines of {}:",
                    lines.len()
                ),
                format!(
                    "{heading}（共 {} 行，最后 {CONVERSATION_LINES} 行）：",
                    lines.len()
                ),
            )
            .dimmed()
        ),
    };
    for (side, line) in &lines[skipped..] {
        let who = match side {
            Side::Program => lang.pick("you    ", "你     "),
            Side::Referee => lang.pick("referee", "裁判   "),
        };
        let _ = writeln!(out, "{indent}  {} {}", who.dimmed(), style::visible(line));
    }
}

/// A case's input or given file, when it is text short enough to show.
fn short_text(bytes: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(bytes).ok()?;
    let short = text.len() <= SHORT_INPUT_BYTES && text.lines().count() <= SHORT_INPUT_LINES;
    (short && !text.trim().is_empty()).then_some(text)
}

/// Every exercise's report, the points in total, the outcome when practice was graded (what
/// counted), and the closing line that people and CI both read: exercises passed and failed.
pub fn report(results: &[ExerciseResult], counting: Counting, lang: Lang) -> String {
    let mut out = String::new();
    let chapters = Totals::by_chapter(results);
    let several = chapters.len() > 1;
    for (index, result) in results.iter().enumerate() {
        let first = index == 0 || results[index - 1].chapter.name != result.chapter.name;
        if several && first {
            let title = result.chapter.title.get(lang);
            let _ = writeln!(out, "{}\n", format!("== {title} ==").bold());
        }
        let _ = writeln!(out, "{}", exercise(result, lang));
    }
    let Totals {
        points, max_points, ..
    } = Totals::of(results);
    let _ = writeln!(
        out,
        "{}",
        lang.pick(
            format!("Points: {points}/{max_points}"),
            format!("总分：{points}/{max_points}")
        )
    );
    for (chapter, totals) in chapters.into_iter().filter(|_| several) {
        let (title, points, max_points) =
            (chapter.title.get(lang), totals.points, totals.max_points);
        let practice = match chapter.graded {
            true => "",
            false => lang.pick(" (practice, not in the total)", "（练习，不计入总分）"),
        };
        let _ = writeln!(
            out,
            "  {}",
            lang.pick(
                format!(
                    "{title}: {points}/{max_points} points, {} of {} exercises passed{practice}",
                    totals.passed,
                    totals.passed + totals.failed
                ),
                format!(
                    "{title}：得分 {points}/{max_points}，通过 {}/{} 个练习{practice}",
                    totals.passed,
                    totals.passed + totals.failed
                ),
            )
        );
    }
    out.push_str(&closing(results, counting, lang));
    out
}

/// The outcome when practice was graded (what counted, see [`Passing::sentence`]), then
/// the closing line that people and CI both read.
pub fn closing(results: &[ExerciseResult], counting: Counting, lang: Lang) -> String {
    let mut out = String::new();
    if let Some(sentence) = Passing::of(results, counting).sentence(lang) {
        let _ = writeln!(out, "{sentence}");
    }
    let _ = writeln!(out, "{}", summary(results));
    out
}

/// One line per exercise, its status, name and points: watch mode's check of everything.
pub fn overview(results: &[ExerciseResult], lang: Lang) -> Vec<String> {
    let width = results.iter().map(|r| r.name.len()).max().unwrap_or(0);
    results
        .iter()
        .map(|result| {
            let points = lang.pick(
                format!("{}/{} points", result.points(), result.max_points()),
                format!("得分 {}/{}", result.points(), result.max_points()),
            );
            let status = status_word(result.status);
            format!("  {status} {:<width$}  {points}", result.name)
        })
        .collect()
}

/// The closing line that people and CI both read: exercises passed and failed.
fn summary(results: &[ExerciseResult]) -> String {
    let Totals { passed, failed, .. } = Totals::of(results);
    format!("{passed} passed, {failed} failed")
}
