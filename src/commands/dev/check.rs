//! `clings dev check`: the course is right when its static checks pass, every solution
//! passes every case, and every skeleton (`skeletons/`) and known-wrong program compiles and
//! fails at least one.
//! Programs are graded by the same pipeline students use.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::Result;
use colored::Colorize;

use crate::app::App;
use crate::commands::Exit;
use crate::commands::dev::check_cache::{CheckCache, Checked};
use crate::commands::dev::hint_coverage::HintCoverage;
use crate::course::Exercise;
use crate::course::fixture::Mistake;
use crate::course::lint::{self, Problem};
use crate::grade::Grader;
use crate::grade::mistakes::{self, Question};
use crate::grade::results::ExerciseResult;
use crate::report::diff::{self, Sides};
use crate::report::human;
use crate::util::i18n::{Lang, count};
use crate::util::parallel;
use crate::util::style;
use crate::verdict::{Finding, Status, Verdict};

/// A solution case slower than this share of its limit may flip to `timeout` on a slower
/// machine (the judges' experience: keep a margin of at least 2x).
const NEAR_LIMIT: f64 = 0.5;
/// Catching cases listed per wrong program before the rest are counted.
const CATCHES_SHOWN: usize = 4;
/// Lines of the diff shown for a case the solution fails.
const DIFF_LINES: usize = 20;

/// What a program is expected to do with the cases.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Solution,
    Skeleton,
    Wrong,
}

/// Validate the course: files, inputs, translations; solutions pass every case,
/// skeletons and known-wrong programs fail at least one. What grading an exercise's
/// programs found is remembered until something it read changes.
#[derive(clap::Args)]
pub struct Args {
    /// Only these exercises (what concerns the course as a whole is checked too);
    /// default: every exercise.
    exercises: Vec<String>,
    /// For each known-wrong program, each case it fails and the hint that fired there: the
    /// mistake of `[[exercises.mistakes]]` by name, else the rule's text, with where its
    /// output first went wrong. Grades anew (nothing from the cache).
    #[arg(long)]
    explain: bool,
}

