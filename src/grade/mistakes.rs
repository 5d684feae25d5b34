//! Which known mistake (`[[exercises.mistakes]]`) a program's results show, and, while its
//! cases are still running, which of them can still change what the program is told first.

use crate::course::fixture::{Mistake, SHARPEST_RULE};
use crate::grade::results::CaseResult;
use crate::verdict::Finding;
use crate::verdict::compare::Divergence;

/// What the results so far say of one mistake.
#[derive(Debug, PartialEq, Eq)]
enum Showing {
    Shows,
    /// A case it names failed or passed otherwise than the mistake does, or is not there.
    Cannot,
    /// Every case that ran fits; these, which it names, have not run.
    Open(Vec<usize>),
}

/// Whether `cases` show `mistake`: it fails each of its `fails` as its verdict says (its
/// first one with its `output`, and going wrong where `expected_there`/`printed_there`
/// say) and passes each of its `passes`. `ran` says which cases ran; in a whole grading,
/// all of them (a case the loop rule skipped then shows nothing).
fn showing(mistake: &Mistake, cases: &[CaseResult], ran: &[bool]) -> Showing {
    let find = |name: &String| {
        cases
            .iter()
            .position(|case| !case.case.hidden && &case.case.name == name)
    };
    let mut open = Vec::new();
    let named = mistake
        .fails
        .iter()
        .map(|name| (name, true))
        .chain(mistake.passes.iter().map(|name| (name, false)));
    for (name, fails) in named {
        let Some(at) = find(name) else {
            return Showing::Cannot;
        };
        let fits = match fails {
            true => cases[at].fails_as(mistake.verdict),
            false => cases[at].finding == Finding::Passed,
        };
        match (ran[at], fits) {
            (false, _) => open.push(at),
            (true, false) => return Showing::Cannot,
            (true, true) => {}
        }
    }
    let first = mistake.fails.first().and_then(find);
    if first.is_none_or(|at| ran[at]) {
        let printed = mistake.output.as_ref().is_none_or(|output| {
            first.is_some_and(|at| {
                String::from_utf8_lossy(&cases[at].stdout).trim() == output.trim()
            })
        });
        let went_wrong = Divergence::goes_on_with(
            first.and_then(|at| cases[at].diverged.as_ref()),
            mistake.expected_there.as_deref(),
            mistake.printed_there.as_deref(),
        );
        if !(printed && went_wrong) {
            return Showing::Cannot;
        }
    }
    match open.is_empty() {
        true => Showing::Shows,
        false => Showing::Open(open),
    }
}

/// Gives the hint of the first of `mistakes` that `cases` show to the first failing case
/// and to each case it explains (its `fails` and `explains`) that fails as it does, ahead
/// of the case's own: a case's own hint reads one output, which rarely tells two mistakes
/// apart (no anti-diagonal and "exactly five" both answer `none` to six on an
/// anti-diagonal), while the mistake was told from the whole pattern. A failing case the
/// mistake does not explain keeps its own hint: it may show another mistake of the same
/// program.
pub(super) fn diagnose(mistakes: &[Mistake], cases: &mut [CaseResult]) {
    let ran = vec![true; cases.len()];
    let Some(mistake) = mistakes
        .iter()
        .find(|mistake| showing(mistake, cases, &ran) == Showing::Shows)
    else {
        return;
    };
    // The first case that fails the exercise, where the reports start (a public one, whose
    // diff the student sees), whatever it is.
    let first = |hidden: bool| {
        cases
            .iter()
            .position(|case| case.failed() && !case.case.bonus() && case.case.hidden == hidden)
    };
    let first = first(false).or_else(|| first(true));
    let explained = |case: &CaseResult| {
        let name = &case.case.name;
        !case.case.hidden && (mistake.fails.contains(name) || mistake.explains.contains(name))
    };
    for (at, case) in cases.iter_mut().enumerate() {
        let fails_so = case.failed() && case.finding.verdict() == mistake.verdict;
        if Some(at) == first || (explained(case) && fails_so) {
            case.mistake = Some(mistake.text.clone());
        }
    }
}

