//! Mutants of a C program (`clings dev mutants`): copies with one small change each, made by
//! well-defined operators on its tokens, the mistakes students make in small:
//!
//! - relational: `<` to `<=` or `>=`, `<=` to `<` or `>`, and so on; `==` and `!=` swapped;
//! - arithmetic: `+` and `-` swapped, `*` to `/`, `/` and `%` to `*`, `++` and `--`, `+=`
//!   and `-=`;
//! - logical: `&&` and `||` swapped;
//! - constant: each decimal integer plus or minus one (loop bounds among them);
//! - direction: each number of an initializer made only of numbers in nested braces (the
//!   direction array `{ {0, 1}, {1, 0}, ... }`) plus or minus one, or its sign flipped;
//! - removed statement: a `break;`, `continue;`, `return ...;`, or an assignment or call on
//!   lines of its own;
//! - swapped branches: the two branches of an `if` with an `else`;
//! - swapped statements: two adjacent statements of a block (neither a declaration nor a
//!   jump), or two adjacent checks of an `if ... else if` chain, each with its branch;
//! - swapped operands: the two sides of `&&` or `||` where their order matters, one side
//!   having an effect or needing a guard (a call, an assignment, `++`/`--`, an index, a
//!   dereference).
//!
//! Comments, strings, character literals and preprocessor lines are never changed.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operator {
    Relational,
    Arithmetic,
    Logical,
    Constant,
    Direction,
    RemovedStatement,
    SwappedBranches,
    SwappedStatements,
    SwappedOperands,
}

impl Operator {
    pub fn name(self) -> &'static str {
        match self {
            Operator::Relational => "relational",
            Operator::Arithmetic => "arithmetic",
            Operator::Logical => "logical",
            Operator::Constant => "constant",
            Operator::Direction => "direction",
            Operator::RemovedStatement => "removed statement",
            Operator::SwappedBranches => "swapped branches",
            Operator::SwappedStatements => "swapped statements",
            Operator::SwappedOperands => "swapped operands",
        }
    }
}

/// One change to the program.
#[derive(Clone, Debug)]
pub struct Mutant {
    pub operator: Operator,
    /// The line of the change, from 1.
    pub line: usize,
    /// The changed text with a little context, before and after: `k < 5` and `k <= 5`.
    pub before: String,
    pub after: String,
    /// The whole program with the change.
    pub source: String,
    /// The function whose body holds the change, if one does.
    pub function: Option<String>,
}

impl Mutant {
    /// The change without its line: `k < 5 → k <= 5`.
    pub fn change(&self) -> String {
        format!("{} → {}", self.before, self.after)
    }
}

impl fmt::Display for Mutant {
    /// `27: k < 5 → k <= 5`: the caller puts the file's name in front.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.line, self.change())
    }
}

/// Every mutant of `source`, in the order of the changes in the file; two changes that
/// make the same program give one mutant.
pub fn mutants(source: &str) -> Vec<Mutant> {
    let tokens = tokens(source);
    let program = Program {
        source,
        tokens: &tokens,
    };
    let directions = program.direction_arrays();
    let mut found = Vec::new();
    for (index, token) in tokens.iter().enumerate() {
        program.operators(index, &mut found);
        if token.kind == Kind::Number
            && !directions
                .iter()
                .any(|(first, last)| (*first..=*last).contains(&index))
        {
            program.constants(index, &mut found);
        }
        program.removed_statement(index, &mut found);
        program.swapped_branches(index, &mut found);
        program.swapped_statements(index, &mut found);
        program.swapped_checks(index, &mut found);
        program.swapped_operands(index, &mut found);
    }
    for &(first, last) in &directions {
        program.direction_entries(first, last, &mut found);
    }
    found.sort_by_key(|(start, _)| *start);
    let functions = program.functions();
    let mut seen = std::collections::HashSet::new();
    found
        .into_iter()
        .map(|(start, mut mutant)| {
            mutant.function = functions
                .iter()
                .find(|(_, body)| body.contains(&start))
                .map(|(name, _)| name.clone());
            mutant
        })
        .filter(|mutant| mutant.source != source && seen.insert(mutant.source.clone()))
        .collect()
}

