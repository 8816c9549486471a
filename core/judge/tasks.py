"""The four judge tasks. Each says, per question, whether it applies, whether rules already decide it, or what to
ask the judge; then checks the judge's card field by field and says what stands in when the judge fails.

- extract: the option a CoT response finally chose (MCQ, multi-binary, MathVerse multi-choice). On failure the
  robust rule extractor's answer, or an explicit unparsed; never a random letter.
- steps: the paper's step-wise evaluation against the annotated steps.
- errors: one primary and optional secondary error categories, each with a rationale, for wrong answers.
- equiv: MathVerse free-form equivalence, asked only when the rule check (`free_verdict`) cannot decide.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mathreel.core.benchmarks import Benchmark, get_benchmark
from mathreel.core.extract.choice import extract_choice
from mathreel.core.extract.free_verdict import free_verdict
from mathreel.core.judge import prompts
from mathreel.core.judge.model import Case, Judgment
from mathreel.core.judge.parse import (
    CardError,
    choice_field,
    flag_field,
    fraction_field,
    int_field,
    required,
    text_field,
)
from mathreel.core.question import Question

Earlier = Mapping[str, Judgment]  # this question's judgments from the first stage, by task


@dataclass(frozen=True)
class Plan:
    """One task on one question: skip it (why), take the rules' decision (values), or ask the judge (prompt)."""

    skip: str | None = None
    decided: dict[str, Any] | None = None
    prompt: str | None = None


class Task:
    """Base of the judge tasks; `stage` 2 runs after stage 1 has finished for the same question."""

    name = ""
    stage = 1
    temperature: float | None = None  # None: the judge endpoint's own setting

    @property
    def version(self) -> str:
        return prompts.VERSIONS[self.name]

    def applies_to(self, bench: Benchmark) -> str | None:
        """None when the task can apply to this benchmark, else why not."""
        return None

    def plan(self, case: Case, bench: Benchmark, earlier: Earlier) -> Plan:
        raise NotImplementedError

    def read(self, card: dict[str, Any], case: Case, bench: Benchmark) -> dict[str, Any]:
        """The checked values of a card; raises CardError with the reason."""
        raise NotImplementedError

    def fallback(self, case: Case, bench: Benchmark, reason: str) -> dict[str, Any] | None:
        """What stands in when the judge fails (status "fallback"), or None (status "failed")."""
        return None


# ------------------------------------------------------------------ helpers


def question_text(question: Question) -> str:
    """The question as the judge sees it: the benchmark's complete question text (`Benchmark.full_question`)."""
    return get_benchmark(question.benchmark).full_question(question)


def allowed_letters(question: Question, bench: Benchmark) -> tuple[str, ...]:
    return question.letters if question.options else bench.letters(question.mode)


def option_label(question: Question, letter: str | None) -> str:
    """ "C. 12 cm" for a letter with an option text, the letter alone otherwise, or a note for no answer."""
    if letter is None:
        return "(no final answer)"
    text = question.option_texts.get(letter) if question.options else None
    return f"{letter}. {text}" if text else letter


def rule_choice(case: Case, bench: Benchmark):
    """The robust rule extractor's reading of a choice response."""
    question = case.question
    options = question.option_texts if question.options else None
    return extract_choice(case.response, allowed_letters(question, bench), options, question.question)


def final_answer(case: Case, bench: Benchmark, earlier: Earlier) -> tuple[str | None, bool | None, str]:
    """(answer as shown, correct?, where it came from): the stage-1 judgments if any, else the rules."""
    question = case.question
    if question.answer_kind == "free":
        equiv = earlier.get("equiv")
        if equiv is not None and equiv.values.get("equivalent") is not None:
            return equiv.values.get("answer"), bool(equiv.values["equivalent"]), f"equiv ({equiv.status})"
        verdict = free_verdict(case.response, question.answer, question.question)
        answer = verdict.extraction.answer
        return answer, verdict.equivalence.equal if answer is not None else False, "rules"
    extract = earlier.get("extract")
    if extract is not None and extract.status in ("ok", "rule", "fallback"):
        letter = extract.values.get("answer")
        return option_label(question, letter), letter == question.answer, f"extract ({extract.status})"
    letter = rule_choice(case, bench).answer
    return option_label(question, letter), letter == question.answer, "rules"


