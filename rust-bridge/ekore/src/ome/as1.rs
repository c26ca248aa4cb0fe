//! The O(a_s) matching OME entries (coefficient of a_s^1), docs/physics.md §8;
//! sources as in the module `ome`.

use super::Kin;
use crate::complex::C64;
use crate::constants::{CF, TR};

/// A_gg,H^{S,(1)} = -(4/3) T_R L  ([BMSN] eq. B.6).
pub(super) fn a_gg_1(l: f64) -> C64 {
    C64::real(-4.0 / 3.0 * TR * l)
}

/// A_Hg^{S,(1)} = 4 T_R (N^2+N+2)/(N(N+1)(N+2)) L  ([BMSN] eq. B.2).
pub(super) fn a_hg_1(k: &Kin, l: f64) -> C64 {
    k.p / k.d * (4.0 * TR * l)
}

/// Intrinsic A_HH^(1): Mellin transform of [Ball16] eq. 20a (as in eko's `A_hh`),
/// written in partial fractions:
/// -C_F { L [4 S_1(N-1) - 3 + 2/N + 2/(N+1)]
///        + 4[S_1(N-1)^2 + S_2(N-1)] - 4 S_1(N-1) (1 - 1/N - 1/(N+1))
///        - 4 + 2/N + 4/N^2 - 6/(N+1) + 4/(N+1)^2 }.
pub(super) fn a_hh_1(k: &Kin, l: f64) -> C64 {
    let (i0, ip1, s1m) = (k.i0, k.ip1, k.s1m);
    let c1 = s1m * 4.0 - 3.0 + (i0 + ip1) * 2.0;
    let c0 = (s1m * s1m + k.s2m) * 4.0 - s1m * (1.0 - i0 - ip1) * 4.0 - 4.0
        + i0 * (2.0 + 4.0 * i0)
        + ip1 * (-6.0 + 4.0 * ip1);
    -(c0 + c1 * l) * CF
}

/// Intrinsic A_gH^(1): Mellin transform of [Ball16] eq. 20b (as in eko's `A_gh`),
/// in partial fractions:
/// 2 C_F { -4/N^2 + 2/N + 4/(N-1)^2 - 2/(N-1) + 2/(N+1)^2 - 1/(N+1)
///         + L [-2/N + 2/(N-1) + 1/(N+1)] }.
pub(super) fn a_gh_1(k: &Kin, l: f64) -> C64 {
    let (i0, im1, ip1) = (k.i0, k.im1, k.ip1);
    let c0 = i0 * (2.0 - 4.0 * i0) + im1 * (-2.0 + 4.0 * im1) + ip1 * (-1.0 + 2.0 * ip1);
    let c1 = -(i0 * 2.0) + im1 * 2.0 + ip1;
    (c0 + c1 * l) * (2.0 * CF)
}
