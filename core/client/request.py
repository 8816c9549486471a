"""What one model call sends: the prompt text and the images, in the OpenAI vision message format.

Content order is the benchmark's (`core.message.Message`): by default lmms-eval's chat `openai` model (its
automatic doc_to_messages), the images first (the sampled frames in time order, or the MathVerse diagram), then the
prompt text; Video-MME-v2's official order sends two text items after the frames, or each frame's subtitles right
after it. Images over the size cap are re-encoded as JPEG so a 4K frame does not blow the request size.
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_MAX_SIDE = 768
JPEG_QUALITY = 90


@dataclass
class ModelRequest:
    """One question as the model gets it: the prompt (subtitles already inside it) and the images."""

    prompt: str
    images: list[bytes] = field(default_factory=list)
    image_mime: str = "image/jpeg"
    # The turn in order: a text item, or the position of an image in `images`; None: the images, then `prompt`.
    parts: tuple[str | int, ...] | None = None

    def __repr__(self) -> str:
        head = self.prompt[:40]
        return f"ModelRequest(prompt={head!r}..., images={len(self.images)}, image_mime={self.image_mime!r})"

    def data_urls(self) -> list[str]:
        """Each image as a base64 data URL."""
        return [f"data:{self.image_mime};base64,{base64.b64encode(img).decode('ascii')}" for img in self.images]

    def to_messages(self) -> list[dict[str, Any]]:
        """The chat `messages` list: one user turn, its parts in order (by default image parts, then the text)."""
        urls = self.data_urls()
        parts = self.parts if self.parts is not None else (*range(len(urls)), self.prompt)
        content: list[dict[str, Any]] = [
            {"type": "text", "text": part}
            if isinstance(part, str)
            else {"type": "image_url", "image_url": {"url": urls[part]}}
            for part in parts
        ]
        return [{"role": "user", "content": content}]


def fit_image(data: bytes, max_side: int | None) -> tuple[bytes, str]:
    """(image bytes, MIME type) with the longest side at most `max_side`; re-encodes only when it must.

    Images within the cap are passed through untouched (their header alone is read), so cached
    JPEG frames cost nothing here. Re-encoded images become JPEG.
    """
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        mime = Image.MIME.get(image.format or "", "image/jpeg")
        if not max_side or max(image.size) <= max_side:
            return data, mime
        image.thumbnail((max_side, max_side))
        out = io.BytesIO()
        image.convert("RGB").save(out, format="JPEG", quality=JPEG_QUALITY)
        return out.getvalue(), "image/jpeg"


def build_request(
    prompt: str,
    images: list[bytes],
    *,
    max_side: int | None = DEFAULT_MAX_SIDE,
    parts: tuple[str | int, ...] | None = None,
) -> ModelRequest:
    """A request with every image capped at `max_side`; mixed formats are all sent as JPEG."""
    fitted = [fit_image(img, max_side) for img in images]
    mimes = {mime for _, mime in fitted}
    if len(mimes) > 1:
        fitted = [fit_image(_as_jpeg(img), None) for img, _ in fitted]
        mimes = {"image/jpeg"}
    mime = mimes.pop() if mimes else "image/jpeg"
    return ModelRequest(prompt=prompt, images=[img for img, _ in fitted], image_mime=mime, parts=parts)


def _as_jpeg(data: bytes) -> bytes:
    """Any image re-encoded as JPEG, so one request has one MIME type."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        if image.format == "JPEG":
            return data
        out = io.BytesIO()
        image.convert("RGB").save(out, format="JPEG", quality=JPEG_QUALITY)
        return out.getvalue()


def request_from_view(view: Any, *, max_side: int | None = DEFAULT_MAX_SIDE) -> ModelRequest:
    """The request for a `core.view.ModelView`: its message in order (its sampled frames and texts), the diagram
    (MathVerse) before the first text."""
    images: list[bytes] = []
    frames = getattr(view, "frames", None)
    if frames is not None:
        images = [frames.jpeg_bytes(i) for i in range(len(frames.paths))]
    image_path = getattr(view, "image_path", None)
    if image_path:
        images.append(Path(image_path).read_bytes())
    message = getattr(view, "message", None)
    parts = None
    if message is not None:
        placed = set(message.frame_positions)
        unplaced = [i for i in range(len(images)) if i not in placed]  # the diagram, which no message places
        first_text = next((i for i, part in enumerate(message.parts) if isinstance(part, str)), len(message.parts))
        parts = (*message.parts[:first_text], *unplaced, *message.parts[first_text:])
    return build_request(view.prompt, images, max_side=max_side, parts=parts)
