"""The N3LO anomalous-dimension set a theory card asks for (docs/physics.md,
"N3LO anomalous dimensions"): eko's `use_fhmruvv` (True, eko's default: the
FHMRUVV parametrisations as of 2024; False: eko's own approximation), or ekoc's
own key `n3lo_ad_set`, which also offers the 2512 set (arXiv:2512.10783, HOPPET's
`n3lo_splitting_approximation_up_to_2512`):

    n3lo_ad_set: "fhmruvv2024" | "eko" | "2512"

Without `n3lo_ad_set` nothing changes (eko's cards, eko's default). With both keys
they must agree: "eko" goes with use_fhmruvv False, the other two with True.
The result is the C library's number (theory.use_fhmruvv): 0 eko, 1 FHMRUVV 2024,
2 the 2512 set.
"""

from __future__ import annotations

from typing import Any, Mapping

from . import _fields as F
from ._errors import EkocFieldError

#: n3lo_ad_set's names and the C library's numbers (ekoc_theory.use_fhmruvv)
N3LO_AD_SETS = {"eko": 0, "fhmruvv2024": 1, "2512": 2}
N3LO_AD_SET_NAMES = {v: k for k, v in N3LO_AD_SETS.items()}


def n3lo_set(th: Mapping[str, Any]) -> int:
    """theory.use_fhmruvv (0, 1, 2) from a theory card's use_fhmruvv / n3lo_ad_set."""
    flag = None
    if th.get("use_fhmruvv") is not None:
        flag = int(F.flag(th["use_fhmruvv"], "theory_card.use_fhmruvv"))
    name = th.get("n3lo_ad_set")
    if name is None:
        return 1 if flag is None else flag
    if not isinstance(name, str) or name not in N3LO_AD_SETS:
        raise EkocFieldError("theory_card.n3lo_ad_set", name,
                             f"is not one of {', '.join(repr(k) for k in N3LO_AD_SETS)}")
    index = N3LO_AD_SETS[name]
    if flag is not None and flag != min(index, 1):
        raise EkocFieldError("theory_card.use_fhmruvv", bool(flag),
                             f"contradicts theory_card.n3lo_ad_set = {name!r} (which wants use_fhmruvv = "
                             f"{bool(min(index, 1))} or no use_fhmruvv)")
    return index