# ------------------------------------------------------------------ extract


class ExtractTask(Task):
    """The letter a CoT response chose, read by the judge at temperature 0 and checked against the allowed letters."""

    name = "extract"
    temperature = 0.0

    def plan(self, case: Case, bench: Benchmark, earlier: Earlier) -> Plan:
        question = case.question
        if question.answer_kind == "free":
            return Plan(skip="free-form question: its answer is checked by the equiv task")
        if not case.response.strip():
            return Plan(decided={"answer": None, "source": "rule", "explanation": "empty response: nothing to read"})
        letters = allowed_letters(question, bench)
        prompt = prompts.extract_prompt(question_text(question), question.options, letters, case.response)
        return Plan(prompt=prompt)

    def read(self, card: dict[str, Any], case: Case, bench: Benchmark) -> dict[str, Any]:
        letters = allowed_letters(case.question, bench)
        value = required(card, "answer")
        if value is None or (isinstance(value, str) and value.strip().casefold() in ("none", "null")):
            return {"answer": None, "source": "judge", "explanation": "the judge found no final answer"}
        letter = choice_field(value.strip().strip("()") if isinstance(value, str) else value, "answer", letters)
        return {"answer": letter, "source": "judge", "explanation": f"the judge read {letter}"}

    def fallback(self, case: Case, bench: Benchmark, reason: str) -> dict[str, Any]:
        rule = rule_choice(case, bench)
        return {
            "answer": rule.answer,
            "source": "rule" if rule.answer is not None else "none",
            "explanation": f"judge failed ({reason}); rule extractor: {rule.explanation}",
        }


# ------------------------------------------------------------------ steps


class StepsTask(Task):
    """Step-wise evaluation of a CoT response against the annotated solution steps."""

    name = "steps"

    def plan(self, case: Case, bench: Benchmark, earlier: Earlier) -> Plan:
        question = case.question
        steps = question.steps
        if not steps:
            return Plan(skip="no annotated steps for this question")
        if not case.response.strip():
            total = len(steps)
            return Plan(
                decided={
                    "matched": 0,
                    "total": total,
                    "matched_steps": f"0/{total}",
                    "final_answer_correct": False,
                    "critique": "The response is empty.",
                    "score": 0,
                }
            )
        gold = option_label(question, question.answer) if question.answer_kind == "choice" else question.answer
        prompt = prompts.steps_prompt(question_text(question), question.options, steps, gold, case.response)
        return Plan(prompt=prompt)

    def read(self, card: dict[str, Any], case: Case, bench: Benchmark) -> dict[str, Any]:
        total = len(case.question.steps)
        matched = fraction_field(card, "matched_steps", total)
        return {
            "matched": matched,
            "total": total,
            "matched_steps": f"{matched}/{total}",
            "final_answer_correct": flag_field(card, "final_answer_correct"),
            "critique": text_field(card, "critique", limit=2000),
            "score": int_field(card, "score", 0, 10),
        }


# ------------------------------------------------------------------ errors


