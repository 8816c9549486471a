"""The parts of a decomposition always add up to the whole gap, exactly, for random pairs of files and scorers.

Hypothesis writes two runs of random answers (a pool of responses every reader reads differently, refusals,
questions missing from one run, answers that differ between runs, gold answers that differ between files) for
Video-MME, VideoMathQA multi-binary and Video-MME-v2 groups, and picks two scorers among every known one. The
steps must sum to B - A exactly, and each end of the path must be the figure that number has on its own.
"""

from __future__ import annotations

import tempfile
from fractions import Fraction
from pathlib import Path

from helpers.explain_lines import OPTIONS
from helpers.jsonl import write_jsonl
from helpers.v2files import Spec, rows, write_official_tsv
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathreel.core.explain.gap import Number, decompose, figure_of
from mathreel.core.explain.runs import Scorings, load_run
from mathreel.core.explain.scorers import known_scorers
from mathreel.core.scoring import score

RESPONSES = (
    "D",
    "A",
    "C",
    "Based on the video, the answer is D.",
    "I cannot tell.",
    "The answer is (B)",
    "Answer: C. Blue.",
    "\\boxed{D}",
    "The correct option is A",
    "yellow",
)


def videomme_file(path: Path, answers: dict[int, tuple[int, str]]) -> Path:
    return write_jsonl(
        path,
        [
            {
                "question_id": f"{q:03d}-1",
                "video_id": f"{q // 3:03d}",
                "duration": "short",
                "options": OPTIONS,
                "answer": gold,
                "response": RESPONSES[r],
            }
            for q, (r, gold) in answers.items()
        ],
    )


def mbin_file(path: Path, answers: dict[int, tuple[int, str]]) -> Path:
    lines = []
    for q, (r, _) in answers.items():
        for k in range(1, 5):
            gold = "A" if k % 2 else "B"
            reply = (gold, "B" if gold == "A" else "A", "I cannot tell.", f"The answer is ({gold})")[(r + k) % 4]
            lines.append(
                {
                    "question_id": f"q{q}_{k}",
                    "options": ["A. yes", "B. no"],
                    "answer": gold,
                    "response": reply,
                    "category": "Chart",
                    "video_id": f"v{q // 2}",
                }
            )
    return write_jsonl(path, lines)


def v2_file(path: Path, answers: dict[int, tuple[int, str]]) -> Path:
    kinds = (("relevance", "[1,2,3,4]"), ("logic", "[1,2,3,4]"), ("logic", "[1,[2,3],4]"), ("logic", "[[1,2],3,4]"))
    specs = []
    for q, (r, _) in answers.items():
        kind, structure = kinds[q % 4]
        pattern = "".join("CWU"[(r + q * k) % 3] for k in range(4))
        specs.append(Spec(f"{q:03d}", kind, structure, pattern, 1 + q % 3, "SH", "TH"))
    records = rows(specs)
    if answers and next(iter(answers.values()))[0] % 2:  # sometimes rows out of video order
        records = records[4:] + records[:4]
    return write_official_tsv(path, records)


WRITERS = {
    "videomme": (videomme_file, None, ".jsonl"),
    "videomathqa": (mbin_file, "mbin", ".jsonl"),
    "videomme-v2": (v2_file, None, ".tsv"),
}


@st.composite
def runs_and_scorers(draw: st.DrawFn) -> tuple[str, dict, dict, int, int]:
    benchmark = draw(st.sampled_from(sorted(WRITERS)))
    answer = st.tuples(st.integers(0, len(RESPONSES) - 1), st.sampled_from("ABCD"))
    a = draw(st.dictionaries(st.integers(1, 18), answer, min_size=2, max_size=14))
    b = draw(st.dictionaries(st.integers(1, 18), answer, min_size=2, max_size=14))
    return benchmark, a, b, draw(st.integers(0, 10_000)), draw(st.integers(0, 10_000))


@settings(max_examples=80, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs_and_scorers())
def test_parts_always_add_up_to_the_whole_gap(case):
    benchmark, answers_a, answers_b, pick_a, pick_b = case
    write, mode, suffix = WRITERS[benchmark]
    with tempfile.TemporaryDirectory() as folder:
        run_a = load_run(str(write(Path(folder) / f"a{suffix}", answers_a)), benchmark, mode)
        run_b = load_run(str(write(Path(folder) / f"b{suffix}", answers_b)), benchmark, mode)
        scorers = known_scorers(run_a.bench, run_a.result.mode)
        a = Number(run_a, scorers[pick_a % len(scorers)])
        b = Number(run_b, scorers[pick_b % len(scorers)])
        scorings = Scorings(run_a.result.benchmark, run_a.result.mode)
        gap = decompose(a, b, scorings)
        ends = figure_of(a, Scorings(benchmark, run_a.result.mode)).figure, figure_of(b).figure
        assert (gap.a_figure, gap.b_figure) == ends
        if None in ends:
            return
        assert sum((step.delta for step in gap.steps), Fraction(0)) == gap.total
        assert gap.parts_add_up()
        for number, figure in ((a, gap.a_figure), (b, gap.b_figure)):
            if number.scorer.unit == "question":
                report = score(number.run.result, extractor=number.scorer.reader, denominator=number.scorer.denominator)
                assert figure == Fraction(100 * report.overall.correct, report.overall.n)
