//! `POST /desk/tournaments/{id}/{verb}`: the desk page's commands, one handler and one typed form per
//! command, with a confirmation before one that changes published results. Each becomes a domain
//! command (the pairing core's, or the tournament service's) sent to the tournament's API with the
//! session's caller: the tournament's authority decides, as it does for gRPC callers.
//!
//! Every form carries the browser's CSRF token and the request id drawn with it ([`Sent`]); numbers
//! are read as text and checked here, so a wrong one is refused in the page's language with the
//! field's name (not with the form decoder's English).

use std::sync::Arc;

use axum::Form;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use maud::html;
use serde::Deserialize;
use weiqi_game::authority::Caller;
use weiqi_pairing::command::Command;
use weiqi_pairing::event::{Correction, WithdrawalReason};
use weiqi_pairing::ids::{Color, GameRef, PlayerId, TeamId};
use weiqi_pairing::outcome::{GameResult, Outcome, ResultReason};
use weiqi_time::CivilDate;
use weiqi_tournament::aggregate::TournamentCommand;
use weiqi_tournament::api::{ApiError, Entry, TournamentApi};
use weiqi_tournament::facts::EventFacts;

use super::*;
use crate::Web;
use crate::i18n::{t, ta};
use crate::pages::{acting, message, page, redirect, refused_status, refused_text, with_status};
use crate::session::Viewer;

/// What every desk form carries: the CSRF token and the request id drawn with the form.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Sent {
    csrf: String,
    rid: String,
}

/// A player's names, rank (as written: `3d`, `3段`, `业余三段`), club, region and family, as a form
/// enters them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PlayerFields {
    name_zh: String,
    name_latin: String,
    rank: String,
    club: String,
    region: String,
    family: String,
}

impl PlayerFields {
    /// Whether any field is filled in.
    fn any(&self) -> bool {
        [&self.name_zh, &self.name_latin, &self.rank, &self.club, &self.region, &self.family]
            .iter()
            .any(|v| !v.trim().is_empty())
    }

    /// The entry the fields give, trimmed.
    fn entry(&self) -> Entry {
        Entry {
            name_zh: self.name_zh.trim().to_string(),
            name_latin: self.name_latin.trim().to_string(),
            rank: self.rank.trim().to_string(),
            club: self.club.trim().to_string(),
            region: self.region.trim().to_string(),
            family: self.family.trim().to_string(),
            ..Entry::default()
        }
    }
}

/// `register`: a player, by account, with the names and rank to show (else the registry's).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct RegisterForm {
    #[serde(flatten)]
    sent: Sent,
    account: String,
    #[serde(flatten)]
    fields: PlayerFields,
}

/// `team`: a team and its members' numbers.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TeamForm {
    #[serde(flatten)]
    sent: Sent,
    team: String,
    name: String,
    members: String,
}

/// `line-up`: a team's players for a round.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct LineUpForm {
    #[serde(flatten)]
    sent: Sent,
    round: String,
    team: String,
    members: String,
}

/// `start` and `publish`: nothing but the command.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PlainForm {
    #[serde(flatten)]
    sent: Sent,
}

/// `chat`: the players' chat of the tournament's event on (`1`) or off (`0`).
#[derive(Debug, Default, Deserialize)]
pub struct ChatForm {
    #[serde(flatten)]
    sent: Sent,
    #[serde(default)]
    on: String,
}

/// `pair`: the round to pair (empty: the next).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PairForm {
    #[serde(flatten)]
    sent: Sent,
    round: String,
}

/// `forbid` and `allow`: two players who must not meet, in every round or (`scope=round`) one.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ForbidForm {
    #[serde(flatten)]
    sent: Sent,
    a: String,
    b: String,
    scope: String,
    round: String,
}

/// `fix`: a pairing the director sets for a round.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct FixForm {
    #[serde(flatten)]
    sent: Sent,
    round: String,
    black: String,
    white: String,
}

/// `bye`: a bye granted for a round (`full`, `half`, `zero`).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ByeForm {
    #[serde(flatten)]
    sent: Sent,
    round: String,
    player: String,
    kind: String,
}

/// `result`: a table's result, or its correction, and how the game ended.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ResultForm {
    #[serde(flatten)]
    sent: Sent,
    round: String,
    table: String,
    /// `B+`, `W+`, `draw`, `both-lose`, `void`.
    outcome: String,
    /// One of [`HOW`]'s values.
    how: String,
    /// A forfeit checkbox (older forms): the result is a forfeit whatever `how` says.
    forfeit: Option<String>,
    /// `on` for a correction.
    correction: String,
    /// `yes` once the director has confirmed a change of published results.
    confirm: String,
}

