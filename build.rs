//! Builds the course of this repository into the binary, for `clings init`, when clings is
//! built to be shipped: what a student's folder is made from (`COURSE`) and, apart, the
//! reference solutions handed out once earned (`SOLUTIONS`). Instructors' material
//! (known-wrong programs, the runner's tests) is never included.
//!
//! A build from a git checkout (development, `cargo test`, `cargo install --path .`) embeds
//! nothing and reads the course from the checkout when it needs it: editing a case then
//! never rebuilds clings. A build from a source package (no `.git`: an sdist, a crate) or
//! with `CLINGS_EMBED_COURSE=1` (the release workflow) embeds it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The course's own files, as the repository lays them out.
const COURSE: &[&str] = &["info.toml", "skeletons", "fixtures", "referees", "bots"];
/// The reference solutions: the files directly in `solutions/`, not its `wrong/` folder.
const SOLUTIONS: &str = "solutions";
const EMBED: &str = "CLINGS_EMBED_COURSE";

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    println!("cargo:rerun-if-env-changed={EMBED}");
    let embed = match std::env::var(EMBED) {
        Ok(value) => value == "1",
        Err(_) => !root.join(".git").exists(),
    };
    let mut course = Vec::new();
    let mut solutions = Vec::new();
    if embed {
        for entry in COURSE {
            println!("cargo:rerun-if-changed={entry}");
            collect(&root.join(entry), &mut course);
        }
        println!("cargo:rerun-if-changed={SOLUTIONS}");
        solutions = std::fs::read_dir(root.join(SOLUTIONS))
            .map(|entries| {
                entries
                    .filter_map(|entry| entry.ok().map(|entry| entry.path()))
                    .filter(|path| path.is_file())
                    .collect()
            })
            .unwrap_or_default();
        solutions.sort();
    }

    let mut code = format!("pub const EMBEDDED: bool = {embed};\n");
    table(&mut code, "COURSE", &root, &course);
    table(&mut code, "SOLUTIONS", &root, &solutions);
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    std::fs::write(out.join("builtin_course.rs"), code).expect("write builtin_course.rs");
}

/// Every file at or under `path`, sorted, so that a build is the same on every machine.
fn collect(path: &Path, files: &mut Vec<PathBuf>) {
    if path.is_file() {
        files.push(path.to_path_buf());
        return;
    }
    let Ok(entries) = std::fs::read_dir(path) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for entry in entries {
        collect(&entry, files);
    }
}

/// `pub static NAME: &[(&str, &[u8])]`: each file's path in the course, and its bytes.
fn table(code: &mut String, name: &str, root: &Path, files: &[PathBuf]) {
    writeln!(code, "pub static {name}: &[(&str, &[u8])] = &[").unwrap();
    for file in files {
        let relative = file.strip_prefix(root).expect("under the root");
        let relative = relative.to_str().expect("course file names are UTF-8");
        let absolute = file.to_str().expect("the repository's path is UTF-8");
        writeln!(code, "    ({relative:?}, include_bytes!({absolute:?})),").unwrap();
    }
    writeln!(code, "];").unwrap();
}
