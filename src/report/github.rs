//! GitHub Actions: workflow-command annotations (`::error file=…,line=…::…`) for compiler
//! errors and failing cases (`::warning` for practice that does not count and for a bonus case
//! missed: the job passed),
//! a Markdown summary table for the job's summary page, and the fence that keeps whatever
//! else is on stdout from being read as a workflow command.

use std::fmt::Write;
use std::io::Read;

use anyhow::{Context, Result};

use crate::grade::passing::{Counting, Passing};
use crate::grade::results::{ExerciseResult, HiddenTotal, Totals};
use crate::report::case_message;
use crate::report::diagnostics::{self, Level};
use crate::util::i18n::Lang;
use crate::util::style;
use crate::verdict::{Finding, Status, Verdict};

/// One annotation per compiler error or warning and per failing case; those of practice
/// that does not count are warnings, with `(practice)` in their title.
pub fn annotations(results: &[ExerciseResult], counting: Counting, lang: Lang) -> String {
    let mut out = String::new();
    let outcome = Passing::of(results, counting);
    for result in results {
        let counts = outcome.counts(&result.chapter);
        let (failure, practice) = match counts {
            true => ("error", ""),
            false => ("warning", " (practice)"),
        };
        let source = result.source.display().to_string();
        let plain = diagnostics::plain(&result.diagnostics);
        for diagnostic in plain.lines().filter_map(diagnostics::parse) {
            let level = match diagnostic.level {
                Level::Error => failure,
                Level::Warning => "warning",
                Level::Note => continue,
            };
            // Every annotation is on the graded file: gcc names whatever file a `#line`
            // directive tells it to, so a diagnostic elsewhere (that, or a header) keeps
            // its place in the message only.
            let (position, message) = match diagnostic.position() {
                Some((file, line, column)) if file == source => (
                    format!(",line={line}")
                        + &column
                            .map(|column| format!(",col={column}"))
                            .unwrap_or_default(),
                    diagnostic.message.to_string(),
                ),
                _ => (
                    String::new(),
                    format!("{}: {}", diagnostic.location, diagnostic.message),
                ),
            };
            let _ = writeln!(
                out,
                "::{level} file={}{position},title={}::{}",
                property(&source),
                property(&format!("{}{practice}: compiler {level}", result.name)),
                data(&message)
            );
        }
        if matches!(result.status, Status::CompileError | Status::Missing) {
            let what = match result.status {
                Status::Missing => format!("{source} is missing"),
                _ => format!("{source} does not compile"),
            };
            let _ = writeln!(
                out,
                "::{failure} file={},title={}::{}",
                property(&source),
                property(&format!("{}{practice}", result.name)),
                data(&what)
            );
            continue;
        }
        for case in result
            .cases
            .iter()
            .filter(|case| case.finding.verdict() != Verdict::Passed)
        {
            // A sanitizer report names the line; other failures belong to the whole file.
            // A hidden case's report is the program's to write, so it names nothing.
            let line = match &case.finding {
                Finding::Sanitizer { report } if !case.case.hidden => {
                    report_line(report, &source).map(|line| format!(",line={line}"))
                }
                _ => None,
            };
            let mut message = case_message(case, lang);
            if let Some(hint) = case.hint() {
                message.push_str(&format!("\n{}", hint.get(lang)));
            }
            // A bonus missed fails nothing: a warning, as practice's are.
            let (level, bonus) = match case.case.bonus() {
                true => ("warning", " (bonus)"),
                false => (failure, ""),
            };
            let _ = writeln!(
                out,
                "::{level} file={}{},title={}::{}",
                property(&source),
                line.unwrap_or_default(),
                property(&format!(
                    "{}{practice}{bonus} {}: {}",
                    result.name,
                    style::one_line(&case.case.name),
                    case.finding.verdict().as_str()
                )),
                data(&message)
            );
        }
    }
    out
}

/// A Markdown table of the exercises (and, under `--hidden-feedback total`, how many hidden
/// cases each passed), the outcome when practice was graded, and the failing cases under
/// it. Exercises' names are letters, digits, `_` and `-`; a case's is its file's, which may
/// end a row (CommonMark ends a line at CR too), and a message can quote the program (a
/// sanitizer line): both are escaped.
pub fn summary(results: &[ExerciseResult], counting: Counting, lang: Lang) -> String {
    let mut out = String::from(
        "## clings results\n\n| exercise | status | cases | points |\n|---|---|---|---|\n",
    );
    for result in results {
        let _ = writeln!(
            out,
            "| {} | {} | {}/{} | {}/{} |",
            result.name,
            result.status.as_str(),
            result.cases_passed(),
            result.cases.len(),
            result.points(),
            result.max_points()
        );
    }
    let Totals {
        points, max_points, ..
    } = Totals::of(results);
    let _ = writeln!(out, "| **total** | | | **{points}/{max_points}** |");
    let counted: Vec<(&str, HiddenTotal)> = results
        .iter()
        .filter_map(|result| Some((result.name.as_str(), result.hidden_total?)))
        .collect();
    if !counted.is_empty() {
        out.push_str("\n| exercise | hidden cases passed |\n|---|---|\n");
        for (name, total) in counted {
            let _ = writeln!(out, "| {name} | {}/{} |", total.passed, total.cases);
        }
    }
    let chapters = Totals::by_chapter(results);
    if chapters.len() > 1 {
        out.push_str(
            "\n| chapter | exercises passed | points | in the total |\n|---|---|---|---|\n",
        );
        for (chapter, totals) in chapters {
            let _ = writeln!(
                out,
                "| {} | {}/{} | {}/{} | {} |",
                markdown(chapter.title.get(lang)),
                totals.passed,
                totals.passed + totals.failed,
                totals.points,
                totals.max_points,
                if chapter.graded { "yes" } else { "no" }
            );
        }
    }
    if let Some(sentence) = Passing::of(results, counting).sentence(lang) {
        let _ = writeln!(out, "\n**{}**", markdown(&sentence));
    }
    // Cases of a missing or non-compiling exercise never ran: its row above says why.
    let failing: Vec<String> = results
        .iter()
        .filter(|result| matches!(result.status, Status::Passed | Status::Failed))
        .flat_map(|result| {
            result
                .cases
                .iter()
                .filter(|case| case.finding.verdict() != Verdict::Passed)
                .map(move |case| {
                    let hidden = if case.case.hidden { " (hidden)" } else { "" };
                    format!(
                        "| {} | {}{hidden} | `{}` | {} |",
                        result.name,
                        markdown(&style::one_line(&case.case.name)),
                        case.finding.verdict().as_str(),
                        markdown(&case_message(case, lang))
                    )
                })
        })
        .collect();
    if !failing.is_empty() {
        out.push_str(
            "\n### failing cases\n\n| exercise | case | verdict | message |\n|---|---|---|---|\n",
        );
        for row in failing {
            out.push_str(&row);
            out.push('\n');
        }
    }
    out
}

