//! Tests of the C ABI: the panic boundary and the error buffer, zero
//! allocation per call, the documented output layouts, every bad input, and
//! batch = single call bitwise.

use super::boundary::{fail, guard};
use super::*;
use crate::complex::C64;
use crate::harmonics::Sums;
use crate::{as1, as2, ome};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ffi::CStr;
use std::ptr::{null, null_mut};

/// Counting allocator for this test binary: counts per thread, so tests
/// running in parallel do not disturb each other.
struct Counting;

thread_local! {
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        System.alloc_zeroed(l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        System.realloc(p, l, n)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

pub(super) fn allocs() -> usize {
    ALLOCS.with(|c| c.get())
}

const POISON: f64 = -12345.678;

/// Output buffers filled with POISON, to prove nothing is written on error.
struct Out {
    re: [f64; 64],
    im: [f64; 64],
}

impl Out {
    fn new() -> Out {
        Out { re: [POISON; 64], im: [POISON; 64] }
    }
    fn untouched(&self) -> bool {
        self.re.iter().chain(self.im.iter()).all(|&x| x == POISON)
    }
}

pub(super) fn last() -> String {
    unsafe { CStr::from_ptr(ekore_last_error()) }.to_str().unwrap().to_owned()
}

#[test]
fn guard_catches_panics() {
    let code = guard("test_fn", || panic!("boom {}", 42));
    assert_eq!(code, EKORE_ERR_PANIC);
    assert_eq!(last(), "test_fn: internal panic: boom 42");
    let code = guard("test_fn", || panic!("static"));
    assert_eq!(code, EKORE_ERR_PANIC);
    assert!(last().ends_with("static"));
    assert_eq!(guard("ok", || EKORE_OK), EKORE_OK);
}

#[test]
fn long_messages_are_truncated() {
    let long = "x".repeat(1000);
    fail(EKORE_ERR_DOMAIN, format_args!("{long}"));
    assert_eq!(last().len(), EKORE_ERROR_LEN - 1);
}

#[test]
fn messages_are_thread_local() {
    fail(EKORE_ERR_NF, format_args!("main thread"));
    std::thread::spawn(|| {
        assert_eq!(last(), "");
        fail(EKORE_ERR_NF, format_args!("other thread"));
        assert_eq!(last(), "other thread");
    })
    .join()
    .unwrap();
    assert_eq!(last(), "main thread");
}

/// One call of every entry point with valid input; returns the codes.
fn call_everything(o: &mut Out, o2: &mut Out, nre: &[f64; 4], nim: &[f64; 4]) -> [i32; 13] {
    let mut b = [0.0; 4];
    let n3lo = ekore_n3lo { variation: [3, 4, 1, 2, 0, 0, 0], use_fhmruvv: 0 };
    [
        ekore_beta(4, b.as_mut_ptr()),
        ekore_gamma_ns(3, EKORE_MODE_NS_V, 2.5, 1.5, 4, o.re.as_mut_ptr(), o.im.as_mut_ptr()),
        ekore_gamma_singlet(3, 2.5, 1.5, 4, o.re.as_mut_ptr(), o.im.as_mut_ptr()),
        ekore_gamma_all(3, 2.5, 1.5, 4, o.re.as_mut_ptr(), o.im.as_mut_ptr(), o2.re.as_mut_ptr(), o2.im.as_mut_ptr()),
        ekore_gamma_singlet_batch(3, nre.as_ptr(), nim.as_ptr(), 4, 5, o.re.as_mut_ptr(), o.im.as_mut_ptr()),
        ekore_gamma_ns_batch(3, EKORE_MODE_NS_PLUS, nre.as_ptr(), nim.as_ptr(), 4, 5, o.re.as_mut_ptr(), o.im.as_mut_ptr()),
        ekore_ome_ns(2, 2.5, 1.5, 4, 0.5, o.re.as_mut_ptr(), o.im.as_mut_ptr()),
        ekore_ome_singlet(2, 2.5, 1.5, 4, 0.5, o.re.as_mut_ptr(), o.im.as_mut_ptr()),
        ekore_ome_singlet(3, 2.5, 1.5, 4, 0.5, o.re.as_mut_ptr(), o.im.as_mut_ptr()),
        ekore_gamma_singlet_batch_n3lo(4, &n3lo, nre.as_ptr(), nim.as_ptr(), 4, 5, o.re.as_mut_ptr(), o.im.as_mut_ptr()),
        ekore_gamma_ns_all_batch_n3lo(4, &n3lo, nre.as_ptr(), nim.as_ptr(), 4, 5, o.re.as_mut_ptr(), o.im.as_mut_ptr()),
        ekore_n3lo_check(&n3lo),
        if ekore_last_error().is_null() { -100 } else { EKORE_OK },
    ]
}

/// Zero heap allocations per ABI call, on the success path and on the
/// error path (the message goes into the fixed thread-local buffer).
#[test]
fn abi_calls_do_not_allocate() {
    let (mut o, mut o2) = (Out::new(), Out::new());
    let nre = [2.5, 1.5, 4.0, -0.5];
    let nim = [1.5, -3.0, 0.0, 7.0];
    // warm-up: the first touch of thread-locals
    assert_eq!(call_everything(&mut o, &mut o2, &nre, &nim), [EKORE_OK; 13]);
    let before = allocs();
    for _ in 0..100 {
        assert_eq!(call_everything(&mut o, &mut o2, &nre, &nim), [EKORE_OK; 13]);
    }
    let bad = [f64::NAN, 1.0, 1.0, 1.0];
    for _ in 0..100 {
        assert_eq!(ekore_gamma_ns(5, 10101, 2.0, 0.0, 4, o.re.as_mut_ptr(), o.im.as_mut_ptr()), EKORE_ERR_ORDER);
        assert_eq!(ekore_gamma_singlet(1, f64::NAN, 0.0, 4, o.re.as_mut_ptr(), o.im.as_mut_ptr()), EKORE_ERR_DOMAIN);
        assert_eq!(ekore_gamma_singlet_batch(1, bad.as_ptr(), nim.as_ptr(), 4, 4, o.re.as_mut_ptr(), o.im.as_mut_ptr()), EKORE_ERR_DOMAIN);
        assert_eq!(ekore_ome_ns(1, 2.0, 0.0, 4, f64::INFINITY, o.re.as_mut_ptr(), o.im.as_mut_ptr()), EKORE_ERR_DOMAIN);
    }
    assert_eq!(allocs() - before, 0, "allocations in 1300 ABI calls");
    // sanity check that the counter works at all
    let v = std::hint::black_box(vec![1u8; 10]);
    assert!(allocs() - before >= 1);
    drop(v);
}

#[test]
fn beta_abi() {
    let mut b = [POISON; 5];
    assert_eq!(ekore_beta(5, b.as_mut_ptr()), EKORE_OK);
    assert_eq!(&b[..4], &crate::beta::betas(5));
    assert_eq!(b[4], POISON);
    assert_eq!(ekore_beta(5, null_mut()), EKORE_ERR_NULL);
    let mut b = [POISON; 4];
    assert_eq!(ekore_beta(2, b.as_mut_ptr()), EKORE_ERR_NF);
    assert_eq!(ekore_beta(7, b.as_mut_ptr()), EKORE_ERR_NF);
    assert!(b.iter().all(|&x| x == POISON));
    assert_eq!(last(), "ekore_beta: nf = 7 outside 3..6");
}

/// The ABI writes exactly what the Rust functions compute, in the documented layout.
#[test]
fn abi_layout_matches_rust() {
    let n = C64::new(2.5, 1.5);
    let s = Sums::new(n).unwrap();
    let mut o = Out::new();
    assert_eq!(ekore_gamma_ns(2, EKORE_MODE_NS_MINUS, n.re, n.im, 4, o.re.as_mut_ptr(), o.im.as_mut_ptr()), 0);
    assert_eq!((o.re[0], o.im[0]), (as1::gamma_ns(&s, 4).re, as1::gamma_ns(&s, 4).im));
    assert_eq!((o.re[1], o.im[1]), (as2::gamma_nsm(&s, 4).re, as2::gamma_nsm(&s, 4).im));
    assert_eq!(o.re[2], POISON);
    let mut o = Out::new();
    assert_eq!(ekore_gamma_singlet(2, n.re, n.im, 4, o.re.as_mut_ptr(), o.im.as_mut_ptr()), 0);
    let m = as2::gamma_singlet(&s, 4);
    assert_eq!([o.re[4], o.re[5], o.re[6], o.re[7]], [m[0][0].re, m[0][1].re, m[1][0].re, m[1][1].re]);
    assert_eq!(o.im[6], m[1][0].im);
    assert_eq!(o.re[8], POISON);
    // gamma_all: ns[3k+m], singlet as gamma_singlet
    let (mut a, mut b) = (Out::new(), Out::new());
    assert_eq!(
        ekore_gamma_all(3, n.re, n.im, 4, a.re.as_mut_ptr(), a.im.as_mut_ptr(), b.re.as_mut_ptr(), b.im.as_mut_ptr()),
        0
    );
    for (m, mode) in [EKORE_MODE_NS_PLUS, EKORE_MODE_NS_MINUS, EKORE_MODE_NS_V].iter().enumerate() {
        let mut t = Out::new();
        assert_eq!(ekore_gamma_ns(3, *mode, n.re, n.im, 4, t.re.as_mut_ptr(), t.im.as_mut_ptr()), 0);
        for k in 0..3 {
            assert_eq!((a.re[3 * k + m], a.im[3 * k + m]), (t.re[k], t.im[k]), "mode {mode} order {k}");
        }
    }
    assert_eq!(a.re[9], POISON);
    let mut t = Out::new();
    assert_eq!(ekore_gamma_singlet(3, n.re, n.im, 4, t.re.as_mut_ptr(), t.im.as_mut_ptr()), 0);
    assert_eq!(&b.re[..12], &t.re[..12]);
    assert_eq!(&b.im[..12], &t.im[..12]);
    assert_eq!(b.re[12], POISON);
    // OMEs
    let mut o = Out::new();
    assert_eq!(ekore_ome_singlet(2, n.re, n.im, 4, 0.7, o.re.as_mut_ptr(), o.im.as_mut_ptr()), 0);
    let a2 = ome::a_singlet_2(&s, 4, 0.7);
    assert_eq!((o.re[9 + 3 * 2 + 1], o.im[9 + 3 * 2 + 1]), (a2[2][1].re, a2[2][1].im));
    assert_eq!(o.re[18], POISON);
    let mut o = Out::new();
    assert_eq!(ekore_ome_ns(2, n.re, n.im, 4, 0.7, o.re.as_mut_ptr(), o.im.as_mut_ptr()), 0);
    let a1 = ome::a_ns_1(&s, 4, 0.7);
    assert_eq!((o.re[3], o.im[3]), (a1[1][1].re, a1[1][1].im));
    assert_eq!(o.re[8], POISON);
}

/// Every bad input gives its code, a message, and leaves the outputs untouched.
#[test]
fn bad_inputs() {
    let mut o = Out::new();
    let (r, i) = (o.re.as_mut_ptr(), o.im.as_mut_ptr());
    let nre = [2.0, 3.0];
    let nim = [0.5, 0.5];
    // null pointers
    assert_eq!(ekore_gamma_ns(1, 10101, 2.0, 0.0, 4, null_mut(), i), EKORE_ERR_NULL);
    assert_eq!(last(), "ekore_gamma_ns: out_re is NULL");
    assert_eq!(ekore_gamma_ns(1, 10101, 2.0, 0.0, 4, r, null_mut()), EKORE_ERR_NULL);
    assert_eq!(ekore_gamma_singlet(1, 2.0, 0.0, 4, null_mut(), i), EKORE_ERR_NULL);
    assert_eq!(ekore_gamma_all(1, 2.0, 0.0, 4, r, i, r, null_mut()), EKORE_ERR_NULL);
    assert_eq!(ekore_gamma_singlet_batch(1, null(), nim.as_ptr(), 2, 4, r, i), EKORE_ERR_NULL);
    assert_eq!(ekore_gamma_ns_batch(1, 10101, nre.as_ptr(), null(), 2, 4, r, i), EKORE_ERR_NULL);
    assert_eq!(ekore_ome_ns(1, 2.0, 0.0, 4, 0.0, null_mut(), i), EKORE_ERR_NULL);
    assert_eq!(ekore_ome_singlet(1, 2.0, 0.0, 4, 0.0, r, null_mut()), EKORE_ERR_NULL);
    // orders
    for ord in [0u32, 5, 100] {
        assert_eq!(ekore_gamma_ns(ord, 10101, 2.0, 0.0, 4, r, i), EKORE_ERR_ORDER);
        assert_eq!(ekore_gamma_singlet(ord, 2.0, 0.0, 4, r, i), EKORE_ERR_ORDER);
        assert_eq!(ekore_gamma_all(ord, 2.0, 0.0, 4, r, i, r, i), EKORE_ERR_ORDER);
        assert_eq!(ekore_gamma_singlet_batch(ord, nre.as_ptr(), nim.as_ptr(), 2, 4, r, i), EKORE_ERR_ORDER);
        assert_eq!(ekore_gamma_ns_batch(ord, 10101, nre.as_ptr(), nim.as_ptr(), 2, 4, r, i), EKORE_ERR_ORDER);
    }
    for ord in [0u32, 4] {
        assert_eq!(ekore_ome_ns(ord, 2.0, 0.0, 4, 0.0, r, i), EKORE_ERR_ORDER);
        assert_eq!(ekore_ome_singlet(ord, 2.0, 0.0, 4, 0.0, r, i), EKORE_ERR_ORDER);
    }
    assert_eq!(last(), "ekore_ome_singlet: order = 4 outside 1..3");
    // modes
    for mode in [0u32, 10100, 100, 21, 10202] {
        assert_eq!(ekore_gamma_ns(1, mode, 2.0, 0.0, 4, r, i), EKORE_ERR_MODE);
        assert_eq!(ekore_gamma_ns_batch(1, mode, nre.as_ptr(), nim.as_ptr(), 2, 4, r, i), EKORE_ERR_MODE);
    }
    // nf
    for nf in [0u32, 2, 7, u32::MAX] {
        assert_eq!(ekore_gamma_ns(1, 10101, 2.0, 0.0, nf, r, i), EKORE_ERR_NF);
        assert_eq!(ekore_gamma_singlet(1, 2.0, 0.0, nf, r, i), EKORE_ERR_NF);
        assert_eq!(ekore_gamma_all(1, 2.0, 0.0, nf, r, i, r, i), EKORE_ERR_NF);
        assert_eq!(ekore_gamma_singlet_batch(1, nre.as_ptr(), nim.as_ptr(), 2, nf, r, i), EKORE_ERR_NF);
        assert_eq!(ekore_ome_ns(1, 2.0, 0.0, nf, 0.0, r, i), EKORE_ERR_NF);
        assert_eq!(ekore_ome_singlet(1, 2.0, 0.0, nf, 0.0, r, i), EKORE_ERR_NF);
    }
    // domain: NaN/inf N, huge N, poles, NaN/inf L
    let bad_n = [(f64::NAN, 0.0), (2.0, f64::NAN), (f64::INFINITY, 0.0), (2.0, f64::NEG_INFINITY), (2e5, 0.0), (0.0, 0.0), (-3.0, 0.0), (-3.0 + 1e-12, 1e-12)];
    for (re, im) in bad_n {
        assert_eq!(ekore_gamma_ns(3, 10200, re, im, 4, r, i), EKORE_ERR_DOMAIN, "N = {re} {im}");
        assert_eq!(ekore_gamma_singlet(3, re, im, 4, r, i), EKORE_ERR_DOMAIN);
        assert_eq!(ekore_gamma_all(3, re, im, 4, r, i, r, i), EKORE_ERR_DOMAIN);
        assert_eq!(ekore_ome_ns(2, re, im, 4, 0.0, r, i), EKORE_ERR_DOMAIN);
        assert_eq!(ekore_ome_singlet(2, re, im, 4, 0.0, r, i), EKORE_ERR_DOMAIN);
    }
    assert_eq!(ekore_gamma_singlet(3, 1.0, 0.0, 4, r, i), EKORE_ERR_DOMAIN);
    assert_eq!(last(), "ekore_gamma_singlet: N = (1, 0) is on the pole N = 1");
    assert_eq!(ekore_gamma_all(1, 1.0, 0.0, 4, r, i, r, i), EKORE_ERR_DOMAIN);
    assert_eq!(ekore_ome_singlet(1, 1.0, 0.0, 4, 0.0, r, i), EKORE_ERR_DOMAIN);
    for l in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        assert_eq!(ekore_ome_ns(1, 2.0, 0.0, 4, l, r, i), EKORE_ERR_DOMAIN);
        assert_eq!(ekore_ome_singlet(1, 2.0, 0.0, 4, l, r, i), EKORE_ERR_DOMAIN);
    }
    // a batch with one bad point writes nothing, and names the point
    let bre = [2.0, 3.0, 4.0, 1.0];
    let bim = [0.5, 0.5, 0.5, 0.0];
    assert_eq!(ekore_gamma_singlet_batch(2, bre.as_ptr(), bim.as_ptr(), 4, 4, r, i), EKORE_ERR_DOMAIN);
    assert_eq!(last(), "ekore_gamma_singlet_batch: N[3] = (1, 0) is on the pole N = 1");
    let bre = [2.0, f64::NAN];
    assert_eq!(ekore_gamma_ns_batch(2, 10101, bre.as_ptr(), bim.as_ptr(), 2, 4, r, i), EKORE_ERR_DOMAIN);
    assert!(o.untouched());
    // the non-singlet sectors accept N = 1
    assert_eq!(ekore_gamma_ns(3, 10201, 1.0, 0.0, 4, r, i), EKORE_OK);
    assert_eq!(ekore_ome_ns(2, 1.0, 0.0, 4, 0.0, r, i), EKORE_OK);
    // count = 0 is a no-op
    let mut o = Out::new();
    assert_eq!(ekore_gamma_singlet_batch(3, bre.as_ptr(), bim.as_ptr(), 0, 4, o.re.as_mut_ptr(), o.im.as_mut_ptr()), EKORE_OK);
    assert!(o.untouched());
}

/// Batch entries are bitwise the single-call values.
#[test]
fn batch_equals_single() {
    let nre = [2.5, 1.1, 4.0, -0.5, 30.0];
    let nim = [1.5, -3.0, 0.0, 7.0, 0.1];
    let mut o = Out::new();
    assert_eq!(ekore_gamma_singlet_batch(3, nre.as_ptr(), nim.as_ptr(), 5, 5, o.re.as_mut_ptr(), o.im.as_mut_ptr()), 0);
    for p in 0..5 {
        let mut t = Out::new();
        assert_eq!(ekore_gamma_singlet(3, nre[p], nim[p], 5, t.re.as_mut_ptr(), t.im.as_mut_ptr()), 0);
        assert_eq!(&o.re[12 * p..12 * p + 12], &t.re[..12]);
        assert_eq!(&o.im[12 * p..12 * p + 12], &t.im[..12]);
    }
    assert_eq!(o.re[60], POISON);
    let mut o = Out::new();
    assert_eq!(ekore_gamma_ns_batch(2, 10200, nre.as_ptr(), nim.as_ptr(), 5, 3, o.re.as_mut_ptr(), o.im.as_mut_ptr()), 0);
    for p in 0..5 {
        let mut t = Out::new();
        assert_eq!(ekore_gamma_ns(2, 10200, nre[p], nim[p], 3, t.re.as_mut_ptr(), t.im.as_mut_ptr()), 0);
        assert_eq!(&o.re[2 * p..2 * p + 2], &t.re[..2]);
        assert_eq!(&o.im[2 * p..2 * p + 2], &t.im[..2]);
    }
    assert_eq!(o.re[10], POISON);
    // all three sectors at once, out[(3p + m)*order + k]
    let mut o = Out::new();
    assert_eq!(ekore_gamma_ns_all_batch(3, nre.as_ptr(), nim.as_ptr(), 5, 4, o.re.as_mut_ptr(), o.im.as_mut_ptr()), 0);
    for p in 0..5 {
        for (m, mode) in [10101u32, 10201, 10200].iter().enumerate() {
            let mut t = Out::new();
            assert_eq!(ekore_gamma_ns(3, *mode, nre[p], nim[p], 4, t.re.as_mut_ptr(), t.im.as_mut_ptr()), 0);
            let at = (3 * p + m) * 3;
            assert_eq!(&o.re[at..at + 3], &t.re[..3]);
            assert_eq!(&o.im[at..at + 3], &t.im[..3]);
        }
    }
    assert_eq!(o.re[45], POISON);
    // a bad point anywhere: nothing written
    let bad = [2.5, 0.0, 3.0];
    let bim = [0.0, 0.0, 0.0];
    let mut o = Out::new();
    assert_eq!(ekore_gamma_ns_all_batch(2, bad.as_ptr(), bim.as_ptr(), 3, 4, o.re.as_mut_ptr(), o.im.as_mut_ptr()), EKORE_ERR_DOMAIN);
    assert!(o.untouched());
}

/// The N3LO entry points: the choice reaches as4 (the batch values are those
/// of the Rust functions on the same sums), NULL choices and bad use_fhmruvv
/// are refused, variation entries beyond eko's ranges are the central value,
/// and the FHMRUVV singlet refuses nf = 6.
#[test]
fn n3lo_choice() {
    use crate::as4;
    use crate::sums::SumValues;
    let n = C64::new(2.5, 1.5);
    let mut o = Out::new();
    let (r, i) = (o.re.as_mut_ptr(), o.im.as_mut_ptr());
    let var = ekore_n3lo { variation: [3, 4, 1, 2, 0, 0, 0], use_fhmruvv: 0 };
    assert_eq!(ekore_gamma_singlet_n3lo(4, &var, n.re, n.im, 4, r, i), EKORE_OK);
    let want = as4::gamma_singlet(&SumValues::new(n, true).unwrap(), 4, &[3, 4, 1, 2, 0, 0, 0], false);
    for k in 0..4 {
        assert_eq!((o.re[12 + k], o.im[12 + k]), (want[k].re, want[k].im));
    }
    let mut b = Out::new();
    assert_eq!(ekore_gamma_ns_all_batch_n3lo(4, &var, &n.re, &n.im, 1, 4, b.re.as_mut_ptr(), b.im.as_mut_ptr()), EKORE_OK);
    for (m, mode) in [EKORE_MODE_NS_PLUS, EKORE_MODE_NS_MINUS, EKORE_MODE_NS_V].iter().enumerate() {
        let mut one = Out::new();
        assert_eq!(ekore_gamma_ns_n3lo(4, *mode, &var, n.re, n.im, 4, one.re.as_mut_ptr(), one.im.as_mut_ptr()), EKORE_OK);
        assert_eq!(&b.re[4 * m..4 * m + 4], &one.re[..4]);
        assert_eq!(&b.im[4 * m..4 * m + 4], &one.im[..4]);
    }
    // the default of the entry points without a choice is eko's: central, FHMRUVV
    let central = ekore_n3lo { variation: [0; 7], use_fhmruvv: 1 };
    let (mut d, mut c) = (Out::new(), Out::new());
    assert_eq!(ekore_gamma_singlet(4, n.re, n.im, 4, d.re.as_mut_ptr(), d.im.as_mut_ptr()), EKORE_OK);
    assert_eq!(ekore_gamma_singlet_n3lo(4, &central, n.re, n.im, 4, c.re.as_mut_ptr(), c.im.as_mut_ptr()), EKORE_OK);
    assert_eq!(&d.re[..16], &c.re[..16]);
    // beyond eko's range: central, as eko
    let far = ekore_n3lo { variation: [400, 0, 0, 0, 0, 0, 0], use_fhmruvv: 0 };
    let zero = ekore_n3lo { variation: [0; 7], use_fhmruvv: 0 };
    let (mut f, mut z) = (Out::new(), Out::new());
    assert_eq!(ekore_gamma_singlet_n3lo(4, &far, n.re, n.im, 4, f.re.as_mut_ptr(), f.im.as_mut_ptr()), EKORE_OK);
    assert_eq!(ekore_gamma_singlet_n3lo(4, &zero, n.re, n.im, 4, z.re.as_mut_ptr(), z.im.as_mut_ptr()), EKORE_OK);
    assert_eq!(&f.re[..16], &z.re[..16]);
    // refusals
    assert_eq!(ekore_gamma_singlet_n3lo(4, null(), n.re, n.im, 4, r, i), EKORE_ERR_NULL);
    assert_eq!(ekore_gamma_singlet_n3lo(3, null(), n.re, n.im, 4, r, i), EKORE_OK); // not read below N3LO
    let bad = ekore_n3lo { variation: [0; 7], use_fhmruvv: 3 };
    assert_eq!(ekore_n3lo_check(&bad), EKORE_ERR_VARIATION);
    assert!(last().contains("use_fhmruvv = 3"), "{}", last());
    assert_eq!(ekore_gamma_singlet_n3lo(4, &central, n.re, n.im, 6, r, i), EKORE_ERR_NF);
    assert!(last().contains("nf in 3..5"), "{}", last());
    // the 2512 set (use_fhmruvv = 2): nf = 6 singlet, the as4 numbers; nf = 7 refused
    let set2512 = ekore_n3lo { variation: [1, 2, 0, 1, 2, 1, 0], use_fhmruvv: 2 };
    assert_eq!(ekore_n3lo_check(&set2512), EKORE_OK);
    let mut s6 = Out::new();
    assert_eq!(ekore_gamma_singlet_n3lo(4, &set2512, n.re, n.im, 6, s6.re.as_mut_ptr(), s6.im.as_mut_ptr()), EKORE_OK);
    let want = as4::gamma_singlet(&SumValues::new(n, true).unwrap(), 6, &[1, 2, 0, 1, 2, 1, 0], as4::AdSet::Set2512);
    for k in 0..4 {
        assert_eq!((s6.re[12 + k], s6.im[12 + k]), (want[k].re, want[k].im));
    }
    let mut n6 = Out::new();
    assert_eq!(ekore_gamma_ns_n3lo(4, EKORE_MODE_NS_PLUS, &set2512, n.re, n.im, 6, n6.re.as_mut_ptr(), n6.im.as_mut_ptr()), EKORE_OK);
    let want = as4::gamma_ns(as4::MODE_NS_PLUS, &SumValues::new(n, false).unwrap(), 6, &[1, 2, 0, 1, 2, 1, 0], as4::AdSet::Set2512);
    assert_eq!((n6.re[3], n6.im[3]), (want.re, want.im));
    assert_eq!(ekore_gamma_singlet_n3lo(4, &set2512, n.re, n.im, 7, r, i), EKORE_ERR_NF);
    assert!(last().contains("3..6"), "{}", last());
    // N = 1: a pole of eko's own N3LO nsV (eko divides by zero), refused before anything is written;
    // the FHMRUVV non-singlet and eko's own ns+ / ns- are finite there
    let one = [1.0, 2.0];
    let zeros = [0.0, 0.0];
    let mut p = Out::new();
    assert_eq!(ekore_gamma_ns_all_batch_n3lo(4, &zero, one.as_ptr(), zeros.as_ptr(), 2, 4, p.re.as_mut_ptr(), p.im.as_mut_ptr()), EKORE_ERR_DOMAIN);
    assert!(last().contains("pole N = 1"), "{}", last());
    assert!(p.re.iter().all(|&v| v == POISON));
    assert_eq!(ekore_gamma_ns_n3lo(4, EKORE_MODE_NS_V, &zero, 1.0, 0.0, 4, p.re.as_mut_ptr(), p.im.as_mut_ptr()), EKORE_ERR_DOMAIN);
    assert_eq!(ekore_gamma_ns_n3lo(4, EKORE_MODE_NS_PLUS, &zero, 1.0, 0.0, 4, p.re.as_mut_ptr(), p.im.as_mut_ptr()), EKORE_OK);
    assert_eq!(ekore_gamma_ns_all_batch_n3lo(4, &central, one.as_ptr(), zeros.as_ptr(), 2, 4, p.re.as_mut_ptr(), p.im.as_mut_ptr()), EKORE_OK);
    assert!(p.re[..24].iter().all(|v| v.is_finite()));
    let mut max = [0u32; 7];
    assert_eq!(ekore_n3lo_variation_max(0, max.as_mut_ptr()), EKORE_OK);
    assert_eq!(max, [19, 15, 15, 6, 0, 0, 0]);
    assert_eq!(ekore_n3lo_variation_max(1, max.as_mut_ptr()), EKORE_OK);
    assert_eq!(max, [2; 7]);
    assert_eq!(ekore_n3lo_variation_max(2, max.as_mut_ptr()), EKORE_OK);
    assert_eq!(max, [2; 7]);
    assert_eq!(ekore_n3lo_variation_max(3, max.as_mut_ptr()), EKORE_ERR_VARIATION);
}
