/* nspace_cache.c: the N-space values the batch driver keeps between parts
 * and computations (quad/nspace_cache.h, include/ekoc/operator.h). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "ad/nspace.h"
#include "quad/batch_eval.h"
#include "quad/batch_rule.h"
#include "quad/nspace_cache.h"
#include "quad/path_cache.h"
#include "status.h"

/* Distinct tower families one key can hold: evolution ns/singlet at orders
 * 1..3 and nf 3..6 are 24; the rest for OMEs. Beyond that, no caching. */
#define EKOC_NSPACE_CACHE_SLOTS 48

/* The keys of the refined panels of one path offset, [row k][slot q]. */
typedef struct panel_index {
  int32_t nodes;          /* per panel */
  int32_t *count;         /* [k]: slots in use */
  double *lo, *hi, *radius; /* [k][q]: the panel [lo, hi] on the path of this radius */
  ekoc_complex **basis;   /* [k][q]: [nodes + probes][nx], or NULL */
  unsigned char *ready;   /* [k][q] */
  ekoc_complex **sums;    /* [k][q]: the nodes' packed harmonic sums, or NULL */
  unsigned char *sums_ready; /* [k][q] */
} panel_index;

struct ekoc_nspace_panels {
  ekoc_nspace_cache *cache;
  panel_index *index;         /* of the family's offset */
  ekoc_complex **tower;       /* [k][q]: [nodes][len], or NULL */
  unsigned char *tower_ready; /* [k][q] */
  int32_t len;
  int32_t takes_sums;         /* the family's towers come from packed sums (ekoc_nspace_takes_sums) */
};

typedef struct tower_slot {
  ekoc_tower_key key;
  ekoc_complex *v;
  unsigned char *ready;
  double *radius; /* [k]: of the path the row's towers were computed on */
  ekoc_nspace_panels panels; /* its refined panels (panels.tower NULL until asked for) */
} tower_slot;

/* Values of the base rule's nodes kept row by row for one path offset. */
typedef struct offset_rows {
  ekoc_complex *v;      /* [k][per row] */
  unsigned char *ready; /* [k] */
  double *radius;       /* [k]: of the path the row's values were computed on */
  int32_t tried;        /* allocation attempted for this key */
} offset_rows;

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
  double *ref_rule;             /* the refinement's Gauss-Kronrod pair on [-1, 1]: x, wk, wg */
  int32_t ref_points;           /* its n (0: none yet) */
  offset_rows basis[2];          /* by offset: [k][m][j] */
  offset_rows sums[2];           /* by offset: [k][m][EKOC_NSPACE_SUMS_LEN / 2], the nodes' harmonic sums */
  tower_slot slot[EKOC_NSPACE_CACHE_SLOTS];
  int32_t n_slots;
  panel_index pidx[2];        /* by offset; count NULL until asked for */
  atomic_size_t loop_bytes;   /* panel arrays allocated inside the drivers' loops */
  ekoc_path_cache *paths;     /* the N-space engine's values (own key; NULL until first asked for) */
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

static void free_pointers(void **v, size_t n) {
  size_t i;
  if (!v) return;
  for (i = 0; i < n; ++i) free(v[i]);
  free(v);
}

static void offset_rows_free(offset_rows *r) {
  free(r->v);
  free(r->ready);
  free(r->radius);
  memset(r, 0, sizeof *r);
}

