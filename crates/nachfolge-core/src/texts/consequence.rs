//! What the successor is told will happen when his period passes — on silence, on a missing proof, on a
//! reservation — in the letter to him (`mail/<land>_offer`, `he_determination`) and in the period notice
//! (`mail/period_notice`). The sentences are chosen by the procedure's own decision
//! ([`crate::land::lapse::outlook`], the effect `deadline_expired` applies) and the procedure's
//! [`Reservation`]; only their words and citations are the Land's, here (docs/legal.md, "What a barred successor
//! is told"). A template renders `consequences.*`; it restates none of them.

use serde_json::{json, Value};

use crate::land::lapse::{outlook, Lapse, Outlook};
use crate::land::Reservation;
use crate::model::{Body, BodyKind, Land};

/// The Land's words for the consequences.
struct Words {
    /// How silence begins a sentence, up to the comma („Geben Sie … keine Erklärung ab, “).
    silence: &'static str,
    /// The deemed acceptance with its citation, after the comma („gilt die Wahl … als angenommen (§ …)“).
    accepted: &'static str,
    /// What a barred successor must prove, after „dass“.
    proof: &'static str,
    /// A barred successor without the proof: the effect with its citation, after the comma.
    refused: &'static str,
    /// The citation of „eine Erklärung unter Vorbehalt gilt als Ablehnung“ (`Reservation::Refusal`).
    reservation: &'static str,
    /// The sentence on a reservation where it is void (`Reservation::Ineffective`).
    reservation_void: &'static str,
}

const DECLARE: &str = "Geben Sie bis zum Ablauf der Frist keine Erklärung ab, ";
const REFUSE: &str = "Lehnen Sie die Wahl nicht bis zum Ablauf der Frist schriftlich ab, ";

