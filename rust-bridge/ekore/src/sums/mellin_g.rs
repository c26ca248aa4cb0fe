//! Blümlein's Mellin-transform approximations g_k(N) used by eko for the
//! weight-3 and weight-4 nested sums (docs/physics.md §5.5).
//!
//! [Bl00] (J. Blümlein, Comput. Phys. Commun. 133 (2000) 76, hep-ph/0003100)
//! writes each sum through the Mellin transform of a polylogarithm divided by
//! (1+x) or (1-x) and replaces the regular factor by a fitted polynomial in x;
//! the transform then becomes a finite combination of positive sums at shifted
//! arguments N+k. The numerical coefficients are those of [Bl00] as written
//! in C. Muselli's PhD thesis (appendix B.5) and used by eko 0.15.7
//! (`ekore.harmonics.g_functions`, the check of every value here); the index
//! names follow the thesis.
//! The approximations are good to about 1e-7 absolute at integer N.

use crate::complex::C64;
use crate::constants::{LN2, ZETA2, ZETA3};

/// Fitted coefficients a_k, k = 0..9, of the (1+x) family ([Bl00] eqs. 61-65, 125).
const A1: [f64; 10] = [
    0.999999974532238,
    -0.499995525889840,
    0.333203435557262,
    -0.248529457782640,
    0.191451164719161,
    -0.137466222728331,
    0.0792107412244877,
    -0.0301109656912626,
    0.00538406208663153,
    0.0000001349586745,
];

/// Fitted coefficients of g_18 and g_22, k = 0..11 ([Bl00] eqs. 124, 128).
const C1: [f64; 12] = [
    2.2012182965269744e-8,
    2.833327652357064,
    -1.8330909624101532,
    0.7181879191200942,
    -0.0280403220046588,
    -0.181869786537805,
    0.532318519269331,
    -1.07281686995035,
    1.38194913357518,
    -1.11100841298484,
    0.506649587198046,
    -0.100672390783659,
];

/// Fitted coefficients of g_21, k = 0..9 ([Bl00] eq. 127).
const C3: [f64; 10] = [
    0.0,
    1.423616247405256,
    -0.08001203559240111,
    -0.39875367195395994,
    0.339241791547134,
    -0.0522116678353452,
    -0.0648354706049337,
    0.0644165053822532,
    -0.0394927322542075,
    0.0100879370657869,
];

/// Exact polynomial pieces P^(1)_1, P^(3)_2, P^(3)_1 of [Bl00] eqs. 124, 127
/// (Muselli's names); each sums to zero.
const P11: [f64; 4] = [11.0 / 6.0, -3.0, 3.0 / 2.0, -1.0 / 3.0];
const P32: [f64; 5] = [-25.0 / 24.0, 2.0, -3.0 / 2.0, 2.0 / 3.0, -1.0 / 8.0];
const P31: [f64; 5] = [205.0 / 144.0, -25.0 / 12.0, 23.0 / 24.0, -13.0 / 36.0, 1.0 / 16.0];

/// Number of shifted arguments N+k (k = 0..SHIFTS-1) the g-functions use.
pub const SHIFTS: usize = 12;

/// The positive sums at N, N+1, ..., N+11, from S_m(N+k) = S_m(N+k-1) + 1/(N+k)^m,
/// with 1/(N+k), shared by all g-functions of one N.
pub struct Shifted {
    /// 1/(N+k)
    pub inv: [C64; SHIFTS],
    pub s1: [C64; SHIFTS],
    pub s2: [C64; SHIFTS],
    pub s3: [C64; SHIFTS],
    /// N/(N+k)
    ratio: [C64; SHIFTS],
    /// k/(N+k)^2
    kinv2: [C64; SHIFTS],
}

impl Shifted {
    pub fn new(n: C64, s1: C64, s2: C64, s3: C64) -> Shifted {
        let zero = [C64::ZERO; SHIFTS];
        let mut sh = Shifted { inv: zero, s1: [s1; SHIFTS], s2: [s2; SHIFTS], s3: [s3; SHIFTS], ratio: zero, kinv2: zero };
        // 1/v as conj(v)/|v|^2: N+k is neither tiny nor huge on any Mellin path
        let inv = |v: C64| -> C64 {
            let d = 1.0 / (v.re * v.re + v.im * v.im);
            C64::new(v.re * d, -v.im * d)
        };
        sh.inv[0] = inv(n);
        sh.ratio[0] = n * sh.inv[0];
        for k in 1..SHIFTS {
            let u = inv(n + k as f64);
            let u2 = u * u;
            sh.inv[k] = u;
            sh.s1[k] = sh.s1[k - 1] + u;
            sh.s2[k] = sh.s2[k - 1] + u2;
            sh.s3[k] = sh.s3[k - 1] + u2 * u;
            sh.ratio[k] = n * u;
            sh.kinv2[k] = u2 * k as f64;
        }
        sh
    }
    /// S_1^2 + S_2 at N+k
    fn w2(&self, k: usize) -> C64 {
        self.s1[k] * self.s1[k] + self.s2[k]
    }
    /// S_1^3 + 3 S_1 S_2 + 2 S_3 at N+k
    fn w3(&self, k: usize) -> C64 {
        let s1 = self.s1[k];
        s1 * (s1 * s1 + 3.0 * self.s2[k]) + 2.0 * self.s3[k]
    }
}

