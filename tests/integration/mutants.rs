//! `clings dev mutants`: the mutation score measures how strong the cases are. A weak spot
//! planted in a copy of the course (check_win without the cases that hold an anti-diagonal
//! five) lowers its score, and the anti-diagonal's mutant survives, with a board that tells
//! it from the reference: an anti-diagonal five. Without the cases where both colours have
//! five, the mutant that checks white first survives.

use crate::common;

use std::path::Path;
use std::sync::OnceLock;

use common::*;

/// Runs `dev mutants check_win` (few made-up inputs, to be quick); its exit code and output.
fn mutants(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let output = clings(dir)
        .args(["dev", "mutants", "check_win", "--tries", "40"])
        .args(args)
        .output()
        .unwrap();
    (
        output.status.code(),
        format!("{}{}", stdout_of(&output), stderr_of(&output)),
    )
}

/// The score `check_win: mutation score 97.5%, ...` says.
fn score(output: &str) -> f64 {
    let line = output
        .lines()
        .find(|line| line.starts_with("check_win: mutation score "))
        .unwrap_or_else(|| panic!("no score in:\n{output}"));
    let number = line["check_win: mutation score ".len()..]
        .split('%')
        .next()
        .unwrap();
    number.parse().unwrap()
}

/// Down-left, and the four directions of a line.
const ANTI_DIAGONAL: [(i64, i64); 1] = [(1, -1)];
const EVERY_DIRECTION: [(i64, i64); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// Whether the board has five of one of `stones` in a row going in one of `directions`.
fn has_five(board: &str, stones: &[char], directions: &[(i64, i64)]) -> bool {
    let cells: Vec<Vec<char>> = board.lines().map(|line| line.chars().collect()).collect();
    let at = |r: i64, c: i64| -> Option<char> {
        let row = cells.get(usize::try_from(r).ok()?)?;
        row.get(usize::try_from(c).ok()?).copied()
    };
    (0..15i64).any(|r| {
        (0..15i64).any(|c| {
            let first = at(r, c);
            first.is_some_and(|stone| stones.contains(&stone))
                && directions
                    .iter()
                    .any(|(dr, dc)| (1..5).all(|k| at(r + k * dr, c + k * dc) == first))
        })
    })
}

/// A copy of the course without the check_win cases whose board and expected output
/// `weak` picks; how many it removed.
fn course_without(weak: impl Fn(&str, &str) -> bool) -> (tempfile::TempDir, usize) {
    let course = copy_course(&repo());
    let fixtures = course.path().join("fixtures/check_win");
    let mut removed = 0;
    for entry in std::fs::read_dir(&fixtures).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|ext| ext == "in") {
            let board = std::fs::read_to_string(&path).unwrap();
            let expected = std::fs::read_to_string(path.with_extension("out")).unwrap();
            if weak(&board, &expected) {
                for ext in ["in", "out", "toml"] {
                    let _ = std::fs::remove_file(path.with_extension(ext));
                }
                removed += 1;
            }
        }
    }
    (course, removed)
}

/// `dev mutants check_win --min-score 95` on a copy of the course as shipped, run once for
/// the tests that compare a weakened course with it.
fn full_course() -> &'static (Option<i32>, String) {
    static FULL: OnceLock<(Option<i32>, String)> = OnceLock::new();
    FULL.get_or_init(|| {
        let full = copy_course(&repo());
        mutants(full.path(), &["--min-score", "95"])
    })
}

#[test]
fn a_course_without_anti_diagonal_cases_scores_lower_and_keeps_the_anti_diagonal_mutant() {
    let (weak, removed) = course_without(|board, _| has_five(board, &['B', 'W'], &ANTI_DIAGONAL));
    assert!(removed >= 8, "only {removed} anti-diagonal cases found");

    let (code, full_output) = full_course();
    assert_eq!(*code, Some(0), "{full_output}");
    let full_score = score(full_output);
    assert!(full_score >= 95.0, "{full_output}");

    let (code, weak_output) = mutants(weak.path(), &["--min-score", "95"]);
    assert_eq!(code, Some(1), "{weak_output}");
    assert!(score(&weak_output) < full_score, "{weak_output}");
    // The direction array's anti-diagonal entry made a second vertical survives, and the
    // input found for it is a board with an anti-diagonal five.
    let lines: Vec<&str> = weak_output.lines().collect();
    let survivor = lines
        .iter()
        .position(|line| line.contains("survived") && line.contains("{1, -1} → {1, 0}"))
        .unwrap_or_else(|| panic!("the anti-diagonal mutant did not survive:\n{weak_output}"));
    let input = lines[survivor + 1]
        .split("--input ")
        .nth(1)
        .unwrap_or_else(|| panic!("no input for the survivor:\n{weak_output}"));
    let board = std::fs::read_to_string(weak.path().join(input.trim())).unwrap();
    assert!(has_five(&board, &['B', 'W'], &ANTI_DIAGONAL), "{board}");
    assert!(
        !full_output.contains("{1, -1} → {1, 0}"),
        "the full course lets the anti-diagonal mutant through:\n{full_output}"
    );
}

