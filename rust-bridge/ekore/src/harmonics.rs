//! Harmonic sums of complex argument, through polygamma functions.
//!
//! Positive sums: S_m(N) = (-1)^{m-1}/(m-1)! psi_{m-1}(N+1) + zeta_m (zeta_1 -> gamma_E).
//! Negative sums: analytic continuation with the symmetry factor eta = (-1)^N
//! fixed to +1 (singlet-like) or -1 (non-singlet-like) [Bl00, GRV90]:
//!   S_{-m}(N) = 2^{1-m} [ (1+eta)/2 S_m(N/2) + (1-eta)/2 S_m((N-1)/2) ] - S_m(N).
//! S_{-2,1} and the Pegasus approximation of g_3 follow eko (see PHYSICS.md §5.4).

use crate::complex::C64;
use crate::constants::{EULER_GAMMA, LN2, ZETA2, ZETA3, ZETA4, ZETA5};

/// Bernoulli numbers B_2, B_4, ..., B_20.
const BERNOULLI: [f64; 10] = [
    1.0 / 6.0,
    -1.0 / 30.0,
    1.0 / 42.0,
    -1.0 / 30.0,
    5.0 / 66.0,
    -691.0 / 2730.0,
    7.0 / 6.0,
    -3617.0 / 510.0,
    43867.0 / 798.0,
    -174611.0 / 330.0,
];

/// Number of Bernoulli terms used by the asymptotic series at |V| >= 15:
/// the first omitted term is below 1e-20 relative.
const N_BERNOULLI: usize = 8;

/// Smallest |V| at which the asymptotic series is used.
const ASYMPTOTIC_MIN: f64 = 15.0;

fn factorial(n: u32) -> f64 {
    (1..=n).fold(1.0, |acc, k| acc * k as f64)
}

/// Error of polygamma: the argument is a non-positive integer (a pole), not finite,
/// or k is larger than supported.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PolygammaError {
    Pole,
    NotFinite,
    OrderTooHigh,
}

/// Largest polygamma order supported.
pub const MAX_POLYGAMMA_ORDER: u32 = 5;

/// psi_k(z), the k-th derivative of the digamma function, for k <= 5.
///
/// Recurrence psi_k(z) = psi_k(z+1) - (-1)^k k!/z^{k+1} up to Re(z) >= 15,
/// then the asymptotic (Stirling) series [Kolbig72]. Points with |z| >= 15 and
/// |Im z| >= 5 (the far left of the Talbot path) use the series directly: the
/// poles on the negative axis contribute there only at O(exp(-2 pi |Im z|)).
pub fn polygamma(k: u32, z: C64) -> Result<C64, PolygammaError> {
    if k > MAX_POLYGAMMA_ORDER {
        return Err(PolygammaError::OrderTooHigh);
    }
    if !z.is_finite() {
        return Err(PolygammaError::NotFinite);
    }
    if z.im == 0.0 && z.re <= 0.0 && z.re == z.re.round() {
        return Err(PolygammaError::Pole);
    }
    let sign_k = if k % 2 == 0 { 1.0 } else { -1.0 }; // (-1)^k
    let kfact = factorial(k);
    let mut v = z;
    let mut shift_sum = C64::ZERO;
    let direct = z.re >= ASYMPTOTIC_MIN || (z.abs() >= ASYMPTOTIC_MIN && z.im.abs() >= 5.0);
    if !direct {
        let n = (ASYMPTOTIC_MIN - z.re).ceil().max(0.0) as u32;
        for _ in 0..n {
            shift_sum += v.powi(-(k as i32) - 1);
            v = v + 1.0;
        }
    }
    let inv = v.recip();
    let inv2 = inv * inv;
    let series = if k == 0 {
        // ln V - 1/(2V) - sum_j B_2j / (2j V^2j)
        let mut s = C64::ZERO;
        let mut p = inv2;
        for (j, b) in BERNOULLI.iter().take(N_BERNOULLI).enumerate() {
            s += p * (b / (2.0 * (j as f64 + 1.0)));
            p = p * inv2;
        }
        v.ln() - inv * 0.5 - s
    } else {
        // (-1)^{k+1} [ (k-1)!/V^k + k!/(2 V^{k+1}) + sum_j B_2j (2j+k-1)!/((2j)! V^{2j+k}) ]
        let invk = inv.powi(k as i32);
        let mut s = invk * factorial(k - 1) + invk * inv * (kfact * 0.5);
        let mut p = invk * inv2;
        for (j, b) in BERNOULLI.iter().take(N_BERNOULLI).enumerate() {
            let two_j = 2 * (j as u32 + 1);
            s += p * (b * factorial(two_j + k - 1) / factorial(two_j));
            p = p * inv2;
        }
        s * (-sign_k)
    };
    Ok(series - shift_sum * (sign_k * kfact))
}

