//! Tests of `ekore_gamma_qed_batch` / `ekore_gamma_qed_len`: the documented
//! layout (each point's values are the `qed::towers` grids flattened in C
//! order, bitwise), every bad argument named in the message with nothing
//! written, the poles per sector, and no allocation per call.

use super::tests::{allocs, last};
use super::*;
use crate::complex::C64;
use crate::harmonics::Sums;
use crate::qed::{self, N3lo, NS_MODES};
use crate::sums::SumValues;
use std::ptr::{null, null_mut};

const POISON: f64 = -9876.5;
const PTS_RE: [f64; 3] = [2.5, 7.25, 1.6];
const PTS_IM: [f64; 3] = [1.5, -20.0, 0.0];

fn run(sector: u32, oq: u32, oe: u32, n3lo: &ekore_n3lo, re: &[f64], im: &[f64], nf: u32) -> (i32, Vec<C64>) {
    let w = ekore_gamma_qed_len(sector, oq, oe).max(1);
    let mut out_re = vec![POISON; w * re.len()];
    let mut out_im = vec![POISON; w * re.len()];
    let code = ekore_gamma_qed_batch(sector, oq, oe, n3lo, re.as_ptr(), im.as_ptr(), re.len(), nf, out_re.as_mut_ptr(), out_im.as_mut_ptr());
    (code, out_re.iter().zip(&out_im).map(|(a, b)| C64::new(*a, *b)).collect())
}

/// The grid of `sector` at one N from `qed::towers`, flattened as the ABI documents.
fn expected(sector: u32, oq: u32, oe: u32, n: C64, nf: u32, c: &ekore_n3lo) -> Vec<C64> {
    let s = Sums::new(n).unwrap();
    let sv = SumValues::from_sums(&s, sector == EKORE_QED_SINGLET).unwrap();
    let var = c.variation.map(|v| v as u8);
    let ch = N3lo { sums: &sv, variation: var, set: crate::as4::AdSet::from_index(c.use_fhmruvv).unwrap() };
    let n3lo = if oq == 4 { Some(&ch) } else { None };
    let (ni, nj) = (oq as usize + 1, oe as usize + 1);
    let mut v = Vec::new();
    match sector {
        EKORE_QED_NS => {
            for mode in NS_MODES {
                let g = qed::gamma_ns_qed(oq, oe, mode, &s, nf, n3lo);
                for i in 0..ni {
                    v.extend_from_slice(&g[i][..nj]);
                }
            }
        }
        EKORE_QED_VALENCE => {
            let g = qed::gamma_valence_qed(oq, oe, &s, nf, n3lo);
            for i in 0..ni {
                for j in 0..nj {
                    v.extend(g[i][j].iter().flatten());
                }
            }
        }
        _ => {
            let g = qed::gamma_singlet_qed(oq, oe, &s, nf, n3lo);
            for i in 0..ni {
                for j in 0..nj {
                    v.extend(g[i][j].iter().flatten());
                }
            }
        }
    }
    v
}

#[test]
fn len_counts_the_grid() {
    for oq in 1..=4u32 {
        for oe in 1..=2u32 {
            let cells = ((oq + 1) * (oe + 1)) as usize;
            assert_eq!(ekore_gamma_qed_len(EKORE_QED_NS, oq, oe), 4 * cells);
            assert_eq!(ekore_gamma_qed_len(EKORE_QED_VALENCE, oq, oe), 4 * cells);
            assert_eq!(ekore_gamma_qed_len(EKORE_QED_SINGLET, oq, oe), 16 * cells);
        }
    }
    assert_eq!(ekore_gamma_qed_len(EKORE_QED_SINGLET, 4, 2), EKORE_QED_LEN_MAX);
    for (s, q, e) in [(3u32, 1u32, 1u32), (0, 0, 1), (0, 5, 1), (1, 1, 0), (2, 1, 3), (u32::MAX, 2, 2)] {
        assert_eq!(ekore_gamma_qed_len(s, q, e), 0, "({s}, {q}, {e})");
    }
}

