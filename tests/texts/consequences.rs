//! Issue 27, point 10: what a successor reads about the end of his period is the procedure's own decision. For
//! every Land with a period and every case kind it has — plain, barred (silent, proven, accepted without the
//! proof), Kreistag, lot, confirm mode, reservation, review final or not — the pure core runs the case, the
//! letter and the period notice are rendered, the period runs out (a later `now`), and the effect applied must
//! be the one they announced: the same code (`consequences.*`, `procedure::lapse`) and a sentence that says it.
//! The barred period notices are golden texts (`<land>-barred-period-notice.*`). Included by tests/texts.rs;
//! its helpers are the parent's (docs/legal.md, "What a barred successor is told").

use super::*;
use nachfolge::procedure::CaseState;

/// After every period of these cases (served on 30 Nov 2026) has ended.
const LATER: &str = "2026-12-21T12:00:00Z";
/// Within every period: a declaration or proof, received and entered.
const WITHIN: &str = "2026-12-02T10:00:00+01:00";
const WITHIN_NOW: &str = "2026-12-02T09:30:00Z";

fn at(s: &str) -> DateTime<Utc> {
    s.parse().expect("time")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Plain,
    /// A Hinderungsgrund recorded; silent, nothing proven.
    Barred,
    /// Barred; the end of the bar proven within the period, otherwise silent.
    BarredProven,
    /// Barred; accepted within the period, nothing proven.
    BarredAccepted,
    Kreistag,
    /// Equal votes: the successor was drawn by lot.
    Lot,
    /// `determination: confirm`: the returning officer confirmed the proposal.
    Confirm,
    /// An acceptance with a reservation within the period.
    Reservation,
    /// A final review decision installed another successor, who is offered the seat.
    ReviewFinal,
    /// A review decision not yet final: nothing changes, the first offer's period runs out.
    ReviewNotFinal,
}

/// The example election of `land` with an e-mail address for everyone, and its vacancy dated 28 Nov 2026.
fn example_case(land: &str) -> (Value, Value) {
    let mut s = example(&format!("{land}-election.json"));
    for list in s["lists"].as_array_mut().into_iter().flatten() {
        for c in list["candidates"].as_array_mut().into_iter().flatten() {
            let id = c["id"].as_str().unwrap_or_default().to_lowercase();
            c["email"] = json!(format!("{id}@example.org"));
        }
    }
    if s["body"]["determination"] == json!("confirm") {
        s["body"].as_object_mut().expect("body").remove("determination");
    }
    let name = if land == "nrw" { "nrw-vacancy-list-member.json".to_owned() } else { format!("{land}-vacancy.json") };
    let mut v = example(&name);
    v["effective_at"] = json!("2026-11-28T00:00:00+01:00");
    (s, v)
}

fn candidate_mut<'a>(s: &'a mut Value, id: &str) -> &'a mut Value {
    s["lists"]
        .as_array_mut()
        .into_iter()
        .flatten()
        .flat_map(|l| l["candidates"].as_array_mut().into_iter().flatten())
        .find(|c| c["id"] == json!(id))
        .unwrap_or_else(|| panic!("candidate {id}"))
}

/// Register, report the vacancy, confirm a proposal, draw a lot for the first tied: the case, its id and the
/// effects of the step that offered the seat.
fn open(s: &Value, v: &Value) -> (Council, String, Vec<Effect>) {
    let mut b = body(s.clone());
    let id = b.info().id.clone();
    let mut e = run(&mut b, "vacancy.reported", v.clone(), now());
    let case = b.cases.keys().next().expect("case").to_string();
    if let CaseState::AwaitingLot { tied } = &b.cases[case.as_str()].state {
        let winner = tied[0].clone();
        let lot = json!({"body": id, "case": case, "winner": winner, "drawn_by": "Wahlleiterin", "drawn_at": "2026-11-30T09:30:00+01:00"});
        e = run(&mut b, "lot.drawn", lot, now());
    }
    if matches!(b.cases[case.as_str()].state, CaseState::Proposed(_)) {
        let confirm = json!({"body": id, "case": case, "round": b.cases[case.as_str()].round, "confirmed_by": "Wahlleiterin", "confirmed_at": "2026-11-30T10:00:00+01:00"});
        e = run(&mut b, "determination.confirmed", confirm, now());
    }
    // the letter went out (a declaration before it would be refused)
    let round = b.cases[case.as_str()].round;
    let sent = Command::NotificationSent {
        case: case.as_str().into(),
        round,
        kind: MailKind::Determination,
        message_id: format!("<{case}.{round}@nachfolge>"),
        sent_at: now(),
    };
    procedure::handle(&mut b, sent, now(), &Settings::default()).expect("sent");
    (b, case, e)
}

