"""Plain text of an explanation for the terminal: the same numbers as `Explanation.to_dict()`, laid out to read.

The one-line gap ("-1.3 pt = -0.8 reading (22 questions) - 0.3 denominator (9) - 0.2 grouping (6)") shows the
parts rounded to tenths so that they add up to the total as shown (largest remainders); the exact parts are in
the JSON.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from mathreel.core.explain.gap import Gap, Step
from mathreel.core.plural import counted
from mathreel.core.scoring.numbers import one_decimal

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.explain.explanation import Explanation
    from mathreel.core.explain.frames import FrameComparison
    from mathreel.core.explain.paired import Flips, Paired, PairwiseMatrix
    from mathreel.core.explain.provenance import Provenance
    from mathreel.core.explain.references import ReferenceTable

_SHOWN = 10


def tenths(total: Fraction, parts: Sequence[Fraction], places: int = 1) -> tuple[int, list[int]]:
    """The total and the parts in units of the `places`-th decimal (tenths by default), rounded so that the parts
    add up to the total: the total rounded half away from zero, each part rounded down, then one unit more to the
    parts with the largest remainders."""
    scale = 10**places
    scaled = [part * scale for part in parts]
    target = _half_away(total * scale)
    floors = [math.floor(part) for part in scaled]
    extra = target - sum(floors)
    order = sorted(range(len(parts)), key=lambda i: scaled[i] - floors[i], reverse=True)
    for i in order[: max(extra, 0)]:
        floors[i] += 1
    return target, floors


def _half_away(value: Fraction) -> int:
    rounded = math.floor(abs(value) + Fraction(1, 2))
    return rounded if value >= 0 else -rounded


def _signed(units: int, places: int = 1) -> str:
    return f"{'-' if units < 0 else '+'}{_digits(abs(units), places)}"


def _digits(units: int, places: int) -> str:
    """A non-negative count of 10**-places as decimal text ("594", 1 -> "59.4")."""
    whole, part = divmod(units, 10**places)
    return f"{whole}.{part:0{places}d}"


MOST_PLACES = 4  # a gap between figures that differ still shown as 0 at four decimals is shown at four


def agreeing_places(a: Fraction | float, b: Fraction | float) -> int:
    """The fewest decimals (one at least) at which two figures and their gap, each rounded, do not contradict
    each other: figures that differ never show a gap of 0 ("59.4 -> 59.5: +0.0 pt"), and B shown minus A shown
    has the gap's sign (equal figures shown under a gap of +0.1 get a second decimal). A last digit one off
    (33.3 -> 66.7: +33.3) is rounding, as in any table. Floats are taken at their shortest repr, as
    `one_decimal` takes them."""
    exact_a, exact_b = _exact(a), _exact(b)
    if exact_a == exact_b:
        return 1
    for places in range(1, MOST_PLACES):
        scale = 10**places
        gap = _half_away((exact_b - exact_a) * scale)
        shown = _half_away(exact_b * scale) - _half_away(exact_a * scale)
        if gap != 0 and (shown > 0) == (gap > 0) and shown != 0:
            return places
    return MOST_PLACES


def figure_text(value: Fraction | float | None, places: int = 1, none: str = "-") -> str:
    """A figure rounded half away from zero to `places` decimals ("59.44"), `none` when there is none."""
    if value is None:
        return none
    units = _half_away(_exact(value) * 10**places)
    return ("-" if units < 0 else "") + _digits(abs(units), places)


def signed_text(value: Fraction | float, places: int = 1) -> str:
    """A difference with its sign, rounded as `figure_text` rounds ("+0.04")."""
    return _signed(_half_away(_exact(value) * 10**places), places)


def _exact(value: Fraction | float) -> Fraction:
    return value if isinstance(value, Fraction) else Fraction(repr(float(value)))


def gap_places(gap: Gap) -> int:
    """The decimals the gap's figures and parts are shown with (`agreeing_places` of its two figures)."""
    if gap.a_figure is None or gap.b_figure is None:
        return 1
    return agreeing_places(gap.a_figure, gap.b_figure)


