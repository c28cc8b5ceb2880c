//! Standings against hand-worked examples: every tie-break of RULES.md section 4, the Art. 27 total
//! score, McMahon SOSM/SOSOSM with byes, and the Art. 28 / seed 004 withdrawal rulings.

use weiqi_pairing::command::Command;
use weiqi_pairing::config::{ByeKind, Format, McMahonBars, PointSystem, TournamentConfig, UnplayedSosm};
use weiqi_pairing::event::{
    Bye, ByeReason, ColorBy, PairedGame, Stage, TournamentEvent, WithdrawalReason, WithdrawalRuling,
};
use weiqi_pairing::ids::{Color, GameRef, Millis, PlayerId};
use weiqi_pairing::outcome::{GameResult, Outcome};
use weiqi_pairing::rank::Rank;
use weiqi_pairing::ratio::Ratio;
use weiqi_pairing::registration::Registration;
use weiqi_pairing::simulate::Simulation;
use weiqi_pairing::standings::{Standings, TieBreak, standings};
use weiqi_pairing::state::{Tournament, evolve};

/// Builds a tournament from hand-written rounds: `(black, white, result)` with result
/// 'B' black wins, 'W' white wins, 'D' draw, 'X' both lose.
struct Hand {
    t: Tournament,
}

impl Hand {
    fn new(format: Format, ranks: &[&str], ranking: Vec<TieBreak>, points: PointSystem) -> Hand {
        let mut config = TournamentConfig::new("hand", format, 1);
        config.ranking = ranking;
        config.points = points;
        let mut h = Hand { t: Tournament::default() };
        h.apply(TournamentEvent::Created { config, at: Millis(0) });
        for (i, r) in ranks.iter().enumerate() {
            let reg = Registration::new(PlayerId(i as u32 + 1), &format!("P{}", i + 1), r.parse::<Rank>().unwrap());
            h.apply(TournamentEvent::PlayerRegistered { registration: reg });
        }
        // Lots: player i gets 100 - 10 i, so a higher id wins the lot.
        let lots = (1..=ranks.len() as u32).map(|i| (PlayerId(i), u64::from(100 - 10 * i) << 1)).collect();
        h.apply(TournamentEvent::LotsDrawn { players: lots, teams: vec![] });
        h.apply(TournamentEvent::Started { at: Millis(0) });
        h
    }

    fn apply(&mut self, e: TournamentEvent) {
        evolve(&mut self.t, &e);
    }

    fn round(&mut self, games: &[(u32, u32, char)], byes: &[u32]) {
        let round = self.t.current_round() + 1;
        let paired = games
            .iter()
            .enumerate()
            .map(|(k, &(b, w, _))| PairedGame {
                table: k as u32 + 1,
                black: PlayerId(b),
                white: PlayerId(w),
                handicap: 0,
                color_by: ColorBy::Organiser,
                cost: None,
                fixed: true,
                team_board: None,
                group: None,
            })
            .collect();
        let byes = byes
            .iter()
            .map(|&p| Bye { player: PlayerId(p), kind: ByeKind::FullPoint, reason: ByeReason::Pairing })
            .collect();
        self.apply(TournamentEvent::RoundPaired {
            round,
            stage: Stage::Main,
            games: paired,
            byes,
            team_matches: vec![],
            bracket: vec![],
            team_byes: vec![],
        });
        for (k, &(_, _, r)) in games.iter().enumerate() {
            let outcome = match r {
                'B' => Outcome::Win(Color::Black),
                'W' => Outcome::Win(Color::White),
                'D' => Outcome::Draw,
                _ => Outcome::BothLose,
            };
            self.apply(TournamentEvent::ResultRecorded {
                game: GameRef { round, table: k as u32 + 1 },
                result: GameResult { outcome, reason: weiqi_pairing::outcome::ResultReason::Played },
                at: Millis(0),
            });
        }
        self.apply(TournamentEvent::RoundCompleted { round });
    }
}

