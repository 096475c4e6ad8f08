//! The Länder: which law applies to a council, and the one place where a Land is registered.
//!
//! Every Land implements [`LandLaw`] in a file of its own (`land/nw.rs`, `land/he.rs`): who succeeds (its
//! rule set under `rules/`), its public holidays and the acts its periods and service are cited from, and
//! the [`Procedure`] that follows a determination. The procedure (`crate::procedure`) never asks *which*
//! Land a council belongs to, only what its law says; adding a Land is a new file per concern plus one
//! line in [`Land::law`] (docs/architecture.md, "Adding a Land").

mod bb;
mod bw;
mod by;
mod fassung;
mod he;
/// What the end of a period does under a Land's law (`Lapse`): the one decision the procedure applies and
/// the letters announce.
pub mod lapse;
mod mv;
mod ni;
mod nw;
mod rp;
mod sh;
mod sl;
mod sn;
mod st;
mod th;

use chrono::{DateTime, NaiveDate, Utc};

pub use fassung::Fassung;

use crate::calendar::{berlin, holiday_in, local_date, Holiday};
pub use crate::model::Land;
use crate::model::{Authority, Body, BodyInfo, BodyKind, SeatVia, Snapshot, ValidationError};
/// What a bar does when the period ends (defined with the rules, which read it too).
pub use crate::rules::BarEffect;
use crate::rules::{Areas, Cause, DecideError, Decision, ListOrder, Query, Standing, SuccessionOrder};
use crate::trail::{TrailStep, Verdict};

impl Body {
    /// Validate a snapshot (docs/contract.md, "Validation": the checks every Land shares, then its Land's
    /// own) and build the aggregate.
    pub fn from_snapshot(snapshot: Snapshot) -> Result<Body, ValidationError> {
        crate::model::validate(&snapshot)?;
        validate_local_holidays(&snapshot)?;
        let law = snapshot.body.land.law();
        crate::rules::areas::validate(&snapshot, law.areas(snapshot.body.kind))?;
        law.validate(&snapshot)?;
        Ok(Body::indexed(snapshot))
    }

    /// Determine the successor of `q.departed` under the rule set of the body's Land.
    pub fn decide(&self, q: &Query) -> Result<Decision, DecideError> {
        if self.locate(q.departed).is_none() {
            return Err(DecideError::UnknownMember(q.departed.to_owned()));
        }
        let law = self.land().law();
        law.validate_cause(q.cause).map_err(DecideError::Cause)?;
        let mut d = law.decide(self, q)?;
        // a Kreistag: the norms of the Landkreisordnung in place of the Gemeindeordnung's (docs/legal.md, "Kreistage");
        // the Regionalversammlung Saarbrücken likewise
        let table = law.kind_citations(self.info().kind);
        d.trail.iter_mut().for_each(|step| kreistag_citation(table, &mut step.citation));
        // a Land with more than one Fassung says in the trail which one applied (docs/legal.md, "Fassungen")
        if law.fassungen().len() > 1 {
            let f = self.fassung_at(q.at);
            d.trail.push(TrailStep::new(None, Verdict::Noted, "fassung_applied", f.source).with_detail(f.id));
        }
        Ok(d)
    }

    /// The Fassung of the body's Land's succession rules in force at `at` (its day in Europe/Berlin).
    pub fn fassung_at(&self, at: DateTime<Utc>) -> &'static Fassung {
        self.land().law().fassung_at(local_date(at))
    }

    /// The succession order (Nachrückerliste) of every list, judged at `at`.
    pub fn succession_order(&self, at: DateTime<Utc>) -> SuccessionOrder {
        self.succession_order_with_pending(at, &[])
    }

    /// [`Body::succession_order`] with `pending` — the successors of open cases, offered or proposed another
    /// seat — passed over as a determination at `at` would pass them over (`pending_successor`).
    pub fn succession_order_with_pending(&self, at: DateTime<Utc>, pending: &[&str]) -> SuccessionOrder {
        let q = Query {
            departed: "",
            departed_via: None,
            at,
            lot_winner: None,
            pending: pending.to_vec(),
            cause: Cause::Ordinary,
        };
        let s = Standing::new(self, &q);
        let law = self.land().law();
        let mut lists: Vec<ListOrder> = (0..self.snapshot.lists.len()).map(|l| law.list_order(self, &s, l)).collect();
        let table = law.kind_citations(self.info().kind);
        for l in &mut lists {
            l.passed_over.iter_mut().for_each(|p| kreistag_citation(table, &mut p.citation));
            l.substitutes.iter_mut().for_each(|p| kreistag_citation(table, &mut p.citation));
            l.notes.iter_mut().for_each(|n| kreistag_citation(table, &mut n.citation));
        }
        SuccessionOrder { body: self.id().to_owned(), land: self.land(), at: berlin(at), lists }
    }
}

