//! The class report (`grade --html`, `clings report`): drawn from a real grading and from
//! a generated class of 40, its structure checked, hidden cases sealed and the programs'
//! text escaped, and opened in a real browser (headless Chromium).

use crate::common;

use std::path::{Path, PathBuf};

use common::*;
use serde_json::{Value, json};

/// `sum.c` of a student whose program answers with markup: the page must show it as text.
const SCRIPTING_STUDENT: &str = "#include <stdio.h>\n\
    int main(void) { printf(\"<script>alert('pwned')</script>\\n\"); return 0; }\n";

/// A course (tests/course, with a hidden case), and a class graded with `--html`.
struct Graded {
    root: tempfile::TempDir,
}

impl Graded {
    fn new() -> Graded {
        let root = ci_layout(
            &repo().join("tests/course"),
            &[("programs/passing.c", "sum.c")],
            "sum",
        );
        let hidden = root.path().join("hidden/sum");
        std::fs::write(hidden.join("09_secret.in"), "4242 4242\n").unwrap();
        std::fs::write(hidden.join("09_secret.out"), "8484\n").unwrap();
        std::fs::write(
            hidden.join("09_secret.toml"),
            "hint = \"Large numbers too.\"\n",
        )
        .unwrap();
        class(
            root.path(),
            &[
                ("alice", "passing"),
                ("bob", "wrong_output"),
                ("carol", "compile_error"),
                ("dave", "crash"),
            ],
        );
        let mallory = root.path().join("submissions/mallory");
        std::fs::create_dir_all(&mallory).unwrap();
        std::fs::write(mallory.join("sum.c"), SCRIPTING_STUDENT).unwrap();
        let output = clings(&root.path().join("course"))
            .args(["grade", "../submissions", "--fixtures", "../hidden"])
            .args(["--hidden-feedback", "verdicts"])
            .args(["--out", "../book", "--html", "../report.html"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
        assert!(
            stdout_of(&output).contains("drew the class report of 5 students into ../report.html"),
            "{}",
            stdout_of(&output)
        );
        Graded { root }
    }

    fn page(&self) -> String {
        std::fs::read_to_string(self.root.path().join("report.html")).unwrap()
    }

    fn book(&self) -> Value {
        let text = std::fs::read_to_string(self.root.path().join("book/grades.json")).unwrap();
        serde_json::from_str(&text).unwrap()
    }
}

/// The cases of `student`'s exercise `exercise` in a gradebook.
fn cases<'a>(book: &'a Value, student: &str, exercise: usize) -> &'a Vec<Value> {
    let student = book["students"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == student)
        .unwrap_or_else(|| panic!("{student} not in the gradebook"));
    student["results"]["exercises"][exercise]["cases"]
        .as_array()
        .unwrap()
}

#[test]
fn the_gradebook_keeps_what_the_page_shows_and_nothing_hidden() {
    let graded = Graded::new();
    let book = graded.book();
    let bob = cases(&book, "bob", 0);
    assert_eq!(bob[0]["description"], "Two small numbers");
    assert_eq!(bob[1]["hint"], "Negative numbers add like any other.");
    let diff = bob[0]["diff"]
        .as_str()
        .expect("the first public failure's diff");
    assert!(diff.contains("-3\n+-1"), "{diff}");
    assert!(
        bob[1]["diff"].is_null(),
        "one diff per exercise: {}",
        bob[1]
    );
    let secret = &bob[2];
    assert_eq!(secret["hidden"], true);
    assert_eq!(secret["hint"], "Large numbers too.");
    assert!(secret["description"].is_null() && secret["diff"].is_null());
    assert_eq!(
        book["students"][0]["results"]["exercises"][0]["title"],
        "Add two numbers"
    );
    let text = serde_json::to_string(&book).unwrap();
    assert!(!text.contains("4242") && !text.contains("8484"), "{text}");
}

#[test]
fn the_page_of_a_graded_class_has_every_section_escaped_and_sealed() {
    let graded = Graded::new();
    let page = graded.page();
    for section in ["scores", "cases", "kinds", "heatmap", "students"] {
        assert!(
            page.contains(&format!("<section id=\"{section}\">")),
            "{section}"
        );
    }
    assert!(
        !page.contains("http://") && !page.contains("https://"),
        "no network"
    );
    assert!(
        !page.contains("<link") && !page.contains(" src="),
        "nothing beside it"
    );
    // Histograms: the total, then each exercise (one chapter: no chapter's).
    assert_eq!(page.matches("<svg class=\"chart\"").count(), 3);
    // A row per student in the heat map, each linking to its details.
    let rows = heat_map_rows(&page);
    assert_eq!(rows.len(), 5, "{rows:?}");
    for (index, row) in rows.iter().enumerate() {
        assert!(row.contains(&format!("href=\"#s{index}\"")), "{row}");
        assert!(page.contains(&format!("<article class=\"student\" id=\"s{index}\">")));
    }
    // dave's crash and carol's compile error have their cells, and their kind's line.
    assert!(rows[3].contains("<i class=c></i>"), "{}", rows[3]);
    assert_eq!(rows[2].matches("<i class=e></i>").count(), 3, "{}", rows[2]);
    assert!(page.contains("<span class=\"key c\"></span> crashed</th><td>1</td>"));
    // The failing students' hint, and bob's diff, escaped in a <pre>.
    assert!(page.contains("Negative numbers add like any other."));
    assert!(page.contains("<pre class=\"diff\">--- expected\n+++ your output"));
    // The hidden case: its name, verdict and hint; never its data.
    assert!(page.contains("sum / 09_secret (hidden)"));
    assert!(page.contains("Large numbers too."));
    assert!(
        !page.contains("4242") && !page.contains("8484"),
        "hidden data leaked"
    );
    // mallory's output is text on the page, never markup.
    assert!(
        page.contains("+&lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt;"),
        "mallory's diff"
    );
    assert!(
        !page.contains("<script>alert"),
        "a student's markup is live"
    );
    assert_eq!(
        page.matches("<script>").count(),
        1,
        "the page's own script only"
    );
}

