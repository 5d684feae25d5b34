//! Terminal styling: whether to colour at all, and removing colour from text that has it.

use std::io::IsTerminal;

use clap::ValueEnum;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when stdout is a terminal (or CLICOLOR_FORCE is set) and NO_COLOR is not set.
    #[default]
    Auto,
    Always,
    Never,
}

/// Decides once, for the whole process, whether output is coloured.
pub fn init(choice: ColorChoice) -> bool {
    let enabled = match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            let set = |var| std::env::var_os(var).is_some_and(|value| !value.is_empty());
            (std::io::stdout().is_terminal() || set("CLICOLOR_FORCE")) && !set("NO_COLOR")
        }
    };
    colored::control::set_override(enabled);
    enabled
}

pub fn enabled() -> bool {
    colored::control::SHOULD_COLORIZE.should_colorize()
}

/// Removes ANSI escape sequences (the compiler's colours) for plain output.
pub fn strip_ansi(text: &str) -> String {
    let mut plain = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            if chars.next() == Some('[') {
                // A CSI sequence ends at its first byte in '@'..='~'.
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
        } else {
            plain.push(c);
        }
    }
    plain
}

/// Text as the user should see it: with its colour codes only when colour is on.
pub fn terminal_text(text: &str) -> String {
    if enabled() {
        text.to_string()
    } else {
        strip_ansi(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_colour_codes() {
        let coloured = "\x1b[01m\x1b[Kx.c:3:5:\x1b[m\x1b[K \x1b[01;31merror:\x1b[m oops";
        assert_eq!(strip_ansi(coloured), "x.c:3:5: error: oops");
    }
}
