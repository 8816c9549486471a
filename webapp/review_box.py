"""The review box: the fields and buttons a person reviews the judge with (accept, change, flag, walk on, download
and upload the review file), filled from the judge's view of the shown answer. The Judge tab's review panel and
Browse's judge box place the same box, with element ids of their own, and share the session's reviews
(`webapp.review_state`); the keys a, s and n press whichever box is shown.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from mathreel.core.plural import counted
from mathreel.webapp.context import AppContext, with_request
from mathreel.webapp.errors import error_message, error_outputs
from mathreel.webapp.html import toast
from mathreel.webapp.judged_runs import error_categories
from mathreel.webapp.review_state import own_review, progress_text, review_session, session_file, session_id, uploaded

if TYPE_CHECKING:
    from mathreel.core.review import Review
    from mathreel.core.review.join import JudgeView

NO_FLAG = ""
SHORTCUTS = (
    "**Keyboard** (outside text boxes): **a** accept the judge's verdict and go to the next unreviewed "
    "question · **s** save your changes and go on · **n** next unreviewed question without saving."
)
# Keys to buttons; ignored while typing in a field, and with Ctrl/Alt/Meta held.
KEYS_JS = """<script>
document.addEventListener('keydown', (event) => {
  const keys = {a: 'accept', s: 'save', n: 'next'};
  const target = event.target;
  if (event.ctrlKey || event.altKey || event.metaKey || !(event.key in keys)) return;
  if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
  for (const prefix of ['review', 'browse-review']) {  // the Judge tab's panel, Browse's: whichever is shown
    const element = document.getElementById(prefix + '-' + keys[event.key]);
    const button = element && (element.tagName === 'BUTTON' ? element : element.querySelector('button'));
    if (button && button.offsetParent !== null) { event.preventDefault(); button.click(); return; }
  }
});
</script>"""


class ReviewControls(SimpleNamespace):
    """The review box's components by name (`controls` places them)."""


def controls(prefix: str = "review") -> ReviewControls:
    """The review box's fields and buttons, with element ids `<prefix>-...` (the keys a/s/n find either tab's)."""
    import gradio as gr

    from mathreel.core.review.model import FLAGS

    c = ReviewControls()
    gr.Markdown(
        SHORTCUTS + " Reviews are kept in this browser session only: download the file to keep them.",
        elem_id=f"{prefix}-help",
    )
    with gr.Row(elem_classes=["stack-narrow"]):
        c.reviewer = gr.Textbox("reviewer", label="Reviewer name", elem_id=f"{prefix}-reviewer", scale=1)
        c.progress = gr.Markdown(elem_id=f"{prefix}-progress")
    c.status = gr.Markdown(elem_id=f"{prefix}-status")
    c.error = gr.Markdown("", visible=False, elem_id=f"{prefix}-error", elem_classes=["error-box"])
    with gr.Row(elem_classes=["stack-narrow"]):
        c.primary = gr.Dropdown([], label="Primary error category", elem_id=f"{prefix}-primary")
        c.secondary = gr.Dropdown([], multiselect=True, label="Secondary categories", elem_id=f"{prefix}-secondary")
        c.note = gr.Textbox(label="Note", elem_id=f"{prefix}-note")
    with gr.Row(elem_classes=["stack-narrow"]):
        c.score = gr.Number(label="Step score (0-10)", minimum=0, maximum=10, precision=0, elem_id=f"{prefix}-score")
        c.matched = gr.Number(label="Matched steps", minimum=0, precision=0, elem_id=f"{prefix}-matched")
        c.flag = gr.Dropdown(
            [("Not flagged", NO_FLAG), *[(label, key) for key, label in FLAGS.items()]],
            value=NO_FLAG,
            label="Flag the question",
            elem_id=f"{prefix}-flag",
        )
        c.reason = gr.Textbox(label="Why it is flagged", elem_id=f"{prefix}-flag-reason")
    with gr.Row(elem_classes=["stack-narrow"]):
        c.accept = gr.Button("Accept the judge's verdict (a)", variant="primary", elem_id=f"{prefix}-accept")
        c.save = gr.Button("Save my changes (s)", elem_id=f"{prefix}-save")
        c.walk = gr.Button("Next unreviewed (n)", elem_id=f"{prefix}-next")
    with gr.Row(elem_classes=["stack-narrow"]):
        c.download = gr.DownloadButton("Download my reviews (JSONL)", value=None, elem_id=f"{prefix}-download")
        c.upload = gr.File(
            label="Upload a review file to continue", file_types=[".jsonl"], height=100, elem_id=f"{prefix}-upload"
        )
    c.fill_outputs = [
        c.status,
        c.primary,
        c.secondary,
        c.note,
        c.score,
        c.matched,
        c.flag,
        c.reason,
        c.progress,
        c.reviewer,
    ]
    c.edits = [c.primary, c.secondary, c.note, c.score, c.matched, c.flag, c.reason]
    return c


def panel_values(run: Any, view: JudgeView | None, views: dict[str, JudgeView], held: list[Review], name: str) -> tuple:
    """Values for ReviewControls.fill_outputs: the judge's verdicts, or this reviewer's review of them."""
    import gradio as gr

    if view is None:
        return (
            "",
            gr.update(choices=[], value=None),
            gr.update(choices=[], value=[]),
            "",
            None,
            None,
            NO_FLAG,
            "",
            progress_text(views, held, name),
            name,
        )
    mine = own_review(held, view, name)
    base = mine or view
    cats = list(error_categories(run.benchmark))
    judge = (
        f"Judge: primary **{view.primary or '(no error analysis)'}**, step score "
        f"**{'—' if view.step_score is None else view.step_score}**. "
    )
    yours = (
        f"Your review: categories {mine.category_verdict or 'not reviewed'}, step score "
        f"{mine.steps_verdict or 'not reviewed'}."
        if mine
        else "Not reviewed by you yet."
    )
    return (
        judge + yours,
        gr.update(choices=cats, value=base.primary, interactive=bool(view.primary)),
        gr.update(choices=cats, value=list(base.secondary), interactive=bool(view.primary)),
        mine.note if mine else "",
        base.step_score,
        base.matched,
        (mine.flag or NO_FLAG) if mine else NO_FLAG,
        mine.flag_reason if mine else "",
        progress_text(views, held, name),
        name,
    )


def wire_files(context: AppContext, c: ReviewControls, group: dict) -> Any:
    """Upload (merged into the session's reviews, the box emptied for the next file), and the reviewer name kept in
    the shared state. Returns the upload event, for what follows it."""
    import gradio as gr

    session = review_session(context)

    @with_request
    def take_upload(held: list, path: str | None, request: Any = None) -> tuple:
        if not path:
            return gr.skip(), gr.skip(), gr.skip(), gr.skip()
        try:
            updated = uploaded(path, held)
        except Exception as failure:  # a bad file is one line; the session's reviews stay as they were
            return (*error_outputs(error_message(failure), 3), None)
        gr.Info(toast(f"{Path(path).name} merged: {counted(len(updated), 'review')} in this session."))
        return gr.update(visible=False), updated, session_file(updated, session_id(request)), None

    event = c.upload.upload(
        take_upload, [session.reviews, c.upload], [c.error, session.reviews, c.download, c.upload], **group
    )
    c.reviewer.blur(lambda name: (name or "").strip() or "reviewer", c.reviewer, session.reviewer, **group)
    return event
