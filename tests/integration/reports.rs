//! What reports show of text clings did not write, graded by the real binary with the real
//! compiler: control characters never reach a terminal raw, nothing a program prints
//! becomes a GitHub workflow command, a hidden case's input leaves through no report, JUnit
//! stays XML, Gradescope's results.json follows its specification, and a misplaced
//! `--fixtures` folder is an error.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::*;

/// The test course, a submission, and hidden cases in `hidden/sum/`; `exercises` are
/// those graded.
struct Setup {
    root: tempfile::TempDir,
    exercises: Vec<&'static str>,
}

impl Setup {
    /// `tests/hostile/<program>.c` as the submission's sum.c, graded with a hidden case
    /// `09_hidden` of `input`.
    fn new(program: &str, hidden_input: &str) -> Setup {
        let setup = Setup::with(&[(&format!("hostile/{program}.c"), "sum.c")], &["sum"]);
        let hidden = setup.path("hidden/sum");
        std::fs::write(hidden.join("09_hidden.in"), hidden_input).unwrap();
        std::fs::write(hidden.join("09_hidden.out"), "0\n").unwrap();
        // The hint fits a wrong output, and a sanitizer report (the programs that forge one).
        std::fs::write(
            hidden.join("09_hidden.toml"),
            "hint = \"Think big.\"\n[[hints]]\nverdict = \"sanitizer\"\ntext = \"Think big.\"\n",
        )
        .unwrap();
        setup
    }

