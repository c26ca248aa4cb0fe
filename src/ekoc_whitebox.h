/* ekoc_whitebox.h: internal, for white-box benchmarks and tests, no ABI
 * promise.
 *
 * The one internal header a program outside src/ may include (perf/ programs
 * otherwise include only include/ headers): it exposes the library's private
 * layers for measurements the public API cannot make, such as timing the
 * pieces of the batch driver or reading an operator's blocks as stored. What
 * it exposes changes with the code and is not exported from libekoc.so:
 * programs using it link libekoc.a.
 *
 *   ad/nspace.h              N-space families: towers from ekore, E(N) from a tower
 *   quad/interp.h            struct ekoc_interp (grid, basis coefficients)
 *   quad/batch_rule.h        the batch driver's Gauss-Kronrod rule
 *   quad/batch_math.h        path points, weights and basis transforms of the batch inversion
 *   evol/operator_internal.h struct ekoc_operator (block-sparse evolution-basis operators)
 *   quad/real_gemm.h         the N-space engine's dense real product (perf/gemm_peak.c)
 */
#ifndef EKOC_WHITEBOX_H
#define EKOC_WHITEBOX_H

#include "ekoc.h"

#include "ad/nspace.h"
#include "evol/operator_internal.h"
#include "quad/batch_math.h"
#include "quad/batch_rule.h"
#include "quad/interp.h"
#include "quad/real_gemm.h"

#endif /* EKOC_WHITEBOX_H */