fn words(land: Land, kind: BodyKind) -> Option<Words> {
    if (land, kind) == (Land::By, BodyKind::Bezirkstag) {
        // the Bezirkswahlgesetz, not the GLKrWG (docs/legal.md, "Bayern's Bezirkstage")
        return Some(Words {
            silence: DECLARE,
            accepted: "gilt die Wahl als angenommen (Art. 4 Abs. 2 Satz 2, Abs. 3 BezWG)",
            // not reached: a Listennachfolger with an incompatible activity is passed over, not called
            // (`rules::by::bezirkstag`); the words say what Art. 4 Abs. 4 BezWG says
            proof: "Sie die mit dem Ehrenamt unvereinbare Tätigkeit (Art. 23 Abs. 4 BezO) nicht mehr ausüben",
            refused: "können Sie das Amt nicht antreten (Art. 4 Abs. 4 Satz 1 BezWG)",
            reservation: "Art. 4 Abs. 2 Satz 3 BezWG",
            reservation_void: "Die Wahl kann nur vorbehaltlos angenommen werden; Vorbehalte oder Bedingungen, die Sie Ihrer Annahmeerklärung beifügen, sind unwirksam, die Annahme bleibt wirksam (Art. 4 Abs. 2 Satz 3, Abs. 3 BezWG).",
        });
    }
    let w = match land {
        Land::Nw => Words {
            silence: DECLARE,
            accepted: "gilt die Wahl mit Ablauf der Frist als angenommen (§ 45 Abs. 6 Satz 4 KWahlG)",
            proof: "Sie das mit der Mitgliedschaft unvereinbare Amt oder Arbeitsverhältnis beendet haben",
            refused: "gilt die Wahl als abgelehnt (§ 69 Abs. 2 in Verbindung mit § 62 Nr. 5 KWahlO)",
            reservation: "§ 45 Abs. 6 Satz 5 KWahlG",
            reservation_void: "",
        },
        Land::Rp => Words {
            silence: DECLARE,
            accepted: "gilt die Wahl als angenommen (§ 44 Abs. 2 Satz 1 KWG)",
            proof: "Ihr Dienst- oder Beschäftigungsverhältnis beendet ist oder Sie von ihm ohne Bezüge beurlaubt sind",
            refused: "gilt die Wahl als abgelehnt (§ 44 Abs. 2 Satz 2 KWG, § 66 Abs. 1 Satz 4 in Verbindung mit § 64 Abs. 2 Satz 1 KWO)",
            reservation: "§ 64 Abs. 1 Satz 2 Nr. 2 KWO",
            reservation_void: "",
        },
        Land::Ni => Words {
            silence: DECLARE,
            accepted: "gilt die Wahl mit Beginn des nächsten Tages nach Ablauf der Frist als angenommen (§ 40 Abs. 1 Satz 4 NKWG)",
            proof: "Sie die zur Beendigung Ihres mit der Mitgliedschaft unvereinbaren Amtes oder Beschäftigungsverhältnisses erforderliche Erklärung abgegeben haben",
            refused: "gilt die Wahl als abgelehnt (§ 50 Abs. 3 Satz 1 und 2 NKomVG)",
            reservation: "§ 40 Abs. 1 Satz 5 NKWG",
            reservation_void: "",
        },
        Land::St => Words {
            silence: DECLARE,
            accepted: "gilt die Wahl mit Beginn des folgenden Tages als angenommen (§ 43 Abs. 1 Satz 2 KWG LSA)",
            proof: "der Hinderungsgrund beseitigt ist",
            // not a deemed refusal: the mandate is lost (`Lapse::MandateLost`, see `mandate_lost`)
            refused: "",
            reservation: "§ 43 Abs. 1 Satz 3 KWG LSA",
            reservation_void: "",
        },
        Land::Th => Words {
            silence: DECLARE,
            accepted: "gilt die Wahl als angenommen (§ 29 Satz 2 ThürKWG); eine Ablehnung muss innerhalb der Frist schriftlich erklärt werden",
            proof: "die Unvereinbarkeit beendet ist",
            refused: "wird verfahren, als hätten Sie die Wahl abgelehnt",
            reservation: "§ 29 Satz 3 ThürKWG",
            reservation_void: "Die Wahl kann nur vorbehaltlos angenommen werden; Vorbehalte oder Bedingungen, die Sie Ihrer Annahmeerklärung beifügen, sind unwirksam, die Annahme bleibt wirksam (§ 29 Satz 3 ThürKWG).",
        },
        Land::Bb => Words {
            silence: DECLARE,
            accepted: "gilt die Wahl mit Beginn des folgenden Tages als angenommen (§ 51 Abs. 1 Satz 2 BbgKWahlG)",
            proof: "Sie die zur Beendigung Ihres Beamten- oder Arbeitnehmerverhältnisses erforderliche Erklärung abgegeben haben",
            refused: "gilt die Wahl als abgelehnt (§ 51 Abs. 2 Satz 2 und 4 BbgKWahlG)",
            reservation: "§ 51 Abs. 1 Satz 3 BbgKWahlG",
            reservation_void: "",
        },
        // § 43 KWG, applied to Ersatzleute by § 57 Abs. 4 with § 56 KWO (docs/legal.md, "Saarland")
        Land::Sl => Words {
            silence: DECLARE,
            accepted: "gilt die Wahl als angenommen (§ 43 Satz 2 KWG in Verbindung mit § 57 Abs. 4 KWO)",
            proof: "Ihr Dienst- oder Beschäftigungsverhältnis beendet ist oder Sie beurlaubt sind",
            refused: "gilt die Wahl als nicht angenommen (§ 56 Abs. 3 in Verbindung mit § 57 Abs. 4 KWO)",
            reservation: "§ 43 Satz 3 KWG in Verbindung mit § 57 Abs. 4 KWO",
            reservation_void: "",
        },
        Land::Sh => Words {
            silence: REFUSE,
            accepted: "erwerben Sie die Mitgliedschaft mit Ablauf der Frist (§ 37 Satz 1 GKWG); auch eine Annahmeerklärung lässt die Mitgliedschaft nicht früher beginnen",
            proof: "Sie von Ihrem Dienst- oder Arbeitsverhältnis beurlaubt sind oder Ihnen eine andere, mit dem Mandat vereinbare Funktion übertragen ist",
            refused: "",
            reservation: "§ 37 Satz 2 GKWG",
            reservation_void: "",
        },
        Land::Mv => Words {
            silence: REFUSE,
            accepted: "erwerben Sie die Mitgliedschaft mit Ablauf der Woche (§ 34 Satz 1 LKWG M-V); auch eine Annahmeerklärung lässt die Mitgliedschaft nicht früher beginnen",
            proof: "",
            refused: "",
            reservation: "§ 34 Satz 3 LKWG M-V",
            reservation_void: "Eine Erklärung unter Vorbehalt ist unbeachtlich; sie hindert den Erwerb der Mitgliedschaft nicht (§ 34 Satz 3 LKWG M-V).",
        },
        Land::By => Words {
            silence: "",
            accepted: "",
            proof: "",
            refused: "",
            reservation: "Art. 47 Abs. 3 Satz 3 GLKrWG",
            reservation_void: "Die Wahl kann nur vorbehaltlos angenommen werden; Vorbehalte oder Bedingungen, die Sie Ihrer Annahmeerklärung beifügen, sind unwirksam, die Annahme bleibt wirksam (Art. 47 Abs. 3 Satz 2 und 3 GLKrWG).",
        },
        Land::He | Land::Bw | Land::Sn => return None,
    };
    Some(w)
}

