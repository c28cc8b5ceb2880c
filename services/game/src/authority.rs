//! Who may do what to a game, and as whom: decided once, here, over domain types, for the gRPC
//! gateway and the pages alike. Pure: no token, no IO.
//!
//! The caller is what their account allows *now*: the edge turns the token authority's effective
//! claims (the account's current roles, events and standing, `weiqi_edge::auth`) into a [`Caller`]
//! and asks here. The rules, in order:
//!
//! 1. **Seat first.** Whoever sits in a game is a player in it, whatever staff roles they also hold:
//!    they play, pass, resign, count and start it as a player ([`Actor::Player`]), they see what a
//!    player sees (no nigiri secret, no sealed move: [`sees_hidden`] is false), and they take no
//!    referee action on it ([`Denied::SeatedReferee`]).
//! 2. **Then role and event scope.** A referee, chief referee or organiser of the game's event acts
//!    on it as referee; a casual game (no event) only by staff of every event.
//! 3. **Creating a game** ([`creator`]): ids the platform derives are never a caller's (a tournament
//!    table's game is `t-<tournament>-r<round>-b<table>`, created only by the tournament's process
//!    manager, and so is any game naming a tournament); organisers create games of their events and
//!    referees of theirs; a player creates only an *offer*, a casual game (rated or not: the domain
//!    says which may be rated) with themselves seated, which starts only when the other player accepts it (the domain's `Start` from the
//!    other seat, [`super::domain::Rejection::OfferNotAccepted`] from the offerer).
//!
//! The game's domain checks the same things again where it can (a player not seated is refused
//! `not_a_player`; a reserved id or a tournament reference from anyone but the platform is refused
//! `reserved_game_id`), so a command that reaches the game service another way is held to them too.
//!
//! A new command gets its check by choosing its [`Asks`] (what it asks of the game) in the edge
//! that receives it; nothing else decides who may send it.

use crate::domain::{Actor, GameSetup, GameState, PlayerId};

/// The prefix of the ids of tournament tables' games, which only the platform chooses.
pub const TOURNAMENT_GAME_PREFIX: &str = "t-";

/// Whether `game_id` lies in a namespace the platform derives ids in (only [`Actor::System`]
/// creates such a game).
pub fn reserved_game_id(game_id: &str) -> bool {
    game_id.starts_with(TOURNAMENT_GAME_PREFIX)
}

/// What the caller's account allows now (its roles and the events it acts for).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Caller {
    /// The account name (= player id).
    pub id: String,
    /// Holds the player role.
    pub player: bool,
    /// Holds the referee role.
    pub referee: bool,
    /// Holds the chief referee role.
    pub chief: bool,
    /// Holds the organiser role.
    pub organiser: bool,
    /// An administrator: every role, every event.
    pub admin: bool,
    /// The events a referee or organiser acts for (`*`: every event).
    pub events: Vec<String>,
}

impl Caller {
    /// Whether the caller acts for `event` (`None`: a game of no event, which only staff of every
    /// event may act on).
    pub fn covers(&self, event: Option<&str>) -> bool {
        self.admin || self.events.iter().any(|e| e == "*" || Some(e.as_str()) == event)
    }

    /// Whether the caller referees games of `event` (referee, chief referee or organiser of it).
    pub fn referees(&self, event: Option<&str>) -> bool {
        (self.admin || self.referee || self.chief || self.organiser) && self.covers(event)
    }

    /// Whether the caller organises `event` (an organiser of it, or an administrator).
    pub fn organises(&self, event: Option<&str>) -> bool {
        (self.admin || self.organiser) && self.covers(event)
    }

    fn referee_actor(&self) -> Actor {
        let id = self.id.clone();
        if self.chief || self.admin {
            Actor::ChiefReferee(id)
        } else if self.referee {
            Actor::Referee(id)
        } else {
            Actor::Organiser(id)
        }
    }
}

