//! The metrics registry: counters, gauges and histograms with labels, addressed by name, on
//! [`prometheus_client`] and rendered in the Prometheus text exposition format 0.0.4.
//!
//! A metric family's type is fixed by its first use; a later use of the same name as another type is
//! ignored (and logged). A family appears in [`Metrics::render`] once it has a series: to show a counter
//! at zero before its first event, call `inc_counter(name, labels, 0)`. Counter names end in `_total`
//! (the encoder writes the suffix; a counter named without it is exported with it).
//!
//! Label values must never hold personal data (names, addresses, e-mail addresses): ids, types and
//! outcomes only, from small sets.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::metrics::MetricType;
use prometheus_client::registry::Registry;

/// Upper bounds (seconds) of the histogram buckets; `+Inf` is implied.
pub const BUCKETS: [f64; 13] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

/// The content type of [`Metrics::render`]'s output.
pub const CONTENT_TYPE: &str = prometheus_client::encoding::prometheus_text::CONTENT_TYPE;

/// A registry of metrics. `Send + Sync`; share it in an `Arc`.
#[derive(Debug)]
pub struct Metrics {
    families: Arc<Families>,
    registry: Registry,
}

impl Default for Metrics {
    fn default() -> Self {
        let families = Arc::new(Families::default());
        let mut registry = Registry::default();
        registry.register_collector(Box::new(families.clone()));
        Self { families, registry }
    }
}

/// Label pairs sorted by name.
type Labels = Vec<(&'static str, String)>;

/// Every family by name, with its help text; the collector behind the [`Registry`].
#[derive(Debug, Default)]
struct Families(Mutex<BTreeMap<&'static str, Entry>>);

#[derive(Debug, Default)]
struct Entry {
    help: String,
    family: Option<Kind>,
}

#[derive(Debug)]
enum Kind {
    Counter(Family<Labels, Counter>),
    Gauge(Family<Labels, Gauge<f64, AtomicU64>>),
    Histogram(Family<Labels, Histogram, fn() -> Histogram>),
}

impl Kind {
    fn metric_type(&self) -> MetricType {
        match self {
            Kind::Counter(_) => MetricType::Counter,
            Kind::Gauge(_) => MetricType::Gauge,
            Kind::Histogram(_) => MetricType::Histogram,
        }
    }
}

fn histogram() -> Histogram {
    Histogram::new(BUCKETS)
}

impl Metrics {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, BTreeMap<&'static str, Entry>> {
        self.families.lock()
    }

    /// Registers the help text of a metric family.
    pub fn help(&self, name: &'static str, text: &str) {
        self.lock().entry(name).or_default().help = text.to_owned();
    }

    /// Adds `by` to a counter.
    pub fn inc_counter(&self, name: &'static str, labels: &[(&'static str, &str)], by: u64) {
        let mut families = self.lock();
        let entry = families.entry(name).or_default();
        match entry.family.get_or_insert_with(|| Kind::Counter(Family::default())) {
            Kind::Counter(family) => {
                family.get_or_create(&sorted(labels)).inc_by(by);
            }
            other => type_conflict(name, other, MetricType::Counter),
        }
    }

    /// Sets a gauge.
    pub fn set_gauge(&self, name: &'static str, labels: &[(&'static str, &str)], value: f64) {
        let mut families = self.lock();
        let entry = families.entry(name).or_default();
        match entry.family.get_or_insert_with(|| Kind::Gauge(Family::default())) {
            Kind::Gauge(family) => {
                family.get_or_create(&sorted(labels)).set(value);
            }
            other => type_conflict(name, other, MetricType::Gauge),
        }
    }

    /// Records one observation (in seconds) in a histogram.
    pub fn observe(&self, name: &'static str, labels: &[(&'static str, &str)], seconds: f64) {
        if seconds.is_nan() {
            return;
        }
        let mut families = self.lock();
        let entry = families.entry(name).or_default();
        match entry.family.get_or_insert_with(|| Kind::Histogram(Family::new_with_constructor(histogram))) {
            Kind::Histogram(family) => family.get_or_create(&sorted(labels)).observe(seconds),
            other => type_conflict(name, other, MetricType::Histogram),
        }
    }

    /// Records the time elapsed since `start` in a histogram.
    pub fn observe_since(&self, name: &'static str, labels: &[(&'static str, &str)], start: Instant) {
        self.observe(name, labels, start.elapsed().as_secs_f64());
    }

    /// Renders every family in the Prometheus text exposition format 0.0.4, sorted by name.
    pub fn render(&self) -> String {
        let mut out = String::new();
        if let Err(error) = prometheus_client::encoding::prometheus_text::encode(&mut out, &self.registry) {
            tracing::error!(%error, "metrics not rendered");
        }
        out
    }
}

