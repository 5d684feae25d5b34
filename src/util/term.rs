//! Small pieces of terminal text shared by several commands.

use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;

use anyhow::{Context, Result, bail};

use crate::util::i18n::{Lang, Localized};
use crate::util::style;

const BAR_WIDTH: usize = 30;

/// `Progress: [#####---------] 1/3 exercises done (33%)`
pub fn progress_line(done: usize, total: usize, lang: Lang) -> String {
    let filled = (done * BAR_WIDTH).checked_div(total).unwrap_or(0);
    let percent = (done * 100).checked_div(total).unwrap_or(0);
    let bar = format!("[{}{}]", "#".repeat(filled), "-".repeat(BAR_WIDTH - filled));
    lang.pick(
        format!("Progress: {bar} {done}/{total} exercises done ({percent}%)"),
        format!("进度：{bar} 已完成 {done}/{total} 个练习（{percent}%）"),
    )
}

/// Asks a yes/no question on the terminal; without one there is nobody to answer, so it
/// refuses and names the flag that confirms in advance.
pub fn confirm(question: &str, flag: &str) -> Result<bool> {
    if !std::io::stdin().is_terminal() {
        bail!(Localized::new(
            format!("not on a terminal, so there is nobody to confirm: add {flag}"),
            format!("不在终端中运行，无法确认：请加上 {flag}"),
        ));
    }
    print!("{question} [y/N] ");
    std::io::stdout()
        .flush()
        .context("cannot write to the terminal")?;
    let mut answer = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut answer)
        .context("cannot read the answer")?;
    Ok(matches!(answer.trim(), "y" | "Y" | "yes"))
}

/// `text` as a link to the file at `absolute` (OSC 8): a click opens the file in terminals
/// that know these links (most do; the others ignore the sequence and show `text`). Plain
/// `text` where escape sequences are unwelcome: no colour, a dumb terminal, the Linux console.
pub fn file_link(absolute: &Path, text: &str) -> String {
    let term = std::env::var("TERM").unwrap_or_default();
    if !style::enabled() || term == "dumb" || term == "linux" {
        return text.to_string();
    }
    format!(
        "\x1b]8;;file://{}\x1b\\{text}\x1b]8;;\x1b\\",
        url_path(absolute)
    )
}

/// The path part of a file URL: every byte outside the URL-safe set percent-encoded, so
/// a space or a `#` in a directory name does not cut the link short.
fn url_path(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let mut url = String::new();
    for &byte in path.as_os_str().as_bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            url.push(byte as char);
        } else {
            url.push_str(&format!("%{byte:02X}"));
        }
    }
    url
}

/// `text` with its lines broken at spaces so that none is wider than `width` columns on
/// the screen: colour codes take no room, a Chinese character takes two, and a run with
/// no space to break at (a Chinese sentence, a long path) is broken between characters.
/// A line's continuations keep its indent, so a report's nesting stays readable.
pub fn wrap(text: &str, width: usize) -> String {
    let width = width.max(10);
    let mut out = String::new();
    for (index, line) in text.split('\n').enumerate() {
        if index > 0 {
            out.push('\n');
        }
        let body = line.trim_start_matches(' ');
        let indent = &line[..line.len() - body.len()];
        // An indent that leaves no room for words is not kept.
        let indent = if indent.len() * 2 <= width {
            indent
        } else {
            ""
        };
        let mut used = line.len() - body.len();
        out.push_str(&line[..used]);
        let new_row = |out: &mut String, used: &mut usize| {
            out.push('\n');
            out.push_str(indent);
            *used = indent.len();
        };
        for (number, word) in body.split(' ').enumerate() {
            let needed = columns(word);
            if number > 0 {
                if used > indent.len() && used + 1 + needed > width {
                    new_row(&mut out, &mut used);
                } else {
                    out.push(' ');
                    used += 1;
                }
            }
            let mut escape = Escape::None;
            for ch in word.chars() {
                let room = char_columns(ch, &mut escape);
                if used + room > width && used > indent.len() {
                    new_row(&mut out, &mut used);
                }
                out.push(ch);
                used += room;
            }
        }
    }
    out
}

/// The columns `text` takes on screen.
pub fn columns(text: &str) -> usize {
    let mut escape = Escape::None;
    text.chars().map(|ch| char_columns(ch, &mut escape)).sum()
}

/// Where [`char_columns`] is in an escape sequence, which takes no room on screen.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Escape {
    #[default]
    None,
    /// Just after `ESC`.
    Started,
    /// A colour code, `ESC [ ... m`: ends at a letter.
    Control,
    /// An OSC 8 link, `ESC ] ... ESC \` (or `BEL`): ends at its terminator.
    Command,
    /// The `ESC` of an OSC's terminator.
    CommandEnding,
}

/// The columns of one character; none inside a colour code or a link's address.
fn char_columns(ch: char, escape: &mut Escape) -> usize {
    *escape = match (*escape, ch) {
        (Escape::None, '\x1b') => Escape::Started,
        (Escape::None, _) => return unicode_width::UnicodeWidthChar::width(ch).unwrap_or(0),
        (Escape::Started, ']') => Escape::Command,
        (Escape::Started, _) | (Escape::Control, _) if ch.is_ascii_alphabetic() => Escape::None,
        (Escape::Started | Escape::Control, _) => Escape::Control,
        (Escape::Command, '\x07') | (Escape::CommandEnding, '\\') => Escape::None,
        (Escape::Command | Escape::CommandEnding, '\x1b') => Escape::CommandEnding,
        (Escape::Command | Escape::CommandEnding, _) => Escape::Command,
    };
    0
}

#[cfg(test)]
mod tests {
    #[test]
    fn progress_line_counts() {
        let line = super::progress_line(1, 3, crate::util::i18n::Lang::En);
        assert!(line.contains("1/3") && line.contains("33%"), "{line}");
        assert!(
            line.contains(&format!("[{}{}]", "#".repeat(10), "-".repeat(20))),
            "{line}"
        );
    }

    #[test]
    fn file_urls_escape_what_would_break_them() {
        let path = std::path::Path::new("/home/a b/#1/课.c");
        assert_eq!(super::url_path(path), "/home/a%20b/%231/%E8%AF%BE.c");
    }

    #[test]
    fn wrap_breaks_at_spaces_within_the_width_on_screen() {
        let wrap = |text: &str, width| super::wrap(text, width);
        assert_eq!(
            wrap("check_dir answers one small question", 20),
            "check_dir answers\none small question"
        );
        // Colour codes take no room.
        let red = "\x1b[31mHint\x1b[0m one two three";
        assert_eq!(wrap(red, 13), "\x1b[31mHint\x1b[0m one two\nthree");
        // A Chinese character takes two columns, and a sentence breaks between them.
        assert_eq!(wrap("把问题拆开：检查", 10), "把问题拆开\n：检查");
        // Lines already short stay as they are, blank lines included.
        assert_eq!(wrap("a\n\nb", 20), "a\n\nb");
        // Continuations keep the line's indent.
        assert_eq!(
            wrap("    hint: one two three four", 16),
            "    hint: one\n    two three\n    four"
        );
        assert_eq!(wrap("  abcdefghijklmnop", 10), "  abcdefgh\n  ijklmnop");
        // A link's address takes no room: only its text does.
        let link = "see \x1b]8;;file:///a/very/long/path/to/x.c\x1b\\x.c\x1b]8;;\x1b\\ now";
        assert_eq!(super::columns(link), "see x.c now".len());
        assert_eq!(wrap(link, 12), link);
    }
}