pub fn run(app: &App, args: &Args) -> Result<Exit> {
    let names = &args.exercises;
    let course = &app.course;
    let exercises = match names.is_empty() {
        true => course.exercises.iter().collect(),
        false => names
            .iter()
            .map(|name| course.exercise(name))
            .collect::<Result<Vec<&Exercise>>>()?,
    };
    let mut cases = HashMap::new();
    let mut problems = lint::check(course, &exercises, &mut cases);
    let mut warnings = Vec::new();
    let grader = app.grader()?;
    let cache = CheckCache::new(&grader, style::enabled());
    let mut plans = Vec::new();
    let mut work = Vec::new();
    for exercise in exercises {
        if !cases.contains_key(&exercise.name) {
            plans.push((exercise, Plan::Unreadable));
            continue;
        }
        let own_flags = !exercise.flags.is_empty() || !exercise.without_sanitizers.is_empty();
        if let Some(said) = own_flags
            .then(|| grader.toolchain_for(exercise).refusal())
            .flatten()
        {
            problems.push(Problem::new(
                course.root.join(crate::course::INFO_FILE),
                format!(
                    "{}: the compiler refuses its `flags` or `without_sanitizers`, so no \
                     program of it builds: {said}",
                    exercise.name
                ),
            ));
        }
        let programs = programs_of(&grader, exercise, &mut problems);
        if !programs.iter().any(|(role, _)| *role == Role::Wrong) {
            warnings.push(format!(
                "{} has no known-wrong programs: put each mistake students make in {}/, a \
                 program whose first line is a comment naming the mistake; dev check then \
                 makes sure a case catches it and a hint fits it",
                exercise.name,
                exercise.wrong_programs_dir().display()
            ));
        }
        let paths: Vec<&Path> = programs.iter().map(|(_, path)| path.as_path()).collect();
        let key = cache.key(
            &course.root,
            exercise,
            &course.fixtures_dir(exercise),
            &paths,
        );
        let cached = match args.explain {
            true => None,
            false => cache.get(exercise, &key),
        };
        match cached {
            Some(checked) => plans.push((exercise, Plan::Remembered(checked))),
            None => {
                plans.push((exercise, Plan::Grade { key }));
                work.push((exercise, programs));
            }
        }
    }
    let mut shown = Shown {
        problems,
        warnings,
        ..Shown::default()
    };
    let mut plans = plans.into_iter();
    // Prints the exercises in the course's order, up to the next one graded now (given
    // with what grading it found), or to the end.
    let mut show = |shown: &mut Shown, mut graded: Option<Result<(Checked, bool)>>| {
        for (exercise, plan) in plans.by_ref() {
            println!("{}", exercise.name.bold());
            match plan {
                Plan::Unreadable => {
                    println!("  its cases are missing or cannot be read: see the problems below")
                }
                Plan::Remembered(checked) => {
                    shown.remembered += checked.programs;
                    shown.add(checked);
                }
                Plan::Grade { key } => {
                    match graded
                        .take()
                        .expect("an exercise graded now comes with its grading")
                    {
                        Ok((checked, settled)) => {
                            shown.graded += checked.programs;
                            // A solution near its time limit may pass or time out on the next run.
                            shown.add(match settled && !args.explain {
                                true => cache.put(exercise, &key, checked),
                                false => checked,
                            });
                        }
                        Err(err) => {
                            shown.failure.get_or_insert(err);
                        }
                    }
                    return;
                }
            }
        }
    };
    grade_all(&grader, &work, args.explain, |graded| {
        show(&mut shown, Some(graded))
    });
    show(&mut shown, None);
    let Shown {
        problems,
        warnings,
        graded,
        remembered,
        failure,
    } = shown;
    if let Some(err) = failure {
        return Err(err);
    }
    if remembered > 0 {
        println!(
            "{} graded now, {} from the cache (nothing they read has changed)",
            count(graded, "program", "programs"),
            remembered
        );
    }
    for warning in &warnings {
        println!("{} {warning}", "warning:".yellow().bold());
    }
    if problems.is_empty() {
        println!(
            "{}",
            "dev check: the course is consistent (0 problems)"
                .green()
                .bold()
        );
        return Ok(Exit::Success);
    }
    println!(
        "{}",
        format!(
            "dev check: {}",
            count(problems.len(), "problem", "problems")
        )
        .red()
        .bold()
    );
    for Problem { place, what } in &problems {
        println!("  - {}: {what}", place.display());
    }
    Ok(Exit::Failure)
}

/// What `dev check` does with an exercise.
enum Plan {
    /// Nothing: its cases are missing or cannot be read (a problem of the static checks).
    Unreadable,
    /// Shows what an earlier check found, nothing it read having changed since.
    Remembered(Checked),
    /// Grades its programs, and remembers what that finds under `key`.
    Grade { key: String },
}

/// What `dev check` has shown so far, and counts.
#[derive(Default)]
struct Shown {
    problems: Vec<Problem>,
    warnings: Vec<String>,
    /// Programs graded now, and programs whose grading was remembered.
    graded: usize,
    remembered: usize,
    /// The first grading that could not be made (clings' own error, not the course's).
    failure: Option<anyhow::Error>,
}

impl Shown {
    fn add(&mut self, checked: Checked) {
        for line in &checked.lines {
            println!("{line}");
        }
        self.problems.extend(checked.problems);
        self.warnings.extend(checked.warnings);
    }
}

