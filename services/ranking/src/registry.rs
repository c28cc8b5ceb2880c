//! The player aggregate (pure): registry entry, grades held per ladder, rating and rank history.
//!
//! ```text
//! decide_player(&PlayerState, &PlayerCommand, now) -> Result<Vec<PlayerEvent>, PlayerRejection>
//! PlayerState::evolve(&mut self, &PlayerEvent)
//! ```
//!
//! One log per player (aggregate kind `player`, id = the player id). Ratings are recorded for any
//! player id seen in a rated game, registered or not; registration adds the profile. Grades change
//! only through [`PlayerCommand::DeclareRank`] (at registration), [`PlayerCommand::GrantRank`] (a
//! certificate) and [`PlayerCommand::RevokeRank`] (its revocation).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use weiqi_rating::{CaseId, GameId, Ladder, Millis, PlayerId, Rank};

/// What the registry knows about a player besides grades.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profile {
    /// The player's id (also their log's aggregate id).
    pub id: PlayerId,
    /// Name in Chinese script.
    pub name_zh: String,
    /// Name in Latin script.
    pub name_latin: String,
    /// Province, city or country code.
    pub region: String,
    /// Club.
    pub club: String,
    /// European Go Database PIN.
    pub egd_pin: String,
}

impl Default for Profile {
    fn default() -> Profile {
        Profile {
            id: PlayerId(String::new()),
            name_zh: String::new(),
            name_latin: String::new(),
            region: String::new(),
            club: String::new(),
            egd_pin: String::new(),
        }
    }
}

impl Profile {
    /// The name as printed on a certificate: `李明 / Li Ming`, or whichever is given.
    #[must_use]
    pub fn display_name(&self) -> String {
        match (self.name_zh.trim(), self.name_latin.trim()) {
            ("", "") => self.id.0.clone(),
            (zh, "") => zh.to_owned(),
            ("", latin) => latin.to_owned(),
            (zh, latin) => format!("{zh} / {latin}"),
        }
    }
}

/// How a grade came to be held (or lost).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RankBasis {
    /// Declared at registration.
    Declared,
    /// Granted by a certificate.
    Certified,
    /// The certificate that granted the grade was revoked.
    Revoked,
}

/// One change of grade in one ladder: the rank history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankEntry {
    /// The ladder.
    pub ladder: String,
    /// The new grade (`None`: no grade in this ladder any more).
    pub grade: Option<String>,
    /// Its name.
    pub grade_name: String,
    /// The grade before.
    pub previous: Option<String>,
    /// Why.
    pub basis: RankBasis,
    /// The certification case.
    pub case: Option<CaseId>,
    /// The certificate's serial.
    pub serial: Option<String>,
    /// A note (revocation reason).
    pub reason: String,
    /// When.
    pub at: Millis,
}

/// A grade held in one ladder.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Holding {
    /// Grade code.
    pub grade: String,
    /// Since when (results before this do not count for the next promotion).
    pub since: Millis,
    /// How it was obtained.
    pub basis: RankBasis,
    /// The case that granted it.
    pub case: Option<CaseId>,
}

/// A player's rating as recorded in their log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingPoint {
    /// The system name.
    pub system: String,
    /// Rating after.
    pub rating: f64,
    /// Deviation after.
    pub deviation: f64,
    /// Volatility after.
    pub volatility: f64,
    /// Rated games counted.
    pub games: u32,
    /// Provisional after.
    pub provisional: bool,
    /// Rating before.
    pub rating_before: f64,
    /// Deviation before.
    pub deviation_before: f64,
    /// The game rated (EGF, Elo).
    pub game: Option<GameId>,
    /// The Glicko-2 period closed.
    pub period: Option<i64>,
    /// The tournament: the one rated together (EGF), or the rated game's.
    pub tournament: Option<String>,
    /// The ledger entry it comes from.
    pub ledger_sequence: u64,
    /// When.
    pub at: Millis,
}

