//! How expected and actual output are compared: the three compare modes.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum CompareMode {
    /// Trailing whitespace of each line and trailing blank lines are ignored.
    #[default]
    Lines,
    /// Byte for byte.
    Exact,
    /// Whitespace-separated tokens.
    Tokens,
}

impl CompareMode {
    pub fn matches(self, expected: &[u8], actual: &[u8]) -> bool {
        match self {
            CompareMode::Exact => expected == actual,
            CompareMode::Lines | CompareMode::Tokens => {
                self.normalise(expected) == self.normalise(actual)
            }
        }
    }

    /// The text as this mode sees it: what the diff is drawn from, so the diff shows
    /// exactly the differences that made the case fail.
    pub fn normalise(self, output: &[u8]) -> String {
        let text = String::from_utf8_lossy(output);
        match self {
            CompareMode::Exact => text.into_owned(),
            CompareMode::Lines => {
                let mut lines: Vec<&str> = text.lines().map(str::trim_end).collect();
                while lines.last().is_some_and(|line| line.is_empty()) {
                    lines.pop();
                }
                let mut normalised = lines.join("\n");
                if !normalised.is_empty() {
                    normalised.push('\n');
                }
                normalised
            }
            CompareMode::Tokens => {
                let mut normalised = String::with_capacity(text.len());
                for token in text.split_whitespace() {
                    normalised.push_str(token);
                    normalised.push('\n');
                }
                normalised
            }
        }
    }
}

/// Where a program's output first parts from the expected output, both as the compare
/// mode sees them: the evidence of what went wrong before a run looped, ran out of time or
/// crashed, and what the hint rules key on (`expected_there`, `printed_there`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The line of the output where the two part, counted from 1.
    pub line: usize,
    /// What the expected output has from there to the end of that line; `None` where the
    /// expected output had ended.
    pub expected: Option<String>,
    /// What the program printed from there to the end of that line; `None` where its
    /// output had ended.
    pub printed: Option<String>,
    /// The input line the program was answering there (see [`Divergence::with_input`]):
    /// its number in the input, counted from 1, and its text.
    pub input_line: Option<(usize, String)>,
    /// The program's output, as the mode sees it, through the line after the one where
    /// the two part and at most [`SHOWN_PAST`] bytes past that point: what a diff of a
    /// run that went on printing (a loop) shows.
    pub shown: String,
    /// How many times the expected output has printed the prompt before the two part
    /// (when the exercise has one): how many input lines the program had read there.
    read: Option<usize>,
}

/// How much of a program's output past the point where it went wrong a diff shows.
const SHOWN_PAST: usize = 2000;

impl Divergence {
    /// Whether the output had gone wrong: both sides print something there and it differs.
    /// An output that only stops early, or goes on past the expected end, differs by
    /// what stopped it or by what it printed after the end, not before.
    pub fn differs(&self) -> bool {
        self.expected.is_some() && self.printed.is_some()
    }

    /// Whether, where the two part, the expected output goes on with `expected` and the
    /// program's with `printed`, each when given: what a hint rule or a mistake keys on.
    pub fn goes_on_with(
        found: Option<&Divergence>,
        expected: Option<&str>,
        printed: Option<&str>,
    ) -> bool {
        let side = |part: Option<&str>, text: fn(&Divergence) -> Option<&str>| {
            part.is_none_or(|part| {
                found
                    .and_then(text)
                    .is_some_and(|text| text.starts_with(part))
            })
        };
        side(expected, |found| found.expected.as_deref())
            && side(printed, |found| found.printed.as_deref())
    }

    /// Whether the line where the two part differs in capital letters alone.
    pub fn in_letter_case(&self) -> bool {
        match (&self.expected, &self.printed) {
            (Some(expected), Some(printed)) => {
                expected != printed && expected.to_lowercase() == printed.to_lowercase()
            }
            _ => false,
        }
    }

    /// With the input line the program was answering where the two part: the program
    /// prints its prompt before it reads each non-blank line of `input`, so the prompts
    /// the expected output has by then count the lines read.
    pub fn with_input(mut self, input: &[u8]) -> Divergence {
        let text = String::from_utf8_lossy(input);
        self.input_line = self
            .read
            .and_then(|read| read.checked_sub(1))
            .and_then(|index| {
                text.lines()
                    .enumerate()
                    .filter(|(_, line)| !line.trim().is_empty())
                    .nth(index)
                    .map(|(number, line)| (number + 1, line.trim().to_string()))
            });
        self
    }
}

