//! The layers of `src/` (docs/architecture.md): each folder imports only the folders of the
//! layers below it, so that a reader can follow a run from the bottom up and no change to a
//! report can reach the sandbox. Read from the code's own `crate::` paths.

use std::collections::BTreeSet;
use std::path::Path;

/// The layers, lowest first; modules on one line are siblings and may not import each
/// other. `app`, `cli` and `main` are files at `src/`'s root, the rest folders.
const LAYERS: &[&[&str]] = &[
    &["util"],
    &["sandbox"],
    &["verdict"],
    &["course"],
    &["compile", "mutants"],
    &["grade"],
    &["store", "game"],
    &["app", "report"],
    &["commands"],
    &["watch"],
    &["cli"],
    &["main"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// The module a file of `src/` belongs to: its folder, or its own name at the root.
fn module_of(relative: &Path) -> String {
    let first = relative.components().next().unwrap();
    let first = first.as_os_str().to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

/// Every `crate::NAME` a file's code (not its comments) names.
fn imports(source: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for line in source.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            found.insert(name);
        }
    }
    found
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_folder_imports_only_the_layers_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 50, "src/ was not read: {files:?}");
    let mut wrong = Vec::new();
    let mut checked = 0;
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap();
        let module = module_of(relative);
        let Some(layer) = layer_of(&module) else {
            wrong.push(format!("{}: {module} is on no layer", relative.display()));
            continue;
        };
        for target in imports(&std::fs::read_to_string(file).unwrap()) {
            if target == module {
                continue;
            }
            checked += 1;
            match layer_of(&target) {
                Some(below) if below < layer => {}
                Some(_) => wrong.push(format!(
                    "{} ({module}) imports crate::{target}, which is not below it",
                    relative.display()
                )),
                None => wrong.push(format!(
                    "{}: crate::{target} is on no layer",
                    relative.display()
                )),
            }
        }
    }
    assert!(checked > 100, "too few imports were read: {checked}");
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn an_import_running_up_is_found() {
    // The check itself: a sandbox file that named a report would be caught.
    let names = imports("use crate::report::human; // crate::commands in a comment\n");
    assert_eq!(names, BTreeSet::from(["report".to_string()]));
    assert!(layer_of("report") > layer_of("sandbox"));
}

#[test]
fn every_test_file_is_a_module_of_the_test_binary() {
    // A file of tests/integration/ that main.rs does not name would never be built or run.
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration");
    let main = std::fs::read_to_string(folder.join("main.rs")).unwrap();
    let declared: BTreeSet<&str> = main
        .lines()
        .filter_map(|line| line.strip_prefix("mod ")?.strip_suffix(';'))
        .collect();
    let mut files = BTreeSet::new();
    for entry in std::fs::read_dir(&folder).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if (path.is_dir() || path.extension().is_some_and(|ext| ext == "rs")) && name != "main" {
            files.insert(name);
        }
    }
    assert!(files.len() > 20, "{files:?}");
    let left_out: Vec<&String> = files
        .iter()
        .filter(|name| !declared.contains(name.as_str()))
        .collect();
    assert!(left_out.is_empty(), "not modules of main.rs: {left_out:?}");
}
