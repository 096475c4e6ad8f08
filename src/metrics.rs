//! A tiny, dependency-free Prometheus registry: counters, gauges and histograms with labels, rendered in
//! the text exposition format 0.0.4.
//!
//! A metric family's type is fixed by its first use; a later use of the same name as another type is
//! ignored (and logged). A family appears in [`Metrics::render`] once it has a series: to show a counter
//! at zero before its first event, call `inc_counter(name, labels, 0)`.
//!
//! Label values must never hold personal data (names, addresses, e-mail addresses): ids, types and
//! outcomes only, from small sets.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

/// Upper bounds (seconds) of the histogram buckets; `+Inf` is implied.
pub const BUCKETS: [f64; 13] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

/// The content type of [`Metrics::render`]'s output.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// A registry of metrics. `Send + Sync`; share it in an `Arc`.
#[derive(Debug, Default)]
pub struct Metrics {
    inner: Mutex<Registry>,
}

#[derive(Debug, Default)]
struct Registry {
    families: BTreeMap<&'static str, Family>,
}

#[derive(Debug, Default)]
struct Family {
    help: Option<String>,
    kind: Option<Kind>,
    series: BTreeMap<LabelSet, Series>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Counter,
    Gauge,
    Histogram,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Counter => "counter",
            Kind::Gauge => "gauge",
            Kind::Histogram => "histogram",
        }
    }
}

/// Label pairs sorted by name.
type LabelSet = Vec<(&'static str, String)>;

#[derive(Debug)]
enum Series {
    Counter(u64),
    Gauge(f64),
    Histogram {
        /// Non-cumulative counts per bucket of [`BUCKETS`].
        buckets: [u64; BUCKETS.len()],
        sum: f64,
        count: u64,
    },
}

impl Metrics {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, Registry> {
        // A panic while holding the lock cannot leave the registry inconsistent in a harmful way.
        self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Registers the help text of a metric family.
    pub fn help(&self, name: &'static str, text: &str) {
        self.lock().families.entry(name).or_default().help = Some(text.to_owned());
    }

    /// Adds `by` to a counter.
    pub fn inc_counter(&self, name: &'static str, labels: &[(&'static str, &str)], by: u64) {
        let mut registry = self.lock();
        if let Some(series) = registry.series(name, Kind::Counter, labels) {
            match series {
                Series::Counter(value) => *value = value.saturating_add(by),
                _ => unreachable_kind(name),
            }
        }
    }

    /// Sets a gauge.
    pub fn set_gauge(&self, name: &'static str, labels: &[(&'static str, &str)], value: f64) {
        let mut registry = self.lock();
        if let Some(series) = registry.series(name, Kind::Gauge, labels) {
            match series {
                Series::Gauge(current) => *current = value,
                _ => unreachable_kind(name),
            }
        }
    }

    /// Records one observation (in seconds) in a histogram.
    pub fn observe(&self, name: &'static str, labels: &[(&'static str, &str)], seconds: f64) {
        if seconds.is_nan() {
            return;
        }
        let mut registry = self.lock();
        if let Some(series) = registry.series(name, Kind::Histogram, labels) {
            match series {
                Series::Histogram { buckets, sum, count } => {
                    if let Some(index) = BUCKETS.iter().position(|bound| seconds <= *bound) {
                        buckets[index] += 1;
                    }
                    *sum += seconds;
                    *count += 1;
                }
                _ => unreachable_kind(name),
            }
        }
    }

    /// Records the time elapsed since `start` in a histogram.
    pub fn observe_since(&self, name: &'static str, labels: &[(&'static str, &str)], start: Instant) {
        self.observe(name, labels, start.elapsed().as_secs_f64());
    }

    /// Renders every family in the Prometheus text exposition format 0.0.4, sorted by name and labels.
    pub fn render(&self) -> String {
        let registry = self.lock();
        let mut out = String::new();
        for (name, family) in &registry.families {
            let Some(kind) = family.kind else { continue };
            if family.series.is_empty() {
                continue;
            }
            if let Some(help) = &family.help {
                let _ = writeln!(out, "# HELP {name} {}", escape_help(help));
            }
            let _ = writeln!(out, "# TYPE {name} {}", kind.as_str());
            for (labels, series) in &family.series {
                match series {
                    Series::Counter(value) => {
                        let _ = writeln!(out, "{name}{} {value}", format_labels(labels, None));
                    }
                    Series::Gauge(value) => {
                        let _ = writeln!(out, "{name}{} {}", format_labels(labels, None), format_float(*value));
                    }
                    Series::Histogram { buckets, sum, count } => {
                        let mut cumulative = 0u64;
                        for (bound, n) in BUCKETS.iter().zip(buckets.iter()) {
                            cumulative += n;
                            let le = format_float(*bound);
                            let _ = writeln!(out, "{name}_bucket{} {cumulative}", format_labels(labels, Some(&le)));
                        }
                        let _ = writeln!(out, "{name}_bucket{} {count}", format_labels(labels, Some("+Inf")));
                        let _ = writeln!(out, "{name}_sum{} {}", format_labels(labels, None), format_float(*sum));
                        let _ = writeln!(out, "{name}_count{} {count}", format_labels(labels, None));
                    }
                }
            }
        }
        out
    }
}

