//! Test cases: `fixtures/<exercise>/<case>.out` with an optional `.in` and `.toml`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::Deserialize;
use walkdir::WalkDir;

use crate::util::i18n::{Lang, Text};
use crate::verdict::Verdict;
use crate::verdict::compare::{CompareMode, Divergence};

/// A case's optional settings, from `<case>.toml`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseConfig {
    pub description: Option<Text>,
    /// The program's command-line arguments.
    #[serde(default)]
    pub args: Vec<String>,
    /// The exit status the program must end with; 0 when not given.
    pub exit_code: Option<i32>,
    pub points: Option<u32>,
    /// Graded for its points, but not a condition of passing: a failure is reported as a
    /// bonus missed and leaves the exercise's status alone (an AI player's strength, beyond
    /// what the exercise asks).
    #[serde(default)]
    pub bonus: bool,
    pub time_limit_ms: Option<u64>,
    /// The course's limits, for this case (see [`crate::course::Defaults`]).
    pub cpu_time_ms: Option<u64>,
    pub memory_mb: Option<u64>,
    pub processes: Option<u64>,
    pub file_size_bytes: Option<u64>,
    pub open_files: Option<u64>,
    pub output_limit_bytes: Option<usize>,
    pub compare: Option<CompareMode>,
    /// Shown when this case's output is wrong: the mistake it is designed to catch.
    pub hint: Option<Text>,
    /// Hints for other failures, or for wrong output of one shape (`[[hints]]`): the first
    /// that fits the failure is shown, before `hint`.
    #[serde(default)]
    pub hints: Vec<HintRule>,
}

/// A hint and the failure it is written for: a verdict and, where it helps, what the
/// program printed. A hint that does not fit the failure is not shown: a sanitizer report
/// or a timeout has its own explanation, and a hint about a loop bound would mislead.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HintRule {
    pub text: Text,
    /// The verdict it is about; `wrong_output` when not given.
    #[serde(default = "wrong_output")]
    pub verdict: Verdict,
    /// Only when the program's whole output, without surrounding blanks, is this.
    pub output: Option<String>,
    /// Only when the output contains this.
    pub output_contains: Option<String>,
    /// Only when the output does not contain this.
    pub output_lacks: Option<String>,
    /// Only when the sanitizer's report contains this (`out of bounds` is UBSan's index
    /// check, `buffer-overflow` AddressSanitizer's).
    pub report_contains: Option<String>,
    /// Only when the message of the course's checker or referee, which judged the output
    /// wrong, contains this (`did not stop when its input ended`).
    pub message_contains: Option<String>,
    /// Only when, where the output first went wrong, the expected output goes on with this
    /// (`Invalid move!`, `Draw!`, a prompt).
    pub expected_there: Option<String>,
    /// Only when, where the output first went wrong, the program's output goes on with
    /// this.
    pub printed_there: Option<String>,
    /// Only when the output first went wrong while the program answered this line of the
    /// input, counted from 1 (the exercise's `prompt` maps the output to its input).
    pub input_line: Option<usize>,
    /// Only when the line where the output first went wrong differs from the expected one
    /// in capital letters alone (`Black` for `black`).
    #[serde(default)]
    pub letter_case: bool,
}

