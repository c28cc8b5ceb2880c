//! `weiqi export parquet -o DIR`: the event log as Apache Parquet files for analysts (pandas,
//! polars, DuckDB, Spark): `games.parquet`, `moves.parquet` and `results.parquet`.
//!
//! # Schema (version 2)
//! Every file carries the key-value metadata `weiqi.schema` = `<table>/<version>`. Columns are added in
//! later versions, never renamed, retyped or given another meaning. Enumerations are
//! dictionary-encoded strings; instants are `timestamp[ms, UTC]`; missing values are nulls.
//!
//! * **games**: `game_id`, `archived` (an imported record, or a game played here), `black_id`,
//!   `black_name`, `black_rank`, `black_rating`, and the same for White (the ratings the players
//!   held when the game was rated, from the rating ledger of `--rating-system`: the rating the
//!   computation started from, or for a game waiting for its Glicko-2 period or its EGF tournament
//!   the rating at the time it was recorded; null for a game not rated under that system, and in
//!   version 1 files), `played_at` (the record's date; a live game's start), `event` (`EV`, or the tournament), `round`, `place`, `rules`, `komi` (points), `handicap`,
//!   `size`, `time_system`, `result` (SGF `RE`), `reason` (count, resignation, time, forfeit,
//!   illegal-move, unknown, draw, void, warnings, referee, lateness, cycle; null for a game not
//!   finished: it has no result), `winner` (black, white, draw, none), `margin` (points, for a count), `move_count`, `duration_ms` (live games),
//!   `rating_system` (the system of the ratings, where there are any; since version 2).
//! * **moves**: `game_id`, `move_number` (from 1, passes count), `color`, `point` (SGF coordinates;
//!   null for a pass), `x`, `y` (0-based from the top left; null for a pass), `captures`,
//!   `time_used_ms` and `time_left_ms` (live games: time since the previous move, and the mover's
//!   main time plus current period left after it; null where unknown).
//! * **results**: one row per placing of each standings publication: `tournament_id`,
//!   `after_round`, `final`, `published_at`, `place`, `entrant`, `account_id`, `name_zh`,
//!   `name_latin`, `rank`, `club`, `region`, `criteria` and `values` (comma-separated, exact
//!   values such as `29/2`), `games`, `wins`, `byes`, `withdrawn`.
//!
//! # Bounded memory
//! Rows are gathered in batches of [`BATCH_ROWS`] and handed to the Parquet writer, whose row
//! groups are [`ROW_GROUP_ROWS`] rows; archived games are read one event at a time. A live game is
//! folded while its events arrive and its rows are written when it ends (or at the log's head).

use std::collections::HashMap;
use std::fs::File;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use arrow_array::builder::{
    BooleanBuilder, Float64Builder, Int64Builder, StringBuilder, StringDictionaryBuilder, TimestampMillisecondBuilder,
    UInt32Builder,
};
use arrow_array::types::Int32Type;
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef, TimeUnit};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use prost::Message;
use serde::Serialize;
use weiqi_archive::ArchivedGame;
use weiqi_eventlog::{AggregateKind, AnyEventLog};
use weiqi_game::convert::{decode_recorded, fold_recorded};
use weiqi_game::domain::{EndReason, GameEvent, GameState, Outcome};
use weiqi_proto::v1 as pb;

/// Rows gathered before they go to the writer.
pub const BATCH_ROWS: usize = 16_384;
/// Rows per Parquet row group.
pub const ROW_GROUP_ROWS: usize = 131_072;
/// The schema version written.
pub const SCHEMA_VERSION: u32 = 2;

fn dict() -> DataType {
    DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8))
}

fn timestamp() -> DataType {
    DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into()))
}

/// The `games` schema.
#[must_use]
pub fn games_schema() -> SchemaRef {
    let s = |n: &str, nullable| Field::new(n, DataType::Utf8, nullable);
    Arc::new(Schema::new(vec![
        s("game_id", false),
        Field::new("archived", DataType::Boolean, false),
        s("black_id", true),
        s("black_name", true),
        s("black_rank", true),
        Field::new("black_rating", DataType::Float64, true),
        s("white_id", true),
        s("white_name", true),
        s("white_rank", true),
        Field::new("white_rating", DataType::Float64, true),
        Field::new("played_at", timestamp(), true),
        s("event", true),
        s("round", true),
        s("place", true),
        Field::new("rules", dict(), true),
        Field::new("komi", DataType::Float64, true),
        Field::new("handicap", DataType::UInt32, false),
        Field::new("size", DataType::UInt32, false),
        Field::new("time_system", dict(), true),
        s("result", true),
        Field::new("reason", dict(), true),
        Field::new("winner", dict(), true),
        Field::new("margin", DataType::Float64, true),
        Field::new("move_count", DataType::UInt32, false),
        Field::new("duration_ms", DataType::Int64, true),
        Field::new("rating_system", dict(), true),
    ]))
}

/// The `moves` schema.
#[must_use]
pub fn moves_schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("game_id", DataType::Utf8, false),
        Field::new("move_number", DataType::UInt32, false),
        Field::new("color", dict(), false),
        Field::new("point", DataType::Utf8, true),
        Field::new("x", DataType::UInt32, true),
        Field::new("y", DataType::UInt32, true),
        Field::new("captures", DataType::UInt32, false),
        Field::new("time_used_ms", DataType::Int64, true),
        Field::new("time_left_ms", DataType::Int64, true),
    ]))
}

