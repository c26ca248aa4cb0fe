//! The singlet NNLO parametrisations [MVV-S] (ps, qg, gq, gg) on the `Mellin`
//! basis.

use super::{gamma_of, Mellin};
use crate::complex::C64;

pub(super) fn ps(b: &Mellin, nf: u32) -> C64 {
    // P^(2)_ps parametrisation [MVV-S] Sec. 4 (Pegasus P2PSA): mostly (1-x) times
    // logarithms, plus 1/x terms.
    let x = |m| b.x(m);
    let lx = |k: usize| move |m| b.l0(k, m);
    let lmx = |k: usize| move |m| b.l1(k, m);
    let ll = |m| b.l0l1(m);
    let one_over_x_minus_1 = b.x(-1) - b.x(0);
    let p1 = -3584.0 / 27.0 * (b.l0(1, -1) - b.l0(1, 0)) - 506.0 * one_over_x_minus_1
        + 160.0 / 27.0 * Mellin::omx(lx(4), 0)
        - 400.0 / 9.0 * Mellin::omx(lx(3), 0)
        + 131.4 * Mellin::omx(lx(2), 0)
        - 661.6 * Mellin::omx(lx(1), 0)
        - 5.926 * Mellin::omx(lmx(3), 0)
        - 9.751 * Mellin::omx(lmx(2), 0)
        - 72.11 * Mellin::omx(lmx(1), 0)
        + 177.4 * Mellin::omx(x, 0)
        + 392.9 * Mellin::omx(x, 1)
        - 101.4 * Mellin::omx(x, 2)
        - 57.04 * Mellin::omx(ll, 0);
    let p2 = 256.0 / 81.0 * one_over_x_minus_1
        + 32.0 / 27.0 * Mellin::omx(lx(3), 0)
        + 17.89 * Mellin::omx(lx(2), 0)
        + 61.75 * Mellin::omx(lx(1), 0)
        + 1.778 * Mellin::omx(lmx(2), 0)
        + 5.944 * Mellin::omx(lmx(1), 0)
        + 100.1 * Mellin::omx(x, 0)
        - 125.2 * Mellin::omx(x, 1)
        + 49.26 * Mellin::omx(x, 2)
        - 12.59 * Mellin::omx(x, 3)
        - 1.889 * Mellin::omx(ll, 0);
    gamma_of(C64::ZERO, p1, p2, nf)
}

// one line per kind of basis function; keep this layout
#[rustfmt::skip]
pub(super) fn qg(b: &Mellin, nf: u32) -> C64 {
    // P^(2)_qg parametrisation [MVV-S] Sec. 4 (Pegasus P2QGA); no nf^0 part.
    let p1 = -896.0 / 3.0 * b.l0(1, -1) - 1268.3 * b.x(-1)
        + 536.0 / 27.0 * b.l0(4, 0) - 44.0 / 3.0 * b.l0(3, 0) + 881.5 * b.l0(2, 0) + 424.9 * b.l0(1, 0)
        + 100.0 / 27.0 * b.l1(4, 0) - 70.0 / 9.0 * b.l1(3, 0) - 120.5 * b.l1(2, 0) + 104.42 * b.l1(1, 0)
        + 2522.0 * b.x(0) - 3316.0 * b.x(1) + 2126.0 * b.x(2)
        + 1823.0 * b.l0l1(0) - 25.22 * b.l0l0l1(0)
        - 252.5 * b.l0(3, 1);
    let p2 = 1112.0 / 243.0 * b.x(-1)
        - 16.0 / 9.0 * b.l0(4, 0) - 376.0 / 27.0 * b.l0(3, 0) - 90.8 * b.l0(2, 0) - 254.0 * b.l0(1, 0)
        + 20.0 / 27.0 * b.l1(3, 0) + 200.0 / 27.0 * b.l1(2, 0) - 5.496 * b.l1(1, 0)
        - 252.0 * b.x(0) + 158.0 * b.x(1) + 145.4 * b.x(2) - 139.28 * b.x(3)
        - 53.09 * b.l0l1(0) - 80.616 * b.l0l0l1(0)
        - 98.07 * b.l0(2, 1) + 11.70 * b.l0(3, 1);
    gamma_of(C64::ZERO, p1, p2, nf)
}

