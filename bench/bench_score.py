"""Time scoring of generated Video-MME result files: in process (split into read / extract / aggregate), as a
whole `mathreel score --json` process, and (optionally) the official Video-MME script on the same 2,700 answers.

    .venv/bin/python bench/bench_score.py [--repeats 5] [--no-large] [--official /tmp/eval_your_results.py]
    .venv/bin/python bench/bench_score.py --write-runs DIR [--runs 100]   # write many runs, time nothing

`--write-runs DIR` writes `--runs` runs over the same 2,700 questions (`generate_runs`: the realistic mix, then
each further run re-draws ~15% of its answers as another letter in the same style, seeded) as `run001.jsonl`...
and, beside each, `run001_template.json` (the same answers in the first-generation template the official script
reads), then stops; `bench_cli_cpu.py --together` times them in one process.

Targets (issue "Shared core scorer"): scoring 2,700 answers in process < 50 ms, 270,000 < 3 s, the whole
`mathreel score --json` process on 2,700 answers < 1 s. "Scoring" is `core.scoring.score(result)` on a file
already read; reading is timed on its own line.

Two kinds of file, each with 2,700 and 270,000 answers:

- "realistic mix": how models answer Video-MME's "answer with the option's letter" prompt (MIX below, in
  percent): mostly a letter in some dress ("B", "B.", "(B)", "B. <option text>", "The answer is B.",
  "Answer: B", "The best answer is: B"), some one-sentence answers and short reasoning ending in an answer
  phrase, a few that cannot be read (refusals, hedges, no letter);
- "worst case": every answer a distinct reasoning response of 3-6 sentences, so every one takes the full
  statement scan.

Every answer is to its own question (270,000 answers = 90,000 videos x 3 questions) with its own option texts,
and the longer answers quote those texts or a clip time of their own, so no memo can hide their cost: each goes
through the extractors. The short forms ("B", "B.", "The answer is B.") are read once per letter set, as in any
file (`core.scoring.reading_memo`: a reading that never looked at the option texts holds for every question).
"extract" is the robust extractor plus the official Video-MME one (run on every answer read, to count their
disagreements); "aggregate" is everything else in `score` (rows, memo look-ups, grouping, tables, intervals),
timed with the extractor call replaced by a constant reading.
Wall times depend on the machine's load: the script prints `os.getloadavg()` first and last.

The official script (eval_your_results.py from the Video-MME README's link) is not part of MathReel: save it
yourself and pass its path. Files are written to a temporary directory and removed afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from mathreel.core.benchmarks.videomme import DOMAINS, DURATIONS, SUB_CATEGORIES, TASK_TYPES

LETTERS = "ABCD"

# Percent of answers per style. {L}: the chosen letter; {T}: that option's text; {t}: the same in lower case;
# {time}: a clip time of the answer's own; {X}: another letter.
MIX: tuple[tuple[float, str], ...] = (
    (30, "{L}"),
    (10, "{L}."),
    (3, "({L})"),
    (2, "{L}\n"),
    (15, "{L}. {T}"),
    (2, "({L}) {T}"),
    (6, "The answer is {L}."),
    (4, "Answer: {L}"),
    (4, "The best answer is: {L}"),
    (3, "The best answer is {L}."),
    (2, "**{L}**"),
    (4, "The answer is {L}. {T}."),
    (5, "Based on the video, {t}. Therefore, the answer is {L}."),
    (3, "{L}. {T}. This is shown at {time} in the video."),
    (
        4,
        "The video shows that {t} at {time}.\nThe other options do not match what happens.\n"
        "Therefore, the final answer is ({L}).",
    ),
    (1, "I'm sorry, but I cannot determine this from the frames provided (checked up to {time})."),
    (1, "It is either {L} or {X}; the frames around {time} are unclear."),
    (1, "The frames up to {time} do not show enough to decide."),
)
# Reasoning sentences for the worst case: 3-6 of them, then a conclusion (or, for 5%, none).
SENTENCES = (
    "The video opens at {time} with a wide shot of the scene.",
    "Looking closely at the frames, {t}.",
    "The narrator mentions several details that help narrow down the choices.",
    "Option {X} does not match what happens later in the clip.",
    "There is a caption on screen around {time} that gives a hint.",
    "The people in the video react to what they see, which supports this reading.",
    "Comparing the options with the frames, only one fits every detail.",
)
CONCLUSIONS = (
    "Therefore, the answer is {L}.",
    "So the correct option is ({L}).",
    "The best answer is {L}.",
    "Hence I choose {L}.",
    "Final answer: {L}",
)
SUBJECTS = (
    "The man",
    "A woman",
    "The child",
    "Two players",
    "The chef",
    "The crowd",
    "A dog",
    "The host",
    "The narrator",
    "An old couple",
    "The team",
    "The driver",
)
VERBS = (
    "opens",
    "carries",
    "paints",
    "throws",
    "cooks",
    "repairs",
    "points at",
    "reads",
    "hides",
    "sells",
    "climbs",
    "cleans",
)
OBJECTS = (
    "a red box",
    "the bicycle",
    "an old map",
    "the white door",
    "a small boat",
    "the cake",
    "a guitar",
    "the blue car",
    "a wooden chair",
    "the window",
    "a basket of apples",
    "the trophy",
)


# Video-MME's sub-categories belong to one domain each, in this order: 9 Knowledge, 4 Film & Television,
# 5 Sports Competition, 5 Artistic Performance, 6 Life Record, 1 Multilingual.
_DOMAIN_SIZES = (9, 4, 5, 5, 6, 1)
DOMAIN_OF = {
    sub: domain
    for domain, start, size in zip(DOMAINS, (0, 9, 13, 18, 23, 29), _DOMAIN_SIZES, strict=True)
    for sub in SUB_CATEGORIES[start : start + size]
}


def _option(rng: random.Random) -> str:
    """An option text like Video-MME's, with a count that makes it (almost always) unique to its question."""
    return f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} {rng.randint(2, 999)} times"


