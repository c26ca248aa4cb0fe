//! Tests of `sums`: the log moments against quadrature, `SumValues::new` against
//! eko's cache (`eko_reference`) and against identities of the sums.

use super::*;

/// The positive sums from their definition at a positive integer N.
fn integer_sums(n: u32) -> SumValues {
    let mut s = [C64::ZERO; 5];
    for i in 1..=n {
        for (k, v) in s.iter_mut().enumerate() {
            *v += (i as f64).powi(-(k as i32 + 1));
        }
    }
    let z = C64::ZERO;
    SumValues {
        n: C64::new(n as f64, 0.0),
        s1: s[0],
        s2: s[1],
        s3: s[2],
        s4: s[3],
        s5: s[4],
        sm1: z,
        sm2: z,
        sm3: z,
        sm4: z,
        sm5: z,
        s21: z,
        s2m1: z,
        sm21: z,
        sm2m1: z,
        s31: z,
        sm31: z,
        s211: z,
        sm211: z,
        sm22: z,
    }
}

/// Gauss-Legendre on t in (0,1) with x = 1 - t^4 (dx = 4 t^3 dt) removes the
/// log singularity at x = 1 well enough for 1e-9 at these N.
fn quadrature(j: u32, k: u32, n: f64) -> f64 {
    let panels = 400;
    let (nodes, weights) = (
        [-0.7745966692414834, 0.0, 0.7745966692414834],
        [5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0],
    );
    let mut sum = 0.0;
    for p in 0..panels {
        let (a, b) = (p as f64 / panels as f64, (p + 1) as f64 / panels as f64);
        for (z, w) in nodes.iter().zip(weights.iter()) {
            let t = 0.5 * (a + b) + 0.5 * (b - a) * z;
            let omx = t.powi(4);
            let x = 1.0 - omx;
            let f = x.powf(n - 1.0)
                * omx.powi(j as i32)
                * omx.ln().powi(k as i32)
                * 4.0
                * t.powi(3);
            sum += 0.5 * (b - a) * w * f;
        }
    }
    sum
}

#[test]
fn log_moments_equal_their_integrals() {
    for n in [2u32, 3, 5] {
        let s = integer_sums(n);
        for j in 0..=2 {
            for k in 1..=5 {
                let got = log_one_minus_x_moment(j, k, &s);
                let want = quadrature(j, k, n as f64);
                assert!(
                    got.im == 0.0 && ((got.re - want) / want).abs() < 1e-8,
                    "j {j} k {k} n {n}: {} vs {want}",
                    got.re
                );
            }
        }
    }
}

/// The 19 sums of `s` in the field order of the reference table.
fn fields(s: &SumValues) -> [C64; 19] {
    [
        s.s1, s.s2, s.s3, s.s4, s.s5, s.sm1, s.sm2, s.sm3, s.sm4, s.sm5, s.s21, s.s2m1, s.sm21, s.sm2m1, s.s31,
        s.sm31, s.s211, s.sm211, s.sm22,
    ]
}

const NAMES: [&str; 19] = [
    "S1", "S2", "S3", "S4", "S5", "Sm1", "Sm2", "Sm3", "Sm4", "Sm5", "S21", "S2m1", "Sm21", "Sm2m1", "S31", "Sm31",
    "S211", "Sm211", "Sm22",
];

/// |a - b| / |b|
fn rel(a: C64, b: C64) -> f64 {
    (a - b).abs() / b.abs()
}

/// Every sum equals eko's cache value at the table's points (Talbot region,
/// near N = 1, real axis, |N| up to 1e3), both symmetries.
#[test]
fn sums_equal_eko() {
    let mut worst = [(0.0f64, C64::ZERO, true); 19];
    for &(re, im, singlet, ref want) in super::eko_reference::EKO_SUMS {
        let n = C64::new(re, im);
        let got = fields(&SumValues::new(n, singlet).unwrap());
        for i in 0..19 {
            let r = rel(got[i], C64::new(want[i].0, want[i].1));
            if r > worst[i].0 {
                worst[i] = (r, n, singlet);
            }
        }
    }
    for i in 0..19 {
        let (r, n, singlet) = worst[i];
        println!("{:>6}: max rel. deviation from eko {r:.2e} at N = {n:?}, singlet {singlet}", NAMES[i]);
        assert!(r < 1e-12, "{} deviates from eko by {r:e} at N = {n:?}, singlet {singlet}", NAMES[i]);
    }
}

