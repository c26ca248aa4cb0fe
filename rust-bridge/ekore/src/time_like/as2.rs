//! Next-to-leading-order (coefficient of a_s^2) time-like anomalous
//! dimensions gamma_T^(1)(N), as eko's `time_like.as2`: the non-singlet in
//! the [GRV93] eq. A.6 representation (sums S'_k at N/2 or (N-1)/2, g_3 in
//! the Pegasus approximation), the singlet entries of [MM06] eqs. B.9-B.12.
//! Poles: N = 0, -1, -2, ... everywhere, N = 1 in the singlet entries.

use super::poly;
use crate::complex::C64;
use crate::constants::{CA, CF, ZETA2, ZETA3};
use crate::harmonics::Sums;

/// The non-singlet gamma_T,ns^(1) of sign `eta` (+1: ns+, S'_k = S_k(N/2);
/// -1: ns- and nsV, S'_k = S_k((N-1)/2)): eko's
/// -(C_F [(C_F - C_A/2) P_A + C_A P_B + nf/2 P_C] + 4 C_F^2 P_TL).
fn gamma_ns(s: &Sums, nf: u32, eta: f64) -> C64 {
    let n = s.n;
    let (s1, s2) = (s.s1(), s.s2());
    let (sp2, sp3) = if eta > 0.0 { (s.s_half[1], s.s_half[2]) } else { (s.s_half_minus[1], s.s_half_minus[2]) };
    // S_1((N+1)/2) = S_1((N-1)/2) + 2/(N+1)
    let s1_half_plus = s.s_half_minus[0] + 2.0 / (n + 1.0);
    let inv_n = n.recip();
    let inv_nn1 = inv_n / (n + 1.0); // 1/(N(N+1))
    let inv_nn1_2 = inv_nn1 * inv_nn1;
    let inv_nn1_3 = inv_nn1_2 * inv_nn1;
    let two_n1 = n * 2.0 + 1.0;
    // the S_{-2,1}-like combination of [GRV93]: -5/8 zeta_3 +- V
    let v = s.g3() + s1 * inv_n * inv_n - (2.0 * inv_n - 2.0 / (n + 1.0) + s1_half_plus - s.s_half[0]) * (ZETA2 / 2.0);
    let schl = -5.0 / 8.0 * ZETA3 + v * eta;
    let p_a = (s1 * two_n1 * inv_nn1_2 * 16.0 + (s1 * 2.0 - inv_nn1) * (s2 - sp2) * 16.0 + schl * 64.0 + s2 * 24.0
        - 3.0
        - sp3 * 8.0
        - poly(n, &[-1.0, 0.0, 1.0, 3.0]) * inv_nn1_3 * 8.0
        - poly(n, &[1.0, 2.0, 2.0]) * inv_nn1_3 * (16.0 * eta))
        * -0.5;
    let p_b = (s1 * (536.0 / 9.0 + two_n1 * inv_nn1_2 * 8.0) - (s1 * 16.0 + 52.0 / 3.0 - inv_nn1 * 8.0) * s2
        - 43.0 / 6.0
        - poly(n, &[9.0, 3.0, 97.0, 263.0, 151.0]) * inv_nn1_3 * (4.0 / 9.0))
        * -0.5;
    let p_c = (s1 * (-160.0 / 9.0) + s2 * (32.0 / 3.0) + 4.0 / 3.0 + poly(n, &[-3.0, 5.0, 11.0]) * inv_nn1_2 * (16.0 / 9.0))
        * -0.5;
    let p_tl = (s1 * -4.0 + 3.0 + inv_nn1 * 2.0) * (s2 * 2.0 - 2.0 * ZETA2 - two_n1 * inv_nn1_2);
    -((p_a * (CF - CA / 2.0) + p_b * CA + p_c * (0.5 * nf as f64)) * CF + p_tl * (4.0 * CF * CF))
}

/// gamma_T,ns+^(1); also the non-singlet part of gamma_T,qq^(1).
pub fn gamma_nsp(s: &Sums, nf: u32) -> C64 {
    gamma_ns(s, nf, 1.0)
}

