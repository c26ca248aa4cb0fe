/* kernel_qed_batch.c: ekoc_kernel_qed_matrix for groups of points
 * (kernel_qed_batch.h). A complex number of a group is two arrays of LANES
 * doubles, a matrix dim * dim of them; every operation is the one of
 * ad/kernel_qed.h and ad/qed_matrix.h applied lane by lane, with the same
 * operands in the same order (no FMA in either build: ISO C contracts
 * nothing). Where the lanes' exponentials differ (scaling, Taylor degree,
 * squarings), each lane takes its own branch: the extra steps of another
 * lane are computed for it too and not kept. */
#include "ad/kernel_qed_batch.h"

#include <math.h>

#pragma GCC diagnostic ignored "-Wpsabi"

#define LANES 8
#define AI inline __attribute__((always_inline))
#define FOR_LANES(l) for (l = 0; l < LANES; ++l)

typedef struct cv {
  double re[LANES], im[LANES];
} cv;

/* c = a b (ekoc_qed_mat_mul: each entry from +0 adding c_mul in increasing k) */
static AI void qm_mul(int dim, const cv *a, const cv *b, cv *c) {
  int i, j, k, l;
  for (i = 0; i < dim; ++i)
    for (j = 0; j < dim; ++j) {
      cv acc;
      FOR_LANES(l) acc.re[l] = acc.im[l] = 0.0;
      for (k = 0; k < dim; ++k) {
        const cv *x = &a[i * dim + k], *y = &b[k * dim + j];
        FOR_LANES(l) {
          double re = x->re[l] * y->re[l] - x->im[l] * y->im[l], im = x->re[l] * y->im[l] + x->im[l] * y->re[l];
          acc.re[l] = acc.re[l] + re;
          acc.im[l] = acc.im[l] + im;
        }
      }
      c[i * dim + j] = acc;
    }
}

/* out = exp(a), ekoc_qed_mat_exp lane by lane. */
static AI void qm_exp(int dim, const cv *a, cv *out) {
  cv x[EKOC_QED_MAX_DIM2], x2[EKOC_QED_MAX_DIM2], x3[EKOC_QED_MAX_DIM2], x4[EKOC_QED_MAX_DIM2];
  cv prod[EKOC_QED_MAX_DIM2];
  double scale[LANES], lead[LANES];
  int quarter[LANES], squarings[LANES], bad[LANES], i, j, k, l, d2 = dim * dim, q_max = 0, s_max = 0;
  FOR_LANES(l) {
    double norm = 0.0;
    for (i = 0; i < dim; ++i) { /* the scalar kernel's bound of the infinity norm */
      double row = 0.0;
      for (j = 0; j < dim; ++j) row += fabs(a[i * dim + j].re[l]) + fabs(a[i * dim + j].im[l]);
      norm = row > norm ? row : norm;
    }
    bad[l] = !(norm < 1e300);
    scale[l] = 1.0;
    squarings[l] = 0;
    if (!bad[l])
      while (norm * scale[l] > 0.5) {
        scale[l] *= 0.5;
        ++squarings[l];
      }
    k = bad[l] ? 4 : ekoc_qed_exp_degree(norm * scale[l]);
    quarter[l] = k / 4;
    lead[l] = ekoc_qed_inv_fact(k);
    if (quarter[l] > q_max) q_max = quarter[l];
    if (squarings[l] > s_max) s_max = squarings[l];
  }
  for (i = 0; i < d2; ++i) FOR_LANES(l) {
      x[i].re[l] = a[i].re[l] * scale[l];
      x[i].im[l] = a[i].im[l] * scale[l];
      out[i].re[l] = out[i].im[l] = 0.0;
      prod[i].re[l] = prod[i].im[l] = 0.0; /* read, not kept, by the lanes that start at q_max - 1 */
    }
  qm_mul(dim, x, x, x2);
  qm_mul(dim, x2, x, x3);
  qm_mul(dim, x3, x, x4);
  for (k = q_max - 1; k >= 0; --k) { /* Paterson-Stockmeyer; lane l starts at k = quarter[l] - 1 */
    double c0 = ekoc_qed_inv_fact(4 * k), c1 = ekoc_qed_inv_fact(4 * k + 1), c2 = ekoc_qed_inv_fact(4 * k + 2),
           c3 = ekoc_qed_inv_fact(4 * k + 3);
    if (k < q_max - 1) qm_mul(dim, x4, out, prod); /* at q_max - 1 every lane that takes part starts */
    for (i = 0; i < d2; ++i) {
      int diagonal = i % (dim + 1) == 0;
      FOR_LANES(l) {
        double t_re = k == quarter[l] - 1 ? x4[i].re[l] * lead[l] : prod[i].re[l];
        double t_im = k == quarter[l] - 1 ? x4[i].im[l] * lead[l] : prod[i].im[l];
        double b_re = x[i].re[l] * c1 + x2[i].re[l] * c2 + x3[i].re[l] * c3;
        double b_im = x[i].im[l] * c1 + x2[i].im[l] * c2 + x3[i].im[l] * c3;
        if (diagonal) b_re = b_re + c0;
        if (k < quarter[l]) {
          out[i].re[l] = t_re + b_re;
          out[i].im[l] = t_im + b_im;
        }
      }
    }
  }
  for (k = 0; k < s_max; ++k) {
    qm_mul(dim, out, out, prod);
    for (i = 0; i < d2; ++i) FOR_LANES(l) {
        if (k < squarings[l]) {
          out[i].re[l] = prod[i].re[l];
          out[i].im[l] = prod[i].im[l];
        }
      }
  }
  for (i = 0; i < d2; ++i) FOR_LANES(l) {
      if (bad[l]) out[i].re[l] = out[i].im[l] = NAN;
    }
}

