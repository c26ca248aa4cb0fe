//! Next-to-leading-order (coefficient of a_s^2) unpolarised space-like
//! anomalous dimensions gamma^(1)(N), in the [GRV90] representation that eko
//! evaluates: S'_k sums at N/2 (or (N-1)/2 for ns-) and g_3(N) in the 7-term
//! Pegasus approximation (docs/physics.md §5.2, §5.4). The same objects are
//! [MVV-NS] eqs. 3.5-3.6 and [MVV-S] eqs. 3.6-3.9 written with S_{-k} sums.
//!
//! Every function takes the harmonic sums at N and the number of active
//! flavours. Poles: N = 0, -1, -2, ... everywhere, N = 1 in the singlet
//! entries ps, qg, gq and gg.

use crate::complex::C64;
use crate::constants::{CA, CF, LN2, TR, ZETA2, ZETA3};
use crate::harmonics::Sums;

/// Reciprocals 1/N, 1/(N+1), shared by all pieces.
struct Inv {
    n: C64,
    n1: C64,
}

impl Inv {
    fn new(n: C64) -> Inv {
        Inv { n: n.recip(), n1: (n + 1.0).recip() }
    }
}

/// The nf part Gamma_n of gamma_ns,+-^(1) (identical for both).
fn ns_nf_part(s: &Sums, inv: &Inv) -> C64 {
    let n = s.n;
    let num = -12.0 + n * (20.0 + n * (47.0 + n * (2.0 + n) * 3.0));
    let d = inv.n * inv.n1;
    num * (d * d) / 9.0 - s.s1() * (40.0 / 9.0) + s.s2() * (8.0 / 3.0)
}

/// Shared structure of Gamma_A^{+-} and Gamma_F^{+-} (docs/physics.md §5.2):
/// `eta` is +1 for ns+ (S' at N/2) and -1 for ns- (S' at (N-1)/2); `rat_a`,
/// `rat_f` are the purely rational parts and `c_f` the coefficient of S_1/N^2
/// in Gamma_F (40 for ns+, -24 for ns-).
fn ns_colour_parts(s: &Sums, inv: &Inv, eta: f64, sp: &[C64; 3], g3: C64, rat: (C64, C64), c_f: f64) -> (C64, C64) {
    let (s1, s2) = (s.s1(), s.s2());
    let (rat_a, rat_f) = rat;
    let inv_n2 = inv.n * inv.n;
    let inv_nn1 = inv.n * inv.n1;
    let s2_coef = 8.0 * (inv.n - inv.n1); // 8/N - 8/(N+1)
    let gamma_a = g3 * (-16.0 * eta) + rat_a + (s2_coef - 44.0 / 3.0) * s2 - sp[1] * inv_nn1 * 4.0
        + s1 * (268.0 / 9.0 - inv_n2 * (16.0 * eta) - s2 * 16.0 + sp[1] * 8.0)
        + sp[2] * 2.0
        + 10.0 * ZETA3
        + (s1 * 16.0 - sp[0] * 16.0 + (inv.n * eta - LN2) * 16.0) * ZETA2;
    let gamma_f = g3 * (32.0 * eta) + rat_f + (12.0 - s2_coef) * s2
        + s1 * (inv_n2 * c_f - inv.n1 * inv.n1 * 8.0 + s2 * 16.0 - sp[1] * 16.0)
        + sp[1] * inv_nn1 * 8.0
        - sp[2] * 4.0
        - 20.0 * ZETA3
        + (s1 * (-32.0) + sp[0] * 32.0 + (LN2 - inv.n * eta) * 32.0) * ZETA2;
    (gamma_a, gamma_f)
}

/// gamma_ns,+^(1) = C_F [C_A Gamma_A^+ + C_F Gamma_F^+ + 2 T_R nf Gamma_n]
/// (docs/physics.md §5.2, S'_k = S_k(N/2)). Also the ns part of gamma_qq^(1).
pub fn gamma_nsp(s: &Sums, nf: u32) -> C64 {
    nsp_with(s, nf, s.g3())
}