/// `withdraw`: a player who leaves, and why (`request`, `no-shows`, `disqualified`).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct WithdrawForm {
    #[serde(flatten)]
    sent: Sent,
    player: String,
    reason: String,
    /// `yes` once the director has confirmed a change of published results.
    confirm: String,
}

/// `edit`: a registered player's registration as corrected (the rank only before the first round).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct EditForm {
    #[serde(flatten)]
    sent: Sent,
    player: String,
    #[serde(flatten)]
    fields: PlayerFields,
}

/// `remove`: a player never placed in a round, taken off the field.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct RemoveForm {
    #[serde(flatten)]
    sent: Sent,
    player: String,
}

/// `unpair`: the last round's pairing taken back (no result entered yet).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct UnpairForm {
    #[serde(flatten)]
    sent: Sent,
    round: String,
}

/// `settings`: what may change mid-event (empty fields: as they are).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SettingsForm {
    #[serde(flatten)]
    sent: Sent,
    rounds: String,
    top_bar: String,
    bottom_bar: String,
    ranking: String,
}

/// `facts`: the event's own facts, the whole set (see [`weiqi_tournament::facts`]).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct FactsForm {
    #[serde(flatten)]
    sent: Sent,
    /// `YYYY-MM-DD` (a date input), or empty.
    start: String,
    end: String,
    city: String,
    city_latin: String,
    country: String,
    director: String,
    /// One club a line: `杭州棋院 = Hang` (also `,`, `，`, `：`, `:` or a tab between them).
    clubs: String,
}

impl FactsForm {
    /// The facts the form gives, or what is wrong in the page's language (the tournament checks the
    /// rest: see [`weiqi_tournament::facts::EventFacts::validate`]).
    fn facts(&self, lang: Lang) -> Result<EventFacts, String> {
        let date = |field: &str, text: &str| -> Result<Option<CivilDate>, String> {
            let text = text.trim();
            if text.is_empty() {
                return Ok(None);
            }
            text.parse().map(Some).map_err(|_| {
                ta(
                    lang,
                    "desk-bad-date",
                    &[("field", t(lang, &format!("desk-field-{field}"))), ("date", text.to_string())],
                )
            })
        };
        let mut club_codes = std::collections::BTreeMap::new();
        for line in self.clubs.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let Some((club, code)) = line.rsplit_once(['=', ',', '，', ':', '：', '\t']) else {
                return Err(ta(lang, "desk-bad-club-line", &[("line", line.to_string())]));
            };
            club_codes.insert(club.trim().to_string(), code.trim().to_string());
        }
        Ok(EventFacts {
            start: date("start", &self.start)?,
            end: date("end", &self.end)?,
            city: self.city.trim().to_string(),
            city_latin: self.city_latin.trim().to_string(),
            country: self.country.trim().to_ascii_uppercase(),
            director: self.director.trim().to_string(),
            club_codes,
        })
    }
}

impl ResultForm {
    /// The result as the tournament records it, or what is missing.
    fn result(&self, lang: Lang) -> Result<GameResult, String> {
        let outcome = match self.outcome.trim() {
            "B+" => Outcome::Win(Color::Black),
            "W+" => Outcome::Win(Color::White),
            "draw" => Outcome::Draw,
            "both-lose" => Outcome::BothLose,
            "void" => Outcome::Void,
            _ => return Err(crate::i18n::refusal(lang, "missing_outcome", "result.outcome is required")),
        };
        // How it ended, as the referee enters it: only a result marked as a forfeit is one (not rated).
        let reason = match self.how.trim() {
            _ if self.forfeit.is_some() => ResultReason::Forfeit,
            "forfeit" => ResultReason::Forfeit,
            "resignation" => ResultReason::Resignation,
            "time" => ResultReason::Time,
            "ruling" => ResultReason::Referee,
            _ => ResultReason::Counted,
        };
        Ok(GameResult { outcome, reason })
    }

    fn is_correction(&self) -> bool {
        self.correction == "on"
    }
}

/// A desk command on its way: who sends it, in which language, to which tournament.
struct Desk {
    web: Arc<Web>,
    viewer: Viewer,
    caller: Caller,
    api: TournamentApi,
    id: String,
    rid: String,
}

