/* quad/area_moments.h: the moments of one interpolation area, the building
 * block of the stable basis transforms (docs/physics.md §4.3). Host+device
 * (EKOC_HD), common subset of C11 and C++, no allocation, no failure paths.
 *
 * On area a = (u_a, u_{a+1}] (u = ln x for a logarithmic basis, u = x for a
 * linear one) every basis polynomial is written in the local variable
 *   s = (u - u_{a+1}) / (u_{a+1} - u_a)  in (-1, 0],
 * p(s) = sum_r q_r s^r with O(1) coefficients, and its transform at the
 * inversion point x_k is sum_r q_r I_r with the moments
 *   I_r = int_area (x/x_k)^N s^r dx/x,   r = 0..degree.
 * With E_q = e^{N (ln x_q - ln x_k)} (one complex exponential per grid node):
 *
 * log (h = l_{a+1} - l_a, z = N h):
 *   I_r = (-1)^r h K_r,  K_r = E_hi int_0^1 t^r e^{-z t} dt
 *   forward   K_0 = (E_hi - E_lo)/z,  K_r = (r K_{r-1} - E_lo)/z   (|z| large)
 *   series    K_r = E_lo M_r,  M_d = sum_k z^k d!/(d+k+1)! (|z| small; four
 *             interleaved Horner chains in z^4), then
 *             M_{r-1} = (z M_r + 1)/r down to M_0
 *   dropped lower bound (eko's rule): the primitive vanishing at l -> -inf,
 *             K_0 = E_hi/z, K_r = r K_{r-1}/z, i.e. I_r = (-1)^r h E_hi r!/z^{r+1}
 * linear (eta = 1 - x_a/x_{a+1}, rho = x_a/x_{a+1}):
 *   I_r = (-1)^r K_r,  K_r = eta E_hi int_0^1 v^r (1 - eta v)^{N-1} dv
 *   forward   K_0 = (E_hi - E_lo)/N,  K_r = (r K_{r-1}/eta - E_lo)/(N + r)
 *   backward  K_r = eta E_lo W_r,  W_{r-1} = (eta (N + r) W_r + 1)/r from
 *             W_R = 1/(rho (R+1))
 *   dropped lower bound (the same rule as the log basis, docs/physics.md
 *             §4.3): the primitive vanishing at x -> 0, E_lo = 0 in forward,
 *             I_r = (-1)^r E_hi eta^{-r} r!/(N (N+1) ... (N+r))
 * Forward multiplies the rounding of K_{r-1} by r/|z_r| (z_r = z, resp.
 * eta (N + r)), backward by |z_r|/r: each area takes the direction whose
 * amplification is smaller; the series has as many terms as |z| needs for
 * 2^-54 relative, the linear backward start R is far enough above the degree
 * that the start's error is damped below 1e-17. Nothing overflows that
 * the transform itself does not: E_lo and E_hi are the only exponentials.
 */
#ifndef EKOC_QUAD_AREA_MOMENTS_H
#define EKOC_QUAD_AREA_MOMENTS_H

#include <stddef.h>
#include <stdint.h>

#include "ad/ad_math.h"
#include "ekoc/interp.h"

/* Most terms of the series of a logarithmic area beyond the first (33 at
 * degree 15 and |z| at the forward limit; a multiple of 4 plus 3). */
#define EKOC_MOMENT_TMAX 43
/* Most backward steps of a linear area (the damping per step tends to eta:
 * only areas spanning a factor > ~20 in x come near; they go forward). */
#define EKOC_MOMENT_TMAX_LIN 1000
/* Doubles of the basis header: is_log; the largest |z|^2 for which T terms
 * beyond the first suffice, T = 1..EKOC_MOMENT_TMAX (ascending; the series
 * takes T + 1 rounded up to a multiple of 4); the series coefficients
 * d!/(d+k+1)!, k = 0..EKOC_MOMENT_TMAX (quad/interp.c fills it). */
#define EKOC_BASIS_HEADER_LEN ((size_t)2 + 2 * EKOC_MOMENT_TMAX)
/* Doubles of the geometry of one area: log (h, 1/h, 0); linear (eta, 1/eta, 1/rho). */
#define EKOC_AREA_GEOM 3

/* Above this |z| a logarithmic area goes forward (squared). The crossing of
 * the measured rounding of the two directions (in units of eps, relative to
 * max(|E_lo|, |E_hi|)/(r+1)): both stay below ~10 for degree <= 8. */