fn order(s: &Standings) -> Vec<u32> {
    s.rows.iter().map(|r| r.player.0).collect()
}

fn value(s: &Standings, player: u32, c: TieBreak) -> Ratio {
    let col = s.criteria.iter().position(|&x| x == c).unwrap();
    s.rows.iter().find(|r| r.player.0 == player).unwrap().values[col]
}

/// The six-player, three-round Swiss worked by hand:
/// R1: 1>2, 3>4, 5=6. R2: 1>3, 4>5, 6>2. R3: 6>1, 3>5, 4=2.
/// Points 1:4 2:1 3:4 4:3 5:1 6:5. SOS 1:10 2:12 3:8 4:6 5:12 6:6.
fn six_player_swiss(ranking: Vec<TieBreak>) -> Hand {
    let mut h = Hand::new(Format::Swiss { rounds: 3 }, &["1d"; 6], ranking, PointSystem::TWO_ONE_ZERO);
    h.round(&[(1, 2, 'B'), (3, 4, 'B'), (5, 6, 'D')], &[]);
    h.round(&[(1, 3, 'B'), (5, 4, 'W'), (6, 2, 'B')], &[]);
    h.round(&[(1, 6, 'W'), (3, 5, 'B'), (4, 2, 'D')], &[]);
    h
}

#[test]
fn sos_sosos_and_sodos_by_hand() {
    use TieBreak::*;
    let h = six_player_swiss(vec![Points, Sos, Sosos, Sodos]);
    let s = standings(&h.t);
    let expect = [
        // (player, points, SOS, SOSOS, SODOS ×2)
        (1, 4, 10, 26, 10),
        (2, 1, 12, 22, 3),
        (3, 4, 8, 28, 8),
        (4, 3, 6, 32, 3),
        (5, 1, 12, 20, 5),
        (6, 5, 6, 34, 11),
    ];
    for (p, pts, sos, sosos, sodos2) in expect {
        assert_eq!(value(&s, p, Points), Ratio::int(pts), "points of {p}");
        assert_eq!(value(&s, p, Sos), Ratio::int(sos), "SOS of {p}");
        assert_eq!(value(&s, p, Sosos), Ratio::int(sosos), "SOSOS of {p}");
        assert_eq!(value(&s, p, Sodos), Ratio::new(sodos2, 2), "SODOS of {p}");
    }
}

#[test]
fn art_27_total_score_then_warnings_then_lot() {
    use TieBreak::*;
    let mut h = six_player_swiss(vec![TotalScore, Warnings, Lot]);
    h.apply(TournamentEvent::WarningIssued { player: PlayerId(4), game: GameRef { round: 3, table: 3 } });
    let s = standings(&h.t);
    // Total = points + SOS / (½ × 2 × 3) − 3.
    assert_eq!(value(&s, 1, TotalScore), Ratio::new(13, 3));
    assert_eq!(value(&s, 6, TotalScore), Ratio::int(4));
    assert_eq!(value(&s, 3, TotalScore), Ratio::new(11, 3));
    for p in [2, 4, 5] {
        assert_eq!(value(&s, p, TotalScore), Ratio::int(2));
    }
    // 2, 4 and 5 tie on 2: player 4 has a warning; 5 beats 2 on the lot (lower lot first).
    assert_eq!(order(&s), vec![1, 6, 3, 5, 2, 4]);
    let decided: Vec<Option<TieBreak>> = s.rows.iter().map(|r| r.decided_by).collect();
    assert_eq!(decided, vec![None, None, None, Some(Lot), Some(Lot), Some(Warnings)]);
    assert_eq!(s.rows.iter().map(|r| r.place).collect::<Vec<_>>(), vec![1, 2, 3, 4, 5, 6]);
}