/// The `results` schema.
#[must_use]
pub fn results_schema() -> SchemaRef {
    let s = |n: &str| Field::new(n, DataType::Utf8, true);
    Arc::new(Schema::new(vec![
        Field::new("tournament_id", DataType::Utf8, false),
        Field::new("after_round", DataType::UInt32, false),
        Field::new("final", DataType::Boolean, false),
        Field::new("published_at", timestamp(), true),
        Field::new("place", DataType::UInt32, false),
        Field::new("entrant", DataType::UInt32, false),
        s("account_id"),
        s("name_zh"),
        s("name_latin"),
        s("rank"),
        s("club"),
        s("region"),
        s("criteria"),
        s("values"),
        Field::new("games", DataType::UInt32, false),
        Field::new("wins", DataType::UInt32, false),
        Field::new("byes", DataType::UInt32, false),
        Field::new("withdrawn", DataType::Boolean, false),
    ]))
}

/// One game's row.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameRow {
    pub game_id: String,
    pub archived: bool,
    pub black: (Option<String>, String, String),
    pub white: (Option<String>, String, String),
    pub played_at: Option<i64>,
    pub event: String,
    pub round: String,
    pub place: String,
    pub rules: String,
    pub komi: Option<f64>,
    pub handicap: u32,
    pub size: u32,
    pub time_system: String,
    pub result: String,
    pub reason: Option<String>,
    pub winner: String,
    pub margin: Option<f64>,
    pub move_count: u32,
    pub duration_ms: Option<i64>,
    /// Black's and White's ratings when the game was rated, and the system.
    pub ratings: Option<([Option<f64>; 2], &'static str)>,
}

/// One move's row.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveRow {
    pub number: u32,
    pub color: &'static str,
    /// (x, y), or `None` for a pass.
    pub point: Option<(u8, u8)>,
    pub captures: u32,
    pub time_used_ms: Option<i64>,
    pub time_left_ms: Option<i64>,
}

fn non_empty(s: &str) -> Option<&str> {
    (!s.is_empty()).then_some(s)
}

struct Games {
    id: StringBuilder,
    archived: BooleanBuilder,
    ids: [StringBuilder; 2],
    names: [StringBuilder; 2],
    ranks: [StringBuilder; 2],
    ratings: [Float64Builder; 2],
    played_at: TimestampMillisecondBuilder,
    event: StringBuilder,
    round: StringBuilder,
    place: StringBuilder,
    rules: StringDictionaryBuilder<Int32Type>,
    komi: Float64Builder,
    handicap: UInt32Builder,
    size: UInt32Builder,
    time_system: StringDictionaryBuilder<Int32Type>,
    result: StringBuilder,
    reason: StringDictionaryBuilder<Int32Type>,
    winner: StringDictionaryBuilder<Int32Type>,
    margin: Float64Builder,
    move_count: UInt32Builder,
    duration: Int64Builder,
    rating_system: StringDictionaryBuilder<Int32Type>,
    rows: usize,
}

impl Games {
    fn new() -> Games {
        Games {
            id: StringBuilder::new(),
            archived: BooleanBuilder::new(),
            ids: [StringBuilder::new(), StringBuilder::new()],
            names: [StringBuilder::new(), StringBuilder::new()],
            ranks: [StringBuilder::new(), StringBuilder::new()],
            ratings: [Float64Builder::new(), Float64Builder::new()],
            played_at: TimestampMillisecondBuilder::new().with_timezone("UTC"),
            event: StringBuilder::new(),
            round: StringBuilder::new(),
            place: StringBuilder::new(),
            rules: StringDictionaryBuilder::new(),
            komi: Float64Builder::new(),
            handicap: UInt32Builder::new(),
            size: UInt32Builder::new(),
            time_system: StringDictionaryBuilder::new(),
            result: StringBuilder::new(),
            reason: StringDictionaryBuilder::new(),
            winner: StringDictionaryBuilder::new(),
            margin: Float64Builder::new(),
            move_count: UInt32Builder::new(),
            duration: Int64Builder::new(),
            rating_system: StringDictionaryBuilder::new(),
            rows: 0,
        }
    }

    fn push(&mut self, g: &GameRow) {
        self.id.append_value(&g.game_id);
        self.archived.append_value(g.archived);
        for (i, side) in [&g.black, &g.white].into_iter().enumerate() {
            self.ids[i].append_option(side.0.as_deref());
            self.names[i].append_option(non_empty(&side.1));
            self.ranks[i].append_option(non_empty(&side.2));
            self.ratings[i].append_option(g.ratings.and_then(|(r, _)| r[i]));
        }
        self.played_at.append_option(g.played_at);
        self.event.append_option(non_empty(&g.event));
        self.round.append_option(non_empty(&g.round));
        self.place.append_option(non_empty(&g.place));
        match non_empty(&g.rules) {
            Some(r) => self.rules.append_value(r),
            None => self.rules.append_null(),
        }
        self.komi.append_option(g.komi);
        self.handicap.append_value(g.handicap);
        self.size.append_value(g.size);
        match non_empty(&g.time_system) {
            Some(t) => self.time_system.append_value(t),
            None => self.time_system.append_null(),
        }
        self.result.append_option(non_empty(&g.result));
        self.reason.append_option(g.reason.as_deref());
        self.winner.append_value(&g.winner);
        self.margin.append_option(g.margin);
        self.move_count.append_value(g.move_count);
        self.duration.append_option(g.duration_ms);
        match g.ratings {
            Some((_, system)) => self.rating_system.append_value(system),
            None => self.rating_system.append_null(),
        }
        self.rows += 1;
    }

