"""The Score tab's runs across visits: the demo runs one click away, and a visitor's kept runs (webapp.visitor) put
back in the upload box when the page loads, with the judgment and review files they were scored with back in the
judging boxes, so the tab shows them as it shows an upload: the box's change event scores (reusing the runs already
restored, with the same judgments) and draws every view.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from mathreel.webapp.benchmark_keys import benchmark_choices, split_key
from mathreel.webapp.downloads import Downloads
from mathreel.webapp.visitor import expiry_text, options_kept, valid_token

if TYPE_CHECKING:
    from mathreel.webapp.context import AppContext
    from mathreel.webapp.scored_runs import Run, ScoreOptions
    from mathreel.webapp.visitor import VisitorStore

DEMO_NOTE = (
    "**Demo runs:** synthetic result files of two made-up models (*synthetic-model-a*, the stronger, and "
    "*synthetic-model-b*) on the demo questions, written by the demo generator (`assets/generate_demo.py`) "
    "in each benchmark's own result format. No real model wrote them."
)


def demo_results() -> list[Path]:
    """The demo set's result files (two runs per benchmark), in the benchmark dropdown's order (its file names
    start with the benchmark and name the mode), so the first run shown is the first benchmark Browse shows."""
    from mathreel.core.data import demo_dir

    folder = demo_dir() / "results"
    files = sorted(p for p in folder.iterdir() if p.is_file()) if folder.is_dir() else []
    keys = [split_key(key) for _, key in benchmark_choices()]

    def place(path: Path) -> int:
        named = [i for i, (bench, mode) in enumerate(keys) if path.name.startswith(f"{bench}_")]
        return next((i for i in named if f"_{keys[i][1]}_" in path.name), named[0] if named else len(keys))

    return sorted(files, key=place)


def serves_demo(settings: Any) -> bool:
    """Whether this server shows the demo questions (the demo runs answer those, not a real dataset's)."""
    from mathreel.core.data import demo_dir

    return bool(demo_results()) and settings.data_root() == demo_dir().resolve()


class KeptRuns:
    """The handlers: keep the scored runs for the visitor, put kept runs back in the box, add the demo runs."""

    def __init__(self, store: VisitorStore | None, cache_seconds: int) -> None:
        self.store = store
        self.handed = Downloads(cache_seconds)  # copies the upload box may be given (Gradio serves only its own)

    def keep(
        self,
        token: Any,
        runs: list[Run],
        options: ScoreOptions,
        judgments: list[str] | None = None,
        reviews: list[str] | None = None,
    ) -> list[str]:
        """Keep `runs` (their files, as named), `options` and the judgment and review files they were scored with
        (the judging boxes' paths) for the visitor; the names over the bounds."""
        token = valid_token(token)
        if self.store is None or token is None:
            return []
        judging = {"judgments": _named(judgments), "reviews": _named(reviews)}
        files = [(run.path, run.name) for run in runs if run.path]
        return self.store.save(token, files, options_kept(options), judging)

    def kept_values(self, runs: list[Run] | None, token: Any = None) -> tuple:
        """On load: the upload box holding the restored runs' files and the options they were read with, and the
        judging boxes holding the judgment and review files kept with them, with what they hold read (the judging
        state the runs were scored with again, so the box's change event reuses them). Nothing changes when
        nothing is kept."""
        import gradio as gr

        token = valid_token(token)
        judging = self.store.load_judging(token) if self.store is not None and token else {}
        boxes = [self.handed.hand_over(judging.get(kind, [])) or None for kind in ("judgments", "reviews")]
        if runs and runs[0].options is not None:
            options = runs[0].options
            chosen = options_kept(options)
            files = self.handed.hand_over([(run.path, run.name) for run in runs])
            held = (options.judged, options.reviews)
            return files, chosen["key"], chosen["extractor"], chosen["denominator"], chosen["use_data"], *boxes, held
        if not any(boxes):
            return (gr.skip(),) * 8
        from mathreel.webapp.scored_runs import judge_inputs

        judged, reviews, _errors = judge_inputs(*boxes)  # a file that no longer reads is left out, as on upload
        return (*(gr.skip(),) * 5, *boxes, (judged, reviews))

    def with_demo(self, current: list[str] | None) -> list[str]:
        """The upload box's files and the demo runs not in it yet (by name)."""
        present = {Path(path).name for path in current or []}
        wanted = [(path, path.name) for path in demo_results() if path.name not in present]
        return [*(current or []), *self.handed.hand_over(wanted)]

    def demo_judging(self, judgments: list[str] | None, reviews: list[str] | None) -> tuple:
        """The judgment and review boxes with the demo set's judgments and reviews added (by name), and what they
        hold read (the Score tab's judging state), with the error box."""
        import gradio as gr

        from mathreel.webapp.errors import error_box
        from mathreel.webapp.scored_runs import judge_inputs

        judgments = self._added(judgments, demo_judging_files("judgments"))
        reviews = self._added(reviews, demo_judging_files("reviews"))
        judged, held, errors = judge_inputs(judgments, reviews)
        return judgments, reviews, (judged, held), gr.update(value=error_box(errors), visible=bool(errors))

    def _added(self, current: list[str] | None, files: list[Path]) -> list[str]:
        present = {Path(path).name for path in current or []}
        wanted = [(path, path.name) for path in files if path.name not in present]
        return [*(current or []), *self.handed.hand_over(wanted)]


def _named(paths: list[str] | None) -> list[tuple[str, str]]:
    """Upload-box paths as (path, the name the file was uploaded as)."""
    return [(str(path), Path(path).name) for path in paths or []]


def demo_judging_files(kind: str) -> list[Path]:
    """The demo set's synthetic judgment files (`kind` "judgments") or review files ("reviews")."""
    from mathreel.core.data import demo_dir

    folder = demo_dir() / kind
    return sorted(folder.glob("*.jsonl")) if folder.is_dir() else []


def demo_layout(settings: Any) -> Any:
    """The demo-runs button and what the runs are (None when this server does not show the demo questions)."""
    import gradio as gr

    if not serves_demo(settings):
        return None
    with gr.Row(elem_classes=["stack-narrow"]):
        button = gr.Button("Load the demo runs", size="sm", elem_id="score-demo", scale=0, min_width=180)
        gr.Markdown(DEMO_NOTE, elem_id="score-demo-note")
    return button


def demo_judging_button(settings: Any) -> Any:
    """The button adding the demo set's judgments and reviews (None when this server does not show the demo)."""
    import gradio as gr

    if not serves_demo(settings) or not demo_judging_files("judgments"):
        return None
    return gr.Button(
        "Add the demo judgments and reviews", size="sm", elem_id="score-demo-judging", scale=0, min_width=180
    )


def kept_note(context: AppContext) -> None:
    """The line saying how long, and for whom, the runs are kept."""
    import gradio as gr

    if context.store is not None:
        gr.Markdown(f"_{expiry_text(context.store)}_", elem_id="score-kept")


def wire(context: AppContext, ui: Any, kept: KeptRuns, group: dict[str, Any]) -> None:
    """On load, the kept runs back in the box; the demo button adds the demo runs to it. Either way the box's
    change event scores and draws as for an upload."""
    options = [ui.bench, ui.extractor, ui.denominator, ui.join]
    judging = [ui.judge_files, ui.review_files, ui.judging]
    if context.app_load is not None:
        context.app_load(
            kept.kept_values, [ui.runs, ui.visitor], [ui.upload, *options, *judging], show_progress="hidden", **group
        )
    if ui.demo is not None:
        ui.demo.click(kept.with_demo, ui.upload, ui.upload, **group)
