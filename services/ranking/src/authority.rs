//! Who may do what in the ranking service, decided once over the caller's verified claims (what the
//! account allows *now*: `weiqi_edge::auth::Authority` checked the token against the account's
//! standing) and domain values. Pure: no token parsing, no IO. The gRPC server asks here for every
//! request; a new request gets its check by naming its [`Asks`].
//!
//! The rules:
//!
//! * ratings and rating history of one's own: a player;
//! * a rank application for oneself: a player; for another player: an organiser;
//! * a case: its player, its applicant, or a reviewer;
//! * the registry, EGD rating lists and `.h9` tables: organisers;
//! * the review queue, decisions, revocations and acknowledgements: reviewers; assigning a case to
//!   someone else: administrators.
//!
//! Administrators hold every role.

use weiqi_edge::auth::{Claims, Role};

/// What a caller asks of the ranking service.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asks<'a> {
    /// Their own rating or history.
    OwnRating,
    /// A rank application for `player`.
    Apply {
        /// The player the application is for.
        player: &'a str,
    },
    /// To read a case of `player`, opened by `applicant`.
    ReadCase {
        /// The case's player.
        player: &'a str,
        /// Who opened it.
        applicant: &'a str,
    },
    /// To register players, import rating lists or results tables.
    Organise,
    /// To review: the queue, a decision, a revocation, an acknowledgement.
    Review,
    /// To assign a case to `reviewer`.
    Assign {
        /// The reviewer the case goes to.
        reviewer: &'a str,
    },
}

/// Why a caller may not do what it asks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Denied {
    /// The request needs a role the caller does not hold.
    #[error("needs the {} role", .0.name())]
    NeedsRole(Role),
    /// An application for someone else from a non-organiser.
    #[error("only organisers apply for another player")]
    ApplyForAnother,
    /// A case read by someone who is neither a party to it nor a reviewer.
    #[error("only the player, the applicant and reviewers read a case")]
    NotAParty,
    /// A case assigned to someone else by a non-administrator.
    #[error("only admins assign another reviewer")]
    AssignAnother,
}

/// Whether `claims` may do what it `asks`.
///
/// # Errors
/// [`Denied`], with the reason.
pub fn authorize(claims: &Claims, asks: Asks<'_>) -> Result<(), Denied> {
    let holds = |role: Role| if claims.has(role) { Ok(()) } else { Err(Denied::NeedsRole(role)) };
    match asks {
        Asks::OwnRating => holds(Role::Player),
        Asks::Apply { player } if player == claims.sub => holds(Role::Player),
        Asks::Apply { .. } => holds(Role::Organiser).map_err(|_| Denied::ApplyForAnother),
        Asks::ReadCase { player, applicant } => {
            let party = player == claims.sub || applicant == claims.sub;
            if party || claims.has(Role::Reviewer) { Ok(()) } else { Err(Denied::NotAParty) }
        }
        Asks::Organise => holds(Role::Organiser),
        Asks::Review => holds(Role::Reviewer),
        Asks::Assign { reviewer } => {
            holds(Role::Reviewer)?;
            if reviewer == claims.sub || claims.roles.contains(&Role::Admin) {
                Ok(())
            } else {
                Err(Denied::AssignAnother)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims(sub: &str, roles: &[Role]) -> Claims {
        Claims {
            sub: sub.into(),
            roles: roles.to_vec(),
            events: Vec::new(),
            exp: 0,
            iat: 0,
            iss: String::new(),
            jti: None,
            sid: None,
            iat_ms: 0,
        }
    }

    /// Given a caller, when it asks, then it is allowed or refused with the reason:
    ///
    /// ```text
    ///  caller               asks                         answer
    ///  li (player)          own rating                   ok
    ///  zhao (reviewer)      own rating                   needs the player role
    ///  li (player)          apply for li                 ok
    ///  li (player)          apply for wang               only organisers apply for another player
    ///  org (organiser)      apply for wang               ok
    ///  wang (player)        read li's case opened by org not a party
    ///  org (organiser)      read li's case opened by org ok (its applicant)
    ///  zhao (reviewer)      read li's case               ok
    ///  zhao (reviewer)      assign to zhao               ok
    ///  zhao (reviewer)      assign to qian               only admins assign another reviewer
    ///  root (admin)         assign to qian               ok
    ///  li (player)          review                       needs the reviewer role
    /// ```
    #[test]
    fn who_may_do_what() {
        let li = claims("li", &[Role::Player]);
        let zhao = claims("zhao", &[Role::Reviewer]);
        let org = claims("org", &[Role::Organiser]);
        let root = claims("root", &[Role::Admin]);
        assert_eq!(authorize(&li, Asks::OwnRating), Ok(()));
        assert_eq!(authorize(&zhao, Asks::OwnRating), Err(Denied::NeedsRole(Role::Player)));
        assert_eq!(authorize(&li, Asks::Apply { player: "li" }), Ok(()));
        assert_eq!(authorize(&li, Asks::Apply { player: "wang" }), Err(Denied::ApplyForAnother));
        assert_eq!(authorize(&org, Asks::Apply { player: "wang" }), Ok(()));
        let case = Asks::ReadCase { player: "li", applicant: "org" };
        assert_eq!(authorize(&claims("wang", &[Role::Player]), case), Err(Denied::NotAParty));
        assert_eq!(authorize(&org, case), Ok(()));
        assert_eq!(authorize(&zhao, case), Ok(()));
        assert_eq!(authorize(&zhao, Asks::Assign { reviewer: "zhao" }), Ok(()));
        assert_eq!(authorize(&zhao, Asks::Assign { reviewer: "qian" }), Err(Denied::AssignAnother));
        assert_eq!(authorize(&root, Asks::Assign { reviewer: "qian" }), Ok(()));
        assert_eq!(authorize(&li, Asks::Review), Err(Denied::NeedsRole(Role::Reviewer)));
        assert_eq!(Denied::NeedsRole(Role::Player).to_string(), "needs the player role");
    }
}