/// The functions of `source`: each one's name and its body, from its `{` to its `}`.
pub fn functions(source: &str) -> Vec<(String, std::ops::Range<usize>)> {
    let tokens = tokens(source);
    let program = Program {
        source,
        tokens: &tokens,
    };
    program.functions()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Word,
    Number,
    /// A string or character literal.
    Literal,
    Punct,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Token {
    pub(super) kind: Kind,
    pub(super) start: usize,
    pub(super) end: usize,
    line: usize,
}

/// The tokens of C source, without comments and preprocessor lines.
pub(super) fn tokens(source: &str) -> Vec<Token> {
    const PUNCTS: [&str; 23] = [
        "<<=", ">>=", "...", "<=", ">=", "==", "!=", "&&", "||", "++", "--", "+=", "-=", "*=",
        "/=", "%=", "&=", "|=", "^=", "<<", ">>", "->", "##",
    ];
    let bytes = source.as_bytes();
    let mut tokens = Vec::new();
    let mut at = 0;
    let mut line = 1;
    let mut line_start = true;
    while at < bytes.len() {
        let byte = bytes[at];
        let rest = &source[at..];
        let start = at;
        if byte == b'\n' {
            line += 1;
            line_start = true;
            at += 1;
            continue;
        }
        if byte.is_ascii_whitespace() {
            at += 1;
            continue;
        }
        if byte == b'#' && line_start {
            // A preprocessor line, with its backslash continuations.
            while at < bytes.len() && bytes[at] != b'\n' {
                if bytes[at] == b'\\' && bytes.get(at + 1) == Some(&b'\n') {
                    line += 1;
                    at += 1;
                }
                at += 1;
            }
            continue;
        }
        line_start = false;
        if rest.starts_with("//") {
            at += rest.find('\n').unwrap_or(rest.len());
            continue;
        }
        if let Some(comment) = rest.strip_prefix("/*") {
            let length = comment.find("*/").map_or(rest.len(), |end| end + 4);
            line += rest[..length].matches('\n').count();
            at += length;
            continue;
        }
        let kind = if byte == b'"' || byte == b'\'' {
            at += 1;
            while at < bytes.len() && bytes[at] != byte && bytes[at] != b'\n' {
                at += if bytes[at] == b'\\' { 2 } else { 1 };
            }
            at = (at + 1).min(bytes.len());
            Kind::Literal
        } else if byte.is_ascii_digit() {
            while at < bytes.len() && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'.') {
                let exponent = matches!(bytes[at], b'e' | b'E' | b'p' | b'P')
                    && matches!(bytes.get(at + 1), Some(b'+' | b'-'));
                at += if exponent { 2 } else { 1 };
            }
            Kind::Number
        } else if byte.is_ascii_alphabetic() || byte == b'_' {
            while at < bytes.len() && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'_') {
                at += 1;
            }
            Kind::Word
        } else {
            let length = PUNCTS
                .iter()
                .find(|punct| rest.starts_with(**punct))
                .map_or_else(
                    || rest.chars().next().map_or(1, char::len_utf8),
                    |p| p.len(),
                );
            at += length;
            Kind::Punct
        };
        tokens.push(Token {
            kind,
            start,
            end: at.min(bytes.len()),
            line,
        });
    }
    tokens
}

/// Words that start a declaration or are not values: a `*` after one is not a product, a
/// line that starts with one is not a statement to remove.
const NOT_VALUES: [&str; 27] = [
    "int", "char", "short", "long", "unsigned", "signed", "float", "double", "void", "const",
    "static", "extern", "struct", "union", "enum", "typedef", "register", "volatile", "return",
    "case", "sizeof", "if", "for", "while", "do", "switch", "goto",
];

pub(super) struct Program<'a> {
    pub(super) source: &'a str,
    pub(super) tokens: &'a [Token],
}

