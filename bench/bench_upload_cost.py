"""Measure what reading and scoring an upload really costs, per container and size, against `core.cost.upload_cost`.

Each file (Video-MME answers as JSON, JSON Lines, CSV, parquet and a VLMEvalKit-shaped xlsx, at several sizes) is
read and scored in a fresh process; the CPU time and the peak memory added over a process that only imported the
same modules are set beside the estimate. The constants in core/cost.py come from this table (with a margin).

    PYTHONPATH=. .venv/bin/python bench/bench_upload_cost.py [--answers 2700,27000,135000] [--xlsx-only] [--phrases]

It also reads the same VLMEvalKit-shaped .xlsx files the way MathReel read them before its streamed reader
(pandas.read_excel with openpyxl, then records) and with `core.results.xlsx`, each in a fresh process: a cheap
workbook must not pay for the limits.

`--phrases`: a 12-answer Video-MME run one of whose responses is 1 MB of a repeated unit ("The answer is ",
"answer ", "B is ", plain prose ...), read and scored in a fresh process, beside the count of "answer", "option"
and "correct" in the file and the estimate: the letter reader's cost per such word
(`core.cost.SECONDS_PER_ANSWER_WORD`).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))

CHILD = r"""
import json, sys, time
from mathreel.core.results import read_results
from mathreel.core.scoring import score
import mathreel.core.results.xlsx, pyarrow.parquet  # imported by the baseline too

def peak_kb():  # VmHWM: this process's own peak (ru_maxrss after fork+exec may carry the parent's)
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))

start = time.process_time()
if sys.argv[1] != "-":
    score(read_results(sys.argv[1]))
print(json.dumps({"cpu": time.process_time() - start, "peak_kb": peak_kb()}))
"""


def write_files(answers: int, folder: Path) -> dict[str, Path]:
    """The same answers in each container."""
    import pandas as pd
    from bench_score import generate_videos, mixed_response, write_jsonl

    videos = generate_videos(max(1, answers // 3), seed=7, respond=mixed_response)
    rows = [
        {
            **q,
            "videoID": v["video_id"],
            "duration": v["duration"],
            "domain": v["domain"],
            "sub_category": v["sub_category"],
        }
        for v in videos
        for q in v["questions"]
    ]
    paths = {"jsonl": write_jsonl(videos, folder / f"a{answers}.jsonl")}
    paths["json"] = folder / f"a{answers}.json"
    paths["json"].write_text(json.dumps(videos))
    paths["csv"] = folder / f"a{answers}.csv"
    with paths["csv"].open("w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows({**r, "options": json.dumps(r["options"])} for r in rows)
    frame = pd.DataFrame([{**r, "options": json.dumps(r["options"])} for r in rows])
    paths["parquet"] = folder / f"a{answers}.parquet"
    frame.to_parquet(paths["parquet"])
    vlm = pd.DataFrame(
        [
            {
                "index": i,
                "video": r["videoID"],
                "duration": r["duration"],
                "domain": r["domain"],
                "sub_category": r["sub_category"],
                "task_type": r["task_type"],
                "question": r["question"],
                "candidates": str(r["options"]),
                "answer": r["answer"],
                "prediction": r["response"],
            }
            for i, r in enumerate(rows)
        ]
    )
    paths["xlsx"] = folder / f"a{answers}_Video-MME.xlsx"
    vlm.to_excel(paths["xlsx"], index=False, engine="openpyxl")
    return paths


READ_XLSX = r"""
import io, json, sys, time
import pandas
from mathreel.core.results.xlsx import xlsx_records

def peak_kb():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))

data = open(sys.argv[2], "rb").read()
start = time.process_time()
if sys.argv[1] == "pandas":  # what load.py did before: read_excel, NaN to None, records
    import openpyxl
    frame = pandas.read_excel(io.BytesIO(data), sheet_name=0, engine="openpyxl")
    records = frame.astype(object).where(frame.notna(), None).to_dict("records")
elif sys.argv[1] == "streamed":
    records = xlsx_records(data, sys.argv[2])
