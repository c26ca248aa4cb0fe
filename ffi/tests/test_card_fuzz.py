"""Fuzzing the card reader (issue 15, finding 7): mutated valid cards either
translate or raise one of ekoc's field errors whose message names the
field; nothing else comes out of ekoc._cards.translate.

Two drivers of the same property (card_fuzz.check_one):
- card_fuzz's own seeded random mutator: always runs (a bounded number of
  executions, a few seconds); ``python3 ffi/tests/card_fuzz.py 100000``
  runs the long campaign;
- hypothesis (when installed: ``pip install hypothesis``), drawing the
  values, places and mutations itself and shrinking any failure.
"""

import random

import pytest

import card_fuzz
import cards

# mutated N3LO cards often carry n3lo_ad_variation entries beyond eko's ranges:
# computed as eko does, with an EkocWarning each (test_errors.py checks that)
pytestmark = pytest.mark.filterwarnings("ignore::ekoc.EkocWarning")

#: executions of the seeded mutator in the CI test (about 1 s)
SEEDED_EXECUTIONS = 3000


def test_seeded_mutations_raise_only_field_errors():
    counts = card_fuzz.run(SEEDED_EXECUTIONS, seed=15)
    assert sum(counts.values()) == SEEDED_EXECUTIONS
    # the mutator reaches every kind of outcome (not only type errors)
    assert {"ok", "EkocFieldError", "EkocFieldTypeError", "EkocMissingFieldError",
            "EkocUnsupportedFieldError"} <= set(counts), counts


def test_seeded_mutations_through_solve_leak_nothing():
    """The accepted mutations also go through the C library (about 1 s)."""
    counts = card_fuzz.run_solve(600, seed=15)
    assert counts.get("solved", 0) > 10 and len(counts) >= 2, counts


def test_the_harness_catches_a_leak(monkeypatch):
    """A leaking reader fails the harness (the harness itself is tested)."""
    from ekoc import _cards

    def leaky(th, op, n_threads=None):
        return [][0]

    monkeypatch.setattr(_cards, "translate", leaky)
    with pytest.raises(AssertionError, match="IndexError escaped"):
        card_fuzz.check_one(*cards.card("lo_ffns"))


def test_hypothesis_mutations_raise_only_field_errors(tmp_path):
    hypothesis = pytest.importorskip(
        "hypothesis", reason="hypothesis is not installed (pip install hypothesis): the seeded mutator above "
        "still runs")
    from hypothesis import configuration

    # hypothesis keeps caches in ./.hypothesis: this run keeps them in its scratch folder
    home = configuration.storage_directory()
    configuration.set_hypothesis_home_dir(str(tmp_path / "hypothesis"))
    try:
        _hypothesis_property(hypothesis)
    finally:
        configuration.set_hypothesis_home_dir(str(home))


def _hypothesis_property(hypothesis):
    st = hypothesis.strategies
    json_like = st.recursive(
        st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
        | st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(card_fuzz.SPECIAL_STRINGS)
        | st.sampled_from(card_fuzz.SPECIAL_FLOATS) | st.sampled_from(card_fuzz.SPECIAL_INTS),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["grid", "log", "a"]), inner,
                                                                    max_size=3),
        max_leaves=8)

    @hypothesis.settings(max_examples=300, deadline=None, derandomize=True, database=None,
                         suppress_health_check=list(hypothesis.HealthCheck))
    @hypothesis.given(name=st.sampled_from(sorted(cards.CARDS)), seed=st.integers(0, 2**32 - 1), data=st.data())
    def prop(name, seed, data):
        th, op = cards.card(name)

        def draw(_rng):
            return data.draw(json_like)

        card_fuzz.mutate(random.Random(seed), [th, op], value_source=draw)
        card_fuzz.check_one(th, op)

    prop()
