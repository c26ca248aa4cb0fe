//! O(a_s a_em) anomalous dimensions gamma^(1,1)(N), eko's `as1aem1`: de Florian,
//! Sborlini, Rodrigo arXiv:1512.00612 (eqs. 26-36; the ns+- kernels are the sum
//! and difference of eqs. 33-34), and their 4x4 singlet / 2x2 valence matrices
//! (docs/physics.md §15.1). The non-singlet kernels read sums at N/2 and
//! (N+1)/2 and g_3 at N and N+2 (`MixedSums`). Poles: N = 0, -1, ...; N = 1 in
//! the singlet entries gph, phg, qg, gq, phq.

use super::{Charges, MixedSums, sum_e2};
use crate::complex::C64;
use crate::constants::{CA, CF, TR, ZETA2, ZETA3};
use crate::harmonics::Sums;

/// sum_k c[k] N^k (Horner).
pub(super) fn poly(n: C64, c: &[f64]) -> C64 {
    let mut acc = C64::real(c[c.len() - 1]);
    for ck in c[..c.len() - 1].iter().rev() {
        acc = acc * n + *ck;
    }
    acc
}

/// gamma_{photon q}^(1,1), arXiv:1512.00612 eq. 36.
pub fn gamma_phq(s: &Sums) -> C64 {
    let n = s.n;
    let (s1, s2) = (s.s1(), s.s2());
    let (nm1, n1) = (n - 1.0, n + 1.0);
    let n1_3 = n1 * n1 * n1;
    let rational = poly(n, &[-4.0, -12.0, -1.0, 28.0, 43.0, 30.0, 12.0]) * 2.0 / (nm1 * n * n * n * n1_3);
    let c_s1 = poly(n, &[10.0, 27.0, 25.0, 13.0, 5.0]) * (-4.0) / (nm1 * n * n1_3);
    let c_sq = poly(n, &[2.0, 1.0, 1.0]) * 4.0 / (nm1 * n * n1);
    (rational + c_s1 * s1 + c_sq * (s1 * s1 + s2)) * CF
}

/// gamma_{q photon}^(1,1), arXiv:1512.00612 eq. 26 (with 2 nf N_C).
pub fn gamma_qph(s: &Sums, nf: u32) -> C64 {
    let n = s.n;
    let (s1, s2) = (s.s1(), s.s2());
    let (n1, n2) = (n + 1.0, n + 2.0);
    let rational = poly(n, &[4.0, 8.0, 25.0, 51.0, 36.0, 15.0, 5.0]) * (-2.0) / (n * n * n * n1 * n1 * n1 * n2);
    let c_sq = poly(n, &[2.0, 1.0, 1.0]) * 4.0 / (n * n1 * n2);
    (rational + s1 * 8.0 / (n * n) + c_sq * (s2 - s1 * s1)) * (2.0 * nf as f64 * CA * CF)
}

/// gamma_{g photon}^(1,1), arXiv:1512.00612 eq. 27.
pub fn gamma_gph(s: &Sums) -> C64 {
    let n = s.n;
    let n1 = n + 1.0;
    // -4 - 4N - 5N^2 - 10N^3 + N^4 + 4N^5 + 2N^6
    let num = poly(n, &[-4.0, -4.0, -5.0, -10.0, 1.0, 4.0, 2.0]) * 8.0;
    num * (CF * CA) / (n * n * n * n1 * n1 * n1 * (n * n + n - 2.0))
}

/// gamma_{photon g}^(1,1) = T_R / (C_F C_A) gamma_{g photon}^(1,1), eq. 30.
pub fn gamma_phg(s: &Sums) -> C64 {
    gamma_gph(s) * (TR / CF / CA)
}

/// gamma_qg^(1,1) = T_R / (C_F C_A) gamma_{q photon}^(1,1), eq. 29.
pub fn gamma_qg(s: &Sums, nf: u32) -> C64 {
    gamma_qph(s, nf) * (TR / CF / CA)
}

/// gamma_gq^(1,1) = gamma_{photon q}^(1,1), eq. 35.
pub fn gamma_gq(s: &Sums) -> C64 {
    gamma_phq(s)
}

/// gamma_{photon photon}^(1,1) = 4 C_F C_A sum_q e_q^2, eq. 28.
pub fn gamma_phph(nf: u32) -> C64 {
    C64::real(4.0 * CF * CA * sum_e2(nf))
}

