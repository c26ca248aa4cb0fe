/* nspace_state.c: a run of the N-space backend before the inversion
 * (nspace_state.h). */
#include "evol/nspace_state.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evol/blockop.h"
#include "evol/part_layout.h"
#include "evol/threads.h"
#include "quad/path_cache.h"
#include "status.h"

/* Whether two families get the same towers (quad/nspace_cache.c keys them alike). */
static int same_towers(const ekoc_nspace_cfg *a, const ekoc_nspace_cfg *b) {
  int i;
  if (a->kind != b->kind || a->family != b->family || a->order != b->order || a->nf != b->nf ||
      a->polarized != b->polarized || a->time_like != b->time_like || a->physics != b->physics)
    return 0;
  if (a->kind == EKOC_KIND_MATCHING && (a->ome_log != b->ome_log || a->mass_scheme != b->mass_scheme)) return 0;
  if (a->kind == EKOC_KIND_EVOLUTION && a->order >= 4) {
    for (i = 0; i < 7; ++i)
      if (a->n3lo_ad_variation[i] != b->n3lo_ad_variation[i]) return 0;
    if (a->use_fhmruvv != b->use_fhmruvv) return 0;
  }
  return 1;
}

void ekoc_nspace_state_free(ekoc_nspace_state *g) {
  size_t i, nj = g->p ? g->p->n_jobs : 0;
  if (g->parts)
    for (i = 0; i < nj; ++i) ekoc_nsop_clear(&g->parts[i]);
  if (g->tops)
    for (i = 0; i < g->nt; ++i) ekoc_nsop_clear(&g->tops[i]);
  if (g->tops_odd)
    for (i = 0; i < g->nt; ++i) ekoc_nsop_clear(&g->tops_odd[i]);
  if (g->tower)
    for (i = 0; i < 2 * nj; ++i) free(g->tower[i]), free(g->values[i]);
  if (g->val)
    for (i = 0; i < g->nt * EKOC_NB * EKOC_NB; ++i) free(g->val[i]), free(g->err[i]);
  if (g->corr)
    for (i = 0; i < g->nt * EKOC_NB * EKOC_NB; ++i) free(g->corr[i]);
  free(g->parts), free(g->tops), free(g->tops_odd), free(g->tower), free(g->values), free(g->val), free(g->err), free(g->corr);
  free(g->need), free(g->active), free(g->target_active), free(g->tower_now), free(g->only), free(g->rows);
  free(g->probe_rows), free(g->rest_rows);
  free(g->row_over), free(g->fun_over), free(g->fun_tolerance), free(g->out_id), free(g->owner), free(g->lim_e);
  free(g->singular), free(g->block_rows[0]), free(g->block_rows[1]), free(g->rows_in), free(g->rows_out);
  free(g->constant), free(g->regular_fam);
  free(g->role), free(g->row_lo);
  free(g->delta), free(g->corner);
  free(g->n), free(g->w), free(g->n_re), free(g->n_im), free(g->sums), free(g->scratch);
  free(g->f), free(g->f_size), free(g->src), free(g->src_lim), free(g->out_start), free(g->out_fun), free(g->out_val),
      free(g->out_err), free(g->out_corr);
  ekoc_band_plan_free(g->bp);
}

/* The parts the targets need, their elements' large-N limits and the tower sharing. */
static int engine_parts(ekoc_nspace_state *g) {
  const ekoc_plan *p = g->p;
  size_t t, j, i;
  int s, rc = EKOC_OK;
  ekoc_part_probe probe[2]; /* the part's two families at the probe points (ekoc_part_element_constant) */
  for (t = g->t0; t < g->t0 + g->nt; ++t)
    for (s = 0; s < p->n_steps[t]; ++s) g->need[p->steps[t][s].job] = 1;
  for (j = 0; j < p->n_jobs; ++j) {
    const ekoc_plan_job *job = &p->jobs[j];
    ekoc_element_map map[EKOC_JOB_MAX_ELEMENTS];
    int n = ekoc_part_elements(job, map), e, f;
    if (!g->need[j] || job->unity) continue;
    for (f = 0; f < 2; ++f) {
      rc = ekoc_nspace_cfg_check(&job->family[f]);
      if (rc != EKOC_OK) return rc;
      g->owner[JF(j, f)] = JF(j, f);
      for (i = 0; i < j; ++i)
        if (g->need[i] && !p->jobs[i].unity && same_towers(&p->jobs[i].family[f], &job->family[f])) {
          g->owner[JF(j, f)] = g->owner[JF(i, f)];
          break;
        }
    }
    memset(probe, 0, sizeof probe);
    for (e = 0; e < n; ++e) { /* a matching is 1 + O(a_s) on its diagonal; evolution decays at large N */
      double c;
      double *lim = &g->lim_e[j * EKOC_JOB_MAX_ELEMENTS + (size_t)e];
      if (ekoc_part_element_constant(&job->family[map[e].family], &probe[map[e].family], map[e].element, &c, &rc)) {
        *lim = c;
        g->constant[j * EKOC_JOB_MAX_ELEMENTS + (size_t)e] = 1;
      } else if (rc != EKOC_OK)
        return rc;
      else
        *lim = job->is_matching && map[e].diagonal ? 1.0 : 0.0;
    }
  }
  return EKOC_OK;
}