/// What the successor of a body of `body`'s Land and kind is told about the end of his period: the effect the
/// procedure will apply, as codes and as sentences.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Consequences {
    /// The effects (`land::lapse::outlook`).
    pub outlook: Outlook,
    /// What happens when the period passes, sentence by sentence: silence first; for a barred successor the
    /// missing proof, then silence with the proof.
    pub lapse: Vec<String>,
    /// What a declaration with a reservation means (`None` where nothing is declared: Hessen, by law).
    pub reservation: Option<String>,
    /// A barred successor who becomes a member must later prove the actual end of his employment, or lose the
    /// seat (`LandLaw::bar_end_proof_months`).
    pub bar_end: Option<String>,
}

/// The consequences the successor of `body` is told; `barred`: the offer's (`Offer::barred`), a Hinderungsgrund
/// or Unvereinbarkeit recorded at the determination.
pub fn consequences(body: &Body, barred: bool) -> Consequences {
    let (land, kind) = (body.land(), body.info().kind);
    let law = land.law();
    let outlook = outlook(law, kind, barred);
    let procedure = law.procedure(kind);
    let words = words(land, kind);
    let lapse = sentences(land, kind, &outlook, words.as_ref());
    let reservation =
        words.as_ref().filter(|_| procedure.acceptance.by_declaration()).map(|w| match procedure.reservation {
            Reservation::Refusal => format!("Eine Erklärung unter Vorbehalt gilt als Ablehnung ({}).", w.reservation),
            Reservation::Ineffective => w.reservation_void.to_owned(),
        });
    let bar_end = law.bar_end_proof_months().filter(|_| outlook.silence_proven.is_some()).map(|(months, citation)| {
        format!(
            "Die Beendigung des Dienst- oder Arbeitsverhältnisses selbst ist mir spätestens {} nach Annahme der Wahl nachzuweisen; wird dieser Nachweis nicht geführt, verlieren Sie mit Ablauf dieser Frist Ihren Sitz ({citation}).",
            months_de(months)
        )
    });
    Consequences { outlook, lapse, reservation, bar_end }
}

/// The consequences as the template context carries them (`consequences.*`).
pub fn context(c: &Consequences) -> Value {
    json!({
        "silence": c.outlook.silence.as_str(),
        "silence_proven": c.outlook.silence_proven.map(Lapse::as_str),
        "accepted_unproven": c.outlook.accepted_unproven.map(Lapse::as_str),
        "lapse": c.lapse,
        "reservation": c.reservation,
        "bar_end": c.bar_end,
    })
}

fn months_de(n: u32) -> String {
    match n {
        1 => "einen Monat".to_owned(),
        2 => "zwei Monate".to_owned(),
        3 => "drei Monate".to_owned(),
        4 => "vier Monate".to_owned(),
        6 => "sechs Monate".to_owned(),
        n => format!("{n} Monate"),
    }
}

