//! Static checks of a course's files, for `clings dev check`: what can be wrong without
//! compiling anything (layout, orphans, translations, input formats).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::course::fixture::{self, Case, Failure, FirstHint, HintRule, MistakeHint};
use crate::course::{Course, Exercise, SKELETONS_DIR, WRONG_PROGRAMS_DIR, valid_name};
use crate::util::i18n::Text;
use crate::verdict::Verdict;

/// One thing wrong with the course, and where.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct Problem {
    pub place: PathBuf,
    pub what: String,
}

impl Problem {
    pub fn new(place: impl Into<PathBuf>, what: impl Into<String>) -> Problem {
        Problem {
            place: place.into(),
            what: what.into(),
        }
    }
}

/// Every static problem of the course's `exercises`, and those of the course as a whole
/// (chapters, orphan folders and files, skeletons of no exercise); `cases` receives each
/// exercise's cases when every one could be read, for the checks that run programs.
pub fn check(
    course: &Course,
    exercises: &[&Exercise],
    cases: &mut HashMap<String, Vec<Case>>,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    let info = course.root.join(crate::course::INFO_FILE);
    if course.has_chapters() {
        for chapter in &course.chapters {
            let what = format!("the title of chapter {}", chapter.name);
            translations(&mut problems, &info, &what, &chapter.title);
        }
    }
    for exercise in exercises {
        let place = |what: &str| format!("{what} of exercise {}", exercise.name);
        skeleton_problems(&mut problems, course, exercise);
        let solution = exercise.solution_path();
        if !course.root.join(&solution).is_file() {
            problems.push(Problem::new(
                &solution,
                format!(
                    "the solution of {} is missing: write the reference solution there \
                     (`clings dev new-case` computes each case's expected output with it)",
                    exercise.name
                ),
            ));
        }
        for (role, path) in [
            ("checker", &exercise.checker),
            ("referee", &exercise.referee),
        ] {
            if let Some(path) = path
                && !course.root.join(path).is_file()
            {
                problems.push(Problem::new(
                    path,
                    format!(
                        "the {role} of {} is missing: info.toml names it, and every case is \
                         judged by it",
                        exercise.name
                    ),
                ));
            }
        }
        if exercise.hints.is_empty() {
            problems.push(Problem::new(
                &info,
                format!(
                    "{} has no hints: add `hints = [{{ en = \"...\", zh = \"...\" }}]` to its \
                     [[exercises]] entry",
                    exercise.name
                ),
            ));
        }
        translations(&mut problems, &info, &place("the title"), &exercise.title);
        for (index, rule) in exercise.failure_hints.iter().enumerate() {
            translations(
                &mut problems,
                &info,
                &place(&format!("failure hint {}", index + 1)),
                &rule.text,
            );
            if rule.verdict == Verdict::Passed {
                problems.push(Problem::new(
                    &info,
                    format!(
                        "{}: a hint for `passed` is never shown",
                        place(&format!("failure hint {}", index + 1))
                    ),
                ));
            }
            if let Some(what) = never_at_a_divergence(rule, exercise) {
                let which = place(&format!("failure hint {}", index + 1));
                problems.push(Problem::new(&info, format!("{which}: {what}")));
            }
        }
        for (index, hint) in exercise.hints.iter().enumerate() {
            translations(
                &mut problems,
                &info,
                &place(&format!("hint {}", index + 1)),
                hint,
            );
        }
        first_hints(&mut problems, course, &info, exercise);
        let fixtures = course.fixtures_dir(exercise);
        if !has_case_files(&fixtures) {
            problems.push(Problem::new(&fixtures, no_cases(exercise)));
            continue;
        }
        let each = match fixture::discover_each(&fixtures) {
            Ok(each) => each,
            Err(err) => {
                problems.push(Problem::new(&fixtures, format!("{err:#}")));
                continue;
            }
        };
        let names: Vec<&str> = each.iter().map(|(name, _)| name.as_str()).collect();
        let mut found = Vec::with_capacity(each.len());
        let mut broken = false;
        for (_, case) in &each {
            match case {
                Ok(case) => found.push(case.clone()),
                Err(err) => {
                    broken = true;
                    problems.push(Problem::new(&fixtures, format!("{err:#}")));
                }
            }
        }
        case_problems(&mut problems, exercise, &found);
        mistakes(&mut problems, &info, exercise, &names);
        accepted_mutants(&mut problems, &info, exercise);
        // Programs are graded on every case or none: a case left out would hide what it
        // catches.
        if !broken {
            cases.insert(exercise.name.clone(), found);
        }
    }
    orphans(&mut problems, course, exercises);
    stray_skeletons(&mut problems, course);
    problems
}

