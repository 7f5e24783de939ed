"""Time one explorer update on the CPU: engine + redraw on the Agg canvas + PNG encode.

For information only: the 25 ms CPU target is retired (what a student feels is the
time from a key press to the new picture in the browser, measured by the browser
benchmark).  Run with ``python benchmarks/bench_explorer.py``.  Prints the median
(and quartiles) over REPEATS (21) updates after WARMUP (3), for every row:

* WindowStepper on a 16x16 input (kernel 3, stride 2, pad 1), stepping to the
  next output position: the update students make most (Play, Prev / Next); the
  window, the winner, the output cells and the output title are redrawn over the
  kept background (public blitting: ``copy_from_bbox`` / ``restore_region`` /
  ``draw_artist``);
* WindowStepper, a parameter change (stride slider): the engine runs again and
  the whole figure is drawn again (sliders use ``continuous_update=False``);
* PaddingModeExplorer, input size 16, six TensorRT modes, a parameter change;
* IndexLayoutExplorer on a 1x1x16x16 input (kernel 3, stride 2, pad 1): the next
  output cell (row-major through all 64) and a parameter change (stride);
* AdaptiveBinsExplorer, 1-D input of 16 and 2-D 10x10 (its largest): the next cell;
* ZeroPointReluExplorer (4x4 accumulators, its largest preset): a zero-point change.

Every update is engine + drawing + PNG encoding (Pillow), and no picture is cached
by control values.  An explorer that fails to build or update is reported as such
(its row says why) and the others are still timed.

Each row gives the median wall time and the median CPU time of the process
(``time.process_time``): on a shared, loaded machine the wall time also counts
the waits for a core, the CPU time is what one update really costs.

The first line calibrates the machine: the time of a plain Python loop and of
an almost empty figure redraw, so that numbers from a loaded or slow machine
can be scaled.
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

from pooltutor.viz.explorer import canvas_png, new_figure  # noqa: E402

WARMUP = 3
REPEATS = 21


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
        canvas_png(fig)

    loop_t, redraw_t = timed(loop, 9, 1), timed(redraw, 9, 1)
    return loop_t[0], redraw_t[0], loop_t[3], redraw_t[3]


def main() -> None:
    loop_ms, empty_ms, loop_cpu, empty_cpu = calibration()
    print(f"machine: 200k-step Python loop {loop_ms:.1f} ms wall, {loop_cpu:.1f} ms CPU "
          f"(typically 5-10 ms on an idle modern core); "
          f"empty 688x400 figure redraw + PNG {empty_ms:.1f} ms wall, {empty_cpu:.1f} ms CPU; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

    rows, info, pngs = [], [], {}

    def measure(name, make, into=rows, repeats=REPEATS, warmup=WARMUP):
        """Build with ``make()`` -> ``(update, explorer)`` and time ``update``; a failure
        becomes the row's result."""
        try:
            update, explorer = make()
            into.append((name, timed(update, repeats, warmup)))
            pngs[type(explorer).__name__] = len(explorer.png)
        except Exception as exc:  # noqa: BLE001 - report and go on
            into.append((name, f"failed: {type(exc).__name__}: {exc}"[:160]))

    def cycle(values):
        return iter(np.tile(values, 1000))

    def stepper_step():
        from pooltutor.viz.window_stepper import WindowStepper

        stepper = WindowStepper(size=16, window=3, stride=2, padding=1)
        count = stepper.position.max + 1

        def step():
            stepper.position.value = (stepper.position.value + 1) % count
            assert stepper.error is None, stepper.error

        return step, stepper

    def stepper_param():
        from pooltutor.viz.window_stepper import WindowStepper

        stepper = WindowStepper(size=16, window=3, stride=2, padding=1)
        strides = cycle([1, 2, 3])

        def restride():
            stepper.stride.value = int(next(strides))
            assert stepper.error is None, stepper.error

        return restride, stepper

    def padding_param():
        from pooltutor.viz.padding_explorer import PaddingModeExplorer

        e = PaddingModeExplorer(input_size=16, window=3, stride=2, pre_padding=1,
                                post_padding=1)
        strides = cycle([1, 2, 3])

        def modes():
            e.stride.value = int(next(strides))
            assert e.error is None, e.error

        return modes, e

    def index_explorer():
        from pooltutor.viz.index_explorer import IndexLayoutExplorer

        return IndexLayoutExplorer((np.arange(256.0) % 13).reshape(1, 1, 16, 16), kernel=3,
                                   stride=2, padding=1)

    def index_step():
        index = index_explorer()

        def step():
            flat = (index.out[0].value * (index.out[1].max + 1) + index.out[1].value + 1) % (
                (index.out[0].max + 1) * (index.out[1].max + 1))
            with index._hold():
                index.out[0].value, index.out[1].value = divmod(flat, index.out[1].max + 1)
            index.safe_update()
            assert index.error is None, index.error

        return step, index

    def index_param(control="stride", values=(1, 2, 3)):
        index = index_explorer()
        it = cycle(list(values))

        def change():
            getattr(index, control).value = int(next(it))
            assert index.error is None, index.error

        return change, index

    def adaptive_step(ndim):
        from pooltutor.viz.adaptive_explorer import AdaptiveBinsExplorer

        e = (AdaptiveBinsExplorer(input_size=16, output_size=5) if ndim == 1 else
             AdaptiveBinsExplorer(ndim=2, input_size=10, output_size=4))

        def step():
            e.cell[1].value = (e.cell[1].value + 1) % (e.cell[1].max + 1)
            assert e.error is None, e.error

        return step, e

    def adaptive_out():
        from pooltutor.viz.adaptive_explorer import AdaptiveBinsExplorer

        e = AdaptiveBinsExplorer(ndim=2, input_size=10, output_size=4)
        outs = cycle([3, 4])

        def change():
            e.out_size[1].value = int(next(outs))
            assert e.error is None, e.error

        return change, e

    def relu(control, values):
        from pooltutor.viz.relu_explorer import ZeroPointReluExplorer

        e = ZeroPointReluExplorer(preset="4x4 mixed", zero_point=100)
        it = cycle(list(values))

        def change():
            v = next(it)
            getattr(e, control).value = v if isinstance(v, str) else int(v)
            assert e.error is None, e.error

        return change, e

    measure("WindowStepper 16x16: next position", stepper_step)
    measure("WindowStepper 16x16: parameter change", stepper_param)
    measure("PaddingModeExplorer I=16, 6 modes: parameter change", padding_param)
    measure("IndexLayoutExplorer 16x16: next output cell", index_step)
    measure("IndexLayoutExplorer 16x16: parameter change", index_param)
    measure("AdaptiveBinsExplorer 1-D I=16: next cell", lambda: adaptive_step(1))
    measure("AdaptiveBinsExplorer 2-D 10x10: next cell", lambda: adaptive_step(2))
    measure("ZeroPointReluExplorer 4x4: parameter change",
            lambda: relu("zero_point", [90, 100, 128]))
    measure("IndexLayoutExplorer 16x16: padding 0 <-> 1",
            lambda: index_param("padding", (0, 1)), info, 9, 1)
    measure("AdaptiveBinsExplorer 2-D: output w 3 <-> 4", adaptive_out, info, 9, 1)
    measure("ZeroPointReluExplorer 4x4: dtype int8 <-> uint8",
            lambda: relu("dtype", ["int8", "uint8"]), info, 9, 1)

    width = max(len(name) for name, _ in rows + info)

    def show(name, result):
        if isinstance(result, str):
            print(f"{name:<{width}}  {result}")
            return
        med, q1, q3, cpu = result
        box = f"[{q1:.1f}, {q3:.1f}]"
        print(f"{name:<{width}}  {med:7.1f} {box:<16}  {cpu:7.1f}")

    print(f"{'update (for information; no CPU target)':<{width}}  wall ms [q1, q3]"
          f"          CPU ms")
    for name, result in rows:
        show(name, result)
    print("structure changes (everything redrawn):")
    for name, result in info:
        show(name, result)
    print("PNG bytes per update: " + ", ".join(f"{k} {v}" for k, v in pngs.items()))


if __name__ == "__main__":
    main()