    fn finish(&mut self) -> Vec<ArrayRef> {
        self.rows = 0;
        let [bi, wi] = &mut self.ids;
        let [bn, wn] = &mut self.names;
        let [br, wr] = &mut self.ranks;
        let [bg, wg] = &mut self.ratings;
        vec![
            Arc::new(self.id.finish()),
            Arc::new(self.archived.finish()),
            Arc::new(bi.finish()),
            Arc::new(bn.finish()),
            Arc::new(br.finish()),
            Arc::new(bg.finish()),
            Arc::new(wi.finish()),
            Arc::new(wn.finish()),
            Arc::new(wr.finish()),
            Arc::new(wg.finish()),
            Arc::new(self.played_at.finish()),
            Arc::new(self.event.finish()),
            Arc::new(self.round.finish()),
            Arc::new(self.place.finish()),
            Arc::new(self.rules.finish()),
            Arc::new(self.komi.finish()),
            Arc::new(self.handicap.finish()),
            Arc::new(self.size.finish()),
            Arc::new(self.time_system.finish()),
            Arc::new(self.result.finish()),
            Arc::new(self.reason.finish()),
            Arc::new(self.winner.finish()),
            Arc::new(self.margin.finish()),
            Arc::new(self.move_count.finish()),
            Arc::new(self.duration.finish()),
            Arc::new(self.rating_system.finish()),
        ]
    }
}

struct Moves {
    game: StringBuilder,
    number: UInt32Builder,
    color: StringDictionaryBuilder<Int32Type>,
    point: StringBuilder,
    x: UInt32Builder,
    y: UInt32Builder,
    captures: UInt32Builder,
    used: Int64Builder,
    left: Int64Builder,
    rows: usize,
}

impl Moves {
    fn new() -> Moves {
        Moves {
            game: StringBuilder::new(),
            number: UInt32Builder::new(),
            color: StringDictionaryBuilder::new(),
            point: StringBuilder::new(),
            x: UInt32Builder::new(),
            y: UInt32Builder::new(),
            captures: UInt32Builder::new(),
            used: Int64Builder::new(),
            left: Int64Builder::new(),
            rows: 0,
        }
    }

    fn push(&mut self, game: &str, m: &MoveRow) {
        self.game.append_value(game);
        self.number.append_value(m.number);
        self.color.append_value(m.color);
        match m.point {
            Some((x, y)) => {
                self.point.append_value(weiqi_rules::Point { x, y }.to_sgf());
                self.x.append_value(u32::from(x));
                self.y.append_value(u32::from(y));
            }
            None => {
                self.point.append_null();
                self.x.append_null();
                self.y.append_null();
            }
        }
        self.captures.append_value(m.captures);
        self.used.append_option(m.time_used_ms);
        self.left.append_option(m.time_left_ms);
        self.rows += 1;
    }

    fn finish(&mut self) -> Vec<ArrayRef> {
        self.rows = 0;
        vec![
            Arc::new(self.game.finish()),
            Arc::new(self.number.finish()),
            Arc::new(self.color.finish()),
            Arc::new(self.point.finish()),
            Arc::new(self.x.finish()),
            Arc::new(self.y.finish()),
            Arc::new(self.captures.finish()),
            Arc::new(self.used.finish()),
            Arc::new(self.left.finish()),
        ]
    }
}

/// A Parquet file being written.
struct Table {
    schema: SchemaRef,
    writer: ArrowWriter<File>,
    rows: u64,
}

impl Table {
    fn create(dir: &Path, name: &str, schema: SchemaRef) -> Result<Table> {
        let path = dir.join(format!("{name}.parquet"));
        let file = File::create(&path).with_context(|| format!("creating {}", path.display()))?;
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
            .set_key_value_metadata(Some(vec![KeyValue::new(
                "weiqi.schema".to_string(),
                format!("{name}/{SCHEMA_VERSION}"),
            )]))
            .build();
        let writer = ArrowWriter::try_new(file, schema.clone(), Some(props)).context("starting a Parquet file")?;
        Ok(Table { schema, writer, rows: 0 })
    }

    fn write(&mut self, columns: Vec<ArrayRef>) -> Result<()> {
        let batch = RecordBatch::try_new(self.schema.clone(), columns).context("a Parquet batch")?;
        self.rows += batch.num_rows() as u64;
        self.writer.write(&batch).context("writing Parquet")?;
        Ok(())
    }

    fn close(self) -> Result<u64> {
        self.writer.close().context("finishing a Parquet file")?;
        Ok(self.rows)
    }
}

/// Writes `games.parquet`, `moves.parquet` and `results.parquet` as rows are given.
pub struct ParquetSink {
    games: Games,
    moves: Moves,
    game_table: Table,
    move_table: Table,
    results: Table,
}

