//! A class's grades: one `clings-results/1` document per student, written as
//! `grades.json` (everything) and `grades.csv` (one row per student), and merged from
//! shards graded on different machines.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use crate::grade::document::Results;
use crate::util::atomic;
use crate::util::csv_cell;

pub const SCHEMA: &str = "clings-gradebook/1";
pub const JSON_FILE: &str = "grades.json";
pub const CSV_FILE: &str = "grades.csv";

#[derive(Debug, Deserialize, Serialize)]
pub struct Gradebook {
    pub schema: String,
    /// The course's exercises, in order: the CSV's columns.
    pub exercises: Vec<String>,
    pub students: Vec<Student>,
}

#[derive(Debug, Deserialize, Serialize)]
pub struct Student {
    pub name: String,
    /// The grader failed on this submission (not the student's program): no results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Why this submission was not graded (its folder, or a file graded in it, is a
    /// symbolic link): no results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub results: Option<Results>,
}

impl Gradebook {
    pub fn new(exercises: Vec<String>, mut students: Vec<Student>) -> Gradebook {
        students.sort_by(|a, b| a.name.cmp(&b.name));
        Gradebook {
            schema: SCHEMA.to_string(),
            exercises,
            students,
        }
    }

    pub fn load(path: &Path) -> Result<Gradebook> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let book: Gradebook = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a clings gradebook", path.display()))?;
        if book.schema != SCHEMA {
            bail!(
                "{}: schema {:?}, expected {SCHEMA}",
                path.display(),
                book.schema
            );
        }
        Ok(book)
    }

    /// The gradebooks at `paths` as one, merged as [`Gradebook::merge`] does.
    pub fn load_merged(paths: &[PathBuf]) -> Result<Gradebook> {
        let books = paths
            .iter()
            .map(|path| Ok((path.display().to_string(), Gradebook::load(path)?)))
            .collect::<Result<Vec<_>>>()?;
        Gradebook::merge(books)
    }

    /// One gradebook from shards of the same course; a student graded twice is an error.
    pub fn merge(books: Vec<(String, Gradebook)>) -> Result<Gradebook> {
        let mut exercises: Option<Vec<String>> = None;
        let mut seen = BTreeSet::new();
        let mut students = Vec::new();
        for (origin, book) in books {
            match &exercises {
                Some(known) if *known != book.exercises => {
                    bail!(
                        "{origin} grades exercises {:?}, the others {known:?}",
                        book.exercises
                    )
                }
                Some(_) => {}
                None => exercises = Some(book.exercises.clone()),
            }
            for student in book.students {
                if !seen.insert(student.name.clone()) {
                    bail!(
                        "student {:?} appears in more than one shard ({origin})",
                        student.name
                    );
                }
                students.push(student);
            }
        }
        let exercises = exercises.context("nothing to merge: give at least one grades.json")?;
        Ok(Gradebook::new(exercises, students))
    }

    /// `student, <points per exercise>, <points per chapter>, total, max, summary`: one row
    /// per student. Chapters have columns when the exercises span more than one; the total
    /// is that of the chapters that count for a grade.
    pub fn csv(&self) -> String {
        // Every student was graded on the same exercises, so in the same chapters.
        let chapters: Vec<String> = self
            .students
            .iter()
            .filter_map(|student| student.results.as_ref())
            .map(|results| results.chapters.iter().map(|c| c.name.clone()).collect())
            .next()
            .filter(|chapters: &Vec<String>| chapters.len() > 1)
            .unwrap_or_default();
        let mut header = vec![csv_cell::text("student")];
        header.extend(self.exercises.iter().map(|name| csv_cell::text(name)));
        header.extend(
            chapters
                .iter()
                .map(|name| csv_cell::text(&format!("chapter {name}"))),
        );
        header.extend(["total", "max", "summary"].map(csv_cell::text));
        let mut csv = csv_cell::line(&header);
        for student in &self.students {
            let mut row = vec![csv_cell::text(&student.name)];
            match &student.results {
                Some(results) => {
                    for name in &self.exercises {
                        let points = results
                            .exercises
                            .iter()
                            .find(|e| &e.name == name)
                            .map(|e| e.points);
                        row.push(points.map(|p| p.to_string()).unwrap_or_default());
                    }
                    for name in &chapters {
                        let points = results
                            .chapters
                            .iter()
                            .find(|c| &c.name == name)
                            .map(|c| c.points);
                        row.push(points.map(|p| p.to_string()).unwrap_or_default());
                    }
                    row.push(results.points.to_string());
                    row.push(results.max_points.to_string());
                    row.push(csv_cell::text(&summary(results)));
                }
                None => {
                    row.extend(self.exercises.iter().map(|_| String::new()));
                    row.extend(chapters.iter().map(|_| String::new()));
                    row.extend([String::new(), String::new()]);
                    row.push(csv_cell::text(&student.not_graded()));
                }
            }
            csv.push_str(&csv_cell::line(&row));
        }
        csv
    }

    pub fn write(&self, dir: &Path) -> Result<()> {
        let json = serde_json::to_string_pretty(self).expect("a gradebook serialises") + "\n";
        atomic::write(&dir.join(JSON_FILE), json.as_bytes())?;
        atomic::write(&dir.join(CSV_FILE), self.csv().as_bytes())
    }
}

impl Student {
    /// Why a student without results has none, on one line like every row of the CSV
    /// (an error can quote the compiler): `refused: …` or `grader error: …`.
    fn not_graded(&self) -> String {
        let (kind, why) = match (&self.refused, &self.error) {
            (Some(why), _) => ("refused", why.as_str()),
            (None, error) => ("grader error", error.as_deref().unwrap_or("no results")),
        };
        let why: Vec<&str> = why
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .collect();
        format!("{kind}: {}", why.join(" / "))
    }
}

/// `print_board passed; check_win 40/44 cases; gomoku compile_error; practice (not
/// counted): 0 of 9 passed`: the exercises that count, each, and practice in one phrase.
fn summary(results: &Results) -> String {
    let (counted, practice): (Vec<_>, Vec<_>) =
        results.exercises.iter().partition(|e| results.counts(e));
    let mut parts: Vec<String> = counted
        .iter()
        .map(|exercise| {
            let passed = exercise
                .cases
                .iter()
                .filter(|case| case.verdict == "passed")
                .count();
            match exercise.status.as_str() {
                "failed" => format!("{} {passed}/{} cases", exercise.name, exercise.cases.len()),
                status => format!("{} {status}", exercise.name),
            }
        })
        .collect();
    if !practice.is_empty() {
        let passed = practice.iter().filter(|e| e.status == "passed").count();
        parts.push(format!(
            "practice (not counted): {passed} of {} passed",
            practice.len()
        ));
    }
    parts.join("; ")
}
