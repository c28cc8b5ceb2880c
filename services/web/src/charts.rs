//! Charts drawn on the server as SVG documents (`plotters`' SVG backend), so a page shows them
//! without a script and prints them as they show: the rating chart of a player's profile, and the
//! bar charts of statistics, shared by the profile pages and `weiqi stats --svg`.
//!
//! Each function returns the SVG text, or `None` when there is nothing to draw (the rating chart of
//! a player without a rating) or `plotters` refuses the figure.

use plotters::prelude::*;
use weiqi_ranking::domain::RatingPoint;

use crate::i18n::{Lang, t};

/// The rating chart: one point per rating change, oldest first.
#[must_use]
pub fn rating_chart(lang: Lang, ratings: &[RatingPoint]) -> Option<String> {
    if ratings.is_empty() {
        return None;
    }
    let values: Vec<f64> = ratings.iter().map(|r| r.rating).collect();
    let (lo, hi) = values.iter().fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
    let pad = ((hi - lo) * 0.1).max(20.0);
    let n = values.len();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (640, 280)).into_drawing_area();
        root.fill(&WHITE).ok()?;
        let mut chart = ChartBuilder::on(&root)
            .margin(12)
            .x_label_area_size(28)
            .y_label_area_size(48)
            .build_cartesian_2d(0i32..(i32::try_from(n).unwrap_or(i32::MAX - 1) + 1), (lo - pad)..(hi + pad))
            .ok()?;
        chart
            .configure_mesh()
            .x_desc(t(lang, "profile-chart-x"))
            .y_desc(t(lang, "profile-rating"))
            .x_labels(n.min(12) + 2)
            .x_label_formatter(&|x| x.to_string())
            .y_label_formatter(&|y| format!("{y:.0}"))
            .light_line_style(RGBColor(235, 235, 235))
            .draw()
            .ok()?;
        let ink = RGBColor(20, 90, 160);
        let points: Vec<(i32, f64)> =
            values.iter().enumerate().map(|(i, v)| (i32::try_from(i + 1).unwrap_or(i32::MAX), *v)).collect();
        chart.draw_series(LineSeries::new(points.clone(), ink.stroke_width(2))).ok()?;
        chart.draw_series(points.iter().map(|p| Circle::new(*p, 3, ink.filled()))).ok()?;
        root.present().ok()?;
    }
    Some(svg)
}

/// A bar chart of `bars` (label, value) from 0 to `y_max`, `width` × `height` pixels, with a
/// caption when `title` is not empty.
#[must_use]
pub fn bar_chart(
    title: &str,
    y_label: &str,
    bars: &[(String, f64)],
    y_max: f64,
    (width, height): (u32, u32),
) -> Option<String> {
    // An empty chart still draws its axes (a report over no games).
    let y_max = if y_max.is_finite() && y_max > 0.0 { y_max } else { 1.0 };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).ok()?;
        // A segmented axis has one segment more than its range's values (plotters' `Last`), so
        // `0..n - 1` gives one segment per bar.
        let n = bars.len().max(1);
        let mut builder = ChartBuilder::on(&root);
        builder.margin(12).x_label_area_size(40).y_label_area_size(56);
        if !title.is_empty() {
            builder.caption(title, ("sans-serif", 20));
        }
        let mut chart = builder.build_cartesian_2d((0..n - 1).into_segmented(), 0.0..y_max).ok()?;
        let labels: Vec<String> = bars.iter().map(|b| b.0.clone()).collect();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .y_desc(y_label)
            // Counts and percentages: whole numbers only.
            .y_label_formatter(&|v| if (v - v.round()).abs() < 1e-9 { format!("{v:.0}") } else { String::new() })
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => labels.get(*i).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .draw()
            .ok()?;
        chart
            .draw_series(
                Histogram::vertical(&chart)
                    .style(RGBColor(60, 90, 140).filled())
                    .margin(6)
                    .data(bars.iter().enumerate().map(|(i, b)| (i, b.1))),
            )
            .ok()?;
        root.present().ok()?;
    }
    Some(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rating_chart_is_an_svg_with_one_point_per_change() {
        let points: Vec<_> = [1500.0, 1520.0, 1490.0]
            .into_iter()
            .map(|rating| RatingPoint {
                system: "glicko2".into(),
                rating,
                deviation: 60.0,
                volatility: 0.06,
                games: 1,
                provisional: false,
                rating_before: 1500.0,
                deviation_before: 60.0,
                game: None,
                period: None,
                open_period: false,
                tournament: None,
                ledger_sequence: 0,
                at: weiqi_time::Millis(0),
            })
            .collect();
        let svg = rating_chart(Lang::En, &points).unwrap();
        assert!(svg.starts_with("<svg"), "{svg}");
        assert_eq!(svg.matches("<circle").count(), 3, "{svg}");
        assert!(rating_chart(Lang::En, &[]).is_none());
    }

    #[test]
    fn a_bar_chart_has_one_bar_per_value() {
        let bars = [("0".to_string(), 3.0), ("50".to_string(), 5.0), ("100".to_string(), 1.0)];
        let svg = bar_chart("Lengths", "games", &bars, 6.0, (480, 240)).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("Lengths"), "{svg}");
        // The background and one rectangle per bar.
        assert!(svg.matches("<rect").count() >= 4, "{svg}");
        let one = bar_chart("", "games", &[("0".to_string(), 3.0)], 3.3, (480, 240)).unwrap();
        assert_eq!(one.matches("<rect").count(), svg.matches("<rect").count() - 2, "one bar, no empty segment");
        assert!(bar_chart("", "games", &[], 0.0, (480, 240)).is_some_and(|s| s.starts_with("<svg")), "axes alone");
    }
}
