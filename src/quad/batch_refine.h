/* batch_refine.h (private): the error control of the batch engine
 * (batch_refine.c): the error estimate of every entry, the adaptive
 * refinement of the rows that miss the tolerance, and the row's outputs.
 * Shared by the CPU batch driver (quad/batch.c) and the GPU backend's host
 * side (gpu/gpu_loader.c), so both give the same flags and refined values.
 *
 * Error estimate of an entry on a panel (a Gauss-Kronrod sum K, its embedded
 * Gauss sum G, and the probe integrals ra and nz of quad/batch_eval.h):
 *   E = max(|K - G|, ra min(1, (200 |K - G| / ra)^1.5))      quadrature part Q
 *     + nz + 50 eps ra                                        rounding part F
 * The rescaled term is QUADPACK's error rescaling (R. Piessens et al.,
 * QUADPACK, Springer 1983; GSL's qk rules), with resabs for resasc: larger than |K - G| while the
 * rule is far from converged (|K - G| > 1.25e-7 ra), where the Kronrod sum
 * can be further off than its difference from the Gauss sum; below that
 * |K - G| is kept as it is (QUADPACK would shrink it, but on these
 * integrands an entry cancelling to 1e-3..1e-7 of ra has K off by ~|K - G|,
 * measured). nz is the sampled rounding noise of the integrand and 50 eps ra
 * QUADPACK's rounding floor: no refinement reduces F.
 *
 * Refinement of a row (one family, all its elements and basis functions at
 * once): an entry fails when E > max(epsabs, epsrel |value|). If some
 * failing entry could pass (2 F <= tolerance: |K - G| itself does not fall
 * below the rounding noise), the row's integration range is
 * split into panels, each integrated with the refinement rule (its own
 * Gauss-Kronrod pair). The panels are intervals of the tail variable
 * s = -ln(1 - u + c) (u = 1 + c - e^-s, du = e^-s ds, c =
 * EKOC_BATCH_TAIL_SHIFT) over [-ln(0.5 + c), -ln(cut + c)], not of the path
 * parameter u itself: the integrands that fail decay only
 * algebraically along the path (|N| ~ 1 / (1 - u)), on a scale that shrinks
 * like 1 - u, so panels halving in u crowd geometrically toward 1 - cut
 * (seven or more on the converged LHA grid), while in s the same integrands
 * vary on a scale of order one (perf/STATS.md "refinement panels in the tail
 * variable"). Repeatedly the panel with the largest sum over the
 * failing entries of Q / tolerance is halved and both halves evaluated, until
 * every entry passes or can no longer, or the budget of panels is spent, or
 * EKOC_BATCH_STALL_SPLITS splits in a row do not lower that sum below 0.9 of
 * its best (rounding or an unresolved feature: refining further would not
 * help). Entries still missing their tolerance are flagged and counted.
 * Rows that pass on the base rule keep its sums bit for bit. A row may also
 * start refined, without its base rule (quad/batch.c: its earlier family was
 * refined): its first split then evaluates the same two halves.
 */
#ifndef EKOC_QUAD_BATCH_REFINE_H
#define EKOC_QUAD_BATCH_REFINE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "quad/batch_eval.h"
#include "quad/job.h"

/* Most panels one row may be split into (the budget is min(limit, this)). */
#define EKOC_BATCH_MAX_PANELS 64
/* The shift c of the tail variable s = -ln(1 - u + c): small against every
 * usual cut (eko's 0.05, the converged LHA run's 0.01: the same refinement
 * nodes within 0.1 % as c = 0), it keeps s finite for mellin_cut = 0. */
#define EKOC_BATCH_TAIL_SHIFT 1e-3
/* Splits in a row that do not lower the failing entries' error below 0.9 of
 * its best before the refinement of a row stops. Splitting a panel that hides
 * a feature first raises the estimate: on NNPDF's 196-point fit grid the
 * small-x rows next to the diagonal need 12 to converge (at 4 they stopped and
 * were flagged, 1e3-1e9 over tolerance, though QAGS agrees with their values).
 * A spike the rule cannot resolve no longer reaches it: paths that passed
 * next to a pole of the truncated solutions (x = 7.04e-6 there: 1e-5 from
 * |r_+ - r_-| = 2) are moved off it first (quad/path_radius.h). */
#define EKOC_BATCH_STALL_SPLITS 16
/* Fewest Gauss points of the refinement rule (its (2n+1)-point Kronrod
 * extension integrates each refined panel). In s the refined integrands are
 * smooth, so a high order pays: on the converged LHA run 48 points need the
 * fewest nodes (15..64 measured; perf/STATS.md "refinement panels in the
 * tail variable"). */
#define EKOC_BATCH_REFINE_MIN_POINTS 48

/* The remainder beyond the Mellin cut (quad/driver.h, ekoc_quad_tail_cut):
 * Gauss points of the tail rule, whose 2n+1 Kronrod nodes integrate the
 * whole tail u in [1 - cut, 1 - cut_t] as one panel of s. 5 (11 nodes): its
 * |K - G| stays below the tail on the cards measured, where 3 (7 nodes)
 * overstated the tail's own error by up to 1.7x on an LO backward card. */
#define EKOC_BATCH_TAIL_POINTS 5

/* The quadrature part Q of the estimate from d = |K - G| and ra. */
static inline double ekoc_batch_quad_error(double d, double ra) {
  double e = d;
  if (ra > 0.0 && d > 0.0) {
    double r = 200.0 * d / ra;
    double s = r < 1.0 ? ra * r * sqrt(r) : ra;
    if (s > e) e = s;
  }
  return e;
}

/* The rounding part F of the estimate. */
static inline double ekoc_batch_round_error(double ra, double nz) { return nz + 50.0 * 2.220446049250313e-16 * ra; }

