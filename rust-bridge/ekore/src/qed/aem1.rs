//! O(a_em) anomalous dimensions gamma^(0,1)(N), eko's `aem1` (the paper eko
//! cites as Carrazza:2015dea, eq. 2.5): the LO QCD kernels with the colour
//! factors replaced by charges, and their 4x4 singlet / 2x2 valence matrices
//! (docs/physics.md §15.1). Poles: N = 0, -1, ...; N = 1 in gamma_phq.

use super::{sum_e2, Charges, NC};
use crate::as1;
use crate::complex::C64;
use crate::constants::{CF, TR};
use crate::harmonics::Sums;

/// gamma_{photon q}^(0,1) = gamma_gq^(0) / C_F.
pub fn gamma_phq(s: &Sums) -> C64 {
    as1::gamma_gq(s, 0) / CF
}

/// gamma_{q photon}^(0,1) = gamma_qg^(0) / T_R * N_C (the 2 nf of gamma_qg kept).
pub fn gamma_qph(s: &Sums, nf: u32) -> C64 {
    as1::gamma_qg(s, nf) / TR * NC
}

/// gamma_{photon photon}^(0,1) = 4/3 N_C sum_q e_q^2 (constant in N).
pub fn gamma_phph(nf: u32) -> C64 {
    C64::real(4.0 / 3.0 * NC * sum_e2(nf))
}

/// gamma_ns^(0,1) = gamma_ns^(0) / C_F (one charge factor e_q^2 still to apply).
pub fn gamma_ns(s: &Sums) -> C64 {
    as1::gamma_ns(s, 0) / CF
}

/// The 4x4 singlet matrix on (g, photon, Sigma, Sigma_Delta); the gluon row and
/// column vanish at this order.
pub fn gamma_singlet(s: &Sums, nf: u32) -> [[C64; 4]; 4] {
    let c = Charges::new(nf);
    let (phq, qph, ns) = (gamma_phq(s), gamma_qph(s, nf), gamma_ns(s));
    let z = C64::ZERO;
    [
        [z, z, z, z],
        [z, gamma_phph(nf), phq * c.e2avg, phq * c.vue2m],
        [z, qph * c.e2avg, ns * c.e2avg, ns * c.vue2m],
        [z, qph * c.vde2m, ns * c.vde2m, ns * c.e2delta],
    ]
}

/// The 2x2 valence matrix on (V, V_Delta): the charge matrix times gamma_ns^(0,1).
pub fn gamma_valence(s: &Sums, nf: u32) -> [[C64; 2]; 2] {
    let c = Charges::new(nf);
    let ns = gamma_ns(s);
    [[ns * c.e2avg, ns * c.vue2m], [ns * c.vde2m, ns * c.e2delta]]
}
