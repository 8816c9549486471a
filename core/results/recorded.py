"""What a result file itself records about the question each answer is to: the question as the file spells it (text,
options, gold, dimensions) and the prompt(s) it kept, so an answer can be read, and checked against a dataset,
without the dataset.

Harness fields hold the prompt a model was sent: lmms-eval >= 0.4 writes it as `input`, older logs keep the
request's `arguments` (the prompt first), plain files may carry `prompt`. A benchmark adds its own
(`Benchmark.prompt_fields`: MathVerse's `query_wo` / `query_cot`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from mathreel.core.extract.lazy import lazy_regex
from mathreel.core.question import Question

if TYPE_CHECKING:
    from mathreel.core.benchmarks import Benchmark

# How the question an answer is scored against was found:
#   file   - it is the file's own question (the file carries its gold answer);
#   text   - the annotations' question, whose text and options match the file's;
#   prompt - the annotations' question, whose text and options are in the prompt the file recorded;
#   id     - the annotations' question of that id: the file records no question text to check it against.
JoinHow = Literal["file", "text", "prompt", "id"]
JOIN_WORDS: dict[str, str] = {
    "file": "the file's own question",
    "text": "matched by question text and options",
    "prompt": "matched by the question and options in the prompt the file recorded",
    "id": "joined by id alone: the file records no question text to check",
}


class RecordedPrompt(NamedTuple):
    """A prompt the file recorded, and the field it came from ("input", "arguments[0]", "query_cot", ...)."""

    field: str
    text: str


class FileQuestion(NamedTuple):
    """The question of one answer as its result file records it, and how the scored question was found.

    `question` holds only what the file carries: its text and options may be empty (an lmms-eval >= 0.4 log
    keeps them only inside the recorded prompt; an id-only file keeps nothing), its gold may be empty.
    Named tuples, not frozen dataclasses: one rides on every scored row that crosses from the scoring child to the
    server, and a frozen dataclass is rebuilt there attribute by attribute (`object.__setattr__`).
    """

    question: Question
    prompts: tuple[RecordedPrompt, ...] = ()
    join: JoinHow = "file"


# Harness fields holding the prompt sent, looked up on the record as written and on the fields the layout read.
_PROMPT_FIELDS = ("prompt", "input")
_ARGUMENTS = "arguments"  # lmms-eval's Instance.arguments: (context, gen_kwargs, doc_id, task, split)
PROMPT_KEYS = (*_PROMPT_FIELDS, _ARGUMENTS)  # a record with none of these keeps no harness prompt


def recorded_prompts(bench: Benchmark, raw: Mapping[str, Any], fields: Mapping[str, Any]) -> tuple[RecordedPrompt, ...]:
    """The prompts a record keeps (`raw`, read as `fields`): the harness's (`input`, `arguments[0]`, `prompt`) and
    the benchmark's own prompt fields (MathVerse's `query_wo` / `query_cot`), each as it was sent."""
    found = harness_prompts(raw, fields)
    for key in bench.prompt_fields:
        value = fields.get(key)
        if value.__class__ is str and value.strip():
            found.append(RecordedPrompt(key, value))
    if not found:
        return ()
    return tuple(RecordedPrompt(p.field, bench.recorded_prompt_text(p.field, p.text, fields)) for p in found)


def harness_prompts(raw: Mapping[str, Any], fields: Mapping[str, Any]) -> list[RecordedPrompt]:
    """The prompts a record keeps in harness fields (`prompt`, `input`, lmms-eval's `arguments[0]`), in that order."""
    found = []
    for key in _PROMPT_FIELDS:
        value = raw.get(key)
        if value is None and fields is not raw:
            value = fields.get(key)
        if value.__class__ is str and value.strip():
            found.append(RecordedPrompt(key, value))
    arguments = raw.get(_ARGUMENTS)
    if arguments.__class__ is list and arguments and isinstance(arguments[0], str) and arguments[0].strip():
        found.append(RecordedPrompt(f"{_ARGUMENTS}[0]", arguments[0]))
    return found


def first_prompt_text(raw: Mapping[str, Any]) -> str:
    """The text of the first harness prompt a raw record keeps ("" when none), for run-settings detection."""
    prompts = harness_prompts(raw, {})
    return prompts[0].text if prompts else ""


_OPTION_LINE = lazy_regex(r"^\s*\(?([A-Z])\s*[\.\):：]\s*\S")


def options_in_prompt(text: str) -> tuple[str, ...]:
    """The options a prompt lists: the last run of two or more lines lettered A, B, C, ... in order ("A. x",
    "(B) y", "C: z"), as written; () when it lists none. For showing the options of a file that records only its
    prompt (an lmms-eval >= 0.4 log)."""
    best: list[str] = []
    run: list[str] = []
    for line in text.splitlines():
        match = _OPTION_LINE.match(line)
        if match and ord(match.group(1)) - ord("A") == len(run):
            run.append(line.strip())
            continue
        if len(run) >= 2:
            best = run
        run = [line.strip()] if match and match.group(1) == "A" else []
    return tuple(run if len(run) >= 2 else best)
