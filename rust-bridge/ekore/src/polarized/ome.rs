//! Polarized space-like heavy-quark matching OMEs to O(a_s^2), as eko's
//! `operator_matrix_elements.polarized.space_like` (docs/physics.md §16.1):
//! Bierenbaum, Blümlein, De Freitas, Goedicke, Klein, Schönwald,
//! arXiv:2211.15337 ([BBDGKS22]) eqs. 104, 111, 133, 138, 174, 186, 187, with
//! eko's conventions: L = ln(mu^2/m_h^2) (the paper's log has the inverse
//! argument: odd powers of L flip sign), eko's gamma = half the paper's, and
//! the M-scheme term z_qq^PS added to A_Hq^PS.
//!
//! Bases as the unpolarized OMEs (`crate::ome`): singlet (g, q, H), non-singlet
//! (q, H), [row][column]. No intrinsic heavy-quark entries (A_HH, A_gH) and no
//! MSbar-mass terms: eko has none in the polarized case.
//! Poles: N = 0, -1, -2, ... (none at N = 1).

use std::f64::consts::PI;

use super::{as1, as2};
use crate::complex::C64;
use crate::constants::{CA, CF, TR, ZETA2, ZETA3};
use crate::harmonics::Sums;

/// The hatted beta_0 (beta_0^(nf+1) - beta_0^(nf)) = -4/3 T_R.
const BETA0_HAT: f64 = -4.0 / 3.0 * TR;

/// c0 - L c1 + L^2 c2: eko's expansion in L with the paper's odd powers flipped.
#[inline]
fn in_l(l: f64, c0: C64, c1: C64, c2: C64) -> C64 {
    c0 - c1 * l + c2 * (l * l)
}

/// Quantities shared by the entries at one N.
struct Kin {
    n: C64,
    /// 1/N, 1/(N+1)
    r: C64,
    r1: C64,
    /// gamma_qq^(0), Delta gamma_qg^(0) at nf = 1, Delta gamma_gq^(0)
    g0qq: C64,
    g0qg: C64,
    g0gq: C64,
    /// 2 gamma_gg^(0) + 2 beta_0 without its nf part: 8 C_A (S_1 - 2/(N(N+1)))
    pgg0_beta0: C64,
}

impl Kin {
    fn new(s: &Sums) -> Kin {
        let n = s.n;
        let (r, r1) = (n.recip(), (n + 1.0).recip());
        Kin {
            n,
            r,
            r1,
            g0qq: crate::as1::gamma_ns(s, 1),
            g0qg: as1::gamma_qg(s, 1),
            g0gq: as1::gamma_gq(s),
            pgg0_beta0: (s.s1() - r * r1 * 2.0) * (8.0 * CA),
        }
    }
}

/// A_Hg^{S,(1)} = 4 T_R (N-1)/(N(N+1)) L  ([BBDGKS22] eq. 104).
fn a_hg_1(k: &Kin, l: f64) -> C64 {
    -(k.g0qg * l)
}

/// A_qq,H^{NS,(2)}  ([BBDGKS22] eq. 133).
fn a_qq_ns_2(k: &Kin, s: &Sums, l: f64) -> C64 {
    let (n, r, r1) = (k.n, k.r, k.r1);
    let (s1, s2, s3) = (s.s1(), s.s2(), s.s3());
    let q = r * r1;
    let gamma1_hat = -(s2 * -8.0 + s1 * (40.0 / 3.0)
        - (-12.0 + n * (20.0 + n * (47.0 + n * (6.0 + n * 3.0)))) * q * q / 3.0)
        * (CF * TR * 4.0 / 3.0);
    let a = (s3 * (-8.0 / 3.0) - s1 * (8.0 / 3.0 * ZETA2) + s2 * (40.0 / 9.0)
        + (2.0 + n * (3.0 + n * 3.0)) * q * (2.0 * ZETA2 / 3.0)
        - s1 * (224.0 / 27.0)
        + (72.0 + n * (-48.0 + n * (-40.0 + n * (763.0 + n * (1193.0 + n * (657.0 + n * 219.0)))))) * q * q * q / 54.0)
        * (TR * CF);
    let c0 = a - k.g0qq * (BETA0_HAT * ZETA2 / 2.0);
    in_l(l, c0, gamma1_hat * 0.5, k.g0qq * (BETA0_HAT / 2.0))
}

