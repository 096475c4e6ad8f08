//! The console's pages: minijinja templates under `config/templates/console/` (compiled in, overridable
//! from `templates.dir`), and what each page is given. Every word here is German, for the Wahlleitung;
//! the reasons and their citations come from the core (`texts::reason_de`, the trail).

use std::path::Path;

use chrono::{DateTime, NaiveDate, Utc};
use minijinja::Environment;
use serde_json::{json, Value};

use crate::calendar::{berlin, german_date, local_date};
use crate::deadline::working_days_left;
use crate::land::LocalHolidays;
use crate::procedure::{Case, CaseState, Council};
use crate::rules::SuccessionOrder;
use crate::store::AuditRow;
use crate::templates::TemplateError;
use crate::trail::Verdict;
use nachfolge_core::texts::{departure_in, reason_de};

/// Built-in templates: (name, source).
const BUILTIN: &[(&str, &str)] = &[
    ("console/base.html", include_str!("../../config/templates/console/base.html")),
    ("console/anmelden.html", include_str!("../../config/templates/console/anmelden.html")),
    ("console/raete.html", include_str!("../../config/templates/console/raete.html")),
    ("console/rat.html", include_str!("../../config/templates/console/rat.html")),
    ("console/fall.html", include_str!("../../config/templates/console/fall.html")),
    ("console/fehler.html", include_str!("../../config/templates/console/fehler.html")),
    ("console/frist.html", include_str!("../../config/templates/console/frist.html")),
    ("console/aktion.html", include_str!("../../config/templates/console/aktion.html")),
    ("console/weiter.html", include_str!("../../config/templates/console/weiter.html")),
    ("console/wahlergebnis.html", include_str!("../../config/templates/console/wahlergebnis.html")),
];

/// The style sheet (no inline styles: the Content-Security-Policy allows only this file).
const STYLESHEET: &str = include_str!("../../config/templates/console/console.css");

/// The loaded templates and the style sheet.
pub struct Views {
    env: Environment<'static>,
    pub stylesheet: String,
}

impl Views {
    /// The built-in templates, overridden by files of the same name under `dir` (`console/…`).
    pub fn load(dir: Option<&Path>) -> Result<Views, TemplateError> {
        let mut env = Environment::new();
        env.set_trim_blocks(true);
        env.set_lstrip_blocks(true);
        env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
        env.set_formatter(html_formatter);
        env.set_undefined_behavior(minijinja::UndefinedBehavior::Chainable);
        let read = |name: &str, builtin: &str| -> Result<String, TemplateError> {
            match dir {
                Some(d) if d.join(name).is_file() => {
                    let path = d.join(name);
                    std::fs::read_to_string(&path)
                        .map_err(|source| TemplateError::Io { path: path.display().to_string(), source })
                }
                _ => Ok(builtin.to_owned()),
            }
        };
        for (name, src) in BUILTIN {
            let source = read(name, src)?;
            env.add_template_owned(*name, source)
                .map_err(|source| TemplateError::Render { name: (*name).to_owned(), source })?;
        }
        let stylesheet = read("console/console.css", STYLESHEET)?;
        Ok(Views { env, stylesheet })
    }

    /// Render template `name` with `ctx`.
    pub fn render(&self, name: &str, ctx: &Value) -> Result<String, TemplateError> {
        let t =
            self.env.get_template(name).map_err(|source| TemplateError::Render { name: name.to_owned(), source })?;
        t.render(ctx).map_err(|source| TemplateError::Render { name: name.to_owned(), source })
    }
}

/// HTML escaping of every value written into a page, as minijinja's own but leaving `/` as it is: minijinja
/// writes it as `&#x2f;`, which a browser reads back, but which made every link in the page source unreadable
/// (`href="&#x2f;raete&#x2f;…"`). `/` needs no escaping in HTML text or in a quoted attribute value.
fn html_formatter(
    out: &mut minijinja::Output,
    state: &minijinja::State,
    value: &minijinja::Value,
) -> Result<(), minijinja::Error> {
    match value.as_str() {
        Some(text) if state.auto_escape() == minijinja::AutoEscape::Html && !value.is_safe() => {
            out.write_str(&escape_html(text)).map_err(minijinja::Error::from)
        }
        _ => minijinja::escape_formatter(out, state, value),
    }
}

