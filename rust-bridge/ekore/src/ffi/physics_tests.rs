//! Tests of the physics choice through the C ABI (the `*_physics` entry
//! points, docs/physics.md §12.9): EKORE_PHYSICS_EKO gives bitwise the values
//! of the forms without it, EKORE_PHYSICS_EXACT moves exactly what it says
//! (the exact NNLO anomalous dimensions, g_3 wherever S_{-2,1} enters),
//! and any other value is refused naming the argument with nothing written.

use super::*;
use crate::physics::Physics;
use std::ffi::CStr;

const POISON: f64 = -12345.678;
const NF: u32 = 4;
/// Points on a Talbot-like path and on the real axis (singlet: off N = 1).
const N_RE: [f64; 4] = [2.5, 0.7, 10.0, 40.0];
const N_IM: [f64; 4] = [1.5, 3.0, -7.0, 0.0];

fn message() -> String {
    // SAFETY: the crate's error buffer is a NUL-terminated thread-local string.
    unsafe { CStr::from_ptr(ekore_last_error()) }.to_string_lossy().into_owned()
}

/// A batch entry point's values for `physics` (3 sectors x 4 orders at most).
fn ns_all(physics: u32, order: u32) -> ([f64; 48], [f64; 48]) {
    let (mut re, mut im) = ([POISON; 48], [POISON; 48]);
    let n3lo = ekore_n3lo { variation: [0; 7], use_fhmruvv: 1 };
    let rc = ekore_gamma_ns_all_batch_physics(order, &n3lo, physics, N_RE.as_ptr(), N_IM.as_ptr(), 4, NF, re.as_mut_ptr(), im.as_mut_ptr());
    assert_eq!(rc, EKORE_OK, "{}", message());
    (re, im)
}

#[test]
fn the_numbers_are_the_crates() {
    assert_eq!(Physics::from_abi(EKORE_PHYSICS_EKO), Some(Physics::Eko));
    assert_eq!(Physics::from_abi(EKORE_PHYSICS_EXACT), Some(Physics::Exact));
    assert_eq!(Physics::from_abi(2), None);
}

#[test]
fn eko_physics_is_bitwise_the_form_without_it() {
    let n3lo = ekore_n3lo { variation: [0; 7], use_fhmruvv: 1 };
    for order in 1..=4 {
        let (re, im) = ns_all(EKORE_PHYSICS_EKO, order);
        let (mut re0, mut im0) = ([POISON; 48], [POISON; 48]);
        let rc = ekore_gamma_ns_all_batch_n3lo(order, &n3lo, N_RE.as_ptr(), N_IM.as_ptr(), 4, NF, re0.as_mut_ptr(), im0.as_mut_ptr());
        assert_eq!(rc, EKORE_OK);
        assert!(re.iter().zip(re0.iter()).chain(im.iter().zip(im0.iter())).all(|(a, b)| a.to_bits() == b.to_bits()));
        let (mut s_re, mut s_im, mut t_re, mut t_im) = ([POISON; 64], [POISON; 64], [POISON; 64], [POISON; 64]);
        let a = ekore_gamma_singlet_batch_physics(order, &n3lo, EKORE_PHYSICS_EKO, N_RE.as_ptr(), N_IM.as_ptr(), 4, NF, s_re.as_mut_ptr(), s_im.as_mut_ptr());
        let b = ekore_gamma_singlet_batch_n3lo(order, &n3lo, N_RE.as_ptr(), N_IM.as_ptr(), 4, NF, t_re.as_mut_ptr(), t_im.as_mut_ptr());
        assert_eq!((a, b), (EKORE_OK, EKORE_OK));
        assert!(s_re.iter().zip(t_re.iter()).chain(s_im.iter().zip(t_im.iter())).all(|(a, b)| a.to_bits() == b.to_bits()));
    }
}

/// NNLO: exact physics takes the exact three-loop functions (`as3::exact`,
/// docs/physics.md §12.11) in all three sectors, bitwise, within the
/// parametrisations' accuracy of eko's (< 3e-3 relative here). NLO: ns+ and
/// ns- move by the g_3 difference, ~1e-6 relative.
#[test]
fn exact_physics_moves_what_it_says() {
    use crate::as3::exact;
    use crate::complex::C64;
    let (eko_re, eko_im) = ns_all(EKORE_PHYSICS_EKO, 3);
    let (ex_re, ex_im) = ns_all(EKORE_PHYSICS_EXACT, 3);
    for p in 0..4 {
        let at = |m: usize, k: usize| (3 * p + m) * 3 + k;
        let n = C64::new(N_RE[p], N_IM[p]);
        let want = [exact::gamma_nsp(n, NF), exact::gamma_nsm(n, NF), exact::gamma_nsv(n, NF)];
        for m in 0..3 {
            let (re, im) = (ex_re[at(m, 2)], ex_im[at(m, 2)]);
            assert_eq!((re.to_bits(), im.to_bits()), (want[m].re.to_bits(), want[m].im.to_bits()), "point {p} sector {m}");
            let d = ((re - eko_re[at(m, 2)]).powi(2) + (im - eko_im[at(m, 2)]).powi(2)).sqrt();
            assert!(d > 0.0 && d < 3e-3 * want[m].abs(), "point {p} sector {m}: moved by {d} of {}", want[m].abs());
        }
        for m in 0..2 {
            let (a, b) = ((ex_re[at(m, 1)], ex_im[at(m, 1)]), (eko_re[at(m, 1)], eko_im[at(m, 1)]));
            let d = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
            let size = (b.0 * b.0 + b.1 * b.1).sqrt();
            assert!(d > 0.0 && d < 1e-5 * size, "point {p}, NLO sector {m}: moved by {d} of {size}");
        }
        assert_eq!(ex_re[at(0, 0)].to_bits(), eko_re[at(0, 0)].to_bits(), "LO is exact in both");
    }
}