/// What authority needs to know of a game: who sits at it and which event's staff act on it. Both
/// are fixed when the game is created (a colour swap changes colours, not the seats).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    /// The two seated players.
    pub seats: [String; 2],
    /// The event whose referees act on the game (a tournament's id for its games).
    pub event: Option<String>,
}

impl Table {
    /// The table of a created game (`None` before it is created).
    pub fn of(state: &GameState) -> Option<Table> {
        let setup = state.setup.as_ref()?;
        Some(Table::of_setup(setup))
    }

    /// The table a setup creates.
    pub fn of_setup(setup: &GameSetup) -> Table {
        Table {
            seats: [setup.first.id.0.clone(), setup.second.id.0.clone()],
            event: setup.event_id.clone().or_else(|| setup.tournament.as_ref().map(|t| t.id.clone())),
        }
    }

    /// Whether `id` sits at this table.
    pub fn seats(&self, id: &str) -> bool {
        self.seats.iter().any(|s| s == id)
    }
}

/// What a command asks of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asks {
    /// A player's command (guess nigiri, play, pass, resign, mark dead, accept or dispute the count,
    /// seal, an overrun pass).
    Play,
    /// Starting the clock: a player (accepting an offer, or ready at the board) or a referee.
    Start,
    /// A referee's action (warn, void, pause, resume, adjudicate, correct the clock, lateness, swap).
    Referee,
}

/// Why a caller may not do what it asks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Denied {
    /// A player's command from someone who does not sit at the game.
    #[error("you are not a player of this game")]
    NotSeated,
    /// A referee action from someone who plays in the game.
    #[error("you play in this game, so you act in it as a player; another referee of its event acts on it")]
    SeatedReferee,
    /// A referee action from someone who referees no game of this event.
    #[error("{}", match .0 {
        Some(e) => format!(
            "only referees of event {e} act on this game; a player of the game plays, passes, resigns or starts \
             it with their own account, and anyone may watch it"),
        None => "this casual game belongs to no event, so only an administrator (or a referee of every event) \
                 may act on it as referee; its players play it with their own accounts, and anyone may watch it"
            .to_string(),
    })]
    NotARefereeOf(Option<String>),
    /// A game id in a namespace the platform derives ids in.
    #[error(
        "game ids starting with {TOURNAMENT_GAME_PREFIX:?} belong to tournament tables; the platform creates those games itself"
    )]
    ReservedGameId,
    /// A game naming a tournament, from someone but the platform.
    #[error("a tournament's games are created by the tournament when it pairs a round")]
    TournamentGame,
    /// A game the caller may not create.
    #[error(
        "organisers and referees create games of their events; a player may offer a casual game with \
         themselves seated, which starts when the other player accepts it"
    )]
    CreateNotAllowed,
}

impl Denied {
    /// A stable code for clients and pages.
    pub fn code(&self) -> &'static str {
        match self {
            Denied::NotSeated => "not_a_player",
            Denied::SeatedReferee => "seated_referee",
            Denied::NotARefereeOf(_) => "not_a_referee",
            Denied::ReservedGameId => "reserved_game_id",
            Denied::TournamentGame => "tournament_game",
            Denied::CreateNotAllowed => "create_not_allowed",
        }
    }

    /// Whether the request itself is malformed (an id the caller may never choose), not a matter of
    /// who asks.
    pub fn is_invalid_argument(&self) -> bool {
        matches!(self, Denied::ReservedGameId)
    }
}

/// As whom `caller` acts on the game at `table` when it asks `asks`: seat first, then role and
/// event scope.
///
/// # Errors
/// [`Denied`], with the reason.
pub fn actor(caller: &Caller, table: &Table, asks: Asks) -> Result<Actor, Denied> {
    let seated = table.seats(&caller.id);
    match asks {
        Asks::Play if seated => Ok(Actor::Player(PlayerId(caller.id.clone()))),
        Asks::Play => Err(Denied::NotSeated),
        Asks::Start if seated => Ok(Actor::Player(PlayerId(caller.id.clone()))),
        Asks::Start | Asks::Referee if seated => Err(Denied::SeatedReferee),
        Asks::Start | Asks::Referee if caller.referees(table.event.as_deref()) => Ok(caller.referee_actor()),
        Asks::Start | Asks::Referee => Err(Denied::NotARefereeOf(table.event.clone())),
    }
}

