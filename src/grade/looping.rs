//! When an exercise's program loops, how many of its cases are still run. A loop costs each
//! case its whole time limit, so a program that loops on every case would keep a student
//! waiting for all of them. The rule is stated in docs/student-guide.md so that a student can
//! predict it:
//!
//! - for a student (`run`, `test`, watch mode), once two cases have run out of time the
//!   program has shown that it loops: the cases not yet started are not run (`not_run`),
//!   and the report names the first case that timed out, the one to fix first;
//! - in CI (`--submission`, `grade`), every case gets its chance until the cases that ran
//!   out of time have used 10 s together; a program that loops on a few cases only still
//!   earns the points of the others;
//! - for a mutant (`dev mutants`), the first case it fails is enough: the cases not yet
//!   started are not run.

use std::sync::Mutex;
use std::time::Duration;

use crate::verdict::{Finding, Verdict};

/// Timeouts after which a student's grading stops.
const STUDENT_TIMEOUTS: usize = 2;
/// The wall time the cases that time out may use together in CI.
const CI_BUDGET: Duration = Duration::from_secs(10);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopRule {
    /// A student waits for the result: stop after this many timeouts.
    Student,
    /// CI grades: stop once timeouts have used this much wall time together.
    Ci,
    /// A mutant is graded: one failing case kills it.
    FirstFailure,
}

/// What one grading has seen of timeouts so far, shared by the threads that run its cases.
pub struct LoopWatch {
    rule: LoopRule,
    seen: Mutex<Seen>,
}

#[derive(Default)]
struct Seen {
    timeouts: usize,
    failures: usize,
    spent: Duration,
}

impl LoopWatch {
    pub fn new(rule: LoopRule) -> LoopWatch {
        LoopWatch {
            rule,
            seen: Mutex::new(Seen::default()),
        }
    }

    /// The finding of a case not run because the program loops, once the rule says so.
    pub fn skip(&self) -> Option<Finding> {
        let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let stop = match self.rule {
            LoopRule::Student => seen.timeouts >= STUDENT_TIMEOUTS,
            LoopRule::Ci => seen.spent >= CI_BUDGET,
            LoopRule::FirstFailure => seen.failures > 0,
        };
        stop.then_some(Finding::Skipped)
    }

    /// Counts what a case found, and whether it failed the exercise.
    pub fn record(&self, finding: &Finding, elapsed: Duration, failed: bool) {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        if finding.verdict() == Verdict::Timeout {
            seen.timeouts += 1;
            seen.spent += elapsed;
        }
        if failed {
            seen.failures += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mutant_s_grading_stops_at_its_first_failure_and_a_student_s_does_not() {
        let failed = Finding::Crashed { signal: 11 };
        for (rule, stops) in [(LoopRule::FirstFailure, true), (LoopRule::Student, false)] {
            let watch = LoopWatch::new(rule);
            watch.record(&Finding::Passed, Duration::from_millis(5), false);
            assert_eq!(watch.skip(), None);
            watch.record(&failed, Duration::from_millis(5), true);
            assert_eq!(watch.skip().is_some(), stops, "{rule:?}");
        }
    }
}
