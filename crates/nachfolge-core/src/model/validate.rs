//! The checks every Land shares (docs/contract.md, "Validation"); the Land's own follow in
//! `Body::from_snapshot` (land/mod.rs).

use super::*;

/// The longest delay between the end of a period and acting on it (`body.readings.deadline_grace_hours`).
pub const MAX_GRACE_HOURS: u32 = 168;

/// The longest id (`body.id`, `lists[i].id`, a candidate's `id`, `district`), in characters.
pub const MAX_ID_CHARS: usize = 64;
/// The longest name, title, academic degree or e-mail address, in characters.
pub const MAX_NAME_CHARS: usize = 200;
/// The longest postal address (lines separated by line feeds) or reason of a `barred` fact, in characters.
pub const MAX_ADDRESS_CHARS: usize = 500;

/// What a text field may hold: ids and names one line, addresses several.
#[derive(Clone, Copy)]
enum Text {
    Id,
    Name,
    Address,
}

/// Refuses a control character (an address may hold line feeds between its lines) and a text longer than
/// its bound, naming the field (docs/contract.md, "Validation", "Texts").
fn text(field: impl Into<String>, value: &str, kind: Text) -> Result<(), ValidationError> {
    let (max, newlines) = match kind {
        Text::Id => (MAX_ID_CHARS, false),
        Text::Name => (MAX_NAME_CHARS, false),
        Text::Address => (MAX_ADDRESS_CHARS, true),
    };
    if let Some(ch) = value.chars().find(|ch| ch.is_control() && !(newlines && *ch == '\n')) {
        let what = if newlines { "control characters other than line feeds" } else { "control characters" };
        return Err(ValidationError::new(field, format!("must not contain {what} (found U+{:04X})", u32::from(ch))));
    }
    let n = value.chars().count();
    if n > max {
        return Err(ValidationError::new(field, format!("at most {max} characters, got {n}")));
    }
    Ok(())
}

/// Every text of the snapshot against its bound (`text`).
fn texts(s: &Snapshot) -> Result<(), ValidationError> {
    let b = &s.body;
    text("body.id", &b.id, Text::Id)?;
    text("body.name", &b.name, Text::Name)?;
    let o = &b.returning_officer;
    text("body.returning_officer.name", &o.name, Text::Name)?;
    text("body.returning_officer.email", &o.email, Text::Name)?;
    if let Some(a) = &o.address {
        text("body.returning_officer.address", a, Text::Address)?;
    }
    if let Some(t) = &o.title {
        text("body.returning_officer.title", t, Text::Name)?;
    }
    for (key, auth) in [("remedy_court", &b.remedy_court), ("supervisory_authority", &b.supervisory_authority)] {
        if let Some(a) = auth {
            text(format!("body.{key}.name"), &a.name, Text::Name)?;
            text(format!("body.{key}.address"), &a.address, Text::Address)?;
        }
    }
    for (li, list) in s.lists.iter().enumerate() {
        text(format!("lists[{li}].id"), &list.id, Text::Id)?;
        text(format!("lists[{li}].name"), &list.name, Text::Name)?;
        if let Some(n) = &list.short_name {
            text(format!("lists[{li}].short_name"), n, Text::Name)?;
        }
        for (ci, c) in list.candidates.iter().enumerate() {
            let path = format!("lists[{li}].candidates[{ci}]");
            text(format!("{path}.id"), &c.id, Text::Id)?;
            text(format!("{path}.given_name"), &c.given_name, Text::Name)?;
            text(format!("{path}.family_name"), &c.family_name, Text::Name)?;
            let optional = [
                ("email", &c.email, Text::Name),
                ("postal_address", &c.postal_address, Text::Address),
                ("academic_degree", &c.academic_degree, Text::Name),
                ("district", &c.district, Text::Id),
                ("substitute_for", &c.substitute_for, Text::Id),
            ];
            for (key, value, kind) in optional {
                if let Some(v) = value {
                    text(format!("{path}.{key}"), v, kind)?;
                }
            }
            for (fi, f) in c.facts.iter().enumerate() {
                // § 46 Abs. 2 Satz 5 LKWG M-V, § 45 Abs. 4 NKWG: each ground is one Land's
                if let Fact::SubstituteStatusLost { .. } = f {
                    if !f.allowed_in(b.land) {
                        return Err(ValidationError::new(
                            format!("{path}.facts[{fi}].ground"),
                            STATUS_LOSS_GROUND_ONLY,
                        ));
                    }
                }
                if let Fact::Barred { reason, .. } = f {
                    text(format!("{path}.facts[{fi}].reason"), reason, Text::Address)?;
                }
            }
        }
    }
    Ok(())
}

