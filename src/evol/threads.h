/* threads.h (private): how many worker threads a computation may ask for,
 * and whether the operating system will give them. libgomp cannot report a
 * failed thread creation: it prints "Thread creation failed" and calls
 * exit(1). So before its first parallel region a computation creates the
 * worker threads itself, with the stack size libgomp will give them, and
 * turns a refusal (address-space limit, process limit) into a status. */
#ifndef EKOC_EVOL_THREADS_H
#define EKOC_EVOL_THREADS_H

#include <stddef.h>
#include <stdint.h>

/* The largest request.n_threads: max(64, 8 x omp_get_num_procs()). Threads
 * beyond a few per core only cost memory (a stack each, and libgomp keeps
 * its pool alive for the life of the process). */
int ekoc_threads_cap(void);

/* The team size of a computation's parallel regions: n_threads, or OpenMP's
 * default (omp_get_max_threads) for 0. */
int ekoc_threads_effective(int32_t n_threads);

/* The stack size libgomp gives its threads from the values of OMP_STACKSIZE
 * and GOMP_STACKSIZE (either may be NULL; OMP_STACKSIZE first): a number
 * with an optional suffix B, K, M or G (case-insensitive; K when none),
 * surrounding blanks allowed. 0 when neither is set to a valid size: libgomp
 * then takes the pthread default, as the probe does. */
size_t ekoc_threads_stack_size(const char *omp_stacksize, const char *gomp_stacksize);

/* Creates n - 1 threads with libgomp's stack size, keeps them all alive until
 * the last exists, then releases and joins them. Skipped when n <= 1 or when
 * the calling thread has already passed a probe for at least n (libgomp's
 * pool of this thread then holds the team). Errors: EKOC_ERR_NO_MEMORY
 * "could not create N threads (...)"; nothing is printed. */
int ekoc_threads_probe(int n);

#endif /* EKOC_EVOL_THREADS_H */
