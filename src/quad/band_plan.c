/* band_plan.c: the bands, their row blocks and path nodes (band_plan.h). */
#include "quad/band_plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "quad/talbot.h"
#include "status.h"

/* Most ln x a block of rows spans, times (1 + r): the row factor
 * e^{N ln(x_k1/x_k)} stays below e^40 at the path's crossing. */
#define BLOCK_SPAN_R 40.0

/* The grid's areas of each basis function: lo[j] .. hi[j]. */
static void basis_areas(const ekoc_interp *ip, int32_t *lo, int32_t *hi) {
  size_t j;
  for (j = 0; j < ip->n; ++j) {
    size_t first = ekoc_interp_first_area(j, ip->degree), na = ip->area_offset[j + 1] - ip->area_offset[j];
    lo[j] = (int32_t)first;
    hi[j] = (int32_t)(first + na) - 1;
  }
}

/* Rows k0..k1 (consecutive, each with columns in the band) as one block, and
 * the per-row split between own and shared transforms. */
static void close_block(ekoc_band *b, const int32_t *lo, size_t nx, int32_t k0, int32_t k1) {
  ekoc_band_block *blk = &b->block[b->n_blocks++];
  int32_t share = 0, k, s_lo = INT32_MAX, s_hi = 0;
  while ((size_t)share < nx && lo[share] <= k1) ++share; /* lo is non-decreasing in j */
  for (k = k0; k <= k1; ++k) {
    int32_t own = share < b->j_lo[k] ? b->j_lo[k] : share > b->j_hi[k] ? b->j_hi[k] : share;
    b->j_own[k] = own;
    if (own < b->j_hi[k]) {
      if (own < s_lo) s_lo = own;
      if (b->j_hi[k] > s_hi) s_hi = b->j_hi[k];
    }
  }
  if (s_lo >= s_hi) s_lo = s_hi = 0;
  blk->k0 = k0;
  blk->k1 = k1;
  blk->s_lo = s_lo;
  blk->s_hi = s_hi;
  if ((size_t)(s_hi - s_lo) > b->max_shared) b->max_shared = (size_t)(s_hi - s_lo);
}

/* Band b's columns per row, its smallest tau and its blocks. */
static void fill_band(ekoc_band *b, const ekoc_interp *ip, const double *t, const int32_t *lo, const int32_t *hi,
                      const int32_t *first) {
  size_t nx = ip->n, k;
  double span;
  int32_t k0 = -1;
  b->tau_min = INFINITY;
  b->n_entries = 0;
  b->n_blocks = 0;
  b->max_cols = b->max_shared = 0;
  for (k = 0; k < nx; ++k) {
    int32_t j = first[k];
    b->j_lo[k] = b->j_hi[k] = b->j_own[k] = 0;
    b->row_tau_min[k] = INFINITY;
    if (j >= (int32_t)nx) continue;
    while (j < (int32_t)nx && t[k] - t[hi[j] + 1] <= b->tau_lo) ++j;
    b->j_lo[k] = j;
    while (j < (int32_t)nx && t[k] - t[hi[j] + 1] <= b->tau_hi) ++j;
    b->j_hi[k] = j;
    b->j_own[k] = b->j_lo[k];
    if (b->j_hi[k] > b->j_lo[k]) {
      int32_t jl = b->j_lo[k], q = lo[jl] > (int32_t)k + 1 ? lo[jl] : (int32_t)k + 1;
      double tau = t[k] - t[q];
      b->row_tau_min[k] = tau;
      if (tau < b->tau_min) b->tau_min = tau;
      b->n_entries += (size_t)(b->j_hi[k] - b->j_lo[k]);
      if ((size_t)(b->j_hi[k] - b->j_lo[k]) > b->max_cols) b->max_cols = (size_t)(b->j_hi[k] - b->j_lo[k]);
    }
  }
  span = fmin(b->tau_lo, BLOCK_SPAN_R / (1.0 + b->radius));
  for (k = 0; k < nx; ++k) {
    int nonempty = b->j_hi[k] > b->j_lo[k];
    if (k0 >= 0 && (!nonempty || t[k0] - t[k] > span)) {
      close_block(b, lo, nx, k0, (int32_t)k - 1);
      k0 = -1;
    }
    if (nonempty && k0 < 0) k0 = (int32_t)k;
  }
  if (k0 >= 0) close_block(b, lo, nx, k0, (int32_t)nx - 1);
}

