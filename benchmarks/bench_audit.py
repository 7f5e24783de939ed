"""Model audit speed: ``pooltutor.audit`` on a 300-node model (target <= 2 s).

Run from the repository root (a plain script, no pytest)::

    python benchmarks/bench_audit.py               # 5 rounds
    python benchmarks/bench_audit.py --repeats 9 --nodes 600

The model is a MaxPool 2/2 pad 1 ceil_mode (where OpenVINO and TensorRT part from the
spec on a 33 x 33 input), then a chain of blocks ``Conv 3x3 -> Relu -> MaxPool 3/1 pad 1
(ceil_mode) -> Conv 1x1 -> AveragePool 3/1 pad 1`` and a Shape -> Gather -> Concat ->
Reshape tail,
built with ``onnx.helper`` (random weights): two thirds of its nodes are audited
(five runtime rules each), the rest pass through ONNX shape inference per runtime.
The first round is cold (nothing cached); the table shows it, and the median and the
minimum of the rounds after it, each on a fresh copy of the model.  Exit status 1 only if
the audit's outputs change between rounds, never because of a timing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402


def build(n_nodes: int, size: int = 33):
    from onnx import TensorProto, helper, numpy_helper

    from pooltutor.audit_models import ModelBuilder

    b = ModelBuilder((1, 8, size, size), "bench_audit")
    # openvinotoolkit/openvino#18731's pool first: OpenVINO and TensorRT go one row longer
    # from here on, so every later node is computed from two different input shapes
    b.node("MaxPool", kernel_shape=[2, 2], strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1)
    while len(b.nodes) < n_nodes - 5:
        b.conv(8, 3, pads=[1, 1, 1, 1])                       # Conv + Relu
        b.node("MaxPool", kernel_shape=[3, 3], strides=[1, 1], pads=[1, 1, 1, 1],
               ceil_mode=1)
        b.conv(8, 1, relu=False)
        b.node("AveragePool", kernel_shape=[3, 3], strides=[1, 1], pads=[1, 1, 1, 1],
               count_include_pad=1)
    idx = numpy_helper.from_array(np.array([0, 1], np.int64), "bench_idx")
    m1 = numpy_helper.from_array(np.array([-1], np.int64), "bench_m1")
    b.inits.extend([idx, m1])
    last = b.last
    b.node("Shape", [last], name="shape")
    b.node("Gather", ["shape", "bench_idx"], name="gather", axis=0)
    b.node("Concat", ["gather", "bench_m1"], name="newshape", axis=0)
    b.node("Reshape", [last, "newshape"], name="flat")
    model = b.build()
    del helper, TensorProto
    return model


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)

    import onnx

    from pooltutor import audit
    from pooltutor.model_audit import RUNTIMES

    model = build(args.nodes)
    n = len(model.graph.node)
    data = model.SerializeToString()
    times, results = [], []
    for _ in range(args.repeats + 1):
        fresh = onnx.load_from_string(data)
        t = time.perf_counter()
        report = audit(fresh)
        times.append(time.perf_counter() - t)
        results.append(report.to_dict())
    audited = len(report.nodes)
    cold, warm = times[0], times[1:]
    print(f"model: {n} nodes ({audited} audited x {len(RUNTIMES)} runtimes, "
          f"{n - audited} through shape inference), input (1, 8, 33, 33)")
    print(f"| round | seconds |\n|---|---|\n| cold (first) | {cold:.3f} |")
    if warm:
        print(f"| median of {len(warm)} after it | {statistics.median(warm):.3f} |")
        print(f"| minimum | {min(warm):.3f} |")
    target = 2.0
    print(f"target <= {target:.1f} s for the cold audit: {'PASS' if cold <= target else 'MISS'}")
    same = all(r == results[0] for r in results)
    if not same:
        print("ERROR: the audit's report changed between rounds")
    print(f"disagreeing nodes: {sum(not x['agree'] for x in results[0]['nodes'])}, "
          f"first: {next((x['name'] for x in results[0]['nodes'] if not x['agree']), None)}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
