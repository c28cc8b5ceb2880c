//! A certificate as a PDF to print and keep (issue 33 item 5): one A4 page in the page's language, the
//! player's name and the grade as the association writes it (业余3段), the basis, the date and serial,
//! the association's name and the signing key's fingerprint, and the QR code to the verification
//! page; made with `krilla`, which subsets and embeds the CJK font (Noto Serif CJK SC by default).
//!
//! The signed certificate travels inside the PDF: its text, base64 after the marker [`MARKER`], is the
//! document's keyword (in the document information and the XMP metadata), so the verification page
//! checks an uploaded PDF by the same signature and revocation list as the text
//! ([`certificate_in_pdf`]). The PDF is a rendering; the signed text is the certificate.
//!
//! The font is found once: `WEIQI_CJK_FONT` (`PATH` or `PATH#INDEX` of a font collection), else the
//! Noto CJK fonts Debian's `fonts-noto-cjk` installs. Without one the PDF is refused with that advice
//! ([`PdfError::NoFont`]); the certificate's page, printable, and its text stay available.

use std::sync::OnceLock;

use base64::Engine as _;
use krilla::Document;
use krilla::geom::{PathBuilder, Point, Rect};
use krilla::metadata::Metadata;
use krilla::page::PageSettings;
use krilla::text::{Font, TextDirection};

/// What precedes the certificate's text (base64) in the PDF's keywords.
pub const MARKER: &str = "weiqi-certificate:";

/// Where Debian's `fonts-noto-cjk` puts the CJK collections, and the index of Simplified Chinese in
/// each (JP, KR, SC, TC, HK).
const FONTS: [(&str, u32); 2] = [
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc", 2),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 2),
];

/// Why no PDF was made.
#[derive(Debug, thiserror::Error)]
pub enum PdfError {
    /// No CJK font on this server.
    #[error("no CJK font: install fonts-noto-cjk or set WEIQI_CJK_FONT")]
    NoFont,
    /// The PDF writer refused.
    #[error("the PDF could not be written: {0}")]
    Write(String),
}

fn font() -> Option<&'static Font> {
    static FONT: OnceLock<Option<Font>> = OnceLock::new();
    FONT.get_or_init(|| {
        let configured = std::env::var("WEIQI_CJK_FONT").ok().map(|v| match v.rsplit_once('#') {
            Some((path, index)) => (path.to_string(), index.parse().unwrap_or(0)),
            None => (v, 0),
        });
        let candidates =
            configured.into_iter().chain(FONTS.iter().map(|(p, i)| ((*p).to_string(), *i))).collect::<Vec<_>>();
        candidates.into_iter().find_map(|(path, index)| {
            let data = std::fs::read(&path).ok()?;
            Font::new(data.into(), index)
        })
    })
    .as_ref()
}

/// Whether this server can make PDFs (a CJK font was found).
pub fn available() -> bool {
    font().is_some()
}

/// What the certificate says, in the page's words.
#[derive(Debug, Clone)]
pub struct Sheet {
    /// The heading (段位证书).
    pub title: String,
    /// The association's name.
    pub association: String,
    /// The player's name.
    pub name: String,
    /// The grade as the association writes it (业余3段).
    pub grade: String,
    /// Labelled lines: serial, date, basis, key fingerprint.
    pub facts: Vec<(String, String)>,
    /// The line under the QR code.
    pub scan: String,
    /// The verification link the QR code holds.
    pub link: String,
    /// The signed certificate's text, carried in the PDF.
    pub certificate: String,
}

/// Roughly how wide `text` is at `size` points (CJK full width, Latin about half): for centring.
fn width(text: &str, size: f32) -> f32 {
    #[allow(clippy::cast_precision_loss)]
    let units: f32 = text.chars().map(|c| if u32::from(c) >= 0x2E80 { 1.0 } else { 0.55 }).sum();
    units * size
}

/// `text` in lines no wider than `max` points at `size` (by [`width`]).
fn wrap(text: &str, size: f32, max: f32) -> Vec<String> {
    let mut lines = vec![String::new()];
    for c in text.chars() {
        let line = lines.last_mut().expect("one line at least");
        let mut buf = [0u8; 4];
        if !line.is_empty() && width(line, size) + width(c.encode_utf8(&mut buf), size) > max {
            lines.push(String::new());
        }
        lines.last_mut().expect("one line at least").push(c);
    }
    lines
}

