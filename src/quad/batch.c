/* batch.c: the fixed-node batch driver and its quadrature rule.
 *
 * For each target point x_k the upper half of the Talbot path, u in
 * [0.5, 1-cut], is integrated with a fixed Gauss-Kronrod rule
 * (quad/batch_nodes.h). Per row k and family: the path points of all nodes
 * (tabulated Talbot pieces, no trigonometry per row), one batch call of the
 * ekore crate for the anomalous dimensions / OMEs at all of them
 * (gpu/batch_host.h), the family's elements from those towers and the node
 * weights (the very functions the GPU runs, gpu/batch_device.h), then per
 * node all basis transforms P_j(N) at once and the weighted sums
 * O_kj += Im(P_j W_m) of every element. Each node costs one family
 * evaluation and one complex exponential per grid node above x_k, shared by
 * all basis functions and elements.
 *
 * Error estimate: |K - G|, the difference between the Kronrod value and the
 * embedded Gauss rule's; conservative for the quadrature error, blind to
 * eko's rounding noise (tests/test_batch.c). Entries are never flagged as
 * failed: the rule's accuracy is validated against the adaptive driver
 * (tests/test_batch.c, perf/bench_batch.c, perf/STATS.md).
 *
 * Why P_j per node and not the cheaper contraction of the basis
 * coefficients after the node sums (sum_m first, then the coefficients): the
 * monomial form of eko's basis cancels by up to ~1e11 at small x, and
 * summing over the nodes before that cancellation multiplied the rounding
 * noise by ~20 (measured: 4e-5 instead of 2e-6 relative on the LHA
 * non-singlet at x = 1e-7), above eko's tolerance.
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/batch_device.h"
#include "gpu/batch_host.h"
#include "quad/batch_nodes.h"
#include "quad/interp.h"
#include "quad/job.h"
#include "quad/nspace_cache.h"
#include "status.h"

/* ---- the rule ------------------------------------------------------------------ */

/* Eigenvalues d[] and first eigenvector components z[] of the symmetric
 * tridiagonal matrix with diagonal d[0..n-1] and off-diagonal e[0..n-2]
 * (e[n-1] is scratch), by the implicit QL method with Wilkinson-type
 * shifts, rotating only the first row of the eigenvector matrix (Golub-Welsch).
 * Returns 0 if an eigenvalue needs more than 60 iterations. */
static int tridiag_eig_first(size_t n, double *d, double *e, double *z) {
  size_t l, m, i;
  for (i = 0; i < n; ++i) z[i] = i == 0 ? 1.0 : 0.0;
  if (n == 0) return 1;
  e[n - 1] = 0.0;
  for (l = 0; l < n; ++l) {
    int iter = 0;
    for (;;) {
      double g, r, s, c, p;
      int underflow = 0;
      for (m = l; m + 1 < n; ++m) {
        double dd = fabs(d[m]) + fabs(d[m + 1]);
        if (fabs(e[m]) <= 1e-17 * dd) break;
      }
      if (m == l) break;
      if (++iter > 60) return 0;
      g = (d[l + 1] - d[l]) / (2.0 * e[l]);
      r = hypot(g, 1.0);
      g = d[m] - d[l] + e[l] / (g + (g >= 0.0 ? r : -r));
      s = c = 1.0;
      p = 0.0;
      for (i = m; i-- > l;) {
        double f = s * e[i], b = c * e[i], zi;
        r = hypot(f, g);
        e[i + 1] = r;
        if (r == 0.0) {
          d[i + 1] -= p;
          e[m] = 0.0;
          underflow = 1;
          break;
        }
        s = f / r;
        c = g / r;
        g = d[i + 1] - p;
        r = (d[i] - g) * s + 2.0 * c * b;
        p = s * r;
        d[i + 1] = g + p;
        g = c * r - b;
        zi = z[i + 1];
        z[i + 1] = s * z[i] + c * zi;
        z[i] = c * z[i] - s * zi;
      }
      if (underflow) continue;
      d[l] -= p;
      e[l] = g;
      e[m] = 0.0;
    }
  }
  return 1;
}

