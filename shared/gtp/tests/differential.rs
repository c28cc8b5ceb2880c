//! Differential test against GNU Go 3.8 (`gnugo --mode gtp --chinese-rules`, with
//! `--positional-superko` / `--situational-superko` / `--allow-suicide` to match our settings).
//!
//! Seeded random games on 5×5, 9×9 and 19×19, under simple ko, positional and situational superko,
//! each with suicide forbidden and allowed. After every move (and every refused move and undo) the
//! same batch of GTP commands goes to GNU Go and, in process, to our [`Engine`]:
//! `list_stones black`, `list_stones white`, `captures black`, `captures white`, `is_legal` for both
//! colors on every empty point, `countlib` on stones, and every few moves `all_legal` for both
//! colors. The answers must be byte-for-byte equal.
//!
//! The move generator is biased toward what makes rules differ: it plays eye-filling moves, prefers
//! captures and suicides half the time, passes now and then (so superko sees passes), tries illegal
//! moves (occupied, ko, superko, suicide) that both engines must refuse, and undoes moves.
//!
//! One divergence is expected and checked rather than ignored: GNU Go 3.8 tests superko by
//! simulating the move with `really_do_trymove`, which never removes a suicided chain
//! (`engine/board.c`, `is_superko_violation`), so a multi-stone suicide that recreates an earlier
//! position is legal for GNU Go under both superko rules. It is not legal under either rule (the
//! board after the move repeats). At such points we must answer `is_legal` with `0` where GNU Go
//! answers `1` (and `all_legal` must list them for GNU Go only); the generator never plays them.
//! `tests/transcripts.rs` pins the smallest example.
//!
//! Games stop at three consecutive passes (two passes do not end a GTP game, and a retake after two
//! passes is a classic superko case) or before GNU Go's move history (500 moves, `board.h`
//! `MAX_MOVE_HISTORY`) would start forgetting positions, after which its superko is no longer
//! complete.
//!
//! `WEIQI_DIFF_GAMES` sets the number of games (default 200, split over the three ko rules);
//! `WEIQI_DIFF_SEED` the base seed. GNU Go is found through `$WEIQI_GNUGO`, `PATH` or `/usr/games`;
//! without it the test prints a notice and skips, unless `WEIQI_REQUIRE_EXTERNAL=1`.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

use weiqi_gtp::{Config, Engine};
use weiqi_rules::random::SplitMix64;
use weiqi_rules::{Board, Color, Game, Illegal, KoRule, Move, Point, Ruleset, Suicide};
use weiqi_testkit::{external_tool, skip_or_fail};

/// One rules setting, for both engines.
#[derive(Clone, Copy, Debug)]
struct Rules {
    ko: KoRule,
    suicide: Suicide,
}

impl Rules {
    fn gnugo_args(self) -> Vec<&'static str> {
        let mut args = vec!["--mode", "gtp", "--chinese-rules", "--quiet"];
        args.push(match self.ko {
            KoRule::Simple => "--simple-ko",
            KoRule::PositionalSuperko => "--positional-superko",
            KoRule::SituationalSuperko => "--situational-superko",
        });
        args.push(match self.suicide {
            Suicide::Forbidden => "--forbid-suicide",
            Suicide::Allowed => "--allow-suicide",
        });
        args
    }

    fn ruleset(self) -> Ruleset {
        Ruleset { ko: self.ko, suicide: self.suicide, ..Ruleset::chinese() }
    }

    fn label(self) -> String {
        format!("{:?}/{:?}", self.ko, self.suicide)
    }
}

/// GNU Go in GTP mode, fed in batches: a whole batch is written, then all its answers are read.
struct GnuGo {
    child: Child,
    input: BufWriter<ChildStdin>,
    output: BufReader<ChildStdout>,
}

impl GnuGo {
    fn start(program: &Path, rules: Rules) -> GnuGo {
        let mut child = Command::new(program)
            .args(rules.gnugo_args())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
        let input = BufWriter::new(child.stdin.take().expect("piped stdin"));
        let output = BufReader::new(child.stdout.take().expect("piped stdout"));
        GnuGo { child, input, output }
    }

    /// Sends every command, then reads one response per command, each in wire form (`"= 1\n\n"`).
    /// Batches stay far below the pipe buffers (a few thousand bytes), so writing everything first
    /// cannot deadlock.
    fn batch(&mut self, commands: &[String]) -> Vec<String> {
        for c in commands {
            self.input.write_all(c.as_bytes()).unwrap();
            self.input.write_all(b"\n").unwrap();
        }
        self.input.flush().expect("gnugo stopped reading");
        commands.iter().map(|c| self.response(c)).collect()
    }

