//! `clings dev mutants [EXERCISE...]`: how strong an exercise's cases are. Each mutant of
//! the reference solution (one small change, see [`crate::mutants::mutate`]) is graded as a
//! student's program is; the cases kill it when one of them fails. The mutation score is
//! the share killed of the mutants that compile and can be told from the reference. For a
//! mutant that survives, made-up inputs (see [`crate::mutants::input_search`]) are tried on it and
//! on the reference: the first on which they differ is kept, ready to become a case with
//! `dev new-case`; one that no input tells apart is likely equivalent, and listed apart.
//! A mutant the course accepts as no mistake (`[[exercises.accepted_mutants]]`) is listed
//! apart too; one that an entry names alone by its change is not graded (see
//! [`named_alone`]), unless `--check-accepted`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use colored::Colorize;

use crate::app::App;
use crate::commands::Exit;
use crate::compile::cache::Executable;
use crate::course::Exercise;
use crate::grade::looping::LoopRule;
use crate::grade::results::CaseResult;
use crate::grade::{self, Grader};
use crate::mutants::input_search;
use crate::mutants::mutate::{self, Mutant, Operator};
use crate::mutants::reach::Probes;
use crate::mutants::schema::Schema;
use crate::sandbox::{Job, Limits, Termination};
use crate::util::i18n::count;
use crate::util::{parallel, style};
use crate::verdict::{self, Expected, Finding, Status};

/// A mutant's time limit on a case without a limit of its own (or on a made-up input) is
/// this many times the reference's time on it, below the course's: a mutant that loops
/// costs little, and one merely slower is not taken for a killed one.
const TIME_FACTOR: u32 = 20;
/// But never below this, for a machine under load.
const MIN_TIME_LIMIT: Duration = Duration::from_millis(250);

/// The time limit of a mutant's run where the reference's took `reference`.
fn time_cap(reference: Duration) -> Duration {
    (reference * TIME_FACTOR).max(MIN_TIME_LIMIT)
}

/// What the cases did to one mutant.
enum Fate {
    /// It does not compile: not in the score.
    Stillborn,
    /// A case failed.
    Killed,
    /// Every case passed; the input found on which it differs from the reference, if any.
    Survived(Option<PathBuf>),
    /// Every case passed and no made-up input told it from the reference.
    Equivalent,
    /// The course accepts it as no mistake: the entry of the exercise's `accepted_mutants`
    /// that fits it first. Every case passed, or it was not graded (see [`named_alone`]).
    Accepted(usize),
}

/// `dev mutants`: which exercises, and how hard to look for inputs.
#[derive(clap::Args)]
pub struct Args {
    /// The exercises (default: every exercise with a reference solution).
    pub exercises: Vec<String>,
    /// Made-up inputs tried on a surviving mutant before it is called equivalent (made
    /// N; one made twice is tried once).
    #[arg(long, default_value_t = 300, value_name = "N")]
    pub tries: usize,
    /// The seed of the made-up inputs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Exit 1 unless every exercise's mutation score reaches this (for CI).
    #[arg(long, value_name = "PERCENT")]
    pub min_score: Option<f64>,
    /// Grade every mutant the course accepts, also those its entries name alone: one the
    /// cases kill counts as killed, and its entry is named.
    #[arg(long)]
    pub check_accepted: bool,
}

pub fn run(app: &App, options: &Args) -> Result<Exit> {
    let course = &app.course;
    let exercises: Vec<&Exercise> = match options.exercises.is_empty() {
        true => {
            let solved: Vec<&Exercise> = course
                .exercises
                .iter()
                .filter(|exercise| course.root.join(exercise.solution_path()).is_file())
                .collect();
            // Nothing graded is not "every exercise scores": a student's folder (made by
            // `clings init`) has no reference solution to make mutants of.
            if solved.is_empty() {
                bail!(
                    "no exercise of the course in {} has a reference solution (solutions/NAME.c): \
                     dev mutants grades the mutants of a course's reference solutions, which a \
                     student's folder does not hold",
                    course.root.display()
                );
            }
            solved
        }
        false => options
            .exercises
            .iter()
            .map(|name| course.exercise(name))
            .collect::<Result<_>>()?,
    };
    let grader = app.grader()?;
    let mut below = Vec::new();
    for exercise in exercises {
        let score = exercise_score(app, &grader, exercise, options)?;
        if let (Some(min), Some(score)) = (options.min_score, score)
            && score < min
        {
            below.push(format!("{} ({score:.1}%)", exercise.name));
        }
    }
    if let Some(min) = options.min_score {
        if !below.is_empty() {
            println!(
                "{}",
                format!("dev mutants: below {min}%: {}", below.join(", "))
                    .red()
                    .bold()
            );
            return Ok(Exit::Failure);
        }
        println!("dev mutants: every exercise scores at least {min}%");
    }
    Ok(Exit::Success)
}