/* Laurie's algorithm (Math. Comp. 66 (1997) 1133, section 4): from the
 * Legendre recurrence coefficients alpha_k = 0, beta_0 = 2,
 * beta_k = k^2/(4k^2-1), the Jacobi matrix (a[0..2n], b[0..2n], b[0] the
 * mass) of the (2n+1)-point Kronrod extension. s, t: floor(n/2)+2 scratch. */
static void kronrod_jacobi(int32_t n, double *a, double *b, double *s, double *t) {
  int32_t k, l, j, m, len = n / 2 + 2;
  for (k = 0; k <= 2 * n; ++k) {
    a[k] = 0.0;
    b[k] = 0.0;
  }
  for (k = 0; k <= (3 * n + 1) / 2 && k <= 2 * n; ++k) b[k] = k == 0 ? 2.0 : (double)k * k / (4.0 * k * k - 1.0);
  for (k = 0; k < len; ++k) s[k] = t[k] = 0.0;
  t[1] = b[n + 1];
  for (m = 0; m <= n - 2; ++m) {
    double run = 0.0, *sw;
    /* k from floor((m+1)/2) down to 0; right-hand sides from the old s, t */
    double rhs[EKOC_BATCH_MAX_POINTS / 2 + 2];
    int32_t kk = (m + 1) / 2;
    for (k = kk; k >= 0; --k) {
      l = m - k;
      rhs[k] = (a[k + n + 1] - a[l]) * t[k + 1] + b[k + n + 1] * s[k] - b[l] * s[k + 1];
    }
    for (k = kk; k >= 0; --k) {
      run += rhs[k];
      s[k + 1] = run;
    }
    sw = s;
    s = t;
    t = sw;
  }
  for (j = n / 2; j >= 0; --j) s[j + 1] = s[j];
  for (m = n - 1; m <= 2 * n - 3; ++m) {
    double run = 0.0, *sw;
    double rhs[EKOC_BATCH_MAX_POINTS / 2 + 2];
    int32_t k0 = m + 1 - n, k1 = (m - 1) / 2, jl = 0, k2;
    for (k = k0; k <= k1; ++k) {
      l = m - k;
      j = n - 1 - l;
      rhs[k - k0] = -(a[k + n + 1] - a[l]) * t[j + 1] - b[k + n + 1] * s[j + 1] + b[l] * s[j + 2];
    }
    for (k = k0; k <= k1; ++k) {
      j = n - 1 - (m - k);
      run += rhs[k - k0];
      s[j + 1] = run;
      jl = j;
    }
    k2 = (m + 1) / 2;
    if (m % 2 == 0)
      a[k2 + n + 1] = a[k2] + (s[jl + 1] - b[k2 + n + 1] * s[jl + 2]) / t[jl + 2];
    else
      b[k2 + n + 1] = s[jl + 1] / s[jl + 2];
    sw = s;
    s = t;
    t = sw;
  }
  a[2 * n] = a[n - 1] - b[2 * n] * s[1] / t[1];
}

