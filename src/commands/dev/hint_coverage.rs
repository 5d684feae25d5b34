//! Which hints of an exercise its known-wrong programs are shown, for `dev check --explain`:
//! a hint that none is shown on any case it fails has no program behind it, so nothing shows
//! that it fires for the mistake it names, or at all (a rule shadowed by an earlier one, a
//! key that no output meets).

use crate::course::Exercise;
use crate::grade::results::ExerciseResult;
use crate::util::i18n::{Lang, Text};
use crate::util::style;

/// Characters of a hint's text that name it in the report.
const SHOWN: usize = 50;

/// The hints shown to the known-wrong programs of one exercise.
#[derive(Default)]
pub struct HintCoverage {
    shown: Vec<Text>,
}

impl HintCoverage {
    /// Counts the hints shown on each case that `result` (a known-wrong program's, graded
    /// on every case) fails.
    pub fn add(&mut self, result: &ExerciseResult) {
        for case in result.cases.iter().filter(|case| case.failed()) {
            if let Some(hint) = case.hint()
                && !self.shown.contains(hint)
            {
                self.shown.push(hint.clone());
            }
        }
    }

    /// Ends the exercise's `lines` with its hints never shown, or that there are none;
    /// `result` is one graded on every case, whose cases hold their hints.
    pub fn report(&self, exercise: &Exercise, result: &ExerciseResult, lines: &mut Vec<String>) {
        let hints = every_hint(exercise, result);
        let never: Vec<&(String, &Text)> = hints
            .iter()
            .filter(|(_, text)| !self.shown.contains(text))
            .collect();
        if never.is_empty() {
            lines.push(format!(
                "  hints: the known-wrong programs are shown every one of the {}",
                hints.len()
            ));
            return;
        }
        lines.push(format!(
            "  hints no known-wrong program is shown ({} of {}): write the program of the \
             mistake each names, or take it out",
            never.len(),
            hints.len()
        ));
        for (which, text) in never {
            let start: String = text.get(Lang::En).chars().take(SHOWN).collect();
            lines.push(format!("    {which} \"{}…\"", style::one_line(&start)));
        }
    }
}

/// Every hint of `exercise` and where it is written, the cases' as `result` (graded on every
/// case) has them: each mistake, each rule of `[[exercises.failure_hints]]`, and each case's
/// `[[hints]]` rules and `hint`.
fn every_hint<'a>(exercise: &'a Exercise, result: &'a ExerciseResult) -> Vec<(String, &'a Text)> {
    let mut hints: Vec<(String, &Text)> = exercise
        .mistakes
        .iter()
        .map(|mistake| (format!("mistake {}", mistake.name), &mistake.text))
        .collect();
    for (index, rule) in exercise.failure_hints.iter().enumerate() {
        hints.push((format!("failure hint {}", index + 1), &rule.text));
    }
    for case in &result.cases {
        let name = style::one_line(&case.case.name);
        let config = &case.case.config;
        // The grader puts the exercise's failure hints after the case's own rules.
        let own = config
            .hints
            .len()
            .saturating_sub(exercise.failure_hints.len());
        for (index, rule) in config.hints[..own].iter().enumerate() {
            hints.push((format!("{name} [[hints]] rule {}", index + 1), &rule.text));
        }
        if let Some(hint) = &config.hint {
            hints.push((format!("{name} hint"), hint));
        }
    }
    hints
}
