"""`score`: per-answer correctness, multi-binary grouping, breakdowns over any dimension, uncertainty.

The per-row path is plain Python over dicts and tuples (no pandas), because a 270,000-answer file must score in
a few seconds and the CLI must not import numpy.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, ItemsView, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, compress
from operator import attrgetter, itemgetter

from core.benchmarks import Benchmark, get_benchmark
from core.errors import MathReelError
from core.extract import extract_choice
from core.extract.choice import OptionMatcher
from core.extract.types import Extraction
from core.question import Question, split_option
from core.results.bulk import gc_paused
from core.results.model import ResultFile
from core.scoring.report import DENOMINATORS, Cell, Overall, Report, ScoredRow, cross_key
from core.scoring.stats import binary_se, clustered_binary_se, few_clusters_warning, wilson_interval

# "robust", then every pinned reproduction some benchmark offers (each benchmark says which it has).
EXTRACTORS = ("robust", "official", "official-2024-06-18", "lmms-regex", "lmms-mcq-extract")
_SHOWN = 10


@dataclass(frozen=True)
class OfficialTool:
    """A reference scorer's rule-based extractor and the denominator policy that scorer uses.

    `letter` gives just the letter `extract` reads (its cheap twin, for counting disagreements).
    """

    name: str
    extract: Callable[[str, tuple[str, ...]], Extraction]
    denominator: str
    letter: Callable[[str, tuple[str, ...]], str | None] | None = None


@dataclass(slots=True)
class _Unit:
    """What is scored once: a question, or a multi-binary group of pairs."""

    question: Question
    cluster: str
    dims: dict[str, str]
    in_overall: bool = True  # the benchmark's rule for its headline figure (MathVerse: not Text Only)
    correct: bool = True
    answered: bool = True
    pairs: int = 0


def official_tool(bench: Benchmark, name: str = "official") -> OfficialTool | None:
    """A benchmark's pinned reference reproduction (`official`: its `official_scorer`), extractor resolved."""
    scorer = bench.reproductions.get(name) or (bench.official_scorer if name == "official" else None)
    if scorer is None:
        return None
    from core.extract.reference import reference_extractor

    extract, letter = reference_extractor(scorer.extractor)
    return OfficialTool(scorer.label, extract, scorer.denominator, letter)


# (question_id, record) -> the judge's extraction and, for free-form answers, its equivalence verdict.
JudgedAnswers = Mapping[tuple[str, str], tuple[Extraction, bool | None]]


def score(
    result: ResultFile,
    extractor: str = "robust",
    denominator: str | None = None,
    judged: JudgedAnswers | None = None,
) -> Report:
    """Score a read result file.

    `extractor="official"` uses the benchmark's official extractor and, unless `denominator` is given, that
    scorer's denominator policy; otherwise the denominator defaults to "all" (unparsed counts wrong).
    `judged` (from `core.judge.answers.judged_answers`) replaces the rule reading of the answers it covers.
    """
    with gc_paused():
        return _score(result, extractor, denominator, judged or {})


