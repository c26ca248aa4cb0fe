//! The O(a_s^2) matching OME entries (coefficient of a_s^2), pole-mass
//! scheme, docs/physics.md §8.3; sources as in the module `ome`.

use super::{in_l, poly, Kin};
use crate::complex::C64;
use crate::constants::{CA, CF, TR};
use crate::harmonics::Sums;

/// A_qq,H^{NS,(2)} ([BMSN] eq. B.4; docs/physics.md §8.3 at L = 0; L terms of eko's
/// `as2.A_qq_ns`), C_F T_R times
///  L^0: -224/27 S_1(N-1) + 73/18 + 44/(27N) - 268/(27(N+1)) + 8/3 (1/(N+1)^2 - 1/N^2)
///       + 20/9 (2 S_2 - 1/N^2 + 1/(N+1)^2) - 8/3 S_3 + 4/3 (1/N^3 - 1/(N+1)^3)
///  L^1: 2/9 [-3 - 4/N - 12/N^2 + 44/(N+1) - 12/(N+1)^2] + 80/9 S_1(N-1) - 16/3 S_2(N-1)
///  L^2: -2/3 [4 S_1(N-1) - 3 + 2/N + 2/(N+1)].
/// Vanishes at N = 1 for every L (quark-number conservation).
pub(super) fn a_qq_ns_2(k: &Kin, l: f64) -> C64 {
    let (i0, ip1) = (k.i0, k.ip1);
    let (i02, ip12) = (i0 * i0, ip1 * ip1);
    let c0 = k.s1m * (-224.0 / 27.0) + 73.0 / 18.0 + i0 * (44.0 / 27.0) - ip1 * (268.0 / 27.0)
        + (ip12 - i02) * (8.0 / 3.0)
        + (k.s2 * 2.0 - i02 + ip12) * (20.0 / 9.0)
        - k.s3 * (8.0 / 3.0)
        + (i02 * i0 - ip12 * ip1) * (4.0 / 3.0);
    let c1 = (i0 * (-4.0 - 12.0 * i0) + ip1 * (44.0 - 12.0 * ip1) - 3.0) * (2.0 / 9.0)
        + k.s1m * (80.0 / 9.0)
        - k.s2m * (16.0 / 3.0);
    let c2 = (k.s1m * 4.0 - 3.0 + (i0 + ip1) * 2.0) * (-2.0 / 3.0);
    in_l(l, c0, c1, c2) * (CF * TR)
}

/// A_Hq^{PS,(2)} ([BMSN] eq. B.1; docs/physics.md §8.3 at L = 0; L terms of eko's
/// `as2.A_hq_ps`), C_F T_R times
///  L^0: see docs/physics.md §8.3 (with F_M, F_1, F_2, F_21 built on S_2(N-1), S_2(N+1), S_2(N+2))
///  L^1: 8 (N^2+5N+2)(5N^3+7N^2+4N+4) / ((N-1) N^3 (N+1)^3 (N+2)^2)
///  L^2: -4 (N^2+N+2)^2 / ((N-1) N^2 (N+1)^2 (N+2)).
pub(super) fn a_hq_ps_2(k: &Kin, l: f64) -> C64 {
    use crate::constants::ZETA2;
    let (n, i0, im1, ip1, ip2) = (k.n, k.i0, k.im1, k.ip1, k.ip2);
    let (i02, ip12, ip22) = (i0 * i0, ip1 * ip1, ip2 * ip2);
    let f_m = (ZETA2 - k.s2m) * im1;
    let f_1 = (ZETA2 - k.s2p) * ip1;
    let f_2 = (ZETA2 - k.s2pp) * ip2;
    let f_21 = -(f_1 * ip1);
    let f_0 = (ZETA2 - k.s2) * i0;
    let c0 = -((im1 - ip2) * (32.0 / 3.0) + (i0 - ip1) * 8.0) * ZETA2
        + im1 * (-448.0 / 27.0)
        + i0 * (-4.0 / 3.0)
        + ip1 * (-124.0 / 3.0)
        + ip2 * (1600.0 / 27.0)
        + (i02 * i02 + ip12 * ip12) * 8.0
        + i02 * i0 * 4.0
        + ip12 * ip1 * 20.0
        + ip22 * ip2 * (32.0 / 3.0)
        + (i02 + ip12) * (16.0 * ZETA2)
        + i02 * (56.0 / 3.0)
        + ip12 * (88.0 / 3.0)
        + ip22 * (448.0 / 9.0)
        + f_m * (32.0 / 3.0)
        + (f_0 - f_1) * 8.0
        - f_2 * (32.0 / 3.0)
        + (f_21 - f_0 * i0) * 16.0;
    let r = i0 * ip1; // 1/(N(N+1))
    let c1 =
        (n * n + n * 5.0 + 2.0) * poly(&[4.0, 4.0, 7.0, 5.0], n) * (r * r * r * im1 * ip22 * 8.0);
    let c2 = -(k.p * k.p * (r * r * im1 * ip2 * 4.0));
    in_l(l, c0, c1, c2) * (CF * TR)
}

