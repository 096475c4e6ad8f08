//! The German wording of the codes the rules and the messages use: why a candidate was passed over, why a
//! member left.

use crate::model::{BodyKind, Candidate, FormOfAddress};

/// The one of a pair of gendered words „feminine oder masculine“ that fits a person whose form of address is
/// `form`: „Ihrer Vorgängerin oder Ihres Vorgängers“ becomes „Ihrer Vorgängerin“ for `frau`, „Ihres
/// Vorgängers“ for `herr`; without a form of address both stay (docs/legal.md, "Form of address"). A text that
/// is no such pair (no or more than one „ oder “) is returned as it is.
pub fn gendered(pair: &str, form: Option<FormOfAddress>) -> String {
    let mut parts = pair.split(" oder ");
    match (parts.next(), parts.next(), parts.next(), form) {
        (Some(f), Some(_), None, Some(FormOfAddress::Frau)) => f.to_owned(),
        (Some(_), Some(m), None, Some(FormOfAddress::Herr)) => m.to_owned(),
        _ => pair.to_owned(),
    }
}

/// The pairs of gendered words the wording of the reasons (`reason_de`) uses for the person it is about.
const PAIRS: &[&str] = &[
    "Listennachfolgerin oder Listennachfolger",
    "Ersatzbewerberin oder Ersatzbewerber",
    "Nachfolgerin oder Nachfolger",
    "ihre oder seine",
    "sie oder ihn",
    "sie oder er",
];

/// `text` with every pair of [`PAIRS`] in it said for a person whose form of address is `form` (a reason why a
/// named candidate was passed over: „bleibt Listennachfolgerin“); unchanged without a form of address.
pub fn gendered_phrases(text: &str, form: Option<FormOfAddress>) -> String {
    match form {
        None => text.to_owned(),
        Some(_) => PAIRS.iter().fold(text.to_owned(), |t, pair| t.replace(pair, &gendered(pair, form))),
    }
}

/// The Anrede of a letter to `c`: „Sehr geehrte Frau Dr. Name,“ / „Sehr geehrter Herr Name,“; without a form of
/// address „Guten Tag Vorname Name,“ — the full name without a gendered form, never „Sehr geehrte(r)“
/// (docs/legal.md, "Form of address").
pub fn salutation(c: &Candidate) -> String {
    let degree = c.academic_degree.as_deref().map(str::trim).filter(|d| !d.is_empty());
    let family = match degree {
        Some(d) => format!("{d} {}", c.family_name),
        None => c.family_name.clone(),
    };
    match c.form_of_address {
        Some(FormOfAddress::Frau) => format!("Sehr geehrte Frau {family},"),
        Some(FormOfAddress::Herr) => format!("Sehr geehrter Herr {family},"),
        None => match degree {
            Some(d) => format!("Guten Tag {d} {} {},", c.given_name, c.family_name),
            None => format!("Guten Tag {} {},", c.given_name, c.family_name),
        },
    }
}

/// The first line of the address block of a letter to `c` (DIN 5008: „Frau“, „Herrn“ before the name, with the
/// academic degree): „Frau Dr. Erika Muster“, „Herrn Max Muster“, „Kim Muster“.
pub fn addressee(c: &Candidate) -> String {
    let degree = c.academic_degree.as_deref().map(str::trim).filter(|d| !d.is_empty());
    let name = match degree {
        Some(d) => format!("{d} {}", c.full_name()),
        None => c.full_name(),
    };
    match c.form_of_address {
        Some(FormOfAddress::Frau) => format!("Frau {name}"),
        Some(FormOfAddress::Herr) => format!("Herrn {name}"),
        None => name,
    }
}

