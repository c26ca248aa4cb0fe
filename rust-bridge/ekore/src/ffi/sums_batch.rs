//! Harmonic sums computed once for several tower calls at the same points:
//! `ekore_sums_batch` packs each point's `Sums` (N, S_1..S_4 at N, S_1..S_3 at
//! N/2 and (N-1)/2, and the polygammas they come from) into
//! `EKORE_SUMS_LEN` doubles, which the `*_batch_sums` entry points read back
//! instead of computing them again (the batch driver evaluates the towers of
//! many orders and nf at the same path nodes; the sums are a third to a half
//! of a tower's cost at NNLO).

use super::boundary::guard;
use super::check::{check_n, check_ptr, sums, Arg, Poles};
use super::EKORE_OK;
use crate::complex::C64;
use crate::harmonics::Sums;

/// Doubles per point of the packed harmonic sums (19 complex numbers).
pub const EKORE_SUMS_LEN: usize = 38;

/// The complex numbers of `s` in packing order.
fn packed(s: &Sums) -> [C64; 19] {
    let mut z = [C64::ZERO; 19];
    z[0] = s.n;
    z[1..5].copy_from_slice(&s.s);
    z[5..8].copy_from_slice(&s.s_half);
    z[8..11].copy_from_slice(&s.s_half_minus);
    z[11..15].copy_from_slice(&s.psi[0]);
    z[15..19].copy_from_slice(&s.psi[1]);
    z
}

/// Complex number i of point p of a packed array.
///
/// # Safety
/// `v` valid for reads of (p+1)*EKORE_SUMS_LEN doubles.
unsafe fn at(v: *const f64, p: usize, i: usize) -> C64 {
    let o = p * EKORE_SUMS_LEN + 2 * i;
    C64::new(*v.add(o), *v.add(o + 1))
}

/// N of point p of a packed array.
///
/// # Safety
/// As `at`.
pub(super) unsafe fn unpack_n(v: *const f64, p: usize) -> C64 {
    at(v, p, 0)
}

/// The sums of point p of a packed array: the values that were packed, for eko's
/// physics (the packing holds no physics: the entry point that reads them sets it).
///
/// # Safety
/// As `at`.
pub(super) unsafe fn unpack(v: *const f64, p: usize) -> Sums {
    let row = |first: usize, len: usize| -> [C64; 4] {
        let mut r = [C64::ZERO; 4];
        for (i, z) in r.iter_mut().enumerate().take(len) {
            *z = at(v, p, first + i);
        }
        r
    };
    let (s, h, hm) = (row(1, 4), row(5, 3), row(8, 3));
    Sums::from_values(at(v, p, 0), s, [h[0], h[1], h[2]], [hm[0], hm[1], hm[2]], [row(11, 4), row(15, 4)])
}

/// The harmonic sums of the `count` points N_p = n_re[p] + i n_im[p] into
/// `out` (`count*EKORE_SUMS_LEN` doubles, point-major; the layout is the
/// crate's: pass it on to the `*_batch_sums` entry points only). Every point
/// is checked first (finite, |N| <= EKORE_N_MAX, off N = 0, -1, -2, ...);
/// nothing is written on an error. Errors: EKORE_ERR_NULL, _DOMAIN (the
/// message names the point), _PANIC.
#[no_mangle]
pub extern "C" fn ekore_sums_batch(n_re: *const f64, n_im: *const f64, count: usize, out: *mut f64) -> i32 {
    const F: &str = "ekore_sums_batch";
    guard(F, || {
        let run = || -> Result<(), i32> {
            check_ptr(F, "n_re", n_re)?;
            check_ptr(F, "n_im", n_im)?;
            check_ptr(F, "out", out)?;
            // SAFETY: the caller provides `count` readable doubles per input
            // and count*EKORE_SUMS_LEN writable ones in `out`.
            unsafe {
                for p in 0..count {
                    check_n(F, Arg(Some(p)), *n_re.add(p), *n_im.add(p), Poles::NonSinglet)?;
                }
                for p in 0..count {
                    let n = C64::new(*n_re.add(p), *n_im.add(p));
                    let s = sums(F, n)?; // cannot fail off the poles checked above
                    for (i, z) in packed(&s).iter().enumerate() {
                        *out.add(p * EKORE_SUMS_LEN + 2 * i) = z.re;
                        *out.add(p * EKORE_SUMS_LEN + 2 * i + 1) = z.im;
                    }
                }
            }
            Ok(())
        };
        run().err().unwrap_or(EKORE_OK)
    })
}
