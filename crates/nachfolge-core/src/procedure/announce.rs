//! What the procedure tells the world: OParl payloads, the announcement (Bekanntmachung) with its objection
//! period, and the end of that period.

use super::*;

impl Machine<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn membership(
        &self,
        case: &str,
        person: &str,
        change: MembershipChange,
        basis: MembershipBasis,
        at: DateTime<Utc>,
        voting_right: bool,
        start: Option<NaiveDate>,
    ) -> MembershipChanged {
        let body = self.body.id();
        let list = self.body.list_of(person).map(|l| l.id.clone()).unwrap_or_default();
        let day = local_date(at);
        let (start_date, end_date) = match change {
            MembershipChange::Left => (start, Some(day)),
            // an update (Hessen: full rights from the proof, § 23 Abs. 2 KWG) keeps the membership's start
            _ => (start.or(Some(day)), None),
        };
        // One OParl Membership per person and start date: a person can hold a seat twice in a term (e.g. after
        // a review). `created` is derived from the start (the same in every event of the membership),
        // `modified` is the moment of this change.
        let id = match start_date {
            Some(d) => format!("urn:nachfolge:{body}:membership:{person}:{d}"),
            None => format!("urn:nachfolge:{body}:membership:{person}"),
        };
        let created = start_date.map(start_of_day).unwrap_or(self.now).min(self.now);
        MembershipChanged {
            body: body.to_owned(),
            case: case.to_owned(),
            change,
            person: self.person(person),
            list: list.clone(),
            effective_at: berlin(at),
            basis,
            voting_right,
            membership: OparlMembership {
                id,
                ty: "https://schema.oparl.org/1.1/Membership".into(),
                person: format!("urn:nachfolge:{body}:person:{person}"),
                organization: format!("urn:nachfolge:{body}:organization"),
                role: Some("Mitglied".into()),
                voting_right,
                start_date,
                end_date,
                on_behalf_of: Some(format!("urn:nachfolge:{body}:list:{list}")),
                created: berlin(created),
                modified: berlin(self.now),
            },
            organization: Some(self.organization()),
        }
    }

    /// The council as an OParl Organization; `memberCount` = the current statutory size.
    pub(super) fn organization(&self) -> OparlOrganization {
        let info = self.body.info();
        OparlOrganization {
            id: format!("urn:nachfolge:{}:organization", info.id),
            ty: "https://schema.oparl.org/1.1/Organization".into(),
            name: info.name.clone(),
            classification: "Parlament".into(),
            organization_type: "Gremium".into(),
            member_count: info.statutory_size,
            created: berlin(start_of_day(info.term.start).min(self.now)),
            modified: berlin(self.now),
        }
    }

    /// Template context shared by e-mails and announcements: names, dates, and who was passed over.
    pub(super) fn context(&self, case_id: &str, successor: Option<&str>, trail: &[TrailStep]) -> Value {
        let info = self.body.info();
        let today = local_date(self.now);
        let case = self.cases.get(case_id);
        let departed = case.and_then(|c| self.body.candidate(&c.departed));
        let list = case.and_then(|c| self.body.list_of(&c.departed));
        let succ = successor.and_then(|s| self.body.candidate(s));
        let offer = case.and_then(|c| match &c.state {
            CaseState::Offered(o) => Some(o),
            _ => None,
        });
        let passed_over: Vec<Value> = trail
            .iter()
            .filter(|s| s.verdict == Verdict::Skipped && s.reason != "departed")
            .filter_map(|s| {
                let c = self.body.candidate(s.candidate.as_deref()?)?;
                Some(json!({
                    "id": c.id, "name": c.full_name(), "position": c.position,
                    "reason": trail::reason_de(&s.reason), "citation": s.citation,
                }))
            })
            .collect();
        let chosen = trail
            .iter()
            .find(|s| s.verdict == Verdict::Chosen)
            .map(|s| json!({"candidate": s.candidate, "reason": s.reason, "citation": s.citation}));
        let member_since = offer.and_then(|o| o.member_since).map(|t| german_date(local_date(t)));
        // "besteht seit" only for a day before today, "beginnt am" otherwise
        let member_since_past = offer.and_then(|o| o.member_since).is_some_and(|t| local_date(t) < today);
        // an Ersatzbewerber's candidate (KWahlO NRW § 62 Nr. 4, § 69 Abs. 2)
        let substitute_for = succ
            .and_then(|s| s.substitute_for.as_deref())
            .and_then(|id| self.body.candidate(id))
            .map(|c| json!({"id": c.id, "name": c.full_name()}));
        // the lot that chose the successor (§ 34 Abs. 1a KWG): who drew it, and when
        let lot = case.zip(successor).and_then(|(c, s)| c.history.lots.iter().rev().find(|l| l.winner == s)).map(|l| {
            let at = berlin(l.drawn_at.with_timezone(&Utc));
            json!({"drawn_by": l.drawn_by, "drawn_date": german_date(at.date_naive()), "drawn_time": at.format("%H:%M").to_string()})
        });
        json!({
            "land": self.body.land(),
            "body": { "id": info.id, "name": info.name, "statutory_size": info.statutory_size },
            "officer": info.returning_officer,
            "case": case_id,
            "round": case.map(|c| c.round),
            "departed": departed.map(|d| json!({"id": d.id, "name": d.full_name()})),
            "departure": case.map(|c| c.reason),
            "departure_reason": case.map(|c| trail::departure_de(c.reason)),
            "effective_date": case.map(|c| german_date(local_date(c.effective_at))),
            "list": list.map(|l| json!({"id": l.id, "name": l.name, "short_name": l.short_name, "kind": l.kind})),
            "successor": succ.map(|s| json!({
                "id": s.id, "name": s.full_name(), "position": s.position,
                "postal_address": s.postal_address, "barred": s.is_barred_at(today), "bar_reason": s.bar_at(today),
                "substitute_for": substitute_for,
            })),
            "determined_date": german_date(local_date(offer.map(|o| o.determined_at).unwrap_or(self.now))),
            "passed_over": passed_over,
            "chosen": chosen,
            "lot": lot,
            "member_since": member_since,
            "member_since_past": member_since_past,
            "today": german_date(local_date(self.now)),
            "place": place_of(info.returning_officer.address.as_deref()),
        })
    }

    pub(super) fn announce(&mut self, case_id: &str, kind: &str, successor: Option<&str>, trail: &[TrailStep]) {
        self.announce_with(case_id, kind, successor, trail, Value::Null);
    }

    /// Issue a public announcement (§ 45 Abs. 6 Satz 7 KWahlG NRW, § 34 Abs. 3 KWG i. V. m. § 58 KWO) and,
    /// where an objection lies against what it announces, record and time its objection period.
    pub(super) fn announce_with(
        &mut self,
        case_id: &str,
        kind: &str,
        successor: Option<&str>,
        trail: &[TrailStep],
        extra: Value,
    ) {
        let land = self.body.land();
        let mut context = self.context(case_id, successor, trail);
        let texts = &self.procedure().texts;
        let party_ban = matches!(self.cases.get(case_id).map(|c| &c.state), Some(CaseState::Vacant { reason }) if *reason == VacancyReason::PartyBanned);
        let review_final = extra.pointer("/review/final").and_then(Value::as_bool).unwrap_or(true);
        let (legal_basis, objection_period_text) = match kind {
            "review" if extra["review"]["by_court"] == true => (texts.review_basis, texts.court_review_remedy),
            "review" if review_final => (texts.review_basis, texts.review_final_remedy),
            "review" => (texts.review_basis, texts.review_remedy),
            "vacancy" if party_ban => {
                (texts.party_ban_basis.unwrap_or(texts.announcement_basis), texts.announcement_remedy)
            }
            _ => (texts.announcement_basis, texts.announcement_remedy),
        };
        let title = match kind {
            "vacancy" => texts.vacancy_title,
            "not_acquired" => texts.not_acquired_title,
            "review" => texts.review_title,
            "correction" => texts.correction_title,
            _ => texts.successor_title,
        };
        let title = Texts::with_name(title, &self.body.info().name);
        // the announcement's number, and its objection period (none against a review decision: court only)
        let n = self.cases.get(case_id).map_or(0, |c| c.history.announcements.len()) as u32 + 1;
        let objection = (kind != "review").then(|| objection_period(land, self.now, self.period_rules().period_end));
        if let (Some(obj), Some(case)) = (context.as_object_mut(), self.cases.get(case_id)) {
            if let CaseState::Filled { since, basis, .. } = &case.state {
                obj.insert("member_since".into(), json!(german_date(local_date(*since))));
                obj.insert("member_since_past".into(), json!(local_date(*since) < local_date(self.now)));
                obj.insert("basis".into(), json!(basis));
            }
            if let CaseState::Vacant { reason } = &case.state {
                obj.insert("reason".into(), json!(reason));
            }
            obj.insert("objection_period".into(), json!(objection_period_text));
            obj.insert("legal_basis".into(), json!(legal_basis));
            obj.insert("announcement".into(), json!(n));
            if let Some(p) = &objection {
                obj.insert(
                    "objection_period_ends".into(),
                    json!({"last_day": p.last_day, "ends_at": berlin(p.ends_at), "trail": p.trail}),
                );
            }
            if let Value::Object(extra) = extra {
                obj.extend(extra);
            }
        }
        self.effects.push(Effect::Announce(Announcement {
            case: case_id.to_owned(),
            kind: kind.to_owned(),
            title,
            legal_basis: legal_basis.to_owned(),
            objection_period: objection_period_text.to_owned(),
            template: format!("{}_{kind}", texts.template_prefix),
            issued_at: self.now,
            context,
        }));
        if let Some(p) = &objection {
            self.effects
                .push(Effect::Schedule { timer: Timer::objection(case_id, n), due_at: p.ends_at + self.grace() });
        }
        let record = AnnouncementRecord {
            n,
            kind: kind.to_owned(),
            issued_at: self.now,
            objection,
            ended: false,
            superseded: false,
        };
        if let Some(c) = self.cases.get_mut(case_id) {
            c.history.announcements.push(record);
        }
    }

    /// Report the end of the objection period of the case's `n`th announcement (once; not before it ended).
    pub(super) fn objection_ended(&mut self, case_id: &str, n: u32) -> Result<(), Rejection> {
        let now = self.now;
        let due: Vec<AnnouncementRecord> = self
            .case(case_id)?
            .history
            .announcements
            .iter()
            .filter(|a| !a.ended && !a.superseded && a.n == n)
            .filter(|a| a.objection.as_ref().is_some_and(|p| now >= p.ends_at))
            .cloned()
            .collect();
        let review_pending = self.case(case_id)?.history.reviews.last().is_some_and(|r| !r.is_final);
        let (land, rule) = (self.body.land(), self.period_rules().period_end);
        for a in due {
            let Some(stored) = &a.objection else { continue };
            // Never earlier than the body's reading gives now: a period stored under another reading (before
            // the objection period followed the one-week period's, or before the body changed its reading)
            // ends at the later of the two (docs/legal.md, "One reading for both periods").
            let current = objection_period(land, a.issued_at, rule);
            let p = if current.ends_at > stored.ends_at { &current } else { stored };
            if now < p.ends_at {
                let due_at = p.ends_at + self.grace();
                let moved = p.clone();
                if let Some(r) = self.case_mut(case_id)?.history.announcements.iter_mut().find(|r| r.n == a.n) {
                    r.objection = Some(moved);
                }
                self.effects.push(Effect::Schedule { timer: Timer::objection(case_id, a.n), due_at });
                continue;
            }
            let data = ObjectionPeriodEnded {
                body: self.body.id().to_owned(),
                case: case_id.to_owned(),
                announcement: a.n,
                kind: a.kind.clone(),
                issued_at: berlin(a.issued_at),
                last_day: p.last_day,
                ended_at: berlin(p.ends_at),
                // a review decision that is not final yet is pending (docs/legal.md, "Review decisions take
                // effect when final")
                review_pending,
                trail: p.trail.clone(),
            };
            self.emit(&data)?;
            let ended = p.clone();
            if let Some(r) = self.case_mut(case_id)?.history.announcements.iter_mut().find(|r| r.n == a.n) {
                r.objection = Some(ended);
                r.ended = true;
            }
        }
        Ok(())
    }

    /// A review annulled or amended the determination: the open objection periods of the case's earlier
    /// announcements no longer matter; their timers are cancelled.
    pub(super) fn supersede_objections(&mut self, case_id: &str) -> Result<(), Rejection> {
        let mut cancel = vec![];
        for a in self.case_mut(case_id)?.history.announcements.iter_mut() {
            if a.objection.is_some() && !a.ended && !a.superseded {
                a.superseded = true;
                cancel.push(a.n);
            }
        }
        for n in cancel {
            self.effects.push(Effect::Cancel { timer: Timer::objection(case_id, n) });
        }
        Ok(())
    }
}

/// The place for the signature line ("Musterstadt, 02.12.2026"): the town after the postal code of the
/// returning officer's address, if it has one.
fn place_of(address: Option<&str>) -> Option<String> {
    let last = address?.rsplit(',').next()?.trim();
    let (code, town) = last.split_once(' ')?;
    (code.len() == 5 && code.chars().all(|c| c.is_ascii_digit()) && !town.trim().is_empty())
        .then(|| town.trim().to_owned())
}
