/* band_transforms.c: basis transforms at every node of a band path,
 * node-major (band_transforms.h). */
#include "quad/band_transforms.h"

#include <stdlib.h>
#include <string.h>

int ekoc_band_transform_scratch_alloc(ekoc_band_transform_scratch *s, size_t columns, size_t nodes, int32_t degree) {
  size_t d1 = (size_t)degree + 1, len;
  memset(s, 0, sizeof *s);
  s->columns = columns;
  s->nodes = nodes;
  s->areas = columns + d1; /* the areas of `columns` consecutive functions */
  len = s->areas * d1 * nodes;
  s->mom_re = malloc((len ? len : 1) * sizeof(double));
  s->mom_im = malloc((len ? len : 1) * sizeof(double));
  if (!s->mom_re || !s->mom_im) {
    ekoc_band_transform_scratch_free(s);
    return 0;
  }
  return 1;
}

void ekoc_band_transform_scratch_free(ekoc_band_transform_scratch *s) {
  free(s->mom_re);
  free(s->mom_im);
  memset(s, 0, sizeof *s);
}

/* y += sum_r q_r m_r over the d1 rows of one area's moments (count nodes
 * each): the loops over the nodes are what the wider builds vectorise. */
#define AREA_SUM_BODY                                                     \
  do {                                                                    \
    size_t r, i;                                                          \
    for (r = 0; r < d1; ++r) {                                            \
      const double qr = q[r], *xr = mr + r * count, *xi = mi + r * count; \
      for (i = 0; i < count; ++i) {                                       \
        yr[i] += qr * xr[i];                                              \
        yi[i] += qr * xi[i];                                              \
      }                                                                   \
    }                                                                     \
  } while (0)

typedef void (*area_sum_fn)(size_t count, size_t d1, const double *q, const double *mr, const double *mi, double *yr,
                            double *yi);

static void area_sum_base(size_t count, size_t d1, const double *q, const double *mr, const double *mi, double *yr,
                          double *yi) {
  AREA_SUM_BODY;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define EKOC_BAND_TRANSFORMS_X86 1
/* AVX2 and AVX-512 without fused multiply-adds (-ffp-contract=off in C11 mode): the same products and sums */
__attribute__((target("avx2"), optimize("O3"))) static void area_sum_avx2(size_t count, size_t d1, const double *q,
                                                                         const double *mr, const double *mi,
                                                                         double *yr, double *yi) {
  AREA_SUM_BODY;
}
__attribute__((target("avx512f"), optimize("O3"))) static void area_sum_avx512(size_t count, size_t d1,
                                                                              const double *q, const double *mr,
                                                                              const double *mi, double *yr,
                                                                              double *yi) {
  AREA_SUM_BODY;
}
#endif

static area_sum_fn area_sum_for_cpu(void) {
#ifdef EKOC_BAND_TRANSFORMS_X86
  if (__builtin_cpu_supports("avx512f")) return area_sum_avx512;
  if (__builtin_cpu_supports("avx2")) return area_sum_avx2;
#endif
  return area_sum_base;
}

void ekoc_band_transforms(const ekoc_interp *ip, size_t j0, size_t j1, const ekoc_complex *n, size_t count,
                          double logx_rule, double logx_ref, ekoc_band_transform_scratch *s, double *re, double *im) {
  const int32_t degree = ip->degree;
  const double *lg = ip->logx, *geom = ekoc_local_geom(ip->local), *coefs = ekoc_local_coefs(ip->local, ip->n);
  const size_t d1 = (size_t)degree + 1;
  size_t a_end = ekoc_interp_first_area(j1 - 1, degree) + (ip->area_offset[j1] - ip->area_offset[j1 - 1]);
  size_t a0 = ekoc_interp_first_area(j0, degree), a, i, j;
  area_sum_fn sum = area_sum_for_cpu();
  memset(re, 0, (j1 - j0) * count * sizeof *re);
  memset(im, 0, (j1 - j0) * count * sizeof *im);
  while (a0 < a_end && ekoc_interp_skip_(logx_rule, lg[a0 + 1])) ++a0;
  if (a0 >= a_end) return;
  for (i = 0; i < count; ++i) { /* the moments of every area at node i */
    ekoc_moment_ctx ctx;
    ekoc_complex mom[EKOC_INTERP_MAX_DEGREE + 1], e_lo = c_real(0.0), e_hi;
    int have_lo = 0;
    size_t r;
    ekoc_moment_ctx_init(&ctx, ip->local, degree, n[i]);
    for (a = a0; a < a_end; ++a) {
      int lower = ekoc_interp_lower_(logx_rule, lg[a]);
      double *mr = s->mom_re + (a - a0) * d1 * count, *mi = s->mom_im + (a - a0) * d1 * count;
      if (lower && !have_lo) e_lo = ekoc_node_exp(n[i], lg[a], logx_ref);
      e_hi = ekoc_node_exp(n[i], lg[a + 1], logx_ref);
      ekoc_area_moments(&ctx, degree, geom + EKOC_AREA_GEOM * a, e_lo, e_hi, lower, mom);
      for (r = 0; r < d1; ++r) {
        mr[r * count + i] = mom[r].re;
        mi[r * count + i] = mom[r].im;
      }
      e_lo = e_hi;
      have_lo = 1;
    }
  }
  for (j = j0; j < j1; ++j) { /* each function from the moments of its areas */
    size_t first = ekoc_interp_first_area(j, degree), last = first + (ip->area_offset[j + 1] - ip->area_offset[j]);
    double *yr = re + (j - j0) * count, *yi = im + (j - j0) * count;
    for (a = first > a0 ? first : a0; a < last && a < a_end; ++a)
      sum(count, d1, coefs + (ip->area_offset[j] + (a - first)) * d1, s->mom_re + (a - a0) * d1 * count,
          s->mom_im + (a - a0) * d1 * count, yr, yi);
  }
}
