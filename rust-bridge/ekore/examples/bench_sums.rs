//! Cost of one `SumValues::new` (and, for scale, of the NNLO `harmonics::Sums::new`),
//! and of the N3LO quantities built on it (the three non-singlet gamma^(3), the
//! singlet 2x2, the O(a_s^3) OMEs at L = 0.3 and at L = 0, each with its own sums) on Mellin points of a
//! Talbot-like path:
//!
//!     cd rust-bridge && cargo run --release -q --example bench_sums
//!
//! Prints the minimum and the median over 9 repeats of the time per call in ns
//! (the minimum is the steadier figure on a shared machine).

use ekore::complex::C64;
use ekore::harmonics::Sums;
use ekore::sums::SumValues;
use ekore::{as4, ome};
use std::hint::black_box;
use std::time::Instant;

/// Points N(theta) = c + r theta (cot theta + i), theta in (-pi, pi): a Talbot
/// path with c = 1.5, r = 6 (Re N from about -12 to 7.5, |Im N| up to ~19).
fn talbot_points(count: usize) -> Vec<C64> {
    (0..count)
        .map(|j| {
            let theta = -std::f64::consts::PI + (j as f64 + 0.5) * 2.0 * std::f64::consts::PI / count as f64;
            let (s, c) = theta.sin_cos();
            let cot = if theta == 0.0 { 0.0 } else { c / s };
            C64::new(1.5 + 6.0 * (if theta == 0.0 { 1.0 } else { theta * cot }), 6.0 * theta)
        })
        .collect()
}

fn min_median_ns(points: &[C64], reps: usize, f: &dyn Fn(C64) -> f64) -> (f64, f64) {
    let mut times: Vec<f64> = (0..9)
        .map(|_| {
            let t = Instant::now();
            let mut acc = 0.0;
            for _ in 0..reps {
                for &n in points {
                    acc += f(black_box(n));
                }
            }
            black_box(acc);
            t.elapsed().as_nanos() as f64 / (reps * points.len()) as f64
        })
        .collect();
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    (times[0], times[4])
}

fn main() {
    let points = talbot_points(64);
    let reps = 2000;
    let reps: usize = std::env::var("BENCH_REPS").ok().and_then(|r| r.parse().ok()).unwrap_or(reps);
    let var = [3u8, 4, 1, 2, 0, 0, 0];
    let cases: [(&str, &dyn Fn(C64) -> f64); 8] = [
        ("SumValues::new(n, true) ", &|n| SumValues::new(n, true).unwrap().sm22.re),
        ("SumValues::new(n, false)", &|n| SumValues::new(n, false).unwrap().sm22.re),
        ("harmonics::Sums::new(n) ", &|n| Sums::new(n).unwrap().s[0].re),
        ("as4 ns+, ns-, nsV (eko)  ", &|n| {
            let s = SumValues::new(n, false).unwrap();
            as4::gamma_ns_all(&s, 4, &var, false).iter().map(|g| g.re).sum()
        }),
        ("as4 singlet (eko)        ", &|n| as4::gamma_singlet(&SumValues::new(n, true).unwrap(), 4, &var, false)[3].re),
        ("as4 singlet (FHMRUVV)    ", &|n| as4::gamma_singlet(&SumValues::new(n, true).unwrap(), 4, &var, true)[3].re),
        ("ome as3 singlet + ns     ", &|n| {
            ome::a_singlet_as3(&SumValues::new(n, true).unwrap(), 4, 0.3)[0].re
                + ome::a_ns_as3(&SumValues::new(n, false).unwrap(), 4, 0.3)[0].re
        }),
        ("ome as3 singlet + ns, L=0", &|n| {
            ome::a_singlet_as3(&SumValues::new(n, true).unwrap(), 4, 0.0)[0].re
                + ome::a_ns_as3(&SumValues::new(n, false).unwrap(), 4, 0.0)[0].re
        }),
    ];
    for (name, f) in cases {
        let (min, median) = min_median_ns(&points, reps, f);
        println!("{name}: min {min:.0} ns/call, median {median:.0} ns/call");
    }
}
