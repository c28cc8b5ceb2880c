//! SGF reading, writing and replay on small records written for these tests.

use proptest::prelude::*;
use weiqi_rules::{Color, Illegal, Komi, Move, Point, Ruleset};
use weiqi_sgf::{
    Collection, GameInfo, GameTree, ParseError, Property, Record, RecordError, ReplayError, SgfError, from_game,
    from_game_with, load, parse, parse_str, write,
};

#[test]
fn a_gb2312_record_without_ca_is_detected_and_decoded() {
    // 黑 (black) and 白 (white) in GBK, with no CA property.
    let mut bytes = b"(;GM[1]SZ[9]PB[".to_vec();
    bytes.extend_from_slice(&[0xba, 0xda, 0xc6, 0xe5, 0xca, 0xd6]); // 黑棋手
    bytes.extend_from_slice(b"]PW[");
    bytes.extend_from_slice(&[0xb0, 0xd7, 0xc6, 0xe5, 0xca, 0xd6]); // 白棋手
    bytes.extend_from_slice(b"]C[");
    let (gbk, _, _) = encoding_rs::GBK.encode("这是一盘中国围棋比赛的棋谱，黑棋先行，白棋贴目。");
    bytes.extend_from_slice(&gbk);
    bytes.extend_from_slice(b"];B[ee];W[cc])");
    let c = parse(&bytes).unwrap();
    let r = Record::from_tree(&c.games[0]).unwrap();
    assert_eq!(r.black.name.as_deref(), Some("黑棋手"));
    assert_eq!(r.white.name.as_deref(), Some("白棋手"));
    assert_eq!(c.charset.name(), "GB18030");
}

#[test]
fn declared_charsets_are_honoured() {
    let c = parse(b"(;CA[ISO-8859-1]PB[Ricard Vil\xe0]C[cr\xe9\xe9])").unwrap();
    assert_eq!(c.games[0].root().value("PB"), Some("Ricard Vilà"));
    let c = parse(b"(;CA[UTF-8]PB[\xe5\xb7\xa7\xe8\x8a])").unwrap();
    assert_eq!(c.games[0].root().value("PB"), Some("巧\u{fffd}"), "a name cut mid-character survives");
}

#[test]
fn fox_komi_passes_and_handicap_are_understood() {
    let r = |s: &str| Record::from_tree(&parse_str(s).unwrap().games[0]).unwrap();
    assert_eq!(r("(;KM[375])").komi, Some(Komi(15)));
    assert_eq!(r("(;KM[750])").komi, Some(Komi(15)));
    assert_eq!(r("(;KM[0]HA[2]AB[dp][pd];W[qp])").ruleset().komi, Komi(0));
    let rec = r("(;SZ[19];B[pd];W[tt];B[])");
    let moves: Vec<_> = rec.moves().collect();
    assert_eq!(moves[1], (Color::White, Move::Pass), "tt is a pass on 19×19");
    assert_eq!(moves[2], (Color::Black, Move::Pass));
    let big = r("(;SZ[21];B[tt])");
    assert_eq!(big.moves().next(), Some((Color::Black, Move::Play(Point::new(19, 19)))), "tt is a point on 21×21");
    let h = r("(;SZ[19]HA[2]AB[dp][pd]RU[Chinese]KM[0];W[qp])");
    let game = h.replay(h.ruleset()).unwrap();
    assert_eq!(game.handicap(), 2);
}

#[test]
fn compressed_point_lists_and_setup_are_expanded() {
    let r = Record::from_tree(&parse_str("(;SZ[5]AB[aa:bb]AW[dd]PL[W])").unwrap().games[0]).unwrap();
    assert_eq!(r.setup.black.len(), 4);
    assert_eq!(r.setup.white, vec![Point::new(3, 3)]);
    assert_eq!(r.setup.to_move, Some(Color::White));
    let game = r.replay(r.ruleset()).unwrap();
    assert_eq!(game.to_move(), Color::White);
}

#[test]
fn bad_input_gets_an_error_that_points_at_it() {
    let err = |s: &str| load(s.as_bytes()).unwrap_err();
    assert_eq!(err("(;SZ[19]KM[6.5"), SgfError::Parse(ParseError::UnclosedValue { offset: 10, property: "KM".into() }));
    assert_eq!(err("(;SZ[19:13])"), SgfError::Record(RecordError::BadSize { offset: 2, value: "19:13".into() }));
    assert_eq!(err("(;SZ[52])"), SgfError::Record(RecordError::UnsupportedSize(52)));
    assert_eq!(err("(;KM[lots])"), SgfError::Record(RecordError::BadKomi { offset: 2, value: "lots".into() }));
    assert!(matches!(err("(;SZ[9];B[zz])"), SgfError::Record(RecordError::BadPoint { offset: 8, .. })));
    assert_eq!(err("(;GM[2])"), SgfError::Record(RecordError::NotGo { offset: 2, value: "2".into() }));
    // A move onto a stone: move number, point and reason.
    assert_eq!(
        err("(;SZ[9];B[ee];W[ee])"),
        SgfError::Replay(ReplayError::Illegal {
            move_number: 2,
            color: Color::White,
            point: Point::new(4, 4),
            vertex: "E5".into(),
            reason: Illegal::Occupied,
        })
    );
    // Suicide, and a ko retaken at once, are named as such.
    let suicide = "(;SZ[5]AB[ba][ab];W[aa])";
    assert!(matches!(
        err(suicide),
        SgfError::Replay(ReplayError::Illegal { reason: Illegal::Suicide, move_number: 1, .. })
    ));
    let ko = "(;SZ[5]RU[Chinese]AB[ba][ab][cb]AW[ca][db][cc];W[bb];B[bc];W[bd];B[bb];W[cb])";
    let e = err(ko);
    assert!(matches!(e, SgfError::Replay(ReplayError::Illegal { .. })), "{e}");
}

