//! Issue 15 item 6 at the service edge: standings values on the wire are exact fractions (`"19/3"`,
//! as the proto promises), never decimals such as `6.333`, for individual and team events alike;
//! a withdrawn player's row is flagged.

use weiqi_pairing::command::Command;
use weiqi_pairing::config::{Format, LineUpRule, TeamSchedule, TournamentConfig};
use weiqi_pairing::event::WithdrawalReason;
use weiqi_pairing::ids::{PlayerId, TeamId};
use weiqi_pairing::rank::Rank;
use weiqi_pairing::registration::Registration;
use weiqi_pairing::simulate::Simulation;
use weiqi_pairing::standings::TieBreak;
use weiqi_tournament::aggregate::{TournamentAggregate, standing_rows};

fn exact(v: &str) -> bool {
    let (n, d) = v.split_once('/').unwrap_or((v, "1"));
    n.parse::<i64>().is_ok() && d.parse::<i64>().is_ok_and(|d| d > 1 || !v.contains('/'))
}

fn aggregate(s: &Simulation) -> TournamentAggregate {
    TournamentAggregate { core: s.state.clone(), ..Default::default() }
}

#[test]
fn swiss_total_scores_are_exact_fractions_and_withdrawals_are_flagged() {
    // The Swiss default ranking starts with the Art. 27 total score, which divides by the rounds.
    let mut s = Simulation::new(TournamentConfig::new("Club Swiss", Format::Swiss { rounds: 3 }, 11), 11).unwrap();
    let regs: Vec<Registration> =
        (1..=7).map(|i| Registration::new(PlayerId(i), &format!("P{i}"), Rank::from_value(3 - i as i32))).collect();
    s.register_all(&regs).unwrap();
    s.run(Command::Start).unwrap();
    s.play_to_end(2).unwrap();
    s.run(Command::Withdraw { player: PlayerId(3), reason: WithdrawalReason::Request }).unwrap();
    s.play_to_end(3).unwrap();
    let t = aggregate(&s);
    let (_, criteria, rows) = standing_rows(&t, t.core.config.as_ref().unwrap());
    assert_eq!(criteria[0], TieBreak::TotalScore.name());
    let values: Vec<&String> = rows.iter().flat_map(|r| &r.values).collect();
    assert!(values.iter().all(|v| exact(v)), "{values:?}");
    assert!(values.iter().any(|v| v.contains('/')), "a fractional total appears as n/d: {values:?}");
    for r in &rows {
        assert_eq!(r.withdrawn, r.entrant == 3, "row {}", r.entrant);
    }
}

#[test]
fn team_totals_are_exact_fractions() {
    let format =
        Format::Team { boards: 3, line_up: LineUpRule::FixedOrder, schedule: TeamSchedule::Swiss { rounds: 3 } };
    let mut config = TournamentConfig::new("Team Swiss", format, 5);
    config.ranking = vec![TieBreak::TeamTotalScore, TieBreak::BoardPoints];
    let mut s = Simulation::new(config, 5).unwrap();
    let regs: Vec<Registration> =
        (1..=15).map(|i| Registration::new(PlayerId(i), &format!("P{i}"), Rank::Kyu(i as u8))).collect();
    s.register_all(&regs).unwrap();
    for k in 0..5u32 {
        let members = (1..=3).map(|i| PlayerId(k * 3 + i)).collect();
        s.run(Command::RegisterTeam { team: TeamId(k + 1), name: format!("Team {}", k + 1), members }).unwrap();
    }
    s.run(Command::Start).unwrap();
    s.play_to_end(3).unwrap();
    let t = aggregate(&s);
    let (_, _, rows) = standing_rows(&t, t.core.config.as_ref().unwrap());
    let totals: Vec<&String> = rows.iter().map(|r| &r.values[0]).collect();
    assert!(totals.iter().all(|v| exact(v)), "{totals:?}");
    assert!(totals.iter().any(|v| v.ends_with("/3") || v.ends_with("/9")), "thirds read as thirds: {totals:?}");
}
