//! How much the clock costs the game service: one move folded, one reading, a 300-move game replayed.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use weiqi_clock::{Clock, ClockEvent, DurationMs, LagReport, Millis, Side, TimeControl, replay};

fn game(moves: i64) -> Vec<ClockEvent> {
    let mut events = vec![ClockEvent::Started { at: Millis(0) }];
    let mut side = Side::Black;
    for n in 1..=moves {
        // 7-23 s per move, with a lag report.
        let at = Millis(n * 15_000 + (n * 7_919) % 8_000);
        events.push(ClockEvent::Moved { side, at, report: Some(LagReport::Lag(DurationMs(120))) });
        side = side.opponent();
    }
    events
}

fn benches(c: &mut Criterion) {
    let control = TimeControl::national(DurationMs::from_mins(60)).expect("valid control");
    let events = game(300);
    let clock = replay(control.clone(), Side::Black, &events[..200]).expect("valid game");
    let next = events[200].clone();
    c.bench_function("apply one move (Chinese byo-yomi)", |b| b.iter(|| black_box(&clock).apply(black_box(&next))));
    c.bench_function("reading at now", |b| b.iter(|| black_box(&clock).reading(black_box(Millis(3_000_000)))));
    c.bench_function("next byo-yomi call", |b| b.iter(|| black_box(&clock).next_call(black_box(Millis(3_000_000)))));
    c.bench_function("replay a 300-move game", |b| {
        b.iter(|| replay(control.clone(), Side::Black, black_box(&events)).map(|c: Clock| c.to_move()))
    });
}

criterion_group!(clock, benches);
criterion_main!(clock);