/// A mistake students make in an exercise, recognised by the pattern of its results
/// (`[[exercises.mistakes]]`): every case in `fails` fails and every case in `passes`
/// passes. One case's output rarely tells two mistakes apart (a scan that misses the
/// anti-diagonal and one that misses six in a row both say `none` to six on an
/// anti-diagonal); the cases around it do. Its hint is given on the first failing case and
/// on each case of `fails` and `explains` that fails as it does, in place of their own.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mistake {
    /// What the mistake is, in a word: a known-wrong program that makes it is named so
    /// (`solutions/wrong/<exercise>/<name>.c`), and `dev check` holds it to this hint.
    pub name: String,
    pub text: Text,
    /// Cases that the mistake fails, every one, with `verdict`.
    pub fails: Vec<String>,
    /// How it fails them; `wrong_output` when not given (a sanitizer's report or a
    /// timeout has its own explanation).
    #[serde(default = "wrong_output")]
    pub verdict: Verdict,
    /// Cases that the mistake passes, every one: what tells it from mistakes that fail
    /// more.
    #[serde(default)]
    pub passes: Vec<String>,
    /// What it prints on the first case of `fails` (without surrounding blanks), where
    /// that tells it from a mistake that fails the same cases.
    pub output: Option<String>,
    /// Where its output first goes wrong on the first case of `fails`, as a hint rule's
    /// `expected_there` and `printed_there` say: the expected output goes on with this
    /// there, and the program's with that (a win announced a move late).
    pub expected_there: Option<String>,
    pub printed_there: Option<String>,
    /// Cases besides `fails` that the mistake fails too (a program that makes it fails
    /// them), which the mistake tells apart from nothing: each of them that fails as the
    /// mistake does gets its hint rather than its own, which reads one output and may
    /// name another mistake. They play no part in telling the mistake.
    #[serde(default)]
    pub explains: Vec<String>,
}

/// The hint a known-wrong program must get first (`[exercises.first_hints]`, keyed by the
/// program's name): what a student who makes its mistake is told first, held by `dev check`
/// so that a change of the course that tells them something else is seen.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum FirstHint {
    /// The hint whose English text starts with this (`"Row 14, the last, is missing"`):
    /// any hint, a case's, a rule's or a mistake's.
    Starts(String),
    /// The hint of this mistake of `[[exercises.mistakes]]` (`{ mistake = "never_blocks" }`).
    Mistake(MistakeHint),
    /// Any one of these: for a program whose first hint depends on the machine (a search
    /// that is too slow on a busy one), each hint it can meet, each naming its mistake.
    Any(Vec<FirstHint>),
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MistakeHint {
    pub mistake: String,
}

impl FirstHint {
    /// Whether `hint` is this one, among `mistakes`.
    pub fn is(&self, hint: &Text, mistakes: &[Mistake]) -> bool {
        match self {
            FirstHint::Starts(start) => hint.get(Lang::En).starts_with(start.as_str()),
            FirstHint::Mistake(MistakeHint { mistake }) => mistakes
                .iter()
                .any(|known| &known.name == mistake && &known.text == hint),
            FirstHint::Any(each) => each.iter().any(|one| one.is(hint, mistakes)),
        }
    }

    /// The mistakes it names, and the starts of texts: what the course must have.
    pub fn parts(&self) -> Vec<&FirstHint> {
        match self {
            FirstHint::Any(each) => each.iter().flat_map(FirstHint::parts).collect(),
            one => vec![one],
        }
    }
}

impl std::fmt::Display for FirstHint {
    /// As info.toml writes it.
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            FirstHint::Starts(start) => write!(f, "{start:?}"),
            FirstHint::Mistake(MistakeHint { mistake }) => write!(f, "{{ mistake = {mistake:?} }}"),
            FirstHint::Any(each) => {
                let each: Vec<String> = each.iter().map(FirstHint::to_string).collect();
                write!(f, "[{}]", each.join(", "))
            }
        }
    }
}

/// How a case failed, as hint rules look at it.
pub struct Failure<'a> {
    pub verdict: Verdict,
    /// What the program printed on stdout.
    pub stdout: &'a [u8],
    /// The sanitizer's report line, for a `sanitizer` verdict.
    pub report: Option<&'a str>,
    /// Why the course's checker or referee rejected the output.
    pub message: Option<&'a str>,
    /// Where the output first parted from the expected output, if it did.
    pub diverged: Option<&'a Divergence>,
}

impl Failure<'_> {
    /// Whether the run failed as `verdict` says. A run stopped or crashed after its output
    /// had already gone wrong fails as `wrong_output` too: the wrong output came first,
    /// and the stop is its consequence (a game that accepts a move it should refuse plays
    /// past the end of its input).
    pub fn is(&self, verdict: Verdict) -> bool {
        self.verdict == verdict
            || (verdict == Verdict::WrongOutput && self.diverged.is_some_and(Divergence::differs))
    }
}

