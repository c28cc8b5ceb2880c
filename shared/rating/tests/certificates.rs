//! Certificates: sign and verify, tampering fails, wrong keys fail, revocation fails, files round-trip.

use weiqi_rating::{
    AssociationKey, CaseId, CertificateBody, CivilDate, Malformed, PlayerId, Revocation, RevocationList, SignError,
    VerifyError, parse_certificate, parse_public_key, parse_revocation_list, parse_signing_key, verify, verify_texts,
};

fn key(association: &str, seed: u8) -> AssociationKey {
    AssociationKey::from_seed(association, [seed; 32]).unwrap()
}

fn body(key: &AssociationKey, serial: &str) -> CertificateBody {
    CertificateBody {
        serial: serial.into(),
        association: key.association().into(),
        key_id: key.key_id(),
        player: PlayerId::from("li-ming"),
        player_name: "李明 / Li Ming".into(),
        ladder: "amateur".into(),
        grade: "5d".into(),
        grade_name: "业余5段".into(),
        date: "2026-11-30".parse().unwrap(),
        case: CaseId::from("case-42"),
        basis: "qualify-5d: 6 wins of 7 in group 5d of 2026 全国业余围棋定段赛 (dq-2026)".into(),
    }
}

fn revocations(key: &AssociationKey, serials: &[&str], sequence: u64) -> String {
    let list = RevocationList {
        association: key.association().into(),
        key_id: key.key_id(),
        issued: "2026-12-01".parse().unwrap(),
        sequence,
        issued_at: weiqi_rating::parse_utc("2026-12-01T09:00:00Z"),
        next_update: weiqi_rating::parse_utc("2026-12-08T09:00:00Z"),
        entries: serials
            .iter()
            .map(|s| Revocation {
                serial: (*s).into(),
                date: "2026-12-01".parse().unwrap(),
                reason: "results voided for cheating (Art. 23.1)".into(),
            })
            .collect(),
    };
    key.sign_revocations(list).unwrap().to_text()
}

#[test]
fn signed_certificate_verifies_from_its_files() {
    let k = key("cwa", 7);
    let cert = k.sign_certificate(body(&k, "CWA-2026-000123")).unwrap().to_text();
    let public = k.public().to_text();
    let verified = verify_texts(&cert, &public, None).unwrap();
    assert_eq!(verified.certificate.grade, "5d");
    assert_eq!(verified.certificate.player_name, "李明 / Li Ming");
    assert_eq!(verified.revocations_checked, None);
    // With a list that does not name it.
    let list = revocations(&k, &["CWA-2026-000001"], 3);
    let verified = verify_texts(&cert, &public, Some(&list)).unwrap();
    assert_eq!(verified.revocations_checked, Some((3, "2026-12-01".parse::<CivilDate>().unwrap())));
}

#[test]
fn the_file_format_is_the_documented_one() {
    let k = key("cwa", 7);
    let text = k.sign_certificate(body(&k, "CWA-2026-000123")).unwrap().to_text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "-----BEGIN WEIQI RANK CERTIFICATE-----");
    assert_eq!(lines[1], "weiqi-certificate v1");
    assert_eq!(lines[2], "serial: CWA-2026-000123");
    assert_eq!(lines[4], format!("key-id: {}", k.key_id()));
    assert_eq!(lines[10], "date: 2026-11-30");
    assert!(lines[13].starts_with("signature: "));
    assert_eq!(lines[14], "-----END WEIQI RANK CERTIFICATE-----");
    assert_eq!(lines.len(), 15);
    // The signed bytes are the body lines exactly.
    let body_text = lines[1..13].join("\n") + "\n";
    assert_eq!(parse_certificate(&text).unwrap().body.canonical_bytes(), body_text.as_bytes());
}

#[test]
fn crlf_and_surrounding_text_do_not_matter() {
    let k = key("cwa", 7);
    let cert = k.sign_certificate(body(&k, "CWA-2026-000123")).unwrap().to_text();
    let mailed = format!("Dear Li Ming,\r\nyour certificate:\r\n\r\n{}\r\nRegards\r\n", cert.replace('\n', "\r\n"));
    verify_texts(&mailed, &k.public().to_text(), None).unwrap();
}