fn nsp_with(s: &Sums, nf: u32, g3: C64) -> C64 {
    let n = s.n;
    let inv = Inv::new(n);
    let d2 = inv.n * inv.n1;
    let d2 = d2 * d2;
    let d3 = d2 * inv.n * inv.n1;
    let rat_a = (132.0 - n * (340.0 + n * (655.0 + n * (2.0 + n) * 51.0))) * d2 / 18.0;
    let rat_f = -(8.0 + n * (32.0 + n * (40.0 + n * (3.0 + n) * (3.0 + n * n) * 3.0))) * d3 / 2.0;
    let (ga, gf) = ns_colour_parts(s, &inv, 1.0, &s.s_half, g3, (rat_a, rat_f), 40.0);
    (ga * CA + gf * CF + ns_nf_part(s, &inv) * (2.0 * TR * nf as f64)) * CF
}

/// gamma_ns,-^(1) = C_F [C_A Gamma_A^- + C_F Gamma_F^- + 2 T_R nf Gamma_n]
/// (docs/physics.md §5.2, S'_k = S_k((N-1)/2)). eko uses it for nsV at NLO too.
pub fn gamma_nsm(s: &Sums, nf: u32) -> C64 {
    let n = s.n;
    let inv = Inv::new(n);
    let d2 = inv.n * inv.n1;
    let d3 = d2 * d2 * d2;
    let rat_a = -(144.0 + n * (n + 1.0) * (156.0 + n * (340.0 + n * (655.0 + n * (2.0 + n) * 51.0)))) * d3 / 18.0;
    let rat_f = (24.0 - n * (-32.0 + n * (-8.0 + n * (3.0 + n) * (3.0 + n * n)) * 3.0)) * d3 / 2.0;
    let (ga, gf) = ns_colour_parts(s, &inv, -1.0, &s.s_half_minus, s.g3(), (rat_a, rat_f), -24.0);
    (ga * CA + gf * CF + ns_nf_part(s, &inv) * (2.0 * TR * nf as f64)) * CF
}

/// gamma_nsV^(1): equal to gamma_ns,-^(1) (eko copies ns- to nsV at NLO).
pub fn gamma_nsv(s: &Sums, nf: u32) -> C64 {
    gamma_nsm(s, nf)
}

/// Reciprocals of N-1, N, N+1, N+2 for the singlet entries.
struct InvS {
    m1: C64,
    n: C64,
    p1: C64,
    p2: C64,
}

impl InvS {
    fn new(n: C64) -> InvS {
        InvS { m1: (n - 1.0).recip(), n: n.recip(), p1: (n + 1.0).recip(), p2: (n + 2.0).recip() }
    }
}

fn ps_with(s: &Sums, nf: u32, i: &InvS) -> C64 {
    let n = s.n;
    let n3 = i.n * i.p1;
    let n3 = n3 * n3 * n3;
    let num = (2.0 + n * (5.0 + n)) * (4.0 + n * (4.0 + n * (7.0 + n * 5.0))) * (-4.0);
    num * i.m1 * n3 * i.p2 * i.p2 * (2.0 * TR * nf as f64 * CF)
}

fn qg_with(s: &Sums, nf: u32, i: &InvS) -> C64 {
    let n = s.n;
    let (s1, s2, sp2) = (s.s1(), s.s2(), s.s_half[1]);
    let p = n * n + n + 2.0;
    let p_over = p * i.n * i.p1 * i.p2; // P/(N(N+1)(N+2))
    let nn1 = i.n * i.p1;
    let nn1_3 = nn1 * nn1 * nn1;
    let p12 = i.p1 * i.p2;
    let num_a = 16.0
        + n * (64.0 + n * (104.0 + n * (128.0 + n * (85.0 + n * (36.0 + n * (25.0 + n * (15.0 + n * (6.0 + n))))))));
    let q_a = -(num_a * 4.0) * i.m1 * nn1_3 * i.p2 * i.p2 * i.p2 - (3.0 + n * 2.0) * s1 * (p12 * p12) * 16.0
        + p_over * (s1 * s1 - s2 + sp2) * 4.0;
    let num_f = 4.0 + n * (8.0 + n * (1.0 + n) * (25.0 + n * (26.0 + n * (2.0 + n) * 5.0)));
    let q_f = -(num_f * 2.0) * nn1_3 * i.p2 + s1 * (i.n * i.n) * 8.0 - p_over * (s1 * s1 - s2) * 4.0;
    (q_a * CA + q_f * CF) * (2.0 * TR * nf as f64)
}

