//! O(a_em^2) anomalous dimensions gamma^(0,2)(N), eko's `aem2`: de Florian,
//! Sborlini, Rodrigo arXiv:1606.02887 (eqs. 55-59, 68; ns+- from the sum and
//! difference of eqs. 57-58), built on the O(a_s a_em) kernels of `as1aem1`,
//! and their 4x4 singlet / 2x2 valence matrices (docs/physics.md §15.1).
//! The quark kernels come per charge e_q^2 (e_u^2 for up-like, e_d^2 for
//! down-like quarks), the nf-dependent parts with N_C sum_q e_q^2.
//! Poles: N = 0, -1, ...; N = 1 in the singlet entries (photon, ps).

use super::as1aem1::{self, poly};
use super::{n_up, sum_e2, sum_e4, MixedSums, ED2, EU2, NC};
use crate::complex::C64;
use crate::constants::{CA, CF};
use crate::harmonics::Sums;

/// gamma_{photon photon}^(0,2), eq. 68.
pub fn gamma_phph(s: &Sums, nf: u32) -> C64 {
    (as1aem1::gamma_gph(s) / CF / CA + 4.0) * (NC * sum_e4(nf))
}

/// gamma_{q photon}^(0,2) of a quark of squared charge `e2`, eq. 55.
pub fn gamma_qph(s: &Sums, nf: u32, e2: f64) -> C64 {
    as1aem1::gamma_qph(s, nf) * e2 / CF
}

/// gamma_{photon q}^(0,2) of a quark of squared charge `e2`, eq. 56.
pub fn gamma_phq(s: &Sums, nf: u32, e2: f64) -> C64 {
    let n = s.n;
    let n1 = n + 1.0;
    let den = (n - 1.0) * n * n1 * n1;
    let nf_part = poly(n, &[-16.0, -27.0, -13.0, -8.0]) * (-16.0) / (den * 9.0)
        - poly(n, &[2.0, 3.0, 2.0, 1.0]) * 16.0 / (den * 3.0) * s.s1();
    as1aem1::gamma_phq(s) * e2 / CF + nf_part * (NC * sum_e2(nf))
}

/// The nf part shared by gamma_ns,+-^(0,2): N_C sum_q e_q^2 times
/// 2 (-12 + 20N + 47N^2 + 6N^3 + 3N^4)/(9 N^2 (N+1)^2) - 80/9 S_1 + 16/3 S_2.
fn ns_nf_part(s: &Sums, nf: u32) -> C64 {
    let n = s.n;
    let nn1 = n * (n + 1.0);
    let r = poly(n, &[-12.0, 20.0, 47.0, 6.0, 3.0]) * 2.0 / (nn1 * nn1 * 9.0) - s.s1() * (80.0 / 9.0) + s.s2() * (16.0 / 3.0);
    r * (NC * sum_e2(nf))
}

/// gamma_ns,+-^(0,2) of a quark of squared charge `e2` from the O(a_s a_em)
/// kernel `mixed` of the same sector: mixed e2 / (2 C_F) + the nf part.
pub fn gamma_ns_from_mixed(mixed: C64, s: &Sums, nf: u32, e2: f64) -> C64 {
    mixed * e2 / CF / 2.0 + ns_nf_part(s, nf)
}

/// gamma_ns,+^(0,2) of a quark of squared charge `e2` (eqs. 57 + 58).
pub fn gamma_nsp(s: &Sums, m: &MixedSums, nf: u32, e2: f64) -> C64 {
    gamma_ns_from_mixed(as1aem1::gamma_nsp(s, m), s, nf, e2)
}

/// gamma_ns,-^(0,2) of a quark of squared charge `e2` (eqs. 57 - 58).
pub fn gamma_nsm(s: &Sums, m: &MixedSums, nf: u32, e2: f64) -> C64 {
    gamma_ns_from_mixed(as1aem1::gamma_nsm(s, m), s, nf, e2)
}

/// The pure-singlet gamma_ps^(0,2), eq. 59 (with 2 nf N_C).
pub fn gamma_ps(s: &Sums, nf: u32) -> C64 {
    let n = s.n;
    let n1 = n + 1.0;
    let n2 = n + 2.0;
    let num = poly(n, &[2.0, 5.0, 1.0]) * poly(n, &[4.0, 4.0, 7.0, 5.0]) * (-4.0);
    num / ((n - 1.0) * n * n * n * n1 * n1 * n1 * n2 * n2) * (2.0 * nf as f64 * CA)
}

/// (nu/nf, nd/nf, e_u^2 - e_d^2, <e^2>) of the singlet and valence matrices.
fn fractions(nf: u32) -> (f64, f64, f64, f64) {
    let (nu, nd, nff) = (n_up(nf) as f64, (nf - n_up(nf)) as f64, nf as f64);
    (nu / nff, nd / nff, EU2 - ED2, (nu * EU2 + nd * ED2) / nff)
}

/// The 4x4 singlet matrix on (g, photon, Sigma, Sigma_Delta); the gluon row and
/// column vanish at this order.
pub fn gamma_singlet(s: &Sums, m: &MixedSums, nf: u32) -> [[C64; 4]; 4] {
    let (vu, vd, e2m, e2avg) = fractions(nf);
    let (ph_u, ph_d) = (gamma_phq(s, nf, EU2), gamma_phq(s, nf, ED2));
    let (u_ph, d_ph) = (gamma_qph(s, nf, EU2), gamma_qph(s, nf, ED2));
    let mixed = as1aem1::gamma_nsp(s, m);
    let (ns_u, ns_d) = (gamma_ns_from_mixed(mixed, s, nf, EU2), gamma_ns_from_mixed(mixed, s, nf, ED2));
    let ps = gamma_ps(s, nf);
    let off = (ns_u * EU2 - ns_d * ED2) + ps * (e2m * e2avg);
    let z = C64::ZERO;
    [
        [z, z, z, z],
        [z, gamma_phph(s, nf), ph_u * (vu * EU2) + ph_d * (vd * ED2), (ph_u * EU2 - ph_d * ED2) * vu],
        [z, u_ph * (vu * EU2) + d_ph * (vd * ED2), ns_u * (vu * EU2) + ns_d * (vd * ED2) + ps * (e2avg * e2avg), off * vu],
        [z, (u_ph * EU2 - d_ph * ED2) * vd, off * vd, ns_u * (vd * EU2) + ns_d * (vu * ED2) + ps * (vu * vd * e2m * e2m)],
    ]
}

/// The 2x2 valence matrix on (V, V_Delta).
pub fn gamma_valence(s: &Sums, m: &MixedSums, nf: u32) -> [[C64; 2]; 2] {
    let (vu, vd, _, _) = fractions(nf);
    let mixed = as1aem1::gamma_nsm(s, m);
    let (ns_u, ns_d) = (gamma_ns_from_mixed(mixed, s, nf, EU2), gamma_ns_from_mixed(mixed, s, nf, ED2));
    let off = ns_u * EU2 - ns_d * ED2;
    [
        [ns_u * (vu * EU2) + ns_d * (vd * ED2), off * vu],
        [off * vd, ns_u * (vd * EU2) + ns_d * (vu * ED2)],
    ]
}
