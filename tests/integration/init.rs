//! `clings init`: a student's own course folder, from the course built into the binary or
//! from a course folder, and the reference solutions it hands out once they are earned.

use crate::common;

use std::path::Path;

use common::*;

/// Every file under `dir`, relative, as text.
fn names_under(dir: &Path) -> Vec<String> {
    files_under(dir)
        .iter()
        .map(|file| file.to_string_lossy().into_owned())
        .collect()
}

/// README, "Install": `clings init DIR` writes the course's exercises (each its
/// skeleton), cases, referee and bots, and nothing of the runner's or the instructor's:
/// no Rust source, no test, no solution, no known-wrong program. It says what to run next.
#[test]
fn init_writes_the_students_folder_and_nothing_of_the_instructors() {
    let place = tempfile::tempdir().unwrap();
    let output = clings(place.path())
        .args(["init", "gomoku"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let said = stdout_of(&output);
    assert!(
        said.contains("cd gomoku") && said.contains("clings run next"),
        "{said}"
    );
    let folder = place.path().join("gomoku");
    let files = names_under(&folder);
    let repo = repo();
    for exercise in COURSE_EXERCISES {
        let file = format!("exercises/{exercise}.c");
        assert_eq!(
            std::fs::read(folder.join(&file)).unwrap(),
            std::fs::read(repo.join(format!("skeletons/{exercise}.c"))).unwrap(),
            "{file} is not its skeleton"
        );
        assert!(
            files
                .iter()
                .any(|f| f.starts_with(&format!("fixtures/{exercise}/"))),
            "no case of {exercise}: {files:?}"
        );
    }
    for needed in [
        "info.toml",
        "referees/gomoku.c",
        "referees/README.md",
        "bots/random.c",
    ] {
        assert!(files.iter().any(|f| f == needed), "no {needed}: {files:?}");
    }
    // The repository's own fixtures, byte for byte.
    for file in files.iter().filter(|f| f.starts_with("fixtures/")) {
        assert_eq!(
            std::fs::read(folder.join(file)).unwrap(),
            std::fs::read(repo.join(file)).unwrap(),
            "{file}"
        );
    }
    let instructors = files.iter().find(|f| {
        f.starts_with("solutions")
            || f.contains("wrong")
            || f.ends_with(".rs")
            || f.starts_with("tests/")
            || f.starts_with("src/")
            || f.starts_with("bench/")
            || f.as_str() == "Cargo.toml"
    });
    assert_eq!(instructors, None, "{files:?}");
}

/// README, "Install": the first verdict, then a pass that earns the reference
/// solution, written to solutions/ and said; `clings list` and `clings hint` work there as
/// in the repository.
#[test]
fn a_passed_exercise_earns_its_reference_solution() {
    let place = tempfile::tempdir().unwrap();
    clings(place.path())
        .args(["init", "course"])
        .assert()
        .code(0);
    let folder = place.path().join("course");
    let first = clings(&folder).args(["run", "next"]).output().unwrap();
    assert_eq!(first.status.code(), Some(1), "{}", stderr_of(&first));
    assert!(
        stdout_of(&first).contains("print_board"),
        "{}",
        stdout_of(&first)
    );
    assert!(!folder.join("solutions").exists());
    clings(&folder).args(["hint"]).assert().code(0);

    let solution = repo().join("solutions/print_board.c");
    std::fs::copy(&solution, folder.join("exercises/print_board.c")).unwrap();
    let passed = clings(&folder).args(["run", "next"]).output().unwrap();
    let said = stdout_of(&passed);
    assert_eq!(
        passed.status.code(),
        Some(0),
        "{said}{}",
        stderr_of(&passed)
    );
    assert!(said.contains("solutions/print_board.c"), "{said}");
    assert_eq!(
        std::fs::read(folder.join("solutions/print_board.c")).unwrap(),
        std::fs::read(&solution).unwrap()
    );
    // Only what was earned: the next exercise's solution is not there.
    assert_eq!(names_under(&folder.join("solutions")), ["print_board.c"]);
    let list = clings(&folder).arg("list").output().unwrap();
    assert!(
        stdout_of(&list).contains("done     print_board"),
        "{}",
        stdout_of(&list)
    );
}

/// docs/student-guide.md, "Your course folder": the repository's course (no `clings init`)
/// hands nothing out: a course without solutions/ gets none written when an exercise passes.
#[test]
fn a_course_not_made_by_init_gets_no_solution_written() {
    let course = sum_course("passing");
    std::fs::remove_dir_all(course.path().join("solutions")).unwrap();
    clings(course.path()).args(["run", "sum"]).assert().code(0);
    assert!(!course.path().join("solutions").exists());
}

/// docs/student-guide.md, "Your course folder": `--from COURSE` makes the folder from a course
/// folder, by the same rule, and hands out that course's solutions.
#[test]
fn init_from_a_course_folder_hands_out_its_solutions() {
    let source = copy_course(&repo().join("tests/course"));
    let place = tempfile::tempdir().unwrap();
    clings(place.path())
        .args(["init", "mine", "--from"])
        .arg(source.path())
        .assert()
        .code(0);
    let folder = place.path().join("mine");
    let files = names_under(&folder);
    assert!(
        files.iter().all(|f| !f.starts_with("solutions")),
        "{files:?}"
    );
    assert!(files.iter().any(|f| f == "exercises/sum.c"), "{files:?}");
    put_program(&folder, "passing");
    clings(&folder).args(["run", "sum"]).assert().code(0);
    assert_eq!(
        std::fs::read(folder.join("solutions/sum.c")).unwrap(),
        std::fs::read(source.path().join("solutions/sum.c")).unwrap()
    );
}

/// Bad input loses nothing: a folder that holds anything, or a file in the way, is refused
/// (exit 2) and left as it was; an empty folder is used.
#[test]
fn init_refuses_a_folder_that_is_not_empty() {
    let place = tempfile::tempdir().unwrap();
    let taken = place.path().join("taken");
    std::fs::create_dir(&taken).unwrap();
    std::fs::write(taken.join("notes.txt"), "mine").unwrap();
    let output = clings(place.path())
        .args(["init", "taken"])
        .output()
        .unwrap();
    assert_error(&output, "not an empty folder");
    assert_eq!(names_under(&taken), ["notes.txt"]);

    std::fs::write(place.path().join("file"), "mine").unwrap();
    let output = clings(place.path())
        .args(["init", "file"])
        .output()
        .unwrap();
    assert_error(&output, "not an empty folder");
    assert_eq!(std::fs::read(place.path().join("file")).unwrap(), b"mine");

    let empty = place.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    clings(&empty).args(["init", "."]).assert().code(0);
    assert!(empty.join("info.toml").is_file());
}

/// Outside any course, clings says how to make one.
#[test]
fn outside_a_course_clings_names_init() {
    let place = tempfile::tempdir().unwrap();
    let output = clings(place.path()).arg("list").output().unwrap();
    assert_error(&output, "clings init");
}

/// The folder is the student's, `.clings-course.toml` included: a passed exercise's
/// solution is taken from a course folder only, from inside it, and never written through
/// a `solutions` that links elsewhere.
#[test]
fn a_tampered_folder_gets_no_file_from_outside_a_course() {
    let source = copy_course(&repo().join("tests/course"));
    let place = tempfile::tempdir().unwrap();
    clings(place.path())
        .args(["init", "mine", "--from"])
        .arg(source.path())
        .assert()
        .code(0);
    let folder = place.path().join("mine");
    put_program(&folder, "passing");
    // An origin that is no course, holding what the info.toml asks for.
    let elsewhere = tempfile::tempdir().unwrap();
    std::fs::create_dir(elsewhere.path().join("solutions")).unwrap();
    std::fs::write(elsewhere.path().join("solutions/sum.c"), "secret").unwrap();
    std::fs::write(
        folder.join(".clings-course.toml"),
        format!("course = {:?}\n", elsewhere.path().display().to_string()),
    )
    .unwrap();
    clings(&folder).args(["run", "sum"]).assert().code(0);
    assert!(!folder.join("solutions").exists());

    // The real course again, but solutions/ leads out of the folder.
    std::fs::write(
        folder.join(".clings-course.toml"),
        format!("course = {:?}\n", source.path().display().to_string()),
    )
    .unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path(), folder.join("solutions")).unwrap();
    clings(&folder).args(["run", "sum"]).assert().code(0);
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
}

/// Issue 35: `init --from` a shared course whose skeleton, folder of cases or file in a
/// folder it copies whole is a symbolic link (to the student's own ssh key, say) is
/// refused, each link named, exit 2: nothing is written, the folder not made, and what a
/// link leads to is never copied.
#[test]
fn init_from_a_course_with_symbolic_links_copies_nothing_and_names_them() {
    use std::os::unix::fs::symlink;
    let source = copy_course(&repo().join("tests/course"));
    let course = source.path();
    let home = tempfile::tempdir().unwrap();
    let secret = marker("secret");
    std::fs::write(home.path().join("id_ed25519"), &secret).unwrap();
    std::fs::create_dir(home.path().join("ssh")).unwrap();
    std::fs::write(home.path().join("ssh/01_hello.out"), &secret).unwrap();
    let key = home.path().join("id_ed25519");
    std::fs::remove_file(course.join("skeletons/sum.c")).unwrap();
    symlink(&key, course.join("skeletons/sum.c")).unwrap();
    std::fs::remove_dir_all(course.join("fixtures/hello")).unwrap();
    symlink(home.path().join("ssh"), course.join("fixtures/hello")).unwrap();
    symlink(&key, course.join("fixtures/sum/03_key.out")).unwrap();

    let place = tempfile::tempdir().unwrap();
    let empty = place.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    for (cwd, target) in [(place.path(), "mine"), (empty.as_path(), ".")] {
        let output = clings(cwd)
            .args(["init", target, "--from"])
            .arg(course)
            .output()
            .unwrap();
        assert_error(&output, "these are symbolic links");
        let stderr = stderr_of(&output);
        for link in [
            format!("skeletons/sum.c -> {}", key.display()),
            format!("fixtures/hello -> {}", home.path().join("ssh").display()),
            format!("fixtures/sum/03_key.out -> {}", key.display()),
        ] {
            assert!(stderr.contains(&link), "{link} not named: {stderr}");
        }
    }
    assert!(!place.path().join("mine").exists());
    let left: Vec<_> = std::fs::read_dir(place.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    assert_eq!(left, ["empty"], "nothing else made");
    assert_eq!(std::fs::read_dir(&empty).unwrap().count(), 0);

    // The course folder itself, as given, may be a link: only what is in it is checked.
    std::fs::remove_file(course.join("skeletons/sum.c")).unwrap();
    std::fs::remove_file(course.join("fixtures/hello")).unwrap();
    std::fs::remove_file(course.join("fixtures/sum/03_key.out")).unwrap();
    std::fs::copy(
        repo().join("tests/course/skeletons/sum.c"),
        course.join("skeletons/sum.c"),
    )
    .unwrap();
    std::fs::create_dir(course.join("fixtures/hello")).unwrap();
    std::fs::copy(
        repo().join("tests/course/fixtures/hello/01_hello.out"),
        course.join("fixtures/hello/01_hello.out"),
    )
    .unwrap();
    symlink(course, place.path().join("shared")).unwrap();
    clings(place.path())
        .args(["init", "mine", "--from", "shared"])
        .assert()
        .code(0);
    assert!(place.path().join("mine/exercises/sum.c").is_file());
}