/// S_1(N) = psi_0(N+1) + gamma_E
pub fn s1(n: C64) -> Result<C64, PolygammaError> {
    Ok(polygamma(0, n + 1.0)? + EULER_GAMMA)
}
/// S_2(N) = zeta_2 - psi_1(N+1)
pub fn s2(n: C64) -> Result<C64, PolygammaError> {
    Ok(ZETA2 - polygamma(1, n + 1.0)?)
}
/// S_3(N) = zeta_3 + psi_2(N+1)/2
pub fn s3(n: C64) -> Result<C64, PolygammaError> {
    Ok(ZETA3 + polygamma(2, n + 1.0)? * 0.5)
}
/// S_4(N) = zeta_4 - psi_3(N+1)/6
pub fn s4(n: C64) -> Result<C64, PolygammaError> {
    Ok(ZETA4 - polygamma(3, n + 1.0)? / 6.0)
}
/// S_5(N) = zeta_5 + psi_4(N+1)/24
pub fn s5(n: C64) -> Result<C64, PolygammaError> {
    Ok(ZETA5 + polygamma(4, n + 1.0)? / 24.0)
}

/// S_m(N) for m = 1..5.
pub fn s(m: u32, n: C64) -> Result<C64, PolygammaError> {
    match m {
        1 => s1(n),
        2 => s2(n),
        3 => s3(n),
        4 => s4(n),
        5 => s5(n),
        _ => Err(PolygammaError::OrderTooHigh),
    }
}

/// S_{-m}(N) from S_m(N), S_m(N/2) and S_m((N-1)/2) with eta fixed by `singlet_like`
/// (eta=+1 uses S_m(N/2), eta=-1 uses S_m((N-1)/2)).
pub fn s_minus(m: u32, sm: C64, sm_half: C64, sm_half_minus: C64, singlet_like: bool) -> C64 {
    let w = 2f64.powi(1 - m as i32);
    if singlet_like {
        sm_half * w - sm
    } else {
        sm_half_minus * w - sm
    }
}

/// S_{-1}(N) with fixed eta; for m = 1 the continuation carries -ln 2 from zeta_1 of
/// the alternating series: S_{-1} = S_1(N/2) - S_1(N) (eta=+1), S_1((N-1)/2) - S_1(N) (eta=-1).
pub fn s_minus1(n: C64, singlet_like: bool) -> Result<C64, PolygammaError> {
    let a = s1(n)?;
    if singlet_like {
        Ok(s1(n * 0.5)? - a)
    } else {
        Ok(s1((n - 1.0) * 0.5)? - a)
    }
}

/// g_3(N) = M[Li_2(x)/(1+x)](N) in the 7-term Pegasus approximation of 1/(1+x)
/// used by eko (`mellin_g3`), absolute accuracy about 3e-7. `s1_n` is S_1(N).
pub fn g3(n: C64, s1_n: C64) -> C64 {
    const CS: [f64; 7] = [1.0000, -0.9992, 0.9851, -0.9005, 0.6621, -0.3174, 0.0699];
    let mut s1_nj = s1_n;
    let mut acc = C64::ZERO;
    for (j, c) in CS.iter().enumerate() {
        let nj = n + j as f64;
        if j > 0 {
            s1_nj += nj.recip(); // S_1(N+j) = S_1(N+j-1) + 1/(N+j)
        }
        acc += (ZETA2 - s1_nj / nj) / nj * *c;
    }
    acc
}