impl CompareMode {
    /// Where `actual` first parts from `expected`; `None` when the mode sees them alike.
    /// The place is the start of what was being said there: the end of the last `prompt`
    /// on that line (what the program prints before it reads), else the start of the word.
    pub fn divergence(
        self,
        expected: &[u8],
        actual: &[u8],
        prompt: Option<&str>,
    ) -> Option<Divergence> {
        let (expected, actual) = (self.normalise(expected), self.normalise(actual));
        if expected == actual {
            return None;
        }
        let offset = expected
            .char_indices()
            .zip(actual.chars())
            .find(|((_, left), right)| left != right)
            .map_or(expected.len().min(actual.len()), |((at, _), _)| at);
        // The shorter one may end inside a multi-byte character of the other.
        let offset = (0..=offset)
            .rev()
            .find(|&at| expected.is_char_boundary(at) && actual.is_char_boundary(at))
            .unwrap_or(0);
        // Back to the start of what was said there: `Player X wins!` against `Player O,
        // enter row col: `, not `X wins!` against `O, enter row col: `.
        let prompt = prompt
            .map(str::trim_end)
            .filter(|prompt| !prompt.is_empty());
        let line_start = expected[..offset].rfind('\n').map_or(0, |at| at + 1);
        let after_prompt = prompt.and_then(|prompt| {
            let at = expected[line_start..offset].rfind(prompt)? + line_start + prompt.len();
            Some(offset - expected[at..offset].trim_start().len())
        });
        let word_start = expected[..offset]
            .char_indices()
            .rev()
            .find(|(_, c)| c.is_whitespace())
            .map_or(0, |(at, c)| at + c.len_utf8());
        let offset = after_prompt.unwrap_or(word_start);
        let rest = |text: &str| {
            (offset < text.len()).then(|| {
                text[offset..]
                    .split('\n')
                    .next()
                    .unwrap_or_default()
                    .to_string()
            })
        };
        let mut shown_end = actual[offset..]
            .match_indices('\n')
            .nth(1)
            .map_or(actual.len(), |(at, _)| offset + at + 1)
            .min(offset + SHOWN_PAST);
        while !actual.is_char_boundary(shown_end) {
            shown_end -= 1;
        }
        Some(Divergence {
            line: expected[..offset].matches('\n').count() + 1,
            expected: rest(&expected),
            printed: rest(&actual),
            input_line: None,
            shown: actual[..shown_end].to_string(),
            read: prompt.map(|prompt| expected[..offset].matches(prompt).count()),
        })
    }
}

