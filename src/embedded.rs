//! The original skeletons, compiled into the binary so `reset` works even after a file
//! was deleted or mangled.

use std::path::Path;

const SKELETONS: &[(&str, &str)] = &[
    (
        "exercises/print_board.c",
        include_str!("../exercises/print_board.c"),
    ),
    (
        "exercises/check_win.c",
        include_str!("../exercises/check_win.c"),
    ),
    ("exercises/gomoku.c", include_str!("../exercises/gomoku.c")),
];

/// The original content of the exercise file at `path` (relative to the course root).
pub fn skeleton(path: &Path) -> Option<&'static str> {
    SKELETONS
        .iter()
        .find(|(known, _)| Path::new(known) == path)
        .map(|(_, text)| *text)
}
