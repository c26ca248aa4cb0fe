/* test_basis.c: flavour/evolution basis rotations (src/evol/basis.c) and
 * block-sparse operator algebra (src/evol/blockop.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evol/basis.h"
#include "evol/blockop.h"
#include "unified_basis_reference.h"
#include "test_util.h"

/* flavour indices */
enum { PH = 0, TB, BB, CB, SB, UB, DB, G, D, U, S, C, B, T };

/* b = R f for a flavour vector f */
static void rotate(int nf, const double f[EKOC_NB], double b[EKOC_NB]) {
  double r[EKOC_NB][EKOC_NB];
  int i, j;
  ekoc_basis_rotation(nf, r);
  for (i = 0; i < EKOC_NB; ++i) {
    b[i] = 0.0;
    for (j = 0; j < EKOC_NB; ++j) b[i] += r[i][j] * f[j];
  }
}

/* docs/physics.md §1.3: T3 = u+ - d+, V3 = u- - d-, T8 = u+ + d+ - 2 s+, T15 = u+ + d+ + s+ - 3 c+,
 * Sigma and V over the active flavours; inactive slots carry q^+/q^- of the heavy flavour. */
static void test_rotation_rows(void **state) {
  double f[EKOC_NB], b[EKOC_NB];
  int i;
  (void)state;
  for (i = 0; i < EKOC_NB; ++i) f[i] = 0.1 * (i + 1) + 0.01 * i * i; /* all different */
  rotate(4, f, b);
  assert_close(b[EKOC_SLOT_PH], f[PH], 0, 0);
  assert_close(b[EKOC_SLOT_G], f[G], 0, 0);
  assert_close(b[EKOC_SLOT_SIGMA], f[U] + f[UB] + f[D] + f[DB] + f[S] + f[SB] + f[C] + f[CB], 1e-15, 0);
  assert_close(b[EKOC_SLOT_V], f[U] - f[UB] + f[D] - f[DB] + f[S] - f[SB] + f[C] - f[CB], 1e-15, 1e-15);
  assert_close(b[ekoc_slot_t(2)], (f[U] + f[UB]) - (f[D] + f[DB]), 1e-15, 1e-15);
  assert_close(b[ekoc_slot_v(2)], (f[U] - f[UB]) - (f[D] - f[DB]), 1e-15, 1e-15);
  assert_close(b[ekoc_slot_t(3)], (f[U] + f[UB]) + (f[D] + f[DB]) - 2 * (f[S] + f[SB]), 1e-15, 1e-15);
  assert_close(b[ekoc_slot_t(4)], (f[U] + f[UB]) + (f[D] + f[DB]) + (f[S] + f[SB]) - 3 * (f[C] + f[CB]), 1e-14,
               1e-15);
  /* b and t inactive at nf = 4: their own q+- */
  assert_close(b[ekoc_slot_t(5)], f[B] + f[BB], 1e-15, 0);
  assert_close(b[ekoc_slot_v(5)], f[B] - f[BB], 1e-15, 1e-15);
  assert_close(b[ekoc_slot_t(6)], f[T] + f[TB], 1e-15, 0);
  /* nf = 6: T35 = sum of the five light q+ - 5 t+ */
  rotate(6, f, b);
  assert_close(b[ekoc_slot_t(6)],
               f[U] + f[UB] + f[D] + f[DB] + f[S] + f[SB] + f[C] + f[CB] + f[B] + f[BB] - 5 * (f[T] + f[TB]), 1e-14,
               1e-15);
}

/* QED's unified bases U_nf (docs/physics.md §15.5) are eko's intrinsic
 * unified evolution basis row by row (tests/unified_basis_reference.h, from
 * eko's pids_from_intrinsic_unified_evol), and U_nf U_nf^{-1} = 1. */
