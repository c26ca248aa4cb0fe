/* test_basis_group.c: the basis transforms of a group of nodes
 * (src/quad/basis_group.h) are bitwise those of ekoc_batch_basis_all node by
 * node: degrees 1..8, log and linear bases, inversion points on and off the
 * grid, groups mixing nodes whose areas take the series and the forward
 * direction (and series of different lengths), short groups, and the output
 * stride; a row no area reaches comes out 0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "ekoc.h"
#include "quad/basis_group.h"
#include "quad/batch_math.h"
#include "quad/interp.h"

enum { NX = 40, NP = 11, STRIDE = NX + 3 };

/* Nodes of small |N| (series everywhere), large |N| (forward), Talbot-like
 * points in between, and ones with a negative real part. */
static const double nodes_re[NP] = {0.4, 0.9, 1.3, 2.5, 6.0, 14.0, 30.0, -1.3, 0.05, 60.0, 3.1};
static const double nodes_im[NP] = {0.05, 0.6, -2.0, 1.5, 9.0, 22.0, -45.0, 2.0, 0.3, 120.0, -0.2};

static void check_grid(const double *x, int is_log, int degree, size_t *compared) {
  ekoc_interp *in = NULL;
  double *table;
  ekoc_complex *group = aligned_alloc(EKOC_BASIS_GROUP_ALIGN, EKOC_BASIS_GROUP_SCRATCH(NX) * sizeof(ekoc_complex));
  ekoc_complex out[EKOC_BASIS_GROUP * STRIDE], one[NX], pts[EKOC_BASIS_GROUP], poison;
  size_t k, count, p0, i, j, t;
  assert_non_null(group);
  memset(&poison, 0x5a, sizeof poison);
  assert_int_equal(ekoc_interp_alloc_ex(x, NX, degree, is_log, &in), EKOC_OK);
  table = malloc(EKOC_BATCH_TABLE_LEN(NX, degree) * sizeof(double));
  assert_non_null(table);
  ekoc_batch_area_table(in->area_offset, in->area, in->n, degree, table);
  for (k = 0; k < NX; ++k)
    for (t = 0; t < 2; ++t) {
      double logx = in->logx[k] - (t ? 0.013 : 0.0); /* on the grid point, and just below it */
      for (count = 1; count <= EKOC_BASIS_GROUP; ++count)
        for (p0 = 0; p0 + count <= NP; p0 += count) {
          for (i = 0; i < count; ++i) pts[i] = c_make(nodes_re[p0 + i], nodes_im[p0 + i]);
          memset(out, 0x5a, sizeof out);
          ekoc_batch_basis_group(in->logx, table, NX, degree, count, pts, logx, out, STRIDE, group);
          for (i = 0; i < count; ++i) {
            ekoc_batch_basis_all(in->logx, table, NX, degree, pts[i], logx, one);
            for (j = 0; j < NX; ++j) {
              if (memcmp(&out[i * STRIDE + j], &one[j], sizeof one[j]) != 0)
                fail_msg("degree %d %s basis, x_%zu%s, node %zu of %zu: P_%zu = (%.17g, %.17g), alone (%.17g, %.17g)",
                         degree, is_log ? "log" : "linear", k, t ? " - 0.013" : "", i, count, j,
                         out[i * STRIDE + j].re, out[i * STRIDE + j].im, one[j].re, one[j].im);
              ++*compared;
            }
            for (j = NX; j < STRIDE; ++j) /* the stride's gap is left alone */
              assert_memory_equal(&out[i * STRIDE + j], &poison, sizeof poison);
          }
        }
    }
  free(table);
  free(group);
  ekoc_interp_free(in);
}

static void test_group_equals_node_by_node(void **state) {
  double grid[NX];
  size_t compared = 0, i;
  int degree, is_log;
  (void)state;
  assert_int_equal(ekoc_grid_lambert(NX, 1e-7, grid), EKOC_OK);
  for (is_log = 1; is_log >= 0; --is_log)
    for (degree = 1; degree <= 8; ++degree) check_grid(grid, is_log, degree, &compared);
  for (i = 0; i < NX; ++i) grid[i] = 0.02 + 0.98 * (double)i / (NX - 1); /* linear in x up to 1 */
  check_grid(grid, 1, 6, &compared);
  check_grid(grid, 0, 4, &compared);
  assert_true(compared > 1000000);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_group_equals_node_by_node),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