#[test]
fn art_27_option_b_points_then_sos() {
    use TieBreak::*;
    let h = six_player_swiss(vec![Points, Sos, Warnings, Lot]);
    let s = standings(&h.t);
    assert_eq!(order(&s), vec![6, 1, 3, 4, 5, 2]);
    let by = |p: u32| s.rows.iter().find(|r| r.player.0 == p).unwrap().decided_by;
    assert_eq!(by(1), Some(Sos));
    assert_eq!(by(3), Some(Sos));
    assert_eq!(by(5), Some(Lot), "2 and 5 have equal SOS and no warnings");
    assert_eq!(by(6), None);
}

#[test]
fn round_robin_places_by_sodos() {
    use TieBreak::*;
    let h = six_player_swiss(vec![Points, Sodos, Warnings, Lot]);
    let s = standings(&h.t);
    assert_eq!(order(&s), vec![6, 1, 3, 4, 5, 2]);
    assert_eq!(s.rows[1].decided_by, Some(Sodos));
}

#[test]
fn shared_places_without_a_lot() {
    use TieBreak::*;
    let h = six_player_swiss(vec![Points, Warnings]);
    let s = standings(&h.t);
    let row = |p: u32| s.rows.iter().find(|r| r.player.0 == p).unwrap().clone();
    assert_eq!(row(1).place, row(3).place);
    assert!(row(1).shared && row(3).shared);
    assert_eq!(row(2).place, row(5).place);
    assert_eq!(row(6).place, 1);
    assert!(!row(6).shared);
}

#[test]
fn seed_001_head_to_head_comes_before_sodos() {
    use TieBreak::*;
    // R1: 1>2, 3>4. R2: 3>1, 2>4. R3: 2>3, 4>1. Points (3/1/0): 1:3 2:6 3:6 4:3.
    let mut h = Hand::new(
        Format::RoundRobin { cycles: 1 },
        &["1d"; 4],
        vec![Points, HeadToHead, Sodos, Warnings, Lot],
        PointSystem::THREE_ONE_ZERO,
    );
    h.round(&[(1, 2, 'B'), (3, 4, 'B')], &[]);
    h.round(&[(1, 3, 'W'), (2, 4, 'B')], &[]);
    h.round(&[(2, 3, 'B'), (4, 1, 'B')], &[]);
    let s = standings(&h.t);
    // 4 beat 1 although 1 has the better SODOS (6 against 3): head-to-head decides first.
    assert_eq!(value(&s, 1, Sodos), Ratio::int(6));
    assert_eq!(value(&s, 4, Sodos), Ratio::int(3));
    assert_eq!(order(&s), vec![2, 3, 4, 1]);
    assert!(s.rows.iter().all(|r| r.decided_by == Some(HeadToHead)));
}

