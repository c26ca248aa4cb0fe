//! `ekore_beta`: the beta-function coefficients through the C ABI.

use super::boundary::guard;
use super::check::{check_nf, check_ptr};
use super::EKORE_OK;
use crate::beta;

/// beta_0..beta_3 at `nf`, written to `out[0..4]` (eko normalisation,
/// d a_s/d ln mu^2 = -sum_n beta_n a_s^{n+2}, a_s = alpha_s/(4 pi); docs/physics.md §2.1).
/// Errors: EKORE_ERR_NULL, EKORE_ERR_NF (nf outside 3..6); nothing is written.
#[no_mangle]
pub extern "C" fn ekore_beta(nf: u32, out: *mut f64) -> i32 {
    const F: &str = "ekore_beta";
    guard(F, || {
        if let Err(c) = check_ptr(F, "out", out).and_then(|_| check_nf(F, nf)) {
            return c;
        }
        let b = beta::betas(nf);
        // SAFETY: the caller provides 4 writable doubles at `out` (checked non-NULL).
        unsafe {
            for (k, v) in b.iter().enumerate() {
                *out.add(k) = *v;
            }
        }
        EKORE_OK
    })
}
