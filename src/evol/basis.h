/* basis.h (private): the flavour basis and the per-nf "intrinsic evolution"
 * bases in which segment and matching operators are block-sparse.
 *
 * Flavour basis (eko's order, by PDG id): 22, -6..-1, 21, 1..6, i.e.
 *   0 ph, 1 tbar, 2 bbar, 3 cbar, 4 sbar, 5 ubar, 6 dbar, 7 g, 8 d, 9 u, 10 s, 11 c, 12 b, 13 t.
 * Evolution basis B_nf (14 slots, eko's evolution order):
 *   0 ph, 1 Sigma, 2 g, 3 V, 4 V3, 5 V8, 6 V15, 7 V24, 8 V35, 9 T3, 10 T8, 11 T15, 12 T24, 13 T35,
 * where Sigma and V sum the nf active flavours, and the V/T slot of a
 * flavour k > nf holds that heavy flavour's q_k^- / q_k^+ instead of
 * V/T_{k^2-1} (eko's "intrinsic" basis, docs/physics.md §1.3). For nf = 6 this is
 * eko's full evolution basis. T_{k^2-1} = sum_{i<k} q_i^+ - (k-1) q_k^+ with
 * quark order (u, d, s, c, b, t).
 */
#ifndef EKOC_EVOL_BASIS_H
#define EKOC_EVOL_BASIS_H

#define EKOC_NB 14 /* size of the flavour and evolution bases */

enum {
  EKOC_SLOT_PH = 0,
  EKOC_SLOT_SIGMA = 1,
  EKOC_SLOT_G = 2,
  EKOC_SLOT_V = 3,
  EKOC_SLOT_V3 = 4, /* V_{k^2-1} slot of flavour k: EKOC_SLOT_V3 + (k-2) */
  EKOC_SLOT_T3 = 9  /* T_{k^2-1} slot of flavour k: EKOC_SLOT_T3 + (k-2) */
};

/* Slot of the V / T combination that involves quark k (k = 2..6 in (u,d,s,c,b,t) counting). */
static inline int ekoc_slot_v(int k) { return EKOC_SLOT_V3 + (k - 2); }
static inline int ekoc_slot_t(int k) { return EKOC_SLOT_T3 + (k - 2); }

/* Flavour-basis index of the gluon, photon, quark / antiquark of PDG id pid (1..6). */
#define EKOC_FLAV_PH 0
#define EKOC_FLAV_G 7
static inline int ekoc_flav_quark(int pid) { return 7 + pid; }
static inline int ekoc_flav_antiquark(int pid) { return 7 - pid; }

/* The unified evolution basis U_nf of QED evolution (eko's
 * unified_evol_basis, intrinsic: docs/physics.md §15.5), 14 slots:
 *   0 g, 1 ph, 2 Sigma, 3 Sigma_Delta, 4 V, 5 V_Delta, 6 T^d_3, 7 V^d_3, 8 T^u_3, 9 V^u_3,
 *   10 T^d_8, 11 V^d_8, 12 T^u_8, 13 V^u_8,
 * Sigma, V over the nf active flavours, Sigma_Delta = (n_d/n_u) sum_up q^+ - sum_down q^+
 * (V_Delta alike with q^-), T^d_3 = d^+ - s^+, T^u_3 = u^+ - c^+, T^d_8 = d^+ + s^+ - 2 b^+,
 * T^u_8 = u^+ + c^+ - 2 t^+ (V's with q^-); the T/V pair of a combination whose heavy
 * quark is above nf holds that quark's q^+ / q^- instead (c: 8, 9; b: 10, 11; t: 12, 13). */
enum {
  EKOC_USLOT_G = 0,
  EKOC_USLOT_PH = 1,
  EKOC_USLOT_SIGMA = 2,
  EKOC_USLOT_SDELTA = 3,
  EKOC_USLOT_V = 4,
  EKOC_USLOT_VDELTA = 5,
  EKOC_USLOT_TD3 = 6,
  EKOC_USLOT_VD3 = 7
};
/* The T (q^+) slot of the combination that involves heavy quark pid 4..6 (c, b, t): 8, 10, 12;
 * its V (q^-) slot is one more. */
static inline int ekoc_uslot_t(int pid) { return 8 + 2 * (pid - 4); }
static inline int ekoc_uslot_v(int pid) { return 9 + 2 * (pid - 4); }

/* R_nf: rows = B_nf slots, columns = flavour basis (b = R f). */
void ekoc_basis_rotation(int nf, double r[EKOC_NB][EKOC_NB]);
/* R_nf^{-1} (f = R^{-1} b). */
void ekoc_basis_rotation_inverse(int nf, double rinv[EKOC_NB][EKOC_NB]);
/* The rotation into U_nf (unified = 1) or B_nf (unified = 0), and its inverse. */
void ekoc_basis_rotation_of(int nf, int unified, double r[EKOC_NB][EKOC_NB]);
void ekoc_basis_rotation_inverse_of(int nf, int unified, double rinv[EKOC_NB][EKOC_NB]);
/* Inverts a 14x14 matrix by Gauss-Jordan elimination with partial pivoting;
 * returns 0 when singular. */
int ekoc_basis_invert(const double a[EKOC_NB][EKOC_NB], double inv[EKOC_NB][EKOC_NB]);
/* PDG id of flavour-basis index i, and eko's evolution-basis id of slot i. */
int ekoc_basis_flavor_pid(int i);
int ekoc_basis_evolution_pid(int i);

#endif
