//! `POST /desk/tournaments/{id}/import`: players from a CSV file or an OpenGotha tournament file,
//! previewed before anything is written.
//!
//! The file has a header row naming its columns, in English or Chinese, in any order:
//! `account` (账号, required), `name_zh` (姓名), `name_latin` (拼音), `rank` (段位), `club`
//! (俱乐部), `region` (地区), `family` (家庭: players kept apart when the event separates
//! families), `country` (国家), `egd_pin`. The first upload only reads and checks it:
//! the page shows every row with its errors (a missing account, a rank that is not a rank, an
//! account twice, a PIN that is not a number, an unknown column). An OpenGotha file (XML) gives its
//! players, each with an account made from their OpenGotha key. Only a file without errors can be
//! confirmed; confirming registers the rows in order, each with its own request id derived from the
//! preview's, so confirming twice registers nobody twice. An OpenGotha file with games also brings
//! its rounds and results: the preview says how many, and once the players are in they are
//! imported in one step (`ImportOpenGotha`), with no game played here for them.

use std::collections::BTreeSet;
use std::sync::Arc;

use axum::extract::{Multipart, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use maud::{Markup, html};
use weiqi_tournament::api::Entry;

use super::{render, staff};
use crate::Web;
use crate::i18n::{Lang, rank_text, t, ta};
use crate::pages::{
    Uploaded, acting, csrf_field, message, redirect, refused_status, refused_text, request_id, with_status,
};

/// The largest file the desk reads (a national championship's field is well under this).
pub const MAX_BYTES: usize = 512 * 1024;

/// One row of the file, with what is wrong with it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row {
    /// The line in the file (the header is line 1).
    pub line: usize,
    /// The player's account.
    pub account: String,
    /// What the tournament records of them.
    pub entry: Entry,
    /// The errors, as message keys with their arguments.
    pub errors: Vec<(&'static str, Vec<(&'static str, String)>)>,
}

/// A file read: its rows, and errors of the file as a whole.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parsed {
    /// The rows.
    pub rows: Vec<Row>,
    /// Errors of the whole file (message keys with arguments).
    pub errors: Vec<(&'static str, Vec<(&'static str, String)>)>,
    /// An OpenGotha file's rounds (rounds, games, byes), imported after its players.
    pub rounds: Option<(u32, usize, usize)>,
}

impl Parsed {
    /// Whether nothing is wrong.
    pub fn clean(&self) -> bool {
        self.errors.is_empty() && self.rows.iter().all(|r| r.errors.is_empty()) && !self.rows.is_empty()
    }
}

fn column(name: &str) -> Option<&'static str> {
    Some(match name.trim().trim_start_matches('\u{feff}').to_lowercase().as_str() {
        "account" | "account_id" | "账号" | "帐号" => "account",
        "name_zh" | "name" | "姓名" | "中文名" => "name_zh",
        "name_latin" | "latin" | "拼音" | "英文名" => "name_latin",
        "rank" | "段位" | "级位" | "等级" => "rank",
        "club" | "俱乐部" => "club",
        "region" | "地区" | "省份" => "region",
        "family" | "家庭" | "家族" => "family",
        "country" | "国家" => "country",
        "egd_pin" | "pin" => "egd_pin",
        _ => return None,
    })
}

/// Reads and checks a registration file, CSV or OpenGotha (pure: no player is registered).
pub fn parse(text: &str) -> Parsed {
    let mut parsed = if text.trim_start().starts_with('<') { read_opengotha(text) } else { read_csv(text) };
    check(&mut parsed.rows);
    if parsed.rows.is_empty() && parsed.errors.is_empty() {
        parsed.errors.push(("import-empty", vec![]));
    }
    parsed
}

