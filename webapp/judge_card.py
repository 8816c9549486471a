"""The judge's card of one judged question as HTML: the step card (score, matched steps, critique), the error
category chips with their rationales, the raw replies and the question header. The Judge tab and Browse's judge
box show the same card. Every string from a model or a file is escaped here, so a response or rationale can never
become markup.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mathreel.core.judge import Judgment

PRIMARY_COLOUR = "#b91c1c"
SECONDARY_COLOUR = "#92400e"


def esc(text: Any) -> str:
    """Any value as HTML-safe text (quotes included), so a response or rationale can never become markup."""
    return html.escape(str(text), quote=True)


def steps_html(steps: tuple[str, ...] | list[str], source: str) -> str:
    if not steps:
        return f"<p><em>No annotated steps available ({esc(source)}).</em></p>"
    items = "".join(f"<li>{esc(step)}</li>" for step in steps)
    return f"<ol class='judge-steps'>{items}</ol><p style='opacity:.7;font-size:.85em'>{esc(source)}</p>"


def _task_html(card: Any, task: str, absent: str, failed: str, render: Callable[[Judgment, dict], str]) -> str:
    """One task's panel: `absent` when the question has no judgment for the task, `failed` (a template filled
    with the escaped status and reason) when its judgment has no values, else what `render` makes of them."""
    judgment = card.by_task.get(task)
    if judgment is None:
        return absent
    values = card.values(task)
    if not values:
        return failed.format(status=esc(judgment.status), reason=esc(judgment.reason))
    return render(judgment, values)


def card_html(card: Any) -> str:
    """The step card: score, matched steps, final answer, critique; or why there is none."""
    return _task_html(
        card,
        "steps",
        "<p><em>No step evaluation for this question.</em></p>",
        "<p id='judge-step-status'><strong>Step evaluation {status}:</strong> {reason}</p>",
        _step_card,
    )


def _step_card(judgment: Judgment, values: dict) -> str:
    correct = "yes" if values.get("final_answer_correct") else "no"
    return (
        f"<div id='judge-card'><p style='font-size:1.6em;margin:0'><strong id='judge-score'>{esc(values['score'])}"
        f"</strong> / 10</p><p>Matched steps: <strong id='judge-matched'>{esc(values['matched_steps'])}</strong>"
        f" · final answer correct: <strong>{correct}</strong></p>"
        f"<p id='judge-critique'>{esc(values['critique'])}</p>"
        f"<p style='opacity:.7;font-size:.85em'>judge {esc(judgment.judge_model)} · {esc(judgment.prompt_version)}"
        f"{' · cached' if judgment.cached else ''}</p></div>"
    )


def chips_html(card: Any) -> str:
    """Error-category chips, each with its rationale; primary first."""
    return _task_html(
        card,
        "errors",
        "<p><em>No error analysis for this question.</em></p>",
        "<p><em>Error analysis {status}: {reason}</em></p>",
        _chip_list,
    )


def _chip_list(_judgment: Judgment, values: dict) -> str:
    entries = [("primary", values["primary"])] + [("secondary", e) for e in values.get("secondary", [])]
    parts = []
    for kind, entry in entries:
        colour = PRIMARY_COLOUR if kind == "primary" else SECONDARY_COLOUR
        parts.append(
            f"<div class='judge-chip-row' style='margin:.4em 0'>"
            f"<span class='judge-chip judge-chip-{kind}' style='display:inline-block;border-radius:999px;"
            f"padding:.15em .7em;color:white;background:{colour};font-size:.9em'>{esc(entry['category'])}</span> "
            f"<span style='opacity:.7;font-size:.8em'>{kind}</span>"
            f"<div class='judge-rationale' style='margin:.2em 0 0 .6em'>{esc(entry['rationale'])}</div></div>"
        )
    return "<div id='judge-chip-list'>" + "".join(parts) + "</div>"


def raw_text(card: Any) -> str:
    """Every task's judge model, prompt version, status, reason and raw reply, for disputes."""
    blocks = []
    for task, j in card.by_task.items():
        head = f"[{task}] {j.status} · judge {j.judge_model} · {j.prompt_version}"
        if j.reason:
            head += f"\nreason: {j.reason}"
        blocks.append(f"{head}\n{j.raw_reply if j.raw_reply is not None else '(no judge reply)'}")
    return "\n\n".join(blocks)


def question_header(card: Any, question: Any, run_name: str) -> str:
    """The run and the question with its options, the gold one marked ✓ and the model's pick (the judge's
    reading) marked."""
    qid = esc(card.question_id)
    run = f"<p class='judge-run-name'>Run: {esc(run_name)}</p>"
    if question is None:
        return (
            f"{run}<p><strong id='judge-qid'>{qid}</strong> <em>(its question is not shown: no result file "
            "holding this answer records a question of the server's dataset; load the result file in Score and "
            "open the answer in Browse to read it from the file)</em></p>"
        )
    pick = card.values("extract").get("answer")
    options = "".join(
        _option_item(letter, text, letter == question.answer, letter == pick)
        for letter, text in question.option_texts.items()
    )
    picked = f" · model's pick {esc(pick)}" if pick else " · model's pick: none read"
    return (
        f"{run}<p><strong id='judge-qid'>{qid}</strong> · gold {esc(question.answer)}{picked}</p>"
        f"<p>{esc(question.question)}</p><ul style='list-style:none;padding-left:.5em'>{options}</ul>"
    )


def _option_item(letter: str, text: str, gold: bool, picked: bool) -> str:
    marks = [m for m, on in (("correct answer", gold), ("model's pick", picked)) if on]
    label = f"{esc(letter)}. {esc(text)}"
    if not marks:
        return f"<li>{label}</li>"
    sign = "✓" if gold else "✗"
    return f"<li class='judge-marked'>{sign} <strong>{label}</strong> — {' · '.join(marks)}</li>"