/// The pending successor of the case (Hessen: the member of a case filled with the determination).
fn successor(b: &Council, case: &str) -> String {
    b.cases[case].successor().unwrap_or_else(|| panic!("no successor: {:?}", b.cases[case].state)).to_owned()
}

/// The snapshot and vacancy of `land` for a case of `kind`; `None` where the Land has no such case.
fn prepare(land: &str, kind: Kind) -> Option<(Value, Value)> {
    let (mut s, v) = example_case(land);
    match kind {
        Kind::Kreistag => {
            s["body"]["kind"] = json!("kreistag");
            s["body"]["name"] = json!("Kreistag des Landkreises Musterkreis");
        }
        Kind::Confirm => s["body"]["determination"] = json!("confirm"),
        Kind::Barred | Kind::BarredProven | Kind::BarredAccepted => {
            let (b, case, _) = open(&s, &v);
            let who = successor(&b, &case);
            candidate_mut(&mut s, &who)["facts"] =
                json!([{"type": "barred", "on": "2026-01-01", "reason": "Beschäftigte der Verwaltung"}]);
            // Bayern passes a barred successor over: no barred offer there
            let (b, case, _) = open(&s, &v);
            if successor(&b, &case) != who {
                return None;
            }
        }
        Kind::Lot => {
            // the successor and the next in the order get equal votes
            let (b, case, _) = open(&s, &v);
            let first = successor(&b, &case);
            let list = b.list_of(&first).expect("list").id.clone();
            let order = b.succession_order(now());
            let second = order.lists.iter().find(|l| l.list == list)?.order.first()?.clone();
            let votes = candidate_mut(&mut s, &first)["votes"].clone();
            if votes.is_null() {
                return None;
            }
            candidate_mut(&mut s, &second)["votes"] = votes;
            let mut probe = body(s.clone());
            run(&mut probe, "vacancy.reported", v.clone(), now());
            let case = probe.cases.keys().next().expect("case").clone();
            if !matches!(probe.cases[case.as_str()].state, CaseState::AwaitingLot { .. }) {
                return None; // equal votes are decided otherwise (the list order)
            }
        }
        _ => {}
    }
    Some((s, v))
}

/// The determination mail among `e`: its context and rendered text.
fn offer_mail(e: &[Effect]) -> Option<(Value, String)> {
    let t = Templates::load(None).expect("templates");
    e.iter().find_map(|e| match e {
        Effect::Mail(m) if m.kind == MailKind::Determination => {
            Some((m.context.clone(), t.mail(&m.template, &m.context).expect("mail renders").text))
        }
        _ => None,
    })
}

/// Serve the pending successor on `on` (entered that afternoon); the period notice's context and text, and the
/// effects.
fn serve(b: &mut Council, case: &str, land: &str, on: &str) -> (Option<(Value, String)>, Vec<Effect>) {
    let id = b.info().id.clone();
    let who = successor(b, case);
    let method = if land == "by" { "actual_receipt" } else { "certificate" };
    let served = json!({"body": id, "case": case, "candidate": who, "method": method, "on": on});
    let e = run(b, "notification.served", served, at(&format!("{on}T15:00:00Z")));
    let t = Templates::load(None).expect("templates");
    let notice = e.iter().find_map(|e| match e {
        Effect::Mail(m) if m.kind == MailKind::PeriodNotice => {
            Some((m.context.clone(), t.mail(&m.template, &m.context).expect("notice renders").text))
        }
        _ => None,
    });
    (notice, e)
}

