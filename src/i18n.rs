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

#[cfg(test)]
mod tests {
    use super::*;

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