/// The nested sum S_{a_1,...}(n) from its definition, a negative index meaning
/// an alternating sum: S_{a,rest}(n) = sum_{j<=n} sign(a)^j / j^|a| S_rest(j).
fn nested(idx: &[i32], n: u32) -> f64 {
    let Some((&a, rest)) = idx.split_first() else { return 1.0 };
    (1..=n)
        .map(|j| {
            let sign = if a < 0 && j % 2 == 1 { -1.0 } else { 1.0 };
            sign / (j as f64).powi(a.abs()) * nested(rest, j)
        })
        .sum()
}

/// The indices of each field of the reference table.
const INDICES: [&[i32]; 19] = [
    &[1], &[2], &[3], &[4], &[5], &[-1], &[-2], &[-3], &[-4], &[-5], &[2, 1], &[2, -1], &[-2, 1], &[-2, -1],
    &[3, 1], &[-3, 1], &[2, 1, 1], &[-2, 1, 1], &[-2, 2],
];

/// Relative accuracy at positive integers of eko's continuation, field by field:
/// the single sums are exact (rounding only); the nested ones carry the error
/// of the fitted g-functions ([Bl00]; eko shows 7e-9 for S21 up to 6e-7 for
/// Sm22 on N = 1..40). Each bound is about 3 times the largest measured.
const INTEGER_TOLERANCE: [f64; 19] = [
    1e-14, 1e-14, 1e-14, 1e-14, 1e-14, 1e-13, 1e-13, 1e-13, 1e-13, 1e-13, 3e-8, 2e-7, 1e-6, 2e-7, 1e-10, 1e-6,
    2e-7, 1e-6, 2e-6,
];

/// At positive integer N the continuation with the matching symmetry (even N:
/// is_singlet, odd N: not) is the finite sum.
#[test]
fn continuation_equals_the_finite_sums_at_integers() {
    let mut worst = [0.0f64; 19];
    for n in 1..=40u32 {
        let got = fields(&SumValues::new(C64::real(n as f64), n % 2 == 0).unwrap());
        for i in 0..19 {
            let want = nested(INDICES[i], n);
            let r = (got[i] - want).abs() / want.abs();
            assert!(got[i].im == 0.0, "{}({n}) has an imaginary part {}", NAMES[i], got[i].im);
            assert!(r < INTEGER_TOLERANCE[i], "{}({n}) = {} vs finite sum {want}: rel. {r:e}", NAMES[i], got[i].re);
            worst[i] = worst[i].max(r);
        }
    }
    for i in 0..19 {
        println!("{:>6}: max rel. deviation from the finite sums (N = 1..40) {:.2e}", NAMES[i], worst[i]);
    }
}

/// Relative defect of the recurrence below at complex N, field by field: rounding
/// for the single sums; for the nested ones the g-function (and Pegasus g_3)
/// error, which grows away from the positive real axis: measured at most 5e-7
/// (S21), 4e-7 (S2m1), 1.4e-5 (Sm21), 4e-9 (Sm2m1), 6e-8 (S31), 9e-7 (Sm31),
/// 3e-7 (S211), 4e-7 (Sm211), 2.6e-6 (Sm22), all at N = -3 + 9i. Bounds about 3x that.
const RECURRENCE_TOLERANCE: [f64; 19] = [
    1e-14, 1e-14, 1e-14, 1e-14, 1e-14, 1e-14, 1e-14, 1e-14, 1e-14, 1e-14, 2e-6, 2e-6, 5e-5, 2e-8, 2e-7, 3e-6,
    1e-6, 1.5e-6, 1e-5,
];