#[test]
fn any_tampered_field_fails_with_bad_signature() {
    let k = key("cwa", 7);
    let public = k.public().to_text();
    let cert = k.sign_certificate(body(&k, "CWA-2026-000123")).unwrap().to_text();
    let edits = [
        ("grade: 5d", "grade: 6d"),
        ("grade-name: 业余5段", "grade-name: 业余6段"),
        ("player: li-ming", "player: wang-fang"),
        ("date: 2026-11-30", "date: 2026-11-29"),
        ("case: case-42", "case: case-43"),
        ("serial: CWA-2026-000123", "serial: CWA-2026-000124"),
        ("6 wins of 7", "7 wins of 7"),
    ];
    for (from, to) in edits {
        let tampered = cert.replace(from, to);
        assert_ne!(tampered, cert);
        assert_eq!(verify_texts(&tampered, &public, None), Err(VerifyError::BadSignature), "{from} -> {to}");
    }
    // A flipped signature byte.
    let mut parsed = parse_certificate(&cert).unwrap();
    let sig = parsed.signature_base64();
    let flipped = if sig.starts_with('A') { sig.replacen('A', "B", 1) } else { format!("A{}", &sig[1..]) };
    let tampered = cert.replace(&sig, &flipped);
    assert_eq!(verify_texts(&tampered, &public, None), Err(VerifyError::BadSignature));
    parsed.body.basis.push('!');
    assert_eq!(verify(&parsed, &k.public(), None), Err(VerifyError::BadSignature));
}

#[test]
fn a_revoked_certificate_fails() {
    let k = key("cwa", 7);
    let cert = k.sign_certificate(body(&k, "CWA-2026-000123")).unwrap().to_text();
    let list = revocations(&k, &["CWA-2026-000001", "CWA-2026-000123"], 4);
    let err = verify_texts(&cert, &k.public().to_text(), Some(&list)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "certificate CWA-2026-000123 was revoked on 2026-12-01: results voided for cheating (Art. 23.1)"
    );
    assert!(matches!(err, VerifyError::Revoked { .. }));
}

#[test]
fn wrong_keys_and_forged_lists_fail() {
    let cwa = key("cwa", 7);
    let other_cwa_key = key("cwa", 8);
    let other_association = key("sha", 9);
    let cert = cwa.sign_certificate(body(&cwa, "CWA-2026-000123")).unwrap().to_text();

    let err = verify_texts(&cert, &other_cwa_key.public().to_text(), None).unwrap_err();
    assert!(matches!(err, VerifyError::WrongKey { .. }), "{err}");
    let err = verify_texts(&cert, &other_association.public().to_text(), None).unwrap_err();
    assert_eq!(err, VerifyError::WrongAssociation { certificate: "cwa".into(), key: "sha".into() });

    // A certificate that claims the right key id but was signed by another key.
    let mut forged_body = body(&cwa, "CWA-2026-000123");
    forged_body.key_id = other_cwa_key.key_id();
    let forged = other_cwa_key.sign_certificate(forged_body).unwrap().to_text();
    let forged = forged.replace(&other_cwa_key.key_id(), &cwa.key_id());
    assert_eq!(verify_texts(&forged, &cwa.public().to_text(), None), Err(VerifyError::BadSignature));

    // A revocation list signed by someone else cannot clear or condemn a certificate.
    let list = revocations(&other_cwa_key, &[], 1);
    let err = verify_texts(&cert, &cwa.public().to_text(), Some(&list)).unwrap_err();
    assert!(matches!(err, VerifyError::RevocationsWrongKey { .. }), "{err}");
    // Nor can an edited list (an entry removed).
    let list = revocations(&cwa, &["CWA-2026-000123"], 2);
    let edited: String = list.lines().filter(|l| !l.starts_with("revoked:")).map(|l| format!("{l}\n")).collect();
    assert_eq!(verify_texts(&cert, &cwa.public().to_text(), Some(&edited)), Err(VerifyError::RevocationsBadSignature));
}

#[test]
fn malformed_files_say_which_line_and_why() {
    let k = key("cwa", 7);
    let cert = k.sign_certificate(body(&k, "CWA-2026-000123")).unwrap().to_text();
    let cases = [
        (cert.replace("grade: 5d\n", ""), "line 9: expected the field 'grade', found 'grade-name'"),
        (cert.replace("date: 2026-11-30", "date: 30/11/2026"), "line 11: field 'date': not a YYYY-MM-DD date"),
        (
            cert.replace("weiqi-certificate v1", "weiqi-certificate v2"),
            "line 2: expected 'weiqi-certificate v1', found 'weiqi-certificate v2'",
        ),
        (
            cert.replace("-----END WEIQI RANK CERTIFICATE-----", ""),
            "line 0: no '-----END WEIQI RANK CERTIFICATE-----' line",
        ),
        (cert.replace("basis: qualify", "basis:  qualify"), "line 13: field 'basis': leading or trailing spaces"),
        ("hello".to_owned(), "line 0: no '-----BEGIN WEIQI RANK CERTIFICATE-----' line"),
    ];
    for (text, want) in cases {
        match verify_texts(&text, &k.public().to_text(), None) {
            Err(VerifyError::MalformedCertificate(e)) => assert_eq!(e.to_string(), want),
            other => panic!("{want}: got {other:?}"),
        }
    }
    let bad_sig = cert.replace("signature: ", "signature: AAAA");
    assert!(matches!(verify_texts(&bad_sig, &k.public().to_text(), None), Err(VerifyError::MalformedCertificate(_))));
    let key_text = k.public().to_text().replace(&k.key_id(), "0000000000000000");
    assert!(matches!(verify_texts(&cert, &key_text, None), Err(VerifyError::MalformedKey(_))));
    assert!(matches!(
        verify_texts(&cert, &k.public().to_text(), Some("nope")),
        Err(VerifyError::MalformedRevocations(_))
    ));
}

