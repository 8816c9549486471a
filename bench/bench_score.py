"""Time scoring of generated Video-MME result files: in process (split into read / extract / aggregate), as a
whole `mathreel score --json` process, and (optionally) the official Video-MME script on the same 2,700 answers.

    .venv/bin/python bench/bench_score.py [--official /tmp/eval_your_results.py] [--repeats 5]

Two 270,000-answer files: "pooled" repeats the 2,700 responses 100 times (scoring reads each identical
(response, options) pair once, so this measures the memo), "distinct" words every answer differently (a first
line with its own clip time), so every answer goes through the extractors: the honest figure for a file of
distinct responses. Wall times depend on the machine's load: the script prints `os.getloadavg()` first.

The official script (eval_your_results.py from the Video-MME README's link) is not part of MathReel: save it
yourself and pass its path. Files are written to a temporary directory and removed afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
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


# A first line naming a clip time unique to the answer, then the response itself (so the answer is read as before).
LEADS = (
    "Watched up to {time}.\n",
    "The key moment is at {time}.\n",
    "Frames checked until {time}.\n",
    "Relevant scene: {time}.\n",
    "Seen at {time} in the clip.\n",
)


def generate_videos(n_videos: int, seed: int, runs: int = 1, distinct: bool = False) -> list[dict]:
    """Video-MME template records: videos (split evenly over durations) with 3 questions each.

    With runs > 1 the same questions are answered again by further runs (a pooled file: Video-MME has only
    2,700 questions, so a 270,000-answer file is 100 runs of them); ids get a run prefix to stay unique.
    `distinct=True` gives every answer its own wording (a first line naming a clip time unique to the answer).
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
    answer_number = 0
    for run in range(runs):
        prefix = f"r{run}-" if runs > 1 else ""
        for video in base:
            answered = []
            for q in video["questions"]:
                response = _response(rng, q)
                if distinct:
                    response = _lead(rng, answer_number) + response
                answer_number += 1
                answered.append(dict(q, question_id=prefix + q["question_id"], response=response))
            videos.append({**video, "video_id": prefix + video["video_id"], "questions": answered})
    return videos


def _lead(rng: random.Random, number: int) -> str:
    """A first line whose clip time (h:mm:ss from the answer's number) makes the response unique."""
    hours, rest = divmod(number, 3600)
    return rng.choice(LEADS).format(time=f"{hours}:{rest // 60:02d}:{rest % 60:02d}")


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
    """Best-of-`repeats` times: read, score, and score's split into extraction and aggregation.

    Aggregation (per-row bookkeeping, grouping, tables, intervals) is timed by scoring with the extractor call
    replaced by a constant reading; extraction is the rest of the score time.
    """
    from core.results import read_results
    from core.scoring import score, scorer

    read_time, result = best_of(repeats, lambda: read_results(path))
    score_time, report = best_of(repeats, lambda: score(result))
    real = scorer._read_choice
    constant = (real("A", (("A", "B", "C", "D"), None), None)[0],) * 2
    scorer._read_choice = lambda response, choices, official: constant
    try:
        aggregate_time, _ = best_of(repeats, lambda: score(result))
    finally:
        scorer._read_choice = real
    distinct = len({(p.response, p.question.options) for p in result.predictions})
    return {"answers": len(result.predictions), "distinct": distinct, "read_s": read_time, "score_s": score_time,
            "aggregate_s": aggregate_time, "extract_s": max(score_time - aggregate_time, 0.0),
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
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average (1, 5, 15 min): {load} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        small_videos = generate_videos(900, seed=1, distinct=True)
        small = write_jsonl(small_videos, tmp / "videomme_2700.jsonl")
        pooled = write_jsonl(generate_videos(900, seed=2, runs=100), tmp / "videomme_270000_pooled.jsonl")
        distinct = write_jsonl(generate_videos(900, seed=2, runs=100, distinct=True),
                               tmp / "videomme_270000_distinct.jsonl")
        template = tmp / "videomme_2700_template.json"
        template.write_text(json.dumps(small_videos), encoding="utf-8")

        for label, path, repeats in (("2,700", small, args.repeats), ("270,000 pooled", pooled, 2),
                                     ("270,000 distinct", distinct, 1)):
            f = in_process(path, repeats)
            ms = {key: f"{value * 1000:.0f} ms" for key, value in f.items() if key.endswith("_s")}
            total = (f["read_s"] + f["score_s"]) * 1000
            print(f"in process, {label} answers ({f['distinct']:,} distinct responses): read {ms['read_s']} + score "
                  f"{ms['score_s']} (extract {ms['extract_s']}, aggregate {ms['aggregate_s']}) = {total:.0f} ms "
                  f"(best of {repeats}), accuracy {f['accuracy']:.2f}%")
        for label, path, repeats in (("2,700", small, args.repeats), ("270,000 pooled", pooled, 1),
                                     ("270,000 distinct", distinct, 1)):
            seconds, _ = process_time([mathreel, "score", str(path), "--json"], repeats)
            print(f"mathreel score --json, {label} answers: {seconds:.3f} s whole process (median of {repeats})")
        seconds, _ = process_time([mathreel, "score", str(small), "--json", "--rows"], args.repeats)
        print(f"mathreel score --json --rows, 2,700 answers: {seconds:.3f} s whole process (median of {args.repeats})")

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
