/* status.c: status codes, their names and the thread-local error message. */
#include "status.h"

#include <stdarg.h>
#include <stdio.h>

#include <gsl/gsl_errno.h>
#include <threads.h>

static _Thread_local char last_error[EKOC_ERROR_LEN];

/* The name and the value tables, both generated from EKOC_STATUS_LIST. */
#define STATUS_NAME_CASE(name, value) \
  case name: return #name;
const char *ekoc_status_str(int status) {
  switch (status) {
  EKOC_STATUS_LIST(STATUS_NAME_CASE)
  default: return "EKOC_ERR_UNKNOWN";
  }
}
#undef STATUS_NAME_CASE

#define STATUS_VALUE(name, value) value,
static const int status_values[] = {EKOC_STATUS_LIST(STATUS_VALUE)};
#undef STATUS_VALUE

int ekoc_status_count(void) {
  int largest = 0;
  for (size_t i = 0; i < sizeof status_values / sizeof status_values[0]; ++i)
    if (status_values[i] > largest) largest = status_values[i];
  return largest + 1;
}

const char *ekoc_last_error(void) { return last_error; }

void ekoc_error_clear(void) { last_error[0] = '\0'; }

void ekoc_error_stash(ekoc_error_text *saved) { snprintf(saved->text, sizeof saved->text, "%s", last_error); }

void ekoc_error_unstash(const ekoc_error_text *saved) { snprintf(last_error, sizeof last_error, "%s", saved->text); }

int ekoc_error(int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_error, sizeof last_error, fmt, ap);
  va_end(ap);
  return status;
}

static once_flag gsl_handler_once = ONCE_FLAG_INIT;
static void switch_gsl_handler_off(void) { gsl_set_error_handler_off(); }

void ekoc_init(void) { call_once(&gsl_handler_once, switch_gsl_handler_off); }
