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

int ekoc_basis_flavor_pid(int i) {
  static const int pids[EKOC_NB] = {22, -6, -5, -4, -3, -2, -1, 21, 1, 2, 3, 4, 5, 6};
  return (i >= 0 && i < EKOC_NB) ? pids[i] : 0;
}

int ekoc_basis_evolution_pid(int i) {
  static const int pids[EKOC_NB] = {22, 100, 21, 200, 203, 208, 215, 224, 235, 103, 108, 115, 124, 135};
  return (i >= 0 && i < EKOC_NB) ? pids[i] : 0;
}
