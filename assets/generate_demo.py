"""Generate MathReel's embedded demo set: the committed files under assets/demo/ come from this script.

    .venv/bin/python assets/generate_demo.py               # writes assets/demo
    .venv/bin/python assets/generate_demo.py --out DIR     # somewhere else
    .venv/bin/python assets/generate_demo.py --no-video    # everything except the MP4s (what the tests compare)

Everything is deterministic: the same code writes the same parquet, JSON, SRT, PNG and (with the same libx264)
MP4 bytes. The layout matches the real datasets', so the same loaders read the demo set and the real data.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "demo"

VIDEOMATHQA_COLUMNS = (
    "videoID",
    "question_id",
    "category",
    "question",
    "options",
    "answer",
    "steps",
    "length",
    "difficulty",
    "reasoning_type",
)
VIDEOMME_COLUMNS = (
    "video_id",
    "duration",
    "domain",
    "sub_category",
    "url",
    "videoID",
    "question_id",
    "task_type",
    "question",
    "options",
    "answer",
)
LIST_COLUMNS = {"options", "steps"}


def _import_path() -> None:
    """Make `demo_generator` (beside this file) and `core` (the repository) importable when run as a script."""
    for path in (HERE, HERE.parent):
        if str(path) not in sys.path:
            sys.path.insert(0, str(path))


def write_text(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


def write_json(path: Path, data: Any) -> Path:
    return write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    return write_text(path, "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))


def write_parquet(path: Path, rows: list[dict], columns: tuple[str, ...]) -> Path:
    """A parquet file with an explicit string / list<string> schema (no pandas metadata, so bytes are stable)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema([(c, pa.list_(pa.string()) if c in LIST_COLUMNS else pa.string()) for c in columns])
    table = pa.Table.from_pylist([{c: row[c] for c in columns} for row in rows], schema=schema)
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path, compression="snappy")
    return path


def write_videomathqa(out: Path, clips: list, questions: list, with_video: bool) -> list[Path]:
    from demo_generator.clip import encode_clip, srt_text

    root = out / "videomathqa"
    written = [
        write_parquet(root / "videomathqa_mcq_test.parquet", [q.record() for q in questions], VIDEOMATHQA_COLUMNS),
        write_parquet(
            root / "videomathqa_mbin_test.parquet",
            [r for q in questions for r in q.binary_records()],
            VIDEOMATHQA_COLUMNS,
        ),
    ]
    for clip in clips:
        written.append(write_text(root / "subtitles" / f"{clip.video_id}.srt", srt_text(clip.cues)))
        if with_video:
            written.append(encode_clip(clip, root / "videos" / f"{clip.video_id}.mp4"))
    return written


def write_videomme(out: Path, videos: list, with_video: bool) -> list[Path]:
    from demo_generator.clip import encode_clip, srt_text

    root = out / "videomme"
    rows = [row for video in videos for row in video.records()]
    written = [write_parquet(root / "videomme" / "test-00000-of-00001.parquet", rows, VIDEOMME_COLUMNS)]
    for video in videos:
        clip = video.clip
        written.append(write_text(root / "subtitle" / f"{clip.video_id}.srt", srt_text(clip.cues)))
        if with_video:
            written.append(encode_clip(clip, root / "data" / f"{clip.video_id}.mp4"))
    return written