/// Grades the mutants of one exercise and prints its report; returns its score in percent
/// (none without a mutant to score).
fn exercise_score(
    app: &App,
    grader: &Grader,
    exercise: &Exercise,
    options: &Args,
) -> Result<Option<f64>> {
    let started = Instant::now();
    let course = &app.course;
    let solution = exercise.solution_path();
    let reference_source = std::fs::read_to_string(course.root.join(&solution))
        .with_context(|| format!("cannot read {}", solution.display()))?;
    let reference = grader.grade_source(exercise, &course.root, &solution)?;
    if !reference.passed() {
        bail!(
            "the reference solution of {} fails its own cases: run `clings dev check`",
            exercise.name
        );
    }
    // A case with a limit of its own keeps it: the course chose it for what the case does
    // (a game under a referee's clock, whose limit on each move stops a mutant that loops).
    let time_caps = reference
        .cases
        .iter()
        .filter(|case| case.case.config.time_limit_ms.is_none())
        .map(|case| (case.case.name.clone(), time_cap(case.elapsed)))
        .collect();
    let (mutant_grader, strict_grader) = mutant_graders(app, time_caps)?;

    let mutants = mutate::mutants(&reference_source);
    let fitting: Vec<Option<usize>> = mutants
        .iter()
        .map(|mutant| accepted_entry(exercise, mutant))
        .collect();
    let alone = named_alone(&mutants, &fitting, exercise);
    let ungraded: Vec<bool> = alone
        .iter()
        .map(|&alone| alone && !options.check_accepted)
        .collect();
    let numbers: Vec<usize> = (0..mutants.len())
        .filter(|&number| !ungraded[number])
        .collect();
    let file_name = solution
        .file_name()
        .map(PathBuf::from)
        .unwrap_or_else(|| solution.clone());
    let dir = course.cache_dir().join("mutants").join(&exercise.name);
    let _ = std::fs::remove_dir_all(&dir);
    for (number, mutant) in mutants.iter().enumerate() {
        let home = mutant_dir(&dir, number);
        std::fs::create_dir_all(&home)
            .with_context(|| format!("cannot create {}", home.display()))?;
        std::fs::write(home.join(&file_name), &mutant.source)?;
    }
    // Compiled side by side: the mutant grader runs one case at a time.
    let schemas = schemas(
        (&mutant_grader, grader.jobs),
        exercise,
        (&reference_source, &mutants, &numbers),
        &dir,
        &file_name,
    )?;
    let costs: Vec<Duration> = reference.cases.iter().map(|case| case.elapsed).collect();
    let kills = KillCounts::new(&costs);
    let graded = parallel::map(&numbers, grader.jobs, |&number| {
        let (base, env) = built_as(&schemas, &dir, number);
        mutant_grader.grade_source_until(exercise, (&base, &file_name), &env, |cases, ran| {
            kills.still_to_run(cases, ran)
        })
    });
    let mut statuses: Vec<Option<Status>> = vec![None; mutants.len()];
    for (&number, graded) in numbers.iter().zip(graded) {
        statuses[number] = Some(graded?.status);
    }
    if let Some(strict_grader) = &strict_grader {
        let sources = (reference_source.as_str(), mutants.as_slice());
        let dirs = (dir.as_path(), file_name.as_path());
        let graders = (strict_grader, grader.jobs);
        grade_strict_tier(graders, exercise, sources, dirs, &mut statuses)?;
    }
    let mut fates: Vec<Fate> = statuses
        .iter()
        .zip(&fitting)
        .map(|(&status, &entry)| fate_of(status, entry))
        .collect();
    let graded_in = started.elapsed();
    let searched = search(
        (grader, &mutant_grader),
        (exercise, &reference_source, &mutants),
        (&dir, &file_name, &schemas),
        &mut fates,
        options,
    )?;
    report(
        exercise,
        &file_name,
        (&mutants, &fitting, &alone),
        ungraded.iter().filter(|&&ungraded| ungraded).count(),
        &fates,
        (
            &searched,
            schemas.iter().map(|(_, schema)| schema.len()).sum(),
        ),
        (graded_in, started.elapsed()),
    );
    Ok(score(&fates))
}

/// The graders of an exercise's mutants, each holding a mutant's runs to `time_caps`: one
/// for their plain builds, linked whole where the compiler can, without the strict tier,
/// and one whose builds are the strict tier's (none when the course has no strict tier).
/// The strict tier runs only on a mutant that passes every case, so it builds only those,
/// together (see [`grade_strict_tier`]), rather than every schema twice.
fn mutant_graders<'a>(
    app: &'a App,
    time_caps: HashMap<String, Duration>,
) -> Result<(Grader<'a>, Option<Grader<'a>>)> {
    let mut plain = Grader::new(&app.course, app.grader_options())?;
    // A mutant's build runs on every case, and a likely equivalent one's on hundreds of
    // made-up inputs: a run that loads no library is a third of one that does.
    plain.link_whole();
    let mut strict = match plain.strict.take() {
        Some(_) => Grader::new(&app.course, app.grader_options())?.into_strict_tier(),
        None => None,
    };
    for grader in std::iter::once(&mut plain).chain(strict.as_mut()) {
        grader.time_caps = time_caps.clone();
        // The mutants are graded side by side, each on its cases one after the other, and
        // stop at the first they fail.
        grader.jobs = 1;
        grader.loop_rule = LoopRule::FirstFailure;
    }
    Ok((plain, strict))
}