int ekoc_batch_kronrod(int32_t n, double *x, double *wk, double *wg) {
  size_t nk, i, p, q;
  double *a, *b, *z, *xg, *wgl, mass;
  int ok = 1;
  if (!x || !wk || !wg) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_batch_kronrod: NULL output");
  if (n < 1 || n > EKOC_BATCH_MAX_POINTS)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_batch_kronrod: n=%d outside 1..%d", (int)n,
                      EKOC_BATCH_MAX_POINTS);
  nk = 2 * (size_t)n + 1;
  a = malloc((6 * nk + 2 * ((size_t)n / 2 + 2)) * sizeof(double));
  if (!a) {
    return ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_batch_kronrod: out of memory for n=%d", (int)n);
  }
  b = a + nk;
  z = b + nk;
  xg = z + nk;
  wgl = xg + nk;
  if (n == 1) { /* Laurie's loops need n >= 2; the extension of the midpoint rule is Gauss's 3-point rule */
    a[0] = a[1] = a[2] = 0.0;
    b[0] = 2.0;
    b[1] = 1.0 / 3.0;
    b[2] = 4.0 / 15.0;
  } else {
    kronrod_jacobi(n, a, b, wgl + 2 * nk, wgl + 2 * nk + (size_t)n / 2 + 2);
  }
  for (i = 1; i < nk; ++i)
    if (!(b[i] > 0.0)) ok = 0; /* a real, positive extension exists for Legendre; anything else is a bug */
  mass = b[0];
  for (i = 0; i + 1 < nk; ++i) b[i] = sqrt(b[i + 1]); /* off-diagonal, in place */
  if (ok) ok = tridiag_eig_first(nk, a, b, z);
  if (ok) {
    /* nodes ascending (insertion sort: few, nearly sorted) */
    for (p = 1; p < nk; ++p) {
      double av = a[p], zv = z[p];
      for (q = p; q > 0 && a[q - 1] > av; --q) {
        a[q] = a[q - 1];
        z[q] = z[q - 1];
      }
      a[q] = av;
      z[q] = zv;
    }
    /* the embedded Gauss rule from the Legendre Jacobi matrix (Golub-Welsch);
     * its nodes must sit at the odd positions */
    for (p = 0; p < (size_t)n; ++p) {
      xg[p] = 0.0;
      wgl[p] = p + 1 < (size_t)n ? (double)(p + 1) / sqrt(4.0 * (p + 1) * (p + 1) - 1.0) : 0.0;
    }
    ok = tridiag_eig_first((size_t)n, xg, wgl, wgl + nk);
    for (p = 0; ok && p < (size_t)n; ++p) wgl[p] = 2.0 * wgl[nk + p] * wgl[nk + p];
    for (p = 1; ok && p < (size_t)n; ++p) {
      double xv = xg[p], wv = wgl[p];
      for (q = p; q > 0 && xg[q - 1] > xv; --q) {
        xg[q] = xg[q - 1];
        wgl[q] = wgl[q - 1];
      }
      xg[q] = xv;
      wgl[q] = wv;
    }
    for (p = 0; ok && p < (size_t)n; ++p)
      if (fabs(xg[p] - a[2 * p + 1]) > 1e-12) ok = 0;
    /* Gauss weights to full accuracy from w = 2 / ((1 - x^2) P_n'(x)^2) */
    for (p = 0; ok && p < (size_t)n; ++p) {
      double xv = 0.5 * (a[2 * p + 1] + xg[p]), p0 = 1.0, p1 = xv, dp = 1.0;
      int32_t kk, it;
      for (it = 0; it < 2; ++it) { /* Newton on P_n, then the weight at the refined node */
        p0 = 1.0;
        p1 = xv;
        for (kk = 1; kk < n; ++kk) {
          double p2 = ((2.0 * kk + 1.0) * xv * p1 - kk * p0) / (kk + 1.0);
          p0 = p1;
          p1 = p2;
        }
        dp = n * (xv * p1 - p0) / (xv * xv - 1.0);
        if (it == 0 && n > 1) xv -= p1 / dp;
      }
      xg[p] = xv;
      wgl[p] = 2.0 / ((1.0 - xv * xv) * dp * dp);
    }
  }
  if (ok) {
    for (p = 0; p < nk; ++p) {
      x[p] = a[p];
      wk[p] = mass * z[p] * z[p];
      wg[p] = 0.0;
    }
    for (p = 0; p < (size_t)n; ++p) {
      x[2 * p + 1] = xg[p];
      wg[2 * p + 1] = wgl[p];
    }
    /* exact symmetry about 0 (the Legendre weight is even) */
    for (p = 0; p < (size_t)n + 1; ++p) {
      size_t q2 = nk - 1 - p;
      double xs = 0.5 * (x[q2] - x[p]), ws = 0.5 * (wk[p] + wk[q2]), gs = 0.5 * (wg[p] + wg[q2]);
      x[p] = p == q2 ? 0.0 : -xs;
      x[q2] = p == q2 ? 0.0 : xs;
      wk[p] = wk[q2] = ws;
      wg[p] = wg[q2] = gs;
    }
  }
  free(a);
  if (!ok)
    return ekoc_error(EKOC_ERR_NUMERICAL, "ekoc_batch_kronrod: the %zu-point Gauss-Kronrod rule could not be computed",
                      nk);
  return EKOC_OK;
}