int ekoc_band_plan_check_grid(const ekoc_interp *ip) {
  size_t k;
  for (k = 0; k + 1 < ip->n; ++k)
    if (ip->logx[k + 1] - ip->logx[k] < EKOC_BAND_CLOSE_MIN)
      return ekoc_error(EKOC_ERR_INVALID_GRID,
                        "request.xgrid[%zu]=%.17g and request.xgrid[%zu]=%.17g are too close for the N-space backend "
                        "(ln ratio %.3g < %g): use the batch or adaptive backend, or drop one of them",
                        k, exp(ip->logx[k]), k + 1, exp(ip->logx[k + 1]), ip->logx[k + 1] - ip->logx[k],
                        EKOC_BAND_CLOSE_MIN);
  return EKOC_OK;
}

int ekoc_band_plan_new(const ekoc_interp *ip, double magnification, double ratio, ekoc_band_plan **out) {
  size_t nx = ip->n, k, per_band;
  int32_t *lo, *hi, *first, j;
  double *t, tau_top = 0.0, tau_bottom = INFINITY, tau_hi;
  ekoc_band_plan *p;
  int nb = 0, b;
  if (!(magnification > 0.0) || !(ratio > 1.0) || !isfinite(magnification) || !isfinite(ratio))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "band paths: magnification=%g must be > 0 and ratio=%g > 1",
                      magnification, ratio);
  if (ekoc_band_plan_check_grid(ip) != EKOC_OK) return EKOC_ERR_INVALID_GRID;
  lo = malloc(nx * sizeof *lo);
  hi = malloc(nx * sizeof *hi);
  first = malloc(nx * sizeof *first);
  t = malloc(nx * sizeof *t);
  if (!lo || !hi || !first || !t) {
    free(lo), free(hi), free(first), free(t);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "band paths: out of memory for %zu grid points", nx);
  }
  basis_areas(ip, lo, hi);
  for (k = 0; k < nx; ++k) t[k] = -ip->logx[k];
  for (k = 0, j = 0; k < nx; ++k) { /* the first basis function with an area above x_k */
    while (j < (int32_t)nx && hi[j] < (int32_t)k) ++j;
    first[k] = j;
    if (j < (int32_t)nx) {
      double top = t[k] - t[hi[nx - 1] + 1], bottom = t[k] - t[hi[j] + 1];
      if (top > tau_top) tau_top = top;
      if (bottom < tau_bottom) tau_bottom = bottom;
    }
  }
  if (!(tau_top > 0.0)) {
    free(lo), free(hi), free(first), free(t);
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "band paths: the grid has no area below x = 1");
  }
  tau_hi = tau_top * (1.0 + 1e-12);
  for (nb = 1; tau_hi / pow(ratio, nb) >= tau_bottom; ++nb) {
  }
  per_band = sizeof(ekoc_band) + nx * sizeof(ekoc_band_block) + nx * sizeof(double) + 3 * nx * sizeof(int32_t);
  p = calloc(1, sizeof *p + (size_t)nb * per_band);
  if (!p) {
    free(lo), free(hi), free(first), free(t);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "band paths: out of memory for %d bands of %zu rows", nb, nx);
  }
  p->nx = nx;
  p->n_bands = nb;
  p->band = (ekoc_band *)(p + 1);
  {
    ekoc_band_block *blocks = (ekoc_band_block *)(p->band + nb);
    double *row_tau = (double *)(blocks + (size_t)nb * nx); /* blocks are 16 bytes: aligned */
    int32_t *cols = (int32_t *)(row_tau + (size_t)nb * nx);
    for (b = 0; b < nb; ++b) {
      ekoc_band *bd = &p->band[b];
      bd->tau_hi = tau_hi / pow(ratio, b);
      bd->tau_lo = b + 1 == nb ? 0.0 : bd->tau_hi / ratio;
      bd->radius = bd->radius_ns = fmin(magnification / bd->tau_hi, EKOC_BAND_RADIUS_MAX);
      bd->height = bd->height_ns = EKOC_BAND_HEIGHT;
      bd->block = blocks + (size_t)b * nx;
      bd->row_tau_min = row_tau + (size_t)b * nx;
      bd->j_lo = cols + (size_t)(3 * b) * nx;
      bd->j_own = bd->j_lo + nx;
      bd->j_hi = bd->j_own + nx;
      fill_band(bd, ip, t, lo, hi, first);
    }
  }
  free(lo), free(hi), free(first), free(t);
  *out = p;
  return EKOC_OK;
}

