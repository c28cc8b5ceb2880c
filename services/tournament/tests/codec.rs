//! The log's typed encoding of the pairing core's events (`TournamentCoreEvent`,
//! proto/weiqi/v1/tournament_events.proto): every event comes back equal through protobuf and bytes,
//! logs written as JSON by earlier versions still replay (and continue typed), and a stored message
//! the core cannot hold is refused with an error naming the field.

mod common;

use std::collections::BTreeSet;

use prost::Message;
use weiqi_eventlog::{AggregateId, AggregateKind, CommandId, EventLog, NewEvent};
use weiqi_pairing::command::Command;
use weiqi_pairing::config::{
    ByeKind, Format, LineUpRule, McMahonBars, PointSystem, TeamSchedule, TournamentConfig, UnplayedSosm,
};
use weiqi_pairing::event::{
    BracketSlot, Bye, ByeReason, Champion, ColorBy, Correction, PairedGame, Stage, TeamBoard, TeamMatch,
    TournamentEvent, WithdrawalReason, WithdrawalRuling,
};
use weiqi_pairing::ids::{Color, GameRef, Millis, PlayerId, TeamId};
use weiqi_pairing::outcome::{GameResult, Outcome, ResultReason};
use weiqi_pairing::rank::Rank;
use weiqi_pairing::registration::Registration;
use weiqi_pairing::seeding::{SeedSystem, Seeding};
use weiqi_pairing::simulate::Simulation;
use weiqi_pairing::standings::TieBreak;
use weiqi_pairing::state::{Phase, Tournament};
use weiqi_pairing::weights::{ByePolicy, EdgeCost, HandicapPolicy, PairingPolicy, RematchPolicy};
use weiqi_proto::v1 as pb;
use weiqi_tournament::aggregate::{self, Body, TournamentAggregate, TournamentCommand};
use weiqi_tournament::codec::{self, CodecError};
use weiqi_tournament::convert;
use weiqi_tournament::service::{TournamentService, decode_recorded};

use pb::tournament_core_event::Event as P;
use pb::tournament_event_envelope::Body as B;

// ---- helpers ----

/// Every value of a unit-only enum. The closure's match stops compiling when the core adds a value,
/// so the round trips below cannot silently miss it.
macro_rules! all {
    ($ty:ident: $($v:ident),+ $(,)?) => {{
        let _exhaustive = |x: $ty| match x {
            $($ty::$v => ()),+
        };
        [$($ty::$v),+]
    }};
}

/// The number of `TournamentEvent` variants, and each event's variant: the match stops compiling when
/// the core adds one.
const VARIANTS: usize = 25;
fn variant(e: &TournamentEvent) -> usize {
    use TournamentEvent as E;
    match e {
        E::Created { .. } => 0,
        E::PlayerRegistered { .. } => 1,
        E::TeamRegistered { .. } => 2,
        E::LotsDrawn { .. } => 3,
        E::Started { .. } => 4,
        E::PairForbidden { .. } => 5,
        E::PairingFixed { .. } => 6,
        E::ByeGranted { .. } => 7,
        E::LineUpSubmitted { .. } => 8,
        E::RoundPaired { .. } => 9,
        E::ResultRecorded { .. } => 10,
        E::ResultCorrected { .. } => 11,
        E::NoShowRecorded { .. } => 12,
        E::WarningIssued { .. } => 13,
        E::PlayerWithdrawn { .. } => 14,
        E::PlayerEliminated { .. } => 15,
        E::PlayerReprieved { .. } => 16,
        E::RoundCompleted { .. } => 17,
        E::Finished { .. } => 18,
        E::PairAllowed { .. } => 19,
        E::PlayerEdited { .. } => 20,
        E::PlayerRemoved { .. } => 21,
        E::RoundUnpaired { .. } => 22,
        E::SettingsChanged { .. } => 23,
        E::ByeCancelled { .. } => 24,
    }
}

fn assert_every_variant<'a>(events: impl IntoIterator<Item = &'a TournamentEvent>, what: &str) {
    let seen: BTreeSet<usize> = events.into_iter().map(variant).collect();
    let missing: Vec<usize> = (0..VARIANTS).filter(|v| !seen.contains(v)).collect();
    assert!(missing.is_empty(), "{what}: no event of variants {missing:?}");
}

/// The number of `Format` variants, and each format's variant.
const FORMATS: usize = 11;
fn format_variant(f: &Format) -> usize {
    match f {
        Format::Knockout { .. } => 0,
        Format::RoundRobin { .. } => 1,
        Format::Swiss { .. } => 2,
        Format::McMahon { .. } => 3,
        Format::SwissElimination { .. } => 4,
        Format::Match { .. } => 5,
        Format::FixedMatch { .. } => 6,
        Format::GroupsThenKnockout { .. } => 7,
        Format::Team { .. } => 8,
        Format::TeamRotation => 9,
        Format::WinAndContinue => 10,
    }
}

/// Domain → the envelope the service stores → bytes → envelope → domain, as the service writes and
/// reads its log. The body must be the typed one.
fn through_the_log(e: &TournamentEvent) -> TournamentEvent {
    let envelope = pb::TournamentEventEnvelope {
        event_id: "e".into(),
        tournament_id: "t".into(),
        sequence: 1,
        body: Some(weiqi_tournament::codec::log::body_to_pb(&Body::Domain(e.clone()))),
        ..Default::default()
    };
    let bytes = envelope.encode_to_vec();
    let back = pb::TournamentEventEnvelope::decode(bytes.as_slice()).expect("an envelope decodes");
    assert_eq!(back, envelope);
    assert!(matches!(back.body, Some(B::Core(_))), "core events are written typed: {e:?}");
    match weiqi_tournament::codec::log::body_from_pb(back.body.as_ref()) {
        Ok(Body::Domain(d)) => d,
        other => panic!("{e:?} read back as {other:?}"),
    }
}

/// Both the service's path and the codec's own: domain → message → bytes → message → domain.
fn assert_round_trips(e: &TournamentEvent) {
    assert_eq!(&through_the_log(e), e);
    let bytes = codec::event_to_pb(e).encode_to_vec();
    let m = pb::TournamentCoreEvent::decode(bytes.as_slice()).expect("a core event decodes");
    assert_eq!(codec::event_from_pb(&m).as_ref(), Ok(e));
}

fn registration(i: u32, rank: Rank) -> Registration {
    let mut r = Registration::new(PlayerId(i), &format!("Player{i} Given"), rank);
    r.club = Some(format!("Club {}", i % 5));
    r
}

/// A field of `n` with ranks spread from 7d to 17k and five clubs (as in the core's format tests).
fn field(n: u32) -> Vec<Registration> {
    (1..=n).map(|i| registration(i, Rank::from_value(7 - (i as i32 * 3) % 25))).collect()
}

// ---- configurations ----

/// Every format, with each option a format has (both team schedules and line-up rules).
fn every_format() -> Vec<Format> {
    let bars = McMahonBars { top: Rank::Dan(3), bottom: Rank::Kyu(20) };
    vec![
        Format::Knockout { losses: 1 },
        Format::Knockout { losses: 3 },
        Format::RoundRobin { cycles: 2 },
        Format::Swiss { rounds: 7 },
        Format::McMahon { rounds: 5, bars },
        Format::McMahon { rounds: 1, bars: McMahonBars { top: Rank::Pro(9), bottom: Rank::Kyu(30) } },
        Format::SwissElimination { rounds: 12, losses: 3 },
        Format::Match { wins_needed: 4 },
        Format::FixedMatch { games: 10 },
        Format::GroupsThenKnockout { groups: 4, advance: 2 },
        Format::Team { boards: 3, line_up: LineUpRule::FixedOrder, schedule: TeamSchedule::RoundRobin { cycles: 1 } },
        Format::Team { boards: 5, line_up: LineUpRule::PerMatch, schedule: TeamSchedule::Swiss { rounds: 4 } },
        Format::TeamRotation,
        Format::WinAndContinue,
    ]
}

fn every_tie_break() -> Vec<TieBreak> {
    use TieBreak::*;
    let _exhaustive = |t: TieBreak| match t {
        Points | Wins | Mms | TotalScore | Sos | Sosos | Sodos | Sosm | Sososm | Warnings | HeadToHead | Lot
        | MatchPoints | BoardPoints | Board(_) | TeamTotalScore => (),
    };
    // The core's list of the criteria without an argument, and the board criterion at its edges.
    TieBreak::FIXED.into_iter().chain([Board(0), Board(1), Board(u32::MAX)]).collect()
}