/// Whether `caller` sees what players may not yet see at `table` (the nigiri secret before the
/// reveal, a sealed move before resumption): a referee of the game's event who does not sit at it.
pub fn sees_hidden(caller: &Caller, table: &Table) -> bool {
    !table.seats(&caller.id) && caller.referees(table.event.as_deref())
}

/// Whether `caller` sees the game at `table` live, without the spectators' delay (issue 34 item 1):
/// its players, the referees of its event and its organisers. Everyone else watches it as a
/// spectator, as late as the game's setup says.
pub fn sees_live(caller: &Caller, table: &Table) -> bool {
    let event = table.event.as_deref();
    table.seats(&caller.id) || caller.referees(event) || caller.organises(event)
}

/// Whether `caller` (`None`: the public) watches the game of `state` as a delayed spectator: the game
/// has a spectators' delay and the caller does not see it live ([`sees_live`]). Every spectator
/// channel asks this, and nothing else.
pub fn watches_delayed(caller: Option<&Caller>, state: &GameState) -> bool {
    let delayed = state.setup.as_deref().and_then(|s| s.spectator_delay).is_some_and(|d| !d.is_live());
    delayed && !caller.zip(Table::of(state)).is_some_and(|(c, t)| sees_live(c, &t))
}

/// Whether `caller` may act on the game at `table` as referee (shows the referee's panel).
pub fn referees(caller: &Caller, table: &Table) -> bool {
    actor(caller, table, Asks::Referee).is_ok()
}