def _score(result: ResultFile, extractor: str, denominator: str | None, judged: JudgedAnswers) -> Report:
    bench = get_benchmark(result.benchmark)
    if extractor not in EXTRACTORS:
        raise MathReelError(f"unknown extractor {extractor!r}; choose one of {', '.join(EXTRACTORS)}")
    reproduce = extractor != "robust"
    tool = official_tool(bench, extractor if reproduce else "official")
    if reproduce and tool is None:
        offered = ", ".join(["robust", *bench.reproductions])
        raise MathReelError(f"{bench.title} has no rule-based reference extractor {extractor!r}; "
                            f"choose one of {offered}")
    if denominator is None:
        denominator = tool.denominator if reproduce and tool else "all"
    if denominator not in DENOMINATORS:
        raise MathReelError(f"unknown denominator {denominator!r}; choose one of {', '.join(DENOMINATORS)}")

    grouped = bench.mode(result.mode).grouped
    rows, disagreements = _score_rows(result, bench, tool, reproduce, judged)
    units = _units(rows, result, grouped, bench)
    keep_unanswered = denominator == "all"
    counted = list(units.values()) if keep_unanswered else [u for u in units.values() if u.answered]
    overall_units = list(compress(counted, map(_IN_OVERALL, counted)))
    only_outside = bool(counted) and not overall_units  # e.g. a MathVerse Text Only run: its own figure is the headline
    if only_outside:
        overall_units = counted
    by, cross = _tables(bench, counted)
    overall = overall_cell(overall_units, cluster_unit(bench, overall_units))
    few = few_clusters_warning(overall.clusters, overall.clustered_by) if overall.n else None
    report = Report(
        benchmark=bench.name,
        mode=result.mode,
        source=result.source,
        format=result.format,
        extractor=extractor,
        official_extractor=tool.name if tool else None,
        denominator=denominator,
        detected=list(result.notes),
        overall=overall,
        by=by,
        cross=cross,
        grouped=grouped,
        pairs=len(rows),
        unparsed=[r.question_id for r in rows if r.status == "unparsed"],
        missing=[r.question_id for r in rows if r.status == "missing"],
        unknown_ids=list(result.unknown_ids),
        disagreements=disagreements,
        warnings=list(result.warnings) + (_group_warnings(units, rows) if grouped else []) + ([few] if few else []),
        excluded_from_overall=len(counted) - len(overall_units),
        rows=rows,
        units={key: (u.correct, u.cluster, u.answered or keep_unanswered, u.in_overall or only_outside)
               for key, u in units.items()},
    )
    if only_outside:
        report.detected.append("every question is outside the benchmark's usual overall (e.g. Text Only): "
                               "the overall is theirs")
    if tool is None:
        report.detected.append(f"no rule-based official extractor for {bench.title}: disagreements not computed")
    return report


def _score_rows(
    result: ResultFile, bench: Benchmark, tool: OfficialTool | None, use_official: bool, judged: JudgedAnswers
) -> tuple[list[ScoredRow], list[str]]:
    """One ScoredRow per answer and per missing question, and the ids the two extractors read differently."""
    default_letters = bench.letters(result.mode)
    rows: list[ScoredRow] = []
    disagreements: list[str] = []
    append = rows.append
    # Extractors are pure functions of (response, letters, options): the same answer to the same question
    # (repeated runs, pooled files) is read once. Readings are kept per options tuple, so a file that asks
    # every question once pays one lookup per answer and no more.
    asked: dict[tuple[str, ...], _Asked] = {}
    for prediction in result.predictions:
        question = prediction.question
        response = prediction.response
        gold = question.answer
        official_answer = None
        if question.answer_kind == "free":
            used, right = _score_free(response, gold)
        else:
            before = asked.get(question.options)
            if before is None:
                choices = _choices(question, default_letters)
                reading = _read_choice_answer(response, choices, tool, use_official)
                asked[question.options] = _Asked(choices, response, reading)
            elif before.response == response:
                reading = before.reading
            else:
                reading = before.again(response, tool, use_official)
            used, official_answer, disagree = reading
            if disagree:
                disagreements.append(question.question_id)
            right = used.answer == gold
        if judged:
            override = judged.get((question.question_id, str(prediction.record)))
            if override is not None:
                used, verdict = override
                right = verdict if verdict is not None else used.answer == gold
        status = "unparsed" if used.answer is None else ("correct" if right else "wrong")
        append(ScoredRow(question.question_id, question.group_id, question.cluster, question.dims, response,
                         used.answer, used.method, used.explanation, gold, status, official_answer, prediction.record))
    for question in result.missing:
        append(ScoredRow(question.question_id, question.group_id, question.cluster, question.dims, "", None,
                         "none", "missing: the file has no answer for this question", question.answer, "missing"))
    return rows, disagreements


_Reading = tuple[Extraction, str | None, bool]  # what `_read_choice_answer` returns