/// A promotion proposal recorded in the player's log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProposalRecord {
    /// Ladder.
    pub ladder: String,
    /// Proposed grade.
    pub to: String,
    /// Rules met.
    pub rules: Vec<String>,
    /// The case opened for it.
    pub case: CaseId,
    /// When.
    pub at: Millis,
}

/// What can happen to a player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum PlayerEvent {
    /// Entered in the registry.
    Registered {
        /// The profile.
        profile: Profile,
        /// When.
        at: Millis,
    },
    /// Profile replaced.
    ProfileUpdated {
        /// The new profile.
        profile: Profile,
        /// When.
        at: Millis,
    },
    /// A rating change.
    RatingChanged(RatingPoint),
    /// A grade change.
    RankChanged(RankEntry),
    /// A promotion proposal.
    PromotionProposed(ProposalRecord),
}

/// What can be asked of a player's log.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerCommand {
    /// Enter the player in the registry.
    Register {
        /// The profile.
        profile: Profile,
    },
    /// Replace the profile.
    UpdateProfile {
        /// The new profile.
        profile: Profile,
    },
    /// Declare a grade (at registration): only for a ladder where the player holds no grade yet.
    DeclareRank {
        /// Ladder.
        ladder: String,
        /// Grade code.
        grade: String,
        /// Its name.
        grade_name: String,
    },
    /// Record a rating change from ledger entry `point.ledger_sequence` (a no-op if recorded before).
    RecordRating(RatingPoint),
    /// Grant a grade by certificate (a no-op if this case was applied before).
    GrantRank {
        /// Ladder.
        ladder: String,
        /// Grade.
        grade: String,
        /// Its name.
        grade_name: String,
        /// The case.
        case: CaseId,
        /// The certificate serial.
        serial: String,
    },
    /// Take back a certified grade (a no-op if done before).
    RevokeRank {
        /// Ladder.
        ladder: String,
        /// The case whose certificate was revoked.
        case: CaseId,
        /// The certificate serial.
        serial: String,
        /// Why.
        reason: String,
        /// The grade the player held before the case, with its name.
        previous: Option<(String, String)>,
    },
    /// Record a proposal (a no-op if recorded before for this case).
    RecordProposal(ProposalRecord),
}

/// Why a player command was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayerRejection {
    /// Register on a registered player.
    #[error("player {0} is already registered")]
    AlreadyRegistered(PlayerId),
    /// Update of a player not in the registry.
    #[error("player {0} is not registered")]
    NotRegistered(PlayerId),
    /// A profile field is not acceptable.
    #[error("{field}: {reason}")]
    BadProfile {
        /// The field.
        field: &'static str,
        /// Why.
        reason: String,
    },
    /// The profile names another player than the log.
    #[error("the profile is for {found}, the log for {expected}")]
    WrongPlayer {
        /// In the profile.
        found: PlayerId,
        /// The log's player.
        expected: PlayerId,
    },
    /// A declared grade in a ladder where the player already holds one.
    #[error("{player} already holds {grade} in ladder {ladder}")]
    AlreadyGraded {
        /// The player.
        player: PlayerId,
        /// The ladder.
        ladder: String,
        /// The grade held.
        grade: String,
    },
}

/// A player's log folded.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlayerState {
    /// The player (set by the first event).
    pub id: Option<PlayerId>,
    /// The profile, once registered.
    pub profile: Option<Profile>,
    /// When registered.
    pub registered_at: Option<Millis>,
    /// Grades held, by ladder.
    pub grades: BTreeMap<String, Holding>,
    /// The latest rating.
    pub rating: Option<RatingPoint>,
    /// Highest ledger sequence recorded.
    pub ledger_sequence: u64,
    /// Every grade change, oldest first.
    pub rank_history: Vec<RankEntry>,
    /// Cases whose grant or revocation is recorded (`(case, revoked)`).
    pub cases: BTreeSet<(CaseId, bool)>,
    /// Cases proposed for.
    pub proposals: BTreeSet<CaseId>,
    /// The command id of the registration (set by the shell from the log; lets a retried
    /// registration recognise its own first try).
    pub registration_command: Option<String>,
    /// The last sequence folded.
    pub version: u64,
}