impl Registry {
    /// The series of `name` with `labels`, created on first use; `None` when the family has another type.
    fn series(&mut self, name: &'static str, kind: Kind, labels: &[(&'static str, &str)]) -> Option<&mut Series> {
        let family = self.families.entry(name).or_default();
        match family.kind {
            None => family.kind = Some(kind),
            Some(existing) if existing == kind => {}
            Some(existing) => {
                tracing::warn!(
                    metric = name,
                    registered = existing.as_str(),
                    used_as = kind.as_str(),
                    "metric used with two types; sample ignored"
                );
                return None;
            }
        }
        let mut key: LabelSet = labels.iter().map(|(k, v)| (*k, (*v).to_owned())).collect();
        key.sort_by(|a, b| a.0.cmp(b.0));
        Some(family.series.entry(key).or_insert_with(|| match kind {
            Kind::Counter => Series::Counter(0),
            Kind::Gauge => Series::Gauge(0.0),
            Kind::Histogram => Series::Histogram { buckets: [0; BUCKETS.len()], sum: 0.0, count: 0 },
        }))
    }
}

/// The series of a family always has the family's kind, see [`Registry::series`].
fn unreachable_kind(name: &'static str) {
    tracing::error!(metric = name, "metric series of unexpected type");
}

fn format_labels(labels: &LabelSet, le: Option<&str>) -> String {
    if labels.is_empty() && le.is_none() {
        return String::new();
    }
    let mut out = String::from("{");
    let mut first = true;
    for (name, value) in labels.iter().map(|(n, v)| (*n, v.as_str())).chain(le.map(|le| ("le", le))) {
        if !first {
            out.push(',');
        }
        first = false;
        let _ = write!(out, "{name}=\"{}\"", escape_label_value(value));
    }
    out.push('}');
    out
}