print(json.dumps({"cpu": time.process_time() - start, "peak_kb": peak_kb()}))
"""


def measure(path: Path | str, child: str = CHILD, *before: str) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", child, *before, str(path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
        check=True,
    )
    return json.loads(done.stdout)


def compare_xlsx(answers: list[int], folder: Path) -> None:
    """The old pandas + openpyxl read against the streamed reader on the same workbooks (CPU s, MB over a process
    that imported the same modules)."""
    from helpers.xlsx_files import vlmevalkit

    print("\n| VLMEvalKit .xlsx | rows | size | pandas + openpyxl CPU s | streamed CPU s | pandas MB | streamed MB |")
    print("|---|---|---|---|---|---|---|")
    for rows in answers:
        path = folder / f"vlm{rows}.xlsx"
        path.write_bytes(vlmevalkit(rows))
        base = measure(path, READ_XLSX, "none")["peak_kb"]
        old, new = measure(path, READ_XLSX, "pandas"), measure(path, READ_XLSX, "streamed")
        print(
            f"| Video-MME shaped | {rows:,} | {path.stat().st_size / 2**20:.1f} MB | {old['cpu']:.2f} | "
            f"{new['cpu']:.2f} | {(old['peak_kb'] - base) / 1024:.0f} | {(new['peak_kb'] - base) / 1024:.0f} |",
            flush=True,
        )


PHRASE_UNITS = ("The answer is ", "answer ", "Answer: B. ", "B is ", "the correct option is (B) ", "Reasoning. ")


def phrases(folder: Path) -> None:
    """CPU of reading and scoring a run whose one response is 1 MB of each unit, per "answer", "option" or
    "correct" in the file."""
    from helpers import badinputs

    from mathreel.core.cost import upload_cost

    baseline = measure("-")["cpu"]
    print('\n| 1 MB response of | "answer", "option", "correct" | measured CPU s | s per word | estimate s | cheap |')
    print("|---|---|---|---|---|---|")
    for unit in PHRASE_UNITS:
        records = badinputs.run_records(12, 7)
        records[0]["response"] = unit * (1_000_000 // len(unit))
        path = folder / "phrases.jsonl"
        data = badinputs.jsonl(records)
        path.write_bytes(data)
        cpu = measure(path)["cpu"] - baseline
        count = sum(data.count(word) for word in (b"nswer", b"NSWER", b"ption", b"PTION", b"orrect", b"ORRECT"))
        cost = upload_cost(path)
        print(
            f"| {unit!r} | {count:,} | {cpu:.2f} | {cpu / max(count, 1) * 1e6:.1f} us | {cost.seconds:.2f} | "
            f"{cost.cheap} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", default="2700,27000,135000")
    parser.add_argument("--xlsx-only", action="store_true", help="only the pandas / streamed xlsx comparison")
    parser.add_argument("--phrases", action="store_true", help="only responses made of answer phrases")
    args = parser.parse_args()
    from mathreel.core.cost import upload_cost

    if args.phrases:
        with tempfile.TemporaryDirectory() as temp:
            phrases(Path(temp))
        return

    print(f"load {os.getloadavg()[0]:.1f}")
    sizes = [int(a) for a in args.answers.split(",")]
    with tempfile.TemporaryDirectory() as temp:
        compare_xlsx(sizes, Path(temp))
    if args.xlsx_only:
        return
    baseline = measure("-")
    print("| container | answers | size | work | measured CPU s | estimate s | measured MB | estimate MB | cheap |")
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as temp:
        for answers in sizes:
            for kind, path in write_files(answers, Path(temp)).items():
                got = measure(path)
                cost = upload_cost(path)
                added = max(0.0, (got["peak_kb"] - baseline["peak_kb"]) / 1024)
                size, work = path.stat().st_size / 2**20, cost.work_bytes / 2**20
                print(
                    f"| {kind} | {answers:,} | {size:.1f} MB | {work:.1f} MB | {got['cpu']:.2f} | {cost.seconds:.2f} "
                    f"| {added:.0f} | {cost.memory_mb:.0f} | {cost.cheap} |",
                    flush=True,
                )
    print(f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
