//! The actions in German: a command's entries ([`summary`]), what its effects mean ([`describe`],
//! [`describe_effects`]) and why the core or the inbox refused it ([`rejection_de`]). The core's technical
//! reason is always kept next to the German text, for the file.

use chrono::{DateTime, NaiveDate};
use serde_json::{json, Value};

use super::command::{DECIDERS, FACTS, KINDS, METHODS, OUTCOMES};
use crate::calendar::german_date;
use crate::console::views::{person, type_name, when};
use crate::messages::Inbound;
use crate::procedure::{Case, CaseState, Council, Effect};
use nachfolge_core::texts::departure_de;
use nachfolge_core::texts::period::end_time;

/// The command in words, for the preview and the result: (label, value) rows.
pub(super) fn summary(council: &Council, inbound: &Inbound) -> Vec<(String, String)> {
    let label = |codes: &[(&str, &str)], code: Value| {
        let code = code.as_str().unwrap_or_default().to_owned();
        codes.iter().find(|(c, _)| *c == code).map_or(code, |(_, n)| (*n).to_owned())
    };
    let who = |c: &str| {
        let p = person(council, c);
        format!("{} ({})", p["name"].as_str().unwrap_or_default(), c)
    };
    let at = |t: DateTime<chrono::FixedOffset>| when(t.to_utc());
    match inbound {
        Inbound::NotificationServed(s) => vec![
            ("Zustellungsempfänger".into(), who(s.candidate.as_str())),
            ("Art der Zustellung".into(), label(METHODS, json!(s.method))),
            ("Tag der Zustellung".into(), german_date(s.on)),
        ],
        Inbound::DeclarationReceived(d) => vec![
            ("Erklärende Person".into(), who(d.candidate.as_str())),
            ("Erklärung".into(), label(KINDS, json!(d.kind))),
            ("Eingang".into(), at(d.received_at)),
        ],
        Inbound::FactRecorded(r) => {
            let value = serde_json::to_value(&r.fact).unwrap_or_default();
            let code = super::command::fact_code(&value);
            let mut rows = vec![
                ("Betroffene Person".into(), who(r.candidate.as_str())),
                ("Tatsache".into(), label(FACTS, json!(code))),
            ];
            if let Some(on) = value["on"].as_str().and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok()) {
                rows.push(("Tag".into(), german_date(on)));
            }
            if let Some(reason) = value["reason"].as_str() {
                rows.push(("Hinderungsgrund".into(), reason.to_owned()));
            }
            rows
        }
        Inbound::VacancyReported(v) => {
            let mut rows = vec![
                ("Ausscheidendes Mitglied".into(), who(v.member.as_str())),
                ("Grund".into(), departure_de(v.reason).to_owned()),
                ("Zeitpunkt des Ausscheidens".into(), at(v.effective_at)),
            ];
            if let Some(banned) = v.list_banned {
                let text = if banned { "ja" } else { "nein" };
                rows.push(("Auf dem Wahlvorschlag der verbotenen Partei gewählt".into(), text.into()));
            }
            rows
        }
        Inbound::LotDrawn(l) => vec![
            ("Das Los fiel auf".into(), who(l.winner.as_str())),
            ("Gezogen von".into(), l.drawn_by.clone()),
            ("Zeitpunkt der Ziehung".into(), at(l.drawn_at)),
        ],
        Inbound::DeterminationConfirmed(c) => vec![
            ("Runde".into(), c.round.to_string()),
            ("Festgestellt durch".into(), c.confirmed_by.clone()),
            ("Zeitpunkt der Feststellung".into(), at(c.confirmed_at)),
        ],
        Inbound::ReviewDecided(r) => {
            // `council` and `court` in words; the office's decision as recorded („Wahlleitung“)
            let by = match r.decided_by.as_deref() {
                Some(code @ ("council" | "court")) => label(DECIDERS, json!(code)),
                Some(office) => office.to_owned(),
                None => "–".into(),
            };
            let mut rows = vec![("Ergebnis".into(), label(OUTCOMES, json!(r.outcome)))];
            if let Some(s) = &r.successor {
                rows.push(("Nachrückende Person".into(), who(s.as_str())));
            }
            rows.push(("Entschieden durch".into(), by));
            rows.push(("Zeitpunkt der Entscheidung".into(), at(r.decided_at)));
            let text = match r.final_on {
                Some(day) if r.is_final => format!("ja, seit dem {}", crate::calendar::german_date(day)),
                _ if r.is_final => "ja".to_owned(),
                _ => "nein (wird erst mit Unanfechtbarkeit wirksam)".to_owned(),
            };
            rows.push(("Unanfechtbar".into(), text));
            rows
        }
        Inbound::BarCured(b) => {
            vec![("Person".into(), who(b.candidate.as_str())), ("Eingang des Nachweises".into(), at(b.proven_at))]
        }
        Inbound::ElectionRegistered(_) => Vec::new(),
    }
}

