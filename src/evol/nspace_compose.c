/* nspace_compose.c: targets' operators at the nodes of a path (nspace_compose.h). */
#include "evol/nspace_compose.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ad/nspace.h"
#include "evol/compose.h"
#include "evol/part_layout.h"

void ekoc_nsop_init(ekoc_nsop *op, size_t count) {
  memset(op, 0, sizeof *op);
  op->count = count;
}

void ekoc_nsop_clear(ekoc_nsop *op) {
  int a, b;
  for (a = 0; a < EKOC_NB; ++a)
    for (b = 0; b < EKOC_NB; ++b) free(op->v[a][b]);
  ekoc_nsop_init(op, op->count);
}

/* Moves src into dst (dst's blocks are freed first). */
static void nsop_move(ekoc_nsop *dst, ekoc_nsop *src) {
  ekoc_nsop_clear(dst);
  *dst = *src;
  ekoc_nsop_init(src, src->count);
}

/* A new array block of op->count values and sizes; NULL when out of memory. */
static ekoc_complex *new_array(ekoc_nsop *op, int a, int b) {
  ekoc_complex *v = malloc(op->count * (sizeof(ekoc_complex) + sizeof(double)));
  op->v[a][b] = v;
  op->size[a][b] = v ? (double *)(v + op->count) : NULL;
  return v;
}

/* Block (a, b) of op as an array (made from its constant when it has none);
 * NULL when out of memory. */
static ekoc_complex *block_array(ekoc_nsop *op, int a, int b) {
  size_t i;
  if (!op->v[a][b]) {
    if (!new_array(op, a, b)) return NULL;
    for (i = 0; i < op->count; ++i) {
      op->v[a][b][i] = c_real(op->k[a][b]);
      op->size[a][b][i] = fabs(op->k[a][b]);
    }
    op->k[a][b] = 0.0;
  }
  return op->v[a][b];
}

/* Size of the terms of block (a, b) at node i. */
static double size_at(const ekoc_nsop *op, int a, int b, size_t i) {
  return op->v[a][b] ? op->size[a][b][i] : fabs(op->k[a][b]);
}

/* Whether block (a, b) is present (an array or a non-zero constant). */
static int present(const ekoc_nsop *op, int a, int b) { return op->v[a][b] || op->k[a][b] != 0.0; }

int ekoc_nsop_part(const ekoc_plan_job *j, int unified, const ekoc_complex *const values[2], const double *lim_e,
                   const unsigned char *constant_e, const unsigned char *skip_e, ekoc_nsop *out) {
  ekoc_element_map map[EKOC_JOB_MAX_ELEMENTS];
  ekoc_part_layout pl;
  int n = ekoc_part_elements(j, map), q;
  size_t i;
  ekoc_nsop_clear(out);
  ekoc_part_layout_of(j, unified, map, n, &pl);
  for (q = 0; q < pl.n; ++q) {
    int a = pl.a[q], b = pl.b[q], e = pl.e[q];
    if (e == EKOC_PART_IDENTITY) {
      out->k[a][b] = out->lim[a][b] = out->corner[a][b] = 1.0;
      continue;
    }
    if (skip_e && skip_e[e]) continue;
    out->corner[a][b] = map[e].diagonal ? 1.0 : 0.0;
    if (j->unity) {
      out->k[a][b] = out->lim[a][b] = map[e].diagonal ? 1.0 : 0.0;
      continue;
    }
    if (constant_e && constant_e[e]) { /* exactly c delta_kj: nothing to invert */
      out->k[a][b] = out->lim[a][b] = lim_e[e];
      continue;
    }
    {
      const ekoc_complex *src = values[map[e].family];
      size_t stride = (size_t)ekoc_nspace_family_size(&j->family[map[e].family]);
      ekoc_complex *dst = new_array(out, a, b);
      if (!dst) return 0;
      for (i = 0; i < out->count; ++i) {
        dst[i] = src[i * stride + (size_t)map[e].element];
        out->size[a][b][i] = c_abs(dst[i]);
      }
      out->lim[a][b] = lim_e[e];
    }
  }
  return 1;
}