#[test]
fn the_main_line_is_replayed_and_variations_survive_a_round_trip() {
    let text = "(;GM[1]FF[4]SZ[9]C[root \\] comment];B[ee](;W[cc];B[gg])(;W[gc]C[a variation](;B[cg])(;B[gg])))";
    let c = parse_str(text).unwrap();
    let r = Record::from_tree(&c.games[0]).unwrap();
    assert_eq!(r.moves().count(), 3);
    assert_eq!(r.comment.as_deref(), Some("root ] comment"));
    let again = parse_str(&write(&c)).unwrap();
    assert_eq!(strip(&again), strip(&c));
    assert_eq!(again.games[0].variation_points(), 2);
}

#[test]
fn a_game_played_through_the_rules_core_is_written_and_read_back() {
    let mut g = weiqi_rules::Game::with_fixed_handicap(9, Ruleset::chinese(), 2).unwrap();
    for (c, v) in [(Color::White, "E5"), (Color::Black, "D4"), (Color::White, "pass")] {
        g.play(c, Move::from_gtp(v, 9).unwrap()).unwrap();
    }
    let sgf = from_game(&g, Some("Black"), Some("White"), None);
    let (record, replayed) = load(sgf.as_bytes()).unwrap();
    assert_eq!(record.handicap, 2);
    assert_eq!(replayed.board(), g.board());
    assert_eq!(replayed.hash(), g.hash());
}

#[test]
fn game_information_is_written_and_read_back() {
    let mut g = weiqi_rules::Game::new(9, Ruleset::japanese()).unwrap();
    g.play(Color::Black, Move::from_gtp("E5", 9).unwrap()).unwrap();
    g.play(Color::White, Move::Pass).unwrap();
    let info = GameInfo {
        black: Some("李 [Li]"),
        white: Some("Wang"),
        black_rank: Some("3d"),
        white_rank: Some("2d"),
        result: Some("B+R"),
        date: Some("2026-11-30"),
        event: Some("City league"),
        round: Some("3"),
        name: Some("t-city-r3-b1"),
        comment: Some(""),
        notes: &[(0, "before [1]".to_string()), (2, "after move 2".to_string()), (2, "and again".to_string())],
    };
    let text = from_game_with(&g, &info);
    assert!(text.contains("C[before [1\\]]"), "a note on the root, escaped: {text}");
    assert!(text.contains("C[after move 2\nand again]"), "two notes on one node: {text}");
    assert!(!text.contains("GC["), "empty fields are left out: {text}");
    let (record, replayed) = load(text.as_bytes()).unwrap();
    assert_eq!((record.black.name.as_deref(), record.black.rank.as_deref()), (Some("李 [Li]"), Some("3d")));
    assert_eq!((record.white.name.as_deref(), record.white.rank.as_deref()), (Some("Wang"), Some("2d")));
    assert_eq!((record.result.as_deref(), record.date.as_deref()), (Some("B+R"), Some("2026-11-30")));
    assert_eq!((record.event.as_deref(), record.round.as_deref()), (Some("City league"), Some("3")));
    assert_eq!(record.game_name.as_deref(), Some("t-city-r3-b1"));
    assert!(record.rules.as_deref().is_some_and(|r| r.eq_ignore_ascii_case("japanese")), "{:?}", record.rules);
    assert_eq!(replayed.hash(), g.hash());
}

/// A node's properties as (identifier, values) pairs.
type Props = Vec<(String, Vec<String>)>;

/// The tree without byte offsets, for comparing a parse with a parse of the written text.
fn strip(c: &Collection) -> Vec<Vec<(Props, Vec<usize>)>> {
    c.games
        .iter()
        .map(|g| {
            g.nodes
                .iter()
                .map(|n| {
                    (n.properties.iter().map(|p| (p.ident.clone(), p.values.clone())).collect(), n.children.clone())
                })
                .collect()
        })
        .collect()
}

