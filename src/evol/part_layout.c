/* part_layout.c: the elements of a part and their blocks (part_layout.h). */
#include "evol/part_layout.h"

#include <math.h>

#include "ad/nspace.h"

int ekoc_part_elements(const ekoc_plan_job *j, ekoc_element_map *m) {
  int n = 0, e;
  if (!j->is_matching && ekoc_nspace_is_qed(&j->family[0])) {
    /* job family 0: ns+u, ns+d, ns-u, ns-d, valence 2x2; family 1: the singlet 4x4 */
    for (e = 0; e < 8; ++e) m[n++] = (ekoc_element_map){0, e, e < 4 || e == 4 || e == 7};
    for (e = 0; e < 16; ++e) m[n++] = (ekoc_element_map){1, e, e % 5 == 0};
    return n;
  }
  if (!j->is_matching) {
    int order = j->family[0].order;
    for (e = 0; e < order && e < 3; ++e) m[n++] = (ekoc_element_map){EKOC_FAMILY_NS, e, 1};
    for (e = 0; e < 4; ++e) m[n++] = (ekoc_element_map){EKOC_FAMILY_SINGLET, e, e == 0 || e == 3};
  } else {
    m[n++] = (ekoc_element_map){EKOC_FAMILY_NS, 0, 1};
    m[n++] = (ekoc_element_map){EKOC_FAMILY_NS, 1, 1};
    for (e = 0; e < 9; ++e) m[n++] = (ekoc_element_map){EKOC_FAMILY_SINGLET, e, e == 0 || e == 4 || e == 8};
  }
  return n;
}

static void place(ekoc_part_layout *pl, int a, int b, int e) {
  pl->a[pl->n] = a;
  pl->b[pl->n] = b;
  pl->e[pl->n++] = e;
}

/* Slots of a matching singlet index (g, q, H) for heavy quark hq. */
static int matching_singlet_slot(int idx, int hq) {
  return idx == 0 ? EKOC_SLOT_G : idx == 1 ? EKOC_SLOT_SIGMA : ekoc_slot_t(hq);
}

/* An evolution segment in B_nf: non-singlets on the diagonal (heavy
 * flavours above nf with the identity), the singlet 2x2 on (Sigma, g). */
static void segment(int nf, const ekoc_element_map *m, int n, ekoc_part_layout *pl) {
  int k, e;
  /* non-singlet: index of the distinct element holding ns+, ns-, nsV */
  int idx[3] = {0, 0, 0}, ns_count = 0;
  for (e = 0; e < n; ++e)
    if (m[e].family == EKOC_FAMILY_NS) ++ns_count;
  idx[1] = ns_count >= 2 ? 1 : 0;
  idx[2] = ns_count >= 3 ? 2 : idx[1];
  place(pl, EKOC_SLOT_V, EKOC_SLOT_V, idx[2]);
  for (k = 2; k <= 6; ++k) {
    int inside = k <= nf; /* intrinsic heavy flavours evolve with the identity */
    place(pl, ekoc_slot_v(k), ekoc_slot_v(k), inside ? idx[1] : EKOC_PART_IDENTITY);
    place(pl, ekoc_slot_t(k), ekoc_slot_t(k), inside ? idx[0] : EKOC_PART_IDENTITY);
  }
  place(pl, EKOC_SLOT_SIGMA, EKOC_SLOT_SIGMA, ns_count + 0);
  place(pl, EKOC_SLOT_SIGMA, EKOC_SLOT_G, ns_count + 1);
  place(pl, EKOC_SLOT_G, EKOC_SLOT_SIGMA, ns_count + 2);
  place(pl, EKOC_SLOT_G, EKOC_SLOT_G, ns_count + 3);
}

/* The matching nf -> nf+1 in B_nf: light non-singlets, the heavy valence
 * and the 3x3 singlet (g, Sigma, T_hq). */
static void matching(int nf, ekoc_part_layout *pl) {
  int hq = nf + 1, k, e;
  /* light non-singlets and the valence get the (200,200) element, h- the (91,91) one */
  place(pl, EKOC_SLOT_V, EKOC_SLOT_V, 0);
  for (k = 2; k <= nf; ++k) {
    place(pl, ekoc_slot_v(k), ekoc_slot_v(k), 0);
    place(pl, ekoc_slot_t(k), ekoc_slot_t(k), 0);
  }
  place(pl, ekoc_slot_v(hq), ekoc_slot_v(hq), 1);
  for (k = hq + 1; k <= 6; ++k) {
    place(pl, ekoc_slot_v(k), ekoc_slot_v(k), EKOC_PART_IDENTITY);
    place(pl, ekoc_slot_t(k), ekoc_slot_t(k), EKOC_PART_IDENTITY);
  }
  for (e = 0; e < 9; ++e) place(pl, matching_singlet_slot(e / 3, hq), matching_singlet_slot(e % 3, hq), 2 + e);
}

/* A QED segment in U_nf (evol/basis.h): the singlet 4x4 on (g, ph, Sigma,
 * Sigma_Delta), the valence 2x2 on (V, V_Delta), ns+d / ns-d on T^d_3,
 * V^d_3 (and T^d_8, V^d_8 from nf 5), ns+u / ns-u on T^u_3, V^u_3 from nf 4
 * (T^u_8, V^u_8 at nf 6); intrinsic heavy flavours with the identity. */
