//! `clings dev new-case EXERCISE NAME`: a new case whose expected output (and the files
//! it expects the program to leave) comes from the reference solution.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::app::App;
use crate::commands::Exit;
use crate::course::fixture::{self, Case, CaseConfig};
use crate::util::i18n::count;

/// `dev new-case`: what the case is made of.
#[derive(clap::Args)]
pub struct Args {
    pub exercise: String,
    pub name: String,
    /// The case's stdin (default: read from stdin, unless the exercise reads none, or the
    /// case has arguments).
    #[arg(long)]
    pub input: Option<PathBuf>,
    /// A command-line argument for the program (repeat for several).
    #[arg(long = "arg", value_name = "ARG", allow_hyphen_values = true)]
    pub args: Vec<String>,
    /// A file placed in the program's working directory before it starts, under its own
    /// name (repeat for several); copied to <case>.given/.
    #[arg(long, value_name = "FILE")]
    pub given: Vec<PathBuf>,
    /// A file the program must leave in its working directory (repeat for several); the
    /// reference solution's is written to <case>.expected/.
    #[arg(long = "expect-file", value_name = "NAME")]
    pub expect_files: Vec<String>,
    /// The exit status the program must end with (default 0).
    #[arg(long, value_name = "STATUS")]
    pub exit_code: Option<i32>,
    /// The case's description in English, written to its .toml (with --description-zh:
    /// every description is in both languages).
    #[arg(long, value_name = "TEXT")]
    pub description: Option<String>,
    /// The same description in Chinese.
    #[arg(long, value_name = "TEXT")]
    pub description_zh: Option<String>,
}

pub fn run(app: &App, new: &Args) -> Result<Exit> {
    let name = new.name.as_str();
    // Checked first, so a description `dev check` would reject leaves no case behind.
    let description = match (new.description.as_deref(), new.description_zh.as_deref()) {
        (Some(en), Some(zh)) => Some((en, zh)),
        (None, None) => None,
        (Some(_), None) | (None, Some(_)) => bail!(
            "give the description in both languages, --description TEXT and \
             --description-zh TEXT: every description is shown in English and Chinese, and \
             dev check rejects one without its translation"
        ),
    };
    let given = given_files(&new.given)?;
    for file in &new.expect_files {
        if !crate::sandbox::valid_file_name(file) {
            bail!(
                "--expect-file {file:?}: a file the program leaves is named by a plain name in its working directory (no path, not hidden)"
            );
        }
    }
    let course = &app.course;
    let exercise = course.exercise(&new.exercise)?;
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !valid {
        bail!("{name:?} is not a valid case name (letters, digits, `_` and `-`)");
    }
    let dir = course.fixtures_dir(exercise);
    let taken = ["in", "out", "toml", fixture::GIVEN, fixture::EXPECTED]
        .iter()
        .map(|ext| dir.join(format!("{name}.{ext}")))
        .find(|path| path.exists());
    if let Some(path) = taken {
        bail!(
            "case {name} already exists ({}): choose another name",
            path.display()
        );
    }

    // A program given arguments reads its files, not stdin, unless told otherwise.
    let reads_stdin = exercise.input.reads_input() && new.args.is_empty();
    let text = match (new.input.as_deref(), reads_stdin) {
        (Some(path), _) => Some(
            std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?,
        ),
        (None, false) => None,
        (None, true) => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .context("cannot read the case's input from stdin")?;
            Some(text)
        }
    };
    if let Some(text) = &text {
        exercise.input.check(text).map_err(|what| {
            anyhow::anyhow!("the input is not what {} reads: {what}", exercise.name)
        })?;
    }

    let grader = app.grader()?;
    let program = grader.build(exercise, &exercise.solution_path())?;
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    // The input goes to a temporary file first, so a failing solution leaves nothing behind.
    let staged_input = text
        .map(|text| -> Result<tempfile::NamedTempFile> {
            let mut file = tempfile::NamedTempFile::new_in(&dir)
                .with_context(|| format!("cannot write in {}", dir.display()))?;
            std::io::Write::write_all(&mut file, text.as_bytes())
                .context("cannot write the input")?;
            Ok(file)
        })
        .transpose()?;
    let config = CaseConfig {
        args: new.args.clone(),
        exit_code: new.exit_code,
        ..CaseConfig::default()
    };
    let case = Case {
        name: name.to_string(),
        input: staged_input.as_ref().map(|file| file.path().to_path_buf()),
        expected_path: dir.join(format!("{name}.out")),
        config,
        given: given.clone(),
        expected_files: new
            .expect_files
            .iter()
            .map(|file| {
                (
                    file.clone(),
                    dir.join(format!("{name}.{}", fixture::EXPECTED)).join(file),
                )
            })
            .collect(),
        hidden: false,
    };
    let reference = grader.reference_run(&program, &case)?;

    if let Some(file) = staged_input {
        file.persist(dir.join(format!("{name}.in")))
            .with_context(|| format!("cannot write {name}.in"))?;
    }
    write(&case.expected_path, &reference.stdout)?;
    for (file, source) in &given {
        let folder = dir.join(format!("{name}.{}", fixture::GIVEN));
        create_dir(&folder)?;
        std::fs::copy(source, folder.join(file))
            .with_context(|| format!("cannot copy {} to {}", source.display(), folder.display()))?;
    }
    for ((_, path), (_, content)) in case.expected_files.iter().zip(&reference.files) {
        create_dir(path.parent().expect("a file in the case's folder"))?;
        write(path, content)?;
    }
    let settings = case_settings(description, new);
    if !settings.is_empty() {
        write(&dir.join(format!("{name}.toml")), settings.as_bytes())?;
    }
    println!(
        "added case {name} to {}; expected output ({}):",
        exercise.name,
        count(reference.stdout.len(), "byte", "bytes")
    );
    print!("{}", String::from_utf8_lossy(&reference.stdout));
    for (file, content) in &reference.files {
        println!(
            "expected file {file} ({}):",
            count(content.len(), "byte", "bytes")
        );
        print!("{}", String::from_utf8_lossy(content));
    }
    Ok(Exit::Success)
}

