//! Kreistage (`body.kind = kreistag`; docs/legal.md, "Kreistage"): the same election statute decides who
//! succeeds, and the trail cites the Landkreisordnung where a Kreistag's norm differs from the Gemeindeordnung's.
//! Each test decides the same lists once for a council and once for a Kreistag and asserts that the Kreistag's
//! trail is the council's with exactly the citations written out here replaced. Included by tests/rules.rs; its
//! helpers are the parent's.

use super::*;
use fixtures::SnapshotBuilder;

/// A Land's empty body (`fixtures::nrw`, `fixtures::bayern`, …).
type Builder = fn() -> SnapshotBuilder;

/// Lists `X1`: X1-01 (pos. 1, 900 votes, seated, the departed), `second`, X1-03 (pos. 3, 300 votes).
fn abc(builder: Builder, voter: bool, p: &str, second: Candidate) -> (Body, Body) {
    let list = |b: SnapshotBuilder| {
        let cands = vec![
            hcand(&format!("{p}-01"), 1, 900).seated(SeatVia::List),
            second.clone(),
            hcand(&format!("{p}-03"), 3, 300),
        ];
        let l = if voter { voter_group(p, cands) } else { party(p, cands) };
        b.list(l)
    };
    (list(builder()).body(), list(builder().kreistag()).body())
}

/// Decide for both kinds; the Kreistag's trail must be the council's with `map` applied (council → Kreistag),
/// and every mapped citation must occur in the council's trail (so the test exercises it).
#[track_caller]
fn assert_kreistag_trail(council: &Body, kreistag: &Body, departed: &str, map: &[(&str, &str)]) -> Decision {
    let c = decide(council, &query(departed)).unwrap();
    let k = decide(kreistag, &query(departed)).unwrap();
    assert_eq!(c.outcome, k.outcome, "the same successor for both kinds");
    for (from, _) in map {
        assert!(c.trail.iter().any(|s| s.citation == *from), "{from:?} not in the council's trail: {:#?}", c.trail);
    }
    let expected: Vec<TrailStep> = c
        .trail
        .iter()
        .map(|s| {
            let mut s = s.clone();
            if let Some((_, to)) = map.iter().find(|(from, _)| *from == s.citation) {
                s.citation = (*to).to_owned();
            }
            s
        })
        .collect();
    assert_eq!(k.trail, expected, "Kreistag trail");
    k
}

#[test]
fn bw_lkro_25_abs_2_and_24_a_kreistag_cites_the_landkreisordnung() {
    let (c, k) = abc(baden_wuerttemberg, true, "B1", hcand("B1-02", 2, 500).barred("Beamter des Landratsamts"));
    let d = assert_kreistag_trail(
        &c,
        &k,
        "B1-01",
        &[
            ("§ 31 Abs. 2 Satz 1 GemO", "§ 25 Abs. 2 Satz 1 LKrO"),
            ("§ 29 Abs. 1, 5 GemO", "§ 24 Abs. 1, 2 LKrO"),
            (
                "§ 31 Abs. 2 Satz 1 GemO i. V. m. § 26 Abs. 1 Satz 3 KomWG",
                "§ 25 Abs. 2 Satz 1 LKrO i. V. m. § 26 Abs. 1 Satz 3 KomWG",
            ),
        ],
    );
    assert!(d.trail.iter().all(|s| !s.citation.contains("GemO")), "{:#?}", d.trail);
}

#[test]
fn bw_lkro_25_abs_2_satz_1_i_v_m_23_an_ineligible_ersatzperson_of_a_kreistag() {
    let (c, k) = abc(baden_wuerttemberg, true, "B1", hcand("B1-02", 2, 500).ineligible("2025-01-01", None));
    assert_kreistag_trail(
        &c,
        &k,
        "B1-01",
        &[
            ("§ 31 Abs. 2 Satz 1 GemO", "§ 25 Abs. 2 Satz 1 LKrO"),
            ("§ 31 Abs. 2 Satz 1 i. V. m. § 28 GemO", "§ 25 Abs. 2 Satz 1 i. V. m. § 23 LKrO"),
            (
                "§ 31 Abs. 2 Satz 1 GemO i. V. m. § 26 Abs. 1 Satz 3 KomWG",
                "§ 25 Abs. 2 Satz 1 LKrO i. V. m. § 26 Abs. 1 Satz 3 KomWG",
            ),
        ],
    );
}

#[test]
fn bw_lkro_25_abs_2_satz_2_a_kreistag_snapshot_with_wohnbezirke_is_refused() {
    let snap = baden_wuerttemberg()
        .kreistag()
        .list(voter_group(
            "B1",
            vec![
                hcand("B1-01", 1, 900).seated(SeatVia::List).district("Nord"),
                hcand("B1-02", 2, 500).district("Nord"),
            ],
        ))
        .snapshot();
    let e = Body::from_snapshot(snap).unwrap_err();
    assert_eq!(e.field, "lists[0].candidates[0].district");
}

