//! The polarized space-like anomalous dimensions and matching OMEs
//! (`crate::polarized`, eko's `polarized.space_like`) through the C ABI, with
//! the output layouts of their unpolarized counterparts: the batches as
//! `ekore_gamma_ns_all_batch` / `ekore_gamma_singlet_batch` (every point
//! validated before anything is written), the OMEs as `ekore_ome_ns` /
//! `ekore_ome_singlet`. Orders: anomalous dimensions 1..3 (LO..NNLO), OMEs
//! 1..2, eko's polarized ones; beyond, EKORE_ERR_ORDER. Poles at N = 0, -1,
//! -2, ... only: unlike the unpolarized singlet, N = 1 is accepted.

use super::batch::{batch_run, Points};
use super::boundary::guard;
use super::check::{check_nf, check_order, check_physics, sums, Poles};
use super::ome::ome_entry;
use super::{EKORE_OK, EKORE_PHYSICS_EKO};
use crate::polarized;

/// Highest order of the polarized anomalous dimensions (NNLO).
pub const EKORE_MAX_POL_ORDER: u32 = 3;
/// Highest number of polarized OME terms (A^(1), A^(2)).
pub const EKORE_MAX_POL_OME_ORDER: u32 = 2;
// literals for cbindgen; they are the crate's limits
const _: () = assert!(EKORE_MAX_POL_ORDER == polarized::MAX_ORDER && EKORE_MAX_POL_OME_ORDER == polarized::MAX_OME_ORDER);

/// The polarized non-singlet towers of the three sectors at `count` points,
/// `order` 1..3, as `ekore_gamma_ns_all_batch`: writes `count*3*order` values,
/// out[(3*p + m)*order + k] = Delta gamma^(k) of sector m (m = 0 ns+ (10101),
/// 1 ns- (10201), 2 nsV (10200)); every sector is written at every order,
/// also where eko's sectors coincide (all three at k = 0, ns- and nsV at k = 1).
/// Inputs and outputs must not overlap; all pointers must be non-NULL.
/// Errors: EKORE_ERR_NULL, _ORDER, _NF, _DOMAIN (message names the point), _PANIC.
#[no_mangle]
pub extern "C" fn ekore_gamma_ns_all_batch_pol(
    order: u32,
    n_re: *const f64,
    n_im: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    ns_all_batch_pol("ekore_gamma_ns_all_batch_pol", order, EKORE_PHYSICS_EKO, n_re, n_im, count, nf, out_re, out_im)
}

/// Shared body of `ekore_gamma_ns_all_batch_pol` and its `_physics` form.
#[allow(clippy::too_many_arguments)]
fn ns_all_batch_pol(
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
        check_order(func, order, EKORE_MAX_POL_ORDER)?;
        check_nf(func, nf)?;
        let physics = check_physics(func, physics)?;
        let w = order as usize;
        // SAFETY: the caller provides `count` readable doubles per input and
        // count*3*order writable doubles per output.
        unsafe {
            batch_run(func, Points::N(n_re, n_im), count, Poles::NonSinglet, out_re, out_im, 3 * w, physics, &|s, g| {
                for (m, t) in polarized::gamma_ns_towers(order, s, nf).iter().enumerate() {
                    g[m * w..(m + 1) * w].copy_from_slice(&t[..w]);
                }
                Ok(())
            })
        }
    };
    guard(func, || run().err().unwrap_or(EKORE_OK))
}

/// The polarized singlet tower at `count` points, `order` 1..3, as
/// `ekore_gamma_singlet_batch`: writes `count*4*order` values,
/// out[(p*order + k)*4 + 2*i + j] = Delta gamma_S^(k)_{ij} on (Delta Sigma, Delta g)
/// (qq, qg, gq, gg). N = 1 is accepted (no pole there).
/// Errors: EKORE_ERR_NULL, _ORDER, _NF, _DOMAIN (message names the point), _PANIC.
#[no_mangle]
pub extern "C" fn ekore_gamma_singlet_batch_pol(
    order: u32,
    n_re: *const f64,
    n_im: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    singlet_batch_pol("ekore_gamma_singlet_batch_pol", order, EKORE_PHYSICS_EKO, n_re, n_im, count, nf, out_re, out_im)
}

/// Shared body of `ekore_gamma_singlet_batch_pol` and its `_physics` form.
#[allow(clippy::too_many_arguments)]
fn singlet_batch_pol(
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
        check_order(func, order, EKORE_MAX_POL_ORDER)?;
        check_nf(func, nf)?;
        let physics = check_physics(func, physics)?;
        let w = order as usize;
        // SAFETY: as for ekore_gamma_ns_all_batch_pol, with count*4*order outputs.
        unsafe {
            batch_run(func, Points::N(n_re, n_im), count, Poles::NonSinglet, out_re, out_im, 4 * w, physics, &|s, g| {
                for (k, m) in polarized::gamma_singlet_tower(order, s, nf).iter().take(w).enumerate() {
                    g[4 * k..4 * k + 4].copy_from_slice(&[m[0][0], m[0][1], m[1][0], m[1][1]]);
                }
                Ok(())
            })
        }
    };
    guard(func, || run().err().unwrap_or(EKORE_OK))
}

/// The order check of the polarized OMEs: 1..EKORE_MAX_POL_OME_ORDER.
fn ome_order(func: &str, order: u32) -> Result<(), i32> {
    check_order(func, order, EKORE_MAX_POL_OME_ORDER)
}