/// An exercise's `[[exercises.mistakes]]`: named once each, translated, and made of cases
/// it has, a mistake failing at least one.
fn mistakes(problems: &mut Vec<Problem>, info: &Path, exercise: &Exercise, cases: &[&str]) {
    let mut names = HashSet::new();
    for mistake in &exercise.mistakes {
        let which = format!("{}: mistake {:?}", exercise.name, mistake.name);
        if !valid_name(&mistake.name) {
            problems.push(Problem::new(
                info,
                format!("{which}: not a valid name (letters, digits, `_` and `-` only)"),
            ));
        }
        if !names.insert(mistake.name.as_str()) {
            problems.push(Problem::new(info, format!("{which} appears twice")));
        }
        translations(problems, info, &which, &mistake.text);
        if mistake.fails.is_empty() {
            problems.push(Problem::new(
                info,
                format!("{which} fails no case (`fails = [...]`): it would fit every run"),
            ));
        }
        let keys = [
            ("fails", &mistake.fails),
            ("passes", &mistake.passes),
            ("explains", &mistake.explains),
        ];
        for (key, names) in keys {
            for name in names {
                if !cases.contains(&name.as_str()) {
                    problems.push(Problem::new(
                        info,
                        format!("{which}: key `{key}`: {name:?} is not a case of the exercise"),
                    ));
                }
            }
        }
    }
}

/// An exercise's `[exercises.first_hints]`: each names a known-wrong program of the exercise
/// that is not named after a mistake (`dev check` holds that one to its mistake's hint), and
/// a hint that can be known: a mistake of the exercise, or the start of a text.
fn first_hints(problems: &mut Vec<Problem>, course: &Course, info: &Path, exercise: &Exercise) {
    for (program, hint) in &exercise.first_hints {
        let which = format!("{}: first_hints: {program:?}", exercise.name);
        let mut path = exercise.wrong_programs_dir().join(program);
        if let Some(extension) = exercise.path.extension() {
            path.set_extension(extension);
        }
        if !course.root.join(&path).is_file() {
            problems.push(Problem::new(
                info,
                format!(
                    "{which}: there is no known-wrong program {}",
                    path.display()
                ),
            ));
        }
        if exercise.mistakes.iter().any(|m| &m.name == program) {
            problems.push(Problem::new(
                info,
                format!(
                    "{which} is named after a mistake of [[exercises.mistakes]], whose hint \
                     it must get first: take it out of first_hints"
                ),
            ));
        }
        if hint.parts().is_empty() {
            problems.push(Problem::new(
                info,
                format!("{which}: an empty list fits no hint"),
            ));
        }
        for part in hint.parts() {
            match part {
                FirstHint::Starts(start) if start.trim().is_empty() => problems.push(Problem::new(
                    info,
                    format!("{which}: an empty text starts every hint"),
                )),
                FirstHint::Mistake(MistakeHint { mistake })
                    if !exercise.mistakes.iter().any(|m| &m.name == mistake) =>
                {
                    problems.push(Problem::new(
                        info,
                        format!("{which}: {mistake:?} is not a mistake of the exercise"),
                    ))
                }
                _ => {}
            }
        }
    }
}

/// An exercise's `[[exercises.accepted_mutants]]`: each says which mutants it accepts, and
/// why.
fn accepted_mutants(problems: &mut Vec<Problem>, info: &Path, exercise: &Exercise) {
    for (at, accepted) in exercise.accepted_mutants.iter().enumerate() {
        let which = format!("{}: accepted mutant {}", exercise.name, at + 1);
        if accepted.function.is_none() && accepted.change.is_none() && accepted.changes.is_empty() {
            problems.push(Problem::new(
                info,
                format!(
                    "{which}: give `function`, `change` (or `changes`) or both: it would \
                     accept every mutant"
                ),
            ));
        }
        if accepted.why.trim().is_empty() {
            problems.push(Problem::new(info, format!("{which}: `why` is empty")));
        }
    }
}

/// Whether `dir` holds a file of a case (`.in`, `.out`, `.toml`): an exercise without one
/// has not been given its cases yet.
fn has_case_files(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.filter_map(Result::ok).any(|entry| {
            let path = entry.path();
            let ext = path.extension().and_then(|ext| ext.to_str());
            matches!(ext, Some("in" | "out" | "toml"))
        })
    })
}

/// What to do for an exercise with no case: the command that adds one.
fn no_cases(exercise: &Exercise) -> String {
    let input = match exercise.input.reads_input() {
        true => " --input FILE",
        false => "",
    };
    format!(
        "{name} has no cases yet: add one with `clings dev new-case {name} 01_first{input} \
         --description TEXT --description-zh TEXT`, which computes its expected output with \
         the solution",
        name = exercise.name
    )
}

