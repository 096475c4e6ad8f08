//! Several Wahlbereiche / Wahlkreise (issue 25, point 5): a Wahlvorschlag per area (`lists[].area`), tied to the
//! same party's Wahlvorschläge in the other areas (`lists[].party`), and the fall-back to them when the
//! departed's own area list is exhausted (docs/legal.md, "Several Wahlbereiche"). Included by tests/rules.rs; its
//! helpers are the parent's.

use super::*;
use nachfolge::model::BodyKind;

const NI_44_1: &str = "§ 44 Abs. 1 NKWG";
const NI_38_1: &str = "§ 38 Abs. 1 NKWG";
const NI_45_1_1: &str = "§ 45 Abs. 1 Satz 1 NKWG";
const NI_44_5: &str = "§ 44 Abs. 5 NKWG, § 77 Abs. 3 NKWO";
const NI_44_4: &str = "§ 44 Abs. 4 i. V. m. § 38 Abs. 4 NKWG";
const NI_OTHER_AREAS: &str = "§ 44 Abs. 5 Satz 1 i. V. m. § 37 Abs. 5 NKWG, § 38 Abs. 5 NKWG";
const NI_OTHER_AREAS_LOT: &str = "§ 38 Abs. 5 Satz 3 NKWG";
const MV_OTHER_AREAS: &str = "§ 46 Abs. 3 Satz 1 i. V. m. § 64 Abs. 5 LKWG M-V";
const ST_OTHER_AREAS: &str = "§ 47 Abs. 3 Satz 1 KWG LSA";
const SN_OTHER_AREAS: &str = "§ 34 Abs. 2 SächsGemO i. V. m. § 22 Abs. 3 Satz 2 KomWG entsprechend";

/// Niedersachsen, two Wahlbereiche. SPD in Wahlbereich 1 (A1: the departed A1-01 by Listenwahl, A1-02 who refused
/// a seat) and Wahlbereich 2 (A2: A2-01 elected by Personenwahl, A2-02 120 votes, A2-03 300 votes, A2-04 no
/// vote); CDU in Wahlbereich 1 (B1: B1-01 elected, B1-02 900 votes — another party, never an Ersatzperson).
fn ni_two_areas() -> SnapshotBuilder {
    niedersachsen()
        .list(in_area(
            party("A1", vec![hcand("A1-01", 1, 400).seated(SeatVia::List), hcand("A1-02", 2, 50).declined()]),
            "Wahlbereich 1",
            Some("spd"),
        ))
        .list(in_area(
            party(
                "A2",
                vec![
                    hcand("A2-01", 1, 800).seated(SeatVia::PersonalVote),
                    hcand("A2-02", 2, 120),
                    hcand("A2-03", 3, 300),
                    hcand("A2-04", 4, 0),
                ],
            ),
            "Wahlbereich 2",
            Some("spd"),
        ))
        .list(in_area(
            party("B1", vec![hcand("B1-01", 1, 1000).seated(SeatVia::PersonalVote), hcand("B1-02", 2, 900)]),
            "Wahlbereich 1",
            Some("cdu"),
        ))
}

#[test]
fn ni_44_abs_5_satz_1_nkwg_exhausted_wahlbereich_falls_back_to_the_partys_other_wahlbereiche_by_votes() {
    let body = ni_two_areas().body();
    let d = decide(&body, &query("A1-01")).unwrap();
    assert_decision(
        d,
        successor("A2-03", "A2"),
        vec![
            skipped("A1-01", "departed", NI_44_1),
            skipped("A1-02", "declined", NI_45_1_1),
            finding("list_exhausted", NI_44_5),
            finding("other_areas", NI_OTHER_AREAS),
            skipped("A2-01", "seated", NI_38_1),
            chosen("A2-03", "most_votes_other_area", NI_OTHER_AREAS),
        ],
    );
}

