//! Declarations and proofs within the period, and what the end of the period means: acceptance, refusal,
//! reservation, the proof that a bar ended, deemed acceptance, deemed refusal, deemed non-acquisition.

use super::*;

impl Machine<'_> {
    pub(super) fn reject_declaration(&mut self, case: &str, candidate: &str, reason: &str) -> Result<(), Rejection> {
        let data = DeclarationRejected {
            body: self.body.id().into(),
            case: case.into(),
            candidate: candidate.into(),
            reason: reason.to_owned(),
        };
        self.emit(&data)?;
        Ok(())
    }

    /// Checks common to declarations and proofs (§ 45 Abs. 6 KWahlG NRW, docs/contract.md, "Declarations that cannot take effect"): the sender is
    /// the pending successor, the notification went out, the period has not ended. Returns the offer.
    pub(super) fn check_declaration(
        &mut self,
        case_id: &str,
        candidate: &str,
        kind: &str,
        at: DateTime<Utc>,
    ) -> Result<Option<Offer>, Rejection> {
        let case = self.case(case_id)?.clone();
        self.candidate(candidate)?;
        if self.timely_after_deemed(&case, candidate, kind, at)? {
            return Ok(None);
        }
        if case.refused.iter().any(|r| r == candidate) {
            // Sachsen-Anhalt: he lost the mandate when the period ended (§ 42 Abs. 1 Nr. 3 KVG LSA), he did not refuse
            let lost = case.history.deemed.iter().any(|r| r.offer.successor == candidate && r.kind == "mandate_lost");
            let reason = match self.procedure().acceptance {
                _ if lost => "after_deadline",
                // § 45 Abs. 6 Satz 6 KWahlG NRW: a refusal cannot be withdrawn
                // [decision] Bayern likewise (docs/legal.md, "Bayern": § 95 Abs. 1 GLKrWO not applied)
                Acceptance::Declaration | Acceptance::ExpressDeclaration => "refusal_irrevocable",
                // § 23 Abs. 2 KWG: his membership was deemed not acquired because the period ended unproven
                Acceptance::WithDetermination => "after_deadline",
                // § 31 Abs. 2 GemO BW: passed over after the council's finding; nothing to declare
                Acceptance::ByLaw { .. } => "no_acceptance_procedure",
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
        // § 37a Abs. 1 Satz 1 GKWG: a barred successor's written proof still makes him a member after the week
        let proof_awaited = kind == "bar_cured" && offer.barred && self.law.bar_effect() == BarEffect::AwaitsProof;
        if offer.deadline.as_ref().is_some_and(|d| at >= d.ends_at) && !proof_awaited {
            self.reject_declaration(case_id, candidate, "after_deadline")?;
            return Ok(None);
        }
        // No service date yet. Service never precedes sending, so up to the end of the week counted from the
        // sending day a declaration is in time whatever the service date; a later one is held until the
        // service date is known (docs/legal.md, "Declarations while no service date is known").
        if let (None, Some(sent)) = (&offer.deadline, notified) {
            let earliest = self.week(&ServiceBasis::Certificate, local_date(sent));
            if at >= earliest.ends_at {
                if let Some(o) = self.offer_mut(case_id) {
                    o.held.push(HeldDeclaration { kind: kind.to_owned(), received_at: at });
                }
                let data = DeclarationHeld {
                    body: self.body.id().into(),
                    case: case_id.into(),
                    candidate: candidate.into(),
                    round: case.round,
                    kind: kind.to_owned(),
                    received_at: berlin(at),
                    reason: "service_date_unknown".to_owned(),
                };
                self.emit(&data)?;
                return Ok(None);
            }
        }
        Ok(Some(offer))
    }

    /// A declaration or proof that reached the returning officer before the end of a period whose deemed
    /// effect was already applied: the timely declaration wins (docs/legal.md, "A declaration that arrived in
    /// time always wins"). Returns whether it was dealt with here.
    fn timely_after_deemed(
        &mut self,
        case: &Case,
        candidate: &str,
        kind: &str,
        at: DateTime<Utc>,
    ) -> Result<bool, Rejection> {
        let Some((i, rec)) = case
            .history
            .deemed
            .iter()
            .enumerate()
            .rev()
            .find(|(_, r)| r.offer.successor == candidate && !r.settled)
            .map(|(i, r)| (i, r.clone()))
        else {
            return Ok(false);
        };
        let Some(deadline) = &rec.offer.deadline else { return Ok(false) };
        let notified = rec.offer.notified_at.or(rec.offer.notification_failed.then_some(rec.offer.determined_at));
        if at >= deadline.ends_at || notified.is_none_or(|n| at < n) {
            return Ok(false); // too late or too early anyway: the ordinary checks answer it
        }
        // Does it change the deemed effect? An acceptance or refusal changes a deemed acceptance; a proof
        // changes a deemed refusal or a deemed non-acquisition (a missing proof is not cured by accepting).
        let changes = (matches!(
            (rec.kind.as_str(), kind),
            ("deemed_acceptance", "accept" | "refuse" | "accept_with_reservation")
                | ("deemed_refusal" | "deemed_not_acquired" | "mandate_lost", "bar_cured")
        ) && !self.acceptance_without_effect(kind))
            || (self.procedure().acceptance == Acceptance::ExpressDeclaration
                // Bayern: silence was deemed a refusal; a timely acceptance changes it (the returning officer decides)
                && rec.kind == "deemed_refusal"
                && matches!(kind, "accept" | "accept_with_reservation"));
        if !changes {
            return Ok(false);
        }
        let still_member = self.body.candidate(candidate).is_some_and(|c| c.seat.is_some());
        let correctable = rec.kind == "deemed_acceptance"
            && case.round == rec.round
            && still_member
            && matches!(&case.state, CaseState::Filled { successor, basis: MembershipBasis::DeemedAcceptance, .. } if successor == candidate);
        self.case_mut(&case.id)?.history.deemed[i].settled = true;
        if !correctable {
            // a later round was determined (or the seat changed hands since): the worker changes no membership
            // by itself; the returning officer decides
            let reason = if case.round > rec.round {
                ReviewRequiredReason::TimelyDeclarationAfterLaterRound
            } else {
                ReviewRequiredReason::MembershipChangedSince
            };
            let data = CaseReviewRequired {
                body: self.body.id().into(),
                case: case.id.clone(),
                rounds: (rec.round..=case.round).collect(),
                reason,
                candidate: candidate.into(),
                kind: kind.to_owned(),
                received_at: berlin(at),
            };
            self.emit(&data)?;
            return Ok(true);
        }
        self.correct_deemed_acceptance(case, &rec, kind, at)?;
        Ok(true)
    }

    /// Correct a deemed acceptance (§ 45 Abs. 6 Satz 4 KWahlG NRW) after a declaration that reached the
    /// returning officer within the period: an acceptance moves the start of membership to its receipt
    /// (Satz 3); a refusal or reservation (Satz 5) means he never became a member, and the next round follows
    /// (§ 45 Abs. 2 Satz 2).
    fn correct_deemed_acceptance(
        &mut self,
        case: &Case,
        rec: &DeemedRecord,
        kind: &str,
        at: DateTime<Utc>,
    ) -> Result<(), Rejection> {
        let CaseState::Filled { successor, since: deemed_since, .. } = case.state.clone() else { return Ok(()) };
        let deadline = rec.offer.deadline.clone();
        self.recorded(&case.id, &successor, kind, at)?;
        // the deemed membership is corrected: it ends where it began (it never began on that day)
        let void = self.membership(
            &case.id,
            &successor,
            MembershipChange::Left,
            MembershipBasis::Correction,
            deemed_since,
            false,
            Some(local_date(deemed_since)),
        );
        self.emit(&void)?;
        let accepted = kind == "accept" || (kind == "accept_with_reservation" && self.reservation_void());
        let since = at.max(rec.offer.proven_at.unwrap_or(at)).max(case.effective_at);
        let detail = Detail::Correction {
            kind,
            received_at: at,
            last_day: deadline.as_ref().map(|d| d.last_day),
            deemed_since,
            member_since: accepted.then_some(since),
        };
        if accepted {
            self.seat(&successor, since, case.departed_via);
            let mut joined = self.membership(
                &case.id,
                &successor,
                MembershipChange::Joined,
                MembershipBasis::Correction,
                since,
                true,
                None,
            );
            joined.bar_end_proof = self.bar_end_proof(rec.offer.barred, since);
            self.emit(&joined)?;
            self.case_mut(&case.id)?.state =
                CaseState::Filled { successor: successor.clone(), since, basis: MembershipBasis::Acceptance };
            self.announce_with(&case.id, AnnouncementKind::Correction, Some(&successor), &rec.offer.trail, &detail);
            return Ok(());
        }
        // a timely refusal: he never became a member; the determination goes on as if it had come in time
        if let Some(c) = self.body.candidate_mut(&successor) {
            c.seat = None;
            c.facts.push(Fact::Declined { on: local_date(at), of: Declination::Succession });
        }
        self.supersede_objections(&case.id)?;
        self.announce_with(&case.id, AnnouncementKind::Correction, Some(&successor), &rec.offer.trail, &detail);
        self.case_mut(&case.id)?.refused.push(successor);
        self.determine(&case.id, None)
    }

    /// The acceptance period after service on `on` (one week; Bayern two, `LandLaw::acceptance_weeks`) under
    /// this body's reading of the period's end and with its local holidays.
    pub(super) fn week(&self, basis: &ServiceBasis, on: NaiveDate) -> Deadline {
        acceptance_deadline(
            basis,
            on,
            self.body.land(),
            self.period_rules(),
            self.law.acceptance_weeks(self.body.info().kind),
        )
    }

    /// The service date is known now: decide the declarations held until then, in the order they were
    /// received — in time → effect dated at its receipt; too late → `declaration.rejected` `after_deadline`.
    pub(super) fn release_held(&mut self, case_id: &str) -> Result<(), Rejection> {
        let Some(o) = self.offer_mut(case_id) else { return Ok(()) };
        let mut held = std::mem::take(&mut o.held);
        let candidate = o.successor.clone();
        held.sort_by_key(|h| h.received_at);
        let body = BodyId::from(self.body.id());
        for h in held {
            let received_at = berlin(h.received_at);
            let (case, candidate) = (case_id.to_owned(), candidate.clone());
            match h.kind.as_str() {
                "bar_cured" => self.bar_cured(BarCuredReceived {
                    body: body.clone(),
                    case: case.into(),
                    candidate,
                    proven_at: received_at,
                })?,
                kind => {
                    let kind = match kind {
                        "accept" => DeclarationKind::Accept,
                        "refuse" => DeclarationKind::Refuse,
                        _ => DeclarationKind::AcceptWithReservation,
                    };
                    self.declaration(DeclarationReceived {
                        body: body.clone(),
                        case: case.into(),
                        candidate,
                        kind,
                        received_at,
                    })?
                }
            }
        }
        Ok(())
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
        let kind = match d.kind {
            DeclarationKind::Accept => "accept",
            DeclarationKind::Refuse => "refuse",
            DeclarationKind::AcceptWithReservation => "accept_with_reservation",
        };
        let Some(offer) = self.check_declaration(&d.case, &d.candidate, kind, at)? else { return Ok(()) };
        if offer.accepted_at.is_some() {
            self.reject_declaration(&d.case, &d.candidate, "already_accepted")?;
            return Ok(());
        }
        self.recorded(&d.case, &d.candidate, kind, at)?;
        // § 37 Satz 1 GKWG: membership begins when the week ends; an acceptance changes nothing (a later refusal
        // within the week still counts)
        if self.acceptance_without_effect(kind) {
            return Ok(());
        }
        // § 29 Satz 3 ThürKWG: a reservation is void and the acceptance stands (`Reservation::Ineffective`)
        let accepts = match d.kind {
            DeclarationKind::Accept => true,
            DeclarationKind::AcceptWithReservation => self.reservation_void(),
            DeclarationKind::Refuse => false,
        };
        match accepts {
            true => {
                if let Some(o) = self.offer_mut(&d.case) {
                    o.accepted_at = Some(at);
                }
                if !offer.barred || offer.proven_at.is_some() {
                    let start = at.max(offer.proven_at.unwrap_or(at));
                    self.nrw_membership(&d.case, start, MembershipBasis::Acceptance)?;
                }
            }
            // § 45 Abs. 6 Satz 5: a declaration with a reservation counts as refusal (`Reservation::Refusal`)
            false => self.refused(&d.case, &d.candidate, at)?,
        }
        Ok(())
    }

    /// An acceptance (or one with a void reservation) where membership begins only when the period ends
    /// (`LandLaw::membership_at_period_end`): recorded, without effect of its own.
    fn acceptance_without_effect(&self, kind: &str) -> bool {
        self.law.membership_at_period_end()
            && (kind == "accept" || (kind == "accept_with_reservation" && self.reservation_void()))
    }

    /// A reservation attached to an acceptance is void, the acceptance stands (`Reservation::Ineffective`).
    fn reservation_void(&self) -> bool {
        self.procedure().reservation == Reservation::Ineffective
    }

    pub(super) fn recorded(
        &mut self,
        case: &str,
        candidate: &str,
        kind: &str,
        at: DateTime<Utc>,
    ) -> Result<(), Rejection> {
        let data = DeclarationRecorded {
            body: self.body.id().into(),
            case: case.into(),
            candidate: candidate.into(),
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
            c.facts.push(Fact::Declined { on: local_date(at), of: Declination::Succession });
        }
        let c = self.case_mut(case_id)?;
        c.refused.push(candidate.into());
        let round = c.round;
        self.effects.push(Effect::Cancel { timer: Timer::deadline(case_id, round) });
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
        self.seat(&successor, since, case.departed_via);
        self.effects.push(Effect::Cancel { timer: Timer::deadline(case_id, case.round) });
        self.case_mut(case_id)?.state = CaseState::Filled { successor: successor.clone().into(), since, basis };
        let mut m = self.membership(case_id, &successor, MembershipChange::Joined, basis, since, true, None);
        // Brandenburg § 51 Abs. 2 Satz 3 BbgKWahlG: the actual end of the employment within four months
        let barred = matches!(&case.state, CaseState::Offered(o) if o.barred);
        m.bar_end_proof = self.bar_end_proof(barred, at);
        self.emit(&m)?;
        // a successor a review installed was named in the review's announcement already
        let by_review = case.history.installed_by_review == Some(case.round);
        if !self.announce_at_determination() && !by_review {
            self.announce(case_id, AnnouncementKind::Successor, Some(&successor), &trail);
        }
        Ok(())
    }

    pub(super) fn bar_cured(&mut self, b: BarCuredReceived) -> Result<(), Rejection> {
        let at = b.proven_at.with_timezone(&Utc);
        if at > self.now + chrono::Duration::minutes(5) {
            return Err(invalid("proven_at: lies in the future"));
        }
        let Some(offer) = self.check_declaration(&b.case, &b.candidate, "bar_cured", at)? else { return Ok(()) };
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
            Acceptance::Declaration | Acceptance::ExpressDeclaration => {
                if let Some(accepted) = offer.accepted_at {
                    self.nrw_membership(&b.case, accepted.max(at), MembershipBasis::Acceptance)?;
                } else if let Some(ends) = offer.deadline.as_ref().map(|d| d.ends_at).filter(|ends| at >= *ends) {
                    // § 37a Abs. 1 Satz 1 GKWG: the week passed without a refusal; membership with the written proof
                    self.nrw_membership(&b.case, at.max(ends), MembershipBasis::BarCured)?;
                }
            }
            Acceptance::WithDetermination => {
                // full rights from the proof
                let round = self.case(&b.case)?.round;
                self.effects.push(Effect::Cancel { timer: Timer::deadline(&b.case, round) });
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
            // a member by law has no bar to prove (BW: a Hinderungsgrund passes him over, § 29 Abs. 5 GemO)
            Acceptance::ByLaw { .. } => {}
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
        // the one decision the letters announced (`lapse::outlook`)
        let standing = lapse::Standing {
            barred: offer.barred,
            proven: offer.proven_at.is_some(),
            accepted: offer.accepted_at.is_some(),
        };
        let effect = lapse::lapse(self.law, self.body.info().kind, standing);
        if matches!(
            effect,
            Lapse::DeemedAcceptance | Lapse::DeemedRefusal | Lapse::DeemedNotAcquired | Lapse::MandateLost
        ) {
            let rec = DeemedRecord { round, kind: effect.as_str().to_owned(), offer: offer.clone(), settled: false };
            self.case_mut(case_id)?.history.deemed.push(rec);
        }
        match effect {
            Lapse::DeemedRefusal => {
                // Art. 47 Abs. 2 Satz 2 GLKrWG: not accepted within the period; a barred successor without the
                // proof: § 62 Nr. 5, § 69 Abs. 2 KWahlO NRW, § 64 Abs. 2 KWO RP, § 51 Abs. 2 Satz 2 BbgKWahlG,
                // § 50 Abs. 3 NKomVG (`BarEffect::Refusal`)
                self.recorded(case_id, &offer.successor, "deemed_refusal", ends)?;
                self.refused(case_id, &offer.successor, ends)?;
            }
            Lapse::DeemedAcceptance => {
                // § 45 Abs. 6 Satz 4 KWahlG NRW and its parallels: silence → deemed accepted when the period ends
                self.nrw_membership(case_id, ends, MembershipBasis::DeemedAcceptance)?;
            }
            Lapse::MandateLost => self.mandate_lost(case_id, offer, ends)?,
            Lapse::DeemedNotAcquired => {
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
                // the person concerned is told (§ 56 Abs. 2 KWO: served, with the hint at the Einspruch)
                self.not_acquired_mail(case_id, offer, since, ends)?;
                self.announce(case_id, AnnouncementKind::NotAcquired, Some(&offer.successor), &offer.trail);
                self.determine(case_id, None)?;
            }
            // § 37a Abs. 1 Satz 1 GKWG: membership waits for the written proof (`bar_cured` after the period)
            Lapse::AwaitsProof | Lapse::Nothing => {}
        }
        Ok(())
    }

    /// Sachsen-Anhalt: the election of a barred successor without the proof is accepted — by his declaration
    /// or by silence when the period ends (§ 43 Abs. 1 Satz 2 KWG LSA) — while the Hinderungsgrund stands, so
    /// he loses the mandate at once (§ 42 Abs. 1 Nr. 3 KVG LSA): joined and left at the same instant, a former
    /// member from then on, and the seat passes to the next (§ 42 Abs. 4 KVG LSA, § 47 Abs. 1 Satz 1 KWG LSA) in
    /// the same case. Nothing is announced for him: the announcement names the one the seat passes to.
    fn mandate_lost(&mut self, case_id: &str, offer: &Offer, ends: DateTime<Utc>) -> Result<(), Rejection> {
        let case = self.case(case_id)?.clone();
        let (at, basis) = match offer.accepted_at {
            Some(accepted) => (accepted, MembershipBasis::Acceptance),
            None => (ends, MembershipBasis::DeemedAcceptance),
        };
        let since = at.max(case.effective_at);
        let joined = self.membership(case_id, &offer.successor, MembershipChange::Joined, basis, since, true, None);
        self.emit(&joined)?;
        let left = self.membership(
            case_id,
            &offer.successor,
            MembershipChange::Left,
            MembershipBasis::BarAtAcceptance,
            since,
            false,
            Some(local_date(since)),
        );
        self.emit(&left)?;
        if let Some(c) = self.body.candidate_mut(&offer.successor) {
            c.seat = None;
            c.facts.push(Fact::FormerMember { on: local_date(since) });
        }
        self.case_mut(case_id)?.refused.push(offer.successor.clone());
        self.effects.push(Effect::Cancel { timer: Timer::deadline(case_id, case.round) });
        self.determine(case_id, None)
    }
}
