//! What the HTTP endpoints read from the worker: the stored councils and readiness.

use super::*;

/// `GET /bodies/{id}` (the current snapshot with its cases) and `GET /bodies/{id}/succession-order` (who
/// would succeed right now on every list, and who is passed over and why).
pub(super) struct Reads(pub(super) Arc<Shared>);

impl crate::http::Reads for Reads {
    fn get<'a>(
        &'a self,
        path: &'a str,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Option<(u16, String)>> + Send + 'a>> {
        Box::pin(async move {
            let rest = path.strip_prefix("/bodies/")?;
            let (id, what) = match rest.split_once('/') {
                Some((id, what)) => (id, what),
                None => (rest, ""),
            };
            if id.is_empty() || !matches!(what, "" | "succession-order") {
                return None;
            }
            let not_found = || Some((404, serde_json::json!({"error": "unknown body"}).to_string()));
            let unavailable = || Some((503, serde_json::json!({"error": "database unavailable"}).to_string()));
            match what {
                "" => match self.0.store.export(id).await {
                    Ok(serde_json::Value::Null) => not_found(),
                    Ok(v) => Some((200, v.to_string())),
                    Err(_) => unavailable(),
                },
                _ => match self.0.store.load_body(id).await {
                    Ok(Some(body)) => {
                        let order = body.body.succession_order(self.0.clock.now());
                        match serde_json::to_string(&order) {
                            Ok(text) => Some((200, text)),
                            Err(e) => {
                                tracing::error!(error = %e, "the succession order cannot be serialised");
                                unavailable()
                            }
                        }
                    }
                    Ok(None) => not_found(),
                    Err(_) => unavailable(),
                },
            }
        })
    }
}

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
