//! The class report a teacher looks at: one self-contained HTML page drawn from a
//! gradebook alone (no network, no file beside it: it opens from a USB stick and prints).
//! It shows who needs help first, how the scores spread, a students x cases heat map,
//! the cases the most students fail with their hints and how they fail, who fails how, and
//! each student's failures: of the exercises that count, practice folded away. Hidden cases show their name, verdict and hint, as in every report; the
//! gradebook holds nothing more of them.
//!
//! This module works out what the page shows; its template, `assets/class.html`, lays
//! it out, and escapes every text it places (see [`crate::report::markup`]): messages
//! and diffs quote the students' programs. Its style and script are `assets/class.css`
//! and `assets/class.js`, built into the page.

use std::fmt::Write;

use askama::Template;

use crate::grade::document::ExerciseReport;
use crate::report::class::{Cell, Class, Help, Student, Trouble};
use crate::report::svg::{self, Bar, Histogram, Segment, StackedBar};
use crate::store::gradebook::Gradebook;
use crate::util::i18n::{Lang, count};
use crate::verdict::{Status, Verdict};

/// Students named after a kind of failure before the rest are counted.
const NAMES_PER_KIND: usize = 40;

/// How a cell is drawn: a colour of the Okabe–Ito palette (told apart by colour-blind
/// readers), and a letter on it, so no one has to tell colours apart at all.
struct Look {
    /// The class of its legend key and heat map cell (a passed cell leaves it out: the
    /// most common cell is the shortest).
    class: &'static str,
    fill: &'static str,
    ink: &'static str,
    symbol: &'static str,
    en: &'static str,
    zh: &'static str,
}

/// Every cell a student can get, in the legend's order.
const CELLS: [Cell; 12] = [
    Cell::Verdict(Verdict::Passed),
    Cell::Verdict(Verdict::WrongOutput),
    Cell::Verdict(Verdict::Timeout),
    Cell::Verdict(Verdict::OutputLimit),
    Cell::Verdict(Verdict::MemoryLimit),
    Cell::Verdict(Verdict::Crashed),
    Cell::Verdict(Verdict::NonzeroExit),
    Cell::Verdict(Verdict::Sanitizer),
    Cell::Verdict(Verdict::CompileError),
    Cell::Verdict(Verdict::NotRun),
    Cell::Missing,
    Cell::Absent,
];

fn look(cell: Cell) -> Look {
    let (class, fill, ink, symbol, en, zh) = match cell {
        Cell::Verdict(Verdict::Passed) => ("p", "#009E73", "#fff", "", "passed", "通过"),
        Cell::Verdict(Verdict::WrongOutput) => {
            ("w", "#D55E00", "#000", "W", "wrong output", "输出错误")
        }
        Cell::Verdict(Verdict::Timeout) => ("t", "#56B4E9", "#000", "T", "timeout", "超时"),
        Cell::Verdict(Verdict::OutputLimit) => {
            ("o", "#0072B2", "#fff", "O", "output limit", "输出超限")
        }
        Cell::Verdict(Verdict::MemoryLimit) => {
            ("m", "#0072B2", "#fff", "M", "memory limit", "内存超限")
        }
        Cell::Verdict(Verdict::Crashed) => ("c", "#CC79A7", "#000", "C", "crashed", "崩溃"),
        Cell::Verdict(Verdict::NonzeroExit) => {
            ("n", "#F0E442", "#000", "N", "nonzero exit", "非零退出码")
        }
        Cell::Verdict(Verdict::Sanitizer) => {
            ("s", "#E69F00", "#000", "S", "sanitizer", "运行时检查报错")
        }
        Cell::Verdict(Verdict::CompileError) => {
            ("e", "#000000", "#fff", "E", "compile error", "编译错误")
        }
        Cell::Verdict(Verdict::NotRun) => ("r", "#999999", "#000", "·", "not run", "未运行"),
        Cell::Missing => ("x", "#dddddd", "#000", "–", "file missing", "文件缺失"),
        Cell::Absent => ("a", "#ffffff", "#000", "", "no result", "无结果"),
    };
    Look {
        class,
        fill,
        ink,
        symbol,
        en,
        zh,
    }
}

