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

/// The German wording of a reason code, for e-mails and announcements.
pub fn reason_de(reason: &str) -> String {
    let text = match reason {
        "seated" => "ist bereits Mitglied der Vertretung",
        "former_member" => "war in dieser Wahlperiode bereits Mitglied der Vertretung",
        "pending_successor" => "ist bereits als Listennachfolger für einen anderen Sitz festgestellt",
        "already_called" => "ist bereits berufen",
        "died" => "ist verstorben",
        "ineligible" => "ist nicht wählbar",
        "not_continuously_eligible" => "war während der Wahlperiode nicht durchgehend wählbar",
        "declined" => "hat die Annahme der Wahl abgelehnt",
        "left_party" => {
            "ist aus der Partei oder Wählergruppe ausgeschieden, für die sie oder er bei der Wahl angetreten war"
        }
        "joined_other_party" => {
            "war bei der Aufstellung der Reserveliste nicht Mitglied einer Partei oder Wählergruppe und ist seitdem einer anderen als der sie oder ihn aufstellenden Partei oder Wählergruppe beigetreten"
        }
        "left_party_notified" => {
            "ist nach der Wahl aus der Partei ausgeschieden oder ausgeschlossen worden; die Partei hat dies der Wahlleitung vor dem Freiwerden des Sitzes schriftlich mitgeteilt"
        }
        "joined_competing_party" => {
            "ist nach der Wahl einer Partei beigetreten, die einen konkurrierenden Wahlvorschlag eingereicht hatte; die Partei hat dies der Wahlleitung vor dem Freiwerden des Sitzes schriftlich mitgeteilt"
        }
        "waived" => "hat auf die Anwartschaft verzichtet",
        "departed" => "ist das ausgeschiedene Mitglied",
        "no_list_position" => "steht nicht auf der Reserveliste",
        "district_substitute_excluded" => {
            "ist ausschließlich als Ersatzbewerberin oder Ersatzbewerber für die Bewerbung des ausgeschiedenen Mitglieds im Wahlbezirk benannt und bleibt bei dieser Nachfolge unberücksichtigt"
        }
        other => other,
    };
    text.to_owned()
}

/// The German wording of a departure reason.
pub fn departure_de(reason: crate::model::DepartureReason) -> &'static str {
    use crate::model::DepartureReason::*;
    match reason {
        Died => "Tod",
        Declined => "Ablehnung der Wahl",
        Resigned => "Verzicht auf den Sitz",
        LostEligibility => "Verlust der Wählbarkeit",
        LostSeat => "Verlust des Sitzes",
        NotAcquired => "Nichterwerb der Mitgliedschaft",
        PartyBanned => "Verlust des Sitzes infolge des Verbots einer Partei oder Vereinigung",
        Merger => "Verlust des Sitzes infolge der Eingliederung der Gemeinde",
        Other => "sonstiges Ausscheiden",
    }
}
