//! What the README and docs/ document, read from the documents themselves and held against
//! what the real binary does and what the source says, so that they cannot drift apart: the
//! keys of the JSON results, the words of the verdict tables, the system calls the seccomp
//! filter refuses, and the links between the documents. (tests/PROMISES.md maps every
//! other promise to its test.)

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use common::*;

/// The text of `path`, a file of the repository.
fn document(path: &str) -> String {
    std::fs::read_to_string(repo().join(path)).unwrap_or_else(|err| panic!("{path}: {err}"))
}

/// The part of `text` from the line `heading` to the next heading of its level or above.
fn section<'a>(text: &'a str, heading: &str) -> &'a str {
    let start = text
        .find(&format!("{heading}\n"))
        .unwrap_or_else(|| panic!("no heading {heading:?}"));
    let level = heading.chars().take_while(|&c| c == '#').count();
    let body = &text[start + heading.len()..];
    let end = body
        .match_indices("\n#")
        .find(|(at, _)| {
            let hashes = body[at + 1..].chars().take_while(|&c| c == '#').count();
            hashes <= level && body[at + 1 + hashes..].starts_with(' ')
        })
        .map_or(body.len(), |(at, _)| at);
    &text[start..start + heading.len() + end]
}

/// The fenced block that follows the heading `heading` in `text`.
fn block_after(text: &str, heading: &str) -> String {
    let section = &text[text.find(heading).unwrap_or_else(|| panic!("{heading}"))..];
    let start = section.find("```").expect("a fenced block") + 3;
    let body = &section[start..];
    let body = &body[body.find('\n').expect("the fence's line") + 1..];
    body[..body.find("```").expect("the closing fence")].to_string()
}

/// The JSON schema of docs/results-schema.md, which names keys without values
/// (`{ "name", "source", ... }`): the keys of each kind of object, by the path of keys that
/// leads to it ("" the document, "exercises" an exercise, "exercises.cases" a case,
/// "chapters" a chapter), and the quoted values it gives (`"schema": "clings-results/1"`).
struct Schema {
    keys: BTreeMap<String, BTreeSet<String>>,
    values: BTreeMap<String, String>,
}

fn documented_schema() -> Schema {
    let block = block_after(
        &document("docs/results-schema.md"),
        "## One grading: clings-results/1",
    );
    let mut schema = Schema {
        keys: BTreeMap::new(),
        values: BTreeMap::new(),
    };
    // A quoted text is a value after a colon, else a key; `prev` is the last character
    // seen outside quotes that is not a blank. `paths` holds the path of each object open.
    let (mut paths, mut last_key, mut prev) = (Vec::<String>::new(), String::new(), ' ');
    let mut chars = block.chars();
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                let path = match paths.last() {
                    None => String::new(),
                    Some(parent) if parent.is_empty() => last_key.clone(),
                    Some(parent) => format!("{parent}.{last_key}"),
                };
                paths.push(path);
            }
            '}' => {
                paths
                    .pop()
                    .expect("balanced braces in the documented schema");
            }
            '"' => {
                let text: String = chars.by_ref().take_while(|&c| c != '"').collect();
                if prev == ':' {
                    schema.values.insert(last_key.clone(), text);
                } else {
                    let path = paths.last().expect("a key inside an object").clone();
                    schema.keys.entry(path).or_default().insert(text.clone());
                    last_key = text;
                }
            }
            _ => {}
        }
        if !c.is_whitespace() {
            prev = c;
        }
    }
    assert!(
        paths.is_empty(),
        "unbalanced braces in the documented schema:\n{block}"
    );
    schema
}

fn keys(object: &serde_json::Value) -> BTreeSet<String> {
    object
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {object}"))
        .keys()
        .cloned()
        .collect()
}

