/* ekoc/profile.h: the node timer. One per computation, owned by the caller
 * and passed by pointer to every stage (CPU or GPU); each stage records
 * (name, start_ns, end_ns) as unsigned 64-bit nanoseconds relative to the
 * computation's start (ekoc_profile_reset, done by ekoc_compute). Engines
 * with their own clocks (CUDA events) convert their timings onto this
 * timeline and store them with ekoc_profile_store. Recording is thread-safe
 * and never allocates; records past the capacity are counted as dropped. */
#ifndef EKOC_PROFILE_H
#define EKOC_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EKOC_PROFILE_NAME_LEN 64

typedef struct ekoc_profile ekoc_profile;

/* A timer with room for `capacity` records (1..1000000). */
int ekoc_profile_new(size_t capacity, ekoc_profile **out);
void ekoc_profile_free(ekoc_profile *p); /* NULL is fine */

/* Forgets all records and restarts the clock at zero. */
int ekoc_profile_reset(ekoc_profile *p);

/* Nanoseconds since the last reset (CLOCK_MONOTONIC); 0 for NULL. */
uint64_t ekoc_profile_now_ns(const ekoc_profile *p);

/* Raw store: appends (name, start_ns, end_ns); the name is truncated to
 * EKOC_PROFILE_NAME_LEN-1 bytes. NULL p is a no-op returning EKOC_OK, so
 * stages can record unconditionally. Fails on end < start. */
int ekoc_profile_store(ekoc_profile *p, const char *name, uint64_t start_ns, uint64_t end_ns);

/* Number of records kept, and number dropped for lack of room. */
size_t ekoc_profile_count(const ekoc_profile *p);
size_t ekoc_profile_dropped(const ekoc_profile *p);

/* Record i: its name (valid while p lives and is not reset), start and end. */
int ekoc_profile_get(const ekoc_profile *p, size_t i, const char **name, uint64_t *start_ns, uint64_t *end_ns);

#ifdef __cplusplus
}
#endif

#endif /* EKOC_PROFILE_H */