#[test]
fn a_course_without_both_colours_having_five_keeps_the_mutant_that_checks_white_first() {
    // The answer is black while white has five too: only these tell the order of the checks.
    let (weak, removed) = course_without(|board, expected| {
        expected.trim() == "black" && has_five(board, &['W'], &EVERY_DIRECTION)
    });
    assert_eq!(removed, 2, "the cases where both colours have five");
    let white_first = "if (check_win('B')) … else if (check_win('W')) → \
                       if (check_win('W')) … else if (check_win('B'))";

    let (code, weak_output) = mutants(weak.path(), &["--min-score", "100"]);
    assert_eq!(code, Some(1), "{weak_output}");
    assert!(
        weak_output.lines().any(|line| line.contains("survived")
            && line.contains("check_win.c:")
            && line.contains(white_first)),
        "the mutant that checks white first was not reported as a survivor:\n{weak_output}"
    );
    assert!(weak_output.contains("swapped statements"), "{weak_output}");

    let (_, full_output) = full_course();
    assert!(
        !full_output.contains(white_first),
        "the course as shipped lets the mutant that checks white first through:\n{full_output}"
    );
    assert!(score(full_output) > score(&weak_output), "{full_output}");
}

/// `entries` put among check_win's tables of the course's info.toml in `dir`.
fn accept_in_check_win(dir: &Path, entries: &str) {
    let info = dir.join("info.toml");
    let text = std::fs::read_to_string(&info).unwrap();
    let own = text
        .find("name = \"check_win\"")
        .expect("check_win's entry");
    let next = own
        + text[own..]
            .find("\n[[exercises]]")
            .expect("an exercise after it");
    std::fs::write(
        &info,
        format!("{}\n{entries}{}", &text[..next], &text[next..]),
    )
    .unwrap();
}

#[test]
fn accepted_mutants_are_listed_apart_with_why_and_left_out_of_the_score() {
    let (weak, _) = course_without(|board, _| has_five(board, &['B', 'W'], &ANTI_DIAGONAL));
    let (_, unaccepted) = mutants(weak.path(), &[]);
    accept_in_check_win(
        weak.path(),
        "[[exercises.accepted_mutants]]\nchange = \"{1, -1} → {1, 0}\"\n\
         why = \"planted: no case holds an anti-diagonal five\"\n\
         [[exercises.accepted_mutants]]\nfunction = \"no_such_function\"\nwhy = \"stale\"\n",
    );
    let (code, output) = mutants(weak.path(), &[]);
    assert_eq!(code, Some(0), "{output}");
    let lines: Vec<&str> = output.lines().collect();
    let accepted = lines
        .iter()
        .position(|line| {
            line.contains("accepted    1 mutant ({1, -1} → {1, 0})")
                && line.ends_with("planted: no case holds an anti-diagonal five")
        })
        .unwrap_or_else(|| panic!("the anti-diagonal mutant is not accepted:\n{output}"));
    assert!(lines[accepted + 1].contains("check_win.c:"), "{output}");
    assert!(
        !lines
            .iter()
            .any(|line| line.contains("survived") && line.contains("{1, -1} → {1, 0}")),
        "an accepted mutant is listed as a survivor:\n{output}"
    );
    assert!(
        output.contains("accepted mutant 2 (in no_such_function()) fits no survivor"),
        "{output}"
    );
    // One survivor fewer in the score, and the score counting it is the one before.
    assert!(
        score(&output) > score(&unaccepted),
        "{output}\n{unaccepted}"
    );
    let counting = format!(
        "1 accepted as no mistake (1 not graded): {:.1}% counting them",
        score(&unaccepted)
    );
    assert!(output.contains(&counting), "{counting:?} not in:\n{output}");

    // An entry that names nothing to fit is the course's problem.
    accept_in_check_win(
        weak.path(),
        "[[exercises.accepted_mutants]]\nwhy = \"everything\"\n",
    );
    let checked = clings(weak.path())
        .args(["dev", "check", "check_win"])
        .output()
        .unwrap();
    assert_eq!(checked.status.code(), Some(1));
    assert!(
        stdout_of(&checked).contains(
            "check_win: accepted mutant 3: give `function`, `change` (or `changes`) or both: it \
             would accept every mutant"
        ),
        "{}",
        stdout_of(&checked)
    );
}