#[test]
fn json_results_have_exactly_the_documented_keys() {
    let schema = documented_schema();
    let documented_statuses: BTreeSet<String> = schema.values["status"]
        .split('|')
        .map(String::from)
        .collect();
    let verdict_words: BTreeSet<String> = documented_verdicts("README.md", "## Verdicts")
        .into_iter()
        .collect();
    // Two gradings that between them give every status, and a hidden case.
    let root = ci_layout(
        &repo().join("tests/course"),
        &[("programs/wrong_output.c", "sum.c")],
        "sum",
    );
    let hidden = root.path().join("hidden/sum");
    std::fs::write(hidden.join("09_hidden.in"), "1 1\n").unwrap();
    std::fs::write(hidden.join("09_hidden.out"), "2\n").unwrap();
    let grade = || {
        let output = clings(&root.path().join("course"))
            .args(["test", "--format", "json", "--submission", "../submission"])
            .args(["--fixtures", "../hidden", "--hidden-feedback", "verdicts"])
            .output()
            .unwrap();
        serde_json::from_slice::<serde_json::Value>(&output.stdout)
            .unwrap_or_else(|err| panic!("not JSON ({err}): {}", stderr_of(&output)))
    };
    let failed_and_missing = grade();
    std::fs::copy(
        repo().join("tests/programs/compile_error.c"),
        root.path().join("submission/sum.c"),
    )
    .unwrap();
    std::fs::copy(
        repo().join("tests/course/solutions/hello.c"),
        root.path().join("submission/hello.c"),
    )
    .unwrap();
    let compile_error_and_passed = grade();

    let mut statuses = BTreeSet::new();
    let mut hidden_cases = 0;
    for document in [&failed_and_missing, &compile_error_and_passed] {
        assert_eq!(keys(document), schema.keys[""], "the document: {document}");
        assert_eq!(document["schema"], schema.values["schema"].as_str());
        for chapter in document["chapters"].as_array().unwrap() {
            assert_eq!(
                keys(chapter),
                schema.keys["chapters"],
                "a chapter: {chapter}"
            );
        }
        for exercise in document["exercises"].as_array().unwrap() {
            assert_eq!(
                keys(exercise),
                schema.keys["exercises"],
                "an exercise: {exercise}"
            );
            statuses.insert(exercise["status"].as_str().unwrap().to_string());
            for case in exercise["cases"].as_array().unwrap() {
                assert_eq!(keys(case), schema.keys["exercises.cases"], "a case: {case}");
                let verdict = case["verdict"].as_str().unwrap();
                assert!(verdict_words.contains(verdict), "undocumented: {case}");
                // "`time_ms` is `null` for a hidden case", and only for one.
                let hidden = case["hidden"].as_bool().unwrap();
                assert_eq!(case["time_ms"].is_null(), hidden, "{case}");
                hidden_cases += usize::from(hidden);
            }
        }
    }
    assert_eq!(statuses, documented_statuses);
    assert_eq!(hidden_cases, 2, "the hidden case, in both gradings");
}

/// The first column of the verdict table under `heading` in the document at `path`.
fn documented_verdicts(path: &str, heading: &str) -> Vec<String> {
    let text = document(path);
    let verdicts: Vec<String> = section(&text, heading)
        .lines()
        .skip(1)
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .filter_map(|line| {
            let cell = line.split('|').nth(1)?.trim();
            Some(cell.strip_prefix('`')?.strip_suffix('`')?.to_string())
        })
        .collect();
    assert!(verdicts.len() >= 10, "{path}: {verdicts:?}");
    verdicts
}