#[test]
fn mcmahon_scores_with_bars_and_byes() {
    use TieBreak::*;
    let bars = McMahonBars { top: Rank::Dan(1), bottom: Rank::Kyu(10) };
    let mut h = Hand::new(
        Format::McMahon { rounds: 2, bars },
        &["3d", "1d", "5k", "15k", "10k"],
        vec![Mms, Sosm, Sososm, Lot],
        PointSystem::TWO_ONE_ZERO,
    );
    // Initial MMS: 3d and 1d at the top bar 30; 5k 25; 15k and 10k at the bottom bar 20.
    h.round(&[(1, 2, 'B'), (3, 4, 'W')], &[5]);
    h.round(&[(1, 4, 'B'), (2, 5, 'W')], &[3]);
    // The EGF rules (the default): a bye adds the player's own *start* MMS to SOSM (P3: 21 + 25;
    // P5: 20 + 30), and start MMS × 2 rounds to SOSOSM (P3: 58 + 50; P5: 40 + 54).
    assert_eq!(h.t.config.as_ref().unwrap().unplayed_sosm, UnplayedSosm::StartMms);
    let s = standings(&h.t);
    let expect = [(1, 32, 51, 112), (2, 30, 54, 101), (3, 26, 46, 108), (4, 21, 58, 97), (5, 22, 50, 94)];
    for (p, mms, sosm, sososm) in expect {
        assert_eq!(value(&s, p, Mms), Ratio::int(mms), "MMS of {p}");
        assert_eq!(value(&s, p, Sosm), Ratio::int(sosm), "SOSM of {p}: a bye counts the player's start MMS");
        assert_eq!(value(&s, p, Sososm), Ratio::int(sososm), "SOSOSM of {p}");
    }
    assert_eq!(order(&s), vec![1, 2, 3, 5, 4]);
    // The documented alternative: the player's own final MMS (a bye neither helps nor hurts).
    h.t.config.as_mut().unwrap().unplayed_sosm = UnplayedSosm::OwnFinalMms;
    let s = standings(&h.t);
    let expect = [(1, 32, 51, 112), (2, 30, 54, 103), (3, 26, 47, 105), (4, 21, 58, 98), (5, 22, 52, 106)];
    for (p, mms, sosm, sososm) in expect {
        assert_eq!(value(&s, p, Mms), Ratio::int(mms), "MMS of {p}");
        assert_eq!(value(&s, p, Sosm), Ratio::int(sosm), "SOSM of {p}: a bye counts the player's own MMS");
        assert_eq!(value(&s, p, Sososm), Ratio::int(sososm), "SOSOSM of {p}");
    }
}

#[test]
fn seed_004_virtual_scores_of_a_withdrawn_swiss_player() {
    use TieBreak::*;
    let mut h =
        Hand::new(Format::Swiss { rounds: 3 }, &["1d"; 4], vec![TotalScore, Sos, Lot], PointSystem::TWO_ONE_ZERO);
    h.round(&[(1, 4, 'W'), (2, 3, 'B')], &[]);
    h.apply(TournamentEvent::PlayerWithdrawn {
        player: PlayerId(4),
        after_round: 1,
        reason: WithdrawalReason::Request,
        ruling: WithdrawalRuling::ResultsStandNotPaired,
    });
    h.round(&[(1, 3, 'B')], &[2]);
    h.round(&[(1, 2, 'W')], &[3]);
    let s = standings(&h.t);
    // Player 4: 2 points in 1 game, A = min(1, 2/1) = 1, two unplayed rounds: counted as 4 points.
    // SOS(1) = 4 (player 4, virtual) + 2 (player 3) + 6 (player 2) = 12.
    assert_eq!(value(&s, 1, Sos), Ratio::int(12));
    assert_eq!(value(&s, 1, TotalScore), Ratio::int(2 + 4 - 3));
    // Player 4 keeps their own 2 points and stays ranked (Swiss results stand): 2 + 2/3 − 3.
    assert_eq!(value(&s, 4, TotalScore), Ratio::new(-1, 3));
    assert!(s.unranked.is_empty());
}

#[test]
fn seed_004_virtual_score_below_one_point_per_round() {
    use TieBreak::*;
    let mut h = Hand::new(Format::Swiss { rounds: 4 }, &["1d"; 4], vec![Points, Sos], PointSystem::TWO_ONE_ZERO);
    h.round(&[(1, 4, 'D'), (2, 3, 'B')], &[]);
    h.round(&[(4, 2, 'W'), (3, 1, 'W')], &[]);
    h.apply(TournamentEvent::PlayerWithdrawn {
        player: PlayerId(4),
        after_round: 2,
        reason: WithdrawalReason::Request,
        ruling: WithdrawalRuling::ResultsStandNotPaired,
    });
    h.round(&[(1, 2, 'B')], &[3]);
    h.round(&[(3, 1, 'B')], &[2]);
    let s = standings(&h.t);
    // Player 4: 1 point in 2 games, A = 1/2, two unplayed rounds → 1 + 1 = 2 for opponents.
    // Player 1 met 4 (2 virtual), 3, 2, 3 → 2 + 2 + 6 + 2... computed from points:
    let pts = |p: u32| value(&s, p, Points);
    assert_eq!(pts(4), Ratio::int(1));
    let expected = Ratio::int(2) + pts(3) + pts(2) + pts(3);
    assert_eq!(value(&s, 1, Sos), expected);
}