#[test]
fn batch_is_the_towers_flattened() {
    let choices = [
        ekore_n3lo { variation: [1, 2, 0, 2, 1, 2, 1], use_fhmruvv: 1 },
        ekore_n3lo { variation: [7, 3, 11, 4, 1, 1, 1], use_fhmruvv: 0 },
    ];
    for c in &choices {
        for nf in [3u32, 5, 6] {
            for sector in [EKORE_QED_NS, EKORE_QED_VALENCE, EKORE_QED_SINGLET] {
                for oq in 1..=4u32 {
                    for oe in 1..=2u32 {
                        let (code, got) = run(sector, oq, oe, c, &PTS_RE, &PTS_IM, nf);
                        if sector == EKORE_QED_SINGLET && oq == 4 && nf == 6 && c.use_fhmruvv == 1 {
                            assert_eq!(code, EKORE_ERR_NF);
                            assert!(last().contains("nf in 3..5"), "{}", last());
                            assert!(got.iter().all(|z| z.re == POISON && z.im == POISON));
                            continue;
                        }
                        assert_eq!(code, EKORE_OK, "{}", last());
                        let w = ekore_gamma_qed_len(sector, oq, oe);
                        for p in 0..PTS_RE.len() {
                            let want = expected(sector, oq, oe, C64::new(PTS_RE[p], PTS_IM[p]), nf, c);
                            assert_eq!(&got[p * w..(p + 1) * w], &want[..], "sector {sector} ({oq}, {oe}) nf {nf} point {p}");
                        }
                        // [0][0] of every block is zero, [1][0] never is
                        let block = if sector == EKORE_QED_SINGLET { 16 } else { 4 };
                        let first_row = if sector == EKORE_QED_NS { 1 } else { block };
                        assert!(got[..first_row].iter().all(|z| *z == C64::ZERO));
                    }
                }
            }
        }
    }
}

