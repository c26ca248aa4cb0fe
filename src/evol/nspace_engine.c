/* nspace_engine.c: the N-space backend (nspace_engine.h).
 *
 * For every band of the grid (quad/band_plan.h) and both path offsets
 * (singlet-like first, then non-singlet-like): the path's nodes; the
 * harmonic sums, towers and family values of every part the targets need
 * there (towers shared by parts with the same anomalous dimensions); the
 * parts' N-space matrices and the targets' operators (evol/nspace_compose.h);
 * then the band's entries of every block whose paths run through singlet
 * elements (offset 1: the singlet poles at N = 1 lie inside) or through
 * non-singlet ones only (offset 0: no factor grows like x^-1, and the path
 * crosses the real axis below 1, which keeps the integrand small against
 * the entries). A band whose entries miss the tolerance is recomputed with
 * twice the nodes. Last, each block gets its large-N limit back as
 * lim delta_kj and eko's x = 1 row, and its entries are checked against the
 * tolerance. */
#include "evol/nspace_engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "ad/nspace.h"
#include "evol/nspace_compose.h"
#include "evol/part_layout.h"
#include "evol/profile_stage.h"
#include "quad/band_invert.h"
#include "quad/band_plan.h"
#include "quad/driver.h"
#include "quad/interp.h"
#include "status.h"

/* What a target's block is: inverted on the non-singlet-like path, on the
 * singlet-like one, or an N-independent constant (its value is k delta_kj). */
enum { ROLE_NONE = 0, ROLE_NS = 1, ROLE_S = 2, ROLE_CONST = 3 };

typedef struct engine {
  const ekoc_plan *p;
  const ekoc_interp *ip;
  const ekoc_request *rq;
  ekoc_nspace_engine_options opt;
  ekoc_profile *prof;
  size_t t0, nt, nx, cap; /* targets; nodes the arrays hold */
  ekoc_band_plan *bp;
  unsigned char *need;        /* [job]: on some target's path, with values at the nodes */
  unsigned char *active;      /* [job]: evaluated in this pass (need, or what a refinement needs) */
  unsigned char *target_active; /* [target]: composed in this pass */
  unsigned char *tower_now;   /* [job][family]: towers computed in this pass */
  unsigned char *only;        /* [target][a][b]: the blocks a refinement recomputes */
  unsigned char *rows, *row_over, *fun_over; /* [nx], [nx], [function] */
  int *owner;                 /* [job][family]: the (job, family) whose towers it shares */
  double *lim_e;              /* [job][element]: large-N limit of each element */
  unsigned char *singular;    /* [job][element]: singular at N = 1 (inverted on the singlet-like path only) */
  unsigned char *constant;    /* [job][element]: independent of N (its value is lim_e) */
  unsigned char *regular_fam; /* [job][family]: the family has elements regular at N = 1 */
  int takes_sums;             /* some family builds its towers from the harmonic sums */
  ekoc_nsop *parts, *tops;    /* [job], [target] */
  unsigned char (*role)[EKOC_NB][EKOC_NB];
  double (*delta)[EKOC_NB][EKOC_NB];  /* added back as delta_kj */
  double (*corner)[EKOC_NB][EKOC_NB]; /* the (x = 1, x = 1) entry */
  double **val, **err;                /* [target][a][b]: nx * nx outputs of present blocks */
  /* the current path */
  ekoc_complex *n, *w;
  double *n_re, *n_im, *sums, *scratch, tail;
  ekoc_complex **tower, **values; /* [job][family] */
  /* the functions inverted on it */
  ekoc_complex *f;
  double *f_size;
  const ekoc_complex **src;
  double *src_lim;
  size_t *out_start, *out_fun, *out_id, n_out; /* out_id: the output's block, (t NB + a) NB + b */
  double **out_val, **out_err;
} engine;

#define JF(j, f) (2 * (j) + (f))

