"""TFLite int8 MAX_POOL_2D / AVERAGE_POOL_2D (seed 003's subject), run in the
interpreter bundled with tensorflow, against pooltutor.quant.

Tiny Keras models are converted with full-integer quantization (a
representative dataset, int8 input and output); ``quantized_max_pool`` and
``quantized_avg_pool`` must reproduce the interpreter's int8 outputs exactly
with the converter's scale and zero point, the rounding of the average
included (the test measures which rounding TFLite uses: see ROUNDING).
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from oracle_runtimes import require

from pooltutor import quant

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
tf = require("tensorflow")

# third-party notes of the converter and of tf.lite.Interpreter (moving to ai-edge-litert)
pytestmark = [pytest.mark.filterwarnings("ignore:Statistics for quantized inputs"),
              pytest.mark.filterwarnings("ignore:.*tf.lite.Interpreter is deprecated"),
              pytest.mark.filterwarnings("ignore::DeprecationWarning")]

SHAPE = (1, 7, 7, 2)
N_INPUTS = 60


def _convert(layer):
    model = tf.keras.Sequential([tf.keras.Input(SHAPE[1:], batch_size=1), layer])
    rng = np.random.default_rng(3)

    def representative():
        for _ in range(20):
            yield [rng.uniform(-3, 5, SHAPE).astype(np.float32)]

    conv = tf.lite.TFLiteConverter.from_keras_model(model)
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    conv.representative_dataset = representative
    conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    conv.inference_input_type = tf.int8
    conv.inference_output_type = tf.int8
    interp = tf.lite.Interpreter(model_content=conv.convert())
    interp.allocate_tensors()
    return interp


def _run(interp, q):
    i, o = interp.get_input_details()[0], interp.get_output_details()[0]
    interp.set_tensor(i["index"], q)
    interp.invoke()
    return interp.get_tensor(o["index"]), i["quantization"], o["quantization"]


LAYERS = [
    ("max", tf.keras.layers.MaxPooling2D(2, 2, "valid"), dict(kernel=2, stride=2)),
    ("max", tf.keras.layers.MaxPooling2D(3, 2, "same"), dict(kernel=3, stride=2, padding=1)),
    ("avg", tf.keras.layers.AveragePooling2D(2, 2, "valid"), dict(kernel=2, stride=2)),
    ("avg", tf.keras.layers.AveragePooling2D(3, 1, "valid"), dict(kernel=3, stride=1)),
    ("avg", tf.keras.layers.AveragePooling2D(3, 2, "same"), dict(kernel=3, stride=2, padding=1)),
]

#: TFLite's int8 average rounding, measured (tensorflow 2.21): half away from zero
ROUNDING = "half_away"


@pytest.mark.parametrize("op, layer, geo", LAYERS, ids=[
    f"{op}-{layer.pool_size}-{layer.strides}-{layer.padding}" for op, layer, _ in LAYERS])
def test_int8_pools_match_the_interpreter(op, layer, geo):
    interp = _convert(layer)
    rng = np.random.default_rng(4)
    ties = 0
    for _ in range(N_INPUTS):
        q = rng.integers(-128, 128, SHAPE).astype(np.int8)
        y, (si, zi), (so, zo) = _run(interp, q)
        assert (si, zi) == (so, zo)                   # TFLite: same scale and zero point
        nchw = np.moveaxis(q, 3, 1)
        if op == "max":
            ours = quant.quantized_max_pool(nchw, **geo).output
        else:
            ours = quant.quantized_avg_pool(nchw, **geo, rounding=ROUNDING, zero_point=zi)
            sums = quant.quantized_avg_pool(nchw, **geo, rounding="trunc", zero_point=zi)
            ties += int(np.sum(ours != sums))
        np.testing.assert_array_equal(np.moveaxis(ours, 1, 3), y)
    if op == "avg":
        assert ties > 0                               # the rounding was exercised


def test_other_roundings_disagree_with_the_interpreter():
    """The measurement behind ROUNDING: half-even or half-up would not reproduce TFLite."""
    interp = _convert(tf.keras.layers.AveragePooling2D(2, 2, "valid"))
    rng = np.random.default_rng(5)
    wrong = {"half_even": 0, "half_up": 0, "trunc": 0}
    for _ in range(20):
        q = rng.integers(-128, 128, SHAPE).astype(np.int8)
        y, _, (_, zo) = _run(interp, q)
        for mode in wrong:
            ours = quant.quantized_avg_pool(np.moveaxis(q, 3, 1), 2, rounding=mode, zero_point=zo)
            wrong[mode] += int(np.sum(np.moveaxis(ours, 1, 3) != y))
    assert all(v > 0 for v in wrong.values()), wrong