/// A day of an event's data (`2026-12-01`) as the office writes it.
fn day(v: &Value) -> String {
    v.as_str().and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok()).map(german_date).unwrap_or_default()
}

/// An instant of an event's data as the office writes it.
fn instant(v: &Value) -> String {
    v.as_str().and_then(|t| DateTime::parse_from_rfc3339(t).ok()).map(|t| when(t.to_utc())).unwrap_or_default()
}

/// The end of a period as the period notice says it: „mit Ablauf des 09.12.2026 (24:00 Uhr)“
/// ([`nachfolge_core::texts::period::end_time`]).
fn period_end(data: &Value) -> String {
    let last = data["last_day"].as_str().and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok());
    let ends = data["ends_at"].as_str().and_then(|t| DateTime::parse_from_rfc3339(t).ok()).map(|t| t.to_utc());
    match (last, ends) {
        (Some(last), Some(ends)) => format!("mit Ablauf des {} ({} Uhr)", german_date(last), end_time(last, ends)),
        _ => format!("am {} ({})", day(&data["last_day"]), instant(&data["ends_at"])),
    }
}

/// What the effects of a command mean, in words: one line per event.
pub(super) fn describe<'a>(council: &Council, events: impl IntoIterator<Item = (&'a str, &'a Value)>) -> Vec<String> {
    let name =
        |v: &Value| person(council, v.as_str().unwrap_or_default())["name"].as_str().unwrap_or_default().to_owned();
    let mut lines = Vec::new();
    for (event_type, data) in events {
        let line = match event_type {
            "deadline.set" => format!("Die Frist für {} endet dann {}.", name(&data["candidate"]), period_end(data)),
            "succession.determined" | "succession.proposed" => {
                let who = data["successor"]["id"]
                    .as_str()
                    .map_or_else(|| name(&data["candidate"]), |_| name(&data["successor"]["id"]));
                let barred = if data["barred"] == true {
                    " Ein Hinderungsgrund ist verzeichnet: Die Beseitigung ist binnen der Frist nach der Zustellung nachzuweisen."
                } else {
                    ""
                };
                format!("{}: {}.{barred}", type_name(event_type), who)
            }
            "lot.requested" => {
                let tied: Vec<String> = data["tied"].as_array().into_iter().flatten().map(name).collect();
                format!("Stimmengleichheit: Das Los entscheidet zwischen {}.", tied.join(", "))
            }
            "seat.left_vacant" => {
                format!("Der Sitz bleibt unbesetzt; gesetzliche Mitgliederzahl danach: {}.", data["statutory_size"])
            }
            "membership.changed" => {
                let who = name(&data["person"]["id"]);
                let since = instant(&data["effective_at"]);
                match data["change"].as_str().unwrap_or_default() {
                    "joined" if data["voting_right"] == false => {
                        format!("{who} wird Mitglied ab {since}, ohne Stimmrecht bis zum Nachweis.")
                    }
                    "joined" => format!("{who} wird Mitglied ab {since}."),
                    "left" => format!("{who} scheidet aus, wirksam {since}."),
                    _ if data["voting_right"] == true => format!("{who} hat ab {since} das volle Stimmrecht."),
                    _ => format!("Die Mitgliedschaft von {who} ändert sich ab {since}."),
                }
            }
            "declaration.recorded" => match data["kind"].as_str().unwrap_or_default() {
                "bar_cured" => format!(
                    "Der Nachweis von {} über die Beseitigung des Hinderungsgrundes wird erfasst.",
                    name(&data["candidate"])
                ),
                _ => format!("Die Erklärung von {} wird erfasst.", name(&data["candidate"])),
            },
            "service.rejected" => format!(
                "Die Zustellung wird zu den Akten genommen, aber nicht angewandt: {}.",
                service_rejection_de(data["reason"].as_str().unwrap_or_default())
            ),
            "declaration.rejected" => format!(
                "Die Erklärung wird zu den Akten genommen, aber nicht angewandt: {}.",
                declaration_rejection_de(data["reason"].as_str().unwrap_or_default())
            ),
            "confirmation.rejected" => format!(
                "Die Feststellung wird zu den Akten genommen, aber nicht angewandt: {}.",
                match data["reason"].as_str().unwrap_or_default() {
                    "stale_round" => "der Vorschlag ist nicht mehr aktuell, eine neuere Runde liegt vor",
                    "not_proposed" => "für diesen Fall wartet kein Vorschlag auf die Feststellung",
                    other => other,
                }
            ),
            "mail.queued" => mail_queued(council, data),
            "announcement.issued" => {
                format!("Bekanntmachung: {}.", data["title"].as_str().unwrap_or_else(|| type_name(event_type)))
            }
            other => type_name(other).to_owned(),
        };
        lines.push(line);
    }
    lines
}

