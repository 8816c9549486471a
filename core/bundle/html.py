"""The pieces every page of a bundle is made of: escaping, the page frame (one stylesheet and one script, both
files of the bundle, under a content policy that lets the page load nothing from anywhere else), deep links in the
app's own query keys."""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

# The page may load its own files and nothing else: no request can leave it, whatever a string manages to become.
CSP = (
    "default-src 'none'; img-src 'self' file: data:; style-src 'self' file:; script-src 'self' file:; "
    "base-uri 'none'; form-action 'none'"
)
MARKS = {"correct": "✓ correct", "wrong": "✗ wrong", "unparsed": "? unparsed", "missing": "— missing"}
MATH_NOTE = "Math is shown as written, in its LaTeX source (nothing is rendered)."


def esc(value: Any) -> str:
    """Any value as HTML text: nothing from a file or a model can become markup."""
    return html.escape(str(value), quote=True)


def query(params: Mapping[str, str]) -> str:
    """The app's query string (benchmark, q, run, walk, disagree): the same link opens the view in the app."""
    return urlencode({key: value for key, value in params.items() if value})


def page(title: str, body: str, depth: int = 0, kind: str = "index") -> str:
    """A whole page; `depth` is how many folders below the bundle root it sits."""
    up = "../" * depth
    return (
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<meta http-equiv='Content-Security-Policy' content=\"{CSP}\">"
        f"<meta name='referrer' content='no-referrer'><link rel='icon' href='data:,'>"
        f"<meta name='viewport' content='width=device-width, initial-scale=1'><title>{esc(title)}</title>"
        f"<link rel='stylesheet' href='{up}style.css'></head><body data-kind='{kind}' data-root='{up}'>"
        f"{body}<script src='{up}walks.js'></script><script src='{up}bundle.js'></script></body></html>"
    )


def status_mark(status: str) -> str:
    return f"<span class='status status-{esc(status)}'>{esc(MARKS.get(status, status))}</span>"


def table(headings: list[str], rows: list[list[str]], cls: str = "") -> str:
    """A table of already-escaped cells."""
    head = "".join(f"<th>{h}</th>" for h in headings)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table class='{cls}'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
