//! The heavy-quark matching OMEs through the C ABI: `ekore_ome_ns` and
//! `ekore_ome_singlet`, and the body every OME entry point shares
//! (`ome_entry`: also the polarized and time-like ones).

use super::boundary::guard;
use super::check::{all_finite, check_l, check_n, check_nf, check_order, check_ptr, not_finite, store, sum_values, sums, Arg, Poles};
use super::{EKORE_MAX_OME_ORDER, EKORE_OK};
use crate::complex::C64;
use crate::ome;

/// The body every OME entry point shares (these, the polarized and the
/// time-like ones): checks the output pointers, the order (`check_order`),
/// nf, L and N (against `poles`) in this order, lets `eval` write the `len`
/// values at the checked N, and stores them only if all are finite. Nothing
/// is written on an error.
#[allow(clippy::too_many_arguments)]
pub(super) fn ome_entry(
    func: &str,
    order: u32,
    check_order: &dyn Fn(&str, u32) -> Result<(), i32>,
    n_re: f64,
    n_im: f64,
    nf: u32,
    l: f64,
    poles: Poles,
    out_re: *mut f64,
    out_im: *mut f64,
    len: usize,
    eval: &dyn Fn(C64, &mut [C64]) -> Result<(), i32>,
) -> i32 {
    guard(func, || {
        let run = || -> Result<(), i32> {
            check_ptr(func, "out_re", out_re)?;
            check_ptr(func, "out_im", out_im)?;
            check_order(func, order)?;
            check_nf(func, nf)?;
            check_l(func, l)?;
            let n = check_n(func, Arg(None), n_re, n_im, poles)?;
            let mut buf = [C64::ZERO; 27];
            let a = &mut buf[..len];
            eval(n, a)?;
            if !all_finite(a) {
                return Err(not_finite(func, n));
            }
            // SAFETY: the caller provides `len` writable doubles in each output.
            unsafe { store(a, out_re, out_im, 0) };
            Ok(())
        };
        run().err().unwrap_or(EKORE_OK)
    })
}

/// The order check of the unpolarized OMEs: 1..EKORE_MAX_OME_ORDER.
fn unpolarized_order(func: &str, order: u32) -> Result<(), i32> {
    check_order(func, order, EKORE_MAX_OME_ORDER)
}

/// The non-singlet matching OMEs A^(1..order)(N) on the basis (q, H) (eko's
/// `A_non_singlet`, sectors 200 and 91), `order` = number of OME terms 1..3,
/// `nf` the number of light flavours below the threshold, `L` = ln(mu_h^2/m_h^2).
/// Writes `4*order` values: out[4*k + 2*i + j] = A^(k+1)_{ij}. Poles at N = 0, -1, ...
/// Errors: EKORE_ERR_NULL, _ORDER, _NF, _DOMAIN (also for L not finite), _PANIC;
/// nothing is written.
#[no_mangle]
pub extern "C" fn ekore_ome_ns(
    order: u32,
    n_re: f64,
    n_im: f64,
    nf: u32,
    l: f64,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    const F: &str = "ekore_ome_ns";
    let len = 4 * order as usize;
    ome_entry(F, order, &unpolarized_order, n_re, n_im, nf, l, Poles::NonSinglet, out_re, out_im, len, &|n, a| {
        let s = sums(F, n)?;
        let terms = [ome::a_ns_1, ome::a_ns_2];
        for (k, f) in terms.iter().enumerate().take(order as usize) {
            let m = f(&s, nf, l);
            a[4 * k..4 * k + 4].copy_from_slice(&[m[0][0], m[0][1], m[1][0], m[1][1]]);
        }
        if order >= 3 {
            a[8..12].copy_from_slice(&ome::a_ns_as3(&sum_values(F, &s, false)?, nf, l));
        }
        Ok(())
    })
}

/// The singlet matching OMEs A^(1..order)(N) on the basis (g, q, H) (eko's
/// `A_singlet` without the MSbar-mass terms, sectors 21, 100, 90), `order` 1..3,
/// `nf` light flavours, `L` = ln(mu_h^2/m_h^2).
/// Writes `9*order` values: out[9*k + 3*i + j] = A^(k+1)_{ij}. Poles at N = 1, 0, -1, ...
/// Errors: EKORE_ERR_NULL, _ORDER, _NF, _DOMAIN (also for L not finite), _PANIC;
/// nothing is written.
#[no_mangle]
pub extern "C" fn ekore_ome_singlet(
    order: u32,
    n_re: f64,
    n_im: f64,
    nf: u32,
    l: f64,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    const F: &str = "ekore_ome_singlet";
    let len = 9 * order as usize;
    ome_entry(F, order, &unpolarized_order, n_re, n_im, nf, l, Poles::Singlet, out_re, out_im, len, &|n, a| {
        let s = sums(F, n)?;
        let terms = [ome::a_singlet_1, ome::a_singlet_2];
        for (k, f) in terms.iter().enumerate().take(order as usize) {
            let m = f(&s, nf, l);
            for i in 0..3 {
                a[9 * k + 3 * i..9 * k + 3 * i + 3].copy_from_slice(&m[i]);
            }
        }
        if order >= 3 {
            a[18..27].copy_from_slice(&ome::a_singlet_as3(&sum_values(F, &s, true)?, nf, l));
        }
        Ok(())
    })
}