#[test]
fn ni_44_abs_5_satz_1_nkwg_a_personenwahl_seat_falls_back_after_the_list_order_ersatzpersonen() {
    // § 44 Abs. 5 Satz 1 Halbsatz 2: "das Gleiche gilt für einen Sitzübergang nach Absatz 4"
    let body = ni_two_areas()
        .with(|s| {
            s.lists[0].candidates[0].seat =
                Some(nachfolge::model::Seat { since: d("2026-11-01"), via: SeatVia::PersonalVote })
        })
        .body();
    let d = decide(&body, &query("A1-01")).unwrap();
    assert_eq!(d.outcome, successor("A2-03", "A2"));
    let reasons: Vec<&str> = d.trail.iter().map(|s| s.reason.as_str()).collect();
    assert_eq!(
        reasons,
        [
            "departed",
            "declined",
            "no_personal_vote_substitute",
            "list_exhausted",
            "other_areas",
            "seated",
            "most_votes_other_area"
        ],
        "{:#?}",
        d.trail
    );
    assert_eq!(d.trail[2].citation, NI_44_4);
}

#[test]
fn ni_38_abs_5_satz_3_nkwg_equal_votes_in_the_other_wahlbereiche_the_wahlleitung_draws_the_lot() {
    // a third Wahlbereich whose candidate has as many votes as A2-03
    let body =
        ni_two_areas().list(in_area(party("A3", vec![hcand("A3-01", 1, 300)]), "Wahlbereich 3", Some("spd"))).body();
    let d = decide(&body, &query("A1-01")).unwrap();
    assert_eq!(d.outcome, Outcome::LotRequired { tied: vec!["A2-03".to_owned(), "A3-01".to_owned()] });
    assert_eq!(
        d.trail[d.trail.len() - 2..],
        [tied("A2-03", "equal_votes_lot", NI_OTHER_AREAS_LOT), tied("A3-01", "equal_votes_lot", NI_OTHER_AREAS_LOT)]
    );
    // the Wahlleitung's lot: its winner succeeds from his own Wahlvorschlag
    let d = decide(&body, &query("A1-01").lot("A3-01")).unwrap();
    assert_eq!(d.outcome, successor("A3-01", "A3"));
    assert_eq!(
        d.trail[d.trail.len() - 2..],
        [tied("A2-03", "lost_lot", NI_OTHER_AREAS_LOT), chosen("A3-01", "won_lot", NI_OTHER_AREAS_LOT)]
    );
    assert_eq!(decide(&body, &query("A1-01").lot("B1-02")), Err(DecideError::LotWinnerNotTied("B1-02".to_owned())));
}

#[test]
fn ni_44_abs_5_nkwg_every_other_wahlbereich_exhausted_the_seat_stays_vacant() {
    let body = ni_two_areas()
        .with(|s| {
            for c in &mut s.lists[1].candidates[1..] {
                c.facts.push(Fact::Waived { on: d("2026-11-02"), form: WaiverForm::Written });
            }
        })
        .body();
    let d = decide(&body, &query("A1-01")).unwrap();
    assert_eq!(d.outcome, vacant(VacancyReason::ListExhausted, 44));
    let reasons: Vec<&str> = d.trail.iter().map(|s| s.reason.as_str()).collect();
    assert_eq!(
        reasons,
        [
            "departed",
            "declined",
            "list_exhausted",
            "other_areas",
            "seated",
            "waived",
            "waived",
            "waived",
            "other_areas_exhausted"
        ]
    );
}

#[test]
fn ni_44_abs_5_nkwg_a_wahlvorschlag_without_party_key_has_no_other_wahlbereiche() {
    let body = ni_two_areas().with(|s| s.lists[0].party = None).body();
    let d = decide(&body, &query("A1-01")).unwrap();
    assert_eq!(d.outcome, vacant(VacancyReason::ListExhausted, 44));
    assert_eq!(d.trail.last(), Some(&finding("no_other_areas_recorded", NI_OTHER_AREAS)));
}