/// Configurations of every format: the core's defaults for each, and each with every option changed.
fn configurations() -> Vec<TournamentConfig> {
    let mut out = Vec::new();
    for (k, format) in every_format().into_iter().enumerate() {
        let plain = TournamentConfig::new(&format!("Open {k}"), format, k as u64);
        let mut changed = plain.clone();
        changed.name = "第一届 城市围棋赛 ★".into();
        changed.points = [PointSystem::THREE_ONE_ZERO, PointSystem { win: 1, draw: 0, loss: -1 }][k % 2];
        changed.ranking = if k % 2 == 0 { every_tie_break() } else { vec![] };
        changed.seed = [0, u64::MAX, 0x5eed_0000_0001][k % 3];
        changed.pairing_bye = all!(ByeKind: FullPoint, HalfPoint, ZeroPoint)[k % 3];
        changed.pairing = PairingPolicy {
            handicap: [
                HandicapPolicy::Even,
                HandicapPolicy::ByRank { reduction: 0, ceiling: 0 },
                HandicapPolicy::ByRank { reduction: 1, ceiling: 9 },
                HandicapPolicy::ByRank { reduction: u8::MAX, ceiling: u8::MAX },
            ][k % 4],
            separate_clubs: k % 2 == 0,
            separate_regions: k % 3 == 0,
            separate_families: k % 5 == 0,
            rematches: all!(RematchPolicy: Forbidden, Discouraged)[k % 2],
            byes: all!(ByePolicy: OncePerPlayer, FewestFirst)[(k / 2) % 2],
            seeding: Seeding {
                first: all!(SeedSystem: SplitAndRandom, SplitAndFold, SplitAndSlip)[k % 3],
                last_round_first: [0, 2, u32::MAX][(k / 3) % 3],
                second: all!(SeedSystem: SplitAndRandom, SplitAndFold, SplitAndSlip)[(k + 1) % 3],
            },
        };
        changed.no_show_limit_ms = [0, -1, i64::MAX, 5 * 60 * 1000][k % 4];
        changed.withdraw_after_no_shows = [None, Some(0), Some(5)][k % 3];
        changed.shared_places = !plain.shared_places;
        changed.unplayed_sosm = [UnplayedSosm::StartMms, UnplayedSosm::OwnFinalMms][k % 2];
        out.push(plain);
        out.push(changed);
    }
    out.push(TournamentConfig::seed_001_local_event("city", 2, 11));
    let seen: BTreeSet<usize> = out.iter().map(|c| format_variant(&c.format)).collect();
    assert_eq!(seen.len(), FORMATS, "a format without a configuration");
    out
}

#[test]
fn configurations_of_every_format_round_trip() {
    for config in configurations() {
        assert_round_trips(&TournamentEvent::Created { config: config.clone(), at: Millis(1_700_000_000_000) });
        let bytes = codec::config::config_to_pb(&config).encode_to_vec();
        let m = pb::TournamentCoreConfig::decode(bytes.as_slice()).unwrap();
        assert_eq!(codec::config::config_from_pb(&m), Ok(config));
    }
}

// ---- every variant, every value ----

fn game(table: u32, color_by: ColorBy) -> PairedGame {
    PairedGame {
        table,
        black: PlayerId(2 * table),
        white: PlayerId(2 * table + 1),
        handicap: 0,
        color_by,
        cost: None,
        fixed: false,
        team_board: None,
        group: None,
    }
}

/// Every variant of `TournamentEvent`, and every value of every enum an event holds, with edge values
/// (absent and empty optional values, zero and largest numbers).
fn every_kind_of_event() -> Vec<TournamentEvent> {
    use TournamentEvent as E;
    let mut events = Vec::new();
    for config in configurations().into_iter().take(3) {
        events.push(E::Created { config, at: Millis(i64::MIN) });
    }
    // Registrations: minimal, full, and present-but-empty values (which differ from absent ones).
    let mut full = Registration::new(PlayerId(u32::MAX), "Chang Hao", Rank::Pro(9));
    full.name_zh = "常昊".into();
    full.rating = Some(-250);
    full.club = Some("上海".into());
    full.region = Some("Shanghai".into());
    full.country = Some("CN".into());
    full.egd_pin = Some(u64::MAX);
    full.at = Millis(1_700_000_000_123);
    let mut empty = Registration::new(PlayerId(0), "", Rank::Kyu(30));
    empty.rating = Some(0);
    empty.club = Some(String::new());
    empty.region = Some(String::new());
    empty.country = Some(String::new());
    empty.egd_pin = Some(0);
    for registration in [Registration::new(PlayerId(1), "Ann", Rank::Dan(1)), full, empty] {
        events.push(E::PlayerRegistered { registration });
    }
    let _exhaustive_rank = |r: Rank| match r {
        Rank::Kyu(_) | Rank::Dan(_) | Rank::Pro(_) => (),
    };
    for rank in [Rank::Kyu(1), Rank::Dan(9), Rank::Pro(1), Rank::Kyu(u8::MAX), Rank::Dan(0)] {
        events.push(E::PlayerRegistered { registration: Registration::new(PlayerId(7), "Rank", rank) });
    }
    events.push(E::TeamRegistered { team: TeamId(1), name: "Beijing".into(), members: vec![PlayerId(3), PlayerId(1)] });
    events.push(E::TeamRegistered { team: TeamId(u32::MAX), name: String::new(), members: vec![] });
    events.push(E::LotsDrawn {
        players: vec![(PlayerId(2), u64::MAX), (PlayerId(1), 0), (PlayerId(3), 42)],
        teams: vec![(TeamId(1), 7)],
    });
    events.push(E::LotsDrawn { players: vec![], teams: vec![] });
    events.push(E::Started { at: Millis(0) });
    events.push(E::PairForbidden { a: PlayerId(1), b: PlayerId(2), round: None });
    events.push(E::PairForbidden { a: PlayerId(1), b: PlayerId(3), round: Some(u32::MAX) });
    events.push(E::PairAllowed { a: PlayerId(1), b: PlayerId(2) });
    events.push(E::PlayerEdited { registration: registration(3, Rank::Dan(2)) });
    events.push(E::PlayerRemoved { player: PlayerId(u32::MAX) });
    events.push(E::RoundUnpaired { round: 4, tables: 0 });
    events.push(E::RoundUnpaired { round: u32::MAX, tables: u32::MAX });
    events.push(E::ByeCancelled { round: 2, player: PlayerId(u32::MAX) });
    events.push(E::SettingsChanged {
        format: Format::McMahon { rounds: 6, bars: McMahonBars { top: Rank::Dan(4), bottom: Rank::Kyu(15) } },
        ranking: vec![TieBreak::Mms, TieBreak::Sosm, TieBreak::Board(2)],
        at: Millis(7),
    });
    events.push(E::PairingFixed { round: 3, black: PlayerId(9), white: PlayerId(4) });
    let bye_kinds = all!(ByeKind: FullPoint, HalfPoint, ZeroPoint);
    for kind in bye_kinds {
        events.push(E::ByeGranted { round: 2, player: PlayerId(5), kind });
    }
    events.push(E::LineUpSubmitted { round: 1, team: TeamId(2), players: vec![PlayerId(6), PlayerId(4)] });
    // Paired rounds: games of every color rule, with and without costs, team boards and groups; byes of
    // every kind for every reason; team matches; bracket slots of every kind; team byes.
    let colors = all!(ColorBy: Balance, Alternation, Nigiri, Handicap, Berger, Organiser, BoardOrder);
    let mut games: Vec<PairedGame> = colors.iter().zip(1..).map(|(&c, t)| game(t, c)).collect();
    games[0].cost =
        Some(EdgeCost { rematch: 0, score_diff: 0, score_groups: 0, color: 0, seeding: 0, handicap: 0, separation: 0 });
    games[1].cost =
        Some(EdgeCost { rematch: 1, score_diff: 3, score_groups: 0, color: 2, seeding: 0, handicap: 4, separation: 3 });
    games[2].cost = Some(EdgeCost {
        rematch: 255,
        score_diff: u32::MAX,
        score_groups: u32::MAX,
        color: u32::MAX,
        seeding: 0,
        handicap: 255,
        separation: 255,
    });
    games[3].handicap = 9;
    games[4].handicap = u8::MAX;
    games[5].fixed = true;
    games[6].team_board = Some(TeamBoard { match_no: 2, board: 3 });
    games[1].group = Some(0);
    games[2].group = Some(u32::MAX);
    let byes: Vec<Bye> = bye_kinds
        .iter()
        .flat_map(|&kind| all!(ByeReason: Pairing, Requested, Rest, Advance).map(|reason| (kind, reason)))
        .zip(100..)
        .map(|((kind, reason), p)| Bye { player: PlayerId(p), kind, reason })
        .collect();
    assert_eq!(byes.len(), 12);
    let stages = all!(Stage: Main, Groups, Knockout);
    let _exhaustive_slot = |s: BracketSlot| match s {
        BracketSlot::Game(_) | BracketSlot::Through(_) | BracketSlot::Empty => (),
    };
    events.push(E::RoundPaired {
        round: 1,
        stage: stages[0],
        games,
        byes,
        team_matches: vec![
            TeamMatch { match_no: 1, home: TeamId(1), away: TeamId(2) },
            TeamMatch { match_no: 2, home: TeamId(4), away: TeamId(3) },
        ],
        bracket: vec![
            BracketSlot::Game(1),
            BracketSlot::Through(PlayerId(9)),
            BracketSlot::Empty,
            BracketSlot::Game(0),
            BracketSlot::Through(PlayerId(0)),
        ],
        team_byes: vec![TeamId(5), TeamId(6)],
    });
    for (round, stage) in (2..).zip(stages) {
        events.push(E::RoundPaired {
            round,
            stage,
            games: vec![],
            byes: vec![],
            team_matches: vec![],
            bracket: vec![],
            team_byes: vec![],
        });
    }
    // Results: every outcome for every reason; corrections for every reason.
    let outcomes =
        [Outcome::Win(Color::Black), Outcome::Win(Color::White), Outcome::Draw, Outcome::BothLose, Outcome::Void];
    let _exhaustive_outcome = |o: Outcome| match o {
        Outcome::Win(Color::Black | Color::White) | Outcome::Draw | Outcome::BothLose | Outcome::Void => (),
    };
    let reasons = all!(ResultReason: Played, Forfeit, Referee, Counted, Resignation, Time);
    for (table, (outcome, reason)) in (1..).zip(outcomes.iter().flat_map(|&o| reasons.iter().map(move |&r| (o, r)))) {
        let game = GameRef { round: 1, table };
        events.push(E::ResultRecorded { game, result: GameResult { outcome, reason }, at: Millis(table.into()) });
    }
    for reason in all!(Correction: Cheating, RecordingError) {
        let result = GameResult { outcome: Outcome::Void, reason: ResultReason::Referee };
        events.push(E::ResultCorrected { game: GameRef { round: 1, table: 2 }, result, reason, at: Millis(-5) });
    }
    events.push(E::NoShowRecorded { player: PlayerId(3), game: GameRef { round: 2, table: 1 } });
    events.push(E::WarningIssued { player: PlayerId(4), game: GameRef { round: u32::MAX, table: u32::MAX } });
    // Withdrawals: every reason with every ruling.
    for reason in all!(WithdrawalReason: Request, NoShows, Disqualified) {
        for ruling in all!(WithdrawalRuling: ResultsVoid, ResultsStandRestForfeited, ResultsStandNotPaired) {
            events.push(E::PlayerWithdrawn { player: PlayerId(8), after_round: 0, reason, ruling });
        }
    }
    events.push(E::PlayerEliminated { player: PlayerId(8), round: 4 });
    events.push(E::PlayerReprieved { player: PlayerId(9), round: 5 });
    events.push(E::RoundCompleted { round: 4 });
    let _exhaustive_champion = |c: Champion| match c {
        Champion::Player(_) | Champion::Team(_) | Champion::None => (),
    };
    for champion in [Champion::Player(PlayerId(3)), Champion::Team(TeamId(2)), Champion::None] {
        events.push(E::Finished { champion });
    }
    events
}

