/* nspace_pole_find.c: where the poles of the N-space backend's kernels lie
 * (nspace_poles.h): the U_k poles of the truncated and perturbative singlet
 * solutions (docs/physics.md §3.3), those of a backward-exact matching's
 * exact inverse and the zeros of the ordered-truncated non-singlet
 * denominators, with the circles their residues are taken on. */
#include "evol/nspace_poles.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "quad/path_cache.h"
#include "quad/path_radius.h"
#include "quad/talbot.h"
#include "status.h"

/* Points of the scan of the real axis per unit of ln(N - 1). */
#define SCAN_DENSITY 200.0
/* Newton steps for the complex poles. */
#define NEWTON_STEPS 60

static int push_pole_of(ekoc_pole_set *s, double re, double im, int32_t nf, int32_t job, int32_t eko_offset) {
  size_t i;
  for (i = 0; i < s->n; ++i) /* the same pole found twice (two starts, two segments, two families) */
    if (s->pole[i].nf == nf && s->pole[i].job == job && s->pole[i].eko_offset == eko_offset &&
        hypot(s->pole[i].re - re, s->pole[i].im - im) < 1e-7 * (1.0 + fabs(re)))
      return EKOC_OK;
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 16;
    ekoc_pole *q = realloc(s->pole, cap * sizeof *q);
    if (!q) return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory for the poles");
    s->pole = q;
    s->cap = cap;
  }
  s->pole[s->n].re = re;
  s->pole[s->n].im = im;
  s->pole[s->n].rho = 0.0;
  s->pole[s->n].job = job;
  s->pole[s->n].eko_offset = eko_offset;
  s->pole[s->n++].nf = nf;
  return EKOC_OK;
}

/* A pole of the singlet kernels of the segments of nf. */
static int push_pole(ekoc_pole_set *s, double re, double im, int32_t nf) { return push_pole_of(s, re, im, nf, -1, 1); }

/* A real function of real N whose zeros are poles: its value at n into *out. */
typedef int (*real_fn)(void *ctx, double n, double *out);

/* The zero of f in [a, b] (fa = f(a), f(b) of the other sign or zero) by 50
 * bisections into *root (the bracket shrinks below 1e-15 of it). */
static int bisect(real_fn f, void *ctx, double a, double b, double fa, double *root) {
  int it, rc = EKOC_OK;
  for (it = 0; it < 50 && rc == EKOC_OK; ++it) {
    double m = 0.5 * (a + b), v = 0.0;
    rc = f(ctx, m, &v);
    if (v * fa <= 0.0)
      b = m;
    else
      a = m, fa = v;
  }
  *root = 0.5 * (a + b);
  return rc;
}

/* (r_+ - r_-)^2 = disc(gamma^(0)) / beta_0^2 of family lo (order 1) at the
 * count points (re, im) into out. */
static int gap2(const ekoc_nspace_cfg *lo, size_t count, const double *re, const double *im, double *scratch,
                ekoc_complex *tower, ekoc_complex *out) {
  size_t i;
  int rc = ekoc_path_discriminant(lo, count, re, im, scratch, tower, out);
  for (i = 0; rc == EKOC_OK && i < count; ++i) out[i] = c_scale(out[i], 1.0 / (lo->beta[0] * lo->beta[0]));
  return rc;
}

/* Scratch of the evaluations at up to `cap` points (re, im): the crate's
 * scratch, per point `tower_len` tower values and `per_point` results in val
 * ([point][result]). */
typedef struct point_scratch {
  size_t cap;
  double *re, *im, *scratch;
  ekoc_complex *tower, *val;
} point_scratch;

static int point_scratch_alloc(point_scratch *w, size_t cap, int tower_len, int per_point) {
  w->cap = cap;
  w->re = malloc(cap * sizeof *w->re);
  w->im = malloc(cap * sizeof *w->im);
  w->scratch = malloc(EKOC_NSPACE_TOWER_SCRATCH(cap) * sizeof *w->scratch);
  w->tower = malloc(cap * (size_t)tower_len * sizeof *w->tower);
  w->val = malloc(cap * (size_t)per_point * sizeof *w->val);
  return w->re && w->im && w->scratch && w->tower && w->val;
}

static void point_scratch_free(point_scratch *w) {
  free(w->re), free(w->im), free(w->scratch), free(w->tower), free(w->val);
}