/// The skeleton (the pristine copy `reset` restores) must exist, and the file students
/// start from, as shipped, must be that skeleton.
fn skeleton_problems(problems: &mut Vec<Problem>, course: &Course, exercise: &Exercise) {
    let name = &exercise.name;
    let skeleton = exercise.skeleton_path();
    let pristine = std::fs::read(course.root.join(&skeleton));
    if pristine.is_err() {
        problems.push(Problem::new(
            &skeleton,
            format!(
                "the skeleton of {name} is missing: it is what `clings reset {name}` puts back \
                 in {}",
                exercise.path.display()
            ),
        ));
    }
    match std::fs::read(course.root.join(&exercise.path)) {
        Err(_) => problems.push(Problem::new(
            &exercise.path,
            format!(
                "the students' copy of the skeleton of {name} is missing: copy {} there",
                skeleton.display()
            ),
        )),
        Ok(shipped) if pristine.is_ok_and(|pristine| pristine != shipped) => {
            problems.push(Problem::new(
                &exercise.path,
                format!(
                    "differs from the skeleton of {name}, {}: students start from one and \
                     `clings reset {name}` gives them the other; make them the same",
                    skeleton.display()
                ),
            ))
        }
        Ok(_) => {}
    }
}

/// Every text must be there, and in both of the lesson's languages.
fn translations(problems: &mut Vec<Problem>, place: &Path, what: &str, text: &Text) {
    let (en, zh) = match text {
        Text::Plain(en) => (en, None),
        Text::Localized { en, zh } => (en, zh.as_ref()),
    };
    if en.trim().is_empty() || zh.is_some_and(|zh| zh.trim().is_empty()) {
        problems.push(Problem::new(place, format!("{what} is empty")));
    } else if zh.is_none() {
        problems.push(Problem::new(
            place,
            format!("{what} has no Chinese version (zh = \"...\")"),
        ));
    }
}

fn case_problems(problems: &mut Vec<Problem>, exercise: &Exercise, cases: &[Case]) {
    let mut seen: HashMap<String, &str> = HashMap::new();
    for case in cases {
        // Names that differ only in case collide on macOS and Windows file systems.
        if let Some(other) = seen.insert(case.name.to_lowercase(), &case.name) {
            problems.push(Problem::new(
                &case.expected_path,
                format!(
                    "case {} and case {other} differ only in letter case",
                    case.name
                ),
            ));
        }
        if let Some(config) = &case.config.description {
            translations(
                problems,
                &case.expected_path.with_extension("toml"),
                "the description",
                config,
            );
        }
        if let Some(hint) = &case.config.hint {
            translations(
                problems,
                &case.expected_path.with_extension("toml"),
                "the hint",
                hint,
            );
        }
        hint_rules(problems, case, exercise);
        match (&case.input, exercise.input.reads_input()) {
            // A refereed case's input is the referee's: the game it sets up.
            _ if exercise.referee.is_some() => {}
            (Some(input), false) => problems.push(Problem::new(
                input,
                format!("{} reads no input, but this case has one", exercise.name),
            )),
            (Some(input), true) => match std::fs::read_to_string(input) {
                Ok(text) => {
                    if let Err(what) = exercise.input.check(&text) {
                        problems.push(Problem::new(input, what));
                    }
                }
                Err(err) => problems.push(Problem::new(input, format!("cannot read: {err}"))),
            },
            (None, false) => {}
            // A program given arguments may read a file instead (replay's saved game).
            (None, true) if !case.config.args.is_empty() => {}
            (None, true) => problems.push(Problem::new(
                &case.expected_path,
                format!(
                    "{} reads its input from stdin, but this case has no .in file",
                    exercise.name
                ),
            )),
        }
    }
}

