/* nspace_poles.c: the band paths placed off the poles of the N-space
 * backend's kernels, and the residues where eko's paths and the band paths
 * enclose a pole differently (nspace_poles.h; the poles themselves:
 * nspace_pole_find.c). */
#include "evol/nspace_poles.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "quad/band_transforms.h"
#include "quad/path_cache.h"
#include "quad/path_radius.h"
#include "quad/talbot.h"
#include "status.h"

/* Nodes of the residue circles; the rule on every second node gives the error. */
#define CIRCLE_NODES 64
/* Laurent orders kept: the poles are at most of this order. */
#define MAX_ORDER 6
/* A Laurent coefficient counts when above this share of the block's size
 * on the circle (an analytic block leaves the circle rule's aliasing,
 * ~(1/3)^64 of it). */
#define SIGNIFICANT 1e-14
int ekoc_pole_inside(double re, double im, double offset, double radius, double height) {
  double theta;
  if (im == 0.0) return re < offset + radius;
  theta = im / (height * radius);
  if (theta >= EKOC_PI) return 0;
  return re < offset + radius * ekoc_talbot_theta_cot_(theta);
}

void ekoc_poles_free(ekoc_pole_set *s) {
  size_t i;
  for (i = 0; s->laurent && i < s->n; ++i) free(s->laurent[i].block), free(s->laurent[i].c), free(s->laurent[i].c_abs), free(s->laurent[i].top);
  for (i = 0; s->taylor && i < s->n; ++i) free(s->taylor[i]), free(s->taylor_at[i]);
  free(s->taylor), free(s->taylor_at), free(s->taylor_ready);
  free(s->laurent), free(s->block_has);
  free(s->pole);
  memset(s, 0, sizeof *s);
}

/* The smallest distance of the crossing 1 + r from a real pole (the singlet
 * kernels' and the matchings'), in units of r. */
static double crossing_clearance(const ekoc_pole_set *s, double r) {
  double best = INFINITY;
  size_t i;
  for (i = 0; i < s->n; ++i)
    if (s->pole[i].im == 0.0 && s->pole[i].eko_offset != 0) best = fmin(best, fabs(1.0 + r - s->pole[i].re) / r);
  return best;
}

/* The distance of pole q (and its conjugate) from the offset-0 path of
 * radius r and height h, in units of r: the crossing for a real pole, else
 * the nearest of 128 points along the path, refined between its neighbours. */
static double path_clearance(const ekoc_pole *q, double r, double h) {
  enum { SAMPLES = 128 };
  double best = INFINITY, at = 0.0, step = EKOC_PI / SAMPLES, lo, hi;
  int i;
  if (q->im == 0.0) return fabs(r - q->re) / r;
  for (i = 1; i < SAMPLES; ++i) {
    double th = step * i, d = hypot(r * ekoc_talbot_theta_cot_(th) - q->re, h * r * th - q->im);
    if (d < best) best = d, at = th;
  }
  lo = fmax(at - step, 1e-9), hi = fmin(at + step, EKOC_PI - 1e-9);
  for (i = 0; i < 40; ++i) { /* golden-section search around the nearest sample */
    double a = hi - 0.618 * (hi - lo), b = lo + 0.618 * (hi - lo);
    double da = hypot(r * ekoc_talbot_theta_cot_(a) - q->re, h * r * a - q->im);
    double db = hypot(r * ekoc_talbot_theta_cot_(b) - q->re, h * r * b - q->im);
    if (da < db)
      hi = b, best = fmin(best, da);
    else
      lo = a, best = fmin(best, db);
  }
  return best / r;
}

/* The smallest path_clearance of the non-singlet denominators' poles. */
static double ns_clearance(const ekoc_pole_set *s, double r, double h) {
  double best = INFINITY;
  size_t i;
  for (i = 0; i < s->n; ++i)
    if (s->pole[i].eko_offset == 0) best = fmin(best, path_clearance(&s->pole[i], r, h));
  return best;
}

/* The offset-0 path of band b off the non-singlet denominators' poles (the
 * singlet kernels' do not reach its blocks): from the band's own radius,
 * lowered by up to 20 % or raised by up to 10 % in steps of 2 and 1 %, to the
 * radius with the most clearance (taller where lowered, as ekoc_band_height_for). */
