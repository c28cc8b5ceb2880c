//! The tournament as the service keeps it: the core's [`Tournament`] plus what only the service needs
//! (how games are played, each player's platform account, published standings), folded from the log.
//!
//! [`decide`] is pure like the core's: the service's commands in, the bodies of the events to append
//! out. It defers every tournament rule to [`weiqi_pairing::decide`].

use std::collections::{BTreeMap, HashMap};

use weiqi_pairing::command::Command;
use weiqi_pairing::config::{ByeKind, Format, TournamentConfig};
use weiqi_pairing::decide::decide as core_decide;
use weiqi_pairing::event::{ByeReason, TournamentEvent};
use weiqi_pairing::ids::{GameRef, Millis, PlayerId};
use weiqi_pairing::opengotha::GothaTournament;
use weiqi_pairing::outcome::GameResult;
use weiqi_pairing::registration::Registration;
use weiqi_pairing::rejection::Rejection;
use weiqi_pairing::standings::standings;
use weiqi_pairing::state::{Phase, Tournament, evolve};
use weiqi_pairing::team::team_standings;

use crate::convert::BadRequest;
use crate::facts::EventFacts;
use crate::settings::GameSettings;

/// What one stored event carries.
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    /// A core event.
    Domain(TournamentEvent),
    /// How the games are played (recorded with `Created`).
    Settings(GameSettings),
    /// A registered player's platform account (recorded with `PlayerRegistered`).
    Entrant {
        /// The player number.
        player: PlayerId,
        /// The account (token subject) their games are created for.
        account: String,
    },
    /// Standings published as official placings (a public event: see [`Published`]).
    Published(Published),
    /// Rounds played elsewhere, brought in from a file: recorded before the events that replay them.
    Imported(RoundsImported),
    /// The event's facts, as set (the whole set: the last one holds).
    Facts(EventFacts),
}

/// Rounds of a tournament played elsewhere (an OpenGotha file), replayed by the events after it.
/// The process manager creates no game for them and pairs no round among them.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RoundsImported {
    /// What the file was (`OpenGotha`).
    pub source: String,
    /// SHA-256 of the file, lowercase hex.
    pub sha256: String,
    /// Rounds 1 to this one were imported.
    pub rounds: u32,
    /// Games the file gave.
    pub games: u32,
    /// Byes the file gave.
    pub byes: u32,
}

/// One event of a tournament's log: its body, and for a result (recorded or corrected) the typed fact
/// consumers read without folding the tournament (the round, table, game and both accounts).
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// What happened.
    pub body: Body,
    /// For a result: the fact.
    pub result: Option<ResultFact>,
}

impl Event {
    /// An event without a result fact.
    pub fn plain(body: Body) -> Event {
        Event { body, result: None }
    }
}

/// A result as consumers of the log see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultFact {
    /// The round.
    pub round: u32,
    /// The table.
    pub table: u32,
    /// The game's id in the game service.
    pub game_id: String,
    /// Black's account.
    pub black_account: String,
    /// White's account.
    pub white_account: String,
    /// The result.
    pub result: GameResult,
    /// A correction of an earlier result.
    pub correction: bool,
}

/// One row of the standings, with the registration it shows.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct StandingRow {
    /// The place (shared places repeat).
    pub place: u32,
    /// Player number (a team number in team events).
    pub entrant: u32,
    /// The player's account (empty for teams).
    pub account: String,
    /// Name in Chinese.
    pub name_zh: String,
    /// Name in Latin script (a team's name).
    pub name_latin: String,
    /// Rank as registered.
    pub rank: String,
    /// Club.
    pub club: String,
    /// Region.
    pub region: String,
    /// One value per criterion, exact (`7`, `29/2`).
    pub values: Vec<String>,
    /// The criterion that separated this place from a tied neighbour; empty: the primary score.
    pub decided_by: String,
    /// The place is shared.
    pub shared: bool,
    /// Games played.
    pub games: u32,
    /// Wins.
    pub wins: u32,
    /// The player withdrew (Art. 28); flagged wherever standings are shown or exported.
    pub withdrawn: bool,
}

/// One entrant's placing with what backs it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Placing {
    /// The row.
    pub row: StandingRow,
    /// The games the entrant played (game ids).
    pub game_ids: Vec<String>,
    /// Wins without a game.
    pub byes: u32,
}