/// The strict tier on each mutant that passed every case (a `Passed` in `statuses`), `jobs`
/// at a time: the strict tier's sample of the cases, stopping at the first that fails, on
/// builds by `strict_grader` of schemas of those mutants only. A failure makes the mutant's
/// status `Failed`, as the strict tier's does a student's.
fn grade_strict_tier(
    (strict_grader, jobs): (&Grader, usize),
    exercise: &Exercise,
    (original, mutants): (&str, &[Mutant]),
    (dir, file_name): (&Path, &Path),
    statuses: &mut [Option<Status>],
) -> Result<()> {
    let passed: Vec<usize> = (0..statuses.len())
        .filter(|&number| statuses[number] == Some(Status::Passed))
        .collect();
    if passed.is_empty() {
        return Ok(());
    }
    let schemas = schemas(
        (strict_grader, jobs),
        exercise,
        (original, mutants, &passed),
        &dir.join("strict"),
        file_name,
    )?;
    let sampled = strict_grader.strict_cases(strict_grader.cases(exercise)?.len());
    let graded = parallel::map(&passed, jobs, |&number| {
        let (base, env) = built_as(&schemas, dir, number);
        strict_grader.grade_source_until(exercise, (&base, file_name), &env, |cases, ran| {
            match cases.iter().any(fails) {
                true => Vec::new(),
                false => sampled
                    .iter()
                    .copied()
                    .filter(|&index| !ran[index])
                    .collect(),
            }
        })
    });
    for (&number, graded) in passed.iter().zip(graded) {
        let graded = graded?;
        let failed = graded.cases.iter().any(fails);
        statuses[number] = Some(match graded.status {
            Status::CompileError => bail!(
                "mutant {} of {} compiles, but not for the strict tier:\n{}",
                number + 1,
                exercise.name,
                style::strip_ansi(&graded.diagnostics)
            ),
            _ if failed => Status::Failed,
            _ => Status::Passed,
        });
    }
    Ok(())
}

/// Whether a case ran (a case not run is [`Finding::Skipped`] in a grading so far) and
/// keeps the program from passing: a mutant's grading stops there.
fn fails(case: &CaseResult) -> bool {
    case.finding != Finding::Skipped && !case.allows_passing()
}

/// Which mutants an entry of the exercise's `accepted_mutants` names alone: by a change
/// that no other mutant it fits makes. Such a mutant is the one the instructor saw survive
/// and judged, and it is not graded, as the mutants a tool of another language is told to
/// skip are not (Stryker's disable comments, cargo-mutants' exclusions): grading it would
/// change no figure but the check of the entry, and it costs what a survivor costs, every
/// case played (search's accepted mutants were a third of its time). An entry that fits
/// several mutants by one change, or by a function only, cannot say which it meant: they are
/// graded, and only the survivors are accepted.
fn named_alone(mutants: &[Mutant], fitting: &[Option<usize>], exercise: &Exercise) -> Vec<bool> {
    let changes: Vec<String> = mutants.iter().map(Mutant::change).collect();
    // How many mutants each entry fits by each change.
    let mut fitted: HashMap<(usize, &str), usize> = HashMap::new();
    for (entry, change) in fitting.iter().zip(&changes) {
        if let Some(entry) = entry {
            *fitted.entry((*entry, change.as_str())).or_default() += 1;
        }
    }
    fitting
        .iter()
        .zip(&changes)
        .map(|(entry, change)| {
            entry.is_some_and(|entry| {
                let accepted = &exercise.accepted_mutants[entry];
                (accepted.change.is_some() || !accepted.changes.is_empty())
                    && fitted[&(entry, change.as_str())] == 1
            })
        })
        .collect()
}

/// A mutant's fate from its grading's status (none when it was not graded) and the entry of
/// `accepted_mutants` that fits it: a survivor an entry fits is accepted, as is a mutant
/// not graded; one the cases kill is killed whatever the entries say.
fn fate_of(status: Option<Status>, entry: Option<usize>) -> Fate {
    match (status, entry) {
        (Some(Status::CompileError), _) => Fate::Stillborn,
        (Some(Status::Passed), None) => Fate::Survived(None),
        (Some(Status::Passed) | None, Some(entry)) => Fate::Accepted(entry),
        (None, None) => unreachable!("a mutant is left ungraded only where an entry names it"),
        (Some(_), _) => Fate::Killed,
    }
}

