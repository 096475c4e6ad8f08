//! Baden-Württemberg, a Kreistag's Ausgleichssitze (issue 25, points 5 and 8; docs/legal.md, "Baden-Württemberg: a
//! Kreistag's Ausgleichssitze"): the holder of an Ausgleichssitz is an Ersatzperson of his Wahlkreis and moves up
//! into its seat (§ 25 Abs. 2 Satz 2 Halbsatz 1 LKrO); an Ausgleichssitz passes to the next Ersatzperson for the
//! Ausgleichssitze of the party across the Wahlkreise, in the order determined with the result (§ 25 Abs. 2 Satz 1
//! LKrO, § 46 Abs. 3 KomWO), past one whose Wahlkreis of one Gemeinde would hold more than two fifths of the seats
//! (§ 25 Abs. 2 Satz 2 Halbsatz 2 LKrO). Included by tests/rules.rs; its helpers are the parent's.

use super::*;

const KT_31: &str = "§ 25 Abs. 2 Satz 1 LKrO";
const KT_VOTES: &str = "§ 25 Abs. 2 Satz 1 LKrO i. V. m. § 26 Abs. 1 Satz 3 KomWG";
const KT_MOVES_UP: &str = "§ 25 Abs. 2 Satz 2 Halbsatz 1 LKrO";
const KT_THEN: &str = "§ 25 Abs. 2 Satz 2 Halbsatz 1 i. V. m. Satz 1 LKrO, § 46 Abs. 3 KomWO";
const KT_AUSGLEICH_SEAT: &str = "§ 25 Abs. 2 Satz 2 LKrO, § 46 Abs. 3 KomWO";
const KT_AUSGLEICH: &str = "§ 25 Abs. 2 Satz 1 LKrO i. V. m. § 46 Abs. 3 KomWO";
const KT_TWO_FIFTHS: &str = "§ 25 Abs. 2 Satz 2 Halbsatz 2 LKrO";

fn ranked(c: Candidate, rank: u32) -> Candidate {
    c.edit(|c| c.additional_rank = Some(rank))
}

/// The Freie Wähler in two Wahlkreise, tied by the party key `fw`. Wahlkreis VI: VI-01 (Wahlkreis seat, 3000 votes),
/// VI-02 (2500 votes, the party's Ausgleichssitz: rank 1), VI-03 (1000 votes, rank 3). Wahlkreis VII: VII-01
/// (Wahlkreis seat, 4000 votes), VII-02 (2000 votes, rank 2), VII-03 (800 votes, rank 4), and `more`.
fn freie_waehler(more: Vec<Candidate>) -> SnapshotBuilder {
    let mut vii = vec![
        hcand("VII-01", 1, 4000).seated(SeatVia::List),
        ranked(hcand("VII-02", 2, 2000), 2),
        ranked(hcand("VII-03", 3, 800), 4),
    ];
    vii.extend(more);
    baden_wuerttemberg()
        .kreistag()
        .list(in_area(
            party(
                "FW-VI",
                vec![
                    hcand("VI-01", 1, 3000).seated(SeatVia::List),
                    ranked(hcand("VI-02", 2, 2500).seated(SeatVia::Additional), 1),
                    ranked(hcand("VI-03", 3, 1000), 3),
                ],
            ),
            "Wahlkreis VI",
            Some("fw"),
        ))
        .list(in_area(party("FW-VII", vii), "Wahlkreis VII", Some("fw")))
}

/// § 25 Abs. 2 Satz 2 Halbsatz 1 LKrO: the Wahlkreis's next Ersatzperson holds the party's Ausgleichssitz — he moves
/// up into the Wahlkreis seat, and the trail says who then takes his Ausgleichssitz (the next Ersatzperson for the
/// Ausgleichssitze, from the other Wahlkreis: Ostalbkreis 2007).
#[test]
fn bw_lkro_25_abs_2_satz_2_the_holder_of_an_ausgleichssitz_moves_up_into_his_wahlkreis_seat() {
    let body = freie_waehler(vec![]).body();
    let d = decide(&body, &query("VI-01")).unwrap();
    assert_decision(
        d,
        successor("VI-02", "FW-VI"),
        vec![
            skipped("VI-01", "departed", KT_31),
            chosen("VI-02", "most_votes", KT_VOTES),
            noted("VI-02", "ausgleichssitz_holder_moves_up", KT_MOVES_UP),
            noted("VII-02", "ausgleichssitz_then", KT_THEN),
        ],
    );
    // the Nachrückerliste lists him as seated and says he is an Ersatzperson of his Wahlkreis all the same
    let order = body.succession_order(t(REFERENCE));
    let vi = order.lists.iter().find(|l| l.list == "FW-VI").unwrap();
    assert!(vi.notes.contains(&noted("VI-02", "ausgleichssitz_holder_ersatzperson", KT_MOVES_UP)), "{:#?}", vi.notes);
}

