"""Time one explorer update: engine + redraw on the Agg canvas + PNG encode.

Run with ``python benchmarks/bench_explorer.py``.  Prints the median (and
quartiles) over REPEATS (21) updates after WARMUP (3), for every row:

* WindowStepper on a 16x16 input (kernel 3, stride 2, pad 1), stepping to the
  next output position: the update students make most (Play, Prev / Next);
  only the window overlays are redrawn on a cached background (blitting);
* WindowStepper, a parameter change (stride slider): the engine runs again; the
  input panel is kept, the output panel and the title are redrawn (sliders use
  ``continuous_update=False``);
* PaddingModeExplorer, input size 16, six TensorRT modes, a parameter change:
  every row's windows and sizes change; the artists are updated in place and
  the input cells are kept;
* IndexLayoutExplorer on a 1x1x16x16 input (kernel 3, stride 2, pad 1): the next
  output cell (row-major through all 64, each visited once) and a parameter
  change (stride): both move the marks and titles over the kept number grids;
* AdaptiveBinsExplorer, 1-D input of 16 and 2-D 10x10 (its largest): the next
  cell (the cell's marks and titles move);
* ZeroPointReluExplorer (4x4 accumulators, its largest preset): a zero-point
  change: every code, heatmap and line changes and is updated in place.

Every update is engine + drawing + PNG encoding, and no picture is cached by
control values: a test per explorer checks that the PNG after any sequence of
updates is the one a new explorer with the same controls draws.

Each row gives the median wall time and the median CPU time of the process
(``time.process_time``): on a shared, loaded machine the wall time also counts
the waits for a core, the CPU time is what one update really costs.

The first line calibrates the machine: the time of a plain Python loop and of
an almost empty figure redraw, so that numbers from a loaded or slow machine
can be scaled (the target, 25 ms, was set for an idle core).
"""

from __future__ import annotations

import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import matplotlib  # noqa: E402

matplotlib.use("Agg")

import numpy as np  # noqa: E402

from pooltutor.viz.explorer import new_figure, rgba_png  # noqa: E402
from pooltutor.viz.padding_explorer import PaddingModeExplorer  # noqa: E402
from pooltutor.viz.window_stepper import WindowStepper  # noqa: E402

WARMUP = 3
REPEATS = 21
TARGET_MS = 25.0


def timed(update, repeats=REPEATS, warmup=WARMUP):
    """``(median wall ms, q1, q3, median CPU ms)`` of ``update()``."""
    for _ in range(warmup):
        update()
    times, cpu = [], []
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        update()
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    q = statistics.quantiles(times, n=4)
    return statistics.median(times), q[0], q[2], statistics.median(cpu)


def calibration():
    def loop():
        x = 0
        for i in range(200_000):
            x += i
        return x

    fig = new_figure((8.6, 5.0), dpi=80)
    fig.text(0.5, 0.5, "calibration")

    def redraw():
        fig.canvas.draw()
        rgba_png(fig.canvas.buffer_rgba())

    return timed(loop, 9, 1)[0], timed(redraw, 9, 1)[0]


