//! The student commands end to end, and what happens with bad input.

use crate::common;

use std::path::Path;

use common::*;

/// Puts the reference solution of `hello` in place, so only `sum` decides the outcome.
fn solve_hello(course: &Path) {
    std::fs::copy(
        course.join("solutions/hello.c"),
        course.join("exercises/hello.c"),
    )
    .unwrap();
}

fn cache_entries(course: &Path) -> usize {
    std::fs::read_dir(course.join(".clings/cache"))
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|entry| entry.path().join("diagnostics.txt").is_file())
                .count()
        })
        .unwrap_or(0)
}

#[test]
fn json_report_has_every_field() {
    let course = sum_course("wrong_output");
    solve_hello(course.path());
    let (document, code) = json_results(course.path(), &[]);
    assert_eq!(code, Some(1));
    assert_eq!(document["schema"], "clings-results/1");
    assert_eq!(document["passed"], 1, "hello passes");
    assert_eq!(document["failed"], 1, "sum fails");
    assert_eq!(document["points"], 1);
    assert_eq!(document["max_points"], 4);
    let sum = &document["exercises"][0];
    assert_eq!(sum["name"], "sum");
    assert_eq!(sum["source"], "exercises/sum.c");
    assert_eq!(sum["status"], "failed");
    assert_eq!(sum["points"], 0);
    assert_eq!(sum["max_points"], 3);
    let case = &sum["cases"][1];
    assert_eq!(case["name"], "02_negative");
    assert_eq!(case["verdict"], "wrong_output");
    assert_eq!(case["points"], 0);
    assert_eq!(case["max_points"], 2);
    assert!(case["time_ms"].is_u64());
    assert!(case["message"].as_str().unwrap().contains("differs"));
    let hello = &document["exercises"][1];
    assert_eq!(hello["status"], "passed");
    assert_eq!(hello["cases"][0]["verdict"], "passed");
    assert_eq!(hello["points"], 1);
}