static void place_ns_path(const ekoc_pole_set *s, ekoc_band *bd) {
  double r0 = bd->radius_ns, best_r = r0, best_h = bd->height_ns, best = ns_clearance(s, r0, best_h);
  int step;
  for (step = 1; best < EKOC_PATH_POLE_GUARD && step <= 10; ++step) {
    double down = r0 * (1.0 - 0.02 * step), up = r0 * (1.0 + 0.01 * step), c;
    if ((c = ns_clearance(s, down, ekoc_band_height_for(down))) > best)
      best = c, best_r = down, best_h = ekoc_band_height_for(down);
    if (best < EKOC_PATH_POLE_GUARD && (c = ns_clearance(s, up, bd->height_ns)) > best)
      best = c, best_r = up, best_h = bd->height_ns;
  }
  bd->radius_ns = best_r;
  bd->height_ns = best_h;
}

void ekoc_poles_place_bands(const ekoc_pole_set *s, ekoc_band_plan *bp) {
  int b, step, ns_poles = 0;
  size_t i;
  if (s->n == 0) return;
  for (i = 0; i < s->n; ++i) ns_poles |= s->pole[i].eko_offset == 0;
  for (b = 0; b < bp->n_bands; ++b) {
    double r0 = bp->band[b].radius, best_r, best;
    /* left of the first real pole whose residue the band's entries would magnify too much */
    for (i = 0; i < s->n; ++i) {
      double p = s->pole[i].re;
      if (s->pole[i].im != 0.0 || s->pole[i].eko_offset == 0 ||
          (p - 1.0) * bp->band[b].tau_hi <= log(EKOC_POLES_MAX_GROWTH))
        continue;
      if (p < 1.0 + r0 * (1.0 + EKOC_PATH_POLE_GUARD)) {
        /* 0.6 of the way from 1 to p, but no closer to 1 than where the band's slowest entries
         * (tau_lo) still decay by e along the path, as long as that stays left of the guard */
        double keep = fmin((p - 1.0) / (1.0 + EKOC_PATH_POLE_GUARD), EKOC_POLES_MIN_DECAY / bp->band[b].tau_lo);
        r0 = fmax(fmax((p - 1.0) * EKOC_POLES_CROSSING_SHARE, keep), EKOC_POLES_MIN_RADIUS);
      }
    }
    best_r = r0;
    best = crossing_clearance(s, r0);
    for (step = 1; best < EKOC_PATH_POLE_GUARD && step <= 10; ++step) { /* then off the others' */
      double down = r0 * (1.0 - 0.02 * step), up = r0 * (1.0 + 0.01 * step), c;
      if ((c = crossing_clearance(s, down)) > best) best = c, best_r = down;
      if (best < EKOC_PATH_POLE_GUARD && (c = crossing_clearance(s, up)) > best) best = c, best_r = up;
    }
    if (best_r < bp->band[b].radius) bp->band[b].height = ekoc_band_height_for(best_r); /* lowered: taller */
    bp->band[b].radius = best_r;
    if (ns_poles) /* its own path off those poles, from the band's radius */
      place_ns_path(s, &bp->band[b]);
    else /* one path for both offsets, as moved for the singlet kernels' poles */
      bp->band[b].radius_ns = best_r, bp->band[b].height_ns = bp->band[b].height;
  }
}

/* Whether target t's path has pole q: the job it belongs to (a
 * backward-exact matching, an ordered-truncated segment), or a segment of
 * its nf whose singlet kernel has such poles. */
static int target_has(const ekoc_nspace_state *g, size_t t, const ekoc_pole *q) {
  const ekoc_plan *p = g->p;
  int32_t nf = q->nf;
  int s, f;
  for (s = 0; s < p->n_steps[g->t0 + t]; ++s) {
    const ekoc_plan_job *job = &p->jobs[p->steps[g->t0 + t][s].job];
    if (q->job >= 0) {
      if ((size_t)q->job == (size_t)p->steps[g->t0 + t][s].job) return 1;
      continue;
    }
    if (job->unity || job->is_matching || job->nf != nf) continue;
    for (f = 0; f < 2; ++f)
      if (ekoc_path_pole_orders(&job->family[f]) >= 2) return 1;
  }
  return 0;
}

