"""The HTML report of ``pooltutor audit --html``: the table, the JSON facts and, for every
node where the runtimes disagree, a picture of its last windows under each runtime's rule.

The pictures are :func:`pooltutor.viz.padding_modes.plot_padding_modes` (one row per
rule), one picture per padding that the runtimes use on the first axis where their
output lengths differ, embedded as base64 PNG with alt text that says the same in words.
"""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path

__all__ = ["plot_audit_node", "node_pictures", "report_html", "write_html"]


def _first_differing_axis(node) -> int | None:
    sizes = {}
    for r, res in node.results.items():
        if res.error is None and res.axes:
            sizes[r] = tuple(ax.output_size for ax in res.axes)
    if not sizes:
        return None
    n = min(len(v) for v in sizes.values())
    for i in range(n):
        if len({v[i] for v in sizes.values()}) > 1:
            return i
    return 0


def plot_audit_node(node) -> list:
    """The :class:`~pooltutor.viz.padding_modes.PaddingModesPlot` pictures of one audited
    node's last windows: one per padding the runtimes use on the first axis where their
    output lengths differ, one row per rule (``[]`` when no runtime has a window rule)."""
    return [p for p, _ in _plots(node)]


def _plots(node) -> list:
    from .padding_modes import plot_padding_modes

    axis = _first_differing_axis(node)
    if axis is None:
        return []
    groups: dict[tuple, dict[str, list[str]]] = {}
    for r, res in node.results.items():
        if res.error is not None or len(res.axes) <= axis:
            continue
        g = res.axes[axis].geometry
        if g is None:
            continue
        key = (g.input_size, g.kernel, g.stride, g.dilation, g.pad_begin, g.pad_end)
        groups.setdefault(key, {}).setdefault(g.rounding, []).append(r)
    pictures = []
    for (size, k, s, d, pb, pe), rules in groups.items():
        modes = tuple(rules)
        who = "; ".join(f"{rule}: {', '.join(rs)}" for rule, rs in rules.items())
        # the last windows only: m * S inputs fewer shift every window count by m and keep
        # the end of the axis (where the rules differ) exactly as it is
        dk = (k - 1) * d + 1
        m = max(0, (size - (dk + 2 * s)) // s)
        shown = size - m * s
        title = (f"{node.name} ({node.op_type}), axis {axis}: I={size}, K={k}, S={s}, D={d}, "
                 f"pads ({pb}, {pe})")
        if m:
            title += f"; last windows (first {m * s} inputs, {m} windows, left out)"
        p = plot_padding_modes(shown, k, s, pb, pe, dilation=d, modes=modes, pad_taps="skip",
                               title=title)
        sizes = ", ".join(f"{rule} gives {p.geometries[rule].output_size + m} windows"
                          if p.geometries.get(rule) is not None else f"{rule} rejects it"
                          for rule in modes)
        alt = (f"{title}. Rows: {who}. {sizes}; the last window of each row is outlined, a "
               f"window dropped by the ceil clip is dashed.")
        pictures.append((p, alt))
    return pictures


def node_pictures(node) -> list[tuple[bytes, str]]:
    """PNG bytes and alt text of :func:`plot_audit_node`'s pictures."""
    import matplotlib.pyplot as plt

    out = []
    for p, alt in _plots(node):
        buf = io.BytesIO()
        p.figure.savefig(buf, format="png", dpi=100, bbox_inches="tight")
        plt.close(p.figure)
        out.append((buf.getvalue(), alt))
    return out


def report_html(report) -> str:
    """The whole report as one self-contained HTML page."""
    esc = html.escape
    parts = ["<!DOCTYPE html>", "<html lang='en'><head><meta charset='utf-8'>",
             f"<title>pooltutor audit: {esc(report.model)}</title>",
             "<style>body{font-family:sans-serif;max-width:70em;margin:2em auto}"
             "table{border-collapse:collapse}td,th{border:1px solid #999;padding:2px 6px;"
             "font-family:monospace}tr.disagree td{background:#fde2e2;font-weight:bold}"
             "img{max-width:100%}</style></head><body>",
             f"<h1>Model audit: {esc(report.model)}</h1>",
             "<p>Runtimes: " + esc(", ".join(f"{k} {v}" for k, v in report.runtimes.items()))
             + "</p>"]
    first = report.first_divergence
    parts.append("<p>" + ("All runtimes agree on every audited node." if first is None else
                          f"First divergence: <b>{esc(first.name)}</b> ({esc(first.op_type)}); "
                          f"{len(report.disagreements)} of {len(report.nodes)} nodes disagree "
                          f"(rows marked ! and shaded).") + "</p>")
    from ..model_audit import RUNTIMES

    parts.append("<table><tr><th></th><th>node</th><th>op</th><th>input</th>"
                 + "".join(f"<th>{r}</th>" for r in RUNTIMES) + "</tr>")
    for n in report.nodes:
        cells = []
        for r in RUNTIMES:
            v = n.shapes[r]
            cells.append(f"<td title='{esc(v)}'>refused</td>" if isinstance(v, str)
                         else f"<td>{esc(str(tuple(v)))}</td>")
        parts.append(f"<tr class='{'agree' if n.agree else 'disagree'}'><td>"
                     f"{'' if n.agree else '!'}</td><td>{esc(n.name)}</td><td>"
                     f"{esc(n.op_type)}</td><td>{esc(str(n.input_shape))}</td>"
                     + "".join(cells) + "</tr>")
    parts.append("</table>")
    parts.append("<h2>Outputs</h2><ul>")
    for r in RUNTIMES:
        parts.append(f"<li>{r}: " + esc(", ".join(f"{k} {v}" for k, v in
                                                  report.outputs[r].items())) + "</li>")
    parts.append("</ul>")
    for n in report.disagreements:
        parts.append(f"<h2>{esc(n.name)} ({esc(n.op_type)})</h2><p>{esc(n.why)}</p>")
        for png, alt in node_pictures(n):
            data = base64.b64encode(png).decode("ascii")
            parts.append(f"<figure><img src='data:image/png;base64,{data}' alt='{esc(alt)}'>"
                         f"<figcaption>{esc(alt)}</figcaption></figure>")
        parts.append(f"<pre>{esc(n.explain())}</pre>")
    if report.unknown_ops:
        parts.append("<h2>Ops no shape rule knows</h2><ul>" + "".join(
            f"<li>{esc(a)}: {esc(b)} (domain {esc(c)})</li>" for a, b, c in report.unknown_ops)
            + "</ul>")
    parts.append("</body></html>")
    return "\n".join(parts)


def write_html(report, path) -> Path:
    path = Path(path)
    path.write_text(report_html(report), encoding="utf-8")
    return path
