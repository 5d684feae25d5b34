//! Drawing the difference between the expected and the actual output.
//!
//! A line diff from `similar`; inside a changed line the differing words are highlighted
//! (colour) or pointed at with a caret (plain text), and long lines are shown as a window
//! around the first difference: the game's whole transcript is often one long line.

use colored::{Color, Colorize};
use similar::{ChangeTag, DiffTag, TextDiff};

use crate::util::i18n::{Lang, count};
use crate::util::style;
use crate::verdict::compare::{CompareMode, show_invisibles};

/// Longest part of a line shown, in characters.
const WINDOW: usize = 100;
/// Characters shown before the first difference when a line is cut.
const LEAD: usize = 30;

/// Which two outputs a diff compares: its labels name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sides {
    /// A case's expected output and what the student's program printed.
    Student,
    /// A case's `.out` and what the reference solution printed (`dev check`).
    Solution,
    /// An expected output as it is and as the reference solution now computes it
    /// (`dev bless`).
    Bless,
}

impl Sides {
    /// `--- old`, `+++ new`.
    fn files(self, lang: Lang) -> (&'static str, &'static str) {
        match self {
            Sides::Student => lang.pick(
                ("--- expected", "+++ your output"),
                ("--- 期望输出", "+++ 你的输出"),
            ),
            Sides::Solution => lang.pick(
                ("--- expected (.out)", "+++ the solution's output"),
                ("--- 期望输出（.out）", "+++ 参考答案的输出"),
            ),
            Sides::Bless => lang.pick(("--- old", "+++ new"), ("--- 旧", "+++ 新")),
        }
    }

    /// `@@ old line 2, new line 2 @@`: where the first changed line of a hunk is.
    fn hunk(self, old: usize, new: usize, lang: Lang) -> String {
        let (en, zh) = match self {
            Sides::Student => (("expected", "your"), ("期望", "你的")),
            Sides::Solution => (("expected", "the solution's"), ("期望", "参考答案")),
            Sides::Bless => (("old", "new"), ("旧", "新")),
        };
        lang.pick(
            format!("@@ {} line {old}, {} line {new} @@", en.0, en.1),
            format!("@@ {}第 {old} 行，{}第 {new} 行 @@", zh.0, zh.1),
        )
    }

    fn nothing(self, lang: Lang) -> &'static str {
        match self {
            Sides::Student => {
                lang.pick("(your program printed nothing)", "（你的程序没有任何输出）")
            }
            Sides::Solution => {
                lang.pick("(the solution printed nothing)", "（参考答案没有任何输出）")
            }
            Sides::Bless => lang.pick("(the new output is empty)", "（新的输出为空）"),
        }
    }
}

/// How a diff is drawn.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub mode: CompareMode,
    /// Lines of output before the rest is only counted.
    pub max_lines: usize,
    pub lang: Lang,
    pub sides: Sides,
    /// Colour, or a caret under the first difference: a file (JUnit) gets plain text
    /// whatever the terminal does.
    pub colour: bool,
}

/// Renders a student's diff, cut after `max_lines` lines of output with a count of the
/// rest, in colour when the terminal has it.
pub fn render(
    expected: &[u8],
    actual: &[u8],
    mode: CompareMode,
    max_lines: usize,
    lang: Lang,
) -> String {
    student(expected, actual, mode, max_lines, lang, style::enabled())
}

/// A student's diff in plain text, a caret under the first difference: for a file that
/// has no terminal to colour it (JUnit, a gradebook).
pub fn plain(
    expected: &[u8],
    actual: &[u8],
    mode: CompareMode,
    max_lines: usize,
    lang: Lang,
) -> String {
    student(expected, actual, mode, max_lines, lang, false)
}

fn student(
    expected: &[u8],
    actual: &[u8],
    mode: CompareMode,
    max_lines: usize,
    lang: Lang,
    colour: bool,
) -> String {
    draw(
        expected,
        actual,
        &Options {
            mode,
            max_lines,
            lang,
            sides: Sides::Student,
            colour,
        },
    )
}

/// Renders the diff from `old` to `new` as `options` say.
pub fn draw(old: &[u8], new: &[u8], options: &Options) -> String {
    let Options {
        mode,
        max_lines,
        lang,
        sides,
        colour,
    } = *options;
    let old = mode.normalise(old);
    let new = mode.normalise(new);
    let diff = TextDiff::from_lines(&old, &new);
    let mut out = Output {
        lines: Vec::new(),
        hidden: 0,
        max_lines,
        colour,
    };
    let (old_file, new_file) = sides.files(lang);
    out.push(paint(old_file, colour, Color::Red));
    out.push(paint(new_file, colour, Color::Green));
    for group in diff.grouped_ops(1) {
        // The header names the first changed line, not the line of context before it.
        let Some(change) = group
            .iter()
            .find(|op| op.tag() != DiffTag::Equal)
            .or(group.first())
        else {
            continue;
        };
        let header = sides.hunk(
            change.old_range().start + 1,
            change.new_range().start + 1,
            lang,
        );
        out.push(paint(&header, colour, Color::Cyan));
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
        out.lines.push(sides.nothing(lang).to_string());
    }
    if out.hidden > 0 {
        out.lines.push(lang.pick(
            format!(
                "… {} of difference not shown",
                count(out.hidden, "more line", "more lines")
            ),
            format!("… 另有 {} 行差异未显示", out.hidden),
        ));
    }
    out.lines.join("\n")
}

