//! Printing benchmark results: a readable table, then (with `--json`) one JSON object on the last line.

use serde::Serialize;

/// Prints `rows` (label, value, target) as a table, then the JSON object if asked.
pub fn report<T: Serialize>(title: &str, rows: &[(&str, String, &str)], json: Option<&T>) {
    let w0 = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(6);
    let w1 = rows.iter().map(|r| r.1.len()).max().unwrap_or(0).max(5);
    println!("{title}");
    println!("  {:<w0$}  {:>w1$}  target", "figure", "value");
    for (label, value, target) in rows {
        println!("  {label:<w0$}  {value:>w1$}  {target}");
    }
    if let Some(j) = json {
        println!("{}", serde_json::to_string(j).expect("reports serialise"));
    }
}

/// The median of some samples (sorted in place).
pub fn median(samples: &mut [f64]) -> f64 {
    samples.sort_by(f64::total_cmp);
    let n = samples.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 { samples[n / 2] } else { (samples[n / 2 - 1] + samples[n / 2]) / 2.0 }
}
