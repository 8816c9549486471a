"""What the app shares between tabs: settings, the server's read-only datasets, and cross-tab links.

Nothing here holds a user's data: uploads and results live in each tab's `gr.State`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mathreel.webapp.settings import Settings

if TYPE_CHECKING:
    from mathreel.core.data import Dataset


class DatasetCache:
    """The server's benchmark questions, read-only and shared by every user.

    Datasets come from the server's data directory, never from users, so sharing them is safe. core.data
    caches loaded sets itself (and reloads an edited file), so this only pins the server's data directory.
    """

    def __init__(self, settings: Settings) -> None:
        self._data_dir = settings.data_dir

    def get(self, benchmark: str, mode: str | None) -> Dataset:
        from mathreel.core.data import load_dataset

        return load_dataset(benchmark, mode=mode, data_dir=self._data_dir)


@dataclass
class BrowseLinks:
    """What Browse offers other tabs.

    `open(target, runs, *open_inputs)` -> values for `outputs`: the question `target` ({"key", "ref"}) with the
    walked run's response; `follow(runs, walk)` -> values for `follow_outputs`: the view controls set to what the
    walked run used. `walk_controls(walk)` -> values for `walk_outputs` (run, list filter, disagreement box).
    """

    open: Callable[..., tuple]
    open_inputs: list[Any]
    outputs: list[Any]
    follow: Callable[..., tuple]
    follow_outputs: list[Any]
    walk_controls: Callable[..., tuple]
    walk_outputs: list[Any]
    state: Any  # gr.State of the question shown ({"key", "ref", ...})
    settled: Any  # the same, set once the rest of the page has followed (follow this, not `state`)
    benchmark: Any  # the benchmark dropdown
    walk: Any  # gr.State of the walked list (reading_flow.Walk as a dict)
    refresh_list: tuple[Callable[..., tuple], list[Any], list[Any]]  # (fn, inputs, outputs) of the question table
    progress: dict[str, Any]  # event options for `open`/`follow`/`walk_controls` (webapp.context.progress_on)
    list_progress: dict[str, Any]  # the same for `refresh_list`
    # `jump(target, walk, runs, *jump_inputs)` -> values for `jump_outputs`: what walk_controls, follow and open
    # give, in one handler, so another tab opens a question on a walk in one round trip instead of four.
    jump: Callable[..., tuple]
    jump_inputs: list[Any]
    jump_outputs: list[Any]


@dataclass
class AppContext:
    """Handed to every tab builder: typed links between tabs instead of string keys.

    `runs` is the user's scored runs (gr.State list of scored_runs.Run), shared by Score, Browse and Judge, and
    kept for the visitor between visits (`visitor`, `store`); `app_load(fn, inputs, outputs, **options)` runs `fn`
    on page load, after the visitor's kept runs are back; `browse` is set by the Browse tab for later tabs;
    `review_session` is the session's reviews, shared by the tabs that review (webapp.review_state.review_session).
    """

    settings: Settings
    datasets: DatasetCache
    tabs: Any  # the gr.Tabs container, so a tab can switch to another by id
    runs: Any = None
    app_load: Callable[..., Any] | None = None
    browse: BrowseLinks | None = None
    review_session: Any = None  # webapp.review_state.ReviewSession: the reviews both Judge and Browse show
    tab_items: dict[str, Any] | None = None  # each tab's gr.Tab by id (its select event: the tab was opened)
    visitor: Any = None  # gr.BrowserState: the visitor's token, which names their kept runs (webapp.visitor)
    store: Any = None  # webapp.visitor.VisitorStore: each visitor's kept runs


@dataclass(frozen=True)
class TabSpec:
    """One tab of the app: its id (for `gr.Tabs(selected=...)`), its label and the function that builds it."""

    id: str
    label: str
    build: Callable[[AppContext], None]


def progress_on(component: Any) -> dict[str, Any]:
    """Event options showing the progress animation on `component` alone (a small one: a status line, the gallery).

    Why every event names one: Gradio's page (6.x) keeps every component that has ever shown an event's progress,
    and on each later status change of any event re-reads the value of each of them (a container: of everything
    inside it). An output table of 2,700 rows, a chart or the tab container itself as a progress target made every
    later click in the session slower; measured in Chromium, a question step after one jump from Score to Browse
    took 206 ms, 77 ms once no big component was a progress target. tests/test_webapp.py checks that no event
    shows progress on a table, chart or container.
    """
    return {"show_progress_on": [component]}


def select_handler(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Mark `fn`'s `evt` parameter as gr.SelectData.

    Gradio finds event data by resolving annotations; with postponed annotations and gradio imported inside
    functions, "gr.SelectData" would not resolve, so the real class is set here.
    """
    import gradio as gr

    fn.__annotations__["evt"] = gr.SelectData
    return fn


def with_request(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Give `fn`'s `request` parameter the real gr.Request annotation (annotations are strings here)."""
    import gradio as gr

    fn.__annotations__["request"] = gr.Request
    return fn
