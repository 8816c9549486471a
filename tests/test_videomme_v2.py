"""Video-MME-v2's facts: records read as the dataset writes them, prompts character for character as the reference
scripts render them for the dataset's first record, and group scores against the worked examples the upstream
scoring functions produced (every pattern of right, wrong and unparsed answers for each structure)."""

from __future__ import annotations

import pytest

from mathreel.core.benchmarks import get_benchmark
from mathreel.core.benchmarks.base import DEFAULT_GROUP_POLICY, GroupFacts, GroupPolicy
from mathreel.core.benchmarks.videomme_v2 import canonical_structure, chain_steps, relevance_score
from mathreel.core.errors import InputError
from mathreel.core.media.subtitles import Cue
from mathreel.core.media.words import Segment
from mathreel.core.message import PromptSubtitles

V2 = get_benchmark("videomme-v2")
OPTIONS = (
    "A. Malaysian.\nB. British.\nC. Singaporean.\nD. German.\nE. Canadian.\nF. Chinese.\nG. American.\n"
    "H. Cannot be determined."
)
# The dataset's first record as evalscope's benchmark card records it.
RECORD = {
    "video_id": "001",
    "url": "https://www.youtube.com/watch?v=AYSYelOQtQI",
    "group_type": "logic",
    "group_structure": "[1,2,3,4]",
    "question_id": "001-1",
    "question": "What is the ethnicity of the protagonist's mother?",
    "options": OPTIONS,
    "answer": "F",
    "level": None,
    "second_head": None,
    "third_head": None,
}
SUBS = "Hi guys, I'm going to show you how to perfectly prepare a ..."
INSTRUCT = (
    "Select the best answer to the following multiple-choice question based on the video. Respond with only "
    "the letter (A, B, C, D, E, F, G, or H) of the correct option."
)
THINK = (
    "Please perform a detailed reasoning based on the provided video frames to answer the following "
    "multiple-choice question selecting the best option from A through H and providing your final response "
    "strictly in the format: 'Final Answer: <letter>."
)
QUESTION_ITEM = f"Question: What is the ethnicity of the protagonist's mother?\n{OPTIONS}\n{INSTRUCT}"


def question():
    return V2.question_from_record(RECORD, "mcq")


def subtitles(text: str = SUBS, interleaved: bool = False, frame_cues=()) -> PromptSubtitles:
    words = tuple(text.split(" "))
    return PromptSubtitles(
        (Segment(0.0, 9.0, text, words),), frame_cues=frame_cues, times=(1.0,), interleaved=interleaved
    )


def test_a_record_reads_as_the_dataset_writes_it():
    q = question()
    assert (q.question_id, q.video_id, q.answer, q.cluster_key) == ("001-1", "001", "F", "001")
    assert q.letters == tuple("ABCDEFGH") and q.options[5] == "F. Chinese."
    assert q.dims == {"group_type": "logic"}  # the taxonomy sits on the group's last question only
    assert q.extra["group_structure"] == "[1,2,3,4]" and q.extra["options_text"] == OPTIONS


def test_round_trips_through_spreadsheets_and_tsv_are_undone():
    row = {**RECORD, "video_id": None, "video": 7, "level": 2.0, "second_head": "Head", "question_id": "007-4"}
    q = V2.question_from_record(row, "mcq")
    assert q.video_id == "007" and q.dims["level"] == "2" and q.dims["second_head"] == "Head"
    assert V2.question_from_record({**row, "level": "3.0"}, "mcq").dims["level"] == "3"


@pytest.mark.parametrize(
    ("cot", "subs", "expected"),
    [
        (False, None, ("These are the frames of a video.", QUESTION_ITEM)),
        (True, None, ("These are the frames of a video.", QUESTION_ITEM.replace(INSTRUCT, THINK))),
        (
            False,
            SUBS,
            (f"These are the frames of a video. This video's subtitles are listed below:\n{SUBS}\n", QUESTION_ITEM),
        ),
    ],
)
def test_the_official_prompt_is_the_script_s_text_items_after_the_frames(cot, subs, expected):
    message = V2.build_message(question(), frames=3, cot=cot, subtitles=None if subs is None else subtitles(subs))
    assert message.parts == (0, 1, 2, *expected)
    assert message.subtitles == (() if subs is None else (SUBS,))


def test_a_missing_subtitle_file_still_says_listed_below_as_the_script_does():
    message = V2.build_message(question(), frames=1, subtitles=PromptSubtitles(None))
    assert message.parts[1] == "These are the frames of a video. This video's subtitles are listed below:\n\n"


