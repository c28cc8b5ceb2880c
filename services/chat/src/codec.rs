//! The chat's log codec (an edge: the one file of this crate that names protobuf) and its two
//! aggregates on the one runner: [`ChatAggregate`] (a game's chat) and [`ModerationAggregate`].

use prost::Message as _;
use weiqi_aggregate::{Aggregate, Context, EventMeta};
use weiqi_eventlog::{AggregateKind, NewEvent, RecordedEvent};
use weiqi_proto::v1 as pb;
use weiqi_time::Millis;

use crate::domain::{
    Chat, Command, Event, Message, Moderation, ModerationCommand, ModerationEvent, ModerationRejection, Rejection,
    Room, Speaker,
};

/// The event type chat events are stored under.
pub const CHAT_EVENT: &str = "weiqi.v1.ChatEnvelope";

fn room_to_pb(r: Room) -> i32 {
    (match r {
        Room::Players => pb::ChatRoom::Players,
        Room::Spectators => pb::ChatRoom::Spectators,
    }) as i32
}

fn room_from_pb(r: i32) -> Result<Room, String> {
    match pb::ChatRoom::try_from(r) {
        Ok(pb::ChatRoom::Players) => Ok(Room::Players),
        Ok(pb::ChatRoom::Spectators) => Ok(Room::Spectators),
        _ => Err(format!("{r} is not a room")),
    }
}

fn envelope(kind: pb::chat_envelope::Kind, meta_id: &str, at: Millis, actor: &str) -> NewEvent {
    let e = pb::ChatEnvelope { event_id: meta_id.to_string(), at_ms: at.0, actor: actor.to_string(), kind: Some(kind) };
    NewEvent::new(CHAT_EVENT, e.encode_to_vec())
}

fn open(recorded: &RecordedEvent) -> Result<pb::chat_envelope::Kind, String> {
    if recorded.event_type != CHAT_EVENT {
        return Err(format!("sequence {}: {} is not a chat event", recorded.sequence, recorded.event_type));
    }
    let e = pb::ChatEnvelope::decode(recorded.payload.clone())
        .map_err(|e| format!("sequence {}: {e}", recorded.sequence))?;
    e.kind.ok_or_else(|| format!("sequence {}: a chat event without a kind", recorded.sequence))
}

/// A game's chat as a runner aggregate (kind `chat`, id = the game's id).
pub struct ChatAggregate;

impl Aggregate for ChatAggregate {
    const KIND: AggregateKind = AggregateKind::Chat;
    const NAME: &'static str = "chat";
    type State = Chat;
    type Actor = Speaker;
    type Command = Command;
    type Event = Event;
    type Stored = Event;
    type Rejection = Rejection;

    fn decide(state: &Chat, actor: &Speaker, command: &Command, ctx: &Context<'_>) -> Result<Vec<Event>, Rejection> {
        crate::domain::decide(state, actor, command, ctx.now)
    }

    fn evolve(state: &mut Chat, event: &Event) -> Result<(), String> {
        crate::domain::evolve(state, event)
    }

    fn inconsistent(reason: String) -> Rejection {
        Rejection::Inconsistent(reason)
    }

    fn encode(event: &Event, meta: &EventMeta<'_, Self>) -> (NewEvent, Event) {
        use pb::chat_envelope::Kind;
        let kind = match event {
            Event::Posted(m) => Kind::Posted(pb::ChatMessagePosted {
                id: m.id,
                room: room_to_pb(m.room),
                author: m.author.clone(),
                name: m.name.clone(),
                text: m.text.clone(),
                at_ms: m.at.0,
            }),
            Event::Reported { id, by } => Kind::Reported(pb::ChatMessageReported { id: *id, by: by.clone() }),
            Event::Hidden { id, by, reason } => {
                Kind::Hidden(pb::ChatMessageHidden { id: *id, by: by.clone(), reason: reason.clone() })
            }
        };
        (envelope(kind, &meta.event_id, meta.at, &meta.actor.id), event.clone())
    }