/// The first entry of the exercise's `accepted_mutants` that fits `mutant`.
fn accepted_entry(exercise: &Exercise, mutant: &Mutant) -> Option<usize> {
    let change = mutant.change();
    exercise
        .accepted_mutants
        .iter()
        .position(|accepted| accepted.fits(mutant.function.as_deref(), &change))
}

/// How many mutants each case has killed so far, shared by the threads that grade them, and
/// what each case costs (the reference's time on it). A mutant runs first the case likeliest
/// to kill it for its cost: most mutants are killed by a few cases, so a killed mutant
/// costs about one run, and only a survivor runs every case.
struct KillCounts {
    kills: Vec<AtomicUsize>,
    /// Microseconds, at least 1.
    costs: Vec<u64>,
}

impl KillCounts {
    fn new(costs: &[Duration]) -> KillCounts {
        KillCounts {
            kills: costs.iter().map(|_| AtomicUsize::new(0)).collect(),
            costs: costs
                .iter()
                .map(|cost| (cost.as_micros() as u64).max(1))
                .collect(),
        }
    }

    /// None once a case has failed (it is counted); else the case not yet run with the most
    /// kills (one more, so that a case yet to kill still counts) for its cost, the first of
    /// them in the course's order on a tie. Run in that order, the cases kill a mutant at
    /// the least expected cost when each case's chance to kill it is its share of kills.
    fn still_to_run(&self, cases: &[CaseResult], ran: &[bool]) -> Vec<usize> {
        if let Some(killer) = (0..cases.len()).find(|&i| fails(&cases[i])) {
            self.kills[killer].fetch_add(1, Ordering::Relaxed);
            return Vec::new();
        }
        // Kills over cost, compared without dividing: a's kills times b's cost.
        let weighed = |a: usize, b: usize| {
            (self.kills[a].load(Ordering::Relaxed) as u128 + 1) * self.costs[b] as u128
        };
        (0..cases.len())
            .filter(|&i| !ran[i])
            .reduce(|best, i| match weighed(i, best) > weighed(best, i) {
                true => i,
                false => best,
            })
            .into_iter()
            .collect()
    }
}

fn mutant_dir(dir: &Path, number: usize) -> PathBuf {
    dir.join(format!("m{}", number + 1))
}

/// The most mutants one schema holds: its compiles stay well within a compile's limits
/// (search's take about 35 ms each at -O2, twice that with AddressSanitizer), and the
/// schemas compile side by side.
const SCHEMA_MEMBERS: usize = 32;

/// How many times a schema is compiled again without the mutants whose bodies did not
/// compile in it, before its mutants are built alone.
const SCHEMA_TRIES: usize = 3;

/// The schemas of the `numbers` (indices) of `mutants` of `original`, each of up to
/// [`SCHEMA_MEMBERS`] mutants in the list's order, written in folders of `dir` (`schema1`,
/// ...) and compiled by `grader`, `jobs` at a time. A schema leaves out the mutants whose
/// bodies do not compile beside the others (each then built alone, to be found stillborn
/// or not); one that does not compile for another reason is dropped, its mutants built
/// alone.
fn schemas(
    (grader, jobs): (&Grader, usize),
    exercise: &Exercise,
    (original, mutants, numbers): (&str, &[Mutant], &[usize]),
    dir: &Path,
    file_name: &Path,
) -> Result<Vec<(PathBuf, Schema)>> {
    let chunks: Vec<(PathBuf, &[usize])> = numbers
        .chunks(SCHEMA_MEMBERS)
        .enumerate()
        .map(|(number, chunk)| (dir.join(format!("schema{}", number + 1)), chunk))
        .collect();
    let built = parallel::map(&chunks, jobs, |(home, chunk)| -> Result<_> {
        std::fs::create_dir_all(home)
            .with_context(|| format!("cannot create {}", home.display()))?;
        let mut candidates = chunk.to_vec();
        for _ in 0..SCHEMA_TRIES {
            let schema = Schema::new(original, mutants, &candidates);
            if schema.is_empty() {
                return Ok(None);
            }
            std::fs::write(home.join(file_name), &schema.source)?;
            let build = grader.compile_in(exercise, home, file_name)?;
            if build.program.is_some() {
                return Ok(Some((home.clone(), schema)));
            }
            match schema.members_in_error(&style::strip_ansi(&build.diagnostics)) {
                Some(broken) => candidates.retain(|index| !broken.contains(index)),
                None => return Ok(None),
            }
        }
        Ok(None)
    });
    built.into_iter().filter_map(Result::transpose).collect()
}