/* out = a b (values, limits and corners). out is distinct from a and b. */
static int nsop_mul(const ekoc_nsop *a, const ekoc_nsop *b, ekoc_nsop *out) {
  int r, c, k;
  size_t i, count = a->count;
  ekoc_nsop_clear(out);
  for (r = 0; r < EKOC_NB; ++r)
    for (c = 0; c < EKOC_NB; ++c) {
      double lim = 0.0, corner = 0.0;
      for (k = 0; k < EKOC_NB; ++k) {
        lim += a->lim[r][k] * b->lim[k][c];
        corner += a->corner[r][k] * b->corner[k][c];
        if (!present(a, r, k) || !present(b, k, c)) continue;
        if (!a->v[r][k] && !b->v[k][c]) {
          double kk = a->k[r][k] * b->k[k][c];
          if (out->v[r][c]) {
            for (i = 0; i < count; ++i) {
              out->v[r][c][i] = c_add_real(out->v[r][c][i], kk);
              out->size[r][c][i] += fabs(kk);
            }
          } else {
            out->k[r][c] += kk;
          }
        } else {
          ekoc_complex *o = block_array(out, r, c);
          double *sz = out->size[r][c];
          if (!o) return 0;
          if (a->v[r][k] && b->v[k][c])
            for (i = 0; i < count; ++i) o[i] = c_add(o[i], c_mul(a->v[r][k][i], b->v[k][c][i]));
          else if (a->v[r][k])
            for (i = 0; i < count; ++i) o[i] = c_add(o[i], c_scale(a->v[r][k][i], b->k[k][c]));
          else
            for (i = 0; i < count; ++i) o[i] = c_add(o[i], c_scale(b->v[k][c][i], a->k[r][k]));
          for (i = 0; i < count; ++i) sz[i] += size_at(a, r, k, i) * size_at(b, k, c, i);
        }
      }
      out->lim[r][c] = lim;
      out->corner[r][c] = corner;
    }
  return 1;
}

/* out = m a, m a constant basis rotation: a product with the operator whose
 * every block, limit and corner is m's entry. out is distinct from a. */
static int nsop_rotate_left(const double m[EKOC_NB][EKOC_NB], const ekoc_nsop *a, ekoc_nsop *out) {
  ekoc_nsop rot;
  ekoc_nsop_init(&rot, a->count);
  memcpy(rot.k, m, sizeof rot.k);
  memcpy(rot.lim, m, sizeof rot.lim);
  memcpy(rot.corner, m, sizeof rot.corner);
  return nsop_mul(&rot, a, out);
}

/* A deep copy. */
static int nsop_copy(const ekoc_nsop *src, ekoc_nsop *dst) {
  int a, b;
  ekoc_nsop_clear(dst);
  memcpy(dst->k, src->k, sizeof dst->k);
  memcpy(dst->lim, src->lim, sizeof dst->lim);
  memcpy(dst->corner, src->corner, sizeof dst->corner);
  for (a = 0; a < EKOC_NB; ++a)
    for (b = 0; b < EKOC_NB; ++b)
      if (src->v[a][b]) {
        if (!new_array(dst, a, b)) return 0;
        memcpy(dst->v[a][b], src->v[a][b], src->count * (sizeof(ekoc_complex) + sizeof(double)));
      }
  return 1;
}

int ekoc_plan_common_steps(const ekoc_plan *p, size_t t, size_t u) {
  int s, n = p->n_steps[t] < p->n_steps[u] ? p->n_steps[t] : p->n_steps[u];
  for (s = 0; s < n; ++s) {
    const ekoc_plan_step *a = &p->steps[t][s], *b = &p->steps[u][s];
    if (a->job != b->job || a->kind != b->kind || a->nf != b->nf || a->unified != b->unified) break;
  }
  return s;
}

