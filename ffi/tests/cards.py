"""Small eko runcards shared by the ekoc-vs-eko tests, the reference
generator (gen_eko_reference.py) and perf/vs_eko.py.

Every card is a pair of plain dicts with exactly the fields of eko 0.15's
TheoryCard / OperatorCard (scales linear, in GeV), so it feeds both
``eko.TheoryCard.from_dict`` and ``ekoc.solve`` unchanged. Grids are small
(15 points, degree 4) to keep eko's runtime in minutes.
"""

import copy
import math

NX = 15
XMIN = 1e-4
SQRT2 = math.sqrt(2.0)


def lambert_grid(n=NX, xmin=XMIN):
    """eko's lambertgrid(n, xmin) computed here so the cards need no eko import:
    y(x) = 5(1-x) - ln x, n points y_i equally spaced from y(xmin) to 0,
    x_i = W0(5 e^(5 - y_i)) / 5 (arXiv:2008.12789 eq. 2.11)."""
    from scipy.special import lambertw

    ymin = 5.0 * (1.0 - xmin) - math.log(xmin)
    out = []
    for i in range(n):
        y = ymin + (0.0 - ymin) * i / (n - 1)
        out.append(float(lambertw(5.0 * math.exp(5.0 - y)).real / 5.0))
    out[-1] = 1.0
    return out


def _theory(order, *, xif=1.0, ffns=False):
    th = dict(
        order=[order, 0],
        couplings=dict(alphas=0.118, alphaem=0.007496252, ref=[91.2, 5], em_running=False),
        heavy=dict(
            masses=[[1.51, math.nan], [4.92, math.nan], [172.5, math.nan]],
            masses_scheme="pole",
            matching_ratios=[1.0, 1.0, 1.0],
        ),
        xif=xif,
        n3lo_ad_variation=[0, 0, 0, 0, 0, 0, 0],
        use_fhmruvv=True,
        matching_order=[order - 1, 0],
    )
    if ffns:  # LHA-style FFNS with 4 flavours: c below every scale, b and t never reached
        th["couplings"] = dict(alphas=0.35, alphaem=0.007496252, ref=[SQRT2, 4], em_running=False)
        th["heavy"]["masses"] = [[SQRT2, math.nan], [4.5, math.nan], [175.0, math.nan]]
        th["heavy"]["matching_ratios"] = [0.0, math.inf, math.inf]
    return th


def _n3lo(*, use_fhmruvv=True, variation=(0, 0, 0, 0, 0, 0, 0), xif=1.0):
    """An aN3LO theory as NNPDF's (matching_order [3, 0], pineko's default at N3LO)."""
    th = _theory(4, xif=xif)
    th["matching_order"] = [3, 0]
    th["use_fhmruvv"] = use_fhmruvv
    th["n3lo_ad_variation"] = list(variation)
    return th


def _n3lo_ffns():
    """The LHA-style FFNS (nf = 4) at aN3LO."""
    th = _theory(4, ffns=True)
    th["matching_order"] = [3, 0]
    return th


def _operator(init, mugrid, *, method="iterate-exact", scvar=None, inversion=None, nx=NX):
    return dict(
        init=list(init),
        mugrid=[list(m) for m in mugrid],
        xgrid=lambert_grid(nx),
        configs=dict(
            evolution_method=method,
            ev_op_max_order=[10, 0],
            ev_op_iterations=10,
            scvar_method=scvar,
            inversion_method=inversion,
            interpolation_polynomial_degree=4,
            interpolation_is_log=True,
            polarized=False,
            time_like=False,
            n_integration_cores=1,
        ),
        debug=dict(skip_singlet=False, skip_non_singlet=False),
    )


def _qed(order, qed, *, em_running=True, xif=1.0):
    """QCD x QED as NNPDF4.0QED: alpha_em(91.2) = 0.0077553 (running when the
    reference scale is the QCD one, eko's em_running)."""
    th = _theory(order, xif=xif) if order < 4 else _n3lo(xif=xif)
    th["order"] = [order, qed]
    th["couplings"]["alphaem"] = 0.0077553
    th["couplings"]["em_running"] = em_running
    return th


def _msbar(order, xif=1.0):
    """MSbar masses as eko takes them, [m(mu_ref), mu_ref]: m_c(10) = 0.95,
    m_b(10) = 3.6, m_t(100) = 165 (alpha_s given with nf = 5 at 91.2 GeV; eko's
    msbar_masses.compute puts m(m) at about 1.43, 4.14, 158.9 GeV at NNLO)."""
    th = _theory(order, xif=xif)
    th["heavy"]["masses"] = [[0.95, 10.0], [3.6, 10.0], [165.0, 100.0]]
    th["heavy"]["masses_scheme"] = "msbar"
    return th


