//! The chat's pure core: who may say what where, and what each reader sees.
//!
//! A game has two rooms. The **players' room** is the two players' (staff may speak there too, and an
//! event may switch it off for its games). The **spectators' room** is everyone else's; the players do
//! not read it, nor write in it, until their game has ended, so kibitzing cannot help them (lichess
//! and OGS keep the two apart the same way). Who the speaker is in this game (seated, staff, muted,
//! the game over) are facts the shell loads from the game and the account on every command; the rules
//! are decided here, once, for the pages and any other caller.
//!
//! Messages are 1–500 characters (control characters other than a line break refused); one speaker
//! may post five in any ten seconds. A reader may report a message; staff hide it (it stays in the log,
//! with who hid it and why) and mute an account (the moderation aggregate, [`Moderation`]).

use std::collections::BTreeSet;

use weiqi_time::Millis;

/// The longest message, in characters.
pub const MAX_LEN: usize = 500;
/// How many messages one speaker may post within [`RATE_WINDOW_MS`].
pub const RATE_COUNT: usize = 5;
/// The rate limit's window.
pub const RATE_WINDOW_MS: i64 = 10_000;
/// The reason a staff member gives, in characters at most.
pub const MAX_REASON: usize = 500;

/// A conversation of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Room {
    /// The two players (and staff).
    Players,
    /// Everyone else (the players read it once the game has ended).
    Spectators,
}

impl Room {
    /// Its name in URLs and forms.
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            Room::Players => "players",
            Room::Spectators => "spectators",
        }
    }

    /// From [`Room::key`].
    #[must_use]
    pub fn parse(s: &str) -> Option<Room> {
        match s {
            "players" => Some(Room::Players),
            "spectators" => Some(Room::Spectators),
            _ => None,
        }
    }
}

/// Who acts, with the facts about them in this game that the rules need.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Speaker {
    /// The account.
    pub id: String,
    /// The shown name.
    pub name: String,
    /// Sits at this game (one of its two players).
    pub seated: bool,
    /// A referee of this game, an organiser of its event or an administrator.
    pub staff: bool,
    /// Muted by staff ([`Moderation`]).
    pub muted: bool,
    /// The game has ended.
    pub game_over: bool,
    /// The players' room is open (an event may switch it off for its games).
    pub players_chat_on: bool,
}

impl Speaker {
    /// Whether this speaker reads `room` now.
    #[must_use]
    pub fn reads(&self, room: Room) -> bool {
        match room {
            Room::Players => self.seated || self.staff,
            // The players read the spectators only after their game.
            Room::Spectators => !self.seated || self.game_over,
        }
    }
}

/// One message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// Its number in this chat, from 1.
    pub id: u64,
    /// Its room.
    pub room: Room,
    /// The author's account.
    pub author: String,
    /// The author's shown name when they wrote.
    pub name: String,
    /// The text, as written (pages show it escaped).
    pub text: String,
    /// Server time.
    pub at: Millis,
    /// Hidden by staff: by whom and why.
    pub hidden: Option<(String, String)>,
    /// Who reported it.
    pub reported_by: BTreeSet<String>,
}

/// A game's chat, folded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chat {
    /// Every message, in order.
    pub messages: Vec<Message>,
}

/// A command on a game's chat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Says `text` in `room`.
    Post {
        /// Where.
        room: Room,
        /// What.
        text: String,
    },
    /// Reports a message to staff.
    Report {
        /// Which.
        id: u64,
    },
    /// Staff: hides a message.
    Hide {
        /// Which.
        id: u64,
        /// Why.
        reason: String,
    },
}

/// What happened in a game's chat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A message was posted.
    Posted(Message),
    /// A reader reported a message.
    Reported {
        /// Which.
        id: u64,
        /// Who.
        by: String,
    },
    /// Staff hid a message.
    Hidden {
        /// Which.
        id: u64,
        /// Who.
        by: String,
        /// Why.
        reason: String,
    },
}

