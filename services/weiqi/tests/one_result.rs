//! One result, everywhere (issue 30 items 1–2), against a real `weiqi up`: a 4-player event's results
//! entered at the desk, one of them a forfeit, and round 1's played result corrected after a rank
//! application used it. The game record, the ratings (the game re-rated, the forfeit never rated), the
//! standings, the `.h9` and the certification case all follow the tournament's log.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{PASSWORD, bearer};
use weiqi_browser::Server;
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::game_service_client::GameServiceClient;
use weiqi_proto::v1::ranking_service_client::RankingServiceClient;
use weiqi_proto::v1::tournament_service_client::TournamentServiceClient;

const WEIQI: &str = env!("CARGO_BIN_EXE_weiqi");
const T: &str = "spring-cup";
const PLAYERS: [(&str, &str, &str); 4] =
    [("li", "李明", "2k"), ("wang", "王芳", "2k"), ("zhao", "赵磊", "3k"), ("qian", "钱多", "3k")];

/// Polls `check` until it answers `Some`, for at most 60 s (nothing is timed: a bound on a slow machine).
async fn eventually<T, F, Fut>(what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(v) = check().await {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn request<T>(message: T, token: &str) -> tonic::Request<T> {
    bearer(message, token)
}

async fn rating(server: &Server, player: &str) -> pb::RatingSummary {
    let token = server.token(player, "player");
    let mut rc = RankingServiceClient::connect(format!("http://{}", server.grpc)).await.unwrap();
    rc.my_rating(request(pb::MyRatingRequest {}, &token)).await.unwrap().into_inner()
}

async fn game_result(server: &Server, token: &str, game: &str) -> String {
    let mut gc = GameServiceClient::connect(format!("http://{}", server.grpc)).await.unwrap();
    let view = gc.get_game(request(pb::GetGameRequest { game_id: game.into() }, token)).await.unwrap().into_inner();
    view.result.map(|r| r.sgf).unwrap_or_default()
}

async fn record(
    tc: &mut TournamentServiceClient<tonic::transport::Channel>,
    organiser: &str,
    table: u32,
    outcome: pb::tournament_game_outcome::Outcome,
    reason: pb::tournament_game_outcome::Reason,
    correction: bool,
) {
    let r = pb::RecordTournamentResultRequest {
        tournament_id: T.into(),
        request_id: format!("result-{table}-{correction}"),
        round: 1,
        table,
        result: Some(pb::TournamentGameOutcome { outcome: outcome as i32, reason: reason as i32 }),
        correction,
        cheating: false,
    };
    tc.record_result(request(r, organiser)).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_corrected_result_reaches_the_game_record_the_ratings_the_standings_the_h9_and_the_case() {
    use pb::tournament_game_outcome::{Outcome as O, Reason as R};
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::new(Path::new(WEIQI), &dir.path().join("data"), None);
    // Elo rates each game as it ends, so a rating moves with each result.
    server.env.push(("WEIQI_RATING_SYSTEM".into(), "elo".into()));
    for (id, zh, _) in PLAYERS {
        server.add_account(id, &["player"], zh, PASSWORD);
    }
    server.add_account("rev1", &["reviewer"], "审核员甲", PASSWORD);
    server.add_account("rev2", &["reviewer"], "审核员乙", PASSWORD);
    server.start();
    let organiser = server.token("org", "organiser");
    let channel =
        tonic::transport::Endpoint::from_shared(format!("http://{}", server.grpc)).unwrap().connect().await.unwrap();
    let mut tc = TournamentServiceClient::new(channel.clone());
    let mut rc = RankingServiceClient::new(channel);

    // The association's registry knows the players (a rank application needs it).
    for (id, zh, rank) in PLAYERS {
        let profile = pb::RegistryProfile { player_id: id.into(), name_zh: zh.into(), ..Default::default() };
        let r =
            pb::RegistryRegisterRequest { request_id: format!("reg-{id}"), profile: Some(profile), rank: rank.into() };
        rc.register_player(request(r, &organiser)).await.unwrap();
    }
    // A rated one-round Swiss of four, over the board.
    let create = pb::CreateTournamentRequest {
        tournament_id: T.into(),
        request_id: "create".into(),
        config: Some(pb::TournamentConfig {
            name: "春季杯".into(),
            format: Some(pb::TournamentFormat {
                format: Some(pb::tournament_format::Format::Swiss(pb::tournament_format::Swiss { rounds: 1 })),
            }),
            seed: 2026,
            ..Default::default()
        }),
        settings: Some(pb::TournamentGameSettings {
            size: 19,
            rules: "chinese".into(),
            rated: true,
            ..Default::default()
        }),
    };
    tc.create_tournament(request(create, &organiser)).await.unwrap();
    for (n, (id, zh, rank)) in PLAYERS.iter().enumerate() {
        let r = pb::RegisterPlayerRequest {
            tournament_id: T.into(),
            request_id: format!("enter-{id}"),
            account_id: (*id).into(),
            player: u32::try_from(n).unwrap() + 1,
            snapshot: Some(pb::TournamentPlayerSnapshot {
                name_zh: (*zh).into(),
                rank: (*rank).into(),
                ..Default::default()
            }),
        };
        tc.register_player(request(r, &organiser)).await.unwrap();
    }
    let start = pb::TournamentRequest { tournament_id: T.into(), request_id: "start".into() };
    tc.start_tournament(request(start, &organiser)).await.unwrap();
    let pair = pb::PairRoundRequest { tournament_id: T.into(), request_id: "pair-1".into(), round: 1 };
    tc.pair_round(request(pair, &organiser)).await.unwrap();
    let pairings = eventually("round 1's pairings", || {
        let mut tc = tc.clone();
        let organiser = organiser.clone();
        async move {
            let r = pb::GetTournamentPairingsRequest { tournament_id: T.into(), round: 1, min_sequence: 0 };
            let p = tc.get_pairings(request(r, &organiser)).await.ok()?.into_inner();
            (p.games.len() == 2 && p.games.iter().all(|g| !g.game_id.is_empty())).then_some(p)
        }
    })
    .await;
    let (played, forfeit) = (&pairings.games[0], &pairings.games[1]);

    // Their ratings before the event (seeded from the declared ranks).
    let (black, white) = (played.black_account.clone(), played.white_account.clone());
    let seeds = (rating(&server, &black).await.rating, rating(&server, &white).await.rating);

    // The desk enters table 1: White won by resignation; table 2: Black won, White never came.
    record(&mut tc, &organiser, played.table, O::WhiteWins, R::Resignation, false).await;
    record(&mut tc, &organiser, forfeit.table, O::BlackWins, R::Forfeit, false).await;
    let sgf = |game: String| {
        let server = &server;
        let organiser = organiser.clone();
        move |want: &'static str| {
            let game = game.clone();
            let organiser = organiser.clone();
            async move { (game_result(server, &organiser, &game).await == want).then_some(()) }
        }
    };
    // A played result is what happened, not a forfeit; the forfeit is one.
    eventually("table 1's record W+R", || sgf(played.game_id.clone())("W+R")).await;
    eventually("table 2's record B+F", || sgf(forfeit.game_id.clone())("B+F")).await;
    let before = eventually("table 1 rated", || {
        let (server, black, white) = (&server, black.clone(), white.clone());
        async move {
            let (b, w) = (rating(server, &black).await, rating(server, &white).await);
            (b.games == 1 && w.games == 1).then_some((b, w))
        }
    })
    .await;
    assert!(before.1.rating > seeds.1 && before.0.rating < seeds.0, "the winner gained: {seeds:?} → {before:?}");
    // A forfeit is not rated (as the EGD and the association rate).
    for p in [&forfeit.black_account, &forfeit.white_account] {
        let r = rating(&server, p).await;
        assert_eq!((r.rated, r.games), (false, 0), "{p}: {r:?}");
    }

    // White applies for a grade with the game as evidence: a win. (Placings count only for events
    // the association classifies; their revision is tested in the ranking service's certification
    // test.)
    let white_token = server.token(&white, "player");
    let apply = pb::ApplyForRankRequest {
        request_id: "apply-1".into(),
        requested_grade: "1k".into(),
        game_ids: vec![played.game_id.clone()],
        ..Default::default()
    };
    let case = rc.apply_for_rank(request(apply, &white_token)).await.unwrap().into_inner();
    assert!(case.evidence[0].contains("Win"), "{:?}", case.evidence);
    assert!(case.checked);
    // Black applies too, with the same game (a loss) and a justification; two reviewers approve it
    // against the check (four eyes) and the certificate is issued.
    let black_token = server.token(&black, "player");
    let apply = pb::ApplyForRankRequest {
        request_id: "apply-2".into(),
        requested_grade: "1k".into(),
        game_ids: vec![played.game_id.clone()],
        ..Default::default()
    };
    let issued = rc.apply_for_rank(request(apply, &black_token)).await.unwrap().into_inner();
    let (rev1, rev2) = (server.token("rev1", "reviewer"), server.token("rev2", "reviewer"));
    let assign = pb::AssignReviewerRequest {
        request_id: "assign".into(),
        case_id: issued.case_id.clone(),
        ..Default::default()
    };
    rc.assign_reviewer(request(assign, &rev1)).await.unwrap();
    let decide = |id: &str| pb::DecideCaseRequest {
        request_id: id.into(),
        case_id: issued.case_id.clone(),
        approve: true,
        reasons: vec![],
        override_reason: "board decision: honorary grade for long service to the club".into(),
    };
    rc.decide_case(request(decide("propose"), &rev1)).await.unwrap();
    let confirmed = rc.decide_case(request(decide("confirm"), &rev2)).await.unwrap().into_inner();
    assert_eq!(confirmed.status, pb::case_view::Status::Issued as i32, "{confirmed:?}");
    let h9_before = export_h9(&mut tc, &organiser).await;

    // The referee finds the result was recorded the wrong way round: Black won by resignation.
    record(&mut tc, &organiser, played.table, O::BlackWins, R::Resignation, true).await;

    // The game record follows.
    eventually("table 1's record B+R", || sgf(played.game_id.clone())("B+R")).await;
    // The ratings follow: the game is re-rated (not counted twice).
    let after = eventually("table 1 re-rated", || {
        let (server, black, white) = (&server, black.clone(), white.clone());
        async move {
            let (b, w) = (rating(server, &black).await, rating(server, &white).await);
            (b.rating > seeds.0).then_some((b, w))
        }
    })
    .await;
    assert_eq!((after.0.games, after.1.games), (1, 1), "re-rated, not counted twice: {after:?}");
    assert!(after.1.rating < seeds.1, "the loser lost: {seeds:?} → {before:?} → {after:?}");
    // The standings follow.
    let standings = eventually("the standings corrected", || {
        let (mut tc, organiser, black, white) = (tc.clone(), organiser.clone(), black.clone(), white.clone());
        async move {
            let r = pb::GetTournamentStandingsRequest { tournament_id: T.into(), offset: 0, limit: 0, min_sequence: 0 };
            let s = tc.get_standings(request(r, &organiser)).await.ok()?.into_inner();
            let wins = |account: &str| s.rows.iter().find(|r| r.account_id == account).map(|r| r.wins);
            (wins(&black) == Some(1) && wins(&white) == Some(0)).then_some(s)
        }
    })
    .await;
    assert_eq!(standings.rows.len(), 4);
    // The .h9 follows.
    let h9_after = export_h9(&mut tc, &organiser).await;
    let round_1 = |h9: &str, player: u32| {
        let line = h9.lines().find(|l| l.starts_with(&format!("{player:>4} "))).unwrap_or_else(|| panic!("{h9}"));
        line.split_whitespace().last().unwrap().to_owned()
    };
    let (b, w) = (played.black, played.white);
    assert_eq!((round_1(&h9_before, b), round_1(&h9_before, w)), (format!("{w}-/b"), format!("{b}+/w")), "{h9_before}");
    assert_eq!((round_1(&h9_after, b), round_1(&h9_after, w)), (format!("{w}+/b"), format!("{b}-/w")), "{h9_after}");
    // The case shows the change, and its check ran again on the loss.
    let gc = RankingServiceClient::connect(format!("http://{}", server.grpc)).await.unwrap();
    let revised = eventually("the case revised", || {
        let mut gc = gc.clone();
        let (white_token, case) = (white_token.clone(), case.case_id.clone());
        async move {
            let c = gc.get_case(request(pb::GetCaseRequest { case_id: case }, &white_token)).await.ok()?.into_inner();
            (!c.revisions.is_empty()).then_some(c)
        }
    })
    .await;
    assert!(revised.evidence[0].contains("Loss"), "{:?}", revised.evidence);
    let change = revised.revisions.iter().find(|r| r.kind == "game").unwrap();
    assert_eq!(
        (change.game_id.as_str(), change.before.as_str(), change.after.as_str()),
        (played.game_id.as_str(), "win", "loss")
    );

    assert!(!change.after_decision && !revised.flagged);
    assert!(revised.checked, "the check ran again");
    // The issued certificate's evidence changed: the decision stands, and the office is told (the case
    // is flagged and back in the queue) until a reviewer keeps it with a note.
    let flagged = eventually("the issued case flagged", || {
        let mut gc = gc.clone();
        let (rev1, case) = (rev1.clone(), issued.case_id.clone());
        async move {
            let c = gc.get_case(request(pb::GetCaseRequest { case_id: case }, &rev1)).await.ok()?.into_inner();
            c.flagged.then_some(c)
        }
    })
    .await;
    assert_eq!(flagged.status, pb::case_view::Status::Issued as i32);
    assert_eq!((flagged.revisions[0].before.as_str(), flagged.revisions[0].after.as_str()), ("loss", "win"));
    assert!(flagged.revisions[0].after_decision);
    let queue = |token: String| {
        let mut gc = gc.clone();
        async move {
            let q = gc.review_queue(request(pb::ReviewQueueRequest { all: false }, &token)).await.unwrap().into_inner();
            q.cases.iter().map(|c| c.case_id.clone()).collect::<Vec<_>>()
        }
    };
    assert!(queue(rev2.clone()).await.contains(&issued.case_id), "the office's queue has it");

    // The second reviewer reads it on a phone, in Chinese, and keeps the decision with a note.
    if let Some(driver) = common::driver().await {
        let page = common::signed_in(&driver, &server.base, weiqi_browser::Viewport::PHONE, "zh-CN", "rev2").await;
        page.open(&server.base, &format!("/office/cases/{}", issued.case_id)).await;
        page.wait_for("the flag", "return !!document.querySelector('#revisions [data-flag]')").await;
        let line = page.js("return document.querySelector('[data-revision]').textContent", vec![]).await;
        assert!(line.as_str().unwrap().contains("负 → 胜"), "{line}");
        page.screenshot(&common::screenshots().join("case-evidence-corrected-phone-zh-CN.png")).await;
        page.js(
            "document.querySelector('#revisions textarea[name=note]').value = '定段依据为理事会决定，与该局胜负无关'; \
             document.querySelector('[data-action=acknowledge]').click()",
            vec![],
        )
        .await;
        page.wait_for(
            "the decision kept",
            "return !document.querySelector('#revisions [data-flag]') && !!document.querySelector('.notice')",
        )
        .await;
    } else {
        let ack = pb::AcknowledgeRevisionsRequest {
            request_id: "ack".into(),
            case_id: issued.case_id.clone(),
            note: "定段依据为理事会决定，与该局胜负无关".into(),
        };
        rc.acknowledge_revisions(request(ack, &rev2)).await.unwrap();
    }
    assert!(!queue(rev2.clone()).await.contains(&issued.case_id), "kept, it leaves the queue");
}

async fn export_h9(tc: &mut TournamentServiceClient<tonic::transport::Channel>, organiser: &str) -> String {
    let r = pb::ExportTournamentRequest {
        tournament_id: T.into(),
        kind: pb::export_tournament_request::Kind::H9 as i32,
        ..Default::default()
    };
    tc.export(request(r, organiser)).await.unwrap().into_inner().content
}
