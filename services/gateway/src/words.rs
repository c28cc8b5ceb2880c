//! What people read about a game, in Simplified Chinese and English: the result in words ("Black wins by
//! resignation" / "黑中盘胜"), the referee's byo-yomi calls ("10 seconds" / "10秒"), and the time system
//! ("60 min + 5 × 30 s byo-yomi" / "基本用时60分钟，读秒30秒5次"), with the Go terms in their usual
//! Chinese (黑, 白, 中盘胜, 超时, 读秒, 目, 子).

use weiqi_clock::{Call, DurationMs, TimeSystem};
use weiqi_game::domain::{EndReason, GameResult, Outcome};
use weiqi_rules::{Color, Scoring};

/// A language the platform speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Lang {
    /// Simplified Chinese (zh-CN): most players read it.
    #[default]
    ZhCn,
    /// English.
    En,
}

impl Lang {
    /// The language tag (`zh-CN`, `en`).
    pub fn tag(self) -> &'static str {
        match self {
            Lang::ZhCn => "zh-CN",
            Lang::En => "en",
        }
    }

    /// A language from a tag or an `Accept-Language` header (the first of ours it names, by order of
    /// appearance; Chinese by default).
    pub fn negotiate(header: &str) -> Lang {
        for part in header.split(',') {
            let tag = part.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
            if tag.starts_with("zh") {
                return Lang::ZhCn;
            }
            if tag.starts_with("en") {
                return Lang::En;
            }
        }
        Lang::ZhCn
    }
}

fn side(lang: Lang, c: Color) -> &'static str {
    match (lang, c) {
        (Lang::En, Color::Black) => "Black",
        (Lang::En, Color::White) => "White",
        (Lang::ZhCn, Color::Black) => "黑",
        (Lang::ZhCn, Color::White) => "白",
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
        return match (lang, r.outcome, r.reason) {
            (Lang::En, Outcome::Draw, _) => "Drawn".into(),
            (Lang::ZhCn, Outcome::Draw, _) => "和棋".into(),
            (Lang::En, Outcome::BothLose, EndReason::Lateness) => "Both lose: both were late beyond the limit".into(),
            (Lang::ZhCn, Outcome::BothLose, EndReason::Lateness) => "双方迟到超时，均判负".into(),
            (Lang::En, Outcome::BothLose, _) => "Both lose".into(),
            (Lang::ZhCn, Outcome::BothLose, _) => "双方均判负".into(),
            (Lang::En, Outcome::NoResult, EndReason::Cycle) => "No result: the position repeated".into(),
            (Lang::ZhCn, Outcome::NoResult, EndReason::Cycle) => "循环劫，无胜负".into(),
            (Lang::En, Outcome::NoResult, _) => "No result".into(),
            (Lang::ZhCn, Outcome::NoResult, _) => "无胜负".into(),
            (Lang::En, _, _) => "To be replayed".into(),
            (Lang::ZhCn, _, _) => "重赛".into(),
        };
    };
    let (w, l) = (side(lang, winner), side(lang, winner.opponent()));
    match (lang, r.reason) {
        (Lang::En, EndReason::Resignation) => format!("{w} wins by resignation"),
        (Lang::ZhCn, EndReason::Resignation) => format!("{w}中盘胜"),
        (Lang::En, EndReason::Time) => format!("{w} wins on time"),
        (Lang::ZhCn, EndReason::Time) => format!("{w}超时胜"),
        (Lang::En, EndReason::Forfeit) => format!("{w} wins by forfeit"),
        (Lang::ZhCn, EndReason::Forfeit) => format!("{w}不战胜"),
        (Lang::En, EndReason::Warnings) => format!("{w} wins: a second warning for {l}"),
        (Lang::ZhCn, EndReason::Warnings) => format!("{l}两次警告判负，{w}胜"),
        (Lang::En, EndReason::Referee) => format!("{w} wins by the referee's decision"),
        (Lang::ZhCn, EndReason::Referee) => format!("裁判判{w}胜"),
        (Lang::En, EndReason::Lateness) => format!("{w} wins: {l} was late beyond the limit"),
        (Lang::ZhCn, EndReason::Lateness) => format!("{l}迟到判负，{w}胜"),
        (Lang::En, EndReason::Cycle) => format!("{w} wins by the cycle ruling"),
        (Lang::ZhCn, EndReason::Cycle) => format!("循环劫判{w}胜"),
        (_, EndReason::Score) => {
            let Some(score) = &r.score else {
                return match lang {
                    Lang::En => format!("{w} wins on the count"),
                    Lang::ZhCn => format!("{w}胜"),
                };
            };
            let margin = score.result.margin.0.unsigned_abs();
            match (lang, score.scoring, margin) {
                (Lang::En, _, 0) => format!("{w} wins the tie"),
                (Lang::ZhCn, _, 0) => format!("{w}胜（和局归{w}）"),
                (Lang::En, Scoring::Territory, m) => format!("{w} wins by {} points", points(m)),
                (Lang::ZhCn, Scoring::Territory, m) => format!("{w}胜{}目", points(m)),
                (Lang::En, _, m) => format!("{w} wins by {} points ({} stones)", points(m), stones(m)),
                (Lang::ZhCn, _, m) => format!("{w}胜{}子", stones(m)),
            }
        }
    }
}

