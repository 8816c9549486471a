"""Read and score one result file, with a judge's extractions, people's reviews and people's labelled readings where
given: what `mathreel score` does per file, as one call the command line and the web app share, so both give the
same numbers.

The request holds plain values only (exact `str`, `int`, tuples of core objects), so the web app can send it to a
child process that imports only core: a Gradio upload path is a `str` subclass defined in gradio, and unpickling
one made every child import Gradio, seconds per upload (bench/README.md). `ScoreRequest` turns such values into
plain ones when it is made.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mathreel.core.defaults import DEFAULT_FRAMES
from mathreel.core.errors import InputError, MathReelError
from mathreel.core.plain import FrozenFields
from mathreel.core.plural import counted

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.judge.answers import JudgedUse
    from mathreel.core.judge.model import Judgment
    from mathreel.core.results import ResultFile
    from mathreel.core.review.model import Review
    from mathreel.core.scoring.reading_memo import SharedMemos
    from mathreel.core.scoring.readings import LabelledReading, Readings
    from mathreel.core.scoring.report import Report


def _plain(value: Any) -> Any:
    """A str subclass as an exact str (None stays None): what crosses a process boundary names no caller's class."""
    return None if value is None else str(value)


class ScoreRequest(FrozenFields):
    """One file to score and how, as `mathreel score FILE [--judge J] [--reviews R ...]` asks for it.

    `judgments` is a `mathreel judge` output file or the judgments themselves (a judged run held in memory, named by
    `judgments_source` in the report's note); `reviews` are review files and/or reviews held in memory, merged in
    order. Reviews need judgments: they correct the judge's verdicts. `readings` are labelled-readings files
    (`core.scoring.readings`) and/or readings held in memory (the audit's corrections), merged in order, the later
    winning: a person's reading replaces the rule reading (and the judge's) of the answer it matches.

    `judgment_choices` are named judged runs held in memory (a page's uploaded judgment files and the session's
    judge runs), used when `judgments` is None: the one that applies to the most rows of this file (by the same
    join rule as `--judge`: question id and response) is used exactly as `--judge` would use it, the first on a tie;
    none when no judgment of any applies. Reviews then apply only with a judged run chosen.

    `default_frames` is the frame count assumed when the file does not record one, `run_settings` whether to detect
    the prompt settings (`Report.run_settings`; the command line prints none). Never changed once made; a plain
    class with slots (`core.plain`), whose `__init__` turns every value into a plain one.
    """

    FIELDS = (
        "path",
        "benchmark",
        "mode",
        "extractor",
        "denominator",
        "annotations",
        "judgments",
        "judgments_source",
        "reviews",
        "readings",
        "judgment_choices",
        "default_frames",
        "run_settings",
    )
    __slots__ = FIELDS

    def __init__(
        self,
        path: str,
        benchmark: str | None = None,
        mode: str | None = None,
        extractor: str = "robust",
        denominator: str | None = None,
        annotations: str | None = None,
        judgments: str | Sequence[Judgment] | None = None,
        judgments_source: str = "",
        reviews: Sequence[str | Review] = (),
        readings: Sequence[str | LabelledReading] = (),
        judgment_choices: Sequence[tuple[str, Sequence[Judgment]]] = (),
        default_frames: int = DEFAULT_FRAMES,
        run_settings: bool = True,
    ) -> None:
        self.path: str = _plain(path)
        self.benchmark: str | None = _plain(benchmark)
        self.mode: str | None = _plain(mode)
        self.extractor = str(extractor)
        self.denominator: str | None = _plain(denominator)
        self.annotations: str | None = _plain(annotations)
        self.judgments: str | tuple[Judgment, ...] | None = (
            _plain(judgments) if isinstance(judgments, str) else None if judgments is None else tuple(judgments)
        )
        self.judgments_source = str(judgments_source)
        self.reviews: tuple[str | Review, ...] = tuple(_plain(r) if isinstance(r, str) else r for r in reviews)
        self.readings: tuple[str | LabelledReading, ...] = tuple(
            _plain(r) if isinstance(r, str) else r for r in readings
        )
        self.judgment_choices: tuple[tuple[str, tuple[Judgment, ...]], ...] = tuple(
            (str(name), tuple(held)) for name, held in judgment_choices
        )
        self.default_frames = int(default_frames)
        self.run_settings = bool(run_settings)
        if self.reviews and self.judgments is None and not self.judgment_choices:
            raise InputError(self.path, "reviews correct a judge's verdicts: give the judgments they review too")


def score_file(request: ScoreRequest) -> Report:
    """Read and score `request.path` as asked; the judge's extractions replace the rule reading of the answers they
    judged (the rule reading is kept beside them on each row), and reviews add the step scores and error categories
    with people's verdicts in place. The report also carries the prompt settings the run used
    (`Report.run_settings`, unless the request asks for none), so nothing needs to read the file again."""
    return score_result(read_request(request), request)


