//! The GTP version 2 command line: preprocessing (section 3.1 of the specification) and splitting
//! into an optional id, a command name and arguments. Pure: no engine state.

/// One GTP command as sent by the controller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The optional identity number, echoed in the response (`=12`, `?12`).
    pub id: Option<u64>,
    /// The command name, as sent (GTP command names are case sensitive).
    pub name: String,
    /// The arguments, split on spaces.
    pub args: Vec<String>,
}

impl Command {
    /// The `n`-th argument, if present.
    pub fn arg(&self, n: usize) -> Option<&str> {
        self.args.get(n).map(String::as_str)
    }
}

/// Applies the GTP preprocessing rules to one line: removes control characters other than HT and
/// LF (CR included), cuts everything from `#` on, and turns HT into a space.
pub fn preprocess(line: &str) -> String {
    let line = line.split('#').next().unwrap_or("");
    line.chars()
        .filter(|&c| !c.is_control() || c == '\t' || c == '\n')
        .map(|c| if c == '\t' || c == '\n' { ' ' } else { c })
        .collect()
}

/// Parses one input line. Returns `None` for lines the protocol says to ignore: empty, white space
/// only, comment only, or (as GNU Go does) an id with no command name.
///
/// The id is a leading token of decimal digits that fits in a `u64`; any other first token is the
/// command name.
pub fn parse_line(line: &str) -> Option<Command> {
    let clean = preprocess(line);
    let mut tokens = clean.split(' ').filter(|t| !t.is_empty());
    let first = tokens.next()?;
    let (id, name) = match first.bytes().all(|b| b.is_ascii_digit()).then(|| first.parse::<u64>().ok()).flatten() {
        Some(id) => (Some(id), tokens.next()?),
        None => (None, first),
    };
    Some(Command { id, name: name.to_string(), args: tokens.map(str::to_string).collect() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(id: Option<u64>, name: &str, args: &[&str]) -> Option<Command> {
        Some(Command { id, name: name.to_string(), args: args.iter().map(|s| s.to_string()).collect() })
    }

    #[test]
    fn lines_are_split_as_the_specification_says() {
        let table: &[(&str, Option<Command>)] = &[
            ("name", cmd(None, "name", &[])),
            ("name\n", cmd(None, "name", &[])),
            ("name\r\n", cmd(None, "name", &[])),
            ("12 name", cmd(Some(12), "name", &[])),
            ("  7   play   black  D4  ", cmd(Some(7), "play", &["black", "D4"])),
            ("play\tblack\tD4", cmd(None, "play", &["black", "D4"])),
            ("na\u{1}me", cmd(None, "name", &[])),
            ("name # a comment", cmd(None, "name", &[])),
            ("# only a comment", None),
            ("", None),
            ("   \t  ", None),
            ("\r\n", None),
            ("12", None),
            ("12 # comment", None),
            ("0 name", cmd(Some(0), "name", &[])),
            ("-3 name", cmd(None, "-3", &["name"])),
            ("99999999999999999999999 name", cmd(None, "99999999999999999999999", &["name"])),
            ("12abc name", cmd(None, "12abc", &["name"])),
            ("komi 6.5", cmd(None, "komi", &["6.5"])),
        ];
        for (line, expected) in table {
            assert_eq!(&parse_line(line), expected, "{line:?}");
        }
    }

    #[test]
    fn preprocessing_removes_controls_and_comments() {
        assert_eq!(preprocess("a\u{7f}b\u{0}c\td#e"), "abc d");
        assert_eq!(preprocess("\u{1b}[31mname"), "[31mname");
    }
}