/* (r_+ - r_-)^2 - k^2 of family lo at one real N (bisect's function). */
typedef struct gap_at {
  const ekoc_nspace_cfg *lo;
  point_scratch *w;
  int k;
} gap_at;

static int gap_minus_k2(void *ctx, double n, double *out) {
  gap_at *c = ctx;
  double zero = 0.0;
  ekoc_complex v;
  int rc = gap2(c->lo, 1, &n, &zero, c->w->scratch, c->w->tower, &v);
  *out = v.re - c->k * c->k;
  return rc;
}

/* The real poles of family lo in (1, n_max]: sign changes of (r_+ - r_-)^2
 * - k^2 on a dense grid of ln(N - 1), then bisection. */
static int real_poles(const ekoc_nspace_cfg *lo, int kmax, double n_max, point_scratch *w, ekoc_pole_set *s) {
  double u0 = log(1e-3), u1 = log(n_max - 1.0);
  size_t count = (size_t)((u1 - u0) * SCAN_DENSITY) + 2, i;
  int k, rc;
  if (count > w->cap) count = w->cap;
  for (i = 0; i < count; ++i) {
    w->re[i] = 1.0 + exp(u0 + (u1 - u0) * (double)i / (double)(count - 1));
    w->im[i] = 0.0;
  }
  rc = gap2(lo, count, w->re, w->im, w->scratch, w->tower, w->val);
  if (rc != EKOC_OK) return rc;
  {
    double *n = malloc(count * sizeof *n), *g = malloc(count * sizeof *g);
    if (!n || !g) {
      free(n), free(g);
      return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory for the poles");
    }
    for (i = 0; i < count; ++i) n[i] = w->re[i], g[i] = w->val[i].re;
    for (k = 1; rc == EKOC_OK && k < kmax; ++k)
      for (i = 0; rc == EKOC_OK && i + 1 < count; ++i) {
        gap_at ctx = {lo, w, k};
        double fa = g[i] - k * k, root;
        if (fa * (g[i + 1] - k * k) > 0.0) continue;
        rc = bisect(gap_minus_k2, &ctx, n[i], n[i + 1], fa, &root);
        if (rc == EKOC_OK) rc = push_pole(s, root, 0.0, lo->nf);
      }
    free(n), free(g);
  }
  return rc;
}

/* The complex poles of family lo near N = 0 (those whose paths' radii lie
 * where eko's or the band paths' do): Newton from a grid of starts in
 * -3 < Re N < 1.5, 0 < Im N < 1.4. */
static int complex_poles(const ekoc_nspace_cfg *lo, int kmax, point_scratch *w, ekoc_pole_set *s) {
  enum { NRE = 16, NIM = 7, NS = NRE * NIM };
  ekoc_complex z[NS];
  unsigned char live[NS];
  const double h = 1e-6;
  int k, it, i, rc = EKOC_OK;
  if (w->cap < 3 * NS) return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: pole scratch too small");
  for (k = 1; rc == EKOC_OK && k < kmax; ++k) {
    for (i = 0; i < NS; ++i) z[i] = c_make(-3.0 + 0.3 * (i % NRE), 0.1 + 0.2 * (i / NRE));
    for (i = 0; i < NS; ++i) live[i] = 1;
    for (it = 0; rc == EKOC_OK && it < NEWTON_STEPS; ++it) { /* the starts still moving, side by side */
      int n = 0, act[NS];
      for (i = 0; i < NS; ++i)
        if (live[i]) {
          w->re[3 * n] = z[i].re, w->im[3 * n] = z[i].im;
          w->re[3 * n + 1] = z[i].re + h, w->im[3 * n + 1] = z[i].im;
          w->re[3 * n + 2] = z[i].re - h, w->im[3 * n + 2] = z[i].im;
          act[n++] = i;
        }
      if (n == 0) break;
      rc = gap2(lo, 3 * (size_t)n, w->re, w->im, w->scratch, w->tower, w->val);
      for (int q = 0; rc == EKOC_OK && q < n; ++q) {
        ekoc_complex f = c_add_real(w->val[3 * q], -(double)(k * k));
        ekoc_complex d = c_scale(c_sub(w->val[3 * q + 1], w->val[3 * q + 2]), 0.5 / h), step;
        i = act[q];
        if (!(c_abs(d) > 0.0) || !isfinite(f.re) || !isfinite(f.im)) {
          live[i] = 0;
          continue;
        }
        step = c_div(f, d);
        if (c_abs(step) > 0.5) step = c_scale(step, 0.5 / c_abs(step));
        z[i] = c_sub(z[i], step);
        if (z[i].im < 1e-3) z[i].im = 1e-3; /* stay in the upper half plane: the real poles come from the scan */
        /* converged, or gone far from where the poles that matter lie */
        if (c_abs(step) < 1e-14 * (1.0 + c_abs(z[i])) || c_abs(z[i]) > 20.0) live[i] = 0;
      }
    }
    if (rc != EKOC_OK) break;
    for (i = 0; i < NS; ++i) {
      w->re[i] = z[i].re, w->im[i] = z[i].im;
    }
    rc = gap2(lo, NS, w->re, w->im, w->scratch, w->tower, w->val);
    for (i = 0; rc == EKOC_OK && i < NS; ++i) {
      double miss = c_abs(c_add_real(w->val[i], -(double)(k * k)));
      if (miss < 1e-9 * k * k && z[i].im > 2e-3 && c_abs(z[i]) > 1e-2) rc = push_pole(s, z[i].re, z[i].im, lo->nf);
    }
  }
  return rc;
}

