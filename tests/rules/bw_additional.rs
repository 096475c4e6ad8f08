//! Baden-Württemberg, weitere Sitze (Ausgleichssitze) under unechte Teilortswahl (issue 25, point 8): § 26 Abs. 2
//! Satz 4, 5 KomWG, § 31 Abs. 2 Satz 2 GemO (docs/legal.md, "Baden-Württemberg: weitere Sitze"). Included by
//! tests/rules.rs; its helpers are the parent's.

use super::*;

const BW_31_2: &str = "§ 31 Abs. 2 Satz 1 GemO";
const BW_ADDITIONAL: &str = "§ 26 Abs. 2 Satz 4, 5 KomWG";
const BW_ADDITIONAL_VOTES: &str = "§ 31 Abs. 2 Satz 1 GemO i. V. m. § 26 Abs. 2 Satz 5 KomWG";
const BW_ADDITIONAL_LOT: &str = "§ 26 Abs. 2 Satz 4 Halbsatz 2 KomWG entsprechend";
const BW_TOW: &str = "§ 31 Abs. 2 Satz 1 GemO i. V. m. § 26 Abs. 2 Satz 3 KomWG";
const BW_31_2_2: &str = "§ 31 Abs. 2 Satz 1 GemO";
const BW_THEN: &str = "§ 31 Abs. 2 Satz 2 i. V. m. Satz 1 GemO, § 26 Abs. 2 Satz 5 KomWG";

/// Wahlvorschlag B1 with two Wohnbezirke: B1-01 Oberdorf (Wohnbezirk seat), B1-02 Unterdorf (Wohnbezirk seat),
/// B1-03 Oberdorf 700 votes (a weiterer Sitz), B1-04 Oberdorf 200, B1-05 Unterdorf 450, B1-06 Unterdorf `votes`.
fn tow(last_votes: i64) -> SnapshotBuilder {
    baden_wuerttemberg().list(voter_group(
        "B1",
        vec![
            hcand("B1-01", 1, 900).seated(SeatVia::List).district("Oberdorf"),
            hcand("B1-02", 2, 800).seated(SeatVia::List).district("Unterdorf"),
            hcand("B1-03", 3, 700).seated(SeatVia::Additional).district("Oberdorf"),
            hcand("B1-04", 4, 200).district("Oberdorf"),
            hcand("B1-05", 5, 450).district("Unterdorf"),
            hcand("B1-06", 6, last_votes).district("Unterdorf"),
        ],
    ))
}

/// Wahlvorschlag B1 in Oberdorf only: B1-01 (Wohnbezirk seat, 900 votes), B1-03 (a weiterer Sitz, 700), then `more`.
fn oberdorf(more: Vec<Candidate>) -> Body {
    let mut candidates = vec![
        hcand("B1-01", 1, 900).seated(SeatVia::List).district("Oberdorf"),
        hcand("B1-03", 3, 700).seated(SeatVia::Additional).district("Oberdorf"),
    ];
    candidates.extend(more);
    baden_wuerttemberg().list(voter_group("B1", candidates)).body()
}

#[test]
fn bw_26_abs_2_satz_5_komwg_a_weiterer_sitz_goes_to_its_own_ersatzpersonen_across_the_wohnbezirke() {
    let body = tow(100).body();
    let d = decide(&body, &query("B1-03")).unwrap();
    assert_decision(
        d,
        successor("B1-05", "B1"),
        vec![
            noted("B1-03", "additional_seat", BW_ADDITIONAL),
            skipped("B1-01", "already_called", BW_31_2_2),
            skipped("B1-02", "already_called", BW_31_2_2),
            skipped("B1-03", "departed", BW_31_2),
            chosen("B1-05", "most_votes", BW_ADDITIONAL_VOTES),
        ],
    );
    // a Wohnbezirk seat keeps its Wohnbezirk's Ersatzpersonen (§ 26 Abs. 2 Satz 3 KomWG): Unterdorf's B1-05, not
    // Oberdorf's B1-03 (more votes) or B1-04
    let d = decide(&body, &query("B1-02")).unwrap();
    assert_eq!(d.outcome, successor("B1-05", "B1"));
    assert!(d.trail.iter().any(|s| s.reason == "most_votes" && s.citation == BW_TOW), "{:#?}", d.trail);
}

