//! Next-to-next-to-leading-order (coefficient of a_s^3) polarized space-like
//! anomalous dimensions Delta gamma^(2)(N), as eko's polarized `as3`
//! (docs/physics.md §16.1):
//!
//! * singlet entries ps, qg, gq, gg: the approximate N-space parametrisations
//!   of Moch, Vermaseren, Vogt, arXiv:1409.5131 ([MVV14]) eqs. 4.9-4.12, built
//!   from S_1..S_4 at N and rational functions of N; accurate to a few 1e-4
//!   relative, so the first-moment relations hold only approximately;
//! * non-singlet: swapped with respect to the unpolarized NNLO
//!   parametrisations (`crate::as3`): Delta ns+ = ns-, Delta ns- = ns+, and
//!   Delta nsV = ns+ + Delta ns^s, the exact polarized sea part of
//!   Moch, Vermaseren, Vogt, arXiv:1506.04517 ([MVV15]) eq. 24, with
//!   S_{-2}, S_{-3}, S_{-2,1} continued with eta = +1 as eko does.
//!
//! Poles: N = 0, -1, -2, ... (none at N = 1).

use crate::complex::C64;
use crate::constants::ZETA2;
use crate::harmonics::Sums;

/// Coefficients of one colour/nf part of a [MVV14] parametrisation: the value
/// is the sum of coefficient x basis function (see `Basis`).
#[derive(Clone, Copy)]
struct Terms {
    c: f64,
    e1: f64,
    e11: f64,
    b3: f64,
    b31: f64,
    b4: f64,
    /// inv[m][k-1]: coefficient of 1/(N+m)^k, m = 0..4, k = 1..5
    inv: [[f64; 5]; 5],
    s1: f64,
    /// S_1/N, S_1/(N+1)
    s1_over: [f64; 2],
    /// S_1/(N+1)^2
    s1_over_n1sq: f64,
    /// S_1^2/N, S_1^2/(N+1)
    s1sq_over: [f64; 2],
    /// S_2/N, S_2/(N+1)
    s2_over: [f64; 2],
}

const ZERO: Terms = Terms {
    c: 0.0,
    e1: 0.0,
    e11: 0.0,
    b3: 0.0,
    b31: 0.0,
    b4: 0.0,
    inv: [[0.0; 5]; 5],
    s1: 0.0,
    s1_over: [0.0; 2],
    s1_over_n1sq: 0.0,
    s1sq_over: [0.0; 2],
    s2_over: [0.0; 2],
};

/// The basis functions of [MVV14] at one N: 1/(N+m)^k, S_1, S_1^2, S_2 and
/// E_1 = S_1/N^2 + (S_2 - zeta_2)/N,
/// B_3 = -(S_1^3 + 3 S_1 S_2 + 2 S_3)/N,
/// B_4 = (S_1^4 + 6 S_1^2 S_2 + 3 S_2^2 + 8 S_1 S_3 + 6 S_4)/N,
/// and E_11, B_31: E_1 and B_3 at N+1.
struct Basis {
    inv: [[C64; 5]; 5],
    s1: C64,
    s1sq: C64,
    s2: C64,
    e1: C64,
    e11: C64,
    b3: C64,
    b31: C64,
    b4: C64,
}

fn e1_at(r: C64, s1: C64, s2: C64) -> C64 {
    s1 * r * r + (s2 - ZETA2) * r
}

fn b3_at(r: C64, s1: C64, s2: C64, s3: C64) -> C64 {
    -(s1 * s1 * s1 + s1 * s2 * 3.0 + s3 * 2.0) * r
}

impl Basis {
    fn new(s: &Sums) -> Basis {
        let n = s.n;
        let mut inv = [[C64::ZERO; 5]; 5];
        for (m, row) in inv.iter_mut().enumerate() {
            let r = (n + m as f64).recip();
            let mut p = r;
            for v in row.iter_mut() {
                *v = p;
                p *= r;
            }
        }
        let [s1, s2, s3, s4] = s.s;
        let (r, r1) = (inv[0][0], inv[1][0]);
        // S_k(N+1) = S_k(N) + 1/(N+1)^k
        let (t1, t2, t3) = (s1 + r1, s2 + inv[1][1], s3 + inv[1][2]);
        let s1sq = s1 * s1;
        Basis {
            inv,
            s1,
            s1sq,
            s2,
            e1: e1_at(r, s1, s2),
            e11: e1_at(r1, t1, t2),
            b3: b3_at(r, s1, s2, s3),
            b31: b3_at(r1, t1, t2, t3),
            b4: (s1sq * s1sq + s1sq * s2 * 6.0 + s2 * s2 * 3.0 + s1 * s3 * 8.0 + s4 * 6.0) * r,
        }
    }

