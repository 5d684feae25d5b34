//! Drawing the difference between the expected and the actual output.
//!
//! A line diff from `similar`; inside a changed line the differing words are highlighted
//! (colour) or pointed at with a caret (plain text), and long lines are shown as a window
//! around the first difference: the game's whole transcript is often one long line.

use colored::Colorize;
use similar::{ChangeTag, DiffTag, TextDiff};

use crate::compare::{CompareMode, show_invisibles};
use crate::i18n::Lang;
use crate::style;

/// Longest part of a line shown, in characters.
const WINDOW: usize = 100;
/// Characters shown before the first difference when a line is cut.
const LEAD: usize = 30;

/// Renders the diff, cut after `max_lines` lines of output with a count of the rest.
pub fn render(
    expected: &[u8],
    actual: &[u8],
    mode: CompareMode,
    max_lines: usize,
    lang: Lang,
) -> String {
    let old = mode.normalise(expected);
    let new = mode.normalise(actual);
    let diff = TextDiff::from_lines(&old, &new);
    let mut out = Output {
        lines: Vec::new(),
        hidden: 0,
        max_lines,
    };
    out.push(format!(
        "{}",
        lang.pick("--- expected", "--- 期望输出").red()
    ));
    out.push(format!(
        "{}",
        lang.pick("+++ your output", "+++ 你的输出").green()
    ));
    for group in diff.grouped_ops(1) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let old_range = first.old_range().start..last.old_range().end;
        let header = lang.pick(
            format!(
                "@@ expected line {}, your line {} @@",
                old_range.start + 1,
                first.new_range().start + 1
            ),
            format!(
                "@@ 期望第 {} 行，你的第 {} 行 @@",
                old_range.start + 1,
                first.new_range().start + 1
            ),
        );
        out.push(format!("{}", header.cyan()));
        for op in group {
            let olds: Vec<&str> = op.old_range().filter_map(|i| diff.old_slice(i)).collect();
            let news: Vec<&str> = op.new_range().filter_map(|i| diff.new_slice(i)).collect();
            match op.tag() {
                DiffTag::Equal => {
                    for line in olds {
                        out.push(format!(" {}", clip(&display(line, mode), 0).0));
                    }
                }
                _ => changed_lines(&mut out, &olds, &news, mode, lang),
            }
        }
    }
    if new.is_empty() {
        out.lines.push(
            lang.pick("(your program printed nothing)", "（你的程序没有任何输出）")
                .to_string(),
        );
    }
    if out.hidden > 0 {
        out.lines.push(lang.pick(
            format!("… {} more lines of difference not shown", out.hidden),
            format!("… 另有 {} 行差异未显示", out.hidden),
        ));
    }
    out.lines.join("\n")
}

struct Output {
    lines: Vec<String>,
    hidden: usize,
    max_lines: usize,
}

impl Output {
    fn push(&mut self, line: String) {
        if self.lines.len() < self.max_lines {
            self.lines.push(line);
        } else {
            self.hidden += 1;
        }
    }
}

/// Removed and added lines, paired up so each pair shows where it starts to differ.
fn changed_lines(out: &mut Output, olds: &[&str], news: &[&str], mode: CompareMode, lang: Lang) {
    for index in 0..olds.len().max(news.len()) {
        match (olds.get(index), news.get(index)) {
            (Some(old), Some(new)) => {
                let (old, new) = (display(old, mode), display(new, mode));
                let (old_marks, new_marks) = word_marks(&old, &new);
                let first = first_difference(&old, &new);
                let start = first.saturating_sub(LEAD);
                out.push(styled('-', &old, &old_marks, start));
                out.push(styled('+', &new, &new_marks, start));
                if !style::enabled() {
                    let column = first - start + usize::from(start > 0);
                    let at = lang.pick(
                        format!("column {}", first + 1),
                        format!("第 {} 列", first + 1),
                    );
                    out.push(format!(" {}^ {at}", " ".repeat(column)));
                }
            }
            (Some(old), None) => out.push(styled('-', &display(old, mode), &[], 0)),
            (None, Some(new)) => out.push(styled('+', &display(new, mode), &[], 0)),
            (None, None) => {}
        }
    }
}

/// A line as shown: without its newline, control characters escaped (the program's
/// output is not clings' to send to a terminal), trailing blanks visible where they count.
fn display(line: &str, mode: CompareMode) -> String {
    let body = style::visible(line.strip_suffix('\n').unwrap_or(line));
    match mode {
        CompareMode::Exact if !line.ends_with('\n') => {
            format!("{}⏎̸ (no newline at end)", show_invisibles(&body))
        }
        CompareMode::Exact => show_invisibles(&body).into_owned(),
        _ => body.into_owned(),
    }
}

fn first_difference(old: &str, new: &str) -> usize {
    old.chars()
        .zip(new.chars())
        .take_while(|(a, b)| a == b)
        .count()
}

