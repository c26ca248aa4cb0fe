/* backend_choice.c: the engine EKOC_BACKEND_AUTO runs (backend_choice.h). */
#include "evol/backend_choice.h"

#include "quad/band_plan.h"
#include "status.h"

int32_t ekoc_backend_choose(const ekoc_theory *th, const ekoc_request *rq, const ekoc_interp *ip) {
  if (rq->backend != EKOC_BACKEND_AUTO) return rq->backend;
  (void)th;
  if (ekoc_band_plan_check_grid(ip) != EKOC_OK) {
    ekoc_error_clear();
    return EKOC_BACKEND_BATCH;
  }
  return EKOC_BACKEND_NSPACE;
}
