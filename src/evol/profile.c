/* profile.c: the node timer (include/ekoc/profile.h). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ekoc.h"
#include "status.h"

typedef struct profile_record {
  char name[EKOC_PROFILE_NAME_LEN];
  uint64_t start_ns, end_ns;
} profile_record;

struct ekoc_profile {
  uint64_t origin_ns; /* CLOCK_MONOTONIC at reset */
  size_t capacity;
  atomic_size_t reserved; /* slots handed out */
  atomic_size_t dropped;
  profile_record *records;
  atomic_uchar *ready; /* slot i fully written */
};

static uint64_t monotonic_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int ekoc_profile_new(size_t capacity, ekoc_profile **out) {
  ekoc_profile *p;
  if (!out) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_profile_new: out is NULL");
  if (capacity < 1 || capacity > 1000000)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_profile_new: capacity=%zu outside 1..1000000", capacity);
  p = calloc(1, sizeof *p);
  if (!p) return ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_profile_new: out of memory");
  p->records = calloc(capacity, sizeof *p->records);
  p->ready = calloc(capacity, sizeof *p->ready);
  if (!p->records || !p->ready) {
    free(p->records);
    free(p->ready);
    free(p);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "ekoc_profile_new: out of memory for %zu records", capacity);
  }
  p->capacity = capacity;
  p->origin_ns = monotonic_ns();
  *out = p;
  return EKOC_OK;
}

void ekoc_profile_free(ekoc_profile *p) {
  if (!p) return;
  free(p->records);
  free(p->ready);
  free(p);
}

int ekoc_profile_reset(ekoc_profile *p) {
  size_t i;
  if (!p) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_profile_reset: p is NULL");
  for (i = 0; i < p->capacity; ++i) atomic_store(&p->ready[i], 0);
  atomic_store(&p->reserved, 0);
  atomic_store(&p->dropped, 0);
  p->origin_ns = monotonic_ns();
  return EKOC_OK;
}

uint64_t ekoc_profile_now_ns(const ekoc_profile *p) {
  uint64_t now;
  if (!p) return 0;
  now = monotonic_ns();
  return now > p->origin_ns ? now - p->origin_ns : 0;
}

int ekoc_profile_store(ekoc_profile *p, const char *name, uint64_t start_ns, uint64_t end_ns) {
  size_t slot;
  if (!p) return EKOC_OK;
  if (!name) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_profile_store: name is NULL");
  if (end_ns < start_ns)
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_profile_store: end_ns=%llu before start_ns=%llu",
                      (unsigned long long)end_ns, (unsigned long long)start_ns);
  slot = atomic_fetch_add(&p->reserved, 1);
  if (slot >= p->capacity) {
    atomic_fetch_add(&p->dropped, 1);
    return EKOC_OK;
  }
  snprintf(p->records[slot].name, sizeof p->records[slot].name, "%s", name);
  p->records[slot].start_ns = start_ns;
  p->records[slot].end_ns = end_ns;
  atomic_store(&p->ready[slot], 1);
  return EKOC_OK;
}

size_t ekoc_profile_count(const ekoc_profile *p) {
  size_t n;
  if (!p) return 0;
  n = atomic_load(&((ekoc_profile *)p)->reserved);
  return n < p->capacity ? n : p->capacity;
}

size_t ekoc_profile_dropped(const ekoc_profile *p) { return p ? atomic_load(&((ekoc_profile *)p)->dropped) : 0; }

int ekoc_profile_get(const ekoc_profile *p, size_t i, const char **name, uint64_t *start_ns, uint64_t *end_ns) {
  if (!p || !name || !start_ns || !end_ns) return ekoc_error(EKOC_ERR_NULL_POINTER, "ekoc_profile_get: NULL argument");
  if (i >= ekoc_profile_count(p) || !atomic_load(&((ekoc_profile *)p)->ready[i]))
    return ekoc_error(EKOC_ERR_INVALID_ARGUMENT, "ekoc_profile_get: record %zu does not exist (count %zu)", i,
                      ekoc_profile_count(p));
  *name = p->records[i].name;
  *start_ns = p->records[i].start_ns;
  *end_ns = p->records[i].end_ns;
  return EKOC_OK;
}
