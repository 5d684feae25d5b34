//! The cells of the CSV files clings writes (`grades.csv`, `standings.csv`). Their text
//! comes from students' folder names, and a spreadsheet runs a cell that starts like a
//! formula (`=HYPERLINK(...)`, `+1-1+cmd|' -c calc'!A0`): such a cell is written as text,
//! the way OWASP's "CSV Injection" page recommends.

/// What a cell starts with when a spreadsheet takes it for a formula.
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// `text` as a CSV cell that a spreadsheet reads as the text itself: one that would start a
/// formula gets a `'` in front and is quoted; one that holds a comma, a quote or a line
/// break is quoted too (quotes doubled). A number clings computed (points, wins) is a cell
/// as it is, and stays a number.
pub fn text(text: &str) -> String {
    let formula = text.starts_with(FORMULA_STARTS);
    let cell = match formula {
        true => format!("'{text}"),
        false => text.to_string(),
    };
    match formula || cell.contains([',', '"', '\n', '\r']) {
        true => format!("\"{}\"", cell.replace('"', "\"\"")),
        false => cell,
    }
}

/// One line of a CSV file: `cells`, each a [`text`] or a number.
pub fn line(cells: &[String]) -> String {
    cells.join(",") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cells as a CSV reader reads them back.
    fn read(line: &str) -> Vec<String> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(line.as_bytes());
        let record = reader.records().next().unwrap().unwrap();
        record.iter().map(String::from).collect()
    }

    #[test]
    fn a_cell_that_would_start_a_formula_reads_back_as_text() {
        let formulas = [
            "=2+3",
            "+1-1+cmd|' -c calc'!A0",
            "-2+3",
            "@SUM(A1)",
            "\t=1+1",
            "\r=1+1",
            "=HYPERLINK(\"http://x\",\"y\")",
        ];
        let cells: Vec<String> = formulas.iter().map(|name| text(name)).collect();
        assert_eq!(cells[0], "\"'=2+3\"");
        assert_eq!(cells[6], "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
        let read = read(&line(&cells));
        for (name, cell) in formulas.iter().zip(&read) {
            assert_eq!(*cell, format!("'{name}"));
        }
    }

    #[test]
    fn other_text_is_as_it_was_quoted_only_where_csv_needs_it() {
        assert_eq!(text("alice"), "alice");
        assert_eq!(
            text("sum passed; hello missing"),
            "sum passed; hello missing"
        );
        assert_eq!(text("\"=1+1\""), "\"\"\"=1+1\"\"\"");
        assert_eq!(text("a,b"), "\"a,b\"");
        assert_eq!(
            read(&line(&[text("a,b"), text("x\ny"), "3".into()])),
            ["a,b", "x\ny", "3"]
        );
    }
}