EKOC_HD double ekoc_moment_forward_z2(int32_t degree) {
  double t = 0.55 * (double)degree + 0.6;
  return t * t;
}

/* Per-N constants shared by every area of one transform. */
typedef struct ekoc_moment_ctx {
  ekoc_complex n, inv_n;
  ekoc_complex inv_np[EKOC_INTERP_MAX_DEGREE + 1]; /* linear: 1/(N + r), r >= 1 */
  double np2[EKOC_INTERP_MAX_DEGREE + 1];          /* linear: |N + r|^2 */
  double forward_z2;                               /* log: ekoc_moment_forward_z2 */
  const double *terms_z2;                          /* log: header + 1, EKOC_MOMENT_TMAX ascending limits */
  const double *series;                            /* log: d!/(d+k+1)!, k = 0..EKOC_MOMENT_TMAX */
  int32_t degree, is_log;
} ekoc_moment_ctx;

/* The context for N from a basis header. */
EKOC_HD void ekoc_moment_ctx_init(ekoc_moment_ctx *c, const double *header, int32_t degree, ekoc_complex n) {
  int32_t r;
  c->n = n;
  c->inv_n = c_inv(n);
  c->degree = degree;
  c->is_log = header[0] != 0.0;
  c->forward_z2 = ekoc_moment_forward_z2(degree);
  c->terms_z2 = header + 1;
  c->series = header + 1 + EKOC_MOMENT_TMAX;
  for (r = 0; r <= degree; ++r) {
    ekoc_complex npr = c_add_real(n, (double)r);
    c->inv_np[r] = c->is_log ? c_real(0.0) : c_inv(npr); /* (set for the log kind too: no uninitialised reads) */
    c->np2[r] = c_abs2(npr);
  }
  if (!c->is_log) c->inv_np[0] = c->inv_n;
}

/* sum_{k=0}^{4g-1} a_k z^k as sum_{j<4} z^j sum_i a_{4i+j} (z^4)^i: four
 * independent Horner chains of g steps (so the terms do not wait on one
 * another) and a short combination. g <= EKOC_MOMENT_TMAX/4 + 1. */
EKOC_HD ekoc_complex ekoc_series4_(const double *a, int32_t g, ekoc_complex z) {
  ekoc_complex z2 = c_mul(z, z), z4 = c_mul(z2, z2), a0 = c_real(0.0), a1 = a0, a2 = a0, a3 = a0;
  int32_t i;
  for (i = g - 1; i >= 0; --i) {
    const double *c = a + 4 * i;
    a0 = c_add_real(c_mul(a0, z4), c[0]);
    a1 = c_add_real(c_mul(a1, z4), c[1]);
    a2 = c_add_real(c_mul(a2, z4), c[2]);
    a3 = c_add_real(c_mul(a3, z4), c[3]);
  }
  return c_add(c_add(a0, c_mul(z, a1)), c_mul(z2, c_add(a2, c_mul(z, a3))));
}

/* Logarithmic area, geometry g = (h, 1/h, .). The recurrences are written
 * with their N-dependent factors (r/z, z/r, E_lo/z) formed off the chain of
 * dependent operations, so each step is one complex product and one sum. */
EKOC_HD void ekoc_moments_log_(const ekoc_moment_ctx *c, const int32_t d, const double *g, ekoc_complex e_lo,
                               ekoc_complex e_hi, int lower, ekoc_complex *mom) {
  double h = g[0];
  ekoc_complex z = c_scale(c->n, h);
  double z2 = c_abs2(z);
  int32_t r;
  if (!lower || z2 >= c->forward_z2) {
    ekoc_complex w = c_scale(c->inv_n, g[1]), ew = lower ? c_mul(e_lo, w) : c_real(0.0);
    ekoc_complex k = c_mul(lower ? c_sub(e_hi, e_lo) : e_hi, w);
    mom[0] = c_scale(k, h);
    for (r = 1; r <= d; ++r) {
      k = c_sub(c_mul(c_scale(w, (double)r), k), ew); /* (r K - E_lo)/z */
      mom[r] = c_scale(k, r % 2 ? -h : h);
    }
  } else {
    int32_t groups = 1; /* the series has 4 groups terms */
    ekoc_complex m, eh = c_scale(e_lo, h);
    while (4 * groups < EKOC_MOMENT_TMAX && z2 > c->terms_z2[4 * groups - 2]) ++groups;
    m = ekoc_series4_(c->series, groups, z);
    mom[d] = c_mul(eh, m);
    for (r = d; r >= 1; --r) {
      double inv_r = 1.0 / (double)r;
      m = c_add_real(c_mul(c_scale(z, inv_r), m), inv_r); /* (z M + 1)/r */
      mom[r - 1] = c_mul(eh, m);
    }
    for (r = 1; r <= d; r += 2) mom[r] = c_neg(mom[r]);
  }
}

