"""The Score tab's runs: an uploaded result file read and scored by core (`Run`), and the reading of a batch of
uploads, each exactly as `mathreel score` reads it with the same options (a bad file is one message, the others
still score). Browse walks these runs and Judge matches its judgments against them, so they live below the tabs.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mathreel.core.runs import unique_name
from mathreel.webapp.errors import error_message, log
from mathreel.webapp.isolate import DEFAULT_BUDGET, Budget, run_isolated

if TYPE_CHECKING:
    from mathreel.core.results.run_settings import RunSettings
    from mathreel.core.scoring import Report

AUTO = ""  # "detect it from the file" in the benchmark dropdown; "scorer's default" in the denominator one


@dataclass
class Run:
    """One uploaded file scored by core. `summary` is `report.to_dict()`, computed once."""

    name: str
    report: Report
    summary: dict[str, Any]
    path: str = ""  # the uploaded file, read again only if its prompt settings are asked for
    default_frames: int = 8
    used: RunSettings | None = None  # the prompt settings the file was produced with, once detected

    def settings_used(self) -> RunSettings | None:
        """The prompt settings the file was produced with (detected on first use; None if it cannot be read)."""
        if self.used is None and self.path:
            try:
                self.used = detect_path(self.path, self.report, self.default_frames)
            except Exception:  # the upload expired or cannot be re-read: no settings to follow
                log.info("cannot re-read %s for its prompt settings", self.name)
        return self.used

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
    default_frames: int = 8  # assumed when a file does not record its frame count


# Reading and scoring are linear in a file's size, so a file up to this size costs well under a second in the
# server's own thread. Larger files go to a child process with a time and memory budget (webapp.isolate), so a
# costly one never holds up other visitors; starting that child costs far more than scoring a small file.
ISOLATE_ABOVE_BYTES = 1024 * 1024


def score_path(path: str, options: ScoreOptions) -> Report:
    """Read and score one file with core, exactly as `mathreel score` does with the same options: in this thread
    when it is small, else in a child process within `options.budget`."""
    from mathreel.core.scoring.files import ScoreRequest, score_file

    benchmark, _, mode = ("" if options.benchmark_key == AUTO else options.benchmark_key).partition(":")
    denominator = None if options.denominator == AUTO else options.denominator
    request = ScoreRequest(path, benchmark or None, mode or None, options.extractor, denominator, options.annotations,
                           default_frames=options.default_frames)
    try:
        small = os.path.getsize(path) <= ISOLATE_ABOVE_BYTES
    except OSError:
        small = True  # core's reader names the problem in one line
    if small:
        return score_file(request)
    return run_isolated(score_file, (request,), options.budget, str(path))


def detect_path(path: str, report: Report, default_frames: int = 8) -> RunSettings:
    """The prompt settings of a scored file (read again as the benchmark and mode it was scored as)."""
    from mathreel.core.results import read_results
    from mathreel.core.results.run_settings import detect_run_settings

    return detect_run_settings(read_results(path, benchmark=report.benchmark, mode=report.mode), default_frames)


def display_name(path: str, taken: set[str]) -> str:
    """The uploaded file's own name, made unique among this user's runs."""
    return unique_name(Path(path).name, taken)


def score_uploads(paths: list[str], options: ScoreOptions) -> tuple[list[Run], list[str]]:
    """Score every file; a bad file becomes one message (naming the file as uploaded) and the others still score."""
    runs: list[Run] = []
    errors: list[str] = []
    for path in paths:
        name = display_name(path, {r.name for r in runs})
        try:
            report = score_path(path, options)
        except Exception as error:  # any failure is reported for this file only
            from mathreel.core.errors import MathReelError

            if not isinstance(error, MathReelError):
                log.exception("scoring %s failed", name)
            errors.append(_rename(error_message(error), path, name))
            continue
        runs.append(Run(name=name, report=report, summary=report.to_dict(), path=str(path),
                        default_frames=options.default_frames))
    return runs, errors


def _rename(message: str, path: str, name: str) -> str:
    """Show the file as the user named it, not its server-side upload path."""
    return message.replace(str(path), name)
