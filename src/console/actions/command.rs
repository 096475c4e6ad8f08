//! From a form to the inbound command the bus carries (docs/contract.md): the fields of every action, what
//! the forms offer (the codes with their German names, the persons to choose from), and the checks a form
//! makes before the core sees it (a missing entry is said in German; the core judges the rest).

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, TimeZone, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{Action, Scope};
use crate::messages::{
    BarCuredReceived, DeclarationKind, DeclarationReceived, DepartureReason, DeterminationConfirmed, FactRecorded,
    Inbound, LotDrawn, NotificationServed, ReviewDecided, ReviewOutcome, ServiceMethod, VacancyReported,
};
use crate::model::{BodyId, CandidateId, CaseId};
use crate::procedure::{Case, CaseState, Council};
use nachfolge_core::texts::departure_de;

/// The service methods as the form offers them: (wire code, German name).
pub(super) const METHODS: &[(&str, &str)] = &[
    ("certificate", "Postzustellungsurkunde"),
    ("return_receipt", "Einschreiben mit Rückschein"),
    ("acknowledgement", "Empfangsbekenntnis"),
    ("registered_letter_posted", "Einschreiben durch Übergabe (Tag der Aufgabe zur Post)"),
    ("registered_letter_mailbox", "Einwurf-Einschreiben"),
    ("actual_receipt", "Tatsächlicher Zugang (Heilung eines Zustellungsmangels)"),
];

/// The declaration kinds as the form offers them.
pub(super) const KINDS: &[(&str, &str)] = &[
    ("accept", "Annahme"),
    ("refuse", "Ablehnung"),
    ("accept_with_reservation", "Annahme unter Vorbehalt (gilt als Ablehnung)"),
];

/// The candidate facts as the form offers them (`candidate.fact_recorded`, docs/contract.md): (form code,
/// German name). `waived_written` is the fact `waived` with `form: written` (Verzicht, schriftlich).
pub(super) const FACTS: &[(&str, &str)] = &[
    ("left_party", "Austritt aus der Partei oder Wählergruppe"),
    ("waived_written", "Schriftlicher Verzicht auf die Anwartschaft"),
    ("declined", "Ablehnung der Wahl"),
    ("died", "Tod"),
    ("barred", "Hinderungsgrund (Unvereinbarkeit)"),
    ("party_notice", "Schriftliche Mitteilung der Partei über Austritt oder Ausschluss (Tag des Eingangs)"),
    ("banned_party_member", "Zugehörigkeit zur verbotenen Partei oder Vereinigung (Verlust der Anwartschaft)"),
    ("status_lost_proofs", "Erforderliche Nachweise nicht vorgelegt (Ausscheiden als Ersatzperson)"),
    ("status_lost_office", "Wahl in ein Amt durch Direktwahl angenommen (Ausscheiden als Ersatzperson)"),
];

/// The fact a form code stands for on `on` (`None`: not a fact code; `barred` needs its reason).
fn fact_of(code: &str, on: NaiveDate, reason: &str) -> Option<Value> {
    Some(match code {
        "left_party" | "declined" | "died" | "party_notice" | "banned_party_member" => json!({"type": code, "on": on}),
        "waived_written" => json!({"type": "waived", "on": on, "form": "written"}),
        "barred" => json!({"type": "barred", "on": on, "reason": reason}),
        "status_lost_proofs" => json!({"type": "substitute_status_lost", "on": on, "ground": "proofs_not_supplied"}),
        "status_lost_office" => json!({"type": "substitute_status_lost", "on": on, "ground": "direct_office_accepted"}),
        _ => return None,
    })
}

/// The form code of a recorded fact (the inverse of [`fact_of`]).
pub(super) fn fact_code(fact: &Value) -> &str {
    match (fact["type"].as_str().unwrap_or_default(), fact["ground"].as_str()) {
        ("waived", _) => "waived_written",
        ("substitute_status_lost", Some("proofs_not_supplied")) => "status_lost_proofs",
        ("substitute_status_lost", Some("direct_office_accepted")) => "status_lost_office",
        (other, _) => other,
    }
}

