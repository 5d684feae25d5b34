//! Mutants built as one program (a mutant schema). Compiling a mutant costs more than the
//! run that kills it (80 ms against a few on the course's exercises), and an exercise has
//! hundreds. So every function that mutants change holds the body of each of them beside
//! its own, and which one runs is chosen as the program starts, by the number in
//! [`VARIABLE`]; without it the program is the reference. The schema is compiled once per
//! build kind, and each mutant is graded as that program with its number.
//!
//! A mutant that changes something outside a function's body (a global's initialiser, an
//! array's size, a parameter) is built alone, as is one whose body does not compile beside
//! the others: it is then graded exactly as before, a compile error making it stillborn.

use std::ops::Range;

use crate::mutants::mutate::{self, Mutant};

/// The environment variable that chooses the mutant a schema runs as: its number in the
/// list, from 1. The reference runs without it.
pub const VARIABLE: &str = "CLINGS_MUTANT";

/// What the program's functions test to know which body to run.
const CHOSEN: &str = "clings_mutant_";

/// A mutant in the schema: its index in the list, and its body of the function it changes.
type Member<'m> = (usize, &'m str);

/// The program with its mutants' bodies, and which mutants it holds.
pub struct Schema {
    pub source: String,
    /// Whether each mutant, in the list's order, is in the program.
    members: Vec<bool>,
    /// The lines of the source that hold each member's body: an error there is its own.
    bodies: Vec<(usize, Range<usize>)>,
}

impl Schema {
    /// The schema of the `candidates` (indices in the list) among `mutants` of `original`
    /// that change one function's body and nothing else.
    pub fn new(original: &str, mutants: &[Mutant], candidates: &[usize]) -> Schema {
        let functions = mutate::functions(original);
        // Each function body's range in the original, and the members changing it.
        let mut changed: Vec<(Range<usize>, Vec<Member>)> = functions
            .into_iter()
            .map(|(_, body)| (body, Vec::new()))
            .collect();
        let mut members = vec![false; mutants.len()];
        for &index in candidates {
            let mutant = &mutants[index];
            let found = changed.iter_mut().find_map(|(body, bodies)| {
                changed_body(original, &mutant.source, body).map(|text| (bodies, text))
            });
            if let Some((bodies, text)) = found {
                bodies.push((index, text));
                members[index] = true;
            }
        }
        let mut source = format!("static int {CHOSEN};\n");
        let mut bodies = Vec::new();
        let mut line = 2;
        let mut push = |source: &mut String, text: &str| {
            source.push_str(text);
            line += text.matches('\n').count();
            line
        };
        let mut copied = 0;
        for (body, members) in changed.iter().filter(|(_, members)| !members.is_empty()) {
            push(&mut source, &original[copied..body.start]);
            push(&mut source, "{\n");
            for (index, text) in members {
                let start = push(&mut source, &format!("if ({CHOSEN} == {})\n", index + 1));
                let end = push(&mut source, text);
                bodies.push((*index, start..end + 1));
                push(&mut source, "\nelse ");
            }
            push(&mut source, &original[body.clone()]);
            push(&mut source, "\n}");
            copied = body.end;
        }
        source.push_str(&original[copied..]);
        source.push_str(&format!(
            "\n#ifdef __cplusplus\n#include <cstdlib>\n#else\nchar *getenv(const char *);\n\
             int atoi(const char *);\n#endif\n\
             __attribute__((constructor)) static void {CHOSEN}from_the_environment(void)\n\
             {{\n    const char *number = getenv(\"{VARIABLE}\");\n    \
             {CHOSEN} = number ? atoi(number) : 0;\n}}\n"
        ));
        Schema {
            source,
            members,
            bodies,
        }
    }

    /// Whether mutant `index` (in the list) is in the program.
    pub fn holds(&self, index: usize) -> bool {
        self.members[index]
    }

