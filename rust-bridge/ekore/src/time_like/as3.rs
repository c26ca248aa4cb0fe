//! Next-to-next-to-leading-order (coefficient of a_s^3) time-like anomalous
//! dimensions gamma_T^(2)(N), as eko's `time_like.as3`: A. Vogt's N-space
//! forms of the x-space parametrisations of [MMV06] eqs. 15-16 (ns+, ns-, the
//! valence part), [MV07] eqs. 11-12 (pure singlet, gg) and [AMV11] eqs. 18-19
//! (qg, gq). Each is a linear combination of the Mellin transforms of a fixed
//! set of x-space functions, the `Blocks` below. Poles: N = 0, -1, -2, ...
//! everywhere (and N = -3, -4, -5 through 1/(N+k)), N = 1 in the singlet.

use crate::complex::C64;
use crate::constants::{ZETA2, ZETA3};
use crate::harmonics::Sums;

/// The building blocks at one argument M = N + j (j = -1, 0, 1, 2), the
/// Mellin transforms of the x^j-shifted basis functions: 1/M^k (C, D) and
/// the sums S_1..S_4 at M (A, B, E), named as in eko (B1 at N, B11 at N+1, B1M at N-1).
#[derive(Clone, Copy)]
struct At {
    inv: C64,
    s: [C64; 4],
}

impl At {
    fn c(&self) -> C64 {
        self.inv
    }
    /// D_k = d^k/dN^k 1/M: -1/M^2, 2/M^3, -6/M^4, 24/M^5
    fn d(&self, k: i32) -> C64 {
        let f = [-1.0, 2.0, -6.0, 24.0][(k - 1) as usize];
        self.inv.powi(k + 1) * f
    }
    fn b1(&self) -> C64 {
        -(self.s[0] * self.inv)
    }
    fn b2(&self) -> C64 {
        (self.s[0] * self.s[0] + self.s[1]) * self.inv
    }
    fn b3(&self) -> C64 {
        let [s1, s2, s3, _] = self.s;
        -((s1 * s1 * s1 + s1 * s2 * 3.0 + s3 * 2.0) * self.inv)
    }
    fn b4(&self) -> C64 {
        let [s1, s2, s3, s4] = self.s;
        let s1sq = s1 * s1;
        (s1sq * s1sq + s1sq * s2 * 6.0 + s1 * s3 * 8.0 + s2 * s2 * 3.0 + s4 * 6.0) * self.inv
    }
    fn e1(&self) -> C64 {
        self.s[0] * self.inv * self.inv + (self.s[1] - ZETA2) * self.inv
    }
    fn e2(&self) -> C64 {
        let i = self.inv;
        (-(self.s[0] * i * i * i) + (ZETA2 - self.s[1]) * i * i - (self.s[2] - ZETA3) * i) * 2.0
    }
}

/// The blocks at N-1, N, N+1, N+2 and the pure poles 1/(N+3..5).
struct Blocks {
    n: C64,
    m1: At,
    n0: At,
    p1: At,
    p2: At,
    c3: C64,
    c4: C64,
    c5: C64,
}

impl Blocks {
    fn new(s: &Sums) -> Blocks {
        let n = s.n;
        let shift = |at: &At, inv: C64| -> At {
            // S_k(M+1) = S_k(M) + 1/(M+1)^k
            let mut t = at.s;
            let mut p = inv;
            for v in t.iter_mut() {
                *v += p;
                p = p * inv;
            }
            At { inv, s: t }
        };
        let n0 = At { inv: n.recip(), s: s.s };
        let p1 = shift(&n0, (n + 1.0).recip());
        let p2 = shift(&p1, (n + 2.0).recip());
        // at N-1 only S_1 enters (A0, B1M); the rest of m1 are the powers 1/(N-1)^k
        let m1 = At { inv: (n - 1.0).recip(), s: [s.s1() - n0.inv, C64::ZERO, C64::ZERO, C64::ZERO] };
        Blocks { n, m1, n0, p1, p2, c3: (n + 3.0).recip(), c4: (n + 4.0).recip(), c5: (n + 5.0).recip() }
    }
    /// A_0 = -S_1(N-1)
    fn a0(&self) -> C64 {
        -self.m1.s[0]
    }
    /// F_1 = 2/N [zeta_3 + zeta_2 S_1 - (S_1^2 + S_2)/(2N) - S_1 S_2 - S_3]
    fn f1(&self) -> C64 {
        let [s1, s2, s3, _] = self.n0.s;
        let i = self.n0.inv;
        i * 2.0 * (ZETA2 * s1 + ZETA3 - i * 0.5 * (s1 * s1 + s2) - s1 * s2 - s3)
    }
}

