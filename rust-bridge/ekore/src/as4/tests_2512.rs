//! Tests of the 2512 set against HOPPET 2.3.0 (`reference_2512`, numerical Mellin
//! moments of HOPPET's compiled x-space functions, written by
//! rust-bridge/ekore/gen/ref_as4_2512.py), its momentum sum rule, and its relation
//! to the FHMRUVV tables.

use super::reference_2512::MOMENTS;
use super::terms::Basis;
use super::*;

const NAMES: [&str; 7] = ["ps", "qg", "gq", "gg", "ns+", "ns-", "ns,s"];

fn sums(n: f64, singlet: bool) -> SumValues {
    SumValues::new(C64::new(n, 0.0), singlet).expect("sums at a positive integer")
}

fn singlet_table(f: usize, nf: u32) -> &'static Param {
    let i = (nf - 3) as usize;
    match f {
        0 => &tables_2512::PS[i],
        1 => &tables_2512::QG[i],
        2 => &tables_2512::GQ[i],
        _ => &tables_2512::GG[i],
    }
}

/// Function f of `NAMES` at N (singlet sums for f < 4, non-singlet ones else).
fn table_value(f: usize, nf: u32, v: u8, n: f64) -> (C64, f64) {
    let b = Basis::new(&sums(n, f < 4));
    let p = match f {
        0..=3 => singlet_table(f, nf),
        4 => &tables_2512::NSP,
        5 => &tables_2512::NSM,
        _ => &tables_2512::NSS,
    };
    (p.eval(&b, nf, v), p.magnitude(&b, nf, v))
}

/// Every table against HOPPET's moment plus the exact effect of HOPPET's
/// single-precision literals: relative 1e-10, or 1e-13 of the sum of the moduli
/// of the terms where they cancel (ns- at N = 1, ~0 by number conservation). The
/// deviation without that literal correction is reported: it is what separates
/// the tables (the printed decimals) from HOPPET's numbers.
#[test]
fn moments_match_hoppet() {
    let (mut worst, mut worst_raw) = ([0.0f64; 7], [0.0f64; 7]);
    for &(f, nf, v, n, hoppet, shift) in MOMENTS {
        let (got, magnitude) = table_value(f, nf, v, n);
        let want = hoppet + shift;
        let scale = want.abs().max(1e-3 * magnitude);
        let rel = (got.re - want).abs() / scale;
        assert!(got.im == 0.0, "{} nf {nf} v {v} N {n}: imaginary part {}", NAMES[f], got.im);
        assert!(rel < 1e-10, "{} nf {nf} v {v} N {n}: {} vs HOPPET {want} (rel {rel:e})", NAMES[f], got.re);
        worst[f] = worst[f].max(rel);
        worst_raw[f] = worst_raw[f].max((got.re - hoppet).abs() / scale);
    }
    for f in 0..7 {
        eprintln!(
            "2512 {}: worst relative deviation from HOPPET {:.1e} (its f32 literals accounted for), {:.1e} (raw)",
            NAMES[f], worst[f], worst_raw[f]
        );
    }
}

/// Through the public functions: gamma_singlet's qq = ns+ + ps with entry 3,
/// gamma_ns's entries 4..6, nf = 6 accepted, nf = 7 not.
#[test]
fn public_functions_use_the_tables() {
    let s = sums(4.0, true);
    let b = Basis::new(&s);
    for nf in 3..=6u32 {
        let var = [1u8, 2, 0, 1, 2, 1, 0];
        let g = gamma_singlet(&s, nf, &var, AdSet::Set2512);
        let qq = tables_2512::NSP.eval(&b, nf, 1) + singlet_table(0, nf).eval(&b, nf, 1);
        assert_eq!(g[0], qq);
        assert_eq!(g[1], singlet_table(1, nf).eval(&b, nf, 0));
        assert_eq!(g[2], singlet_table(2, nf).eval(&b, nf, 2));
        assert_eq!(g[3], singlet_table(3, nf).eval(&b, nf, 1));
        let ns = sums(3.0, false);
        let nb = Basis::new(&ns);
        let all = gamma_ns_all(&ns, nf, &var, AdSet::Set2512);
        let want = [
            tables_2512::NSP.eval(&nb, nf, 2),
            tables_2512::NSM.eval(&nb, nf, 1),
            tables_2512::NSM.eval(&nb, nf, 0) + tables_2512::NSS.eval(&nb, nf, 0),
        ];
        for (k, mode) in [MODE_NS_PLUS, MODE_NS_MINUS, MODE_NS_VALENCE].into_iter().enumerate() {
            assert_eq!(gamma_ns(mode, &ns, nf, &var, AdSet::Set2512), want[k]);
            assert_eq!(all[k], want[k]);
        }
    }
    assert!(check_singlet_nf(6, AdSet::Set2512).is_ok());
    assert!(check_singlet_nf(6, AdSet::Fhmruvv).is_err());
    let m = check_singlet_nf(7, AdSet::Set2512).unwrap_err();
    assert!(m.contains("2512") && m.contains("3..6"), "{m}");
    assert!(gamma_singlet(&s, 7, &[0; 7], AdSet::Set2512)[0].re.is_nan());
    assert_eq!(variation_max(AdSet::Set2512), [2; 7]);
    assert!(check_variation(&[0, 0, 3, 0, 0, 0, 0], AdSet::Set2512).unwrap_err().contains("[2] (qg) = 3"));
    assert_eq!(AdSet::from_index(2), Some(AdSet::Set2512));
    assert_eq!(AdSet::from_index(3), None);
}

