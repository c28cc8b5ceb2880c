//! The EGD's rating list (`allworld_lp.html`, the European Go Database's download "List of WORLD
//! Players"), read so an association moving to the platform keeps its players' GoR (issue 15 item 9).
//!
//! The list is an HTML page whose table is fixed-width text inside `<pre>`: a date line
//! `(29 Nov 2018)`, then one line per player
//!
//! ```text
//!  13633719  Aagren Thomas                         SE  Upp     6k   --   1484     1  T040529C
//! ```
//!
//! PIN (8 digits), `Surname Given` (spaces inside a part written `_`), country, club, grade (20k–1k,
//! 1d–7d, 1p–9p), the suggested promotion or demotion (`--` or a grade), GoR, the number of
//! tournaments and the last appearance's tournament code. The reader goes by tokens from both ends
//! (as pairgoth does) rather than by column, so a name longer than its field or a club of other width
//! still reads; placeholder rows (`(undefined)`, `_ _`) are skipped.

use crate::CivilDate;

/// One player of the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EgdRated {
    /// EGD PIN.
    pub pin: u64,
    /// Surname (underscores back to spaces).
    pub surname: String,
    /// Given name.
    pub given: String,
    /// Country code.
    pub country: String,
    /// Club.
    pub club: String,
    /// Grade as written (`6k`, `2d`, `1p`).
    pub grade: String,
    /// GoR.
    pub gor: i32,
    /// Tournaments played.
    pub tournaments: u32,
}

/// A read rating list.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct EgdRatingList {
    /// The list's date, when given.
    pub date: Option<CivilDate>,
    /// Players in list order.
    pub players: Vec<EgdRated>,
}

/// Why a list could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EgdListError {
    /// A line starting with a PIN does not have the columns after the name.
    #[error(
        "line {line}: a player line needs PIN, name, country, club, grade, P&D, GoR, tournaments and last appearance"
    )]
    Short {
        /// The line (1-based).
        line: usize,
    },
    /// A column that must be a number is not.
    #[error("line {line}: {field} {value:?} is not a number")]
    NotANumber {
        /// The line.
        line: usize,
        /// Which column.
        field: &'static str,
        /// The text.
        value: String,
    },
    /// No player line at all.
    #[error("no player lines: not an EGD rating list")]
    Empty,
}

fn is_grade(s: &str) -> bool {
    // The last character split off as a character, never a byte (a name ending in 段 once panicked).
    let Some(k) = s.chars().last() else { return false };
    let n = &s[..s.len() - k.len_utf8()];
    !n.is_empty() && n.len() <= 2 && n.bytes().all(|b| b.is_ascii_digit()) && matches!(k, 'k' | 'd' | 'p')
}

fn month(name: &str) -> Option<u8> {
    let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
    months.iter().position(|m| name.to_ascii_lowercase().starts_with(m)).map(|i| i as u8 + 1)
}

/// Reads the list (the page as downloaded, or just its `<pre>` text).
///
/// # Errors
/// [`EgdListError`]: a player line cut short, a number that does not read, or no players.
pub fn parse_egd_rating_list(text: &str) -> Result<EgdRatingList, EgdListError> {
    let mut list = EgdRatingList::default();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if list.date.is_none()
            && let Some(inner) = trimmed.strip_prefix('(').and_then(|r| r.strip_suffix(')'))
        {
            let parts: Vec<&str> = inner.split_whitespace().collect();
            if let [d, m, y] = parts[..]
                && let (Ok(day), Some(month), Ok(year)) = (d.parse::<u8>(), month(m), y.parse::<i32>())
            {
                list.date = Some(CivilDate { year, month, day });
            }
            continue;
        }
        let tokens: Vec<&str> = trimmed.split_whitespace().collect();
        let Some(first) = tokens.first() else { continue };
        if first.len() != 8 || !first.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        if tokens.len() < 9 {
            return Err(EgdListError::Short { line });
        }
        let n = tokens.len();
        let (country, club, grade, promotion, gor, nt) =
            (tokens[n - 7], tokens[n - 6], tokens[n - 5], tokens[n - 4], tokens[n - 3], tokens[n - 2]);
        if !is_grade(grade) || !(promotion == "--" || is_grade(promotion)) {
            return Err(EgdListError::Short { line });
        }
        let number = |field: &'static str, value: &str| EgdListError::NotANumber { line, field, value: value.into() };
        let pin = first.parse::<u64>().map_err(|_| number("PIN", first))?;
        let gor = gor.parse::<i32>().map_err(|_| number("GoR", gor))?;
        let tournaments = nt.parse::<u32>().map_err(|_| number("NT", nt))?;
        let name = &tokens[1..n - 7];
        let surname = name.first().map(|s| s.replace('_', " ")).unwrap_or_default();
        let given = name.get(1..).unwrap_or_default().iter().map(|s| s.replace('_', " ")).collect::<Vec<_>>().join(" ");
        if surname.trim().is_empty() || surname.starts_with("(undefined)") || surname == "Anonymous" {
            continue;
        }
        list.players.push(EgdRated {
            pin,
            surname,
            given,
            country: country.to_string(),
            club: club.to_string(),
            grade: grade.to_string(),
            gor,
            tournaments,
        });
    }
    if list.players.is_empty() {
        return Err(EgdListError::Empty);
    }
    Ok(list)
}