/// `&`, `<`, `>`, `"` and `'` as character references.
fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
    out
}

/// An instant as the office writes it: `01.12.2026, 14:05 Uhr` (Europe/Berlin).
pub fn when(t: DateTime<Utc>) -> String {
    berlin(t).format("%d.%m.%Y, %H:%M Uhr").to_string()
}

/// The German name of a Land, by its wire code (the code itself for one not listed here).
pub fn land_name(code: &str) -> String {
    let name = match code {
        "BW" => "Baden-Württemberg",
        "BY" => "Bayern",
        "BE" => "Berlin",
        "BB" => "Brandenburg",
        "HB" => "Bremen",
        "HH" => "Hamburg",
        "HE" => "Hessen",
        "MV" => "Mecklenburg-Vorpommern",
        "NI" => "Niedersachsen",
        "NW" => "Nordrhein-Westfalen",
        "RP" => "Rheinland-Pfalz",
        "SL" => "Saarland",
        "SN" => "Sachsen",
        "ST" => "Sachsen-Anhalt",
        "SH" => "Schleswig-Holstein",
        "TH" => "Thüringen",
        other => other,
    };
    name.to_owned()
}

/// The German name of a role.
pub fn role_name(role: &str) -> &'static str {
    match role {
        "admin" => "Administration (alle Vertretungen)",
        "wahlleiter" => "Wahlleitung",
        _ => "Lesezugriff",
    }
}

/// The wire code of a serde enum value (`"offered"`), for display of codes the console has no words for.
fn code<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

/// A candidate's name and id: `Felix Fuchs`, or the id when the snapshot does not know it.
pub fn person(council: &Council, id: &str) -> Value {
    let name = council.candidate(id).map(|c| format!("{} {}", c.given_name, c.family_name));
    json!({"id": id, "name": name.unwrap_or_else(|| id.to_owned())})
}

fn verdict_name(v: Verdict) -> &'static str {
    match v {
        Verdict::Skipped => "übergangen",
        Verdict::Chosen => "bestimmt",
        Verdict::Tied => "Stimmengleichheit",
        Verdict::Noted => "Hinweis",
    }
}

/// A running or ended period: its last day, the working days left (the Land's holidays and the body's
/// local ones, [`working_days_left`]) and whether it ends within `urgent_days`.
fn period(
    council: &Council,
    kind: String,
    last_day: NaiveDate,
    ends_at: DateTime<Utc>,
    now: DateTime<Utc>,
    urgent_days: u32,
) -> Value {
    let local = LocalHolidays::of(council.land(), &council.info().local_holidays);
    let today = local_date(now);
    let ended = now >= ends_at;
    let urgent = !ended && ends_at - now <= chrono::Duration::days(i64::from(urgent_days));
    json!({
        "kind": kind,
        "last_day": german_date(last_day),
        "ends_at": when(ends_at),
        "ended": ended,
        "urgent": urgent,
        "urgent_days": urgent_days,
        "working_days_left": working_days_left(council.land(), local, today, last_day),
        // like the working days, today and the last day included (the page says „einschließlich heute“)
        "calendar_days_left": ((last_day - today).num_days() + 1).max(0),
    })
}

/// The periods of a case that matter now: the period after service of the current offer, and the
/// objection periods of its announcements that are not over or superseded.
fn periods(council: &Council, case: &Case, now: DateTime<Utc>, urgent_days: u32) -> Vec<Value> {
    let mut out = Vec::new();
    if let CaseState::Offered(o) = &case.state {
        if let Some(d) = &o.deadline {
            let kind = format!("Frist nach Zustellung am {}", german_date(d.served_on));
            let mut p = period(council, kind, d.last_day, d.ends_at, now, urgent_days);
            p["ics"] = json!(format!("/raete/{}/faelle/{}/frist.ics", enc(council.id()), enc(case.id.as_str())));
            out.push(p);
        }
    }
    for a in &case.history.announcements {
        if let (Some(p), false, false) = (&a.objection, a.ended, a.superseded) {
            let kind = format!(
                "Einspruchsfrist gegen die Bekanntmachung Nr. {} vom {}",
                a.n,
                german_date(local_date(a.issued_at))
            );
            out.push(period(council, kind, p.last_day, p.ends_at, now, urgent_days));
        }
    }
    out
}