/// A referee's byo-yomi call as it is said: "10秒", "1分钟，还剩3次", "7", "时间到".
pub fn call(lang: Lang, c: Call) -> String {
    match (lang, c) {
        (Lang::En, Call::Seconds(s)) => format!("{s} seconds"),
        (Lang::ZhCn, Call::Seconds(s)) => format!("{s}秒"),
        (Lang::En, Call::PeriodUsed { periods_left }) => format!("one period used, {periods_left} left"),
        (Lang::ZhCn, Call::PeriodUsed { periods_left }) => format!("用掉一次，还剩{periods_left}次"),
        (_, Call::Count(n)) => n.to_string(),
        (Lang::En, Call::TimeUp { .. }) => "time is up".into(),
        (Lang::ZhCn, Call::TimeUp { .. }) => "时间到".into(),
    }
}

/// A duration as people write it: "1 h 30 min", "45 s"; "1小时30分", "45秒".
fn duration(lang: Lang, d: DurationMs) -> String {
    let total = d.as_millis().max(0) / 1000;
    let (h, m, s) = (total / 3600, total / 60 % 60, total % 60);
    let parts: Vec<String> = [(h, "h", "小时"), (m, "min", "分"), (s, "s", "秒")]
        .into_iter()
        .filter(|(n, _, _)| *n > 0)
        .map(|(n, en, zh)| match lang {
            Lang::En => format!("{n} {en}"),
            Lang::ZhCn => format!("{n}{zh}"),
        })
        .collect();
    if parts.is_empty() {
        return match lang {
            Lang::En => "0 s".into(),
            Lang::ZhCn => "0秒".into(),
        };
    }
    match lang {
        Lang::En => parts.join(" "),
        Lang::ZhCn => parts.concat(),
    }
}