/* The values of the active families from their towers (the exponentials of
 * the evolution kernels: ~20 % of a warm solve): each (job, family) writes
 * its own values only, so they run on the request's threads, pair by pair;
 * the same bits as one thread. The singular matching of the lowest such pair
 * is reported, as the serial loop did. */
static int values_from_towers(ekoc_nspace_state *g, size_t count, int regular_only) {
  const ekoc_plan *p = g->p;
  long pair, n_pairs = 2 * (long)p->n_jobs, singular = n_pairs;
  int nt = ekoc_threads_effective(g->rq->n_threads);
  (void)nt; /* used by the OpenMP pragma only (unused where OpenMP is off: the fuzz build) */
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt) reduction(min : singular) if (nt > 1)
  for (pair = 0; pair < n_pairs; ++pair) {
    size_t j = (size_t)pair / 2;
    int f = (int)(pair % 2);
    const ekoc_nspace_cfg *cfg = &p->jobs[j].family[f];
    int own, len, size;
    if (!g->active[j] || p->jobs[j].unity || (regular_only && !g->regular_fam[JF(j, f)])) continue;
    own = g->owner[JF(j, f)], len = ekoc_nspace_tower_len(cfg), size = ekoc_nspace_family_size(cfg);
    if (ekoc_nspace_from_towers(cfg, count, g->tower[own], (size_t)len, g->values[JF(j, f)], (size_t)size) != count &&
        pair < singular)
      singular = pair;
  }
  if (singular < n_pairs)
    return ekoc_error(EKOC_ERR_NUMERICAL, "N-space backend: the backward-exact matching matrix at mu2=%g is "
                                          "singular on the path", p->jobs[singular / 2].mu2_from);
  return EKOC_OK;
}

/* The values of every needed part's families at the count points in
 * g->n_re, g->n_im (all families, or only those with elements regular at
 * N = 1), from towers shared between parts with the same ones; with `keep`,
 * towers kept in g->paths from an earlier computation at the same points are
 * taken from there, and the ones computed are kept. Values that are not
 * finite are left for the caller to find in what it uses. */
static int eval_parts(ekoc_nspace_state *g, size_t count, int regular_only, int keep) {
  const ekoc_plan *p = g->p;
  size_t j;
  int f, rc, sums_done = 0;
  struct ekoc_path_cache *pc = keep ? g->paths : NULL;
  memset(g->tower_now, 0, 2 * p->n_jobs);
  for (j = 0; j < p->n_jobs; ++j) /* the towers the active families read */
    for (f = 0; f < 2 && g->active[j] && !p->jobs[j].unity; ++f)
      if (!regular_only || g->regular_fam[JF(j, f)]) g->tower_now[g->owner[JF(j, f)]] = 1;
  for (j = 0; j < p->n_jobs; ++j)
    for (f = 0; f < 2; ++f)
      if (g->tower_now[JF(j, f)]) {
        const ekoc_nspace_cfg *cfg = &p->jobs[j].family[f];
        const ekoc_complex *kept = ekoc_path_cache_tower(pc, cfg, count, g->n_re, g->n_im);
        int sums = ekoc_nspace_takes_sums(cfg);
        if (kept) {
          memcpy(g->tower[JF(j, f)], kept, count * (size_t)ekoc_nspace_tower_len(cfg) * sizeof *kept);
          continue;
        }
        if (sums && !sums_done) { /* the harmonic sums once for every family that takes them */
          rc = ekoc_nspace_sums(count, g->n_re, g->n_im, g->sums);
          if (rc != EKOC_OK) return rc;
          sums_done = 1;
        }
        rc = ekoc_nspace_towers_from_sums(cfg, count, g->n_re, g->n_im, sums ? g->sums : NULL, g->scratch,
                                          g->tower[JF(j, f)]);
        if (rc != EKOC_OK) return rc;
        ekoc_path_cache_put_tower(pc, cfg, count, g->n_re, g->n_im, g->tower[JF(j, f)]);
      }
  return values_from_towers(g, count, regular_only);
}

