//! The anomalous dimensions at one N through the C ABI: the non-singlet and
//! singlet towers (shared with `batch`) and `ekore_gamma_ns`,
//! `ekore_gamma_singlet`, `ekore_gamma_all`.

use super::boundary::guard;
use super::check::{all_finite, check_mode, check_n, check_nf, check_order, check_ptr, not_finite, store, sums, Arg, Poles};
use super::n3lo::{check_choice, ekore_n3lo, ns_n3lo, ns_n3lo_all, ns_poles, read_choice, singlet_n3lo, Choice, DEFAULT_N3LO};
use super::{EKORE_MAX_ORDER, EKORE_MODE_NS_MINUS, EKORE_MODE_NS_PLUS, EKORE_MODE_NS_V, EKORE_OK};
use crate::complex::C64;
use crate::harmonics::Sums;
use crate::{as1, as2, as3};

/// The non-singlet tower gamma^(0..order-1) of `mode` (validated); the N3LO
/// term (order 4) with the choice `n3lo`.
pub(super) fn ns_tower(func: &str, order: u32, mode: u32, s: &Sums, nf: u32, n3lo: Option<&Choice>) -> Result<[C64; 4], i32> {
    let mut g = [C64::ZERO; 4];
    g[0] = as1::gamma_ns(s, nf);
    if order >= 2 {
        g[1] = if mode == EKORE_MODE_NS_PLUS { as2::gamma_nsp(s, nf) } else { as2::gamma_nsm(s, nf) };
    }
    if order >= 3 {
        g[2] = match mode {
            EKORE_MODE_NS_PLUS => as3::gamma_nsp(s, nf),
            EKORE_MODE_NS_MINUS => as3::gamma_nsm(s, nf),
            _ => as3::gamma_nsv(s, nf),
        };
    }
    if order >= 4 {
        g[3] = ns_n3lo(func, mode, s, nf, n3lo.expect("order 4 comes with a checked choice"))?;
    }
    Ok(g)
}

/// The towers of the three non-singlet sectors [ns+, ns-, nsV] (`ns_tower` of
/// each), with the N3LO terms computed together on one set of weight-5 sums
/// (`ns_n3lo_all`: bitwise the per-sector values).
pub(super) fn ns_towers_all(func: &str, order: u32, s: &Sums, nf: u32, n3lo: Option<&Choice>) -> Result<[[C64; 4]; 3], i32> {
    let low = order.min(3);
    let mut g = [[C64::ZERO; 4]; 3];
    for (m, mode) in [EKORE_MODE_NS_PLUS, EKORE_MODE_NS_MINUS, EKORE_MODE_NS_V].iter().enumerate() {
        g[m] = ns_tower(func, low, *mode, s, nf, None)?;
    }
    if order >= 4 {
        let top = ns_n3lo_all(func, s, nf, n3lo.expect("order 4 comes with a checked choice"))?;
        for m in 0..3 {
            g[m][3] = top[m];
        }
    }
    Ok(g)
}

/// The singlet tower, flattened: 4 entries (qq, qg, gq, gg) per order.
pub(super) fn singlet_tower(func: &str, order: u32, s: &Sums, nf: u32, n3lo: Option<&Choice>) -> Result<[C64; 16], i32> {
    let mut g = [C64::ZERO; 16];
    let mats = [as1::gamma_singlet, as2::gamma_singlet, as3::gamma_singlet];
    for (k, f) in mats.iter().enumerate().take(order as usize) {
        let m = f(s, nf);
        g[4 * k..4 * k + 4].copy_from_slice(&[m[0][0], m[0][1], m[1][0], m[1][1]]);
    }
    if order >= 4 {
        let m = singlet_n3lo(func, s, nf, n3lo.expect("order 4 comes with a checked choice"))?;
        g[12..16].copy_from_slice(&m);
    }
    Ok(g)
}