/// The players of an OpenGotha file. Its players have no account here: each is given one from their
/// OpenGotha key in small letters (`LIMING` → `liming`), or `egd-<PIN>` when the key has no Latin
/// letters; the preview shows it before anything is written.
fn read_opengotha(text: &str) -> Parsed {
    let mut parsed = Parsed::default();
    match weiqi_pairing::opengotha::read_players(text) {
        Err(e) => parsed.errors.push(("import-unreadable", vec![("reason", e.to_string())])),
        Ok(players) => {
            match weiqi_pairing::opengotha::read_tournament(text) {
                Ok(file) if !file.games.is_empty() || !file.byes.is_empty() => {
                    let last = file.games.iter().map(|g| g.round).chain(file.byes.iter().map(|b| b.0)).max();
                    parsed.rounds = Some((last.unwrap_or(0), file.games.len(), file.byes.len()));
                }
                Ok(_) => {}
                Err(e) => parsed.errors.push(("import-rounds-unreadable", vec![("reason", e.to_string())])),
            }
            for (i, p) in players.into_iter().enumerate() {
                let account = p.account();
                let latin = format!("{} {}", p.name, p.first_name).trim().to_string();
                let entry = Entry {
                    name_latin: if latin.is_ascii() { latin.clone() } else { String::new() },
                    name_zh: if latin.is_ascii() { String::new() } else { latin },
                    rank: p.rank.to_lowercase(),
                    rating: p.rating,
                    club: p.club,
                    country: p.country,
                    egd_pin: p.egf_pin.unwrap_or(0),
                    ..Default::default()
                };
                parsed.rows.push(Row { line: i + 1, account, entry, errors: Vec::new() });
            }
        }
    }
    parsed
}

/// A CSV file with a header row (see the module doc).
fn read_csv(text: &str) -> Parsed {
    let mut parsed = Parsed::default();
    let mut reader = csv::ReaderBuilder::new().flexible(true).trim(csv::Trim::All).from_reader(text.as_bytes());
    let headers = match reader.headers() {
        Ok(h) => h.clone(),
        Err(e) => {
            parsed.errors.push(("import-unreadable", vec![("reason", e.to_string())]));
            return parsed;
        }
    };
    let columns: Vec<Option<&'static str>> = headers.iter().map(column).collect();
    for (h, c) in headers.iter().zip(&columns) {
        if c.is_none() {
            parsed.errors.push(("import-unknown-column", vec![("column", h.to_string())]));
        }
    }
    if !columns.contains(&Some("account")) {
        parsed.errors.push(("import-no-account-column", vec![]));
        return parsed;
    }
    for (i, record) in reader.records().enumerate() {
        let line = i + 2;
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                parsed.errors.push(("import-unreadable", vec![("reason", e.to_string())]));
                break;
            }
        };
        if record.iter().all(str::is_empty) {
            continue;
        }
        let mut row = Row { line, ..Row::default() };
        for (value, c) in record.iter().zip(&columns) {
            let s = &mut row.entry;
            match c {
                Some("account") => row.account = value.to_string(),
                Some("name_zh") => s.name_zh = value.to_string(),
                Some("name_latin") => s.name_latin = value.to_string(),
                // 3段, 12级, 业余初段 as organisers write them, kept in the one form the services read.
                Some("rank") => {
                    s.rank = value
                        .parse::<weiqi_pairing::rank::Rank>()
                        .map_or_else(|_| value.to_string(), |r| r.to_string());
                }
                Some("club") => s.club = value.to_string(),
                Some("region") => s.region = value.to_string(),
                Some("family") => s.family = value.to_string(),
                Some("country") => s.country = value.to_string(),
                Some("egd_pin") if !value.is_empty() => match value.parse::<u64>() {
                    Ok(pin) => s.egd_pin = pin,
                    Err(_) => row.errors.push(("import-bad-pin", vec![("pin", value.to_string())])),
                },
                _ => {}
            }
        }
        parsed.rows.push(row);
    }
    parsed
}

/// What is wrong with each row: no account or not an account name, an account twice, a rank that is
/// not a rank, no name.
fn check(rows: &mut [Row]) {
    let mut seen = BTreeSet::new();
    for row in rows {
        let id_ok = !row.account.is_empty()
            && row.account.len() <= 64
            && row.account.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if row.account.is_empty() {
            row.errors.push(("import-no-account", vec![]));
        } else if !id_ok {
            row.errors.push(("import-bad-account", vec![("account", row.account.clone())]));
        } else if !seen.insert(row.account.clone()) {
            row.errors.push(("import-duplicate", vec![("account", row.account.clone())]));
        }
        if !row.entry.rank.is_empty() && row.entry.rank.parse::<weiqi_pairing::rank::Rank>().is_err() {
            row.errors.push(("import-bad-rank", vec![("rank", row.entry.rank.clone())]));
        }
        if row.entry.name_zh.is_empty() && row.entry.name_latin.is_empty() {
            row.errors.push(("import-no-name", vec![]));
        }
    }
}

fn say(lang: Lang, (key, args): &(&'static str, Vec<(&'static str, String)>)) -> String {
    ta(lang, key, args)
}

