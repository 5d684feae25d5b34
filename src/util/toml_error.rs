//! Where a mistake in a course's TOML file is. The parser says where it gave up, and for
//! an array, an inline table or a string left open that is further on: at the next key,
//! the next table, or hundreds of lines later where a quote happens to close a string. So
//! an error inside something opened on an earlier line is placed where that opened, and
//! the parser's own report follows.

use std::path::Path;

/// `err`, from parsing `text` (the file `path`, a `what` such as "course file"), as
/// `path:LINE: invalid what`, at the line of the mistake, then the parser's report.
pub fn describe(path: &Path, text: &str, what: &str, err: &toml::de::Error) -> String {
    let Some(at) = err.span().map(|span| span.start.min(text.len())) else {
        return format!("{}: invalid {what}\n{err}", path.display());
    };
    let (line, left_open) = match left_open(text, at) {
        Some((kind, opened)) => (
            line_of(text, opened),
            format!(
                ": {kind} that starts here, at column {}, is not closed (the parser read on \
                 to line {})",
                column_of(text, opened),
                line_of(text, at)
            ),
        ),
        None => (line_of(text, at), String::new()),
    };
    format!(
        "{}:{line}: invalid {what}{left_open}\n{err}",
        path.display()
    )
}

/// The line (from 1) of byte `offset` of `text`.
pub fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// The column (from 1, in characters) of byte `offset` of `text`.
fn column_of(text: &str, offset: usize) -> usize {
    let start = text[..offset].rfind('\n').map_or(0, |newline| newline + 1);
    text[start..offset].chars().count() + 1
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opened {
    Array,
    InlineTable,
    String,
}

impl std::fmt::Display for Opened {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Opened::Array => "the array",
            Opened::InlineTable => "the inline table",
            Opened::String => "the string",
        })
    }
}

/// What was left open on an earlier line when the parser gave up at byte `at`, and where it
/// opened: a string still open there (or whose line ended before its closing quote), or an
/// array or inline table still open at a line that begins a key or a table, or at the end
/// of the file (a `]` or `}` missing, rather than, say, a comma between two elements).
fn left_open(text: &str, at: usize) -> Option<(Opened, usize)> {
    let (kind, opened) = innermost_open(text, at)?;
    if line_of(text, opened) == line_of(text, at) {
        return None;
    }
    if text[at..].trim().is_empty() {
        return Some((kind, opened));
    }
    let line_start = text[..at].rfind('\n').map_or(0, |newline| newline + 1);
    let line = text[line_start..]
        .lines()
        .next()
        .unwrap_or_default()
        .trim_start();
    let begins_key = line.split_once('=').is_some_and(|(key, _)| {
        let key = key.trim();
        !key.is_empty()
            && key
                .chars()
                .all(|c| c.is_alphanumeric() || "_-.\"' ".contains(c))
    });
    (kind == Opened::String || line.starts_with('[') || begins_key).then_some((kind, opened))
}

/// The innermost array, inline table or string open at byte `at` of `text`, and where it
/// opened: a reading of TOML just deep enough to match quotes and brackets (comments,
/// table headers, escapes and the four kinds of strings).
fn innermost_open(text: &str, at: usize) -> Option<(Opened, usize)> {
    let bytes = &text.as_bytes()[..at];
    let mut open: Vec<(Opened, usize)> = Vec::new();
    let mut line_start = true;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                line_start = true;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            quote @ (b'"' | b'\'') => {
                let delimiter: &[u8] = match (quote, bytes[i..].starts_with(&[quote; 3])) {
                    (b'"', true) => b"\"\"\"",
                    (_, true) => b"'''",
                    (b'"', false) => b"\"",
                    (_, false) => b"'",
                };
                match string_end(bytes, i, delimiter) {
                    Some(StringEnd::Closed(end)) => i = end,
                    // A one-line string whose line ended first: its quote is missing, and
                    // the parser, reading on, blames what follows.
                    Some(StringEnd::LineEnded) | None => return Some((Opened::String, i)),
                }
                line_start = false;
                continue;
            }
            // A table header, `[name]` or `[[name]]`: it ends on its line.
            b'[' if line_start && open.is_empty() => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'[' => open.push((Opened::Array, i)),
            b'{' => open.push((Opened::InlineTable, i)),
            b']' | b'}' => {
                open.pop();
            }
            _ => {}
        }
        line_start = false;
        i += 1;
    }
    open.last().copied()
}