/* Which elements of the needed parts are singular at N = 1: their Laurent
 * coefficients of (N - 1)^-p, p = 1..3, from CIRCLE_POINTS values on the
 * circle |N - 1| = CIRCLE_RADIUS, against the element's largest value there.
 * The nearest other singularity, N = 0, lies 4 radii away, so the positive
 * powers alias into them below 4^-44; an analytic element leaves rounding
 * (~1e-16), a pole O(1). Such elements need a path that encloses N = 1. */
#define CIRCLE_POINTS 48
#define CIRCLE_RADIUS 0.25
#define SINGULAR_TOLERANCE 1e-10
static int classify_elements(ekoc_nspace_state *g) {
  const ekoc_plan *p = g->p;
  size_t j, q;
  int rc;
  for (q = 0; q < CIRCLE_POINTS; ++q) {
    double phi = 2.0 * EKOC_PI * ((double)q + 0.5) / CIRCLE_POINTS;
    g->n_re[q] = 1.0 + CIRCLE_RADIUS * cos(phi);
    g->n_im[q] = CIRCLE_RADIUS * sin(phi);
  }
  memcpy(g->active, g->need, p->n_jobs);
  rc = eval_parts(g, CIRCLE_POINTS, 0, 1);
  for (j = 0; rc == EKOC_OK && j < p->n_jobs; ++j) {
    ekoc_element_map map[EKOC_JOB_MAX_ELEMENTS];
    int n = ekoc_part_elements(&p->jobs[j], map), e, k;
    if (!g->need[j] || p->jobs[j].unity) continue;
    for (e = 0; e < n; ++e) {
      int f = map[e].family, size = ekoc_nspace_family_size(&p->jobs[j].family[f]);
      const ekoc_complex *v = g->values[JF(j, f)] + map[e].element;
      double big = 0.0, coef = 0.0;
      for (q = 0; q < CIRCLE_POINTS; ++q) big = fmax(big, c_abs(v[q * (size_t)size]));
      for (k = 1; k <= 3; ++k) {
        ekoc_complex acc = c_real(0.0);
        for (q = 0; q < CIRCLE_POINTS; ++q) {
          double phi = 2.0 * EKOC_PI * k * ((double)q + 0.5) / CIRCLE_POINTS;
          acc = c_add(acc, c_mul(v[q * (size_t)size], c_make(cos(phi), sin(phi))));
        }
        coef = fmax(coef, c_abs(acc) / CIRCLE_POINTS);
      }
      g->singular[j * EKOC_JOB_MAX_ELEMENTS + (size_t)e] = !(coef <= SINGULAR_TOLERANCE * big);
      if (!g->singular[j * EKOC_JOB_MAX_ELEMENTS + (size_t)e]) g->regular_fam[JF(j, f)] = 1;
    }
  }
  return rc;
}

/* Evolution elements whose value tends to a constant at large N (the
 * photon's under QED: gamma_ph,ph is a constant): their limit is that value
 * (equal at N = 1e4 and 4e4 to 1e-9 relative), which the paths then leave out
 * and lim delta_kj gives back exactly (any constant would be exact; this one
 * leaves a remainder that decays along the path). The others keep 0. */
static int large_n_limits(ekoc_nspace_state *g) {
  const ekoc_plan *p = g->p;
  size_t j;
  int rc;
  g->n_re[0] = 1e4, g->n_re[1] = 4e4;
  g->n_im[0] = g->n_im[1] = 0.0;
  memcpy(g->active, g->need, p->n_jobs);
  rc = eval_parts(g, 2, 0, 1);
  for (j = 0; rc == EKOC_OK && j < p->n_jobs; ++j) {
    ekoc_element_map map[EKOC_JOB_MAX_ELEMENTS];
    int n = ekoc_part_elements(&p->jobs[j], map), e;
    if (!g->need[j] || p->jobs[j].unity || p->jobs[j].is_matching) continue;
    for (e = 0; e < n; ++e) {
      int f = map[e].family, size = ekoc_nspace_family_size(&p->jobs[j].family[f]);
      const ekoc_complex *v = g->values[JF(j, f)] + map[e].element;
      double a = v[0].re, b = v[(size_t)size].re;
      if (g->constant[j * EKOC_JOB_MAX_ELEMENTS + (size_t)e] || !isfinite(a) || !isfinite(b)) continue;
      if (fabs(b) > 1e-6 && fabs(a - b) <= 1e-9 * fabs(b)) g->lim_e[j * EKOC_JOB_MAX_ELEMENTS + (size_t)e] = b;
    }
  }
  return rc;
}

