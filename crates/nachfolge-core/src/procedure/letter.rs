//! The formal letter to the successor of a case's current offer, for service (Zustellung): the e-mail of
//! the determination ([`texts::determination_mail`]) as it reads today, in its letter form. The console
//! prints it (`GET /raete/{body}/faelle/{case}/schreiben.pdf`, docs/console.md "Documents").

use super::announce::notice_of;
use super::*;

impl Council {
    /// The letter to the successor offered in case `case_id`, dated `now`: the determination mail's
    /// request with `letter: true` in its context (the templates then leave out what only an e-mail says —
    /// that it does not replace the formal service — and the Aktenzeichen line, which the letter's
    /// information block carries: [`texts::letter::letter_frame`]). `None` unless the case waits for the
    /// offered successor (`CaseState::Offered`): only there does a service start a period.
    pub fn determination_letter(&self, case_id: &str, now: DateTime<Utc>) -> Option<MailRequest> {
        let case = self.cases.get(case_id)?;
        let CaseState::Offered(offer) = &case.state else { return None };
        let notice = notice_of(&self.cases, case_id, Some(offer.successor.as_str()), &offer.trail, now);
        let mut mail = texts::determination_mail(&self.body, &notice)?;
        mail.context.as_object_mut()?.insert("letter".into(), Value::Bool(true));
        Some(mail)
    }
}
