//! Issue 35: the build cache keeps at most its bound (`CLINGS_BUILD_CACHE_BYTES`), the
//! least recently used builds evicted first and never one in use; a build larger than the
//! bound is used and not kept; `CLINGS_BUILD_CACHE=off` writes nothing under
//! `.clings/cache`.

use crate::common;

use std::path::{Path, PathBuf};

use common::*;

const MIB: u64 = 1 << 20;

/// `passing.c` with an initialised array of `mib` MiB, which makes the program as large;
/// `tag` tells sources of one size apart.
fn padded(program: &str, mib: u64, tag: &str) -> String {
    let source = std::fs::read_to_string(repo().join(program)).unwrap();
    format!(
        "{source}\n/* {tag} */\nconst char padding[{}] = {{1}};\n",
        mib * MIB
    )
}

/// A compiler that writes a fresh mark into the diagnostics of every build it makes, which
/// the cache keeps with it: the same mark again is the build found in the cache.
fn marking_compiler(dir: &Path) -> PathBuf {
    let compiler = dir.join("marking-cc");
    write_script(
        &compiler,
        "#!/bin/sh\n[ \"$1\" = --version ] && { echo 'marking-cc 1'; exit 0; }\n\
         case \"$*\" in *-MD*) echo \"build $(cat /proc/sys/kernel/random/uuid)\" >&2;; esac\n\
         exec gcc \"$@\"\n",
    );
    compiler
}

/// The builds in the course's cache: each one's mark and the bytes its files take.
fn cached(course: &Path) -> Vec<(String, u64)> {
    let Ok(entries) = std::fs::read_dir(course.join(".clings/cache")) else {
        return Vec::new();
    };
    entries
        .map(|entry| entry.unwrap().path())
        .filter(|entry| entry.join("diagnostics.txt").is_file())
        .map(|entry| {
            let diagnostics = std::fs::read_to_string(entry.join("diagnostics.txt")).unwrap();
            let mark = diagnostics
                .lines()
                .find_map(|line| line.strip_prefix("build "))
                .unwrap_or_default()
                .to_string();
            let size = std::fs::read_dir(&entry)
                .unwrap()
                .map(|file| file.unwrap().metadata().unwrap().len())
                .sum();
            (mark, size)
        })
        .collect()
}

/// `clings test sum` on `source`, which must pass; the mark of the build it ran.
fn test_sum(course: &Path, compiler: &Path, bound: &str, source: &str) -> String {
    std::fs::write(course.join("exercises/sum.c"), source).unwrap();
    let output = clings(course)
        .env("CC", compiler)
        .env("CLINGS_BUILD_CACHE_BYTES", bound)
        .args(["test", "sum"])
        .output()
        .unwrap();
    passing_build_mark(&output)
}

/// Builds of 6, 3, 5, 4 and 7 MiB, and one found again, under a bound of 16 MiB: after
/// each run the cache holds at most 16 MiB, and what it holds are the builds used last
/// (the least recently used gone first); the newest is found, not compiled again. A build
/// of 20 MiB is graded and not kept, and the others stay.
#[test]
fn the_cache_keeps_its_bound_evicting_the_least_recently_used() {
    let course = sum_course("passing");
    let compiler = marking_compiler(course.path());
    let bound = 16 * MIB;
    let sources: Vec<String> = [6, 3, 5, 4, 7]
        .iter()
        .map(|mib| padded("tests/programs/passing.c", *mib, &format!("{mib} MiB")))
        .collect();
    // The marks of the builds, least recently used first.
    let mut used: Vec<String> = Vec::new();
    let mut marks: Vec<String> = Vec::new();
    // The 3 MiB build is used again before the 4 MiB one comes.
    for index in [0, 1, 2, 1, 3, 4] {
        let mark = test_sum(
            course.path(),
            &compiler,
            &bound.to_string(),
            &sources[index],
        );
        match marks.get(index) {
            Some(known) => assert_eq!(&mark, known, "build {index} was compiled again"),
            None => marks.push(mark.clone()),
        }
        used.retain(|known| *known != mark);
        used.push(mark);
        let held = cached(course.path());
        let total: u64 = held.iter().map(|(_, size)| size).sum();
        assert!(total <= bound, "{total} bytes held: {held:?}");
        let kept: Vec<&String> = used[used.len() - held.len()..].iter().collect();
        for (mark, _) in &held {
            assert!(
                kept.contains(&mark),
                "{mark} kept, not one of the last {kept:?}"
            );
        }
    }
    let before = cached(course.path());
    assert!(before.len() >= 2, "{before:?}");
    assert!(
        !before.iter().any(|(mark, _)| *mark == marks[0]),
        "the least recently used is gone"
    );
    let newest = test_sum(course.path(), &compiler, &bound.to_string(), &sources[4]);
    assert_eq!(newest, marks[4], "the newest is found in the cache");

    let big = padded("tests/programs/passing.c", 20, "20 MiB");
    test_sum(course.path(), &compiler, &bound.to_string(), &big);
    let mut after = cached(course.path());
    let mut before = before;
    after.sort();
    before.sort();
    assert_eq!(after, before, "the build over the bound is not kept");
}

