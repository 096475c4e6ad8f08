//! The aggregate cache: decoded bodies ([`Council`]) kept in memory after the batch that read or wrote
//! them committed, so the next batch for the same body neither transfers nor decodes its JSON again.
//!
//! An entry is valid for exactly one version of the stored row: its `state_version`, a random UUID that
//! every write of the row replaces (migration 0013: the worker writes a fresh one with each state, a
//! trigger gives one to every other update), kept with the row's `audit_seq`. The sequence alone is not
//! enough: it repeats after a failover to an asynchronous standby or a point-in-time restore, when another
//! replica's commands raise it again to a number this cache holds for another state (docs/reliability.md,
//! "Failover and restore"). A batch sends the cached versions with its locking query; the database returns
//! the state only for a body whose row has another version (changed by another replica, by a rejection's
//! audit entry, by a restore), and the batch decodes that one. The whole cache is dropped when the
//! database's identity or timeline changes ([`Cache::clear`], `Store::connect`). A batch *takes* an entry
//! out (no copy); only a committed batch puts its bodies back, so a rolled-back pass never leaves a
//! half-changed aggregate behind. The cache is bounded by the size of the JSON the entries were stored
//! as (`database.cache_mib`); the least recently used go first. docs/architecture.md, "Aggregate cache".
//!
//! With each body the cache keeps its [`CaseMemo`]: every case as it was last written, with its JSON. A
//! batch writes the aggregate again in full, but a case equal to its memo (most of them: closed cases, the
//! other open ones) is not serialised again — its JSON is copied (`Writes::body`).

use std::collections::HashMap;
use std::sync::Mutex;

use crate::model::CaseId;
use crate::procedure::{Case, Council};

/// Each case of a body as last written, with its JSON text.
pub(super) type CaseMemo = HashMap<CaseId, (Case, String)>;

/// A cached body: the aggregate, the length of its stored JSON, and its case memo.
pub(super) struct Hit {
    pub(super) body: Council,
    pub(super) size: usize,
    pub(super) memo: CaseMemo,
}

/// Bodies by id, with the sequence and state version they were stored with.
pub(super) struct Cache {
    budget: usize,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    map: HashMap<String, Entry>,
    /// Sum of the entries' `size`.
    bytes: usize,
    /// Use counter for the eviction order.
    tick: u64,
}

struct Entry {
    seq: i64,
    /// The row's `state_version` (migration 0013) when this aggregate was read or written.
    version: String,
    used: u64,
    hit: Hit,
}

impl Cache {
    /// A cache holding at most `budget` bytes of stored JSON; `0` turns it off.
    pub(super) fn new(budget: usize) -> Cache {
        Cache { budget, inner: Mutex::new(Inner::default()) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The cached sequence and state version of each of `ids` that is cached: (ids, sequences, versions),
    /// for the locking query.
    pub(super) fn versions(&self, ids: &[&str]) -> (Vec<String>, Vec<i64>, Vec<String>) {
        let (mut out_ids, mut seqs, mut versions) = (Vec::new(), Vec::new(), Vec::new());
        if self.budget == 0 {
            return (out_ids, seqs, versions);
        }
        let inner = self.lock();
        for id in ids {
            if let Some(e) = inner.map.get(*id) {
                out_ids.push((*id).to_owned());
                seqs.push(e.seq);
                versions.push(e.version.clone());
            }
        }
        (out_ids, seqs, versions)
    }

    /// Take the body `id` stored at `seq` and `version` out of the cache, with its size; `None` if it is
    /// not there (any more) at that version.
    pub(super) fn take(&self, id: &str, seq: i64, version: &str) -> Option<Hit> {
        let mut inner = self.lock();
        let e = inner.map.get(id)?;
        if e.seq != seq || e.version != version {
            return None;
        }
        let e = inner.map.remove(id)?;
        inner.bytes -= e.hit.size;
        Some(e.hit)
    }

    /// Drop the entry of `id` if it is still the one at `version`: the database holds another state (the
    /// locking query sent the row), so it can never be served again.
    pub(super) fn discard(&self, id: &str, version: &str) {
        let mut inner = self.lock();
        if inner.map.get(id).is_some_and(|e| e.version == version) {
            if let Some(e) = inner.map.remove(id) {
                inner.bytes -= e.hit.size;
            }
        }
    }

    /// Take the body `id` out of the cache at whatever version it is cached, with its sequence and version
    /// (the optimistic write's read: one lock and one lookup).
    pub(super) fn take_latest(&self, id: &str) -> Option<(i64, String, Hit)> {
        let mut inner = self.lock();
        let e = inner.map.remove(id)?;
        inner.bytes -= e.hit.size;
        Some((e.seq, e.version, e.hit))
    }

    /// Drop every entry: the database is another one, or the same after a failover or restore (its
    /// system identifier or timeline changed). Returns how many entries were dropped.
    pub(super) fn clear(&self) -> usize {
        let mut inner = self.lock();
        let n = inner.map.len();
        inner.map.clear();
        inner.bytes = 0;
        n
    }

    /// Keep `body`, committed at `seq` with `version`; an entry of a later sequence stays (two batches of
    /// this process on one body that commit in one order and come back in the other). Evicts the least
    /// recently used entries down to three quarters of the budget when it is exceeded.
    pub(super) fn put(&self, id: String, seq: i64, version: String, hit: Hit) {
        let size = hit.size;
        if self.budget == 0 || size > self.budget / 4 {
            return;
        }
        let mut inner = self.lock();
        inner.tick += 1;
        let used = inner.tick;
        if let Some(old) = inner.map.get(&id) {
            if old.seq > seq {
                return;
            }
        }
        if let Some(old) = inner.map.insert(id, Entry { seq, version, used, hit }) {
            inner.bytes -= old.hit.size;
        }
        inner.bytes += size;
        if inner.bytes > self.budget {
            let mut ages: Vec<(u64, String)> = inner.map.iter().map(|(k, e)| (e.used, k.clone())).collect();
            ages.sort_unstable();
            for (_, k) in ages {
                if inner.bytes <= self.budget / 4 * 3 {
                    break;
                }
                if let Some(e) = inner.map.remove(&k) {
                    inner.bytes -= e.hit.size;
                }
            }
        }
    }

    /// Number of cached bodies and their stored size (for tests and metrics).
    pub(super) fn stats(&self) -> (usize, usize) {
        let inner = self.lock();
        (inner.map.len(), inner.bytes)
    }

    /// The cached body `id`, serialised as it would be stored (tests compare it with the stored row).
    pub(super) fn encoded(&self, id: &str) -> Option<(i64, String)> {
        let inner = self.lock();
        let e = inner.map.get(id)?;
        serde_json::to_string(&e.hit.body).ok().map(|s| (e.seq, s))
    }
}