type Sending = Result<Result<u64, ApiError>, String>;

impl Desk {
    /// The form's CSRF token checked and its sender one of the desk's staff; else the refusal page.
    async fn open(web: Arc<Web>, headers: &HeaderMap, id: String, sent: &Sent) -> Result<Desk, Response> {
        let (viewer, member) = acting(&web, headers, Some(&sent.csrf), staff, "desk-only").await?;
        let Some(api) = service(&web).cloned() else {
            return Err(message(&web, &viewer, StatusCode::NOT_FOUND, &t(viewer.lang, "tournament-not-found")));
        };
        let rid = crate::pages::form_request_id(Some(&sent.rid));
        Ok(Desk { caller: member.caller(), web, viewer, api, id, rid })
    }

    fn lang(&self) -> Lang {
        self.viewer.lang
    }

    /// Sends `command` to the tournament's API with the member as its caller: the log position it
    /// reached.
    async fn send(&self, command: TournamentCommand) -> Result<u64, ApiError> {
        self.api.act(&self.caller, &self.id, &self.rid, command).await.map(|a| a.sequence)
    }

    /// Sends a command of the pairing core.
    async fn core(&self, command: Command) -> Result<u64, ApiError> {
        self.send(TournamentCommand::Core(command)).await
    }

    /// Whether the tournament's results are published (a withdrawal or a correction then changes the
    /// official results, which are published again: the desk asks first).
    async fn published(&self) -> bool {
        self.api.summary(&self.id, 0).await.is_ok_and(|s| s.publications > 0)
    }

    /// The page after the command: the desk page once the read model shows what it did (a result
    /// stays on its round's results), or the desk page with the refusal.
    async fn finish(self, verb: &str, result_round: Option<&str>, outcome: Sending) -> Response {
        let Desk { web, viewer, id, .. } = self;
        let lang = viewer.lang;
        match outcome {
            Ok(Ok(reached)) => {
                // Wait (briefly) for the read model to show what the command did, so the page drawn
                // next reads it.
                settle(&web, &id, reached).await;
                let round = result_round.map(|r| format!("&results={}#results", r.trim()));
                redirect(&format!("/desk/tournaments/{id}?done={verb}{}", round.unwrap_or_default()), vec![])
            }
            Ok(Err(e)) => with_status(
                render(&web, &viewer, &id, Some((false, refused_text(lang, &e))), None, Shown::default()).await,
                refused_status(&e),
            ),
            Err(why) => with_status(
                render(&web, &viewer, &id, Some((false, why)), None, Shown::default()).await,
                StatusCode::BAD_REQUEST,
            ),
        }
    }
}

/// A desk form: it carries the CSRF token and the request id ([`Sent`]).
pub trait DeskForm: serde::de::DeserializeOwned + Send {
    /// What every desk form carries.
    fn sent(&self) -> &Sent;
}

macro_rules! desk_forms {
    ($($form:ty),* $(,)?) => {
        $(impl DeskForm for $form {
            fn sent(&self) -> &Sent {
                &self.sent
            }
        })*
    };
}

desk_forms!(
    ChatForm,
    RegisterForm,
    TeamForm,
    LineUpForm,
    PlainForm,
    PairForm,
    ForbidForm,
    FixForm,
    ByeForm,
    ResultForm,
    WithdrawForm,
    FactsForm,
    EditForm,
    RemoveForm,
    UnpairForm,
    SettingsForm
);

/// A desk command as its handler receives it: the tournament from the path, the typed form, its CSRF
/// token checked and its sender one of the desk's staff; anyone else is answered with the refusal
/// page before the handler runs.
pub struct DeskCommand<F> {
    desk: Desk,
    form: F,
}

impl<F: DeskForm> axum::extract::FromRequest<Arc<Web>> for DeskCommand<F> {
    type Rejection = Response;

    async fn from_request(request: axum::extract::Request, web: &Arc<Web>) -> Result<Self, Response> {
        use axum::extract::FromRequestParts as _;
        use axum::response::IntoResponse as _;
        let (mut parts, body) = request.into_parts();
        let Path(id) = Path::<String>::from_request_parts(&mut parts, web).await.map_err(|e| e.into_response())?;
        let headers = parts.headers.clone();
        let request = axum::extract::Request::from_parts(parts, body);
        let Form(form) = Form::<F>::from_request(request, web).await.map_err(|e| e.into_response())?;
        let desk = Desk::open(web.clone(), &headers, id, form.sent()).await?;
        Ok(DeskCommand { desk, form })
    }
}