/// Standings published as official placings.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Published {
    /// After this round.
    pub after_round: u32,
    /// Final: the tournament is finished.
    pub final_: bool,
    /// The criteria, in order.
    pub criteria: Vec<String>,
    /// The placings.
    pub placings: Vec<Placing>,
}

/// A tournament: the core state and the service's additions.
#[derive(Clone, Debug, Default)]
pub struct TournamentAggregate {
    /// The core state.
    pub core: Tournament,
    /// How games are played (`None` before creation).
    pub settings: Option<GameSettings>,
    /// Player number → platform account.
    pub accounts: BTreeMap<PlayerId, String>,
    /// Platform account → player number.
    pub by_account: HashMap<String, PlayerId>,
    /// Standings publications so far.
    pub publications: u32,
    /// Rounds 1 to this one were imported from a file (0: none): no games are created for them.
    pub imported_rounds: u32,
    /// The event's facts (`None`: never set).
    pub facts: Option<EventFacts>,
    /// How many mid-event changes of settings the log holds (their audit is read from the log only
    /// when there are some).
    pub settings_changes: u32,
    /// The last sequence folded.
    pub version: u64,
}

impl TournamentAggregate {
    /// Folds one event body (the core's fold never refuses: its decider checked the event).
    pub fn apply(&mut self, body: &Body) {
        match body {
            Body::Domain(e) => {
                evolve(&mut self.core, e);
                if matches!(e, TournamentEvent::SettingsChanged { .. }) {
                    self.settings_changes += 1;
                }
                // A removed player's account may enter again.
                if let TournamentEvent::PlayerRemoved { player } = e
                    && let Some(account) = self.accounts.remove(player)
                {
                    self.by_account.remove(&account);
                }
            }
            Body::Settings(s) => self.settings = Some(s.clone()),
            Body::Entrant { player, account } => {
                self.accounts.insert(*player, account.clone());
                self.by_account.insert(account.clone(), *player);
            }
            Body::Published(_) => self.publications += 1,
            Body::Imported(i) => self.imported_rounds = self.imported_rounds.max(i.rounds),
            Body::Facts(f) => self.facts = Some(f.clone()),
        }
    }

    /// The core configuration (`None` before creation).
    pub fn config(&self) -> Option<&TournamentConfig> {
        self.core.config.as_ref()
    }

    /// The event whose organisers and referees act on this tournament (the tournament id if unset).
    pub fn event_id<'a>(&'a self, tournament_id: &'a str) -> &'a str {
        match self.settings.as_ref().and_then(|s| s.event_id.as_deref()) {
            Some(e) if !e.is_empty() => e,
            _ => tournament_id,
        }
    }

    /// The account of a player (their number as text if none was recorded).
    pub fn account(&self, p: PlayerId) -> String {
        self.accounts.get(&p).cloned().unwrap_or_else(|| format!("player-{}", p.0))
    }

    /// The registration snapshot of a player.
    pub fn registration(&self, p: PlayerId) -> Option<&Registration> {
        self.core.players.get(&p).map(|e| &e.registration)
    }

    /// The game id of a table of a round as paired now (a round paired again after its pairing was
    /// taken back has new game ids: see [`crate::ids::game_id_in`]).
    pub fn game_id(&self, tournament_id: &str, game: GameRef) -> String {
        crate::ids::game_id_in(tournament_id, game.round, self.core.pairing_of(game.round), game.table)
    }

    /// Whether the tournament exists.
    pub fn exists(&self) -> bool {
        self.core.phase != Phase::Uncreated
    }
}

impl TournamentCommand {
    /// The command's name in snake case (`pair_round`, `record_result`): a closed set, for metrics.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            TournamentCommand::Create { .. } => "create",
            TournamentCommand::Register { .. } => "register",
            TournamentCommand::PairRound { .. } => "pair_round",
            TournamentCommand::Publish => "publish",
            TournamentCommand::ImportOpenGotha { .. } => "import_opengotha",
            TournamentCommand::SetFacts(_) => "set_facts",
            TournamentCommand::Core(c) => c.name(),
        }
    }
}

