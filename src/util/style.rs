//! Terminal styling: whether to colour at all, removing colour from text that has it, and
//! showing text that clings did not write. That text — what a program printed, its
//! sanitizer report, the compiler's diagnostics (which quote the student's source) — sent
//! raw to a terminal could move the cursor, redraw the report or write the clipboard
//! (OSC 52); in XML most control characters are not even allowed. Every report passes it
//! through [`visible`] before showing it, and every name it puts in a line through
//! [`one_line`].

use std::borrow::Cow;
use std::fmt::Write;
use std::io::IsTerminal;

use clap::ValueEnum;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when stdout is a terminal (or CLICOLOR_FORCE is set) and NO_COLOR is not set.
    #[default]
    Auto,
    Always,
    Never,
}

/// Decides once, for the whole process, whether output is coloured.
pub fn init(choice: ColorChoice) -> bool {
    let enabled = match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            let set = |var| std::env::var_os(var).is_some_and(|value| !value.is_empty());
            (std::io::stdout().is_terminal() || set("CLICOLOR_FORCE")) && !set("NO_COLOR")
        }
    };
    colored::control::set_override(enabled);
    enabled
}

pub fn enabled() -> bool {
    colored::control::SHOULD_COLORIZE.should_colorize()
}

/// Removes every escape sequence (the compiler's colours, and whatever else text that is
/// not clings' own may hold): CSI (`ESC [` … a final byte), OSC and the other string
/// sequences (`ESC ]`, `ESC P`, `ESC X`, `ESC ^`, `ESC _` … BEL or `ESC \`), and the short
/// `ESC` forms. Other control characters are left for [`visible`].
pub fn strip_ansi(text: &str) -> String {
    let mut plain = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\x1b' {
            plain.push(c);
            continue;
        }
        match chars.next() {
            // A CSI sequence ends at its first byte in '@'..='~'.
            Some('[') => {
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            // A string sequence ends at BEL (OSC only, but terminals accept it for all)
            // or at the string terminator ESC \.
            Some(']' | 'P' | 'X' | '^' | '_') => {
                while let Some(c) = chars.next() {
                    if c == '\x07' || (c == '\x1b' && chars.next_if_eq(&'\\').is_some()) {
                        break;
                    }
                }
            }
            // Intermediate bytes, then one final byte (`ESC ( B`, `ESC c`, `ESC 7`).
            Some(' '..='/') => {
                while chars.next_if(|c| (' '..='/').contains(c)).is_some() {}
                chars.next();
            }
            _ => {}
        }
    }
    plain
}

/// `text` with every character that is not meant to be seen written as an escape a C
/// programmer reads: tab and newline stay; CR is `\r`; every other C0 control, DEL and
/// the C1 controls are `\xNN` (ESC is `\x1b`); the line and paragraph separators
/// U+2028 and U+2029, which some viewers break lines at, the bidirectional overrides and
/// isolates, which reorder the text shown around them ("Trojan Source"), and the
/// non-characters U+FFFE and U+FFFF, which XML forbids, are `\u{NNNN}`. Invalid UTF-8 has
/// already become U+FFFD where the bytes were read. For text of several lines: what a
/// program printed, the compiler's diagnostics.
pub fn visible(text: &str) -> Cow<'_, str> {
    escaped(text, Lines::Kept)
}

/// `text` as [`visible`] shows it, and newline and tab too (`\n`, `\t`): a name (a
/// student's folder, a player, an engine's answer to ABOUT, a case) or anything else that
/// clings writes inside a line of its own. A name that could end the line could write the
/// next one, a GitHub workflow command (`::error ...`, `::add-mask::...`) in a CI log.
pub fn one_line(text: &str) -> Cow<'_, str> {
    escaped(text, Lines::Escaped)
}

/// Whether [`escaped`] keeps line breaks and tabs as they are.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lines {
    Kept,
    Escaped,
}

/// The one escaping of both: [`visible`] and [`one_line`] differ only in `lines`.
fn escaped(text: &str, lines: Lines) -> Cow<'_, str> {
    if !text.chars().any(|c| hidden(c, lines)) {
        return Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            c if !hidden(c, lines) => shown.push(c),
            '\r' => shown.push_str("\\r"),
            '\n' => shown.push_str("\\n"),
            '\t' => shown.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(shown, "\\x{:02x}", u32::from(c));
            }
            c => {
                let _ = write!(shown, "\\u{{{:04x}}}", u32::from(c));
            }
        }
    }
    Cow::Owned(shown)
}

