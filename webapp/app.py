"""The app shell: builds the tabs listed in TABS and launches Gradio with tight serving limits.

Tabs are modules exposing `TAB = TabSpec(...)`; adding a tab is one line in TABS.
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any

from mathreel.webapp.context import AppContext, DatasetCache, TabSpec
from mathreel.webapp.settings import Settings
from mathreel.webapp.visitor import STORAGE_KEY, VisitorStore, browser_secret, restorer, set_proxy_hops

if TYPE_CHECKING:
    import gradio as gr

# Tab modules in display order; each exposes `TAB: TabSpec`. Browse comes first: later tabs link into it.
TABS: list[str] = ["mathreel.webapp.browse", "mathreel.webapp.score", "mathreel.webapp.ask", "mathreel.webapp.judge"]

CSS = """
#mathreel-title h1 { margin-bottom: 0; }
.frame-gallery .caption-label { white-space: pre-line !important; font-size: 0.8rem; line-height: 1.25;
                               text-align: left; left: 4px; right: 4px; max-width: none; }
#browse-options p, #browse-steps li { font-size: 1rem; }
.error-box { border: 1px solid var(--error-border-color, #ef4444); border-radius: 8px; padding: 0.5rem 1rem;
             background: var(--error-background-fill, #fef2f2); }
/* Reading flow: responses wrap; the answer read is marked; runs side by side. */
.response-panel, .response-panel .prose { overflow-wrap: anywhere; }
.response-panel pre, .response-raw { white-space: pre-wrap !important; overflow-wrap: anywhere; font-size: 0.9rem; }
mark.answer-read { background: #fde68a; color: inherit; padding: 0 2px; border-radius: 3px; }
.compare-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 12px; }
.compare-col { border: 1px solid var(--border-color-primary, #e5e7eb); border-radius: 8px; padding: 8px 12px;
               min-width: 0; }
#browse-position { font-size: 1.05rem; }
/* Table headers and cells break between words, never inside one. */
table th, table th *, table td, table td * { word-break: keep-all !important; overflow-wrap: normal !important;
                                             hyphens: none; }
.resizable-table .table-wrap, .resizable-table > div { resize: vertical; overflow: auto; }
/* Narrow screens: rows stack, the gallery keeps two columns, tables scroll sideways. */
@media (max-width: 640px) {
  .stack-narrow { flex-direction: column !important; }
  .stack-narrow > * { min-width: 100% !important; }
  .frame-gallery .grid-container { grid-template-columns: repeat(2, minmax(0, 1fr)) !important; }
  .frame-gallery .caption-label { font-size: 0.7rem; }
  .table-wrap, .table-wrap .virtual-table-viewport { overflow-x: auto !important; }
}
"""

# Keyboard: j / k walk to the next / previous answer, y confirms a reading being checked (not while typing);
# Enter in the frame-count box applies it.
HEAD = """<script>
document.addEventListener('keydown', (e) => {
  const t = e.target; const typing = t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));
  if (typing) {
    if (e.key === 'Enter' && t.closest && t.closest('#browse-frames-n')) { t.blur(); }
    return;
  }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const keys = {j: 'browse-next', k: 'browse-prev', y: 'browse-audit-confirm'};
  const id = keys[e.key] || null;
  const button = id && document.getElementById(id);
  if (button && button.offsetParent !== null) { e.preventDefault(); button.click(); }
});
// A shared link: the address carries Browse's benchmark, question, run and list (the server writes them into
// #browse-link). The browser keeps the last one, the reading position the app opens on when the address has none.
setInterval(() => {
  const box = document.querySelector('#browse-link textarea, #browse-link input');
  const query = box && box.value;
  if (query && window.location.search !== '?' + query) {
    window.history.replaceState(null, '', '?' + query);
    try { localStorage.setItem('@POSITION_KEY@', JSON.stringify({query, at: Date.now()})); } catch (e) {}
  }
}, 250);
</script>"""


def tab_specs(modules: list[str] | None = None) -> list[TabSpec]:
    """The TabSpec of each tab module, in order."""
    return [importlib.import_module(name).TAB for name in (modules or TABS)]


def build_app(settings: Settings, tabs: list[TabSpec] | None = None) -> gr.Blocks:
    """The whole app as one Blocks. Holds no user data: each tab keeps it in gr.State."""
    import gradio as gr

    specs = tabs if tabs is not None else tab_specs()
    set_proxy_hops(settings.proxy_hops)  # whose share a costly job takes: the client's address (webapp.visitor)
    with gr.Blocks(
        title="MathReel",
        analytics_enabled=False,
        delete_cache=(settings.cache_seconds, settings.cache_seconds),
    ) as app:
        gr.Markdown(
            "# MathReel\nBrowse VideoMathQA, Video-MME and MathVerse the way the model sees them, "
            "and score prediction files with confidence intervals.",
            elem_id="mathreel-title",
        )
        runs = gr.State([])  # the user's scored runs: Score writes them, Browse and Judge read them
        store = VisitorStore.of(settings)
        visitor = gr.BrowserState(None, storage_key=STORAGE_KEY, secret=browser_secret(store))
        # First on every load: the visitor's token (a new one on a first visit) and their kept runs, scored again;
        # every tab's own load work follows it, so a shared link finds its run loaded.
        restored = app.load(
            restorer(store, settings),
            visitor,
            [visitor, runs],
            show_progress="hidden",
            concurrency_id="visitor",
            concurrency_limit=settings.score_events,
        )

        def after_restore(fn: Any, inputs: Any, outputs: Any, **options: Any) -> Any:
            return restored.then(fn, inputs, outputs, **options)

        tab_items: dict[str, Any] = {}
        with gr.Tabs(elem_id="mathreel-tabs") as tab_container:
            context = AppContext(
                settings=settings,
                datasets=DatasetCache(settings),
                tabs=tab_container,
                runs=runs,
                app_load=after_restore,
                tab_items=tab_items,
                visitor=visitor,
                store=store,
            )
            for spec in specs:
                with gr.Tab(spec.label, id=spec.id, elem_id=f"tab-{spec.id}") as tab:
                    tab_items[spec.id] = tab
                    spec.build(context)
    app.queue(max_size=settings.queue_size, default_concurrency_limit=settings.browse_concurrency)
    return app


def served_paths(settings: Settings) -> list[str]:
    """The only directories the server may serve files from: the dataset, the frame cache, unpacked diagrams."""
    from mathreel.core.data import cache_base
    from mathreel.core.media.frames import frames_dir

    paths = [settings.data_root(), frames_dir(), cache_base() / "images"]
    for path in paths[1:]:
        path.mkdir(parents=True, exist_ok=True)
    return [str(p.resolve()) for p in paths]


class ImmutableFrames:
    """ASGI middleware: lets browsers keep sampled-frame JPEGs instead of asking for them again on every switch.

    Gradio serves files without a Cache-Control header, so Chromium re-requests a frame a few seconds after it
    first fetched it. A frame-cache file never changes at its path (the path holds the video's identity, N and
    size), so `immutable` is true for those files, and only for them.
    """

    HEADER = (b"cache-control", b"private, max-age=86400, immutable")

    def __init__(self, app: Any, frame_root: str) -> None:
        self.app = app
        self.prefix = "/file=" + frame_root.rstrip("/") + "/"

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or self.prefix not in scope.get("path", "") or ".." in scope["path"]:
            await self.app(scope, receive, send)
            return

        async def send_cacheable(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start" and message["status"] == 200:
                message = {**message, "headers": [*message.get("headers", []), self.HEADER]}
            await send(message)

        await self.app(scope, receive, send_cacheable)


def review_keys() -> str:
    """The review panel's keyboard shortcuts (a script in the page head)."""
    from mathreel.webapp.review_box import KEYS_JS

    return KEYS_JS


def page_head() -> str:
    """Scripts for the page head: keys, shared links and the reading position, review shortcuts, Plotly loaded in
    idle time."""
    from mathreel.webapp.browse_address import POSITION_KEY
    from mathreel.webapp.preload import plotly_preload

    return HEAD.replace("@POSITION_KEY@", POSITION_KEY) + review_keys() + plotly_preload()


def launch(settings: Settings, *, block: bool = True) -> gr.Blocks:
    """Start the server on settings.host:port. With block=False the call returns once it answers."""
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    # Gradio's queue rebuilds a pandas summary of its last 10,000 events after every event (for the API page,
    # which this app hides): 60 ms of server CPU per question switch early on, and more as the server ages.
    os.environ.setdefault("GRADIO_ANALYTICS_CACHE_FREQUENCY", "1000")
    import gradio as gr

    from mathreel.webapp.gradio_costs import schema_once_per_model
    from mathreel.webapp.isolate import warm_up
    from mathreel.webapp.startup import patient_probe

    schema_once_per_model()
    app = build_app(settings)
    warm_up()
    paths = served_paths(settings)
    # Served straight from disk instead of hashed and copied into Gradio's cache per request: an
    # hour-long video would otherwise be read in full on every question switch.
    gr.set_static_paths(paths)
    with patient_probe():
        _launch(app, settings, paths, block)
    return app


def _launch(app: gr.Blocks, settings: Settings, paths: list[str], block: bool) -> None:
    """Gradio's launch with MathReel's options (blocks while serving when `block`)."""
    import gradio as gr
    from starlette.middleware import Middleware

    app.launch(
        server_name=settings.host,
        server_port=settings.port,
        share=settings.share,
        allowed_paths=paths,
        max_file_size=settings.max_file_size,
        ssr_mode=False,
        show_error=False,
        footer_links=["settings"],
        run_history=False,
        enable_monitoring=False,
        prevent_thread_lock=not block,
        quiet=False,
        css=CSS,
        head=page_head(),
        theme=gr.themes.Default(),
        app_kwargs={"middleware": [Middleware(ImmutableFrames, frame_root=paths[1])]},
    )