/// gamma_T,ns-^(1), which eko also uses for nsV at this order.
pub fn gamma_nsm(s: &Sums, nf: u32) -> C64 {
    gamma_ns(s, nf, -1.0)
}

/// The pure-singlet part of gamma_T,qq^(1), [MM06] eq. B.9.
pub fn gamma_qq_ps(s: &Sums, nf: u32) -> C64 {
    let n = s.n;
    let num = poly(n, &[8.0, 44.0, 46.0, 21.0, 14.0, 15.0, 10.0, 2.0]) * 4.0;
    num / ((n - 1.0) * n.powi(3) * (n + 1.0).powi(3) * (n + 2.0).powi(2)) * (CF * nf as f64)
}

/// eko's time-like gamma_qg^(1), [MM06] eq. B.10 divided by 2 nf.
pub fn gamma_qg(s: &Sums, nf: u32) -> C64 {
    let n = s.n;
    let (s1, s2, sm2) = (s.s1(), s.s2(), s.s_minus(2, true));
    let (d1, d2) = (n + 1.0, n + 2.0);
    let p_over = poly(n, &[2.0, 1.0, 1.0]) / (n * d1 * d2); // (N^2+N+2)/(N(N+1)(N+2))
    let den2 = (n * d1 * d2).powi(2);
    let nff = nf as f64;
    let cf_part = poly(n, &[8.0, 12.0, 18.0, 77.0, 127.0, 104.0, 45.0, 9.0]) * 2.0 / (n * den2 * d1)
        - s1 * poly(n, &[-8.0, -12.0, 22.0, 25.0, 10.0, 3.0]) * 4.0 / den2
        + p_over * (s1 * s1 * 4.0 - s2 * 20.0);
    let rational = poly(n, &[144.0, 600.0, 980.0, 2186.0, 2492.0, 487.0, -1069.0, -1001.0, -423.0, -76.0]);
    let with_z2 = poly(n, &[0.0, 0.0, -288.0, -720.0, -504.0, 180.0, 576.0, 504.0, 216.0, 36.0]);
    let ca_part = (rational + with_z2 * ZETA2) * 4.0 / ((n - 1.0) * den2 * n * d1 * d2 * 9.0)
        + p_over * (sm2 * 8.0 - s1 * s1 * 4.0 + s2 * 12.0)
        + s1 * poly(n, &[-48.0, -100.0, 40.0, 77.0, 32.0, 11.0]) * 4.0 / (den2 * 3.0);
    let nf_part = poly(n, &[-12.0, -16.0, 37.0, 41.0, 17.0, 5.0]) * 8.0 / (den2 * 9.0) - p_over * s1 * (8.0 / 3.0);
    (cf_part * (nff * CF) + ca_part * (nff * CA) + nf_part * (nff * nff)) / (2.0 * nff)
}

/// eko's time-like gamma_gq^(1), [MM06] eq. B.11 times 2 nf.
pub fn gamma_gq(s: &Sums, nf: u32) -> C64 {
    let n = s.n;
    let (s1, s2, sm2) = (s.s1(), s.s2(), s.s_minus(2, true));
    let (dm, d1) = (n - 1.0, n + 1.0);
    let p_over = poly(n, &[2.0, 1.0, 1.0]) / (dm * n * d1); // (N^2+N+2)/((N-1)N(N+1))
    let den2 = (dm * n * d1).powi(2);
    let rational = poly(n, &[-4.0, -4.0, 41.0, 83.0, 41.0, -11.0, -10.0, -8.0]);
    let with_z2 = poly(n, &[0.0, 0.0, -16.0, -24.0, 0.0, 16.0, 16.0, 8.0]);
    let cf_cf = (rational + with_z2 * ZETA2) * 2.0 / (den2 * n * d1)
        + s1 * poly(n, &[4.0, -2.0, -16.0, -1.0, -2.0, 1.0]) * 8.0 / den2
        + p_over * (s2 * 12.0 - s1 * s1 * 4.0);
    let r2 = poly(n, &[16.0, 16.0, -112.0, -176.0, -145.0, -103.0, -61.0, -22.0, 5.0, 5.0, 1.0]);
    let cf_ca = -(r2 * 4.0) / (den2 * dm * n * d1 * (n + 2.0).powi(2))
        + p_over * (sm2 * 8.0 + s1 * s1 * 4.0 - s2 * 20.0)
        - s1 * poly(n, &[2.0, -2.0, -9.0, 1.0, -1.0, 1.0]) * 8.0 / den2;
    (cf_cf * (CF * CF) + cf_ca * (CF * CA)) * (2.0 * nf as f64)
}