/// Issue 30 item 8: the ruling states what was counted, per player. 周杰 (4k: start MMS 26) withdraws
/// from a 4-round McMahon after round 2 with one win: rounds 3 and 4 count 26 each in his own SOSM
/// (the EGF rule, not his average), and 1 point each (2 points in 2 games, at most a draw) in his
/// opponents' SOS.
#[test]
fn a_withdrawal_states_the_rounds_and_what_each_counted() {
    use TieBreak::*;
    let bars = McMahonBars { top: Rank::Dan(3), bottom: Rank::Kyu(10) };
    let mut h =
        Hand::new(Format::McMahon { rounds: 4, bars }, &["4k"; 4], vec![Mms, Sosm, Lot], PointSystem::TWO_ONE_ZERO);
    h.round(&[(1, 2, 'B'), (3, 4, 'B')], &[]);
    h.round(&[(1, 3, 'W'), (2, 4, 'B')], &[]);
    h.apply(TournamentEvent::PlayerWithdrawn {
        player: PlayerId(1),
        after_round: 2,
        reason: WithdrawalReason::Request,
        ruling: WithdrawalRuling::ResultsStandNotPaired,
    });
    h.round(&[(2, 3, 'B')], &[4]);
    h.round(&[(3, 4, 'W')], &[2]);
    let counts = weiqi_pairing::standings::withdrawal_counts(&h.t);
    assert_eq!(counts.len(), 1);
    let c = &counts[0];
    assert_eq!((c.player, c.after_round, c.unplayed.clone()), (PlayerId(1), 2, vec![3, 4]));
    assert_eq!(c.own_sosm, Some((Ratio::int(26), UnplayedSosm::StartMms)), "his start MMS, not his average");
    assert_eq!(c.for_opponents, Some(Ratio::int(1)), "2 points in 2 games, at most a draw");
    // The numbers are the ones the standings count: his SOSM is his two opponents' MMS plus 26 twice.
    let s = standings(&h.t);
    assert_eq!(value(&s, 1, Sosm), value(&s, 2, Mms) + value(&s, 3, Mms) + Ratio::int(52));
    // Under the other rule, his final MMS (26 + 1 win = 27) each.
    h.t.config.as_mut().unwrap().unplayed_sosm = UnplayedSosm::OwnFinalMms;
    let c = &weiqi_pairing::standings::withdrawal_counts(&h.t)[0];
    assert_eq!(c.own_sosm, Some((Ratio::int(27), UnplayedSosm::OwnFinalMms)));
}

fn rr_sim(n: u32) -> Simulation {
    let mut s = Simulation::new(TournamentConfig::new("rr", Format::RoundRobin { cycles: 1 }, 3), 3).unwrap();
    let regs: Vec<Registration> =
        (1..=n).map(|i| Registration::new(PlayerId(i), &format!("P{i}"), Rank::Dan(1))).collect();
    s.register_all(&regs).unwrap();
    s.run(Command::Start).unwrap();
    s
}

#[test]
fn art_28_round_robin_withdrawal_before_half_voids_every_result() {
    let mut s = rr_sim(6); // 5 rounds: leaving after 2 games (< 2.5) voids them
    for _ in 0..2 {
        s.run(Command::PairRound).unwrap();
        s.play_round().unwrap();
    }
    let events = s.run(Command::Withdraw { player: PlayerId(1), reason: WithdrawalReason::Request }).unwrap();
    assert!(matches!(events[0], TournamentEvent::PlayerWithdrawn { ruling: WithdrawalRuling::ResultsVoid, .. }));
    s.play_to_end(10).unwrap();
    let st = standings(&s.state);
    assert_eq!(st.unranked, vec![PlayerId(1)]);
    assert_eq!(st.rows.len(), 5);
    // Nobody keeps points from games against player 1; the five others each have 4 real games.
    assert!(st.rows.iter().all(|r| r.games == 4), "{:?}", st.rows.iter().map(|r| r.games).collect::<Vec<_>>());
}