/// What the procedure did when the period of the offer to `who` ended, as a `procedure::lapse` code.
fn applied(b: &Council, case: &str, who: &str, e: &[Effect]) -> &'static str {
    let events: Vec<(&str, &Value)> = e
        .iter()
        .filter_map(|e| match e {
            Effect::Publish { event_type, data } => Some((*event_type, data)),
            _ => None,
        })
        .collect();
    let about = |d: &Value| d["person"]["id"] == json!(who) || d["candidate"] == json!(who);
    let membership = |change: &str, basis: &str| {
        events.iter().any(|(t, d)| {
            *t == "membership.changed" && about(d) && d["change"] == json!(change) && d["basis"] == json!(basis)
        })
    };
    if membership("left", "bar_at_acceptance") {
        "mandate_lost"
    } else if membership("left", "deemed_not_acquired") {
        "deemed_not_acquired"
    } else if membership("joined", "deemed_acceptance") {
        "deemed_acceptance"
    } else if events.iter().any(|(t, d)| *t == "declaration.recorded" && about(d) && d["kind"] == "deemed_refusal") {
        "deemed_refusal"
    } else if matches!(&b.cases[case].state, CaseState::Offered(o) if o.successor == who) {
        "awaits_proof"
    } else {
        "nothing"
    }
}

/// Words that say the effect `code`.
fn says(code: &str) -> &'static [&'static str] {
    match code {
        "deemed_acceptance" => {
            &["als angenommen", "erwerben Sie die Mitgliedschaft mit Ablauf", "frühestens jedoch mit Ablauf der Frist"]
        }
        "deemed_refusal" => &["als abgelehnt", "als hätten Sie die Wahl abgelehnt"],
        "deemed_not_acquired" => &["als nicht erworben"],
        "mandate_lost" => &["verlieren das Mandat"],
        "awaits_proof" => &["werden Sie nicht Mitglied"],
        _ => &[],
    }
}

/// The code the mail announced for the situation `kind` leaves the offer in at the end of the period.
fn announced(consequences: &Value, kind: Kind) -> String {
    let key = match kind {
        Kind::BarredProven => "silence_proven",
        Kind::BarredAccepted => "accepted_unproven",
        _ => "silence",
    };
    // a bar that holds up nothing (Mecklenburg-Vorpommern) changes nothing at the end of the period
    let code = consequences[key].as_str().or_else(|| consequences["silence"].as_str());
    code.unwrap_or_else(|| panic!("consequences.{key}: {consequences}")).to_owned()
}

/// The letter (and the period notice) says what the procedure then does: the code, and a sentence with it.
#[track_caller]
fn assert_agrees(what: &str, mail: &(Value, String), notice: Option<&(Value, String)>, kind: Kind, effect: &str) {
    let (context, text) = mail;
    let c = &context["consequences"];
    assert_eq!(announced(c, kind), effect, "{what}: announced vs applied\n{text}");
    let lapse: Vec<String> = serde_json::from_value(c["lapse"].clone()).expect("lapse");
    assert!(!lapse.is_empty(), "{what}: no sentence on the end of the period\n{text}");
    for sentence in &lapse {
        assert!(text.contains(sentence.as_str()), "{what}: {sentence:?} not in the letter\n{text}");
    }
    // "nothing": the proof made him a member already (Hessen), no sentence is about it
    assert!(
        effect == "nothing" || lapse.iter().any(|s| says(effect).iter().any(|w| s.contains(w))),
        "{what}: no sentence says {effect}: {lapse:?}"
    );
    if let Some((n, notice_text)) = notice {
        assert_eq!(n["period"]["lapse"], c["lapse"], "{what}: the period notice says it otherwise");
        for sentence in &lapse {
            assert!(notice_text.contains(sentence.as_str()), "{what}: {sentence:?} not in the notice\n{notice_text}");
        }
    }
}

