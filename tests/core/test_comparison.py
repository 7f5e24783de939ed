"""pooltutor.comparison: one ceil-mode pooling in every runtime (TV02-TV04), as a table."""

from __future__ import annotations

import numpy as np
import pytest

from pooltutor import PoolTutorError, PoolTutorTypeError
from pooltutor.comparison import CEIL_RUNTIMES, RuntimeTable, compare_ceil_modes, run_row

# ------------------------------------------------------------------ ceil mode across runtimes

L = float(np.finfo(np.float32).min)
RAW = ("openvino_max_pool/ceil", "tensorrt_pooling/EXPLICIT_ROUND_UP")


@pytest.mark.parametrize(
    ("x", "kernel", "stride", "padding", "clipped", "raw"),
    [
        # TV02: 3x3 1..9, K2 S2 p1: the clip rule gives 2x2, the raw ceil 3x3
        (
            np.arange(1.0, 10.0).reshape(1, 1, 3, 3),
            2,
            2,
            1,
            [[1, 3], [7, 9]],
            {
                "openvino_max_pool/ceil": [[1, 3, L], [7, 9, L], [L, L, L]],
                "tensorrt_pooling/EXPLICIT_ROUND_UP": [
                    [1, 3, -np.inf],
                    [7, 9, -np.inf],
                    [-np.inf] * 3,
                ],
            },
        ),
        # TV03: 1..5, K2 S2 p1
        (
            np.arange(1.0, 6.0).reshape(1, 1, 5),
            2,
            2,
            1,
            [1, 3, 5],
            {
                "openvino_max_pool/ceil": [1, 3, 5, L],
                "tensorrt_pooling/EXPLICIT_ROUND_UP": [1, 3, 5, -np.inf],
            },
        ),
        # TV04: 1..6, K1 S2, no padding: the raw ceil starts a window at 6 = I
        (
            np.arange(1.0, 7.0).reshape(1, 1, 6),
            1,
            2,
            0,
            [1, 3, 5],
            {
                "openvino_max_pool/ceil": [1, 3, 5, L],
                "tensorrt_pooling/EXPLICIT_ROUND_UP": [1, 3, 5, -np.inf],
            },
        ),
    ],
    ids=["TV02", "TV03", "TV04"],
)
def test_compare_ceil_modes_tv02_tv04(x, kernel, stride, padding, clipped, raw):
    t = compare_ceil_modes(x.astype(np.float32), kernel, stride, padding)
    assert [r.call for r in t.rows] == [c for _, c in CEIL_RUNTIMES]
    for row in t.rows:
        want = raw.get(row.call, clipped)
        assert row.error is None
        assert row.output[0, 0].tolist() == want, row.runtime
        assert row.shape == np.asarray(want).shape
    assert t.shapes[t.row("torch_max_pool").runtime] == np.asarray(clipped).shape
    text = str(t)
    assert text.splitlines()[0].startswith(
        f"max pool, kernel {kernel}, stride {stride}, padding {padding}"
    )
    assert "-3.4e+38" in text and "-inf" in text


def test_compare_ceil_modes_keeps_refusals_and_warnings():
    t = compare_ceil_modes(np.arange(1.0, 7.0).reshape(1, 1, 6), 3, 2, 3)  # TRT Example 2
    torch = t.row("torch_max_pool")
    assert torch.output is None and "pad should be at most half of kernel size" in torch.error
    assert "refuses: padding=3" in str(t)
    caffe = t.row("tensorrt_pooling/CAFFE_ROUND_UP")
    assert caffe.shape == (5,) and any("Restriction 1" in n for n in caffe.notes)
    assert t.row("tensorrt_pooling/EXPLICIT_ROUND_UP").shape == (6,)
    # a CAFFE pooling TensorRT rejects is a refusal, not an exception
    t = compare_ceil_modes(np.arange(1.0, 7.0).reshape(1, 1, 6), 1, 2, 3)
    assert "rejects this pooling" in t.row("tensorrt_pooling/CAFFE_ROUND_UP").error