/// Where a case stands, in words.
fn state_words(council: &Council, case: &Case) -> (String, Option<String>) {
    match &case.state {
        CaseState::AwaitingLot { tied } => {
            let names: Vec<String> =
                tied.iter().map(|c| person(council, c)["name"].as_str().unwrap_or_default().to_owned()).collect();
            ("Losentscheid ausstehend".into(), Some(format!("Stimmengleichheit: {}", names.join(", "))))
        }
        CaseState::Proposed(_) => ("Feststellung durch die Wahlleitung ausstehend".into(), None),
        CaseState::Offered(o) => {
            let detail = if o.accepted_at.is_some() && o.barred {
                "Annahme erklärt; Nachweis der Beseitigung des Hinderungsgrundes ausstehend"
            } else if o.accepted_at.is_some() {
                "Annahme erklärt"
            } else if o.deadline.is_some() {
                "Frist läuft"
            } else if o.notification_failed {
                "Benachrichtigung fehlgeschlagen; Zustellung ausstehend"
            } else if o.notified_at.is_some() {
                "Benachrichtigt; Zustellung noch nicht erfasst"
            } else {
                "Benachrichtigung wird versandt"
            };
            let state = if o.member_since.is_some() { "Mitglied; Nachweis ausstehend" } else { "Nachfolge angeboten" };
            (state.into(), Some(detail.into()))
        }
        CaseState::Filled { since, basis, .. } => (
            format!("Sitz besetzt seit {}", german_date(local_date(*since))),
            Some(format!("Grundlage: {}", code_de(&code(basis)))),
        ),
        CaseState::Vacant { reason } => {
            ("Sitz bleibt unbesetzt".into(), Some(format!("Grund: {}", code_de(&code(reason)))))
        }
    }
}

/// The German words for the basis of a membership and the reason a seat stays vacant (the code itself for
/// one not listed).
fn code_de(code: &str) -> String {
    let words = match code {
        "acceptance" => "Annahme der Wahl",
        "deemed_acceptance" => "Annahme durch Fristablauf",
        "determination" => "Feststellung der Nachfolge",
        "bar_cured" => "Nachweis der Beseitigung des Hinderungsgrundes",
        "review" => "Entscheidung im Prüfungsverfahren",
        "correction" => "Berichtigung nach einer rechtzeitigen Erklärung",
        "individual_candidate" => "kein Wahlvorschlag einer Partei oder Wählergruppe",
        "list_exhausted" => "Wahlvorschlag erschöpft",
        "party_banned" => "Verbot der Partei oder Vereinigung",
        "merger" => "Eingliederung der Gemeinde",
        "returning_officer_decides" => "die Wahlleitung entscheidet über den Sitz",
        "result_corrected" => "Berichtigung des Wahlergebnisses – der Sitz folgt dem berichtigten Ergebnis",
        other => other,
    };
    words.to_owned()
}

