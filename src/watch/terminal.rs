//! The terminal while watch mode owns it: raw mode (keys arrive one at a time, unechoed)
//! and a hidden cursor, both undone when the [`Terminal`] is dropped, on a panic too.

use std::io::{Stdout, Write};
use std::sync::Once;

use anyhow::{Context, Result};
use crossterm::cursor::{Hide, MoveTo, Show};
use crossterm::terminal::{self, Clear, ClearType};
use crossterm::{execute, queue};

pub struct Terminal {
    out: Stdout,
}

impl Terminal {
    pub fn enter() -> Result<Terminal> {
        install_panic_hook();
        terminal::enable_raw_mode().context("cannot switch the terminal to raw mode")?;
        // From here on, dropping the value restores the terminal, even on an error below.
        let mut terminal = Terminal {
            out: std::io::stdout(),
        };
        execute!(terminal.out, Hide).context("cannot write to the terminal")?;
        Ok(terminal)
    }

    /// Replaces the screen with `text`. The scrollback is cleared as well, so a report
    /// taller than the window can be scrolled back to in full, without older screens
    /// piling up above it.
    pub fn draw(&mut self, text: &str) -> Result<()> {
        queue!(
            self.out,
            MoveTo(0, 0),
            Clear(ClearType::All),
            Clear(ClearType::Purge)
        )
        .context("cannot write to the terminal")?;
        // Raw mode turns off the terminal's own newline translation.
        self.out
            .write_all(text.replace('\n', "\r\n").as_bytes())
            .and_then(|()| self.out.flush())
            .context("cannot write to the terminal")
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        restore();
    }
}

/// Cooked mode and a visible cursor again; safe to call more than once.
fn restore() {
    let _ = terminal::disable_raw_mode();
    let _ = execute!(std::io::stdout(), Show);
}

/// A panic message printed in raw mode would be a staircase of text on a terminal that
/// no longer echoes: restore first, then let the usual hook print.
fn install_panic_hook() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}