fn wrong_output() -> Verdict {
    Verdict::WrongOutput
}

impl HintRule {
    /// Whether the rule looks at what the program printed: a sharper diagnosis than the
    /// verdict alone, so such a hint is shown first.
    pub fn reads_output(&self) -> bool {
        self.output.is_some()
            || self.output_contains.is_some()
            || self.output_lacks.is_some()
            || self.report_contains.is_some()
            || self.message_contains.is_some()
            || self.keys_on_divergence()
    }

    /// Whether the rule looks at where the output first went wrong.
    pub fn keys_on_divergence(&self) -> bool {
        self.expected_there.is_some()
            || self.printed_there.is_some()
            || self.input_line.is_some()
            || self.letter_case
    }

    pub fn fits(&self, failure: &Failure) -> bool {
        let printed = String::from_utf8_lossy(failure.stdout);
        failure.is(self.verdict)
            && Divergence::goes_on_with(
                failure.diverged,
                self.expected_there.as_deref(),
                self.printed_there.as_deref(),
            )
            && (!self.letter_case || failure.diverged.is_some_and(Divergence::in_letter_case))
            && self.input_line.is_none_or(|line| {
                failure
                    .diverged
                    .and_then(|found| found.input_line.as_ref())
                    .is_some_and(|(number, _)| *number == line)
            })
            && self.report_contains.as_ref().is_none_or(|part| {
                failure
                    .report
                    .is_some_and(|report| report.contains(part.as_str()))
            })
            && self.message_contains.as_ref().is_none_or(|part| {
                failure
                    .message
                    .is_some_and(|message| message.contains(part.as_str()))
            })
            && self
                .output
                .as_ref()
                .is_none_or(|output| printed.trim() == output.trim())
            && self
                .output_contains
                .as_ref()
                .is_none_or(|part| printed.contains(part.as_str()))
            && self
                .output_lacks
                .as_ref()
                .is_none_or(|part| !printed.contains(part.as_str()))
    }
}

/// How sharply the sharpest hint rule names a mistake: one that read the output (a hint
/// without a rule, or one that looks at the verdict alone, is 1; a known mistake is 3).
pub const SHARPEST_RULE: u8 = 2;

impl CaseConfig {
    /// The hint that fits `failure`: the first of `[[hints]]` that fits, else `hint`
    /// when the output is wrong. With how sharp it is: 2 when it read what the program
    /// printed, 1 otherwise.
    pub fn hint_for(&self, failure: &Failure) -> Option<(&Text, u8)> {
        let rule = self
            .hints
            .iter()
            .find(|rule| rule.fits(failure))
            .map(|rule| {
                (
                    &rule.text,
                    if rule.reads_output() {
                        SHARPEST_RULE
                    } else {
                        1
                    },
                )
            });
        rule.or_else(|| {
            failure
                .is(Verdict::WrongOutput)
                .then_some(self.hint.as_ref().map(|hint| (hint, 1)))
                .flatten()
        })
    }
}

#[derive(Clone, Debug)]
pub struct Case {
    pub name: String,
    /// Absent means the program gets an empty stdin.
    pub input: Option<PathBuf>,
    pub expected_path: PathBuf,
    pub config: CaseConfig,
    /// Files placed in the program's working directory before it starts (`<case>.given/`):
    /// each one's name there, and where it is.
    pub given: Vec<(String, PathBuf)>,
    /// Files the program must leave in its working directory (`<case>.expected/`), each
    /// compared like stdout.
    pub expected_files: Vec<(String, PathBuf)>,
    /// A hidden case reports its verdict and hint, never its input, output or diff.
    pub hidden: bool,
}

impl Case {
    pub fn points(&self) -> u32 {
        self.config.points.unwrap_or(1)
    }

    /// Whether the exercise can pass without it (see [`CaseConfig::bonus`]).
    pub fn bonus(&self) -> bool {
        self.config.bonus
    }

