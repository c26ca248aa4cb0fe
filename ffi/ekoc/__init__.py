"""ekoc: eko's DGLAP evolution kernel operators computed by the C library
libekoc, from Python.

    import ekoc
    sol = ekoc.solve(theory_card, operator_card)       # eko runcards (objects or dicts)
    op = sol[(mu2, nf)].operator                        # (14, nx, 14, nx), eko's flavour basis
    pdf_mu = sol[(mu2, nf)].apply(pdf_mu0)              # (14, nx) -> (14, nx)
    sol, table = ekoc.profile(theory_card, operator_card)
    ekoc.solve_to_eko(theory_card, operator_card, "eko.tar")  # streamed: a few targets in memory
    ekoc.write_lhapdf("MySet", theory_card, operator_card, replicas)  # an LHAPDF6 set, no eko needed

See ffi/README.md for the library lookup (EKOC_LIB), the eko accelerator
(``python -m ekoc.accel script.py``), the scipy LowLevelCallable
(ekoc.quad_kernel), the N-space functions (ekoc.gamma_ns, ...) and
ekoc.solve_many (many jobs on a Dask cluster).
"""

from ._cards import supported
from ._core import ProfileTable, Stage, lambert_grid
from ._dask import JobResult, TargetArrays, solve_many
from ._errors import (EkocCancelled, EkocError, EkocFieldError, EkocFieldTypeError, EkocMemoryError,
                      EkocMissingFieldError, EkocNoDevice, EkocNotImplementedError, EkocNumericalError,
                      EkocUnsupportedFieldError, EkocValueError, EkocWarning)
from ._ekofile import eko_file_metadata, solve_to_eko
from ._evolve import evolve_pdfs
from ._exportgrid import read_exportgrid, read_fit, write_exportgrid
from ._lhapdf import read_lhapdf, write_lhapdf
from ._lib import library_path
from ._nnpdf import nnpdf_cards
from ._nspace import evolution_kernel, evolution_kernel_qed, gamma_ns, gamma_singlet, matching_kernel
from ._quad import IntegrationWarning, QuadKernel, quad_kernel
from ._solve import PIDS, Cancel, Job, NSpaceCache, Solution, TargetOperator, profile, progress_bar, solve, submit
from ._stream import solve_stream

__version__ = "0.3.0"

__all__ = [
    "PIDS", "Cancel", "EkocCancelled", "EkocError", "EkocFieldError", "EkocFieldTypeError", "EkocMemoryError",
    "EkocMissingFieldError", "EkocNoDevice", "EkocNotImplementedError", "EkocNumericalError",
    "EkocUnsupportedFieldError", "EkocValueError", "EkocWarning", "IntegrationWarning", "Job", "JobResult",
    "NSpaceCache", "ProfileTable",
    "QuadKernel", "Solution", "Stage", "TargetArrays", "TargetOperator", "evolution_kernel", "evolution_kernel_qed", "gamma_ns", "gamma_singlet",
    "eko_file_metadata", "evolve_pdfs", "lambert_grid", "library_path", "matching_kernel", "nnpdf_cards", "profile",
    "progress_bar", "quad_kernel", "read_exportgrid", "read_fit", "read_lhapdf", "solve", "solve_many",
    "solve_stream", "solve_to_eko", "submit", "supported", "write_exportgrid", "write_lhapdf",
]
