/* path_cache.c: the N-space engine's values kept between computations
 * (quad/path_cache.h). */
#include "quad/path_cache.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "quad/nspace_cache.h"

/* One family's towers at one set of points. */
typedef struct tower_entry {
  ekoc_tower_key key;
  size_t count;
  double *nodes;    /* 2 count: Re then Im of the points */
  ekoc_complex *v;  /* count x tower length */
  size_t bytes;
  uint64_t used;    /* the binding that last used it */
} tower_entry;

/* Bytes kept under a key (ekoc_path_cache_blob). */
typedef struct blob_entry {
  void *key, *data; /* one allocation: key_len bytes of key, then len of data */
  size_t key_len, len, bytes;
  uint64_t used;
} blob_entry;

/* One band path's products (ekoc_path_store), with what they were made for. */
typedef struct store_entry {
  ekoc_path_store s;
  int m;
  size_t chunks, col_pad, n_blocks;
  ekoc_complex *nodes;      /* m + 1 */
  ekoc_band_block *blocks;  /* n_blocks */
  int32_t *cols;            /* 3 nx: j_lo, j_own, j_hi */
  void *mem;                /* the arrays of s */
  size_t bytes;
  uint64_t used;
} store_entry;

struct ekoc_path_cache {
  /* the key */
  double *logx;
  size_t nx;
  int32_t degree, is_log;
  /* the values */
  size_t max_bytes;
  atomic_size_t used_bytes; /* changed by the computation holding the cache, read by anyone (bytes) */
  uint64_t binding;
  tower_entry *tower;
  size_t n_towers, cap_towers;
  store_entry *store;
  size_t n_stores, cap_stores;
  blob_entry *blob;
  size_t n_blobs, cap_blobs;
};

ekoc_path_cache *ekoc_path_cache_new(void) { return calloc(1, sizeof(ekoc_path_cache)); }

static void tower_entry_free(tower_entry *e) {
  free(e->nodes);
  free(e->v);
}

static void store_entry_free(store_entry *e) {
  free(e->nodes);
  free(e->blocks);
  free(e->cols);
  free(e->mem);
  free(e->s.b_blk); /* the pointer arrays share one allocation, the ready flags another (store_layout) */
  free(e->s.blk_ready);
}

static void drop_values(ekoc_path_cache *pc) {
  size_t i;
  for (i = 0; i < pc->n_towers; ++i) tower_entry_free(&pc->tower[i]);
  for (i = 0; i < pc->n_stores; ++i) store_entry_free(&pc->store[i]);
  for (i = 0; i < pc->n_blobs; ++i) free(pc->blob[i].key);
  pc->n_towers = pc->n_stores = pc->n_blobs = 0;
  atomic_store(&pc->used_bytes, 0);
}

void ekoc_path_cache_free(ekoc_path_cache *pc) {
  if (!pc) return;
  drop_values(pc);
  free(pc->tower);
  free(pc->store);
  free(pc->blob);
  free(pc->logx);
  free(pc);
}

size_t ekoc_path_cache_bytes(const ekoc_path_cache *pc) {
  return pc ? atomic_load(&((ekoc_path_cache *)pc)->used_bytes) : 0;
}

int ekoc_path_cache_bind(ekoc_path_cache *pc, const ekoc_interp *ip, size_t max_bytes) {
  if (!pc || !ip || ip->n == 0) return 0;
  if (!(pc->logx && pc->nx == ip->n && pc->degree == ip->degree && pc->is_log == ip->is_log &&
        memcmp(pc->logx, ip->logx, ip->n * sizeof *ip->logx) == 0)) {
    drop_values(pc);
    free(pc->logx);
    pc->logx = malloc(ip->n * sizeof *ip->logx);
    if (!pc->logx) {
      pc->nx = 0;
      return 0;
    }
    memcpy(pc->logx, ip->logx, ip->n * sizeof *ip->logx);
    pc->nx = ip->n;
    pc->degree = ip->degree;
    pc->is_log = ip->is_log;
  }
  pc->max_bytes = max_bytes;
  pc->binding++;
  return 1;
}

/* Makes room for `bytes` more by dropping entries no computation of this
 * binding has used, least recently used first; 0 when that is not enough. */