/* The circle radius of every pole: a third of the distance to the nearest
 * other singularity (poles, N = 1, 0 and the negative integers, a complex
 * pole's conjugate), at most 0.5 and 4 / tau_top so that the transforms,
 * ~e^{N tau}, stay within the rule on half the nodes. */
static void circle_radii(ekoc_pole_set *s, double tau_top) {
  size_t i, j;
  int m;
  for (i = 0; i < s->n; ++i) {
    ekoc_pole *p = &s->pole[i];
    double d = hypot(p->re - 1.0, p->im);
    for (m = 0; m <= 12; ++m) d = fmin(d, hypot(p->re + m, p->im));
    if (p->im > 0.0) d = fmin(d, 2.0 * p->im);
    for (j = 0; j < s->n; ++j) {
      if (j == i) continue;
      d = fmin(d, hypot(p->re - s->pole[j].re, p->im - s->pole[j].im));
      d = fmin(d, hypot(p->re - s->pole[j].re, p->im + s->pole[j].im));
    }
    p->rho = fmin(fmin(d / 3.0, 0.5), 4.0 / fmax(tau_top, 1.0));
  }
}

int ekoc_poles_of_family(const ekoc_nspace_cfg *cfg, double n_max, int with_complex, ekoc_pole_set *out) {
  ekoc_nspace_cfg lo = *cfg;
  int kmax = ekoc_path_pole_orders(cfg), rc;
  point_scratch w;
  if (kmax < 2) return EKOC_OK;
  lo.order = 1; /* gamma^(0) only */
  lo.sv_mode = EKOC_SV_NONE;
  memset(&w, 0, sizeof w);
  if (!point_scratch_alloc(&w, 8192, 4, 1)) {
    point_scratch_free(&w);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory for the poles");
  }
  rc = real_poles(&lo, kmax, n_max, &w, out);
  if (rc == EKOC_OK && with_complex) rc = complex_poles(&lo, kmax, &w, out);
  point_scratch_free(&w);
  return rc;
}

/* Scratch of forward_det at up to `cap` points. */
typedef struct det_scratch {
  double *im, *scratch, *det;
  ekoc_complex *tower;
} det_scratch;

static int det_scratch_alloc(det_scratch *w, size_t cap, int len) {
  w->im = calloc(cap, sizeof *w->im);
  w->det = malloc(cap * sizeof *w->det);
  w->scratch = malloc(EKOC_NSPACE_TOWER_SCRATCH(cap) * sizeof *w->scratch);
  w->tower = malloc(cap * (size_t)len * sizeof *w->tower);
  return w->im && w->det && w->scratch && w->tower;
}

static void det_scratch_free(det_scratch *w) { free(w->im), free(w->det), free(w->scratch), free(w->tower); }

/* The determinant of family cfg's forward matching matrix at the count real
 * points n into w->det (cfg itself is backward-exact: its inverse has its
 * poles where this vanishes). */