/// What the service is asked to do.
#[derive(Clone, Debug, PartialEq)]
pub enum TournamentCommand {
    /// Create the tournament.
    Create {
        /// The core configuration (seed 0: the runner draws one).
        config: TournamentConfig,
        /// How games are played.
        settings: GameSettings,
    },
    /// Register a player for a platform account; `registration.player` 0 takes the next free number.
    Register {
        /// The account (token subject).
        account: String,
        /// The snapshot.
        registration: Registration,
    },
    /// Pair the next round; `Some(r)` refuses unless `r` is the next round.
    PairRound {
        /// The round expected.
        round: Option<u32>,
    },
    /// Publish the current standings as official placings.
    Publish,
    /// Replay the rounds of an event run in OpenGotha (see [`import_rounds`]).
    ImportOpenGotha {
        /// The file as read.
        file: Box<GothaTournament>,
        /// SHA-256 of the file, lowercase hex.
        sha256: String,
    },
    /// Set the event's facts (dates, place, director, club codes), at any time.
    SetFacts(EventFacts),
    /// Any other core command.
    Core(Command),
}

/// Why the service refused a command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ServiceRejection {
    /// The core refused.
    #[error(transparent)]
    Core(#[from] Rejection),
    /// The request is malformed.
    #[error(transparent)]
    Bad(#[from] BadRequest),
    /// The account already plays in this tournament.
    #[error("account {0} is already registered as player {1}")]
    AccountRegistered(String, PlayerId),
    /// No standings to publish yet.
    #[error("nothing to publish before the first round")]
    NothingToPublish,
    /// An import the tournament cannot take, or a step of it the core refused.
    #[error("{0}")]
    Import(String),
    /// The decided events do not fold into the state (a bug): nothing was recorded.
    #[error("the decision does not apply to the tournament ({0}); nothing was recorded")]
    Inconsistent(String),
}

impl ServiceRejection {
    /// A stable, machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            ServiceRejection::Core(r) => crate::convert::rejection_code(r),
            ServiceRejection::Bad(b) => b.code,
            ServiceRejection::AccountRegistered(..) => "account_registered",
            ServiceRejection::NothingToPublish => "nothing_to_publish",
            ServiceRejection::Import(_) => "import_refused",
            ServiceRejection::Inconsistent(_) => "inconsistent",
        }
    }

    /// What kind of refusal it is.
    pub fn kind(&self) -> weiqi_aggregate::RejectionKind {
        use weiqi_aggregate::RejectionKind as Kind;
        match self {
            ServiceRejection::Core(core) => crate::convert::rejection_kind(core),
            ServiceRejection::Bad(_) => Kind::InvalidArgument,
            ServiceRejection::AccountRegistered(..) => Kind::AlreadyExists,
            ServiceRejection::NothingToPublish | ServiceRejection::Inconsistent(_) | ServiceRejection::Import(_) => {
                Kind::FailedPrecondition
            }
        }
    }
}

fn core(t: &TournamentAggregate, cmd: &Command, now: Millis) -> Result<Vec<Body>, ServiceRejection> {
    Ok(core_decide(&t.core, cmd, now)?.into_iter().map(Body::Domain).collect())
}

/// The longest lateness limit an event may set (24 hours), in milliseconds.
pub const MAX_LATENESS_MS: i64 = 24 * 3_600_000;
/// The longest name (an event's, a player's, a team's, a club's…), in characters.
pub const MAX_NAME: usize = 100;
/// The longest account or event id, in bytes.
pub const MAX_ID: usize = 64;

fn text(field: &str, value: &str, max: usize) -> Result<(), ServiceRejection> {
    if value.chars().count() > max || value.chars().any(char::is_control) {
        return Err(ServiceRejection::Bad(crate::convert::BadRequest {
            code: "out_of_range",
            message: format!("{field} must be at most {max} characters, without control characters"),
        }));
    }
    Ok(())
}