/// Replace a council citation by the Kreistag's, where the Land's table names one (`LandLaw::kreistag_citations`).
fn kreistag_citation(table: &[(&str, &'static str)], citation: &mut String) {
    if let Some((_, kreistag)) = table.iter().find(|(council, _)| *council == citation.as_str()) {
        *citation = (*kreistag).to_owned();
    }
}

impl Land {
    /// The law of this Land: **the registration point** of a Land.
    pub fn law(self) -> &'static dyn LandLaw {
        match self {
            Land::Nw => &nw::Nw,
            Land::He => &he::He,
            Land::Rp => &rp::Rp,
            Land::Ni => &ni::Ni,
            Land::St => &st::St,
            Land::Th => &th::Th,
            Land::Sh => &sh::Sh,
            Land::By => &by::By,
            Land::Bw => &bw::Bw,
            Land::Sn => &sn::Sn,
            Land::Mv => &mv::Mv,
            Land::Bb => &bb::Bb,
            Land::Sl => &sl::Sl,
        }
    }

    /// The name of the gesetzlicher Feiertag on `d` in this Land, if any.
    pub fn holiday_name(self, d: NaiveDate) -> Option<&'static str> {
        self.law().holiday_name(d)
    }

    /// Whether `d` is a gesetzlicher Feiertag in this Land.
    pub fn is_public_holiday(self, d: NaiveDate) -> bool {
        self.holiday_name(d).is_some()
    }

    /// Whether `d` is a working day (Werktag in the sense of § 31 Abs. 3 Satz 1 VwVfG): neither a
    /// Saturday, a Sunday nor a public holiday of this Land.
    pub fn is_working_day(self, d: NaiveDate) -> bool {
        !crate::calendar::is_weekend(d) && !self.is_public_holiday(d)
    }

    /// The name of the gesetzlicher Feiertag on `d` for a body with the local holidays `local`: the Land's
    /// statewide holidays, then those of its local ones the body observes (docs/legal.md, "Local holidays").
    pub fn holiday_name_in(self, d: NaiveDate, local: LocalHolidays) -> Option<&'static str> {
        self.holiday_name(d).or_else(|| {
            let table = self.law().local_holidays();
            table
                .iter()
                .enumerate()
                .filter(|(i, _)| local.contains(*i))
                .find_map(|(_, h)| holiday_in(&[&[h.holiday]], d))
        })
    }

    /// [`Land::is_working_day`] for a body with the local holidays `local`.
    pub fn is_working_day_in(self, d: NaiveDate, local: LocalHolidays) -> bool {
        !crate::calendar::is_weekend(d) && self.holiday_name_in(d, local).is_none()
    }

    /// All public holidays of this Land in `year`, sorted by date. Empty if the year is outside the
    /// range chrono can represent.
    pub fn holidays(self, year: i32) -> Vec<(NaiveDate, &'static str)> {
        let (Some(first), Some(last)) = (NaiveDate::from_ymd_opt(year, 1, 1), NaiveDate::from_ymd_opt(year, 12, 31))
        else {
            return Vec::new();
        };
        first
            .iter_days()
            .take_while(|d| *d <= last)
            .filter_map(|d| self.holiday_name(d).map(|name| (d, name)))
            .collect()
    }
}

/// What a Land's law says, as far as the worker needs it. Implemented once per Land.
pub trait LandLaw: Sync {
    // --- the snapshot ---------------------------------------------------------------------------------

    /// Land-specific validation of a snapshot (after the checks every Land shares); the error names the
    /// field.
    fn validate(&self, snapshot: &Snapshot) -> Result<(), ValidationError>;

    /// Whether the Land has a rule for a seat freed this way (a party ban: NRW § 46 KWahlG; a merger: Hessen
    /// § 33 Abs. 1 Nr. 4 KWG); the error names the field (`reason`).
    fn validate_cause(&self, cause: Cause) -> Result<(), ValidationError>;

    // --- who succeeds (the rule set, `rules/<land>.rs`) ------------------------------------------------