/// The sentences for the effects of `o`, in the Land's words.
fn sentences(land: Land, kind: BodyKind, o: &Outlook, w: Option<&Words>) -> Vec<String> {
    let mut out = Vec::new();
    let acceptance = |w: &Words| format!("{}{}.", w.silence, w.accepted);
    match (o.silence, o.silence_proven, w) {
        // Hessen: a period runs only for a barred successor
        (Lapse::DeemedNotAcquired, _, _) => out.push(
            "Wird der Nachweis nicht bis zum Ablauf der Frist erbracht, gilt Ihre Mitgliedschaft rückwirkend als nicht erworben (§ 23 Abs. 2 Satz 3 KWG); an Ihre Stelle rückt dann die nächste Bewerberin oder der nächste Bewerber nach."
                .to_owned(),
        ),
        // Bayern: silence is refusal
        (Lapse::DeemedRefusal, _, _) if land == Land::By => {
            let office = match kind {
                BodyKind::Council => "bei der Gemeindeverwaltung",
                BodyKind::Kreistag => "beim Landratsamt",
                // not reached: a Bayern Bezirkstag's silence is acceptance (Art. 4 Abs. 2 Satz 2 BezWG)
                BodyKind::Bezirkstag => "bei der Bezirksverwaltung",
                // not reached: the Regionalversammlung is Saarland's
                BodyKind::Regionalversammlung => "bei der Gemeindeverwaltung",
            };
            out.push(format!("Nehmen Sie die Wahl nicht bis zum Ablauf der Frist schriftlich oder zur Niederschrift {office} an, gilt sie als abgelehnt (Art. 47 Abs. 2 Satz 2 GLKrWG); es rückt dann die nächste Listennachfolgerin oder der nächste Listennachfolger nach."));
        }
        (Lapse::DeemedAcceptance, None, Some(w)) => out.push(acceptance(w)),
        // the proof is a condition of the acceptance: without it the election counts as refused, silent or not;
        // silence is acceptance only once it is in
        (Lapse::DeemedRefusal, Some(Lapse::DeemedAcceptance), Some(w)) => {
            out.push(format!(
                "Weisen Sie mir nicht bis zum Ablauf der Frist nach, dass {}, {}; das gilt auch, wenn Sie die Annahme erklärt oder keine Erklärung abgegeben haben.",
                w.proof, w.refused
            ));
            out.push(format!("Erbringen Sie den Nachweis bis zum Ablauf der Frist und geben keine Erklärung ab, {}.", w.accepted));
        }
        // Sachsen-Anhalt: silence is acceptance; with the Hinderungsgrund the mandate is lost at once
        (Lapse::MandateLost, Some(Lapse::DeemedAcceptance), Some(w)) => {
            out.push(acceptance(w));
            out.push(format!(
                "Haben Sie mir bis zum Ablauf der Frist nicht nachgewiesen, dass {}, liegt er bei der Annahme der Wahl noch vor: Sie verlieren das Mandat dann sogleich wieder, auch wenn Sie die Annahme ausdrücklich erklärt haben (§ 42 Abs. 1 Nr. 3 KVG LSA); der Sitz geht auf die nächste nächst festgestellte Bewerberin oder den nächsten nächst festgestellten Bewerber über (§ 47 Abs. 1 Satz 1 KWG LSA in Verbindung mit § 42 Abs. 4 KVG LSA).",
                w.proof
            ));
        }
        // Schleswig-Holstein: membership waits for the written proof, however long it takes
        (Lapse::AwaitsProof, Some(Lapse::DeemedAcceptance), Some(w)) => out.push(format!(
            "{}erwerben Sie die Mitgliedschaft erst, wenn Sie mir schriftlich nachweisen, dass {}, frühestens jedoch mit Ablauf der Frist (§ 37 Satz 1, § 37a Abs. 1 Satz 1 GKWG); solange dieser Nachweis fehlt, werden Sie nicht Mitglied.",
            w.silence, w.proof
        )),
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_land_with_a_period_has_words_for_the_effect_its_procedure_applies() {
        for land in [Land::Nw, Land::Rp, Land::Ni, Land::St, Land::Th, Land::Bb, Land::Sh, Land::Mv, Land::By, Land::Sl]
        {
            let kinds: &[BodyKind] = match land {
                Land::Rp | Land::By => &[BodyKind::Council, BodyKind::Kreistag, BodyKind::Bezirkstag],
                Land::Sl => &[BodyKind::Council, BodyKind::Kreistag, BodyKind::Regionalversammlung],
                _ => &[BodyKind::Council, BodyKind::Kreistag],
            };
            for &kind in kinds {
                let law = land.law();
                for barred in [false, true] {
                    let o = outlook(law, kind, barred);
                    let s = sentences(land, kind, &o, words(land, kind).as_ref());
                    assert!(!s.is_empty(), "{land:?} {kind:?} barred {barred}: {o:?}");
                    assert!(s.iter().all(|s| s.contains("Ablauf der Frist") && s.ends_with('.')), "{s:?}");
                }
            }
        }
        assert_eq!(months_de(4), "vier Monate");
    }
}