/// What is asked of a program that must fail (`dev check`'s skeletons and known-wrong
/// programs).
#[derive(Clone, Copy)]
pub enum Question {
    /// Does it fail a case that fails the exercise?
    Fails,
    /// That, and which hint a student who wrote it is shown first.
    FirstHint,
}

/// The cases still to run, in the order to run them, before what has run (`ran`, with
/// `cases` holding its results and the others' places) answers `question` as the whole
/// grading would, and the cases `also` names have run; none once it does. Bonus cases never fail an exercise, so they are not
/// run to find a failure. For the first hint ([`ExerciseResult::first_hint`]): the mistake
/// is decided once each mistake before the first that shows cannot show (the cases it
/// names come first); without one, the sharpest failure so far is the first once no case
/// left could be sharper, or as sharp and before it.
///
/// [`ExerciseResult::first_hint`]: crate::grade::results::ExerciseResult::first_hint
pub fn still_to_run(
    mistakes: &[Mistake],
    cases: &[CaseResult],
    ran: &[bool],
    question: Question,
    also: &[String],
) -> Vec<usize> {
    let unrun = |at: &usize| !ran[*at];
    let failing = (0..cases.len())
        .filter(|&at| ran[at] && cases[at].failed() && !cases[at].case.bonus())
        .min_by_key(|&at| {
            let sharpness = cases[at].hint_and_sharpness().map_or(0, |(_, sharp)| sharp);
            (std::cmp::Reverse(sharpness), at)
        });
    let fail_able: Vec<usize> = (0..cases.len())
        .filter(unrun)
        .filter(|&at| !cases[at].case.bonus())
        .collect();
    if let Question::Fails = question {
        return failing.map_or(fail_able, |_| Vec::new());
    }
    let mut first: Vec<usize> = (0..cases.len())
        .filter(unrun)
        .filter(|&at| also.contains(&cases[at].case.name))
        .collect();
    // The mistakes still open before the first that shows (none shows while one before
    // it is open), with the cases each names that have not run.
    let mut undecided: Vec<(&Mistake, Vec<usize>)> = Vec::new();
    let mut shown = false;
    for mistake in mistakes {
        match showing(mistake, cases, ran) {
            Showing::Shows => {
                shown = undecided.is_empty();
                break;
            }
            Showing::Cannot => {}
            Showing::Open(open) => undecided.push((mistake, open)),
        }
    }
    let open = !undecided.is_empty();
    for at in settling_order(&undecided, cases, ran) {
        if !first.contains(&at) {
            first.push(at);
        }
    }
    let rest: Vec<usize> = match failing {
        // What the open mistake's cases do decides what else is needed.
        _ if open => Vec::new(),
        None => fail_able,
        // The mistake's hint is the sharpest, whichever case it goes to.
        Some(_) if shown => Vec::new(),
        Some(sharpest) => {
            let sharpness = cases[sharpest]
                .hint_and_sharpness()
                .map_or(0, |(_, sharp)| sharp);
            fail_able
                .into_iter()
                .filter(|&at| at < sharpest || sharpness < SHARPEST_RULE)
                .collect()
        }
    };
    let rest: Vec<usize> = rest.into_iter().filter(|at| !first.contains(at)).collect();
    first.extend(rest);
    first
}

