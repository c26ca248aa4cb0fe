/* profile_stage.h (private): one line to record a stage of ekoc_compute in
 * the caller's profile (include/ekoc/profile.h; prof may be NULL). */
#ifndef EKOC_EVOL_PROFILE_STAGE_H
#define EKOC_EVOL_PROFILE_STAGE_H

#include <stdint.h>

#include "ekoc.h"

/* The stage `name` from start_ns (ekoc_profile_now_ns) to now. */
static inline void ekoc_profile_stage(ekoc_profile *prof, const char *name, uint64_t start_ns) {
  ekoc_profile_store(prof, name, start_ns, ekoc_profile_now_ns(prof));
}

#endif /* EKOC_EVOL_PROFILE_STAGE_H */
