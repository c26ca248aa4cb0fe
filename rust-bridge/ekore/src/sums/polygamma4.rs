//! psi_4(z), the pentagamma function, in one fused pass: the same method and
//! domain as `harmonics::polygamma_0123` (upward recurrence, then the
//! asymptotic series by Horner in 1/V^2 with precomputed coefficients), which
//! stops at psi_3. `harmonics::polygamma(4, z)` is the same function but
//! generic in k and about three times slower; S_5 at N, N/2 and (N-1)/2 need
//! two psi_4 per Mellin point (docs/physics.md §5.4).

use crate::complex::C64;
use crate::harmonics::PolygammaError;

/// B_2j (2j+3)!/(2j)! for j = 1..10 (B_2j the Bernoulli numbers).
const COEF: [f64; 10] = [
    1.0 / 6.0 * 3.0 * 4.0 * 5.0,
    -1.0 / 30.0 * 5.0 * 6.0 * 7.0,
    1.0 / 42.0 * 7.0 * 8.0 * 9.0,
    -1.0 / 30.0 * 9.0 * 10.0 * 11.0,
    5.0 / 66.0 * 11.0 * 12.0 * 13.0,
    -691.0 / 2730.0 * 13.0 * 14.0 * 15.0,
    7.0 / 6.0 * 15.0 * 16.0 * 17.0,
    -3617.0 / 510.0 * 17.0 * 18.0 * 19.0,
    43867.0 / 798.0 * 19.0 * 20.0 * 21.0,
    -174611.0 / 330.0 * 21.0 * 22.0 * 23.0,
];

/// Re(V) from which the series is used: at |V| = 12 the first omitted term
/// (j = 11) is below 3e-17 relative to psi_4.
const SERIES_MIN: f64 = 12.0;

/// |z| and |Im z| from which the series is used directly, as in `harmonics`.
const DIRECT_ABS: f64 = 15.0;
const DIRECT_IM: f64 = 5.0;

/// psi_4(z) = psi_4(V) - 24 sum_{i<n} (z+i)^{-5}, V = z + n, with
/// psi_4(V) = -[6/V^4 + 12/V^5 + sum_j COEF[j] / V^(2j+6)] (j from 0).
pub fn psi4(z: C64) -> Result<C64, PolygammaError> {
    if !z.is_finite() {
        return Err(PolygammaError::NotFinite);
    }
    if z.im == 0.0 && z.re <= 0.0 && z.re == z.re.round() {
        return Err(PolygammaError::Pole);
    }
    // 1/v as conj(v)/|v|^2 (|v| stays within ~[1e-10, 1e5] here, as in `harmonics`)
    let inv = |v: C64| -> C64 {
        let d = 1.0 / (v.re * v.re + v.im * v.im);
        C64::new(v.re * d, -v.im * d)
    };
    let mut v = z;
    let mut acc = C64::ZERO;
    let direct = z.re >= SERIES_MIN || (z.norm_sqr() >= DIRECT_ABS * DIRECT_ABS && z.im.abs() >= DIRECT_IM);
    if !direct {
        for _ in 0..(SERIES_MIN - z.re).ceil().max(0.0) as u32 {
            let u = inv(v);
            let u2 = u * u;
            acc += u2 * u2 * u;
            v += 1.0;
        }
    }
    let u = inv(v);
    let u2 = u * u;
    let u4 = u2 * u2;
    let mut h = C64::real(COEF[9]);
    for c in COEF[..9].iter().rev() {
        h = h * u2 + *c;
    }
    Ok(-(u4 * (6.0 + u * 12.0 + u2 * h)) - acc * 24.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::complex::close;
    use crate::harmonics::polygamma;

    /// Same values as the generic `polygamma(4, z)` across the regions
    /// (recurrence, series, direct series on the far left, near the poles).
    #[test]
    fn equals_generic_polygamma() {
        let pts = [
            C64::new(2.5, 1.5), C64::new(1.0, 0.0), C64::new(0.5, 0.0), C64::new(11.9, 0.3), C64::new(12.0, 0.0),
            C64::new(14.5, -0.3), C64::new(-3.3, 4.9), C64::new(-20.0, 6.0), C64::new(-200.0, 60.0),
            C64::new(0.3, 14.9), C64::new(-7.0, 2.6), C64::new(-0.5, 0.01), C64::new(40.0, -35.0),
            C64::new(1e-3, 1e-3), C64::new(500.0, 350.0),
        ];
        for &z in &pts {
            let (got, want) = (psi4(z).unwrap(), polygamma(4, z).unwrap());
            // the recurrence cancels where psi_4 is small next to its terms 24/(z+i)^5
            // (z = -7 + 2.6i: 3e-4 of them, both codes then 1e-13 from mpmath)
            assert!(close(got, want, 3e-13, 1e-300), "z = {z:?}: {got:?} vs {want:?}");
        }
        // psi_4(1) = -24 zeta_5
        assert!(close(psi4(C64::ONE).unwrap(), C64::real(-24.0 * crate::constants::ZETA5), 1e-15, 0.0));
        assert_eq!(psi4(C64::real(-4.0)), Err(PolygammaError::Pole));
        assert_eq!(psi4(C64::new(f64::INFINITY, 0.0)), Err(PolygammaError::NotFinite));
    }
}
