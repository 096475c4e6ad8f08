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
            body: body.into(),
            case: case.into(),
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
            bar_end_proof: None,
            organization: Some(self.organization()),
        }
    }

    /// The period a barred member who joined at `at` has to prove that his bar ended, where the Land's law
    /// has one (`LandLaw::bar_end_proof_months`, Brandenburg § 51 Abs. 2 Satz 3 BbgKWahlG); `None` otherwise.
    pub(super) fn bar_end_proof(&self, barred: bool, at: DateTime<Utc>) -> Option<BarEndProof> {
        let (months, citation) = self.law.bar_end_proof_months().filter(|_| barred)?;
        let rules = self.period_rules();
        let p = crate::deadline::bar_end_proof_period(
            self.body.land(),
            rules.local,
            local_date(at),
            months,
            citation,
            rules.period_end,
        );
        Some(BarEndProof { last_day: p.last_day, ends_at: berlin(p.ends_at), trail: p.trail })
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

    /// What the texts need to know of the case `case_id` now, with `successor` and the trail of his
    /// determination (the texts layer says it in German: [`crate::texts`]).
    pub(super) fn notice<'n>(
        &'n self,
        case_id: &'n str,
        successor: Option<&'n str>,
        trail: &'n [TrailStep],
    ) -> Notice<'n> {
        notice_of(&*self.cases, case_id, successor, trail, self.now)
    }

    pub(super) fn announce(
        &mut self,
        case_id: &str,
        kind: AnnouncementKind,
        successor: Option<&str>,
        trail: &[TrailStep],
    ) {
        self.announce_with(case_id, kind, successor, trail, &Detail::None);
    }

    /// Issue a public announcement (§ 45 Abs. 6 Satz 7 KWahlG NRW, § 34 Abs. 3 KWG i. V. m. § 58 KWO) and,
    /// where an objection lies against what it announces, record and time its objection period.
    pub(super) fn announce_with(
        &mut self,
        case_id: &str,
        kind: AnnouncementKind,
        successor: Option<&str>,
        trail: &[TrailStep],
        detail: &Detail<'_>,
    ) {
        if self.unannounced() {
            return; // the Land's law announces nothing (Baden-Württemberg: docs/legal.md)
        }
        // the announcement's number, and its objection period (none against a review decision: court only)
        let n = self.cases.get(case_id).map_or(0, |c| c.history.announcements.len()) as u32 + 1;
        let objection = (kind != AnnouncementKind::Review).then(|| {
            let r = self.period_rules();
            objection_period_in(self.body.land(), r.local, self.now, r.period_end)
        });
        let announcement = texts::announcement(
            self.body,
            &self.notice(case_id, successor, trail),
            kind,
            n,
            objection.as_ref(),
            detail,
        );
        self.effects.push(Effect::Announce(announcement));
        if let Some(p) = &objection {
            self.effects
                .push(Effect::Schedule { timer: Timer::objection(case_id, n), due_at: p.ends_at + self.grace() });
        }
        let record = AnnouncementRecord {
            n,
            kind: kind.as_str().to_owned(),
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
        let (land, rule, local) = (self.body.land(), self.period_rules().period_end, self.period_rules().local);
        for a in due {
            let Some(stored) = &a.objection else { continue };
            // Never earlier than the body's reading gives now: a period stored under another reading (before
            // the objection period followed the one-week period's, or before the body changed its reading)
            // ends at the later of the two (docs/legal.md, "One reading for both periods").
            let current = objection_period_in(land, local, a.issued_at, rule);
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
                body: self.body.id().into(),
                case: case_id.into(),
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

/// What the texts need to know of the case `case_id` of `cases` at `now`, with `successor` and the trail of his
/// determination: the machine's notices, and the console's letter (`Council::determination_letter`).
pub(super) fn notice_of<'n>(
    cases: &'n BTreeMap<CaseId, Case>,
    case_id: &'n str,
    successor: Option<&'n str>,
    trail: &'n [TrailStep],
    now: DateTime<Utc>,
) -> Notice<'n> {
    let case = cases.get(case_id).map(|c| CaseFacts {
        id: &c.id,
        round: c.round,
        departed: &c.departed,
        reason: c.reason,
        effective_at: c.effective_at,
        stage: match &c.state {
            CaseState::Offered(o) => {
                Stage::Offered { determined_at: o.determined_at, member_since: o.member_since, barred: o.barred }
            }
            CaseState::Filled { since, basis, .. } => Stage::Filled { since: *since, basis: *basis },
            CaseState::Vacant { reason } => Stage::Vacant(*reason),
            _ => Stage::Open,
        },
        // the lot that chose the successor (§ 34 Abs. 1a KWG)
        lot: successor
            .and_then(|s| c.history.lots.iter().rev().find(|l| l.winner == s))
            .map(|l| (l.drawn_by.as_str(), l.drawn_at)),
        // the final review decision that installed this round's successor (docs/legal.md, "Review decisions take
        // effect when final"): his letter names it instead of offering an objection against it
        review: c.history.installed_by_review.filter(|r| *r == c.round).and_then(|_| c.history.reviews.last()).map(
            |r| ReviewFacts { decided_at: r.decided_at, final_on: r.final_on, decided_by: r.decided_by.as_deref() },
        ),
    });
    Notice { case_id, case, successor, trail, now }
}