/// gamma_gg^(1,1) = 4 T_R, eq. 31.
pub fn gamma_gg() -> C64 {
    C64::real(4.0 * TR)
}

/// gamma_ns,+^(1,1) (singlet-like), the sum of eqs. 33-34.
pub fn gamma_nsp(s: &Sums, m: &MixedSums) -> C64 {
    let n = s.n;
    let (s1, s2, s3) = (s.s1(), s.s2(), s.s3());
    let [h1, h2, h3] = m.half;
    let [p1, p2, p3] = m.half_plus;
    let n1 = n + 1.0;
    let inv_nn1 = (n + n * n).recip();
    let inner = poly(n, &[-8.0, -32.0, -8.0]) - n * n * n * (n + 3.0) * (n * n + 3.0) * 3.0 - n * n * n1 * n1 * (48.0 * ZETA2);
    let rational = inner / (n * n * n * n1 * n1 * n1);
    let c_s1 = ((n * n).recip() * 3.0 - (n1 * n1).recip() * 3.0 + 2.0 * ZETA2) * 16.0 - h2 * 16.0 - s2 * 32.0 + p2 * 16.0;
    let r = (h1 - p1) * (32.0 * ZETA2) + (h2 - p2) * inv_nn1 * 8.0 - h3 * 4.0
        + (inv_nn1 * 16.0 + 24.0) * s2
        - s3 * 32.0
        + s1 * c_s1
        + rational
        + (m.g3 + m.g3_p2) * 32.0
        + p3 * 4.0
        - 16.0 * ZETA3;
    r * CF
}

/// gamma_ns,-^(1,1) (valence-like), the difference of eqs. 33-34.
pub fn gamma_nsm(s: &Sums, m: &MixedSums) -> C64 {
    let n = s.n;
    let (s1, s2, s3) = (s.s1(), s.s2(), s.s3());
    let [h1, h2, h3] = m.half;
    let [p1, p2, p3] = m.half_plus;
    let n1 = n + 1.0;
    let inv_nn1 = (n + n * n).recip();
    // 72 + N (96 - 3N (8 + 3N (3+N)(3+N^2)) + 48 N (1+N)^2 zeta_2)
    let inner = 72.0 + n * (96.0 - n * (8.0 + n * (n + 3.0) * (n * n + 3.0) * 3.0) * 3.0 + n * n1 * n1 * (48.0 * ZETA2));
    let rational = inner / (n * n * n * n1 * n1 * n1 * 3.0);
    let c_s1 = ((n1 * n1).recip() - (n * n).recip() + 2.0 * ZETA2) * 16.0 + h2 * 16.0 - s2 * 32.0 - p2 * 16.0;
    let r = (p1 - h1) * (32.0 * ZETA2) + (p2 - h2) * inv_nn1 * 8.0
        + (inv_nn1 * 16.0 + 24.0) * s2
        + s1 * c_s1
        + rational
        - (m.g3 + m.g3_p2) * 32.0
        + (h3 - p3) * 4.0
        - s3 * 32.0
        - 16.0 * ZETA3;
    r * CF
}

/// The 4x4 singlet matrix on (g, photon, Sigma, Sigma_Delta).
pub fn gamma_singlet(s: &Sums, m: &MixedSums, nf: u32) -> [[C64; 4]; 4] {
    let c = Charges::new(nf);
    let e2_tot = nf as f64 * c.e2avg;
    let (gq, phq, qg, qph, nsp) = (gamma_gq(s), gamma_phq(s), gamma_qg(s, nf), gamma_qph(s, nf), gamma_nsp(s, m));
    [
        [gamma_gg() * e2_tot, gamma_gph(s) * e2_tot, gq * c.e2avg, gq * c.vue2m],
        [gamma_phg(s) * e2_tot, gamma_phph(nf), phq * c.e2avg, phq * c.vue2m],
        [qg * c.e2avg, qph * c.e2avg, nsp * c.e2avg, nsp * c.vue2m],
        [qg * c.vde2m, qph * c.vde2m, nsp * c.vde2m, nsp * c.e2delta],
    ]
}

/// The 2x2 valence matrix on (V, V_Delta): the charge matrix times gamma_ns,-^(1,1).
pub fn gamma_valence(s: &Sums, m: &MixedSums, nf: u32) -> [[C64; 2]; 2] {
    let c = Charges::new(nf);
    let nsm = gamma_nsm(s, m);
    [[nsm * c.e2avg, nsm * c.vue2m], [nsm * c.vde2m, nsm * c.e2delta]]
}
