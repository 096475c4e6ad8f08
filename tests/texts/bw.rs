//! Baden-Württemberg: the letter to the Ersatzperson after the council's resolution (§ 31 Abs. 2, § 29
//! Abs. 5, §§ 15, 16, 32 GemO); nothing is announced. Included by tests/texts.rs; its helpers are the parent's.

use super::*;

const BW: &str = "musterhausen-gemeinderat";

#[test]
fn bw_gemo_31_abs_2_letter_after_the_council_resolution() {
    let mut b = body(example("bw-election.json"));
    let e = run(&mut b, "vacancy.reported", example("bw-vacancy.json"), now());
    assert!(e.iter().all(|e| !matches!(e, Effect::Mail(_) | Effect::Announce(_))), "the case waits for the council");
    let case = b.cases.keys().next().expect("case").clone();
    let e = run(
        &mut b,
        "determination.confirmed",
        json!({"body": BW, "case": case, "round": 1, "confirmed_by": "Gemeinderat Musterhausen", "confirmed_at": "2026-11-30T10:30:00+01:00"}),
        "2026-11-30T10:00:00Z".parse().expect("time"),
    );
    render(&e, "bw-successor");
    let text = text_of(&e, "mail");
    assert!(text.contains("§ 31 Abs. 2 Satz 1 der Gemeindeordnung für Baden-Württemberg"), "{text}");
    assert!(text.contains("Einer Erklärung über die Annahme bedarf es nicht"), "{text}");
    assert!(text.contains("Clara Claßen") && text.contains("§ 29 Abs. 1, 5 GemO"), "{text}");
    assert!(e.iter().all(|e| !matches!(e, Effect::Announce(_))), "nothing is announced");
}

/// § 31 Abs. 2 Satz 2 GemO: the letter to the holder of a weiterer Sitz who moves into her Wohnbezirk's seat (her
/// membership goes on, no declaration, no second Verpflichtung), and the letter to the Ersatzperson who then takes
/// the weiterer Sitz (§ 26 Abs. 2 Satz 5 KomWG).
#[test]
fn bw_31_abs_2_satz_2_gemo_letters_of_a_move_and_of_the_weiterer_sitz_it_frees() {
    let mut b = body(example("bw-teilortswahl-election.json"));
    run(&mut b, "vacancy.reported", example("bw-teilortswahl-vacancy.json"), now());
    let confirm = |case: &str| json!({"body": "teilhausen-gemeinderat", "case": case, "round": 1, "confirmed_by": "Gemeinderat Teilhausen", "confirmed_at": "2026-11-30T10:30:00+01:00"});
    let at: DateTime<Utc> = "2026-11-30T10:00:00Z".parse().expect("time");
    let e = run(&mut b, "determination.confirmed", confirm("teilhausen-gemeinderat-1"), at);
    render(&e, "bw-teilortswahl-move");
    let text = text_of(&e, "mail");
    assert!(text.contains("Sehr geehrte Frau Dietz"), "{text}");
    assert!(text.contains("§ 31 Abs. 2 Satz 2 in Verbindung mit Satz 1 der Gemeindeordnung"), "{text}");
    assert!(text.contains("für den Wohnbezirk „Oberdorf“"), "{text}");
    assert!(text.contains("Ihre Mitgliedschaft im Gemeinderat besteht unverändert fort"), "{text}");
    assert!(!text.contains("öffentlich auf die gewissenhafte Erfüllung"), "no second Verpflichtung: {text}");
    let e = run(&mut b, "determination.confirmed", confirm("teilhausen-gemeinderat-2"), at);
    render(&e, "bw-teilortswahl-weiterer-sitz");
    let text = text_of(&e, "mail");
    assert!(text.contains("Sehr geehrte Frau Frank"), "{text}");
    assert!(text.contains("Doris Dietz ist mit Wirkung vom 30.11.2026 als nächste Ersatzperson"), "{text}");
    assert!(text.contains("in den frei gewordenen weiteren Sitz des Gemeinderats nach"), "{text}");
    assert!(!text.contains("ausgeschieden"), "she did not leave: {text}");
}