/// Why a chat command is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    /// Empty, or only spaces.
    #[error("the message is empty")]
    Empty,
    /// Longer than [`MAX_LEN`].
    #[error("the message is longer than {MAX_LEN} characters")]
    TooLong,
    /// A control character other than a line break.
    #[error("the message holds a control character")]
    ControlCharacter,
    /// More than [`RATE_COUNT`] messages in [`RATE_WINDOW_MS`].
    #[error("too many messages: wait a few seconds")]
    TooFast,
    /// Muted by staff.
    #[error("you are muted in chat")]
    Muted,
    /// Not a player of this game (the players' room).
    #[error("only the players of this game speak in the players' chat")]
    NotAPlayer,
    /// The event switched the players' chat off.
    #[error("the players' chat is off in this event")]
    PlayersChatOff,
    /// A player of a game in play (the spectators' room).
    #[error("players join the spectators' chat when their game has ended")]
    PlayerInPlay,
    /// No such message (or one the reader cannot see).
    #[error("no such message")]
    NoSuchMessage,
    /// Staff only.
    #[error("only staff hide messages")]
    NotStaff,
    /// Already hidden.
    #[error("the message is hidden already")]
    AlreadyHidden,
    /// Already reported by this reader.
    #[error("you reported this message already")]
    AlreadyReported,
    /// A reason too long.
    #[error("the reason is longer than {MAX_REASON} characters")]
    ReasonTooLong,
    /// A decision that does not fold (a bug).
    #[error("inconsistent decision: {0}")]
    Inconsistent(String),
}

impl Rejection {
    /// A stable code for clients (`refusal-chat-…` in the pages' catalogue).
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Rejection::Empty => "chat_empty",
            Rejection::TooLong => "chat_too_long",
            Rejection::ControlCharacter => "chat_control_character",
            Rejection::TooFast => "chat_too_fast",
            Rejection::Muted => "chat_muted",
            Rejection::NotAPlayer => "chat_not_a_player",
            Rejection::PlayersChatOff => "chat_players_off",
            Rejection::PlayerInPlay => "chat_player_in_play",
            Rejection::NoSuchMessage => "chat_no_such_message",
            Rejection::NotStaff => "chat_not_staff",
            Rejection::AlreadyHidden => "chat_already_hidden",
            Rejection::AlreadyReported => "chat_already_reported",
            Rejection::ReasonTooLong => "chat_reason_too_long",
            Rejection::Inconsistent(_) => "inconsistent",
        }
    }
}

fn may_post(who: &Speaker, room: Room) -> Result<(), Rejection> {
    if who.muted {
        return Err(Rejection::Muted);
    }
    match room {
        Room::Players if who.staff => Ok(()),
        Room::Players if !who.seated => Err(Rejection::NotAPlayer),
        Room::Players if !who.players_chat_on => Err(Rejection::PlayersChatOff),
        Room::Players => Ok(()),
        Room::Spectators if who.seated && !who.game_over => Err(Rejection::PlayerInPlay),
        Room::Spectators => Ok(()),
    }
}

fn check_text(text: &str) -> Result<String, Rejection> {
    let text = text.trim();
    if text.is_empty() {
        return Err(Rejection::Empty);
    }
    if text.chars().count() > MAX_LEN {
        return Err(Rejection::TooLong);
    }
    if text.chars().any(|c| c.is_control() && c != '\n') {
        return Err(Rejection::ControlCharacter);
    }
    Ok(text.to_string())
}

