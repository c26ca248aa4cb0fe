/* ekoc/bindings.h: helpers for language bindings (the Python package in
 * ffi/): the N-space families at many complex N in one call. (The struct
 * sizes they check are ekoc_nspace_config_sizeof / ekoc_kernel_args_sizeof
 * in ekoc/kernel.h.) Included by ekoc.h; plain C, usable from C++.
 */
#ifndef EKOC_BINDINGS_H
#define EKOC_BINDINGS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ekoc_nspace_config;

/* Number of elements of the family described by cfg (3 evolution ns, 4
 * evolution singlet, 2 matching ns, 9 matching singlet; see
 * ekoc_nspace_config), or 0 when cfg is NULL or its kind/family unknown. */
size_t ekoc_nspace_family_len(const struct ekoc_nspace_config *cfg);

/* ekoc_nspace_evaluate at `count` points N_p = n_re[p] + i n_im[p]:
 * out_re/out_im[p * size + e] = element e at N_p, size =
 * ekoc_nspace_family_len(cfg), each value bitwise the one of
 * ekoc_nspace_evaluate. The configuration and every N are checked before any
 * work; the values go to a scratch buffer and are copied out only when all
 * points succeeded, so on failure out_re/out_im are untouched.
 * Errors: EKOC_ERR_NULL_POINTER (cfg, n_re, n_im, out_re, out_im; also for
 * count 0), the configuration's errors (see ekoc_nspace_evaluate),
 * EKOC_ERR_INVALID_ARGUMENT (a non-finite N; the message names the point),
 * EKOC_ERR_BUFFER_TOO_SMALL (out_len < count * size), EKOC_ERR_NO_MEMORY,
 * or the evaluation error of the first failing point (message names it;
 * EKOC_ERR_NUMERICAL for a non-finite element, as ekoc_nspace_evaluate). */
int ekoc_nspace_evaluate_batch(const struct ekoc_nspace_config *cfg, const double *n_re, const double *n_im,
                               size_t count, double *out_re, double *out_im, size_t out_len);

#ifdef __cplusplus
}
#endif

#endif /* EKOC_BINDINGS_H */
