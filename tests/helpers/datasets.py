"""Tiny datasets in the real layouts (VideoMathQA's and Video-MME's parquet files and media folders, MathVerse
records), written by the dataset tests, the view tests, the app tests and `mathreel data show`'s tests."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pandas as pd

MCQ_OPTIONS = ["A. 30", "B. 45", "C. 60", "D. 90", "E. 120"]


def write_parquet(path: Path, records: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame.from_records(records).to_parquet(path, index=False)
    return path


def vmqa_record(qid: str, video: str, **overrides) -> dict:
    record = {
        "videoID": video,
        "question_id": qid,
        "category": "Geometry Angle",
        "question": f"What is the angle in {qid}?",
        "options": MCQ_OPTIONS,
        "answer": "B",
        "steps": json.dumps(["Read the diagram.", "Add the angles."]),
        "length": "short",
    }
    record.update(overrides)
    return record


def make_videomathqa(root: Path, mcq: list[dict], mbin: list[dict] | None = None) -> Path:
    """A VideoMathQA root: the two parquet files plus empty videos/ and subtitles/ folders."""
    write_parquet(root / "videomathqa_mcq_test.parquet", mcq)
    write_parquet(root / "videomathqa_mbin_test.parquet", mbin if mbin is not None else mcq)
    (root / "videos").mkdir(exist_ok=True)
    (root / "subtitles").mkdir(exist_ok=True)
    return root


def make_videomme(root: Path, records: list[dict]) -> Path:
    write_parquet(root / "videomme" / "test-00000-of-00001.parquet", records)
    (root / "data").mkdir(exist_ok=True)
    (root / "subtitle").mkdir(exist_ok=True)
    return root


def videomme_record(qid: str, video: str) -> dict:
    return {
        "video_id": "001",
        "duration": "short",
        "domain": "Knowledge",
        "sub_category": "Astronomy",
        "url": "https://www.youtube.com/watch?v=" + video,
        "videoID": video,
        "question_id": qid,
        "task_type": "Counting Problem",
        "question": "How many planets are shown?",
        "options": ["A. 1.", "B. 2.", "C. 3.", "D. 4."],
        "answer": "C",
    }


def mathverse_record(index: int, image: object, version: str = "Text Dominant") -> dict:
    question = "In triangle ABC, angle A = 80, find angle CED.\nChoices:\nA:40°\nB:60°\nC:120°\nD:140°"
    return {
        "sample_index": str(index),
        "problem_index": str(index),
        "problem_version": version,
        "question": "" if version == "Vision Only" else question,
        "image": image,
        "answer": "D",
        "question_type": "multi-choice",
        "metadata": {"split": "testmini", "source": "GeoQA", "subject": "Plane Geometry", "subfield": "Angle"},
        "query_wo": "Please directly answer the question.\nQuestion: " + question,
        "query_cot": "Please first conduct reasoning.\nQuestion: " + question,
        "question_for_eval": question,
    }


PNG_BYTES = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
    b"\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99=\x1d\x00\x00\x00\x00IEND\xaeB`\x82"
)


def closed_port() -> int:
    """A loopback port nobody listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
