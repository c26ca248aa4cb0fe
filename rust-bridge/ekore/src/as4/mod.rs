//! N3LO (O(a_s^4), order index 3) unpolarised space-like anomalous dimensions, as
//! eko 0.15.7 evaluates them (module `ekore.anomalous_dimensions.unpolarized.
//! space_like.as4`), in its two variants (docs/physics.md, "N3LO anomalous
//! dimensions"):
//!
//! * `use_fhmruvv = true`: the parametrisations of Falcioni, Herzog, Moch, Ruijl,
//!   Ueda, Vermaseren and Vogt: non-singlet from Moch et al. arXiv:1707.08315,
//!   gamma_ps arXiv:2302.07593, gamma_qg arXiv:2307.04158, gamma_gq arXiv:2310.01245,
//!   gamma_gg arXiv:2404.09701 (eko's `as4.fhmruvv`). Each has a central value
//!   (variation 0) and the two ends of its error band (1, 2). The singlet ones
//!   exist for nf = 3, 4, 5 only.
//! * `use_fhmruvv = false`: eko's own approximation, NNPDF arXiv:2402.18635 (eko's
//!   `as4.g*`): exact large-nf parts, fitted rest; the singlet entries have 7 (qq),
//!   16 (qg, gq) or 20 (gg) variations, the non-singlet ones none.
//!
//! eko's `n3lo_ad_variation = (gg, gq, qg, qq, ns+, ns-, nsV)` selects them:
//! gamma_ns uses entry 4, 5 or 6 (FHMRUVV only); the singlet uses entries 0..3, and
//! its gamma_qq = gamma_ns,+ + gamma_ps takes entry 3 for both parts (in the FHMRUVV
//! variant gamma_ns,+ inside gamma_qq thus follows `qq`, not `ns+`, as in eko).
//! gamma_ns,v = gamma_ns,- + gamma_ns,s.
//!
//! * the 2512 set ([`AdSet::Set2512`]): HOPPET's `n3lo_splitting_approximation_up_to_2512`
//!   (arXiv:2512.10783, which adds nf = 6 and a new P_gq moment): gamma_ps, gamma_qg as
//!   in FHMRUVV, gamma_gq of 2512.10783, gamma_gg of arXiv:2410.08089, for nf = 3..6
//!   (`tables_2512`, generator gen/gen_as4_2512.py), and the non-singlet ones of
//!   arXiv:1707.08315 (any nf) as HOPPET has them in x space (they differ from
//!   eko's N-space FHMRUVV tables by up to 6e-4 relative at N <= 10; the cause is
//!   not traced). Variations 0..2 as FHMRUVV (central = the
//!   average of the two approximations, 1 = App1, 2 = App2), the same entries.
//!
//! The numbers live in generated tables (`tables_fhmruvv`, `tables_nnpdf`; the
//! generator is rust-bridge/ekore/gen/gen_as4_tables.py) of terms evaluated by
//! `terms`. Sums: gamma_singlet wants the alternating sums continued from even N
//! (`is_singlet` = true; eko's gamma_qg reads S_{-2}, S_{-3}, S_{-4}), gamma_ns from
//! odd N (`is_singlet` = false; eko's nsV reads S_{-2}, S_{-3}, S_{-4}, S_{-2,1},
//! S_{-2,2}, S_{-3,1}, S_{-2,1,1}); the other functions read positive sums only.

mod tables_2512;
mod tables_fhmruvv;
mod tables_nnpdf;
mod terms;
#[cfg(test)]
mod reference;
#[cfg(test)]
mod reference_2512;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_2512;

use crate::complex::C64;
use crate::sums::SumValues;
use terms::{Basis, Param};

/// eko's non-singlet modes.
pub const MODE_NS_PLUS: u32 = 10101;
pub const MODE_NS_MINUS: u32 = 10201;
pub const MODE_NS_VALENCE: u32 = 10200;

/// Names of the entries of `n3lo_ad_variation`, in eko's order.
pub const VARIATION_NAMES: [&str; 7] = ["gg", "gq", "qg", "qq", "ns+", "ns-", "nsV"];

const NAN: C64 = C64::new(f64::NAN, f64::NAN);

/// Which approximate N3LO anomalous dimensions: eko's `use_fhmruvv` false
/// (`Eko`, eko's own NNPDF approximation) or true (`Fhmruvv`, as of 2024), or the
/// 2512 set. The C ABI numbers them 0, 1, 2 (`ekore_n3lo.use_fhmruvv`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdSet {
    Eko,
    Fhmruvv,
    Set2512,
}

