//! Tests of the packed harmonic sums (`ekore_sums_batch`) and the entry points
//! that read them: the same bits as the entry points that take N, the same
//! checks of N, nothing written on an error, no allocation.

use super::tests::allocs;
use super::*;
use std::ptr::null;

const POINTS: usize = 6;
/// Small and large |N| on both sides of the recurrence limit, a point near
/// the real axis, and N = 1 (a pole of the singlet only).
const NRE: [f64; POINTS] = [0.4, 1.0, 2.5, -0.3, 12.0, 30.0];
const NIM: [f64; POINTS] = [0.7, 0.0, -3.0, 5.0, 0.001, 40.0];

fn packed(n_re: &[f64], n_im: &[f64]) -> Vec<f64> {
    let mut v = vec![f64::NAN; n_re.len() * EKORE_SUMS_LEN];
    assert_eq!(ekore_sums_batch(n_re.as_ptr(), n_im.as_ptr(), n_re.len(), v.as_mut_ptr()), EKORE_OK);
    v
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn sums_entries_have_the_bits_of_the_n_entries() {
    let choices = [ekore_n3lo { variation: [0; 7], use_fhmruvv: 1 }, ekore_n3lo { variation: [3, 4, 1, 2, 0, 0, 0], use_fhmruvv: 0 }];
    // the singlet without its pole at N = 1
    let (sre, sim): (Vec<f64>, Vec<f64>) = NRE.iter().zip(NIM.iter()).filter(|(r, i)| !(**r == 1.0 && **i == 0.0)).unzip();
    let (ns_sums, s_sums) = (packed(&NRE, &NIM), packed(&sre, &sim));
    let (mut checked, mut refused) = (0, 0);
    for choice in &choices {
        for order in 1..=4u32 {
            for nf in 3..=6u32 {
                if order == 4 && nf == 6 && choice.use_fhmruvv == 1 {
                    continue; // FHMRUVV's singlet has no nf = 6
                }
                let w = order as usize;
                let (mut a_re, mut a_im) = (vec![0.0; POINTS * 3 * w], vec![0.0; POINTS * 3 * w]);
                let (mut b_re, mut b_im) = (vec![1.0; POINTS * 3 * w], vec![1.0; POINTS * 3 * w]);
                let ra = ekore_gamma_ns_all_batch_n3lo(order, choice, NRE.as_ptr(), NIM.as_ptr(), POINTS, nf, a_re.as_mut_ptr(), a_im.as_mut_ptr());
                let rb = ekore_gamma_ns_all_batch_sums(order, choice, ns_sums.as_ptr(), POINTS, nf, b_re.as_mut_ptr(), b_im.as_mut_ptr());
                assert_eq!(ra, rb);
                if ra != EKORE_OK {
                    // eko's own N3LO nsV has a pole at N = 1: refused by both
                    assert_eq!((order, choice.use_fhmruvv, ra), (4, 0, EKORE_ERR_DOMAIN));
                    refused += 1;
                } else {
                    assert_eq!((bits(&a_re), bits(&a_im)), (bits(&b_re), bits(&b_im)), "ns order {order} nf {nf}");
                }
                let m = sre.len();
                let (mut a_re, mut a_im) = (vec![0.0; m * 4 * w], vec![0.0; m * 4 * w]);
                let (mut b_re, mut b_im) = (vec![1.0; m * 4 * w], vec![1.0; m * 4 * w]);
                let ra = ekore_gamma_singlet_batch_n3lo(order, choice, sre.as_ptr(), sim.as_ptr(), m, nf, a_re.as_mut_ptr(), a_im.as_mut_ptr());
                let rb = ekore_gamma_singlet_batch_sums(order, choice, s_sums.as_ptr(), m, nf, b_re.as_mut_ptr(), b_im.as_mut_ptr());
                assert_eq!((ra, rb), (EKORE_OK, EKORE_OK));
                assert_eq!((bits(&a_re), bits(&a_im)), (bits(&b_re), bits(&b_im)), "singlet order {order} nf {nf}");
                checked += 1;
            }
        }
    }
    assert_eq!((checked, refused), (31, 4));
}

#[test]
fn ome_sums_entries_have_the_bits_of_the_point_entries() {
    let (sre, sim): (Vec<f64>, Vec<f64>) = NRE.iter().zip(NIM.iter()).filter(|(r, i)| !(**r == 1.0 && **i == 0.0)).unzip();
    let (ns_sums, s_sums) = (packed(&NRE, &NIM), packed(&sre, &sim));
    let mut checked = 0;
    for order in 1..=3u32 {
        for nf in 3..=6u32 {
            for l in [0.0, -0.4, 0.8] {
                for singlet in [false, true] {
                    let (pre, pim, v, w) = if singlet { (&sre[..], &sim[..], &s_sums, 9 * order as usize) } else { (&NRE[..], &NIM[..], &ns_sums, 4 * order as usize) };
                    let m = pre.len();
                    let (mut b_re, mut b_im) = (vec![1.0; m * w], vec![1.0; m * w]);
                    let rb = if singlet {
                        ekore_ome_singlet_batch_sums(order, v.as_ptr(), m, nf, l, b_re.as_mut_ptr(), b_im.as_mut_ptr())
                    } else {
                        ekore_ome_ns_batch_sums(order, v.as_ptr(), m, nf, l, b_re.as_mut_ptr(), b_im.as_mut_ptr())
                    };
                    assert_eq!(rb, EKORE_OK, "{}", super::tests::last());
                    for p in 0..m {
                        let (mut a_re, mut a_im) = (vec![0.0; w], vec![0.0; w]);
                        let ra = if singlet {
                            ekore_ome_singlet(order, pre[p], pim[p], nf, l, a_re.as_mut_ptr(), a_im.as_mut_ptr())
                        } else {
                            ekore_ome_ns(order, pre[p], pim[p], nf, l, a_re.as_mut_ptr(), a_im.as_mut_ptr())
                        };
                        assert_eq!(ra, EKORE_OK);
                        assert_eq!((bits(&a_re), bits(&a_im)), (bits(&b_re[p * w..(p + 1) * w]), bits(&b_im[p * w..(p + 1) * w])));
                        checked += 1;
                    }
                }
            }
        }
    }
    assert_eq!(checked, 3 * 4 * 3 * (POINTS + POINTS - 1));
    // the checks: order, L, and the singlet's pole at N = 1
    let (mut re, mut im) = ([7.0; 64], [7.0; 64]);
    let one = packed(&[1.0], &[0.0]);
    assert_eq!(ekore_ome_ns_batch_sums(4, ns_sums.as_ptr(), 1, 4, 0.0, re.as_mut_ptr(), im.as_mut_ptr()), EKORE_ERR_ORDER);
    assert_eq!(ekore_ome_ns_batch_sums(2, ns_sums.as_ptr(), 1, 4, f64::NAN, re.as_mut_ptr(), im.as_mut_ptr()), EKORE_ERR_DOMAIN);
    assert_eq!(ekore_ome_singlet_batch_sums(2, one.as_ptr(), 1, 4, 0.0, re.as_mut_ptr(), im.as_mut_ptr()), EKORE_ERR_DOMAIN);
    assert!(re.iter().chain(im.iter()).all(|&x| x == 7.0));
    assert_eq!(ekore_ome_ns_batch_sums(2, one.as_ptr(), 1, 4, 0.0, re.as_mut_ptr(), im.as_mut_ptr()), EKORE_OK);
}

#[test]
fn bad_points_write_nothing() {
    let mut out = [f64::NAN; 3 * EKORE_SUMS_LEN];
    let (bre, bim) = ([2.0, -2.0, 3.0], [1.0, 0.0, 0.0]); // N[1] = -2: a pole
    assert_eq!(ekore_sums_batch(bre.as_ptr(), bim.as_ptr(), 3, out.as_mut_ptr()), EKORE_ERR_DOMAIN);
    assert_eq!(super::tests::last(), "ekore_sums_batch: N[1] = (-2, 0) is on the pole N = -2");
    assert!(out.iter().all(|x| x.is_nan()));
    assert_eq!(ekore_sums_batch(null(), bim.as_ptr(), 3, out.as_mut_ptr()), EKORE_ERR_NULL);
    assert_eq!(ekore_sums_batch(bre.as_ptr(), bim.as_ptr(), 3, std::ptr::null_mut()), EKORE_ERR_NULL);
    // N = 1 is fine for the sums and the non-singlet, a pole of the singlet
    let v = packed(&[3.0, 1.0], &[0.5, 0.0]);
    let (mut re, mut im) = ([7.0; 16], [7.0; 16]);
    assert_eq!(ekore_gamma_singlet_batch_sums(2, null(), v.as_ptr(), 2, 4, re.as_mut_ptr(), im.as_mut_ptr()), EKORE_ERR_DOMAIN);
    assert_eq!(super::tests::last(), "ekore_gamma_singlet_batch_sums: N[1] = (1, 0) is on the pole N = 1");
    assert!(re.iter().chain(im.iter()).all(|&x| x == 7.0));
    assert_eq!(ekore_gamma_ns_all_batch_sums(2, null(), v.as_ptr(), 2, 4, re.as_mut_ptr(), im.as_mut_ptr()), EKORE_OK);
    assert_eq!(ekore_gamma_ns_all_batch_sums(2, null(), null(), 2, 4, re.as_mut_ptr(), im.as_mut_ptr()), EKORE_ERR_NULL);
    assert_eq!(ekore_gamma_singlet_batch_sums(0, null(), v.as_ptr(), 2, 4, re.as_mut_ptr(), im.as_mut_ptr()), EKORE_ERR_ORDER);
}

#[test]
fn sums_entries_do_not_allocate() {
    let (mut out, mut re, mut im) = ([0.0; 2 * EKORE_SUMS_LEN], [0.0; 24], [0.0; 24]);
    let (nre, nim) = ([2.5, 0.4], [1.5, 0.7]);
    assert_eq!(ekore_sums_batch(nre.as_ptr(), nim.as_ptr(), 2, out.as_mut_ptr()), EKORE_OK); // warm-up
    let before = allocs();
    for _ in 0..50 {
        assert_eq!(ekore_sums_batch(nre.as_ptr(), nim.as_ptr(), 2, out.as_mut_ptr()), EKORE_OK);
        assert_eq!(ekore_gamma_singlet_batch_sums(3, null(), out.as_ptr(), 2, 5, re.as_mut_ptr(), im.as_mut_ptr()), EKORE_OK);
        assert_eq!(ekore_gamma_ns_all_batch_sums(3, null(), out.as_ptr(), 2, 5, re.as_mut_ptr(), im.as_mut_ptr()), EKORE_OK);
    }
    assert_eq!(allocs() - before, 0);
}