    /// The Fassungen of the Land's succession rules, oldest first, each with its days in force (default: one,
    /// [`Fassung::CURRENT`], valid from the far past). Declared where the rules changed (NRW: § 45 KWahlG before
    /// and after 2024); docs/architecture.md, "Adding a Land".
    fn fassungen(&self) -> &'static [Fassung] {
        &[Fassung::CURRENT]
    }

    /// The Fassung in force on the reference day `day` (default: picked from [`LandLaw::fassungen`]); the rule
    /// set applies the variant it names in [`LandLaw::decide`] and [`LandLaw::list_order`].
    fn fassung_at(&self, day: NaiveDate) -> &'static Fassung {
        Fassung::pick(self.fassungen(), day)
    }

    /// Determine the successor of `q.departed`, with the trail.
    fn decide(&self, body: &Body, q: &Query) -> Result<Decision, DecideError>;

    /// The Nachrückerliste of list `list` (index into `body.snapshot.lists`): the order in which its
    /// candidates would succeed now, with the same exclusions as [`LandLaw::decide`].
    fn list_order(&self, body: &Body, s: &Standing, list: usize) -> ListOrder;

    // --- deadlines --------------------------------------------------------------------------------------

    /// The holidays the Land's Feiertagsgesetz gives only some municipalities (örtliche Feiertage), by the
    /// code a snapshot names them with in `body.local_holidays` (default: none). Thüringen's and Sachsen's
    /// local Fronleichnam would be one entry each (docs/legal.md, "Local holidays").
    fn local_holidays(&self) -> &'static [LocalHoliday] {
        &[]
    }

    /// The gesetzlicher Feiertag on `d`, if any (the Land's Feiertagsgesetz).
    fn holiday_name(&self, d: NaiveDate) -> Option<&'static str>;

    /// The Land's Verwaltungszustellungsgesetz, as cited (e.g. `LZG NRW`).
    fn service_act(&self) -> &'static str;

    /// A rule of the Land's service act, given by the section of the VwZG it corresponds to (`3`, `4 Abs. 2
    /// Satz 1`, `4 Abs. 2`, `5`, `8`), as cited (default: `§ 3 LZG NRW`; Bayern counts in articles).
    fn service_rule(&self, vwzg: &str) -> String {
        format!("§ {vwzg} {}", self.service_act())
    }

    /// The Land's Verwaltungsverfahrensgesetz, as cited (e.g. `VwVfG NRW`).
    fn procedure_act(&self) -> &'static str;

    /// Whether the Land's law leaves open if its periods end fixed or are extended over weekends and holidays,
    /// so that the body's `readings.period_end` decides; `false`: always extended (Rheinland-Pfalz, § 193 BGB).
    fn period_end_open(&self) -> bool {
        true
    }

    /// The rule that extends a period ending on a Saturday, Sunday or public holiday to the next working
    /// day, as cited (default: § 31 Abs. 3 Satz 1 of the Land's VwVfG).
    fn extension_citation(&self) -> String {
        format!("§ 31 Abs. 3 Satz 1 {}", self.procedure_act())
    }

    /// The rule a moved fiction day rests on (`body.readings.fiction_day = next_working_day`), as cited
    /// (default: § 31 Abs. 3 Satz 1 of the Land's VwVfG, applied by analogy).
    fn fiction_move_citation(&self) -> String {
        format!("§ 31 Abs. 3 Satz 1 {} entsprechend", self.procedure_act())
    }

    // --- the procedure after the determination ---------------------------------------------------------

    /// The acceptance period in weeks after service for a body of kind `kind` (default: one week; a Bayern
    /// council or Kreistag: two weeks, Art. 47 Abs. 2 Satz 1 GLKrWG).
    fn acceptance_weeks(&self, kind: BodyKind) -> u32 {
        let _ = kind;
        1
    }

    /// How the seat of a successor who becomes a member is recorded, given how the departed held it
    /// (default: `succession`). Niedersachsen: the seat keeps how it was won (`personal_vote` or `list`),
    /// which decides its next succession (§ 44 Abs. 4, 5 NKWG; docs/legal.md, "Niedersachsen").
    fn successor_seat_via(&self, _departed_via: Option<SeatVia>) -> SeatVia {
        SeatVia::Succession
    }

    /// Declaration model only: whether membership begins only when the one-week period ends, whatever the
    /// successor declared in it — a written acceptance then has no effect of its own and only a refusal
    /// counts (Schleswig-Holstein § 37 Satz 1 GKWG: "erwirbt die Mitgliedschaft … automatisch nach Ablauf der
    /// Frist …, wenn sie oder er nicht innerhalb der Wochenfrist … die Wahl ablehnt"; docs/legal.md,
    /// "Schleswig-Holstein"). Default `false`: an acceptance starts membership on its receipt.
    fn membership_at_period_end(&self) -> bool {
        false
    }

    /// Declaration model only: a barred successor who proved within the week that he declared the end of his
    /// employment becomes a member, and must prove its actual end within this many calendar months after his
    /// acceptance, else he loses the seat — with the citation (Brandenburg: § 51 Abs. 2 Satz 3, § 59 Abs. 1 Nr. 6
    /// BbgKWahlG; docs/legal.md, "Brandenburg"). The procedure computes the last day and publishes it with the
    /// membership (`membership.changed` `bar_end_proof`); the loss of the seat is a new vacancy the returning
    /// officer reports. Default `None`: the proof within the week is the end of it.
    fn bar_end_proof_months(&self) -> Option<(u32, &'static str)> {
        None
    }

    /// Declaration model only: what the Land's law attaches to the end of the period when a barred successor
    /// (Hinderungsgrund, Unvereinbarkeit) has not proven the end of the bar (default: the election counts as
    /// refused, [`BarEffect::Refusal`]). The procedure applies it and the letters say it, from one decision
    /// (`land::lapse`; docs/legal.md, "What a barred successor is told").
    fn bar_effect(&self) -> BarEffect {
        BarEffect::Refusal
    }

    /// How the procedure runs after a determination for a body of kind `kind` (`body.kind`), with its
    /// citations and wording. Each Land answers for both kinds in its own file: a Kreistag's procedure is the
    /// council's with the norms of the Landkreisordnung and the Kreistag's words (docs/legal.md, "Kreistage").
    fn procedure(&self, kind: BodyKind) -> &'static Procedure;

    /// The citations of the rule set (`decide`, `list_order`) that differ for a Kreistag: pairs of the council's
    /// citation, exactly as the rule set writes it, and the Kreistag's (e.g. Baden-Württemberg `§ 29 Abs. 1, 5
    /// GemO` → `§ 24 LKrO`). Default: none — the election statute the rule set cites applies to both kinds
    /// (NRW, Hessen, Niedersachsen, …; docs/legal.md, "Kreistage").
    fn kreistag_citations(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }

    /// The citations that differ for a body of `kind` other than a council: a Kreistag's
    /// ([`LandLaw::kreistag_citations`]) by default; Saarland's Regionalversammlung has its own.
    fn kind_citations(&self, kind: BodyKind) -> &'static [(&'static str, &'static str)] {
        match kind {
            BodyKind::Kreistag => self.kreistag_citations(),
            BodyKind::Council | BodyKind::Bezirkstag | BodyKind::Regionalversammlung => &[],
        }
    }

    /// What the Land's law says of a Wahlgebiet with several areas (Wahlbereiche, Wahlkreise) for a body of
    /// `kind`: `lists[].area` / `lists[].party` refused, accepted as separate Wahlvorschläge, or with the
    /// fall-back to the party's other areas (docs/legal.md, "Several Wahlbereiche"). Default: refused.
    fn areas(&self, _kind: BodyKind) -> Areas {
        Areas::Refused(AREAS_NOT_MODELLED)
    }

    /// Whether a remedy against the Land's determinations is lodged with the Rechtsaufsichtsbehörde, so that its
    /// texts name it with its seat (`body.supervisory_authority`; Thüringen, § 31 Abs. 1 ThürKWG). Default `false`.
    fn remedy_at_supervisory_authority(&self) -> bool {
        false
    }
}