/// § 25 Abs. 2 Satz 1 LKrO with § 46 Abs. 3 KomWO: an Ausgleichssitz passes to the next Ersatzperson for the
/// Ausgleichssitze in the order determined with the result, whatever her Wahlkreis and her votes.
#[test]
fn bw_lkro_25_abs_2_satz_1_an_ausgleichssitz_passes_in_the_order_determined_with_the_result() {
    let body = freie_waehler(vec![]).body();
    let d = decide(&body, &query("VI-02")).unwrap();
    assert_decision(
        d,
        successor("VII-02", "FW-VII"),
        vec![
            noted("VI-02", "ausgleichssitz", KT_AUSGLEICH_SEAT),
            skipped("VI-02", "departed", KT_AUSGLEICH),
            chosen("VII-02", "next_ausgleichssitz_ersatzperson", KT_AUSGLEICH),
        ],
    );
    // the rank decides, not the votes: VI-03 (1000 votes, rank 3) before VII-03 (800 votes, rank 4) only by rank
    let died = Fact::Died { on: fixtures::d(FACT_DAY) };
    let body = freie_waehler(vec![]).with(|s| s.lists[1].candidates[1].facts.push(died)).body();
    let dec = decide(&body, &query("VI-02")).unwrap();
    assert_eq!(dec.outcome, successor("VI-03", "FW-VI"), "{:#?}", dec.trail);
    // nobody left: the seat stays vacant, the statutory size unchanged
    let body = freie_waehler(vec![])
        .with(|s| s.lists.iter_mut().flat_map(|l| &mut l.candidates).for_each(|c| c.additional_rank = None))
        .body();
    let d = decide(&body, &query("VI-02")).unwrap();
    assert_eq!(d.outcome, vacant(VacancyReason::ListExhausted, 44));
    assert!(d.trail.contains(&finding("list_exhausted", KT_31)), "{:#?}", d.trail);
}

/// § 25 Abs. 2 Satz 2 Halbsatz 2 LKrO: an Ersatzperson is passed over where his Wahlkreis consists of one Gemeinde
/// and his moving up would give it more than two fifths of the seats; a Wahlkreis of several Gemeinden is not
/// capped.
#[test]
fn bw_lkro_25_abs_2_satz_2_halbsatz_2_two_fifths_for_a_wahlkreis_of_one_gemeinde() {
    // 5 seats; Wahlkreis VII holds two of them (VII-01, VII-04): a third would be 3/5 > 2/5
    let crowded = || freie_waehler(vec![hcand("VII-04", 4, 3500).seated(SeatVia::List)]).size(5);
    let body = crowded().with(|s| s.body.single_municipality_areas = vec!["Wahlkreis VII".into()]).body();
    let d = decide(&body, &query("VI-02")).unwrap();
    assert_decision(
        d,
        successor("VI-03", "FW-VI"),
        vec![
            noted("VI-02", "ausgleichssitz", KT_AUSGLEICH_SEAT),
            skipped("VI-02", "departed", KT_AUSGLEICH),
            skipped("VII-02", "wahlkreis_two_fifths", KT_TWO_FIFTHS),
            chosen("VI-03", "next_ausgleichssitz_ersatzperson", KT_AUSGLEICH),
        ],
    );
    // the same Wahlkreis of several Gemeinden: no cap
    let d = decide(&crowded().body(), &query("VI-02")).unwrap();
    assert_eq!(d.outcome, successor("VII-02", "FW-VII"), "{:#?}", d.trail);
    // exactly two fifths is not more: 10 seats, Wahlkreis VII then holds 4
    let body = freie_waehler(vec![
        hcand("VII-04", 4, 3500).seated(SeatVia::List),
        hcand("VII-05", 5, 3400).seated(SeatVia::List),
    ])
    .size(10)
    .with(|s| s.body.single_municipality_areas = vec!["Wahlkreis VII".into()])
    .body();
    let d = decide(&body, &query("VI-02")).unwrap();
    assert_eq!(d.outcome, successor("VII-02", "FW-VII"), "{:#?}", d.trail);
    // above two fifths and not above 45 % (9 of 20 seats): passed over as the text read says, and the Kreistag is
    // asked to check the Fassung (§ 22 Abs. 4 LKrO now caps a Wahlkreis at 45 %)
    let seated: Vec<Candidate> =
        (4..=10).map(|i| hcand(&format!("VII-{i:02}"), i, 3000 - i64::from(i)).seated(SeatVia::List)).collect();
    let body =
        freie_waehler(seated).size(20).with(|s| s.body.single_municipality_areas = vec!["Wahlkreis VII".into()]).body();
    let d = decide(&body, &query("VI-02")).unwrap();
    assert_eq!(d.outcome, successor("VI-03", "FW-VI"), "{:#?}", d.trail);
    assert!(d.trail.contains(&noted(
        "VII-02",
        "wahlkreis_cap_to_check",
        "§ 25 Abs. 2 Satz 2 Halbsatz 2, § 22 Abs. 4 LKrO"
    )));
    assert!(d.trail.contains(&skipped("VII-02", "wahlkreis_two_fifths", KT_TWO_FIFTHS)), "{:#?}", d.trail);
}