def _clip_time(number: int) -> str:
    hours, rest = divmod(number, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"


def _fill(template: str, letter: str, other: str, text: str, number: int) -> str:
    return template.format(L=letter, X=other, T=text, t=text[0].lower() + text[1:], time=_clip_time(number))


StyleCase = tuple[str, tuple[str, ...], dict[str, str]]  # response, letters, option texts


def style_cases(count: int, seed: int = 7) -> list[tuple[float, str, list[StyleCase]]]:
    """(share, template, cases) for each style of MIX: `count` responses each, with random option texts, the shared
    cases of bench_extract's per-style timings and bench_reader_cost's instruction counts."""
    rng = random.Random(seed)
    styles = []
    for share, template in MIX:
        cases = []
        for number in range(count):
            texts = [_option(rng) for _ in LETTERS]
            letter = rng.choice(LETTERS)
            other = rng.choice([c for c in LETTERS if c != letter])
            response = _fill(template, letter, other, texts[LETTERS.index(letter)], number)
            cases.append((response, tuple(LETTERS), dict(zip(LETTERS, texts, strict=True))))
        styles.append((share, template, cases))
    return styles


def mixed_response(rng: random.Random, letter: str, other: str, text: str, number: int) -> str:
    """One answer in a style drawn from MIX."""
    template = rng.choices([t for _, t in MIX], weights=[w for w, _ in MIX])[0]
    return _fill(template, letter, other, text, number)


def reasoning_response(rng: random.Random, letter: str, other: str, text: str, number: int) -> str:
    """A distinct multi-sentence response (the worst case): 3-6 reasoning sentences and, mostly, a conclusion."""
    sentences = rng.sample(SENTENCES, rng.randint(3, 6))
    if rng.random() < 0.95:
        sentences.append(rng.choice(CONCLUSIONS))
    return " ".join(_fill(s, letter, other, text, number) for s in sentences)


Responder = Callable[[random.Random, str, str, str, int], str]


def generate_videos(n_videos: int, seed: int, respond: Responder) -> list[dict]:
    """Video-MME template records: videos (split evenly over durations) with 3 questions each, one answer each,
    right about 60% of the time."""
    rng = random.Random(seed)
    videos = []
    for v in range(n_videos):
        questions = []
        for k in range(1, 4):
            texts = [_option(rng) for _ in LETTERS]
            gold = rng.choice(LETTERS)
            pick = gold if rng.random() < 0.6 else rng.choice(LETTERS)
            other = rng.choice([c for c in LETTERS if c != pick])
            response = respond(rng, pick, other, texts[LETTERS.index(pick)], 3 * v + k)
            questions.append(
                {
                    "question_id": f"{v:06d}-{k}",
                    "task_type": rng.choice(TASK_TYPES),
                    "question": f"Question {k} about video {v}?",
                    "answer": gold,
                    "options": [f"{c}. {t}" for c, t in zip(LETTERS, texts, strict=True)],
                    "response": response,
                }
            )
        sub_category = rng.choice(SUB_CATEGORIES)
        videos.append(
            {
                "video_id": f"{v:06d}",
                "duration": DURATIONS[v % 3],
                "domain": DOMAIN_OF[sub_category],
                "sub_category": sub_category,
                "questions": questions,
            }
        )
    return videos


def write_jsonl(videos: list[dict], path: Path) -> Path:
    """The same answers as plain JSONL rows (question_id, response, answer, options, dimensions, videoID)."""
    with path.open("w", encoding="utf-8") as out:
        for video in videos:
            for q in video["questions"]:
                row = {
                    **q,
                    "videoID": video["video_id"],
                    "duration": video["duration"],
                    "domain": video["domain"],
                    "sub_category": video["sub_category"],
                }
                out.write(json.dumps(row) + "\n")
    return path


def generate_runs(n_runs: int, seed: int, n_videos: int = 900, redraw: float = 0.15) -> list[list[dict]]:
    """`n_runs` runs over the same questions, as an ablation's runs are: the first is the realistic mix
    (`generate_videos(n_videos, seed, mixed_response)`); each further run re-draws about `redraw` of the first's
    answers as another letter in the same response style (same template, clip time and other letter), seeded
    by `seed` and the run's number."""
    styles: list[tuple[str, str, str, int]] = []  # per answer, in order: template, letter, other letter, clip number

    def recording(rng: random.Random, letter: str, other: str, text: str, number: int) -> str:
        template = rng.choices([t for _, t in MIX], weights=[w for w, _ in MIX])[0]
        styles.append((template, letter, other, number))
        return _fill(template, letter, other, text, number)

    base = generate_videos(n_videos, seed, recording)
    runs = [base]
    for run in range(1, n_runs):
        rng = random.Random(seed * 1_000_003 + run)
        index = 0
        videos = []
        for video in base:
            questions = []
            for q in video["questions"]:
                template, first, other, number = styles[index]
                index += 1
                if rng.random() < redraw:
                    letter = rng.choice([c for c in LETTERS if c != first])
                    text = q["options"][LETTERS.index(letter)][3:]
                    q = {**q, "response": _fill(template, letter, other, text, number)}
                questions.append(q)
            videos.append({**video, "questions": questions})
        runs.append(videos)
    return runs


def write_template(videos: list[dict], path: Path) -> Path:
    """The same answers in the first-generation Video-MME template, which both the official script and MathReel
    read: `duration_category`, `video_category`, `video_subcategory`, and `choices` per question."""
    rows = [
        {
            "video_id": video["video_id"],
            "duration_category": video["duration"],
            "video_category": video["domain"],
            "video_subcategory": video["sub_category"],
            "questions": [
                {
                    "question_id": q["question_id"],
                    "task_type": q["task_type"],
                    "question": q["question"],
                    "choices": q["options"],
                    "answer": q["answer"],
                    "response": q["response"],
                }
                for q in video["questions"]
            ],
        }
        for video in videos
    ]
    path.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return path


def write_runs(folder: Path, n_runs: int, seed: int = 5) -> list[Path]:
    """`generate_runs` written as `run001.jsonl`... and, beside each, `run001_template.json` (the same answers in
    the first-generation template); the JSONL paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number, videos in enumerate(generate_runs(n_runs, seed), 1):
        paths.append(write_jsonl(videos, folder / f"run{number:03d}.jsonl"))
        write_template(videos, folder / f"run{number:03d}_template.json")
    return paths


CLOCK = time.perf_counter  # --cpu: time.process_time, steadier than wall time on a loaded machine


def best_of(repeats: int, action: Callable[[], object]) -> tuple[float, object]:
    """Fastest time of `repeats` calls (seconds, wall or with --cpu CPU) and the last result."""
    times, result = [], None
    for _ in range(repeats):
        start = CLOCK()
        result = action()
        times.append(CLOCK() - start)
    return min(times), result


def in_process(path: Path, repeats: int) -> dict[str, float]:
    """Best-of-`repeats` times: read, score, and score's split into extraction and aggregation.

    Aggregation is timed by scoring with the extractor call (`verdict._read_choice_answer`) replaced by a
    constant reading; extraction is the rest of the score time.
    """
    from mathreel.core.extract import extract_choice
    from mathreel.core.results import read_results
    from mathreel.core.scoring import score, verdict

    read_time, result = best_of(repeats, lambda: read_results(path))
    score_time, report = best_of(repeats, lambda: score(result))
    real = verdict._read_choice_answer
    constant = (extract_choice("A"), "A", False)
    verdict._read_choice_answer = lambda response, choices, tool, use_official: constant
    try:
        aggregate_time, _ = best_of(repeats, lambda: score(result))
    finally:
        verdict._read_choice_answer = real
    distinct = len({(p.response, p.question.options) for p in result.predictions})
    return {
        "answers": len(result.predictions),
        "distinct": distinct,
        "read_s": read_time,
        "score_s": score_time,
        "aggregate_s": aggregate_time,
        "extract_s": max(score_time - aggregate_time, 0.0),
        "accuracy": report.overall.accuracy,
        "unparsed": len(report.unparsed),
        "disagreements": len(report.disagreements),
    }


def process_time(args: list[str], repeats: int) -> tuple[float, str]:
    """Median time of a whole process (wall, or with --cpu its user + system CPU), and its stdout."""
    times, out = [], ""
    for _ in range(repeats):
        start, cpu = time.perf_counter(), children_cpu()
        run = subprocess.run(args, capture_output=True, text=True, check=True)
        times.append(children_cpu() - cpu if CLOCK is time.process_time else time.perf_counter() - start)
        out = run.stdout
    return statistics.median(times), out


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--official", type=Path, help="path to the official eval_your_results.py")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-large", action="store_true", help="skip the 270,000-answer files")
    parser.add_argument("--cpu", action="store_true", help="report CPU time instead of wall time")
    parser.add_argument("--write-runs", type=Path, metavar="DIR", help="write many runs to DIR and stop")
    parser.add_argument("--runs", type=int, default=100, help="with --write-runs: how many runs")
    args = parser.parse_args()
    if args.write_runs:
        paths = write_runs(args.write_runs, args.runs)
        print(f"{len(paths)} runs of 2,700 answers written to {args.write_runs} (JSONL and template each)")
        return
    global CLOCK
    if args.cpu:
        CLOCK = time.process_time
    print(f"times are {'CPU' if args.cpu else 'wall'} seconds")
    mathreel = str(Path(sys.executable).with_name("mathreel"))
    print(f"load average (1, 5, 15 min): {load()} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        small_videos = generate_videos(900, 1, mixed_response)
        worst_videos = generate_videos(900, 2, reasoning_response)
        files = [
            ("2,700 realistic mix", write_jsonl(small_videos, tmp / "mix_2700.jsonl"), args.repeats),
            ("2,700 worst case", write_jsonl(worst_videos, tmp / "worst_2700.jsonl"), args.repeats),
        ]
        if not args.no_large:
            files += [
                (
                    "270,000 realistic mix",
                    write_jsonl(generate_videos(90_000, 3, mixed_response), tmp / "mix_270000.jsonl"),
                    2,
                ),
                (
                    "270,000 worst case",
                    write_jsonl(generate_videos(90_000, 4, reasoning_response), tmp / "worst_270000.jsonl"),
                    1,
                ),
            ]
        template = tmp / "videomme_2700_template.json"
        template.write_text(json.dumps(small_videos), encoding="utf-8")

        for label, path, repeats in files:
            f = in_process(path, repeats)
            ms = {key: f"{value * 1000:.0f} ms" for key, value in f.items() if key.endswith("_s")}
            print(
                f"in process, {label} ({f['distinct']:,} distinct (response, options)): read {ms['read_s']}; score "
                f"{ms['score_s']} = extract {ms['extract_s']} + aggregate {ms['aggregate_s']}; read + score "
                f"{(f['read_s'] + f['score_s']) * 1000:.0f} ms (best of {repeats}); accuracy {f['accuracy']:.2f}%, "
                f"{f['unparsed']:,} unparsed, {f['disagreements']:,} robust-vs-official disagreements"
            )
        for label, path, repeats in files[:3]:
            seconds, _ = process_time([mathreel, "score", str(path), "--json"], repeats)
            print(f"mathreel score --json, {label}: {seconds:.3f} s whole process (median of {repeats})")
        seconds, _ = process_time([mathreel, "score", str(files[0][1]), "--json", "--rows"], args.repeats)
        print(
            f"mathreel score --json --rows, 2,700 realistic mix: {seconds:.3f} s whole process "
            f"(median of {args.repeats})"
        )

        ours_s, ours = process_time(
            [mathreel, "score", str(template), "--json", "--extractor", "official"], args.repeats
        )
        ours_accuracy = json.loads(ours)["overall"]["accuracy"]
        print(
            f"mathreel score --json --extractor official on the 2,700 template: {ours_s:.3f} s, "
            f"overall {ours_accuracy:.1f}%"
        )
        if args.official:
            official_s, printed = process_time(
                [
                    sys.executable,
                    str(args.official),
                    "--results_file",
                    str(template),
                    "--video_duration_type",
                    "short,medium,long",
                    "--return_categories_accuracy",
                    "--return_sub_categories_accuracy",
                    "--return_task_types_accuracy",
                ],
                args.repeats,
            )
            overall = re.findall(r"Overall:\s*([\d.]+)%", printed)[-1]
            print(f"official eval_your_results.py on the same 2,700 template: {official_s:.3f} s, overall {overall}%")
    print(f"load average at the end: {load()}")


if __name__ == "__main__":
    main()