/// The page is drawn from the gradebook alone: `clings report` (outside any course) and
/// `grade --merge --html` draw the very page `grade --html` drew.
#[test]
fn the_page_is_a_function_of_the_gradebook_alone() {
    let graded = Graded::new();
    let root = graded.root.path();
    let output = clings(root)
        .args(["report", "book/grades.json", "--html", "again.html"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let output = clings(&root.join("course"))
        .args([
            "grade",
            "--merge",
            "../book/grades.json",
            "--out",
            "../merged",
        ])
        .args(["--html", "../merged.html"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    for drawn in ["again.html", "merged.html"] {
        let page = std::fs::read_to_string(root.join(drawn)).unwrap();
        assert!(page == graded.page(), "{drawn} differs from grade's page");
    }
}

/// The class page `clings report` draws of the gradebook `class`, written in `dir`.
fn page_of(dir: &Path, class: &Value) -> String {
    std::fs::write(dir.join("book.json"), class.to_string()).unwrap();
    let output = clings(dir)
        .args(["report", "book.json", "--html", "report.html"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    std::fs::read_to_string(dir.join("report.html")).unwrap()
}

/// The heat map's rows of students.
fn heat_map_rows(page: &str) -> Vec<&str> {
    page.lines()
        .filter(|line| line.starts_with("<div class=\"r\" data-score="))
        .collect()
}

const VERDICTS: [&str; 7] = [
    "wrong_output",
    "timeout",
    "crashed",
    "sanitizer",
    "nonzero_exit",
    "output_limit",
    "memory_limit",
];

/// A class of `students` with results as `clings grade` writes them, varied the same way
/// on every run: two graded exercises in one chapter and a practice one, a hidden case,
/// a student whose file does not compile, one whose file is missing, one the grader
/// failed on, and everyone else failing cases in every way there is.
fn synthetic_class(students: usize) -> Value {
    let exercises = [
        ("sum", "core", "Add two numbers", 6),
        ("board", "core", "Draw the board", 14),
        ("extra", "practice", "After class", 4),
    ];
    let mut seed: u64 = 0x5eed;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    let mut rows = Vec::new();
    for index in 0..students {
        let name = format!("student{index:03}");
        if index == 7 {
            rows.push(json!({ "name": name, "error": "sum.c: the grader could not build" }));
            continue;
        }
        let skill = next() % 100;
        let mut reports = Vec::new();
        for (exercise_index, (exercise, chapter, title, count)) in exercises.iter().enumerate() {
            let status = match (index, exercise_index) {
                (3, 1) => "compile_error",
                (5, 2) => "missing",
                _ => "",
            };
            let mut cases = Vec::new();
            for case in 0..*count {
                let hidden = *exercise == "sum" && case == count - 1;
                let verdict = match status {
                    "" if next() % 100 < skill + case * 2 => "passed",
                    "" => VERDICTS[(next() + case) % VERDICTS.len()],
                    _ => "not_run",
                };
                let failed = verdict != "passed";
                let public_wrong = failed && !hidden && verdict == "wrong_output";
                cases.push(json!({
                    "name": format!("{:02}_case_{case}", case + 1),
                    "verdict": verdict,
                    "points": u32::from(!failed),
                    "max_points": 1,
                    "time_ms": if hidden { Value::Null } else { json!(3) },
                    "message": if failed { "your output differs from the expected output" } else { "" },
                    "hidden": hidden,
                    "description": if hidden { Value::Null } else { json!(format!("What case {case} tests")) },
                    "hint": if failed && case % 3 == 0 { json!(format!("Think about case {case}.")) } else { Value::Null },
                    "diff": if public_wrong { json!("--- expected\n+++ your output\n@@ expected line 1, your line 1 @@\n-3\n+4\n ^ column 1") } else { Value::Null },
                }));
            }
            let points = cases
                .iter()
                .map(|c| c["points"].as_u64().unwrap())
                .sum::<u64>();
            let status = match status {
                "" if points == *count as u64 => "passed",
                "" => "failed",
                status => status,
            };
            reports.push(json!({
                "name": exercise, "title": title, "chapter": chapter, "source": format!("{exercise}.c"),
                "status": status, "points": points, "max_points": count, "cases": cases,
            }));
        }
        let points_of = |chapter: &str| -> u64 {
            reports
                .iter()
                .filter(|r| r["chapter"] == chapter)
                .map(|r| r["points"].as_u64().unwrap())
                .sum()
        };
        let passed = reports.iter().filter(|r| r["status"] == "passed").count();
        let (core, practice) = (points_of("core"), points_of("practice"));
        rows.push(json!({
            "name": name,
            "results": {
                "schema": "clings-results/1",
                "exercises": reports,
                "passed": passed, "failed": 3 - passed,
                "points": core, "max_points": 20,
                "chapters": [
                    { "name": "core", "title": "The game", "graded": true, "passed": 0, "failed": 0, "points": core, "max_points": 20 },
                    { "name": "practice", "title": "After class", "graded": false, "passed": 0, "failed": 0, "points": practice, "max_points": 4 },
                ],
            },
        }));
    }
    json!({ "schema": "clings-gradebook/1", "exercises": ["sum", "board", "extra"], "students": rows })
}

/// The synthetic class of `students`, written as two shards' gradebooks in `dir`; and
/// `clings report` drawing them into `dir/report.html` in `lang`.
fn report_of_two_shards(dir: &Path, students: usize, lang: &str) -> PathBuf {
    let class = synthetic_class(students);
    let rows = class["students"].as_array().unwrap();
    let (first, second) = rows.split_at(rows.len() / 2);
    for (file, half) in [("a.json", first), ("b.json", second)] {
        let mut shard = class.clone();
        shard["students"] = json!(half);
        std::fs::write(dir.join(file), serde_json::to_string(&shard).unwrap()).unwrap();
    }
    let page = dir.join("report.html");
    let output = clings(dir)
        .args([
            "--lang",
            lang,
            "report",
            "a.json",
            "b.json",
            "--html",
            "report.html",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    page
}

#[test]
fn report_merges_gradebooks_without_a_course_and_speaks_chinese() {
    let dir = tempfile::tempdir().unwrap();
    let page = std::fs::read_to_string(report_of_two_shards(dir.path(), 40, "zh")).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>\n<html lang=\"zh\">"));
    assert!(page.contains("<h1>班级报告</h1>") && page.contains("失败最多的用例"));
    assert_eq!(
        heat_map_rows(&page).len(),
        39,
        "40 students, one the grader failed on"
    );
    assert!(page.contains("student007") && page.contains("the grader could not build"));
    // The total and the two graded exercises (one graded chapter: no chapter's).
    assert_eq!(page.matches("<svg class=\"chart\"").count(), 3);
    // The same student in both gradebooks is refused, as `grade --merge` refuses it.
    let output = clings(dir.path())
        .args(["report", "a.json", "a.json", "--html", "twice.html"])
        .output()
        .unwrap();
    assert_error(&output, "more than one shard");
    assert!(!dir.path().join("twice.html").exists());
}

/// Practice (the `extra` exercise, whose chapter does not count) is folded away in one
/// line and counted nowhere else; a case's failures are out of the students whose program
/// ran it (student003's `board` does not compile).
#[test]
fn practice_is_folded_away_and_a_case_counts_the_runs_that_ran() {
    let dir = tempfile::tempdir().unwrap();
    let page = std::fs::read_to_string(report_of_two_shards(dir.path(), 40, "en")).unwrap();
    assert!(
        page.contains(
            "<details class=\"practice\"><summary>Practice, which counts for nothing, is in \
             no total, chart or count of this page: 1 exercise.</summary>"
        ),
        "{page}"
    );
    assert!(page.contains("<li>extra: handed in by 38 of 39, passed by "));
    assert_eq!(page.matches("<svg class=\"chart\"").count(), 3);
    assert!(!page.contains("title=\"extra\""), "a heat map column");
    assert!(!page.contains("<b>extra</b>"), "a student's line");
    assert!(!page.contains("extra /"), "a case most failed");
    // Only student005's practice file is missing: no kind of failure of the graded ones.
    assert!(!page.contains("file missing</th>"), "a kind");
    assert!(page.contains("of the 20 cases that some program ran were failed by nobody."));
    assert!(page.contains("students whose program ran it"));
    let cases = &page[page.find("<section id=\"cases\">").unwrap()..];
    for (exercise, ran) in [("sum", 39), ("board", 38)] {
        let heading = &cases[cases.find(&format!("<h3>{exercise} / ")).unwrap()..];
        let heading = &heading[..heading.find("</h3>").unwrap()];
        assert!(
            heading.contains(&format!(" of the {ran} students whose program ran it")),
            "{heading}"
        );
    }
}

/// The help list's threshold is `--help-below PERCENT` on `report` and `grade`, and the page
/// says the figure it used: below it are the students under that share of the total who
/// are not listed for a graver reason (not started, a graded file missing or not
/// compiling).
#[test]
fn the_help_list_s_threshold_is_an_option_the_page_states() {
    // A course's folder: `grade --merge` is run in one.
    let dir = copy_course(&repo().join("tests/course"));
    let class = synthetic_class(40);
    std::fs::write(dir.path().join("grades.json"), class.to_string()).unwrap();
    let below = |percent: u32| -> Vec<String> {
        let students = class["students"].as_array().unwrap().iter();
        let graded = students.filter(|s| !s["results"].is_null());
        let listed = graded.filter(|student| {
            let results = &student["results"];
            let counted: Vec<&Value> = results["exercises"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|e| e["chapter"] == "core")
                .collect();
            // Not started (no file), a file missing, a file not compiling.
            let graver = counted
                .iter()
                .any(|e| ["missing", "compile_error"].contains(&e["status"].as_str().unwrap()));
            let (points, max) = (
                results["points"].as_u64().unwrap(),
                results["max_points"].as_u64().unwrap(),
            );
            !graver && points * 100 < max * u64::from(percent)
        });
        listed
            .map(|s| s["name"].as_str().unwrap().to_string())
            .collect()
    };
    let drawn = |command: &[&str], html: &str, percent: u32| -> Vec<String> {
        let output = clings(dir.path()).args(command).output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
        let page = std::fs::read_to_string(dir.path().join(html)).unwrap();
        let help = &page[page.find("<section id=\"help\">").unwrap()
            ..page.find("<section id=\"scores\">").unwrap()];
        assert!(
            help.contains(&format!("or below {percent}% of the total (--help-below)")),
            "{help}"
        );
        let why = format!("<td>below {percent}%</td>");
        let rows = help
            .lines()
            .filter(|line| line.starts_with("<tr>") && line.contains(&why));
        let name = |row: &str| {
            let link = &row[row.find("\">").unwrap() + 2..];
            link[..link.find("</a>").unwrap()].to_string()
        };
        let mut names: Vec<String> = rows.map(name).collect();
        names.sort();
        names
    };
    for percent in [0, 50, 75, 100] {
        let flag = percent.to_string();
        let report = [
            "report",
            "grades.json",
            "--html",
            "r.html",
            "--help-below",
            &flag,
        ];
        assert_eq!(
            drawn(&report, "r.html", percent),
            below(percent),
            "{percent}%"
        );
    }
    assert!(below(0).is_empty() && below(75).len() > below(50).len());
    // The default is 50%; grade --merge takes the option too.
    let default = ["report", "grades.json", "--html", "d.html"];
    assert_eq!(drawn(&default, "d.html", 50), below(50));
    let merge = [
        "grade",
        "--merge",
        "grades.json",
        "--out",
        "m",
        "--html",
        "m.html",
        "--help-below",
        "75",
    ];
    assert_eq!(drawn(&merge, "m.html", 75), below(75));
    // A share that is none is a usage error that names the option.
    let output = clings(dir.path())
        .args([
            "report",
            "grades.json",
            "--html",
            "x.html",
            "--help-below",
            "101",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", stderr_of(&output));
    assert!(
        stderr_of(&output).contains("--help-below"),
        "{}",
        stderr_of(&output)
    );
    assert!(!dir.path().join("x.html").exists());
}

/// "Not started" is a student who handed in no file that counts but its skeleton,
/// unchanged; one who handed in files of their own and scored 0 has begun, and is below
/// the threshold with the first case to look at.
#[test]
fn not_started_is_no_file_of_one_s_own_and_a_score_of_zero_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let mut class = synthetic_class(3);
    let students = class["students"].as_array_mut().unwrap();
    for (student, status) in students.iter_mut().zip(["failed", "missing"]) {
        let results = &mut student["results"];
        results["points"] = json!(0);
        for exercise in results["exercises"].as_array_mut().unwrap() {
            if exercise["chapter"] != "core" {
                continue;
            }
            exercise["status"] = json!(status);
            exercise["points"] = json!(0);
            for case in exercise["cases"].as_array_mut().unwrap() {
                case["points"] = json!(0);
                case["verdict"] = json!(if status == "missing" {
                    "not_run"
                } else {
                    "wrong_output"
                });
                case["hint"] = json!(null);
                case["message"] = json!("your output differs from the expected output");
            }
        }
        student["name"] = json!(format!("{status} all"));
    }
    // The third handed in the skeletons, which earn what they earn.
    let skeletons = &mut class["students"][2];
    skeletons["name"] = json!("skeletons");
    for exercise in skeletons["results"]["exercises"].as_array_mut().unwrap() {
        exercise["unchanged"] = json!(exercise["chapter"] == "core");
    }
    let page = page_of(dir.path(), &class);
    let help = &page[page.find("<section id=\"help\">").unwrap()
        ..page.find("<section id=\"scores\">").unwrap()];
    let row = |name: &str| {
        let rows = help.lines().filter(|line| line.starts_with("<tr>"));
        let mut rows = rows.filter(|line| line.contains(&format!(">{name}</a>")));
        unescaped(
            rows.next()
                .unwrap_or_else(|| panic!("{name} not listed: {help}")),
        )
    };
    for name in ["missing all", "skeletons"] {
        let row = row(name);
        assert!(row.contains("<td>not started</td>"), "{row}");
    }
    let zero = row("failed all");
    assert!(
        !zero.contains("not started")
            && zero.contains("<td>below 50%</td>")
            && zero.contains("sum / 01_case_0: your output differs from the expected output"),
        "{zero}"
    );
}

#[test]
fn a_class_of_40_renders_in_a_real_browser() {
    let Some(chromium) = chromium("the class report") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let page = report_of_two_shards(dir.path(), 40, "en");
    let profile = dir.path().join("profile");

    let screenshot = dir.path().join("report.png");
    let shot = open_in_chromium(
        &chromium,
        &profile,
        &page,
        &[
            &format!("--screenshot={}", screenshot.display()),
            "--window-size=1280,2000",
        ],
    );
    let png = std::fs::read(&screenshot)
        .unwrap_or_else(|err| panic!("no screenshot ({err}): {}", stderr_of(&shot)));
    assert_eq!(&png[1..4], b"PNG");
    let (width, height) = (
        u32::from_be_bytes(png[16..20].try_into().unwrap()),
        u32::from_be_bytes(png[20..24].try_into().unwrap()),
    );
    assert_eq!((width, height), (1280, 2000));
    // A blank page of that size is under 10 KB; charts, text and the heat map are not.
    assert!(
        png.len() > 60_000,
        "a blank screenshot? {} bytes",
        png.len()
    );

    let dom = open_in_chromium(&chromium, &profile, &page, &["--dump-dom"]);
    let (dom_text, log) = (stdout_of(&dom), stderr_of(&dom));
    // The page's script marks the body only when every chart has a size and bars.
    assert!(
        dom_text.contains("data-rendered=\"charts "),
        "the charts did not render: {log}"
    );
    let charts = dom_text.matches("<svg class=\"chart").count();
    assert!(
        dom_text.contains(&format!(
            "data-rendered=\"charts {charts}, rows 39, sections 6, width 1280, height "
        )),
        "{}",
        &dom_text[..dom_text.find("<h1>").unwrap_or(0)]
    );
    assert!(charts > 6, "histograms and the verdict mixes: {charts}");
    let console: Vec<&str> = log
        .lines()
        .filter(|line| line.contains(":CONSOLE") || line.contains("Uncaught"))
        .collect();
    assert!(
        console.is_empty(),
        "the page wrote to the console: {console:#?}"
    );
}

/// The names of a class in the order people look for them: case and accents aside, an
/// accent deciding only between names otherwise the same.
const NAMES_IN_ORDER: [&str; 10] = [
    "alice", "Bob", "élise", "Émile", "Eve", "Ève", "Ewan", "O'Brien", "zoe", "Zoë",
];

/// The heat map's default order is the order people sort names in, accents folded, and its
/// "sort by name" button, clicked in a real browser after "sort by score", gives that same
/// order back.
#[test]
fn names_sort_as_people_sort_them_on_the_page_and_by_its_button() {
    let Some(chromium) = chromium("the class report") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut class = synthetic_class(11);
    // The student the grader failed on (the eighth) is not in the heat map.
    let mut names = NAMES_IN_ORDER.iter().rev();
    for student in class["students"].as_array_mut().unwrap() {
        if student["results"].is_object() {
            student["name"] = json!(names.next().unwrap());
        }
    }
    let page = page_of(dir.path(), &class);
    let written: Vec<String> = heat_map_rows(&page)
        .iter()
        .map(|row| {
            let name = &row[row.find("<a href=").unwrap()..];
            unescaped(&name[name.find('>').unwrap() + 1..name.find("</a>").unwrap()])
        })
        .collect();
    assert_eq!(written, NAMES_IN_ORDER);

    // The buttons as a teacher clicks them: by score, then by name; the order then shown.
    let clicked = dir.path().join("clicked.html");
    let script = "<script>document.querySelector('button[data-sort=score]').click();\
        document.querySelector('button[data-sort=name]').click();\
        document.body.setAttribute('data-order', Array.prototype.map.call(\
        document.querySelectorAll('#heat .rows .r > a'), function(a) { return a.textContent; }).join('|'));\
        </script>";
    std::fs::write(
        &clicked,
        page.replace("</body>", &format!("{script}</body>")),
    )
    .unwrap();
    let dom = open_in_chromium(
        &chromium,
        &dir.path().join("profile"),
        &clicked,
        &["--dump-dom"],
    );
    let dom_text = stdout_of(&dom);
    let order = dom_text
        .split_once("data-order=\"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .map(|(order, _)| unescaped(order))
        .unwrap_or_else(|| panic!("the buttons did not run: {}", stderr_of(&dom)));
    assert_eq!(order.split('|').collect::<Vec<_>>(), NAMES_IN_ORDER);
}

/// A class of three as a gradebook, each of its texts `text(what it is)`: two students
/// failing two exercises (in two chapters) in different ways, one the grader failed on.
/// Each exercise has a hidden case whose message, description and diff hold `secret`
/// (a gradebook clings wrote holds none of them).
fn crafted_class(text: &dyn Fn(&str) -> String, secret: &str) -> Value {
    let case = |exercise: &str, name: &str, verdict: &str| {
        let what = |field: &str| text(&format!("{exercise} {name} {field}"));
        json!({
            "name": what("name"), "verdict": verdict, "points": u32::from(verdict == "passed"),
            "max_points": 1, "time_ms": 3, "message": what("message"), "hidden": false,
            "description": what("description"), "hint": what("hint"), "diff": what("diff"),
        })
    };
    let hidden = |exercise: &str| {
        json!({
            "name": text(&format!("{exercise} hidden name")), "verdict": "wrong_output",
            "points": 0, "max_points": 1, "time_ms": null, "message": secret, "hidden": true,
            "description": secret, "hint": text(&format!("{exercise} hidden hint")), "diff": secret,
        })
    };
    let results = |verdicts: [&str; 2]| {
        let exercises: Vec<Value> = ["first", "second"]
            .iter()
            .enumerate()
            .map(|(index, exercise)| {
                json!({
                    "name": text(exercise), "title": text(&format!("{exercise} title")),
                    "chapter": text(&format!("chapter {index}")), "source": text(&format!("{exercise} source")),
                    "status": "failed", "points": 0, "max_points": 3,
                    "cases": [case(exercise, "one", verdicts[index]), case(exercise, "two", "sanitizer"), hidden(exercise)],
                })
            })
            .collect();
        let chapters: Vec<Value> = (0..2)
            .map(|index| {
                json!({
                    "name": text(&format!("chapter {index}")), "title": text(&format!("chapter {index} title")),
                    "graded": true, "passed": 0, "failed": 1, "points": 0, "max_points": 3,
                })
            })
            .collect();
        json!({
            "schema": "clings-results/1", "exercises": exercises, "passed": 0, "failed": 2,
            "points": 0, "max_points": 6, "chapters": chapters,
        })
    };
    json!({
        "schema": "clings-gradebook/1",
        "exercises": [text("first"), text("second")],
        "students": [
            { "name": text("student ann"), "results": results(["wrong_output", "crashed"]) },
            { "name": text("student ben"), "results": results(["timeout", "wrong_output"]) },
            { "name": text("student cid"), "error": text("grader error") },
        ],
    })
}

/// The page is markup of clings' own, whatever the gradebook says: every text of it (what
/// students' folders and programs hold, names, a grader's error, messages, diffs, and the
/// course's names, titles, descriptions and hints) is text on the page, and the page has
/// the elements and attributes of the same class with plain texts. A hidden case shows its
/// name, verdict and hint only, though the gradebook held more of it.
#[test]
fn every_text_of_the_gradebook_is_text_on_the_page_and_a_hidden_case_shows_no_more() {
    let dir = tempfile::tempdir().unwrap();
    let secret = marker("hidden");
    let draw = |name: &str, text: &dyn Fn(&str) -> String| {
        let book = crafted_class(text, &secret);
        std::fs::write(dir.path().join(name), book.to_string()).unwrap();
        let output = clings(dir.path())
            .args(["report", name, "--html", "page.html"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
        std::fs::read_to_string(dir.path().join("page.html")).unwrap()
    };
    let plain = markup(&draw("plain.json", &|what| what.to_string()));
    let page = draw("crafted.json", &|what| format!("{what}{MARKUP}"));
    let crafted = markup(&page);
    assert_eq!(crafted.structure(), plain.structure(), "{page}");
    assert_eq!((crafted.comments, plain.comments), (0, 0), "{page}");
    for shown in [
        "student ann",
        "student cid",
        "grader error",
        "first one message",
        "first two diff",
        "second one hint",
        "second one description",
        "first one name",
        "first hidden name",
        "second hidden hint",
        "first title",
        "chapter 1 title",
    ] {
        let text = format!("{shown}{MARKUP}");
        assert!(
            crafted.text.contains(&text),
            "{shown} is not shown as text: {page}"
        );
    }
    assert!(!page.contains(&secret), "{page}");
}

/// A class of 30 of the Gomoku course as a teacher has one, practice not started: two
/// solutions, 19 known-wrong `check_win`s and five known-wrong `gomoku`s (with the other
/// files solved), skeletons, a folder with nothing in it, a missing graded file, a file that
/// does not compile, and names people sort otherwise than bytes (`O'Brien`, a name with
/// quotes and spaces, a Chinese one). It is graded with hidden cases (one with the case's
/// own hint, one with another, one with none), `--jobs 2`, in two shards merged into the
/// page, as docs/grading-and-ci.md grades a class.
struct GomokuClass {
    root: tempfile::TempDir,
    course: tempfile::TempDir,
}

/// The known-wrong `check_win`s of the class: a fixed 19, so that a new known-wrong program
/// does not change the class the counts below were written for.
const WRONG_CHECK_WINS: [&str; 19] = [
    "board_without_room_for_nul",
    "bounds_checked_after_access",
    "exactly_five",
    "finds_no_five",
    "four_counts_as_five",
    "getchar_keeps_newlines",
    "k_le_5_rejects_edge",
    "loop_bound_size_minus_1",
    "loop_bound_size_minus_5",
    "missing_anti_diagonal",
    "missing_diagonal",
    "missing_horizontal",
    "missing_vertical",
    "names_swapped",
    "only_two_directions",
    "scan_starts_at_column_1",
    "scan_starts_at_row_1",
    "white_checked_first",
    "white_not_checked",
];

/// The known-wrong `gomoku`s of the class.
const WRONG_GOMOKUS: [&str; 5] = [
    "missing_anti_diagonal",
    "no_bounds_check",
    "only_x_can_win",
    "draw_checked_before_win",
    "no_draw_check",
];

impl GomokuClass {
    fn new() -> GomokuClass {
        let root = tempfile::tempdir().unwrap();
        let course = copy_course(&repo());
        let solution = |file: &str| Some(repo().join("solutions").join(file));
        let skeleton = |file: &str| Some(repo().join("skeletons").join(file));
        let wrong = |exercise: &str, name: &str| {
            Some(repo().join(format!("solutions/wrong/{exercise}/{name}.c")))
        };
        let solved = || {
            [
                solution("print_board.c"),
                solution("check_win.c"),
                solution("gomoku.c"),
            ]
        };
        let mut students: Vec<(String, [Option<PathBuf>; 3])> = vec![
            ("alice".into(), solved()),
            (
                "carol".into(),
                [
                    skeleton("print_board.c"),
                    wrong("check_win", "white_not_checked"),
                    skeleton("gomoku.c"),
                ],
            ),
            (
                "dave".into(),
                [solution("print_board.c"), None, solution("gomoku.c")],
            ),
            ("O'Brien".into(), [None, None, None]),
            ("Zed \"Q\" Smith".into(), solved()),
            (
                "张伟".into(),
                [solution("print_board.c"), solution("check_win.c"), None],
            ),
        ];
        for name in WRONG_CHECK_WINS {
            // Bob's name is capitalised: names sort as people sort them.
            let student = match name {
                "only_two_directions" => "Bob".to_string(),
                name => format!("cw {name}"),
            };
            let mut files = solved();
            files[1] = wrong("check_win", name);
            students.push((student, files));
        }
        for name in WRONG_GOMOKUS {
            let mut files = solved();
            files[2] = wrong("gomoku", name);
            students.push((format!("gm {name}"), files));
        }
        assert_eq!(students.len(), 30);
        for (name, files) in &students {
            let dir = root.path().join("submissions").join(name);
            std::fs::create_dir_all(&dir).unwrap();
            for (file, source) in ["print_board.c", "check_win.c", "gomoku.c"]
                .iter()
                .zip(files)
            {
                if let Some(source) = source {
                    std::fs::copy(source, dir.join(file)).unwrap();
                }
            }
        }
        std::fs::write(
            root.path().join("submissions/张伟/gomoku.c"),
            "int main(void) { return }\n",
        )
        .unwrap();
        // Hidden cases: a public one again with its own hint (six on an anti-diagonal, which
        // a scan missing the anti-diagonal fails too), one with a hint of its own, a gomoku
        // game.
        let hidden = root.path().join("hidden");
        for (exercise, case, own) in [
            ("check_win", "30_white_six_anti_diagonal", None),
            (
                "check_win",
                "09_black_anti_diagonal",
                Some("hint = \"A hidden line: look in every direction.\"\n"),
            ),
            ("gomoku", "02_o_wins_horizontal", None),
        ] {
            let (from, to) = (
                repo().join("fixtures").join(exercise),
                hidden.join(exercise),
            );
            std::fs::create_dir_all(&to).unwrap();
            for extension in ["in", "out", "toml"] {
                let source = from.join(format!("{case}.{extension}"));
                let target = to.join(format!("h_{case}.{extension}"));
                if let ("toml", Some(own)) = (extension, own) {
                    std::fs::write(target, own).unwrap();
                } else {
                    std::fs::copy(source, target).unwrap();
                }
            }
        }
        for shard in ["1/2", "2/2"] {
            let output = clings(course.path())
                .args(["grade"])
                .arg(root.path().join("submissions"))
                .arg("--fixtures")
                .arg(&hidden)
                .args([
                    "--hidden-feedback",
                    "verdicts",
                    "--jobs",
                    "2",
                    "--shard",
                    shard,
                ])
                .arg("--out")
                .arg(root.path().join(format!("shard-{}", &shard[..1])))
                .output()
                .unwrap();
            assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
        }
        let output = clings(course.path())
            .args(["grade", "--merge"])
            .args(["1", "2"].map(|k| root.path().join(format!("shard-{k}/grades.json"))))
            .arg("--out")
            .arg(root.path().join("book"))
            .arg("--html")
            .arg(root.path().join("report.html"))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
        GomokuClass { root, course }
    }

    fn page(&self) -> String {
        std::fs::read_to_string(self.root.path().join("report.html")).unwrap()
    }

    fn book(&self) -> Value {
        let text = std::fs::read_to_string(self.root.path().join("book/grades.json")).unwrap();
        serde_json::from_str(&text).unwrap()
    }
}

/// The text of a page's `<p>` or `<td>`, unescaped.
fn unescaped(html: &str) -> String {
    html.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#34;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The page of a real class says only what its gradebook says of what counts: totals,
/// histograms and kinds of the three graded exercises; each case's hints, and how many got
/// each, as `grades.json` gave them; the students to help first, named; names in the order
/// people sort them.
#[test]
fn the_page_of_a_real_class_counts_what_counts_and_says_who_needs_help() {
    let class = GomokuClass::new();
    let (page, book) = (class.page(), class.book());
    // Histograms: the total, and the three graded exercises; no practice anywhere.
    assert_eq!(page.matches("<svg class=\"chart\"").count(), 4, "{page}");
    assert!(page.contains("is in no total, chart or count of this page: 9 exercises."));
    let heat = &page[page.find("<section id=\"heatmap\">").unwrap()
        ..page.find("<section id=\"cases\">").unwrap()];
    for practice in ["show_board", "renju", "undo", "ai"] {
        assert!(
            !heat.contains(&format!("title=\"{practice}\"")),
            "{practice}"
        );
        assert!(!page.contains(&format!("<b>{practice}</b>")), "{practice}");
    }
    // file missing: dave and O'Brien only (the practice files of everyone are missing).
    let kinds = &page[page.find("<section id=\"kinds\">").unwrap()..];
    let missing = &kinds[kinds.find("file missing</th>").unwrap()..];
    assert!(
        missing.starts_with("file missing</th><td>2</td>"),
        "{missing:.300}"
    );

    // The CSV's summary names the graded exercises, and practice in one phrase.
    let csv = std::fs::read_to_string(class.root.path().join("book/grades.csv")).unwrap();
    let alice = csv.lines().find(|line| line.starts_with("alice,")).unwrap();
    assert!(
        alice.ends_with(
            ",print_board passed; check_win passed; gomoku passed; practice (not counted): 0 of 9 passed"
        ),
        "{alice}"
    );
    // print_board, one case, is as wide as its name over the heat map, each row keeping
    // its room.
    assert!(
        heat.contains("<span class=\"exercise\" style=\"width:70px\" title=\"print_board\">"),
        "{heat}"
    );
    assert!(
        heat_map_rows(&page)
            .iter()
            .all(|row| row.matches("<u style=\"flex:0 0 59px\"></u>").count() == 1)
    );
    // Names as people sort them, not bytes.
    let rows: Vec<String> = heat_map_rows(&page)
        .iter()
        .map(|row| {
            let link = &row[row.find("<a href=").unwrap()..];
            let name = &link[link.find('>').unwrap() + 1..];
            unescaped(&name[..name.find("</a>").unwrap()])
        })
        .collect();
    assert_eq!(rows.len(), 30);
    let mut sorted = rows.clone();
    sorted.sort_by_key(|name| name.to_lowercase());
    assert_eq!(rows, sorted);
    let at = |name: &str| rows.iter().position(|row| row == name).unwrap();
    assert!(at("alice") < at("Bob") && at("Bob") < at("carol") && at("dave") < at("O'Brien"));
    assert_eq!(rows.last().map(String::as_str), Some("张伟"));

    // The grading says which files are the skeletons, unchanged.
    let unchanged = |student: &str| -> Vec<bool> {
        let students = book["students"].as_array().unwrap();
        let student = students.iter().find(|s| s["name"] == student).unwrap();
        let exercises = student["results"]["exercises"].as_array().unwrap();
        exercises[..3]
            .iter()
            .map(|e| e["unchanged"] == true)
            .collect()
    };
    assert_eq!(unchanged("carol"), [true, false, true]);
    assert_eq!(unchanged("alice"), [false, false, false]);
    assert_eq!(unchanged("O'Brien"), [false, false, false], "missing");

    // Who needs help: the most urgent first, each with the first thing to look at.
    let help = &page[page.find("<section id=\"help\">").unwrap()
        ..page.find("<section id=\"scores\">").unwrap()];
    assert!(page.find("<section id=\"help\">") < page.find("<section id=\"scores\">"));
    let lines: Vec<String> = help
        .lines()
        .filter(|line| line.starts_with("<tr>"))
        .map(unescaped)
        .collect();
    assert_eq!(lines.len(), 5, "{help}");
    assert!(
        lines[0].contains(">O'Brien</a>") && lines[0].contains("not started"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].contains(">dave</a>") && lines[1].contains("check_win.c was not handed in"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].contains(">张伟</a>") && lines[2].contains("gomoku.c does not compile"),
        "{}",
        lines[2]
    );
    assert!(
        lines[3].contains(">carol</a>") && lines[3].contains("below 50%"),
        "{}",
        lines[3]
    );
    // The only known-wrong program below half the points: its sanitizer's hint first.
    assert!(
        lines[4].contains(">cw board_without_room_for_nul</a>")
            && lines[4].contains("check_win / 01_empty_board: AddressSanitizer caught"),
        "{}",
        lines[4]
    );

    // Every hint of the page, with its count, is one grades.json gave that many failing
    // students of that case.
    let mut given: std::collections::BTreeMap<(String, String), usize> = Default::default();
    for student in book["students"].as_array().unwrap() {
        for exercise in student["results"]["exercises"].as_array().unwrap() {
            let name = exercise["name"].as_str().unwrap();
            if !["print_board", "check_win", "gomoku"].contains(&name) {
                continue;
            }
            for case in exercise["cases"].as_array().unwrap() {
                let ran_and_failed = !["passed", "not_run", "compile_error"]
                    .contains(&case["verdict"].as_str().unwrap());
                if let (true, Some(hint)) = (ran_and_failed, case["hint"].as_str()) {
                    let hidden = if case["hidden"] == true {
                        " (hidden)"
                    } else {
                        ""
                    };
                    let case = format!("{name} / {}{hidden}", case["name"].as_str().unwrap());
                    *given.entry((case, hint.to_string())).or_default() += 1;
                }
            }
        }
    }
    assert!(!given.is_empty());
    let mut shown: std::collections::BTreeMap<(String, String), usize> = Default::default();
    let cases = &page[page.find("<section id=\"cases\">").unwrap()
        ..page.find("<section id=\"kinds\">").unwrap()];
    for item in cases.split("<li><h3>").skip(1) {
        let case = unescaped(&item[..item.find(" <small>").unwrap()]);
        for hint in item.split("<p class=\"hint\"><b>hint:</b> ").skip(1) {
            let (text, count) = hint.split_once(" <small>(shown to ").unwrap();
            let count: usize = count[..count.find(')').unwrap()].parse().unwrap();
            shown.insert((case.clone(), unescaped(text)), count);
        }
    }
    assert_eq!(shown, given);
    assert!(given.keys().any(|(case, _)| case.ends_with(" (hidden)")));

    // Each case has one hint, that of the mistake the whole exercise shows where the
    // mistake explains the case: the student who misses the anti-diagonal is not told, on
    // six in a row along it, to stop counting exactly five.
    let anti_diagonal = "Every line is found but those going down-left";
    let hint_of = |student: &str, case: &str| {
        let cases = self::cases(&book, student, 1);
        let case = cases.iter().find(|c| c["name"] == case).unwrap();
        case["hint"].as_str().unwrap_or_default().to_string()
    };
    for case in ["09_black_anti_diagonal", "30_white_six_anti_diagonal"] {
        let hint = hint_of("cw missing_anti_diagonal", case);
        assert!(hint.starts_with(anti_diagonal), "{case}: {hint}");
    }
    assert!(
        hint_of("cw exactly_five", "30_white_six_anti_diagonal")
            .starts_with("Every five is found, but six or seven in a row are not")
    );
    // The student's own report, graded alone as a push is with the same hidden cases, gives
    // each case the hint the gradebook (and so the page) gave it.
    let student = class
        .root
        .path()
        .join("submissions/cw missing_anti_diagonal");
    let own = class.root.path().join("own.json");
    let output = clings(class.course.path())
        .args(["test", "--allow-unisolated", "--format", "json"])
        .arg("--submission")
        .arg(&student)
        .arg("--fixtures")
        .arg(class.root.path().join("hidden"))
        .args(["--hidden-feedback", "verdicts", "--output"])
        .arg(&own)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    let own: Value = serde_json::from_str(&std::fs::read_to_string(&own).unwrap()).unwrap();
    let hints = |exercises: &Value| -> Vec<(String, Value)> {
        let exercises = exercises.as_array().unwrap().iter();
        let cases = exercises.flat_map(|e| e["cases"].as_array().unwrap());
        cases
            .map(|c| (c["name"].as_str().unwrap().to_string(), c["hint"].clone()))
            .collect()
    };
    let booked = book["students"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "cw missing_anti_diagonal")
        .unwrap();
    assert_eq!(
        hints(&own["exercises"]),
        hints(&booked["results"]["exercises"])
    );
}

/// The sections of the class report, in the page's order.
const SECTIONS: [&str; 6] = ["help", "scores", "heatmap", "cases", "kinds", "students"];

/// In a browser 1280 pixels wide, the page does not scroll sideways (the heat map scrolls
/// inside its box) and every section has a size and fits; and each section draws as a
/// teacher who goes to it sees it: in a window 1280 x 1000 where it comes first (the page
/// with the others taken out), what it holds below its heading is not one colour.
/// (Headless Chromium paints only its window's first height: a screenshot of the page
/// scrolled to a section, `page.html#cases`, is blank; and a window as tall as this page
/// is no fixed size: it is about 48,000 pixels once every row is laid out, and each
/// taller window lays out more of them.)
#[test]
fn every_section_of_a_real_class_draws_in_a_browser_1280_wide() {
    let Some(chromium) = chromium("the class report") else {
        return;
    };
    let class = GomokuClass::new();
    let dir = class.root.path();
    let profile = dir.join("profile");
    let dom = open_in_chromium(
        &chromium,
        &profile,
        &dir.join("report.html"),
        &["--dump-dom", "--window-size=1280,1000"],
    );
    let attribute = |dom: &str, name: &str| -> String {
        let start = dom
            .find(&format!("{name}=\""))
            .map(|at| at + name.len() + 2);
        let value = start.map(|start| &dom[start..start + dom[start..].find('"').unwrap()]);
        value
            .unwrap_or_else(|| panic!("no {name}: {}", &dom[..dom.find("<h1>").unwrap_or(0)]))
            .to_string()
    };
    let rendered = attribute(&stdout_of(&dom), "data-rendered");
    assert!(
        rendered.contains(", rows 30, sections 6, width 1280, height "),
        "{rendered}"
    );
    // Each section alone at the top of the page, and a script of the test's that writes
    // where its heading ends and where it ends.
    let script = "<script>var section = document.querySelector('section[data-alone]'); \
        document.body.setAttribute('data-box', [section.querySelector('h2'), section].map(function(e) {\
          return Math.round(e.getBoundingClientRect().bottom);\
        }).join(' '));</script>";
    let mut shots = Vec::new();
    for id in SECTIONS {
        let alone = dir.join(format!("{id}.html"));
        let style = format!("<style>body>:not(#{id}):not(script){{display:none}}</style></head>");
        let page = class.page().replacen("</head>", &style, 1);
        let page = page.replace("</body>", &format!("{script}</body>"));
        let page = page.replace(
            &format!("<section id=\"{id}\">"),
            &format!("<section id=\"{id}\" data-alone>"),
        );
        std::fs::write(&alone, page).unwrap();
        let dom = open_in_chromium(
            &chromium,
            &profile,
            &alone,
            &["--dump-dom", "--window-size=1280,1000"],
        );
        let box_ = attribute(&stdout_of(&dom), "data-box");
        let (head, bottom) = box_.split_once(' ').unwrap();
        let (head, bottom): (u32, u32) = (head.parse().unwrap(), bottom.parse().unwrap());
        assert!(head < bottom, "#{id}: {box_}");
        let shot = dir.join(format!("{id}.png"));
        let run = open_in_chromium(
            &chromium,
            &profile,
            &alone,
            &[
                &format!("--screenshot={}", shot.display()),
                "--window-size=1280,1000",
            ],
        );
        assert!(
            shot.is_file(),
            "no screenshot of #{id}: {}",
            stderr_of(&run)
        );
        assert_eq!(png_size(&std::fs::read(&shot).unwrap()), (1280, 1000));
        shots.push((shot, head, bottom.min(1000)));
    }
    let ink = ink_in_bands(&chromium, dir, &shots);
    for ((id, (_, head, bottom)), ink) in SECTIONS.iter().zip(&shots).zip(ink) {
        eprintln!("#{id}: {head} to {bottom} px, {:.1}% ink", ink * 100.0);
        assert!(
            ink > 0.01,
            "#{id} is blank below its heading: {:.3}% ink",
            ink * 100.0
        );
    }
}
