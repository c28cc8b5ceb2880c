//! The path [`crate::tournaments`] reads the results port's conversions from; they live in
//! [`crate::codec::results`] with the rest of the codec.

pub use crate::codec::RESULTS_TYPE;
pub use crate::codec::results::{BadResults, results_from_pb, results_pb};