impl Program<'_> {
    pub(super) fn text(&self, index: usize) -> &str {
        let token = self.tokens[index];
        &self.source[token.start..token.end]
    }

    /// Whether token `index` exists and reads `text`.
    pub(super) fn is(&self, index: usize, text: &str) -> bool {
        index < self.tokens.len() && self.text(index) == text
    }

    /// The source from token `first` to token `last`, on one line.
    fn span(&self, first: usize, last: usize) -> String {
        let text = &self.source[self.tokens[first].start..self.tokens[last].end];
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// The program with tokens `first..=last` replaced by `with`.
    fn replaced(&self, first: usize, last: usize, with: &str) -> String {
        let (start, end) = (self.tokens[first].start, self.tokens[last].end);
        format!("{}{with}{}", &self.source[..start], &self.source[end..])
    }

    /// A mutant that replaces token `index` by `with`, shown with its neighbours on the line.
    fn token_mutant(&self, operator: Operator, index: usize, with: &str) -> (usize, Mutant) {
        let line = self.tokens[index].line;
        let same_line = |i: usize| i < self.tokens.len() && self.tokens[i].line == line;
        // The operand on the left (behind an operator if the token is a constant) and on
        // the right: `k < 5`, `k = 0`, `k++`.
        let mut first = index;
        while first > 0
            && index - first < 2
            && same_line(first - 1)
            && (first == index || self.tokens[first].kind == Kind::Punct)
        {
            first -= 1;
        }
        // A bracket opened in the window is closed in it: `dirs[4]`, not `dirs[4`.
        let closes = |i: usize| match self.text(i) {
            "]" => (first..index).any(|j| self.is(j, "[")),
            ")" => (first..index).any(|j| self.is(j, "(")),
            _ => false,
        };
        let last = match same_line(index + 1)
            && (self.tokens[index + 1].kind != Kind::Punct || closes(index + 1))
        {
            true => index + 1,
            false => index,
        };
        let one_line = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
        let (start, end) = (self.tokens[index].start, self.tokens[index].end);
        let (from, to) = (self.tokens[first].start, self.tokens[last].end);
        let before = one_line(&self.source[from..to]);
        let after = one_line(&format!(
            "{}{with}{}",
            &self.source[from..start],
            &self.source[end..to]
        ));
        let source = self.replaced(index, index, with);
        (
            self.tokens[index].start,
            Mutant {
                function: None,
                operator,
                line,
                before,
                after,
                source,
            },
        )
    }

    /// Whether the token before `index` ends a value, so that the token is a binary operator.
    fn after_value(&self, index: usize) -> bool {
        index > 0 && {
            let previous = index - 1;
            match self.tokens[previous].kind {
                Kind::Number | Kind::Literal => true,
                Kind::Word => !NOT_VALUES.contains(&self.text(previous)),
                Kind::Punct => matches!(self.text(previous), ")" | "]"),
            }
        }
    }

    fn operators(&self, index: usize, found: &mut Vec<(usize, Mutant)>) {
        if self.tokens[index].kind != Kind::Punct {
            return;
        }
        let binary = self.after_value(index);
        let (operator, replacements): (Operator, &[&str]) = match self.text(index) {
            "<" => (Operator::Relational, &["<=", ">="]),
            "<=" => (Operator::Relational, &["<", ">"]),
            ">" => (Operator::Relational, &[">=", "<="]),
            ">=" => (Operator::Relational, &[">", "<"]),
            "==" => (Operator::Relational, &["!="]),
            "!=" => (Operator::Relational, &["=="]),
            "&&" => (Operator::Logical, &["||"]),
            "||" => (Operator::Logical, &["&&"]),
            "+" if binary => (Operator::Arithmetic, &["-"]),
            "-" if binary => (Operator::Arithmetic, &["+"]),
            "*" if binary => (Operator::Arithmetic, &["/"]),
            "/" | "%" if binary => (Operator::Arithmetic, &["*"]),
            "++" => (Operator::Arithmetic, &["--"]),
            "--" => (Operator::Arithmetic, &["++"]),
            "+=" => (Operator::Arithmetic, &["-="]),
            "-=" => (Operator::Arithmetic, &["+="]),
            _ => return,
        };
        for with in replacements {
            found.push(self.token_mutant(operator, index, with));
        }
    }

    /// A decimal integer plus and minus one.
    fn constants(&self, index: usize, found: &mut Vec<(usize, Mutant)>) {
        let text = self.text(index);
        let digits = text.trim_end_matches(['u', 'U', 'l', 'L']);
        let suffix = &text[digits.len()..];
        let Ok(value) = digits.parse::<i64>() else {
            return;
        };
        if digits.len() > 1 && digits.starts_with('0') {
            return; // octal
        }
        for changed in [value + 1, value - 1] {
            // `x - 0` must not become `x --1`.
            let with = if changed < 0 {
                format!("({changed}{suffix})")
            } else {
                format!("{changed}{suffix}")
            };
            found.push(self.token_mutant(Operator::Constant, index, &with));
        }
    }

    /// The initializers made only of numbers in nested braces, by their first and last token.
    fn direction_arrays(&self) -> Vec<(usize, usize)> {
        let mut arrays = Vec::new();
        for index in 0..self.tokens.len() {
            if !(self.is(index, "=") && self.is(index + 1, "{")) {
                continue;
            }
            let (mut depth, mut deepest, mut at) = (0, 0, index + 1);
            let end = loop {
                if at >= self.tokens.len() {
                    break None;
                }
                match self.text(at) {
                    "{" => depth += 1,
                    "}" => depth -= 1,
                    "," | "-" => {}
                    _ if self.tokens[at].kind == Kind::Number => {}
                    _ => break None,
                }
                deepest = deepest.max(depth);
                if depth == 0 {
                    break Some(at);
                }
                at += 1;
            };
            if let Some(end) = end
                && deepest >= 2
            {
                arrays.push((index + 1, end));
            }
        }
        arrays
    }

    /// Each number of a direction array plus and minus one, and with its sign flipped; shown
    /// as the entry it is in: `{1, -1} → {1, 0}`.
    fn direction_entries(&self, first: usize, last: usize, found: &mut Vec<(usize, Mutant)>) {
        let mut open = first;
        for index in first..=last {
            if self.is(index, "{") {
                open = index;
            }
            if self.tokens[index].kind != Kind::Number {
                continue;
            }
            let Ok(magnitude) = self.text(index).parse::<i64>() else {
                continue;
            };
            let negative = self.is(index - 1, "-");
            let start = if negative { index - 1 } else { index };
            let value = if negative { -magnitude } else { magnitude };
            let close = (index..=last).find(|&i| self.is(i, "}")).unwrap_or(last);
            let mut changes = vec![value + 1, value - 1];
            if value != 0 {
                changes.push(-value);
            }
            for changed in changes {
                let source = self.replaced(start, index, &changed.to_string());
                let entry_start = self.tokens[open].start;
                let entry_end = self.tokens[close].end;
                let delta = source.len() as isize - self.source.len() as isize;
                let after = &source[entry_start..(entry_end as isize + delta) as usize];
                found.push((
                    self.tokens[start].start,
                    Mutant {
                        function: None,
                        operator: Operator::Direction,
                        line: self.tokens[index].line,
                        before: self.span(open, close),
                        after: after.split_whitespace().collect::<Vec<_>>().join(" "),
                        source,
                    },
                ));
            }
        }
    }

    /// Whether token `index` is the first on its line.
    fn starts_line(&self, index: usize) -> bool {
        index == 0 || self.tokens[index - 1].line < self.tokens[index].line
    }

    /// A `break;`, `continue;`, `return ...;`, or an assignment or call statement that has
    /// its lines to itself, left out (an empty statement in its place keeps an `if`'s body).
    fn removed_statement(&self, index: usize, found: &mut Vec<(usize, Mutant)>) {
        let starts_statement = index > 0
            && matches!(self.text(index - 1), ";" | "{" | "}" | ")" | "else")
            && self.starts_line(index);
        if !starts_statement || self.tokens[index].kind != Kind::Word {
            return;
        }
        let word = self.text(index);
        let Some(end) = self.simple_statement_end(index) else {
            return;
        };
        let ends_line = end + 1 == self.tokens.len() || self.starts_line(end + 1);
        let removable = match word {
            "break" | "continue" | "return" => true,
            _ if NOT_VALUES.contains(&word) || ["else", "default"].contains(&word) => false,
            _ => (index..end).any(|i| {
                matches!(
                    self.text(i),
                    "=" | "+=" | "-=" | "*=" | "/=" | "%=" | "(" | "++" | "--"
                )
            }),
        };
        if removable && ends_line {
            found.push((
                self.tokens[index].start,
                Mutant {
                    function: None,
                    operator: Operator::RemovedStatement,
                    line: self.tokens[index].line,
                    before: self.span(index, end),
                    after: "(removed)".into(),
                    source: self.replaced(index, end, ";"),
                },
            ));
        }
    }

    /// The `;` that ends the statement at `index`, unless a block starts before it.
    fn simple_statement_end(&self, index: usize) -> Option<usize> {
        let mut depth = 0i32;
        for at in index..self.tokens.len() {
            match self.text(at) {
                "(" | "[" => depth += 1,
                ")" | "]" => depth -= 1,
                "{" | "}" => return None,
                ";" if depth == 0 => return Some(at),
                _ => {}
            }
        }
        None
    }

    /// Each function definition's name and the bytes of its body (from its `{` to its
    /// `}`): a `{` at the top level that follows `name(...)` opens one.
    pub(super) fn functions(&self) -> Vec<(String, std::ops::Range<usize>)> {
        let mut functions = Vec::new();
        let mut at = 0;
        while at < self.tokens.len() {
            if !self.is(at, "{") {
                at += 1;
                continue;
            }
            let Some(end) = self.closing(at) else { break };
            let name = (at > 0 && self.is(at - 1, ")"))
                .then(|| self.opening(at - 1))
                .flatten()
                .filter(|&open| open > 0 && self.tokens[open - 1].kind == Kind::Word)
                .map(|open| self.text(open - 1).to_string());
            if let Some(name) = name {
                functions.push((name, self.tokens[at].start..self.tokens[end].end));
            }
            // What is inside a top-level block (a function's body, a struct's fields, an
            // array's initialiser) defines no function.
            at = end + 1;
        }
        functions
    }

    /// The token that opens the parenthesis closed at `index`.
    fn opening(&self, index: usize) -> Option<usize> {
        let mut depth = 0;
        for at in (0..=index).rev() {
            if self.is(at, ")") {
                depth += 1;
            } else if self.is(at, "(") {
                depth -= 1;
                if depth == 0 {
                    return Some(at);
                }
            }
        }
        None
    }

    /// The token that closes the bracket opened at `index`.
    pub(super) fn closing(&self, index: usize) -> Option<usize> {
        let (open, close) = match self.text(index) {
            "(" => ("(", ")"),
            "{" => ("{", "}"),
            _ => return None,
        };
        let mut depth = 0;
        for at in index..self.tokens.len() {
            if self.is(at, open) {
                depth += 1;
            } else if self.is(at, close) {
                depth -= 1;
                if depth == 0 {
                    return Some(at);
                }
            }
        }
        None
    }

    /// The last token of the statement that starts at `index`.
    pub(super) fn statement_end(&self, index: usize) -> Option<usize> {
        if index >= self.tokens.len() {
            return None;
        }
        match self.text(index) {
            "{" => self.closing(index),
            "if" => {
                let then = self.statement_end(self.closing(index + 1)? + 1)?;
                match self.is(then + 1, "else") {
                    true => self.statement_end(then + 2),
                    false => Some(then),
                }
            }
            "for" | "while" | "switch" => self.statement_end(self.closing(index + 1)? + 1),
            "do" => {
                let body = self.statement_end(index + 1)?;
                let condition = self.closing(body + 2)?;
                self.is(condition + 1, ";").then_some(condition + 1)
            }
            _ => self.simple_statement_end(index),
        }
    }

    /// An `if` whose branches are swapped; a branch that is not a block is put in braces, so
    /// that an `else` always stays with its own `if`.
    fn swapped_branches(&self, index: usize, found: &mut Vec<(usize, Mutant)>) {
        if !(self.is(index, "if") && self.is(index + 1, "(")) {
            return;
        }
        let Some(condition) = self.closing(index + 1) else {
            return;
        };
        let then_first = condition + 1;
        let Some(then_last) = self.statement_end(then_first) else {
            return;
        };
        if !self.is(then_last + 1, "else") {
            return;
        }
        let else_first = then_last + 2;
        let Some(else_last) = self.statement_end(else_first) else {
            return;
        };
        let block = |first: usize, last: usize| self.braced(first, last);
        let (then_start, then_end) = (self.tokens[then_first].start, self.tokens[then_last].end);
        let (else_start, else_end) = (self.tokens[else_first].start, self.tokens[else_last].end);
        let source = format!(
            "{}{}{}{}{}",
            &self.source[..then_start],
            block(else_first, else_last),
            &self.source[then_end..else_start],
            block(then_first, then_last),
            &self.source[else_end..]
        );
        found.push((
            self.tokens[index].start,
            Mutant {
                function: None,
                operator: Operator::SwappedBranches,
                line: self.tokens[index].line,
                before: format!("if {}", self.span(index + 1, condition)),
                after: "then and else swapped".into(),
                source,
            },
        ));
    }

    /// The statement from token `first` to `last` as a block: in braces unless it is one.
    fn braced(&self, first: usize, last: usize) -> String {
        let text = &self.source[self.tokens[first].start..self.tokens[last].end];
        match self.is(first, "{") {
            true => text.to_string(),
            false => format!("{{ {text} }}"),
        }
    }

    /// The program with tokens `a.0..=a.1` and `b.0..=b.1` (`a` before `b`) trading places.
    fn traded(&self, a: (usize, usize), b: (usize, usize), texts: (&str, &str)) -> String {
        let (a_start, a_end) = (self.tokens[a.0].start, self.tokens[a.1].end);
        let (b_start, b_end) = (self.tokens[b.0].start, self.tokens[b.1].end);
        format!(
            "{}{}{}{}{}",
            &self.source[..a_start],
            texts.1,
            &self.source[a_end..b_start],
            texts.0,
            &self.source[b_end..]
        )
    }

    /// The first line of the statement `first..=last`, with `…` if it goes on.
    fn head(&self, first: usize, last: usize) -> String {
        let line = self.tokens[first].line;
        let end = (first..=last)
            .take_while(|&i| self.tokens[i].line == line)
            .last()
            .unwrap_or(first);
        match end == last {
            true => self.span(first, last),
            false => format!("{} …", self.span(first, end)),
        }
    }

    /// Whether the statement at `index` may trade places with its neighbour: not a
    /// declaration (moved, it would not compile or change nothing), not a jump (moved, it
    /// would remove a statement, which has its own operator), not a label, not empty.
    fn movable(&self, index: usize) -> bool {
        const TYPES: [&str; 16] = [
            "int", "char", "short", "long", "unsigned", "signed", "float", "double", "void",
            "const", "static", "extern", "struct", "union", "enum", "typedef",
        ];
        const FIXED: [&str; 7] = [
            "break", "continue", "return", "goto", "case", "default", ";",
        ];
        let word = self.text(index);
        let word_then = |i: usize| i < self.tokens.len() && self.tokens[i].kind == Kind::Word;
        // `Board b;`, `FILE *f = ...`: a type's name and then a variable's.
        let typed = self.tokens[index].kind == Kind::Word
            && (word_then(index + 1) || (self.is(index + 1, "*") && word_then(index + 2)));
        !TYPES.contains(&word) && !FIXED.contains(&word) && !typed
    }

    /// Each two adjacent statements of the block that opens at `index`, swapped: the order
    /// of two steps (a count made before its check, a stone placed before the test).
    fn swapped_statements(&self, index: usize, found: &mut Vec<(usize, Mutant)>) {
        // A block: a function's or a statement's body, or a block in a block; not an
        // initializer (`= {`) or a struct's members (`struct s {`).
        let opens_block = self.is(index, "{")
            && index > 0
            && matches!(self.text(index - 1), ")" | "else" | "do" | ";" | "{" | "}");
        let Some(close) = opens_block.then(|| self.closing(index)).flatten() else {
            return;
        };
        let mut previous: Option<(usize, usize)> = None;
        let mut first = index + 1;
        while first < close {
            let Some(last) = self.statement_end(first).filter(|&last| last < close) else {
                return;
            };
            if let Some(earlier) = previous
                && self.movable(earlier.0)
                && self.movable(first)
            {
                let texts = (
                    &self.source[self.tokens[earlier.0].start..self.tokens[earlier.1].end],
                    &self.source[self.tokens[first].start..self.tokens[last].end],
                );
                found.push((
                    self.tokens[earlier.0].start,
                    Mutant {
                        function: None,
                        operator: Operator::SwappedStatements,
                        line: self.tokens[earlier.0].line,
                        before: format!(
                            "{} {}",
                            self.head(earlier.0, earlier.1),
                            self.head(first, last)
                        ),
                        after: format!(
                            "{} {}",
                            self.head(first, last),
                            self.head(earlier.0, earlier.1)
                        ),
                        source: self.traded(earlier, (first, last), texts),
                    },
                ));
            }
            previous = Some((first, last));
            first = last + 1;
        }
    }

    /// `if (a) x else if (b) y` made `if (b) y else if (a) x`: two checks made in the other
    /// order, which matters when both can hold (both players have five).
    fn swapped_checks(&self, index: usize, found: &mut Vec<(usize, Mutant)>) {
        if !(self.is(index, "if") && self.is(index + 1, "(")) {
            return;
        }
        let Some(first_then) = self.closing(index + 1).map(|c| c + 1) else {
            return;
        };
        let Some(first_last) = self.statement_end(first_then) else {
            return;
        };
        let second_if = first_last + 2;
        if !(self.is(first_last + 1, "else")
            && self.is(second_if, "if")
            && self.is(second_if + 1, "("))
        {
            return;
        }
        let Some(second_then) = self.closing(second_if + 1).map(|c| c + 1) else {
            return;
        };
        let Some(second_last) = self.statement_end(second_then) else {
            return;
        };
        // Each check with its branch, the branch in braces so that an `else` stays with
        // its own `if`.
        let arm = |condition: usize, then: usize, last: usize| {
            format!(
                "{} {}",
                &self.source[self.tokens[condition].start..self.tokens[then - 1].end],
                self.braced(then, last)
            )
        };
        let first_arm = arm(index + 1, first_then, first_last);
        let second_arm = arm(second_if + 1, second_then, second_last);
        let first_check = format!("if {}", self.span(index + 1, first_then - 1));
        let second_check = format!("if {}", self.span(second_if + 1, second_then - 1));
        found.push((
            self.tokens[index].start,
            Mutant {
                function: None,
                operator: Operator::SwappedStatements,
                line: self.tokens[index].line,
                before: format!("{first_check} … else {second_check}"),
                after: format!("{second_check} … else {first_check}"),
                source: self.traded(
                    (index + 1, first_last),
                    (second_if + 1, second_last),
                    (&first_arm, &second_arm),
                ),
            },
        ));
    }

    /// The two sides of the `&&` or `||` at `index`, swapped, where one side has an effect
    /// or may fault without the other's guard: `onboard(r, c) && board[r][c]`. Sides made
    /// only of comparisons of variables give the same value in either order: left alone.
    fn swapped_operands(&self, index: usize, found: &mut Vec<(usize, Mutant)>) {
        let and = match self.text(index) {
            "&&" => true,
            "||" => false,
            _ => return,
        };
        if self.tokens[index].kind != Kind::Punct {
            return;
        }
        // A side ends where an operator that binds less tightly, or an unmatched bracket,
        // is met.
        let ends = |at: usize| {
            matches!(
                self.text(at),
                ";" | "{"
                    | "}"
                    | ","
                    | "?"
                    | ":"
                    | "="
                    | "+="
                    | "-="
                    | "*="
                    | "/="
                    | "%="
                    | "&="
                    | "|="
                    | "^="
                    | "<<="
                    | ">>="
                    | "||"
                    | "return"
            ) || (and && self.is(at, "&&"))
        };
        let mut depth = 0i32;
        let mut left = index;
        while left > 0 {
            let at = left - 1;
            match self.text(at) {
                ")" | "]" => depth += 1,
                "(" | "[" if depth == 0 => break,
                "(" | "[" => depth -= 1,
                _ if depth == 0 && ends(at) => break,
                _ => {}
            }
            left = at;
        }
        let mut depth = 0i32;
        let mut right = index;
        while right + 1 < self.tokens.len() {
            let at = right + 1;
            match self.text(at) {
                "(" | "[" => depth += 1,
                ")" | "]" if depth == 0 => break,
                ")" | "]" => depth -= 1,
                _ if depth == 0 && ends(at) => break,
                _ => {}
            }
            right = at;
        }
        if left == index || right == index {
            return;
        }
        let (left_side, right_side) = ((left, index - 1), (index + 1, right));
        let matters = |(first, last): (usize, usize)| {
            (first..=last).any(|i| match self.text(i) {
                "[" | "->" | "++" | "--" | "=" | "+=" | "-=" | "*=" | "/=" | "%=" => true,
                "*" => !self.after_value(i),
                "(" => {
                    i > first
                        && self.tokens[i - 1].kind == Kind::Word
                        && !NOT_VALUES.contains(&self.text(i - 1))
                }
                _ => false,
            })
        };
        if !(matters(left_side) || matters(right_side)) {
            return;
        }
        let text = |(first, last): (usize, usize)| {
            &self.source[self.tokens[first].start..self.tokens[last].end]
        };
        let operator = self.text(index);
        found.push((
            self.tokens[index].start,
            Mutant {
                function: None,
                operator: Operator::SwappedOperands,
                line: self.tokens[index].line,
                before: format!(
                    "{} {operator} {}",
                    self.span(left, index - 1),
                    self.span(index + 1, right)
                ),
                after: format!(
                    "{} {operator} {}",
                    self.span(index + 1, right),
                    self.span(left, index - 1)
                ),
                source: self.traded(left_side, right_side, (text(left_side), text(right_side))),
            },
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(source: &str) -> Vec<String> {
        mutants(source).iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn comments_strings_and_preprocessor_lines_are_left_alone() {
        let source = "#define N 5 /* 1 < 2 */\n// a < b\nchar *s = \"k < 5\"; char c = '<';\n";
        assert!(shown(source).is_empty(), "{:?}", shown(source));
    }

    #[test]
    fn a_loop_bound_is_mutated_by_its_relation_and_its_constant() {
        let got = shown("int f(void) {\n    for (int k = 0; k < 5; k++) {}\n}\n");
        for expected in [
            "2: k < 5 → k <= 5",
            "2: k < 5 → k >= 5",
            "2: k < 5 → k < 6",
            "2: k < 5 → k < 4",
            "2: k = 0 → k = 1",
            "2: k = 0 → k = (-1)",
            "2: k++ → k--",
        ] {
            assert!(
                got.contains(&expected.to_string()),
                "{expected} not in {got:?}"
            );
        }
    }

    #[test]
    fn each_entry_of_the_direction_array_is_changed_alone() {
        let source = "static const int dirs[2][2] = { {0, 1}, {1, -1} };\n";
        let got = shown(source);
        assert!(got.contains(&"1: {1, -1} → {1, 0}".to_string()), "{got:?}");
        assert!(got.contains(&"1: {1, -1} → {1, 1}".to_string()), "{got:?}");
        assert!(got.contains(&"1: {0, 1} → {-1, 1}".to_string()), "{got:?}");
        assert!(got.contains(&"1: dirs[2] → dirs[3]".to_string()), "{got:?}");
        // The array's numbers are not also mutated as constants, and its size is.
        assert_eq!(
            mutants(source)
                .iter()
                .filter(|m| m.operator == Operator::Constant)
                .count(),
            4
        );
    }

    #[test]
    fn each_mutant_knows_the_function_whose_body_it_changes() {
        let source = "static const int dirs[1][2] = { {0, 1} };\nstruct cell { int r; };\n\
                      static int weight(int n) {\n    return n * 10;\n}\n\
                      int main(void) {\n    if (weight(2) > 5) { return 1; }\n    return 0;\n}\n";
        let functions = |text: &str| -> Vec<Option<String>> {
            mutants(source)
                .into_iter()
                .filter(|m| m.change() == text)
                .map(|m| m.function)
                .collect()
        };
        assert_eq!(functions("n * 10 → n * 11"), [Some("weight".to_string())]);
        assert_eq!(functions("2) > 5 → 2) >= 5"), [Some("main".to_string())]);
        // Outside any function: the array's entries.
        assert_eq!(functions("{0, 1} → {-1, 1}"), [None]);
    }

    #[test]
    fn a_statement_on_its_own_line_can_be_removed() {
        let source = "int f(int x) {\n    if (x)\n        break;\n    g(x);\n    return x;\n}\n";
        let removed: Vec<Mutant> = mutants(source)
            .into_iter()
            .filter(|m| m.operator == Operator::RemovedStatement)
            .collect();
        let shown: Vec<String> = removed.iter().map(|m| m.to_string()).collect();
        assert_eq!(
            shown,
            [
                "3: break; → (removed)",
                "4: g(x); → (removed)",
                "5: return x; → (removed)"
            ]
        );
        assert!(removed[0].source.contains("if (x)\n        ;\n"));
    }

    #[test]
    fn the_branches_of_an_if_else_are_swapped() {
        let source = "void f(int a) {\n    if (a) g(1);\n    else if (h()) g(2); else g(3);\n}\n";
        let swapped: Vec<String> = mutants(source)
            .into_iter()
            .filter(|m| m.operator == Operator::SwappedBranches)
            .map(|m| m.source)
            .collect();
        assert_eq!(swapped.len(), 2, "{swapped:?}");
        assert!(
            swapped[0].contains("if (a) { if (h()) g(2); else g(3); }\n    else { g(1); }"),
            "{}",
            swapped[0]
        );
        assert!(
            swapped[1].contains("else if (h()) { g(3); } else { g(2); }"),
            "{}",
            swapped[1]
        );
    }

    #[test]
    fn a_pointer_declaration_is_not_a_product() {
        assert!(
            !shown("char *p;\n").iter().any(|m| m.contains('/')),
            "{:?}",
            shown("char *p;\n")
        );
    }

    fn of(operator: Operator, source: &str) -> Vec<Mutant> {
        mutants(source)
            .into_iter()
            .filter(|m| m.operator == operator)
            .collect()
    }

    #[test]
    fn two_adjacent_steps_trade_places_but_declarations_and_jumps_stay() {
        let source = "int f(int x) {\n    int n = 0;\n    int m = 1;\n    g(x);\n    \
                      n++;\n    if (n > 2)\n        h();\n    return n;\n}\n";
        let swapped = of(Operator::SwappedStatements, source);
        let shown: Vec<String> = swapped.iter().map(|m| m.to_string()).collect();
        assert_eq!(
            shown,
            [
                "4: g(x); n++; → n++; g(x);",
                "5: n++; if (n > 2) … → if (n > 2) … n++;"
            ]
        );
        assert!(
            swapped[1]
                .source
                .contains("    if (n > 2)\n        h();\n    n++;\n    return n;"),
            "{}",
            swapped[1].source
        );
    }

    #[test]
    fn two_checks_of_an_else_if_chain_are_made_in_the_other_order() {
        let source = "void f(void) {\n    if (win('B'))\n        puts(\"black\");\n    \
                      else if (win('W'))\n        if (x) puts(\"white\");\n}\n";
        let swapped: Vec<Mutant> = of(Operator::SwappedStatements, source)
            .into_iter()
            .filter(|m| m.to_string().contains("else if"))
            .collect();
        assert_eq!(swapped.len(), 1, "{swapped:?}");
        assert_eq!(
            swapped[0].to_string(),
            "2: if (win('B')) … else if (win('W')) → if (win('W')) … else if (win('B'))"
        );
        // The inner `if` is braced, or the `else` would become its own.
        assert!(
            swapped[0].source.contains(
                "if (win('W')) { if (x) puts(\"white\"); }\n    else if (win('B')) { puts(\"black\"); }\n}"
            ),
            "{}",
            swapped[0].source
        );
    }

    #[test]
    fn the_sides_of_a_guard_are_swapped_and_pure_comparisons_are_not() {
        let source = "int f(int r, int c) {\n    \
                      return r >= 0 && r < 15 && c >= 0 && c < 15;\n}\n\
                      int g(int r) {\n    return (r >= 0 || h(r)) && a[r] > 0;\n}\n";
        let shown: Vec<String> = of(Operator::SwappedOperands, source)
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(
            shown,
            [
                "5: r >= 0 || h(r) → h(r) || r >= 0",
                "5: (r >= 0 || h(r)) && a[r] > 0 → a[r] > 0 && (r >= 0 || h(r))"
            ]
        );
    }
}
