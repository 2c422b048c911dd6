"""The solo benchmark: each agent's final scores over the same seeded solo setups (``arle
selfplay --players 1``), their mean with its 95% interval and their distribution, and a
histogram of them drawn as an SVG image (written by hand: no plotting library).

A result is a game record of :func:`arle_ai.play.tournament.play_game` whose ``meta`` has one
seat (``seats``, ``agents``, ``scores`` of length 1).

>>> summary = solo_summary([{"meta": {"game": g, "seats": [0], "agents": ["greedy"],
...                                   "setup_index": g, "scores": [s]}}
...                         for g, s in enumerate([101.0, 117.5, 96.0, 130.0])])
>>> a = summary["solo"][0]
>>> a["games"], a["mean"], a["min"], a["max"]
(4, 111.125, 96.0, 130.0)
>>> [b["count"] for b in a["bins"]]
[1, 1, 1, 0, 1]
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from typing import Any
from xml.sax.saxutils import escape

from arle_ai.play.ratings import mean_interval

__all__ = ["BIN_VP", "solo_summary", "format_solo_summary", "histogram_svg", "is_solo_result"]

BIN_VP = 10  # the histogram's bins: 10 VP wide, from a multiple of 10


def is_solo_result(result: dict[str, Any]) -> bool:
    """Whether a selfplay result is a solo game's (one seat)."""
    return len(result["meta"]["seats"]) == 1


def _bins(scores: Sequence[float], width: int = BIN_VP) -> list[dict[str, Any]]:
    """Counts of ``scores`` in bins [lo, lo + width) from the lowest score's bin to the
    highest's (empty bins between them included)."""
    if not scores:
        return []
    first = math.floor(min(scores) / width) * width
    last = math.floor(max(scores) / width) * width
    out = []
    lo = first
    while lo <= last:
        out.append({"low": lo, "high": lo + width,
                    "count": sum(1 for s in scores if lo <= s < lo + width)})
        lo += width
    return out


def solo_summary(results: Iterable[dict[str, Any]], agents: Sequence[str] | None = None
                 ) -> dict[str, Any]:
    """Per agent: games, mean score with its 95% interval (mean +- 1.96 standard errors),
    standard deviation, median, lowest and highest score, the scores by setup, and the
    histogram's bins. Results in any order (sorted by game index)."""
    ordered = sorted(results, key=lambda r: r["meta"]["game"])
    if agents is None:
        found: dict[int, str] = {}
        for r in ordered:
            found[r["meta"]["seats"][0]] = r["meta"]["agents"][0]
        agents = [found.get(i, f"agent {i}") for i in range(max(found, default=-1) + 1)]
    agents = list(agents)
    labels = [spec if agents.count(spec) == 1 else f"{spec} #{i + 1}"
              for i, spec in enumerate(agents)]
    entries = []
    for i, spec in enumerate(agents):
        mine = [r["meta"] for r in ordered if r["meta"]["seats"][0] == i]
        scores = [float(m["scores"][0]) for m in mine]
        mean, low, high = mean_interval(scores)
        entries.append({
            "agent": spec,
            "label": labels[i],
            "index": i,
            "games": len(scores),
            "mean": mean,
            "mean_interval": [low, high],
            "sd": statistics.stdev(scores) if len(scores) > 1 else math.nan,
            "median": statistics.median(scores) if scores else math.nan,
            "min": min(scores) if scores else math.nan,
            "max": max(scores) if scores else math.nan,
            "scores": scores,
            "setups": [m.get("setup_index") for m in mine],
            "bins": _bins(scores),
        })
    return {"players": 1, "agents": agents, "labels": labels, "games": len(ordered),
            "solo": entries}


def _fmt(x: float, fmt: str = "{:.1f}") -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else fmt.format(x)


def format_solo_summary(summary: dict[str, Any], bar_width: int = 40) -> str:
    """The solo summary as text: per agent its mean score (95%), spread and a histogram of
    ``#`` bars."""
    out = []
    head = f"{len(summary['agents'])} agent{'s' if len(summary['agents']) != 1 else ''}, " \
           f"{summary['games']} solo games"
    extra = [f"{k} {summary[k]}" for k in ("seed", "variant") if k in summary]
    out.append("Solo benchmark: " + ", ".join([head, *extra]))
    for e in summary["solo"]:
        lo, hi = e["mean_interval"]
        out.append("")
        out.append(f"{e['label']}: {e['games']} setups")
        out.append(f"  mean score    {_fmt(e['mean'], '{:.2f}')} VP  "
                   f"[{_fmt(lo, '{:.2f}')}, {_fmt(hi, '{:.2f}')}] 95%")
        out.append(f"  spread        sd {_fmt(e['sd'])}, median {_fmt(e['median'])}, "
                   f"min {_fmt(e['min'])}, max {_fmt(e['max'])}")
        most = max([b["count"] for b in e["bins"]] + [1])
        for b in e["bins"]:
            bar = "#" * max(1 if b["count"] else 0, round(bar_width * b["count"] / most))
            out.append(f"  {b['low']:>5g}-{b['high']:<5g} {b['count']:>4}  {bar}")
    return "\n".join(out)