/// Where mutant `number` is built, and what its runs get in their environment: its
/// schema's folder and the number that chooses it, when a schema holds it; else its own
/// folder.
fn built_as(
    schemas: &[(PathBuf, Schema)],
    dir: &Path,
    number: usize,
) -> (PathBuf, Vec<(String, String)>) {
    match schemas.iter().find(|(_, schema)| schema.holds(number)) {
        Some((home, _)) => (home.clone(), vec![Schema::choose(number)]),
        None => (mutant_dir(dir, number), Vec::new()),
    }
}

/// Looks for an input that tells each survivor from the reference; a survivor for which
/// none of `options.tries` inputs does becomes equivalent. An input on which the reference
/// never starts the survivor's changed statement is not run on it (see [`Probes`]).
fn search(
    (grader, mutant_grader): (&Grader, &Grader),
    (exercise, original, mutants): (&Exercise, &str, &[Mutant]),
    (dir, file_name, schemas): (&Path, &Path, &[(PathBuf, Schema)]),
    fates: &mut [Fate],
    options: &Args,
) -> Result<Searched> {
    let unsearched = |why| {
        Ok(Searched {
            unsearched: Some(why),
            spared: None,
        })
    };
    let survivors: Vec<usize> = (0..fates.len())
        .filter(|&number| matches!(fates[number], Fate::Survived(_)))
        .collect();
    if survivors.is_empty() {
        return Ok(Searched::default());
    }
    if exercise.checker.is_some() || exercise.referee.is_some() {
        return unsearched(
            "its cases are judged by a checker or a referee, not by one right output",
        );
    }
    let mut samples = Vec::new();
    for case in grader.cases(exercise)? {
        if let Some(input) = &case.input {
            samples.push(std::fs::read_to_string(input).unwrap_or_default());
        }
    }
    let made = input_search::inputs(&exercise.input, &samples, options.tries, options.seed);
    if made.is_empty() {
        return unsearched("the cases have no input to start from");
    }
    let inputs_dir = dir.join("inputs");
    std::fs::create_dir_all(&inputs_dir)?;
    let mut paths = Vec::new();
    for (index, input) in made.iter().enumerate() {
        let path = inputs_dir.join(format!("{}.in", index + 1));
        std::fs::write(&path, input)?;
        paths.push(path);
    }
    let limits = grader.limits(None);
    let run = |program: &Path, chosen: &[(String, String)], input: &Path, limits| {
        let env = grade::program_env_of(&grader.toolchain, chosen);
        grader
            .sandbox
            .run(&Job::program(program, Some(input), &env), limits)
    };
    let reference = grader.build(exercise, &exercise.solution_path())?;
    // What the reference does with each input, and the limits of a mutant's run of it; one
    // it fails on (too slow, a crash) is not used.
    let expected: Vec<Option<(Vec<u8>, i32, Limits)>> =
        parallel::map(&paths, grader.jobs, |path| {
            let outcome = run(&reference, &[], path, limits).ok()?;
            match (outcome.termination, outcome.stopped) {
                (Termination::Exited(code), None) => {
                    let capped = grader.limits_capped(time_cap(outcome.elapsed));
                    Some((outcome.stdout, code, capped))
                }
                _ => None,
            }
        });
    // Which statements the reference starts on each input (see [`Probes`]): none known
    // where the run does not say.
    let probes = Probes::new(
        original,
        mutants.iter().map(|mutant| mutant.source.as_str()),
    );
    let probing = probes_build(grader, exercise, &probes, (dir, file_name))?;
    let reached: Vec<Option<Vec<bool>>> = parallel::map(&paths, grader.jobs, |path| {
        let outcome = run(probing.as_ref()?, &[], path, limits).ok()?;
        probes.reached(&outcome.stderr)
    });
    let indices: Vec<usize> = (0..paths.len()).collect();
    let spared = AtomicUsize::new(0);
    for number in survivors {
        let (base, chosen) = built_as(schemas, dir, number);
        let program = mutant_grader.build_in(exercise, &base, file_name)?;
        // The first input (in order) on which the mutant differs: inputs after one found are
        // not run, those before it all are.
        let first = AtomicUsize::new(usize::MAX);
        parallel::map(&indices, grader.jobs, |&index| {
            let Some((stdout, exit_code, limits)) = &expected[index] else {
                return;
            };
            if index > first.load(Ordering::Relaxed) {
                return;
            }
            if !probes.may_tell(number, reached[index].as_deref()) {
                spared.fetch_add(1, Ordering::Relaxed);
                return;
            }
            let Ok(outcome) = run(&program, &chosen, &paths[index], *limits) else {
                return;
            };
            let expected = Expected {
                stdout,
                exit_code: *exit_code,
                files: &[],
                checked: None,
            };
            let mode = grader.course.defaults.compare;
            if verdict::judge(&outcome, &expected, mode, *limits) != Finding::Passed {
                first.fetch_min(index, Ordering::Relaxed);
            }
        });
        fates[number] = match first.into_inner() {
            usize::MAX => Fate::Equivalent,
            index => {
                let kept = dir.join(format!("m{}.in", number + 1));
                std::fs::copy(&paths[index], &kept)?;
                Fate::Survived(Some(kept))
            }
        };
    }
    Ok(Searched {
        unsearched: None,
        spared: Some(spared.into_inner()),
    })
}

