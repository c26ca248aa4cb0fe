/* status.h: private helpers to record the thread-local error message. */
#ifndef EKOC_STATUS_H
#define EKOC_STATUS_H

#include "ekoc.h"

/* Formats a message into the calling thread's error buffer (no allocation)
 * and returns `status`, so callers can write `return ekoc_error(...)`. */
int ekoc_error(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Clears the calling thread's error message. */
void ekoc_error_clear(void);

#endif
