//! Tests of the polarized entry points (`ekore_*_pol`): the documented layouts
//! (each value bitwise that of `crate::polarized`), the same layouts as the
//! unpolarized functions they mirror where the two coincide (the LO
//! non-singlet, A_gg,H^(1)), N = 1 accepted, every bad argument named with
//! nothing written, and no allocation per call.

use super::tests::{allocs, last};
use super::*;
use crate::complex::C64;
use crate::harmonics::Sums;
use crate::polarized;
use std::ptr::{null, null_mut};

const POISON: f64 = -4321.5;
const PTS_RE: [f64; 4] = [2.5, 7.25, 1.0, -3.5];
const PTS_IM: [f64; 4] = [1.5, -20.0, 0.0, 2.0];

type Batch = extern "C" fn(u32, *const f64, *const f64, usize, u32, *mut f64, *mut f64) -> i32;
type Ome = extern "C" fn(u32, f64, f64, u32, f64, *mut f64, *mut f64) -> i32;

fn batch(f: Batch, order: u32, width: usize, re: &[f64], im: &[f64], nf: u32) -> (i32, Vec<C64>) {
    let len = width * re.len();
    let mut out_re = vec![POISON; len.max(1)];
    let mut out_im = vec![POISON; len.max(1)];
    let code = f(order, re.as_ptr(), im.as_ptr(), re.len(), nf, out_re.as_mut_ptr(), out_im.as_mut_ptr());
    (code, out_re.iter().zip(&out_im).map(|(a, b)| C64::new(*a, *b)).collect())
}

fn ome(f: Ome, order: u32, n: C64, nf: u32, l: f64) -> (i32, Vec<C64>) {
    let mut out_re = [POISON; 32];
    let mut out_im = [POISON; 32];
    let code = f(order, n.re, n.im, nf, l, out_re.as_mut_ptr(), out_im.as_mut_ptr());
    (code, out_re.iter().zip(&out_im).map(|(a, b)| C64::new(*a, *b)).collect())
}

fn untouched(v: &[C64]) -> bool {
    v.iter().all(|z| z.re == POISON && z.im == POISON)
}

#[test]
fn batches_have_the_documented_layout() {
    for order in 1..=3u32 {
        for nf in 3..=6u32 {
            let w = order as usize;
            let (code, ns) = batch(ekore_gamma_ns_all_batch_pol, order, 3 * w, &PTS_RE, &PTS_IM, nf);
            assert_eq!(code, EKORE_OK, "{}", last());
            let (code, sg) = batch(ekore_gamma_singlet_batch_pol, order, 4 * w, &PTS_RE, &PTS_IM, nf);
            assert_eq!(code, EKORE_OK, "{}", last());
            for p in 0..PTS_RE.len() {
                let s = Sums::new(C64::new(PTS_RE[p], PTS_IM[p])).unwrap();
                let t = polarized::gamma_ns_towers(order, &s, nf);
                for m in 0..3 {
                    for k in 0..w {
                        assert_eq!(ns[(3 * p + m) * w + k], t[m][k], "ns order {order} point {p} mode {m} k {k}");
                    }
                }
                let g = polarized::gamma_singlet_tower(order, &s, nf);
                for k in 0..w {
                    let want = [g[k][0][0], g[k][0][1], g[k][1][0], g[k][1][1]];
                    assert_eq!(&sg[(p * w + k) * 4..(p * w + k) * 4 + 4], &want, "singlet order {order} point {p} k {k}");
                }
            }
        }
    }
}

/// Where polarized and unpolarized coincide the layouts agree entry for entry:
/// the LO non-singlet sectors, and the O(a_s) A_gg,H (the only entry of the
/// polarized A^(1) outside the H row).
#[test]
fn layouts_match_the_unpolarized_functions() {
    let (re, im) = (&PTS_RE[..2], &PTS_IM[..2]);
    let (_, pol) = batch(ekore_gamma_ns_all_batch_pol, 1, 3, re, im, 4);
    let (code, unpol) = batch(ekore_gamma_ns_all_batch, 1, 3, re, im, 4);
    assert_eq!(code, EKORE_OK);
    assert_eq!(pol, unpol);
    let n = C64::new(2.5, 1.5);
    let (_, pol) = ome(ekore_ome_singlet_pol, 1, n, 4, 1.3);
    let (code, unpol) = ome(ekore_ome_singlet, 1, n, 4, 1.3);
    assert_eq!(code, EKORE_OK);
    assert_eq!(pol[0], unpol[0]);
    // A^(2)_qq,H^NS sits at [1][1] of the singlet and [0][0] of the non-singlet, as unpolarized
    let (_, s2) = ome(ekore_ome_singlet_pol, 2, n, 4, 1.3);
    let (_, ns2) = ome(ekore_ome_ns_pol, 2, n, 4, 1.3);
    let (_, uns2) = ome(ekore_ome_ns, 2, n, 4, 1.3);
    assert_eq!(s2[9 + 4], ns2[4]);
    assert!((ns2[4] - uns2[4]).abs() < 1e-13 * uns2[4].abs());
}