int ekoc_nspace_state_alloc(ekoc_nspace_state *g) {
  size_t nj = g->p->n_jobs, cap = EKOC_NSPACE_NODES_MAX + 1, j;
  int f;
  g->cap = cap;
  g->need = calloc(nj, 1);
  g->active = calloc(nj, 1);
  g->target_active = calloc(g->nt, 1);
  g->tower_now = calloc(2 * nj, 1);
  g->only = calloc(g->nt * EKOC_NB * EKOC_NB, 1);
  g->rows = calloc(g->nx, 1);
  g->row_over = calloc(g->nx, 1);
  g->probe_rows = calloc(g->nx, 1);
  g->rest_rows = calloc(g->nx, 1);
  g->owner = calloc(2 * nj, sizeof *g->owner);
  g->lim_e = calloc(nj * EKOC_JOB_MAX_ELEMENTS, sizeof *g->lim_e);
  g->singular = calloc(nj * EKOC_JOB_MAX_ELEMENTS, 1);
  g->constant = calloc(nj * EKOC_JOB_MAX_ELEMENTS, 1);
  g->regular_fam = calloc(2 * nj, 1);
  g->parts = calloc(nj, sizeof *g->parts);
  g->tops = calloc(g->nt, sizeof *g->tops);
  g->tops_odd = calloc(g->nt, sizeof *g->tops_odd);
  g->tower = calloc(2 * nj, sizeof *g->tower);
  g->values = calloc(2 * nj, sizeof *g->values);
  g->role = calloc(g->nt, sizeof *g->role);
  g->delta = calloc(g->nt, sizeof *g->delta);
  g->corner = calloc(g->nt, sizeof *g->corner);
  g->val = calloc(g->nt * EKOC_NB * EKOC_NB, sizeof *g->val);
  g->err = calloc(g->nt * EKOC_NB * EKOC_NB, sizeof *g->err);
  g->corr = calloc(g->nt * EKOC_NB * EKOC_NB, sizeof *g->corr);
  g->n = malloc(cap * sizeof *g->n);
  g->w = malloc(cap * sizeof *g->w);
  g->n_re = malloc(cap * sizeof *g->n_re);
  g->n_im = malloc(cap * sizeof *g->n_im);
  g->sums = malloc(cap * EKOC_NSPACE_SUMS_LEN * sizeof *g->sums);
  g->scratch = malloc(EKOC_NSPACE_TOWER_SCRATCH(cap) * sizeof *g->scratch);
  g->row_lo = malloc((g->nx > 0 ? 2 * g->nx : 1) * sizeof *g->row_lo);
  if (g->row_lo) { /* the row ranges: the bands' columns and the diagonal (the constants' delta_kj) */
    int b;
    g->row_base = g->row_lo + g->nx;
    for (j = 0; j < g->nx; ++j) {
      g->row_lo[j] = j;
      for (b = 0; b < g->bp->n_bands; ++b) {
        const ekoc_band *bd = &g->bp->band[b];
        if (bd->j_hi[j] > bd->j_lo[j] && (size_t)bd->j_lo[j] < g->row_lo[j]) g->row_lo[j] = (size_t)bd->j_lo[j];
      }
    }
    g->row_len = ekoc_blockop_row_offsets(g->nx, g->row_lo, g->row_base);
  }
  if (!g->row_lo || !g->need || !g->active || !g->target_active || !g->tower_now || !g->only || !g->rows || !g->row_over ||
      !g->probe_rows || !g->rest_rows ||
      !g->owner || !g->lim_e || !g->singular || !g->constant || !g->regular_fam || !g->parts ||
      !g->tops || !g->tops_odd || !g->tower || !g->values || !g->role ||
      !g->delta || !g->corner || !g->val || !g->err || !g->corr || !g->n || !g->w || !g->n_re || !g->n_im || !g->sums ||
      !g->scratch)
    return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory");
  for (j = 0; j < nj; ++j) ekoc_nsop_init(&g->parts[j], 0);
  for (j = 0; j < g->nt; ++j) ekoc_nsop_init(&g->tops[j], 0), ekoc_nsop_init(&g->tops_odd[j], 0);
  {
    int rc = engine_parts(g);
    if (rc != EKOC_OK) return rc;
  }
  for (j = 0; j < nj; ++j)
    for (f = 0; f < 2; ++f) {
      const ekoc_nspace_cfg *cfg = &g->p->jobs[j].family[f];
      if (!g->need[j] || g->p->jobs[j].unity) continue;
      if (g->owner[JF(j, f)] == (int)JF(j, f)) {
        g->tower[JF(j, f)] = malloc(cap * (size_t)ekoc_nspace_tower_len(cfg) * sizeof(ekoc_complex));
        if (!g->tower[JF(j, f)]) return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory");
      }
      g->values[JF(j, f)] = malloc(cap * (size_t)ekoc_nspace_family_size(cfg) * sizeof(ekoc_complex));
      if (!g->values[JF(j, f)]) return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory");
    }
  {
    int rc = classify_elements(g);
    return rc == EKOC_OK ? large_n_limits(g) : rc;
  }
}

