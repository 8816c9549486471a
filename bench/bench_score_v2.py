"""Time scoring a 3,200-answer Video-MME-v2 file with every breakdown (group scores by kind, level and both heads,
per-question tables, intervals) against a 2,700-answer Video-MME file, in process and as a whole
`mathreel score --json` process.

    PYTHONPATH=. .venv/bin/python bench/bench_score_v2.py [--repeats 7] [--cpu]

Target (issue "Video-MME-v2 and the log formats people write today"): the v2 file within 1.5x of the v1 file. Both
files use bench_score.py's realistic answer mix (letters A-H for v2), every answer to its own question with its own
option texts; the v2 file is the official script's prediction TSV (multi-line quoted options), 800 groups of four,
the taxonomy as the dataset places it. `--extractor official` is timed too: it scores the groups three times (its
rules, then without each of them, to say what they changed). Wall times depend on the load, printed first and last.
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_score

LETTERS = "ABCDEFGH"
STRUCTURES = ("[1,2,3,4]", "[1,[2,3],4]", "[[1,2],3,4]")
COLUMNS = (
    "video_id",
    "url",
    "group_type",
    "group_structure",
    "question_id",
    "question",
    "options",
    "answer",
    "level",
    "second_head",
    "third_head",
    "index",
    "video",
    "prediction",
)


def write_v2(path: Path, groups: int, seed: int) -> Path:
    """The official prediction TSV of `groups` videos, answers in bench_score's realistic mix."""
    rng = random.Random(seed)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(COLUMNS)
        for g in range(groups):
            video = f"{g + 1:03d}"
            kind = "relevance" if rng.random() < 0.65 else "logic"
            structure, level = rng.choice(STRUCTURES), f"{float(rng.randint(1, 3))}"
            heads = (f"Second head {rng.randrange(10)}", f"Third head {rng.randrange(33)}")
            for k in range(1, 5):
                texts = [bench_score._option(rng) for _ in LETTERS]
                gold = rng.choice(LETTERS)
                pick = gold if rng.random() < 0.55 else rng.choice(LETTERS)
                other = rng.choice([c for c in LETTERS if c != pick])
                reply = bench_score.mixed_response(rng, pick, other, texts[LETTERS.index(pick)], 4 * g + k)
                tagged = kind == "relevance" or k == 4
                writer.writerow(
                    [
                        video,
                        "",
                        kind,
                        structure,
                        f"{video}-{k}",
                        f"Question {k} about video {video}?",
                        "\n".join(f"{c}. {t}" for c, t in zip(LETTERS, texts, strict=True)),
                        gold,
                        level if tagged else "",
                        heads[0] if tagged else "",
                        heads[1] if tagged else "",
                        4 * g + k - 1,
                        video,
                        reply,
                    ]
                )
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--cpu", action="store_true", help="report CPU time instead of wall time")
    args = parser.parse_args()
    if args.cpu:
        bench_score.CLOCK = time.process_time
    from mathreel.core.results import read_results
    from mathreel.core.scoring import score

    print(f"times are {'CPU' if args.cpu else 'wall'} seconds; load average {bench_score.load()}")
    mathreel = str(Path(sys.executable).with_name("mathreel"))
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        v1 = bench_score.write_jsonl(
            bench_score.generate_videos(900, 1, bench_score.mixed_response), tmp / "videomme_2700.jsonl"
        )
        v2 = write_v2(tmp / "Video-MME-v2_model_64frame.tsv", 800, 5)
        figures = {}
        for label, path in (("Video-MME, 2,700 answers", v1), ("Video-MME-v2, 3,200 answers", v2)):
            read_s, result = bench_score.best_of(args.repeats, lambda path=path: read_results(path))
            score_s, report = bench_score.best_of(args.repeats, lambda result=result: score(result))
            official_s, _ = bench_score.best_of(args.repeats, lambda result=result: score(result, "official"))
            whole_s, _ = bench_score.process_time([mathreel, "score", str(path), "--json"], args.repeats)
            figures[label] = (read_s + score_s, whole_s)
            groups = f", {len(report.groups.groups)} groups" if report.groups else ""
            print(
                f"{label}{groups}: read {read_s * 1000:.0f} ms + score {score_s * 1000:.0f} ms = "
                f"{(read_s + score_s) * 1000:.0f} ms in process (best of {args.repeats}); --extractor official "
                f"{official_s * 1000:.0f} ms; whole `mathreel score --json` {whole_s:.3f} s (median)"
            )
        (v1_in, v1_whole), (v2_in, v2_whole) = figures.values()
        print(f"v2 / v1: in process {v2_in / v1_in:.2f}x, whole process {v2_whole / v1_whole:.2f}x (target <= 1.5x)")
    print(f"load average {bench_score.load()}")


if __name__ == "__main__":
    main()
