//! Objections and election review (§ 45 Abs. 6 Satz 8 i. V. m. §§ 39–41 KWahlG NRW; § 34 Abs. 4–6
//! i. V. m. §§ 25–27 KWG): `review.decided` confirms, annuls or amends a determination.

use super::*;

impl Machine<'_> {
    pub(super) fn review(&mut self, r: ReviewDecided) -> Result<(), Rejection> {
        let at = r.decided_at.with_timezone(&Utc);
        let case = self.case(&r.case)?.clone();
        if at > self.now + chrono::Duration::minutes(5) {
            return Err(invalid("decided_at: lies in the future"));
        }
        if at < case.opened_at {
            return Err(invalid(format!(
                "decided_at: lies before case {:?} was opened ({})",
                r.case,
                berlin(case.opened_at).to_rfc3339()
            )));
        }
        if r.decided_by.as_deref().is_some_and(|b| b.trim().is_empty()) {
            return Err(invalid("decided_by: must not be empty"));
        }
        // the day it became unanfechtbar / rechtskräftig dates every change (Hessen § 34 Abs. 5 KWG; docs/legal.md,
        // "Review decisions take effect when final")
        let final_at = match (r.is_final, r.final_on) {
            (true, None) => {
                return Err(invalid(
                    "final_on: required with final: true — the day the decision became unanfechtbar / rechtskräftig",
                ))
            }
            (false, Some(_)) => {
                return Err(invalid("final_on: only with final: true (a decision not yet final has no such day)"))
            }
            (true, Some(day)) if day < local_date(at) => {
                return Err(invalid(format!("final_on: {day} lies before the decision was taken ({})", local_date(at))))
            }
            (true, Some(day)) if day > local_date(self.now) => {
                return Err(invalid(format!("final_on: {day} lies in the future")))
            }
            (true, Some(day)) => Some(start_of_day(day).max(at)),
            (false, None) => None,
        };
        if let CaseState::Vacant { reason } = &case.state {
            if !reason.is_determined() {
                // no determination was made, so none can be reviewed
                let why = match reason {
                    VacancyReason::ReturningOfficerDecides if case.reason == DepartureReason::PartyBanned => {
                        "the Wahlleitung determines by hand what the party ban means for the seat (Rheinland-Pfalz: § 46 KWG after Abs. 1 was not read; a Saarland Kreistag: the KWG's Kreistag rules were not read)"
                    }
                    VacancyReason::ReturningOfficerDecides => {
                        "the Wahlleitung determines by hand what an exhausted Saarland list means (§ 57 Abs. 1 Satz 2 KWO)"
                    }
                    VacancyReason::ResultCorrected => {
                        "the corrected result allots the seat (§ 59 Abs. 1 Nr. 4 BbgKWahlG), no Ersatzperson was called"
                    }
                    _ => "§ 33 Abs. 1 Nr. 4 KWG: § 34 does not apply",
                };
                return Err(invalid(format!(
                    "case: case {:?} left the seat vacant without a determination ({why}); there is nothing to review",
                    r.case
                )));
            }
        }
        if let (Some(m), false) = (&case.history.seat_move, r.outcome == ReviewOutcome::Confirmed) {
            // undoing a move would give him back the weiterer Sitz that the follow-on case has filled
            return Err(invalid(format!(
                "case: in case {:?} the member {:?} moved from his weiterer Sitz into this seat (§ 31 Abs. 2 Satz 2 GemO), and case {:?} fills the seat he gave up; a review that undoes the move is not modelled: the Wahlleitung carries it out by hand (docs/legal.md, \"Baden-Württemberg: weitere Sitze\")",
                r.case, m.member, m.follow_on
            )));
        }
        let review = self.procedure().review;
        let by_council = r.decided_by.as_deref() == Some("council");
        // a court's final decision, carried out by the returning officer or the council: no further court
        // action lies against the announcement (docs/legal.md, "Remedies after a review")
        let by_court = r.decided_by.as_deref() == Some("court");
        if let (true, Some(refused)) = (by_council, review.council_refused) {
            return Err(invalid(refused));
        }
        match (r.outcome, &r.successor) {
            (ReviewOutcome::Amended, None) => return Err(invalid("successor: required with outcome amended")),
            (ReviewOutcome::Confirmed | ReviewOutcome::Annulled, Some(_)) => {
                return Err(invalid("successor: only with outcome amended"))
            }
            _ => {}
        }
        // Hessen § 34 Abs. 4 Satz 1 Halbsatz 2, Satz 3: against the returning officer's inaction (here: the lot
        // he has not drawn), the council makes the determination itself.
        // a proposal the returning officer has not confirmed is no determination yet (§ 45 Abs. 6 Satz 1 KWahlG
        // NRW, § 34 Abs. 3 Satz 1 KWG)
        let inactive = matches!(case.state, CaseState::AwaitingLot { .. } | CaseState::Proposed(_));
        let in_place_of_officer = review.council_in_place_of_officer.filter(|_| inactive);
        if inactive && !(in_place_of_officer.is_some() && by_council && r.outcome == ReviewOutcome::Amended) {
            return Err(invalid(format!(
                "case: case {:?} has no determination yet to review; only the council's own determination (outcome amended, decided_by council, § 34 Abs. 4 Satz 3 KWG) can take its place",
                r.case
            )));
        }
        // who holds (or was offered) the seat, and is he a member (NRW: only after acceptance; Hessen: with
        // the determination, a barred one without voting right)
        let (holder, holder_member) = match &case.state {
            CaseState::Filled { successor, .. } => (Some(successor.clone()), true),
            CaseState::Offered(o) => (Some(o.successor.clone()), !self.by_declaration()),
            _ => (None, false),
        };
        if r.outcome != ReviewOutcome::Confirmed && holder_member {
            let h = holder.as_deref().unwrap_or_default();
            if self.body.candidate(h).is_none_or(|c| c.seat.is_none()) {
                return Err(invalid(format!(
                    "case: {h:?}, the successor of case {:?}, no longer holds the seat; a later case took it over — review that case",
                    r.case
                )));
            }
        }
        let cite = in_place_of_officer.unwrap_or(review.citation);
        let citation = cite.to_owned();
        let new = match &r.successor {
            Some(s) => Some(self.check_amended(&case, s, holder.as_deref())?),
            None => None,
        };
        let record = ReviewRecord {
            outcome: r.outcome,
            decided_at: at,
            decided_by: r.decided_by.clone(),
            previous: holder.clone(),
            successor: new.clone().map(Into::into),
            citation: citation.clone(),
            recorded_at: self.now,
            is_final: r.is_final,
            final_on: r.final_on,
        };
        let detail = Detail::Review {
            outcome: r.outcome,
            decided_at: at,
            decided_by: r.decided_by.as_deref(),
            by_council,
            by_court,
            officer_inactive: inactive,
            citation: cite,
            previous: holder.as_deref().map(|h| (h, holder_member)),
            was_vacant: matches!(case.state, CaseState::Vacant { .. }),
            is_final: r.is_final,
            final_on: r.final_on,
        };
        if !r.is_final {
            // Not yet unappealable: recorded and announced, but the seat holder keeps the seat (or it stays
            // vacant) until the decision is final — Hessen § 34 Abs. 5 KWG; NRW § 40 Abs. 3 KWahlG NRW, applied
            // by § 45 Abs. 6 Satz 8 (wording unverified, docs/legal.md).
            self.case_mut(&r.case)?.history.reviews.push(record);
            let named = new.as_deref().or(holder.as_deref());
            self.announce_with(&r.case, AnnouncementKind::Review, named, &[], &detail);
            return Ok(());
        }
        if r.outcome == ReviewOutcome::Confirmed {
            self.case_mut(&r.case)?.history.reviews.push(record);
            let trail = self.case_trail(&case);
            self.announce_with(&r.case, AnnouncementKind::Review, holder.as_deref(), &trail, &detail);
            return Ok(());
        }
        // annulled or amended: the change takes effect now, dated at the start of the day the decision became
        // final (Hessen § 34 Abs. 5 KWG: the seat is kept until then); nothing earlier is rolled back (§ 34 Abs. 6)
        let at = final_at.unwrap_or(at);
        self.supersede_objections(&r.case)?;
        self.effects.push(Effect::Cancel { timer: Timer::deadline(&r.case, case.round) });
        if holder_member {
            if let Some(h) = &holder {
                self.end_by_review(&r.case, h, at)?;
            }
        }
        if matches!(case.state, CaseState::Vacant { .. }) {
            // the vacancy (and the reduction of the statutory size) is annulled with the determination
            self.body.snapshot.body.statutory_size += 1;
        }
        self.case_mut(&r.case)?.history.reviews.push(record);
        match new {
            None => {
                self.case_mut(&r.case)?.state = CaseState::AwaitingLot { tied: vec![] };
                self.announce_with(&r.case, AnnouncementKind::Review, None, &[], &detail);
                // determined again under the rules, with the facts known now (same case, next round)
                self.determine(&r.case, None)
            }
            Some(s) => {
                let round = case.round + 1;
                let barred = self.body.candidate(&s).is_some_and(|c| c.is_barred_at(local_date(self.now)));
                let mut trail = vec![TrailStep::new(Some(&s), Verdict::Chosen, "review_amended", citation)];
                if barred {
                    let cite = self.procedure().bar_citation;
                    trail.push(TrailStep::new(Some(&s), Verdict::Noted, "barred_must_prove_end", cite));
                }
                self.case_mut(&r.case)?.history.installed_by_review = Some(round);
                let since = at.max(case.effective_at);
                let install = Installation {
                    round,
                    candidate: s.clone(),
                    list: case.list.clone(),
                    barred,
                    trail: trail.clone(),
                    since,
                    announce: false,
                    at: self.now,
                    by: None,
                };
                self.install(&r.case, install)?;
                self.announce_with(&r.case, AnnouncementKind::Review, Some(&s), &trail, &detail);
                Ok(())
            }
        }
    }

    /// The successor an `amended` decision names: a candidate of the list the departed stood for (§ 45 Abs. 1
    /// Satz 1 KWahlG NRW, § 34 Abs. 1 Satz 1 KWG) who holds no seat and is offered no other one.
    pub(super) fn check_amended(&self, case: &Case, s: &str, holder: Option<&str>) -> Result<String, Rejection> {
        let c = self.candidate(s)?;
        if self.body.list_of(s).map(|l| l.id.as_str()) != Some(case.list.as_str()) {
            return Err(invalid(format!(
                "successor: {s:?} is not a candidate of list {:?}, for which the departed stood",
                case.list
            )));
        }
        if self.body.list_of(s).is_some_and(|l| l.kind == ListKind::Individual) || s == case.departed {
            return Err(invalid(format!("successor: {s:?} is the departed member (or his individual candidacy)")));
        }
        if holder == Some(s) {
            return Err(invalid(format!(
                "successor: {s:?} is the successor already determined in case {:?}; use outcome confirmed",
                case.id
            )));
        }
        if c.seat.is_some() {
            return Err(invalid(format!("successor: {s:?} holds a seat")));
        }
        if let Some((_, other)) = pending_successors(self.cases).find(|(p, c)| *p == s && *c != case.id) {
            return Err(invalid(format!("successor: {s:?} is the pending successor of case {other:?}")));
        }
        if self.by_declaration() && case.refused.iter().any(|r| r == s) {
            return Err(invalid(format!(
                "successor: {s:?} refused the seat in this case; a refusal cannot be withdrawn (§ 45 Abs. 6 Satz 6 KWahlG NRW)"
            )));
        }
        Ok(s.to_owned())
    }

    /// End the membership of a successor whose determination a review annulled or amended: `left`, basis
    /// `review`, dated at the decision (not before his membership began).
    pub(super) fn end_by_review(&mut self, case_id: &str, holder: &str, at: DateTime<Utc>) -> Result<(), Rejection> {
        let start = self.body.candidate(holder).and_then(|c| c.seat.as_ref().map(|s| s.since));
        let effective = start.map_or(at, |d| at.max(start_of_day(d)));
        if let Some(c) = self.body.candidate_mut(holder) {
            c.seat = None;
        }
        let m =
            self.membership(case_id, holder, MembershipChange::Left, MembershipBasis::Review, effective, false, start);
        self.emit(&m)?;
        Ok(())
    }

    /// The trail of the determination a case stands on (for the announcement of a confirming review).
    pub(super) fn case_trail(&self, case: &Case) -> Vec<TrailStep> {
        match &case.state {
            CaseState::Offered(o) => o.trail.clone(),
            _ => vec![],
        }
    }
}