impl Look {
    fn label(&self, lang: Lang) -> &'static str {
        lang.pick(self.en, self.zh)
    }
}

/// The page: what its template (`assets/class.html`) shows, figured out here.
#[derive(Template)]
#[template(path = "class.html", config = "src/report/assets/askama.toml")]
struct ClassPage<'a> {
    lang: Lang,
    title: &'static str,
    style: String,
    summary: String,
    /// The practice exercises left out, said in one line, and one line for each.
    practice: Option<(String, Vec<String>)>,
    errors: &'a [(&'a str, String)],
    help_intro: String,
    help: Vec<HelpLine<'a>>,
    figures: Vec<Figure<'a>>,
    legend: Vec<Look>,
    heat: HeatMap<'a>,
    cases_intro: String,
    cases: Vec<FailedCase<'a>>,
    kinds: Vec<Kind<'a>>,
    students: Vec<Details<'a>>,
}

/// A student to help first: why, and the first thing to look at.
struct HelpLine<'a> {
    /// Their index on the page.
    index: usize,
    name: &'a str,
    points: String,
    why: String,
    first: String,
}

/// A histogram of scores, and its caption.
struct Figure<'a> {
    chart: Histogram<'a>,
    caption: String,
}

struct HeatMap<'a> {
    /// In pixels.
    width: usize,
    /// Each exercise over its cases, and its width in pixels.
    exercises: Vec<(&'a str, usize)>,
    cases: Vec<CaseHead>,
    /// Per column, the room (in pixels) after it that its exercise's name needs, 0 for none.
    pads: Vec<usize>,
    rows: &'a [Student<'a>],
}

impl HeatMap<'_> {
    /// The room after a column that its exercise's name needs, if any.
    fn pad(&self, column: &usize) -> Option<usize> {
        Some(self.pads[*column]).filter(|&pad| pad > 0)
    }
}

/// A case's column in the heat map: numbered within its exercise, named on hover.
struct CaseHead {
    title: String,
    number: usize,
    hidden: bool,
}

/// A case some students' programs failed, how, and the hints they were shown.
struct FailedCase<'a> {
    name: String,
    failed: String,
    chart: StackedBar<'a>,
    mix: String,
    description: Option<&'a str>,
    /// Each hint, and how many were shown it.
    hints: Vec<(&'a str, String)>,
}

/// A way of failing, and the students who failed a case that way.
struct Kind<'a> {
    key: Look,
    count: usize,
    /// The first students named, with their index on the page.
    named: Vec<(usize, &'a str)>,
    /// How many more there are, said.
    more: Option<String>,
}

/// A student's details: each exercise's points, and what failed.
struct Details<'a> {
    name: &'a str,
    points: u32,
    max_points: u32,
    exercises: Vec<ExerciseLine<'a>>,
}

struct ExerciseLine<'a> {
    name: &'a str,
    points: u32,
    max_points: u32,
    status: &'static str,
    /// What failed, for an exercise that ran and failed.
    failed: Option<Failures<'a>>,
}

struct Failures<'a> {
    cases: Vec<FailedLine<'a>>,
    /// The cases not run, said, when there are some.
    not_run: Option<String>,
}

struct FailedLine<'a> {
    name: &'a str,
    key: Look,
    /// None for a hidden case: its verdict only.
    shown: Option<Shown<'a>>,
}

struct Shown<'a> {
    message: &'a str,
    hint: Option<&'a str>,
    diff: Option<&'a str>,
}