void ekoc_band_plan_free(ekoc_band_plan *p) { free(p); }

/* |N(theta)| on the path of radius r, height h and offset o. */
static double path_abs(double theta, double r, double h, double o) {
  return hypot(o + r * ekoc_talbot_theta_cot_(theta), h * r * theta);
}

/* The decay a path's end must reach: e^{tau_min Re N(theta_end)} <= e^-TAIL_DECAY. */
#define TAIL_DECAY 40.0
/* Grading of the close-row paths (below): theta = end (s + GRADE sin(pi s) / pi), s in [0, 1]. */
#define GRADE 0.95

void ekoc_band_nodes(const ekoc_band *b, double offset, int m, ekoc_complex *n, ekoc_complex *w, double *tail) {
  double r = ekoc_band_radius_at(b, offset), h = ekoc_band_height_at(b, offset), end = EKOC_PI * (1.0 - EKOC_BAND_THETA_GAP),
         step, grade = 0.0;
  int i;
  if (isfinite(b->tau_min) && b->tau_min * (offset + r * ekoc_talbot_theta_cot_(end)) > -TAIL_DECAY) {
    /* a row of the band decays too slowly along Talbot's end (a close pair of grid points): the path goes
     * on towards theta = pi, to where that row's terms have decayed (or |N| = N_MAX), its nodes graded
     * towards the end, where the integrand falls on a scale of pi - theta ~ r tau_min */
    double a = end, c = EKOC_PI;
    for (i = 0; i < 80; ++i) {
      double mid = 0.5 * (a + c);
      if (b->tau_min * (offset + r * ekoc_talbot_theta_cot_(mid)) > -TAIL_DECAY)
        a = mid;
      else
        c = mid;
    }
    end = c;
    grade = GRADE;
  }
  if (path_abs(end, r, h, offset) > EKOC_BAND_N_MAX) { /* |N| grows along the path: bisect for N_MAX */
    double a = 0.0, c = end;
    for (i = 0; i < 60; ++i) {
      double mid = 0.5 * (a + c);
      if (path_abs(mid, r, h, offset) > EKOC_BAND_N_MAX)
        c = mid;
      else
        a = mid;
    }
    end = a;
  }
  if (grade == 0.0) { /* Talbot's trapezoidal rule in theta */
    step = end / m;
    for (i = 0; i <= m; ++i) {
      double theta = step * i, weight = (i == 0 || i == m ? 0.5 : 1.0) * step / EKOC_PI;
      n[i] = c_make(offset + r * ekoc_talbot_theta_cot_(theta), h * r * theta);
      w[i] = c_make(weight * r * ekoc_talbot_djac_re_(theta), weight * h * r);
    }
  } else { /* the same in s, theta = end (s + grade sin(pi s) / pi): odd in s (the rule's accuracy at 0 kept) */
    step = 1.0 / m;
    for (i = 0; i <= m; ++i) {
      double s = step * i, theta = end * (s + grade * sin(EKOC_PI * s) / EKOC_PI);
      double weight = (i == 0 || i == m ? 0.5 : 1.0) * step * end * (1.0 + grade * cos(EKOC_PI * s)) / EKOC_PI;
      n[i] = c_make(offset + r * ekoc_talbot_theta_cot_(theta), h * r * theta);
      w[i] = c_make(weight * r * ekoc_talbot_djac_re_(theta), weight * h * r);
    }
  }
  *tail = isfinite(b->tau_min) ? exp(b->tau_min * n[m].re) : 0.0;
}
