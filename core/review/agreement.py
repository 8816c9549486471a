"""How far the judge agrees with people, and people with each other: the figures `mathreel agreement` prints and
the app's agreement view draws. Built from judgments and reviews joined on (question, response fingerprint)."""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from mathreel.core.errors import MathReelError
from mathreel.core.files import OutputKind, first_line
from mathreel.core.judge.model import Judgment
from mathreel.core.plural import counted
from mathreel.core.review import stats
from mathreel.core.review.join import join
from mathreel.core.review.model import FLAGS, Review


@dataclass(frozen=True)
class Flagged:
    """A question a reviewer says is broken, with the reason, for the dataset maintainer."""

    question_id: str
    reviewer: str
    flag: str
    reason: str
    note: str


@dataclass
class Agreement:
    """Judge vs reviewers on primary categories and step scores, reviewers vs each other, and flagged questions."""

    n_reviews: int
    stale: int
    labels: list[str]
    category_pairs: int
    kappa: float
    kappa_ci: tuple[float, float]
    confusion: list[list[int]]  # rows: judge, columns: reviewer
    per_category: list[stats.CategoryScore]
    step_pairs: list[tuple[int, int]]  # (judge, reviewer)
    steps: stats.Differences
    spearman: float
    reviewers: list[str]
    pairwise: dict[str, tuple[float, int]] = field(default_factory=dict)  # "a vs b": (kappa, shared questions)
    paired_reviewers: int = 0  # the reviewers the pairs are among: at most MAX_PAIRED_REVIEWERS, the busiest
    fleiss: tuple[float, int] = (stats.NAN, 0)
    flagged: list[Flagged] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["kappa_ci"] = list(self.kappa_ci)
        data["pairwise"] = {k: {"kappa": v[0], "questions": v[1]} for k, v in self.pairwise.items()}
        data["fleiss"] = {"kappa": self.fleiss[0], "questions": self.fleiss[1]}
        return _no_nan(data)


