//! Tests of the polarized anomalous dimensions and OMEs against eko 0.15.7
//! (`reference`, written by rust-bridge/ekore/tests/gen_pol_reference.py) at
//! every order, and of the relations that hold in eko: how the sectors are
//! filled, the first moments (N = 1) and the non-singlet OME shared with the
//! unpolarized one.

use super::reference::{Case, C, CASES};
use super::*;
use crate::beta::{beta_0, beta_1, beta_2};
use crate::constants::CF;

/// Elementwise relative tolerance against eko; the absolute floor is this times
/// the largest entry of the block compared, at least 1 (the quantities are O(1)
/// and larger; an entry that vanishes by cancellation is compared absolutely).
const RTOL: f64 = 1e-12;

fn c(z: C) -> C64 {
    C64::new(z.0, z.1)
}

fn sums(n: C64) -> Sums {
    Sums::new(n).unwrap()
}

fn check(got: &[C64], want: &[C], what: &str) {
    let scale = want.iter().map(|w| c(*w).abs()).fold(1.0, f64::max);
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        let w = c(*w);
        let err = (*g - w).abs();
        assert!(err <= RTOL * (w.abs() + scale), "{what}[{k}]: {g:?} vs eko {w:?} (|diff| {err:e}, scale {scale:e})");
    }
}

fn flat<const R: usize, const K: usize>(m: &[[C64; K]; R]) -> Vec<C64> {
    m.iter().flatten().copied().collect()
}

fn flat_ref<const R: usize, const K: usize>(m: &[[C; K]; R]) -> Vec<C> {
    m.iter().flatten().copied().collect()
}

fn tag(k: usize, case: &Case) -> String {
    format!("case {k} (N = {:?}, nf {}, L {})", case.n, case.nf, case.l)
}

/// Every order 1..3 of every sector: the first `order` entries equal eko's,
/// the rest are exactly 0.
#[test]
fn anomalous_dimensions_match_eko_at_every_order() {
    for (k, case) in CASES.iter().enumerate() {
        let s = sums(c(case.n));
        for order in 1..=MAX_ORDER {
            let t = format!("{} order {order}", tag(k, case));
            let o = order as usize;
            // the three towers as one block (at N = 1 ns+ is a cancellation to ~1e-4)
            let ns = gamma_ns_towers(order, &s, case.nf);
            let got: Vec<C64> = ns.iter().flat_map(|m| m[..o].to_vec()).collect();
            let want: Vec<C> = case.ns.iter().flat_map(|m| m[..o].to_vec()).collect();
            check(&got, &want, &format!("{t} ns [mode][k]"));
            for m in 0..3 {
                assert!(ns[m][o..].iter().all(|z| *z == C64::ZERO), "{t} ns mode {m} beyond the order");
            }
            let sg = gamma_singlet_tower(order, &s, case.nf);
            for i in 0..3 {
                if i < o {
                    check(&flat(&sg[i]), &flat_ref(&case.singlet[i]), &format!("{t} singlet [{i}]"));
                } else {
                    assert!(flat(&sg[i]).iter().all(|z| *z == C64::ZERO), "{t} singlet [{i}] beyond the order");
                }
            }
        }
    }
}

/// Matching orders 1 and 2: A^(k) equal eko's for k < order, 0 beyond.
#[test]
fn omes_match_eko_at_every_order() {
    for (k, case) in CASES.iter().enumerate() {
        let s = sums(c(case.n));
        for order in 1..=MAX_OME_ORDER {
            let t = format!("{} order {order}", tag(k, case));
            let a = a_singlet(order, &s, case.nf, case.l);
            let b = a_non_singlet(order, &s, case.l);
            for i in 0..2 {
                if i < order as usize {
                    check(&flat(&a[i]), &flat_ref(&case.ome_singlet[i]), &format!("{t} A_singlet [{i}]"));
                    check(&flat(&b[i]), &flat_ref(&case.ome_ns[i]), &format!("{t} A_non_singlet [{i}]"));
                } else {
                    assert!(flat(&a[i]).iter().chain(flat(&b[i]).iter()).all(|z| *z == C64::ZERO), "{t} [{i}]");
                }
            }
        }
    }
}

