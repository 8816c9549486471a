"""One user turn as a model gets it: text items and sampled frames, in the order the reference harness sends them.

lmms-eval's chat models send the frames first and one prompt text after them; Video-MME-v2's official script sends
the frames, a frame-description text and the question text as separate items, and in its interleaved mode puts
each frame's subtitle segments right after that frame. A `Message` holds any of these orders, so the view, `show`,
the client and the app all send and display the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.media.subtitles import Cue


@dataclass(frozen=True)
class Message:
    """The parts of one user turn in order: a text item, or an int naming a sampled frame by its position.
    `subtitles` are the subtitle lines the parts carry, for display."""

    parts: tuple[str | int, ...]
    subtitles: tuple[str, ...] = ()

    @classmethod
    def frames_then_text(cls, frames: int, *texts: str, subtitles: tuple[str, ...] = ()) -> Message:
        """Every sampled frame, then the text items (lmms-eval's chat layout)."""
        return cls((*range(frames), *texts), subtitles)

    @property
    def texts(self) -> tuple[str, ...]:
        return tuple(part for part in self.parts if isinstance(part, str))

    @property
    def text(self) -> str:
        """The text items joined by newlines: the prompt as a reader sees it (a chat template may join the items
        differently; the request keeps them apart)."""
        return "\n".join(self.texts)

    @property
    def frame_positions(self) -> tuple[int, ...]:
        return tuple(part for part in self.parts if isinstance(part, int))


@dataclass(frozen=True)
class PromptSubtitles:
    """The subtitles a prompt may use, as the view found them for the sampled frames.

    `cues` are every subtitle unit of the video in time order (None when the video has no subtitle file);
    `frame_cues` the units shown with each sampled frame; `times` the sampled frames' times (None when the video is
    missing, `missing` then says why). `full` asks for every unit rather than those of the sampled frames;
    `interleaved` for each frame's units placed right after that frame. `source` is the subtitle file, for messages.
    """

    cues: tuple[Cue, ...] | None
    frame_cues: tuple[tuple[Cue, ...], ...] = ()
    times: tuple[float, ...] | None = None
    full: bool = False
    interleaved: bool = False
    source: str = ""
    missing: str = ""