#[test]
fn every_variant_and_every_value_round_trips_through_bytes() {
    let events = every_kind_of_event();
    assert_every_variant(&events, "the hand-built events");
    for e in &events {
        assert_round_trips(e);
    }
}

// ---- whole tournaments ----

fn start(format: Format, seed: u64, players: &[Registration]) -> Simulation {
    let mut s = Simulation::new(TournamentConfig::new("sim", format, seed), seed).unwrap();
    s.register_all(players).unwrap();
    s.run(Command::Start).unwrap();
    s
}

fn teams_start(format: Format, teams: u32, size: u32, seed: u64) -> Simulation {
    let mut s = Simulation::new(TournamentConfig::new("teams", format, seed), seed).unwrap();
    s.register_all(&field(teams * size)).unwrap();
    for k in 0..teams {
        let members = (1..=size).map(|i| PlayerId(k * size + i)).collect();
        s.run(Command::RegisterTeam { team: TeamId(k + 1), name: format!("Team {}", k + 1), members }).unwrap();
    }
    s.run(Command::Start).unwrap();
    s
}

fn table_of(s: &Simulation, round: u32, table: u32) -> PairedGame {
    s.state.game(GameRef { round, table }).expect("a paired game").paired.clone()
}

/// A Swiss with everything an organiser and a referee do: forbidden pairs, a fixed game, granted byes,
/// a late entry, a warning, a no-show, withdrawals (asked, disqualified) and corrections.
fn swiss_with_rulings() -> Simulation {
    let mut s = Simulation::new(TournamentConfig::new("Swiss", Format::Swiss { rounds: 5 }, 3), 3).unwrap();
    s.register_all(&field(37)).unwrap();
    // A name corrected, a rank changed before the first pairing, a player who never came removed.
    let mut edited = s.state.players[&PlayerId(10)].registration.clone();
    edited.name_zh = "王 芳".into();
    edited.rank = Rank::Dan(1);
    s.run(Command::EditPlayer { registration: edited }).unwrap();
    s.run(Command::Register { registration: registration(39, Rank::Kyu(9)) }).unwrap();
    s.run(Command::RemovePlayer { player: PlayerId(39) }).unwrap();
    s.run(Command::ForbidPair { a: PlayerId(1), b: PlayerId(2), round: None }).unwrap();
    s.run(Command::ForbidPair { a: PlayerId(1), b: PlayerId(7), round: Some(1) }).unwrap();
    s.run(Command::ForbidPair { a: PlayerId(8), b: PlayerId(9), round: None }).unwrap();
    s.run(Command::AllowPair { a: PlayerId(9), b: PlayerId(8) }).unwrap();
    s.run(Command::Start).unwrap();
    s.run(Command::FixPairing { round: 1, black: PlayerId(3), white: PlayerId(4) }).unwrap();
    s.run(Command::GrantBye { round: 1, player: PlayerId(5), kind: ByeKind::ZeroPoint }).unwrap();
    s.run(Command::GrantBye { round: 1, player: PlayerId(6), kind: ByeKind::HalfPoint }).unwrap();
    // One marked absent who came after all.
    s.run(Command::GrantBye { round: 1, player: PlayerId(12), kind: ByeKind::ZeroPoint }).unwrap();
    s.run(Command::CancelBye { round: 1, player: PlayerId(12) }).unwrap();
    s.run(Command::PairRound).unwrap();
    let first = table_of(&s, 1, 1);
    s.run(Command::IssueWarning { game: GameRef { round: 1, table: 1 }, player: first.black }).unwrap();
    let second = table_of(&s, 1, 2);
    let absent = vec![second.black];
    s.run(Command::ClaimNoShow { game: GameRef { round: 1, table: 2 }, absent, started_at: Millis(0) }).unwrap();
    let tables = s.state.rounds[0].games.len() as u32;
    let last = table_of(&s, 1, tables);
    s.run(Command::Withdraw { player: last.white, reason: WithdrawalReason::Request }).unwrap();
    s.play_round().unwrap();
    let result = GameResult { outcome: Outcome::Draw, reason: ResultReason::Referee };
    s.run(Command::CorrectResult { game: GameRef { round: 1, table: 3 }, result, reason: Correction::RecordingError })
        .unwrap();
    s.run(Command::Register { registration: registration(38, Rank::Kyu(2)) }).unwrap();
    s.run(Command::PairRound).unwrap();
    // Round 2 taken back before any result, then paired again; one round more, and another order.
    s.run(Command::UnpairRound { round: 2 }).unwrap();
    s.run(Command::ChangeSettings {
        format: Format::Swiss { rounds: 6 },
        ranking: vec![TieBreak::Points, TieBreak::Sos, TieBreak::Sodos],
    })
    .unwrap();
    s.run(Command::PairRound).unwrap();
    s.play_round().unwrap();
    let cheat = table_of(&s, 2, 1);
    s.run(Command::Withdraw { player: cheat.black, reason: WithdrawalReason::Disqualified }).unwrap();
    let result = GameResult::forfeit(Color::White);
    s.run(Command::CorrectResult { game: GameRef { round: 2, table: 1 }, result, reason: Correction::Cheating })
        .unwrap();
    s.play_to_end(20).unwrap();
    s
}