/* The circle around pole q: nodes p + z_m, z_m = rho e^{i phi_m}, and the
 * powers z^l, z^-l. */
typedef struct circle {
  ekoc_complex n[CIRCLE_NODES], zpow[MAX_ORDER + 1][CIRCLE_NODES], zinv[MAX_ORDER + 1][CIRCLE_NODES];
} circle;

/* The nodes the values are computed at: around a real pole the upper half
 * circle, the lower being its conjugate (the values are real-analytic). */
static size_t circle_count(const ekoc_pole *q) { return q->im == 0.0 ? CIRCLE_NODES / 2 + 1 : CIRCLE_NODES; }

static void circle_nodes(const ekoc_pole *q, circle *c) {
  size_t m;
  int l;
  for (m = 0; m < CIRCLE_NODES; ++m) {
    double phi = 2.0 * EKOC_PI * (double)m / CIRCLE_NODES;
    ekoc_complex z = c_make(q->rho * cos(phi), q->rho * sin(phi));
    c->n[m] = c_make(q->re + z.re, q->im + z.im);
    c->zpow[0][m] = c->zinv[0][m] = c_real(1.0);
    for (l = 1; l <= MAX_ORDER; ++l) {
      c->zpow[l][m] = c_mul(c->zpow[l - 1][m], z);
      c->zinv[l][m] = c_div(c->zinv[l - 1][m], z);
    }
  }
}

/* The Laurent coefficients c_l (of (N - p)^-(l+1)), on all nodes and on the
 * even ones, of every block of the targets with pole q, from the composed
 * operators at the circle's nodes (g->tops); the blocks where one counts
 * are kept in q's lists. */
static int laurent(ekoc_pole_set *s, size_t iq, const ekoc_nspace_state *g, const circle *cc,
                   const unsigned char *has) {
  ekoc_pole_laurent *q = &s->laurent[iq];
  size_t t, m, nb = g->nt * EKOC_NB * EKOC_NB, count = circle_count(&s->pole[iq]);
  int a, b, l;
  q->block = malloc(nb * sizeof *q->block);
  q->c = malloc(nb * 2 * MAX_ORDER * sizeof *q->c);
  q->c_abs = malloc(nb * MAX_ORDER * sizeof *q->c_abs);
  q->top = malloc(nb * sizeof *q->top);
  if (!q->block || !q->c || !q->c_abs || !q->top)
    return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory for the poles");
  for (t = 0; t < g->nt; ++t)
    for (a = 0; has[t] && a < EKOC_NB; ++a)
      for (b = 0; b < EKOC_NB; ++b) {
        const ekoc_complex *v = g->tops[t].v[a][b];
        ekoc_complex *c = q->c + q->n_blocks * 2 * MAX_ORDER;
        double big = 0.0;
        int top = 0;
        if (!v) continue;
        for (m = 0; m < count; ++m) big = fmax(big, c_abs(v[m]));
        for (l = 0; l < MAX_ORDER; ++l) {
          ekoc_complex sum = c_real(0.0), half = c_real(0.0);
          for (m = 0; m < CIRCLE_NODES; ++m) {
            /* a real pole's lower half circle: the conjugates of the upper half */
            ekoc_complex vm = m < count ? v[m] : c_conj(v[CIRCLE_NODES - m]);
            ekoc_complex term = c_mul(vm, cc->zpow[l + 1][m]);
            sum = c_add(sum, term);
            if (m % 2 == 0) half = c_add(half, term);
          }
          c[l] = c_scale(sum, 1.0 / CIRCLE_NODES);
          c[MAX_ORDER + l] = c_scale(half, 2.0 / CIRCLE_NODES);
          if (c_abs(c[l]) > SIGNIFICANT * big * c_abs(cc->zpow[l + 1][0])) top = l + 1;
        }
        if (top == 0) continue;
        for (l = 0; l < MAX_ORDER; ++l) q->c_abs[q->n_blocks * MAX_ORDER + (size_t)l] = c_abs(c[l]);
        q->top[q->n_blocks] = top;
        if (top > q->orders) q->orders = top;
        s->block_has[(t * EKOC_NB + (size_t)a) * EKOC_NB + (size_t)b] = 1;
        q->block[q->n_blocks++] = (t * EKOC_NB + (size_t)a) * EKOC_NB + (size_t)b;
      }
  return EKOC_OK;
}

