//! Unpolarized space-like heavy-quark matching operator matrix elements (OMEs)
//! in Mellin space, pole-mass scheme, with eko's conventions (docs/physics.md §8):
//!
//! * expansion in a_s = alpha_s^{(nf+1)}/(4 pi) at the matching scale, the
//!   coefficient of a_s^k being returned by the `*_k` functions;
//! * `l` = L = ln(mu^2/m_h^2);
//! * singlet basis (g, q, H) — note: not the evolution order (q, g) — and
//!   non-singlet basis (q, H), matrices indexed [row][column];
//! * `nf` (light flavours below the threshold) is accepted for symmetry with the
//!   O(a_s^3) entries; it does not enter at O(a_s) and O(a_s^2).
//!
//! Sources: [BMSN] Buza et al. hep-ph/9612398 appendix B (eqs. B.1-B.7, all L
//! dependence; at L = 0 in the form of [PEG] Vogt hep-ph/0408244), [BBK09]
//! Bierenbaum, Blümlein, Klein arXiv:0901.0669 (A_Hg^(2) at L = 0), [Ball16]
//! Ball et al. arXiv:1510.00009 eqs. 20a/20b (intrinsic A_HH^(1), A_gH^(1)).
//! The L and L^2 coefficients are those of eko's O(a_s^2) OME module (taken from QCDNUM's OME routine),
//! rewritten here in partial fractions where that was simple; coefficients
//! checked against eko to 1e-12 (see the tests).
//!
//! Everything is plain arithmetic on a precomputed `Sums`: no allocation, no
//! panic, thread-safe. Poles (N = 0, -1, -2 and, for some entries, N = 1) give
//! non-finite entries; callers reject those N beforehand.
//!
//! Modules: this file holds the kinematic quantities shared by all entries
//! (`Kin`), two small helpers and the public matrices; `as1` the O(a_s)
//! entries, `as2` the O(a_s^2) entries; `tests` the checks against eko and the
//! literature.

mod as1;
mod as2;
pub mod as3;
#[cfg(test)]
mod tests;

use as1::{a_gg_1, a_gh_1, a_hg_1, a_hh_1};
use as2::{a_gg_2, a_gq_2, a_hg_2, a_hq_ps_2, a_qq_ns_2};
pub use as3::{a_ns_as3, a_singlet_as3};
use crate::complex::C64;
use crate::constants::CF;
use crate::harmonics::Sums;

/// Powers of 1/(N+k) and the shifted harmonic sums shared by all entries.
struct Kin {
    n: C64,
    /// 1/N, 1/(N-1), 1/(N+1), 1/(N+2)
    i0: C64,
    im1: C64,
    ip1: C64,
    ip2: C64,
    s1: C64,
    s2: C64,
    s3: C64,
    /// S_1(N-1), S_2(N-1)
    s1m: C64,
    s2m: C64,
    /// S_1(N+1), S_2(N+1), S_2(N+2)
    s1p: C64,
    s2p: C64,
    s2pp: C64,
    /// P = N^2 + N + 2 and D = N(N+1)(N+2)
    p: C64,
    d: C64,
}

impl Kin {
    fn new(s: &Sums) -> Kin {
        let n = s.n;
        let i0 = n.recip();
        let ip1 = (n + 1.0).recip();
        let ip2 = (n + 2.0).recip();
        let (s1, s2, s3) = (s.s1(), s.s2(), s.s3());
        let s2p = s2 + ip1 * ip1;
        Kin {
            n,
            i0,
            im1: (n - 1.0).recip(),
            ip1,
            ip2,
            s1,
            s2,
            s3,
            s1m: s1 - i0,
            s2m: s2 - i0 * i0,
            s1p: s1 + ip1,
            s2p,
            s2pp: s2p + ip2 * ip2,
            p: n * n + n + 2.0,
            d: n * (n + 1.0) * (n + 2.0),
        }
    }
}

