//! What an exercise reads on stdin, as its course describes it in `info.toml`, and the
//! check of a case's input against it (`dev check`, `dev new-case`). The formats are
//! generic shapes that take the course's own parameters (a grid's size and cells, how many
//! numbers a line holds), so a new course describes its input without a change here:
//!
//! ```toml
//! input = { kind = "grid", rows = 15, columns = 15, cells = "BW.", name = "board" }
//! input = { kind = "integers", per_line = 2, name = "move `row col`" }
//! ```

use serde::Deserialize;

use crate::util::i18n::count;

#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum InputFormat {
    /// The program reads nothing: a case has no `.in` file.
    #[default]
    None,
    /// Any text.
    Text,
    /// `rows` lines of `columns` characters, each one of `cells`.
    Grid {
        rows: usize,
        columns: usize,
        cells: String,
        /// What the course calls one, for the messages ("a board has 15 lines").
        #[serde(default)]
        name: Option<String>,
    },
    /// Lines of `per_line` integers each; blank lines are allowed.
    Integers {
        per_line: usize,
        /// What the course calls a line ("a move `row col`").
        #[serde(default)]
        name: Option<String>,
    },
}

impl InputFormat {
    /// Whether the program reads stdin, so that each case needs an `.in` file.
    pub fn reads_input(&self) -> bool {
        *self != InputFormat::None
    }

    /// Whether `text` has this shape; the error says what is wrong, and where.
    pub fn check(&self, text: &str) -> Result<(), String> {
        match self {
            InputFormat::None | InputFormat::Text => Ok(()),
            InputFormat::Grid {
                rows,
                columns,
                cells,
                name,
            } => {
                let lines: Vec<&str> = text.lines().collect();
                if lines.len() != *rows {
                    return Err(format!(
                        "a {} has {}, this one {}",
                        name.as_deref().unwrap_or("grid"),
                        count(*rows, "line", "lines"),
                        lines.len()
                    ));
                }
                for (number, line) in lines.iter().enumerate() {
                    if line.chars().count() != *columns
                        || !line.chars().all(|cell| cells.contains(cell))
                    {
                        return Err(format!(
                            "line {}: {line:?} is not {} of {}",
                            number + 1,
                            count(*columns, "character", "characters"),
                            cell_list(cells)
                        ));
                    }
                }
                Ok(())
            }
            InputFormat::Integers { per_line, name } => {
                for (number, line) in text
                    .lines()
                    .enumerate()
                    .filter(|(_, line)| !line.trim().is_empty())
                {
                    let words: Vec<&str> = line.split_whitespace().collect();
                    if words.len() != *per_line
                        || words.iter().any(|word| word.parse::<i64>().is_err())
                    {
                        let integers = count(*per_line, "integer", "integers");
                        let what = match name {
                            Some(name) => format!("a {name} ({integers})"),
                            None => integers,
                        };
                        return Err(format!("line {}: {line:?} is not {what}", number + 1));
                    }
                }
                Ok(())
            }
        }
    }
}

/// `B, W and .`: the cells a grid may hold, as a sentence.
fn cell_list(cells: &str) -> String {
    let cells: Vec<String> = cells.chars().map(String::from).collect();
    match cells.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => cells.concat(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> InputFormat {
        InputFormat::Grid {
            rows: 15,
            columns: 15,
            cells: "BW.".into(),
            name: Some("board".into()),
        }
    }

    #[test]
    fn a_grid_has_its_rows_of_its_cells() {
        let row = ".".repeat(15);
        let grid = format!("{}\n", vec![row.as_str(); 15].join("\n"));
        assert_eq!(board().check(&grid), Ok(()));
        let short = vec![row.as_str(); 14].join("\n");
        assert_eq!(
            board().check(&short),
            Err("a board has 15 lines, this one 14".into())
        );
        let bad = grid.replacen('.', "X", 1);
        assert_eq!(
            board().check(&bad),
            Err(format!(
                "line 1: \"X{}\" is not 15 characters of B, W and .",
                ".".repeat(14)
            ))
        );
        let narrow = grid.replacen("..", ".", 1);
        assert!(board().check(&narrow).unwrap_err().starts_with("line 1:"));
    }

    #[test]
    fn integers_come_so_many_to_a_line_blank_lines_aside() {
        let numbers = InputFormat::Integers {
            per_line: 2,
            name: None,
        };
        assert_eq!(numbers.check("7 7\n-1 3\n\n15 0\n"), Ok(()));
        assert_eq!(
            numbers.check("7 7\n7\n"),
            Err("line 2: \"7\" is not 2 integers".into())
        );
        let moves = InputFormat::Integers {
            per_line: 2,
            name: Some("move `row col`".into()),
        };
        assert_eq!(
            moves.check("7\n"),
            Err("line 1: \"7\" is not a move `row col` (2 integers)".into())
        );
        let grid = InputFormat::Grid {
            rows: 2,
            columns: 2,
            cells: "ab".into(),
            name: None,
        };
        assert_eq!(
            grid.check("ab\n"),
            Err("a grid has 2 lines, this one 1".into())
        );
        assert!(moves.check("a b\n").is_err());
        assert!(moves.check("1 2 3\n").is_err());
    }

    #[test]
    fn the_course_names_its_format_in_info_toml() {
        #[derive(Deserialize)]
        struct Exercise {
            #[serde(default)]
            input: InputFormat,
        }
        let read = |text: &str| toml::from_str::<Exercise>(text).map(|e| e.input);
        assert_eq!(read("").unwrap(), InputFormat::None);
        assert_eq!(
            read("input = { kind = \"grid\", rows = 15, columns = 15, cells = \"BW.\", name = \"board\" }")
                .unwrap(),
            board()
        );
        assert_eq!(
            read("input = { kind = \"integers\", per_line = 2 }").unwrap(),
            InputFormat::Integers {
                per_line: 2,
                name: None
            }
        );
        assert_eq!(
            read("input = { kind = \"text\" }").unwrap(),
            InputFormat::Text
        );
        let unknown = read("input = { kind = \"board\" }")
            .unwrap_err()
            .to_string();
        assert!(
            unknown.contains("board") && unknown.contains("grid"),
            "{unknown}"
        );
        let missing = read("input = { kind = \"grid\", rows = 3 }")
            .unwrap_err()
            .to_string();
        assert!(missing.contains("columns"), "{missing}");
    }
}
