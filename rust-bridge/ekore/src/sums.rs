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

use crate::complex::C64;

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

/// The positive sums S_1..S_5 at N + shift (shift = 0, 1, 2), from
/// S_k(N + 1) = S_k(N) + 1/(N + 1)^k.
fn positive_sums_shifted(s: &SumValues, shift: u32) -> [C64; 5] {
    let mut out = [s.s1, s.s2, s.s3, s.s4, s.s5];
    for j in 1..=shift {
        let inv = (s.n + j as f64).recip();
        let mut p = inv;
        for v in out.iter_mut() {
            *v += p;
            p = p * inv;
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
mod tests {
    use super::*;

    /// The positive sums from their definition at a positive integer N.
    fn integer_sums(n: u32) -> SumValues {
        let mut s = [C64::ZERO; 5];
        for i in 1..=n {
            for (k, v) in s.iter_mut().enumerate() {
                *v += (i as f64).powi(-(k as i32 + 1));
            }
        }
        let z = C64::ZERO;
        SumValues {
            n: C64::new(n as f64, 0.0),
            s1: s[0],
            s2: s[1],
            s3: s[2],
            s4: s[3],
            s5: s[4],
            sm1: z,
            sm2: z,
            sm3: z,
            sm4: z,
            sm5: z,
            s21: z,
            s2m1: z,
            sm21: z,
            sm2m1: z,
            s31: z,
            sm31: z,
            s211: z,
            sm211: z,
            sm22: z,
        }
    }

    /// Gauss-Legendre on t in (0,1) with x = 1 - t^4 (dx = 4 t^3 dt) removes the
    /// log singularity at x = 1 well enough for 1e-9 at these N.
    fn quadrature(j: u32, k: u32, n: f64) -> f64 {
        let panels = 400;
        let (nodes, weights) = (
            [-0.7745966692414834, 0.0, 0.7745966692414834],
            [5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0],
        );
        let mut sum = 0.0;
        for p in 0..panels {
            let (a, b) = (p as f64 / panels as f64, (p + 1) as f64 / panels as f64);
            for (z, w) in nodes.iter().zip(weights.iter()) {
                let t = 0.5 * (a + b) + 0.5 * (b - a) * z;
                let omx = t.powi(4);
                let x = 1.0 - omx;
                let f = x.powf(n - 1.0)
                    * omx.powi(j as i32)
                    * omx.ln().powi(k as i32)
                    * 4.0
                    * t.powi(3);
                sum += 0.5 * (b - a) * w * f;
            }
        }
        sum
    }

    #[test]
    fn log_moments_equal_their_integrals() {
        for n in [2u32, 3, 5] {
            let s = integer_sums(n);
            for j in 0..=2 {
                for k in 1..=5 {
                    let got = log_one_minus_x_moment(j, k, &s);
                    let want = quadrature(j, k, n as f64);
                    assert!(
                        got.im == 0.0 && ((got.re - want) / want).abs() < 1e-8,
                        "j {j} k {k} n {n}: {} vs {want}",
                        got.re
                    );
                }
            }
        }
    }
}