/// Time-like gamma_gg^(1), [MM06] eq. B.12.
pub fn gamma_gg(s: &Sums, nf: u32) -> C64 {
    let n = s.n;
    let (s1, s2, s3) = (s.s1(), s.s2(), s.s3());
    let (sm2, sm3, sm21) = (s.s_minus(2, true), s.s_minus(3, true), s.s_minus2_1(true));
    let (dm, d1, d2) = (n - 1.0, n + 1.0, n + 2.0);
    let den1 = dm * n * d1 * d2; // (N-1)N(N+1)(N+2)
    let den2 = den1 * den1;
    let nff = nf as f64;
    let cf_nf = poly(n, &[-16.0, 8.0, 108.0, 162.0, 106.0, 11.0, -5.0, -2.0, 6.0, 5.0, 1.0]) * 2.0 / (den2 * n * d1);
    let g_rat = poly(
        n,
        &[-576.0, -336.0, 2384.0, 1456.0, 3728.0, 10103.0, 10579.0, 5606.0, 662.0, -1277.0, -889.0, -288.0, -48.0],
    );
    let g_z2 = poly(
        n,
        &[0.0, 0.0, 1152.0, 1248.0, -1296.0, -792.0, 876.0, -1368.0, -2340.0, 120.0, 1476.0, 792.0, 132.0],
    );
    let h_rat = poly(n, &[-144.0, -144.0, 236.0, 308.0, 829.0, 680.0, -134.0, -268.0, -67.0]);
    let h_z2 = poly(n, &[0.0, 0.0, 288.0, 288.0, -504.0, -576.0, 144.0, 288.0, 72.0]);
    let ca_ca = (g_rat + g_z2 * ZETA2) * 2.0 / (den2 * den1 * 9.0) - sm3 * 8.0
        + sm2 * (poly(n, &[1.0, 1.0, 1.0]) * 32.0 / den1 - s1 * 16.0)
        - s2 * poly(n, &[12.0, -10.0, 1.0, 22.0, 11.0]) * 8.0 / (den1 * 3.0)
        + s1 * (s2 * 16.0 - (h_rat + h_z2 * ZETA2) * 4.0 / (den2 * 9.0))
        - s3 * 8.0
        + sm21 * 16.0;
    let k_rat = poly(n, &[-12.0, 26.0, 132.0, 85.0, 34.0, -9.0, -25.0, -12.0, -3.0]);
    let k_z2 = poly(n, &[0.0, 0.0, 24.0, 24.0, -42.0, -48.0, 12.0, 24.0, 6.0]);
    let ca_nf = -((k_rat + k_z2 * ZETA2) * 8.0) / (den2 * 9.0) - s1 * (40.0 / 9.0) + s2 * (16.0 / 3.0);
    cf_nf * (nff * CF) + ca_ca * (CA * CA) + ca_nf * (nff * CA)
}

/// eko's NLO time-like singlet matrix [[qq, gq], [qg, gg]], qq = ns+ + ps.
pub fn gamma_singlet(s: &Sums, nf: u32) -> [[C64; 2]; 2] {
    [
        [gamma_nsp(s, nf) + gamma_qq_ps(s, nf), gamma_gq(s, nf)],
        [gamma_qg(s, nf), gamma_gg(s, nf)],
    ]
}
