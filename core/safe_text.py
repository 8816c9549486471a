"""Strings from outside (a URL parameter, a file, a model) made safe to put in a page: nothing in them may become
markup, and above all nothing that makes the visitor's browser fetch a URL.

A shared link `?run=![x](https://tracker/x.png)` once made every browser that opened it load the tracker; reviewer
names and flag reasons from an uploaded file, and images in a model's Markdown, did the same. Three helpers, by
where the string goes:

- `markdown_text(s)`: inside Markdown, shown as the very characters of `s`. Every ASCII punctuation character is
  backslash-escaped (CommonMark allows it for each of them), so no emphasis, link, image, heading, list, table,
  code, raw HTML, entity or bare-URL autolink can form.
- `html_text(s)`: inside HTML, the same promise (`<`, `>`, `&` and quotes escaped).
- `markdown_without_fetches(md)`: a model's Markdown still rendered as Markdown (emphasis, lists, tables, code,
  LaTeX, links one may click), but with every construct that fetches on its own made inert: an image becomes a
  link to its address, and raw HTML (img, iframe, video, audio, object, style, svg...) is shown as text. Code spans
  and fenced blocks are left as they are (they render as text already).

`one_line(s)` shortens a value for a label or a table cell. All are linear in the length of `s`.
"""

from __future__ import annotations

import html
import re
import string
from collections import deque

_PUNCTUATION = re.compile("([" + re.escape(string.punctuation) + "])")
_FENCE = re.compile(r"[ ]{0,3}(`{3,}|~{3,})")
_BACKTICKS = re.compile(r"`+")
_LINE_BREAKS = re.compile(r"[\r\n\u2028\u2029\x85\x0b\x0c]+")


def markdown_text(text: str) -> str:
    """`text` for a Markdown component, to be shown literally: every ASCII punctuation mark backslash-escaped."""
    return _PUNCTUATION.sub(r"\\\1", text)


def html_text(text: str) -> str:
    """`text` for an HTML component, to be shown literally."""
    return html.escape(text, quote=True)


def markdown_without_fetches(markdown: str) -> str:
    """A model's Markdown with nothing left that makes the browser fetch: "![" becomes "!&#91;" (the image is shown
    as its source text), and every "<" outside code is written as "&lt;", so no raw HTML element forms. Code
    (fenced blocks, inline spans) is left as it is: it renders as text."""
    parts: list[str] = []
    for text, is_code in _code_split(markdown):
        parts.append(text if is_code else text.replace("<", "&lt;").replace("![", "!&#91;"))
    return "".join(parts)


def _code_split(markdown: str) -> list[tuple[str, bool]]:
    """The text cut into (piece, is code) by fenced blocks and inline code spans, in one pass over lines and one
    over backtick runs (a run is closed by the next run of the same length), so linear in the text."""
    pieces: list[tuple[str, bool]] = []
    prose: list[str] = []
    fence: str | None = None
    block: list[str] = []
    for line in markdown.splitlines(keepends=True):
        opening = _FENCE.match(line)
        if fence is None and opening:
            pieces += _code_spans("".join(prose))
            prose, fence, block = [], opening.group(1), [line]
        elif fence is not None:
            block.append(line)
            closing = _FENCE.match(line)
            if (
                closing
                and closing.group(1)[0] == fence[0]
                and len(closing.group(1)) >= len(fence)
                and not line[closing.end() :].strip()
            ):
                pieces.append(("".join(block), True))
                fence, block = None, []
        else:
            prose.append(line)
    if fence is not None:  # an unclosed fence runs to the end
        pieces.append(("".join(block), True))
    pieces += _code_spans("".join(prose))
    return pieces


def _code_spans(text: str) -> list[tuple[str, bool]]:
    runs = [(run.start(), run.end()) for run in _BACKTICKS.finditer(text)]
    later: dict[int, deque[int]] = {}  # run length -> the runs of that length, in order
    for index, (start, end) in enumerate(runs):
        later.setdefault(end - start, deque()).append(index)
    pieces: list[tuple[str, bool]] = []
    last = index = 0
    while index < len(runs):
        start, end = runs[index]
        same = later[end - start]
        while same and same[0] <= index:
            same.popleft()
        if not same:  # no later run of this length: these backticks are text
            index += 1
            continue
        closing = same.popleft()
        pieces += [(text[last:start], False), (text[start : runs[closing][1]], True)]
        last, index = runs[closing][1], closing + 1
    pieces.append((text[last:], False))
    return pieces


def one_line(text: str, limit: int = 200) -> str:
    """`text` on one line (any line break becomes a space), at most `limit` characters with "…" when cut; combine
    with `markdown_text` or `html_text` for where it goes."""
    flat = _LINE_BREAKS.sub(" ", text).strip()
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