def write_videomme_v2(out: Path, groups: list, with_video: bool) -> list[Path]:
    """The Video-MME-v2 layout: test.parquet at the root, videos/<id>.mp4, subtitle/<id>.jsonl (word level)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    from demo_generator.clip import encode_clip
    from demo_generator.videomme_v2 import COLUMNS, words

    root = out / "videomme-v2"
    schema = pa.schema([(c, pa.int64() if c == "level" else pa.string()) for c in COLUMNS])
    table = pa.Table.from_pylist([row for group in groups for row in group.records()], schema=schema)
    root.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, root / "test.parquet", compression="snappy")
    written = [root / "test.parquet"]
    for group in groups:
        written.append(write_jsonl(root / "subtitle" / f"{group.video_id}.jsonl", words(group.clip.cues)))
        if with_video:
            written.append(encode_clip(group.clip, root / "videos" / f"{group.video_id}.mp4"))
    return written


def write_mathverse(out: Path, problems: list, records: list[dict]) -> list[Path]:
    from demo_generator.mathverse import VERSIONS, render

    root = out / "mathverse"
    written = [write_json(root / "testmini.json", records)]
    for problem in problems:
        for version in VERSIONS:
            path = root / "images" / problem.image_name(version)
            if path not in written:
                path.parent.mkdir(parents=True, exist_ok=True)
                render(problem, version).save(path, format="PNG", optimize=True)
                written.append(path)
    return written


def write_results(
    out: Path, questions: list, videos: list, problems: list, records: list[dict], groups: list
) -> list[Path]:
    from demo_generator import runs

    root = out / "results"
    written = []
    for number, run in enumerate(runs.RUNS):
        doc_era = number == 0  # model A logs like older lmms-eval, model B like newer
        for mode in ("mcq", "mbin"):
            lines = runs.videomathqa_samples(questions, run, mode, doc_era)
            written.append(write_jsonl(root / f"videomathqa_{mode}_{run.name}_samples.jsonl", lines))
        entries = runs.videomme_results(videos, run)
        path = root / f"videomme_{run.name}_results.json"
        written.append(write_json(path, entries) if doc_era else write_text(path, runs.template_json(entries)))
        written.append(
            write_json(root / f"mathverse_{run.name}_output.json", runs.mathverse_output(records, problems, run))
        )
        if doc_era:  # model A writes the official v2 script's TSV, model B an lmms-eval 0.7 reasoning log
            written.append(
                write_text(root / f"videomme-v2_{run.name}_predictions.tsv", runs.v2_official_tsv(groups, run))
            )
        else:
            written.append(
                write_jsonl(
                    root / f"videomme-v2_{run.name}_samples_videomme_v2_reasoning.jsonl",
                    runs.v2_lmms_samples(groups, run),
                )
            )
    return written


def _tally(plan: tuple[tuple[str, str], ...]) -> str:
    counts = Counter(outcome for outcome, _ in plan)
    return f"{counts['ok']} right, {counts['slip']} wrong, {counts['refuse']} refused"


def readme(questions: list, videos: list, records: list[dict], groups: list) -> str:
    """assets/demo/README.md, with the counts read from the generated data."""
    from demo_generator import runs

    categories = sorted({q.category for q in questions})
    lengths = Counter(q.length for q in questions)
    mme_rows = [row for video in videos for row in video.records()]
    versions = Counter(r["problem_version"] for r in records)
    run_lines = "\n".join(
        f"| {run.name} | {_tally(run.videomathqa)} | {_tally(run.videomme)} | {_tally(run.videomme_v2)} | "
        f"{_tally(run.mathverse)} |"
        for run in runs.RUNS
    )
    kinds = ", ".join(f"{g.video_id} {g.kind if g.kind == 'relevance' else g.structure}" for g in groups)
    return f"""# MathReel demo set (synthetic)

Everything in this directory is **synthetic**: generated by `assets/generate_demo.py` from fixed parameters, so
MathReel works out of the box with no dataset download. No file here comes from VideoMathQA, Video-MME or
MathVerse; only the layouts, column names and label vocabularies are theirs, so the same loaders read this
directory and the real datasets. The answer to every question is computed from the same numbers that draw its
video or diagram.

Regenerate (deterministic: same code, same bytes):

    .venv/bin/python assets/generate_demo.py             # writes assets/demo
    .venv/bin/python assets/generate_demo.py --out DIR   # elsewhere; --no-video skips the MP4s

## Contents

- `videomathqa/`: {len(questions)} questions on {len({q.video_id for q in questions})} lesson videos (H.264, 640x360,
  2-4 fps) over {len(categories)} categories ({", ".join(categories)}); durations short {lengths["short"]},
  medium {lengths["medium"]}, long {lengths["long"]}. Frames change over time (a triangle drawn side by side, bars
  growing, equations written line by line, graph edges appearing one by one, a running clock) and each narration
  (`subtitles/*.srt`) says something the screen does not: a side length, which bars to compare, an extra edge.
  `videomathqa_mcq_test.parquet` has five options and 4-10 annotated steps per question;
  `videomathqa_mbin_test.parquet` is derived as the benchmark does it: the correct option against each of the four
  distractors, the correct one at A in pairs 1 and 3 and at B in pairs 2 and 4 (ids `<question_id>_<k>`).
