//! Measurements for `weiqi bench e2e`: raw JetStream acked publishes, the yardstick the game
//! service's throughput is compared with.

use std::time::{Duration, Instant};

use async_nats::jetstream::context::ContextBuilder;
use async_nats::jetstream::message::PublishMessage;
use async_nats::jetstream::stream::{Config as StreamConfig, StorageType};

use crate::{LogError, subjects};

/// What [`raw_publish_per_sec`] measured.
#[derive(Debug, Clone, PartialEq)]
pub struct RawPublishReport {
    /// Messages published and acknowledged.
    pub messages: usize,
    /// Payload size of each.
    pub payload_bytes: usize,
    /// Subjects published to concurrently (one sequential publisher per subject).
    pub subjects: usize,
    /// Wall time of the whole run.
    pub elapsed: Duration,
    /// Acknowledged publishes per second.
    pub per_sec: f64,
    /// Median publish-to-ack latency.
    pub p50: Duration,
    /// 99th percentile publish-to-ack latency.
    pub p99: Duration,
}

/// Publishes `messages` messages of `payload_bytes` bytes, spread over `subjects` subjects with
/// one sequential publisher each (all subjects concurrently), every publish with a
/// `Nats-Msg-Id` and an expected last subject sequence, as the event log does, awaiting every
/// ack. Uses a scratch file stream `WEIQI_BENCH_RAW` (subjects `weiqi.bench.*`) that it creates
/// and deletes.
pub async fn raw_publish_per_sec(
    client: &async_nats::Client,
    payload_bytes: usize,
    messages: usize,
    subjects: usize,
) -> Result<RawPublishReport, LogError> {
    let unavailable = |e: async_nats::Error| LogError::Unavailable(e);
    let js = ContextBuilder::new()
        .timeout(Duration::from_secs(10))
        .max_ack_inflight(subjects.max(1) * 2)
        .backpressure_on_inflight(true)
        .build(client.clone());
    let name = subjects::bench_stream("weiqi");
    let _ = js.delete_stream(&name).await;
    js.create_stream(StreamConfig {
        name: name.clone(),
        subjects: vec![subjects::bench_wildcard("weiqi")],
        storage: StorageType::File,
        allow_direct: true,
        // Benchmark data only: it goes by itself an hour later (the next run deletes it anyway), so
        // a benchmark run against a production server leaves nothing behind for long.
        max_age: Duration::from_secs(3_600),
        ..Default::default()
    })
    .await
    .map_err(|e| unavailable(e.into()))?;

    let subjects = subjects.max(1);
    let payload = bytes::Bytes::from(vec![0x5a_u8; payload_bytes]);
    let started = Instant::now();
    let tasks: Vec<_> = (0..subjects)
        .map(|s| {
            let js = js.clone();
            let payload = payload.clone();
            let count = messages / subjects + usize::from(s < messages % subjects);
            tokio::spawn(async move {
                let subject = subjects::bench_subject("weiqi", s);
                let mut latencies = Vec::with_capacity(count);
                let mut last = 0u64;
                for n in 0..count {
                    let publish = PublishMessage::build()
                        .payload(payload.clone())
                        .message_id(format!("bench-{s}-{n}"))
                        .expected_last_subject_sequence(last);
                    let sent = Instant::now();
                    let ack = js
                        .send_publish(subject.clone(), publish)
                        .await
                        .map_err(async_nats::Error::from)?
                        .await
                        .map_err(async_nats::Error::from)?;
                    latencies.push(sent.elapsed());
                    last = ack.sequence;
                }
                Ok::<_, async_nats::Error>(latencies)
            })
        })
        .collect();
    let mut latencies = Vec::with_capacity(messages);
    for task in tasks {
        let done = task.await.map_err(|e| unavailable(e.into()))?;
        latencies.extend(done.map_err(unavailable)?);
    }
    let elapsed = started.elapsed();
    let _ = js.delete_stream(&name).await;
    latencies.sort_unstable();
    let quantile =
        |q: f64| latencies.get(((latencies.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or_default();
    Ok(RawPublishReport {
        messages: latencies.len(),
        payload_bytes,
        subjects,
        elapsed,
        per_sec: latencies.len() as f64 / elapsed.as_secs_f64().max(1e-9),
        p50: quantile(0.5),
        p99: quantile(0.99),
    })
}