/* Frees the values and the key: the cache is empty and unbound. */
static void drop_all(ekoc_nspace_cache *c) {
  size_t n_keys = c->nx * EKOC_NSPACE_CACHE_PANELS;
  int32_t i;
  for (i = 0; i < 2; ++i) {
    panel_index *x = &c->pidx[i];
    free_pointers((void **)x->basis, x->count ? n_keys : 0);
    free_pointers((void **)x->sums, x->count ? n_keys : 0);
    free(x->count);
    free(x->lo);
    free(x->ready);
    free(x->sums_ready);
    memset(x, 0, sizeof *x);
  }
  for (i = 0; i < c->n_slots; ++i) {
    free_pointers((void **)c->slot[i].panels.tower, c->slot[i].panels.tower ? n_keys : 0);
    free(c->slot[i].panels.tower_ready);
  }
  atomic_store(&c->loop_bytes, 0);
  ekoc_batch_rule_free(c->rule);
  c->rule = NULL;
  free(c->ref_rule);
  c->ref_rule = NULL;
  c->ref_points = 0;
  for (i = 0; i < 2; ++i) {
    offset_rows_free(&c->basis[i]);
    offset_rows_free(&c->sums[i]);
  }
  for (i = 0; i < c->n_slots; ++i) {
    free(c->slot[i].v);
    free(c->slot[i].ready);
    free(c->slot[i].radius);
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
  ekoc_path_cache_free(c->paths);
  free(c);
}

size_t ekoc_nspace_cache_bytes(const ekoc_nspace_cache *c) {
  return c ? c->used_bytes + atomic_load(&((ekoc_nspace_cache *)c)->loop_bytes) + ekoc_path_cache_bytes(c->paths)
           : 0;
}

struct ekoc_path_cache *ekoc_nspace_cache_bind_paths(ekoc_nspace_cache *c, const struct ekoc_interp *ip) {
  size_t batch;
  if (!c || !ip) return NULL;
  if (atomic_flag_test_and_set(&c->busy)) return NULL; /* another computation holds it */
  if (!c->paths) c->paths = ekoc_path_cache_new();
  batch = c->used_bytes + atomic_load(&c->loop_bytes);
  if (!c->paths || !ekoc_path_cache_bind(c->paths, ip, batch < c->max_bytes ? c->max_bytes - batch : 0)) {
    atomic_flag_clear(&c->busy);
    return NULL;
  }
  return c->paths;
}

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

/* Bytes still free in the budget: what the driver loops reserved
 * (loop_bytes) counts as held too. */
static size_t room(ekoc_nspace_cache *c) {
  size_t held = c->used_bytes + atomic_load(&c->loop_bytes) + ekoc_path_cache_bytes(c->paths);
  return held >= c->max_bytes ? 0 : c->max_bytes - held;
}

/* count complex numbers plus nx ready flags and path radii within the
 * budget, or NULL. */
static ekoc_complex *alloc_rows(ekoc_nspace_cache *c, size_t per_row, unsigned char **ready, double **radius) {
  size_t count = c->nx * per_row, bytes;
  ekoc_complex *v;
  *ready = NULL;
  *radius = NULL;
  if (per_row == 0 || count / c->nx != per_row || count > (SIZE_MAX - c->nx) / sizeof(ekoc_complex)) return NULL;
  bytes = count * sizeof(ekoc_complex) + c->nx * (1 + sizeof(double));
  if (bytes > room(c)) return NULL;
  v = malloc(count * sizeof(ekoc_complex));
  *ready = calloc(c->nx, 1);
  *radius = calloc(c->nx, sizeof(double));
  if (!v || !*ready || !*radius) {
    free(v);
    free(*ready);
    free(*radius);
    *ready = NULL;
    *radius = NULL;
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

const double *ekoc_nspace_cache_refine_rule(ekoc_nspace_cache *c, int32_t points) {
  int32_t nk = 2 * points + 1;
  if (!c || !c->logx) return NULL;
  if (c->ref_points == points) return c->ref_rule;
  free(c->ref_rule);
  c->ref_points = 0;
  c->ref_rule = malloc(3 * (size_t)nk * sizeof(double));
  if (c->ref_rule && ekoc_batch_kronrod(points, c->ref_rule, c->ref_rule + nk, c->ref_rule + 2 * nk) == EKOC_OK) {
    c->ref_points = points;
    return c->ref_rule;
  }
  free(c->ref_rule);
  c->ref_rule = NULL;
  return NULL;
}

/* The rows r (per_row complex numbers each) of the bound cache c, allocated
 * on first use for this key within the budget; NULL (and *ready, *radius
 * NULL) when they do not fit. */
static ekoc_complex *offset_rows_get(ekoc_nspace_cache *c, offset_rows *r, size_t per_row, unsigned char **ready,
                                     double **radius) {
  if (!r->tried) {
    r->tried = 1;
    r->v = alloc_rows(c, per_row, &r->ready, &r->radius);
  }
  *ready = r->ready;
  *radius = r->radius;
  return r->v;
}

ekoc_complex *ekoc_nspace_cache_basis(ekoc_nspace_cache *c, int singlet_like, unsigned char **ready,
                                      double **radius) {
  *ready = NULL;
  *radius = NULL;
  if (!c || !c->logx) return NULL;
  return offset_rows_get(c, &c->basis[singlet_like ? 1 : 0],
                         ((size_t)c->n_nodes + EKOC_BATCH_PROBES(c->n_nodes)) * c->nx, ready, radius);
}

ekoc_complex *ekoc_nspace_cache_sums(ekoc_nspace_cache *c, int singlet_like, unsigned char **ready, double **radius) {
  *ready = NULL;
  *radius = NULL;
  if (!c || !c->logx) return NULL;
  return offset_rows_get(c, &c->sums[singlet_like ? 1 : 0], (size_t)c->n_nodes * (EKOC_NSPACE_SUMS_LEN / 2), ready,
                         radius);
}

void ekoc_tower_key_of(const ekoc_nspace_cfg *cfg, ekoc_tower_key *key) {
  int i;
  memset(key, 0, sizeof *key);
  key->kind = cfg->kind;
  key->family = cfg->family;
  key->order = cfg->order;
  key->nf = cfg->nf;
  key->choice[0] = cfg->polarized;
  key->choice[1] = cfg->time_like;
  if (cfg->kind == EKOC_KIND_EVOLUTION && cfg->order >= 4) {
    for (i = 0; i < 7; ++i) key->choice[2 + i] = cfg->n3lo_ad_variation[i];
    key->choice[9] = cfg->use_fhmruvv;
  }
  if (ekoc_nspace_is_qed(cfg)) key->choice[10] = cfg->qed_order; /* the QED towers' pairs */
  key->choice[11] = cfg->physics;
  if (cfg->kind == EKOC_KIND_MATCHING) {
    key->choice[12] = cfg->mass_scheme; /* the MSbar terms of the OMEs */
    key->ome_log = cfg->ome_log;
  }
}

ekoc_complex *ekoc_nspace_cache_towers(ekoc_nspace_cache *c, const ekoc_nspace_cfg *cfg, unsigned char **ready,
                                       double **radius) {
  ekoc_tower_key key;
  int32_t i;
  tower_slot *s;
  *ready = NULL;
  *radius = NULL;
  if (!c || !c->logx || !cfg) return NULL;
  ekoc_tower_key_of(cfg, &key);
  for (i = 0; i < c->n_slots; ++i) {
    s = &c->slot[i];
    if (memcmp(&s->key, &key, sizeof key) == 0) {
      *ready = s->ready;
      *radius = s->radius;
      return s->v;
    }
  }
  if (c->n_slots == EKOC_NSPACE_CACHE_SLOTS) return NULL;
  s = &c->slot[c->n_slots];
  s->v = alloc_rows(c, (size_t)c->n_nodes * (size_t)ekoc_nspace_tower_len(cfg), &s->ready, &s->radius);
  if (!s->v) return NULL;
  s->key = key;
  c->n_slots++;
  *ready = s->ready;
  *radius = s->radius;
  return s->v;
}

/* ---- refined panels -------------------------------------------------------------------- */

/* The bookkeeping of row keys of offset o (outside the loop), or 0. */
static int panel_index_make(ekoc_nspace_cache *c, int o, int32_t nodes) {
  panel_index *x = &c->pidx[o];
  size_t n_keys = c->nx * EKOC_NSPACE_CACHE_PANELS,
         bytes = c->nx * sizeof(int32_t) + n_keys * (3 * sizeof(double) + 2 * sizeof(void *) + 2);
  if (x->count) return x->nodes == nodes;
  if (bytes > room(c)) return 0;
  x->count = calloc(c->nx, sizeof(int32_t));
  x->lo = malloc(3 * n_keys * sizeof(double));
  x->basis = calloc(n_keys, sizeof(ekoc_complex *));
  x->ready = calloc(n_keys, 1);
  x->sums = calloc(n_keys, sizeof(ekoc_complex *));
  x->sums_ready = calloc(n_keys, 1);
  if (!x->count || !x->lo || !x->basis || !x->ready || !x->sums || !x->sums_ready) {
    free(x->count);
    free(x->lo);
    free(x->basis);
    free(x->ready);
    free(x->sums);
    free(x->sums_ready);
    memset(x, 0, sizeof *x);
    return 0;
  }
  x->hi = x->lo + n_keys;
  x->radius = x->hi + n_keys;
  x->nodes = nodes;
  c->used_bytes += bytes;
  return 1;
}

ekoc_nspace_panels *ekoc_nspace_cache_panels(ekoc_nspace_cache *c, int singlet_like, const ekoc_nspace_cfg *cfg,
                                             int32_t nodes) {
  unsigned char *ready;
  double *radius;
  ekoc_complex *v = ekoc_nspace_cache_towers(c, cfg, &ready, &radius); /* finds (or makes) the family's slot */
  size_t n_keys;
  tower_slot *s = NULL;
  int32_t i;
  if (!v || nodes < 1 || !panel_index_make(c, singlet_like ? 1 : 0, nodes)) return NULL;
  for (i = 0; i < c->n_slots; ++i)
    if (c->slot[i].v == v) s = &c->slot[i];
  if (!s) return NULL;
  n_keys = c->nx * EKOC_NSPACE_CACHE_PANELS;
  if (!s->panels.tower) {
    size_t bytes = n_keys * (sizeof(void *) + 1);
    if (bytes > room(c)) return NULL;
    s->panels.tower = calloc(n_keys, sizeof(ekoc_complex *));
    s->panels.tower_ready = calloc(n_keys, 1);
    if (!s->panels.tower || !s->panels.tower_ready) {
      free(s->panels.tower);
      free(s->panels.tower_ready);
      s->panels.tower = NULL;
      s->panels.tower_ready = NULL;
      return NULL;
    }
    c->used_bytes += bytes;
  }
  s->panels.cache = c;
  s->panels.index = &c->pidx[singlet_like ? 1 : 0];
  s->panels.len = ekoc_nspace_tower_len(cfg);
  s->panels.takes_sums = ekoc_nspace_takes_sums(cfg);
  return &s->panels;
}

/* bytes from the budget for an array made inside the loop (atomic), or 0 */
static int reserve(ekoc_nspace_cache *c, size_t bytes) {
  size_t cur = atomic_load(&c->loop_bytes);
  do {
    size_t held = c->used_bytes + ekoc_path_cache_bytes(c->paths);
    if (held > c->max_bytes || cur > c->max_bytes - held || bytes > c->max_bytes - held - cur) return 0;
  } while (!atomic_compare_exchange_weak(&c->loop_bytes, &cur, cur + bytes));
  return 1;
}

static ekoc_complex *loop_alloc(ekoc_nspace_cache *c, size_t count) {
  ekoc_complex *v;
  if (!reserve(c, count * sizeof(ekoc_complex))) return NULL;
  v = malloc(count * sizeof(ekoc_complex));
  if (!v) atomic_fetch_sub(&c->loop_bytes, count * sizeof(ekoc_complex));
  return v;
}

void ekoc_nspace_panel_get(ekoc_nspace_panels *p, size_t k, double lo, double hi, double radius,
                           ekoc_batch_row_cache *out) {
  panel_index *x;
  size_t at;
  int32_t q, n;
  memset(out, 0, sizeof *out);
  if (!p || !p->index || k >= p->cache->nx) return;
  x = p->index;
  at = k * EKOC_NSPACE_CACHE_PANELS;
  n = x->count[k];
  for (q = 0; q < n; ++q)
    if (x->lo[at + q] == lo && x->hi[at + q] == hi && x->radius[at + q] == radius) break;
  if (q == n) {
    if (n == EKOC_NSPACE_CACHE_PANELS) return;
    x->lo[at + q] = lo;
    x->hi[at + q] = hi;
    x->radius[at + q] = radius;
    x->count[k] = n + 1;
  }
  at += (size_t)q;
  if (!x->basis[at])
    x->basis[at] = loop_alloc(p->cache, ((size_t)x->nodes + EKOC_BATCH_PROBES(x->nodes)) * p->cache->nx);
  if (!p->tower[at]) p->tower[at] = loop_alloc(p->cache, (size_t)x->nodes * (size_t)(p->len ? p->len : 1));
  if (!x->sums[at] && p->takes_sums) x->sums[at] = loop_alloc(p->cache, (size_t)x->nodes * (EKOC_NSPACE_SUMS_LEN / 2));
  if (x->basis[at]) {
    out->basis = x->basis[at];
    out->basis_ready = &x->ready[at];
  }
  if (x->sums[at]) {
    out->sums = x->sums[at];
    out->sums_ready = &x->sums_ready[at];
  }
  if (p->tower[at]) {
    out->tower = p->tower[at];
    out->tower_ready = &p->tower_ready[at];
  }
}