impl PlayerState {
    /// The national rank shown with the name: the professional grade if held, else the amateur one.
    #[must_use]
    pub fn display_rank(&self) -> Option<Rank> {
        ["professional", "amateur"]
            .iter()
            .filter_map(|l| self.grades.get(*l))
            .find_map(|h| h.grade.parse::<Rank>().ok())
    }

    /// Applies one event.
    pub fn evolve(&mut self, event: &PlayerEvent) {
        self.version += 1;
        match event {
            PlayerEvent::Registered { profile, at } => {
                self.id = Some(profile.id.clone());
                self.profile = Some(profile.clone());
                self.registered_at = Some(*at);
            }
            PlayerEvent::ProfileUpdated { profile, .. } => self.profile = Some(profile.clone()),
            PlayerEvent::RatingChanged(point) => {
                self.ledger_sequence = self.ledger_sequence.max(point.ledger_sequence);
                self.rating = Some(point.clone());
            }
            PlayerEvent::RankChanged(entry) => {
                match &entry.grade {
                    Some(grade) => {
                        self.grades.insert(
                            entry.ladder.clone(),
                            Holding {
                                grade: grade.clone(),
                                since: entry.at,
                                basis: entry.basis,
                                case: entry.case.clone(),
                            },
                        );
                    }
                    None => {
                        self.grades.remove(&entry.ladder);
                    }
                }
                if let Some(case) = &entry.case {
                    self.cases.insert((case.clone(), entry.basis == RankBasis::Revoked));
                }
                self.rank_history.push(entry.clone());
            }
            PlayerEvent::PromotionProposed(p) => {
                self.proposals.insert(p.case.clone());
            }
        }
    }

    /// Replays events.
    #[must_use]
    pub fn replay<'a>(events: impl IntoIterator<Item = &'a PlayerEvent>) -> PlayerState {
        let mut s = PlayerState::default();
        for e in events {
            s.evolve(e);
        }
        s
    }
}

/// Checks a profile for registration.
fn check_profile(profile: &Profile) -> Result<(), PlayerRejection> {
    let bad = |field, reason: &str| Err(PlayerRejection::BadProfile { field, reason: reason.to_owned() });
    if profile.name_zh.trim().is_empty() && profile.name_latin.trim().is_empty() {
        return bad("name", "a name in Chinese or Latin script is required");
    }
    for (field, value) in [
        ("name_zh", &profile.name_zh),
        ("name_latin", &profile.name_latin),
        ("region", &profile.region),
        ("club", &profile.club),
        ("egd_pin", &profile.egd_pin),
    ] {
        if value.contains(['\n', '\r']) || value.trim() != value {
            return bad(field, "one line without leading or trailing spaces");
        }
        if value.chars().count() > 200 {
            return bad(field, "at most 200 characters");
        }
    }
    if !profile.egd_pin.bytes().all(|c| c.is_ascii_digit()) {
        return bad("egd_pin", "digits only");
    }
    if profile.region.contains(':') {
        return bad("region", "no ':'");
    }
    Ok(())
}