/// One case as the council page and the case page show it.
pub fn case_summary(council: &Council, case: &Case, now: DateTime<Utc>, urgent_days: u32) -> Value {
    let (state, detail) = state_words(council, case);
    let periods = periods(council, case, now, urgent_days);
    // the successor's membership: the seat filled, or (Hessen) a member with the determination
    let member_since = match &case.state {
        CaseState::Filled { since, .. } => Some(*since),
        CaseState::Offered(o) => o.member_since,
        _ => None,
    };
    let urgent = periods.iter().any(|p| p["urgent"] == true);
    // § 31 Abs. 2 Satz 2 GemO: the successor moved up from a weiterer Sitz, which a case of its own fills — and
    // that case names the one that freed it
    let case_ref = |id: &str| json!({"case": id, "url": format!("/raete/{}/faelle/{}", enc(council.id()), enc(id))});
    let seat_move = case.history.seat_move.as_ref().map(|m| case_ref(m.follow_on.as_str()));
    let moved_from = council
        .cases
        .values()
        .find(|c| c.history.seat_move.as_ref().is_some_and(|m| m.follow_on == case.id))
        .map(|c| case_ref(c.id.as_str()));
    json!({
        "id": case.id.as_str(),
        "seat_move": seat_move,
        "moved_from": moved_from,
        "url": format!("/raete/{}/faelle/{}", enc(council.id()), enc(case.id.as_str())),
        "state_code": case.state_name(),
        "state": state,
        "detail": detail,
        "open": !case.is_closed(),
        "round": case.round,
        "departed": person(council, &case.departed),
        "departure": departure_in(case.reason, council.info().kind),
        // the weiterer Sitz (a Kreistag's Ausgleichssitz) a member gave up by moving into his Wohnbezirk's
        // (Wahlkreis's) seat: he did not leave
        "moved_up": case.reason == nachfolge_core::model::DepartureReason::MovedUp,
        "kreistag": council.info().kind == nachfolge_core::model::BodyKind::Kreistag,
        "effective_at": when(case.effective_at),
        "list": council.list_of(&case.departed).map(|l| l.name.clone()).unwrap_or_else(|| case.list.clone()),
        "successor": case.successor().map(|s| person(council, s)),
        "member_since": member_since.map(|t| german_date(local_date(t))),
        "periods": periods,
        "urgent": urgent,
        "actions": super::actions::available(council, case),
    })
}

/// Sorts `items` (cases, or anything with a case id) newest first: by the number of the case within its council
/// (ids are `{body}-{n}`, counted up by the core), not by the id as text, where `rat-10` would come before
/// `rat-2`. An id of another form goes last, by its text.
pub fn newest_first<T>(body: &str, items: &mut [T], id: impl Fn(&T) -> &str) {
    let number = |i: &str| i.strip_prefix(body)?.strip_prefix('-')?.parse::<u64>().ok();
    items.sort_by(|a, b| {
        let (a, b) = (id(a), id(b));
        match (number(a), number(b)) {
            (Some(x), Some(y)) => y.cmp(&x),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => b.cmp(a),
        }
    });
}