/// [`reason_de`] for a body of kind `kind`: a Kreistag's or Bezirkstag's wording where the council's names the
/// council or its Wahlleitung (docs/legal.md, "Kreistage", "Point 10: Bezirkstage").
pub fn reason_de_in(reason: &str, kind: BodyKind) -> String {
    if kind == BodyKind::Bezirkstag {
        match reason {
            "seated" => return "ist bereits Mitglied des Bezirkstags".to_owned(),
            "former_member" => return "war in dieser Wahlperiode bereits Mitglied des Bezirkstags".to_owned(),
            _ => {}
        }
    }
    if kind == BodyKind::Regionalversammlung {
        match reason {
            "seated" => return "ist bereits Mitglied der Regionalversammlung".to_owned(),
            "former_member" => return "war in dieser Wahlperiode bereits Mitglied der Regionalversammlung".to_owned(),
            _ => {}
        }
    }
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
        "membership_not_acquired" => {
            "wurde für diesen Sitz bereits als Nachfolgerin oder Nachfolger festgestellt; ihre oder seine Mitgliedschaft gilt als nicht erworben, weil sie oder er die Beseitigung des Hinderungsgrundes nicht fristgerecht nachgewiesen hat"
        }
        "died" => "ist verstorben",
        "ineligible" => "ist nicht wählbar",
        "not_eligible_now" => {
            "erfüllt die Wählbarkeitsvoraussetzungen derzeit nicht und kann nicht nachrücken; sie oder er bleibt Listennachfolgerin oder Listennachfolger"
        }
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
        "proofs_not_supplied" => {
            "hat die erforderlichen Nachweise nicht in der gesetzten Frist vorgelegt; die Wahlleitung hat festgestellt, dass sie oder er als Ersatzperson für die Wahlperiode ausscheidet"
        }
        "direct_office_accepted" => {
            "hat die Wahl in ein durch Direktwahl vermitteltes Amt angenommen und ist als Ersatzperson ausgeschieden"
        }
        "banned_party_member" => {
            "gehörte der verbotenen Partei oder Vereinigung an und hat die Anwartschaft verloren"
        }
        "barred_stays_successor" => {
            "kann das Amt wegen eines Hinderungsgrundes derzeit nicht antreten und bleibt Listennachfolgerin oder Listennachfolger"
        }
        "departed" => "ist das ausgeschiedene Mitglied",
        "barred_must_prove_leave" => {
            "hat ein mit dem Mandat unvereinbares Amt oder Arbeitsverhältnis; die Mitgliedschaft wird erst mit dem schriftlichen Nachweis der Beurlaubung oder der Übertragung einer anderen Funktion erworben"
        }
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
        "list_exhausted_returning_officer_decides" => {
            "Die Liste enthält keine weitere Ersatzperson; wie der Sitz zu besetzen ist, stellt die Wahlleitung fest"
        }
        "party_ban_seat_passes" => {
            "Der infolge des Verbots einer Partei oder Vereinigung frei gewordene Sitz geht auf die nächste Ersatzperson des Wahlvorschlags über, auf dem das ausgeschiedene Mitglied gewählt worden ist"
        }
        "party_ban_members_to_check" => {
            "Wer der verbotenen Partei oder Vereinigung angehörte, rückt nicht nach; die Wahlleitung prüft die Zugehörigkeit der Ersatzpersonen vor ihrer Feststellung"
        }
        "party_ban_returning_officer_decides" => {
            "Das Mitglied hat seinen Sitz infolge des Verbots einer Partei oder Vereinigung verloren; ob der Sitz unbesetzt bleibt oder eine Ersatzperson nachrückt, stellt die Wahlleitung fest"
        }
        "party_change_returning_officer_decides" => {
            "ist aus der Partei oder Wählergruppe ausgeschieden oder einer anderen beigetreten; ob das der Nachfolge entgegensteht, prüft die Wahlleitung vor ihrer Feststellung"
        }
        "barred_must_prove_end" => {
            "hat einen Hinderungsgrund; nach der Zustellung der Benachrichtigung ist fristgerecht nachzuweisen, dass er beseitigt ist"
        }
        "incompatibility_holds_up_nothing" => {
            "übt eine mit dem Mandat unvereinbare Tätigkeit aus; das hindert das Nachrücken und den Erwerb der Mitgliedschaft nicht"
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
        "drawn_lot_order" => {
            "hat dieselbe Stimmenzahl wie andere Bewerberinnen oder Bewerber; ihre Reihenfolge hat das bei der Feststellung des Wahlergebnisses gezogene Los bestimmt"
        }
        "won_drawn_lot" => {
            "wurde bei gleicher Stimmenzahl durch das bei der Feststellung des Wahlergebnisses gezogene Los bestimmt"
        }
        "lost_drawn_lot" => {
            "hat dieselbe Stimmenzahl, steht aber nach dem bei der Feststellung des Wahlergebnisses gezogenen Los zurück"
        }
        "ranked_per_residential_district" => {
            "Unechte Teilortswahl: Es rückt die nächste Ersatzperson aus dem Wohnbezirk des ausgeschiedenen Mitglieds nach; die Reihenfolge ist je Wohnbezirk zu lesen"
        }
        "other_areas" => {
            "Der Wahlvorschlag im Wahlbereich oder Wahlkreis des ausgeschiedenen Mitglieds ist erschöpft; Ersatzpersonen sind die nicht gewählten Bewerberinnen und Bewerber der Wahlvorschläge derselben Partei oder Wählergruppe in den anderen Wahlbereichen oder Wahlkreisen, in der Reihenfolge ihrer Stimmenzahlen"
        }
        "other_areas_follow" => {
            "Ist dieser Wahlvorschlag erschöpft, folgen die nicht gewählten Bewerberinnen und Bewerber der Wahlvorschläge derselben Partei oder Wählergruppe in den anderen Wahlbereichen oder Wahlkreisen, in der Reihenfolge ihrer Stimmenzahlen"
        }
        "other_areas_exhausted" => {
            "Auch die Wahlvorschläge derselben Partei oder Wählergruppe in den anderen Wahlbereichen oder Wahlkreisen sind erschöpft: Niemand kann mehr nachrücken"
        }
        "most_votes_other_area" => {
            "hat unter den Ersatzpersonen der anderen Wahlbereiche oder Wahlkreise die meisten Stimmen erhalten"
        }
        "additional_seat" => {
            "hatte einen weiteren Sitz (unechte Teilortswahl); es rückt die nächste Ersatzperson für die weiteren Sitze aus dem ganzen Wahlvorschlag nach, in der Reihenfolge der Stimmenzahlen"
        }
        "additional_seat_holder_moves_up" => {
            "hat einen weiteren Sitz und ist die nächste Ersatzperson für den Wohnbezirk: sie oder er rückt in den Sitz des Wohnbezirks nach, der weitere Sitz wird frei"
        }
        "additional_seat_holder_ersatzperson" => {
            "hat einen weiteren Sitz und ist zugleich Ersatzperson für den Wohnbezirk: wird dort ein Sitz frei und ist sie oder er die nächste Ersatzperson, rückt sie oder er in diesen Sitz nach"
        }
        "additional_seat_then" => {
            "rückt in den frei werdenden weiteren Sitz nach (nächste Ersatzperson für die weiteren Sitze)"
        }
        "additional_seat_then_lot" => {
            "Über den frei werdenden weiteren Sitz entscheidet bei gleicher Stimmenzahl das Los"
        }
        "additional_seat_then_vacant" => {
            "Für den frei werdenden weiteren Sitz ist keine Ersatzperson mehr vorhanden"
        }
        "ausgleichssitz" => {
            "hatte einen Ausgleichssitz im Kreistag; es rückt die nächste Ersatzperson für die Ausgleichssitze des Wahlvorschlags nach, in der bei der Feststellung des Wahlergebnisses festgestellten Reihenfolge"
        }
        "next_ausgleichssitz_ersatzperson" => "ist die nächste festgestellte Ersatzperson für die Ausgleichssitze",
        "ausgleichssitz_holder_moves_up" => {
            "hat einen Ausgleichssitz und ist die nächste Ersatzperson für den Wahlkreis: sie oder er rückt in den Sitz des Wahlkreises nach, der Ausgleichssitz wird frei"
        }
        "ausgleichssitz_holder_ersatzperson" => {
            "hat einen Ausgleichssitz und ist zugleich Ersatzperson für den Wahlkreis: wird dort ein Sitz frei und ist sie oder er die nächste Ersatzperson, rückt sie oder er in diesen Sitz nach"
        }
        "ausgleichssitz_then" => {
            "rückt in den frei werdenden Ausgleichssitz nach (nächste Ersatzperson für die Ausgleichssitze)"
        }
        "ausgleichssitz_then_lot" => "Über den frei werdenden Ausgleichssitz entscheidet das Los",
        "ausgleichssitz_then_vacant" => "Für den frei werdenden Ausgleichssitz ist keine Ersatzperson mehr vorhanden",
        "wahlkreis_two_fifths" => {
            "stand in einem Wahlkreis, der nur aus einer Gemeinde besteht; durch das Nachrücken entfielen auf diesen Wahlkreis mehr als zwei Fünftel der Sitze"
        }
        "wahlkreis_cap_to_check" => {
            "Der Wahlkreis erhielte mehr als zwei Fünftel, aber nicht mehr als 45 vom Hundert der Sitze; ob § 25 Abs. 2 Satz 2 LKrO nach der Änderung des § 22 Abs. 4 LKrO (45 vom Hundert) noch zwei Fünftel nennt, prüft der Kreistag vor seinem Beschluss"
        }
        "no_other_areas_recorded" => {
            "Wahlvorschläge derselben Partei oder Wählergruppe in anderen Wahlbereichen sind nicht erfasst; gibt es solche, ist der Übergang des Sitzes auf sie zu prüfen"
        }
        other => other,
    };
    text.to_owned()
}