/// The polarized non-singlet matching OMEs A^(1..order)(N) on (q, H), eko's
/// polarized `A_non_singlet` (sectors 200 and 91), `order` 1..2, `L` =
/// ln(mu_h^2/m_h^2); `nf` (3..6, checked) does not enter. As `ekore_ome_ns`:
/// writes `4*order` values, out[4*k + 2*i + j] = A^(k+1)_{ij}; A^(1) = 0 and
/// A^(2) = [[A_qq,H^NS, 0], [0, 0]] (no intrinsic A_HH in the polarized case).
/// Errors: EKORE_ERR_NULL, _ORDER, _NF, _DOMAIN (also for L not finite), _PANIC;
/// nothing is written.
#[no_mangle]
pub extern "C" fn ekore_ome_ns_pol(
    order: u32,
    n_re: f64,
    n_im: f64,
    nf: u32,
    l: f64,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    ome_ns_pol("ekore_ome_ns_pol", order, EKORE_PHYSICS_EKO, n_re, n_im, nf, l, out_re, out_im)
}

/// Shared body of `ekore_ome_ns_pol` and its `_physics` form.
#[allow(clippy::too_many_arguments)]
fn ome_ns_pol(func: &str, order: u32, physics: u32, n_re: f64, n_im: f64, nf: u32, l: f64, out_re: *mut f64, out_im: *mut f64) -> i32 {
    let len = 4 * order as usize;
    ome_entry(func, order, &ome_order, n_re, n_im, nf, l, physics, Poles::NonSinglet, out_re, out_im, len, &|n, p, a| {
        let s = sums(func, n)?.with_physics(p);
        for (k, m) in polarized::a_non_singlet(order, &s, l).iter().take(order as usize).enumerate() {
            a[4 * k..4 * k + 4].copy_from_slice(&[m[0][0], m[0][1], m[1][0], m[1][1]]);
        }
        Ok(())
    })
}

/// The polarized singlet matching OMEs A^(1..order)(N) on (g, q, H), eko's
/// polarized `A_singlet` (sectors 21, 100, 90; eko has no MSbar-mass or
/// intrinsic terms here), `order` 1..2, `nf` light flavours below the
/// threshold (enters A_Hq^PS), `L` = ln(mu_h^2/m_h^2). As `ekore_ome_singlet`:
/// writes `9*order` values, out[9*k + 3*i + j] = A^(k+1)_{ij}; the H column is 0.
/// Errors: EKORE_ERR_NULL, _ORDER, _NF, _DOMAIN (also for L not finite), _PANIC;
/// nothing is written.
#[no_mangle]
pub extern "C" fn ekore_ome_singlet_pol(
    order: u32,
    n_re: f64,
    n_im: f64,
    nf: u32,
    l: f64,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    ome_singlet_pol("ekore_ome_singlet_pol", order, EKORE_PHYSICS_EKO, n_re, n_im, nf, l, out_re, out_im)
}

/// Shared body of `ekore_ome_singlet_pol` and its `_physics` form.
#[allow(clippy::too_many_arguments)]
fn ome_singlet_pol(
    func: &str,
    order: u32,
    physics: u32,
    n_re: f64,
    n_im: f64,
    nf: u32,
    l: f64,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    let len = 9 * order as usize;
    ome_entry(func, order, &ome_order, n_re, n_im, nf, l, physics, Poles::NonSinglet, out_re, out_im, len, &|n, p, a| {
        let s = sums(func, n)?.with_physics(p);
        for (k, m) in polarized::a_singlet(order, &s, nf, l).iter().take(order as usize).enumerate() {
            for i in 0..3 {
                a[9 * k + 3 * i..9 * k + 3 * i + 3].copy_from_slice(&m[i]);
            }
        }
        Ok(())
    })
}

/// `ekore_gamma_ns_all_batch_pol` with the physics `physics` where eko
/// approximates (EKORE_PHYSICS_EKO: bitwise `ekore_gamma_ns_all_batch_pol`;
/// EKORE_PHYSICS_EXACT: the exact g_3(N), docs/physics.md §16.5).
/// Errors: also EKORE_ERR_PHYSICS.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_gamma_ns_all_batch_pol_physics(
    order: u32,
    physics: u32,
    n_re: *const f64,
    n_im: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    ns_all_batch_pol("ekore_gamma_ns_all_batch_pol_physics", order, physics, n_re, n_im, count, nf, out_re, out_im)
}

/// `ekore_gamma_singlet_batch_pol` with the physics `physics`, as
/// `ekore_gamma_ns_all_batch_pol_physics`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_gamma_singlet_batch_pol_physics(
    order: u32,
    physics: u32,
    n_re: *const f64,
    n_im: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    singlet_batch_pol("ekore_gamma_singlet_batch_pol_physics", order, physics, n_re, n_im, count, nf, out_re, out_im)
}

/// `ekore_ome_ns_pol` with the physics `physics`, as `ekore_gamma_ns_all_batch_pol_physics`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_ome_ns_pol_physics(
    order: u32,
    physics: u32,
    n_re: f64,
    n_im: f64,
    nf: u32,
    l: f64,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    ome_ns_pol("ekore_ome_ns_pol_physics", order, physics, n_re, n_im, nf, l, out_re, out_im)
}

/// `ekore_ome_singlet_pol` with the physics `physics`, as `ekore_gamma_ns_all_batch_pol_physics`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_ome_singlet_pol_physics(
    order: u32,
    physics: u32,
    n_re: f64,
    n_im: f64,
    nf: u32,
    l: f64,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    ome_singlet_pol("ekore_ome_singlet_pol_physics", order, physics, n_re, n_im, nf, l, out_re, out_im)
}