#[test]
fn human_report_ends_with_the_plain_summary_line() {
    let course = sum_course("wrong_output");
    solve_hello(course.path());
    let output = clings(course.path()).arg("test").output().unwrap();
    let stdout = stdout_of(&output);
    assert_eq!(
        stdout.lines().last(),
        Some("1 passed, 1 failed"),
        "{stdout}"
    );
    assert!(
        stdout.contains("-3\n") && stdout.contains("+-1\n"),
        "diff shown: {stdout}"
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn run_next_marks_done_and_moves_on() {
    let course = sum_course("passing");
    let output = clings(course.path())
        .args(["run", "next"])
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("sum passed") && stdout.contains("Next: hello"),
        "{stdout}"
    );

    let list = stdout_of(&clings(course.path()).arg("list").output().unwrap());
    let sum_line = list.lines().find(|l| l.contains("sum")).unwrap();
    let hello_line = list.lines().find(|l| l.contains("hello")).unwrap();
    assert!(sum_line.contains("done"), "{list}");
    assert!(
        hello_line.starts_with('→') && hello_line.contains("current"),
        "{list}"
    );
    assert!(list.contains("1/2 exercises done (50%)"), "{list}");

    // The next `run next` is hello's: its skeleton fails until it is solved.
    let output = clings(course.path())
        .args(["run", "next"])
        .output()
        .unwrap();
    assert!(
        stdout_of(&output).contains("hello — Say hello"),
        "{}",
        stdout_of(&output)
    );
    assert_eq!(output.status.code(), Some(1));
    solve_hello(course.path());
    let output = clings(course.path())
        .args(["run", "next"])
        .output()
        .unwrap();
    assert!(
        stdout_of(&output).contains("hello passed"),
        "{}",
        stdout_of(&output)
    );
    let output = clings(course.path()).arg("run").output().unwrap();
    assert!(stdout_of(&output).contains("Every exercise is done"));
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn failing_run_keeps_the_exercise_current_and_points_at_hints() {
    let course = sum_course("wrong_output");
    let output = clings(course.path()).arg("run").output().unwrap();
    let stdout = stdout_of(&output);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout.contains("hint: Negative numbers"),
        "case hint shown: {stdout}"
    );
    assert!(
        stdout.contains("`clings hint` shows hint 1 of 2"),
        "{stdout}"
    );
    let list = stdout_of(&clings(course.path()).arg("list").output().unwrap());
    assert!(
        list.lines()
            .any(|l| l.contains("current") && l.contains("sum")),
        "{list}"
    );
}

#[test]
fn hints_are_revealed_one_at_a_time_and_remembered() {
    let course = sum_course("wrong_output");
    let hint = |args: &[&str]| stdout_of(&clings(course.path()).args(args).output().unwrap());
    assert!(hint(&["hint", "--all"]).contains("No hint of sum revealed yet"));
    assert!(hint(&["hint"]).contains("Hint 1 of 2 (sum): Read two integers"));
    assert!(hint(&["hint"]).contains("Hint 2 of 2 (sum): printf"));
    let again = hint(&["hint"]);
    assert!(
        again.contains("Hint 2 of 2") && again.contains("last hint"),
        "{again}"
    );
    let all = hint(&["hint", "--all"]);
    assert!(
        all.contains("Hint 1 of 2") && all.contains("Hint 2 of 2"),
        "{all}"
    );
    assert!(hint(&["hint", "hello"]).contains("Hint 1 of 1 (hello)"));
    let chinese = hint(&["--lang", "zh", "hint", "--all"]);
    assert!(chinese.contains("用 scanf 读两个整数"), "{chinese}");
}

#[test]
fn language_follows_lang_environment() {
    let course = sum_course("timeout");
    let output = clings(course.path())
        .env("LANG", "zh_CN.UTF-8")
        .args(["run", "sum"])
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert!(stdout.contains("两数相加"), "Chinese title: {stdout}");
    assert!(
        stdout.contains("没有检查 scanf 的返回值（EOF，即 -1）"),
        "Chinese message: {stdout}"
    );
}

/// The math library is linked for the programs that call it (`-Wl,--as-needed -lm`), with
/// or without the UBSan runtime linked in.
#[test]
fn a_program_that_calls_the_math_library_links() {
    let course = sum_course("passing");
    std::fs::write(
        course.path().join("exercises/sum.c"),
        "#include <math.h>\n#include <stdio.h>\nint main(void) {\n    int a, b;\n    \
         volatile double one = 1.0;\n    if (scanf(\"%d %d\", &a, &b) != 2) return 1;\n    \
         printf(\"%ld\\n\", lround(pow(a + b, one)));\n    return 0;\n}\n",
    )
    .unwrap();
    for sanitizers in ["[]", "[\"undefined\"]"] {
        let course = copy_course(course.path());
        add_to_defaults(course.path(), &format!("sanitizers = {sanitizers}"));
        let output = clings(course.path())
            .args(["test", "sum"])
            .output()
            .unwrap();
        assert_eq!(
            output.status.code(),
            Some(0),
            "{sanitizers}: {}",
            stdout_of(&output)
        );
    }
}

#[test]
fn unchanged_source_is_compiled_once() {
    let course = sum_course("passing");
    clings(course.path())
        .args(["run", "sum"])
        .assert()
        .success();
    clings(course.path())
        .args(["test", "sum"])
        .assert()
        .success();
    assert_eq!(cache_entries(course.path()), 1);
    put_program(course.path(), "wrong_output");
    clings(course.path()).args(["run", "sum"]).assert().code(1);
    assert_eq!(cache_entries(course.path()), 2);
}

/// docs/performance.md, "A cold start": a first `clings test` grades an exercise while the next
/// ones are still compiling, and no build is made twice. The compiler (a wrapper, so the course
/// runs without isolation) logs every compile. `hello`'s compile, once begun, waits until
/// `sum`'s program has run, and `sum`'s program answers only once `hello`'s compile has begun:
/// neither builds first nor grades first gets through, only the two side by side.
#[test]
fn a_first_test_grades_while_it_compiles_and_compiles_each_build_once() {
    let course = sum_course("passing");
    solve_hello(course.path());
    add_to_defaults(
        course.path(),
        "sanitizers = [\"undefined\"]\nstrict_sanitizers = [\"address\"]",
    );
    // Room for each side to wait for the other on a busy machine.
    let info = course.path().join("info.toml");
    let text = std::fs::read_to_string(&info).unwrap();
    std::fs::write(
        &info,
        text.replace("time_limit_ms = 1000", "time_limit_ms = 8000"),
    )
    .unwrap();
    // Runs and compiles are done by users of their own: they write here.
    let shared = tempfile::tempdir().unwrap();
    let open = |path: &Path, mode| {
        std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(mode)).unwrap()
    };
    open(shared.path(), 0o777);
    let [log, graded, compiling] =
        ["compiles.log", "graded", "compiling"].map(|name| shared.path().join(name));
    std::fs::write(&log, "").unwrap();
    open(&log, 0o666);
    std::fs::write(
        course.path().join("exercises/sum.c"),
        format!(
            "#define _POSIX_C_SOURCE 199309L\n#include <stdio.h>\n#include <time.h>\n\
             int main(void) {{\n    struct timespec tenth = {{0, 100000000}};\n    \
             FILE *seen = NULL;\n    \
             for (int i = 0; i < 50 && !(seen = fopen(\"{compiling}\", \"r\")); i++)\n        \
             nanosleep(&tenth, NULL);\n    \
             if (!seen) {{ puts(\"hello is not being compiled\"); return 0; }}\n    \
             fclose(seen);\n    FILE *graded = fopen(\"{graded}\", \"w\");\n    \
             if (graded) fclose(graded);\n    int a, b;\n    \
             if (scanf(\"%d %d\", &a, &b) == 2) printf(\"%d\\n\", a + b);\n    return 0;\n}}\n",
            compiling = compiling.display(),
            graded = graded.display()
        ),
    )
    .unwrap();
    let wrapper = shared.path().join("cc");
    write_script(
        &wrapper,
        &format!(
            "#!/bin/sh\ncase \"$*\" in *-MD*) ;; *) exec gcc \"$@\";; esac\n\
             for arg; do case \"$arg\" in *.c) source=$arg;; -fsanitize=*) tier=$arg;; esac; done\n\
             echo \"$source $tier\" >> '{log}'\n\
             case \"$source\" in *hello.c) [ -e '{compiling}' ] || : > '{compiling}'; i=0\n\
               while [ ! -e '{graded}' ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done\n\
               [ -e '{graded}' ] && echo \"$source $tier: sum was graded\" >> '{log}';; esac\n\
             exec gcc \"$@\"\n",
            log = log.display(),
            compiling = compiling.display(),
            graded = graded.display()
        ),
    );
    let output = clings(course.path())
        .env("CLINGS_ISOLATION", "none")
        .env("CC", &wrapper)
        .args(["test", "--jobs", "2"])
        .output()
        .unwrap();
    let log = std::fs::read_to_string(&log).unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}{}\ncompiles:\n{log}",
        stdout_of(&output),
        stderr_of(&output)
    );
    let mut compiles: Vec<&str> = log
        .lines()
        .filter(|line| !line.ends_with("graded"))
        .collect();
    compiles.sort();
    assert_eq!(
        compiles,
        [
            "exercises/hello.c -fsanitize=address",
            "exercises/hello.c -fsanitize=undefined",
            "exercises/sum.c -fsanitize=address",
            "exercises/sum.c -fsanitize=undefined",
        ],
        "each build once:\n{log}"
    );
    assert!(
        log.contains("exercises/hello.c -fsanitize=undefined: sum was graded"),
        "hello compiled only after the grading:\n{log}"
    );
}

