"""Explain's settings of a run mark a guessed value "(a guess)", and say "not recorded" plainly: a Video-MME
template names no model, and "Model: not recorded (a guess)" read as if MathReel had guessed one."""

from __future__ import annotations

from helpers.colliding import colliding_file

from mathreel.core.explain.explanation import Explanation
from mathreel.core.explain.provenance import provenance
from mathreel.core.explain.text import settings_lines
from mathreel.core.results import read_results
from mathreel.webapp.score_explain import settings_text


def test_not_recorded_is_not_marked_a_guess_and_a_guessed_value_is(tmp_path):
    found = provenance(read_results(colliding_file(tmp_path / "videomme_template.json")))
    model, frames = found.settings["model"], found.settings["frames"]
    assert model.value is None and model.text == "not recorded" and not model.marked_guess
    assert frames.value is not None and frames.guess and frames.marked_guess
    page = settings_text(Explanation(runs=[], settings=[found]))
    assert "Model: not recorded ·" in page and f"Frames: {frames.text} _(a guess)_" in page
    lines = settings_lines(found)
    assert "  Model: not recorded [the file names no model]" in lines
    assert any(line.startswith(f"  Frames: {frames.text} (a guess) [") for line in lines)