/* Whether two families get the same towers (quad/nspace_cache.c keys them alike). */
static int same_towers(const ekoc_nspace_cfg *a, const ekoc_nspace_cfg *b) {
  int i;
  if (a->kind != b->kind || a->family != b->family || a->order != b->order || a->nf != b->nf ||
      a->polarized != b->polarized || a->time_like != b->time_like)
    return 0;
  if (a->kind == EKOC_KIND_MATCHING && a->ome_log != b->ome_log) return 0;
  if (a->kind == EKOC_KIND_EVOLUTION && a->order >= 4) {
    for (i = 0; i < 7; ++i)
      if (a->n3lo_ad_variation[i] != b->n3lo_ad_variation[i]) return 0;
    if (a->use_fhmruvv != b->use_fhmruvv) return 0;
  }
  return 1;
}

static void engine_free(engine *g) {
  size_t i, nj = g->p ? g->p->n_jobs : 0;
  if (g->parts)
    for (i = 0; i < nj; ++i) ekoc_nsop_clear(&g->parts[i]);
  if (g->tops)
    for (i = 0; i < g->nt; ++i) ekoc_nsop_clear(&g->tops[i]);
  if (g->tower)
    for (i = 0; i < 2 * nj; ++i) free(g->tower[i]), free(g->values[i]);
  if (g->val)
    for (i = 0; i < g->nt * EKOC_NB * EKOC_NB; ++i) free(g->val[i]), free(g->err[i]);
  free(g->parts), free(g->tops), free(g->tower), free(g->values), free(g->val), free(g->err);
  free(g->need), free(g->active), free(g->target_active), free(g->tower_now), free(g->only), free(g->rows);
  free(g->row_over), free(g->fun_over), free(g->out_id), free(g->owner), free(g->lim_e), free(g->singular), free(g->constant), free(g->regular_fam);
  free(g->role);
  free(g->delta), free(g->corner);
  free(g->n), free(g->w), free(g->n_re), free(g->n_im), free(g->sums), free(g->scratch);
  free(g->f), free(g->f_size), free(g->src), free(g->src_lim), free(g->out_start), free(g->out_fun), free(g->out_val),
      free(g->out_err);
  ekoc_band_plan_free(g->bp);
}

