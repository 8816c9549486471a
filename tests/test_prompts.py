"""Prompts identical, character for character, to the reference harness.

Every expected string below is written out by hand from the reference code, not built by the code under test
(VideoMathQA's as a hand-written opening plus a hand-written post prompt):
- VideoMathQA: EvolvingLMMs-Lab/lmms-eval lmms_eval/tasks/videomathqa/utils.py
  @ 1741440d9ac6c14e6c97c67f05065994f976c3ad (videomathqa_doc_to_text, videomathqa_doc_to_text_subtitle) and the
  post_prompt of each task yaml (commits in docs/prompts.md).
- Video-MME: lmms_eval/tasks/videomme/utils.py @ 06965734a4639f9066e8f250bdae09be9a08e655 and videomme.yaml kwargs.
- MathVerse: the record's query_wo / query_cot, and modelscope/evalscope
  evalscope/benchmarks/math_verse/math_verse_adapter.py @ 81a548868673b1537fb1fa234e83e4f3482df2c9 (docs/sources.md).
"""

import pytest

from mathreel.core.benchmarks import get_benchmark
from mathreel.core.errors import InputError
from mathreel.core.media.subtitles import NO_SUBTITLES, read_srt, subtitle_text

VIDEOMATHQA = get_benchmark("videomathqa")
VIDEOMME = get_benchmark("videomme")
MATHVERSE = get_benchmark("mathverse")

SUBTITLES = "First we draw the triangle.\nThe angle at A is 80 degrees."


def mcq_question():
    return VIDEOMATHQA.question_from_record(
        {
            "videoID": "math_video_001",
            "question_id": "q001",
            "question": "What is the angle measure shown in the diagram?",
            "options": ["A. 30 degrees", "B. 45 degrees", "C. 60 degrees", "D. 90 degrees", "E. 120 degrees"],
            "answer": "B",
            "length": "short",
            "category": "Geometry Angle",
        },
        "mcq",
    )


def mbin_question():
    return VIDEOMATHQA.question_from_record(
        {
            "videoID": "math_video_001",
            "question_id": "q001_1",
            "question": "What is the angle measure shown in the diagram?",
            "options": ["A. 45 degrees", "B. 30 degrees"],
            "answer": "A",
            "length": "short",
            "category": "Geometry Angle",
        },
        "mbin",
    )


def videomme_question():
    return VIDEOMME.question_from_record(
        {
            "videoID": "fFjv93ACGo8",
            "question_id": "001-1",
            "question": "What is the color of the clothing worn by the persons in the video?",
            "options": ["A. Black.", "B. Gray.", "C. Green.", "D. Brown."],
            "answer": "C",
            "duration": "short",
            "domain": "Knowledge",
            "sub_category": "Humanity & History",
            "task_type": "Attribute Perception",
        },
        "mcq",
    )


# The MathVerse card's sample record (Text Dominant, multi-choice).
TEXT_DOMINANT_QUESTION = (
    "As shown in the figure, in triangle ABC, it is known that angle A = 80.0, angle B = 60.0, point D is on AB "
    "and point E is on AC, DE parallel BC, then the size of angle CED is ()\nChoices:\nA:40°\nB:60°\nC:120°\nD:140°"
)


def text_dominant_question():
    return MATHVERSE.question_from_record(
        {
            "sample_index": "1",
            "problem_index": "1",
            "problem_version": "Text Dominant",
            "question_type": "multi-choice",
            "question": TEXT_DOMINANT_QUESTION,
            "answer": "D",
            "query_wo": "Please directly answer the question and provide the correct option letter, e.g., A, B, C, D."
            "\nQuestion: " + TEXT_DOMINANT_QUESTION,
            "query_cot": "Please first conduct reasoning, and then answer the question and provide the correct option "
            "letter, e.g., A, B, C, D, at the end.\nQuestion: " + TEXT_DOMINANT_QUESTION,
            "question_for_eval": TEXT_DOMINANT_QUESTION,
            "metadata": {"subject": "Plane Geometry", "subfield": "Angle"},
        },
        "default",
    )


def vision_only_question(question_type="free-form"):
    """Vision Only: the question is in the diagram, so the `question` field is empty."""
    return MATHVERSE.question_from_record(
        {
            "sample_index": "5",
            "problem_index": "1",
            "problem_version": "Vision Only",
            "question_type": question_type,
            "question": "",
            "answer": "40",
            "query_wo": "According to the question shown in the image, please directly answer the question.",
            "query_cot": "According to the question shown in the image, please first conduct reasoning, "
            "and then answer the question.",
            "question_for_eval": "Find the size of angle CED in degrees.",
        },
        "default",
    )


