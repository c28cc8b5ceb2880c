//! The JetStream key-value buckets the gateways share (the open challenges, who has a game's page
//! open): opened if they exist, else made with one entry's history and the given age limit.

/// Opens the bucket `name`, or makes it.
///
/// # Errors
/// JetStream is unreachable or refuses the bucket.
pub async fn bucket(
    client: async_nats::Client,
    name: &str,
    description: &str,
    max_age: std::time::Duration,
) -> Result<async_nats::jetstream::kv::Store, String> {
    let js = async_nats::jetstream::new(client);
    if let Ok(b) = js.get_key_value(name).await {
        return Ok(b);
    }
    js.create_key_value(async_nats::jetstream::kv::Config {
        bucket: name.into(),
        description: description.into(),
        history: 1,
        max_age,
        ..Default::default()
    })
    .await
    .map_err(|e| e.to_string())
}