@dataclass(slots=True)
class _Asked:
    """A question's letters and option texts, the first answer read for it, and readings of any other answers."""

    choices: tuple[tuple[str, ...], OptionMatcher | None]
    response: str
    reading: _Reading
    others: dict[str, _Reading] | None = None

    def again(self, response: str, tool: OfficialTool | None, use_official: bool) -> _Reading:
        """The reading of another answer to the same question (read once, then kept)."""
        if self.others is None:
            self.others = {}
        reading = self.others.get(response)
        if reading is None:
            reading = self.others[response] = _read_choice_answer(response, self.choices, tool, use_official)
        return reading


def _choices(question: Question, default_letters: tuple[str, ...]) -> tuple[tuple[str, ...], OptionMatcher | None]:
    """The letters a question allows and its option texts (the benchmark's letters when it lists no options).

    Scoring asks this once per distinct options tuple. Only the letters are read here; the texts are split off
    when a response is first read for its option text, which short answers never are.
    """
    if not question.options:
        return default_letters, None
    letters = option_letters(question.options)
    return _distinct(letters), OptionMatcher(_OptionTexts(question.options, letters))


def option_letters(options: tuple[str, ...]) -> tuple[str, ...]:
    """The letter of each option as `Question.letters` reads them (A, B, ... by position unless every option
    names its own).

    The usual spelling, a capital then one of `.):：` ("A. text"), is recognised from the first two characters
    of the options alone, taken in C and looked up in a table; a large file has a million options.
    """
    try:
        firsts = tuple(map(_FIRST, options))
        seconds = tuple(map(_SECOND, options))
    except IndexError:  # an option shorter than two characters
        return _letters_by_regex(options)
    return firsts if _usual_shape(firsts, seconds) else _letters_by_regex(options)


@lru_cache(maxsize=256)
def _usual_shape(firsts: tuple[str, ...], seconds: tuple[str, ...]) -> bool:
    return all("A" <= a <= "Z" and b in _OPTION_MARKS for a, b in zip(firsts, seconds, strict=True))


@lru_cache(maxsize=256)
def _distinct(letters: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(letters))


def _letters_by_regex(options: tuple[str, ...]) -> tuple[str, ...]:
    letters = tuple(split_option(option)[0] for option in options)
    return letters if all(letters) else tuple(chr(ord("A") + i) for i in range(len(options)))


_FIRST, _SECOND = itemgetter(0), itemgetter(1)
_OPTION_MARKS = ".):："  # the marks `split_option` accepts right after the letter


class _OptionTexts(Mapping[str, str]):
    """Letter -> option text of one question, exactly `Question.option_texts` (tests check), split from the
    options on first use."""

    __slots__ = ("_letters", "_options", "_texts")

    def __init__(self, options: tuple[str, ...], letters: tuple[str, ...]) -> None:
        self._options, self._letters = options, letters
        self._texts: dict[str, str] | None = None

    def _split(self) -> dict[str, str]:
        if self._texts is None:
            self._texts = {letter: _option_text(option)
                           for letter, option in zip(self._letters, self._options, strict=True)}
        return self._texts

    def __getitem__(self, letter: str) -> str:
        return self._split()[letter]

    def items(self) -> ItemsView[str, str]:
        return self._split().items()

    def __iter__(self) -> Iterator[str]:
        return iter(self._split())

    def __len__(self) -> int:  # without splitting: the extractor asks whether there are options at all
        return len(self._texts) if self._texts is not None else len(set(self._letters))


def _option_text(option: str) -> str:
    """`split_option(option)[1]`, with "A. text" split by slicing."""
    if len(option) >= 2 and "A" <= option[0] <= "Z" and option[1] in _OPTION_MARKS:
        return option[2:].strip()
    return split_option(option)[1]


