//! The anomalous dimensions at many N through the C ABI: every point is
//! validated before anything is written, then each point's values are
//! bitwise those of the single-N entry points of `gamma`.

use super::boundary::guard;
use super::check::{
    all_finite, check_mode, check_n, check_nf, check_order, check_physics, check_ptr, not_finite, store, sums, Arg, Poles,
};
use super::sums_batch::{unpack, unpack_n};
use super::gamma::{ns_tower, ns_towers_all, singlet_tower};
use super::n3lo::{ekore_n3lo, ns_poles, read_choice, DEFAULT_N3LO};
use super::{EKORE_MAX_ORDER, EKORE_MODE_NS_V, EKORE_OK, EKORE_PHYSICS_EKO};
use crate::complex::C64;
use crate::harmonics::Sums;
use crate::physics::Physics;

/// Validates the `count` points of a batch before anything is computed.
///
/// # Safety
/// `n_re`, `n_im` valid for reads of `count` doubles.
unsafe fn check_batch(func: &str, n_re: *const f64, n_im: *const f64, count: usize, poles: Poles) -> Result<(), i32> {
    for p in 0..count {
        let (re, im) = (*n_re.add(p), *n_im.add(p));
        check_n(func, Arg(Some(p)), re, im, poles)?;
    }
    Ok(())
}

/// Where a batch's points come from: N as split real and imaginary arrays, or
/// the packed harmonic sums of `ekore_sums_batch` (which hold N too).
#[derive(Clone, Copy)]
pub(super) enum Points {
    N(*const f64, *const f64),
    Packed(*const f64),
}

/// Shared body of the batch entry points: checks the pointers and every point
/// first, then writes `width` (<= 27) values per point, point-major at
/// p*width, computed by `eval` from the point's harmonic sums (computed here,
/// or unpacked: the same values, so the same bits) for `physics`.
///
/// # Safety
/// Inputs valid for reads of `count` doubles (`count*EKORE_SUMS_LEN` packed),
/// outputs for writes of `count*width` doubles, no overlap.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn batch_run(
    func: &str,
    points: Points,
    count: usize,
    poles: Poles,
    out_re: *mut f64,
    out_im: *mut f64,
    width: usize,
    physics: Physics,
    eval: &dyn Fn(&Sums, &mut [C64]) -> Result<(), i32>,
) -> Result<(), i32> {
    match points {
        Points::N(n_re, n_im) => {
            check_ptr(func, "n_re", n_re)?;
            check_ptr(func, "n_im", n_im)?;
        }
        Points::Packed(v) => check_ptr(func, "sums", v)?,
    }
    check_ptr(func, "out_re", out_re)?;
    check_ptr(func, "out_im", out_im)?;
    match points {
        Points::N(n_re, n_im) => check_batch(func, n_re, n_im, count, poles)?,
        Points::Packed(v) => {
            for p in 0..count {
                let n = unpack_n(v, p);
                check_n(func, Arg(Some(p)), n.re, n.im, poles)?;
            }
        }
    }
    let mut buf = [C64::ZERO; 27];
    let g = &mut buf[..width];
    for p in 0..count {
        let (n, s) = match points {
            Points::N(n_re, n_im) => {
                let n = C64::new(*n_re.add(p), *n_im.add(p));
                (n, sums(func, n)?)
            }
            Points::Packed(v) => (unpack_n(v, p), unpack(v, p)),
        };
        eval(&s.with_physics(physics), g)?;
        if !all_finite(g) {
            return Err(not_finite(func, n));
        }
        store(g, out_re, out_im, p * width);
    }
    Ok(())
}