#[test]
fn art_28_round_robin_withdrawal_after_half_forfeits_the_rest() {
    let mut s = rr_sim(6);
    for _ in 0..3 {
        s.run(Command::PairRound).unwrap();
        s.play_round().unwrap();
    }
    let events = s.run(Command::Withdraw { player: PlayerId(1), reason: WithdrawalReason::Request }).unwrap();
    assert!(matches!(
        events[0],
        TournamentEvent::PlayerWithdrawn { ruling: WithdrawalRuling::ResultsStandRestForfeited, .. }
    ));
    s.play_to_end(10).unwrap();
    let st = standings(&s.state);
    assert!(st.unranked.is_empty());
    let p1 = st.rows.iter().find(|r| r.player == PlayerId(1)).unwrap();
    assert_eq!(p1.games, 5, "3 played and 2 forfeited");
    // Rounds 4 and 5: player 1's games are forfeits won by the opponent.
    for r in &s.state.rounds[3..] {
        let g = r.games.iter().find(|g| g.paired.black == PlayerId(1) || g.paired.white == PlayerId(1)).unwrap();
        let res = g.result.unwrap();
        assert_eq!(res.reason, weiqi_pairing::outcome::ResultReason::Forfeit);
        let loser_color = if g.paired.black == PlayerId(1) { Color::Black } else { Color::White };
        assert_eq!(res.outcome, Outcome::Win(loser_color.opposite()));
    }
}

#[test]
fn both_lose_scores_nothing_for_either() {
    use TieBreak::*;
    let mut h = Hand::new(Format::Swiss { rounds: 1 }, &["1d"; 2], vec![Points], PointSystem::TWO_ONE_ZERO);
    h.round(&[(1, 2, 'X')], &[]);
    let s = standings(&h.t);
    assert_eq!(value(&s, 1, Points), Ratio::int(0));
    assert_eq!(value(&s, 2, Points), Ratio::int(0));
    let recs = weiqi_pairing::record::records(&h.t, 1);
    assert_eq!(recs.get(PlayerId(1)).unwrap().losses, 1);
    assert_eq!(recs.get(PlayerId(2)).unwrap().losses, 1);
}

#[test]
fn a_result_changed_for_cheating_recomputes_standings() {
    let mut s = Simulation::new(TournamentConfig::new("c", Format::Swiss { rounds: 3 }, 5), 5).unwrap();
    let regs: Vec<Registration> =
        (1..=8).map(|i| Registration::new(PlayerId(i), &format!("P{i}"), Rank::Dan(2))).collect();
    s.register_all(&regs).unwrap();
    s.run(Command::Start).unwrap();
    s.play_to_end(3).unwrap();
    let before = standings(&s.state);
    let g = &s.state.rounds[0].games[0];
    let (black, white) = (g.paired.black, g.paired.white);
    let old = g.result.unwrap();
    let cheated = match old.outcome {
        Outcome::Win(c) => {
            GameResult { outcome: Outcome::Win(c.opposite()), reason: weiqi_pairing::outcome::ResultReason::Referee }
        }
        _ => GameResult::win(Color::Black),
    };
    s.run(Command::CorrectResult {
        game: GameRef { round: 1, table: 1 },
        result: cheated,
        reason: weiqi_pairing::event::Correction::Cheating,
    })
    .unwrap();
    let after = standings(&s.state);
    let pts = |st: &Standings, p: PlayerId| st.rows.iter().find(|r| r.player == p).unwrap().values[0];
    assert_ne!(pts(&before, black), pts(&after, black));
    assert_ne!(pts(&before, white), pts(&after, white));
}