    fn decode(recorded: &RecordedEvent) -> Result<Event, String> {
        decode(recorded)
    }

    fn event(stored: &Event) -> &Event {
        stored
    }
}

/// A game's chat event from the log (what a page's stream folds).
///
/// # Errors
/// Not a chat event, or not one of a game's chat.
pub fn decode(recorded: &RecordedEvent) -> Result<Event, String> {
    use pb::chat_envelope::Kind;
    match open(recorded)? {
        Kind::Posted(m) => Ok(Event::Posted(Message {
            id: m.id,
            room: room_from_pb(m.room)?,
            author: m.author,
            name: m.name,
            text: m.text,
            at: Millis(m.at_ms),
            hidden: None,
            reported_by: Default::default(),
        })),
        Kind::Reported(r) => Ok(Event::Reported { id: r.id, by: r.by }),
        Kind::Hidden(h) => Ok(Event::Hidden { id: h.id, by: h.by, reason: h.reason }),
        Kind::Muted(_) | Kind::Unmuted(_) | Kind::PlayersChat(_) => {
            Err(format!("sequence {}: a moderation event in a game's chat", recorded.sequence))
        }
    }
}

/// The chat's moderation as a runner aggregate (kind `chat`, id [`crate::MODERATION`]).
pub struct ModerationAggregate;

impl Aggregate for ModerationAggregate {
    const KIND: AggregateKind = AggregateKind::Chat;
    const NAME: &'static str = "chat-moderation";
    type State = Moderation;
    type Actor = Speaker;
    type Command = ModerationCommand;
    type Event = ModerationEvent;
    type Stored = ModerationEvent;
    type Rejection = ModerationRejection;

    fn decide(
        state: &Moderation,
        actor: &Speaker,
        command: &ModerationCommand,
        _: &Context<'_>,
    ) -> Result<Vec<ModerationEvent>, ModerationRejection> {
        crate::domain::moderate(state, actor, command)
    }

    fn evolve(state: &mut Moderation, event: &ModerationEvent) -> Result<(), String> {
        crate::domain::evolve_moderation(state, event);
        Ok(())
    }

    fn inconsistent(reason: String) -> ModerationRejection {
        ModerationRejection::Inconsistent(reason)
    }

    fn encode(event: &ModerationEvent, meta: &EventMeta<'_, Self>) -> (NewEvent, ModerationEvent) {
        use pb::chat_envelope::Kind;
        let kind = match event {
            ModerationEvent::Muted { account, by, reason } => {
                Kind::Muted(pb::ChatAccountMuted { account: account.clone(), by: by.clone(), reason: reason.clone() })
            }
            ModerationEvent::Unmuted { account, by } => {
                Kind::Unmuted(pb::ChatAccountUnmuted { account: account.clone(), by: by.clone() })
            }
            ModerationEvent::PlayersChatSwitched { event, on, by } => {
                Kind::PlayersChat(pb::ChatPlayersChatSwitched { event: event.clone(), on: *on, by: by.clone() })
            }
        };
        (envelope(kind, &meta.event_id, meta.at, &meta.actor.id), event.clone())
    }

    fn decode(recorded: &RecordedEvent) -> Result<ModerationEvent, String> {
        use pb::chat_envelope::Kind;
        match open(recorded)? {
            Kind::Muted(m) => Ok(ModerationEvent::Muted { account: m.account, by: m.by, reason: m.reason }),
            Kind::Unmuted(u) => Ok(ModerationEvent::Unmuted { account: u.account, by: u.by }),
            Kind::PlayersChat(s) => Ok(ModerationEvent::PlayersChatSwitched { event: s.event, on: s.on, by: s.by }),
            _ => Err(format!("sequence {}: a game's chat event in the moderation", recorded.sequence)),
        }
    }

    fn event(stored: &ModerationEvent) -> &ModerationEvent {
        stored
    }
}
