"""PIL drawing helpers shared by the video scenes and the MathVerse diagrams.

Text uses Pillow's bundled font (`ImageFont.load_default(size=...)`), so frames look the same on every machine.
That font has no glyphs for most math symbols, so `label` draws `^2` as a raised small digit instead of `²`.
"""

from __future__ import annotations

import math
import re
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image, ImageDraw, ImageFont

Point = tuple[float, float]
Color = tuple[int, int, int]

BG: Color = (250, 249, 245)
INK: Color = (33, 37, 41)
MUTED: Color = (118, 124, 134)
GRID: Color = (224, 226, 230)
BLUE: Color = (37, 99, 235)
RED: Color = (220, 38, 38)
GREEN: Color = (22, 163, 74)
ORANGE: Color = (234, 88, 12)
PURPLE: Color = (124, 58, 237)
SHADE: Color = (191, 219, 254)
HEADER: Color = (30, 58, 138)

_SUPERSCRIPT = re.compile(r"\^(\S)")


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font at `size` pixels (cached: loading it is the slow part)."""
    from PIL import ImageFont

    return ImageFont.load_default(size=size)


def new_image(width: int, height: int, color: Color = BG) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A blank light image and its drawing context."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (width, height), color)
    return image, ImageDraw.Draw(image)


def _segments(text: str) -> list[tuple[str, bool]]:
    """Split "a^2 + b^2" into runs of (text, is_superscript)."""
    parts: list[tuple[str, bool]] = []
    position = 0
    for match in _SUPERSCRIPT.finditer(text):
        if match.start() > position:
            parts.append((text[position : match.start()], False))
        parts.append((match.group(1), True))
        position = match.end()
    if position < len(text):
        parts.append((text[position:], False))
    return parts


def text_width(text: str, size: int) -> float:
    """Width of `text` as `label` draws it, superscripts included."""
    small = font(max(8, size * 3 // 5))
    return sum((small if sup else font(size)).getlength(part) for part, sup in _segments(text))


def label(
    draw: ImageDraw.ImageDraw, xy: Point, text: str, size: int = 18, fill: Color = INK, align: str = "left"
) -> None:
    """Draw one line of text whose vertical centre is at xy[1]; align is left, center or right of xy[0]."""
    width = text_width(text, size)
    x = xy[0] - {"left": 0.0, "center": width / 2, "right": width}[align]
    baseline = xy[1] + size * 0.36
    small = font(max(8, size * 3 // 5))
    for part, sup in _segments(text):
        face = small if sup else font(size)
        y = baseline - size * 0.45 if sup else baseline
        draw.text((x, y), part, font=face, fill=fill, anchor="ls")
        x += face.getlength(part)


def header(draw: ImageDraw.ImageDraw, width: int, title: str, note: str = "synthetic demo") -> None:
    """The title band at the top of a lesson frame and a small 'synthetic' mark at the bottom right."""
    draw.rectangle((0, 0, width, 34), fill=HEADER)
    label(draw, (14, 17), title, size=18, fill=(255, 255, 255))
    height = draw.im.size[1]
    label(draw, (width - 8, height - 10), note, size=11, fill=MUTED, align="right")


def ramp(t: float, start: float, duration: float) -> float:
    """Progress of an animation that starts at `start` and lasts `duration` seconds, clamped to [0, 1]."""
    if duration <= 0:
        return 1.0 if t >= start else 0.0
    return min(1.0, max(0.0, (t - start) / duration))


def lerp(p: Point, q: Point, f: float) -> Point:
    """The point a fraction f of the way from p to q."""
    return (p[0] + (q[0] - p[0]) * f, p[1] + (q[1] - p[1]) * f)


def growing_line(
    draw: ImageDraw.ImageDraw, p: Point, q: Point, progress: float, fill: Color = INK, width: int = 3
) -> None:
    """A segment from p towards q, drawn up to `progress` of its length (nothing at 0)."""
    if progress > 0:
        draw.line((p, lerp(p, q, progress)), fill=fill, width=width)


def dashed_line(
    draw: ImageDraw.ImageDraw,
    p: Point,
    q: Point,
    fill: Color = INK,
    width: int = 2,
    dash: float = 8.0,
    progress: float = 1.0,
) -> None:
    """A dashed segment from p towards q (up to `progress` of its length)."""
    length = math.dist(p, q) * progress
    if length <= 0:
        return
    steps = int(length // (2 * dash)) + 1
    for i in range(steps):
        a = 2 * dash * i
        b = min(a + dash, length)
        if a >= length:
            break
        total = math.dist(p, q)
        draw.line((lerp(p, q, a / total), lerp(p, q, b / total)), fill=fill, width=width)


def direction(p: Point, q: Point) -> float:
    """Screen angle of the ray p->q in degrees, clockwise from +x (PIL's arc convention, y points down)."""
    return math.degrees(math.atan2(q[1] - p[1], q[0] - p[0])) % 360


def angle_arc(
    draw: ImageDraw.ImageDraw,
    vertex: Point,
    towards_a: Point,
    towards_b: Point,
    radius: float,
    fill: Color = RED,
    width: int = 2,
) -> Point:
    """Mark the (smaller) angle between two rays at `vertex`; returns a good spot for its label."""
    a, b = direction(vertex, towards_a), direction(vertex, towards_b)
    start, end = (a, b) if (b - a) % 360 <= 180 else (b, a)
    box = (vertex[0] - radius, vertex[1] - radius, vertex[0] + radius, vertex[1] + radius)
    draw.arc(box, start, end if end > start else end + 360, fill=fill, width=width)
    middle = math.radians(start + ((end - start) % 360) / 2)
    reach = radius + 16
    return (vertex[0] + reach * math.cos(middle), vertex[1] + reach * math.sin(middle))


def right_angle_mark(
    draw: ImageDraw.ImageDraw, vertex: Point, towards_a: Point, towards_b: Point, size: float = 12, fill: Color = INK
) -> None:
    """The small square that marks a right angle at `vertex`."""

    def unit(q: Point) -> Point:
        d = math.dist(vertex, q)
        return ((q[0] - vertex[0]) / d, (q[1] - vertex[1]) / d)

    ua, ub = unit(towards_a), unit(towards_b)
    p1 = (vertex[0] + ua[0] * size, vertex[1] + ua[1] * size)
    p3 = (vertex[0] + ub[0] * size, vertex[1] + ub[1] * size)
    p2 = (p1[0] + ub[0] * size, p1[1] + ub[1] * size)
    draw.line((p1, p2, p3), fill=fill, width=2)


def dot(draw: ImageDraw.ImageDraw, center: Point, radius: float, fill: Color, outline: Color | None = None) -> None:
    """A filled circle."""
    x, y = center
    draw.ellipse(
        (x - radius, y - radius, x + radius, y + radius), fill=fill, outline=outline, width=2 if outline else 1
    )
