/* test_thread_limit.c: issue 15, finding 3. Under an address-space limit
 * that leaves room for far fewer than 64 thread stacks, ekoc_compute with
 * n_threads = 64 must return a status (EKOC_ERR_NO_MEMORY "could not create
 * 63 threads ...") and print nothing, where libgomp alone prints "Thread
 * creation failed" and calls exit(1). The computation runs in a forked
 * child (setrlimit is per process); its own binary, so that the parent has
 * no OpenMP thread pool when it forks (libgomp's pool does not survive a
 * fork). Skipped where fork, /proc/self/status or setrlimit are missing,
 * and under AddressSanitizer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ekoc.h"

/* AddressSanitizer reserves terabytes of shadow address space and maps more
 * as it goes: an address-space limit there breaks the sanitizer, not the
 * thread creation. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

#define NX 6

static double grid[NX];
static const double mu2[1] = {10.0};

static void setup(ekoc_theory *th, ekoc_request *rq, int n_threads) {
  assert_int_equal(ekoc_grid_lambert(NX, 1e-4, grid), EKOC_OK);
  ekoc_theory_default(th);
  ekoc_request_default(rq);
  rq->mu2 = mu2;
  rq->n_targets = 1;
  rq->xgrid = grid;
  rq->nx = NX;
  rq->degree = 3;
  rq->backend = EKOC_BACKEND_BATCH;
  rq->batch_points = 8;
  rq->n_threads = n_threads;
}

/* The process's address space now (VmSize), 0 when unknown. */
static size_t vm_size(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  size_t kb = 0;
  if (!f) return 0;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "VmSize: %zu kB", &kb) == 1) break;
  fclose(f);
  return kb << 10;
}

/* Everything readable from fd until EOF into buf (NUL-terminated). */
static size_t read_all(int fd, char *buf, size_t cap) {
  size_t n = 0;
  ssize_t r;
  while (n + 1 < cap && (r = read(fd, buf + n, cap - 1 - n)) > 0) n += (size_t)r;
  buf[n] = '\0';
  return n;
}

/* The child: the address space limited to what it holds now plus 16 default
 * thread stacks, then a computation with 64 threads; its status and message
 * go to msg_fd, everything it prints to out_fd. */
static void child(int out_fd, int msg_fd, size_t limit) {
  ekoc_theory th;
  ekoc_request rq;
  ekoc_operator *op = NULL;
  struct rlimit rl;
  char msg[512];
  int rc, n;
  dup2(out_fd, STDOUT_FILENO);
  dup2(out_fd, STDERR_FILENO);
  rl.rlim_cur = rl.rlim_max = limit;
  if (setrlimit(RLIMIT_AS, &rl) != 0) _exit(4);
  setup(&th, &rq, 64);
  rc = ekoc_compute(&th, &rq, NULL, &op);
  n = snprintf(msg, sizeof msg, "%s: %s", ekoc_status_str(rc), ekoc_last_error());
  if (write(msg_fd, msg, (size_t)n) != n) _exit(5);
  if (rc == EKOC_OK) ekoc_operator_free(op);
  _exit(rc == EKOC_ERR_NO_MEMORY ? 0 : 3);
}

static void test_thread_creation_failure_is_a_status(void **state) {
  int out_pipe[2], msg_pipe[2], status = 0;
  char out[4096], msg[512];
  size_t vm = vm_size(), stack = 0;
  pthread_attr_t attr;
  pid_t pid;
  (void)state;
  if (UNDER_ASAN || vm == 0) skip();
  if (pthread_getattr_default_np(&attr) != 0) skip();
  pthread_attr_getstacksize(&attr, &stack);
  pthread_attr_destroy(&attr);
  if (getenv("OMP_STACKSIZE") || getenv("GOMP_STACKSIZE") || stack < ((size_t)1 << 20)) skip();
  assert_int_equal(pipe(out_pipe), 0);
  assert_int_equal(pipe(msg_pipe), 0);
  pid = fork();
  if (pid < 0) skip();
  if (pid == 0) {
    close(out_pipe[0]);
    close(msg_pipe[0]);
    child(out_pipe[1], msg_pipe[1], vm + 16 * stack);
  }
  close(out_pipe[1]);
  close(msg_pipe[1]);
  read_all(msg_pipe[0], msg, sizeof msg);
  read_all(out_pipe[0], out, sizeof out);
  close(out_pipe[0]);
  close(msg_pipe[0]);
  assert_int_equal(waitpid(pid, &status, 0), pid);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 4) skip(); /* no setrlimit */
  if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0))
    fail_msg("child: %s status %d, message \"%s\", printed \"%s\"", WIFEXITED(status) ? "exit" : "signal",
             WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), msg, out);
  assert_string_equal(out, ""); /* nothing printed, by the library or libgomp */
  assert_non_null(strstr(msg, "EKOC_ERR_NO_MEMORY: could not create 63 threads (n_threads=64"));
}

/* Without the limit the same request computes: the probe refuses nothing
 * the system grants. */
static void test_threads_granted(void **state) {
  ekoc_theory th;
  ekoc_request rq;
  ekoc_operator *op = NULL;
  (void)state;
  setup(&th, &rq, 64);
  assert_int_equal(ekoc_compute(&th, &rq, NULL, &op), EKOC_OK);
  ekoc_operator_free(op);
  assert_int_equal(ekoc_compute(&th, &rq, NULL, &op), EKOC_OK); /* the second probe is skipped */
  ekoc_operator_free(op);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_thread_creation_failure_is_a_status),
      cmocka_unit_test(test_threads_granted),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
