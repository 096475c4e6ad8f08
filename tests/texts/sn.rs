//! Sachsen: the letter to the Ersatzperson after the council's resolution (§ 34 Abs. 2, § 32 Abs. 3, §§ 17, 18,
//! 35 SächsGemO); nothing is announced. Included by tests/texts.rs; its helpers are the parent's.

use super::*;

const SN: &str = "musterwitz-gemeinderat";

#[test]
fn sn_saechsgemo_34_abs_2_letter_after_the_council_resolution() {
    let mut b = body(example("sn-election.json"));
    let at: DateTime<Utc> = "2026-11-30T10:00:00Z".parse().expect("time");
    let e = run(&mut b, "vacancy.reported", example("sn-vacancy.json"), at);
    assert!(e.iter().all(|e| !matches!(e, Effect::Mail(_) | Effect::Announce(_))), "the case waits for the council");
    let case = b.cases.keys().next().expect("case").clone();
    let e = run(
        &mut b,
        "determination.confirmed",
        json!({"body": SN, "case": case, "round": 1, "confirmed_by": "Gemeinderat Musterwitz", "confirmed_at": "2026-11-30T11:30:00+01:00"}),
        "2026-11-30T11:00:00Z".parse().expect("time"),
    );
    render(&e, "sn-successor");
    let text = text_of(&e, "mail");
    assert!(text.contains("§ 34 Abs. 2 der Gemeindeordnung für den Freistaat Sachsen"), "{text}");
    assert!(text.contains("Ulf Uhlig") && text.contains("§ 34 Abs. 2 i. V. m. § 31 SächsGemO"), "{text}");
    assert!(!text.contains("Baden-Württemberg") && !text.contains(" GemO"), "{text}");
    assert!(e.iter().all(|e| !matches!(e, Effect::Announce(_))), "nothing is announced");
}