/// The checks every Land shares; the Land's own follow in `Body::from_snapshot`.
pub(crate) fn validate(s: &Snapshot) -> Result<(), ValidationError> {
    let b = &s.body;
    if b.id.trim().is_empty() {
        return Err(ValidationError::new("body.id", "must not be empty"));
    }
    texts(s)?;
    if b.term.end < b.term.start {
        return Err(ValidationError::new("body.term.end", "lies before body.term.start"));
    }
    if b.statutory_size == 0 {
        return Err(ValidationError::new("body.statutory_size", "must be at least 1"));
    }
    // a BodyKind not valid for the Land (docs/legal.md, "Point 10: Bezirkstage")
    if b.kind == BodyKind::Bezirkstag && !matches!(b.land, Land::Rp | Land::By) {
        return Err(ValidationError::new(
            "body.kind",
            "bezirkstag is a body of Rheinland-Pfalz (the Bezirkstag des Bezirksverbands Pfalz, § 56 KWG) and Bayern (a Bezirk's Bezirkstag, Art. 4 BezWG); this Land has no Bezirkstag served here",
        ));
    }
    if b.kind == BodyKind::Regionalversammlung && b.land != Land::Sl {
        return Err(ValidationError::new(
            "body.kind",
            "regionalversammlung is a body of Saarland (the Regionalversammlung des Regionalverbands Saarbrücken, § 205 KSVG)",
        ));
    }
    if let Some(h) = b.readings.deadline_grace_hours.filter(|h| *h > MAX_GRACE_HOURS) {
        return Err(ValidationError::new(
            "body.readings.deadline_grace_hours",
            format!("at most {MAX_GRACE_HOURS} (one week), got {h}"),
        ));
    }
    let mut list_ids = HashMap::new();
    let mut cand_ids: HashMap<&str, String> = HashMap::new();
    for (li, list) in s.lists.iter().enumerate() {
        if list.id.trim().is_empty() {
            return Err(ValidationError::new(format!("lists[{li}].id"), "must not be empty"));
        }
        if list_ids.insert(list.id.as_str(), li).is_some() {
            return Err(ValidationError::new(format!("lists[{li}].id"), format!("duplicate list id {:?}", list.id)));
        }
        let mut positions = HashMap::new();
        let mut lot_ranks: HashMap<(Option<i64>, u32), usize> = HashMap::new();
        for (ci, c) in list.candidates.iter().enumerate() {
            let path = format!("lists[{li}].candidates[{ci}]");
            if c.id.trim().is_empty() {
                return Err(ValidationError::new(format!("{path}.id"), "must not be empty"));
            }
            if cand_ids.insert(c.id.as_str(), path.clone()).is_some() {
                return Err(ValidationError::new(format!("{path}.id"), format!("duplicate candidate id {:?}", c.id)));
            }
            if let Some(p) = c.position {
                if p == 0 {
                    return Err(ValidationError::new(format!("{path}.position"), "positions start at 1"));
                }
                if let Some(other) = positions.insert(p, ci) {
                    return Err(ValidationError::new(
                        format!("{path}.position"),
                        format!("position {p} is also held by lists[{li}].candidates[{other}]"),
                    ));
                }
            }
            if let Some(v) = c.votes.filter(|v| *v < 0) {
                return Err(ValidationError::new(format!("{path}.votes"), format!("must not be negative, got {v}")));
            }
            if let Some(r) = c.lot_rank {
                lot_rank(b, c, r, &path)?;
                if let Some(other) = lot_ranks.insert((c.votes, r), ci) {
                    return Err(ValidationError::new(
                        format!("{path}.lot_rank"),
                        format!("lot rank {r} is also held by lists[{li}].candidates[{other}] with the same votes"),
                    ));
                }
            }
            if c.seat.as_ref().is_some_and(|s| s.via == SeatVia::Additional) && b.land != Land::Bw {
                return Err(ValidationError::new(
                    format!("{path}.seat.via"),
                    "additional is a Baden-Württemberg seat: a weiterer Sitz under unechte Teilortswahl (§ 26 Abs. 2 Satz 4 KomWG) or a Kreistag's Ausgleichssitz (§ 25 Abs. 2 Satz 2 LKrO)",
                ));
            }
            if c.seat.as_ref().is_some_and(|s| s.via == SeatVia::PersonalVote) && b.land != Land::Ni {
                return Err(ValidationError::new(
                    format!("{path}.seat.via"),
                    "personal_vote (Personenwahl) is a Niedersachsen seat (§ 36 Abs. 5 NKWG)",
                ));
            }
            let former = c.facts.iter().any(|f| matches!(f, Fact::FormerMember { .. }));
            if former && c.seat.is_some() {
                return Err(ValidationError::new(
                    format!("{path}.seat"),
                    "a candidate with a former_member fact cannot hold a seat",
                ));
            }
            for (fi, f) in c.facts.iter().enumerate() {
                if let Fact::Ineligible { from, until: Some(until) } = f {
                    if until < from {
                        return Err(ValidationError::new(format!("{path}.facts[{fi}].until"), "lies before from"));
                    }
                }
                // § 47 Abs. 1 Satz 2, 3 KWG LSA, § 44 Abs. 2 NKWG, § 46 Abs. 2 Satz 3 Nr. 1 LKWG M-V, § 60 Abs. 4 BbgKWahlG: a party's notice has effect only there
                if matches!(f, Fact::PartyNotice { .. }) && !f.allowed_in(b.land) {
                    return Err(ValidationError::new(
                        format!("{path}.facts[{fi}].type"),
                        "party_notice is a fact of Sachsen-Anhalt (§ 47 Abs. 1 Satz 2 KWG LSA), Niedersachsen (§ 44 Abs. 2 NKWG), Mecklenburg-Vorpommern (§ 46 Abs. 2 Satz 3 Nr. 1 LKWG M-V) and Brandenburg (§ 60 Abs. 4 BbgKWahlG); no other Land's rule depends on a party's notice",
                    ));
                }
                // § 47 Abs. 1 LKWG M-V, § 46 Abs. 1 KWG, § 62 Abs. 1, 2 BbgKWahlG: the loss of the Anwartschaft by a party ban
                if matches!(f, Fact::BannedPartyMember { .. }) && !f.allowed_in(b.land) {
                    return Err(ValidationError::new(format!("{path}.facts[{fi}].type"), BANNED_PARTY_MEMBER_ONLY));
                }
                if let Fact::Barred { reason, .. } = f {
                    if reason.trim().is_empty() {
                        return Err(ValidationError::new(format!("{path}.facts[{fi}].reason"), "must not be empty"));
                    }
                }
            }
        }
    }
    additional_ranks(s)?;
    // substitute_for: known candidate, set only on list candidates, at most one per candidate.
    let mut substituted: HashMap<&str, String> = HashMap::new();
    for (li, list) in s.lists.iter().enumerate() {
        for (ci, c) in list.candidates.iter().enumerate() {
            let Some(target) = c.substitute_for.as_deref() else { continue };
            let path = format!("lists[{li}].candidates[{ci}].substitute_for");
            if !cand_ids.contains_key(target) {
                return Err(ValidationError::new(path, format!("names unknown candidate {target:?}")));
            }
            if target == c.id {
                return Err(ValidationError::new(path, "a candidate cannot be his own substitute"));
            }
            if !list.candidates.iter().any(|o| o.id == target) {
                return Err(ValidationError::new(path, format!("names candidate {target:?} of another list")));
            }
            // the Bezirkstag Pfalz: a Nachfolger may be named beside the Bewerber (§ 56 Abs. 1 Satz 1 Nr. 3 KWG)
            if c.position.is_none() && s.body.kind != BodyKind::Bezirkstag {
                return Err(ValidationError::new(
                    path,
                    "is set on a candidate without a list position (an Ersatzbewerber stands on the Reserveliste, § 16 Abs. 2 KWahlG NRW)",
                ));
            }
            if let Some(first) = substituted.insert(target, path.clone()) {
                return Err(ValidationError::new(path, format!("{target:?} already has a substitute ({first})")));
            }
        }
    }
    Ok(())
}

