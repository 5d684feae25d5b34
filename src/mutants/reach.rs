//! Which made-up inputs can tell a mutant from the reference (`clings dev mutants`). A
//! mutant runs the reference's code until it first runs the statement its change is in:
//! on an input where the reference never starts that statement, the two do the same, and
//! the input cannot tell them apart. So the reference is built once more with a probe
//! before each such statement ([`Probes`]); run on each made-up input, it says which
//! statements the input starts, and a likely equivalent mutant is tried only on the inputs
//! that start its own: most of the input search's runs are of such mutants, each on every
//! input.
//!
//! Where a change's statement is not known for sure, the probe is earlier, never later: a
//! change in a statement of a block goes before that statement, after its labels (a jump
//! to a label passes it too); a change in a branch that is not a block, in a label or over
//! two statements goes before the statement that holds them, as does one in a statement a
//! `switch` outside it jumps into; a function with a `goto`, and a block this parser
//! cannot follow, get their probe where the function starts. A change outside any
//! function (a global, a size) has no probe: every input is tried.
//!
//! The programs' texts are the same before the first byte where they differ, so their runs
//! are too until the reference starts the statement that holds that byte.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use super::mutate::{Kind, Program, tokens};

/// What the probes print on stderr as the program ends, before one digit per probe.
const MARK: &str = "\nclings-reached:";

/// The array the probes set, one byte per probe.
const REACHED: &str = "clings_reached_";

/// The reference with a probe before each statement a mutant changes.
pub struct Probes {
    /// The program, printing `MARK` and what it reached on stderr as it ends.
    pub source: String,
    /// Per mutant, the probe its change needs reached; none where every input is tried.
    sites: Vec<Option<usize>>,
    count: usize,
}

impl Probes {
    /// The probes of `original` for the mutants whose programs are `mutants`.
    pub fn new<'m>(original: &str, mutants: impl IntoIterator<Item = &'m str>) -> Probes {
        let tokens = tokens(original);
        let program = Program {
            source: original,
            tokens: &tokens,
        };
        let bodies: Vec<(usize, usize)> = program
            .functions()
            .into_iter()
            .filter_map(|(_, body)| {
                let open = tokens.iter().position(|token| token.start == body.start)?;
                Some((open, program.closing(open)?))
            })
            .collect();
        // Each mutant's probe, by the byte it goes before; the probes are numbered in the
        // source's order.
        let mut offsets: Vec<Option<usize>> = Vec::new();
        for mutant in mutants {
            let changed = changed_bytes(original, mutant);
            offsets.push(
                bodies
                    .iter()
                    .find(|(open, close)| {
                        tokens[*open].end <= changed.start && changed.end <= tokens[*close].start
                    })
                    .map(|&body| probe_offset(&program, body, &changed)),
            );
        }
        let numbers: BTreeMap<usize, usize> = offsets
            .iter()
            .flatten()
            .copied()
            .collect::<BTreeSet<usize>>()
            .into_iter()
            .enumerate()
            .map(|(number, offset)| (offset, number))
            .collect();
        let count = numbers.len();
        let mut source = format!("static unsigned char {REACHED}[{}];\n", count.max(1));
        let mut copied = 0;
        for (&offset, number) in &numbers {
            source.push_str(&original[copied..offset]);
            source.push_str(&format!("{REACHED}[{number}] = 1; "));
            copied = offset;
        }
        source.push_str(&original[copied..]);
        source.push_str(&format!(
            "\n#include <stdio.h>\n\
             __attribute__((destructor)) static void clings_report_reached_(void)\n{{\n    \
             fputs(\"{}\", stderr);\n    \
             for (unsigned i = 0; i < {count}; i++)\n        \
             fputc({REACHED}[i] ? '1' : '0', stderr);\n    \
             fputc('\\n', stderr);\n}}\n",
            MARK.replace('\n', "\\n")
        ));
        Probes {
            source,
            sites: offsets
                .iter()
                .map(|offset| offset.map(|offset| numbers[&offset]))
                .collect(),
            count,
        }
    }

    /// Whether there is a probe at all: without one, the build tells nothing.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Whether an input whose run printed `stderr` (`reached`: [`Probes::reached`] of it)
    /// can tell mutant `number` from the reference: unless it never reached the mutant's
    /// probe, it can.
    pub fn may_tell(&self, number: usize, reached: Option<&[bool]>) -> bool {
        match (self.sites[number], reached) {
            (Some(site), Some(reached)) => reached[site],
            _ => true,
        }
    }

    /// Which probes a run reached, from what it printed on stderr; none when it did not say
    /// (it crashed, or ended without running the program's end).
    pub fn reached(&self, stderr: &[u8]) -> Option<Vec<bool>> {
        let mark = MARK.as_bytes();
        let at = stderr
            .windows(mark.len())
            .rposition(|window| window == mark)?;
        let digits = stderr.get(at + mark.len()..at + mark.len() + self.count)?;
        digits
            .iter()
            .map(|digit| match digit {
                b'0' => Some(false),
                b'1' => Some(true),
                _ => None,
            })
            .collect()
    }
}