/// Grades the programs of every exercise of `work` in one queue on the grader's `jobs`
/// threads, so that no exercise waits for the slowest program of the one before it, and
/// gives `done` what each exercise's programs found ([`judge`]), in `work`'s order, as soon
/// as they and those of the exercises before it are graded.
fn grade_all(
    grader: &Grader,
    work: &[(&Exercise, Vec<(Role, PathBuf)>)],
    explain: bool,
    mut done: impl FnMut(Result<(Checked, bool)>),
) {
    let mut queue: Vec<(usize, usize)> = work
        .iter()
        .enumerate()
        .flat_map(|(at, (_, programs))| (0..programs.len()).map(move |program| (at, program)))
        .collect();
    // The longest gradings first, so that none is left running alone at the end: a
    // refereed exercise's games, and each solution, which runs every case and the strict tier.
    queue.sort_by_key(|&(at, program)| {
        let (exercise, programs) = &work[at];
        (
            exercise.referee.is_none(),
            programs[program].0 != Role::Solution,
        )
    });
    let mut results: Vec<Vec<Option<Result<ExerciseResult>>>> = work
        .iter()
        .map(|(_, programs)| programs.iter().map(|_| None).collect())
        .collect();
    let mut next = 0;
    let mut judge_ready = |results: &mut Vec<Vec<Option<Result<ExerciseResult>>>>| {
        while next < work.len() && results[next].iter().all(Option::is_some) {
            let (exercise, programs) = &work[next];
            let found = std::mem::take(&mut results[next]).into_iter().flatten();
            done(judge(grader, exercise, programs, found, explain));
            next += 1;
        }
    };
    let (send, graded) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            parallel::map(&queue, grader.jobs, |&(at, program)| {
                let (exercise, programs) = &work[at];
                let result = grade_program(grader, exercise, &programs[program], explain);
                // The receiver lives until every program is graded.
                let _ = send.send((at, program, result));
            })
        });
        for (at, program, result) in graded {
            results[at][program] = Some(result);
            judge_ready(&mut results);
        }
    });
    // Exercises with no program at all.
    judge_ready(&mut results);
}

/// Grades one of an exercise's programs through the students' pipeline. A solution runs
/// every case; a program that must fail stops once the cases that ran show what every
/// case would: that it fails, and (a known-wrong one) the hint it is shown first
/// ([`mistakes::still_to_run`]); `--explain` runs them all.
fn grade_program(
    grader: &Grader,
    exercise: &Exercise,
    (role, path): &(Role, PathBuf),
    explain: bool,
) -> Result<ExerciseResult> {
    let root = &grader.course.root;
    let question = match role {
        Role::Solution => return grader.grade_source(exercise, root, path),
        _ if explain => return grader.grade_source(exercise, root, path),
        Role::Skeleton => Question::Fails,
        Role::Wrong => Question::FirstHint,
    };
    // Its own mistake's cases are all wanted: `first_hint` holds it to them.
    let also: Vec<String> = own_mistake(exercise, path)
        .map(|own| {
            [&own.fails, &own.passes, &own.explains]
                .into_iter()
                .flatten()
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    grader.grade_source_until(exercise, (root, path), &[], |cases, ran| {
        mistakes::still_to_run(&exercise.mistakes, cases, ran, question, &also)
    })
}

/// Holds each of an exercise's `programs` to its role, given what grading it found; with
/// whether that would be found again (no solution case near its time limit).
fn judge(
    grader: &Grader,
    exercise: &Exercise,
    programs: &[(Role, PathBuf)],
    results: impl Iterator<Item = Result<ExerciseResult>>,
    explain: bool,
) -> Result<(Checked, bool)> {
    let mut checked = Checked {
        programs: programs.len(),
        ..Checked::default()
    };
    let mut settled = true;
    // Under --explain, which hints the known-wrong programs were shown, and the last of
    // their results (graded on every case): the cases' hints are read from it.
    let mut coverage = HintCoverage::default();
    let mut graded_on_every_case = None;
    for ((role, path), result) in programs.iter().zip(results) {
        let result = result?;
        match role {
            Role::Solution => settled &= solution(grader, &result, &mut checked),
            Role::Skeleton | Role::Wrong => {
                must_fail(*role, exercise, path, &result, &mut checked);
                if explain && *role == Role::Wrong {
                    explain_hints(exercise, &result, &mut checked);
                    coverage.add(&result);
                    graded_on_every_case = Some(result);
                }
            }
        }
    }
    if let Some(result) = graded_on_every_case {
        coverage.report(exercise, &result, &mut checked.lines);
    }
    Ok((checked, settled))
}

/// The solution, the skeleton and the known-wrong programs of an exercise that exist.
fn programs_of(
    grader: &Grader,
    exercise: &Exercise,
    problems: &mut Vec<Problem>,
) -> Vec<(Role, PathBuf)> {
    let root = &grader.course.root;
    let mut programs = Vec::new();
    let solution = exercise.solution_path();
    if root.join(&solution).is_file() {
        programs.push((Role::Solution, solution));
    }
    let skeleton = exercise.skeleton_path();
    let pristine = std::fs::read(root.join(&skeleton)).ok();
    if pristine.is_some() {
        programs.push((Role::Skeleton, skeleton));
    }
    // The students' file as shipped, when it is not the skeleton (a problem of its own,
    // found by the static checks), is also where students start: it must fail too.
    let shipped = std::fs::read(root.join(&exercise.path)).ok();
    if shipped.is_some() && shipped != pristine {
        programs.push((Role::Skeleton, exercise.path.clone()));
    }
    let wrong_dir = exercise.wrong_programs_dir();
    let mut wrong: Vec<PathBuf> = std::fs::read_dir(root.join(&wrong_dir))
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|entry| wrong_dir.join(entry.file_name()))
                .filter(|path| exercise.is_program(path))
                .collect()
        })
        .unwrap_or_default();
    wrong.sort();
    for path in wrong {
        let first_line = std::fs::read_to_string(root.join(&path))
            .map(|text| text.lines().next().unwrap_or_default().trim().to_string())
            .unwrap_or_default();
        if !(first_line.starts_with("/*") || first_line.starts_with("//")) {
            problems.push(Problem {
                place: path.clone(),
                what: "the first line must be a comment naming the mistake".into(),
            });
        }
        programs.push((Role::Wrong, path));
    }
    programs
}

