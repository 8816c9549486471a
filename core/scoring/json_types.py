"""The shape of `mathreel score --json`, one `TypedDict` per object.

The `to_dict` methods of `Report`, `Cell`, `ScoredRow` and the group types return these, so the type checker
holds them to it, and `core.scoring.schema` writes the JSON schema (docs/report.schema.json) from them: the
documented format and the printed one come from the same lines. Optional keys sit in a `total=False` subclass
(Python 3.10 has no `NotRequired`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, TypedDict

from mathreel.core.kinds import SCHEMA_VERSION, Denominator, Status  # noqa: F401  (the version is re-exported)

if TYPE_CHECKING:  # the schema generator passes it in: importing core.results here would load every reader
    from mathreel.core.results.recorded import JoinHow


class CellJSON(TypedDict):
    """One accuracy figure: n scored units, how many were correct, accuracy and its 95% Wilson interval (percent,
    two decimals), and both as `mathreel score` prints them (from full precision)."""

    n: int
    correct: int
    accuracy: float | None
    ci: list[float] | None
    text: str


class OverallJSON(CellJSON):
    """The headline figure, with the naive and the clustered standard errors (points, three decimals)."""

    se: float | None
    clustered_se: float | None
    clusters: int
    clustered_by: str


class RuleJSON(TypedDict):
    """What the rule-based extractor read, when the judge's extraction decided the answer's score."""

    extracted: str | None
    method: str
    explanation: str
    status: Status


class _RowRequired(TypedDict):
    question_id: str
    group_id: str
    cluster: str
    dims: dict[str, str]
    response: str
    extracted: str | None
    method: str
    explanation: str
    gold: str
    status: Status
    official_answer: str | None
    record: int | str | None
    join: JoinHow | None
    rule: RuleJSON | None
    strength: str | None


class RowJSON(_RowRequired, total=False):
    """One scored answer (`--json --rows`) and everything that decided its score; `full_response` only when the
    file kept the unfiltered reply beside the response."""

    full_response: str


class FigureJSON(TypedDict):
    """A set of groups: the mean group score (0-100) with its interval, and the accuracy of their questions."""

    score: float | None
    score_ci: list[float] | None
    groups: int
    accuracy: float | None
    accuracy_ci: list[float] | None
    questions: int
    correct: int
    text: str


class EffectJSON(TypedDict):
    """What one of a reference's rules did to its total."""

    rule: str
    total: float | None
    without: float | None
    change: float | None
    text: str


class GroupItemJSON(TypedDict):
    """One scored group (`--json --rows`): its members, their marks and the score they made."""

    group: str
    video: str
    kind: str
    structure: str
    dims: dict[str, str]
    questions: list[str]
    statuses: list[Status]
    marks: list[int]
    roles: list[str]
    score: float | None
    linear: float | None
    steps: int | None
    broken_at: int | None
    explanation: str


class _GroupsRequired(TypedDict):
    total: float | None
    scored_as: str
    groups: int
    questions: int
    unscored: list[str]
    figures: dict[str, FigureJSON]
    by: dict[str, dict[str, FigureJSON]]
    effects: list[EffectJSON]
    notes: list[str]
    warnings: list[str]
    score_ci_method: str
    accuracy_ci_method: str


class GroupsJSON(_GroupsRequired, total=False):
    """Group scores, for a benchmark scored in groups (Video-MME-v2). Beside `total`, one score per group kind
    and per linear kind ("relevance", "logic_linear": `GROUP_KIND_SCORES`); `items` with `--rows`."""

    items: list[GroupItemJSON]


# The group scores named by the benchmark's group kinds (keys of `GroupsJSON` beside its declared ones).
GROUP_KIND_SCORES: dict[str, Any] = {"type": ["number", "null"]}


class _ReportRequired(TypedDict):
    schema: Literal[1]
    source: str
    benchmark: str
    mode: str
    format: str
    grouped: bool
    answers: int
    overall: OverallJSON
    by: dict[str, dict[str, CellJSON]]
    cross: dict[str, dict[str, dict[str, CellJSON]]]
    excluded_from_overall: int
    unparsed: int
    unparsed_ids: list[str]
    parse_failure_rate: float | None
    weak_readings: int
    weak_reading_ids: list[str]
    labelled_readings: int
    missing: int
    missing_ids: list[str]
    unknown_ids: list[str]
    disagreements: int
    disagreement_ids: list[str]
    warnings: list[str]
    extractor: str
    official_extractor: str | None
    denominator: Denominator
    denominator_means: str
    ci_method: str
    se_method: str
    detected: list[str]
    mismatched: int
    mismatched_ids: list[str]
    joins: dict[str, int]


class ReportJSON(_ReportRequired, total=False):
    """The scores of one result file, as `mathreel score --json` prints them (schema version 1)."""

    groups: GroupsJSON
    rows: list[RowJSON]
    # A reproduction's own result object, as its reference writes it (`Report.upstream`).
    official_rating: dict[str, Any]
    lmms_eval: dict[str, Any]
    evalscope: dict[str, Any]


# The names a reproduction's own result object can take in the report (`core.scoring.report.Upstream`).
UpstreamName = Literal["official_rating", "lmms_eval", "evalscope"]