/// The whole page, in `lang` (the gradebook's own texts are in the language it was
/// graded in); students below `help_below` percent of the total are among those to help
/// first.
pub fn page(book: &Gradebook, help_below: u32, lang: Lang) -> String {
    let class = Class::of(book);
    let page = ClassPage {
        lang,
        title: lang.pick("Class report", "班级报告"),
        style: format!("{BASE_STYLE}{STYLE}{}", cell_style()),
        summary: summary(&class, lang),
        practice: practice(&class, lang),
        errors: &class.errors,
        help_intro: lang.pick(
            format!(
                "The students to help first: not started, missing a file that counts, \
                 not compiling, or below {help_below}% of the total (--help-below); with the first \
                 thing to look at."
            ),
            format!(
                "最需要帮助的学生：尚未开始、缺少计分的文件、无法编译，或低于总分的 \
                 {help_below}%；以及首先要看的地方。"
            ),
        ),
        help: help(&class, help_below, lang),
        figures: figures(&class, lang),
        legend: CELLS.into_iter().map(look).collect(),
        heat: heat_map(&class, lang),
        cases_intro: cases_intro(&class, lang),
        cases: most_failed(&class, lang),
        kinds: kinds(&class, lang),
        students: class
            .students
            .iter()
            .map(|s| details(&class, s, lang))
            .collect(),
    };
    page.render()
        .expect("a page renders: its template writes to a String")
}

fn summary(class: &Class, lang: Lang) -> String {
    let graded = class.students.len();
    let mut totals: Vec<u32> = class.students.iter().map(|s| s.results.points).collect();
    totals.sort_unstable();
    let max = class.students.first().map_or(0, |s| s.results.max_points);
    let median = match graded {
        0 => 0.0,
        n if n % 2 == 1 => f64::from(totals[n / 2]),
        n => f64::from(totals[n / 2 - 1] + totals[n / 2]) / 2.0,
    };
    let mean = totals.iter().map(|&t| f64::from(t)).sum::<f64>() / graded.max(1) as f64;
    let full = totals.iter().filter(|&&t| t == max && max > 0).count();
    lang.pick(
        format!(
            "{graded} students graded on {} cases. Total out of {max}: mean {mean:.1}, \
             median {median:.1}; {full} with full marks.",
            class.columns.len()
        ),
        format!(
            "共评分 {graded} 名学生，{} 个用例。总分满分 {max}：平均 {mean:.1}，\
             中位数 {median:.1}；满分 {full} 人。",
            class.columns.len()
        ),
    )
}

/// The practice exercises, which count for nothing: one line saying they are left out,
/// and, opened on demand, how many students handed each in and passed it.
fn practice(class: &Class, lang: Lang) -> Option<(String, Vec<String>)> {
    if class.practice.is_empty() {
        return None;
    }
    let line = lang.pick(
        format!(
            "Practice, which counts for nothing, is in no total, chart or count of this page: {}.",
            count(class.practice.len(), "exercise", "exercises")
        ),
        format!(
            "{} 个练习题不计分：本页的总分、图表和统计都不包括它们。",
            class.practice.len()
        ),
    );
    let each = class.practice.iter().map(|&exercise| {
        let reports = class.students.iter().filter_map(|student| {
            student
                .results
                .exercises
                .iter()
                .find(|e| e.name == exercise)
        });
        let (mut handed_in, mut passed) = (0, 0);
        for report in reports {
            handed_in += usize::from(report.status != Status::Missing.as_str());
            passed += usize::from(report.status == Status::Passed.as_str());
        }
        let students = class.students.len();
        lang.pick(
            format!("{exercise}: handed in by {handed_in} of {students}, passed by {passed}"),
            format!("{exercise}：{students} 人中 {handed_in} 人提交，{passed} 人通过"),
        )
    });
    Some((line, each.collect()))
}

