/* ekoc/interp.h: the x-space interpolation basis of ekoc (public part).
 *
 * eko's Lagrange interpolation (docs/physics.md §4; eko module
 * eko.interpolation): on a grid x_0 < ... < x_{n-1} <= 1 every basis
 * function p_j is, on each area (x_i, x_{i+1}], a polynomial of degree
 * `degree` in ln x (logarithmic basis, eko's default) or in x (linear basis,
 * eko's interpolation_is_log: False) through the points of that area's block,
 * with p_j(x_k) = delta_jk. Included by ekoc.h; plain C, usable from C++.
 */
#ifndef EKOC_INTERP_H
#define EKOC_INTERP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest interpolation degree ekoc accepts (eko's LHA setup uses 4). */
#define EKOC_INTERP_MAX_DEGREE 15

/* An interpolation basis on an x grid. Immutable after ekoc_interp_alloc, so
 * one basis may be read by any number of threads at once. */
typedef struct ekoc_interp ekoc_interp;

/* eko's lambertgrid(n, xmin, 1) (PineAPPL grid, arXiv:2008.12789 eq. 2.11):
 * y(x) = 5(1-x) - ln x, n points y_i linearly spaced from y(xmin) to y(1) = 0,
 * x_i = W0(5 e^{5-y_i})/5 (principal Lambert W). Writes n ascending values to
 * x_out (x_out[0] = xmin up to rounding, x_out[n-1] = 1 exactly).
 * Errors: EKOC_ERR_NULL_POINTER (x_out), EKOC_ERR_INVALID_ARGUMENT (n < 2,
 * xmin NaN or outside (0,1), or a grid that is not strictly ascending in
 * double precision); x_out is untouched on failure. */
int ekoc_grid_lambert(size_t n, double xmin, double *x_out);

/* Builds the basis of degree `degree` on the grid x[0..n-1] (strictly
 * ascending, in (0,1]; 1 <= degree < n, degree <= EKOC_INTERP_MAX_DEGREE).
 * The grid is copied. On success *out owns the basis (release with
 * ekoc_interp_free). Errors: EKOC_ERR_NULL_POINTER (x, out),
 * EKOC_ERR_INVALID_GRID (n < 2, a value NaN or outside (0,1], not strictly
 * ascending), EKOC_ERR_INVALID_DEGREE, EKOC_ERR_NO_MEMORY; *out untouched. */
int ekoc_interp_alloc(const double *x, size_t n, int32_t degree, ekoc_interp **out);

/* As ekoc_interp_alloc with the kind of polynomial chosen: is_log = 1
 * polynomials in ln x (the same basis as ekoc_interp_alloc), is_log = 0
 * polynomials in x on the same areas and blocks (eko's
 * interpolation_is_log: False). Its Mellin transforms drop the lower bound of
 * the area holding the inversion point, as for the log basis; eko's
 * evaluate_Nx keeps it, which does not invert to the basis at the diagonal
 * (docs/physics.md §4.3). Errors as ekoc_interp_alloc, plus
 * EKOC_ERR_INVALID_ARGUMENT (is_log neither 0 nor 1). */
int ekoc_interp_alloc_ex(const double *x, size_t n, int32_t degree, int32_t is_log, ekoc_interp **out);

/* 1 for a basis in ln x, 0 for one in x; -EKOC_ERR_NULL_POINTER (negative,
 * with the message set) for NULL. */
int ekoc_interp_is_log(const ekoc_interp *interp);

/* Releases a basis; NULL is fine. */
void ekoc_interp_free(ekoc_interp *interp);

/* Number of basis functions (= grid points); 0 for NULL. */
size_t ekoc_interp_size(const ekoc_interp *interp);

/* Values p_j(x) of all n basis functions at x in (0,1] (eko's evaluate_x:
 * the area with x_i < x <= x_{i+1}, the lowest area of a basis function also
 * accepting its lower end, compared in ln x for a logarithmic basis; 0 below
 * x_0; evaluated in the local form of docs/physics.md §4.3), written to
 * weights_out[0..n-1]. Errors: EKOC_ERR_NULL_POINTER, EKOC_ERR_INVALID_ARGUMENT
 * (x NaN or outside (0,1]), EKOC_ERR_BUFFER_TOO_SMALL (n_out < n);
 * weights_out untouched on failure. */
int ekoc_interp_eval(const ekoc_interp *interp, double x, double *weights_out, size_t n_out);

#ifdef __cplusplus
}
#endif

#endif /* EKOC_INTERP_H */
