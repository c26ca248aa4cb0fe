"""Every card error names its field and value (issue 15, finding 7).

A table of bad values for every field of the cards goes through
ekoc.solve: each must either be computed or raise an ekoc error class (a
ValueError / TypeError / KeyError / NotImplementedError as well) whose
message names the card field; no implementation exception (numpy's
TypeError, IndexError, cffi's OverflowError, ...) may leak. Errors found by
the C library carry the card field their message is about (`.field`);
only numerical failures of a valid-looking card (a Landau pole) may name
none."""

import math

import pytest

import cards
import ekoc
from ekoc import _errors

# (card, path in the card, values); the theory card is "th", the operator card "op"
NUMBER_EDGES = [None, "a", "0.35", True, [], {}, math.nan, math.inf, -math.inf, 0, -1, 1e200, 1e-200, 5e-324,
                10**400, 2**31, -(2**31) - 1]
INT_EDGES = [None, "4", "a", True, 4.5, [], math.nan, math.inf, 1e300, 2**31, -(2**31) - 1, 10**400, -1, 0, 7]
BOOL_EDGES = ["False", "True", "", 2, -1, 0.5, None, [], "yes"]
FIELDS = [
    ("th", ("order",), [None, 5, [], [1], [1, 0, 0], "LO"]),
    ("th", ("order", 0), INT_EDGES),
    ("th", ("order", 1), INT_EDGES),
    ("th", ("matching_order",), [5, [], [0], "NLO"]),
    ("th", ("matching_order", 0), INT_EDGES),
    ("th", ("couplings",), [None, 5, [], "x"]),
    ("th", ("couplings", "alphas"), NUMBER_EDGES + [100.0]),
    ("th", ("couplings", "alphaem"), NUMBER_EDGES),
    ("th", ("couplings", "em_running"), BOOL_EDGES),
    ("th", ("couplings", "ref"), [None, 91.2, [], [91.2], [91.2, 5, 1], "91.2"]),
    ("th", ("couplings", "ref", 0), NUMBER_EDGES),
    ("th", ("couplings", "ref", 1), INT_EDGES),
    ("th", ("heavy",), [None, 5, []]),
    ("th", ("heavy", "masses"), [None, 5, [], [1.5, 4.9], "m", [[], [4.5], [175.0]]]),
    ("th", ("heavy", "masses", 0), NUMBER_EDGES),
    ("th", ("heavy", "masses", 1, 0), NUMBER_EDGES),
    ("th", ("heavy", "masses_scheme"), [None, 5, "MS-bar", "running", []]),
    ("th", ("heavy", "matching_ratios"), [None, 5, [], [1.0, 1.0], "r"]),
    ("th", ("heavy", "matching_ratios", 0), NUMBER_EDGES),
    ("th", ("xif",), NUMBER_EDGES + [1e300, 1e-300]),
    ("th", ("n3lo_ad_variation",), [5, "x", [None], ["a"]]),
    ("th", ("use_fhmruvv",), BOOL_EDGES),
    ("op", ("init",), [None, 5, [], [1.65], "1.65"]),
    ("op", ("init", 0), NUMBER_EDGES),
    ("op", ("init", 1), INT_EDGES),
    ("op", ("mugrid",), [None, 5, [], [5], [[10.0]], "10"]),
    ("op", ("mugrid", 0, 0), NUMBER_EDGES),
    ("op", ("mugrid", 0, 1), INT_EDGES),
    ("op", ("xgrid",), [None, 5, [], "x", [0.5], ["lambertgrid", -5], ["lambertgrid", 10**9], ["lambertgrid", "a"],
                        ["lambertgrid", 10, 2.0], ["lambertgrid"], ["make_grid", -1, 3], ["make_grid", "a", 2],
                        ["magic", 3], [0.1, 0.1, 0.5, 1.0], [[0.1], [0.5]], {"grid": None}, {"log": True},
                        {"grid": [0.1, 0.5, 1.0], "log": "yes"}, [0.1, 0.2, 0.3, 0.5, 0.7, 1.0 + 1e-15]]),
    ("op", ("xgrid", 0), NUMBER_EDGES),
    ("op", ("configs",), [None, 5, []]),
    ("op", ("configs", "evolution_method"), [None, 5, ["iterate-exact"], "magic", {}]),
    ("op", ("configs", "ev_op_max_order"), [None, [], [10], [10, 0, 0], "10", 0, 31]),
    ("op", ("configs", "ev_op_max_order", 0), INT_EDGES),
    ("op", ("configs", "ev_op_iterations"), INT_EDGES),
    ("op", ("configs", "scvar_method"), [5, "Exponentiated", ["expanded"], True]),
    ("op", ("configs", "inversion_method"), [5, "Exact", ["exact"], True]),
    ("op", ("configs", "interpolation_polynomial_degree"), INT_EDGES),
    ("op", ("configs", "interpolation_is_log"), BOOL_EDGES),
    ("op", ("configs", "polarized"), BOOL_EDGES),
    ("op", ("configs", "time_like"), BOOL_EDGES),
    ("op", ("configs", "n_integration_cores"), [None, "a", 0.5, True, 2**31, 10**400, [], math.nan]),
    ("op", ("debug",), [5, [], "x"]),
    ("op", ("debug", "skip_singlet"), BOOL_EDGES),
    ("op", ("eko_version",), [5, None, []]),
]
CASES = [(which, path, value) for which, path, values in FIELDS for value in values]