/// Makes the trailing blanks that `exact` mode cares about visible in a diff line (a
/// trailing CR is already `\r`, as every control character in a diff).
pub fn show_invisibles(line: &str) -> Cow<'_, str> {
    let trimmed = line.trim_end_matches([' ', '\t']);
    if trimmed.len() == line.len() {
        return Cow::Borrowed(line);
    }
    let tail: String = line[trimmed.len()..]
        .chars()
        .map(|c| if c == ' ' { '·' } else { '→' })
        .collect();
    Cow::Owned(format!("{trimmed}{tail}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_ignores_trailing_blanks_and_blank_lines() {
        let mode = CompareMode::Lines;
        assert!(mode.matches(b"a\nb\n", b"a  \nb\t\n\n\n"));
        assert!(mode.matches(b"a\r\nb", b"a\nb\n"));
        assert!(!mode.matches(b"a\nb\n", b" a\nb\n"), "leading blanks count");
        assert!(
            !mode.matches(b"a\n\nb\n", b"a\nb\n"),
            "inner blank lines count"
        );
    }

    #[test]
    fn exact_is_byte_for_byte() {
        let mode = CompareMode::Exact;
        assert!(mode.matches(b"a \n", b"a \n"));
        assert!(!mode.matches(b"a\n", b"a \n"));
        assert!(!mode.matches(b"a\n", b"a"));
    }

    #[test]
    fn tokens_ignore_all_whitespace_layout() {
        let mode = CompareMode::Tokens;
        assert!(mode.matches(b"1 2\n3\n", b"1\n2 3"));
        assert!(!mode.matches(b"1 2 3", b"1 23"));
    }

    fn found_in_loop_is_cut(looping: &str) -> bool {
        let long = looping.repeat(100);
        let found = CompareMode::Lines
            .divergence(b"Player X", long.as_bytes(), None)
            .unwrap();
        found.shown.len() <= "Player ".len() + SHOWN_PAST && long.len() > 2 * SHOWN_PAST
    }

    #[test]
    fn the_divergence_is_where_the_two_first_part_and_names_the_input_line() {
        let expected = "Player X, enter row col: Player O, enter row col: Invalid move! Try again.\nPlayer O, enter row col: Player X wins!\n";
        let looping = "Player X, enter row col: Player O, enter row col: Player X, enter row col: "
            .repeat(30);
        let input = b"7 7\n\n7 7\n8 8\n";
        let found = CompareMode::Lines
            .divergence(
                expected.as_bytes(),
                looping.as_bytes(),
                Some("enter row col: "),
            )
            .unwrap()
            .with_input(input);
        assert_eq!(found.line, 1);
        assert_eq!(found.expected.as_deref(), Some("Invalid move! Try again."));
        assert!(
            found
                .printed
                .as_deref()
                .unwrap()
                .starts_with("Player X, enter row col: ")
        );
        // The second move read, on line 3 of the input: blank lines are not moves.
        assert_eq!(found.input_line, Some((3, "7 7".to_string())));
        assert!(found.differs());
        // On a later line, before any prompt: no input line; counted lines.
        let found = CompareMode::Lines
            .divergence(b"a\nb\nc\n", b"a\nb\nd\n", Some("enter row col: "))
            .unwrap();
        assert_eq!(
            (
                found.line,
                found.expected.as_deref(),
                found.printed.as_deref()
            ),
            (3, Some("c"), Some("d"))
        );
        let found = found.with_input(input);
        assert_eq!(found.input_line, None);
        // Stopped while right so far, or going on past the end: no wrong output before.
        let early = CompareMode::Lines
            .divergence(b"a\nb\n", b"a\n", None)
            .unwrap();
        assert_eq!((early.line, early.printed.as_deref()), (2, None));
        assert!(!early.differs());
        let past = CompareMode::Lines
            .divergence(b"a\n", b"a\nb\nb\n", None)
            .unwrap();
        assert!(!past.differs() && past.expected.is_none());
        // What a diff shows of a loop: through the next line, and only so far past.
        let rows = CompareMode::Lines
            .divergence(b"a\nb\nc\n", b"a\nx\ny\nz\n", None)
            .unwrap();
        assert_eq!(rows.shown, "a\nx\ny\n");
        assert!(found_in_loop_is_cut(&looping));
        // A line that goes on past its expected end differs at its end.
        let longer = CompareMode::Lines
            .divergence(b"x ab\nc\n", b"x abab\n", None)
            .unwrap();
        assert_eq!(
            (longer.expected.as_deref(), longer.printed.as_deref()),
            (Some("ab"), Some("abab"))
        );
        // From the start of the word: what was said there.
        let word = CompareMode::Lines
            .divergence(
                b"Player O, enter row col: Player X wins!\n",
                b"Player O, enter row col: Player O, enter row col: ",
                Some("enter row col: "),
            )
            .unwrap();
        assert_eq!(word.expected.as_deref(), Some("Player X wins!"));
        assert_eq!(CompareMode::Lines.divergence(b"a \n\n", b"a\n", None), None);
        // Capital letters alone, on the line where the two part.
        let capital = CompareMode::Lines
            .divergence(b"black\n", b"Black\n", None)
            .unwrap();
        assert!(capital.in_letter_case());
        assert!(
            !CompareMode::Lines
                .divergence(b"black\n", b"Blank\n", None)
                .unwrap()
                .in_letter_case()
        );
        // Multi-byte characters are never cut.
        let wide = CompareMode::Exact
            .divergence("é".as_bytes(), "è".as_bytes(), None)
            .unwrap();
        assert_eq!(wide.expected.as_deref(), Some("é"));
    }

    #[test]
    fn invisibles_are_shown_only_at_line_end() {
        assert_eq!(show_invisibles("a b"), "a b");
        assert_eq!(show_invisibles("a b \t"), "a b·→");
    }
}