/// nf^2 part shared by ns+ and ns- ([MMV06], exact).
fn ns_nf2(b: &Blocks) -> C64 {
    let n = b.n;
    let [s1, s2, s3, _] = b.n0.s;
    let rat = super::poly(n, &[3.0, -2.0, -12.0, 2.0, 12.0]) / ((n * (n + 1.0)).powi(3) * 27.0);
    -(17.0 / 72.0 - s1 * (2.0 / 27.0) - s2 * (10.0 / 27.0) + s3 * (2.0 / 9.0) - rat) * (32.0 / 3.0)
}

/// gamma_T,ns+^(2); also the non-singlet part of gamma_T,qq^(2).
pub fn gamma_nsp(s: &Sums, nf: u32) -> C64 {
    let b = Blocks::new(s);
    let (n0, p1) = (&b.n0, &b.p1);
    let nff = nf as f64;
    let nf0 = b.a0() * 1174.898 + 1295.625 - n0.b1() * 707.67 + b.c3 * 593.9 - b.p2.c() * 1075.3 - p1.c() * 4249.4
        + n0.c() * 1658.7
        + n0.d(1) * 1327.5
        - n0.d(2) * 189.37
        - n0.d(3) * (352.0 / 9.0)
        + n0.d(4) * (128.0 / 81.0)
        - n0.e1() * 56.907
        - p1.e1() * 559.1
        - n0.e2() * 519.37;
    let nf1 = b.a0() * -183.187 - 173.935 + n0.b1() * (5120.0 / 81.0) - b.c3 * 31.84 + b.p2.c() * 181.18
        + p1.c() * 466.29
        - n0.c() * 198.10
        - n0.d(1) * 168.89
        - n0.d(2) * (176.0 / 81.0)
        + n0.d(3) * (64.0 / 27.0)
        - n0.e1() * 50.758
        + p1.e1() * 85.72
        + n0.e2() * 28.551
        - p1.e2() * 23.102
        - p1.d(1) * 39.113;
    -(nf0 + nf1 * nff + ns_nf2(&b) * (nff * nff))
}

/// gamma_T,ns-^(2).
pub fn gamma_nsm(s: &Sums, nf: u32) -> C64 {
    let b = Blocks::new(s);
    let (n0, p1) = (&b.n0, &b.p1);
    let nff = nf as f64;
    let nf0 = b.a0() * 1174.898 + 1295.622 - n0.b1() * 707.94 + b.c3 * 407.89 - b.p2.c() * 577.42 - p1.c() * 4885.7
        + n0.c() * 1981.3
        + n0.d(1) * 1625.5
        - n0.d(2) * 38.298
        - n0.d(3) * (3072.0 / 81.0)
        - n0.d(4) * (140.0 / 81.0)
        + n0.e1() * 4563.2
        - p1.e1() * 5140.6
        + n0.e2() * 1905.4
        + p1.e2() * 1969.5
        - p1.d(3) * 437.03
        - p1.d(4) * 34.683;
    let nf1 = b.a0() * -183.187 - 173.9376 + n0.b1() * (5120.0 / 81.0) - b.c3 * 85.786 + b.p2.c() * 209.19
        + p1.c() * 511.92
        - n0.c() * 217.84
        - n0.d(1) * 188.99
        - n0.d(2) * (784.0 / 81.0)
        + n0.d(3) * (128.0 / 81.0)
        + n0.e1() * 71.428
        - p1.e1() * 23.722
        + n0.e2() * 30.554
        - p1.e2() * 18.975
        + p1.d(1) * 92.453;
    -(nf0 + nf1 * nff + ns_nf2(&b) * (nff * nff))
}

/// eko's gamma_T,nsV^(2) = -(gamma_T,ns-^(2) + nf P_S): note the overall sign
/// eko applies to its (already negated) ns- value (docs/physics.md §16.2).
/// B1M = B_1(N-1) takes its limit -zeta_2 within 1e-5 of N = 1, as in eko.
pub fn gamma_nsv(s: &Sums, nf: u32) -> C64 {
    let b = Blocks::new(s);
    let (n0, p1, p2) = (&b.n0, &b.p1, &b.p2);
    let n = b.n;
    let b1m = if n.im.abs() < 1e-5 && (n.re - 1.0).abs() < 1e-5 { C64::real(-ZETA2) } else { b.m1.b1() };
    let ps = (b1m - n0.b1()) * -163.9 - (p1.b1() - p2.b1()) * 7.208 + (b.c3 - b.c4) * 4.82 - (p2.c() - b.c3) * 43.12
        + (p1.c() - p2.c()) * 44.51
        + (n0.c() - p1.c()) * 151.49
        + n0.d(1) * 178.04
        + n0.d(2) * 6.892
        - (n0.d(3) * 2.0 - n0.d(4)) * (40.0 / 27.0)
        - n0.e1() * 173.1
        + n0.e2() * 46.18;
    -(gamma_nsm(s, nf) + ps * nf as f64)
}

