//! What the README documents, read from the README itself and held against what the real
//! binary does, so that the two cannot drift apart: the keys of the JSON results, and the
//! words of the verdict table. (tests/PROMISES.md maps every other promise to its test.)

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::*;

fn readme() -> String {
    std::fs::read_to_string(repo().join("README.md")).expect("README.md")
}

/// The fenced block that follows the heading `heading` in the README.
fn block_after(readme: &str, heading: &str) -> String {
    let section = &readme[readme.find(heading).unwrap_or_else(|| panic!("{heading}"))..];
    let start = section.find("```").expect("a fenced block") + 3;
    let body = &section[start..];
    let body = &body[body.find('\n').expect("the fence's line") + 1..];
    body[..body.find("```").expect("the closing fence")].to_string()
}

/// The README's JSON schema, which names keys without values (`{ "name", "source", ... }`):
/// the keys of each kind of object, by the path of keys that leads to it ("" the document,
/// "exercises" an exercise, "exercises.cases" a case, "chapters" a chapter), and the
/// quoted values it gives (`"schema": "clings-results/1"`).
struct Schema {
    keys: BTreeMap<String, BTreeSet<String>>,
    values: BTreeMap<String, String>,
}

fn documented_schema() -> Schema {
    let block = block_after(&readme(), "### JSON results");
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
                paths.pop().expect("balanced braces in the README's schema");
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
        "unbalanced braces in the README's schema:\n{block}"
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
    let verdict_words: BTreeSet<String> = documented_verdicts().into_iter().collect();
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
            .args(["--fixtures", "../hidden"])
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

/// The first column of the README's verdict table.
fn documented_verdicts() -> Vec<String> {
    let readme = readme();
    let section = &readme[readme.find("### Verdicts").expect("the verdict table")..];
    let verdicts: Vec<String> = section
        .lines()
        .skip(1)
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .filter_map(|line| {
            let cell = line.split('|').nth(1)?.trim();
            Some(cell.strip_prefix('`')?.strip_suffix('`')?.to_string())
        })
        .collect();
    assert!(verdicts.len() >= 10, "{verdicts:?}");
    verdicts
}

/// Every verdict of the README's table is what some real program gets, and no program
/// gets a verdict the table does not name: one course holds every program of
/// `tests/programs`, the hostile suite's memory hog and an exercise whose file is missing.
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
    let documented: BTreeSet<String> = documented_verdicts().into_iter().collect();
    assert_eq!(
        given, documented,
        "given by the programs vs. the README's table"
    );
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
