//! The time-like heavy-quark matching OMEs eko has: O(a_s) only, from
//! [CNO05] eqs. 24 and 27 (the Mellin transform of the heavy-quark
//! fragmentation function of a gluon, and the gluon's decoupling term).
//! `l` = L = ln(mu^2/m_h^2). Poles: N = 1, 0, -1 in A_Hg.

use crate::complex::C64;
use crate::constants::CF;

/// A_Hg^(1) = 2 C_F [(N^2+N+2)/(N(N^2-1)) (L-1) + 4/(N-1)^2 - 4/N^2 + 2/(N+1)^2].
pub fn a_hg(n: C64, l: f64) -> C64 {
    let rational = (n * n + n + 2.0) / (n * (n * n - 1.0));
    (rational * (l - 1.0) + 4.0 / ((n - 1.0) * (n - 1.0)) - 4.0 / (n * n) + 2.0 / ((n + 1.0) * (n + 1.0))) * (2.0 * CF)
}

/// A_gg,H^(1) = -2/3 L (as space-like).
pub fn a_gg(l: f64) -> f64 {
    -2.0 / 3.0 * l
}

/// eko's O(a_s) singlet OME on (g, q, H): A_gg at [0][0], A_Hg at [2][0],
/// every other entry zero.
pub fn a_singlet_1(n: C64, l: f64) -> [[C64; 3]; 3] {
    let mut a = [[C64::ZERO; 3]; 3];
    a[0][0] = C64::real(a_gg(l));
    a[2][0] = a_hg(n, l);
    a
}

/// eko's O(a_s) non-singlet OME on (q, H): zero.
pub fn a_ns_1() -> [[C64; 2]; 2] {
    [[C64::ZERO; 2]; 2]
}