/// How many mutants the cases killed, of how many scored: `98 of 98 killed`.
fn killed_of(output: &str) -> (usize, usize) {
    let line = output
        .lines()
        .find(|line| line.starts_with("check_win: mutation score "))
        .unwrap_or_else(|| panic!("no score in:\n{output}"));
    let words: Vec<&str> = line.split(' ').collect();
    let of = words.iter().position(|word| *word == "of").expect("N of M");
    (
        words[of - 1].parse().unwrap(),
        words[of + 1].parse().unwrap(),
    )
}

/// docs/course-authoring.md, "Accepted mutants": a mutant an entry names alone by its
/// change is not graded, unless the entries are checked: then, killed by the cases, it
/// counts as killed, and the entry is named. An entry that fits several mutants by one
/// change accepts only the survivors among them, graded.
#[test]
fn accepted_mutants_are_graded_only_when_the_entries_are_checked() {
    let course = copy_course(&repo());
    let entry = "accepted mutant 1 (in check_dir(), count >= 5 → count >= 6)";
    accept_in_check_win(
        course.path(),
        "[[exercises.accepted_mutants]]\nfunction = \"check_dir\"\n\
         change = \"count >= 5 → count >= 6\"\nwhy = \"planted: no five is ever found\"\n\
         [[exercises.accepted_mutants]]\nchange = \"r = 0 → r = 1\"\n\
         why = \"planted: main and check_win both skip the first row\"\n",
    );
    let (code, unchecked) = mutants(course.path(), &[]);
    assert_eq!(code, Some(0), "{unchecked}");
    assert!(
        unchecked.contains("1 accepted as no mistake (1 not graded)")
            && unchecked.contains(
                "accepted    1 mutant (in check_dir(), count >= 5 → count >= 6): planted"
            ),
        "{unchecked}"
    );
    assert!(!unchecked.contains(entry), "{unchecked}");
    // Made in two places, the change is graded in both, and the cases kill both.
    assert!(
        unchecked.contains("accepted mutant 2 (r = 0 → r = 1) fits no survivor"),
        "{unchecked}"
    );

    let (code, checked) = mutants(course.path(), &["--check-accepted"]);
    assert_eq!(code, Some(0), "{checked}");
    assert!(
        checked.contains(&format!(
            "{entry} names 1 mutant the cases kill, counted as killed"
        )) && checked.contains(&format!("{entry} fits no survivor: remove it")),
        "{checked}"
    );
    assert!(!checked.contains("accepted as no mistake"), "{checked}");
    let (killed, scored) = killed_of(&unchecked);
    assert_eq!(killed_of(&checked), (killed + 1, scored + 1), "{checked}");
}

/// A sum whose two branches are cases of a switch: `case 0 → case 1` and `case 1 → case 0`
/// repeat a case's value, and do not compile.
const SWITCHED_SUM: &str = "#include <stdio.h>\n\nint main(void)\n{\n    int a, b;\n    \
    if (scanf(\"%d %d\", &a, &b) != 2)\n        return 1;\n    switch (a > 0) {\n    case 0:\n        \
    printf(\"%d\\n\", a + b);\n        break;\n    case 1:\n        printf(\"%d\\n\", b + a);\n        \
    break;\n    }\n    return 0;\n}\n";