/// The files of `--given`, each under its own name.
fn given_files(paths: &[PathBuf]) -> Result<Vec<(String, PathBuf)>> {
    let mut given: Vec<(String, PathBuf)> = Vec::new();
    for path in paths {
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or_default();
        if !path.is_file() {
            bail!("--given {}: no such file", path.display());
        }
        if !crate::sandbox::valid_file_name(name) || given.iter().any(|(taken, _)| taken == name) {
            bail!(
                "--given {}: each given file needs a plain name of its own (not hidden), as the program finds it in its working directory",
                path.display()
            );
        }
        given.push((name.to_string(), path.clone()));
    }
    Ok(given)
}

/// The case's `.toml`, in the course's style: the description as one inline table, then
/// the arguments and the exit status when given.
fn case_settings(description: Option<(&str, &str)>, new: &Args) -> String {
    let quoted = |text: &str| toml::Value::String(text.into()).to_string();
    let mut text = String::new();
    if let Some((en, zh)) = description {
        text.push_str(&format!(
            "description = {{ en = {}, zh = {} }}\n",
            quoted(en),
            quoted(zh)
        ));
    }
    if !new.args.is_empty() {
        let args: Vec<String> = new.args.iter().map(|arg| quoted(arg)).collect();
        text.push_str(&format!("args = [{}]\n", args.join(", ")));
    }
    if let Some(code) = new.exit_code {
        text.push_str(&format!("exit_code = {code}\n"));
    }
    text
}

fn create_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))
}

fn write(path: &Path, content: &[u8]) -> Result<()> {
    std::fs::write(path, content).with_context(|| format!("cannot write {}", path.display()))
}
