"""Bad input raises Python exceptions carrying the C library's message;
features ekoc lacks raise NotImplementedError naming the card field; nothing
crashes the interpreter (the crash-prone calls run in a subprocess too)."""

import copy
import math
import subprocess
import sys

import numpy as np
import pytest

import cards
import ekoc


def _cards(name="lo_ffns"):
    return cards.card(name)


@pytest.mark.parametrize(
    "edit,field",
    [
        (lambda th, op: (th.update(order=[2, 1]), op["configs"].update(evolution_method="truncated")),
         "operator_card.configs.evolution_method"),  # QED: iterate-exact only, as eko
        (lambda th, op: th.update(matching_order=[0, 1]), "theory_card.matching_order[1]"),
        (lambda th, op: op["configs"].update(polarized=True, time_like=True), "operator_card.configs.time_like"),
        (lambda th, op: (op["configs"].update(polarized=True), th.update(order=[4, 0])), "theory_card.order[0]"),
        (lambda th, op: op["debug"].update(skip_singlet=True), "operator_card.debug.skip_singlet"),
        (lambda th, op: op.update(mugrid=[[1.0, 3]]), "operator_card.configs.inversion_method"),
        (lambda th, op: th.update(intrinsic_flavors=[4]), "theory_card.intrinsic_flavors"),
    ],
)
def test_unsupported_features_name_the_field(edit, field):
    th, op = _cards("nlo_vfns")
    edit(th, op)
    with pytest.raises(NotImplementedError, match=field.replace("[", r"\[").replace("]", r"\]")):
        ekoc.solve(th, op)
    ok, why = ekoc.supported(th, op)
    assert not ok and field in why


@pytest.mark.parametrize(
    "edit,cls,pattern",
    [
        (lambda th, op: op.update(init=[1.65, 7]), ekoc.EkocValueError, "nf0=7"),
        (lambda th, op: op.update(mugrid=[[10.0, 2]]), ekoc.EkocValueError, r"nf\[0\]=2"),
        (lambda th, op: th["couplings"].update(alphas=math.nan), ekoc.EkocValueError, "alphas"),
        (lambda th, op: th["couplings"].update(ref=[-1.0, 4]), ValueError, r"ref\[0\]=-1.0"),
        (lambda th, op: (th.update(xif=-1.0), op["configs"].update(scvar_method="expanded")), ekoc.EkocValueError,
         "xif=-1"),
        (lambda th, op: op.update(xgrid=[0.1, 0.1, 0.5, 1.0]), ekoc.EkocValueError, "strictly ascending"),
        (lambda th, op: op.update(xgrid=[0.0, 0.1, 0.5, 1.0]), ekoc.EkocValueError, "xgrid"),
        (lambda th, op: op["configs"].update(interpolation_polynomial_degree=40), ekoc.EkocValueError, "degree"),
        (lambda th, op: op["configs"].update(ev_op_iterations=0), ekoc.EkocValueError, "ev_op_iterations"),
        (lambda th, op: th["heavy"].update(masses=[[5.0, math.nan], [4.5, math.nan], [175.0, math.nan]]),
         ekoc.EkocValueError, "ascending"),
    ],
)
def test_bad_input_carries_the_c_message(edit, cls, pattern):
    th, op = _cards()
    edit(th, op)
    with pytest.raises(cls, match=pattern) as info:
        ekoc.solve(th, op)
    err = info.value
    assert isinstance(err, ValueError)
    if isinstance(err, ekoc.EkocError):  # from the C library: its status and message
        assert err.status_name.startswith("EKOC_ERR_") and err.message and err.message in str(err)


def test_malformed_cards():
    th, op = _cards()
    with pytest.raises(ValueError, match="unknown field"):
        ekoc.solve({**th, "PTO": 1}, op)
    with pytest.raises(KeyError, match="theory_card.order"):
        ekoc.solve({k: v for k, v in th.items() if k != "order"}, op)
    with pytest.raises(ValueError, match="evolution_method"):
        op["configs"]["evolution_method"] = "magic"
        ekoc.solve(th, op)
    with pytest.raises(TypeError):
        ekoc.solve(42, op)