/// Decides a command by `who` at `now`.
///
/// # Errors
/// [`Rejection`].
pub fn decide(chat: &Chat, who: &Speaker, command: &Command, now: Millis) -> Result<Vec<Event>, Rejection> {
    match command {
        Command::Post { room, text } => {
            may_post(who, *room)?;
            let text = check_text(text)?;
            let recent = chat
                .messages
                .iter()
                .rev()
                .take_while(|m| now.0 - m.at.0 < RATE_WINDOW_MS)
                .filter(|m| m.author == who.id)
                .count();
            if recent >= RATE_COUNT {
                return Err(Rejection::TooFast);
            }
            let id = chat.messages.len() as u64 + 1;
            Ok(vec![Event::Posted(Message {
                id,
                room: *room,
                author: who.id.clone(),
                name: who.name.clone(),
                text,
                at: now,
                hidden: None,
                reported_by: BTreeSet::new(),
            })])
        }
        Command::Report { id } => {
            let m = chat.message(*id).filter(|m| who.reads(m.room)).ok_or(Rejection::NoSuchMessage)?;
            if m.reported_by.contains(&who.id) {
                return Err(Rejection::AlreadyReported);
            }
            Ok(vec![Event::Reported { id: *id, by: who.id.clone() }])
        }
        Command::Hide { id, reason } => {
            if !who.staff {
                return Err(Rejection::NotStaff);
            }
            if reason.chars().count() > MAX_REASON {
                return Err(Rejection::ReasonTooLong);
            }
            let m = chat.message(*id).ok_or(Rejection::NoSuchMessage)?;
            if m.hidden.is_some() {
                return Err(Rejection::AlreadyHidden);
            }
            Ok(vec![Event::Hidden { id: *id, by: who.id.clone(), reason: reason.trim().to_string() }])
        }
    }
}

/// Folds an event.
///
/// # Errors
/// An event about a message the chat does not have, or out of order.
pub fn evolve(chat: &mut Chat, event: &Event) -> Result<(), String> {
    match event {
        Event::Posted(m) => {
            if m.id != chat.messages.len() as u64 + 1 {
                return Err(format!("message {} after {}", m.id, chat.messages.len()));
            }
            chat.messages.push(m.clone());
        }
        Event::Reported { id, by } => {
            chat.message_mut(*id).ok_or_else(|| format!("no message {id}"))?.reported_by.insert(by.clone());
        }
        Event::Hidden { id, by, reason } => {
            chat.message_mut(*id).ok_or_else(|| format!("no message {id}"))?.hidden =
                Some((by.clone(), reason.clone()));
        }
    }
    Ok(())
}

impl Chat {
    /// Message `id`.
    #[must_use]
    pub fn message(&self, id: u64) -> Option<&Message> {
        usize::try_from(id).ok().and_then(|i| i.checked_sub(1)).and_then(|i| self.messages.get(i))
    }

    fn message_mut(&mut self, id: u64) -> Option<&mut Message> {
        usize::try_from(id).ok().and_then(|i| i.checked_sub(1)).and_then(|i| self.messages.get_mut(i))
    }

    /// The messages of `room` that `reader` sees, oldest first, the last `limit`: nothing of a room
    /// they do not read; hidden messages only for staff (who see them marked).
    #[must_use]
    pub fn visible<'a>(&'a self, reader: &Speaker, room: Room, limit: usize) -> Vec<&'a Message> {
        if !reader.reads(room) {
            return Vec::new();
        }
        let list: Vec<&Message> =
            self.messages.iter().filter(|m| m.room == room && (m.hidden.is_none() || reader.staff)).collect();
        let skip = list.len().saturating_sub(limit);
        list.into_iter().skip(skip).collect()
    }

    /// Messages reported and not hidden: what staff should look at.
    #[must_use]
    pub fn reported(&self) -> Vec<&Message> {
        self.messages.iter().filter(|m| !m.reported_by.is_empty() && m.hidden.is_none()).collect()
    }
}

/// The chat's moderation (one aggregate, id [`MODERATION`]): the muted accounts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Moderation {
    /// Muted accounts, with who muted them and why.
    pub muted: std::collections::BTreeMap<String, (String, String)>,
    /// Events whose players' rooms are switched off, with who switched them off.
    pub players_chat_off: std::collections::BTreeMap<String, String>,
}

impl Moderation {
    /// Whether the players of a game of `event` (`None`: a casual game) may talk in their room.
    #[must_use]
    pub fn players_chat_on(&self, event: Option<&str>) -> bool {
        event.is_none_or(|e| !self.players_chat_off.contains_key(e))
    }
}