/// How a string ends in the text read so far.
enum StringEnd {
    /// With its closing delimiter, just before this offset.
    Closed(usize),
    /// A one-line string whose line ended before its closing quote.
    LineEnded,
}

/// How the string that opens at `start` with `delimiter` ends, if it ends in `bytes`.
fn string_end(bytes: &[u8], start: usize, delimiter: &[u8]) -> Option<StringEnd> {
    let multiline = delimiter.len() == 3;
    let escapes = delimiter[0] == b'"';
    let mut i = start + delimiter.len();
    while i < bytes.len() {
        if escapes && bytes[i] == b'\\' {
            i += 2;
            continue;
        }
        if !multiline && bytes[i] == b'\n' {
            return Some(StringEnd::LineEnded);
        }
        if bytes[i..].starts_with(delimiter) {
            i += delimiter.len();
            // `""""` ends a multi-line string with a quote in it: up to two more.
            let mut extra = 0;
            while multiline && extra < 2 && bytes.get(i) == Some(&delimiter[0]) {
                i += 1;
                extra += 1;
            }
            return Some(StringEnd::Closed(i));
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line `describe` places the error of `text` at.
    fn line(text: &str) -> String {
        let err = toml::from_str::<toml::Table>(text).unwrap_err();
        let described = describe(Path::new("f.toml"), text, "file", &err);
        described.lines().next().unwrap().to_string()
    }

    const BEFORE: &str = "a = 1\nb = \"two\"\n";
    const AFTER: &str = "c = 3\n\n[t]\nd = 4\n";

    #[test]
    fn a_mistake_is_placed_on_its_own_line() {
        for (mistake, placed) in [
            // Left open: the parser gives up lines later.
            (
                "x = [1, 2\n",
                "f.toml:3: invalid file: the array that starts here, at column 5",
            ),
            ("x = { y = 1\n", "f.toml:3: invalid file: the inline table"),
            (
                "x = \"\"\"open\n",
                "f.toml:3: invalid file: the string that starts here",
            ),
            ("x = '''open\n", "f.toml:3: invalid file: the string"),
            // A one-line string whose quote is missing, in an inline table: the parser
            // blames the next line.
            (
                "x = { y = \"open }\n",
                "f.toml:3: invalid file: the string that starts here, at column 11",
            ),
            // Found where it is.
            ("x = \"open\n", "f.toml:3: invalid file"),
            ("x == 1\n", "f.toml:3: invalid file"),
            ("x = 1 2\n", "f.toml:3: invalid file"),
        ] {
            let text = format!("{BEFORE}{mistake}{AFTER}");
            let found = line(&text);
            assert!(found.starts_with(placed), "{mistake:?}: {found}");
        }
    }

    #[test]
    fn a_missing_comma_in_an_open_array_stays_where_the_parser_found_it() {
        let text = "x = [\n  1,\n  2\n  3,\n]\n";
        assert_eq!(line(text), "f.toml:4: invalid file");
        // Brackets and quotes in strings and comments are no brackets.
        let text = "x = [\n  \"[\", '{', \"\\\"[\", # [\n  2\n  3,\n]\n";
        assert_eq!(line(text), "f.toml:4: invalid file");
    }

    #[test]
    fn an_array_left_open_at_the_end_of_the_file_is_placed_where_it_opens() {
        let text = "a = 1\nx = [\n  \"one\",\n  \"two\",\n";
        let found = line(text);
        assert!(
            found.starts_with("f.toml:2: invalid file: the array that starts here"),
            "{found}"
        );
    }

    #[test]
    fn an_array_left_open_before_a_table_is_placed_where_it_opens() {
        let text = "[a]\nx = [\n  { y = \"1\" },\n  { y = \"2\" },\n\n[b]\nz = 1\n";
        let found = line(text);
        assert!(
            found.starts_with("f.toml:2: invalid file: the array"),
            "{found}"
        );
        assert!(found.contains("read on to line 7"), "{found}");
    }
}
