"""The chart of a learn run: Elo of each promoted generation against the first, with 95%
intervals (a solo run: each promoted generation's mean score in its gate), as an SVG image
written by hand (no plotting library)."""

from __future__ import annotations

import math
import os
from typing import Any
from xml.sax.saxutils import escape

from arle_ai.base import files

__all__ = ["chart_svg", "write_chart", "nice_ticks"]

WIDTH, HEIGHT = 640, 400
LEFT, RIGHT, TOP, BOTTOM = 70, 20, 50, 60


def nice_ticks(low: float, high: float, most: int = 8) -> list[float]:
    """Round values (1, 2 or 5 times a power of ten apart) covering low..high, at most `most`."""
    if not high > low:
        low, high = low - 1.0, high + 1.0
    raw = (high - low) / max(1, most - 1)
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    ticks = []
    k = 0
    while first + k * step <= high + step * 1e-9:
        ticks.append(round(first + k * step, 10))
        k += 1
    if ticks[-1] < high:
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


def chart_svg(ledger: dict[str, Any]) -> str:
    """The chart of a ledger (see :meth:`arle_ai.learn.loop.LearnRun.ledger`) as SVG text."""
    solo = "solo_scores" in ledger
    points = [dict(p, elo=p["score"]) for p in ledger["solo_scores"]
              if p.get("score") is not None] if solo else \
        [p for p in ledger.get("elo", []) if p.get("elo") is not None]
    gens = ledger.get("generations", [])
    last: int = max([int(g["generation"]) for g in gens]
                    + [int(p["generation"]) for p in points] + [1])
    base = [] if solo else [0.0]   # Elo: the axis shows generation 0's zero
    lows = [float(p["low"]) for p in points if p.get("low") is not None] + base
    highs = [float(p["high"]) for p in points if p.get("high") is not None] + base
    if not lows:
        lows, highs = [0.0], [1.0]
    pad = 0.05 * (max(highs) - min(lows))  # the points clear of the frame
    yticks = nice_ticks(min(lows) - pad, max(highs) + pad, 7)
    y0, y1 = yticks[0], yticks[-1]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(g: float) -> float:
        return LEFT + plot_w * (g + 0.5) / (last + 1)

    def y(e: float) -> float:
        return TOP + plot_h * (1 - (e - y0) / (y1 - y0))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
           f'<text x="{WIDTH / 2:.1f}" y="22" text-anchor="middle" font-size="15">'
           + ('Mean score of each promoted generation in its gate' if solo else
              'Elo of each promoted generation against generation 0') + '</text>',
           f'<text x="{WIDTH / 2:.1f}" y="38" text-anchor="middle" fill="#555">'
           + ('the same setups as the model it replaced, 95% intervals of the gain'
              if solo else 'sum of the gate results along the promotions, 95% intervals')
           + '</text>']
    for t in yticks:
        out.append(f'<line x1="{LEFT}" y1="{y(t):.1f}" x2="{WIDTH - RIGHT}" y2="{y(t):.1f}" '
                   f'stroke="{"#999" if t == 0 else "#e4e4e4"}"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y(t) + 4:.1f}" text-anchor="end">'
                   + (f'{t:g}' if solo else f'{t:+g}') + '</text>')
    step = max(1, math.ceil((last + 1) / 20))
    for g in range(0, last + 1, step):
        out.append(f'<text x="{x(g):.1f}" y="{HEIGHT - BOTTOM + 18}" text-anchor="middle">'
                   f'{g}</text>')
    out.append(f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 22}" text-anchor="middle">'
               f'generation</text>')
    out.append(f'<text transform="translate(18 {TOP + plot_h / 2:.1f}) rotate(-90)" '
               f'text-anchor="middle">{"VP" if solo else "Elo"}</text>')
    out.append(f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" '
               f'stroke="#333"/>')
    promoted = {p["generation"] for p in points}
    for g in gens:  # rejected candidates: a grey mark on the axis
        k = g["generation"]
        if k not in promoted and g.get("gate", {}).get("decided"):
            out.append(f'<text x="{x(k):.1f}" y="{HEIGHT - BOTTOM - 6}" text-anchor="middle" '
                       f'fill="#aaa">&#215;</text>')
    if len(points) > 1:
        path = " ".join(f"{x(p['generation']):.1f},{y(p['elo']):.1f}" for p in points)
        out.append(f'<polyline points="{path}" fill="none" stroke="#3a6ea5"/>')
    for p in points:
        px, py = x(p["generation"]), y(p["elo"])
        if p.get("low") is not None and p.get("high") is not None and p["high"] > p["low"]:
            lo, hi = y(p["low"]), y(p["high"])
            out.append(f'<line x1="{px:.1f}" y1="{lo:.1f}" x2="{px:.1f}" y2="{hi:.1f}" '
                       f'stroke="#3a6ea5"/>')
            for yy in (lo, hi):
                out.append(f'<line x1="{px - 5:.1f}" y1="{yy:.1f}" x2="{px + 5:.1f}" '
                           f'y2="{yy:.1f}" stroke="#3a6ea5"/>')
        out.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="4" fill="#3a6ea5"/>')
        label = escape(f"{p['elo']:.1f}" if solo else f"{p['elo']:+.0f}")
        out.append(f'<text x="{px + 7:.1f}" y="{py - 6:.1f}">{label}</text>')
    out.append(f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 6}" text-anchor="end" fill="#777">'
               f'&#215; candidate rejected by its gate</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write_chart(path: str | os.PathLike[str], ledger: dict[str, Any]) -> None:
    """Write the chart of `ledger` to `path` whole (base.files' atomic writer)."""
    files.write_text(path, chart_svg(ledger))
