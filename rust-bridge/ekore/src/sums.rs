//! Harmonic sums up to weight 5 at one complex N, the inputs of the N3LO
//! anomalous dimensions and the O(a_s^3) matching OMEs, and the Mellin
//! transforms of x^0 (1-x)^j ln^k(1-x) built from them.
//!
//! Notation (docs/physics.md §5): S_{a,b,...}(N) with a negative index for an
//! alternating sum, e.g. `sm21` = S_{-2,1}, `s2m1` = S_{2,-1}. Alternating sums
//! are continued from even N (`is_singlet`, eta = +1) or odd N (eta = -1), as for
//! the NNLO sums in `harmonics`.
//!
//! Every function that needs sums takes a `&SumValues`, so the sums of one N are
//! computed once and shared by all anomalous dimensions and OMEs at that N, and
//! tests can feed the values of an independent implementation.
//!
//! `SumValues::new` reproduces eko 0.15.7's `ekore.harmonics.cache` (the check,
//! docs/physics.md §5.5): single sums exactly through polygammas, the nested
//! sums of weight 3 and 4 through Blümlein's approximate Mellin transforms
//! g_k ([Bl00], module `mellin_g`) and, for S_{-2,1}, the Pegasus g_3 of
//! `harmonics`. These are good to about 1e-7..1e-6 relative at integer N, not
//! to double precision; ekoc keeps them so that N3LO results equal eko's.

mod mellin_g;
mod polygamma4;

use crate::complex::C64;
use crate::constants::{EULER_GAMMA, LN2, ZETA2, ZETA3, ZETA4, ZETA5};
use crate::harmonics::{polygamma_0123, s_minus2_1, PolygammaError, Sums};
use crate::physics::Physics;
use mellin_g::Shifted;
use polygamma4::psi4;

/// Li_4(1/2) as eko 0.15.7 has it (`eko.constants.li4half`): six digits,
/// 6.2e-8 below the true 0.5174790616738994. It enters S_{-3,1}, S_{-2,2} and
/// S_{-2,1,1} as a constant; the eko value is kept so that they equal eko's.
pub const LI4_HALF_EKO: f64 = 0.517479;

/// The harmonic sums at one N (with N itself).
#[derive(Clone, Copy, Debug)]
pub struct SumValues {
    pub n: C64,
    pub s1: C64,
    pub s2: C64,
    pub s3: C64,
    pub s4: C64,
    pub s5: C64,
    pub sm1: C64,
    pub sm2: C64,
    pub sm3: C64,
    pub sm4: C64,
    pub sm5: C64,
    pub s21: C64,
    pub s2m1: C64,
    pub sm21: C64,
    pub sm2m1: C64,
    pub s31: C64,
    pub sm31: C64,
    pub s211: C64,
    pub sm211: C64,
    pub sm22: C64,
}

/// S_1..S_5 at z from psi_0..psi_4 at z + 1 (docs/physics.md §5.4).
fn sums_from_polygammas(p: &[C64; 4], p4: C64) -> [C64; 5] {
    [p[0] + EULER_GAMMA, ZETA2 - p[1], ZETA3 + p[2] * 0.5, ZETA4 - p[3] / 6.0, ZETA5 + p4 / 24.0]
}

impl SumValues {
    /// All sums at N, alternating ones continued from even N (`is_singlet`,
    /// eta = +1) or odd N (eta = -1), each equal to eko's
    /// `ekore.harmonics.cache.get(key, cache, N, is_singlet)`.
    ///
    /// The single sums at N, N/2 and (N-1)/2 come from psi_0..psi_4 at
    /// a = N/2 + 1 and b = N/2 + 1/2 only (Legendre duplication for N + 1 = 2b,
    /// as `harmonics::Sums`); the nested ones from `mellin_g` at N..N+11.
    /// Errors at the poles N = 0, -1, -2, ... and where N is not finite.
    pub fn new(n: C64, is_singlet: bool) -> Result<SumValues, PolygammaError> {
        if n == C64::ZERO {
            return Err(PolygammaError::Pole);
        }
        let (a, b) = (n * 0.5 + 1.0, n * 0.5 + 0.5);
        Self::from_polygammas(Physics::Eko, n, is_singlet, polygamma_0123(a)?, polygamma_0123(b)?)
    }

