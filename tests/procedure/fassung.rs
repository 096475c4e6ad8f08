//! Fassungen in the procedure: the worker determines under the text of § 45 KWahlG NRW in force on the day it
//! determines, and `succession.determined` names it in its trail (docs/legal.md, "Fassungen of § 45 KWahlG
//! NRW"). Included by tests/procedure.rs; its helpers are the parent's.

use super::*;

/// The council "rat" (term 2020–2025) with L1-03 ineligible for three months in 2023 and eligible again; L1-02
/// resigned on 20 July 2024; the worker determines at `now`.
fn determined_at(now: &str) -> Value {
    let mut snapshot = nrw_snapshot();
    add_fact(&mut snapshot, 0, 2, json!({"type": "ineligible", "from": "2023-01-01", "until": "2023-03-31"}));
    let mut b = body_from(snapshot);
    let fx = run(&mut b, vacancy("rat", "L1-02", DepartureReason::Resigned, "2024-07-20T10:00:00+02:00"), now);
    event(&fx, "succession.determined").clone()
}

fn fassung_step(det: &Value) -> &Value {
    det["trail"].as_array().and_then(|t| t.iter().find(|s| s["reason"] == "fassung_applied")).expect("Fassung step")
}

#[test]
fn nw_45_abs_2_satz_2_fassung_the_worker_applies_the_text_in_force_when_it_determines() {
    // 30 July 2024: § 45 before the amendment, no "nicht ununterbrochen" clause — L1-03 succeeds
    let before = determined_at("2024-07-30T09:00:00+02:00");
    assert_eq!(before["successor"]["id"], "L1-03");
    let step = fassung_step(&before);
    assert_eq!(step["detail"], "kwahlg-nrw-45-before-2024");
    assert_eq!(step["citation"], "§ 45 KWahlG NRW i. d. F. vor Art. 1 G v. 5.7.2024 (GV. NRW. S. 444)");
    assert_eq!(step["verdict"], "noted");
    // 31 July 2024: the amended text passes him over (Abs. 2 Satz 2) — L1-04 succeeds
    let after = determined_at("2024-07-31T09:00:00+02:00");
    assert_eq!(after["successor"]["id"], "L1-04");
    assert!(after["trail"]
        .as_array()
        .expect("trail")
        .iter()
        .any(|s| s["candidate"] == "L1-03" && s["reason"] == "not_continuously_eligible"));
    let step = fassung_step(&after);
    assert_eq!(step["detail"], "kwahlg-nrw-45-2024");
    assert_eq!(step["citation"], "§ 45 KWahlG NRW i. d. F. d. Art. 1 G v. 5.7.2024 (GV. NRW. S. 444)");
}
