"""JSON Lines as the harnesses write them (`json.dumps` defaults: non-ASCII escaped), one record a line."""

from __future__ import annotations

import json
from pathlib import Path


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path
