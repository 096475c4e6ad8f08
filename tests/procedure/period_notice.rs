//! The period notice (Fristmitteilung) to the successor once service is recorded: the day of service, the
//! period with its statute and end, what happens when it passes, and the period as an RFC 5545 calendar
//! entry — the console's `frist.ics` (docs/legal.md, "The period notice to the successor"). Included by
//! tests/procedure.rs; its helpers are the parent's.

use super::*;
use nachfolge::model::{BodyKind, Land};
use nachfolge::templates::Templates;
use nachfolge_core::texts::ics::{period_calendar, PeriodEntry, PeriodKind};

fn mails(effects: &[Effect]) -> Vec<&procedure::MailRequest> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Mail(m) => Some(m),
            _ => None,
        })
        .collect()
}

fn period_notice(effects: &[Effect]) -> &procedure::MailRequest {
    let found: Vec<_> = mails(effects).into_iter().filter(|m| m.kind == MailKind::PeriodNotice).collect();
    assert_eq!(found.len(), 1, "{:?}", kinds(effects));
    found[0]
}

#[test]
fn nrw_45_abs_6_period_notice_after_service_carries_the_end() {
    let mut b = nrw_notified();
    let now = "2025-06-04T09:00:00+02:00";
    let fx = run(&mut b, served("rat", CASE, "L1-03", ServiceMethod::Certificate, "2025-06-03"), now);
    assert_eq!(kinds(&fx), ["schedule:rat-1#1", "publish:deadline.set", "mail:period_notice"]);
    let m = period_notice(&fx);
    assert_eq!((m.round, m.candidate.as_str(), m.to.as_deref()), (1, "L1-03", Some("l1-03@example.org")));
    assert_eq!(m.reply_to, "wahlleitung@example.org");
    assert_eq!(m.variant.as_deref(), Some("20250603"), "the day of service keeps a later certificate's mail apart");
    assert_eq!(m.subject, "Fristmitteilung: Ende der Frist am 10.06.2025, Vertretung „Rat der Stadt Musterstadt“");
    let p = &m.context["period"];
    assert_eq!(p["served"], "on");
    assert_eq!(p["served_on"], "03.06.2025");
    assert_eq!(p["last_day"], "10.06.2025");
    assert_eq!(p["end_time"], "24:00");
    assert_eq!(p["citation"], "§ 45 Abs. 6 Satz 2 KWahlG NRW");
    assert_eq!(
        p["lapse"],
        json!(["Geben Sie bis zum Ablauf der Frist keine Erklärung ab, gilt die Wahl mit Ablauf der Frist als angenommen (§ 45 Abs. 6 Satz 4 KWahlG)."])
    );
    // the calendar is the console's frist.ics entry of the same period, stamped now
    let ics = m.calendar.as_deref().expect("calendar");
    let console = period_calendar(&PeriodEntry {
        case: CASE,
        round: 1,
        kind: PeriodKind::Acceptance,
        land: Land::Nw,
        body_kind: BodyKind::Council,
        body_name: "Rat der Stadt Musterstadt",
        served_on: d("2025-06-03"),
        last_day: d("2025-06-10"),
        stamp: t(now),
    });
    assert_eq!(ics, console);
    for line in [
        "METHOD:PUBLISH",
        "DTSTART;VALUE=DATE:20250610",
        "DTEND;VALUE=DATE:20250611",
        "UID:rat-1-1-acceptance@nachfolge",
    ] {
        assert!(ics.contains(&format!("{line}\r\n")), "{line} in {ics}");
    }
    // the words: served on, the end, the consequence, for information only
    let text = Templates::load(None).expect("templates").mail(&m.template, &m.context).expect("render").text;
    for want in [
        "Guten Tag Vorname Nachname L1-03,",
        "meine schriftliche Benachrichtigung über Ihr Nachrücken in die Vertretung „Rat der Stadt Musterstadt“ ist Ihnen am 03.06.2025 zugestellt worden.",
        "Damit läuft die Frist zur Erklärung über die Annahme der Wahl (§ 45 Abs. 6 Satz 2 KWahlG NRW). Die Frist endet mit Ablauf des 10.06.2025 (24:00 Uhr).",
        "- Geben Sie bis zum Ablauf der Frist keine Erklärung ab, gilt die Wahl mit Ablauf der Frist als angenommen (§ 45 Abs. 6 Satz 4 KWahlG).",
        "Diese Mitteilung dient nur Ihrer Information. Sie ersetzt nicht das Ihnen zugestellte Schreiben",
        "Aktenzeichen: rat-1 (Runde 1)",
    ] {
        assert!(text.contains(want), "{want:?} missing in\n{text}");
    }
}

