//! `clings grade SUBMISSIONS`: a whole class in parallel, into a gradebook; and
//! `clings grade --merge`: shards' gradebooks into one.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};

use crate::app::App;
use crate::commands::Exit;
use crate::commands::report;
use crate::commands::test::Hidden;
use crate::course::Exercise;
use crate::grade;
use crate::grade::passing::Counting;
use crate::report::json;
use crate::sandbox::Interrupted;
use crate::store::gradebook::{CSV_FILE, Gradebook, JSON_FILE, Student};
use crate::util::i18n::{Lang, count};
use crate::util::parallel;
use crate::util::shard::Shard;
use crate::util::style;

/// A folder of a class: a student's submission, or why it is refused.
pub struct Submission {
    pub name: String,
    /// The student's folder, or why it is not graded: it is a symbolic link, or a file of
    /// it to grade is (or is reached through one), and could be the course's solutions.
    pub folder: Result<PathBuf, String>,
}

/// The students of a class: each subdirectory of `submissions`, by name, in order, with
/// their sources of `exercises` checked.
pub fn students(submissions: &Path, exercises: &[Exercise]) -> Result<Vec<Submission>> {
    let mut students = Vec::new();
    for entry in std::fs::read_dir(submissions).with_context(|| {
        format!(
            "cannot read the submissions directory {}",
            submissions.display()
        )
    })? {
        let Ok(entry) = entry else { continue };
        if !entry.path().is_dir() {
            continue;
        }
        let name = entry.file_name();
        students.push(Submission {
            folder: match grade::refusal(submissions, Path::new(&name), exercises)? {
                None => Ok(entry.path()),
                Some(why) => Err(why),
            },
            name: name.to_string_lossy().into_owned(),
        });
    }
    students.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(students)
}

/// Grade a whole class: every subdirectory of SUBMISSIONS is one student's submission.
#[derive(clap::Args)]
pub struct Args {
    /// The directory of submissions (one subdirectory per student).
    #[arg(required_unless_present = "merge", conflicts_with = "merge")]
    submissions: Option<PathBuf>,
    /// Combine the grades.json of several shards into one gradebook.
    #[arg(long, num_args = 1.., value_name = "GRADES_JSON")]
    merge: Vec<PathBuf>,
    /// Grade only slice K of N (deterministic by student name), e.g. 2/4.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    #[command(flatten)]
    hidden: Hidden,
    /// Where grades.csv and grades.json are written.
    #[arg(long, value_name = "DIR", default_value = ".")]
    out: PathBuf,
    /// Also write the class report, a self-contained HTML page, to FILE.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    #[command(flatten)]
    page: report::Page,
}

/// `clings grade SUBMISSIONS` or `clings grade --merge GRADES_JSON...`.
pub fn run(app: &App, args: &Args) -> Result<Exit> {
    match &args.submissions {
        Some(submissions) => grade_class(app, submissions, args),
        None => merge(&args.merge, args, app.lang),
    }
}

