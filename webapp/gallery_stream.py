"""Browse tab: the progressive gallery. On a cold question switch the nearest keyframes show at once, each captioned
as approximate with its real frame number and time, and each is replaced by the exact frame as it is decoded.

Why a module of its own: the frames come from core (`core.media.progressive.progressive_frames`); this module only
turns its snapshots into Gallery values. Browse's switch handlers are generators that yield these values first
(gallery only) and the page last, in one event: a second event per click, even one that does nothing for a cached
question, cost a cached switch about 120 ms in Chromium.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from mathreel.webapp.benchmark_keys import split_key
from mathreel.webapp.errors import log
from mathreel.webapp.present import seconds_text

if TYPE_CHECKING:
    from mathreel.core.media.progressive import GalleryFrame
    from mathreel.webapp.context import DatasetCache


# Exact frames landing within this many seconds of the last update are shown together. Each gallery update costs the
# server and the page CPU that the decoding needs on a loaded machine: on 2 cores, a cold switch to a 10-minute 720p
# video (8 frames) had all frames exact 1.07-1.14x faster than decord's get_batch with an update every 0.25 s,
# 1.10-1.14x every 0.5 s, 1.16-1.19x every 0.75 s, 1.15-1.20x with none between the previews and the last
# (bench/README.md). A long decode (256 frames of an hour: 16 s) still shows its frames turning exact as it goes.
EXACT_UPDATE_INTERVAL = 0.75


def gallery_value(snapshot: list[GalleryFrame]) -> list[tuple[str, str]]:
    """Gallery items: exact frames captioned like the page's; previews say which keyframe stands in, and when."""
    items = []
    for item in snapshot:
        if item.exact:
            caption = f"frame {item.index} · {seconds_text(item.time)}"
        else:
            caption = (
                f"≈ approximate: keyframe {item.shown_index} at {seconds_text(item.shown_time)} "
                f"(exact frame {item.index} at {seconds_text(item.time)} is being decoded)"
            )
        items.append((str(item.path), caption))
    return items


def previews(datasets: DatasetCache, key: str, ref: str, num_frames: int) -> Iterator[list[tuple[str, str]]]:
    """Gallery values while `ref`'s frames are decoded: the nearest keyframes, then each exact frame as it lands.

    Nothing when the question has no video or its frames are cached. The last value points into the cache entry,
    at the very files the page's own update shows next, so the browser does not fetch them twice. On a failure it
    stops quietly: rendering the page meets the same problem and reports it in the error box.
    """
    from mathreel.core.media.frames import cached_frames
    from mathreel.core.media.progressive import progressive_frames

    try:
        dataset = datasets.get(*split_key(key))
        question = dataset.question(ref)
        video = dataset.find_video(question) if question.video_id else None
        if video is None or cached_frames(Path(video), num_frames, None, None, None) is not None:
            return
        for snapshot in progressive_frames(video, num_frames, min_interval=EXACT_UPDATE_INTERVAL):
            yield gallery_value(snapshot)
    except Exception:
        log.debug("progressive gallery stopped", exc_info=True)