/// § 25 Abs. 2 Satz 1 LKrO: a Wahlkreis seat passes only within the Wahlkreis — the party key ties the Wahlvorschläge
/// for the Ausgleichssitze, it is no fall-back (Tuttlingen 2021: the seat stayed empty).
#[test]
fn bw_lkro_25_abs_2_satz_1_a_wahlkreis_seat_does_not_fall_back_to_the_other_wahlkreise() {
    let body = baden_wuerttemberg()
        .kreistag()
        .list(in_area(party("X-5", vec![hcand("X5-01", 1, 900).seated(SeatVia::List)]), "Wahlkreis 5", Some("x")))
        .list(in_area(party("X-6", vec![ranked(hcand("X6-01", 1, 700), 1)]), "Wahlkreis 6", Some("x")))
        .body();
    let d = decide(&body, &query("X5-01")).unwrap();
    assert_eq!(d.outcome, vacant(VacancyReason::ListExhausted, 44));
    assert!(!d.trail.iter().any(|s| s.reason == "other_areas"), "{:#?}", d.trail);
}

#[test]
fn bw_lkro_25_abs_2_validation_of_the_ausgleichssitze() {
    // additional_rank and single_municipality_areas are a Baden-Württemberg Kreistag's
    refused(
        baden_wuerttemberg().list(party("B1", vec![ranked(hcand("B1-01", 1, 900), 1)])).snapshot(),
        "lists[0].candidates[0].additional_rank",
    );
    refused(
        hessen().kreistag().list(party("H1", vec![ranked(hcand("H1-01", 1, 900), 1)])).snapshot(),
        "lists[0].candidates[0].additional_rank",
    );
    // once per party, from 1
    refused(
        freie_waehler(vec![]).with(|s| s.lists[1].candidates[1].additional_rank = Some(1)).snapshot(),
        "lists[1].candidates[1].additional_rank",
    );
    refused(
        freie_waehler(vec![]).with(|s| s.lists[0].candidates[2].additional_rank = Some(0)).snapshot(),
        "lists[0].candidates[2].additional_rank",
    );
    // a single-municipality Wahlkreis names a list's area
    refused(
        freie_waehler(vec![]).with(|s| s.body.single_municipality_areas = vec!["Wahlkreis IX".into()]).snapshot(),
        "body.single_municipality_areas[0]",
    );
    refused(
        baden_wuerttemberg()
            .list(party("B1", vec![hcand("B1-01", 1, 900)]))
            .with(|s| s.body.single_municipality_areas = vec!["Nord".into()])
            .snapshot(),
        "body.single_municipality_areas[0]",
    );
    // a Kreistag's Ausgleichssitz is a seat of its own; without Wohnbezirke a Gemeinderat has none
    Body::from_snapshot(freie_waehler(vec![]).snapshot()).unwrap();
}