fn help<'a>(class: &Class<'a>, help_below: u32, lang: Lang) -> Vec<HelpLine<'a>> {
    let help = class.needing_help(help_below).into_iter();
    help.map(|Help { student, trouble }| {
        let results = class.students[student].results;
        let (why, first) = match trouble {
            Trouble::NotStarted => (
                lang.pick("not started", "尚未开始").to_string(),
                lang.pick(
                    "no file of their own for the exercises that count (none handed in, or \
                     the skeletons unchanged): has the student begun?",
                    "计分的练习没有一个是自己写的文件（未提交，或原样提交骨架）：这名学生开始做了吗？",
                )
                .to_string(),
            ),
            Trouble::Missing(exercise) => (
                lang.pick("file missing", "文件缺失").to_string(),
                lang.pick(
                    format!("{} was not handed in", exercise.source),
                    format!("未提交 {}", exercise.source),
                ),
            ),
            Trouble::DoesNotCompile(exercise) => (
                lang.pick("does not compile", "无法编译").to_string(),
                lang.pick(
                    format!("{} does not compile: no case of it ran", exercise.source),
                    format!("{} 无法编译：它的用例都没有运行", exercise.source),
                ),
            ),
            Trouble::Below(first) => (
                lang.pick(
                    format!("below {help_below}%"),
                    format!("低于 {help_below}%"),
                ),
                match first {
                    Some((exercise, case)) => {
                        let what = case.hint.as_deref().unwrap_or(&case.message);
                        format!("{} / {}: {what}", exercise.name, case.name)
                    }
                    None => String::new(),
                },
            ),
        };
        HelpLine {
            index: student,
            name: class.students[student].name,
            points: format!("{}/{}", results.points, results.max_points),
            why,
            first,
        }
    })
    .collect()
}

fn figures<'a>(class: &Class<'a>, lang: Lang) -> Vec<Figure<'a>> {
    let (unit, counted) = lang.pick(("points", "students"), ("分", "名学生"));
    let mut figures = Vec::new();
    for (index, scores) in class.distributions().iter().enumerate() {
        let name = match scores.name {
            "" => lang.pick("Total", "总分").to_string(),
            name if name == scores.title => name.to_string(),
            name => format!("{name} — {}", scores.title),
        };
        let title = lang.pick(
            format!("{name}: students per score, out of {}", scores.max),
            format!("{name}：各分数段人数，满分 {}", scores.max),
        );
        let bars: Vec<Bar> = scores
            .bins()
            .into_iter()
            .map(|bin| Bar {
                label: match bin.low == bin.high {
                    true => bin.low.to_string(),
                    false => format!("{}–{}", bin.low, bin.high),
                },
                tick: bin.low.to_string(),
                count: bin.students,
            })
            .collect();
        figures.push(Figure {
            chart: svg::histogram(&format!("h{index}"), &title, &bars, unit, counted),
            caption: title,
        });
    }
    figures
}

/// `check_win / 09_black_anti_diagonal (hidden)`.
fn case_name(class: &Class, column: usize, lang: Lang) -> String {
    let column = &class.columns[column];
    let hidden = match column.hidden {
        true => lang.pick(" (hidden)", "（隐藏）"),
        false => "",
    };
    format!("{} / {}{hidden}", column.exercise, column.case)
}

fn cases_intro(class: &Class, lang: Lang) -> String {
    let failed = class.most_failed().len();
    let run = class.cases_run();
    lang.pick(
        format!(
            "The cases that students' programs ran and failed, the most failed first: \
             the misconceptions of this class. {} of the {run} cases that some program ran \
             were failed by nobody.",
            run - failed,
        ),
        format!(
            "学生程序运行后未通过的用例，按失败人数从多到少：这个班最常见的误解。\
             有程序运行过的 {run} 个用例中有 {} 个无人失败。",
            run - failed
        ),
    )
}