/// Every text and number a command carries is within its limit. Limits are the domain's: the desk
/// calls the service in process, where no transport caps a message (a 400,000-character name from a
/// CSV was once registered).
fn limits(cmd: &TournamentCommand) -> Result<(), ServiceRejection> {
    match cmd {
        TournamentCommand::Create { config, settings } => {
            text("the name", &config.name, MAX_NAME)?;
            if let Some(e) = &settings.event_id {
                text("the event id", e, MAX_ID)?;
            }
            if !(weiqi_rules::MIN_SIZE..=weiqi_rules::MAX_SIZE).contains(&settings.size) {
                return Err(ServiceRejection::Bad(crate::convert::BadRequest {
                    code: "out_of_range",
                    message: format!(
                        "size = {} is out of range: {} to {}",
                        settings.size,
                        weiqi_rules::MIN_SIZE,
                        weiqi_rules::MAX_SIZE
                    ),
                }));
            }
            if settings.lateness_limit.is_some_and(|l| !(0..=MAX_LATENESS_MS).contains(&l.0)) {
                return Err(ServiceRejection::Bad(crate::convert::BadRequest {
                    code: "out_of_range",
                    message: "the lateness limit is out of range: 0 to 24 hours".into(),
                }));
            }
            Ok(())
        }
        TournamentCommand::Register { account, registration } => {
            text("the account", account, MAX_ID)?;
            registration_limits(registration)
        }
        TournamentCommand::Core(Command::EditPlayer { registration }) => registration_limits(registration),
        TournamentCommand::Core(Command::RegisterTeam { name, .. }) => text("the team's name", name, MAX_NAME),
        _ => Ok(()),
    }
}

/// A registration's texts: names, club, region, family and country within their limits.
fn registration_limits(registration: &Registration) -> Result<(), ServiceRejection> {
    text("the name", &registration.name_zh, MAX_NAME)?;
    text("the name in Latin script", &registration.name_latin, MAX_NAME)?;
    for (field, value) in [
        ("the club", &registration.club),
        ("the region", &registration.region),
        ("the family", &registration.family),
        ("the country", &registration.country),
    ] {
        if let Some(v) = value {
            text(field, v, MAX_NAME)?;
        }
    }
    Ok(())
}

/// The komi of the game at `game`, in half points: the event's for an even game, none with a
/// handicap (as [`GameSettings::game_setup`] creates it). `None` before the settings are known.
fn komi_at(t: &TournamentAggregate, game: GameRef) -> Option<i32> {
    let settings = t.settings.as_ref()?;
    let handicap = t.core.game(game).map_or(0, |g| g.paired.handicap);
    Some(if handicap == 0 { settings.ruleset.komi.0 } else { 0 })
}

/// A draw needs a komi without a half point (RULES.md: a count under a half-point komi always has a
/// winner): a draw entered for a table whose komi has one is refused, with the komi.
fn draw_possible(t: &TournamentAggregate, cmd: &TournamentCommand) -> Result<(), ServiceRejection> {
    let (TournamentCommand::Core(Command::RecordResult { game, result })
    | TournamentCommand::Core(Command::CorrectResult { game, result, .. })) = cmd
    else {
        return Ok(());
    };
    if result.outcome != weiqi_pairing::outcome::Outcome::Draw {
        return Ok(());
    }
    match komi_at(t, *game) {
        Some(halves) if halves % 2 != 0 => Err(ServiceRejection::Bad(crate::convert::BadRequest {
            code: "draw_impossible",
            message: format!(
                "a draw is impossible at round {} table {}: the komi is {}, so one side always wins",
                game.round,
                game.table,
                f64::from(halves) / 2.0
            ),
        })),
        _ => Ok(()),
    }
}

/// Decides a service command at server time `now`.
pub fn decide(t: &TournamentAggregate, cmd: &TournamentCommand, now: Millis) -> Result<Vec<Body>, ServiceRejection> {
    decide_in(t, "", cmd, now)
}