def test_bad_call_arguments():
    th, op = _cards()
    with pytest.raises(ValueError, match="backend"):
        ekoc.solve(th, op, backend="quantum")
    with pytest.raises(TypeError, match="unknown option"):
        ekoc.solve(th, op, tolerance=3)
    with pytest.raises(ekoc.EkocValueError, match="limit"):
        ekoc.solve(th, op, limit=0)
    sol = ekoc.solve(th, op)
    t = sol[sol.targets[0]]
    with pytest.raises(ValueError, match="shape"):
        t.apply(np.ones((13, len(sol.xgrid))))
    with pytest.raises(ValueError, match="unknown pid"):
        t.apply({7: np.ones(len(sol.xgrid))})
    with pytest.raises(ekoc.EkocValueError, match="not finite"):
        t.apply(np.full((14, len(sol.xgrid)), np.nan))


def test_gpu_backend_without_device_is_a_clean_error():
    th, op = _cards()
    try:
        sol = ekoc.solve(th, op, backend="gpu")
    except ekoc.EkocNoDevice as exc:
        assert exc.status_name == "EKOC_ERR_NO_DEVICE" and exc.message
    else:  # a machine with a CUDA build and a device
        assert len(sol) == 1


def test_ekore_errors():
    with pytest.raises(ekoc.EkocValueError, match="nf"):
        ekoc.gamma_ns(2, "ns+", 2.5, 9)
    with pytest.raises(ekoc.EkocValueError):
        ekoc.gamma_singlet(2, [1.0 + 0j], 4)  # N = 1 is a singlet pole
    with pytest.raises(ekoc.EkocValueError, match="mode"):
        ekoc.gamma_ns(2, "ns*", 2.5, 4)
    with pytest.raises(ekoc.EkocValueError, match="order"):
        ekoc.gamma_ns(5, "ns+", 2.5, 4)
    with pytest.raises(ekoc.EkocValueError, match="not finite"):
        ekoc.evolution_kernel([np.nan], order=1, nf=4, a0=0.2, a1=0.1)


@pytest.mark.parametrize("call", ["gamma_ns", "gamma_singlet", "evolution_kernel", "matching_kernel"])
def test_n_outside_the_domain_names_the_argument(call):
    """|N| above the crate's limit or on a pole: the argument N, the entry of
    the caller's array and its value, not a crate entry point (issue 33
    item 4: evolution_kernel said "ekore_gamma_ns_all_batch_n3lo: N[0]")."""
    fn = {"gamma_ns": lambda N: ekoc.gamma_ns(3, "ns+", N, 4), "gamma_singlet": lambda N: ekoc.gamma_singlet(3, N, 4),
          "evolution_kernel": lambda N: ekoc.evolution_kernel(N, order=3, nf=4, a0=0.2, a1=0.1),
          "matching_kernel": lambda N: ekoc.matching_kernel(N, order=2, nf=4, a_s=0.1)}[call]
    with pytest.raises(ekoc.EkocFieldError) as info:
        fn(np.array([[2.0 + 1j, 2.5 + 0j], [3.0 + 0j, 2e5 + 1j]]))
    assert info.value.field == "N[1, 1]" and str(info.value).startswith("N[1, 1]=(200000+1j): |N| above 1e5")
    assert "ekore" not in str(info.value)
    with pytest.raises(ekoc.EkocFieldError) as info:
        fn(-1.0 + 0j)
    assert str(info.value) == "N=(-1+0j): is on the pole N = -1 of the anomalous dimensions"