/// As whom `caller` creates the game `game_id` with `setup`.
///
/// # Errors
/// [`Denied`], with the reason.
pub fn creator(caller: &Caller, game_id: &str, setup: &GameSetup) -> Result<Actor, Denied> {
    if reserved_game_id(game_id) {
        return Err(Denied::ReservedGameId);
    }
    if setup.tournament.is_some() {
        return Err(Denied::TournamentGame);
    }
    let event = setup.event_id.as_deref();
    if caller.organises(event.or(Some("*"))) {
        return Ok(Actor::Organiser(caller.id.clone()));
    }
    if event.is_some() && caller.referees(event) {
        return Ok(caller.referee_actor());
    }
    if caller.player && event.is_none() && Table::of_setup(setup).seats(&caller.id) {
        // An offer: the domain keeps it waiting for the other player.
        return Ok(Actor::Player(PlayerId(caller.id.clone())));
    }
    Err(Denied::CreateNotAllowed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caller(id: &str, roles: &[&str], events: &[&str]) -> Caller {
        Caller {
            id: id.into(),
            player: roles.contains(&"player"),
            referee: roles.contains(&"referee"),
            chief: roles.contains(&"chief"),
            organiser: roles.contains(&"organiser"),
            admin: roles.contains(&"admin"),
            events: events.iter().map(|e| e.to_string()).collect(),
        }
    }

    fn table(event: Option<&str>) -> Table {
        Table { seats: ["li".into(), "wang".into()], event: event.map(str::to_string) }
    }

    #[test]
    fn a_seat_comes_before_every_role() {
        let playing_referee = caller("li", &["player", "referee"], &["*"]);
        let t = table(Some("city-open"));
        assert_eq!(actor(&playing_referee, &t, Asks::Play), Ok(Actor::Player(PlayerId("li".into()))));
        assert_eq!(actor(&playing_referee, &t, Asks::Start), Ok(Actor::Player(PlayerId("li".into()))));
        assert_eq!(actor(&playing_referee, &t, Asks::Referee), Err(Denied::SeatedReferee));
        assert!(!sees_hidden(&playing_referee, &t), "a referee who plays sees what a player sees");
        let referee = caller("zhang", &["referee"], &["*"]);
        assert_eq!(actor(&referee, &t, Asks::Referee), Ok(Actor::Referee("zhang".into())));
        assert!(sees_hidden(&referee, &t));
        assert_eq!(actor(&referee, &t, Asks::Play), Err(Denied::NotSeated));
    }

    #[test]
    fn referees_act_for_their_events_only() {
        let scoped = caller("zhang", &["referee"], &["city-open"]);
        assert!(referees(&scoped, &table(Some("city-open"))));
        assert_eq!(
            actor(&scoped, &table(Some("national")), Asks::Referee),
            Err(Denied::NotARefereeOf(Some("national".into())))
        );
        assert_eq!(actor(&scoped, &table(None), Asks::Referee), Err(Denied::NotARefereeOf(None)));
        let chief = caller("chen", &["chief"], &["*"]);
        assert_eq!(actor(&chief, &table(None), Asks::Referee), Ok(Actor::ChiefReferee("chen".into())));
    }

    fn setup(first: &str, second: &str, event: Option<&str>, rated: bool) -> GameSetup {
        let player = |id: &str| crate::domain::PlayerRef { id: PlayerId(id.into()), ..Default::default() };
        GameSetup {
            ruleset: weiqi_rules::Ruleset::chinese(),
            size: 19,
            handicap: 0,
            handicap_points: Vec::new(),
            first: player(first),
            second: player(second),
            color_method: crate::domain::ColorMethod::Fixed,
            time_control: weiqi_clock::TimeControl::absolute(weiqi_clock::DurationMs::from_mins(10)).unwrap(),
            tournament: None,
            event_id: event.map(str::to_string),
            scheduled_start: None,
            rated,
            start_immediately: true,
            lateness_limit: weiqi_clock::DurationMs::from_mins(15),
            absence_claim: None,
            offered_by: None,
            spectator_delay: None,
        }
    }

    #[test]
    fn tournament_tables_are_the_platforms_own() {
        let organiser = caller("org", &["organiser"], &["*"]);
        let s = setup("li", "wang", Some("T1"), true);
        assert_eq!(creator(&organiser, "t-T1-r1-b1", &s), Err(Denied::ReservedGameId));
        let li = caller("li", &["player"], &[]);
        assert_eq!(creator(&li, "t-T1-r1-b1", &setup("li", "wang", None, false)), Err(Denied::ReservedGameId));
        let mut named = setup("li", "wang", None, false);
        named.tournament = Some(crate::domain::TournamentRef { id: "T1".into(), round: 1, board: 1 });
        assert_eq!(creator(&organiser, "mine", &named), Err(Denied::TournamentGame));
    }

    #[test]
    fn a_player_only_offers_a_casual_game_of_their_own() {
        let li = caller("li", &["player"], &[]);
        assert_eq!(creator(&li, "g1", &setup("li", "wang", None, false)), Ok(Actor::Player(PlayerId("li".into()))));
        assert_eq!(creator(&li, "g1", &setup("wang", "zhao", None, false)), Err(Denied::CreateNotAllowed));
        // A rated casual offer is the player's to make (the domain checks its board and clock).
        assert_eq!(creator(&li, "g1", &setup("li", "wang", None, true)), Ok(Actor::Player(PlayerId("li".into()))));
        assert_eq!(creator(&li, "g1", &setup("li", "wang", Some("T1"), false)), Err(Denied::CreateNotAllowed));
        let scoped = caller("zhang", &["referee"], &["A"]);
        assert_eq!(creator(&scoped, "g2", &setup("li", "wang", Some("A"), true)), Ok(Actor::Referee("zhang".into())));
        assert_eq!(creator(&scoped, "g2", &setup("li", "wang", Some("B"), true)), Err(Denied::CreateNotAllowed));
        let organiser = caller("org", &["organiser"], &["A"]);
        assert_eq!(
            creator(&organiser, "g3", &setup("li", "wang", Some("A"), true)),
            Ok(Actor::Organiser("org".into()))
        );
        assert_eq!(creator(&organiser, "g3", &setup("li", "wang", None, false)), Err(Denied::CreateNotAllowed));
    }
}
