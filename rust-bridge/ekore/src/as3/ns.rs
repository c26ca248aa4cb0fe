//! The non-singlet NNLO parametrisations [MVV-NS] (ns+, ns-, and the sea part
//! of nsV) on the `Mellin` basis; the exact nf^2 part is shared.

use super::{gamma_of, Mellin};
use crate::complex::C64;
use crate::physics::Physics;

/// nf^2 part of P^(2)_{ns,+-} (exact; the same for +, - and v), M-space.
fn p_ns_nf2(b: &Mellin) -> C64 {
    let n = b.r(0).recip();
    let [s1, s2, s3, _] = b.s(0);
    let r = b.r(0);
    let r1 = b.r(1);
    let n2 = n * n;
    let rat = (((12.0 * n + 2.0) * n - 12.0) * n2 - 2.0 * n + 3.0) * (r * r1).powi(3) / 27.0;
    (17.0 / 72.0 - 2.0 / 27.0 * s1 - 10.0 / 27.0 * s2 + 2.0 / 9.0 * s3 - rat) * (-32.0 / 3.0)
}

/// The n_f delta(1-x) constant of the parametrised P^(2)+_ns: eko's -173.924
/// (`Physics::Eko`); the parametrisation's authors and the codes that made the LHA
/// tables (Pegasus, HOPPET) have -173.927 (docs/physics.md §12.9). `Physics::Exact`
/// no longer reaches the parametrisations (`as3::exact` takes over in `as3`'s
/// public functions), so the second arm is kept for `Mellin` built directly.
fn p2nsp_nf_constant(physics: Physics) -> f64 {
    match physics {
        Physics::Eko => -173.924,
        Physics::Exact => -173.927,
    }
}

// one line per kind of basis function; keep this layout
#[rustfmt::skip]
pub(super) fn nsp(b: &Mellin, nf: u32) -> C64 {
    // P^(2)+_ns parametrisation [MVV-NS] Sec. 4 (Pegasus P2NSPA / HOPPET P2NSPA).
    let p0 = 1174.898 * b.d0() + 1295.384 + 714.1 * b.l1(1, 0)
        + 1641.1 * b.x(0) - 3135.0 * b.x(1) + 243.6 * b.x(2) - 522.1 * b.x(3)
        + 128.0 / 81.0 * b.l0(4, 0) + 800.0 / 27.0 * b.l0(3, 0) + 294.9 * b.l0(2, 0) + 1258.0 * b.l0(1, 0)
        + 563.9 * b.l0l1(0) + 256.8 * b.l0l0l1(0);
    let p1 = -183.187 * b.d0() + p2nsp_nf_constant(b.physics) - 5120.0 / 81.0 * b.l1(1, 0)
        - 197.0 * b.x(0) + 381.1 * b.x(1) + 72.94 * b.x(2) + 44.79 * b.x(3)
        - 192.0 / 81.0 * b.l0(3, 0) - 2608.0 / 81.0 * b.l0(2, 0) - 152.6 * b.l0(1, 0)
        - 56.66 * b.l0l1(0) - 1.497 * b.l0(3, 1);
    gamma_of(p0, p1, p_ns_nf2(b), nf)
}

// one line per kind of basis function; keep this layout
#[rustfmt::skip]
pub(super) fn nsm(b: &Mellin, nf: u32) -> C64 {
    // P^(2)-_ns parametrisation [MVV-NS] Sec. 4 (Pegasus P2NSMA).
    let p0 = 1174.898 * b.d0() + 1295.470 + 714.1 * b.l1(1, 0)
        + 1860.2 * b.x(0) - 3505.0 * b.x(1) + 297.0 * b.x(2) - 433.2 * b.x(3)
        + 116.0 / 81.0 * b.l0(4, 0) + 320.0 / 9.0 * b.l0(3, 0) + 399.2 * b.l0(2, 0) + 1465.2 * b.l0(1, 0)
        + 684.0 * b.l0l1(0) + 251.2 * b.l0l0l1(0);
    let p1 = -183.187 * b.d0() - 173.933 - 5120.0 / 81.0 * b.l1(1, 0)
        - 216.62 * b.x(0) + 406.5 * b.x(1) + 77.89 * b.x(2) + 34.76 * b.x(3)
        - 256.0 / 81.0 * b.l0(3, 0) - 3216.0 / 81.0 * b.l0(2, 0) - 172.69 * b.l0(1, 0)
        - 65.43 * b.l0l1(0) - 1.136 * b.l0(3, 1);
    gamma_of(p0, p1, p_ns_nf2(b), nf)
}

/// The "sea" part P^(2)s_ns/nf of the valence anomalous dimension [MVV-NS] Sec. 4
/// (Pegasus P2NSSA): P_v = P_- + nf * this.
pub(super) fn p_sea(b: &Mellin) -> C64 {
    let x = |m| b.x(m);
    let l1 = |m| b.l1(1, m);
    -163.9 * (b.l1_over_x() - b.l1(1, 0)) - 7.208 * Mellin::omx(l1, 1) + 4.82 * Mellin::omx(x, 3)
        - 43.12 * Mellin::omx(x, 2)
        + 44.51 * Mellin::omx(x, 1)
        + 151.49 * Mellin::omx(x, 0)
        + 178.04 * b.l0(1, 0)
        + 6.892 * b.l0(2, 0)
        - 40.0 / 27.0 * (2.0 * b.l0(3, 0) - b.l0(4, 0))
        - 173.1 * b.l0l1(0)
        + 46.18 * b.l0l0l1(0)
}
