//! Kreistage (`body.kind = kreistag`; docs/legal.md, "Kreistage"): one golden set per acceptance model — NRW
//! (declaration, § 45 KWahlG NRW), Hessen (membership with the determination, § 34 KWG), Bayern (express
//! declaration, Art. 47, 48 GLKrWG) and Baden-Württemberg (by law after the Kreistag's resolution, § 25 Abs. 2
//! LKrO). The texts name the Kreistag and the Kreiswahlleitung, never the municipal council. Included by
//! tests/texts.rs; its helpers are the parent's.

use super::*;

/// `example` as a Kreistag: `body.kind = kreistag`, the body's id and name replaced.
fn kreistag(name: &str, id: &str, title: &str) -> Value {
    let mut s = example(name);
    s["body"]["kind"] = json!("kreistag");
    s["body"]["id"] = json!(id);
    s["body"]["name"] = json!(title);
    s["body"]["returning_officer"] = json!({
        "name": "Karla Kreis",
        "title": "Kreiswahlleiterin",
        "email": "kreiswahlleitung@musterkreis.de",
        "address": "Kreishaus, Kreisplatz 1, 12399 Musterkreisstadt"
    });
    s
}

fn vacancy(name: &str, id: &str) -> Value {
    let mut v = example(name);
    v["body"] = json!(id);
    v
}

#[track_caller]
fn assert_kreistag_words(text: &str) {
    assert!(text.contains("Kreistag"), "{text}");
    assert!(!text.contains("Vertretung") && !text.contains("Gemeinderat"), "{text}");
}

#[test]
fn nw_kwahlg_45_abs_6_kreistag_offer_and_announcement() {
    const KT: &str = "musterkreis-kreistag";
    let mut b = body(kreistag("nrw-election.json", KT, "Kreistag des Kreises Musterkreis"));
    let e = run(&mut b, "vacancy.reported", vacancy("nrw-vacancy-list-member.json", KT), now());
    render(&e, "kreistag-nrw-successor-offer");
    let offer = text_of(&e, "mail");
    assert_kreistag_words(&offer);
    assert!(offer.contains("Karla Kreis\nKreiswahlleiterin für die Wahl des Kreistags"), "{offer}");
    let case = b.cases.keys().next().expect("case").clone();
    notification_sent(&mut b, &case);
    let e = run(
        &mut b,
        "declaration.received",
        json!({"body": KT, "case": case, "candidate": "L1-04", "kind": "accept", "received_at": "2026-12-02T10:00:00+01:00"}),
        "2026-12-02T09:30:00Z".parse().expect("time"),
    );
    render(&e, "kreistag-nrw-successor-accepted");
    let text = text_of(&e, "successor");
    assert_kreistag_words(&text);
    assert!(text.contains("Kreiswahlleitung"), "{text}");
}

#[test]
fn he_kwg_34_abs_3_kreistag_determination_and_announcement() {
    const KT: &str = "musterkreis-kreistag";
    let mut b = body(kreistag("he-election.json", KT, "Kreistag des Landkreises Musterkreis"));
    let e = run(&mut b, "vacancy.reported", vacancy("he-vacancy.json", KT), now());
    render(&e, "kreistag-he-successor");
    let mail = text_of(&e, "mail");
    assert_kreistag_words(&mail);
    assert!(mail.contains("in den Kreistag nachrücken"), "{mail}");
    let text = text_of(&e, "successor");
    assert_kreistag_words(&text);
    assert!(text.contains("Über die Einsprüche beschließt der Kreistag"), "{text}");
}

#[test]
fn by_lkro_art_24_kreistag_verstaendigung() {
    const KT: &str = "musterkreis-kreistag";
    let mut b = body(kreistag("by-election.json", KT, "Kreistag des Landkreises Musterkreis"));
    run(&mut b, "vacancy.reported", vacancy("by-vacancy.json", KT), now());
    let case = b.cases.keys().next().expect("case").clone();
    let e = run(
        &mut b,
        "determination.confirmed",
        json!({"body": KT, "case": case, "round": 1, "confirmed_by": "Kreistag Musterkreis, Beschluss vom 30.11.2026", "confirmed_at": "2026-11-30T10:00:00+01:00"}),
        "2026-11-30T10:00:00Z".parse().expect("time"),
    );
    render(&e, "kreistag-by-successor-offer");
    let offer = text_of(&e, "mail");
    assert_kreistag_words(&offer);
    assert!(offer.contains("zur Niederschrift beim Landratsamt"), "{offer}");
    assert!(offer.contains("Eid (Art. 24 Abs. 4 der Landkreisordnung)"), "{offer}");
    assert!(!offer.contains("Gemeindeverwaltung") && !offer.contains("Gemeindeordnung"), "{offer}");
}