/// Shared body of `ekore_gamma_ns` and `ekore_gamma_ns_n3lo`.
#[allow(clippy::too_many_arguments)]
fn gamma_ns_at(
    func: &str,
    order: u32,
    mode: u32,
    n3lo: *const ekore_n3lo,
    n_re: f64,
    n_im: f64,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    guard(func, || {
        let run = || -> Result<(), i32> {
            check_ptr(func, "out_re", out_re)?;
            check_ptr(func, "out_im", out_im)?;
            check_order(func, order, EKORE_MAX_ORDER)?;
            check_mode(func, mode)?;
            check_nf(func, nf)?;
            // SAFETY: NULL or one readable ekore_n3lo (the caller's contract).
            let choice = unsafe { read_choice(func, order, n3lo) }?;
            let poles = ns_poles(choice.as_ref(), mode == EKORE_MODE_NS_V);
            let n = check_n(func, Arg(None), n_re, n_im, poles)?;
            let s = sums(func, n)?;
            let g = ns_tower(func, order, mode, &s, nf, choice.as_ref())?;
            let g = &g[..order as usize];
            if !all_finite(g) {
                return Err(not_finite(func, n));
            }
            // SAFETY: the caller provides `order` writable doubles in each output.
            unsafe { store(g, out_re, out_im, 0) };
            Ok(())
        };
        run().err().unwrap_or(EKORE_OK)
    })
}

/// Shared body of `ekore_gamma_singlet` and `ekore_gamma_singlet_n3lo`.
#[allow(clippy::too_many_arguments)]
fn gamma_singlet_at(
    func: &str,
    order: u32,
    n3lo: *const ekore_n3lo,
    n_re: f64,
    n_im: f64,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    guard(func, || {
        let run = || -> Result<(), i32> {
            check_ptr(func, "out_re", out_re)?;
            check_ptr(func, "out_im", out_im)?;
            check_order(func, order, EKORE_MAX_ORDER)?;
            check_nf(func, nf)?;
            // SAFETY: NULL or one readable ekore_n3lo (the caller's contract).
            let choice = unsafe { read_choice(func, order, n3lo) }?;
            let n = check_n(func, Arg(None), n_re, n_im, Poles::Singlet)?;
            let s = sums(func, n)?;
            let g = singlet_tower(func, order, &s, nf, choice.as_ref())?;
            let g = &g[..4 * order as usize];
            if !all_finite(g) {
                return Err(not_finite(func, n));
            }
            // SAFETY: the caller provides 4*order writable doubles in each output.
            unsafe { store(g, out_re, out_im, 0) };
            Ok(())
        };
        run().err().unwrap_or(EKORE_OK)
    })
}

/// The non-singlet anomalous dimensions gamma^(0..order-1)(N) of one sector.
/// `order` 1..4 (LO..N3LO; N3LO with eko's default choice, central values and
/// FHMRUVV: `ekore_gamma_ns_n3lo` takes the choice), `mode` 10101 (ns+), 10201
/// (ns-) or 10200 (nsV), as in eko's `gamma_ns` (LO is the same for all modes;
/// at NLO nsV = ns-).
/// Writes `order` values to `out_re[0..order]`, `out_im[0..order]`; index k is the
/// coefficient of a_s^{k+1}. Poles at N = 0, -1, -2, ...
/// Errors: EKORE_ERR_NULL, _ORDER, _MODE, _NF, _DOMAIN, _PANIC; nothing is written.
#[no_mangle]
pub extern "C" fn ekore_gamma_ns(
    order: u32,
    mode: u32,
    n_re: f64,
    n_im: f64,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    gamma_ns_at("ekore_gamma_ns", order, mode, &DEFAULT_N3LO, n_re, n_im, nf, out_re, out_im)
}

/// `ekore_gamma_ns` with the N3LO choice `n3lo` (eko's n3lo_ad_variation and
/// use_fhmruvv), read when `order` is 4 (then non-NULL; NULL is fine below).
/// Errors: those of `ekore_gamma_ns`, and EKORE_ERR_VARIATION (the entry named).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_gamma_ns_n3lo(
    order: u32,
    mode: u32,
    n3lo: *const ekore_n3lo,
    n_re: f64,
    n_im: f64,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    gamma_ns_at("ekore_gamma_ns_n3lo", order, mode, n3lo, n_re, n_im, nf, out_re, out_im)
}