    fn response(&mut self, command: &str) -> String {
        let mut text = String::new();
        loop {
            let mut line = String::new();
            let n = self.output.read_line(&mut line).unwrap();
            assert!(n > 0, "gnugo closed its output while answering {command:?}");
            if line == "\n" {
                if text.is_empty() {
                    continue;
                }
                text.push('\n');
                return text;
            }
            text.push_str(&line);
        }
    }
}

impl Drop for GnuGo {
    fn drop(&mut self) {
        let _ = self.input.write_all(b"quit\n");
        let _ = self.input.flush();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the generator does next.
#[derive(Clone, Copy, Debug)]
enum Step {
    Play(Color, Move),
    /// A move our rules refuse, with the reason; both engines must answer `? illegal move`.
    Refused(Color, Point, Illegal),
    Undo,
}

/// Counts for the report.
#[derive(Default, Debug)]
struct Tally {
    games: usize,
    by_size: [usize; 3],
    moves: usize,
    refused: usize,
    refused_ko: usize,
    refused_superko: usize,
    refused_suicide: usize,
    undos: usize,
    captures: usize,
    ko_captures: usize,
    suicides: usize,
    queries: usize,
    superko_points: usize,
    gnugo_blind_spots: usize,
    mismatches: Vec<String>,
}

/// The base seed and the number of games for one ko rule.
fn settings(parts: usize) -> (u64, usize) {
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.trim().parse::<u64>().ok());
    let total = env("WEIQI_DIFF_GAMES").unwrap_or(200) as usize;
    (env("WEIQI_DIFF_SEED").unwrap_or(0x5EED_2026), total.div_ceil(parts))
}

/// The size of game `i`: of every 20 games, 12 on 5×5, 6 on 9×9 and 2 on 19×19.
fn size_of(i: usize) -> u8 {
    match i % 20 {
        9 | 19 => 19,
        3 | 6 | 12 | 14 | 16 | 18 => 9,
        _ => 5,
    }
}

/// The longest game for a size: below GNU Go's 500-move history, and shorter on small boards,
/// where the interesting repetitions come early.
fn move_limit(size: u8) -> usize {
    match size {
        5 => 300,
        9 => 400,
        _ => 490,
    }
}

fn run(ko: KoRule) {
    let Some(gnugo) = skip_or_fail(external_tool("gnugo", &["/usr/games"])) else { return };
    let (base_seed, games) = settings(3);
    let started = Instant::now();
    let mut tally = Tally::default();
    for suicide in [Suicide::Forbidden, Suicide::Allowed] {
        let rules = Rules { ko, suicide };
        let mut gg = GnuGo::start(&gnugo, rules);
        for i in (0..games).filter(|i| (i % 2 == 0) == (suicide == Suicide::Forbidden)) {
            let seed = base_seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ ko as u64;
            play_game(&mut gg, rules, size_of(i), seed, &mut tally);
            if tally.mismatches.len() >= 5 {
                break;
            }
        }
    }
    eprintln!(
        "differential {ko:?}: {} games ({} on 5×5, {} on 9×9, {} on 19×19), {} moves, {} refused moves \
         ({} ko, {} superko, {} suicide), {} undos, {} captures ({} ko captures), {} suicides, \
         {} queries compared ({} superko-forbidden points, {} of them multi-stone suicides GNU Go \
         allows), {} mismatches, {:.1} s",
        tally.games,
        tally.by_size[0],
        tally.by_size[1],
        tally.by_size[2],
        tally.moves,
        tally.refused,
        tally.refused_ko,
        tally.refused_superko,
        tally.refused_suicide,
        tally.undos,
        tally.captures,
        tally.ko_captures,
        tally.suicides,
        tally.queries,
        tally.superko_points,
        tally.gnugo_blind_spots,
        tally.mismatches.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        tally.mismatches.is_empty(),
        "{} mismatches with GNU Go:\n{}",
        tally.mismatches.len(),
        tally.mismatches.join("\n")
    );
    if ko != KoRule::Simple {
        assert!(tally.superko_points > 0, "no position where superko forbade a point: the test did not bite");
    }
    assert!(tally.ko_captures > 0 && tally.refused_ko > 0, "no ko fights: the test did not bite");
}

fn play_game(gg: &mut GnuGo, rules: Rules, size: u8, seed: u64, tally: &mut Tally) {
    let mut ours = Engine::new(Config::new(rules.ruleset(), seed));
    let mut rng = SplitMix64(seed);
    let mut history: Vec<String> = vec![format!("boardsize {size}"), "clear_board".to_string()];
    let setup = history.clone();
    let answers: Vec<String> = setup.iter().map(|c| wire(&mut ours, c)).collect();
    let theirs = gg.batch(&setup);
    assert_eq!(answers, theirs, "setup answers differ");
    tally.games += 1;
    tally.by_size[match size {
        5 => 0,
        9 => 1,
        _ => 2,
    }] += 1;
    let mut step_number = 0;
    while ours.game().consecutive_passes() < 3 && ours.game().move_number() < move_limit(size) {
        step_number += 1;
        let before = ours.game().clone();
        let step = choose(&before, &mut rng);
        let command = match step {
            Step::Play(color, mv) => format!("play {color} {}", mv.to_gtp(size)),
            Step::Refused(color, p, _) => format!("play {color} {}", p.to_gtp(size)),
            Step::Undo => "undo".to_string(),
        };
        history.push(command.clone());
        let mut batch = vec![command];
        let first = wire(&mut ours, &batch[0]);
        let mut answers = vec![first.clone()];
        let mut tolerated: Vec<Option<String>> = vec![None];
        match step {
            Step::Play(color, mv) => {
                assert_eq!(first, "= \n\n", "our engine refused a move its own rules allow: {}", batch[0]);
                tally.moves += 1;
                let game = ours.game();
                let took = game.prisoners(color) - before.prisoners(color);
                let lost = game.prisoners(color.opponent()) - before.prisoners(color.opponent());
                tally.captures += usize::from(took > 0);
                tally.suicides += usize::from(lost > 0);
                tally.ko_captures += usize::from(game.ko_point().is_some() && matches!(mv, Move::Play(_)));
            }
            Step::Refused(_, _, reason) => {
                assert_eq!(first, "? illegal move\n\n", "refused move accepted: {}", batch[0]);
                tally.refused += 1;
                match reason {
                    Illegal::Ko => tally.refused_ko += 1,
                    Illegal::Superko => tally.refused_superko += 1,
                    Illegal::Suicide => tally.refused_suicide += 1,
                    _ => {}
                }
            }
            Step::Undo => tally.undos += 1,
        }
        for (q, gnugo_may_say) in queries(ours.game(), step_number, &mut rng, tally) {
            answers.push(wire(&mut ours, &q));
            batch.push(q);
            tolerated.push(gnugo_may_say);
        }
        let theirs = gg.batch(&batch);
        tally.queries += batch.len();
        let mut mismatches = Vec::new();
        for (i, (a, b)) in answers.iter().zip(&theirs).enumerate() {
            if a == b {
                continue;
            }
            if tolerated[i].as_ref() == Some(b) {
                tally.gnugo_blind_spots += usize::from(batch[i].starts_with("is_legal"));
                continue;
            }
            mismatches.push(format!("  {:?}: ours {a:?}, gnugo {b:?}", batch[i]));
        }
        if !mismatches.is_empty() {
            tally.mismatches.push(format!(
                "{} {}×{} seed {seed:#x}, step {step_number}:\n{}\nposition before:\n{}replay with:\n{}",
                rules.label(),
                size,
                size,
                mismatches.join("\n"),
                before.board().to_ascii(),
                history.join("\n")
            ));
            return;
        }
    }
}

/// The queries after a step: stones, captures, `is_legal` for both colors on every empty point,
/// `countlib` on stones (all of them on small boards, a sample on 19×19), and `all_legal` every
/// few steps. Each comes with the answer GNU Go may give instead of ours, where its superko blind
/// spot makes it differ.
fn queries(game: &Game, step: usize, rng: &mut SplitMix64, tally: &mut Tally) -> Vec<(String, Option<String>)> {
    let size = game.size();
    let board = game.board();
    let mut q: Vec<(String, Option<String>)> =
        ["list_stones black", "list_stones white", "captures black", "captures white"]
            .iter()
            .map(|c| (c.to_string(), None))
            .collect();
    let mut stones = Vec::new();
    let mut blind = [Vec::new(), Vec::new()];
    for p in board.points() {
        let v = p.to_gtp(size);
        match board.get(p) {
            None => {
                for color in [Color::Black, Color::White] {
                    let mut tolerated = None;
                    if game.check(color, Move::Play(p)) == Err(Illegal::Superko) {
                        tally.superko_points += 1;
                        if is_suicide(board, color, p) {
                            tolerated = Some("= 1\n\n".to_string());
                            blind[color.index()].push(p);
                        }
                    }
                    q.push((format!("is_legal {color} {v}"), tolerated));
                }
            }
            Some(_) => stones.push(v),
        }
    }
    let sample = if size > 9 { 12 } else { stones.len() };
    for _ in 0..sample.min(stones.len()) {
        let i = rng.below(stones.len());
        q.push((format!("countlib {}", stones.swap_remove(i)), None));
    }
    if step.is_multiple_of(7) {
        for color in [Color::Black, Color::White] {
            let blind = &blind[color.index()];
            let tolerated = (!blind.is_empty()).then(|| {
                let mut points = game.legal_points(color);
                points.extend(blind);
                points.sort_by_key(|p| (p.y, p.x));
                let list: Vec<String> = points.iter().map(|p| p.to_gtp(size)).collect();
                format!("= {}\n\n", list.join(" "))
            });
            q.push((format!("all_legal {color}"), tolerated));
        }
    }
    q
}

/// Whether `color` at the empty point `p` would leave its own chain without liberties and capture
/// nothing, worked out from the public board API (independently of the rules crate's own check).
fn is_suicide(board: &Board, color: Color, p: Point) -> bool {
    let size = board.size();
    let (x, y) = (p.x as i16, p.y as i16);
    for (dx, dy) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
        let (nx, ny) = (x + dx, y + dy);
        if nx < 0 || ny < 0 || nx >= size as i16 || ny >= size as i16 {
            continue;
        }
        let n = Point::new(nx as u8, ny as u8);
        let liberties = board.liberties(n);
        match board.get(n) {
            None => return false,
            Some(c) if c == color && liberties > Some(1) => return false,
            Some(c) if c != color && liberties == Some(1) => return false,
            Some(_) => {}
        }
    }
    true
}