fn decide_in(
    t: &TournamentAggregate,
    tid: &str,
    cmd: &TournamentCommand,
    now: Millis,
) -> Result<Vec<Body>, ServiceRejection> {
    limits(cmd)?;
    draw_possible(t, cmd)?;
    match cmd {
        TournamentCommand::Create { config, settings } => {
            let mut out = core(t, &Command::Create { config: config.clone() }, now)?;
            out.push(Body::Settings(settings.clone()));
            Ok(out)
        }
        TournamentCommand::Register { account, registration } => {
            if let Some(&p) = t.by_account.get(account) {
                return Err(ServiceRejection::AccountRegistered(account.clone(), p));
            }
            let mut registration = registration.clone();
            if registration.player.0 == 0 {
                registration.player = PlayerId(t.core.players.keys().next_back().map_or(1, |p| p.0 + 1));
            }
            let player = registration.player;
            let events = core_decide(&t.core, &Command::Register { registration }, now)?;
            let mut out = Vec::with_capacity(events.len() + 1);
            for e in events {
                let registered = matches!(e, TournamentEvent::PlayerRegistered { .. });
                out.push(Body::Domain(e));
                if registered {
                    out.push(Body::Entrant { player, account: account.clone() });
                }
            }
            Ok(out)
        }
        TournamentCommand::PairRound { round } => {
            if let Some(r) = round
                && *r != t.core.current_round() + 1
            {
                if !t.exists() {
                    return Err(Rejection::NotCreated.into());
                }
                return Err(Rejection::NotNextRound(*r).into());
            }
            core(t, &Command::PairRound, now)
        }
        TournamentCommand::Publish => {
            let cfg = t.config().ok_or(Rejection::NotCreated)?;
            if t.core.rounds.is_empty() {
                return Err(ServiceRejection::NothingToPublish);
            }
            Ok(vec![Body::Published(published(t, tid, cfg))])
        }
        TournamentCommand::ImportOpenGotha { file, sha256 } => import_rounds(t, file, sha256, now),
        TournamentCommand::SetFacts(facts) => {
            if !t.exists() {
                return Err(Rejection::NotCreated.into());
            }
            facts.validate()?;
            Ok(vec![Body::Facts(facts.clone())])
        }
        TournamentCommand::Core(c) => {
            let mut out = core(t, c, now)?;
            // Official results follow the log: a correction or a withdrawal after the results were
            // published publishes them again, on the state it leaves (issue 30 item 1).
            let changes_results = matches!(c, Command::CorrectResult { .. } | Command::Withdraw { .. });
            if changes_results
                && t.publications > 0
                && !out.is_empty()
                && let Some(cfg) = t.config()
            {
                let mut after = t.clone();
                for b in &out {
                    after.apply(b);
                }
                out.push(Body::Published(published(&after, tid, cfg)));
            }
            Ok(out)
        }
    }
}

/// The events that bring an OpenGotha event's rounds in: the [`RoundsImported`] marker, a start if
/// the tournament is still registering, then every command of [`GothaTournament::replay`], each
/// decided on the state the ones before it leave. The file's players are found by the account
/// their key gives ([`weiqi_pairing::opengotha::GothaPlayer::account`]), so they must be
/// registered first. All or nothing: the first refusal refuses the import, naming the step.
fn import_rounds(
    t: &TournamentAggregate,
    file: &GothaTournament,
    sha256: &str,
    now: Millis,
) -> Result<Vec<Body>, ServiceRejection> {
    let refuse = |why: String| Err(ServiceRejection::Import(why));
    let cfg = t.config().ok_or(Rejection::NotCreated)?;
    match &cfg.format {
        Format::Swiss { .. } => {}
        Format::McMahon { bars, .. } => {
            if let Some((top, bottom)) = file.bars
                && (top, bottom) != (bars.top, bars.bottom)
            {
                return refuse(format!(
                    "the file's McMahon bar {top} and floor {bottom} differ from this tournament's {} and {}",
                    bars.top, bars.bottom
                ));
            }
        }
        _ => return refuse("only a Swiss or McMahon tournament takes OpenGotha rounds".into()),
    }
    if !t.core.rounds.is_empty() {
        return refuse("a round is already paired here: rounds are imported before the first is paired".into());
    }
    let mut ids = HashMap::new();
    for p in &file.players {
        let account = p.account();
        match t.by_account.get(&account) {
            Some(&id) => {
                ids.insert(p.key(), id);
            }
            None => {
                return refuse(format!(
                    "{} {} ({}) is not registered as {account}: import the players first",
                    p.name, p.first_name, p.rank
                ));
            }
        }
    }
    let commands = file.replay(&ids).map_err(|e| ServiceRejection::Import(e.to_string()))?;
    let rounds = commands.iter().filter(|c| matches!(c, Command::PairRound)).count() as u32;
    if rounds == 0 {
        return refuse("the file has no rounds to import".into());
    }
    let mut bodies = vec![Body::Imported(RoundsImported {
        source: "OpenGotha".into(),
        sha256: sha256.to_string(),
        rounds,
        games: file.games.iter().filter(|g| g.round <= rounds).count() as u32,
        byes: file.byes.iter().filter(|b| b.0 <= rounds).count() as u32,
    })];
    let mut state = t.core.clone();
    let start = (state.phase == Phase::Registration).then_some(Command::Start);
    for (step, command) in start.iter().chain(&commands).enumerate() {
        let events = core_decide(&state, command, now).map_err(|r| {
            let round = match command {
                Command::FixPairing { round, .. } | Command::GrantBye { round, .. } => *round,
                Command::RecordResult { game, .. } => game.round,
                _ => state.current_round() + 1,
            };
            ServiceRejection::Import(format!("round {round} (step {} of the import): {r}", step + 1))
        })?;
        for e in events {
            evolve(&mut state, &e);
            bodies.push(Body::Domain(e));
        }
    }
    Ok(bodies)
}