/// The preview: every row with its errors, and (for a clean file) the form that registers them.
fn preview(
    lang: Lang,
    viewer: &crate::session::Viewer,
    id: &str,
    text: &str,
    parsed: &Parsed,
    encoding: &str,
) -> Markup {
    let bad = parsed.rows.iter().filter(|r| !r.errors.is_empty()).count();
    html! {
        section.card id="import-preview" data-clean=(parsed.clean()) {
            h2 { (t(lang, "import-preview")) }
            p.small data-encoding=(encoding) { (ta(lang, "import-encoding", &[("encoding", encoding.to_string())])) }
            @for e in &parsed.errors { p.error data-error="import" role="alert" { (say(lang, e)) } }
            @if bad > 0 { p.error data-error="import" role="alert" { (ta(lang, "import-rows-bad", &[("n", bad.to_string())])) } }
            div.table-wrap { table {
                thead { tr {
                    th { (t(lang, "import-line")) } th { (t(lang, "desk-field-account")) } th { (t(lang, "field-name-zh")) }
                    th { (t(lang, "field-name-latin")) } th { (t(lang, "col-rank")) } th { (t(lang, "desk-field-club")) }
                    th { (t(lang, "field-region")) } th { (t(lang, "desk-field-family")) } th { (t(lang, "import-errors")) }
                } }
                tbody { @for r in &parsed.rows {
                    tr data-line=(r.line) data-ok=(r.errors.is_empty()) {
                        td { (r.line) } td { (r.account) } td { (r.entry.name_zh) } td { (r.entry.name_latin) }
                        td { (rank_text(lang, &r.entry.rank)) } td { (r.entry.club) } td { (r.entry.region) } td { (r.entry.family) }
                        td { @for e in &r.errors { span.error { (say(lang, e)) } " " } }
                    }
                } }
            } }
            @if let Some((rounds, games, byes)) = parsed.rounds {
                p data-import-rounds=(rounds) { (ta(lang, "import-rounds", &[
                    ("rounds", rounds.to_string()), ("games", games.to_string()), ("byes", byes.to_string()),
                ])) }
            }
            @if parsed.clean() {
                form.inline method="post" action={ "/desk/tournaments/" (id) "/import" } enctype="multipart/form-data" {
                    (csrf_field(viewer))
                    input type="hidden" name="rid" value=(request_id());
                    input type="hidden" name="commit" value="on";
                    textarea hidden name="csv" { (text) }
                    button type="submit" data-action="confirm-import" { (ta(lang, "import-confirm", &[("n", parsed.rows.len().to_string())])) }
                }
            } @else {
                p.small { (t(lang, "import-fix-and-retry")) }
            }
        }
    }
}