/// A McMahon with handicaps by rank and club and region separation: costs in every tier.
fn mcmahon_with_handicaps() -> Simulation {
    let bars = McMahonBars { top: Rank::Dan(3), bottom: Rank::Kyu(10) };
    let mut config = TournamentConfig::new("McMahon", Format::McMahon { rounds: 5, bars }, 9);
    config.pairing.handicap = HandicapPolicy::ByRank { reduction: 2, ceiling: 9 };
    config.pairing.separate_clubs = true;
    config.pairing.separate_regions = true;
    let mut players = field(40);
    for r in &mut players {
        r.region = Some(format!("Region {}", r.player.0 % 3));
    }
    let mut s = Simulation::new(config, 9).unwrap();
    s.register_all(&players).unwrap();
    s.run(Command::Start).unwrap();
    s.play_to_end(20).unwrap();
    s
}

/// A round robin a player leaves early (results voided: the others rest in their rounds).
fn round_robin_with_a_void_withdrawal() -> Simulation {
    let mut s = start(Format::RoundRobin { cycles: 1 }, 7, &field(7));
    s.run(Command::PairRound).unwrap();
    s.play_round().unwrap();
    s.run(Command::Withdraw { player: PlayerId(2), reason: WithdrawalReason::Request }).unwrap();
    s.play_to_end(20).unwrap();
    s
}

/// A single knockout (with byes for the top seeds) where both players of two neighbouring games fail
/// to appear: nobody advances from that half of the pair, an empty bracket slot.
fn knockout_with_double_no_shows() -> Simulation {
    let mut s = start(Format::Knockout { losses: 1 }, 13, &field(13));
    s.run(Command::PairRound).unwrap();
    let neighbours = s.state.rounds[0]
        .bracket
        .chunks(2)
        .find_map(|pair| match pair {
            [BracketSlot::Game(a), BracketSlot::Game(b)] => Some([*a, *b]),
            _ => None,
        })
        .expect("two neighbouring games in round 1");
    for table in neighbours {
        let g = table_of(&s, 1, table);
        let absent = vec![g.black, g.white];
        s.run(Command::ClaimNoShow { game: GameRef { round: 1, table }, absent, started_at: Millis(0) }).unwrap();
    }
    s.play_round().unwrap();
    s.play_to_end(20).unwrap();
    s
}

/// A team Swiss of an odd number of teams (a team bye each round) with a line-up per match and round.
fn team_swiss_with_line_ups() -> Simulation {
    let format = Format::Team { boards: 2, line_up: LineUpRule::PerMatch, schedule: TeamSchedule::Swiss { rounds: 3 } };
    let mut s = teams_start(format, 5, 3, 5);
    for round in 1..=3u32 {
        for k in 1..=5u32 {
            let first = (k - 1) * 3 + 1;
            let players: Vec<PlayerId> = (0..3).map(|i| PlayerId(first + (i + round) % 3)).take(2).collect();
            s.run(Command::SubmitLineUp { round, team: TeamId(k), players }).unwrap();
        }
        s.run(Command::PairRound).unwrap();
        s.play_round().unwrap();
    }
    s
}

/// Whole tournaments of every format, played to the end through the pure core.
fn tournaments() -> Vec<(&'static str, Simulation)> {
    let played = |mut s: Simulation| {
        s.play_to_end(200).unwrap();
        s
    };
    let groups = || {
        let mut s = Simulation::new(TournamentConfig::seed_001_local_event("city", 2, 11), 11).unwrap();
        s.register_all(&field(10)).unwrap();
        s.run(Command::Start).unwrap();
        played(s)
    };
    let team_rr =
        Format::Team { boards: 3, line_up: LineUpRule::FixedOrder, schedule: TeamSchedule::RoundRobin { cycles: 1 } };
    vec![
        ("swiss with rulings", swiss_with_rulings()),
        ("mcmahon with handicaps", mcmahon_with_handicaps()),
        ("round robin, void withdrawal", round_robin_with_a_void_withdrawal()),
        ("double round robin", played(start(Format::RoundRobin { cycles: 2 }, 6, &field(6)))),
        ("knockout, double no-shows", knockout_with_double_no_shows()),
        ("double elimination", played(start(Format::Knockout { losses: 2 }, 2, &field(11)))),
        ("swiss elimination", played(start(Format::SwissElimination { rounds: 12, losses: 3 }, 1, &field(21)))),
        ("best of seven", played(start(Format::Match { wins_needed: 4 }, 3, &field(2)))),
        ("ten-game match", played(start(Format::FixedMatch { games: 10 }, 4, &field(2)))),
        ("groups then knockout", groups()),
        ("team round robin", played(teams_start(team_rr, 5, 4, 21))),
        ("team swiss, line-ups", team_swiss_with_line_ups()),
        ("team rotation", played(teams_start(Format::TeamRotation, 2, 4, 8))),
        ("win and continue", played(teams_start(Format::WinAndContinue, 2, 5, 1))),
    ]
}

#[test]
fn whole_tournaments_of_every_format_round_trip_event_by_event() {
    let mut all = Vec::new();
    let mut formats = BTreeSet::new();
    for (name, s) in tournaments() {
        assert!(matches!(s.state.phase, Phase::Finished(_)), "{name}: not finished");
        formats.insert(format_variant(&s.state.config.as_ref().unwrap().format));
        let read: Vec<TournamentEvent> = s.log.iter().map(through_the_log).collect();
        assert_eq!(read, s.log, "{name}");
        for e in &s.log {
            assert_round_trips(e);
        }
        // The log read back replays to the same tournament.
        assert_eq!(Tournament::replay(&read), s.state, "{name}");
        all.extend(s.log);
    }
    assert_eq!(formats.len(), FORMATS, "a format without a tournament");
    assert_every_variant(&all, "the simulated tournaments");
    // The realistic logs hold what the hand-built ones pin down: costs, each stage, each bye reason,
    // each bracket slot, each kind of champion but none.
    let rounds = || {
        all.iter().filter_map(|e| match e {
            TournamentEvent::RoundPaired { stage, games, byes, bracket, team_matches, team_byes, .. } => {
                Some((stage, games, byes, bracket, team_matches, team_byes))
            }
            _ => None,
        })
    };
    let games = || rounds().flat_map(|r| r.1.iter());
    assert!(games().any(|g| g.cost.is_some_and(|c| c.handicap > 0)));
    assert!(games().any(|g| g.cost.is_some_and(|c| c.score_diff > 0)));
    assert!(games().any(|g| g.cost.is_some_and(|c| c.separation > 0)));
    assert!(games().any(|g| g.cost.is_none()));
    assert!(games().any(|g| g.fixed && g.color_by == ColorBy::Organiser));
    assert!(games().any(|g| g.team_board.is_some()) && games().any(|g| g.group.is_some()));
    assert!(games().any(|g| g.color_by == ColorBy::Handicap && g.handicap > 0));
    let stages: BTreeSet<_> = rounds().map(|r| format!("{:?}", r.0)).collect();
    assert_eq!(stages.len(), 3, "{stages:?}");
    let byes: BTreeSet<_> = rounds().flat_map(|r| r.2.iter()).map(|b| format!("{:?}/{:?}", b.kind, b.reason)).collect();
    for reason in ["Pairing", "Requested", "Rest", "Advance"] {
        assert!(byes.iter().any(|b| b.ends_with(reason)), "no {reason} bye in {byes:?}");
    }
    let slots = || rounds().flat_map(|r| r.3.iter());
    assert!(slots().any(|s| matches!(s, BracketSlot::Game(_))));
    assert!(slots().any(|s| matches!(s, BracketSlot::Through(_))));
    assert!(slots().any(|s| matches!(s, BracketSlot::Empty)));
    assert!(rounds().any(|r| !r.4.is_empty()) && rounds().any(|r| !r.5.is_empty()));
    let champions = || {
        all.iter().filter_map(|e| match e {
            TournamentEvent::Finished { champion } => Some(*champion),
            _ => None,
        })
    };
    assert!(champions().any(|c| matches!(c, Champion::Player(_))));
    assert!(champions().any(|c| matches!(c, Champion::Team(_))));
    let rulings: BTreeSet<_> = all
        .iter()
        .filter_map(|e| match e {
            TournamentEvent::PlayerWithdrawn { reason, ruling, .. } => Some(format!("{reason:?}/{ruling:?}")),
            _ => None,
        })
        .collect();
    assert!(rulings.len() >= 2, "{rulings:?}");
}

