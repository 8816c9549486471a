"""The runs of a bundle: each result file read and scored as `mathreel score` does (judge and reviews included),
with the prompt settings its pages show: the run's own (read from the file, else guessed), or the ones asked for."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from mathreel.core.errors import InputError
from mathreel.core.view import ViewSettings

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.judge.model import Judgment
    from mathreel.core.results import ResultFile
    from mathreel.core.review.model import Review
    from mathreel.core.scoring.report import Report


@dataclass(frozen=True)
class PromptOverrides:
    """Prompt settings asked for on the command line; None leaves each run's own (as `score` detects it)."""

    num_frames: int | None = None
    fps: float | None = None
    cot: bool | None = None
    with_subtitles: bool | None = None
    full_subtitles: bool | None = None
    interleaved: bool | None = None
    style: str = "default"

    def apply(self, own: ViewSettings) -> ViewSettings:
        changes = {
            name: value
            for name in ("num_frames", "cot", "with_subtitles", "full_subtitles", "interleaved")
            if (value := getattr(self, name)) is not None
        }
        return replace(own, **changes).normalized()


@dataclass(frozen=True)
class BundleRequest:
    """What `mathreel bundle` was asked: the result files (one judgments file or None per file), review files, the
    scoring options of `score`, the dataset (`--data`) and the prompt settings."""

    paths: tuple[str, ...]
    judgments: tuple[str | None, ...] = ()
    reviews: tuple[str, ...] = ()
    benchmark: str | None = None
    mode: str | None = None
    extractor: str = "robust"
    denominator: str | None = None
    annotations: str | None = None
    data: str | None = None
    prompt: PromptOverrides = PromptOverrides()
    title: str = ""
    names: tuple[str, ...] = ()  # the runs' names where the files' own names are not them (the app's uploads)


@dataclass
class BundleRun:
    """One run: its shown name (the file's own name, unique in the bundle), its number (anchors), the report and
    file as read, its judgments and the reviews of them, and the settings its prompts and frames are shown with."""

    name: str
    number: int
    report: Report
    result: ResultFile
    judgments: list[Judgment] | None
    settings: ViewSettings
    setting_lines: list[str]

    @property
    def anchor(self) -> str:
        return f"run-{self.number}"


def load_runs(request: BundleRequest, scrub) -> tuple[list[BundleRun], list[Review]]:
    """Every run read and scored; all of one benchmark and mode (a bundle is the evidence of one table)."""
    from mathreel.core.runs import unique_name
    from mathreel.core.scoring.files import ScoreRequest, read_request, score_result

    if not request.paths:
        raise InputError("bundle", "give at least one result FILE")
    judges = request.judgments or (None,) * len(request.paths)
    if len(judges) != len(request.paths):
        raise InputError(
            "--judge",
            f"give one judgments file per result file ({len(request.paths)}), in the same order ('-' for none)",
        )
    runs: list[BundleRun] = []
    for number, (path, judge) in enumerate(zip(request.paths, judges, strict=True), start=1):
        score_request = ScoreRequest(
            path,
            request.benchmark,
            request.mode,
            request.extractor,
            request.denominator,
            request.annotations,
            judgments=judge,
            reviews=tuple(request.reviews) if judge else (),
        )
        result = read_request(score_request)
        report = score_result(result, score_request)
        given = request.names[number - 1] if len(request.names) >= number else Path(path).name
        name = unique_name(given, {run.name for run in runs})
        report.source = name
        report.detected = [scrub(line) for line in report.detected]
        report.warnings = [scrub(line) for line in report.warnings]
        own = report.run_settings.settings if report.run_settings else ViewSettings()
        settings = request.prompt.apply(own)
        lines = report.run_settings.lines() if report.run_settings else []
        if settings != own.normalized():
            lines.append(f"Shown with the settings asked for: {settings.describe()}")
        runs.append(BundleRun(name, number, report, result, _judgments(judge), settings, [scrub(x) for x in lines]))
    first = runs[0].report
    for run in runs[1:]:
        if (run.report.benchmark, run.report.mode) != (first.benchmark, first.mode):
            raise InputError(
                run.name,
                f"is a {run.report.benchmark} {run.report.mode} run and {runs[0].name} a "
                f"{first.benchmark} {first.mode} run; a bundle shows runs of one benchmark and mode",
            )
    return runs, _reviews(request.reviews)


def _judgments(path: str | None) -> list[Judgment] | None:
    if not path:
        return None
    from mathreel.core.judge.model import read_judgments

    return read_judgments(path)


def _reviews(paths: tuple[str, ...]) -> list[Review]:
    if not paths:
        return []
    from mathreel.core.review import merge_reviews, read_reviews

    return merge_reviews(*(read_reviews(path) for path in paths))