/// The standings as official placings, each entrant with the games they played and their byes.
fn published(t: &TournamentAggregate, tid: &str, cfg: &TournamentConfig) -> Published {
    let final_ = matches!(t.core.phase, Phase::Finished(_));
    let (after_round, criteria, rows) = standing_rows(t, cfg);
    let placings = rows
        .into_iter()
        .map(|row| {
            let player = PlayerId(row.entrant);
            let mut game_ids = Vec::new();
            let mut byes = 0;
            if !cfg.format.is_team() {
                for round in &t.core.rounds {
                    for g in &round.games {
                        if g.paired.black == player || g.paired.white == player {
                            game_ids.push(t.game_id(tid, GameRef { round: round.number, table: g.paired.table }));
                        }
                    }
                    byes += round
                        .byes
                        .iter()
                        .filter(|b| b.player == player && b.reason != ByeReason::Rest && b.kind == ByeKind::FullPoint)
                        .count() as u32;
                }
            }
            Placing { row, game_ids, byes }
        })
        .collect();
    Published { after_round, final_, criteria, placings }
}

/// Standings rows: individual standings, or team standings in team formats.
pub fn standing_rows(t: &TournamentAggregate, cfg: &TournamentConfig) -> (u32, Vec<String>, Vec<StandingRow>) {
    standing_rows_after(t, cfg, None)
}

/// Standings rows after `round` (`None`: as they stand now); team events are always as they stand.
pub fn standing_rows_after(
    t: &TournamentAggregate,
    cfg: &TournamentConfig,
    round: Option<u32>,
) -> (u32, Vec<String>, Vec<StandingRow>) {
    if cfg.format.is_team() {
        let st = team_standings(&t.core);
        let rows = st
            .rows
            .iter()
            .map(|r| StandingRow {
                place: r.place,
                entrant: r.team.0,
                name_latin: t.core.teams.get(&r.team).map(|k| k.name.clone()).unwrap_or_default(),
                values: r.values.iter().map(|v| v.exact()).collect(),
                decided_by: r.decided_by.map(|c| c.name()).unwrap_or_default(),
                shared: r.shared,
                ..Default::default()
            })
            .collect();
        return (st.after_round, st.criteria.iter().map(|c| c.name()).collect(), rows);
    }
    let st = match round {
        Some(round) => weiqi_pairing::standings::standings_after(&t.core, round),
        None => standings(&t.core),
    };
    let rows = st
        .rows
        .iter()
        .map(|r| {
            let reg = t.registration(r.player);
            StandingRow {
                place: r.place,
                entrant: r.player.0,
                account: t.account(r.player),
                name_zh: reg.map(|g| g.name_zh.clone()).unwrap_or_default(),
                name_latin: reg.map(|g| g.name_latin.clone()).unwrap_or_default(),
                rank: reg.map(|g| g.rank.to_string()).unwrap_or_default(),
                club: reg.and_then(|g| g.club.clone()).unwrap_or_default(),
                region: reg.and_then(|g| g.region.clone()).unwrap_or_default(),
                values: r.values.iter().map(|v| v.exact()).collect(),
                decided_by: r.decided_by.map(|c| c.name()).unwrap_or_default(),
                shared: r.shared,
                games: r.games,
                wins: r.wins,
                withdrawn: t.core.is_withdrawn(r.player),
            }
        })
        .collect();
    (st.after_round, st.criteria.iter().map(|c| c.name()).collect(), rows)
}

