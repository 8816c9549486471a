"""Video-MME logs as lmms-eval writes them: its worked example (the three questions of its aggregation) in each
generation of `--log_samples`, and a >= 0.4 log whose ids are the demo set's but whose questions are not, as a real
Video-MME run's are (for the join rule)."""

from __future__ import annotations

from pathlib import Path

from helpers.jsonl import write_jsonl
from mathreel.core.data import demo_dir, load_dataset

# lmms-eval's Video-MME worked example: the three questions of the Video-MME aggregation.
WORKED = [
    {
        "question_id": "q001",
        "duration": "short",
        "category": "Life Record",
        "sub_category": "Daily Life",
        "task_category": "Action Recognition",
        "pred_answer": "B",
        "answer": "B",
        "score": 1.0,
        "videoID": "vid_001",
    },
    {
        "question_id": "q002",
        "duration": "medium",
        "category": "Knowledge",
        "sub_category": "Geography",
        "task_category": "Information Synopsis",
        "pred_answer": "A",
        "answer": "C",
        "score": 0.0,
        "videoID": "vid_002",
    },
    {
        "question_id": "q003",
        "duration": "long",
        "category": "Sports Competition",
        "sub_category": "Basketball",
        "task_category": "Temporal Reasoning",
        "pred_answer": "D",
        "answer": "D",
        "score": 1.0,
        "videoID": "vid_003",
    },
]
RESPONSES = ["Based on the video, the person is walking. The answer is B.", "A", "The best answer is D."]
DOC_KEYS = {"domain": "category", "task_type": "task_category"}


def _doc(metric: dict) -> dict:
    """The dataset doc behind a metric dict (the harness renames domain and task_type in the metric dict)."""
    doc = {k: v for k, v in metric.items() if k not in ("pred_answer", "score", "category", "task_category")}
    doc.update({new: metric[old] for new, old in DOC_KEYS.items()})
    doc["options"] = ["A. Running", "B. Walking", "C. Jumping", "D. Standing"]
    return doc


def lmms_generation(generation: int) -> list[dict]:
    """The worked example as each lmms-eval --log_samples generation writes it."""
    records = []
    for index, (metric, response) in enumerate(zip(WORKED, RESPONSES, strict=True)):
        record = {"doc_id": index, "target": metric["answer"], "videomme_perception_score": metric}
        if generation == 1:
            record.update(doc=_doc(metric), resps=[[response]], filtered_resps=[response])
        elif generation == 2:
            record.update(resps=[[response]], filtered_resps=[response])
        else:
            record.update(filtered_resps=response)
        records.append(record)
    return records


OPTION_PROMPT = (
    "Select the best answer to the following multiple-choice question based on the video and the "
    "subtitles. Respond with only the letter (A, B, C, or D) of the correct option."
)

# Questions of a real Video-MME run under the demo set's ids: same ids, other questions.
REAL = {
    "001-1": (
        "When demonstrating the Germany modern Christmas tree is initially decorated with apples, candles and "
        "berries, which kind of the decoration has the largest number?",
        ["A. Apples.", "B. Candles.", "C. Berries.", "D. The three kinds are of the same number."],
        "C",
    ),
    "001-2": (
        "What is the genre of this video?",
        [
            "A. It is a news report that introduces the history behind Christmas decorations.",
            "B. It is a documentary on the evolution of Christmas holiday recipes.",
            "C. It is a travel vlog exploring Christmas markets around the world.",
            "D. It is a tutorial on DIY Christmas ornament crafting.",
        ],
        "A",
    ),
    "002-1": (
        "Which of the following features/items is not discussed in the video in relation to the tomb?",
        ["A. Inkstone.", "B. Niche.", "C. Jade.", "D. Sacrificial table."],
        "C",
    ),
}


def demo_videomme():
    return load_dataset("videomme", "mcq", data_dir=demo_dir())


def lmms04_line(index: int, qid: str, question: str, options: list[str], gold: str, response: str) -> dict:
    """One line as lmms-eval >= 0.4 writes it for Video-MME: no `doc`, no `resps`, the prompt in `input`."""
    return {
        "doc_id": index,
        "target": gold,
        "filtered_resps": [response],
        "doc_hash": "74234e98afe7498fb5daf1f36ac2d78acc339464f950703b8c019892f982b90b",
        "videomme_perception_score": {
            "question_id": qid,
            "duration": "short",
            "category": "Knowledge",
            "sub_category": "Humanity & History",
            "task_category": "Counting Problem",
            "pred_answer": response[:1],
            "answer": gold,
        },
        "input": "\n".join([OPTION_PROMPT, question, *options, "The best answer is:"]),
    }


def colliding_log(path: Path) -> Path:
    """A real-format lmms-eval 0.4 log whose ids are the demo's and whose questions are not."""
    return write_jsonl(
        path, [lmms04_line(i, qid, q, opts, gold, "B.") for i, (qid, (q, opts, gold)) in enumerate(REAL.items())]
    )
