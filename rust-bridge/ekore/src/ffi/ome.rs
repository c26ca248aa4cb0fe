//! The heavy-quark matching OMEs through the C ABI: `ekore_ome_ns` and
//! `ekore_ome_singlet`, and the body every OME entry point shares
//! (`ome_entry`: also the polarized and time-like ones).

use super::boundary::{fail, guard};
use super::check::{
    all_finite, check_l, check_n, check_nf, check_order, check_physics, check_ptr, not_finite, store, sum_values, sums, Arg,
    Poles,
};
use super::{EKORE_ERR_DOMAIN, EKORE_MAX_OME_ORDER, EKORE_OK, EKORE_PHYSICS_EKO};
use super::batch::{batch_run, Points};
use crate::complex::C64;
use crate::harmonics::Sums;
use crate::physics::Physics;
use crate::ome;

/// The body every OME entry point shares (these, the polarized and the
/// time-like ones): checks the output pointers, the order (`check_order`),
/// nf, L, `physics` and N (against `poles`) in this order, lets `eval` write
/// the `len` values at the checked N for the checked physics, and stores them
/// only if all are finite. Nothing is written on an error.
#[allow(clippy::too_many_arguments)]
pub(super) fn ome_entry(
    func: &str,
    order: u32,
    check_order: &dyn Fn(&str, u32) -> Result<(), i32>,
    n_re: f64,
    n_im: f64,
    nf: u32,
    l: f64,
    physics: u32,
    poles: Poles,
    out_re: *mut f64,
    out_im: *mut f64,
    len: usize,
    eval: &dyn Fn(C64, Physics, &mut [C64]) -> Result<(), i32>,
) -> i32 {
    guard(func, || {
        let run = || -> Result<(), i32> {
            check_ptr(func, "out_re", out_re)?;
            check_ptr(func, "out_im", out_im)?;
            check_order(func, order)?;
            check_nf(func, nf)?;
            check_l(func, l)?;
            let physics = check_physics(func, physics)?;
            let n = check_n(func, Arg(None), n_re, n_im, poles)?;
            let mut buf = [C64::ZERO; 27];
            let a = &mut buf[..len];
            eval(n, physics, a)?;
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
    ome_ns_at("ekore_ome_ns", order, n_re, n_im, nf, l, EKORE_PHYSICS_EKO, out_re, out_im)
}

/// Shared body of `ekore_ome_ns` and `ekore_ome_ns_physics`.
#[allow(clippy::too_many_arguments)]
fn ome_ns_at(func: &str, order: u32, n_re: f64, n_im: f64, nf: u32, l: f64, physics: u32, out_re: *mut f64, out_im: *mut f64) -> i32 {
    let len = 4 * order as usize;
    ome_entry(func, order, &unpolarized_order, n_re, n_im, nf, l, physics, Poles::NonSinglet, out_re, out_im, len, &|n, p, a| {
        ns_values(func, &sums(func, n)?.with_physics(p), order, nf, l, a)
    })
}

/// The `4*order` values of `ekore_ome_ns` from the sums at N.
fn ns_values(func: &str, s: &Sums, order: u32, nf: u32, l: f64, a: &mut [C64]) -> Result<(), i32> {
    let terms = [ome::a_ns_1, ome::a_ns_2];
    for (k, f) in terms.iter().enumerate().take(order as usize) {
        let m = f(s, nf, l);
        a[4 * k..4 * k + 4].copy_from_slice(&[m[0][0], m[0][1], m[1][0], m[1][1]]);
    }
    if order >= 3 {
        a[8..12].copy_from_slice(&ome::a_ns_as3(&sum_values(func, s, false)?, nf, l));
    }
    Ok(())
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
    ome_singlet_at("ekore_ome_singlet", order, n_re, n_im, nf, l, EKORE_PHYSICS_EKO, out_re, out_im)
}

/// Shared body of `ekore_ome_singlet` and `ekore_ome_singlet_physics`.
#[allow(clippy::too_many_arguments)]
fn ome_singlet_at(func: &str, order: u32, n_re: f64, n_im: f64, nf: u32, l: f64, physics: u32, out_re: *mut f64, out_im: *mut f64) -> i32 {
    let len = 9 * order as usize;
    ome_entry(func, order, &unpolarized_order, n_re, n_im, nf, l, physics, Poles::Singlet, out_re, out_im, len, &|n, p, a| {
        singlet_values(func, &sums(func, n)?.with_physics(p), order, nf, l, false, a)
    })
}

/// The `9*order` values of `ekore_ome_singlet` from the sums at N, with the
/// MSbar-mass part of A^(2) added when `msbar` (`ekore_ome_singlet_msbar`).
#[allow(clippy::too_many_arguments)]
fn singlet_values(func: &str, s: &Sums, order: u32, nf: u32, l: f64, msbar: bool, a: &mut [C64]) -> Result<(), i32> {
    let terms = [ome::a_singlet_1, ome::a_singlet_2];
    for (k, f) in terms.iter().enumerate().take(order as usize) {
        let mut m = f(s, nf, l);
        if k == 1 && msbar {
            let d = ome::a_singlet_2_msbar_shift(s);
            for i in 0..3 {
                for j in 0..3 {
                    m[i][j] = m[i][j] + d[i][j];
                }
            }
        }
        for i in 0..3 {
            a[9 * k + 3 * i..9 * k + 3 * i + 3].copy_from_slice(&m[i]);
        }
    }
    if order >= 3 {
        a[18..27].copy_from_slice(&ome::a_singlet_as3(&sum_values(func, s, true)?, nf, l));
    }
    Ok(())
}

/// The OMEs of `count` points from their packed harmonic sums
/// (`ekore_sums_batch`): the checks of `order`, nf, L, `physics`, then of
/// every N (read from the sums, against `poles`) before anything is written,
/// then `width` values per point, point-major.
#[allow(clippy::too_many_arguments)]
fn ome_batch_sums(
    func: &str,
    order: u32,
    sums: *const f64,
    count: usize,
    nf: u32,
    l: f64,
    physics: u32,
    poles: Poles,
    out_re: *mut f64,
    out_im: *mut f64,
    width: usize,
    values: &dyn Fn(&Sums, &mut [C64]) -> Result<(), i32>,
) -> i32 {
    guard(func, || {
        let run = || -> Result<(), i32> {
            unpolarized_order(func, order)?;
            check_nf(func, nf)?;
            check_l(func, l)?;
            let physics = check_physics(func, physics)?;
            // SAFETY: the caller provides count*EKORE_SUMS_LEN readable doubles
            // in `sums` and count*width writable ones per output.
            unsafe { batch_run(func, Points::Packed(sums), count, poles, out_re, out_im, width, physics, values) }
        };
        run().err().unwrap_or(EKORE_OK)
    })
}

/// `ekore_ome_ns` at the `count` points whose packed harmonic sums `sums`
/// holds (`count*EKORE_SUMS_LEN` doubles from `ekore_sums_batch`): writes
/// `count*4*order` values, out[p*4*order + 4*k + 2*i + j], each bitwise that
/// of `ekore_ome_ns` at the same N. All points are checked before anything is
/// written. Errors: as `ekore_ome_ns` (EKORE_ERR_NULL also for `sums`).
#[no_mangle]
pub extern "C" fn ekore_ome_ns_batch_sums(
    order: u32,
    sums: *const f64,
    count: usize,
    nf: u32,
    l: f64,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    ome_ns_batch_sums("ekore_ome_ns_batch_sums", order, sums, count, nf, l, EKORE_PHYSICS_EKO, out_re, out_im)
}

/// Shared body of `ekore_ome_ns_batch_sums` and its `_physics` form.
#[allow(clippy::too_many_arguments)]
fn ome_ns_batch_sums(
    func: &str,
    order: u32,
    sums: *const f64,
    count: usize,
    nf: u32,
    l: f64,
    physics: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    let w = 4 * order as usize;
    ome_batch_sums(func, order, sums, count, nf, l, physics, Poles::NonSinglet, out_re, out_im, w, &|s, a| {
        ns_values(func, s, order, nf, l, a)
    })
}

/// `ekore_ome_singlet` from packed harmonic sums, as `ekore_ome_ns_batch_sums`:
/// `count*9*order` values, each bitwise that of `ekore_ome_singlet`.
#[no_mangle]
pub extern "C" fn ekore_ome_singlet_batch_sums(
    order: u32,
    sums: *const f64,
    count: usize,
    nf: u32,
    l: f64,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    ome_singlet_batch_sums("ekore_ome_singlet_batch_sums", order, sums, count, nf, l, EKORE_PHYSICS_EKO, false, out_re, out_im)
}

/// Shared body of `ekore_ome_singlet_batch_sums` and its `_physics` form.
#[allow(clippy::too_many_arguments)]
fn ome_singlet_batch_sums(
    func: &str,
    order: u32,
    sums: *const f64,
    count: usize,
    nf: u32,
    l: f64,
    physics: u32,
    msbar: bool,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    let w = 9 * order as usize;
    ome_batch_sums(func, order, sums, count, nf, l, physics, Poles::Singlet, out_re, out_im, w, &|s, a| {
        singlet_values(func, s, order, nf, l, msbar, a)
    })
}

/// `ekore_ome_ns` with the physics `physics` where eko approximates
/// (EKORE_PHYSICS_EKO: bitwise `ekore_ome_ns`; EKORE_PHYSICS_EXACT: the exact
/// g_3(N) in S_{-2,1}, docs/physics.md §12.9). Errors: also EKORE_ERR_PHYSICS.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_ome_ns_physics(
    order: u32,
    physics: u32,
    n_re: f64,
    n_im: f64,
    nf: u32,
    l: f64,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    ome_ns_at("ekore_ome_ns_physics", order, n_re, n_im, nf, l, physics, out_re, out_im)
}

/// `ekore_ome_singlet` with the physics `physics`, as `ekore_ome_ns_physics`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_ome_singlet_physics(
    order: u32,
    physics: u32,
    n_re: f64,
    n_im: f64,
    nf: u32,
    l: f64,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    ome_singlet_at("ekore_ome_singlet_physics", order, n_re, n_im, nf, l, physics, out_re, out_im)
}

/// `ekore_ome_ns_batch_sums` with the physics `physics`, as `ekore_ome_ns_physics`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_ome_ns_batch_sums_physics(
    order: u32,
    physics: u32,
    sums: *const f64,
    count: usize,
    nf: u32,
    l: f64,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    ome_ns_batch_sums("ekore_ome_ns_batch_sums_physics", order, sums, count, nf, l, physics, out_re, out_im)
}

