/* path_radius.c: the row's Talbot radius off the poles of the U_k kernels
 * (quad/path_radius.h; docs/physics.md §3.1). */
#include "quad/path_radius.h"

#include <math.h>

#include "quad/talbot.h"
#include "status.h"

/* Samples of |r_+ - r_-| across a window around a crossing. */
#define PATH_SAMPLES 5
/* Bisection steps locating a pole (the bracket shrinks below 1e-12 of it). */
#define PATH_BISECTIONS 44

int ekoc_path_pole_orders(const ekoc_nspace_cfg *cfg) {
  if (cfg->kind != EKOC_KIND_EVOLUTION || cfg->family != EKOC_FAMILY_SINGLET || cfg->order < 2) return 0;
  switch (cfg->method) {
    case EKOC_METHOD_TRUNCATED:
    case EKOC_METHOD_ORDERED_TRUNCATED:
      return cfg->order;
    case EKOC_METHOD_PERTURBATIVE_EXACT:
    case EKOC_METHOD_PERTURBATIVE_EXPANDED:
      return cfg->ev_op_max_order;
    default:
      return 0;
  }
}

int ekoc_path_discriminant(const ekoc_nspace_cfg *lo, size_t count, const double *n_re, const double *n_im,
                           double *scratch, ekoc_complex *tower, ekoc_complex *disc) {
  size_t i;
  int rc = ekoc_nspace_towers(lo, count, n_re, n_im, scratch, tower);
  for (i = 0; rc == EKOC_OK && i < count; ++i) {
    const ekoc_complex *t = tower + 4 * i;
    ekoc_complex d = c_sub(t[0], t[3]); /* gamma_qq - gamma_gg */
    disc[i] = c_add(c_mul(d, d), c_scale(c_mul(t[1], t[2]), 4.0));
  }
  return rc;
}

/* |r_+ - r_-| at real N: sqrt of the discriminant of gamma^(0) over beta_0
 * (0 where the eigenvalues are complex: then no k +- (r_+ - r_-) vanishes). */
static int eigen_gap(const ekoc_nspace_cfg *lo, double n, double *gap) {
  double scratch[EKOC_NSPACE_TOWER_SCRATCH(1)], im = 0.0, disc;
  ekoc_complex t[4], dc;
  int rc = ekoc_path_discriminant(lo, 1, &n, &im, scratch, t, &dc);
  if (rc != EKOC_OK) return rc;
  disc = dc.re;
  *gap = disc > 0.0 ? sqrt(disc) / fabs(lo->beta[0]) : 0.0;
  return EKOC_OK;
}

/* Where |r_+ - r_-| = k (k < kmax) in [c - h, c + h]: 0 none; 1 one simple
 * crossing, bracketed in [*lo_n, *hi_n] with k in *k_out; 2 more than one, or
 * an extremum of the gap touching k between samples (a double pole). */
static int window_poles(const ekoc_nspace_cfg *lo, int kmax, double c, double h, int *k_out, double *lo_n,
                        double *hi_n, int *rc) {
  double n[PATH_SAMPLES], g[PATH_SAMPLES];
  int i, k, found = 0;
  for (i = 0; i < PATH_SAMPLES; ++i) {
    n[i] = c + h * (2.0 * i / (PATH_SAMPLES - 1) - 1.0);
    *rc = eigen_gap(lo, n[i], &g[i]);
    if (*rc != EKOC_OK) return 0;
  }
  for (k = 1; k < kmax; ++k) {
    for (i = 0; i + 1 < PATH_SAMPLES; ++i)
      if ((g[i] - k) * (g[i + 1] - k) <= 0.0) {
        if (found++) return 2;
        *k_out = k;
        *lo_n = n[i];
        *hi_n = n[i + 1];
      }
    /* a parabola through three samples whose vertex crosses k: two poles
     * between samples that the sign test misses */
    for (i = 0; i + 2 < PATH_SAMPLES; ++i) {
      double a = 0.5 * (g[i] + g[i + 2]) - g[i + 1], b = 0.5 * (g[i + 2] - g[i]), s, v;
      if (a == 0.0) continue;
      s = -b / (2.0 * a); /* vertex, in sample steps from n[i + 1] */
      if (fabs(s) >= 1.0) continue;
      v = g[i + 1] + b * s + a * s * s;
      if ((v - k) * (g[i + 1] - k) < 0.0) return 2;
    }
  }
  return found;
}

int ekoc_path_radius(const ekoc_nspace_cfg *cfg, double logx, double *radius, ekoc_path_status *status) {
  ekoc_nspace_cfg lo = *cfg;
  int kmax = ekoc_path_pole_orders(cfg), k = 0, rc = EKOC_OK, where, it;
  double r = ekoc_talbot_radius(logx), c = 1.0 + r, h = EKOC_PATH_POLE_GUARD * r, a, b, ga, p, moved;
  *radius = r;
  *status = EKOC_PATH_TALBOT;
  if (kmax < 2) return EKOC_OK;
  lo.order = 1; /* gamma^(0) only */
  where = window_poles(&lo, kmax, c, h, &k, &a, &b, &rc);
  if (rc != EKOC_OK) return rc;
  if (where == 0) return EKOC_OK;
  *status = EKOC_PATH_UNRESOLVED;
  if (where == 2) return EKOC_OK;
  /* the pole, by bisection of |r_+ - r_-| - k on [a, b] */
  rc = eigen_gap(&lo, a, &ga);
  if (rc != EKOC_OK) return rc;
  for (it = 0; it < PATH_BISECTIONS; ++it) {
    double m = 0.5 * (a + b), gm;
    rc = eigen_gap(&lo, m, &gm);
    if (rc != EKOC_OK) return rc;
    if ((ga - k) * (gm - k) <= 0.0) {
      b = m;
    } else {
      a = m;
      ga = gm;
    }
  }
  p = 0.5 * (a + b);
  /* the crossing moved to the guard distance on its own side of the pole; it
   * moves inside the window just searched, which held this pole only */
  moved = c >= p ? p + h : p - h;
  if (moved <= 1.0) return EKOC_OK;
  /* both radii above every complex pole's r*: none of those is swept */
  if (r <= EKOC_PATH_COMPLEX_POLE_RADIUS || moved - 1.0 <= EKOC_PATH_COMPLEX_POLE_RADIUS) return EKOC_OK;
  /* no other pole near the new crossing (the window ends short of p) */
  where = window_poles(&lo, kmax, moved, 0.9 * h, &k, &a, &b, &rc);
  if (rc != EKOC_OK) return rc;
  if (where != 0) return EKOC_OK;
  *radius = moved - 1.0;
  *status = EKOC_PATH_MOVED;
  return EKOC_OK;
}