fn arb_tree() -> impl Strategy<Value = GameTree> {
    let ident = prop::sample::select(vec!["B", "W", "C", "AB", "GN", "PB", "XX", "KM"]);
    let value = "[a-z\\]\\\\:()\\[;\u{4e00}-\u{4e10} ]{0,12}";
    let prop_strategy = (ident, prop::collection::vec(value, 1..3)).prop_map(|(i, values)| Property {
        ident: i.to_string(),
        values,
        offset: 0,
    });
    let node_props = prop::collection::vec(prop_strategy, 0..4);
    // Parent choices: each new node attaches to any earlier node.
    prop::collection::vec((node_props, any::<prop::sample::Index>()), 1..30).prop_map(|nodes| {
        let mut tree = GameTree::new();
        let mut first = true;
        for (props, parent) in nodes {
            if first {
                tree.root_mut().properties = props;
                first = false;
            } else {
                let p = parent.index(tree.nodes.len());
                tree.add_child(p, props);
            }
        }
        tree
    })
}

proptest! {
    #[test]
    fn writing_then_parsing_gives_the_same_tree(trees in prop::collection::vec(arb_tree(), 1..3)) {
        let c = Collection { games: trees, charset: weiqi_sgf::Charset::Utf8 };
        let again = parse_str(&write(&c)).unwrap();
        // Node order in the arena follows the text, so compare through a canonical walk.
        prop_assert_eq!(canonical(&again), canonical(&c));
    }

    #[test]
    fn parsing_arbitrary_bytes_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = weiqi_sgf::load(&bytes);
    }
}

/// Depth-first listing of (depth, properties), children in order.
fn canonical(c: &Collection) -> Vec<Vec<(usize, Props)>> {
    c.games
        .iter()
        .map(|g| {
            let mut out = Vec::new();
            let mut stack = vec![(0usize, 0usize)];
            while let Some((i, depth)) = stack.pop() {
                let n = &g.nodes[i];
                out.push((depth, n.properties.iter().map(|p| (p.ident.clone(), p.values.clone())).collect()));
                for &child in n.children.iter().rev() {
                    stack.push((child, depth + 1));
                }
            }
            out
        })
        .collect()
}

#[test]
fn a_fractional_handicap_is_read_with_a_warning_and_counted_from_the_setup() {
    let rec = Record::from_tree(&parse_str("(;SZ[19]HA[7.5]AB[dp][pd][dd]KM[0.5];W[qp])").unwrap().games[0]).unwrap();
    assert_eq!(rec.handicap, 3);
    assert_eq!(
        rec.warnings,
        vec![weiqi_sgf::RecordWarning::BadHandicap { offset: 8, value: "7.5".into(), counted: 3 }]
    );
    assert!(rec.warnings[0].to_string().contains("HA[7.5]"), "{}", rec.warnings[0]);
    assert_eq!(rec.replay(rec.ruleset()).unwrap().handicap(), 3);
    let plain = Record::from_tree(&parse_str("(;SZ[9]HA[x];B[ee])").unwrap().games[0]).unwrap();
    assert_eq!((plain.handicap, plain.warnings.len()), (0, 1), "no setup stones: no handicap");
}

#[test]
fn rules_are_written_with_their_ff4_names_and_read_in_every_common_spelling() {
    let written = |rules: Ruleset| {
        let mut g = weiqi_rules::Game::new(9, rules).unwrap();
        g.play(Color::Black, Move::Play(Point::new(4, 4))).unwrap();
        let sgf = from_game_with(&g, &GameInfo::default());
        let ru = sgf.split("RU[").nth(1).and_then(|r| r.split(']').next()).unwrap().to_string();
        let back = Record::from_tree(&parse_str(&sgf).unwrap().games[0]).unwrap().ruleset();
        assert_eq!(back, rules, "{ru} reads back as the same rules");
        ru
    };
    assert_eq!(written(Ruleset::chinese()), "Chinese");
    assert_eq!(written(Ruleset::japanese()), "Japanese");
    assert_eq!(written(Ruleset::korean()), "Korean", "Korean is never written as Japanese");
    assert_eq!(written(Ruleset::aga()), "AGA");
    assert_eq!(written(Ruleset::new_zealand()), "NZ");
    assert_eq!(written(Ruleset::ing()), "GOE", "Ing is GOE, not New Zealand");
    assert_eq!(written(Ruleset::tromp_taylor()), "Tromp-Taylor");
    for (spelling, rules) in [
        ("New Zealand", Ruleset::new_zealand()),
        ("nz", Ruleset::new_zealand()),
        ("Tromp/Taylor", Ruleset::tromp_taylor()),
        ("TT", Ruleset::tromp_taylor()),
        ("Ing", Ruleset::ing()),
        ("goe", Ruleset::ing()),
        ("korean", Ruleset::korean()),
        ("CN", Ruleset::chinese()),
        ("aga", Ruleset::aga()),
    ] {
        assert_eq!(Ruleset::preset(spelling), Some(rules), "{spelling}");
    }
}
