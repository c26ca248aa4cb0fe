/* test_hot_alloc.c: the hot path never allocates. Linked with
 * -Wl,--wrap=malloc,calloc,realloc,free (Makefile), so every allocation made
 * by our objects and the Rust staticlib inside libekoc.a is counted. After the
 * workspaces are set up, integrating whole matrix elements (GSL QAGS through
 * the per-point kernel, N-space families from the ekore ABI, kernels, basis
 * transforms) must leave the counter at zero. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ekoc.h"
#include "quad/interp.h"
#include "test_util.h"

static volatile long n_alloc, n_free;

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);

void *__wrap_malloc(size_t n) {
  ++n_alloc;
  return __real_malloc(n);
}
void *__wrap_calloc(size_t n, size_t m) {
  ++n_alloc;
  return __real_calloc(n, m);
}
void *__wrap_realloc(void *p, size_t n) {
  ++n_alloc;
  return __real_realloc(p, n);
}
void __wrap_free(void *p) {
  if (p) ++n_free;
  __real_free(p);
}

typedef struct fixture {
  double x[30];
  ekoc_interp *interp;
  ekoc_quad_workspace *ws;
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  if (!f || ekoc_grid_lambert(30, 1e-7, f->x) != EKOC_OK) return -1;
  if (ekoc_interp_alloc(f->x, 30, 4, &f->interp) != EKOC_OK) return -1;
  if (ekoc_quad_workspace_alloc(100, &f->ws) != EKOC_OK) return -1;
  if (ekoc_quad_workspace_reserve_basis(f->ws, 30) != EKOC_OK) return -1;
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  ekoc_quad_workspace_free(f->ws);
  ekoc_interp_free(f->interp);
  free(f);
  return 0;
}

static void evolution_args(fixture *f, ekoc_kernel_args *a, int family, int element, size_t k, size_t j) {
  memset(a, 0, sizeof *a);
  a->nspace.kind = EKOC_KIND_EVOLUTION;
  a->nspace.family = family;
  a->nspace.order = 3;
  a->nspace.nf = 4;
  a->nspace.method = EKOC_METHOD_ITERATE_EXACT;
  a->nspace.ev_op_iterations = 10;
  a->nspace.ev_op_max_order = 10;
  a->nspace.sv_mode = EKOC_SV_EXPONENTIATED;
  a->nspace.sv_log = log(2.0);
  a->nspace.a0 = 0.35 / (4 * M_PI);
  a->nspace.a1 = 0.11 / (4 * M_PI);
  ekoc_beta(4, a->nspace.beta);
  a->element = element;
  a->degree = 4;
  a->logx = f->interp->logx[k];
  a->areas = ekoc_interp_areas(f->interp, j, &a->n_areas);
  a->workspace = f->ws;
}

/* The wrapper really counts, in this file and inside libekoc.a (otherwise the
 * zeros below would prove nothing). */
static void test_counter_is_live(void **state) {
  long before = n_alloc;
  ekoc_quad_workspace *ws = NULL;
  void *p;
  (void)state;
  p = malloc(16);
  assert_non_null(p);
  free(p);
  assert_int_equal(n_alloc, before + 1);
  assert_int_equal(ekoc_quad_workspace_alloc(10, &ws), EKOC_OK);
  assert_true(n_alloc > before + 1);
  ekoc_quad_workspace_free(ws);
}

/* One whole matrix element through GSL QAGS: NNLO singlet, iterate-exact,
 * exponentiated scale variation; then the same with the all-basis cache path
 * (interp set), and a matching element; and 1000 bare kernel calls. */
static void test_integration_does_not_allocate(void **state) {
  fixture *f = *state;
  ekoc_kernel_args a;
  double v = 0.0, e = 0.0, sum = 0.0;
  long before;
  int i;
  evolution_args(f, &a, EKOC_FAMILY_SINGLET, 3, 5, 9);
  /* warm everything that might initialise lazily (thread-locals, GSL tables) */
  assert_int_equal(ekoc_quad_integrate(&a, 0.05, 1e-12, 1e-5, 100, &v, &e), EKOC_OK);
  before = n_alloc;
  assert_int_equal(ekoc_quad_integrate(&a, 0.05, 1e-12, 1e-5, 100, &v, &e), EKOC_OK);
  evolution_args(f, &a, EKOC_FAMILY_NS, 2, 7, 12);
  a.interp = f->interp;
  a.basis_index = 12;
  assert_int_equal(ekoc_quad_integrate(&a, 0.05, 1e-12, 1e-5, 100, &v, &e), EKOC_OK);
  assert_true(isfinite(v) && v != 0.0);
  /* NNLO matching element (g, q) of the charm threshold */
  memset(&a.nspace, 0, sizeof a.nspace);
  a.nspace.kind = EKOC_KIND_MATCHING;
  a.nspace.family = EKOC_FAMILY_SINGLET;
  a.nspace.order = 2;
  a.nspace.nf = 3;
  a.nspace.ev_op_iterations = 1;
  a.nspace.ev_op_max_order = 1;
  a.nspace.a1 = 0.35 / (4 * M_PI);
  ekoc_beta(3, a.nspace.beta);
  a.element = 1;
  assert_int_equal(ekoc_quad_integrate(&a, 0.05, 1e-12, 1e-5, 100, &v, &e), EKOC_OK);
  for (i = 0; i < 1000; ++i) sum += ekoc_quad_kernel(0.5 + 0.00045 * i, &a);
  assert_true(isfinite(sum));
  assert_int_equal(n_alloc - before, 0);
}

/* ekoc_nspace_evaluate (the public per-N entry point) does not allocate either. */
static void test_nspace_does_not_allocate(void **state) {
  fixture *f = *state;
  ekoc_kernel_args a;
  double re[9], im[9];
  long before;
  int i;
  evolution_args(f, &a, EKOC_FAMILY_SINGLET, 0, 3, 4);
  assert_int_equal(ekoc_nspace_evaluate(&a.nspace, 2.5, 1.5, re, im, 9), EKOC_OK);
  before = n_alloc;
  for (i = 0; i < 200; ++i) assert_int_equal(ekoc_nspace_evaluate(&a.nspace, 1.5 + 0.01 * i, 2.0, re, im, 9), EKOC_OK);
  a.nspace.family = EKOC_FAMILY_NS;
  for (i = 0; i < 200; ++i) assert_int_equal(ekoc_nspace_evaluate(&a.nspace, 0.5 + 0.01 * i, -1.0, re, im, 9), EKOC_OK);
  assert_int_equal(n_alloc - before, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_counter_is_live),
      cmocka_unit_test(test_integration_does_not_allocate),
      cmocka_unit_test(test_nspace_does_not_allocate),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
