"""The eko accelerator: an unmodified eko script run plainly and under
`python -m ekoc.accel` writes EKO files with the same operators (within
eko's tolerance), the same keys and cards; the in-process hook
(`import ekoc.accel`) patches eko.solve, logs which code ran and why, falls
back to eko for cards ekoc does not support, and uninstalls cleanly.

The plain run's printout and EKO file come from data/eko_values_accel.npz
(eko_values.py: eko compiles its kernels for about 7 minutes on a cold numba
cache); `make test-eko` runs the script plainly and checks the file still
holds what eko writes."""

import json
import logging
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import cards
from compare import compare
from eko_values import Store, eko_file_contents

EKO = Store("accel")
eko = pytest.importorskip("eko")

SCRIPT = '''
# an unmodified eko user script: LO, VFNS (4 -> 5 flavours), small grid
import pathlib
import sys
import numpy as np
import eko
from ekobox.cards import example

th = example.raw_theory()
op = example.raw_operator()
th["order"] = [1, 0]
th["matching_order"] = [0, 0]
op["init"] = [1.65, 4]
op["mugrid"] = [[10.0, 5], [50.0, 5]]
op["xgrid"] = np.geomspace(1e-3, 1.0, 12).tolist()
eko.solve(eko.TheoryCard.from_dict(th), eko.OperatorCard.from_dict(op), pathlib.Path(sys.argv[1]))
with eko.EKO.read(sys.argv[1]) as e:
    for ep, o in e.items():
        pdf = np.ones((14, len(e.xgrid)))
        print(ep, float(np.einsum("aibj,bj->ai", o.operator, pdf)[7, 4]))
'''


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    return env


def _plain_run(script, tmp_path):
    """The script run plainly, eko computing: its printout and its EKO file."""
    plain = tmp_path / "eko.tar"
    r1 = subprocess.run([sys.executable, str(script), str(plain)], capture_output=True, text=True, env=_env(),
                        timeout=600)
    assert r1.returncode == 0, r1.stderr
    printed = [ln.split(") ") for ln in r1.stdout.splitlines()]  # "(mu2, nf) value" per target
    return {"printed_targets": [a for a, _ in printed], "printed_values": np.array([float(b) for _, b in printed]),
            "eko": eko_file_contents(plain)}


def test_unmodified_script_same_output(tmp_path):
    script = tmp_path / "user_script.py"
    script.write_text(SCRIPT)
    fast = tmp_path / "ekoc.tar"
    # the plain run's operators are eko's integrals: a rerun elsewhere agrees to far below eko's tolerance
    r1 = EKO.value(("the script run plainly", SCRIPT), lambda: _plain_run(script, tmp_path), rtol=1e-9)
    # eko's numbers: the batch engine (eko's x-space composition); the default runs the N-space engine
    r2 = subprocess.run([sys.executable, "-m", "ekoc.accel", str(script), str(fast)], capture_output=True,
                        text=True, env=dict(_env(), EKOC_ACCEL_BACKEND="batch"), timeout=600)
    assert r2.returncode == 0, r2.stderr
    lines = [ln for ln in r2.stderr.splitlines() if ln.startswith("ekoc.accel:")]
    assert len(lines) == 1 and "ekoc computed this EKO" in lines[0] and "LO" in lines[0], r2.stderr
    # the script's own printout: same keys, numbers within tolerance
    out2 = [ln.split(") ") for ln in r2.stdout.splitlines()]
    assert r1["printed_targets"] == [a for a, _ in out2]
    np.testing.assert_allclose([float(b) for _, b in out2], r1["printed_values"], rtol=2e-5)
    # the default (auto): the N-space engine, which does not interpolate the PDF at the b threshold on this
    # 12-point grid as eko's x-space product does: 823.008 at Q = 50 GeV on 12, 45 and 89 points alike, where
    # eko's composition gives 865.05, 838.97, 831.92 (converging to it): the same numbers to eko's error
    r3 = subprocess.run([sys.executable, "-m", "ekoc.accel", str(script), str(tmp_path / "auto.tar")], capture_output=True,
                        text=True, env=_env(), timeout=600)
    assert r3.returncode == 0, r3.stderr
    assert "backend auto: nspace, 0 flagged" in r3.stderr, r3.stderr
    out3 = [ln.split(") ") for ln in r3.stdout.splitlines()]
    np.testing.assert_allclose([float(b) for _, b in out3], r1["printed_values"], rtol=6e-2)
    # the files: same cards and targets, operators within eko's tolerance
    a, b = r1["eko"], eko_file_contents(fast)
    # (the cards hold NaN masses: equal dicts compare unequal, their JSON is compared then)
    assert json.loads(a["theory"]) == json.loads(b["theory"]) or a["theory"] == b["theory"]
    assert json.loads(a["operator"]) == json.loads(b["operator"])
    assert np.array_equal(a["xgrid"], b["xgrid"])
    assert np.array_equal(a["targets"], b["targets"]) and len(a["targets"]) == 2
    assert a["recipes"] == b["recipes"]
    for ep, oa, ea, ob, eb in zip(a["targets"], a["operators"], a["errors"], b["operators"], b["errors"]):
        stats = compare(ob, eb, oa, ea)
        print(f"\naccelerated script, target {tuple(ep)}: max |dev| {stats['max_abs_dev']:.3g}, "
              f"max dev/tol {stats['max_ratio']:.3g}")
        assert stats["max_ratio"] <= 1.0, stats