def _set(root, path, value):
    node = root
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


def _path_text(which, path):
    out = "theory_card" if which == "th" else "operator_card"
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else f".{key}"
    return out


def _related(reported: str, ours: str) -> bool:
    """The reported field is ours, inside ours, or holds ours (a list whose
    entries are compared: masses not ascending)."""
    reported = reported.split(" ")[0]
    return reported.startswith(ours) or ours.startswith(reported.replace("[*]", ""))


@pytest.mark.parametrize("which,path,value", CASES,
                         ids=[f"{_path_text(w, p)}={v!r}"[:70] for w, p, v in CASES])
def test_bad_field_value_names_the_field(which, path, value):
    name = "nlo_sv_exponentiated" if path == ("xif",) else "nlo_vfns"  # xif acts only with a scale variation
    th, op = cards.card(name)
    _set(th if which == "th" else op, path, value)
    ours = _path_text(which, path)
    try:
        ekoc.solve(th, op, backend="batch", progress=False, n_threads=1)
    except ekoc.EkocError as exc:
        text = str(exc)
        if exc.field is None:
            # only a numerical failure of the computation itself may name no field
            assert isinstance(exc, ekoc.EkocNumericalError), f"{type(exc).__name__} names no field: {text}"
            return
        assert exc.field in text, text
        assert _related(exc.field, ours), f"set {ours}, error names {exc.field}: {text}"
        assert isinstance(exc, (ValueError, TypeError, NotImplementedError, ArithmeticError)), type(exc)
        if isinstance(exc, _errors.FIELD_ERRORS) and exc.field == ours:
            assert repr(value)[:40] in text or isinstance(value, (dict, list)) and len(repr(value)) > 40, text
    except BaseException as exc:  # noqa: BLE001 - the test is that nothing else comes out
        pytest.fail(f"{type(exc).__name__} leaked from solve for {ours}={value!r}: {exc}")


@pytest.mark.parametrize(
    "edit,field,text",
    [
        (lambda th, op: th["heavy"].update(masses=None), "theory_card.heavy.masses", "must be a list"),
        (lambda th, op: th["heavy"].update(matching_ratios=None), "theory_card.heavy.matching_ratios", "list"),
        (lambda th, op: op.update(xgrid=None), "operator_card.xgrid", "must be a list"),
        (lambda th, op: op.update(xgrid=5), "operator_card.xgrid", "=5:"),
        (lambda th, op: op.update(xgrid=["lambertgrid", -5]), "operator_card.xgrid[1]", "=-5:"),
        (lambda th, op: op["configs"].update(ev_op_max_order=[]), "operator_card.configs.ev_op_max_order", "[]"),
        (lambda th, op: op["configs"].update(evolution_method=["a"]), "operator_card.configs.evolution_method",
         "['a']"),
        (lambda th, op: op["configs"].update(n_integration_cores="a"), "operator_card.configs.n_integration_cores",
         "'a'"),
        (lambda th, op: op["configs"].update(ev_op_iterations=2**31), "operator_card.configs.ev_op_iterations",
         "2147483648"),
        (lambda th, op: op.update(mugrid=[[1e200, 5]]), "operator_card.mugrid[0][0]", "1e+200"),
        (lambda th, op: th["couplings"].update(alphas=5e-324), "theory_card.couplings.alphas", "5e-324"),
        (lambda th, op: op.update(xgrid=[0.1, 0.2, 0.3, 0.5, 0.7, 1.0 + 1e-15]), "operator_card.xgrid[5]",
         "1.000000000000001"),
        (lambda th, op: th["couplings"].update(alphas="0.118"), "theory_card.couplings.alphas", "'0.118'"),
        (lambda th, op: op.update(init=[1.65, "4"]), "operator_card.init[1]", "'4'"),
        (lambda th, op: op["configs"].update(polarized="False"), "operator_card.configs.polarized", "'False'"),
    ],
)
def test_known_unnamed_errors_now_name_the_field(edit, field, text):
    th, op = cards.card("nlo_vfns")
    edit(th, op)
    with pytest.raises(_errors.FIELD_ERRORS) as info:
        ekoc.solve(th, op)
    assert info.value.field == field and field in str(info.value) and text in str(info.value), str(info.value)


