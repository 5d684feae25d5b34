//! The compiler's diagnostics as clings shows them. gcc writes them with its own colour
//! codes, but they quote the student's source, which may hold any byte (an ESC in a string
//! literal, a `#line` directive naming another file): they are untrusted text. Every
//! report starts from [`plain`]; the terminal gets clings' own colours put back on the
//! severity words, and GitHub's annotations read [`parse`]d lines.

use colored::Colorize;

use crate::util::style;

/// The diagnostics without any escape sequence, other control characters made visible.
pub fn plain(diagnostics: &str) -> String {
    style::visible(&style::strip_ansi(diagnostics)).into_owned()
}

/// The diagnostics for the terminal: [`plain`], with `error:`, `warning:` and `note:`
/// coloured as gcc colours them when colour is on.
pub fn for_terminal(diagnostics: &str) -> String {
    let plain = plain(diagnostics);
    if !style::enabled() {
        return plain;
    }
    plain
        .split_inclusive('\n')
        .map(|line| match parse(line) {
            Some(found) => {
                let (location, rest) = line.split_at(found.location.len());
                let (separator, rest) = rest.split_at(2);
                let (word, rest) = rest.split_at(found.word.len());
                let word = match found.level {
                    Level::Error => word.red().bold(),
                    Level::Warning => word.magenta().bold(),
                    Level::Note => word.cyan().bold(),
                };
                format!("{}{separator}{word}{rest}", location.bold())
            }
            None => line.to_string(),
        })
        .collect()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Error,
    Warning,
    Note,
}

/// One line of the form `location: level: message`, as gcc (and cc1, collect2, ld
/// through gcc) writes them.
#[derive(Debug)]
pub struct Line<'a> {
    /// `file:line:col`, `file:line`, or a program's name (`collect2`).
    pub location: &'a str,
    pub level: Level,
    /// The severity as written, with its colon: `fatal error:`.
    word: &'a str,
    pub message: &'a str,
}

/// The line's location, severity and message; `None` for the lines in between (source
/// quotes, carets, "In function" and "included from" lines).
pub fn parse(line: &str) -> Option<Line<'_>> {
    // gcc indents the source lines it quotes: the student's text, whatever it says.
    if line.starts_with(char::is_whitespace) {
        return None;
    }
    const WORDS: [(&str, Level); 4] = [
        ("fatal error:", Level::Error),
        ("error:", Level::Error),
        ("warning:", Level::Warning),
        ("note:", Level::Note),
    ];
    line.match_indices(": ").find_map(|(at, _)| {
        let rest = &line[at + 2..];
        WORDS.iter().find_map(|(word, level)| {
            rest.strip_prefix(word).map(|message| Line {
                location: &line[..at],
                level: *level,
                word,
                message: message.trim(),
            })
        })
    })
}

impl Line<'_> {
    /// The file, line and column of a `file:line:col` or `file:line` location.
    pub fn position(&self) -> Option<(&str, u32, Option<u32>)> {
        let mut parts = self.location.rsplitn(3, ':');
        let last = parts.next()?.parse().ok()?;
        let before = parts.next()?;
        match (before.parse::<u32>(), parts.next()) {
            (Ok(line), Some(file)) => Some((file, line, Some(last))),
            _ => Some((self.location.rsplit_once(':')?.0, last, None)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GCC: &str = "\x1b[01m\x1b[Kx.c:7:27:\x1b[m\x1b[K \x1b[01;31m\x1b[Kerror: \x1b[m\x1b[Kexpected ';'\n\
        x.c: In function 'main':\n\
        x.c:3:9: warning: unused variable 'a'\n\
        collect2: error: ld returned 1 exit status\n";

    #[test]
    fn lines_are_found_with_their_location_and_level() {
        let plain = plain(GCC);
        let found: Vec<Line> = plain.lines().filter_map(parse).collect();
        assert_eq!(found.len(), 3);
        assert_eq!(found[0].location, "x.c:7:27");
        assert_eq!(found[0].level, Level::Error);
        assert_eq!(found[0].message, "expected ';'");
        assert_eq!(found[0].position(), Some(("x.c", 7, Some(27))));
        assert_eq!(found[1].level, Level::Warning);
        assert_eq!(found[2].location, "collect2");
        assert_eq!(found[2].position(), None);
        let fatal = parse("x.c:1:10: fatal error: y.h: No such file").unwrap();
        assert_eq!(
            (fatal.level, fatal.message),
            (Level::Error, "y.h: No such file")
        );
        assert_eq!(
            parse("x.c:4: note: here").unwrap().position(),
            Some(("x.c", 4, None))
        );
        assert!(parse("    4 |   puts(\"x.c:1:1: error: forged\");").is_none());
    }

    #[test]
    fn a_quoted_escape_is_shown_never_sent() {
        // gcc quotes the source line; an ESC in it is the student's, not a colour.
        let text = "x.c:2:5: error: bad\n    2 | \"\x1b]52;c;aGk=\x07\x01\" x\n";
        let plain = plain(text);
        assert!(
            !plain.contains('\x1b') && !plain.contains('\x07'),
            "{plain}"
        );
        assert!(plain.contains("\\x01"), "{plain}");
    }
}