#[test]
fn bodies_that_cannot_be_encoded_are_not_signed() {
    let k = key("cwa", 7);
    let mut b = body(&k, "CWA-2026-000123");
    b.basis = "two\nlines".into();
    assert!(matches!(k.sign_certificate(b), Err(SignError::Invalid(Malformed::BadValue { .. }))));
    let b = body(&k, "serial with spaces");
    assert!(matches!(k.sign_certificate(b), Err(SignError::Invalid(_))));
    let mut b = body(&k, "CWA-1");
    b.association = "sha".into();
    assert!(matches!(k.sign_certificate(b), Err(SignError::KeyMismatch { .. })));
}

#[test]
fn key_files_round_trip() {
    let k = key("cwa", 7);
    let restored = parse_signing_key(&k.to_text()).unwrap();
    assert_eq!(restored.key_id(), k.key_id());
    assert_eq!(parse_public_key(&k.public().to_text()).unwrap(), k.public());
    let list_text = revocations(&k, &["A-1", "B-2"], 9);
    let list = parse_revocation_list(&list_text).unwrap();
    assert_eq!(list.list.entries.len(), 2);
    assert_eq!(list.to_text(), list_text);
    let dup = list_text.replace("revoked: B-2", "revoked: A-1");
    assert_eq!(parse_revocation_list(&dup).unwrap_err().to_string(), "line 10: serial A-1 is listed twice");
}

/// Issue 15 item 15: a list carries its signing time and the time of the next list; a client refuses
/// a list older than one it has seen (rollback, never waived) or past its next update (waived by
/// `allow_stale`); a v1 list (no times) still reads and verifies but counts as stale.
#[test]
fn revocation_lists_cannot_be_rolled_back_or_kept_past_their_next_update() {
    use weiqi_rating::{Freshness, check_freshness, format_utc, parse_revocation_list, parse_utc};
    let key = AssociationKey::from_seed("cwa", [9; 32]).unwrap();
    let text = revocations(&key, &["CWA-2026-000001"], 3);
    assert!(text.contains("weiqi-revocations v2") && text.contains("next-update: 2026-12-08T09:00:00Z"), "{text}");
    let list = parse_revocation_list(&text).unwrap().list;
    assert_eq!(list.issued_at, parse_utc("2026-12-01T09:00:00Z"));
    let noon = |d: &str| parse_utc(&format!("{d}T12:00:00Z")).unwrap();
    assert_eq!(format_utc(noon("2026-12-05")), "2026-12-05T12:00:00Z");
    assert_eq!(check_freshness(&list, noon("2026-12-05"), None, false), Ok(()));
    assert_eq!(check_freshness(&list, noon("2026-12-05"), Some(3), false), Ok(()), "the same list again");
    assert_eq!(
        check_freshness(&list, noon("2026-12-05"), Some(4), true),
        Err(Freshness::RolledBack { seen: 4, got: 3 }),
        "allow_stale never waives a rollback"
    );
    let stale = check_freshness(&list, noon("2026-12-09"), Some(2), false).unwrap_err();
    assert!(matches!(stale, Freshness::Stale { sequence: 3, .. }), "{stale}");
    assert_eq!(check_freshness(&list, noon("2026-12-09"), Some(2), true), Ok(()));
    // The times are signed: moving next-update breaks the signature.
    let public = key.public().to_text();
    let cert = key.sign_certificate(body(&key, "CWA-2026-000002")).unwrap().to_text();
    let forged = text.replace("next-update: 2026-12-08T09:00:00Z", "next-update: 2027-12-08T09:00:00Z");
    assert_eq!(verify_texts(&cert, &public, Some(&forged)), Err(VerifyError::RevocationsBadSignature));
    // A v1 list (as earlier versions signed it) verifies and is stale by definition.
    let mut v1 = list.clone();
    v1.issued_at = None;
    v1.next_update = None;
    let v1 = key.sign_revocations(v1).unwrap().to_text();
    assert!(v1.contains("weiqi-revocations v1") && !v1.contains("next-update"));
    assert!(verify_texts(&cert, &public, Some(&v1)).is_ok());
    let v1 = parse_revocation_list(&v1).unwrap().list;
    assert!(matches!(check_freshness(&v1, noon("2026-12-02"), None, false), Err(Freshness::Stale { .. })));
    for bad in ["2026-12-01 09:00:00Z", "2026-12-01T9:00:00Z", "2026-12-01T24:00:00Z", "2026-12-01T09:00:00"] {
        assert_eq!(parse_utc(bad), None, "{bad}");
    }
}
