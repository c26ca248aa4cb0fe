//! Argument checks shared by the entry points (each records a message naming
//! the argument and returns its `EKORE_ERR_*` code) and the output helpers:
//! harmonic sums with their error mapped, the finiteness check of a result,
//! and the store into split real/imaginary arrays.

use std::fmt;

use super::boundary::fail;
use super::{
    EKORE_ERR_DOMAIN, EKORE_ERR_MODE, EKORE_ERR_NF, EKORE_ERR_NULL, EKORE_ERR_ORDER, EKORE_ERR_PHYSICS, EKORE_MODE_NS_MINUS,
    EKORE_MODE_NS_PLUS, EKORE_MODE_NS_V, EKORE_N_MAX, EKORE_POLE_DISTANCE,
};
use crate::complex::C64;
use crate::harmonics::Sums;
use crate::physics::Physics;
use crate::sums::SumValues;

/// Which poles apply to a quantity.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Poles {
    /// N = 0, -1, -2, ...
    NonSinglet,
    /// N = 1, 0, -1, -2, ...
    Singlet,
}

/// Names the N argument in messages: "N", or "N[p]" for point p of a batch.
pub(super) struct Arg(pub(super) Option<usize>);

impl fmt::Display for Arg {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.0 {
            None => f.write_str("N"),
            Some(p) => write!(f, "N[{p}]"),
        }
    }
}

/// Checks that N lies in the domain (see the module comment).
pub(super) fn check_n(func: &str, what: Arg, n_re: f64, n_im: f64, poles: Poles) -> Result<C64, i32> {
    if !n_re.is_finite() || !n_im.is_finite() {
        return Err(fail(EKORE_ERR_DOMAIN, format_args!("{func}: {what} = ({n_re}, {n_im}) is not finite")));
    }
    let n = C64::new(n_re, n_im);
    if n.norm_sqr() > EKORE_N_MAX * EKORE_N_MAX {
        return Err(fail(
            EKORE_ERR_DOMAIN,
            format_args!("{func}: {what} = ({n_re}, {n_im}) has |N| > {EKORE_N_MAX:e}"),
        ));
    }
    let p = n_re.round();
    let max_pole = if poles == Poles::Singlet { 1.0 } else { 0.0 };
    if p <= max_pole && (n - p).norm_sqr() < EKORE_POLE_DISTANCE * EKORE_POLE_DISTANCE {
        return Err(fail(
            EKORE_ERR_DOMAIN,
            format_args!("{func}: {what} = ({n_re}, {n_im}) is on the pole N = {p}"),
        ));
    }
    Ok(n)
}

pub(super) fn check_order(func: &str, order: u32, max: u32) -> Result<(), i32> {
    if order < 1 || order > max {
        return Err(fail(EKORE_ERR_ORDER, format_args!("{func}: order = {order} outside 1..{max}")));
    }
    Ok(())
}

pub(super) fn check_nf(func: &str, nf: u32) -> Result<(), i32> {
    if !(3..=6).contains(&nf) {
        return Err(fail(EKORE_ERR_NF, format_args!("{func}: nf = {nf} outside 3..6")));
    }
    Ok(())
}

pub(super) fn check_mode(func: &str, mode: u32) -> Result<(), i32> {
    match mode {
        EKORE_MODE_NS_PLUS | EKORE_MODE_NS_MINUS | EKORE_MODE_NS_V => Ok(()),
        _ => Err(fail(
            EKORE_ERR_MODE,
            format_args!("{func}: mode = {mode} is not 10101 (ns+), 10201 (ns-) or 10200 (nsV)"),
        )),
    }
}

/// The physics choice of the C ABI's number (EKORE_PHYSICS_EKO or _EXACT).
pub(super) fn check_physics(func: &str, physics: u32) -> Result<Physics, i32> {
    Physics::from_abi(physics).ok_or_else(|| {
        fail(
            EKORE_ERR_PHYSICS,
            format_args!("{func}: physics = {physics} is neither EKORE_PHYSICS_EKO (0) nor EKORE_PHYSICS_EXACT (1)"),
        )
    })
}

pub(super) fn check_ptr<T>(func: &str, name: &str, p: *const T) -> Result<(), i32> {
    if p.is_null() {
        return Err(fail(EKORE_ERR_NULL, format_args!("{func}: {name} is NULL")));
    }
    Ok(())
}

pub(super) fn sums(func: &str, n: C64) -> Result<Sums, i32> {
    Sums::new(n).map_err(|e| {
        fail(EKORE_ERR_DOMAIN, format_args!("{func}: harmonic sums at N = ({}, {}) failed: {e:?}", n.re, n.im))
    })
}

/// The weight-5 harmonic sums of the N3LO anomalous dimensions and O(a_s^3) OMEs at N.
/// From the polygammas `s` holds (`SumValues::from_sums`: the values of `SumValues::new(s.n, ..)`).
pub(super) fn sum_values(func: &str, s: &Sums, is_singlet: bool) -> Result<SumValues, i32> {
    SumValues::from_sums(s, is_singlet).map_err(|e| {
        fail(EKORE_ERR_DOMAIN, format_args!("{func}: harmonic sums at N = ({}, {}) failed: {e:?}", s.n.re, s.n.im))
    })
}

pub(super) fn all_finite(v: &[C64]) -> bool {
    v.iter().all(|z| z.is_finite())
}

pub(super) fn not_finite(func: &str, n: C64) -> i32 {
    fail(EKORE_ERR_DOMAIN, format_args!("{func}: result at N = ({}, {}) is not finite", n.re, n.im))
}

/// Writes `v` to the split output arrays starting at `offset`.
///
/// # Safety
/// `re` and `im` must be valid for writes of `offset + v.len()` doubles.
pub(super) unsafe fn store(v: &[C64], re: *mut f64, im: *mut f64, offset: usize) {
    for (i, z) in v.iter().enumerate() {
        *re.add(offset + i) = z.re;
        *im.add(offset + i) = z.im;
    }
}

pub(super) fn check_l(func: &str, l: f64) -> Result<(), i32> {
    if !l.is_finite() {
        return Err(fail(EKORE_ERR_DOMAIN, format_args!("{func}: L = {l} is not finite")));
    }
    Ok(())
}