#[test]
fn bad_arguments_are_named_and_write_nothing() {
    let c = ekore_n3lo { variation: [0; 7], use_fhmruvv: 1 };
    let mut o_re = [POISON; 512];
    let mut o_im = [POISON; 512];
    let (r, i) = (o_re.as_mut_ptr(), o_im.as_mut_ptr());
    let (nre, nim) = (PTS_RE.as_ptr(), PTS_IM.as_ptr());
    let f = |s, q, e, n3lo: *const ekore_n3lo, a: *const f64, b: *const f64, nf, x: *mut f64, y: *mut f64| {
        ekore_gamma_qed_batch(s, q, e, n3lo, a, b, 3, nf, x, y)
    };
    assert_eq!(f(3, 1, 1, &c, nre, nim, 4, r, i), EKORE_ERR_MODE);
    assert!(last().contains("sector = 3"), "{}", last());
    assert_eq!(f(0, 0, 1, &c, nre, nim, 4, r, i), EKORE_ERR_ORDER);
    assert!(last().contains("order_qcd = 0"), "{}", last());
    assert_eq!(f(1, 5, 1, &c, nre, nim, 4, r, i), EKORE_ERR_ORDER);
    assert_eq!(f(2, 2, 0, &c, nre, nim, 4, r, i), EKORE_ERR_ORDER);
    assert!(last().contains("order_qed = 0"), "{}", last());
    assert_eq!(f(2, 2, 3, &c, nre, nim, 4, r, i), EKORE_ERR_ORDER);
    for nf in [2u32, 7] {
        assert_eq!(f(0, 2, 2, &c, nre, nim, nf, r, i), EKORE_ERR_NF);
        assert!(last().contains(&format!("nf = {nf}")), "{}", last());
    }
    assert_eq!(f(0, 2, 2, &c, null(), nim, 4, r, i), EKORE_ERR_NULL);
    assert!(last().contains("n_re is NULL"));
    assert_eq!(f(1, 2, 2, &c, nre, nim, 4, r, null_mut()), EKORE_ERR_NULL);
    assert!(last().contains("out_im is NULL"));
    assert_eq!(f(2, 4, 1, null(), nre, nim, 4, r, i), EKORE_ERR_NULL);
    assert!(last().contains("n3lo is NULL"));
    assert_eq!(f(2, 3, 1, null(), nre, nim, 4, r, i), EKORE_OK, "n3lo is not read below order_qcd 4");
    let bad = ekore_n3lo { variation: [0; 7], use_fhmruvv: 3 };
    assert_eq!(f(0, 4, 1, &bad, nre, nim, 4, r, i), EKORE_ERR_VARIATION);
    // the FHMRUVV singlet at order_qcd 4 needs nf <= 5; the other sectors do not
    assert_eq!(f(2, 4, 2, &c, nre, nim, 6, r, i), EKORE_ERR_NF);
    o_re = [POISON; 512];
    o_im = [POISON; 512];
    let (r, i) = (o_re.as_mut_ptr(), o_im.as_mut_ptr());
    // poles: N = 1 is one for the singlet only (and for eko's own N3LO nsV in the valence)
    let bre = [2.0, 3.0, 1.0];
    let bim = [0.5, 0.5, 0.0];
    assert_eq!(f(2, 1, 1, &c, bre.as_ptr(), bim.as_ptr(), 4, r, i), EKORE_ERR_DOMAIN);
    assert!(last().contains("N[2] = (1, 0) is on the pole N = 1"), "{}", last());
    let own = ekore_n3lo { variation: [0; 7], use_fhmruvv: 0 };
    assert_eq!(f(1, 4, 1, &own, bre.as_ptr(), bim.as_ptr(), 4, r, i), EKORE_ERR_DOMAIN);
    let nan = [2.0, f64::NAN, 3.0];
    assert_eq!(f(0, 1, 1, &c, nan.as_ptr(), bim.as_ptr(), 4, r, i), EKORE_ERR_DOMAIN);
    assert!(last().contains("N[1]"), "{}", last());
    assert!(o_re.iter().chain(o_im.iter()).all(|x| *x == POISON), "an error wrote output");
    assert_eq!(f(0, 4, 2, &c, bre.as_ptr(), bim.as_ptr(), 4, r, i), EKORE_OK, "non-singlet at N = 1");
    assert_eq!(f(1, 4, 2, &c, bre.as_ptr(), bim.as_ptr(), 4, r, i), EKORE_OK, "valence (FHMRUVV) at N = 1");
    // count 0 writes nothing
    o_re = [POISON; 512];
    assert_eq!(ekore_gamma_qed_batch(2, 4, 2, &c, nre, nim, 0, 4, o_re.as_mut_ptr(), o_im.as_mut_ptr()), EKORE_OK);
    assert!(o_re.iter().all(|x| *x == POISON));
}

#[test]
fn qed_batch_does_not_allocate() {
    let c = ekore_n3lo { variation: [1, 0, 2, 1, 0, 2, 1], use_fhmruvv: 1 };
    let mut o_re = [0.0; 3 * EKORE_QED_LEN_MAX];
    let mut o_im = [0.0; 3 * EKORE_QED_LEN_MAX];
    let mut call = |s: u32, nf: u32| {
        ekore_gamma_qed_batch(s, 4, 2, &c, PTS_RE.as_ptr(), PTS_IM.as_ptr(), 3, nf, o_re.as_mut_ptr(), o_im.as_mut_ptr())
    };
    assert_eq!(call(2, 4), EKORE_OK); // warm-up: the first touch of thread-locals
    let before = allocs();
    for _ in 0..20 {
        for s in 0..3 {
            assert_eq!(call(s, 4), EKORE_OK);
        }
        assert_eq!(call(7, 4), EKORE_ERR_MODE);
    }
    assert_eq!(allocs() - before, 0, "allocations in ekore_gamma_qed_batch");
}