/// Why `lists[].area` and `lists[].party` are refused in a Land that does not model several areas.
pub const AREAS_NOT_MODELLED: &str = "several Wahlbereiche / Wahlkreise are modelled in Niedersachsen (§ 38 Abs. 5, § 44 Abs. 5 NKWG), Mecklenburg-Vorpommern (§ 46 Abs. 3 LKWG M-V), Sachsen-Anhalt (§ 47 Abs. 3 KWG LSA), Sachsen (§ 22 Abs. 3 KomWG), a Baden-Württemberg Kreistag (§ 25 Abs. 2 LKrO) and Brandenburg (§ 60 Abs. 3 BbgKWahlG) only (docs/legal.md, \"Several Wahlbereiche\")";

/// A gesetzlicher Feiertag that holds only in some municipalities of a Land (Bayern: Mariä Himmelfahrt in
/// municipalities with a predominantly Catholic population, Art. 1 Abs. 1 Nr. 2 FTG). A body's snapshot says
/// which apply to it (`body.local_holidays`, by `code`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocalHoliday {
    /// The code in `body.local_holidays`, e.g. `mariae_himmelfahrt`.
    pub code: &'static str,
    pub holiday: Holiday,
    /// The rule that makes it a holiday where it holds, as cited.
    pub citation: &'static str,
}

/// The local holidays a body observes: a set of entries of its Land's [`LandLaw::local_holidays`] table
/// (bit `i` = entry `i`; a Land lists at most 32).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LocalHolidays(u32);

impl LocalHolidays {
    /// None: the body observes only the Land's statewide holidays.
    pub const NONE: LocalHolidays = LocalHolidays(0);

    /// The local holidays named by `codes` in `land` (codes the Land does not know are ignored; the snapshot's
    /// validation rejects them).
    pub fn of(land: Land, codes: &[String]) -> LocalHolidays {
        let table = land.law().local_holidays();
        let bits = table
            .iter()
            .enumerate()
            .filter(|(i, h)| *i < 32 && codes.iter().any(|c| c == h.code))
            .fold(0u32, |bits, (i, _)| bits | (1 << i));
        LocalHolidays(bits)
    }

    /// Whether entry `i` of the Land's table is observed.
    pub fn contains(self, i: usize) -> bool {
        i < 32 && self.0 & (1 << i) != 0
    }
}

