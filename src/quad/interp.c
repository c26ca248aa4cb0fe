/* interp.c: eko's Lagrange interpolation basis, logarithmic or linear in x
 * (docs/physics.md §4; eko module eko.interpolation): the lambertgrid
 * generator, construction of the per-area records (monomial coefficients, as
 * eko) and of the stable local form, and x-space evaluation. The N-space
 * transforms are in quad/interp.h and quad/area_moments.h (host and device). */
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

/* Monomial coefficients c_0..c_d (in u) of the Lagrange polynomial of node j
 * through the nodes u[kmin..kmin+d]: the product over k != j of (u - u_k),
 * multiplied out factor by factor in ascending k, then divided by
 * prod (u_j - u_k) (the same sequence of operations as eko's
 * Area._compute_coefs, so the coefficients agree to rounding). */
static void lagrange_coefs(const double *u, size_t j, size_t kmin, int32_t degree, double *c) {
  double denom = 1.0;
  size_t k, len = 1, m;
  c[0] = 1.0;
  for (k = kmin; k <= kmin + (size_t)degree; ++k) {
    if (k == j) continue;
    denom *= u[j] - u[k];
    /* c <- (u - u_k) c: shift up, then add -u_k c */
    c[len] = c[len - 1];
    for (m = len - 1; m > 0; --m) c[m] = c[m - 1] - u[k] * c[m];
    c[0] = -u[k] * c[0];
    ++len;
  }
  for (m = 0; m < len; ++m) c[m] /= denom;
}

/* Local coefficients q_0..q_d of the same polynomial on area a, in
 * s = (u - u_{a+1})/h, h = u_{a+1} - u_a (docs/physics.md §4.3): the nodes
 * s_k = (u_k - u_{a+1})/h are O(degree), so the product form multiplied out
 * in s is well conditioned; long double keeps the rounding below the final
 * conversion. h is the double the transforms use (geometry). */
static void local_coefs(const double *u, size_t j, size_t kmin, int32_t degree, size_t a, double h, double *q) {
  long double c[EKOC_INTERP_MAX_DEGREE + 2], denom = 1.0L, sj = ((long double)u[j] - u[a + 1]) / h;
  size_t k, len = 1, m;
  c[0] = 1.0L;
  for (k = kmin; k <= kmin + (size_t)degree; ++k) {
    long double sk;
    if (k == j) continue;
    sk = ((long double)u[k] - u[a + 1]) / h;
    denom *= sj - sk;
    c[len] = c[len - 1];
    for (m = len - 1; m > 0; --m) c[m] = c[m - 1] - sk * c[m];
    c[0] = -sk * c[0];
    ++len;
  }
  for (m = 0; m < len; ++m) q[m] = (double)(c[m] / denom);
}

/* The header of the local block (quad/area_moments.h): is_log; for the
 * series of a log area the largest |z|^2 at which T terms beyond the first
 * leave a truncation below 2^-54 of M_d, |z|^{T+1} (d+1)!/(d+T+2)! = 2^-54,
 * and the coefficients d!/(d+k+1)!. */
static void header_fill(double *header, int32_t degree, int32_t is_log) {
  int t;
  double lg_d1 = lgamma((double)(degree + 2));
  header[0] = is_log ? 1.0 : 0.0;
  for (t = 1; t <= EKOC_MOMENT_TMAX; ++t) {
    double ln_z = (-54.0 * log(2.0) + lgamma((double)(degree + t + 3)) - lg_d1) / (double)(t + 1);
    header[t] = exp(2.0 * ln_z);
  }
  for (t = 0; t <= EKOC_MOMENT_TMAX; ++t)
    header[1 + EKOC_MOMENT_TMAX + t] = exp(lgamma((double)(degree + 1)) - lgamma((double)(degree + t + 2)));
}

