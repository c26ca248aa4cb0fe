/* basis.c: rotations between the flavour basis and the evolution bases. */
#include "evol/basis.h"

#include <math.h>
#include <string.h>

/* PDG id of the k-th quark in the (u, d, s, c, b, t) order used by T_{k^2-1}. */
static const int quark_pid_of_k[7] = {0, 2, 1, 3, 4, 5, 6};

void ekoc_basis_rotation(int nf, double r[EKOC_NB][EKOC_NB]) {
  int k, i;
  memset(r, 0, sizeof(double) * EKOC_NB * EKOC_NB);
  r[EKOC_SLOT_PH][EKOC_FLAV_PH] = 1.0;
  r[EKOC_SLOT_G][EKOC_FLAV_G] = 1.0;
  for (k = 1; k <= nf; ++k) {
    int pid = quark_pid_of_k[k];
    r[EKOC_SLOT_SIGMA][ekoc_flav_quark(pid)] = 1.0;
    r[EKOC_SLOT_SIGMA][ekoc_flav_antiquark(pid)] = 1.0;
    r[EKOC_SLOT_V][ekoc_flav_quark(pid)] = 1.0;
    r[EKOC_SLOT_V][ekoc_flav_antiquark(pid)] = -1.0;
  }
  for (k = 2; k <= 6; ++k) {
    int sv = ekoc_slot_v(k), st = ekoc_slot_t(k), pid = quark_pid_of_k[k];
    if (k <= nf) {
      /* V/T_{k^2-1} = sum_{i<k} q_i^-/+ - (k-1) q_k^-/+ */
      for (i = 1; i < k; ++i) {
        int p = quark_pid_of_k[i];
        r[sv][ekoc_flav_quark(p)] = 1.0;
        r[sv][ekoc_flav_antiquark(p)] = -1.0;
        r[st][ekoc_flav_quark(p)] = 1.0;
        r[st][ekoc_flav_antiquark(p)] = 1.0;
      }
      r[sv][ekoc_flav_quark(pid)] = -(k - 1.0);
      r[sv][ekoc_flav_antiquark(pid)] = k - 1.0;
      r[st][ekoc_flav_quark(pid)] = -(k - 1.0);
      r[st][ekoc_flav_antiquark(pid)] = -(k - 1.0);
    } else {
      /* inactive heavy flavour: its own q^- and q^+ */
      r[sv][ekoc_flav_quark(pid)] = 1.0;
      r[sv][ekoc_flav_antiquark(pid)] = -1.0;
      r[st][ekoc_flav_quark(pid)] = 1.0;
      r[st][ekoc_flav_antiquark(pid)] = 1.0;
    }
  }
}

int ekoc_basis_invert(const double a[EKOC_NB][EKOC_NB], double inv[EKOC_NB][EKOC_NB]) {
  double m[EKOC_NB][2 * EKOC_NB];
  int i, j, c;
  for (i = 0; i < EKOC_NB; ++i)
    for (j = 0; j < EKOC_NB; ++j) {
      m[i][j] = a[i][j];
      m[i][EKOC_NB + j] = i == j ? 1.0 : 0.0;
    }
  for (c = 0; c < EKOC_NB; ++c) {
    int p = c;
    double piv;
    for (i = c + 1; i < EKOC_NB; ++i)
      if (fabs(m[i][c]) > fabs(m[p][c])) p = i;
    if (m[p][c] == 0.0) return 0;
    if (p != c)
      for (j = 0; j < 2 * EKOC_NB; ++j) {
        double t = m[c][j];
        m[c][j] = m[p][j];
        m[p][j] = t;
      }
    piv = m[c][c];
    for (j = 0; j < 2 * EKOC_NB; ++j) m[c][j] /= piv;
    for (i = 0; i < EKOC_NB; ++i) {
      double f = m[i][c];
      if (i == c || f == 0.0) continue;
      for (j = 0; j < 2 * EKOC_NB; ++j) m[i][j] -= f * m[c][j];
    }
  }
  for (i = 0; i < EKOC_NB; ++i)
    for (j = 0; j < EKOC_NB; ++j) {
      double v = m[i][EKOC_NB + j];
      inv[i][j] = fabs(v) < 1e-15 ? 0.0 : v; /* exact zeros keep the result block-sparse */
    }
  return 1;
}

