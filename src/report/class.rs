//! What a class's gradebook says, as a teacher asks it: every case of the course (the
//! columns of the heat map), each student's verdict on each, how the scores spread, and
//! which cases the most students fail and how. Figures only; `html` and `svg` draw them.
//!
//! Only what counts for a grade is counted: the exercises of practice chapters (which do
//! not count) are set apart, in no column, total, histogram or tally.

use std::collections::BTreeMap;

use crate::grade::document::{CaseReport, ExerciseReport, Results};
use crate::store::gradebook::Gradebook;
use crate::verdict::{Status, Verdict};

/// One case of the course, as the gradebook names it.
pub struct Column<'a> {
    pub exercise: &'a str,
    pub case: &'a str,
    pub hidden: bool,
    /// None for a hidden case (a gradebook clings wrote holds none; the page shows none
    /// whatever the gradebook holds).
    pub description: Option<&'a str>,
}

/// What a student got on a case: its verdict, or why it has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cell {
    /// The case's verdict; `CompileError` when the exercise did not compile.
    Verdict(Verdict),
    /// The exercise's file was not handed in.
    Missing,
    /// The student's results do not have this case (gradebooks merged from gradings
    /// with different hidden cases).
    Absent,
}

impl Cell {
    /// A failure of the program on the case itself: not a pass, and not a case the
    /// program never ran (it did not compile, was missing, or had shown that it loops).
    pub fn failed_when_run(self) -> bool {
        match self {
            Cell::Verdict(verdict) => !matches!(
                verdict,
                Verdict::Passed | Verdict::NotRun | Verdict::CompileError
            ),
            Cell::Missing | Cell::Absent => false,
        }
    }

    /// The program ran the case, and passed or failed it.
    pub fn ran(self) -> bool {
        self == Cell::Verdict(Verdict::Passed) || self.failed_when_run()
    }
}

pub struct Student<'a> {
    pub name: &'a str,
    pub results: &'a Results,
    /// One per column.
    pub cells: Vec<Cell>,
}

/// How one case went for the whole class.
pub struct CaseTally<'a> {
    pub column: usize,
    /// Students whose program ran the case and failed it.
    pub failed: usize,
    /// Students whose program ran the case (not missing, compiling, not stopped before it).
    pub ran: usize,
    /// Students per cell, the passes included.
    pub mix: BTreeMap<Cell, usize>,
    /// The hints the failing students were shown, the most shown first.
    pub hints: Vec<(&'a str, usize)>,
}

/// Scores out of `max`, one per student: a histogram's data.
pub struct Scores<'a> {
    pub name: &'a str,
    pub title: &'a str,
    pub max: u32,
    pub points: Vec<u32>,
}

/// A histogram's bar: the students who scored from `low` to `high` points.
#[derive(Debug, PartialEq, Eq)]
pub struct Bin {
    pub low: u32,
    pub high: u32,
    pub students: usize,
}

pub struct Class<'a> {
    /// The cases of the exercises that count.
    pub columns: Vec<Column<'a>>,
    /// Students with results, by name as people sort names (case aside).
    pub students: Vec<Student<'a>>,
    /// Students the grader failed on or refused, with why, in the same order.
    pub errors: Vec<(&'a str, String)>,
    /// The exercises of practice chapters, which count for nothing, in the course's order.
    pub practice: Vec<&'a str>,
}

/// Why a student needs help first, the most urgent first.
#[derive(Clone, Copy)]
pub enum Trouble<'a> {
    /// No file of an exercise that counts handed in but its skeleton, unchanged. (A
    /// student who handed in files of their own and scored 0 has begun: they are below the
    /// threshold, with their first failure.)
    NotStarted,
    /// This exercise's file was not handed in.
    Missing(&'a ExerciseReport),
    /// This exercise does not compile.
    DoesNotCompile(&'a ExerciseReport),
    /// Fewer points than the threshold: this exercise, and its first case failed, come first.
    Below(Option<(&'a ExerciseReport, &'a CaseReport)>),
}

/// A student to help, by their index among the students, and why.
pub struct Help<'a> {
    pub student: usize,
    pub trouble: Trouble<'a>,
}

