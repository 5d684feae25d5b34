//! What programs see of the machine's files in every tier that isolates: the system's
//! directories that hold programs, headers and libraries, read-only, and nothing else.

use std::path::Path;

/// Directories a dynamically linked program (and its sanitizer runtime) and the compiler
/// need: the parts of /usr that hold programs, headers and libraries, not the rest of
/// /usr/local or /usr/share, where a course, its hidden cases or a package's data may be. On a
/// merged-/usr system all but those in /usr are symbolic links, recreated as such; Debian's
/// alternatives (`cc`, `c99`) are symbolic links to programs in /usr. Every tier shows
/// programs these and nothing else of the machine's files (see [`refuse_if_visible_to_programs`]).
pub const SYSTEM_DIRS: [&str; 14] = [
    "/usr/bin",
    "/usr/include",
    // gcc looks here for headers first; a library built from source puts its own here.
    "/usr/local/include",
    "/usr/lib",
    "/usr/lib32",
    "/usr/lib64",
    "/usr/libx32",
    "/usr/libexec",
    "/bin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc/alternatives",
];

/// Whether `path` is in one of the system's directories, which every sandbox shows at the
/// same place (a compile's headers, an installed compiler).
pub fn is_system_path(path: &Path) -> bool {
    SYSTEM_DIRS.iter().any(|dir| path.starts_with(dir))
}

/// Refuses `path` (`what` it is: the hidden cases, the course) where every program graded
/// could read it: in one of the system directories the sandbox shows them (after the
/// symbolic links on its way).
pub fn refuse_if_visible_to_programs(path: &Path, what: &str) -> anyhow::Result<()> {
    let Ok(real) = std::fs::canonicalize(path) else {
        return Ok(());
    };
    let shown = SYSTEM_DIRS.iter().find(|dir| {
        let dir = Path::new(dir);
        real.starts_with(dir) || std::fs::canonicalize(dir).is_ok_and(|dir| real.starts_with(dir))
    });
    match shown {
        Some(dir) => anyhow::bail!(
            "{what} at {} would be readable by every program graded: programs see {dir}, \
             one of the system's directories that hold the compiler and the C libraries; \
             move {what} outside them (to /srv or a home folder, say; /usr/local and \
             /usr/share are not shown)",
            path.display()
        ),
        None => Ok(()),
    }
}