#[test]
fn colour_only_when_asked_and_never_with_no_color() {
    let course = sum_course("wrong_output");
    let run = |envs: &[(&str, &str)]| {
        let mut command = clings(course.path());
        command.args(["run", "sum"]);
        for (key, value) in envs {
            command.env(key, value);
        }
        stdout_of(&command.output().unwrap())
    };
    assert!(!run(&[]).contains('\x1b'), "piped output is plain");
    assert!(
        run(&[("CLICOLOR_FORCE", "1")]).contains('\x1b'),
        "forced colour"
    );
    assert!(
        !run(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]).contains('\x1b'),
        "NO_COLOR wins"
    );
}

#[test]
fn broken_info_toml_names_file_line_and_key() {
    let course = sum_course("passing");
    let info = course.path().join("info.toml");
    let text = std::fs::read_to_string(&info).unwrap();
    let line = 1 + text
        .lines()
        .position(|l| l == "path = \"exercises/hello.c\"")
        .unwrap();
    std::fs::write(
        &info,
        text.replace(
            "path = \"exercises/hello.c\"",
            "pth = \"exercises/hello.c\"",
        ),
    )
    .unwrap();
    let output = clings(course.path()).arg("list").output().unwrap();
    let stderr = stderr_of(&output);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr.contains("info.toml"), "{stderr}");
    assert!(stderr.contains(&format!("line {line}")), "{stderr}");
    assert!(stderr.contains("pth"), "{stderr}");
}

