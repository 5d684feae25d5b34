//! Test cases: `fixtures/<exercise>/<case>.out` with an optional `.in` and `.toml`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::Deserialize;
use walkdir::WalkDir;

use crate::compare::CompareMode;
use crate::i18n::Text;

/// A case's optional settings, from `<case>.toml`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseConfig {
    pub description: Option<Text>,
    pub points: Option<u32>,
    pub time_limit_ms: Option<u64>,
    /// The course's limits, for this case (see [`crate::course::Defaults`]).
    pub cpu_time_ms: Option<u64>,
    pub memory_mb: Option<u64>,
    pub processes: Option<u64>,
    pub file_size_bytes: Option<u64>,
    pub open_files: Option<u64>,
    pub compare: Option<CompareMode>,
    /// Shown when this case fails: the mistake it is designed to catch.
    pub hint: Option<Text>,
}

#[derive(Clone, Debug)]
pub struct Case {
    pub name: String,
    /// Absent means the program gets an empty stdin.
    pub input: Option<PathBuf>,
    pub expected_path: PathBuf,
    pub config: CaseConfig,
    /// A hidden case reports its verdict and hint, never its input, output or diff.
    pub hidden: bool,
}

impl Case {
    pub fn points(&self) -> u32 {
        self.config.points.unwrap_or(1)
    }

    pub fn expected(&self) -> Result<Vec<u8>> {
        std::fs::read(&self.expected_path)
            .with_context(|| format!("cannot read {}", self.expected_path.display()))
    }
}

/// The files one case is made of, gathered before they are checked for completeness.
#[derive(Default)]
struct CaseFiles {
    input: Option<PathBuf>,
    expected: Option<PathBuf>,
    config: Option<PathBuf>,
}

/// Every case in `dir`, in name order. An `.in` or `.toml` without its `.out` is an error.
pub fn discover(dir: &Path) -> Result<Vec<Case>> {
    if !dir.is_dir() {
        bail!(
            "missing fixtures: {} does not exist (each exercise needs at least one <case>.out there)",
            dir.display()
        );
    }
    let mut files: BTreeMap<String, CaseFiles> = BTreeMap::new();
    for entry in WalkDir::new(dir)
        .min_depth(1)
        .max_depth(1)
        .sort_by_file_name()
    {
        let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
        let path = entry.path();
        let (Some(stem), Some(ext)) = (path.file_stem(), path.extension()) else {
            continue;
        };
        if !matches!(ext.to_str(), Some("in" | "out" | "toml")) {
            continue;
        }
        let slot = files
            .entry(stem.to_string_lossy().into_owned())
            .or_default();
        let part = match ext.to_str() {
            Some("in") => &mut slot.input,
            Some("out") => &mut slot.expected,
            _ => &mut slot.config,
        };
        *part = Some(path.to_path_buf());
    }
    let mut cases = Vec::with_capacity(files.len());
    for (name, found) in files {
        let Some(expected_path) = found.expected else {
            let orphan = found
                .input
                .or(found.config)
                .expect("a case has at least one file");
            bail!(
                "{} has no expected output: add {} (or `clings dev new-case` computes it)",
                orphan.display(),
                dir.join(format!("{name}.out")).display()
            );
        };
        let config = match &found.config {
            Some(path) => load_config(path)?,
            None => CaseConfig::default(),
        };
        cases.push(Case {
            name,
            input: found.input,
            expected_path,
            config,
            hidden: false,
        });
    }
    if cases.is_empty() {
        bail!("missing fixtures: no <case>.out in {}", dir.display());
    }
    Ok(cases)
}

fn load_config(path: &Path) -> Result<CaseConfig> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    toml::from_str(&text)
        .map_err(|err| anyhow::anyhow!("{}: invalid case file\n{err}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_are_found_in_name_order_with_their_parts() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("02_b.out"), "b\n").unwrap();
        std::fs::write(dir.path().join("01_a.out"), "a\n").unwrap();
        std::fs::write(dir.path().join("01_a.in"), "x\n").unwrap();
        std::fs::write(dir.path().join("01_a.toml"), "points = 3\n").unwrap();
        let cases = discover(dir.path()).unwrap();
        let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["01_a", "02_b"]);
        assert!(cases[0].input.is_some() && cases[1].input.is_none());
        assert_eq!(cases[0].points(), 3);
        assert_eq!(cases[1].points(), 1);
    }

    #[test]
    fn input_without_output_is_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("01_a.out"), "a\n").unwrap();
        std::fs::write(dir.path().join("02_lost.in"), "x\n").unwrap();
        let err = discover(dir.path()).unwrap_err().to_string();
        assert!(err.contains("02_lost.in"), "{err}");
        assert!(err.contains("02_lost.out"), "{err}");
    }

    #[test]
    fn unknown_case_key_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("01_a.out"), "a\n").unwrap();
        std::fs::write(dir.path().join("01_a.toml"), "pionts = 3\n").unwrap();
        let err = format!("{:#}", discover(dir.path()).unwrap_err());
        assert!(err.contains("01_a.toml") && err.contains("pionts"), "{err}");
    }
}