/// The solution must pass every case, in good time; false when a case took more than
/// [`NEAR_LIMIT`] of its limit.
fn solution(grader: &Grader, result: &ExerciseResult, checked: &mut Checked) -> bool {
    if result.status == Status::CompileError {
        checked.problems.push(Problem {
            place: result.source.clone(),
            what: "the solution does not compile".into(),
        });
        return true;
    }
    let mut settled = true;
    let width = result
        .cases
        .iter()
        .map(|case| style::one_line(&case.case.name).len())
        .max()
        .unwrap_or(0);
    for case in &result.cases {
        let limit = grader.limits(Some(&case.case)).wall_time;
        let verdict = case.finding.verdict();
        let near_limit = case.elapsed.as_secs_f64() > limit.as_secs_f64() * NEAR_LIMIT;
        settled &= !near_limit;
        checked.lines.push(format!(
            "  solution  {:<width$}  {} {:>5} ms of {} ms",
            style::one_line(&case.case.name),
            human::verdict_word(verdict),
            case.elapsed.as_millis(),
            limit.as_millis()
        ));
        if let Some(compared) = case.compared() {
            // Which of the two is wrong is the instructor's call: show them both.
            let options = diff::Options {
                mode: case.mode,
                max_lines: DIFF_LINES,
                lang: Lang::En,
                sides: Sides::Solution,
                colour: style::enabled(),
            };
            for line in diff::draw(compared.expected, compared.actual, &options).lines() {
                checked.lines.push(format!("            {line}"));
            }
        }
        if verdict != Verdict::Passed {
            let bless = match verdict {
                Verdict::WrongOutput => format!(
                    " (if the solution is right, `clings dev bless {}` writes its output to {})",
                    result.name,
                    case.case
                        .expected_path
                        .strip_prefix(&grader.course.root)
                        .unwrap_or(&case.case.expected_path)
                        .display()
                ),
                _ => String::new(),
            };
            checked.problems.push(Problem {
                place: result.source.clone(),
                what: format!(
                    "fails case {}: {}{bless}",
                    style::one_line(&case.case.name),
                    case.finding.message(Lang::En)
                ),
            });
        } else if near_limit {
            checked.warnings.push(format!(
                "{} took {} ms on case {}, more than half of its {} ms limit: raise time_limit_ms",
                result.source.display(),
                case.elapsed.as_millis(),
                style::one_line(&case.case.name),
                limit.as_millis()
            ));
        }
    }
    settled
}