/// The time system with its figures.
pub fn time_system(lang: Lang, t: &TimeSystem) -> String {
    let d = |x| duration(lang, x);
    // Fast games without basic time are named by their overtime alone.
    match (lang, *t) {
        (Lang::En, TimeSystem::JapaneseByoYomi { main, periods, period }) if main.is_zero() => {
            return format!("{periods} × {} byo-yomi", d(period));
        }
        (Lang::ZhCn, TimeSystem::JapaneseByoYomi { main, periods, period }) if main.is_zero() => {
            return format!("读秒{}{periods}次", d(period));
        }
        (Lang::En, TimeSystem::Canadian { main, moves, period }) if main.is_zero() => {
            return format!("Canadian {moves} moves in {}", d(period));
        }
        (Lang::ZhCn, TimeSystem::Canadian { main, moves, period }) if main.is_zero() => {
            return format!("加拿大读秒{}{moves}步", d(period));
        }
        _ => {}
    }
    match (lang, *t) {
        (Lang::En, TimeSystem::NoClock) => "no clock".into(),
        (Lang::ZhCn, TimeSystem::NoClock) => "不计时".into(),
        (Lang::En, TimeSystem::Absolute { main }) => format!("{} absolute", d(main)),
        (Lang::ZhCn, TimeSystem::Absolute { main }) => format!("包干{}", d(main)),
        (Lang::En, TimeSystem::ChineseByoYomi { basic, reserved_minutes }) => {
            format!("{}, of which {reserved_minutes} min byo-yomi", d(basic))
        }
        (Lang::ZhCn, TimeSystem::ChineseByoYomi { basic, reserved_minutes }) => {
            format!("基本用时{}，留{reserved_minutes}分钟读秒", d(basic))
        }
        (Lang::En, TimeSystem::JapaneseByoYomi { main, periods, period }) => {
            format!("{} + {periods} × {} byo-yomi", d(main), d(period))
        }
        (Lang::ZhCn, TimeSystem::JapaneseByoYomi { main, periods, period }) => {
            format!("基本用时{}，读秒{}{periods}次", d(main), d(period))
        }
        (Lang::En, TimeSystem::MovesPerPeriod { main, moves, period }) => {
            format!("{} + {moves} moves per {}", d(main), d(period))
        }
        (Lang::ZhCn, TimeSystem::MovesPerPeriod { main, moves, period }) => {
            format!("基本用时{}，之后每{}{moves}步", d(main), d(period))
        }
        (Lang::En, TimeSystem::Canadian { main, moves, period }) => {
            format!("{} + Canadian {moves} moves in {}", d(main), d(period))
        }
        (Lang::ZhCn, TimeSystem::Canadian { main, moves, period }) => {
            format!("基本用时{}，加拿大读秒{}{moves}步", d(main), d(period))
        }
        (Lang::En, TimeSystem::Fischer { initial, increment, .. }) => {
            format!("{} + {} per move (Fischer)", d(initial), d(increment))
        }
        (Lang::ZhCn, TimeSystem::Fischer { initial, increment, .. }) => {
            format!("基本用时{}，每步加{}（费舍尔）", d(initial), d(increment))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use weiqi_game::domain::{EndReason, GameResult, Outcome};

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
pub fn refusal(lang: Lang, r: Refusal) -> &'static str {
    match (lang, r) {
        (Lang::ZhCn, Refusal::Token) => "登录已失效或令牌无效，请重新登录。",
        (Lang::En, Refusal::Token) => "The sign-in has expired or the token is not valid: sign in again.",
        (Lang::ZhCn, Refusal::TooMany) => "来自此地址的请求过多，请稍后再试。",
        (Lang::En, Refusal::TooMany) => "Too many requests from this address: try again shortly.",
        (Lang::ZhCn, Refusal::NoSuchGame) => "没有这盘对局。",
        (Lang::En, Refusal::NoSuchGame) => "There is no such game.",
        (Lang::ZhCn, Refusal::BadId) => "对局编号无效。",
        (Lang::En, Refusal::BadId) => "That is not a game id.",
        (Lang::ZhCn, Refusal::NotFinished) => "对局尚未结束：登录后可下载进行中对局的棋谱。",
        (Lang::En, Refusal::NotFinished) => {
            "The game is not over yet: sign in to download the record of a game in play."
        }
        (Lang::ZhCn, Refusal::Unavailable) => "服务器暂时无法读取对局，请稍后再试。",
        (Lang::En, Refusal::Unavailable) => "The server cannot read the game just now: try again shortly.",
    }
}
