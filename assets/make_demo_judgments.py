"""Make the demo set's precomputed judgments (assets/demo/judgments/) through the real judge code path.

The judge here is the loopback OpenAI-compatible server of tests/fake_openai.py playing back replies written by
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

# Per run and question: the letter the judge reads (None: no final answer), the step card
# (matched, final answer correct, score, critique), and for wrong answers the error categories with rationales
# (primary first). Written for the responses in assets/demo/results/videomathqa_mcq_<run>_samples.jsonl.
Verdict = tuple[str | None, tuple[int, int, int, str], list[tuple[str, str]]]
VERDICTS: dict[str, dict[str, Verdict]] = {
    "synthetic-model-a": {
        "q001": ("C", (5, 1, 10, "The response reads the 40° apex angle, uses the narrator's equal sides to make the "
                       "triangle isosceles, and gets base angles of 70°. It then uses the straight line BD for "
                       "x = 110°; every step is matched and the answer C is correct."), []),
        "q002": ("A", (5, 1, 10, "The response reads the 10 cm by 6 cm rectangle and takes the 3 cm square from the "
                       "narration rather than the figure. All five steps match and 60 - 9 = 51 cm² (A) is "
                       "correct."), []),
        "q003": ("E", (6, 1, 10, "The response carries the Pythagorean theorem from the first chapter over to the "
                       "rectangle's diagonal and combines the labelled 12 m with the 9 m given only in the "
                       "narration. All six steps match and the answer E (15 m) is correct."), []),
        "q004": ("B", (4, 1, 10, "The response reads all five bars, follows the narrator's instruction to compare "
                       "Tuesday with Wednesday and computes 18 - 9 = 9. Every step matches; the final answer, "
                       "stated in Chinese as B, is correct."), []),
        "q005": ("A", (2, 0, 4, "The response reads the seven plotted values and even notes the narrator's extra "
                       "8 mm for Sunday, but then averages only the seven plotted values (42 / 7 = 6). The sum of "
                       "all eight values, the count of 8 and the mean 6.25 are missing, so the answer A is wrong."),
                 [("Forgetting earlier context", "Step 2 records the narrator's extra 8 mm value, but step 3 "
                   "averages only the seven plotted values, dropping the value it had just noted."),
                  ("Misunderstanding the problem", "The question asks for the mean including the extra "
                   "measurement; the final average answers a different question, the mean of the plotted "
                   "days.")]),
        "q006": ("A", (5, 1, 10, "The response solves 3x + 5 = 26 for x = 7 and applies the narrator's instruction "
                       "to double x and subtract 5. All steps match; it states the value 9 rather than the letter, "
                       "and 9 is option A, which is correct."), []),
        "q007": ("C", (4, 1, 10, "The response states the handshake rule, counts the nine drawn edges and adds the "
                       "edge D-A that the narrator only describes. With 10 edges the degree sum is 20, answer C, "
                       "matching every step."), []),
        "q008": ("B", (4, 1, 10, "The response counts the five lines from the apex, adds the narrator's sixth and "
                       "counts triangles as pairs of apex lines, C(6, 2) = 15. All four steps match and B is "
                       "correct."), []),
        "q009": ("E", (7, 1, 10, "The response counts the holes of each object on screen (7 in all) and adds the "
                       "narrator's scissors with 2 holes. All seven steps match and the total 9 (E) is "
                       "correct."), []),
        "q010": ("D", (5, 1, 10, "The response finds the growing gaps, identifies the n-th term as n(n + 1) and "
                       "evaluates it at the position the narrator asks for, 10 x 11 = 110. Every step matches and "
                       "D is correct."), []),
        "q011": ("B", (6, 1, 10, "The response uses the stated rates of both hands, finds the stop time 3:40 from "
                       "the minute hand on the 8, and places the hands at 240° and 110°. All six steps match and "
                       "130° (B) is correct."), []),
        "q012": (None, (0, 0, 0, "The response declines to answer, saying a value it needs is unclear, and gives no "
                        "reasoning about the graph. None of the four steps is attempted and there is no final "
                        "answer."),
                 [("Failing to retrieve relevant information", "The edges touching E (DE, EF, BE, CE) are drawn in "
                   "the video, but the response says the value it needs is unclear and stops without reading "
                   "them.")]),
    },
    "synthetic-model-b": {
        "q001": ("C", (5, 1, 10, "The response reproduces the full argument: the 40° angle at A, the isosceles "
                       "triangle from the narration, base angles of 70° and the exterior angle 180° - 70° = 110°. "
                       "Every step is matched and C is correct."), []),
        "q002": ("B", (2, 0, 4, "The response reads the rectangle and computes its 60 cm² area correctly, but "
                       "subtracts the square's side (3) instead of its area (9 cm²). The last three steps are not "
                       "matched, giving 57 cm² (B) instead of 51 cm²."),
                 [("Incorrect application of concepts", "It subtracts a length (the 3 cm side) from an area "
                   "(60 cm²), treating the side as if it were the square's area."),
                  ("Wrong strategy or formula", "The removed area should be 3 x 3 = 9 cm²; the response never "
                   "applies the area formula of the square.")]),
        "q003": ("E", (6, 1, 10, "The response applies the Pythagorean theorem to the garden's diagonal with the "
                       "labelled length and the narrated width. All six steps match; the final answer, given in "
                       "Chinese as E, is correct."), []),
        "q004": ("A", (2, 0, 5, "The response reads the bars correctly and even restates the narrator's instruction "
                       "to compare Tuesday with Wednesday, but then compares the tallest and the shortest bars "
                       "(21 - 9 = 12). The last two steps are not matched and the answer A is wrong."),
                 [("Misunderstanding the problem", "The question asks about the two days the narrator picks; the "
                   "response answers a different question, the gap between the tallest and shortest bars."),
                  ("Forgetting earlier context", "Step 2 says Tuesday and Wednesday are to be compared, yet step 3 "
                   "ignores this and uses Friday's bar.")]),
        "q005": ("D", (5, 1, 10, "The response includes the narrator's unplotted 8 mm value, sums all eight values "
                       "to 50 and divides by 8. Every step matches; it gives the value 6.25, which is option D and "
                       "correct."), []),
        "q006": ("A", (5, 1, 10, "The response solves the equation on the board for x = 7 and applies the spoken "
                       "instruction, 2 x 7 - 5 = 9. All five steps match and A is correct."), []),
        "q007": (None, (0, 0, 0, "The response gives up, saying a value it depends on is unclear. It neither counts "
                        "the drawn edges nor uses the handshake rule, so no step is matched and there is no final "
                        "answer."),
                 [("Failing to retrieve relevant information", "The nine drawn edges and the narrator's extra edge "
                   "D-A are both available, but the response does not look for them before giving up."),
                  ("Misinterpreting visuals", "It reports the frames as unclear although the edges are drawn one "
                   "by one and stay visible.")]),
        "q008": ("A", (3, 0, 7, "The response notes the narrator's extra line (6 lines from the apex) and uses the "
                       "right counting idea, pairs of apex lines, but applies it to the 5 drawn lines only: "
                       "C(5, 2) = 10. The final count contradicts its own step 2, so the answer A is wrong."),
                 [("Forgetting earlier context", "Step 2 counts 6 lines from the apex after the narrator's "
                   "addition, but step 3 computes C(5, 2) from the drawn figure only, losing the extra line.")]),
        "q009": ("E", (7, 1, 10, "The response counts the holes of all five objects on screen and adds the "
                       "narrator's scissors. Every step matches and the total 9 (E) is correct."), []),
        "q010": (None, (0, 0, 0, "The response declines to answer and does not engage with the sequence at all. No "
                        "step is matched and no final answer is given."),
                 [("Misinterpreting visuals", "The terms 2, 6, 12, 20, 30 are written on screen, yet the response "
                   "claims it cannot make out the value it depends on."),
                  ("Failing to retrieve relevant information", "It also misses the narrator's request for the 10th "
                   "term, so it never identifies which term is asked for.")]),
        "q011": ("D", (4, 0, 7, "The response reads the hand rates, the 3:00 start and the 3:40 stop, and places "
                       "the minute hand at 240°, but keeps the hour hand on the 3 (90°) instead of moving it to "
                       "110°. The last two steps fail and the answer D (150°) is wrong."),
                 [("Incorrect application of concepts", "It treats the hour hand as fixed on the 3 at 3:40, "
                   "although the hour hand also turns 0.5° per minute, to 110°."),
                  ("Forgetting earlier context", "The video's first part gives the 0.5° per minute rate, which the "
                   "response quotes in step 1 and then never uses.")]),
        "q012": ("A", (4, 1, 10, "The response lists the edges touching E and correctly leaves out the edge D-A "
                       "that is only described. All four steps match; the answer, given in Chinese as A, is "
                       "correct."), []),
    },
}


def _steps_reply(verdict: Verdict, total: int, gold: str) -> str:
    """A thinking-mode judge reply: brief reasoning, then the card."""
    letter, (matched, correct, score, critique), _ = verdict
    card = {"matched_steps": f"{matched}/{total}", "final_answer_correct": correct, "critique": critique,
            "score": score}
    given = letter or "no answer"
    thinking = (f"There are {total} ground-truth steps. Going through them, {matched} are carried out correctly in "
                f"the response, counting implied ones. Its final answer is {given}; the correct answer is {gold}. "
                f"Applying the rubric gives {score}.")
    return f"<think>\n{thinking}\n</think>\n\n{json.dumps(card, ensure_ascii=False)}"


def _errors_reply(verdict: Verdict) -> str:
    primary, *secondary = verdict[2]
    card = {"primary": {"category": primary[0], "rationale": primary[1]},
            "secondary": [{"category": name, "rationale": why} for name, why in secondary]}
    return f"The decisive error is: {primary[0].lower()}.\n{json.dumps(card, ensure_ascii=False)}"


def scripted_judge(run: str, cases: list) -> object:
    """The reply function for the fake server: which question and task a prompt is, then the written reply."""
    from core.judge import prompts

    by_text = {f"QUESTION:\n{c.question.question}\n": c for c in cases}

    def reply(recorded) -> str:
        text = recorded.text
        case = next(c for marker, c in by_text.items() if marker in text)
        verdict = VERDICTS[run][case.question.question_id]
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
    from fake_openai import FakeOpenAI

    from core.judge import cases_from_results, judge_cases, judge_endpoint, with_dataset_steps, write_judgments
    from core.judge.views import summary_lines
    from core.results import read_results

    written = []
    for run in RUNS:
        source = ROOT / "assets" / "demo" / "results" / f"videomathqa_mcq_{run}_samples.jsonl"
        result = read_results(source)
        cases, _ = with_dataset_steps(cases_from_results(result), result.benchmark, result.mode,
                                      str(ROOT / "assets" / "demo"))
        with FakeOpenAI(models=(JUDGE_MODEL,), reply=scripted_judge(run, cases)) as server:
            judged = judge_cases(cases, judge_endpoint(server.base_url, JUDGE_MODEL), benchmark=result.benchmark,
                                 tasks=("extract", "steps", "errors"), concurrency=4)
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
