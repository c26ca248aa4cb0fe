"""A random mutator of eko runcards for ekoc's card reader (ekoc._cards.translate).

It takes the valid cards of cards.py, changes one to three places in them
(a field set to a random JSON-like value, a field removed, an unknown field
added, a list shortened or lengthened) and calls translate(), which must
either accept the cards or raise one of ekoc's field errors
(ekoc._errors.FIELD_ERRORS) whose message names the field it reports.
Anything else (a TypeError from numpy, an IndexError, an OverflowError, a
KeyError, a message without its field) is a failure.

    python3 ffi/tests/card_fuzz.py [executions] [seed]    # 100000 by default
    python3 ffi/tests/card_fuzz.py 60000 3 --solve         # accepted cards also go through ekoc.solve

test_card_fuzz.py runs a small seeded number of executions in a few seconds;
with hypothesis installed it also runs the same property on values drawn by
hypothesis.
"""

from __future__ import annotations

import copy
import math
import random
import sys

import cards

SPECIAL_FLOATS = [0.0, -0.0, 1.0, -1.0, 0.5, 1.0 + 1e-15, 1.0 - 1e-16, 1e-7, 1e-300, 5e-324, 1e200, 1e308,
                  math.nan, math.inf, -math.inf, 0.118, 91.2, 1.65, 4.92]
SPECIAL_INTS = [0, 1, 2, 3, 4, 5, 6, 7, -1, 10, 100, 2**31 - 1, 2**31, -(2**31) - 1, 2**63, 10**400]
SPECIAL_STRINGS = ["", "a", "0.118", "4", "False", "True", "pole", "msbar", "POLE", "iterate-exact", "truncated",
                   "exponentiated", "expanded", "exact", "lambertgrid", "make_grid", "None", "nan"]