static void test_unified_rotation(void **state) {
  double r[EKOC_NB][EKOC_NB], ri[EKOC_NB][EKOC_NB];
  int nf, i, j, k;
  (void)state;
  for (nf = 3; nf <= 6; ++nf) {
    ekoc_basis_rotation_of(nf, 1, r);
    for (i = 0; i < EKOC_NB; ++i)
      for (j = 0; j < EKOC_NB; ++j) assert_true(r[i][j] == unified_basis_reference[nf - 3][i][j]);
    ekoc_basis_rotation_inverse_of(nf, 1, ri);
    for (i = 0; i < EKOC_NB; ++i)
      for (j = 0; j < EKOC_NB; ++j) {
        double acc = 0.0;
        for (k = 0; k < EKOC_NB; ++k) acc += r[i][k] * ri[k][j];
        assert_true(fabs(acc - (i == j)) < 1e-14);
      }
  }
}

/* R R^{-1} = 1 for every nf, and the rows of R are orthogonal with the squared
 * norms of docs/physics.md §1.3 at nf = 6. */
static void test_rotation_inverse_and_norms(void **state) {
  double r[EKOC_NB][EKOC_NB], ri[EKOC_NB][EKOC_NB];
  static const double norms6[EKOC_NB] = {1, 12, 1, 12, 4, 12, 24, 40, 60, 4, 12, 24, 40, 60};
  int nf, i, j, k;
  (void)state;
  for (nf = 3; nf <= 6; ++nf) {
    ekoc_basis_rotation(nf, r);
    ekoc_basis_rotation_inverse(nf, ri);
    for (i = 0; i < EKOC_NB; ++i)
      for (j = 0; j < EKOC_NB; ++j) {
        double s = 0.0;
        for (k = 0; k < EKOC_NB; ++k) s += r[i][k] * ri[k][j];
        assert_close(s, i == j ? 1.0 : 0.0, 0, 1e-14);
      }
  }
  ekoc_basis_rotation(6, r);
  for (i = 0; i < EKOC_NB; ++i)
    for (j = 0; j < EKOC_NB; ++j) {
      double s = 0.0;
      for (k = 0; k < EKOC_NB; ++k) s += r[i][k] * r[j][k];
      assert_close(s, i == j ? norms6[i] : 0.0, 0, 1e-14);
    }
}

/* The rotation nf -> nf+1 of docs/physics.md §8.1: Sigma' = Sigma + h+, T' = Sigma - nf h+,
 * V' = V + h-, V'_{(nf+1)^2-1} = V - nf h-. */
static void test_matching_rotation(void **state) {
  double f[EKOC_NB], b3[EKOC_NB], b4[EKOC_NB];
  int i;
  (void)state;
  for (i = 0; i < EKOC_NB; ++i) f[i] = sin(1.0 + i);
  rotate(3, f, b3);
  rotate(4, f, b4);
  assert_close(b4[EKOC_SLOT_SIGMA], b3[EKOC_SLOT_SIGMA] + b3[ekoc_slot_t(4)], 1e-14, 1e-15);
  assert_close(b4[ekoc_slot_t(4)], b3[EKOC_SLOT_SIGMA] - 3 * b3[ekoc_slot_t(4)], 1e-14, 1e-15);
  assert_close(b4[EKOC_SLOT_V], b3[EKOC_SLOT_V] + b3[ekoc_slot_v(4)], 1e-14, 1e-15);
  assert_close(b4[ekoc_slot_v(4)], b3[EKOC_SLOT_V] - 3 * b3[ekoc_slot_v(4)], 1e-14, 1e-15);
}

static void fill(double *m, size_t n, double seed) {
  size_t i;
  for (i = 0; i < n * n; ++i) m[i] = sin(seed + 0.37 * i);
}

/* Block products against a dense reference, and eko's error propagation
 * |A| errB + errA |B|. */
