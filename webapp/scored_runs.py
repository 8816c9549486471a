"""The Score tab's runs: an uploaded result file read and scored by core (`Run`), and the reading of a batch of
uploads, each exactly as `mathreel score` reads it with the same options (a bad file is one message, the others
still score). Browse walks these runs and Judge matches its judgments against them, so they live below the tabs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mathreel.core.runs import unique_name
from mathreel.core.view import DEFAULT_FRAMES
from mathreel.webapp.errors import error_message, log
from mathreel.webapp.fair_queue import FairQueue, share_of
from mathreel.webapp.isolate import DEFAULT_BUDGET, Budget, run_isolated
from mathreel.webapp.server_paths import ServerPaths

if TYPE_CHECKING:
    from mathreel.core.judge.model import Judgment
    from mathreel.core.results.run_settings import DetectedRunSettings
    from mathreel.core.review.model import Review
    from mathreel.core.scoring import Report
    from mathreel.core.scoring.readings import LabelledReading
    from mathreel.webapp.settings import Settings

AUTO = ""  # "detect it from the file" in the benchmark dropdown; "scorer's default" in the denominator one


@dataclass
class Run:
    """One uploaded file scored by core: its `Report` is what the Score tab shows and downloads."""

    name: str
    report: Report
    path: str = ""  # the uploaded file (kept for the visitor, handed back to the upload box)
    digest: str = ""  # SHA-256 of the file: the same file read the same way is not scored twice
    options: ScoreOptions | None = None  # how it was read and scored

    def settings_used(self) -> DetectedRunSettings | None:
        """The prompt settings the file was produced with, read while it was scored (`Report.run_settings`)."""
        return self.report.run_settings

    @property
    def key(self) -> str:
        return f"{self.report.benchmark}:{self.report.mode}"


@dataclass(frozen=True)
class ScoreOptions:
    """How the user asked for files to be read and scored."""

    benchmark_key: str = AUTO  # "benchmark:mode", or AUTO to detect
    extractor: str = "robust"
    denominator: str = AUTO
    annotations: str | None = None  # the server's data directory, for id-only files
    budget: Budget = DEFAULT_BUDGET  # time and memory one file may take on the shared server
    default_frames: int = DEFAULT_FRAMES  # assumed when a file does not record its frame count
    readings: tuple[LabelledReading, ...] = ()  # a person's readings (Browse's audit): they replace the rules'
    # Judged runs to apply (each file gets the one that judged most of its answers, as `--judge` applies it) and
    # reviews of the judge's verdicts (`mathreel score --reviews`): core.scoring.files.ScoreRequest's.
    judged: tuple[tuple[str, tuple[Judgment, ...]], ...] = ()
    reviews: tuple[Review, ...] = ()


# Costly work takes turns for the scoring children (webapp.fair_queue): at most this many at once across the server
# (Settings.score_concurrency; set by the Score tab when it is built), one per visitor.
TURNS = FairQueue(slots=2)


# What reading one uploaded judgments or review file may take when it is costly (those readers are linear).
READING = Budget(what="reading")


def score_path(path: str, options: ScoreOptions, visitor: str = "") -> Report:
    """Read and score one file with core, exactly as `mathreel score` does with the same options.

    What it costs is told before any work from the file's size and container (core.cost.upload_cost): a cheap file
    is scored in this thread at once; anything else, and every workbook whatever its size (a 2 KB xlsx can describe
    a billion cells), in a child process within `options.budget`, when `visitor`'s turn comes (run_costed)."""
    from mathreel.core.scoring.files import ScoreRequest, score_file

    benchmark, _, mode = ("" if options.benchmark_key == AUTO else options.benchmark_key).partition(":")
    denominator = None if options.denominator == AUTO else options.denominator
    request = ScoreRequest(
        path,
        benchmark or None,
        mode or None,
        options.extractor,
        denominator,
        options.annotations,
        reviews=options.reviews if options.judged else (),
        judgment_choices=options.judged,
        default_frames=options.default_frames,
        readings=options.readings,
    )
    return run_costed(score_file, (request,), path, options.budget, visitor)


def run_costed(fn: Callable[..., Any], args: tuple[Any, ...], path: str, budget: Budget, visitor: str = "") -> Any:
    """fn(*args), which reads the upload `path`: in this thread when core.cost.upload_cost says the file is cheap
    (or refuses it unread), else (and for every workbook whatever its size: a 2 KB xlsx can describe a billion
    cells) in a child process within `budget`, when `visitor`'s turn comes (TURNS). Inline, the file's math-verify
    checks queue under `visitor`'s address in the shared worker pool (core.extract.equivalence_engine)."""
    from mathreel.core.cost import upload_cost
    from mathreel.core.extract.math_budget import math_caller

    cost = upload_cost(path)
    if cost.refusal is not None or (cost.cheap and cost.kind != "xlsx"):
        # its math-verify checks take turns in the shared pool as its address (webapp.fair_queue): new browser
        # tokens from one client add no queue of their own there either
        with math_caller(share_of(visitor) or None):
            return fn(*args)
    with TURNS.turn(visitor, str(path)):
        return run_isolated(fn, args, budget, str(path))


def display_name(path: str, taken: set[str]) -> str:
    """The uploaded file's own name, made unique among this user's runs."""
    return unique_name(Path(path).name, taken)


