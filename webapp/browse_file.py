"""Browse tab: an answer read from its file alone, and the prompt shown as the run had it.

A walked answer whose question is not the server's (`webapp.shown_answer`: the join rule) is drawn from what its
file recorded (`core.answer_view.AnswerView`): question, options with gold and pick, the recorded prompt, the
dimensions; no frames or video, and a note that says so. Every answer, on the server or not, shows the prompt its
file recorded, marked as recorded, when the prompt choice is "as the file recorded it"; otherwise the prompt
MathReel builds in the chosen style.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mathreel.webapp.html import plain
from mathreel.webapp.shown_answer import RECORDED

if TYPE_CHECKING:
    import pandas as pd

    from mathreel.core.answer_view import AnswerView
    from mathreel.core.data import Dataset
    from mathreel.core.question import Question
    from mathreel.core.view import ViewSettings

FILE_MARK = "read from the file"  # in the header of an answer read on its own
NO_TEXT = "the file records no question text"  # how core.answer_view's note on a missing question text begins


def _marks_line(letter: str, text: str, gold: bool, picked: bool) -> str:
    marks = [m for m, on in (("correct answer", gold), ("model's pick", picked)) if on]
    label = f"{plain(letter)}. {plain(text)}"
    if not marks:
        return f"- {label}"
    return f"- {'✓' if gold else '✗'} **{label}** — {' · '.join(marks)}"


def file_header(answer: AnswerView) -> str:
    """The question as the file recorded it, gold and pick marked, under a note saying it is read from the file
    and why (the join's reason, and what the server cannot show)."""
    from mathreel.core.benchmarks import get_benchmark

    title = get_benchmark(answer.benchmark).title
    # The note on the question's text is said once, where the text would be.
    notes = " · ".join(plain(n) for n in answer.notes if not (n.startswith(NO_TEXT) and not answer.question))
    lines = [
        f"### {title} · {plain(answer.question_id)} · {FILE_MARK}",
        "",
        f"<div class='file-note' id='browse-file-note'>⚠ {notes}</div>",
        "",
    ]
    lines.append(plain(answer.question) if answer.question else f"_{_no_text(answer)}._")
    lines.append("")
    if answer.options:
        source = " (options read from the recorded prompt)" if answer.options_source == "prompt" else ""
        lines.extend(_marks_line(o.letter, o.text, o.gold, o.picked) for o in answer.options)
        if source:
            lines.append(f"\n_{source.strip(' ()')}_")
    else:
        lines.append(f"**Answer (gold in the file):** {plain(answer.gold) or '—'}")
        lines.append(f"\n**Model's answer:** {plain(answer.extracted) if answer.extracted else 'none read'}")
    return "\n".join(lines)


def _no_text(answer: AnswerView) -> str:
    """The sentence standing where the question's text would be: where to read it instead, if anywhere."""
    text = "The file records no question text"
    return f"{text}: it is in the recorded prompt below" if answer.prompts else text


def join_line(answer: AnswerView | None) -> str:
    """The line under a server question saying why the walked answer is shown with it (empty without one)."""
    if answer is None or not answer.on_server:
        return ""
    return f"\n\n<small id='browse-join-note'>{plain(answer.join.note)}</small>"


def file_metadata(answer: AnswerView) -> str:
    """The answer's dimensions as its file records them, and where each part shown came from."""
    from mathreel.core.benchmarks import get_benchmark

    bench = get_benchmark(answer.benchmark)
    rows = []
    for key, value in answer.dims.items():
        try:
            label = bench.dimension(key).label
        except Exception:  # a dimension the file has and the benchmark does not declare
            label = key
        rows.append((label, value))
    # Where each part came from; the notes are in the header above, said once.
    rows.append(("Question", "the file" if answer.question_source else "not recorded"))
    free = not answer.options and answer.own_question is not None and answer.own_question.answer_kind == "free"
    options = {"file": "the file", "prompt": "read from the recorded prompt"}.get(answer.options_source)
    rows.append(("Options", options or ("none: a free-form question" if free else "not recorded")))
    body = "\n".join(f"| {plain(label)} | {plain(value)} |" for label, value in rows)
    return "| Field | Value |\n|---|---|\n" + body


def file_steps() -> str:
    return "#### Annotated steps\n_None: the question is read from the file, and files do not record steps._"


def file_question(answer: AnswerView) -> Question | None:
    """The file's own question, to build a prompt from when the file recorded none (None without its text)."""
    own = answer.own_question
    return own if own is not None and answer.question else None


def shown_prompt(
    answer: AnswerView | None, built: str, choice: str, view: ViewSettings, question: Question | None
) -> tuple[str, str]:
    """The prompt box and the line above it: the prompt the file recorded, marked as recorded, when the choice is
    "as the file recorded it" and the file recorded one; else `built` (MathReel's prompt in the chosen style, ""
    when there is none to build)."""
    recorded = answer.prompts if answer is not None else ()
    if choice == RECORDED and recorded:
        text = "\n\n".join(p.text if len(recorded) == 1 else f"[{p.field}]\n{p.text}" for p in recorded)
        fields = ", ".join(f"`{p.field.replace('`', '')}`" for p in recorded)
        note = f"**Prompt recorded in the file** ({fields}), as the run sent it."
        return text, note + _reproduced(recorded[0].text, question)
    how = (
        f"style {plain(view.style)}"
        + (", chain of thought" if view.cot else "")
        + (", subtitles" if view.with_subtitles else "")
    )
    if answer is None:
        return built, f"_Prompt built by MathReel ({how})._" if built else ""
    if not built:
        return "", "_The file records no prompt and no question text, so no prompt can be shown._"
    source = "the server's question" if answer.on_server else "the file's question"
    extra = (
        " The file recorded its own prompt: choose “as the file recorded it” to see it."
        if recorded
        else " The file recorded no prompt."
        if choice == RECORDED
        else ""
    )
    if not answer.on_server:
        extra += " Built without frames or subtitles: they are not on this server."
    return built, f"_Prompt built by MathReel from {source} ({how}), not recorded in the file._{extra}"


def _reproduced(text: str, question: Question | None) -> str:
    """Which MathReel style reproduces the recorded prompt, when one does."""
    if question is None:
        return ""
    from mathreel.core.prompt_styles import styles_reproducing

    try:
        found = styles_reproducing(text, question)
    except Exception:  # a question the benchmark cannot prompt: nothing to compare
        return ""
    if not found:
        return " No MathReel prompt style reproduces it exactly."
    named = ", ".join(f"{m.style}{' with chain of thought' if m.cot else ''}" for m in found)
    return f" MathReel's style {named} reproduces it."


def file_prompt(answer: AnswerView, view: ViewSettings) -> str:
    """MathReel's prompt for the file's own question in the chosen style ("" without its text, or when the
    benchmark cannot build one from it)."""
    from mathreel.core.benchmarks import get_benchmark

    question = file_question(answer)
    if question is None:
        return ""
    try:
        return get_benchmark(answer.benchmark).build_prompt(question, cot=view.cot, style=view.style)
    except Exception:  # the file's question lacks what this style needs
        return ""


RUN_TABLE_PREVIEW = 110  # characters of a question or response shown in a run's table
NOT_RECORDED = "(question text not recorded in the file)"
IN_PROMPT = "(question text only in the recorded prompt: open the row)"


def _preview(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= RUN_TABLE_PREVIEW else text[: RUN_TABLE_PREVIEW - 1] + "…"


def run_table(run: Any, dataset: Dataset | None, text: str = "", filters: dict[str, str] | None = None) -> pd.DataFrame:
    """The questions of the walked run, one row per answer (its status, reading, gold, dimensions): with a run
    followed the question table lists that run's questions, not the server's, so a user sees which are theirs.
    The question text is the file's, else the server's question the answer joined, else a note; `text` searches
    ids, question and response, `filters` match dimension keys ("" or "All" matches every value)."""
    import pandas as pd

    report = run.report
    bench_dims = list(report.by)
    wanted = {k: v for k, v in (filters or {}).items() if v and v != "All"}
    needle = (text or "").strip().lower()
    rows = []
    for row in report.rows:
        if any(row.dims.get(k, "") != v for k, v in wanted.items()):
            continue
        question = _row_question(row, dataset)
        if needle and not any(needle in s.lower() for s in (row.question_id, question, row.response)):
            continue
        record = {
            "ID": row.question_id,
            "Question": _preview(question) if question else question_from_prompt(row),
            "Status": row.status,
            "Extracted": row.extracted or "—",
            "Gold": row.gold,
        }
        record.update({_label(report.benchmark, d): row.dims.get(d, "") for d in bench_dims})
        record["Response"] = _preview(row.response)
        rows.append(record)
    columns = ["ID", "Question", "Status", "Extracted", "Gold", *(_label(report.benchmark, d) for d in bench_dims)]
    return pd.DataFrame(rows, columns=[*columns, "Response"])


def question_from_prompt(row: Any) -> str:
    """For a file that records no question text: the prompt's line before its options (where a harness writes the
    question, as an lmms-eval 0.4 log does), marked as read from the prompt; else a note."""
    prompts = row.recorded.prompts if row.recorded is not None else ()
    if not prompts:
        return NOT_RECORDED
    line = line_before_options(prompts[0].text)
    return f"{PROMPT_MARK}{_preview(line)}" if line else IN_PROMPT


PROMPT_MARK = "(from the prompt) "


def line_before_options(text: str) -> str:
    """The last non-empty line before the options a prompt lists ("" when it lists none, or nothing precedes)."""
    from mathreel.core.results.recorded import options_in_prompt

    options = options_in_prompt(text)
    if not options:
        return ""
    lines = [line.strip() for line in text.splitlines()]
    for at in range(len(lines) - len(options), -1, -1):  # the options' run, found from the end as they are
        if tuple(lines[at : at + len(options)]) == options:
            return next((line for line in reversed(lines[:at]) if line), "")
    return ""


def _row_question(row: Any, dataset: Dataset | None) -> str:
    recorded = row.recorded
    if recorded is not None and recorded.question.question:
        return str(recorded.question.question)
    if dataset is not None and (recorded is None or recorded.join != "file"):
        try:
            return str(dataset.question(row.question_id).question or "")
        except Exception:  # an id the server does not have
            return ""
    return ""


def _label(benchmark: str, key: str) -> str:
    from mathreel.core.benchmarks import get_benchmark

    return get_benchmark(benchmark).dimension(key).label