#[test]
fn bw_lkro_25_abs_2_kreistag_letter_after_the_resolution() {
    const KT: &str = "musterkreis-kreistag";
    let mut b = body(example("bw-kreistag-election.json"));
    let e = run(&mut b, "vacancy.reported", example("bw-kreistag-vacancy.json"), now());
    assert!(e.iter().all(|e| !matches!(e, Effect::Mail(_) | Effect::Announce(_))), "the case waits for the Kreistag");
    let case = b.cases.keys().next().expect("case").clone();
    let e = run(
        &mut b,
        "determination.confirmed",
        json!({"body": KT, "case": case, "round": 1, "confirmed_by": "Kreistag Musterkreis", "confirmed_at": "2026-11-30T10:30:00+01:00"}),
        "2026-11-30T10:00:00Z".parse().expect("time"),
    );
    render(&e, "kreistag-bw-successor");
    let text = text_of(&e, "mail");
    assert_kreistag_words(&text);
    assert!(text.contains("§ 25 Abs. 2 Satz 1 der Landkreisordnung für Baden-Württemberg (LKrO)"), "{text}");
    assert!(text.contains("Clara Claßen") && text.contains("§ 24 Abs. 1, 2 LKrO"), "{text}");
    assert!(text.contains("Landratsamt") && !text.contains("GemO") && !text.contains("Bürgermeisteramt"), "{text}");
}

/// § 25 Abs. 2 Satz 2 LKrO: the letters of a move — the holder of the Ausgleichssitz moves into her Wahlkreis's seat
/// (no declaration, no second Verpflichtung), and the next Ersatzperson for the Ausgleichssitze takes hers.
#[test]
fn bw_lkro_25_abs_2_satz_2_kreistag_letters_of_a_move_into_the_wahlkreis_seat() {
    const KT: &str = "albkreis-kreistag";
    let mut b = body(example("bw-kreistag-ausgleich-election.json"));
    run(&mut b, "vacancy.reported", example("bw-kreistag-ausgleich-vacancy.json"), now());
    // the Kreistag's resolution on `case` at `at` (Europe/Berlin), entered half an hour later
    let resolution = |b: &mut Council, case: &str, at: &str| {
        let confirmed_at: DateTime<Utc> = format!("{at}+01:00").parse().expect("time");
        let data = json!({"body": KT, "case": case, "round": 1, "confirmed_by": "Kreistag Albkreis", "confirmed_at": format!("{at}+01:00")});
        run(b, "determination.confirmed", data, confirmed_at + chrono::Duration::minutes(30))
    };
    let e = resolution(&mut b, "albkreis-kreistag-1", "2026-11-30T10:30:00");
    render(&e, "kreistag-bw-ausgleich-move");
    let text = text_of(&e, "mail");
    assert_kreistag_words(&text);
    assert!(text.contains("Sie haben einen Ausgleichssitz im Kreistag inne"), "{text}");
    assert!(text.contains("Einer erneuten Verpflichtung nach § 26 LKrO bedarf es nicht."), "{text}");
    assert!(!text.contains("GemO") && !text.contains("Wohnbezirk") && !text.contains("weiteren Sitz"), "{text}");
    let e = resolution(&mut b, "albkreis-kreistag-2", "2026-11-30T10:35:00");
    render(&e, "kreistag-bw-ausgleich-follow-on");
    let text = text_of(&e, "mail");
    assert_kreistag_words(&text);
    assert!(text.contains("aus einem Ausgleichssitz in einen Sitz dieses Wahlkreises nachgerückt"), "{text}");
    assert!(text.contains("nächste festgestellte Ersatzperson für die Ausgleichssitze"), "{text}");
    assert!(text.contains("Jakob Jäger") && text.contains("§ 25 Abs. 2 Satz 2 Halbsatz 2 LKrO"), "{text}");
    assert!(!text.contains("GemO") && !text.contains("Wohnbezirk"), "{text}");
}

