"""Every prompt a benchmark can be asked with, for a page to offer: the styles `mathreel show --style` knows, which
of them take chain of thought, and whether the benchmark's prompts can carry subtitles; and which of those
prompts a file's recorded prompt is, when it is one of them.

The facts are the benchmark's (`Benchmark.prompt_styles`, `prompt_style_notes`, `styles_without_cot`,
`styles_always_reasoning`, `styles_cot_without_subtitles`, `has_subtitles`); this module only lays them out, so
Browse and Ask can disable what a benchmark lacks instead of failing after the click.
"""

from __future__ import annotations

from dataclasses import dataclass

from mathreel.core.benchmarks import get_benchmark
from mathreel.core.errors import InputError
from mathreel.core.question import Question


@dataclass(frozen=True)
class PromptStyle:
    """One prompt style: its `--style` name, what it is, whether chain of thought can be switched on for it (False
    for a style that has none, and for one that asks for reasoning whatever the switch says: `always_reasons`)."""

    name: str
    note: str
    cot: bool
    always_reasons: bool = False
    cot_with_subtitles: bool = True  # False: chain of thought and subtitles cannot be asked together in this style


@dataclass(frozen=True)
class PromptChoices:
    """What a benchmark's prompts can be: its styles (the default first), and whether chain of thought (in some
    style) and subtitles exist at all."""

    benchmark: str
    styles: tuple[PromptStyle, ...]
    cot: bool
    subtitles: bool

    @property
    def default(self) -> PromptStyle:
        return self.styles[0]

    def style(self, name: str) -> PromptStyle:
        """The style called `name`; InputError naming the choices otherwise."""
        for style in self.styles:
            if style.name == name:
                return style
        choices = ", ".join(s.name for s in self.styles)
        raise InputError(f"{self.benchmark} prompt", f"unknown prompt style {name!r}; choose one of {choices}")


def prompt_choices(benchmark: str) -> PromptChoices:
    """The prompt styles of `benchmark` with what each supports (`mathreel show --style` accepts the same names)."""
    bench = get_benchmark(benchmark)
    styles = tuple(
        PromptStyle(
            name,
            bench.prompt_style_notes.get(name, ""),
            bench.style_supports_cot(name) and name not in bench.styles_always_reasoning,
            name in bench.styles_always_reasoning,
            name not in bench.styles_cot_without_subtitles,
        )
        for name in bench.prompt_styles
    )
    return PromptChoices(bench.name, styles, bench.supports_cot, bench.has_subtitles)


@dataclass(frozen=True)
class StyleMatch:
    """A prompt style (and chain-of-thought setting) whose prompt, without subtitles, is the recorded one."""

    style: str
    cot: bool


def styles_reproducing(recorded: str, question: Question) -> list[StyleMatch]:
    """The styles whose prompt for `question` (no subtitles) is `recorded`, whitespace, case and punctuation aside:
    which setting to show beside a file's recorded prompt ("style best_answer reproduces it"). Empty when none
    does (another harness's wording, or a prompt with subtitles)."""
    from mathreel.core.results.question_key import text_key

    bench = get_benchmark(question.benchmark)
    wanted = text_key(recorded)
    found = []
    for style in prompt_choices(bench.name).styles:
        for cot in (False, True) if style.cot else (False,):
            try:
                built = bench.build_prompt(question, cot=cot, style=style.name)
            except InputError:
                continue
            if wanted and text_key(built) == wanted:
                found.append(StyleMatch(style.name, cot))
    return found
