/* operator.c: reading and applying computed operators. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evol/basis.h"
#include "evol/operator_internal.h"
#include "status.h"

void ekoc_operator_free(ekoc_operator *op) {
  size_t t;
  if (!op) return;
  /* each distinct operator once, whatever the number of targets sharing it */
  if (op->ops)
    for (t = 0; t < op->n_distinct; ++t) ekoc_blockop_clear(&op->ops[t]);
  if (op->taint)
    for (t = 0; t < op->n_distinct; ++t) ekoc_blockop_clear(&op->taint[t]);
  free(op->distinct);
  free(op->ops);
  free(op->taint);
  free(op->mu2);
  free(op->nf);
  free(op);
}

size_t ekoc_operator_n_targets(const ekoc_operator *op) { return op ? op->n_targets : 0; }
size_t ekoc_operator_nx(const ekoc_operator *op) { return op ? op->nx : 0; }
size_t ekoc_operator_failures(const ekoc_operator *op) { return op ? op->n_failed : 0; }
int32_t ekoc_operator_backend(const ekoc_operator *op) { return op ? op->backend : -1; }

int ekoc_operator_target(const ekoc_operator *op, size_t i, double *mu2, int32_t *nf) {
  if (!op || !mu2 || !nf) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_operator_target: NULL argument");
  if (i >= op->n_targets)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_operator_target: target %zu >= n_targets %zu", i, op->n_targets);
  *mu2 = op->mu2[i];
  *nf = op->nf[i];
  return EKOC_OK;
}

/* dense[a][x][b][y] = sum_{c,d} left[a][c] E[c][d][x][y] right[d][b] (errors with |left|, |right|);
 * either output may be NULL. One output block at a time, each of its rows
 * summed over every contributing evolution block before the next row: the
 * row stays in cache, and the dense array (196 nx^2 doubles, 60 MB at nx
 * 196) is written once instead of once per contribution (NNPDF's fit grid:
 * 69 ms -> ~20 ms per target). The terms are added in the order (c, d),
 * so every element has the bits of the sum taken block by block. */
static void expand(const ekoc_blockop *e, const double left[EKOC_NB][EKOC_NB], const double right[EKOC_NB][EKOC_NB],
                   double *values, double *errors) {
  size_t nx = e->nx, x, y, row = EKOC_NB * nx;
  int a, b, c, d, k, n;
  const double *src[EKOC_NB * EKOC_NB], *src_err[EKOC_NB * EKOC_NB];
  double w[EKOC_NB * EKOC_NB];
  for (a = 0; a < EKOC_NB; ++a)
    for (b = 0; b < EKOC_NB; ++b) {
      n = 0; /* the contributions to block (a, b), in the order (c, d) */
      for (c = 0; c < EKOC_NB; ++c) {
        if (left[a][c] == 0.0) continue;
        for (d = 0; d < EKOC_NB; ++d) {
          if (!e->val[c][d] || left[a][c] * right[d][b] == 0.0) continue;
          w[n] = left[a][c] * right[d][b];
          src[n] = e->val[c][d];
          src_err[n] = e->err[c][d];
          ++n;
        }
      }
      for (x = 0; x < nx; ++x) { /* the row's stored columns lo.. (zeros left of them, blockop.h) */
        size_t lo = ekoc_blockop_row_lo(e, x), at = ekoc_blockop_at(e, x, 0);
        if (values) {
          double *dst = values + (a * nx + x) * row + b * nx;
          memset(dst, 0, sizeof(double) * nx);
          for (k = 0; k < n; ++k) {
            const double *s = src[k] + at;
            for (y = lo; y < nx; ++y) dst[y] += w[k] * s[y];
          }
        }
        if (errors) {
          double *dst = errors + (a * nx + x) * row + b * nx;
          memset(dst, 0, sizeof(double) * nx);
          for (k = 0; k < n; ++k) {
            const double *s = src_err[k] + at;
            for (y = lo; y < nx; ++y) dst[y] += fabs(w[k]) * s[y];
          }
        }
      }
    }
}

