"""Plan a bundle (read and score the runs, group the answers into pages, estimate the size) and write it: into a
fresh folder beside `--out`, renamed into place at the end, so a failure never leaves half a bundle, and an
existing folder is replaced only when it is an earlier bundle (it holds `mathreel-bundle.json`)."""

from __future__ import annotations

import json
import os
import shutil
import stat
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from mathreel.core.bundle.load import BundleRequest, BundleRun, load_runs
from mathreel.core.bundle.scrub import Scrubber
from mathreel.core.errors import InputError, MathReelError
from mathreel.core.plural import counted

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.bundle.pages import Page
    from mathreel.core.data import Dataset
    from mathreel.core.review.model import Review

MARKER = "mathreel-bundle.json"
# The mean thumbnail at THUMB_SIDE / THUMB_QUALITY, measured by bench/bench_bundle.py: 3.0 KB on the demo set's
# frames, 8.5 KB on photographs (busier than any lesson video); the estimate takes the photographs' figure and counts
# every question's frames as its own (no sharing between questions of one video), so it is an upper bound.
THUMB_BYTES = 8_500
PAGE_BYTES = 5_000  # a question page's markup without its texts
ROW_BYTES = 400  # one question in the index, a list page and the walk data, per run
Progress = Callable[[int, int], None]
# The folder is a static Hugging Face Space as it stands: this card tells the Hub to serve index.html.
SPACE_CARD = """---
title: {title}
emoji: 🎞️
colorFrom: indigo
colorTo: yellow
sdk: static
app_file: index.html
pinned: false
---

Evidence of MathReel runs: open index.html (from disk, or served by any static host).
"""


@dataclass
class BundlePlan:
    """What will be written: the runs, the reviews, the dataset (None: none could be loaded), the pages, notes for
    the index, and the estimated size in bytes (frames and pages)."""

    request: BundleRequest
    runs: list[BundleRun]
    reviews: list[Review]
    dataset: Dataset | None
    pages: list[Page]
    scrub: Scrubber
    notes: list[str] = field(default_factory=list)
    frame_count: int = 0
    estimate: int = 0

    @property
    def key(self) -> str:
        report = self.runs[0].report
        return f"{report.benchmark}:{report.mode}"

    def estimate_text(self) -> str:
        return (
            f"estimated size {self.estimate / 1e6:.1f} MB: {len(self.pages)} question pages, up to "
            f"{self.frame_count} frame thumbnails (~{THUMB_BYTES // 1000} KB each, fewer where questions share "
            "a video)"
        )


@dataclass(frozen=True)
class Written:
    folder: Path
    files: int
    bytes: int
    thumbnails: int


def plan_bundle(request: BundleRequest) -> BundlePlan:
    """Read and score every run, load the dataset its questions are joined to, and group the answers into pages."""
    from mathreel.core.bundle.pages import build_pages
    from mathreel.core.cache import cache_base
    from mathreel.core.data.paths import assets_dir

    scrub = Scrubber.of(
        [*request.paths, *(j for j in request.judgments if j), *request.reviews, request.annotations],
        [
            (request.data, "the dataset"),
            (cache_base(), "the cache"),
            (assets_dir(), "assets"),
            (Path.home(), "~"),
            (Path.cwd(), "."),
        ],
    )
    runs, reviews = load_runs(request, scrub)
    report = runs[0].report
    notes: list[str] = []
    dataset = _dataset(report.benchmark, report.mode, request.data, scrub, notes)
    pages = build_pages(runs, dataset, by_id=bool(request.annotations))
    plan = BundlePlan(request, runs, reviews, dataset, pages, scrub, notes)
    _estimate(plan)
    return plan


def _dataset(benchmark: str, mode: str, data: str | None, scrub: Scrubber, notes: list[str]) -> Dataset | None:
    from mathreel.core.data import load_dataset

    try:
        return load_dataset(benchmark, mode, data)
    except MathReelError as error:
        notes.append(
            f"no dataset to join the answers to ({scrub(str(error))}): every question is shown as its file records it"
        )
        return None


def _estimate(plan: BundlePlan) -> None:
    from mathreel.core.benchmarks import get_benchmark

    bench = get_benchmark(plan.runs[0].report.benchmark)
    frames = 0
    texts = 0
    for page in plan.pages:
        question = page.question
        counts = {a.run.settings.num_frames or bench.default_frames for a in page.answers}
        if question is not None and question.video_id:
            frames += sum(max(count, 1) for count in counts)
        elif question is not None:
            frames += 1
        texts += sum(len(a.row.response or "") * 2 + 3000 for a in page.answers)
    plan.frame_count = frames
    rows = len(plan.pages) * len(plan.runs)
    plan.estimate = frames * THUMB_BYTES + len(plan.pages) * PAGE_BYTES + texts + rows * ROW_BYTES * 8


