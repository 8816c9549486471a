"""Browse tab: the progressive gallery. On a cold question switch the nearest keyframes show at once, each captioned
as approximate with its real frame number and time, and each is replaced by the exact frame as it is decoded.

Why a handler of its own: the frames come from core (`core.media.progressive.progressive_frames`); this module
only turns its snapshots into Gallery values and streams them (a Gradio generator handler), beside the Browse
tab's own select event. That event renders the page from the cache, which the same decode fills: core's build lock
makes it wait for this decode instead of starting a second one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from webapp.errors import log
from webapp.present import seconds_text

if TYPE_CHECKING:
    from core.media.progressive import GalleryFrame
    from webapp.context import AppContext


def gallery_value(snapshot: list[GalleryFrame]) -> list[tuple[str, str]]:
    """Gallery items: exact frames captioned like the page's; previews say which keyframe stands in, and when."""
    items = []
    for item in snapshot:
        if item.exact:
            caption = f"frame {item.index} · {seconds_text(item.time)}"
        else:
            caption = (f"≈ approximate: keyframe {item.shown_index} at {seconds_text(item.shown_time)} "
                       f"(exact frame {item.index} at {seconds_text(item.time)} is being decoded)")
        items.append((str(item.path), caption))
    return items


def stream_gallery(context: AppContext) -> Any:
    """The select handler: yields Gallery values for the clicked question's video (nothing when it has none)."""
    from webapp.browse import split_key
    from webapp.context import select_handler

    @select_handler
    def handler(key: str, n: float, evt: Any) -> Iterator[Any]:
        import gradio as gr

        from core.media.progressive import progressive_frames

        try:
            dataset = context.datasets.get(*split_key(key))
            question = dataset.question(str((evt.row_value or [""])[0]))
            video = dataset.find_video(question) if question.video_id else None
            if video is None:
                yield gr.skip()
                return
            for snapshot in progressive_frames(video, int(n)):
                yield gallery_value(snapshot)
        except Exception:  # the page's own select event reports the problem in its error box
            log.debug("progressive gallery stopped", exc_info=True)
            yield gr.skip()

    return handler