/// The recurrence in N at complex N, S_{a,b}(N) - S_{a,b}(N-1) = sign(a)^N S_b(N) / N^|a|,
/// where sign(a)^N flips the symmetry: the sums with eta = +1 at N and with
/// eta = -1 at N-1 differ by +S_b(N)/N^|a| for an alternating first index
/// (and by the same for a positive one, symmetry not involved). Exact for the
/// single sums; within the g-function accuracy for the nested ones.
#[test]
fn recurrence_in_n_at_complex_n() {
    let points = [C64::new(2.5, 1.5), C64::new(0.7, 6.0), C64::new(-3.0, 9.0), C64::new(12.0, -20.0), C64::new(35.0, 30.0)];
    let mut worst = [0.0f64; 19];
    for &n in &points {
        for singlet_at_n in [true, false] {
            let hi = SumValues::new(n, singlet_at_n).unwrap();
            let lo = SumValues::new(n - 1.0, !singlet_at_n).unwrap();
            let eta = if singlet_at_n { 1.0 } else { -1.0 };
            let (f_hi, f_lo) = (fields(&hi), fields(&lo));
            for i in 0..19 {
                let idx = INDICES[i];
                let sign = if idx[0] < 0 { eta } else { 1.0 };
                let tail = match &idx[1..] {
                    [] => C64::ONE,
                    [1] => hi.s1,
                    [2] => hi.s2,
                    [-1] => hi.sm1,
                    [1, 1] => (hi.s1 * hi.s1 + hi.s2) * 0.5, // S_{1,1} = (S_1^2 + S_2)/2
                    other => unreachable!("tail {other:?}"),
                };
                let step = tail * sign * n.powi(-idx[0].abs());
                let r = (f_hi[i] - f_lo[i] - step).abs() / f_hi[i].abs();
                let tol = RECURRENCE_TOLERANCE[i];
                assert!(r < tol, "{} at N = {n:?}, singlet {singlet_at_n}: recurrence off by {r:e}", NAMES[i]);
                worst[i] = worst[i].max(r);
            }
        }
    }
    for i in 0..19 {
        println!("{:>6}: max rel. recurrence defect {:.2e}", NAMES[i], worst[i]);
    }
}

/// Sums without a negative index do not depend on the symmetry; those with
/// one do (away from the real axis the two continuations differ).
#[test]
fn only_alternating_sums_depend_on_the_symmetry() {
    for n in [C64::new(2.5, 1.5), C64::new(-4.0, 12.5), C64::new(40.0, 1.0)] {
        let (p, m) = (fields(&SumValues::new(n, true).unwrap()), fields(&SumValues::new(n, false).unwrap()));
        for i in 0..19 {
            if INDICES[i].iter().all(|&a| a > 0) {
                assert_eq!(p[i], m[i], "{} depends on is_singlet", NAMES[i]);
            } else {
                assert!((p[i] - m[i]).abs() > 1e-10 * p[i].abs(), "{} does not depend on is_singlet", NAMES[i]);
            }
        }
    }
}

/// Poles and non-finite N are errors, as for the polygammas.
#[test]
fn poles_are_errors() {
    for n in [0.0, -1.0, -2.0, -3.0, -8.0] {
        assert_eq!(SumValues::new(C64::real(n), true).err(), Some(PolygammaError::Pole), "N = {n}");
    }
    assert_eq!(SumValues::new(C64::new(f64::NAN, 1.0), false).err(), Some(PolygammaError::NotFinite));
    assert!(SumValues::new(C64::new(-3.0, 1e-3), true).is_ok());
}

/// `from_sums` reuses the polygammas of `harmonics::Sums` and must give
/// bitwise the values of `new`, for both continuations, on and off the real
/// axis (including the recurrence and the asymptotic regimes); at N = 0 it
/// fails like `new`.
#[test]
fn from_sums_is_new_bitwise() {
    let points = [(0.7, 0.0), (2.5, 0.3), (1.3, 2.5), (-3.4, 9.1), (6.0, -17.0), (25.0, 40.0), (-11.8, 18.9)];
    for (re, im) in points {
        let n = C64::new(re, im);
        let h = crate::harmonics::Sums::new(n).unwrap();
        for is_singlet in [true, false] {
            let (a, b) = (SumValues::new(n, is_singlet).unwrap(), SumValues::from_sums(&h, is_singlet).unwrap());
            for (i, (x, y)) in fields(&a).iter().zip(fields(&b).iter()).enumerate() {
                assert!(x.re.to_bits() == y.re.to_bits() && x.im.to_bits() == y.im.to_bits(), "N {n:?} field {i}: {x:?} vs {y:?}");
            }
        }
    }
    let zero = crate::harmonics::Sums::new(C64::ZERO).unwrap();
    assert!(SumValues::from_sums(&zero, true).is_err());
}