static int check_view(const ekoc_operator *op, size_t i, const double *values, size_t len, const char *fn) {
  size_t need;
  if (!op || !values) return ekoc_error(EKOC_ERR_NULL_POINTER, "%s: op and values must not be NULL", fn);
  if (i >= op->n_targets)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "%s: target %zu >= n_targets %zu", fn, i, op->n_targets);
  need = (size_t)EKOC_NB * EKOC_NB * op->nx * op->nx;
  if (len < need) return ekoc_error(EKOC_ERR_BUFFER_TOO_SMALL, "%s: len=%zu < 196*nx*nx=%zu", fn, len, need);
  return EKOC_OK;
}

int ekoc_operator_flavor(const ekoc_operator *op, size_t i, double *values, double *errors, size_t len) {
  double left[EKOC_NB][EKOC_NB], right[EKOC_NB][EKOC_NB];
  int rc = check_view(op, i, values, len, "ekoc_operator_flavor");
  if (rc != EKOC_OK) return rc;
  ekoc_basis_rotation_inverse_of(op->nf[i], op->unified, left);
  ekoc_basis_rotation_of(op->nf0, op->unified, right);
  expand(ekoc_operator_values_of(op, i), left, right, values, errors);
  return EKOC_OK;
}

int ekoc_operator_failed_flavor(const ekoc_operator *op, size_t i, uint8_t *flags, size_t len, size_t *n_flagged) {
  double left[EKOC_NB][EKOC_NB], right[EKOC_NB][EKOC_NB];
  double *reach;
  size_t need, k, count = 0;
  if (!op || (!flags && !n_flagged))
    return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_operator_failed_flavor: op is NULL, or flags and n_flagged both are");
  if (i >= op->n_targets)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_operator_failed_flavor: target %zu >= n_targets %zu", i,
                      op->n_targets);
  need = (size_t)EKOC_NB * EKOC_NB * op->nx * op->nx;
  if (flags && len < need)
    return ekoc_error(EKOC_ERR_BUFFER_TOO_SMALL, "ekoc_operator_failed_flavor: len=%zu < 196*nx*nx=%zu", len, need);
  if (!op->taint) {
    if (flags) memset(flags, 0, need);
    if (n_flagged) *n_flagged = 0;
    return EKOC_OK;
  }
  reach = malloc(need * sizeof *reach);
  if (!reach) return ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_operator_failed_flavor: out of memory");
  ekoc_basis_rotation_inverse_of(op->nf[i], op->unified, left);
  ekoc_basis_rotation_of(op->nf0, op->unified, right);
  expand(ekoc_operator_taint_of(op, i), left, right, NULL, reach);
  for (k = 0; k < need; ++k) {
    uint8_t f = reach[k] != 0.0; /* > 0, or NaN/inf after an overflow */
    count += f;
    if (flags) flags[k] = f;
  }
  free(reach);
  if (n_flagged) *n_flagged = count;
  return EKOC_OK;
}

static void matmul14(const double a[EKOC_NB][EKOC_NB], const double b[EKOC_NB][EKOC_NB], double c[EKOC_NB][EKOC_NB]) {
  int i, j, k;
  for (i = 0; i < EKOC_NB; ++i)
    for (j = 0; j < EKOC_NB; ++j) {
      double s = 0.0;
      for (k = 0; k < EKOC_NB; ++k) s += a[i][k] * b[k][j];
      c[i][j] = fabs(s) < 1e-14 ? 0.0 : s;
    }
}

int ekoc_operator_evolution(const ekoc_operator *op, size_t i, double *values, double *errors, size_t len) {
  double r6[EKOC_NB][EKOC_NB], r6inv[EKOC_NB][EKOC_NB], rin[EKOC_NB][EKOC_NB], routinv[EKOC_NB][EKOC_NB];
  double left[EKOC_NB][EKOC_NB], right[EKOC_NB][EKOC_NB];
  int rc = check_view(op, i, values, len, "ekoc_operator_evolution");
  if (rc != EKOC_OK) return rc;
  ekoc_basis_rotation(6, r6);
  ekoc_basis_rotation_inverse(6, r6inv);
  ekoc_basis_rotation_of(op->nf0, op->unified, rin);
  ekoc_basis_rotation_inverse_of(op->nf[i], op->unified, routinv);
  matmul14(r6, routinv, left);
  matmul14(rin, r6inv, right);
  expand(ekoc_operator_values_of(op, i), left, right, values, errors);
  return EKOC_OK;
}