/* The nodes of band bd's path with this offset and m intervals and every
 * needed part's values there (eval_parts: on the non-singlet-like path the
 * families with elements regular at N = 1 only). */
int ekoc_nspace_path_values(ekoc_nspace_state *g, const ekoc_band *bd, int singlet_path, int m) {
  size_t count = (size_t)m + 1, i;
  ekoc_band_nodes(bd, singlet_path ? 1.0 : 0.0, m, g->n, g->w, &g->tail);
  for (i = 0; i < count; ++i) {
    g->n_re[i] = g->n[i].re;
    g->n_im[i] = g->n[i].im;
  }
  return eval_parts(g, count, !singlet_path, 1);
}

int ekoc_nspace_path_refine(ekoc_nspace_state *g, const ekoc_band *bd, int singlet_path, int m) {
  size_t half = (size_t)m / 2, i, t;
  int rc;
  ekoc_band_nodes(bd, singlet_path ? 1.0 : 0.0, m, g->n, g->w, &g->tail);
  for (i = 0; i < half; ++i) {
    g->n_re[i] = g->n[2 * i + 1].re;
    g->n_im[i] = g->n[2 * i + 1].im;
  }
  rc = eval_parts(g, half, !singlet_path, 1);
  if (rc == EKOC_OK) rc = ekoc_nspace_path_compose(g, half, !singlet_path, g->tops_odd);
  for (t = 0; rc == EKOC_OK && t < g->nt; ++t) {
    ekoc_nsop merged;
    if (!g->target_active[t]) continue;
    ekoc_nsop_init(&merged, 0);
    if (!ekoc_nsop_interleave(&g->tops[t], &g->tops_odd[t], &merged)) {
      ekoc_nsop_clear(&merged);
      return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory");
    }
    ekoc_nsop_clear(&g->tops[t]);
    g->tops[t] = merged;
    ekoc_nsop_clear(&g->tops_odd[t]);
  }
  return rc;
}

int ekoc_nspace_node_values(ekoc_nspace_state *g, const ekoc_complex *n, size_t count) {
  size_t i;
  for (i = 0; i < count; ++i) {
    g->n[i] = n[i];
    g->n_re[i] = n[i].re;
    g->n_im[i] = n[i].im;
  }
  memcpy(g->active, g->need, g->p->n_jobs);
  memset(g->target_active, 1, g->nt);
  return eval_parts(g, count, 0, 1); /* the circles of poles that do not move with a_s recur */
}

/* The active parts' matrices from the values of path_values (regular_only:
 * without their elements singular at N = 1) and the active targets'
 * operators into tops[0..nt-1]. */
int ekoc_nspace_path_compose(ekoc_nspace_state *g, size_t count, int regular_only, ekoc_nsop *tops) {
  const ekoc_plan *p = g->p;
  size_t j;
  for (j = 0; j < p->n_jobs; ++j) {
    const ekoc_complex *vals[2] = {NULL, NULL};
    if (!g->active[j]) continue;
    if (!p->jobs[j].unity) {
      vals[0] = g->values[JF(j, 0)];
      vals[1] = g->values[JF(j, 1)];
    }
    g->parts[j].count = count;
    if (!ekoc_nsop_part(&p->jobs[j], p->unified, vals, &g->lim_e[j * EKOC_JOB_MAX_ELEMENTS],
                        &g->constant[j * EKOC_JOB_MAX_ELEMENTS],
                        regular_only && !p->jobs[j].unity ? &g->singular[j * EKOC_JOB_MAX_ELEMENTS] : NULL,
                        &g->parts[j]))
      return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory");
  }
  if (!ekoc_nsop_targets(p, g->t0, g->nt, g->target_active, g->parts, count, tops))
    return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory");
  return EKOC_OK;
}