/// A notification recorded for sending (`mail.queued`, the audit entry of `Effect::Mail`): an e-mail only where
/// the person has an e-mail address (`Mail::to` is the candidate's `email`); without one the mail cannot go and
/// the notification goes by letter — for the notification of the determination the case page offers the letter
/// for service under „Schriftstücke“ (docs/console.md, "Actions").
fn mail_queued(council: &Council, data: &Value) -> String {
    let id = data["candidate"].as_str().unwrap_or_default();
    let name = person(council, id)["name"].as_str().unwrap_or_default().to_owned();
    let email = council.candidate(id).and_then(|c| c.email.as_deref()).is_some_and(|e| !e.trim().is_empty());
    if email {
        return format!("Die E-Mail an {name} ist zum Versand vorbereitet.");
    }
    let letter = format!("Für {name} ist keine E-Mail-Adresse bekannt: Die Benachrichtigung geht per Brief.");
    if data["kind"] == "determination" {
        format!("{letter} Das Schreiben zur Zustellung steht im Fall unter „Schriftstücke“ bereit.")
    } else {
        letter
    }
}

/// The effects of a dry run in words: the events, the announcement (rendered only when committed, so named
/// by its title here) and the e-mail.
pub(super) fn describe_effects(council: &Council, effects: &[Effect]) -> Vec<String> {
    let mut lines = Vec::new();
    for e in effects {
        match e {
            Effect::Publish { event_type, data } => lines.extend(describe(council, [(*event_type, data)])),
            Effect::Announce(a) => lines.push(format!("Bekanntmachung: {}.", a.title)),
            Effect::Mail(m) => {
                let name = person(council, &m.candidate)["name"].as_str().unwrap_or_default().to_owned();
                lines.push(match m.to {
                    Some(_) if m.kind == crate::procedure::MailKind::PeriodNotice => {
                        format!("{name} erhält per E-Mail eine Fristmitteilung mit dem Fristende als Kalendereintrag.")
                    }
                    Some(_) => format!("{name} wird per E-Mail benachrichtigt."),
                    None => {
                        format!("Für {name} ist keine E-Mail-Adresse bekannt: Die Benachrichtigung geht per Brief.")
                    }
                });
            }
            Effect::Schedule { .. } | Effect::Cancel { .. } => {}
        }
    }
    lines
}

