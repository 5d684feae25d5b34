//! Issue 35: a name that clings prints in a line (a student's folder, a player, an
//! engine's answer to ABOUT, a case) stays on that line, escaped, in every command and
//! every line-oriented output: a folder named `x\n::error::...` must not write a GitHub
//! workflow command into a class's log. The files keep the names as they are.

use crate::common;

use common::*;

/// A folder's name that ends its line and writes workflow commands on the next ones, with
/// the other line breaks a log viewer may split at (CR, NEL, U+2028).
const FORGED: &str =
    "x\n::error::forged\r::add-mask::secret\u{85}::warning::nel\u{2028}::notice::ls";

/// How [`FORGED`] is shown: every line break escaped.
const FORGED_SHOWN: &str =
    "x\\n::error::forged\\r::add-mask::secret\\x85::warning::nel\\u{2028}::notice::ls";

/// The lines of `text` as a log viewer could split them: at any line break.
fn log_lines(text: &str) -> Vec<&str> {
    text.split(['\n', '\r', '\u{85}', '\u{2028}', '\u{2029}'])
        .collect()
}

/// Asserts that no line of `text` is a workflow command (the runner reads one after
/// blanks too) but those `intended` accepts.
fn assert_no_forged_command(text: &str, intended: impl Fn(&str) -> bool) {
    for line in log_lines(text) {
        let line = line.trim_start();
        assert!(
            !line.starts_with("::") || intended(line),
            "a workflow command clings did not write: {line:?} in\n{text}"
        );
    }
}

/// clings' own workflow commands in `--format github`: its annotations and the fence
/// around the human report.
fn github_command(line: &str) -> bool {
    let token = |text: &str| text.len() == 32 && text.bytes().all(|b| b.is_ascii_hexdigit());
    line.starts_with("::error file=")
        || line.starts_with("::warning file=")
        || line.strip_prefix("::stop-commands::").is_some_and(token)
        || line
            .strip_prefix("::")
            .and_then(|rest| rest.strip_suffix("::"))
            .is_some_and(token)
}

/// `grade`: the progress lines, the refusal and the summary keep every name on its line;
/// grades.csv keeps one row per student (the name quoted, exact), grades.json and the
/// class report the name as it is.
#[test]
fn grade_shows_a_forged_folder_name_escaped_on_its_line() {
    let root = tempfile::tempdir().unwrap();
    let course = copy_course(&repo().join("tests/course"));
    class(
        root.path(),
        &[("alice", "passing"), (FORGED, "wrong_output")],
    );
    let refused = format!("y{FORGED}");
    std::os::unix::fs::symlink(
        course.path().join("solutions"),
        root.path().join("submissions").join(&refused),
    )
    .unwrap();
    let output = clings(course.path())
        .args(["grade", "--jobs", "1"])
        .arg(root.path().join("submissions"))
        .arg("--out")
        .arg(root.path().join("book"))
        .arg("--html")
        .arg(root.path().join("report.html"))
        .output()
        .unwrap();
    let (stdout, stderr) = (stdout_of(&output), stderr_of(&output));
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert_no_forged_command(&stdout, |_| false);
    assert_no_forged_command(&stderr, |_| false);
    for line in [
        format!("grading {FORGED_SHOWN}"),
        format!("refused y{FORGED_SHOWN}: y{FORGED_SHOWN} leads to "),
    ] {
        assert!(
            stderr.lines().any(|said| said.starts_with(&line)),
            "{line:?} not in:\n{stderr}"
        );
    }
    assert!(
        stderr
            .lines()
            .any(|line| line.starts_with(&format!("graded {FORGED_SHOWN} in "))),
        "{stderr}"
    );

    let cells = csv_cells(&root.path().join("book/grades.csv"));
    let names: Vec<&str> = cells[1..].iter().map(|row| row[0].as_str()).collect();
    assert_eq!(names, ["alice", FORGED, &refused], "{cells:?}");
    assert!(
        cells.iter().all(|row| row.len() == cells[0].len()),
        "{cells:?}"
    );
    let book: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.path().join("book/grades.json")).unwrap())
            .unwrap();
    assert_eq!(book["students"][1]["name"], FORGED);
    let page = std::fs::read_to_string(root.path().join("report.html")).unwrap();
    let read = markup(&page);
    assert!(read.text.contains(FORGED), "{page}");
}