fn grade_class(app: &App, submissions: &Path, args: &Args) -> Result<Exit> {
    let (out, shard) = (args.out.as_path(), args.shard);
    let students: Vec<Submission> = students(submissions, &app.course.exercises)?
        .into_iter()
        .enumerate()
        .filter(|(position, _)| shard.is_none_or(|shard| shard.contains(*position)))
        .map(|(_, student)| student)
        .collect();
    let folders: Vec<(&str, &Path)> = students
        .iter()
        .filter_map(|student| Some((student.name.as_str(), student.folder.as_deref().ok()?)))
        .collect();

    let names = app.course.names();
    let hidden_fixtures = args.hidden.to_run(&names, &names)?;
    let mut grader = app.grader_for_submissions()?;
    grader.hidden_fixtures = hidden_fixtures;
    // Students run side by side; each one's cases run one after another, so no
    // submission gets more than its share of the machine.
    let jobs = grader.jobs;
    grader.jobs = 1;
    let progress = ClassProgress::start(folders.len(), jobs);
    let graded = parallel::map(&folders, jobs, |(name, dir)| {
        let started = progress.begin(name);
        let sources: Vec<_> = app
            .course
            .exercises
            .iter()
            .map(|exercise| (exercise, *dir, grade::locate(exercise, dir)))
            .collect();
        let results = grader.grade_sources(&sources);
        progress.end(name, started);
        results.map(|results| args.hidden.hidden_feedback.apply(results))
    });
    progress.finish();
    // Ctrl-C stops every grading: that is no failure of the grader's, and no gradebook.
    if graded.iter().any(|result| {
        result
            .as_ref()
            .is_err_and(|err| err.chain().any(|cause| cause.is::<Interrupted>()))
    }) {
        return Err(Interrupted.into());
    }
    let refusals = students.iter().filter_map(|student| {
        Some(Student {
            name: student.name.clone(),
            error: None,
            refused: Some(student.folder.as_ref().err()?.clone()),
            results: None,
        })
    });
    let graded: Vec<Student> = folders
        .iter()
        .zip(graded)
        .map(|((name, _), results)| match results {
            Ok(results) => Student {
                name: name.to_string(),
                error: None,
                refused: None,
                results: Some(json::document(&results, Counting::Graded, app.lang)),
            },
            Err(err) => Student {
                name: name.to_string(),
                error: Some(format!("{err:#}")),
                refused: None,
                results: None,
            },
        })
        .chain(refusals)
        .collect();

    let book = Gradebook::new(names.into_iter().map(String::from).collect(), graded);
    book.write(out)?;
    let refused = students.len() - folders.len();
    println!(
        "graded {}{} into {} and {}",
        count(folders.len(), "submission", "submissions"),
        match refused {
            0 => String::new(),
            refused => format!(" (and refused {refused})"),
        },
        out.join(CSV_FILE).display(),
        out.join(JSON_FILE).display()
    );
    if let Some(path) = &args.html {
        report::write_page(&book, path, &args.page, app.lang)?;
    }
    let mut errors = 0;
    for student in &book.students {
        if let Some(why) = &student.refused {
            eprintln!(
                "refused {}: {}",
                style::one_line(&student.name),
                style::one_line(why)
            );
        }
        if let Some(error) = &student.error {
            errors += 1;
            eprintln!(
                "error: grading {} failed: {}",
                style::one_line(&student.name),
                style::one_line(error)
            );
        }
    }
    // Students who fail are grades, written above (exit 0); a submission the grader
    // could not grade leaves a hole in the gradebook that a CI job must not pass over.
    anyhow::ensure!(
        errors == 0,
        "the grader failed on {} (listed above); the gradebook has a `grader error` row for each",
        count(errors, "submission", "submissions")
    );
    // A refused submission has its row, with why, as a failing student has: the
    // gradebook is whole. But no grade of it should be published unseen: exit 1, as for
    // a failing `clings test`.
    if refused > 0 {
        eprintln!(
            "refused {} (listed above): the gradebook has a `refused` row for each",
            count(refused, "submission", "submissions")
        );
        return Ok(Exit::Failure);
    }
    Ok(Exit::Success)
}

fn merge(shards: &[PathBuf], args: &Args, lang: Lang) -> Result<Exit> {
    let book = Gradebook::load_merged(shards)?;
    let out = args.out.as_path();
    book.write(out)?;
    println!(
        "merged {}, {}, into {} and {}",
        count(shards.len(), "shard", "shards"),
        count(book.students.len(), "submission", "submissions"),
        out.join(CSV_FILE).display(),
        out.join(JSON_FILE).display()
    );
    if let Some(path) = &args.html {
        report::write_page(&book, path, &args.page, lang)?;
    }
    Ok(Exit::Success)
}

/// What `grade` shows while it works, on stderr: on a terminal, a bar with the students
/// being graded and the time left; elsewhere (a CI log), one line as each student starts
/// and one as each ends, never redrawn.
struct ClassProgress {
    total: usize,
    jobs: usize,
    tally: Arc<Mutex<Tally>>,
    bar: Option<ProgressBar>,
    /// Redraws the bar as the running students' times go on.
    ticker: Option<std::thread::JoinHandle<()>>,
}