/* Whether eko's path for row k encloses pole q: eko[1] for the
 * singlet-like blocks, eko[0] for the non-singlet-like ones. eko inverts
 * the part that has the pole on its own path: offset 1 for the singlet
 * kernels' U_k poles, offset 0 for a non-singlet denominator's zeros,
 * whichever block of the composed operator they reach; a matching's inverse
 * on the block's own (eko_offset -1). */
static void eko_encloses(const ekoc_nspace_state *g, const ekoc_pole *q, size_t k, int eko[2]) {
  double r_eko = ekoc_talbot_radius(g->ip->logx[k]);
  if (q->eko_offset >= 0) {
    eko[0] = eko[1] = ekoc_pole_inside(q->re, q->im, (double)q->eko_offset, r_eko, 1.0);
    return;
  }
  eko[1] = ekoc_pole_inside(q->re, q->im, 1.0, r_eko, 1.0);
  eko[0] = ekoc_pole_inside(q->re, q->im, 0.0, r_eko, 1.0);
}

/* Whether band bd's path on either offset encloses q otherwise than eko's
 * row path on either (eko_encloses). */
static int band_disagrees(const ekoc_pole *q, const ekoc_band *bd, const int eko[2]) {
  int o;
  for (o = 0; o < 2; ++o) {
    int in = ekoc_pole_inside(q->re, q->im, (double)o, ekoc_band_radius_at(bd, o), ekoc_band_height_at(bd, o));
    if (in != eko[0] || in != eko[1]) return 1;
  }
  return 0;
}

/* Whether some row's eko path and some band path holding entries of that
 * row enclose pole q differently (the condition under which correct_row
 * changes an entry): a pole inside (or outside) every path needs no
 * residue, and its block needs no tighter tolerance. */
static int pole_matters(const ekoc_nspace_state *g, const ekoc_pole *q) {
  const ekoc_band_plan *bp = g->bp;
  size_t k;
  int b, eko[2];
  for (k = 0; k < g->nx; ++k) {
    if (g->ip->logx[k] >= 0.0) continue; /* the x = 1 row is eko's corner */
    eko_encloses(g, q, k, eko);
    for (b = 0; b < bp->n_bands; ++b)
      if (bp->band[b].j_hi[k] > bp->band[b].j_lo[k] && band_disagrees(q, &bp->band[b], eko)) return 1;
  }
  return 0;
}

int ekoc_poles_prepare(ekoc_nspace_state *g, ekoc_pole_set *s) {
  circle cc;
  unsigned char *has;
  size_t i, t;
  int rc = EKOC_OK, any;
  if (s->n == 0) return EKOC_OK;
  has = malloc(g->nt);
  s->laurent = calloc(s->n, sizeof *s->laurent);
  s->block_has = calloc(g->nt * EKOC_NB * EKOC_NB, 1);
  if (!has || !s->laurent || !s->block_has) {
    free(has);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory for the poles");
  }
  for (i = 0; rc == EKOC_OK && i < s->n; ++i) {
    if (!pole_matters(g, &s->pole[i])) continue;
    for (t = 0, any = 0; t < g->nt; ++t) any |= has[t] = (unsigned char)target_has(g, t, &s->pole[i]);
    if (!any) continue;
    circle_nodes(&s->pole[i], &cc);
    rc = ekoc_nspace_node_values(g, cc.n, circle_count(&s->pole[i]));
    if (rc == EKOC_OK) {
      memcpy(g->target_active, has, g->nt);
      rc = ekoc_nspace_path_compose(g, circle_count(&s->pole[i]), 0, g->tops);
    }
    if (rc == EKOC_OK) rc = laurent(s, i, g, &cc, has);
  }
  free(has);
  for (i = 0, any = 0; rc == EKOC_OK && i < s->n; ++i) any |= s->laurent[i].n_blocks > 0;
  if (rc == EKOC_OK && !any) { /* no residue anywhere: no block needs the tighter tolerance */
    free(s->block_has);
    s->block_has = NULL;
  }
  return rc;
}