#[test]
fn input_without_expected_output_is_a_course_error() {
    let course = sum_course("passing");
    std::fs::write(course.path().join("fixtures/sum/03_lost.in"), "1 1\n").unwrap();
    let output = clings(course.path())
        .args(["test", "sum"])
        .output()
        .unwrap();
    let stderr = stderr_of(&output);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr.contains("03_lost.in") && stderr.contains("03_lost.out"),
        "{stderr}"
    );
}

#[test]
fn corrupt_state_file_is_reported_and_rebuilt() {
    let course = sum_course("passing");
    let state = course.path().join(".clings-state.json");
    std::fs::write(&state, "{ this is not json").unwrap();
    let output = clings(course.path()).arg("list").output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(
        stderr_of(&output).contains("corrupt"),
        "{}",
        stderr_of(&output)
    );
    let rebuilt: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(rebuilt["done"], serde_json::json!([]));

    // A stale name (an exercise that no longer exists) is dropped, the rest kept.
    std::fs::write(
        &state,
        r#"{"current":null,"done":["gone","sum"],"hints":{}}"#,
    )
    .unwrap();
    let output = clings(course.path()).arg("list").output().unwrap();
    assert!(
        stderr_of(&output).contains("\"gone\""),
        "{}",
        stderr_of(&output)
    );
    let list = stdout_of(&output);
    assert!(
        list.lines()
            .any(|l| l.contains("sum") && l.contains("done")),
        "{list}"
    );
}

#[test]
fn usage_and_unknown_exercise_exit_2() {
    let course = sum_course("passing");
    clings(course.path()).arg("frobnicate").assert().code(2);
    let output = clings(course.path())
        .args(["run", "nope"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr_of(&output).contains("sum, hello"),
        "{}",
        stderr_of(&output)
    );
}

/// `--jobs 0` would run nothing: a usage error (exit 2) that says why, before any grading.
#[test]
fn zero_jobs_is_a_usage_error() {
    let course = sum_course("passing");
    for args in [
        &["--jobs", "0", "test", "sum"][..],
        &["grade", "submissions", "-j", "0"],
        &["--jobs", "many", "run", "sum"],
    ] {
        let output = clings(course.path()).args(args).output().unwrap();
        let stderr = stderr_of(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("--jobs"), "{args:?}: {stderr}");
        assert!(stdout_of(&output).is_empty(), "{args:?}: nothing graded");
    }
    let output = clings(course.path())
        .args(["--jobs", "0", "test", "sum"])
        .output()
        .unwrap();
    assert!(
        stderr_of(&output).contains("0 jobs would run nothing: give at least 1"),
        "{}",
        stderr_of(&output)
    );
}

#[test]
fn outside_a_course_says_where_it_looked() {
    let empty = tempfile::tempdir().unwrap();
    let output = clings(empty.path()).arg("list").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr_of(&output).contains("no info.toml found"),
        "{}",
        stderr_of(&output)
    );
}