fn most_failed<'a>(class: &Class<'a>, lang: Lang) -> Vec<FailedCase<'a>> {
    let mut cases = Vec::new();
    for tally in class.most_failed() {
        let name = case_name(class, tally.column, lang);
        let failed = lang.pick(
            format!(
                "failed by {} of the {} students whose program ran it",
                tally.failed, tally.ran
            ),
            format!(
                "运行了它的 {} 名学生中 {} 人未通过",
                tally.ran, tally.failed
            ),
        );
        let looks: Vec<(Look, usize)> = CELLS
            .iter()
            .filter_map(|cell| Some((look(*cell), *tally.mix.get(cell)?)))
            .collect();
        let segments: Vec<Segment> = looks
            .iter()
            .map(|(look, count)| Segment {
                count: *count,
                fill: look.fill,
                ink: look.ink,
                symbol: look.symbol,
                label: look.label(lang),
            })
            .collect();
        let mix: Vec<String> = looks
            .iter()
            .map(|(look, count)| format!("{} {count}", look.label(lang)))
            .collect();
        let hints = tally.hints.iter().map(|&(hint, count)| {
            let shown = lang.pick(format!("(shown to {count})"), format!("（{count} 人看到）"));
            (hint, shown)
        });
        cases.push(FailedCase {
            chart: svg::stacked_bar(&format!("{name}: {}", mix.join(", ")), &segments),
            name,
            failed,
            mix: mix.join(" · "),
            description: class.columns[tally.column].description,
            hints: hints.collect(),
        });
    }
    cases
}

/// For each way of failing, the students who failed a case that way: who crashes, who
/// loops, who does not compile.
fn kinds<'a>(class: &Class<'a>, lang: Lang) -> Vec<Kind<'a>> {
    let mut kinds = Vec::new();
    for cell in CELLS
        .iter()
        .filter(|cell| !matches!(cell, Cell::Verdict(Verdict::Passed) | Cell::Absent))
    {
        let who: Vec<(usize, &str)> = class
            .students
            .iter()
            .enumerate()
            .filter(|(_, student)| student.cells.contains(cell))
            .map(|(index, student)| (index, student.name))
            .collect();
        if who.is_empty() {
            continue;
        }
        let rest = who.len().saturating_sub(NAMES_PER_KIND);
        kinds.push(Kind {
            key: look(*cell),
            count: who.len(),
            more: (rest > 0)
                .then(|| lang.pick(format!("and {rest} more"), format!("等另外 {rest} 人"))),
            named: who.into_iter().take(NAMES_PER_KIND).collect(),
        });
    }
    kinds
}

/// The heat map's cell width, in pixels, and that of its two first columns.
const CELL_PX: usize = 11;
/// The room a character of an exercise's name takes over the heat map, in pixels: an
/// exercise of one case is as wide as its name, not `p|`.
const NAME_CHAR_PX: usize = 6;
const NAME_PX: usize = 130;
const TOTAL_PX: usize = 48;

fn heat_map<'a>(class: &'a Class<'a>, lang: Lang) -> HeatMap<'a> {
    // A heading per exercise over its cases, then the cases numbered within it.
    let mut exercises = Vec::new();
    let mut pads = vec![0; class.columns.len()];
    let mut index = 0;
    while index < class.columns.len() {
        let exercise = class.columns[index].exercise;
        let span = class.columns[index..]
            .iter()
            .take_while(|column| column.exercise == exercise)
            .count();
        let width = (span * CELL_PX).max(exercise.chars().count() * NAME_CHAR_PX + 4);
        pads[index + span - 1] = width - span * CELL_PX;
        exercises.push((exercise, width));
        index += span;
    }
    let mut number = 0;
    let cases = class
        .columns
        .iter()
        .enumerate()
        .map(|(index, column)| {
            number = match index > 0 && class.columns[index - 1].exercise == column.exercise {
                true => number + 1,
                false => 1,
            };
            CaseHead {
                title: case_name(class, index, lang),
                number,
                hidden: column.hidden,
            }
        })
        .collect();
    HeatMap {
        width: NAME_PX + TOTAL_PX + exercises.iter().map(|(_, width)| width).sum::<usize>(),
        exercises,
        cases,
        pads,
        rows: &class.students,
    }
}

