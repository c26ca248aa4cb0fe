//! The QED grids of anomalous dimensions (`crate::qed::towers`, eko's
//! `gamma_ns_qed`, `gamma_valence_qed`, `gamma_singlet_qed`) at many N through
//! the C ABI: `ekore_gamma_qed_batch` and the per-point size `ekore_gamma_qed_len`.
//! Every point is validated before anything is written (as in `batch`).

use super::boundary::{fail, guard};
use super::check::{all_finite, check_n, check_nf, check_physics, check_ptr, not_finite, store, sum_values, sums, Arg, Poles};
use super::n3lo::{ekore_n3lo, ns_poles, read_choice, Choice};
use super::{EKORE_ERR_MODE, EKORE_ERR_NF, EKORE_ERR_ORDER, EKORE_MAX_ORDER, EKORE_OK, EKORE_PHYSICS_EKO};
use crate::as4;
use crate::complex::C64;
use crate::harmonics::Sums;
use crate::qed::{self, N3lo};

/// QED sector: the four non-singlet modes 10102, 10103, 10202, 10203.
pub const EKORE_QED_NS: u32 = 0;
/// QED sector: the valence 2x2 on (V, V_Delta).
pub const EKORE_QED_VALENCE: u32 = 1;
/// QED sector: the singlet 4x4 on (g, photon, Sigma, Sigma_Delta).
pub const EKORE_QED_SINGLET: u32 = 2;
/// Highest QED order (a_em^2) of `ekore_gamma_qed_batch`.
pub const EKORE_MAX_QED_ORDER: u32 = 2;
/// Largest per-point count of `ekore_gamma_qed_batch` (singlet at orders (4, 2)).
pub const EKORE_QED_LEN_MAX: usize = 240;

/// Entries per (i, j) of a sector: 4 modes, a 2x2 or a 4x4 matrix.
fn block(sector: u32) -> Option<usize> {
    match sector {
        EKORE_QED_NS | EKORE_QED_VALENCE => Some(4),
        EKORE_QED_SINGLET => Some(16),
        _ => None,
    }
}

fn qed_len(sector: u32, order_qcd: u32, order_qed: u32) -> usize {
    match block(sector) {
        Some(b) if (1..=EKORE_MAX_ORDER).contains(&order_qcd) && (1..=EKORE_MAX_QED_ORDER).contains(&order_qed) => {
            b * (order_qcd as usize + 1) * (order_qed as usize + 1)
        }
        _ => 0,
    }
}

/// Checks sector, orders and nf, naming the argument.
fn check_args(func: &str, sector: u32, order_qcd: u32, order_qed: u32, nf: u32) -> Result<(), i32> {
    if block(sector).is_none() {
        return Err(fail(
            EKORE_ERR_MODE,
            format_args!("{func}: sector = {sector} is not 0 (non-singlet), 1 (valence) or 2 (singlet)"),
        ));
    }
    if !(1..=EKORE_MAX_ORDER).contains(&order_qcd) {
        return Err(fail(EKORE_ERR_ORDER, format_args!("{func}: order_qcd = {order_qcd} outside 1..{EKORE_MAX_ORDER}")));
    }
    if !(1..=EKORE_MAX_QED_ORDER).contains(&order_qed) {
        return Err(fail(EKORE_ERR_ORDER, format_args!("{func}: order_qed = {order_qed} outside 1..{EKORE_MAX_QED_ORDER}")));
    }
    check_nf(func, nf)
}

/// The grid of one point, flattened into `g` (qed_len entries) in the layout of
/// `ekore_gamma_qed_batch`.
#[allow(clippy::too_many_arguments)]
fn eval_point(func: &str, sector: u32, oq: u32, oe: u32, s: &Sums, nf: u32, choice: Option<&Choice>, g: &mut [C64]) -> Result<(), i32> {
    let sums5 = match choice {
        Some(_) => Some(sum_values(func, s, sector == EKORE_QED_SINGLET)?),
        None => None,
    };
    let n3lo = match (choice, sums5.as_ref()) {
        (Some(c), Some(sv)) => Some(N3lo { sums: sv, variation: c.variation, set: c.set }),
        _ => None,
    };
    let (ni, nj) = (oq as usize + 1, oe as usize + 1);
    let mut k = 0;
    match sector {
        EKORE_QED_NS => {
            for t in qed::gamma_ns_qed_all(oq, oe, s, nf, n3lo.as_ref()) {
                for row in t.iter().take(ni) {
                    g[k..k + nj].copy_from_slice(&row[..nj]);
                    k += nj;
                }
            }
        }
        EKORE_QED_VALENCE => {
            let t = qed::gamma_valence_qed(oq, oe, s, nf, n3lo.as_ref());
            for row in t.iter().take(ni) {
                for m in &row[..nj] {
                    for r in m {
                        g[k..k + 2].copy_from_slice(r);
                        k += 2;
                    }
                }
            }
        }
        _ => {
            let t = qed::gamma_singlet_qed(oq, oe, s, nf, n3lo.as_ref());
            for row in t.iter().take(ni) {
                for m in &row[..nj] {
                    for r in m {
                        g[k..k + 4].copy_from_slice(r);
                        k += 4;
                    }
                }
            }
        }
    }
    debug_assert_eq!(k, g.len());
    Ok(())
}

