//! Next-to-leading-order (coefficient of a_s^2) polarized space-like anomalous
//! dimensions Delta gamma^(1)(N), in the representation eko's polarized `as2`
//! evaluates ([GRSV] hep-ph/9508347 eqs. A.3-A.6; docs/physics.md §16.1):
//! sums at N, S'_k = S_k((N-1)/2), S_1(N/2) and the Pegasus g_3 (the same
//! approximation as the unpolarized NLO, docs/physics.md §5.4).
//!
//! The non-singlet sectors swap with respect to the unpolarized ones: the
//! polarized ns+ is the unpolarized ns- and the polarized ns- (and nsV) the
//! unpolarized ns+. Poles: N = 0, -1, -2, ... (none at N = 1).

use crate::complex::C64;
use crate::constants::{CA, CF, TR, ZETA2, ZETA3};
use crate::harmonics::Sums;

/// 1/N and 1/(N+1), shared by the entries.
struct Inv {
    n: C64,
    n1: C64,
}

impl Inv {
    fn new(n: C64) -> Inv {
        Inv { n: n.recip(), n1: (n + 1.0).recip() }
    }
    /// (1/(N(N+1)))^k
    fn nn1(&self, k: i32) -> C64 {
        (self.n * self.n1).powi(k)
    }
}

/// Delta gamma_ns,+^(1) = unpolarized gamma_ns,-^(1).
pub fn gamma_nsp(s: &Sums, nf: u32) -> C64 {
    crate::as2::gamma_nsm(s, nf)
}

/// Delta gamma_ns,-^(1) = unpolarized gamma_ns,+^(1); eko uses it for nsV too.
pub fn gamma_nsm(s: &Sums, nf: u32) -> C64 {
    crate::as2::gamma_nsp(s, nf)
}

/// Delta gamma_ps^(1) = 8 T_R nf C_F (N+2)(N^3+2N+1)/(N^3 (N+1)^3) ([GRSV] eq. A.3).
pub fn gamma_ps(s: &Sums, nf: u32) -> C64 {
    let n = s.n;
    let i = Inv::new(n);
    (n + 2.0) * (1.0 + n * (2.0 + n * n)) * i.nn1(3) * (8.0 * TR * nf as f64 * CF)
}

/// Delta gamma_qg^(1) = 4 T_R nf [C_A Q_A + C_F Q_F] ([GRSV] eq. A.4); vanishes at N = 1.
pub fn gamma_qg(s: &Sums, nf: u32) -> C64 {
    let n = s.n;
    let i = Inv::new(n);
    let (s1, s2, sp2) = (s.s1(), s.s2(), s.s_half_minus[1]);
    let w = (n - 1.0) * i.nn1(1); // (N-1)/(N(N+1))
    let q_a = (w * (s1 * s1 - s2 + sp2) - s1 * 4.0 * i.n * i.n1 * i.n1
        - (-2.0 + n * (-7.0 + n * (3.0 + n * (-4.0 + n * (1.0 + n))))) * i.nn1(3))
        * 2.0;
    let q_f = (w * (s2 - s1 * s1 + s1 * 2.0 * i.n)
        - (n - 1.0) * (1.0 + n * (3.5 + n * (4.0 + n * (5.0 + n * 2.5)))) * i.nn1(3)
        + (n - 1.0) * 4.0 * i.nn1(2))
        * 2.0;
    (q_a * CA + q_f * CF) * (4.0 * TR * nf as f64)
}

/// Delta gamma_gq^(1) = 4 C_F [C_A G_A + C_F G_F + 4 T_R nf G_n] ([GRSV] eq. A.5).
pub fn gamma_gq(s: &Sums, nf: u32) -> C64 {
    let n = s.n;
    let i = Inv::new(n);
    let (s1, s2, sp2) = (s.s1(), s.s2(), s.s_half_minus[1]);
    let w = (n + 2.0) * i.nn1(1); // (N+2)/(N(N+1))
    let g_f = ((s1 * s1 + s2) * w * 2.0 - s1 * (n + 2.0) * (1.0 + n * 3.0) * i.n * i.n1 * i.n1 * 2.0
        - (n + 2.0) * (2.0 + n * (15.0 + n * (8.0 + n * (-12.0 - n * 9.0)))) * i.nn1(3)
        + (n + 2.0) * 8.0 * i.nn1(2))
        * 0.5;
    let g_a = -((s1 * s1 + s2 - sp2) * w
        - s1 * (12.0 + n * (22.0 + n * 11.0)) * i.n * i.n * i.n1 / 3.0
        + (36.0 + n * (72.0 + n * (41.0 + n * (254.0 + n * (271.0 + n * 76.0))))) * i.nn1(3) / 9.0);
    let g_n = -(s1 * w) / 3.0 + (n + 2.0) * (2.0 + n * 5.0) * i.n * i.n1 * i.n1 / 9.0;
    (g_a * CA + g_f * CF + g_n * (4.0 * TR * nf as f64)) * (4.0 * CF)
}

/// Delta gamma_gg^(1) = 4 [C_A^2 H_AA + T_R nf (C_A H_An + C_F H_Fn)] ([GRSV] eq. A.6),
/// with eko's S-tilde combination of S_1((N-1)/2), S_1(N/2) and g_3.
pub fn gamma_gg(s: &Sums, nf: u32) -> C64 {
    let n = s.n;
    let i = Inv::new(n);
    let s1 = s.s1();
    let [sp1, sp2, sp3] = s.s_half_minus;
    let s1h = s.s_half[0];
    let s_tilde = (sp1 - s1h + i.n * 2.0) * (ZETA2 / 2.0) - s1 * i.n * i.n - s.g3() - 5.0 * ZETA3 / 8.0;
    let h_aa = (-(s1 * sp2) * 4.0 - sp3 + s_tilde * 8.0 + sp2 * 8.0 * i.nn1(1)
        + s1 * (72.0 + n * (144.0 + n * (67.0 + n * (134.0 + n * 67.0)))) * i.nn1(2) * (2.0 / 9.0)
        - (144.0 + n * (258.0 + n * (7.0 + n * (698.0 + n * (469.0 + n * (144.0 + n * 48.0)))))) * i.nn1(3) / 9.0)
        * 0.5;
    let h_an = (-(s1 * 5.0) / 9.0 + (-3.0 + n * (13.0 + n * (16.0 + n * (6.0 + n * 3.0)))) * i.nn1(2) / 9.0) * 4.0;
    let h_fn = (4.0 + n * (2.0 + n * (-8.0 + n * (1.0 + n * (5.0 + n * (3.0 + n)))))) * i.nn1(3);
    (h_aa * (CA * CA) + (h_an * CA + h_fn * CF) * (TR * nf as f64)) * 4.0
}

/// The NLO polarized singlet matrix [[qq, qg], [gq, gg]], gamma_qq = Delta gamma_ns,+ + Delta gamma_ps.
pub fn gamma_singlet(s: &Sums, nf: u32) -> [[C64; 2]; 2] {
    [
        [gamma_nsp(s, nf) + gamma_ps(s, nf), gamma_qg(s, nf)],
        [gamma_gq(s, nf), gamma_gg(s, nf)],
    ]
}
