//! Facts recorded about candidates during a case (`candidate.fact_recorded`): a pending NRW successor who
//! dies or loses eligibility before his membership starts is passed over (§ 45 Abs. 2 Satz 2 KWahlG NRW).

use super::*;

impl Machine<'_> {
    pub(super) fn record_fact(&mut self, f: FactRecorded) -> Result<(), Rejection> {
        let c = self.candidate(&f.candidate)?;
        if matches!(f.fact, Fact::FormerMember { .. }) && c.seat.is_some() {
            return Err(invalid("fact: a candidate who holds a seat cannot be recorded as former_member"));
        }
        if let Fact::Ineligible { from, until: Some(until) } = f.fact {
            if until < from {
                return Err(invalid("fact.until: lies before fact.from"));
            }
        }
        let lapses = matches!(f.fact, Fact::Died { .. })
            || matches!(f.fact, Fact::Ineligible { from, until } if from <= local_date(self.now) && until.is_none_or(|u| u >= local_date(self.now)));
        if let Some(c) = self.body.candidate_mut(&f.candidate) {
            c.facts.push(f.fact);
        }
        // NRW § 45 Abs. 2 Satz 2: the pending successor died or lost eligibility before his membership
        // started → next. An offered NRW successor is never a member yet: also a barred one who accepted but
        // has not proved the end of the incompatibility (§ 69 Abs. 2 i. V. m. § 62 Nr. 5 KWahlO) — waiting
        // for the end of his period would only delay the next determination.
        if lapses && self.by_declaration() {
            let pending: Vec<String> = self
                .cases
                .values()
                .filter(|c| matches!(&c.state, CaseState::Offered(o) if o.successor == f.candidate))
                .map(|c| c.id.clone())
                .collect();
            for case in pending {
                let round = self.case(&case)?.round;
                self.effects.push(Effect::Cancel { timer: Timer::deadline(&case, round) });
                self.determine(&case, None)?;
            }
        }
        Ok(())
    }
}