def _no_nan(value: Any) -> Any:
    """NaN (undefined) as JSON null."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _no_nan(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_no_nan(v) for v in value]
    return value


# Pairwise kappa is shown for the reviewers with the most categorised reviews, at most this many (66 pairs): a
# file of 3,000 reviewers would otherwise ask for 4.5 million pairs. Fleiss' kappa still pools every reviewer.
MAX_PAIRED_REVIEWERS = 12
# Distinct primary categories across judge and reviewers: a benchmark has about ten; a file naming thousands is
# not a review of this judge, and the confusion matrix grows with the square of the count.
MAX_CATEGORIES = 100


@dataclass(frozen=True)
class BetweenReviewers:
    """Pairwise kappas ("a vs b": (kappa, shared questions)) among `paired` reviewers, and Fleiss' kappa with its
    number of questions."""

    pairwise: dict[str, tuple[float, int]]
    paired: int
    fleiss: tuple[float, int]


def between_reviewers(reviews: Sequence[Review]) -> BetweenReviewers:
    """Pairwise Cohen's kappa per pair of reviewers (over the questions both categorised), for the
    `MAX_PAIRED_REVIEWERS` reviewers with the most categorised reviews, and Fleiss' kappa over the questions every
    reviewer categorised. O(reviews + pairs x questions)."""
    by_reviewer: dict[str, dict[str, str]] = {}
    for review in reviews:
        if review.category_verdict and review.primary:
            by_reviewer.setdefault(review.reviewer, {})[review.question_id] = review.primary
    busiest = sorted(sorted(by_reviewer), key=lambda name: -len(by_reviewer[name]))[:MAX_PAIRED_REVIEWERS]
    pairwise = {}
    for a, b in itertools.combinations(sorted(busiest), 2):
        shared = [q for q in by_reviewer[a] if q in by_reviewer[b]]
        pairwise[f"{a} vs {b}"] = (
            stats.cohen_kappa([by_reviewer[a][q] for q in shared], [by_reviewer[b][q] for q in shared])
            if shared
            else stats.NAN,
            len(shared),
        )
    fleiss: tuple[float, int] = (stats.NAN, 0)
    if len(by_reviewer) >= 2:
        smallest = min(by_reviewer.values(), key=len)
        everyone = [q for q in smallest if all(q in labels for labels in by_reviewer.values())]
        rows = [[by_reviewer[r][q] for r in sorted(by_reviewer)] for q in sorted(everyone)]
        fleiss = (stats.fleiss_kappa(rows), len(rows))
    return BetweenReviewers(pairwise, len(busiest), fleiss)


def flagged(reviews: Sequence[Review]) -> list[Flagged]:
    return [Flagged(r.question_id, r.reviewer, r.flag, r.flag_reason, r.note) for r in reviews if r.flag]


def agreement(
    judgments: Sequence[Judgment], reviews: Sequence[Review], *, seed: int = 0, resamples: int = 2000
) -> Agreement:
    """Every agreement figure for one judgment file and its reviews (several reviewers pooled against the judge)."""
    if not 0 <= seed < 2**32:
        raise MathReelError(f"the bootstrap seed must be a whole number 0 or more, not {seed}")
    joined = join(judgments, reviews)
    cats = [(v.primary, r.primary) for v, r in joined.pairs if r.category_verdict and v.primary and r.primary]
    judge_cats, people_cats = [c[0] for c in cats], [c[1] for c in cats]
    labels = stats.labels_of(judge_cats, people_cats)
    if len(labels) > MAX_CATEGORIES:
        raise MathReelError(
            f"the judgments and reviews name {len(labels):,} different primary error categories (at "
            f"most {MAX_CATEGORIES}); are these reviews of this judge's run?"
        )
    steps = [
        (v.step_score, r.step_score)
        for v, r in joined.pairs
        if r.steps_verdict and v.step_score is not None and r.step_score is not None
    ]
    between = between_reviewers([r for _, r in joined.pairs])
    return Agreement(
        n_reviews=len(reviews),
        stale=len(joined.stale),
        labels=labels,
        category_pairs=len(cats),
        kappa=stats.cohen_kappa(judge_cats, people_cats, labels),
        kappa_ci=stats.kappa_interval(judge_cats, people_cats, seed=seed, resamples=resamples),
        confusion=stats.confusion(judge_cats, people_cats, labels),
        per_category=stats.precision_recall(judge_cats, people_cats, labels),
        step_pairs=steps,
        steps=stats.differences([s[0] for s in steps], [s[1] for s in steps]),
        spearman=stats.spearman([s[0] for s in steps], [s[1] for s in steps]),
        reviewers=sorted({r.reviewer for r in reviews}),
        pairwise=between.pairwise,
        fleiss=between.fleiss,
        paired_reviewers=between.paired,
        flagged=flagged(reviews),
    )


def _f(value: float, digits: int = 2) -> str:
    return "undefined" if math.isnan(value) else f"{value:.{digits}f}"


def summary_lines(result: Agreement) -> list[str]:
    """The text `mathreel agreement` prints."""
    low, high = result.kappa_ci
    lines = [
        f"reviews: {result.n_reviews} from {len(result.reviewers)} reviewer(s); {result.stale} do not match a "
        "judged response (another response or question) and are left out",
        f"primary error category, judge vs reviewers: Cohen's kappa {_f(result.kappa)} "
        f"(95% bootstrap CI {_f(low)} to {_f(high)}) over {counted(result.category_pairs, 'review')}",
    ]
    lines += [
        f"  {s.category}: precision {_f(s.precision)} (judge named it {s.judge}x), recall {_f(s.recall)} "
        f"(reviewers named it {s.reviewer}x)"
        for s in result.per_category
    ]
    d = result.steps
    lines.append(
        f"step scores over {counted(d.n, 'review')}: mean |judge - reviewer| {_f(d.mean_absolute)}, Spearman "
        f"{_f(result.spearman)}, mean difference {_f(d.mean)} (limits of agreement {_f(d.low)} to "
        f"{_f(d.high)})"
    )
    if result.paired_reviewers == MAX_PAIRED_REVIEWERS and len(result.reviewers) > MAX_PAIRED_REVIEWERS:
        lines.append(
            f"between reviewers: pairs among the {MAX_PAIRED_REVIEWERS} reviewers with the most categorised "
            f"reviews (of {len(result.reviewers):,} reviewers)"
        )
    for pair, (kappa, n) in result.pairwise.items():
        lines.append(f"between reviewers {pair}: Cohen's kappa {_f(kappa)} over {counted(n, 'question')}")
    if result.fleiss[1]:
        lines.append(
            f"between all reviewers: Fleiss' kappa {_f(result.fleiss[0])} over {counted(result.fleiss[1], 'question')}"
        )
    lines.append(f"flagged questions: {len(result.flagged)}")
    lines += [f"  {f.question_id} ({f.reviewer}): {FLAGS.get(f.flag, f.flag)}: {f.reason}" for f in result.flagged]
    return lines


def _cell(text: str) -> str:
    """A cell a spreadsheet will not run as a formula (a reason may start with "=" or "@")."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


FLAGGED_HEADER = ("question_id", "reviewer", "flag", "reason", "note")
FLAGGED_CSV = OutputKind(
    "a flagged-questions CSV of `mathreel agreement`",
    lambda head: first_line(head) == ",".join(FLAGGED_HEADER).encode(),
)
FLAGGED_JSON = OutputKind(
    "a flagged-questions JSON of `mathreel agreement`",
    lambda head: re.match(rb'\[\s*(\]|\{\s*"question_id":)', head) is not None,
)


def flagged_csv(items: Sequence[Flagged]) -> str:
    """Flagged questions as CSV (question_id, reviewer, flag, reason, note)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(FLAGGED_HEADER)
    writer.writerows([_cell(v) for v in (f.question_id, f.reviewer, f.flag, f.reason, f.note)] for f in items)
    return out.getvalue()


def flagged_json(items: Sequence[Flagged]) -> str:
    return json.dumps([asdict(f) for f in items], ensure_ascii=False, indent=1) + "\n"