fn gq_with(s: &Sums, nf: u32, i: &InvS) -> C64 {
    let n = s.n;
    let (s1, s2, sp2) = (s.s1(), s.s2(), s.s_half[1]);
    let p = n * n + n + 2.0;
    let p_over = p * i.n * i.m1 * i.p1; // P/(N(N^2-1))
    let nn1 = i.n * i.p1;
    let nn1_3 = nn1 * nn1 * nn1;
    let num_f = -8.0 + n * (-12.0 + n * (-1.0 + n * (28.0 + n * (43.0 + n * (5.0 + n * 2.0) * 6.0)))) * 2.0;
    let g_f = num_f * i.m1 * nn1_3 - (10.0 + n * (17.0 + n * (8.0 + n * 5.0))) * s1 * i.m1 * i.n * i.p1 * i.p1 * 4.0
        + p_over * (s1 * s1 + s2) * 4.0;
    // N^2 + N - 2 = (N-1)(N+2)
    let m1p2 = i.m1 * i.p2;
    let num_a = 144.0
        + n * (432.0
            + n * (-152.0
                + n * (-1304.0 + n * (-1031.0 + n * (695.0 + n * (1678.0 + n * (1400.0 + n * (621.0 + n * 109.0))))))));
    let g_a = -(num_a * 4.0) * nn1_3 * (m1p2 * m1p2) / 9.0
        + (-12.0 + n * (-22.0 + n * 41.0 + n * n * n * 17.0)) * s1 * (i.m1 * i.m1 * i.n * i.n * i.p1) * (4.0 / 3.0)
        - p_over * (s1 * s1 + s2) * 4.0
        + p_over * sp2 * 4.0;
    let g_n = (16.0 + n * (27.0 + n * (13.0 + n * 8.0))) * i.m1 * i.n * i.p1 * i.p1 * (8.0 / 9.0)
        - p_over * s1 * (8.0 / 3.0);
    (g_a * CA + g_f * CF + g_n * (2.0 * TR * nf as f64)) * CF
}

fn gg_with(s: &Sums, nf: u32, i: &InvS, g3: C64) -> C64 {
    let n = s.n;
    let s1 = s.s1();
    let sp = &s.s_half;
    let nn1 = i.n * i.p1;
    let nn1_3 = nn1 * nn1 * nn1;
    let m1p2 = i.m1 * i.p2; // 1/(N^2+N-2)
    let num_aa = 576.0
        + n * (1488.0
            + n * (560.0
                + n * (-1248.0
                    + n * (-1384.0
                        + n * (1663.0
                            + n * (4514.0 + n * (4744.0 + n * (3030.0 + n * (1225.0 + n * (7.0 + n) * 48.0)))))))));
    let h_aa = g3 * 16.0 - num_aa * 2.0 * (m1p2 * m1p2) * nn1_3 * i.p2 / 9.0
        + s1 * (268.0 / 9.0 + (i.m1 * i.m1 + i.p1 * i.p1 - i.p2 * i.p2) * 16.0 - sp[1] * 8.0)
        + (1.0 + n + n * n) * sp[1] * nn1 * m1p2 * 16.0
        - sp[2] * 2.0
        - 10.0 * ZETA3
        + (s1 * (-16.0) + sp[0] * 16.0 + (LN2 - i.n) * 16.0) * ZETA2;
    let nnp = n * (1.0 + n);
    let h_an = (6.0 + nnp * (28.0 + nnp * (13.0 + nnp * 3.0))) * (nn1 * nn1) * m1p2 * (8.0 / 9.0) - s1 * (40.0 / 9.0);
    let num_fn = -8.0 + n * (-8.0 + n * (-10.0 + n * (-22.0 + n * (-3.0 + n * (6.0 + n * (8.0 + n * (4.0 + n)))))));
    let h_fn = num_fn * 2.0 * nn1_3 * m1p2;
    h_aa * (CA * CA) + (h_an * CA + h_fn * CF) * (2.0 * TR * nf as f64)
}