/// S_{-2,1}(N) = -eta g_3(N+1) + zeta_2 S_{-1}(N) - 5/8 zeta_3 + zeta_2 ln 2,
/// with g_3 in the Pegasus approximation.
pub fn s_minus2_1(n: C64, s1_n: C64, s_m1: C64, singlet_like: bool) -> C64 {
    let eta = if singlet_like { 1.0 } else { -1.0 };
    let s1_np1 = s1_n + (n + 1.0).recip();
    -(g3(n + 1.0, s1_np1) * eta) + s_m1 * ZETA2 - 5.0 / 8.0 * ZETA3 + ZETA2 * LN2
}

/// The harmonic sums needed up to NNLO and NNLO matching at one N, computed once
/// (no allocation: plain values on the stack).
#[derive(Clone, Copy, Debug)]
pub struct Sums {
    pub n: C64,
    /// S_1..S_4 at N (index m-1)
    pub s: [C64; 4],
    /// S_1..S_3 at N/2
    pub s_half: [C64; 3],
    /// S_1..S_3 at (N-1)/2
    pub s_half_minus: [C64; 3],
}

impl Sums {
    pub fn new(n: C64) -> Result<Sums, PolygammaError> {
        let h = n * 0.5;
        let hm = (n - 1.0) * 0.5;
        Ok(Sums {
            n,
            s: [s1(n)?, s2(n)?, s3(n)?, s4(n)?],
            s_half: [s1(h)?, s2(h)?, s3(h)?],
            s_half_minus: [s1(hm)?, s2(hm)?, s3(hm)?],
        })
    }
    pub fn s1(&self) -> C64 {
        self.s[0]
    }
    pub fn s2(&self) -> C64 {
        self.s[1]
    }
    pub fn s3(&self) -> C64 {
        self.s[2]
    }
    pub fn s4(&self) -> C64 {
        self.s[3]
    }
    /// S_{-m}(N), m = 1..3, with eta = +1 (`singlet_like`) or -1.
    pub fn s_minus(&self, m: usize, singlet_like: bool) -> C64 {
        s_minus(
            m as u32,
            self.s[m - 1],
            self.s_half[m - 1],
            self.s_half_minus[m - 1],
            singlet_like,
        )
    }
    /// g_3(N), Pegasus approximation.
    pub fn g3(&self) -> C64 {
        g3(self.n, self.s1())
    }
    /// S_{-2,1}(N) with the Pegasus g_3.
    pub fn s_minus2_1(&self, singlet_like: bool) -> C64 {
        s_minus2_1(self.n, self.s1(), self.s_minus(1, singlet_like), singlet_like)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::complex::close;

    fn c(re: f64, im: f64) -> C64 {
        C64::new(re, im)
    }

    // PHYSICS.md §11.2 (mpmath) and eko's test_polygamma.py.
    #[test]
    fn polygamma_reference_values() {
        assert!(close(
            polygamma(0, c(0.0, 1.0)).unwrap(),
            c(0.09465032062247669, 2.0766740474685816),
            1e-14,
            0.0
        ));
        assert!(close(
            polygamma(1, c(-1.0, 2.0)).unwrap(),
            c(-0.24506883785905695, -0.3178255501472297),
            1e-13,
            0.0
        ));
        assert!(close(polygamma(3, c(1.0, 0.0)).unwrap(), c(6.49393940226683, 0.0), 1e-13, 0.0));
        assert!(close(
            polygamma(4, c(0.0, 1.0)).unwrap(),
            c(3.2795081690440493, 21.41938794863803),
            1e-13,
            0.0
        ));
    }

    #[test]
    fn harmonic_sums_at_complex_n() {
        let n = c(2.5, 1.5);
        let sums = Sums::new(n).unwrap();
        assert!(close(sums.s1(), c(1.78963576537, 0.460738900672), 1e-11, 0.0));
        assert!(close(sums.s2(), c(1.37870470109, 0.131210961317), 1e-11, 0.0));
        assert!(close(sums.s3(), c(1.17515754036, 0.0346274523496), 1e-11, 0.0));
        assert!(close(sums.s4(), c(1.0805042728, 0.00840300100401), 1e-10, 0.0));
        assert!(close(sums.s_half[0], c(1.22905333476, 0.397072002528), 1e-11, 0.0));
        assert!(close(sums.s_half_minus[0], c(0.963923834855, 0.524405798817), 1e-11, 0.0));
        assert!(close(sums.s_half[1], c(1.16672069651, 0.196534043645), 1e-11, 0.0));
        assert!(close(sums.s_half_minus[1], c(1.05822997414, 0.328309801622), 1e-11, 0.0));
        assert!(close(sums.s_half[2], c(1.10728638531, 0.0913378496377), 1e-11, 0.0));
        assert!(close(sums.s_half_minus[2], c(1.08163251863, 0.185681769159), 1e-11, 0.0));
        assert!(close(sums.g3(), c(0.183987642172, -0.0792778044343), 1e-10, 0.0));
        assert!(close(sums.s_minus(2, true), c(-0.7953443528, -0.03294393949), 1e-9, 0.0));
        assert!(close(sums.s_minus(3, true), c(-0.898335944, -0.01179298994), 1e-9, 0.0));
        assert!(close(sums.s_minus2_1(true), c(-0.6861343831, -0.05399022315), 1e-9, 0.0));
    }

    #[test]
    fn sums_at_integers_are_finite_sums() {
        for n in 1..12 {
            let nn = C64::real(n as f64);
            for m in 1..=5u32 {
                let exact: f64 = (1..=n).map(|j| (j as f64).powi(-(m as i32))).sum();
                assert!(close(s(m, nn).unwrap(), C64::real(exact), 1e-14, 1e-15), "S_{m}({n})");
            }
            // alternating sums at even N with eta = +1
            if n % 2 == 0 {
                let sums = Sums::new(nn).unwrap();
                for m in 1..=3usize {
                    let exact: f64 =
                        (1..=n).map(|j| (if j % 2 == 0 { 1.0 } else { -1.0 }) / (j as f64).powi(m as i32)).sum();
                    assert!(close(sums.s_minus(m, true), C64::real(exact), 1e-13, 1e-14), "S_-{m}({n})");
                }
            }
        }
    }

    #[test]
    fn recurrence_and_asymptotic_regions_agree() {
        // psi_k(z+1) - psi_k(z) = (-1)^k k! / z^{k+1} across the switch between regions
        for &z in &[c(14.5, 0.3), c(-20.0, 6.0), c(-200.0, 60.0), c(0.3, 14.9), c(-3.0, 4.9)] {
            for k in 0..=4u32 {
                let lhs = polygamma(k, z + 1.0).unwrap() - polygamma(k, z).unwrap();
                let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
                let rhs = z.powi(-(k as i32) - 1) * (sign * factorial(k));
                assert!(close(lhs, rhs, 1e-11, 1e-14), "k={k} z={z:?}: {lhs:?} vs {rhs:?}");
            }
        }
    }

    #[test]
    fn poles_are_errors() {
        assert_eq!(polygamma(0, C64::real(0.0)), Err(PolygammaError::Pole));
        assert_eq!(polygamma(1, C64::real(-3.0)), Err(PolygammaError::Pole));
        assert_eq!(polygamma(0, c(f64::NAN, 0.0)), Err(PolygammaError::NotFinite));
        assert_eq!(polygamma(6, c(1.0, 0.0)), Err(PolygammaError::OrderTooHigh));
    }
}
