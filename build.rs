//! Builds the course of this repository into the binary, for `clings init`: what a
//! student's folder is made from (`COURSE`) and, apart, the reference solutions handed out
//! once earned (`SOLUTIONS`). Instructors' material (known-wrong programs, the runner's
//! tests) is never included.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The course's own files, as the repository lays them out.
const COURSE: &[&str] = &["info.toml", "skeletons", "fixtures", "referees", "bots"];
/// The reference solutions: the files directly in `solutions/`, not its `wrong/` folder.
const SOLUTIONS: &str = "solutions";

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let mut course = Vec::new();
    for entry in COURSE {
        println!("cargo:rerun-if-changed={entry}");
        collect(&root.join(entry), &mut course);
    }
    println!("cargo:rerun-if-changed={SOLUTIONS}");
    let mut solutions: Vec<PathBuf> = std::fs::read_dir(root.join(SOLUTIONS))
        .map(|entries| {
            entries
                .filter_map(|entry| entry.ok().map(|entry| entry.path()))
                .filter(|path| path.is_file())
                .collect()
        })
        .unwrap_or_default();
    solutions.sort();

    let mut code = String::new();
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
