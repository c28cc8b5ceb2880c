//! Pairing: the organiser's overrides for a coming round, paired rounds (games with their colors and
//! costs, byes, team matches, brackets) and their completion.

use weiqi_pairing::config::ByeKind;
use weiqi_pairing::event::{
    BracketSlot, Bye, ByeReason, ColorBy, PairedGame, Stage, TeamBoard, TeamMatch, TournamentEvent,
};
use weiqi_pairing::ids::{PlayerId, TeamId};
use weiqi_pairing::weights::EdgeCost;
use weiqi_proto::v1 as pb;

use super::values::{BYE_KINDS, player_numbers, players, team_numbers, teams};
use super::{CodecError, EnumPairs, narrow, required};

use pb::tournament_paired_game::ColorBy as PbColorBy;
use pb::tournament_round_bye::Reason as PbByeReason;
use pb::tournament_round_paired::Stage as PbStage;

const STAGES: EnumPairs<Stage, PbStage> =
    EnumPairs(&[(Stage::Main, PbStage::Main), (Stage::Groups, PbStage::Groups), (Stage::Knockout, PbStage::Knockout)]);

const COLORS_BY: EnumPairs<ColorBy, PbColorBy> = EnumPairs(&[
    (ColorBy::Balance, PbColorBy::Balance),
    (ColorBy::Alternation, PbColorBy::Alternation),
    (ColorBy::Nigiri, PbColorBy::Nigiri),
    (ColorBy::Handicap, PbColorBy::Handicap),
    (ColorBy::Berger, PbColorBy::Berger),
    (ColorBy::Organiser, PbColorBy::Organiser),
    (ColorBy::BoardOrder, PbColorBy::BoardOrder),
]);

const BYE_REASONS: EnumPairs<ByeReason, PbByeReason> = EnumPairs(&[
    (ByeReason::Pairing, PbByeReason::Pairing),
    (ByeReason::Requested, PbByeReason::Requested),
    (ByeReason::Rest, PbByeReason::Rest),
    (ByeReason::Advance, PbByeReason::Advance),
]);

pub(super) fn pair_forbidden_to_pb(a: PlayerId, b: PlayerId, round: Option<u32>) -> pb::TournamentPairForbidden {
    pb::TournamentPairForbidden { a: a.0, b: b.0, round }
}

pub(super) fn pair_forbidden_from_pb(m: &pb::TournamentPairForbidden) -> TournamentEvent {
    TournamentEvent::PairForbidden { a: PlayerId(m.a), b: PlayerId(m.b), round: m.round }
}

pub(super) fn pair_allowed_to_pb(a: PlayerId, b: PlayerId) -> pb::TournamentPairAllowed {
    pb::TournamentPairAllowed { a: a.0, b: b.0 }
}

pub(super) fn pair_allowed_from_pb(m: &pb::TournamentPairAllowed) -> TournamentEvent {
    TournamentEvent::PairAllowed { a: PlayerId(m.a), b: PlayerId(m.b) }
}

pub(super) fn pairing_fixed_to_pb(round: u32, black: PlayerId, white: PlayerId) -> pb::TournamentPairingFixed {
    pb::TournamentPairingFixed { round, black: black.0, white: white.0 }
}

pub(super) fn pairing_fixed_from_pb(m: &pb::TournamentPairingFixed) -> TournamentEvent {
    TournamentEvent::PairingFixed { round: m.round, black: PlayerId(m.black), white: PlayerId(m.white) }
}

pub(super) fn bye_granted_to_pb(round: u32, player: PlayerId, kind: ByeKind) -> pb::TournamentByeGranted {
    pb::TournamentByeGranted { round, player: player.0, kind: BYE_KINDS.encode(kind) }
}

pub(super) fn bye_granted_from_pb(m: &pb::TournamentByeGranted) -> Result<TournamentEvent, CodecError> {
    Ok(TournamentEvent::ByeGranted {
        round: m.round,
        player: PlayerId(m.player),
        kind: BYE_KINDS.decode("TournamentByeGranted.kind", m.kind)?,
    })
}

pub(super) fn line_up_submitted_to_pb(round: u32, team: TeamId, line_up: &[PlayerId]) -> pb::TournamentLineUpSubmitted {
    pb::TournamentLineUpSubmitted { round, team: team.0, players: player_numbers(line_up) }
}

pub(super) fn line_up_submitted_from_pb(m: &pb::TournamentLineUpSubmitted) -> TournamentEvent {
    TournamentEvent::LineUpSubmitted { round: m.round, team: TeamId(m.team), players: players(&m.players) }
}

pub(super) fn round_completed_to_pb(round: u32) -> pb::TournamentRoundCompleted {
    pb::TournamentRoundCompleted { round }
}

pub(super) fn round_completed_from_pb(m: &pb::TournamentRoundCompleted) -> TournamentEvent {
    TournamentEvent::RoundCompleted { round: m.round }
}

