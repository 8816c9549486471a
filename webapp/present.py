"""How figures and frames read on every view: numbers as `mathreel score` prints them (core.scoring.numbers),
with an em dash where there is no figure; timestamps as a video player shows them; sampled frames as gallery
items captioned with their index, time and subtitle lines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from mathreel.core.scoring import numbers

if TYPE_CHECKING:
    from mathreel.core.scoring.report import Cell
    from mathreel.core.view import ModelView

NONE = "—"


def pct(value: float | None) -> str:
    """An accuracy in percent with one decimal, or an em dash when there is none."""
    return numbers.pct_text(value, NONE)


def ci_text(ci: Sequence[float | None] | None) -> str:
    """A 95% CI as "[low, high]" with one decimal."""
    return numbers.ci_text(ci, NONE)


def se_text(value: float | None) -> str:
    """A standard error in points, as the text report prints it."""
    return numbers.se_text(value, NONE)


def cell_parts(cell: Cell) -> tuple[str, str]:
    """A report cell's accuracy and interval as shown (rendered by core from full precision, not from the two
    decimals the JSON keeps)."""
    return cell.accuracy_text(NONE), cell.ci_text(NONE)


def cell_text(cell: Cell | None) -> str:
    """One breakdown cell as "41.3% [35.2, 47.6] n=120"."""
    if cell is None or not cell.n:
        return NONE
    shown, interval = cell_parts(cell)
    return f"{shown} {interval} n={cell.n}"


def seconds_text(seconds: float) -> str:
    """A timestamp as m:ss.s (h:mm:ss.s past an hour), the way a video player shows it."""
    minutes, secs = divmod(max(seconds, 0.0), 60)
    hours, minutes = divmod(int(minutes), 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:04.1f}"
    return f"{minutes}:{secs:04.1f}"


def frame_items(view: ModelView) -> list[tuple[str, str]]:
    """Gallery items of the view's sampled frames: path and caption (index, time, the aligned subtitle lines)."""
    frames = view.frames
    if frames is None:
        return []
    return [
        (str(path), frame_caption(int(index), float(time), [c.text for c in cues]))
        for path, index, time, cues in zip(
            frames.paths, frames.indices, frames.times, view.frame_cues or [[]] * len(frames), strict=True
        )
    ]


def frame_caption(index: int, time: float, lines: list[str]) -> str:
    """ "frame 120 · 0:04.0" then the subtitle lines at that moment (or a note that there are none)."""
    text = " / ".join(lines) if lines else "(no subtitle at this moment)"
    return f"frame {index} · {seconds_text(time)}\n{text}"