def test_interleaved_subtitles_follow_their_frame_with_each_segment_s_own_times():
    first, second = Cue(0.0, 0.6, "Hello there."), Cue(0.75, 2.4, "Today we cook")
    subs = PromptSubtitles((first, second), frame_cues=((first, second), (second,)), times=(0.0, 2.0), interleaved=True)
    message = V2.build_message(question(), frames=2, subtitles=subs)
    assert message.parts == (
        0,
        "[Subtitle 0.00s - 0.60s]: Hello there.",
        "[Subtitle 0.75s - 2.40s]: Today we cook",
        1,
        "[Subtitle 0.75s - 2.40s]: Today we cook",
        "These are the frames of a video with corresponding subtitles shown between frames. The subtitles indicate "
        "what is being said during the time interval between adjacent frames.",
        QUESTION_ITEM,
    )


@pytest.mark.parametrize(
    ("style", "cot", "subs", "expected"),
    [
        ("lmms", False, None, QUESTION_ITEM),
        ("lmms", True, None, QUESTION_ITEM.replace(INSTRUCT, THINK)),
        ("lmms", False, SUBS, f"This video's subtitles are listed below:\n{SUBS}\n\n{QUESTION_ITEM}"),
        ("qwen3_vl", False, None, QUESTION_ITEM.replace(INSTRUCT, "Answer with the option letter only.")),
        (
            "qwen3_vl",
            False,
            SUBS,
            f"This video's subtitles are listed below:\n{SUBS}\n\n"
            + QUESTION_ITEM.replace(INSTRUCT, "Answer with the option letter only."),
        ),
    ],
)
def test_lmms_eval_prompts_are_one_text_after_the_video(style, cot, subs, expected):
    message = V2.build_message(
        question(), frames=2, cot=cot, style=style, subtitles=None if subs is None else subtitles(subs)
    )
    assert message.parts == (0, 1, expected)


def test_lmms_eval_leaves_the_subtitle_prefix_out_when_the_video_has_none():
    message = V2.build_message(question(), frames=1, style="lmms", subtitles=PromptSubtitles(None))
    assert message.parts == (0, QUESTION_ITEM)


def test_evalscope_puts_its_template_before_the_video_with_the_first_512_words():
    choices = "\n".join(
        f"{letter}) {text}"
        for letter, text in zip(
            "ABCDEFGH",
            (
                "Malaysian.",
                "British.",
                "Singaporean.",
                "German.",
                "Canadian.",
                "Chinese.",
                "American.",
                "Cannot be determined.",
            ),
            strict=True,
        )
    )
    head = (
        "Answer the following multiple choice question. The last line of your response should be of the following "
        "format: 'ANSWER: [LETTER]' (without quotes) where [LETTER] is one of A,B,C,D,E,F,G,H. Think step by step "
        "before answering.\n\n"
    )
    plain = V2.build_message(question(), frames=2, style="evalscope")
    assert plain.parts == (f"{head}What is the ethnicity of the protagonist's mother?\n\n{choices}", 0, 1)
    many = " ".join(f"w{i}" for i in range(600))
    with_subs = V2.build_message(question(), frames=1, style="evalscope", subtitles=subtitles(many))
    first_512 = " ".join(f"w{i}" for i in range(512))
    assert with_subs.parts[0] == (
        f"{head}Subtitles:\n{first_512}\n\nWhat is the ethnicity of the protagonist's mother?\n\n{choices}"
    )


@pytest.mark.parametrize(
    ("style", "cot", "interleaved", "subs"),
    [
        ("lmms", True, False, SUBS),
        ("qwen3_vl", True, False, None),
        ("lmms", False, True, SUBS),
        ("evalscope", False, True, SUBS),
    ],
)
def test_variants_no_reference_has_are_refused(style, cot, interleaved, subs):
    with pytest.raises(InputError):
        V2.build_message(
            question(), frames=1, cot=cot, style=style, subtitles=None if subs is None else subtitles(subs, interleaved)
        )


def test_the_benchmark_declares_its_frames_and_layout():
    assert (V2.default_frames, V2.frame_sampler, V2.interleaved_subtitles) == (64, "midpoints", True)
    assert V2.layout.annotations == {"mcq": ("test.parquet",)}
    assert "videos" in V2.layout.video_dirs and V2.layout.subtitle_ext == ".jsonl"
    assert set(V2.reproductions) == {"official", "lmms-eval", "evalscope"}