/// The students being graded, with when they started, and those done.
#[derive(Default)]
struct Tally {
    running: Vec<(String, Instant)>,
    finished: usize,
    /// The grading time of the students finished, added up.
    spent: Duration,
}

/// How long the rest of the class will take.
#[derive(Debug, PartialEq)]
enum Estimate {
    /// No submission is graded yet: nothing to estimate from.
    Estimating,
    /// Every submission still to grade takes the average so far.
    About(Duration),
    /// A submission running is past the average, so the rest takes at least this long.
    AtLeast { left: Duration, average: Duration },
}

/// Students named on the bar; the others running are counted.
const NAMES_SHOWN: usize = 3;
const REDRAW: Duration = Duration::from_millis(500);

impl ClassProgress {
    fn start(total: usize, jobs: usize) -> ClassProgress {
        let tally = Arc::new(Mutex::new(Tally::default()));
        let jobs = jobs.clamp(1, total.max(1));
        let mut progress = ClassProgress {
            total,
            jobs,
            tally,
            bar: None,
            ticker: None,
        };
        if !std::io::stderr().is_terminal() {
            return progress;
        }
        // `wide_msg` is cut to the terminal's width: a line that wrapped would be
        // redrawn one row too low each time.
        let style = ProgressStyle::with_template("{bar:20} {pos}/{len} graded · {wide_msg}")
            .expect("a valid progress template");
        let bar = ProgressBar::new(total as u64).with_style(style);
        let (shown, tally) = (bar.clone(), Arc::clone(&progress.tally));
        progress.ticker = Some(std::thread::spawn(move || {
            while !shown.is_finished() {
                let status = parallel::lock(&tally).status(total, jobs, Instant::now());
                shown.set_message(status);
                std::thread::park_timeout(REDRAW);
            }
        }));
        progress.bar = Some(bar);
        progress
    }

    /// The bar's text now, for an event the ticker would only show later.
    fn redraw(&self) {
        if let Some(bar) = &self.bar {
            let status = parallel::lock(&self.tally).status(self.total, self.jobs, Instant::now());
            bar.set_message(status);
        }
    }

    /// `name` starts being graded; returns when.
    fn begin(&self, name: &str) -> Instant {
        let now = Instant::now();
        parallel::lock(&self.tally)
            .running
            .push((name.to_string(), now));
        match &self.bar {
            Some(_) => self.redraw(),
            None => eprintln!("grading {}", style::one_line(name)),
        }
        now
    }

    fn end(&self, name: &str, started: Instant) {
        let now = Instant::now();
        let elapsed = now - started;
        let line = {
            let mut tally = parallel::lock(&self.tally);
            tally.running.retain(|(running, _)| running != name);
            tally.finished += 1;
            tally.spent += elapsed;
            let left = match tally.finished == self.total {
                true => String::new(),
                false => format!(", {}", tally.estimate(self.total, self.jobs, now)),
            };
            format!(
                "graded {} in {}: {}/{} done{left}",
                style::one_line(name),
                seconds(elapsed),
                tally.finished,
                self.total
            )
        };
        match &self.bar {
            Some(bar) => {
                bar.inc(1);
                self.redraw();
            }
            None => eprintln!("{line}"),
        }
    }

    fn finish(self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        if let Some(ticker) = self.ticker {
            ticker.thread().unpark();
            let _ = ticker.join();
        }
    }
}

impl Tally {
    fn estimate_of(&self, total: usize, jobs: usize, now: Instant) -> Estimate {
        let Some(average) = self.spent.checked_div(self.finished as u32) else {
            return Estimate::Estimating;
        };
        let waiting = total.saturating_sub(self.finished + self.running.len());
        let mut overdue = false;
        let mut work = average * waiting as u32;
        for (_, started) in &self.running {
            let elapsed = now - *started;
            overdue |= elapsed > average;
            work += average.saturating_sub(elapsed);
        }
        let workers = jobs.min(self.running.len() + waiting).max(1);
        let left = work / workers as u32;
        match overdue {
            true => Estimate::AtLeast { left, average },
            false => Estimate::About(left),
        }
    }

