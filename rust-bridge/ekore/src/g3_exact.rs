//! g_3(N) = M[Li_2(x)/(1+x)](N) to double precision (docs/physics.md section 16.5).
//!
//! eko's non-singlet NLO anomalous dimensions (and with them ekoc's by default)
//! use a 7-term fit of 1/(1+x) inside g_3 (`harmonics::g3`, about 1e-7 absolute
//! off). This is the exact function, which `Physics::Exact` takes
//! (`harmonics::g3_with`, crate::physics): the recurrence
//!     g_3(N) = h(N) - g_3(N+1),   h(N) = int x^(N-1) Li_2(x) = zeta_2/N - S_1(N)/N^2,
//! carries N to |M| >= 15 with Re M >= 10 or |Im M| >= 15, where the large-M
//! expansion of gen/gen_g3_asymptotic.py (Watson's lemma on the Laplace form,
//! the contour rotated for Re M < 0: the poles at M = 0, -1, ... it leaves out
//! are ~exp(-pi |Im M|) there) is exact to ~1e-16 relative (checked against the
//! recurrence continued from a 40-digit quadrature, G3_REFERENCE). The Talbot
//! paths reach Re N far below 0 at large |Im N|, where the recurrence alone
//! took a step per unit of Re N (460 per call on average in the converged LHA
//! part 3/1).

use crate::complex::C64;
use crate::constants::ZETA2;

include!("g3_asymptotic_table.rs");

/// The large-|M| expansion: sum_k [A_k + B_k (psi(k+1) - ln M)] / M^(k+1)
/// (A_k, B_k = a_k k!, b_k k!, and B_k psi(k+1) tabulated).
fn g3_large(m: C64) -> C64 {
    let inv = m.recip();
    let ln_m = m.ln();
    let mut power = inv; // 1/M^(k+1)
    let mut acc = C64::ZERO;
    for k in 0..G3_ASYM_A.len() {
        acc += power * (G3_ASYM_A[k] + G3_ASYM_BPSI[k]) - power * ln_m * G3_ASYM_B[k];
        power = power * inv;
    }
    acc
}

/// g_3(N) exactly (to ~1e-16 relative); `s1_n` is S_1(N).
pub fn g3_exact(n: C64, s1_n: C64) -> C64 {
    let mut m = n;
    let mut s1_m = s1_n;
    let mut sign = 1.0;
    let mut acc = C64::ZERO;
    let mut inv = m.recip();
    // |M| < 15 as |M|^2 < 225 (no square root); each 1/M serves two steps
    while m.norm_sqr() < 225.0 || (m.re < 10.0 && m.im.abs() < 15.0) {
        acc += (ZETA2 - s1_m * inv) * inv * sign; // h(M)
        sign = -sign;
        m = m + 1.0;
        inv = m.recip();
        s1_m += inv; // S_1(M+1) = S_1(M) + 1/(M+1)
    }
    acc + g3_large(m) * sign
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harmonics::{g3, s1};

    fn c(re: f64, im: f64) -> C64 {
        C64::new(re, im)
    }

    /// 40-digit quadratures of int_0^1 x^(N-1) Li_2(x)/(1+x) dx, continued to
    /// Re N < 12 by the recurrence (mpmath, by gen/gen_g3_asymptotic.py): the
    /// right half plane and, at |Im N| >= 15, the left one, where the expansion
    /// is used from N on.
    #[test]
    fn matches_the_quadrature() {
        for &(n, want) in G3_REFERENCE.iter() {
            let n = c(n.0, n.1);
            let got = g3_exact(n, s1(n).unwrap());
            let want = c(want.0, want.1);
            assert!((got - want).abs() <= 1e-15 * want.abs().max(1.0), "N={n:?}: {got:?} vs {want:?}");
        }
    }

    /// The fit is close to the exact function (1.5e-6 at N = 0.3 + i), not equal to it.
    #[test]
    fn the_fit_is_close_but_not_exact() {
        let mut worst: f64 = 0.0;
        for &(n, _) in G3_REFERENCE.iter() {
            let n = c(n.0, n.1);
            let s = s1(n).unwrap();
            worst = worst.max((g3(n, s) - g3_exact(n, s)).abs());
        }
        assert!(worst < 1e-5 && worst > 1e-9, "fit vs exact {worst}");
    }

    /// The physics the sums carry picks the function: `Physics::Exact` gives the
    /// exact g_3 at integer N (from g_3(1) = zeta_2 ln 2 - 5/8 zeta_3 by
    /// g_3(N+1) = zeta_2/N - S_1(N)/N^2 - g_3(N)) to 1e-15, `Physics::Eko` eko's fit,
    /// within 1e-5 but not 1e-9 of it at these N; `Sums::new` is eko's.
    #[test]
    fn the_sums_physics_picks_g3() {
        use crate::harmonics::Sums;
        use crate::physics::Physics;
        let mut exact = ZETA2 * std::f64::consts::LN_2 - 0.625 * crate::constants::ZETA3;
        let mut s1 = 0.0;
        for n in 1..=12 {
            let sums = Sums::new(c(n as f64, 0.0)).unwrap();
            let (eko, ours) = (sums.g3(), sums.with_physics(Physics::Exact).g3());
            assert!((ours.re - exact).abs() < 1e-15 && ours.im == 0.0, "N={n}: {ours:?} vs {exact}");
            assert_eq!(eko, g3(sums.n, sums.s1()), "N={n}: Sums::new is eko's");
            let off = (eko.re - exact).abs();
            assert!(off < 1e-5 && off > 1e-9, "N={n}: fit off the exact g_3 by {off}");
            s1 += 1.0 / n as f64; // S_1(n)
            exact = ZETA2 / n as f64 - s1 / (n * n) as f64 - exact; // g_3(n+1)
        }
    }

    /// g_3(1) = zeta_2 ln 2 - 5/8 zeta_3 (a closed form at N = 1).
    #[test]
    fn value_at_one() {
        let want = ZETA2 * std::f64::consts::LN_2 - 0.625 * crate::constants::ZETA3;
        let got = g3_exact(c(1.0, 0.0), c(1.0, 0.0));
        assert!((got.re - want).abs() < 1e-15 && got.im.abs() < 1e-15, "{got:?} vs {want}");
    }
}
