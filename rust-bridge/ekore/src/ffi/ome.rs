//! The heavy-quark matching OMEs through the C ABI: `ekore_ome_ns` and
//! `ekore_ome_singlet`.

use super::boundary::guard;
use super::check::{all_finite, check_l, check_n, check_nf, check_order, check_ptr, not_finite, store, sum_values, sums, Arg, Poles};
use super::{EKORE_MAX_OME_ORDER, EKORE_OK};
use crate::complex::C64;
use crate::ome;

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
    guard(F, || {
        let run = || -> Result<(), i32> {
            check_ptr(F, "out_re", out_re)?;
            check_ptr(F, "out_im", out_im)?;
            check_order(F, order, EKORE_MAX_OME_ORDER)?;
            check_nf(F, nf)?;
            check_l(F, l)?;
            let n = check_n(F, Arg(None), n_re, n_im, Poles::NonSinglet)?;
            let s = sums(F, n)?;
            let mut a = [C64::ZERO; 12];
            let terms = [ome::a_ns_1, ome::a_ns_2];
            for (k, f) in terms.iter().enumerate().take(order as usize) {
                let m = f(&s, nf, l);
                a[4 * k..4 * k + 4].copy_from_slice(&[m[0][0], m[0][1], m[1][0], m[1][1]]);
            }
            if order >= 3 {
                a[8..12].copy_from_slice(&ome::a_ns_as3(&sum_values(F, &s, false)?, nf, l));
            }
            let a = &a[..4 * order as usize];
            if !all_finite(a) {
                return Err(not_finite(F, n));
            }
            // SAFETY: the caller provides 4*order writable doubles in each output.
            unsafe { store(a, out_re, out_im, 0) };
            Ok(())
        };
        run().err().unwrap_or(EKORE_OK)
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
    guard(F, || {
        let run = || -> Result<(), i32> {
            check_ptr(F, "out_re", out_re)?;
            check_ptr(F, "out_im", out_im)?;
            check_order(F, order, EKORE_MAX_OME_ORDER)?;
            check_nf(F, nf)?;
            check_l(F, l)?;
            let n = check_n(F, Arg(None), n_re, n_im, Poles::Singlet)?;
            let s = sums(F, n)?;
            let mut a = [C64::ZERO; 27];
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
            let a = &a[..9 * order as usize];
            if !all_finite(a) {
                return Err(not_finite(F, n));
            }
            // SAFETY: the caller provides 9*order writable doubles in each output.
            unsafe { store(a, out_re, out_im, 0) };
            Ok(())
        };
        run().err().unwrap_or(EKORE_OK)
    })
}