    /// `SumValues::new(s.n, is_singlet)` from the psi_0..psi_3 that
    /// `harmonics::Sums::new` has already evaluated at the same two points
    /// (N/2 + 1, N/2 + 1/2): bitwise the same values, two polygamma
    /// evaluations fewer where a caller needs both kinds of sums. S_{-2,1}
    /// takes the g_3 of `s.physics()` (eko's fit, as `new`, or exact).
    pub fn from_sums(s: &Sums, is_singlet: bool) -> Result<SumValues, PolygammaError> {
        if s.n == C64::ZERO {
            return Err(PolygammaError::Pole);
        }
        Self::from_polygammas(s.physics(), s.n, is_singlet, s.psi[0], s.psi[1])
    }

    /// The sums from pa = psi_0..3(N/2 + 1) and pb = psi_0..3(N/2 + 1/2).
    fn from_polygammas(
        physics: Physics,
        n: C64,
        is_singlet: bool,
        pa: [C64; 4],
        pb: [C64; 4],
    ) -> Result<SumValues, PolygammaError> {
        let (a, b) = (n * 0.5 + 1.0, n * 0.5 + 0.5);
        let (pa4, pb4) = (psi4(a)?, psi4(b)?);
        // psi_0(2b) = [psi_0(a) + psi_0(b)]/2 + ln 2, psi_k(2b) = 2^{-k-1} [psi_k(a) + psi_k(b)]
        let p_full = [
            (pa[0] + pb[0]) * 0.5 + LN2,
            (pa[1] + pb[1]) * 0.25,
            (pa[2] + pb[2]) * 0.125,
            (pa[3] + pb[3]) * 0.0625,
        ];
        let full = sums_from_polygammas(&p_full, (pa4 + pb4) * 0.03125);
        let half = sums_from_polygammas(&pa, pa4); // S_m(N/2)
        let half_minus = sums_from_polygammas(&pb, pb4); // S_m((N-1)/2)
        // S_{-m}(N) = 2^{1-m} S_m(N/2 or (N-1)/2) - S_m(N)
        let from = if is_singlet { &half } else { &half_minus };
        let mut minus = [C64::ZERO; 5];
        for m in 0..5 {
            minus[m] = from[m] * 0.5f64.powi(m as i32) - full[m];
        }
        let [s1, s2, s3, s4, s5] = full;
        let [sm1, sm2, sm3, sm4, sm5] = minus;
        let eta = if is_singlet { 1.0 } else { -1.0 };
        let sh = Shifted::new(n, s1, s2, s3);

        let s21 = 2.0 * ZETA3 - mellin_g::g18(&sh);
        let s2m1 = -eta * mellin_g::g4(&sh, half[0], half_minus[0]) - LN2 * (s2 - sm2) - 0.5 * ZETA2 * sm1
            + 0.25 * ZETA3
            - 0.5 * ZETA2 * LN2;
        let sm21 = s_minus2_1(physics, n, s1, sm1, is_singlet);
        let sm2m1 = -mellin_g::g19(&sh) + LN2 * (s2 - sm2) - 5.0 / 8.0 * ZETA3;
        let s31 = 0.5 * mellin_g::g22(&sh) - 0.25 * s4 - 0.25 * s2 * s2 + ZETA2 * s2 - 0.15 * ZETA2 * ZETA2;
        let ln2_2 = LN2 * LN2;
        let sm31 = eta * mellin_g::g6(&sh) + ZETA2 * sm2 - ZETA3 * sm1 - 0.6 * ZETA2 * ZETA2
            + 2.0 * LI4_HALF_EKO
            + 0.75 * ZETA3 * LN2
            - 0.5 * ZETA2 * ln2_2
            + ln2_2 * ln2_2 / 12.0;
        let sm22 = eta * mellin_g::g5(&sh) - 2.0 * sm31 + 2.0 * ZETA2 * sm2 + 0.075 * ZETA2 * ZETA2;
        let s211 = 1.2 * ZETA2 * ZETA2 - mellin_g::g21(&sh);
        let sm211 = -eta * mellin_g::g8(&sh) + ZETA3 * sm1 - LI4_HALF_EKO
            + 0.125 * ZETA2 * ZETA2
            + 0.125 * ZETA3 * LN2
            + 0.25 * ZETA2 * ln2_2
            - ln2_2 * ln2_2 / 24.0;
        Ok(SumValues {
            n,
            s1,
            s2,
            s3,
            s4,
            s5,
            sm1,
            sm2,
            sm3,
            sm4,
            sm5,
            s21,
            s2m1,
            sm21,
            sm2m1,
            s31,
            sm31,
            s211,
            sm211,
            sm22,
        })
    }
}