int ekoc_nsop_target_resume(const ekoc_plan *p, size_t t, const ekoc_nsop *parts, int done, int keep_after,
                            ekoc_nsop *kept, ekoc_nsop *cur) {
  ekoc_nsop tmp, tmp2;
  int s, a, ok = 1;
  size_t count = cur->count;
  ekoc_nsop_init(&tmp, count);
  ekoc_nsop_init(&tmp2, count);
  if (done == 0) ekoc_nsop_clear(cur);
  if (keep_after > 0 && keep_after == done) ok = nsop_copy(cur, kept);
  for (s = done; ok && s < p->n_steps[t]; ++s) {
    const ekoc_plan_step *st = &p->steps[t][s];
    const ekoc_nsop *part = &parts[st->job];
    if (s == 0 && st->kind == EKOC_STEP_SEGMENT) {
      ok = nsop_copy(part, cur);
    } else {
      if (s == 0)
        for (a = 0; a < EKOC_NB; ++a) cur->k[a][a] = cur->lim[a][a] = cur->corner[a][a] = 1.0;
      if (st->kind == EKOC_STEP_SEGMENT) {
        ok = nsop_mul(part, cur, &tmp);
        nsop_move(cur, &tmp);
      } else {
        double m[EKOC_NB][EKOC_NB];
        ekoc_compose_matching_rotation(st, m);
        if (st->kind == EKOC_STEP_FORWARD) { /* B_lo -> (OME) -> B_lo -> rotate -> B_hi */
          ok = nsop_mul(part, cur, &tmp) && nsop_rotate_left(m, &tmp, &tmp2);
        } else { /* B_hi -> rotate -> B_lo -> (inverse OME) */
          ok = nsop_rotate_left(m, cur, &tmp) && nsop_mul(part, &tmp, &tmp2);
        }
        nsop_move(cur, &tmp2);
      }
    }
    if (ok && s + 1 == keep_after) ok = nsop_copy(cur, kept);
  }
  ekoc_nsop_clear(&tmp);
  ekoc_nsop_clear(&tmp2);
  return ok;
}

int ekoc_nsop_target(const ekoc_plan *p, size_t t, const ekoc_nsop *parts, ekoc_nsop *cur) {
  return ekoc_nsop_target_resume(p, t, parts, 0, 0, NULL, cur);
}

int ekoc_nsop_targets(const ekoc_plan *p, size_t t0, size_t nt, const unsigned char *active, const ekoc_nsop *parts,
                      size_t count, ekoc_nsop *tops) {
  size_t t, next;
  int have = 0, ok = 1; /* have: steps in `shared`, the first ones of the target composed last */
  ekoc_nsop shared;
  ekoc_nsop_init(&shared, count);
  for (t = 0; ok && t < nt; t = next) {
    int keep = 0, done = 0;
    for (next = t + 1; next < nt && !active[next]; ++next) continue;
    if (!active[t]) continue;
    tops[t].count = count;
    if (next < nt) keep = ekoc_plan_common_steps(p, t0 + t, t0 + next);
    if (have > 0) { /* shared: the steps t has in common with the previous active target */
      done = have;
      ok = nsop_copy(&shared, &tops[t]);
    }
    if (keep < done) keep = 0; /* a shorter common start than this one's is not kept */
    if (ok) ok = ekoc_nsop_target_resume(p, t0 + t, parts, done, keep, &shared, &tops[t]);
    have = keep;
  }
  ekoc_nsop_clear(&shared);
  return ok;
}

int ekoc_nsop_interleave(const ekoc_nsop *even, const ekoc_nsop *odd, ekoc_nsop *out) {
  size_t count = even->count + odd->count, i;
  int a, b;
  ekoc_nsop_clear(out);
  out->count = count;
  memcpy(out->k, even->k, sizeof out->k);
  memcpy(out->lim, even->lim, sizeof out->lim);
  memcpy(out->corner, even->corner, sizeof out->corner);
  for (a = 0; a < EKOC_NB; ++a)
    for (b = 0; b < EKOC_NB; ++b) {
      ekoc_complex *v;
      if (!even->v[a][b] && !odd->v[a][b]) continue;
      if (!(v = new_array(out, a, b))) return 0;
      out->k[a][b] = 0.0;
      for (i = 0; i < count; ++i) { /* a block that is constant in one of them has that constant at its nodes */
        const ekoc_nsop *from = i % 2 == 0 ? even : odd;
        size_t at = i / 2;
        v[i] = from->v[a][b] ? from->v[a][b][at] : c_real(from->k[a][b]);
        out->size[a][b][i] = size_at(from, a, b, at);
      }
    }
  return 1;
}