/// The bytes of `original` that `mutant` changes, without the blanks at either end: where
/// they first differ to where they last do.
fn changed_bytes(original: &str, mutant: &str) -> Range<usize> {
    let (a, b) = (original.as_bytes(), mutant.as_bytes());
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (mut start, mut end) = (prefix, a.len() - suffix);
    while start < end && a[start].is_ascii_whitespace() {
        start += 1;
    }
    while end > start && a[end - 1].is_ascii_whitespace() {
        end -= 1;
    }
    start..end
}

/// The byte a probe goes before for a change of `changed`, in the function whose body is
/// the tokens `body` (its braces): before the innermost statement of a block that holds the
/// whole change, after its labels; else where the body starts.
fn probe_offset(program: &Program, body: (usize, usize), changed: &Range<usize>) -> usize {
    let tokens = program.tokens;
    let mut offset = tokens[body.0].end;
    if (body.0..body.1).any(|index| program.is(index, "goto")) {
        return offset;
    }
    let mut block = body;
    loop {
        let Some((first, last)) = statement_holding(program, block, changed) else {
            return offset;
        };
        let start = after_labels(program, first);
        if changed.start < tokens[start].start || holds_outer_cases(program, start, last) {
            return offset;
        }
        offset = tokens[start].start;
        let inner = blocks_of(program, start)
            .into_iter()
            .filter(|&(open, close)| open <= last && close <= last)
            .find(|&(open, close)| {
                tokens[open].end <= changed.start && changed.end <= tokens[close].start
            });
        match inner {
            Some(inner) => block = inner,
            None => return offset,
        }
    }
}

/// The statement of the block between the braces `block` that holds all of `changed`: its
/// first token (its labels included) and its last; none when the change spans statements
/// or the block cannot be followed.
fn statement_holding(
    program: &Program,
    (open, close): (usize, usize),
    changed: &Range<usize>,
) -> Option<(usize, usize)> {
    let tokens = program.tokens;
    let mut first = open + 1;
    while first < close {
        let last = program.statement_end(after_labels(program, first))?;
        if last >= close {
            return None;
        }
        let (start, end) = (tokens[first].start, tokens[last].end);
        if changed.start < end {
            return (start <= changed.start && changed.end <= end).then_some((first, last));
        }
        first = last + 1;
    }
    None
}

/// Whether the statement of tokens `first..=last` holds a `case` or `default` label of a
/// `switch` outside it (Duff's device): the switch jumps into the statement, past a probe
/// before it.
fn holds_outer_cases(program: &Program, first: usize, last: usize) -> bool {
    let mut at = first;
    while at <= last {
        match program.text(at) {
            "case" | "default" => return true,
            // Its own switch's labels: past its body.
            "switch" => {
                let body = program
                    .is(at + 1, "(")
                    .then(|| program.closing(at + 1))
                    .flatten()
                    .filter(|&close| program.is(close + 1, "{"))
                    .and_then(|close| program.closing(close + 1));
                match body {
                    Some(end) => at = end,
                    None => return true,
                }
            }
            _ => {}
        }
        at += 1;
    }
    false
}

/// The first token after the labels (`case 3:`, `default:`, `again:`) at token `index`.
fn after_labels(program: &Program, mut index: usize) -> usize {
    let tokens = program.tokens;
    loop {
        if program.is(index, "case") {
            // To the `:` that ends the label, past any `?:` in its value.
            let mut questions = 0;
            let mut at = index + 1;
            while at < tokens.len() {
                match program.text(at) {
                    "?" => questions += 1,
                    ":" if questions == 0 => break,
                    ":" => questions -= 1,
                    _ => {}
                }
                at += 1;
            }
            index = at + 1;
        } else if index + 1 < tokens.len()
            && tokens[index].kind == Kind::Word
            && program.is(index + 1, ":")
        {
            index += 2;
        } else {
            return index;
        }
    }
}