/// Run one case of `kind` in `land` to the end of its period; `false` where the Land has no such case.
fn check(land: &str, kind: Kind) -> bool {
    let what = format!("{land} {kind:?}");
    let Some((s, v)) = prepare(land, kind) else { return false };
    let (mut b, case, e) = open(&s, &v);
    let id = b.info().id.clone();
    let who = successor(&b, &case);
    let mail = offer_mail(&e).unwrap_or_else(|| panic!("{what}: no letter"));
    if kind == Kind::Lot {
        assert!(mail.0["lot"].is_object(), "{what}: the letter names no lot");
    }
    let (notice, served) = serve(&mut b, &case, land, "2026-11-30");
    if matches!(kind, Kind::Barred) && ["bb", "ni", "nrw", "rp", "st", "sh"].contains(&land) {
        render(&served, &format!("{land}-barred-period-notice"));
    }
    let round = b.cases[case.as_str()].round;
    match kind {
        Kind::BarredProven => {
            let proof = json!({"body": id, "case": case, "candidate": who, "proven_at": WITHIN});
            run(&mut b, "bar.cured", proof, at(WITHIN_NOW));
        }
        Kind::BarredAccepted => {
            let accept = json!({"body": id, "case": case, "candidate": who, "kind": "accept", "received_at": WITHIN});
            run(&mut b, "declaration.received", accept, at(WITHIN_NOW));
        }
        Kind::Reservation => {
            let d = json!({"body": id, "case": case, "candidate": who, "kind": "accept_with_reservation", "received_at": WITHIN});
            run(&mut b, "declaration.received", d, at(WITHIN_NOW));
            let refused = b.cases[case.as_str()].refused.iter().any(|r| r == &who);
            let sentence = mail.0["consequences"]["reservation"].as_str().unwrap_or_else(|| panic!("{what}"));
            assert!(mail.1.contains(sentence), "{what}: {sentence:?} not in the letter");
            assert_eq!(sentence.contains("gilt als Ablehnung"), refused, "{what}: {sentence:?}, refused: {refused}");
            if !refused {
                // void: the acceptance stands — a member now, or (Mecklenburg-Vorpommern) when the week ends
                let e = run_expired(&mut b, &case, round);
                let member =
                    matches!(&b.cases[case.as_str()].state, CaseState::Filled { successor, .. } if successor == &who);
                assert!(member, "{what}: {sentence:?}, but {:?} after {e:?}", b.cases[case.as_str()].state);
            }
            return true;
        }
        Kind::ReviewFinal | Kind::ReviewNotFinal => {
            let list = b.list_of(&who).expect("list").id.clone();
            let order = b.succession_order(now());
            let other = order.lists.iter().find(|l| l.list == list).and_then(|l| l.order.first()).cloned();
            let Some(other) = other else { return false };
            let is_final = kind == Kind::ReviewFinal;
            let mut r = json!({"body": id, "case": case, "outcome": "amended", "successor": other,
                "decided_at": "2026-12-01T10:00:00+01:00", "final": is_final});
            if is_final {
                r["final_on"] = json!("2026-12-01");
            }
            let e = run(&mut b, "review.decided", r, at("2026-12-01T12:00:00Z"));
            let new_offer = offer_mail(&e);
            if !is_final {
                // nothing changes: no letter, the first offer's period runs on
                assert!(new_offer.is_none(), "{what}: a letter while the decision is not final");
                assert_eq!(successor(&b, &case), who, "{what}");
            } else {
                let Some(new_mail) = new_offer else { return false }; // a Land whose review installs no offer
                let installed = successor(&b, &case);
                assert_eq!(installed, other, "{what}");
                let (new_notice, _) = serve(&mut b, &case, land, "2026-12-01");
                let new_round = b.cases[case.as_str()].round;
                let e = run_expired(&mut b, &case, new_round);
                let effect = applied(&b, &case, &installed, &e);
                assert_agrees(&what, &new_mail, new_notice.as_ref(), kind, effect);
                return true;
            }
        }
        _ => {}
    }
    let e = run_expired(&mut b, &case, round);
    let effect = applied(&b, &case, &who, &e);
    assert_agrees(&what, &mail, notice.as_ref(), kind, effect);
    true
}