#[test]
fn sn_saechslkro_30_abs_2_kreistag_letter_after_the_resolution() {
    const KT: &str = "musterkreis-kreistag";
    let mut b = body(kreistag("sn-election.json", KT, "Kreistag des Landkreises Musterkreis"));
    let at: DateTime<Utc> = "2026-11-30T10:00:00Z".parse().expect("time");
    run(&mut b, "vacancy.reported", vacancy("sn-vacancy.json", KT), at);
    let case = b.cases.keys().next().expect("case").clone();
    let e = run(
        &mut b,
        "determination.confirmed",
        json!({"body": KT, "case": case, "round": 1, "confirmed_by": "Kreistag Musterkreis", "confirmed_at": "2026-11-30T11:30:00+01:00"}),
        "2026-11-30T11:00:00Z".parse().expect("time"),
    );
    let text = text_of(&e, "mail");
    assert_kreistag_words(&text);
    assert!(text.contains("§ 30 Abs. 2 der Landkreisordnung für den Freistaat Sachsen (SächsLKrO)"), "{text}");
    assert!(text.contains("§ 30 Abs. 2 i. V. m. § 27 SächsLKrO"), "{text}");
    assert!(text.contains("Landratsamt") && !text.contains("SächsGemO"), "{text}");
}

/// Thüringen, Schleswig-Holstein, Mecklenburg-Vorpommern, Rheinland-Pfalz: the offer to a barred successor
/// names the Kreistag's norm, not the Gemeindeordnung's.
#[test]
fn th_sh_mv_rp_kreistag_offer_to_a_barred_successor_names_the_kreistag_norm() {
    const KT: &str = "musterkreis-kreistag";
    for (land, norm, council_norm) in [
        ("th", "§ 102 Abs. 4 ThürKO", "§ 23 Abs. 4 ThürKO"),
        ("sh", "§ 26a der Kreisordnung (KrO)", "§ 31a"),
        ("mv", "Teil 2 (Landkreisordnung) der Kommunalverfassung (KV M-V)", "§ 25 Abs. 1"),
        ("rp", "§ 55 Abs. 1 KWG", "§ 5 KWG"),
    ] {
        let mut s = kreistag(&format!("{land}-election.json"), KT, "Kreistag des Landkreises Musterkreis");
        let v = vacancy(&format!("{land}-vacancy.json"), KT);
        // the successor of the plain example, barred: decide once to learn who it is
        let mut probe = body(s.clone());
        let e = run(&mut probe, "vacancy.reported", v.clone(), now());
        let Some(who) = e.iter().find_map(|e| match e {
            Effect::Mail(m) => Some(m.candidate.clone()),
            _ => None,
        }) else {
            // a Land whose offer waits for a confirmation is not among these
            panic!("{land}: no offer mailed");
        };
        for l in s["lists"].as_array_mut().into_iter().flatten() {
            for c in l["candidates"].as_array_mut().into_iter().flatten() {
                if c["id"] == json!(who) {
                    c["facts"] =
                        json!([{"type": "barred", "on": "2026-01-01", "reason": "Beschäftigte des Landkreises"}]);
                }
            }
        }
        let mut b = body(s);
        let e = run(&mut b, "vacancy.reported", v, now());
        let text = text_of(&e, "mail");
        assert_kreistag_words(&text);
        assert!(text.contains(norm), "{land}: {text}");
        assert!(!text.contains(council_norm), "{land}: {text}");
    }
}

/// Saarland (§ 57 KWO entsprechend, § 94 Abs. 2 KWO; docs/legal.md, "Saarland: Kreistage"): the Kreiswahlleiterin
/// confirms, then the offer names the Kreistag and cites the Kreistag's norms.
#[test]
fn sl_94_abs_2_kwo_kreistag_offer_after_the_confirmation() {
    const KT: &str = "musterkreis-kreistag";
    let mut b = body(kreistag("sl-election.json", KT, "Kreistag des Landkreises Musterkreis"));
    let e = run(&mut b, "vacancy.reported", vacancy("sl-vacancy.json", KT), now());
    assert!(e.iter().all(|e| !matches!(e, Effect::Mail(_))), "the Kreiswahlleitung confirms first");
    let case = b.cases.keys().next().expect("case").clone();
    let e = run(
        &mut b,
        "determination.confirmed",
        json!({"body": KT, "case": case, "round": 1, "confirmed_by": "Kreiswahlleiterin Karla Kreis", "confirmed_at": "2026-11-30T10:00:00+01:00"}),
        now(),
    );
    render(&e, "kreistag-sl-successor-offer");
    let offer = text_of(&e, "mail");
    assert_kreistag_words(&offer);
    assert!(
        offer.contains("§ 57 Abs. 1 Satz 1 in entsprechender Anwendung und § 94 Abs. 2 der Kommunalwahlordnung"),
        "{offer}"
    );
    assert!(offer.contains("Karla Kreis\nKreiswahlleiterin für die Wahl des Kreistags"), "{offer}");
}
