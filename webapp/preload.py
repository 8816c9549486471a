"""Load Plotly's code while the reader looks at the first question, not when the first chart is due.

Gradio's Plot component imports a 4.6 MB chunk (PlotlyPlot-<hash>.js) the first time a chart renders. Measured in
Chromium on 2 cores, fetching and evaluating it took 1.2-1.4 s, which was most of the Judge tab's first open (1.5 s;
0.55 s with the chunk already loaded) and of the first chart after an upload. A `modulepreload` hint did not help:
evaluating the module is the cost. So the page imports the same module URL (the browser keeps one instance per URL)
once the first frames are shown and the main thread is idle.
"""

from __future__ import annotations

from pathlib import Path

# After the first view (Browse's frames) and an idle moment; after 8 s at the latest, when there is no Browse.
# Gradio adds head scripts after the page has loaded, so this starts at once rather than on the load event.
_SCRIPT = """<script>
(() => {
  const load = () => import(new URL('assets/%s', document.baseURI).href).catch(() => {});
  const idle = () => ('requestIdleCallback' in window ? requestIdleCallback(load, {timeout: 2000}) : setTimeout(load));
  const started = performance.now();
  const wait = () => (document.querySelector('#browse-frames img') || performance.now() - started > 8000)
    ? idle() : setTimeout(wait, 200);
  wait();
})();
</script>"""


def plotly_chunk() -> str | None:
    """The file name of the Plotly chunk in the installed Gradio's frontend, None when there is none."""
    import gradio

    assets = Path(gradio.__file__).parent / "templates" / "frontend" / "assets"
    found = sorted(assets.glob("PlotlyPlot-*.js"))
    return found[0].name if len(found) == 1 else None


def plotly_preload() -> str:
    """The page-head script importing the Plotly chunk in idle time ("" when this Gradio has no such chunk)."""
    chunk = plotly_chunk()
    return _SCRIPT % chunk if chunk else ""
