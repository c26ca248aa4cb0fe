//! Leading-order (coefficient of a_s) time-like anomalous dimensions
//! gamma_T^(0)(N), as eko's `time_like.as1`: [MM06] eqs. B.3-B.6 (with
//! [GRV93] eq. A.1 for the off-diagonal normalisation). Poles: N = 0, -1, -2,
//! ... everywhere, N = 1 in gamma_gq and gamma_gg.

use super::poly;
use crate::complex::C64;
use crate::constants::{CA, CF};
use crate::harmonics::Sums;

/// gamma_qq^(0) = C_F [4 S_1 - 3 - 2/(N(N+1))]: the space-like value; also the
/// non-singlet gamma_ns^(0) of every mode.
pub fn gamma_qq(s: &Sums) -> C64 {
    let n = s.n;
    (s.s1() * 4.0 - 3.0 - 2.0 / (n * (n + 1.0))) * CF
}

/// eko's time-like gamma_qg^(0) = -(N^2+N+2)/(N(N+1)(N+2)) (no nf: the
/// singlet's quark index carries the 1/(2 nf) of the gluon -> Sigma splitting).
pub fn gamma_qg(s: &Sums) -> C64 {
    let n = s.n;
    -(poly(n, &[2.0, 1.0, 1.0]) / (n * (n + 1.0) * (n + 2.0)))
}

/// eko's time-like gamma_gq^(0) = -4 nf C_F (N^2+N+2)/((N-1)N(N+1)).
pub fn gamma_gq(s: &Sums, nf: u32) -> C64 {
    let n = s.n;
    -(poly(n, &[2.0, 1.0, 1.0]) / ((n - 1.0) * n * (n + 1.0))) * (4.0 * nf as f64 * CF)
}

/// gamma_gg^(0) = (2 nf - 11 C_A)/3 + 4 C_A [S_1 - 1/(N(N-1)) - 1/((N+1)(N+2))]
/// (the space-like value).
pub fn gamma_gg(s: &Sums, nf: u32) -> C64 {
    let n = s.n;
    (s.s1() - 1.0 / (n * (n - 1.0)) - 1.0 / ((n + 1.0) * (n + 2.0))) * (4.0 * CA) + (2.0 * nf as f64 - 11.0 * CA) / 3.0
}

/// eko's LO time-like singlet matrix [[qq, gq], [qg, gg]] (its layout: the
/// gluon-quark entry in row 0).
pub fn gamma_singlet(s: &Sums, nf: u32) -> [[C64; 2]; 2] {
    [[gamma_qq(s), gamma_gq(s, nf)], [gamma_qg(s), gamma_gg(s, nf)]]
}
