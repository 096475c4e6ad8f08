//! The decision trail: every step the rules took, with the statute it rests on.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One step of a decision or deadline trail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TrailStep {
    /// The candidate the step is about; absent for list-level findings (e.g. `list_exhausted`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub candidate: Option<String>,
    pub verdict: Verdict,
    /// Machine-readable reason code, e.g. `left_party`.
    pub reason: String,
    /// The statute, e.g. `§ 45 Abs. 3 Satz 1 KWahlG NRW`.
    pub citation: String,
    /// What the step rests on beyond the rule, e.g. who drew a lot and when (`lot_drawn`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub detail: Option<String>,
}

/// What a step decided about its candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Passed over.
    Skipped,
    /// Determined as successor.
    Chosen,
    /// Equal votes in a majority election: the lot decides (§ 34 Abs. 1a KWG).
    Tied,
    /// A fact that was considered and has no effect (e.g. a waiver by letter in NRW).
    Noted,
}

impl TrailStep {
    pub fn new(
        candidate: Option<&str>,
        verdict: Verdict,
        reason: impl Into<String>,
        citation: impl Into<String>,
    ) -> Self {
        TrailStep {
            candidate: candidate.map(str::to_owned),
            verdict,
            reason: reason.into(),
            citation: citation.into(),
            detail: None,
        }
    }

    /// The step with a detail.
    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }
}
