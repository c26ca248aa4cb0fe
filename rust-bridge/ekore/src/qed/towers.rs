//! eko's QED grids of anomalous dimensions (`gamma_ns_qed`, `gamma_valence_qed`,
//! `gamma_singlet_qed` of `ekore.anomalous_dimensions.unpolarized.space_like`):
//! entry [i][j] is the coefficient of a_s^i a_em^j, for i <= order_qcd and
//! j <= order_qed; [0][0] and the entries beyond the orders are zero.
//!
//! Filled as eko fills them (docs/physics.md §15.1): [1][0], [0][1] and [1][1]
//! always; [0][2] at order_qed 2; the QCD entries [i][0] from `as1`..`as4`:
//! * non-singlet: ns+ (10102, 10103) or ns- (10202, 10203) at every QCD order
//!   (eko's QED non-singlet never uses nsV); N3LO ns+ / ns- with variation
//!   entries 4 / 5 (FHMRUVV) or none (eko's own approximation);
//! * valence diag(V, V_Delta): [1][0] gamma_ns^(0) twice, [2][0] gamma_ns,-^(1)
//!   twice, [3][0] diag(nsV, ns-), [4][0] diag(nsV, ns-) with variation entries
//!   6 and 5 (FHMRUVV) or none;
//! * singlet on (g, photon, Sigma, Sigma_Delta): the QCD 2x2 on (g, Sigma) with
//!   gamma_qq at (Sigma, Sigma) and gamma_ns,+ at (Sigma_Delta, Sigma_Delta);
//!   at N3LO with FHMRUVV that gamma_ns,+ takes variation entry 3 (qq), as
//!   gamma_qq does, not entry 4.

use super::{
    aem1, aem2, as1aem1, MixedSums, ED2, EU2, MODE_NS_MINUS_D, MODE_NS_MINUS_U, MODE_NS_PLUS_D, MODE_NS_PLUS_U, NS_MODES,
};
use crate::as4::{self, MODE_NS_MINUS, MODE_NS_PLUS, MODE_NS_VALENCE};
use crate::complex::C64;
use crate::harmonics::Sums;
use crate::sums::SumValues;
use crate::{as1, as2, as3};

/// Non-singlet grid [i][j], i = 0..4, j = 0..2.
pub type NsQed = [[C64; 3]; 5];
/// Valence grid [i][j] of 2x2 matrices on (V, V_Delta).
pub type ValenceQed = [[[[C64; 2]; 2]; 3]; 5];
/// Singlet grid [i][j] of 4x4 matrices on (g, photon, Sigma, Sigma_Delta).
pub type SingletQed = [[[[C64; 4]; 4]; 3]; 5];

/// What the N3LO QCD entries need: the weight-5 sums at N (continued from even N
/// for the singlet, from odd N otherwise) and eko's N3LO choice.
pub struct N3lo<'a> {
    pub sums: &'a SumValues,
    pub variation: [u8; 7],
    pub set: as4::AdSet,
}

/// (ns+?, e_q^2) of a QED non-singlet mode; None for an unknown mode.
fn mode_parts(mode: u32) -> Option<(bool, f64)> {
    match mode {
        MODE_NS_PLUS_U => Some((true, EU2)),
        MODE_NS_PLUS_D => Some((true, ED2)),
        MODE_NS_MINUS_U => Some((false, EU2)),
        MODE_NS_MINUS_D => Some((false, ED2)),
        _ => None,
    }
}

fn n3lo_of<'a>(order_qcd: u32, n3lo: Option<&'a N3lo<'a>>) -> &'a N3lo<'a> {
    debug_assert!(order_qcd >= 4);
    n3lo.expect("order_qcd 4 needs the N3LO sums and choice")
}