/// `additional_rank` and `body.single_municipality_areas`: a Baden-Württemberg Kreistag's only (its Ausgleichssitze,
/// § 25 Abs. 2 LKrO; docs/legal.md, "Baden-Württemberg: a Kreistag's Ausgleichssitze"); a rank from 1, once per party
/// (the lists tied by `party`, else the list); each single-municipality area names a list's area, once.
fn additional_ranks(s: &Snapshot) -> Result<(), ValidationError> {
    let b = &s.body;
    let kreistag_bw = b.land == Land::Bw && b.kind == BodyKind::Kreistag;
    let mut seen: HashMap<(&str, u32), String> = HashMap::new();
    for (li, list) in s.lists.iter().enumerate() {
        let party = list.party.as_deref().unwrap_or(list.id.as_str());
        for (ci, c) in list.candidates.iter().enumerate() {
            let Some(rank) = c.additional_rank else { continue };
            let field = format!("lists[{li}].candidates[{ci}].additional_rank");
            if !kreistag_bw {
                return Err(ValidationError::new(
                    field,
                    "the Ersatzpersonen for Ausgleichssitze are a Baden-Württemberg Kreistag's (§ 25 Abs. 2 LKrO, § 46 Abs. 3 KomWO)",
                ));
            }
            if rank == 0 {
                return Err(ValidationError::new(field, "ranks start at 1"));
            }
            if let Some(other) = seen.insert((party, rank), format!("lists[{li}].candidates[{ci}]")) {
                return Err(ValidationError::new(field, format!("rank {rank} of {party:?} is also held by {other}")));
            }
        }
    }
    let mut areas: Vec<&str> = vec![];
    for (i, area) in b.single_municipality_areas.iter().enumerate() {
        let field = format!("body.single_municipality_areas[{i}]");
        if !kreistag_bw {
            return Err(ValidationError::new(
                field,
                "the Wahlkreise of one Gemeinde matter in a Baden-Württemberg Kreistag only (§ 25 Abs. 2 Satz 2 LKrO)",
            ));
        }
        if !s.lists.iter().any(|l| l.area.as_deref() == Some(area.as_str())) {
            return Err(ValidationError::new(field, format!("names no list's area: {area:?}")));
        }
        if areas.contains(&area.as_str()) {
            return Err(ValidationError::new(field, format!("{area:?} is named twice")));
        }
        areas.push(area);
    }
    Ok(())
}