/// The blocks (their braces) that are statements of the statement at token `index`
/// themselves: its own braces, an `if`'s branches, a loop's or a `switch`'s body; not the
/// braces of an initializer.
fn blocks_of(program: &Program, index: usize) -> Vec<(usize, usize)> {
    let after_parenthesis = |at: usize| {
        program
            .is(at + 1, "(")
            .then(|| program.closing(at + 1))
            .flatten()
            .map(|close| close + 1)
    };
    match program.text(index) {
        "{" => program
            .closing(index)
            .map(|close| (index, close))
            .into_iter()
            .collect(),
        "if" => {
            let Some(then) = after_parenthesis(index) else {
                return Vec::new();
            };
            let mut blocks = blocks_of(program, then);
            if let Some(last) = program.statement_end(then)
                && program.is(last + 1, "else")
            {
                blocks.extend(blocks_of(program, last + 2));
            }
            blocks
        }
        "for" | "while" | "switch" => after_parenthesis(index)
            .map(|body| blocks_of(program, body))
            .unwrap_or_default(),
        "do" => blocks_of(program, index + 1),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROGRAM: &str = "#include <stdio.h>\n\
int SIZE = 15;\n\
static int twice(int n)\n{\n    int m = n * 2;\n    return m;\n}\n\
int main(void)\n{\n    int n;\n    if (scanf(\"%d\", &n) != 1)\n        return 1;\n\
    if (n > 3) {\n        n = twice(n);\n        printf(\"big\\n\");\n    } else\n        n = n - 1;\n\
    switch (n) {\n    case 1:\n        puts(\"one\");\n        break;\n    default:\n        break;\n    }\n\
    printf(\"%d\\n\", n);\n    return 0;\n}\n";

    /// The statement the probe of `from → to` (once, in PROGRAM) goes before, to its line's end.
    /// `program` with the probe of its mutant that changes `from` into `to`.
    fn probed(program: &str, from: &str, to: &str) -> String {
        let mutant = program.replacen(from, to, 1);
        Probes::new(program, [mutant.as_str()]).source
    }

    fn probe_before(from: &str, to: &str) -> Option<String> {
        assert_eq!(PROGRAM.matches(from).count(), 1, "{from}");
        let mutant = PROGRAM.replacen(from, to, 1);
        let probes = Probes::new(PROGRAM, [mutant.as_str()]);
        let site = probes.sites[0]?;
        let probe = format!("{REACHED}[{site}] = 1; ");
        let at = probes.source.find(&probe).expect("the probe") + probe.len();
        let rest = &probes.source[at..];
        Some(rest[..rest.find('\n').unwrap_or(rest.len())].to_string())
    }

    #[test]
    fn a_change_is_probed_before_the_innermost_statement_that_holds_it() {
        // (the change, the statement its probe goes before; none: every input is tried)
        let expected: [(&str, &str, Option<&str>); 7] = [
            ("n * 2", "n * 3", Some("int m = n * 2;")),
            // In a block's statement: that statement.
            (
                "printf(\"big",
                "printf(\"large",
                Some("printf(\"big\\n\");"),
            ),
            // In a branch that is no block: the `if` that holds it.
            ("n = n - 1", "n = n + 1", Some("if (n > 3) {")),
            // In a case's statement: after its label; in the label: the switch.
            ("puts(\"one\")", "puts(\"two\")", Some("puts(\"one\");")),
            ("case 1:", "case 2:", Some("switch (n) {")),
            // Over two statements of a block: the statement that holds the block.
            (
                "n = twice(n);\n        printf(\"big\\n\");",
                "printf(\"big\\n\");\n        n = twice(n);",
                Some("if (n > 3) {"),
            ),
            // Outside any function.
            ("SIZE = 15", "SIZE = 16", None),
        ];
        for (from, to, statement) in expected {
            assert_eq!(
                probe_before(from, to).as_deref(),
                statement,
                "{from} → {to}"
            );
        }
    }

    #[test]
    fn a_statement_a_switch_jumps_into_is_probed_before_the_switch() {
        let program = "void copy(int *to, int *from, int n)\n{\n    switch (n % 2) {\n    case 0:\n        do {\n            *to++ = *from++;\n    case 1:\n            *to++ = *from++;\n        } while ((n -= 2) > 0);\n    }\n}\n";
        let probed = probed(program, "(n -= 2) > 0", "(n -= 2) >= 0");
        assert!(
            probed.contains("clings_reached_[0] = 1; switch (n % 2)"),
            "{probed}"
        );
    }

    #[test]
    fn a_function_with_a_goto_is_probed_where_it_starts() {
        let program = "int main(void)\n{\n    int n = 0;\nagain:\n    n++;\n    if (n < 3)\n        goto again;\n    return n;\n}\n";
        let probed = probed(program, "n < 3", "n < 4");
        assert!(
            probed.contains("{clings_reached_[0] = 1; \n    int n = 0;"),
            "{probed}"
        );
    }

    #[test]
    fn what_a_run_reached_is_read_from_the_end_of_its_stderr() {
        let mutants = [PROGRAM.replacen("n * 2", "n * 3", 1)];
        let probes = Probes::new(PROGRAM, mutants.iter().map(String::as_str));
        assert_eq!(
            probes.reached(b"a warning\n\nclings-reached:1\n"),
            Some(vec![true])
        );
        assert_eq!(probes.reached(b"\nclings-reached:0\n"), Some(vec![false]));
        assert!(!probes.may_tell(0, Some(&[false])));
        assert!(probes.may_tell(0, Some(&[true])));
        // A run that did not say (a crash) may tell it apart.
        assert_eq!(probes.reached(b"Segmentation fault"), None);
        assert!(probes.may_tell(0, None));
    }
}