static int forward_det(const ekoc_nspace_cfg *cfg, size_t count, const double *n, det_scratch *w) {
  ekoc_nspace_cfg fwd = *cfg;
  int len = ekoc_nspace_tower_len(cfg), rc;
  size_t i;
  fwd.matching_method = EKOC_MATCHING_FORWARD;
  rc = ekoc_nspace_towers(&fwd, count, n, w->im, w->scratch, w->tower);
  for (i = 0; rc == EKOC_OK && i < count; ++i) {
    ekoc_complex m[16]; /* room for any family's elements (the compiler sees every branch) */
    ekoc_nspace_from_tower(&fwd, w->tower + i * (size_t)len, m);
    if (fwd.family == EKOC_FAMILY_NS) { /* (q, q) and (H, H): the (q, H) block is diagonal */
      w->det[i] = c_mul(m[0], m[1]).re;
    } else { /* 3x3 on (g, q, H) by its first row */
      ekoc_complex d = c_mul(m[0], c_sub(c_mul(m[4], m[8]), c_mul(m[5], m[7])));
      d = c_sub(d, c_mul(m[1], c_sub(c_mul(m[3], m[8]), c_mul(m[5], m[6]))));
      d = c_add(d, c_mul(m[2], c_sub(c_mul(m[3], m[7]), c_mul(m[4], m[6]))));
      w->det[i] = d.re;
    }
  }
  return rc;
}

/* The forward determinant at one real N (bisect's function). */
typedef struct det_at {
  const ekoc_nspace_cfg *cfg;
  det_scratch *w;
} det_at;

static int det_value(void *ctx, double n, double *out) {
  det_at *c = ctx;
  int rc = forward_det(c->cfg, 1, &n, c->w);
  *out = c->w->det[0];
  return rc;
}

/* The poles of a backward-exact matching's exact inverse in (1, n_max]:
 * where the forward matrix's determinant vanishes (sign changes on a grid
 * of ln(N - 1), then bisection). Its (H, H) entry 1 + a A_HH^(1) + ..
 * falls with ln N (A_HH^(1) = -38 at N = 12.1, -53 at 20: eko's OMEs at
 * L = 0) and crosses zero on the real axis, at N ~ 12 at the charm
 * threshold (a_s = 0.33) and ~ 23 at the bottom one (0.22);
 * its other zeros lie left of N = 1, inside every path (docs/physics.md §8.4). */
static int matching_poles(const ekoc_nspace_cfg *cfg, int32_t job, double n_max, ekoc_pole_set *s) {
  double u0 = log(1e-3), u1 = log(n_max - 1.0), *n, *det;
  size_t count = (size_t)((u1 - u0) * SCAN_DENSITY / 4.0) + 2, i;
  det_scratch w;
  int rc = EKOC_OK;
  memset(&w, 0, sizeof w);
  n = malloc(count * sizeof *n);
  det = malloc(count * sizeof *det);
  if (!n || !det || !det_scratch_alloc(&w, count, ekoc_nspace_tower_len(cfg))) rc = EKOC_ERR_NO_MEMORY;
  for (i = 0; rc == EKOC_OK && i < count; ++i) n[i] = 1.0 + exp(u0 + (u1 - u0) * (double)i / (double)(count - 1));
  if (rc == EKOC_OK) rc = forward_det(cfg, count, n, &w);
  if (rc == EKOC_OK) memcpy(det, w.det, count * sizeof *det);
  for (i = 0; rc == EKOC_OK && i + 1 < count; ++i) {
    det_at ctx = {cfg, &w};
    double root;
    if (!(det[i] * det[i + 1] <= 0.0)) continue;
    rc = bisect(det_value, &ctx, n[i], n[i + 1], det[i], &root);
    if (rc == EKOC_OK) rc = push_pole_of(s, root, 0.0, cfg->nf, job, -1);
  }
  free(n), free(det);
  det_scratch_free(&w);
  return rc == EKOC_ERR_NO_MEMORY ? ekoc_error(rc, "N-space backend: out of memory for the poles") : rc;
}

/* ---- the ordered-truncated non-singlet denominators ------------------------------------ */

/* sum_i U_i a0^i of the three non-singlet modes (ns+, ns-, nsV) of family
 * cfg at the count points (w->re, w->im) into w->val ([point][mode]), from the anomalous
 * dimensions as the kernel takes them (the exponentiated scale variation's
 * shift included: ad/nspace.h, ekoc_nspace_evolution_ns_with). */
