//! The time-like (fragmentation) anomalous dimensions and matching OMEs
//! through the C ABI, as eko 0.15.7's `time_like` modules
//! (docs/physics.md §16.2): `ekore_gamma_ns_all_batch_tl`,
//! `ekore_gamma_singlet_batch_tl` (the layouts of their space-like
//! counterparts in `batch`), `ekore_ome_ns_tl`, `ekore_ome_singlet_tl` (those
//! of `ome`, order 1 only).

use super::batch::{batch_run, Points};
use super::boundary::{fail, guard};
use super::check::{check_nf, check_order, check_physics, Poles};
use super::ome::ome_entry;
use super::{EKORE_ERR_ORDER, EKORE_OK, EKORE_PHYSICS_EKO};
use crate::complex::C64;
use crate::time_like::{self, ome, NsMode};

/// Highest order of the time-like anomalous dimensions (NNLO, as eko).
pub const EKORE_MAX_ORDER_TL: u32 = 3;
/// Highest number of time-like OME terms: eko has A^(1) only.
pub const EKORE_MAX_OME_ORDER_TL: u32 = 1;

/// Refuses every OME order but 1: eko's time-like OMEs are O(a_s) only (its
/// `A_singlet` / `A_non_singlet` fill the a_s^2 and a_s^3 terms with zeros).
fn check_ome_order(func: &str, order: u32) -> Result<(), i32> {
    if order != EKORE_MAX_OME_ORDER_TL {
        return Err(fail(
            EKORE_ERR_ORDER,
            format_args!("{func}: order = {order} is not 1 (eko's time-like OMEs are O(a_s) only)"),
        ));
    }
    Ok(())
}

/// The three time-like non-singlet towers (ns+, ns-, nsV) at `count` points,
/// `order` 1..3 (LO..NNLO), `nf` 3..6. Writes `count*3*order` values,
/// point-major then sector-major: out[(3*p + m)*order + k] = gamma_T^(k) of
/// sector m (m = 0 ns+ 10101, 1 ns- 10201, 2 nsV 10200), eko's
/// `time_like.gamma_ns(order, mode, N, nf)`: LO the same for all sectors,
/// at NLO nsV = ns-. Poles at N = 0, -1, -2, ... Inputs and outputs must not
/// overlap; all pointers non-NULL (also for count 0). All points are
/// validated before anything is written.
/// Errors: EKORE_ERR_NULL, _ORDER, _NF, _DOMAIN (message names the point), _PANIC.
#[no_mangle]
pub extern "C" fn ekore_gamma_ns_all_batch_tl(
    order: u32,
    n_re: *const f64,
    n_im: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    ns_all_batch_tl("ekore_gamma_ns_all_batch_tl", order, EKORE_PHYSICS_EKO, n_re, n_im, count, nf, out_re, out_im)
}

/// Shared body of `ekore_gamma_ns_all_batch_tl` and its `_physics` form.
#[allow(clippy::too_many_arguments)]
fn ns_all_batch_tl(
    func: &str,
    order: u32,
    physics: u32,
    n_re: *const f64,
    n_im: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    let run = || -> Result<(), i32> {
        check_order(func, order, EKORE_MAX_ORDER_TL)?;
        check_nf(func, nf)?;
        let physics = check_physics(func, physics)?;
        let w = order as usize;
        // SAFETY: the caller provides `count` readable doubles per input and
        // count*3*order writable doubles per output.
        unsafe {
            batch_run(func, Points::N(n_re, n_im), count, Poles::NonSinglet, out_re, out_im, 3 * w, physics, &|s, g| {
                for (m, mode) in NsMode::ALL.iter().enumerate() {
                    g[m * w..(m + 1) * w].copy_from_slice(&time_like::gamma_ns_tower(order, *mode, s, nf)[..w]);
                }
                Ok(())
            })
        }
    };
    guard(func, || run().err().unwrap_or(EKORE_OK))
}

/// eko's time-like singlet matrices gamma_T,S^(0..order-1) at `count` points,
/// `order` 1..3, `nf` 3..6. Writes `count*4*order` values, point-major:
/// out[(p*order + k)*4 + 2*i + j] = eko's `time_like.gamma_singlet(order, N,
/// nf)[k][i][j]`, i.e. [[qq, gq], [qg, gg]] per order (eko's time-like layout,
/// not transposed: the gluon-quark entry is at i = 0, j = 1). Poles at N = 1,
/// 0, -1, ... Pointers and validation as `ekore_gamma_ns_all_batch_tl`.
/// Errors: EKORE_ERR_NULL, _ORDER, _NF, _DOMAIN (message names the point), _PANIC.
#[no_mangle]
pub extern "C" fn ekore_gamma_singlet_batch_tl(
    order: u32,
    n_re: *const f64,
    n_im: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    singlet_batch_tl("ekore_gamma_singlet_batch_tl", order, EKORE_PHYSICS_EKO, n_re, n_im, count, nf, out_re, out_im)
}

