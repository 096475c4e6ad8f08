//! Facts recorded about candidates during a case (`candidate.fact_recorded`). A fact about a case's pending
//! successor is never stored silently: it acts exactly as its command would, or it is refused with a reason
//! that names the command to use (docs/legal.md, "Facts about the pending successor").

use super::*;

impl Machine<'_> {
    pub(super) fn record_fact(&mut self, f: FactRecorded) -> Result<(), Rejection> {
        let c = self.candidate(&f.candidate)?;
        if matches!(f.fact, Fact::FormerMember { .. }) && c.seat.is_some() {
            return Err(invalid("fact: a candidate who holds a seat cannot be recorded as former_member"));
        }
        // § 47 Abs. 1 Satz 2, 3 KWG LSA: as in the snapshot's validation
        if matches!(f.fact, Fact::PartyNotice { .. }) && !f.fact.allowed_in(self.body.land()) {
            return Err(invalid(
                "fact: party_notice is a fact of Sachsen-Anhalt (§ 47 Abs. 1 Satz 2 KWG LSA), Niedersachsen (§ 44 Abs. 2 NKWG), Mecklenburg-Vorpommern (§ 46 Abs. 2 Satz 3 Nr. 1 LKWG M-V) and Brandenburg (§ 60 Abs. 4 BbgKWahlG)",
            ));
        }
        // § 47 Abs. 1 LKWG M-V, § 46 Abs. 1 KWG, § 62 Abs. 1, 2 BbgKWahlG: as in the snapshot's validation
        if matches!(f.fact, Fact::BannedPartyMember { .. }) && !f.fact.allowed_in(self.body.land()) {
            return Err(invalid(format!("fact: {}", crate::model::BANNED_PARTY_MEMBER_ONLY)));
        }
        // § 46 Abs. 2 Satz 5 LKWG M-V, § 45 Abs. 4 NKWG: as in the snapshot's validation
        if let Fact::SubstituteStatusLost { .. } = f.fact {
            if !f.fact.allowed_in(self.body.land()) {
                return Err(invalid(format!("fact.ground: {}", crate::model::STATUS_LOSS_GROUND_ONLY)));
            }
        }
        if let Fact::Ineligible { from, until: Some(until) } = f.fact {
            if until < from {
                return Err(invalid("fact.until: lies before fact.from"));
            }
        }
        let pending = self.cases.values().find(|c| c.pending_successor() == Some(f.candidate.as_str())).cloned();
        let Some(case) = pending else {
            if let Some(c) = self.body.candidate_mut(&f.candidate) {
                c.facts.push(f.fact);
            }
            return Ok(());
        };
        self.pending_fact(&case, &f.candidate, f.fact)
    }

    /// A fact about the pending successor of `case`: a member (Hessen, a barred successor waiting for his
    /// proof) leaves only through a new vacancy; a successor who is not a member yet (NRW, or any proposed
    /// one) is passed over when the Land's rules now pass him over (§ 45 Abs. 2 Satz 2, Abs. 3 KWahlG NRW;
    /// § 34 Abs. 2 KWG), and the next round follows at once.
    fn pending_fact(&mut self, case: &Case, candidate: &str, fact: Fact) -> Result<(), Rejection> {
        let member = matches!(case.state, CaseState::Offered(_)) && !self.by_declaration();
        let who = format!("fact: {candidate:?} is the pending successor of case {:?}", case.id);
        // The council resolves on the named successor (`Acceptance::ByLaw` with `council_determines`, BW § 29
        // Abs. 5, § 16 Abs. 2 GemO): a Hinderungsgrund it finds (`barred`) or a refusal it accepts as justified
        // (`declined`) is its resolution, and the rules are asked again below.
        let council = matches!(case.state, CaseState::Proposed(_)) && self.council_determines();
        match &fact {
            Fact::Declined { .. } | Fact::Barred { .. } if council => {}
            Fact::Declined { .. } if member => {
                return Err(invalid(format!(
                    "{who} and already a member: giving up the seat is a new vacancy — send vacancy.reported"
                )))
            }
            Fact::Declined { .. } => {
                return Err(invalid(format!(
                    "{who}: his refusal must be recorded with declaration.received (kind refuse, received_at), which checks the period"
                )))
            }
            Fact::BarCured { .. } => {
                return Err(invalid(format!("{who}: the proof that the bar ended is recorded with bar.cured (proven_at)")))
            }
            Fact::Barred { .. } | Fact::FormerMember { .. } => {
                return Err(invalid(format!(
                    "{who}: a {} fact would change the determination already made — correct it with review.decided, or record it once the case is settled",
                    fact.kind()
                )))
            }
            _ if member => {
                return Err(invalid(format!(
                    "{who} and already a member since the determination: a {} fact is a new vacancy (loss of the seat) — send vacancy.reported",
                    fact.kind()
                )))
            }
            _ => {}
        }
        // not a member yet: does the fact pass him over under the Land's rules, judged now?
        if let Some(c) = self.body.candidate_mut(candidate) {
            c.facts.push(fact.clone());
        }
        let pending = pending_successors(self.cases).filter(|(_, c)| *c != case.id).map(|(s, _)| s).collect();
        let cause = Cause::of(case.reason, case.list_banned).map_err(|e| invalid(e.to_string()))?;
        let query = Query {
            departed: &case.departed,
            departed_via: case.departed_via,
            at: self.now,
            lot_winner: None,
            pending,
            cause,
        };
        let passed_over = match self.body.decide(&query) {
            Ok(d) => d.trail.iter().any(|s| s.candidate.as_deref() == Some(candidate) && s.verdict == Verdict::Skipped),
            Err(e) => return Err(invalid(e.to_string())),
        };
        if !passed_over {
            return Err(invalid(format!(
                "{who}: a {} fact does not pass him over under the rules (e.g. a waiver not in the required form, or an ineligibility that has not begun); a refusal is recorded with declaration.received",
                fact.kind()
            )));
        }
        self.effects.push(Effect::Cancel { timer: Timer::deadline(&case.id, case.round) });
        self.determine(&case.id, None)
    }
}