/// The positive sums S_1..S_5 at N + shift (shift = 0, 1, 2), from
/// S_k(N + 1) = S_k(N) + 1/(N + 1)^k.
fn positive_sums_shifted(s: &SumValues, shift: u32) -> [C64; 5] {
    let mut out = [s.s1, s.s2, s.s3, s.s4, s.s5];
    for j in 1..=shift {
        let inv = (s.n + j as f64).recip();
        let mut p = inv;
        for v in out.iter_mut() {
            *v += p;
            p *= inv;
        }
    }
    out
}

/// M[ln^k(1-x)](M) = int_0^1 x^(M-1) ln^k(1-x) dx for k = 1..5, from the
/// positive sums at M: (-1)^k k! / M times the complete Bell polynomial of
/// (S_1, 1! S_2, 2! S_3, ...) / k!, i.e. with s = S_1..S_5:
///   k=1: -S1/M,  k=2: (S1^2 + S2)/M,  k=3: -(S1^3 + 3 S1 S2 + 2 S3)/M,
///   k=4: (S1^4 + 6 S1^2 S2 + 3 S2^2 + 8 S1 S3 + 6 S4)/M,
///   k=5: -(S1^5 + 10 S1^3 S2 + 15 S1 S2^2 + 20 S1^2 S3 + 20 S2 S3 + 30 S1 S4 + 24 S5)/M.
fn log_moment(k: u32, m: C64, s: &[C64; 5]) -> C64 {
    let [s1, s2, s3, s4, s5] = *s;
    let poly = match k {
        1 => -s1,
        2 => s1 * s1 + s2,
        3 => -(s1 * s1 * s1 + 3.0 * s1 * s2 + 2.0 * s3),
        4 => s1.powi(4) + 6.0 * s1 * s1 * s2 + 3.0 * s2 * s2 + 8.0 * s1 * s3 + 6.0 * s4,
        5 => {
            -(s1.powi(5)
                + 10.0 * s1.powi(3) * s2
                + 15.0 * s1 * s2 * s2
                + 20.0 * s1 * s1 * s3
                + 20.0 * s2 * s3
                + 30.0 * s1 * s4
                + 24.0 * s5)
        }
        _ => unreachable!("log_moment: k = {k}, want 1..5"),
    };
    poly / m
}

/// M[(1-x)^j ln^k(1-x)](N), j = 0, 1, 2, k = 1..5: expand (1-x)^j and use
/// log_moment at N, N+1, N+2.
pub fn log_one_minus_x_moment(j: u32, k: u32, s: &SumValues) -> C64 {
    let at = |shift: u32| log_moment(k, s.n + shift as f64, &positive_sums_shifted(s, shift));
    match j {
        0 => at(0),
        1 => at(0) - at(1),
        2 => at(0) - 2.0 * at(1) + at(2),
        _ => unreachable!("log_one_minus_x_moment: j = {j}, want 0..2"),
    }
}

/// All fifteen M[(1-x)^j ln^k(1-x)](N) at once, `[j][k - 1]` for j = 0..2 and
/// k = 1..5: each value bitwise `log_one_minus_x_moment(j, k, s)`, with the
/// shifted sums and the moments at N, N+1, N+2 computed once instead of once
/// per (j, k).
pub fn log_one_minus_x_moments(s: &SumValues) -> [[C64; 5]; 3] {
    let mut at = [[C64::ZERO; 5]; 3];
    for (shift, row) in at.iter_mut().enumerate() {
        let sums = positive_sums_shifted(s, shift as u32);
        let m = s.n + shift as f64;
        for (k, v) in row.iter_mut().enumerate() {
            *v = log_moment(k as u32 + 1, m, &sums);
        }
    }
    let mut out = [[C64::ZERO; 5]; 3];
    for k in 0..5 {
        out[0][k] = at[0][k];
        out[1][k] = at[0][k] - at[1][k];
        out[2][k] = at[0][k] - 2.0 * at[1][k] + at[2][k];
    }
    out
}

/// M[ln^k(1-x)](N) (eko's `lm1k`).
pub fn lm1(k: u32, s: &SumValues) -> C64 {
    log_one_minus_x_moment(0, k, s)
}
/// M[(1-x) ln^k(1-x)](N) (eko's `lm1km1`).
pub fn lm1m1(k: u32, s: &SumValues) -> C64 {
    log_one_minus_x_moment(1, k, s)
}
/// M[(1-x)^2 ln^k(1-x)](N) (eko's `lm1km2`).
pub fn lm1m2(k: u32, s: &SumValues) -> C64 {
    log_one_minus_x_moment(2, k, s)
}

#[cfg(test)]
mod eko_reference;
#[cfg(test)]
mod tests;
