//! The shipped Gomoku course, graded by the real binary: reference solutions pass,
//! skeletons fail, and `reset` brings a skeleton back from the binary.

mod common;

use common::*;

const EXERCISES: [&str; 3] = ["print_board", "check_win", "gomoku"];

#[test]
fn reference_solutions_pass_every_case() {
    let course = copy_course(&repo());
    for name in EXERCISES {
        std::fs::copy(
            course.path().join(format!("solutions/{name}.c")),
            course.path().join(format!("exercises/{name}.c")),
        )
        .unwrap();
    }
    let (document, code) = json_results(course.path(), &[]);
    for (index, name) in EXERCISES.iter().enumerate() {
        assert_eq!(document["exercises"][index]["name"], *name);
        let verdicts = verdicts(&document, index);
        assert!(
            verdicts.iter().all(|v| v == "passed"),
            "{name}: {verdicts:?}"
        );
    }
    assert_eq!(code, Some(0));
}

#[test]
fn skeletons_fail_as_shipped_without_crashing() {
    let course = copy_course(&repo());
    let (document, code) = json_results(course.path(), &[]);
    assert_eq!(document["passed"], 0);
    assert_eq!(document["failed"], 3);
    assert_eq!(code, Some(1));
    for index in 0..3 {
        assert_eq!(
            document["exercises"][index]["status"], "failed",
            "skeletons compile"
        );
        for verdict in verdicts(&document, index) {
            assert!(
                ["passed", "wrong_output"].contains(&verdict.as_str()),
                "{verdict}"
            );
        }
    }
}

#[test]
fn reset_restores_the_skeleton_even_after_deletion() {
    let course = copy_course(&repo());
    let file = course.path().join("exercises/check_win.c");
    std::fs::remove_file(&file).unwrap();

    let output = clings(course.path())
        .args(["run", "check_win"])
        .output()
        .unwrap();
    assert!(
        stdout_of(&output).contains("clings reset check_win"),
        "{}",
        stdout_of(&output)
    );
    assert_eq!(output.status.code(), Some(1));

    // Without a terminal there is nobody to confirm, so it refuses and changes nothing.
    let output = clings(course.path())
        .args(["reset", "check_win"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr_of(&output).contains("--yes"),
        "{}",
        stderr_of(&output)
    );
    assert!(!file.exists());

    clings(course.path())
        .args(["reset", "check_win", "--yes"])
        .assert()
        .success();
    let original = std::fs::read_to_string(repo().join("exercises/check_win.c")).unwrap();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original);
}

/// README: "The course as shipped: print_board has 1 case and 8 known-wrong programs,
/// check_win 44 cases and 9, gomoku 25 cases ... and 12": the numbers of that sentence,
/// in order, are the cases and the known-wrong programs of each exercise.
#[test]
fn the_shipped_course_has_the_cases_the_readme_counts() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let start = readme.find("The course as shipped:").expect("the sentence");
    let sentence = &readme[start..start + readme[start..].find(".\n").unwrap()];
    let documented: Vec<usize> = sentence
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|number| number.parse().ok())
        .collect();
    let count = |dir: &str, ending: &str| {
        std::fs::read_dir(repo().join(dir))
            .unwrap()
            .filter(|entry| {
                let name = entry.as_ref().unwrap().file_name();
                name.to_string_lossy().ends_with(ending)
            })
            .count()
    };
    let shipped: Vec<usize> = EXERCISES
        .iter()
        .flat_map(|name| {
            [
                count(&format!("fixtures/{name}"), ".out"),
                count(&format!("solutions/wrong/{name}"), ".c"),
            ]
        })
        .collect();
    assert_eq!(documented, shipped, "{sentence}");
}