/// The facts a council of `land` can record, as the form offers them (`Fact::allowed_in`).
fn facts_for(land: crate::model::Land) -> Value {
    let on = NaiveDate::MIN;
    let offered: Vec<Value> = FACTS
        .iter()
        .filter(|(code, _)| {
            fact_of(code, on, "-")
                .and_then(|v| serde_json::from_value::<crate::model::Fact>(v).ok())
                .is_some_and(|f| f.allowed_in(land))
        })
        .map(|(c, n)| json!({"code": c, "name": n}))
        .collect();
    json!(offered)
}

/// The reasons of a departure (`vacancy.reported` `reason`); their German names are the core's
/// (`texts::departure_de`). The form offers those the council's Land has a rule for.
const DEPARTURES: &[&str] = &[
    "died",
    "resigned",
    "declined",
    "lost_eligibility",
    "lost_seat",
    "not_acquired",
    "party_banned",
    "merger",
    "result_corrected",
    "other",
];

/// The outcomes of a review decision.
pub(super) const OUTCOMES: &[(&str, &str)] = &[
    ("confirmed", "Die Feststellung wird bestätigt."),
    ("annulled", "Die Feststellung wird aufgehoben; die Nachfolge wird nach den Vorschriften neu festgestellt."),
    ("amended", "Die Feststellung wird geändert: eine andere Person rückt nach."),
];

/// Who decided a review (`decided_by`): (form code, German name). `council` and `court` are the contract's
/// values; the Wahlleitung's decision is recorded with the office's name („Wahlleitung“, „Kreiswahlleitung“:
/// `BodyKind::office`), as the announcement then names it.
pub(super) const DECIDERS: &[(&str, &str)] = &[
    ("officer", "die Wahlleitung"),
    ("council", "die Vertretung (eigene Entscheidung)"),
    ("court", "ein Gericht (rechtskräftig; die Entscheidung wird vollzogen)"),
];

/// The fields of every form (each action uses its own; the others stay empty). `message_id` only on confirm.
#[derive(Deserialize, Serialize, Default, Clone)]
#[serde(default)]
pub struct ActionForm {
    pub(super) candidate: String,
    pub(super) method: String,
    pub(super) on: String,
    pub(super) kind: String,
    pub(super) received_at: String,
    pub(super) fact: String,
    pub(super) reason: String,
    /// The vacancy: the member who leaves, the reason, `list_banned` (`true`/`false`), the time.
    pub(super) member: String,
    pub(super) departure: String,
    pub(super) list_banned: String,
    pub(super) effective_at: String,
    /// The lot.
    pub(super) winner: String,
    pub(super) drawn_at: String,
    pub(super) drawn_by: String,
    /// The confirmation of a proposal.
    pub(super) round: String,
    pub(super) confirmed_by: String,
    pub(super) confirmed_at: String,
    /// The review decision (`final`: `true`/`false`).
    pub(super) outcome: String,
    pub(super) successor: String,
    pub(super) decided_by: String,
    pub(super) decided_at: String,
    #[serde(rename = "final")]
    pub(super) is_final: String,
    /// With `final`: the day the decision became unanfechtbar (`YYYY-MM-DD`); ignored otherwise.
    pub(super) final_on: String,
    /// The proof that a bar ended.
    pub(super) proven_at: String,
    #[serde(skip_serializing)]
    pub(super) message_id: String,
    /// „Angaben ändern“ from the preview (`aendern=1`): the form again with the entries made.
    #[serde(rename = "aendern", skip_serializing)]
    pub(super) edit: String,
}

impl ActionForm {
    /// A new form: today, now (Europe/Berlin), and the case's successor and round where it has them.
    /// The receipt of a declaration or a proof is prefilled to the second: a declaration dated before the
    /// notification went out is filed without effect (`before_notification`), and one entered in the minute the
    /// notification went out, prefilled to the minute, would lie before it.
    pub(super) fn prefilled(now: DateTime<Utc>, case: Option<&Case>) -> ActionForm {
        let at = crate::calendar::berlin(now).format("%Y-%m-%dT%H:%M").to_string();
        let to_the_second = crate::calendar::berlin(now).format("%Y-%m-%dT%H:%M:%S").to_string();
        let mut f = ActionForm {
            on: crate::calendar::local_date(now).to_string(),
            received_at: to_the_second.clone(),
            effective_at: at.clone(),
            drawn_at: at.clone(),
            confirmed_at: at.clone(),
            decided_at: at,
            final_on: crate::calendar::local_date(now).to_string(),
            proven_at: to_the_second,
            ..ActionForm::default()
        };
        if let Some(c) = case {
            f.candidate = c.successor().unwrap_or_default().to_owned();
            f.round = c.round.to_string();
        }
        f
    }