/// What an export wrote.
#[derive(Debug, Default, Clone, PartialEq, Serialize)]
pub struct ParquetSummary {
    pub games: u64,
    pub moves: u64,
    pub results: u64,
    pub archived: u64,
    pub live: u64,
    /// Live games whose log does not replay (left out): id and reason.
    pub corrupt: Vec<(String, String)>,
    pub seconds: f64,
}

impl ParquetSink {
    /// Creates the three files in `dir`.
    ///
    /// # Errors
    /// The directory or a file cannot be made.
    pub fn create(dir: &Path) -> Result<ParquetSink> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        Ok(ParquetSink {
            games: Games::new(),
            moves: Moves::new(),
            game_table: Table::create(dir, "games", games_schema())?,
            move_table: Table::create(dir, "moves", moves_schema())?,
            results: Table::create(dir, "results", results_schema())?,
        })
    }

    /// Adds one game with its moves.
    ///
    /// # Errors
    /// Writing fails.
    pub fn game(&mut self, row: &GameRow, moves: impl IntoIterator<Item = MoveRow>) -> Result<()> {
        self.games.push(row);
        for m in moves {
            self.moves.push(&row.game_id, &m);
            if self.moves.rows >= BATCH_ROWS {
                let columns = self.moves.finish();
                self.move_table.write(columns)?;
            }
        }
        if self.games.rows >= BATCH_ROWS {
            let columns = self.games.finish();
            self.game_table.write(columns)?;
        }
        Ok(())
    }

    /// Adds one standings publication.
    ///
    /// # Errors
    /// Writing fails.
    pub fn published(&mut self, p: &pb::TournamentResultsPublished) -> Result<()> {
        let mut tid = StringBuilder::new();
        let mut after = UInt32Builder::new();
        let mut fin = BooleanBuilder::new();
        let mut at = TimestampMillisecondBuilder::new().with_timezone("UTC");
        let mut place = UInt32Builder::new();
        let mut entrant = UInt32Builder::new();
        let mut text: Vec<StringBuilder> = (0..8).map(|_| StringBuilder::new()).collect();
        let mut games = UInt32Builder::new();
        let mut wins = UInt32Builder::new();
        let mut byes = UInt32Builder::new();
        let mut withdrawn = BooleanBuilder::new();
        let criteria = p.criteria.join(",");
        for pl in &p.placings {
            let row = pl.row.clone().unwrap_or_default();
            tid.append_value(&p.tournament_id);
            after.append_value(p.after_round);
            fin.append_value(p.r#final);
            at.append_option((p.published_at_ms != 0).then_some(p.published_at_ms));
            place.append_value(row.place);
            entrant.append_value(row.entrant);
            let values = row.values.join(",");
            for (b, v) in text.iter_mut().zip([
                &row.account_id,
                &row.name_zh,
                &row.name_latin,
                &row.rank,
                &row.club,
                &row.region,
                &criteria,
                &values,
            ]) {
                b.append_option(non_empty(v));
            }
            games.append_value(row.games);
            wins.append_value(row.wins);
            byes.append_value(pl.byes);
            withdrawn.append_value(row.withdrawn);
        }
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(tid.finish()),
            Arc::new(after.finish()),
            Arc::new(fin.finish()),
            Arc::new(at.finish()),
            Arc::new(place.finish()),
            Arc::new(entrant.finish()),
        ];
        columns.extend(text.iter_mut().map(|b| Arc::new(b.finish()) as ArrayRef));
        columns.push(Arc::new(games.finish()));
        columns.push(Arc::new(wins.finish()));
        columns.push(Arc::new(byes.finish()));
        columns.push(Arc::new(withdrawn.finish()));
        self.results.write(columns)
    }

    /// Flushes and closes the files: (games, moves, results) rows.
    ///
    /// # Errors
    /// Writing fails.
    pub fn close(mut self) -> Result<(u64, u64, u64)> {
        if self.games.rows > 0 {
            let c = self.games.finish();
            self.game_table.write(c)?;
        }
        if self.moves.rows > 0 {
            let c = self.moves.finish();
            self.move_table.write(c)?;
        }
        Ok((self.game_table.close()?, self.move_table.close()?, self.results.close()?))
    }
}

/// An archived game as rows.
#[must_use]
pub fn archived_rows(g: &ArchivedGame) -> (GameRow, Vec<MoveRow>) {
    let color = |c: weiqi_rules::Color| match c {
        weiqi_rules::Color::Black => "black",
        weiqi_rules::Color::White => "white",
    };
    let moves = g
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| MoveRow {
            number: i as u32 + 1,
            color: color(m.color),
            point: m.point.map(|p| (p.x, p.y)),
            captures: m.captures,
            time_used_ms: None,
            time_left_ms: None,
        })
        .collect::<Vec<_>>();
    let winner = match g.winner {
        weiqi_archive::Winner::Black => "black",
        weiqi_archive::Winner::White => "white",
        weiqi_archive::Winner::Draw => "draw",
        weiqi_archive::Winner::None => "none",
    };
    let time_system = match (g.time_limit.as_str(), g.overtime.as_str()) {
        ("", "") => String::new(),
        (tm, "") => format!("TM {tm}"),
        ("", ot) => ot.to_string(),
        (tm, ot) => format!("TM {tm}, {ot}"),
    };
    let row = GameRow {
        game_id: g.id.clone(),
        archived: true,
        black: (None, g.black.0.clone(), g.black.1.clone()),
        white: (None, g.white.0.clone(), g.white.1.clone()),
        played_at: g.played_at().map(|m| m.0),
        event: if g.event.is_empty() { g.imported_as.clone() } else { g.event.clone() },
        round: g.round.clone(),
        place: g.place.clone(),
        rules: g.rules.clone(),
        komi: g.komi_halves.map(|h| f64::from(h) / 2.0),
        handicap: u32::from(g.handicap),
        size: u32::from(g.size),
        time_system,
        result: g.result.clone(),
        reason: Some(g.reason.name().to_string()),
        winner: winner.to_string(),
        margin: (g.reason == weiqi_archive::Reason::Count).then(|| f64::from(g.margin_halves) / 2.0),
        move_count: moves.len() as u32,
        duration_ms: None,
        ratings: None,
    };
    (row, moves)
}

