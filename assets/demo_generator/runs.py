"""Synthetic prediction runs in each benchmark's native result format, labelled synthetic in every record.

Two made-up models answer every demo question: model A is strong, model B weak. Each response reasons step by step
and ends in one of the answer styles real models produce (a plain "The answer is C", markdown, \\boxed{}, Chinese,
the option text only, a refusal), so the extractors, the unparsed handling and the harness's known mistakes all
have something to show. The outcome of every question is fixed below, never random.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field

from demo_generator.mathverse import VERSIONS, Problem
from demo_generator.videomathqa import MathQuestion
from demo_generator.videomme import SceneVideo

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
}
REFUSAL = "I'm sorry, but I can't work out the answer from what I was given, so I won't guess."
COT_POST_PROMPT = ("First please perform reasoning, and think step by step to provide best answer to the following "
                   "question with the option's letter (A, B, C, D or E) from the given choices.")
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


RUNS = (
    Run(
        "synthetic-model-a",
        videomathqa=(("ok", "answer_is"), ("ok", "bold"), ("ok", "boxed"), ("ok", "chinese"), ("slip", "final"),
                     ("ok", "text_only"), ("ok", "based"), ("ok", "best"), ("ok", "answer_is"), ("ok", "bold"),
                     ("ok", "boxed"), ("refuse", "")),
        videomme=(("ok", "letter_dot"), ("ok", "answer_is"), ("ok", "bold"), ("ok", "best"), ("ok", "letter_only"),
                  ("slip", "letter_dot"), ("ok", "chinese"), ("ok", "boxed")),
        mathverse=(("ok", "answer_is"), ("ok", "bold"), ("ok", "boxed"), ("ok", "final"), ("slip", "answer_is"),
                   ("ok", "boxed"), ("ok", "answer_is"), ("ok", "chinese"), ("ok", "final"), ("slip", "boxed"),
                   ("ok", "boxed"), ("ok", "text_only"), ("ok", "answer_is"), ("slip", "bold"), ("refuse", "")),
        mbin_flips=frozenset({("q010", 3)}),
    ),
    Run(
        "synthetic-model-b",
        videomathqa=(("ok", "best"), ("slip", "answer_is"), ("ok", "chinese"), ("slip", "bold"), ("ok", "text_only"),
                     ("ok", "boxed"), ("refuse", ""), ("slip", "based"), ("ok", "final"), ("refuse", ""),
                     ("slip", "answer_is"), ("ok", "chinese")),
        videomme=(("ok", "best"), ("slip", "letter_dot"), ("ok", "letter_only"), ("refuse", ""),
                  ("slip", "answer_is"), ("ok", "based"), ("ok", "text_only"), ("slip", "bold")),
        mathverse=(("ok", "boxed"), ("slip", "answer_is"), ("ok", "chinese"), ("slip", "final"), ("refuse", ""),
                   ("ok", "boxed"), ("slip", "boxed"), ("ok", "chinese"), ("refuse", ""), ("slip", "answer_is"),
                   ("ok", "answer_is"), ("ok", "bold"), ("slip", "boxed"), ("slip", "answer_is"), ("slip", "final")),
        mbin_flips=frozenset({("q001", 2), ("q006", 4)}),
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
    for prefix in ("The best answer is", "The correct answer is", "The answer is", "The answer",
                   "The best option isThe correct option is", "Best answer:Best option:"):
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
    head = ("Select the best answer to the following multiple-choice question based on the video. "
            f"Respond with the letter {letters} of the correct option.")
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
    metric = {"question_id": record["question_id"], "duration": record["length"], "category": record["category"],
              "pred_answer": lmms_extract(response), "answer": record["answer"]}
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
                    zip(q.binary_pairs(), q.binary_records(), strict=True), start=1)
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
    lead = f"Looking at the frames and the subtitles, \"{options[letter].rstrip('.')}\" fits what the video shows."
    return f"{lead}\n{final_line(style, letter, options[letter])}"


def videomme_results(videos: list[SceneVideo], run: Run) -> list[dict]:
    """The official Video-MME result template: one entry per video, `response` on every question."""
    plan = iter(run.videomme)
    entries = []
    for video in videos:
        questions = []
        for record, question in zip(video.records(), video.questions, strict=True):
            outcome, style = next(plan)
            questions.append({
                "question_id": record["question_id"],
                "task_type": record["task_type"],
                "question": record["question"],
                "options": record["options"],
                "answer": record["answer"],
                "model": run.name,
                "response": _scene_response(question, outcome, style),
            })
        entries.append({"video_id": video.video_id, "duration": video.duration, "domain": video.domain,
                        "sub_category": video.sub_category, "model": run.name, "questions": questions})
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