/* The parts the targets need, their elements' large-N limits and the tower sharing. */
static int engine_parts(engine *g) {
  const ekoc_plan *p = g->p;
  size_t t, j, i;
  int s, rc = EKOC_OK;
  for (t = g->t0; t < g->t0 + g->nt; ++t)
    for (s = 0; s < p->n_steps[t]; ++s) g->need[p->steps[t][s].job] = 1;
  for (j = 0; j < p->n_jobs; ++j) {
    const ekoc_plan_job *job = &p->jobs[j];
    ekoc_element_map map[EKOC_JOB_MAX_ELEMENTS];
    int n = ekoc_part_elements(job, map), e, f;
    if (!g->need[j] || job->unity) continue;
    if (job->is_matching && job->family[1].matching_method == EKOC_MATCHING_BACKWARD_EXACT)
      return ekoc_error(EKOC_ERR_UNSUPPORTED,
                        "request.inversion_method=exact with request.backend=nspace: the path of target %zu runs "
                        "down through the threshold at mu2=%g, and the exact inverse of the matching matrix has "
                        "poles at large |N| (where its determinant vanishes) that the band paths reach; use "
                        "inversion_method=expanded or the batch backend",
                        g->t0, job->mu2_from);
    for (f = 0; f < 2; ++f) {
      rc = ekoc_nspace_cfg_check(&job->family[f]);
      if (rc != EKOC_OK) return rc;
      g->owner[JF(j, f)] = JF(j, f);
      for (i = 0; i < j; ++i)
        if (g->need[i] && !p->jobs[i].unity && same_towers(&p->jobs[i].family[f], &job->family[f])) {
          g->owner[JF(j, f)] = g->owner[JF(i, f)];
          break;
        }
      if (ekoc_nspace_takes_sums(&job->family[f])) g->takes_sums = 1;
    }
    for (e = 0; e < n; ++e) { /* a matching is 1 + O(a_s) on its diagonal; evolution decays at large N */
      double c;
      double *lim = &g->lim_e[j * EKOC_JOB_MAX_ELEMENTS + (size_t)e];
      if (ekoc_part_element_constant(&job->family[map[e].family], map[e].element, &c, &rc)) {
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

static int classify_elements(engine *g);

static int engine_alloc(engine *g) {
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
  g->owner = calloc(2 * nj, sizeof *g->owner);
  g->lim_e = calloc(nj * EKOC_JOB_MAX_ELEMENTS, sizeof *g->lim_e);
  g->singular = calloc(nj * EKOC_JOB_MAX_ELEMENTS, 1);
  g->constant = calloc(nj * EKOC_JOB_MAX_ELEMENTS, 1);
  g->regular_fam = calloc(2 * nj, 1);
  g->parts = calloc(nj, sizeof *g->parts);
  g->tops = calloc(g->nt, sizeof *g->tops);
  g->tower = calloc(2 * nj, sizeof *g->tower);
  g->values = calloc(2 * nj, sizeof *g->values);
  g->role = calloc(g->nt, sizeof *g->role);
  g->delta = calloc(g->nt, sizeof *g->delta);
  g->corner = calloc(g->nt, sizeof *g->corner);
  g->val = calloc(g->nt * EKOC_NB * EKOC_NB, sizeof *g->val);
  g->err = calloc(g->nt * EKOC_NB * EKOC_NB, sizeof *g->err);
  g->n = malloc(cap * sizeof *g->n);
  g->w = malloc(cap * sizeof *g->w);
  g->n_re = malloc(cap * sizeof *g->n_re);
  g->n_im = malloc(cap * sizeof *g->n_im);
  g->sums = malloc(cap * EKOC_NSPACE_SUMS_LEN * sizeof *g->sums);
  g->scratch = malloc(EKOC_NSPACE_TOWER_SCRATCH(cap) * sizeof *g->scratch);
  if (!g->need || !g->active || !g->target_active || !g->tower_now || !g->only || !g->rows || !g->row_over ||
      !g->owner || !g->lim_e || !g->singular || !g->constant || !g->regular_fam || !g->parts ||
      !g->tops || !g->tower || !g->values || !g->role ||
      !g->delta || !g->corner || !g->val || !g->err || !g->n || !g->w || !g->n_re || !g->n_im || !g->sums ||
      !g->scratch)
    return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory");
  for (j = 0; j < nj; ++j) ekoc_nsop_init(&g->parts[j], 0);
  for (j = 0; j < g->nt; ++j) ekoc_nsop_init(&g->tops[j], 0);
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
  return classify_elements(g);
}

/* The values of every needed part's families at the count points in
 * g->n_re, g->n_im (all families, or only those with elements regular at
 * N = 1), from towers shared between parts with the same ones. Values that
 * are not finite are left for the caller to find in what it uses. */
static int eval_parts(engine *g, size_t count, int regular_only) {
  const ekoc_plan *p = g->p;
  size_t j;
  int f, rc;
  if (g->takes_sums) {
    rc = ekoc_nspace_sums(count, g->n_re, g->n_im, g->sums);
    if (rc != EKOC_OK) return rc;
  }
  memset(g->tower_now, 0, 2 * p->n_jobs);
  for (j = 0; j < p->n_jobs; ++j) /* the towers the active families read */
    for (f = 0; f < 2 && g->active[j] && !p->jobs[j].unity; ++f)
      if (!regular_only || g->regular_fam[JF(j, f)]) g->tower_now[g->owner[JF(j, f)]] = 1;
  for (j = 0; j < p->n_jobs; ++j)
    for (f = 0; f < 2; ++f)
      if (g->tower_now[JF(j, f)]) {
        const ekoc_nspace_cfg *cfg = &p->jobs[j].family[f];
        rc = ekoc_nspace_towers_from_sums(cfg, count, g->n_re, g->n_im, ekoc_nspace_takes_sums(cfg) ? g->sums : NULL,
                                          g->scratch, g->tower[JF(j, f)]);
        if (rc != EKOC_OK) return rc;
      }
  for (j = 0; j < p->n_jobs; ++j) {
    if (!g->active[j] || p->jobs[j].unity) continue;
    for (f = 0; f < 2; ++f) {
      const ekoc_nspace_cfg *cfg = &p->jobs[j].family[f];
      int own = g->owner[JF(j, f)], len = ekoc_nspace_tower_len(cfg), size = ekoc_nspace_family_size(cfg);
      if (regular_only && !g->regular_fam[JF(j, f)]) continue;
      if (ekoc_nspace_from_towers(cfg, count, g->tower[own], (size_t)len, g->values[JF(j, f)], (size_t)size) != count)
        return ekoc_error(EKOC_ERR_NUMERICAL, "N-space backend: the backward-exact matching matrix at mu2=%g is "
                                              "singular on the path", p->jobs[j].mu2_from);
    }
  }
  return EKOC_OK;
}

/* The nodes of band bd's path with this offset and m intervals and every
 * needed part's values there (eval_parts: on the non-singlet-like path the
 * families with elements regular at N = 1 only). */
static int path_values(engine *g, const ekoc_band *bd, int singlet_path, int m) {
  size_t count = (size_t)m + 1, i;
  ekoc_band_nodes(bd, singlet_path ? 1.0 : 0.0, m, g->n, g->w, &g->tail);
  for (i = 0; i < count; ++i) {
    g->n_re[i] = g->n[i].re;
    g->n_im[i] = g->n[i].im;
  }
  return eval_parts(g, count, !singlet_path);
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
static int classify_elements(engine *g) {
  const ekoc_plan *p = g->p;
  size_t j, q;
  int rc;
  for (q = 0; q < CIRCLE_POINTS; ++q) {
    double phi = 2.0 * EKOC_PI * ((double)q + 0.5) / CIRCLE_POINTS;
    g->n_re[q] = 1.0 + CIRCLE_RADIUS * cos(phi);
    g->n_im[q] = CIRCLE_RADIUS * sin(phi);
  }
  memcpy(g->active, g->need, p->n_jobs);
  rc = eval_parts(g, CIRCLE_POINTS, 0);
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

/* The active parts' matrices from the values of path_values (regular_only:
 * without their elements singular at N = 1) and the active targets'
 * operators into tops[0..nt-1]. */
static int path_compose(engine *g, size_t count, int regular_only, ekoc_nsop *tops) {
  const ekoc_plan *p = g->p;
  size_t j, t;
  for (j = 0; j < p->n_jobs; ++j) {
    const ekoc_complex *vals[2] = {NULL, NULL};
    if (!g->active[j]) continue;
    if (!p->jobs[j].unity) {
      vals[0] = g->values[JF(j, 0)];
      vals[1] = g->values[JF(j, 1)];
    }
    g->parts[j].count = count;
    if (!ekoc_nsop_part(&p->jobs[j], 0, vals, &g->lim_e[j * EKOC_JOB_MAX_ELEMENTS],
                        &g->constant[j * EKOC_JOB_MAX_ELEMENTS],
                        regular_only && !p->jobs[j].unity ? &g->singular[j * EKOC_JOB_MAX_ELEMENTS] : NULL,
                        &g->parts[j]))
      return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory");
  }
  for (t = 0; t < g->nt; ++t) {
    if (!g->target_active[t]) continue;
    tops[t].count = count;
    if (!ekoc_nsop_target(p, g->t0 + t, g->parts, &tops[t]))
      return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory");
  }
  return EKOC_OK;
}

/* Which blocks of each target are inverted on which path, from the full
 * operators (g->tops) and the ones without the elements singular at N = 1,
 * both at the first singlet-like path's nodes: a block that the elements
 * regular at N = 1 alone give (equal at every node) on the
 * non-singlet-like path, every other one (some product through a singular
 * element: (Sigma, g) and what the matchings mix into them) whole on the
 * singlet-like path; their constants; the output arrays. */
static int engine_roles(engine *g, size_t count) {
  ekoc_nsop *ns = calloc(g->nt, sizeof *ns);
  size_t t, nn = g->nx * g->nx;
  int a, b, rc = EKOC_OK;
  if (!ns) return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory");
  for (t = 0; t < g->nt; ++t) ekoc_nsop_init(&ns[t], count);
  rc = path_compose(g, count, 1, ns);
  for (t = 0; rc == EKOC_OK && t < g->nt; ++t)
    for (a = 0; rc == EKOC_OK && a < EKOC_NB; ++a)
      for (b = 0; rc == EKOC_OK && b < EKOC_NB; ++b) {
        const ekoc_nsop *full = &g->tops[t], *part = &ns[t];
        int in_full = full->v[a][b] || full->k[a][b] != 0.0, in_ns = part->v[a][b] || part->k[a][b] != 0.0;
        size_t at = (t * EKOC_NB + (size_t)a) * EKOC_NB + (size_t)b;
        if (!in_full) continue;
        g->corner[t][a][b] = full->corner[a][b];
        g->delta[t][a][b] = full->v[a][b] ? full->lim[a][b] : full->k[a][b];
        if (!full->v[a][b])
          g->role[t][a][b] = ROLE_CONST;
        else if (in_ns && part->v[a][b] && !memcmp(part->v[a][b], full->v[a][b], count * sizeof(ekoc_complex)))
          g->role[t][a][b] = ROLE_NS;
        else
          g->role[t][a][b] = ROLE_S;
        g->val[at] = calloc(nn, sizeof(double));
        g->err[at] = calloc(nn, sizeof(double));
        if (rc == EKOC_OK && (!g->val[at] || !g->err[at]))
          rc = ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory for the operators");
      }
  for (t = 0; t < g->nt; ++t) ekoc_nsop_clear(&ns[t]);
  free(ns);
  if (rc == EKOC_OK) { /* room for the functions of one path: at most every block with values */
    size_t n_fun = 0, i;
    for (i = 0; i < g->nt * EKOC_NB * EKOC_NB; ++i) n_fun += g->val[i] != NULL;
    g->f = malloc((n_fun ? n_fun : 1) * g->cap * sizeof *g->f);
    g->f_size = malloc((n_fun ? n_fun : 1) * g->cap * sizeof *g->f_size);
    g->src = malloc((n_fun ? n_fun : 1) * sizeof *g->src);
    g->src_lim = malloc((n_fun ? n_fun : 1) * sizeof *g->src_lim);
    g->out_start = malloc((n_fun + 1) * sizeof *g->out_start);
    g->out_fun = malloc((n_fun ? n_fun : 1) * sizeof *g->out_fun);
    g->out_val = malloc((n_fun ? n_fun : 1) * sizeof *g->out_val);
    g->out_err = malloc((n_fun ? n_fun : 1) * sizeof *g->out_err);
    g->out_id = malloc((n_fun ? n_fun : 1) * sizeof *g->out_id);
    g->fun_over = calloc(n_fun ? n_fun : 1, 1);
    if (!g->f || !g->f_size || !g->out_id || !g->fun_over || !g->src || !g->src_lim || !g->out_start || !g->out_fun || !g->out_val || !g->out_err)
      rc = ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory");
  }
  return rc;
}

/* The functions of one path (blocks of role or role2, -1: none; with
 * `only`, the blocks g->only marks), w_i (F(N_i) - lim), one per distinct
 * block (equal values and limit at every node: one inversion, several
 * outputs), their outputs grouped per function, *n_fun of them.
 * Errors: EKOC_ERR_NUMERICAL (a value that is not finite), EKOC_ERR_NO_MEMORY. */
static int path_functions(engine *g, int role, int role2, int only, size_t count, size_t *n_fun_out) {
  size_t t, e, n_fun = 0, n_out = 0, i, *next, *order;
  int a, b;
  for (t = 0; t < g->nt; ++t)
    for (a = 0; a < EKOC_NB; ++a)
      for (b = 0; b < EKOC_NB; ++b) {
        const ekoc_complex *v = g->tops[t].v[a][b];
        const double *size = g->tops[t].size[a][b];
        double lim = g->tops[t].lim[a][b];
        size_t at = (t * EKOC_NB + (size_t)a) * EKOC_NB + (size_t)b;
        if (g->role[t][a][b] != role && g->role[t][a][b] != role2) continue;
        if (only && !g->only[at]) continue;
        for (e = 0; e < n_fun; ++e)
          if (g->src_lim[e] == lim && !memcmp(g->src[e], v, count * sizeof *v)) break;
        if (e == n_fun) {
          ekoc_complex *f = g->f + n_fun * count;
          for (i = 0; i < count; ++i)
            if (!isfinite(v[i].re) || !isfinite(v[i].im))
              return ekoc_error(EKOC_ERR_NUMERICAL, "N-space backend: block (%d,%d) of target %zu is not finite at "
                                                    "N=(%g,%g)", a, b, g->t0 + t, g->n[i].re, g->n[i].im);
          for (i = 0; i < count; ++i) f[i] = c_mul(g->w[i], c_add_real(v[i], -lim));
          for (i = 0; i < count; ++i) g->f_size[n_fun * count + i] = 0.0;
          g->src[n_fun] = v;
          g->src_lim[n_fun++] = lim;
        }
        for (i = 0; i < count; ++i) /* the largest of the blocks sharing the function */
          g->f_size[e * count + i] = fmax(g->f_size[e * count + i], c_abs(g->w[i]) * (size[i] + fabs(lim)));
        g->out_fun[n_out] = e;
        g->out_id[n_out++] = at;
      }
  /* the outputs grouped by function (counting sort): out_start[e] .. out_start[e+1] */
  next = malloc((n_fun + 1) * sizeof *next);
  order = malloc((n_out ? n_out : 1) * sizeof *order);
  if (!next || !order) {
    free(next), free(order);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory");
  }
  for (e = 0; e <= n_fun; ++e) g->out_start[e] = 0;
  for (i = 0; i < n_out; ++i) g->out_start[g->out_fun[i] + 1]++;
  for (e = 0; e < n_fun; ++e) g->out_start[e + 1] += g->out_start[e];
  for (e = 0; e < n_fun; ++e) next[e] = g->out_start[e];
  for (i = 0; i < n_out; ++i) order[next[g->out_fun[i]]++] = g->out_id[i];
  for (i = 0; i < n_out; ++i) {
    g->out_id[i] = order[i];
    g->out_val[i] = g->val[order[i]];
    g->out_err[i] = g->err[order[i]];
  }
  free(next), free(order);
  g->n_out = n_out;
  *n_fun_out = n_fun;
  return EKOC_OK;
}

/* Whether band bd inverts every block on the singlet-like path: its tau are
 * small enough that the path's e^tau against the non-singlet blocks costs
 * little (at most e^EKOC_BAND_ONE_PATH_TAU of rounding), and the band's
 * N-space values, transforms and products are then taken once. */
static int one_path(const ekoc_band *bd) { return bd->tau_hi <= EKOC_BAND_ONE_PATH_TAU; }

/* After a pass whose entries missed the tolerance somewhere: the blocks of
 * the functions that did (g->only), the targets they belong to and the
 * parts on those targets' paths (active), the rows to recompute (g->rows). */
static void refine_only(engine *g, size_t n_fun) {
  const ekoc_plan *p = g->p;
  size_t e, o, t;
  int s;
  memset(g->only, 0, g->nt * EKOC_NB * EKOC_NB);
  memset(g->target_active, 0, g->nt);
  memset(g->active, 0, p->n_jobs);
  for (e = 0; e < n_fun; ++e)
    for (o = g->out_start[e]; g->fun_over[e] && o < g->out_start[e + 1]; ++o) {
      g->only[g->out_id[o]] = 1;
      g->target_active[g->out_id[o] / (EKOC_NB * EKOC_NB)] = 1;
    }
  for (t = 0; t < g->nt; ++t)
    for (s = 0; g->target_active[t] && s < p->n_steps[g->t0 + t]; ++s) g->active[p->steps[g->t0 + t][s].job] = 1;
  memcpy(g->rows, g->row_over, g->nx);
}

/* Band b on one path: its entries, then those of the functions and rows
 * that missed the tolerance again with twice the nodes, while some do (up to
 * EKOC_NSPACE_NODES_MAX intervals); the others keep the first rule's. */
static int band_path(engine *g, int b, int singlet_path, int *roles_done) {
  const ekoc_band *bd = &g->bp->band[b];
  int m = g->opt.first_nodes, rc, first = 1;
  uint64_t ts = ekoc_profile_now_ns(g->prof);
  memcpy(g->active, g->need, g->p->n_jobs);
  memset(g->target_active, 1, g->nt);
  for (;;) {
    ekoc_band_invert_args args;
    size_t count = (size_t)m + 1, n_fun = 0, over = 0;
    rc = path_values(g, bd, singlet_path, m);
    if (rc == EKOC_OK) rc = path_compose(g, count, !singlet_path, g->tops);
    if (rc == EKOC_OK && !*roles_done) {
      rc = engine_roles(g, count);
      *roles_done = 1;
    }
    if (rc != EKOC_OK) return rc;
    rc = path_functions(g, singlet_path ? ROLE_S : ROLE_NS, singlet_path && one_path(bd) ? ROLE_NS : -1, !first, count,
                        &n_fun);
    if (rc != EKOC_OK) return rc;
    if (n_fun == 0 || bd->n_entries == 0) return EKOC_OK;
    memset(&args, 0, sizeof args);
    args.ip = g->ip;
    args.band = bd;
    args.m = m;
    args.n = g->n;
    args.tail = g->tail;
    args.n_functions = n_fun;
    args.f = g->f;
    args.f_size = g->f_size;
    args.out_start = g->out_start;
    args.val = g->out_val;
    args.err = g->out_err;
    args.epsabs = g->rq->epsabs;
    args.epsrel = g->rq->epsrel;
    args.n_threads = g->rq->n_threads;
    args.rows = first ? NULL : g->rows;
    args.row_over = g->row_over;
    args.fun_over = g->fun_over;
    memset(g->row_over, 0, g->nx);
    memset(g->fun_over, 0, n_fun);
    rc = ekoc_band_invert(&args, &over);
    if (rc == EKOC_OK && (over == 0 || m >= EKOC_NSPACE_NODES_MAX)) {
      char name[EKOC_PROFILE_NAME_LEN];
      snprintf(name, sizeof name, "band %d/%d offset %d: %d nodes, %zu over", b + 1, g->bp->n_bands, singlet_path,
               m + 1, over);
      ekoc_profile_stage(g->prof, name, ts);
    }
    if (rc != EKOC_OK || over == 0 || m >= EKOC_NSPACE_NODES_MAX) return rc;
    refine_only(g, n_fun);
    first = 0;
    m *= 2;
  }
}

/* The targets' operators from the outputs: constants back, eko's x = 1 row,
 * the entries that miss the tolerance flagged. */
static int engine_finish(engine *g, ekoc_blockop *ops, ekoc_blockop *taints, size_t *n_failed) {
  size_t nx = g->nx, t, k;
  int a, b;
  for (t = 0; t < g->nt; ++t)
    for (a = 0; a < EKOC_NB; ++a)
      for (b = 0; b < EKOC_NB; ++b) {
        size_t at = (t * EKOC_NB + (size_t)a) * EKOC_NB + (size_t)b, failed = 0;
        double *v = g->val[at], *er = g->err[at], *flags = NULL;
        if (!v) continue;
        for (k = 0; k + 1 < nx; ++k) v[k * nx + k] += g->delta[t][a][b];
        for (k = 0; k < nx; ++k) v[(nx - 1) * nx + k] = er[(nx - 1) * nx + k] = 0.0;
        v[nx * nx - 1] = g->corner[t][a][b];
        for (k = 0; k < nx * nx; ++k)
          if (er[k] > ekoc_quad_tolerance(g->rq->epsabs, g->rq->epsrel, v[k]) || !isfinite(er[k])) {
            if (!flags) {
              flags = ekoc_blockop_block(&taints[t], a, b);
              if (!flags) return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory marking entries");
            }
            taints[t].err[a][b][k] = 1.0;
            ++failed;
          }
        if (flags) taints[t].exact[a][b] = 0;
        *n_failed += failed;
        if (!ekoc_blockop_adopt(&ops[t], a, b, v, er))
          return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory");
        g->val[at] = g->err[at] = NULL;
      }
  return EKOC_OK;
}

void ekoc_nspace_engine_options_default(ekoc_nspace_engine_options *o) {
  o->magnification = EKOC_BAND_MAGNIFICATION;
  o->ratio = EKOC_BAND_RATIO;
  o->first_nodes = EKOC_NSPACE_NODES_FIRST;
}

int ekoc_nspace_engine_run(const ekoc_plan *p, const ekoc_interp *ip, const ekoc_request *rq, size_t t0, size_t n,
                           const ekoc_nspace_engine_options *opt, ekoc_profile *prof, ekoc_blockop *ops,
                           ekoc_blockop *taints, size_t *n_failed) {
  engine g;
  ekoc_quad_progress progress;
  uint64_t ts = ekoc_profile_now_ns(prof);
  int rc, b, path, roles_done = 0;
  memset(&g, 0, sizeof g);
  g.p = p;
  g.ip = ip;
  g.rq = rq;
  g.prof = prof;
  if (opt)
    g.opt = *opt;
  else
    ekoc_nspace_engine_options_default(&g.opt);
  g.t0 = t0;
  g.nt = n;
  g.nx = ip->n;
  if (g.opt.first_nodes < 2 || g.opt.first_nodes % 2 || g.opt.first_nodes > EKOC_NSPACE_NODES_MAX)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "N-space backend: first_nodes=%d is not even in 2..%d",
                      g.opt.first_nodes, EKOC_NSPACE_NODES_MAX);
  rc = ekoc_band_plan_new(ip, g.opt.magnification, g.opt.ratio, &g.bp);
  if (rc == EKOC_OK) rc = engine_alloc(&g);
  ekoc_quad_progress_init(&progress, rq->progress, rq->progress_data, rc == EKOC_OK ? 2 * (uint64_t)g.bp->n_bands : 1);
  for (b = 0; rc == EKOC_OK && b < g.bp->n_bands; ++b)
    /* singlet-like first: it fixes the roles */
    for (path = 1; rc == EKOC_OK && path >= (one_path(&g.bp->band[b]) ? 1 : 0); --path) {
      rc = band_path(&g, b, path, &roles_done);
      if (rc == EKOC_OK) rc = ekoc_quad_progress_row(&progress);
    }
  if (rc == EKOC_OK) rc = engine_finish(&g, ops, taints, n_failed);
  ekoc_quad_progress_destroy(&progress);
  engine_free(&g);
  if (rc == EKOC_OK) ekoc_profile_stage(prof, "N-space backend", ts);
  return rc;
}
