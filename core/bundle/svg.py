"""Accuracy bars with 95% interval whiskers, drawn as inline SVG: a chart that needs no script and no network."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

COLOURS = ("#4f46e5", "#d97706", "#059669", "#db2777", "#0891b2", "#65a30d", "#7c3aed", "#dc2626")
LABEL_W = 190
PLOT_W = 420
BAR_H = 12
GAP = 8


def bar_chart(
    title: str,
    categories: Sequence[str],
    series: Sequence[tuple[str, Sequence[tuple[float | None, tuple[float, float] | None]]]],
) -> str:
    """Horizontal bars, one group per category and one bar per series (run), accuracy in percent on 0-100 with the
    interval as a whisker; a run without a figure for a category gets no bar (named in the legend as "—")."""
    group_h = BAR_H * len(series) + GAP
    top = 28 + 16 * len(series)
    height = top + group_h * len(categories) + 24
    width = LABEL_W + PLOT_W + 60
    parts = [
        f"<svg class='chart' role='img' width='{width}' height='{height}' "
        f"viewBox='0 0 {width} {height}'><title>{escape(title)}</title>",
        f"<text x='0' y='14' font-weight='bold' font-size='13'>{escape(title)}</text>",
    ]
    for k, (name, _) in enumerate(series):
        colour = COLOURS[k % len(COLOURS)]
        parts.append(
            f"<rect x='0' y='{22 + 16 * k}' width='10' height='10' fill='{colour}'/>"
            f"<text x='16' y='{31 + 16 * k}' font-size='11'>{escape(name)}</text>"
        )
    for tick in (0, 25, 50, 75, 100):
        x = LABEL_W + PLOT_W * tick / 100
        parts.append(
            f"<line x1='{x:.1f}' y1='{top - 4}' x2='{x:.1f}' y2='{height - 20}' stroke='#ddd'/>"
            f"<text x='{x:.1f}' y='{height - 6}' font-size='10' text-anchor='middle'>{tick}%</text>"
        )
    for i, category in enumerate(categories):
        y0 = top + group_h * i
        parts.append(
            f"<text x='{LABEL_W - 6}' y='{y0 + group_h / 2:.1f}' font-size='11' text-anchor='end' "
            f"dominant-baseline='middle'>{escape(_short(category))}</text>"
        )
        for k, (name, cells) in enumerate(series):
            accuracy, ci = cells[i]
            if accuracy is None:
                continue
            y = y0 + BAR_H * k
            w = PLOT_W * max(0.0, min(accuracy, 100.0)) / 100
            colour = COLOURS[k % len(COLOURS)]
            parts.append(
                f"<rect x='{LABEL_W}' y='{y}' width='{w:.1f}' height='{BAR_H - 2}' fill='{colour}'>"
                f"<title>{escape(name)} · {escape(category)}: {accuracy:.1f}%</title></rect>"
            )
            if ci is not None:
                lo, hi = (LABEL_W + PLOT_W * max(0.0, min(v, 100.0)) / 100 for v in ci)
                mid = y + (BAR_H - 2) / 2
                parts.append(f"<line x1='{lo:.1f}' y1='{mid:.1f}' x2='{hi:.1f}' y2='{mid:.1f}' stroke='#111'/>")
            parts.append(f"<text x='{LABEL_W + w + 4:.1f}' y='{y + BAR_H - 3}' font-size='9'>{accuracy:.1f}</text>")
    parts.append("</svg>")
    return "".join(parts)


def _short(text: str, limit: int = 30) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
