//! The Mellin transforms of the x-space basis functions of the NNLO
//! parametrisations at one N (`Mellin`), from S_1..S_4 at N and at the shifted
//! arguments N-1..N+2 (docs/physics.md §5.3).

use crate::complex::C64;
use crate::constants::{ZETA2, ZETA3};
use crate::harmonics::Sums;
use crate::physics::Physics;

/// Smallest shift m of the argument N+m used by the parametrisations (1/x terms).
const M_MIN: i32 = -1;
/// Largest shift of the sums S_k(N+m) needed (x^2 ln(1-x) in nsV).
const M_MAX_SUMS: i32 = 2;
/// Largest power x^m needed (x^4 in nsV and ps).
const M_MAX_POW: i32 = 4;
const N_POW: usize = (M_MAX_POW - M_MIN + 1) as usize;
const N_SUMS: usize = (M_MAX_SUMS - M_MIN + 1) as usize;

/// (-1)^k k! for k = 0..4: M[x^m ln^k x](N) = (-1)^k k! / (N+m)^(k+1).
const SIGNED_FACTORIAL: [f64; 5] = [1.0, -1.0, 2.0, -6.0, 24.0];

/// Window around N = 1 in which eko replaces M[ln(1-x)/x] = -S_1(N-1)/(N-1)
/// (0/0 at N = 1) by its limit -zeta_2 (eko's as3 `gamma_nsv`).
const B1M_WINDOW: f64 = 1.0e-5;

/// Mellin transforms of the x-space basis functions at one N, built from the
/// harmonic sums at N by the recurrences S_k(N+1) = S_k(N) + (N+1)^-k and
/// S_k(N-1) = S_k(N) - N^-k. Plain stack values, no allocation.
pub(super) struct Mellin {
    /// 1/(N+m), m = M_MIN..=M_MAX_POW (index m - M_MIN)
    inv: [C64; N_POW],
    /// S_1..S_4 at N+m, m = M_MIN..=M_MAX_SUMS (index m - M_MIN)
    sums: [[C64; 4]; N_SUMS],
    /// N is within B1M_WINDOW of 1 (see `l1_over_x`)
    near_one: bool,
    /// the physics of the sums (the P^(2)+_ns constant reads it, `ns::nsp`)
    pub(super) physics: Physics,
}

impl Mellin {
    pub(super) fn new(s: &Sums) -> Mellin {
        let n = s.n;
        let mut inv = [C64::ZERO; N_POW];
        for (i, v) in inv.iter_mut().enumerate() {
            *v = (n + (i as i32 + M_MIN) as f64).recip();
        }
        let mut sums = [[C64::ZERO; 4]; N_SUMS];
        let at_n = (-M_MIN) as usize;
        sums[at_n] = [s.s1(), s.s2(), s.s3(), s.s4()];
        // downwards: S_k(N+m-1) = S_k(N+m) - (N+m)^-k
        for i in (0..at_n).rev() {
            let r = inv[i + 1];
            let above = sums[i + 1];
            let mut rk = r;
            for (dst, src) in sums[i].iter_mut().zip(above.iter()) {
                *dst = *src - rk;
                rk *= r;
            }
        }
        // upwards: S_k(N+m) = S_k(N+m-1) + (N+m)^-k
        for i in at_n + 1..N_SUMS {
            let r = inv[i];
            let below = sums[i - 1];
            let mut rk = r;
            for (dst, src) in sums[i].iter_mut().zip(below.iter()) {
                *dst = *src + rk;
                rk *= r;
            }
        }
        let near_one = n.im.abs() < B1M_WINDOW && (n - 1.0).abs() < B1M_WINDOW;
        Mellin {
            inv,
            sums,
            near_one,
            physics: s.physics(),
        }
    }

    #[inline]
    pub(super) fn r(&self, m: i32) -> C64 {
        self.inv[(m - M_MIN) as usize]
    }
    /// S_1..S_4 at N+m
    #[inline]
    pub(super) fn s(&self, m: i32) -> [C64; 4] {
        self.sums[(m - M_MIN) as usize]
    }

    /// M[x^m] = 1/(N+m)
    #[inline]
    pub(super) fn x(&self, m: i32) -> C64 {
        self.r(m)
    }
    /// M[x^m ln^k x] = (-1)^k k! / (N+m)^(k+1), k = 1..4
    #[inline]
    pub(super) fn l0(&self, k: usize, m: i32) -> C64 {
        self.r(m).powi(k as i32 + 1) * SIGNED_FACTORIAL[k]
    }
    /// M[x^m ln^k(1-x)], k = 1..4:
    /// -S1/n, (S1^2+S2)/n, -(S1^3+3 S1 S2+2 S3)/n, (S1^4+6 S1^2 S2+8 S1 S3+3 S2^2+6 S4)/n
    /// with the sums at n = N+m.
    pub(super) fn l1(&self, k: usize, m: i32) -> C64 {
        let [s1, s2, s3, s4] = self.s(m);
        let poly = match k {
            1 => -s1,
            2 => s1 * s1 + s2,
            3 => -(s1 * s1 * s1 + 3.0 * s1 * s2 + 2.0 * s3),
            _ => {
                let s1s1 = s1 * s1;
                s1s1 * s1s1 + 6.0 * s1s1 * s2 + 8.0 * s1 * s3 + 3.0 * s2 * s2 + 6.0 * s4
            }
        };
        poly * self.r(m)
    }
    /// M[x^m ln x ln(1-x)] = S1/n^2 + (S2 - zeta2)/n, sums at n = N+m
    pub(super) fn l0l1(&self, m: i32) -> C64 {
        let [s1, s2, _, _] = self.s(m);
        let r = self.r(m);
        (s1 * r + (s2 - ZETA2)) * r
    }
    /// M[x^m ln^2 x ln(1-x)] = 2 [-S1/n^3 + (zeta2 - S2)/n^2 - (S3 - zeta3)/n]
    pub(super) fn l0l0l1(&self, m: i32) -> C64 {
        let [s1, s2, s3, _] = self.s(m);
        let r = self.r(m);
        ((-s1 * r + (ZETA2 - s2)) * r - (s3 - ZETA3)) * r * 2.0
    }
    /// M[1/(1-x)_+] = -S_1(N-1) = -(S1 - 1/N)
    pub(super) fn d0(&self) -> C64 {
        -self.s(-1)[0]
    }
    /// M[ln(1-x)/x] = -S_1(N-1)/(N-1); as eko, its N -> 1 limit -zeta_2 is used when
    /// |N-1| < 1e-5 and |Im N| < 1e-5 (the formula is 0/0 at N = 1).
    pub(super) fn l1_over_x(&self) -> C64 {
        if self.near_one {
            C64::real(-ZETA2)
        } else {
            self.l1(1, -1)
        }
    }
    /// M[(1-x) f] for f = x^m g: f(m) - f(m+1)
    #[inline]
    pub(super) fn omx(f: impl Fn(i32) -> C64, m: i32) -> C64 {
        f(m) - f(m + 1)
    }
}