#[test]
fn sn_saechslkro_30_abs_2_and_28_a_kreistag_cites_the_landkreisordnung() {
    let (c, k) = abc(sachsen, true, "S1", hcand("S1-02", 2, 500).barred("Arbeitnehmer des Landkreises"));
    let d = assert_kreistag_trail(
        &c,
        &k,
        "S1-01",
        &[
            ("§ 34 Abs. 2 SächsGemO", "§ 30 Abs. 2 SächsLKrO"),
            ("§ 32 Abs. 1, 3 SächsGemO", "§ 28 SächsLKrO"),
            (
                "§ 34 Abs. 2 SächsGemO i. V. m. § 21 Abs. 2 Satz 2 KomWG",
                "§ 30 Abs. 2 SächsLKrO i. V. m. § 21 Abs. 2 Satz 2 KomWG",
            ),
        ],
    );
    assert!(d.trail.iter().all(|s| !s.citation.contains("SächsGemO")), "{:#?}", d.trail);
}

#[test]
fn by_lkro_art_24_abs_3_a_kreisrat_with_a_hinderungsgrund_is_passed_over() {
    let (c, k) = abc(bayern, false, "B1", hcand("B1-02", 2, 500).barred("Beamter des Landratsamts"));
    assert_kreistag_trail(
        &c,
        &k,
        "B1-01",
        &[(
            "Art. 37 Abs. 2 Satz 2 Halbsatz 2 GLKrWG i. V. m. Art. 31 Abs. 3 GO",
            "Art. 37 Abs. 2 Satz 2 Halbsatz 2 GLKrWG i. V. m. Art. 24 Abs. 3 LKrO",
        )],
    );
}

#[test]
fn th_thuerko_102_abs_4_a_barred_kreistag_successor_must_prove() {
    let (c, k) = abc(thueringen, false, "T1", hcand("T1-02", 2, 500).barred("Beschäftigter des Landkreises"));
    assert_kreistag_trail(
        &c,
        &k,
        "T1-01",
        &[(
            "§ 23 Abs. 4 ThürKO i. V. m. § 30 Abs. 2 Nr. 2 ThürKWG",
            "§ 102 Abs. 4 ThürKO i. V. m. § 30 Abs. 2 Nr. 2 ThürKWG",
        )],
    );
}

#[test]
fn sh_kro_26a_an_unvereinbarkeit_in_a_kreistag() {
    let (c, k) = abc(schleswig_holstein, false, "K1", cand("K1-02", 2).barred("Beschäftigte des Kreises"));
    assert_kreistag_trail(
        &c,
        &k,
        "K1-01",
        &[("§ 31a Abs. 1 GO i. V. m. § 37a Abs. 1 Satz 1 GKWG", "§ 26a KrO i. V. m. § 37a Abs. 1 Satz 1 GKWG")],
    );
}

#[test]
fn rp_kwg_55_abs_1_a_barred_kreistag_successor_must_prove() {
    let (c, k) = abc(rheinland_pfalz, false, "R1", hcand("R1-02", 2, 500).barred("Beamter der Kreisverwaltung"));
    assert_kreistag_trail(
        &c,
        &k,
        "R1-01",
        &[(
            "§ 5 KWG, § 66 Abs. 1 Satz 4 i. V. m. § 64 Abs. 2 KWO",
            "§ 55 Abs. 1 KWG, § 66 Abs. 1 Satz 4 i. V. m. § 64 Abs. 2 KWO",
        )],
    );
}

#[test]
fn mv_kv_teil_2_a_barred_kreistag_successor_cites_no_norm_of_the_gemeindeordnung() {
    let (c, k) =
        abc(mecklenburg_vorpommern, false, "M1", hcand("M1-02", 2, 500).barred("Bediensteter des Landkreises"));
    assert_kreistag_trail(
        &c,
        &k,
        "M1-01",
        &[("§ 25 Abs. 1, 4 KV M-V", "Unvereinbarkeit von Amt und Mandat nach Teil 2 KV M-V (Landkreisordnung)")],
    );
}