/// Body of `ekore_gamma_qed_batch`.
///
/// # Safety
/// As `ekore_gamma_qed_batch`.
#[allow(clippy::too_many_arguments)]
unsafe fn qed_batch(
    func: &str,
    sector: u32,
    order_qcd: u32,
    order_qed: u32,
    n3lo: *const ekore_n3lo,
    physics: u32,
    n_re: *const f64,
    n_im: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> Result<(), i32> {
    check_args(func, sector, order_qcd, order_qed, nf)?;
    let choice = read_choice(func, order_qcd, n3lo)?;
    let physics = check_physics(func, physics)?;
    if let Some(c) = choice.as_ref() {
        if sector == EKORE_QED_SINGLET {
            as4::check_singlet_nf(nf, c.set).map_err(|m| fail(EKORE_ERR_NF, format_args!("{func}: {m}")))?;
        }
    }
    check_ptr(func, "n_re", n_re)?;
    check_ptr(func, "n_im", n_im)?;
    check_ptr(func, "out_re", out_re)?;
    check_ptr(func, "out_im", out_im)?;
    let poles = match sector {
        EKORE_QED_NS => Poles::NonSinglet,
        EKORE_QED_VALENCE => ns_poles(choice.as_ref(), true),
        _ => Poles::Singlet,
    };
    for p in 0..count {
        check_n(func, Arg(Some(p)), *n_re.add(p), *n_im.add(p), poles)?;
    }
    let width = qed_len(sector, order_qcd, order_qed);
    let mut buf = [C64::ZERO; EKORE_QED_LEN_MAX];
    let g = &mut buf[..width];
    for p in 0..count {
        let n = C64::new(*n_re.add(p), *n_im.add(p));
        let s = sums(func, n)?.with_physics(physics);
        eval_point(func, sector, order_qcd, order_qed, &s, nf, choice.as_ref(), g)?;
        if !all_finite(g) {
            return Err(not_finite(func, n));
        }
        store(g, out_re, out_im, p * width);
    }
    Ok(())
}

/// The number of values per point `ekore_gamma_qed_batch` writes for these
/// arguments: 4 (order_qcd+1)(order_qed+1) for sectors 0 and 1, 16 (order_qcd+1)
/// (order_qed+1) for sector 2; 0 when an argument is out of range.
#[no_mangle]
pub extern "C" fn ekore_gamma_qed_len(sector: u32, order_qcd: u32, order_qed: u32) -> usize {
    qed_len(sector, order_qcd, order_qed)
}

/// eko's QED grids gamma^(i,j)(N) (coefficient of a_s^i a_em^j, i = 0..order_qcd,
/// j = 0..order_qed; eko's `gamma_ns_qed`, `gamma_valence_qed`,
/// `gamma_singlet_qed` at the order pair (order_qcd, order_qed)) at `count`
/// points N_p = n_re[p] + i n_im[p].
///
/// `sector`: EKORE_QED_NS (0), the modes 10102, 10103, 10202, 10203;
/// EKORE_QED_VALENCE (1), 2x2 on (V, V_Delta); EKORE_QED_SINGLET (2), 4x4 on
/// (g, photon, Sigma, Sigma_Delta). order_qcd 1..4, order_qed 1..2, nf 3..6.
/// `n3lo` is read at order_qcd 4 only (then non-NULL); the FHMRUVV singlet
/// needs nf 3..5 there.
///
/// Writes `ekore_gamma_qed_len(sector, order_qcd, order_qed)` values per point,
/// point-major, each point's values in C order of eko's array: non-singlet
/// [mode][i][j], valence [i][j][row][col], singlet [i][j][row][col]; the
/// entries eko leaves zero ([0][0], and those it does not fill) are 0.
/// Inputs and outputs must not overlap; all pointers non-NULL (also for count 0).
/// All points are validated before anything is written.
/// Errors: EKORE_ERR_MODE (sector), _ORDER (order_qcd, order_qed), _NF, _NULL,
/// _VARIATION, _DOMAIN (message names the point), _PANIC.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_gamma_qed_batch(
    sector: u32,
    order_qcd: u32,
    order_qed: u32,
    n3lo: *const ekore_n3lo,
    n_re: *const f64,
    n_im: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    const F: &str = "ekore_gamma_qed_batch";
    // SAFETY: the caller provides `count` readable doubles per input, count *
    // ekore_gamma_qed_len(..) writable doubles per output, n3lo NULL or readable.
    guard(F, || {
        unsafe { qed_batch(F, sector, order_qcd, order_qed, n3lo, EKORE_PHYSICS_EKO, n_re, n_im, count, nf, out_re, out_im) }
            .err()
            .unwrap_or(EKORE_OK)
    })
}

/// `ekore_gamma_qed_batch` with the physics `physics` where eko approximates
/// (EKORE_PHYSICS_EKO: bitwise `ekore_gamma_qed_batch`; EKORE_PHYSICS_EXACT:
/// the exact g_3(N) and the exact NNLO anomalous dimensions in the QCD
/// entries and the exact g_3 in the O(a_s a_em) ones, docs/physics.md §12.9,
/// §12.11).
/// Errors: also EKORE_ERR_PHYSICS.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn ekore_gamma_qed_batch_physics(
    sector: u32,
    order_qcd: u32,
    order_qed: u32,
    n3lo: *const ekore_n3lo,
    physics: u32,
    n_re: *const f64,
    n_im: *const f64,
    count: usize,
    nf: u32,
    out_re: *mut f64,
    out_im: *mut f64,
) -> i32 {
    const F: &str = "ekore_gamma_qed_batch_physics";
    // SAFETY: as for ekore_gamma_qed_batch.
    guard(F, || {
        unsafe { qed_batch(F, sector, order_qcd, order_qed, n3lo, physics, n_re, n_im, count, nf, out_re, out_im) }
            .err()
            .unwrap_or(EKORE_OK)
    })
}