/// A skeleton or a known-wrong program must compile and fail at least one case.
fn must_fail(
    role: Role,
    exercise: &Exercise,
    path: &Path,
    result: &ExerciseResult,
    checked: &mut Checked,
) {
    let label = if role == Role::Skeleton {
        "skeleton"
    } else {
        "wrong   "
    };
    let name = &exercise.name;
    // A bonus case missed fails nothing: a program must fail a case that fails it.
    let failing: Vec<String> = result
        .cases
        .iter()
        .filter(|case| case.failed() && !case.case.bonus())
        .map(|case| {
            let name = style::one_line(&case.case.name);
            format!("{name} ({})", case.finding.verdict().as_str())
        })
        .collect();
    if result.status == Status::CompileError {
        checked.lines.push(format!(
            "  {label}  {}  {}",
            path.display(),
            "does not compile".red().bold()
        ));
        let what = match role {
            Role::Skeleton => format!(
                "the skeleton of {name} does not compile: students start from it, and it \
                 must compile and fail a case"
            ),
            _ => "a known-wrong program must compile, so that a case catches its mistake".into(),
        };
        checked.problems.push(Problem {
            place: path.to_path_buf(),
            what,
        });
        return;
    }
    if failing.is_empty() {
        checked.lines.push(format!(
            "  {label}  {}  {}",
            path.display(),
            "passes every case".red().bold()
        ));
        let what = match role {
            Role::Skeleton => format!(
                "the skeleton passes every case: it leaves the students of {name} nothing to do"
            ),
            _ => "passes every case: add a case that catches this mistake".into(),
        };
        checked.problems.push(Problem {
            place: path.to_path_buf(),
            what,
        });
        return;
    }
    let mut caught = failing
        .iter()
        .take(CATCHES_SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if failing.len() > CATCHES_SHOWN {
        caught.push_str(&format!(", +{} more", failing.len() - CATCHES_SHOWN));
    }
    // Cases that could not change what it is told are not run (see `grade`).
    let unrun = result
        .cases
        .iter()
        .filter(|case| case.finding == Finding::Skipped)
        .count();
    let fails = match unrun {
        0 => format!("{}/{}", failing.len(), result.cases.len()),
        unrun => format!(
            "{} of the {} run ({unrun} not needed)",
            failing.len(),
            result.cases.len() - unrun
        ),
    };
    checked.lines.push(format!(
        "  {label}  {}  fails {fails}: {caught}",
        path.display()
    ));
    if role == Role::Wrong {
        first_hint(exercise, path, result, checked);
    }
}

/// Each case a known-wrong program fails, and which hint fired there: what an instructor
/// reads to see why a program got the hint it got.
fn explain_hints(exercise: &Exercise, result: &ExerciseResult, checked: &mut Checked) {
    for case in result.cases.iter().filter(|case| case.failed()) {
        let fired = match (&case.mistake, case.hint()) {
            (Some(text), _) => exercise
                .mistakes
                .iter()
                .find(|mistake| &mistake.text == text)
                .map_or_else(
                    || "a mistake".into(),
                    |mistake| format!("mistake {}", mistake.name),
                ),
            (None, Some(hint)) => {
                let text: String = hint.get(Lang::En).chars().take(EXPLAINED_HINT).collect();
                format!("rule \"{text}…\"")
            }
            (None, None) => "no hint fits".to_string(),
        };
        checked.lines.push(format!(
            "              {} {}: {fired}",
            style::one_line(&case.case.name),
            case.finding.verdict().as_str()
        ));
        checked.lines.push(format!(
            "                {}",
            crate::report::case_message(case, Lang::En)
        ));
    }
}

/// The mistake of `[[exercises.mistakes]]` a known-wrong program is named after.
fn own_mistake<'e>(exercise: &'e Exercise, path: &Path) -> Option<&'e Mistake> {
    let stem = path.file_stem().and_then(|stem| stem.to_str());
    exercise
        .mistakes
        .iter()
        .find(|m| Some(m.name.as_str()) == stem)
}

/// A known-wrong program's name, as `[[exercises.mistakes]]` and `[exercises.first_hints]`
/// call it: its file name without the extension.
fn program_name(path: &Path) -> &str {
    path.file_stem()
        .and_then(|stem| stem.to_str())
        .unwrap_or_default()
}

/// Words of a hint that `dev check` proposes to state as a program's first hint: enough to
/// tell it from the others, short enough to read in info.toml.
const STATED_WORDS: usize = 8;