/// A path segment, percent-encoded (ids are plain in practice, but never trusted in a URL).
pub fn enc(segment: &str) -> String {
    segment
        .bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The council header shared by its pages.
pub fn council_info(council: &Council) -> Value {
    let info = council.info();
    json!({
        "id": info.id,
        "url": format!("/raete/{}", enc(&info.id)),
        "name": info.name,
        "land": land_name(&code(&info.land)),
        "statutory_size": info.statutory_size,
        "term": format!("{} bis {}", german_date(info.term.start), german_date(info.term.end)),
    })
}

/// The Nachrückerliste of every list, with names, reasons in words and citations.
pub fn succession_lists(council: &Council, order: &SuccessionOrder) -> Vec<Value> {
    order
        .lists
        .iter()
        .map(|l| {
            let name = council.snapshot.lists.iter().find(|x| x.id == l.list).map(|x| x.name.clone());
            let order: Vec<Value> = l
                .order
                .iter()
                .map(|c| {
                    let mut p = person(council, c);
                    // the candidate-fact action from the Nachrückerliste (shown to who may act)
                    p["fact_url"] = json!(format!("/raete/{}/tatsache?person={}", enc(council.id()), enc(c)));
                    if let Some(cand) = council.candidate(c) {
                        p["position"] = json!(cand.position);
                        p["votes"] = json!(cand.votes);
                    }
                    p
                })
                .collect();
            let passed: Vec<Value> = l
                .passed_over
                .iter()
                .map(|p| json!({"person": person(council, &p.candidate), "reason": reason_de(&p.reason), "citation": p.citation}))
                .collect();
            let substitutes: Vec<Value> = l
                .substitutes
                .iter()
                .map(|s| json!({"person": person(council, &s.candidate), "for": person(council, &s.substitute_for), "citation": s.citation}))
                .collect();
            let lots: Vec<Vec<Value>> =
                l.lot_groups.iter().map(|g| g.iter().map(|c| person(council, c)).collect()).collect();
            let notes: Vec<Value> = l
                .notes
                .iter()
                .map(|n| {
                    json!({
                        "person": n.candidate.as_deref().map(|c| person(council, c)),
                        "verdict": verdict_name(n.verdict),
                        "reason": reason_de(&n.reason),
                        "citation": n.citation,
                    })
                })
                .collect();
            json!({
                "id": l.list,
                "name": name.unwrap_or_else(|| l.list.clone()),
                "next": order.first(),
                "order": order,
                "passed_over": passed,
                "substitutes": substitutes,
                "lot_groups": lots,
                "notes": notes,
            })
        })
        .collect()
}

/// The German name of an audit entry's type, where the console has one (else the type itself).
pub fn type_name(ty: &str) -> &str {
    match ty {
        "election.registered" => "Wahlergebnis registriert",
        "body.registered" => "Vertretung registriert",
        "vacancy.reported" => "Ausscheiden gemeldet",
        "succession.determined" => "Nachfolge festgestellt",
        "succession.proposed" => "Nachfolge vorgeschlagen",
        "determination.confirmed" => "Feststellung bestätigt",
        "successor.notified" => "Benachrichtigung versandt",
        "notification.failed" => "Benachrichtigung fehlgeschlagen",
        "notification.served" => "Zustellung erfasst",
        "deadline.set" => "Frist gesetzt",
        "declaration.received" => "Erklärung eingegangen",
        "declaration.recorded" => "Erklärung erfasst",
        "membership.changed" => "Mitgliedschaft geändert",
        "announcement.issued" => "Bekanntmachung erstellt",
        "objection_period.ended" => "Einspruchsfrist abgelaufen",
        "lot.requested" => "Losentscheid erforderlich",
        "lot.drawn" => "Los gezogen",
        "seat.left_vacant" => "Sitz bleibt unbesetzt",
        "bar.cured" => "Nachweis der Beseitigung des Hinderungsgrundes eingegangen",
        "case.review_required" => "Prüfung durch die Wahlleitung erforderlich",
        "confirmation.rejected" => "Feststellung nicht angewandt",
        "service.rejected" => "Zustellung nicht angewandt",
        "declaration.rejected" => "Erklärung nicht angewandt",
        "declaration.held" => "Erklärung zurückgestellt bis zur Zustellung",
        "review.decided" => "Entscheidung im Prüfungsverfahren",
        "candidate.fact_recorded" => "Tatsache zu einer Bewerberin oder einem Bewerber erfasst",
        "mail.queued" => "E-Mail vorbereitet",
        "mail.sent" => "E-Mail versandt",
        "mail.failed" => "E-Mail-Versand fehlgeschlagen",
        "deadline.expired" => "Frist abgelaufen",
        "timer.scheduled" => "Fristablauf vorgemerkt",
        "timer.cancelled" => "Fristablauf gestrichen",
        other => other,
    }
}

fn kind_name(kind: &str) -> &'static str {
    match kind {
        "command" => "Eingang",
        "effect" => "Folge",
        "rejected" => "Zurückgewiesen",
        _ => "Eintrag",
    }
}

