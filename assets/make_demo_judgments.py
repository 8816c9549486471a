"""Make the demo set's precomputed judgments (assets/demo/judgments/) through the real judge code path.

The judge here is the loopback OpenAI-compatible server of tests/helpers/fake_openai.py playing back replies written by
hand for the demo's synthetic CoT responses (critiques, step counts, error categories and rationales), so the
Judge tab works with no endpoint. Everything else is the real thing: the prompts, the client, the card checks,
the JSONL writer. The output is synthetic and says so (judge model "scripted-demo-judge").

    .venv/bin/python assets/make_demo_judgments.py [--out assets/demo/judgments]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
JUDGE_MODEL = "scripted-demo-judge"
RUNS = ("synthetic-model-a", "synthetic-model-b")

VERDICTS_FILE = Path(__file__).resolve().parent / "demo_judge_verdicts.json"

# Per run and question: the letter the judge reads (None: no final answer), the step card
# (matched, final answer correct, score, critique), and for wrong answers the error categories with rationales
# (primary first). Written for the responses in assets/demo/results/videomathqa_mcq_<run>_samples.jsonl and kept in
# VERDICTS_FILE (data, not code).
Verdict = tuple[str | None, tuple[int, int, int, str], list[tuple[str, str]]]


def verdicts(path: Path = VERDICTS_FILE) -> dict[str, dict[str, Verdict]]:
    """The hand-written verdicts, per run and question."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        run: {
            qid: (
                v["answer"],
                (v["matched"], v["correct"], v["score"], v["critique"]),
                [(e["category"], e["rationale"]) for e in v["errors"]],
            )
            for qid, v in questions.items()
        }
        for run, questions in data.items()
    }


def _steps_reply(verdict: Verdict, total: int, gold: str) -> str:
    """A thinking-mode judge reply: brief reasoning, then the card."""
    letter, (matched, correct, score, critique), _ = verdict
    card = {
        "matched_steps": f"{matched}/{total}",
        "final_answer_correct": correct,
        "critique": critique,
        "score": score,
    }
    given = letter or "no answer"
    thinking = (
        f"There are {total} ground-truth steps. Going through them, {matched} are carried out correctly in "
        f"the response, counting implied ones. Its final answer is {given}; the correct answer is {gold}. "
        f"Applying the rubric gives {score}."
    )
    return f"<think>\n{thinking}\n</think>\n\n{json.dumps(card, ensure_ascii=False)}"


def _errors_reply(verdict: Verdict) -> str:
    primary, *secondary = verdict[2]
    card = {
        "primary": {"category": primary[0], "rationale": primary[1]},
        "secondary": [{"category": name, "rationale": why} for name, why in secondary],
    }
    return f"The decisive error is: {primary[0].lower()}.\n{json.dumps(card, ensure_ascii=False)}"


def scripted_judge(run: str, cases: list) -> object:
    """The reply function for the fake server: which question and task a prompt is, then the written reply."""
    from mathreel.core.judge import prompts

    by_text = {f"QUESTION:\n{c.question.question}\n": c for c in cases}
    scripted = verdicts()[run]

    def reply(recorded) -> str:
        text = recorded.text
        case = next(c for marker, c in by_text.items() if marker in text)
        verdict = scripted[case.question.question_id]
        if prompts.EXTRACT_CONTRACT in text:
            return json.dumps({"answer": verdict[0]})
        if prompts.STEPS_CONTRACT in text:
            return _steps_reply(verdict, len(case.question.steps), case.question.answer)
        if prompts.ERRORS_CONTRACT in text:
            return _errors_reply(verdict)
        raise ValueError(f"no scripted reply for this prompt: {text[:80]!r}")

    return reply


def make(out: Path) -> list[Path]:
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    from helpers.fake_openai import FakeOpenAI

    from mathreel.core.judge import cases_from_results, judge_cases, judge_endpoint, with_dataset_steps, write_judgments
    from mathreel.core.judge.views import summary_lines
    from mathreel.core.results import read_results

    written = []
    for run in RUNS:
        source = ROOT / "assets" / "demo" / "results" / f"videomathqa_mcq_{run}_samples.jsonl"
        result = read_results(source)
        cases, _ = with_dataset_steps(
            cases_from_results(result), result.benchmark, result.mode, str(ROOT / "assets" / "demo")
        )
        with FakeOpenAI(models=(JUDGE_MODEL,), reply=scripted_judge(run, cases)) as server:
            judged = judge_cases(
                cases,
                judge_endpoint(server.base_url, JUDGE_MODEL),
                benchmark=result.benchmark,
                tasks=("extract", "steps", "errors"),
                concurrency=4,
            )
        if judged.failures:
            raise SystemExit(f"{run}: {judged.failures} judgments failed: the scripted replies need fixing")
        path = write_judgments(out / f"videomathqa_mcq_{run}_judgments.jsonl", judged.judgments)
        written.append(path)
        print(f"{path}: " + "; ".join(summary_lines(judged.judgments)))
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description="Write the demo set's synthetic judgments.")
    parser.add_argument("--out", type=Path, default=ROOT / "assets" / "demo" / "judgments")
    make(parser.parse_args().out)


if __name__ == "__main__":
    main()