/* Scratch of the corrections: the transforms of a row at the circle's nodes
 * and their Taylor coefficients a_l at the pole, column-contiguous per order
 * (all nodes, the even ones, |a_l|) so that the entries' sums run as vector
 * loops over the columns. */
typedef struct taylor_work {
  double *t_re, *t_im;                 /* [column][node] */
  double *a_re, *a_im, *h_re, *h_im;   /* [order][column] */
  double *a_abs;                       /* [order][column] */
  ekoc_band_transform_scratch ts;
} taylor_work;

/* The row's transforms at the circle's nodes (x_k^-N included, eko's skip
 * and drop rules at x_k) for columns [j0, j1); around a real pole the lower
 * half of the circle is the conjugate of the upper (the transforms are real
 * for real N). */
static void row_transforms(const ekoc_nspace_state *g, const ekoc_pole *q, const circle *cc, taylor_work *w,
                           size_t k, size_t j0, size_t j1) {
  size_t half = CIRCLE_NODES / 2, count = circle_count(q), j, m;
  ekoc_band_transforms(g->ip, j0, j1, cc->n, count, g->ip->logx[k], g->ip->logx[k], &w->ts, w->t_re, w->t_im);
  if (count == CIRCLE_NODES) return;
  /* spread [column][0..half] to [column][0..CIRCLE_NODES) from the last column down */
  for (j = j1 - j0; j-- > 0;) {
    double *re = w->t_re + j * CIRCLE_NODES, *im = w->t_im + j * CIRCLE_NODES;
    const double *sr = w->t_re + j * count, *si = w->t_im + j * count;
    for (m = half + 1; m-- > 0;) re[m] = sr[m], im[m] = si[m];
    for (m = half + 1; m < CIRCLE_NODES; ++m) re[m] = re[CIRCLE_NODES - m], im[m] = -im[CIRCLE_NODES - m];
  }
}

/* The columns [*j0, *j1) of row k whose bands' paths (either offset) and
 * eko's (eko[offset]: whether it encloses q) disagree on enclosing pole q
 * (*j0 >= *j1: none). */
static void row_columns(const ekoc_nspace_state *g, const ekoc_pole *q, size_t k, int eko[2], size_t *j0,
                        size_t *j1) {
  const ekoc_band_plan *bp = g->bp;
  int b;
  *j0 = g->nx, *j1 = 0;
  eko_encloses(g, q, k, eko);
  for (b = 0; b < bp->n_bands; ++b) {
    const ekoc_band *bd = &bp->band[b];
    if (bd->j_hi[k] <= bd->j_lo[k] || !band_disagrees(q, bd, eko)) continue;
    if ((size_t)bd->j_lo[k] < *j0) *j0 = (size_t)bd->j_lo[k];
    if ((size_t)bd->j_hi[k] > *j1) *j1 = (size_t)bd->j_hi[k];
  }
}

/* The Taylor coefficients a_l of row k's transforms at pole q for columns
 * [j0, j1), l < lq->orders, from all the circle's nodes and from the even
 * ones (h_l), and |a_l|, into w; also into kept (5 per order and column:
 * a re, a im, h re, h im, |a|) when not NULL. */
static void taylor_coefficients(const ekoc_nspace_state *g, const ekoc_pole *q, const ekoc_pole_laurent *lq,
                                const circle *cc, taylor_work *w, size_t k, size_t j0, size_t j1, double *kept) {
  size_t nx = g->nx, j, m;
  int l;
  row_transforms(g, q, cc, w, k, j0, j1);
  for (j = j0; j < j1; ++j) {
    const double *re = w->t_re + (j - j0) * CIRCLE_NODES, *im = w->t_im + (j - j0) * CIRCLE_NODES;
    for (l = 0; l < lq->orders; ++l) {
      ekoc_complex sum = c_real(0.0), half = c_real(0.0);
      size_t at = (size_t)l * nx + j;
      for (m = 0; m < CIRCLE_NODES; ++m) {
        ekoc_complex term = c_mul(c_make(re[m], im[m]), cc->zinv[l][m]);
        sum = c_add(sum, term);
        if (m % 2 == 0) half = c_add(half, term);
      }
      w->a_re[at] = sum.re / CIRCLE_NODES, w->a_im[at] = sum.im / CIRCLE_NODES;
      w->h_re[at] = 2.0 * half.re / CIRCLE_NODES, w->h_im[at] = 2.0 * half.im / CIRCLE_NODES;
      w->a_abs[at] = hypot(w->a_re[at], w->a_im[at]);
      if (kept) {
        double *to = kept + 5 * ((size_t)l * (j1 - j0) + (j - j0));
        to[0] = w->a_re[at], to[1] = w->a_im[at], to[2] = w->h_re[at], to[3] = w->h_im[at], to[4] = w->a_abs[at];
      }
    }
  }
}