impl Families {
    fn lock(&self) -> MutexGuard<'_, BTreeMap<&'static str, Entry>> {
        // A panic while holding the lock cannot leave the registry inconsistent in a harmful way.
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Collector for Families {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        for (name, entry) in self.lock().iter() {
            let Some(family) = &entry.family else { continue };
            // The encoder appends `_total` to a counter's name.
            let name = match family {
                Kind::Counter(_) => name.strip_suffix("_total").unwrap_or(name),
                _ => name,
            };
            let metric = encoder.encode_descriptor(name, &entry.help, None, family.metric_type())?;
            match family {
                Kind::Counter(family) => family.encode(metric)?,
                Kind::Gauge(family) => family.encode(metric)?,
                Kind::Histogram(family) => family.encode(metric)?,
            }
        }
        Ok(())
    }
}

fn sorted(labels: &[(&'static str, &str)]) -> Labels {
    let mut key: Labels = labels.iter().map(|(k, v)| (*k, (*v).to_owned())).collect();
    key.sort_by(|a, b| a.0.cmp(b.0));
    key
}

fn type_conflict(name: &'static str, registered: &Kind, used_as: MetricType) {
    tracing::warn!(
        metric = name,
        registered = registered.metric_type().as_str(),
        used_as = used_as.as_str(),
        "metric used with two types; sample ignored"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rendered lines, series sorted within their family (the registry keeps them unordered).
    fn lines(rendered: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut series: Vec<String> = Vec::new();
        for line in rendered.lines() {
            if line.starts_with('#') {
                series.sort();
                out.append(&mut series);
                out.push(line.to_owned());
            } else {
                series.push(line.to_owned());
            }
        }
        series.sort();
        out.append(&mut series);
        out
    }

    #[test]
    fn renders_counters_gauges_sorted_with_help() {
        let metrics = Metrics::new();
        metrics.help("nachfolge_messages_total", "Inbound messages by type and outcome.");
        metrics.inc_counter("nachfolge_messages_total", &[("type", "vacancy.reported"), ("outcome", "ok")], 2);
        metrics.inc_counter("nachfolge_messages_total", &[("outcome", "ok"), ("type", "vacancy.reported")], 1);
        metrics.inc_counter("nachfolge_messages_total", &[("type", "body.registered"), ("outcome", "rejected")], 1);
        metrics.set_gauge("nachfolge_outbox_pending", &[], 4.0);
        metrics.set_gauge("nachfolge_outbox_pending", &[], 3.5);
        metrics.set_gauge("nachfolge_timers_due", &[], 4.0);

        // Families sorted by name, labels by name; a family without help has an empty HELP line.
        let expected = [
            "# HELP nachfolge_messages_total Inbound messages by type and outcome.",
            "# TYPE nachfolge_messages_total counter",
            "nachfolge_messages_total{outcome=\"ok\",type=\"vacancy.reported\"} 3",
            "nachfolge_messages_total{outcome=\"rejected\",type=\"body.registered\"} 1",
            "# HELP nachfolge_outbox_pending ",
            "# TYPE nachfolge_outbox_pending gauge",
            "nachfolge_outbox_pending 3.5",
            "# HELP nachfolge_timers_due ",
            "# TYPE nachfolge_timers_due gauge",
            "nachfolge_timers_due 4.0",
        ];
        assert_eq!(lines(&metrics.render()), expected);
    }

    #[test]
    fn renders_histograms_cumulatively() {
        let metrics = Metrics::new();
        metrics.help("nachfolge_tx_seconds", "Transaction time");
        metrics.observe("nachfolge_tx_seconds", &[("kind", "command")], 0.003_906_25);
        metrics.observe("nachfolge_tx_seconds", &[("kind", "command")], 0.125);
        metrics.observe("nachfolge_tx_seconds", &[("kind", "command")], 42.0);
        metrics.observe("nachfolge_tx_seconds", &[("kind", "command")], f64::NAN);
        let rendered = metrics.render();
        let lines: Vec<&str> = rendered.lines().collect();
        assert_eq!(lines[0], "# HELP nachfolge_tx_seconds Transaction time");
        assert_eq!(lines[1], "# TYPE nachfolge_tx_seconds histogram");
        assert_eq!(lines[2], "nachfolge_tx_seconds_bucket{kind=\"command\",le=\"0.001\"} 0");
        assert_eq!(lines[4], "nachfolge_tx_seconds_bucket{kind=\"command\",le=\"0.005\"} 1");
        assert_eq!(lines[8], "nachfolge_tx_seconds_bucket{kind=\"command\",le=\"0.1\"} 1");
        assert_eq!(lines[9], "nachfolge_tx_seconds_bucket{kind=\"command\",le=\"0.25\"} 2");
        assert_eq!(lines[11], "nachfolge_tx_seconds_bucket{kind=\"command\",le=\"1\"} 2");
        assert_eq!(lines[14], "nachfolge_tx_seconds_bucket{kind=\"command\",le=\"10\"} 2");
        assert_eq!(lines[15], "nachfolge_tx_seconds_bucket{kind=\"command\",le=\"+Inf\"} 3");
        assert_eq!(lines[16], "nachfolge_tx_seconds_sum{kind=\"command\"} 42.12890625");
        assert_eq!(lines[17], "nachfolge_tx_seconds_count{kind=\"command\"} 3");
        assert_eq!(lines.len(), 18);
    }

    #[test]
    fn escapes_label_values_and_help() {
        let metrics = Metrics::new();
        metrics.help("m_total", "line one\nback\\slash");
        metrics.inc_counter("m_total", &[("reason", "a \"quoted\"\\path\nnext")], 1);
        assert_eq!(
            metrics.render(),
            "# HELP m_total line one\\nback\\\\slash\n# TYPE m_total counter\nm_total{reason=\"a \\\"quoted\\\"\\\\path\\nnext\"} 1\n"
        );
    }

    #[test]
    fn type_conflicts_and_empty_families_are_ignored() {
        let metrics = Metrics::new();
        metrics.help("unused", "never sampled");
        metrics.inc_counter("c_total", &[], 1);
        metrics.set_gauge("c_total", &[], 9.0);
        metrics.observe("c_total", &[], 1.0);
        metrics.set_gauge("g", &[], f64::INFINITY);
        assert_eq!(
            metrics.render(),
            "# HELP c_total \n# TYPE c_total counter\nc_total 1\n# HELP g \n# TYPE g gauge\ng +Inf\n"
        );
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
                        metrics.inc_counter("n_total", &[], 1);
                    }
                })
            })
            .collect();
        for handle in handles {
            handle.join().expect("thread");
        }
        assert_eq!(metrics.render(), "# HELP n_total \n# TYPE n_total counter\nn_total 400\n");
    }
}
