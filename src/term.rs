//! Small pieces of terminal text shared by several commands.

use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;

use anyhow::{Context, Result, bail};

use crate::i18n::{Lang, Localized};
use crate::style;

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
pub fn wrap(text: &str, width: usize) -> String {
    let width = width.max(10);
    let mut out = String::new();
    for (index, line) in text.split('\n').enumerate() {
        if index > 0 {
            out.push('\n');
        }
        let mut used = 0;
        for (number, word) in line.split(' ').enumerate() {
            let needed = columns(word);
            if number > 0 {
                if used > 0 && used + 1 + needed > width {
                    out.push('\n');
                    used = 0;
                } else {
                    out.push(' ');
                    used += 1;
                }
            }
            let mut escape = false;
            for ch in word.chars() {
                let room = char_columns(ch, &mut escape);
                if used + room > width {
                    out.push('\n');
                    used = 0;
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
    let mut escape = false;
    text.chars().map(|ch| char_columns(ch, &mut escape)).sum()
}

/// The columns of one character; none inside a colour code (`ESC [ ... m`).
fn char_columns(ch: char, escape: &mut bool) -> usize {
    if ch == '\x1b' {
        *escape = true;
    }
    if *escape {
        if ch.is_ascii_alphabetic() {
            *escape = false;
        }
        return 0;
    }
    unicode_width::UnicodeWidthChar::width(ch).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    #[test]
    fn progress_line_counts() {
        let line = super::progress_line(1, 3, crate::i18n::Lang::En);
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
    }
}
