//! The ranking service's refusals in the page's language (issue 30 item 6): "player … is not
//! registered", the evidence that did not verify ("no final results"), and every reviewer's error,
//! said from the refusal's data by the catalogue rather than in the service's English.
//!
//! A refusal without data of its own is said by its code (`refusal-<code>` in the catalogue, as every
//! service's are); this file says the ones whose words need their data: who, which grade, which game
//! or tournament, how many characters. A refusal the catalogue does not know keeps the service's words.

use weiqi_ranking::domain::{CaseRejection, RatingRejection};
use weiqi_ranking::evidence::EvidenceProblem;
use weiqi_ranking::{RankingError, RankingRejection};

use crate::i18n::{Lang, grade_text, t, ta};

/// The refusal in the page's language, when its words need its data; `None`: say it by its code.
pub fn said(lang: Lang, e: &weiqi_ranking::api::ApiError) -> Option<String> {
    let weiqi_ranking::api::ApiError::Ranking(RankingError::Rejected(r)) = e else {
        return None;
    };
    let grade = |g: &str| grade_text(lang, "", g);
    Some(match r {
        RankingRejection::NotRegistered(p) => ta(lang, "refusal-not-registered", &[("player", p.to_string())]),
        RankingRejection::AlreadyRegistered(p) => ta(lang, "refusal-already-registered", &[("player", p.to_string())]),
        RankingRejection::AlreadyGraded { grade: g, .. } => ta(lang, "refusal-already-graded", &[("grade", grade(g))]),
        RankingRejection::UnknownRank(rank) => ta(lang, "refusal-unknown-rank", &[("rank", rank.clone())]),
        RankingRejection::NotAGrade { grade: g, .. } => ta(lang, "refusal-unknown-grade", &[("grade", g.clone())]),
        RankingRejection::EvidenceRefused(problems) => {
            let lines: Vec<String> = problems.iter().map(|p| problem(lang, p)).collect();
            ta(lang, "refusal-evidence-refused", &[("reason", lines.join(&t(lang, "list-separator")))])
        }
        RankingRejection::PermissionDenied(_) => t(lang, "refusal-office-denied"),
        RankingRejection::Merged { player, into } => {
            ta(lang, "refusal-merged", &[("player", player.to_string()), ("into", into.to_string())])
        }
        RankingRejection::CannotMerge { player, why } => ta(
            lang,
            &format!("refusal-cannot-merge-{}", why.code().replace('_', "-")),
            &[("player", player.to_string())],
        ),
        RankingRejection::Case(c) => case(lang, c)?,
        RankingRejection::Rating(RatingRejection::AlreadyRated(p)) => {
            ta(lang, "refusal-already-rated", &[("player", p.to_string())])
        }
        _ => return None,
    })
}

/// A case command's refusal (a reviewer's error, mostly).
fn case(lang: Lang, c: &CaseRejection) -> Option<String> {
    let grade = |g: &str| grade_text(lang, "", g);
    Some(match c {
        CaseRejection::WrongStatus(s) => {
            ta(lang, "refusal-wrong-status", &[("status", super::office::status_text_of(lang, *s))])
        }
        CaseRejection::NothingToCertify(g) => ta(lang, "refusal-nothing-to-certify", &[("grade", grade(g))]),
        CaseRejection::UnknownGrade(g) => ta(lang, "refusal-unknown-grade", &[("grade", g.clone())]),
        CaseRejection::ReviewerIsParty(who) => ta(lang, "refusal-reviewer-is-party", &[("who", who.to_string())]),
        CaseRejection::NotTheReviewer { assigned, .. } => {
            ta(lang, "refusal-not-the-reviewer", &[("who", assigned.to_string())])
        }
        CaseRejection::CheckDoesNotSupport(g) => ta(lang, "refusal-check-does-not-support", &[("grade", grade(g))]),
        CaseRejection::JustificationTooShort { min, found } => {
            ta(lang, "refusal-justification-too-short", &[("min", min.to_string()), ("n", found.to_string())])
        }
        CaseRejection::SameReviewer(who) => ta(lang, "refusal-same-reviewer", &[("who", who.to_string())]),
        CaseRejection::TooLong { max, .. } => ta(lang, "refusal-text-too-long-at-most", &[("max", max.to_string())]),
        _ => return None,
    })
}