def score_options(
    settings: Settings,
    key: str | None,
    extractor: str | None,
    denominator: str | None,
    use_data: bool | None,
    judged: tuple[tuple[str, tuple[Judgment, ...]], ...] = (),
    reviews: tuple[Review, ...] = (),
) -> ScoreOptions:
    """The Score tab's choices as ScoreOptions on this server (its dataset, its budget per file), with the judged
    runs and reviews to apply (`judge_inputs`)."""
    return ScoreOptions(
        key or AUTO,
        extractor or "robust",
        denominator or AUTO,
        str(settings.data_root()) if use_data else None,
        Budget(settings.score_seconds, settings.score_memory_mb),
        settings.default_frames,
        judged=tuple(judged),
        reviews=tuple(reviews),
    )


def judge_inputs(
    judgment_paths: list[str] | None, review_paths: list[str] | None
) -> tuple[tuple[tuple[str, tuple[Judgment, ...]], ...], tuple[Review, ...], list[str]]:
    """The judged runs (named by file) and reviews in the judgment and review files given; a bad file is one message
    naming it as uploaded, and the others still count. A costly file is read in a child with a budget, as a costly
    result file is (run_costed)."""
    from mathreel.core.judge import read_judgments
    from mathreel.core.review import read_reviews

    judged: list[tuple[str, tuple[Judgment, ...]]] = []
    reviews: list[Review] = []
    errors: list[str] = []
    for path in judgment_paths or []:
        judgments: list[Judgment] | None = _read_costed(read_judgments, path, errors)
        if judgments is not None:
            judged.append((unique_name(Path(path).name, {n for n, _ in judged}), tuple(judgments)))
    for path in review_paths or []:
        reviews.extend(_read_costed(read_reviews, path, errors) or [])
    return tuple(judged), tuple(reviews), errors


def _read_costed(read: Callable[[str], list[Any]], path: str, errors: list[str]) -> list[Any] | None:
    """read(path) within the reading budget (run_costed), or None with its message added to `errors` (naming the
    file as uploaded): a bad file is reported and the others still count."""
    try:
        return run_costed(read, (str(path),), path, READING)
    except Exception as error:  # reported per file; the others still count
        errors.append(error_message(error).replace(str(path), Path(path).name))
        return None


def with_session(
    judging: Any, session_judged: list[Any] | None, session_reviews: list[Review] | None
) -> tuple[tuple, tuple]:
    """The judged runs and reviews from the files given (`judging`, from `judge_inputs`), then the session's own:
    the runs loaded or run in the Judge tab (webapp.judged_runs.JudgedRun; not the demo's as shipped, which the
    Judge tab lists for everyone; None: the session has none) and the reviews made in the page."""
    judged, reviews = judging or ((), ())
    own = tuple((run.name, tuple(run.judgments)) for run in session_judged or [] if run.judgments and not run.demo)
    return (*judged, *own), (*reviews, *(session_reviews or []))


def score_uploads(
    paths: list[str],
    options: ScoreOptions,
    fixes: Mapping[str, str] | None = None,
    server: ServerPaths | None = None,
    held: list[Run] | None = None,
    visitor: str = "",
) -> tuple[list[Run], list[str]]:
    """Score every file; a bad file becomes one message (naming the file as uploaded, its fix in the page's words:
    `fixes`) and the others still score. No server path stays in a run's report (`server`: this server's folders).
    A file among the `held` runs (the same bytes, read with the same options) is not scored again; costly files
    take `visitor`'s turns (score_path)."""
    runs: list[Run] = []
    errors: list[str] = []
    server = server or ServerPaths.of()
    for path in paths:
        name = display_name(path, {r.name for r in runs})
        sha = _digest_or_empty(path)
        same = next((r for r in held or [] if sha and r.digest == sha and r.options == options), None)
        if same is not None:
            report = same.report if same.report.source == name else same.report.replace(source=name)  # not scored
            runs.append(replace(same, name=name, path=str(path), report=report))
            continue
        try:
            report = score_path(path, options, visitor)
        except Exception as error:  # any failure is reported for this file only
            from mathreel.core.errors import MathReelError

            if not isinstance(error, MathReelError):
                log.exception("scoring %s failed", name)
            errors.append(error_message(error, fixes, server.with_file(path, name)))
            continue
        shown_as(report, name, server.with_file(path, name))
        runs.append(Run(name=name, report=report, path=str(path), digest=sha, options=options))
    return runs, errors


def digest(path: str | Path) -> str:
    """The SHA-256 of a file's bytes: the same upload is scored once (and kept once for the visitor)."""
    sha = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            sha.update(block)
    return sha.hexdigest()


def _digest_or_empty(path: str) -> str:
    """The file's digest ("" when it cannot be read: scoring names the problem)."""
    try:
        return digest(path)
    except OSError:
        return ""


def shown_as(report: Report, name: str, server: ServerPaths) -> None:
    """The report as the page shows it and downloads it: its source is the file's own name (as `mathreel score
    --json` names the file it was given), and its notes and warnings name no server path."""
    report.source = name
    report.detected = [server.scrub(note) for note in report.detected]
    report.warnings = [server.scrub(warning) for warning in report.warnings]
