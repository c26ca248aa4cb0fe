//! The anomalous dimensions at one N through the C ABI: the non-singlet and
//! singlet towers (shared with `batch`) and `ekore_gamma_ns`,
//! `ekore_gamma_singlet`, `ekore_gamma_all`.

use super::boundary::guard;
use super::check::{all_finite, check_mode, check_n, check_nf, check_order, check_ptr, not_finite, store, sums, Arg, Poles};
use super::{EKORE_MAX_ORDER, EKORE_MODE_NS_MINUS, EKORE_MODE_NS_PLUS, EKORE_OK};
use crate::complex::C64;
use crate::harmonics::Sums;
use crate::{as1, as2, as3};

/// The non-singlet tower gamma^(0..order-1) of `mode` (validated).
pub(super) fn ns_tower(order: u32, mode: u32, s: &Sums, nf: u32) -> [C64; 3] {
    let mut g = [C64::ZERO; 3];
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
    g
}

/// The singlet tower, flattened: 4 entries (qq, qg, gq, gg) per order.
pub(super) fn singlet_tower(order: u32, s: &Sums, nf: u32) -> [C64; 12] {
    let mut g = [C64::ZERO; 12];
    let mats = [as1::gamma_singlet, as2::gamma_singlet, as3::gamma_singlet];
    for (k, f) in mats.iter().enumerate().take(order as usize) {
        let m = f(s, nf);
        g[4 * k..4 * k + 4].copy_from_slice(&[m[0][0], m[0][1], m[1][0], m[1][1]]);
    }
    g
}

/// The non-singlet anomalous dimensions gamma^(0..order-1)(N) of one sector.
/// `order` 1..3 (LO..NNLO), `mode` 10101 (ns+), 10201 (ns-) or 10200 (nsV), as in
/// eko's `gamma_ns` (LO is the same for all modes; at NLO nsV = ns-).
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
    const F: &str = "ekore_gamma_ns";
    guard(F, || {
        let run = || -> Result<(), i32> {
            check_ptr(F, "out_re", out_re)?;
            check_ptr(F, "out_im", out_im)?;
            check_order(F, order, EKORE_MAX_ORDER)?;
            check_mode(F, mode)?;
            check_nf(F, nf)?;
            let n = check_n(F, Arg(None), n_re, n_im, Poles::NonSinglet)?;
            let s = sums(F, n)?;
            let g = ns_tower(order, mode, &s, nf);
            let g = &g[..order as usize];
            if !all_finite(g) {
                return Err(not_finite(F, n));
            }
            // SAFETY: the caller provides `order` writable doubles in each output.
            unsafe { store(g, out_re, out_im, 0) };
            Ok(())
        };
        run().err().unwrap_or(EKORE_OK)
    })
}

/// The singlet anomalous-dimension matrices gamma_S^(0..order-1)(N) on the basis
/// (Sigma, g), as in eko's `gamma_singlet`. `order` 1..3.
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
    const F: &str = "ekore_gamma_singlet";
    guard(F, || {
        let run = || -> Result<(), i32> {
            check_ptr(F, "out_re", out_re)?;
            check_ptr(F, "out_im", out_im)?;
            check_order(F, order, EKORE_MAX_ORDER)?;
            check_nf(F, nf)?;
            let n = check_n(F, Arg(None), n_re, n_im, Poles::Singlet)?;
            let s = sums(F, n)?;
            let g = singlet_tower(order, &s, nf);
            let g = &g[..4 * order as usize];
            if !all_finite(g) {
                return Err(not_finite(F, n));
            }
            // SAFETY: the caller provides 4*order writable doubles in each output.
            unsafe { store(g, out_re, out_im, 0) };
            Ok(())
        };
        run().err().unwrap_or(EKORE_OK)
    })
}

/// Everything the evolution kernel needs at one N, sharing the harmonic sums:
/// the three non-singlet towers and the singlet tower, `order` 1..3.
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
            let o = order as usize;
            let mut ns = [C64::ZERO; 9];
            let lo = as1::gamma_ns(&s, nf);
            ns[0..3].copy_from_slice(&[lo, lo, lo]);
            if o >= 2 {
                let m = as2::gamma_nsm(&s, nf);
                ns[3..6].copy_from_slice(&[as2::gamma_nsp(&s, nf), m, m]);
            }
            if o >= 3 {
                ns[6..9].copy_from_slice(&[as3::gamma_nsp(&s, nf), as3::gamma_nsm(&s, nf), as3::gamma_nsv(&s, nf)]);
            }
            let sg = singlet_tower(order, &s, nf);
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
