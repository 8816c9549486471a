"""A run to explain (a read result file and the judge file that may apply to it) and the scored rows of any mix of
two runs' answers, read by any reader.

Every status comes from `core.scoring.score`, called on a `ResultFile` holding the answers in question: the
run's own, or a mix made on the way from one run to another (some questions answered as in A, some as in B).
Statuses depend only on the question, the response, the reader and the judge, so the rows of a mix are exactly
the rows either run would get; scoring each mix once per reader keeps that true without re-implementing a rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from mathreel.core.benchmarks import Benchmark, get_benchmark
from mathreel.core.errors import InputError
from mathreel.core.explain.scorers import Scorer
from mathreel.core.explain.tally import Tally, tally
from mathreel.core.question import Question
from mathreel.core.results.model import Prediction, ResultFile

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.judge.answers import JudgedAnswers
    from mathreel.core.judge.model import Judgment
    from mathreel.core.scoring.row import ScoredRow

Entry = Prediction | Question  # one row of a run: an answer, or a question the run lacks (a "missing" row)


@dataclass
class Run:
    """A result file as read, the judgments that may stand in for its rule readings, and a short name."""

    result: ResultFile
    judgments: Sequence[Judgment] | None = None
    judge_source: str = ""
    name: str = ""

    def __post_init__(self) -> None:
        if not self.name:
            self.name = Path(self.result.source).name or self.result.source

    @property
    def bench(self) -> Benchmark:
        return get_benchmark(self.result.benchmark)

    @property
    def entries(self) -> tuple[Entry, ...]:
        """The run's rows in scoring order: its answers in file order, then the questions it lacks."""
        return (*self.result.predictions, *self.result.missing)


def run_key(run: Run) -> str:
    """The name a run's own entries are scored under (unique per Run object)."""
    return f"{run.name}@{id(run)}"


def entry_key(entry: Entry) -> str:
    """The question an entry is about (`id#k` for a repeated id, as the readers key them)."""
    return entry.question.question_id if isinstance(entry, Prediction) else entry.question_id


def entry_question(entry: Entry) -> Question:
    return entry.question if isinstance(entry, Prediction) else entry


def load_run(
    path: str,
    benchmark: str | None = None,
    mode: str | None = None,
    annotations: str | None = None,
    judge: str | None = None,
) -> Run:
    """Read a result file (and a `mathreel judge` output for it) as `mathreel score` reads them."""
    from mathreel.core.results import read_results

    result = read_results(path, benchmark=benchmark, mode=mode, annotations=annotations)
    judgments = None
    if judge:
        from mathreel.core.judge.model import read_judgments

        judgments = read_judgments(judge)
    return Run(result, judgments, judge or "")


@dataclass(frozen=True)
class Scored:
    """The rows of some entries read by one reader (and judge), with the question of each row."""

    rows: tuple[ScoredRow, ...]
    questions: tuple[Question, ...]


@dataclass
class Scorings:
    """Scored rows of entry lists, each list scored once per reader and judge: what a decomposition walks over.

    An entry list is named by the caller (`key`) so that the same mix is never scored twice.
    """

    benchmark: str
    mode: str
    _rows: dict[tuple[str, str, int], Scored] = field(default_factory=dict)

    @property
    def bench(self) -> Benchmark:
        return get_benchmark(self.benchmark)

    def scored(self, key: str, entries: Sequence[Entry], reader: str, judge: Run | None) -> Scored:
        """The rows of `entries` read by `reader`, with `judge`'s extractions where its judgments match."""
        memo = (key, reader, id(judge) if judge is not None else 0)
        found = self._rows.get(memo)
        if found is None:
            found = self._rows[memo] = self._score(key, entries, reader, judge)
        return found

    def tally(self, key: str, entries: Sequence[Entry], scorer: Scorer, judge: Run | None) -> Tally:
        """The exact figure of `entries` under `scorer` (`judge`: whose judgments apply when `scorer.judge`)."""
        scored = self.scored(key, entries, scorer.reader, judge if scorer.judge else None)
        return tally(self.bench, self.mode, scored.rows, scored.questions, scorer)

    def _score(self, key: str, entries: Sequence[Entry], reader: str, judge: Run | None) -> Scored:
        from mathreel.core.scoring import score

        predictions = [entry for entry in entries if isinstance(entry, Prediction)]
        missing = [entry for entry in entries if not isinstance(entry, Prediction)]
        result = ResultFile(
            source=key,
            benchmark=self.benchmark,
            mode=self.mode,
            format="explain",
            predictions=predictions,
            missing=missing,
        )
        judged = self._judged_answers(judge, predictions) if judge is not None else None
        report = score(result, extractor=reader, denominator="all", judged=judged)  # the reader is checked before
        return Scored(tuple(report.rows), (*(p.question for p in predictions), *missing))

    def _judged_answers(self, judge: Run, predictions: Sequence[Prediction]) -> JudgedAnswers:
        if not judge.judgments:
            raise InputError(judge.result.source, "no judge file was given for this run")
        from mathreel.core.judge.answers import judged_answers

        return judged_answers(judge.judgments, judge.judge_source, self.benchmark, self.mode, predictions).answers
