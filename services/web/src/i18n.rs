//! Every string the pages show, from the Fluent catalogues `locales/zh-CN/web.ftl` and
//! `locales/en/web.ftl` (compiled in). The Go vocabulary follows Chinese usage: 黑, 白, 提子, 读秒,
//! 数子, 贴目, 猜先, 封盘, 中盘胜. Results, byo-yomi calls and time systems in words are
//! [`crate::words`], from the same catalogues, shared with the overlay.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::LazyLock;

use fluent_templates::fluent_bundle::FluentValue;
use fluent_templates::{LanguageIdentifier, Loader};

fluent_templates::static_loader! {
    static LOCALES = {
        locales: "./locales",
        fallback_language: "en",
        // No Unicode isolation marks around arguments: they show up in copied text and in tests.
        customise: |bundle| bundle.set_use_isolating(false),
    };
}

/// The catalogues, named so that cargo rebuilds this crate when one changes: the loader above reads
/// them at compile time without telling cargo, and a catalogue edited alone left a binary with the
/// old words.
const _CATALOGUES: [&str; 2] = [include_str!("../locales/zh-CN/web.ftl"), include_str!("../locales/en/web.ftl")];

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

static ZH: LazyLock<LanguageIdentifier> = LazyLock::new(|| "zh-CN".parse().expect("a language tag"));
static EN: LazyLock<LanguageIdentifier> = LazyLock::new(|| "en".parse().expect("a language tag"));

fn id(lang: Lang) -> &'static LanguageIdentifier {
    match lang {
        Lang::ZhCn => &ZH,
        Lang::En => &EN,
    }
}

/// The message `key` in `lang`.
pub fn t(lang: Lang, key: &str) -> String {
    LOCALES.lookup(id(lang), key)
}

/// The message `key` in `lang`, if the catalogue has it.
/// A rank as the page's readers write it: `3d` is 业余3段, `12k` 12级 and `5p` 职业5段 on Chinese pages
/// (issue 30 item 4); English pages, and anything that is not a rank, show it as stored.
pub fn rank_text(lang: Lang, rank: &str) -> String {
    let r = rank.trim();
    let split = r.len().saturating_sub(1);
    let (Some(number), Some(grade)) = (r.get(..split).and_then(|n| n.parse::<u32>().ok()), r.get(split..)) else {
        return rank.to_owned();
    };
    let key = match grade {
        "d" | "D" => "rank-dan",
        "k" | "K" => "rank-kyu",
        "p" | "P" => "rank-pro",
        _ => return rank.to_owned(),
    };
    ta(lang, key, &[("n", number.to_string())])
}

/// A grade as the association writes it (issue 33 item 4): in the amateur and professional ladders
/// 业余3段, 5级, 职业9段 on Chinese pages and "3 dan (amateur)", "5 kyu", "9 dan (professional)" in
/// English; a grade of another ladder by its code, with the ladder's name.
pub fn grade_text(lang: Lang, ladder: &str, grade: &str) -> String {
    let g = grade.trim();
    if g.is_empty() || g == "unranked" {
        return t(lang, "grade-unranked");
    }
    let split = g.len().saturating_sub(1);
    let parsed = g.get(..split).and_then(|n| n.parse::<u32>().ok()).zip(g.get(split..));
    let key = match (ladder, parsed) {
        ("amateur" | "", Some((_, "d" | "D"))) => Some("grade-dan"),
        ("amateur" | "", Some((_, "k" | "K"))) => Some("grade-kyu"),
        ("professional" | "amateur" | "", Some((_, "p" | "P"))) => Some("grade-pro"),
        ("professional", Some((_, "d" | "D"))) => Some("grade-pro"),
        _ => None,
    };
    match (key, parsed) {
        (Some(key), Some((n, _))) => ta(lang, key, &[("n", n.to_string())]),
        _ => {
            let name = try_t(lang, &format!("ladder-{ladder}")).unwrap_or_else(|| ladder.to_string());
            if name.is_empty() { grade.to_owned() } else { format!("{grade} ({name})") }
        }
    }
}