/// The service writes every core event typed (never JSON), and reads its own log back.
#[tokio::test]
async fn the_service_writes_core_events_typed() {
    let (_dir, log) = common::embedded();
    let svc = TournamentService::with_environment(log, common::step_clock());
    common::open(&svc, "typed", common::mcmahon("Typed", 3), false, 7).await;
    common::play_round(&svc, "typed").await;
    let id = AggregateId::new("typed").unwrap();
    let stored = svc.log().read(AggregateKind::Tournament, &id, 1).await.unwrap();
    let mut core = Vec::new();
    for r in &stored {
        let body = decode_recorded(r).unwrap().event.body;
        let envelope = weiqi_tournament::codec::log::stored_envelope(r).unwrap_or_default();
        assert!(!matches!(envelope.body, Some(B::Domain(_))), "sequence {}: JSON written", r.sequence);
        if let Some(B::Core(m)) = &envelope.body {
            let Body::Domain(e) = body else { panic!("sequence {}: {body:?}", r.sequence) };
            assert_eq!(r.event_type, format!("weiqi.v1.tournament.{}", convert::event_type(&e)));
            assert_eq!(codec::event_from_pb(m), Ok(e.clone()));
            core.push(e);
        }
    }
    assert!(core.iter().any(|e| matches!(e, TournamentEvent::RoundPaired { .. })));
    let state = svc.read("typed", |t| t.core.clone()).await.unwrap().unwrap();
    assert_eq!(Tournament::replay(&core), state);
}

// ---- the upgrade path: logs of earlier versions ----

/// An envelope exactly as the version before the typed encoding wrote it: core events as JSON.
fn old_envelope(
    tournament: &str,
    agg: &TournamentAggregate,
    body: &Body,
    sequence: u64,
) -> pb::TournamentEventEnvelope {
    let (body_pb, result) = match body {
        Body::Domain(e) => (
            B::Domain(pb::TournamentDomainEvent {
                r#type: convert::event_type(e).to_string(),
                schema: 1,
                json: serde_json::to_string(e).unwrap(),
            }),
            aggregate::result_fact(tournament, agg, e).as_ref().map(weiqi_tournament::codec::log::fact_to_pb),
        ),
        other => (weiqi_tournament::codec::log::body_to_pb(other), None),
    };
    pb::TournamentEventEnvelope {
        event_id: format!("old-{sequence}"),
        tournament_id: tournament.to_string(),
        sequence,
        server_time_ms: 1_700_000_000_000 + sequence as i64,
        causation_id: format!("cmd-{sequence}"),
        actor: Some(weiqi_game::convert::actor_to_pb(&common::organiser())),
        body: Some(body_pb),
        result,
        ..Default::default()
    }
}

/// A tournament log as the earlier version wrote it: created, players registered, started, round 1
/// paired and played; all core events stored as JSON.
async fn write_old_log(log: &impl EventLog, tournament: &str) -> TournamentAggregate {
    let id = AggregateId::new(tournament).unwrap();
    let mut commands =
        vec![TournamentCommand::Create { config: common::mcmahon("Old", 3), settings: common::settings(false) }];
    for i in 1..=7 {
        commands.push(TournamentCommand::Register { account: format!("p{i}"), registration: common::registration(i) });
    }
    commands.push(TournamentCommand::Core(Command::Start));
    commands.push(TournamentCommand::PairRound { round: Some(1) });
    for table in 1..=3 {
        let result = GameResult::win(if table % 2 == 1 { Color::Black } else { Color::White });
        commands.push(TournamentCommand::Core(Command::RecordResult { game: GameRef { round: 1, table }, result }));
    }
    let mut agg = TournamentAggregate::default();
    for (k, cmd) in commands.iter().enumerate() {
        let bodies = aggregate::decide(&agg, cmd, Millis(1_700_000_000_000 + k as i64)).unwrap();
        let batch: Vec<NewEvent> = bodies
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let envelope = old_envelope(tournament, &agg, b, agg.version + i as u64 + 1);
                NewEvent::new(weiqi_tournament::codec::log::type_name(b), envelope.encode_to_vec())
            })
            .collect();
        let cid = CommandId::new(format!("old-{k}")).unwrap();
        let outcome = log.append(AggregateKind::Tournament, &id, agg.version, &cid, &batch).await.unwrap();
        for b in &bodies {
            agg.apply(b);
        }
        agg.version = outcome.last_sequence;
    }
    agg
}

#[tokio::test]
async fn a_log_written_as_json_by_an_earlier_version_replays_and_continues_typed() {
    let (_dir, log) = common::embedded();
    let old = write_old_log(&log, "old-open").await;
    assert_eq!(old.core.rounds.len(), 1);
    assert!(old.core.rounds[0].completed);
    let svc = TournamentService::with_environment(log, common::step_clock());
    // The old log replays to the state the old version had.
    let (core, accounts) = svc.read("old-open", |t| (t.core.clone(), t.accounts.clone())).await.unwrap().unwrap();
    assert_eq!(core, old.core);
    assert_eq!(accounts, old.accounts);
    // And the tournament goes on: what is appended now is typed.
    assert_eq!(common::play_round(&svc, "old-open").await, 2);
    let id = AggregateId::new("old-open").unwrap();
    let stored = svc.log().read(AggregateKind::Tournament, &id, 1).await.unwrap();
    let (mut json, mut typed) = (0, 0);
    for r in &stored {
        decode_recorded(r).unwrap();
        let envelope = weiqi_tournament::codec::log::stored_envelope(r).unwrap_or_default();
        match envelope.body {
            Some(B::Domain(_)) => {
                assert!(r.sequence <= old.version, "sequence {}: JSON written after the upgrade", r.sequence);
                json += 1;
            }
            Some(B::Core(_)) => {
                assert!(r.sequence > old.version, "sequence {}: typed before the upgrade", r.sequence);
                typed += 1;
            }
            _ => {}
        }
    }
    assert!(json > 10 && typed > 3, "{json} JSON and {typed} typed core events");
    // A service that has cached nothing replays the mixed log to the same tournament.
    let now = svc.read("old-open", |t| t.core.clone()).await.unwrap().unwrap();
    svc.evict_all();
    assert_eq!(svc.read("old-open", |t| t.core.clone()).await.unwrap().unwrap(), now);
    assert_eq!(now.rounds.len(), 2);
    assert!(now.rounds[1].completed);
}