# ---- VideoMathQA --------------------------------------------------------------------------------------------------

# Each expected prompt is a hand-written opening (subtitle block, instruction, question, options) followed by a
# hand-written post prompt, as lmms-eval assembles them: the opening depends on subtitles and the option count,
# the post prompt on the task (mode) and CoT.
VMQ_OPENINGS = {
    ("mcq", False): (
        "Select the best answer to the following multiple-choice question based on the video. "
        "Respond with the letter (A, B, C, D or E) of the correct option.\n"
        "What is the angle measure shown in the diagram?\n"
        "A. 30 degrees\nB. 45 degrees\nC. 60 degrees\nD. 90 degrees\nE. 120 degrees\n"
    ),
    ("mcq", True): (
        "This video's subtitles are listed below: \n"
        "First we draw the triangle.\n"
        "The angle at A is 80 degrees.\n"
        "Select the best answer to the following multiple-choice question based on the video and the subtitles. "
        "Respond with the letter (A, B, C, D or E) of the correct option.\n"
        "What is the angle measure shown in the diagram?\n"
        "A. 30 degrees\nB. 45 degrees\nC. 60 degrees\nD. 90 degrees\nE. 120 degrees\n"
    ),
    ("mbin", False): (
        "Select the best answer to the following multiple-choice question based on the video. "
        "Respond with the letter (A or B) of the correct option.\n"
        "What is the angle measure shown in the diagram?\n"
        "A. 45 degrees\nB. 30 degrees\n"
    ),
    ("mbin", True): (
        "This video's subtitles are listed below: \n"
        "First we draw the triangle.\n"
        "The angle at A is 80 degrees.\n"
        "Select the best answer to the following multiple-choice question based on the video and the subtitles. "
        "Respond with the letter (A or B) of the correct option.\n"
        "What is the angle measure shown in the diagram?\n"
        "A. 45 degrees\nB. 30 degrees\n"
    ),
}
VMQ_POST_PROMPTS = {
    ("mcq", False): "\nAnswer with the option's letter (A, B, C, D or E) from the given choices directly.",
    ("mcq", True): (
        "First please perform reasoning, and think step by step to provide best answer to the following question "
        "with the option's letter (A, B, C, D or E) from the given choices."
    ),
    ("mbin", False): "\nAnswer with the option's letter (A or B) from the given choices directly.",
    ("mbin", True): (
        "First please perform reasoning, and think step by step to provide best answer to the following question "
        "with the option's letter (A or B) from the given choices."
    ),
}
VMQ_QUESTIONS = {"mcq": mcq_question, "mbin": mbin_question}


@pytest.mark.parametrize(
    ("mode", "cot", "with_subtitles"),
    [
        pytest.param("mcq", False, False, id="videomathqa_mcq.yaml@2bb5e98"),
        pytest.param("mcq", True, False, id="videomathqa_mcq_cot.yaml@d438332"),
        pytest.param("mcq", False, True, id="videomathqa_mcq_w_subtitle.yaml@f6ef6ad"),
        pytest.param("mcq", True, True, id="videomathqa_mcq_cot_w_subtitle.yaml@2bb5e98"),
        pytest.param("mbin", False, False, id="videomathqa_mbin.yaml@d9ac7ef"),
        # No videomathqa_mbin_cot.yaml is in the index (the folder README lists the task): doc_to_text with the CoT
        # post prompt of videomathqa_mbin_cot_w_subtitle.yaml.
        pytest.param("mbin", True, False, id="videomathqa_mbin_cot(no yaml)@f6ef6ad"),
        pytest.param("mbin", False, True, id="videomathqa_mbin_w_subtitle.yaml@70b804f"),
        pytest.param("mbin", True, True, id="videomathqa_mbin_cot_w_subtitle.yaml@f6ef6ad"),
    ],
)
def test_videomathqa_task_prompts(mode, cot, with_subtitles):
    # Full commits of each yaml in docs/prompts.md; the prompt functions are utils.py @ 1741440d.
    prompt = VIDEOMATHQA.build_prompt(VMQ_QUESTIONS[mode](), cot=cot, subtitles=SUBTITLES if with_subtitles else None)
    assert prompt == VMQ_OPENINGS[(mode, with_subtitles)] + VMQ_POST_PROMPTS[(mode, cot)]


