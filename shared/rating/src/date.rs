//! Civil dates (UTC): the platform's one date type, from `weiqi-time`.

pub use weiqi_time::{BadDate, CivilDate};
