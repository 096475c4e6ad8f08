//! What the end of a round's period does: one decision, which the procedure applies when the period ends
//! (`Machine::deadline_expired`) and which the letters and the period notice tell the successor in advance
//! (`texts::consequence`). A sentence about silence or a missing proof is never written without asking it
//! (docs/legal.md, "What a barred successor is told").

use serde::Serialize;

use super::{Acceptance, BarEffect, LandLaw};
use crate::model::BodyKind;

/// The effect the procedure applies to an offer when its period ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Lapse {
    /// Membership begins when the period ends: the election counts as accepted (Annahmefiktion, e.g. § 45
    /// Abs. 6 Satz 4 KWahlG NRW), or it is acquired by law for want of a refusal (§ 37 Satz 1 GKWG, § 34 Satz 1
    /// LKWG M-V). `membership.changed` `joined`, basis `deemed_acceptance`.
    DeemedAcceptance,
    /// The election counts as refused (Ablehnungsfiktion: Bayern's silence, Art. 47 Abs. 2 Satz 2 GLKrWG; a
    /// barred successor without the proof, [`BarEffect::Refusal`]); the next successor is determined.
    /// `declaration.recorded` `deemed_refusal`.
    DeemedRefusal,
    /// Hessen: the membership of a barred successor without the proof counts as not acquired, retroactively
    /// (§ 23 Abs. 2 Satz 3 KWG); the next successor is determined. `membership.changed` `left`, basis
    /// `deemed_not_acquired`.
    DeemedNotAcquired,
    /// Sachsen-Anhalt: the election is accepted (silence, § 43 Abs. 1 Satz 2 KWG LSA) while the Hinderungsgrund
    /// stands, and the mandate is lost at once (§ 42 Abs. 1 Nr. 3 KVG LSA); the next successor is determined.
    /// `membership.changed` `joined` and `left` at the same instant, basis `bar_at_acceptance`.
    MandateLost,
    /// Schleswig-Holstein: nothing happens yet; membership begins with the written proof of the leave or of
    /// another post (§ 37a Abs. 1 Satz 1 GKWG), `membership.changed` `joined`, basis `bar_cured`.
    AwaitsProof,
    /// Nothing happens: membership began with the acceptance (and the proof) already, or no period runs.
    Nothing,
}

impl Lapse {
    /// The wire name (`deemed_acceptance`, …), as the text context carries it.
    pub fn as_str(self) -> &'static str {
        match self {
            Lapse::DeemedAcceptance => "deemed_acceptance",
            Lapse::DeemedRefusal => "deemed_refusal",
            Lapse::DeemedNotAcquired => "deemed_not_acquired",
            Lapse::MandateLost => "mandate_lost",
            Lapse::AwaitsProof => "awaits_proof",
            Lapse::Nothing => "nothing",
        }
    }
}

/// Where an offer stands when its period ends, as far as the effect depends on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Standing {
    /// A Hinderungsgrund or Unvereinbarkeit was recorded at the determination (`Offer::barred`).
    pub barred: bool,
    /// The end of the bar was proven within the period (`bar.cured`).
    pub proven: bool,
    /// An acceptance took effect within the period (`Offer::accepted_at`; Schleswig-Holstein's and
    /// Mecklenburg-Vorpommern's acceptance has no effect of its own and does not count).
    pub accepted: bool,
}

/// The effect the end of the period has on an offer standing as `s`, under the law of `law` for a body of kind
/// `kind`.
pub fn lapse(law: &dyn LandLaw, kind: BodyKind, s: Standing) -> Lapse {
    let holds_up = law.bar_effect() != BarEffect::HoldsUpNothing;
    let unproven = s.barred && !s.proven && holds_up;
    match law.procedure(kind).acceptance {
        Acceptance::Declaration if unproven => match law.bar_effect() {
            BarEffect::Refusal => Lapse::DeemedRefusal,
            BarEffect::LostAtAcceptance => Lapse::MandateLost,
            BarEffect::AwaitsProof => Lapse::AwaitsProof,
            BarEffect::HoldsUpNothing => Lapse::DeemedAcceptance,
        },
        Acceptance::Declaration if s.accepted => Lapse::Nothing,
        Acceptance::Declaration => Lapse::DeemedAcceptance,
        Acceptance::ExpressDeclaration if unproven || !s.accepted => Lapse::DeemedRefusal,
        Acceptance::WithDetermination if unproven => Lapse::DeemedNotAcquired,
        Acceptance::ExpressDeclaration | Acceptance::WithDetermination | Acceptance::ByLaw { .. } => Lapse::Nothing,
    }
}