@pytest.mark.parametrize(("mode", "with_subtitles"), [("mcq", False), ("mbin", True)])
def test_videomathqa_best_answer_is_the_functions_fallback_post_prompt(mode, with_subtitles):
    # utils.py: post_prompt defaults to "The best answer is:" when the configuration gives none.
    prompt = VIDEOMATHQA.build_prompt(
        VMQ_QUESTIONS[mode](), style="best_answer", subtitles=SUBTITLES if with_subtitles else None
    )
    assert prompt == VMQ_OPENINGS[(mode, with_subtitles)] + "The best answer is:"


def test_videomathqa_instruction_follows_option_count_and_post_prompt_follows_mode():
    # The reference switches the instruction on len(options) == 2 and takes the post prompt from the task (mode):
    # an MCQ row with two options gets "(A or B)" above and "(A, B, C, D or E)" below.
    question = mcq_question()
    question.options = ("A. 30 degrees", "B. 45 degrees")
    assert VIDEOMATHQA.build_prompt(question) == (
        "Select the best answer to the following multiple-choice question based on the video. "
        "Respond with the letter (A or B) of the correct option.\n"
        "What is the angle measure shown in the diagram?\n"
        "A. 30 degrees\nB. 45 degrees\n"
        "\n"
        "Answer with the option's letter (A, B, C, D or E) from the given choices directly."
    )
    # Any count other than two (here four) gets the five-letter wording.
    question.options = ("A. 30 degrees", "B. 45 degrees", "C. 60 degrees", "D. 90 degrees")
    assert VIDEOMATHQA.build_prompt(question).startswith(
        "Select the best answer to the following multiple-choice question based on the video. "
        "Respond with the letter (A, B, C, D or E) of the correct option.\n"
    )


# ---- Video-MME ----------------------------------------------------------------------------------------------------


def test_videomme_default():
    # videomme_doc_to_text with videomme.yaml's default post_prompt.
    assert VIDEOMME.build_prompt(videomme_question()) == (
        "Select the best answer to the following multiple-choice question based on the video and the subtitles. "
        "Respond with only the letter (A, B, C, or D) of the correct option.\n"
        "What is the color of the clothing worn by the persons in the video?\n"
        "A. Black.\nB. Gray.\nC. Green.\nD. Brown.\n"
        "\n"
        "Answer with the option's letter from the given choices directly."
    )


def test_videomme_best_answer_without_subtitles():
    # videomme_doc_to_text without a post_prompt: the fallback, also the last line of the official README prompt.
    assert VIDEOMME.build_prompt(videomme_question(), style="best_answer") == (
        "Select the best answer to the following multiple-choice question based on the video and the subtitles. "
        "Respond with only the letter (A, B, C, or D) of the correct option.\n"
        "What is the color of the clothing worn by the persons in the video?\n"
        "A. Black.\nB. Gray.\nC. Green.\nD. Brown.\n"
        "The best answer is:"
    )


@pytest.mark.parametrize("style", ["default", "best_answer"])
def test_videomme_with_subtitles_always_ends_with_the_best_answer(style):
    # videomme_doc_to_text_subtitle ignores post_prompt and always ends with "The best answer is:".
    assert VIDEOMME.build_prompt(videomme_question(), subtitles=SUBTITLES, style=style) == (
        "This video's subtitles are listed below: \n"
        "First we draw the triangle.\n"
        "The angle at A is 80 degrees.\n"
        "Select the best answer to the following multiple-choice question based on the video and the subtitles. "
        "Respond with only the letter (A, B, C, or D) of the correct option.\n"
        "What is the color of the clothing worn by the persons in the video?\n"
        "A. Black.\nB. Gray.\nC. Green.\nD. Brown.\n"
        "The best answer is:"
    )


def test_videomme_qwen3_vl():
    # videomme_doc_to_text_qwen3vl with videomme.yaml's qwen3_vl kwargs (pre "Question: ", post "Answer with ...").
    assert VIDEOMME.build_prompt(videomme_question(), style="qwen3_vl") == (
        "Question: What is the color of the clothing worn by the persons in the video?\n"
        "Options:\n"
        "A. Black.\nB. Gray.\nC. Green.\nD. Brown.\n"
        "Answer with the option letter only."
    )


def test_videomme_qwen3_vl_with_subtitles():
    # videomme_doc_to_text_subtitle, format qwen3_vl: subtitle block, then the qwen3_vl prompt.
    assert VIDEOMME.build_prompt(videomme_question(), subtitles=SUBTITLES, style="qwen3_vl") == (
        "This video's subtitles are listed below: \n"
        "First we draw the triangle.\n"
        "The angle at A is 80 degrees.\n"
        "Question: What is the color of the clothing worn by the persons in the video?\n"
        "Options:\n"
        "A. Black.\nB. Gray.\nC. Green.\nD. Brown.\n"
        "Answer with the option letter only."
    )