/// Validate `body.local_holidays` against the Land's table: every code known to the Land, none twice; the
/// error names the field.
pub(crate) fn validate_local_holidays(s: &Snapshot) -> Result<(), ValidationError> {
    let land = s.body.land;
    // the wire code (`BY`), from the variant's name
    let code_of_land = format!("{land:?}").to_uppercase();
    let table = land.law().local_holidays();
    for (i, code) in s.body.local_holidays.iter().enumerate() {
        let field = format!("body.local_holidays[{i}]");
        if !table.iter().any(|h| h.code == code) {
            let message = if table.is_empty() {
                format!("{code:?}: the Feiertagsgesetz of {} knows no holiday limited to some municipalities; the list must be empty", code_of_land)
            } else {
                let known: Vec<_> = table.iter().map(|h| h.code).collect();
                format!("{code:?} is no local holiday of {}; known: {}", code_of_land, known.join(", "))
            };
            return Err(ValidationError::new(field, message));
        }
        if s.body.local_holidays[..i].contains(code) {
            return Err(ValidationError::new(field, format!("{code:?} is listed twice")));
        }
    }
    Ok(())
}

/// How a determined successor becomes a member.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Acceptance {
    /// The successor is asked to declare within one week after service whether he accepts; silence is
    /// acceptance, a refusal (or a reservation, as [`Reservation`] says) cannot be withdrawn; membership starts with
    /// the acceptance. A barred successor must also prove the end of the bar within the week; what its end
    /// means for him without the proof is the Land's [`LandLaw::bar_effect`] (NRW: deemed refusal, § 69 Abs. 2
    /// i. V. m. § 62 Nr. 5 KWahlO).
    Declaration,
    /// The successor is a member with the determination; a barred one without voting right, who must
    /// prove the end of the bar within one week after service, else his membership is deemed not acquired,
    /// retroactively (Hessen § 34 Abs. 3 i. V. m. § 23 Abs. 2 KWG).
    WithDetermination,
    /// The successor is asked to declare within the Land's acceptance period
    /// ([`LandLaw::acceptance_weeks`]) whether he accepts; **silence is refusal**; a refusal (or a
    /// reservation, as [`Reservation`] says) ends his call; membership starts with the acceptance, not before
    /// the departure. A barred successor must also prove the end of the bar within the period, else he is
    /// deemed to have refused (Bayern: Art. 48 Abs. 3 Satz 3 i. V. m. Art. 47 Abs. 2 Satz 2 GLKrWG, "Die Wahl
    /// gilt als abgelehnt, wenn sie nicht innerhalb der Frist … angenommen wurde"; docs/legal.md, "Bayern").
    ExpressDeclaration,
    /// The successor becomes a member by law (Baden-Württemberg § 31 Abs. 2 Satz 1 GemO, Sachsen § 34 Abs. 2
    /// SächsGemO: "rückt … nach"): no acceptance is asked for, no period runs, a declaration is refused
    /// (`no_acceptance_procedure`). `council_determines`: the case waits for the council's resolution on the
    /// named successor, whatever the body's `determination` mode — the council finds whether a
    /// Hinderungsgrund exists (BW § 29 Abs. 5 GemO, SN § 32 Abs. 3 SächsGemO) and whether a refusal for a
    /// wichtiger Grund is justified (BW § 16 Abs. 2 GemO, SN § 18 Abs. 2 SächsGemO). The resolution arrives as
    /// `determination.confirmed` (membership from its date, not before the departure); a Hinderungsgrund or a
    /// justified refusal it finds arrives as `candidate.fact_recorded` (`barred`, `declined`), and the next
    /// successor is named. `announced`: the Land's law prescribes a public announcement of the succession or
    /// vacancy (with its objection period); `false`: nothing is announced, the successor is only told
    /// (docs/architecture.md, "Adding a Land"; docs/legal.md, "Baden-Württemberg", "Sachsen").
    ByLaw { council_determines: bool, announced: bool },
}

impl Acceptance {
    /// The successor declares whether he accepts (NRW's deemed acceptance or Bayern's express one).
    pub fn by_declaration(self) -> bool {
        matches!(self, Acceptance::Declaration | Acceptance::ExpressDeclaration)
    }
}

/// What a declaration of acceptance with a reservation (Vorbehalt) or condition means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reservation {
    /// It counts as a refusal (NRW § 45 Abs. 6 Satz 5 KWahlG, Rheinland-Pfalz § 64 Abs. 1 Satz 2 Nr. 2 KWO,
    /// Sachsen-Anhalt § 43 Abs. 1 Satz 3 KWG LSA).
    Refusal,
    /// The reservation is void and the acceptance stands (Thüringen § 29 Satz 3 ThürKWG: "Die Wahl kann nur
    /// vorbehaltlos angenommen werden; der Annahmeerklärung beigefügte Vorbehalte oder Bedingungen sind
    /// unwirksam").
    Ineffective,
}

/// The length of the objection period after an announcement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Span {
    /// Calendar months (§ 188 Abs. 2 and 3 BGB).
    Months(u32),
    /// Weeks (§ 188 Abs. 2 BGB).
    Weeks(u32),
}

