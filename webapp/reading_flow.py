"""The reading flow's pure parts: a scored response made readable (wrapped, Markdown and LaTeX, the answer marked
where it was read), the filtered list being walked and the position in it, and every run's answer side by side.

No Gradio here: Browse's handlers call these and hand the strings to its components.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from mathreel.webapp.html import plain
from mathreel.webapp.judged_runs import load_demo_runs

if TYPE_CHECKING:
    from collections.abc import Callable

    from mathreel.core.review.join import JudgeView
    from mathreel.webapp.judged_runs import JudgedRun
    from mathreel.webapp.scored_runs import Run

# KaTeX delimiters for gr.Markdown (Gradio ships KaTeX); `$` last so `$$` wins.
LATEX: list[dict[str, str | bool]] = [
    {"left": "$$", "right": "$$", "display": True},
    {"left": "\\[", "right": "\\]", "display": True},
    {"left": "\\(", "right": "\\)", "display": False},
    {"left": "$", "right": "$", "display": False},
]
MARKS = {"correct": "✓ correct", "wrong": "✗ wrong", "unparsed": "? unparsed", "missing": "— missing"}
WALK_FILTERS = [
    ("Wrong or unparsed", "not_correct"),
    ("Wrong", "wrong"),
    ("Unparsed", "unparsed"),
    ("Missing", "missing"),
    ("Correct", "correct"),
    ("All questions", "all"),
    ("Readings to check", "to_check"),
]
UNREVIEWED = "judge_unreviewed"  # judged answers this reviewer has not reviewed yet
JUDGE_CATEGORY = "judge:"  # "judge:<category>": answers the judge put in that primary error category


@dataclass(frozen=True)
class Walk:
    """Which responses are read and in which list: a run, a status filter, a "dimension=value", disagreement;
    `judged`: a judged run whose response is shown when no run of the session holds it (the Judge tab's "Open this
    question in Browse"); `ids` and `listed`: a list handed over whole (the questions of one cause of a gap in
    Score's explain panel) and its name, walked instead of the filters."""

    run: str = ""
    status: str = "not_correct"
    dim_filter: str = ""
    disagree: bool = False
    judged: str = ""
    ids: tuple[str, ...] = ()
    listed: str = ""

    @classmethod
    def of(cls, value: dict[str, Any] | None) -> Walk:
        """A Walk from its gr.State dict (None: nothing chosen yet)."""
        value = value or {}
        return cls(
            str(value.get("run") or ""),
            str(value.get("status") or "not_correct"),
            str(value.get("dim_filter") or ""),
            bool(value.get("disagree")),
            str(value.get("judged") or ""),
            tuple(str(i) for i in value.get("ids") or ()),
            str(value.get("listed") or ""),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "run": self.run,
            "status": self.status,
            "dim_filter": self.dim_filter,
            "disagree": self.disagree,
            "judged": self.judged,
            "ids": list(self.ids),
            "listed": self.listed,
        }


# Characters: a handed-over list longer than this once packed stays out of the address. The address reaches the
# server twice in a request (its line and the Referer header), and uvicorn's h11 refuses a head over 16 KB.
LINK_LIST_LIMIT = 4500
_LIST_BYTES = 1 << 20  # a packed list from an address unpacks to at most this much, else it is ignored
_LIST_IDS = 20_000


def pack_ids(ids: tuple[str, ...]) -> str:
    """A handed-over list (a cause's questions) for a page address: the ids one a line, deflated, base64url (1,437
    Video-MME ids drawn from 2,700 take 3,951 characters, all 2,700 take 6,748); "" when the result would pass
    LINK_LIST_LIMIT."""
    import base64
    import zlib

    packed = base64.urlsafe_b64encode(zlib.compress("\n".join(ids).encode("utf-8"), 9)).decode("ascii")
    packed = packed.rstrip("=")
    return packed if len(packed) <= LINK_LIST_LIMIT else ""


def unpack_ids(packed: str) -> tuple[str, ...]:
    """The list `pack_ids` packed; () for anything else (an address is typed by anyone: bounded, never raises)."""
    import base64
    import binascii
    import zlib

    if not packed or len(packed) > LINK_LIST_LIMIT:
        return ()
    try:
        raw = base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))
        inflate = zlib.decompressobj()
        text = inflate.decompress(raw, _LIST_BYTES)
        if inflate.unconsumed_tail or not inflate.eof:
            return ()
        ids = text.decode("utf-8").split("\n")
    except (binascii.Error, ValueError, zlib.error, UnicodeDecodeError):
        return ()
    return tuple(ids) if len(ids) <= _LIST_IDS and all(ids) else ()


def run_named(runs: list[Run] | None, name: str) -> Run | None:
    """The loaded run called `name` (None when it is not loaded)."""
    return next((r for r in runs or [] if r.name == name), None)