/// `ekore_ome_singlet_batch_sums` with the physics `physics`, as `ekore_ome_ns_physics`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_ome_singlet_batch_sums_physics(
    order: u32,
    physics: u32,
    sums: *const f64,
    count: usize,
    nf: u32,
    l: f64,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    ome_singlet_batch_sums("ekore_ome_singlet_batch_sums_physics", order, sums, count, nf, l, physics, false, out_re, out_im)
}

/// The mass scheme of `is_msbar`: 0 pole (the other entry points), 1 MSbar;
/// anything else is EKORE_ERR_DOMAIN naming `is_msbar`.
fn check_msbar(func: &str, is_msbar: u32) -> Result<bool, i32> {
    match is_msbar {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(fail(EKORE_ERR_DOMAIN, format_args!("{func}: is_msbar = {is_msbar}, want 0 (pole) or 1 (MSbar)"))),
    }
}

/// `ekore_ome_singlet_physics` with the heavy-quark mass scheme: `is_msbar` 0
/// (pole: bitwise `ekore_ome_singlet_physics`) or 1 (MSbar: A^(2) gains eko's
/// MSbar-mass terms in A_gg,H and A_Hg, `ome::a_singlet_2_msbar_shift`; eko's
/// `A_singlet(..., is_msbar=True)`). Errors: as `ekore_ome_singlet_physics`,
/// EKORE_ERR_DOMAIN also for `is_msbar` not 0 or 1 (checked first).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_ome_singlet_msbar(
    order: u32,
    physics: u32,
    is_msbar: u32,
    n_re: f64,
    n_im: f64,
    nf: u32,
    l: f64,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    let func = "ekore_ome_singlet_msbar";
    let msbar = match check_msbar(func, is_msbar) {
        Ok(m) => m,
        Err(e) => return e,
    };
    let len = 9 * order as usize;
    ome_entry(func, order, &unpolarized_order, n_re, n_im, nf, l, physics, Poles::Singlet, out_re, out_im, len, &|n, p, a| {
        singlet_values(func, &sums(func, n)?.with_physics(p), order, nf, l, msbar, a)
    })
}

/// `ekore_ome_singlet_batch_sums_physics` with the mass scheme `is_msbar`, as
/// `ekore_ome_singlet_msbar`: each value bitwise that of `ekore_ome_singlet_msbar`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_ome_singlet_batch_sums_msbar(
    order: u32,
    physics: u32,
    is_msbar: u32,
    sums: *const f64,
    count: usize,
    nf: u32,
    l: f64,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    let func = "ekore_ome_singlet_batch_sums_msbar";
    match check_msbar(func, is_msbar) {
        Ok(msbar) => ome_singlet_batch_sums(func, order, sums, count, nf, l, physics, msbar, out_re, out_im),
        Err(e) => e,
    }
}