static int ns_denominators(const ekoc_nspace_cfg *cfg, size_t count, point_scratch *w) {
  int len = ekoc_nspace_tower_len(cfg), m;
  int rc = ekoc_nspace_towers(cfg, count, w->re, w->im, w->scratch, w->tower);
  size_t i;
  for (i = 0; rc == EKOC_OK && i < count; ++i) {
    ekoc_complex gamma[3][EKOC_MAX_ORDER], u[EKOC_MAX_ORDER];
    ekoc_nspace_ns_gamma(cfg, w->tower + i * (size_t)len, gamma);
    for (m = 0; m < 3; ++m) {
      if (cfg->sv_mode == EKOC_SV_EXPONENTIATED) ekoc_sv_exponentiated_ns(cfg->order, cfg->sv_log, cfg->beta, gamma[m]);
      ekoc_kernel_ns_u(cfg->order, cfg->beta, gamma[m], u);
      w->val[3 * i + (size_t)m] = ekoc_kernel_ns_u_sum(cfg->order, u, cfg->a0);
    }
  }
  return rc;
}

/* Mode m's denominator at one real N (bisect's function). */
typedef struct den_at {
  const ekoc_nspace_cfg *cfg;
  point_scratch *w;
  int m;
} den_at;

static int den_value(void *ctx, double n, double *out) {
  den_at *c = ctx;
  int rc;
  c->w->re[0] = n, c->w->im[0] = 0.0;
  rc = ns_denominators(c->cfg, 1, c->w);
  *out = c->w->val[c->m].re;
  return rc;
}

/* The real zeros in (1e-3, n_max]: sign changes on a grid of ln N, then
 * bisection (the denominators are real and finite for real N > 0: the
 * anomalous dimensions' poles are at N = 0, -1, ..). */
static int ns_denominator_real(const ekoc_nspace_cfg *cfg, int32_t job, double n_max, point_scratch *w,
                               ekoc_pole_set *s) {
  double u0 = log(1e-3), u1 = log(n_max), *n, *d;
  size_t count = (size_t)((u1 - u0) * SCAN_DENSITY) + 2, i;
  int rc, m;
  if (count > w->cap) count = w->cap;
  for (i = 0; i < count; ++i) w->re[i] = exp(u0 + (u1 - u0) * (double)i / (double)(count - 1)), w->im[i] = 0.0;
  rc = ns_denominators(cfg, count, w);
  n = malloc(count * sizeof *n);
  d = malloc(3 * count * sizeof *d);
  if (!n || !d) rc = ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory for the poles");
  for (i = 0; rc == EKOC_OK && i < count; ++i) {
    n[i] = w->re[i];
    for (m = 0; m < 3; ++m) d[3 * i + (size_t)m] = w->val[3 * i + (size_t)m].re;
  }
  for (m = 0; rc == EKOC_OK && m < 3; ++m)
    for (i = 0; rc == EKOC_OK && i + 1 < count; ++i) {
      den_at ctx = {cfg, w, m};
      double root;
      if (!(d[3 * i + (size_t)m] * d[3 * (i + 1) + (size_t)m] <= 0.0)) continue;
      rc = bisect(den_value, &ctx, n[i], n[i + 1], d[3 * i + (size_t)m], &root);
      if (rc == EKOC_OK) rc = push_pole_of(s, root, 0.0, cfg->nf, job, 0);
    }
  free(n), free(d);
  return rc;
}

/* The complex zeros (upper half plane) near the paths' crossings: Newton on
 * the product of the three modes' denominators (the step 1 / sum_m d_m'/d_m)
 * from a grid of starts in -1.5 <= Re N <= 2.7, 0.1 <= Im N <= 2.2; a start
 * that leaves -2 < Re N < 4, Im N < 3 or meets another is dropped. The
 * conjugates are implied. Left of that every path encloses them (eko's
 * narrowest, x = 1e-9, crosses Im N = 0.5 at Re N > -0.3). */