/// eko's `gamma_ns_qed(order, mode, ...)`: the grid of `mode` (10102, 10103,
/// 10202, 10203; NaN for any other). `n3lo` is read at order_qcd 4 only.
pub fn gamma_ns_qed(order_qcd: u32, order_qed: u32, mode: u32, s: &Sums, nf: u32, n3lo: Option<&N3lo>) -> NsQed {
    let mut g = [[C64::ZERO; 3]; 5];
    let Some((plus, e2)) = mode_parts(mode) else {
        return [[C64::new(f64::NAN, f64::NAN); 3]; 5];
    };
    let m = MixedSums::new(s);
    g[1][0] = as1::gamma_ns(s, nf);
    g[0][1] = aem1::gamma_ns(s) * e2;
    g[1][1] = if plus { as1aem1::gamma_nsp(s, &m) } else { as1aem1::gamma_nsm(s, &m) } * e2;
    if order_qcd >= 2 {
        g[2][0] = if plus { as2::gamma_nsp(s, nf) } else { as2::gamma_nsm(s, nf) };
    }
    if order_qed >= 2 {
        g[0][2] = if plus { aem2::gamma_nsp(s, &m, nf, e2) } else { aem2::gamma_nsm(s, &m, nf, e2) } * e2;
    }
    if order_qcd >= 3 {
        g[3][0] = if plus { as3::gamma_nsp(s, nf) } else { as3::gamma_nsm(s, nf) };
    }
    if order_qcd >= 4 {
        let c = n3lo_of(order_qcd, n3lo);
        let sector = if plus { MODE_NS_PLUS } else { MODE_NS_MINUS };
        g[4][0] = as4::gamma_ns(sector, c.sums, nf, &c.variation, c.set);
    }
    g
}

/// The grids of the four modes in `NS_MODES` order, each bitwise
/// `gamma_ns_qed` of its mode, sharing the sums and the QCD entries (the N3LO
/// ones through `as4::gamma_ns_all`, one basis for ns+ and ns-).
pub fn gamma_ns_qed_all(order_qcd: u32, order_qed: u32, s: &Sums, nf: u32, n3lo: Option<&N3lo>) -> [NsQed; 4] {
    let m = MixedSums::new(s);
    let mut qcd = [[C64::ZERO; 2]; 5]; // [i][ns+, ns-]
    let ns0 = as1::gamma_ns(s, nf);
    qcd[1] = [ns0, ns0];
    if order_qcd >= 2 {
        qcd[2] = [as2::gamma_nsp(s, nf), as2::gamma_nsm(s, nf)];
    }
    if order_qcd >= 3 {
        qcd[3] = [as3::gamma_nsp(s, nf), as3::gamma_nsm(s, nf)];
    }
    if order_qcd >= 4 {
        let c = n3lo_of(order_qcd, n3lo);
        let [plus, minus, _] = as4::gamma_ns_all(c.sums, nf, &c.variation, c.set);
        qcd[4] = [plus, minus];
    }
    let aem1_ns = aem1::gamma_ns(s);
    let mixed = [as1aem1::gamma_nsp(s, &m), as1aem1::gamma_nsm(s, &m)];
    let mut out = [[[C64::ZERO; 3]; 5]; 4];
    for (g, mode) in out.iter_mut().zip(NS_MODES) {
        let (plus, e2) = mode_parts(mode).expect("NS_MODES are the QED modes");
        let k = if plus { 0 } else { 1 };
        for i in 1..=order_qcd as usize {
            g[i][0] = qcd[i][k];
        }
        g[0][1] = aem1_ns * e2;
        g[1][1] = mixed[k] * e2;
        if order_qed >= 2 {
            g[0][2] = aem2::gamma_ns_from_mixed(mixed[k], s, nf, e2) * e2;
        }
    }
    out
}

fn diag2(a: C64, b: C64) -> [[C64; 2]; 2] {
    [[a, C64::ZERO], [C64::ZERO, b]]
}

