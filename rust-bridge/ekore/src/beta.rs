//! Coefficients of the QCD beta function in eko's normalisation,
//! `d a_s / d ln mu^2 = - sum_n beta_n a_s^{n+2}` with `a_s = alpha_s/(4 pi)`
//! (docs/physics.md §2.1; eko module `eko.beta`; beta_3 from [Herzog17] eq. 3.6).
//!
//! `nf` is the number of active flavours. The functions are total (any nf
//! gives a number); the C ABI restricts nf to 3..6.

use crate::constants::{CA, CF, TR, ZETA3};

/// beta_0 = 11/3 C_A - 4/3 T_R nf (= 11 - 2/3 nf).
pub fn beta_0(nf: u32) -> f64 {
    let tf = TR * nf as f64;
    11.0 / 3.0 * CA - 4.0 / 3.0 * tf
}

/// beta_1 = 34/3 C_A^2 - 20/3 C_A T_F - 4 C_F T_F (= 102 - 38/3 nf).
pub fn beta_1(nf: u32) -> f64 {
    let tf = TR * nf as f64;
    34.0 / 3.0 * CA * CA - 20.0 / 3.0 * CA * tf - 4.0 * CF * tf
}

/// beta_2 = 2857/54 C_A^3 - 1415/27 C_A^2 T_F - 205/9 C_F C_A T_F + 2 C_F^2 T_F
/// + 44/9 C_F T_F^2 + 158/27 C_A T_F^2 (= 2857/2 - 5033/18 nf + 325/54 nf^2).
pub fn beta_2(nf: u32) -> f64 {
    let tf = TR * nf as f64;
    2857.0 / 54.0 * CA * CA * CA - 1415.0 / 27.0 * CA * CA * tf - 205.0 / 9.0 * CF * CA * tf
        + 2.0 * CF * CF * tf
        + 44.0 / 9.0 * CF * tf * tf
        + 158.0 / 27.0 * CA * tf * tf
}

/// beta_3 (SU(3) numbers) = 149753/6 + 3564 z3 - (1078361/162 + 6508/27 z3) nf
/// + (50065/162 + 6472/81 z3) nf^2 + 1093/729 nf^3.
pub fn beta_3(nf: u32) -> f64 {
    let n = nf as f64;
    149753.0 / 6.0 + 3564.0 * ZETA3 - (1078361.0 / 162.0 + 6508.0 / 27.0 * ZETA3) * n
        + (50065.0 / 162.0 + 6472.0 / 81.0 * ZETA3) * n * n
        + 1093.0 / 729.0 * n * n * n
}

/// [beta_0, beta_1, beta_2, beta_3] at nf.
pub fn betas(nf: u32) -> [f64; 4] {
    [beta_0(nf), beta_1(nf), beta_2(nf), beta_3(nf)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(a: f64, b: f64) -> f64 {
        ((a - b) / b).abs()
    }

    /// docs/physics.md §2.1 table [verified] (printed to 12 significant digits).
    #[test]
    fn table_values() {
        let table: [(u32, [f64; 4]); 4] = [
            (3, [9.0, 64.0, 643.833333333, 12090.3781308]),
            (4, [8.33333333333, 51.3333333333, 406.351851852, 8035.18641979]),
            (5, [7.66666666667, 38.6666666667, 180.907407407, 4826.15632879]),
            (6, [7.0, 26.0, -32.5, 2472.28374258]),
        ];
        for (nf, want) in table {
            let got = betas(nf);
            for k in 0..4 {
                assert!(rel(got[k], want[k]) < 1e-11, "beta_{k}({nf}) = {} vs {}", got[k], want[k]);
            }
        }
    }

    /// The colour-factor forms equal the nf polynomials of docs/physics.md §2.1.
    #[test]
    fn nf_polynomials() {
        for nf in 0..=8u32 {
            let n = nf as f64;
            assert!(rel(beta_0(nf), 11.0 - 2.0 / 3.0 * n) < 1e-15);
            assert!((beta_1(nf) - (102.0 - 38.0 / 3.0 * n)).abs() < 1e-12);
            assert!((beta_2(nf) - (2857.0 / 2.0 - 5033.0 / 18.0 * n + 325.0 / 54.0 * n * n)).abs() < 1e-11);
        }
        // b_1 = beta_1/beta_0 and b_2 = beta_2/beta_0 at nf = 4 (table)
        assert!(rel(beta_1(4) / beta_0(4), 6.16) < 1e-12);
        assert!(rel(beta_2(4) / beta_0(4), 48.7622222222) < 1e-11);
    }
}