/// For each character of both lines: is it part of a word that differs?
fn word_marks(old: &str, new: &str) -> (Vec<bool>, Vec<bool>) {
    let diff = TextDiff::from_words(old, new);
    let mut old_marks = Vec::with_capacity(old.len());
    let mut new_marks = Vec::with_capacity(new.len());
    for change in diff.iter_all_changes() {
        let count = change.value().chars().count();
        match change.tag() {
            ChangeTag::Equal => {
                old_marks.extend(std::iter::repeat_n(false, count));
                new_marks.extend(std::iter::repeat_n(false, count));
            }
            ChangeTag::Delete => old_marks.extend(std::iter::repeat_n(true, count)),
            ChangeTag::Insert => new_marks.extend(std::iter::repeat_n(true, count)),
        }
    }
    (old_marks, new_marks)
}

/// Cuts a line to the window starting at character `start`; returns the text and the
/// character range kept.
fn clip(line: &str, start: usize) -> (String, std::ops::Range<usize>) {
    let total = line.chars().count();
    let start = start.min(total);
    let end = (start + WINDOW).min(total);
    let mut text = String::new();
    if start > 0 {
        text.push('…');
    }
    text.extend(line.chars().skip(start).take(end - start));
    if end < total {
        text.push('…');
    }
    (text, start..end)
}

fn styled(sign: char, line: &str, marks: &[bool], start: usize) -> String {
    let (plain, kept) = clip(line, start);
    if !style::enabled() {
        return format!("{sign}{plain}");
    }
    let colour = |text: &str, marked: bool| {
        let base = if sign == '-' {
            text.red()
        } else {
            text.green()
        };
        if marked { base.bold().reversed() } else { base }
    };
    let mut out = colour(&sign.to_string(), false).to_string();
    if kept.start > 0 {
        out.push('…');
    }
    let chars: Vec<char> = line.chars().collect();
    let mut run = String::new();
    let mut run_marked = false;
    for index in kept.clone() {
        let marked = marks.get(index).copied().unwrap_or(false);
        if marked != run_marked && !run.is_empty() {
            out.push_str(&colour(&run, run_marked).to_string());
            run.clear();
        }
        run_marked = marked;
        run.push(chars[index]);
    }
    out.push_str(&colour(&run, run_marked).to_string());
    if kept.end < chars.len() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(expected: &str, actual: &str, mode: CompareMode) -> String {
        colored::control::set_override(false);
        render(expected.as_bytes(), actual.as_bytes(), mode, 40, Lang::En)
    }

    #[test]
    fn changed_line_gets_a_caret_at_the_first_difference() {
        let text = plain("none\nblack\n", "none\nwhite\n", CompareMode::Lines);
        assert!(text.contains("-black\n+white\n ^ column 1"), "{text}");
        assert!(
            text.contains("@@ expected line 1, your line 1 @@"),
            "{text}"
        );
    }

    #[test]
    fn long_line_is_windowed_around_the_difference() {
        let expected = format!("{}Player X wins!\n", "Player X, enter row col: ".repeat(20));
        let actual = format!("{}Player O wins!\n", "Player X, enter row col: ".repeat(20));
        let text = plain(&expected, &actual, CompareMode::Lines);
        let minus = text
            .lines()
            .find(|l| l.starts_with('-') && !l.starts_with("---"))
            .unwrap();
        assert!(minus.starts_with("-…"), "cut at the front: {minus}");
        assert!(minus.contains("Player X wins!"), "{minus}");
        let caret = text.lines().find(|l| l.contains('^')).unwrap();
        let plus = text
            .lines()
            .find(|l| l.starts_with('+') && !l.starts_with("+++"))
            .unwrap();
        let caret_at = caret.find('^').unwrap();
        assert_eq!(
            plus.chars().nth(caret_at),
            Some('O'),
            "caret under the difference:\n{plus}\n{caret}"
        );
    }

    #[test]
    fn long_diffs_are_cut_with_a_count() {
        let expected: String = (0..100).map(|i| format!("{i}\n")).collect();
        let actual: String = (0..100).map(|i| format!("x{i}\n")).collect();
        let text = plain(&expected, &actual, CompareMode::Lines);
        assert!(text.lines().count() <= 41, "{text}");
        assert!(
            text.contains("more lines of difference not shown"),
            "{text}"
        );
    }

    #[test]
    fn exact_mode_shows_invisible_differences() {
        let text = plain("a\n", "a \n", CompareMode::Exact);
        assert!(text.contains("+a·"), "{text}");
        let text = plain("a\n", "a", CompareMode::Exact);
        assert!(text.contains("no newline at end"), "{text}");
    }

    #[test]
    fn control_characters_are_shown_escaped_in_every_mode() {
        for mode in [CompareMode::Lines, CompareMode::Exact, CompareMode::Tokens] {
            let text = plain("ok\n", "\x1b[2J\x1b]52;c;aGk=\x07ok\n", mode);
            assert!(!text.contains('\x1b') && !text.contains('\x07'), "{text:?}");
            assert!(text.contains("+\\x1b[2J\\x1b]52;c;aGk=\\x07ok"), "{text}");
        }
        let text = plain("a\r\n", "a\n", CompareMode::Exact);
        assert!(text.contains("-a\\r"), "{text}");
    }

    #[test]
    fn empty_output_is_called_out() {
        let text = plain("none\n", "", CompareMode::Lines);
        assert!(
            text.contains("-none") && text.contains("printed nothing"),
            "{text}"
        );
    }

    #[test]
    fn extra_output_lines_are_shown() {
        let text = plain("none\n", "debug\nnone\n", CompareMode::Lines);
        assert!(text.contains("+debug"), "{text}");
    }
}