/// The NNLO OMEs hold S_{-2,1}: exact physics moves them a little, eko's is
/// bitwise `ekore_ome_singlet`; the batch-from-sums form agrees with both.
#[test]
fn omes_take_the_physics() {
    let (n_re, n_im, l) = (3.0, 2.0, 0.3);
    let mut v = [[0.0; 27]; 3];
    let mut w = [[0.0; 27]; 3];
    let rc = [
        ekore_ome_singlet(2, n_re, n_im, NF, l, v[0].as_mut_ptr(), w[0].as_mut_ptr()),
        ekore_ome_singlet_physics(2, EKORE_PHYSICS_EKO, n_re, n_im, NF, l, v[1].as_mut_ptr(), w[1].as_mut_ptr()),
        ekore_ome_singlet_physics(2, EKORE_PHYSICS_EXACT, n_re, n_im, NF, l, v[2].as_mut_ptr(), w[2].as_mut_ptr()),
    ];
    assert_eq!(rc, [EKORE_OK; 3]);
    assert!(v[0].iter().zip(v[1].iter()).all(|(a, b)| a.to_bits() == b.to_bits()));
    let moved = (0..18).filter(|&i| v[2][i] != v[0][i]).count();
    assert!(moved > 0, "the exact g_3 enters A^(2)");
    for i in 0..18 {
        assert!((v[2][i] - v[0][i]).abs() <= 1e-5 * (1.0 + v[0][i].abs()), "entry {i}");
    }
    let mut sums = [0.0; EKORE_SUMS_LEN];
    assert_eq!(ekore_sums_batch(&n_re, &n_im, 1, sums.as_mut_ptr()), EKORE_OK);
    let (mut b_re, mut b_im) = ([0.0; 18], [0.0; 18]);
    let rc = ekore_ome_singlet_batch_sums_physics(2, EKORE_PHYSICS_EXACT, sums.as_ptr(), 1, NF, l, b_re.as_mut_ptr(), b_im.as_mut_ptr());
    assert_eq!(rc, EKORE_OK);
    assert!(b_re.iter().zip(v[2].iter()).all(|(a, b)| a.to_bits() == b.to_bits()));
}

/// A physics that is neither 0 nor 1: EKORE_ERR_PHYSICS naming the argument,
/// nothing written; checked before the points.
#[test]
fn a_bad_physics_is_refused() {
    let n3lo = ekore_n3lo { variation: [0; 7], use_fhmruvv: 1 };
    let (mut re, mut im) = ([POISON; 48], [POISON; 48]);
    let rc = ekore_gamma_ns_all_batch_physics(2, &n3lo, 2, N_RE.as_ptr(), N_IM.as_ptr(), 4, NF, re.as_mut_ptr(), im.as_mut_ptr());
    assert_eq!(rc, EKORE_ERR_PHYSICS);
    assert!(message().contains("ekore_gamma_ns_all_batch_physics: physics = 2"), "{}", message());
    assert!(re.iter().chain(im.iter()).all(|&x| x == POISON));
    let rc = ekore_ome_ns_physics(2, 7, 2.0, 1.0, NF, 0.0, re.as_mut_ptr(), im.as_mut_ptr());
    assert_eq!(rc, EKORE_ERR_PHYSICS);
    assert!(message().contains("physics = 7"), "{}", message());
    let rc = ekore_gamma_qed_batch_physics(EKORE_QED_NS, 2, 1, &n3lo, 9, N_RE.as_ptr(), N_IM.as_ptr(), 4, NF, re.as_mut_ptr(), im.as_mut_ptr());
    assert_eq!(rc, EKORE_ERR_PHYSICS);
    for f in [ekore_gamma_ns_all_batch_pol_physics, ekore_gamma_ns_all_batch_tl_physics] {
        assert_eq!(f(2, 3, N_RE.as_ptr(), N_IM.as_ptr(), 4, NF, re.as_mut_ptr(), im.as_mut_ptr()), EKORE_ERR_PHYSICS);
    }
    assert!(re.iter().chain(im.iter()).all(|&x| x == POISON));
}

