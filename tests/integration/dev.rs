//! `clings dev check`, `dev new-case` and `dev bless`: each check rule is shown to fire
//! by breaking a copy of a course that passes.

use crate::common;

use std::path::Path;

use common::*;

/// A copy of the test course, which passes `dev check` as it is.
fn course() -> tempfile::TempDir {
    copy_course(&repo().join("tests/course"))
}

/// Runs `dev check`; returns its exit code and its whole output.
fn check(dir: &Path) -> (Option<i32>, String) {
    let output = clings(dir).args(["dev", "check"]).output().unwrap();
    (
        output.status.code(),
        format!("{}{}", stdout_of(&output), stderr_of(&output)),
    )
}

/// Asserts that `dev check` fails and names `place` with a problem containing `what`.
fn assert_problem(dir: &Path, place: &str, what: &str) {
    let (code, output) = check(dir);
    assert_eq!(code, Some(1), "{output}");
    let found = output.lines().any(|line| {
        line.trim_start().starts_with("- ") && line.contains(place) && line.contains(what)
    });
    assert!(found, "no problem `{place}: …{what}…` in:\n{output}");
}

fn write(dir: &Path, file: &str, text: &str) {
    let path = dir.join(file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn intact_course_passes_with_case_times() {
    let dir = course();
    let (code, output) = check(dir.path());
    assert_eq!(code, Some(0), "{output}");
    assert!(output.contains("0 problems"), "{output}");
    assert!(
        output.contains("solution  01_small") && output.contains("ms of 1000 ms"),
        "{output}"
    );
    assert!(output.contains("subtracts.c  fails 2/2"), "{output}");
    assert!(
        output.contains("skeleton  skeletons/sum.c  fails 2/2"),
        "{output}"
    );
}

#[test]
fn the_shipped_gomoku_course_passes() {
    let dir = copy_course(&repo());
    let (code, output) = check(dir.path());
    assert_eq!(code, Some(0), "{output}");
}

#[test]
fn broken_info_toml_is_an_error() {
    let dir = course();
    write(
        dir.path(),
        "info.toml",
        "format_version = 1\n[[exercises]]\nname = \"sum\"\n",
    );
    let (code, output) = check(dir.path());
    assert_eq!(code, Some(2), "{output}");
    assert!(
        output.contains("info.toml") && output.contains("missing field"),
        "{output}"
    );
}

#[test]
fn missing_skeleton_and_solution() {
    let dir = course();
    std::fs::remove_file(dir.path().join("solutions/hello.c")).unwrap();
    assert_problem(
        dir.path(),
        "solutions/hello.c",
        "solution of hello is missing",
    );
    std::fs::remove_file(dir.path().join("exercises/hello.c")).unwrap();
    assert_problem(
        dir.path(),
        "exercises/hello.c",
        "skeleton of hello is missing",
    );
}

#[test]
fn exercise_without_cases() {
    let dir = course();
    std::fs::remove_dir_all(dir.path().join("fixtures/hello")).unwrap();
    // It says how to add one (hello reads no input: no `--input`).
    assert_problem(
        dir.path(),
        "fixtures/hello",
        "hello has no cases yet: add one with `clings dev new-case hello 01_first --description",
    );
    std::fs::create_dir(dir.path().join("fixtures/hello")).unwrap();
    assert_problem(dir.path(), "fixtures/hello", "hello has no cases yet");
}

#[test]
fn orphan_fixture_folder_and_files() {
    let dir = course();
    write(dir.path(), "fixtures/ghost/01.out", "boo\n");
    assert_problem(dir.path(), "fixtures/ghost", "not an exercise");
    let dir = course();
    write(dir.path(), "fixtures/sum/notes.txt", "todo\n");
    assert_problem(dir.path(), "notes.txt", "not part of a case");
    let dir = course();
    write(dir.path(), "solutions/wrong/ghost/x.c", "/* wrong */\n");
    assert_problem(dir.path(), "solutions/wrong/ghost", "not an exercise");
}

#[test]
fn input_without_expected_output() {
    let dir = course();
    write(dir.path(), "fixtures/sum/03_lost.in", "1 1\n");
    assert_problem(
        dir.path(),
        "fixtures/sum",
        "03_lost.in has no expected output",
    );
}

#[test]
fn case_names_differing_only_in_letter_case() {
    let dir = course();
    write(dir.path(), "fixtures/sum/01_SMALL.in", "1 2\n");
    write(dir.path(), "fixtures/sum/01_SMALL.out", "3\n");
    assert_problem(dir.path(), "01_small.out", "differ only in letter case");
}

#[test]
fn empty_hints_and_missing_translations() {
    let dir = course();
    let info = dir.path().join("info.toml");
    let text = std::fs::read_to_string(&info).unwrap();
    std::fs::write(
        &info,
        text.replace(
            "hints = [{ en = \"puts prints a line.\", zh = \"puts 打印一行。\" }]",
            "hints = []",
        ),
    )
    .unwrap();
    assert_problem(dir.path(), "info.toml", "hello has no hints");
    std::fs::write(&info, text.replace("zh = \"打个招呼\"", "zh = \"\"")).unwrap();
    assert_problem(
        dir.path(),
        "info.toml",
        "the title of exercise hello is empty",
    );
    std::fs::write(&info, text.replace(", zh = \"用 scanf 读两个整数。\"", "")).unwrap();
    assert_problem(
        dir.path(),
        "info.toml",
        "hint 1 of exercise sum has no Chinese version",
    );
    let dir = course();
    write(
        dir.path(),
        "fixtures/sum/01_small.toml",
        "description = \"Two small numbers\"\n",
    );
    assert_problem(
        dir.path(),
        "01_small.toml",
        "the description has no Chinese version",
    );
}

#[test]
fn malformed_inputs_are_named_with_their_line() {
    let dir = course();
    write(dir.path(), "fixtures/sum/01_small.in", "1 2\n3\n");
    assert_problem(dir.path(), "01_small.in", "line 2: \"3\" is not a move");
    let dir = course();
    write(dir.path(), "fixtures/hello/01_hello.in", "unexpected\n");
    assert_problem(dir.path(), "01_hello.in", "hello reads no input");
}

#[test]
fn solution_failing_a_case() {
    let dir = course();
    write(dir.path(), "fixtures/sum/02_negative.out", "-3\n");
    assert_problem(dir.path(), "solutions/sum.c", "fails case 02_negative");
    // The diff says which line differs, and how to make the .out the solution's.
    let (_, output) = check(dir.path());
    assert!(
        output.contains(
            "--- expected (.out)\n            +++ the solution's output\n            \
             @@ expected line 1, the solution's line 1 @@\n            --3\n            +-2\n"
        ),
        "{output}"
    );
    assert!(
        output.contains("`clings dev bless sum` writes its output to fixtures/sum/02_negative.out"),
        "{output}"
    );
    assert!(output.contains("dev check: 1 problem\n"), "{output}");
}

#[test]
fn skeleton_that_already_passes() {
    let dir = course();
    std::fs::copy(
        dir.path().join("solutions/sum.c"),
        dir.path().join("exercises/sum.c"),
    )
    .unwrap();
    assert_problem(dir.path(), "exercises/sum.c", "skeleton passes every case");
}

#[test]
fn skeleton_that_passes_every_case() {
    let dir = course();
    for file in ["skeletons/sum.c", "exercises/sum.c"] {
        std::fs::copy(dir.path().join("solutions/sum.c"), dir.path().join(file)).unwrap();
    }
    let (_, output) = check(dir.path());
    assert!(
        output.contains("skeleton  skeletons/sum.c  passes every case"),
        "{output}"
    );
    assert_problem(
        dir.path(),
        "skeletons/sum.c",
        "the skeleton passes every case: it leaves the students of sum nothing to do",
    );
}

#[test]
fn skeleton_that_does_not_compile() {
    let dir = course();
    for file in ["skeletons/hello.c", "exercises/hello.c"] {
        write(dir.path(), file, "int main(void) { return 0 }\n");
    }
    assert_problem(
        dir.path(),
        "skeletons/hello.c",
        "the skeleton of hello does not compile",
    );
}

#[test]
fn missing_skeleton_names_the_file_and_the_exercise() {
    let dir = course();
    std::fs::remove_file(dir.path().join("skeletons/hello.c")).unwrap();
    assert_problem(
        dir.path(),
        "skeletons/hello.c",
        "the skeleton of hello is missing: it is what `clings reset hello` puts back in exercises/hello.c",
    );
    // A `skeleton` key that names no file is the same problem, at that file.
    let dir = course();
    let info = dir.path().join("info.toml");
    let text = std::fs::read_to_string(&info).unwrap().replace(
        "path = \"exercises/hello.c\"",
        "path = \"exercises/hello.c\"\nskeleton = \"starts/hello.c\"",
    );
    std::fs::write(&info, text).unwrap();
    assert_problem(
        dir.path(),
        "starts/hello.c",
        "the skeleton of hello is missing",
    );
}

#[test]
fn shipped_exercise_file_that_is_not_its_skeleton() {
    let dir = course();
    write(
        dir.path(),
        "exercises/hello.c",
        "#include <stdio.h>\nint main(void) { return 0; } /* half done */\n",
    );
    assert_problem(
        dir.path(),
        "exercises/hello.c",
        "differs from the skeleton of hello, skeletons/hello.c",
    );
}

#[test]
fn skeleton_of_no_exercise_and_skeleton_of_two() {
    let dir = course();
    write(
        dir.path(),
        "skeletons/ghost.c",
        "int main(void) { return 0; }\n",
    );
    assert_problem(
        dir.path(),
        "skeletons/ghost.c",
        "the skeleton of no exercise in info.toml",
    );
    let dir = course();
    let info = dir.path().join("info.toml");
    let text = std::fs::read_to_string(&info).unwrap().replace(
        "path = \"exercises/hello.c\"",
        "path = \"exercises/hello.c\"\nskeleton = \"skeletons/sum.c\"",
    );
    std::fs::write(&info, text).unwrap();
    assert_problem(
        dir.path(),
        "skeletons/sum.c",
        "the skeleton of both sum and hello",
    );
}

#[test]
fn wrong_program_that_no_case_catches() {
    let dir = course();
    let right = std::fs::read_to_string(dir.path().join("solutions/sum.c")).unwrap();
    write(
        dir.path(),
        "solutions/wrong/sum/not_really_wrong.c",
        &format!("/* wrong: claims to be */\n{right}"),
    );
    assert_problem(
        dir.path(),
        "not_really_wrong.c",
        "add a case that catches this mistake",
    );
    let dir = course();
    let wrong =
        std::fs::read_to_string(dir.path().join("solutions/wrong/sum/subtracts.c")).unwrap();
    write(
        dir.path(),
        "solutions/wrong/sum/unnamed.c",
        wrong
            .lines()
            .skip(1)
            .collect::<Vec<_>>()
            .join("\n")
            .as_str(),
    );
    assert_problem(dir.path(), "unnamed.c", "first line must be a comment");
}

#[test]
fn slow_solution_is_warned_about() {
    let dir = course();
    write(
        dir.path(),
        "solutions/hello.c",
        "#include <stdio.h>\n#include <unistd.h>\nint main(void) { usleep(700000); puts(\"hello\"); return 0; }\n",
    );
    let (code, output) = check(dir.path());
    assert_eq!(code, Some(0), "{output}");
    assert!(
        output.contains("more than half of its 1000 ms limit"),
        "{output}"
    );
}

#[test]
fn new_case_computes_its_output_and_refuses_an_existing_name() {
    let dir = course();
    let output = clings(dir.path())
        .args([
            "dev",
            "new-case",
            "sum",
            "03_big",
            "--description",
            "Big numbers",
            "--description-zh",
            "大数",
        ])
        .write_stdin("1000 2000\n")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let fixtures = dir.path().join("fixtures/sum");
    assert_eq!(
        std::fs::read_to_string(fixtures.join("03_big.in")).unwrap(),
        "1000 2000\n"
    );
    assert_eq!(
        std::fs::read_to_string(fixtures.join("03_big.out")).unwrap(),
        "3000\n"
    );
    assert_eq!(
        std::fs::read_to_string(fixtures.join("03_big.toml")).unwrap(),
        "description = { en = \"Big numbers\", zh = \"大数\" }\n"
    );
    // A case as dev new-case writes it is one dev check accepts.
    let (code, report) = check(dir.path());
    assert_eq!(code, Some(0), "{report}");

    let input = dir.path().join("input.txt");
    std::fs::write(&input, "1 1\n").unwrap();
    let output = clings(dir.path())
        .args(["dev", "new-case", "sum", "03_big", "--input"])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr_of(&output).contains("already exists"),
        "{}",
        stderr_of(&output)
    );
    assert_eq!(
        std::fs::read_to_string(fixtures.join("03_big.out")).unwrap(),
        "3000\n"
    );
}

#[test]
fn new_case_wants_the_description_in_both_languages() {
    let dir = course();
    for flag in ["--description", "--description-zh"] {
        let output = clings(dir.path())
            .args(["dev", "new-case", "sum", "03_one_language", flag, "Big"])
            .write_stdin("1 2\n")
            .output()
            .unwrap();
        assert_error(
            &output,
            "give the description in both languages, --description TEXT and --description-zh TEXT",
        );
        let left = std::fs::read_dir(dir.path().join("fixtures/sum"))
            .unwrap()
            .filter_map(Result::ok)
            .filter(|entry| entry.file_name().to_string_lossy().starts_with("03_"))
            .count();
        assert_eq!(left, 0, "{flag} alone wrote a case");
    }
}

#[test]
fn new_case_rejects_malformed_input_and_leaves_nothing() {
    let dir = course();
    let output = clings(dir.path())
        .args(["dev", "new-case", "sum", "04_bad"])
        .write_stdin("one two\n")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr_of(&output).contains("not a move"),
        "{}",
        stderr_of(&output)
    );
    let left: Vec<_> = std::fs::read_dir(dir.path().join("fixtures/sum"))
        .unwrap()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_name().to_string_lossy().starts_with("04_bad"))
        .collect();
    assert!(left.is_empty());
}

