"""Bad input is refused before any work, with a message naming the parameter, the value and
what is allowed; good input in any memory layout is never modified and gives the same result.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import pool_cases

from pooltutor import pooling
from pooltutor.errors import PoolTutorError, PoolTutorTypeError
from pooltutor.pooling import adaptive_avg_pool, adaptive_max_pool, avg_pool, max_pool

X2 = np.arange(16.0).reshape(1, 1, 4, 4)
ROUNDINGS = "need one of 'floor', 'ceil', 'ceil_torch', 'floor_clip', 'caffe'"


@pytest.fixture
def no_work(monkeypatch):
    """Make every allocation the engine would start its work with fail loudly."""

    def refuse(*args, **kwargs):
        raise AssertionError("the engine started working before rejecting the input")

    for name in ("pad", "zeros", "full", "empty"):
        monkeypatch.setattr(np, name, refuse)


def _raises(error, message, call):
    with pytest.raises(error, match=re.escape(message)):
        call()


# --------------------------------------------------------------------------- sizes


SIZE_CASES = [
    # (keyword arguments for max_pool / avg_pool on X2, error, message)
    (dict(kernel=0), PoolTutorError, "kernel=0 is not allowed: need an int >= 1"),
    (dict(kernel=-2), PoolTutorError, "kernel=-2 is not allowed: need an int >= 1"),
    (dict(kernel=2.0), PoolTutorTypeError,
     "kernel=2.0 has type float: need one int or a sequence of 2 ints (one per spatial axis)"),
    (dict(kernel=True), PoolTutorTypeError, "kernel=True has type bool: need one int"),
    # numpy's own spelling of its bool (np.True_ / bool on numpy 2, True / bool_ on 1.x)
    (dict(kernel=np.bool_(True)), PoolTutorTypeError,
     f"kernel={np.bool_(True)!r} has type {type(np.bool_(True)).__name__}: need one int"),
    (dict(kernel=None), PoolTutorTypeError, "kernel=None has type NoneType: need one int"),
    (dict(kernel="2"), PoolTutorTypeError, "kernel='2' has type str: need one int"),
    (dict(kernel=[2, 2, 2]), PoolTutorError,
     "kernel=[2, 2, 2] has 3 entries: need one int or 2 (one per spatial axis)"),
    (dict(kernel=(2,)), PoolTutorError, "kernel=[2] has 1 entries: need one int or 2"),
    (dict(kernel=[2, 0]), PoolTutorError,
     "kernel=[2, 0] is not allowed: every entry must be an int >= 1"),
    (dict(kernel=[2, 1.5]), PoolTutorTypeError, "kernel=[2, 1.5] contains 1.5 (float): need ints"),
    (dict(kernel=[2, False]), PoolTutorTypeError, "kernel=[2, False] contains False (bool)"),
    (dict(kernel=np.array([[2, 2]])), PoolTutorError,
     "kernel has shape (1, 2): need one int or a 1-D sequence of 2"),
    (dict(kernel=2, stride=0), PoolTutorError, "stride=0 is not allowed: need an int >= 1"),
    (dict(kernel=2, stride=-1), PoolTutorError, "stride=-1 is not allowed: need an int >= 1"),
    (dict(kernel=2, stride=1.0), PoolTutorTypeError, "stride=1.0 has type float"),
    (dict(kernel=2, stride=[1]), PoolTutorError, "stride=[1] has 1 entries: need one int or 2"),
    (dict(kernel=2, dilation=0), PoolTutorError, "dilation=0 is not allowed: need an int >= 1"),
    (dict(kernel=2, dilation=[1, 2, 3]), PoolTutorError, "dilation=[1, 2, 3] has 3 entries"),
    (dict(kernel=2, dilation=True), PoolTutorTypeError, "dilation=True has type bool"),
    (dict(kernel=2, padding=-1), PoolTutorError, "padding=-1 is not allowed: need an int >= 0"),
    (dict(kernel=2, padding=[1, 2, 3]), PoolTutorError, "padding=[1, 2, 3] has 3 entries"),
    (dict(kernel=2, padding=1.5), PoolTutorTypeError,
     "padding=1.5 is not allowed: need an int >= 0, one int per spatial axis (2), or one "
     "(begin, end) pair per spatial axis"),
    (dict(kernel=2, padding=[(1, 2, 3), (0, 0)]), PoolTutorError,
     "padding=[(1, 2, 3), (0, 0)]: every per-axis entry must be an int or a (begin, end) pair"),
    (dict(kernel=2, padding=[(1, -1), (0, 0)]), PoolTutorError, "every entry must be an int >= 0"),
    (dict(kernel=2, padding=None), PoolTutorTypeError, "padding=None is not allowed"),
    # the window must fit the padded input, on every axis
    (dict(kernel=5), PoolTutorError,
     "kernel=(5, 5) does not fit the input (4, 4) on axis 0: window of effective size 5 "
     "(kernel 5, dilation 1) does not fit the padded input 4+0+0=4; need (kernel-1)*dilation+1 "
     "<= input + pad_begin + pad_end"),
    (dict(kernel=(2, 3), dilation=(1, 2)), PoolTutorError,
     "kernel=(2, 3) does not fit the input (4, 4) on axis 1: window of effective size 5 "
     "(kernel 3, dilation 2)"),
    (dict(kernel=6, padding=[(1, 0), (0, 1)]), PoolTutorError,
     "does not fit the padded input 4+1+0=5"),
]


@pytest.mark.parametrize(("kwargs", "error", "message"), SIZE_CASES)
@pytest.mark.parametrize("pool", [max_pool, avg_pool])
def test_bad_sizes(pool, kwargs, error, message, no_work):
    _raises(error, message, lambda: pool(X2, **kwargs))


def test_padding_makes_a_large_window_fit():
    assert max_pool(X2, 6, padding=1).output.shape == (1, 1, 1, 1)
    assert avg_pool(X2, 3, dilation=2, padding=[(1, 0), (0, 1)]).output.shape == (1, 1, 1, 1)


# --------------------------------------------------------------------------- tensors


@pytest.mark.parametrize(
    ("x", "error", "message"),
    [
        (np.arange(16.0), PoolTutorError,
         "x has shape (16,) (rank 1): need rank 3 to 5, shaped (N, C, *spatial) with 1 to 3 "
         "spatial axes"),
        (np.arange(16.0).reshape(4, 4), PoolTutorError, "x has shape (4, 4) (rank 2): need rank 3"),
        (np.zeros((1, 1, 1, 1, 2, 2)), PoolTutorError,
         "x has shape (1, 1, 1, 1, 2, 2) (rank 6): need rank 3 to 5"),
        (np.float64(3.0), PoolTutorError, "x has shape () (rank 0)"),
        (np.zeros((1, 0, 4)), PoolTutorError,
         "x has shape (1, 0, 4): every axis must have length >= 1"),
        (np.zeros((0, 1, 4)), PoolTutorError, "x has shape (0, 1, 4): every axis must have length"),
        (np.zeros((1, 1, 3, 0)), PoolTutorError, "x has shape (1, 1, 3, 0): every axis must have"),
        (np.zeros((1, 1, 4), dtype=object), PoolTutorTypeError,
         "x has dtype object: need a real numeric dtype (float16/32/64, int8/16/32/64 or "
         "uint8/16/32/64)"),
        (np.array([[["a", "b", "c"]]]), PoolTutorTypeError, "x has dtype <U1: need a real numeric"),
        (np.zeros((1, 1, 4), dtype=complex), PoolTutorTypeError,
         "x has dtype complex128: need a real"),
        (np.zeros((1, 1, 4), dtype=bool), PoolTutorTypeError,
         "x has dtype bool: need a real numeric"),
        (np.zeros((1, 1, 4), dtype=np.longdouble), PoolTutorTypeError,
         f"x has dtype {np.dtype(np.longdouble)}: need a real numeric"),
        (np.zeros((1, 1, 4), dtype="datetime64[s]"), PoolTutorTypeError,
         "x has dtype datetime64[s]"),
        ([[[1, 2], [3]]], PoolTutorTypeError, "x could not be read as a numeric array"),
        ("abc", PoolTutorTypeError, "x has dtype <U3: need a real numeric dtype"),
        (None, PoolTutorTypeError, "x has dtype object: need a real numeric dtype"),
    ],
    ids=["rank1", "rank2", "rank6", "rank0", "empty-C", "empty-N", "empty-W", "object", "str",
         "complex", "bool", "longdouble", "datetime", "ragged", "string", "None"],
)
@pytest.mark.parametrize("call", [
    lambda x: max_pool(x, 1), lambda x: avg_pool(x, 1), lambda x: adaptive_max_pool(x, 1),
    lambda x: adaptive_avg_pool(x, 1)], ids=["max", "avg", "adaptive_max", "adaptive_avg"])
def test_bad_tensors(call, x, error, message, no_work):
    _raises(error, message, lambda: call(x))


def test_python_lists_are_accepted():
    r = max_pool([[[1, 5, 2, 4]]], 2, return_indices=True)
    assert r.output.tolist() == [[[5, 4]]] and r.indices.tolist() == [[[1, 3]]]
    assert avg_pool([[[1.0, 5, 2, 4]]], 2).output.tolist() == [[[3.0, 3.0]]]


# --------------------------------------------------------------------------- rule names


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (dict(rounding="round"), PoolTutorError, "rounding='round' is not allowed: " + ROUNDINGS),
        (dict(rounding="CEIL"), PoolTutorError, "rounding='CEIL' is not allowed"),
        (dict(rounding=None), PoolTutorTypeError, "rounding=None has type NoneType: " + ROUNDINGS),
        (dict(pad_taps="zero"), PoolTutorError,
         "pad_taps='zero' is not allowed: need one of 'skip', 'neg_inf', 'lowest'"),
        (dict(empty_value="inf"), PoolTutorError,
         "empty_value='inf' is not allowed: need one of 'neg_inf', 'lowest', 'nan', 'zero', "
         "'error'"),
        (dict(empty_index=0), PoolTutorTypeError,
         "empty_index=0 has type int: need one of 'minus_one', 'plane_start'"),
        (dict(empty_index="zero"), PoolTutorError, "empty_index='zero' is not allowed"),
        (dict(nan_policy="omit"), PoolTutorError,
         "nan_policy='omit' is not allowed: need one of 'propagate_last', 'propagate_first', "
         "'first_sticks', 'ignore'"),
        (dict(ties="random"), PoolTutorError,
         "ties='random' is not allowed: need one of 'first', 'last'"),
        (dict(index_layout="nchw"), PoolTutorError,
         "index_layout='nchw' is not allowed: need one of 'plane', 'tensor', 'tensor_colmajor', "
         "'nhwc', 'nhwc_batch'"),
        (dict(return_indices="yes"), PoolTutorTypeError,
         "return_indices='yes': need True or False"),
        (dict(return_indices=1), PoolTutorTypeError, "return_indices=1: need True or False"),
    ],
)
def test_bad_max_rules(kwargs, error, message, no_work):
    _raises(error, message, lambda: max_pool(X2, 2, **kwargs))


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.int64])
def test_nan_empty_value_with_integers(dtype, no_work):
    x = X2.astype(dtype)
    _raises(PoolTutorError, f"empty_value='nan' is not possible for x of dtype {np.dtype(dtype)}: "
            "integers have no NaN; use 'neg_inf', 'lowest' or 'zero'",
            lambda: max_pool(x, 2, empty_value="nan"))


def test_empty_value_error_names_the_empty_window(no_work):
    _raises(PoolTutorError, "empty_value='error': output position 2 on spatial axis 1 has no input "
            "element in its window", lambda: max_pool(X2, (1, 2), (1, 2), [(0, 0), (0, 2)],
                                                       empty_value="error"))


@pytest.mark.parametrize(
    ("divisor", "error", "message"),
    [
        ("full", PoolTutorError, "divisor='full' is not allowed: need one of 'valid', 'padded'"),
        (0, PoolTutorError, "divisor=0 is not allowed: need an int >= 1"),
        (-3, PoolTutorError, "divisor=-3 is not allowed: need an int >= 1"),
        (2.0, PoolTutorTypeError, "divisor=2.0: need 'valid', 'padded' or an int >= 1"),
        (True, PoolTutorTypeError, "divisor=True: need 'valid', 'padded' or an int >= 1"),
        (None, PoolTutorTypeError, "divisor=None: need 'valid', 'padded' or an int >= 1"),
    ],
)
def test_bad_divisor(divisor, error, message, no_work):
    _raises(error, message, lambda: avg_pool(X2, 2, divisor=divisor))


def test_numpy_integer_divisor_is_an_int():
    assert avg_pool(X2, 2, divisor=np.int8(4)).output[0, 0].tolist() == [[2.5, 4.5], [10.5, 12.5]]


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: adaptive_max_pool(X2, 0), PoolTutorError,
         "output_size=0 is not allowed: need an int >= 1"),
        (lambda: adaptive_avg_pool(X2, (2, 0)), PoolTutorError,
         "output_size=[2, 0] is not allowed: every entry must be an int >= 1"),
        (lambda: adaptive_max_pool(X2, [2]), PoolTutorError,
         "output_size=[2] has 1 entries: need one int or 2 (one per spatial axis)"),
        (lambda: adaptive_avg_pool(X2, 2.0), PoolTutorTypeError, "output_size=2.0 has type float"),
        (lambda: adaptive_max_pool(X2, None), PoolTutorTypeError,
         "output_size=None has type NoneType"),
        (lambda: adaptive_max_pool(X2, 2, nan_policy="x"), PoolTutorError,
         "nan_policy='x' is not allowed: need one of 'propagate_last', 'propagate_first', "
         "'first_sticks', 'ignore'"),
        (lambda: adaptive_max_pool(X2, 2, ties=None), PoolTutorTypeError,
         "ties=None has type NoneType: need one of 'first', 'last'"),
        (lambda: adaptive_max_pool(X2, 2, index_layout="flat"), PoolTutorError,
         "index_layout='flat' is not allowed"),
    ],
)
def test_bad_adaptive_arguments(call, error, message, no_work):
    _raises(error, message, call)


def test_adaptive_return_indices_is_checked():
    _raises(PoolTutorTypeError, "return_indices='yes': need True or False",
            lambda: adaptive_max_pool(X2, 2, return_indices="yes"))


@pytest.mark.parametrize("pool", [max_pool, avg_pool])
def test_huge_padding_is_refused_up_front(pool):
    # 10**16 output positions: no machine can allocate the tables (80 PB), so this cannot hang
    with pytest.raises(PoolTutorError, match="GiB"):
        pool(np.zeros((1, 1, 1)), 1, 1, padding=5 * 10**15)


def test_huge_adaptive_output_is_refused_up_front():
    with pytest.raises(PoolTutorError, match=r"output_size=\(?1000000000000,?\)? would need .* GiB"):
        adaptive_max_pool(np.zeros((1, 1, 4)), 10**12)


# --------------------------------------------------------------------------- fuzzing

JUNK = st.one_of(
    st.integers(-3, 9), st.booleans(), st.none(), st.floats(-3, 9), st.just(float("nan")),
    st.sampled_from(["2", "floor", "", "valid"]),
    st.lists(st.integers(-2, 6), max_size=4),
    st.lists(st.one_of(st.integers(-1, 4), st.tuples(st.integers(-1, 3), st.integers(-1, 3)),
                       st.floats(0, 3)), max_size=4),
)
NAMES = st.one_of(st.sampled_from(["floor", "ceil", "ceil_torch", "floor_clip", "caffe", "skip",
                                   "neg_inf", "lowest", "nan", "zero", "error", "minus_one",
                                   "plane_start", "propagate_last", "ignore", "first", "last",
                                   "plane", "tensor", "nhwc", "valid", "padded", "bogus"]),
                  st.integers(-1, 3), st.none())


@st.composite
def junk_tensor(draw):
    rank = draw(st.integers(1, 6))
    shape = tuple(draw(st.lists(st.integers(0, 4), min_size=rank, max_size=rank)))
    dtype = draw(st.sampled_from(["float64", "float16", "int8", "uint8", "bool", "complex64",
                                  "object", "int64"]))
    return np.ones(shape, dtype=dtype)


@given(x=junk_tensor(), kernel=JUNK, stride=JUNK, padding=JUNK, dilation=JUNK,
       rules=st.fixed_dictionaries({}, optional={
           "rounding": NAMES, "pad_taps": NAMES, "empty_value": NAMES, "empty_index": NAMES,
           "nan_policy": NAMES, "ties": NAMES, "index_layout": NAMES,
           "return_indices": st.one_of(st.booleans(), NAMES)}),
       divisor=st.one_of(NAMES, JUNK), output_size=JUNK)
def test_fuzz_only_value_or_type_errors(x, kernel, stride, padding, dilation, rules, divisor,
                                        output_size):
    """Whatever comes in, the engine either works or raises PoolTutorError / PoolTutorTypeError
    (never IndexError, ZeroDivisionError, a numpy error or a warning turned error)."""
    calls = [
        lambda: max_pool(x, kernel, stride, padding, dilation, **rules),
        lambda: avg_pool(x, kernel, stride, padding, dilation,
                         **{k: v for k, v in rules.items() if k == "rounding"}, divisor=divisor),
        lambda: adaptive_max_pool(x, output_size, **{
            k: v for k, v in rules.items() if k in ("nan_policy", "ties", "index_layout")}),
        lambda: adaptive_avg_pool(x, output_size),
    ]
    for call in calls:
        try:
            result = call()
        except (PoolTutorError, PoolTutorTypeError) as exc:
            text = str(exc)
            assert "=" in text or "x " in text, text       # names what was wrong
            continue
        assert isinstance(result, pooling.PoolResult)
        assert result.output.size >= 1


# --------------------------------------------------------------------------- memory layouts

LAYOUTS = ["readonly", "fortran", "strided", "reversed", "broadcast", "swapped", "offset"]


def _variant(x, how):
    """A view equal to ``x`` but laid out ``how`` in memory; its base, to check afterwards."""
    if how == "readonly":
        v = x.copy()
        v.setflags(write=False)
        return v, v
    if how == "fortran":
        v = np.asfortranarray(x)
        return v, v
    if how == "strided":
        base = np.zeros(x.shape[:-1] + (2 * x.shape[-1],), x.dtype)
        base[..., ::2] = x
        return base[..., ::2], base
    if how == "reversed":
        base = np.ascontiguousarray(x[..., ::-1])
        return base[..., ::-1], base
    if how == "broadcast":                       # zero strides along N, read-only
        v = np.broadcast_to(x[:1], x.shape)
        return v, v
    if how == "swapped":
        base = np.ascontiguousarray(np.swapaxes(x, 0, -1))
        return np.swapaxes(base, 0, -1), base
    if how == "offset":                          # starts in the middle of a bigger buffer
        base = np.zeros((x.size + 3,), x.dtype)
        base[3:] = x.ravel()
        return base[3:].reshape(x.shape), base
    raise AssertionError(how)


@given(case=pool_cases(dtypes=("float64", "float32", "float16", "int8", "uint8", "int32")),
       how=st.sampled_from(LAYOUTS), ties=st.sampled_from(["first", "last"]),
       nan_policy=st.sampled_from(["propagate_last", "propagate_first", "first_sticks", "ignore"]),
       pad_taps=st.sampled_from(["skip", "neg_inf", "lowest"]),
       layout=st.sampled_from(["plane", "tensor", "tensor_colmajor", "nhwc", "nhwc_batch"]))
def test_any_memory_layout_gives_the_same_result_and_is_not_modified(case, how, ties, nan_policy,
                                                                       pad_taps, layout):
    x = case["x"]
    if how == "broadcast":
        x = np.broadcast_to(x[:1], x.shape).copy()
    view, base = _variant(x, how)
    np.testing.assert_array_equal(view, x)
    base_before = base.copy()
    args = {k: v for k, v in case.items() if k != "x"}
    rules = dict(ties=ties, nan_policy=nan_policy, pad_taps=pad_taps, return_indices=True,
                 index_layout=layout)

    expected = max_pool(x, **args, **rules)
    got = max_pool(view, **args, **rules)
    np.testing.assert_array_equal(got.output, expected.output)
    np.testing.assert_array_equal(got.indices, expected.indices)
    assert got.output.dtype == expected.output.dtype == x.dtype
    assert not np.shares_memory(got.output, view) and not np.shares_memory(got.indices, view)
    got.explain(*([0] * got.output.ndim))

    xf = np.nan_to_num(x, nan=0.5, posinf=4.0, neginf=-4.0) if x.dtype.kind == "f" else x
    fview, fbase = _variant(xf, how)
    fbase_before = fbase.copy()
    for divisor in ("valid", "padded", 3):
        a = avg_pool(fview, **args, divisor=divisor)
        np.testing.assert_array_equal(a.output, avg_pool(xf, **args, divisor=divisor).output)
        assert not np.shares_memory(a.output, fview)
    a.explain(*([0] * a.output.ndim))

    out = tuple(max(1, s - 1) for s in x.shape[2:])
    am = adaptive_max_pool(view, out, ties=ties, nan_policy=nan_policy, return_indices=True,
                           index_layout=layout)
    em = adaptive_max_pool(x, out, ties=ties, nan_policy=nan_policy, return_indices=True,
                           index_layout=layout)
    np.testing.assert_array_equal(am.output, em.output)
    np.testing.assert_array_equal(am.indices, em.indices)
    aa = adaptive_avg_pool(fview, out)
    np.testing.assert_array_equal(aa.output, adaptive_avg_pool(xf, out).output)
    assert not np.shares_memory(am.output, view) and not np.shares_memory(aa.output, fview)
    am.explain(*([0] * am.output.ndim))

    # nothing was written into the input or the buffer around it
    np.testing.assert_array_equal(base, base_before)
    np.testing.assert_array_equal(fbase, fbase_before)
    np.testing.assert_array_equal(view, x)


def test_read_only_input_and_identity_pooling_returns_a_new_array():
    x = np.arange(6.0).reshape(1, 2, 3)
    x.setflags(write=False)
    results = (max_pool(x, 1), avg_pool(x, 1), adaptive_max_pool(x, 3), adaptive_avg_pool(x, 3))
    for result in results:
        np.testing.assert_array_equal(result.output, x)
        assert not np.shares_memory(result.output, x)
        assert result.output.flags.writeable
