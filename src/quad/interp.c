/* interp.c: eko's logarithmic Lagrange interpolation basis (docs/physics.md §4;
 * eko module eko.interpolation): the lambertgrid generator, construction of
 * the per-area monomial coefficients, and x-space evaluation. The N-space
 * transforms are in quad/interp.h (host and device). */
#include "quad/interp.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_lambert.h>

#include "status.h"

/* ---- lambertgrid ------------------------------------------------------------ */

/* y(x) = 5(1 - x) - ln x (arXiv:2008.12789 eq. 2.11). */
static double lambert_y(double x) { return 5.0 * (1.0 - x) - log(x); }

int ekoc_grid_lambert(size_t n, double xmin, double *x_out) {
  double y_min, y_max, step;
  double *tmp;
  size_t i;
  if (x_out == NULL) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_grid_lambert: x_out is NULL");
  if (n < 2) return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_grid_lambert: n = %zu, need n >= 2", n);
  if (!(xmin > 0.0 && xmin < 1.0))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_grid_lambert: xmin = %g, need 0 < xmin < 1", xmin);
  ekoc_init(); /* GSL must report, not abort */
  tmp = (double *)malloc(n * sizeof *tmp);
  if (tmp == NULL) return ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_grid_lambert: cannot allocate %zu doubles", n);
  /* numpy.linspace(y(xmin), y(1), n): y_i = start + i*step, last = stop */
  y_min = lambert_y(xmin);
  y_max = lambert_y(1.0);
  step = (y_max - y_min) / (double)(n - 1);
  for (i = 0; i < n; ++i) {
    double y = i + 1 == n ? y_max : (double)i * step + y_min;
    gsl_sf_result w;
    int st = gsl_sf_lambert_W0_e(5.0 * exp(5.0 - y), &w);
    if (st != GSL_SUCCESS || !isfinite(w.val)) {
      free(tmp);
      return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_grid_lambert: Lambert W0 failed at point %zu (%s)", i,
                        gsl_strerror(st));
    }
    tmp[i] = w.val / 5.0;
  }
  tmp[n - 1] = 1.0; /* W0(5 e^5) = 5 exactly */
  for (i = 0; i < n; ++i) {
    if (!(tmp[i] > 0.0) || (i > 0 && !(tmp[i] > tmp[i - 1]))) {
      double bad = tmp[i];
      free(tmp);
      return ekoc_error(EKOC_ERR_INVALID_ARGUMENT,
                        "ekoc_grid_lambert: n = %zu, xmin = %g give a grid that is not strictly ascending in "
                        "double precision (x[%zu] = %.17g)",
                        n, xmin, i, bad);
    }
  }
  for (i = 0; i < n; ++i) x_out[i] = tmp[i];
  free(tmp);
  return EKOC_OK;
}

/* ---- basis construction ---------------------------------------------------- */

/* Monomial coefficients c_0..c_d (in l) of the Lagrange polynomial of node j
 * through the nodes kmin..kmin+d: the product over k != j of (l - l_k),
 * multiplied out factor by factor in ascending k, then divided by
 * prod (l_j - l_k) (the same sequence of operations as eko's
 * Area._compute_coefs, so the coefficients agree to rounding). */
static void lagrange_coefs(const double *logx, size_t j, size_t kmin, int32_t degree, double *c) {
  double denom = 1.0;
  size_t k, len = 1, m;
  c[0] = 1.0;
  for (k = kmin; k <= kmin + (size_t)degree; ++k) {
    if (k == j) continue;
    denom *= logx[j] - logx[k];
    /* c <- (l - l_k) c: shift up, then add -l_k c */
    c[len] = c[len - 1];
    for (m = len - 1; m > 0; --m) c[m] = c[m - 1] - logx[k] * c[m];
    c[0] = -logx[k] * c[0];
    ++len;
  }
  for (m = 0; m < len; ++m) c[m] /= denom;
}

