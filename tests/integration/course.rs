//! The shipped Gomoku course, graded by the real binary: reference solutions pass,
//! skeletons fail, and `reset` brings a skeleton back from the course's `skeletons/`.

use crate::common;

use common::*;

#[test]
fn reference_solutions_pass_every_case() {
    let course = copy_course(&repo());
    for name in COURSE_EXERCISES {
        std::fs::copy(
            course.path().join(format!("solutions/{name}.c")),
            course.path().join(format!("exercises/{name}.c")),
        )
        .unwrap();
    }
    let (document, code) = json_results(course.path(), &[]);
    for (index, name) in COURSE_EXERCISES.iter().enumerate() {
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
    assert_eq!(document["failed"], COURSE_EXERCISES.len());
    assert_eq!(code, Some(1));
    for index in 0..COURSE_EXERCISES.len() {
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

/// A student's edit of an exercise, as saved.
const EDITED: &str = "/* my own attempt */\nint main(void) { return 0; }\n";

#[test]
fn reset_restores_the_skeleton_after_an_edit_from_anywhere_in_the_course() {
    // A copy without `.git`, and clings run from outside the course's source tree (as a
    // `cargo install`ed clings is), inside one of its folders.
    let course = copy_course(&repo());
    let file = course.path().join("exercises/check_win.c");
    std::fs::write(&file, EDITED).unwrap();
    let output = clings(&course.path().join("exercises"))
        .args(["reset", "check_win", "--yes"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert!(
        stdout_of(&output).contains("exercises/check_win.c is back to its original skeleton"),
        "{}",
        stdout_of(&output)
    );
    let skeleton = std::fs::read_to_string(repo().join("skeletons/check_win.c")).unwrap();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), skeleton);
    assert!(!skeleton.contains("my own attempt"));
}

#[test]
fn reset_in_a_git_clone_restores_the_skeleton_not_the_last_commit() {
    let Some(git) = find_on_path("git") else {
        require(false, "git is not installed (`sudo apt install git`)");
        return;
    };
    let course = copy_course(&repo());
    let file = course.path().join("exercises/gomoku.c");
    std::fs::write(&file, EDITED).unwrap();
    // The student commits their attempt: `git checkout` would give it back, reset must not.
    for args in [
        &["init", "-q"][..],
        &["add", "."],
        &[
            "-c",
            "user.name=s",
            "-c",
            "user.email=s@x",
            "commit",
            "-qm",
            "mine",
        ],
    ] {
        let status = std::process::Command::new(&git)
            .args(args)
            .current_dir(course.path())
            .status()
            .unwrap();
        assert!(status.success(), "git {args:?}");
    }
    clings(course.path())
        .args(["reset", "gomoku", "--yes"])
        .assert()
        .success();
    let skeleton = std::fs::read_to_string(repo().join("skeletons/gomoku.c")).unwrap();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), skeleton);
}

#[test]
fn reset_restores_the_skeleton_as_the_instructor_last_edited_it() {
    let course = copy_course(&repo());
    let edited = "/* print_board, second edition */\nint main(void) { return 0; }\n";
    std::fs::write(course.path().join("skeletons/print_board.c"), edited).unwrap();
    std::fs::write(course.path().join("exercises/print_board.c"), EDITED).unwrap();
    clings(course.path())
        .args(["reset", "print_board", "--yes"])
        .assert()
        .success();
    let file = course.path().join("exercises/print_board.c");
    assert_eq!(std::fs::read_to_string(file).unwrap(), edited);
}

#[test]
fn a_missing_skeleton_is_an_error_that_changes_nothing() {
    let course = copy_course(&repo());
    std::fs::remove_file(course.path().join("skeletons/check_win.c")).unwrap();
    std::fs::write(course.path().join("exercises/check_win.c"), EDITED).unwrap();
    // Start with some progress, so that a reset that went wrong would show in it too.
    clings(course.path())
        .args(["hint", "check_win"])
        .assert()
        .success();
    let before = (
        snapshot(course.path()),
        std::fs::read(course.path().join(".clings-state.json")).unwrap(),
    );
    // Asked (no --yes) or not, it stops before the question, and before any write.
    for args in [
        &["reset", "check_win", "--yes"][..],
        &["reset", "check_win"],
    ] {
        let output = clings(course.path()).args(args).output().unwrap();
        assert_error(&output, "skeletons/check_win.c");
        let stderr = stderr_of(&output);
        assert!(
            stderr.contains("the skeleton of check_win")
                && stderr.contains("git checkout -- skeletons/check_win.c")
                && stderr.contains("nothing was changed"),
            "{stderr}"
        );
        assert!(
            !stdout_of(&output).contains("Reset"),
            "{}",
            stdout_of(&output)
        );
        let after = (
            snapshot(course.path()),
            std::fs::read(course.path().join(".clings-state.json")).unwrap(),
        );
        assert!(before == after, "reset changed a file");
    }
}

#[test]
fn no_course_file_is_built_into_clings() {
    // Editing a course file must never rebuild clings, nor change what it does: no course
    // file is among the binary's build inputs (the dep-info of the latest build of clings,
    // `deps/clings-<hash>.d`; older ones may be of older sources) ...
    let binary = std::path::PathBuf::from(assert_cmd::cargo::cargo_bin!("clings"));
    let deps = binary.parent().unwrap().join("deps");
    let latest = std::fs::read_dir(&deps)
        .unwrap_or_else(|err| panic!("{}: {err}", deps.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            name.starts_with("clings-") && name.ends_with(".d")
        })
        .max_by_key(|path| path.metadata().unwrap().modified().unwrap())
        .unwrap_or_else(|| panic!("no dep-info of clings in {}", deps.display()));
    let inputs = std::fs::read_to_string(&latest).unwrap();
    assert!(inputs.contains("main.rs"), "not clings' dep-info: {inputs}");
    let course_dirs = ["exercises", "skeletons", "solutions", "fixtures"];
    for dir in course_dirs {
        let dir = repo().join(dir);
        assert!(
            !inputs.contains(dir.to_str().unwrap()),
            "{} is built into clings:\n{inputs}",
            dir.display()
        );
    }
    assert!(!inputs.contains("info.toml"), "{inputs}");
    // ... nor named by an include_str!/include_bytes! in src/.
    for entry in walkdir::WalkDir::new(repo().join("src")) {
        let entry = entry.unwrap();
        if !entry.file_type().is_file() {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap();
        for line in text.lines().filter(|line| line.contains("include_")) {
            assert!(
                !course_dirs
                    .iter()
                    .chain(&["info.toml"])
                    .any(|dir| line.contains(dir)),
                "{}: {line}",
                entry.path().display()
            );
        }
    }
}

/// docs/course-authoring.md, "The course as shipped": "print_board has 1 case and 11
/// known-wrong programs, check_win 44 cases and 20, gomoku 27 cases ... and 21, ...": the
/// numbers of that sentence, in order, are the cases and the known-wrong programs of each
/// exercise.
#[test]
fn the_shipped_course_has_the_cases_the_docs_count() {
    let docs = std::fs::read_to_string(repo().join("docs/course-authoring.md")).unwrap();
    let start = docs.find("The course as shipped:").expect("the sentence");
    let sentence = &docs[start..start + docs[start..].find(".\n").unwrap()];
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
    let shipped: Vec<usize> = COURSE_EXERCISES
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