/// eko's `gamma_valence_qed`: the grid of 2x2 matrices on (V, V_Delta).
pub fn gamma_valence_qed(order_qcd: u32, order_qed: u32, s: &Sums, nf: u32, n3lo: Option<&N3lo>) -> ValenceQed {
    let mut g = [[[[C64::ZERO; 2]; 2]; 3]; 5];
    let m = MixedSums::new(s);
    let ns0 = as1::gamma_ns(s, nf);
    g[1][0] = diag2(ns0, ns0);
    g[0][1] = aem1::gamma_valence(s, nf);
    g[1][1] = as1aem1::gamma_valence(s, &m, nf);
    if order_qcd >= 2 {
        let nsm = as2::gamma_nsm(s, nf);
        g[2][0] = diag2(nsm, nsm);
    }
    if order_qed >= 2 {
        g[0][2] = aem2::gamma_valence(s, &m, nf);
    }
    if order_qcd >= 3 {
        g[3][0] = diag2(as3::gamma_nsv(s, nf), as3::gamma_nsm(s, nf));
    }
    if order_qcd >= 4 {
        let c = n3lo_of(order_qcd, n3lo);
        // as4::gamma_ns reads entry 6 for nsV and 5 for ns- (FHMRUVV), none otherwise
        let v = as4::gamma_ns(MODE_NS_VALENCE, c.sums, nf, &c.variation, c.set);
        let minus = as4::gamma_ns(MODE_NS_MINUS, c.sums, nf, &c.variation, c.set);
        g[4][0] = diag2(v, minus);
    }
    g
}

/// The QCD singlet of one order on the 4x4 basis: gg, gq, qg, qq and ns+.
fn singlet_qcd(gg: C64, gq: C64, qg: C64, qq: C64, nsp: C64) -> [[C64; 4]; 4] {
    let z = C64::ZERO;
    [[gg, z, gq, z], [z, z, z, z], [qg, z, qq, z], [z, z, z, nsp]]
}

/// eko's `gamma_singlet_qed`: the grid of 4x4 matrices on (g, photon, Sigma,
/// Sigma_Delta). At order_qcd 4 the FHMRUVV singlet exists for nf 3..5 only
/// (NaN entries otherwise; `as4::check_singlet_nf`).
pub fn gamma_singlet_qed(order_qcd: u32, order_qed: u32, s: &Sums, nf: u32, n3lo: Option<&N3lo>) -> SingletQed {
    let mut g = [[[[C64::ZERO; 4]; 4]; 3]; 5];
    let m = MixedSums::new(s);
    let ns0 = as1::gamma_ns(s, nf);
    g[1][0] = singlet_qcd(as1::gamma_gg(s, nf), as1::gamma_gq(s, nf), as1::gamma_qg(s, nf), ns0, ns0);
    g[0][1] = aem1::gamma_singlet(s, nf);
    g[1][1] = as1aem1::gamma_singlet(s, &m, nf);
    if order_qcd >= 2 {
        let nsp = as2::gamma_nsp(s, nf);
        let qq = nsp + as2::gamma_ps(s, nf);
        g[2][0] = singlet_qcd(as2::gamma_gg(s, nf), as2::gamma_gq(s, nf), as2::gamma_qg(s, nf), qq, nsp);
    }
    if order_qed >= 2 {
        g[0][2] = aem2::gamma_singlet(s, &m, nf);
    }
    if order_qcd >= 3 {
        let nsp = as3::gamma_nsp(s, nf);
        let qq = nsp + as3::gamma_ps(s, nf);
        g[3][0] = singlet_qcd(as3::gamma_gg(s, nf), as3::gamma_gq(s, nf), as3::gamma_qg(s, nf), qq, nsp);
    }
    if order_qcd >= 4 {
        let c = n3lo_of(order_qcd, n3lo);
        let [qq, qg, gq, gg] = as4::gamma_singlet(c.sums, nf, &c.variation, c.set);
        // eko's FHMRUVV singlet_qed evaluates this ns+ with the qq entry (3)
        let mut v = c.variation;
        v[4] = v[3];
        let nsp = as4::gamma_ns(MODE_NS_PLUS, c.sums, nf, &v, c.set);
        g[4][0] = singlet_qcd(gg, gq, qg, qq, nsp);
    }
    g
}
