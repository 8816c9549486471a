"""Plain Video-MME JSONL lines for the `mathreel explain` tests: four colour options, gold D unless told, two
questions a video (the clustering unit)."""

from __future__ import annotations

OPTIONS = ["A. red", "B. green", "C. blue", "D. yellow"]


def videomme_line(qid: str, response: str, answer: str = "D", video: str | None = None) -> dict:
    return {
        "question_id": qid,
        "video_id": video or f"v{int(qid[1:]) // 2:02d}",
        "duration": "short",
        "options": OPTIONS,
        "answer": answer,
        "response": response,
    }