/// Core events as the previous version's JSON spelled them (serde's externally tagged form), byte for
/// byte: they read back into the same events as the typed encoding carries.
#[test]
fn json_bodies_of_the_previous_version_read_back() {
    let fixtures: [(&str, &str, TournamentEvent); 5] = [
        ("Started", r#"{"Started":{"at":1700000000000}}"#, TournamentEvent::Started { at: Millis(1_700_000_000_000) }),
        (
            "PlayerRegistered",
            concat!(
                r#"{"PlayerRegistered":{"registration":{"player":3,"name_zh":"棋手3","name_latin":"Li Wei","#,
                r#""rank":{"Kyu":5},"rating":null,"club":"club-3","region":null,"country":null,"egd_pin":12345,"#,
                r#""at":1700000000001}}}"#,
            ),
            TournamentEvent::PlayerRegistered {
                registration: Registration {
                    player: PlayerId(3),
                    name_zh: "棋手3".into(),
                    name_latin: "Li Wei".into(),
                    rank: Rank::Kyu(5),
                    rating: None,
                    club: Some("club-3".into()),
                    region: None,
                    family: None,
                    country: None,
                    egd_pin: Some(12345),
                    at: Millis(1_700_000_000_001),
                },
            },
        ),
        (
            "RoundPaired",
            concat!(
                r#"{"RoundPaired":{"round":1,"stage":"Main","games":[{"table":1,"black":3,"white":1,"handicap":0,"#,
                r#""colour_by":"Nigiri","cost":{"rematch":0,"score_diff":2,"colour":0,"handicap":0,"separation":1},"#,
                r#""fixed":false,"team_board":null,"group":null}],"byes":[{"player":2,"kind":"FullPoint","#,
                r#""reason":"Pairing"}],"team_matches":[],"bracket":[{"Game":1},{"Through":2},"Empty"],"#,
                r#""team_byes":[]}}"#,
            ),
            TournamentEvent::RoundPaired {
                round: 1,
                stage: Stage::Main,
                games: vec![PairedGame {
                    table: 1,
                    black: PlayerId(3),
                    white: PlayerId(1),
                    handicap: 0,
                    color_by: ColorBy::Nigiri,
                    cost: Some(EdgeCost {
                        rematch: 0,
                        score_diff: 2,
                        score_groups: 0,
                        color: 0,
                        seeding: 0,
                        handicap: 0,
                        separation: 1,
                    }),
                    fixed: false,
                    team_board: None,
                    group: None,
                }],
                byes: vec![Bye { player: PlayerId(2), kind: ByeKind::FullPoint, reason: ByeReason::Pairing }],
                team_matches: vec![],
                bracket: vec![BracketSlot::Game(1), BracketSlot::Through(PlayerId(2)), BracketSlot::Empty],
                team_byes: vec![],
            },
        ),
        (
            "ResultCorrected",
            concat!(
                r#"{"ResultCorrected":{"game":{"round":1,"table":1},"#,
                r#""result":{"outcome":{"Win":"White"},"reason":"Referee"},"reason":"Cheating","at":5}}"#,
            ),
            TournamentEvent::ResultCorrected {
                game: GameRef { round: 1, table: 1 },
                result: GameResult { outcome: Outcome::Win(Color::White), reason: ResultReason::Referee },
                reason: Correction::Cheating,
                at: Millis(5),
            },
        ),
        (
            "Finished",
            r#"{"Finished":{"champion":{"Player":3}}}"#,
            TournamentEvent::Finished { champion: Champion::Player(PlayerId(3)) },
        ),
    ];
    for (kind, json, want) in fixtures {
        // The fixtures are exactly what the JSON writer of earlier versions produced (it is unchanged).
        assert_eq!(serde_json::to_string(&want).unwrap(), json, "{kind}");
        let old = pb::TournamentDomainEvent { r#type: kind.into(), schema: 1, json: json.into() };
        let envelope = pb::TournamentEventEnvelope { body: Some(B::Domain(old)), ..Default::default() };
        let bytes = envelope.encode_to_vec();
        let back = pb::TournamentEventEnvelope::decode(bytes.as_slice()).unwrap();
        assert_eq!(
            weiqi_tournament::codec::log::body_from_pb(back.body.as_ref()),
            Ok(Body::Domain(want.clone())),
            "{kind}"
        );
        // The same event, written now, is typed and reads back equal.
        assert_round_trips(&want);
    }
    // A JSON schema this version does not know is refused.
    let unknown =
        pb::TournamentDomainEvent { r#type: "Started".into(), schema: 2, json: r#"{"Started":{"at":1}}"#.into() };
    assert!(weiqi_tournament::codec::log::body_from_pb(Some(&B::Domain(unknown))).is_err());
}

// ---- refusals ----

/// A typed message with an unknown enum value is refused, naming the field, by the codec (typed) and
/// by the service's reader (in the error text).
#[test]
fn an_unknown_enum_value_is_refused_naming_the_field() {
    let mut g = game(1, ColorBy::Nigiri);
    g.cost =
        Some(EdgeCost { rematch: 0, score_diff: 1, score_groups: 0, color: 0, seeding: 0, handicap: 0, separation: 0 });
    let paired = TournamentEvent::RoundPaired {
        round: 1,
        stage: Stage::Main,
        games: vec![g],
        byes: vec![],
        team_matches: vec![],
        bracket: vec![],
        team_byes: vec![],
    };
    let mut m = codec::event_to_pb(&paired);
    let Some(P::RoundPaired(r)) = &mut m.event else { panic!("{m:?}") };
    r.games[0].color_by = 99;
    assert_eq!(
        codec::event_from_pb(&m),
        Err(CodecError::UnknownEnum { field: "TournamentPairedGame.color_by", value: 99 })
    );
    let stored = pb::TournamentEventEnvelope { body: Some(B::Core(m)), ..Default::default() }.encode_to_vec();
    let back = pb::TournamentEventEnvelope::decode(stored.as_slice()).unwrap();
    let err = weiqi_tournament::codec::log::body_from_pb(back.body.as_ref()).unwrap_err();
    assert!(err.to_string().contains("TournamentPairedGame.color_by") && err.to_string().contains("99"), "{err}");
}

/// Every way a stored message can fail to hold a core value, each refused with the field it is about.
#[test]
fn messages_the_core_cannot_hold_are_refused_naming_the_field() {
    /// The variant `$v` of a core event message (each case knows which one it built).
    macro_rules! inner {
        ($m:expr, $v:ident) => {
            match &mut $m.event {
                Some(P::$v(x)) => x,
                other => panic!("not {}: {other:?}", stringify!($v)),
            }
        };
    }
    type Corrupt = fn(&mut pb::TournamentCoreEvent);
    fn case(event: &TournamentEvent, corrupt: Corrupt, want: CodecError) -> (&TournamentEvent, Corrupt, CodecError) {
        (event, corrupt, want)
    }
    fn created(m: &mut pb::TournamentCoreEvent) -> &mut pb::TournamentCoreConfig {
        inner!(m, Created).config.as_mut().unwrap()
    }
    fn paired(m: &mut pb::TournamentCoreEvent) -> &mut pb::TournamentRoundPaired {
        inner!(m, RoundPaired)
    }
    fn team(m: &mut pb::TournamentCoreEvent) -> &mut pb::tournament_core_format::Team {
        let Some(pb::tournament_core_format::Format::Team(t)) = &mut created(m).format.as_mut().unwrap().format else {
            panic!()
        };
        t
    }
    fn mcmahon(m: &mut pb::TournamentCoreEvent) -> &mut pb::tournament_core_format::McMahon {
        let Some(pb::tournament_core_format::Format::Mcmahon(f)) = &mut created(m).format.as_mut().unwrap().format
        else {
            panic!()
        };
        f
    }
    let team_config = TournamentConfig::new(
        "T",
        Format::Team { boards: 2, line_up: LineUpRule::PerMatch, schedule: TeamSchedule::Swiss { rounds: 2 } },
        1,
    );
    let bars = McMahonBars { top: Rank::Dan(3), bottom: Rank::Kyu(20) };
    let mut mcmahon_config = TournamentConfig::new("M", Format::McMahon { rounds: 3, bars }, 1);
    mcmahon_config.pairing.handicap = HandicapPolicy::ByRank { reduction: 1, ceiling: 9 };
    let team_created = TournamentEvent::Created { config: team_config, at: Millis(0) };
    let mcmahon_created = TournamentEvent::Created { config: mcmahon_config, at: Millis(0) };
    let mut g = game(1, ColorBy::Balance);
    g.cost =
        Some(EdgeCost { rematch: 0, score_diff: 0, score_groups: 0, color: 1, seeding: 0, handicap: 0, separation: 0 });
    let round = TournamentEvent::RoundPaired {
        round: 1,
        stage: Stage::Knockout,
        games: vec![g],
        byes: vec![Bye { player: PlayerId(9), kind: ByeKind::FullPoint, reason: ByeReason::Advance }],
        team_matches: vec![],
        bracket: vec![BracketSlot::Game(1), BracketSlot::Through(PlayerId(9))],
        team_byes: vec![],
    };
    let recorded = TournamentEvent::ResultRecorded {
        game: GameRef { round: 1, table: 1 },
        result: GameResult::win(Color::Black),
        at: Millis(0),
    };
    let corrected = TournamentEvent::ResultCorrected {
        game: GameRef { round: 1, table: 1 },
        result: GameResult::draw(),
        reason: Correction::Cheating,
        at: Millis(0),
    };
    let withdrawn = TournamentEvent::PlayerWithdrawn {
        player: PlayerId(1),
        after_round: 1,
        reason: WithdrawalReason::Request,
        ruling: WithdrawalRuling::ResultsVoid,
    };
    let registered =
        TournamentEvent::PlayerRegistered { registration: Registration::new(PlayerId(1), "A", Rank::Dan(2)) };
    let finished = TournamentEvent::Finished { champion: Champion::None };
    let bye = TournamentEvent::ByeGranted { round: 1, player: PlayerId(2), kind: ByeKind::HalfPoint };

    let missing = |field| CodecError::Missing { field };
    let unknown = |field, value| CodecError::UnknownEnum { field, value };
    let range = |field, value| CodecError::OutOfRange { field, value };
    let cases: Vec<(&TournamentEvent, Corrupt, CodecError)> = vec![
        case(&team_created, |m| m.event = None, missing("TournamentCoreEvent.event")),
        case(&team_created, |m| inner!(m, Created).config = None, missing("TournamentCreated.config")),
        case(&team_created, |m| created(m).format = None, missing("TournamentCoreConfig.format")),
        case(
            &team_created,
            |m| created(m).format.as_mut().unwrap().format = None,
            missing("TournamentCoreFormat.format"),
        ),
        case(&team_created, |m| created(m).points = None, missing("TournamentCoreConfig.points")),
        case(&team_created, |m| created(m).pairing = None, missing("TournamentCoreConfig.pairing")),
        case(
            &team_created,
            |m| created(m).pairing.as_mut().unwrap().handicap = None,
            missing("TournamentPairingPolicy.handicap"),
        ),
        case(&team_created, |m| created(m).pairing_bye = 0, unknown("TournamentCoreConfig.pairing_bye", 0)),
        case(&team_created, |m| created(m).pairing_bye = 4, unknown("TournamentCoreConfig.pairing_bye", 4)),
        case(
            &team_created,
            |m| created(m).pairing.as_mut().unwrap().rematches = 3,
            unknown("TournamentPairingPolicy.rematches", 3),
        ),
        case(
            &team_created,
            |m| created(m).pairing.as_mut().unwrap().byes = 0,
            unknown("TournamentPairingPolicy.byes", 0),
        ),
        case(&team_created, |m| created(m).ranking[0].criterion = 17, unknown("TournamentTieBreak.criterion", 17)),
        case(
            &team_created,
            |m| created(m).ranking[0].board = 1,
            CodecError::Invalid {
                field: "TournamentTieBreak.board",
                reason: "a board is set on a criterion other than CRITERION_BOARD".into(),
            },
        ),
        case(&team_created, |m| team(m).line_up = 3, unknown("TournamentCoreFormat.Team.line_up", 3)),
        case(&team_created, |m| team(m).schedule = None, missing("TournamentCoreFormat.Team.schedule")),
        case(&mcmahon_created, |m| mcmahon(m).top_bar = None, missing("TournamentCoreFormat.McMahon.top_bar")),
        case(
            &mcmahon_created,
            |m| mcmahon(m).bottom_bar.as_mut().unwrap().grade = 4,
            unknown("TournamentRank.grade", 4),
        ),
        case(
            &mcmahon_created,
            |m| mcmahon(m).bottom_bar.as_mut().unwrap().number = 256,
            range("TournamentRank.number", 256),
        ),
        case(
            &mcmahon_created,
            |m| {
                let Some(pb::tournament_pairing_policy::Handicap::ByRank(r)) =
                    &mut created(m).pairing.as_mut().unwrap().handicap
                else {
                    panic!()
                };
                r.ceiling = 1000;
            },
            range("TournamentPairingPolicy.ByRank.ceiling", 1000),
        ),
        case(
            &registered,
            |m| inner!(m, PlayerRegistered).registration = None,
            missing("TournamentPlayerRegistered.registration"),
        ),
        case(
            &registered,
            |m| inner!(m, PlayerRegistered).registration.as_mut().unwrap().rank = None,
            missing("TournamentCoreRegistration.rank"),
        ),
        case(
            &registered,
            |m| inner!(m, PlayerRegistered).registration.as_mut().unwrap().rank.as_mut().unwrap().grade = 0,
            unknown("TournamentRank.grade", 0),
        ),
        case(&bye, |m| inner!(m, ByeGranted).kind = -1, unknown("TournamentByeGranted.kind", -1)),
        case(&round, |m| paired(m).stage = 0, unknown("TournamentRoundPaired.stage", 0)),
        case(&round, |m| paired(m).games[0].handicap = 256, range("TournamentPairedGame.handicap", 256)),
        case(&round, |m| paired(m).games[0].color_by = 8, unknown("TournamentPairedGame.color_by", 8)),
        case(
            &round,
            |m| paired(m).games[0].cost.as_mut().unwrap().rematch = 300,
            range("TournamentEdgeCost.rematch", 300),
        ),
        case(
            &round,
            |m| paired(m).games[0].cost.as_mut().unwrap().separation = u32::MAX,
            range("TournamentEdgeCost.separation", u64::from(u32::MAX)),
        ),
        case(&round, |m| paired(m).byes[0].reason = 5, unknown("TournamentRoundBye.reason", 5)),
        case(&round, |m| paired(m).byes[0].kind = 0, unknown("TournamentRoundBye.kind", 0)),
        case(&round, |m| paired(m).bracket[1].slot = None, missing("TournamentBracketSlot.slot")),
        case(&recorded, |m| inner!(m, ResultRecorded).game = None, missing("TournamentResultRecorded.game")),
        case(&recorded, |m| inner!(m, ResultRecorded).result = None, missing("TournamentResultRecorded.result")),
        case(
            &recorded,
            |m| inner!(m, ResultRecorded).result.as_mut().unwrap().outcome = 6,
            unknown("TournamentCoreResult.outcome", 6),
        ),
        case(
            &recorded,
            |m| inner!(m, ResultRecorded).result.as_mut().unwrap().reason = 0,
            unknown("TournamentCoreResult.reason", 0),
        ),
        case(&corrected, |m| inner!(m, ResultCorrected).reason = 3, unknown("TournamentResultCorrected.reason", 3)),
        case(&withdrawn, |m| inner!(m, PlayerWithdrawn).reason = 4, unknown("TournamentPlayerWithdrawn.reason", 4)),
        case(&withdrawn, |m| inner!(m, PlayerWithdrawn).ruling = 0, unknown("TournamentPlayerWithdrawn.ruling", 0)),
        case(&finished, |m| inner!(m, Finished).champion = None, missing("TournamentFinished.champion")),
        case(
            &finished,
            |m| inner!(m, Finished).champion.as_mut().unwrap().winner = None,
            missing("TournamentChampion.winner"),
        ),
    ];
    for (event, corrupt, want) in cases {
        let mut m = codec::event_to_pb(event);
        assert_eq!(codec::event_from_pb(&m).as_ref(), Ok(event), "intact");
        corrupt(&mut m);
        // Through bytes, as stored.
        let m = pb::TournamentCoreEvent::decode(m.encode_to_vec().as_slice()).unwrap();
        let got = codec::event_from_pb(&m).unwrap_err();
        assert_eq!(got, want);
        assert_eq!(got.field(), want.field());
        let read = weiqi_tournament::codec::log::body_from_pb(Some(&B::Core(m))).unwrap_err();
        assert!(read.to_string().contains(want.field()), "{read}");
    }
}

/// A variant a later version adds arrives as an unknown field: the event is empty and refused, never
/// taken for another.
#[test]
fn an_event_of_a_later_version_is_refused() {
    let later = pb::TournamentPairForbidden { a: 1, b: 2, round: None };
    // Field 99 of TournamentCoreEvent, length-delimited: what a later variant would look like.
    let inner = later.encode_to_vec();
    let mut bytes = Vec::new();
    prost::encoding::encode_key(99, prost::encoding::WireType::LengthDelimited, &mut bytes);
    prost::encoding::encode_varint(inner.len() as u64, &mut bytes);
    bytes.extend(inner);
    let m = pb::TournamentCoreEvent::decode(bytes.as_slice()).unwrap();
    assert_eq!(codec::event_from_pb(&m), Err(CodecError::Missing { field: "TournamentCoreEvent.event" }));
}

// ---- arbitrary values ----

/// Arbitrary values of the richest event types, beyond the hand-picked ones above.
mod arbitrary {
    use super::*;
    use proptest::collection::vec;
    use proptest::option::of;
    use proptest::prelude::*;
    use proptest::sample::select;

    fn rank() -> impl Strategy<Value = Rank> {
        prop_oneof![any::<u8>().prop_map(Rank::Kyu), any::<u8>().prop_map(Rank::Dan), any::<u8>().prop_map(Rank::Pro)]
    }

    fn registration() -> impl Strategy<Value = Registration> {
        let names = (any::<u32>(), any::<String>(), any::<String>(), rank(), any::<Option<i32>>());
        let places = (of(any::<String>()), of(any::<String>()), of(any::<String>()));
        let rest = (places, of(any::<String>()), any::<Option<u64>>(), any::<i64>());
        (names, rest).prop_map(
            |((player, name_zh, name_latin, rank, rating), ((club, region, family), country, egd_pin, at))| {
                Registration {
                    player: PlayerId(player),
                    name_zh,
                    name_latin,
                    rank,
                    rating,
                    club,
                    region,
                    family,
                    country,
                    egd_pin,
                    at: Millis(at),
                }
            },
        )
    }

    fn format() -> impl Strategy<Value = Format> {
        let team = (
            any::<u32>(),
            select(vec![LineUpRule::FixedOrder, LineUpRule::PerMatch]),
            prop_oneof![
                any::<u32>().prop_map(|cycles| TeamSchedule::RoundRobin { cycles }),
                any::<u32>().prop_map(|rounds| TeamSchedule::Swiss { rounds }),
            ],
        );
        prop_oneof![
            any::<u32>().prop_map(|losses| Format::Knockout { losses }),
            any::<u32>().prop_map(|cycles| Format::RoundRobin { cycles }),
            any::<u32>().prop_map(|rounds| Format::Swiss { rounds }),
            (any::<u32>(), rank(), rank())
                .prop_map(|(rounds, top, bottom)| Format::McMahon { rounds, bars: McMahonBars { top, bottom } }),
            (any::<u32>(), any::<u32>()).prop_map(|(rounds, losses)| Format::SwissElimination { rounds, losses }),
            any::<u32>().prop_map(|wins_needed| Format::Match { wins_needed }),
            any::<u32>().prop_map(|games| Format::FixedMatch { games }),
            (any::<u32>(), any::<u32>()).prop_map(|(groups, advance)| Format::GroupsThenKnockout { groups, advance }),
            team.prop_map(|(boards, line_up, schedule)| Format::Team { boards, line_up, schedule }),
            Just(Format::TeamRotation),
            Just(Format::WinAndContinue),
        ]
    }

    fn config() -> impl Strategy<Value = TournamentConfig> {
        let tie_break = prop_oneof![select(every_tie_break()), any::<u32>().prop_map(TieBreak::Board)];
        let handicap = prop_oneof![
            Just(HandicapPolicy::Even),
            (any::<u8>(), any::<u8>()).prop_map(|(reduction, ceiling)| HandicapPolicy::ByRank { reduction, ceiling }),
        ];
        let pairing = (
            handicap,
            (any::<bool>(), any::<bool>()),
            any::<bool>(),
            select(vec![RematchPolicy::Forbidden, RematchPolicy::Discouraged]),
            select(vec![ByePolicy::OncePerPlayer, ByePolicy::FewestFirst]),
            (seed_system(), any::<u32>(), seed_system()),
        )
            .prop_map(
                |(
                    handicap,
                    (separate_clubs, separate_families),
                    separate_regions,
                    rematches,
                    byes,
                    (first, last_round_first, second),
                )| {
                    PairingPolicy {
                        handicap,
                        separate_clubs,
                        separate_regions,
                        separate_families,
                        rematches,
                        byes,
                        seeding: Seeding { first, last_round_first, second },
                    }
                },
            );
        let head = (any::<String>(), format(), any::<(i64, i64, i64)>(), vec(tie_break, 0..6), any::<u64>());
        let tail = (
            select(vec![ByeKind::FullPoint, ByeKind::HalfPoint, ByeKind::ZeroPoint]),
            pairing,
            any::<i64>(),
            any::<Option<u32>>(),
            any::<bool>(),
            select(vec![UnplayedSosm::StartMms, UnplayedSosm::OwnFinalMms]),
        );
        (head, tail).prop_map(
            |(
                (name, format, (win, draw, loss), ranking, seed),
                (pairing_bye, pairing, no_show_limit_ms, withdraw_after_no_shows, shared_places, unplayed_sosm),
            )| TournamentConfig {
                name,
                format,
                points: PointSystem { win, draw, loss },
                ranking,
                seed,
                pairing_bye,
                pairing,
                no_show_limit_ms,
                withdraw_after_no_shows,
                shared_places,
                unplayed_sosm,
            },
        )
    }

    fn seed_system() -> impl Strategy<Value = SeedSystem> {
        select(vec![SeedSystem::SplitAndRandom, SeedSystem::SplitAndFold, SeedSystem::SplitAndSlip])
    }

    fn paired_game() -> impl Strategy<Value = PairedGame> {
        let cost = (any::<u8>(), any::<u32>(), any::<u32>(), any::<u8>(), any::<u8>()).prop_map(
            |(rematch, score_diff, color, handicap, separation)| EdgeCost {
                rematch,
                score_diff,
                score_groups: 0,
                color,
                seeding: score_diff ^ color,
                handicap,
                separation,
            },
        );
        let color_by = select(vec![
            ColorBy::Balance,
            ColorBy::Alternation,
            ColorBy::Nigiri,
            ColorBy::Handicap,
            ColorBy::Berger,
            ColorBy::Organiser,
            ColorBy::BoardOrder,
        ]);
        let board = (any::<u32>(), any::<u32>()).prop_map(|(match_no, board)| TeamBoard { match_no, board });
        (
            (any::<u32>(), any::<u32>(), any::<u32>(), any::<u8>(), color_by),
            (of(cost), any::<bool>(), of(board), of(any::<u32>())),
        )
            .prop_map(|((table, black, white, handicap, color_by), (cost, fixed, team_board, group))| {
                PairedGame {
                    table,
                    black: PlayerId(black),
                    white: PlayerId(white),
                    handicap,
                    color_by,
                    cost,
                    fixed,
                    team_board,
                    group,
                }
            })
    }

    fn round_paired() -> impl Strategy<Value = TournamentEvent> {
        let bye = (
            any::<u32>(),
            select(vec![ByeKind::FullPoint, ByeKind::HalfPoint, ByeKind::ZeroPoint]),
            select(vec![ByeReason::Pairing, ByeReason::Requested, ByeReason::Rest, ByeReason::Advance]),
        )
            .prop_map(|(p, kind, reason)| Bye { player: PlayerId(p), kind, reason });
        let team_match = (any::<u32>(), any::<u32>(), any::<u32>()).prop_map(|(match_no, h, a)| TeamMatch {
            match_no,
            home: TeamId(h),
            away: TeamId(a),
        });
        let slot = prop_oneof![
            any::<u32>().prop_map(BracketSlot::Game),
            any::<u32>().prop_map(|p| BracketSlot::Through(PlayerId(p))),
            Just(BracketSlot::Empty),
        ];
        (
            any::<u32>(),
            select(vec![Stage::Main, Stage::Groups, Stage::Knockout]),
            vec(paired_game(), 0..6),
            vec(bye, 0..6),
            vec(team_match, 0..4),
            vec(slot, 0..8),
            vec(any::<u32>().prop_map(TeamId), 0..3),
        )
            .prop_map(|(round, stage, games, byes, team_matches, bracket, team_byes)| {
                TournamentEvent::RoundPaired { round, stage, games, byes, team_matches, bracket, team_byes }
            })
    }

    proptest! {
        #[test]
        fn arbitrary_configurations_round_trip(config in config(), at in any::<i64>()) {
            let e = TournamentEvent::Created { config, at: Millis(at) };
            prop_assert_eq!(through_the_log(&e), e);
        }

        #[test]
        fn arbitrary_registrations_round_trip(registration in registration()) {
            let e = TournamentEvent::PlayerRegistered { registration };
            prop_assert_eq!(through_the_log(&e), e);
        }

        #[test]
        fn arbitrary_paired_rounds_round_trip(e in round_paired()) {
            prop_assert_eq!(through_the_log(&e), e);
        }

        #[test]
        fn arbitrary_lots_round_trip(
            players in vec(any::<(u32, u64)>(), 0..8),
            teams in vec(any::<(u32, u64)>(), 0..4),
        ) {
            let e = TournamentEvent::LotsDrawn {
                players: players.into_iter().map(|(p, l)| (PlayerId(p), l)).collect(),
                teams: teams.into_iter().map(|(t, l)| (TeamId(t), l)).collect(),
            };
            prop_assert_eq!(through_the_log(&e), e);
        }
    }
}
