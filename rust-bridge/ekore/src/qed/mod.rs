//! QED and mixed QCD x QED unpolarised space-like anomalous dimensions, as eko
//! 0.15.7 evaluates them (`ekore.anomalous_dimensions.unpolarized.space_like`:
//! `aem1`, `as1aem1`, `aem2` and the `*_qed` functions), docs/physics.md §15.1.
//!
//! Conventions: a_em = alpha_em/(4 pi); eko's order pair (i, j) labels the
//! coefficient of a_s^i a_em^j; gamma = -P. Bases (eko's unified evolution
//! basis): the singlet is 4x4 on (g, photon, Sigma, Sigma_Delta), the valence
//! 2x2 on (V, V_Delta), the non-singlet has the four modes 10102 (ns+, up-like),
//! 10103 (ns+, down-like), 10202 (ns-, up-like), 10203 (ns-, down-like).
//!
//! Modules: `aem1` (O(a_em), eq. 2.5 of the paper eko cites as
//! Carrazza:2015dea), `as1aem1`
//! (O(a_s a_em), de Florian, Sborlini, Rodrigo arXiv:1512.00612), `aem2` (O(a_em^2),
//! de Florian, Sborlini, Rodrigo arXiv:1606.02887), `towers` (the grids (i, j)
//! with the QCD entries (i, 0) of `as1`..`as4` placed as eko places them).
//! This file holds the charges and the harmonic sums the mixed pieces read.

pub mod aem1;
pub mod aem2;
pub mod as1aem1;
pub mod towers;
#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

pub use towers::{gamma_ns_qed, gamma_ns_qed_all, gamma_singlet_qed, gamma_valence_qed, N3lo, NsQed, SingletQed, ValenceQed};

use crate::complex::C64;
use crate::harmonics::Sums;

/// Number of colours (eko's `constants.NC`).
pub const NC: f64 = 3.0;
/// Squared charge of the up-like quarks, e_u^2.
pub const EU2: f64 = 4.0 / 9.0;
/// Squared charge of the down-like quarks, e_d^2.
pub const ED2: f64 = 1.0 / 9.0;

/// eko's non-singlet QED modes.
pub const MODE_NS_PLUS_U: u32 = 10102;
pub const MODE_NS_PLUS_D: u32 = 10103;
pub const MODE_NS_MINUS_U: u32 = 10202;
pub const MODE_NS_MINUS_D: u32 = 10203;
/// The four modes in the order of the C ABI's non-singlet output.
pub const NS_MODES: [u32; 4] = [MODE_NS_PLUS_U, MODE_NS_PLUS_D, MODE_NS_MINUS_U, MODE_NS_MINUS_D];

/// Number of up-like flavours among nf (u, c, t): nf / 2, as eko's `uplike_flavors`.
pub fn n_up(nf: u32) -> u32 {
    nf / 2
}

/// eko's `charge_combinations(nf)`: the charge factors of the unified basis.
#[derive(Clone, Copy, Debug)]
pub struct Charges {
    /// <e^2> = (nu e_u^2 + nd e_d^2) / nf
    pub e2avg: f64,
    /// nu/nf (e_u^2 - e_d^2)
    pub vue2m: f64,
    /// nd/nf (e_u^2 - e_d^2)
    pub vde2m: f64,
    /// vde2m - vue2m + e2avg
    pub e2delta: f64,
}

impl Charges {
    pub fn new(nf: u32) -> Charges {
        let (nu, nd) = (n_up(nf) as f64, (nf - n_up(nf)) as f64);
        let nff = nf as f64;
        let e2avg = (nu * EU2 + nd * ED2) / nff;
        let vue2m = nu / nff * (EU2 - ED2);
        let vde2m = nd / nff * (EU2 - ED2);
        Charges { e2avg, vue2m, vde2m, e2delta: vde2m - vue2m + e2avg }
    }
}

/// Sum of the squared charges of the active quarks, nu e_u^2 + nd e_d^2.
pub fn sum_e2(nf: u32) -> f64 {
    n_up(nf) as f64 * EU2 + (nf - n_up(nf)) as f64 * ED2
}

/// Sum of the fourth powers of the charges, nu e_u^4 + nd e_d^4.
pub fn sum_e4(nf: u32) -> f64 {
    n_up(nf) as f64 * EU2 * EU2 + (nf - n_up(nf)) as f64 * ED2 * ED2
}

/// The sums the O(a_s a_em) non-singlet kernels read beyond S_1..S_3(N), as eko's
/// harmonics cache defines them (keys S1h..S3h, S1ph..S3ph, g3, g3p2):
/// S_k(N/2), S_k((N+1)/2) = S_k((N-1)/2) + ((N+1)/2)^-k, g_3(N) and g_3(N+2)
/// (of the sums' physics: eko's fit or exact, `Sums::g3_at`, with S_1(N+2) = S_1(N) + 1/(N+1) + 1/(N+2)).
#[derive(Clone, Copy, Debug)]
pub struct MixedSums {
    /// S_1..S_3 at N/2
    pub half: [C64; 3],
    /// S_1..S_3 at (N+1)/2
    pub half_plus: [C64; 3],
    pub g3: C64,
    pub g3_p2: C64,
}

impl MixedSums {
    pub fn new(s: &Sums) -> MixedSums {
        let n = s.n;
        let inv = ((n + 1.0) * 0.5).recip();
        let mut half_plus = s.s_half_minus;
        let mut p = inv;
        for hp in half_plus.iter_mut() {
            *hp += p;
            p *= inv;
        }
        let s1_p2 = s.s1() + (n + 1.0).recip() + (n + 2.0).recip();
        MixedSums { half: s.s_half, half_plus, g3: s.g3(), g3_p2: s.g3_at(n + 2.0, s1_p2) }
    }
}
