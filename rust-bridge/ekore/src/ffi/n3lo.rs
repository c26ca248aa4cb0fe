//! The N3LO anomalous-dimension choice of eko's theory card through the C ABI:
//! the `ekore_n3lo` struct, its check (`ekore_n3lo_check`) and the N3LO term of
//! the towers of `gamma` and `batch`.

use super::boundary::{fail, guard};
use super::check::{check_ptr, sum_values, Poles};
use super::{EKORE_ERR_NF, EKORE_ERR_VARIATION, EKORE_OK};
use crate::as4;
use crate::complex::C64;
use crate::harmonics::Sums;

/// The N3LO anomalous dimensions eko's theory card selects (read at order 4 only).
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ekore_n3lo {
    /// eko's `n3lo_ad_variation`: (gg, gq, qg, qq, ns+, ns-, nsV); 0 is the central value.
    pub variation: [u32; 7],
    /// 1: the FHMRUVV parametrisations (eko's default); 0: eko's own approximation;
    /// 2: the 2512 set (arXiv:2512.10783 as HOPPET's
    /// `n3lo_splitting_approximation_up_to_2512`; singlet for nf 3..6).
    pub use_fhmruvv: u32,
}

/// eko's default choice (central values, FHMRUVV): what the entry points
/// without an `ekore_n3lo` argument use at order 4.
pub(super) const DEFAULT_N3LO: ekore_n3lo = ekore_n3lo { variation: [0; 7], use_fhmruvv: 1 };

/// The checked choice in the form of `as4`.
pub(super) struct Choice {
    pub(super) variation: [u8; 7],
    pub(super) set: as4::AdSet,
}

/// Checks a choice and puts it in the form of `as4`. Only `use_fhmruvv` (0, 1, 2) can be
/// wrong: a variation entry beyond the range eko implements is what eko makes
/// of it, the central value (eko checks no range; `ekore_n3lo_variation_max`
/// tells callers the ranges, e.g. to warn).
pub(super) fn check_choice(func: &str, c: &ekore_n3lo) -> Result<Choice, i32> {
    let Some(set) = as4::AdSet::from_index(c.use_fhmruvv) else {
        return Err(fail(EKORE_ERR_VARIATION, format_args!("{func}: use_fhmruvv = {} is not 0, 1 or 2", c.use_fhmruvv)));
    };
    // 255 is beyond every range, so it is the central value as any larger number
    let variation = c.variation.map(|v| v.min(255) as u8);
    Ok(Choice { variation, set })
}

/// The poles of a non-singlet tower that reaches `order` with `choice` and
/// includes nsV: eko's own N3LO nsV (use_fhmruvv = 0) has one at N = 1 (eko
/// divides by zero there), so N = 1 joins N = 0, -1, ...; every other
/// non-singlet gamma^(3) is finite at N = 1.
pub(super) fn ns_poles(choice: Option<&Choice>, includes_valence: bool) -> Poles {
    match choice {
        Some(c) if includes_valence && c.set == as4::AdSet::Eko => Poles::Singlet,
        _ => Poles::NonSinglet,
    }
}

/// Reads and checks the caller's choice when `order` reaches N3LO (NULL is
/// accepted below, where the choice is not read).
///
/// # Safety
/// `p` NULL or valid for reads of one `ekore_n3lo`.
pub(super) unsafe fn read_choice(func: &str, order: u32, p: *const ekore_n3lo) -> Result<Option<Choice>, i32> {
    if order < 4 {
        return Ok(None);
    }
    check_ptr(func, "n3lo", p)?;
    check_choice(func, &*p).map(Some)
}

/// gamma_ns^(3) of the three sectors (ns+, ns-, nsV) at N.
pub(super) fn ns_n3lo_all(func: &str, sums: &Sums, nf: u32, c: &Choice) -> Result<[C64; 3], i32> {
    let s = sum_values(func, sums, false)?;
    Ok(as4::gamma_ns_all(&s, nf, &c.variation, c.set))
}

/// gamma_ns^(3) of one sector at N.
pub(super) fn ns_n3lo(func: &str, mode: u32, sums: &Sums, nf: u32, c: &Choice) -> Result<C64, i32> {
    let s = sum_values(func, sums, false)?;
    Ok(as4::gamma_ns(mode, &s, nf, &c.variation, c.set))
}

/// gamma_S^(3) at N, [qq, qg, gq, gg] (the FHMRUVV singlet exists for nf 3..5,
/// the 2512 one for nf 3..6).
pub(super) fn singlet_n3lo(func: &str, sums: &Sums, nf: u32, c: &Choice) -> Result<[C64; 4], i32> {
    as4::check_singlet_nf(nf, c.set).map_err(|m| fail(EKORE_ERR_NF, format_args!("{func}: {m}")))?;
    let s = sum_values(func, sums, true)?;
    Ok(as4::gamma_singlet(&s, nf, &c.variation, c.set))
}

/// Checks an N3LO choice: EKORE_OK, or EKORE_ERR_NULL, or EKORE_ERR_VARIATION
/// when use_fhmruvv is not 0, 1 or 2. Variation entries beyond eko's ranges
/// are accepted and computed as eko computes them, as the central value
/// (`ekore_n3lo_variation_max` gives the ranges).
#[no_mangle]
pub extern "C" fn ekore_n3lo_check(n3lo: *const ekore_n3lo) -> i32 {
    const F: &str = "ekore_n3lo_check";
    guard(F, || {
        // SAFETY: checked non-NULL; the caller provides one readable ekore_n3lo.
        let run = || -> Result<(), i32> { unsafe { read_choice(F, 4, n3lo) }.map(|_| ()) };
        run().err().unwrap_or(EKORE_OK)
    })
}

/// The largest `n3lo_ad_variation` entry eko 0.15.7 implements, per entry
/// (gg, gq, qg, qq, ns+, ns-, nsV), for `use_fhmruvv` 1 (FHMRUVV: 2 each, central,
/// lower, upper) or 0 (eko's own approximation: gg 19, gq 15, qg 15, qq 6, and 0
/// for the non-singlet entries, which it does not vary) or 2 (the 2512 set: 2 each,
/// central, App1, App2). Writes 7 values.
/// Errors: EKORE_ERR_NULL, EKORE_ERR_VARIATION (use_fhmruvv not 0, 1 or 2).
#[no_mangle]
pub extern "C" fn ekore_n3lo_variation_max(use_fhmruvv: u32, out: *mut u32) -> i32 {
    const F: &str = "ekore_n3lo_variation_max";
    guard(F, || {
        let run = || -> Result<(), i32> {
            check_ptr(F, "out", out)?;
            let Some(set) = as4::AdSet::from_index(use_fhmruvv) else {
                return Err(fail(EKORE_ERR_VARIATION, format_args!("{F}: use_fhmruvv = {use_fhmruvv} is not 0, 1 or 2")));
            };
            for (i, m) in as4::variation_max(set).iter().enumerate() {
                // SAFETY: the caller provides 7 writable u32.
                unsafe { *out.add(i) = *m as u32 };
            }
            Ok(())
        };
        run().err().unwrap_or(EKORE_OK)
    })
}