#[test]
fn missing_compiler_says_how_to_install_one() {
    let course = sum_course("passing");
    let output = clings(course.path())
        .env("CC", "/nonexistent/cc")
        .args(["run", "sum"])
        .output()
        .unwrap();
    let stderr = stderr_of(&output);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr.contains("no C compiler found") && stderr.contains("apt install gcc"),
        "{stderr}"
    );
}

#[test]
fn unsupported_sanitizer_falls_back_with_a_warning_and_is_probed_once() {
    let course = sum_course("passing");
    // A compiler that refuses one sanitizer, as clang refuses bounds-strict, and notes
    // every call clings makes to it outside the sandbox (its identity, the probes).
    let wrapper = course.path().join("picky-cc");
    let calls = course.path().join("calls.log");
    write_script(
        &wrapper,
        &format!(
            "#!/bin/sh\ncase \"$*\" in *-MD*) ;; *) echo \"$*\" >> '{}';; esac\n\
             for arg; do [ \"$arg\" = -fsanitize=bounds-strict ] && exit 1; done\n\
             exec gcc \"$@\"\n",
            calls.display()
        ),
    );
    let probes = || {
        std::fs::read_to_string(&calls)
            .unwrap_or_default()
            .lines()
            .filter(|call| call.contains("-fsanitize"))
            .count()
    };
    for run in ["first", "second"] {
        let output = clings(course.path())
            .env("CC", &wrapper)
            .args(["run", "sum"])
            .output()
            .unwrap();
        let stderr = stderr_of(&output);
        assert!(
            stderr.contains("does not support -fsanitize=bounds-strict"),
            "{run}: {stderr}"
        );
        // Dropped: the build succeeds without it.
        assert_eq!(
            output.status.code(),
            Some(0),
            "{run}: still graded: {}",
            stdout_of(&output)
        );
        if run == "first" {
            assert!(probes() >= 2, "all sanitizers, then each alone");
            std::fs::remove_file(&calls).unwrap();
        }
    }
    assert_eq!(probes(), 0, "the probe's answer is remembered");
}

/// docs/course-authoring.md, "How a run works": "`$CC`, else the course's `compiler`, else
/// `cc`". Three wrappers, each building `which_compiler.c` with its own name in it; the case
/// expects the one that must win.
#[test]
fn the_compiler_is_cc_then_the_courses_then_cc() {
    let course = sum_course("which_compiler");
    let bin = course.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    for (name, path) in [
        ("env", course.path().join("env-cc")),
        ("course", course.path().join("course-cc")),
        ("cc", bin.join("cc")),
    ] {
        write_script(
            &path,
            &format!("#!/bin/sh\nexec gcc '-DCOMPILER=\"{name}\"' \"$@\"\n"),
        );
    }
    let info = course.path().join("info.toml");
    let text = std::fs::read_to_string(&info).unwrap();
    let with_compiler = text.replace(
        "[defaults]\n",
        &format!(
            "[defaults]\ncompiler = \"{}\"\n",
            course.path().join("course-cc").display()
        ),
    );
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    // A $CC of blanks only is no compiler named: the course's is used.
    for (cc, info_text, expected) in [
        (Some("env-cc"), &with_compiler, "env"),
        (None, &with_compiler, "course"),
        (Some("  "), &with_compiler, "course"),
        (None, &text, "cc"),
    ] {
        std::fs::write(&info, info_text).unwrap();
        for case in ["01_small", "02_negative"] {
            let out = course.path().join(format!("fixtures/sum/{case}.out"));
            std::fs::write(out, format!("{expected}\n")).unwrap();
        }
        let mut command = clings(course.path());
        command.env("PATH", &path).args(["test", "sum"]);
        match cc {
            Some(blank) if blank.trim().is_empty() => command.env("CC", blank),
            Some(cc) => command.env("CC", course.path().join(cc)),
            None => &mut command,
        };
        let output = command.output().unwrap();
        assert_eq!(
            output.status.code(),
            Some(0),
            "{expected} must build it: {}{}",
            stdout_of(&output),
            stderr_of(&output)
        );
    }
}