/// The cases the `undecided` mistakes name that have not run, in the order most likely to
/// settle them: a case settles a mistake when it fails where the mistake passes, or passes
/// where it fails (one case is enough to rule a mistake out; a program that shows it runs
/// them all). Whether a case fails is guessed from the share of the cases run so far that
/// failed (even odds before any ran): a program that fails everything is best tested on
/// the cases its mistakes pass. Each case is chosen for what the mistakes not yet likely
/// settled by the cases chosen before it gain: two slots of a round go to two mistakes
/// rather than twice to one. A slow program (a search that runs out of its time on every
/// game) then settles its first hint in fewer games; the order never changes the hint.
fn settling_order(
    undecided: &[(&Mistake, Vec<usize>)],
    cases: &[CaseResult],
    ran: &[bool],
) -> Vec<usize> {
    let run: Vec<&CaseResult> = (0..cases.len())
        .filter(|&at| ran[at] && !cases[at].case.bonus())
        .map(|at| &cases[at])
        .collect();
    let failing = match run.len() {
        0 => 0.5,
        count => run.iter().filter(|case| case.failed()).count() as f64 / count as f64,
    };
    let settles = |at: usize, mistake: &Mistake| -> f64 {
        let name = &cases[at].case.name;
        if mistake.fails.contains(name) {
            1.0 - failing
        } else if mistake.passes.contains(name) {
            failing
        } else {
            0.0
        }
    };
    let mut left: Vec<usize> = undecided
        .iter()
        .flat_map(|(_, open)| open.iter().copied())
        .collect();
    left.sort_unstable();
    left.dedup();
    // The chance that each mistake is still unsettled after the cases chosen so far (a
    // case it does not name settles nothing of it).
    let mut unsettled = vec![1.0; undecided.len()];
    let mut order = Vec::with_capacity(left.len());
    while !left.is_empty() {
        let gain = |at: usize| -> f64 {
            undecided
                .iter()
                .zip(&unsettled)
                .map(|((mistake, _), unsettled)| unsettled * settles(at, mistake))
                .sum()
        };
        // The first of the most gainful, in the cases' order.
        let mut place = 0;
        let mut most = f64::NEG_INFINITY;
        for (at, &case) in left.iter().enumerate() {
            let gain = gain(case);
            if gain > most {
                (place, most) = (at, gain);
            }
        }
        let chosen = left.remove(place);
        for ((mistake, _), unsettled) in undecided.iter().zip(&mut unsettled) {
            *unsettled *= 1.0 - settles(chosen, mistake);
        }
        order.push(chosen);
    }
    order
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::course::Chapter;
    use crate::course::fixture::{Case, CaseConfig};
    use crate::grade::results::ExerciseResult;
    use crate::util::i18n::{Lang, Text};
    use crate::verdict::Status;
    use crate::verdict::compare::CompareMode;

    /// Six cases: hints that read the output (`B`) on three of them, plain hints on the
    /// others but one, the last a bonus; the first is named by no mistake.
    fn cases() -> Vec<Case> {
        let configs = [
            "hint = \"h0\"\n[[hints]]\ntext = \"r0\"\noutput = \"B\"",
            "hint = \"h1\"",
            "hint = \"h2\"\n[[hints]]\ntext = \"r2\"\noutput = \"B\"",
            "",
            "hint = \"h4\"\n[[hints]]\ntext = \"r4\"\noutput = \"B\"",
            "hint = \"h5\"\nbonus = true",
        ];
        configs
            .iter()
            .enumerate()
            .map(|(index, config)| Case {
                name: format!("c{index}"),
                input: None,
                expected_path: PathBuf::from("x.out"),
                config: toml::from_str::<CaseConfig>(config).unwrap(),
                given: Vec::new(),
                expected_files: Vec::new(),
                hidden: false,
            })
            .collect()
    }

    fn mistakes() -> Vec<Mistake> {
        [
            "name = \"m1\"\ntext = \"m1\"\nfails = [\"c2\", \"c3\"]\npasses = [\"c1\"]",
            "name = \"m2\"\ntext = \"m2\"\nfails = [\"c4\"]\noutput = \"B\"",
        ]
        .iter()
        .map(|text| toml::from_str(text).unwrap())
        .collect()
    }

    /// Case `case` as outcome `outcome` says: passed, printed `A` or `B` wrongly, timed out.
    fn result(case: &Case, outcome: usize) -> CaseResult {
        let finding = match outcome {
            0 => Finding::Passed,
            1 | 2 => Finding::WrongOutput,
            _ => Finding::Timeout {
                clock: crate::verdict::Clock::Wall,
                limit_ms: 1000,
                input: crate::verdict::InputRead::All,
                busy: true,
            },
        };
        let mut result = CaseResult::unrun(case.clone(), finding, CompareMode::Lines);
        result.stdout = match outcome {
            1 => b"A\n".to_vec(),
            2 => b"B\n".to_vec(),
            _ => Vec::new(),
        };
        result
    }

    /// What a student is told first, and whether a case that counts failed; a program
    /// that fails none is told nothing `dev check` looks at.
    fn told(mut cases: Vec<CaseResult>) -> (Option<String>, bool) {
        diagnose(&mistakes(), &mut cases);
        let fails = cases.iter().any(|case| case.failed() && !case.case.bonus());
        let result = ExerciseResult {
            name: "e".into(),
            title: Text::Plain("e".into()),
            chapter: Chapter {
                name: "c".into(),
                title: Text::Plain("c".into()),
                graded: true,
            },
            source: PathBuf::from("e.c"),
            status: Status::Failed,
            unchanged: false,
            diagnostics: String::new(),
            cases,
            hidden_total: None,
        };
        let hint = result
            .first_hint()
            .map(|hint| hint.get(Lang::En).to_string());
        (hint.filter(|_| fails), fails)
    }

    /// Runs `full`'s cases `batch` at a time as `still_to_run` asks; what ran, and how many.
    fn run_until_settled(
        full: &[CaseResult],
        question: Question,
        also: &[String],
        batch: usize,
    ) -> (Vec<CaseResult>, usize) {
        let mut ran = vec![false; full.len()];
        let so_far = |ran: &[bool]| -> Vec<CaseResult> {
            full.iter()
                .zip(ran)
                .map(|(result, &ran)| match ran {
                    true => result.clone(),
                    false => CaseResult::unrun(result.case.clone(), Finding::Skipped, result.mode),
                })
                .collect()
        };
        loop {
            let next = still_to_run(&mistakes(), &so_far(&ran), &ran, question, also);
            let chosen: Vec<usize> = next
                .into_iter()
                .filter(|&at| !ran[at])
                .take(batch)
                .collect();
            if chosen.is_empty() {
                let runs = ran.iter().filter(|&&ran| ran).count();
                return (so_far(&ran), runs);
            }
            for at in chosen {
                ran[at] = true;
            }
        }
    }

    /// Every way the six cases can come out: the cases run until `still_to_run` stops tell
    /// the student what all of them would, and fewer are run.
    #[test]
    fn the_cases_left_unrun_never_change_what_a_wrong_program_is_told() {
        let cases = cases();
        let (mut runs, mut all) = (0, 0);
        for outcomes in 0..4usize.pow(cases.len() as u32) {
            let full: Vec<CaseResult> = cases
                .iter()
                .enumerate()
                .map(|(index, case)| result(case, outcomes / 4usize.pow(index as u32) % 4))
                .collect();
            let (hint, fails) = told(full.clone());
            for batch in [1, 2] {
                for also in [Vec::new(), vec!["c5".to_string()]] {
                    let (partial, ran) =
                        run_until_settled(&full, Question::FirstHint, &also, batch);
                    let what = format!("outcomes {outcomes}, batch {batch}, also {also:?}");
                    assert_eq!(told(partial.clone()), (hint.clone(), fails), "{what}");
                    assert!(
                        also.iter().all(|name| partial.iter().any(
                            |case| &case.case.name == name && case.finding != Finding::Skipped
                        )),
                        "{what}"
                    );
                    runs += ran;
                    all += full.len();
                }
                let (partial, _) = run_until_settled(&full, Question::Fails, &[], batch);
                assert_eq!(told(partial).1, fails, "outcomes {outcomes}, batch {batch}");
            }
        }
        assert!(runs * 10 < all * 9, "{runs} of {all} runs");
    }

    /// Once the first mistake shows, only the cases it names have run.
    #[test]
    fn a_mistake_that_shows_settles_the_first_hint() {
        let full: Vec<CaseResult> = cases()
            .iter()
            .zip([1, 0, 1, 1, 0, 0])
            .map(|(case, outcome)| result(case, outcome))
            .collect();
        let (partial, ran) = run_until_settled(&full, Question::FirstHint, &[], 1);
        assert_eq!(ran, 3);
        assert_eq!(told(partial), (Some("m1".to_string()), true));
    }

    /// A program that fails its first case fails: nothing else runs.
    #[test]
    fn a_failure_is_enough_to_know_that_it_fails() {
        let full: Vec<CaseResult> = cases().iter().map(|case| result(case, 1)).collect();
        let (_, ran) = run_until_settled(&full, Question::Fails, &[], 1);
        assert_eq!(ran, 1);
    }
}
