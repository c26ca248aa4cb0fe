/* status.h: private helpers to record the thread-local error message. */
#ifndef EKOC_STATUS_H
#define EKOC_STATUS_H

#include "ekoc.h"

/* Formats a message into the calling thread's error buffer (no allocation)
 * and returns `status`, so callers can write `return ekoc_error(...)`. */
int ekoc_error(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Clears the calling thread's error message. */
void ekoc_error_clear(void);

/* A copy of the calling thread's error message, put back by
 * ekoc_error_unstash: around work whose failures are not the caller's (a
 * probe whose failure only means "not precomputed"), so that a call that
 * succeeds leaves the message of the last error the caller saw. */
#define EKOC_ERROR_LEN 256
typedef struct {
  char text[EKOC_ERROR_LEN];
} ekoc_error_text;
void ekoc_error_stash(ekoc_error_text *saved);
void ekoc_error_unstash(const ekoc_error_text *saved);

#endif