def gap_line(gap: Gap) -> str:
    """ "-41.7 pt = -8.3 question (1 question) - 33.3 responses (8 questions)"; the steps that moved nothing are
    left out."""
    total = gap.total
    if total is None or any(step.delta is None for step in gap.steps):
        return "the gap is undefined: " + "; ".join(gap.notes)
    moving = [step for step in gap.steps if step.delta or step.changes]
    places = gap_places(gap)
    shown_total, parts = tenths(total, [step.delta for step in moving], places)  # type: ignore[misc]
    if not moving:
        return f"{_signed(shown_total, places)} pt: nothing differs"
    text = f"{_signed(shown_total, places)} pt ="
    for index, (step, part) in enumerate(zip(moving, parts, strict=True)):
        count = len(step.changes)
        what = f" ({count} question{'s' if count != 1 else ''})" if count else ""
        sign, magnitude = _signed(part, places)[0], _signed(part, places)[1:]
        text += f" {'-' if sign == '-' else ''}{magnitude}" if index == 0 else f" {sign} {magnitude}"
        text += f" {step.cause}{what}"
    return text


def format_explanation(found: Explanation) -> str:
    """Everything, in reading order: settings, references, the gap, the paired comparison, frames."""
    sections = [settings_lines(settings) for settings in found.settings]
    if found.references is not None:
        sections.append(reference_lines(found.references))
    if found.gap is not None:
        heading = [] if found.target is None else [f"against {found.target.target.label}:"]
        if found.paper is not None and found.paper.note:
            heading.append(f"  {found.paper.note}")
        sections.append(heading + gap_lines(found.gap))
    if found.paired is not None:
        sections.append(paired_lines(found.paired))
    if found.pairwise is not None:
        sections.append(pairwise_lines(found.pairwise))
    if found.frames is not None:
        sections.append(frame_lines(found.frames))
    sections.append([f"note: {note}" for note in found.notes])
    return "\n\n".join("\n".join(section) for section in sections if section)


def settings_lines(found: Provenance) -> list[str]:
    lines = [f"{found.run}: settings"]
    for setting in found.settings.values():
        guess = " (a guess)" if setting.marked_guess else ""
        lines.append(f"  {setting.label}: {setting.text}{guess} [{setting.source}]")
    return lines


def _cell(value: Fraction | None) -> str:
    return "-" if value is None else one_decimal(float(value))


def reference_lines(table: ReferenceTable) -> list[str]:
    """The reference table: a row per reader, a column per scoring; * marks the figure the reference reports."""
    headings = [column.heading for column in table.columns]
    labels = [row.label for row in table.rows]
    width = max(len(label) for label in [*labels, "reader"])
    widths = [max(len(heading), 7) for heading in headings]
    lines = [
        f"{table.run}: every reference ({table.benchmark} / {table.mode}); * is the figure the reference reports",
        "  "
        + f"{'reader':<{width}}  "
        + "  ".join(f"{h:>{w}}" for h, w in zip(headings, widths, strict=True))
        + "  unparsed  read differently",
    ]
    for row in table.rows:
        cells = []
        for column, w in zip(table.columns, widths, strict=True):
            mark = "*" if column.key == row.own else " "
            cells.append(f"{_cell(row.cells[column.key].value) + mark:>{w + 1}}")
        lines.append(
            f"  {row.label:<{width}}  " + " ".join(cells) + f"  {len(row.unparsed):>8}  {len(row.read_differently):>15}"
        )
    lines.append("  sources:")
    for row in table.rows:
        if row.reader.source and not row.judge:
            lines.append(f"    {row.label}: {row.reader.title}, {row.reader.source} (commit {row.reader.commit})")
    for row in table.rows:
        if row.gap is not None and row.gap.total:
            lines.append(f"  robust -> {row.label} ({row.own}): {gap_line(row.gap)}")
    lines += [f"  note: {note}" for note in table.notes]
    return lines


def gap_lines(gap: Gap) -> list[str]:
    places = gap_places(gap)
    a, b = figure_text(gap.a_figure, places), figure_text(gap.b_figure, places)
    lines = [f"gap: {gap.a} = {a}  ->  {gap.b} = {b}", f"  {gap_line(gap)}"]
    for number, step in enumerate(gap.steps, start=1):
        if not (step.delta or step.changes):
            continue
        count = len(step.changes)
        lines.append(
            f"  {number}. {step.cause}: {_delta(step)} pt, {count} question{'s' if count != 1 else ''} ({step.means})"
        )
        lines.append(f"     {step.label}")
        transitions = ", ".join(f"{key}: {count}" for key, count in step.transitions().items())
        if transitions:
            lines.append(f"     {transitions}")
        if step.changes:
            lines.append(f"     {_ids(step.question_ids)}")
    lines += [f"  note: {note}" for note in gap.notes]
    return lines


