//! Every PostgreSQL advisory lock the worker takes, in one place, so no two uses share an id.

/// Serialises the migrations of replicas that start at once (transaction-scoped).
pub(super) const MIGRATIONS: i64 = 4_242_001;

/// Held by the one replica whose outbox relay publishes (session-scoped, on the relay's own connection).
pub(super) const RELAY: i64 = 4_242_002;

/// The transaction-scoped lock that serialises the first registration of a body (no row to lock yet): a
/// stable 64-bit hash of the body id. Collisions only serialise two registrations.
pub(super) fn body(body_id: &str) -> i64 {
    uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_OID, body_id.as_bytes()).as_u64_pair().0 as i64
}
