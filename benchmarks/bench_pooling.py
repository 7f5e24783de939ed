"""Pooling speed: pooltutor's numpy engine against onnxruntime, PyTorch and onnx.reference.

Run from the repository root (a plain script, no pytest)::

    python benchmarks/bench_pooling.py                       # everything, 21 rounds
    python benchmarks/bench_pooling.py --repeats 31 --json results.json
    python benchmarks/bench_pooling.py --cases 1,2 --no-explorer

Method
------
* Every contender runs once first and its result is compared with
  pooltutor's (values exactly, indices after converting their layout;
  averages to float32 rounding), so that no row times different work.
* Then ``--warmup`` rounds, then ``--repeats`` timed rounds.  In each round
  every contender of a case runs once, in an order rotated from round to
  round (round-robin), so that a burst of load from other processes hits
  all of them alike.  The table shows the median and the minimum per
  contender, and the ratios ``pooltutor / contender`` of the medians (the
  targets) and of the minima (the quiet-machine view).
* Before each contender's runs the bench waits until the other threads of
  the process have stopped spinning (:func:`quiesce`, from Linux's
  schedstat; ``--no-quiesce`` turns this off): after one call onnxruntime's
  pool spins for about 55 ms of CPU, PyTorch's for about 9 ms.
* Every timed run directly follows an untimed run of the same contender
  (``--no-prime`` turns this off).  Without it, whoever runs after
  onnxruntime or PyTorch competes with their thread pools, which keep
  spinning for a moment after their work; and a pause instead (``--gap-ms``)
  lets the core go idle, which made a 0.2 ms numpy call take 0.5 ms here.
* onnx.reference (pure Python) runs once only.
* ``--baseline DIR`` adds another checkout's pooltutor as the contender
  ``pooltutor@base``, timed in the same rounds: before / after under one load.
* PyTorch, onnxruntime and pooltutor get ``--threads`` threads (default 2,
  the cores of the reference machine; pooltutor's through
  :func:`pooltutor.threads.set_num_threads`: its box passes split large
  inputs over threads, numpy releasing the GIL in each ufunc loop).
* pooltutor's CPU time on the calling thread is recorded too
  (``time.thread_time``; the process time would also count onnxruntime's and
  PyTorch's pools, which keep spinning for a moment after their runs): on a
  loaded machine that is its work there without the waits for a core that
  inflate the wall-clock medians.  Where pooltutor splits a case over
  threads, this is the caller's share.
* Peak memory: ``tracemalloc`` (numpy reports its allocations to it) around
  one pooltutor call of case 1, against the bytes of the input plus outputs.
* The explorer update latency comes from ``benchmarks/bench_explorer.py``,
  run in a subprocess when it exists; its table is copied into this one.

The targets of issues 9 and 20 are checked at the end (``PASS`` / ``MISS``).  The
exit status is 1 when a result disagrees, never because of a timing: timings
on a shared machine are information, not a test.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import threading
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:          # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

from pooltutor import pooling  # noqa: E402
from pooltutor import threads as engine_threads  # noqa: E402
from pooltutor.indexing import convert_indices  # noqa: E402

try:
    from pooltutor import frameworks
except ImportError:                    # pragma: no cover - before frameworks.py landed
    frameworks = None

try:
    import torch
    import torch.nn.functional as F
except ImportError:                    # pragma: no cover - torch is optional
    torch = F = None

try:
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper
    from onnx.reference import ReferenceEvaluator
except ImportError:                    # pragma: no cover
    onnx = ort = None

OPSET = 22
WINDOWS = (3, 5, 7, 11)                 # the window-growth cases w3 ... w11
ALL_CASES = ("1", "2", "3a", "3a.i", "3b", "3c", "3d", "3e") + tuple(f"w{k}" for k in WINDOWS)
TARGETS = [  # (case, contender, kind, limit, text); kind "ratio": pooltutor/x <= limit,
    #          kind "growth": pooltutor's time on case / on case `contender` <= limit
    # issue 9
    ("1", "onnxruntime", "ratio", 1.0, "case 1 <= 1.0x onnxruntime"),
    ("2", "torch", "ratio", 0.7, "case 2 <= 0.7x PyTorch"),
    ("1", "onnx.reference", "speedup", 200.0, "case 1 >= 200x faster than onnx.reference"),
    ("3d", "torch", "ratio", 2.0, "adaptive 14->7 <= 2x PyTorch"),
    ("3e", "torch", "ratio", 2.0, "adaptive 56->5 <= 2x PyTorch"),
    # issue 20: within 4x of onnxruntime everywhere, ahead of PyTorch everywhere
    *[(key, "onnxruntime", "ratio", 4.0, f"case {key} <= 4.0x onnxruntime")
      for key in ("2", "3a", "3a.i", "3b", "3c")],
    *[(key, "torch", "ratio", 1.0, f"case {key} <= 1.0x PyTorch")
      for key in ("1", "2", "3a", "3a.i", "3b", "3c", "3d", "3e")],
    ("w7", "w3", "growth", 1.5, "avg 7x7 s2 p3 <= 1.5x avg 3x3 s2 p1"),
]


# --------------------------------------------------------------------------- contenders


@dataclass
class Case:
    key: str
    title: str
    x: np.ndarray
    ours_name: str
    ours: Callable[[], Any]
    others: dict[str, Callable[[], Any]] = field(default_factory=dict)
    once: dict[str, Callable[[], Any]] = field(default_factory=dict)   # run one time only
    layouts: dict[str, str] = field(default_factory=dict)  # index layout of each contender
    exact: bool = True                 # False: averages, compared to float32 rounding


def ort_model(op: str, shape, with_indices: bool, **attrs):
    """A one-node ONNX model with a fixed input shape."""
    x = helper.make_tensor_value_info("X", TensorProto.FLOAT, list(shape))
    outputs = [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)]
    if with_indices:
        outputs.append(helper.make_tensor_value_info("Indices", TensorProto.INT64, None))
    node = helper.make_node(op, ["X"], [o.name for o in outputs], **attrs)
    return helper.make_model(helper.make_graph([node], op, [x], outputs),
                             opset_imports=[helper.make_opsetid("", OPSET)])


def ort_runner(model, x, threads: int):
    """Run ``model`` on ``x`` in an onnxruntime session with ``threads`` intra-op threads."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(model.SerializeToString(), options,
                                   providers=["CPUExecutionProvider"])

    def run():
        out = session.run(None, {"X": x})
        return tuple(out) if len(out) > 1 else out[0]
    return run