/* Row k's corrections for pole iq: where eko's path for the row and the
 * band path of an entry disagree on enclosing the pole, the residue of the
 * block times the row's transform comes off (the band path's alone) or is
 * added (eko's alone). */
static void correct_row(ekoc_nspace_state *g, const ekoc_pole_set *s, size_t iq, const circle *cc,
                        taylor_work *w, size_t k, int apply) {
  double *kept = s->taylor && s->taylor[iq] ? s->taylor[iq] + s->taylor_at[iq][k] : NULL;
  /* the tolerance pass (apply = 0) made them (it runs first, on the same rows), or the cache had them */
  int kept_ready = apply || (s->taylor_ready && s->taylor_ready[iq]);
  const ekoc_pole *q = &s->pole[iq];
  const ekoc_pole_laurent *lq = &s->laurent[iq];
  const ekoc_band_plan *bp = g->bp;
  const size_t nx = g->nx;
  double pair = q->im > 0.0 ? 2.0 : 1.0; /* a complex pole and its conjugate: 2 Re */
  int eko[2], b, l;
  size_t j0 = nx, j1 = 0, e, j;
  row_columns(g, q, k, eko, &j0, &j1);
  if (j0 >= j1) return;
  if (kept && kept_ready) /* the first pass's coefficients (the same bits) */
    for (l = 0; l < lq->orders; ++l)
      for (j = j0; j < j1; ++j) {
        size_t at = (size_t)l * nx + j, from = 5 * ((size_t)l * (j1 - j0) + (j - j0));
        w->a_re[at] = kept[from], w->a_im[at] = kept[from + 1], w->h_re[at] = kept[from + 2];
        w->h_im[at] = kept[from + 3], w->a_abs[at] = kept[from + 4];
      }
  else
    taylor_coefficients(g, q, lq, cc, w, k, j0, j1, kept);
  for (e = 0; e < lq->n_blocks; ++e) {
    size_t at = lq->block[e], t = at / (EKOC_NB * EKOC_NB);
    int ra = (int)(at / EKOC_NB % EKOC_NB), rb = (int)(at % EKOC_NB);
    const ekoc_complex *c = lq->c + e * 2 * MAX_ORDER;
    double *val = apply ? g->val[at] : NULL, *err = apply ? g->err[at] : NULL;
    float *corr = apply ? NULL : g->corr[at];
    int eko_block = eko[g->role[t][ra][rb] == ROLE_S];
    if ((apply ? !val : !corr) || g->role[t][ra][rb] == ROLE_CONST) continue;
    for (b = 0; b < bp->n_bands; ++b) {
      const ekoc_band *bd = &bp->band[b];
      /* the path the block's band entries were inverted on (evol/nspace_engine.c) */
      double offset = g->role[t][ra][rb] == ROLE_S || ekoc_nspace_one_path(bd) ? 1.0 : 0.0, sign;
      size_t lo = (size_t)bd->j_lo[k], hi = (size_t)bd->j_hi[k];
      if (hi <= lo ||
          ekoc_pole_inside(q->re, q->im, offset, ekoc_band_radius_at(bd, offset), ekoc_band_height_at(bd, offset)) ==
              eko_block)
        continue;
      sign = eko_block ? pair : -pair; /* enclosed by the band path only: its residue comes off */
      for (j = lo; j < hi; ++j) {
        double sum = 0.0, half = 0.0, size = 0.0;
        for (l = 0; l < lq->top[e]; ++l) { /* the block's own orders: the same sum in any chunk of targets */
          size_t al = (size_t)l * nx + j;
          const ekoc_complex cl = c[l], hl = c[MAX_ORDER + l];
          sum += w->a_re[al] * cl.re - w->a_im[al] * cl.im;
          half += w->h_re[al] * hl.re - w->h_im[al] * hl.im;
          size += w->a_abs[al] * lq->c_abs[e * MAX_ORDER + (size_t)l];
        }
        if (apply) {
          val[g->row_base[k] + j] += sign * sum;
          err[g->row_base[k] + j] += pair * (fabs(sum - half) + 16.0 * 2.220446049250313e-16 * size);
        } else {
          corr[g->row_base[k] + j] += (float)(sign * sum);
        }
      }
    }
  }
}