static void segment_qed(int nf, ekoc_part_layout *pl) {
  int e, pid;
  place(pl, EKOC_USLOT_TD3, EKOC_USLOT_TD3, 1);
  place(pl, EKOC_USLOT_VD3, EKOC_USLOT_VD3, 3);
  for (pid = 4; pid <= 6; ++pid) {
    int t = ekoc_uslot_t(pid), v = ekoc_uslot_v(pid), up = pid % 2 == 0, inside = pid <= nf;
    place(pl, t, t, inside ? (up ? 0 : 1) : EKOC_PART_IDENTITY);
    place(pl, v, v, inside ? (up ? 2 : 3) : EKOC_PART_IDENTITY);
  }
  for (e = 0; e < 4; ++e) place(pl, EKOC_USLOT_V + e / 2, EKOC_USLOT_V + e % 2, 4 + e);
  for (e = 0; e < 16; ++e) /* (g, ph, Sigma, Sigma_Delta) are the slots 0..3 */
    place(pl, EKOC_USLOT_G + e / 4, EKOC_USLOT_G + e % 4, 8 + e);
}

/* Slots of a matching singlet index (g, q, H) for heavy quark hq in U_nf. */
static int matching_singlet_uslot(int idx, int hq) {
  return idx == 0 ? EKOC_USLOT_G : idx == 1 ? EKOC_USLOT_SIGMA : ekoc_uslot_t(hq);
}

/* The matching nf -> nf+1 with QED in U_nf (eko's QED matching condition):
 * the QCD matching with the light non-singlet element also on Sigma_Delta,
 * V_Delta and the active T/V pairs, the photon with the identity. */
static void matching_qed(int nf, ekoc_part_layout *pl) {
  int hq = nf + 1, pid, e;
  static const int light[4] = {EKOC_USLOT_V, EKOC_USLOT_SDELTA, EKOC_USLOT_VDELTA, EKOC_USLOT_TD3};
  for (e = 0; e < 4; ++e) place(pl, light[e], light[e], 0);
  place(pl, EKOC_USLOT_VD3, EKOC_USLOT_VD3, 0);
  place(pl, EKOC_USLOT_PH, EKOC_USLOT_PH, EKOC_PART_IDENTITY);
  for (pid = 4; pid <= 6; ++pid) {
    int t = ekoc_uslot_t(pid), v = ekoc_uslot_v(pid);
    if (pid <= nf) {
      place(pl, t, t, 0);
      place(pl, v, v, 0);
    } else if (pid > hq) {
      place(pl, t, t, EKOC_PART_IDENTITY);
      place(pl, v, v, EKOC_PART_IDENTITY);
    }
  }
  place(pl, ekoc_uslot_v(hq), ekoc_uslot_v(hq), 1);
  for (e = 0; e < 9; ++e) place(pl, matching_singlet_uslot(e / 3, hq), matching_singlet_uslot(e % 3, hq), 2 + e);
}

void ekoc_part_layout_of(const ekoc_plan_job *j, int unified, const ekoc_element_map *m, int n,
                         ekoc_part_layout *out) {
  out->n = 0;
  if (unified)
    j->is_matching ? matching_qed(j->nf, out) : segment_qed(j->nf, out);
  else
    j->is_matching ? matching(j->nf, out) : segment(j->nf, m, n, out);
}

int ekoc_part_probe_family(const ekoc_nspace_config *cfg, ekoc_part_probe *probe) {
  static const double at[EKOC_PART_PROBES][2] = {{2.3, 0.7}, {3.1, -2.9}, {5.7, 11.3}};
  int i, rc = EKOC_OK;
  for (i = 0; i < EKOC_PART_PROBES && rc == EKOC_OK; ++i)
    rc = ekoc_nspace_eval(cfg, c_make(at[i][0], at[i][1]), probe->v[i]);
  probe->done = rc == EKOC_OK;
  return rc;
}

int ekoc_part_probe_constant(const ekoc_part_probe *probe, int e, double *c) {
  int i;
  for (i = 0; i < EKOC_PART_PROBES; ++i) /* NaN compares unequal to nothing below: leave such an element to the
                                           * quadrature, which reports it */
    if (!isfinite(probe->v[i][e].re) || !isfinite(probe->v[i][e].im)) return 0;
  for (i = 1; i < EKOC_PART_PROBES; ++i) {
    double scale = fmax(1.0, c_abs(probe->v[0][e]));
    if (c_abs(c_sub(probe->v[i][e], probe->v[0][e])) > 1e-14 * scale) return 0;
  }
  if (fabs(probe->v[0][e].im) > 1e-14 * fmax(1.0, fabs(probe->v[0][e].re))) return 0;
  *c = probe->v[0][e].re;
  return 1;
}

int ekoc_part_element_constant(const ekoc_nspace_config *cfg, ekoc_part_probe *probe, int e, double *c, int *rc) {
  *rc = probe->done ? EKOC_OK : ekoc_part_probe_family(cfg, probe);
  return *rc == EKOC_OK && ekoc_part_probe_constant(probe, e, c);
}