static void test_blockop_mul(void **state) {
  enum { NX = 3, DIM = EKOC_NB * NX };
  ekoc_blockop a, b, c;
  double *da = calloc(DIM * DIM, sizeof(double)), *db = calloc(DIM * DIM, sizeof(double));
  double blk[NX * NX], err[NX * NX];
  int i, j, k, x, y;
  (void)state;
  ekoc_blockop_init(&a, NX);
  ekoc_blockop_init(&b, NX);
  ekoc_blockop_init(&c, NX);
  /* a: blocks (1,1), (1,2), (5,1); b: (1,1), (2,7), (1,3) */
  {
    int pa[3][2] = {{1, 1}, {1, 2}, {5, 1}}, pb[3][2] = {{1, 1}, {2, 7}, {1, 3}};
    for (i = 0; i < 3; ++i) {
      fill(blk, NX, i + 1.0);
      fill(err, NX, 10.0 + i);
      for (k = 0; k < NX * NX; ++k) err[k] = fabs(err[k]) * 1e-3;
      assert_true(ekoc_blockop_set(&a, pa[i][0], pa[i][1], blk, err));
      for (x = 0; x < NX; ++x)
        for (y = 0; y < NX; ++y) da[(pa[i][0] * NX + x) * DIM + pa[i][1] * NX + y] = blk[x * NX + y];
      fill(blk, NX, 5.0 + i);
      assert_true(ekoc_blockop_set(&b, pb[i][0], pb[i][1], blk, NULL));
      for (x = 0; x < NX; ++x)
        for (y = 0; y < NX; ++y) db[(pb[i][0] * NX + x) * DIM + pb[i][1] * NX + y] = blk[x * NX + y];
    }
  }
  assert_true(ekoc_blockop_mul(&a, &b, &c, 2));
  for (i = 0; i < DIM; ++i)
    for (j = 0; j < DIM; ++j) {
      double s = 0.0, got;
      const double *cb = c.val[i / NX][j / NX];
      for (k = 0; k < DIM; ++k) s += da[i * DIM + k] * db[k * DIM + j];
      got = cb ? cb[(i % NX) * NX + j % NX] : 0.0;
      assert_close(got, s, 1e-14, 1e-14);
    }
  /* only (1,1), (1,3), (1,7), (5,1), (5,3) can be non-zero */
  assert_int_equal(ekoc_blockop_count(&c), 5);
  /* error of (1,1) = |A11| 0 + errA11 |B11| + errA12 |B21| (B21 absent) */
  {
    double ref = 0.0;
    for (k = 0; k < NX; ++k) ref += a.err[1][1][0 * NX + k] * fabs(b.val[1][1][k * NX + 0]);
    assert_close(c.err[1][1][0], ref, 1e-14, 0);
  }
  ekoc_blockop_clear(&a);
  ekoc_blockop_clear(&b);
  ekoc_blockop_clear(&c);
  free(da);
  free(db);
}

/* Rotating left by R and right by R^{-1} an identity gives the identity. */
static void test_blockop_rotations(void **state) {
  ekoc_blockop id, t1, t2;
  double r[EKOC_NB][EKOC_NB], ri[EKOC_NB][EKOC_NB];
  int a, b;
  size_t x;
  (void)state;
  ekoc_blockop_init(&id, 4);
  ekoc_blockop_init(&t1, 4);
  ekoc_blockop_init(&t2, 4);
  for (a = 0; a < EKOC_NB; ++a) assert_true(ekoc_blockop_set_identity(&id, a, a));
  ekoc_basis_rotation(5, r);
  ekoc_basis_rotation_inverse(5, ri);
  assert_true(ekoc_blockop_rotate_left(r, &id, &t1, 1));
  assert_true(ekoc_blockop_rotate_right(&t1, ri, &t2, 1));
  for (a = 0; a < EKOC_NB; ++a)
    for (b = 0; b < EKOC_NB; ++b)
      for (x = 0; x < 16; ++x) {
        double got = t2.val[a][b] ? t2.val[a][b][x] : 0.0;
        double want = (a == b && x % 5 == 0) ? 1.0 : 0.0;
        assert_close(got, want, 0, 1e-14);
      }
  ekoc_blockop_clear(&id);
  ekoc_blockop_clear(&t1);
  ekoc_blockop_clear(&t2);
}

/* Row ranges (the N-space engine's layout): rows stored from row_lo[k] on,
 * rotations and copies keep the layout and give the full-row result's entries,
 * to_full_rows puts zeros left of the ranges, products refuse them; bad
 * ranges are refused. */