/// The case the effects of a command name first (a vacancy's new case, the case a fact moves on).
pub(super) fn case_of_effects(effects: &[Effect]) -> Option<String> {
    effects.iter().find_map(|e| match e {
        Effect::Publish { data, .. } => data["case"].as_str().map(str::to_owned),
        Effect::Announce(a) => Some(a.case.clone()),
        Effect::Mail(m) => Some(m.case.clone()),
        _ => None,
    })
}

/// Whether the case's successor is offered the seat and no service is recorded: his period (acceptance, or
/// the proof of a bar's end) starts only with service (docs/console.md, "Period as a calendar entry").
pub(super) fn waits_for_service(case: &Case) -> bool {
    matches!(&case.state, CaseState::Offered(o) if o.deadline.is_none() && o.accepted_at.is_none()
        && (o.member_since.is_none() || o.barred))
}

/// A `service.rejected` reason in German.
fn service_rejection_de(code: &str) -> String {
    match code {
        "no_formal_service" => "ein Einwurf-Einschreiben ist keine förmliche Zustellung".into(),
        "round_mismatch" => "der Nachweis gehört zu einer anderen Runde".into(),
        "not_pending_successor" => "die Person ist nicht die festgestellte Listennachfolgerin oder der festgestellte Listennachfolger dieser Runde".into(),
        other => other.into(),
    }
}

/// A `declaration.rejected` reason in German.
fn declaration_rejection_de(code: &str) -> String {
    match code {
        "before_notification" => "sie ging vor der Absendung der Benachrichtigung ein".into(),
        "after_deadline" => "sie ging nach Ablauf der Frist ein".into(),
        "not_pending_successor" => {
            "die Person ist nicht die festgestellte Listennachfolgerin oder der festgestellte Listennachfolger".into()
        }
        "refusal_irrevocable" => "die Ablehnung war bereits erklärt und kann nicht widerrufen werden".into(),
        "case_closed" => "der Fall ist abgeschlossen".into(),
        "already_accepted" => "die Annahme war bereits erklärt".into(),
        "already_proven" => "der Nachweis war bereits erbracht".into(),
        "no_acceptance_procedure" => "nach dem Recht des Landes ist keine Annahmeerklärung vorgesehen".into(),
        "not_barred" => "es besteht kein Hinderungsgrund".into(),
        other => other.into(),
    }
}

