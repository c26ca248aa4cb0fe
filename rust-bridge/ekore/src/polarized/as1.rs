//! Leading-order (coefficient of a_s) polarized space-like anomalous
//! dimensions Delta gamma^(0)(N) (docs/physics.md §16.1; [GRSV] Glück, Reya,
//! Stratmann, Vogelsang hep-ph/9508347 eq. A.1, as eko's polarized `as1`).
//!
//! The non-singlet (and gamma_qq) entry is the unpolarized one (`crate::as1`).
//! Poles: N = 0, -1, -2, ...; unlike the unpolarized singlet, none at N = 1.

use crate::complex::C64;
use crate::constants::{CA, CF, TR};
use crate::harmonics::Sums;

/// Delta gamma_qg^(0) = -4 T_R nf (N-1)/(N(N+1)); vanishes at N = 1.
pub fn gamma_qg(s: &Sums, nf: u32) -> C64 {
    let n = s.n;
    -((n - 1.0) / (n * (n + 1.0))) * (4.0 * TR * nf as f64)
}

/// Delta gamma_gq^(0) = -2 C_F (N+2)/(N(N+1)).
pub fn gamma_gq(s: &Sums) -> C64 {
    let n = s.n;
    -((n + 2.0) / (n * (n + 1.0))) * (2.0 * CF)
}

/// Delta gamma_gg^(0) = 4 C_A [S_1 - 2/(N(N+1))] - 11/3 C_A + 4/3 T_R nf;
/// equal to -beta_0 at N = 1.
pub fn gamma_gg(s: &Sums, nf: u32) -> C64 {
    let n = s.n;
    (s.s1() - 2.0 / (n * (n + 1.0))) * (4.0 * CA) - 11.0 / 3.0 * CA + 4.0 / 3.0 * TR * nf as f64
}

/// The LO polarized singlet matrix [[qq, qg], [gq, gg]] on (Delta Sigma, Delta g).
pub fn gamma_singlet(s: &Sums, nf: u32) -> [[C64; 2]; 2] {
    [
        [crate::as1::gamma_ns(s, nf), gamma_qg(s, nf)],
        [gamma_gq(s), gamma_gg(s, nf)],
    ]
}
