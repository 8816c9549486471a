"""Synthetic prediction runs in each benchmark's native result format, labelled synthetic in every record.

Two made-up models answer every demo question: model A is strong, model B weak. Each response reasons step by step
and ends in one of the answer styles real models produce (a plain "The answer is C", markdown, \\boxed{}, Chinese,
the option text only, a refusal), so the extractors, the unparsed handling and the harness's known mistakes all
have something to show. The outcome of every question is fixed below, never random.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from dataclasses import dataclass, field

from demo_generator.mathverse import VERSIONS, Problem
from demo_generator.videomathqa import MathQuestion
from demo_generator.videomme import SceneVideo
from demo_generator.videomme_v2 import COLUMNS as V2_COLUMNS
from demo_generator.videomme_v2 import LETTERS as V2_LETTERS
from demo_generator.videomme_v2 import Group

# Final-answer styles: {L} is the chosen letter (or free-form value), {T} the chosen option text.
STYLES = {
    "answer_is": "The answer is {L}.",
    "bold": "**Answer:** ({L})",
    "boxed": "Therefore, the final answer is $\\boxed{{{L}}}$.",
    "chinese": "综上所述，正确答案是 {L}。",
    "text_only": "So the result is {T}.",
    "best": "The best answer is {L}.",
    "based": "Based on the video, the answer is {L}.",
    "final": "Final answer: {L}. {T}",
    "letter_dot": "{L}. {T}",
    "letter_only": "{L}",
    "final_answer": "Final Answer: {L}",
}
REFUSAL = "I'm sorry, but I can't work out the answer from what I was given, so I won't guess."
COT_POST_PROMPT = (
    "First please perform reasoning, and think step by step to provide best answer to the following "
    "question with the option's letter (A, B, C, D or E) from the given choices."
)
GENERATION_KWARGS = {"max_new_tokens": 1024, "temperature": 0, "top_p": 1.0, "num_beams": 1, "do_sample": False}


@dataclass(frozen=True)
class Run:
    """One synthetic model: per benchmark, an (outcome, style) per question in dataset order.

    outcome is "ok" (the correct answer), "slip" (the question's typical wrong answer) or "refuse" (no answer).
    `mbin_flips` are (question_id, pair) multi-binary pairs this model gets wrong although it knows the answer.
    """

    name: str
    videomathqa: tuple[tuple[str, str], ...]
    videomme: tuple[tuple[str, str], ...]
    mathverse: tuple[tuple[str, str], ...]
    mbin_flips: frozenset[tuple[str, int]] = field(default_factory=frozenset)
    videomme_v2: tuple[tuple[str, str], ...] = ()


RUNS = (
    Run(
        "synthetic-model-a",
        videomathqa=(
            ("ok", "answer_is"),
            ("ok", "bold"),
            ("ok", "boxed"),
            ("ok", "chinese"),
            ("slip", "final"),
            ("ok", "text_only"),
            ("ok", "based"),
            ("ok", "best"),
            ("ok", "answer_is"),
            ("ok", "bold"),
            ("ok", "boxed"),
            ("refuse", ""),
        ),
        videomme=(
            ("ok", "letter_dot"),
            ("ok", "answer_is"),
            ("ok", "bold"),
            ("ok", "best"),
            ("ok", "letter_only"),
            ("slip", "letter_dot"),
            ("ok", "chinese"),
            ("ok", "boxed"),
        ),
        mathverse=(
            ("ok", "answer_is"),
            ("ok", "bold"),
            ("ok", "boxed"),
            ("ok", "final"),
            ("slip", "answer_is"),
            ("ok", "boxed"),
            ("ok", "answer_is"),
            ("ok", "chinese"),
            ("ok", "final"),
            ("slip", "boxed"),
            ("ok", "boxed"),
            ("ok", "text_only"),
            ("ok", "answer_is"),
            ("slip", "bold"),
            ("refuse", ""),
        ),
        mbin_flips=frozenset({("q010", 3)}),
        # Right / unparsed per group: CUCC (relevance), CCWC (the last "Based on the video, ..." reads B to the
        # official script), CWCC (Q3 stands in for Q2), UCCC (the official -1 counts the refusal right).
        videomme_v2=(
            ("ok", "letter_only"),
            ("refuse", ""),
            ("ok", "answer_is"),
            ("ok", "letter_dot"),
            ("ok", "letter_only"),
            ("ok", "best"),
            ("slip", "letter_only"),
            ("ok", "based"),
            ("ok", "letter_only"),
            ("slip", "letter_dot"),
            ("ok", "letter_only"),
            ("ok", "answer_is"),
            ("refuse", ""),
            ("ok", "letter_only"),
            ("ok", "letter_dot"),
            ("ok", "letter_only"),
        ),
    ),
    Run(
        "synthetic-model-b",
        videomathqa=(
            ("ok", "best"),
            ("slip", "answer_is"),
            ("ok", "chinese"),
            ("slip", "bold"),
            ("ok", "text_only"),
            ("ok", "boxed"),
            ("refuse", ""),
            ("slip", "based"),
            ("ok", "final"),
            ("refuse", ""),
            ("slip", "answer_is"),
            ("ok", "chinese"),
        ),
        videomme=(
            ("ok", "best"),
            ("slip", "letter_dot"),
            ("ok", "letter_only"),
            ("refuse", ""),
            ("slip", "answer_is"),
            ("ok", "based"),
            ("ok", "text_only"),
            ("slip", "bold"),
        ),
        mathverse=(
            ("ok", "boxed"),
            ("slip", "answer_is"),
            ("ok", "chinese"),
            ("slip", "final"),
            ("refuse", ""),
            ("ok", "boxed"),
            ("slip", "boxed"),
            ("ok", "chinese"),
            ("refuse", ""),
            ("slip", "answer_is"),
            ("ok", "answer_is"),
            ("ok", "bold"),
            ("slip", "boxed"),
            ("slip", "answer_is"),
            ("slip", "final"),
        ),
        mbin_flips=frozenset({("q001", 2), ("q006", 4)}),
        # A reasoning run: CCWC, CWCC (broken at Q2), CCCW, UCWW (Q2 stands in for Q1).
        videomme_v2=tuple(
            ("ok", "final_answer") if o == "C" else ("slip", "final_answer") if o == "W" else ("refuse", "")
            for o in "CCWCCWCCCCCWUCWW"
        ),
    ),
)


def final_line(style: str, letter: str, text: str) -> str:
    """The last line of a response in `style` (a refusal when style is empty)."""
    return STYLES[style].format(L=letter, T=text).rstrip() if style else REFUSAL


def cot(steps: tuple[str, ...] | list[str], final: str) -> str:
    """A step-by-step response ending in `final`."""
    numbered = "\n".join(f"{i}. {step}" for i, step in enumerate(steps, 1))
    return f"Let me think step by step.\n{numbered}\n{final}"


def lmms_extract(response: str) -> str:
    """What the lmms-eval VideoMathQA harness records as pred_answer (its extract_characters_regex): delete a few
    phrases, then take the first capital A-E anywhere. Reproduced so the synthetic metric dicts hold exactly what
    the harness would have logged, mistakes included."""
    s = response.strip()
    # Two of the harness's phrases lack a comma and are concatenated, as in its source.
    for prefix in (
        "The best answer is",
        "The correct answer is",
        "The answer is",
        "The answer",
        "The best option isThe correct option is",
        "Best answer:Best option:",
    ):
        s = s.replace(prefix, "")
    if len(s.split()) > 10 and not re.search("[ABCDE]", s):
        return ""
    match = re.search("[ABCDE]", s)
    return match[0] if match else ""


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------------------------------- VideoMathQA
def _mcq_response(q: MathQuestion, outcome: str, style: str) -> str:
    if outcome == "refuse":
        return f"I looked through the frames, but the value this depends on is not clear to me. {REFUSAL}"
    if outcome == "slip":
        half = list(q.steps[: len(q.steps) // 2])
        return cot([*half, q.slip_reason], final_line(style, q.letter_of(q.slip_text), q.slip_text))
    return cot(q.steps, final_line(style, q.letter, q.correct))


_MBIN_STYLES = ("answer_is", "bold", "letter_only", "boxed", "chinese")


def _mbin_response(q: MathQuestion, k: int, texts: list[str], outcome: str, flipped: bool) -> str:
    """One pair's response: the model picks what it believes (the slip if that is offered), else the right one."""
    correct_letter = "AB"[texts.index(q.correct)]
    wrong_letter = "AB"[1 - texts.index(q.correct)]
    if outcome == "refuse" and k == 1:
        return f"The two choices are {texts[0]} and {texts[1]}. {REFUSAL}"
    believes_wrong = flipped or (outcome == "slip" and q.slip_text in texts)
    letter = wrong_letter if believes_wrong else correct_letter
    reason = q.slip_reason if believes_wrong and outcome == "slip" else q.steps[-1]
    style = _MBIN_STYLES[(int(q.question_id[1:]) + k) % len(_MBIN_STYLES)]
    return f"Comparing {texts[0]} with {texts[1]}: {reason}\n" + final_line(style, letter, "")


def _lmms_prompt(record: dict) -> str:
    """The harness's doc_to_text prompt (no subtitles) with the CoT post-prompt."""
    letters = "(A or B)" if len(record["options"]) == 2 else "(A, B, C, D or E)"
    head = (
        "Select the best answer to the following multiple-choice question based on the video. "
        f"Respond with the letter {letters} of the correct option."
    )
    post = COT_POST_PROMPT.replace("(A, B, C, D or E)", letters)
    return "\n".join([head, record["question"], *record["options"], post])


def _sample_doc_era(doc_id: int, record: dict, response: str, run: Run, task: str) -> dict:
    """An older `--log_samples` line: the whole doc (with the `duration` the harness adds) and resps [["text"]]."""
    doc = {**record, "duration": record["length"]}
    return {
        "doc_id": doc_id,
        "doc": doc,
        "target": record["answer"],
        "arguments": [_lmms_prompt(record), GENERATION_KWARGS, doc_id, task, "test"],
        "resps": [[response]],
        "model": run.name,
    }


def _sample_metric_era(doc_id: int, record: dict, response: str, run: Run) -> dict:
    """A newer line: no doc, `filtered_resps` and the metric dict the harness's process_results returns."""
    metric = {
        "question_id": record["question_id"],
        "duration": record["length"],
        "category": record["category"],
        "pred_answer": lmms_extract(response),
        "answer": record["answer"],
    }
    return {
        "doc_id": doc_id,
        "target": record["answer"],
        "filtered_resps": [response],
        "videomathqa_perception_score": metric,
        "doc_hash": _sha(json.dumps({**record, "duration": record["length"]}, indent=2, ensure_ascii=False)),
        "prompt_hash": _sha(_lmms_prompt(record)),
        "target_hash": _sha(record["answer"]),
        "model": run.name,
    }


def videomathqa_samples(questions: list[MathQuestion], run: Run, mode: str, doc_era: bool) -> list[dict]:
    """One run's lmms-eval sample log for `mode` ("mcq" or "mbin"), in the doc era or the metric-dict era."""
    lines: list[dict] = []
    task = f"videomathqa_{mode}_cot"
    for q, (outcome, style) in zip(questions, run.videomathqa, strict=True):
        if mode == "mcq":
            items = [(q.record(), _mcq_response(q, outcome, style))]
        else:
            items = [
                (record, _mbin_response(q, k, texts, outcome, (q.question_id, k) in run.mbin_flips))
                for k, ((_pair_id, texts, _answer), record) in enumerate(
                    zip(q.binary_pairs(), q.binary_records(), strict=True), start=1
                )
            ]
        for record, response in items:
            doc_id = len(lines)
            if doc_era:
                lines.append(_sample_doc_era(doc_id, record, response, run, task))
            else:
                lines.append(_sample_metric_era(doc_id, record, response, run))
    return lines


# ------------------------------------------------------------------------------------------------------ Video-MME
def _scene_response(question, outcome: str, style: str) -> str:
    options = dict(zip("ABCD", question.options, strict=True))
    if outcome == "refuse":
        return "The subtitles don't mention this directly. " + REFUSAL
    letter = question.answer if outcome == "ok" else question.slip
    lead = f'Looking at the frames and the subtitles, "{options[letter].rstrip(".")}" fits what the video shows.'
    return f"{lead}\n{final_line(style, letter, options[letter])}"


def videomme_results(videos: list[SceneVideo], run: Run) -> list[dict]:
    """The official Video-MME result template: one entry per video, `response` on every question."""
    plan = iter(run.videomme)
    entries = []
    for video in videos:
        questions = []
        for record, question in zip(video.records(), video.questions, strict=True):
            outcome, style = next(plan)
            questions.append(
                {
                    "question_id": record["question_id"],
                    "task_type": record["task_type"],
                    "question": record["question"],
                    "options": record["options"],
                    "answer": record["answer"],
                    "model": run.name,
                    "response": _scene_response(question, outcome, style),
                }
            )
        entries.append(
            {
                "video_id": video.video_id,
                "duration": video.duration,
                "domain": video.domain,
                "sub_category": video.sub_category,
                "model": run.name,
                "questions": questions,
            }
        )
    return entries


def template_json(entries: list[dict]) -> str:
    """The entries written the way the published output_test_template.json is: with trailing commas after the
    last field of each question and after the last video (not strict JSON, and readers must cope)."""
    text = json.dumps(entries, indent=4, ensure_ascii=False)
    text = re.sub(r'^(\s*"response": .*)$', r"\1,", text, flags=re.M)
    return re.sub(r"\}\n\]$", "},\n]", text) + "\n"


# ------------------------------------------------------------------------------------------------------- MathVerse
def _mathverse_response(problem: Problem, outcome: str, style: str) -> str:
    if outcome == "refuse":
        return f"The figure is hard to read at this size. {REFUSAL}"
    choice = bool(problem.choices)
    value = problem.answer if outcome == "ok" else problem.slip
    text = problem.choices["ABCD".index(value)] if choice else ""
    steps = list(problem.solution) if outcome == "ok" else [problem.slip_reason]
    return cot(steps, final_line(style, value, text))


def mathverse_output(records: list[dict], problems: list[Problem], run: Run) -> list[dict]:
    """MathVerse's official output: each testmini record with the model's `model_answer` added."""
    by_index = {str(p.index): p for p in problems}
    rows = []
    for record, (outcome, style) in zip(records, run.mathverse, strict=True):
        problem = by_index[record["problem_index"]]
        assert record["problem_version"] in VERSIONS
        rows.append({**record, "model": run.name, "model_answer": _mathverse_response(problem, outcome, style)})
    return rows


# ---------------------------------------------------------------------------------------------------- Video-MME-v2
V2_THINK = (
    "Please perform a detailed reasoning based on the provided video frames to answer the following "
    "multiple-choice question selecting the best option from A through H and providing your final response "
    "strictly in the format: 'Final Answer: <letter>."
)
V2_METRIC_KEYS = tuple(
    f"videomme_v2_{part}_{kind}"
    for kind in ("score", "acc")
    for part in ("overall", "relevance", "logic", "level_1", "level_2", "level_3")
)
_V2_PREFIXES = (
    "The best answer is",
    "The correct answer is",
    "The answer is",
    "The answer",
    "The best option is",
    "The correct option is",
    "Final Answer:",
    "Best answer:",
    "Best option:",
    "Answer:",
    "Option:",
)


def _v2_answer(group: Group, number: int, outcome: str, style: str) -> str:
    """The final answer of one reply: the right letter, the question's distractor, or a refusal."""
    if outcome == "refuse":
        return REFUSAL
    question = group.questions[number]
    letter = question.answer if outcome == "ok" else question.slip
    return final_line(style, letter, dict(zip(V2_LETTERS, question.options, strict=True))[letter])


def _v2_thought(group: Group, number: int, outcome: str) -> str:
    """The reasoning block a thinking model writes before its answer."""
    if outcome == "refuse":
        return "<think>The frames do not show this clearly enough.</think>"
    question = group.questions[number]
    letter = question.answer if outcome == "ok" else question.slip
    chosen = dict(zip(V2_LETTERS, question.options, strict=True))[letter].rstrip(".")
    return f'<think>Looking at the frames, "{chosen}" fits what the video shows.</think>'


def lmms_v2_extract(response: str) -> str:
    """lmms-eval's videomme_v2 reading (delete eleven phrases, first capital A-H), reproduced so the synthetic
    metric dicts hold what the harness would log."""
    text = response.strip()
    for prefix in _V2_PREFIXES:
        text = text.replace(prefix, "")
    match = re.search("[A-H]", text)
    return match[0] if match else ""


def v2_official_tsv(groups: list[Group], run: Run) -> str:
    """The official script's prediction TSV (pandas `to_csv(sep="\\t", index=False)`): the parquet columns, then
    index, video and prediction; a missing level written empty and a present one as a float ("2.0"), multi-line
    fields quoted."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter="\t", lineterminator="\n")
    writer.writerow([*V2_COLUMNS, "index", "video", "prediction"])
    plan = iter(run.videomme_v2)
    index = 0
    for group in groups:
        for number, record in enumerate(group.records()):
            outcome, style = next(plan)
            values = {
                **record,
                "level": "" if record["level"] is None else f"{float(record['level'])}",
                "second_head": record["second_head"] or "",
                "third_head": record["third_head"] or "",
            }
            writer.writerow(
                [*(values[c] for c in V2_COLUMNS), index, record["video_id"], _v2_answer(group, number, outcome, style)]
            )
            index += 1
    return buffer.getvalue()


def v2_lmms_samples(groups: list[Group], run: Run, ranks: int = 2) -> list[dict]:
    """An lmms-eval >= 0.7 sample log of the videomme_v2_reasoning task: flattened `filtered_resps` (the reply with
    its <think> block removed) and `resps` (the raw reply, kept because it differs), `token_counts`, the doc's
    `doc_hash`, the twelve metric dicts, `input`; lines in the order `ranks` GPUs write them (rank by rank)."""
    plan = iter(run.videomme_v2)
    lines = []
    for group in groups:
        for number, record in enumerate(group.records()):
            outcome, style = next(plan)
            answer = _v2_answer(group, number, outcome, style)
            raw = f"{_v2_thought(group, number, outcome)}\n{answer}"
            pred = lmms_v2_extract(answer)
            metric = {
                **{
                    k: record[k]
                    for k in (
                        "video_id",
                        "question_id",
                        "group_type",
                        "group_structure",
                        "level",
                        "second_head",
                        "third_head",
                    )
                },
                "pred_answer": pred,
                "answer": record["answer"],
                "score": int(pred == record["answer"]),
            }
            doc_id = len(lines)
            lines.append(
                {
                    "doc_id": doc_id,
                    "target": record["answer"],
                    "resps": raw,
                    "filtered_resps": answer,
                    "token_counts": [{"input_tokens": 1800 + 7 * doc_id, "output_tokens": len(raw.split()) * 2}],
                    "doc_hash": _sha(json.dumps(record, indent=2, ensure_ascii=False)),
                    **dict.fromkeys(V2_METRIC_KEYS, metric),
                    "input": f"Question: {record['question']}\n{record['options']}\n{V2_THINK}",
                    "model": run.name,
                }
            )
    return [line for rank in range(ranks) for line in lines[rank::ranks]]