/// Decides what a command does to a player's log. Pure: `now` is the decision time.
pub fn decide_player(
    state: &PlayerState,
    command: &PlayerCommand,
    now: Millis,
) -> Result<Vec<PlayerEvent>, PlayerRejection> {
    let same_player = |profile: &Profile| match &state.id {
        Some(id) if *id != profile.id => {
            Err(PlayerRejection::WrongPlayer { found: profile.id.clone(), expected: id.clone() })
        }
        _ => Ok(()),
    };
    Ok(match command {
        PlayerCommand::Register { profile } => {
            if state.profile.is_some() {
                return Err(PlayerRejection::AlreadyRegistered(profile.id.clone()));
            }
            same_player(profile)?;
            check_profile(profile)?;
            vec![PlayerEvent::Registered { profile: profile.clone(), at: now }]
        }
        PlayerCommand::UpdateProfile { profile } => {
            if state.profile.is_none() {
                return Err(PlayerRejection::NotRegistered(profile.id.clone()));
            }
            same_player(profile)?;
            check_profile(profile)?;
            if state.profile.as_ref() == Some(profile) {
                return Ok(Vec::new());
            }
            vec![PlayerEvent::ProfileUpdated { profile: profile.clone(), at: now }]
        }
        PlayerCommand::DeclareRank { ladder, grade, grade_name } => {
            if let Some(h) = state.grades.get(ladder) {
                if h.grade == *grade {
                    return Ok(Vec::new());
                }
                return Err(PlayerRejection::AlreadyGraded {
                    player: state.id.clone().unwrap_or_else(|| PlayerId::from("?")),
                    ladder: ladder.clone(),
                    grade: h.grade.clone(),
                });
            }
            vec![PlayerEvent::RankChanged(RankEntry {
                ladder: ladder.clone(),
                grade: Some(grade.clone()),
                grade_name: grade_name.clone(),
                previous: None,
                basis: RankBasis::Declared,
                case: None,
                serial: None,
                reason: String::new(),
                at: now,
            })]
        }
        PlayerCommand::RecordRating(point) => {
            if point.ledger_sequence <= state.ledger_sequence {
                return Ok(Vec::new());
            }
            vec![PlayerEvent::RatingChanged(point.clone())]
        }
        PlayerCommand::GrantRank { ladder, grade, grade_name, case, serial } => {
            if state.cases.contains(&(case.clone(), false)) {
                return Ok(Vec::new());
            }
            vec![PlayerEvent::RankChanged(RankEntry {
                ladder: ladder.clone(),
                grade: Some(grade.clone()),
                grade_name: grade_name.clone(),
                previous: state.grades.get(ladder).map(|h| h.grade.clone()),
                basis: RankBasis::Certified,
                case: Some(case.clone()),
                serial: Some(serial.clone()),
                reason: String::new(),
                at: now,
            })]
        }
        PlayerCommand::RevokeRank { ladder, case, serial, reason, previous } => {
            if state.cases.contains(&(case.clone(), true)) {
                return Ok(Vec::new());
            }
            let held = state.grades.get(ladder);
            // The grade reverts only if it is still the one this case granted; a later promotion
            // stands until its own case is reviewed (the revocation is recorded either way).
            let granted_here = held.is_some_and(|h| h.case.as_ref() == Some(case));
            let (grade, grade_name) = if granted_here {
                match previous {
                    Some((g, n)) => (Some(g.clone()), n.clone()),
                    None => (None, String::new()),
                }
            } else {
                (held.map(|h| h.grade.clone()), String::new())
            };
            vec![PlayerEvent::RankChanged(RankEntry {
                ladder: ladder.clone(),
                grade,
                grade_name,
                previous: held.map(|h| h.grade.clone()),
                basis: RankBasis::Revoked,
                case: Some(case.clone()),
                serial: Some(serial.clone()),
                reason: reason.clone(),
                at: now,
            })]
        }
        PlayerCommand::RecordProposal(p) => {
            if state.proposals.contains(&p.case) {
                return Ok(Vec::new());
            }
            vec![PlayerEvent::PromotionProposed(p.clone())]
        }
    })
}

/// The built-in ladder a grade code belongs to, for a declared rank (`3k`, `2d` → amateur; `5p` →
/// professional; `sh-3` → shanghai; `bj-5` → beijing).
#[must_use]
pub fn ladder_of_grade(grade: &str) -> Option<(Ladder, usize)> {
    Ladder::BUILT_IN.iter().filter_map(|id| Ladder::built_in(id)).find_map(|l| l.position(grade).map(|p| (l, p)))
}