/// Momentum sum rule at N = 2 (qq + gq = 0, qg + gg = 0): the approximations are
/// built on the exact N = 2 moments, so it holds to the rounding of the printed
/// coefficients (five or six digits): within 0.5 absolute for entries of
/// 200..5000 (worst 0.37, relative 1e-3 of qq = 328 at nf = 5).
#[test]
fn momentum_sum_rule() {
    let s = sums(2.0, true);
    let mut worst = 0.0f64;
    for nf in 3..=6u32 {
        for v in 0..3u8 {
            let [qq, qg, gq, gg] = gamma_singlet(&s, nf, &[v; 7], AdSet::Set2512);
            let (q, g) = ((qq + gq).abs(), (qg + gg).abs());
            assert!(q < 0.5 && g < 0.5, "nf {nf} v {v}: qq+gq {:?}, qg+gg {:?}", qq + gq, qg + gg);
            worst = worst.max(q).max(g);
        }
    }
    eprintln!("2512 momentum sum rule at N = 2: worst |qq + gq|, |qg + gg| = {worst:.2}");
}

/// At nf = 3..5, gamma_ps, gamma_qg and gamma_gg are eko 0.15.7's FHMRUVV
/// functions (arXiv:2302.07593, 2307.04158, and eko's gg is the 2410.08089 one):
/// the 2512 tables (from HOPPET's x space) and eko's agree to 1e-11. gamma_gq
/// (2512.10783's new moment) and the non-singlet ones (HOPPET's x-space forms
/// against eko's N-space ones; cause not traced) differ: reported.
#[test]
fn relation_to_fhmruvv() {
    for nf in 3..=5u32 {
        let i = (nf - 3) as usize;
        for n in [2.0, 3.0, 4.0, 6.0, 10.0] {
            let b = Basis::new(&sums(n, true));
            for v in 0..3u8 {
                for (f, old) in [(0, &tables_fhmruvv::PS[i]), (1, &tables_fhmruvv::QG[i]), (3, &tables_fhmruvv::GG[i])] {
                    let (a, e) = (singlet_table(f, nf).eval(&b, nf, v), old.eval(&b, nf, v));
                    assert!((a - e).abs() < 1e-11 * e.abs(), "f {f} nf {nf} v {v} N {n}: {a:?} vs eko {e:?}");
                }
                let (a, e) = (singlet_table(2, nf).eval(&b, nf, v), tables_fhmruvv::GQ[i].eval(&b, nf, v));
                if v == 0 && n == 4.0 {
                    eprintln!("2512 vs FHMRUVV nf {nf} N 4: gq {:.1e} relative", (a - e).abs() / e.abs());
                }
            }
        }
    }
    let mut worst = [0.0f64; 3];
    for nf in 3..=6u32 {
        for n in [1.0, 2.0, 3.0, 4.0, 6.0, 10.0] {
            let b = Basis::new(&sums(n, false));
            let new = [&tables_2512::NSP, &tables_2512::NSM, &tables_2512::NSS];
            let old = [&tables_fhmruvv::NSP, &tables_fhmruvv::NSM, &tables_fhmruvv::NSS];
            for k in 0..3 {
                let (a, e) = (new[k].eval(&b, nf, 0), old[k].eval(&b, nf, 0));
                let scale = e.abs().max(1e-3 * old[k].magnitude(&b, nf, 0));
                worst[k] = worst[k].max((a - e).abs() / scale);
            }
        }
    }
    eprintln!("2512 vs FHMRUVV non-singlet (nf 3..6, N 1..10): worst relative {:.1e} (ns+), {:.1e} (ns-), {:.1e} (ns,s)", worst[0], worst[1], worst[2]);
}
