//! The German wording of the codes the rules and the messages use: why a candidate was passed over, why a
//! member left.

use crate::model::BodyKind;

/// [`reason_de`] for a body of kind `kind`: a Kreistag's wording where the council's names the council or its
/// Wahlleitung (docs/legal.md, "Kreistage").
pub fn reason_de_in(reason: &str, kind: BodyKind) -> String {
    if kind == BodyKind::Kreistag {
        let text = match reason {
            "seated" => Some("ist bereits Mitglied des Kreistags"),
            "former_member" => Some("war in dieser Wahlperiode bereits Mitglied des Kreistags"),
            "left_party_notified" => Some(
                "ist nach der Wahl aus der Partei ausgeschieden oder ausgeschlossen worden; die Partei hat dies der Kreiswahlleitung vor dem Freiwerden des Sitzes schriftlich mitgeteilt",
            ),
            "joined_competing_party" => Some(
                "ist nach der Wahl einer Partei beigetreten, die einen konkurrierenden Wahlvorschlag eingereicht hatte; die Partei hat dies der Kreiswahlleitung vor dem Freiwerden des Sitzes schriftlich mitgeteilt",
            ),
            "barred_hinderungsgrund" => Some("hat einen Hinderungsgrund, der dem Eintritt in den Kreistag entgegensteht"),
            "refusal_accepted" => {
                Some("hat den Eintritt aus wichtigem Grund abgelehnt; der Kreistag hat den wichtigen Grund anerkannt")
            }
            _ => None,
        };
        if let Some(text) = text {
            return text.to_owned();
        }
    }
    reason_de(reason)
}

/// The German wording of a reason code, for e-mails and announcements (a council's).
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
        "eligibility_lost_after_election" => "hat die Wählbarkeit nach der Wahl verloren",
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
        "barred_stays_successor" => {
            "kann das Amt wegen eines Hinderungsgrundes derzeit nicht antreten und bleibt Listennachfolgerin oder Listennachfolger"
        }
        "departed" => "ist das ausgeschiedene Mitglied",
        "bar_found_by_supervisory_authority" => {
            "eine Unvereinbarkeit hindert den Erwerb der Mitgliedschaft nicht; der Sitz geht erst mit der unanfechtbaren Feststellung der Kommunalaufsichtsbehörde verloren"
        }
        "no_list_position" => "steht nicht auf der Reserveliste",
        "district_substitute_excluded" => {
            "ist ausschließlich als Ersatzbewerberin oder Ersatzbewerber für die Bewerbung des ausgeschiedenen Mitglieds im Wahlbezirk benannt und bleibt bei dieser Nachfolge unberücksichtigt"
        }
        "barred_hinderungsgrund" => {
            "hat einen Hinderungsgrund, der dem Eintritt in den Gemeinderat entgegensteht"
        }
        "refusal_accepted" => {
            "hat den Eintritt aus wichtigem Grund abgelehnt; der Gemeinderat hat den wichtigen Grund anerkannt"
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