/// gamma_ps^(1) = 2 T_R nf C_F * (-4 (2+N(5+N)) (4+N(4+N(7+5N)))) / ((N-1) N^3 (N+1)^3 (N+2)^2).
pub fn gamma_ps(s: &Sums, nf: u32) -> C64 {
    ps_with(s, nf, &InvS::new(s.n))
}

/// gamma_qg^(1) = 2 T_R nf [C_A Q_A + C_F Q_F] (docs/physics.md §5.2).
pub fn gamma_qg(s: &Sums, nf: u32) -> C64 {
    qg_with(s, nf, &InvS::new(s.n))
}

/// gamma_gq^(1) = C_F [C_A G_A + C_F G_F + 2 T_R nf G_n] (docs/physics.md §5.2).
pub fn gamma_gq(s: &Sums, nf: u32) -> C64 {
    gq_with(s, nf, &InvS::new(s.n))
}

/// gamma_gg^(1) = C_A^2 H_AA + 2 T_R nf [C_A H_An + C_F H_Fn] (docs/physics.md §5.2).
pub fn gamma_gg(s: &Sums, nf: u32) -> C64 {
    gg_with(s, nf, &InvS::new(s.n), s.g3())
}

/// The NLO singlet matrix [[qq, qg], [gq, gg]] with gamma_qq = gamma_ns,+ + gamma_ps
/// (g_3 and the reciprocals computed once).
pub fn gamma_singlet(s: &Sums, nf: u32) -> [[C64; 2]; 2] {
    let i = InvS::new(s.n);
    let g3 = s.g3();
    [
        [nsp_with(s, nf, g3) + ps_with(s, nf, &i), qg_with(s, nf, &i)],
        [gq_with(s, nf, &i), gg_with(s, nf, &i, g3)],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::complex::close;

    fn sums(re: f64, im: f64) -> Sums {
        Sums::new(C64::new(re, im)).unwrap()
    }

    const PI2: f64 = std::f64::consts::PI * std::f64::consts::PI;

    /// Number conservation: gamma_ns,-^(1)(1) = 0 analytically; eko's g_3
    /// approximation leaves 1.586e-6 for every nf (docs/physics.md §10).
    #[test]
    fn number_conservation() {
        for nf in 3..=6u32 {
            let g = gamma_nsm(&sums(1.0, 0.0), nf);
            assert!(g.im.abs() < 1e-15);
            assert!((g.re - 1.586e-6).abs() < 5e-10, "nf={nf}: {g:?}");
        }
    }

    /// Momentum conservation at N = 2: quark column -1.729e-6, gluon column
    /// 3.501e-5, nf-independent (docs/physics.md §10, eko's g_3 approximation);
    /// tolerance: half a unit of the last printed digit.
    #[test]
    fn momentum_sum_rule() {
        let s = sums(2.0, 0.0);
        for nf in 3..=6u32 {
            let g = gamma_singlet(&s, nf);
            let q = g[0][0] + g[1][0];
            let gl = g[0][1] + g[1][1];
            assert!((q.re - (-1.729e-6)).abs() < 5e-10 && q.im == 0.0, "nf={nf} quark column {q:?}");
            assert!((gl.re - 3.501e-5).abs() < 5e-9 && gl.im == 0.0, "nf={nf} gluon column {gl:?}");
        }
    }

    /// Closed forms of eko's NLO anomalous-dimension tests (docs/physics.md §10). They are exact
    /// rationals/zetas; eko's g_3 approximation moves the g_3-carrying entries
    /// by ~1e-7 relative, hence the tolerances.
    #[test]
    fn closed_values() {
        let (cf, ca) = (CF, CA);
        for nf in 3..=6u32 {
            let nff = nf as f64;
            let s2 = sums(2.0, 0.0);
            let want = (-112.0 * cf + 376.0 * ca - 64.0 * nff) * cf / 27.0;
            assert!(close(gamma_nsp(&s2, nf), C64::real(want), 1e-6, 0.0));
            assert!(close(gamma_ps(&s2, nf), C64::real(-40.0 * cf * nff / 27.0), 1e-14, 0.0));
            assert!(close(gamma_qg(&s2, nf), C64::real((-74.0 * cf - 35.0 * ca) * nff / 27.0), 1e-14, 0.0));
            let want = (112.0 * cf - 376.0 * ca + 104.0 * nff) * cf / 27.0;
            assert!(close(gamma_gq(&s2, nf), C64::real(want), 1e-14, 1e-14));
            let want = ((34.0 / 27.0 * (6.0 * PI2 - 47.0) - 16.0 * ZETA3) * cf
                + (373.0 / 9.0 - 34.0 * PI2 / 9.0 + 8.0 * ZETA3) * ca
                - 64.0 / 27.0 * nff)
                * cf;
            assert!(close(gamma_nsm(&s2, nf), C64::real(want), 1e-6, 0.0));

            let s3 = sums(3.0, 0.0);
            let want = ((-34487.0 / 432.0 + 86.0 * PI2 / 9.0 - 16.0 * ZETA3) * cf
                + (459.0 / 8.0 - 43.0 * PI2 / 9.0 + 8.0 * ZETA3) * ca
                - 415.0 / 108.0 * nff)
                * cf;
            assert!(close(gamma_nsp(&s3, nf), C64::real(want), 1e-6, 0.0));
            assert!(close(gamma_ps(&s3, nf), C64::real(-1391.0 * cf * nff / 5400.0), 1e-14, 0.0));
            let want = (973.0 / 432.0 * cf + (2801.0 / 5400.0 - 7.0 * PI2 / 9.0) * ca + 61.0 / 54.0 * nff) * cf;
            assert!(close(gamma_gq(&s3, nf), C64::real(want), 1e-13, 0.0));
            let want = (-79909.0 / 3375.0 + 194.0 * PI2 / 45.0 - 8.0 * ZETA3) * ca * ca - 967.0 / 270.0 * ca * nff
                + 541.0 / 216.0 * cf * nff;
            assert!(close(gamma_gg(&s3, nf), C64::real(want), 1e-6, 0.0));

            let s4 = sums(4.0, 0.0);
            let want = (-56317.0 / 18000.0 * cf + 16387.0 / 9000.0 * ca) * nff;
            assert!(close(gamma_qg(&s4, nf), C64::real(want), 1e-14, 0.0));
        }
        // nf = 5 numbers of docs/physics.md §10 (exact values, and eko's ns+ with g_3)
        let s2 = sums(2.0, 0.0);
        assert!(close(gamma_nsp(&s2, 5), C64::real(32.5267472), 2e-9, 0.0));
        assert!(close(gamma_ps(&s2, 5), C64::real(-9.876543), 1e-7, 0.0));
        assert!(close(gamma_qg(&s2, 5), C64::real(-37.716049), 1e-7, 0.0));
        assert!(close(gamma_gq(&s2, 5), C64::real(-22.650206), 1e-7, 0.0));
        assert!(close(gamma_nsm(&s2, 5), C64::real(32.459994), 1e-6, 0.0));
    }

    /// N = 2.5 + 1.5i, nf = 4 (docs/physics.md §11.3, mpmath with eko's g_3).
    #[test]
    fn complex_reference_values() {
        let s = sums(2.5, 1.5);
        let cases: [(C64, C64); 6] = [
            (gamma_nsp(&s, 4), C64::new(50.3451052631, 18.09038694)),
            (gamma_nsm(&s, 4), C64::new(50.3563688416, 18.0962787833)),
            (gamma_ps(&s, 4), C64::new(0.857839197027, 1.16271180073)),
            (gamma_qg(&s, 4), C64::new(5.59634872449, 15.9912512874)),
            (gamma_gq(&s, 4), C64::new(-15.657740933, 10.8994209341)),
            (gamma_gg(&s, 4), C64::new(52.6533589869, 39.4312526242)),
        ];
        for (k, (got, want)) in cases.iter().enumerate() {
            assert!(close(*got, *want, 1e-10, 0.0), "case {k}: {got:?} vs {want:?}");
        }
        assert_eq!(gamma_nsv(&s, 4), gamma_nsm(&s, 4));
        let m = gamma_singlet(&s, 4);
        assert!(close(m[0][0], gamma_nsp(&s, 4) + gamma_ps(&s, 4), 1e-15, 0.0));
    }
}