#[test]
fn ni_38_abs_5_nkwg_the_succession_order_says_that_the_other_wahlbereiche_follow() {
    let body = ni_two_areas().body();
    let order = body.succession_order(t(REFERENCE));
    let a1 = order.lists.iter().find(|l| l.list == "A1").unwrap();
    assert!(a1.notes.contains(&finding("other_areas_follow", NI_OTHER_AREAS)), "{:#?}", a1.notes);
    let b1 = order.lists.iter().find(|l| l.list == "B1").unwrap();
    assert!(!b1.notes.iter().any(|n| n.reason == "other_areas_follow"), "the CDU has one Wahlbereich");
}

/// A Land ranking by votes (`rules::votes`): party X in area 1 (X1: the departed, one who refused) and area 2
/// (X2: X2-01 seated, X2-02 200 votes, X2-03 450 votes).
fn two_areas(land: SnapshotBuilder) -> Body {
    land.list(in_area(
        party("X1", vec![hcand("X1-01", 1, 900).seated(SeatVia::List), hcand("X1-02", 2, 100).declined()]),
        "1",
        Some("x"),
    ))
    .list(in_area(
        party("X2", vec![hcand("X2-01", 1, 700).seated(SeatVia::List), hcand("X2-02", 2, 200), hcand("X2-03", 3, 450)]),
        "2",
        Some("x"),
    ))
    .body()
}

#[track_caller]
fn falls_back(body: &Body, citation: &str) {
    let d = decide(body, &query("X1-01")).unwrap();
    assert_eq!(d.outcome, successor("X2-03", "X2"), "{:#?}", d.trail);
    assert!(d.trail.contains(&finding("other_areas", citation)), "{:#?}", d.trail);
    assert_eq!(d.trail.last(), Some(&chosen("X2-03", "most_votes_other_area", citation)));
}

#[test]
fn mv_46_abs_3_satz_1_lkwg_mv_exhausted_wahlbereich_falls_back_to_the_partys_other_wahlbereiche() {
    falls_back(&two_areas(mecklenburg_vorpommern()), MV_OTHER_AREAS);
}

#[test]
fn st_47_abs_3_satz_1_kwg_lsa_exhausted_wahlbereich_falls_back_to_the_partys_other_wahlbereiche() {
    falls_back(&two_areas(sachsen_anhalt()), ST_OTHER_AREAS);
}

#[test]
fn sn_22_abs_3_satz_2_komwg_exhausted_wahlkreis_falls_back_to_the_partys_other_wahlkreise() {
    falls_back(&two_areas(sachsen()), SN_OTHER_AREAS);
}

#[test]
fn bb_60_abs_3_satz_1_bbgkwahlg_each_wahlkreis_stands_alone_no_party_key() {
    // the area is accepted, the seat stays with the Wahlvorschlag on which the departed was elected
    let ok = brandenburg()
        .list(in_area(party("X1", vec![hcand("X1-01", 1, 900).seated(SeatVia::List)]), "Wahlkreis 1", None))
        .body();
    let d = decide(&ok, &query("X1-01")).unwrap();
    assert!(matches!(d.outcome, Outcome::Vacant { reason: VacancyReason::ListExhausted, .. }));
    let refused_party = brandenburg()
        .list(in_area(party("X1", vec![hcand("X1-01", 1, 900).seated(SeatVia::List)]), "Wahlkreis 1", Some("x")))
        .snapshot();
    refused(refused_party, "lists[0].party");
}

#[test]
fn bw_25_abs_2_satz_1_lkro_a_kreistags_wahlkreise_stand_alone_a_gemeinderat_has_none() {
    let kreistag = baden_wuerttemberg()
        .kreistag()
        .list(in_area(
            party("X1", vec![hcand("X1-01", 1, 900).seated(SeatVia::List), hcand("X1-02", 2, 10)]),
            "Wahlkreis I",
            None,
        ))
        .body();
    assert_eq!(kreistag.info().kind, BodyKind::Kreistag);
    assert_eq!(decide(&kreistag, &query("X1-01")).unwrap().outcome, successor("X1-02", "X1"));
    // a party key ties the Wahlvorschläge for the Ausgleichssitze only (tests/rules/bw_kreistag.rs)
    let with_party = baden_wuerttemberg()
        .kreistag()
        .list(in_area(party("X1", vec![hcand("X1-01", 1, 900)]), "Wahlkreis I", Some("x")))
        .snapshot();
    Body::from_snapshot(with_party).unwrap();
    let council =
        baden_wuerttemberg().list(in_area(party("X1", vec![hcand("X1-01", 1, 900)]), "Nord", None)).snapshot();
    refused(council, "lists[0].area");
}

