"""The Judge tab's runs: a judgment file (or a judge run from the page) as one `JudgedRun`, the demo set's
synthetic judgments, uploaded judgment files, and what a run's benchmark declares for judging (its error
categories and primary dimension). Browse's judge card, the review box and the charts read the same runs, so they
live below the tabs.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mathreel.core.runs import unique_name
from mathreel.webapp.errors import error_message
from mathreel.webapp.scored_runs import READING, run_costed

if TYPE_CHECKING:
    from mathreel.core.judge import Judgment


@dataclass
class JudgedRun:
    """One judgment file (or one judge run from the page) as the tab shows it."""

    name: str
    judgments: list[Judgment]
    note: str = ""
    demo: bool = False  # the demo set's synthetic judgments, as shipped (not a visitor's own run)

    @property
    def benchmark(self) -> str:
        return self.judgments[0].benchmark if self.judgments else ""

    @property
    def mode(self) -> str:
        return self.judgments[0].mode if self.judgments else ""


def demo_judgment_dir() -> Path:
    from mathreel.core.data import demo_dir

    return demo_dir() / "judgments"


def load_demo_runs() -> list[JudgedRun]:
    """The demo set's synthetic judgments, one run per file (none when the directory is absent)."""
    from mathreel.core.judge import read_judgments

    folder = demo_judgment_dir()
    runs = []
    for path in sorted(folder.glob("*.jsonl")) if folder.is_dir() else []:
        name = path.stem.removesuffix("_judgments") + " (synthetic demo)"
        runs.append(JudgedRun(name, read_judgments(path), "synthetic: scripted judge replies, not a model", demo=True))
    return runs


def load_uploads(paths: list[str], runs: list[JudgedRun]) -> tuple[list[JudgedRun], list[str]]:
    """Runs plus the uploaded judgment files; a bad file is one message naming it as uploaded. A costly file is
    read in a child process with a budget, as a costly result file is (webapp.scored_runs.run_costed)."""
    from mathreel.core.judge import read_judgments

    out, errors = list(runs), []
    for path in paths:
        shown = Path(path).name
        try:
            judgments = run_costed(read_judgments, (str(path),), path, READING)
        except Exception as error:  # reported per file; the others still load
            errors.append(error_message(error).replace(str(path), shown))
            continue
        out.append(JudgedRun(unique_name(Path(path).stem, {r.name for r in out}), judgments))
    return out, errors


def _benchmark(name: str) -> Any:
    """The benchmark a judged run names (None for a name this server does not know)."""
    from mathreel.core.benchmarks import get_benchmark

    try:
        return get_benchmark(name)
    except KeyError:
        return None


def error_categories(benchmark: str) -> tuple[str, ...]:
    """The benchmark's declared error categories (none for an unknown benchmark)."""
    bench = _benchmark(benchmark)
    return bench.error_categories if bench is not None else ()


def primary_dimension(runs: list[JudgedRun]) -> str | None:
    """The dimension judged questions are grouped by: the first run's benchmark's primary one."""
    bench = _benchmark(runs[0].benchmark) if runs else None
    return bench.primary if bench is not None else None