/// The leaderboard band of a national rank: `pro`, `high-dan` (5–8 dan), `dan` (1–4 dan), `sdk`
/// (1–9 kyu), `ddk` (10–25 kyu), or `unranked`.
#[must_use]
pub fn rank_band(rank: Option<Rank>) -> &'static str {
    match rank {
        Some(Rank::Pro(_)) => "pro",
        Some(Rank::Dan(n)) if n >= 5 => "high-dan",
        Some(Rank::Dan(_)) => "dan",
        Some(Rank::Kyu(n)) if n <= 9 => "sdk",
        Some(Rank::Kyu(_)) => "ddk",
        None => "unranked",
    }
}

/// Every band name, for validation.
pub const BANDS: [&str; 6] = ["pro", "high-dan", "dan", "sdk", "ddk", "unranked"];

#[cfg(test)]
mod tests {
    use super::*;

    fn li() -> Profile {
        Profile {
            id: PlayerId::from("li"),
            name_zh: "李明".into(),
            name_latin: "Li Ming".into(),
            region: "shanghai".into(),
            club: "Huangpu".into(),
            egd_pin: "12345678".into(),
        }
    }

    fn run(state: &mut PlayerState, command: PlayerCommand, at: i64) -> Result<Vec<PlayerEvent>, PlayerRejection> {
        let events = decide_player(state, &command, Millis(at))?;
        for e in &events {
            state.evolve(e);
        }
        Ok(events)
    }

    #[test]
    fn given_nothing_when_registered_then_registered_and_twice_refused() {
        let mut s = PlayerState::default();
        let events = run(&mut s, PlayerCommand::Register { profile: li() }, 10).unwrap();
        assert_eq!(events, vec![PlayerEvent::Registered { profile: li(), at: Millis(10) }]);
        assert_eq!(s.profile.as_ref().unwrap().display_name(), "李明 / Li Ming");
        assert_eq!(
            run(&mut s, PlayerCommand::Register { profile: li() }, 11),
            Err(PlayerRejection::AlreadyRegistered(PlayerId::from("li")))
        );
    }

    #[test]
    fn bad_profiles_are_refused_with_the_field() {
        type Edit = fn(&mut Profile);
        let table: [(Edit, &str); 4] = [
            (|p| p.egd_pin = "12a".into(), "egd_pin"),
            (
                |p| {
                    p.name_zh.clear();
                    p.name_latin.clear();
                },
                "name",
            ),
            (|p| p.club = " x".into(), "club"),
            (|p| p.region = "a:b".into(), "region"),
        ];
        for (edit, field) in table {
            let mut p = li();
            edit(&mut p);
            let r = decide_player(&PlayerState::default(), &PlayerCommand::Register { profile: p }, Millis(0));
            assert!(matches!(r, Err(PlayerRejection::BadProfile { field: f, .. }) if f == field), "{field}: {r:?}");
        }
    }

    #[test]
    fn given_registered_when_profile_unchanged_then_nothing() {
        let mut s = PlayerState::default();
        run(&mut s, PlayerCommand::Register { profile: li() }, 1).unwrap();
        assert_eq!(run(&mut s, PlayerCommand::UpdateProfile { profile: li() }, 2).unwrap(), vec![]);
        let mut other = li();
        other.id = PlayerId::from("wang");
        assert!(matches!(
            run(&mut s, PlayerCommand::UpdateProfile { profile: other }, 3),
            Err(PlayerRejection::WrongPlayer { .. })
        ));
        let mut moved = li();
        moved.region = "beijing".into();
        assert_eq!(run(&mut s, PlayerCommand::UpdateProfile { profile: moved.clone() }, 4).unwrap().len(), 1);
        assert_eq!(s.profile, Some(moved));
    }