/// Shared body of `ekore_gamma_singlet_batch` and its `_n3lo` form.
///
/// # Safety
/// As `batch_run`; `n3lo` NULL or one readable `ekore_n3lo`.
#[allow(clippy::too_many_arguments)]
unsafe fn singlet_batch(
    func: &str,
    order: u32,
    n3lo: *const ekore_n3lo,
    physics: u32,
    points: Points,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> Result<(), i32> {
    check_order(func, order, EKORE_MAX_ORDER)?;
    check_nf(func, nf)?;
    let choice = read_choice(func, order, n3lo)?;
    let physics = check_physics(func, physics)?;
    let w = 4 * order as usize;
    batch_run(func, points, count, Poles::Singlet, out_re, out_im, w, physics, &|s, g| {
        g.copy_from_slice(&singlet_tower(func, order, s, nf, choice.as_ref())?[..w]);
        Ok(())
    })
}

/// Shared body of `ekore_gamma_ns_batch` and its `_n3lo` form.
///
/// # Safety
/// As `singlet_batch`.
#[allow(clippy::too_many_arguments)]
unsafe fn ns_batch(
    func: &str,
    order: u32,
    mode: u32,
    n3lo: *const ekore_n3lo,
    points: Points,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> Result<(), i32> {
    check_order(func, order, EKORE_MAX_ORDER)?;
    check_mode(func, mode)?;
    check_nf(func, nf)?;
    let choice = read_choice(func, order, n3lo)?;
    let w = order as usize;
    let poles = ns_poles(choice.as_ref(), mode == EKORE_MODE_NS_V);
    batch_run(func, points, count, poles, out_re, out_im, w, Physics::Eko, &|s, g| {
        g.copy_from_slice(&ns_tower(func, order, mode, s, nf, choice.as_ref())?[..w]);
        Ok(())
    })
}

/// Shared body of `ekore_gamma_ns_all_batch` and its `_n3lo` form.
///
/// # Safety
/// As `singlet_batch`.
#[allow(clippy::too_many_arguments)]
unsafe fn ns_all_batch(
    func: &str,
    order: u32,
    n3lo: *const ekore_n3lo,
    physics: u32,
    points: Points,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> Result<(), i32> {
    check_order(func, order, EKORE_MAX_ORDER)?;
    check_nf(func, nf)?;
    let choice = read_choice(func, order, n3lo)?;
    let physics = check_physics(func, physics)?;
    let w = order as usize;
    let poles = ns_poles(choice.as_ref(), true);
    batch_run(func, points, count, poles, out_re, out_im, 3 * w, physics, &|s, g| {
        for (m, t) in ns_towers_all(func, order, s, nf, choice.as_ref())?.iter().enumerate() {
            g[m * w..(m + 1) * w].copy_from_slice(&t[..w]);
        }
        Ok(())
    })
}

/// `ekore_gamma_singlet` at `count` points N_p = n_re[p] + i n_im[p].
/// Writes `count*4*order` values, point-major: out[(p*order + k)*4 + 2*i + j];
/// each point's values are bitwise those of `ekore_gamma_singlet`. Inputs and
/// outputs must not overlap; all pointers must be non-NULL (also for count 0).
/// All points are validated before anything is written.
/// Errors: EKORE_ERR_NULL, _ORDER, _NF, _DOMAIN (message names the point), _PANIC.
#[no_mangle]
pub extern "C" fn ekore_gamma_singlet_batch(
    order: u32,
    n_re: *const f64,
    n_im: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    const F: &str = "ekore_gamma_singlet_batch";
    // SAFETY: the caller provides `count` readable doubles per input and
    // count*4*order writable doubles per output.
    guard(F, || unsafe { singlet_batch(F, order, &DEFAULT_N3LO, EKORE_PHYSICS_EKO, Points::N(n_re, n_im), count, nf, out_re, out_im) }.err().unwrap_or(EKORE_OK))
}

/// `ekore_gamma_singlet_batch` with the N3LO choice `n3lo` (read when `order`
/// is 4; then non-NULL). Each point's values are bitwise those of
/// `ekore_gamma_singlet_n3lo`. Errors: also EKORE_ERR_VARIATION.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_gamma_singlet_batch_n3lo(
    order: u32,
    n3lo: *const ekore_n3lo,
    n_re: *const f64,
    n_im: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    const F: &str = "ekore_gamma_singlet_batch_n3lo";
    // SAFETY: as for ekore_gamma_singlet_batch; n3lo NULL or readable.
    guard(F, || unsafe { singlet_batch(F, order, n3lo, EKORE_PHYSICS_EKO, Points::N(n_re, n_im), count, nf, out_re, out_im) }.err().unwrap_or(EKORE_OK))
}

/// `ekore_gamma_ns` at `count` points. Writes `count*order` values, point-major:
/// out[p*order + k]; each point's values are bitwise those of `ekore_gamma_ns`.
/// Inputs and outputs must not overlap; all pointers must be non-NULL.
/// All points are validated before anything is written.
/// Errors: EKORE_ERR_NULL, _ORDER, _MODE, _NF, _DOMAIN (message names the point), _PANIC.
#[no_mangle]
pub extern "C" fn ekore_gamma_ns_batch(
    order: u32,
    mode: u32,
    n_re: *const f64,
    n_im: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    const F: &str = "ekore_gamma_ns_batch";
    // SAFETY: as for ekore_gamma_singlet_batch, with count*order outputs.
    guard(F, || unsafe { ns_batch(F, order, mode, &DEFAULT_N3LO, Points::N(n_re, n_im), count, nf, out_re, out_im) }.err().unwrap_or(EKORE_OK))
}

/// `ekore_gamma_ns_batch` with the N3LO choice `n3lo` (read when `order` is 4).
/// Errors: also EKORE_ERR_VARIATION.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_gamma_ns_batch_n3lo(
    order: u32,
    mode: u32,
    n3lo: *const ekore_n3lo,
    n_re: *const f64,
    n_im: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    const F: &str = "ekore_gamma_ns_batch_n3lo";
    // SAFETY: as for ekore_gamma_ns_batch; n3lo NULL or readable.
    guard(F, || unsafe { ns_batch(F, order, mode, n3lo, Points::N(n_re, n_im), count, nf, out_re, out_im) }.err().unwrap_or(EKORE_OK))
}

/// The three non-singlet towers (ns+, ns-, nsV) at `count` points, sharing the
/// harmonic sums of each point. Writes `count*3*order` values, point-major then
/// sector-major: out[(3*p + m)*order + k] = gamma^(k) of sector m (m = 0 ns+,
/// 1 ns-, 2 nsV); each value is bitwise that of `ekore_gamma_ns` for the same
/// sector. Inputs and outputs must not overlap; all pointers must be non-NULL.
/// All points are validated before anything is written.
/// Errors: EKORE_ERR_NULL, _ORDER, _NF, _DOMAIN (message names the point), _PANIC.
#[no_mangle]
pub extern "C" fn ekore_gamma_ns_all_batch(
    order: u32,
    n_re: *const f64,
    n_im: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    const F: &str = "ekore_gamma_ns_all_batch";
    // SAFETY: as for ekore_gamma_singlet_batch, with count*3*order outputs.
    guard(F, || unsafe { ns_all_batch(F, order, &DEFAULT_N3LO, EKORE_PHYSICS_EKO, Points::N(n_re, n_im), count, nf, out_re, out_im) }.err().unwrap_or(EKORE_OK))
}

/// `ekore_gamma_ns_all_batch` with the N3LO choice `n3lo` (read when `order` is
/// 4); each value bitwise that of `ekore_gamma_ns_n3lo`. Errors: also
/// EKORE_ERR_VARIATION.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_gamma_ns_all_batch_n3lo(
    order: u32,
    n3lo: *const ekore_n3lo,
    n_re: *const f64,
    n_im: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    const F: &str = "ekore_gamma_ns_all_batch_n3lo";
    // SAFETY: as for ekore_gamma_ns_all_batch; n3lo NULL or readable.
    guard(F, || unsafe { ns_all_batch(F, order, n3lo, EKORE_PHYSICS_EKO, Points::N(n_re, n_im), count, nf, out_re, out_im) }.err().unwrap_or(EKORE_OK))
}