/// A tournament runs its players long after it builds them: a bound that holds one
/// player's build at a time evicts none of those in use, every game is played, and the
/// cache is back within its bound when the tournament ends.
#[test]
fn builds_in_use_are_never_evicted() {
    let course = copy_course(&repo());
    let root = course.path();
    for (student, mib) in [("ana", 3), ("ben", 4), ("cai", 5)] {
        let dir = root.join("class").join(student).join("exercises");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("ai.c"), padded("solutions/ai.c", mib, student)).unwrap();
    }
    let bound = 6 * MIB;
    let output = clings(root)
        .env("CLINGS_BUILD_CACHE_BYTES", bound.to_string())
        .args(["tournament", "class", "--out", "t"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let document: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("t/tournament.json")).unwrap()).unwrap();
    let players = document["players"].as_array().unwrap();
    assert!(
        players.iter().all(|player| player["forfeits"].is_null()),
        "{document}"
    );
    for game in document["games"].as_array().unwrap() {
        assert!(
            !game["moves"].as_array().unwrap().is_empty(),
            "a game not played: {game}"
        );
    }
    let total: u64 = cached(root).iter().map(|(_, size)| size).sum();
    assert!(total <= bound, "{total} bytes held");
}

/// Two `grade`s at once on one course, each class of builds that the bound holds one of:
/// each evicts the other's builds, none it is running, and every student is graded.
#[test]
fn two_gradings_at_once_share_a_small_cache() {
    let course = sum_course("passing");
    let root = tempfile::tempdir().unwrap();
    for class in ["one", "two"] {
        for student in 0..4 {
            let dir = root.path().join(class).join(format!("s{student}"));
            std::fs::create_dir_all(&dir).unwrap();
            let source = padded("tests/programs/passing.c", 2, &format!("{class} {student}"));
            std::fs::write(dir.join("sum.c"), source).unwrap();
        }
    }
    let bound = 3 * MIB;
    let gradings: Vec<std::process::Child> = ["one", "two"]
        .iter()
        .map(|class| {
            clings_process(course.path())
                .env("CLINGS_BUILD_CACHE_BYTES", bound.to_string())
                .args(["--jobs", "2", "grade"])
                .arg(root.path().join(class))
                .arg("--out")
                .arg(root.path().join(format!("{class}-book")))
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for grading in gradings {
        let output = grading.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    }
    for class in ["one", "two"] {
        let book: serde_json::Value = serde_json::from_slice(
            &std::fs::read(root.path().join(format!("{class}-book/grades.json"))).unwrap(),
        )
        .unwrap();
        for student in book["students"].as_array().unwrap() {
            assert_eq!(student["results"]["points"], 3, "{student}");
        }
    }
    let total: u64 = cached(course.path()).iter().map(|(_, size)| size).sum();
    assert!(total <= bound, "{total} bytes held");
}

/// `CLINGS_BUILD_CACHE=off`: nothing is written under `.clings/cache`, each run compiles,
/// and the run's own builds are gone when it ends.
#[test]
fn with_the_cache_off_nothing_is_kept() {
    let course = sum_course("passing");
    let compiler = marking_compiler(course.path());
    let temporary = tempfile::tempdir().unwrap();
    let run = || {
        let output = clings(course.path())
            .env("CC", &compiler)
            .env("CLINGS_BUILD_CACHE", "off")
            .env("TMPDIR", temporary.path())
            .args(["test", "sum"])
            .output()
            .unwrap();
        passing_build_mark(&output)
    };
    let (first, second) = (run(), run());
    assert_ne!(first, second, "compiled by each run");
    let cache = course.path().join(".clings/cache");
    assert!(
        !cache.exists() || std::fs::read_dir(&cache).unwrap().next().is_none(),
        "{:?}",
        files_under(&cache)
    );
    assert_eq!(
        std::fs::read_dir(temporary.path()).unwrap().count(),
        0,
        "{:?}",
        files_under(temporary.path())
    );
    // A value that is neither is an error, before anything is graded.
    let output = clings(course.path())
        .env("CLINGS_BUILD_CACHE", "no")
        .args(["test", "sum"])
        .output()
        .unwrap();
    assert_error(
        &output,
        "CLINGS_BUILD_CACHE=no: `on` (the default) or `off`",
    );
}

/// A sum that is right only when the compiler optimises.
const RIGHT_WHEN_OPTIMISED: &str = "#include <stdio.h>\nint main(void)\n{\n    int a, b;\n    \
    if (scanf(\"%d %d\", &a, &b) != 2)\n        return 1;\n#ifdef __OPTIMIZE__\n    \
    printf(\"%d\\n\", a + b);\n#else\n    printf(\"%d\\n\", a - b);\n#endif\n    return 0;\n}\n";

/// A greeting that is right only when the compiler does not optimise.
const RIGHT_WHEN_NOT_OPTIMISED: &str = "#include <stdio.h>\nint main(void)\n{\n#ifdef __OPTIMIZE__\n    \
    puts(\"optimised\");\n#else\n    puts(\"hello\");\n#endif\n    return 0;\n}\n";

/// An exercise's `flags` come after the course's in every build of its programs, the
/// strict tier's too, and in no other exercise's: with `flags = ["-O2"]` on `sum`, a sum
/// right only when optimised passes both tiers though its -O0 build is in the cache, and
/// `hello` is still built as the course builds.
#[test]
fn an_exercises_flags_build_its_programs_and_no_others() {
    let course = sum_course("passing");
    add_to_defaults(course.path(), "strict_sanitizers = [\"address\"]");
    std::fs::write(course.path().join("exercises/sum.c"), RIGHT_WHEN_OPTIMISED).unwrap();
    std::fs::write(
        course.path().join("exercises/hello.c"),
        RIGHT_WHEN_NOT_OPTIMISED,
    )
    .unwrap();
    let (document, code) = json_results(course.path(), &[]);
    assert_eq!(verdicts(&document, 0), ["wrong_output", "wrong_output"]);
    assert_eq!(verdicts(&document, 1), ["passed"]);
    assert_eq!(code, Some(1));

    add_key_to_sum(course.path(), "flags = [\"-O2\"]");
    let output = clings(course.path())
        .args(["test", "--format", "json"])
        .env("CLINGS_TIMINGS", "1")
        .output()
        .unwrap();
    let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(verdicts(&document, 0), ["passed", "passed"]);
    assert_eq!(verdicts(&document, 1), ["passed"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    // sum's two cases ran in both tiers (its strict build was optimised too), and hello's
    // once: its strict pass is remembered from the first run, as its build is the same.
    let runs = stderr_of(&output)
        .lines()
        .find_map(|line| line.strip_prefix("run "))
        .and_then(|line| line.split_whitespace().nth(1)?.parse::<u32>().ok());
    assert_eq!(runs, Some(5), "{}", stderr_of(&output));
}