/* Linear area, geometry g = (eta, 1/eta, 1/rho). */
EKOC_HD void ekoc_moments_lin_(const ekoc_moment_ctx *c, const int32_t d, const double *g, ekoc_complex e_lo,
                               ekoc_complex e_hi, int lower, ekoc_complex *mom) {
  double eta = g[0], eta2 = eta * eta, fwd = 1.0, bwd = 1.0, p = 1.0, q = 1.0, damp = 1.0;
  int32_t r, big_r = d;
  /* squared amplifications of the rounding: forward (with the cancellation
   * of E_hi - E_lo when |eta N| < 1) and backward */
  if (!lower) e_lo = c_real(0.0); /* forward: a product of factors, nothing cancels */
  else if (eta2 * c->np2[0] < 1.0)
    fwd = 1.0 / (eta2 * c->np2[0]);
  for (r = 1; lower && r <= d; ++r) {
    double zr2 = eta2 * c->np2[r], r2 = (double)r * (double)r;
    p *= r2 / zr2;
    q *= zr2 / r2;
    if (p > fwd) fwd = p;
    if (q > bwd) bwd = q;
  }
  if (bwd < fwd)
    do { /* backward start: damp the start's error below 1e-17 */
      double re = c->n.re + (double)(big_r + 1);
      ++big_r;
      damp *= eta2 * (re * re + c->n.im * c->n.im) / ((double)big_r * (double)big_r);
    } while (damp > 1e-34 && big_r < d + EKOC_MOMENT_TMAX_LIN);
  if (bwd >= fwd || damp > 1e-34) {
    ekoc_complex k = c_mul(c_sub(e_hi, e_lo), c->inv_n);
    mom[0] = k;
    for (r = 1; r <= d; ++r) {
      k = c_mul(c_sub(c_scale(k, (double)r * g[1]), e_lo), c->inv_np[r]);
      mom[r] = r % 2 ? c_neg(k) : k;
    }
  } else {
    ekoc_complex w = c_real(g[2] / (double)(big_r + 1)), e = c_scale(e_lo, eta);
    for (r = big_r; r >= 1; --r) {
      ekoc_complex zr = c_scale(c_add_real(c->n, (double)r), eta);
      w = c_scale(c_add_real(c_mul(zr, w), 1.0), 1.0 / (double)r);
      if (r - 1 <= d) mom[r - 1] = w;
    }
    for (r = 0; r <= d; ++r) {
      ekoc_complex k = c_mul(e, mom[r]);
      mom[r] = r % 2 ? c_neg(k) : k;
    }
  }
}

/* I_0..I_degree of one area: g its geometry (EKOC_AREA_GEOM doubles), e_lo
 * and e_hi the node exponentials at its ends (e_lo unused when lower = 0),
 * lower = 0 for an area whose lower bound eko's rule drops. degree is the
 * context's (passed again so that callers with a literal degree get
 * unrolled loops). */
EKOC_HD void ekoc_area_moments(const ekoc_moment_ctx *c, const int32_t degree, const double *g, ekoc_complex e_lo,
                               ekoc_complex e_hi, int lower, ekoc_complex *mom) {
  if (c->is_log)
    ekoc_moments_log_(c, degree, g, e_lo, e_hi, lower, mom);
  else
    ekoc_moments_lin_(c, degree, g, e_lo, e_hi, lower, mom);
}

/* sum_r q_r I_r: one basis function's share of an area. */
EKOC_HD ekoc_complex ekoc_area_combine(const double *q, const ekoc_complex *mom, int32_t degree) {
  ekoc_complex acc = c_real(0.0);
  int32_t r;
  for (r = 0; r <= degree; ++r) acc = c_add(acc, c_scale(mom[r], q[r]));
  return acc;
}

#endif /* EKOC_QUAD_AREA_MOMENTS_H */
