//! What the pages list: every game and every account, folded from their logs, and every tournament's id.
//!
//! Two followers read the `game` and `account` logs from the start (on every start: the index is a
//! read model, rebuilt rather than stored) and fold each aggregate through its own pure `evolve`. The
//! lobby's lists are queries on it; a change bumps a counter the lobby's stream waits on.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use futures::StreamExt;
use tokio::sync::watch;
use weiqi_account::Account;
use weiqi_account::aggregate::Accounts;
use weiqi_aggregate::Aggregate;
use weiqi_eventlog::{AggregateKind, EventLog, LogError, Position};
use weiqi_game::convert::fold_recorded;
use weiqi_game::domain::{GameState, Phase};

use crate::Web;

/// The folded games and accounts.
pub struct Index {
    inner: Mutex<Folded>,
    changes: watch::Sender<u64>,
}

#[derive(Default)]
struct Folded {
    games: HashMap<String, GameState>,
    /// Game ids in order of creation.
    order: Vec<String>,
    accounts: BTreeMap<String, Account>,
    /// Tournament ids in order of creation.
    tournaments: Vec<String>,
    /// Every account id a tournament registered a player under, in lower case.
    entrants: std::collections::HashSet<String>,
    version: u64,
}

impl Default for Index {
    fn default() -> Index {
        Index { inner: Mutex::new(Folded::default()), changes: watch::channel(0).0 }
    }
}

/// A game as the lobby lists it.
#[derive(Clone, Debug)]
pub struct Listed {
    /// Its id.
    pub id: String,
    /// Its state.
    pub state: GameState,
}

impl Listed {
    /// Whether it is being played (or counted, paused, adjourned, or waiting for its nigiri).
    /// A challenge its opponent has not accepted is not a game yet and is not listed.
    pub fn live(&self) -> bool {
        !self.state.awaiting_acceptance()
            && matches!(
                self.state.phase,
                Phase::Nigiri | Phase::Ready | Phase::Playing | Phase::Paused | Phase::Adjourned | Phase::Scoring
            )
    }

    /// Whether `player` is seated in it.
    pub fn seats(&self, player: &str) -> bool {
        self.state.setup.as_ref().is_some_and(|s| s.first.id.0 == player || s.second.id.0 == player)
    }
}

impl Index {
    fn lock(&self) -> std::sync::MutexGuard<'_, Folded> {
        self.inner.lock().expect("index lock")
    }

    /// Whether some enabled account holds the `admin` role.
    pub fn has_admin(&self) -> bool {
        self.lock().accounts.values().any(|a| a.disabled.is_none() && a.roles.contains("admin"))
    }

    /// Every account, by name.
    pub fn accounts(&self) -> Vec<(String, Account)> {
        self.lock().accounts.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
    }

    /// The account `name` as last folded.
    pub fn account(&self, name: &str) -> Option<Account> {
        self.lock().accounts.get(name).cloned()
    }

    /// The games `keep` selects, newest first, at most `limit`.
    pub fn games(&self, limit: usize, keep: impl Fn(&Listed) -> bool) -> Vec<Listed> {
        let folded = self.lock();
        folded
            .order
            .iter()
            .rev()
            .filter_map(|id| folded.games.get(id).map(|s| Listed { id: id.clone(), state: s.clone() }))
            .filter(|l| keep(l))
            .take(limit)
            .collect()
    }

    /// One game.
    pub fn game(&self, id: &str) -> Option<Listed> {
        self.lock().games.get(id).map(|s| Listed { id: id.to_string(), state: s.clone() })
    }

    /// Every tournament's id, in order of creation.
    pub fn tournaments(&self) -> Vec<String> {
        self.lock().tournaments.clone()
    }

    /// The account whose name is `name` without regard to case, if one exists (`Alice` for `alice`).
    pub fn account_like(&self, name: &str) -> Option<String> {
        self.lock().accounts.keys().find(|a| a.eq_ignore_ascii_case(name)).cloned()
    }

    /// Whether `name` (without regard to case) already names a player on the platform: seated in a
    /// game, or registered in a tournament. Such an identity is not free for self-registration: its
    /// games and results would follow whoever took it.
    pub fn identity_in_use(&self, name: &str) -> bool {
        let folded = self.lock();
        let lower = name.to_ascii_lowercase();
        folded.entrants.contains(&lower)
            || folded
                .games
                .values()
                .filter_map(|g| g.setup.as_ref())
                .any(|s| s.first.id.0.eq_ignore_ascii_case(name) || s.second.id.0.eq_ignore_ascii_case(name))
    }

    /// Notes a tournament (created here, or seen in its log).
    pub fn add_tournament(&self, id: &str) {
        let mut folded = self.lock();
        if !folded.tournaments.iter().any(|t| t == id) {
            folded.tournaments.push(id.to_string());
        }
    }

    /// A receiver that changes whenever a game or an account does.
    pub fn changes(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// Tells the lobby's streams something changed that is not in a log (a challenge).
    pub fn poke(&self) {
        let mut folded = self.lock();
        self.bump(&mut folded);
    }

    fn bump(&self, folded: &mut Folded) {
        folded.version += 1;
        self.changes.send_replace(folded.version);
    }
}

