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
        // the notes of the Nachrückerliste and the trail (verdict `noted`): a fact without effect, or a rule
        // that explains the order (docs/legal.md)
        "waiver_not_in_form" => {
            "hat auf die Anwartschaft verzichtet, aber nicht in der vorgeschriebenen Form; der Verzicht ist unwirksam, sie oder er bleibt in der Reihenfolge"
        }
        "waiver_not_written" => {
            "hat den Verzicht nicht schriftlich erklärt; der Verzicht ist unwirksam, sie oder er bleibt in der Reihenfolge"
        }
        "waiver_no_effect" => {
            "hat auf die Anwartschaft verzichtet; der Verzicht ist ohne Wirkung, sie oder er bleibt in der Reihenfolge"
        }
        "substitute_without_priority" => {
            "ist nur für die Bewerbung eines Mitglieds im Wahlbezirk als Ersatzbewerberin oder Ersatzbewerber benannt und hat keinen Vorrang, wenn dieses Mitglied seinen Sitz über die Reserveliste erhalten hat; sie oder er behält den eigenen Listenplatz"
        }
        "substitute_keeps_priority" => {
            "ist auch für die Bewerbung auf der Reserveliste als Ersatzbewerberin oder Ersatzbewerber benannt und behält den Vorrang"
        }
        "substitute_excluded_for_his_member" => {
            "ist ausschließlich für die Bewerbung eines Mitglieds im Wahlbezirk als Ersatzbewerberin oder Ersatzbewerber benannt und bleibt bei dessen Nachfolge unberücksichtigt; für andere Sitze bleibt sie oder er in der Reihenfolge"
        }
        "individual_candidate" => {
            "Einzelbewerbung ohne Wahlvorschlag einer Partei oder Wählergruppe: Niemand rückt nach, ein frei werdender Sitz bleibt unbesetzt"
        }
        "list_exhausted" => "Der Wahlvorschlag ist erschöpft: Niemand kann mehr nachrücken",
        "barred_must_prove_end" => {
            "hat einen Hinderungsgrund; nach der Zustellung der Benachrichtigung ist fristgerecht nachzuweisen, dass er beseitigt ist"
        }
        "left_party_no_effect" => {
            "ist aus der Partei oder Wählergruppe ausgeschieden; das bleibt nach dem Recht des Landes ohne Wirkung auf die Nachfolge"
        }
        "joined_other_party_no_effect" => {
            "ist einer anderen Partei oder Wählergruppe beigetreten; das bleibt ohne Wirkung auf die Nachfolge"
        }
        "joined_other_party_as_member" => {
            "ist einer anderen Partei oder Wählergruppe beigetreten, war aber bei der Aufstellung des Wahlvorschlags bereits Mitglied einer Partei oder Wählergruppe; sie oder er wird deshalb nicht übergangen"
        }
        "declined_no_effect" => "hat die Wahl abgelehnt; das steht der Nachfolge nicht entgegen",
        "declined_earlier_stays_successor" => {
            "hat bei einer früheren Nachfolge abgelehnt und bleibt Listennachfolgerin oder Listennachfolger"
        }
        "formerly_ineligible_no_effect" => {
            "war zeitweise nicht wählbar und ist es wieder; das steht der Nachfolge nach der angewandten Fassung nicht entgegen"
        }
        "left_party_not_notified" => {
            "ist aus der Partei ausgeschieden; die Partei hat dies der Wahlleitung nicht schriftlich mitgeteilt, sie oder er bleibt in der Reihenfolge"
        }
        "party_exit_not_a_party" => {
            "Die Mitteilung über das Ausscheiden ist ohne Wirkung: Der Wahlvorschlag ist nicht der einer Partei"
        }
        "party_notice_too_late" => {
            "Die schriftliche Mitteilung der Partei über das Ausscheiden ging erst nach dem Freiwerden des Sitzes ein und ist ohne Wirkung"
        }
        "listenwahl_seat_list_order" => {
            "Die Reihenfolge nach Stimmen gilt für einen Sitz aus der Personenwahl; für einen über die Liste errungenen Sitz rücken die Bewerberinnen und Bewerber in der Reihenfolge des Wahlvorschlags nach"
        }
        "ranked_per_residential_district" => {
            "Unechte Teilortswahl: Es rückt die nächste Ersatzperson aus dem Wohnbezirk des ausgeschiedenen Mitglieds nach; die Reihenfolge ist je Wohnbezirk zu lesen"
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The notes the Nachrückerliste shows (`list_order`'s `notes` of every Land) are said in German, not as
    /// their codes (the console printed `waiver_not_in_form` before).
    #[test]
    fn every_note_of_the_succession_order_has_german_wording() {
        for code in [
            "waiver_not_in_form",
            "waiver_not_written",
            "waiver_no_effect",
            "substitute_without_priority",
            "substitute_keeps_priority",
            "substitute_excluded_for_his_member",
            "individual_candidate",
            "list_exhausted",
            "barred_must_prove_end",
            "bar_found_by_supervisory_authority",
            "left_party_no_effect",
            "joined_other_party_no_effect",
            "joined_other_party_as_member",
            "declined_no_effect",
            "declined_earlier_stays_successor",
            "formerly_ineligible_no_effect",
            "left_party_not_notified",
            "party_exit_not_a_party",
            "party_notice_too_late",
            "listenwahl_seat_list_order",
            "ranked_per_residential_district",
        ] {
            let text = reason_de(code);
            assert!(text != code && !text.contains('_'), "{code}: {text}");
        }
        assert_eq!(reason_de("no_such_code"), "no_such_code");
    }
}