/// The typed result fact for a recorded or corrected result (for consumers of the log).
pub fn result_fact(tournament_id: &str, t: &TournamentAggregate, event: &TournamentEvent) -> Option<ResultFact> {
    let (game, result, correction) = match event {
        TournamentEvent::ResultRecorded { game, result, .. } => (*game, result, false),
        TournamentEvent::ResultCorrected { game, result, .. } => (*game, result, true),
        _ => return None,
    };
    let g = t.core.game(game)?;
    Some(ResultFact {
        round: game.round,
        table: game.table,
        game_id: t.game_id(tournament_id, game),
        black_account: t.account(g.paired.black),
        white_account: t.account(g.paired.white),
        result: *result,
        correction,
    })
}

/// Decides a service command for tournament `tid` and gives each event its result fact (computed on
/// the state the result applies to).
pub fn decide_events(
    t: &TournamentAggregate,
    tid: &str,
    cmd: &TournamentCommand,
    now: Millis,
) -> Result<Vec<Event>, ServiceRejection> {
    let bodies = decide_in(t, tid, cmd, now)?;
    // An import pairs and records many rounds in one decision: each fact is taken on the state its
    // result applies to.
    let mut folding = matches!(bodies.first(), Some(Body::Imported(_))).then(|| t.clone());
    Ok(bodies
        .into_iter()
        .map(|body| {
            let on = folding.as_ref().unwrap_or(t);
            let result = match &body {
                Body::Domain(e) => result_fact(tid, on, e),
                _ => None,
            };
            if let Some(s) = folding.as_mut() {
                s.apply(&body);
            }
            Event { body, result }
        })
        .collect())
}

/// Whether the game at `g` still lacks a result.
pub fn is_open(t: &TournamentAggregate, g: GameRef) -> bool {
    t.core.game(g).is_some_and(|game| game.result.is_none())
}

#[cfg(test)]
mod tests {
    use super::*;
    use weiqi_pairing::config::Format;
    use weiqi_pairing::rank::Rank;

    fn given(bodies: &[Body]) -> TournamentAggregate {
        let mut t = TournamentAggregate::default();
        for b in bodies {
            t.apply(b);
        }
        t
    }

    fn when(t: &TournamentAggregate, cmd: TournamentCommand) -> Result<Vec<Body>, ServiceRejection> {
        decide(t, &cmd, Millis(1_000))
    }

    fn created() -> Vec<Body> {
        let config = TournamentConfig::new("Open", Format::Swiss { rounds: 2 }, 3);
        let settings = GameSettings { event_id: Some("city".into()), ..GameSettings::default() };
        when(&TournamentAggregate::default(), TournamentCommand::Create { config, settings }).unwrap()
    }

    fn register(account: &str, player: u32) -> TournamentCommand {
        TournamentCommand::Register {
            account: account.into(),
            registration: Registration::new(PlayerId(player), account, Rank::Kyu(3)),
        }
    }

    #[test]
    fn creation_records_the_game_settings_with_the_core_event() {
        let events = created();
        assert!(matches!(events[0], Body::Domain(TournamentEvent::Created { .. })));
        let t = given(&events);
        assert_eq!(t.event_id("open"), "city");
        assert_eq!(given(&events[..1]).event_id("open"), "open", "no settings: the tournament is the event");
    }

    #[test]
    fn registration_takes_the_next_free_number_and_links_the_account() {
        let mut log = created();
        log.extend(when(&given(&log), register("ann", 7)).unwrap());
        let then = when(&given(&log), register("bob", 0)).unwrap();
        assert!(
            matches!(&then[0], Body::Domain(TournamentEvent::PlayerRegistered { registration }) if registration.player == PlayerId(8))
        );
        assert_eq!(then[1], Body::Entrant { player: PlayerId(8), account: "bob".into() });
        log.extend(then);
        let t = given(&log);
        assert_eq!(t.account(PlayerId(8)), "bob");
        assert_eq!(t.by_account["ann"], PlayerId(7));
    }