# ---- Subtitle placement (both video benchmarks) -------------------------------------------------------------------


def test_no_subtitles_placeholder_takes_the_subtitle_place():
    assert NO_SUBTITLES == "No subtitles available"
    assert VIDEOMME.build_prompt(videomme_question(), subtitles=NO_SUBTITLES) == (
        "This video's subtitles are listed below: \n"
        "No subtitles available\n"
        "Select the best answer to the following multiple-choice question based on the video and the subtitles. "
        "Respond with only the letter (A, B, C, or D) of the correct option.\n"
        "What is the color of the clothing worn by the persons in the video?\n"
        "A. Black.\nB. Gray.\nC. Green.\nD. Brown.\n"
        "The best answer is:"
    )
    assert VIDEOMATHQA.build_prompt(mbin_question(), subtitles=NO_SUBTITLES) == (
        "This video's subtitles are listed below: \n"
        "No subtitles available\n"
        "Select the best answer to the following multiple-choice question based on the video and the subtitles. "
        "Respond with the letter (A or B) of the correct option.\n"
        "What is the angle measure shown in the diagram?\n"
        "A. 45 degrees\nB. 30 degrees\n"
        "\n"
        "Answer with the option's letter (A or B) from the given choices directly."
    )


def test_subtitles_with_no_cue_at_the_sampled_frames_leave_an_empty_line():
    # The reference joins an empty cue list to "": the header is followed directly by the newline.
    prompt = VIDEOMATHQA.build_prompt(mcq_question(), subtitles="")
    assert prompt.startswith(
        "This video's subtitles are listed below: \n\nSelect the best answer to the following multiple-choice "
        "question based on the video and the subtitles."
    )


@pytest.mark.parametrize("bench,question", [(VIDEOMATHQA, mcq_question), (VIDEOMME, videomme_question)])
def test_subtitle_lines_are_placed_verbatim_in_the_given_time_order(bench, question):
    # Lines out of alphabetical order: the prompt keeps the caller's (time) order, never sorts or dedups.
    lines = "Zebra crossing first.\nApple second.\nZebra crossing first."
    prompt = bench.build_prompt(question(), subtitles=lines)
    header, rest = prompt.split("\n", 1)
    assert header == "This video's subtitles are listed below: "
    assert rest.startswith("Zebra crossing first.\nApple second.\nZebra crossing first.\nSelect the best answer")


def test_cues_of_the_sampled_frames_enter_the_prompt_in_time_order(tmp_path):
    # The file lists its cues out of time order, and one cue covers two sampled frames: the prompt holds each cue
    # once, in time order (the reference's set() would scramble them), joined with newlines.
    srt = tmp_path / "v.srt"
    srt.write_text(
        "2\n00:00:04,000 --> 00:00:06,000\nThen we measure the angle.\n\n"
        '1\n00:00:00,000 --> 00:00:03,000\n<font color="white" size=".72c">First we draw</font>\nthe triangle.\n\n'
        "3\n00:00:08,000 --> 00:00:09,000\nNobody sees this cue.\n",
        encoding="utf-8",
    )
    subtitles = subtitle_text(read_srt(srt), [0.5, 2.0, 5.0])
    assert VIDEOMATHQA.build_prompt(mbin_question(), subtitles=subtitles) == (
        "This video's subtitles are listed below: \n"
        "First we draw the triangle.\n"
        "Then we measure the angle.\n"
        "Select the best answer to the following multiple-choice question based on the video and the subtitles. "
        "Respond with the letter (A or B) of the correct option.\n"
        "What is the angle measure shown in the diagram?\n"
        "A. 45 degrees\nB. 30 degrees\n"
        "\n"
        "Answer with the option's letter (A or B) from the given choices directly."
    )


# ---- MathVerse ----------------------------------------------------------------------------------------------------


def test_mathverse_default_sends_query_wo_and_query_cot_from_the_record():
    question = text_dominant_question()
    assert MATHVERSE.build_prompt(question) == (
        "Please directly answer the question and provide the correct option letter, e.g., A, B, C, D.\n"
        "Question: As shown in the figure, in triangle ABC, it is known that angle A = 80.0, angle B = 60.0, "
        "point D is on AB and point E is on AC, DE parallel BC, then the size of angle CED is ()\n"
        "Choices:\nA:40°\nB:60°\nC:120°\nD:140°"
    )
    assert MATHVERSE.build_prompt(question, cot=True) == (
        "Please first conduct reasoning, and then answer the question and provide the correct option letter, "
        "e.g., A, B, C, D, at the end.\n"
        "Question: As shown in the figure, in triangle ABC, it is known that angle A = 80.0, angle B = 60.0, "
        "point D is on AB and point E is on AC, DE parallel BC, then the size of angle CED is ()\n"
        "Choices:\nA:40°\nB:60°\nC:120°\nD:140°"
    )