/// The PDF of `sheet` (A4).
///
/// # Errors
/// [`PdfError`].
pub fn render(sheet: &Sheet) -> Result<Vec<u8>, PdfError> {
    let font = font().ok_or(PdfError::NoFont)?.clone();
    let (w, h) = (595.0_f32, 842.0_f32);
    let mut document = Document::new();
    let encoded = base64::engine::general_purpose::STANDARD.encode(sheet.certificate.as_bytes());
    document.set_metadata(
        Metadata::new()
            .title(format!("{} · {} · {}", sheet.title, sheet.name, sheet.grade))
            .creator("weiqi".into())
            .keywords(vec![format!("{MARKER}{encoded}")]),
    );
    let mut page = document.start_page_with(PageSettings::from_wh(w, h).ok_or(PdfError::Write("page size".into()))?);
    let mut surface = page.surface();
    // A double frame.
    for (inset, line) in [(28.0_f32, 2.5_f32), (36.0, 0.8)] {
        let mut pb = PathBuilder::new();
        for rect in [
            Rect::from_xywh(inset, inset, w - 2.0 * inset, line),
            Rect::from_xywh(inset, h - inset - line, w - 2.0 * inset, line),
            Rect::from_xywh(inset, inset, line, h - 2.0 * inset),
            Rect::from_xywh(w - inset - line, inset, line, h - 2.0 * inset),
        ]
        .into_iter()
        .flatten()
        {
            pb.push_rect(rect);
        }
        if let Some(path) = pb.finish() {
            surface.draw_path(&path);
        }
    }
    let centred = |surface: &mut krilla::surface::Surface<'_>, y: f32, size: f32, text: &str| {
        let x = ((w - width(text, size)) / 2.0).max(48.0);
        surface.draw_text(Point::from_xy(x, y), font.clone(), size, text, false, TextDirection::Auto);
    };
    centred(&mut surface, 120.0, 20.0, &sheet.association);
    centred(&mut surface, 190.0, 40.0, &sheet.title);
    centred(&mut surface, 290.0, 30.0, &sheet.name);
    centred(&mut surface, 360.0, 48.0, &sheet.grade);
    let mut y = 440.0;
    for (label, value) in &sheet.facts {
        surface.draw_text(Point::from_xy(80.0, y), font.clone(), 12.0, label, false, TextDirection::Auto);
        // A long value (the basis) wraps inside the frame.
        for line in wrap(value, 12.0, w - 200.0 - 60.0) {
            surface.draw_text(Point::from_xy(200.0, y), font.clone(), 12.0, &line, false, TextDirection::Auto);
            y += 17.0;
        }
        y += 7.0;
    }
    // The QR code to the verification page, drawn module by module.
    if let Ok(code) = qrcode::QrCode::with_error_correction_level(sheet.link.as_bytes(), qrcode::EcLevel::M) {
        let n = code.width();
        #[allow(clippy::cast_precision_loss)]
        let module = 130.0 / n as f32;
        let (x0, y0) = ((w - 130.0) / 2.0, 600.0);
        let mut pb = PathBuilder::new();
        for (i, color) in code.to_colors().iter().enumerate() {
            if *color == qrcode::Color::Dark {
                #[allow(clippy::cast_precision_loss)]
                let (col, row) = ((i % n) as f32, (i / n) as f32);
                if let Some(r) = Rect::from_xywh(x0 + col * module, y0 + row * module, module, module) {
                    pb.push_rect(r);
                }
            }
        }
        if let Some(path) = pb.finish() {
            surface.draw_path(&path);
        }
    }
    centred(&mut surface, 760.0, 10.0, &sheet.scan);
    centred(&mut surface, 776.0, 8.0, &sheet.link);
    surface.finish();
    page.finish();
    document.finish().map_err(|e| PdfError::Write(format!("{e:?}")))
}

/// The signed certificate's text inside a PDF this site made (`None`: not one of ours, or damaged).
pub fn certificate_in_pdf(bytes: &[u8]) -> Option<String> {
    let at = bytes.windows(MARKER.len()).position(|w| w == MARKER.as_bytes())? + MARKER.len();
    let encoded: Vec<u8> = bytes[at..]
        .iter()
        .copied()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/' || *b == b'=')
        .collect();
    let decoded = base64::engine::general_purpose::STANDARD.decode(encoded).ok()?;
    String::from_utf8(decoded).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_certificate_travels_inside_its_pdf() {
        if !available() {
            eprintln!("no CJK font here: the PDF is not made (the page says so)");
            return;
        }
        let sheet = Sheet {
            title: "段位证书".into(),
            association: "中国围棋协会".into(),
            name: "李明".into(),
            grade: "业余3段".into(),
            facts: vec![("编号".into(), "CWA-2026-0001".into())],
            scan: "扫码验证".into(),
            link: "http://localhost/verify?serial=CWA-2026-0001".into(),
            certificate: "-----BEGIN WEIQI CERTIFICATE-----\nserial: CWA-2026-0001\n-----END-----\n".into(),
        };
        let pdf = render(&sheet).unwrap();
        assert!(pdf.starts_with(b"%PDF-"));
        assert_eq!(certificate_in_pdf(&pdf).as_deref(), Some(sheet.certificate.as_str()));
        assert_eq!(certificate_in_pdf(b"%PDF-1.7 nothing here"), None);
    }
}