#[test]
fn bless_shows_the_change_and_writes_only_when_confirmed() {
    let dir = course();
    let expected = dir.path().join("fixtures/sum/02_negative.out");
    std::fs::write(&expected, "-3\n").unwrap();

    // Without --yes and without a terminal it shows the diff and refuses.
    let output = clings(dir.path())
        .args(["dev", "bless", "sum"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stdout = stdout_of(&output);
    assert!(
        stdout.contains("--- old\n+++ new\n@@ old line 1, new line 1 @@\n--3\n+-2\n"),
        "{stdout}"
    );
    assert!(!stdout.contains("your output"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&expected).unwrap(), "-3\n");

    let output = clings(dir.path())
        .args(["dev", "bless", "--yes"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert!(
        stdout_of(&output).contains("wrote 1 expected output (2 unchanged)"),
        "{}",
        stdout_of(&output)
    );
    assert_eq!(std::fs::read_to_string(&expected).unwrap(), "-2\n");
    let (code, output) = check(dir.path());
    assert_eq!(code, Some(0), "{output}");
}

/// docs/course-authoring.md, "Adding an exercise": each step, then `dev check`, which says what
/// is still missing and how to add it, until the course passes.
#[test]
fn an_exercise_added_step_by_step_as_the_readme_says() {
    let dir = course();
    let root = dir.path();
    // 1. Its entry in info.toml.
    let info = root.join("info.toml");
    let mut text = std::fs::read_to_string(&info).unwrap();
    text.push_str(
        "\n[[exercises]]\nname = \"double\"\ntitle = { en = \"Double it\", zh = \"翻倍\" }\n\
         path = \"exercises/double.c\"\ninput = { kind = \"integers\", per_line = 1 }\n\
         hints = [{ en = \"Multiply by two.\", zh = \"乘以二。\" }]\n",
    );
    std::fs::write(&info, text).unwrap();
    let (code, output) = check(root);
    assert_eq!(code, Some(1), "{output}");
    for missing in [
        "the skeleton of double is missing",
        "the students' copy of the skeleton of double is missing",
        "the solution of double is missing: write the reference solution there",
        "double has no cases yet: add one with `clings dev new-case double 01_first --input FILE",
    ] {
        assert!(output.contains(missing), "{missing:?} in:\n{output}");
    }
    // 2. The skeleton, and the students' copy of it; 3. the reference solution.
    let skeleton = "#include <stdio.h>\nint main(void) { int n; if (scanf(\"%d\", &n) != 1) return 1; printf(\"%d\\n\", n); return 0; }\n";
    write(root, "skeletons/double.c", skeleton);
    write(root, "exercises/double.c", skeleton);
    write(
        root,
        "solutions/double.c",
        &skeleton.replace("\"%d\\n\", n)", "\"%d\\n\", 2 * n)"),
    );
    // 4. A case, from the solution.
    write(root, "three.txt", "3\n");
    let output = clings(root)
        .args([
            "dev",
            "new-case",
            "double",
            "01_three",
            "--input",
            "three.txt",
        ])
        .args(["--description", "Three", "--description-zh", "三"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert_eq!(
        std::fs::read_to_string(root.join("fixtures/double/01_three.out")).unwrap(),
        "6\n"
    );
    let (code, output) = check(root);
    assert_eq!(code, Some(0), "{output}");
    assert!(
        output.contains("double has no known-wrong programs: put each mistake students make in solutions/wrong/double/"),
        "{output}"
    );
    // 5. A known-wrong program, named by its first line; 6. a hint that fits it.
    write(
        root,
        "solutions/wrong/double/squares.c",
        &format!(
            "/* squares instead of doubling */\n{}",
            skeleton.replace("\"%d\\n\", n)", "\"%d\\n\", n * n)")
        ),
    );
    assert_problem(root, "squares.c", "no case's hint fits how it fails");
    let toml = root.join("fixtures/double/01_three.toml");
    let mut case = std::fs::read_to_string(&toml).unwrap();
    case.push_str("hint = { en = \"Two times, not n times.\", zh = \"是两倍，不是 n 倍。\" }\n");
    std::fs::write(&toml, case).unwrap();
    // ... and the hint it must get first, stated in info.toml.
    assert_problem(
        root,
        "squares.c",
        "add `squares = \"Two times, not n times.\"` to [exercises.first_hints] of double",
    );
    let mut text = std::fs::read_to_string(&info).unwrap();
    text.push_str("\n[exercises.first_hints]\nsquares = \"Two times\"\n");
    std::fs::write(&info, text).unwrap();
    // 7. dev check passes.
    let (code, output) = check(root);
    assert_eq!(code, Some(0), "{output}");
    assert!(
        output.contains("first hint: Two times, not n times."),
        "{output}"
    );
}

/// The test course's entry for subtracts.c in `[exercises.first_hints]`.
const SUBTRACTS_FIRST_HINT: &str = "subtracts = \"Negative numbers add like any other.\"\n";

/// Adds `block` (TOML) to the end of the test course's `sum` exercise.
fn add_to_sum(dir: &Path, block: &str) {
    let info = dir.join("info.toml");
    let text = std::fs::read_to_string(&info).unwrap();
    let edited = text.replacen(
        "\n[[exercises]]\nname = \"hello\"",
        &format!("\n{block}\n[[exercises]]\nname = \"hello\""),
        1,
    );
    assert_ne!(edited, text);
    std::fs::write(info, edited).unwrap();
}

/// Adds `block` (mistakes, one of them `subtracts`) to the test course's `sum` exercise:
/// subtracts.c, then named after a mistake, leaves `first_hints`.
fn add_mistakes_to_sum(dir: &Path, block: &str) {
    let info = dir.join("info.toml");
    let text = std::fs::read_to_string(&info).unwrap();
    std::fs::write(&info, text.replacen(SUBTRACTS_FIRST_HINT, "", 1)).unwrap();
    add_to_sum(dir, block);
}

const SUBTRACTS: &str = "[[exercises.mistakes]]\nname = \"subtracts\"\n\
    fails = [\"01_small\"]\n\
    text = { en = \"You subtract: a + b.\", zh = \"你做了减法：a + b。\" }\n";

/// docs/course-authoring.md, "Hints": a known-wrong program named after a mistake of
/// `[[exercises.mistakes]]` gets that mistake's hint first, and `dev check` says so; one
/// that gets another mistake's hint, or a mistake made of cases the exercise lacks, is a
/// problem.
#[test]
fn a_known_wrong_program_is_held_to_its_own_mistake_s_hint() {
    let dir = course();
    add_mistakes_to_sum(dir.path(), SUBTRACTS);
    let (code, output) = check(dir.path());
    assert_eq!(code, Some(0), "{output}");
    assert!(
        output.contains("first hint: its mistake's, subtracts"),
        "{output}"
    );

    // A mistake listed first that the same results show takes the hint from it.
    let dir = course();
    let other = "[[exercises.mistakes]]\nname = \"wrong_operator\"\nfails = [\"01_small\"]\n\
                 text = { en = \"Another operator.\", zh = \"另一个运算符。\" }\n";
    add_mistakes_to_sum(dir.path(), &format!("{other}\n{SUBTRACTS}"));
    assert_problem(
        dir.path(),
        "solutions/wrong/sum/subtracts.c",
        "that of mistake \"wrong_operator\", not of its own, \"subtracts\"",
    );

    let dir = course();
    add_mistakes_to_sum(dir.path(), &SUBTRACTS.replace("01_small", "03_large"));
    assert_problem(
        dir.path(),
        "info.toml",
        "mistake \"subtracts\": key `fails`: \"03_large\" is not a case of the exercise",
    );
    // What `explains` names, the program named after the mistake must fail.
    let dir = course();
    write(dir.path(), "fixtures/sum/03_zero.in", "5 0\n");
    write(dir.path(), "fixtures/sum/03_zero.out", "5\n");
    let explains = SUBTRACTS.replace("text =", "explains = [\"03_zero\"]\ntext =");
    add_mistakes_to_sum(dir.path(), &explains);
    assert_problem(
        dir.path(),
        "solutions/wrong/sum/subtracts.c",
        "mistake \"subtracts\" explains 03_zero, which this program does not fail as \
         wrong_output: take it out of its `explains`",
    );

    let dir = course();
    let explains = SUBTRACTS.replace("text =", "explains = [\"04_huge\"]\ntext =");
    add_mistakes_to_sum(dir.path(), &explains);
    assert_problem(
        dir.path(),
        "info.toml",
        "mistake \"subtracts\": key `explains`: \"04_huge\" is not a case of the exercise",
    );
}

/// docs/course-authoring.md, "Hints keyed on the mistake": a known-wrong program not named
/// after a mistake is held to the hint `[exercises.first_hints]` states for it (the start of
/// its text, or a mistake's); a change of the course that gives it another one first, a
/// program with none stated, and a statement that names no program or mistake are problems.
#[test]
fn a_known_wrong_program_is_held_to_the_first_hint_info_toml_states() {
    let dir = course();
    let (code, output) = check(dir.path());
    assert_eq!(code, Some(0), "{output}");
    assert!(
        output.contains("first hint: Negative numbers add like any other."),
        "{output}"
    );

    // A rule added to another case, that reads subtracts.c's output there, comes first.
    let dir = course();
    let toml = dir.path().join("fixtures/sum/01_small.toml");
    let mut case = std::fs::read_to_string(&toml).unwrap();
    case.push_str(
        "\n[[hints]]\noutput = \"-1\"\ntext = { en = \"You print -1: is it a - b?\", zh = \"你打印了 -1：是 a - b 吗？\" }\n",
    );
    std::fs::write(&toml, case).unwrap();
    assert_problem(
        dir.path(),
        "solutions/wrong/sum/subtracts.c",
        "its first hint (on case 01_small) is \"You print -1: is it a - b?\", where \
         [exercises.first_hints] of sum wants \"Negative numbers add like any other.\"",
    );
    // Stated anew, it holds.
    let info = dir.path().join("info.toml");
    let text = std::fs::read_to_string(&info).unwrap();
    std::fs::write(
        &info,
        text.replace(SUBTRACTS_FIRST_HINT, "subtracts = \"You print -1\"\n"),
    )
    .unwrap();
    let (code, output) = check(dir.path());
    assert_eq!(code, Some(0), "{output}");

    // None stated: dev check says what to add.
    let dir = course();
    let info = dir.path().join("info.toml");
    let text = std::fs::read_to_string(&info).unwrap();
    std::fs::write(&info, text.replace(SUBTRACTS_FIRST_HINT, "")).unwrap();
    assert_problem(
        dir.path(),
        "solutions/wrong/sum/subtracts.c",
        "no hint is stated for it to get first: it gets \"Negative numbers add like any \
         other.\" (on case 02_negative); if that names its mistake, add `subtracts = \
         \"Negative numbers add like any other.\"` to [exercises.first_hints] of sum",
    );

    // A mistake's hint, stated as the mistake, and statements of nothing.
    let dir = course();
    add_mistakes_to_sum(dir.path(), SUBTRACTS);
    write(
        dir.path(),
        "solutions/wrong/sum/also_subtracts.c",
        &std::fs::read_to_string(dir.path().join("solutions/wrong/sum/subtracts.c")).unwrap(),
    );
    let info = dir.path().join("info.toml");
    let text = std::fs::read_to_string(&info).unwrap();
    let stated = |entries: &str| {
        std::fs::write(
            &info,
            text.replace(
                "[exercises.first_hints]\n",
                &format!("[exercises.first_hints]\n{entries}"),
            ),
        )
        .unwrap();
    };
    stated("also_subtracts = { mistake = \"subtracts\" }\n");
    let (code, output) = check(dir.path());
    assert_eq!(code, Some(0), "{output}");
    assert!(
        output.contains("first hint: You subtract: a + b."),
        "{output}"
    );
    stated("also_subtracts = { mistake = \"adds\" }\nghost = \"x\"\nsubtracts = \"x\"\n");
    for what in [
        "sum: first_hints: \"also_subtracts\": \"adds\" is not a mistake of the exercise",
        "sum: first_hints: \"ghost\": there is no known-wrong program solutions/wrong/sum/ghost.c",
        "sum: first_hints: \"subtracts\" is named after a mistake of [[exercises.mistakes]]",
    ] {
        assert_problem(dir.path(), "info.toml", what);
    }
}

/// docs/course-authoring.md, "Hints keyed on the mistake": `dev check --explain` ends each
/// exercise with the hints that no known-wrong program is shown on any case it fails.
#[test]
fn dev_check_explain_lists_the_hints_no_known_wrong_program_is_shown() {
    let dir = course();
    let (code, output) = check_with(dir.path(), &["--explain", "sum"]);
    assert_eq!(code, Some(0), "{output}");
    assert!(
        output.contains("hints: the known-wrong programs are shown every one of the 1"),
        "{output}"
    );
    // A rule for a timeout, which subtracts.c never meets, and a mistake it does not make.
    let block = "[[exercises.failure_hints]]\nverdict = \"timeout\"\n\
                 text = { en = \"Your loop never ends.\", zh = \"你的循环停不下来。\" }\n\n\
                 [[exercises.mistakes]]\nname = \"wrong_operator\"\nfails = [\"02_negative\"]\n\
                 passes = [\"01_small\"]\ntext = { en = \"Another operator.\", zh = \"另一个运算符。\" }\n";
    add_to_sum(dir.path(), block);
    let (code, output) = check_with(dir.path(), &["--explain", "sum"]);
    assert_eq!(code, Some(0), "{output}");
    let section = output
        .find("hints no known-wrong program is shown (2 of 3)")
        .unwrap_or_else(|| panic!("{output}"));
    let listed: Vec<&str> = output[section..].lines().skip(1).take(2).collect();
    assert_eq!(
        listed,
        [
            "    mistake wrong_operator \"Another operator.…\"",
            "    failure hint 1 \"Your loop never ends.…\"",
        ],
        "{output}"
    );
    // After the exercise's last program: once, at the end of its report.
    assert_eq!(output.matches("hints no known-wrong program").count(), 1);
    assert!(
        output[..section].contains("solutions/wrong/sum/subtracts.c"),
        "{output}"
    );
}

/// docs/course-authoring.md, "Hints fit the failure": a rule that reads the output and that
/// a case's expected output meets (a case's own, or the exercise's) would greet a right
/// answer: `dev check` names it.
#[test]
fn a_rule_that_the_expected_output_meets_is_a_problem() {
    let dir = course();
    let toml = dir.path().join("fixtures/sum/01_small.toml");
    let mut case = std::fs::read_to_string(&toml).unwrap();
    // 01_small's expected output is "3".
    case.push_str(
        "\n[[hints]]\noutput_contains = \"3\"\ntext = { en = \"Three is wrong here.\", zh = \"这里不该是三。\" }\n",
    );
    std::fs::write(&toml, case).unwrap();
    assert_problem(
        dir.path(),
        "fixtures/sum/01_small.toml",
        "a rule of its [[hints]] (Three is wrong here....) meets the case's expected output: \
         it would be shown to a right answer",
    );
    let dir = course();
    add_to_sum(
        dir.path(),
        "[[exercises.failure_hints]]\noutput = \"-2\"\n\
         text = { en = \"Minus two is wrong.\", zh = \"负二不对。\" }\n",
    );
    // 02_negative's expected output is "-2"; 01_small's is not.
    assert_problem(
        dir.path(),
        "fixtures/sum/02_negative.toml",
        "a rule of the exercise's [[failure_hints]] (Minus two is wrong....) meets the case's \
         expected output",
    );
    let (_, output) = check(dir.path());
    assert!(!output.contains("01_small.toml: a rule"), "{output}");
}

/// docs/course-authoring.md, "Hints": a mistake's hint is given, on the first failing case
/// and the cases it explains (`fails`, `explains`), only when every case it fails fails and
/// every case it passes passes; otherwise, and on a failing case it does not explain, the
/// case's own hint is.
#[test]
fn a_mistake_s_hint_needs_the_whole_pattern_of_results() {
    let hints = |block: &str| {
        let dir = course();
        add_mistakes_to_sum(dir.path(), block);
        let submission = dir.path().join("submission/exercises");
        std::fs::create_dir_all(&submission).unwrap();
        std::fs::copy(
            dir.path().join("solutions/wrong/sum/subtracts.c"),
            submission.join("sum.c"),
        )
        .unwrap();
        let output = clings(dir.path())
            .args(["test", "sum", "--allow-unisolated", "--format", "json"])
            .args(["--submission", "submission"])
            .output()
            .unwrap();
        let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let cases = document["exercises"][0]["cases"]
            .as_array()
            .unwrap()
            .clone();
        cases
            .iter()
            .map(|case| case["hint"].clone())
            .collect::<Vec<_>>()
    };
    let subtracts = "You subtract: a + b.";
    let given = hints(SUBTRACTS);
    assert_eq!(given[0], subtracts);
    // 02_negative fails too, but the mistake does not say it explains it: its own hint.
    assert_eq!(given[1], "Negative numbers add like any other.");
    let explains = SUBTRACTS.replace("text =", "explains = [\"02_negative\"]\ntext =");
    assert_eq!(hints(&explains)[..2], [subtracts, subtracts]);
    // subtracts fails 02_negative too: a mistake that passes it is not this one.
    let passes = SUBTRACTS.replace("text =", "passes = [\"02_negative\"]\ntext =");
    assert_ne!(hints(&passes)[0], subtracts);
}

/// Runs `dev check` with `args` after it; returns its exit code and its whole output.
fn check_with(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let output = clings(dir)
        .args(["dev", "check"])
        .args(args)
        .output()
        .unwrap();
    (
        output.status.code(),
        format!("{}{}", stdout_of(&output), stderr_of(&output)),
    )
}

#[test]
fn only_the_exercises_named_are_checked_with_the_course_as_a_whole() {
    let dir = course();
    std::fs::remove_file(dir.path().join("solutions/sum.c")).unwrap();
    let (code, output) = check_with(dir.path(), &["hello"]);
    assert_eq!(code, Some(0), "{output}");
    assert!(output.lines().any(|line| line == "hello"), "{output}");
    assert!(
        !output.lines().any(|line| line == "sum") && !output.contains("solutions/sum.c"),
        "{output}"
    );
    // What belongs to no exercise is checked whichever are named.
    write(dir.path(), "fixtures/ghost/01.out", "boo\n");
    let (code, output) = check_with(dir.path(), &["hello"]);
    assert_eq!(code, Some(1), "{output}");
    assert!(output.contains("fixtures/ghost"), "{output}");
    let (code, output) = check_with(dir.path(), &["hello", "sun"]);
    assert_eq!(code, Some(2), "{output}");
    assert!(
        output.contains("\"sun\"") && output.contains("sum, hello"),
        "{output}"
    );
}

#[test]
fn three_problems_in_one_exercise_are_all_listed() {
    let dir = course();
    std::fs::remove_file(dir.path().join("fixtures/sum/01_small.out")).unwrap();
    write(
        dir.path(),
        "fixtures/sum/02_negative.toml",
        "descripton = { en = \"A negative number\", zh = \"一个负数\" }\n",
    );
    let info = dir.path().join("info.toml");
    let text = std::fs::read_to_string(&info).unwrap();
    std::fs::write(&info, text.replace(", zh = \"用 scanf 读两个整数。\"", "")).unwrap();
    let (code, output) = check(dir.path());
    assert_eq!(code, Some(1), "{output}");
    for what in [
        "01_small.in has no expected output",
        "02_negative.toml:1: invalid case file",
        "hint 1 of exercise sum has no Chinese version",
    ] {
        assert!(output.contains(what), "no `{what}` in:\n{output}");
    }
    assert!(output.contains("dev check: 3 problems"), "{output}");
}

#[test]
fn a_toml_mistake_is_named_at_its_line() {
    let dir = course();
    let info = dir.path().join("info.toml");
    let text = std::fs::read_to_string(&info).unwrap();
    let line_of = |text: &str, part: &str| text[..text.find(part).unwrap()].lines().count() + 1;
    // A `]` left out: the parser reads on to the next exercise.
    let open = text.replace(
        "hints = [{ en = \"puts prints a line.\", zh = \"puts 打印一行。\" }]",
        "hints = [{ en = \"puts prints a line.\", zh = \"puts 打印一行。\" }",
    );
    let open = format!("{open}\n[[exercises]]\nname = \"more\"\n");
    std::fs::write(&info, &open).unwrap();
    let (code, output) = check(dir.path());
    assert_eq!(code, Some(2), "{output}");
    let line = line_of(&open, "hints = [{ en = \"puts");
    assert!(
        output.contains(&format!("info.toml:{line}: invalid course file: the array")),
        "not at line {line}:\n{output}"
    );
    // A value clings refuses, at the line of its key rather than of its table.
    let absolute = text.replace("path = \"exercises/hello.c\"", "path = \"/hello.c\"");
    std::fs::write(&info, &absolute).unwrap();
    let line = line_of(&absolute, "path = \"/hello.c\"");
    let (code, output) = check(dir.path());
    assert_eq!(code, Some(2), "{output}");
    assert!(
        output.contains(&format!("info.toml:{line}: key `path`")),
        "not at line {line}:\n{output}"
    );
    // In a case: a string left open, then an unknown key.
    std::fs::write(&info, &text).unwrap();
    write(
        dir.path(),
        "fixtures/sum/02_negative.toml",
        "points = 2\nhint = \"\"\"Negative numbers\n\ndescription = \"A negative number\"\n",
    );
    write(
        dir.path(),
        "fixtures/sum/01_small.toml",
        "points = 1\n\ntime_limit = 5\n",
    );
    let (code, output) = check(dir.path());
    assert_eq!(code, Some(1), "{output}");
    for place in [
        "02_negative.toml:2: invalid case file: the string",
        "01_small.toml:3: invalid case file",
    ] {
        assert!(output.contains(place), "no `{place}` in:\n{output}");
    }
}

#[test]
fn a_second_check_takes_its_results_from_the_cache_until_an_exercise_changes() {
    let dir = course();
    let timed = |args: &[&str]| {
        let output = clings(dir.path())
            .env("CLINGS_TIMINGS", "1")
            .args(["dev", "check"])
            .args(args)
            .output()
            .unwrap();
        let compiles = stderr_of(&output)
            .lines()
            .find_map(|line| line.strip_prefix("compile"))
            .and_then(|counts| counts.split_whitespace().nth(1)?.parse::<u32>().ok())
            .expect("the timings name the compiles");
        (output.status.code(), stdout_of(&output), compiles)
    };
    let (code, first, compiles) = timed(&[]);
    assert_eq!(code, Some(0), "{first}");
    assert!(compiles > 0, "{first}");
    assert!(!first.contains("from the cache"), "{first}");
    // Nothing changed: the same report, and nothing compiled or run.
    let (code, second, compiles) = timed(&[]);
    assert_eq!(code, Some(0), "{second}");
    assert_eq!(compiles, 0, "{second}");
    assert!(
        second.contains("0 programs graded now, 5 from the cache"),
        "{second}"
    );
    let report = |output: &str| {
        output
            .lines()
            .filter(|line| !line.contains("from the cache"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(report(&first), report(&second));
    // A changed case: its exercise only is graded again, and what changed is seen.
    write(dir.path(), "fixtures/sum/01_small.out", "4\n");
    let (code, third, _) = timed(&[]);
    assert_eq!(code, Some(1), "{third}");
    assert!(
        third.contains("3 programs graded now, 2 from the cache"),
        "{third}"
    );
    assert!(third.contains("fails case 01_small"), "{third}");
    // An entry that does not read as one is graded again, never trusted.
    write(
        dir.path(),
        ".clings/cache/dev-check/hello.json",
        "{\"key\": ",
    );
    let (code, fourth, _) = timed(&["hello"]);
    assert_eq!(code, Some(0), "{fourth}");
    assert!(!fourth.contains("from the cache"), "{fourth}");
    assert!(fourth.contains("solution  01_hello"), "{fourth}");
}
