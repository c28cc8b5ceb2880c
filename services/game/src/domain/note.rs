//! The game's notes: the referee's rulings and the turns of play a reader of the game must be told
//! about (issue 32 items 5 and 8): a warning and its reason, a pause and why, a void move on its
//! ground (Art. 17.2, 18.3, 19) and the turn it forfeits, a disputed count and who moves first when
//! play resumes (Art. 21.4), a corrected clock, swapped colors.
//!
//! Notes are folded from the game's own events (one fact, one place): both players' pages show them,
//! and the SGF record writes each as a comment on the node it follows, so that a record reading
//! "W[] W[]" says why White moved twice.

use weiqi_rules::{Color, Move};

use super::event::VoidGround;

/// One note, where it falls in the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// Actions on the board when it happened (the SGF node it follows; 0: before the first move).
    pub actions: usize,
    /// The move number then.
    pub move_number: u32,
    /// What happened.
    pub kind: NoteKind,
    /// The referee's reason, as written (empty when none was given).
    pub reason: String,
}

/// What a note says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoteKind {
    /// A warning (Art. 24): the side and its count in this game.
    Warning {
        /// Warned side.
        color: Color,
        /// Its warnings, this one included.
        count: u32,
    },
    /// The clocks stopped (Art. 14).
    Paused,
    /// Play went on after a pause or an adjournment.
    Resumed,
    /// A move was void: its number, the move, on which ground; the side does not play again at once.
    Voided {
        /// Whose move.
        color: Color,
        /// The move's number.
        number: u32,
        /// The move.
        mv: Move,
        /// The ruling's article.
        ground: VoidGround,
        /// The server refused it by itself (a rule set that voids illegal moves); else a referee ruled.
        refused: bool,
    },
    /// A side disputed the count.
    Disputed {
        /// Who.
        by: Color,
    },
    /// Play resumed after a dispute: the side claiming the stones dead moves first (Art. 21.4).
    PlayResumed {
        /// Who moves first.
        first: Color,
    },
    /// A referee set the clocks.
    ClockCorrected,
    /// The colors were swapped (Art. 17.1).
    ColorsSwapped,
}

impl Note {
    /// The note in English, as the SGF record writes it (the pages say it in the reader's language);
    /// points as GTP names on a board of `size` ("G7").
    #[must_use]
    pub fn english(&self, size: u8) -> String {
        let side = |c: Color| if c == Color::Black { "Black" } else { "White" };
        let mut text = match &self.kind {
            NoteKind::Warning { color, count } => format!("Referee: warning {count} to {}", side(*color)),
            NoteKind::Paused => "Referee: the game is paused".to_string(),
            NoteKind::Resumed => "Referee: play resumes".to_string(),
            NoteKind::Voided { color, number, mv, ground, refused } => {
                let at = match mv {
                    Move::Play(p) => format!(" at {}", p.to_gtp(size)),
                    Move::Pass => String::new(),
                };
                let by = if *refused { "refused" } else { "voided by the referee" };
                let article = ground.article().map(|a| format!(" (Art. {a})")).unwrap_or_default();
                let then = if ground.forfeits() {
                    format!("{} forfeits the turn", side(*color))
                } else {
                    format!("{} is to play", side(color.opponent()))
                };
                format!("{}'s move {number}{at} {by}{article}: {then}", side(*color))
            }
            NoteKind::Disputed { by } => format!("{} disputes the count", side(*by)),
            NoteKind::PlayResumed { first } => {
                format!("Play resumes: {} claims stones dead and moves first (Art. 21.4)", side(*first))
            }
            NoteKind::ClockCorrected => "Referee: the clocks are corrected".to_string(),
            NoteKind::ColorsSwapped => "Referee: the colors are swapped (Art. 17.1)".to_string(),
        };
        if !self.reason.is_empty() {
            text.push_str(&format!(". Reason: {}", self.reason));
        }
        text
    }
}