WIDTH = 640
PANEL = 220  # height of one agent's histogram
LEFT, RIGHT, TOP, BOTTOM = 60, 20, 46, 44


def _ticks(high: int, most: int = 6) -> list[int]:
    """Whole counts 0..high (or just past it), 1, 2 or 5 times a power of ten apart."""
    raw = max(1.0, high / max(1, most - 1))
    power = 10 ** math.floor(math.log10(raw))
    step = int(next(m * power for m in (1, 2, 5, 10) if m * power >= raw))
    top = -(-high // step) * step
    return list(range(0, top + 1, step))


def histogram_svg(summary: dict[str, Any], title: str = "Solo scores") -> str:
    """One histogram per agent of its final scores (bins of :data:`BIN_VP` VP, one scale of
    VP for all), the mean marked, as SVG text."""
    entries = summary["solo"]
    all_bins = [b for e in entries for b in e["bins"]]
    if not all_bins:
        lo_vp, hi_vp = 0, BIN_VP
    else:
        lo_vp = min(b["low"] for b in all_bins)
        hi_vp = max(b["high"] for b in all_bins)
    height = TOP + max(1, len(entries)) * (PANEL + BOTTOM) + 10
    plot_w = WIDTH - LEFT - RIGHT

    def x(vp: float) -> float:
        return LEFT + plot_w * (vp - lo_vp) / (hi_vp - lo_vp)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
           f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
           f'<text x="{WIDTH / 2:.1f}" y="24" text-anchor="middle" font-size="15">'
           f'{escape(title)}</text>']
    for k, e in enumerate(entries):
        top = TOP + k * (PANEL + BOTTOM) + 16
        base = top + PANEL - 16
        most = max([b["count"] for b in e["bins"]] + [1])
        ticks = _ticks(most)

        def y(count: float, base: float = base, top: float = top, tmax: int = ticks[-1]
              ) -> float:
            return base - (base - top) * count / tmax

        lo, hi = e["mean_interval"]
        caption = (f"{e['label']}: {e['games']} games, mean {_fmt(e['mean'], '{:.1f}')} VP "
                   f"[{_fmt(lo)}, {_fmt(hi)}] 95%")
        out.append(f'<text x="{LEFT}" y="{top - 6:.1f}">{escape(caption)}</text>')
        for t in ticks:
            out.append(f'<line x1="{LEFT}" y1="{y(t):.1f}" x2="{WIDTH - RIGHT}" '
                       f'y2="{y(t):.1f}" stroke="#e4e4e4"/>')
            out.append(f'<text x="{LEFT - 6}" y="{y(t) + 4:.1f}" text-anchor="end">{t}</text>')
        for b in e["bins"]:
            if b["count"]:
                out.append(f'<rect x="{x(b["low"]) + 1:.1f}" y="{y(b["count"]):.1f}" '
                           f'width="{x(b["high"]) - x(b["low"]) - 2:.1f}" '
                           f'height="{base - y(b["count"]):.1f}" fill="#4a7fb5">'
                           f'<title>{b["low"]:g}-{b["high"]:g} VP: {b["count"]}</title></rect>')
        vp = lo_vp
        while vp <= hi_vp:
            out.append(f'<text x="{x(vp):.1f}" y="{base + 16:.1f}" text-anchor="middle">'
                       f'{vp:g}</text>')
            vp += BIN_VP
        out.append(f'<line x1="{LEFT}" y1="{base}" x2="{WIDTH - RIGHT}" y2="{base}" '
                   f'stroke="black"/>')
        if not math.isnan(e["mean"]):
            out.append(f'<line x1="{x(e["mean"]):.1f}" y1="{top:.1f}" x2="{x(e["mean"]):.1f}" '
                       f'y2="{base}" stroke="#c0392b" stroke-width="2" '
                       f'stroke-dasharray="5,3"/>')
        out.append(f'<text x="{WIDTH / 2:.1f}" y="{base + 32:.1f}" text-anchor="middle">'
                   f'final score (VP); games per {BIN_VP} VP; dashed: the mean</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