class ErrorsTask(Task):
    """Error categories of a wrong CoT answer, after extraction and step evaluation have run."""

    name = "errors"
    stage = 2

    def applies_to(self, bench: Benchmark) -> str | None:
        return None if categories_of(bench) else f"{bench.title} defines no error categories"

    def plan(self, case: Case, bench: Benchmark, earlier: Earlier) -> Plan:
        question = case.question
        given, correct, source = final_answer(case, bench, earlier)
        if correct:
            return Plan(skip=f"the final answer is correct (from {source}): error analysis is for wrong answers")
        if not case.response.strip():
            return Plan(skip="empty response: no reasoning to analyse")
        steps_judgment = earlier.get("steps")
        critique = steps_judgment.values.get("critique") if steps_judgment and steps_judgment.status == "ok" else None
        gold = option_label(question, question.answer) if question.answer_kind == "choice" else question.answer
        prompt = prompts.errors_prompt(
            question_text(question),
            question.options,
            question.steps,
            gold,
            given or "(no final answer)",
            critique,
            case.response,
            categories_of(bench),
            definitions_of(bench),
        )
        return Plan(prompt=prompt)

    def read(self, card: dict[str, Any], case: Case, bench: Benchmark) -> dict[str, Any]:
        categories = categories_of(bench)
        primary = _category_entry(required(card, "primary"), "primary", categories)
        secondary_raw = card.get("secondary") or []
        if not isinstance(secondary_raw, list):
            raise CardError(f"'secondary' must be a list, not {type(secondary_raw).__name__}")
        secondary = [_category_entry(item, f"secondary[{i}]", categories) for i, item in enumerate(secondary_raw)]
        names = [primary["category"]] + [item["category"] for item in secondary]
        if len(set(names)) != len(names):
            raise CardError("a category is listed twice (primary and secondary must all differ)")
        return {"primary": primary, "secondary": secondary, "categories": names}


def categories_of(bench: Benchmark) -> tuple[str, ...]:
    return bench.error_categories


def definitions_of(bench: Benchmark) -> Mapping[str, str]:
    """The benchmark's definitions of its error categories (a benchmark fact); without any, the prompt lists
    the category names alone."""
    return bench.error_category_definitions


def _category_entry(entry: Any, name: str, categories: tuple[str, ...]) -> dict[str, str]:
    if not isinstance(entry, dict):
        raise CardError(f"{name!r} must be an object with 'category' and 'rationale'")
    category = choice_field(entry.get("category"), f"{name}.category", categories)
    try:
        rationale = text_field(entry, "rationale", limit=1500)
    except CardError as error:
        raise CardError(f"{name}: {error}") from None
    return {"category": category, "rationale": rationale}


# ------------------------------------------------------------------ equiv


class EquivTask(Task):
    """Free-form equivalence: the rules decide when they can, the judge only when they cannot."""

    name = "equiv"
    temperature = 0.0

    def plan(self, case: Case, bench: Benchmark, earlier: Earlier) -> Plan:
        question = case.question
        if question.answer_kind != "free":
            return Plan(skip="choice question: its answer is read by the extract task")
        decision = free_verdict(case.response, question.answer, question.question)
        extraction, verdict = decision.extraction, decision.equivalence
        if extraction.answer is not None:
            if verdict.equal is not None:
                return Plan(
                    decided={
                        "equivalent": verdict.equal,
                        "answer": extraction.answer,
                        "source": "rule",
                        "explanation": verdict.explanation,
                    }
                )
            why = f"rules cannot decide: {verdict.explanation}"
        else:
            why = f"rules found no answer: {extraction.explanation}"
        if not case.response.strip():
            return Plan(decided={"equivalent": False, "answer": None, "source": "rule", "explanation": why})
        prompt = prompts.equiv_prompt(question_text(question), question.answer, extraction.answer, case.response)
        return Plan(prompt=prompt)

    def read(self, card: dict[str, Any], case: Case, bench: Benchmark) -> dict[str, Any]:
        extracted = card.get("extracted_answer")
        if extracted is not None and not isinstance(extracted, str):
            raise CardError(f"'extracted_answer' must be a string or null, not {type(extracted).__name__}")
        return {
            "equivalent": flag_field(card, "equivalent"),
            "answer": extracted.strip() if isinstance(extracted, str) and extracted.strip() else None,
            "source": "judge",
            "explanation": text_field(card, "reason", limit=1000),
        }


TASK_TYPES: dict[str, type[Task]] = {
    "extract": ExtractTask,
    "steps": StepsTask,
    "errors": ErrorsTask,
    "equiv": EquivTask,
}