/// The Einspruch against an announced determination.
#[derive(Debug, Clone, Copy)]
pub struct Objection {
    pub span: Span,
    /// Trail reason of the period, e.g. `one_month_after_announcement`.
    pub reason: &'static str,
    pub citation: &'static str,
}

/// The review of a determination (Wahlprüfung / Einspruchsentscheidung).
#[derive(Debug, Clone, Copy)]
pub struct Review {
    /// The council may decide (`decided_by: council`); `None`: only the returning officer decides, and the
    /// text says why a council decision is refused.
    pub council_refused: Option<&'static str>,
    /// Citation of a decision on an objection against a determination.
    pub citation: &'static str,
    /// Citation of the council's own determination while the returning officer made none (a lot not
    /// drawn); `None`: the Land has no such rule.
    pub council_in_place_of_officer: Option<&'static str>,
}

/// The German wording of a Land's announcements and e-mails (`{name}` stands for the council's name).
#[derive(Debug, Clone, Copy)]
pub struct Texts {
    /// Template name prefix under `config/templates/` (`nrw`, `he`).
    pub template_prefix: &'static str,
    /// Subject of the e-mail to a determined successor.
    pub determination_subject: &'static str,
    /// Subject of the e-mail to a barred successor (if it differs).
    pub barred_subject: &'static str,
    /// The legal basis of an announcement of a determination or vacancy.
    pub announcement_basis: &'static str,
    /// The legal basis of the announcement of a seat left vacant after a party ban; `None`: the Land has no
    /// such rule.
    pub party_ban_basis: Option<&'static str>,
    /// The remedy against a determination or vacancy announced.
    pub announcement_remedy: &'static str,
    /// The legal basis of an announcement of a review decision.
    pub review_basis: &'static str,
    /// The remedy against a review decision that can still be challenged.
    pub review_remedy: &'static str,
    /// The same after a court decided (`decided_by: court`): no court action lies against carrying it out.
    pub court_review_remedy: &'static str,
    /// What an announcement of an unappealable review decision says instead of a remedy.
    pub review_final_remedy: &'static str,
    /// Titles by announcement kind.
    pub successor_title: &'static str,
    pub vacancy_title: &'static str,
    pub not_acquired_title: &'static str,
    pub review_title: &'static str,
    /// Subject of the e-mail telling a barred successor that his membership is deemed not acquired; `None`:
    /// the Land has no such rule.
    pub not_acquired_subject: Option<&'static str>,
    /// Title of the correction of an announced deemed acceptance (docs/legal.md, "A declaration that arrived
    /// in time always wins").
    pub correction_title: &'static str,
}

/// The procedure after a determination, as a Land's law shapes it.
#[derive(Debug, Clone, Copy)]
pub struct Procedure {
    pub acceptance: Acceptance,
    /// An acceptance with a reservation (`accept_with_reservation`): a refusal, or an acceptance (declaration
    /// model only).
    pub reservation: Reservation,
    /// The mail template to a determined successor (under `config/templates/mail/`).
    pub determination_mail: &'static str,
    /// The mail template to a barred successor whose membership is deemed not acquired (Hessen § 23 Abs. 2
    /// Satz 3 KWG, § 56 Abs. 2 KWO); `None`: the Land has no such rule.
    pub not_acquired_mail: Option<&'static str>,
    /// Noted at the head of the trail of a round after a refusal in the same case; `None`: no note.
    pub next_round_citation: Option<&'static str>,
    /// Why a barred successor must prove the end of the bar.
    pub bar_citation: &'static str,
    pub objection: Objection,
    pub review: Review,
    pub texts: Texts,
}

/// A candidate named as an Ersatzbewerber (`substitute_for`, `substitute_designation`) in a Land without NRW's
/// Ersatzbewerber (§ 45 Abs. 2 KWahlG NRW) is refused at `field` (computed only then), with the Land's own
/// rule after the semicolon (`instead`, e.g. "in Sachsen the votes decide (§ 21 Abs. 2 KomWG)").
pub(super) fn refuse_ersatzbewerber(
    c: &crate::model::Candidate,
    field: impl FnOnce() -> String,
    instead: &str,
) -> Result<(), ValidationError> {
    if c.substitute_for.is_some() || c.substitute_designation.is_some() {
        return Err(ValidationError::new(
            field(),
            format!("Ersatzbewerber exist only in NRW (§ 45 Abs. 2 KWahlG NRW); {instead}"),
        ));
    }
    Ok(())
}

