/* gpu_loader.c: the gpu backend entry point of libekoc. The CUDA code lives
 * in libekoc_cuda.so, loaded at run time; until that loader is written the
 * backend reports itself unavailable. */
#include "quad/job.h"
#include "status.h"

int ekoc_quad_run_gpu(const ekoc_quad_job *job, const ekoc_quad_settings *s, size_t *n_failed) {
  (void)job;
  (void)s;
  (void)n_failed;
  return ekoc_error(EKOC_ERR_NO_DEVICE, "backend gpu: libekoc_cuda.so is not part of this build");
}