/// The mutants are built as one program, but for those whose bodies do not compile there:
/// each is built alone and found stillborn, as it was before; the others are graded in the
/// one program, each as itself: the eleven that print another sum are all killed, the nine
/// that change nothing a case or an input can see are equivalent.
#[test]
fn mutants_are_built_as_one_program_but_those_that_do_not_compile() {
    let course = sum_course("passing");
    std::fs::write(course.path().join("solutions/sum.c"), SWITCHED_SUM).unwrap();
    let output = clings(course.path())
        .args(["dev", "mutants", "sum", "--tries", "20"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let said = format!("{}{}", stdout_of(&output), stderr_of(&output));
    let summary = said
        .lines()
        .find(|line| line.starts_with("sum: mutation score "))
        .unwrap_or_else(|| panic!("no score in:\n{said}"));
    assert!(
        summary.starts_with(
            "sum: mutation score 100.0%, 11 of 11 killed (22 mutants, 2 stillborn, 9 equivalent)"
        ),
        "{said}"
    );
    assert!(summary.ends_with("; 20 built as one program)"), "{summary}");
    assert!(
        said.contains("sum.c:8: a > 0 → a <= 0 (no made-up input"),
        "{said}"
    );
    assert_eq!(output.status.code(), Some(0));
}

/// What `dev mutants sum --tries TRIES` printed in the test course at `root`, which it
/// ends with exit 0.
fn sum_mutants(root: &Path, tries: usize) -> String {
    let output = clings(root)
        .args(["dev", "mutants", "sum", "--tries", &tries.to_string()])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let said = format!("{}{}", stdout_of(&output), stderr_of(&output));
    assert_eq!(output.status.code(), Some(0), "{said}");
    said
}

/// The sum, slow (0.7 s) only on 12 and something: quick (1 ms) on every other input.
const SLOW_ON_TWELVE: &str = "#include <stdio.h>\n#include <unistd.h>\n\
#define SLOW_US 700000\n\
int main(void)\n{\n    int a, b;\n    if (scanf(\"%d %d\", &a, &b) != 2)\n        return 1;\n\
    usleep(a == 12 ? SLOW_US : 1000);\n    printf(\"%d\\n\", a + b);\n    return 0;\n}\n";

/// `dev mutants sum` on the test course with [`SLOW_ON_TWELVE`] as its reference and a case
/// on 12; `quick_case_limit` is the other cases' own time limit, if they have one.
fn slow_on_twelve(quick_case_limit: Option<u64>) -> String {
    let course = sum_course("passing");
    let root = course.path();
    std::fs::write(root.join("solutions/sum.c"), SLOW_ON_TWELVE).unwrap();
    let fixtures = root.join("fixtures/sum");
    std::fs::write(fixtures.join("03_twelve.in"), "12 30\n").unwrap();
    std::fs::write(fixtures.join("03_twelve.out"), "42\n").unwrap();
    std::fs::write(fixtures.join("03_twelve.toml"), "time_limit_ms = 5000\n").unwrap();
    for case in ["01_small", "02_negative"] {
        let Some(ms) = quick_case_limit else { break };
        let toml = fixtures.join(format!("{case}.toml"));
        let text = std::fs::read_to_string(&toml).unwrap();
        std::fs::write(&toml, format!("time_limit_ms = {ms}\n{text}")).unwrap();
    }
    sum_mutants(root, 4)
}

#[test]
fn a_mutant_is_held_to_twenty_times_the_reference_on_each_case_unless_the_case_sets_a_limit() {
    // `a == 12 → a != 12` sleeps 0.7 s on 1 2 and -5 3, where the reference takes a millisecond:
    // held to 20 times that (250 ms at least) there, it is killed, though 0.7 s is within
    // the course's second and far from 20 times the reference's slowest case (on 12 30).
    let mutant = "sum.c:9: a == 12 → a != 12";
    let capped = slow_on_twelve(None);
    assert!(capped.contains("sum: mutation score "), "{capped}");
    assert!(!capped.contains(mutant), "{capped}");
    // Cases with a limit of their own keep it: the mutant is merely slower there, and
    // survives every case.
    let own_limit = slow_on_twelve(Some(3000));
    let survived = own_limit
        .lines()
        .find(|line| line.contains(mutant))
        .unwrap_or_else(|| panic!("{mutant} not listed:\n{own_limit}"));
    assert!(survived.trim_start().starts_with("survived"), "{own_limit}");
}

/// The sum, its two numbers read into a buffer from the heap that `clear` zeroes first.
const CLEARED_SUM: &str = "#include <stdio.h>\n#include <stdlib.h>\n\n\
static void clear(int *values, int n)\n{\n    for (int i = 0; i < n; i++)\n        values[i] = 0;\n}\n\n\
int main(void)\n{\n    int *values = malloc(2 * sizeof *values);\n    if (values == NULL)\n        return 1;\n\
    clear(values, 2);\n    if (scanf(\"%d %d\", &values[0], &values[1]) != 2)\n        return 1;\n\
    printf(\"%d\\n\", values[0] + values[1]);\n    free(values);\n    return 0;\n}\n";

/// `dev mutants sum` with [`CLEARED_SUM`] as the reference, `defaults` added to the
/// course's `[defaults]`; what it printed.
fn cleared_sum_mutants(defaults: &str) -> String {
    let course = sum_course("passing");
    let root = course.path();
    std::fs::write(root.join("solutions/sum.c"), CLEARED_SUM).unwrap();
    let info = root.join("info.toml");
    let text = std::fs::read_to_string(&info).unwrap();
    let edited = text.replacen("[defaults]\n", &format!("[defaults]\n{defaults}\n"), 1);
    assert_ne!(edited, text);
    std::fs::write(&info, edited).unwrap();
    sum_mutants(root, 4)
}

/// A mutant that passes every case is graded by the strict tier too, as a student's program
/// is: `i < n → i <= n` zeroes one int past the heap buffer, which UBSan does not see (a
/// pointer, not an array) and AddressSanitizer does. The strict tier builds only such
/// mutants, apart from the others.
#[test]
fn the_strict_tier_kills_a_mutant_that_passes_every_case_of_the_plain_build() {
    let mutant = "sum.c:6: i < n → i <= n";
    let plain = cleared_sum_mutants("");
    // No case and no made-up input tells it from the reference by its output.
    let listed = plain
        .lines()
        .find(|line| line.contains(mutant))
        .unwrap_or_else(|| panic!("{mutant} not listed without a strict tier:\n{plain}"));
    assert!(listed.trim_start().starts_with("equivalent"), "{plain}");
    let strict = cleared_sum_mutants("strict_sanitizers = [\"address\"]");
    assert!(strict.contains("sum: mutation score "), "{strict}");
    assert!(
        !strict.contains(mutant),
        "killed by the strict tier:\n{strict}"
    );
}

/// The sum, through a function that only a first number above 2 reaches (no case does).
const BRANCHED_SUM: &str = "#include <stdio.h>\n\n\
static int big_sum(int a, int b)\n{\n    int sum = a + b;\n    return sum;\n}\n\n\
int main(void)\n{\n    int a, b;\n    if (scanf(\"%d %d\", &a, &b) != 2)\n        return 1;\n\
    if (a > 2)\n        printf(\"%d\\n\", big_sum(a, b));\n    else\n        printf(\"%d\\n\", a + b);\n\
    return 0;\n}\n";

/// A made-up input on which the reference never starts the statement a mutant changes is
/// not run on it (the summary counts those runs), and one that starts it is: `a + b → a - b`
/// in `big_sum`, which no case reaches, is told apart by an input whose first number is
/// above 2; a change that no input can see is equivalent, tried only on such inputs.
#[test]
fn inputs_that_never_reach_a_change_are_not_run_on_its_mutant() {
    let course = sum_course("passing");
    let root = course.path();
    std::fs::write(root.join("solutions/sum.c"), BRANCHED_SUM).unwrap();
    let said = sum_mutants(root, 60);
    let told_apart = said
        .lines()
        .skip_while(|line| !line.contains("sum.c:5: a + b → a - b"))
        .nth(1)
        .unwrap_or_else(|| panic!("the mutant in big_sum is not listed:\n{said}"));
    assert!(
        told_apart.contains("differs from the reference on "),
        "{said}"
    );
    let input = told_apart
        .split_whitespace()
        .find(|word| word.ends_with(".in:"))
        .map(|word| root.join(word.trim_end_matches(':')))
        .unwrap_or_else(|| panic!("no input named:\n{said}"));
    let first: i64 = std::fs::read_to_string(&input)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(first > 2, "{input:?}");
    let summary = said
        .lines()
        .find(|line| line.starts_with("sum: mutation score "))
        .unwrap_or_else(|| panic!("no score in:\n{said}"));
    let spared: usize = summary
        .split(" s input search, ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|number| number.parse().ok())
        .unwrap_or_else(|| panic!("no spared runs in: {summary}"));
    assert!(spared > 0, "{summary}");
}

/// A folder without reference solutions (a student's, made by `clings init`) has no
/// mutant to grade: `dev mutants` says so and exits 2, rather than print nothing and pass.
#[test]
fn a_course_without_reference_solutions_has_no_mutants_and_says_so() {
    let course = sum_course("passing");
    let root = course.path();
    std::fs::remove_dir_all(root.join("solutions")).unwrap();
    let output = clings(root)
        .args(["dev", "mutants", "--min-score", "80"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let said = format!("{}{}", stdout_of(&output), stderr_of(&output));
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(said.contains("has a reference solution"), "{said}");
    assert!(!said.contains("every exercise scores"), "{said}");
}