    fn eval(&self, t: &Terms) -> C64 {
        let mut acc = C64::real(t.c)
            + self.e1 * t.e1
            + self.e11 * t.e11
            + self.b3 * t.b3
            + self.b31 * t.b31
            + self.b4 * t.b4
            + self.s1 * t.s1;
        for (row, coef) in self.inv.iter().zip(t.inv.iter()) {
            for (v, c) in row.iter().zip(coef.iter()) {
                if *c != 0.0 {
                    acc += *v * *c;
                }
            }
        }
        let (r, r1) = (self.inv[0][0], self.inv[1][0]);
        acc += self.s1 * (r * t.s1_over[0] + r1 * t.s1_over[1] + self.inv[1][1] * t.s1_over_n1sq);
        acc += self.s1sq * (r * t.s1sq_over[0] + r1 * t.s1sq_over[1]);
        acc + self.s2 * (r * t.s2_over[0] + r1 * t.s2_over[1])
    }

    /// -(p0 + nf p1 + nf^2 p2), eko's sign convention gamma = -P.
    fn gamma(&self, parts: &[Terms; 3], nf: u32) -> C64 {
        let f = nf as f64;
        -(self.eval(&parts[0]) + (self.eval(&parts[1]) + self.eval(&parts[2]) * f) * f)
    }
}

// The [MVV14] coefficients as eko 0.15.7 evaluates them; rows of `inv` are
// 1/N^k, 1/(N+1)^k, ..., 1/(N+4)^k for k = 1..5.

/// [MVV14] eq. 4.9, pure singlet (no nf^0 part); eko divides each part by 9.
const PS: [Terms; 3] = [
    ZERO,
    Terms {
        b3: -58.869 / 9.0,
        b31: 58.869 / 9.0,
        e1: 2093.13 / 9.0,
        e11: -2093.13 / 9.0,
        inv: [
            [-12263.4 / 9.0, 6651.0 / 9.0, -6634.8 / 9.0, 4909.67 / 9.0, -2752.0 / 9.0],
            [26820.0 / 9.0, -8493.84 / 9.0, 13160.0 / 9.0, -508.669 / 9.0, 2752.0 / 9.0],
            [-20629.8 / 9.0, 0.0, -6298.2 / 9.0, -4401.0 / 9.0, 0.0],
            [7579.89 / 9.0, 0.0, 0.0, 0.0, 0.0],
            [-1506.69 / 9.0, 0.0, 0.0, 0.0, 0.0],
        ],
        s1_over: [1842.84 / 9.0, -1842.84 / 9.0],
        s1_over_n1sq: 226.98 / 9.0,
        s1sq_over: [-113.49 / 9.0, 113.49 / 9.0],
        s2_over: [-113.49 / 9.0, 113.49 / 9.0],
        ..ZERO
    },
    Terms {
        inv: [
            [442.17 / 9.0, -409.338 / 9.0, 239.166 / 9.0, -63.4014 / 9.0, 0.0],
            [-719.1 / 9.0, 494.991 / 9.0, -79.389 / 9.0, 107.968 / 9.0, 0.0],
            [238.167 / 9.0, 0.0, -191.826 / 9.0, -44.5662 / 9.0, 0.0],
            [34.1784 / 9.0, 0.0, 0.0, 0.0, 0.0],
            [4.5846 / 9.0, 0.0, 0.0, 0.0, 0.0],
        ],
        s1_over: [-85.653 / 9.0, 85.653 / 9.0],
        s1_over_n1sq: -32.049 / 9.0,
        s1sq_over: [16.0245 / 9.0, -16.0245 / 9.0],
        s2_over: [16.0245 / 9.0, -16.0245 / 9.0],
        ..ZERO
    },
];

