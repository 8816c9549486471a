"""What the judge produces: one `Judgment` per question and task, and the JSONL file that holds them.

A judgment keeps everything needed to dispute it: the judge model, the prompt version, the raw reply, and,
when the judge failed, the reason. Nothing is dropped: questions a task does not apply to get a "skipped"
judgment that says why.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from mathreel.core.errors import InputError
from mathreel.core.question import Question

if TYPE_CHECKING:
    from mathreel.core.files import OutputKind

# ok: the judge answered and the card passed every check; rule: the rules decided, no judge call was needed;
# fallback: the judge failed and the rule-based answer stands in; failed: the judge failed, no value;
# skipped: the task does not apply to this question (the reason says why).
STATUSES = ("ok", "rule", "fallback", "failed", "skipped")
FAILURES = ("fallback", "failed")
TASKS = ("extract", "steps", "errors", "equiv")


@dataclass(frozen=True)
class Case:
    """One answered question to judge: the question, the model's response, and where it sits in its file."""

    question: Question
    response: str
    record: int | str = ""


@dataclass
class Judgment:
    """The judge's verdict on one question for one task."""

    question_id: str
    task: str
    status: str
    values: dict[str, Any] = field(default_factory=dict)
    judge_model: str = ""
    prompt_version: str = ""
    raw_reply: str | None = None
    reason: str = ""
    cached: bool = False
    benchmark: str = ""
    mode: str = ""
    record: int | str = ""
    dims: dict[str, str] = field(default_factory=dict)  # the question's dimensions, for per-category views
    response: str = ""  # the model response judged, so a judgment file can be read on its own

    @property
    def failed(self) -> bool:
        """True when the judge was asked and did not deliver a valid card."""
        return self.status in FAILURES

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def count_statuses(judgments: Iterable[Judgment]) -> dict[str, dict[str, int]]:
    """{task: {status: count}}, every status present (zeros included) so failures are always shown."""
    counts: dict[str, Counter[str]] = {}
    for judgment in judgments:
        counts.setdefault(judgment.task, Counter())[judgment.status] += 1
    return {task: {status: counter.get(status, 0) for status in STATUSES} for task, counter in counts.items()}


def write_judgments(
    path: str | Path, judgments: Iterable[Judgment], *, flag: str = "--out", inputs: Iterable[str | Path] = ()
) -> Path:
    """Write a JSONL file atomically, one judgment per line, through the safe writer: never over a file that is
    not an earlier judgments file, nor over one of `inputs`."""
    from mathreel.core.files import write_output

    def write(out: TextIO) -> None:
        for judgment in judgments:
            out.write(json.dumps(judgment.to_dict(), ensure_ascii=False) + "\n")

    return write_output(path, write, flag=flag, kind=judgments_file(), inputs=inputs)


def _is_judgments(head: bytes) -> bool:
    """Whether a file's first line is a judgment (a `mathreel judge` output written before)."""
    from mathreel.core.files import first_json_line

    data = first_json_line(head, _JUDGMENT_START)
    return isinstance(data, dict) and all(isinstance(data.get(key), str) for key in _REQUIRED)


# How `write_judgments` starts every line (Judgment's field order), for a first line too long to read whole.
_JUDGMENT_START = re.compile(
    rb'\{"question_id": (?P<question_id>"[^"\\]*(?:\\.[^"\\]*)*"), '
    rb'"task": (?P<task>"[a-z]+"), "status": (?P<status>"[a-z]+")'
)


_REQUIRED = ("question_id", "task", "status")


def judgments_file() -> OutputKind:
    """What `mathreel judge --out` writes, for the safe writer (core.files)."""
    from mathreel.core.files import OutputKind

    return OutputKind("a `mathreel judge` output file", _is_judgments)


# The whole-number fields a judgment's values may carry, and their largest value (a step score is out of 10; a
# question has at most a few dozen annotated steps). Checked on reading, so a hand-edited or hostile file cannot
# carry a 400-digit score into the means and statistics.
_COUNTS = {"score": 10, "matched": 10_000, "total": 10_000}


def _check_counts(values: dict[str, Any], source: str, where: str) -> None:
    for key, high in _COUNTS.items():
        value = values.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high):
            shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:39] + "…"
            raise InputError(source, f"values.{key} must be a whole number 0-{high}, not {shown}", where)


def judgment_from_dict(data: Any, source: str, line: int) -> Judgment:
    """A Judgment from one JSONL record, checked field by field."""
    where = f"line {line}"
    if not isinstance(data, dict):
        raise InputError(source, "a judgment must be a JSON object", where)
    for key in _REQUIRED:
        if not isinstance(data.get(key), str) or not data[key]:
            raise InputError(source, f"no {key!r} (is this a `mathreel judge` output file?)", where)
    if data["task"] not in TASKS:
        raise InputError(source, f"unknown task {data['task']!r}; expected one of {', '.join(TASKS)}", where)
    if data["status"] not in STATUSES:
        raise InputError(source, f"unknown status {data['status']!r}; expected one of {', '.join(STATUSES)}", where)
    for key in ("values", "dims"):
        if not isinstance(data.get(key, {}), dict):
            raise InputError(source, f"{key!r} must be an object", where)
    _check_counts(data.get("values", {}), source, where)
    known = {name for name in Judgment.__dataclass_fields__}
    return Judgment(**{key: value for key, value in data.items() if key in known})


def read_judgments(path: str | Path) -> list[Judgment]:
    """Read a judge output file; a bad line raises InputError naming the file, the line and the problem.

    Lines end at LF, CRLF or a lone CR only: a reply may hold U+2028 or U+0085, which JSON allows raw inside
    strings and which `str.splitlines` would treat as line ends. Each line is bounded, and FIFOs and devices are
    refused unread.
    """
    from mathreel.core.reading import jsonl_values

    source = str(path)
    judgments = [
        judgment_from_dict(data, source, number) for number, data in jsonl_values(path, "`mathreel judge` output file")
    ]
    if not judgments:
        raise InputError(source, "the file holds no judgments")
    return judgments