/// `tournament`: the games' lines, the forfeit and the standings keep every player's name
/// on its line; tournament.json keeps them as they are, and an engine's answer to ABOUT
/// escaped.
#[test]
fn tournament_shows_forged_player_and_engine_names_escaped_on_their_lines() {
    let course = copy_course(&repo());
    let root = course.path();
    let dir = root.join("class").join(FORGED).join("exercises");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(repo().join("solutions/ai.c"), dir.join("ai.c")).unwrap();
    std::os::unix::fs::symlink(
        root.join("solutions"),
        root.join("class").join(format!("y{FORGED}")),
    )
    .unwrap();
    // An engine that names itself with line breaks a log viewer may split at.
    let engine = std::fs::read_to_string(repo().join("tests/programs/gomocup/engine.c"))
        .unwrap()
        .replace("testbrain", "e\\r::error::about\\xc2\\x85::error::nel");
    let engine_file = root.join("forged_engine.c");
    std::fs::write(&engine_file, engine).unwrap();

    let output = clings(root)
        .args([
            "tournament",
            "class",
            "--bot",
            "random",
            "--out",
            "t",
            "--engine",
        ])
        .arg(&engine_file)
        .output()
        .unwrap();
    let (stdout, stderr) = (stdout_of(&output), stderr_of(&output));
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert_no_forged_command(&stdout, |_| false);
    assert_no_forged_command(&stderr, |_| false);
    assert!(
        stderr.contains(&format!("y{FORGED_SHOWN} forfeits every game: refused: ")),
        "{stderr}"
    );
    // In a tournament an engine is named by its file; its ABOUT answer is a label kept
    // in tournament.json alone, escaped to one line.
    let engine_shown = "engine forged_engine";
    for shown in [FORGED_SHOWN, engine_shown] {
        // A game's line, and the standings' row.
        assert!(
            stdout
                .lines()
                .any(|line| line.starts_with('[') && line.contains(shown)),
            "{shown:?} in no game's line:\n{stdout}"
        );
        assert!(
            stdout
                .lines()
                .any(|line| line.trim_start().starts_with(char::is_numeric)
                    && line.contains(shown)),
            "{shown:?} in no standings row:\n{stdout}"
        );
    }
    let players = tournament_players(&root.join("t/tournament.json"));
    assert!(players.iter().any(|name| name == FORGED), "{players:?}");
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("t/tournament.json")).unwrap()).unwrap();
    let abouts: Vec<&str> = record["players"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|player| player["engine"]["about"].as_str())
        .collect();
    assert_eq!(abouts, ["e\\r::error::about\\x85::error::nel"], "{record}");
    let cells = csv_cells(&root.join("t/standings.csv"));
    assert_eq!(cells.len(), 1 + players.len(), "{cells:?}");
}

/// `test --submission` from a folder whose name is forged, with a hidden case whose file
/// name is: the human report and `--format github` write no workflow command but
/// clings' own (the annotations keep the case's name in their property, encoded), and the
/// step summary keeps each failing case on its table row.
#[test]
fn test_submission_shows_a_forged_case_name_escaped_on_its_line() {
    let root = ci_layout(
        &repo().join("tests/course"),
        &[("programs/wrong_output.c", "sum.c")],
        "sum",
    );
    let submission = root.path().join(FORGED);
    std::fs::rename(root.path().join("submission"), &submission).unwrap();
    let hidden = root.path().join("hidden/sum");
    std::fs::write(hidden.join(format!("{FORGED}.in")), "1 2\n").unwrap();
    std::fs::write(hidden.join(format!("{FORGED}.out")), "3\n").unwrap();
    let summary = root.path().join("summary.md");
    let test = |format: &str| {
        let output = clings(&root.path().join("course"))
            .args(["test", "--format", format, "--submission"])
            .arg(&submission)
            .args(["--fixtures", "../hidden", "--hidden-feedback", "verdicts"])
            .env("GITHUB_STEP_SUMMARY", &summary)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
        (stdout_of(&output), stderr_of(&output))
    };
    let (human, stderr) = test("human");
    assert_no_forged_command(&human, |_| false);
    assert_no_forged_command(&stderr, |_| false);
    assert!(
        human
            .lines()
            .any(|line| line.contains(&format!("{FORGED_SHOWN} (hidden)"))),
        "{human}"
    );
    let (github, stderr) = test("github");
    assert_no_forged_command(&github, github_command);
    assert_no_forged_command(&stderr, |_| false);
    // The case's name, escaped as everywhere, then encoded as a property.
    let title = "x\\n%3A%3Aerror%3A%3Aforged\\r%3A%3Aadd-mask%3A%3Asecret\\x85";
    assert!(
        github
            .lines()
            .any(|line| line.starts_with("::error file=sum.c,title=sum ") && line.contains(title)),
        "no annotation names the case: {github}"
    );
    let table = std::fs::read_to_string(&summary).unwrap();
    let failing = table.split("### failing cases").nth(1).unwrap();
    assert!(
        failing
            .lines()
            .filter(|line| !line.is_empty())
            .all(|line| line.starts_with('|') && line.ends_with('|')),
        "{table}"
    );
    assert!(!failing.contains(['\r', '\u{85}', '\u{2028}']), "{table:?}");
    assert!(failing.contains("x&#92;n::error::forged&#92;r"), "{table}");
}