def test_mathverse_vision_only_uses_the_record_queries_although_the_question_is_empty():
    question = vision_only_question()
    assert question.question == ""
    assert MATHVERSE.build_prompt(question) == (
        "According to the question shown in the image, please directly answer the question."
    )
    assert MATHVERSE.build_prompt(question, cot=True) == (
        "According to the question shown in the image, please first conduct reasoning, and then answer the question."
    )


def test_mathverse_boxed_template_uses_question_for_eval():
    # The evalscope adapter's template
    # "{question}\nPlease reason step by step, and put your final answer within \boxed{{}}." is a format
    # string: "{{}}" prints as "{}".
    expected = (
        "Find the size of angle CED in degrees.\n"
        "Please reason step by step, and put your final answer within \\boxed{}."
    )
    assert MATHVERSE.build_prompt(vision_only_question(), style="boxed") == expected
    # cot changes nothing here: the template always asks for reasoning.
    assert MATHVERSE.build_prompt(vision_only_question(), style="boxed", cot=True) == expected
    # evalscope uses the boxed template for free-form questions.
    assert MATHVERSE.build_prompt(vision_only_question(), style="evalscope") == expected


def test_mathverse_evalscope_multiple_choice_matches_seed_001_sample_input():
    assert MATHVERSE.build_prompt(text_dominant_question(), style="evalscope") == (
        "Answer the following multiple choice question. The last line of your response should be of the following "
        "format: 'ANSWER: [LETTER]' (without quotes) where [LETTER] is one of A, B, C, D. Think step by step before "
        "answering.\n\nAs shown in the figure, in triangle ABC, it is known that angle A = 80.0, angle B = 60.0, "
        "point D is on AB and point E is on AC, DE parallel BC, then the size of angle CED is ()\nChoices:\nA:40°\n"
        "B:60°\nC:120°\nD:140°"
    )


def test_mathverse_evalscope_multiple_choice_vision_only_uses_question_for_eval():
    # evalscope itself formats `question`, which is empty for Vision Only; we use question_for_eval.
    assert MATHVERSE.build_prompt(vision_only_question("multi-choice"), style="evalscope") == (
        "Answer the following multiple choice question. The last line of your response should be of the following "
        "format: 'ANSWER: [LETTER]' (without quotes) where [LETTER] is one of A, B, C, D. Think step by step before "
        "answering.\n\nFind the size of angle CED in degrees."
    )


# ---- Facts and refusals -------------------------------------------------------------------------------------------


def test_prompt_facts():
    assert VIDEOMATHQA.prompt_styles == ("default", "best_answer")
    assert VIDEOMME.prompt_styles == ("default", "best_answer", "qwen3_vl")
    assert MATHVERSE.prompt_styles == ("default", "boxed", "evalscope")
    assert (VIDEOMATHQA.supports_cot, VIDEOMME.supports_cot, MATHVERSE.supports_cot) == (True, False, True)


def test_unknown_style_names_the_question_and_the_choices():
    with pytest.raises(InputError) as caught:
        VIDEOMATHQA.build_prompt(mcq_question(), style="qwen3_vl")
    assert str(caught.value) == (
        "videomathqa prompt, q001: unknown prompt style 'qwen3_vl'; choose one of default, best_answer"
    )


def test_videomme_has_no_cot_prompt():
    with pytest.raises(InputError, match="001-1: Video-MME has no chain-of-thought prompt"):
        VIDEOMME.build_prompt(videomme_question(), cot=True)


def test_best_answer_style_has_no_cot_form():
    with pytest.raises(InputError, match="best_answer style has no chain-of-thought form"):
        VIDEOMATHQA.build_prompt(mcq_question(), cot=True, style="best_answer")


def test_mathverse_refuses_subtitles_and_a_record_without_its_query():
    with pytest.raises(InputError, match="no video, so no subtitles"):
        MATHVERSE.build_prompt(text_dominant_question(), subtitles="hello")
    question = text_dominant_question()
    question.extra["query_cot"] = ""
    with pytest.raises(InputError, match="mathverse prompt, 1: the record has no query_cot"):
        MATHVERSE.build_prompt(question, cot=True)


def test_a_question_of_another_benchmark_is_refused():
    with pytest.raises(InputError, match="the question belongs to 'videomme'"):
        VIDEOMATHQA.build_prompt(videomme_question())
