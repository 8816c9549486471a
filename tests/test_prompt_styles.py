"""Every prompt style the command line knows, listed per benchmark with what it supports, so a page can offer each
and disable what the benchmark lacks; and which style reproduces a prompt a file recorded."""

from __future__ import annotations

import pytest

from mathreel.core.benchmarks import BENCHMARKS
from mathreel.core.data import demo_dir, load_dataset
from mathreel.core.errors import InputError
from mathreel.core.prompt_styles import StyleMatch, prompt_choices, styles_reproducing


@pytest.mark.parametrize("name", sorted(BENCHMARKS))
def test_every_listed_setting_builds_and_every_refused_one_fails_before_the_click(name):
    """What the list offers is exactly what `build_prompt` accepts, on every demo question."""
    choices = prompt_choices(name)
    bench = BENCHMARKS[name]
    assert [s.name for s in choices.styles] == list(bench.prompt_styles) and choices.default.name == "default"
    for mode in bench.modes:
        for question in load_dataset(name, mode.key, data_dir=demo_dir()).questions[:3]:
            for style in choices.styles:
                bench.build_prompt(question, style=style.name)
                if style.cot:
                    assert bench.build_prompt(question, cot=True, style=style.name)
                elif not style.always_reasons:
                    with pytest.raises(InputError):
                        bench.build_prompt(question, cot=True, style=style.name)
                if choices.subtitles:
                    bench.build_prompt(question, subtitles="a line", style=style.name)
                    if style.cot and style.cot_with_subtitles:
                        bench.build_prompt(question, cot=True, subtitles="a line", style=style.name)
                    elif style.cot:
                        with pytest.raises(InputError):
                            bench.build_prompt(question, cot=True, subtitles="a line", style=style.name)
                else:
                    with pytest.raises(InputError):
                        bench.build_prompt(question, subtitles="a line", style=style.name)


def test_what_each_benchmark_offers():
    videomme, videomathqa, mathverse = (prompt_choices(n) for n in ("videomme", "videomathqa", "mathverse"))
    assert not videomme.cot and videomme.subtitles and not any(s.cot for s in videomme.styles)
    assert [s.name for s in videomme.styles] == ["default", "best_answer", "qwen3_vl"]
    assert videomathqa.cot and videomathqa.subtitles
    assert {s.name: s.cot for s in videomathqa.styles} == {"default": True, "best_answer": False}
    assert mathverse.cot and not mathverse.subtitles
    assert {s.name for s in mathverse.styles if s.always_reasons} == {"boxed", "evalscope"}
    assert all(style.note for name in BENCHMARKS for style in prompt_choices(name).styles)
    v2 = prompt_choices("videomme-v2")
    assert {s.name: (s.cot, s.always_reasons, s.cot_with_subtitles) for s in v2.styles} == {
        "default": (True, False, True),
        "lmms": (True, False, False),
        "qwen3_vl": (False, False, True),
        "evalscope": (False, True, True),
    }
    with pytest.raises(InputError, match="choose one of default, best_answer, qwen3_vl"):
        videomme.style("cot")


def test_the_style_that_reproduces_a_recorded_lmms_eval_prompt_is_found():
    question = load_dataset("videomme", "mcq", data_dir=demo_dir()).questions[0]
    recorded = "\n".join(
        [
            "Select the best answer to the following multiple-choice question based on the video and the subtitles. "
            "Respond with only the letter (A, B, C, or D) of the correct option.",
            question.question,
            *question.options,
            "The best answer is:",
        ]
    )
    assert styles_reproducing(recorded, question) == [StyleMatch("best_answer", False)]
    assert styles_reproducing("Tell me about the video.", question) == []


def test_a_recorded_videomathqa_cot_prompt_is_the_default_style_with_chain_of_thought():
    bench = BENCHMARKS["videomathqa"]
    question = load_dataset("videomathqa", "mcq", data_dir=demo_dir()).questions[0]
    recorded = bench.build_prompt(question, cot=True).replace("\n", "\n ")
    assert styles_reproducing(recorded, question) == [StyleMatch("default", True)]