    /// The entries made (name, value), carried by the confirm form as hidden fields.
    pub(super) fn entries(&self) -> Vec<(String, String)> {
        let Ok(Value::Object(map)) = serde_json::to_value(self) else { return Vec::new() };
        map.into_iter()
            .filter_map(|(k, v)| match v {
                Value::String(s) if !s.is_empty() => Some((k, s)),
                _ => None,
            })
            .collect()
    }
}

fn codes(list: &[(&str, &str)]) -> Value {
    json!(list.iter().map(|(c, n)| json!({"code": c, "name": n})).collect::<Vec<_>>())
}

/// What a form offers to choose from: the codes of its fields, and the persons (members who may leave, the
/// tied candidates of a lot, the candidates a review may install).
pub(super) fn choices(ctx: &mut Value, council: &Council, case: Option<&Case>, action: Action) {
    let person = |id: &str| super::views::person(council, id);
    if matches!(action, Action::Service | Action::Declaration | Action::Fact | Action::BarProof) {
        // the person by name (with the list), the id as the value: every candidate of the council
        let people: Vec<Value> = council
            .snapshot
            .lists
            .iter()
            .flat_map(|l| l.candidates.iter().map(move |c| (l, c)))
            .map(|(l, c)| {
                let mut p = person(c.id.as_str());
                p["list"] = json!(l.name);
                p
            })
            .collect();
        ctx["people"] = json!(people);
    }
    match action {
        Action::Service => ctx["methods"] = codes(METHODS),
        Action::Declaration => {
            ctx["kinds"] = codes(KINDS);
            // when the notification went out: a declaration received before it is filed without effect
            if let Some(CaseState::Offered(o)) = case.map(|c| &c.state) {
                // (a failed e-mail: the core counts from the determination, as the letter goes out after it)
                let sent = o.notified_at.or(o.notification_failed.then_some(o.determined_at));
                ctx["notified_at"] =
                    json!(sent.map(|t| crate::calendar::berlin(t).format("%d.%m.%Y, %H:%M:%S Uhr").to_string()));
                ctx["notification_failed"] = json!(o.notified_at.is_none() && o.notification_failed);
            }
        }
        Action::Fact => ctx["facts"] = facts_for(council.land()),
        Action::Vacancy => {
            let law = council.land().law();
            let reasons: Vec<Value> = DEPARTURES
                .iter()
                .filter_map(|code| {
                    let reason: DepartureReason = serde_json::from_value(json!(code)).ok()?;
                    let list_banned = (reason == DepartureReason::PartyBanned).then_some(true);
                    let cause = crate::rules::Cause::of(reason, list_banned).ok()?;
                    law.validate_cause(cause).ok()?;
                    Some(json!({"code": code, "name": departure_de(reason)}))
                })
                .collect();
            ctx["departures"] = json!(reasons);
            ctx["party_ban"] = json!(reasons.iter().any(|r| r["code"] == "party_banned"));
            let members: Vec<Value> = council
                .snapshot
                .lists
                .iter()
                .flat_map(|l| l.candidates.iter().filter(|c| c.seat.is_some()).map(move |c| (l, c)))
                .map(|(l, c)| {
                    let mut p = person(c.id.as_str());
                    p["list"] = json!(l.name);
                    p
                })
                .collect();
            ctx["members"] = json!(members);
        }
        Action::Lot => {
            if let Some(CaseState::AwaitingLot { tied }) = case.map(|c| &c.state) {
                ctx["tied"] = json!(tied.iter().map(|t| person(t.as_str())).collect::<Vec<_>>());
            }
            ctx["officer"] = json!(council.info().returning_officer.name);
        }
        Action::Confirm => {
            if let Some(CaseState::Proposed(p)) = case.map(|c| &c.state) {
                ctx["proposed"] = person(p.successor.as_str());
                ctx["proposed_barred"] = json!(p.barred);
            }
            ctx["officer"] = json!(council.info().returning_officer.name);
        }
        Action::Review => {
            ctx["outcomes"] = codes(OUTCOMES);
            let law = council.land().law().procedure(council.info().kind);
            let office = council.info().kind.office();
            let deciders: Vec<Value> = DECIDERS
                .iter()
                .filter(|(c, _)| *c != "council" || law.review.council_refused.is_none())
                .map(|(c, n)| match *c {
                    "officer" => json!({"code": c, "name": format!("die {office}")}),
                    _ => json!({"code": c, "name": n}),
                })
                .collect();
            ctx["deciders"] = json!(deciders);
            if let Some(case) = case {
                // the candidates of the list the departed stood for who hold no seat (the core checks the rest)
                let list = council.snapshot.lists.iter().find(|l| l.id == case.list);
                let open: Vec<Value> = list
                    .into_iter()
                    .flat_map(|l| l.candidates.iter())
                    .filter(|c| {
                        c.seat.is_none() && c.id != case.departed.as_str() && Some(c.id.as_str()) != case.successor()
                    })
                    .map(|c| person(c.id.as_str()))
                    .collect();
                ctx["candidates"] = json!(open);
            }
        }
        Action::BarProof => {
            let law = council.land().law().procedure(council.info().kind);
            ctx["bar_citation"] = json!(law.bar_citation);
        }
    }
}