/// The start of `text` that `dev check` proposes: its first [`STATED_WORDS`] words.
fn start_of(text: &str) -> &str {
    match text.match_indices(' ').nth(STATED_WORDS - 1) {
        Some((end, _)) => &text[..end],
        None => text,
    }
}

/// Characters of a rule's hint that `--explain` shows.
const EXPLAINED_HINT: usize = 60;

/// A known-wrong program's mistake is known: a student who makes it must be told what to
/// look at. One named after a mistake of `[[exercises.mistakes]]` must get that mistake's
/// hint first, and no such program another mistake's; any other, the hint that
/// `[exercises.first_hints]` states for it, so that a change of the course that tells its
/// mistake something else fails here rather than in front of a student.
fn first_hint(exercise: &Exercise, path: &Path, result: &ExerciseResult, checked: &mut Checked) {
    let own = own_mistake(exercise, path);
    let hint = result.first_hint();
    let given = exercise.mistakes.iter().find(|m| Some(&m.text) == hint);
    let problem = |what: String| Problem {
        place: path.to_path_buf(),
        what,
    };
    // What `explains` names, the program that makes the mistake fails: else the hint
    // would go, on a student's failure there, to a case the mistake does not explain.
    if let Some(own) = own {
        let passed: Vec<&str> =
            own.explains
                .iter()
                .filter(|name| {
                    result.cases.iter().any(|case| {
                        case.case.name == **name && case.finding.verdict() != own.verdict
                    })
                })
                .map(String::as_str)
                .collect();
        if !passed.is_empty() {
            checked.problems.push(problem(format!(
                "mistake {:?} explains {}, which this program does not fail as {}: take \
                 {} out of its `explains`",
                own.name,
                passed.join(", "),
                own.verdict.as_str(),
                match passed.len() {
                    1 => "it",
                    _ => "them",
                }
            )));
        }
    }
    match (own, given, hint) {
        (Some(own), Some(given), _) if own.name == given.name => checked.lines.push(format!(
            "            first hint: its mistake's, {}",
            own.name.green()
        )),
        (Some(own), Some(given), _) => checked.problems.push(problem(format!(
            "its first hint is that of mistake {:?}, not of its own, {:?}: tell them apart \
             with the cases each fails and passes",
            given.name, own.name
        ))),
        (Some(own), None, hint) => checked.problems.push(problem(format!(
            "its results do not show its mistake, {:?} (`fails` and `passes` in \
             [[exercises.mistakes]]), so its first hint is {}",
            own.name,
            hint.map_or("none".to_string(), |hint| format!(
                "{:?}",
                hint.get(Lang::En)
            ))
        ))),
        (None, given, Some(hint)) => {
            let name = program_name(path);
            let text = hint.get(Lang::En);
            // Where a student meets it: the case whose failure the reports show first.
            let case = result
                .sharpest_failures()
                .first()
                .map(|&index| style::one_line(&result.cases[index].case.name))
                .unwrap_or_default();
            match exercise.first_hints.get(name) {
                Some(expected) if expected.is(hint, &exercise.mistakes) => checked
                    .lines
                    .push(format!("            first hint: {text}")),
                Some(expected) => checked.problems.push(problem(format!(
                    "its first hint (on case {case}) is {text:?}, where [exercises.first_hints] \
                     of {} wants {expected}: if the new hint names the program's mistake, \
                     write its start there; else tell the mistake apart again (a [[hints]] \
                     rule, or a mistake of [[exercises.mistakes]])",
                    exercise.name
                ))),
                None => checked.problems.push(problem(format!(
                    "no hint is stated for it to get first: it gets {text:?} (on case \
                     {case}); if that names its mistake, add `{name} = {}` to \
                     [exercises.first_hints] of {} in info.toml",
                    given.map_or_else(
                        || format!("{:?}", start_of(text)),
                        |mistake| format!("{{ mistake = {:?} }}", mistake.name)
                    ),
                    exercise.name
                ))),
            }
        }
        (None, _, None) => checked.problems.push(problem(
            "no case's hint fits how it fails: add a hint (or a [[hints]] rule for its \
             verdict or output) to a case it fails, or name it after a mistake of \
             [[exercises.mistakes]]"
                .into(),
        )),
    }
}