@pytest.fixture
def hook(caplog):
    import ekoc.accel as accel  # installs the hook

    caplog.set_level(logging.INFO, logger="ekoc.accel")
    yield accel
    accel.uninstall()


def test_hook_in_process(tmp_path, hook, caplog, monkeypatch):
    """eko's numbers through the hook: the batch engine (the default, the
    N-space engine, differs from eko's x-space composition by its
    interpolation error, test_unmodified_script_same_output)."""
    import eko.runner.managed as managed

    monkeypatch.setenv("EKOC_ACCEL_BACKEND", "batch")
    assert hook.is_installed()
    assert getattr(eko.solve, "__ekoc_accel__", False) and eko.solve is managed.solve is eko.runner.solve
    th, op = cards.card("nlo_vfns")
    path = tmp_path / "out.tar"
    eko.solve(eko.TheoryCard.from_dict(th), eko.OperatorCard.from_dict(op), path)
    assert any("ekoc computed this EKO" in r.getMessage() for r in caplog.records)
    ref = np.load(pathlib.Path(__file__).parent / "data" / "eko_nlo_vfns.npz")
    with eko.EKO.read(path) as e:
        for i, (mu2, nf) in enumerate(ref["targets"]):
            o = e[(float(mu2), int(nf))]
            stats = compare(o.operator, o.error, ref["operators"][i], ref["errors"][i])
            assert stats["max_ratio"] <= 1.0, stats
    hook.uninstall()
    assert not getattr(eko.solve, "__ekoc_accel__", False)
    assert eko.solve is managed.solve is eko.runner.solve


def test_series_of_ekos_shares_one_cache(tmp_path, hook, caplog):
    """The accelerated EKOs of a process (pineko's `theory ekos`: one per grid,
    one x grid) share one NSpaceCache: the second of two EKOs with other
    targets finds the first's values, and both files hold the bits of ekoc.solve
    without a cache."""
    import ekoc
    from ekoc import _accel

    hook.install()  # (an earlier test uninstalled it; a second import does not install it again)
    th, op = cards.card("nlo_vfns")
    second = dict(op, mugrid=[[mu * 1.5, nf] for mu, nf in op["mugrid"]])
    for k, o in enumerate((op, second)):
        path = tmp_path / f"ekos{k}.tar"
        caplog.clear()
        eko.solve(eko.TheoryCard.from_dict(th), eko.OperatorCard.from_dict(o), path)
        assert any("ekoc computed this EKO" in r.getMessage() for r in caplog.records), caplog.text
        held = _accel._shared_cache().nbytes if k == 0 else held
        alone = ekoc.solve(th, o)
        with eko.EKO.read(path) as e:
            for ep in e.evolgrid:
                assert np.array_equal(e[ep].operator, alone[ep].operator), ep
                assert np.array_equal(e[ep].error, alone[ep].error), ep
    assert held > 0 and _accel._shared_cache().nbytes >= held


def test_fallback_to_eko_names_the_reason(tmp_path, hook, caplog):
    from ekoc import _accel

    calls = []
    patched = _accel._make_solve(lambda t, o, p: calls.append(p))
    th, op = cards.card("lo_ffns")
    op["debug"]["skip_singlet"] = True  # not computed by ekoc
    patched(eko.TheoryCard.from_dict(th), eko.OperatorCard.from_dict(op), tmp_path / "x.tar")
    assert calls == [tmp_path / "x.tar"]
    msg = [r.getMessage() for r in caplog.records if "eko computes" in r.getMessage()]
    assert msg and "skip_singlet" in msg[-1]
    # EKOC_ACCEL=0 switches ekoc off
    os.environ["EKOC_ACCEL"] = "0"
    try:
        patched(*cards.card("lo_ffns"), tmp_path / "y.tar")
    finally:
        del os.environ["EKOC_ACCEL"]
    assert len(calls) == 2 and "EKOC_ACCEL=0" in caplog.records[-1].getMessage()


def test_ipython_extension(hook, caplog):
    hook.unload_ipython_extension(None)
    assert not hook.is_installed()
    hook.load_ipython_extension(None)
    assert hook.is_installed()
    assert getattr(eko.solve, "__ekoc_accel__", False)


def test_hook_patches_eko_imported_later(tmp_path):
    """Installed before eko is imported, the hook patches every alias."""
    code = (
        "import ekoc.accel, sys\n"
        "assert 'eko' not in sys.modules\n"
        "import eko, eko.runner, eko.runner.managed as m\n"
        "from ekobox import evol_pdf\n"
        "assert eko.solve is eko.runner.solve is m.solve and m.solve.__ekoc_accel__\n"
        "print('ok')\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(), timeout=300)
    assert res.returncode == 0 and res.stdout.strip() == "ok", res.stderr