/// A case's `[[hints]]` and the exercise's `[[failure_hints]]`: translated, and able to
/// fire on a failure, never on a right answer: an output condition that the expected output
/// itself meets would greet a program that prints it with other blanks (`lines`
/// comparison) with a hint about a mistake it did not make.
fn hint_rules(problems: &mut Vec<Problem>, case: &Case, exercise: &Exercise) {
    let failure_hints = &exercise.failure_hints;
    let place = case.expected_path.with_extension("toml");
    let expected = std::fs::read(&case.expected_path).unwrap_or_default();
    for (index, rule) in case.config.hints.iter().enumerate() {
        let which = format!("[[hints]] rule {}", index + 1);
        translations(problems, &place, &which, &rule.text);
        if let Some(what) = never_at_a_divergence(rule, exercise) {
            problems.push(Problem::new(&place, format!("{which}: {what}")));
        }
        if rule.verdict == Verdict::Passed {
            problems.push(Problem::new(
                &place,
                format!("{which} is for `passed`: a hint is only shown when a case fails"),
            ));
        }
    }
    let own = case.config.hints.iter().map(|rule| (rule, "its [[hints]]"));
    let exercise = failure_hints
        .iter()
        .map(|rule| (rule, "the exercise's [[failure_hints]]"));
    for (rule, list) in own.chain(exercise) {
        let right = Failure {
            verdict: Verdict::WrongOutput,
            stdout: &expected,
            report: None,
            message: None,
            diverged: None,
        };
        if rule.reads_output() && rule.fits(&right) {
            problems.push(Problem::new(
                &place,
                format!(
                    "a rule of {list} ({}...) meets the case's expected output: it would be \
                     shown to a right answer",
                    rule.text
                        .get(crate::util::i18n::Lang::En)
                        .chars()
                        .take(40)
                        .collect::<String>()
                ),
            ));
        }
    }
}

/// Why a rule keyed on where the output first went wrong can never fire in `exercise`: a
/// checker or referee judges it, so there is no `.out` to part from; or it names an input
/// line and the exercise has no `prompt` to map the output to its input.
fn never_at_a_divergence(rule: &HintRule, exercise: &Exercise) -> Option<&'static str> {
    if !rule.keys_on_divergence() {
        return None;
    }
    if exercise.checker.is_some() || exercise.referee.is_some() {
        return Some(
            "expected_there, printed_there, input_line and letter_case compare with the .out, \
             and a checker or referee judges this exercise: the rule never fires",
        );
    }
    (rule.input_line.is_some() && exercise.prompt.is_none()).then_some(
        "input_line needs the exercise's `prompt` in info.toml (what the program prints \
         before it reads each input line): without it the rule never fires",
    )
}

/// Fixture folders and files, and wrong-program folders, that belong to no exercise; in the
/// fixture folders of `exercises`, files that belong to no case.
fn orphans(problems: &mut Vec<Problem>, course: &Course, exercises: &[&Exercise]) {
    let known = |name: &str| {
        course
            .exercises
            .iter()
            .any(|exercise| exercise.name == name)
    };
    for (dir, what) in [
        ("fixtures", "fixture folder"),
        (WRONG_PROGRAMS_DIR, "folder of wrong programs"),
    ] {
        let Ok(entries) = std::fs::read_dir(course.root.join(dir)) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = Path::new(dir).join(&name);
            if !entry.path().is_dir() {
                if dir == "fixtures" {
                    problems.push(Problem::new(
                        path,
                        "a file directly in fixtures/ belongs to no exercise",
                    ));
                }
            } else if !known(&name) {
                problems.push(Problem::new(
                    path,
                    format!("{what} for {name:?}, which is not an exercise in info.toml"),
                ));
            } else if dir == "fixtures" && exercises.iter().any(|e| e.name == name) {
                stray_fixture_files(problems, &entry.path());
            }
        }
    }
}

/// Files in `skeletons/` that are no exercise's skeleton, and skeletons two exercises share.
fn stray_skeletons(problems: &mut Vec<Problem>, course: &Course) {
    let mut owners: HashMap<PathBuf, &str> = HashMap::new();
    for exercise in &course.exercises {
        if let Some(other) = owners.insert(exercise.skeleton_path(), &exercise.name) {
            problems.push(Problem::new(
                exercise.skeleton_path(),
                format!(
                    "the skeleton of both {other} and {}: give one of them its own \
                     `skeleton = \"...\"` in info.toml",
                    exercise.name
                ),
            ));
        }
    }
    let Ok(entries) = std::fs::read_dir(course.root.join(SKELETONS_DIR)) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let path = Path::new(SKELETONS_DIR).join(entry.file_name());
        if !owners.contains_key(&path) {
            problems.push(Problem::new(
                path,
                "the skeleton of no exercise in info.toml (an exercise's skeleton is its \
                 `skeleton` key, by default skeletons/<its file name>)",
            ));
        }
    }
}

fn stray_fixture_files(problems: &mut Vec<Problem>, dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        let part = path.extension().and_then(|ext| ext.to_str());
        let known = matches!(part, Some("in" | "out" | "toml"))
            || (path.is_dir() && matches!(part, Some(fixture::GIVEN | fixture::EXPECTED)));
        if !known {
            problems.push(Problem::new(
                path,
                "not part of a case (cases are <case>.in, .out and .toml, and the folders \
                 <case>.given/ and <case>.expected/)",
            ));
        }
    }
}
