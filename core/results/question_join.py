"""The join rule: an answer is shown with a dataset's question only when it is that question, never by id alone.

Result-file ids are not unique across datasets (a real Video-MME log and the demo set both use `001-1`), so a
file's row is joined to a dataset question only when what the file recorded about its question matches it
(`question_key`: text and options, whatever the spacing, case, punctuation or option lettering):
- the file records the question's text: it must be the dataset question's text, and the options must agree
  when both record options (a record with options and no text: the options must agree);
- the file records only the prompt it sent (an lmms-eval >= 0.4 log's `input`): the dataset question's text and
  every option must be in it, or the prompt must be one the benchmark builds for that question (a question whose
  text is in its diagram, MathVerse's Vision Only, has a prompt that names no question; its image then decides);
- the file records no question text at all (an id-only file): joined by id only when the caller says so (the user
  gave the dataset as annotations), and the join says it is by id alone.
Where both record an image file (MathVerse), its name must agree as well.

`match_how` decides for a question in hand (the reader's annotations join); `join_question` looks the question up
in a dataset and decides ("the dataset's question" | "not on this server"), for everything that shows a question.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from mathreel.core.benchmarks import Benchmark, get_benchmark
from mathreel.core.errors import InputError
from mathreel.core.question import Question
from mathreel.core.results.question_key import contains, option_keys, text_key
from mathreel.core.results.recorded import FileQuestion, JoinHow

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mathreel.core.data import Dataset

NOT_ON_SERVER = "video and frames for these questions are not on this server"


def not_on_server(bench: Benchmark) -> str:
    """The note of an answer read from its file alone: what of its question the server cannot show."""
    layout = bench.layout
    if layout is None or layout.has_video:
        return NOT_ON_SERVER
    return (
        "the diagrams for these questions are not on this server"
        if layout.image_dirs
        else "these questions are not on this server"
    )


@dataclass(frozen=True)
class QuestionJoin:
    """The decision for one answer: the dataset's question it belongs to (None: not on this server), how it was
    matched, and one sentence saying so."""

    question: Question | None
    how: JoinHow | None
    note: str

    @property
    def on_server(self) -> bool:
        return self.question is not None

    @property
    def reason(self) -> str:
        """The note without what the page does about it (": read from the file"), for a sentence of its own."""
        return self.note.removesuffix(": read from the file")


def _texts(question: Question, bench: Benchmark) -> set[str]:
    """The keys of a question's text as written and in full (`Benchmark.full_question`), empty ones left out."""
    return {key for key in (text_key(question.question), text_key(bench.full_question(question))) if key}


def _image_name(question: Question) -> str:
    image = question.extra.get("image")
    return PurePosixPath(image.replace("\\", "/")).name if isinstance(image, str) and image.strip() else ""


def _built_prompt_keys(question: Question, bench: Benchmark) -> set[str]:
    """Keys of every prompt the benchmark builds for `question` without subtitles (each style, with and without
    chain of thought where it has one): what a recorded prompt that does not hold the question's text is
    compared with."""
    keys = set()
    for style in bench.prompt_styles:
        for cot in (False, True) if bench.supports_cot else (False,):
            try:
                keys.add(text_key(bench.build_prompt(question, cot=cot, style=style)))
            except InputError:
                continue
    return keys - {""}


def records_question(recorded: FileQuestion, bench: Benchmark) -> bool:
    """Whether the file records anything to check a dataset's question against: text (in full, as the benchmark
    reads it), options or a prompt."""
    own = recorded.question
    return bool(own.question or own.options or recorded.prompts or bench.full_question(own))


def match_how(recorded: FileQuestion, candidate: Question, bench: Benchmark) -> JoinHow | None:
    """How the file's record of a question matches `candidate` ("text" or "prompt"), or None when it does not (or
    the file records nothing to compare: the caller decides whether an id-only join is wanted)."""
    own = recorded.question
    own_image, image = _image_name(own), _image_name(candidate)
    if own_image and image and own_image != image:
        return None
    own_options, options = option_keys(own.options), option_keys(candidate.options)
    if own_options and options and own_options != options:
        return None
    texts = _texts(candidate, bench)
    own_texts = _texts(own, bench)
    if own_texts:
        return "text" if own_texts & texts else None
    if own_options and options:  # no text, the same options (checked above): a row that records only its choices
        return "text"
    for prompt in recorded.prompts:
        key = text_key(prompt.text)
        if texts and any(contains(key, t) for t in texts) and all(contains(key, o) for o in options if o):
            return "prompt"
    if recorded.prompts:  # a question whose text is in its diagram (MathVerse Vision Only): the prompt itself
        built = _built_prompt_keys(candidate, bench)
        if any(text_key(prompt.text) in built for prompt in recorded.prompts):
            return "prompt"
    return None


def join_question(recorded: FileQuestion | None, ref: str, dataset: Dataset, *, by_id: bool = False) -> QuestionJoin:
    """The dataset question answer `ref` belongs to, or why there is none on this server.

    `recorded` is what the result file recorded about the question (`ScoredRow.recorded`); `by_id` allows the join
    by id alone for an answer whose file records no question text (the user gave this dataset as the file's
    annotations). An answer read with annotations (`recorded.join` "text", "prompt" or "id") is checked again
    here: the server's dataset may not be the annotations it was read with.
    """
    bench = get_benchmark(dataset.benchmark)
    own = recorded.question if recorded is not None else None
    if own is not None and (own.benchmark, own.mode) != (dataset.benchmark, dataset.mode):
        return QuestionJoin(
            None,
            None,
            f"the answer is to a {own.benchmark} {own.mode} question; the server shows "
            f"{dataset.benchmark} {dataset.mode}: read from the file",
        )
    try:
        candidate = dataset.question(ref)
    except InputError:
        return QuestionJoin(None, None, f"question {ref} is not in the server's {bench.title} set: read from the file")
    if recorded is not None and records_question(recorded, bench):
        how = match_how(recorded, candidate, bench)
        if how is None:
            return QuestionJoin(
                None,
                None,
                f"the file's question {ref} is not the server's question {ref} (text or "
                "options differ): read from the file",
            )
        note = f"the server's question {ref}, {_MATCHED[how]}" + _gold_note(own, candidate)
        return QuestionJoin(candidate, how, note)
    if by_id or (recorded is not None and recorded.join == "id"):
        return QuestionJoin(
            candidate,
            "id",
            f"the server's question {ref}, joined by id alone as asked: the file "
            "records no question text to check it against",
        )
    return QuestionJoin(
        None,
        None,
        f"the file records no question text for {ref}, so its answer is not shown under "
        "the server's question of that id (give the dataset as the file's annotations to "
        "join by id)",
    )


_MATCHED = {
    "text": "matched by question text and options",
    "prompt": "matched by the question and options in the prompt the file recorded",
}


def _gold_note(own: Question | None, candidate: Question) -> str:
    if own is not None and own.answer and candidate.answer and own.answer != candidate.answer:
        return f" (the file's gold answer {own.answer} differs from the server's {candidate.answer})"
    return ""