fn required<'a>(value: &'a str, missing: &str) -> Result<&'a str, String> {
    match value.trim() {
        "" => Err(missing.to_owned()),
        v => Ok(v),
    }
}

fn instant(value: &str, missing: &str, now: DateTime<Utc>) -> Result<DateTime<FixedOffset>, String> {
    berlin_instant(value.trim(), now).ok_or_else(|| missing.to_owned())
}

/// The inbound command of a form, or the German reason it cannot be built. `office` is the returning
/// officer's office as the body's texts name it (`BodyKind::office`).
pub(super) fn command(
    action: Action,
    body: &str,
    case: Scope<'_>,
    office: &str,
    f: &ActionForm,
    now: DateTime<Utc>,
) -> Result<Inbound, String> {
    let body = BodyId::new(body);
    let case = || case.map(CaseId::new).ok_or_else(|| "Diese Erfassung gehört zu einem Fall.".to_owned());
    let candidate = || required(&f.candidate, "Bitte geben Sie die Kennung der Person an.").map(CandidateId::new);
    match action {
        Action::Service => {
            let (case, candidate) = (case()?, candidate()?);
            let method: ServiceMethod = serde_json::from_value(json!(f.method))
                .map_err(|_| "Bitte wählen Sie die Art der Zustellung.".to_owned())?;
            let on = NaiveDate::parse_from_str(f.on.trim(), "%Y-%m-%d")
                .map_err(|_| "Bitte geben Sie den Tag der Zustellung an (TT.MM.JJJJ).".to_owned())?;
            Ok(Inbound::NotificationServed(NotificationServed { body, case, candidate, round: None, method, on }))
        }
        Action::Declaration => {
            let (case, candidate) = (case()?, candidate()?);
            let kind: DeclarationKind = serde_json::from_value(json!(f.kind))
                .map_err(|_| "Bitte wählen Sie die Art der Erklärung.".to_owned())?;
            let received_at = instant(&f.received_at, "Bitte geben Sie Tag und Uhrzeit des Eingangs an.", now)?;
            Ok(Inbound::DeclarationReceived(DeclarationReceived { body, case, candidate, kind, received_at }))
        }
        Action::Fact => {
            let candidate = candidate()?;
            let on = NaiveDate::parse_from_str(f.on.trim(), "%Y-%m-%d")
                .map_err(|_| "Bitte geben Sie den Tag der Tatsache an (TT.MM.JJJJ).".to_owned())?;
            let reason = match f.fact.as_str() {
                "barred" => required(&f.reason, "Bitte geben Sie den Hinderungsgrund an.")?.to_owned(),
                _ => String::new(),
            };
            let fact =
                fact_of(&f.fact, on, &reason).ok_or_else(|| "Bitte wählen Sie die Art der Tatsache.".to_owned())?;
            let fact = serde_json::from_value(fact).map_err(|_| "Bitte wählen Sie die Art der Tatsache.".to_owned())?;
            Ok(Inbound::FactRecorded(FactRecorded { body, candidate, fact }))
        }
        Action::Vacancy => {
            let member = CandidateId::new(required(&f.member, "Bitte wählen Sie das ausscheidende Mitglied.")?);
            let reason: DepartureReason = serde_json::from_value(json!(f.departure))
                .map_err(|_| "Bitte wählen Sie den Grund des Ausscheidens.".to_owned())?;
            let list_banned = match (reason, f.list_banned.as_str()) {
                (DepartureReason::PartyBanned, "true") => Some(true),
                (DepartureReason::PartyBanned, "false") => Some(false),
                (DepartureReason::PartyBanned, _) => {
                    return Err("Bitte geben Sie bei einem Verbot an, ob das Mitglied auf dem Wahlvorschlag der verbotenen Partei oder Vereinigung selbst gewählt wurde.".into())
                }
                _ => None,
            };
            let effective_at = instant(&f.effective_at, "Bitte geben Sie Tag und Uhrzeit des Ausscheidens an.", now)?;
            Ok(Inbound::VacancyReported(VacancyReported { body, member, reason, effective_at, list_banned }))
        }
        Action::Lot => {
            let case = case()?;
            let winner =
                CandidateId::new(required(&f.winner, "Bitte wählen Sie die Person, auf die das Los gefallen ist.")?);
            let drawn_at = instant(&f.drawn_at, "Bitte geben Sie Tag und Uhrzeit der Ziehung an.", now)?;
            let drawn_by = required(&f.drawn_by, "Bitte geben Sie an, wer das Los gezogen hat.")?.to_owned();
            Ok(Inbound::LotDrawn(LotDrawn { body, case, winner, drawn_at, drawn_by }))
        }
        Action::Confirm => {
            let case = case()?;
            let round = f
                .round
                .trim()
                .parse()
                .map_err(|_| "Die Runde des Vorschlags fehlt. Bitte beginnen Sie neu.".to_owned())?;
            let confirmed_by =
                required(&f.confirmed_by, "Bitte geben Sie an, wer die Nachfolge feststellt.")?.to_owned();
            let confirmed_at = instant(&f.confirmed_at, "Bitte geben Sie Tag und Uhrzeit der Feststellung an.", now)?;
            Ok(Inbound::DeterminationConfirmed(DeterminationConfirmed {
                body,
                case,
                round,
                confirmed_by,
                confirmed_at,
            }))
        }
        Action::Review => {
            let case = case()?;
            let outcome: ReviewOutcome = serde_json::from_value(json!(f.outcome))
                .map_err(|_| "Bitte wählen Sie das Ergebnis der Entscheidung.".to_owned())?;
            let successor = match (outcome, f.successor.trim()) {
                (ReviewOutcome::Amended, "") => {
                    return Err("Bitte wählen Sie bei einer Änderung die Person, die nachrückt.".into())
                }
                (ReviewOutcome::Amended, s) => Some(CandidateId::new(s)),
                (_, "") => None,
                (_, _) => {
                    return Err("Eine nachrückende Person ist nur bei einer Änderung der Feststellung anzugeben.".into())
                }
            };
            let decided_by = match f.decided_by.as_str() {
                "officer" => office,
                "council" => "council",
                "court" => "court",
                _ => return Err("Bitte geben Sie an, wer entschieden hat.".into()),
            };
            let is_final = match f.is_final.as_str() {
                "true" => true,
                "false" => false,
                _ => return Err("Bitte geben Sie an, ob die Entscheidung unanfechtbar ist.".into()),
            };
            let decided_at = instant(&f.decided_at, "Bitte geben Sie Tag und Uhrzeit der Entscheidung an.", now)?;
            // the change is dated at the day it became unanfechtbar (docs/legal.md, "Review decisions take effect
            // when final"); a decision not yet final has no such day
            let final_on = match is_final {
                true => Some(NaiveDate::parse_from_str(f.final_on.trim(), "%Y-%m-%d").map_err(|_| {
                    "Bitte geben Sie den Tag an, an dem die Entscheidung unanfechtbar geworden ist (TT.MM.JJJJ)."
                        .to_owned()
                })?),
                false => None,
            };
            Ok(Inbound::ReviewDecided(ReviewDecided {
                body,
                case,
                outcome,
                successor,
                decided_at,
                decided_by: Some(decided_by.to_owned()),
                is_final,
                final_on,
            }))
        }
        Action::BarProof => {
            let (case, candidate) = (case()?, candidate()?);
            let proven_at =
                instant(&f.proven_at, "Bitte geben Sie Tag und Uhrzeit des Eingangs des Nachweises an.", now)?;
            Ok(Inbound::BarCured(BarCuredReceived { body, case, candidate, proven_at }))
        }
    }
}

