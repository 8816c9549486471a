"""Server settings for `mathreel serve`: one frozen object so every tab reads the same limits."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
REFERENCE_DIR = REPO_ROOT / "assets" / "reference"


@dataclass(frozen=True)
class Settings:
    """What the server may serve and how much work it accepts.

    `data_dir` None means core's own fallback (MATHREEL_DATA, then the embedded demo set).
    `cache_seconds` drives Gradio's `delete_cache`: uploads and generated downloads older than this
    are removed, so one user's files do not stay fetchable for long.
    """

    data_dir: Path | None = None
    host: str = "127.0.0.1"
    port: int = 7860
    share: bool = False
    max_file_size: str = "50mb"
    cache_seconds: int = 3600
    default_frames: int = 8
    max_frames: int = 64
    # Per-event-group limits: browsing and scoring run in separate concurrency groups, so a slow
    # scoring run never holds up someone switching questions.
    browse_concurrency: int = 8
    score_concurrency: int = 2
    queue_size: int = 64

    def data_root(self) -> Path:
        """The directory questions, videos and subtitles are read from (for `allowed_paths`)."""
        if self.data_dir is not None:
            return Path(self.data_dir).resolve()
        env = os.environ.get("MATHREEL_DATA")
        if env:
            return Path(env).resolve()
        from core.data import demo_dir

        return demo_dir().resolve()