/* out = E of one group: g[q * d2 + i] is pair q's matrix. */
static AI void qed_group(int32_t order, int32_t qed_order, int dim, const double beta[4], double beta_mix,
                         ekoc_qed_steps st, const cv *g, cv *out) {
  int s, q, i, j, l, d2 = dim * dim, np = ekoc_qed_pairs(order, qed_order);
  cv ln[EKOC_QED_MAX_DIM2], step[EKOC_QED_MAX_DIM2], tmp[EKOC_QED_MAX_DIM2];
  for (i = 0; i < d2; ++i) FOR_LANES(l) {
      out[i].re[l] = i % (dim + 1) == 0 ? 1.0 : 0.0;
      out[i].im[l] = 0.0;
    }
  for (s = 0; s < st.n; ++s) {
    double as = st.as_half[s], aem = st.aem_half[s];
    double fact = (st.as_ends[s + 1] - st.as_ends[s]) / ekoc_qed_step_beta(order, beta, beta_mix, as, aem);
    for (i = 0; i < d2; ++i) FOR_LANES(l) ln[i].re[l] = ln[i].im[l] = 0.0;
    for (q = 0; q < np; ++q) {
      int pi, pj;
      double w = 1.0, wf;
      ekoc_qed_pair(order, q, &pi, &pj);
      for (j = 0; j < pi; ++j) w *= as;
      for (j = 0; j < pj; ++j) w *= aem;
      wf = w * fact;
      for (i = 0; i < d2; ++i) FOR_LANES(l) {
          ln[i].re[l] = ln[i].re[l] + g[q * d2 + i].re[l] * wf;
          ln[i].im[l] = ln[i].im[l] + g[q * d2 + i].im[l] * wf;
        }
    }
    qm_exp(dim, ln, step);
    qm_mul(dim, step, out, tmp);
    for (i = 0; i < d2; ++i) out[i] = tmp[i];
  }
}

typedef void (*group_fn)(int32_t, int32_t, const double *, double, ekoc_qed_steps, const cv *, cv *);

/* One function per dimension (2: valence, 4: singlet) and instruction set:
 * with the dimension a constant the matrix loops unroll. */
#define GROUP_FNS(suffix, attr)                                                                                        \
  attr static void group2_##suffix(int32_t order, int32_t qed_order, const double *beta, double beta_mix,             \
                                   ekoc_qed_steps st, const cv *g, cv *out) {                                          \
    qed_group(order, qed_order, 2, beta, beta_mix, st, g, out);                                                        \
  }                                                                                                                    \
  attr static void group4_##suffix(int32_t order, int32_t qed_order, const double *beta, double beta_mix,             \
                                   ekoc_qed_steps st, const cv *g, cv *out) {                                          \
    qed_group(order, qed_order, 4, beta, beta_mix, st, g, out);                                                        \
  }
GROUP_FNS(base, )
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define EKOC_QED_BATCH_X86 1
/* without FMA: the same multiplications and additions, four or eight lanes per instruction */
GROUP_FNS(avx2, __attribute__((target("avx2"))))
GROUP_FNS(avx512, __attribute__((target("avx512f"))))
#endif

void ekoc_kernel_qed_matrix_batch(int32_t order, int32_t qed_order, int dim, const double beta[4], double beta_mix,
                                  ekoc_qed_steps st, size_t count, const ekoc_complex *g, size_t g_stride,
                                  size_t pair_stride, ekoc_complex *out, size_t out_stride) {
  group_fn group = dim == 2 ? group2_base : group4_base;
  cv gl[(EKOC_MAX_ORDER + 3) * EKOC_QED_MAX_DIM2], o[EKOC_QED_MAX_DIM2];
  int d2 = dim * dim, np = ekoc_qed_pairs(order, qed_order), q, i, l;
  size_t p0;
#ifdef EKOC_QED_BATCH_X86
  if (__builtin_cpu_supports("avx512f"))
    group = dim == 2 ? group2_avx512 : group4_avx512;
  else if (__builtin_cpu_supports("avx2"))
    group = dim == 2 ? group2_avx2 : group4_avx2;
#endif
  for (p0 = 0; p0 < count; p0 += LANES) {
    int lanes = count - p0 < LANES ? (int)(count - p0) : LANES;
    FOR_LANES(l) { /* a short last group repeats its first point */
      const ekoc_complex *gp = g + (p0 + (size_t)(l < lanes ? l : 0)) * g_stride;
      for (q = 0; q < np; ++q)
        for (i = 0; i < d2; ++i) {
          gl[q * d2 + i].re[l] = gp[(size_t)q * pair_stride + (size_t)i].re;
          gl[q * d2 + i].im[l] = gp[(size_t)q * pair_stride + (size_t)i].im;
        }
    }
    group(order, qed_order, beta, beta_mix, st, gl, o);
    for (l = 0; l < lanes; ++l)
      for (i = 0; i < d2; ++i) out[(p0 + (size_t)l) * out_stride + (size_t)i] = c_make(o[i].re[l], o[i].im[l]);
  }
}
