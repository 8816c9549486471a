"""The page address and the saved reading position: the query string of a view (benchmark, question, run and
list), what a shared link asks for, and the position this browser last read.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from mathreel.webapp import reading_flow as rd
from mathreel.webapp.benchmark_keys import benchmark_choices
from mathreel.webapp.html import plain
from mathreel.webapp.reading_flow import Walk, walk_filters

POSITION_KEY = "mathreel-position"  # local-storage key of the browser's last reading position (app.HEAD writes it)


def link_query(key: str, ref: str, walk: Walk) -> str:
    """The query string of a link to this view: benchmark, question, and the walked run with its list (the walk
    filter, a dimension value, only where the runs disagree, or a list handed over whole, such as a cause's
    questions: packed, with its name) when a run is walked."""
    params = {"benchmark": key, "q": ref}
    if walk.run:
        params["run"] = walk.run
        if walk.status != Walk().status:
            params["walk"] = walk.status
        if walk.dim_filter:
            params["dim"] = walk.dim_filter
        if walk.disagree:
            params["disagree"] = "1"
        packed = rd.pack_ids(walk.ids) if walk.ids else ""
        if packed:
            params["list"] = packed
            params["listed"] = walk.listed
    return urlencode(params)


def url_target(params: dict[str, str], keys: list[str]) -> tuple[str | None, dict[str, Any]]:
    """From a shared link's query (benchmark, q, run): the benchmark key to show (None: keep) and the target.

    A bare benchmark name (`videomme`) means its first mode. A key the app does not know keeps the default view
    (its question id and run belong to another benchmark) and puts a `notice` in the target naming the known keys,
    so a mistyped link is said to be one instead of silently opening the first benchmark."""
    named = (params.get("benchmark") or "").strip()
    if named and ":" not in named:
        named = next((k for k in keys if k.startswith(f"{named}:")), named)
    if named and named not in keys:
        return None, {"ref": "", "run": "", "notice": unknown_benchmark_note(named, keys)}
    return named or None, {"ref": params.get("q") or "", "run": params.get("run") or ""}


def unknown_benchmark_note(named: str, keys: list[str]) -> str:
    """The page's words for a link whose benchmark key is not one of `keys`."""
    shown = plain(named[:80])
    known = ", ".join(f"`{key}`" for key in keys)
    first = next((label for label, key in benchmark_choices() if key == keys[0]), keys[0]) if keys else "the list"
    return (
        f"The link names the benchmark **{shown}**, which this app does not know. Known: {known}. "
        f"Showing {first} instead."
    )


def with_notice(values: tuple, target: dict | None) -> tuple:
    """Page values (PAGE_OUTPUTS order, the error box first) with the target's notice shown in the error box."""
    import gradio as gr

    notice = (target or {}).get("notice")
    if not notice:
        return values
    return (gr.update(value=notice, visible=True), *values[1:])


def url_walk(params: dict[str, str]) -> Walk | None:
    """The walk a link names (run, walk filter, dimension value, disagreement, a packed list and its name); None
    when it names no run."""
    if not params.get("run"):
        return None
    statuses = {value for _, value in walk_filters()}
    named = params.get("walk")
    status = named if named is not None and named in statuses else Walk().status
    ids = rd.unpack_ids(params.get("list") or "")
    listed = (params.get("listed") or "")[:200] if ids else ""
    return Walk(params["run"], status, params.get("dim") or "", params.get("disagree") == "1", ids=ids, listed=listed)


def saved_position(saved: str | None, max_days: int, now: float) -> dict[str, str]:
    """The query of this browser's last reading position (kept in its local storage by app.HEAD as JSON
    {"query", "at": ms}), when it is younger than `max_days`; {} otherwise."""
    from urllib.parse import parse_qsl

    try:
        value = json.loads(saved or "null")
        query, at = value["query"], float(value["at"])
    except (ValueError, TypeError, KeyError):
        return {}
    if not isinstance(query, str) or now * 1000 - at > max_days * 86_400_000:
        return {}
    return dict(parse_qsl(query))