- `videomme/`: {len(mme_rows)} questions on {len(videos)} generated scenes (a race, a recipe, orbiting planets, a
  short cartoon), all three durations, domains {", ".join(sorted({v.domain for v in videos}))}; the parquet has the
  lmms-lab/Video-MME columns, videos in `data/`, subtitles in `subtitle/`.
- `videomme-v2/`: {4 * len(groups)} questions in {len(groups)} groups of four, one of each kind and chain structure
  ({kinds}), eight options each; `test.parquet` has the dataset's columns (a logic group's level and heads on
  its last question only), videos in `videos/`, word-level subtitles in `subtitle/<id>.jsonl` (`text`,
  `start_time`, `end_time`), with pauses that show each segmentation rule. The head labels are made up.
- `mathverse/`: {len({r["problem_index"] for r in records})} problems in the five versions
  ({", ".join(f"{v} {n}" for v, n in versions.items())}) with PIL diagrams in `images/`; each version moves
  information from the text into the figure, Vision Only has an empty `question` and the whole problem in the image
  (`question_for_eval` keeps the text).
- `results/`: two synthetic prediction runs per benchmark in the native formats, model names `synthetic-model-a`
  (stronger) and `synthetic-model-b` (weaker) in every file name and record. VideoMathQA: lmms-eval
  `--log_samples` JSONL, model A in the older layout (`doc` + `resps`), model B in the newer one
  (`filtered_resps` + the `videomathqa_perception_score` dict, whose `pred_answer` is what the harness's own
  extractor makes of the response, mistakes included), each for MCQ and multi-binary. Video-MME: the official
  result template (model B keeps the template's trailing commas). MathVerse: the official output layout
  (`model_answer` added to each testmini record). Video-MME-v2: model A in the official script's prediction TSV
  (one refusal in a relevance group and one in a chain, where the script's -1 counts it right; one "Based on the
  video, the answer is F." that the script reads as B), model B as an lmms-eval 0.7 reasoning log (flattened
  `resps` with the `<think>` text beside `filtered_resps`, `doc_hash`, lines in the order two GPUs write them).
  Responses reason step by step and end in varied styles
  ("The answer is C", "**Answer:** (B)", `\\boxed{{B}}`, Chinese, the option text only, a refusal).
- `reviews/`: two scripted reviewers' reviews of the synthetic judgments of `synthetic-model-b` (written by
  `assets/make_demo_reviews.py` from `judgments/`): most verdicts confirmed, a few categories and step scores
  changed, two questions flagged; so the agreement view and `mathreel agreement` work with no setup.

| run | VideoMathQA MCQ | Video-MME | Video-MME-v2 | MathVerse |
|---|---|---|---|---|
{run_lines}
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Generate MathReel's synthetic demo set.")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory (default: assets/demo)")
    parser.add_argument("--no-video", action="store_true", help="skip encoding the MP4 files")
    args = parser.parse_args(argv)
    _import_path()
    from demo_generator import mathverse, videomathqa, videomme, videomme_v2
    from make_demo_reviews import write as write_reviews

    out: Path = args.out
    clips, questions = videomathqa.build()
    videos = videomme.build()
    groups = videomme_v2.build()
    problems = mathverse.build()
    records = mathverse.records(problems)
    with_video = not args.no_video
    written = [
        write_text(out / "README.md", readme(questions, videos, records, groups)),
        *write_videomathqa(out, clips, questions, with_video),
        *write_videomme(out, videos, with_video),
        *write_videomme_v2(out, groups, with_video),
        *write_mathverse(out, problems, records),
        *write_results(out, questions, videos, problems, records, groups),
        *write_reviews(out, HERE / "demo" / "judgments"),
    ]
    size = sum(p.stat().st_size for p in written)
    print(f"wrote {len(written)} files, {size / 1e6:.2f} MB, under {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