/// The German wording of a departure reason in a body of `kind`: a Kreistag's member moves up from an Ausgleichssitz
/// into his Wahlkreis's seat (§ 25 Abs. 2 Satz 2 LKrO), a Gemeinderat's from a weiterer Sitz into his Wohnbezirk's.
pub fn departure_in(reason: crate::model::DepartureReason, kind: crate::model::BodyKind) -> &'static str {
    match (reason, kind) {
        (crate::model::DepartureReason::MovedUp, crate::model::BodyKind::Kreistag) => {
            "Nachrücken aus einem Ausgleichssitz in den Sitz des Wahlkreises"
        }
        (reason, _) => departure_de(reason),
    }
}

/// The German wording of a departure reason (a Gemeinderat's words; [`departure_in`] for a body's).
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
        ResultCorrected => "Verlust des Sitzes durch Berichtigung oder Neufeststellung des Wahlergebnisses",
        MovedUp => "Nachrücken aus einem weiteren Sitz in den Sitz des Wohnbezirks",
        Other => "sonstiges Ausscheiden",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person(form: Option<FormOfAddress>, degree: Option<&str>) -> Candidate {
        let mut c: Candidate = serde_json::from_value(serde_json::json!({
            "id": "X", "position": 1, "given_name": "Erika", "family_name": "Muster"
        }))
        .expect("candidate");
        c.form_of_address = form;
        c.academic_degree = degree.map(str::to_owned);
        c
    }

    /// „Sehr geehrte Frau Dr. Name,“ / „Sehr geehrter Herr Name,“ from the form of address; without one the full
    /// name after „Guten Tag“, never „Sehr geehrte(r)“ (docs/legal.md, "Form of address").
    #[test]
    fn din_5008_salutation_and_address_by_form_of_address() {
        let frau = person(Some(FormOfAddress::Frau), Some("Dr."));
        assert_eq!(salutation(&frau), "Sehr geehrte Frau Dr. Muster,");
        assert_eq!(addressee(&frau), "Frau Dr. Erika Muster");
        let herr = person(Some(FormOfAddress::Herr), None);
        assert_eq!(salutation(&herr), "Sehr geehrter Herr Muster,");
        assert_eq!(addressee(&herr), "Herrn Erika Muster");
        let unknown = person(None, Some("Prof. Dr."));
        assert_eq!(salutation(&unknown), "Guten Tag Prof. Dr. Erika Muster,");
        assert_eq!(addressee(&unknown), "Prof. Dr. Erika Muster");
        assert!(!salutation(&person(None, None)).contains("geehrte"));
    }

    #[test]
    fn a_gendered_pair_gives_the_persons_word_and_both_only_when_unknown() {
        let pair = "Ihrer Vorgängerin oder Ihres Vorgängers";
        assert_eq!(gendered(pair, Some(FormOfAddress::Frau)), "Ihrer Vorgängerin");
        assert_eq!(gendered(pair, Some(FormOfAddress::Herr)), "Ihres Vorgängers");
        assert_eq!(gendered(pair, None), pair);
        assert_eq!(gendered("Ersatzperson", Some(FormOfAddress::Herr)), "Ersatzperson");
        let two = "schriftlich oder zur Niederschrift oder elektronisch";
        assert_eq!(gendered(two, Some(FormOfAddress::Frau)), two);
        // a reason about a named candidate: only its pairs change
        let reason = reason_de("barred_stays_successor");
        assert!(gendered_phrases(&reason, Some(FormOfAddress::Frau)).ends_with("bleibt Listennachfolgerin"));
        assert!(gendered_phrases(&reason, Some(FormOfAddress::Herr)).ends_with("bleibt Listennachfolger"));
        assert_eq!(gendered_phrases(&reason, None), reason);
        let party = reason_de("left_party");
        assert!(gendered_phrases(&party, Some(FormOfAddress::Herr))
            .contains("Partei oder Wählergruppe ausgeschieden, für die er"));
    }

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
            "incompatibility_holds_up_nothing",
            "bar_found_by_supervisory_authority",
            "barred_must_prove_leave",
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
            "other_areas",
            "other_areas_follow",
            "other_areas_exhausted",
            "most_votes_other_area",
            "no_other_areas_recorded",
            "additional_seat",
            "additional_seat_holder_moves_up",
            "additional_seat_holder_ersatzperson",
            "additional_seat_then",
            "additional_seat_then_lot",
            "additional_seat_then_vacant",
            "ausgleichssitz",
            "next_ausgleichssitz_ersatzperson",
            "ausgleichssitz_holder_moves_up",
            "ausgleichssitz_holder_ersatzperson",
            "ausgleichssitz_then",
            "ausgleichssitz_then_lot",
            "ausgleichssitz_then_vacant",
            "wahlkreis_two_fifths",
            "wahlkreis_cap_to_check",
            "party_ban_returning_officer_decides",
            "party_ban_seat_passes",
            "party_ban_members_to_check",
            "drawn_lot_order",
            "won_drawn_lot",
            "lost_drawn_lot",
        ] {
            let text = reason_de(code);
            assert!(text != code && !text.contains('_'), "{code}: {text}");
        }
        assert_eq!(reason_de("no_such_code"), "no_such_code");
    }
}