def peers(runs: list[Run] | None, key: str) -> list[Run]:
    """The loaded runs of benchmark:mode `key`: the ones that answer the questions Browse shows."""
    return [r for r in runs or [] if r.key == key]


def walk_filters(benchmark: str | None = None) -> list[tuple[str, str]]:
    """The walk list's choices: by status, the judged answers still to review, and each judge error category (of
    every benchmark, or of `benchmark` alone: a Video-MME run was offered VideoMathQA's seven categories)."""
    from mathreel.core.benchmarks import BENCHMARKS

    benches = [bench for name, bench in BENCHMARKS.items() if benchmark is None or name == benchmark]
    categories = dict.fromkeys(c for bench in benches for c in bench.error_categories)
    return [
        *WALK_FILTERS,
        ("Judged, not reviewed by you", UNREVIEWED),
        *((f"judge: {c}", f"{JUDGE_CATEGORY}{c}") for c in categories),
    ]


def walk_choices(runs: list | None, walk: dict | None) -> list[tuple[str, str]]:
    """The walk list's choices for the run walked: its benchmark's judge categories only (all of them while no
    run is walked, or the walked list is already one of them)."""
    current = Walk.of(walk)
    run = run_named(runs, current.run) if current.run else None
    if run is None or current.status.startswith(JUDGE_CATEGORY):
        return walk_filters()
    return walk_filters(run.report.benchmark)


@lru_cache(maxsize=1)
def judged_runs() -> tuple[tuple[JudgedRun, dict[str, JudgeView]], ...]:
    """The judged runs Browse can show beside a scored run (the demo set's synthetic judgments, read once), each
    with the judge's view of every question."""
    from mathreel.core.review.join import judge_views

    return tuple((run, judge_views(run.judgments)) for run in load_demo_runs())


def session_judged(judged: list[JudgedRun] | None) -> tuple[tuple[JudgedRun, dict[str, JudgeView]], ...]:
    """The session's judged runs (loaded or run in the Judge tab) with the judge's view of every question; the
    demo runs while the session has none of its own (None, as the Judge tab starts)."""
    if judged is None:
        return judged_runs()
    return tuple((run, _views_of(run.judgments)) for run in judged)


_VIEWS: dict[int, tuple[list, dict[str, JudgeView]]] = {}  # id of a judgments list -> (that list, its views)


def _views_of(judgments: list) -> dict[str, JudgeView]:
    """The judge's view of every question of `judgments`, computed once per list: a switch asks for it several
    times (the walk list, every run's column, the review box) and a session's lists do not change in place."""
    from mathreel.core.review.join import judge_views

    held = _VIEWS.get(id(judgments))
    if held is not None and held[0] is judgments:
        return held[1]
    if len(_VIEWS) >= 64:
        _VIEWS.clear()
    views = judge_views(judgments)
    _VIEWS[id(judgments)] = (judgments, views)
    return views


def judged_of(
    run: Run | None, judge_runs: list[JudgedRun] | None = None
) -> tuple[JudgedRun | None, dict[str, JudgeView]]:
    """The judged run (of the session's `judge_runs`) that judged most of `run`'s responses (matched by
    response, not id alone) and the judge's view of each matched question; (None, {}) when none did. Of runs
    that judged as many, the one loaded last wins: a user's own file over the demo's."""
    from mathreel.core.review.walk import matching_views

    best: tuple[JudgedRun | None, dict[str, JudgeView]] = (None, {})
    if run is None:
        return best
    for judged, views in session_judged(judge_runs):
        if f"{judged.benchmark}:{judged.mode}" != run.key:
            continue
        found = matching_views(((r.question_id, r.response or "") for r in run.report.rows), views)
        if found and len(found) >= len(best[1]):
            best = (judged, found)
    return best


def walk_ids(
    runs: list[Run] | None,
    walk: Walk,
    reviews: list | None = None,
    reviewer: str = "reviewer",
    judge_runs: list[JudgedRun] | None = None,
) -> list[str]:
    """The question ids of the walked list, in file order; judge filters use the session's judged runs and
    `reviews`."""
    from mathreel.core.review.walk import category_ids, unreviewed_ids
    from mathreel.core.scoring.reading_flow import disagreeing, select_rows

    run = run_named(runs, walk.run)
    if run is None:
        return []
    if walk.ids:
        return list(walk.ids)
    only = disagreeing([r.report for r in peers(runs, run.key)]) if walk.disagree else None
    judged = walk.status == UNREVIEWED or walk.status.startswith(JUDGE_CATEGORY)
    ids = [row.question_id for row in select_rows(run.report, "all" if judged else walk.status, walk.dim_filter, only)]
    if not judged:
        return ids
    views = judged_of(run, judge_runs)[1]
    if walk.status == UNREVIEWED:
        return unreviewed_ids(ids, views, reviews or [], reviewer)
    return category_ids(ids, views, walk.status.removeprefix(JUDGE_CATEGORY))


