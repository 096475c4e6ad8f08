//! `barred` only where the Land's law makes the successor prove the end of a bar (issue 25, point 2): every
//! Land, one decision (`LandLaw::bar_effect`; docs/legal.md, "Issue 25: outcome fixes"). Included by
//! tests/rules.rs; its helpers are the parent's.

use super::*;

/// Party list X1: X-01 (900 votes, seated, the departed), X-02 (500 votes) with a Hinderungsgrund /
/// Unvereinbarkeit current on the reference day, X-03 (300 votes).
fn barred_second(land: SnapshotBuilder) -> Body {
    land.list(party(
        "X1",
        vec![
            hcand("X-01", 1, 900).seated(SeatVia::List),
            hcand("X-02", 2, 500).barred("Bediensteter der Gemeinde"),
            hcand("X-03", 3, 300),
        ],
    ))
    .body()
}

/// (what is read, the Land's empty body, the candidate chosen, whether he is `barred`)
type Case = (&'static str, fn() -> SnapshotBuilder, &'static str, bool);

#[test]
fn kv_mv_25_abs_4_and_every_land_barred_only_where_the_successor_must_prove_the_end() {
    // (Land, chosen, barred): proof Länder name him barred; Mecklenburg-Vorpommern names him unbarred (§ 25
    // Abs. 4 KV M-V); Bayern, Baden-Württemberg and Sachsen pass a barred candidate over (Art. 37 Abs. 2
    // Satz 2 GLKrWG, § 31 Abs. 2 GemO, § 34 Abs. 2 SächsGemO), so nobody chosen is barred there
    let cases: [Case; 12] = [
        ("NW § 45 KWahlG, § 62 Nr. 5 KWahlO", nrw, "X-02", true),
        ("HE § 34 Abs. 3 i. V. m. § 23 Abs. 2 KWG", hessen, "X-02", true),
        ("RP § 44 Abs. 2 KWG, § 64 Abs. 2 KWO", rheinland_pfalz, "X-02", true),
        ("NI § 50 Abs. 3 NKomVG", niedersachsen, "X-02", true),
        ("ST § 42 Abs. 1 Nr. 3 KVG LSA", sachsen_anhalt, "X-02", true),
        ("TH", thueringen, "X-02", true),
        ("SH § 37a GKWG", schleswig_holstein, "X-02", true),
        ("BB § 51 Abs. 2 BbgKWahlG", brandenburg, "X-02", true),
        ("MV § 25 Abs. 4 KV M-V", mecklenburg_vorpommern, "X-02", false),
        ("BY Art. 37 Abs. 2 Satz 2 GLKrWG", bayern, "X-03", false),
        ("BW § 31 Abs. 2 GemO", baden_wuerttemberg, "X-03", false),
        ("SN § 34 Abs. 2 SächsGemO", sachsen, "X-03", false),
    ];
    for (land, builder, chosen_id, must_prove) in cases {
        let body = barred_second(builder());
        let q = Query { departed_via: Some(SeatVia::List), ..query("X-01") };
        let d = decide(&body, &q).unwrap_or_else(|e| panic!("{land}: {e}"));
        assert_eq!(
            d.outcome,
            Outcome::Successor { candidate: chosen_id.into(), list: "X1".into(), barred: must_prove },
            "{land}"
        );
        let noted_proof =
            d.trail.iter().any(|s| s.reason == "barred_must_prove_end" || s.reason == "barred_must_prove_leave");
        assert_eq!(noted_proof, must_prove, "{land}: {:?}", d.trail);
    }
}
