"""Where the time goes when the page scores a 2,700-answer file in a child process (webapp.isolate), and what the
core side of it costs: reading and scoring in this process, pickling the report the child sends back, and the
whole isolated call, beside the call as the page made it before 2026-11-25 (the upload path a Gradio
`NamedString`, whose unpickling makes the child import Gradio).

Files: real-format ones written here (an lmms-eval 0.4 Video-MME log with `input` prompts, the first-generation
Video-MME template, 2,700 answers each), or real ones given with --files (e.g. the public files named in
bench/README.md).

    PYTHONPATH=. .venv/bin/python bench/bench_score_transfer.py [--repeats 5] [--files PATH ...]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import pickle
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

VIDEOS = 900
INSTRUCTION = (
    "Select the best answer to the following multiple-choice question based on the video and the "
    "subtitles. Respond with only the letter (A, B, C, or D) of the correct option."
)


def _questions(seed: int = 0) -> list[tuple[str, str, list[str], str, str]]:
    """(id, question, options, gold, response) for 900 videos x 3 questions, responses as real logs write them."""
    rng = random.Random(seed)
    words = [
        "video",
        "person",
        "table",
        "screen",
        "colour",
        "number",
        "left",
        "right",
        "first",
        "last",
        "shown",
        "speaker",
        "scene",
    ]
    rows = []
    for video in range(1, VIDEOS + 1):
        for k in (1, 2, 3):
            question = " ".join(rng.choice(words) for _ in range(rng.randint(8, 25))).capitalize() + "?"
            options = [
                f"{letter}. " + " ".join(rng.choice(words) for _ in range(rng.randint(1, 12))) + "."
                for letter in "ABCD"
            ]
            gold = rng.choice("ABCD")
            response = rng.choice([gold + ".", gold, rng.choice("ABCD") + ".", "!!!!!!!!"])
            rows.append((f"{video:03d}-{k}", question, options, gold, response))
    return rows


def write_lmms04(path: Path) -> Path:
    """An lmms-eval 0.4 `--log_samples` file: no doc, the metric dict, the prompt in `input`."""
    with path.open("w", encoding="utf-8") as out:
        for index, (qid, question, options, gold, response) in enumerate(_questions()):
            out.write(
                json.dumps(
                    {
                        "doc_id": index,
                        "target": gold,
                        "filtered_resps": [response],
                        "doc_hash": "0" * 64,
                        "videomme_perception_score": {
                            "question_id": qid,
                            "duration": "short",
                            "category": "Knowledge",
                            "sub_category": "Astronomy",
                            "task_category": "Counting Problem",
                            "pred_answer": response[:1],
                            "answer": gold,
                        },
                        "input": "\n".join([INSTRUCTION, question, *options, "The best answer is:"]),
                    }
                )
                + "\n"
            )
    return path


def write_template_gen1(path: Path) -> Path:
    """The first-generation official template (duration_category, video_category, choices)."""
    videos: dict[str, dict] = {}
    for qid, question, options, gold, response in _questions(1):
        video = videos.setdefault(
            qid[:3],
            {
                "video_id": qid[:3],
                "duration_category": "short",
                "video_category": "Knowledge",
                "video_subcategory": "Astronomy",
                "url": "https://example.invalid",
                "questions": [],
            },
        )
        video["questions"].append(
            {
                "question_id": qid,
                "task_type": "Counting Problem",
                "question": question,
                "choices": options,
                "answer": gold,
                "response": response,
            }
        )
    path.write_text(json.dumps(list(videos.values()), indent=4), encoding="utf-8")
    return path


def median_ms(fn: Callable[[], object], repeats: int, clock: Callable[[], float] = time.perf_counter) -> float:
    times = []
    for _ in range(repeats):
        start = clock()
        fn()
        times.append(clock() - start)
    return 1000 * statistics.median(times)


def as_the_page_sent_it(path: str) -> object:
    """A ScoreRequest holding the upload path as Gradio hands it over (a NamedString), bypassing the conversion
    to a plain str that ScoreRequest now makes: the request the page sent before."""
    from gradio.utils import NamedString

    from mathreel.core.scoring.files import ScoreRequest

    request = ScoreRequest(path)
    object.__setattr__(request, "path", NamedString(path))
    return request


def bench_file(path: Path, repeats: int) -> None:
    from mathreel.core.scoring.files import ScoreRequest, score_file
    from mathreel.webapp.isolate import DEFAULT_BUDGET, run_isolated

    request = ScoreRequest(str(path))
    report = score_file(request)
    data = pickle.dumps(report, protocol=pickle.HIGHEST_PROTOCOL)
    print(
        f"\n{path.name}: {path.stat().st_size / 1e6:.2f} MB, {report.overall.n} answers, "
        f"{len(report.rows)} rows; report pickle {len(data) / 1e6:.2f} MB"
    )
    cpu = time.process_time

    def unpickle_paused() -> None:
        gc.disable()
        try:
            pickle.loads(data)
        finally:
            gc.enable()

    for label, action in (
        ("read + score in process", lambda: score_file(request)),
        ("pickle the report", lambda: pickle.dumps(report, pickle.HIGHEST_PROTOCOL)),
        ("unpickle the report", lambda: pickle.loads(data)),
        ("unpickle, collector paused", unpickle_paused),
    ):
        print(f"  {label + ' (CPU)':44s}{median_ms(action, repeats, cpu):8.1f} ms")
    isolated = median_ms(lambda: run_isolated(score_file, (request,), DEFAULT_BUDGET, path.name), repeats)
    print(f"  {'isolated call, plain request (wall)':44s}{isolated:8.1f} ms")
    old = as_the_page_sent_it(str(path))
    before = median_ms(lambda: run_isolated(score_file, (old,), DEFAULT_BUDGET, path.name), repeats)
    print(f"  {'isolated call, path as a Gradio NamedString':44s}{before:8.1f} ms  (the page's call before)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--files", nargs="*", type=Path, default=None)
    args = parser.parse_args()
    from mathreel.webapp.isolate import warm_up

    warm_up()
    files = args.files
    if not files:
        folder = Path(tempfile.mkdtemp(prefix="mathreel-bench-transfer-"))
        files = [write_lmms04(folder / "samples_videomme.jsonl"), write_template_gen1(folder / "template.json")]
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    for path in files:
        bench_file(path, args.repeats)
    print(f"\nload average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
