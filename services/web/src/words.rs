//! What people read about a game, in the page's language, from the Fluent catalogues
//! (`locales/*/web.ftl`, the `words-`, `call-`, `duration-` and `time-words-` messages): the result in
//! words ("Black wins by resignation" / "黑中盘胜"), the referee's byo-yomi calls ("10 seconds" /
//! "10秒"), and the time system ("1 h + 5 × 30 s byo-yomi" / "基本用时1小时，读秒30秒5次"), with the
//! Go terms in their usual Chinese (黑, 白, 中盘胜, 超时, 读秒, 目, 子). Shared by the game page, the
//! lobby and the broadcast overlay.

use weiqi_clock::{Call, DurationMs, TimeSystem};
use weiqi_game::domain::{EndReason, GameResult, Outcome};
use weiqi_rules::{Color, Scoring};

pub use crate::i18n::Lang;
use crate::i18n::{t, ta};

fn side(lang: Lang, c: Color) -> String {
    match c {
        Color::Black => t(lang, "words-black"),
        Color::White => t(lang, "words-white"),
    }
}

/// Half points as points: 7 → "3.5".
fn points(halves: u32) -> String {
    if halves.is_multiple_of(2) { format!("{}", halves / 2) } else { format!("{}.5", halves / 2) }
}

/// Half points as Chinese stones (one stone = two points): 3 → "¾", 6 → "1½".
fn stones(halves: u32) -> String {
    let whole = halves / 4;
    let frac = ["", "¼", "½", "¾"][(halves % 4) as usize];
    if whole == 0 { frac.to_string() } else { format!("{whole}{frac}") }
}

/// The result in words: "Black wins by resignation", "黑中盘胜", "White wins by 3.5 points", "白胜3½子".
pub fn result(lang: Lang, r: &GameResult) -> String {
    let Some(winner) = r.outcome.winner() else {
        let key = match (r.outcome, r.reason) {
            (Outcome::Draw, _) => "words-draw",
            (Outcome::BothLose, EndReason::Lateness) => "words-both-lose-late",
            (Outcome::BothLose, _) => "words-both-lose",
            (Outcome::NoResult, EndReason::Cycle) => "words-no-result-cycle",
            (Outcome::NoResult, _) => "words-no-result",
            _ => "words-replay",
        };
        return t(lang, key);
    };
    let mut args = vec![("w", side(lang, winner)), ("l", side(lang, winner.opponent()))];
    let key = match r.reason {
        EndReason::Resignation => "words-win-resignation",
        EndReason::Time => "words-win-time",
        EndReason::Forfeit => "words-win-forfeit",
        EndReason::Warnings => "words-win-warnings",
        EndReason::Referee => "words-win-referee",
        EndReason::Lateness => "words-win-lateness",
        EndReason::Cycle => "words-win-cycle",
        EndReason::Score => match &r.score {
            None => "words-win-count",
            Some(score) => match (score.scoring, score.result.margin.0.unsigned_abs()) {
                (_, 0) => "words-win-tie",
                (Scoring::Territory, m) => {
                    args.push(("points", points(m)));
                    "words-win-points"
                }
                (_, m) => {
                    args.push(("points", points(m)));
                    args.push(("stones", stones(m)));
                    "words-win-area"
                }
            },
        },
    };
    ta(lang, key, &args)
}

/// A referee's byo-yomi call as it is said: "10秒", "用掉一次，还剩3次", "7", "时间到".
pub fn call(lang: Lang, c: Call) -> String {
    match c {
        Call::Seconds(s) => ta(lang, "call-seconds", &[("n", s.to_string())]),
        Call::PeriodUsed { periods_left } => ta(lang, "call-period-used", &[("n", periods_left.to_string())]),
        Call::Count(n) => n.to_string(),
        Call::TimeUp { .. } => t(lang, "call-time-up"),
    }
}

