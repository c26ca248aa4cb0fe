"""A mirror of eko's Python ``ekore`` package for what ekoc computes, so that

    import ekoc.ekore as ekore
    ekore.anomalous_dimensions.unpolarized.space_like.gamma_singlet((4, 0), n, nf, variation)

runs the code a physicist already wrote against eko, on ekoc's Rust ekore
crate. Module paths, function names, argument order, defaults and return
shapes are eko 0.15.7's (``order`` is the ``(qcd, qed)`` pair); N may also be
an array, then the result gains N's shape in front (``result[i]`` is the
value at ``N[i]``). eko's QED grids come from the ``*_qed`` functions
(``A_singlet``'s ``is_msbar`` included).

Modules: ``anomalous_dimensions.unpolarized.space_like`` (``gamma_ns``,
``gamma_singlet``, ``gamma_ns_qed``, ``gamma_singlet_qed``,
``gamma_valence_qed``), ``operator_matrix_elements.unpolarized.space_like``
(``A_singlet``, ``A_non_singlet``), their time-like counterparts
``anomalous_dimensions.unpolarized.time_like`` (``gamma_ns``,
``gamma_singlet``) and ``operator_matrix_elements.unpolarized.time_like``
(``A_singlet``, ``A_non_singlet``), and the same names under ``polarized.space_like``
for eko's polarized (helicity-difference) functions, with eko's polarized
signatures (no N3LO arguments, no ``is_msbar``).
"""

from . import anomalous_dimensions, operator_matrix_elements

__all__ = ["anomalous_dimensions", "operator_matrix_elements"]