def test_compare_ceil_modes_checks_its_arguments():
    with pytest.raises(PoolTutorError, match=r"x has shape \(1, 1, 2, 2, 2\)"):
        compare_ceil_modes(np.zeros((1, 1, 2, 2, 2)), 2, 2)
    with pytest.raises(PoolTutorError, match="kernel=0 is not allowed"):
        compare_ceil_modes(np.zeros((1, 1, 4)), 0, 2)
    with pytest.raises(PoolTutorTypeError, match="padding=1.5 has type float"):
        compare_ceil_modes(np.zeros((1, 1, 4)), 2, 2, 1.5)
    with pytest.raises(PoolTutorError, match="runtime_or_call='caffe' is not a row"):
        compare_ceil_modes(np.zeros((1, 1, 4)), 2, 2).row("caffe")


def test_runtime_table_cells_and_added_columns():
    t = compare_ceil_modes(np.arange(1.0, 6.0).reshape(1, 1, 5), 2, 2, 1)      # TV03
    assert t.cells()[0] == ["framework", "shape", "output[0, 0]"]
    wider = t.with_column("size", lambda row: str(row.output.size))
    assert isinstance(wider, RuntimeTable) and t.columns != wider.columns
    rows = {r[0]: r for r in wider.cells()[1:]}
    assert rows["OpenVINO MaxPool-8, rounding_type=ceil"][1:] == ["4", "[1, 3, 5, -1.8e+308]", "4"]
    assert str(wider).splitlines()[1].split()[-1] == "size"
    assert str(t).splitlines()[1:] != str(wider).splitlines()[1:]
    with pytest.raises(PoolTutorTypeError, match="header=3"):
        t.with_column(3, str)


def test_run_row_keeps_output_refusal_warnings_and_extra_facts():
    import warnings

    def warns():
        warnings.warn("careful", UserWarning, stacklevel=1)
        return np.zeros((1, 1, 2))

    def refuses():
        raise PoolTutorError("kernel=9 does not fit")

    ok = run_row("A", "a", warns, spec="floor")
    assert ok.shape == (2,) and ok.notes == ("careful",) and ok.extra["spec"] == "floor"
    bad = run_row("B", "b", refuses)
    assert bad.output is None and bad.shape is None and "does not fit" in bad.error
    table = RuntimeTable("t", (ok, bad))
    assert str(table).splitlines()[-1].split(None, 1) == ["B", "refuses: kernel=9 does not fit"]

    def broken():
        raise KeyError("a bug, not a refusal")

    with pytest.raises(KeyError):
        run_row("C", "c", broken)


def test_compare_ceil_modes_spec_and_runtime_side_by_side():
    """follow='both': the runtime column is each framework's CPU runtime (follow='runtime'),
    marked where it departs from its own specification (OpenVINO computes float64 as
    float32: its empty window is float32's lowest); TensorRT has no runtime here."""
    import numpy as np

    from pooltutor.comparison import compare_ceil_modes

    x = np.arange(1.0, 6.0).reshape(1, 1, 5)                       # TV03
    table = compare_ceil_modes(x, 2, 2, 1, follow="both")
    assert [c.header for c in table.columns] == ["specification", "CPU runtime"]
    cells = {row[0]: row[1:] for row in table.cells()[1:]}
    assert cells["PyTorch max_pool, ceil_mode=True"] == ["3: [1, 3, 5]", "3: [1, 3, 5]"]
    ov = cells["OpenVINO MaxPool-8, rounding_type=ceil"]
    assert ov[0].startswith("4: ") and ov[1].endswith("<- departs")
    assert cells["TensorRT 8 CAFFE_ROUND_UP"][1] == "not run here (no GPU)"
    runtime = compare_ceil_modes(x, 2, 2, 1, follow="runtime")
    assert runtime.shapes["ONNX MaxPool, ceil_mode=1"] == (3,)
    assert runtime.row("tensorrt_pooling/EXPLICIT_ROUND_UP").output is None


def test_compare_ceil_modes_refuses_an_unknown_follow():
    import numpy as np
    import pytest

    from pooltutor.comparison import compare_ceil_modes

    with pytest.raises(ValueError, match="follow='exact' is not allowed"):
        compare_ceil_modes(np.zeros((1, 1, 4)), 2, 2, follow="exact")
