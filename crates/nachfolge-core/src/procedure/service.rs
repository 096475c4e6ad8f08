//! Notice and service: the e-mail to the successor, its result, the service date (`notification.served`),
//! and the one-week period that starts with it.

use super::*;

impl Machine<'_> {
    /// The e-mail to the determined successor (NRW: the acceptance request; Hessen: the determination, for
    /// a barred successor with the proof request).
    pub(super) fn mail(&mut self, case_id: &str, trail: &[TrailStep]) -> Result<(), Rejection> {
        let Some(successor) = self.case(case_id)?.successor() else { return Ok(()) };
        self.candidate(successor)?;
        let notice = self.notice(case_id, Some(successor), trail);
        if let Some(req) = texts::determination_mail(self.body, &notice) {
            self.effects.push(Effect::Mail(req));
        }
        Ok(())
    }

    /// Hessen: the e-mail to a barred successor whose membership is deemed not acquired, retroactively
    /// (§ 34 Abs. 3 Satz 2 i. V. m. § 23 Abs. 2 Satz 3 KWG; § 56 Abs. 2 KWO: the Wahlleiter serves him the
    /// notice with the hint at the Einspruch). Its Message-ID carries its kind, so it never collides with the
    /// round's notification.
    pub(super) fn not_acquired_mail(
        &mut self,
        case_id: &str,
        offer: &Offer,
        since: DateTime<Utc>,
        ended: DateTime<Utc>,
    ) -> Result<(), Rejection> {
        self.case(case_id)?;
        self.candidate(&offer.successor)?;
        let dates = texts::NotAcquired {
            member_since: since,
            determined_at: offer.determined_at,
            served_on: offer.deadline.as_ref().map(|d| d.served_on),
            last_day: offer.deadline.as_ref().map(|d| d.last_day),
            ended,
        };
        let notice = self.notice(case_id, Some(&offer.successor), &offer.trail);
        if let Some(req) = texts::not_acquired_mail(self.body, &notice, &dates) {
            self.effects.push(Effect::Mail(req));
        }
        Ok(())
    }

    pub(super) fn notified(
        &mut self,
        case_id: &str,
        round: u32,
        kind: MailKind,
        message_id: String,
        sent_at: DateTime<Utc>,
    ) -> Result<(), Rejection> {
        let case = self.case(case_id)?;
        if kind != MailKind::Determination || case.round != round {
            // a mail of an earlier round, or another kind (the not-acquired notice, the period notice): nothing
            // changes; only the notification of the determination is `successor.notified`
            return Ok(());
        }
        let candidate = case.successor().unwrap_or_default().to_owned();
        let data = SuccessorNotified {
            body: self.body.id().into(),
            case: case_id.into(),
            candidate: candidate.into(),
            round,
            message_id,
            sent_at: berlin(sent_at),
        };
        self.emit(&data)?;
        // An e-mail is no formal service (§ 5 Abs. 4, 5, 7 LZG NRW / HVwZG: the fiction of Abs. 7 only for a
        // procedure conducted electronically at the recipient's request): no period starts with it
        // (docs/legal.md, "Service fiction").
        if let Some(o) = self.offer_mut(case_id) {
            o.notified_at = Some(sent_at);
        }
        Ok(())
    }

    pub(super) fn notification_failed(
        &mut self,
        case_id: &str,
        round: u32,
        kind: MailKind,
        reason: String,
    ) -> Result<(), Rejection> {
        let case = self.case(case_id)?;
        if kind != MailKind::Determination || case.round != round {
            // the period notice is for information only: the served letter stands, nobody must act on its loss
            return Ok(());
        }
        let data = NotificationFailed {
            body: self.body.id().into(),
            case: case_id.into(),
            candidate: case.successor().unwrap_or_default().into(),
            round,
            reason,
        };
        self.emit(&data)?;
        if let Some(o) = self.offer_mut(case_id) {
            // the Wahlleiter notifies by other means; the case waits for notification.served
            o.notification_failed = true;
        }
        Ok(())
    }

    pub(super) fn served(&mut self, s: NotificationServed) -> Result<(), Rejection> {
        let case = self.case(&s.case)?.clone();
        self.candidate(&s.candidate)?;
        let today = local_date(self.now);
        if s.on > today {
            return Err(invalid(format!("on: service date {} lies in the future", s.on)));
        }
        // A certificate is applied only to the person it names, in the round it names (docs/legal.md,
        // "Service"): a late certificate for a candidate who refused in round 1 must never start the week
        // of the round-2 successor (§ 45 Abs. 6 Satz 2, 4 KWahlG NRW).
        let round = s.round.unwrap_or(case.round);
        let rejected = if s.method == ServiceMethod::RegisteredLetterMailbox {
            // § 4 Abs. 1 LZG NRW / HVwZG: only the Übergabe-Einschreiben and the Einschreiben mit Rückschein
            // serve; an Einwurf-Einschreiben is no formal service and has no fiction (BVerwG 9 C 7/00). It is
            // part of the file; a proven actual receipt heals it (§ 8: `actual_receipt`).
            Some(ServiceRejection::NoFormalService)
        } else if round != case.round {
            Some(ServiceRejection::RoundMismatch)
        } else if case.successor() != Some(s.candidate.as_str()) {
            Some(ServiceRejection::NotPendingSuccessor)
        } else {
            None
        };
        let record = ServiceRecord {
            candidate: s.candidate.clone(),
            round,
            method: s.method,
            on: s.on,
            recorded_at: self.now,
            rejected,
        };
        if let Some(reason) = rejected {
            self.case_mut(&s.case)?.history.services.push(record);
            let data = ServiceRejected {
                body: self.body.id().into(),
                case: s.case.clone(),
                candidate: s.candidate.clone(),
                round,
                reason,
            };
            return self.emit(&data);
        }
        let offer = match &case.state {
            CaseState::Filled { .. } => {
                // [decision] The successor is already a member: NRW, a valid acceptance that arrived before the
                // service date was known; Hessen, a successor without a bar, for whom no period runs (§ 34 Abs. 3
                // Satz 2 i. V. m. § 23 KWG). The certificate is a normal part of the file: recorded, without
                // effect.
                self.case_mut(&s.case)?.history.services.push(record);
                return Ok(());
            }
            CaseState::Offered(o) => o.clone(),
            _ => return Err(invalid(format!("case: case {:?} has no pending notification", s.case))),
        };
        let sent = local_date(offer.notified_at.unwrap_or(offer.determined_at));
        if s.on < sent {
            return Err(invalid(format!("on: service date {} lies before the notification was sent ({sent})", s.on)));
        }
        let basis = match s.method {
            ServiceMethod::Certificate => ServiceBasis::Certificate,
            ServiceMethod::ReturnReceipt => ServiceBasis::ReturnReceipt,
            ServiceMethod::Acknowledgement => ServiceBasis::Acknowledgement,
            ServiceMethod::RegisteredLetterPosted => ServiceBasis::RegisteredLetterPosted,
            ServiceMethod::ActualReceipt => ServiceBasis::ActualReceipt,
            // refused above
            ServiceMethod::RegisteredLetterMailbox => return Err(Rejection::Internal("no formal service".into())),
        };
        self.case_mut(&s.case)?.history.services.push(record);
        // the latest certificate of the round sets the period
        self.set_deadline(&s.case, &basis, s.on)
    }

    /// The Fristmitteilung to the successor whose period has just been set, while it runs and he has an
    /// e-mail address: the day of service, the end, what happens then, with the period as a calendar entry
    /// (docs/legal.md, "The period notice to the successor").
    fn period_notice(&mut self, case_id: &str, basis: &ServiceBasis) -> Result<(), Rejection> {
        let CaseState::Offered(offer) = &self.case(case_id)?.state else { return Ok(()) };
        let Some(deadline) = &offer.deadline else { return Ok(()) };
        let facts = texts::period::PeriodFacts {
            served: match basis {
                ServiceBasis::RegisteredLetterPosted => texts::period::Served::Deemed,
                ServiceBasis::ActualReceipt => texts::period::Served::Received,
                _ => texts::period::Served::On,
            },
            served_on: deadline.served_on,
            last_day: deadline.last_day,
            ends_at: deadline.ends_at,
            barred: offer.barred,
        };
        let notice = self.notice(case_id, Some(&offer.successor), &offer.trail);
        if let Some(req) = texts::period::period_notice_mail(self.body, &notice, &facts) {
            self.effects.push(Effect::Mail(req));
        }
        Ok(())
    }

    pub(super) fn set_deadline(&mut self, case_id: &str, basis: &ServiceBasis, on: NaiveDate) -> Result<(), Rejection> {
        let barred = matches!(&self.case(case_id)?.state, CaseState::Offered(o) if o.barred);
        if !self.by_declaration() && !barred {
            return Ok(()); // a member with the determination: no period runs for a successor without a bar
        }
        let deadline = self.week(basis, on);
        let case = self.case(case_id)?;
        let (round, candidate) = (case.round, case.successor().unwrap_or_default().to_owned());
        let data = DeadlineSet {
            body: self.body.id().into(),
            case: case_id.into(),
            candidate: candidate.into(),
            round,
            served_on: deadline.served_on,
            last_day: deadline.last_day,
            ends_at: berlin(deadline.ends_at),
            trail: deadline.trail.clone(),
        };
        let timer = Timer::deadline(case_id, round);
        let due_at = deadline.ends_at + self.grace();
        self.effects.push(Effect::Schedule { timer, due_at });
        if let Some(o) = self.offer_mut(case_id) {
            o.deadline = Some(deadline);
        }
        self.emit(&data)?;
        // declarations held while the service date was unknown are decided now; if the period has already
        // ended, its deemed effect applies at once (dated at its end)
        self.release_held(case_id)?;
        let still_open =
            matches!(&self.case(case_id)?.state, CaseState::Offered(_)) && self.case(case_id)?.round == round;
        if still_open && self.now >= due_at {
            self.deadline_expired(case_id, round)?;
        } else if still_open {
            // no mail once the period has ended (the notice checks its end, not the grace after it)
            self.period_notice(case_id, basis)?;
        }
        Ok(())
    }
}