#[test]
fn omes_have_the_documented_layout() {
    for &n in &[C64::new(2.5, 1.5), C64::ONE, C64::new(-2.5, 7.0)] {
        for order in 1..=2u32 {
            for &l in &[0.0, 1.3, -0.7] {
                let s = Sums::new(n).unwrap();
                let (code, a) = ome(ekore_ome_singlet_pol, order, n, 5, l);
                assert_eq!(code, EKORE_OK, "{}", last());
                let want = polarized::a_singlet(order, &s, 5, l);
                for k in 0..order as usize {
                    let flat: Vec<C64> = want[k].iter().flatten().copied().collect();
                    assert_eq!(&a[9 * k..9 * k + 9], &flat[..]);
                }
                assert!(untouched(&a[9 * order as usize..]));
                let (code, b) = ome(ekore_ome_ns_pol, order, n, 5, l);
                assert_eq!(code, EKORE_OK, "{}", last());
                let want = polarized::a_non_singlet(order, &s, l);
                for k in 0..order as usize {
                    let flat: Vec<C64> = want[k].iter().flatten().copied().collect();
                    assert_eq!(&b[4 * k..4 * k + 4], &flat[..]);
                }
                assert!(untouched(&b[4 * order as usize..]));
                assert!(b[..4].iter().all(|z| *z == C64::ZERO), "A^(1) non-singlet is 0");
            }
        }
    }
}

#[test]
fn bad_arguments_are_named_and_nothing_is_written() {
    let f: Batch = ekore_gamma_ns_all_batch_pol;
    for (order, re, im, nf, code, msg) in [
        (4u32, 2.5, 0.0, 4u32, EKORE_ERR_ORDER, "order = 4 outside 1..3"),
        (0, 2.5, 0.0, 4, EKORE_ERR_ORDER, "order = 0 outside 1..3"),
        (2, 2.5, 0.0, 7, EKORE_ERR_NF, "nf = 7 outside 3..6"),
        (2, 0.0, 0.0, 4, EKORE_ERR_DOMAIN, "N[1] = (0, 0) is on the pole N = 0"),
        (2, -2.0, 0.0, 4, EKORE_ERR_DOMAIN, "N[1] = (-2, 0) is on the pole N = -2"),
        (2, f64::NAN, 0.0, 4, EKORE_ERR_DOMAIN, "N[1] = (NaN, 0) is not finite"),
    ] {
        for (g, name) in [(f, "ekore_gamma_ns_all_batch_pol"), (ekore_gamma_singlet_batch_pol as Batch, "ekore_gamma_singlet_batch_pol")] {
            let (got, out) = batch(g, order, 12, &[2.0, re], &[0.0, im], nf);
            assert_eq!(got, code, "{name}: {}", last());
            assert_eq!(last(), format!("{name}: {msg}"));
            assert!(untouched(&out), "{name}: written on error");
        }
    }
    let mut o = [0.0; 4];
    assert_eq!(f(1, null(), PTS_IM.as_ptr(), 1, 4, o.as_mut_ptr(), o.as_mut_ptr()), EKORE_ERR_NULL);
    assert_eq!(last(), "ekore_gamma_ns_all_batch_pol: n_re is NULL");
    for (g, name) in [(ekore_ome_ns_pol as Ome, "ekore_ome_ns_pol"), (ekore_ome_singlet_pol as Ome, "ekore_ome_singlet_pol")] {
        for (order, n, nf, l, code, msg) in [
            (3u32, C64::new(2.5, 0.0), 4u32, 0.0, EKORE_ERR_ORDER, "order = 3 outside 1..2"),
            (2, C64::new(2.5, 0.0), 2, 0.0, EKORE_ERR_NF, "nf = 2 outside 3..6"),
            (2, C64::new(2.5, 0.0), 4, f64::INFINITY, EKORE_ERR_DOMAIN, "L = inf is not finite"),
            (2, C64::new(-1.0, 0.0), 4, 0.0, EKORE_ERR_DOMAIN, "N = (-1, 0) is on the pole N = -1"),
        ] {
            let (got, out) = ome(g, order, n, nf, l);
            assert_eq!(got, code, "{name}: {}", last());
            assert_eq!(last(), format!("{name}: {msg}"));
            assert!(untouched(&out), "{name}: written on error");
        }
        assert_eq!(g(1, 2.0, 0.0, 4, 0.0, null_mut(), o.as_mut_ptr()), EKORE_ERR_NULL);
        assert_eq!(last(), format!("{name}: out_re is NULL"));
    }
}

#[test]
fn no_allocation_per_call() {
    let mut o_re = [0.0; 64];
    let mut o_im = [0.0; 64];
    let mut call = || {
        let a = ekore_gamma_ns_all_batch_pol(3, PTS_RE.as_ptr(), PTS_IM.as_ptr(), 4, 4, o_re.as_mut_ptr(), o_im.as_mut_ptr());
        let b = ekore_gamma_singlet_batch_pol(3, PTS_RE.as_ptr(), PTS_IM.as_ptr(), 4, 4, o_re.as_mut_ptr(), o_im.as_mut_ptr());
        let c = ekore_ome_singlet_pol(2, 2.5, 1.5, 4, 1.3, o_re.as_mut_ptr(), o_im.as_mut_ptr());
        let d = ekore_ome_ns_pol(2, 2.5, 1.5, 4, 1.3, o_re.as_mut_ptr(), o_im.as_mut_ptr());
        [a, b, c, d]
    };
    assert_eq!(call(), [EKORE_OK; 4]); // warm-up: the first touch of thread-locals
    let before = allocs();
    for _ in 0..20 {
        assert_eq!(call(), [EKORE_OK; 4]);
    }
    assert_eq!(allocs() - before, 0, "allocations in the polarized entry points");
}
