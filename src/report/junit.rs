//! JUnit XML: one testsuite per exercise (its chapter and whether it counts, properties),
//! one testcase per case; a failing case carries its verdict as the failure type, the
//! student message as the failure message, and in the failure's body what the human report
//! shows below it: the hint that fits, and for a public case its input and the diff. A
//! hidden case's body is its hint alone.
//!
//! JUnit knows no practice: a failure is a failure to every consumer (Jenkins marks the
//! build unstable, GitLab's and GitHub's test reports fail their check), though the run
//! passed. A case of practice that does not count and fails is `skipped` instead, the
//! element they all read as "not part of the result", its message saying it failed and how;
//! so is a bonus case that fails (`bonus = true`: its points count, its failure does not).
//! Under `--hidden-feedback total`, a suite's property `hidden_cases_passed` (`7/9`) is all
//! it says of its hidden cases.
//! Text from a program or the compiler arrives escaped (`style::visible`): XML 1.0
//! forbids most control characters, even written as character references.

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use crate::grade::passing::{Counting, Passing};
use crate::grade::results::ExerciseResult;
use crate::report::{bonus_missed, case_message, case_time, diagnostics, failure_details};
use crate::util::i18n::Lang;
use crate::verdict::{Status, Verdict};

pub fn render(results: &[ExerciseResult], counting: Counting, lang: Lang) -> String {
    let mut report = Report::new("clings");
    let outcome = Passing::of(results, counting);
    for result in results {
        let counts = outcome.counts(&result.chapter);
        let mut suite = TestSuite::new(result.name.as_str());
        suite.add_property(("chapter", result.chapter.name.as_str()));
        suite.add_property(("counted", if counts { "true" } else { "false" }));
        if let Some(total) = result.hidden_total {
            let passed = format!("{}/{}", total.passed, total.cases);
            suite.add_property(("hidden_cases_passed", passed.as_str()));
        }
        if result.status == Status::CompileError {
            suite.set_system_out(diagnostics::plain(&result.diagnostics));
        }
        for case in &result.cases {
            let verdict = case.finding.verdict();
            let status = if verdict == Verdict::Passed {
                TestCaseStatus::success()
            } else {
                let (mut status, practice) = match (counts, case.case.bonus()) {
                    (true, false) => (TestCaseStatus::non_success(NonSuccessKind::Failure), ""),
                    (true, true) => (TestCaseStatus::skipped(), bonus_missed(lang)),
                    (false, _) => (
                        TestCaseStatus::skipped(),
                        lang.pick("practice, not counted: ", "练习，不计入结果："),
                    ),
                };
                // A case that never ran carries the reason: the exercise's compile error.
                let verdict_word = match result.status {
                    Status::CompileError => result.status.as_str(),
                    _ => verdict.as_str(),
                };
                status
                    .set_type(verdict_word)
                    .set_message(format!("{practice}{}", case_message(case, lang)));
                let body = failure_details(case, lang);
                if !body.is_empty() {
                    status.set_description(body.trim_end());
                }
                status
            };
            let mut test_case = TestCase::new(case.case.name.as_str(), status);
            test_case.set_classname(result.name.as_str());
            if let Some(time) = case_time(case) {
                test_case.set_time(time);
            }
            suite.add_test_case(test_case);
        }
        report.add_test_suite(suite);
    }
    report.to_string().expect("a JUnit report serialises")
}