/// Issue 15 item 6: a game voided by a withdrawal ruling reads `void` wherever it is shown, not the
/// `B+`/`W+` recorded before the player left; the withdrawn player is flagged in the standings CSV;
/// the lot reads as a small rank (1, 2, 3 …), not the 64-bit draw.
#[test]
fn voided_games_read_void_withdrawals_are_flagged_and_the_lot_is_a_small_rank() {
    use weiqi_pairing::export::{pairings_csv, standings_csv};
    let mut s = rr_sim(6);
    for _ in 0..2 {
        s.run(Command::PairRound).unwrap();
        s.play_round().unwrap();
    }
    let played: Vec<_> = s.state.rounds[0].games.iter().filter(|g| g.result.is_some()).cloned().collect();
    let with_1 = played.iter().find(|g| g.paired.black == PlayerId(1) || g.paired.white == PlayerId(1)).unwrap();
    assert!(matches!(with_1.result.unwrap().outcome, Outcome::Win(_)), "recorded as a win before the withdrawal");
    s.run(Command::Withdraw { player: PlayerId(1), reason: WithdrawalReason::Request }).unwrap();
    let g = s.state.rounds[0].games.iter().find(|g| g.paired.table == with_1.paired.table).unwrap();
    assert_eq!(s.state.counted_result(g).unwrap().outcome, Outcome::Void);
    let csv = pairings_csv(&s.state, 1);
    let line = csv.lines().find(|l| l.starts_with(&format!("1,{},", g.paired.table))).unwrap();
    assert!(line.contains(",void,"), "{line}");
    assert!(!line.contains("B+") && !line.contains("W+"), "{line}");
    // Another game of the round keeps its result.
    let other = played.iter().find(|x| x.paired.table != with_1.paired.table).unwrap();
    assert!(s.state.counted_result(other).unwrap().outcome != Outcome::Void);

    // Results-stand withdrawals keep their games and are flagged.
    let mut s = rr_sim(6);
    for _ in 0..3 {
        s.run(Command::PairRound).unwrap();
        s.play_round().unwrap();
    }
    s.run(Command::Withdraw { player: PlayerId(2), reason: WithdrawalReason::Request }).unwrap();
    let st = standings(&s.state);
    let csv = standings_csv(&s.state, &st);
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f[col("withdrawn")] == "true", f[col("player")] == "2", "{line}");
    }
    // The Art. 27 lot criterion: places 1..=6 among the entrants, in the order of the recorded lots.
    let lots: Vec<Ratio> = (1..=6).map(|p| value(&st, p, TieBreak::Lot)).collect();
    let mut sorted = lots.clone();
    sorted.sort();
    assert_eq!(sorted, (1..=6).map(Ratio::int).collect::<Vec<_>>());
    let mut by_lot: Vec<u32> = (1..=6).collect();
    by_lot.sort_by_key(|p| s.state.players[&PlayerId(*p)].lot);
    assert_eq!(value(&st, by_lot[0], TieBreak::Lot), Ratio::int(1), "the lowest recorded lot is 1");
}

/// Every criterion reads back from its published name, in any case; what is not one does not.
#[test]
fn every_tie_break_parses_from_its_published_name() {
    let with_board = TieBreak::FIXED.into_iter().chain([TieBreak::Board(1), TieBreak::Board(4)]);
    for t in with_board {
        assert_eq!(TieBreak::from_name(&t.name()), Some(t));
        assert_eq!(TieBreak::from_name(&t.name().to_lowercase()), Some(t));
    }
    assert_eq!(TieBreak::from_name("Board0"), None);
    assert_eq!(TieBreak::from_name("Elo"), None);
}
