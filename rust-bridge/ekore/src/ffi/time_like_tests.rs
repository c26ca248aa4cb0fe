//! Tests of the time-like C ABI (`*_tl`): the documented layouts (bitwise the
//! `time_like` towers; eko's singlet layout against eko's own values), every
//! bad argument named in the message with nothing written, the poles, and no
//! allocation per call.

use super::tests::{allocs, last};
use super::*;
use crate::complex::C64;
use crate::harmonics::Sums;
use crate::time_like::reference::CASES;
use crate::time_like::{self, ome, NsMode};
use std::ptr::{null, null_mut};

const POISON: f64 = -4321.5;
const PTS_RE: [f64; 4] = [2.5, 7.25, -2.5, 30.0];
const PTS_IM: [f64; 4] = [1.5, -20.0, 3.0, 0.0];

fn to_c(re: &[f64], im: &[f64]) -> Vec<C64> {
    re.iter().zip(im).map(|(a, b)| C64::new(*a, *b)).collect()
}

fn ns_all(order: u32, re: &[f64], im: &[f64], nf: u32) -> (i32, Vec<f64>, Vec<f64>) {
    let w = 3 * order.clamp(1, 3) as usize * re.len();
    let (mut o_re, mut o_im) = (vec![POISON; w], vec![POISON; w]);
    let code = ekore_gamma_ns_all_batch_tl(order, re.as_ptr(), im.as_ptr(), re.len(), nf, o_re.as_mut_ptr(), o_im.as_mut_ptr());
    (code, o_re, o_im)
}

fn singlet(order: u32, re: &[f64], im: &[f64], nf: u32) -> (i32, Vec<f64>, Vec<f64>) {
    let w = 4 * order.clamp(1, 3) as usize * re.len();
    let (mut o_re, mut o_im) = (vec![POISON; w], vec![POISON; w]);
    let code = ekore_gamma_singlet_batch_tl(order, re.as_ptr(), im.as_ptr(), re.len(), nf, o_re.as_mut_ptr(), o_im.as_mut_ptr());
    (code, o_re, o_im)
}

fn untouched(v: &[f64]) -> bool {
    v.iter().all(|x| *x == POISON)
}

#[test]
fn batch_layouts_are_the_towers() {
    for order in 1..=3u32 {
        for nf in 3..=6u32 {
            let o = order as usize;
            let (code, re, im) = ns_all(order, &PTS_RE, &PTS_IM, nf);
            assert_eq!(code, EKORE_OK, "{}", last());
            let got = to_c(&re, &im);
            let (code, sre, sim) = singlet(order, &PTS_RE, &PTS_IM, nf);
            assert_eq!(code, EKORE_OK, "{}", last());
            let got_s = to_c(&sre, &sim);
            for p in 0..PTS_RE.len() {
                let s = Sums::new(C64::new(PTS_RE[p], PTS_IM[p])).unwrap();
                for (m, mode) in NsMode::ALL.iter().enumerate() {
                    let t = time_like::gamma_ns_tower(order, *mode, &s, nf);
                    assert_eq!(&got[(3 * p + m) * o..(3 * p + m + 1) * o], &t[..o], "p={p} m={m} order={order}");
                }
                let t = time_like::gamma_singlet_tower(order, &s, nf);
                for k in 0..o {
                    let b = (p * o + k) * 4;
                    assert_eq!(&got_s[b..b + 4], &[t[k][0][0], t[k][0][1], t[k][1][0], t[k][1][1]]);
                }
            }
        }
    }
}

/// The singlet layout is eko's array, not its transpose: [0][1] is eko's
/// gamma_gq (nf times larger than gamma_qg at large N).
#[test]
fn singlet_layout_is_ekos() {
    let case = &CASES[0];
    let (code, re, im) = singlet(3, &[case.n.0], &[case.n.1], case.nf);
    assert_eq!(code, EKORE_OK);
    let got = to_c(&re, &im);
    for k in 0..3 {
        for (idx, (i, j)) in [(0, 0), (0, 1), (1, 0), (1, 1)].iter().enumerate() {
            let w = C64::new(case.singlet[k][*i][*j].0, case.singlet[k][*i][*j].1);
            assert!((got[4 * k + idx] - w).abs() <= 1e-12 * w.abs(), "k={k} [{i}][{j}]");
        }
    }
}

#[test]
fn omes_layout() {
    for case in CASES.iter() {
        let (mut re, mut im) = ([POISON; 9], [POISON; 9]);
        assert_eq!(ekore_ome_singlet_tl(1, case.n.0, case.n.1, case.nf, case.l, re.as_mut_ptr(), im.as_mut_ptr()), EKORE_OK);
        let a = ome::a_singlet_1(C64::new(case.n.0, case.n.1), case.l);
        assert_eq!(to_c(&re, &im), a.as_flattened());
        let (mut re, mut im) = ([POISON; 5], [POISON; 5]);
        assert_eq!(ekore_ome_ns_tl(1, case.n.0, case.n.1, case.nf, case.l, re.as_mut_ptr(), im.as_mut_ptr()), EKORE_OK);
        assert!(re[..4].iter().chain(&im[..4]).all(|x| *x == 0.0) && re[4] == POISON, "4 zeros written");
    }
}