static int make_room(ekoc_path_cache *pc, size_t bytes) {
  for (;;) {
    size_t used = atomic_load(&pc->used_bytes);
    size_t i, at = 0;
    int which = -1; /* 0 tower, 1 store, 2 blob */
    uint64_t oldest = pc->binding;
    if (used + bytes <= pc->max_bytes && used + bytes >= bytes) return 1;
    for (i = 0; i < pc->n_towers; ++i)
      if (pc->tower[i].used < oldest) oldest = pc->tower[i].used, which = 0, at = i;
    for (i = 0; i < pc->n_stores; ++i)
      if (pc->store[i].used < oldest) oldest = pc->store[i].used, which = 1, at = i;
    for (i = 0; i < pc->n_blobs; ++i)
      if (pc->blob[i].used < oldest) oldest = pc->blob[i].used, which = 2, at = i;
    if (which < 0) return 0;
    if (which == 2) {
      atomic_fetch_sub(&pc->used_bytes, pc->blob[at].bytes);
      free(pc->blob[at].key);
      pc->blob[at] = pc->blob[--pc->n_blobs];
      continue;
    }
    if (which == 0) {
      atomic_fetch_sub(&pc->used_bytes, pc->tower[at].bytes);
      tower_entry_free(&pc->tower[at]);
      pc->tower[at] = pc->tower[--pc->n_towers];
    } else {
      atomic_fetch_sub(&pc->used_bytes, pc->store[at].bytes);
      store_entry_free(&pc->store[at]);
      pc->store[at] = pc->store[--pc->n_stores];
    }
  }
}

/* Room for one more entry in an array of entries (elements of `size` bytes). */
static int grow(void **v, size_t *cap, size_t n, size_t size) {
  void *w;
  size_t c;
  if (n < *cap) return 1;
  c = *cap ? 2 * *cap : 16;
  w = realloc(*v, c * size);
  if (!w) return 0;
  *v = w;
  *cap = c;
  return 1;
}

static int same_points(const double *kept, size_t count, const double *n_re, const double *n_im) {
  return memcmp(kept, n_re, count * sizeof *n_re) == 0 && memcmp(kept + count, n_im, count * sizeof *n_im) == 0;
}

const ekoc_complex *ekoc_path_cache_tower(ekoc_path_cache *pc, const ekoc_nspace_cfg *cfg, size_t count,
                                          const double *n_re, const double *n_im) {
  ekoc_tower_key key;
  size_t i;
  if (!pc || !pc->logx || count == 0) return NULL;
  ekoc_tower_key_of(cfg, &key);
  for (i = 0; i < pc->n_towers; ++i) {
    tower_entry *e = &pc->tower[i];
    if (e->count == count && memcmp(&e->key, &key, sizeof key) == 0 && same_points(e->nodes, count, n_re, n_im)) {
      e->used = pc->binding;
      return e->v;
    }
  }
  return NULL;
}

void ekoc_path_cache_put_tower(ekoc_path_cache *pc, const ekoc_nspace_cfg *cfg, size_t count, const double *n_re,
                               const double *n_im, const ekoc_complex *tower) {
  size_t len = (size_t)ekoc_nspace_tower_len(cfg), bytes;
  tower_entry e;
  if (!pc || !pc->logx || count == 0 || len == 0) return;
  bytes = count * (2 * sizeof(double) + len * sizeof(ekoc_complex));
  if (!make_room(pc, bytes) || !grow((void **)&pc->tower, &pc->cap_towers, pc->n_towers, sizeof e)) return;
  memset(&e, 0, sizeof e);
  ekoc_tower_key_of(cfg, &e.key);
  e.count = count;
  e.nodes = malloc(2 * count * sizeof(double));
  e.v = malloc(count * len * sizeof(ekoc_complex));
  if (!e.nodes || !e.v) {
    tower_entry_free(&e);
    return;
  }
  memcpy(e.nodes, n_re, count * sizeof(double));
  memcpy(e.nodes + count, n_im, count * sizeof(double));
  memcpy(e.v, tower, count * len * sizeof(ekoc_complex));
  e.bytes = bytes;
  e.used = pc->binding;
  pc->tower[pc->n_towers++] = e;
  atomic_fetch_add(&pc->used_bytes, bytes);
}