/// Whether `c` must be escaped: Rust's `is_control` is exactly C0, DEL and C1.
fn hidden(c: char, lines: Lines) -> bool {
    match c {
        '\t' | '\n' => lines == Lines::Escaped,
        c => {
            c.is_control()
                || matches!(
                    c,
                    '\u{2028}'
                        | '\u{2029}'
                        | '\u{202a}'..='\u{202e}'
                        | '\u{2066}'..='\u{2069}'
                        | '\u{fffe}'
                        | '\u{ffff}'
                )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_colour_codes() {
        let coloured = "\x1b[01m\x1b[Kx.c:3:5:\x1b[m\x1b[K \x1b[01;31merror:\x1b[m oops";
        assert_eq!(strip_ansi(coloured), "x.c:3:5: error: oops");
    }

    #[test]
    fn strips_every_kind_of_escape_sequence() {
        let osc_bel = "a\x1b]52;c;aGk=\x07b";
        let osc_st = "a\x1b]8;;http://x\x1b\\b";
        let apc = "a\x1b_hidden\x1b\\b";
        let short = "a\x1bcb\x1b(Bc";
        assert_eq!(strip_ansi(osc_bel), "ab");
        assert_eq!(strip_ansi(osc_st), "ab");
        assert_eq!(strip_ansi(apc), "ab");
        assert_eq!(strip_ansi(short), "abc");
        // An unterminated sequence takes the rest with it; a lone ESC goes alone.
        assert_eq!(strip_ansi("a\x1b]0;title"), "a");
        assert_eq!(strip_ansi("a\x1b"), "a");
    }

    #[test]
    fn plain_text_is_kept_as_it_is() {
        let text = "x.c:3:5: error: 期望 ';'\n\tnext line";
        assert!(matches!(visible(text), Cow::Borrowed(same) if same == text));
    }

    #[test]
    fn terminal_sequences_cannot_reach_the_terminal() {
        // OSC 52 writes the clipboard; CSI 2J clears the screen.
        let text = "\x1b]52;c;aGk=\x07\x1b[2Jok\r\n";
        assert_eq!(visible(text), "\\x1b]52;c;aGk=\\x07\\x1b[2Jok\\r\n");
    }

    #[test]
    fn every_other_control_is_a_hex_escape() {
        assert_eq!(visible("\0\x01\x7f"), "\\x00\\x01\\x7f");
        // C1: U+009B is CSI for terminals that read 8-bit controls.
        assert_eq!(visible("\u{9b}31m"), "\\x9b31m");
    }

    #[test]
    fn bidirectional_overrides_and_non_characters_are_shown() {
        assert_eq!(
            visible("a\u{202e}b\u{2066}c\u{2069}"),
            "a\\u{202e}b\\u{2066}c\\u{2069}"
        );
        assert_eq!(visible("\u{ffff}\u{fffe}"), "\\u{ffff}\\u{fffe}");
        // Letters and marks of other scripts are text, not controls.
        assert_eq!(visible("é ü ⏎ \u{fffd}"), "é ü ⏎ \u{fffd}");
        // Line and paragraph separators end a line in some viewers.
        assert_eq!(visible("a\u{2028}b\u{2029}"), "a\\u{2028}b\\u{2029}");
    }

    #[test]
    fn a_name_stays_on_its_line() {
        let name = "x\n::error::forged\r\n::add-mask::\tsecret\u{85}\u{2028}";
        let shown = one_line(name);
        assert_eq!(
            shown,
            "x\\n::error::forged\\r\\n::add-mask::\\tsecret\\x85\\u{2028}"
        );
        assert_eq!(shown.lines().count(), 1);
        // What visible escapes, one_line escapes the same way.
        assert_eq!(one_line("\x1b[2J\u{202e}"), visible("\x1b[2J\u{202e}"));
        assert!(matches!(one_line("李小龙 ana"), Cow::Borrowed(_)));
    }
}