/* What the rows' Taylor coefficients at pole i depend on (quad/path_cache.h's blob key): the circle,
 * the orders and every row's columns (row_columns; the basis is the cache's binding). */
typedef struct taylor_key {
  char tag[8];
  double re, im, rho;
  int32_t orders, reserved;
} taylor_key;

/* Room for the rows' Taylor coefficients at every pole with residues
 * (ekoc_pole_set.taylor), laid out by row_columns, filled from the engine's
 * cache where it has them (taylor_ready); a pole whose room is missing
 * keeps none (the final pass recomputes them). *keys: each pole's cache key
 * (NULL where none), *key_len its length and *data_len the bytes kept under it, for
 * keep_taylor_done. */
static void keep_taylor(const ekoc_nspace_state *g, ekoc_pole_set *s, unsigned char ***keys, size_t **key_len,
                        size_t **data_len) {
  size_t i, k, j0, j1, kl = sizeof(taylor_key) + 2 * g->nx * sizeof(size_t);
  int eko[2];
  *keys = g->paths ? calloc(s->n, sizeof **keys) : NULL;
  *key_len = g->paths ? calloc(s->n, sizeof **key_len) : NULL;
  *data_len = g->paths ? calloc(s->n, sizeof **data_len) : NULL;
  s->taylor = calloc(s->n, sizeof *s->taylor);
  s->taylor_at = calloc(s->n, sizeof *s->taylor_at);
  s->taylor_ready = calloc(s->n, 1);
  if (!s->taylor || !s->taylor_at || !s->taylor_ready) {
    free(s->taylor), free(s->taylor_at), free(s->taylor_ready);
    s->taylor = NULL, s->taylor_at = NULL, s->taylor_ready = NULL;
    return;
  }
  for (i = 0; i < s->n; ++i) {
    size_t *at, total = 0, *cols = NULL, have = 0;
    unsigned char *key = *keys && *key_len ? calloc(1, kl) : NULL;
    const void *kept;
    if (!s->laurent[i].n_blocks || !(at = malloc(g->nx * sizeof *at))) {
      free(key);
      continue;
    }
    if (key) {
      taylor_key head;
      memset(&head, 0, sizeof head);
      memcpy(head.tag, "taylor1", 8);
      head.re = s->pole[i].re, head.im = s->pole[i].im, head.rho = s->pole[i].rho;
      head.orders = s->laurent[i].orders;
      memcpy(key, &head, sizeof head);
      cols = (size_t *)(void *)(key + sizeof head);
    }
    for (k = 0; k < g->nx; ++k) {
      at[k] = total;
      if (g->ip->logx[k] >= 0.0) continue; /* the x = 1 row: no correction */
      row_columns(g, &s->pole[i], k, eko, &j0, &j1);
      if (j0 < j1) total += 5 * (size_t)s->laurent[i].orders * (j1 - j0);
      if (cols && j0 < j1) cols[2 * k] = j0, cols[2 * k + 1] = j1;
    }
    s->taylor[i] = malloc(total ? total * sizeof(double) : 1);
    if (!s->taylor[i]) {
      free(at), free(key);
      continue;
    }
    s->taylor_at[i] = at;
    kept = key ? ekoc_path_cache_blob(g->paths, key, kl, &have) : NULL;
    if (kept && have == total * sizeof(double)) {
      memcpy(s->taylor[i], kept, have);
      s->taylor_ready[i] = 1;
      free(key);
    } else if (key && *data_len) {
      (*keys)[i] = key, (*key_len)[i] = kl, (*data_len)[i] = total * sizeof(double);
    } else {
      free(key);
    }
  }
}

