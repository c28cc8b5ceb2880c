//! The armored text format shared by certificates, keys and revocation lists.
//!
//! ```text
//! -----BEGIN WEIQI <LABEL>-----
//! <header line>           (certificates and revocation lists: the format and version)
//! name: value             (fixed names in a fixed order)
//! …
//! -----END WEIQI <LABEL>-----
//! ```
//!
//! Lines end in LF (CRLF is accepted when reading). Text outside the armor is ignored, so a certificate
//! can travel inside an e-mail. Values are one line of UTF-8, not empty, without leading or trailing
//! spaces.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Why an armored text could not be read: the line (from 1) and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("line {line}: {problem}")]
pub struct ParseError {
    /// The line, from 1 (0: the text as a whole).
    pub line: usize,
    /// What is wrong.
    pub problem: Malformed,
}

/// What can be wrong in an armored text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum Malformed {
    /// No `-----BEGIN WEIQI <label>-----` line.
    #[error("no '-----BEGIN WEIQI {0}-----' line")]
    NoBegin(String),
    /// No matching END line.
    #[error("no '-----END WEIQI {0}-----' line")]
    NoEnd(String),
    /// The header line names another format or version.
    #[error("expected '{expected}', found '{found}'")]
    UnsupportedFormat {
        /// Expected header.
        expected: String,
        /// Found.
        found: String,
    },
    /// A field is missing or out of order.
    #[error("expected the field '{expected}', found '{found}'")]
    UnexpectedField {
        /// Expected field name.
        expected: String,
        /// What was there.
        found: String,
    },
    /// A line after the last field.
    #[error("unexpected line after the last field: '{0}'")]
    TrailingLine(String),
    /// A field value is invalid.
    #[error("field '{field}': {reason}")]
    BadValue {
        /// The field.
        field: String,
        /// Why.
        reason: String,
    },
    /// The same revoked serial twice.
    #[error("serial {0} is listed twice")]
    DuplicateSerial(String),
}

/// The lines inside one armor block, with their line numbers.
pub(crate) struct Block<'a> {
    lines: Vec<(usize, &'a str)>,
    next: usize,
    end_line: usize,
}

pub(crate) fn begin(label: &str) -> String {
    format!("-----BEGIN WEIQI {label}-----")
}

pub(crate) fn end(label: &str) -> String {
    format!("-----END WEIQI {label}-----")
}

impl<'a> Block<'a> {
    /// Finds the first block with `label`.
    pub(crate) fn find(text: &'a str, label: &str) -> Result<Block<'a>, ParseError> {
        let (b, e) = (begin(label), end(label));
        let mut lines =
            text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).enumerate().map(|(i, l)| (i + 1, l));
        let Some(_) = lines.by_ref().find(|(_, l)| l.trim() == b) else {
            return Err(ParseError { line: 0, problem: Malformed::NoBegin(label.to_owned()) });
        };
        let mut inside = Vec::new();
        for (n, l) in lines {
            if l.trim() == e {
                return Ok(Block { lines: inside, next: 0, end_line: n });
            }
            inside.push((n, l));
        }
        Err(ParseError { line: 0, problem: Malformed::NoEnd(label.to_owned()) })
    }

    /// The next line, or the END line's number with an empty string.
    fn take(&mut self) -> (usize, &'a str) {
        let line = self.lines.get(self.next).copied().unwrap_or((self.end_line, ""));
        self.next += 1;
        line
    }

    /// Whether the next line is the field `name`.
    pub(crate) fn next_is(&self, name: &str) -> bool {
        self.lines.get(self.next).is_some_and(|(_, l)| l.strip_prefix(name).is_some_and(|r| r.starts_with(':')))
    }

    /// Whether another line is waiting.
    pub(crate) fn has_more(&self) -> bool {
        self.next < self.lines.len()
    }

    /// The header line, which must be one of `expected`; answers which.
    pub(crate) fn header_of(&mut self, expected: &[&'static str]) -> Result<&'static str, ParseError> {
        let (line, l) = self.take();
        expected.iter().copied().find(|e| *e == l).ok_or_else(|| ParseError {
            line,
            problem: Malformed::UnsupportedFormat { expected: expected.join(" or "), found: l.to_owned() },
        })
    }

    /// The header line, which must equal `expected`.
    pub(crate) fn header(&mut self, expected: &str) -> Result<(), ParseError> {
        let (line, l) = self.take();
        if l == expected {
            Ok(())
        } else {
            Err(ParseError {
                line,
                problem: Malformed::UnsupportedFormat { expected: expected.to_owned(), found: l.to_owned() },
            })
        }
    }

    /// The next line, which must be `name: value`; returns the line number and the value.
    pub(crate) fn field(&mut self, name: &str) -> Result<(usize, &'a str), ParseError> {
        let (line, l) = self.take();
        let value = l.strip_prefix(name).and_then(|rest| rest.strip_prefix(": "));
        match value {
            Some(v) => {
                check_value(name, v).map_err(|problem| ParseError { line, problem })?;
                Ok((line, v))
            }
            None => Err(ParseError {
                line,
                problem: Malformed::UnexpectedField {
                    expected: name.to_owned(),
                    found: l.split(':').next().unwrap_or(l).to_owned(),
                },
            }),
        }
    }

    /// Fails if lines remain.
    pub(crate) fn finish(mut self) -> Result<(), ParseError> {
        if self.has_more() {
            let (line, l) = self.take();
            return Err(ParseError { line, problem: Malformed::TrailingLine(l.to_owned()) });
        }
        Ok(())
    }
}

/// A field value must be one non-empty line without surrounding spaces.
pub(crate) fn check_value(field: &str, value: &str) -> Result<(), Malformed> {
    let bad = |reason: &str| Err(Malformed::BadValue { field: field.to_owned(), reason: reason.to_owned() });
    if value.is_empty() {
        bad("empty")
    } else if value.contains(['\n', '\r']) {
        bad("must be a single line")
    } else if value.trim() != value {
        bad("leading or trailing spaces")
    } else {
        Ok(())
    }
}

/// A serial: 1–64 characters of `A-Z a-z 0-9 . _ -`.
pub(crate) fn check_serial(field: &str, serial: &str) -> Result<(), Malformed> {
    let ok = !serial.is_empty()
        && serial.len() <= 64
        && serial.bytes().all(|c| c.is_ascii_alphanumeric() || b"._-".contains(&c));
    if ok {
        Ok(())
    } else {
        Err(Malformed::BadValue {
            field: field.to_owned(),
            reason: "use 1-64 characters of A-Z, a-z, 0-9, '.', '_' and '-'".to_owned(),
        })
    }
}

/// Writes `name: value\n`.
pub(crate) fn write_field(out: &mut String, name: &str, value: impl fmt::Display) {
    use std::fmt::Write as _;
    let _ = writeln!(out, "{name}: {value}");
}

pub(crate) fn bad(line: usize, field: &str, reason: impl Into<String>) -> ParseError {
    ParseError { line, problem: Malformed::BadValue { field: field.to_owned(), reason: reason.into() } }
}