def _read_choice_answer(
    response: str, choices: tuple[tuple[str, ...], OptionMatcher | None], tool: OfficialTool | None, use_official: bool
) -> _Reading:
    """The extraction a choice answer is scored by, the official extractor's letter (None without one), and
    whether the robust and the official extractor read it differently.

    Unless the official reading is the one scored, only its letter is taken (`OfficialTool.letter`).
    """
    letters, texts = choices
    robust = extract_choice(response, letters, texts)
    if tool is None:
        return robust, None, False
    if use_official or tool.letter is None:
        by_official = tool.extract(response, letters)
        return (by_official if use_official else robust), by_official.answer, by_official.answer != robust.answer
    letter = tool.letter(response, letters)
    return robust, letter, letter != robust.answer


def _read_choice(
    response: str,
    choices: tuple[tuple[str, ...], OptionMatcher | None],
    official: Callable[[str, tuple[str, ...]], Extraction] | None,
) -> tuple[Extraction, Extraction | None]:
    """The robust reading (with the option texts) and the official one of a choice answer (for `single`)."""
    letters, texts = choices
    return extract_choice(response, letters, texts), (official(response, letters) if official else None)


def _score_free(response: str, gold: str) -> tuple[Extraction, bool]:
    """A free-form answer: the boxed / final-answer value (or math-verify's reading when the rules cannot decide),
    compared to the gold value by math equivalence."""
    from core.extract.free_verdict import free_verdict  # free-form items are MathVerse's only

    verdict = free_verdict(response, gold)
    return verdict.extraction, verdict.correct


def _units(rows: list[ScoredRow], result: ResultFile, grouped: bool, bench: Benchmark) -> dict[str, _Unit]:
    """Rows folded into scored units: a multi-binary group is right only when every pair is right.

    Rows come in the order of `result.predictions` then `result.missing`, so they pair with those questions.
    """
    questions = chain(map(_QUESTION, result.predictions), result.missing)
    in_overall = bench.in_overall
    units: dict[str, _Unit] = {}
    get = units.get
    for row, question in zip(rows, questions, strict=True):
        key = row.group_id if grouped else row.question_id
        unit = get(key)
        if unit is None:
            unit = units[key] = _Unit(question, row.cluster, row.dims, in_overall(question))
        unit.pairs += 1
        status = row.status
        if status != "correct":
            unit.correct = False
            if status != "wrong":
                unit.answered = False
    return units


def _cell_counts(units: Iterable[_Unit]) -> tuple[int, int]:
    n = correct = 0
    for unit in units:
        n += 1
        correct += unit.correct
    return n, correct


def cell(n: int, correct: int) -> Cell:
    """A Cell from counts: accuracy in percent with its Wilson interval."""
    return Cell(n, correct, 100 * correct / n if n else None, wilson_interval(correct, n))


def cluster_unit(bench: Benchmark, units: list[_Unit]) -> str:
    """What the clusters are, by the benchmark's rule: "video", "problem", "question", or the mix, most first."""
    kinds = Counter(bench.cluster_label(unit.question) for unit in units)
    return ", ".join(kind for kind, _ in kinds.most_common()) or "video"


def overall_cell(units: list[_Unit], clustered_by: str = "video") -> Overall:
    """The headline cell with the naive and the clustered standard errors, from counts per cluster."""
    clusters = list(map(_CLUSTER, units))
    sizes = Counter(clusters)
    rights = Counter(compress(clusters, map(_CORRECT, units)))
    n, correct = len(units), rights.total()
    return Overall(
        n,
        correct,
        100 * correct / n if n else None,
        wilson_interval(correct, n),
        se=binary_se(correct, n),
        clustered_se=clustered_binary_se([(size, rights[cluster]) for cluster, size in sizes.items()]),
        clusters=len(sizes),
        clustered_by=clustered_by,
    )


def breakdown(units: Iterable[_Unit], dimension: str, bench: Benchmark) -> dict[str, Cell]:
    """Cells per value of one dimension, in the benchmark's display order; units without the value are left out."""
    tallies: dict[str, list[int]] = {}
    for unit in units:
        value = unit.dims.get(dimension)
        if value is None:
            continue
        tally = tallies.get(value)
        if tally is None:
            tally = tallies[value] = [0, 0]
        tally[0] += 1
        tally[1] += unit.correct
    order = bench.dimension(dimension).order(set(tallies))
    return {value: cell(*tallies[value]) for value in order}