/// The mark a compile by `traced-cc` (see [`cache_is_keyed_by_flags_and_the_compilers_identity`])
/// left in the diagnostics of the build the report shows.
fn build_mark(course: &Path, compiler: &Path) -> String {
    let output = clings(course)
        .env("CC", compiler)
        .args(["test", "sum"])
        .output()
        .unwrap();
    passing_build_mark(&output)
}

/// docs/course-authoring.md, "How a run works": a build is "keyed by the source, the flags and
/// the compiler's identity": an unchanged file is never compiled again, a change of flags or of
/// compiler rebuilds. Each compile by the wrapper writes a new random mark into the
/// diagnostics, which the cache keeps with the build.
#[test]
fn cache_is_keyed_by_flags_and_the_compilers_identity() {
    let course = sum_course("passing");
    let compiler = course.path().join("traced-cc");
    let traced = |version: &str| {
        format!(
            "#!/bin/sh\n[ \"$1\" = --version ] && {{ echo 'traced-cc {version}'; exit 0; }}\n\
             case \"$*\" in *-MD*) echo \"build $(cat /proc/sys/kernel/random/uuid)\" >&2;; esac\n\
             exec gcc \"$@\"\n"
        )
    };
    write_script(&compiler, &traced("1.0"));
    let first = build_mark(course.path(), &compiler);
    assert_eq!(
        build_mark(course.path(), &compiler),
        first,
        "compiled again"
    );

    add_to_defaults(course.path(), "flags = [\"-std=c99\", \"-Wall\", \"-O1\"]");
    let other_flags = build_mark(course.path(), &compiler);
    assert_ne!(other_flags, first, "other flags, the same build");

    // An upgraded compiler at the same path.
    write_script(&compiler, &traced("2.0"));
    let upgraded = build_mark(course.path(), &compiler);
    assert_ne!(upgraded, other_flags, "another compiler, the same build");
    assert_eq!(build_mark(course.path(), &compiler), upgraded);
}

/// docs/security.md, "The compile step": "an upgraded system header rebuilds". The header is in
/// a directory of the test's own under /usr/local/include (a system directory: only those are
/// digested, as only those are in the compile's sandbox), so this needs root.
#[test]
fn a_changed_system_header_rebuilds() {
    let system = Path::new("/usr/local/include");
    let writable = nix::unistd::access(system, nix::unistd::AccessFlags::W_OK).is_ok();
    if !require(
        writable,
        "cannot write to /usr/local/include (needs root, as in CI) to change a system header",
    ) {
        return;
    }
    let headers = tempfile::Builder::new()
        .prefix("clings-test-")
        .tempdir_in(system)
        .unwrap();
    let header = headers.path().join("operation.h");
    let course = sum_course("passing");
    std::fs::write(
        course.path().join("exercises/sum.c"),
        format!(
            "#include <stdio.h>\n#include \"{}\"\n\
             int main(void)\n{{\n    int a, b;\n    if (scanf(\"%d %d\", &a, &b) != 2)\n        return 1;\n\
             printf(\"%d\\n\", a OPERATION b);\n    return 0;\n}}\n",
            header.display()
        ),
    )
    .unwrap();
    for (operation, verdict) in [("+", "passed"), ("-", "wrong_output"), ("+", "passed")] {
        std::fs::write(&header, format!("#define OPERATION {operation}\n")).unwrap();
        let (document, _) = json_results(course.path(), &["sum"]);
        assert_eq!(
            verdicts(&document, 0),
            [verdict, verdict],
            "with OPERATION {operation}: {document}"
        );
    }
}