@pytest.mark.parametrize("entry", ["solve", "solve_stream"])
def test_memory_refusal_names_memory_budget_once(entry):
    """The refusal names the function once (it said "ekoc_compute:
    ekoc_compute: ...") and the option as given, with its unit: a budget of
    one byte read "0.0 MB" (issue 33 item 4)."""
    th, op = _cards("nlo_vfns")
    call = {"solve": lambda **kw: ekoc.solve(th, op, "batch", **kw),
            "solve_stream": lambda **kw: ekoc.solve_stream(th, op, lambda t: None, "batch", **kw)}[entry]
    name = {"solve": "ekoc_compute", "solve_stream": "ekoc_compute_stream"}[entry]
    with pytest.raises(ekoc.EkocMemoryError) as info:
        call(memory_budget=1)
    text = str(info.value)
    assert info.value.field == "memory_budget"
    assert text.startswith(f"{name} (card field memory_budget): about ") and f"{name}: {name}" not in text
    assert "above the memory budget of 1 B (request.memory_budget=1;" in text and "0.0 MB" not in text
    with pytest.raises(ekoc.EkocMemoryError, match=r"memory budget of 2\.50 kB \(request\.memory_budget=2500;"):
        call(memory_budget=2500)
    with pytest.raises(ekoc.EkocFieldError, match=r"^memory_budget=-1: must be in 0\.\.18446744073709551615$"):
        call(memory_budget=-1)
    call(memory_budget=10**12)  # room enough: computes


def test_c_messages_name_the_function_once():
    exc = ekoc.EkocError(3, "EKOC_ERR_NO_MEMORY", "ekoc_compute: out of memory", "ekoc_compute")
    assert str(exc) == "ekoc_compute: out of memory [EKOC_ERR_NO_MEMORY]" and exc.message.startswith("ekoc_compute: ")
    exc = ekoc.EkocError(3, "X", "ekoc_compute: about", "ekoc_compute (card field memory_budget)")
    assert str(exc) == "ekoc_compute (card field memory_budget): about [X]"
    assert str(ekoc.EkocError(3, "X", "request.nx=1 is", "ekoc_compute")) == "ekoc_compute: request.nx=1 is [X]"


def test_nothing_crashes_the_interpreter():
    """A batch of hostile calls in a child interpreter: it must exit 0 with
    every call raising a Python exception."""
    code = r"""
import math, numpy as np, ekoc, cards
calls = [
    lambda: ekoc.solve(*cards.card("lo_ffns"), limit=-5),
    lambda: ekoc.solve({**cards.card("lo_ffns")[0], "xif": math.inf}, cards.card("nlo_sv_exponentiated")[1]),
    lambda: ekoc.lambert_grid(1, 0.1),
    lambda: ekoc.lambert_grid(10, 2.0),
    lambda: ekoc.gamma_singlet(3, np.array([0.0, -1.0]), 4),
    lambda: ekoc.evolution_kernel([2.0], order=0, nf=4, a0=0.2, a1=0.1),
    lambda: ekoc.matching_kernel([2.0], order=7, nf=4, a_s=0.1),
    lambda: ekoc.quad_kernel([0.5, 0.1], 0, 0, family="ns", order=1, nf=4),
]
raised = 0
for c in calls:
    try:
        c()
    except Exception as exc:
        raised += 1
print(raised, len(calls))
"""
    import os
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 0, res.stderr
    raised, total = map(int, res.stdout.split())
    assert raised == total


# ---- status codes: one list (EKOC_STATUS_LIST in include/ekoc.h) ------------------

# the codes as released: numbers are never changed or reused (new ones are appended)
RELEASED_STATUSES = [
    "EKOC_OK", "EKOC_ERR_NULL_POINTER", "EKOC_ERR_INVALID_ARGUMENT", "EKOC_ERR_INVALID_GRID",
    "EKOC_ERR_INVALID_ORDER", "EKOC_ERR_INVALID_NF", "EKOC_ERR_INVALID_METHOD", "EKOC_ERR_INVALID_SCALE",
    "EKOC_ERR_NO_MEMORY", "EKOC_ERR_INTEGRATION", "EKOC_ERR_ANOMALOUS_DIMENSION", "EKOC_ERR_NO_DEVICE",
    "EKOC_ERR_UNSUPPORTED", "EKOC_ERR_NUMERICAL", "EKOC_ERR_INVALID_MODE", "EKOC_ERR_INVALID_THRESHOLDS",
    "EKOC_ERR_BUFFER_TOO_SMALL", "EKOC_ERR_INVALID_DEGREE", "EKOC_ERR_INVALID_ITERATIONS", "EKOC_ERR_CANCELLED",
]


