/* nspace_poles.c: the poles of the truncated and perturbative singlet
 * solutions on the N-space backend (nspace_poles.h). */
#include "evol/nspace_poles.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "quad/band_transforms.h"
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
/* Points of the scan of the real axis per unit of ln(N - 1). */
#define SCAN_DENSITY 200.0
/* Newton steps for the complex poles. */
#define NEWTON_STEPS 60

int ekoc_pole_inside(double re, double im, double offset, double radius, double height) {
  double theta;
  if (im == 0.0) return re < offset + radius;
  theta = im / (height * radius);
  if (theta >= EKOC_PI) return 0;
  return re < offset + radius * ekoc_talbot_theta_cot_(theta);
}

void ekoc_poles_free(ekoc_pole_set *s) {
  size_t i;
  for (i = 0; s->laurent && i < s->n; ++i) free(s->laurent[i].block), free(s->laurent[i].c), free(s->laurent[i].c_abs);
  free(s->laurent), free(s->block_has);
  free(s->pole);
  memset(s, 0, sizeof *s);
}

static int push_pole(ekoc_pole_set *s, double re, double im, int32_t nf) {
  size_t i;
  for (i = 0; i < s->n; ++i) /* the same pole found twice (two starts, two segments) */
    if (s->pole[i].nf == nf && hypot(s->pole[i].re - re, s->pole[i].im - im) < 1e-7 * (1.0 + fabs(re)))
      return EKOC_OK;
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 16;
    ekoc_pole *q = realloc(s->pole, cap * sizeof *q);
    if (!q) return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory for the poles");
    s->pole = q;
    s->cap = cap;
  }
  s->pole[s->n].re = re;
  s->pole[s->n].im = im;
  s->pole[s->n].rho = 0.0;
  s->pole[s->n++].nf = nf;
  return EKOC_OK;
}

/* (r_+ - r_-)^2 = disc(gamma^(0)) / beta_0^2 of family lo (order 1) at the
 * count points (re, im) into out. */
static int gap2(const ekoc_nspace_cfg *lo, size_t count, const double *re, const double *im, double *scratch,
                ekoc_complex *tower, ekoc_complex *out) {
  size_t i;
  int rc = ekoc_path_discriminant(lo, count, re, im, scratch, tower, out);
  for (i = 0; rc == EKOC_OK && i < count; ++i) out[i] = c_scale(out[i], 1.0 / (lo->beta[0] * lo->beta[0]));
  return rc;
}

/* Scratch for gap2 at up to `cap` points. */
typedef struct gap_scratch {
  size_t cap;
  double *re, *im, *scratch;
  ekoc_complex *tower, *val;
} gap_scratch;

static int gap_scratch_alloc(gap_scratch *w, size_t cap) {
  w->cap = cap;
  w->re = malloc(cap * sizeof *w->re);
  w->im = malloc(cap * sizeof *w->im);
  w->scratch = malloc(EKOC_NSPACE_TOWER_SCRATCH(cap) * sizeof *w->scratch);
  w->tower = malloc(4 * cap * sizeof *w->tower);
  w->val = malloc(cap * sizeof *w->val);
  return w->re && w->im && w->scratch && w->tower && w->val;
}

static void gap_scratch_free(gap_scratch *w) {
  free(w->re), free(w->im), free(w->scratch), free(w->tower), free(w->val);
}

/* The real poles of family lo in (1, n_max]: sign changes of (r_+ - r_-)^2
 * - k^2 on a dense grid of ln(N - 1), then bisection. */