    /// `programs` (`(file in tests/, name in the submission)`) as the submission, no
    /// hidden case yet, `exercises` graded.
    fn with(programs: &[(&str, &str)], exercises: &[&'static str]) -> Setup {
        Setup {
            root: ci_layout(&repo().join("tests/course"), programs, "sum"),
            exercises: exercises.to_vec(),
        }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.root.path().join(relative)
    }

    /// `clings test EXERCISES --submission ../submission --fixtures ../hidden
    /// --hidden-feedback verdicts` plus `args`.
    fn test(&self, args: &[&str]) -> Output {
        clings(&self.path("course"))
            .arg("test")
            .args(&self.exercises)
            .args(["--submission", "../submission"])
            .args(["--fixtures", "../hidden", "--hidden-feedback", "verdicts"])
            .args(args)
            .env("GITHUB_STEP_SUMMARY", self.path("summary.md"))
            .output()
            .unwrap()
    }

    /// Every report of the same grading, by name: human, json, junit, gradescope, github (stdout, with
    /// the fenced log and the annotations) and its step summary, what `test` wrote on
    /// stderr, and a class of one graded with `grade`: its gradebook, its page, its stderr.
    fn every_format(&self) -> Reports {
        let mut reports = Vec::new();
        for format in ["json", "junit", "gradescope"] {
            let file = self.path(&format!("report.{format}"));
            let output = self.test(&["--format", format, "--output", file.to_str().unwrap()]);
            assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
            if format == "json" {
                reports.push(("human", stdout_of(&output)));
                reports.push(("stderr of test", stderr_of(&output)));
            }
            reports.push((format, std::fs::read_to_string(file).unwrap()));
        }
        let output = self.test(&["--format", "github"]);
        assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
        reports.push(("github", stdout_of(&output)));
        let summary = std::fs::read_to_string(self.path("summary.md")).unwrap();
        reports.push(("step summary", summary));
        let class = self.path("class/student");
        std::fs::create_dir_all(&class).unwrap();
        for entry in std::fs::read_dir(self.path("submission")).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(entry.path(), class.join(entry.file_name())).unwrap();
        }
        let output = clings(&self.path("course"))
            .args(["grade", "../class", "--fixtures", "../hidden"])
            .args(["--hidden-feedback", "verdicts"])
            .args(["--out", "../book", "--html", "../report.html"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
        reports.push(("stderr of grade", stderr_of(&output)));
        for file in ["book/grades.json", "book/grades.csv", "report.html"] {
            reports.push((file, std::fs::read_to_string(self.path(file)).unwrap()));
        }
        Reports(reports)
    }
}

/// Reports by name (see [`Setup::every_format`]).
struct Reports(Vec<(&'static str, String)>);

impl Reports {
    fn get(&self, name: &str) -> &str {
        let found = self.0.iter().find(|(report, _)| *report == name);
        &found.unwrap_or_else(|| panic!("no report {name}")).1
    }

    fn json(&self) -> serde_json::Value {
        serde_json::from_str(self.get("json")).unwrap()
    }
}

/// `text` with GitHub's stop-commands token, random hex, replaced: a number looked for
/// may be in it by chance.
fn without_token(text: &str) -> String {
    let token = text
        .lines()
        .find_map(|line| line.strip_prefix("::stop-commands::"));
    token.map_or(text.to_string(), |token| text.replace(token, "TOKEN"))
}

#[test]
fn escape_sequences_are_shown_escaped_never_sent() {
    let setup = Setup::new("terminal_escapes", "1 1\n");
    for color in ["never", "always"] {
        let output = setup.test(&["--color", color]);
        let stdout = stdout_of(&output);
        // With colour on, clings' own escapes are colours (SGR, `ESC [ … m`) and nothing else.
        let foreign = stdout.split('\x1b').skip(1).find(|rest| {
            let params = rest.strip_prefix('[').unwrap_or("!");
            let end = params.find(|c: char| !(c.is_ascii_digit() || c == ';'));
            end.is_none_or(|end| !params[end..].starts_with('m'))
        });
        assert!(
            foreign.is_none(),
            "a raw escape sequence: {foreign:?}\n{stdout}"
        );
        assert!(
            !stdout.contains(['\x07', '\r', '\x01', '\x7f', '\u{202e}']),
            "{stdout:?}"
        );
        // The diff (stdout) and stderr show each sequence as text.
        assert!(
            stdout.contains("\\x1b]52;c;Y2xpbmdzLXB3bmVk\\x07"),
            "{stdout}"
        );
        assert!(stdout.contains("\\x1b[2J\\x1b[H"), "{stdout}");
        assert!(stdout.contains("\\x1b[31mred\\x1b[0m"), "{stdout}");
        assert!(stdout.contains("\\u{202e}!won\\x01\\x7f"), "{stdout}");
    }
}

#[test]
fn compiler_diagnostics_are_recoloured_by_clings() {
    let setup = Setup::new("forged_line", "1 1\n");
    // A source line quoted by gcc can hold anything: here an OSC 52 and a SOH.
    std::fs::write(
        setup.path("submission/sum.c"),
        b"int main(void) { return \"\x1b]52;c;cHduZWQ=\x07\x01\" oops; }\n",
    )
    .unwrap();
    let output = setup.test(&["--color", "always"]);
    let stdout = stdout_of(&output);
    assert!(
        !stdout.contains("52;c;"),
        "the OSC sequence is removed: {stdout}"
    );
    assert!(stdout.contains("\\x01"), "{stdout}");
    assert!(
        stdout.contains("\x1b[1;31merror:\x1b[0m"),
        "gcc's words coloured by clings: {stdout:?}"
    );
    let plain = stdout_of(&setup.test(&["--color", "never"]));
    assert!(
        !plain.contains('\x1b') && plain.contains("error:"),
        "{plain:?}"
    );
}

/// Lines the Actions runner would execute: outside a `::stop-commands::TOKEN` … `::TOKEN::`
/// region, every line that starts with `::` after blanks (the runner trims them), and
/// every line holding the legacy `##[` form. Returns them and the fenced lines.
fn live_commands(stdout: &str) -> (Vec<String>, Vec<String>) {
    let (mut live, mut fenced) = (Vec::new(), Vec::new());
    let mut token: Option<String> = None;
    for line in stdout.lines() {
        let trimmed = line.trim_start();
        match &token {
            Some(open) => {
                if trimmed.eq_ignore_ascii_case(&format!("::{open}::")) {
                    token = None;
                } else {
                    fenced.push(line.to_string());
                }
            }
            None if trimmed.starts_with("::") || line.contains("##[") => {
                live.push(line.to_string());
                if let Some(open) = trimmed.strip_prefix("::stop-commands::") {
                    token = Some(open.to_string());
                }
            }
            None => {}
        }
    }
    assert!(token.is_none(), "a stop-commands region is never closed");
    (live, fenced)
}

#[test]
fn program_output_never_becomes_a_workflow_command() {
    let setup = Setup::new("workflow_commands", "1 1\n");
    let output = setup.test(&["--format", "github"]);
    let stdout = stdout_of(&output);
    let (live, fenced) = live_commands(&stdout);
    let token = live[0]
        .strip_prefix("::stop-commands::")
        .unwrap_or_else(|| panic!("the log is fenced first: {stdout}"));
    assert_eq!(token.len(), 32, "{token}");
    for line in &live[1..] {
        assert!(
            line.starts_with("::error file=sum.c,") || line.starts_with("::warning file=sum.c,"),
            "only clings' annotations are live: {line}\n{stdout}"
        );
        assert!(!line.contains("forged"), "{line}");
    }
    assert!(
        fenced
            .iter()
            .any(|line| line.trim_start() == "::error file=x.c,line=1::forged on the runner"),
        "the forged command is shown, fenced: {stdout}"
    );
    // Another run, another token.
    let again = stdout_of(&setup.test(&["--format", "github"]));
    assert!(!again.contains(token), "{again}");
}

#[test]
fn a_line_directive_names_no_other_file_in_annotations() {
    let setup = Setup::new("forged_line", "1 1\n");
    let stdout = stdout_of(&setup.test(&["--format", "github"]));
    assert!(!stdout.contains("file=forged.c"), "{stdout}");
    let annotation = stdout
        .lines()
        .find(|line| line.starts_with("::error file=sum.c,title=sum%3A compiler error::"))
        .unwrap_or_else(|| panic!("the error, on the graded file, no line: {stdout}"));
    assert!(annotation.contains("forged.c:3:12: ") && annotation.contains("undeclared"));
    // gcc quotes the source in its messages: what the runner would decode stays as written.
    std::fs::write(
        setup.path("submission/sum.c"),
        "#error \"100%0A::error file=x.c::forged%2C\"\n",
    )
    .unwrap();
    let stdout = stdout_of(&setup.test(&["--format", "github"]));
    let (live, _) = live_commands(&stdout);
    assert!(
        live.iter()
            .any(|line| line.starts_with("::error file=sum.c,line=1")
                && line.contains("100%250A::error file=x.c::forged%252C")),
        "{stdout}"
    );
}

#[test]
fn the_step_summary_escapes_markdown_and_html() {
    let setup = Setup::new("stdin_in_sanitizer_line", "1 1\n");
    // A public case whose input the fake sanitizer line quotes: Markdown and HTML.
    let fixtures = setup.path("course/fixtures/sum");
    std::fs::write(fixtures.join("03_markup.in"), "<b>x</b> | `y` [l](u) *_~\n").unwrap();
    std::fs::write(fixtures.join("03_markup.out"), "0\n").unwrap();
    setup.test(&["--format", "github"]);
    let summary = std::fs::read_to_string(setup.path("summary.md")).unwrap();
    // The case's name is a file's, escaped as a message is: `_` is Markdown's too.
    let row = summary
        .lines()
        .find(|line| line.contains("03&#95;markup"))
        .unwrap_or_else(|| panic!("{summary}"));
    assert_eq!(row.matches('|').count(), 5, "four cells: {row}");
    assert!(
        row.contains("&lt;b&gt;x&lt;/b&gt; &#124; &#96;y&#96; &#91;l&#93;(u) &#42;&#95;&#126;"),
        "{row}"
    );
}

/// Writes the case `name` in `dir`: its input (none when empty), expected output, `.toml`
/// (none when empty), and `files`, each `(folder, file, content)`: `given/given.txt`
/// becomes `<name>.given/given.txt`.
fn write_case(
    dir: &Path,
    name: &str,
    input: &str,
    expected: &str,
    toml: &str,
    files: &[(&str, &str, &str)],
) {
    std::fs::create_dir_all(dir).unwrap();
    for (extension, text) in [("in", input), ("toml", toml)] {
        if !text.is_empty() {
            std::fs::write(dir.join(format!("{name}.{extension}")), text).unwrap();
        }
    }
    std::fs::write(dir.join(format!("{name}.out")), expected).unwrap();
    for (folder, file, content) in files {
        let folder = dir.join(format!("{name}.{folder}"));
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join(file), content).unwrap();
    }
}

/// Each hidden case of the grading below, the way `spills_the_case` fails it, and its
/// verdict.
const SPILLS: [(&str, &str, &str); 10] = [
    ("h01_echo", "echo", "wrong_output"),
    ("h02_file", "file", "wrong_output"),
    ("h03_missing", "missing", "wrong_output"),
    ("h04_status", "status", "wrong_output"),
    ("h05_nonzero", "nonzero", "nonzero_exit"),
    ("h06_crash", "crash", "crashed"),
    ("h07_sanitizer", "sanitizer", "sanitizer"),
    ("h08_timeout", "timeout", "timeout"),
    ("h09_flood", "flood", "output_limit"),
    ("h10_memory", "memory", "memory_limit"),
];

/// Every field of a hidden case but its name — input, expected output, arguments, the
/// files given and expected (names and contents), exit status, limits, description — and
/// everything its program made of them (stdout, stderr, a file it left, an exit status, a
/// signal, a sanitizer line and its line number, a time), in every report and on stderr:
/// none of it shows, in any encoding the program wrote it in, while the same program on
/// public cases shows it all. What shows of a hidden case is its name, verdict, points,
/// hint and the verdict's fixed sentence.
#[test]
fn nothing_of_a_hidden_case_but_its_name_verdict_and_hint_reaches_a_report() {
    let (secret, public) = (marker("hidden"), marker("public"));
    let program = "hostile/spills_the_case.c";
    let setup = Setup::with(
        &[(program, "sum.c"), (program, "hello.c")],
        &["sum", "hello"],
    );
    // sum: its public cases pass (two numbers); its hidden cases fail every way there is,
    // h01 first, so the reports show its details (the first failure, and the first diff),
    // and those of h06 and h07 (the sharpest hints).
    let hidden = setup.path("hidden/sum");
    let (left, missing) = (format!("f{secret}.txt"), format!("m{secret}.txt"));
    for (name, how, _) in SPILLS {
        let mut toml = format!(
            "description = \"{secret} described\"\nargs = [\"{secret}-arg\"]\nhint = \"Think big.\"\n"
        );
        let (mut input, mut expected) = (format!("{how}\n{secret}-in\n"), String::new());
        let mut files = vec![("given", "given.txt", format!("{secret}-given\n"))];
        match how {
            "echo" => expected = format!("{secret}-out\n"),
            "file" => {
                input = format!("file\n{left}\n{secret}-in\n");
                files.push(("expected", &left, format!("{secret}-left\n")));
            }
            "missing" => files.push(("expected", &missing, "x\n".into())),
            "status" => toml.push_str("exit_code = 211\n"),
            "crash" => toml.push_str("[[hints]]\nverdict = \"crashed\"\noutput_lacks = \"?\"\ntext = \"Sharp.\"\n"),
            "sanitizer" => toml.push_str("[[hints]]\nverdict = \"sanitizer\"\nreport_contains = \"runtime\"\ntext = \"Sharp.\"\n"),
            "timeout" => toml.push_str("time_limit_ms = 517\n"),
            "flood" => toml.push_str("output_limit_bytes = 37888\n"),
            "memory" => toml.push_str("memory_mb = 93\n"),
            _ => {}
        }
        let files: Vec<(&str, &str, &str)> = files
            .iter()
            .map(|(folder, file, content)| (*folder, *file, content.as_str()))
            .collect();
        write_case(&hidden, name, &input, &expected, &toml, &files);
    }
    // hello: public cases that the program fails the same ways, before the course's own.
    let fixtures = setup.path("course/fixtures/hello");
    let toml = format!("description = \"{public} described\"\nargs = [\"{public}-arg\"]\n");
    let given = [("given", "given.txt", &*format!("{public}-given\n"))];
    let input = format!("echo\n{public}-in\n");
    write_case(
        &fixtures,
        "00_echo",
        &input,
        &format!("{public}-out\n"),
        &toml,
        &given,
    );
    let input = format!("sanitizer\n{public}-in\n");
    write_case(&fixtures, "00_sanitizer", &input, "", &toml, &given);

    let reports = setup.every_format();
    // Each hidden case failed as its program meant it to, with the fixed sentence.
    let json = reports.json();
    let cases = json["exercises"][0]["cases"].as_array().unwrap();
    for (case, (name, _, verdict)) in cases[2..].iter().zip(SPILLS) {
        assert_eq!(
            (case["name"].as_str(), case["verdict"].as_str()),
            (Some(name), Some(verdict)),
            "{case}"
        );
        assert_eq!(case["hidden"], true);
        assert!(
            case["time_ms"].is_null() && case["description"].is_null() && case["diff"].is_null(),
            "{case}"
        );
        let sealed = ["the output differs", "the program", "the sanitizer found"];
        let message = case["message"].as_str().unwrap();
        assert!(
            sealed.iter().any(|start| message.starts_with(start)),
            "{case}"
        );
        let hint = match (name, verdict) {
            ("h06_crash" | "h07_sanitizer", _) => Some("Sharp."),
            (_, "wrong_output") => Some("Think big."),
            _ => None,
        };
        assert_eq!(case["hint"].as_str(), hint, "{case}");
    }
    // What the program wrote, as it wrote it (its stdout, stderr and a file hold the
    // input in hex too), and what an exit status, a signal or a limit would say (the line
    // number of a sanitizer line, public cases show too: below).
    let hex = |text: &str| {
        text.bytes()
            .map(|byte| format!("{byte:02x}"))
            .collect::<String>()
    };
    let said = [
        "status 223",
        "expects 211",
        "status 229",
        "SIGBUS",
        "0.517 s",
        "37 KiB",
        "93 MiB",
    ];
    for (report, text) in &reports.0 {
        assert!(
            !text.contains(&secret) && !text.contains(&hex(&secret)),
            "{report} leaks the hidden case:\n{text}"
        );
        for words in said {
            assert!(!text.contains(words), "{report} says {words:?}:\n{text}");
        }
        // The exit statuses as numbers anywhere (the markers are letters, their hex
        // pairs start with 6 or 7, and a public case takes milliseconds); but in the
        // page, whose charts' coordinates hold any number, drawn from the gradebook.
        if *report == "report.html" {
            continue;
        }
        let text = without_token(text);
        for status in ["223", "211", "229"] {
            assert!(!text.contains(status), "{report} holds {status}:\n{text}");
        }
    }
    // The same program, on public cases, has every report show what it did.
    for report in [
        "human",
        "json",
        "junit",
        "github",
        "step summary",
        "book/grades.json",
        "report.html",
    ] {
        let text = reports.get(report);
        assert!(
            text.contains(&format!("{public}-in")),
            "{report} shows a public case's input or output:\n{text}"
        );
    }
    let human = reports.get("human");
    for shown in [" described", "-arg", "-given", "-out"] {
        assert!(
            human.contains(&format!("{public}{shown}")),
            "{shown}: {human}"
        );
    }
    let hello = &json["exercises"][1]["cases"];
    assert!(
        hello[0]["diff"]
            .as_str()
            .unwrap()
            .contains(&format!("-{public}-out")),
        "{hello}"
    );
    assert!(
        hello[1]["message"]
            .as_str()
            .unwrap()
            .contains("sum.c:4321:1: runtime error"),
        "{hello}"
    );
    // Nor does a hidden case get a time, or a line in the graded file.
    for line in human.lines().filter(|line| line.contains(" (hidden)")) {
        assert!(!line.contains(" ms"), "no time for a hidden case: {line}");
    }
    let github = reports.get("github");
    let annotation = github
        .lines()
        .find(|line| line.starts_with("::error") && line.contains("h07_sanitizer"))
        .unwrap_or_else(|| panic!("{github}"));
    assert!(!annotation.contains("line="), "{annotation}");
    // Each annotation is one line, its hint too (after an escaped line break).
    let (live, fenced) = live_commands(github);
    assert_eq!(
        live.len() + fenced.len() + 1,
        github.lines().count(),
        "{github}"
    );
    assert!(
        annotation.contains("Sharp."),
        "the course's hint stays: {annotation}"
    );
    let report = junit(reports.get("junit"));
    for case in &report.test_suites[0].test_cases[2..] {
        assert_eq!(case.time, None, "{case:?}");
    }
}

/// JUnit that parses back, with only characters XML 1.0 allows: a lenient parser is
/// not the only reader (Jenkins, GitLab), and XML forbids most controls even as `&#1;`.
fn junit(xml: &str) -> quick_junit::Report {
    let forbidden = |c: char| {
        (c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\u{7f}'..='\u{9f}'))
            || matches!(c, '\u{fffe}' | '\u{ffff}')
    };
    assert!(!xml.contains(forbidden), "not XML 1.0: {xml:?}");
    assert!(!xml.contains("&#"), "character references: {xml:?}");
    quick_junit::Report::deserialize_from_str(xml)
        .unwrap_or_else(|err| panic!("not JUnit ({err}): {xml:?}"))
}

#[test]
fn junit_with_control_bytes_and_invalid_utf8_parses() {
    let setup = Setup::new("control_bytes", "1 1\n");
    let output = setup.test(&["--format", "junit"]);
    let xml = stdout_of(&output);
    let report = junit(&xml);
    match &report.test_suites[0].test_cases[0].status {
        quick_junit::TestCaseStatus::NonSuccess { message, .. } => {
            let message = message.as_ref().unwrap().as_str();
            assert!(
                message.contains("\\x01\\x1b[2J\\x00\\u{ffff}\u{fffd}\u{fffd}"),
                "{message:?}"
            );
        }
        other => panic!("expected a failure, got {other:?}"),
    }
    // The compiler's diagnostics (system-out) quote a source line with control bytes.
    std::fs::write(
        setup.path("submission/sum.c"),
        b"int main(void) { return \"\x01\x1b]0;t\x07\xff\xef\xbf\xbf\" x; }\n",
    )
    .unwrap();
    let xml = stdout_of(&setup.test(&["--format", "junit"]));
    let report = junit(&xml);
    let out = report.test_suites[0].system_out.as_ref().unwrap();
    assert!(out.contains("error:") && out.contains("\\x01"), "{out:?}");
}

/// The body of the JUnit failure of case `index` of the first suite.
fn failure_body(report: &quick_junit::Report, index: usize) -> String {
    match &report.test_suites[0].test_cases[index].status {
        quick_junit::TestCaseStatus::NonSuccess { description, .. } => description
            .as_ref()
            .map(|body| body.as_str().to_string())
            .unwrap_or_default(),
        other => panic!("expected a failure, got {other:?}"),
    }
}

/// The hidden input's secret, which the program echoes.
const SECRET: &str = "SeCrEt-7q4z";

/// A JUnit failure's body holds what the human report shows under the case: the hint, and
/// for a public case its input and the diff, escaped (markup stays text, controls are
/// written out); a hidden case's holds its hint alone, never its input nor the output
/// that quotes it.
#[test]
fn junit_failure_bodies_show_the_evidence_of_public_cases_only() {
    let setup = Setup::new("echo_input", &format!("{SECRET}\n"));
    let markup = "</failure>]]><injected a=\"&amp;\"/><!--\x01";
    write_case(
        &setup.path("course/fixtures/sum"),
        "03_markup",
        &format!("{markup}\n"),
        "x\n",
        "hint = \"Ring \\u0007 the bell.\"\n",
        &[],
    );
    let xml = stdout_of(&setup.test(&["--format", "junit"]));
    assert!(!xml.contains(SECRET), "the hidden input leaks:\n{xml}");
    let report = junit(&xml);
    let small = failure_body(&report, 0);
    assert!(small.contains("input:\n  1 2\n"), "{small}");
    assert!(
        small.contains(
            "--- expected\n+++ your output\n@@ expected line 1, your line 1 @@\n-3\n+\\x1b[2J1 2\n"
        ),
        "{small}"
    );
    let negative = failure_body(&report, 1);
    assert!(
        negative.starts_with("hint: Negative numbers add like any other.\ninput:\n"),
        "{negative}"
    );
    let shown = "</failure>]]><injected a=\"&amp;\"/><!--\\x01";
    assert_eq!(
        failure_body(&report, 2),
        format!(
            "hint: Ring \\x07 the bell.\ninput:\n  {shown}\n--- expected\n+++ your output\n\
                 @@ expected line 1, your line 1 @@\n-x\n+\\x1b[2J{shown}\n ^ column 1"
        )
    );
    assert_eq!(failure_body(&report, 3), "hint: Think big.");
}

/// `clings test sum --fixtures DIR` (and `grade`) must fail with exit 2, naming `sum/`.
fn assert_fixtures_error(setup: &Setup, dir: &str, found: &str) {
    let output = clings(&setup.path("course"))
        .args([
            "test",
            "sum",
            "--submission",
            "../submission",
            "--fixtures",
            dir,
        ])
        .output()
        .unwrap();
    let stderr = stderr_of(&output);
    assert_eq!(output.status.code(), Some(2), "{dir}: {stderr}");
    assert!(
        stderr.contains("sum/") && stderr.contains(found),
        "{dir}: {stderr}"
    );
    let output = clings(&setup.path("course"))
        .args(["grade", "../class", "--fixtures", dir, "--out", "../book"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(2),
        "{dir}: {}",
        stderr_of(&output)
    );
    assert!(
        stderr_of(&output).contains("sum/") && stderr_of(&output).contains(found),
        "{}",
        stderr_of(&output)
    );
    assert!(!setup.path("book").exists(), "nothing graded");
}

#[test]
fn a_misplaced_fixtures_folder_is_an_error() {
    let setup = Setup::new("status_from_input", "1 2\n");
    std::fs::create_dir_all(setup.path("class/student")).unwrap();
    // One level too deep: the exercise's folder itself.
    assert_fixtures_error(&setup, "../hidden/sum", "09_hidden.out");
    // One level too high: the folder that holds hidden/.
    assert_fixtures_error(&setup, "..", "hidden/");
    // A typo in an exercise's folder.
    std::fs::rename(setup.path("hidden/sum"), setup.path("hidden/smu")).unwrap();
    assert_fixtures_error(&setup, "../hidden", "smu/");
    std::fs::rename(setup.path("hidden/smu"), setup.path("hidden/sum")).unwrap();
    // A stray file beside the exercises' folders.
    std::fs::write(setup.path("hidden/notes.txt"), "").unwrap();
    assert_fixtures_error(&setup, "../hidden", "notes.txt");
    std::fs::remove_file(setup.path("hidden/notes.txt")).unwrap();
    // An empty folder (a tarball that did not unpack), and none at all.
    std::fs::create_dir_all(setup.path("empty")).unwrap();
    // Each says what to do.
    assert_fixtures_error(
        &setup,
        "../empty",
        "found nothing): put each exercise's cases (NAME.in, NAME.out) in a folder named after it",
    );
    assert_fixtures_error(
        &setup,
        "../hiden",
        "does not exist: give --fixtures the folder that holds the hidden cases",
    );
    // Hidden cases for other exercises only: `hello` is not graded here.
    std::fs::rename(setup.path("hidden/sum"), setup.path("hidden/hello")).unwrap();
    let output = clings(&setup.path("course"))
        .args(["test", "sum", "--fixtures", "../hidden"])
        .output()
        .unwrap();
    assert_error(&output, "found hello/");
}

#[test]
fn fixture_names_that_are_not_utf8_are_an_error() {
    use std::os::unix::ffi::OsStrExt;
    let setup = Setup::new("status_from_input", "1 2\n");
    let hidden = setup.path("hidden/sum");
    for name in [&b"\xff.out"[..], &b"\xfe.out"[..]] {
        std::fs::write(hidden.join(std::ffi::OsStr::from_bytes(name)), "3\n").unwrap();
    }
    let output = setup.test(&[]);
    let stderr = stderr_of(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("\\xFE.out") && stderr.contains("UTF-8"),
        "{stderr}"
    );
}

/// Hidden cases for some exercises only are fine: the others just have none.
#[test]
fn hidden_cases_for_some_exercises_only_grade() {
    let setup = Setup::new("status_from_input", "1 2\n");
    std::fs::write(setup.path("hidden/sum/09_hidden.out"), "3\n").unwrap();
    let output = clings(&setup.path("course"))
        .args([
            "test",
            "--submission",
            "../submission",
            "--fixtures",
            "../hidden",
            "--hidden-feedback",
            "verdicts",
        ])
        .args(["--format", "json"])
        .output()
        .unwrap();
    let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(verdicts(&document, 0), ["passed", "passed", "passed"]);
    assert_eq!(document["exercises"][1]["name"], "hello");
}

/// The tests of Gradescope's `results.json`, by name.
fn gradescope_tests(
    results: &serde_json::Value,
) -> std::collections::BTreeMap<String, serde_json::Value> {
    results["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|test| (test["name"].as_str().unwrap().to_string(), test.clone()))
        .collect()
}

/// `--format gradescope --output FILE` on the test course in chapters (`hello` practice):
/// `sum` and `hello` from `programs`, and two hidden cases of `sum`, one of which no
/// correct program passes; the file as Gradescope reads it, and the JSON report of the
/// same grading.
fn gradescope_grading(programs: &[(&str, &str)]) -> (serde_json::Value, serde_json::Value) {
    let setup = Setup::with(programs, &["sum", "hello"]);
    hello_as_practice(&setup.path("course"));
    let hidden = setup.path("hidden/sum");
    std::fs::write(hidden.join("09_hidden.in"), "4000 321\n").unwrap();
    std::fs::write(hidden.join("09_hidden.out"), "4321\n").unwrap();
    std::fs::write(hidden.join("10_hidden.in"), "4000 321\n").unwrap();
    std::fs::write(hidden.join("10_hidden.out"), "9999\n").unwrap();
    std::fs::write(hidden.join("10_hidden.toml"), "hint = \"Think big.\"\n").unwrap();
    let file = setup.path("results/results.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let output = setup.test(&["--format", "gradescope", "--output", file.to_str().unwrap()]);
    assert_ne!(output.status.code(), Some(2), "{}", stderr_of(&output));
    assert!(
        stdout_of(&output).contains("sum"),
        "the log gets the human report: {}",
        stdout_of(&output)
    );
    let results = gradescope_results(&std::fs::read_to_string(&file).unwrap());
    let json = stdout_of(&setup.test(&["--format", "json"]));
    (results, serde_json::from_str(&json).unwrap())
}

/// Gradescope's results hold a test per case with its points, a hidden case is shown once
/// the grades are published and then says what every other report says of it (its
/// verdict's sentence and its hint, never its input or expected output), the score counts
/// the graded chapter only, as the JSON report's total does, and practice is one line of
/// the output, no test.
#[test]
fn gradescope_results_count_the_graded_chapter_and_keep_hidden_cases_hidden() {
    let (results, json) = gradescope_grading(&[
        ("programs/passing.c", "sum.c"),
        ("course/exercises/hello.c", "hello.c"),
    ]);
    let tests = gradescope_tests(&results);
    let names: Vec<&str> = tests.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "sum/01_small",
            "sum/02_negative",
            "sum/09_hidden",
            "sum/10_hidden"
        ]
    );
    let scores: Vec<(f64, f64, &str, &str)> = results["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|test| {
            (
                test["score"].as_f64().unwrap(),
                test["max_score"].as_f64().unwrap(),
                test["status"].as_str().unwrap(),
                test["visibility"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        scores,
        [
            (1.0, 1.0, "passed", "visible"),
            (2.0, 2.0, "passed", "visible"),
            (1.0, 1.0, "passed", "after_published"),
            (0.0, 1.0, "failed", "after_published"),
        ]
    );
    // No score of its own: Gradescope totals the tests, the JSON report's points.
    assert!(results.get("score").is_none(), "{results}");
    let total: f64 = scores.iter().map(|(score, ..)| score).sum();
    assert_eq!(json["points"], total as u64);
    // What students see before the grades are published counts the public cases alone.
    assert_eq!(
        results["output"],
        "Points: 3/3\nPractice, not counted: After class 0/1"
    );
    assert_eq!(results["output_format"], "text");
    let hidden = tests["sum/10_hidden"]["output"].as_str().unwrap();
    assert_eq!(
        hidden,
        "the output differs from the expected output\nhint: Think big.\n"
    );
    let text = serde_json::to_string(&results).unwrap();
    for secret in ["4000", "321", "9999"] {
        assert!(
            !text.contains(secret),
            "the hidden case leaks {secret}: {text}"
        );
    }
}

/// A compile error fails every case of the exercise; the compiler's message is on its
/// first case, and a practice chapter that passes adds nothing to the score.
#[test]
fn gradescope_results_show_a_compile_error_once() {
    let (results, json) = gradescope_grading(&[
        ("programs/compile_error.c", "sum.c"),
        ("course/solutions/hello.c", "hello.c"),
    ]);
    let tests = gradescope_tests(&results);
    assert!(tests.values().all(|test| test["score"] == 0), "{results}");
    assert_eq!(json["points"], 0);
    assert!(!tests.contains_key("hello/01_hello"), "{results}");
    assert_eq!(
        results["output"],
        "Points: 0/3\nPractice, not counted: After class 1/1"
    );
    let sum: Vec<&serde_json::Value> = tests
        .iter()
        .filter(|(name, _)| name.starts_with("sum/"))
        .map(|(_, test)| test)
        .collect();
    assert_eq!(sum.len(), 4);
    for test in &sum {
        assert_eq!(test["status"], "failed", "{test}");
        assert_eq!(test["score"], 0, "{test}");
    }
    let first = sum[0]["output"].as_str().unwrap();
    assert!(
        first.contains("sum.c:7:27: error: expected ';' before 'printf'"),
        "the compiler's message: {first}"
    );
    for test in &sum[1..] {
        assert!(
            !test["output"].as_str().unwrap().contains("error:"),
            "once: {test}"
        );
    }
}

/// Gradescope's results stay JSON, with no escape sequence in a test's output, whatever a
/// program prints: control bytes are written out, invalid UTF-8 is U+FFFD.
#[test]
fn gradescope_results_with_control_bytes_and_invalid_utf8_parse() {
    let setup = Setup::new("control_bytes", "1 1\n");
    let text = stdout_of(&setup.test(&["--format", "gradescope"]));
    let results = gradescope_results(&text);
    let output = results["tests"][0]["output"].as_str().unwrap();
    assert!(
        output.contains("\\x01\\x1b[2J\\x00\\u{ffff}\u{fffd}\u{fffd}"),
        "{output:?}"
    );
}
