"""The Score tab's evidence bundle: the session's runs as `mathreel bundle` writes them (one folder per benchmark and
mode), zipped for download. Built in a queue of its own, one at a time, in a child process with a budget
(webapp.isolate), so it never holds up scoring or browsing, nor the server's threads; the runs are read again from
their uploads (a bundle needs each file as read, for the reference table), with the options they were scored
with."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mathreel.webapp.downloads import Downloads
    from mathreel.webapp.scored_runs import Run
    from mathreel.webapp.server_paths import ServerPaths

ZIP_NAME = "mathreel-evidence.zip"


def place(ui: Any) -> None:
    """The button, its status line (where the progress bar shows) and the zip it makes."""
    import gradio as gr

    with gr.Row():
        ui.bundle_button = gr.Button("Make the evidence bundle of these runs (zip)", elem_id="score-bundle")
        ui.bundle_file = gr.File(label="Evidence bundle", visible=False, elem_id="score-bundle-file")
    ui.bundle_status = gr.Markdown(elem_id="score-bundle-status")


def wire(ui: Any, settings: Any, downloads: Downloads, server: ServerPaths) -> None:
    import gradio as gr

    track = gr.Progress()  # Gradio sees a Progress default and feeds the page's progress bar through it

    def make(runs: list[Run] | None, progress: gr.Progress = track) -> tuple[Any, str]:
        try:
            path, note = build_zip(runs or [], settings, downloads, _reporter(progress))
        except Exception as error:  # one line in the page's words (no server path), never a traceback
            from mathreel.webapp.errors import error_message

            return gr.update(visible=False), f"**The bundle could not be made:** {error_message(error, {}, server)}"
        return gr.update(value=str(path), visible=True), note

    ui.bundle_button.click(
        make,
        [ui.runs],
        [ui.bundle_file, ui.bundle_status],
        concurrency_id="bundle",
        concurrency_limit=1,
        show_progress_on=[ui.bundle_status],
    )


def _reporter(progress: Any) -> Any:
    if progress is None:
        return None
    return lambda done, total: progress(done / max(total, 1), desc=f"bundles {done} of {total}")


def build_zip(runs: list[Run], settings: Any, downloads: Downloads, progress: Any = None) -> tuple[Path, str]:
    """The zip of one bundle per benchmark and mode among `runs`, and a line saying what it holds. Built in a child
    process within the server's bundle budget (`bundle_budget`): reading, scoring and rendering every run again
    is seconds to minutes of CPU that must not run in a server thread; past the budget, one line says which limit
    stopped it."""
    from mathreel.core.bundle import BundleRequest
    from mathreel.core.bundle.zipped import zip_bundles
    from mathreel.core.errors import InputError
    from mathreel.webapp.isolate import run_isolated

    if not runs:
        raise InputError("Score", "no runs to bundle: score a result file first (or load the demo runs)")
    folder = downloads.fresh()
    groups: dict[str, list[Run]] = {}
    for run in runs:
        groups.setdefault(run.key, []).append(run)
    requests = []
    for key, members in groups.items():
        options = members[0].options
        request = BundleRequest(
            tuple(run.path for run in members),
            benchmark=key.split(":")[0],
            mode=key.split(":")[1],
            extractor=options.extractor if options else "robust",
            denominator=(options.denominator or None) if options else None,
            annotations=options.annotations if options else None,
            data=str(settings.data_root()),
            names=tuple(run.name for run in members),
        )
        requests.append((key, request))
    if progress is not None:
        progress(0, len(requests))
    target, made = run_isolated(zip_bundles, (requests, str(folder), ZIP_NAME), bundle_budget(settings), "the bundle")
    if progress is not None:
        progress(len(requests), len(requests))
    size = Path(target).stat().st_size / 1e6
    return Path(target), (
        f"The bundle ({size:.1f} MB): " + "; ".join(made) + ". Unzip it and open each folder's "
        "index.html; it works offline."
    )


def bundle_budget(settings: Any) -> Any:
    """What one bundle may take in its child: the server's bundle time (MATHREEL_BUNDLE_SECONDS) and its memory
    per scored file."""
    from mathreel.webapp.isolate import Budget

    return Budget(
        seconds=settings.bundle_seconds,
        memory_mb=settings.score_memory_mb,
        what="building the bundle",
        settings=("MATHREEL_BUNDLE_SECONDS", "MATHREEL_SCORE_MEMORY_MB"),
        per="bundle",
        elsewhere="`mathreel bundle`",
    )