    #[test]
    fn ratings_are_recorded_once_per_ledger_entry() {
        let mut s = PlayerState::default();
        let point = |seq| RatingPoint {
            system: "glicko2".into(),
            rating: 1600.0,
            deviation: 200.0,
            volatility: 0.06,
            games: 3,
            provisional: true,
            rating_before: 1500.0,
            deviation_before: 350.0,
            game: None,
            period: Some(7),
            tournament: None,
            ledger_sequence: seq,
            at: Millis(5),
        };
        assert_eq!(run(&mut s, PlayerCommand::RecordRating(point(4)), 5).unwrap().len(), 1);
        assert!(run(&mut s, PlayerCommand::RecordRating(point(4)), 6).unwrap().is_empty());
        assert!(run(&mut s, PlayerCommand::RecordRating(point(3)), 6).unwrap().is_empty());
        assert_eq!(s.ledger_sequence, 4);
    }

    #[test]
    fn given_a_certified_grade_when_revoked_then_the_previous_grade_returns() {
        let mut s = PlayerState::default();
        run(&mut s, PlayerCommand::Register { profile: li() }, 1).unwrap();
        let declare =
            PlayerCommand::DeclareRank { ladder: "amateur".into(), grade: "1k".into(), grade_name: "1级".into() };
        run(&mut s, declare.clone(), 1).unwrap();
        assert!(run(&mut s, declare, 2).unwrap().is_empty(), "declaring the same grade again is a no-op");
        let grant = PlayerCommand::GrantRank {
            ladder: "amateur".into(),
            grade: "1d".into(),
            grade_name: "业余1段".into(),
            case: CaseId::from("case-1"),
            serial: "CWA-1".into(),
        };
        let events = run(&mut s, grant.clone(), 100).unwrap();
        let PlayerEvent::RankChanged(entry) = &events[0] else { panic!() };
        assert_eq!((entry.previous.as_deref(), entry.grade.as_deref()), (Some("1k"), Some("1d")));
        assert!(run(&mut s, grant, 101).unwrap().is_empty(), "granting twice is a no-op");
        assert_eq!(s.display_rank(), Some(Rank::Dan(1)));
        assert_eq!(s.grades["amateur"].since, Millis(100));
        assert_eq!(
            run(
                &mut s,
                PlayerCommand::DeclareRank { ladder: "amateur".into(), grade: "2d".into(), grade_name: String::new() },
                102
            ),
            Err(PlayerRejection::AlreadyGraded {
                player: PlayerId::from("li"),
                ladder: "amateur".into(),
                grade: "1d".into()
            })
        );
        let revoke = PlayerCommand::RevokeRank {
            ladder: "amateur".into(),
            case: CaseId::from("case-1"),
            serial: "CWA-1".into(),
            reason: "Art. 23.1".into(),
            previous: Some(("1k".into(), "1级".into())),
        };
        run(&mut s, revoke.clone(), 200).unwrap();
        assert!(run(&mut s, revoke, 201).unwrap().is_empty());
        assert_eq!(s.display_rank(), Some(Rank::Kyu(1)));
        assert_eq!(s.rank_history.len(), 3);
        assert_eq!(s.rank_history[2].basis, RankBasis::Revoked);
    }

    #[test]
    fn bands() {
        let table = [
            (Some(Rank::Pro(9)), "pro"),
            (Some(Rank::Dan(8)), "high-dan"),
            (Some(Rank::Dan(5)), "high-dan"),
            (Some(Rank::Dan(4)), "dan"),
            (Some(Rank::Kyu(1)), "sdk"),
            (Some(Rank::Kyu(9)), "sdk"),
            (Some(Rank::Kyu(10)), "ddk"),
            (None, "unranked"),
        ];
        for (rank, band) in table {
            assert_eq!(rank_band(rank), band, "{rank:?}");
        }
        assert_eq!(ladder_of_grade("sh-3").unwrap().0.id, "shanghai");
        assert_eq!(ladder_of_grade("5p").unwrap().0.id, "professional");
        assert!(ladder_of_grade("31k").is_none());
    }
}
