/* couplings.h (private): the pieces of ekoc_couplings_a_s, exposed for the
 * plan and the tests. docs/physics.md §2; eko module eko.couplings. */
#ifndef EKOC_EVOL_COUPLINGS_H
#define EKOC_EVOL_COUPLINGS_H

#include <stdint.h>

#include "ekoc.h"

/* a_s^(nf)(mu2_to) from a_s^(nf)(mu2_from) = a0 at fixed nf, no thresholds
 * and no eko short-segment skip (docs/physics.md §2.2): EXACT integrates
 * da/dt = -a^2 (1 + b_1 a + b_2 a^2 + b_3 a^3) (truncated at `order` terms,
 * 1..EKOC_MAX_ORDER) in t = beta_0 ln(mu2_to/mu2_from) to ~3e-14 relative
 * (closed form at LO); EXPANDED uses eko's expanded_{lo,nlo,nnlo,n3lo}. No allocation, thread-safe.
 * Errors (*a_out untouched): EKOC_ERR_NULL_POINTER, EKOC_ERR_INVALID_ORDER,
 * EKOC_ERR_INVALID_MODE, EKOC_ERR_INVALID_NF (outside 3..6),
 * EKOC_ERR_INVALID_ARGUMENT (a0 not finite and > 0), EKOC_ERR_INVALID_SCALE,
 * EKOC_ERR_NUMERICAL (Landau pole, non-finite or non-positive result). */
int ekoc_couplings_run(int32_t order, int32_t mode, int32_t nf, double a0, double mu2_from,
                       double mu2_to, double *a_out);

/* The factor multiplying a_s at a threshold crossing (eko's Couplings.a):
 * upward (up != 0, a = a_s^(nf)) 1 + sum_{n=1}^{order-1} a^n sum_{l<=n} c_{n,l} L^l
 * with c_{1,1} = 2/3, c_{2,0} = 14/3, c_{2,1} = 38/3, c_{2,2} = 4/9 ([PEG] eq.
 * 2.43, pole masses; c_{1,0} = 0) and at N3LO c_{3,0} = 340.729 - 16.7981 n_f,
 * c_{3,1} = 8941/27 - 409/27 n_f, c_{3,2} = 511/9, c_{3,3} = 8/27 (eko's
 * numbers), n_f = nf_light the flavours below the threshold; downward
 * (a = a_s^(nf+1)) the same with eko's invert_matching_coeffs:
 * d_{1,1} = -c_{1,1}, d_{2,l} = -c_{2,l} for l < 2, d_{2,2} = 2 c_{1,1}^2 - c_{2,2},
 * d_{3,0} = -c_{3,0}, d_{3,1} = 5 c_{1,1} c_{2,0} - c_{3,1},
 * d_{3,2} = 5 c_{1,1} c_{2,1} - c_{3,2}, d_{3,3} = -5 c_{1,1}^3 + 5 c_{1,1} c_{2,2} - c_{3,3}.
 * L = ln(rho k_h^2). order outside 1..4 is treated as 4 (callers validate). */
double ekoc_couplings_matching_factor(int32_t order, int up, int32_t nf_light, double a, double L);

#endif /* EKOC_EVOL_COUPLINGS_H */