/// A duration as people write it: "1 h 30 min", "45 s"; "1小时30分", "45秒".
fn duration(lang: Lang, d: DurationMs) -> String {
    let total = d.as_millis().max(0) / 1000;
    let (h, m, s) = (total / 3600, total / 60 % 60, total % 60);
    let parts: Vec<String> = [(h, "duration-h"), (m, "duration-min"), (s, "duration-s")]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, key)| ta(lang, key, &[("n", n.to_string())]))
        .collect();
    if parts.is_empty() {
        return ta(lang, "duration-s", &[("n", "0".into())]);
    }
    parts.join(&t(lang, "duration-join"))
}

/// A game's note (a ruling, a turn of play; [`weiqi_game::domain::Note`]) in the reader's words.
pub fn note(lang: Lang, size: u8, n: &weiqi_game::domain::Note) -> String {
    use weiqi_game::domain::NoteKind as K;
    let mut text = match &n.kind {
        K::Warning { color, count } => {
            ta(lang, "note-warning", &[("side", side(lang, *color)), ("count", count.to_string())])
        }
        K::Paused => t(lang, "note-paused"),
        K::Resumed => t(lang, "note-resumed"),
        K::Voided { color, number, mv, ground, refused } => {
            let vertex = match mv {
                weiqi_rules::Move::Play(p) => p.to_gtp(size),
                weiqi_rules::Move::Pass => t(lang, "pass"),
            };
            let article =
                ground.article().map(|a| ta(lang, "note-article", &[("article", a.to_string())])).unwrap_or_default();
            let args = [
                ("side", side(lang, *color)),
                ("number", number.to_string()),
                ("vertex", vertex),
                ("article", article),
            ];
            let what = ta(lang, if *refused { "note-refused" } else { "note-voided" }, &args);
            let then = if ground.forfeits() {
                ta(lang, "note-forfeits", &[("side", side(lang, *color))])
            } else {
                ta(lang, "note-next", &[("side", side(lang, color.opponent()))])
            };
            format!("{what} {then}")
        }
        K::Disputed { by } => ta(lang, "note-disputed", &[("side", side(lang, *by))]),
        K::PlayResumed { first } => ta(lang, "note-play-resumed", &[("side", side(lang, *first))]),
        K::ClockCorrected => t(lang, "note-clock-corrected"),
        K::ColorsSwapped => t(lang, "note-colors-swapped"),
    };
    if !n.reason.is_empty() {
        text.push(' ');
        text.push_str(&ta(lang, "note-reason", &[("reason", n.reason.clone())]));
    }
    text
}