/// A heat map cell's class: none for a pass, the most common cell.
fn heat_class(cell: &Cell) -> Option<&'static str> {
    match cell {
        Cell::Verdict(Verdict::Passed) => None,
        cell => Some(look(*cell).class),
    }
}

fn details<'a>(class: &Class, student: &Student<'a>, lang: Lang) -> Details<'a> {
    Details {
        name: student.name,
        points: student.results.points,
        max_points: student.results.max_points,
        exercises: student
            .results
            .exercises
            .iter()
            .filter(|exercise| !class.practice.contains(&exercise.name.as_str()))
            .map(|exercise| exercise_line(exercise, lang))
            .collect(),
    }
}

/// An exercise's line in a student's details: its points, and what failed (a hidden case
/// shows its verdict only), then its first diff.
fn exercise_line(exercise: &ExerciseReport, lang: Lang) -> ExerciseLine<'_> {
    let status = match exercise.status.as_str() {
        status if status == Status::Passed.as_str() => lang.pick("passed", "通过"),
        status if status == Status::CompileError.as_str() => {
            lang.pick("does not compile", "无法编译")
        }
        status if status == Status::Missing.as_str() => lang.pick("file missing", "文件缺失"),
        _ => lang.pick("failed", "未通过"),
    };
    let failed = (exercise.status == Status::Failed.as_str()).then(|| {
        let mut not_run = 0;
        let mut cases = Vec::new();
        for case in &exercise.cases {
            match Verdict::from_word(&case.verdict) {
                None | Some(Verdict::Passed) => {}
                Some(Verdict::NotRun) => not_run += 1,
                Some(verdict) => cases.push(FailedLine {
                    name: &case.name,
                    key: look(Cell::Verdict(verdict)),
                    shown: (!case.hidden).then(|| Shown {
                        message: &case.message,
                        hint: case.hint.as_deref(),
                        diff: case.diff.as_deref(),
                    }),
                }),
            }
        }
        Failures {
            cases,
            not_run: (not_run > 0).then(|| {
                lang.pick(
                    format!("{not_run} more not run: the program loops"),
                    format!("另有 {not_run} 个未运行：程序陷入死循环"),
                )
            }),
        }
    });
    ExerciseLine {
        name: &exercise.name,
        points: exercise.points,
        max_points: exercise.max_points,
        status,
        failed,
    }
}

/// The heat map's columns, its cells and the legend's keys: a colour and a letter per kind
/// of cell.
fn cell_style() -> String {
    let mut css = format!(
        "#heat .r>a,#heat .r>span:first-child{{flex:0 0 {NAME_PX}px}}\
         #heat .r>b{{flex:0 0 {TOTAL_PX}px;left:{NAME_PX}px}}#heat i{{flex:0 0 {}px}}",
        CELL_PX - 1
    );
    for cell in CELLS {
        let look = look(cell);
        let selector = match cell {
            Cell::Verdict(Verdict::Passed) => ".rows i,.key.p".to_string(),
            _ => format!(".rows i.{0},.key.{0}", look.class),
        };
        let _ = write!(
            css,
            "{selector}{{background:{};color:{}}}",
            look.fill, look.ink
        );
        if !look.symbol.is_empty() {
            let after = selector.replace(',', "::after,") + "::after";
            let _ = write!(css, "{after}{{content:\"{}\"}}", look.symbol);
        }
    }
    css
}

/// The look every page of clings shares (this one, the tournament's).
pub const BASE_STYLE: &str = include_str!("assets/base.css");

const STYLE: &str = include_str!("assets/class.css");