def reference_runner(model, x):
    evaluator = ReferenceEvaluator(model)

    def run():
        out = evaluator.run(None, {"X": x})
        return tuple(out) if len(out) > 1 else out[0]
    return run


def torch_runner(fn, x, *args, **kwargs):
    tensor = torch.from_numpy(x)

    def run():
        return fn(tensor, *args, **kwargs)
    return run


def ours_max(x, kernel, stride, padding=0, indices=False, layout="plane"):
    """pooltutor through frameworks.py (the public mapping) when it exists, else the engine."""
    fw = frameworks
    if layout == "tensor" and fw is not None and hasattr(fw, "onnx_max_pool"):
        nd = x.ndim - 2
        pads = [padding] * (2 * nd)
        return ("frameworks.onnx_max_pool",
                lambda: fw.onnx_max_pool(x, [kernel] * nd, [stride] * nd, pads))
    if layout == "plane" and fw is not None and hasattr(fw, "torch_max_pool"):
        return ("frameworks.torch_max_pool",
                lambda: fw.torch_max_pool(x, kernel, stride, padding, return_indices=indices))

    def engine():
        r = pooling.max_pool(x, kernel, stride, padding, return_indices=indices,
                             index_layout=layout)
        return (r.output, r.indices) if indices else r.output
    return f"pooling.max_pool({layout})" if indices else "pooling.max_pool", engine


def load_baseline(root: str):
    """The ``pooling`` and ``frameworks`` modules of another checkout (``--baseline``),
    imported as the package ``pooltutor_baseline`` beside this one."""
    import importlib
    import importlib.util
    package = Path(root).resolve() / "pooltutor"
    spec = importlib.util.spec_from_file_location(
        "pooltutor_baseline", package / "__init__.py", submodule_search_locations=[str(package)])
    module = importlib.util.module_from_spec(spec)
    sys.modules["pooltutor_baseline"] = module
    spec.loader.exec_module(module)
    base_pooling = importlib.import_module("pooltutor_baseline.pooling")
    try:
        base_frameworks = importlib.import_module("pooltutor_baseline.frameworks")
    except ImportError:                # pragma: no cover - before frameworks.py landed
        base_frameworks = None
    return base_pooling, base_frameworks


def add_baseline(cases: list[Case], root: str, threads: int, selected: set[str]) -> None:
    """Time the baseline checkout's pooltutor as one more contender of every case,
    ``pooltutor@base``, in the same interleaved rounds: its ratio is after / before
    under the same load (the cases are rebuilt from the same seed, so the data are equal)."""
    global pooling, frameworks
    ours = pooling, frameworks
    pooling, frameworks = load_baseline(root)
    try:
        base_cases = build_cases(threads, selected, contenders=False)
    finally:
        pooling, frameworks = ours
    for case, base in zip(cases, base_cases, strict=True):
        case.others["pooltutor@base"] = base.ours
        if "pooltutor" in case.layouts:
            case.layouts["pooltutor@base"] = case.layouts["pooltutor"]