/// Evaluate sum_k c[k] z^k (Horner); `c` lists coefficients from z^0 upwards.
#[inline]
fn poly(c: &[f64], z: C64) -> C64 {
    let mut acc = C64::ZERO;
    for &ck in c.iter().rev() {
        acc = acc * z + ck;
    }
    acc
}

/// Value + L * first + L^2 * second.
#[inline]
fn in_l(l: f64, c0: C64, c1: C64, c2: C64) -> C64 {
    c0 + (c1 + c2 * l) * l
}

// ---------------------------------------------------------------- public API

/// O(a_s) non-singlet OME on (q, H): only the intrinsic A_HH^(1) at [1][1]
/// (eko `as1.A_ns`). Pure; no allocation.
pub fn a_ns_1(s: &Sums, _nf: u32, l: f64) -> [[C64; 2]; 2] {
    let k = Kin::new(s);
    [[C64::ZERO, C64::ZERO], [C64::ZERO, a_hh_1(&k, l)]]
}

/// O(a_s^2) non-singlet OME on (q, H): A_qq,H^{NS,(2)} at [0][0], the rest 0
/// (eko `as2.A_ns`). Pure; no allocation.
pub fn a_ns_2(s: &Sums, _nf: u32, l: f64) -> [[C64; 2]; 2] {
    let k = Kin::new(s);
    [[a_qq_ns_2(&k, l), C64::ZERO], [C64::ZERO, C64::ZERO]]
}

/// O(a_s) singlet OME on (g, q, H):
/// [[A_gg,H, 0, A_gH], [0, 0, 0], [A_Hg, 0, A_HH]] (eko `as1.A_singlet`).
/// Pure; no allocation.
pub fn a_singlet_1(s: &Sums, _nf: u32, l: f64) -> [[C64; 3]; 3] {
    let k = Kin::new(s);
    let z = C64::ZERO;
    [
        [a_gg_1(l), z, a_gh_1(&k, l)],
        [z, z, z],
        [a_hg_1(&k, l), z, a_hh_1(&k, l)],
    ]
}

/// O(a_s^2) singlet OME on (g, q, H), pole-mass scheme:
/// [[A_gg,H, A_gq,H, 0], [0, A_qq,H^NS, 0], [A_Hg, A_Hq^PS, 0]]
/// (eko `as2.A_singlet` with is_msbar = False). Pure; no allocation.
pub fn a_singlet_2(s: &Sums, _nf: u32, l: f64) -> [[C64; 3]; 3] {
    let k = Kin::new(s);
    let z = C64::ZERO;
    [
        [a_gg_2(&k, l), a_gq_2(&k, l), z],
        [z, a_qq_ns_2(&k, l), z],
        [a_hg_2(&k, s, l), a_hq_ps_2(&k, l), z],
    ]
}

/// The MSbar-mass part of the O(a_s^2) singlet OME on (g, q, H): with the
/// heavy-quark mass in the MSbar scheme (eko's `as2.A_singlet` with
/// is_msbar = True, its `masses_scheme: msbar`) eko adds -8 C_F times the
/// L = 1 value of the O(a_s) entry (the L coefficient: A^(1) is linear in L)
/// to A_Hg^(2) and to A_gg,H^(2); every other entry, and L, are untouched:
/// [0][0] += -8 C_F A_gg,H^(1)(L=1) = +(32/3) C_F T_R,
/// [2][0] += -8 C_F A_Hg^(1)(N, L=1) = -32 C_F T_R (N^2+N+2)/(N(N+1)(N+2)).
/// The shift from the pole to the MSbar mass in the O(a_s) term's log,
/// ln(mu^2/m^2), at one loop (docs/physics.md §17.3). Pure; no allocation.
pub fn a_singlet_2_msbar_shift(s: &Sums) -> [[C64; 3]; 3] {
    let k = Kin::new(s);
    let z = C64::ZERO;
    [
        [a_gg_1(1.0) * (-8.0 * CF), z, z],
        [z, z, z],
        [a_hg_1(&k, 1.0) * (-8.0 * CF), z, z],
    ]
}