int ekoc_interp_alloc_ex(const double *x, size_t n, int32_t degree, int32_t is_log, ekoc_interp **out) {
  ekoc_interp *ip;
  size_t i, j, stride, rec;
  double *local, *geom, *q;
  if (x == NULL) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_interp_alloc: x is NULL");
  if (out == NULL) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_interp_alloc: out is NULL");
  if (is_log != 0 && is_log != 1)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_interp_alloc_ex: is_log = %d, need 0 (x) or 1 (ln x)",
                      (int)is_log);
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
  ip->is_log = is_log;
  ip->x = (double *)malloc(n * sizeof *ip->x);
  ip->logx = (double *)malloc(n * sizeof *ip->logx);
  ip->area_offset = (size_t *)calloc(n + 1, sizeof *ip->area_offset);
  if (ip->x == NULL || ip->logx == NULL || ip->area_offset == NULL) goto nomem;
  for (i = 0; i < n; ++i) {
    ip->x[i] = x[i];
    ip->logx[i] = log(x[i]);
    /* areas are skipped by ln x (both kinds): neighbours one ulp apart can share a logarithm */
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
  ip->area = (double *)malloc((ip->n_areas * stride + EKOC_LOCAL_LEN(n, ip->n_areas, degree)) * sizeof *ip->area);
  if (ip->area == NULL) goto nomem;
  local = ip->area + ip->n_areas * stride;
  ip->local = local;
  header_fill(local, degree, is_log);
  geom = local + EKOC_BASIS_HEADER_LEN;
  for (i = 0; i + 1 < n; ++i) {
    double *g = geom + EKOC_AREA_GEOM * i;
    if (is_log) {
      g[0] = ip->logx[i + 1] - ip->logx[i];
      g[1] = 1.0 / g[0];
      g[2] = 0.0;
    } else {
      g[0] = (x[i + 1] - x[i]) / x[i + 1];
      g[1] = 1.0 / g[0];
      g[2] = x[i + 1] / x[i];
    }
  }
  q = (double *)ekoc_local_coefs(local, n);
  /* fill the records of each basis function in ascending area order */
  for (j = 0; j < n; ++j) {
    rec = ip->area_offset[j];
    for (i = 0; i + 1 < n; ++i) {
      size_t kmin = ekoc_interp_block_kmin(i, n, degree);
      const double *u = is_log ? ip->logx : ip->x;
      double *r;
      if (kmin > j) break; /* kmin is non-decreasing in i */
      if (j > kmin + (size_t)degree) continue;
      r = ip->area + rec * stride;
      r[0] = ip->logx[i];
      r[1] = ip->logx[i + 1];
      lagrange_coefs(u, j, kmin, degree, r + 2);
      local_coefs(u, j, kmin, degree, i, is_log ? geom[EKOC_AREA_GEOM * i] : x[i + 1] - x[i],
                  q + rec * ((size_t)degree + 1));
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

int ekoc_interp_alloc(const double *x, size_t n, int32_t degree, ekoc_interp **out) {
  return ekoc_interp_alloc_ex(x, n, degree, 1, out);
}

int ekoc_interp_is_log(const ekoc_interp *interp) {
  if (interp == NULL) return -ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_interp_is_log: interp is NULL");
  return interp->is_log;
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

/* One basis function at x (eko's evaluate_x, compared in ln x for a log basis
 * and in x for a linear one): the first of its areas with
 * u_lo < u <= u_hi, the first area also accepting u = u_lo (within
 * EKOC_INTERP_ATOL); its local polynomial sum_r q_r s^r by Horner; 0 outside
 * all areas. */
static double basis_eval(const ekoc_interp *ip, size_t j, double x, double l) {
  const double *u = ip->is_log ? ip->logx : ip->x;
  double v = ip->is_log ? l : x;
  size_t first = ekoc_interp_first_area(j, ip->degree), na = ip->area_offset[j + 1] - ip->area_offset[j], i;
  for (i = 0; i < na; ++i) {
    size_t a = first + i;
    if ((u[a] < v && v <= u[a + 1]) || (i == 0 && fabs(v - u[a]) < EKOC_INTERP_ATOL)) {
      const double *q = ekoc_local_coefs(ip->local, ip->n) + (ip->area_offset[j] + i) * ((size_t)ip->degree + 1);
      double h = ip->is_log ? ekoc_local_geom(ip->local)[EKOC_AREA_GEOM * a] : ip->x[a + 1] - ip->x[a];
      double s = (v - u[a + 1]) / h, res = q[ip->degree];
      int32_t r;
      for (r = ip->degree - 1; r >= 0; --r) res = res * s + q[r];
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
  for (j = 0; j < interp->n; ++j) weights_out[j] = basis_eval(interp, j, x, l);
  return EKOC_OK;
}