/// Starts both followers; returns once both have folded what the logs held when called.
pub(crate) async fn spawn(web: Arc<Web>) -> Result<(), LogError> {
    let (games_ready, games_done) = tokio::sync::oneshot::channel();
    let (accounts_ready, accounts_done) = tokio::sync::oneshot::channel();
    let games_head = web.log.head(AggregateKind::Game).await?;
    let accounts_head = web.log.head(AggregateKind::Account).await?;
    let mut games = web.log.follow(AggregateKind::Game, Position::START).await?;
    let mut accounts = web.log.follow(AggregateKind::Account, Position::START).await?;
    let w = web.clone();
    tokio::spawn(async move {
        let follower = weiqi_eventlog::Follower::register("web_games", AggregateKind::Game);
        let mut ready = Some(games_ready);
        if Position::START.reaches(games_head) {
            let _ = ready.take().map(|r| r.send(()));
        }
        while let Some(item) = games.next().await {
            let Ok(recorded) = item else { continue };
            {
                let mut folded = w.index.lock();
                let id = recorded.aggregate_id.to_string();
                if !folded.games.contains_key(&id) {
                    folded.order.push(id.clone());
                }
                let state = folded.games.entry(id.clone()).or_default();
                if recorded.sequence == state.version + 1
                    && let Err(e) = fold_recorded(state, &recorded)
                {
                    tracing::warn!(game = %id, error = %e, "the web's index cannot fold this game");
                }
                w.index.bump(&mut folded);
            }
            follower.at(recorded.position);
            if recorded.position.reaches(games_head) {
                let _ = ready.take().map(|r| r.send(()));
            }
        }
    });
    let w = web.clone();
    tokio::spawn(async move {
        let follower = weiqi_eventlog::Follower::register("web_accounts", AggregateKind::Account);
        let mut ready = Some(accounts_ready);
        if Position::START.reaches(accounts_head) {
            let _ = ready.take().map(|r| r.send(()));
        }
        while let Some(item) = accounts.next().await {
            let Ok(recorded) = item else { continue };
            match Accounts::decode(&recorded) {
                Ok(event) => {
                    let mut folded = w.index.lock();
                    let account = folded.accounts.entry(recorded.aggregate_id.to_string()).or_default();
                    if let Err(e) = Accounts::evolve(account, &event) {
                        tracing::warn!(account = %recorded.aggregate_id, error = %e, "cannot fold this account");
                    }
                    // The authority decides every token from the account as it stands now: a
                    // disabled account, a revoked token or role, a signed-out session stop
                    // everywhere it is used (gRPC, overlays, streams, sessions) once this is folded.
                    w.auth.set_standing(recorded.aggregate_id.as_str(), Some(crate::session::standing(account)));
                    w.index.bump(&mut folded);
                }
                Err(e) => tracing::warn!(error = %e, "an account event that does not decode"),
            }
            follower.at(recorded.position);
            if recorded.position.reaches(accounts_head) {
                let _ = ready.take().map(|r| r.send(()));
            }
        }
    });
    // The tournaments' ids, for the desk's list (no state: the desk reads each through the gateway).
    let mut tournaments = web.log.follow(AggregateKind::Tournament, Position::START).await?;
    let w = web.clone();
    tokio::spawn(async move {
        let follower = weiqi_eventlog::Follower::register("web_tournaments", AggregateKind::Tournament);
        while let Some(item) = tournaments.next().await {
            if let Ok(recorded) = &item {
                follower.at(recorded.position);
            }
            let Ok(recorded) = item else { continue };
            // The ranking service keeps each event's final results beside it (`results-<id>`).
            if recorded.aggregate_id.as_str().starts_with("results-") {
                continue;
            }
            if recorded.sequence == 1 {
                w.index.add_tournament(recorded.aggregate_id.as_str());
            }
            if let Some(account) = entrant(&recorded) {
                w.index.lock().entrants.insert(account.to_ascii_lowercase());
            }
        }
    });
    let _ = games_done.await;
    let _ = accounts_done.await;
    Ok(())
}

/// The account a tournament event registers a player under, if it is a registration's `Entrant`.
fn entrant(recorded: &weiqi_eventlog::RecordedEvent) -> Option<String> {
    weiqi_tournament::codec::log::registered_account(recorded)
}