#[test]
fn the_course_is_found_from_a_subdirectory() {
    let course = sum_course("passing");
    let output = clings(&course.path().join("fixtures/sum"))
        .args(["run", "sum"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert!(stdout_of(&output).contains("sum passed"));
}

#[test]
fn errors_a_student_meets_are_in_their_language() {
    let course = sum_course("passing");
    let output = clings(course.path())
        .args(["--lang", "zh", "run", "nope"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = stderr_of(&output);
    assert!(
        stderr.contains("错误：没有名为 \"nope\" 的练习"),
        "{stderr}"
    );
    let output = clings(course.path())
        .env("LANG", "zh_CN.UTF-8")
        .env("CC", "/nonexistent/cc")
        .args(["run", "sum"])
        .output()
        .unwrap();
    let stderr = stderr_of(&output);
    assert!(
        stderr.contains("找不到 C 编译器") && stderr.contains("apt install gcc"),
        "{stderr}"
    );
    let empty = tempfile::tempdir().unwrap();
    let output = clings(empty.path())
        .args(["--lang", "zh", "list"])
        .output()
        .unwrap();
    assert!(
        stderr_of(&output).contains("没有找到 info.toml"),
        "{}",
        stderr_of(&output)
    );
}

/// Adds the exercise `greet` to the course in `dir` as an instructor would, with no change
/// to clings: an info.toml entry (its `extra` keys included), the skeleton, the students'
/// copy of it, a solution and a case.
fn add_greet(dir: &Path, extra: &str, skeleton: &str) {
    let info = dir.join("info.toml");
    let mut text = std::fs::read_to_string(&info).unwrap();
    text.push_str(&format!(
        "\n[[exercises]]\nname = \"greet\"\ntitle = {{ en = \"Greet\", zh = \"问候\" }}\n\
         path = \"exercises/greet.c\"\n{extra}\
         hints = [{{ en = \"puts\", zh = \"puts\" }}]\n"
    ));
    std::fs::write(info, text).unwrap();
    let start = "#include <stdio.h>\nint main(void) { /* TODO: say hi */ return 0; }\n";
    for file in [skeleton, "exercises/greet.c"] {
        std::fs::create_dir_all(dir.join(file).parent().unwrap()).unwrap();
        std::fs::write(dir.join(file), start).unwrap();
    }
    std::fs::write(
        dir.join("solutions/greet.c"),
        "#include <stdio.h>\nint main(void) { puts(\"hi\"); return 0; }\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("fixtures/greet")).unwrap();
    std::fs::write(dir.join("fixtures/greet/01_hi.out"), "hi\n").unwrap();
}

#[test]
fn an_exercise_the_instructor_adds_can_be_reset() {
    let course = copy_course(&repo().join("tests/course"));
    add_greet(course.path(), "", "skeletons/greet.c");
    let output = clings(course.path())
        .args(["dev", "check"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stdout_of(&output));
    assert!(
        stdout_of(&output).contains("skeleton  skeletons/greet.c  fails 1/1"),
        "{}",
        stdout_of(&output)
    );

    let file = course.path().join("exercises/greet.c");
    let skeleton = std::fs::read_to_string(course.path().join("skeletons/greet.c")).unwrap();
    std::fs::write(&file, "int main(void) { return 1; }\n").unwrap();
    clings(course.path())
        .args(["reset", "greet", "--yes"])
        .assert()
        .success();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), skeleton);
}

#[test]
fn a_skeleton_key_puts_the_skeleton_anywhere_in_the_course() {
    let course = copy_course(&repo().join("tests/course"));
    add_greet(
        course.path(),
        "skeleton = \"starts/greeting.c\"\n",
        "starts/greeting.c",
    );
    let output = clings(course.path())
        .args(["dev", "check"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stdout_of(&output));
    let file = course.path().join("exercises/greet.c");
    std::fs::remove_file(&file).unwrap();
    clings(course.path())
        .args(["reset", "greet", "--yes"])
        .assert()
        .success();
    let skeleton = std::fs::read_to_string(course.path().join("starts/greeting.c")).unwrap();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), skeleton);
}

/// docs/student-guide.md, "Commands": cases run in parallel, `--jobs N` at once (default: one
/// per core). Four cases of a program that sleeps a second (under a limit of 10 s): one at a
/// time they take 4 s at least; several at once take less than the sum of their times, which
/// only runs at the same time can.
#[test]
fn cases_run_at_once_up_to_jobs() {
    let course = sum_course("slow_sum");
    let fixtures = course.path().join("fixtures/sum");
    for case in ["03_more", "04_most"] {
        for part in ["in", "out"] {
            std::fs::copy(
                fixtures.join(format!("01_small.{part}")),
                fixtures.join(format!("{case}.{part}")),
            )
            .unwrap();
        }
    }
    for case in ["01_small", "02_negative", "03_more", "04_most"] {
        std::fs::write(
            fixtures.join(format!("{case}.toml")),
            "time_limit_ms = 10000\n",
        )
        .unwrap();
    }
    let grade = |jobs: Option<&str>| {
        let started = std::time::Instant::now();
        let mut command = clings(course.path());
        if let Some(jobs) = jobs {
            command.args(["--jobs", jobs]);
        }
        let output = command
            .args(["test", "sum", "--format", "json"])
            .output()
            .unwrap();
        let took = started.elapsed();
        let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(verdicts(&document, 0), ["passed"; 4], "{document}");
        let times: u64 = document["exercises"][0]["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|case| case["time_ms"].as_u64().unwrap())
            .sum();
        (took, std::time::Duration::from_millis(times))
    };
    // Also builds the program, so that the second grading only runs it.
    let (one_at_a_time, _) = grade(Some("1"));
    assert!(
        one_at_a_time >= std::time::Duration::from_secs(4),
        "--jobs 1 took {one_at_a_time:?}"
    );
    let (four_at_once, cases) = grade(Some("4"));
    assert!(
        four_at_once < cases,
        "--jobs 4 took {four_at_once:?}, its cases {cases:?} in all"
    );
    // By default, one per core.
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let (by_default, cases) = grade(None);
    if cores > 1 {
        assert!(
            by_default < cases,
            "{cores} cores: {by_default:?}, {cases:?} in all"
        );
    }
}

/// A compiler that is there but cannot be run is not called "not installed": the message
/// says what failed.
#[test]
fn a_compiler_that_cannot_be_run_is_named_with_the_reason() {
    let course = sum_course("passing");
    let not_executable = course.path().join("not-a-compiler");
    std::fs::write(&not_executable, "plain text\n").unwrap();
    let output = clings(course.path())
        .env("CC", &not_executable)
        .args(["run", "sum"])
        .output()
        .unwrap();
    let stderr = stderr_of(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("cannot run the C compiler"), "{stderr}");
    assert!(!stderr.contains("not installed"), "{stderr}");
}

/// The compiler speaks the student's language where it can: `LANG` and the other locale
/// variables reach it (and nothing else of clings' environment does, see hostile.rs).
#[test]
fn the_compiler_gets_the_students_locale() {
    let course = sum_course("passing");
    let cc = course.path().join("locale-cc");
    write_script(
        &cc,
        "#!/bin/sh\necho \"locale: LANG=$LANG LC_ALL=$LC_ALL LC_MESSAGES=$LC_MESSAGES LANGUAGE=$LANGUAGE\" >&2\nexit 1\n",
    );
    let output = clings(course.path())
        .env("CC", &cc)
        .env("LANG", "zh_CN.UTF-8")
        .env("LC_ALL", "zh_CN.UTF-8")
        .env("LC_MESSAGES", "zh_CN.UTF-8")
        .env("LANGUAGE", "zh_CN:en")
        .args(["run", "sum"])
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert!(
        stdout.contains(
            "locale: LANG=zh_CN.UTF-8 LC_ALL=zh_CN.UTF-8 LC_MESSAGES=zh_CN.UTF-8 LANGUAGE=zh_CN:en"
        ),
        "{stdout}{}",
        stderr_of(&output)
    );
}
