//! Periodic gauges: outbox backlog, timers due and pending; the optimistic writes' counter.

use super::*;

pub(super) async fn stats_loop(shared: Arc<Shared>, mut shutdown: watch::Receiver<bool>) {
    // the optimistic writes counted so far, to add only what is new
    let mut counted = (0, 0);
    loop {
        let now = shared.clock.now();
        let (committed, fell_back) = shared.store.optimistic_stats();
        let m = &shared.metrics;
        m.inc_counter("nachfolge_optimistic_writes_total", &[("outcome", "committed")], committed - counted.0);
        m.inc_counter("nachfolge_optimistic_writes_total", &[("outcome", "fell_back")], fell_back - counted.1);
        counted = (committed, fell_back);
        if let Ok((n, age)) = shared.store.outbox_backlog(now).await {
            shared.metrics.set_gauge("nachfolge_outbox_backlog", &[], n as f64);
            shared.metrics.set_gauge("nachfolge_outbox_oldest_seconds", &[], age);
        }
        if let Ok((due, pending)) = shared.store.timer_counts(now).await {
            shared.metrics.set_gauge("nachfolge_timers_due", &[], due as f64);
            shared.metrics.set_gauge("nachfolge_timers_pending", &[], pending as f64);
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_secs(5)) => {}
            _ = stopped(&mut shutdown) => break,
        }
    }
}

pub(super) fn describe_metrics(m: &Metrics) {
    m.help("nachfolge_messages_total", "Inbound messages by type and outcome");
    m.help("nachfolge_handler_seconds", "Time to process one inbound message");
    m.help("nachfolge_outbox_backlog", "Unpublished events in the outbox");
    m.help("nachfolge_outbox_oldest_seconds", "Age of the oldest unpublished event");
    m.help("nachfolge_timers_due", "Deadline timers due and not fired");
    m.help("nachfolge_timers_pending", "Deadline timers not fired");
    m.help("nachfolge_mails_total", "E-mails by outcome");
    m.help(
        "nachfolge_mail_results_unrecorded_total",
        "E-mails the server answered whose result could not be recorded through the core after every attempt (alert)",
    );
    m.help("nachfolge_events_published_total", "Events published with a broker confirm");
    m.help("nachfolge_timers_fired_total", "Deadline timers fired");
    m.help("nachfolge_timers_failed_total", "Deadline timers given up after every attempt failed (alert)");
    m.help("nachfolge_timer_lag_seconds", "How late deadline timers fire after they are due");
    m.help(
        "nachfolge_optimistic_writes_total",
        "Batches written with one statement at the cached version (committed), or handed to the locking path after trying (fell_back)",
    );
}