/// NRW § 45 KWahlG, Hessen § 34 KWG, Niedersachsen § 44 NKWG (§ 50 NKomVG), Sachsen-Anhalt § 47 KWG LSA (§ 41 KVG
/// LSA): the statute the rule set cites applies to a Kreistag as it stands.
#[test]
fn nw_he_ni_st_the_election_statute_applies_to_a_kreistag_unchanged() {
    let cases: [(Builder, &str); 4] = [(nrw, "N1"), (hessen, "H1"), (niedersachsen, "I1"), (sachsen_anhalt, "A1")];
    for (builder, p) in cases {
        let (c, k) = abc(builder, false, p, hcand(&format!("{p}-02"), 2, 500).barred("Beschäftigter des Kreises"));
        let cd = decide(&c, &query(&format!("{p}-01"))).unwrap();
        let kd = decide(&k, &query(&format!("{p}-01"))).unwrap();
        assert_eq!(cd, kd, "{p}");
    }
}

/// The Nachrückerliste of a Kreistag cites the Kreistag's norms too (`nachfolge succession-order`).
#[test]
fn bw_lkro_24_the_succession_order_of_a_kreistag() {
    let (c, k) = abc(baden_wuerttemberg, true, "B1", hcand("B1-02", 2, 500).barred("Beamter des Landratsamts"));
    let council = c.succession_order(t(REFERENCE));
    let kreistag = k.succession_order(t(REFERENCE));
    assert_eq!(council.lists[0].order, kreistag.lists[0].order);
    let cited: Vec<&str> = kreistag.lists[0].passed_over.iter().map(|p| p.citation.as_str()).collect();
    assert!(cited.contains(&"§ 24 Abs. 1, 2 LKrO"), "{cited:?}");
    assert!(cited.iter().all(|c| !c.contains("GemO")), "{cited:?}");
}

/// `body.kind`: `council` by default (every existing snapshot stays valid), `kreistag`, and `bezirkstag` (since
/// issue 25 point 10: parsed, but valid only in Rheinland-Pfalz), nothing else.
#[test]
fn body_kind_defaults_to_council_and_is_written_only_for_a_kreistag() {
    let council = nrw().list(party("N1", vec![cand("N1-01", 1).seated(SeatVia::List)])).json();
    assert!(council["body"].get("kind").is_none());
    let parsed = parse_snapshot(council.to_string().as_bytes()).unwrap();
    assert_eq!(parsed.body.kind, nachfolge::model::BodyKind::Council);
    let kreistag = nrw().kreistag().list(party("N1", vec![cand("N1-01", 1).seated(SeatVia::List)])).json();
    assert_eq!(kreistag["body"]["kind"], "kreistag");
    let mut wrong = council.clone();
    wrong["body"]["kind"] = serde_json::json!("bezirksrat");
    let e = parse_snapshot(wrong.to_string().as_bytes()).unwrap_err();
    assert_eq!(e.field, "body.kind", "{e}");
    // a Bezirkstag and a Regionalversammlung parse, and an NRW one is refused at validation, naming the field
    for kind in ["bezirkstag", "regionalversammlung"] {
        wrong["body"]["kind"] = serde_json::json!(kind);
        let parsed = parse_snapshot(wrong.to_string().as_bytes()).unwrap();
        assert_eq!(Body::from_snapshot(parsed).unwrap_err().field, "body.kind", "{kind}");
    }
}

/// Every Land: a Kreistag's procedure keeps the council's acceptance model, reservation, objection period and
/// mail template (docs/legal.md, "Kreistage"); only citations and words differ.
#[test]
fn every_land_a_kreistag_keeps_the_acceptance_model_and_the_objection_period() {
    use nachfolge::land::Land;
    use nachfolge::model::BodyKind;
    for land in Land::ALL {
        let (c, k) = (land.law().procedure(BodyKind::Council), land.law().procedure(BodyKind::Kreistag));
        assert_eq!(c.acceptance, k.acceptance, "{land:?}");
        assert_eq!(c.reservation, k.reservation, "{land:?}");
        assert_eq!(c.objection.span, k.objection.span, "{land:?}");
        assert_eq!(c.objection.citation, k.objection.citation, "{land:?}");
        assert_eq!(c.determination_mail, k.determination_mail, "{land:?}");
        for title in [k.texts.successor_title, k.texts.vacancy_title, k.texts.review_title, k.texts.correction_title] {
            assert!(title.contains("Kreistag") && !title.contains("Vertretung"), "{land:?}: {title}");
        }
    }
}

/// Brandenburg § 60 BbgKWahlG with § 12 BbgKWahlG: the Act governs Gemeindevertretungen and Kreistage alike, so
/// a Kreistag's successor and trail are the council's (docs/legal.md, "Kreistage").
#[test]
fn bb_bbgkwahlg_60_the_election_statute_applies_to_a_kreistag_unchanged() {
    let (c, k) = abc(brandenburg, false, "B1", hcand("B1-02", 2, 500).barred("Beschäftigter des Landkreises"));
    let cd = decide(&c, &query("B1-01")).unwrap();
    let kd = decide(&k, &query("B1-01")).unwrap();
    assert_eq!(cd, kd);
}