def _delta(step: Step) -> str:
    delta = step.delta
    return "undefined" if delta is None else f"{'+' if delta >= 0 else ''}{float(delta):.2f}"


def _ids(ids: Sequence[str]) -> str:
    head = ", ".join(ids[:_SHOWN])
    return head + (f" and {len(ids) - _SHOWN} more" if len(ids) > _SHOWN else "")


def _flips(flips: Flips) -> str:
    difference = flips.difference
    shown = "-" if difference is None else f"{float(difference):+.1f}"
    return (
        f"n {flips.n}: both right {flips.both}, only A {flips.only_a}, only B {flips.only_b}, neither "
        f"{flips.neither}; A - B {shown} pt, McNemar p = {flips.p_value:.4g}"
    )


def paired_lines(found: Paired) -> list[str]:
    interval = found.interval
    shown = "-" if interval.low is None else f"[{interval.low:+.1f}, {interval.high:+.1f}]"
    lines = [
        f"paired, per {found.unit}: A = {found.a}, B = {found.b}",
        f"  {_flips(found.overall)}",
        f"  95% interval of A - B: {shown} pt, {interval.method}; {counted(interval.clusters, 'cluster')} "
        f"({interval.clustered_by})",
    ]
    if interval.note:
        lines.append(f"  note: {interval.note}")
    if any(found.not_shared):
        lines.append(f"  counted by one only: {found.not_shared[0]} by A, {found.not_shared[1]} by B (left out)")
    lines.append(f"  A right, B wrong ({len(found.only_a_ids)}): {_ids(found.only_a_ids)}")
    lines.append(f"  B right, A wrong ({len(found.only_b_ids)}): {_ids(found.only_b_ids)}")
    for dim, cells in found.by.items():
        lines.append(f"  by {dim}:")
        lines += [f"    {value}: {_flips(flips)}" for value, flips in cells.items()]
    return lines


def pairwise_lines(matrix: PairwiseMatrix) -> list[str]:
    """Row minus column, in points, with the 95% interval; the runs are numbered."""
    lines = ["pairwise differences (row - column, points, 95% interval):"]
    lines += [f"  [{i + 1}] {name}" for i, name in enumerate(matrix.names)]
    size = len(matrix.names)
    header = "      " + "".join(f"{f'[{j + 1}]':>24}" for j in range(size))
    lines.append(header)
    for i in range(size):
        cells = []
        for j in range(size):
            found = matrix.cells.get((i, j))
            if found is None:
                cells.append(f"{'':>24}")
                continue
            difference = found.overall.difference
            interval = found.interval
            bounds = "" if interval.low is None else f" [{interval.low:+.1f},{interval.high:+.1f}]"
            text = "-" if difference is None else f"{float(difference):+.1f}{bounds}"
            cells.append(f"{text:>24}")
        lines.append(f"  [{i + 1}] " + "".join(cells))
    return lines


def frame_lines(found: FrameComparison) -> list[str]:
    verdict = "same frames" if found.same_frames else f"different frames ({len(found.shared)} indices shared)"
    lines = [
        f"same frames? {verdict}; {'same' if found.same_subtitles else 'different'} subtitle lines "
        f"({found.total_frames} frames at {found.fps:g} fps)",
        f"  A: {found.a.describe()}",
        f"  B: {found.b.describe()}",
        f"  {'A index':>8} {'time':>8}  {'B index':>8} {'time':>8}  subtitles A | B",
    ]
    for k in range(max(len(found.a_frames), len(found.b_frames))):
        a = found.a_frames[k] if k < len(found.a_frames) else None
        b = found.b_frames[k] if k < len(found.b_frames) else None
        left = f"{a.index:>8} {a.time:>8.2f}" if a else f"{'':>17}"
        right = f"{b.index:>8} {b.time:>8.2f}" if b else f"{'':>17}"
        subs = f"{' / '.join(a.subtitles) if a else ''} | {' / '.join(b.subtitles) if b else ''}"
        lines.append(f"  {left}  {right}  {subs}")
    if found.only_a_lines:
        lines.append(f"  subtitle lines only A sees: {' / '.join(found.only_a_lines)}")
    if found.only_b_lines:
        lines.append(f"  subtitle lines only B sees: {' / '.join(found.only_b_lines)}")
    lines += [f"  note: {note}" for note in found.notes]
    return lines
