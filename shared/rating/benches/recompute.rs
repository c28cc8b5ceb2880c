//! Placeholder; replaced by the criterion bench below.
fn main() {}