/// The time system with its figures.
pub fn time_system(lang: Lang, t: &TimeSystem) -> String {
    let d = |x| duration(lang, x);
    let say = |key: &str, args: &[(&'static str, String)]| ta(lang, key, args);
    match *t {
        TimeSystem::NoClock => say("time-words-none", &[]),
        TimeSystem::Absolute { main } => say("time-words-absolute", &[("main", d(main))]),
        TimeSystem::ChineseByoYomi { basic, reserved_minutes } => {
            say("time-words-chinese", &[("main", d(basic)), ("n", reserved_minutes.to_string())])
        }
        // Fast games without basic time are named by their overtime alone.
        TimeSystem::JapaneseByoYomi { main, periods, period } if main.is_zero() => {
            say("time-words-japanese-only", &[("n", periods.to_string()), ("period", d(period))])
        }
        TimeSystem::JapaneseByoYomi { main, periods, period } => {
            say("time-words-japanese", &[("main", d(main)), ("n", periods.to_string()), ("period", d(period))])
        }
        TimeSystem::MovesPerPeriod { main, moves, period } => {
            say("time-words-moves", &[("main", d(main)), ("n", moves.to_string()), ("period", d(period))])
        }
        TimeSystem::Canadian { main, moves, period } if main.is_zero() => {
            say("time-words-canadian-only", &[("n", moves.to_string()), ("period", d(period))])
        }
        TimeSystem::Canadian { main, moves, period } => {
            say("time-words-canadian", &[("main", d(main)), ("n", moves.to_string()), ("period", d(period))])
        }
        TimeSystem::Fischer { initial, increment, .. } => {
            say("time-words-fischer", &[("main", d(initial)), ("period", d(increment))])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(outcome: Outcome, reason: EndReason) -> GameResult {
        GameResult { outcome, reason, score: None }
    }

    #[test]
    fn results_read_as_words_in_both_languages() {
        let resigned = r(Outcome::BlackWins, EndReason::Resignation);
        assert_eq!(result(Lang::En, &resigned), "Black wins by resignation");
        assert_eq!(result(Lang::ZhCn, &resigned), "黑中盘胜");
        let time = r(Outcome::WhiteWins, EndReason::Time);
        assert_eq!(
            (result(Lang::En, &time).as_str(), result(Lang::ZhCn, &time).as_str()),
            ("White wins on time", "白超时胜")
        );
        assert_eq!(result(Lang::ZhCn, &r(Outcome::BothLose, EndReason::Lateness)), "双方迟到超时，均判负");
        let mut g = weiqi_rules::Game::new(9, weiqi_rules::Ruleset::chinese()).unwrap();
        g.play(Color::Black, weiqi_rules::Move::Pass).unwrap();
        let score = weiqi_rules::score(&g, &[], [0, 0]).unwrap();
        let counted = GameResult { outcome: Outcome::WhiteWins, reason: EndReason::Score, score: Some(score) };
        assert_eq!(result(Lang::En, &counted), "White wins by 7.5 points (3¾ stones)");
        assert_eq!(result(Lang::ZhCn, &counted), "白胜3¾子");
    }

    #[test]
    fn calls_and_time_systems_are_said_as_a_referee_says_them() {
        assert_eq!(call(Lang::ZhCn, Call::Seconds(30)), "30秒");
        assert_eq!(call(Lang::En, Call::PeriodUsed { periods_left: 2 }), "one period used, 2 left");
        assert_eq!(call(Lang::ZhCn, Call::TimeUp { count: 10 }), "时间到");
        let t = TimeSystem::JapaneseByoYomi {
            main: DurationMs::from_hours(1),
            periods: 5,
            period: DurationMs::from_secs(30),
        };
        assert_eq!(time_system(Lang::En, &t), "1 h + 5 × 30 s byo-yomi");
        assert_eq!(time_system(Lang::ZhCn, &t), "基本用时1小时，读秒30秒5次");
        let fast =
            TimeSystem::JapaneseByoYomi { main: DurationMs::ZERO, periods: 3, period: DurationMs::from_secs(30) };
        assert_eq!(time_system(Lang::ZhCn, &fast), "读秒30秒3次");
        assert_eq!(Lang::negotiate("en-GB,en;q=0.9,zh-CN;q=0.8"), Lang::En);
        assert_eq!(Lang::negotiate("zh-TW,en;q=0.5"), Lang::ZhCn);
        assert_eq!(Lang::negotiate(""), Lang::ZhCn);
    }
}

/// Why a public route (overlay, event stream, SGF record) refuses a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The token given does not verify (expired, revoked, a disabled account).
    Token,
    /// Too many requests from this address.
    TooMany,
    /// No such game.
    NoSuchGame,
    /// Not a game id.
    BadId,
    /// The record of an unfinished game is for signed-in viewers.
    NotFinished,
    /// The log is unreachable.
    Unavailable,
}

/// A refusal in words.
pub fn refusal(lang: Lang, r: Refusal) -> String {
    t(
        lang,
        match r {
            Refusal::Token => "public-refusal-token",
            Refusal::TooMany => "public-refusal-too-many",
            Refusal::NoSuchGame => "public-refusal-no-such-game",
            Refusal::BadId => "public-refusal-bad-id",
            Refusal::NotFinished => "public-refusal-not-finished",
            Refusal::Unavailable => "public-refusal-unavailable",
        },
    )
}

/// A spectators' delay in words: "15 minutes", "3 moves" (`15分钟`, `3手`).
pub fn delay(lang: Lang, d: weiqi_game::domain::SpectatorDelay) -> String {
    use weiqi_game::domain::SpectatorDelay;
    match d {
        SpectatorDelay::Minutes(1) => t(lang, "game-delay-minute"),
        SpectatorDelay::Moves(1) => t(lang, "game-delay-move"),
        SpectatorDelay::Minutes(n) => ta(lang, "game-delay-minutes", &[("n", n.to_string())]),
        SpectatorDelay::Moves(n) => ta(lang, "game-delay-moves", &[("n", n.to_string())]),
    }
}