/// One item of evidence that did not verify.
fn problem(lang: Lang, p: &EvidenceProblem) -> String {
    use EvidenceProblem as P;
    let game = |g: &str| ("game", g.to_owned());
    let event = |e: &str| ("tournament", e.to_owned());
    match p {
        P::NoSuchGame { game: g } => ta(lang, "evidence-no-such-game", &[game(g)]),
        P::GameUnreadable { game: g, .. } => ta(lang, "evidence-game-unreadable", &[game(g)]),
        P::NotInGame { game: g, .. } => ta(lang, "evidence-not-in-game", &[game(g)]),
        P::GameNotEnded { game: g } => ta(lang, "evidence-game-not-ended", &[game(g)]),
        P::NoFinalResults { tournament } => ta(lang, "evidence-no-final-results", &[event(tournament)]),
        P::NotPlaced { tournament, .. } => ta(lang, "evidence-not-placed", &[event(tournament)]),
        P::EventGameMissing { tournament, game: g }
        | P::EventGameUnreadable { tournament, game: g, .. }
        | P::GameOfAnotherEvent { tournament, game: g }
        | P::NotInEventGame { tournament, game: g, .. }
        | P::EventGameNoResult { tournament, game: g } => {
            ta(lang, "evidence-event-game-unusable", &[event(tournament), game(g)])
        }
        P::WinsDiffer { tournament, claimed, wins, byes } => ta(
            lang,
            "evidence-wins-differ",
            &[event(tournament), ("n", claimed.to_string()), ("wins", wins.to_string()), ("byes", byes.to_string())],
        ),
        P::TooManyGames { tournament, played, byes, rounds } => ta(
            lang,
            "evidence-too-many-games",
            &[
                event(tournament),
                ("games", played.to_string()),
                ("byes", byes.to_string()),
                ("rounds", rounds.to_string()),
            ],
        ),
        P::NoRating { system, .. } => ta(lang, "evidence-no-rating", &[("system", system.clone())]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use weiqi_ranking::api::ApiError;

    fn refused(r: RankingRejection) -> ApiError {
        ApiError::Ranking(RankingError::Rejected(r))
    }

    /// Issue 30 item 6: "player … is not registered", "no final results" and a reviewer's error are
    /// said in Chinese on a Chinese page, with their data.
    #[test]
    fn the_office_refusals_are_said_in_the_pages_language() {
        let not_registered = refused(RankingRejection::NotRegistered("hz3".into()));
        assert_eq!(said(Lang::ZhCn, &not_registered).unwrap(), "棋手 hz3 不在棋手名册中，请先登记。");
        let evidence = refused(RankingRejection::EvidenceRefused(vec![
            EvidenceProblem::NoFinalResults { tournament: "hz-mcmahon".into() },
            EvidenceProblem::GameNotEnded { game: "g-7".into() },
        ]));
        assert_eq!(
            said(Lang::ZhCn, &evidence).unwrap(),
            "证据无法核实：比赛 hz-mcmahon 尚未公布最终名次、对局 g-7 尚未结束"
        );
        let short = refused(RankingRejection::Case(CaseRejection::JustificationTooShort { min: 20, found: 2 }));
        assert_eq!(said(Lang::ZhCn, &short).unwrap(), "破格理由至少需要20个字（现有2个字）。");
        assert_eq!(
            said(Lang::En, &short).unwrap(),
            "An override needs a written justification of at least 20 characters (this one has 2)."
        );
        // Every refusal said, in both languages, has no message id left in it.
        for e in [not_registered, evidence, short] {
            for lang in [Lang::ZhCn, Lang::En] {
                let text = said(lang, &e).unwrap();
                assert!(!text.contains("refusal-") && !text.contains("evidence-"), "{text}");
            }
        }
    }
}