/// `ekore_gamma_singlet_batch_n3lo` at the `count` points whose packed
/// harmonic sums `sums` holds (`count*EKORE_SUMS_LEN` doubles, written by
/// `ekore_sums_batch`): the same checks of N (read from the sums) and the
/// same values, bit for bit, without computing the sums again (a caller
/// evaluating several orders or nf at the same points computes them once).
/// Errors: as `ekore_gamma_singlet_batch_n3lo` (EKORE_ERR_NULL also for `sums`).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_gamma_singlet_batch_sums(
    order: u32,
    n3lo: *const ekore_n3lo,
    sums: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    const F: &str = "ekore_gamma_singlet_batch_sums";
    // SAFETY: the caller provides count*EKORE_SUMS_LEN readable doubles in
    // `sums` and count*4*order writable doubles per output; n3lo NULL or readable.
    guard(F, || unsafe { singlet_batch(F, order, n3lo, EKORE_PHYSICS_EKO, Points::Packed(sums), count, nf, out_re, out_im) }.err().unwrap_or(EKORE_OK))
}

/// `ekore_gamma_ns_all_batch_n3lo` from packed harmonic sums, as
/// `ekore_gamma_singlet_batch_sums`: each value bitwise that of
/// `ekore_gamma_ns_all_batch_n3lo` at the same N.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_gamma_ns_all_batch_sums(
    order: u32,
    n3lo: *const ekore_n3lo,
    sums: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    const F: &str = "ekore_gamma_ns_all_batch_sums";
    // SAFETY: as for ekore_gamma_singlet_batch_sums, with count*3*order outputs.
    guard(F, || unsafe { ns_all_batch(F, order, n3lo, EKORE_PHYSICS_EKO, Points::Packed(sums), count, nf, out_re, out_im) }.err().unwrap_or(EKORE_OK))
}