/// Names as people sort them: `alice`, `Émile`, `O'Brien`, whatever the case and the
/// accents (`Eve` before `Ève`, then `Ewan`: an accent decides only between names
/// that are otherwise the same).
fn by_name(a: &str, b: &str) -> std::cmp::Ordering {
    folded(a)
        .cmp(&folded(b))
        .then_with(|| a.to_lowercase().cmp(&b.to_lowercase()))
        .then_with(|| a.cmp(b))
}

/// `name` in lower case, with the accents of Latin letters taken off (`Élodie` is
/// `elodie`), so that it sorts where people look for it. Letters of other scripts stay as
/// they are, and sort after the Latin ones, as by code point.
fn folded(name: &str) -> String {
    // U+00C0 to U+017F, each with the letter it is sorted as; `·` for what is no letter.
    const LATIN_1: &str = "aaaaaa·ceeeeiiii·nooooo·ouuuuy··aaaaaa·ceeeeiiii·nooooo·ouuuuy·y";
    const EXTENDED_A: &str = "aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiii··jjkk·llllllllllnnnnnnn··oooooo··rrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzs";
    let mut key = String::with_capacity(name.len());
    for c in name.chars().flat_map(char::to_lowercase) {
        let code = c as u32;
        let base = match code {
            // Combining accents (a name typed decomposed, `E` then U+0301) add nothing.
            0x300..=0x36F => continue,
            0xC0..=0xFF => LATIN_1.chars().nth((code - 0xC0) as usize),
            0x100..=0x17F => EXTENDED_A.chars().nth((code - 0x100) as usize),
            _ => None,
        };
        match (c, base) {
            ('æ', _) => key.push_str("ae"),
            ('œ', _) => key.push_str("oe"),
            ('ß', _) => key.push_str("ss"),
            ('þ', _) => key.push_str("th"),
            (_, Some(base)) if base != '·' => key.push(base),
            _ => key.push(c),
        }
    }
    key
}

impl<'a> Class<'a> {
    pub fn of(book: &'a Gradebook) -> Class<'a> {
        let mut graded: Vec<(&str, &Results)> = book
            .students
            .iter()
            .filter_map(|student| Some((student.name.as_str(), student.results.as_ref()?)))
            .collect();
        graded.sort_by(|a, b| by_name(a.0, b.0));
        let mut errors: Vec<(&str, String)> = book
            .students
            .iter()
            .filter(|student| student.results.is_none())
            .map(|student| {
                let why = match &student.refused {
                    Some(why) => format!("refused: {why}"),
                    None => student.error.as_deref().unwrap_or("no results").to_string(),
                };
                (student.name.as_str(), why)
            })
            .collect();
        errors.sort_by(|a, b| by_name(a.0, b.0));
        // An exercise counts as the first student who has it says (every student's results
        // come from one course).
        let practice: Vec<&str> = book
            .exercises
            .iter()
            .filter(|exercise| {
                graded.iter().find_map(|(_, results)| {
                    find(results, exercise).map(|report| !results.counts(report))
                }) == Some(true)
            })
            .map(String::as_str)
            .collect();
        // Every case of every exercise, in the course's order, in the order the first
        // student that has it lists it.
        let mut columns: Vec<Column> = Vec::new();
        for exercise in book
            .exercises
            .iter()
            .filter(|e| !practice.contains(&e.as_str()))
        {
            let start = columns.len();
            for (_, results) in &graded {
                let Some(report) = find(results, exercise) else {
                    continue;
                };
                for case in &report.cases {
                    if !columns[start..].iter().any(|known| known.case == case.name) {
                        columns.push(Column {
                            exercise,
                            case: &case.name,
                            hidden: case.hidden,
                            description: case.description.as_deref().filter(|_| !case.hidden),
                        });
                    }
                }
            }
        }
        let students = graded
            .into_iter()
            .map(|(name, results)| Student {
                name,
                results,
                cells: columns.iter().map(|column| cell(results, column)).collect(),
            })
            .collect();
        Class {
            columns,
            students,
            errors,
            practice,
        }
    }

    /// The students to help first, with what to look at first: those with no point,
    /// missing a file that counts, whose file does not compile, or below `percent` of the
    /// total; the most urgent first (then by name).
    pub fn needing_help(&self, percent: u32) -> Vec<Help<'a>> {
        let mut help: Vec<Help> = self
            .students
            .iter()
            .enumerate()
            .filter_map(|(index, student)| {
                let results = student.results;
                let counted: Vec<&ExerciseReport> = results
                    .exercises
                    .iter()
                    .filter(|e| !self.practice.contains(&e.name.as_str()))
                    .collect();
                let with = |status: Status| {
                    counted
                        .iter()
                        .find(|e| e.status == status.as_str())
                        .copied()
                };
                let handed_in =
                    |e: &&ExerciseReport| e.status != Status::Missing.as_str() && !e.unchanged;
                let trouble = if !counted.is_empty() && !counted.iter().any(handed_in) {
                    Trouble::NotStarted
                } else if let Some(missing) = with(Status::Missing) {
                    Trouble::Missing(missing)
                } else if let Some(broken) = with(Status::CompileError) {
                    Trouble::DoesNotCompile(broken)
                } else if results.points * 100 < results.max_points * percent {
                    Trouble::Below(with(Status::Failed).and_then(|exercise| {
                        let first = exercise.cases.iter().find(|case| {
                            Verdict::from_word(&case.verdict)
                                .is_some_and(|verdict| Cell::Verdict(verdict).failed_when_run())
                        });
                        Some((exercise, first?))
                    }))
                } else {
                    return None;
                };
                Some(Help {
                    student: index,
                    trouble,
                })
            })
            .collect();
        help.sort_by_key(|help| (rank(&help.trouble), help.student));
        help
    }