impl AdSet {
    /// From the C ABI's number (0, 1, 2); None otherwise.
    pub fn from_index(i: u32) -> Option<AdSet> {
        match i {
            0 => Some(AdSet::Eko),
            1 => Some(AdSet::Fhmruvv),
            2 => Some(AdSet::Set2512),
            _ => None,
        }
    }

    /// The non-singlet tables (ns+, ns-, ns,s) and whether they have variations.
    fn ns_tables(self) -> ([&'static Param; 3], bool) {
        match self {
            AdSet::Eko => ([&tables_nnpdf::NSP, &tables_nnpdf::NSM, &tables_nnpdf::NSS], false),
            AdSet::Fhmruvv => ([&tables_fhmruvv::NSP, &tables_fhmruvv::NSM, &tables_fhmruvv::NSS], true),
            AdSet::Set2512 => ([&tables_2512::NSP, &tables_2512::NSM, &tables_2512::NSS], true),
        }
    }
}

impl From<bool> for AdSet {
    /// eko's `use_fhmruvv`.
    fn from(use_fhmruvv: bool) -> AdSet {
        if use_fhmruvv {
            AdSet::Fhmruvv
        } else {
            AdSet::Eko
        }
    }
}

/// gamma^(3)_ns(N) for eko's `mode` (10101 ns+, 10201 ns-, 10200 nsV), as eko's
/// `gamma_ns` at order 4. With FHMRUVV, entry 4/5/6 of `variation` picks the
/// variation; eko's own approximation has none. Any nf. An unknown mode gives NaN
/// (eko raises). A variation outside its range acts as 0, as in eko.
pub fn gamma_ns(
    mode: u32,
    s: &SumValues,
    nf: u32,
    variation: &[u8; 7],
    set: impl Into<AdSet>,
) -> C64 {
    let b = Basis::new(s);
    let ([nsp, nsm, nss], varies) = set.into().ns_tables();
    let v = |i: usize| if varies { variation[i] } else { 0 };
    match mode {
        MODE_NS_PLUS => nsp.eval(&b, nf, v(4)),
        MODE_NS_MINUS => nsm.eval(&b, nf, v(5)),
        MODE_NS_VALENCE => nsm.eval(&b, nf, v(6)) + nss.eval(&b, nf, v(6)),
        _ => NAN,
    }
}

/// gamma^(3)_ns of the three sectors [ns+, ns-, nsV] at one N, sharing the
/// basis of powers and Mellin transforms (and ns- inside nsV when both take
/// the same variation): each value bitwise that of [`gamma_ns`].
pub fn gamma_ns_all(s: &SumValues, nf: u32, variation: &[u8; 7], set: impl Into<AdSet>) -> [C64; 3] {
    let b = Basis::new(s);
    let ([nsp, nsm, nss], varies) = set.into().ns_tables();
    let v = |i: usize| if varies { variation[i] } else { 0 };
    let minus = nsm.eval(&b, nf, v(5));
    let minus_v = if v(6) == v(5) { minus } else { nsm.eval(&b, nf, v(6)) };
    [nsp.eval(&b, nf, v(4)), minus, minus_v + nss.eval(&b, nf, v(6))]
}

/// The singlet matrix gamma^(3)_S(N) as `[qq, qg, gq, gg]` (eko's 2x2, row-major),
/// with gamma_qq = gamma_ns,+ + gamma_ps; entries 0..3 of `variation` select
/// (gg, gq, qg, qq). FHMRUVV is defined for nf = 3, 4, 5 only, the 2512 set for
/// nf = 3..6: other nf give NaN (eko raises NotImplementedError; see
/// [`check_singlet_nf`]).
pub fn gamma_singlet(
    s: &SumValues,
    nf: u32,
    variation: &[u8; 7],
    set: impl Into<AdSet>,
) -> [C64; 4] {
    let b = Basis::new(s);
    let [gg, gq, qg, qq] = [variation[0], variation[1], variation[2], variation[3]];
    let set = set.into();
    if check_singlet_nf(nf, set).is_err() {
        return [NAN; 4];
    }
    if set == AdSet::Set2512 {
        use tables_2512::{GG, GQ, NSP, PS, QG};
        let i = (nf - 3) as usize;
        [
            NSP.eval(&b, nf, qq) + PS[i].eval(&b, nf, qq),
            QG[i].eval(&b, nf, qg),
            GQ[i].eval(&b, nf, gq),
            GG[i].eval(&b, nf, gg),
        ]
    } else if set == AdSet::Fhmruvv {
        use tables_fhmruvv::{GG, GQ, NSP, PS, QG};
        let i = (nf - 3) as usize;
        [
            NSP.eval(&b, nf, qq) + PS[i].eval(&b, nf, qq),
            QG[i].eval(&b, nf, qg),
            GQ[i].eval(&b, nf, gq),
            GG[i].eval(&b, nf, gg),
        ]
    } else {
        use tables_nnpdf::{GG, GQ, NSP, PS, QG};
        [
            NSP.eval(&b, nf, 0) + PS.eval(&b, nf, qq),
            QG.eval(&b, nf, qg),
            GQ.eval(&b, nf, gq),
            GG.eval(&b, nf, gg),
        ]
    }
}

/// The table whose variation count bounds entry `i` of `n3lo_ad_variation`
/// (None: the entry has no variations in this variant).
fn variation_table(i: usize, set: AdSet) -> Option<&'static Param> {
    if set == AdSet::Set2512 {
        use tables_2512::{GG, GQ, NSM, NSP, PS, QG};
        Some(match i {
            0 => &GG[0],
            1 => &GQ[0],
            2 => &QG[0],
            3 => &PS[0],
            4 => &NSP,
            _ => &NSM,
        })
    } else if set == AdSet::Fhmruvv {
        use tables_fhmruvv::{GG, GQ, NSM, NSP, PS, QG};
        Some(match i {
            0 => &GG[0],
            1 => &GQ[0],
            2 => &QG[0],
            3 => &PS[0],
            4 => &NSP,
            _ => &NSM,
        })
    } else {
        use tables_nnpdf::{GG, GQ, PS, QG};
        match i {
            0 => Some(&GG),
            1 => Some(&GQ),
            2 => Some(&QG),
            3 => Some(&PS),
            _ => None,
        }
    }
}

