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