/// A_gq,H^{S,(2)} ([BMSN] eq. B.5; docs/physics.md §8.3 at L = 0; L terms of eko's
/// `as2.A_gq`), C_F T_R times
///  L^0: 4/3 (2 B_2M - 2 (S_1^2+S_2)/N + B_21) + 8/9 (-10 S_1(N-1)/(N-1) + 10 S_1/N
///       - 8 S_1(N+1)/(N+1)) + 1/27 (448 (1/(N-1) - 1/N) + 344/(N+1))
///  L^1: [96 - 16 N (7 + 21 N + 10 N^2 + 8 N^3) + 48 N (N+1) P S_1(N-1)] / (9 (N-1) N^2 (N+1)^2)
///  L^2: 8 P / (3 (N-1) N (N+1)),   P = N^2+N+2.
pub(super) fn a_gq_2(k: &Kin, l: f64) -> C64 {
    let (n, i0, im1, ip1) = (k.n, k.i0, k.im1, k.ip1);
    let b_2m = (k.s1m * k.s1m + k.s2m) * im1;
    let b_21 = (k.s1p * k.s1p + k.s2p) * ip1;
    let c0 = (b_2m * 2.0 - (k.s1 * k.s1 + k.s2) * i0 * 2.0 + b_21) * (4.0 / 3.0)
        + (k.s1 * i0 * 10.0 - k.s1m * im1 * 10.0 - k.s1p * ip1 * 8.0) * (8.0 / 9.0)
        + ((im1 - i0) * 448.0 + ip1 * 344.0) / 27.0;
    let r = i0 * ip1;
    let c1 = (96.0 - n * poly(&[7.0, 21.0, 10.0, 8.0], n) * 16.0
        + n * (n + 1.0) * k.p * k.s1m * 48.0)
        * (r * r * im1 / 9.0);
    let c2 = k.p * r * im1 * (8.0 / 3.0);
    in_l(l, c0, c1, c2) * (CF * TR)
}

/// A_gg,H^{S,(2)} ([BMSN] eq. B.7; docs/physics.md §8.3 at L = 0; L terms of eko's
/// `as2.A_gg`):
///  L^0: T_R (C_F a_F + C_A a_A) (docs/physics.md §8.3)
///  L^1: 8/3 [ (8 + 2N - 34N^2 - 72N^3 - 77N^4 - 37N^5 - 19N^6 - 11N^7 - 4N^8)
///             / (N^3 (N+1)^3 (N-1)(N+2)) + 5 S_1(N-1) ]
///  L^2: 4/9 [1 + 6 P^2/(N^2 (N+1)^2 (N-1)(N+2)) - 9 (N^3-3N-4)/(N(N+1)(N-1)(N+2))] - 4 S_1(N-1).
pub(super) fn a_gg_2(k: &Kin, l: f64) -> C64 {
    let (n, i0, im1, ip1, ip2) = (k.n, k.i0, k.im1, k.ip1, k.ip2);
    let (i02, ip12) = (i0 * i0, ip1 * ip1);
    let a_f =
        -15.0 - im1 * 8.0 + i0 * 80.0 - ip1 * 48.0 - ip2 * 24.0 - (i02 * i02 + ip12 * ip12) * 8.0
            + i02 * i0 * 12.0
            + ip12 * ip1 * 20.0
            - i02 * 32.0
            - ip12 * 48.0;
    let a_a = k.s1m * (-224.0 / 27.0)
        + 10.0 / 9.0
        + k.s1p * ip1 * (4.0 / 3.0)
        + (im1 * 556.0 - i0 * 628.0 + ip1 * 548.0 - ip2 * 700.0) / 27.0
        + (i02 * i0 + ip12 * ip1) * (8.0 / 3.0)
        - (i02 * 52.0 + ip12 * 88.0) / 9.0;
    let c0 = (a_f * CF + a_a * CA) * TR;
    let r = i0 * ip1;
    let q = im1 * ip2; // 1/((N-1)(N+2))
    let c1 = (poly(
        &[8.0, 2.0, -34.0, -72.0, -77.0, -37.0, -19.0, -11.0, -4.0],
        n,
    ) * (r * r * r * q)
        + k.s1m * 5.0)
        * (8.0 / 3.0);
    let c2 = (1.0 + k.p * k.p * (r * r * q) * 6.0
        - poly(&[-4.0, -3.0, 0.0, 1.0], n) * (r * q) * 9.0)
        * (4.0 / 9.0)
        - k.s1m * 4.0;
    in_l(l, c0, c1, c2)
}

