//! The player aggregate (pure): registry entry, grades held per ladder, rating and rank history.
//!
//! ```text
//! decide_player(&PlayerState, &PlayerCommand, now) -> Result<Vec<PlayerEvent>, RankingRejection>
//! PlayerState::evolve(&mut self, &PlayerEvent)
//! ```
//!
//! An empty decision means the command changes nothing (it was applied before): nothing is appended.
//!
//! One log per player (aggregate kind `player`, id = the player id). Ratings are recorded for any
//! player id seen in a rated game, registered or not; registration adds the profile. Grades change
//! only through [`PlayerCommand::DeclareRank`] (at registration), [`PlayerCommand::GrantRank`] (a
//! certificate) and [`PlayerCommand::RevokeRank`] (its revocation).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use weiqi_rating::{CaseId, GameId, Ladder, Millis, PlayerId, Rank, Standing};

use super::RankingRejection;

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
    /// Glicko-2: provisional, after a game of the rating period still open (final when it closes).
    #[serde(default)]
    pub open_period: bool,
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

/// Why a registry entry may not be merged into another (it would lose or move history that is
/// another log's fact).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MergeBlock {
    /// An entry merged into itself.
    SamePlayer,
    /// The duplicate has rated games: its ratings are the ledger's and stay under its id.
    Rated,
    /// The duplicate holds a certified grade: the certification office's record names it.
    Certified,
    /// The duplicate has an account: someone signs in as it.
    HasAccount,
    /// The entry kept was itself merged into another.
    KeptMerged,
}

impl MergeBlock {
    /// The stable code.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            MergeBlock::SamePlayer => "same_player",
            MergeBlock::Rated => "rated",
            MergeBlock::Certified => "certified",
            MergeBlock::HasAccount => "has_account",
            MergeBlock::KeptMerged => "kept_merged",
        }
    }
}

/// An open invitation to give a registry entry an account (issue 33 item 1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invitation {
    /// SHA-256 of the secret in the link, hex (the secret itself is never recorded).
    pub token_hash: String,
    /// It may be accepted until then.
    pub expires_at: Millis,
    /// Who issued it.
    pub by: String,
    /// When.
    pub at: Millis,
}

