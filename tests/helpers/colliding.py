"""A Video-MME result file in the first-generation official template (June 2024: a JSON list of videos with
`duration_category`, `video_category`, `video_subcategory`, each holding `questions` with question_id, question,
`choices`, answer and response) whose ids collide with the demo set's (`001-1` ...) but whose questions are other
questions, as a real Video-MME run's are. One answer (`002-1`) is to the demo's own question, written the way the
template writes it (options as "(A) ..." without the final full stop), so the join by text is seen to hold too.
"""

from __future__ import annotations

import json
from pathlib import Path

from mathreel.core.data import demo_dir

# The demo's question 002-1, in another spelling: the one answer that belongs to a demo question.
SAME_ID = "002-1"
SAME = (
    "How much milk does the ingredient list on screen call for?",
    ["(A) 120 ml", "(B) 200 ml", "(C) 250 ml", "(D) 2 cups"],
    "C",
)

OTHER = [
    (
        "What decorations hang on the Christmas tree at the start of the video?",
        ["A. Red baubles.", "B. Paper stars.", "C. Candy canes.", "D. Tinsel only."],
        "A",
    ),
    ("How many people sit at the table?", ["A. 1.", "B. 2.", "C. 3.", "D. 4."], "C"),
    ("Which city is the documentary about?", ["A. Paris.", "B. Rome.", "C. Cairo.", "D. Lima."], "B"),
    ("What tool does the carpenter use first?", ["A. A saw.", "B. A hammer.", "C. A drill.", "D. A chisel."], "D"),
]
RESPONSES = ["The answer is A.", "B", "Answer: C", "D. It is the last one.", "I cannot tell."]


def demo_ids() -> list[str]:
    """The demo set's Video-MME question ids, read from its annotations (the collision is with these)."""
    from mathreel.core.data import load_dataset

    return [q.question_id for q in load_dataset("videomme", None, demo_dir()).questions]


def colliding_file(path: Path, videos: int = 6) -> Path:
    """Write the file: `videos` videos of three questions (`001-1` ... ), every id up to the demo's colliding with
    it, the ids past the demo's absent from the server, every question but `002-1` another question than the
    demo's of that id."""
    data = []
    k = 0
    for v in range(1, videos + 1):
        questions = []
        for n in (1, 2, 3):
            qid = f"{v:03d}-{n}"
            text, choices, answer = SAME if qid == SAME_ID else OTHER[k % len(OTHER)]
            if qid != SAME_ID:
                text = f"{text} (clip {qid})"
            questions.append(
                {
                    "question_id": qid,
                    "task_type": "Counting Problem",
                    "question": text,
                    "choices": choices,
                    "answer": answer,
                    "response": RESPONSES[k % len(RESPONSES)],
                }
            )
            k += 1
        data.append(
            {
                "video_id": f"{v:03d}",
                "duration_category": "short",
                "video_category": "Life Record",
                "video_subcategory": "Holiday",
                "questions": questions,
            }
        )
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def file_questions(path: Path) -> dict[str, str]:
    """Question id -> the question text the file records."""
    return {q["question_id"]: q["question"] for video in json.loads(path.read_text()) for q in video["questions"]}