def main() -> None:
    loop_ms, empty_ms = calibration()
    print(f"machine: 200k-step Python loop {loop_ms:.1f} ms (typically 5-10 ms on an idle "
          f"modern core); "
          f"empty 688x400 figure redraw + PNG {empty_ms:.1f} ms; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

    stepper = WindowStepper(size=16, window=3, stride=2, padding=1)
    count = stepper.position.max + 1

    def step():
        stepper.position.value = (stepper.position.value + 1) % count
        assert stepper.error is None

    strides = iter(np.tile([1, 2, 3], 100))

    def restride():
        stepper.stride.value = int(next(strides))
        assert stepper.error is None

    explorer = PaddingModeExplorer(input_size=16, window=3, stride=2, pre_padding=1,
                                   post_padding=1)
    strides2 = iter(np.tile([1, 2, 3], 100))

    def modes():
        explorer.stride.value = int(next(strides2))
        assert explorer.error is None

    from pooltutor.viz.adaptive_explorer import AdaptiveBinsExplorer
    from pooltutor.viz.index_explorer import IndexLayoutExplorer
    from pooltutor.viz.relu_explorer import ZeroPointReluExplorer

    x16 = (np.arange(256.0) % 13).reshape(1, 1, 16, 16)
    index = IndexLayoutExplorer(x16, kernel=3, stride=2, padding=1)

    def index_step():
        flat = (index.out[0].value * (index.out[1].max + 1) + index.out[1].value + 1) % (
            (index.out[0].max + 1) * (index.out[1].max + 1))
        with index._hold():
            index.out[0].value, index.out[1].value = divmod(flat, index.out[1].max + 1)
        index.safe_update()
        assert index.error is None

    strides3 = iter(np.tile([1, 2, 3], 100))

    def index_param():
        index.stride.value = int(next(strides3))
        assert index.error is None

    adaptive = AdaptiveBinsExplorer(input_size=16, output_size=5)
    adaptive2 = AdaptiveBinsExplorer(ndim=2, input_size=10, output_size=4)

    def adaptive_step(e=adaptive):
        e.cell[1].value = (e.cell[1].value + 1) % (e.cell[1].max + 1)
        assert e.error is None

    relu = ZeroPointReluExplorer(preset="4x4 mixed", zero_point=100)
    zps = iter(np.tile([90, 100, 128], 100))

    def relu_param():
        relu.zero_point.value = int(next(zps))
        assert relu.error is None

    # structure changes redraw everything: timed too, for information (no target)
    pads = iter(np.tile([0, 1], 100))

    def index_pad():
        index.padding.value = int(next(pads))
        assert index.error is None

    dtypes = iter(["int8", "uint8"] * 100)

    def relu_dtype():
        relu.dtype.value = next(dtypes)
        assert relu.error is None

    outs = iter(np.tile([3, 4], 100))

    def adaptive_out():
        adaptive2.out_size[1].value = int(next(outs))
        assert adaptive2.error is None

    rows = [
        ("WindowStepper 16x16: next position", timed(step)),
        ("WindowStepper 16x16: parameter change", timed(restride)),
        ("PaddingModeExplorer I=16, 6 modes: parameter change", timed(modes)),
        ("IndexLayoutExplorer 16x16: next output cell", timed(index_step)),
        ("IndexLayoutExplorer 16x16: parameter change", timed(index_param)),
        ("AdaptiveBinsExplorer 1-D I=16: next cell", timed(adaptive_step)),
        ("AdaptiveBinsExplorer 2-D 10x10: next cell",
         timed(lambda: adaptive_step(adaptive2))),
        ("ZeroPointReluExplorer 4x4: parameter change", timed(relu_param)),
    ]
    info = [
        ("IndexLayoutExplorer 16x16: padding 0 <-> 1", timed(index_pad, 9, 1)),
        ("AdaptiveBinsExplorer 2-D: output w 3 <-> 4", timed(adaptive_out, 9, 1)),
        ("ZeroPointReluExplorer 4x4: dtype int8 <-> uint8", timed(relu_dtype, 9, 1)),
    ]
    width = max(len(name) for name, _ in rows)
    print(f"{'update':<{width}}  wall ms [q1, q3]          CPU ms   target {TARGET_MS:.0f} ms "
          f"(CPU)")
    for name, (med, q1, q3, cpu) in rows:
        verdict = "meets" if cpu <= TARGET_MS else "misses"
        print(f"{name:<{width}}  {med:7.1f} [{q1:.1f}, {q3:.1f}]"
              f"{'':<{max(0, 14 - len(f'[{q1:.1f}, {q3:.1f}]'))}}  {cpu:7.1f}   {verdict}")
    print("structure changes (everything redrawn; for information, no target):")
    for name, (med, q1, q3, cpu) in info:
        print(f"{name:<{width}}  {med:7.1f} [{q1:.1f}, {q3:.1f}]"
              f"{'':<{max(0, 14 - len(f'[{q1:.1f}, {q3:.1f}]'))}}  {cpu:7.1f}")
    print(f"PNG bytes per update: WindowStepper {len(stepper.png)}, "
          f"PaddingModeExplorer {len(explorer.png)}, IndexLayoutExplorer {len(index.png)}, "
          f"ZeroPointReluExplorer {len(relu.png)}")


if __name__ == "__main__":
    main()