/// The moderation aggregate's id.
pub const MODERATION: &str = "moderation";

/// A moderation command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModerationCommand {
    /// Mutes an account in every chat.
    Mute {
        /// Whom.
        account: String,
        /// Why.
        reason: String,
    },
    /// Lets them speak again.
    Unmute {
        /// Whom.
        account: String,
    },
    /// Switches the players' room of every game of an event off or on (the event's staff: the
    /// shell makes the speaker staff only for an event they organise or referee).
    SwitchPlayersChat {
        /// The event.
        event: String,
        /// On again, or off.
        on: bool,
    },
}

/// What happened to the moderation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModerationEvent {
    /// Muted.
    Muted {
        /// Whom.
        account: String,
        /// By whom.
        by: String,
        /// Why.
        reason: String,
    },
    /// Unmuted.
    Unmuted {
        /// Whom.
        account: String,
        /// By whom.
        by: String,
    },
    /// An event's players' rooms switched.
    PlayersChatSwitched {
        /// The event.
        event: String,
        /// On again, or off.
        on: bool,
        /// By whom.
        by: String,
    },
}

/// Why a moderation command is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModerationRejection {
    /// Staff only.
    #[error("only staff mute accounts")]
    NotStaff,
    /// Muted already, or not muted.
    #[error("nothing to change")]
    Unchanged,
    /// A reason is required, and not too long.
    #[error("give a reason of at most {MAX_REASON} characters")]
    Reason,
    /// A decision that does not fold (a bug).
    #[error("inconsistent decision: {0}")]
    Inconsistent(String),
}

impl ModerationRejection {
    /// A stable code for clients.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            ModerationRejection::NotStaff => "chat_not_staff",
            ModerationRejection::Unchanged => "chat_unchanged",
            ModerationRejection::Reason => "chat_reason",
            ModerationRejection::Inconsistent(_) => "inconsistent",
        }
    }
}

/// Decides a moderation command by `who` (only staff).
///
/// # Errors
/// [`ModerationRejection`].
pub fn moderate(
    state: &Moderation,
    who: &Speaker,
    command: &ModerationCommand,
) -> Result<Vec<ModerationEvent>, ModerationRejection> {
    if !who.staff {
        return Err(ModerationRejection::NotStaff);
    }
    match command {
        ModerationCommand::Mute { account, reason } => {
            let reason = reason.trim();
            if reason.is_empty() || reason.chars().count() > MAX_REASON {
                return Err(ModerationRejection::Reason);
            }
            if state.muted.contains_key(account) {
                return Err(ModerationRejection::Unchanged);
            }
            Ok(vec![ModerationEvent::Muted {
                account: account.clone(),
                by: who.id.clone(),
                reason: reason.to_string(),
            }])
        }
        ModerationCommand::Unmute { account } => {
            if !state.muted.contains_key(account) {
                return Err(ModerationRejection::Unchanged);
            }
            Ok(vec![ModerationEvent::Unmuted { account: account.clone(), by: who.id.clone() }])
        }
        ModerationCommand::SwitchPlayersChat { event, on } => {
            if event.trim().is_empty() || state.players_chat_on(Some(event)) == *on {
                return Err(ModerationRejection::Unchanged);
            }
            Ok(vec![ModerationEvent::PlayersChatSwitched { event: event.clone(), on: *on, by: who.id.clone() }])
        }
    }
}