fn time_system_name(tc: &weiqi_clock::TimeControl) -> String {
    use weiqi_clock::TimeSystem as T;
    let m = |d: weiqi_clock::DurationMs| d.as_millis() / 60_000;
    let s = |d: weiqi_clock::DurationMs| d.as_millis() / 1_000;
    match tc.system {
        T::NoClock => "none".into(),
        T::Absolute { main } => format!("absolute {}m", m(main)),
        T::ChineseByoYomi { basic, reserved_minutes } => {
            format!("chinese {}m ({reserved_minutes}m reserved)", m(basic))
        }
        T::JapaneseByoYomi { main, periods, period } => format!("japanese {}m + {periods}x{}s", m(main), s(period)),
        T::MovesPerPeriod { main, moves, period } => format!("moves-per-period {}m + {moves}/{}s", m(main), s(period)),
        T::Canadian { main, moves, period } => format!("canadian {}m + {moves}/{}s", m(main), s(period)),
        T::Fischer { initial, increment, .. } => format!("fischer {}m + {}s", m(initial), s(increment)),
    }
}

/// A live game being folded: its state and the rows of its moves so far.
#[derive(Default)]
struct Live {
    state: GameState,
    moves: Vec<MoveRow>,
    started: Option<i64>,
    last_at: Option<i64>,
    ended_at: Option<i64>,
    broken: Option<String>,
}

impl Live {
    fn take(&mut self, r: &weiqi_eventlog::RecordedEvent) {
        if self.broken.is_some() {
            return;
        }
        if let Err(why) = fold_recorded(&mut self.state, r) {
            self.broken = Some(why);
            return;
        }
        let Ok(recorded) = decode_recorded(r) else { return };
        let color = |c: weiqi_rules::Color| match c {
            weiqi_rules::Color::Black => "black",
            weiqi_rules::Color::White => "white",
        };
        let left = |c: weiqi_rules::Color, clock: &Option<weiqi_game::domain::ClockSnapshot>| {
            clock.map(|k| {
                let side = if c == weiqi_rules::Color::Black { k.black } else { k.white };
                side.main.as_millis() + side.period_left.as_millis()
            })
        };
        match &recorded.event {
            GameEvent::Started { at } => {
                self.started = Some(at.0);
                self.last_at = Some(at.0);
            }
            GameEvent::StonePlayed { color: c, point, captures, number, at, clock, .. } => {
                self.moves.push(MoveRow {
                    number: *number,
                    color: color(*c),
                    point: Some((point.x, point.y)),
                    captures: captures.len() as u32,
                    time_used_ms: self.last_at.map(|t| at.0 - t),
                    time_left_ms: left(*c, clock),
                });
                self.last_at = Some(at.0);
            }
            GameEvent::Passed { color: c, number, at, clock, .. } => {
                self.moves.push(MoveRow {
                    number: *number,
                    color: color(*c),
                    point: None,
                    captures: 0,
                    time_used_ms: self.last_at.map(|t| at.0 - t),
                    time_left_ms: left(*c, clock),
                });
                self.last_at = Some(at.0);
            }
            _ => {}
        }
        if self.state.phase == weiqi_game::domain::Phase::Ended && self.ended_at.is_none() {
            self.ended_at = Some(self.state.last_at.0);
        }
    }

    fn row(&self, id: &str) -> Option<GameRow> {
        let setup = self.state.setup.as_ref()?;
        let side = |p: &Option<weiqi_game::domain::PlayerRef>| match p {
            Some(p) => (Some(p.id.0.clone()), p.name.clone(), p.rank.clone()),
            None => (None, String::new(), String::new()),
        };
        let result = self.state.result.as_ref();
        let (winner, reason) = match result {
            // A game not finished has no result, hence no reason (it is not void).
            None => ("none", None),
            Some(r) => {
                let winner = match r.outcome {
                    Outcome::BlackWins => "black",
                    Outcome::WhiteWins => "white",
                    Outcome::Draw => "draw",
                    _ => "none",
                };
                let reason = match r.reason {
                    EndReason::Score => "count",
                    EndReason::Resignation => "resignation",
                    EndReason::Time => "time",
                    EndReason::Forfeit => "forfeit",
                    EndReason::Warnings => "warnings",
                    EndReason::Referee => "referee",
                    EndReason::Lateness => "lateness",
                    EndReason::Cycle => "cycle",
                };
                (winner, Some(reason.to_string()))
            }
        };
        let margin = result.and_then(|r| r.score.as_ref()).map(|s| f64::from(s.result.margin.0) / 2.0);
        Some(GameRow {
            game_id: id.to_string(),
            archived: false,
            black: side(&self.state.black),
            white: side(&self.state.white),
            played_at: self.started,
            event: setup
                .tournament
                .as_ref()
                .map(|t| t.id.clone())
                .or_else(|| setup.event_id.clone())
                .unwrap_or_default(),
            round: setup.tournament.as_ref().map(|t| t.round.to_string()).unwrap_or_default(),
            place: String::new(),
            rules: setup.ruleset.family.name().to_string(),
            komi: Some(setup.ruleset.komi.points()),
            handicap: u32::from(setup.handicap),
            size: u32::from(setup.size),
            time_system: time_system_name(&setup.time_control),
            result: result.map(|r| r.to_sgf()).unwrap_or_default(),
            reason,
            winner: winner.to_string(),
            margin,
            move_count: self.state.move_number,
            duration_ms: self.started.zip(self.ended_at).map(|(s, e)| e - s),
            ratings: None,
        })
    }
}

