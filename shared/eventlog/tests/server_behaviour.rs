//! What the installed nats-server does with a retried `Nats-Msg-Id` whose expected last
//! subject sequence is stale (the first try landed). Versions differ (2.9 acks a duplicate,
//! 2.15 refuses with WrongLastSequence); the log handles both, and this test records which one
//! the server under test does, and that it never stores the retry.

use async_nats::jetstream::{self, context::PublishErrorKind, message::PublishMessage};
use weiqi_testkit::{NatsServer, require};

#[tokio::test]
async fn a_retried_msg_id_with_a_stale_expected_sequence_is_never_stored_twice() {
    let server = require!(NatsServer::start_async().await);
    let js = jetstream::new(async_nats::connect(server.url()).await.unwrap());
    js.create_stream(jetstream::stream::Config {
        name: "S".into(),
        subjects: vec!["s.*".into()],
        ..Default::default()
    })
    .await
    .unwrap();
    let publish =
        || PublishMessage::build().payload("move".into()).message_id("cmd-1").expected_last_subject_sequence(0);
    let first = js.send_publish("s.g", publish()).await.unwrap().await.unwrap();
    assert!(!first.duplicate);
    let retry = js.send_publish("s.g", publish()).await.unwrap().await;
    match retry {
        Ok(ack) => {
            assert!(ack.duplicate);
            assert_eq!(ack.sequence, first.sequence);
            eprintln!("nats-server {}: duplicate ack", server.version());
        }
        Err(e) => {
            assert_eq!(e.kind(), PublishErrorKind::WrongLastSequence);
            eprintln!("nats-server {}: WrongLastSequence", server.version());
        }
    }
    let mut stream = js.get_stream("S").await.unwrap();
    assert_eq!(stream.info().await.unwrap().state.messages, 1);
}