void ekoc_batch_rule_free(ekoc_batch_rule *rule) {
  if (!rule) return;
  free(rule->u);
  free(rule);
}

int ekoc_batch_rule_alloc(int32_t panels, int32_t points, double cut, ekoc_batch_rule **out) {
  ekoc_batch_rule *r;
  double *x, *wk, *wg, a = 0.5, b = 1.0 - cut, h;
  int32_t p, q, nk;
  int rc;
  if (!out) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_batch_rule_alloc: out is NULL");
  if (panels < 1 || panels > 4096 || points < 1 || points > EKOC_BATCH_MAX_POINTS)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "batch rule: panels=%d / points=%d outside 1..4096 / 1..%d",
                      (int)panels, (int)points, EKOC_BATCH_MAX_POINTS);
  if (!(cut >= 0.0 && cut < 0.5)) return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "batch rule: cut=%g outside [0, 0.5)", cut);
  nk = 2 * points + 1;
  r = calloc(1, sizeof *r);
  x = malloc(3 * (size_t)nk * sizeof *x);
  if (r) r->u = malloc(6 * (size_t)panels * (size_t)nk * sizeof(double));
  if (!r || !x || !r->u) {
    free(x);
    ekoc_batch_rule_free(r);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "batch rule: out of memory for %d x %d nodes", (int)panels, (int)nk);
  }
  wk = x + nk;
  wg = wk + nk;
  rc = ekoc_batch_kronrod(points, x, wk, wg);
  if (rc != EKOC_OK) {
    free(x);
    ekoc_batch_rule_free(r);
    return rc;
  }
  r->panels = panels;
  r->points = points;
  r->n_nodes = panels * nk;
  r->w = r->u + r->n_nodes;
  r->wg = r->w + r->n_nodes;
  r->theta = r->wg + r->n_nodes;
  r->tc = r->theta + r->n_nodes;
  r->dj = r->tc + r->n_nodes;
  h = (b - a) / panels;
  for (p = 0; p < panels; ++p) {
    double lo = a + p * h, hi = p + 1 == panels ? b : a + (p + 1) * h, mid = 0.5 * (lo + hi), half = 0.5 * (hi - lo);
    for (q = 0; q < nk; ++q) {
      int32_t m = p * nk + q;
      double theta;
      r->u[m] = mid + half * x[q];
      r->w[m] = half * wk[q];
      r->wg[m] = half * wg[q];
      theta = EKOC_PI * (2.0 * r->u[m] - 1.0);
      r->theta[m] = theta;
      r->tc[m] = ekoc_talbot_theta_cot_(theta);
      r->dj[m] = ekoc_talbot_djac_re_(theta);
    }
  }
  free(x);
  *out = r;
  return EKOC_OK;
}

/* ---- the driver -------------------------------------------------------------------- */

/* acc[e nx + j] += Im(P_j W_e) for j = j0..nx-1, e = 0..n_el-1: one node's
 * contribution to a row of every element (P from ekoc_bd_basis_all, W from
 * ekoc_bd_weight), in the same operations and order as the CUDA reduction
 * (ekoc_bd_kernel_reduce); at nodes of the embedded Gauss rule (wg not NULL)
 * also accg with the Gauss-weighted W, in the same pass over P.
 * Element-major, so that the loop over j is contiguous and vectorises;
 * compiled twice, baseline and AVX2 (the same multiplications and additions
 * per entry, no FMA: the same bits). */