/// A_Hq^{PS,(2)} in the M scheme ([BBDGKS22] eq. 138 plus z_qq^PS); `nf`
/// light flavours enter through z_qq^PS only.
fn a_hq_ps_2(k: &Kin, s: &Sums, nf: u32, l: f64) -> C64 {
    let (n, r, r1) = (k.n, k.r, k.r1);
    let q = r * r1;
    let a = -((n - 1.0) * (s.s2() * 2.0 + ZETA2) + (-1.0 + n * (-3.0 + n * (-4.0 + n * 4.0))) * q * q)
        * (n + 2.0)
        * q
        * q
        * (4.0 * TR * CF);
    let z_qq_ps = -((n + 2.0) * (n * n - n - 1.0) * q * q * q) * (8.0 * CF * TR * nf as f64);
    let gamma1_ps_hat = (n + 2.0) * (1.0 + n * (2.0 + n * n)) * q * q * q * (16.0 * CF * TR);
    let g0 = k.g0qg * k.g0gq * 4.0;
    in_l(l, a + z_qq_ps + g0 * (ZETA2 / 8.0), gamma1_ps_hat * 0.5, -(g0 / 8.0))
}

/// A_Hg^{S,(2)}  ([BBDGKS22] eq. 111), with S_{-2,1} continued with eta = -1
/// as eko does.
fn a_hg_2(k: &Kin, s: &Sums, l: f64) -> C64 {
    let n = k.n;
    let (s1, s2, s3) = (s.s1(), s.s2(), s.s3());
    let sm21 = s.s_minus2_1(false);
    let (s2h, s3h) = (s.s_half[1], s.s_half[2]);
    let r1 = k.r1;
    // S_k((N+1)/2) = S_k((N-1)/2) + (2/(N+1))^k
    let s2ph = s.s_half_minus[1] + r1 * r1 * 4.0;
    let s3ph = s.s_half_minus[2] + r1 * r1 * r1 * 8.0;
    let pi2 = PI * PI;
    let (n1, n2) = (n + 1.0, n + 2.0);
    let (n1sq, n1cu) = (n1 * n1, n1 * n1 * n1);
    let nsq = n * n;
    let ncu = nsq * n;
    let poly = |c: &[f64]| c.iter().rev().fold(C64::ZERO, |acc, ck| acc * n + *ck);
    let cf_part = poly(&[4.0, 8.0, 3.0, -2.0, -25.0, 0.0, 60.0, 52.0, 12.0]) * 6.0
        + (n - 1.0) * nsq * n1sq * n2 * poly(&[2.0, 3.0, 3.0]) * pi2
        + nsq * n1cu * poly(&[-36.0, -22.0, -2.0, 1.0]) * s1 * 12.0
        + nsq * n1cu * poly(&[-2.0, 3.0, 3.0]) * (s1 * s1) * 12.0
        + nsq * n1sq * poly(&[2.0, 33.0, 43.0, 17.0, 1.0]) * s2 * 12.0
        - (n - 1.0) * ncu * n1cu * n2 * (s1 * s1 * s1 + s1 * (s2 * 3.0 + pi2) - s3 * 4.0) * 4.0;
    let h = n1sq * (s2h - s2ph) + 4.0; // 4 + (N+1)^2 (S_2(N/2) - S_2((N+1)/2))
    let ca_part = poly(&[4.0, 12.0, 33.0, 4.0, 29.0, 36.0, 22.0, 10.0, 2.0]) * -24.0
        + (n - 1.0) * nsq * n1sq * n2 * n2 * (8.0 * pi2)
        + ncu * n1 * poly(&[2.0, -10.0, -1.0, 4.0, 1.0]) * s1 * 24.0
        + ncu * n1sq * poly(&[5.0, 4.0, 1.0]) * (s1 * s1) * 24.0
        + nsq * n1sq * poly(&[-16.0, 15.0, 24.0, 7.0]) * s2 * 24.0
        - (1.0 - n) * ncu * n2 * h * 24.0
        + (1.0 - n)
            * ncu
            * n2
            * (n1cu * (s1 * s1 * s1) * 8.0 + n1cu * (s1 * s2) * 72.0 - n1 * s1 * h * 24.0 + n1cu * s3 * 64.0
                + n1cu * s3ph * 6.0
                - n1cu * (s3h - ZETA3) * 6.0
                + n1cu * (18.0 * ZETA3)
                - n1cu * (sm21 * 8.0 + 5.0 * ZETA3) * 12.0
                - 48.0);
    let a = (cf_part * (-2.0 * CF) + ca_part * CA) * TR / (nsq * nsq * n1sq * n1sq * n2 * 6.0);
    let c0 = a + k.g0qg * (k.pgg0_beta0 - k.g0qq * 2.0) * 0.25;
    let c1 = as2::gamma_qg(s, 1) * 2.0;
    let c2 = k.g0qg * (k.g0qq * 2.0 - k.pgg0_beta0 - 4.0 * BETA0_HAT) * 0.25;
    in_l(l, c0, c1, c2)
}

