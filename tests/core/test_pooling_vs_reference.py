"""The vectorised engine against the loop reference, under hypothesis."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from strategies import pool_cases

from pooltutor import pooling, reference

RULES = st.fixed_dictionaries({
    "pad_taps": st.sampled_from(pooling.PAD_TAPS),
    "empty_value": st.sampled_from(["neg_inf", "lowest", "nan", "zero"]),
    "empty_index": st.sampled_from(pooling.EMPTY_INDICES),
    "nan_policy": st.sampled_from(pooling.NAN_POLICIES),
    "ties": st.sampled_from(pooling.TIES),
})


def _same(a, b):
    np.testing.assert_array_equal(a, b)
    assert a.dtype == b.dtype


@given(case=pool_cases(dtypes=("float64", "float32", "float16")), rules=RULES)
def test_max_pool_matches_reference_floats(case, rules):
    x = case["x"]
    before = x.copy()
    r = pooling.max_pool(**case, **rules, return_indices=True)
    y, idx = reference.max_pool(**case, **rules)
    _same(r.output, y)
    np.testing.assert_array_equal(r.indices, idx)
    np.testing.assert_array_equal(x, before)          # the input is never modified


@given(case=pool_cases(dtypes=("int8", "uint8", "int32", "int64")),
       rules=RULES.map(lambda r: {**r, "empty_value": "zero" if r["empty_value"] == "nan" else r["empty_value"]}))
def test_max_pool_matches_reference_integers(case, rules):
    r = pooling.max_pool(**case, **rules, return_indices=True)
    y, idx = reference.max_pool(**case, **rules)
    _same(r.output, y)
    np.testing.assert_array_equal(r.indices, idx)


@given(case=pool_cases(dtypes=("float64", "int32")),
       divisor=st.sampled_from(["valid", "padded", 1, 3, 7]))
def test_avg_pool_matches_reference(case, divisor):
    x = case["x"]
    if x.dtype.kind == "f":
        x = np.nan_to_num(x, nan=0.5, posinf=5.0, neginf=-5.0)
    case = {**case, "x": x}
    r = pooling.avg_pool(**case, divisor=divisor)
    y = reference.avg_pool(**case, divisor=divisor)
    np.testing.assert_allclose(r.output, y, rtol=1e-12, atol=1e-12)
    assert r.output.dtype == y.dtype


@given(data=st.data(), dtype=st.sampled_from(["float64", "float32", "int16"]),
       nan_policy=st.sampled_from(pooling.NAN_POLICIES), ties=st.sampled_from(pooling.TIES))
def test_adaptive_matches_reference(data, dtype, nan_policy, ties):
    ndim = data.draw(st.integers(1, 3))
    sizes = data.draw(st.lists(st.integers(1, 9), min_size=ndim, max_size=ndim))
    outs = [data.draw(st.integers(1, s + 2)) for s in sizes]
    shape = (data.draw(st.integers(1, 2)), data.draw(st.integers(1, 2)), *sizes)
    values = data.draw(st.lists(st.sampled_from([0, 1, 2, 3, -4]), min_size=int(np.prod(shape)),
                                max_size=int(np.prod(shape))))
    x = np.array(values, dtype=dtype).reshape(shape)
    if dtype != "int16" and data.draw(st.booleans()):
        x.flat[data.draw(st.integers(0, x.size - 1))] = np.nan
    r = pooling.adaptive_max_pool(x, outs, nan_policy=nan_policy, ties=ties, return_indices=True)
    y, idx = reference.adaptive_max_pool(x, outs, nan_policy=nan_policy, ties=ties)
    _same(r.output, y)
    np.testing.assert_array_equal(r.indices, idx)
    a = pooling.adaptive_avg_pool(x, outs).output
    np.testing.assert_allclose(a, reference.adaptive_avg_pool(x, outs), rtol=1e-6, equal_nan=True)
