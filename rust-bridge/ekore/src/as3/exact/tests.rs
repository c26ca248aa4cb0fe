//! Tests of the exact NNLO anomalous dimensions: the papers' second moments,
//! moments at integer N from exact rational sums, the sum rules, the continued
//! sums against the crate's own single and weight-3 sums, and the distance to
//! the parametrisations (eko's physics) along two lines in the complex plane.

use super::moments_table::{INTEGER_MOMENTS, SECOND_MOMENTS};
use super::sums_table::{NW, WORDS};
use super::*;
use crate::harmonics::Sums;
use crate::physics::Physics;
use crate::sums::SumValues;

fn by_name(name: &str, n: C64, nf: u32) -> C64 {
    match name {
        "gamma_nsp" => gamma_nsp(n, nf),
        "gamma_nsm" => gamma_nsm(n, nf),
        "gamma_nss" => gamma_nsv(n, nf) - gamma_nsm(n, nf),
        "gamma_ps" => gamma_ps(n, nf),
        "gamma_qg" => gamma_qg(n, nf),
        "gamma_gq" => gamma_gq(n, nf),
        "gamma_gg" => gamma_gg(n, nf),
        _ => unreachable!("{name}"),
    }
}

fn word_index(w: &[i8]) -> usize {
    (0..NW).find(|&i| WORDS[i] == w).unwrap_or_else(|| panic!("sum {w:?} not in the table"))
}

/// The delta(N-2) values of the papers' FORM files, i.e. their second moments,
/// e.g. gamma_ns^(2)+(2) at nf = 4; the ps/qg/gq/gg ones of [MVV-S].
#[test]
fn second_moments_of_the_papers() {
    let mut worst: f64 = 0.0;
    for &(name, nf, want) in SECOND_MOMENTS {
        let got = by_name(name, C64::real(2.0), nf);
        let rel = (got.re - want).abs() / want.abs();
        worst = worst.max(rel);
        // gamma_qg(2) = -gamma_gg(2) is ~4 from terms ~1e3: rounding of the
        // ~500 f64 terms leaves a few 1e-12 there, 1e-14 elsewhere
        assert!(rel < 2e-11 && got.im == 0.0, "{name} nf={nf}: {got:?} vs {want}");
    }
    eprintln!("second moments: worst relative deviation {worst:.1e}");
}

/// Moments N = 2..10 (even) and 3..9 (odd) against exact rational sums.
#[test]
fn integer_moments() {
    let mut worst: f64 = 0.0;
    for &(name, n, nf, want) in INTEGER_MOMENTS {
        let got = by_name(name, C64::real(n as f64), nf);
        let rel = (got.re - want).abs() / want.abs().max(1.0);
        worst = worst.max(rel);
        assert!(rel < 2e-11, "{name} N={n} nf={nf}: {got:?} vs {want} ({rel:.1e})");
    }
    eprintln!("integer moments: worst relative deviation {worst:.1e}");
}

/// Momentum sum rule at N = 2: gamma_qq + gamma_gq = 0 and gamma_qg + gamma_gg = 0.
#[test]
fn momentum_sum_rule() {
    for nf in 3..=6u32 {
        let g = gamma_singlet(C64::real(2.0), nf);
        let q = (g[0][0] + g[1][0]).abs() / g[0][0].abs();
        let gl = (g[0][1] + g[1][1]).abs() / g[1][1].abs();
        eprintln!("nf={nf}: (qq+gq)/qq = {q:.1e}, (qg+gg)/gg = {gl:.1e}");
        assert!(q < 1e-12 && gl < 2e-11, "nf={nf}: {g:?}");
    }
}