/// A_Hg^{S,(2)} (no overall colour factor): L^0 from [BBK09] in the form of
/// docs/physics.md §8.3 (numerators multiplied through by powers of N), L and L^2 from
/// [BMSN] eq. B.3 as in eko's `as2.A_hg`, simplified with D = N(N+1)(N+2):
///  L^1: 2 R_9(N) / (3 (N-1) D^3) - 8 Q(N) S_1(N-1) / (3 D^2)
///       - 2 P (10 S_1(N-1)^2 + 36 S_{-2} + 26 S_2(N-1)) / (3 D)
///       (the two zeta_2 terms of eko's form cancel identically)
///  L^2: 8 P (N^2+N-11)(N^2+N+1) / (3 (N-1) D^2) + 20 P S_1 / (3 D).
/// Negative sums with eta = +1; S_{-2,1} with the Pegasus g_3 (docs/physics.md §5.4).
pub(super) fn a_hg_2(k: &Kin, s: &Sums, l: f64) -> C64 {
    let (n, i0, im1, ip1, ip2) = (k.n, k.i0, k.im1, k.ip1, k.ip2);
    let (s1, s2, s3) = (k.s1, k.s2, k.s3);
    let sm2 = s.s_minus(2, true);
    let sm3 = s.s_minus(3, true);
    let sm21 = s.s_minus2_1(true);
    let (i02, ip12, ip22) = (i0 * i0, ip1 * ip1, ip2 * ip2);
    let (i04, ip14, ip24) = (i02 * i02, ip12 * ip12, ip22 * ip22);
    let ip13 = ip12 * ip1;
    let ip23 = ip22 * ip2;
    let pd = k.p * i0 * ip1 * ip2; // P/D
    let s1sq = s1 * s1;

    const R1: [f64; 13] = [
        192.0, 1056.0, 2496.0, 2928.0, 3084.0, 2970.0, 1782.0, 6.0, -1194.0, -1152.0, -516.0,
        -120.0, -12.0,
    ];
    const R2: [f64; 9] = [
        -16.0, -80.0, -100.0, 216.0, 764.0, 864.0, 528.0, 208.0, 48.0,
    ];
    const R3: [f64; 7] = [48.0, 432.0, 564.0, 324.0, 138.0, 48.0, 6.0];
    const R4: [f64; 5] = [-32.0, -80.0, -160.0, -8.0, 8.0];
    const R5: [f64; 6] = [48.0, 54.0, 63.0, 39.0, 63.0, 21.0];
    const R6: [f64; 5] = [-2.0, -5.0, 17.0, 17.0, 1.0];
    let c0 = -(poly(&R1, n) * (i04 * im1 * ip14 * ip24))
        + poly(&R2, n) * (i04 * ip14 * ip2 / 3.0)
        + pd * sm3 * 12.0
        - (4.0 + n - n * n) * sm2 * (ip12 * ip22 * 24.0)
        - s1 * poly(&R3, n) * (i0 * ip13 * ip23)
        + s1 * poly(&R4, n) * (i02 * ip12 * ip2 / 3.0)
        - s1sq * poly(&[2.0, 11.0, 8.0, 1.0], n) * (i0 * ip12 * ip22 * 6.0)
        + s1sq * (n * 3.0 + 2.0) * (i02 * ip2 * (8.0 / 3.0))
        - s2 * poly(&R5, n) * (i02 * im1 * ip12 * ip22 * 2.0)
        + s2 * poly(&R6, n) * (i02 * ip12 * ip2 * (8.0 / 3.0))
        + pd * (sm2 * s1 * 24.0
            + s1sq * s1 * (10.0 / 9.0)
            + s1 * s2 * (46.0 / 3.0)
            + s3 * (176.0 / 9.0)
            - sm21 * 24.0);

    const R9: [f64; 10] = [
        640.0, 2192.0, 2072.0, 868.0, 518.0, 736.0, 806.0, 542.0, 228.0, 38.0,
    ];
    const Q: [f64; 5] = [36.0, 88.0, 33.0, 8.0, 9.0];
    let id = i0 * ip1 * ip2; // 1/D
    let id2 = id * id;
    let s1m = k.s1m;
    let c1 = poly(&R9, n) * (id2 * id * im1 * (2.0 / 3.0))
        - poly(&Q, n) * s1m * (id2 * (8.0 / 3.0))
        - pd * (s1m * s1m * 10.0 + sm2 * 36.0 + k.s2m * 26.0) * (2.0 / 3.0);
    let m = n * n + n;
    let c2 = k.p * (m - 11.0) * (m + 1.0) * (id2 * im1 * (8.0 / 3.0)) + pd * s1 * (20.0 / 3.0);
    in_l(l, c0, c1, c2)
}
