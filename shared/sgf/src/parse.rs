//! The SGF parser: bytes to a [`Collection`], with byte offsets in every error.
//!
//! The grammar (FF[4]) is `Collection = GameTree+`, `GameTree = "(" Node+ GameTree* ")"`,
//! `Node = ";" Property*`, `Property = Ident Value+`, `Value = "[" text "]"` with `\` escaping the
//! next character. The parser is iterative (an explicit stack for nesting), decodes values in the
//! file's charset (see [`crate::charset`]), and tolerates what real files carry: a byte-order mark,
//! text before the first game tree or after the last, FF[3] lower-case letters in identifiers.

use crate::charset::{self, Charset};
use crate::tree::{Collection, GameTree, Node, Property};

/// Malformed SGF syntax. Every variant names the byte offset; property errors name the property.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// No `(;` anywhere: this is not an SGF file.
    #[error("not an SGF file: no game tree `(;` found")]
    NoGameTree,
    /// A character that the grammar does not allow here.
    #[error("byte {offset}: unexpected {found:?}, expected {expected}")]
    Unexpected {
        /// Byte offset of the character.
        offset: usize,
        /// The character (as a byte, shown as a char).
        found: char,
        /// What the grammar wanted.
        expected: &'static str,
    },
    /// A property value that never closes with `]`.
    #[error("byte {offset}: value of property {property} is never closed with ']'")]
    UnclosedValue {
        /// Byte offset of the opening `[`.
        offset: usize,
        /// The property identifier.
        property: String,
    },
    /// A property identifier with no value.
    #[error("byte {offset}: property {property} has no value")]
    MissingValue {
        /// Byte offset of the identifier.
        offset: usize,
        /// The property identifier.
        property: String,
    },
    /// A game tree that never closes with `)`.
    #[error("byte {offset}: game tree opened here is never closed with ')'")]
    UnclosedTree {
        /// Byte offset of the `(`.
        offset: usize,
    },
    /// A `(` not followed by a node.
    #[error("byte {offset}: game tree has no node (expected ';')")]
    EmptyTree {
        /// Byte offset of the `(`.
        offset: usize,
    },
}

impl ParseError {
    /// The byte offset the error points at, if any.
    pub fn offset(&self) -> Option<usize> {
        match self {
            ParseError::NoGameTree => None,
            ParseError::Unexpected { offset, .. }
            | ParseError::UnclosedValue { offset, .. }
            | ParseError::MissingValue { offset, .. }
            | ParseError::UnclosedTree { offset }
            | ParseError::EmptyTree { offset } => Some(*offset),
        }
    }

    /// The property the error is about, if any.
    pub fn property(&self) -> Option<&str> {
        match self {
            ParseError::UnclosedValue { property, .. } | ParseError::MissingValue { property, .. } => Some(property),
            _ => None,
        }
    }
}

/// Parses SGF bytes, detecting the charset (see [`crate::charset`]).
pub fn parse(bytes: &[u8]) -> Result<Collection, ParseError> {
    let charset = charset::declared(bytes).unwrap_or_else(|| Charset::detect(bytes));
    parse_with(bytes, charset)
}

/// Parses SGF text that is already a Rust string.
pub fn parse_str(text: &str) -> Result<Collection, ParseError> {
    parse_with(text.as_bytes(), Charset::Utf8)
}

/// Parses SGF bytes in the given charset.
pub fn parse_with(bytes: &[u8], charset: Charset) -> Result<Collection, ParseError> {
    Parser { b: bytes, i: 0, charset }.collection()
}

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
    charset: Charset,
}