/// `text` in a colour, or as it is when the diff has none.
fn paint(text: &str, colour: bool, how: Color) -> String {
    match colour {
        true => text.color(how).to_string(),
        false => text.to_string(),
    }
}

struct Output {
    lines: Vec<String>,
    hidden: usize,
    max_lines: usize,
    colour: bool,
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
                let colour = out.colour;
                out.push(styled('-', &old, &old_marks, start, colour));
                out.push(styled('+', &new, &new_marks, start, colour));
                if !colour {
                    let column = first - start + usize::from(start > 0);
                    let at = lang.pick(
                        format!("column {}", first + 1),
                        format!("第 {} 列", first + 1),
                    );
                    out.push(format!(" {}^ {at}", " ".repeat(column)));
                }
            }
            (Some(old), None) => {
                let colour = out.colour;
                out.push(styled('-', &display(old, mode), &[], 0, colour))
            }
            (None, Some(new)) => {
                let colour = out.colour;
                out.push(styled('+', &display(new, mode), &[], 0, colour))
            }
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

fn styled(sign: char, line: &str, marks: &[bool], start: usize, colour: bool) -> String {
    let (plain, kept) = clip(line, start);
    if !colour {
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
    use super::draw as draw_with;
    use super::*;
    use std::sync::{Mutex, PoisonError};

    /// Whether colour is on is the process's (`colored`'s override): the tests that set
    /// it take turns, so a coloured diff is never drawn while a plain one is expected.
    static COLOUR: Mutex<()> = Mutex::new(());

    fn draw(expected: &str, actual: &str, mode: CompareMode, colour: bool) -> String {
        let _turn = COLOUR.lock().unwrap_or_else(PoisonError::into_inner);
        colored::control::set_override(colour);
        let text = render(expected.as_bytes(), actual.as_bytes(), mode, 40, Lang::En);
        colored::control::set_override(false);
        text
    }

    fn plain(expected: &str, actual: &str, mode: CompareMode) -> String {
        draw(expected, actual, mode, false)
    }

    /// The runs of a coloured line drawn in reverse video: the words highlighted as
    /// different. `colored` writes each run as `ESC[<codes>m<text>ESC[0m`.
    fn highlighted(line: &str) -> Vec<&str> {
        line.split("\x1b[")
            .filter_map(|part| part.split_once('m'))
            .filter(|(codes, text)| codes.split(';').any(|code| code == "7") && !text.is_empty())
            .map(|(_, text)| text)
            .collect()
    }

    /// The line of a drawn diff that starts with `sign` (not the `---`/`+++` header).
    fn line_of(text: &str, sign: char) -> &str {
        text.lines()
            .find(|line| {
                let line = style::strip_ansi(line);
                line.starts_with(sign) && !line.starts_with(&sign.to_string().repeat(3))
            })
            .unwrap_or_else(|| panic!("no {sign} line in {text}"))
    }

    #[test]
    fn changed_line_gets_a_caret_at_the_first_difference() {
        let text = plain("none\nblack\n", "none\nwhite\n", CompareMode::Lines);
        assert!(text.contains("-black\n+white\n ^ column 1"), "{text}");
    }

    #[test]
    fn the_hunk_header_names_the_first_changed_line_not_its_context() {
        // Line 1 is shown as context; the difference is on line 2.
        let text = plain("none\nblack\n", "none\nwhite\n", CompareMode::Lines);
        assert!(
            text.contains("@@ expected line 2, your line 2 @@"),
            "{text}"
        );
        // A line the program added shifts its numbering from the expected output's.
        let text = plain("a\nb\nc\n", "a\nx\nb\nc\n", CompareMode::Lines);
        assert!(
            text.contains("@@ expected line 2, your line 2 @@"),
            "{text}"
        );
        let text = plain("a\nb\nc\nd\ne\n", "a\nb\nc\nd\nE\n", CompareMode::Lines);
        assert!(
            text.contains("@@ expected line 5, your line 5 @@"),
            "{text}"
        );
        // A difference on the first line has no context before it.
        let text = plain("x\n", "y\n", CompareMode::Lines);
        assert!(
            text.contains("@@ expected line 1, your line 1 @@"),
            "{text}"
        );
    }

    #[test]
    fn each_side_is_named_for_what_it_compares() {
        let draw = |sides| {
            let options = Options {
                mode: CompareMode::Exact,
                max_lines: 40,
                lang: Lang::En,
                sides,
                colour: false,
            };
            super::draw(b"a\n-3\n", b"a\n", &options)
        };
        let bless = draw(Sides::Bless);
        assert!(
            bless.starts_with("--- old\n+++ new\n@@ old line 2, new line 2 @@"),
            "{bless}"
        );
        assert!(
            !bless.contains("expected") && !bless.contains("your"),
            "{bless}"
        );
        let check = draw(Sides::Solution);
        assert!(
            check.starts_with("--- expected (.out)\n+++ the solution's output\n"),
            "{check}"
        );
    }

    #[test]
    fn plain_text_whatever_the_terminal_does() {
        let _turn = COLOUR.lock().unwrap_or_else(PoisonError::into_inner);
        colored::control::set_override(true);
        let options = Options {
            mode: CompareMode::Lines,
            max_lines: 40,
            lang: Lang::En,
            sides: Sides::Student,
            colour: false,
        };
        let text = draw_with(b"black\n", b"white\n", &options);
        colored::control::set_override(false);
        assert!(!text.contains('\x1b'), "{text:?}");
        assert!(text.contains("-black\n+white\n ^ column 1"), "{text}");
    }

    #[test]
    fn one_line_left_out_is_one_line() {
        // `---`, `+++`, `@@`, `-a`, `+x` shown; the caret line left out.
        let options = Options {
            mode: CompareMode::Lines,
            max_lines: 5,
            lang: Lang::En,
            sides: Sides::Student,
            colour: false,
        };
        let text = draw_with(b"a\n", b"x\n", &options);
        assert!(
            text.ends_with("… 1 more line of difference not shown"),
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

    #[test]
    fn unchanged_lines_around_a_change_are_shown_as_context() {
        let text = plain("a\nb\nc\nd\n", "a\nx\nc\nd\n", CompareMode::Lines);
        // One line of context on each side, marked with a space, never as a change.
        assert!(text.contains("\n a\n-b\n+x\n"), "{text}");
        assert!(text.contains(" ^ column 1\n c"), "{text}");
        assert!(!text.contains(" d") && !text.contains("-a"), "{text}");
        // A short diff is drawn whole, with no count of lines left out.
        assert!(!text.contains("not shown"), "{text}");
    }

    #[test]
    fn only_the_line_without_a_newline_is_marked_in_exact_mode() {
        let text = plain("a\n", "a", CompareMode::Exact);
        assert!(text.contains("-a\n+a⏎̸ (no newline at end)"), "{text}");
        let text = plain("a\nb\n", "a\nc\n", CompareMode::Exact);
        assert!(!text.contains("no newline"), "{text}");
    }

    #[test]
    fn a_line_cut_at_both_ends_shows_a_window_around_the_difference() {
        let expected = format!("{}X{}\n", "a".repeat(150), "b".repeat(150));
        let actual = format!("{}O{}\n", "a".repeat(150), "b".repeat(150));
        let text = plain(&expected, &actual, CompareMode::Lines);
        let minus = line_of(&text, '-');
        // 30 characters before the difference, 100 in all, an ellipsis for each cut.
        let window = format!("-…{}X{}…", "a".repeat(30), "b".repeat(69));
        assert_eq!(minus, window);
    }

    #[test]
    fn colour_highlights_the_words_that_differ() {
        let text = draw(
            "black wins: 5 in a row\n",
            "white wins: 5 in a row\n",
            CompareMode::Lines,
            true,
        );
        let (minus, plus) = (line_of(&text, '-'), line_of(&text, '+'));
        assert_eq!(style::strip_ansi(minus), "-black wins: 5 in a row");
        assert_eq!(style::strip_ansi(plus), "+white wins: 5 in a row");
        // The word, drawn as one run: not one escape sequence per character.
        assert_eq!(highlighted(minus), ["black"], "{minus:?}");
        assert_eq!(highlighted(plus), ["white"], "{plus:?}");
        // Expected in red, the program's output in green; no caret: the colour shows it.
        assert!(
            minus.contains("\x1b[31m") && !minus.contains("\x1b[32m"),
            "{minus:?}"
        );
        assert!(
            plus.contains("\x1b[32m") && !plus.contains("\x1b[31m"),
            "{plus:?}"
        );
        assert!(!text.contains('^'), "{text}");
    }

    #[test]
    fn colour_keeps_the_window_of_a_long_line() {
        let expected = format!("{}X {}\n", "a ".repeat(75), "b ".repeat(75));
        let actual = format!("{}O {}\n", "a ".repeat(75), "b ".repeat(75));
        let text = draw(&expected, &actual, CompareMode::Lines, true);
        let plus = line_of(&text, '+');
        let window = format!("+…{}O {}…", "a ".repeat(15), "b ".repeat(34));
        assert_eq!(style::strip_ansi(plus), window);
        assert_eq!(highlighted(plus), ["O"], "{plus:?}");
    }
}