def test_every_library_status_has_a_python_class_and_back():
    from ekoc import _errors

    library = _errors.codes()
    assert set(library) == set(_errors.CLASS_OF), (
        f"statuses without a Python class: {sorted(set(library) - set(_errors.CLASS_OF))}; "
        f"Python classes for no status: {sorted(set(_errors.CLASS_OF) - set(library))}")
    for name, code in library.items():
        cls = _errors.error_class(code)
        assert issubclass(cls, ekoc.EkocError) and _errors.status_name(code) == name
        if name != "EKOC_OK":
            assert cls is _errors.CLASS_OF[name]


def test_status_numbers_and_names_are_the_released_ones():
    from ekoc import _errors

    library = _errors.codes()
    for code, name in enumerate(RELEASED_STATUSES):
        assert library.get(name) == code, f"{name} is {library.get(name)} in the library, released as {code}"
    assert (_errors.OK, _errors.ERR_NO_DEVICE, _errors.ERR_CANCELLED) == (0, 11, 19)
    assert _errors.NAMES[12] == "EKOC_ERR_UNSUPPORTED"
    assert _errors.status_name(10_000) == "EKOC_ERR_UNKNOWN" and _errors.error_class(10_000) is ekoc.EkocError
    with pytest.raises(AttributeError):
        _errors.ERR_NO_SUCH_THING  # noqa: B018


def test_status_codes_match_the_header_list():
    """The library's codes are EKOC_STATUS_LIST's (read from the header text)."""
    import pathlib

    from ekoc import _errors

    text = (pathlib.Path(__file__).resolve().parents[2] / "include" / "ekoc.h").read_text()
    listed = dict((name, int(value)) for name, value in
                  __import__("re").findall(r"X\((EKOC_\w+),\s*(\d+)\)", text))
    assert listed and listed == _errors.codes()


def test_importing_the_package_does_not_load_the_library():
    code = "import ekoc, ekoc._lib as l, ekoc._errors as e; assert l._lib is None and e._tables is None; print('ok')"
    import os
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    env["EKOC_LIB"] = "/nonexistent/libekoc.so"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert res.returncode == 0 and res.stdout.strip() == "ok", res.stderr


# ---- the physics axes: Python and the C library refuse the same cards ---------------

@pytest.mark.parametrize(
    "edit,card_field,setup_field,c_field",
    [
        (lambda th, op: (th.update(order=[2, 1]), op["configs"].update(evolution_method="truncated")),
         "operator_card.configs.evolution_method",
         dict(qed_order=1, method=ekoc._cards.METHODS["truncated"], method_name="truncated"), "request.method="),
        (lambda th, op: op["configs"].update(polarized=True, time_like=True), "operator_card.configs.time_like",
         dict(polarized=1, time_like=1), "theory.polarized=1 with theory.time_like=1"),
        (lambda th, op: (op["configs"].update(time_like=True), th.update(order=[4, 0])), "theory_card.order[0]",
         dict(time_like=1, order=4), "theory.order=4 with theory.time_like=1"),
    ],
)
def test_python_and_c_refuse_the_same_axes(edit, card_field, setup_field, c_field):
    import dataclasses

    from ekoc import _cards as card_io, _core, _lib, _solve

    th, op = _cards("nlo_vfns")
    edit(th, op)
    with pytest.raises(NotImplementedError, match=card_field.replace("[", r"\[").replace("]", r"\]")):
        card_io.translate(th, op)
    # the same request handed to the library past the Python check
    setup = dataclasses.replace(card_io.translate(*_cards("nlo_vfns")), **setup_field)
    keep = []
    theory, request = _solve._request(setup, "adaptive", {}, keep, None)
    out = _lib.ffi.new("ekoc_operator **")
    status = _lib.load().ekoc_compute(theory, request, _lib.ffi.NULL, out)
    with pytest.raises(ekoc.EkocNotImplementedError, match=c_field) as info:
        _core.check(status, "ekoc_compute")
    assert isinstance(info.value, NotImplementedError) and info.value.status_name == "EKOC_ERR_UNSUPPORTED"