static int real_poles(const ekoc_nspace_cfg *lo, int kmax, double n_max, gap_scratch *w, ekoc_pole_set *s) {
  double u0 = log(1e-3), u1 = log(n_max - 1.0);
  size_t count = (size_t)((u1 - u0) * SCAN_DENSITY) + 2, i;
  int k, rc;
  if (count > w->cap) count = w->cap;
  for (i = 0; i < count; ++i) {
    w->re[i] = 1.0 + exp(u0 + (u1 - u0) * (double)i / (double)(count - 1));
    w->im[i] = 0.0;
  }
  rc = gap2(lo, count, w->re, w->im, w->scratch, w->tower, w->val);
  if (rc != EKOC_OK) return rc;
  {
    double *n = malloc(count * sizeof *n), *g = malloc(count * sizeof *g);
    if (!n || !g) {
      free(n), free(g);
      return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory for the poles");
    }
    for (i = 0; i < count; ++i) n[i] = w->re[i], g[i] = w->val[i].re;
    for (k = 1; rc == EKOC_OK && k < kmax; ++k)
      for (i = 0; rc == EKOC_OK && i + 1 < count; ++i) {
        double a = n[i], b = n[i + 1], fa = g[i] - k * k, it;
        if (fa * (g[i + 1] - k * k) > 0.0) continue;
        for (it = 0; it < 50 && rc == EKOC_OK; ++it) {
          double m = 0.5 * (a + b), zero = 0.0;
          ekoc_complex v;
          rc = gap2(lo, 1, &m, &zero, w->scratch, w->tower, &v);
          if ((v.re - k * k) * fa <= 0.0)
            b = m;
          else
            a = m, fa = v.re - k * k;
        }
        if (rc == EKOC_OK) rc = push_pole(s, 0.5 * (a + b), 0.0, lo->nf);
      }
    free(n), free(g);
  }
  return rc;
}

/* The complex poles of family lo near N = 0 (those whose paths' radii lie
 * where eko's or the band paths' do): Newton from a grid of starts in
 * -3 < Re N < 1.5, 0 < Im N < 1.4. */
static int complex_poles(const ekoc_nspace_cfg *lo, int kmax, gap_scratch *w, ekoc_pole_set *s) {
  enum { NRE = 16, NIM = 7, NS = NRE * NIM };
  ekoc_complex z[NS];
  unsigned char live[NS];
  const double h = 1e-6;
  int k, it, i, rc = EKOC_OK;
  if (w->cap < 3 * NS) return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: pole scratch too small");
  for (k = 1; rc == EKOC_OK && k < kmax; ++k) {
    for (i = 0; i < NS; ++i) z[i] = c_make(-3.0 + 0.3 * (i % NRE), 0.1 + 0.2 * (i / NRE));
    for (i = 0; i < NS; ++i) live[i] = 1;
    for (it = 0; rc == EKOC_OK && it < NEWTON_STEPS; ++it) { /* the starts still moving, side by side */
      int n = 0, act[NS];
      for (i = 0; i < NS; ++i)
        if (live[i]) {
          w->re[3 * n] = z[i].re, w->im[3 * n] = z[i].im;
          w->re[3 * n + 1] = z[i].re + h, w->im[3 * n + 1] = z[i].im;
          w->re[3 * n + 2] = z[i].re - h, w->im[3 * n + 2] = z[i].im;
          act[n++] = i;
        }
      if (n == 0) break;
      rc = gap2(lo, 3 * (size_t)n, w->re, w->im, w->scratch, w->tower, w->val);
      for (int q = 0; rc == EKOC_OK && q < n; ++q) {
        ekoc_complex f = c_add_real(w->val[3 * q], -(double)(k * k));
        ekoc_complex d = c_scale(c_sub(w->val[3 * q + 1], w->val[3 * q + 2]), 0.5 / h), step;
        i = act[q];
        if (!(c_abs(d) > 0.0) || !isfinite(f.re) || !isfinite(f.im)) {
          live[i] = 0;
          continue;
        }
        step = c_div(f, d);
        if (c_abs(step) > 0.5) step = c_scale(step, 0.5 / c_abs(step));
        z[i] = c_sub(z[i], step);
        if (z[i].im < 1e-3) z[i].im = 1e-3; /* stay in the upper half plane: the real poles come from the scan */
        /* converged, or gone far from where the poles that matter lie */
        if (c_abs(step) < 1e-14 * (1.0 + c_abs(z[i])) || c_abs(z[i]) > 20.0) live[i] = 0;
      }
    }
    if (rc != EKOC_OK) break;
    for (i = 0; i < NS; ++i) {
      w->re[i] = z[i].re, w->im[i] = z[i].im;
    }
    rc = gap2(lo, NS, w->re, w->im, w->scratch, w->tower, w->val);
    for (i = 0; rc == EKOC_OK && i < NS; ++i) {
      double miss = c_abs(c_add_real(w->val[i], -(double)(k * k)));
      if (miss < 1e-9 * k * k && z[i].im > 2e-3 && c_abs(z[i]) > 1e-2) rc = push_pole(s, z[i].re, z[i].im, lo->nf);
    }
  }
  return rc;
}