const SCRIPT: &str = include_str!("assets/class.js");

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A gradebook in which each text is `text(what it is)`: ann fails a case of each
    /// kind the page details (a wrong output with its hint and diff, a hidden case, a case
    /// not run) in one chapter and does not compile in the other; ben passes; the grader
    /// failed on cid and refused dan.
    fn gradebook(text: &dyn Fn(&str) -> String) -> Gradebook {
        let case = |name: &str, verdict: &str, hidden: bool| {
            let what = |field: &str| text(&format!("{name} {field}"));
            json!({
                "name": what("name"), "verdict": verdict, "points": u32::from(verdict == "passed"),
                "max_points": 1, "time_ms": 3, "message": what("message"), "hidden": hidden,
                "description": what("description"), "hint": what("hint"), "diff": what("diff"),
            })
        };
        let results = |passing: bool| {
            let (first, second) = match passing {
                true => (["passed"; 3], "passed"),
                false => (["wrong_output", "timeout", "not_run"], "compile_error"),
            };
            let status = |verdict: &'static str| match verdict {
                "passed" | "compile_error" => verdict,
                _ => "failed",
            };
            json!({
                "schema": "clings-results/1", "passed": 0, "failed": 2, "points": 0, "max_points": 4,
                "exercises": [
                    {
                        "name": text("first"), "title": text("first title"), "chapter": text("one"),
                        "source": text("first source"), "status": status(first[0]), "points": 0,
                        "max_points": 3, "cases": [
                            case("shown", first[0], false), case("secret", first[1], true),
                            case("later", first[2], false),
                        ],
                    },
                    {
                        "name": text("second"), "title": text("second title"), "chapter": text("two"),
                        "source": text("second source"), "status": status(second), "points": 0,
                        "max_points": 1, "cases": [case("only", second, false)],
                    },
                ],
                "chapters": [
                    { "name": text("one"), "title": text("one title"), "graded": true, "passed": 0, "failed": 1, "points": 0, "max_points": 3 },
                    { "name": text("two"), "title": text("two title"), "graded": true, "passed": 0, "failed": 1, "points": 0, "max_points": 1 },
                ],
            })
        };
        serde_json::from_value(json!({
            "schema": "clings-gradebook/1",
            "exercises": [text("first"), text("second")],
            "students": [
                { "name": text("ann"), "results": results(false) },
                { "name": text("ben"), "results": results(true) },
                { "name": text("cid"), "error": text("grader error") },
                { "name": text("dan"), "refused": text("refusal") },
            ],
        }))
        .unwrap()
    }

    /// Whatever a template places (in a text, an attribute, a chart), a gradebook's text is
    /// escaped there: one field placed raw (`|safe`) leaves its element in the page.
    #[test]
    fn every_text_the_page_shows_is_escaped_wherever_the_template_places_it() {
        let element = |what: &str| format!("<x-{}>", what.replace(' ', "-"));
        let page = page(&gradebook(&|what| element(what)), 50, Lang::En);
        assert!(!page.contains("<x-"), "a text placed raw: {page}");
        for shown in [
            "ann",
            "ben",
            "cid",
            "grader error",
            "refusal",
            "first",
            "second",
            "first title",
            "one",
            "one title",
            "two title",
            "shown name",
            "shown message",
            "shown description",
            "shown hint",
            "shown diff",
            "secret name",
            "secret hint",
            "only name",
        ] {
            let escaped = element(shown).replace('<', "&lt;").replace('>', "&gt;");
            assert!(
                page.contains(&escaped),
                "{shown} is not on the page: {page}"
            );
        }
        // A hidden case shows its name, verdict and hint only; a case not run, its count.
        for unseen in [
            "secret message",
            "secret description",
            "secret diff",
            "later name",
        ] {
            assert!(
                !page.contains(&element(unseen)[1..]),
                "{unseen} is on the page"
            );
        }
    }

    #[test]
    fn every_failure_has_its_own_letter() {
        let mut symbols: Vec<&str> = CELLS
            .iter()
            .map(|cell| look(*cell).symbol)
            .filter(|symbol| !symbol.is_empty())
            .collect();
        let count = symbols.len();
        symbols.sort_unstable();
        symbols.dedup();
        assert_eq!(symbols.len(), count, "two kinds share a letter");
        // Only a pass and a missing result go without one: the colour is never alone.
        assert_eq!(count, CELLS.len() - 2);
    }
}