static void test_blockop_row_ranges(void **state) {
  enum { N = 5 };
  const size_t lo[N] = {0, 0, 1, 2, 4}, bad_first[N] = {1, 0, 0, 0, 0}, bad_big[N] = {0, 0, 0, 0, N + 1};
  ekoc_blockop p, full, rp, rf, copy, prod;
  double r[EKOC_NB][EKOC_NB], vals[N * N], errs[N * N];
  size_t k, j, len = 0;
  int a, b;
  (void)state;
  for (k = 0; k < N; ++k) len += N - lo[k];
  ekoc_blockop_init(&p, N), ekoc_blockop_init(&full, N), ekoc_blockop_init(&rp, N), ekoc_blockop_init(&rf, N);
  ekoc_blockop_init(&copy, N), ekoc_blockop_init(&prod, N);
  assert_false(ekoc_blockop_set_rows(&p, bad_first));
  assert_false(ekoc_blockop_set_rows(&p, bad_big));
  assert_true(ekoc_blockop_set_rows(&p, lo));
  assert_int_equal(ekoc_blockop_len(&p), len);
  assert_false(ekoc_blockop_set_rows(&p, lo)); /* once, on an operator without blocks */
  for (a = 0; a < 3; ++a) { /* blocks (0,0), (1,0), (2,2): the same entries in both layouts */
    int ab[3][2] = {{0, 0}, {1, 0}, {2, 2}};
    double *pv = ekoc_blockop_block(&p, ab[a][0], ab[a][1]);
    assert_non_null(pv);
    for (k = 0; k < N * N; ++k) vals[k] = errs[k] = 0.0;
    for (k = 0; k < N; ++k)
      for (j = lo[k]; j < N; ++j) {
        vals[k * N + j] = 1.0 + (double)(10 * a + 3 * k + j);
        errs[k * N + j] = 1e-3 * vals[k * N + j];
        pv[ekoc_blockop_at(&p, k, j)] = vals[k * N + j];
        p.err[ab[a][0]][ab[a][1]][ekoc_blockop_at(&p, k, j)] = errs[k * N + j];
      }
    p.exact[ab[a][0]][ab[a][1]] = 0;
    assert_true(ekoc_blockop_set(&full, ab[a][0], ab[a][1], vals, errs));
  }
  ekoc_basis_rotation(5, r);
  assert_true(ekoc_blockop_rotate_left(r, &p, &rp, 1));
  assert_true(ekoc_blockop_rotate_left(r, &full, &rf, 1));
  assert_non_null(rp.row_lo);
  assert_true(ekoc_blockop_copy(&copy, &rp));
  assert_false(ekoc_blockop_mul(&copy, &full, &prod, 1)); /* products: full rows only */
  assert_true(ekoc_blockop_to_full_rows(&copy));
  assert_null(copy.row_lo);
  for (a = 0; a < EKOC_NB; ++a)
    for (b = 0; b < EKOC_NB; ++b) {
      assert_true((rf.val[a][b] == NULL) == (copy.val[a][b] == NULL));
      for (k = 0; rf.val[a][b] && k < N * N; ++k) {
        assert_true(copy.val[a][b][k] == rf.val[a][b][k]); /* the same bits */
        assert_true(copy.err[a][b][k] == rf.err[a][b][k]);
      }
    }
  assert_true(ekoc_blockop_mul(&copy, &full, &prod, 1));
  ekoc_blockop_clear(&p); /* frees the ranges too: a full-row operator again */
  assert_null(p.row_lo);
  assert_true(ekoc_blockop_set_identity(&p, 0, 0));
  assert_true(p.val[0][0][ekoc_blockop_at(&p, 3, 3)] == 1.0);
  ekoc_blockop_clear(&p), ekoc_blockop_clear(&full), ekoc_blockop_clear(&rp), ekoc_blockop_clear(&rf);
  ekoc_blockop_clear(&copy), ekoc_blockop_clear(&prod);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_blockop_row_ranges),
      cmocka_unit_test(test_rotation_rows),
      cmocka_unit_test(test_unified_rotation),
      cmocka_unit_test(test_rotation_inverse_and_norms),
      cmocka_unit_test(test_matching_rotation),  cmocka_unit_test(test_blockop_mul),
      cmocka_unit_test(test_blockop_rotations),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
