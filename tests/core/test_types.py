"""The type checker as CI runs it, and the rule types against the run-time checks.

``python -m mypy`` with no arguments checks what ``[tool.mypy]`` in pyproject.toml
lists (the core, strictly); .ci/run runs the same command before pytest.
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import subprocess
import sys
import typing
from pathlib import Path

import pytest

from pooltutor import frameworks, geometry, indexing, pooling, rules

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_passes_on_the_configured_targets():
    import numpy as np

    if int(np.__version__.split(".")[0]) < 2:
        # numpy 1.x's stubs want type arguments on every bare np.ndarray (65 errors with
        # numpy 1.24): the annotations are checked against the latest numpy, as .ci/run does
        pytest.skip(f"the types are checked against numpy 2's stubs (numpy {np.__version__})")
    if importlib.util.find_spec("mypy") is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("mypy is not installed (it is in the `test` extra): CI must type-check")
        pytest.skip("mypy is not installed (pip install -e '.[test]')")
    run = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True,
                         text=True, timeout=900)
    assert run.returncode == 0, run.stdout + run.stderr


# (tuple the run-time checks use, the alias the signatures use)
TUPLES = {
    "rounding": (geometry.ROUNDINGS, rules.Rounding),
    "pad_taps": (pooling.PAD_TAPS, rules.PadTaps),
    "empty_value": (pooling.EMPTY_VALUES, rules.EmptyValue),
    "empty_index": (pooling.EMPTY_INDICES, rules.EmptyIndex),
    "nan_policy": (pooling.NAN_POLICIES, rules.NanPolicy),
    "ties": (pooling.TIES, rules.Ties),
    "index_layout": (indexing.INDEX_LAYOUTS, rules.IndexLayout),
    "divisor": (pooling.DIVISORS, rules.DivisorRule),
    "follow": (frameworks.FOLLOWS, rules.Follow),
}


@pytest.mark.parametrize("name", sorted(TUPLES))
def test_alias_choices_are_the_checked_tuple(name):
    values, alias = TUPLES[name]
    assert typing.get_origin(alias) is typing.Literal
    assert tuple(values) == typing.get_args(alias)     # same strings, same order (messages)
    assert rules.CHOICES[name] is alias


@pytest.mark.parametrize("name", sorted(TUPLES))
def test_the_engine_refuses_exactly_what_the_alias_leaves_out(name):
    values, _ = TUPLES[name]
    call = {
        "rounding": lambda v: pooling.max_pool([[[1.0, 2.0]]], 1, rounding=v),
        "pad_taps": lambda v: pooling.max_pool([[[1.0, 2.0]]], 1, pad_taps=v),
        "empty_value": lambda v: pooling.max_pool([[[1.0, 2.0]]], 1, empty_value=v),
        "empty_index": lambda v: pooling.max_pool([[[1.0, 2.0]]], 1, empty_index=v),
        "nan_policy": lambda v: pooling.max_pool([[[1.0, 2.0]]], 1, nan_policy=v),
        "ties": lambda v: pooling.max_pool([[[1.0, 2.0]]], 1, ties=v),
        "index_layout": lambda v: pooling.max_pool([[[1.0, 2.0]]], 1, index_layout=v),
        "divisor": lambda v: pooling.avg_pool([[[1.0, 2.0]]], 1, divisor=v),
        "follow": lambda v: frameworks.torch_max_pool([[[1.0, 2.0]]], 1, follow=v),
    }[name]
    for v in values:
        call(v)                                          # every alias value is accepted
    with pytest.raises(ValueError, match=f"{name}='bogus'"):
        call("bogus")


def test_signatures_use_the_aliases():
    """Every public engine function that takes a rule is annotated with its alias."""
    want = {"rounding": "Rounding", "pad_taps": "PadTaps", "empty_value": "EmptyValue",
            "empty_index": "EmptyIndex", "nan_policy": "NanPolicy", "ties": "Ties",
            "index_layout": "IndexLayout", "divisor": "DivisorRule | int", "follow": "Follow",
            "layout": "IndexLayout", "src": "IndexLayout", "dst": "IndexLayout"}
    from pooltutor import reference, unpool
    functions = [pooling.max_pool, pooling.avg_pool, pooling.adaptive_max_pool,
                 geometry.pool_geometry, geometry.output_length, reference.max_pool,
                 reference.avg_pool, reference.adaptive_max_pool, indexing.convert_indices,
                 indexing.from_plane, indexing.to_plane, indexing.layout_numbers,
                 unpool.max_unpool, unpool.max_pool_backward]
    functions += [getattr(frameworks, n) for n in frameworks.__all__
                  if callable(getattr(frameworks, n))
                  and "follow" in inspect.signature(getattr(frameworks, n)).parameters]
    seen = 0
    for f in functions:
        for p in inspect.signature(f).parameters.values():
            if p.name in want:
                assert p.annotation == want[p.name], (f.__qualname__, p.name, p.annotation)
                seen += 1
    assert seen >= 30


@pytest.mark.parametrize("values, alias", [
    ("REQUANT_ROUNDINGS", "RequantRounding"), ("AVG_ROUNDINGS", "AvgRounding"),
    ("AVG_MEAN_OF", "MeanOf")])
def test_quant_choices_are_their_aliases(values, alias):
    from pooltutor import quant

    assert getattr(quant, values) == typing.get_args(getattr(quant, alias))
