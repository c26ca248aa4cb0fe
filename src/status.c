/* status.c: status codes, their names and the thread-local error message. */
#include "status.h"

#include <stdarg.h>
#include <stdio.h>

#include <gsl/gsl_errno.h>
#include <threads.h>

#define EKOC_ERROR_LEN 256

static _Thread_local char last_error[EKOC_ERROR_LEN];

const char *ekoc_status_str(int status) {
  switch (status) {
  case EKOC_OK: return "EKOC_OK";
  case EKOC_ERR_NULL_POINTER: return "EKOC_ERR_NULL_POINTER";
  case EKOC_ERR_INVALID_ARGUMENT: return "EKOC_ERR_INVALID_ARGUMENT";
  case EKOC_ERR_INVALID_GRID: return "EKOC_ERR_INVALID_GRID";
  case EKOC_ERR_INVALID_ORDER: return "EKOC_ERR_INVALID_ORDER";
  case EKOC_ERR_INVALID_NF: return "EKOC_ERR_INVALID_NF";
  case EKOC_ERR_INVALID_METHOD: return "EKOC_ERR_INVALID_METHOD";
  case EKOC_ERR_INVALID_SCALE: return "EKOC_ERR_INVALID_SCALE";
  case EKOC_ERR_NO_MEMORY: return "EKOC_ERR_NO_MEMORY";
  case EKOC_ERR_INTEGRATION: return "EKOC_ERR_INTEGRATION";
  case EKOC_ERR_ANOMALOUS_DIMENSION: return "EKOC_ERR_ANOMALOUS_DIMENSION";
  case EKOC_ERR_NO_DEVICE: return "EKOC_ERR_NO_DEVICE";
  case EKOC_ERR_UNSUPPORTED: return "EKOC_ERR_UNSUPPORTED";
  case EKOC_ERR_NUMERICAL: return "EKOC_ERR_NUMERICAL";
  case EKOC_ERR_INVALID_MODE: return "EKOC_ERR_INVALID_MODE";
  case EKOC_ERR_INVALID_THRESHOLDS: return "EKOC_ERR_INVALID_THRESHOLDS";
  case EKOC_ERR_BUFFER_TOO_SMALL: return "EKOC_ERR_BUFFER_TOO_SMALL";
  case EKOC_ERR_INVALID_DEGREE: return "EKOC_ERR_INVALID_DEGREE";
  case EKOC_ERR_INVALID_ITERATIONS: return "EKOC_ERR_INVALID_ITERATIONS";
  case EKOC_ERR_CANCELLED: return "EKOC_ERR_CANCELLED";
  default: return "EKOC_ERR_UNKNOWN";
  }
}

const char *ekoc_last_error(void) { return last_error; }

void ekoc_error_clear(void) { last_error[0] = '\0'; }

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