/// `lot_rank` (Rang nach dem bei der Feststellung des Wahlergebnisses gezogenen Los): only where the Land's lot
/// on equal votes is drawn when the result is determined, only with votes, from 1 (docs/legal.md, "Point 7: lots
/// drawn when the result was determined").
fn lot_rank(b: &BodyInfo, c: &Candidate, rank: u32, path: &str) -> Result<(), ValidationError> {
    let field = format!("{path}.lot_rank");
    let drawn_at_result = match b.land {
        Land::By => true,
        Land::Sn | Land::Bw | Land::Sl => b.electoral_system == ElectoralSystem::Majority,
        _ => false,
    };
    if !drawn_at_result {
        return Err(ValidationError::new(
            field,
            "a lot drawn when the result was determined decides the order of successors only in Bayern (Art. 37 Abs. 1 Satz 1, Art. 38 Abs. 2 Satz 3 GLKrWG), in a Sachsen majority election (§ 23 Satz 3 KomWG), in a Baden-Württemberg majority election (§ 31 Abs. 2 Satz 1 i. V. m. § 26 Abs. 3 GemO) and in a Saarland majority election (§ 57 Abs. 2 i. V. m. § 55 Abs. 2 Satz 2 KWO); elsewhere equal votes are decided by the list order or by the lot the Wahlleitung draws at the succession (lot.drawn)",
        ));
    }
    if rank == 0 {
        return Err(ValidationError::new(field, "lot ranks start at 1"));
    }
    if c.votes.is_none() {
        return Err(ValidationError::new(field, "a lot rank orders candidates with equal votes: votes are required"));
    }
    Ok(())
}
