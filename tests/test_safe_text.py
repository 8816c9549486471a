"""core.safe_text: strings from URLs, files and models rendered through a real CommonMark renderer (markdown-it-py,
Gradio's own dependency) with tables and raw HTML on: nothing forms that fetches, and text shows as written."""

from __future__ import annotations

import html
import re

import pytest
from markdown_it import MarkdownIt

from mathreel.core.safe_text import html_text, markdown_text, markdown_without_fetches, one_line

RENDER = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
# What would make a browser fetch or turn text into structure.
FETCHING = re.compile(r"<(img|iframe|video|audio|source|object|embed|link|style|svg|script|image)\b", re.I)
STRUCTURE = re.compile(r"<(a|h[1-6]|ul|ol|li|table|em|strong|code|pre|blockquote|hr|del)\b", re.I)

HOSTILE = [
    "![x](https://tracker.example/x.png)",
    "![x][ref]\n\n[ref]: https://tracker.example/x.png",
    "[click](https://evil.example)",
    "<https://evil.example/auto>",
    "# Heading\n\nSetext\n===",
    "<img src=https://tracker.example/i.png onerror=alert(1)>",
    '<iframe src="https://evil.example"></iframe>',
    "<svg><image href='https://tracker.example/s.png'/></svg>",
    "<style>body{background:url(https://tracker.example/b.png)}</style>",
    "| a | b |\n|---|---|\n| 1 | 2 |",
    "* item\n1. item\n> quote\n---",
    "**bold** _em_ ~~del~~ `code`",
    "&lt;img src=x&gt; &#33;[x](https://tracker.example/e.png)",
    "\\![x](https://tracker.example/escaped-escape.png)",
    "www.evil.example and https://evil.example/bare",
    "reviewer\u2028name\nwith lines",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_markdown_text_shows_the_characters_and_nothing_else(text):
    rendered = RENDER.render(markdown_text(text))
    assert not FETCHING.search(rendered) and not STRUCTURE.search(rendered)
    shown = html.unescape(re.sub(r"<[^>]+>", "", rendered))
    assert " ".join(shown.split()) == " ".join(text.split())


@pytest.mark.parametrize("text", HOSTILE)
def test_html_text_shows_the_characters(text):
    assert not FETCHING.search(html_text(text)) and html.unescape(html_text(text)) == text


@pytest.mark.parametrize("text", HOSTILE)
def test_a_responses_markdown_never_fetches(text):
    rendered = RENDER.render(markdown_without_fetches(text))
    assert not FETCHING.search(rendered)
    assert "tracker.example" not in "".join(re.findall(r'src="([^"]*)"', rendered))


def test_a_responses_markdown_keeps_its_markdown_code_and_latex():
    response = (
        "**Step 1.** Since $x < 3$ and $\\frac{a}{b}$,\n\n* one\n* two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
        "Inline `a<b` and\n\n```python\nif a < b: print('<img>')\n```\n\nSee [the paper](https://arxiv.org)."
    )
    rendered = RENDER.render(markdown_without_fetches(response))
    assert "<strong>Step 1.</strong>" in rendered and "<li>one</li>" in rendered and "<table>" in rendered
    assert "$x &lt; 3$" in rendered and "\\frac{a}{b}" in rendered
    assert "<code>a&lt;b</code>" in rendered and "if a &lt; b: print('&lt;img&gt;')" in rendered
    assert '<a href="https://arxiv.org">the paper</a>' in rendered


def test_backtick_runs_without_a_partner_are_text():
    assert markdown_without_fetches("``x<b>") == "``x&lt;b>"
    assert markdown_without_fetches("`a`<b>``c") == "`a`&lt;b>``c"
    assert markdown_without_fetches("``x`<b>``") == "``x`<b>``"  # a run is closed by one of its own length


def test_one_line():
    assert one_line("a\nb\r\nc\u2028d") == "a b c d"
    assert one_line("x" * 300, 10) == "x" * 9 + "…"