/// Player numbers as the core names players.
fn players(numbers: Vec<u32>) -> Vec<PlayerId> {
    numbers.into_iter().map(PlayerId).collect()
}

/// Enters `account` in the player registry (if it is a platform account not there yet) from the
/// desk's fields; a refusal is logged, the tournament's registration stands.
async fn register_in_registry(desk: &Desk, account: &str, fields: &PlayerFields) {
    let Some(registry) = &desk.web.registry else { return };
    let Some(known) = desk.web.index.account(account) else { return };
    if registry.profile(account).await.is_some() {
        return;
    }
    let (mut zh, latin) = (fields.name_zh.trim().to_string(), fields.name_latin.trim().to_string());
    if zh.is_empty() && latin.is_empty() {
        zh = known.display_name.clone();
    }
    let rank = Some(fields.rank.trim()).filter(|r| !r.is_empty());
    if let Err(why) = registry
        .register(account, &zh, &latin, fields.region.trim(), rank, &desk.caller.id, &format!("desk-{}", desk.rid))
        .await
    {
        tracing::warn!(%account, error = %why, "a player the desk registered is not in the player registry");
    }
}

/// `POST …/register`.
pub async fn register(DeskCommand { desk, form: f }: DeskCommand<RegisterForm>) -> Response {
    let outcome: Sending = async {
        let account = f.account.trim();
        if account.is_empty() {
            return Err(t(desk.lang(), "desk-account-required"));
        }
        let entry = f.fields.any().then(|| f.fields.entry());
        let registered = desk.api.register(&desk.caller, &desk.id, &desk.rid, account, 0, entry).await;
        // An organiser's registration enters a platform account not yet in the player registry there
        // too, with the names, region and grade the desk was given (issue 33 item 1).
        if registered.is_ok() {
            register_in_registry(&desk, account, &f.fields).await;
        }
        Ok(registered.map(|a| a.sequence))
    }
    .await;
    desk.finish("register", None, outcome).await
}

/// `POST …/team`.
pub async fn team(DeskCommand { desk, form: f }: DeskCommand<TeamForm>) -> Response {
    let lang = desk.lang();
    let outcome: Sending = async {
        let team = TeamId(number(&f.team, "team", lang)?);
        let members = players(numbers(&f.members, lang)?);
        Ok(desk.core(Command::RegisterTeam { team, name: f.name.trim().to_string(), members }).await)
    }
    .await;
    desk.finish("team", None, outcome).await
}

/// `POST …/line-up`.
pub async fn line_up(DeskCommand { desk, form: f }: DeskCommand<LineUpForm>) -> Response {
    let lang = desk.lang();
    let outcome: Sending = async {
        let round = number(&f.round, "round", lang)?;
        let team = TeamId(number(&f.team, "team", lang)?);
        let players = players(numbers(&f.members, lang)?);
        Ok(desk.core(Command::SubmitLineUp { round, team, players }).await)
    }
    .await;
    desk.finish("line-up", None, outcome).await
}

/// `POST …/edit`.
pub async fn edit(DeskCommand { desk, form: f }: DeskCommand<EditForm>) -> Response {
    let lang = desk.lang();
    let outcome: Sending = async {
        let player = number(&f.player, "player", lang)?;
        let edited = desk.api.edit_player(&desk.caller, &desk.id, &desk.rid, player, f.fields.entry()).await;
        Ok(edited.map(|a| a.sequence))
    }
    .await;
    desk.finish("edit", None, outcome).await
}

/// `POST …/remove`.
pub async fn remove(DeskCommand { desk, form: f }: DeskCommand<RemoveForm>) -> Response {
    let lang = desk.lang();
    let outcome: Sending = async {
        let player = PlayerId(number(&f.player, "player", lang)?);
        Ok(desk.core(Command::RemovePlayer { player }).await)
    }
    .await;
    desk.finish("remove", None, outcome).await
}

/// `POST …/unpair`.
pub async fn unpair(DeskCommand { desk, form: f }: DeskCommand<UnpairForm>) -> Response {
    let lang = desk.lang();
    let outcome: Sending = async {
        let round = number(&f.round, "round", lang)?;
        Ok(desk.core(Command::UnpairRound { round }).await)
    }
    .await;
    desk.finish("unpair", None, outcome).await
}