# -- group scores: the tables upstream's own functions produced (research notes, examples_output.md) -----------
MARK = {"C": 1, "W": 0}
LOGIC = {  # pattern: (official with U = -1, lmms-eval and MathReel with U = 0)
    "[1,2,3,4]": {
        "CCCC": (100, 100),
        "CCCW": (56.25, 56.25),
        "CCWC": (25, 25),
        "CWCC": (6.25, 6.25),
        "CWCW": (6.25, 6.25),
        "CWWC": (6.25, 6.25),
        "WCCC": (0, 0),
        "WCWW": (0, 0),
        "CCWW": (25, 25),
        "CWWW": (6.25, 6.25),
        "WWWW": (0, 0),
        "CUCC": (100, 6.25),
        "UCCC": (100, 0),
        "CCCU": (100, 56.25),
        "UUUU": (100, 0),
        "CUUU": (100, 6.25),
        "WWWU": (0, 0),
    },
    "[1, [2, 3], 4]": {
        "CCCC": (100, 100),
        "CCCW": (58.3333, 58.3333),
        "CCWC": (33.3333, 33.3333),
        "CWCC": (33.3333, 33.3333),
        "CWCW": (33.3333, 33.3333),
        "CWWC": (8.3333, 8.3333),
        "WCCC": (0, 0),
        "WCWW": (0, 0),
        "CCWW": (33.3333, 33.3333),
        "CWWW": (8.3333, 8.3333),
        "WWWW": (0, 0),
        "CUCC": (100, 33.3333),
        "UCCC": (100, 0),
        "CCCU": (100, 58.3333),
        "UUUU": (100, 0),
        "CUUU": (100, 8.3333),
        "WWWU": (0, 0),
    },
    "[[1, 2], 3, 4]": {
        "CCCC": (100, 100),
        "CCCW": (50, 50),
        "CCWC": (20, 20),
        "CWCC": (10, 10),
        "CWCW": (10, 10),
        "CWWC": (10, 10),
        "WCCC": (10, 10),
        "WCWW": (10, 10),
        "CCWW": (20, 20),
        "CWWW": (10, 10),
        "WWWW": (0, 0),
        "CUCC": (100, 10),
        "UCCC": (100, 10),
        "CCCU": (100, 50),
        "UUUU": (100, 0),
        "CUUU": (100, 10),
        "WWWU": (0, 0),
    },
}
RELEVANCE = {  # pattern: (official quadratic, official linear, U = 0 quadratic, U = 0 linear)
    "CCCC": (100, 100, 100, 100),
    "CCCW": (56.25, 75, 56.25, 75),
    "CWCW": (25, 50, 25, 50),
    "WCWW": (6.25, 25, 6.25, 25),
    "WWWW": (0, 0, 0, 0),
    "CUCC": (25, 50, 56.25, 75),
    "UCCC": (25, 50, 56.25, 75),
    "UUUU": (0, -100, 0, 0),
    "CUUU": (0, -50, 6.25, 25),
    "WWWU": (0, -25, 0, 0),
}


def marks(pattern: str, unparsed: int) -> list[int]:
    return [MARK.get(c, unparsed) for c in pattern]


def statuses(pattern: str) -> list[str]:
    return [{"C": "correct", "W": "wrong", "U": "unparsed"}[c] for c in pattern]


@pytest.mark.parametrize(("structure", "pattern"), [(s, p) for s, table in LOGIC.items() for p in table])
def test_logic_groups_score_as_the_upstream_functions_did(structure, pattern):
    official, zero = LOGIC[structure][pattern]
    facts = GroupFacts("logic", structure, {})
    assert V2.groups.score(facts, marks(pattern, -1), statuses(pattern)).score == pytest.approx(official, abs=1e-4)
    assert V2.groups.score(facts, marks(pattern, 0), statuses(pattern)).score == pytest.approx(zero, abs=1e-4)


@pytest.mark.parametrize("pattern", RELEVANCE)
def test_relevance_groups_score_as_the_upstream_functions_did(pattern):
    quadratic, linear, zero_quadratic, zero_linear = RELEVANCE[pattern]
    assert relevance_score(marks(pattern, -1)) == (quadratic, linear)
    assert relevance_score(marks(pattern, 0)) == (zero_quadratic, zero_linear)