/// Folds a moderation event.
pub fn evolve_moderation(state: &mut Moderation, event: &ModerationEvent) {
    match event {
        ModerationEvent::Muted { account, by, reason } => {
            state.muted.insert(account.clone(), (by.clone(), reason.clone()));
        }
        ModerationEvent::Unmuted { account, .. } => {
            state.muted.remove(account);
        }
        ModerationEvent::PlayersChatSwitched { event, on: false, by } => {
            state.players_chat_off.insert(event.clone(), by.clone());
        }
        ModerationEvent::PlayersChatSwitched { event, on: true, .. } => {
            state.players_chat_off.remove(event);
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn player(id: &str) -> Speaker {
        Speaker { id: id.into(), name: id.into(), seated: true, players_chat_on: true, ..Speaker::default() }
    }
    fn spectator(id: &str) -> Speaker {
        Speaker { id: id.into(), name: id.into(), players_chat_on: true, ..Speaker::default() }
    }
    fn staff(id: &str) -> Speaker {
        Speaker { staff: true, ..spectator(id) }
    }
    fn post(chat: &mut Chat, who: &Speaker, room: Room, text: &str, at: i64) -> Result<(), Rejection> {
        let events = decide(chat, who, &Command::Post { room, text: text.into() }, Millis(at))?;
        for e in &events {
            evolve(chat, e).unwrap();
        }
        Ok(())
    }

    /// Who may write where, and who reads what.
    ///
    /// ```text
    ///                         players' room        spectators' room
    ///   player, in play       writes, reads        —
    ///   player, game over     writes, reads        writes, reads
    ///   spectator             —                    writes, reads
    ///   staff                 writes, reads        writes, reads
    ///   muted anyone          reads only           reads only
    /// ```
    #[test]
    fn the_rooms_are_kept_apart_until_the_game_ends() {
        let mut chat = Chat::default();
        let (li, zhao, referee) = (player("li"), spectator("zhao"), staff("ref"));
        post(&mut chat, &li, Room::Players, "good game", 1).unwrap();
        post(&mut chat, &zhao, Room::Spectators, "Black is winning", 2).unwrap();
        assert_eq!(post(&mut chat, &zhao, Room::Players, "hi", 3), Err(Rejection::NotAPlayer));
        assert_eq!(post(&mut chat, &li, Room::Spectators, "hi", 4), Err(Rejection::PlayerInPlay));
        post(&mut chat, &referee, Room::Players, "please keep it short", 5).unwrap();
        assert!(chat.visible(&li, Room::Spectators, 100).is_empty(), "a player in play reads no kibitzing");
        assert!(chat.visible(&zhao, Room::Players, 100).is_empty(), "a spectator reads no players' chat");
        assert_eq!(chat.visible(&li, Room::Players, 100).len(), 2);
        let over = Speaker { game_over: true, ..li.clone() };
        assert_eq!(chat.visible(&over, Room::Spectators, 100).len(), 1, "after the game, the players read it");
        post(&mut chat, &over, Room::Spectators, "thanks all", 6).unwrap();
        let muted = Speaker { muted: true, ..zhao.clone() };
        assert_eq!(post(&mut chat, &muted, Room::Spectators, "again", 7), Err(Rejection::Muted));
        let off = Speaker { players_chat_on: false, ..li };
        assert_eq!(post(&mut chat, &off, Room::Players, "hi", 8), Err(Rejection::PlayersChatOff));
    }

    #[test]
    fn messages_are_checked_and_limited_in_rate() {
        let mut chat = Chat::default();
        let zhao = spectator("zhao");
        assert_eq!(post(&mut chat, &zhao, Room::Spectators, "   ", 0), Err(Rejection::Empty));
        assert_eq!(post(&mut chat, &zhao, Room::Spectators, &"围".repeat(501), 0), Err(Rejection::TooLong));
        post(&mut chat, &zhao, Room::Spectators, &"围".repeat(500), 0).unwrap();
        assert_eq!(post(&mut chat, &zhao, Room::Spectators, "a\u{7}b", 0), Err(Rejection::ControlCharacter));
        for i in 1..5 {
            post(&mut chat, &zhao, Room::Spectators, "x", i).unwrap();
        }
        assert_eq!(post(&mut chat, &zhao, Room::Spectators, "x", 5), Err(Rejection::TooFast));
        post(&mut chat, &spectator("wu"), Room::Spectators, "others may speak", 5).unwrap();
        post(&mut chat, &zhao, Room::Spectators, "later", 10_001).unwrap();
    }

    #[test]
    fn a_reader_reports_and_staff_hide_and_mute() {
        let mut chat = Chat::default();
        let (zhao, wu, referee) = (spectator("zhao"), spectator("wu"), staff("ref"));
        post(&mut chat, &zhao, Room::Spectators, "rude", 1).unwrap();
        let reported = decide(&chat, &wu, &Command::Report { id: 1 }, Millis(2)).unwrap();
        evolve(&mut chat, &reported[0]).unwrap();
        assert_eq!(decide(&chat, &wu, &Command::Report { id: 1 }, Millis(3)), Err(Rejection::AlreadyReported));
        assert_eq!(chat.reported().len(), 1);
        assert_eq!(decide(&chat, &player("li"), &Command::Report { id: 1 }, Millis(3)), Err(Rejection::NoSuchMessage));
        let hide = Command::Hide { id: 1, reason: "insult".into() };
        assert_eq!(decide(&chat, &wu, &hide, Millis(4)), Err(Rejection::NotStaff));
        let hidden = decide(&chat, &referee, &hide, Millis(4)).unwrap();
        evolve(&mut chat, &hidden[0]).unwrap();
        assert!(chat.visible(&wu, Room::Spectators, 10).is_empty(), "hidden from readers");
        assert_eq!(chat.visible(&referee, Room::Spectators, 10).len(), 1, "staff still see it");
        let mut m = Moderation::default();
        let mute = ModerationCommand::Mute { account: "zhao".into(), reason: "insults".into() };
        assert_eq!(moderate(&m, &wu, &mute), Err(ModerationRejection::NotStaff));
        for e in moderate(&m, &referee, &mute).unwrap() {
            evolve_moderation(&mut m, &e);
        }
        assert!(m.muted.contains_key("zhao"));
        assert_eq!(moderate(&m, &referee, &mute), Err(ModerationRejection::Unchanged));
    }

    /// Given: the event `city-open`. When: its staff switch the players' rooms off. Then: its games'
    /// players' rooms are off, a casual game's and another event's are not; a player cannot switch it;
    /// switching it off twice changes nothing; on again, the rooms are open.
    #[test]
    fn an_events_staff_switch_its_players_chat_off_and_on() {
        let mut m = Moderation::default();
        let off = ModerationCommand::SwitchPlayersChat { event: "city-open".into(), on: false };
        assert_eq!(moderate(&m, &player("li"), &off), Err(ModerationRejection::NotStaff));
        for e in moderate(&m, &staff("org"), &off).unwrap() {
            evolve_moderation(&mut m, &e);
        }
        assert!(!m.players_chat_on(Some("city-open")));
        assert!(m.players_chat_on(Some("national")) && m.players_chat_on(None));
        assert_eq!(moderate(&m, &staff("org"), &off), Err(ModerationRejection::Unchanged));
        let on = ModerationCommand::SwitchPlayersChat { event: "city-open".into(), on: true };
        for e in moderate(&m, &staff("org"), &on).unwrap() {
            evolve_moderation(&mut m, &e);
        }
        assert!(m.players_chat_on(Some("city-open")));
    }

    proptest! {
        /// Every command decide accepts folds, and message numbers follow one another.
        #[test]
        fn every_accepted_command_folds(steps in proptest::collection::vec((0u8..4, 0u8..3, 0u64..6, "[a-z ]{0,8}"), 0..40)) {
            let mut chat = Chat::default();
            let people = [player("li"), spectator("zhao"), staff("ref")];
            for (i, (kind, who, id, text)) in steps.into_iter().enumerate() {
                let who = &people[usize::from(who)];
                let command = match kind {
                    0 => Command::Post { room: Room::Players, text },
                    1 => Command::Post { room: Room::Spectators, text },
                    2 => Command::Report { id },
                    _ => Command::Hide { id, reason: text },
                };
                if let Ok(events) = decide(&chat, who, &command, Millis(i as i64 * 700)) {
                    for e in &events {
                        prop_assert!(evolve(&mut chat, e).is_ok());
                    }
                }
            }
            for (i, m) in chat.messages.iter().enumerate() {
                prop_assert_eq!(m.id, i as u64 + 1);
            }
        }
    }
}