/// Shared body of `ekore_gamma_singlet_batch_tl` and its `_physics` form.
#[allow(clippy::too_many_arguments)]
fn singlet_batch_tl(
    func: &str,
    order: u32,
    physics: u32,
    n_re: *const f64,
    n_im: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    let run = || -> Result<(), i32> {
        check_order(func, order, EKORE_MAX_ORDER_TL)?;
        check_nf(func, nf)?;
        let physics = check_physics(func, physics)?;
        let o = order as usize;
        // SAFETY: as for ekore_gamma_ns_all_batch_tl, with count*4*order outputs.
        unsafe {
            batch_run(func, Points::N(n_re, n_im), count, Poles::Singlet, out_re, out_im, 4 * o, physics, &|s, g| {
                let t = time_like::gamma_singlet_tower(order, s, nf);
                for k in 0..o {
                    g[4 * k..4 * k + 4].copy_from_slice(&[t[k][0][0], t[k][0][1], t[k][1][0], t[k][1][1]]);
                }
                Ok(())
            })
        }
    };
    guard(func, || run().err().unwrap_or(EKORE_OK))
}

/// eko's time-like non-singlet matching OME on (q, H) (`time_like.A_non_singlet`),
/// `order` 1 only (eko has A^(1) only: `order` 2, 3 are refused, eko would
/// return zeros for them), `nf` 3..6 (checked; it does not enter), `L` =
/// ln(mu^2/m_h^2) (finite; it does not enter). Writes 4 values, out[2*i + j] =
/// A^(1)_{ij}, all zero in eko. Poles at N = 0, -1, ...
/// Errors: EKORE_ERR_NULL, _ORDER, _NF, _DOMAIN, _PANIC; nothing is written.
#[no_mangle]
pub extern "C" fn ekore_ome_ns_tl(
    order: u32,
    n_re: f64,
    n_im: f64,
    nf: u32,
    l: f64,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    // O(a_s): no quantity eko approximates, so eko's physics is the exact one
    let eval = |_n: C64, _physics, a: &mut [C64]| {
        a.copy_from_slice(ome::a_ns_1().as_flattened());
        Ok(())
    };
    let p = EKORE_PHYSICS_EKO;
    ome_entry("ekore_ome_ns_tl", order, &check_ome_order, n_re, n_im, nf, l, p, Poles::NonSinglet, out_re, out_im, 4, &eval)
}

/// eko's time-like singlet matching OME on (g, q, H) (`time_like.A_singlet`),
/// `order` 1 only (as `ekore_ome_ns_tl`), `nf` 3..6 (checked; it does not
/// enter), `L` = ln(mu^2/m_h^2). Writes 9 values, out[3*i + j] = A^(1)_{ij}:
/// A_gg = -2L/3 at [0][0], A_Hg at [2][0], zero elsewhere. Poles at N = 1, 0, -1, ...
/// Errors: EKORE_ERR_NULL, _ORDER, _NF, _DOMAIN (also for L not finite), _PANIC;
/// nothing is written.
#[no_mangle]
pub extern "C" fn ekore_ome_singlet_tl(
    order: u32,
    n_re: f64,
    n_im: f64,
    nf: u32,
    l: f64,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    // O(a_s): no quantity eko approximates (as ekore_ome_ns_tl)
    let eval = |n: C64, _physics, a: &mut [C64]| {
        a.copy_from_slice(ome::a_singlet_1(n, l).as_flattened());
        Ok(())
    };
    let p = EKORE_PHYSICS_EKO;
    ome_entry("ekore_ome_singlet_tl", order, &check_ome_order, n_re, n_im, nf, l, p, Poles::Singlet, out_re, out_im, 9, &eval)
}

/// `ekore_gamma_ns_all_batch_tl` with the physics `physics` where eko
/// approximates (EKORE_PHYSICS_EKO: bitwise `ekore_gamma_ns_all_batch_tl`;
/// EKORE_PHYSICS_EXACT: the exact g_3(N) of the NLO non-singlet, docs/physics.md
/// §16.5). The time-like OMEs (O(a_s)) take no physics. Errors: also EKORE_ERR_PHYSICS.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_gamma_ns_all_batch_tl_physics(
    order: u32,
    physics: u32,
    n_re: *const f64,
    n_im: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    ns_all_batch_tl("ekore_gamma_ns_all_batch_tl_physics", order, physics, n_re, n_im, count, nf, out_re, out_im)
}

/// `ekore_gamma_singlet_batch_tl` with the physics `physics`, as
/// `ekore_gamma_ns_all_batch_tl_physics`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_gamma_singlet_batch_tl_physics(
    order: u32,
    physics: u32,
    n_re: *const f64,
    n_im: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    singlet_batch_tl("ekore_gamma_singlet_batch_tl_physics", order, physics, n_re, n_im, count, nf, out_re, out_im)
}