static int ns_denominator_complex(const ekoc_nspace_cfg *cfg, int32_t job, point_scratch *w, ekoc_pole_set *s) {
  enum { NRE = 15, NIM = 7, NS = NRE * NIM };
  ekoc_complex z[NS];
  unsigned char live[NS];
  const double h = 1e-6;
  int it, i, q, m, rc = EKOC_OK;
  if (w->cap < 3 * NS) return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: pole scratch too small");
  for (i = 0; i < NS; ++i) z[i] = c_make(-1.5 + 0.3 * (i % NRE), 0.1 + 0.35 * (i / NRE)), live[i] = 1;
  for (it = 0; rc == EKOC_OK && it < NEWTON_STEPS; ++it) { /* the starts still moving, side by side */
    int n = 0, act[NS];
    for (i = 0; i < NS; ++i)
      if (live[i]) {
        w->re[3 * n] = z[i].re, w->im[3 * n] = z[i].im;
        w->re[3 * n + 1] = z[i].re + h, w->im[3 * n + 1] = z[i].im;
        w->re[3 * n + 2] = z[i].re - h, w->im[3 * n + 2] = z[i].im;
        act[n++] = i;
      }
    if (n == 0) break;
    rc = ns_denominators(cfg, 3 * (size_t)n, w);
    for (q = 0; rc == EKOC_OK && q < n; ++q) {
      ekoc_complex logd = c_real(0.0), step;
      int ok = 1, k;
      i = act[q];
      for (m = 0; m < 3; ++m) {
        ekoc_complex f = w->val[9 * q + m];
        ekoc_complex dz = c_scale(c_sub(w->val[9 * q + 3 + m], w->val[9 * q + 6 + m]), 0.5 / h);
        if (!isfinite(f.re) || !isfinite(f.im) || !isfinite(dz.re) || !isfinite(dz.im)) ok = 0;
        if (c_abs(f) == 0.0) break; /* on a zero */
        logd = c_add(logd, c_div(dz, f));
      }
      if (m < 3) {
        live[i] = 0;
        continue;
      }
      if (!ok || !(c_abs(logd) > 0.0)) {
        live[i] = 0;
        continue;
      }
      step = c_div(c_real(1.0), logd);
      if (c_abs(step) > 0.25) step = c_scale(step, 0.25 / c_abs(step));
      z[i] = c_sub(z[i], step);
      if (z[i].im < 1e-3) z[i].im = 1e-3; /* the real zeros come from the scan */
      if (c_abs(step) < 1e-14 * (1.0 + c_abs(z[i])) || z[i].re < -2.0 || z[i].re > 4.0 || z[i].im > 3.0) live[i] = 0;
      for (k = 0; live[i] && k < i; ++k) /* on the way to where another start goes */
        if (live[k] && hypot(z[k].re - z[i].re, z[k].im - z[i].im) < 1e-3) live[i] = 0;
    }
  }
  for (i = 0; rc == EKOC_OK && i < NS; ++i) w->re[i] = z[i].re, w->im[i] = z[i].im;
  if (rc == EKOC_OK) rc = ns_denominators(cfg, NS, w);
  for (i = 0; rc == EKOC_OK && i < NS; ++i) {
    double least = INFINITY;
    for (m = 0; m < 3; ++m) least = fmin(least, c_abs(w->val[3 * i + m]));
    if (least < 1e-10 && z[i].im > 2e-3) rc = push_pole_of(s, z[i].re, z[i].im, cfg->nf, job, 0);
  }
  return rc;
}

/* The zeros of the ordered-truncated denominators of segment job's
 * non-singlet family cfg (above LO). */
static int ns_denominator_poles(const ekoc_nspace_cfg *cfg, int32_t job, double n_max, ekoc_pole_set *s) {
  point_scratch w;
  int rc;
  memset(&w, 0, sizeof w);
  if (!point_scratch_alloc(&w, 4096, ekoc_nspace_tower_len(cfg), 3)) {
    point_scratch_free(&w);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory for the poles");
  }
  rc = ns_denominator_real(cfg, job, n_max, &w, s);
  if (rc == EKOC_OK) rc = ns_denominator_complex(cfg, job, &w, s);
  point_scratch_free(&w);
  return rc;
}

/* The poles of family cfg as ekoc_poles_of_family finds them (on its own,
 * into an empty set), taken from the caller's N-space cache where an
 * earlier run on this grid kept them: they depend on gamma^(0) and beta_0
 * (nf, the axes) and the scan (K, n_max, the complex ones) only, not on a_s, and the
 * scan is ~17 % of a warm truncated solve on pineko's grid. Then pushed into
 * out; cold and warm runs push the same list, so the same set. */