#[test]
fn nrw_45_abs_6_period_notice_result_is_no_second_notification() {
    let mut b = nrw_notified();
    let notified_at = offer(&b, CASE).notified_at;
    run(&mut b, served("rat", CASE, "L1-03", ServiceMethod::Certificate, "2025-06-03"), "2025-06-04T09:00:00+02:00");
    let sent = Command::NotificationSent {
        case: CASE.into(),
        round: 1,
        kind: MailKind::PeriodNotice,
        message_id: "<rat-1.r1.period-notice.20250603@nachfolge.invalid>".into(),
        sent_at: t("2025-06-04T09:01:00+02:00"),
    };
    let fx = run(&mut b, sent, "2025-06-04T09:01:00+02:00");
    assert!(fx.is_empty(), "no successor.notified for the period notice: {:?}", kinds(&fx));
    assert_eq!(offer(&b, CASE).notified_at, notified_at);
    let failed =
        Command::NotificationFailed { case: CASE.into(), round: 1, kind: MailKind::PeriodNotice, reason: "550".into() };
    let fx = run(&mut b, failed, "2025-06-04T09:02:00+02:00");
    assert!(fx.is_empty(), "the served letter stands: {:?}", kinds(&fx));
    assert!(!offer(&b, CASE).notification_failed);
}

#[test]
fn nrw_45_abs_6_no_period_notice_without_an_email_address() {
    let mut s = nrw_snapshot();
    s["lists"][0]["candidates"][2].as_object_mut().expect("candidate").remove("email");
    let mut b = body_from(s);
    run(&mut b, vacancy("rat", "L1-02", DepartureReason::Resigned, OPENED), OPENED);
    let fx = run(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::Certificate, "2025-06-03"),
        "2025-06-04T09:00:00+02:00",
    );
    assert_eq!(kinds(&fx), ["schedule:rat-1#1", "publish:deadline.set"]);
}

#[test]
fn nrw_45_abs_6_no_period_notice_once_the_period_has_ended() {
    // served Tue 3 Jun, the week ended Tue 10 Jun 24:00; recorded an hour later, within a grace of two hours:
    // the period runs no more, the timer acts later, nobody is told of an end that is past
    let settings = Settings { deadline_grace: chrono::Duration::hours(2), ..Settings::default() };
    let mut b = nrw_notified();
    let fx = run_with(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::Certificate, "2025-06-03"),
        "2025-06-11T01:00:00+02:00",
        &settings,
    );
    assert_eq!(kinds(&fx), ["schedule:rat-1#1", "publish:deadline.set"]);
    // without grace the deemed acceptance applies at once, and again no mail
    let mut b = nrw_notified();
    let fx = run(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::Certificate, "2025-06-03"),
        "2025-06-11T01:00:00+02:00",
    );
    assert!(mails(&fx).is_empty(), "{:?}", kinds(&fx));
}

#[test]
fn lzg_nrw_4_abs_2_deemed_service_is_told_and_a_later_certificate_is_mailed_again() {
    let mut b = nrw_notified();
    let fx = run(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::RegisteredLetterPosted, "2025-06-06"),
        "2025-06-06T15:00:00+02:00",
    );
    let m = period_notice(&fx);
    assert_eq!((m.context["period"]["served"].as_str(), m.variant.as_deref()), (Some("deemed"), Some("20250610")));
    let text = Templates::load(None).expect("templates").mail(&m.template, &m.context).expect("render").text;
    assert!(text.contains("gilt als am 10.06.2025 zugestellt."), "{text}");
    // the certificate of Thu 12 Jun moves the end to Fri 20 Jun (Fronleichnam): a new notice, a new Message-ID
    let fx = run(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::Certificate, "2025-06-12"),
        "2025-06-12T15:00:00+02:00",
    );
    let m = period_notice(&fx);
    assert_eq!(
        (m.context["period"]["last_day"].as_str(), m.variant.as_deref()),
        (Some("20.06.2025"), Some("20250612"))
    );
    assert!(m.calendar.as_deref().expect("calendar").contains("DTSTART;VALUE=DATE:20250620\r\n"));
}