/// The message's `data` as the bus would carry it (and as the inbox digests it).
pub(super) fn payload(inbound: &Inbound) -> Result<Value, serde_json::Error> {
    match inbound {
        Inbound::ElectionRegistered(m) => serde_json::to_value(m),
        Inbound::NotificationServed(m) => serde_json::to_value(m),
        Inbound::DeclarationReceived(m) => serde_json::to_value(m),
        Inbound::FactRecorded(m) => serde_json::to_value(m),
        Inbound::VacancyReported(m) => serde_json::to_value(m),
        Inbound::LotDrawn(m) => serde_json::to_value(m),
        Inbound::DeterminationConfirmed(m) => serde_json::to_value(m),
        Inbound::ReviewDecided(m) => serde_json::to_value(m),
        Inbound::BarCured(m) => serde_json::to_value(m),
    }
}

/// A local time of the form's `datetime-local` field (`2026-12-01T09:30`), in Europe/Berlin. The field has no
/// offset: in the hour that comes twice when summer time ends (02:00–03:00 on the last Sunday of October) the
/// time names the later occurrence unless that is still in the future at `now`, then the earlier one — what
/// an official entering "now" or a time of that night afterwards means (docs/console.md, "Times"). The hour
/// skipped when summer time begins does not exist: `None`.
pub(super) fn berlin_instant(s: &str, now: DateTime<Utc>) -> Option<DateTime<FixedOffset>> {
    let naive = NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M")
        .or_else(|_| NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S"))
        .ok()?;
    match chrono_tz::Europe::Berlin.from_local_datetime(&naive) {
        chrono::LocalResult::Single(t) => Some(t.fixed_offset()),
        chrono::LocalResult::Ambiguous(earlier, later) => {
            Some(if later.to_utc() <= now { later } else { earlier }.fixed_offset())
        }
        chrono::LocalResult::None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `now` after every time these tests enter.
    const T0: DateTime<Utc> = DateTime::<Utc>::MAX_UTC;

    #[test]
    fn the_hour_that_comes_twice_names_its_later_occurrence_unless_that_is_still_ahead() {
        // 31 October 2027: 02:30 is 00:30 UTC (summer time) and again 01:30 UTC (winter time)
        let first = DateTime::parse_from_rfc3339("2027-10-31T02:40:00+02:00").expect("a time").to_utc();
        let second = DateTime::parse_from_rfc3339("2027-10-31T02:40:00+01:00").expect("a time").to_utc();
        let at = |now| berlin_instant("2027-10-31T02:30", now).map(|t| t.to_rfc3339());
        assert_eq!(at(first), Some("2027-10-31T02:30:00+02:00".to_owned()), "during the first pass");
        assert_eq!(at(second), Some("2027-10-31T02:30:00+01:00".to_owned()), "during the second pass");
        assert_eq!(at(T0), Some("2027-10-31T02:30:00+01:00".to_owned()), "any day after");
        // the hours around it are not ambiguous
        assert_eq!(
            berlin_instant("2027-10-31T01:59", first).map(|t| t.to_rfc3339()),
            Some("2027-10-31T01:59:00+02:00".into())
        );
        assert_eq!(
            berlin_instant("2027-10-31T03:00", T0).map(|t| t.to_rfc3339()),
            Some("2027-10-31T03:00:00+01:00".into())
        );
    }

    #[test]
    fn the_forms_local_time_is_read_in_europe_berlin() {
        let winter = berlin_instant("2026-12-01T09:30", T0).expect("a time");
        assert_eq!(winter.to_rfc3339(), "2026-12-01T09:30:00+01:00");
        let summer = berlin_instant("2026-07-01T09:30:15", T0).expect("a time");
        assert_eq!(summer.to_rfc3339(), "2026-07-01T09:30:15+02:00");
        assert!(berlin_instant("01.12.2026 09:30", T0).is_none());
        // the hour skipped at the change to summer time does not exist
        assert!(berlin_instant("2026-03-29T02:30", T0).is_none());
    }

    #[test]
    fn the_receipt_is_prefilled_to_the_second_so_it_does_not_precede_a_notification_of_the_same_minute() {
        let notified = DateTime::parse_from_rfc3339("2026-12-01T10:05:10+01:00").expect("a time").to_utc();
        let now = notified + chrono::Duration::milliseconds(20_500);
        let f = ActionForm::prefilled(now, None);
        assert_eq!((f.received_at.as_str(), f.proven_at.as_str()), ("2026-12-01T10:05:30", "2026-12-01T10:05:30"));
        let received = berlin_instant(&f.received_at, now).expect("the form reads its own value").to_utc();
        assert!(received >= notified && received <= now, "{received} between {notified} and {now}");
        // to the minute, as before, it lay before the notification
        assert!(berlin_instant("2026-12-01T10:05", T0).expect("a time").to_utc() < notified);
    }

    #[test]
    fn a_form_without_a_person_or_with_an_unknown_method_is_not_a_command() {
        let f = ActionForm { method: "certificate".into(), on: "2026-12-01".into(), ..ActionForm::default() };
        assert!(command(Action::Service, "b", Some("b-1"), "Wahlleitung", &f, T0).is_err());
        let f = ActionForm { candidate: "L1-06".into(), method: "fax".into(), on: "2026-12-01".into(), ..f };
        assert!(command(Action::Service, "b", Some("b-1"), "Wahlleitung", &f, T0)
            .unwrap_err()
            .contains("Art der Zustellung"));
        let f = ActionForm { method: "certificate".into(), ..f };
        assert!(matches!(
            command(Action::Service, "b", Some("b-1"), "Wahlleitung", &f, T0),
            Ok(Inbound::NotificationServed(_))
        ));
        assert!(command(Action::Service, "b", None, "Wahlleitung", &f, T0).is_err(), "service belongs to a case");
    }

    #[test]
    fn a_fact_form_builds_the_contracts_fact_and_a_bar_needs_its_reason() {
        let f = ActionForm {
            candidate: "L1-06".into(),
            fact: "waived_written".into(),
            on: "2026-12-01".into(),
            ..ActionForm::default()
        };
        let Ok(Inbound::FactRecorded(r)) = command(Action::Fact, "b", None, "Wahlleitung", &f, T0) else {
            panic!("a fact")
        };
        assert_eq!(
            serde_json::to_value(&r.fact).ok(),
            Some(json!({"type": "waived", "on": "2026-12-01", "form": "written"}))
        );
        let f = ActionForm { fact: "barred".into(), ..f };
        assert!(command(Action::Fact, "b", None, "Wahlleitung", &f, T0).unwrap_err().contains("Hinderungsgrund"));
        let f = ActionForm { fact: "ineligible".into(), ..f };
        assert!(command(Action::Fact, "b", None, "Wahlleitung", &f, T0).unwrap_err().contains("Art der Tatsache"));
    }

    #[test]
    fn a_vacancy_form_asks_for_list_banned_only_with_a_party_ban() {
        let f = ActionForm {
            member: "L1-01".into(),
            departure: "party_banned".into(),
            effective_at: "2026-05-04T10:00".into(),
            ..ActionForm::default()
        };
        assert!(command(Action::Vacancy, "b", None, "Wahlleitung", &f, T0).unwrap_err().contains("verbotenen Partei"));
        let f = ActionForm { list_banned: "false".into(), ..f };
        let Ok(Inbound::VacancyReported(v)) = command(Action::Vacancy, "b", None, "Wahlleitung", &f, T0) else {
            panic!("a vacancy")
        };
        assert_eq!(v.list_banned, Some(false));
        assert_eq!(v.effective_at.to_rfc3339(), "2026-05-04T10:00:00+02:00");
        // a value left over from choosing a ban first is not sent with another reason
        let f = ActionForm { departure: "died".into(), ..f };
        let Ok(Inbound::VacancyReported(v)) = command(Action::Vacancy, "b", None, "Wahlleitung", &f, T0) else {
            panic!("a vacancy")
        };
        assert_eq!(v.list_banned, None);
    }

    #[test]
    fn a_review_form_names_a_successor_only_when_it_amends() {
        let f = ActionForm {
            outcome: "amended".into(),
            decided_by: "officer".into(),
            is_final: "true".into(),
            decided_at: "2026-12-01T09:30".into(),
            final_on: "2027-01-04".into(),
            ..ActionForm::default()
        };
        assert!(command(Action::Review, "b", Some("b-1"), "Wahlleitung", &f, T0).unwrap_err().contains("Änderung"));
        let f = ActionForm { successor: "L1-05".into(), ..f };
        let Ok(Inbound::ReviewDecided(r)) = command(Action::Review, "b", Some("b-1"), "Wahlleitung", &f, T0) else {
            panic!("a review")
        };
        assert_eq!(
            (r.successor.as_deref(), r.decided_by.as_deref(), r.is_final, r.final_on.map(|d| d.to_string())),
            (Some("L1-05"), Some("Wahlleitung"), true, Some("2027-01-04".to_owned()))
        );
        // a final decision names the day it became unanfechtbar; one not yet final has none
        let without = ActionForm { final_on: String::new(), ..f.clone() };
        assert!(command(Action::Review, "b", Some("b-1"), "Wahlleitung", &without, T0)
            .unwrap_err()
            .contains("unanfechtbar geworden"));
        let open = ActionForm { is_final: "false".into(), ..f.clone() };
        let Ok(Inbound::ReviewDecided(r)) = command(Action::Review, "b", Some("b-1"), "Wahlleitung", &open, T0) else {
            panic!("a review")
        };
        assert_eq!(r.final_on, None);
        // a Kreistag's office decides as the Kreiswahlleitung, as its announcement names it
        let Ok(Inbound::ReviewDecided(r)) = command(Action::Review, "b", Some("b-1"), "Kreiswahlleitung", &f, T0)
        else {
            panic!("a review")
        };
        assert_eq!(r.decided_by.as_deref(), Some("Kreiswahlleitung"));
        let f = ActionForm { outcome: "confirmed".into(), ..f };
        assert!(command(Action::Review, "b", Some("b-1"), "Wahlleitung", &f, T0)
            .unwrap_err()
            .contains("nur bei einer Änderung"));
        let f = ActionForm { successor: String::new(), is_final: String::new(), ..f };
        assert!(command(Action::Review, "b", Some("b-1"), "Wahlleitung", &f, T0).unwrap_err().contains("unanfechtbar"));
    }

    #[test]
    fn the_confirm_form_carries_its_entries_and_no_message_id() {
        let f = ActionForm {
            winner: "W1-06".into(),
            drawn_by: "Wahlleiterin".into(),
            message_id: "x".into(),
            ..ActionForm::default()
        };
        let entries = f.entries();
        assert!(entries.contains(&("winner".into(), "W1-06".into())), "{entries:?}");
        assert!(entries.iter().all(|(k, _)| k != "message_id" && k != "candidate"), "{entries:?}");
        let f = ActionForm { is_final: "true".into(), ..f };
        assert!(f.entries().contains(&("final".into(), "true".into())));
    }
}
