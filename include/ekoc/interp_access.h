/* ekoc/interp_access.h: read access to the records of one basis function of
 * an interpolation basis, so that a caller outside the library (the Python
 * binding's scipy.LowLevelCallable) can fill ekoc_kernel_args.areas /
 * n_areas for ekoc_quad_kernel. Included by ekoc.h; plain C, usable from C++.
 */
#ifndef EKOC_INTERP_ACCESS_H
#define EKOC_INTERP_ACCESS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ekoc_interp;

/* The area records of basis function j (docs/physics.md §4.2): *areas points to
 * *n_areas consecutive records of (degree + 3) doubles each, (ln x_min,
 * ln x_max, c_0..c_degree), ascending in x, owned by the basis (valid while
 * it lives; never free it); *degree_out (may be NULL) receives the degree.
 * The kernel transforms records in this monomial form, which loses digits at
 * high degree on fine grids (docs/physics.md §4.3); with
 * ekoc_kernel_args.interp set it uses the stable local form instead.
 * Errors (outputs untouched): EKOC_ERR_NULL_POINTER (interp, areas,
 * n_areas), EKOC_ERR_INVALID_ARGUMENT (j >= number of basis functions, or a
 * basis linear in x, ekoc_interp_alloc_ex: it has no records in ln x). */
int ekoc_interp_basis_areas(const struct ekoc_interp *interp, size_t j, const double **areas, size_t *n_areas,
                            int32_t *degree_out);

#ifdef __cplusplus
}
#endif

#endif /* EKOC_INTERP_ACCESS_H */
