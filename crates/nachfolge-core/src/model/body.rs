//! The indexed body: a validated snapshot with the index from candidate id to list and position.

use super::*;

/// Where a candidate stands: list index and candidate index in that list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loc {
    pub list: usize,
    pub cand: usize,
}

/// A council's validated snapshot with its index (candidate id → list and position). Serialised as the
/// snapshot alone; the index is rebuilt when it is read.
#[derive(Debug, Clone)]
pub struct Body {
    pub snapshot: Snapshot,
    index: HashMap<String, Loc>,
}

impl Serialize for Body {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.snapshot.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Body {
    /// A stored body: validated when it was registered, so only indexed here.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Snapshot::deserialize(deserializer).map(Body::indexed)
    }
}

impl Body {
    /// Index a snapshot. Validation: `Body::from_snapshot` (the shared checks and the Land's).
    pub(crate) fn indexed(snapshot: Snapshot) -> Body {
        let mut body = Body { snapshot, index: HashMap::new() };
        body.reindex();
        body
    }

    /// Rebuild the id index (after deserializing a stored aggregate).
    pub fn reindex(&mut self) {
        self.index.clear();
        for (li, list) in self.snapshot.lists.iter().enumerate() {
            for (ci, c) in list.candidates.iter().enumerate() {
                self.index.insert(c.id.clone(), Loc { list: li, cand: ci });
            }
        }
    }

    pub fn id(&self) -> &str {
        &self.snapshot.body.id
    }
    pub fn land(&self) -> Land {
        self.snapshot.body.land
    }
    pub fn info(&self) -> &BodyInfo {
        &self.snapshot.body
    }
    pub fn locate(&self, candidate: &str) -> Option<Loc> {
        self.index.get(candidate).copied()
    }
    pub fn candidate(&self, id: &str) -> Option<&Candidate> {
        self.locate(id).map(|l| &self.snapshot.lists[l.list].candidates[l.cand])
    }
    pub fn candidate_mut(&mut self, id: &str) -> Option<&mut Candidate> {
        let l = self.locate(id)?;
        Some(&mut self.snapshot.lists[l.list].candidates[l.cand])
    }
    pub fn list(&self, idx: usize) -> &List {
        &self.snapshot.lists[idx]
    }
    pub fn list_of(&self, candidate: &str) -> Option<&List> {
        self.locate(candidate).map(|l| &self.snapshot.lists[l.list])
    }
    /// Number of candidates, for metrics and the `body.registered` answer.
    pub fn candidate_count(&self) -> usize {
        self.index.len()
    }
}