static inline __attribute__((always_inline)) void accumulate_body(const ekoc_complex *restrict p, size_t j0,
                                                                  size_t nx, const ekoc_complex *wk,
                                                                  const ekoc_complex *wg, int32_t n_el,
                                                                  double *restrict acc, double *restrict accg) {
  int32_t e;
  size_t j;
  for (e = 0; e < n_el; ++e) {
    const double kr = wk[e].re, ki = wk[e].im;
    double *restrict a = acc + (size_t)e * nx;
    if (wg) {
      const double gr = wg[e].re, gi = wg[e].im;
      double *restrict g = accg + (size_t)e * nx;
      for (j = j0; j < nx; ++j) {
        a[j] += p[j].re * ki + p[j].im * kr;
        g[j] += p[j].re * gi + p[j].im * gr;
      }
    } else {
      for (j = j0; j < nx; ++j) a[j] += p[j].re * ki + p[j].im * kr;
    }
  }
}
static void accumulate_base(const ekoc_complex *p, size_t j0, size_t nx, const ekoc_complex *wk,
                            const ekoc_complex *wg, int32_t n_el, double *acc, double *accg) {
  accumulate_body(p, j0, nx, wk, wg, n_el, acc, accg);
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define EKOC_BATCH_AVX2 1
__attribute__((target("avx2"))) static void accumulate_avx2(const ekoc_complex *p, size_t j0, size_t nx,
                                                            const ekoc_complex *wk, const ekoc_complex *wg,
                                                            int32_t n_el, double *acc, double *accg) {
  accumulate_body(p, j0, nx, wk, wg, n_el, acc, accg);
}
#endif
typedef void (*accumulate_fn)(const ekoc_complex *p, size_t j0, size_t nx, const ekoc_complex *wk,
                              const ekoc_complex *wg, int32_t n_el, double *acc, double *accg);
static accumulate_fn accumulate_for_cpu(void) {
#ifdef EKOC_BATCH_AVX2
  if (__builtin_cpu_supports("avx2")) return accumulate_avx2;
#endif
  return accumulate_base;
}

/* A family's rows in the N-space cache (quad/nspace_cache.h), or NULLs. */
typedef struct batch_family_cache {
  ekoc_complex *basis, *tower; /* [k][m][j], [k][m][len] */
  unsigned char *basis_ready, *tower_ready; /* [k] */
} batch_family_cache;

/* Per-thread scratch, sized before the loop. */
typedef struct batch_scratch {
  double *n_re, *n_im;      /* [node] */
  ekoc_complex *dn;         /* [node] */
  double *tscratch;         /* EKOC_BATCH_TOWER_SCRATCH(nodes) */
  ekoc_complex *tower;      /* [node][EKOC_BD_MAX_TOWER] */
  ekoc_complex *wk, *wgs;   /* [node][element]: Kronrod and Gauss weighted elements */
  ekoc_complex *p;          /* [j]: basis transforms at one node */
  double *acc, *accg;       /* [element][j]: Kronrod and Gauss sums */
  accumulate_fn accumulate; /* accumulate_base or _avx2 */
} batch_scratch;

static void scratch_free(batch_scratch *sc) {
  free(sc->n_re);
  free(sc->dn);
  free(sc->tscratch);
  free(sc->tower);
  free(sc->wk);
  free(sc->acc);
  free(sc->p);
}

static int scratch_alloc(batch_scratch *sc, size_t nodes, size_t nx) {
  size_t asize = nx * EKOC_NSPACE_MAX_ELEMENTS;
  memset(sc, 0, sizeof *sc);
  sc->n_re = malloc(2 * nodes * sizeof(double));
  sc->dn = malloc(nodes * sizeof(ekoc_complex));
  sc->tscratch = malloc(EKOC_BATCH_TOWER_SCRATCH(nodes) * sizeof(double));
  sc->tower = malloc(nodes * EKOC_BD_MAX_TOWER * sizeof(ekoc_complex));
  sc->wk = malloc(2 * nodes * EKOC_NSPACE_MAX_ELEMENTS * sizeof(ekoc_complex));
  sc->acc = malloc(2 * asize * sizeof(double));
  sc->p = malloc(nx * sizeof(ekoc_complex));
  if (!sc->n_re || !sc->dn || !sc->tscratch || !sc->tower || !sc->wk || !sc->acc || !sc->p) {
    scratch_free(sc);
    memset(sc, 0, sizeof *sc);
    return 0;
  }
  sc->n_im = sc->n_re + nodes;
  sc->wgs = sc->wk + nodes * EKOC_NSPACE_MAX_ELEMENTS;
  sc->accg = sc->acc + asize;
  sc->accumulate = accumulate_for_cpu();
  return 1;
}

/* Row k of every element of family plan fp. */
static int batch_family_row(const ekoc_quad_job *job, const ekoc_batch_rule *rule, const double *table,
                            const ekoc_batch_family *fp, size_t k, const batch_family_cache *fc,
                            batch_scratch *sc) {
  const ekoc_interp *in = job->interp;
  size_t nx = in->n, j, jmin;
  int32_t m, e, ne = fp->n_el, deg = in->degree, nodes = rule->n_nodes;
  double logx = in->logx[k];
  const ekoc_complex *tower = sc->tower;
  int rc;
  jmin = ekoc_bd_first_basis(in->logx, nx, deg, logx);
  if (jmin >= nx) return EKOC_OK; /* no basis function reaches x_k: the row stays 0 */
  for (m = 0; m < nodes; ++m) {
    ekoc_complex n;
    ekoc_bd_path(rule->theta[m], rule->tc[m], rule->dj[m], logx, fp->singlet_like, &n, &sc->dn[m]);
    sc->n_re[m] = n.re;
    sc->n_im[m] = n.im;
  }
  if (fc->tower) { /* the towers of this row from the cache, computed into it on first use */
    tower = fc->tower + k * (size_t)nodes * (size_t)fp->len;
    if (!fc->tower_ready[k]) {
      rc = ekoc_batch_towers(fp->cfg, (size_t)nodes, sc->n_re, sc->n_im, sc->tscratch, (ekoc_complex *)tower);
      if (rc != EKOC_OK) return rc;
      fc->tower_ready[k] = 1;
    }
  } else {
    rc = ekoc_batch_towers(fp->cfg, (size_t)nodes, sc->n_re, sc->n_im, sc->tscratch, sc->tower);
    if (rc != EKOC_OK) return rc;
  }
  for (m = 0; m < nodes; ++m) {
    ekoc_complex vals[EKOC_NSPACE_MAX_ELEMENTS];
    if (!ekoc_bd_family(fp->cfg, tower + (size_t)m * fp->len, vals))
      return ekoc_error(EKOC_ERR_NUMERICAL, "matching matrix at N=(%g,%g) is singular (backward exact inversion)",
                        sc->n_re[m], sc->n_im[m]);
    for (e = 0; e < ne; ++e) {
      sc->wk[m * ne + e] = ekoc_bd_weight(vals[fp->element[e]], fp->subtract[e], sc->dn[m], rule->w[m]);
      sc->wgs[m * ne + e] = ekoc_bd_weight(vals[fp->element[e]], fp->subtract[e], sc->dn[m], rule->wg[m]);
    }
  }
  memset(sc->acc, 0, nx * (size_t)ne * sizeof(double));
  memset(sc->accg, 0, nx * (size_t)ne * sizeof(double));
  {
    const ekoc_complex *row = fc->basis ? fc->basis + k * (size_t)nodes * nx : NULL;
    unsigned char *ready = row ? &fc->basis_ready[k] : NULL;
    for (m = 0; m < nodes; ++m) {
      const ekoc_complex *p = sc->p;
      if (row) {
        p = row + (size_t)m * nx;
        if (!*ready) {
          ekoc_complex n = c_make(sc->n_re[m], sc->n_im[m]);
          ekoc_bd_basis_all(in->logx, table, nx, deg, n, logx, (ekoc_complex *)p);
        }
      } else {
        ekoc_complex n = c_make(sc->n_re[m], sc->n_im[m]);
        ekoc_bd_basis_all(in->logx, table, nx, deg, n, logx, sc->p);
      }
      sc->accumulate(p, jmin, nx, sc->wk + m * ne, rule->wg[m] != 0.0 ? sc->wgs + m * ne : NULL, ne, sc->acc,
                     sc->accg);
    }
    if (ready) *ready = 1;
  }
  for (e = 0; e < ne; ++e) {
    const ekoc_quad_element *el = &job->elements[fp->job_el[e]];
    for (j = jmin; j < nx; ++j) {
      double v = sc->acc[(size_t)e * nx + j], vg = sc->accg[(size_t)e * nx + j];
      if (k == nx - 1 && j == nx - 1) continue; /* eko's corner keeps its initial value */
      if (!isfinite(v) || !isfinite(vg))
        return ekoc_error(EKOC_ERR_NUMERICAL, "batch: non-finite entry at ln x=%g basis %zu element %d", logx, j,
                          (int)el->element);
      el->value[k * nx + j] = v + (j == k ? el->subtract : 0.0);
      el->error[k * nx + j] = fabs(v - vg);
    }
  }
  return EKOC_OK;
}

static int batch_row(const ekoc_quad_job *job, const ekoc_batch_rule *rule, const double *table,
                     const ekoc_batch_family *plans, size_t k, const batch_family_cache *fc,
                     batch_scratch *sc) {
  int32_t f;
  ekoc_quad_row_init(job, k);
  if (job->interp->logx[k] == 0.0) return EKOC_OK; /* x_k = 1: the integrand vanishes (eko) */
  for (f = 0; f < job->n_families; ++f) {
    int rc;
    if (plans[f].n_el == 0) continue;
    rc = batch_family_row(job, rule, table, &plans[f], k, &fc[f], sc);
    if (rc != EKOC_OK) return rc;
  }
  return EKOC_OK;
}

int ekoc_batch_plan(const ekoc_quad_job *job, ekoc_batch_family plans[2]) {
  ekoc_batch_family p[2];
  int32_t f, e;
  if (!job || !plans) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_batch_plan: NULL argument");
  memset(p, 0, sizeof p);
  if (job->n_families < 1 || job->n_families > 2)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "batch: n_families=%d outside 1..2", (int)job->n_families);
  if (job->n_elements < 0 || job->n_elements > EKOC_JOB_MAX_ELEMENTS)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "batch: n_elements=%d outside 0..%d", (int)job->n_elements,
                      EKOC_JOB_MAX_ELEMENTS);
  for (f = 0; f < job->n_families; ++f) {
    int rc = ekoc_nspace_cfg_check(&job->family[f]);
    if (rc != EKOC_OK) return rc;
    p[f].cfg = &job->family[f];
    p[f].singlet_like = ekoc_nspace_singlet_like(&job->family[f]);
    p[f].len = ekoc_bd_tower_len(&job->family[f]);
  }
  for (e = 0; e < job->n_elements; ++e) {
    const ekoc_quad_element *el = &job->elements[e];
    ekoc_batch_family *fp;
    if (el->family < 0 || el->family >= job->n_families)
      return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "batch: element %d has family %d outside 0..%d", (int)e,
                        (int)el->family, (int)job->n_families - 1);
    fp = &p[el->family];
    if (el->element < 0 || el->element >= ekoc_nspace_family_size(fp->cfg))
      return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "batch: element %d index %d outside the family's 0..%d", (int)e,
                        (int)el->element, ekoc_nspace_family_size(fp->cfg) - 1);
    if (!el->value || !el->error)
      return ekoc_error(EKOC_ERR_NULL_POINTER, "batch: element %d has no value/error matrix", (int)e);
    fp->element[fp->n_el] = el->element;
    fp->job_el[fp->n_el] = e;
    fp->subtract[fp->n_el] = el->subtract;
    fp->n_el++;
  }
  plans[0] = p[0];
  plans[1] = p[1];
  return EKOC_OK;
}