int ekoc_operator_apply(const ekoc_operator *op, size_t i, const double *pdf_in, double *pdf_out, size_t len,
                        ekoc_profile *profile) {
  double r[EKOC_NB][EKOC_NB], rinv[EKOC_NB][EKOC_NB];
  double *vin, *vout, *res;
  const ekoc_blockop *e;
  size_t nx, x, y, k;
  int a, b;
  uint64_t t0 = ekoc_profile_now_ns(profile);
  if (!op || !pdf_in || !pdf_out) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_operator_apply: NULL argument");
  if (i >= op->n_targets)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_operator_apply: target %zu >= n_targets %zu", i, op->n_targets);
  nx = op->nx;
  if (len < EKOC_NB * nx)
    return ekoc_error(EKOC_ERR_BUFFER_TOO_SMALL, "ekoc_operator_apply: len=%zu < 14*nx=%zu", len, EKOC_NB * nx);
  for (k = 0; k < EKOC_NB * nx; ++k)
    if (!isfinite(pdf_in[k]))
      return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_operator_apply: pdf_in[%zu]=%g is not finite", k, pdf_in[k]);
  /* the result goes to scratch first: pdf_out is written only on success */
  vin = calloc(3 * EKOC_NB * nx, sizeof(double));
  if (!vin) return ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_operator_apply: out of memory");
  vout = vin + EKOC_NB * nx;
  res = vout + EKOC_NB * nx;
  e = ekoc_operator_values_of(op, i);
  ekoc_basis_rotation_of(op->nf0, op->unified, r);
  ekoc_basis_rotation_inverse_of(op->nf[i], op->unified, rinv);
  /* into B_nf0 */
  for (a = 0; a < EKOC_NB; ++a)
    for (b = 0; b < EKOC_NB; ++b)
      if (r[a][b] != 0.0)
        for (y = 0; y < nx; ++y) vin[a * nx + y] += r[a][b] * pdf_in[b * nx + y];
  /* the operator */
  for (a = 0; a < EKOC_NB; ++a)
    for (b = 0; b < EKOC_NB; ++b) {
      const double *blk = e->val[a][b];
      if (!blk) continue;
      for (x = 0; x < nx; ++x) { /* the row's stored columns (blockop.h) */
        const double *stored = blk + ekoc_blockop_at(e, x, 0);
        double s = 0.0;
        for (y = ekoc_blockop_row_lo(e, x); y < nx; ++y) s += stored[y] * vin[b * nx + y];
        vout[a * nx + x] += s;
      }
    }
  /* back to flavours */
  for (a = 0; a < EKOC_NB; ++a)
    for (x = 0; x < nx; ++x) {
      double s = 0.0;
      for (b = 0; b < EKOC_NB; ++b) s += rinv[a][b] * vout[b * nx + x];
      res[a * nx + x] = s;
    }
  /* finite inputs can still overflow (1e308 times an entry above 1, or in
   * the rotations): refuse rather than hand out inf / NaN */
  for (k = 0; k < EKOC_NB * nx; ++k)
    if (!isfinite(res[k])) {
      int flavour = (int)(k / nx);
      double v = res[k];
      free(vin);
      return ekoc_error(EKOC_ERR_NUMERICAL,
                        "ekoc_operator_apply: pdf_out[%zu] (flavour index %d, PDG id %d, x index %zu) of target %zu "
                        "would be %g: the product overflows (inputs too large for this operator); pdf_out untouched",
                        k, flavour, ekoc_basis_flavor_pid(flavour), k % nx, i, v);
    }
  memcpy(pdf_out, res, EKOC_NB * nx * sizeof(double));
  free(vin);
  ekoc_profile_store(profile, "apply", t0, ekoc_profile_now_ns(profile));
  return EKOC_OK;
}
