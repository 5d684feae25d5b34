//! How the page templates (`assets/*.html`, `assets/*.svg`) place text: every value a
//! template writes goes through [`Html`], which `assets/askama.toml` makes their escaper,
//! so a student's name or a program's output is text wherever a template puts it, with
//! no call to forget. Only what a template marks `|safe` is placed as it is: clings' own
//! style sheets and scripts, charts drawn by templates that escaped their own text, and
//! JSON made safe for a script.
//!
//! Why askama (0.16, maintained, on crates.io): a template is checked when clings is
//! compiled (a field that does not exist, a tag left open, is a build error, not a broken
//! page); it escapes every value unless told not to; and it is compiled into the binary,
//! so no template file is read at run time and a page needs nothing beside clings. Its
//! templates are HTML files beside the style sheets, which a reader edits as HTML. maud
//! has the same three, its markup written as a Rust macro, but its escaping leaves `'`
//! as it is, where the pages write `&#39;`. askama's own escaper writes numeric entities
//! (`&#60;`); this one writes the pages' text as it was, so a page drawn before and after
//! the templates is the same. Its cost: 7 small crates (its parser and derive macro the
//! largest, 33 s of the 512 s of compiler work a clean release build does on two busy
//! cores), a clean release build's CPU time 168 s before and 175 to 195 s after, 39 KB of
//! binary; a class of 1,000 draws no slower (0.45 s, 0.53 s before).

use std::fmt::{self, Write};

/// The pages' escaper: text safe between tags and inside quoted attributes, written as
/// the pages always wrote it (`&lt;`, `&amp;`, `&quot;`, `&#39;`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Html;

impl askama::filters::Escaper for Html {
    fn write_escaped_str<W: Write>(&self, mut dest: W, text: &str) -> fmt::Result {
        let mut last = 0;
        for (index, byte) in text.bytes().enumerate() {
            let entity = match byte {
                b'&' => "&amp;",
                b'<' => "&lt;",
                b'>' => "&gt;",
                b'"' => "&quot;",
                b'\'' => "&#39;",
                _ => continue,
            };
            dest.write_str(&text[last..index])?;
            dest.write_str(entity)?;
            last = index + 1;
        }
        dest.write_str(&text[last..])
    }
}

#[cfg(test)]
mod tests {
    use askama::filters::Escaper;

    use super::*;

    #[test]
    fn text_from_a_program_cannot_become_markup() {
        let mut escaped = String::new();
        Html.write_escaped_str(&mut escaped, "<script>alert(\"x\" & 'y')</script>")
            .unwrap();
        assert_eq!(
            escaped,
            "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;"
        );
    }
}