/// Quark-number conservation: gamma_ns^- and gamma_ns^V vanish at N = 1. The
/// formulas hold 1/(N-1) S_w(N-1) terms (0/0 at N = 1); near N = 1 the
/// functions take the mean over a circle (`regular_at_one`), checked here
/// against the plain formulas at N = 1 +- h extrapolated to h = 0 (Neville in
/// h^2 at h = 0.004, 0.002, 0.001), and for continuity at the switch-over.
#[test]
fn number_conservation() {
    let plain = |eta: f64, n: C64, nf: u32, v: bool| {
        let h = Hs::new(n, eta);
        let mut r = combine(formulas::gamma_nsm(&h), nf);
        if v {
            r += combine(formulas::gamma_nss(&h), nf);
        }
        r
    };
    for nf in 3..=5u32 {
        let one = C64::real(1.0);
        let (m, v) = (gamma_nsm(one, nf), gamma_nsv(one, nf));
        eprintln!("nf={nf}: gamma_-(1) = {:.1e}, gamma_V(1) = {:.1e}, gamma_+(1) = {:.6}", m.abs(), v.abs(), gamma_nsp(one, nf).re);
        assert!(m.abs() < 1e-11 && v.abs() < 1e-11, "nf={nf}: {m:?} {v:?}");
        for with_s in [false, true] {
            let hs = [0.004, 0.002, 0.001];
            let mut p: Vec<f64> = hs
                .iter()
                .map(|&h| (plain(-1.0, C64::real(1.0 + h), nf, with_s) + plain(-1.0, C64::real(1.0 - h), nf, with_s)).re * 0.5)
                .collect();
            for lvl in 1..hs.len() {
                for i in 0..hs.len() - lvl {
                    let (a, b) = (hs[i] * hs[i], hs[i + lvl] * hs[i + lvl]);
                    p[i] = (p[i + 1] * a - p[i] * b) / (a - b);
                }
            }
            assert!(p[0].abs() < 1e-9, "nf={nf} V={with_s}: {:e}", p[0]);
        }
        // the mean against the plain formulas just inside |N - 1| = 0.02, where
        // the 0/0 costs ~1e-13 at most
        for z in [C64::new(1.0199, 0.0), C64::new(1.0, 0.0199), C64::new(0.9801, 0.0), C64::new(1.01, -0.01)] {
            let (mean, direct) = (gamma_nsm(z, nf), plain(-1.0, z, nf, false));
            assert!((mean - direct).abs() < 1e-11 * (1.0 + direct.abs()), "{z:?}: {mean:?} {direct:?}");
            let (mean, direct) = (gamma_nsv(z, nf), plain(-1.0, z, nf, true));
            assert!((mean - direct).abs() < 1e-11 * (1.0 + direct.abs()), "{z:?}: {mean:?} {direct:?}");
            let direct = combine(formulas::gamma_nsp(&Hs::new(z, 1.0)), nf);
            let mean = gamma_nsp(z, nf);
            assert!((mean - direct).abs() < 1e-12 * direct.abs(), "{z:?}: {mean:?} {direct:?}");
        }
    }
}

/// The continued nested sums against the crate's own: single sums, S_{-m}
/// (eta-fixed, harmonics.rs / sums.rs), S_{-2,1} with the exact g_3, and the
/// parity flip of the shifted argument (S_w(N-1) of an even-N continuation is
/// the odd-N continuation at N-1), at complex N on both sides of the shift-up.
#[test]
fn sums_against_crate() {
    let pts = [
        C64::new(1.5, 0.3),
        C64::new(3.0, 7.0),
        C64::new(-4.0, 15.0),
        C64::new(25.0, -3.0),
        C64::new(0.7, 30.0),
    ];
    for &n in &pts {
        for (eta, singlet) in [(1.0, true), (-1.0, false)] {
            let h = Hs::new(n, eta);
            for (j, shift) in [(1usize, 0.0), (2, 1.0), (3, 2.0), (0, -1.0)] {
                let m = n + shift;
                // the continuation of the sums at N + j uses (-1)^(N+j) = eta (-1)^j
                let par = if (j as i32 - 1) % 2 == 0 { singlet } else { !singlet };
                let sv = SumValues::from_sums(&Sums::new(m).unwrap().with_physics(Physics::Exact), par).unwrap();
                let cases: [(&[i8], C64, f64); 10] = [
                    (&[1], sv.s1, 1e-14),
                    (&[2], sv.s2, 1e-14),
                    (&[3], sv.s3, 1e-14),
                    (&[4], sv.s4, 1e-14),
                    (&[5], sv.s5, 1e-14),
                    (&[-2], sv.sm2, 1e-13),
                    (&[-3], sv.sm3, 1e-13),
                    (&[-4], sv.sm4, 1e-13),
                    (&[-5], sv.sm5, 1e-13),
                    (&[-2, 1], sv.sm21, 1e-12),
                ];
                for (w, want, tol) in cases {
                    let got = h.s[word_index(w)][j];
                    let rel = (got - want).abs() / want.abs();
                    assert!(rel < tol, "S_{w:?}(N{shift:+}) N={n:?} eta={eta}: {got:?} vs {want:?} ({rel:.1e})");
                }
                // eko's approximate weight-3/4 sums (Blümlein's fits, ~1e-7)
                let approx: [(&[i8], C64); 4] =
                    [(&[2, 1], sv.s21), (&[-3, 1], sv.sm31), (&[-2, 2], sv.sm22), (&[-2, 1, 1], sv.sm211)];
                for (w, want) in approx {
                    let got = h.s[word_index(w)][j];
                    let rel = (got - want).abs() / want.abs().max(1e-3);
                    assert!(rel < 1e-5, "S_{w:?}(N{shift:+}) N={n:?} eta={eta}: {got:?} vs {want:?} ({rel:.1e})");
                }
            }
        }
    }
}

