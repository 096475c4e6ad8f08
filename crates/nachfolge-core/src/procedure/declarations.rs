//! Declarations and proofs within the period, and what the end of the period means: acceptance, refusal,
//! reservation, the proof that a bar ended, deemed acceptance, deemed refusal, deemed non-acquisition.

use super::*;

impl Machine<'_> {
    pub(super) fn reject_declaration(&mut self, case: &str, candidate: &str, reason: &str) -> Result<(), Rejection> {
        let data = DeclarationRejected {
            body: self.body.id().to_owned(),
            case: case.to_owned(),
            candidate: candidate.to_owned(),
            reason: reason.to_owned(),
        };
        self.emit(&data)?;
        Ok(())
    }

    /// Checks common to declarations and proofs (§ 45 Abs. 6 KWahlG NRW, LAW.md §1 item 14): the sender is
    /// the pending successor, the notification went out, the period has not ended. Returns the offer.
    pub(super) fn check_declaration(
        &mut self,
        case_id: &str,
        candidate: &str,
        at: DateTime<Utc>,
    ) -> Result<Option<Offer>, Rejection> {
        let case = self.case(case_id)?.clone();
        self.candidate(candidate)?;
        if case.refused.iter().any(|r| r == candidate) {
            let reason = match self.procedure().acceptance {
                // § 45 Abs. 6 Satz 6 KWahlG NRW: a refusal cannot be withdrawn
                Acceptance::Declaration => "refusal_irrevocable",
                // § 23 Abs. 2 KWG: his membership was deemed not acquired because the period ended unproven
                Acceptance::WithDetermination => "after_deadline",
            };
            self.reject_declaration(case_id, candidate, reason)?;
            return Ok(None);
        }
        let offer = match &case.state {
            CaseState::Offered(o) => o.clone(),
            CaseState::Filled { successor, .. } if successor == candidate => {
                self.reject_declaration(case_id, candidate, "case_closed")?;
                return Ok(None);
            }
            // proposed, not yet determined: no notification went out (`determination: confirm`)
            CaseState::Proposed(p) if p.successor == candidate => {
                self.reject_declaration(case_id, candidate, "before_notification")?;
                return Ok(None);
            }
            _ => {
                return Err(invalid(format!(
                    "candidate: {candidate:?} is not the pending successor of case {case_id:?}"
                )))
            }
        };
        if offer.successor != candidate {
            return Err(invalid(format!("candidate: {candidate:?} is not the pending successor of case {case_id:?}")));
        }
        let notified = offer.notified_at.or(offer.notification_failed.then_some(offer.determined_at));
        if notified.is_none_or(|n| at < n) {
            self.reject_declaration(case_id, candidate, "before_notification")?;
            return Ok(None);
        }
        if offer.deadline.as_ref().is_some_and(|d| at >= d.ends_at) {
            self.reject_declaration(case_id, candidate, "after_deadline")?;
            return Ok(None);
        }
        Ok(Some(offer))
    }

    pub(super) fn declaration(&mut self, d: DeclarationReceived) -> Result<(), Rejection> {
        let at = d.received_at.with_timezone(&Utc);
        if !self.by_declaration() {
            self.case(&d.case)?;
            // § 23 KWG has no acceptance step since 2005
            self.reject_declaration(&d.case, &d.candidate, "no_acceptance_procedure")?;
            return Ok(());
        }
        if at > self.now + chrono::Duration::minutes(5) {
            return Err(invalid("received_at: lies in the future"));
        }
        let Some(offer) = self.check_declaration(&d.case, &d.candidate, at)? else { return Ok(()) };
        if offer.accepted_at.is_some() {
            self.reject_declaration(&d.case, &d.candidate, "already_accepted")?;
            return Ok(());
        }
        let kind = match d.kind {
            DeclarationKind::Accept => "accept",
            DeclarationKind::Refuse => "refuse",
            DeclarationKind::AcceptWithReservation => "accept_with_reservation",
        };
        self.recorded(&d.case, &d.candidate, kind, at)?;
        match d.kind {
            DeclarationKind::Accept => {
                if let Some(o) = self.offer_mut(&d.case) {
                    o.accepted_at = Some(at);
                }
                if !offer.barred || offer.proven_at.is_some() {
                    let start = at.max(offer.proven_at.unwrap_or(at));
                    self.nrw_membership(&d.case, start, MembershipBasis::Acceptance)?;
                }
            }
            // § 45 Abs. 6 Satz 5: a declaration with a reservation counts as refusal
            DeclarationKind::Refuse | DeclarationKind::AcceptWithReservation => {
                self.refused(&d.case, &d.candidate, at)?
            }
        }
        Ok(())
    }

    pub(super) fn recorded(
        &mut self,
        case: &str,
        candidate: &str,
        kind: &str,
        at: DateTime<Utc>,
    ) -> Result<(), Rejection> {
        let data = DeclarationRecorded {
            body: self.body.id().to_owned(),
            case: case.to_owned(),
            candidate: candidate.to_owned(),
            kind: kind.to_owned(),
            received_at: berlin(at),
        };
        self.emit(&data)?;
        Ok(())
    }

    /// A refusal (or deemed refusal): irrevocable (§ 45 Abs. 6 Satz 6); the substitute also loses his list
    /// position (§ 69 Abs. 2 KWahlO); the next successor is determined (§ 45 Abs. 2 Satz 2).
    pub(super) fn refused(&mut self, case_id: &str, candidate: &str, at: DateTime<Utc>) -> Result<(), Rejection> {
        if let Some(c) = self.body.candidate_mut(candidate) {
            c.facts.push(Fact::Declined { on: local_date(at) });
        }
        let c = self.case_mut(case_id)?;
        c.refused.push(candidate.to_owned());
        let round = c.round;
        self.effects.push(Effect::Cancel { key: timer_key(case_id, round) });
        self.determine(case_id, None)
    }

    /// NRW: membership starts (§ 45 Abs. 6 Satz 3/4), not before the predecessor's departure.
    pub(super) fn nrw_membership(
        &mut self,
        case_id: &str,
        at: DateTime<Utc>,
        basis: MembershipBasis,
    ) -> Result<(), Rejection> {
        let case = self.case(case_id)?.clone();
        let Some(successor) = case.pending_successor().map(str::to_owned) else { return Ok(()) };
        let since = at.max(case.effective_at);
        let trail = match &case.state {
            CaseState::Offered(o) => o.trail.clone(),
            _ => vec![],
        };
        self.seat(&successor, since);
        self.effects.push(Effect::Cancel { key: timer_key(case_id, case.round) });
        self.case_mut(case_id)?.state = CaseState::Filled { successor: successor.clone(), since, basis };
        let m = self.membership(case_id, &successor, MembershipChange::Joined, basis, since, true, None);
        self.emit(&m)?;
        // a successor a review installed was named in the review's announcement already
        let by_review = case.history.installed_by_review == Some(case.round);
        if !self.settings.announce_at_determination && !by_review {
            self.announce(case_id, "successor", Some(&successor), &trail);
        }
        Ok(())
    }

    pub(super) fn bar_cured(&mut self, b: BarCuredReceived) -> Result<(), Rejection> {
        let at = b.proven_at.with_timezone(&Utc);
        if at > self.now + chrono::Duration::minutes(5) {
            return Err(invalid("proven_at: lies in the future"));
        }
        let Some(offer) = self.check_declaration(&b.case, &b.candidate, at)? else { return Ok(()) };
        if !offer.barred {
            self.reject_declaration(&b.case, &b.candidate, "not_barred")?;
            return Ok(());
        }
        if offer.proven_at.is_some() {
            self.reject_declaration(&b.case, &b.candidate, "already_proven")?;
            return Ok(());
        }
        if let Some(c) = self.body.candidate_mut(&b.candidate) {
            c.facts.push(Fact::BarCured { on: local_date(at) });
        }
        if let Some(o) = self.offer_mut(&b.case) {
            o.proven_at = Some(at);
        }
        self.recorded(&b.case, &b.candidate, "bar_cured", at)?;
        match self.procedure().acceptance {
            Acceptance::Declaration => {
                if let Some(accepted) = offer.accepted_at {
                    self.nrw_membership(&b.case, accepted.max(at), MembershipBasis::Acceptance)?;
                }
            }
            Acceptance::WithDetermination => {
                // full rights from the proof
                let round = self.case(&b.case)?.round;
                self.effects.push(Effect::Cancel { key: timer_key(&b.case, round) });
                let m = self.membership(
                    &b.case,
                    &b.candidate,
                    MembershipChange::Updated,
                    MembershipBasis::BarCured,
                    at,
                    true,
                    offer.member_since.map(local_date),
                );
                self.emit(&m)?;
                let since = offer.member_since.unwrap_or(at);
                self.case_mut(&b.case)?.state =
                    CaseState::Filled { successor: b.candidate.clone(), since, basis: MembershipBasis::BarCured };
            }
        }
        Ok(())
    }

    pub(super) fn deadline_expired(&mut self, case_id: &str, round: u32) -> Result<(), Rejection> {
        let case = self.case(case_id)?.clone();
        let CaseState::Offered(offer) = &case.state else { return Ok(()) };
        let Some(deadline) = &offer.deadline else { return Ok(()) };
        if case.round != round || self.now < deadline.ends_at {
            return Ok(()); // a stale or early timer
        }
        let ends = deadline.ends_at;
        let unproven = offer.barred && offer.proven_at.is_none();
        match self.procedure().acceptance {
            Acceptance::Declaration if unproven => {
                // § 69 Abs. 2 i. V. m. § 62 Nr. 5 KWahlO: no proof within the week counts as refusal
                self.recorded(case_id, &offer.successor, "deemed_refusal", ends)?;
                self.refused(case_id, &offer.successor, ends)?;
            }
            Acceptance::Declaration => {
                if offer.accepted_at.is_none() {
                    // § 45 Abs. 6 Satz 4: silence → deemed accepted when the period ends
                    self.nrw_membership(case_id, ends, MembershipBasis::DeemedAcceptance)?;
                }
            }
            Acceptance::WithDetermination if unproven => {
                // § 23 Abs. 2 Satz 3 KWG: membership deemed not acquired, retroactively → a new trigger
                let since = offer.member_since.unwrap_or(offer.determined_at);
                if let Some(c) = self.body.candidate_mut(&offer.successor) {
                    c.seat = None;
                    c.facts.push(Fact::FormerMember { on: local_date(since) });
                }
                let m = self.membership(
                    case_id,
                    &offer.successor,
                    MembershipChange::Left,
                    MembershipBasis::DeemedNotAcquired,
                    since,
                    false,
                    Some(local_date(since)),
                );
                self.emit(&m)?;
                self.case_mut(case_id)?.refused.push(offer.successor.clone());
                self.announce(case_id, "not_acquired", Some(&offer.successor), &offer.trail);
                self.determine(case_id, None)?;
            }
            Acceptance::WithDetermination => {}
        }
        Ok(())
    }
}