int ekoc_quad_run_batch(const ekoc_quad_job *job, const ekoc_quad_settings *s, size_t *n_failed) {
  ekoc_quad_fatal fatal;
  ekoc_batch_family plans[2];
  const ekoc_batch_rule *rule;
  ekoc_batch_rule *own_rule = NULL;
  batch_family_cache fc[2];
  double *table;
  long nx;
  int32_t f;
  int n_threads, rc;
  if (!job || !s || !n_failed || !job->interp)
    return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_quad_run_batch: job, settings, n_failed and job->interp are required");
  rc = ekoc_batch_plan(job, plans);
  if (rc != EKOC_OK) return rc;
  rule = s->nspace_cache ? ekoc_nspace_cache_rule(s->nspace_cache) : NULL; /* the cache's key has this rule */
  if (!rule) {
    rc = ekoc_batch_rule_alloc(s->batch_panels, s->batch_points, s->cut, &own_rule);
    if (rc != EKOC_OK) return rc;
    rule = own_rule;
  }
  nx = (long)job->interp->n;
  table = malloc(EKOC_BD_TABLE_LEN(nx, job->interp->degree) * sizeof(double));
  if (!table) {
    ekoc_batch_rule_free(own_rule);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "batch: out of memory for the coefficient table (nx=%ld)", nx);
  }
  ekoc_bd_area_table(job->interp->area_offset, job->interp->area, (size_t)nx, job->interp->degree, table);
  memset(fc, 0, sizeof fc);
  if (s->nspace_cache) /* bound by the caller to this grid and rule */
    for (f = 0; f < job->n_families; ++f) {
      fc[f].basis = ekoc_nspace_cache_basis(s->nspace_cache, plans[f].singlet_like, &fc[f].basis_ready);
      fc[f].tower = ekoc_nspace_cache_towers(s->nspace_cache, plans[f].cfg, &fc[f].tower_ready);
    }
  n_threads = s->n_threads > 0 ? s->n_threads : omp_get_max_threads();
  (void)n_threads; /* used by the OpenMP pragma only */
  fatal.status = EKOC_OK;
  fatal.message[0] = '\0';
#pragma omp parallel num_threads(n_threads)
  {
    batch_scratch sc;
    long k;
    int have = scratch_alloc(&sc, (size_t)rule->n_nodes, (size_t)nx);
    if (!have) ekoc_quad_fatal_record(&fatal, ekoc_error(EKOC_ERR_NO_MEMORY, "batch: out of memory for the row scratch"));
#pragma omp for schedule(dynamic, 1)
    for (k = 0; k < nx; ++k) {
      int rck;
      if (ekoc_quad_fatal_status(&fatal) != EKOC_OK || !have) continue;
      rck = batch_row(job, rule, table, plans, (size_t)k, fc, &sc);
      if (rck == EKOC_OK) rck = ekoc_quad_progress_row(s->progress);
      if (rck != EKOC_OK) ekoc_quad_fatal_record(&fatal, rck);
    }
    if (have) scratch_free(&sc);
  }
  ekoc_batch_rule_free(own_rule);
  free(table);
  if (fatal.status != EKOC_OK) return ekoc_error(fatal.status, "%s", fatal.message);
  *n_failed = 0;
  return EKOC_OK;
}
