//! A GTP response and its wire form.

use std::fmt;

use crate::error::CommandError;

/// The answer to one command: success with a (possibly empty, possibly multi-line) result, or a
/// failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// The id of the command answered, echoed after `=` or `?`.
    pub id: Option<u64>,
    /// The result text, or why the command failed.
    pub result: Result<String, CommandError>,
}

impl Response {
    /// Whether the command succeeded.
    pub fn is_success(&self) -> bool {
        self.result.is_ok()
    }

    /// The response as sent on the wire, exactly as GNU Go formats it: `=` or `?`, the id if any, one
    /// space, the text, and an empty line (`"= 1\n\n"`, `"?3 illegal move\n\n"`, `"= \n\n"`).
    ///
    /// GTP ends a response at its first empty line, so empty lines inside the text are dropped and
    /// trailing newlines trimmed.
    pub fn to_wire(&self) -> String {
        let (mark, text) = match &self.result {
            Ok(text) => ('=', text.clone()),
            Err(e) => ('?', e.to_string()),
        };
        let mut out = String::with_capacity(text.len() + 8);
        out.push(mark);
        if let Some(id) = self.id {
            out.push_str(&id.to_string());
        }
        out.push(' ');
        let text = text.trim_end_matches(['\n', '\r']);
        let mut previous_newline = false;
        for c in text.chars() {
            if c == '\n' && previous_newline {
                continue;
            }
            previous_newline = c == '\n';
            out.push(c);
        }
        out.push_str("\n\n");
        out
    }
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_wire())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_form_matches_gnu_go() {
        let table = [
            (Response { id: None, result: Ok(String::new()) }, "= \n\n"),
            (Response { id: Some(12), result: Ok("1".into()) }, "=12 1\n\n"),
            (Response { id: None, result: Err(CommandError::UnknownCommand) }, "? unknown command\n\n"),
            (
                Response { id: Some(0), result: Err(CommandError::IllegalMove(weiqi_rules::Illegal::Ko)) },
                "?0 illegal move\n\n",
            ),
            (Response { id: None, result: Ok("\n a\n\n b\n\n".into()) }, "= \n a\n b\n\n"),
        ];
        for (response, wire) in table {
            assert_eq!(response.to_wire(), wire);
        }
    }
}
