//! A player's name in Latin script, for the files that need one (the EGD's `.h9`): the name the
//! organiser wrote in Latin script, else the Chinese name in pinyin.
//!
//! Chinese organisers enter 姓名 only, and the EGD's table is ASCII: `李明` is `Li Ming`, `黄雨婷` is
//! `Huang Yuting` (surname, then the given name's syllables joined, as passports and the EGD write
//! them). The surname is the first character, or two for the compound surnames below (`欧阳娜娜` is
//! `Ouyang Nana`); a surname with a reading of its own as a surname is read that way (`单` is `Shan`,
//! not `dan`; `曾` is `Zeng`). Characters with no pinyin (Latin letters, digits) are kept as they are
//! when ASCII and dropped otherwise.

use pinyin::ToPinyin;

use crate::registration::Registration;

/// Two-character surnames (复姓) that are read as one surname.
const COMPOUND_SURNAMES: [&str; 20] = [
    "欧阳", "司马", "上官", "诸葛", "东方", "皇甫", "尉迟", "公孙", "慕容", "令狐", "司徒", "夏侯", "长孙", "宇文",
    "轩辕", "端木", "西门", "南宫", "独孤", "钟离",
];

/// Surnames whose reading as a surname differs from the character's first reading.
const SURNAME_READINGS: [(char, &str); 16] = [
    ('单', "shan"),
    ('曾', "zeng"),
    ('解', "xie"),
    ('仇', "qiu"),
    ('朴', "piao"),
    ('区', "ou"),
    ('查', "zha"),
    ('乐', "yue"),
    ('覃', "qin"),
    ('翟', "zhai"),
    ('召', "shao"),
    ('缪', "miao"),
    ('盖', "ge"),
    ('尉', "yu"),
    ('长', "zhang"),
    ('柏', "bai"),
];

/// The player's (surname, given name) in Latin script; either may be empty.
#[must_use]
pub fn latin_name(r: &Registration) -> (String, String) {
    let latin = r.name_latin.trim();
    if !latin.is_empty() {
        return match latin.split_once(char::is_whitespace) {
            Some((surname, given)) => (surname.to_owned(), given.trim().to_owned()),
            None => (latin.to_owned(), String::new()),
        };
    }
    pinyin_name(r.name_zh.trim())
}

/// A Chinese name as (surname, given name) in pinyin without tones, each capitalised.
#[must_use]
pub fn pinyin_name(zh: &str) -> (String, String) {
    if !zh.chars().any(|c| c.to_pinyin().is_some()) {
        // No Han character: a name written in another script, split as written.
        let ascii: String = zh.chars().filter(|c| c.is_ascii_alphanumeric() || c.is_whitespace()).collect();
        let mut words = ascii.split_whitespace();
        let surname = words.next().unwrap_or_default().to_owned();
        return (surname, words.collect::<Vec<_>>().join(" "));
    }
    let surname_len = if COMPOUND_SURNAMES.iter().any(|s| zh.starts_with(s)) { 2 } else { 1 };
    let split = zh.char_indices().nth(surname_len).map_or(zh.len(), |(i, _)| i);
    let (surname, given) = zh.split_at(split);
    let mut surname_chars = surname.chars();
    let first = surname_chars.next().map(|c| match SURNAME_READINGS.iter().find(|(s, _)| *s == c) {
        Some((_, reading)) => (*reading).to_owned(),
        None => syllables(&c.to_string()),
    });
    let surname = first.unwrap_or_default() + &syllables(surname_chars.as_str());
    (capitalised(&surname), capitalised(&syllables(given)))
}

/// The text's pinyin, syllables joined; ASCII letters and digits kept, anything else dropped.
fn syllables(text: &str) -> String {
    text.chars()
        .map(|c| match c.to_pinyin() {
            Some(p) => p.plain().to_owned(),
            None if c.is_ascii_alphanumeric() => c.to_string(),
            None => String::new(),
        })
        .collect()
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::PlayerId;
    use crate::rank::Rank;

    /// ```text
    ///   written            Latin name
    ///   李明               Li Ming
    ///   黄雨婷             Huang Yuting
    ///   欧阳娜娜           Ouyang Nana        (compound surname)
    ///   单雄信             Shan Xiongxin      (单 as a surname)
    ///   曾乐               Zeng Le
    ///   王A1               Wang A1            (ASCII kept)
    ///   Chen Yaoye (Latin) Chen Yaoye         (the organiser's own Latin name wins)
    /// ```
    #[test]
    fn chinese_names_read_as_the_egd_writes_them() {
        for (zh, surname, given) in [
            ("李明", "Li", "Ming"),
            ("黄雨婷", "Huang", "Yuting"),
            ("欧阳娜娜", "Ouyang", "Nana"),
            ("单雄信", "Shan", "Xiongxin"),
            ("曾乐", "Zeng", "Le"),
            ("王A1", "Wang", "A1"),
            ("John Smith", "John", "Smith"),
            ("", "", ""),
        ] {
            assert_eq!(pinyin_name(zh), (surname.to_owned(), given.to_owned()), "{zh}");
        }
        let mut r = Registration::new(PlayerId(1), "Chen Yaoye", Rank::Pro(9));
        r.name_zh = "陈耀烨".into();
        assert_eq!(latin_name(&r), ("Chen".to_owned(), "Yaoye".to_owned()));
        r.name_latin.clear();
        assert_eq!(latin_name(&r), ("Chen".to_owned(), "Yaoye".to_owned()));
    }

    proptest::proptest! {
        /// Any text, in any script, gives an ASCII name and never panics.
        #[test]
        fn any_text_gives_ascii(text in "(\\PC|[李王欧阳单曾 ])*") {
            let (s, g) = pinyin_name(&text);
            proptest::prop_assert!(s.is_ascii() && g.is_ascii(), "{}: {} {}", text, s, g);
        }
    }
}