/// The allowed range 0..=max of each entry of `n3lo_ad_variation`: FHMRUVV 0..2 for
/// all seven (central, down, up); eko's own approximation gg 0..19, gq 0..15, qg
/// 0..15, qq 0..6 and only 0 for the non-singlet entries, which it does not vary
/// (eko's doc/source/theory/N3LO_ad.rst); the 2512 set 0..2 for all seven. eko
/// itself checks nothing and treats an out-of-range number as 0.
pub fn variation_max(set: impl Into<AdSet>) -> [u8; 7] {
    let set = set.into();
    let mut out = [0u8; 7];
    for (i, m) in out.iter_mut().enumerate() {
        *m = variation_table(i, set).map_or(0, |p| (p.count() - 1) as u8);
    }
    out
}

/// Ok when every entry of `variation` is in its range (see [`variation_max`]),
/// else a message naming the first entry that is not.
pub fn check_variation(variation: &[u8; 7], set: impl Into<AdSet>) -> Result<(), String> {
    let set = set.into();
    let use_fhmruvv = set != AdSet::Eko;
    let max = variation_max(set);
    for (i, (&v, &m)) in variation.iter().zip(max.iter()).enumerate() {
        if v > m {
            let why = if m == 0 && !use_fhmruvv {
                " (use_fhmruvv = false has no non-singlet variations)"
            } else {
                ""
            };
            return Err(format!(
                "n3lo_ad_variation[{i}] ({}) = {v}, want 0..{m}{why}",
                VARIATION_NAMES[i]
            ));
        }
    }
    Ok(())
}

/// Ok when the singlet of this variant exists at nf: FHMRUVV for nf = 3, 4, 5
/// only, the 2512 set for nf = 3..6, eko's own approximation for any nf.
pub fn check_singlet_nf(nf: u32, set: impl Into<AdSet>) -> Result<(), String> {
    match set.into() {
        AdSet::Fhmruvv if !(3..=5).contains(&nf) => Err(format!(
            "N3LO singlet anomalous dimensions (use_fhmruvv = true) need nf in 3..5, got {nf}"
        )),
        AdSet::Set2512 if !(3..=6).contains(&nf) => Err(format!(
            "N3LO singlet anomalous dimensions (the 2512 set) need nf in 3..6, got {nf}"
        )),
        _ => Ok(()),
    }
}