fn escape_label_value(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

fn escape_help(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

fn format_float(value: f64) -> String {
    if value.is_nan() {
        "NaN".to_owned()
    } else if value.is_infinite() {
        if value > 0.0 { "+Inf" } else { "-Inf" }.to_owned()
    } else {
        format!("{value}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_counters_gauges_sorted_with_help() {
        let metrics = Metrics::new();
        metrics.help("nachfolge_messages_total", "Inbound messages by type and outcome.");
        metrics.inc_counter("nachfolge_messages_total", &[("type", "vacancy.reported"), ("outcome", "ok")], 2);
        metrics.inc_counter("nachfolge_messages_total", &[("outcome", "ok"), ("type", "vacancy.reported")], 1);
        metrics.inc_counter("nachfolge_messages_total", &[("type", "body.registered"), ("outcome", "rejected")], 1);
        metrics.set_gauge("nachfolge_outbox_pending", &[], 4.0);
        metrics.set_gauge("nachfolge_outbox_pending", &[], 3.5);

        // Families sorted by name, series by their (sorted) labels.
        let expected = "\
# HELP nachfolge_messages_total Inbound messages by type and outcome.
# TYPE nachfolge_messages_total counter
nachfolge_messages_total{outcome=\"ok\",type=\"vacancy.reported\"} 3
nachfolge_messages_total{outcome=\"rejected\",type=\"body.registered\"} 1
# TYPE nachfolge_outbox_pending gauge
nachfolge_outbox_pending 3.5
";
        assert_eq!(metrics.render(), expected);
    }

    #[test]
    fn renders_histograms_cumulatively() {
        let metrics = Metrics::new();
        metrics.observe("nachfolge_tx_seconds", &[("kind", "command")], 0.003_906_25);
        metrics.observe("nachfolge_tx_seconds", &[("kind", "command")], 0.125);
        metrics.observe("nachfolge_tx_seconds", &[("kind", "command")], 42.0);
        let rendered = metrics.render();
        let lines: Vec<&str> = rendered.lines().collect();
        assert_eq!(lines[0], "# TYPE nachfolge_tx_seconds histogram");
        assert_eq!(lines[1], "nachfolge_tx_seconds_bucket{kind=\"command\",le=\"0.001\"} 0");
        assert_eq!(lines[3], "nachfolge_tx_seconds_bucket{kind=\"command\",le=\"0.005\"} 1");
        assert_eq!(lines[7], "nachfolge_tx_seconds_bucket{kind=\"command\",le=\"0.1\"} 1");
        assert_eq!(lines[8], "nachfolge_tx_seconds_bucket{kind=\"command\",le=\"0.25\"} 2");
        assert_eq!(lines[10], "nachfolge_tx_seconds_bucket{kind=\"command\",le=\"1\"} 2");
        assert_eq!(lines[13], "nachfolge_tx_seconds_bucket{kind=\"command\",le=\"10\"} 2");
        assert_eq!(lines[14], "nachfolge_tx_seconds_bucket{kind=\"command\",le=\"+Inf\"} 3");
        assert_eq!(lines[15], "nachfolge_tx_seconds_sum{kind=\"command\"} 42.12890625");
        assert_eq!(lines[16], "nachfolge_tx_seconds_count{kind=\"command\"} 3");
        assert_eq!(lines.len(), 17);
    }

    #[test]
    fn escapes_label_values_and_help() {
        let metrics = Metrics::new();
        metrics.help("m", "line one\nback\\slash");
        metrics.inc_counter("m", &[("reason", "a \"quoted\"\\path\nnext")], 1);
        assert_eq!(
            metrics.render(),
            "# HELP m line one\\nback\\\\slash\n# TYPE m counter\nm{reason=\"a \\\"quoted\\\"\\\\path\\nnext\"} 1\n"
        );
    }

    #[test]
    fn type_conflicts_and_empty_families_are_ignored() {
        let metrics = Metrics::new();
        metrics.help("unused", "never sampled");
        metrics.inc_counter("c", &[], 1);
        metrics.set_gauge("c", &[], 9.0);
        metrics.observe("c", &[], 1.0);
        metrics.set_gauge("g", &[], f64::INFINITY);
        assert_eq!(metrics.render(), "# TYPE c counter\nc 1\n# TYPE g gauge\ng +Inf\n");
    }

    #[test]
    fn is_send_and_sync() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Metrics>();
        let metrics = std::sync::Arc::new(Metrics::new());
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let metrics = metrics.clone();
                std::thread::spawn(move || {
                    for _ in 0..100 {
                        metrics.inc_counter("n", &[], 1);
                    }
                })
            })
            .collect();
        for handle in handles {
            handle.join().expect("thread");
        }
        assert_eq!(metrics.render(), "# TYPE n counter\nn 400\n");
    }
}