/// g_4(N) = M[Li_2(-x)/(1+x)](N) ([Bl00] eq. 61, Muselli B.5.25, as eko),
/// with beta(N) = [S_1(N/2) - S_1((N-1)/2)]/2 at N+1..N+10 built from
/// S_1(N/2) (`s1_half`) and S_1((N-1)/2) (`s1_half_minus`) by the recurrence
/// S_1(z+1) = S_1(z) + 1/(z+1) at the half-integer steps.
pub fn g4(sh: &Shifted, s1_half: C64, s1_half_minus: C64) -> C64 {
    // h[j] = S_1((N+j)/2) for j = 0..10: h[0] = S_1(N/2), h[1] = S_1((N-1)/2) + 2/(N+1),
    // h[j+2] = h[j] + 2/(N+j+2)
    let mut h = [C64::ZERO; 11];
    h[0] = s1_half;
    h[1] = s1_half_minus + 2.0 * sh.inv[1];
    for j in 0..9 {
        h[j + 2] = h[j] + 2.0 * sh.inv[j + 2];
    }
    let mut g = C64::real(-0.5 * ZETA2 * LN2);
    for (k, a) in A1.iter().enumerate() {
        let beta = (h[k + 1] - h[k]) * 0.5;
        g += (sh.ratio[k + 1] * (0.5 * ZETA2) + sh.kinv2[k + 1] * (LN2 - beta)) * *a;
    }
    g
}

/// g_5(N) = M[Li_2(x) ln(x)/(1+x)](N) ([Bl00] eq. 62, Muselli B.5.26, as eko).
pub fn g5(sh: &Shifted) -> C64 {
    let mut g = C64::ZERO;
    for (k, a) in A1.iter().enumerate() {
        let j = k + 1;
        let u = sh.inv[j];
        g -= sh.kinv2[j] * (2.0 * ZETA2 - sh.s2[j] - 2.0 * sh.s1[j] * u) * *a;
    }
    g
}

/// g_6(N) = M[Li_3(x)/(1+x)](N) ([Bl00] eq. 63, Muselli B.5.27, as eko).
pub fn g6(sh: &Shifted) -> C64 {
    let mut g = C64::real(ZETA3 * LN2);
    for (k, a) in A1.iter().enumerate() {
        let j = k + 1;
        let u = sh.inv[j];
        g -= (sh.ratio[j] * ZETA3 + sh.kinv2[j] * (ZETA2 - sh.s1[j] * u)) * *a;
    }
    g
}

/// g_8(N) = M[S_{1,2}(x)/(1+x)](N) ([Bl00] eq. 65, Muselli B.5.29, as eko).
pub fn g8(sh: &Shifted) -> C64 {
    let mut g = C64::real(ZETA3 * LN2);
    for (k, a) in A1.iter().enumerate() {
        let j = k + 1;
        g -= (sh.ratio[j] * ZETA3 + sh.kinv2[j] * 0.5 * sh.w2(j)) * *a;
    }
    g
}

/// g_18(N) = M[-(Li_2(x) - zeta_2)/(1-x)](N) ([Bl00] eq. 124 in Muselli's
/// notation, as eko).
pub fn g18(sh: &Shifted) -> C64 {
    let mut g = sh.w2(0) * sh.inv[0] - sh.s1[0] * ZETA2;
    for (k, c) in C1.iter().enumerate() {
        g += sh.ratio[k] * sh.s1[k] * *c;
    }
    for (k, p) in P11.iter().enumerate() {
        g -= sh.ratio[k] * sh.w2(k) * *p;
    }
    g
}

/// g_19(N) = M[-(Li_2(-x) + zeta_2/2)/(1-x)](N) ([Bl00] eq. 125, Muselli B.5.40, as eko).
pub fn g19(sh: &Shifted) -> C64 {
    let mut g = sh.s1[0] * (0.5 * ZETA2);
    for (k, a) in A1.iter().enumerate() {
        g -= sh.s1[k + 1] * (*a / (k as f64 + 1.0));
    }
    g
}

/// g_21(N) = M[-(S_{1,2}(x) - zeta_3)/(1-x)](N) ([Bl00] eq. 127 in Muselli's
/// notation, as eko).
pub fn g21(sh: &Shifted) -> C64 {
    let mut g = -sh.s1[0] * ZETA3 + sh.w3(0) * sh.inv[0] * 0.5;
    for (k, c) in C3.iter().enumerate() {
        g += sh.ratio[k] * sh.s1[k] * *c;
    }
    for k in 0..P32.len() {
        g += sh.ratio[k] * (sh.w3(k) * P32[k] - sh.w2(k) * P31[k]);
    }
    g
}

/// g_22(N) = M[-Li_2(x) ln(x)/(1-x)](N) ([Bl00] eq. 128 in Muselli's notation,
/// as eko). With psi_1(N+k+1) = zeta_2 - S_2(N+k) and psi_2(N+k+1)/2 = S_3(N+k) - zeta_3;
/// eko writes the latter with a different constant, which drops out because the
/// P11 coefficients sum to zero.
pub fn g22(sh: &Shifted) -> C64 {
    let mut g = C64::ZERO;
    for (k, c) in C1.iter().enumerate() {
        g += (ZETA2 - sh.s2[k]) * *c;
    }
    for (k, p) in P11.iter().enumerate() {
        g -= (sh.s1[k] * (ZETA2 - sh.s2[k]) - (sh.s3[k] - ZETA3)) * *p;
    }
    g
}