/// eko's filling of the sectors: LO common to all three, NLO ns- = nsV, the
/// polarized ns+/ns- the unpolarized ns-/ns+, nsV^(2) = ns-^(2) + the sea part.
#[test]
fn sectors_are_filled_as_eko() {
    for case in CASES.iter() {
        let s = sums(c(case.n));
        let nf = case.nf;
        let g = gamma_ns_towers(3, &s, nf);
        assert!(g[0][0] == g[1][0] && g[1][0] == g[2][0]);
        assert_eq!(g[0][0], crate::as1::gamma_ns(&s, nf));
        assert_eq!(g[1][1], g[2][1]);
        assert_eq!(g[0][1], crate::as2::gamma_nsm(&s, nf));
        assert_eq!(g[1][1], crate::as2::gamma_nsp(&s, nf));
        assert_eq!(g[0][2], crate::as3::gamma_nsm(&s, nf));
        assert_eq!(g[1][2], crate::as3::gamma_nsp(&s, nf));
        assert_eq!(g[2][2], g[1][2] + as3::gamma_nss(&s, nf));
        assert_ne!(g[2][2], g[1][2]);
        // gamma_qq = ns+ + ps at NLO and NNLO
        let sg = gamma_singlet_tower(3, &s, nf);
        assert_eq!(sg[0][0][0], g[0][0]);
        assert_eq!(sg[1][0][0], g[0][1] + as2::gamma_ps(&s, nf));
        let ps2 = sg[2][0][0] - g[0][2];
        assert!((ps2 - as3::gamma_ps(&s, nf)).abs() <= 1e-13 * sg[2][0][0].abs());
    }
}

/// First moments (N = 1) as eko gives them: LO exact (qq = qg = 0, gq = -3 C_F,
/// gg = -beta_0); NLO qg = 0, ps = 8 nf, gg = -beta_1 and ns+ = 0 up to the
/// Pegasus g_3 (3.2e-5 and 1.6e-6, the same for every nf); NNLO gg = -beta_2
/// and qg = 0 up to the [MVV14] parametrisation (2e-2 and 5e-3 absolute).
#[test]
fn first_moments() {
    let s = sums(C64::ONE);
    let mut g3_shift = None;
    for nf in 3..=6u32 {
        let g = gamma_singlet_tower(3, &s, nf);
        let ns = gamma_ns_towers(3, &s, nf);
        assert!(g[0][0][0].abs() < 1e-14 && g[0][0][1] == C64::ZERO, "nf {nf} LO qq, qg");
        assert!((g[0][1][0] - C64::real(-3.0 * CF)).abs() < 1e-14, "nf {nf} LO gq");
        assert!((g[0][1][1] + beta_0(nf)).abs() < 1e-13, "nf {nf} LO gg");
        assert!(g[1][0][1].abs() < 1e-12, "nf {nf} NLO qg {:?}", g[1][0][1]);
        assert!((as2::gamma_ps(&s, nf) - C64::real(8.0 * nf as f64)).abs() < 1e-13);
        let shift = g[1][1][1] + beta_1(nf);
        assert!(shift.abs() < 5e-5 && shift.im == 0.0, "nf {nf} NLO gg + beta_1 = {shift:?}");
        let prev = *g3_shift.get_or_insert(shift);
        assert!((shift - prev).abs() < 1e-11, "nf {nf}: the g_3 shift depends on nf");
        assert!(ns[0][1].abs() < 2e-6, "nf {nf} NLO ns+ {:?}", ns[0][1]);
        assert!((g[2][1][1] + beta_2(nf)).abs() < 2e-2, "nf {nf} NNLO gg {:?}", g[2][1][1]);
        assert!(g[2][0][1].abs() < 5e-3, "nf {nf} NNLO qg {:?}", g[2][0][1]);
    }
}

/// The OMEs at N = 1: A_Hg vanishes at both orders and A_qq,H^NS (quark number)
/// at O(a_s^2), for every L; the polarized A_qq,H^NS is the unpolarized one.
#[test]
fn ome_relations() {
    let one = sums(C64::ONE);
    for &l in &[0.0, 1.3, -0.7] {
        for nf in 3..=6u32 {
            let a = a_singlet(2, &one, nf, l);
            assert!(a[0][2][0].abs() < 1e-15 && a[1][2][0].abs() < 1e-12, "A_Hg(1) at L {l}: {:?}", a[1][2][0]);
            assert!(a[1][1][1].abs() < 1e-13, "A_qq,H^NS(1) at L {l}: {:?}", a[1][1][1]);
        }
        for case in CASES.iter() {
            let s = sums(c(case.n));
            let pol = a_non_singlet(2, &s, l)[1][0][0];
            let unpol = crate::ome::a_ns_2(&s, 3, l)[0][0];
            assert!((pol - unpol).abs() <= 1e-13 * unpol.abs().max(1.0), "N {:?}: {pol:?} vs {unpol:?}", case.n);
            assert_eq!(a_singlet(2, &s, case.nf, l)[1][1][1], pol);
        }
    }
}
