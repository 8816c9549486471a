"""Time scoring of generated Video-MME result files: in process, as a whole `mathreel score --json` process,
and (optionally) the official Video-MME script on the same 2,700 answers.

    .venv/bin/python bench/bench_score.py [--official /tmp/eval_your_results.py] [--repeats 5]

The official script (eval_your_results.py from the Video-MME README's link) is not part of MathReel: save it
yourself and pass its path. Files are written to a temporary directory and removed afterwards.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from core.benchmarks.videomme import DOMAINS, DURATIONS, SUB_CATEGORIES, TASK_TYPES

LETTERS = "ABCD"
STYLES = (
    "{letter}",
    "{letter}. {text}",
    "The best answer is {letter}.",
    "Answer: {letter}",
    "Based on the video, the person first {text_lower} and then leaves. Therefore the answer is ({letter}).",
    "I cannot determine the answer from the video.",
)


def generate_videos(n_videos: int, seed: int, runs: int = 1) -> list[dict]:
    """Video-MME template records: videos (split evenly over durations) with 3 questions each.

    With runs > 1 the same questions are answered again by further runs (a pooled file: Video-MME has only
    2,700 questions, so a 270,000-answer file is 100 runs of them); ids get a run prefix to stay unique.
    """
    rng = random.Random(seed)
    base = []
    for v in range(n_videos):
        questions = [{"question_id": f"{v:06d}-{k}", "task_type": rng.choice(TASK_TYPES),
                      "question": f"Question {k} about video {v}?", "answer": rng.choice(LETTERS),
                      "options": [f"{c}. option {c.lower()} number {rng.randint(1, 99)}" for c in LETTERS]}
                     for k in range(1, 4)]
        base.append({"video_id": f"{v:06d}", "duration": DURATIONS[v % 3], "domain": rng.choice(DOMAINS),
                     "sub_category": rng.choice(SUB_CATEGORIES), "questions": questions})
    videos = []
    for run in range(runs):
        prefix = f"r{run}-" if runs > 1 else ""
        for video in base:
            answered = [dict(q, question_id=prefix + q["question_id"], response=_response(rng, q))
                        for q in video["questions"]]
            videos.append({**video, "video_id": prefix + video["video_id"], "questions": answered})
    return videos


def _response(rng: random.Random, question: dict) -> str:
    """A response in one of several realistic styles, right about 60% of the time."""
    pick = question["answer"] if rng.random() < 0.6 else rng.choice(LETTERS)
    text = question["options"][LETTERS.index(pick)][3:]
    return rng.choice(STYLES).format(letter=pick, text=text, text_lower=text.lower())


def write_jsonl(videos: list[dict], path: Path) -> Path:
    """The same answers as plain JSONL rows (question_id, response, answer, options, dimensions, videoID)."""
    with path.open("w", encoding="utf-8") as out:
        for video in videos:
            for q in video["questions"]:
                row = {**q, "videoID": video["video_id"], "duration": video["duration"], "domain": video["domain"],
                       "sub_category": video["sub_category"]}
                out.write(json.dumps(row) + "\n")
    return path


def best_of(repeats: int, action) -> tuple[float, object]:
    """Fastest wall time of `repeats` calls (seconds) and the last result."""
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - start)
    return min(times), result


def in_process(path: Path, repeats: int) -> dict[str, float]:
    from core.results import read_results
    from core.scoring import score

    read_time, result = best_of(repeats, lambda: read_results(path))
    score_time, report = best_of(repeats, lambda: score(result))
    return {"answers": len(result.predictions), "read_s": read_time, "score_s": score_time,
            "accuracy": report.overall.accuracy}


def process_time(args: list[str], repeats: int) -> tuple[float, str]:
    """Median wall time of a whole process, and its stdout."""
    times, out = [], ""
    for _ in range(repeats):
        start = time.perf_counter()
        run = subprocess.run(args, capture_output=True, text=True, check=True)
        times.append(time.perf_counter() - start)
        out = run.stdout
    return statistics.median(times), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--official", type=Path, help="path to the official eval_your_results.py")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    mathreel = str(Path(sys.executable).with_name("mathreel"))
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        small_videos = generate_videos(900, seed=1)
        small = write_jsonl(small_videos, tmp / "videomme_2700.jsonl")
        large = write_jsonl(generate_videos(900, seed=2, runs=100), tmp / "videomme_270000.jsonl")
        template = tmp / "videomme_2700_template.json"
        template.write_text(json.dumps(small_videos), encoding="utf-8")

        for label, path, repeats in (("2,700", small, args.repeats), ("270,000", large, 2)):
            figures = in_process(path, repeats)
            print(f"in process, {label} answers: read {figures['read_s'] * 1000:.0f} ms, "
                  f"score {figures['score_s'] * 1000:.0f} ms (best of {repeats}), accuracy {figures['accuracy']:.2f}%")
        for label, path, repeats in (("2,700", small, args.repeats), ("270,000", large, 1)):
            seconds, _ = process_time([mathreel, "score", str(path), "--json"], repeats)
            print(f"mathreel score --json, {label} answers: {seconds:.3f} s whole process (median of {repeats})")

        ours_s, ours = process_time([mathreel, "score", str(template), "--json", "--extractor", "official"],
                                    args.repeats)
        ours_accuracy = json.loads(ours)["overall"]["accuracy"]
        print(f"mathreel score --json --extractor official on the 2,700 template: {ours_s:.3f} s, "
              f"overall {ours_accuracy:.1f}%")
        if args.official:
            official_s, printed = process_time(
                [sys.executable, str(args.official), "--results_file", str(template), "--video_duration_type",
                 "short,medium,long", "--return_categories_accuracy", "--return_sub_categories_accuracy",
                 "--return_task_types_accuracy"], args.repeats)
            overall = re.findall(r"Overall:\s*([\d.]+)%", printed)[-1]
            print(f"official eval_your_results.py on the same 2,700 template: {official_s:.3f} s, overall {overall}%")


if __name__ == "__main__":
    main()