/// `POST /desk/tournaments/{id}/import`.
pub async fn import(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    multipart: Multipart,
) -> Response {
    let upload = Uploaded::read(multipart, MAX_BYTES).await;
    let (viewer, member) = match acting(&web, &headers, Some(upload.get("csrf")), staff, "desk-only").await {
        Ok(v) => v,
        Err(refused) => return refused,
    };
    let lang = viewer.lang;
    let caller = member.caller();
    let Some(s) = web.tournaments.clone() else {
        return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "tournament-not-found"));
    };
    let commit = upload.get("commit") == "on";
    let rid: String = upload.get("rid").chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').take(64).collect();
    // The confirm form sends the checked text back; the first upload sends the file.
    let text = [upload.get("file"), upload.get("csv")].into_iter().find(|t| !t.is_empty()).map(str::to_string);
    let too_big = upload.too_big;
    if too_big {
        let why = ta(lang, "import-too-big", &[("kb", (MAX_BYTES / 1024).to_string())]);
        return with_status(
            render(&web, &viewer, &id, Some((false, why)), None, super::Shown::default()).await,
            StatusCode::PAYLOAD_TOO_LARGE,
        );
    }
    let Some(text) = text else {
        return with_status(
            render(&web, &viewer, &id, Some((false, t(lang, "import-empty"))), None, super::Shown::default()).await,
            StatusCode::BAD_REQUEST,
        );
    };
    let parsed = parse(&text);
    if !commit || !parsed.clean() {
        let status = if parsed.clean() { StatusCode::OK } else { StatusCode::BAD_REQUEST };
        let encoding = if upload.get("file").is_empty() { upload.encoding("csv") } else { upload.encoding("file") };
        let markup = preview(lang, &viewer, &id, &text, &parsed, encoding);
        return with_status(render(&web, &viewer, &id, None, Some(markup), super::Shown::default()).await, status);
    }
    let rid = if rid.is_empty() { request_id() } else { rid };
    let mut reached = 0;
    // An import interrupted (a lost connection, a restarted server) is completed by confirming it
    // again, or by uploading the file again: rows already registered are left as they are.
    let mut already = 0;
    for (done, row) in parsed.rows.iter().enumerate() {
        let entry = Some(row.entry.clone());
        let line_rid = format!("{rid}-{}", row.line);
        let e = match s.register(&caller, &id, &line_rid, &row.account, 0, entry).await {
            Ok(accepted) => {
                reached = accepted.sequence;
                continue;
            }
            Err(e) if e.code() == "account_registered" => {
                already += 1;
                continue;
            }
            Err(e) => e,
        };
        {
            let why = ta(
                lang,
                "import-stopped",
                &[("line", row.line.to_string()), ("done", done.to_string()), ("reason", refused_text(lang, &e))],
            );
            return with_status(
                render(&web, &viewer, &id, Some((false, why)), None, super::Shown::default()).await,
                refused_status(&e),
            );
        }
    }
    // An OpenGotha file's rounds and results, in one append once its players are in.
    if parsed.rounds.is_some() {
        match s.import_open_gotha(&caller, &id, &format!("{rid}-rounds"), &text, false).await {
            Ok(accepted) => reached = accepted.sequence,
            Err(e) => {
                let why = ta(lang, "import-rounds-stopped", &[("reason", refused_text(lang, &e))]);
                return with_status(
                    render(&web, &viewer, &id, Some((false, why)), None, super::Shown::default()).await,
                    refused_status(&e),
                );
            }
        }
    }
    super::settle(&web, &id, reached).await;
    let done = if already > 0 { "imported-resumed" } else { "imported" };
    redirect(&format!("/desk/tournaments/{id}?done={done}"), vec![])
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Issue 30 item 4: whatever an organiser's file holds (any UTF-8: Chinese names, 段/级 ranks,
        /// stray quotes and separators, an OpenGotha-looking start), the reader answers rows or errors
        /// and never panics, and every rank it reads shows on a Chinese page without panicking either.
        #[test]
        fn any_text_reads_without_panicking(
            header in prop::sample::select(vec!["account,name_zh,rank", "账号,姓名,段位,俱乐部", "<Tournament", ""]),
            body in "(\\PC|[,\n\"段级初业余职])*",
        ) {
            let text = format!("{header}\n{body}");
            let parsed = parse(&text);
            for row in &parsed.rows {
                let _ = crate::i18n::rank_text(crate::i18n::Lang::ZhCn, &row.entry.rank);
            }
        }
    }

    /// Excel on Chinese Windows saves CSV in GBK, and organisers write ranks as 3段 and 12级: the file
    /// is read (the encoding named), the ranks understood, and nothing panics.
    #[test]
    fn an_excel_csv_in_gbk_with_chinese_ranks_reads() {
        // "账号,姓名,段位,俱乐部\nli,李明,3段,杭州棋院\nwang,王芳,12级,上海棋院\nzhao,赵强,业余初段,北京棋院\n" in GBK.
        let text =
            "账号,姓名,段位,俱乐部\nli,李明,3段,杭州棋院\nwang,王芳,12级,上海棋院\nzhao,赵强,业余初段,北京棋院\n";
        let (gbk, _, lossy) = encoding_rs::GBK.encode(text);
        assert!(!lossy && std::str::from_utf8(&gbk).is_err(), "really GBK");
        let (read, encoding) = crate::pages::decode_upload(&gbk);
        assert_eq!((read.as_str(), encoding), (text, "GB18030"));
        let p = parse(&read);
        assert!(p.clean(), "{p:?}");
        let ranks: Vec<&str> = p.rows.iter().map(|r| r.entry.rank.as_str()).collect();
        assert_eq!(ranks, ["3d", "12k", "1d"]);
        // A UTF-8 file with a byte-order mark (Excel's "CSV UTF-8") reads too.
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend_from_slice(text.as_bytes());
        assert_eq!(crate::pages::decode_upload(&bom), (text.to_string(), "UTF-8"));
    }

    #[test]
    fn a_clean_file_reads_in_any_column_order_and_in_chinese() {
        let p = parse("段位,账号,姓名,俱乐部\n3d,li,李明,棋院\n2k,wang,王芳,\n");
        assert!(p.clean(), "{p:?}");
        assert_eq!(p.rows.len(), 2);
        assert_eq!((p.rows[0].account.as_str(), p.rows[0].entry.rank.as_str()), ("li", "3d"));
        assert_eq!(p.rows[1].line, 3);
    }

    /// Issue 30 item 11: the family a director writes (家庭) is read for the pairing's separation.
    #[test]
    fn a_family_column_reads_in_either_language() {
        for header in ["账号,姓名,段位,家庭", "account,name_zh,rank,family"] {
            let p = parse(&format!("{header}\nwang1,王一,3段,王家\nwang2,王二,1级,王家\nli,李明,2段,\n"));
            assert!(p.clean(), "{p:?}");
            let families: Vec<&str> = p.rows.iter().map(|r| r.entry.family.as_str()).collect();
            assert_eq!(families, ["王家", "王家", ""], "{header}");
        }
    }

    #[test]
    fn every_error_is_found_before_anything_is_written() {
        let p = parse("account,name_zh,rank,egd_pin,colour\nli,李明,3d,x,\nli,李明,2d,,\n,无名,31k,,\nzhao!,赵,1p,,\n");
        let codes: Vec<Vec<&str>> = p.rows.iter().map(|r| r.errors.iter().map(|e| e.0).collect()).collect();
        assert_eq!(
            codes,
            vec![
                vec!["import-bad-pin"],
                vec!["import-duplicate"],
                vec!["import-no-account", "import-bad-rank"],
                vec!["import-bad-account"]
            ]
        );
        assert_eq!(p.errors.iter().map(|e| e.0).collect::<Vec<_>>(), vec!["import-unknown-column"]);
        assert!(!p.clean());
        assert_eq!(parse("name,rank\n李明,3d\n").errors[0].0, "import-no-account-column");
        assert_eq!(parse("account,name\n").errors[0].0, "import-empty");
    }

    #[test]
    fn an_opengotha_file_gives_its_players_with_accounts_from_their_keys() {
        let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<Tournament dataVersion="201"><Players>
<Player name="Csizmadia" firstName="Miklos" rank="11K" grade="12K" country="HU" club="BuPe" egfPin="16237463" rating="1035"/>
<Player name="李" firstName="明" rank="4D" country="CN" club="" egfPin="17000001"/>
<Player name="Nobody" firstName="" rank="40K"/>
</Players></Tournament>"#;
        let p = parse(xml);
        let accounts: Vec<&str> = p.rows.iter().map(|r| r.account.as_str()).collect();
        assert_eq!(accounts, ["csizmadiamiklos", "egd-17000001", "nobody"]);
        let first = &p.rows[0].entry;
        assert_eq!(
            (first.name_latin.as_str(), first.rank.as_str(), first.egd_pin),
            ("Csizmadia Miklos", "11k", 16237463)
        );
        assert_eq!((first.country.as_str(), first.club.as_str(), first.rating), ("HU", "BuPe", Some(1035)));
        assert_eq!(p.rows[1].entry.name_zh, "李 明");
        assert_eq!(p.rows[2].errors.iter().map(|e| e.0).collect::<Vec<_>>(), ["import-bad-rank"]);
        assert_eq!(parse("<Players/>").errors[0].0, "import-unreadable");
    }

    #[test]
    fn an_opengotha_file_with_games_says_which_rounds_come_with_it() {
        let xml = r#"<Tournament dataVersion="201"><Players>
<Player name="Li" firstName="Ming" rank="4D"/><Player name="Wang" firstName="Fang" rank="3D"/>
<Player name="Zhao" firstName="Qiang" rank="1K"/>
</Players><Games>
<Game roundNumber="1" tableNumber="1" blackPlayer="WANGFANG" whitePlayer="LIMING" handicap="0" result="RESULT_WHITEWINS"/>
<Game roundNumber="2" tableNumber="1" blackPlayer="ZHAOQIANG" whitePlayer="LIMING" handicap="0" result="RESULT_BLACKWINS_BYDEF"/>
</Games><ByePlayers><ByePlayer roundNumber="1" player="ZHAOQIANG"/><ByePlayer roundNumber="2" player="WANGFANG"/></ByePlayers>
</Tournament>"#;
        let p = parse(xml);
        assert!(p.clean(), "{p:?}");
        assert_eq!(p.rounds, Some((2, 2, 2)));
        let bad = xml.replace(r#"roundNumber="2" tableNumber"#, r#"roundNumber="two" tableNumber"#);
        assert_eq!(parse(&bad).errors[0].0, "import-rounds-unreadable");
        let players_only =
            r#"<Tournament><Players><Player name="Li" firstName="Ming" rank="4D"/></Players></Tournament>"#;
        assert_eq!(parse(players_only).rounds, None);
    }
}