def write_bundle(plan: BundlePlan, out: str | os.PathLike[str], progress: Progress | None = None) -> Written:
    """Write the bundle of `plan` to the folder `out` (new, empty, or an earlier bundle, which it replaces)."""
    target = _check_out(Path(out))
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        thumbs = _write_into(plan, staging, progress)
        _swap(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    files = [p for p in target.rglob("*") if p.is_file()]
    return Written(target, len(files), sum(p.stat().st_size for p in files), thumbs)


def _check_out(target: Path) -> Path:
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return target
    if stat.S_ISLNK(info.st_mode):
        raise InputError(str(target), "is a symbolic link; give --out the real folder")
    if not stat.S_ISDIR(info.st_mode):
        raise InputError(str(target), "is not a folder; give --out a new or empty folder, or an earlier bundle")
    if any(target.iterdir()) and not (target / MARKER).is_file():
        raise InputError(
            str(target),
            "is a folder that is neither empty nor an earlier bundle; MathReel replaces "
            "only its own bundles, so pick another --out",
        )
    return target


def _swap(staging: Path, target: Path) -> None:
    """Put the new bundle in place; an earlier one is moved aside first and removed after."""
    staging.chmod(0o755)
    if not target.exists():
        staging.rename(target)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.", dir=target.parent))
    old.rmdir()
    target.rename(old)
    staging.rename(target)
    shutil.rmtree(old, ignore_errors=True)


def _write_into(plan: BundlePlan, root: Path, progress: Progress | None) -> int:
    from mathreel.core.bundle.media import Thumbs, shown_for
    from mathreel.core.bundle.question import question_page
    from mathreel.core.bundle.site import (
        index_page,
        list_file,
        list_page,
        reference_html,
        walk_lists,
        walks_js,
    )
    from mathreel.core.bundle.static import SCRIPT, STYLE
    from mathreel.core.scoring.reading_flow import disagreeing

    (root / "q").mkdir()
    (root / "lists").mkdir()
    thumbs = Thumbs(root)
    pages, runs, key = plan.pages, plan.runs, plan.key
    total = len(pages) + 1
    style, fps = plan.request.prompt.style, plan.request.prompt.fps
    for number, page in enumerate(pages):
        shown = shown_for(page, plan.dataset, thumbs, style, fps, plan.scrub) if plan.dataset is not None else []
        prev = pages[number - 1] if number else None
        nxt = pages[number + 1] if number + 1 < len(pages) else None
        html = question_page(
            page, key, shown, plan.reviews, prev, nxt, f"{number + 1} of {counted(len(pages), 'question')}"
        )
        _put(root / page.file, html, plan.scrub)
        if progress is not None:
            progress(number + 1, total)
    lists = walk_lists(pages, runs, disagreeing([run.report for run in runs]) if len(runs) > 1 else set())
    for run in runs:
        for name, files in lists.items():
            owner, _, walk = name.partition("\t")
            if owner != run.name:
                continue
            walk, _, disagree = walk.partition("\t")
            html = list_page(key, run, walk, bool(disagree), pages, files)
            _put(root / list_file(run, walk, bool(disagree)), html, plan.scrub)
    title = plan.request.title or f"MathReel evidence: {key}, {len(runs)} run{'s' if len(runs) > 1 else ''}"
    references = {run.name: reference_html(run) for run in runs}
    _put(root / "index.html", index_page(title, key, runs, pages, lists, references, plan.notes), plan.scrub)
    _put(root / "walks.js", walks_js(key, pages, lists), plan.scrub)
    (root / "bundle.js").write_text(SCRIPT, encoding="utf-8")
    (root / "style.css").write_text(STYLE, encoding="utf-8")
    manifest = {
        "mathreel_bundle": 1,
        "benchmark": key,
        "runs": [run.name for run in runs],
        "pages": len(pages),
        "thumbnails": thumbs.written,
    }
    _put(root / MARKER, json.dumps(manifest, ensure_ascii=False, indent=1), plan.scrub)
    _put(root / "README.md", SPACE_CARD.format(title=json.dumps(title[:60])), plan.scrub)
    if progress is not None:
        progress(total, total)
    return thumbs.written


def _put(path: Path, text: str, scrub: Scrubber) -> None:
    """A page written with every known path of this machine and every secret of its environment taken out: texts
    from files and models may name them too (a response quoting a path, a reviewer's note)."""
    path.write_text(scrub.text(text), encoding="utf-8")
