//! The language of student-facing text, and texts that exist in both languages.

use serde::Deserialize;

/// The lesson is taught in Chinese; clings speaks Chinese or English.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    /// `--lang` wins; otherwise the locale variables, as a C program would read them.
    pub fn detect(flag: Option<Lang>) -> Lang {
        flag.unwrap_or_else(|| {
            ["LC_ALL", "LC_MESSAGES", "LANG"]
                .iter()
                .filter_map(|var| std::env::var(var).ok())
                .find(|value| !value.is_empty())
                .map_or(Lang::En, |value| {
                    if value.starts_with("zh") {
                        Lang::Zh
                    } else {
                        Lang::En
                    }
                })
        })
    }

    /// Picks the sentence for this language; both are written out at the call site so a
    /// reader sees the translation next to the original.
    pub fn pick<T>(self, en: T, zh: T) -> T {
        match self {
            Lang::En => en,
            Lang::Zh => zh,
        }
    }
}

/// `1 case`, `2 cases`, `0 cases`: a count and its noun in English, which agree in
/// number (Chinese nouns do not change).
pub fn count(n: usize, one: &str, many: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}

/// A course text (title, hint, description): one string, or one per language.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum Text {
    Plain(String),
    Localized {
        en: String,
        #[serde(default)]
        zh: Option<String>,
    },
}

impl Text {
    /// The text in `lang`, falling back to English where no translation exists.
    pub fn get(&self, lang: Lang) -> &str {
        match self {
            Text::Plain(text) => text,
            Text::Localized { en, zh } => match (lang, zh) {
                (Lang::Zh, Some(zh)) => zh,
                _ => en,
            },
        }
    }
}

/// An error a student may meet, in both languages. It reads as English wherever it is
/// shown as text; `main` prints the language the student chose.
#[derive(Debug)]
pub struct Localized {
    pub en: String,
    pub zh: String,
}

impl Localized {
    pub fn new(en: impl Into<String>, zh: impl Into<String>) -> Localized {
        Localized {
            en: en.into(),
            zh: zh.into(),
        }
    }
}

impl std::fmt::Display for Localized {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.en)
    }
}

impl std::error::Error for Localized {}

/// An error and its causes, as `{:#}` prints them, with each localized part in `lang`.
pub fn error_text(err: &anyhow::Error, lang: Lang) -> String {
    err.chain()
        .map(|cause| match cause.downcast_ref::<Localized>() {
            Some(localized) => lang.pick(&localized.en, &localized.zh).clone(),
            None => cause.to_string(),
        })
        .collect::<Vec<_>>()
        .join(": ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_printed_in_the_chosen_language() {
        let err = anyhow::Error::new(Localized::new("no such exercise", "没有这个练习"))
            .context("cannot run");
        assert_eq!(error_text(&err, Lang::Zh), "cannot run: 没有这个练习");
        assert_eq!(error_text(&err, Lang::En), format!("{err:#}"));
    }

    #[test]
    fn counts_agree_with_their_noun() {
        assert_eq!(count(1, "problem", "problems"), "1 problem");
        assert_eq!(count(0, "problem", "problems"), "0 problems");
        assert_eq!(
            count(2, "expected output", "expected outputs"),
            "2 expected outputs"
        );
    }

    #[test]
    fn localized_text_falls_back_to_english() {
        let text: Text = toml::from_str::<toml::Table>("t = { en = \"hello\" }")
            .unwrap()
            .remove("t")
            .unwrap()
            .try_into()
            .unwrap();
        assert_eq!(text.get(Lang::Zh), "hello");
        let both = Text::Localized {
            en: "board".into(),
            zh: Some("棋盘".into()),
        };
        assert_eq!(both.get(Lang::Zh), "棋盘");
        assert_eq!(both.get(Lang::En), "board");
    }
}
