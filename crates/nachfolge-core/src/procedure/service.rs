//! Notice and service: the e-mail to the successor, its result, the service date (`notification.served`),
//! and the one-week period that starts with it.

use super::*;

impl Machine<'_> {
    /// The e-mail to the determined successor (NRW: the acceptance request; Hessen: the determination, for
    /// a barred successor with the proof request).
    pub(super) fn mail(&mut self, case_id: &str, trail: &[TrailStep]) -> Result<(), Rejection> {
        let case = self.case(case_id)?;
        let Some(successor) = case.successor().map(str::to_owned) else { return Ok(()) };
        let round = case.round;
        let context = self.context(case_id, Some(&successor), trail);
        let c = self.candidate(&successor)?;
        let info = self.body.info();
        let procedure = self.procedure();
        let texts = &procedure.texts;
        let subject =
            if c.is_barred_at(local_date(self.now)) { texts.barred_subject } else { texts.determination_subject };
        let subject = Texts::with_name(subject, &info.name);
        let req = MailRequest {
            case: case_id.to_owned(),
            round,
            candidate: successor.clone(),
            to: c.email.clone(),
            reply_to: info.returning_officer.email.clone(),
            template: procedure.determination_mail.to_owned(),
            subject,
            context,
        };
        self.effects.push(Effect::Mail(req));
        Ok(())
    }

    pub(super) fn notified(
        &mut self,
        case_id: &str,
        round: u32,
        message_id: String,
        sent_at: DateTime<Utc>,
    ) -> Result<(), Rejection> {
        let case = self.case(case_id)?;
        if case.round != round {
            return Ok(()); // a mail of an earlier round: nothing changes
        }
        let candidate = case.successor().unwrap_or_default().to_owned();
        let data = SuccessorNotified {
            body: self.body.id().to_owned(),
            case: case_id.to_owned(),
            candidate: candidate.clone(),
            round,
            message_id,
            sent_at: berlin(sent_at),
        };
        self.emit(&data)?;
        let fiction = self.settings.email_fiction_days;
        let Some(o) = self.offer_mut(case_id) else { return Ok(()) };
        o.notified_at = Some(sent_at);
        if o.deadline.is_none() {
            if let Some(days) = fiction {
                self.set_deadline(case_id, &ServiceBasis::Email { fiction_days: days }, local_date(sent_at))?;
            }
        }
        Ok(())
    }

    pub(super) fn notification_failed(&mut self, case_id: &str, round: u32, reason: String) -> Result<(), Rejection> {
        let case = self.case(case_id)?;
        if case.round != round {
            return Ok(());
        }
        let data = NotificationFailed {
            body: self.body.id().to_owned(),
            case: case_id.to_owned(),
            candidate: case.successor().unwrap_or_default().to_owned(),
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
        let filled = matches!(self.case(&s.case)?.state, CaseState::Filled { .. });
        let today = local_date(self.now);
        if s.on > today {
            return Err(invalid(format!("on: service date {} lies in the future", s.on)));
        }
        if filled {
            // [decision] The successor is already a member: NRW, a valid acceptance that arrived before the
            // service date was known (docs/contract.md, "Declarations that cannot take effect"); Hessen, a successor without a bar, for whom no
            // period runs (§ 34 Abs. 3 Satz 2 i. V. m. § 23 KWG). The certificate is a normal part of the
            // file, not an error: taken without effect instead of being dead-lettered.
            return Ok(());
        }
        let Some(o) = self.offer_mut(&s.case) else {
            return Err(invalid(format!("case: case {:?} has no pending notification", s.case)));
        };
        let sent = local_date(o.notified_at.unwrap_or(o.determined_at));
        if s.on < sent {
            return Err(invalid(format!("on: service date {} lies before the notification was sent ({sent})", s.on)));
        }
        let basis = match s.method {
            ServiceMethod::Certificate => ServiceBasis::Certificate,
            ServiceMethod::ReturnReceipt => ServiceBasis::ReturnReceipt,
            ServiceMethod::Acknowledgement => ServiceBasis::Acknowledgement,
            ServiceMethod::RegisteredLetterPosted => ServiceBasis::RegisteredLetterPosted,
        };
        // an explicit service message overrides the fiction
        self.set_deadline(&s.case, &basis, s.on)
    }

    pub(super) fn set_deadline(&mut self, case_id: &str, basis: &ServiceBasis, on: NaiveDate) -> Result<(), Rejection> {
        let land = self.body.land();
        let barred = matches!(&self.case(case_id)?.state, CaseState::Offered(o) if o.barred);
        if !self.by_declaration() && !barred {
            return Ok(()); // a member with the determination: no period runs for a successor without a bar
        }
        let deadline = one_week_deadline(basis, on, land, self.settings.fixed_end_date);
        let case = self.case(case_id)?;
        let (round, candidate) = (case.round, case.successor().unwrap_or_default().to_owned());
        let data = DeadlineSet {
            body: self.body.id().to_owned(),
            case: case_id.to_owned(),
            candidate,
            round,
            served_on: deadline.served_on,
            last_day: deadline.last_day,
            ends_at: berlin(deadline.ends_at),
            trail: deadline.trail.clone(),
        };
        let timer = Timer::deadline(case_id, round);
        let due_at = deadline.ends_at + self.settings.deadline_grace;
        self.effects.push(Effect::Schedule { timer, due_at });
        if let Some(o) = self.offer_mut(case_id) {
            o.deadline = Some(deadline);
        }
        self.emit(&data)?;
        Ok(())
    }
}
