//! `clings dev new-case EXERCISE NAME`: a new case whose expected output comes from the
//! reference solution.

use std::io::Read;
use std::path::Path;

use anyhow::{Context, Result, bail};

use crate::app::App;
use crate::commands::Exit;
use crate::i18n::count;

pub fn run(
    app: &App,
    exercise: &str,
    name: &str,
    input: Option<&Path>,
    description: Option<&str>,
    description_zh: Option<&str>,
) -> Result<Exit> {
    // Checked first, so a description `dev check` would reject leaves no case behind.
    let description = match (description, description_zh) {
        (Some(en), Some(zh)) => Some((en, zh)),
        (None, None) => None,
        (Some(_), None) | (None, Some(_)) => bail!(
            "give the description in both languages, --description TEXT and \
             --description-zh TEXT: every description is shown in English and Chinese, and \
             dev check rejects one without its translation"
        ),
    };
    let course = &app.course;
    let exercise = course.exercise(exercise)?;
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !valid {
        bail!("{name:?} is not a valid case name (letters, digits, `_` and `-`)");
    }
    let dir = course.fixtures_dir(exercise);
    let taken = ["in", "out", "toml"]
        .iter()
        .map(|ext| dir.join(format!("{name}.{ext}")))
        .find(|path| path.exists());
    if let Some(path) = taken {
        bail!(
            "case {name} already exists ({}): choose another name",
            path.display()
        );
    }

    let text = match (input, exercise.input.reads_input()) {
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
    let program = grader.build(&exercise.solution_path())?;
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
    let expected =
        grader.reference_output(&program, staged_input.as_ref().map(|file| file.path()))?;

    let out_path = dir.join(format!("{name}.out"));
    if let Some(file) = staged_input {
        file.persist(dir.join(format!("{name}.in")))
            .with_context(|| format!("cannot write {name}.in"))?;
    }
    std::fs::write(&out_path, &expected)
        .with_context(|| format!("cannot write {}", out_path.display()))?;
    if let Some((en, zh)) = description {
        let toml_path = dir.join(format!("{name}.toml"));
        // One inline table, as the course's other case files write it.
        let quoted = |text: &str| toml::Value::String(text.into()).to_string();
        let text = format!(
            "description = {{ en = {}, zh = {} }}\n",
            quoted(en),
            quoted(zh)
        );
        std::fs::write(&toml_path, text)
            .with_context(|| format!("cannot write {}", toml_path.display()))?;
    }
    println!(
        "added case {name} to {}; expected output ({}):",
        exercise.name,
        count(expected.len(), "byte", "bytes")
    );
    print!("{}", String::from_utf8_lossy(&expected));
    Ok(Exit::Success)
}