/// [MVV14] eq. 4.10, quark-gluon (no nf^0 part).
const QG: [Terms; 3] = [
    ZERO,
    Terms {
        b3: -5.3,
        b4: 3.784,
        e1: 825.4,
        inv: [
            [-2972.4, 1461.2, -1789.6, 2313.84, -1208.0],
            [4672.0, 0.0, 2290.6, 439.8, 0.0],
            [-1221.6, 0.0, 0.0, 0.0, 0.0],
            [-18.0, 0.0, 0.0, 0.0, 0.0],
            [0.0; 5],
        ],
        s1_over: [-278.32, 0.0],
        s1sq_over: [-90.26, 0.0],
        s2_over: [-90.26, 0.0],
        ..ZERO
    },
    Terms {
        b3: 0.7374,
        e1: -47.3,
        inv: [
            [499.65, -526.3, 393.92, -184.434, 128.0 / 3.0],
            [-432.18, 0.0, 358.2, -61.116, 0.0],
            [-141.63, 0.0, 0.0, 0.0, 0.0],
            [-11.34, 0.0, 0.0, 0.0, 0.0],
            [0.0; 5],
        ],
        s1_over: [6.256, 0.0],
        s1sq_over: [7.32, 0.0],
        s2_over: [7.32, 0.0],
        ..ZERO
    },
];

/// [MVV14] eq. 4.11, gluon-quark (the nf^2 part is exact).
const GQ: [Terms; 3] = [
    Terms {
        b3: 59.3,
        b4: 5.143,
        e1: -1424.8,
        inv: [
            [6159.0, -4046.6, 4280.0, -5328.02, 92096.0 / 27.0],
            [-3825.9, 0.0, -1701.4, -1050.6, 0.0],
            [1942.0, 0.0, 0.0, 0.0, 0.0],
            [-742.1, 0.0, 0.0, 0.0, 0.0],
            [0.0; 5],
        ],
        s1_over: [-1843.7, 0.0],
        s1sq_over: [451.55, 0.0],
        s2_over: [451.55, 0.0],
        ..ZERO
    },
    Terms {
        b3: -4.963,
        e1: -16.18,
        inv: [
            [-301.07, 308.98, -404.92, 236.323, -1024.0 / 9.0],
            [-296.0, 0.0, -253.06, 180.138, 0.0],
            [406.13, 0.0, 0.0, 0.0, 0.0],
            [-101.62, 0.0, 0.0, 0.0, 0.0],
            [0.0; 5],
        ],
        s1_over: [171.78, 0.0],
        s1sq_over: [-47.86, 0.0],
        s2_over: [-47.86, 0.0],
        ..ZERO
    },
    Terms {
        inv: [
            [-64.0 / 9.0, 0.0, 0.0, 0.0, 0.0],
            [160.0 / 27.0, -32.0 / 27.0, -32.0 / 9.0, 0.0, 0.0],
            [0.0; 5],
            [0.0; 5],
            [0.0; 5],
        ],
        s1_over: [-128.0 / 27.0, -32.0 / 27.0],
        s1_over_n1sq: -32.0 / 9.0,
        s1sq_over: [32.0 / 9.0, -16.0 / 9.0],
        s2_over: [32.0 / 9.0, -16.0 / 9.0],
        ..ZERO
    },
];

/// [MVV14] eq. 4.12, gluon-gluon.
const GG: [Terms; 3] = [
    Terms {
        c: 4427.76,
        e1: -12292.0,
        inv: [
            [33631.5, -23091.0, 21804.0, -22665.0, 12096.0],
            [-39925.0, -13247.0, -1726.0, -7002.0, 0.0],
            [13447.0, 0.0, 0.0, 0.0, 0.0],
            [-4576.0, 0.0, 0.0, 0.0, 0.0],
            [0.0; 5],
        ],
        s1: -2643.52,
        s1_over: [9446.0, -13247.0],
        ..ZERO
    },
    Terms {
        c: -528.536,
        e1: -7932.0,
        inv: [
            [-1585.67, 3524.0, -3754.4, 2146.79, -6128.0 / 9.0],
            [2648.6, -6746.0, 1226.2, -786.0, 0.0],
            [-2160.8, 0.0, 0.0, 0.0, 0.0],
            [1251.7, 0.0, 0.0, 0.0, 0.0],
            [0.0; 5],
        ],
        s1: 412.172,
        s1_over: [7041.7, -6746.0],
        ..ZERO
    },
    Terms {
        c: 6.4607,
        e1: -16.944,
        inv: [
            [-18.3838, 13.29, -13.358, 7.0854, 0.0],
            [32.905, 0.0, 31.528, 0.0, 0.0],
            [-18.3, 0.0, 0.0, 0.0, 0.0],
            [2.637, 0.0, 0.0, 0.0, 0.0],
            [0.0; 5],
        ],
        s1: 16.0 / 9.0,
        s1_over: [0.21, 0.0],
        ..ZERO
    },
];

