"""The LHA toy PDFs at mu_0^2 = 2 GeV^2 (hep-ph/0204316 eqs. 31-32,
docs/physics.md §9.1), shared by the perf scripts (eko_lha, vs_hoppet,
gen_lha_hoppet, nnpdf_cards); perf/lha.c has the C twin."""


def toy_xf(x):
    """x f(x) by PDG id (floats or numpy arrays); charm, bottom and top are 0
    and not listed."""
    xuv = 5.107200 * x**0.8 * (1 - x) ** 3
    xdv = 3.064320 * x**0.8 * (1 - x) ** 4
    xg = 1.7 * x**-0.1 * (1 - x) ** 5
    xdbar = 0.1939875 * x**-0.1 * (1 - x) ** 6
    xubar = (1 - x) * xdbar
    xs = 0.2 * (xubar + xdbar)
    return {2: xuv + xubar, -2: xubar, 1: xdv + xdbar, -1: xdbar, 3: xs, -3: xs, 21: xg}