    #[test]
    fn an_account_plays_once_per_tournament() {
        let mut log = created();
        log.extend(when(&given(&log), register("ann", 1)).unwrap());
        assert_eq!(
            when(&given(&log), register("ann", 2)),
            Err(ServiceRejection::AccountRegistered("ann".into(), PlayerId(1)))
        );
        assert_eq!(
            when(&given(&log), register("eve", 1)).map_err(|e| e.code().to_string()),
            Err("already_registered".to_string())
        );
    }

    #[test]
    fn pairing_names_the_round_it_pairs() {
        let mut log = created();
        for (i, a) in ["a", "b", "c", "d"].iter().enumerate() {
            log.extend(when(&given(&log), register(a, i as u32 + 1)).unwrap());
        }
        log.extend(when(&given(&log), TournamentCommand::Core(Command::Start)).unwrap());
        assert_eq!(
            when(&given(&log), TournamentCommand::PairRound { round: Some(2) }),
            Err(ServiceRejection::Core(Rejection::NotNextRound(2)))
        );
        assert_eq!(when(&given(&log), TournamentCommand::Publish), Err(ServiceRejection::NothingToPublish));
        let paired = when(&given(&log), TournamentCommand::PairRound { round: Some(1) }).unwrap();
        log.extend(paired);
        // The same request replayed after round 1 was paired is refused, never pairs round 2.
        assert_eq!(
            when(&given(&log), TournamentCommand::PairRound { round: Some(1) }),
            Err(ServiceRejection::Core(Rejection::NotNextRound(1)))
        );
        let published = when(&given(&log), TournamentCommand::Publish).unwrap();
        let [Body::Published(p)] = &published[..] else { panic!("{published:?}") };
        assert_eq!((p.placings.len(), p.after_round, p.final_), (4, 1, false));
        assert!(p.placings.iter().all(|r| !r.row.account.is_empty()));
        assert_eq!(given(&[log, published].concat()).publications, 1);
    }

    /// One fact, one place: a result corrected after the standings were published publishes them
    /// again, on the corrected result; a correction before any publication publishes nothing.
    #[test]
    fn a_correction_after_publishing_publishes_the_corrected_standings() {
        use weiqi_pairing::event::Correction;
        use weiqi_pairing::ids::{Color, GameRef};
        use weiqi_pairing::outcome::GameResult;
        let mut log = created();
        for (i, a) in ["a", "b", "c", "d"].iter().enumerate() {
            log.extend(when(&given(&log), register(a, i as u32 + 1)).unwrap());
        }
        log.extend(when(&given(&log), TournamentCommand::Core(Command::Start)).unwrap());
        log.extend(when(&given(&log), TournamentCommand::PairRound { round: Some(1) }).unwrap());
        let game = GameRef { round: 1, table: 1 };
        let black = given(&log).core.game(game).unwrap().paired.black;
        let record = Command::RecordResult { game, result: GameResult::win(Color::White) };
        log.extend(when(&given(&log), TournamentCommand::Core(record)).unwrap());
        let correct =
            |color| Command::CorrectResult { game, result: GameResult::win(color), reason: Correction::RecordingError };
        let before = when(&given(&log), TournamentCommand::Core(correct(Color::Black))).unwrap();
        assert_eq!(before.len(), 1, "nothing published yet: {before:?}");
        log.extend(when(&given(&log), TournamentCommand::Publish).unwrap());
        let after = when(&given(&log), TournamentCommand::Core(correct(Color::Black))).unwrap();
        let [Body::Domain(TournamentEvent::ResultCorrected { .. }), Body::Published(p)] = &after[..] else {
            panic!("{after:?}")
        };
        let row = p.placings.iter().find(|r| r.row.entrant == black.0).unwrap();
        assert_eq!(row.row.wins, 1, "the official results count the corrected win");
        log.extend(after);
        assert_eq!(given(&log).publications, 2);
    }

    #[test]
    fn commands_on_a_missing_tournament_are_not_found() {
        let t = TournamentAggregate::default();
        for cmd in [
            TournamentCommand::PairRound { round: Some(1) },
            TournamentCommand::Publish,
            TournamentCommand::Core(Command::Start),
            register("ann", 1),
        ] {
            assert_eq!(when(&t, cmd).map_err(|e| e.code().to_string()), Err("not_found".to_string()));
        }
    }
}