/// Each rated game's players' ratings when it was rated ([Black, White], by game id), from the
/// rating ledger of `system` (`_ledger-<name>` in the player logs), folded through the rating core's
/// book: a game rated at once has the ratings its computation started from; a game waiting for its
/// Glicko-2 period or its EGF tournament has the ratings stored when it was recorded (none for a
/// player not rated yet).
///
/// # Errors
/// The log cannot be read, or a ledger entry does not decode.
pub async fn ratings_at_the_time(
    log: &AnyEventLog,
    system: &weiqi_rating::RatingSystem,
) -> Result<HashMap<String, [Option<f64>; 2]>> {
    use weiqi_rating::RatingEvent;
    let ledger = format!("_ledger-{}", system.name());
    let mut book = weiqi_rating::RatingBook::new(system.clone());
    let mut out = HashMap::new();
    super::archive::read_to_head(log, AggregateKind::Player, |r| {
        if r.aggregate_id.as_str() != ledger || r.event_type != weiqi_ranking::codec::LEDGER_TYPE {
            return Ok(());
        }
        let entry = weiqi_ranking::codec::read_ledger(r).map_err(|e| anyhow::anyhow!("{ledger}: {e}"))?;
        for e in &entry.events {
            match e {
                RatingEvent::GameRated { game, black, white } => {
                    out.insert(game.id.0.clone(), [Some(black.before.rating), Some(white.before.rating)]);
                }
                RatingEvent::GameQueued { game, .. } | RatingEvent::TournamentGameQueued { game } => {
                    let stored = |p| book.stored(p).map(|s| s.rating);
                    out.insert(game.id.0.clone(), [stored(&game.black), stored(&game.white)]);
                }
                _ => {}
            }
            book.evolve(e);
        }
        Ok(())
    })
    .await?;
    Ok(out)
}