/* The circle radius of every pole: a third of the distance to the nearest
 * other singularity (poles, N = 1, 0 and the negative integers, a complex
 * pole's conjugate), at most 0.5 and 4 / tau_top so that the transforms,
 * ~e^{N tau}, stay within the rule on half the nodes. */
static void circle_radii(ekoc_pole_set *s, double tau_top) {
  size_t i, j;
  int m;
  for (i = 0; i < s->n; ++i) {
    ekoc_pole *p = &s->pole[i];
    double d = hypot(p->re - 1.0, p->im);
    for (m = 0; m <= 12; ++m) d = fmin(d, hypot(p->re + m, p->im));
    if (p->im > 0.0) d = fmin(d, 2.0 * p->im);
    for (j = 0; j < s->n; ++j) {
      if (j == i) continue;
      d = fmin(d, hypot(p->re - s->pole[j].re, p->im - s->pole[j].im));
      d = fmin(d, hypot(p->re - s->pole[j].re, p->im + s->pole[j].im));
    }
    p->rho = fmin(fmin(d / 3.0, 0.5), 4.0 / fmax(tau_top, 1.0));
  }
}

int ekoc_poles_of_family(const ekoc_nspace_cfg *cfg, double n_max, int with_complex, ekoc_pole_set *out) {
  ekoc_nspace_cfg lo = *cfg;
  int kmax = ekoc_path_pole_orders(cfg), rc;
  gap_scratch w;
  if (kmax < 2) return EKOC_OK;
  lo.order = 1; /* gamma^(0) only */
  lo.sv_mode = EKOC_SV_NONE;
  memset(&w, 0, sizeof w);
  if (!gap_scratch_alloc(&w, 8192)) {
    gap_scratch_free(&w);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory for the poles");
  }
  rc = real_poles(&lo, kmax, n_max, &w, out);
  if (rc == EKOC_OK && with_complex) rc = complex_poles(&lo, kmax, &w, out);
  gap_scratch_free(&w);
  return rc;
}

int ekoc_poles_find(const ekoc_nspace_state *g, ekoc_pole_set *out) {
  const ekoc_plan *p = g->p;
  double n_max = 65.0, r_min = ekoc_talbot_radius(g->ip->logx[0]), tau_top = -g->ip->logx[0];
  const ekoc_nspace_cfg *seen[2 * EKOC_PLAN_MAX_STEPS * 8];
  int n_seen = 0, b, rc = EKOC_OK, with_complex;
  size_t j;
  memset(out, 0, sizeof *out);
  for (b = 0; b < g->bp->n_bands; ++b) {
    n_max = fmax(n_max, 1.0 + 1.1 * g->bp->band[b].radius);
    r_min = fmin(r_min, 0.8 * g->bp->band[b].radius);
  }
  n_max = fmin(1.2 * n_max, 9e4);
  /* the complex poles have r* <= 0.3772 (quad/path_radius.h): only a path
   * narrower than about that can leave one out */
  with_complex = r_min < EKOC_PATH_COMPLEX_POLE_RADIUS + 0.05;
  for (j = 0; rc == EKOC_OK && j < p->n_jobs; ++j) {
    const ekoc_plan_job *job = &p->jobs[j];
    int f, i;
    /* every segment of the plan, not only this run's targets': the same poles, radii and band paths
     * for every chunk of targets, so a streamed target has the bits of the held one */
    if (job->unity || job->is_matching) continue;
    for (f = 0; rc == EKOC_OK && f < 2; ++f) {
      const ekoc_nspace_cfg *cfg = &job->family[f];
      if (ekoc_path_pole_orders(cfg) < 2) continue;
      for (i = 0; i < n_seen; ++i) /* the poles depend on gamma^(0) (nf, axes) and K only */
        if (seen[i]->nf == cfg->nf && seen[i]->polarized == cfg->polarized &&
            seen[i]->time_like == cfg->time_like && ekoc_path_pole_orders(seen[i]) == ekoc_path_pole_orders(cfg))
          break;
      if (i < n_seen) continue;
      if (n_seen < (int)(sizeof seen / sizeof *seen)) seen[n_seen++] = cfg;
      rc = ekoc_poles_of_family(cfg, n_max, with_complex, out);
    }
  }
  if (rc == EKOC_OK) circle_radii(out, tau_top);
  if (rc != EKOC_OK) ekoc_poles_free(out);
  return rc;
}