/// What the input search did: why it searched nothing, if it did not; else how many runs
/// of a mutant on an input the probes spared (the reference never starts the changed
/// statement on that input), none when there was no survivor to search for.
#[derive(Default)]
struct Searched {
    unsearched: Option<&'static str>,
    spared: Option<usize>,
}

/// The reference built with `probes`, in `dir`'s `reach` folder; none without a probe, or
/// when it does not compile (every input is then tried on every mutant).
fn probes_build(
    grader: &Grader,
    exercise: &Exercise,
    probes: &Probes,
    (dir, file_name): (&Path, &Path),
) -> Result<Option<Executable>> {
    if probes.is_empty() {
        return Ok(None);
    }
    let home = dir.join("reach");
    std::fs::create_dir_all(&home)?;
    std::fs::write(home.join(file_name), &probes.source)?;
    Ok(grader.compile_in(exercise, &home, file_name)?.program)
}

/// Killed over the mutants that compile, are not equivalent and are not accepted, in
/// percent.
fn score(fates: &[Fate]) -> Option<f64> {
    killed_share(fates, |fate| {
        matches!(fate, Fate::Killed | Fate::Survived(_))
    })
}

/// The score were the accepted mutants survivors: what the cases alone kill.
fn score_counting_accepted(fates: &[Fate]) -> Option<f64> {
    killed_share(fates, |fate| {
        matches!(fate, Fate::Killed | Fate::Survived(_) | Fate::Accepted(_))
    })
}

/// The killed mutants over those `scored` counts, in percent (none when it counts none).
fn killed_share(fates: &[Fate], scored: impl Fn(&Fate) -> bool) -> Option<f64> {
    let killed = fates
        .iter()
        .filter(|fate| matches!(fate, Fate::Killed))
        .count();
    let scored = fates.iter().filter(|fate| scored(fate)).count();
    (scored > 0).then(|| 100.0 * killed as f64 / scored as f64)
}