def test_each_group_says_how_its_score_came_about():
    facts = GroupFacts("logic", "[1,2,3,4]", {})
    broken = V2.groups.score(facts, [1, 0, 1, 1], statuses("CWCC"))
    assert broken.explanation.startswith("3 of 4 right: 6.25 in a [1,2,3,4] chain broken at Q2")
    assert broken.roles == ("credited", "breaks the chain", "not reached", "not reached") and broken.broken_at == 2
    relevance = V2.groups.score(GroupFacts("relevance", "", {}), [1, 0, 1, 1], statuses("CWCC"))
    assert relevance.explanation.startswith("3 of 4 right: 56.25 in a relevance group")
    assert relevance.roles == ("counted",) * 4
    stand_in = V2.groups.score(GroupFacts("logic", "[1,[2,3],4]", {}), [1, 0, 1, 1], statuses("CWCC"))
    assert "Q3 stands in for Q2" in stand_in.explanation and stand_in.roles[2] == "stands in"
    assert stand_in.roles[3] == "not reached" and stand_in.score == pytest.approx(100 / 3)
    root = V2.groups.score(GroupFacts("logic", "[[1,2],3,4]", {}), [0, 1, 1, 1], statuses("WCCC"))
    assert root.roles[:2] == ("breaks the chain", "stands in") and "Q2 stands in for Q1" in root.explanation
    official = V2.groups.score(facts, [1, -1, 1, 1], statuses("CUCC"))
    assert official.score == 100 and "Q2 unparsed, scored -1" in official.explanation


def test_an_unknown_structure_or_kind_is_not_scored_and_says_so():
    odd = V2.groups.score(GroupFacts("logic", "[1,2,[3,4]]", {}), [1, 1, 1, 1], statuses("CCCC"))
    assert odd.score is None and "unknown chain structure" in odd.explanation
    assert V2.groups.score(GroupFacts("other", "", {}), [1] * 4, statuses("CCCC")).score is None


def test_structures_are_read_as_literals_whatever_their_spacing():
    assert canonical_structure("[1, [2, 3], 4]") == "[1,[2,3],4]"
    assert canonical_structure("[[1,2], 3, 4]") == "[[1,2],3,4]"
    assert canonical_structure("not a list") == "" and canonical_structure("__import__('os')") == ""
    assert chain_steps("[1,[2,3],4]", [1, 0, 1]) == (2, "Q3 stands in for Q2")


def test_a_group_takes_its_taxonomy_from_its_last_question():
    rows = [
        {**RECORD, "question_id": f"001-{k}", "level": 2 if k == 4 else None, "second_head": "S" if k == 4 else None}
        for k in range(1, 5)
    ]
    members = [V2.question_from_record(row, "mcq") for row in rows]
    facts = V2.groups.describe(members, DEFAULT_GROUP_POLICY)
    assert (facts.kind, facts.structure, dict(facts.dims)) == ("logic", "[1,2,3,4]", {"level": "2", "second_head": "S"})
    strict = GroupPolicy(taxonomy_from_last_row=True)
    assert dict(V2.groups.describe(members[:3], strict).dims) == {}
    assert dict(V2.groups.describe(members[:3] + members[3:] + members[:1], DEFAULT_GROUP_POLICY).dims) == {
        "level": "2",
        "second_head": "S",
    }


# -- readers of the references -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("response", "official", "lmms"),
    [  # the upstream functions' readings
        ("C", "C", "C"),
        ("(B)", "B", "B"),
        ("The answer is E.", "E", "E"),
        ("Final Answer: G", "G", "G"),
        ("Based on the frames, Final Answer: C", "B", "B"),
        ("the man leaves; final answer: d", None, None),
        ("I cannot tell.", None, None),
        ("", None, None),
        ("nan", None, None),
        ("<think>Looking at it</think> Final Answer: H", "H", "H"),
    ],
)
def test_the_official_and_lmms_eval_readers_read_as_upstream(response, official, lmms):
    from mathreel.core.extract.reference import extract_choice_lmms_videomme_v2, extract_choice_videomme_v2

    assert extract_choice_videomme_v2(response).answer == official
    assert extract_choice_lmms_videomme_v2(response).answer == lmms


@pytest.mark.parametrize(
    ("response", "letter"),
    [
        ("Reasoning...\nANSWER: B", "B"),
        ("answer: (C)", "C"),
        ("ANSWER: B, not C", "B"),
        ("Format: 'ANSWER: [LETTER]'. ... ANSWER: D", "D"),
        ("ANSWER: [LETTER]", None),
        ("The answer is B", "B"),
        ("I think so.", None),
        ("ANSWER: AB", None),
        ("ANSWER: Banana", "B"),
        ("ANSWER: **E**", "E"),
    ],
)
def test_evalscope_reads_the_last_answer_label_else_the_last_capital(response, letter):
    from mathreel.core.extract.evalscope_extract import extract_choice_evalscope

    assert extract_choice_evalscope(response, tuple("ABCDEFGH")).answer == letter