/// The polarized and time-like NLO non-singlet hold g_3: exact physics moves
/// them by less than 1e-5 relative, eko's is bitwise the plain forms.
#[test]
fn polarized_and_time_like_take_the_physics() {
    type Batch = extern "C" fn(u32, *const f64, *const f64, usize, u32, *mut f64, *mut f64) -> i32;
    type PhysicsBatch = extern "C" fn(u32, u32, *const f64, *const f64, usize, u32, *mut f64, *mut f64) -> i32;
    let pairs: [(Batch, PhysicsBatch); 2] = [
        (ekore_gamma_ns_all_batch_pol, ekore_gamma_ns_all_batch_pol_physics),
        (ekore_gamma_ns_all_batch_tl, ekore_gamma_ns_all_batch_tl_physics),
    ];
    for (plain, with) in pairs {
        let mut v = [[0.0; 24]; 3];
        let mut w = [[0.0; 24]; 3];
        assert_eq!(plain(2, N_RE.as_ptr(), N_IM.as_ptr(), 4, NF, v[0].as_mut_ptr(), w[0].as_mut_ptr()), EKORE_OK);
        assert_eq!(with(2, EKORE_PHYSICS_EKO, N_RE.as_ptr(), N_IM.as_ptr(), 4, NF, v[1].as_mut_ptr(), w[1].as_mut_ptr()), EKORE_OK);
        assert_eq!(with(2, EKORE_PHYSICS_EXACT, N_RE.as_ptr(), N_IM.as_ptr(), 4, NF, v[2].as_mut_ptr(), w[2].as_mut_ptr()), EKORE_OK);
        assert!(v[0].iter().zip(v[1].iter()).all(|(a, b)| a.to_bits() == b.to_bits()));
        assert!(v[2].iter().zip(v[0].iter()).any(|(a, b)| a != b));
        assert!(v[2].iter().zip(v[0].iter()).all(|(a, b)| (a - b).abs() <= 1e-5 * (1.0 + b.abs())));
    }
}

/// The MSbar mass scheme of the singlet OME: is_msbar 0 is bitwise the
/// `_physics` form, 1 adds eko's MSbar terms to A^(2)_gg and A^(2)_Hg only
/// (and nothing at order 1), the batch form is bitwise the point form, and
/// any other is_msbar is refused naming it.
#[test]
fn omes_take_the_mass_scheme() {
    let (n_re, n_im, l) = (1.7, 0.9, 0.4);
    for physics in [EKORE_PHYSICS_EKO, EKORE_PHYSICS_EXACT] {
        let (mut p_re, mut p_im, mut m0_re, mut m0_im, mut m1_re, mut m1_im) =
            ([0.0; 27], [0.0; 27], [0.0; 27], [0.0; 27], [0.0; 27], [0.0; 27]);
        assert_eq!(ekore_ome_singlet_physics(3, physics, n_re, n_im, NF, l, p_re.as_mut_ptr(), p_im.as_mut_ptr()), EKORE_OK);
        assert_eq!(ekore_ome_singlet_msbar(3, physics, 0, n_re, n_im, NF, l, m0_re.as_mut_ptr(), m0_im.as_mut_ptr()), EKORE_OK);
        assert_eq!(ekore_ome_singlet_msbar(3, physics, 1, n_re, n_im, NF, l, m1_re.as_mut_ptr(), m1_im.as_mut_ptr()), EKORE_OK);
        assert!(p_re.iter().chain(p_im.iter()).zip(m0_re.iter().chain(m0_im.iter())).all(|(a, b)| a.to_bits() == b.to_bits()));
        for i in 0..27 {
            let (dr, di) = (m1_re[i] - p_re[i], m1_im[i] - p_im[i]);
            match i {
                9 => assert!((dr - 7.111111111111111).abs() < 1e-12 && di == 0.0, "gg: {dr} {di}"),
                15 => assert!((dr + 6.466935901418658).abs() < 1e-12 && (di - 3.096724310517413).abs() < 1e-12, "Hg: {dr} {di}"),
                _ => assert!(dr == 0.0 && di == 0.0, "entry {i}: {dr} {di}"),
            }
        }
        let mut sums = [0.0; EKORE_SUMS_LEN];
        assert_eq!(ekore_sums_batch(&n_re, &n_im, 1, sums.as_mut_ptr()), EKORE_OK);
        let (mut b_re, mut b_im) = ([0.0; 27], [0.0; 27]);
        let rc = ekore_ome_singlet_batch_sums_msbar(3, physics, 1, sums.as_ptr(), 1, NF, l, b_re.as_mut_ptr(), b_im.as_mut_ptr());
        assert_eq!(rc, EKORE_OK);
        assert!(b_re.iter().zip(m1_re.iter()).all(|(a, b)| a.to_bits() == b.to_bits()));
        assert!(b_im.iter().zip(m1_im.iter()).all(|(a, b)| a.to_bits() == b.to_bits()));
    }
    let (mut re, mut im) = ([0.0; 27], [0.0; 27]);
    assert_eq!(ekore_ome_singlet_msbar(2, 0, 2, 2.0, 0.5, NF, 0.0, re.as_mut_ptr(), im.as_mut_ptr()), EKORE_ERR_DOMAIN);
    assert!(message().contains("is_msbar = 2"), "{}", message());
}