/// `POST …/settings`.
pub async fn settings(DeskCommand { desk, form: f }: DeskCommand<SettingsForm>) -> Response {
    use weiqi_pairing::config::McMahonBars;
    use weiqi_pairing::rank::Rank;
    use weiqi_pairing::standings::TieBreak;
    let lang = desk.lang();
    let outcome: Sending = async {
        let rounds = if f.rounds.trim().is_empty() { None } else { Some(number(&f.rounds, "rounds", lang)?) };
        let rank = |field: &str, text: &str| -> Result<Rank, String> {
            text.trim().parse::<Rank>().map_err(|_| {
                ta(
                    lang,
                    "desk-bad-rank",
                    &[("field", t(lang, &format!("desk-field-{field}"))), ("rank", text.trim().to_string())],
                )
            })
        };
        let bars = match (f.top_bar.trim(), f.bottom_bar.trim()) {
            ("", "") => None,
            (top, bottom) => Some(McMahonBars { top: rank("top_bar", top)?, bottom: rank("bottom_bar", bottom)? }),
        };
        let names = f.ranking.split([',', '，', '、', ' ']).map(str::trim).filter(|s| !s.is_empty());
        let ranking = names
            .map(|n| {
                TieBreak::from_any_name(n).ok_or_else(|| ta(lang, "desk-bad-criterion", &[("name", n.to_string())]))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let ranking = (!ranking.is_empty()).then_some(ranking);
        let changed = desk.api.change_settings(&desk.caller, &desk.id, &desk.rid, rounds, bars, ranking).await;
        Ok(changed.map(|a| a.sequence))
    }
    .await;
    desk.finish("settings", None, outcome).await
}

/// `POST …/facts`.
pub async fn facts(DeskCommand { desk, form: f }: DeskCommand<FactsForm>) -> Response {
    let outcome: Sending = match f.facts(desk.lang()) {
        Ok(facts) => Ok(desk.send(TournamentCommand::SetFacts(facts)).await),
        Err(why) => Err(why),
    };
    desk.finish("facts", None, outcome).await
}

/// `POST …/start`.
pub async fn start(DeskCommand { desk, .. }: DeskCommand<PlainForm>) -> Response {
    let outcome = Ok(desk.core(Command::Start).await);
    desk.finish("start", None, outcome).await
}

/// `POST …/publish`.
pub async fn publish(DeskCommand { desk, .. }: DeskCommand<PlainForm>) -> Response {
    let outcome = Ok(desk.send(TournamentCommand::Publish).await);
    desk.finish("publish", None, outcome).await
}

/// `POST …/chat`: the event's staff switch its players' chat off or on again (issue 32 item 10), a
/// logged event of the chat's moderation, read by every game of the event.
pub async fn chat(DeskCommand { desk, form: f }: DeskCommand<ChatForm>) -> Response {
    let lang = desk.lang();
    let outcome: Sending = async {
        let event = match desk.api.event_of(&desk.id).await {
            Ok(e) => e,
            Err(e) => return Ok(Err(e)),
        };
        // Staff of this event only (its organisers and referees, administrators).
        if !desk.caller.referees(Some(&event)) {
            return Err(t(lang, "desk-only"));
        }
        let who = weiqi_chat::Speaker { id: desk.caller.id.clone(), staff: true, ..Default::default() };
        let on = f.on.trim() == "1";
        let command = weiqi_chat::ModerationCommand::SwitchPlayersChat { event, on };
        match desk.web.chat.moderate(&format!("desk-chat-{}", desk.rid), &who, &command).await {
            Ok(()) | Err(weiqi_chat::ChatError::Moderation(weiqi_chat::ModerationRejection::Unchanged)) => Ok(Ok(0)),
            Err(e) => Err(crate::i18n::refusal(lang, e.code(), "")),
        }
    }
    .await;
    desk.finish("chat", None, outcome).await
}

/// `POST …/pair`.
pub async fn pair(DeskCommand { desk, form: f }: DeskCommand<PairForm>) -> Response {
    let lang = desk.lang();
    let outcome: Sending = async {
        let round = number(&f.round, "round", lang)?;
        Ok(desk.send(TournamentCommand::PairRound { round: (round != 0).then_some(round) }).await)
    }
    .await;
    desk.finish("pair", None, outcome).await
}

/// `POST …/forbid` and `POST …/allow` (`lift`).
async fn forbid_or_allow(DeskCommand { desk, form: f }: DeskCommand<ForbidForm>, lift: bool) -> Response {
    let lang = desk.lang();
    let outcome: Sending = async {
        let (a, b) = (PlayerId(number(&f.a, "a", lang)?), PlayerId(number(&f.b, "b", lang)?));
        let command = if lift {
            Command::AllowPair { a, b }
        } else {
            // A forbid holds for every round unless the director picks the one round.
            let round = if f.scope.trim() == "round" { number(&f.round, "round", lang)? } else { 0 };
            Command::ForbidPair { a, b, round: (round > 0).then_some(round) }
        };
        Ok(desk.core(command).await)
    }
    .await;
    desk.finish(if lift { "allow" } else { "forbid" }, None, outcome).await
}

/// `POST …/forbid`.
pub async fn forbid(command: DeskCommand<ForbidForm>) -> Response {
    forbid_or_allow(command, false).await
}

/// `POST …/allow`.
pub async fn allow(command: DeskCommand<ForbidForm>) -> Response {
    forbid_or_allow(command, true).await
}

/// `POST …/fix`.
pub async fn fix(DeskCommand { desk, form: f }: DeskCommand<FixForm>) -> Response {
    let lang = desk.lang();
    let outcome: Sending = async {
        let round = number(&f.round, "round", lang)?;
        let black = PlayerId(number(&f.black, "black", lang)?);
        let white = PlayerId(number(&f.white, "white", lang)?);
        Ok(desk.core(Command::FixPairing { round, black, white }).await)
    }
    .await;
    desk.finish("fix", None, outcome).await
}

/// `POST …/bye`.
pub async fn bye(DeskCommand { desk, form: f }: DeskCommand<ByeForm>) -> Response {
    let lang = desk.lang();
    let outcome: Sending = async {
        let round = number(&f.round, "round", lang)?;
        let player = PlayerId(number(&f.player, "player", lang)?);
        Ok(desk.core(Command::GrantBye { round, player, kind: bye_kind(f.kind.trim()) }).await)
    }
    .await;
    desk.finish("bye", None, outcome).await
}

/// `POST …/cancel-bye`: a bye granted for a round not yet paired, taken back (a player marked
/// absent who came after all).
pub async fn cancel_bye(DeskCommand { desk, form: f }: DeskCommand<ByeForm>) -> Response {
    let lang = desk.lang();
    let outcome: Sending = async {
        let round = number(&f.round, "round", lang)?;
        let player = PlayerId(number(&f.player, "player", lang)?);
        Ok(desk.core(Command::CancelBye { round, player }).await)
    }
    .await;
    desk.finish("cancel-bye", None, outcome).await
}

/// `POST …/result`: a result, or (`correction=on`) its correction; after publication, a correction
/// is confirmed first.
pub async fn result(DeskCommand { desk, form: f }: DeskCommand<ResultForm>) -> Response {
    let lang = desk.lang();
    if f.is_correction() && f.confirm != "yes" && desk.published().await {
        let what = ta(
            lang,
            "desk-confirm-what-result",
            &[
                ("round", f.round.trim().to_string()),
                ("table", f.table.trim().to_string()),
                ("result", crate::pages::tournament::result_text(lang, f.outcome.trim())),
            ],
        );
        let mut fields = vec![
            ("csrf", f.sent.csrf.clone()),
            ("rid", f.sent.rid.clone()),
            ("round", f.round.clone()),
            ("table", f.table.clone()),
            ("outcome", f.outcome.clone()),
            ("how", f.how.clone()),
            ("correction", f.correction.clone()),
        ];
        if let Some(forfeit) = &f.forfeit {
            fields.push(("forfeit", forfeit.clone()));
        }
        return confirm_page(&desk, "result", "desk-confirm-correction", &what, &fields);
    }
    let outcome: Sending = async {
        let game = GameRef { round: number(&f.round, "round", lang)?, table: number(&f.table, "table", lang)? };
        let result = f.result(lang)?;
        let command = if f.is_correction() {
            Command::CorrectResult { game, result, reason: Correction::RecordingError }
        } else {
            Command::RecordResult { game, result }
        };
        Ok(desk.core(command).await)
    }
    .await;
    // A result stays on its round's results (a correction of an earlier round included).
    desk.finish("result", Some(&f.round), outcome).await
}

/// `POST …/withdraw`: after publication, confirmed first.
pub async fn withdraw(DeskCommand { desk, form: f }: DeskCommand<WithdrawForm>) -> Response {
    let lang = desk.lang();
    if f.confirm != "yes" && desk.published().await {
        let what = ta(lang, "desk-confirm-what-withdraw", &[("player", f.player.trim().to_string())]);
        let fields = [
            ("csrf", f.sent.csrf.clone()),
            ("rid", f.sent.rid.clone()),
            ("player", f.player.clone()),
            ("reason", f.reason.clone()),
        ];
        return confirm_page(&desk, "withdraw", "desk-confirm-withdraw", &what, &fields);
    }
    let outcome: Sending = async {
        let reason = match f.reason.trim() {
            "no-shows" => WithdrawalReason::NoShows,
            "disqualified" => WithdrawalReason::Disqualified,
            _ => WithdrawalReason::Request,
        };
        let player = PlayerId(number(&f.player, "player", lang)?);
        Ok(desk.core(Command::Withdraw { player, reason }).await)
    }
    .await;
    desk.finish("withdraw", None, outcome).await
}

/// `POST …/{verb}` for a verb the desk does not have.
pub async fn unknown(State(web): State<Arc<Web>>, viewer: Viewer, Path((id, _)): Path<(String, String)>) -> Response {
    let why = t(viewer.lang, "desk-unknown-command");
    with_status(render(&web, &viewer, &id, Some((false, why)), None, Shown::default()).await, StatusCode::BAD_REQUEST)
}

/// Asks before a command that changes published results: what it does (`warning`, `what`), and the
/// same form again (`fields`) with `confirm=yes` (WEB.md: the confirmation carries
/// `data-action="confirm"`).
fn confirm_page(desk: &Desk, verb: &str, warning: &str, what: &str, fields: &[(&str, String)]) -> Response {
    let lang = desk.lang();
    let id = &desk.id;
    let body = html! {
        h1 { (t(lang, "desk-confirm-title")) }
        section.card id="confirm" role="alertdialog" {
            p.warning { (t(lang, warning)) }
            p data-confirm-what="" { (what) }
            form.inline method="post" action={ "/desk/tournaments/" (id) "/" (verb) } {
                @for (k, v) in fields {
                    input type="hidden" name=(k) value=(v);
                }
                input type="hidden" name="confirm" value="yes";
                button.danger type="submit" data-action="confirm" { (t(lang, "desk-confirm")) }
                " "
                a href={ "/desk/tournaments/" (id) } data-action="cancel" { (t(lang, "desk-confirm-cancel")) }
            }
        }
    };
    page(&desk.web, &desk.viewer, &t(lang, "desk-confirm-title"), body, &[])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(fields: &[(&str, &str)]) -> FactsForm {
        let encoded = serde_urlencoded::to_string(fields).unwrap();
        serde_urlencoded::from_str(&encoded).unwrap()
    }

    /// The facts form reads dates from date inputs, the country in any case, and one club code a
    /// line with the separators Chinese keyboards type; a wrong date or line is refused in the
    /// page's language with the field.
    #[test]
    fn the_facts_form_reads_as_directors_type_it() {
        let f = form(&[
            ("start", "2026-11-28"),
            ("end", "2026-11-29"),
            ("city", " 杭州 "),
            ("country", "cn"),
            ("director", "王立诚"),
            ("clubs", "杭州棋院 = Hang\n上海棋院：SH\n\nQiyuan, Qiy"),
        ]);
        let facts = f.facts(Lang::ZhCn).unwrap();
        assert_eq!(facts.start.map(|d| d.to_string()).as_deref(), Some("2026-11-28"));
        assert_eq!((facts.city.as_str(), facts.country.as_str()), ("杭州", "CN"));
        assert_eq!(facts.club_codes.len(), 3);
        assert_eq!(facts.club_codes["上海棋院"], "SH");
        assert_eq!(facts.validate(), Ok(()));

        let why = form(&[("start", "11/28/2026")]).facts(Lang::ZhCn).unwrap_err();
        assert!(why.contains("开始日期") && why.contains("11/28/2026"), "{why}");
        let why = form(&[("clubs", "杭州棋院 Hang")]).facts(Lang::ZhCn).unwrap_err();
        assert!(why.contains("杭州棋院 Hang") && why.contains("俱乐部"), "{why}");
    }
}
