//! Time: the platform's one [`Millis`] and [`DurationMs`], from `weiqi-time`.

pub use weiqi_time::{DurationMs, Millis};