/// A certificate's basis line in the page's words. The line is signed as the office wrote it (in
/// English: `approved by review: … (proposed by A, confirmed by B)`); the page says the review's part
/// in its language and keeps the reviewer's own reason and the rule lines as written.
pub fn basis_text(lang: Lang, basis: &str) -> String {
    basis
        .split("; ")
        .map(|part| {
            let Some(rest) = part.strip_prefix("approved by review") else { return part.to_owned() };
            let rest = rest.trim_start_matches(':').trim();
            if rest.is_empty() {
                return t(lang, "basis-review");
            }
            match rest.rsplit_once(" (proposed by ").and_then(|(reason, who)| {
                let (a, b) = who.strip_suffix(')')?.split_once(", confirmed by ")?;
                Some((reason, a, b))
            }) {
                Some((reason, a, b)) => ta(
                    lang,
                    "basis-review-confirmed",
                    &[("reason", reason.to_owned()), ("proposer", a.to_owned()), ("confirmer", b.to_owned())],
                ),
                None => ta(lang, "basis-review-reason", &[("reason", rest.to_owned())]),
            }
        })
        .collect::<Vec<_>>()
        .join(if lang == Lang::ZhCn { "；" } else { "; " })
}

pub fn try_t(lang: Lang, key: &str) -> Option<String> {
    LOCALES.try_lookup(id(lang), key)
}

