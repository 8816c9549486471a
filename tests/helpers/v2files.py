"""Small Video-MME-v2 result files in the formats people write today, built from answer patterns.

A group is written as a pattern of its answers: C right, W wrong, U unparsed ("I cannot tell."). The taxonomy
(level, heads) sits on every row of a relevance group and on the last row of a logic group, as in the dataset.
"""

from __future__ import annotations

import csv
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

OPTIONS = "\n".join(f"{letter}. option {letter.lower()}" for letter in "ABCDEFGH")
COLUMNS = (
    "video_id",
    "url",
    "group_type",
    "group_structure",
    "question_id",
    "question",
    "options",
    "answer",
    "level",
    "second_head",
    "third_head",
)
REPLIES = {"C": "The answer is B.", "W": "C", "U": "I cannot tell."}
METRIC_KEYS = tuple(
    f"videomme_v2_{part}_{kind}"
    for kind in ("score", "acc")
    for part in ("overall", "relevance", "logic", "level_1", "level_2", "level_3")
)


@dataclass(frozen=True)
class Spec:
    """One group: video, kind, structure, answers, level and heads; `tagged` puts the taxonomy on every row."""

    video: str
    kind: str
    structure: str
    pattern: str
    level: int
    second_head: str
    third_head: str
    tagged: bool | None = None  # None: as the dataset does (relevance every row, logic the last)


# The three groups of the research notes' whole-run example (its official rating: total 20.0, logic 17.5, ...).
TOY = (
    Spec("001", "logic", "[1,2,3,4]", "CCWC", 2, "SH-x", "TH-x"),
    Spec("002", "relevance", "[1,2,3,4]", "CUCC", 1, "SH-y", "TH-y"),
    Spec("003", "logic", "[[1,2],3,4]", "WCCC", 3, "SH-x", "TH-z"),
)


def rows(specs: tuple[Spec, ...] | list[Spec]) -> list[dict]:
    """Dataset records with a `prediction` each (gold B; C answers B, W answers C, U is unparsed)."""
    out = []
    for spec in specs:
        tagged_all = spec.kind == "relevance" if spec.tagged is None else spec.tagged
        for k, mark in enumerate(spec.pattern, start=1):
            tagged = tagged_all or k == len(spec.pattern)
            out.append(
                {
                    "video_id": spec.video,
                    "url": f"https://example.invalid/{spec.video}",
                    "group_type": spec.kind,
                    "group_structure": spec.structure,
                    "question_id": f"{spec.video}-{k}",
                    "question": f"Question {k} about video {spec.video}?",
                    "options": OPTIONS,
                    "answer": "B",
                    "level": spec.level if tagged else None,
                    "second_head": spec.second_head if tagged else None,
                    "third_head": spec.third_head if tagged else None,
                    "prediction": REPLIES[mark],
                }
            )
    return out


def write_official_tsv(path: Path, records: list[dict]) -> Path:
    """The official script's TSV: parquet columns, index, video, prediction; levels as floats, empty when null."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow([*COLUMNS, "index", "video", "prediction"])
        for index, record in enumerate(records):
            values = {**record, "level": "" if record["level"] is None else f"{float(record['level'])}"}
            writer.writerow(
                [("" if values[c] is None else values[c]) for c in COLUMNS]
                + [index, record["video_id"], record["prediction"]]
            )
    return path


def vlmeval_rows(records: list[dict]) -> list[dict]:
    """VLMEvalKit's v2 columns: index, video (an int after its TSV round trip), paths, then the dataset's."""
    return [
        {
            "index": i,
            "video": int(r["video_id"]),
            "video_path": f"./video/{r['video_id']}.mp4",
            "subtitle_path": f"./subtitle/{r['video_id']}.jsonl",
            **{c: r[c] for c in COLUMNS if c != "video_id"},
            "prediction": r["prediction"],
        }
        for i, r in enumerate(records)
    ]


def lmms07_lines(records: list[dict], think: bool = True) -> list[dict]:
    """lmms-eval >= 0.7 samples of videomme_v2: flattened filtered_resps, raw resps beside it when it differs."""
    lines = []
    for doc_id, record in enumerate(records):
        answer = record["prediction"]
        raw = f"<think>Looking at frame {doc_id}.</think>\n{answer}" if think else answer
        doc = {c: record[c] for c in COLUMNS}
        metric = {
            **{
                c: record[c]
                for c in (
                    "video_id",
                    "question_id",
                    "group_type",
                    "group_structure",
                    "level",
                    "second_head",
                    "third_head",
                )
            },
            "pred_answer": "",
            "answer": record["answer"],
            "score": 0,
        }
        line = {
            "doc_id": doc_id,
            "target": record["answer"],
            "resps": raw,
            "filtered_resps": answer,
            "token_counts": [None],
            "doc_hash": hashlib.sha256(json.dumps(doc, indent=2, ensure_ascii=False).encode()).hexdigest(),
            **dict.fromkeys(METRIC_KEYS, metric),
            "input": f"Question: {record['question']}",
        }
        if raw == answer:
            del line["resps"]
        lines.append(line)
    return lines


def write_jsonl(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return path
