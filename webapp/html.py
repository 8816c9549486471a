"""Escaping for everything a user or a model wrote before it reaches the page.

File names, field names, responses, error lines and judge replies go through Markdown components, HTML toasts and
HTML blocks. Gradio sanitises out scripts but keeps harmless-looking tags such as <img>, which still fetch remote
URLs; so text from outside is escaped here, never trusted to the sanitiser.
"""

from __future__ import annotations

import html
import re

# Inline markup only: escaping "." or "-" too would leave backslashes inside the URLs Markdown auto-links.
# "!" is escaped so that `![x](url)` can never become an image, even if a bracket escape were lost.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]|~!])")


def plain(text: object) -> str:
    """Text that Markdown shows literally within a line: HTML escaped, inline markup characters backslashed."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", html.escape(str(text), quote=False))


def toast(text: object) -> str:
    """Text for gr.Warning / gr.Info, whose message Gradio renders as HTML."""
    return html.escape(str(text), quote=True)
