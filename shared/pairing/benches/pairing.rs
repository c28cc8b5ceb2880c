//! Criterion benchmarks (placeholder).
fn main() {}
