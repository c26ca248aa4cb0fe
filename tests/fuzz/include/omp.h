/* omp.h for the fuzz build only (tests/fuzz, `make fuzz`): clang there runs
 * with -fopenmp=libgomp, which links GCC's libgomp but compiles no OpenMP
 * pragma, and gcc's own omp.h uses attributes clang 14 rejects. These are the
 * standard OpenMP runtime prototypes, served by libgomp. */
#ifndef EKOC_FUZZ_OMP_H
#define EKOC_FUZZ_OMP_H

#ifdef __cplusplus
extern "C" {
#endif

int omp_get_max_threads(void);
int omp_get_num_threads(void);
int omp_get_thread_num(void);
int omp_get_num_procs(void);
int omp_in_parallel(void);
int omp_get_level(void);
int omp_get_dynamic(void);
void omp_set_num_threads(int n);
void omp_set_dynamic(int on);
double omp_get_wtime(void);

#ifdef __cplusplus
}
#endif

#endif