/// Delta gamma_ps^(2), [MVV14] eq. 4.9 (parametrised).
pub fn gamma_ps(s: &Sums, nf: u32) -> C64 {
    Basis::new(s).gamma(&PS, nf)
}

/// Delta gamma_qg^(2), [MVV14] eq. 4.10 (parametrised).
pub fn gamma_qg(s: &Sums, nf: u32) -> C64 {
    Basis::new(s).gamma(&QG, nf)
}

/// Delta gamma_gq^(2), [MVV14] eq. 4.11 (parametrised).
pub fn gamma_gq(s: &Sums, nf: u32) -> C64 {
    Basis::new(s).gamma(&GQ, nf)
}

/// Delta gamma_gg^(2), [MVV14] eq. 4.12 (parametrised).
pub fn gamma_gg(s: &Sums, nf: u32) -> C64 {
    Basis::new(s).gamma(&GG, nf)
}

/// The sea part Delta gamma_ns^s(2) = -nf P^s/nf, [MVV15] eq. 24 (exact; only
/// d_abc d^abc-type nf^1 terms), with q = 1/(N(N+1)).
pub fn gamma_nss(s: &Sums, nf: u32) -> C64 {
    let n = s.n;
    let r = n.recip();
    let r2 = r * r;
    let q = r * (n + 1.0).recip();
    let (q2, q3, q4) = (q * q, q * q * q, q * q * q * q);
    let s1 = s.s1();
    let s3 = s.s3();
    let sm2 = s.s_minus(2, true);
    let sm3 = s.s_minus(3, true);
    let sm21 = s.s_minus2_1(true);
    let p = r2
        + (-(r2 * 2.0) - q4 * 12.0 - q3 * 42.0 - q2 * 14.0 + q * 8.0) * s1
        + (q2 * 4.0 + q * 6.0) * s3
        + (-(r2 * 4.0) + q3 * 8.0 + q2 * 20.0 + q * 8.0) * sm2
        + sm21 * q * 32.0
        + (q2 * 8.0 - q * 20.0) * sm3
        + (-(q2 * 16.0) + q * 8.0) * (s1 * sm2 - sm21 + sm3);
    -(p * (40.0 / 9.0)) * nf as f64
}

/// Delta gamma_ns,+^(2) = unpolarized gamma_ns,-^(2) (parametrised, `crate::as3`).
pub fn gamma_nsp(s: &Sums, nf: u32) -> C64 {
    crate::as3::gamma_nsm(s, nf)
}

/// Delta gamma_ns,-^(2) = unpolarized gamma_ns,+^(2) (parametrised, `crate::as3`).
pub fn gamma_nsm(s: &Sums, nf: u32) -> C64 {
    crate::as3::gamma_nsp(s, nf)
}

/// Delta gamma_ns,v^(2) = Delta gamma_ns,-^(2) + Delta gamma_ns^s(2).
pub fn gamma_nsv(s: &Sums, nf: u32) -> C64 {
    gamma_nsm(s, nf) + gamma_nss(s, nf)
}

/// The NNLO polarized singlet matrix [[qq, qg], [gq, gg]] with
/// gamma_qq = Delta gamma_ns,+ + Delta gamma_ps; the basis is built once.
pub fn gamma_singlet(s: &Sums, nf: u32) -> [[C64; 2]; 2] {
    let b = Basis::new(s);
    [
        [gamma_nsp(s, nf) + b.gamma(&PS, nf), b.gamma(&QG, nf)],
        [b.gamma(&GQ, nf), b.gamma(&GG, nf)],
    ]
}