/* What the engine needs besides the row: tolerances, budget, the
 * refinement rule on [-1, 1] and the integration range. */
typedef struct ekoc_batch_engine {
  double epsabs, epsrel;
  int32_t max_panels;            /* 1: no refinement */
  int32_t ref_nodes;             /* 2 n + 1 of the refinement rule */
  const double *ref_x, *ref_wk, *ref_wg;
  double s_lo, s_hi;             /* the tail variable's range: u in [0.5, 1 - cut] */
  double cut;                    /* the Mellin cut (the tail starts at u = 1 - cut) */
  int32_t tail_nodes;            /* 2 n + 1 of the tail rule, 0: no remainder estimate */
  const double *tail_x, *tail_wk, *tail_wg;
  ekoc_quad_progress *progress;  /* polled between splits, may be NULL */
} ekoc_batch_engine;

/* Panel path tables a thread keeps (ekoc_batch_refine_scratch). */
#define EKOC_BATCH_PANEL_TABLES 8

/* Per-thread scratch of the refinement: the panels of one row and family. */
typedef struct ekoc_batch_refine_scratch {
  size_t len;          /* EKOC_NSPACE_MAX_ELEMENTS * nx */
  int32_t max_panels, ref_nodes;
  double *lo, *hi;     /* [panel] */
  double *k, *q, *f;   /* [panel][len]: Kronrod sums, Q and F */
  double *qt, *ft, *vt, *tol; /* [len]: totals over the panels, and the tolerance */
  uint8_t *state;      /* [len]: 0 passes, 1 fails and could pass, 2 cannot pass */
  ekoc_batch_sums half;/* [len]: the sums of one new panel */
  /* the path tables of the last EKOC_BATCH_PANEL_TABLES panels evaluated:
   * [table][5 ref_nodes] theta, tc, dj, w, wg, with the panel's end points
   * (rows refined alike split the same panels: one table serves them all) */
  double *node_tables;
  double table_lo[EKOC_BATCH_PANEL_TABLES], table_hi[EKOC_BATCH_PANEL_TABLES];
  int32_t n_tables, next_table;
  double last_poll;    /* progress poll mark */
  double *tail_table;  /* [5 tail_nodes]: the tail panel's path table, rebuilt per row */
} ekoc_batch_refine_scratch;

int ekoc_batch_refine_scratch_alloc(ekoc_batch_refine_scratch *sc, const ekoc_batch_engine *e, size_t nx);
void ekoc_batch_refine_scratch_free(ekoc_batch_refine_scratch *sc);

/* The base rule's results of a row and family, element by element (e is
 * the index in the family plan, j >= row->jmin): the value as it is written
 * out (the integral plus the subtracted constant on the diagonal), |K - G|,
 * and the probe integrals ra, nz ([e][j], stride nx). */
typedef struct ekoc_batch_base {
  const double *stored[EKOC_NSPACE_MAX_ELEMENTS], *diff[EKOC_NSPACE_MAX_ELEMENTS];
  const double *ra, *nz;
} ekoc_batch_base;

/* Row row->k of the family's elements in job: estimate, refinement when
 * needed (ekoc_batch_eval on new panels, evaluation scratch es) and the
 * outputs value / error / failed for j >= row->jmin (eko's corner kept);
 * entries still missing the tolerance are added to *n_failed. base NULL:
 * the row is refined without its base rule, from the two halves of the tail
 * range on (what the first split of the base panel evaluates; needs
 * max_panels >= 2). *refined (when not NULL) tells whether the row was
 * refined. Returns EKOC_OK, EKOC_ERR_NUMERICAL for a non-finite entry, the
 * evaluation's error, EKOC_ERR_INVALID_ARGUMENT (no base and no refinement
 * budget) or EKOC_ERR_CANCELLED from the progress callback. */
int ekoc_batch_finish_row(const ekoc_batch_engine *eng, const ekoc_quad_job *job, const ekoc_batch_row *row,
                          const ekoc_batch_base *base, ekoc_batch_eval_scratch *es, ekoc_batch_refine_scratch *rs,
                          size_t *n_failed, int *refined);

/* Everything one thread of the engine needs, allocated once per job. */
typedef struct ekoc_batch_thread {
  ekoc_batch_eval_scratch eval;
  ekoc_batch_refine_scratch refine;
  ekoc_batch_sums sums; /* [element][j]: one row's base-rule sums */
  size_t n_failed;      /* entries of this thread that missed their tolerance */
} ekoc_batch_thread;

/* For base rules of up to base_nodes nodes; all or nothing (EKOC_ERR_NO_MEMORY). */
int ekoc_batch_thread_alloc(ekoc_batch_thread *t, const ekoc_batch_engine *eng, size_t base_nodes, size_t nx);
void ekoc_batch_thread_free(ekoc_batch_thread *t);

/* The Gauss points n of the refinement rule: max(batch_points,
 * EKOC_BATCH_REFINE_MIN_POINTS), at most EKOC_BATCH_MAX_POINTS. */
int32_t ekoc_batch_refine_points(const ekoc_quad_settings *s);

/* A job's plans, coefficient table (ekoc_batch_area_table, at *buf) and
 * engine, whose refinement rule (n = ekoc_batch_refine_points Gauss points)
 * also lives in *buf (free it): a copy of ref_rule (x, wk, wg of
 * ekoc_batch_kronrod(n), built once for many jobs) or, when NULL, built here;
 * EKOC_OK or the error of the plan, the rule or the allocation. */
int ekoc_batch_job_setup(const ekoc_quad_job *job, const ekoc_quad_settings *s, const double *ref_rule,
                         ekoc_batch_family plans[2], ekoc_batch_engine *eng, double **buf);

#endif