/// Every verdict of the README's table, and of the student guide's, is what some real
/// program gets, and no program gets a verdict either table does not name: one course holds
/// every program of `tests/programs`, the hostile suite's memory hog and an exercise whose
/// file is missing.
#[test]
fn every_documented_verdict_is_given_to_a_real_program() {
    let mut programs: Vec<String> = std::fs::read_dir(repo().join("tests/programs"))
        .unwrap()
        .map(|entry| format!("programs/{}", entry.unwrap().file_name().to_string_lossy()))
        .filter(|name| name.ends_with(".c"))
        .collect();
    programs.sort();
    programs.push("hostile/memory_hog.c".into());
    let names: Vec<&str> = programs.iter().map(String::as_str).collect();
    let course = program_course(
        &names,
        "time_limit_ms = 1000\noutput_limit_bytes = 4096\nmemory_mb = 64\n",
    );
    // `warning` passes; `passing` is missing.
    std::fs::remove_file(course.path().join("exercises/passing.c")).unwrap();
    let (document, code) = json_results(course.path(), &[]);
    assert_eq!(code, Some(1));
    let mut given = BTreeSet::new();
    for (index, exercise) in document["exercises"].as_array().unwrap().iter().enumerate() {
        // A compile error is the exercise's verdict: its cases are not run.
        if exercise["status"] == "compile_error" {
            given.insert("compile_error".to_string());
        }
        given.extend(verdicts(&document, index));
    }
    for (path, heading) in [
        ("README.md", "## Verdicts"),
        ("docs/student-guide.md", "## Verdicts"),
    ] {
        let documented: BTreeSet<String> = documented_verdicts(path, heading).into_iter().collect();
        assert_eq!(
            given, documented,
            "given by the programs vs. {path}'s table"
        );
    }
    assert_eq!(
        document["exercises"]
            .as_array()
            .unwrap()
            .iter()
            .find(|exercise| exercise["name"] == "passing")
            .unwrap()["status"],
        "missing"
    );
}