/// A_gq,H^{S,(2)}  ([BBDGKS22] eq. 174).
fn a_gq_2(k: &Kin, s: &Sums, l: f64) -> C64 {
    let (n, r, r1) = (k.n, k.r, k.r1);
    let (s1, s2) = (s.s1(), s.s2());
    let gamma1_hat = ((2.0 + n * 5.0) * r * r1 * r1 / 9.0 - s1 * r * r1 / 3.0) * (n + 2.0) * (32.0 * CF * TR);
    let c0 = ((22.0 + n * (41.0 + n * 28.0)) * r * r1 * r1 * r1 * (8.0 / 27.0)
        - (2.0 + n * 5.0) * r * r1 * r1 * s1 * (8.0 / 9.0)
        + (s1 * s1 + s2) * r * r1 * (4.0 / 3.0))
        * (n + 2.0)
        * (CF * TR);
    in_l(l, c0, gamma1_hat * 0.5, k.g0gq * BETA0_HAT)
}

/// A_gg,H^{S,(2)}  ([BBDGKS22] eq. 187).
fn a_gg_2(k: &Kin, s: &Sums, l: f64) -> C64 {
    let (n, r, r1) = (k.n, k.r, k.r1);
    let s1 = s.s1();
    let q = r * r1;
    let canf = (-(s1 * 5.0) / 9.0 + (-3.0 + n * (13.0 + n * (16.0 + n * (6.0 + n * 3.0)))) * q * q / 9.0) * 4.0;
    let cfnf = (4.0 + n * (2.0 + n * (-8.0 + n * (1.0 + n * (5.0 + n * (3.0 + n)))))) * q * q * q;
    let gamma1_hat = (canf * CA + cfnf * CF) * (8.0 * TR);
    let a_f = -(8.0 + n * (12.0 + n * (4.0 + n * n * (15.0 + n * (44.0 + n * (82.0 + n * (60.0 + n * 15.0))))))) * q * q * q * q;
    let a_a = (36.0 + n * (-24.0 + n * (161.0 + n * (601.0 + n * (374.0 + n * (45.0 + n * 15.0)))))) * q * q * q * (2.0 / 27.0)
        - s1 * (47.0 + n * 56.0) * r1 * (4.0 / 27.0);
    let c0 = (a_f * CF + a_a * CA) * TR;
    let c2 = (k.pgg0_beta0 * (2.0 * BETA0_HAT) + k.g0gq * k.g0qg * 4.0 + 8.0 * BETA0_HAT * BETA0_HAT) / 8.0;
    in_l(l, c0, gamma1_hat * 0.5, c2)
}

/// O(a_s) polarized singlet OME on (g, q, H): [[A_gg,H, 0, 0], [0, 0, 0], [A_Hg, 0, 0]],
/// A_gg,H^(1) = -(4/3) T_R L as unpolarized ([BBDGKS22] eq. 186).
pub fn a_singlet_1(s: &Sums, l: f64) -> [[C64; 3]; 3] {
    let k = Kin::new(s);
    let z = C64::ZERO;
    [[C64::real(BETA0_HAT * l), z, z], [z, z, z], [a_hg_1(&k, l), z, z]]
}

/// O(a_s^2) polarized singlet OME on (g, q, H):
/// [[A_gg,H, A_gq,H, 0], [0, A_qq,H^NS, 0], [A_Hg, A_Hq^PS, 0]]; `nf` light flavours.
pub fn a_singlet_2(s: &Sums, nf: u32, l: f64) -> [[C64; 3]; 3] {
    let k = Kin::new(s);
    let z = C64::ZERO;
    [
        [a_gg_2(&k, s, l), a_gq_2(&k, s, l), z],
        [z, a_qq_ns_2(&k, s, l), z],
        [a_hg_2(&k, s, l), a_hq_ps_2(&k, s, nf, l), z],
    ]
}

/// O(a_s^2) polarized non-singlet OME on (q, H): [[A_qq,H^NS, 0], [0, 0]].
/// (At O(a_s) eko's polarized non-singlet OME is zero.)
pub fn a_ns_2(s: &Sums, l: f64) -> [[C64; 2]; 2] {
    let k = Kin::new(s);
    [[a_qq_ns_2(&k, s, l), C64::ZERO], [C64::ZERO, C64::ZERO]]
}
