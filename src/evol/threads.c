/* threads.c: the thread cap and the thread-creation probe (threads.h). */
#include <ctype.h>
#include <errno.h>
#include <omp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "evol/threads.h"
#include "status.h"

int ekoc_threads_cap(void) {
  int procs = omp_get_num_procs();
  return procs > 8 ? 8 * procs : 64;
}

int ekoc_threads_effective(int32_t n_threads) { return n_threads > 0 ? (int)n_threads : omp_get_max_threads(); }

/* libgomp's reading of a stack size: "<digits>[blank][B|K|M|G][blank]";
 * 0 when malformed, zero or too large. */
static size_t parse_stack_size(const char *text) {
  unsigned long long value;
  char *end;
  int shift = 10; /* kilobytes when no suffix */
  if (!text) return 0;
  while (isspace((unsigned char)*text)) ++text;
  if (!isdigit((unsigned char)*text)) return 0;
  errno = 0;
  value = strtoull(text, &end, 10);
  if (errno != 0 || value == 0) return 0;
  while (isspace((unsigned char)*end)) ++end;
  switch (tolower((unsigned char)*end)) {
  case 'b': shift = 0; ++end; break;
  case 'k': shift = 10; ++end; break;
  case 'm': shift = 20; ++end; break;
  case 'g': shift = 30; ++end; break;
  case '\0': break;
  default: return 0;
  }
  while (isspace((unsigned char)*end)) ++end;
  if (*end != '\0' || value > (SIZE_MAX >> shift)) return 0;
  return (size_t)value << shift;
}

size_t ekoc_threads_stack_size(const char *omp_stacksize, const char *gomp_stacksize) {
  size_t s = parse_stack_size(omp_stacksize);
  return s ? s : parse_stack_size(gomp_stacksize);
}

/* The probe's threads wait for `release`, so that all n - 1 exist at once. */
typedef struct probe_gate {
  pthread_mutex_t mutex;
  pthread_cond_t cond;
  int release;
} probe_gate;

static void *probe_worker(void *arg) {
  probe_gate *g = arg;
  pthread_mutex_lock(&g->mutex);
  while (!g->release) pthread_cond_wait(&g->cond, &g->mutex);
  pthread_mutex_unlock(&g->mutex);
  return NULL;
}

/* The largest team the calling thread has probed: libgomp keeps a pool per
 * thread that starts parallel regions, so a team that fitted once is held. */
static _Thread_local int probed_team = 1;

int ekoc_threads_probe(int n) {
  probe_gate gate;
  pthread_attr_t attr;
  pthread_t *ids;
  size_t stack, stack_used = 0;
  int created = 0, err = 0, i;
  if (n <= probed_team) return EKOC_OK;
  ids = malloc((size_t)(n - 1) * sizeof *ids);
  if (!ids) return ekoc_error(EKOC_ERR_NO_MEMORY, "could not create %d threads (out of memory for their ids)", n - 1);
  if (pthread_attr_init(&attr) != 0) {
    free(ids);
    return ekoc_error(EKOC_ERR_NO_MEMORY, "could not create %d threads (pthread_attr_init failed)", n - 1);
  }
  stack = ekoc_threads_stack_size(getenv("OMP_STACKSIZE"), getenv("GOMP_STACKSIZE"));
  if (stack) pthread_attr_setstacksize(&attr, stack); /* refused sizes: libgomp keeps the default too */
  pthread_attr_getstacksize(&attr, &stack_used);
  pthread_mutex_init(&gate.mutex, NULL);
  pthread_cond_init(&gate.cond, NULL);
  gate.release = 0;
  while (created < n - 1) {
    err = pthread_create(&ids[created], &attr, probe_worker, &gate);
    if (err != 0) break;
    ++created;
  }
  pthread_mutex_lock(&gate.mutex);
  gate.release = 1;
  pthread_cond_broadcast(&gate.cond);
  pthread_mutex_unlock(&gate.mutex);
  for (i = 0; i < created; ++i) pthread_join(ids[i], NULL);
  pthread_cond_destroy(&gate.cond);
  pthread_mutex_destroy(&gate.mutex);
  pthread_attr_destroy(&attr);
  free(ids);
  if (err != 0) {
    char buf[96];
    const char *why = strerror_r(err, buf, sizeof buf); /* the GNU variant (_GNU_SOURCE) */
    return ekoc_error(EKOC_ERR_NO_MEMORY,
                      "could not create %d threads (n_threads=%d; thread %d failed: %s; %zu KB stacks%s): lower "
                      "request.n_threads or OMP_STACKSIZE, or raise the address-space limit",
                      n - 1, n, created + 1, why, stack_used >> 10, stack ? " from OMP_STACKSIZE" : "");
  }
  probed_team = n;
  return EKOC_OK;
}