    /// How many cases some student's program ran.
    pub fn cases_run(&self) -> usize {
        (0..self.columns.len())
            .filter(|&column| self.students.iter().any(|s| s.cells[column].ran()))
            .count()
    }

    /// The cases that some student's program failed, the most failed first (then in the
    /// course's order).
    pub fn most_failed(&self) -> Vec<CaseTally<'a>> {
        let mut tallies: Vec<CaseTally> = (0..self.columns.len())
            .map(|column| self.tally(column))
            .filter(|tally| tally.failed > 0)
            .collect();
        tallies.sort_by_key(|tally| (std::cmp::Reverse(tally.failed), tally.column));
        tallies
    }

    fn tally(&self, column: usize) -> CaseTally<'a> {
        let mut mix = BTreeMap::new();
        let mut hints: Vec<(&str, usize)> = Vec::new();
        let (mut failed, mut ran) = (0, 0);
        let Column { exercise, case, .. } = self.columns[column];
        for student in &self.students {
            let cell = student.cells[column];
            *mix.entry(cell).or_insert(0) += 1;
            ran += usize::from(cell.ran());
            if !cell.failed_when_run() {
                continue;
            }
            failed += 1;
            let hint = find(student.results, exercise)
                .and_then(|report| report.cases.iter().find(|c| c.name == case))
                .and_then(|report| report.hint.as_deref());
            if let Some(hint) = hint {
                match hints.iter_mut().find(|(known, _)| *known == hint) {
                    Some((_, count)) => *count += 1,
                    None => hints.push((hint, 1)),
                }
            }
        }
        hints.sort_by_key(|(_, count)| std::cmp::Reverse(*count));
        CaseTally {
            column,
            failed,
            ran,
            mix,
            hints,
        }
    }

    /// The total (the chapters that count for a grade), each graded chapter's when there
    /// are several, then each exercise's that counts.
    pub fn distributions(&self) -> Vec<Scores<'a>> {
        let Some(first) = self.students.first() else {
            return Vec::new();
        };
        let mut all = vec![Scores {
            name: "",
            title: "",
            max: first.results.max_points,
            points: self.students.iter().map(|s| s.results.points).collect(),
        }];
        let chapters: Vec<_> = first.results.chapters.iter().filter(|c| c.graded).collect();
        if chapters.len() > 1 {
            for chapter in chapters {
                let points = self.students.iter().map(|student| {
                    let chapters = &student.results.chapters;
                    let mine = chapters.iter().find(|c| c.name == chapter.name);
                    mine.map_or(0, |c| c.points)
                });
                all.push(Scores {
                    name: &chapter.name,
                    title: &chapter.title,
                    max: chapter.max_points,
                    points: points.collect(),
                });
            }
        }
        for exercise in first
            .results
            .exercises
            .iter()
            .filter(|e| !self.practice.contains(&e.name.as_str()))
        {
            let points = self.students.iter().map(|student| {
                find(student.results, &exercise.name).map_or(0, |report| report.points)
            });
            all.push(Scores {
                name: &exercise.name,
                title: &exercise.title,
                max: exercise.max_points,
                points: points.collect(),
            });
        }
        all
    }
}