#[test]
fn kwahlo_nrw_62_nr_1_5_barred_successor_is_told_silence_is_acceptance_only_with_the_proof() {
    let mut s = nrw_snapshot();
    add_fact(&mut s, 0, 2, json!({ "type": "barred", "on": "2024-01-01", "reason": "Beschäftigter der Stadt" }));
    let mut b = body_from(s);
    run(&mut b, vacancy("rat", "L1-02", DepartureReason::Resigned, OPENED), OPENED);
    assert!(offer(&b, CASE).barred);
    let fx = run(
        &mut b,
        served("rat", CASE, "L1-03", ServiceMethod::Certificate, "2025-06-03"),
        "2025-06-04T09:00:00+02:00",
    );
    let lapse = &period_notice(&fx).context["period"]["lapse"];
    assert_eq!(lapse.as_array().map(Vec::len), Some(2), "{lapse}");
    // without the proof the election counts as refused, silent or not (§ 62 Nr. 5 KWahlO) …
    assert!(
        lapse[0].as_str().is_some_and(|s| s.starts_with("Weisen Sie mir nicht bis zum Ablauf der Frist nach")
            && s.contains("gilt die Wahl als abgelehnt (§ 69 Abs. 2 in Verbindung mit § 62 Nr. 5 KWahlO)")),
        "{lapse}"
    );
    // … silence is acceptance only "vorbehaltlich" the proof (§ 62 Nr. 1 KWahlO): never told unconditionally
    assert!(
        lapse[1].as_str().is_some_and(|s| s.starts_with("Erbringen Sie den Nachweis bis zum Ablauf der Frist und")),
        "{lapse}"
    );
}

#[test]
fn he_23_abs_2_barred_successor_period_notice_names_the_proof_week() {
    let mut b = he_barred();
    run(&mut b, sent(HCASE, 1, SENT), SENT);
    let fx = run(
        &mut b,
        served("hrat", HCASE, "A-04", ServiceMethod::Certificate, "2025-06-03"),
        "2025-06-04T09:00:00+02:00",
    );
    assert_eq!(kinds(&fx), ["schedule:hrat-1#1", "publish:deadline.set", "mail:period_notice"]);
    let m = period_notice(&fx);
    assert_eq!((m.candidate.as_str(), m.to.as_deref()), ("A-04", Some("a-04@example.org")));
    let p = &m.context["period"];
    assert_eq!(
        (p["kind"].as_str(), p["document"].as_str()),
        (Some("bar-proof"), Some("Feststellung Ihres Nachrückens"))
    );
    assert_eq!(p["citation"], "§ 34 Abs. 3 Satz 2 i. V. m. § 23 Abs. 2 KWG");
    assert_eq!(p["last_day"], "10.06.2025");
    assert_eq!(
        p["lapse"],
        json!(["Wird der Nachweis nicht bis zum Ablauf der Frist erbracht, gilt Ihre Mitgliedschaft rückwirkend als nicht erworben (§ 23 Abs. 2 Satz 3 KWG); an Ihre Stelle rückt dann die nächste Bewerberin oder der nächste Bewerber nach."])
    );
    let ics = m.calendar.as_deref().expect("calendar");
    assert!(ics.contains("UID:hrat-1-1-bar-proof@nachfolge\r\n"), "{ics}");
    let text = Templates::load(None).expect("templates").mail(&m.template, &m.context).expect("render").text;
    assert!(text.contains("Damit läuft die Frist zum Nachweis, dass Sie das mit der Mitgliedschaft unvereinbare Amt oder Arbeitsverhältnis beendet haben (§ 34 Abs. 3 Satz 2 i. V. m. § 23 Abs. 2 KWG)."), "{text}");
}

#[test]
fn he_34_abs_3_no_period_and_no_period_notice_for_a_successor_without_a_bar() {
    let mut b = he();
    run(&mut b, vacancy("hrat", "A-02", DepartureReason::Resigned, HOPENED), HOPENED);
    run(&mut b, sent(HCASE, 1, SENT), SENT);
    let CaseState::Filled { successor, .. } = state(&b, HCASE).clone() else {
        panic!("a member with the determination")
    };
    let fx = run(
        &mut b,
        served("hrat", HCASE, &successor, ServiceMethod::Certificate, "2025-06-03"),
        "2025-06-04T09:00:00+02:00",
    );
    assert!(fx.is_empty(), "{:?}", kinds(&fx));
}