/// The core's refusals that the console says in German: (a phrase of the technical reason, the text).
/// The first that matches wins; the technical reason is kept in brackets.
const REFUSALS: &[(&str, &str)] = &[
    ("lies in the future", "Der angegebene Tag liegt in der Zukunft."),
    ("lies before the notification", "Der angegebene Tag liegt vor der Absendung der Benachrichtigung."),
    ("lies before the proposal", "Der angegebene Zeitpunkt liegt vor dem Vorschlag der Nachfolge."),
    ("lies before case", "Der angegebene Zeitpunkt liegt vor der Eröffnung des Falls."),
    ("has no pending notification", "Für diesen Fall ist keine Benachrichtigung offen."),
    ("unknown candidate", "Eine Person mit dieser Kennung ist in dieser Vertretung nicht bekannt."),
    ("is a new vacancy", "Die Person ist bereits Mitglied der Vertretung: Das ist ein neues Ausscheiden, das als solches zu melden ist."),
    ("must be recorded with declaration.received", "Die Ablehnung durch die festgestellte Nachfolgerin oder den festgestellten Nachfolger ist als Erklärung zu erfassen, damit die Frist geprüft wird."),
    ("would change the determination already made", "Die Tatsache würde die bereits getroffene Feststellung ändern; sie ist durch eine Entscheidung im Prüfungsverfahren zu berichtigen oder nach Abschluss des Falls zu erfassen."),
    ("does not pass him over under the rules", "Nach dem Recht des Landes führt diese Tatsache nicht dazu, dass die Person übergangen wird."),
    ("already used for different data", "Dieses Formular wurde bereits mit anderen Angaben abgeschickt. Bitte beginnen Sie neu."),
    ("holds no seat", "Die Person hat keinen Sitz in der Vertretung."),
    ("list_banned", "Die Angabe zum Verbot passt nicht zum Grund des Ausscheidens oder ist nach dem Recht des Landes nicht vorgesehen."),
    ("is not waiting for a lot", "Für diesen Fall ist kein Losentscheid offen."),
    ("is not one of the tied candidates", "Die gewählte Person gehört nicht zu den Personen mit Stimmengleichheit."),
    ("must not be empty", "Bitte geben Sie an, wer gehandelt hat."),
    ("has no determination yet to review", "Für diesen Fall gibt es noch keine Feststellung, die überprüft werden könnte; an ihre Stelle kann nur eine eigene Feststellung der Vertretung treten (Ergebnis „geändert“, entschieden durch die Vertretung)."),
    ("left the seat vacant without a determination", "Der Sitz blieb ohne Feststellung unbesetzt; es gibt nichts zu überprüfen."),
    ("no longer holds the seat", "Die damals festgestellte Person hat den Sitz nicht mehr; zu überprüfen ist der spätere Fall."),
    ("decided_by", "Nach dem Recht des Landes entscheidet die Vertretung hier nicht selbst."),
    ("is not a candidate of list", "Die gewählte Person gehört nicht zu dem Wahlvorschlag, für den das ausgeschiedene Mitglied gewählt war."),
    ("is the departed member", "Die gewählte Person ist das ausgeschiedene Mitglied."),
    ("use outcome confirmed", "Die gewählte Person ist bereits festgestellt; wählen Sie „bestätigt“."),
    ("holds a seat", "Die gewählte Person hat bereits einen Sitz."),
    ("is the pending successor of case", "Die gewählte Person ist bereits in einem anderen Fall als Nachfolge festgestellt."),
    ("reason:", "Für diesen Grund des Ausscheidens sieht das Recht des Landes keine Regelung vor."),
    ("refused the seat in this case", "Die gewählte Person hat die Wahl in diesem Fall abgelehnt; die Ablehnung kann nicht widerrufen werden."),
];

/// A refusal of the core (or the inbox) in German, with the technical reason kept for the file.
pub(super) fn rejection_de(reason: &str) -> String {
    let text =
        REFUSALS.iter().find(|(phrase, _)| reason.contains(phrase)).map_or("Der Eingang wurde abgelehnt.", |(_, t)| t);
    format!("{text} (Begründung: {reason})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cores_refusals_read_in_german_with_the_reason_kept() {
        let r = "fact: \"L1-06\" is the pending successor of case \"c\": his refusal must be recorded with declaration.received (kind refuse, received_at), which checks the period";
        let de = rejection_de(r);
        assert!(de.starts_with("Die Ablehnung durch die festgestellte Nachfolgerin") && de.contains(r), "{de}");
        let r = "fact: \"L1-06\" is the pending successor of case \"c\" and already a member: giving up the seat is a new vacancy — send vacancy.reported";
        assert!(rejection_de(r).starts_with("Die Person ist bereits Mitglied"));
        let r = "winner: \"W1-04\" is not one of the tied candidates";
        assert!(rejection_de(r).starts_with("Die gewählte Person gehört nicht zu den Personen mit Stimmengleichheit"));
        let r = "case: case \"x-1\" has no determination yet to review; only the council's own determination (outcome amended, decided_by council, § 34 Abs. 4 Satz 3 KWG) can take its place";
        assert!(rejection_de(r).starts_with("Für diesen Fall gibt es noch keine Feststellung"), "{}", rejection_de(r));
        let r = "successor: \"L1-04\" is the pending successor of case \"x-2\"";
        assert!(rejection_de(r).starts_with("Die gewählte Person ist bereits in einem anderen Fall"));
        let r = "member: candidate \"L1-09\" holds no seat";
        assert!(rejection_de(r).starts_with("Die Person hat keinen Sitz"));
        assert!(rejection_de("something new").starts_with("Der Eingang wurde abgelehnt. (Begründung: something new)"));
    }
}