int ekoc_interp_alloc(const double *x, size_t n, int32_t degree, ekoc_interp **out) {
  ekoc_interp *ip;
  size_t i, j, stride, rec;
  if (x == NULL) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_interp_alloc: x is NULL");
  if (out == NULL) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_interp_alloc: out is NULL");
  if (n < 2) return ekoc_error(EKOC_ERR_INVALID_GRID, "ekoc_interp_alloc: n = %zu, need at least 2 points", n);
  for (i = 0; i < n; ++i) {
    if (!(x[i] > 0.0 && x[i] <= 1.0))
      return ekoc_error(EKOC_ERR_INVALID_GRID, "ekoc_interp_alloc: x[%zu] = %.17g, need 0 < x <= 1", i, x[i]);
    if (i > 0 && !(x[i] > x[i - 1]))
      return ekoc_error(EKOC_ERR_INVALID_GRID,
                        "ekoc_interp_alloc: x[%zu] = %.17g <= x[%zu] = %.17g, need strictly ascending", i, x[i],
                        i - 1, x[i - 1]);
  }
  if (degree < 1 || degree > EKOC_INTERP_MAX_DEGREE || (size_t)degree >= n)
    return ekoc_error(EKOC_ERR_INVALID_DEGREE,
                      "ekoc_interp_alloc: degree = %d, need 1 <= degree < n = %zu and degree <= %d", (int)degree, n,
                      EKOC_INTERP_MAX_DEGREE);

  ip = (ekoc_interp *)calloc(1, sizeof *ip);
  if (ip == NULL) goto nomem;
  ip->n = n;
  ip->degree = degree;
  ip->x = (double *)malloc(n * sizeof *ip->x);
  ip->logx = (double *)malloc(n * sizeof *ip->logx);
  ip->area_offset = (size_t *)calloc(n + 1, sizeof *ip->area_offset);
  if (ip->x == NULL || ip->logx == NULL || ip->area_offset == NULL) goto nomem;
  for (i = 0; i < n; ++i) {
    ip->x[i] = x[i];
    ip->logx[i] = log(x[i]);
    /* the basis lives in ln x: neighbours one ulp apart can share a logarithm */
    if (i > 0 && !(ip->logx[i] > ip->logx[i - 1])) {
      ekoc_interp_free(ip);
      return ekoc_error(EKOC_ERR_INVALID_GRID,
                        "ekoc_interp_alloc: x[%zu] = %.17g and x[%zu] = %.17g have the same ln x in double precision",
                        i - 1, x[i - 1], i, x[i]);
    }
  }
  /* count the areas of every basis function: area i belongs to the basis
   * functions kmin(i)..kmin(i)+degree */
  for (i = 0; i + 1 < n; ++i) {
    size_t kmin = ekoc_interp_block_kmin(i, n, degree);
    for (j = kmin; j <= kmin + (size_t)degree; ++j) ip->area_offset[j + 1]++;
  }
  for (j = 0; j < n; ++j) ip->area_offset[j + 1] += ip->area_offset[j];
  ip->n_areas = ip->area_offset[n];
  stride = EKOC_AREA_STRIDE(degree);
  ip->area = (double *)malloc(ip->n_areas * stride * sizeof *ip->area);
  if (ip->area == NULL) goto nomem;
  /* fill the records of each basis function in ascending area order */
  for (j = 0; j < n; ++j) {
    rec = ip->area_offset[j];
    for (i = 0; i + 1 < n; ++i) {
      size_t kmin = ekoc_interp_block_kmin(i, n, degree);
      double *r;
      if (kmin > j) break; /* kmin is non-decreasing in i */
      if (j > kmin + (size_t)degree) continue;
      r = ip->area + rec * stride;
      r[0] = ip->logx[i];
      r[1] = ip->logx[i + 1];
      lagrange_coefs(ip->logx, j, kmin, degree, r + 2);
      ++rec;
    }
  }
  *out = ip;
  return EKOC_OK;

nomem:
  ekoc_interp_free(ip);
  return ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_interp_alloc: cannot allocate the basis for n = %zu, degree = %d", n,
                    (int)degree);
}

void ekoc_interp_free(ekoc_interp *interp) {
  if (interp == NULL) return;
  free(interp->x);
  free(interp->logx);
  free(interp->area_offset);
  free(interp->area);
  free(interp);
}

size_t ekoc_interp_size(const ekoc_interp *interp) { return interp == NULL ? 0 : interp->n; }

/* ---- x-space evaluation ------------------------------------------------------ */

/* One basis function at l = ln x (eko's evaluate_x): the first of its areas
 * with lmin < l <= lmax, the first area also accepting l = lmin (within
 * EKOC_INTERP_ATOL); sum_i c_i l^i; 0 outside all areas. */
static double basis_eval_log(const double *areas, size_t n_areas, int32_t degree, double l) {
  size_t stride = EKOC_AREA_STRIDE(degree), a;
  int32_t i;
  for (a = 0; a < n_areas; ++a) {
    const double *r = areas + a * stride;
    if ((r[0] < l && l <= r[1]) || (a == 0 && fabs(l - r[0]) < EKOC_INTERP_ATOL)) {
      double res = 0.0, p = 1.0;
      for (i = 0; i <= degree; ++i) {
        res += r[2 + i] * p;
        p *= l;
      }
      return res;
    }
  }
  return 0.0;
}

int ekoc_interp_eval(const ekoc_interp *interp, double x, double *weights_out, size_t n_out) {
  size_t j;
  double l;
  if (interp == NULL) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_interp_eval: interp is NULL");
  if (weights_out == NULL) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_interp_eval: weights_out is NULL");
  if (!(x > 0.0 && x <= 1.0))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_interp_eval: x = %.17g, need 0 < x <= 1", x);
  if (n_out < interp->n)
    return ekoc_error(EKOC_ERR_BUFFER_TOO_SMALL, "ekoc_interp_eval: n_out = %zu < basis size %zu", n_out,
                      interp->n);
  l = log(x);
  for (j = 0; j < interp->n; ++j) {
    size_t na;
    const double *areas = ekoc_interp_areas(interp, j, &na);
    weights_out[j] = basis_eval_log(areas, na, interp->degree, l);
  }
  return EKOC_OK;
}