/// A merge as the registry records it, on both entries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MergeRecord {
    /// The duplicate, retired.
    pub from: PlayerId,
    /// The entry kept.
    pub into: PlayerId,
    /// Why (staff's words).
    pub reason: String,
    /// Who merged.
    pub by: String,
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
    /// Staff invited the person to take this entry as their account (replaces an earlier invitation).
    Invited(Invitation),
    /// The invitation was accepted: the account of this id was made by its holder.
    InvitationAccepted {
        /// When.
        at: Millis,
    },
    /// This entry was a duplicate, merged into `into` (retired: no longer listed or registered again).
    MergedInto(MergeRecord),
    /// A duplicate was merged into this entry (its empty profile fields and declared grades came here).
    Absorbed(MergeRecord),
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
    /// Correct a declared grade (registry staff, with the reason recorded): a declared grade or none;
    /// a certified grade changes only through the certification office.
    CorrectDeclaredRank {
        /// Ladder.
        ladder: String,
        /// The grade it should be.
        grade: String,
        /// Its name.
        grade_name: String,
        /// Why (recorded with the change).
        reason: String,
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
    /// Invite the person to take this entry as their account; an earlier invitation stops working.
    Invite {
        /// SHA-256 of the link's secret, hex.
        token_hash: String,
        /// Until when it may be accepted (after `now`).
        expires_at: Millis,
        /// Who invites.
        by: String,
        /// Whether an account of this id exists already (the shell reads it from the accounts).
        has_account: bool,
    },
    /// Accept the invitation whose link's secret hashes to `token_hash` (refused if wrong, replaced,
    /// expired or accepted before).
    AcceptInvitation {
        /// SHA-256 of the secret presented, hex.
        token_hash: String,
    },
    /// Retire this entry as a duplicate of `into` (a no-op if done before).
    MergeInto {
        /// The entry kept.
        into: PlayerId,
        /// Why.
        reason: String,
        /// Who merges.
        by: String,
        /// Whether an account of this id exists (the shell reads it from the accounts).
        has_account: bool,
    },
    /// Record on the kept entry that `from` was merged into it (a no-op if recorded before).
    Absorb {
        /// The duplicate.
        from: PlayerId,
        /// Why.
        reason: String,
        /// Who merges.
        by: String,
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
    /// The open invitation (none once accepted).
    pub invitation: Option<Invitation>,
    /// When an invitation was accepted.
    pub invitation_accepted: Option<Millis>,
    /// Retired as a duplicate of another entry.
    pub merged_into: Option<MergeRecord>,
    /// Duplicates merged into this entry.
    pub absorbed: Vec<MergeRecord>,
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
            PlayerEvent::Invited(invitation) => self.invitation = Some(invitation.clone()),
            PlayerEvent::InvitationAccepted { at } => {
                self.invitation = None;
                self.invitation_accepted = Some(*at);
            }
            PlayerEvent::MergedInto(record) => {
                self.invitation = None;
                self.merged_into = Some(record.clone());
            }
            PlayerEvent::Absorbed(record) => self.absorbed.push(record.clone()),
        }
    }

    /// Where the player stands in a ladder: the grade held and since when (or since registration).
    ///
    /// # Errors
    /// [`RankingRejection::NotRegistered`] for a player not in the registry.
    pub fn standing(&self, player: &PlayerId, ladder: &str) -> Result<Standing, RankingRejection> {
        let registered = self.registered_at.ok_or_else(|| RankingRejection::NotRegistered(player.clone()))?;
        let held = self.grades.get(ladder);
        Ok(Standing {
            player: player.clone(),
            grade: held.map(|h| h.grade.clone()),
            since: held.map_or(registered, |h| h.since),
        })
    }

    /// The name printed on the player's certificates: the profile's, else the id.
    #[must_use]
    pub fn display_name(&self, player: &PlayerId) -> String {
        self.profile.as_ref().map_or_else(|| player.0.clone(), Profile::display_name)
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
fn check_profile(profile: &Profile) -> Result<(), RankingRejection> {
    let bad = |field, reason: &str| Err(RankingRejection::BadProfile { field, reason: reason.to_owned() });
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
) -> Result<Vec<PlayerEvent>, RankingRejection> {
    let same_player = |profile: &Profile| match &state.id {
        Some(id) if *id != profile.id => {
            Err(RankingRejection::WrongPlayer { found: profile.id.clone(), expected: id.clone() })
        }
        _ => Ok(()),
    };
    if let (
        Some(m),
        PlayerCommand::UpdateProfile { .. }
        | PlayerCommand::DeclareRank { .. }
        | PlayerCommand::CorrectDeclaredRank { .. },
    ) = (&state.merged_into, command)
    {
        return Err(RankingRejection::Merged { player: m.from.clone(), into: m.into.clone() });
    }
    Ok(match command {
        PlayerCommand::Register { profile } => {
            if state.profile.is_some() {
                return Err(RankingRejection::AlreadyRegistered(profile.id.clone()));
            }
            same_player(profile)?;
            check_profile(profile)?;
            vec![PlayerEvent::Registered { profile: profile.clone(), at: now }]
        }
        PlayerCommand::UpdateProfile { profile } => {
            if state.profile.is_none() {
                return Err(RankingRejection::NotRegistered(profile.id.clone()));
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
                return Err(RankingRejection::AlreadyGraded {
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
        PlayerCommand::CorrectDeclaredRank { ladder, grade, grade_name, reason } => {
            if state.profile.is_none() {
                return Err(RankingRejection::NotRegistered(state.id.clone().unwrap_or_else(|| PlayerId::from("?"))));
            }
            let reason = reason.trim();
            if reason.is_empty() || reason.chars().count() > 500 || reason.contains(['\n', '\r']) {
                return Err(RankingRejection::BadProfile {
                    field: "reason",
                    reason: "a reason of one line, at most 500 characters".into(),
                });
            }
            let held = state.grades.get(ladder);
            if let Some(h) = held {
                if h.basis == RankBasis::Certified {
                    return Err(RankingRejection::CertifiedGrade {
                        player: state.id.clone().unwrap_or_else(|| PlayerId::from("?")),
                        ladder: ladder.clone(),
                        grade: h.grade.clone(),
                    });
                }
                if h.grade == *grade {
                    return Ok(Vec::new());
                }
            }
            vec![PlayerEvent::RankChanged(RankEntry {
                ladder: ladder.clone(),
                grade: Some(grade.clone()),
                grade_name: grade_name.clone(),
                previous: held.map(|h| h.grade.clone()),
                basis: RankBasis::Declared,
                case: None,
                serial: None,
                reason: reason.to_owned(),
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
        PlayerCommand::Invite { token_hash, expires_at, by, has_account } => {
            let me = registered_entry(state)?;
            if *has_account || state.invitation_accepted.is_some() {
                return Err(RankingRejection::HasAccount(me));
            }
            if *expires_at <= now || !is_sha256_hex(token_hash) {
                return Err(RankingRejection::BadProfile {
                    field: "invitation",
                    reason: "a SHA-256 token hash and an expiry after now".into(),
                });
            }
            vec![PlayerEvent::Invited(Invitation {
                token_hash: token_hash.clone(),
                expires_at: *expires_at,
                by: by.clone(),
                at: now,
            })]
        }
        PlayerCommand::AcceptInvitation { token_hash } => {
            let me = registered_entry(state)?;
            let Some(open) = state.invitation.as_ref().filter(|i| i.token_hash == *token_hash) else {
                return Err(RankingRejection::NoInvitation(me));
            };
            if now >= open.expires_at {
                return Err(RankingRejection::InvitationExpired(me));
            }
            vec![PlayerEvent::InvitationAccepted { at: now }]
        }
        PlayerCommand::MergeInto { into, reason, by, has_account } => {
            if let Some(done) = &state.merged_into
                && done.into == *into
            {
                return Ok(Vec::new());
            }
            let me = registered_entry(state)?;
            let reason = merge_reason(reason)?;
            let block = |why| Err(RankingRejection::CannotMerge { player: me.clone(), why });
            if *into == me {
                return block(MergeBlock::SamePlayer);
            }
            if *has_account || state.invitation_accepted.is_some() {
                return block(MergeBlock::HasAccount);
            }
            if state.rating.is_some() {
                return block(MergeBlock::Rated);
            }
            if state.grades.values().any(|h| h.basis != RankBasis::Declared) || !state.cases.is_empty() {
                return block(MergeBlock::Certified);
            }
            vec![PlayerEvent::MergedInto(MergeRecord { from: me, into: into.clone(), reason, by: by.clone(), at: now })]
        }
        PlayerCommand::Absorb { from, reason, by } => {
            if state.absorbed.iter().any(|r| r.from == *from) {
                return Ok(Vec::new());
            }
            let me = registered_entry(state)?;
            let reason = merge_reason(reason)?;
            if *from == me {
                return Err(RankingRejection::CannotMerge { player: me, why: MergeBlock::SamePlayer });
            }
            vec![PlayerEvent::Absorbed(MergeRecord { from: from.clone(), into: me, reason, by: by.clone(), at: now })]
        }
    })
}

/// The id of a registered entry that was not merged away.
fn registered_entry(state: &PlayerState) -> Result<PlayerId, RankingRejection> {
    let me = state.id.clone().unwrap_or_else(|| PlayerId::from("?"));
    if state.profile.is_none() {
        return Err(RankingRejection::NotRegistered(me));
    }
    if let Some(m) = &state.merged_into {
        return Err(RankingRejection::Merged { player: me, into: m.into.clone() });
    }
    Ok(me)
}

/// A merge's reason: one line, 1–500 characters.
fn merge_reason(reason: &str) -> Result<String, RankingRejection> {
    let reason = reason.trim();
    if reason.is_empty() || reason.chars().count() > 500 || reason.contains(['\n', '\r']) {
        return Err(RankingRejection::BadProfile {
            field: "reason",
            reason: "a reason of one line, at most 500 characters".into(),
        });
    }
    Ok(reason.to_owned())
}

/// Whether `s` is 64 lower-case hex digits.
fn is_sha256_hex(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The built-in ladder a grade code belongs to, for a declared rank (`3k`, `2d` → amateur; `5p` →
/// professional; `sh-3` → shanghai; `bj-5` → beijing).
#[must_use]
pub fn ladder_of_grade(grade: &str) -> Option<(Ladder, usize)> {
    Ladder::BUILT_IN.iter().filter_map(|id| Ladder::built_in(id)).find_map(|l| l.position(grade).map(|p| (l, p)))
}

/// A declared rank read: its ladder, grade code and grade name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclaredGrade {
    /// The ladder.
    pub ladder: String,
    /// The grade code.
    pub grade: String,
    /// Its name in the ladder.
    pub grade_name: String,
}

/// Reads a declared rank (`3k`, `业余3段`, `5p`, `sh-3`): the built-in ladder it belongs to, as the
/// association configures it (`configured`, else built in). `None` for an empty declaration.
///
/// # Errors
/// [`RankingRejection::UnknownRank`] when it is no grade of any ladder.
pub fn declared_grade(
    rank: Option<&str>,
    configured: impl Fn(&str) -> Option<Ladder>,
) -> Result<Option<DeclaredGrade>, RankingRejection> {
    let Some(code) = rank.map(str::trim).filter(|r| !r.is_empty()) else {
        return Ok(None);
    };
    let code = code.parse::<Rank>().map(|r| r.to_string()).unwrap_or_else(|_| code.to_owned());
    let (ladder, pos) = ladder_of_grade(&code).ok_or_else(|| RankingRejection::UnknownRank(code.clone()))?;
    let ladder = configured(&ladder.id).unwrap_or(ladder);
    let grade_name = ladder.grade(pos).map(|g| g.name.clone()).unwrap_or_default();
    Ok(Some(DeclaredGrade { ladder: ladder.id.clone(), grade: code, grade_name }))
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

    fn run(state: &mut PlayerState, command: PlayerCommand, at: i64) -> Result<Vec<PlayerEvent>, RankingRejection> {
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
            Err(RankingRejection::AlreadyRegistered(PlayerId::from("li")))
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
            assert!(matches!(r, Err(RankingRejection::BadProfile { field: f, .. }) if f == field), "{field}: {r:?}");
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
            Err(RankingRejection::WrongPlayer { .. })
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
            open_period: false,
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
            Err(RankingRejection::AlreadyGraded {
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

    #[test]
    fn given_a_registration_when_asked_for_a_standing_then_since_registration_until_a_grade_is_held() {
        let id = PlayerId::from("li");
        let mut s = PlayerState::default();
        assert_eq!(s.standing(&id, "amateur"), Err(RankingRejection::NotRegistered(id.clone())));
        run(&mut s, PlayerCommand::Register { profile: li() }, 10).unwrap();
        let standing = s.standing(&id, "amateur").unwrap();
        assert_eq!((standing.grade, standing.since), (None, Millis(10)));
        let declare =
            PlayerCommand::DeclareRank { ladder: "amateur".into(), grade: "1k".into(), grade_name: "1级".into() };
        run(&mut s, declare, 20).unwrap();
        let standing = s.standing(&id, "amateur").unwrap();
        assert_eq!((standing.grade.as_deref(), standing.since), (Some("1k"), Millis(20)));
        assert_eq!(s.display_name(&id), "李明 / Li Ming");
        assert_eq!(PlayerState::default().display_name(&id), "li");
    }

    #[test]
    fn given_a_proposal_when_recorded_again_then_nothing() {
        let mut s = PlayerState::default();
        let proposal = ProposalRecord {
            ladder: "amateur".into(),
            to: "10k".into(),
            rules: vec!["rating-10k".into()],
            case: CaseId::from("case-1"),
            at: Millis(5),
        };
        assert_eq!(run(&mut s, PlayerCommand::RecordProposal(proposal.clone()), 5).unwrap().len(), 1);
        assert!(run(&mut s, PlayerCommand::RecordProposal(proposal), 6).unwrap().is_empty());
        assert!(s.proposals.contains(&CaseId::from("case-1")));
    }

    fn invite(hash: &str, expires: i64, has_account: bool) -> PlayerCommand {
        PlayerCommand::Invite { token_hash: hash.into(), expires_at: Millis(expires), by: "org".into(), has_account }
    }

    #[test]
    fn given_an_entry_when_invited_then_only_the_latest_link_opens_it_once_before_it_expires() {
        let (a, b) = ("a".repeat(64), "b".repeat(64));
        let mut s = PlayerState::default();
        assert!(matches!(run(&mut s, invite(&a, 100, false), 1), Err(RankingRejection::NotRegistered(_))));
        run(&mut s, PlayerCommand::Register { profile: li() }, 1).unwrap();
        assert!(matches!(run(&mut s, invite(&a, 100, true), 2), Err(RankingRejection::HasAccount(_))));
        assert!(matches!(run(&mut s, invite("secret", 100, false), 2), Err(RankingRejection::BadProfile { .. })));
        assert!(matches!(run(&mut s, invite(&a, 2, false), 2), Err(RankingRejection::BadProfile { .. })));
        run(&mut s, invite(&a, 100, false), 2).unwrap();
        run(&mut s, invite(&b, 100, false), 3).unwrap();
        let accept = |h: &str| PlayerCommand::AcceptInvitation { token_hash: h.into() };
        assert!(matches!(run(&mut s, accept(&a), 4), Err(RankingRejection::NoInvitation(_))), "replaced");
        assert!(matches!(run(&mut s, accept(&b), 100), Err(RankingRejection::InvitationExpired(_))));
        assert_eq!(run(&mut s, accept(&b), 50).unwrap(), vec![PlayerEvent::InvitationAccepted { at: Millis(50) }]);
        assert!(matches!(run(&mut s, accept(&b), 51), Err(RankingRejection::NoInvitation(_))), "accepted once");
        assert!(matches!(run(&mut s, invite(&a, 900, false), 52), Err(RankingRejection::HasAccount(_))));
    }

    #[test]
    fn a_duplicate_merges_only_without_an_account_ratings_or_certificates() {
        let merge = |into: &str, has_account| PlayerCommand::MergeInto {
            into: PlayerId::from(into),
            reason: "registered twice".into(),
            by: "org".into(),
            has_account,
        };
        let registered = || {
            let mut s = PlayerState::default();
            run(&mut s, PlayerCommand::Register { profile: li() }, 1).unwrap();
            s
        };
        type Given = fn(&mut PlayerState);
        let table: [(&str, Given, bool, MergeBlock); 4] = [
            ("li", |_| {}, false, MergeBlock::SamePlayer),
            ("wang", |_| {}, true, MergeBlock::HasAccount),
            (
                "wang",
                |s| {
                    s.rating = Some(RatingPoint {
                        system: "elo".into(),
                        rating: 1500.0,
                        deviation: 0.0,
                        volatility: 0.0,
                        games: 1,
                        provisional: true,
                        rating_before: 1500.0,
                        deviation_before: 0.0,
                        game: None,
                        period: None,
                        open_period: false,
                        tournament: None,
                        ledger_sequence: 1,
                        at: Millis(1),
                    });
                },
                false,
                MergeBlock::Rated,
            ),
            (
                "wang",
                |s| {
                    s.cases.insert((CaseId::from("case-1"), false));
                },
                false,
                MergeBlock::Certified,
            ),
        ];
        for (into, given, has_account, why) in table {
            let mut s = registered();
            given(&mut s);
            assert_eq!(
                run(&mut s, merge(into, has_account), 5),
                Err(RankingRejection::CannotMerge { player: PlayerId::from("li"), why }),
                "{why:?}"
            );
        }
        let mut s = registered();
        let no_reason = PlayerCommand::MergeInto {
            into: PlayerId::from("wang"),
            reason: " ".into(),
            by: "org".into(),
            has_account: false,
        };
        assert!(matches!(run(&mut s, no_reason, 5), Err(RankingRejection::BadProfile { field: "reason", .. })));
        assert_eq!(run(&mut s, merge("wang", false), 5).unwrap().len(), 1);
        assert!(run(&mut s, merge("wang", false), 6).unwrap().is_empty(), "merging again is a no-op");
        assert!(matches!(
            run(&mut s, PlayerCommand::UpdateProfile { profile: li() }, 7),
            Err(RankingRejection::Merged { .. })
        ));
        assert!(matches!(run(&mut s, invite(&"a".repeat(64), 90, false), 7), Err(RankingRejection::Merged { .. })));
        let absorb =
            PlayerCommand::Absorb { from: PlayerId::from("li2"), reason: "同一人".into(), by: "org".into() };
        let mut kept = registered();
        assert_eq!(run(&mut kept, absorb.clone(), 8).unwrap().len(), 1);
        assert!(run(&mut kept, absorb, 9).unwrap().is_empty());
        assert_eq!(kept.absorbed[0].from, PlayerId::from("li2"));
    }

    #[test]
    fn declared_ranks_are_read_in_every_spelling_or_refused() {
        let declared = declared_grade(Some("业余3段"), |_| None).unwrap().unwrap();
        assert_eq!((declared.ladder.as_str(), declared.grade.as_str()), ("amateur", "3d"));
        assert_eq!(declared_grade(Some("sh-3"), |_| None).unwrap().unwrap().ladder, "shanghai");
        assert_eq!(declared_grade(Some("  "), |_| None), Ok(None));
        assert_eq!(declared_grade(None, |_| None), Ok(None));
        assert_eq!(declared_grade(Some("30k"), |_| None), Err(RankingRejection::UnknownRank("30k".into())));
    }
}