/// The singlet anomalous-dimension matrices gamma_S^(0..order-1)(N) on the basis
/// (Sigma, g), as in eko's `gamma_singlet`. `order` 1..4 (N3LO with eko's
/// default choice; `ekore_gamma_singlet_n3lo` takes the choice).
/// Writes `4*order` values: out[4*k + 2*i + j] = gamma^(k)_{ij}, row-major
/// [[qq, qg], [gq, gg]] per order. Poles at N = 1, 0, -1, ...
/// Errors: EKORE_ERR_NULL, _ORDER, _NF, _DOMAIN, _PANIC; nothing is written.
#[no_mangle]
pub extern "C" fn ekore_gamma_singlet(
    order: u32,
    n_re: f64,
    n_im: f64,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    gamma_singlet_at("ekore_gamma_singlet", order, &DEFAULT_N3LO, n_re, n_im, nf, out_re, out_im)
}

/// `ekore_gamma_singlet` with the N3LO choice `n3lo`, read when `order` is 4.
/// Errors: those of `ekore_gamma_singlet`, and EKORE_ERR_VARIATION.
#[no_mangle]
pub extern "C" fn ekore_gamma_singlet_n3lo(
    order: u32,
    n3lo: *const ekore_n3lo,
    n_re: f64,
    n_im: f64,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    gamma_singlet_at("ekore_gamma_singlet_n3lo", order, n3lo, n_re, n_im, nf, out_re, out_im)
}

/// Everything the evolution kernel needs at one N, sharing the harmonic sums:
/// the three non-singlet towers and the singlet tower, `order` 1..4 (N3LO with
/// eko's default choice).
/// Writes `ns_re/ns_im[3*k + m]` = gamma^(k) of sector m (m = 0 ns+, 1 ns-, 2 nsV),
/// `3*order` values, and `s_re/s_im[4*k + 2*i + j]` = gamma_S^(k)_{ij}, `4*order`
/// values (as `ekore_gamma_singlet`). Singlet poles apply (N = 1 is rejected).
/// Errors: EKORE_ERR_NULL, _ORDER, _NF, _DOMAIN, _PANIC; nothing is written.
#[no_mangle]
pub extern "C" fn ekore_gamma_all(
    order: u32,
    n_re: f64,
    n_im: f64,
    nf: u32,
    ns_re: *mut f64,
    ns_im: *mut f64,
    s_re: *mut f64,
    s_im: *mut f64,
) -> i32 {
    const F: &str = "ekore_gamma_all";
    guard(F, || {
        let run = || -> Result<(), i32> {
            check_ptr(F, "ns_re", ns_re)?;
            check_ptr(F, "ns_im", ns_im)?;
            check_ptr(F, "s_re", s_re)?;
            check_ptr(F, "s_im", s_im)?;
            check_order(F, order, EKORE_MAX_ORDER)?;
            check_nf(F, nf)?;
            let n = check_n(F, Arg(None), n_re, n_im, Poles::Singlet)?;
            let s = sums(F, n)?;
            let choice = check_choice(F, &DEFAULT_N3LO)?;
            let o = order as usize;
            let mut ns = [C64::ZERO; 12];
            for (m, g) in ns_towers_all(F, order, &s, nf, Some(&choice))?.iter().enumerate() {
                for k in 0..o {
                    ns[3 * k + m] = g[k];
                }
            }
            let sg = singlet_tower(F, order, &s, nf, Some(&choice))?;
            let (ns, sg) = (&ns[..3 * o], &sg[..4 * o]);
            if !all_finite(ns) || !all_finite(sg) {
                return Err(not_finite(F, n));
            }
            // SAFETY: the caller provides 3*order and 4*order writable doubles.
            unsafe {
                store(ns, ns_re, ns_im, 0);
                store(sg, s_re, s_im, 0);
            }
            Ok(())
        };
        run().err().unwrap_or(EKORE_OK)
    })
}