/* The smallest distance of the crossing 1 + r from a real pole, in units of r. */
static double crossing_clearance(const ekoc_pole_set *s, double r) {
  double best = INFINITY;
  size_t i;
  for (i = 0; i < s->n; ++i)
    if (s->pole[i].im == 0.0) best = fmin(best, fabs(1.0 + r - s->pole[i].re) / r);
  return best;
}

void ekoc_poles_place_bands(const ekoc_pole_set *s, ekoc_band_plan *bp) {
  int b, step;
  size_t i;
  if (s->n == 0) return;
  for (b = 0; b < bp->n_bands; ++b) {
    double r0 = bp->band[b].radius, best_r, best;
    /* left of the first real pole whose residue the band's entries would magnify too much */
    for (i = 0; i < s->n; ++i) {
      double p = s->pole[i].re;
      if (s->pole[i].im != 0.0 || (p - 1.0) * bp->band[b].tau_hi <= log(EKOC_POLES_MAX_GROWTH)) continue;
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
    bp->band[b].radius = best_r;
  }
}

/* Whether target t's path has a segment whose singlet kernel has poles of nf. */
static int target_has(const ekoc_nspace_state *g, size_t t, int32_t nf) {
  const ekoc_plan *p = g->p;
  int s, f;
  for (s = 0; s < p->n_steps[g->t0 + t]; ++s) {
    const ekoc_plan_job *job = &p->jobs[p->steps[g->t0 + t][s].job];
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
  if (!q->block || !q->c || !q->c_abs)
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
        if (top > q->orders) q->orders = top;
        s->block_has[(t * EKOC_NB + (size_t)a) * EKOC_NB + (size_t)b] = 1;
        q->block[q->n_blocks++] = (t * EKOC_NB + (size_t)a) * EKOC_NB + (size_t)b;
      }
  return EKOC_OK;
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
    for (t = 0, any = 0; t < g->nt; ++t) any |= has[t] = (unsigned char)target_has(g, t, s->pole[i].nf);
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

/* Row k's corrections for pole iq: where eko's path for the row and the
 * band path of an entry disagree on enclosing the pole, the residue of the
 * block times the row's transform comes off (the band path's alone) or is
 * added (eko's alone). */
static void correct_row(ekoc_nspace_state *g, const ekoc_pole_set *s, size_t iq, const circle *cc,
                        taylor_work *w, size_t k) {
  const ekoc_pole *q = &s->pole[iq];
  const ekoc_pole_laurent *lq = &s->laurent[iq];
  const ekoc_band_plan *bp = g->bp;
  const size_t nx = g->nx;
  double pair = q->im > 0.0 ? 2.0 : 1.0; /* a complex pole and its conjugate: 2 Re */
  int eko_in = ekoc_pole_inside(q->re, q->im, 1.0, ekoc_talbot_radius(g->ip->logx[k]), 1.0), b, l, o;
  size_t j0 = nx, j1 = 0, e, j, m;
  for (b = 0; b < bp->n_bands; ++b) { /* the columns of the bands whose paths (either offset) disagree with eko's */
    const ekoc_band *bd = &bp->band[b];
    if (bd->j_hi[k] <= bd->j_lo[k]) continue;
    for (o = 0; o < 2; ++o)
      if (ekoc_pole_inside(q->re, q->im, (double)o, bd->radius, EKOC_BAND_HEIGHT) != eko_in) {
        if ((size_t)bd->j_lo[k] < j0) j0 = (size_t)bd->j_lo[k];
        if ((size_t)bd->j_hi[k] > j1) j1 = (size_t)bd->j_hi[k];
      }
  }
  if (j0 >= j1) return;
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
    }
  }
  for (e = 0; e < lq->n_blocks; ++e) {
    size_t at = lq->block[e], t = at / (EKOC_NB * EKOC_NB);
    int ra = (int)(at / EKOC_NB % EKOC_NB), rb = (int)(at % EKOC_NB);
    const ekoc_complex *c = lq->c + e * 2 * MAX_ORDER;
    double *val = g->val[at], *err = g->err[at];
    if (!val || g->role[t][ra][rb] == ROLE_CONST) continue;
    val += k * nx;
    err += k * nx;
    for (b = 0; b < bp->n_bands; ++b) {
      const ekoc_band *bd = &bp->band[b];
      /* the path the block's band entries were inverted on (evol/nspace_engine.c) */
      double offset = g->role[t][ra][rb] == ROLE_S || ekoc_nspace_one_path(bd) ? 1.0 : 0.0, sign;
      size_t lo = (size_t)bd->j_lo[k], hi = (size_t)bd->j_hi[k];
      if (hi <= lo || ekoc_pole_inside(q->re, q->im, offset, bd->radius, EKOC_BAND_HEIGHT) == eko_in) continue;
      sign = eko_in ? pair : -pair; /* enclosed by the band path only: its residue comes off */
      for (j = lo; j < hi; ++j) {
        double sum = 0.0, half = 0.0, size = 0.0;
        for (l = 0; l < lq->orders; ++l) {
          size_t al = (size_t)l * nx + j;
          const ekoc_complex cl = c[l], hl = c[MAX_ORDER + l];
          sum += w->a_re[al] * cl.re - w->a_im[al] * cl.im;
          half += w->h_re[al] * hl.re - w->h_im[al] * hl.im;
          size += w->a_abs[al] * lq->c_abs[e * MAX_ORDER + (size_t)l];
        }
        val[j] += sign * sum;
        err[j] += pair * (fabs(sum - half) + 16.0 * 2.220446049250313e-16 * size);
      }
    }
  }
}