def walk_label(walk: Walk) -> str:
    """ "wrong", "unparsed in Category: Chart where the runs disagree"."""
    from mathreel.core.scoring.reading_flow import STATUS_LABELS

    if walk.ids:
        return walk.listed or "listed"
    label = STATUS_LABELS.get(walk.status, walk.status)
    if walk.status == UNREVIEWED:
        label = "judged, not reviewed by you"
    elif walk.status.startswith(JUDGE_CATEGORY):
        label = f"judged {walk.status.removeprefix(JUDGE_CATEGORY)}"
    if walk.dim_filter:
        label += f" with {walk.dim_filter.replace('=', ' = ')}"
    return label + (" where the runs disagree" if walk.disagree else "")


def empty_phrase(walk: Walk, label: str) -> str:
    """What an empty list lacks, in words: "wrong questions with duration = short"; a label that is a noun already
    ("readings to check", "questions", a named list) takes no "questions" after it."""
    from dataclasses import replace

    from mathreel.core.scoring.reading_flow import TO_CHECK

    if walk.ids or walk.status in ("all", TO_CHECK):
        return label
    base = walk_label(replace(walk, dim_filter="", disagree=False))
    return f"{base} questions{label.removeprefix(base)}"


def position_text(ids: list[str], ref: str, walk: Walk) -> str:
    """ "**17 of 143** wrong · run.jsonl", or why there is no list to walk."""
    if not walk.run:
        return "_Open a question from Score, or choose a run, to read its responses one after another._"
    name = html.escape(walk.run)
    label = plain(walk_label(walk)) if walk.ids else walk_label(walk)  # a list's name may come from an address
    if not ids:
        return f"_No {empty_phrase(walk, label)} in {name}._"
    if ref in ids:
        return f"**{ids.index(ref) + 1} of {len(ids)}** {label} · {name}"
    return f"_This question is not among the {len(ids)} {label} of {name}; next goes to the first._"


def step(ids: list[str], ref: str, delta: int) -> str | None:
    """The id `delta` places from `ref` in `ids` (clamped at the ends); the first when `ref` is not listed."""
    if not ids:
        return None
    if ref not in ids:
        return ids[0] if delta > 0 else ids[-1]
    return ids[min(max(ids.index(ref) + delta, 0), len(ids) - 1)]


def row_of(run: Run | None, ref: str) -> Any:
    """The scored row of `ref` in `run` (None when the run has no answer to it)."""
    if run is None:
        return None
    return next((r for r in run.report.rows if r.question_id == ref), None)


