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

    #[test]
    fn invisibles_are_shown_only_at_line_end() {
        assert_eq!(show_invisibles("a b"), "a b");
        assert_eq!(show_invisibles("a b \t"), "a b·→");
    }
}