/// The message `key` in `lang` with arguments, if the catalogue has it and the arguments fill it
/// (looking a message with arguments up without them fails: ask with them).
pub fn try_ta(lang: Lang, key: &str, args: &[(&'static str, String)]) -> Option<String> {
    let args: HashMap<Cow<'static, str>, FluentValue> =
        args.iter().map(|(k, v)| (Cow::Borrowed(*k), FluentValue::from(v.clone()))).collect();
    LOCALES.try_lookup_with_args(id(lang), key, &args)
}

/// The message `key` in `lang` with arguments (`{ $name }` in the catalogue).
pub fn ta(lang: Lang, key: &str, args: &[(&'static str, String)]) -> String {
    let args: HashMap<Cow<'static, str>, FluentValue> =
        args.iter().map(|(k, v)| (Cow::Borrowed(*k), FluentValue::from(v.clone()))).collect();
    LOCALES.lookup_with_args(id(lang), key, &args)
}

/// The phases of a game in words (`phase-playing`…), which every page script that shows a game's
/// phase needs (the game page, the overlay) beside its own strings.
pub const PHASE_KEYS: [&str; 8] = [
    "phase-new",
    "phase-nigiri",
    "phase-ready",
    "phase-playing",
    "phase-paused",
    "phase-adjourned",
    "phase-scoring",
    "phase-ended",
];

/// The placeholders scripts fill in themselves (`{n}` in the text they receive).
const SCRIPT_ARGS: [&str; 10] = ["n", "sgf", "stones", "vertex", "seconds", "side", "time", "name", "total", "moves"];

/// The strings the page scripts need, as one JSON object (`key` → text), so scripts speak the
/// page's language from the same catalogue. A message's arguments come as `{name}` for the script
/// to replace.
pub fn script_strings(lang: Lang, keys: &[&str]) -> serde_json::Value {
    let args: HashMap<Cow<'static, str>, FluentValue> =
        SCRIPT_ARGS.iter().map(|a| (Cow::Borrowed(*a), FluentValue::from(format!("{{{a}}}")))).collect();
    serde_json::Value::Object(
        keys.iter()
            .map(|k| (k.to_string(), serde_json::Value::String(LOCALES.lookup_with_args(id(lang), k, &args))))
            .collect(),
    )
}

/// A refusal's reason in `lang`, from its stable code (`ko`, `superko`, `not_your_turn`, …), else the
/// server's own words.
pub fn refusal(lang: Lang, code: &str, fallback: &str) -> String {
    try_t(lang, &format!("refusal-{}", code.replace('_', "-")))
        .unwrap_or_else(|| if fallback.is_empty() { t(lang, "refusal-unknown") } else { fallback.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(text: &str) -> std::collections::BTreeSet<String> {
        text.lines()
            .filter(|l| l.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
            .filter_map(|l| l.split_once('=').map(|(k, _)| k.trim().to_string()))
            .collect()
    }

    /// SOSM is the sum of the opponents' McMahon scores, not the cut SOS (SOS−1, 去尾对手分, a
    /// different tie-break): the names say what is counted (issue 30 item 7).
    /// Grades as the association writes them (issue 33 item 4).
    #[test]
    fn grades_read_as_the_association_writes_them() {
        assert_eq!(grade_text(Lang::ZhCn, "amateur", "1d"), "业余1段");
        assert_eq!(grade_text(Lang::ZhCn, "amateur", "2k"), "2级");
        assert_eq!(grade_text(Lang::ZhCn, "professional", "9p"), "职业9段");
        assert_eq!(grade_text(Lang::En, "amateur", "1d"), "1 dan (amateur)");
        assert_eq!(grade_text(Lang::En, "amateur", "2k"), "2 kyu");
        assert_eq!(grade_text(Lang::En, "professional", "9p"), "9 dan (professional)");
        assert_eq!(grade_text(Lang::ZhCn, "shanghai", "A"), "A (shanghai)");
    }

    /// A certificate's signed English basis reads in the page's language (issue 33 item 4).
    #[test]
    fn a_certificates_basis_reads_in_the_pages_language() {
        let line = "approved by review: 三局全胜 (proposed by rev1, confirmed by rev2)";
        assert_eq!(basis_text(Lang::ZhCn, line), "经审核批准：三局全胜（由 rev1 提议，rev2 确认）");
        assert_eq!(basis_text(Lang::En, line), "approved by review: 三局全胜 (proposed by rev1, confirmed by rev2)");
        assert_eq!(basis_text(Lang::ZhCn, "approved by review"), "经审核批准");
        assert_eq!(basis_text(Lang::ZhCn, "approved by review: x"), "经审核批准：x");
    }

    #[test]
    fn ranks_read_as_chinese_readers_write_them() {
        assert_eq!(rank_text(Lang::ZhCn, "3d"), "业余3段");
        assert_eq!(rank_text(Lang::ZhCn, "12k"), "12级");
        assert_eq!(rank_text(Lang::ZhCn, "9p"), "职业9段");
        assert_eq!(rank_text(Lang::En, "3d"), "3d");
        for odd in ["", "d", "三段", "3x", "段", "k3"] {
            assert_eq!(rank_text(Lang::ZhCn, odd), odd);
        }
    }

    /// The criteria's names come from the pairing core's one table, not from the catalogues (issue 30
    /// item 7): SOSM is named for what it counts, not as the cut SOS (去尾对手分, SOS−1).
    #[test]
    fn mcmahon_tie_breaks_are_named_for_what_they_count() {
        use crate::pages::tournament::criterion;
        for (code, zh, en) in [("SOSM", "对手麦克马洪分", "SOSM"), ("SOSOSM", "对手的对手麦克马洪分", "SOSOSM")]
        {
            assert_eq!((criterion(Lang::ZhCn, code).as_str(), criterion(Lang::En, code).as_str()), (zh, en));
            assert!(
                !criterion(Lang::ZhCn, code).contains("去尾") && !criterion(Lang::En, code).contains('−'),
                "{code}"
            );
        }
        let both = include_str!("../locales/zh-CN/web.ftl").to_string() + include_str!("../locales/en/web.ftl");
        assert!(!both.lines().any(|l| l.starts_with("criterion-")), "no second table of criteria's names");
    }

    #[test]
    fn both_catalogues_have_every_message() {
        let zh = ids(include_str!("../locales/zh-CN/web.ftl"));
        let en = ids(include_str!("../locales/en/web.ftl"));
        let only_zh: Vec<_> = zh.difference(&en).collect();
        let only_en: Vec<_> = en.difference(&zh).collect();
        assert!(only_zh.is_empty() && only_en.is_empty(), "only in zh-CN: {only_zh:?}; only in en: {only_en:?}");
        assert!(zh.len() > 100, "{} messages", zh.len());
    }

    /// Every key the code and the scripts name is in both catalogues (else a page would show
    /// "Unknown localization key").
    #[test]
    fn every_key_used_is_in_both_catalogues() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut used = std::collections::BTreeSet::new();
        let mut files = vec![root.join("assets/game.js"), root.join("assets/watch.js")];
        for dir in ["src", "src/pages"] {
            for e in std::fs::read_dir(root.join(dir)).unwrap() {
                let p = e.unwrap().path();
                if p.extension().is_some_and(|x| x == "rs") {
                    files.push(p);
                }
            }
        }
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            for pattern in ["t(lang, \"", "ta(lang, \"", "t(viewer.lang, \"", "S[\"", "S.\""] {
                for piece in text.split(pattern).skip(1) {
                    let key: String = piece
                        .chars()
                        .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-')
                        .collect();
                    if !key.is_empty() && piece[key.len()..].starts_with('"') {
                        used.insert(key);
                    }
                }
            }
        }
        for k in crate::pages::game::SCRIPT_KEYS.iter().chain(crate::overlay::SCRIPT_KEYS).chain(&PHASE_KEYS) {
            used.insert(k.to_string());
        }
        for r in weiqi_edge::auth::Role::ALL {
            used.insert(format!("role-{}", r.name().replace('_', "-")));
        }
        for r in weiqi_rules::PRESET_NAMES {
            used.insert(format!("rules-{r}"));
        }
        for c in crate::challenges::TimeChoice::ALL {
            used.insert(format!("time-{}", c.key()));
        }
        for v in ["disable", "enable", "grant", "revoke"] {
            used.insert(format!("admin-done-{v}"));
        }
        // Keys the desks make from a name.
        for f in crate::pages::desk::FORMATS {
            used.insert(format!("format-{f}"));
        }
        for f in [
            "rounds",
            "top_bar",
            "bottom_bar",
            "losses",
            "cycles",
            "wins_needed",
            "games",
            "groups",
            "advance",
            "boards",
            "size",
            "main",
            "periods",
            "period",
            "no_show",
            "spectator_delay",
        ] {
            used.insert(format!("desk-field-{f}"));
        }
        for v in [
            "created", "register", "imported", "start", "pair", "forbid", "fix", "bye", "result", "withdraw",
            "publish", "team", "line-up",
        ] {
            used.insert(format!("desk-done-{v}"));
        }
        used.insert("result-draft".to_string());
        for v in ["assign", "decide", "revoke"] {
            used.insert(format!("office-done-{v}"));
        }
        for s in ["open", "awaiting-confirmation", "approved", "rejected", "issued", "revoked", "unspecified"] {
            used.insert(format!("case-status-{s}"));
        }
        for a in ["player", "organiser"] {
            used.insert(format!("case-applicant-{a}"));
        }
        for why in ["same-player", "rated", "certified", "has-account", "kept-merged"] {
            used.insert(format!("refusal-cannot-merge-{why}"));
        }
        for c in ["black", "white"] {
            used.insert(format!("stats-as-{c}"));
        }
        for r in ["count", "resignation", "time", "forfeit", "illegal-move", "unknown", "draw", "void"] {
            used.insert(format!("stats-reason-{r}"));
        }
        for b in crate::pages::players::BANDS {
            used.insert(format!("band-{b}"));
        }
        for c in ["revoked", "bad-signature", "wrong-key", "wrong-association", "malformed-certificate"] {
            used.insert(format!("verify-{c}"));
        }
        for k in [
            "import-unreadable",
            "import-unknown-column",
            "import-no-account-column",
            "import-no-account",
            "import-bad-account",
            "import-duplicate",
            "import-bad-rank",
            "import-bad-pin",
            "import-no-name",
            "import-empty",
        ] {
            used.insert(k.to_string());
        }
        let names = [
            "into",
            "delay",
            "total",
            "moves",
            "side",
            "count",
            "number",
            "article",
            "n",
            "sgf",
            "stones",
            "vertex",
            "seconds",
            "reason",
            "name",
            "date",
            "field",
            "min",
            "max",
            "by",
            "to",
            "tournament",
            "round",
            "board",
            "ms",
            "size",
            "rules",
            "handicap",
            "komi",
            "time",
            "color",
            "kb",
            "line",
            "done",
            "id",
            "status",
            "who",
            "opponent",
            "rating",
            "games",
            "system",
            "sequence",
            "account",
            "pin",
            "rank",
            "column",
            "rounds",
            "byes",
            "players",
            "date",
            "seeded",
            "kept",
            "missing",
            "matched",
            "left",
            "rated",
            "encoding",
            "before",
            "after",
            "value",
            "player",
            "table",
            "result",
            "event",
            "place",
            "wins",
            "a",
            "b",
            "c",
            "d",
            "x",
            "y",
            "cost",
            "scale",
            "unit",
            "sa",
            "sb",
            "diff",
            "seeding",
            "separation",
            "colors",
            "criterion",
            "swapped",
            "chosen",
            "groups",
            "swappedcost",
            "chosencost",
            "top",
            "bottom",
            "losses",
            "cycles",
            "advance",
            "boards",
            "group",
            "rule",
            "w",
            "l",
            "points",
            "main",
            "period",
            "start",
            "end",
            "clubs",
            "class",
            "basic",
            "adjusted",
            "minutes",
            "why",
            "grade",
            "slots",
            "percent",
            "eligible",
            "threshold",
            "needed",
            "from_games",
            "from_places",
            "deviation",
            "allowed",
            "wanted",
            "game",
        ];
        let args: HashMap<Cow<'static, str>, FluentValue> =
            names.iter().map(|a| (Cow::Borrowed(*a), FluentValue::from("x"))).collect();
        let exists = |lang, k: &str| LOCALES.try_lookup_with_args(id(lang), k, &args).is_some();
        used.retain(|k| !k.ends_with('-'));
        let missing: Vec<_> = used.iter().filter(|k| !exists(Lang::En, k) || !exists(Lang::ZhCn, k)).collect();
        assert!(missing.is_empty(), "keys missing from a catalogue: {missing:?}");
        assert!(used.len() > 150, "{} keys found: the scan is broken", used.len());
    }

    #[test]
    fn go_terms_are_in_their_usual_chinese() {
        assert_eq!(t(Lang::ZhCn, "black"), "黑");
        assert_eq!(t(Lang::ZhCn, "white"), "白");
        assert_eq!(t(Lang::ZhCn, "captures"), "提子");
        assert_eq!(t(Lang::ZhCn, "komi"), "贴目");
        assert_eq!(t(Lang::ZhCn, "time-chinese"), "读秒（保留分钟）");
        assert_eq!(t(Lang::ZhCn, "phase-scoring"), "数子");
        assert_eq!(t(Lang::En, "black"), "Black");
        assert_eq!(refusal(Lang::ZhCn, "ko", ""), "打劫：不能立即提回");
        assert_eq!(refusal(Lang::En, "not_your_turn", ""), "It is not your turn.");
        assert_eq!(refusal(Lang::En, "no_such_code", "the server's words"), "the server's words");
        assert_eq!(ta(Lang::En, "move-number", &[("n", "12".into())]), "Move 12");
        let s = script_strings(Lang::ZhCn, &["periods-left", "count-line"]);
        assert_eq!(s["periods-left"], "还剩{n}次");
        assert_eq!(s["count-line"], "数子：{sgf}（{stones}）");
    }
}