/// Just below and above the thresholds of the shift-up (Re(N+2) = 18, |Im N| = 12)
/// the sums are continuous: the expansion and the recurrence agree there.
#[test]
fn expansion_point_independence() {
    let cases = [
        (C64::new(15.999_999_999, 0.5), &[1i8, 1, -2, 1][..]),
        (C64::new(-16.0, 11.999_999_999), &[2, 1, -2][..]),
        (C64::new(15.999_999_999, 3.0), &[-2, 2][..]),
    ];
    for (n, w) in cases {
        for eta in [1.0, -1.0] {
            let a = Hs::new(n, eta).s[word_index(w)][1];
            let b = Hs::new(n + C64::new(2e-9, 2e-9), eta).s[word_index(w)][1];
            assert!((a - b).abs() < 1e-7 * a.abs().max(1.0), "{n:?} eta={eta}: {a:?} {b:?}");
        }
    }
}

/// Where the expansion is used directly far left of the imaginary axis
/// (|Im N| >= 12, as on the Talbot paths' wings), against the same sums
/// brought down from Re B >= 18 by the recurrence.
#[test]
fn direct_expansion_left_half_plane() {
    let mut worst: f64 = 0.0;
    for (re, im) in [(-16.0, 12.0), (-40.0, 12.5), (-100.0, 13.0), (-300.0, 18.0), (-30.0, 20.0), (-14.0, -15.0), (-60.0, -12.0)] {
        let n = C64::new(re, im);
        assert_eq!(shift_up(n), 2, "{n:?} is meant to take the direct branch");
        let k = (18.0 - re).ceil() as u32 + 2;
        let k = k + k % 2;
        for eta in [1.0, -1.0] {
            let (direct, down) = (Hs::new(n, eta), Hs::with_shift(n, eta, k));
            for w in 0..NW {
                for j in 0..4 {
                    let (a, b) = (direct.s[w][j], down.s[w][j]);
                    let rel = (a - b).abs() / b.abs().max(1e-3);
                    worst = worst.max(rel);
                    assert!(rel < 1e-11, "S_{:?} N={n:?}{:+} eta={eta}: {a:?} vs {b:?} ({rel:.1e})", WORDS[w], j as i32 - 1);
                }
            }
        }
    }
    eprintln!("direct expansion vs recurrence, left half-plane: worst {worst:.1e}");
}

/// The parametrisations (eko's physics) against the exact functions along
/// N = c + i t, c = 1.5 and 3, t = 0..30: the largest relative deviation of
/// each entry, printed (cargo test -- --nocapture) and bounded.
#[test]
fn parametrisations_vs_exact() {
    use crate::as3 as par;
    let names = ["ns+", "ns-", "nsV", "qq", "qg", "gq", "gg"];
    for nf in [3u32, 4, 5] {
        let mut worst = [0.0f64; 7];
        let mut at = [C64::ZERO; 7];
        for c in [1.5, 3.0] {
            for i in 0..=60 {
                let t = 0.5 * i as f64;
                let n = C64::new(c, t);
                let s = Sums::new(n).unwrap();
                let sg_p = par::gamma_singlet(&s, nf);
                let sg_e = gamma_singlet(n, nf);
                let pairs = [
                    (par::gamma_nsp(&s, nf), gamma_nsp(n, nf)),
                    (par::gamma_nsm(&s, nf), gamma_nsm(n, nf)),
                    (par::gamma_nsv(&s, nf), gamma_nsv(n, nf)),
                    (sg_p[0][0], sg_e[0][0]),
                    (sg_p[0][1], sg_e[0][1]),
                    (sg_p[1][0], sg_e[1][0]),
                    (sg_p[1][1], sg_e[1][1]),
                ];
                for (k, (p, e)) in pairs.iter().enumerate() {
                    let rel = (*p - *e).abs() / e.abs();
                    if rel > worst[k] {
                        worst[k] = rel;
                        at[k] = n;
                    }
                }
            }
        }
        let report: Vec<String> = names.iter().zip(worst.iter()).zip(at.iter()).map(|((n, w), a)| format!("{n} {w:.1e} (N={}{:+}i)", a.re, a.im)).collect();
        eprintln!("nf={nf}: parametrisation vs exact, worst relative on the lines: {}", report.join(", "));
        for (k, w) in worst.iter().enumerate() {
            assert!(*w < 3e-3, "nf={nf} {}: {w:.2e}", names[k]);
        }
    }
}