    pub fn expected(&self) -> Result<Vec<u8>> {
        std::fs::read(&self.expected_path)
            .with_context(|| format!("cannot read {}", self.expected_path.display()))
    }

    /// The files the program must leave, with their expected content, in name order.
    pub fn expected_files(&self) -> Result<Vec<(String, Vec<u8>)>> {
        read_files(&self.expected_files)
    }

    pub fn exit_code(&self) -> i32 {
        self.config.exit_code.unwrap_or(0)
    }

    /// The names of the files the program must leave.
    pub fn file_names(&self) -> Vec<String> {
        self.expected_files
            .iter()
            .map(|(name, _)| name.clone())
            .collect()
    }

    /// What the reports may show of the files given to the program: all of them for a
    /// public case, nothing of a hidden one.
    pub fn shown_given(&self) -> Result<Vec<(String, Vec<u8>)>> {
        if self.hidden {
            return Ok(Vec::new());
        }
        read_files(&self.given)
    }

    /// What the reports may show of the input: all of it for a public case (empty when
    /// there is none), nothing of a hidden one.
    pub fn shown_input(&self) -> Result<Vec<u8>> {
        match &self.input {
            Some(path) if !self.hidden => {
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
            }
            _ => Ok(Vec::new()),
        }
    }
}

/// Each file's name and content.
fn read_files(files: &[(String, PathBuf)]) -> Result<Vec<(String, Vec<u8>)>> {
    files
        .iter()
        .map(|(name, path)| {
            let content =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            Ok((name.clone(), content))
        })
        .collect()
}

/// The files one case is made of, gathered before they are checked for completeness.
#[derive(Default)]
struct CaseFiles {
    input: Option<PathBuf>,
    expected: Option<PathBuf>,
    config: Option<PathBuf>,
    given: Option<PathBuf>,
    expected_files: Option<PathBuf>,
}

/// The suffix of a case's folder of files given to the program, and of its folder of files
/// the program must leave.
pub const GIVEN: &str = "given";
pub const EXPECTED: &str = "expected";

/// Every case in `dir`, in name order. An `.in` or `.toml` without its `.out` is an error.
pub fn discover(dir: &Path) -> Result<Vec<Case>> {
    let cases = discover_each(dir)?
        .into_iter()
        .map(|(_, case)| case)
        .collect::<Result<Vec<Case>>>()?;
    if cases.is_empty() {
        bail!("missing fixtures: no <case>.out in {}", dir.display());
    }
    Ok(cases)
}

/// Every case in `dir` by name, in name order, each read or with why it cannot be: `dev
/// check` lists every broken case of a folder, not the first.
pub fn discover_each(dir: &Path) -> Result<Vec<(String, Result<Case>)>> {
    if !dir.is_dir() {
        bail!(
            "missing fixtures: {} does not exist (each exercise needs at least one <case>.out there)",
            dir.display()
        );
    }
    let mut files: BTreeMap<String, CaseFiles> = BTreeMap::new();
    let mut unnamed = Vec::new();
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
        if !matches!(ext.to_str(), Some("in" | "out" | "toml" | GIVEN | EXPECTED)) {
            continue;
        }
        // Two names that are not UTF-8 would become the same lossy name, and one case.
        let Some(stem) = stem.to_str() else {
            let error = anyhow::anyhow!(
                "{:?}: a case's file name must be UTF-8 text (rename the file)",
                path
            );
            unnamed.push((stem.to_string_lossy().into_owned(), Err(error)));
            continue;
        };
        let slot = files.entry(stem.to_string()).or_default();
        let part = match ext.to_str() {
            Some("in") => &mut slot.input,
            Some("out") => &mut slot.expected,
            Some(GIVEN) => &mut slot.given,
            Some(EXPECTED) => &mut slot.expected_files,
            _ => &mut slot.config,
        };
        *part = Some(path.to_path_buf());
    }
    let mut cases: Vec<(String, Result<Case>)> = files
        .into_iter()
        .map(|(name, found)| {
            let case = read_case(dir, &name, found);
            (name, case)
        })
        .collect();
    cases.extend(unnamed);
    Ok(cases)
}