def add_one_thread(cases: list[Case]) -> None:
    """pooltutor on the calling thread alone, ``pooltutor 1 thread``, as one more
    contender in the same rounds (``--one-thread``): what its threads change."""
    def on_one_thread(call: Callable[[], Any]) -> Callable[[], Any]:
        def run() -> Any:
            before = engine_threads.num_threads()
            engine_threads.set_num_threads(1)
            try:
                return call()
            finally:
                engine_threads.set_num_threads(before)
        return run

    for case in cases:
        case.others["pooltutor 1 thread"] = on_one_thread(case.ours)
        if "pooltutor" in case.layouts:
            case.layouts["pooltutor 1 thread"] = case.layouts["pooltutor"]


def numpy_floor(x: np.ndarray, threads: int, check: bool) -> Callable[[], np.ndarray]:
    """The least numpy can do for case 3c (``--floor``): 3x3 stride 2 padding 1 averages
    of ``x`` (N = 1, 112 x 112 planes), with the calls of pooltutor's box passes and
    nothing else: per block of planes (one per thread) two float64 calls over the rows,
    two over the flat columns (output 0 of every row, whose left tap is padding, saved
    and put back), one division by 9 into float32.  With ``check``, also the exactness
    check pooltutor adds (each plane's largest and smallest magnitude: one shift, two
    reductions), its result unused.  No argument checks, no geometry, no plan: written
    for this one shape, not exact for every input (pooltutor's check is what makes it
    exact), so it is a bound on what pooltutor's structure could reach, not a contender
    a user could pick."""
    from concurrent.futures import ThreadPoolExecutor
    bounds = np.linspace(0, x.shape[1], threads + 1).round().astype(int)
    blocks = [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
    pool = ThreadPoolExecutor(len(blocks))
    work = [(np.empty((b - a, 56, 112)), np.empty((b - a, 56, 56)),
             np.empty((b - a, 112, 112), np.uint32)) for a, b in blocks]

    def block(i: int, y: np.ndarray) -> None:
        c0, c1 = blocks[i]
        xb = x[0, c0:c1]
        rows, cols, mag = work[i]
        np.add(xb[:, 0::2], xb[:, 1::2], out=rows, dtype=np.float64)
        np.add(rows[:, 1:], xb[:, 1:-1:2], out=rows[:, 1:], dtype=np.float64)
        flat, out = rows.reshape(-1), cols.reshape(-1)
        np.add(flat[0::2], flat[1::2], out=out)
        first = cols[:, :, 0].copy()
        np.add(out[1:], flat[1:-2:2], out=out[1:])
        cols[:, :, 0] = first
        if check:
            np.left_shift(xb.view(np.uint32), 1, out=mag)
            mag.max(axis=(1, 2))
            mag.min(axis=(1, 2))
        np.divide(cols, 9, out=y[0, c0:c1], casting="same_kind")

    def run() -> np.ndarray:
        y = np.empty(x.shape[:2] + (56, 56), dtype=np.float32)
        list(pool.map(lambda i: block(i, y), range(len(blocks))))
        return y
    return run


def build_cases(threads: int, selected: set[str], contenders: bool = True,
                floor: bool = False) -> list[Case]:
    # (every pooltutor call binds the modules now, as a default argument: --baseline
    # builds the cases a second time with another checkout's modules)
    rng = np.random.default_rng(0)
    cases = []
    have_ort, have_torch = (ort is not None and contenders), (torch is not None and contenders)

    # 1 and 2: the common ResNet stem pooling, 3x3 stride 2 padding 1
    x1 = rng.standard_normal((1, 64, 112, 112), dtype=np.float32)
    stem = dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    if "1" in selected:
        case = Case("1", "max pool + indices, f32 (1,64,112,112), 3x3 s2 p1", x1,
                    *ours_max(x1, 3, 2, 1, indices=True, layout="tensor"),
                    layouts={"pooltutor": "tensor", "onnxruntime": "tensor",
                             "torch": "plane", "onnx.reference": "tensor"})
        if have_ort:
            model = ort_model("MaxPool", x1.shape, True, **stem)
            case.others["onnxruntime"] = ort_runner(model, x1, threads)
            case.once["onnx.reference"] = reference_runner(model, x1)
        if have_torch:
            case.others["torch"] = torch_runner(F.max_pool2d, x1, 3, 2, 1, return_indices=True)
        cases.append(case)
    if "2" in selected:
        case = Case("2", "max pool, no indices, f32 (1,64,112,112), 3x3 s2 p1", x1,
                    *ours_max(x1, 3, 2, 1))
        if have_torch:
            case.others["torch"] = torch_runner(F.max_pool2d, x1, 3, 2, 1)
        if have_ort:
            case.others["onnxruntime"] = ort_runner(ort_model("MaxPool", x1.shape, False, **stem),
                                                    x1, threads)
        cases.append(case)

    # 3: a batch with 2x2 windows, a 3-D pooling, an average, adaptive pooling
    x3 = rng.standard_normal((8, 64, 56, 56), dtype=np.float32)
    for key, indices in (("3a", False), ("3a.i", True)):
        if key not in selected:
            continue
        case = Case(key, f"max pool{' + indices' if indices else ''}, f32 (8,64,56,56), 2x2 s2",
                    x3, *ours_max(x3, 2, 2, indices=indices),
                    layouts={"pooltutor": "plane", "torch": "plane", "onnxruntime": "tensor"})
        if have_torch:
            case.others["torch"] = torch_runner(F.max_pool2d, x3, 2, 2, return_indices=indices)
        if have_ort:
            model = ort_model("MaxPool", x3.shape, indices, kernel_shape=[2, 2], strides=[2, 2])
            case.others["onnxruntime"] = ort_runner(model, x3, threads)
        cases.append(case)
    if "3b" in selected:
        x5 = rng.standard_normal((1, 16, 32, 64, 64), dtype=np.float32)
        case = Case("3b", "max pool 3-D, f32 (1,16,32,64,64), 3x3x3 s2", x5, *ours_max(x5, 3, 2))
        if have_torch:
            case.others["torch"] = torch_runner(F.max_pool3d, x5, 3, 2)
        if have_ort:
            model = ort_model("MaxPool", x5.shape, False, kernel_shape=[3, 3, 3],
                              strides=[2, 2, 2])
            case.others["onnxruntime"] = ort_runner(model, x5, threads)
        cases.append(case)
    if "3c" in selected:
        if frameworks is not None and hasattr(frameworks, "torch_avg_pool"):
            ours = ("frameworks.torch_avg_pool",
                    lambda fw=frameworks: fw.torch_avg_pool(x1, 3, 2, 1,
                                                           count_include_pad=True))
        else:
            ours = ("pooling.avg_pool(padded)",
                    lambda pl=pooling: pl.avg_pool(x1, 3, 2, 1, divisor="padded").output)
        case = Case("3c", "avg pool count_include_pad, f32 (1,64,112,112), 3x3 s2 p1", x1, *ours,
                    exact=False)
        if have_torch:
            case.others["torch"] = torch_runner(F.avg_pool2d, x1, 3, 2, 1,
                                                count_include_pad=True)
        if have_ort:
            model = ort_model("AveragePool", x1.shape, False, count_include_pad=1, **stem)
            case.others["onnxruntime"] = ort_runner(model, x1, threads)
        if floor:
            case.others["numpy passes"] = numpy_floor(x1, threads, check=False)
            case.others["numpy passes+check"] = numpy_floor(x1, threads, check=True)
        cases.append(case)
    # w3 ... w11: the same average pooling with a growing window (padding K // 2)
    for k in WINDOWS:
        key = f"w{k}"
        if key not in selected:
            continue
        if frameworks is not None and hasattr(frameworks, "torch_avg_pool"):
            ours = ("frameworks.torch_avg_pool",
                    lambda k=k, fw=frameworks: fw.torch_avg_pool(x1, k, 2, k // 2,
                                                                 count_include_pad=True))
        else:
            ours = ("pooling.avg_pool(padded)",
                    lambda k=k, pl=pooling: pl.avg_pool(x1, k, 2, k // 2,
                                                        divisor="padded").output)
        case = Case(key, f"avg pool count_include_pad, f32 (1,64,112,112), {k}x{k} s2 p{k // 2}",
                    x1, *ours, exact=False)
        if have_torch:
            case.others["torch"] = torch_runner(F.avg_pool2d, x1, k, 2, k // 2,
                                                count_include_pad=True)
        if have_ort:
            model = ort_model("AveragePool", x1.shape, False, count_include_pad=1,
                              kernel_shape=[k, k], strides=[2, 2], pads=[k // 2] * 4)
            case.others["onnxruntime"] = ort_runner(model, x1, threads)
        cases.append(case)
    for key, shape, out in (("3d", (1, 512, 14, 14), 7), ("3e", (1, 64, 56, 56), 5)):
        if key not in selected:
            continue
        xa = rng.standard_normal(shape, dtype=np.float32)
        if frameworks is not None and hasattr(frameworks, "torch_adaptive_max_pool"):
            ours = ("frameworks.torch_adaptive_max_pool",
                    lambda xa=xa, out=out, fw=frameworks: fw.torch_adaptive_max_pool(
                        xa, out, return_indices=True))
        else:
            ours = ("pooling.adaptive_max_pool",
                    lambda xa=xa, out=out, pl=pooling: tuple(pl.adaptive_max_pool(
                        xa, out, return_indices=True)))
        case = Case(key, f"adaptive max pool + indices, f32 {shape} -> ({out},{out})", xa,
                    *ours, layouts={"pooltutor": "plane", "torch": "plane"})
        if have_torch:
            case.others["torch"] = torch_runner(F.adaptive_max_pool2d, xa, out,
                                                return_indices=True)
        cases.append(case)
    return cases


def _arrays(out):
    """``(values, indices or None)`` as numpy arrays, from any contender's result."""
    y, i = out if isinstance(out, tuple) else (out, None)
    if torch is not None and isinstance(y, torch.Tensor):
        y, i = y.numpy(), None if i is None else i.numpy()
    return np.asarray(y), None if i is None else np.asarray(i)


def agreement(case: Case, ours, theirs, name: str) -> str:
    y0, i0 = _arrays(ours)
    y1, i1 = _arrays(theirs)
    if y0.shape != y1.shape:
        return f"SHAPE {y1.shape} DIFFERS"
    if not case.exact:
        err = float(np.max(np.abs(y0.astype(np.float64) - y1)))
        tolerance = 4 * np.finfo(np.float32).eps * float(np.max(np.abs(y1)))
        return "same" if err == 0 else f"|diff| <= {err:.1e}" if err <= tolerance else \
            f"VALUES DIFFER by {err:.1e}"
    if not np.array_equal(y0, y1, equal_nan=True):
        return "VALUES DIFFER"
    if i0 is not None and i1 is not None:
        i1 = convert_indices(i1.astype(np.int64), case.x.shape, case.layouts[name],
                             case.layouts["pooltutor"])
        if not np.array_equal(i0, i1):
            return "INDICES DIFFER"
    return "same"


# --------------------------------------------------------------------------- measuring


def _other_threads_cpu_ns() -> int | None:
    """CPU time (ns) used so far by this process's threads other than the calling one,
    from Linux's /proc/self/task/*/schedstat; None where that is not available."""
    me = str(threading.get_native_id())
    total = 0
    try:
        for task in os.listdir("/proc/self/task"):
            if task != me:
                try:
                    with open(f"/proc/self/task/{task}/schedstat") as f:
                        total += int(f.read().split()[0])
                except (FileNotFoundError, ProcessLookupError):   # a thread that just ended
                    pass
    except OSError:
        return None
    return total


def quiesce(limit: float = 0.5, window: float = 0.002, fallback: float = 0.1) -> float:
    """Wait until no other thread of this process is running, and return the wait (s).

    After a call, onnxruntime's intra-op pool keeps spinning on a core for
    about 50 ms and PyTorch's OpenMP pool for about 10 ms (measured here with
    schedstat: 55 ms and 9 ms of their threads' CPU after one call), waiting
    for more work.  A contender timed inside that spin shares its cores with
    them.  So before each contender's priming and timed runs the bench waits
    until the other threads have used less than a tenth of ``window`` of CPU
    over ``window`` (at most ``limit`` seconds); without schedstat it sleeps
    ``fallback`` seconds.
    """
    start = time.perf_counter()
    before = _other_threads_cpu_ns()
    if before is None:
        time.sleep(fallback)
        return fallback
    while time.perf_counter() - start < limit:
        time.sleep(window)
        after = _other_threads_cpu_ns()
        if after is None or after - before < window * 1e9 / 10:
            break
        before = after
    return time.perf_counter() - start


def time_case(case: Case, repeats: int, warmup: int, gap: float = 0.0,
              prime: bool = True, quiet: bool = True) -> dict[str, dict[str, Any]]:
    """Interleaved timing: every round runs each contender once, in a rotated order.

    With ``quiet`` the bench first waits until the threads of the contender
    before have stopped spinning (:func:`quiesce`).  With ``prime`` an untimed
    call of the same contender comes right before each timed one, so that
    every contender is timed warm (its data in the caches, its threads
    awake) whoever ran before it; ``gap`` seconds of sleep come before that.
    """
    contenders = {"pooltutor": case.ours, **case.others}
    names = list(contenders)
    first = contenders["pooltutor"]()
    agrees = {name: agreement(case, first, contenders[name](), name) for name in names[1:]}
    times: dict[str, list[float]] = {name: [] for name in names}
    cpu: list[float] = []               # pooltutor's CPU time on the calling thread
    for r in range(warmup + repeats):
        shift = r % len(names)
        for name in names[shift:] + names[:shift]:
            if quiet:
                quiesce()
            if gap:
                time.sleep(gap)
            if prime:
                contenders[name]()
            c0 = time.thread_time()
            t0 = time.perf_counter()
            contenders[name]()
            elapsed = time.perf_counter() - t0
            if r >= warmup:
                times[name].append(elapsed)
                if name == "pooltutor":
                    cpu.append(time.thread_time() - c0)
    for name, run in case.once.items():
        t0 = time.perf_counter()
        out = run()
        times[name] = [time.perf_counter() - t0]
        agrees[name] = agreement(case, first, out, name)
    result = {name: {"median_ms": 1e3 * statistics.median(ts), "min_ms": 1e3 * min(ts),
                     "runs": len(ts), "agrees": agrees.get(name, "")}
              for name, ts in times.items()}
    result["pooltutor"]["cpu_median_ms"] = 1e3 * statistics.median(cpu)
    return result


def peak_memory(case: Case) -> dict[str, float]:
    """tracemalloc peak of one pooltutor call, against input + output bytes."""
    out = case.ours()                    # warm: imports, caches
    produced = sum(a.nbytes for a in _arrays(out) if a is not None)
    del out
    tracemalloc.start()
    tracemalloc.reset_peak()
    out = case.ours()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del out
    base = case.x.nbytes + produced
    return {"peak_bytes": peak, "input_plus_outputs_bytes": base, "ratio": peak / base}


# "name   median [q1, q3]   (CPU ms)   verdict": the CPU column is optional
EXPLORER_ROW = re.compile(r"^(?P<name>\S.*?)\s{2,}(?P<median>[\d.]+)\s+\[(?P<q1>[\d.]+), "
                          r"(?P<q3>[\d.]+)\]\s+(?:(?P<cpu>[\d.]+)\s+)?(?P<verdict>\w+)\s*$")


def run_explorer(timeout: float) -> dict[str, Any] | str:
    """Run benchmarks/bench_explorer.py (if present); keep its lines and parse its table."""
    script = HERE / "bench_explorer.py"
    if not script.exists():
        return "missing"
    try:
        done = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": f"timed out after {timeout:.0f} s", "lines": [], "rows": []}
    lines = [ln for ln in done.stdout.splitlines() if ln.strip()]
    rows = []
    for ln in lines:
        m = EXPLORER_ROW.match(ln)
        if m:
            rows.append({"update": m["name"], "median_ms": float(m["median"]),
                         "q1_ms": float(m["q1"]), "q3_ms": float(m["q3"]),
                         "cpu_ms": float(m["cpu"]) if m["cpu"] else None,
                         "verdict": m["verdict"]})
    status = "ok" if done.returncode == 0 else \
        f"exit {done.returncode}: {done.stderr.strip().splitlines()[-1:]}"
    return {"status": status, "lines": lines, "rows": rows}


# --------------------------------------------------------------------------- report


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = {"python": platform.python_version(), "numpy": np.__version__}
    if torch is not None:
        versions["torch"] = torch.__version__
    if ort is not None:
        versions["onnxruntime"] = ort.__version__
        versions["onnx"] = onnx.__version__
    return {"date": datetime.datetime.now().isoformat(timespec="minutes"), "cpu": cpu,
            "cores": os.cpu_count(), "versions": versions,
            "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE"),
            "load_average_start": os.getloadavg()}


def target_rows(results, memory) -> list[tuple[str, str, bool | None]]:
    rows = []
    for key, name, kind, limit, text in TARGETS:
        timing = results.get(key, (None, {}))[1]
        if kind == "growth":
            base = results.get(name, (None, {}))[1]
            if not timing or not base:
                rows.append((text, "not measured", None))
                continue
            ratio = timing["pooltutor"]["median_ms"] / base["pooltutor"]["median_ms"]
            rows.append((text, f"{ratio:.2f}x", ratio <= limit))
            continue
        if name not in timing:
            rows.append((text, "not measured", None))
            continue
        ratio = timing["pooltutor"]["median_ms"] / timing[name]["median_ms"]
        if kind == "ratio":
            rows.append((text, f"{ratio:.2f}x", ratio <= limit))
        else:
            rows.append((text, f"{1 / ratio:.0f}x faster", 1 / ratio >= limit))
    floor = results.get("3c", (None, {}))[1]
    if "numpy passes" in floor and "onnxruntime" in floor:
        for name in ("numpy passes", "numpy passes+check"):
            ratio = floor[name]["median_ms"] / floor["onnxruntime"]["median_ms"]
            rows.append((f"(--floor) 3c: {name} / onnxruntime", f"{ratio:.2f}x", None))
    if memory is not None:
        rows.append(("peak memory of case 1 <= 3x (input + outputs)", f"{memory['ratio']:.2f}x",
                     memory["ratio"] <= 3.0))
    return rows


def window_growth(results) -> dict[str, dict[int, tuple[float, float]]]:
    """Per contender: ``{K: (median ms, median / median of the 3x3 case)}``."""
    growth: dict[str, dict[int, tuple[float, float]]] = {}
    if "w3" not in results:
        return growth
    for name, base in results["w3"][1].items():
        row = {}
        for k in WINDOWS:
            timing = results.get(f"w{k}", (None, {}))[1]
            if name in timing:
                t = timing[name]["median_ms"]
                row[k] = (t, t / base["median_ms"])
        growth[name] = row
    return growth


def report(results, memory, explorer, info, threads, repeats) -> list[str]:
    load = " ".join(f"{v:.1f}" for v in info["load_average_start"])
    load_end = " ".join(f"{v:.1f}" for v in info["load_average_end"])
    lines = [f"pooltutor pooling benchmark, {info['date']}, {info['cpu']}, {info['cores']} cores",
             "versions: " + ", ".join(f"{k} {v}" for k, v in info["versions"].items()),
             f"torch / onnxruntime / pooltutor threads: {threads}; {repeats} interleaved "
             f"rounds ({info['protocol']}); load average (1/5/15 min) at start {load}, "
             f"at end {load_end}", ""]
    if info["load_average_start"][0] > 1.5 or info["load_average_end"][0] > 1.5:
        lines[-1:-1] = ["note: other processes were running (load average above 1.5): times "
                        "are inflated, the minima are closer to a quiet machine's medians"]
    width = max([20] + [len(f"pooltutor {c.ours_name}") for c, _ in results.values()])
    head = (f"{'case':5} {'contender':{width}} {'median ms':>10} {'min ms':>9} "
            f"{'ratio med':>10} {'ratio min':>10}  result")
    lines += [head, "-" * len(head)]
    for key, (case, timing) in results.items():
        lines.append(f"{key:5} {case.title}")
        ours = timing["pooltutor"]
        for name, t in timing.items():
            label = f"pooltutor {case.ours_name}" if name == "pooltutor" else name
            if name == "pooltutor":
                ratios, note = f"{'':>10} {'':>10}", f"(CPU {t['cpu_median_ms']:.3f} ms)"
            else:
                ratios = (f"{ours['median_ms'] / t['median_ms']:9.3f}x "
                          f"{ours['min_ms'] / t['min_ms']:9.3f}x")
                note = t["agrees"] + (" (one run)" if t["runs"] == 1 else "")
            lines.append(f"{'':5} {label:{width}} {t['median_ms']:10.3f} {t['min_ms']:9.3f} "
                         f"{ratios}  {note}")
    lines.append("ratio = pooltutor time / contender time (below 1: pooltutor is faster); "
                 "CPU: median CPU time of pooltutor's runs on the calling thread "
                 "(its time there without waiting for a core)")
    growth = window_growth(results)
    if growth:
        lines += ["", "window growth, average pooling (1,64,112,112) s2 p K//2: median ms, "
                  "and x the 3x3 time"]
        lines.append(f"    {'contender':12}" + "".join(f"{f'{k}x{k}':>18}" for k in WINDOWS))
        for name, row in growth.items():
            lines.append(f"    {name:12}" + "".join(
                f"{'':>18}" if k not in row else f"{row[k][0]:10.3f} {row[k][1]:5.2f}x  "
                for k in WINDOWS))
    if memory is not None:
        lines += ["", f"peak memory of one case-1 call (tracemalloc): "
                  f"{memory['peak_bytes'] / 2**20:.2f} MiB = {memory['ratio']:.2f}x "
                  f"input + outputs ({memory['input_plus_outputs_bytes'] / 2**20:.2f} MiB)"]
    lines.append("")
    if explorer is None:
        lines.append("explorer update latency: not run (--no-explorer)")
    elif explorer == "missing":
        lines.append("explorer update latency: benchmarks/bench_explorer.py not found, not run")
    else:
        lines.append("explorer update latency (benchmarks/bench_explorer.py, "
                     f"{explorer['status']}):")
        lines += [f"    {ln}" for ln in explorer["lines"]]
    lines += ["", "targets (ratios of the medians of this run):"]
    for text, shown, ok in target_rows(results, memory):
        verdict = "" if ok is None else "PASS" if ok else "MISS"
        lines.append(f"  {text:48} {shown:>14}  {verdict}")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=21, help="timed rounds (at least 15)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed rounds first")
    parser.add_argument("--threads", type=int, default=2, help="threads for torch / onnxruntime")
    parser.add_argument("--no-prime", action="store_true",
                        help="do not run each contender once, untimed, right before every "
                             "timed run")
    parser.add_argument("--no-quiesce", action="store_true",
                        help="do not wait, before each contender's runs, until the threads "
                             "of the contender before have stopped spinning")
    parser.add_argument("--gap-ms", type=float, default=0.0,
                        help="untimed pause before every run (and its priming run)")
    parser.add_argument("--cases", default=",".join(ALL_CASES),
                        help=f"comma-separated keys out of {', '.join(ALL_CASES)}; '3' = all "
                             f"of 3, 'w' = all window-growth cases")
    parser.add_argument("--no-explorer", action="store_true", help="skip bench_explorer.py")
    parser.add_argument("--explorer-timeout", type=float, default=900.0)
    parser.add_argument("--json", default=None, help="also write the results to this file")
    parser.add_argument("--baseline", default=None, metavar="DIR",
                        help="another checkout (e.g. a git archive of the previous commit): "
                             "its pooltutor is timed as the contender pooltutor@base in the "
                             "same rounds, so its ratio is after / before under the same load")
    parser.add_argument("--floor", action="store_true",
                        help="case 3c: also time the bare numpy calls of its box passes "
                             "(contenders 'numpy passes' and 'numpy passes+check'), the "
                             "least pooltutor's structure could cost")
    parser.add_argument("--one-thread", action="store_true",
                        help="also time pooltutor on the calling thread alone, as the "
                             "contender 'pooltutor 1 thread' in the same rounds")
    args = parser.parse_args(argv)
    if args.repeats < 15:
        parser.error(f"--repeats={args.repeats}: need at least 15")
    selected = set()
    for key in (k.strip() for k in args.cases.split(",")):
        if key in ("3", "w"):
            selected |= {k for k in ALL_CASES if k.startswith(key)}
        elif key in ALL_CASES:
            selected.add(key)
        else:
            parser.error(f"--cases: {key!r} is not one of {', '.join(ALL_CASES)}, 3 or w")
    info = machine()
    info["protocol"] = ("" if args.no_quiesce else "other threads quiet, then ") + (
        "each timed run right after an untimed one" if not args.no_prime
        else "no priming run") + (f", {args.gap_ms:g} ms pause" if args.gap_ms else "")
    if torch is not None:
        torch.set_num_threads(args.threads)
    engine_threads.set_num_threads(args.threads)
    results = {}
    cases = build_cases(args.threads, selected, floor=args.floor)
    if args.baseline:
        add_baseline(cases, args.baseline, args.threads, selected)
    if args.one_thread:
        add_one_thread(cases)
    for case in cases:
        print(f"timing {case.key}: {case.title} ...", file=sys.stderr, flush=True)
        results[case.key] = (case, time_case(case, args.repeats, args.warmup,
                                             args.gap_ms / 1000, not args.no_prime,
                                             not args.no_quiesce))
    memory = peak_memory(results["1"][0]) if "1" in results else None
    explorer = None
    if not args.no_explorer:
        print("running benchmarks/bench_explorer.py ...", file=sys.stderr, flush=True)
        explorer = run_explorer(args.explorer_timeout)
    info["load_average_end"] = os.getloadavg()
    print("\n".join(report(results, memory, explorer, info, args.threads, args.repeats)))
    if args.json:
        payload = {"machine": info, "threads": args.threads, "repeats": args.repeats,
                   "cases": {k: {"title": c.title, "pooltutor": c.ours_name, "timing": t}
                             for k, (c, t) in results.items()},
                   "memory": memory, "explorer": explorer,
                   "window_growth": {name: {str(k): {"median_ms": t, "x_3x3": g}
                                            for k, (t, g) in row.items()}
                                     for name, row in window_growth(results).items()},
                   "targets": [dict(zip(("target", "measured", "met"), row, strict=True))
                               for row in target_rows(results, memory)]}
        Path(args.json).write_text(json.dumps(payload, indent=2))
    bad = [f"{k}: {n} {t['agrees']}" for k, (_, timing) in results.items()
           for n, t in timing.items() if "DIFFER" in t["agrees"]]
    if bad:
        print("\nresults disagree: " + "; ".join(bad), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