const void *ekoc_path_cache_blob(ekoc_path_cache *pc, const void *key, size_t key_len, size_t *len) {
  size_t i;
  if (!pc || !pc->logx || !key) return NULL;
  for (i = 0; i < pc->n_blobs; ++i) {
    blob_entry *e = &pc->blob[i];
    if (e->key_len == key_len && memcmp(e->key, key, key_len) == 0) {
      e->used = pc->binding;
      *len = e->len;
      return e->data;
    }
  }
  return NULL;
}

void ekoc_path_cache_put_blob(ekoc_path_cache *pc, const void *key, size_t key_len, const void *data, size_t len) {
  blob_entry e;
  if (!pc || !pc->logx || !key || !data || key_len > SIZE_MAX / 2 - len) return;
  e.key_len = key_len, e.len = len, e.bytes = key_len + len + sizeof e, e.used = pc->binding;
  if (!make_room(pc, e.bytes) || !grow((void **)&pc->blob, &pc->cap_blobs, pc->n_blobs, sizeof e)) return;
  e.key = malloc(key_len + len ? key_len + len : 1);
  if (!e.key) return;
  e.data = (char *)e.key + key_len;
  memcpy(e.key, key, key_len);
  memcpy(e.data, data, len);
  pc->blob[pc->n_blobs++] = e;
  atomic_fetch_add(&pc->used_bytes, e.bytes);
}

static size_t round_up(size_t v, size_t q) { return (v + q - 1) / q * q; }

/* The columns of block q's shared right factor: its shared columns, and
 * enough zero columns that every row's product (from the row's first shared
 * column, a multiple of col_pad wide) stays inside. */
static size_t block_ld(const ekoc_band *bd, size_t q, size_t col_pad) {
  const ekoc_band_block *blk = &bd->block[q];
  size_t ld = round_up((size_t)(blk->s_hi - blk->s_lo), col_pad) + col_pad;
  int32_t k;
  for (k = blk->k0; k <= blk->k1; ++k)
    if (bd->j_hi[k] > bd->j_own[k]) {
      size_t end = (size_t)(bd->j_own[k] - blk->s_lo) + round_up((size_t)(bd->j_hi[k] - bd->j_own[k]), col_pad);
      if (end > ld) ld = round_up(end, col_pad);
    }
  return blk->s_hi > blk->s_lo ? ld : 0;
}

/* The doubles of store s (its ld's set) for m + 1 nodes and `chunks` size chunks. */
static size_t store_doubles(const ekoc_path_store *s, int m, size_t chunks) {
  size_t inner = 2 * ((size_t)m + 1), total = 0, i;
  for (i = 0; i < s->n_blocks; ++i) total += (inner + chunks) * s->ld_blk[i];
  for (i = 0; i < s->nx; ++i) total += (inner + chunks) * s->ld_row[i] + (s->x_row[i] ? 3 * ((size_t)m + 1) : 0);
  return total;
}

/* The layout of band bd's store: its pointer arrays (one allocation at
 * s->b_blk), ready flags (one at s->blk_ready), the ld's, and the rows with
 * node factors (x_row set to a non-NULL mark, placed by store_place). */
static int store_layout(ekoc_path_store *s, const ekoc_band *bd, size_t nx, size_t col_pad) {
  size_t nb = bd->n_blocks, q;
  void **p = calloc(3 * nb + 5 * nx, sizeof(void *));
  unsigned char *ready = calloc(nb + nx, 1);
  if (!p || !ready) {
    free(p);
    free(ready);
    return 0;
  }
  s->n_blocks = nb;
  s->nx = nx;
  s->b_blk = (double **)p;
  s->size_blk = (double **)p + nb;
  s->ld_blk = (size_t *)(p + 2 * nb);
  s->b_row = (double **)p + 3 * nb;
  s->size_row = (double **)p + 3 * nb + nx;
  s->ld_row = (size_t *)(p + 3 * nb + 2 * nx);
  s->x_row = (double **)p + 3 * nb + 3 * nx;
  s->blk_ready = ready;
  s->row_ready = ready + nb;
  for (q = 0; q < nb; ++q) {
    const ekoc_band_block *blk = &bd->block[q];
    int32_t k;
    s->ld_blk[q] = block_ld(bd, q, col_pad);
    for (k = blk->k0; k <= blk->k1; ++k) {
      s->ld_row[k] = round_up((size_t)(bd->j_own[k] - bd->j_lo[k]), col_pad);
      s->x_row[k] = bd->j_hi[k] > bd->j_own[k] ? (double *)s : NULL; /* a mark */
    }
  }
  return 1;
}