#[test]
fn validation_area_and_party_are_refused_where_the_land_has_no_areas_and_checked_where_it_has() {
    // NRW, Hessen …: no areas
    refused(nrw().list(in_area(party("X1", vec![cand("X1-01", 1)]), "1", None)).snapshot(), "lists[0].area");
    // a party key needs its area
    let mut no_area = in_area(party("X1", vec![hcand("X1-01", 1, 10)]), "1", Some("x"));
    no_area.area = None;
    refused(niedersachsen().list(no_area).snapshot(), "lists[0].party");
    // one Wahlvorschlag per party and area
    refused(
        niedersachsen()
            .list(in_area(party("X1", vec![hcand("X1-01", 1, 10)]), "1", Some("x")))
            .list(in_area(party("X2", vec![hcand("X2-01", 1, 10)]), "1", Some("x")))
            .snapshot(),
        "lists[1].party",
    );
    // an Einzelwahlvorschlag has no party
    refused(
        niedersachsen().list(in_area(individual("E1", hcand("E1-01", 1, 10)), "1", Some("e"))).snapshot(),
        "lists[0].party",
    );
    // empty texts
    refused(
        niedersachsen().list(in_area(party("X1", vec![hcand("X1-01", 1, 10)]), " ", None)).snapshot(),
        "lists[0].area",
    );
}

#[test]
fn validation_a_snapshot_without_areas_is_written_back_without_the_fields() {
    let json = ni_two_areas().with(|s| s.lists.iter_mut().for_each(|l| (l.area, l.party) = (None, None))).json();
    let lists = json["lists"].as_array().unwrap();
    assert!(lists.iter().all(|l| l.get("area").is_none() && l.get("party").is_none()));
    let json = ni_two_areas().json();
    assert_eq!(json["lists"][0]["area"], "Wahlbereich 1");
    assert_eq!(json["lists"][0]["party"], "spd");
}

#[test]
fn ni_44_abs_5_nkwg_the_example_decide_and_succession_order_agree() {
    let read = |name: &str| std::fs::read(format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))).expect("example");
    let election = read("ni-wahlbereiche-election.json");
    let decided = nachfolge::offline::decide(&election, &read("ni-wahlbereiche-vacancy.json"), None).expect("decide");
    assert_eq!(decided["successor"], "L1-WB2-02", "{decided}");
    let reasons: Vec<&str> =
        decided["trail"].as_array().expect("trail").iter().filter_map(|s| s["reason"].as_str()).collect();
    assert_eq!(
        reasons,
        ["seated", "departed", "waived", "list_exhausted", "other_areas", "seated", "most_votes_other_area"],
        "{decided}"
    );
    // the Nachrückerliste: Wahlbereich 1 is exhausted and notes that the other Wahlbereiche follow; in Wahlbereich 2
    // Elke Evers has the most votes of the party's candidates left
    let order = nachfolge::offline::succession_order(&election, t("2026-12-01T12:00:00Z")).expect("order");
    let lists = order["lists"].as_array().expect("lists");
    let wb1 = lists.iter().find(|l| l["list"] == "L1-WB1").expect("L1-WB1");
    assert_eq!(wb1["order"], serde_json::json!([]));
    assert!(wb1["notes"].as_array().expect("notes").iter().any(|n| n["reason"] == "other_areas_follow"));
    let wb2 = lists.iter().find(|l| l["list"] == "L1-WB2").expect("L1-WB2");
    assert_eq!(wb2["order"][0], "L1-WB2-02");
}