def _axis(operator, *, polarized=False, time_like=False):
    """An operator card of eko's polarized or time-like evolution."""
    operator["configs"]["polarized"] = polarized
    operator["configs"]["time_like"] = time_like
    return operator


# name -> (theory dict, operator dict, what it covers)
CARDS = {
    "lo_ffns": (_theory(1, ffns=True), _operator((SQRT2, 4), [(100.0, 4)]), "LO, FFNS nf=4, iterate-exact"),
    "nlo_vfns": (_theory(2), _operator((1.65, 4), [(10.0, 5), (100.0, 5)]),
                 "NLO, VFNS across the b threshold, two targets sharing a part, iterate-exact"),
    "nlo_vfns_truncated": (_theory(2), _operator((1.65, 4), [(10.0, 5)], method="truncated"),
                           "NLO, VFNS, truncated solution"),
    "nnlo_vfns": (_theory(3), _operator((1.65, 4), [(10.0, 5)]), "NNLO, VFNS with NNLO matching, iterate-exact"),
    "nnlo_ffns_perturbative": (_theory(3, ffns=True),
                               _operator((SQRT2, 4), [(100.0, 4)], method="perturbative-exact"),
                               "NNLO, FFNS nf=4, perturbative-exact"),
    "nlo_sv_exponentiated": (_theory(2, xif=SQRT2), _operator((1.65, 4), [(10.0, 5)], scvar="exponentiated"),
                             "NLO, VFNS, xif=sqrt2 exponentiated"),
    "nnlo_sv_expanded": (_theory(3, xif=1.0 / SQRT2), _operator((1.65, 4), [(10.0, 5)], scvar="expanded"),
                         "NNLO, VFNS, xif=1/sqrt2 expanded"),
    "nlo_backward_exact": (_theory(2), _operator((10.0, 5), [(2.0, 4)], inversion="exact"),
                           "NLO, VFNS downward across the b threshold, exact backward matching"),
    "n3lo_vfns": (_n3lo(), _operator((1.65, 4), [(10.0, 5)]),
                  "aN3LO (FHMRUVV), VFNS with N3LO matching, iterate-exact"),
    "n3lo_vfns_truncated_variation": (_n3lo(use_fhmruvv=False, variation=(3, 4, 1, 2, 1, 0, 2)),
                                      _operator((1.65, 4), [(10.0, 5)], method="truncated"),
                                      "aN3LO (eko's own approximation, varied), VFNS, truncated"),
    "n3lo_sv_expanded": (_n3lo(xif=1.0 / SQRT2, variation=(1, 2, 0, 1, 2, 1, 0)),
                         _operator((1.65, 4), [(10.0, 5)], method="truncated", scvar="expanded"),
                         "aN3LO (FHMRUVV, varied), VFNS, truncated, xif=1/sqrt2 expanded"),
    "n3lo_backward_expanded": (_n3lo(), _operator((10.0, 5), [(2.0, 4)], inversion="expanded"),
                               "aN3LO, VFNS downward across the b threshold, expanded backward matching"),
    "n3lo_sv_exponentiated": (_n3lo(use_fhmruvv=False, xif=SQRT2, variation=(11, 7, 3, 5, 0, 0, 0)),
                              _operator((1.65, 4), [(10.0, 5)], scvar="exponentiated"),
                              "aN3LO (eko's own approximation, varied), VFNS, xif=sqrt2 exponentiated"),
    "n3lo_ffns_perturbative": (_n3lo_ffns(), _operator((SQRT2, 4), [(100.0, 4)], method="perturbative-exact"),
                               "aN3LO (FHMRUVV), FFNS nf=4, perturbative-exact"),
    "qed_nnlo_running": (_qed(3, 2), _operator((1.65, 4), [(10.0, 5), (100.0, 5)]),
                         "NNLO x QED a_em^2, alpha_em running, VFNS across m_tau and the b threshold"),
    "qed_nlo_fixed": (_qed(2, 1, em_running=False), _operator((1.65, 4), [(10.0, 5)]),
                      "NLO x QED a_em, alpha_em fixed, VFNS"),
    "qed_lo_ffns": (_qed(1, 2), _operator((1.65, 4), [(100.0, 4)]),
                    "LO x QED a_em^2, alpha_em running, nf=4 forced above the b threshold"),
    "qed_nlo_backward": (_qed(2, 2), _operator((10.0, 5), [(2.0, 4)], inversion="exact"),
                         "NLO x QED a_em^2, downward across the b threshold, exact backward matching"),
    "qed_n3lo_running": (_qed(4, 2), _operator((1.65, 4), [(10.0, 5)]),
                         "aN3LO x QED a_em^2 (NNPDF4.0 aN3LO QED), alpha_em running, VFNS"),
    "qed_nnlo_sv_expanded": (_qed(3, 2, xif=1.0 / SQRT2), _operator((1.65, 4), [(10.0, 5)], scvar="expanded"),
                             "NNLO x QED a_em^2, running, xif=1/sqrt2 expanded"),
    "qed_nlo_sv_exponentiated": (_qed(2, 2, xif=SQRT2), _operator((1.65, 4), [(10.0, 5)], scvar="exponentiated"),
                                 "NLO x QED a_em^2, running, xif=sqrt2 exponentiated"),
    "pol_nlo_vfns": (_theory(2), _axis(_operator((1.65, 4), [(10.0, 5), (100.0, 5)]), polarized=True),
                     "polarized NLO, VFNS across the b threshold, iterate-exact"),
    "pol_nnlo_vfns": (_theory(3), _axis(_operator((1.65, 4), [(10.0, 5)]), polarized=True),
                      "polarized NNLO, VFNS with O(a_s^2) polarized matching, iterate-exact"),
    "pol_nnlo_truncated_sv": (_theory(3, xif=1.0 / SQRT2),
                              _axis(_operator((1.65, 4), [(10.0, 5)], method="truncated", scvar="expanded"),
                                    polarized=True),
                              "polarized NNLO, truncated, xif=1/sqrt2 expanded"),
    "pol_nlo_backward": (_theory(2), _axis(_operator((10.0, 5), [(2.0, 4)], inversion="exact"), polarized=True),
                         "polarized NLO, downward across the b threshold, exact backward matching"),
    "tl_nlo_vfns": (_theory(2), _axis(_operator((1.65, 4), [(10.0, 5), (100.0, 5)]), time_like=True),
                    "time-like NLO, VFNS across the b threshold, iterate-exact"),
    "tl_nnlo_vfns": (_theory(3), _axis(_operator((1.65, 4), [(10.0, 5)]), time_like=True),
                     "time-like NNLO, VFNS (eko's time-like O(a_s^2) matching is zero), iterate-exact"),
    "tl_nlo_sv_exponentiated": (_theory(2, xif=SQRT2),
                                _axis(_operator((1.65, 4), [(10.0, 5)], scvar="exponentiated"), time_like=True),
                                "time-like NLO, xif=sqrt2 exponentiated"),
    "tl_nnlo_backward": (_theory(3), _axis(_operator((10.0, 5), [(2.0, 4)], inversion="expanded",
                                                     method="perturbative-exact"), time_like=True),
                         "time-like NNLO, perturbative-exact, downward across b, expanded backward matching"),
    "msbar_lo_vfns": (_msbar(1), _operator((1.2, 3), [(10.0, 5), (1.1, 3)], inversion="exact"),
                      "LO, MSbar masses (LO running), VFNS up across c and b and back below c"),
    "msbar_nnlo_vfns": (_msbar(3), _operator((1.2, 3), [(10.0, 5), (200.0, 6)]),
                        "NNLO, MSbar masses, VFNS up across the c, b and t thresholds, iterate-exact"),
    "msbar_nnlo_backward": (_msbar(3), _operator((10.0, 5), [(1.2, 3)], inversion="exact"),
                            "NNLO, MSbar masses, downward across the b and c thresholds, exact backward matching"),
    "msbar_nlo_expanded": (_msbar(2), _operator((1.2, 3), [(10.0, 5)], method="truncated"),
                           "NLO, MSbar masses (expanded running: truncated solution), VFNS up across c and b"),
    "msbar_nlo_sv_exponentiated": (_msbar(2, xif=SQRT2), _operator((1.2, 3), [(10.0, 5)], scvar="exponentiated"),
                                   "NLO, MSbar masses (m(m) with xif^2), xif=sqrt2 exponentiated, up across c and b"),
    "msbar_nnlo_sv_expanded": (_msbar(3, xif=1.0 / SQRT2), _operator((10.0, 5), [(1.2, 3)], method="truncated",
                                                                     scvar="expanded", inversion="expanded"),
                               "NNLO, MSbar masses, xif=1/sqrt2 expanded, truncated, down across b and c"),
}


def card(name):
    """Deep copies of the (theory, operator) dicts of a card."""
    th, op, _ = CARDS[name]
    return copy.deepcopy(th), copy.deepcopy(op)
