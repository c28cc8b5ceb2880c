//! Character sets of SGF files: declared by `CA[]`, or guessed when a file declares none.
//!
//! Archives hold UTF-8 (sometimes with names cut in the middle of a character, as Fox writes them),
//! GB2312/GBK/GB18030 (Chinese archives), and ISO-8859-1 (older European files). A file that
//! declares no `CA` and is not valid UTF-8 is given to `chardetng`, the detector Firefox uses.

use encoding_rs::{Encoding, GB18030, UTF_8};

/// How the bytes of property values become text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Charset {
    /// UTF-8; invalid sequences become U+FFFD.
    Utf8,
    /// GB18030, a superset of GB2312 and GBK. Lead bytes 0x81–0xFE take the next byte (or three)
    /// with them, so a trail byte that looks like `]` or `\` does not end or escape a value.
    Gb18030,
    /// ISO-8859-1: every byte is the code point of the same number.
    Latin1,
    /// Another single- or multi-byte encoding known to `encoding_rs` (from a `CA` label or the
    /// detector).
    Other(&'static Encoding),
}

impl Charset {
    /// The charset named by an SGF `CA` value, if it is one we know.
    pub fn from_label(label: &str) -> Option<Charset> {
        let key: String = label.trim().to_ascii_lowercase().chars().filter(|c| c.is_ascii_alphanumeric()).collect();
        match key.as_str() {
            "utf8" | "ascii" | "usascii" => Some(Charset::Utf8),
            "gb2312" | "gbk" | "gb18030" | "cp936" | "euccn" | "windows936" | "chinese" => Some(Charset::Gb18030),
            "iso88591" | "latin1" | "l1" => Some(Charset::Latin1),
            _ => match Encoding::for_label(label.trim().as_bytes())? {
                e if e == UTF_8 => Some(Charset::Utf8),
                e if e == GB18030 || e == encoding_rs::GBK => Some(Charset::Gb18030),
                e => Some(Charset::Other(e)),
            },
        }
    }

    /// A guess for bytes that declare no charset.
    pub fn detect(bytes: &[u8]) -> Charset {
        if std::str::from_utf8(bytes).is_ok() {
            return Charset::Utf8;
        }
        let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
        detector.feed(bytes, true);
        let guess = detector.guess(None, chardetng::Utf8Detection::Allow);
        if guess == GB18030 || guess == encoding_rs::GBK {
            Charset::Gb18030
        } else if guess == encoding_rs::WINDOWS_1252 {
            Charset::Latin1
        } else if guess == UTF_8 {
            Charset::Utf8
        } else {
            Charset::Other(guess)
        }
    }

    /// The `CA` value this charset is written as.
    pub fn name(self) -> &'static str {
        match self {
            Charset::Utf8 => "UTF-8",
            Charset::Gb18030 => "GB18030",
            Charset::Latin1 => "ISO-8859-1",
            Charset::Other(e) => e.name(),
        }
    }

    /// How many bytes the character starting with `lead` takes, as far as the SGF lexer must know:
    /// in GB18030 a lead byte swallows its trail bytes; everywhere else every byte stands alone (UTF-8
    /// continuation bytes are never ASCII, so they cannot be mistaken for SGF syntax).
    pub(crate) fn char_len(self, bytes: &[u8], i: usize) -> usize {
        let lead = bytes[i];
        let multibyte = match self {
            Charset::Gb18030 => true,
            Charset::Other(e) => !e.is_single_byte() && e != UTF_8,
            _ => false,
        };
        if !multibyte || !(0x81..=0xFE).contains(&lead) || i + 1 >= bytes.len() {
            return 1;
        }
        let second = bytes[i + 1];
        if (0x30..=0x39).contains(&second) && i + 3 < bytes.len() { 4 } else { 2 }
    }

    /// Decodes a value's bytes to text.
    pub fn decode(self, bytes: &[u8]) -> String {
        match self {
            Charset::Utf8 => String::from_utf8_lossy(bytes).into_owned(),
            Charset::Latin1 => bytes.iter().map(|&b| b as char).collect(),
            Charset::Gb18030 => GB18030.decode_without_bom_handling(bytes).0.into_owned(),
            Charset::Other(e) => e.decode_without_bom_handling(bytes).0.into_owned(),
        }
    }
}

/// Finds the value of the first `CA[...]` property by a raw byte scan (the value is ASCII).
pub(crate) fn declared(bytes: &[u8]) -> Option<Charset> {
    let mut i = 0;
    while i + 3 < bytes.len() {
        if &bytes[i..i + 3] == b"CA[" && (i == 0 || !bytes[i - 1].is_ascii_uppercase()) {
            let start = i + 3;
            let end = bytes[start..].iter().position(|&b| b == b']')? + start;
            let label = std::str::from_utf8(&bytes[start..end]).ok()?;
            return Charset::from_label(label);
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_name_the_charsets_archives_use() {
        assert_eq!(Charset::from_label("UTF-8"), Some(Charset::Utf8));
        assert_eq!(Charset::from_label("gb2312"), Some(Charset::Gb18030));
        assert_eq!(Charset::from_label("GBK"), Some(Charset::Gb18030));
        assert_eq!(Charset::from_label("ISO8859_1"), Some(Charset::Latin1));
        assert_eq!(Charset::from_label("ISO-8859-1"), Some(Charset::Latin1));
        assert_eq!(Charset::from_label("Big5").map(Charset::name), Some("Big5"));
        assert_eq!(Charset::from_label("klingon"), None);
    }

    #[test]
    fn decoding_handles_gb_latin1_and_cut_utf8() {
        assert_eq!(Charset::Gb18030.decode(b"\xb0\xd7"), "白");
        assert_eq!(Charset::Latin1.decode(b"cr\xe9\xe9"), "créé");
        assert_eq!(Charset::Utf8.decode(b"\xe5\xb7\xa7\xe8\x8a"), "巧\u{fffd}");
    }

    #[test]
    fn gb18030_lead_bytes_swallow_a_bracket_trail() {
        // 0xB0 0x5D is one GBK character whose trail byte is `]`.
        let bytes = b"\xb0\x5d]";
        assert_eq!(Charset::Gb18030.char_len(bytes, 0), 2);
        assert_eq!(Charset::Utf8.char_len(bytes, 0), 1);
    }

    #[test]
    fn ca_is_found_by_a_raw_scan() {
        assert_eq!(declared(b"(;FF[4]CA[gb2312]SZ[19])"), Some(Charset::Gb18030));
        assert_eq!(declared(b"(;FF[4]SZ[19])"), None);
    }
}