impl Parser<'_> {
    fn skip_ws(&mut self) {
        while self.i < self.b.len() && self.b[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// Moves to the next `(` that starts a game tree (`(` then optional whitespace then `;`).
    fn find_tree_start(&mut self) -> bool {
        while self.i < self.b.len() {
            if self.b[self.i] == b'(' {
                let mut j = self.i + 1;
                while j < self.b.len() && self.b[j].is_ascii_whitespace() {
                    j += 1;
                }
                if j < self.b.len() && self.b[j] == b';' {
                    return true;
                }
            }
            self.i += 1;
        }
        false
    }

    fn collection(mut self) -> Result<Collection, ParseError> {
        let mut games = Vec::new();
        if !self.find_tree_start() {
            return Err(ParseError::NoGameTree);
        }
        loop {
            games.push(self.game_tree()?);
            self.skip_ws();
            // Further game trees; anything else after the last one is ignored.
            if self.peek() != Some(b'(') || !self.find_tree_start() {
                break;
            }
        }
        Ok(Collection { games, charset: self.charset })
    }

    /// Parses one game tree starting at `(`.
    fn game_tree(&mut self) -> Result<GameTree, ParseError> {
        let mut nodes: Vec<Node> = Vec::new();
        // For each open `(`: its offset, and the node new nodes attach to (None before the root).
        let mut stack: Vec<(usize, Option<usize>)> = Vec::new();
        // The node the next `;` attaches to.
        let mut current: Option<usize> = None;
        loop {
            self.skip_ws();
            let Some(c) = self.peek() else {
                let offset = stack.last().map(|s| s.0).unwrap_or(self.i);
                return Err(ParseError::UnclosedTree { offset });
            };
            match c {
                b'(' => {
                    let open = self.i;
                    self.i += 1;
                    self.skip_ws();
                    if self.peek() != Some(b';') {
                        return Err(ParseError::EmptyTree { offset: open });
                    }
                    stack.push((open, current));
                }
                b')' => {
                    self.i += 1;
                    let (_, parent) = stack.pop().expect("a tree is open while parsing");
                    if stack.is_empty() {
                        return Ok(GameTree { nodes });
                    }
                    current = parent;
                }
                b';' => {
                    if stack.is_empty() {
                        return Err(ParseError::Unexpected { offset: self.i, found: ';', expected: "'('" });
                    }
                    let offset = self.i;
                    self.i += 1;
                    let properties = self.properties()?;
                    let idx = nodes.len();
                    nodes.push(Node { properties, children: Vec::new(), parent: current, offset });
                    // Only the root has no parent: every later `(` opens below an existing node.
                    if let Some(p) = current {
                        nodes[p].children.push(idx);
                    }
                    current = Some(idx);
                }
                other => {
                    return Err(ParseError::Unexpected {
                        offset: self.i,
                        found: other as char,
                        expected: "'(', ';' or ')'",
                    });
                }
            }
        }
    }

    fn properties(&mut self) -> Result<Vec<Property>, ParseError> {
        let mut props = Vec::new();
        loop {
            self.skip_ws();
            let Some(c) = self.peek() else { return Ok(props) };
            if !c.is_ascii_alphabetic() {
                return Ok(props);
            }
            let offset = self.i;
            let mut ident = String::new();
            while let Some(c) = self.peek() {
                if !c.is_ascii_alphabetic() {
                    break;
                }
                if c.is_ascii_uppercase() {
                    ident.push(c as char);
                }
                self.i += 1;
            }
            self.skip_ws();
            let mut values = Vec::new();
            while self.peek() == Some(b'[') {
                values.push(self.value(&ident)?);
                self.skip_ws();
            }
            if values.is_empty() {
                return Err(ParseError::MissingValue { offset, property: ident });
            }
            if ident.is_empty() {
                // An all-lower-case FF[3] identifier names nothing we know; keep it out of the way.
                continue;
            }
            props.push(Property { ident, values, offset });
        }
    }

    /// Reads one `[...]` value, removing escapes and soft line breaks.
    fn value(&mut self, ident: &str) -> Result<String, ParseError> {
        let open = self.i;
        self.i += 1;
        let mut raw = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(ParseError::UnclosedValue { offset: open, property: ident.to_string() });
            };
            match c {
                b']' => {
                    self.i += 1;
                    break;
                }
                b'\\' => {
                    self.i += 1;
                    match self.peek() {
                        None => return Err(ParseError::UnclosedValue { offset: open, property: ident.to_string() }),
                        // Soft line break: `\` before a newline (any of \n, \r, \r\n, \n\r) vanishes.
                        Some(b'\n') | Some(b'\r') => {
                            let first = self.b[self.i];
                            self.i += 1;
                            if let Some(second) = self.peek()
                                && (second == b'\n' || second == b'\r')
                                && second != first
                            {
                                self.i += 1;
                            }
                        }
                        Some(_) => {
                            let n = self.charset.char_len(self.b, self.i);
                            raw.extend_from_slice(&self.b[self.i..(self.i + n).min(self.b.len())]);
                            self.i += n;
                        }
                    }
                }
                _ => {
                    let n = self.charset.char_len(self.b, self.i);
                    raw.extend_from_slice(&self.b[self.i..(self.i + n).min(self.b.len())]);
                    self.i += n;
                }
            }
        }
        Ok(self.charset.decode(&raw))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_variations_escapes_and_soft_breaks() {
        let c = parse_str("(;FF[4]C[a \\] b\\\nc];B[aa](;W[bb];B[cc])(;W[dd]))").unwrap();
        let g = &c.games[0];
        assert_eq!(g.root().value("C"), Some("a ] bc"));
        assert_eq!(g.nodes.len(), 5);
        assert_eq!(g.nodes[1].children.len(), 2);
        let main: Vec<_> = g.main_line().filter_map(|n| n.value("B").or(n.value("W"))).collect();
        assert_eq!(main, vec!["aa", "bb", "cc"]);
    }

    #[test]
    fn errors_name_the_byte_and_the_property() {
        assert_eq!(parse_str("hello"), Err(ParseError::NoGameTree));
        assert_eq!(parse_str("(;KM[7.5"), Err(ParseError::UnclosedValue { offset: 4, property: "KM".into() }));
        assert_eq!(parse_str("(;KM;B[aa])"), Err(ParseError::MissingValue { offset: 2, property: "KM".into() }));
        assert_eq!(parse_str("(;B[aa]"), Err(ParseError::UnclosedTree { offset: 0 }));
        assert!(matches!(parse_str("(;B[aa]%)"), Err(ParseError::Unexpected { offset: 7, found: '%', .. })));
        assert_eq!(parse_str("(;B[aa]x)"), Err(ParseError::MissingValue { offset: 7, property: String::new() }));
        assert_eq!(parse_str("(;B[aa]()"), Err(ParseError::EmptyTree { offset: 7 }));
    }

    #[test]
    fn tolerates_bom_leading_text_lowercase_idents_and_several_games() {
        let c = parse(b"\xef\xbb\xbfsome header\n(;AddBlack[aa]GaMe[1])\n(;SZ[9])trailing").unwrap();
        assert_eq!(c.games.len(), 2);
        assert_eq!(c.games[0].root().value("AB"), Some("aa"));
        assert_eq!(c.games[0].root().value("GM"), Some("1"));
        assert_eq!(c.games[1].root().value("SZ"), Some("9"));
    }

    #[test]
    fn gbk_trail_bytes_do_not_close_values() {
        // "\xb0\x5d" is a GBK character whose trail byte is `]`.
        let c = parse(b"(;CA[GBK]PB[\xb0\x5d\xb0\xd7]SZ[19])").unwrap();
        assert_eq!(c.games[0].root().value("SZ"), Some("19"));
        assert_eq!(c.games[0].root().value("PB").map(|s| s.chars().count()), Some(2));
    }
}