    /// `about 12 s left`, as a phrase.
    fn estimate(&self, total: usize, jobs: usize, now: Instant) -> String {
        match self.estimate_of(total, jobs, now) {
            Estimate::Estimating => "estimating the time left".to_string(),
            Estimate::About(left) => format!("about {} left", seconds(left)),
            Estimate::AtLeast { left, .. } if left >= Duration::from_secs(1) => {
                format!("at least {} left", seconds(left))
            }
            Estimate::AtLeast { average, .. } => format!(
                "time left unknown: longer than the {} a submission took on average",
                seconds(average)
            ),
        }
    }

    /// `grading dave 35 s, erin 2.1 s · about 4 s left`: the bar's text.
    fn status(&self, total: usize, jobs: usize, now: Instant) -> String {
        let mut running: Vec<String> = self
            .running
            .iter()
            .take(NAMES_SHOWN)
            .map(|(name, started)| format!("{} {}", style::one_line(name), seconds(now - *started)))
            .collect();
        if self.running.len() > NAMES_SHOWN {
            running.push(format!("{} more", self.running.len() - NAMES_SHOWN));
        }
        let estimate = self.estimate(total, jobs, now);
        match running.is_empty() {
            true => estimate,
            false => format!("grading {} · {estimate}", running.join(", ")),
        }
    }
}

/// `0.4 s`, `35 s`, `2 min 05 s`.
fn seconds(duration: Duration) -> String {
    let secs = duration.as_secs_f64();
    if secs < 10.0 {
        format!("{secs:.1} s")
    } else if secs < 120.0 {
        format!("{} s", secs.round() as u64)
    } else {
        let whole = secs.round() as u64;
        format!("{} min {:02} s", whole / 60, whole % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(finished: &[u64], running: &[u64], now: Instant) -> Tally {
        Tally {
            running: running
                .iter()
                .enumerate()
                .map(|(index, secs)| (format!("s{index}"), now - Duration::from_secs(*secs)))
                .collect(),
            finished: finished.len(),
            spent: finished.iter().map(|secs| Duration::from_secs(*secs)).sum(),
        }
    }

    #[test]
    fn nothing_is_promised_before_a_submission_is_graded() {
        let now = Instant::now();
        let tally = tally(&[], &[30], now);
        assert_eq!(tally.estimate_of(5, 1, now), Estimate::Estimating);
        assert_eq!(
            tally.status(5, 1, now),
            "grading s0 30 s · estimating the time left"
        );
    }

    #[test]
    fn the_rest_takes_the_average_shared_among_the_workers() {
        let now = Instant::now();
        // Two graded in 4 s each; one running for 1 s, two waiting; two at a time.
        let tally = tally(&[4, 4], &[1], now);
        assert_eq!(
            tally.estimate_of(5, 2, now),
            Estimate::About(Duration::from_millis(5500))
        );
        assert_eq!(tally.estimate(5, 2, now), "about 5.5 s left");
    }

    #[test]
    fn a_submission_past_the_average_is_not_called_nearly_done() {
        let now = Instant::now();
        // Four graded in 1 s each; the fifth has run 40 s: the old `1s left`.
        let tally = tally(&[1, 1, 1, 1], &[40], now);
        assert_eq!(
            tally.estimate(5, 1, now),
            "time left unknown: longer than the 1.0 s a submission took on average"
        );
        assert!(tally.status(5, 1, now).starts_with("grading s0 40 s · "));
        // With others still waiting, their share is a lower bound.
        let tally = self::tally(&[2, 2], &[40], now);
        assert_eq!(tally.estimate(5, 1, now), "at least 4.0 s left");
    }

    #[test]
    fn durations_read_at_a_glance() {
        assert_eq!(seconds(Duration::from_millis(420)), "0.4 s");
        assert_eq!(seconds(Duration::from_millis(35_400)), "35 s");
        assert_eq!(seconds(Duration::from_secs(125)), "2 min 05 s");
    }
}