fn report(
    exercise: &Exercise,
    file_name: &Path,
    (mutants, fitting, alone): (&[Mutant], &[Option<usize>], &[bool]),
    ungraded: usize,
    fates: &[Fate],
    (searched, in_schema): (&Searched, usize),
    (graded_in, elapsed): (Duration, Duration),
) {
    let tally = |wanted: fn(&Fate) -> bool| fates.iter().filter(|fate| wanted(fate)).count();
    let killed = tally(|fate| matches!(fate, Fate::Killed));
    let survived = tally(|fate| matches!(fate, Fate::Survived(_)));
    let stillborn = tally(|fate| matches!(fate, Fate::Stillborn));
    let equivalent = tally(|fate| matches!(fate, Fate::Equivalent));
    let accepted = tally(|fate| matches!(fate, Fate::Accepted(_)));
    let score = score(fates).map_or("none".to_string(), |score| format!("{score:.1}%"));
    let accepted = match score_counting_accepted(fates) {
        Some(counting) if accepted > 0 => {
            let graded = match ungraded {
                0 => String::new(),
                _ => format!(" ({ungraded} not graded)"),
            };
            format!(", {accepted} accepted as no mistake{graded}: {counting:.1}% counting them")
        }
        _ => String::new(),
    };
    let spared = searched.spared.map_or(String::new(), |spared| {
        format!(", {} spared", count(spared, "run", "runs"))
    });
    let summary = format!(
        "{}: mutation score {score}, {killed} of {} killed ({}, {stillborn} stillborn, \
         {equivalent} equivalent{accepted}) in {:.1} s ({:.1} s grading, {:.1} s input \
         search{spared}; {in_schema} built as one program)",
        exercise.name,
        killed + survived,
        count(mutants.len(), "mutant", "mutants"),
        elapsed.as_secs_f64(),
        graded_in.as_secs_f64(),
        (elapsed - graded_in).as_secs_f64(),
    );
    match survived {
        0 => println!("{}", summary.green().bold()),
        _ => println!("{}", summary.yellow().bold()),
    }
    let operators = [
        Operator::Relational,
        Operator::Arithmetic,
        Operator::Logical,
        Operator::Constant,
        Operator::Direction,
        Operator::RemovedStatement,
        Operator::SwappedBranches,
        Operator::SwappedStatements,
        Operator::SwappedOperands,
    ];
    let by_operator: Vec<String> = operators
        .iter()
        .filter_map(|&operator| {
            let scored = mutants.iter().zip(fates).filter(|(mutant, fate)| {
                mutant.operator == operator && matches!(fate, Fate::Killed | Fate::Survived(_))
            });
            let (mut killed, mut total) = (0, 0);
            for (_, fate) in scored {
                total += 1;
                killed += matches!(fate, Fate::Killed) as usize;
            }
            (total > 0).then(|| format!("{} {killed}/{total}", operator.name()))
        })
        .collect();
    println!("  killed by operator: {}", by_operator.join(", "));
    let file = file_name.display();
    for (mutant, fate) in mutants.iter().zip(fates) {
        match fate {
            Fate::Survived(found) => {
                println!("  {}  {file}:{mutant}", "survived  ".yellow().bold());
                match (found, searched.unsearched) {
                    (Some(input), _) => println!(
                        "              differs from the reference on {}: \
                         clings dev new-case {} NAME --input {}",
                        shown(input),
                        exercise.name,
                        shown(input)
                    ),
                    (None, Some(why)) => println!("              no input searched: {why}"),
                    (None, None) => {}
                }
            }
            Fate::Equivalent => {
                println!("  equivalent  {file}:{mutant} (no made-up input tells it apart)")
            }
            Fate::Accepted(_) | Fate::Killed | Fate::Stillborn => {}
        }
    }
    // The accepted ones by entry, so that each reason is read once, and the entries that
    // accepted nothing: what they named is no longer in the reference (or, graded, is
    // killed now).
    for (entry, accepted) in exercise.accepted_mutants.iter().enumerate() {
        let fits = |at: &Option<usize>| *at == Some(entry);
        let accepted_here: Vec<&Mutant> = mutants
            .iter()
            .zip(fates)
            .filter(|(_, fate)| matches!(fate, Fate::Accepted(at) if *at == entry))
            .map(|(mutant, _)| mutant)
            .collect();
        let killed_here = (0..mutants.len())
            .filter(|&n| fits(&fitting[n]) && alone[n] && matches!(fates[n], Fate::Killed))
            .count();
        let what = [
            accepted
                .function
                .as_ref()
                .map(|name| format!("in {name}()")),
            accepted.change.clone(),
            (!accepted.changes.is_empty())
                .then(|| count(accepted.changes.len(), "change", "changes")),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ");
        let warning = |says: String| {
            let which = format!("accepted mutant {} ({what})", entry + 1);
            println!("  {} {which} {says}", "warning:".yellow().bold());
        };
        if killed_here > 0 {
            warning(format!(
                "names {} the cases kill, counted as killed: remove the change from info.toml",
                count(killed_here, "mutant", "mutants")
            ));
        }
        if accepted_here.is_empty() {
            warning("fits no survivor: remove it from info.toml".to_string());
            continue;
        }
        println!(
            "  accepted    {} ({what}): {}",
            count(accepted_here.len(), "mutant", "mutants"),
            accepted.why
        );
        for mutant in accepted_here {
            println!("              {file}:{mutant}");
        }
    }
}

/// `path` relative to the working directory when it is under it.
fn shown(path: &Path) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    path.strip_prefix(&cwd)
        .unwrap_or(path)
        .display()
        .to_string()
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::course::fixture::{Case, CaseConfig};
    use crate::verdict::Finding;
    use crate::verdict::compare::CompareMode;

    fn result(index: usize, finding: Finding) -> CaseResult {
        let case = Case {
            name: format!("c{index}"),
            input: None,
            expected_path: PathBuf::from("x.out"),
            config: toml::from_str::<CaseConfig>("").unwrap(),
            given: Vec::new(),
            expected_files: Vec::new(),
            hidden: false,
        };
        CaseResult::unrun(case, finding, CompareMode::Lines)
    }

    /// Grades one mutant that fails the cases `fails` as the counts ask: the cases it ran,
    /// in order.
    fn grade(kills: &KillCounts, fails: &[usize]) -> Vec<usize> {
        let total = kills.kills.len();
        let mut ran = vec![false; total];
        let mut order = Vec::new();
        loop {
            let so_far: Vec<CaseResult> = (0..total)
                .map(|i| match (ran[i], fails.contains(&i)) {
                    (false, _) => result(i, Finding::Skipped),
                    (true, true) => result(i, Finding::WrongOutput),
                    (true, false) => result(i, Finding::Passed),
                })
                .collect();
            let next = kills.still_to_run(&so_far, &ran);
            let Some(&index) = next.first() else {
                return order;
            };
            assert_eq!(next.len(), 1, "one case at a time");
            ran[index] = true;
            order.push(index);
        }
    }

    #[test]
    fn only_survivors_that_an_entry_fits_are_accepted_and_those_named_alone_are_not_graded() {
        let exercise: Exercise = toml::from_str(
            "name = \"e\"\ntitle = \"e\"\npath = \"e.c\"\n\
             [[accepted_mutants]]\nfunction = \"weight\"\nwhy = \"another weight\"\n\
             [[accepted_mutants]]\nchange = \"return 0 → return 1\"\nwhy = \"any status\"\n\
             [[accepted_mutants]]\nchanges = [\"x + 1 → x + 2\"]\nwhy = \"made twice\"\n",
        )
        .unwrap();
        let source = "static int weight(int n) {\n    return n * 10;\n}\n\
                      int main(void) {\n    int x = 0;\n    x = x + 1;\n    x = x + 1;\n    \
                      return weight(x) - 20;\n    return 0;\n}\n";
        let mutants = mutate::mutants(source);
        let fitting: Vec<Option<usize>> = mutants
            .iter()
            .map(|mutant| accepted_entry(&exercise, mutant))
            .collect();
        let alone = named_alone(&mutants, &fitting, &exercise);
        // Named alone: the one `return 0` changed so, not weight's mutants (the entry names
        // a function only), nor `x + 1 → x + 2`, made in two places.
        let named: Vec<String> = (0..mutants.len())
            .filter(|&n| alone[n])
            .map(|n| mutants[n].change())
            .collect();
        assert_eq!(named, ["return 0 → return 1"]);
        // The first mutant is killed; every other one graded survives the cases.
        let fates: Vec<Fate> = (0..mutants.len())
            .map(|at| match (at, alone[at]) {
                (_, true) => fate_of(None, fitting[at]),
                (0, false) => fate_of(Some(Status::Failed), fitting[at]),
                (_, false) => fate_of(Some(Status::Passed), fitting[at]),
            })
            .collect();
        assert_eq!(fitting.iter().filter(|&&at| at == Some(2)).count(), 2);
        for (mutant, fate) in mutants.iter().zip(&fates).skip(1) {
            let entry = match (mutant.function.as_deref(), mutant.change().as_str()) {
                (Some("weight"), _) => Some(0),
                (_, "return 0 → return 1") => Some(1),
                (_, "x + 1 → x + 2") => Some(2),
                _ => None,
            };
            match entry {
                Some(entry) => assert!(
                    matches!(fate, Fate::Accepted(at) if *at == entry),
                    "{mutant}"
                ),
                None => assert!(matches!(fate, Fate::Survived(None)), "{mutant}"),
            }
        }
        assert!(
            matches!(fates[0], Fate::Killed),
            "a killed mutant stays killed"
        );
        let accepted = fates
            .iter()
            .filter(|f| matches!(f, Fate::Accepted(_)))
            .count();
        let survived = fates
            .iter()
            .filter(|f| matches!(f, Fate::Survived(_)))
            .count();
        assert!(accepted > 0 && survived > 0);
        assert_eq!(score(&fates), Some(100.0 / (1 + survived) as f64));
        assert_eq!(
            score_counting_accepted(&fates),
            Some(100.0 / (1 + survived + accepted) as f64)
        );
    }

    #[test]
    fn a_mutant_runs_the_deadliest_case_first_and_stops_at_its_first_failure() {
        let kills = KillCounts::new(&[Duration::from_millis(5); 4]);
        // Nothing killed yet: the course's order, up to the first failure.
        assert_eq!(grade(&kills, &[2, 3]), vec![0, 1, 2]);
        assert_eq!(grade(&kills, &[3]), vec![2, 0, 1, 3]);
        // Cases 2 and 3 have killed one each: the tie goes to the earlier.
        assert_eq!(grade(&kills, &[3]), vec![2, 3]);
        assert_eq!(grade(&kills, &[0, 3]), vec![3]);
        // A survivor runs every case, the deadliest first.
        assert_eq!(grade(&kills, &[]), vec![3, 2, 0, 1]);
        let counted: Vec<usize> = kills
            .kills
            .iter()
            .map(|k| k.load(Ordering::Relaxed))
            .collect();
        assert_eq!(counted, vec![0, 0, 1, 3]);
    }

    #[test]
    fn a_case_that_costs_more_runs_first_only_once_its_kills_make_up_for_it() {
        let ms = Duration::from_millis;
        let kills = KillCounts::new(&[ms(10), ms(1), ms(10)]);
        // Nothing killed yet: the cheapest first, then the course's order.
        assert_eq!(grade(&kills, &[2]), vec![1, 0, 2]);
        // Case 2 kills, but costs ten times case 1: case 1 still runs first while case 2's
        // kills (one more) are at most ten, a tie going to the earlier.
        for _ in 0..9 {
            assert_eq!(grade(&kills, &[2]), vec![1, 2]);
        }
        // Ten kills: 11 for 10 ms is worth more than 1 for 1 ms.
        assert_eq!(grade(&kills, &[1, 2]), vec![2]);
        assert_eq!(kills.kills[2].load(Ordering::Relaxed), 11);
        assert_eq!(kills.kills[1].load(Ordering::Relaxed), 0);
    }
}