/* Points the arrays of s into mem (store_doubles(s) doubles). */
static void store_place(ekoc_path_store *s, double *mem, int m, size_t chunks) {
  size_t inner = 2 * ((size_t)m + 1), i;
  for (i = 0; i < s->n_blocks; ++i)
    if (s->ld_blk[i]) {
      s->b_blk[i] = mem, mem += inner * s->ld_blk[i];
      s->size_blk[i] = mem, mem += chunks * s->ld_blk[i];
    }
  for (i = 0; i < s->nx; ++i) {
    if (s->ld_row[i]) {
      s->b_row[i] = mem, mem += inner * s->ld_row[i];
      s->size_row[i] = mem, mem += chunks * s->ld_row[i];
    }
    if (s->x_row[i]) s->x_row[i] = mem, mem += 3 * ((size_t)m + 1);
  }
}

static int same_band(const store_entry *e, const ekoc_band *bd, int m, const ekoc_complex *n, size_t nx,
                     size_t chunks, size_t col_pad) {
  return e->m == m && e->chunks == chunks && e->col_pad == col_pad && e->n_blocks == bd->n_blocks &&
         memcmp(e->nodes, n, ((size_t)m + 1) * sizeof *n) == 0 &&
         memcmp(e->blocks, bd->block, bd->n_blocks * sizeof *bd->block) == 0 &&
         memcmp(e->cols, bd->j_lo, nx * sizeof(int32_t)) == 0 &&
         memcmp(e->cols + nx, bd->j_own, nx * sizeof(int32_t)) == 0 &&
         memcmp(e->cols + 2 * nx, bd->j_hi, nx * sizeof(int32_t)) == 0;
}

ekoc_path_store *ekoc_path_cache_store(ekoc_path_cache *pc, const ekoc_band *bd, int m, const ekoc_complex *n,
                                       size_t chunks, size_t col_pad) {
  size_t i, nx, count = (size_t)m + 1, doubles, bytes;
  store_entry e;
  if (!pc || !pc->logx || !bd || m < 2 || col_pad == 0) return NULL;
  nx = pc->nx;
  for (i = 0; i < pc->n_stores; ++i)
    if (same_band(&pc->store[i], bd, m, n, nx, chunks, col_pad)) {
      pc->store[i].used = pc->binding;
      return &pc->store[i].s;
    }
  memset(&e, 0, sizeof e);
  if (!store_layout(&e.s, bd, nx, col_pad)) return NULL;
  doubles = store_doubles(&e.s, m, chunks);
  bytes = doubles * sizeof(double) + count * sizeof *n + bd->n_blocks * (sizeof *bd->block + 3 * sizeof(void *) + 1) +
          nx * (3 * sizeof(int32_t) + 5 * sizeof(void *) + 1);
  if (!make_room(pc, bytes) || !grow((void **)&pc->store, &pc->cap_stores, pc->n_stores, sizeof e)) {
    store_entry_free(&e);
    return NULL;
  }
  e.mem = malloc(doubles ? doubles * sizeof(double) : 1);
  e.nodes = malloc(count * sizeof *n);
  e.blocks = malloc(bd->n_blocks ? bd->n_blocks * sizeof *bd->block : 1);
  e.cols = malloc(3 * nx * sizeof(int32_t));
  if (!e.mem || !e.nodes || !e.blocks || !e.cols) {
    store_entry_free(&e);
    return NULL;
  }
  store_place(&e.s, e.mem, m, chunks);
  memcpy(e.nodes, n, count * sizeof *n);
  memcpy(e.blocks, bd->block, bd->n_blocks * sizeof *bd->block);
  memcpy(e.cols, bd->j_lo, nx * sizeof(int32_t));
  memcpy(e.cols + nx, bd->j_own, nx * sizeof(int32_t));
  memcpy(e.cols + 2 * nx, bd->j_hi, nx * sizeof(int32_t));
  e.m = m;
  e.chunks = chunks;
  e.col_pad = col_pad;
  e.n_blocks = bd->n_blocks;
  e.bytes = bytes;
  e.used = pc->binding;
  pc->store[pc->n_stores++] = e;
  atomic_fetch_add(&pc->used_bytes, bytes);
  return &pc->store[pc->n_stores - 1].s;
}