def _math_safe(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen a span that starts inside $...$ to the whole formula, so a mark never splits LaTeX."""
    before = text[:start].replace("\\$", "")
    if before.count("$") % 2 == 1:
        start = text.rfind("$", 0, start)
        close = text.find("$", end)
        end = close + 1 if close >= 0 else len(text)
    return start, end


def highlighted(text: str, span: tuple[int, int] | None) -> str:
    """`text` HTML-escaped with `span` wrapped in <mark>."""
    if span is None:
        return html.escape(text, quote=False)
    start, end = _math_safe(text, *span)
    esc = lambda part: html.escape(part, quote=False)  # noqa: E731 - a local shorthand
    return f"{esc(text[:start])}<mark class='answer-read'>{esc(text[start:end])}</mark>{esc(text[end:])}"


def verdict_line(row: Any) -> str:
    """ "✗ wrong · read **B** · gold **C** · robust: read 'The answer is B'" (escaped)."""
    picked = html.escape(row.extracted) if row.extracted else "nothing"
    why = html.escape(row.explanation or "")
    return (
        f"**{MARKS.get(row.status, row.status)}** · read **{picked}** · gold **{html.escape(row.gold or '')}**"
        f" · _{html.escape(row.method or '')}: {why}_"
    )


def response_markdown(row: Any, run_name: str = "", raw: bool = False) -> str:
    """A scored response to read: the verdict and reason, then the response wrapped, rendered as Markdown and
    LaTeX (or raw text), with the answer marked where it was read."""
    from mathreel.core.scoring.reading_flow import answer_span

    if row is None:
        return ""
    response = row.response or ""
    title = f"#### Model response · {html.escape(run_name)}" if run_name else "#### Model response"
    body = highlighted(response, answer_span(row)) if response else "_(empty response)_"
    if raw and response:
        body = f"<pre class='response-raw'>{body}</pre>"
    return f"{title}\n\n{verdict_line(row)}\n\n<div class='response-text'>\n\n{body}\n\n</div>"


def compare_html(
    runs: list[Run] | None,
    key: str,
    ref: str,
    judge_runs: list[JudgedRun] | None = None,
    same: Callable[[Any], bool] | None = None,
) -> str:
    """Every loaded run of `key` on question `ref`, one column each: verdict, pick, reason and response. `same`
    says whether a run's answer with this id is to the question shown (the join rule); one that is not is named,
    never shown under it."""
    from mathreel.core.scoring.reading_flow import answer_span

    columns = []
    for run in peers(runs, key):
        row = row_of(run, ref)
        head = f"<h4>{html.escape(run.name)}</h4>"
        if row is None:
            columns.append(f"<div class='compare-col'>{head}<p><em>No answer to this question.</em></p></div>")
            continue
        if same is not None and not same(row):
            columns.append(
                f"<div class='compare-col'>{head}<p><em>Its answer with this id is to another question "
                "(text or options differ): not shown here.</em></p></div>"
            )
            continue
        verdict = (
            f"<p><b>{MARKS.get(row.status, row.status)}</b> · read <b>{html.escape(row.extracted or '—')}"
            f"</b> · gold <b>{html.escape(row.gold or '')}</b><br><small>{html.escape(row.explanation or '')}"
            "</small></p>"
        )
        text = highlighted(row.response or "", answer_span(row))
        judge = judge_line(judged_of(run, judge_runs)[1].get(ref))
        columns.append(f"<div class='compare-col'>{head}{verdict}{judge}<pre class='response-raw'>{text}</pre></div>")
    if len(columns) < 2:
        return ""
    return f"<div class='compare-grid'>{''.join(columns)}</div>"


def run_judged_by(runs: list[Run] | None, judged: JudgedRun, ref: str) -> Run | None:
    """The session's run whose answer to `ref` is the response `judged` judged (matched by response, never by id
    alone), None when no run holds it."""
    from mathreel.core.review.walk import matching_views

    views = _views_of(judged.judgments)
    for run in peers(runs, f"{judged.benchmark}:{judged.mode}"):
        row = row_of(run, ref)
        if row is not None and matching_views([(ref, row.response or "")], views):
            return run
    return None


def judged_named(judge_runs: list[JudgedRun] | None, name: str) -> JudgedRun | None:
    """The session's judged run called `name` (the demo's while the session has none of its own)."""
    return next((run for run, _ in session_judged(judge_runs) if run.name == name), None)


def judged_response(judged: JudgedRun | None, ref: str) -> tuple[str, str | None]:
    """The response `judged` judged on `ref`, to read where no run of the session holds it: Markdown with the
    judge's reading of the answer, and that answer (None when the judge read none, or judged no such answer)."""
    from mathreel.core.judge.views import by_question

    if judged is None:
        return "", None
    card = next((c for c in by_question(judged.judgments) if c.question_id == ref), None)
    if card is None:
        return "", None
    response = next((j.response for j in card.by_task.values() if j.response), "")
    extract = card.values("extract")
    pick = extract.get("answer") or None
    read = (
        f"read **{html.escape(pick)}** ({html.escape(str(extract.get('source') or 'judge'))})"
        if pick
        else "no answer read"
    )
    body = html.escape(response, quote=False) if response else "_(empty response)_"
    return (
        f"#### Model response · {html.escape(judged.name)} (as judged)\n\n**The judge's reading:** {read}"
        f"\n\n<div class='response-text'>\n\n{body}\n\n</div>"
    ), pick


def judge_line(view: JudgeView | None) -> str:
    """The judge card of one run's answer in its column: step score and primary error category (or nothing)."""
    if view is None:
        return ""
    score = "—" if view.step_score is None else f"{view.step_score}/10"
    primary = html.escape(view.primary) if view.primary else "no error analysis"
    return (
        f"<p class='compare-judge'>judge: step score <b>{score}</b> · primary <b>{primary}</b>"
        f"<br><small>{html.escape(view.judge_model)}</small></p>"
    )


def settings_note(run: Run | None) -> str:
    """Which prompt settings the run used and where each came from, for the line above the prompt."""
    if run is None:
        return ""
    from mathreel.core.benchmarks import get_benchmark
    from mathreel.core.prompt_styles import prompt_choices

    used = run.settings_used()
    if used is None:
        return ""
    # Only the settings the benchmark has: MathVerse (images) has no frames or subtitles, Video-MME no chain of
    # thought; "Frames: 8 (the default)" over a diagram question only puzzled. used.lines(): cot, subtitles, frames.
    choices = prompt_choices(run.report.benchmark)
    layout = get_benchmark(run.report.benchmark).layout
    video = layout is not None and layout.has_video
    shown = [line for line, has in zip(used.lines(), (choices.cot, choices.subtitles, video), strict=True) if has]
    if not shown:
        return ""
    lines = "; ".join(html.escape(line) for line in shown)
    what = "Prompt and frames follow" if video else "The prompt follows"
    return f"_{what} {html.escape(run.name)}: {lines}._"