#[test]
fn bad_arguments_are_named() {
    let (re, im) = ([2.5, 1.0, 3.0], [1.0, 0.0, 0.0]);
    let mut o = [POISON; 64];
    let mut o2 = [POISON; 64];
    let f_ns = |order, nf, re: &[f64], im: &[f64], o: &mut [f64; 64], o2: &mut [f64; 64]| {
        ekore_gamma_ns_all_batch_tl(order, re.as_ptr(), im.as_ptr(), re.len(), nf, o.as_mut_ptr(), o2.as_mut_ptr())
    };
    assert_eq!(f_ns(0, 4, &re, &im, &mut o, &mut o2), EKORE_ERR_ORDER);
    assert!(last().contains("order = 0 outside 1..3"), "{}", last());
    assert_eq!(f_ns(4, 4, &re, &im, &mut o, &mut o2), EKORE_ERR_ORDER);
    assert_eq!(f_ns(2, 7, &re, &im, &mut o, &mut o2), EKORE_ERR_NF);
    assert!(last().contains("nf = 7"), "{}", last());
    // N = 1 is fine for the non-singlet, a pole of the singlet (point 1 named)
    assert_eq!(f_ns(3, 4, &re, &im, &mut o, &mut o2), EKORE_OK);
    let (mut o, mut o2) = ([POISON; 64], [POISON; 64]);
    let code = ekore_gamma_singlet_batch_tl(2, re.as_ptr(), im.as_ptr(), 3, 4, o.as_mut_ptr(), o2.as_mut_ptr());
    assert_eq!(code, EKORE_ERR_DOMAIN);
    assert!(last().contains("ekore_gamma_singlet_batch_tl: N[1] = (1, 0) is on the pole N = 1"), "{}", last());
    assert!(untouched(&o) && untouched(&o2));
    let (re0, im0) = ([2.0, -3.0], [0.0, 0.0]);
    assert_eq!(f_ns(1, 4, &re0, &im0, &mut o, &mut o2), EKORE_ERR_DOMAIN);
    assert!(last().contains("N[1] = (-3, 0) is on the pole N = -3"), "{}", last());
    assert_eq!(ekore_gamma_singlet_batch_tl(1, null(), im.as_ptr(), 1, 4, o.as_mut_ptr(), o2.as_mut_ptr()), EKORE_ERR_NULL);
    assert!(last().contains("n_re is NULL"), "{}", last());
    assert_eq!(ekore_gamma_ns_all_batch_tl(1, re.as_ptr(), im.as_ptr(), 1, 4, o.as_mut_ptr(), null_mut()), EKORE_ERR_NULL);
    assert!(last().contains("out_im is NULL"), "{}", last());
    assert!(untouched(&o) && untouched(&o2));
    // OMEs: order 1 only, L finite, nf checked, the singlet pole at N = 1
    assert_eq!(ekore_ome_singlet_tl(2, 2.5, 0.0, 4, 0.0, o.as_mut_ptr(), o2.as_mut_ptr()), EKORE_ERR_ORDER);
    assert!(last().contains("ekore_ome_singlet_tl: order = 2 is not 1"), "{}", last());
    assert_eq!(ekore_ome_ns_tl(0, 2.5, 0.0, 4, 0.0, o.as_mut_ptr(), o2.as_mut_ptr()), EKORE_ERR_ORDER);
    assert_eq!(ekore_ome_ns_tl(1, 2.5, 0.0, 2, 0.0, o.as_mut_ptr(), o2.as_mut_ptr()), EKORE_ERR_NF);
    assert_eq!(ekore_ome_ns_tl(1, 2.5, 0.0, 4, f64::NAN, o.as_mut_ptr(), o2.as_mut_ptr()), EKORE_ERR_DOMAIN);
    assert!(last().contains("L = NaN"), "{}", last());
    assert_eq!(ekore_ome_singlet_tl(1, 1.0, 0.0, 4, 0.0, o.as_mut_ptr(), o2.as_mut_ptr()), EKORE_ERR_DOMAIN);
    assert!(last().contains("is on the pole N = 1"), "{}", last());
    assert_eq!(ekore_ome_ns_tl(1, 1.0, 0.0, 4, 0.0, o.as_mut_ptr(), o2.as_mut_ptr()), EKORE_OK);
    let mut o3 = [POISON; 9];
    assert_eq!(ekore_ome_singlet_tl(1, 2.0, 0.0, 4, 0.0, null_mut(), o3.as_mut_ptr()), EKORE_ERR_NULL);
    assert!(last().contains("out_re is NULL"));
    assert!(untouched(&o3));
}

#[test]
fn tl_calls_do_not_allocate() {
    let (mut o, mut o2) = ([0.0; 64], [0.0; 64]);
    let mut call = || {
        [
            ekore_gamma_ns_all_batch_tl(3, PTS_RE.as_ptr(), PTS_IM.as_ptr(), 4, 5, o.as_mut_ptr(), o2.as_mut_ptr()),
            ekore_gamma_singlet_batch_tl(3, PTS_RE.as_ptr(), PTS_IM.as_ptr(), 4, 5, o.as_mut_ptr(), o2.as_mut_ptr()),
            ekore_ome_ns_tl(1, 2.5, 1.5, 4, 0.3, o.as_mut_ptr(), o2.as_mut_ptr()),
            ekore_ome_singlet_tl(1, 2.5, 1.5, 4, 0.3, o.as_mut_ptr(), o2.as_mut_ptr()),
            ekore_ome_singlet_tl(2, 2.5, 1.5, 4, 0.3, o.as_mut_ptr(), o2.as_mut_ptr()),
        ]
    };
    let want = [EKORE_OK, EKORE_OK, EKORE_OK, EKORE_OK, EKORE_ERR_ORDER];
    assert_eq!(call(), want);
    let before = allocs();
    for _ in 0..100 {
        assert_eq!(call(), want);
    }
    assert_eq!(allocs() - before, 0);
}