// one line per kind of basis function; keep this layout
#[rustfmt::skip]
pub(super) fn gq(b: &Mellin, nf: u32) -> C64 {
    // P^(2)_gq parametrisation [MVV-S] Sec. 4 (Pegasus P2GQA); the nf^2 part is exact.
    let p0 = 1189.3 * b.l0(1, -1) + 6163.1 * b.x(-1)
        - 4288.0 / 81.0 * b.l0(4, 0) + 1568.0 / 9.0 * b.l0(3, 0) - 1794.0 * b.l0(2, 0) + 4033.0 * b.l0(1, 0)
        + 400.0 / 81.0 * b.l1(4, 0) + 2200.0 / 27.0 * b.l1(3, 0) + 606.3 * b.l1(2, 0) + 2193.0 * b.l1(1, 0)
        - 4307.0 * b.x(0) + 489.3 * b.x(1) + 1452.0 * b.x(2) + 146.0 * b.x(3)
        - 447.3 * b.l0l0l1(0)
        - 972.9 * b.l0(2, 1);
    let p1 = 71.082 * b.l0(1, -1) - 46.41 * b.x(-1)
        + 128.0 / 27.0 * b.l0(4, 0) + 704.0 / 81.0 * b.l0(3, 0) + 20.39 * b.l0(2, 0) + 174.8 * b.l0(1, 0)
        - 400.0 / 81.0 * b.l1(3, 0) - 68.069 * b.l1(2, 0) - 296.7 * b.l1(1, 0)
        - 183.8 * b.x(0) + 33.35 * b.x(1) - 277.9 * b.x(2)
        + 108.6 * b.l0(2, 1)
        - 49.68 * b.l0l1(0);
    let p2 = (64.0 * (-b.x(-1) + b.x(0) + 2.0 * b.x(1))
        + 320.0 * (b.l1(1, -1) - b.l1(1, 0) + 0.8 * b.l1(1, 1))
        + 96.0 * (b.l1(2, -1) - b.l1(2, 0) + 0.5 * b.l1(2, 1)))
        / 27.0;
    gamma_of(p0, p1, p2, nf)
}

// one line per kind of basis function; keep this layout
#[rustfmt::skip]
pub(super) fn gg(b: &Mellin, nf: u32) -> C64 {
    // P^(2)_gg parametrisation [MVV-S] Sec. 4 (Pegasus P2GGA).
    let p0 = 2675.8 * b.l0(1, -1) + 14214.0 * b.x(-1)
        - 144.0 * b.l0(4, 0) + 72.0 * b.l0(3, 0) - 7471.0 * b.l0(2, 0) + 274.4 * b.l0(1, 0)
        - 20852.0 * b.x(0) + 3968.0 * b.x(1) - 3363.0 * b.x(2) + 4848.0 * b.x(3)
        + 7305.0 * b.l0l1(0) + 8757.0 * b.l0l0l1(0)
        + 3589.0 * b.l1(1, 0) + 4425.894 + 2643.521 * b.d0();
    let p1 = 157.27 * b.l0(1, -1) + 182.96 * b.x(-1)
        + 512.0 / 27.0 * b.l0(4, 0) + 832.0 / 9.0 * b.l0(3, 0) + 491.3 * b.l0(2, 0) + 1541.0 * b.l0(1, 0)
        - 350.2 * b.x(0) + 755.7 * b.x(1) - 713.8 * b.x(2) + 559.3 * b.x(3)
        + 26.15 * b.l0l1(0) - 808.7 * b.l0l0l1(0)
        - 320.0 * b.l1(1, 0) - 528.723 - 412.172 * b.d0();
    let p2 = -680.0 / 243.0 * b.x(-1)
        - 32.0 / 27.0 * b.l0(3, 0) + 9.680 * b.l0(2, 0) - 3.422 * b.l0(1, 0)
        - 13.878 * b.x(0) + 153.4 * b.x(1) - 187.7 * b.x(2) + 52.75 * b.x(3)
        - 115.6 * b.l0l1(0) + 85.25 * b.l0l1(1) - 63.23 * b.l0l0l1(0)
        + 6.4630 - 16.0 / 9.0 * b.d0();
    gamma_of(p0, p1, p2, nf)
}