impl Scores<'_> {
    /// One bar per score up to 10 points; beyond, a bar per tenth of the points and one
    /// for full marks, the bar a teacher looks for first.
    pub fn bins(&self) -> Vec<Bin> {
        let max = self.max;
        let ranges: Vec<(u32, u32)> = match max {
            0..=10 => (0..=max).map(|score| (score, score)).collect(),
            _ => (0..10)
                .map(|tenth| (tenth * max).div_ceil(10)..((tenth + 1) * max).div_ceil(10))
                .filter(|range| !range.is_empty())
                .map(|range| (range.start, range.end - 1))
                .chain([(max, max)])
                .collect(),
        };
        ranges
            .into_iter()
            .map(|(low, high)| Bin {
                low,
                high,
                students: self
                    .points
                    .iter()
                    .filter(|&&points| (low..=high).contains(&points))
                    .count(),
            })
            .collect()
    }
}

/// How urgent a trouble is: not started, then missing, not compiling, below.
fn rank(trouble: &Trouble) -> u8 {
    match trouble {
        Trouble::NotStarted => 0,
        Trouble::Missing(_) => 1,
        Trouble::DoesNotCompile(_) => 2,
        Trouble::Below(_) => 3,
    }
}

fn find<'r>(results: &'r Results, exercise: &str) -> Option<&'r ExerciseReport> {
    results.exercises.iter().find(|e| e.name == exercise)
}

fn cell(results: &Results, column: &Column) -> Cell {
    let Some(report) = find(results, column.exercise) else {
        return Cell::Absent;
    };
    if report.status == Status::Missing.as_str() {
        return Cell::Missing;
    }
    if report.status == Status::CompileError.as_str() {
        return Cell::Verdict(Verdict::CompileError);
    }
    report
        .cases
        .iter()
        .find(|case| case.name == column.case)
        .and_then(|case| Verdict::from_word(&case.verdict))
        .map_or(Cell::Absent, Cell::Verdict)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scores(max: u32, points: &[u32]) -> Scores<'static> {
        Scores {
            name: "x",
            title: "x",
            max,
            points: points.to_vec(),
        }
    }

    #[test]
    fn names_sort_with_case_and_accents_folded() {
        let mut names = vec![
            "Zoë",
            "zoe",
            "O'Brien",
            "Ewan",
            "Ève",
            "Eve",
            "E\u{301}mile",
            "Łukasz",
            "alice",
            "Øyvind",
            "张伟",
        ];
        names.sort_by(|a, b| by_name(a, b));
        let expected = [
            "alice",
            "E\u{301}mile",
            "Eve",
            "Ève",
            "Ewan",
            "Łukasz",
            "O'Brien",
            "Øyvind",
            "zoe",
            "Zoë",
            "张伟",
        ];
        assert_eq!(names, expected);
    }

    #[test]
    fn small_exercises_get_a_bar_per_score() {
        let bins = scores(3, &[0, 3, 3, 2]).bins();
        let counts: Vec<(u32, u32, usize)> =
            bins.iter().map(|b| (b.low, b.high, b.students)).collect();
        assert_eq!(counts, [(0, 0, 1), (1, 1, 0), (2, 2, 1), (3, 3, 2)]);
    }

    #[test]
    fn large_exercises_get_tenths_and_a_bar_for_full_marks() {
        let bins = scores(44, &[0, 4, 5, 43, 44, 44]).bins();
        assert_eq!(bins.len(), 11);
        assert_eq!((bins[0].low, bins[0].high, bins[0].students), (0, 4, 2));
        assert_eq!((bins[1].low, bins[1].high), (5, 8));
        assert_eq!((bins[9].low, bins[9].high, bins[9].students), (40, 43, 1));
        assert_eq!(
            (bins[10].low, bins[10].high, bins[10].students),
            (44, 44, 2)
        );
        // Every score falls in exactly one bar.
        for points in 0..=44 {
            let holding = bins
                .iter()
                .filter(|b| (b.low..=b.high).contains(&points))
                .count();
            assert_eq!(holding, 1, "{points}");
        }
        let twelve = scores(12, &[]).bins();
        assert_eq!(twelve.first().map(|b| b.low), Some(0));
        assert_eq!(twelve.last().map(|b| (b.low, b.high)), Some((12, 12)));
    }
}