def test_card_couplings_fill_the_c_theory():
    from ekoc import _cards as card_io, _lib, _solve

    th, op = _cards("nlo_vfns")
    th["couplings"].update(alphaem=0.0073, em_running=True)
    theory, _ = _solve._request(card_io.translate(th, op), "adaptive", {}, [], None)
    assert (theory.alphaem, theory.em_running, theory.qed_order, theory.polarized, theory.time_like) == \
        (0.0073, 1, 0, 0, 0)
    del th["couplings"]["alphaem"], th["couplings"]["em_running"]  # absent: the library's defaults
    theory, _ = _solve._request(card_io.translate(th, op), "adaptive", {}, [], None)
    default = _lib.ffi.new("ekoc_theory *")
    _lib.load().ekoc_theory_init(default, _lib.ffi.sizeof("ekoc_theory"))
    assert (theory.alphaem, theory.em_running) == (default.alphaem, 0) and default.alphaem == 0.007496252
    # an em_running card still solves (alpha_em does not act without QED)
    th["couplings"].update(alphaem=0.0073, em_running=True)
    assert len(ekoc.solve(th, op)) == 2


def test_n3lo_card_is_computed_and_its_choice_checked():
    th, op = _cards("nnlo_vfns")
    th.update(order=[4, 0], matching_order=[3, 0])
    ok, summary = ekoc.supported(th, op)
    assert ok and summary.startswith("aN3LO"), summary
    bad = copy.deepcopy(th)
    bad["n3lo_ad_variation"] = [0, 0, -1, 0, 0, 0, 0]
    with pytest.raises(ekoc.EkocFieldError, match=r"theory_card\.n3lo_ad_variation\[2\]"):
        ekoc.solve(bad, op)
    bad = copy.deepcopy(th)
    bad["n3lo_ad_variation"] = [0, 0, 0]
    with pytest.raises(ekoc.EkocFieldError, match=r"theory_card\.n3lo_ad_variation"):
        ekoc.solve(bad, op)
    bad = copy.deepcopy(th)
    bad["use_fhmruvv"] = "yes"
    with pytest.raises(ekoc.EkocFieldError, match=r"theory_card\.use_fhmruvv"):
        ekoc.solve(bad, op)
    bad = copy.deepcopy(th)
    bad["matching_order"] = [4, 0]
    with pytest.raises(ekoc.EkocFieldError, match=r"theory_card\.matching_order\[0\]"):
        ekoc.solve(bad, op)


def test_n3lo_variation_beyond_eko_is_central_with_a_warning():
    """eko 0.15.7 computes an n3lo_ad_variation entry beyond the range it
    implements as the central value (NNPDF's database has gq up to 21 where
    eko's own approximation has 0..15); ekoc does the same, and says so."""
    th, op = _cards("nnlo_vfns")
    th.update(order=[4, 0], matching_order=[3, 0], use_fhmruvv=False, n3lo_ad_variation=[0, 21, 0, 0, 0, 0, 0])
    with pytest.warns(ekoc.EkocWarning, match=r"n3lo_ad_variation\[1\] \(gq\) = 21 is beyond the 0\.\.15"):
        far = ekoc.solve(th, op, backend="batch")
    th["n3lo_ad_variation"] = [0, 0, 0, 0, 0, 0, 0]
    central = ekoc.solve(th, op, backend="batch")
    for ep in central:
        np.testing.assert_array_equal(far[ep].operator, central[ep].operator)