/// The pure-singlet part of gamma_T,qq^(2) ([MV07] eq. 11).
pub fn gamma_qq_ps(s: &Sums, nf: u32) -> C64 {
    let b = Blocks::new(s);
    let (m1, n0, p1, p2) = (&b.m1, &b.n0, &b.p1, &b.p2);
    let nf1 = (m1.d(3) - n0.d(3)) * (-256.0 / 9.0) - (m1.d(2) - n0.d(2)) * (128.0 / 9.0) + (m1.d(1) - n0.d(1)) * 324.07
        + (m1.c() - n0.c()) * 479.87
        + (n0.d(4) - p1.d(4)) * 9.072
        + (n0.d(3) - p1.d(3)) * 47.322
        + (n0.d(2) - p1.d(2)) * 425.14
        + (n0.d(1) - p1.d(1)) * 656.49
        - (n0.b3() - p1.b3()) * 5.926
        - (n0.b2() - p1.b2()) * 9.751
        - (n0.b1() - p1.b1()) * 8.650
        - (n0.c() - p1.c()) * 106.65
        - (p1.c() - p2.c()) * 848.97
        + (p2.c() - b.c3) * 368.79
        - (b.c3 - b.c4) * 61.284
        + (n0.e1() - p1.e1()) * 96.171;
    let nf2 = (m1.c() - n0.c()) * (-128.0 / 81.0) + (n0.d(4) - p1.d(4)) * 0.019122 - (n0.d(3) - p1.d(3)) * 1.900
        + (n0.d(2) - p1.d(2)) * 9.1682
        + (n0.d(1) - p1.d(1)) * 57.713
        + (n0.b2() - p1.b2()) * 1.778
        + (n0.b1() - p1.b1()) * 16.611
        + (n0.c() - p1.c()) * 87.795
        - (p1.c() - p2.c()) * 57.688
        - (p2.c() - b.c3) * 41.827
        + (b.c3 - b.c4) * 25.628
        - (b.c4 - b.c5) * 7.9934
        - (n0.e1() - p1.e1()) * 2.1031
        + (p1.d(1) - p2.d(1)) * 26.294
        - (p1.d(3) - p2.d(3)) * 7.8645;
    let nff = nf as f64;
    -((nf1 + nf2 * nff) * nff)
}

/// eko's time-like gamma_qg^(2) ([AMV11] eq. 18, halved as in eko).
pub fn gamma_qg(s: &Sums, nf: u32) -> C64 {
    let b = Blocks::new(s);
    let (m1, n0, p1, p2) = (&b.m1, &b.n0, &b.p1, &b.p2);
    let q1 = -((m1.d(3) + m1.d(2)) * 64.0) + m1.d(1) * 675.83 + m1.c() * 1141.7 + n0.d(4) * 42.328 + n0.d(3) * 361.28
        + n0.d(2) * 1512.0
        + n0.d(1) * 1864.0
        + n0.b4() * (100.0 / 27.0)
        + n0.b3() * (350.0 / 9.0)
        + n0.b2() * 263.07
        + n0.b1() * 693.84
        + n0.c() * 603.71
        - p1.c() * 882.48
        + p2.c() * 4723.2
        - b.c3 * 4745.8
        - b.c4 * 175.28
        - n0.e1() * 1809.4
        - p1.e1() * 107.59
        - p1.d(4) * 885.5;
    let q2 = m1.d(2) * (-32.0 / 27.0) - m1.d(1) * 3.1752 - m1.c() * 2.8986 + n0.d(3) * 21.569 + n0.d(2) * 255.62
        + n0.d(1) * 619.75
        - n0.b3() * (100.0 / 27.0)
        - n0.b2() * 35.446
        - n0.b1() * 103.609
        - n0.c() * 113.81
        + p1.c() * 341.26
        - p2.c() * 853.35
        + b.c3 * 492.1
        + b.c4 * 14.803
        + n0.e1() * 966.96
        - p1.e1() * 709.1
        - b.f1() * 1.593
        - p1.d(3) * 333.8;
    let q3 = (n0.c() * 4.0
        + (n0.d(1) + n0.b1()) * 6.0
        + (n0.c() - p1.c() * 2.0 + p2.c() * 2.0) * 3.8696
        + (n0.d(1) - p1.d(1) * 2.0 + p2.d(1) * 2.0 + n0.b1() - p1.b1() * 2.0 + p2.b1() * 2.0) * 4.0
        + (n0.d(2) - p1.d(2) * 2.0 + p2.d(2) * 2.0 + n0.b2() - p1.b2() * 2.0 + p2.b2() * 2.0) * 3.0
        + (n0.e1() - p1.e1() * 2.0 + p2.e1() * 2.0) * 6.0)
        * (4.0 / 9.0);
    let nff = nf as f64;
    -((q1 + (q2 + q3 * nff) * nff) / 2.0)
}