/// The case `name` of `dir`, made of the files `found`.
fn read_case(dir: &Path, name: &str, found: CaseFiles) -> Result<Case> {
    let Some(expected_path) = found.expected else {
        let orphan = found
            .input
            .or(found.config)
            .or(found.given)
            .or(found.expected_files)
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
    if let Some(arg) = config.args.iter().find(|arg| arg.contains('\0')) {
        bail!(
            "{}: argument {arg:?} holds a NUL byte, which no argument can",
            found.config.unwrap_or_default().display()
        );
    }
    Ok(Case {
        name: name.to_string(),
        input: found.input,
        expected_path,
        config,
        given: folder_files(found.given.as_deref())?,
        expected_files: folder_files(found.expected_files.as_deref())?,
        hidden: false,
    })
}

/// Checks the folder of hidden cases (`--fixtures`) before anything is graded, so a wrong
/// folder is an error rather than a grading with no hidden case: it must exist, hold only
/// folders named after the course's exercises (`known`; names starting with a dot, like
/// `.git`, are left alone), hold one for at least one of the exercises `graded`, and
/// those folders must hold well-formed cases.
pub fn check_hidden_root(root: &Path, known: &[&str], graded: &[&str]) -> Result<()> {
    let expected = || {
        let folders: Vec<String> = graded.iter().map(|name| format!("{name}/")).collect();
        format!(
            "expected a folder per exercise, as in fixtures/: {}",
            folders.join(", ")
        )
    };
    crate::sandbox::refuse_if_visible_to_programs(root, "the hidden cases")?;
    if !root.is_dir() {
        bail!(
            "the fixtures directory {} does not exist: give --fixtures the folder that holds \
             the hidden cases (in a CI job, the one its hidden cases are unpacked into, \
             before the grading step); {}",
            root.display(),
            expected()
        );
    }
    let mut found = Vec::new();
    let mut strays = Vec::new();
    let entries =
        std::fs::read_dir(root).with_context(|| format!("cannot list {}", root.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot list {}", root.display()))?;
        let Some(name) = entry.file_name().to_str().map(String::from) else {
            bail!(
                "{:?}: a name in the fixtures directory must be UTF-8 text",
                entry.path()
            );
        };
        if name.starts_with('.') {
            continue;
        }
        let is_dir = entry.path().is_dir();
        if is_dir && known.contains(&name.as_str()) {
            found.push(name);
        } else {
            strays.push(if is_dir { format!("{name}/") } else { name });
        }
    }
    strays.sort();
    if !strays.is_empty() {
        // Case files right in the root: the folder of one exercise rather than its parent.
        let one_level_too_deep = strays
            .iter()
            .any(|name| name.ends_with(".out") || name.ends_with(".in"));
        bail!(
            "the fixtures directory {} holds {} that match no exercise{}; {}",
            root.display(),
            strays.join(", "),
            if one_level_too_deep {
                " (case files: is it one exercise's folder? give its parent)"
            } else {
                ""
            },
            expected()
        );
    }
    let graded_found: Vec<&&str> = graded
        .iter()
        .filter(|name| found.iter().any(|folder| folder == *name))
        .collect();
    if graded_found.is_empty() {
        found.sort();
        let found = match found.is_empty() {
            true => "nothing".to_string(),
            false => found.join("/, ") + "/",
        };
        bail!(
            "the fixtures directory {} has no hidden cases for the exercises graded (found \
             {found}): put each exercise's cases (NAME.in, NAME.out) in a folder named after \
             it (in a CI job, check that its hidden cases were unpacked there); {}",
            root.display(),
            expected()
        );
    }
    for name in graded_found {
        discover(&root.join(name))?;
    }
    Ok(())
}

/// The files of a case's `.given` or `.expected` folder, in name order: plain files with
/// plain names, as the program finds them in its working directory.
fn folder_files(folder: Option<&Path>) -> Result<Vec<(String, PathBuf)>> {
    let Some(folder) = folder else {
        return Ok(Vec::new());
    };
    if !folder.is_dir() {
        bail!(
            "{} must be a folder of files (the program's working directory holds them)",
            folder.display()
        );
    }
    let mut files = Vec::new();
    for entry in WalkDir::new(folder)
        .min_depth(1)
        .max_depth(1)
        .sort_by_file_name()
    {
        let entry = entry.with_context(|| format!("cannot list {}", folder.display()))?;
        let name = entry.file_name().to_str().unwrap_or_default();
        if !entry.file_type().is_file() || !crate::sandbox::valid_file_name(name) {
            bail!(
                "{}: only plain files with plain names (not hidden, no folder) can be a run's files",
                entry.path().display()
            );
        }
        files.push((name.to_string(), entry.path().to_path_buf()));
    }
    Ok(files)
}

fn load_config(path: &Path) -> Result<CaseConfig> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    toml::from_str(&text).map_err(|err| {
        anyhow::anyhow!(crate::util::toml_error::describe(
            path,
            &text,
            "case file",
            &err
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `[exercises.first_hints]`'s three forms, each read and matched as info.toml means it:
    /// the start of the English text, a mistake's hint, any one of a list; a misspelt key is
    /// an error.
    #[test]
    fn a_first_hint_is_a_start_of_text_a_mistake_or_any_of_a_list() {
        #[derive(Deserialize)]
        struct Table {
            first_hints: BTreeMap<String, FirstHint>,
        }
        let table: Table = toml::from_str(
            "[first_hints]\nstart = \"Row 14\"\nmistake = { mistake = \"swap\" }\n\
             any = [{ mistake = \"swap\" }, \"Row 14\"]\n",
        )
        .unwrap();
        let misspelt = "[first_hints]\nbad = { mistake = \"swap\", mistakes = \"swap\" }\n";
        assert!(toml::from_str::<Table>(misspelt).is_err());
        let text = |en: &str| Text::Localized {
            en: en.into(),
            zh: Some(en.into()),
        };
        let swap = Mistake {
            name: "swap".into(),
            text: text("Rows and columns are swapped."),
            fails: vec![],
            verdict: Verdict::WrongOutput,
            passes: vec![],
            output: None,
            expected_there: None,
            printed_there: None,
            explains: vec![],
        };
        let mistakes = [swap.clone()];
        let row = text("Row 14, the last, is missing.");
        let hint = |name: &str| &table.first_hints[name];
        assert!(hint("start").is(&row, &mistakes));
        assert!(!hint("start").is(&swap.text, &mistakes));
        assert!(hint("mistake").is(&swap.text, &mistakes));
        assert!(!hint("mistake").is(&row, &mistakes));
        // A mistake the exercise does not have is no hint at all.
        assert!(!hint("mistake").is(&swap.text, &[]));
        assert!(hint("any").is(&row, &mistakes) && hint("any").is(&swap.text, &mistakes));
        assert!(!hint("any").is(&text("Something else."), &mistakes));
        assert_eq!(
            hint("any").to_string(),
            "[{ mistake = \"swap\" }, \"Row 14\"]"
        );
    }

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
    fn a_hidden_case_shows_nothing_of_its_input_nor_its_given_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("01_a.out"), "a\n").unwrap();
        std::fs::write(dir.path().join("01_a.in"), "secret\n").unwrap();
        std::fs::create_dir(dir.path().join("01_a.given")).unwrap();
        std::fs::write(dir.path().join("01_a.given/board.txt"), "secret\n").unwrap();
        let mut case = discover(dir.path()).unwrap().remove(0);
        assert_eq!(case.shown_input().unwrap(), b"secret\n");
        assert_eq!(case.shown_given().unwrap().len(), 1);
        case.hidden = true;
        assert!(case.shown_input().unwrap().is_empty());
        assert!(case.shown_given().unwrap().is_empty());
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
    fn file_names_that_are_not_utf8_are_named() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().unwrap();
        for name in [b"a\xff.out", b"a\xfe.out"] {
            let name = std::ffi::OsStr::from_bytes(name);
            std::fs::write(dir.path().join(name), "x\n").unwrap();
        }
        let err = discover(dir.path()).unwrap_err().to_string();
        assert!(err.contains("\\xFE") || err.contains("\\xFF"), "{err}");
        assert!(err.contains("UTF-8"), "{err}");
    }

    /// `hidden/` with `folders` (each with one case) and `files` in it.
    fn hidden(folders: &[&str], files: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for folder in folders {
            std::fs::create_dir_all(dir.path().join(folder)).unwrap();
            std::fs::write(dir.path().join(folder).join("01_a.out"), "a\n").unwrap();
        }
        for file in files {
            std::fs::write(dir.path().join(file), "a\n").unwrap();
        }
        dir
    }

    const COURSE: [&str; 3] = ["print_board", "check_win", "gomoku"];

    #[test]
    fn hidden_cases_for_some_exercises_are_fine() {
        let dir = hidden(&["check_win", "gomoku", ".git"], &[".DS_Store"]);
        check_hidden_root(dir.path(), &COURSE, &["check_win"]).unwrap();
        check_hidden_root(dir.path(), &COURSE, &COURSE).unwrap();
    }

    #[test]
    fn a_wrong_hidden_folder_names_what_was_expected_and_found() {
        let check = |dir: &tempfile::TempDir, graded: &[&str]| {
            check_hidden_root(dir.path(), &COURSE, graded)
                .unwrap_err()
                .to_string()
        };
        let typo = check(&hidden(&["chek_win"], &[]), &["check_win"]);
        assert!(
            typo.contains("chek_win/") && typo.contains("check_win/"),
            "{typo}"
        );
        let too_deep = check(&hidden(&[], &["01_a.in", "01_a.out"]), &COURSE);
        assert!(
            too_deep.contains("01_a.out") && too_deep.contains("parent"),
            "{too_deep}"
        );
        let empty = check(&hidden(&[], &[]), &COURSE);
        assert!(
            empty.contains("found nothing") && empty.contains("gomoku/"),
            "{empty}"
        );
        let other = check(&hidden(&["gomoku"], &[]), &["check_win"]);
        assert!(
            other.contains("found gomoku/") && other.contains("check_win/"),
            "{other}"
        );
        let stray = check(&hidden(&["check_win"], &["notes.txt"]), &COURSE);
        assert!(stray.contains("notes.txt"), "{stray}");
        let parent = tempfile::tempdir().unwrap();
        let missing = check_hidden_root(&parent.path().join("hiden"), &COURSE, &COURSE);
        assert!(missing.unwrap_err().to_string().contains("does not exist"));
    }

    #[test]
    fn unknown_case_key_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("01_a.out"), "a\n").unwrap();
        std::fs::write(dir.path().join("01_a.toml"), "points = 1\npionts = 3\n").unwrap();
        let err = format!("{:#}", discover(dir.path()).unwrap_err());
        // The file, the line and the key.
        assert!(
            err.contains("01_a.toml") && err.contains("line 2") && err.contains("pionts"),
            "{err}"
        );
    }

    #[test]
    fn a_hint_is_shown_for_the_failure_it_was_written_for() {
        let config: CaseConfig = toml::from_str(
            r#"
            hint = "the loop bound"
            [[hints]]
            text = "read the board again"
            output = "none"
            [[hints]]
            verdict = "sanitizer"
            text = "bounds first"
            "#,
        )
        .unwrap();
        let hint = |verdict, stdout: &str| {
            config
                .hint_for(&Failure {
                    verdict,
                    stdout: stdout.as_bytes(),
                    report: Some("index 15 out of bounds"),
                    message: None,
                    diverged: None,
                })
                .map(|(text, sharp)| (text.get(crate::util::i18n::Lang::En).to_string(), sharp))
        };
        assert_eq!(
            hint(Verdict::WrongOutput, " none\n"),
            Some(("read the board again".into(), 2))
        );
        assert_eq!(
            hint(Verdict::WrongOutput, "white\n"),
            Some(("the loop bound".into(), 1))
        );
        assert_eq!(
            hint(Verdict::Sanitizer, ""),
            Some(("bounds first".into(), 1))
        );
        assert_eq!(
            hint(Verdict::Timeout, "none"),
            None,
            "no hint fits a timeout"
        );
        let parts: CaseConfig = toml::from_str(
            "[[hints]]\ntext = \"t\"\noutput_contains = \"Player O\"\noutput_lacks = \"Invalid\"\n",
        )
        .unwrap();
        let fits = |stdout: &str| {
            parts.hints[0].fits(&Failure {
                verdict: Verdict::WrongOutput,
                stdout: stdout.as_bytes(),
                report: None,
                message: None,
                diverged: None,
            })
        };
        assert!(fits("Player X\nPlayer O"));
        let judged: CaseConfig =
            toml::from_str("[[hints]]\ntext = \"t\"\nmessage_contains = \"did not stop\"\n")
                .unwrap();
        let fits_message = |message| {
            judged.hints[0].fits(&Failure {
                verdict: Verdict::WrongOutput,
                stdout: b"",
                report: None,
                message,
                diverged: None,
            })
        };
        assert!(fits_message(Some("you won, but your program did not stop")));
        assert!(!fits_message(Some("you lost")));
        assert!(!fits_message(None), "only a judged failure has a message");
        assert!(!fits("Player O\nInvalid move!"));
        assert!(!fits("Player X"));
        let unknown = toml::from_str::<CaseConfig>("[[hints]]\ntext = \"t\"\nverdict = \"slow\"\n");
        assert!(unknown.unwrap_err().to_string().contains("wrong_output"));
    }

    #[test]
    fn a_rule_keys_on_where_the_output_first_went_wrong_even_when_a_loop_came_after() {
        let config: CaseConfig = toml::from_str(
            r#"
            hint = "compare the diff"
            [[hints]]
            text = "refuse a move on a stone"
            expected_there = "Invalid move!"
            printed_there = "Player X, enter row col"
            input_line = 2
            [[hints]]
            verdict = "timeout"
            text = "check scanf"
            "#,
        )
        .unwrap();
        let expected =
            "Player X, enter row col: Player O, enter row col: Invalid move! Try again.\n";
        let printed = "Player X, enter row col: Player O, enter row col: Player X, enter row col: ";
        let input = b"7 7\n7 7\n";
        let diverged = |printed: &str| {
            CompareMode::Lines
                .divergence(
                    expected.as_bytes(),
                    printed.as_bytes(),
                    Some("enter row col: "),
                )
                .map(|found| found.with_input(input))
        };
        let hint = |verdict, printed: &str| {
            let diverged = diverged(printed);
            config
                .hint_for(&Failure {
                    verdict,
                    stdout: printed.as_bytes(),
                    report: None,
                    message: None,
                    diverged: diverged.as_ref(),
                })
                .map(|(text, sharp)| (text.get(crate::util::i18n::Lang::En).to_string(), sharp))
        };
        let refuse = Some(("refuse a move on a stone".to_string(), 2));
        // The loop came after the wrong move: the wrong move is named, not the loop.
        assert_eq!(hint(Verdict::Timeout, &printed.repeat(50)), refuse);
        assert_eq!(hint(Verdict::WrongOutput, printed), refuse);
        // Right so far when stopped: the loop is all there is to name.
        let right_so_far = "Player X, enter row col: Player O, enter row col: ";
        assert_eq!(
            hint(Verdict::Timeout, right_so_far),
            Some(("check scanf".to_string(), 1))
        );
        // Wrong elsewhere: the rule's place does not fit, the case's hint does.
        assert_eq!(
            hint(Verdict::WrongOutput, "Player O"),
            Some(("compare the diff".to_string(), 1))
        );
    }
}