/* After the tolerance pass: the coefficients it made kept in the engine's cache (when `put`: the pass
 * succeeded), under the keys keep_taylor made (data_len: their sizes), the keys freed. */
static void keep_taylor_done(const ekoc_nspace_state *g, const ekoc_pole_set *s, unsigned char **keys,
                             size_t *key_len, size_t *data_len, int put) {
  size_t i;
  for (i = 0; put && keys && key_len && data_len && i < s->n; ++i)
    if (keys[i]) ekoc_path_cache_put_blob(g->paths, keys[i], key_len[i], s->taylor[i], data_len[i]);
  for (i = 0; keys && i < s->n; ++i) free(keys[i]);
  free(keys), free(key_len), free(data_len);
}

int ekoc_poles_correct(ekoc_nspace_state *g, ekoc_pole_set *s, int apply) {
  int rc = EKOC_OK, nt = g->rq->n_threads > 0 ? g->rq->n_threads : omp_get_max_threads();
  size_t i, e, *key_len = NULL, *data_len = NULL;
  unsigned char **keys = NULL;
  circle *circles;
  if (s->n == 0) return EKOC_OK;
  for (i = 0; !apply && i < s->n; ++i) /* the residue arrays of the blocks that take some */
    for (e = 0; s->laurent && e < s->laurent[i].n_blocks; ++e) {
      size_t at = s->laurent[i].block[e];
      if (!g->val[at] || g->corr[at]) continue;
      g->corr[at] = calloc(g->row_len, sizeof(float));
      if (!g->corr[at]) return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory for the pole corrections");
    }
  circles = malloc(s->n * sizeof *circles);
  if (!circles) return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory for the pole corrections");
  for (i = 0; i < s->n; ++i)
    if (s->laurent[i].n_blocks) circle_nodes(&s->pole[i], &circles[i]);
  if (!apply && !s->taylor) keep_taylor(g, s, &keys, &key_len, &data_len);
  /* rows on separate threads (each row's entries are written by one thread only): the same bits for any
   * number. A row takes every pole in turn while its entries are in the core's cache, each entry's
   * corrections in the order of the poles as before: pole by pole over all rows, each of the ~10 poles of
   * a truncated fit-grid solve read and wrote its ~70 MB of entries again (memory-bound: 1023 -> 955 ms) */
#pragma omp parallel num_threads(nt) reduction(| : rc)
  {
    taylor_work w;
    size_t q;
    long k;
    memset(&w, 0, sizeof w);
    w.t_re = malloc(g->nx * CIRCLE_NODES * sizeof *w.t_re);
    w.t_im = malloc(g->nx * CIRCLE_NODES * sizeof *w.t_im);
    w.a_re = malloc(5 * g->nx * MAX_ORDER * sizeof *w.a_re);
    if (w.a_re) {
      w.a_im = w.a_re + g->nx * MAX_ORDER;
      w.h_re = w.a_im + g->nx * MAX_ORDER;
      w.h_im = w.h_re + g->nx * MAX_ORDER;
      w.a_abs = w.h_im + g->nx * MAX_ORDER;
    }
    if (!w.t_re || !w.t_im || !w.a_re || !ekoc_band_transform_scratch_alloc(&w.ts, g->nx, CIRCLE_NODES, g->ip->degree))
      rc = EKOC_ERR_NO_MEMORY;
#pragma omp for schedule(dynamic, 1)
    for (k = 0; k < (long)g->nx; ++k) /* the x = 1 row is eko's corner (engine_finish) */
      for (q = 0; q < s->n; ++q)
        if (rc == EKOC_OK && g->ip->logx[k] < 0.0 && s->laurent[q].n_blocks)
          correct_row(g, s, q, &circles[q], &w, (size_t)k, apply);
    free(w.t_re), free(w.t_im), free(w.a_re);
    ekoc_band_transform_scratch_free(&w.ts);
  }
  free(circles);
  keep_taylor_done(g, s, keys, key_len, data_len, rc == EKOC_OK);
  return rc == EKOC_OK ? EKOC_OK
                       : ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory for the pole corrections");
}
