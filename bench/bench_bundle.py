"""Time `mathreel bundle` and estimate the size of a full Video-MME bundle.

    PYTHONPATH=. .venv/bin/python bench/bench_bundle.py [--answers 2700] [--frames 8]

1. Every demo run, bundled per benchmark and mode (both runs of each; the VideoMathQA MCQ runs with their judge
   files and reviews), frames cold: a fresh, empty frame cache. Target: all of them in under 30 s.
2. A generated 2,700-answer Video-MME result file (900 videos x 3 questions, the current template) whose videos are
   not on this machine: its ids are Video-MME's own ("001-1"), which the demo set reuses for other questions, so
   the join rule shows each answer from its file, and the pages say the video is not here. Target: under 20 s.
3. The size of a 2,700-answer Video-MME bundle at `--frames` per question, from measured sizes: the mean demo
   thumbnail (what the issue asks for), and as a check the mean thumbnail of photographs (Gradio's sample images,
   busier than any lesson video) at the same size and quality; pages from the mean page of bundle 2.
   Target: under 150 MB.

Wall times depend on the machine's load: the script prints `os.getloadavg()` first and last.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "assets" / "demo"
R = DEMO / "results"
J = DEMO / "judgments"
DEMO_RUNS = [
    (
        "VideoMathQA MCQ",
        [R / "videomathqa_mcq_synthetic-model-a_samples.jsonl", R / "videomathqa_mcq_synthetic-model-b_samples.jsonl"],
        [
            J / "videomathqa_mcq_synthetic-model-a_judgments.jsonl",
            J / "videomathqa_mcq_synthetic-model-b_judgments.jsonl",
        ],
        [DEMO / "reviews" / "videomathqa_mcq_synthetic-model-b_reviews.jsonl"],
    ),
    (
        "VideoMathQA multi-binary",
        [
            R / "videomathqa_mbin_synthetic-model-a_samples.jsonl",
            R / "videomathqa_mbin_synthetic-model-b_samples.jsonl",
        ],
        [],
        [],
    ),
    (
        "Video-MME",
        [R / "videomme_synthetic-model-a_results.json", R / "videomme_synthetic-model-b_results.json"],
        [],
        [],
    ),
    (
        "Video-MME-v2",
        [
            R / "videomme-v2_synthetic-model-a_predictions.tsv",
            R / "videomme-v2_synthetic-model-b_samples_videomme_v2_reasoning.jsonl",
        ],
        [],
        [],
    ),
    (
        "MathVerse",
        [R / "mathverse_synthetic-model-a_output.json", R / "mathverse_synthetic-model-b_output.json"],
        [],
        [],
    ),
]


def bundle(paths: list[Path], judges: list[Path], reviews: list[Path], out: Path) -> tuple[float, object, object]:
    from mathreel.core.bundle import BundleRequest, plan_bundle, write_bundle

    start = time.perf_counter()
    plan = plan_bundle(BundleRequest(tuple(map(str, paths)), tuple(map(str, judges)), tuple(map(str, reviews))))
    written = write_bundle(plan, out)
    return time.perf_counter() - start, plan, written


def videomme_file(path: Path, answers: int) -> None:
    """A current-generation Video-MME template with `answers` answers (3 per video), realistic short responses."""
    rng = random.Random(0)
    videos = []
    for v in range(answers // 3):
        questions = []
        for k in range(3):
            gold = rng.choice("ABCD")
            pick = gold if rng.random() < 0.6 else rng.choice("ABCD")
            response = rng.choice(
                [
                    f"{pick}.",
                    f"The answer is {pick}.",
                    f"({pick}) seems right given the clip at {rng.randint(0, 3600)} s.",
                    f"Looking at the frames, the person walks left, so the best option is {pick}.",
                ]
            )
            questions.append(
                {
                    "question_id": f"{v + 1:03d}-{k + 1}",
                    "task_type": "Counting Problem",
                    "question": f"How many objects appear in scene {v}-{k}?",
                    "options": [f"A. {v}", f"B. {v + 1}", f"C. {v + 2}", f"D. {v + 3}"],
                    "answer": gold,
                    "response": response,
                }
            )
        videos.append(
            {
                "video_id": f"{v + 1:03d}",
                "duration": rng.choice(["short", "medium", "long"]),
                "domain": "Knowledge",
                "sub_category": "Humanity & History",
                "questions": questions,
            }
        )
    path.write_text(json.dumps(videos))


def photo_thumbnail_bytes() -> float:
    """Mean thumbnail size of Gradio's sample photographs, made as the bundle makes thumbnails."""
    import gradio
    from PIL import Image

    from mathreel.core.bundle.media import THUMB_QUALITY, THUMB_SIDE

    folder = Path(gradio.__file__).parent / "media_assets" / "images"
    sizes = []
    for path in sorted(folder.glob("*.jp*g")):
        with Image.open(path) as image:
            image = image.convert("RGB")
            image.thumbnail((THUMB_SIDE, THUMB_SIDE))
            buffer = io.BytesIO()
            image.save(buffer, "JPEG", quality=THUMB_QUALITY, optimize=True)
            sizes.append(len(buffer.getvalue()))
    return sum(sizes) / len(sizes)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--answers", type=int, default=2700)
    parser.add_argument("--frames", type=int, default=8)
    args = parser.parse_args()
    print(f"load {os.getloadavg()}")
    with tempfile.TemporaryDirectory(prefix="mrbundle-") as tmp:
        work = Path(tmp)
        os.environ["MATHREEL_CACHE"] = str(work / "cache")  # frames cold: an empty cache
        total, thumbs, thumb_bytes = 0.0, 0, 0
        for n, (name, paths, judges, reviews) in enumerate(DEMO_RUNS):
            seconds, plan, written = bundle(paths, judges, reviews, work / f"demo{n}")
            frames = list((written.folder / "frames").glob("*.jpg"))
            thumbs += len(frames)
            thumb_bytes += sum(p.stat().st_size for p in frames)
            total += seconds
            print(
                f"demo {name}: {seconds:.2f} s, {len(plan.pages)} pages, {len(frames)} thumbnails, "
                f"{written.bytes / 1e6:.2f} MB (estimated {plan.estimate / 1e6:.2f} MB)"
            )
        print(f"every demo run, frames cold: {total:.2f} s (target < 30 s)")
        demo_thumb = thumb_bytes / thumbs
        log = work / "videomme_2700_results.json"
        videomme_file(log, args.answers)
        seconds, plan, written = bundle([log], [], [], work / "big")
        pages = list((written.folder / "q").glob("*.html"))
        page_bytes = sum(p.stat().st_size for p in pages) / len(pages)
        here = sum("not on the machine that wrote this bundle" in p.read_text() for p in pages)
        print(
            f"{args.answers}-answer Video-MME log, videos not here: {seconds:.2f} s (target < 20 s), "
            f"{len(pages)} pages ({here} say the video is not here), {written.bytes / 1e6:.1f} MB"
        )
        photo = photo_thumbnail_bytes()
        rest = written.bytes  # pages, index, lists and walk data of the same number of answers
        for label, each in (("demo thumbnail", demo_thumb), ("photograph thumbnail", photo)):
            per_question = args.answers * args.frames * each
            per_video = args.answers // 3 * args.frames * each
            print(
                f"estimate, {label} {each / 1000:.1f} KB: {args.answers} x {args.frames} frames = "
                f"{per_question / 1e6:.1f} MB of frames + {rest / 1e6:.1f} MB of pages = "
                f"{(per_question + rest) / 1e6:.1f} MB (frames shared per video, as written: "
                f"{(per_video + rest) / 1e6:.1f} MB); target < 150 MB"
            )
        print(f"mean question page {page_bytes / 1000:.1f} KB")
    print(f"load {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
