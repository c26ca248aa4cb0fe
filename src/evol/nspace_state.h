/* nspace_state.h (private): the state of one run of the N-space backend
 * (evol/nspace_engine.h) and what it computes before the inversion: the
 * parts the targets need, their elements' large-N limits and which are
 * singular at N = 1 or independent of N, the parts' values at the nodes of a
 * band path (towers shared by parts with the same anomalous dimensions) and
 * the targets' operators there (evol/nspace_compose.h). */
#ifndef EKOC_EVOL_NSPACE_STATE_H
#define EKOC_EVOL_NSPACE_STATE_H

#include <stddef.h>

#include "ad/nspace.h"
#include "evol/nspace_compose.h"
#include "evol/nspace_engine.h"
#include "evol/plan.h"
#include "quad/band_plan.h"
#include "quad/interp.h"

/* What a target's block is: inverted on the non-singlet-like path, on the
 * singlet-like one, or an N-independent constant (its value is k delta_kj). */
enum { ROLE_NONE = 0, ROLE_NS = 1, ROLE_S = 2, ROLE_CONST = 3 };

typedef struct ekoc_nspace_state {
  const ekoc_plan *p;
  const ekoc_interp *ip;
  const ekoc_request *rq;
  ekoc_nspace_engine_options opt;
  ekoc_profile *prof;
  struct ekoc_path_cache *paths; /* values kept between computations (quad/path_cache.h; NULL: none) */
  size_t t0, nt, nx, cap; /* targets; nodes the arrays hold */
  ekoc_band_plan *bp;
  const unsigned char *pole_block; /* [target][a][b]: residues of U_k poles added afterwards (may be NULL) */
  double *fun_tolerance;          /* [function]: factor on the tolerance of the function's inversion */
  unsigned char *block_rows[2];   /* [target][a][b][row]: rows over in the last pass, and in the one before */
  const unsigned char **rows_in;  /* [output]: the previous pass's rows of the output's block */
  unsigned char **rows_out;       /* [output]: this pass's rows of the output's block */
  unsigned char *need;        /* [job]: on some target's path, with values at the nodes */
  unsigned char *active;      /* [job]: evaluated in this pass (need, or what a refinement needs) */
  unsigned char *target_active; /* [target]: composed in this pass */
  unsigned char *tower_now;   /* [job][family]: towers computed in this pass */
  unsigned char *only;        /* [target][a][b]: the blocks a refinement recomputes */
  unsigned char *rows, *row_over, *fun_over; /* [nx], [nx], [function] */
  unsigned char *probe_rows, *rest_rows;   /* [nx]: a band's probe rows and its other ones (nspace_engine.c) */
  int *owner;                 /* [job][family]: the (job, family) whose towers it shares */
  double *lim_e;              /* [job][element]: large-N limit of each element */
  unsigned char *singular;    /* [job][element]: singular at N = 1 (inverted on the singlet-like path only) */
  unsigned char *constant;    /* [job][element]: independent of N (its value is lim_e) */
  unsigned char *regular_fam; /* [job][family]: the family has elements regular at N = 1 */
  ekoc_nsop *parts, *tops;    /* [job], [target] */
  ekoc_nsop *tops_odd;        /* [target]: a refinement's operators at the new nodes */
  int tops_path;              /* 2 band + path whose first pass tops holds already (-1: none) */
  unsigned char (*role)[EKOC_NB][EKOC_NB];
  double (*delta)[EKOC_NB][EKOC_NB];  /* added back as delta_kj */
  double (*corner)[EKOC_NB][EKOC_NB]; /* the (x = 1, x = 1) entry */
  double **val, **err;                /* [target][a][b]: outputs of present blocks, in row ranges */
  float **corr;                       /* [target][a][b]: the pole residues added to them, for the bands'
                                         tolerance (single precision, row ranges; NULL: none) */
  /* the outputs' row ranges (evol/blockop.h): row k from column row_lo[k], the first any band
   * or the diagonal takes; entry (k, j) at row_base[k] + j, row_len entries in all */
  size_t *row_lo, *row_base, row_len;
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
  const float **out_corr;
} ekoc_nspace_state;

#define JF(j, f) (2 * (j) + (f))


/* The arrays of a run whose p, ip, rq, opt, prof, t0, nt and nx are set:
 * the parts and targets, the nodes' values (room for
 * EKOC_NSPACE_NODES_MAX + 1 nodes), the elements' limits and kinds.
 * Errors: EKOC_ERR_NO_MEMORY, the N-space evaluation's. */
int ekoc_nspace_state_alloc(ekoc_nspace_state *g);
/* Frees what the state holds (also after a failed alloc). */
void ekoc_nspace_state_free(ekoc_nspace_state *g);

/* After ekoc_nspace_path_values and ekoc_nspace_path_compose with m / 2
 * intervals on the same band and offset: the nodes of the rule with m, the
 * active parts' values and targets' operators (g->tops, m + 1 nodes) at
 * the new (odd) nodes only, the even ones kept from before: the nodes of the
 * rule with m / 2 are its even ones, bit for bit (ekoc_band_nodes), so the
 * operators are those a whole evaluation gives. */
int ekoc_nspace_path_refine(ekoc_nspace_state *g, const ekoc_band *bd, int singlet_path, int m);

/* The nodes of band bd's path with this offset and m intervals and the
 * active parts' values there (on the non-singlet-like path, singlet_path =
 * 0, the families with elements regular at N = 1 only). */
int ekoc_nspace_path_values(ekoc_nspace_state *g, const ekoc_band *bd, int singlet_path, int m);

/* Every needed part's values at the count (<= g->cap) points n (the
 * residue circles of evol/nspace_poles.h), all families; marks every part
 * and target active. */
int ekoc_nspace_node_values(ekoc_nspace_state *g, const ekoc_complex *n, size_t count);

/* Whether band bd inverts every block on the singlet-like path: its tau are
 * small enough that the path's e^tau against the non-singlet blocks costs
 * little (at most e^EKOC_BAND_ONE_PATH_TAU of rounding), and the band's
 * N-space values, transforms and products are then taken once. */
static inline int ekoc_nspace_one_path(const ekoc_band *bd) { return bd->tau_hi <= EKOC_BAND_ONE_PATH_TAU; }

/* The active parts' matrices from those values (regular_only: without
 * their elements singular at N = 1) and the active targets' operators into
 * tops[0..nt-1]. Errors: EKOC_ERR_NO_MEMORY. */
int ekoc_nspace_path_compose(ekoc_nspace_state *g, size_t count, int regular_only, ekoc_nsop *tops);

#endif /* EKOC_EVOL_NSPACE_STATE_H */
