//! Leading-order (coefficient of a_s) unpolarised space-like anomalous
//! dimensions gamma^(0)(N) = -M[P^(0)](N) (docs/physics.md §5.1;
//! [MVV-NS] eq. 3.4, [MVV-S] eq. 3.5).
//!
//! Every function takes the harmonic sums at N and the number of active
//! flavours; the ones that do not depend on nf ignore it. Poles: N = 0, -1, -2,
//! ... everywhere, and N = 1 in gamma_gq and gamma_gg.

use crate::beta::beta_0;
use crate::complex::C64;
use crate::constants::{CA, CF, TR};
use crate::harmonics::Sums;

/// gamma_ns^(0) = C_F [4 S_1 - 3 - 2/(N(N+1))], the same for ns+, ns- and nsV
/// (and gamma_qq^(0)). [MVV-NS] eq. 3.4.
pub fn gamma_ns(s: &Sums, _nf: u32) -> C64 {
    let n = s.n;
    (s.s1() * 4.0 - 3.0 - 2.0 / (n * (n + 1.0))) * CF
}

/// gamma_qg^(0) = -4 T_R nf (N^2+N+2)/(N(N+1)(N+2)); contains 2 nf since the
/// singlet sums over q and qbar of all flavours. [MVV-S] eq. 3.5.
pub fn gamma_qg(s: &Sums, nf: u32) -> C64 {
    let n = s.n;
    let p = n * n + n + 2.0;
    -(p / (n * (n + 1.0) * (n + 2.0))) * (4.0 * TR * nf as f64)
}

/// gamma_gq^(0) = -2 C_F (N^2+N+2)/((N-1)N(N+1)). [MVV-S] eq. 3.5.
pub fn gamma_gq(s: &Sums, _nf: u32) -> C64 {
    let n = s.n;
    let p = n * n + n + 2.0;
    -(p / ((n - 1.0) * n * (n + 1.0))) * (2.0 * CF)
}

/// gamma_gg^(0) = 4 C_A [S_1 - 1/(N(N-1)) - 1/((N+1)(N+2))] - beta_0(nf).
/// [MVV-S] eq. 3.5.
pub fn gamma_gg(s: &Sums, nf: u32) -> C64 {
    let n = s.n;
    (s.s1() - 1.0 / (n * (n - 1.0)) - 1.0 / ((n + 1.0) * (n + 2.0))) * (4.0 * CA) - beta_0(nf)
}

/// The LO singlet matrix [[qq, qg], [gq, gg]] on the basis (Sigma, g),
/// with gamma_qq^(0) = gamma_ns^(0).
pub fn gamma_singlet(s: &Sums, nf: u32) -> [[C64; 2]; 2] {
    [
        [gamma_ns(s, nf), gamma_qg(s, nf)],
        [gamma_gq(s, nf), gamma_gg(s, nf)],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::complex::close;

    fn sums(re: f64, im: f64) -> Sums {
        Sums::new(C64::new(re, im)).unwrap()
    }

    /// Quark-number conservation: gamma_ns^(0)(1) = 0 exactly (docs/physics.md §10).
    #[test]
    fn number_conservation() {
        let g = gamma_ns(&sums(1.0, 0.0), 4);
        // S_1(1) = 1 up to the rounding of psi_0(2) + gamma_E
        assert!(g.abs() < 1e-14, "{g:?}");
    }

    /// Momentum conservation at N = 2 and the closed matrix of docs/physics.md §10.
    #[test]
    fn momentum_sum_rule() {
        let s = sums(2.0, 0.0);
        for nf in 3..=6u32 {
            let g = gamma_singlet(&s, nf);
            assert!((g[0][0] + g[1][0]).abs() < 1e-14, "quark column nf={nf}");
            assert!((g[0][1] + g[1][1]).abs() < 1e-14, "gluon column nf={nf}");
            let nff = nf as f64;
            assert!(close(g[0][0], C64::real(32.0 / 9.0), 1e-15, 0.0));
            assert!(close(g[0][1], C64::real(-2.0 * nff / 3.0), 1e-15, 0.0));
            assert!(close(g[1][0], C64::real(-32.0 / 9.0), 1e-15, 0.0));
            assert!(close(g[1][1], C64::real(2.0 * nff / 3.0), 1e-14, 1e-15));
        }
    }

    /// eko's LO anomalous-dimension test values (docs/physics.md §10).
    #[test]
    fn closed_values() {
        assert!(close(gamma_qg(&sums(1.0, 0.0), 5), C64::real(-20.0 / 3.0), 1e-15, 0.0));
        let i = sums(0.0, 1.0);
        assert!(close(gamma_gq(&i, 5), C64::new(4.0 / 3.0, -4.0 / 3.0), 1e-15, 0.0));
        assert!(close(gamma_gg(&i, 5), C64::new(5.195725159621, 10.52008856962), 1e-12, 0.0));
        assert!(close(gamma_ns(&sums(2.0, 0.0), 3), C64::real(32.0 / 9.0), 1e-15, 0.0));
    }

    /// N = 2.5 + 1.5i, nf = 4 (docs/physics.md §11.3, mpmath).
    #[test]
    fn complex_reference_values() {
        let s = sums(2.5, 1.5);
        assert!(close(gamma_ns(&s, 4), C64::new(5.40408851739, 2.65200030325), 1e-11, 0.0));
        assert!(close(gamma_qg(&s, 4), C64::new(-1.69087221095, 0.823258958756), 1e-11, 0.0));
        assert!(close(gamma_gq(&s, 4), C64::new(-0.852828487717, 1.11246337616), 1e-11, 0.0));
        assert!(close(gamma_gg(&s, 4), C64::new(12.1751558917, 7.85259905959), 1e-11, 0.0));
    }
}