/// Text that is neither clings' nor the course's, as one table cell of literal Markdown text: HTML and
/// every character Markdown reads as syntax become character references (which Markdown
/// shows as the character and never reads as syntax, nor as a cell's end), a line break
/// becomes `<br>`.
fn markdown(text: &str) -> String {
    let mut cell = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => cell.push_str("&amp;"),
            '<' => cell.push_str("&lt;"),
            '>' => cell.push_str("&gt;"),
            '\n' => cell.push_str("<br>"),
            '|' | '`' | '*' | '_' | '[' | ']' | '\\' | '~' | '#' | '!' => {
                let _ = write!(cell, "&#{};", u32::from(c));
            }
            c => cell.push(c),
        }
    }
    cell
}

/// `text` (the human report, which holds program output and compiler diagnostics)
/// between `::stop-commands::TOKEN` and `::TOKEN::`: the Actions runner executes no
/// workflow command in between, whatever a line says (`::error`, `::add-mask`, a
/// `::stop-commands` of its own, after blanks or not), until it reads `::TOKEN::`. The
/// token is fresh for every run and appears nowhere in `text`, so only clings can end
/// the fence.
pub fn fenced(text: &str) -> Result<String> {
    // The runner compares the token ignoring case.
    let lowercase = text.to_ascii_lowercase();
    let token = loop {
        let token = random_token()?;
        if !lowercase.contains(&token) {
            break token;
        }
    };
    let mut out = format!("::stop-commands::{token}\n{text}");
    if !out.ends_with('\n') {
        out.push('\n');
    }
    let _ = writeln!(out, "::{token}::");
    Ok(out)
}

/// 128 random bits in hex: nobody who only sees the program run can guess them.
fn random_token() -> Result<String> {
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut random| random.read_exact(&mut bytes))
        .context("cannot read /dev/urandom for a stop-commands token")?;
    Ok(bytes.iter().map(|byte| format!("{byte:02x}")).collect())
}

/// The line number in a sanitizer report such as `src.c:12:9: runtime error: …`.
fn report_line(report: &str, source: &str) -> Option<u32> {
    let rest = report.split(source).nth(1)?.strip_prefix(':')?;
    rest.split(':').next()?.parse().ok()
}

/// Escapes an annotation's message (GitHub's workflow-command encoding).
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes an annotation property, where `:` and `,` are separators too.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_cells_hold_only_text() {
        let cell = markdown("<img src=x onerror=y> | `a` *b* _c_ [d](e) \\| &amp;\n~~f~~ # ![g]");
        let syntax = ['<', '>', '|', '`', '*', '_', '[', ']', '\n', '~', '!'];
        assert!(!cell.replace("<br>", "").contains(syntax), "{cell}");
        assert!(
            cell.starts_with("&lt;img src=x onerror=y&gt; &#124; &#96;a&#96;"),
            "{cell}"
        );
        assert!(
            cell.ends_with(
                "&#92;&#124; &amp;amp;<br>&#126;&#126;f&#126;&#126; &#35; &#33;&#91;g&#93;"
            ),
            "{cell}"
        );
    }

    #[test]
    fn the_fence_ends_only_with_its_own_token() {
        let text = "::stop-commands::x\n  ::error file=x::forged\n::x::";
        let once = fenced(text).unwrap();
        let lines: Vec<&str> = once.lines().collect();
        let token = lines[0].strip_prefix("::stop-commands::").unwrap();
        assert_eq!(token.len(), 32);
        assert_eq!(lines.last(), Some(&format!("::{token}::").as_str()));
        assert_eq!(once.matches(token).count(), 2, "{once}");
        assert_ne!(fenced(text).unwrap(), once, "a fresh token every time");
    }

    #[test]
    fn sanitizer_report_gives_the_line() {
        let report = "exercises/check_win.c:12:9: runtime error: index 15 out of bounds";
        assert_eq!(report_line(report, "exercises/check_win.c"), Some(12));
        assert_eq!(report_line(report, "other.c"), None);
    }

    #[test]
    fn annotation_text_is_escaped() {
        assert_eq!(data("50%\r\nnext"), "50%25%0D%0Anext");
        assert_eq!(property("a: b, c"), "a%3A b%2C c");
    }
}