@pytest.mark.parametrize("scale", [1e300, 1e-300])
def test_xif_whose_square_is_not_a_double(scale):
    th, op = cards.card("nlo_sv_exponentiated")
    th["xif"] = scale
    with pytest.raises(ekoc.EkocFieldError, match=r"theory_card\.xif=" + repr(scale).replace("+", r"\+")):
        ekoc.solve(th, op)


def test_strings_are_refused_for_every_number_alike():
    for edit, field in [(lambda th, op: th["couplings"].update(alphas="0.118"), "alphas"),
                        (lambda th, op: th["couplings"]["ref"].__setitem__(1, "5"), "ref[1]"),
                        (lambda th, op: op["mugrid"][0].__setitem__(0, "10"), "mugrid[0][0]"),
                        (lambda th, op: th.update(xif="1"), "xif")]:
        th, op = cards.card("nlo_vfns")
        edit(th, op)
        with pytest.raises(ekoc.EkocFieldTypeError, match=field.replace("[", r"\[").replace("]", r"\]")):
            ekoc.solve(th, op)


def test_booleans_are_booleans():
    th, op = cards.card("nlo_vfns")
    op["configs"]["polarized"] = True  # time_like True on top is refused as unsupported, not misread
    for ok in (False, 0, True, 1):  # 0 / 1 are booleans
        op["configs"]["time_like"] = ok
        if ok:
            with pytest.raises(ekoc.EkocUnsupportedFieldError, match="time_like"):
                ekoc.solve(th, op)
        else:
            assert len(ekoc.solve(th, op)) == 2
    for bad in ("False", "0", 2, None):
        op["configs"]["time_like"] = bad
        with pytest.raises(ekoc.EkocFieldTypeError, match=r"operator_card\.configs\.time_like=" + repr(bad)):
            ekoc.solve(th, op)


@pytest.mark.parametrize(
    "kwargs,field",
    [
        (dict(progress=5), "progress"), (dict(progress="yes"), "progress"), (dict(backend="quantum"), "backend"),
        (dict(backend=["batch"]), "backend"), (dict(limit="a"), "limit"), (dict(limit=2**31), "limit"),
        (dict(epsabs="1e-9"), "epsabs"), (dict(batch_points=10**400), "batch_points"),
        (dict(n_threads="4"), "n_threads"),
        (dict(n_threads=2**40), "n_threads"), (dict(profile="yes"), "profile"), (dict(nspace_cache=5), "nspace_cache"),
        (dict(tolerance=3), "tolerance"),
    ],
)
def test_bad_solve_arguments_name_the_argument(kwargs, field):
    th, op = cards.card("lo_ffns")
    with pytest.raises(_errors.FIELD_ERRORS) as info:
        ekoc.solve(th, op, **kwargs)
    assert info.value.field == field and str(info.value).startswith(f"{field}="), str(info.value)


def test_c_errors_carry_the_card_field():
    """A check the C library makes (nf outside 3..6) names the card field too."""
    th, op = cards.card("nlo_vfns")
    op["mugrid"] = [[10.0, 5], [20.0, 5], [10.0, 5], [30.0, 9]]  # request index 2 is mugrid[3]
    with pytest.raises(ekoc.EkocValueError, match=r"request\.nf\[2\]=9") as info:
        ekoc.solve(th, op)
    assert info.value.field == "operator_card.mugrid[3][1]" and "operator_card.mugrid[3][1]" in str(info.value)
    assert info.value.status_name == "EKOC_ERR_INVALID_NF"


def test_field_errors_keep_their_old_builtin_bases():
    th, op = cards.card("lo_ffns")
    with pytest.raises(KeyError, match="theory_card.order is missing"):
        ekoc.solve({k: v for k, v in th.items() if k != "order"}, op)
    with pytest.raises(TypeError):
        ekoc.solve(42, op)
    with pytest.raises(ValueError):
        ekoc.solve(42, op)
    err = _errors.EkocFieldError("theory_card.xif", 2.0, "why")
    assert err.status == _errors.ERR_INVALID_ARGUMENT and err.status_name == "EKOC_ERR_INVALID_ARGUMENT"
    import pickle

    again = pickle.loads(pickle.dumps(err))
    assert type(again) is type(err) and str(again) == str(err) == "theory_card.xif=2.0: why"