/// A case's history from the body's audit log: every command (with the effects it had) that names the
/// case in itself or in one of its effects, in order. Each group is one command and its effects.
///
/// A notification recorded for sending (`mail.queued`) is named by how it goes: an e-mail only where
/// `has_email` says the person has an address, else a letter (docs/console.md, "Actions").
pub fn case_history(rows: &[AuditRow], case: &str, has_email: &dyn Fn(&str) -> bool) -> Vec<Value> {
    let mut groups: Vec<Vec<&AuditRow>> = Vec::new();
    for row in rows {
        if row.kind == "effect" {
            if let Some(g) = groups.last_mut() {
                g.push(row);
                continue;
            }
        }
        groups.push(vec![row]);
    }
    let names_case = |r: &AuditRow| r.payload.get("case").and_then(Value::as_str) == Some(case);
    // a `case.review_required` stays open until a review decision of the case is recorded after it
    let last_review = rows
        .iter()
        .filter(|r| r.kind == "command" && r.ty == "review.decided" && names_case(r))
        .map(|r| r.seq)
        .max()
        .unwrap_or(i64::MIN);
    groups
        .into_iter()
        .filter(|g| g.iter().any(|r| names_case(r)))
        .map(|g| {
            let entries: Vec<Value> = g
                .iter()
                .map(|r| {
                    let by_letter = r.ty == "mail.queued"
                        && r.payload.get("candidate").and_then(Value::as_str).is_some_and(|p| !has_email(p));
                    let type_name = if by_letter {
                        "Benachrichtigung per Brief vorgesehen (keine E-Mail-Adresse)"
                    } else {
                        type_name(&r.ty)
                    };
                    json!({
                        "seq": r.seq,
                        "at": when(r.at),
                        "kind": kind_name(&r.kind),
                        "type": r.ty,
                        "type_name": type_name,
                        "message_id": r.message_id,
                        "unresolved": r.ty == "case.review_required" && r.seq > last_review,
                        "data": serde_json::to_string_pretty(&r.payload).unwrap_or_default(),
                    })
                })
                .collect();
            json!({"entries": entries})
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_templates_load_and_segments_are_encoded() {
        let views = Views::load(None).expect("templates");
        assert!(views.stylesheet.contains(":focus"), "a visible focus style");
        assert_eq!(enc("musterstadt-rat-1"), "musterstadt-rat-1");
        assert_eq!(enc("a/b c"), "a%2Fb%20c");
        assert_eq!(land_name("NW"), "Nordrhein-Westfalen");
        assert_eq!(land_name("XX"), "XX");
    }

    #[test]
    fn links_keep_their_slashes_and_text_is_still_escaped() {
        let views = Views::load(None).expect("templates");
        let ctx = json!({"documents": {}, "may_act": true, "history": [],
            "council": {"url": "/raete/rat", "name": "Rat <b>&</b> \"Stadt\" 'X'"},
            "case": {"id": "rat-1", "url": "/raete/rat/faelle/rat-1", "actions": [{"slug": "zustellung", "link": "Z"}],
                     "departed": {}, "periods": []}});
        let page = views.render("console/fall.html", &ctx).expect("the case page");
        assert!(page.contains(r#"href="/raete/rat/faelle/rat-1/zustellung""#), "{page}");
        assert!(!page.contains("&#x2f;"), "{page}");
        assert!(page.contains("Rat &lt;b&gt;&amp;&lt;/b&gt; &quot;Stadt&quot; &#x27;X&#x27;"), "{page}");
    }

    #[test]
    fn cases_are_listed_newest_first_by_their_number() {
        let mut ids = vec!["rat-2", "rat-10", "rat-1", "anders", "rat-9"];
        newest_first("rat", &mut ids, |i| i);
        assert_eq!(ids, ["rat-10", "rat-9", "rat-2", "rat-1", "anders"]);
        // a body id that ends in a number
        let mut ids = vec!["rat-2-1", "rat-2-12", "rat-2-3"];
        newest_first("rat-2", &mut ids, |i| i);
        assert_eq!(ids, ["rat-2-12", "rat-2-3", "rat-2-1"]);
    }

    #[test]
    fn a_case_history_keeps_the_commands_that_name_the_case_with_their_effects() {
        let row = |seq: i64, kind: &str, ty: &str, payload: Value| AuditRow {
            seq,
            at: DateTime::<Utc>::UNIX_EPOCH,
            kind: kind.into(),
            ty: ty.into(),
            message_id: None,
            payload,
        };
        let rows = vec![
            row(1, "command", "election.registered", json!({})),
            row(2, "effect", "body.registered", json!({})),
            row(3, "command", "vacancy.reported", json!({"member": "L1-01"})),
            row(4, "effect", "succession.determined", json!({"case": "rat-1"})),
            row(5, "command", "vacancy.reported", json!({"member": "L1-02"})),
            row(6, "effect", "succession.determined", json!({"case": "rat-2"})),
            row(7, "command", "notification.served", json!({"case": "rat-1"})),
        ];
        let h = case_history(&rows, "rat-1", &|_| true);
        let seqs: Vec<Vec<i64>> = h
            .iter()
            .map(|g| g["entries"].as_array().into_iter().flatten().filter_map(|e| e["seq"].as_i64()).collect())
            .collect();
        assert_eq!(seqs, vec![vec![3, 4], vec![7]]);
        assert_eq!(h[0]["entries"][0]["type_name"], "Ausscheiden gemeldet");
    }
}
