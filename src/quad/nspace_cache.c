/* nspace_cache.c: the N-space values the batch driver keeps between parts
 * and computations (quad/nspace_cache.h, include/ekoc/operator.h). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "ad/nspace.h"
#include "quad/batch_rule.h"
#include "quad/nspace_cache.h"
#include "status.h"

/* Distinct tower families one key can hold: evolution ns/singlet at orders
 * 1..3 and nf 3..6 are 24; the rest for OMEs. Beyond that, no caching. */
#define EKOC_NSPACE_CACHE_SLOTS 48

typedef struct tower_slot {
  int32_t kind, family, order, nf;
  double ome_log; /* matching only (0 for evolution) */
  ekoc_complex *v;
  unsigned char *ready;
} tower_slot;

struct ekoc_nspace_cache {
  atomic_flag busy;
  size_t max_bytes, used_bytes;
  /* the key */
  double *logx;
  size_t nx;
  int32_t degree, panels, points, n_nodes;
  double cut;
  /* the values */
  ekoc_batch_rule *rule;        /* the key's quadrature rule */
  ekoc_complex *basis[2];       /* by offset: [k][m][j] */
  unsigned char *basis_ready[2]; /* [k] */
  int32_t basis_tried[2];       /* allocation attempted for this key */
  tower_slot slot[EKOC_NSPACE_CACHE_SLOTS];
  int32_t n_slots;
};

int ekoc_nspace_cache_new(size_t max_bytes, ekoc_nspace_cache **out) {
  ekoc_nspace_cache *c;
  if (!out) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_nspace_cache_new: out is NULL");
  *out = NULL;
  c = calloc(1, sizeof *c);
  if (!c) return ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_nspace_cache_new: out of memory");
  atomic_flag_clear(&c->busy);
  c->max_bytes = max_bytes ? max_bytes : EKOC_NSPACE_CACHE_DEFAULT_BYTES;
  *out = c;
  return EKOC_OK;
}

/* Frees the values and the key: the cache is empty and unbound. */
static void drop_all(ekoc_nspace_cache *c) {
  int32_t i;
  ekoc_batch_rule_free(c->rule);
  c->rule = NULL;
  for (i = 0; i < 2; ++i) {
    free(c->basis[i]);
    free(c->basis_ready[i]);
    c->basis[i] = NULL;
    c->basis_ready[i] = NULL;
    c->basis_tried[i] = 0;
  }
  for (i = 0; i < c->n_slots; ++i) {
    free(c->slot[i].v);
    free(c->slot[i].ready);
  }
  memset(c->slot, 0, sizeof c->slot);
  c->n_slots = 0;
  free(c->logx);
  c->logx = NULL;
  c->nx = 0;
  c->used_bytes = 0;
}

void ekoc_nspace_cache_free(ekoc_nspace_cache *c) {
  if (!c) return;
  drop_all(c);
  free(c);
}

size_t ekoc_nspace_cache_bytes(const ekoc_nspace_cache *c) { return c ? c->used_bytes : 0; }

static int same_key(const ekoc_nspace_cache *c, const double *logx, size_t nx, int32_t degree, int32_t panels,
                    int32_t points, double cut) {
  return c->logx && c->nx == nx && c->degree == degree && c->panels == panels && c->points == points &&
         c->cut == cut && memcmp(c->logx, logx, nx * sizeof *logx) == 0;
}

int ekoc_nspace_cache_bind(ekoc_nspace_cache *c, const double *logx, size_t nx, int32_t degree, int32_t panels,
                           int32_t points, double cut) {
  if (!c || !logx || nx == 0 || panels < 1 || points < 1) return 0;
  if (atomic_flag_test_and_set(&c->busy)) return 0; /* another computation holds it */
  if (!same_key(c, logx, nx, degree, panels, points, cut)) {
    drop_all(c);
    c->logx = malloc(nx * sizeof *logx);
    if (!c->logx) {
      atomic_flag_clear(&c->busy);
      return 0;
    }
    memcpy(c->logx, logx, nx * sizeof *logx);
    c->nx = nx;
    c->degree = degree;
    c->panels = panels;
    c->points = points;
    c->n_nodes = panels * (2 * points + 1);
    c->cut = cut;
  }
  return 1;
}

void ekoc_nspace_cache_release(ekoc_nspace_cache *c) {
  if (c) atomic_flag_clear(&c->busy);
}

/* count complex numbers plus nx ready flags within the budget, or NULL. */
static ekoc_complex *alloc_rows(ekoc_nspace_cache *c, size_t per_row, unsigned char **ready) {
  size_t count = c->nx * per_row, bytes;
  ekoc_complex *v;
  *ready = NULL;
  if (per_row == 0 || count / c->nx != per_row || count > (SIZE_MAX - c->nx) / sizeof(ekoc_complex)) return NULL;
  bytes = count * sizeof(ekoc_complex) + c->nx;
  if (bytes > c->max_bytes - c->used_bytes) return NULL;
  v = malloc(count * sizeof(ekoc_complex));
  *ready = calloc(c->nx, 1);
  if (!v || !*ready) {
    free(v);
    free(*ready);
    *ready = NULL;
    return NULL;
  }
  c->used_bytes += bytes;
  return v;
}

const ekoc_batch_rule *ekoc_nspace_cache_rule(ekoc_nspace_cache *c) {
  if (!c || !c->logx) return NULL;
  if (!c->rule && ekoc_batch_rule_alloc(c->panels, c->points, c->cut, &c->rule) != EKOC_OK) c->rule = NULL;
  return c->rule;
}

ekoc_complex *ekoc_nspace_cache_basis(ekoc_nspace_cache *c, int singlet_like, unsigned char **ready) {
  int o = singlet_like ? 1 : 0;
  *ready = NULL;
  if (!c || !c->logx) return NULL;
  if (!c->basis_tried[o]) {
    c->basis_tried[o] = 1;
    c->basis[o] = alloc_rows(c, (size_t)c->n_nodes * c->nx, &c->basis_ready[o]);
  }
  *ready = c->basis_ready[o];
  return c->basis[o];
}

ekoc_complex *ekoc_nspace_cache_towers(ekoc_nspace_cache *c, const ekoc_nspace_cfg *cfg, unsigned char **ready) {
  int32_t i;
  double ome_log;
  tower_slot *s;
  *ready = NULL;
  if (!c || !c->logx || !cfg) return NULL;
  ome_log = cfg->kind == EKOC_KIND_MATCHING ? cfg->ome_log : 0.0;
  for (i = 0; i < c->n_slots; ++i) {
    s = &c->slot[i];
    if (s->kind == cfg->kind && s->family == cfg->family && s->order == cfg->order && s->nf == cfg->nf &&
        s->ome_log == ome_log) {
      *ready = s->ready;
      return s->v;
    }
  }
  if (c->n_slots == EKOC_NSPACE_CACHE_SLOTS) return NULL;
  s = &c->slot[c->n_slots];
  s->v = alloc_rows(c, (size_t)c->n_nodes * (size_t)ekoc_nspace_tower_len(cfg), &s->ready);
  if (!s->v) return NULL;
  s->kind = cfg->kind;
  s->family = cfg->family;
  s->order = cfg->order;
  s->nf = cfg->nf;
  s->ome_log = ome_log;
  c->n_slots++;
  *ready = s->ready;
  return s->v;
}
