//! Which key does what. The same key means different things on the exercise screen,
//! in the list and at the reset question, so the mapping depends on the [`Keymap`].

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keymap {
    Exercise,
    List,
    /// The y/n question before a reset.
    Confirm,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Next,
    Hint,
    List,
    Run,
    CheckAll,
    Reset,
    Quit,
    /// Ctrl-C: quit, ending as a program stopped by Ctrl-C does.
    Interrupt,
    Up,
    Down,
    Top,
    Bottom,
    Open,
    Back,
    Yes,
    No,
    /// A letter that means nothing here: the screen says so.
    Unknown(char),
    /// Anything else (a function key, a lone modifier): nothing happens.
    Ignore,
}

pub fn action(key: KeyEvent, keymap: Keymap) -> Action {
    let control = key.modifiers.contains(KeyModifiers::CONTROL);
    // Raw mode delivers Ctrl-C and Ctrl-D as keys; they quit wherever the student is,
    // Ctrl-C as an interruption (exit 130, as a shell's Ctrl-C).
    if control && key.code == KeyCode::Char('c') {
        return Action::Interrupt;
    }
    if control && key.code == KeyCode::Char('d') {
        return Action::Quit;
    }
    if control || key.modifiers.contains(KeyModifiers::ALT) {
        return Action::Ignore;
    }
    match keymap {
        Keymap::Exercise => match key.code {
            KeyCode::Char('n') => Action::Next,
            KeyCode::Char('h') => Action::Hint,
            KeyCode::Char('l') => Action::List,
            KeyCode::Char('r') => Action::Run,
            KeyCode::Char('c') => Action::CheckAll,
            KeyCode::Char('x') => Action::Reset,
            KeyCode::Char('q') => Action::Quit,
            KeyCode::Char(other) => Action::Unknown(other),
            _ => Action::Ignore,
        },
        Keymap::List => match key.code {
            KeyCode::Up | KeyCode::Char('k') => Action::Up,
            KeyCode::Down | KeyCode::Char('j') => Action::Down,
            KeyCode::Home | KeyCode::Char('g') => Action::Top,
            KeyCode::End | KeyCode::Char('G') => Action::Bottom,
            KeyCode::Enter => Action::Open,
            KeyCode::Esc | KeyCode::Char('l' | 'q') => Action::Back,
            KeyCode::Char(other) => Action::Unknown(other),
            _ => Action::Ignore,
        },
        // Only an explicit yes resets: any other key keeps the student's work.
        Keymap::Confirm => match key.code {
            KeyCode::Char('y' | 'Y') => Action::Yes,
            _ => Action::No,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    #[test]
    fn ctrl_c_quits_everywhere_and_plain_c_checks() {
        for keymap in [Keymap::Exercise, Keymap::List, Keymap::Confirm] {
            let ctrl_c = key(KeyCode::Char('c'), KeyModifiers::CONTROL);
            assert_eq!(action(ctrl_c, keymap), Action::Interrupt);
            let ctrl_d = key(KeyCode::Char('d'), KeyModifiers::CONTROL);
            assert_eq!(action(ctrl_d, keymap), Action::Quit);
        }
        let c = key(KeyCode::Char('c'), KeyModifiers::NONE);
        assert_eq!(action(c, Keymap::Exercise), Action::CheckAll);
        // A letter with Ctrl or Alt is another key (a terminal shortcut): nothing happens.
        for modifier in [KeyModifiers::CONTROL, KeyModifiers::ALT] {
            assert_eq!(
                action(key(KeyCode::Char('n'), modifier), Keymap::Exercise),
                Action::Ignore
            );
        }
    }

    #[test]
    fn only_y_confirms_a_reset() {
        let answer = |code| action(key(code, KeyModifiers::NONE), Keymap::Confirm);
        assert_eq!(answer(KeyCode::Char('y')), Action::Yes);
        assert_eq!(answer(KeyCode::Char('n')), Action::No);
        assert_eq!(answer(KeyCode::Enter), Action::No);
        assert_eq!(answer(KeyCode::Char('x')), Action::No);
    }

    /// README, "Watch mode keys": the keys of its table, on the screen each is for.
    #[test]
    fn the_keys_are_the_documented_ones() {
        let on = |keymap, code| action(key(code, KeyModifiers::NONE), keymap);
        for (letter, wanted) in [
            ('n', Action::Next),
            ('h', Action::Hint),
            ('l', Action::List),
            ('r', Action::Run),
            ('c', Action::CheckAll),
            ('x', Action::Reset),
            ('q', Action::Quit),
        ] {
            assert_eq!(on(Keymap::Exercise, KeyCode::Char(letter)), wanted);
        }
        for (code, wanted) in [
            (KeyCode::Up, Action::Up),
            (KeyCode::Char('k'), Action::Up),
            (KeyCode::Down, Action::Down),
            (KeyCode::Char('j'), Action::Down),
            (KeyCode::Enter, Action::Open),
            (KeyCode::Esc, Action::Back),
        ] {
            assert_eq!(on(Keymap::List, code), wanted, "{code:?}");
        }
    }

    #[test]
    fn q_leaves_the_list_but_quits_the_exercise_screen() {
        let q = key(KeyCode::Char('q'), KeyModifiers::NONE);
        assert_eq!(action(q, Keymap::List), Action::Back);
        assert_eq!(action(q, Keymap::Exercise), Action::Quit);
    }
}