/// A majority election (Mehrheitswahl) is **one list of everyone who received votes**: the admitted
/// Wahlvorschlag's candidates with their list position and every other person who received votes (write-ins)
/// without one, each with `votes` (docs/contract.md, "Majority election"). `basis` names the Land's norm for the
/// majority election, e.g. "§ 26 Abs. 3 GemO". Refused at `lists` (more or no lists) or at the candidate's
/// `votes`.
pub(super) fn majority_one_list(s: &crate::model::Snapshot, basis: &str) -> Result<(), ValidationError> {
    if s.lists.len() != 1 {
        return Err(ValidationError::new(
            "lists",
            format!(
                "a majority election ({basis}) is one list of everyone who received votes (the Wahlvorschlag's candidates with their position, write-ins without one), found {} lists",
                s.lists.len()
            ),
        ));
    }
    for (li, list) in s.lists.iter().enumerate() {
        for (ci, c) in list.candidates.iter().enumerate() {
            if c.votes.is_none() {
                return Err(ValidationError::new(
                    format!("lists[{li}].candidates[{ci}].votes"),
                    format!("is required in a majority election ({basis}): its list is everyone who received votes, ranked by them"),
                ));
            }
        }
    }
    Ok(())
}

/// `reason: merger` outside Hessen (§ 33 Abs. 1 Nr. 4 KWG Hessen): refused, naming the field and, where it was
/// checked, the Land's Act that has no such rule.
pub(super) fn merger_is_hessens(act: Option<&str>) -> ValidationError {
    let act = act.map(|a| format!("the {a} has no such rule — ")).unwrap_or_default();
    ValidationError::new(
        "reason",
        format!(
            "merger is a Hessen reason (§ 33 Abs. 1 Nr. 4 KWG Hessen); {act}report the departure with its own reason"
        ),
    )
}

/// `reason: result_corrected` where the Land's rule for a seat lost through a Berichtigung or Neufeststellung of
/// the election result was not read (only Brandenburg's, § 59 Abs. 1 Nr. 4 BbgKWahlG, was): refused, naming the
/// field, so that the seat is not handed to an Ersatzperson by mistake.
pub(super) fn result_correction_not_read() -> ValidationError {
    ValidationError::new(
        "reason",
        "result_corrected is modelled for Brandenburg only (§ 59 Abs. 1 Nr. 4 BbgKWahlG): this Land's rule for a seat lost through a corrected result was not read — the corrected result allots the seat; register it with election.registered (docs/legal.md)",
    )
}

/// `body.readings.district_substitute` is an NRW reading (§ 45 Abs. 4 KWahlG NRW): every Land without NRW's
/// Ersatzbewerber refuses it, naming the field.
pub(super) fn refuse_district_substitute(readings: &crate::model::Readings) -> Result<(), ValidationError> {
    match readings.district_substitute {
        Some(_) => Err(ValidationError::new(
            "body.readings.district_substitute",
            "Ersatzbewerber exist only in NRW (§ 45 Abs. 4 KWahlG NRW)",
        )),
        None => Ok(()),
    }
}

impl Texts {
    /// A text with `{name}` replaced by the council's name.
    pub fn with_name(text: &str, name: &str) -> String {
        text.replace("{name}", name)
    }

    /// A remedy with its venues and their seats named (§ 58 Abs. 1 VwGO): `{court}` becomes „ (Verwaltungsgericht
    /// Düsseldorf, Bastionstraße 39, 40213 Düsseldorf)“ from `body.remedy_court`, `{office_name}` „Wahlleitung“ or
    /// „Kreiswahlleitung“, `{office}` „ (Rathausplatz 1, 12345 Musterstadt)“ from `returning_officer.address`, `{authority}` „ (name, address)“ from
    /// `body.supervisory_authority`; a venue the snapshot lacks (a body stored before they were required) leaves
    /// nothing (docs/legal.md, "Remedies: court, authority and seat").
    pub fn with_venues(text: &str, info: &BodyInfo) -> String {
        let of = |a: Option<&Authority>| a.map(|a| format!(" ({}, {})", a.name, a.address)).unwrap_or_default();
        let office = info.returning_officer.address.as_deref().map(|a| format!(" ({a})")).unwrap_or_default();
        text.replace("{court}", &of(info.remedy_court.as_ref()))
            .replace("{authority}", &of(info.supervisory_authority.as_ref()))
            .replace("{office_name}", info.kind.office())
            .replace("{office}", &office)
    }
}

/// Which venues a Land's Rechtsbehelfsbelehrungen name, so that registration asks for their seats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RemedyVenues {
    /// The Wahlleitung (an objection is lodged with it) and the Verwaltungsgericht (`body.remedy_court`).
    pub office_and_court: bool,
    /// The Rechtsaufsichtsbehörde (Thüringen, § 31 ThürKWG; `body.supervisory_authority`).
    pub supervisory_authority: bool,
}

/// The venues the Rechtsbehelfsbelehrungen of a body of `land` and `kind` name: none where nothing is announced
/// and no remedy is taught (Baden-Württemberg, Sachsen), the Wahlleitung and the Verwaltungsgericht elsewhere,
/// and Thüringen's Rechtsaufsichtsbehörde.
pub fn remedy_venues(land: Land, kind: BodyKind) -> RemedyVenues {
    let law = land.law();
    let taught = !matches!(law.procedure(kind).acceptance, Acceptance::ByLaw { announced: false, .. });
    RemedyVenues { office_and_court: taught, supervisory_authority: taught && law.remedy_at_supervisory_authority() }
}