fn run_expired(b: &mut Council, case: &str, round: u32) -> Vec<Effect> {
    let cmd = Command::DeadlineExpired { case: case.into(), round };
    procedure::handle(b, cmd, at(LATER), &Settings::default()).expect("the period ends")
}

const ALL: [Kind; 10] = [
    Kind::Plain,
    Kind::Barred,
    Kind::BarredProven,
    Kind::BarredAccepted,
    Kind::Kreistag,
    Kind::Lot,
    Kind::Confirm,
    Kind::Reservation,
    Kind::ReviewFinal,
    Kind::ReviewNotFinal,
];

/// Every case kind of `land`; returns the kinds the Land has none of.
fn check_all(land: &str) -> Vec<Kind> {
    ALL.into_iter().filter(|k| !check(land, *k)).collect()
}

#[test]
fn kwahlg_nrw_45_abs_6_satz_4_kwahlo_62_nr_1_5_the_sentences_mailed_are_the_effects_applied() {
    // NRW has no lot among Listennachfolger (the Reserveliste's order decides)
    assert_eq!(check_all("nrw"), [Kind::Lot]);
}

#[test]
fn rp_kwg_44_abs_2_kwo_64_abs_1_nr_1_abs_2_the_sentences_mailed_are_the_effects_applied() {
    // equal votes: the order of nomination decides (§ 45 Abs. 2 Satz 3 KWG), no lot
    assert_eq!(check_all("rp"), [Kind::Lot]);
}

#[test]
fn ni_nkwg_40_abs_1_satz_4_nkomvg_50_abs_3_the_sentences_mailed_are_the_effects_applied() {
    assert_eq!(check_all("ni"), []);
}

#[test]
fn st_kwg_lsa_43_abs_1_satz_2_kvg_lsa_42_abs_1_nr_3_the_sentences_mailed_are_the_effects_applied() {
    // equal votes: the order on the Wahlvorschlag decides (§ 41 Abs. 2 Satz 1 KWG LSA), no lot
    assert_eq!(check_all("st"), [Kind::Lot]);
}

#[test]
fn th_thuerkwg_29_the_sentences_mailed_are_the_effects_applied() {
    assert_eq!(check_all("th"), []);
}

#[test]
fn sh_gkwg_37_37a_the_sentences_mailed_are_the_effects_applied() {
    // closed lists: no votes, no lot
    assert_eq!(check_all("sh"), [Kind::Lot]);
}

#[test]
fn mv_lkwg_34_kv_mv_25_abs_4_the_sentences_mailed_are_the_effects_applied() {
    // equal votes: the order on the Wahlvorschlag decides (§ 33 Abs. 2 Satz 4 LKWG M-V), no lot; a barred
    // successor is told, and treated, as if unbarred (§ 25 Abs. 4 KV M-V)
    assert_eq!(check_all("mv"), [Kind::Lot]);
}

#[test]
fn bb_bbgkwahlg_51_the_sentences_mailed_are_the_effects_applied() {
    // equal votes: the order on the Wahlvorschlag decides (§ 60 Abs. 2 BbgKWahlG), no lot
    assert_eq!(check_all("bb"), [Kind::Lot]);
}

#[test]
fn by_art_47_abs_2_satz_2_glkrwg_the_sentences_mailed_are_the_effects_applied() {
    // a Hinderungsgrund passes over in Bayern (Art. 37 Abs. 2 Satz 2 GLKrWG i. V. m. Art. 31 Abs. 3 GO): no
    // barred offer
    assert_eq!(check_all("by"), [Kind::Barred, Kind::BarredProven, Kind::BarredAccepted]);
}

#[test]
fn he_kwg_23_abs_2_satz_3_the_sentences_mailed_are_the_effects_applied() {
    // Hessen runs a period only for a barred successor
    for kind in [Kind::Barred, Kind::BarredProven] {
        assert!(check("he", kind), "{kind:?}");
    }
}