static int family_poles(const ekoc_nspace_state *g, const ekoc_nspace_cfg *cfg, double n_max, int with_complex,
                        ekoc_pole_set *out) {
  /* the key: doubles only (no padding bytes), led by a tag no Taylor key (nspace_poles.c) starts with */
  const double key[9] = {-7.0e300, (double)cfg->nf, (double)cfg->polarized, (double)cfg->time_like,
                         (double)cfg->physics, (double)ekoc_path_pole_orders(cfg), cfg->beta[0], n_max,
                         (double)with_complex};
  ekoc_pole_set found;
  const ekoc_pole *list;
  size_t len = 0, n, i;
  int rc = EKOC_OK;
  memset(&found, 0, sizeof found);
  list = g->paths ? ekoc_path_cache_blob(g->paths, key, sizeof key, &len) : NULL;
  n = len / sizeof *list;
  if (!list) {
    rc = ekoc_poles_of_family(cfg, n_max, with_complex, &found);
    if (rc == EKOC_OK && g->paths) /* none found: kept too, as no bytes (the key stands for the data) */
      ekoc_path_cache_put_blob(g->paths, key, sizeof key, found.n ? (const void *)found.pole : (const void *)key,
                               found.n * sizeof *found.pole);
    list = found.pole, n = found.n;
  }
  for (i = 0; rc == EKOC_OK && i < n; ++i)
    rc = push_pole_of(out, list[i].re, list[i].im, list[i].nf, list[i].job, list[i].eko_offset);
  ekoc_poles_free(&found);
  return rc;
}

int ekoc_poles_find(const ekoc_nspace_state *g, ekoc_pole_set *out) {
  const ekoc_plan *p = g->p;
  double n_max = 65.0, r_min = ekoc_talbot_radius(g->ip->logx[0]), tau_top = -g->ip->logx[0];
  const ekoc_nspace_cfg *seen[2 * EKOC_PLAN_MAX_STEPS * 8];
  int n_seen = 0, b, rc = EKOC_OK, with_complex;
  size_t j;
  memset(out, 0, sizeof *out);
  for (b = 0; b < g->bp->n_bands; ++b) {
    n_max = fmax(n_max, 1.0 + 1.1 * g->bp->band[b].radius);
    r_min = fmin(r_min, 0.8 * g->bp->band[b].radius);
  }
  n_max = fmin(1.2 * n_max, 9e4);
  /* the complex poles have r* <= 0.3772 (quad/path_radius.h): only a path
   * narrower than about that can leave one out */
  with_complex = r_min < EKOC_PATH_COMPLEX_POLE_RADIUS + 0.05;
  for (j = 0; rc == EKOC_OK && j < p->n_jobs; ++j) {
    const ekoc_plan_job *job = &p->jobs[j];
    int f, i;
    /* every segment of the plan, not only this run's targets': the same poles, radii and band paths
     * for every chunk of targets, so a streamed target has the bits of the held one */
    if (job->unity) continue;
    if (job->is_matching) { /* a backward-exact inverse: the zeros of the forward matrix's determinant */
      for (f = 0; rc == EKOC_OK && f < 2; ++f)
        if (job->family[f].matching_method == EKOC_MATCHING_BACKWARD_EXACT)
          rc = matching_poles(&job->family[f], (int32_t)j, n_max, out);
      continue;
    }
    for (f = 0; rc == EKOC_OK && f < 2; ++f) {
      const ekoc_nspace_cfg *cfg = &job->family[f];
      if (cfg->family == EKOC_FAMILY_NS && cfg->method == EKOC_METHOD_ORDERED_TRUNCATED && cfg->order > 1) {
        rc = ns_denominator_poles(cfg, (int32_t)j, n_max, out); /* its own a0: every segment's */
        continue;
      }
      if (ekoc_path_pole_orders(cfg) < 2) continue;
      for (i = 0; i < n_seen; ++i) /* the poles depend on gamma^(0) (nf, axes) and K only */
        if (seen[i]->nf == cfg->nf && seen[i]->polarized == cfg->polarized &&
            seen[i]->time_like == cfg->time_like && ekoc_path_pole_orders(seen[i]) == ekoc_path_pole_orders(cfg))
          break;
      if (i < n_seen) continue;
      if (n_seen < (int)(sizeof seen / sizeof *seen)) seen[n_seen++] = cfg;
      rc = family_poles(g, cfg, n_max, with_complex, out);
    }
  }
  if (rc == EKOC_OK) circle_radii(out, tau_top);
  if (rc != EKOC_OK) ekoc_poles_free(out);
  return rc;
}