int ekoc_poles_correct(ekoc_nspace_state *g, const ekoc_pole_set *s) {
  int rc = EKOC_OK, nt = g->rq->n_threads > 0 ? g->rq->n_threads : omp_get_max_threads();
  if (s->n == 0) return EKOC_OK;
  /* rows on separate threads (each row's entries are written by one thread only): the same bits for any number */
#pragma omp parallel num_threads(nt) reduction(| : rc)
  {
    taylor_work w;
    circle cc;
    size_t i;
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
    for (i = 0; i < s->n; ++i) {
      if (!s->laurent[i].n_blocks) continue;
      circle_nodes(&s->pole[i], &cc);
#pragma omp for schedule(dynamic, 1)
      for (k = 0; k < (long)g->nx; ++k) /* the x = 1 row is eko's corner (engine_finish) */
        if (rc == EKOC_OK && g->ip->logx[k] < 0.0) correct_row(g, s, i, &cc, &w, (size_t)k);
    }
    free(w.t_re), free(w.t_im), free(w.a_re);
    ekoc_band_transform_scratch_free(&w.ts);
  }
  return rc == EKOC_OK ? EKOC_OK
                       : ekoc_error(EKOC_ERR_NO_MEMORY, "N-space backend: out of memory for the pole corrections");
}
