//! The vacancy and the determination (Feststellung): a case is opened for a vacancy, the Land's rule set
//! decides, and the successor is offered the seat or becomes a member with the determination; a tie in a
//! majority election waits for the lot (`lot.drawn`).

use super::*;

impl Machine<'_> {
    pub(super) fn open_case(&mut self, v: VacancyReported) -> Result<(), Rejection> {
        let (seat, _) = check_vacancy(self.body, &v)?;
        // Hessen: a barred successor is a member (without voting right) while his case waits for the proof
        // (§ 34 Abs. 3 Satz 2 i. V. m. § 23 Abs. 2 KWG). If he leaves before that, his departure is the new
        // trigger (§ 34 Abs. 1 Satz 1): the earlier case is closed with his membership, and its timer cancelled,
        // so that the end of his period does not determine a second successor for the same seat.
        let superseded: Vec<(CaseId, u32, Offer)> = self
            .cases
            .values()
            .filter_map(|c| match &c.state {
                CaseState::Offered(o) if o.successor == v.member => Some((c.id.clone(), c.round, o.clone())),
                _ => None,
            })
            .collect();
        for (case_id, round, o) in superseded {
            self.effects.push(Effect::Cancel { timer: Timer::deadline(&case_id, round) });
            let since = o.member_since.unwrap_or(o.determined_at);
            self.case_mut(&case_id)?.state =
                CaseState::Filled { successor: o.successor, since, basis: MembershipBasis::Determination };
        }
        // a member proposed for another seat and not yet confirmed leaves: that proposal is moot (Baden-Württemberg:
        // the holder of a weiterer Sitz proposed to move into his Wohnbezirk's seat, § 31 Abs. 2 Satz 2 GemO — the
        // only proposal that names a member); it is made again once his departure is recorded
        let moot: Vec<CaseId> = self
            .cases
            .values()
            .filter(|c| matches!(&c.state, CaseState::Proposed(p) if p.successor == v.member))
            .map(|c| c.id.clone())
            .collect();
        let effective_at = v.effective_at.with_timezone(&Utc);
        record_departure(self.body, &v);
        let id = self.new_case(&v.member, v.reason, v.list_banned, effective_at, seat.via);
        let membership = self.membership(
            &id,
            &v.member,
            MembershipChange::Left,
            MembershipBasis::Vacancy,
            effective_at,
            false,
            Some(seat.since),
        );
        self.emit(&membership)?;
        self.determine(&id, None)?;
        for case_id in moot {
            self.determine(&case_id, None)?;
        }
        Ok(())
    }

    /// Open the council's next case for the seat `departed` held (`via`) on his list, free from `effective_at`;
    /// its id.
    fn new_case(
        &mut self,
        departed: &str,
        reason: DepartureReason,
        list_banned: Option<bool>,
        effective_at: DateTime<Utc>,
        via: SeatVia,
    ) -> CaseId {
        let list = self.body.list_of(departed).map(|l| l.id.clone()).unwrap_or_default();
        *self.case_seq += 1;
        let id = CaseId::from(format!("{}-{}", self.body.id(), self.case_seq));
        let case = Case {
            id: id.clone(),
            departed: departed.into(),
            list,
            reason,
            list_banned,
            effective_at,
            departed_via: Some(via),
            opened_at: self.now,
            round: 0,
            state: CaseState::AwaitingLot { tied: vec![] },
            refused: vec![],
            history: CaseHistory::default(),
        };
        self.cases.insert(id.clone(), case);
        id
    }

    pub(super) fn vacancy_ref(&self, case: &Case) -> VacancyRef {
        VacancyRef { member: case.departed.clone(), reason: case.reason, effective_at: berlin(case.effective_at) }
    }

    /// Determine the successor for the next round of a case (Feststellung).
    pub(super) fn determine(&mut self, case_id: &str, lot_winner: Option<&str>) -> Result<(), Rejection> {
        let case = self.case(case_id)?.clone();
        let round = if lot_winner.is_some() { case.round } else { case.round + 1 };
        // the pending successors of the other open cases count as called; this case's own does not
        let pending = pending_successors(self.cases).filter(|(_, c)| *c != case_id).map(|(s, _)| s).collect();
        // checked when the case was opened (`check_vacancy`)
        let cause = Cause::of(case.reason, case.list_banned).map_err(|e| invalid(e.to_string()))?;
        let query = Query {
            departed: &case.departed,
            departed_via: case.departed_via,
            at: self.now,
            lot_winner,
            pending,
            cause,
        };
        let decision = self.body.decide(&query).map_err(|e| invalid(e.to_string()))?;
        let mut trail = decision.trail;
        // § 34 Abs. 1a KWG: who drew the lot, and when
        if let Some(lot) = lot_winner.and_then(|w| case.history.lots.iter().rev().find(|l| l.winner == w)) {
            if let Some(i) = trail.iter().position(|s| s.reason == "won_lot") {
                let detail = format!("drawn by {} at {}", lot.drawn_by, lot.drawn_at.to_rfc3339());
                let step = TrailStep::new(Some(&lot.winner), Verdict::Noted, "lot_drawn", trail[i].citation.clone());
                trail.insert(i + 1, step.with_detail(detail));
            }
        }
        // Hessen: the successor of an earlier round whose membership is deemed not acquired (§ 23 Abs. 2 Satz 3
        // KWG) was called, but "ist bereits berufen" would tell him a seat he never held: say why (issue 27)
        if self.procedure().acceptance == Acceptance::WithDetermination {
            for step in trail.iter_mut().filter(|s| s.verdict == Verdict::Skipped && s.reason == "already_called") {
                if step.candidate.as_deref().is_some_and(|c| case.refused.iter().any(|r| r == c)) {
                    step.reason = "membership_not_acquired".into();
                    step.citation = "§ 34 Abs. 1 Satz 1, Abs. 3 Satz 2 KWG i. V. m. § 23 Abs. 2 Satz 3 KWG".into();
                }
            }
        }
        // refusals in this case are irrevocable: they are already in the facts (declined); note them
        if let (false, Some(citation)) = (case.refused.is_empty(), self.procedure().next_round_citation) {
            trail.insert(0, TrailStep::new(None, Verdict::Noted, format!("round_{round}"), citation));
        }
        let vacancy = self.vacancy_ref(&case);
        match decision.outcome {
            Outcome::LotRequired { tied } => {
                self.case_mut(case_id)?.round = round;
                self.case_mut(case_id)?.state =
                    CaseState::AwaitingLot { tied: tied.clone().into_iter().map(Into::into).collect() };
                let data = LotRequested {
                    body: self.body.id().into(),
                    case: case_id.into(),
                    tied: tied.into_iter().map(Into::into).collect(),
                    round,
                    trail,
                };
                self.emit(&data)?;
            }
            Outcome::Vacant { reason, statutory_size } => {
                self.body.snapshot.body.statutory_size = statutory_size;
                let c = self.case_mut(case_id)?;
                c.round = round;
                c.state = CaseState::Vacant { reason };
                let data = SeatLeftVacant {
                    body: self.body.id().into(),
                    case: case_id.into(),
                    vacancy,
                    reason,
                    statutory_size,
                    round,
                    trail: trail.clone(),
                    organization: Some(self.organization()),
                };
                self.emit(&data)?;
                // after a Hessen merger nobody determines or announces anything (§ 33 Abs. 1 Nr. 4 KWG)
                if reason.is_determined() {
                    self.announce(case_id, AnnouncementKind::Vacancy, None, &trail);
                }
            }
            Outcome::Successor { candidate, list, barred }
                if self.body.info().determination == DeterminationMode::Confirm || self.council_determines() =>
            {
                self.propose(case_id, round, candidate, list, barred, trail)?;
            }
            Outcome::Successor { candidate, list, barred } => {
                let since = self.now.max(case.effective_at);
                let at = self.now;
                let install =
                    Installation { round, candidate, list, barred, trail, since, announce: true, at, by: None };
                self.install(case_id, install)?;
            }
        }
        Ok(())
    }

    /// Prepare the determination for the returning officer (`determination: confirm`): nothing takes effect
    /// until `determination.confirmed` (§ 45 Abs. 6 Satz 1 KWahlG NRW, § 34 Abs. 3 Satz 1 KWG; docs/legal.md,
    /// "The returning officer determines").
    pub(super) fn propose(
        &mut self,
        case_id: &str,
        round: u32,
        candidate: String,
        list: String,
        barred: bool,
        trail: Vec<TrailStep>,
    ) -> Result<(), Rejection> {
        let case = self.case(case_id)?.clone();
        let data = SuccessionProposed {
            body: self.body.id().into(),
            case: case_id.into(),
            vacancy: self.vacancy_ref(&case),
            successor: self.person(&candidate),
            round,
            barred,
            trail: trail.clone(),
        };
        let proposed_at = self.now;
        let c = self.case_mut(case_id)?;
        c.round = round;
        c.state = CaseState::Proposed(Proposal { successor: candidate.into(), list, barred, proposed_at, trail });
        self.emit(&data)
    }

    /// `determination.confirmed`: the returning officer determines the proposed successor; the determination
    /// is dated `confirmed_at`, and the notice, the period and (Hessen) the membership follow from it. A
    /// confirmation for another round, or while no proposal waits, is recorded and answered with
    /// `confirmation.rejected`.
    pub(super) fn confirmed(&mut self, c: DeterminationConfirmed) -> Result<(), Rejection> {
        let case = self.case(&c.case)?.clone();
        if c.confirmed_by.trim().is_empty() {
            return Err(invalid("confirmed_by: must not be empty"));
        }
        let at = c.confirmed_at.with_timezone(&Utc);
        if at > self.now + chrono::Duration::minutes(5) {
            return Err(invalid("confirmed_at: lies in the future"));
        }
        let reason = match &case.state {
            _ if c.round != case.round => Some(ConfirmationRejection::StaleRound),
            CaseState::Proposed(_) => None,
            _ => Some(ConfirmationRejection::NotProposed),
        };
        if let Some(reason) = reason {
            let data = ConfirmationRejected {
                body: self.body.id().into(),
                case: c.case.clone(),
                round: c.round,
                confirmed_by: c.confirmed_by.clone(),
                reason,
            };
            return self.emit(&data);
        }
        let CaseState::Proposed(p) = case.state else { return Ok(()) };
        if at < p.proposed_at {
            return Err(invalid(format!(
                "confirmed_at: lies before the proposal ({})",
                berlin(p.proposed_at).to_rfc3339()
            )));
        }
        let since = at.max(case.effective_at);
        let install = Installation {
            round: case.round,
            candidate: p.successor.into(),
            list: p.list,
            barred: p.barred,
            trail: p.trail,
            since,
            announce: true,
            at,
            by: Some(c.confirmed_by),
        };
        self.install(&c.case, install)
    }

    /// Determine the successor in round `i.round` (NRW: the offer with the acceptance procedure, § 45 Abs. 6
    /// Satz 2; Hessen: membership with the determination from `i.since`, § 34 Abs. 3 Satz 2 i. V. m. § 23 KWG).
    pub(super) fn install(&mut self, case_id: &str, i: Installation) -> Result<(), Rejection> {
        let Installation { round, candidate, list, barred, trail, since, announce, at, by } = i;
        let candidate = candidate.as_str();
        let case = self.case(case_id)?.clone();
        let vacancy = self.vacancy_ref(&case);
        let offer = Offer {
            successor: candidate.into(),
            list,
            determined_at: at,
            barred,
            notified_at: None,
            notification_failed: false,
            deadline: None,
            accepted_at: None,
            proven_at: None,
            member_since: None,
            trail: trail.clone(),
            held: vec![],
        };
        {
            let c = self.case_mut(case_id)?;
            c.round = round;
            c.state = CaseState::Offered(offer);
        }
        let data = SuccessionDetermined {
            body: self.body.id().into(),
            case: case_id.into(),
            vacancy,
            successor: self.person(candidate),
            round,
            barred,
            determined_at: berlin(at),
            confirmed_by: by,
            trail: trail.clone(),
        };
        self.emit(&data)?;
        // a successor who already holds a seat moves into this one (Baden-Württemberg: the holder of a weiterer
        // Sitz, § 31 Abs. 2 Satz 2 GemO, or of a Kreistag's Ausgleichssitz, § 25 Abs. 2 Satz 2 LKrO — the only rules
        // that name a seated member); his own seat falls free
        if let Some(seat) = self.body.candidate(candidate).and_then(|c| c.seat.clone()) {
            let mv = Move { candidate: candidate.to_owned(), from: seat, since, barred, announce };
            return self.move_up(case_id, mv, &trail);
        }
        match self.procedure().acceptance {
            Acceptance::Declaration | Acceptance::ExpressDeclaration => {
                self.mail(case_id, &trail)?;
                if announce && self.announce_at_determination() {
                    self.announce(case_id, AnnouncementKind::Successor, Some(candidate), &trail);
                }
            }
            Acceptance::ByLaw { .. } => {
                // § 31 Abs. 2 Satz 1 GemO BW: he moves up by law; no acceptance, no period. With
                // `council_determines` this runs on the council's resolution (`determination.confirmed`).
                let via = self.case(case_id)?.departed_via;
                self.seat(candidate, since, via);
                if let Some(o) = self.offer_mut(case_id) {
                    o.member_since = Some(since);
                }
                let m = self.membership(
                    case_id,
                    candidate,
                    MembershipChange::Joined,
                    MembershipBasis::Determination,
                    since,
                    !barred,
                    None,
                );
                self.emit(&m)?;
                // the letter (and an announcement, where the Land has one) tells of the determination made
                self.mail(case_id, &trail)?;
                if announce {
                    self.announce(case_id, AnnouncementKind::Successor, Some(candidate), &trail);
                }
                self.case_mut(case_id)?.state =
                    CaseState::Filled { successor: candidate.into(), since, basis: MembershipBasis::Determination };
            }
            Acceptance::WithDetermination => {
                // § 23 KWG (since 2005): membership with the determination, not before the departure
                let via = self.case(case_id)?.departed_via;
                self.seat(candidate, since, via);
                if let Some(o) = self.offer_mut(case_id) {
                    o.member_since = Some(since);
                }
                let m = self.membership(
                    case_id,
                    candidate,
                    MembershipChange::Joined,
                    MembershipBasis::Determination,
                    since,
                    !barred,
                    None,
                );
                self.emit(&m)?;
                self.mail(case_id, &trail)?;
                if announce {
                    self.announce(case_id, AnnouncementKind::Successor, Some(candidate), &trail);
                }
                if !barred {
                    self.case_mut(case_id)?.state =
                        CaseState::Filled { successor: candidate.into(), since, basis: MembershipBasis::Determination };
                }
            }
        }
        Ok(())
    }

    /// A member moves into the case's seat (§ 31 Abs. 2 Satz 2 GemO, § 25 Abs. 2 Satz 2 LKrO): no acceptance, no
    /// period — he is a member already. His membership goes on (`membership.changed` `updated`, its start
    /// unchanged), he is told of the move, and the seat he gave up opens a case of its own (reason `moved_up`,
    /// `departed_via` his old seat), which the rules fill from that seat's Ersatzpersonen (§ 26 Abs. 2 Satz 5 KomWG
    /// for a weiterer Sitz, § 46 Abs. 3 KomWO for a Kreistag's Ausgleichssitz).
    fn move_up(&mut self, case_id: &str, mv: Move, trail: &[TrailStep]) -> Result<(), Rejection> {
        let Move { candidate, from, since, barred, announce } = mv;
        let via = self.law.successor_seat_via(self.case(case_id)?.departed_via);
        if let Some(seat) = self.body.candidate_mut(&candidate).and_then(|c| c.seat.as_mut()) {
            seat.via = via;
        }
        if let Some(o) = self.offer_mut(case_id) {
            o.member_since = Some(since);
        }
        let m = self.membership(
            case_id,
            &candidate,
            MembershipChange::Updated,
            MembershipBasis::Determination,
            since,
            !barred,
            Some(from.since),
        );
        self.emit(&m)?;
        self.mail(case_id, trail)?;
        if announce {
            self.announce(case_id, AnnouncementKind::Successor, Some(&candidate), trail);
        }
        self.case_mut(case_id)?.state =
            CaseState::Filled { successor: candidate.clone().into(), since, basis: MembershipBasis::Determination };
        // the seat he gave up
        let id = self.new_case(&candidate, DepartureReason::MovedUp, None, since, from.via);
        self.case_mut(case_id)?.history.seat_move =
            Some(SeatMove { member: candidate.into(), from: from.via, follow_on: id.clone() });
        self.determine(&id, None)?;
        // the seat fell free with the move: the council may resolve on its successor from then on, in the same
        // session as on the move (`determination.confirmed` is refused only before the proposal)
        if let CaseState::Proposed(p) = &mut self.case_mut(&id)?.state {
            p.proposed_at = p.proposed_at.min(since);
        }
        Ok(())
    }

    /// Seat a successor; how his seat is recorded is the Land's (`LandLaw::successor_seat_via`).
    pub(super) fn seat(&mut self, candidate: &str, since: DateTime<Utc>, departed_via: Option<SeatVia>) {
        let via = self.law.successor_seat_via(departed_via);
        if let Some(c) = self.body.candidate_mut(candidate) {
            c.seat = Some(Seat { since: local_date(since), via });
        }
    }

    pub(super) fn lot_drawn(&mut self, l: LotDrawn) -> Result<(), Rejection> {
        let case = self.case(&l.case)?;
        let CaseState::AwaitingLot { tied } = &case.state else {
            return Err(invalid(format!("case: case {:?} is not waiting for a lot", l.case)));
        };
        if !tied.contains(&l.winner) {
            return Err(invalid(format!("winner: {:?} is not one of the tied candidates", l.winner)));
        }
        let round = case.round;
        if l.drawn_by.trim().is_empty() {
            return Err(invalid("drawn_by: must not be empty"));
        }
        if l.drawn_at.with_timezone(&Utc) > self.now + chrono::Duration::minutes(5) {
            return Err(invalid("drawn_at: lies in the future"));
        }
        let winner = l.winner.clone();
        let record = LotRecord { round, winner: l.winner, drawn_by: l.drawn_by, drawn_at: l.drawn_at };
        self.case_mut(&l.case)?.history.lots.push(record);
        self.determine(&l.case, Some(&winner))
    }
}

/// A member who moves into the case's seat ([`Machine::move_up`]).
struct Move {
    candidate: String,
    /// The seat he holds until the move.
    from: Seat,
    since: DateTime<Utc>,
    barred: bool,
    announce: bool,
}

/// A determination to carry out ([`Machine::install`]).
pub(super) struct Installation {
    pub round: u32,
    pub candidate: String,
    pub list: String,
    pub barred: bool,
    pub trail: Vec<TrailStep>,
    /// Hessen: membership from here (the determination, not before the predecessor's departure).
    pub since: DateTime<Utc>,
    /// Issue the successor announcement where the determination issues it.
    pub announce: bool,
    /// When the determination was made (`determined_at`).
    pub at: DateTime<Utc>,
    /// Who confirmed it (`determination: confirm`).
    pub by: Option<String>,
}