/// `ekore_gamma_singlet_batch_n3lo` with the physics `physics` where eko
/// approximates: EKORE_PHYSICS_EKO gives bitwise `ekore_gamma_singlet_batch_n3lo`,
/// EKORE_PHYSICS_EXACT the exact g_3(N) and the exact NNLO anomalous
/// dimensions (docs/physics.md §12.9, §12.11). Errors: also EKORE_ERR_PHYSICS.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_gamma_singlet_batch_physics(
    order: u32,
    n3lo: *const ekore_n3lo,
    physics: u32,
    n_re: *const f64,
    n_im: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    const F: &str = "ekore_gamma_singlet_batch_physics";
    // SAFETY: as for ekore_gamma_singlet_batch_n3lo.
    guard(F, || unsafe { singlet_batch(F, order, n3lo, physics, Points::N(n_re, n_im), count, nf, out_re, out_im) }.err().unwrap_or(EKORE_OK))
}

/// `ekore_gamma_ns_all_batch_n3lo` with the physics `physics`, as
/// `ekore_gamma_singlet_batch_physics`. Errors: also EKORE_ERR_PHYSICS.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_gamma_ns_all_batch_physics(
    order: u32,
    n3lo: *const ekore_n3lo,
    physics: u32,
    n_re: *const f64,
    n_im: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    const F: &str = "ekore_gamma_ns_all_batch_physics";
    // SAFETY: as for ekore_gamma_ns_all_batch_n3lo.
    guard(F, || unsafe { ns_all_batch(F, order, n3lo, physics, Points::N(n_re, n_im), count, nf, out_re, out_im) }.err().unwrap_or(EKORE_OK))
}

/// `ekore_gamma_singlet_batch_sums` with the physics `physics` (the packed
/// sums hold none: the same packing serves both), as
/// `ekore_gamma_singlet_batch_physics`. Errors: also EKORE_ERR_PHYSICS.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_gamma_singlet_batch_sums_physics(
    order: u32,
    n3lo: *const ekore_n3lo,
    physics: u32,
    sums: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    const F: &str = "ekore_gamma_singlet_batch_sums_physics";
    // SAFETY: as for ekore_gamma_singlet_batch_sums.
    guard(F, || unsafe { singlet_batch(F, order, n3lo, physics, Points::Packed(sums), count, nf, out_re, out_im) }.err().unwrap_or(EKORE_OK))
}

/// `ekore_gamma_ns_all_batch_sums` with the physics `physics`, as
/// `ekore_gamma_singlet_batch_sums_physics`. Errors: also EKORE_ERR_PHYSICS.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_gamma_ns_all_batch_sums_physics(
    order: u32,
    n3lo: *const ekore_n3lo,
    physics: u32,
    sums: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    const F: &str = "ekore_gamma_ns_all_batch_sums_physics";
    // SAFETY: as for ekore_gamma_ns_all_batch_sums.
    guard(F, || unsafe { ns_all_batch(F, order, n3lo, physics, Points::Packed(sums), count, nf, out_re, out_im) }.err().unwrap_or(EKORE_OK))
}