/// The system calls named in the first column of docs/security.md's table of what the
/// filter refuses: every lower-case word in backquotes (flags such as `F_SETLK` and
/// `AF_UNIX` are upper case).
fn documented_refused_calls() -> BTreeSet<String> {
    let text = document("docs/security.md");
    let table = section(&text, "## What the system call filter refuses, and why");
    table
        .lines()
        .filter(|line| line.starts_with("| `"))
        .flat_map(|line| {
            let first = line.split('|').nth(1).unwrap_or_default();
            first
                .split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter(|word| {
            word.starts_with(|c: char| c.is_ascii_lowercase())
                && word
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        })
        .collect()
}

/// The system calls the filter of `src/sandbox/seccomp.rs` refuses, read from its source:
/// the entries of `DENIED` (`libc::SYS_name`, or a constant of its own named after the
/// call), the calls of `RULES`, refused by an argument, and `clone3`, answered ENOSYS.
fn refused_calls_in_the_source() -> BTreeSet<String> {
    let source = document("src/sandbox/seccomp.rs");
    let list = |start: &str| -> Vec<String> {
        let from = source.find(start).unwrap_or_else(|| panic!("{start}")) + start.len();
        let body = &source[from..from + source[from..].find("];").expect("the list's end")];
        body.lines()
            .map(|line| line.split("//").next().unwrap().trim())
            .filter(|line| !line.starts_with("#["))
            .flat_map(|line| line.split(','))
            .map(str::trim)
            .filter(|entry| !entry.is_empty())
            .map(|entry| match entry.find("libc::SYS_") {
                Some(at) => entry[at + "libc::SYS_".len()..]
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .next()
                    .unwrap()
                    .to_string(),
                None => entry.to_ascii_lowercase(),
            })
            .collect()
    };
    let mut calls: BTreeSet<String> = list("const DENIED: &[libc::c_long] = &[")
        .into_iter()
        .chain(list("const RULES: [ArgRule; 5] = ["))
        .collect();
    assert!(
        source.contains("clone3: libc::SYS_clone3"),
        "the filter answers clone3"
    );
    calls.insert("clone3".into());
    assert!(calls.len() > 50, "{calls:?}");
    calls
}

/// docs/security.md lists every system call the seccomp filter refuses, and no other.
#[test]
fn the_documented_refused_calls_are_the_filter_s() {
    assert_eq!(
        documented_refused_calls(),
        refused_calls_in_the_source(),
        "docs/security.md's table vs. src/sandbox/seccomp.rs"
    );
}

/// The anchors GitHub gives the headings of a Markdown text: lower case, every character
/// but letters, digits, `-`, `_` and spaces dropped, spaces made `-`; a repeated one gets
/// `-1`, `-2`, ...
fn heading_anchors(text: &str) -> BTreeSet<String> {
    let mut anchors = BTreeSet::new();
    for line in outside_code_blocks(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if hashes == 0 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let slug: String = line[hashes..]
            .trim()
            .to_lowercase()
            .chars()
            .filter(|&c| c.is_alphanumeric() || c == '-' || c == '_' || c == ' ')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let mut anchor = slug.clone();
        let mut repeat = 0;
        while !anchors.insert(anchor.clone()) {
            repeat += 1;
            anchor = format!("{slug}-{repeat}");
        }
    }
    anchors
}

/// The lines of a Markdown text that are not in a fenced code block.
fn outside_code_blocks(text: &str) -> Vec<&str> {
    let mut fenced = false;
    text.lines()
        .filter(|line| {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced
        })
        .collect()
}

/// The targets of the links and images of a Markdown text (`[text](target)`), outside code
/// blocks and code spans (which may run from one line to the next, never past a paragraph).
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    for paragraph in outside_code_blocks(text).join("\n").split("\n\n") {
        for prose in paragraph.split('`').step_by(2) {
            let mut rest = prose;
            while let Some(at) = rest.find("](") {
                rest = &rest[at + 2..];
                let end = rest.find(')').unwrap_or(rest.len());
                targets.push(rest[..end].to_string());
                rest = &rest[end..];
            }
        }
    }
    targets
}

/// What is wrong with the relative links of the Markdown file at `path`: a file that does
/// not exist, or an `#anchor` that no heading of the Markdown file it names has. Links to
/// other sites are not followed.
fn broken_links(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let dir = path.parent().unwrap();
    let mut broken = Vec::new();
    for target in link_targets(&text) {
        if ["http://", "https://", "mailto:"]
            .iter()
            .any(|scheme| target.starts_with(scheme))
        {
            continue;
        }
        let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
        let linked: PathBuf = if file.is_empty() {
            path.to_path_buf()
        } else {
            dir.join(file)
        };
        if !linked.exists() {
            broken.push(format!("{}: {target}: no such file", path.display()));
        } else if !anchor.is_empty() {
            let headings = std::fs::read_to_string(&linked)
                .map(|text| heading_anchors(&text))
                .unwrap_or_default();
            if !headings.contains(anchor) {
                broken.push(format!("{}: {target}: no such heading", path.display()));
            }
        }
    }
    broken
}

/// Every relative link and `#anchor` of the README and of docs/ leads to a file that exists
/// and a heading it has; and the check finds a missing file and a missing heading.
#[test]
fn every_link_between_the_documents_resolves() {
    let mut documents = vec![repo().join("README.md")];
    for entry in std::fs::read_dir(repo().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|extension| extension == "md") {
            documents.push(path);
        }
    }
    assert!(documents.len() > 5, "{documents:?}");
    let mut links = 0;
    let mut broken = Vec::new();
    for document in &documents {
        links += link_targets(&std::fs::read_to_string(document).unwrap()).len();
        broken.extend(broken_links(document));
    }
    assert!(links > 50, "{links} links in {documents:?}");
    assert!(broken.is_empty(), "{}", broken.join("\n"));

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.md"), "# A\n\n## It's here: step 1\n").unwrap();
    let page = dir.path().join("b.md");
    std::fs::write(
        &page,
        "# B\n\n[good](a.md#its-here-step-1), [here](#b), [site](https://example.com),\n\
         `[code](gone.md)`, [gone](gone.md), [no heading](a.md#step-2)\n\n\
         ```\n[in a block](gone.md)\n```\n",
    )
    .unwrap();
    let found = broken_links(&page);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].ends_with("gone.md: no such file"), "{found:?}");
    assert!(
        found[1].ends_with("a.md#step-2: no such heading"),
        "{found:?}"
    );
}