#[test]
fn bw_26_abs_2_satz_4_komwg_equal_votes_for_a_weiterer_sitz_the_lot() {
    let body = tow(450).body();
    let d = decide(&body, &query("B1-03")).unwrap();
    assert_eq!(d.outcome, Outcome::LotRequired { tied: vec!["B1-05".to_owned(), "B1-06".to_owned()] });
    assert!(d.trail.contains(&tied("B1-05", "equal_votes_lot", BW_ADDITIONAL_LOT)), "{:#?}", d.trail);
    let d = decide(&body, &query("B1-03").lot("B1-06")).unwrap();
    assert_eq!(d.outcome, successor("B1-06", "B1"));
}

#[test]
fn bw_31_abs_2_satz_2_gemo_the_holder_of_a_weiterer_sitz_moves_up_into_his_wohnbezirk_seat() {
    // B1-01 (Oberdorf) leaves: B1-03 holds a weiterer Sitz and is Oberdorf's Ersatzperson with most votes (§ 26
    // Abs. 2 Satz 3 KomWG): he moves up (§ 31 Abs. 2 Satz 2 GemO), not B1-04; his weiterer Sitz then goes to the
    // next Ersatzperson for the weitere Sitze across the Wohnbezirke, B1-05 (450 votes, Unterdorf)
    let d = decide(&tow(100).body(), &query("B1-01")).unwrap();
    assert_decision(
        d,
        successor("B1-03", "B1"),
        vec![
            noted("B1-01", "residential_district", "§ 26 Abs. 2 Satz 3 KomWG").with_detail("Oberdorf".to_owned()),
            skipped("B1-01", "departed", BW_31_2),
            chosen("B1-03", "most_votes", BW_TOW),
            noted("B1-03", "additional_seat_holder_moves_up", "§ 31 Abs. 2 Satz 2 GemO"),
            noted("B1-05", "additional_seat_then", BW_THEN),
        ],
    );
    // a Wohnbezirk Ersatzperson with more votes than the holder comes first: nobody moves
    let body = oberdorf(vec![hcand("B1-04", 4, 750).district("Oberdorf")]);
    let d = decide(&body, &query("B1-01")).unwrap();
    assert_eq!(d.outcome, successor("B1-04", "B1"));
    assert!(!d.trail.iter().any(|s| s.reason.starts_with("additional_seat")), "{:#?}", d.trail);
}

#[test]
fn bw_31_abs_2_satz_2_gemo_the_weiterer_sitz_given_up_by_the_mover_the_lot_or_nobody() {
    // equal votes for the weiterer Sitz he gives up: the trail names the lot's candidates
    let d = decide(&tow(450).body(), &query("B1-01")).unwrap();
    assert_eq!(d.outcome, successor("B1-03", "B1"));
    let then = d.trail.last().expect("step");
    assert_eq!((then.reason.as_str(), then.detail.as_deref()), ("additional_seat_then_lot", Some("B1-05, B1-06")));
    // nobody left for it
    let body = oberdorf(vec![]);
    let d = decide(&body, &query("B1-01")).unwrap();
    assert_eq!(d.outcome, successor("B1-03", "B1"));
    assert_eq!(d.trail.last().map(|s| s.reason.as_str()), Some("additional_seat_then_vacant"));
}

#[test]
fn bw_26_abs_2_satz_4_komwg_validation_a_weiterer_sitz_only_under_unechte_teilortswahl_in_baden_wuerttemberg() {
    // without Wohnbezirke
    refused(
        baden_wuerttemberg()
            .list(voter_group("B1", vec![hcand("B1-01", 1, 900).seated(SeatVia::Additional)]))
            .snapshot(),
        "lists[0].candidates[0].seat.via",
    );
    // outside Baden-Württemberg
    refused(
        hessen().list(party("H1", vec![hcand("H1-01", 1, 900).seated(SeatVia::Additional)])).snapshot(),
        "lists[0].candidates[0].seat.via",
    );
}

#[test]
fn bw_26_abs_2_satz_5_komwg_the_successor_keeps_the_weiterer_sitz() {
    let law = nachfolge::model::Land::Bw.law();
    assert_eq!(law.successor_seat_via(Some(SeatVia::Additional)), SeatVia::Additional);
    assert_eq!(law.successor_seat_via(Some(SeatVia::List)), SeatVia::Succession);
}