def random_value(rng: random.Random, depth: int = 0):
    """A JSON-like value (None, bool, int, float, str, list, dict), biased to
    the edges ekoc must refuse cleanly."""
    kind = rng.randrange(10 if depth < 2 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice(SPECIAL_INTS) if rng.random() < 0.7 else rng.randint(-10**6, 10**6)
    if kind == 3:
        return rng.choice(SPECIAL_FLOATS) if rng.random() < 0.7 else rng.uniform(-1e3, 1e3)
    if kind == 4:
        return rng.choice(SPECIAL_STRINGS)
    if kind == 5:
        return rng.choice([[], {}, (), [1.0, 4], [10.0, 5]])
    if kind in (6, 7):
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if kind == 8:
        return {rng.choice(["grid", "log", "a", "0"]): random_value(rng, depth + 1) for _ in range(rng.randrange(3))}
    # grid shorthands with random arguments
    head = rng.choice(["lambertgrid", "make_grid", "magicgrid"])
    return [head] + [random_value(rng, depth + 1) for _ in range(rng.randrange(5))]


def paths(node, prefix=()):
    """Every (path, container) place in a nested card: dict keys and list indices."""
    out = []
    if isinstance(node, dict):
        for k, v in node.items():
            out.append(prefix + (k,))
            out.extend(paths(v, prefix + (k,)))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.append(prefix + (i,))
            out.extend(paths(v, prefix + (i,)))
    return out


def _parent(root, path):
    node = root
    for key in path[:-1]:
        node = node[key]
    return node


def mutate(rng: random.Random, cards_pair, value_source=random_value):
    """Changes 1 to 3 places of (theory, operator) in place."""
    for _ in range(rng.randint(1, 3)):
        which = cards_pair[rng.randrange(2)]
        places = paths(which)
        action = rng.random()
        if action < 0.05 or not places:
            which[rng.choice(["PTO", "unknown", "xgrid2"])] = value_source(rng)
            continue
        path = rng.choice(places)
        parent = _parent(which, path)
        key = path[-1]
        if action < 0.15:  # remove the field / shorten the list
            del parent[key]
        elif action < 0.2 and isinstance(parent[key], list):  # lengthen a list
            parent[key].append(value_source(rng))
        elif action < 0.6:  # a value of the same kind: the edges of the field's own type
            parent[key] = same_kind(rng, parent[key], value_source)
        else:
            parent[key] = value_source(rng)


def same_kind(rng: random.Random, current, value_source=random_value):
    """A value of the kind `current` has (a number for a number, ...)."""
    if isinstance(current, bool):
        return rng.choice([True, False, 0, 1, 2, "False", None])
    if isinstance(current, int):
        return rng.choice(SPECIAL_INTS + [current + 1, current - 1, float(min(current, 2**1000))])
    if isinstance(current, float):
        return rng.choice(SPECIAL_FLOATS + [current * (1 + 1e-15), -current, current * 1e150])
    if isinstance(current, str):
        return rng.choice(SPECIAL_STRINGS)
    if isinstance(current, list) and current:
        out = list(current)
        out[rng.randrange(len(out))] = same_kind(rng, out[rng.randrange(len(out))], value_source)
        return out
    return value_source(rng)


def check_one(th, op) -> str:
    """Runs translate on the cards: 'ok', or the name of the field error
    raised; raises AssertionError for anything ekoc must not do."""
    from ekoc import _cards, _errors

    try:
        _cards.translate(th, op)
    except _errors.FIELD_ERRORS as exc:
        field = exc.field
        assert isinstance(field, str) and field, f"no field on {exc!r}"
        assert field.startswith(("theory_card", "operator_card", "n_threads")), f"odd field {field!r}: {exc}"
        assert field in str(exc), f"message does not name its field {field!r}: {exc}"
        assert isinstance(exc, (ValueError, TypeError, NotImplementedError)), type(exc)
        return type(exc).__name__
    except BaseException as exc:  # noqa: BLE001 - the point of the harness
        raise AssertionError(f"{type(exc).__name__} escaped translate: {exc!r}\ntheory={th!r}\noperator={op!r}") \
            from exc
    return "ok"


def run(executions: int, seed: int = 0) -> dict:
    """`executions` mutated card pairs from `seed`; returns the outcome counts."""
    rng = random.Random(seed)
    names = sorted(cards.CARDS)
    counts: dict = {}
    for _ in range(executions):
        th, op = cards.card(rng.choice(names))
        pair = [th, op]
        mutate(rng, pair)
        before = copy.deepcopy(pair)
        outcome = check_one(*pair)
        assert repr(pair) == repr(before), "translate modified the caller's cards"
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def run_solve(executions: int, seed: int = 0) -> dict:
    """Mutated cards that translate() accepts go through ekoc.solve (batch,
    one thread): only ekoc's error classes may come out, each naming a card
    field, except a numerical failure of the computation (a Landau pole)."""
    import ekoc
    from ekoc import _errors

    rng = random.Random(seed)
    names = sorted(cards.CARDS)
    counts: dict = {}
    for _ in range(executions):
        th, op = cards.card(rng.choice(names))
        mutate(rng, [th, op])
        if check_one(th, op) != "ok":
            continue
        try:
            ekoc.solve(th, op, backend="batch", progress=False, n_threads=1)
            outcome = "solved"
        except _errors.EkocError as exc:
            named = exc.field is not None and exc.field in str(exc)
            assert named or isinstance(exc, ekoc.EkocNumericalError), f"{type(exc).__name__} names no field: {exc}"
            outcome = type(exc).__name__
        except BaseException as exc:  # noqa: BLE001 - the point of the harness
            raise AssertionError(f"{type(exc).__name__} escaped solve: {exc!r}\ntheory={th!r}\noperator={op!r}") \
                from exc
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


if __name__ == "__main__":
    import os
    import pathlib
    import time

    here = pathlib.Path(__file__).resolve().parent
    sys.path[:0] = [str(here.parent), str(here)]
    os.environ.setdefault("EKOC_LIB", str(here.parents[1] / "build" / "libekoc.so"))
    args = [a for a in sys.argv[1:] if a != "--solve"]
    n = int(args[0]) if args else 100_000
    seed = int(args[1]) if len(args) > 1 else 0
    t0 = time.perf_counter()
    through_solve = "--solve" in sys.argv
    result = (run_solve if through_solve else run)(n, seed)
    print(f"{n} executions{' through solve' if through_solve else ''} (seed {seed}) in "
          f"{time.perf_counter() - t0:.1f} s: {dict(sorted(result.items()))}")
