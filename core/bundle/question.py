"""One question's page: the question (the dataset's, or as its file records it), what the model got under each
run's settings (frames with index, time and subtitle lines; the prompt), and every run's answer: the response with
the answer marked where it was read and why, the judge's card and people's reviews."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mathreel.core.bundle.html import MATH_NOTE, esc, page, query, status_mark

GOLD = " <span class='goldmark'>✓ gold</span>"

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.answer_view import AnswerView
    from mathreel.core.bundle.media import Shown
    from mathreel.core.bundle.pages import Answer, Page
    from mathreel.core.judge.views import QuestionJudgments
    from mathreel.core.review.model import Review


def question_page(
    item: Page, key: str, shown: list[Shown], reviews: list[Review], prev: Page | None, nxt: Page | None, position: str
) -> str:
    """The page of `item` (`key`: the app's benchmark key, "videomathqa:mcq")."""
    head = item.head
    title = f"{item.ref} · {key}"
    nav = _nav(prev, nxt, position)
    parts = [
        nav,
        f"<h1>Question <code>{esc(item.ref)}</code> <small>{esc(key)}</small></h1>",
        f"<p class='deeplink'>Link to this question in the app: "
        f"<code>?{esc(query({'benchmark': key, 'q': item.ref}))}</code> "
        "(add <code>&amp;run=</code>the run's file name to open its answer)</p>",
    ]
    if head is not None:
        parts.append(_question(head))
    else:
        parts.append("<p class='note'>No run answers this question.</p>")
    parts += [_shown(s) for s in shown]
    if not shown:
        parts.append(
            "<section class='model-input'><h2>What the model got</h2><p class='note'>The question is shown "
            "as the result file records it: its video and frames are not on the machine that wrote this "
            "bundle, or the file's question is not that machine's question of this id.</p></section>"
        )
    parts.append("<h2>Answers</h2>")
    parts += [_answer(answer, reviews) for answer in item.answers]
    parts.append(f"<p class='note'>{esc(MATH_NOTE)}</p>{nav}")
    return page(title, "".join(parts), depth=1, kind="question")


def _nav(prev: Page | None, nxt: Page | None, position: str) -> str:
    back = f"<a class='prev' href='../{esc(prev.file)}'>← previous</a>" if prev else "<span class='prev'></span>"
    fwd = f"<a class='next' href='../{esc(nxt.file)}'>next →</a>" if nxt else "<span class='next'></span>"
    return (
        f"<nav class='walk'><a class='home' href='../index.html'>all runs</a> {back} "
        f"<span class='position'>{esc(position)}</span> {fwd}</nav>"
    )


def _question(view: AnswerView) -> str:
    where = {"server": "the dataset", "file": "the result file", "prompt": "the prompt recorded in the file"}
    dims = "".join(f"<span class='chip'>{esc(k)}: {esc(v)}</span>" for k, v in view.dims.items())
    options = "".join(
        f"<li class='option{' gold' if o.gold else ''}'><b>{esc(o.letter)}.</b> {esc(o.text)}"
        f"{GOLD if o.gold else ''}</li>"
        for o in view.options
    )
    notes = "".join(f"<li>{esc(note)}</li>" for note in view.notes)
    return (
        f"<section class='question'><div class='dims'>{dims}</div>"
        f"<pre class='text'>{esc(view.question or '(no question text recorded)')}</pre>"
        + (f"<ol class='options'>{options}</ol>" if options else "")
        + f"<p class='source'>{_sources(view, where)}gold <b>{esc(view.gold or '—')}</b></p>"
        + f"<ul class='notes'>{notes}</ul></section>"
    )


def _sources(view: AnswerView, where: dict[str, str]) -> str:
    """Where the question text and the options shown come from ("" for what no source gave)."""
    parts = []
    if view.question_source in where:
        parts.append(f"Question from {esc(where[view.question_source])}")
    if view.options and view.options_source in where:
        parts.append(f"options from {esc(where[view.options_source])}")
    text = ", ".join(parts)
    return f"{text[:1].upper()}{text[1:]}; " if text else ""


def _shown(shown: Shown) -> str:
    runs = ", ".join(shown.runs)
    settings = shown.settings.describe()
    if not shown.video:  # a diagram or text question: the frame count means nothing here
        settings = settings.split(" · ", 1)[-1]
    parts = [f"<section class='model-input'><h2>What the model got <small>({esc(settings)}; {esc(runs)})</small></h2>"]
    parts += [f"<p class='note'>{esc(note)}</p>" for note in shown.notes]
    if shown.frames:
        about = (
            f"{len(shown.frames)} of {shown.total_frames} frames, {shown.duration:.1f} s"
            if shown.total_frames is not None and shown.duration is not None
            else ""
        )
        cells = "".join(
            f"<figure class='frame'><img src='../{esc(f.file)}' alt='frame {f.index}' loading='lazy'>"
            f"<figcaption>frame <b>{f.index}</b> · {f.time:.2f} s"
            + "".join(f"<span class='sub'>{esc(line)}</span>" for line in f.lines)
            + "</figcaption></figure>"
            for f in shown.frames
        )
        parts.append(f"<h3>Frames <small>{esc(about)}</small></h3><div class='frames'>{cells}</div>")
    if shown.diagram:
        parts.append(f"<h3>Diagram</h3><img class='diagram' src='../{esc(shown.diagram)}' alt='diagram'>")
    if shown.prompt:
        parts.append(f"<h3>Prompt</h3><pre class='prompt'>{esc(shown.prompt)}</pre>")
    parts.append("</section>")
    return "".join(parts)


def _answer(answer: Answer, reviews: list[Review]) -> str:
    run, row, view = answer.run, answer.row, answer.view
    head = f"<h3>{esc(run.name)}</h3>"
    if view is None:
        return (
            f"<section class='answer' id='{run.anchor}' data-run='{esc(run.name)}'>{head}"
            f"{status_mark(row.status)} <span class='note'>this run has no answer to this question</span>"
            "</section>"
        )
    weak = " · <span class='weak'>weak reading: check it</span>" if row.weak else ""
    parts = [
        f"<section class='answer' id='{run.anchor}' data-run='{esc(run.name)}'>{head}",
        f"<p class='verdict'>{status_mark(row.status)} · read <b class='picked'>{esc(row.extracted or 'nothing')}"
        f"</b> · gold <b>{esc(row.gold or '—')}</b>{weak}</p>",
        f"<p class='why'>{esc(row.method)}: {esc(row.explanation)}</p>",
    ]
    if row.rule is not None:
        parts.append(
            f"<p class='why'>The rule reading beside it: read <b>{esc(row.rule.extracted or 'nothing')}</b> "
            f"({esc(row.rule.status)}), {esc(row.rule.method)}: {esc(row.rule.explanation)}</p>"
        )
    if row.official_answer is not None and row.official_answer != row.extracted:
        parts.append(f"<p class='why'>The benchmark's official extractor reads <b>{esc(row.official_answer)}</b>.</p>")
    if view.question_source != "server" and view.question:
        parts.append(f"<p class='note'>Answer to the question as its file records it: {esc('; '.join(view.notes))}</p>")
    for prompt in view.prompts:
        parts.append(
            f"<details class='recorded'><summary>The prompt {esc(prompt.label)}</summary>"
            f"<pre class='prompt'>{esc(prompt.text)}</pre></details>"
        )
    parts.append(f"<pre class='response'>{_marked(row.response or '', view.span)}</pre>")
    if row.full_response is not None:
        parts.append(
            f"<details><summary>The whole reply the file keeps</summary><pre class='response'>"
            f"{esc(row.full_response)}</pre></details>"
        )
    if view.judge is not None:
        parts.append(_judge(view.judge))
    parts += _reviews(row.question_id, row.response or "", reviews)
    parts.append(f"<p class='settings'>{'<br>'.join(esc(line) for line in run.setting_lines)}</p></section>")
    return "".join(parts)


def _marked(text: str, span: tuple[int, int] | None) -> str:
    if not text:
        return "<i>(empty response)</i>"
    if span is None:
        return esc(text)
    start, end = span
    return f"{esc(text[:start])}<mark class='answer-read'>{esc(text[start:end])}</mark>{esc(text[end:])}"


def _judge(card: QuestionJudgments) -> str:
    steps, errors, extract = card.values("steps"), card.values("errors"), card.values("extract")
    parts = ["<div class='judge-card'><h4>Judge</h4>"]
    if extract:
        parts.append(
            f"<p>The judge read <b>{esc(extract.get('answer') or 'nothing')}</b> "
            f"({esc(extract.get('explanation') or extract.get('source') or '')})</p>"
        )
    if steps:
        correct = "yes" if steps.get("final_answer_correct") else "no"
        parts.append(
            f"<p class='step-score'>step score <b>{esc(steps.get('score', '—'))}</b> / 10 · matched steps "
            f"<b>{esc(steps.get('matched_steps', ''))}</b> · final answer correct: {correct}</p>"
            f"<p class='critique'>{esc(steps.get('critique', ''))}</p>"
        )
    if errors:
        entries = [("primary", errors.get("primary") or {})] + [("secondary", e) for e in errors.get("secondary") or []]
        for kind, entry in entries:
            if isinstance(entry, dict) and entry.get("category"):
                parts.append(
                    f"<p class='chip-row'><span class='chip judge-{kind}'>{esc(entry['category'])}</span> "
                    f"<small>{kind}</small> {esc(entry.get('rationale', ''))}</p>"
                )
    failed = [j for j in card.by_task.values() if not card.values(j.task)]
    parts += [f"<p class='note'>{esc(j.task)}: {esc(j.status)} {esc(j.reason)}</p>" for j in failed]
    models = sorted({j.judge_model for j in card.by_task.values() if j.judge_model})
    parts.append(f"<p class='note'>judge {esc(', '.join(models))}</p></div>")
    return "".join(parts)


def _reviews(question_id: str, response: str, reviews: list[Review]) -> list[str]:
    """The reviews of exactly this response (question id and response fingerprint)."""
    if not reviews:
        return []
    from mathreel.core.judge.fingerprint import response_fingerprint

    mine = response_fingerprint(response)
    found = [r for r in reviews if r.question_id == question_id and r.response_fingerprint == mine]
    parts = []
    for r in found:
        bits = []
        if r.category_verdict:
            bits.append(
                f"categories {esc(r.category_verdict)}"
                + (f": {esc(r.primary)}" if r.primary else "")
                + (f" (+ {esc(', '.join(r.secondary))})" if r.secondary else "")
            )
        if r.steps_verdict:
            bits.append(
                f"steps {esc(r.steps_verdict)}" + (f": {esc(r.step_score)}/10" if r.step_score is not None else "")
            )
        if r.flag:
            bits.append(f"flagged {esc(r.flag)}: {esc(r.flag_reason)}")
        note = f" — {esc(r.note)}" if r.note else ""
        parts.append(f"<li><b>{esc(r.reviewer)}</b>: {'; '.join(bits) or 'no verdict'}{note}</li>")
    return [f"<div class='reviews'><h4>Reviews</h4><ul>{''.join(parts)}</ul></div>"] if parts else []
