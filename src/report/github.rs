//! GitHub Actions: workflow-command annotations (`::error file=…,line=…::…`) for compiler
//! errors and failing cases, and a Markdown summary table for the job's summary page.

use std::fmt::Write;

use crate::grade::{ExerciseResult, Status};
use crate::i18n::Lang;
use crate::judge::{Finding, Verdict};
use crate::style;

/// One annotation per compiler error or warning and per failing case.
pub fn annotations(results: &[ExerciseResult], lang: Lang) -> String {
    let mut out = String::new();
    for result in results {
        let source = result.source.display().to_string();
        for diagnostic in compiler_diagnostics(&result.diagnostics) {
            let _ = writeln!(
                out,
                "::{} file={},line={},col={},title={}::{}",
                diagnostic.level,
                property(&diagnostic.file),
                diagnostic.line,
                diagnostic.column,
                property(&format!("{}: compiler {}", result.name, diagnostic.level)),
                data(&diagnostic.message)
            );
        }
        if matches!(result.status, Status::CompileError | Status::Missing) {
            let what = match result.status {
                Status::Missing => format!("{source} is missing"),
                _ => format!("{source} does not compile"),
            };
            let _ = writeln!(
                out,
                "::error file={},title={}::{}",
                property(&source),
                property(&result.name),
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
            let line = match &case.finding {
                Finding::Sanitizer { report } => {
                    report_line(report, &source).map(|line| format!(",line={line}"))
                }
                _ => None,
            };
            let mut message = case.finding.message(lang);
            if let Some(hint) = &case.case.config.hint {
                message.push_str(&format!("\n{}", hint.get(lang)));
            }
            let _ = writeln!(
                out,
                "::error file={}{},title={}::{}",
                property(&source),
                line.unwrap_or_default(),
                property(&format!(
                    "{} {}: {}",
                    result.name,
                    case.case.name,
                    case.finding.verdict().as_str()
                )),
                data(&message)
            );
        }
    }
    out
}

/// A Markdown table of the exercises, and the failing cases under it.
pub fn summary(results: &[ExerciseResult], lang: Lang) -> String {
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
    let points: u32 = results.iter().map(ExerciseResult::points).sum();
    let max_points: u32 = results.iter().map(ExerciseResult::max_points).sum();
    let _ = writeln!(out, "| **total** | | | **{points}/{max_points}** |");
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
                        case.case.name,
                        case.finding.verdict().as_str(),
                        case.finding.message(lang).replace('|', "\\|")
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

struct Diagnostic {
    file: String,
    line: u32,
    column: u32,
    level: &'static str,
    message: String,
}

/// gcc's `file:line:col: error: message` lines.
fn compiler_diagnostics(diagnostics: &str) -> Vec<Diagnostic> {
    style::strip_ansi(diagnostics)
        .lines()
        .filter_map(|line| {
            let mut parts = line.splitn(5, ':');
            let file = parts.next()?.to_string();
            let line_number = parts.next()?.trim().parse().ok()?;
            let column = parts.next()?.trim().parse().ok()?;
            let level = match parts.next()?.trim() {
                "error" | "fatal error" => "error",
                "warning" => "warning",
                _ => return None,
            };
            Some(Diagnostic {
                file,
                line: line_number,
                column,
                level,
                message: parts.next()?.trim().to_string(),
            })
        })
        .collect()
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
    fn gcc_lines_become_diagnostics() {
        let text = "\x1b[01mx.c:7:27:\x1b[m \x1b[01;31merror: \x1b[mexpected ';'\nx.c: In function 'main':\nx.c:3:9: warning: unused variable 'a'\n";
        let found = compiler_diagnostics(text);
        assert_eq!(found.len(), 2);
        assert_eq!(
            (
                found[0].file.as_str(),
                found[0].line,
                found[0].column,
                found[0].level
            ),
            ("x.c", 7, 27, "error")
        );
        assert_eq!(found[0].message, "expected ';'");
        assert_eq!(found[1].level, "warning");
    }

    #[test]
    fn sanitizer_report_gives_the_line() {
        let report = "exercises/check_win.c:12:9: runtime error: index 15 out of bounds";
        assert_eq!(report_line(report, "exercises/check_win.c"), Some(12));
        assert_eq!(report_line(report, "other.c"), None);
    }

    #[test]
    fn annotation_text_is_escaped() {
        assert_eq!(data("50%\nnext"), "50%25%0Anext");
        assert_eq!(property("a: b, c"), "a%3A b%2C c");
    }
}