void ekoc_basis_rotation_inverse(int nf, double rinv[EKOC_NB][EKOC_NB]) {
  double r[EKOC_NB][EKOC_NB];
  ekoc_basis_rotation(nf, r);
  ekoc_basis_invert(r, rinv); /* R_nf is never singular: its rows are orthogonal */
}

/* Adds w q^+ (sign +1) or w q^- (sign -1) of quark pid to row `row`. */
static void add_quark(double r[EKOC_NB][EKOC_NB], int row, int pid, double w, int sign) {
  r[row][ekoc_flav_quark(pid)] += w;
  r[row][ekoc_flav_antiquark(pid)] += sign * w;
}

/* U_nf of basis.h. */
static void rotation_unified(int nf, double r[EKOC_NB][EKOC_NB]) {
  int pid, nu = nf / 2, nd = nf - nf / 2, sign;
  memset(r, 0, sizeof(double) * EKOC_NB * EKOC_NB);
  r[EKOC_USLOT_G][EKOC_FLAV_G] = 1.0;
  r[EKOC_USLOT_PH][EKOC_FLAV_PH] = 1.0;
  for (pid = 1; pid <= nf; ++pid) {
    int up = pid % 2 == 0;
    add_quark(r, EKOC_USLOT_SIGMA, pid, 1.0, 1);
    add_quark(r, EKOC_USLOT_V, pid, 1.0, -1);
    add_quark(r, EKOC_USLOT_SDELTA, pid, up ? (double)nd / nu : -1.0, 1);
    add_quark(r, EKOC_USLOT_VDELTA, pid, up ? (double)nd / nu : -1.0, -1);
  }
  for (sign = 1; sign >= -1; sign -= 2) {
    int d3 = sign > 0 ? EKOC_USLOT_TD3 : EKOC_USLOT_VD3;
    add_quark(r, d3, 1, 1.0, sign); /* d - s */
    add_quark(r, d3, 3, -1.0, sign);
    for (pid = 4; pid <= 6; ++pid) {
      int row = sign > 0 ? ekoc_uslot_t(pid) : ekoc_uslot_v(pid);
      if (pid > nf) { /* intrinsic heavy quark: its own q^+ / q^- */
        add_quark(r, row, pid, 1.0, sign);
        continue;
      }
      if (pid == 4) { /* u - c */
        add_quark(r, row, 2, 1.0, sign);
        add_quark(r, row, 4, -1.0, sign);
      } else if (pid == 5) { /* d + s - 2 b */
        add_quark(r, row, 1, 1.0, sign);
        add_quark(r, row, 3, 1.0, sign);
        add_quark(r, row, 5, -2.0, sign);
      } else { /* u + c - 2 t */
        add_quark(r, row, 2, 1.0, sign);
        add_quark(r, row, 4, 1.0, sign);
        add_quark(r, row, 6, -2.0, sign);
      }
    }
  }
}

void ekoc_basis_rotation_of(int nf, int unified, double r[EKOC_NB][EKOC_NB]) {
  if (unified)
    rotation_unified(nf, r);
  else
    ekoc_basis_rotation(nf, r);
}

void ekoc_basis_rotation_inverse_of(int nf, int unified, double rinv[EKOC_NB][EKOC_NB]) {
  double r[EKOC_NB][EKOC_NB];
  ekoc_basis_rotation_of(nf, unified, r);
  ekoc_basis_invert(r, rinv); /* U_nf is not orthogonal but never singular */
}

int ekoc_basis_flavor_pid(int i) {
  static const int pids[EKOC_NB] = {22, -6, -5, -4, -3, -2, -1, 21, 1, 2, 3, 4, 5, 6};
  return (i >= 0 && i < EKOC_NB) ? pids[i] : 0;
}

int ekoc_basis_evolution_pid(int i) {
  static const int pids[EKOC_NB] = {22, 100, 21, 200, 203, 208, 215, 224, 235, 103, 108, 115, 124, 135};
  return (i >= 0 && i < EKOC_NB) ? pids[i] : 0;
}