pub(super) fn round_paired_to_pb(
    round: u32,
    stage: Stage,
    games: &[PairedGame],
    byes: &[Bye],
    team_matches: &[TeamMatch],
    bracket: &[BracketSlot],
    team_byes: &[TeamId],
) -> pb::TournamentRoundPaired {
    pb::TournamentRoundPaired {
        round,
        stage: STAGES.encode(stage),
        games: games.iter().map(paired_game_to_pb).collect(),
        byes: byes.iter().map(|b| bye_to_pb(*b)).collect(),
        team_matches: team_matches
            .iter()
            .map(|m| pb::TournamentTeamMatch { match_no: m.match_no, home: m.home.0, away: m.away.0 })
            .collect(),
        bracket: bracket.iter().map(|s| bracket_slot_to_pb(*s)).collect(),
        team_byes: team_numbers(team_byes),
    }
}

pub(super) fn round_paired_from_pb(m: &pb::TournamentRoundPaired) -> Result<TournamentEvent, CodecError> {
    Ok(TournamentEvent::RoundPaired {
        round: m.round,
        stage: STAGES.decode("TournamentRoundPaired.stage", m.stage)?,
        games: m.games.iter().map(paired_game_from_pb).collect::<Result<_, _>>()?,
        byes: m.byes.iter().map(bye_from_pb).collect::<Result<_, _>>()?,
        team_matches: m
            .team_matches
            .iter()
            .map(|t| TeamMatch { match_no: t.match_no, home: TeamId(t.home), away: TeamId(t.away) })
            .collect(),
        bracket: m.bracket.iter().map(bracket_slot_from_pb).collect::<Result<_, _>>()?,
        team_byes: teams(&m.team_byes),
    })
}

fn paired_game_to_pb(g: &PairedGame) -> pb::TournamentPairedGame {
    pb::TournamentPairedGame {
        table: g.table,
        black: g.black.0,
        white: g.white.0,
        handicap: u32::from(g.handicap),
        color_by: COLORS_BY.encode(g.color_by),
        cost: g.cost.map(|c| pb::TournamentEdgeCost {
            rematch: u32::from(c.rematch),
            score_diff: c.score_diff,
            score_groups: c.score_groups,
            color: c.color,
            seeding: c.seeding,
            handicap: u32::from(c.handicap),
            separation: u32::from(c.separation),
        }),
        fixed: g.fixed,
        team_board: g.team_board.map(|b| pb::TournamentTeamBoard { match_no: b.match_no, board: b.board }),
        group: g.group,
    }
}

fn paired_game_from_pb(g: &pb::TournamentPairedGame) -> Result<PairedGame, CodecError> {
    Ok(PairedGame {
        table: g.table,
        black: PlayerId(g.black),
        white: PlayerId(g.white),
        handicap: narrow(g.handicap, "TournamentPairedGame.handicap")?,
        color_by: COLORS_BY.decode("TournamentPairedGame.color_by", g.color_by)?,
        cost: g.cost.as_ref().map(edge_cost_from_pb).transpose()?,
        fixed: g.fixed,
        team_board: g.team_board.as_ref().map(|b| TeamBoard { match_no: b.match_no, board: b.board }),
        group: g.group,
    })
}

fn edge_cost_from_pb(c: &pb::TournamentEdgeCost) -> Result<EdgeCost, CodecError> {
    Ok(EdgeCost {
        rematch: narrow(c.rematch, "TournamentEdgeCost.rematch")?,
        score_diff: c.score_diff,
        score_groups: c.score_groups,
        color: c.color,
        seeding: c.seeding,
        handicap: narrow(c.handicap, "TournamentEdgeCost.handicap")?,
        separation: narrow(c.separation, "TournamentEdgeCost.separation")?,
    })
}

fn bye_to_pb(b: Bye) -> pb::TournamentRoundBye {
    pb::TournamentRoundBye { player: b.player.0, kind: BYE_KINDS.encode(b.kind), reason: BYE_REASONS.encode(b.reason) }
}

fn bye_from_pb(b: &pb::TournamentRoundBye) -> Result<Bye, CodecError> {
    Ok(Bye {
        player: PlayerId(b.player),
        kind: BYE_KINDS.decode("TournamentRoundBye.kind", b.kind)?,
        reason: BYE_REASONS.decode("TournamentRoundBye.reason", b.reason)?,
    })
}

fn bracket_slot_to_pb(s: BracketSlot) -> pb::TournamentBracketSlot {
    use pb::tournament_bracket_slot::{Empty, Slot};
    let slot = match s {
        BracketSlot::Game(table) => Slot::GameTable(table),
        BracketSlot::Through(player) => Slot::Through(player.0),
        BracketSlot::Empty => Slot::Empty(Empty {}),
    };
    pb::TournamentBracketSlot { slot: Some(slot) }
}

fn bracket_slot_from_pb(s: &pb::TournamentBracketSlot) -> Result<BracketSlot, CodecError> {
    use pb::tournament_bracket_slot::Slot;
    Ok(match required(s.slot.as_ref(), "TournamentBracketSlot.slot")? {
        Slot::GameTable(table) => BracketSlot::Game(*table),
        Slot::Through(player) => BracketSlot::Through(PlayerId(*player)),
        Slot::Empty(_) => BracketSlot::Empty,
    })
}
