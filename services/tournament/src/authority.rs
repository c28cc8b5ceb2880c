//! Who may do what to a tournament, decided once over domain values: the caller as its account
//! allows it now (`weiqi_game::authority::Caller`, made from the verified claims) and the
//! tournament's event. Pure: no token, no IO. The gRPC server asks here for every command; the
//! desk's pages reach the same check through it.
//!
//! * A command on a tournament (register, pair, results, withdrawals, publish, imports, the draft):
//!   its event's organisers, chief referees and referees ([`staff`]), acting as the highest of those
//!   roles they hold.
//! * Creating a tournament: an organiser of its event ([`creator`]).
//! * Reading standings, pairings, explanations and exports: anyone with a valid token (not decided
//!   here).
//!
//! Administrators hold every role for every event.

use weiqi_game::authority::Caller;
use weiqi_game::domain::Actor;

/// Why a caller may not act on a tournament.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Denied {
    /// A command from someone who is not staff of the tournament's event.
    #[error("only organisers and referees of event {0} act on this tournament")]
    NotStaffOf(String),
    /// A creation from someone who does not organise the event.
    #[error("only organisers of event {0} create its tournaments")]
    NotOrganiserOf(String),
}

impl Denied {
    /// A stable code for clients and pages.
    pub fn code(&self) -> &'static str {
        "permission_denied"
    }
}

/// The actor a staff member acts as: organiser, else chief referee, else referee.
fn actor(caller: &Caller) -> Actor {
    let id = caller.id.clone();
    if caller.organiser || caller.admin {
        Actor::Organiser(id)
    } else if caller.chief {
        Actor::ChiefReferee(id)
    } else {
        Actor::Referee(id)
    }
}

/// As whom `caller` acts on a tournament of `event`.
///
/// # Errors
/// [`Denied::NotStaffOf`].
pub fn staff(caller: &Caller, event: &str) -> Result<Actor, Denied> {
    if caller.referees(Some(event)) { Ok(actor(caller)) } else { Err(Denied::NotStaffOf(event.to_string())) }
}

/// As whom `caller` creates a tournament of `event`.
///
/// # Errors
/// [`Denied::NotOrganiserOf`].
pub fn creator(caller: &Caller, event: &str) -> Result<Actor, Denied> {
    if caller.organises(Some(event)) { Ok(actor(caller)) } else { Err(Denied::NotOrganiserOf(event.to_string())) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caller(id: &str, f: impl FnOnce(&mut Caller)) -> Caller {
        let mut c = Caller { id: id.into(), events: vec!["spring".into()], ..Caller::default() };
        f(&mut c);
        c
    }

    /// Given a caller, when it acts on or creates a tournament of event `spring`, then:
    ///
    /// ```text
    ///  caller                          command on spring        create in spring
    ///  org (organiser of spring)       Organiser                Organiser
    ///  chief (chief referee, spring)   ChiefReferee             not an organiser
    ///  ref (referee of spring)         Referee                  not an organiser
    ///  ref2 (referee of autumn)        not staff                not an organiser
    ///  li (player)                     not staff                not an organiser
    ///  root (admin, no events)         Organiser                Organiser
    /// ```
    #[test]
    fn who_acts_on_a_tournament_and_as_whom() {
        let org = caller("org", |c| c.organiser = true);
        let chief = caller("chief", |c| c.chief = true);
        let referee = caller("ref", |c| c.referee = true);
        let elsewhere = Caller { events: vec!["autumn".into()], ..caller("ref2", |c| c.referee = true) };
        let li = caller("li", |c| c.player = true);
        let root = Caller { id: "root".into(), admin: true, ..Caller::default() };
        assert_eq!(staff(&org, "spring"), Ok(Actor::Organiser("org".into())));
        assert_eq!(staff(&chief, "spring"), Ok(Actor::ChiefReferee("chief".into())));
        assert_eq!(staff(&referee, "spring"), Ok(Actor::Referee("ref".into())));
        assert_eq!(staff(&elsewhere, "spring"), Err(Denied::NotStaffOf("spring".into())));
        assert_eq!(staff(&li, "spring"), Err(Denied::NotStaffOf("spring".into())));
        assert_eq!(staff(&root, "spring"), Ok(Actor::Organiser("root".into())));
        assert_eq!(creator(&org, "spring"), Ok(Actor::Organiser("org".into())));
        for no in [&chief, &referee, &elsewhere, &li] {
            assert_eq!(creator(no, "spring"), Err(Denied::NotOrganiserOf("spring".into())));
        }
        assert_eq!(creator(&root, "spring"), Ok(Actor::Organiser("root".into())));
    }
}