/// The check at registration (`procedure::register`, not `Body::from_snapshot`: the offline `decide` writes no
/// Belehrung, and stored bodies load as they are): every court and authority a Rechtsbehelfsbelehrung of the
/// body names is given with its seat (§ 58 Abs. 1 VwGO), else the snapshot is refused naming the field
/// (docs/legal.md, "Remedies: court, authority and seat").
pub fn validate_remedy_venues(info: &BodyInfo) -> Result<(), ValidationError> {
    let needs = remedy_venues(info.land, info.kind);
    let blank = |t: &str| t.trim().is_empty();
    let why = "a Rechtsbehelfsbelehrung must name the authority or court a remedy is lodged with and its seat, or the remedy period does not run (§ 58 Abs. 1 VwGO)";
    if needs.office_and_court {
        if info.returning_officer.address.as_deref().is_none_or(blank) {
            return Err(ValidationError::new(
                "body.returning_officer.address",
                format!("required: the Wahlleitung's postal address with the place; {why}"),
            ));
        }
        match &info.remedy_court {
            None => {
                return Err(ValidationError::new(
                    "body.remedy_court",
                    format!("required: the Verwaltungsgericht with its address, e.g. {{\"name\": \"Verwaltungsgericht Düsseldorf\", \"address\": \"Bastionstraße 39, 40213 Düsseldorf\"}}; {why}"),
                ))
            }
            Some(c) if blank(&c.name) || blank(&c.address) => {
                return Err(ValidationError::new("body.remedy_court", "name and address must not be empty"))
            }
            Some(_) => {}
        }
    }
    match (&info.supervisory_authority, needs.supervisory_authority) {
        (None, true) => Err(ValidationError::new(
            "body.supervisory_authority",
            format!("required in Thüringen: the Rechtsaufsichtsbehörde a Wahlanfechtung is lodged with (§ 31 Abs. 1 ThürKWG), with its address; {why}"),
        )),
        (Some(a), true) if blank(&a.name) || blank(&a.address) => {
            Err(ValidationError::new("body.supervisory_authority", "name and address must not be empty"))
        }
        (Some(_), false) => Err(ValidationError::new(
            "body.supervisory_authority",
            "no text of this Land names the Rechtsaufsichtsbehörde as a venue (only Thüringen, § 31 ThürKWG)",
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(court: bool) -> BodyInfo {
        let mut info: BodyInfo = serde_json::from_value(serde_json::json!({
            "id": "rat", "name": "Rat", "land": "NW", "statutory_size": 10,
            "term": {"start": "2025-11-01", "end": "2030-10-31"},
            "returning_officer": {"name": "Erika Beispiel", "email": "w@example.org", "address": "Markt 1, 12345 Musterstadt"}
        }))
        .expect("body info");
        if court {
            info.remedy_court = Some(Authority {
                name: "Verwaltungsgericht Musterstadt".into(),
                address: "Justizplatz 1, 12340 Musterstadt".into(),
            });
        }
        info
    }

    /// § 58 Abs. 1 VwGO: the remedy names the venue with its seat; a body stored before registration asked for the
    /// court keeps a readable sentence, without an empty bracket.
    #[test]
    fn vwgo_58_abs_1_the_remedy_names_its_venues() {
        let text = "Klage vor dem Verwaltungsgericht{court}, Einspruch bei der {office_name}{office}";
        assert_eq!(
            Texts::with_venues(text, &info(true)),
            "Klage vor dem Verwaltungsgericht (Verwaltungsgericht Musterstadt, Justizplatz 1, 12340 Musterstadt), Einspruch bei der Wahlleitung (Markt 1, 12345 Musterstadt)"
        );
        assert_eq!(
            Texts::with_venues(text, &info(false)),
            "Klage vor dem Verwaltungsgericht, Einspruch bei der Wahlleitung (Markt 1, 12345 Musterstadt)"
        );
        assert!(validate_remedy_venues(&info(false)).is_err_and(|e| e.field == "body.remedy_court"));
        assert!(validate_remedy_venues(&info(true)).is_ok());
    }

    /// Every remedy a Land's texts give has its markers replaced: no `{…}` reaches a reader.
    #[test]
    fn every_remedy_of_every_land_and_kind_is_said_without_markers() {
        let info = info(true);
        for land in Land::ALL {
            for kind in [BodyKind::Council, BodyKind::Kreistag, BodyKind::Bezirkstag, BodyKind::Regionalversammlung] {
                let t = &land.law().procedure(kind).texts;
                for remedy in [t.announcement_remedy, t.review_remedy, t.court_review_remedy, t.review_final_remedy] {
                    let said = Texts::with_venues(remedy, &info);
                    assert!(!said.contains('{') && !said.contains('}'), "{land:?} {kind:?}: {said}");
                }
            }
        }
    }
}
