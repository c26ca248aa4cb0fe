/* batch_rule.c: the fixed Gauss-Kronrod rule of the batch and GPU drivers on
 * the upper half of the Talbot path (quad/batch_rule.h). */
#include "quad/batch_rule.h"

#include <math.h>
#include <stdlib.h>

#include "ad/ad_math.h" /* EKOC_PI */
#include "quad/talbot.h"
#include "status.h"

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
  if (!(cut >= 0.0 && cut < 0.5))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "batch rule: cut=%g outside [0, 0.5)", cut);
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
