//! NNLO (O(a_s^3), order index 2) unpolarised space-like anomalous dimensions.
//!
//! Like eko (module `ekore.anomalous_dimensions.unpolarized.space_like.as3`), these are
//! not the exact three-loop results but the approximate parametrisations of
//! Moch, Vermaseren and Vogt, transformed to N space as in Pegasus (`xpns2n`,
//! `xpij2n`):
//!   [MVV-NS] S. Moch, J. Vermaseren, A. Vogt, hep-ph/0403192 (Sec. 4), non-singlet;
//!   [MVV-S]  A. Vogt, S. Moch, J. Vermaseren, hep-ph/0404111 (Sec. 4), singlet.
//! The parametrisations are accurate to about 1e-3 relative, so the sum rules hold
//! only approximately (docs/physics.md §10). The numerical coefficients below are those
//! of eko 0.15.7 (its as3 module), taken over unchanged.
//!
//! Every function returns gamma^(2) = -(p0 + nf p1 + nf^2 p2), where p_i = M[P_i](N)
//! is the Mellin transform of an x-space parametrisation. Here each p_i is written
//! as a sum of coefficient x M[basis function], with the basis functions
//! (x^m, x^m ln^k x, x^m ln^k(1-x), x^m ln^j x ln(1-x), 1/(1-x)_+, delta(1-x))
//! evaluated once per N by [`Mellin`]. Only S_1..S_4 at N and at the shifted
//! arguments N-1..N+2 are needed (docs/physics.md §5.3); no alternating sums.
//!
//! Modules: `mellin` (the basis transforms at one N), `ns` (the non-singlet
//! parametrisations), `singlet` (the singlet ones); this file holds the public
//! functions and `gamma_of`, which all parametrisations share.

pub mod exact;
mod mellin;
mod ns;
mod singlet;
#[cfg(test)]
mod tests;

use mellin::Mellin;
use ns::{nsm, nsp, p_sea};
use singlet::{gg, gq, ps, qg};
use crate::complex::C64;
use crate::harmonics::Sums;
use crate::physics::Physics;

/// Combine p0 + nf p1 + nf^2 p2 into gamma = -(...).
#[inline]
fn gamma_of(p0: C64, p1: C64, p2: C64, nf: u32) -> C64 {
    let f = nf as f64;
    -(p0 + (p1 + p2 * f) * f)
}

/// gamma^(2)_{ns,+}(N): singlet-like non-singlet, [MVV-NS] (eko: "eq. 3.7") in the
/// Sec. 4 parametrisation. Never fails; poles of the sums give non-finite values.
pub fn gamma_nsp(s: &Sums, nf: u32) -> C64 {
    if s.physics() == Physics::Exact {
        return exact::gamma_nsp(s.n, nf);
    }
    nsp(&Mellin::new(s), nf)
}

/// gamma^(2)_{ns,-}(N): valence-like non-singlet, [MVV-NS] (eko: "eq. 3.8"),
/// parametrised. Its first moment is 2e-4..6e-4 instead of 0 (docs/physics.md §10).
pub fn gamma_nsm(s: &Sums, nf: u32) -> C64 {
    if s.physics() == Physics::Exact {
        return exact::gamma_nsm(s.n, nf);
    }
    nsm(&Mellin::new(s), nf)
}

/// gamma^(2)_{ns,v}(N) = gamma^(2)_{ns,-} - nf M[P^s_ns/nf], [MVV-NS] (eko: "eq. 3.9"),
/// parametrised; within 1e-5 of N = 1 the 1/x ln(1-x) transform takes its limit
/// -zeta_2 exactly as eko does.
pub fn gamma_nsv(s: &Sums, nf: u32) -> C64 {
    if s.physics() == Physics::Exact {
        return exact::gamma_nsv(s.n, nf);
    }
    let b = Mellin::new(s);
    nsm(&b, nf) - p_sea(&b) * nf as f64
}

/// gamma^(2)_{ps}(N): pure singlet, [MVV-S] (eko: "eq. 3.10"), parametrised.
pub fn gamma_ps(s: &Sums, nf: u32) -> C64 {
    if s.physics() == Physics::Exact {
        return exact::gamma_ps(s.n, nf);
    }
    ps(&Mellin::new(s), nf)
}

/// gamma^(2)_{qg}(N), [MVV-S] (eko: "eq. 3.11"), parametrised.
pub fn gamma_qg(s: &Sums, nf: u32) -> C64 {
    if s.physics() == Physics::Exact {
        return exact::gamma_qg(s.n, nf);
    }
    qg(&Mellin::new(s), nf)
}

/// gamma^(2)_{gq}(N), [MVV-S] (eko: "eq. 3.12"), parametrised.
pub fn gamma_gq(s: &Sums, nf: u32) -> C64 {
    if s.physics() == Physics::Exact {
        return exact::gamma_gq(s.n, nf);
    }
    gq(&Mellin::new(s), nf)
}

/// gamma^(2)_{gg}(N), [MVV-S] (eko: "eq. 3.13"), parametrised.
pub fn gamma_gg(s: &Sums, nf: u32) -> C64 {
    if s.physics() == Physics::Exact {
        return exact::gamma_gg(s.n, nf);
    }
    gg(&Mellin::new(s), nf)
}

/// The NNLO singlet matrix [[gamma_qq, gamma_qg], [gamma_gq, gamma_gg]] with
/// gamma_qq = gamma_ns,+ + gamma_ps; the basis transforms are built once.
pub fn gamma_singlet(s: &Sums, nf: u32) -> [[C64; 2]; 2] {
    if s.physics() == Physics::Exact {
        return exact::gamma_singlet(s.n, nf);
    }
    let b = Mellin::new(s);
    [
        [nsp(&b, nf) + ps(&b, nf), qg(&b, nf)],
        [gq(&b, nf), gg(&b, nf)],
    ]
}