/// What a successor must be told when his period starts: the effect of the end of the period if he stays
/// silent and proves nothing, and — for a barred successor — if he proves the end of the bar in time and stays
/// silent, or accepts without proving it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outlook {
    /// Silent, and (barred) without the proof.
    pub silence: Lapse,
    /// Barred only: silent, with the proof in time.
    pub silence_proven: Option<Lapse>,
    /// Barred only: accepted, without the proof.
    pub accepted_unproven: Option<Lapse>,
}

/// The [`Outlook`] of a successor, barred or not, under the law of `law` for a body of kind `kind`.
pub fn outlook(law: &dyn LandLaw, kind: BodyKind, barred: bool) -> Outlook {
    // a bar that holds up nothing is nothing to tell at the end of the period
    let barred = barred && law.bar_effect() != BarEffect::HoldsUpNothing;
    let at = |proven, accepted| lapse(law, kind, Standing { barred, proven, accepted });
    Outlook {
        silence: at(false, false),
        silence_proven: barred.then(|| at(true, false)),
        accepted_unproven: barred.then(|| at(false, true)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Land;

    fn of(land: Land, barred: bool) -> Outlook {
        outlook(land.law(), BodyKind::Council, barred)
    }

    #[test]
    fn kwahlo_nrw_62_nr_1_and_5_silence_is_acceptance_only_once_the_proof_is_in() {
        assert_eq!(of(Land::Nw, false).silence, Lapse::DeemedAcceptance);
        let barred = of(Land::Nw, true);
        assert_eq!(barred.silence, Lapse::DeemedRefusal);
        assert_eq!(barred.silence_proven, Some(Lapse::DeemedAcceptance));
        assert_eq!(barred.accepted_unproven, Some(Lapse::DeemedRefusal));
        for land in [Land::Rp, Land::Bb, Land::Ni] {
            assert_eq!(of(land, true), barred, "{land:?}");
        }
    }

    #[test]
    fn kvg_lsa_42_abs_1_nr_3_a_barred_successor_accepted_by_silence_loses_the_mandate() {
        let barred = of(Land::St, true);
        assert_eq!(barred.silence, Lapse::MandateLost);
        assert_eq!(barred.accepted_unproven, Some(Lapse::MandateLost));
        assert_eq!(barred.silence_proven, Some(Lapse::DeemedAcceptance));
    }

    #[test]
    fn sh_gkwg_37a_abs_1_membership_waits_for_the_written_proof() {
        let barred = of(Land::Sh, true);
        assert_eq!(barred.silence, Lapse::AwaitsProof);
        assert_eq!(barred.silence_proven, Some(Lapse::DeemedAcceptance));
        assert_eq!(of(Land::Sh, false).silence, Lapse::DeemedAcceptance);
    }

    #[test]
    fn kv_mv_25_abs_4_an_unvereinbarkeit_holds_up_nothing() {
        assert_eq!(of(Land::Mv, true), of(Land::Mv, false));
        let law = Land::Mv.law();
        let unproven = Standing { barred: true, proven: false, accepted: false };
        assert_eq!(lapse(law, BodyKind::Council, unproven), Lapse::DeemedAcceptance);
    }

    #[test]
    fn silence_in_bayern_hessen_and_the_by_law_laender() {
        assert_eq!(of(Land::By, false).silence, Lapse::DeemedRefusal);
        assert_eq!(of(Land::He, false).silence, Lapse::Nothing);
        assert_eq!(of(Land::He, true).silence, Lapse::DeemedNotAcquired);
        assert_eq!(of(Land::He, true).silence_proven, Some(Lapse::Nothing));
        assert_eq!(of(Land::Bw, false).silence, Lapse::Nothing);
    }
}