/// eko's time-like gamma_gq^(2) ([AMV11] eq. 19, times 2 nf as in eko).
pub fn gamma_gq(s: &Sums, nf: u32) -> C64 {
    let b = Blocks::new(s);
    let (m1, n0, p1) = (&b.m1, &b.n0, &b.p1);
    let g0 = m1.d(4) * 256.0 + m1.d(3) * (3712.0 / 3.0) + m1.d(2) * 1001.89 + m1.d(1) * 4776.5 + m1.c() * 5803.7
        - n0.d(4) * 30.062
        - n0.d(3) * 126.38
        - n0.d(2) * 0.71252
        + n0.d(1) * 4.4136
        + n0.b4() * (400.0 / 81.0)
        + n0.b3() * (520.0 / 27.0)
        - n0.b2() * 220.13
        - n0.b1() * 152.6
        + n0.c() * 272.85
        - p1.c() * 7188.7
        + b.p2.c() * 5693.2
        + b.c3 * 146.98
        + b.c4 * 128.19
        - n0.e1() * 1300.6
        - b.f1() * 71.23
        + p1.d(3) * 543.8;
    let g1 = m1.d(3) * (1280.0 / 81.0) + m1.d(2) * (2912.0 / 27.0) + m1.d(1) * 141.93 + m1.c() * 6.0041 - n0.d(3) * 48.60
        - n0.d(2) * 343.1
        - n0.d(1) * 492.0
        + n0.b3() * (80.0 / 81.0)
        + n0.b2() * (1040.0 / 81.0)
        - n0.b1() * 16.914
        - n0.c() * 871.3
        + p1.c() * 790.13
        - b.p2.c() * 241.23
        + b.c3 * 43.252
        - p1.d(3) * 4.3465
        + n0.e1() * 55.048;
    let nff = nf as f64;
    -((g0 + g1 * nff) * (2.0 * nff))
}

/// Time-like gamma_gg^(2) ([MV07] eq. 12).
pub fn gamma_gg(s: &Sums, nf: u32) -> C64 {
    let b = Blocks::new(s);
    let (m1, n0, p1) = (&b.m1, &b.n0, &b.p1);
    let g0 = m1.d(4) * 576.0 + m1.d(3) * 3168.0 + m1.d(2) * 3651.1 + m1.d(1) * 10233.0 + m1.c() * 14214.4
        + n0.d(4) * 191.99
        + n0.d(3) * 3281.7
        + n0.d(2) * 13528.0
        + n0.d(1) * 12258.0
        - n0.c() * 28489.0
        + p1.c() * 7469.0
        + b.p2.c() * 30421.0
        - b.c3 * 53017.0
        + b.c4 * 19556.0
        - n0.e1() * 186.4
        - n0.e2() * 21328.0
        + p1.d(3) * 5685.8
        - n0.b1() * 3590.1
        + 4425.451
        + b.a0() * 2643.521;
    let g1 = m1.d(3) * (448.0 / 9.0) + m1.d(2) * (2368.0 / 9.0) - m1.d(1) * 5.470 - m1.c() * 804.13 + n0.d(4) * 18.085
        + n0.d(3) * 155.10
        + n0.d(2) * 482.94
        + n0.d(1) * 4.9934
        + n0.c() * 248.95
        + p1.c() * 260.6
        + b.p2.c() * 272.79
        + b.c3 * 2133.2
        - b.c4 * 926.87
        + n0.e1() * 1266.5
        - n0.e2() * 29.709
        + b.f1() * 87.771
        + p1.d(3) * 485.18
        + n0.b1() * 319.97
        - 528.719
        - b.a0() * 412.172;
    let g2 = m1.d(2) * (32.0 / 27.0) + m1.d(1) * (368.0 / 81.0) + m1.c() * (472.0 / 243.0) - n0.d(3) * 5.0372
        - n0.d(2) * 44.80
        - n0.d(1) * 69.712
        - n0.c() * 77.190
        + p1.c() * 153.27
        - b.p2.c() * 106.03
        + b.c3 * 11.995
        - n0.e1() * 115.01
        + p1.e1() * 96.522
        - n0.e2() * 62.908
        + 6.4628
        - b.a0() * (16.0 / 9.0);
    let nff = nf as f64;
    -(g0 + (g1 + g2 * nff) * nff)
}

/// eko's NNLO time-like singlet matrix [[qq, gq], [qg, gg]], qq = ns+ + ps.
pub fn gamma_singlet(s: &Sums, nf: u32) -> [[C64; 2]; 2] {
    [
        [gamma_nsp(s, nf) + gamma_qq_ps(s, nf), gamma_gq(s, nf)],
        [gamma_qg(s, nf), gamma_gg(s, nf)],
    ]
}
