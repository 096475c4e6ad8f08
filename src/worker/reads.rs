//! What the HTTP endpoints read from the worker: readiness.

use super::*;

pub(super) struct Ready(pub(super) Arc<Shared>);

impl crate::http::Readiness for Ready {
    fn check(&self) -> std::pin::Pin<Box<dyn std::future::Future<Output = Vec<(&'static str, bool)>> + Send + '_>> {
        Box::pin(async move {
            vec![
                ("database", self.0.store.ping().await),
                ("broker", self.0.broker_up()),
                ("consumer", self.0.consuming()),
            ]
        })
    }
}