    /// How many mutants the program holds.
    pub fn len(&self) -> usize {
        self.members.iter().filter(|&&member| member).count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The environment that runs the program as mutant `index`.
    pub fn choose(index: usize) -> (String, String) {
        (VARIABLE.to_string(), (index + 1).to_string())
    }

    /// The members whose bodies hold the errors of `diagnostics` (the compiler's, without
    /// colours): to be left out of the next schema. None when an error lies elsewhere, or
    /// there is none (the compile was stopped): the schema itself is at fault.
    pub fn members_in_error(&self, diagnostics: &str) -> Option<Vec<usize>> {
        let mut found = Vec::new();
        for line in diagnostics.lines() {
            let Some((place, _)) = line.split_once(": error:") else {
                continue;
            };
            let number: usize = place.rsplit(':').nth(1)?.parse().ok()?;
            let (index, _) = self
                .bodies
                .iter()
                .find(|(_, lines)| lines.contains(&number))?;
            if !found.contains(index) {
                found.push(*index);
            }
        }
        (!found.is_empty()).then_some(found)
    }
}

/// The body that `mutated` has in place of `body` of `original`, when it differs from
/// `original` there and nowhere else.
fn changed_body<'m>(original: &str, mutated: &'m str, body: &Range<usize>) -> Option<&'m str> {
    let after = original.len() - body.end;
    let end = mutated.len().checked_sub(after)?;
    let text = mutated.get(body.start..end)?;
    let same_around = mutated.get(..body.start)? == &original[..body.start]
        && mutated.get(end..)? == &original[body.end..];
    (same_around && text.starts_with('{') && text.ends_with('}')).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    /// A program whose every mutant ends, with no undefined behaviour to run differently
    /// in two builds: a global's initialiser, a static local, a call, a branch.
    const PROGRAM: &str = "#include <stdio.h>\n\nint limit = 3;\n\n\
        static int twice(int n)\n{\n    static int calls;\n    calls++;\n    return n * 2 + calls - calls;\n}\n\n\
        static void show(int n)\n{\n    if (n > 2)\n        printf(\"big %d\\n\", twice(n));\n    else\n        printf(\"small %d\\n\", n);\n}\n\n\
        int main(void)\n{\n    show(1);\n    show(limit);\n    show(limit + 2);\n    return 0;\n}\n";

    fn built(source: &str, dir: &std::path::Path, name: &str) -> std::path::PathBuf {
        let file = dir.join(format!("{name}.c"));
        std::fs::write(&file, source).unwrap();
        let program = dir.join(name);
        let status = Command::new("gcc")
            .args(["-std=c99", "-Wall", "-Wextra", "-o"])
            .arg(&program)
            .arg(&file)
            .status()
            .unwrap();
        assert!(status.success(), "{source}");
        program
    }

    fn output(program: &std::path::Path, env: Option<(String, String)>) -> (String, i32) {
        let mut command = Command::new(program);
        command.env_remove(VARIABLE);
        if let Some((name, value)) = env {
            command.env(name, value);
        }
        let output = command.output().unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        (stdout, output.status.code().unwrap_or(-1))
    }

    /// Each mutant in the schema, run with its number, prints what it prints built alone;
    /// without a number the schema is the reference; a change outside every body (the
    /// global's initialiser) is left out.
    #[test]
    fn the_schema_runs_as_each_of_its_mutants_and_as_the_reference() {
        let mutants = mutate::mutants(PROGRAM);
        let all: Vec<usize> = (0..mutants.len()).collect();
        let schema = Schema::new(PROGRAM, &mutants, &all);
        let dir = tempfile::tempdir().unwrap();
        let program = built(&schema.source, dir.path(), "schema");
        let reference = built(PROGRAM, dir.path(), "reference");
        assert_eq!(output(&program, None), output(&reference, None));
        let mut outside = 0;
        for (index, mutant) in mutants.iter().enumerate() {
            if !schema.holds(index) {
                assert!(mutant.function.is_none(), "{mutant} is in a function");
                outside += 1;
                continue;
            }
            let alone = built(&mutant.source, dir.path(), &format!("m{index}"));
            assert_eq!(
                output(&program, Some(Schema::choose(index))),
                output(&alone, None),
                "{mutant}"
            );
        }
        assert_eq!(outside, 2, "the initialiser's 3 made 2 and 4");
        assert_eq!(schema.len(), mutants.len() - outside);
    }

    /// An error in a member's body names that member; one outside every body names none.
    #[test]
    fn errors_are_traced_to_the_members_whose_bodies_hold_them() {
        let mutants = mutate::mutants(PROGRAM);
        let all: Vec<usize> = (0..mutants.len()).collect();
        let schema = Schema::new(PROGRAM, &mutants, &all);
        let (index, lines) = &schema.bodies[1];
        let said = format!(
            "schema.c: In function 'show':\nschema.c:{}:9: error: expected ';'\n",
            lines.start + 1
        );
        assert_eq!(schema.members_in_error(&said), Some(vec![*index]));
        assert_eq!(schema.members_in_error("schema.c:1:1: error: no"), None);
        let others: Vec<usize> = all.into_iter().filter(|other| other != index).collect();
        let without = Schema::new(PROGRAM, &mutants, &others);
        assert!(!without.holds(*index));
        assert_eq!(without.len(), schema.len() - 1);
    }
}