/// Picks the next step for the side to move.
fn choose(game: &Game, rng: &mut SplitMix64) -> Step {
    let color = game.to_move();
    // A third of the time, try to retake a ko at once.
    if let Some((p, c)) = game.ko_point()
        && c == color
        && rng.below(3) == 0
        && let Err(e) = game.check(color, Move::Play(p))
    {
        return Step::Refused(color, p, e);
    }
    // Whole-board repetitions are what superko is about: try one whenever there is one, half the
    // time. (Multi-stone suicides among them are GNU Go's blind spot: never played.)
    let superko: Vec<Point> = game
        .board()
        .points()
        .filter(|&p| game.check(color, Move::Play(p)) == Err(Illegal::Superko) && !is_suicide(game.board(), color, p))
        .collect();
    if !superko.is_empty() && rng.below(2) == 0 {
        return Step::Refused(color, superko[rng.below(superko.len())], Illegal::Superko);
    }
    // On small boards passes come in runs (a pass after a ko capture, or after a pass, makes
    // repetitions likely); on 19×19 they stay rare, so that games fill the board.
    let just_passed = matches!(game.actions().last(), Some(weiqi_rules::Action::Pass(_)));
    let small = game.size() <= 9;
    let r = rng.below(1000);
    if r < 25 || (small && (just_passed || game.ko_point().is_some()) && rng.below(4) == 0) {
        return Step::Play(color, Move::Pass);
    }
    if r < 110 {
        let refused: Vec<(Point, Illegal)> = game
            .board()
            .points()
            .filter_map(|p| game.check(color, Move::Play(p)).err().map(|e| (p, e)))
            .filter(|&(p, e)| !(e == Illegal::Superko && is_suicide(game.board(), color, p)))
            .collect();
        // Pick the reason first (occupied, ko, superko, suicide: whichever occur), then the point, so
        // that the rare reasons are tried as often as the common ones.
        let mut reasons: Vec<Illegal> = refused.iter().map(|&(_, e)| e).collect();
        reasons.sort_by_key(|e| e.code());
        reasons.dedup();
        if !reasons.is_empty() {
            let reason = reasons[rng.below(reasons.len())];
            let pool: Vec<Point> = refused.iter().filter(|&&(_, e)| e == reason).map(|&(p, _)| p).collect();
            return Step::Refused(color, pool[rng.below(pool.len())], reason);
        }
    }
    if r < 130 && game.move_number() > 0 {
        return Step::Undo;
    }
    let legal = game.legal_points(color);
    if legal.is_empty() {
        return Step::Play(color, Move::Pass);
    }
    if r < 560 {
        // Half the time, a capture or a suicide if one of a few sampled moves is one.
        for _ in 0..24 {
            let p = legal[rng.below(legal.len())];
            let mut trial = game.clone();
            if let Ok(played) = trial.play(color, Move::Play(p))
                && (played.captured > 0 || played.suicided > 0)
            {
                return Step::Play(color, Move::Play(p));
            }
        }
    }
    Step::Play(color, Move::Play(legal[rng.below(legal.len())]))
}

fn wire(engine: &mut Engine, command: &str) -> String {
    engine.execute_line(command).expect("a command, not an empty line").to_wire()
}

#[test]
fn simple_ko_matches_gnugo() {
    run(KoRule::Simple);
}

#[test]
fn positional_superko_matches_gnugo() {
    run(KoRule::PositionalSuperko);
}

#[test]
fn situational_superko_matches_gnugo() {
    run(KoRule::SituationalSuperko);
}