def _tables(
    bench: Benchmark, units: list[_Unit]
) -> tuple[dict[str, dict[str, Cell]], dict[str, dict[str, dict[str, Cell]]]]:
    """Every breakdown and cross table from one pass over the units.

    The units are first counted per (combination of dimension values, correct): a 270,000-answer Video-MME file
    has a few hundred combinations, so the tables are built from those instead of re-reading every unit per table.
    """
    keys = [d.key for d in bench.dimensions]
    combos = Counter(zip(_dimension_values(units, keys), map(_CORRECT, units), strict=True))
    position = {key: i for i, key in enumerate(keys)}
    by_tallies: dict[str, dict[str, list[int]]] = {key: {} for key in keys}
    for (values, correct), count in combos.items():
        for key, value in zip(keys, values, strict=True):
            if value is not None:
                _add(by_tallies[key], value, count, correct)
    by = {key: _cells(bench, key, tallies) for key, tallies in by_tallies.items() if tallies}
    cross = {}
    for row_dim, col_dim in bench.cross_dimensions:
        if row_dim not in by or col_dim not in by:
            continue
        r, c = position[row_dim], position[col_dim]
        rows: dict[str, dict[str, list[int]]] = {}
        for (values, correct), count in combos.items():
            if values[r] is not None:
                row = rows.setdefault(values[r], {})
                if values[c] is not None:
                    _add(row, values[c], count, correct)
        order = bench.dimension(row_dim).order(set(rows))
        cross[cross_key(row_dim, col_dim)] = {value: _cells(bench, col_dim, rows[value]) for value in order}
    return by, cross


def _dimension_values(units: list[_Unit], keys: list[str]) -> list[tuple[str | None, ...]]:
    """Each unit's values of the dimensions `keys` (None where it has none), read in C when every unit has all."""
    dims = list(map(_DIMS, units))
    if len(keys) > 1:
        try:
            return list(map(itemgetter(*keys), dims))
        except KeyError:
            pass  # some unit lacks a dimension: read them one by one
    return [tuple(map(values.get, keys)) for values in dims]


_CORRECT, _DIMS, _CLUSTER, _IN_OVERALL, _QUESTION = map(
    attrgetter, ("correct", "dims", "cluster", "in_overall", "question")
)


def _add(tallies: dict[str, list[int]], value: str, count: int, correct: bool) -> None:
    tally = tallies.get(value)
    if tally is None:
        tally = tallies[value] = [0, 0]
    tally[0] += count
    tally[1] += count if correct else 0


def _cells(bench: Benchmark, dimension: str, tallies: dict[str, list[int]]) -> dict[str, Cell]:
    """Cells in the benchmark's display order for the dimension (unknown values after the known ones)."""
    return {value: cell(*tallies[value]) for value in bench.dimension(dimension).order(set(tallies))}


def _group_warnings(units: dict[str, _Unit], rows: list[ScoredRow]) -> list[str]:
    """Multi-binary groups with an unusual number of pairs, or whose pairs disagree on a dimension."""
    warnings = []
    sizes = Counter(u.pairs for u in units.values())
    usual = sizes.most_common(1)[0][0] if sizes else 0
    odd = [f"{key} ({u.pairs})" for key, u in units.items() if u.pairs != usual]
    if odd:
        warnings.append(f"{len(odd)} multi-binary groups have a different number of pairs than the usual {usual}: "
                        f"{_shown(odd)}")
    mixed = sorted({row.group_id for row in rows if row.dims != units[row.group_id].dims})
    if mixed:
        warnings.append(f"{len(mixed)} multi-binary groups have pairs with different dimension values "
                        f"(the first pair's are used): {_shown(mixed)}")
    return warnings


def _shown(items: list[str]) -> str:
    head = ", ".join(items[:_SHOWN])
    return head + (f" and {len(items) - _SHOWN} more" if len(items) > _SHOWN else "")