/// Exports `log` into `sink`: archived games, live games (ended or not), standings publications;
/// ratings at the time from the ledger of `system`.
///
/// # Errors
/// Reading the log or writing fails.
pub async fn export(
    log: &AnyEventLog,
    mut sink: ParquetSink,
    system: &weiqi_rating::RatingSystem,
    progress: &indicatif::ProgressBar,
) -> Result<ParquetSummary> {
    let start = Instant::now();
    let ratings = ratings_at_the_time(log, system).await?;
    let name = system.name();
    let rated = |row: &mut GameRow| row.ratings = ratings.get(&row.game_id).map(|r| (*r, name));
    let archived = super::archive::read_all(log, |g| {
        let (mut row, moves) = archived_rows(&g);
        rated(&mut row);
        progress.inc(1);
        sink.game(&row, moves)
    })
    .await?;
    let mut summary = ParquetSummary { archived, ..ParquetSummary::default() };

    // Live games, folded as their events arrive; each written when it ends, the rest at the head.
    let mut live: HashMap<String, Live> = HashMap::new();
    let mut failed = None;
    super::archive::read_to_head(log, AggregateKind::Game, |r| {
        let id = r.aggregate_id.as_str().to_string();
        let game = live.entry(id.clone()).or_default();
        game.take(r);
        if game.ended_at.is_some()
            && let Some(done) = live.remove(&id)
            && let Err(e) = write_live(&mut sink, &id, done, &rated, &mut summary)
        {
            failed = Some(e);
        }
        Ok(())
    })
    .await?;
    if let Some(e) = failed {
        return Err(e);
    }
    let mut rest: Vec<(String, Live)> = live.into_iter().collect();
    rest.sort_by(|a, b| a.0.cmp(&b.0));
    for (id, game) in rest {
        write_live(&mut sink, &id, game, &rated, &mut summary)?;
    }

    // Standings publications (the public event of each tournament's log).
    super::archive::read_to_head(log, AggregateKind::Tournament, |r| {
        if r.event_type == weiqi_tournament::codec::log::RESULTS_PUBLISHED {
            let p = pb::TournamentResultsPublished::decode(r.payload.clone())
                .with_context(|| format!("standings of {}", r.aggregate_id))?;
            sink.published(&p)?;
        }
        Ok(())
    })
    .await?;
    let (games, moves, results) = sink.close()?;
    summary.games = games;
    summary.moves = moves;
    summary.results = results;
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

fn write_live(
    sink: &mut ParquetSink,
    id: &str,
    game: Live,
    rated: &impl Fn(&mut GameRow),
    summary: &mut ParquetSummary,
) -> Result<()> {
    if let Some(why) = game.broken {
        summary.corrupt.push((id.to_string(), why));
        return Ok(());
    }
    if let Some(mut row) = game.row(id) {
        rated(&mut row);
        summary.live += 1;
        sink.game(&row, game.moves)?;
    }
    Ok(())
}

/// The command: export to `out`, with a spinner and a summary (`--json`: one object).
pub async fn run(log: AnyEventLog, out: &Path, system: &weiqi_rating::RatingSystem, json: bool) -> Result<()> {
    let sink = ParquetSink::create(out)?;
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {pos} games, {per_sec} {msg}").expect("a template"),
    );
    if json {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    } else {
        bar.enable_steady_tick(Duration::from_millis(200));
    }
    let summary = export(&log, sink, system, &bar).await?;
    bar.finish_and_clear();
    if json {
        println!("{}", serde_json::to_string(&summary)?);
    } else {
        println!(
            "{} games ({} archived, {} played here), {} moves, {} standings rows written to {} in {:.1} s",
            summary.games,
            summary.archived,
            summary.live,
            summary.moves,
            summary.results,
            out.display(),
            summary.seconds
        );
        for (id, why) in &summary.corrupt {
            eprintln!("  left out {id}: {why}");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::Array as _;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{TimestampMillisecondType, UInt32Type};
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use weiqi_eventlog::{EmbeddedConfig, EmbeddedLog};

    fn read(path: &Path) -> (Vec<RecordBatch>, String) {
        let file = File::open(path).unwrap();
        let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
        let meta = builder.metadata().file_metadata().key_value_metadata().cloned().unwrap_or_default();
        let schema = meta.iter().find(|kv| kv.key == "weiqi.schema").and_then(|kv| kv.value.clone()).unwrap();
        (builder.build().unwrap().map(Result::unwrap).collect(), schema)
    }

    /// Two archived records and one game played here, exported and read back by the `parquet` crate:
    /// row counts, types and values.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_log_exports_as_parquet_that_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let log: AnyEventLog = EmbeddedLog::open(dir.path().join("e.redb"), EmbeddedConfig::default()).unwrap().into();
        let a = dir.path().join("a.sgf");
        let b = dir.path().join("b.sgf");
        std::fs::write(
            &a,
            "(;GM[1]FF[4]SZ[9]KM[7]PB[Li]BR[2d]PW[Wang]WR[1d]DT[2003-05-12]EV[Spring]RE[B+3.5];B[ee];W[cc];B[gc];W[])",
        )
        .unwrap();
        std::fs::write(&b, "(;GM[1]FF[4]SZ[19]HA[2]AB[dd][pp]PB[Zhao]PW[Qian]RE[W+R];W[pd];B[dp])").unwrap();
        let imported =
            super::super::archive::import(&log, &[a, b], "test", &indicatif::ProgressBar::hidden()).await.unwrap();
        assert_eq!(imported.imported, 2);
        // A game played here, resigned after two moves.
        let svc = Arc::new(weiqi_game::service::GameService::new(log.clone()));
        super::super::export::tests::game(&svc, "live-1", &[(4, 4), (2, 2)], true).await;
        // And one still being played: no result, so no reason.
        super::super::export::tests::game(&svc, "live-2", &[(4, 4), (2, 2)], false).await;

        // Li and Wang are members here: the archived game between them is rated (Elo), after both
        // are seeded from its ranks.
        let key = dir.path().join("association.key");
        weiqi_ranking::keys::load_or_create(&key, "cwa").unwrap();
        let elo = weiqi_rating::RatingSystem::Elo(Default::default());
        let with = || super::super::archive::RateWith {
            key: key.clone(),
            association: "cwa".into(),
            system: elo.clone(),
            rules: weiqi_ranking::shipped_rules(),
        };
        let ranking = super::super::archive::ranking_service(&log, with()).unwrap();
        for id in ["Li", "Wang"] {
            let profile = weiqi_ranking::registry::Profile {
                id: weiqi_rating::PlayerId(id.into()),
                name_latin: id.into(),
                ..Default::default()
            };
            ranking.register_player(profile, None, "org", id).await.unwrap();
        }
        let rated = super::super::archive::rate(&log, &imported, with()).await.unwrap();
        assert_eq!(rated.rated, 1, "{rated:?}");
        let seeds: HashMap<String, f64> = rated.seeded.iter().map(|(p, r)| (p.0.clone(), *r)).collect();

        let out = dir.path().join("out");
        let summary =
            export(&log, ParquetSink::create(&out).unwrap(), &elo, &indicatif::ProgressBar::hidden()).await.unwrap();
        assert_eq!((summary.games, summary.archived, summary.live, summary.moves), (4, 2, 2, 4 + 2 + 2 + 2));

        let (games, schema) = read(&out.join("games.parquet"));
        assert_eq!(schema, "games/2");
        assert_eq!(games.len(), 1, "four rows: one batch");
        let games = &games[0];
        assert_eq!(games.num_rows(), 4);
        assert_eq!(games.schema().as_ref(), games_schema().as_ref(), "the documented schema");
        let column = |name: &str| games.column_by_name(name).unwrap().clone();
        let ids = column("game_id");
        let ids = ids.as_string::<i32>();
        let row = (0..4).find(|&i| ids.value(i) == "live-1").unwrap();
        let playing = (0..4).find(|&i| ids.value(i) == "live-2").unwrap();
        let archived = column("archived");
        assert!(!archived.as_boolean().value(row));
        let first = (0..4).find(|&i| column("black_name").as_string::<i32>().value(i) == "Li").unwrap();
        assert_eq!(column("komi").as_primitive::<arrow_array::types::Float64Type>().value(first), 7.0);
        assert_eq!(column("margin").as_primitive::<arrow_array::types::Float64Type>().value(first), 3.5);
        assert_eq!(column("move_count").as_primitive::<UInt32Type>().value(first), 4);
        let played = column("played_at");
        let played = played.as_primitive::<TimestampMillisecondType>();
        assert_eq!(played.value(first), "2003-05-12".parse::<weiqi_rating::CivilDate>().unwrap().to_millis().0);
        let reason = column("reason");
        let reason = reason.as_dictionary::<Int32Type>();
        let names = reason.values().as_string::<i32>();
        assert_eq!(names.value(reason.keys().value(first) as usize), "count");
        assert_eq!(names.value(reason.keys().value(row) as usize), "resignation");
        assert!(reason.is_null(playing), "a game being played has no reason");
        // Ratings at the time: the seeds Li (2d) and Wang (1d) held when their game was rated; none
        // for the games nobody rated.
        let rating = |side: &str, i: usize| {
            let c = column(&format!("{side}_rating"));
            let c = c.as_primitive::<arrow_array::types::Float64Type>();
            c.is_valid(i).then(|| c.value(i))
        };
        assert_eq!((rating("black", first), rating("white", first)), (Some(seeds["Li"]), Some(seeds["Wang"])));
        assert!(seeds["Li"] > seeds["Wang"], "{seeds:?}");
        assert_eq!((rating("black", row), rating("white", row)), (None, None));
        let system = column("rating_system");
        let system = system.as_dictionary::<Int32Type>();
        assert_eq!(system.values().as_string::<i32>().value(system.keys().value(first) as usize), "elo");
        assert!(system.is_null(row));

        let (moves, schema) = read(&out.join("moves.parquet"));
        assert_eq!(schema, "moves/2");
        let n: usize = moves.iter().map(RecordBatch::num_rows).sum();
        assert_eq!(n, 10);
        let passes: usize = moves.iter().map(|b| b.column_by_name("point").unwrap().null_count()).sum();
        assert_eq!(passes, 1, "the pass");
        let (results, schema) = read(&out.join("results.parquet"));
        assert_eq!((results.iter().map(RecordBatch::num_rows).sum::<usize>(), schema.as_str()), (0, "results/2"));

        // An independent reader: pyarrow (installed by .ci/run).
        pyarrow_reads(&out);
    }

    /// pyarrow reads the three files with the row counts and values the export wrote.
    fn pyarrow_reads(out: &Path) {
        let have = std::process::Command::new("python3").args(["-c", "import pyarrow"]).status();
        if !have.is_ok_and(|s| s.success()) {
            assert!(std::env::var_os("WEIQI_REQUIRE_EXTERNAL").is_none(), "pyarrow is required (pip install pyarrow)");
            eprintln!("pyarrow missing: the independent read is skipped");
            return;
        }
        let script = r#"
import sys, pyarrow.parquet as pq, pyarrow as pa
d = sys.argv[1]
g = pq.read_table(d + "/games.parquet")
m = pq.read_table(d + "/moves.parquet")
r = pq.read_table(d + "/results.parquet")
assert (g.num_rows, m.num_rows, r.num_rows) == (4, 10, 0), (g.num_rows, m.num_rows, r.num_rows)
assert pq.read_metadata(d + "/games.parquet").metadata[b"weiqi.schema"] == b"games/2"
assert pa.types.is_timestamp(g.schema.field("played_at").type)
assert pa.types.is_dictionary(g.schema.field("reason").type)
rows = {row["game_id"]: row for row in g.to_pylist()}
li = [row for row in rows.values() if row["black_name"] == "Li"][0]
assert (li["komi"], li["margin"], li["winner"], li["reason"], li["size"]) == (7.0, 3.5, "black", "count", 9), li
assert str(li["played_at"].date()) == "2003-05-12", li["played_at"]
assert rows["live-1"]["archived"] is False and rows["live-1"]["reason"] == "resignation"
assert rows["live-2"]["reason"] is None and rows["live-2"]["winner"] == "none", rows["live-2"]
assert li["black_rating"] > li["white_rating"] and li["rating_system"] == "elo", li
assert rows["live-1"]["black_rating"] is None and rows["live-1"]["rating_system"] is None
assert sum(1 for x in m.column("point").to_pylist() if x is None) == 1
print("pyarrow", pa.__version__, "reads", g.num_rows, "games and", m.num_rows, "moves")
"#;
        let run = std::process::Command::new("python3").args(["-c", script]).arg(out).output().unwrap();
        assert!(
            run.status.success(),
            "pyarrow: {}{}",
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        );
        println!("{}", String::from_utf8_lossy(&run.stdout).trim());
    }
}
