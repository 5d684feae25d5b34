//! Whether a run passes: which of its exercises count, decided here once for the exit
//! status and every report.

use crate::course::Chapter;
use crate::grade::results::ExerciseResult;
use crate::util::i18n::Lang;

/// Which exercises of a run decide whether it passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counting {
    /// Those of the chapters that count for a grade: a practice chapter (`graded = false`)
    /// is graded and reported, but a student with full marks passes whatever it says
    /// (`clings test`, with or without `--submission`; watch mode's check of everything).
    Graded,
    /// Practice too, for a student who wants it (`--count-practice`).
    WithPractice,
    /// The exercises named on the command line, whatever their chapter: they are what the
    /// user asked about (`clings test NAME...`, `clings run`).
    Named,
}

impl Counting {
    /// The word for it in the JSON results.
    pub fn as_str(self) -> &'static str {
        match self {
            Counting::Graded => "graded",
            Counting::WithPractice => "with_practice",
            Counting::Named => "named",
        }
    }
}

/// What a run comes to.
pub struct Passing<'a> {
    pub counting: Counting,
    /// Every exercise that counts passed.
    pub passed: bool,
    /// The chapters whose exercises count, in the order the results come.
    pub counted: Vec<&'a Chapter>,
    /// The practice chapters whose exercises were graded but do not count.
    pub uncounted: Vec<&'a Chapter>,
}

impl<'a> Passing<'a> {
    /// The one rule: a run passes when every exercise that counts passed. When none of
    /// the exercises graded is in a chapter that counts for a grade (a course all
    /// practice), all of them count: practice is left out beside graded work, not alone.
    pub fn of(results: &'a [ExerciseResult], counting: Counting) -> Passing<'a> {
        let any_graded = results.iter().any(|result| result.chapter.graded);
        let counts =
            |chapter: &Chapter| chapter.graded || counting != Counting::Graded || !any_graded;
        let mut outcome = Passing {
            counting,
            passed: results
                .iter()
                .all(|result| result.passed() || !counts(&result.chapter)),
            counted: Vec::new(),
            uncounted: Vec::new(),
        };
        for result in results {
            let chapter = &result.chapter;
            let list = match counts(chapter) {
                true => &mut outcome.counted,
                false => &mut outcome.uncounted,
            };
            if !list.iter().any(|known| known.name == chapter.name) {
                list.push(chapter);
            }
        }
        outcome
    }

    /// Whether the passes and failures of `chapter`'s exercises are part of the outcome.
    pub fn counts(&self, chapter: &Chapter) -> bool {
        self.counted.iter().any(|known| known.name == chapter.name)
    }

    /// The sentence that says the outcome and what it counted, for a run that graded
    /// practice exercises: without any, the summary line says it all (and so it does for a
    /// course all practice, where nothing is left out).
    pub fn sentence(&self, lang: Lang) -> Option<String> {
        let practice: Vec<&str> = (self.counted.iter().chain(&self.uncounted))
            .filter(|chapter| !chapter.graded)
            .map(|chapter| chapter.title.get(lang))
            .collect();
        if practice.is_empty() || (self.counting == Counting::Graded && self.uncounted.is_empty()) {
            return None;
        }
        let (practice_en, practice_zh) = (practice.join(", "), practice.join("、"));
        let result = match self.passed {
            true => lang.pick("passed", "通过"),
            false => lang.pick("failed", "未通过"),
        };
        Some(match self.counting {
            Counting::Graded => lang.pick(
                format!(
                    "Result: {result} (practice does not count toward it: {practice_en}; \
                     --count-practice counts it)"
                ),
                format!(
                    "结果：{result}（练习「{practice_zh}」不计入结果；加 --count-practice 则计入）"
                ),
            ),
            Counting::WithPractice => lang.pick(
                format!(
                    "Result: {result} (practice counts toward it too: {practice_en}; \
                     --count-practice)"
                ),
                format!("结果：{result}（练习「{practice_zh}」也计入结果：--count-practice）"),
            ),
            Counting::Named => lang.pick(
                format!(
                    "Result: {result} (the exercises named count, practice too: {practice_en})"
                ),
                format!("结果：{result}（指定的练习都计入结果，练习「{practice_zh}」也一样）"),
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::util::i18n::Text;
    use crate::verdict::Status;

    fn result(chapter: &str, graded: bool, passed: bool) -> ExerciseResult {
        ExerciseResult {
            name: format!("{chapter}_exercise"),
            title: Text::Plain("an exercise".into()),
            chapter: Chapter {
                name: chapter.into(),
                title: Text::Plain(chapter.to_uppercase()),
                graded,
            },
            source: PathBuf::from("x.c"),
            status: if passed {
                Status::Passed
            } else {
                Status::Failed
            },
            unchanged: false,
            diagnostics: String::new(),
            cases: Vec::new(),
            hidden_total: None,
        }
    }

    #[test]
    fn practice_is_left_out_beside_graded_work_not_alone() {
        let results = [result("core", true, true), result("extra", false, false)];
        let outcome = Passing::of(&results, Counting::Graded);
        assert!(outcome.passed);
        let names = |chapters: &[&Chapter]| -> Vec<String> {
            chapters
                .iter()
                .map(|chapter| chapter.name.clone())
                .collect()
        };
        assert_eq!(
            (names(&outcome.counted), names(&outcome.uncounted)),
            (vec!["core".to_string()], vec!["extra".to_string()])
        );
        assert!(!Passing::of(&results, Counting::WithPractice).passed);
        assert!(!Passing::of(&results, Counting::Named).passed);
        // A course all practice: nothing else could decide.
        let alone = [result("extra", false, false)];
        let outcome = Passing::of(&alone, Counting::Graded);
        assert!(!outcome.passed);
        assert_eq!(outcome.sentence(Lang::En), None, "nothing was left out");
    }
}