def read_request(request: ScoreRequest, shared: dict[Any, Any] | None = None) -> ResultFile:
    """The file of `request` read as asked (benchmark, mode, annotations): `score_file`'s first half, for a caller
    that also compares the files it scores (`mathreel score`'s doc_hash check); `shared`: tables kept across the
    files of one call (`read_results`)."""
    from mathreel.core.results import read_results

    return read_results(
        request.path, benchmark=request.benchmark, mode=request.mode, annotations=request.annotations, shared=shared
    )


def score_result(result: ResultFile, request: ScoreRequest, memos: SharedMemos | None = None) -> Report:
    """`score_file`'s second half: `result` (read by `read_request`) scored with the request's judge and reviews;
    `memos` shares choice readings with the other files of the same call (`mathreel score FILE...`)."""
    from mathreel.core.scoring.scorer import score

    judgments = _judgments(request)
    judged = _judged(judgments, request, result) if judgments is not None else None
    if judgments is None and request.judgment_choices:
        judgments, judged = _chosen(request.judgment_choices, result)
    readings = _readings(request.readings) if request.readings else None
    try:
        report = score(
            result,
            extractor=request.extractor,
            denominator=request.denominator,  # type: ignore[arg-type]
            judged=judged.answers if judged else None,
            readings=readings,
            memos=memos,
        )
    except InputError:
        raise
    except MathReelError as error:
        raise InputError(request.path, str(error), fix=error.fix) from None
    if judged:
        report.detected.append(judged.note)
    elif request.judgment_choices:
        names = ", ".join(name for name, _ in request.judgment_choices)
        report.detected.append(
            f"judge: none of the judgments given ({names}) judged this file's answers (same "
            "question and response); the rule reading counts"
        )
    if request.reviews and judgments is not None:
        report.detected.extend(_reviewed(judgments, request.reviews))
    elif request.reviews:
        report.detected.append(
            "reviews: not applied; they correct a judge's verdicts, and no judgments given judged this file's answers"
        )
    if readings is not None:
        report.detected.append(
            f"labelled readings: {counted(report.labelled, 'answer')} scored by a person's reading "
            f"({len(readings)} labelled in {readings.source})"
        )
    if request.run_settings:
        from mathreel.core.results.run_settings import detect_run_settings

        report.run_settings = detect_run_settings(result, request.default_frames)
    return report


def _readings(sources: Sequence[str | LabelledReading]) -> Readings:
    """Every labelled reading of `sources` (files and readings held in memory), merged in order."""
    from mathreel.core.scoring.readings import Readings, read_readings

    names = [source for source in sources if isinstance(source, str)]
    held = len(sources) - len(names)
    merged = Readings(", ".join([*names, *([f"{held} held in memory"] if held else [])]))
    for source in sources:
        for entry in read_readings(source) if isinstance(source, str) else (source,):
            merged.add(entry)
    return merged


def _judgments(request: ScoreRequest) -> list[Judgment] | None:
    if request.judgments is None:
        return None
    if isinstance(request.judgments, str):
        from mathreel.core.judge.model import read_judgments

        return read_judgments(request.judgments)
    return list(request.judgments)


def _judged(judgments: list[Judgment], request: ScoreRequest, result: ResultFile) -> JudgedUse:
    """The answers the judgments give for `result`'s rows (matched by question id and response)."""
    from mathreel.core.judge.answers import judged_answers

    source = request.judgments if isinstance(request.judgments, str) else request.judgments_source or "judgments"
    return judged_answers(judgments, source, result.benchmark, result.mode, result.predictions)


def _chosen(
    choices: Sequence[tuple[str, tuple[Judgment, ...]]], result: ResultFile
) -> tuple[list[Judgment] | None, JudgedUse | None]:
    """The judged run of `choices` that applies to the most rows of `result` (the first on a tie), with what it
    gives; (None, None) when none of them judged any of the file's answers."""
    from mathreel.core.judge.answers import judged_answers

    best: tuple[list[Judgment] | None, JudgedUse | None] = (None, None)
    for name, held in choices:
        if any((j.benchmark, j.mode) != (result.benchmark, result.mode) for j in held if j.benchmark):
            continue
        use = judged_answers(held, name, result.benchmark, result.mode, result.predictions)
        if use.applied and (best[1] is None or use.applied > best[1].applied):
            best = (list(held), use)
    return best


def _reviewed(judgments: list[Judgment], reviews: Sequence[str | Review]) -> list[str]:
    """The report lines of the judge's verdicts with people's reviews applied."""
    from mathreel.core.review import merge_reviews, read_reviews
    from mathreel.core.review.apply import reviewed_lines

    merged = merge_reviews(*(read_reviews(r) if isinstance(r, str) else [r] for r in reviews))
    return reviewed_lines(judgments, merged)
