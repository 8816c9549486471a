"""The frame cache on disk: one folder of JPEGs plus a manifest per (video, N, max_side, reader).

Cache layout: `<cache>/frames/<key>/` holding `manifest.json` and one `NNNNNNN.jpg` per distinct sampled frame.
`<cache>` is `cache_dir`, else `core.cache.cache_base()` ($MATHREEL_CACHE, $XDG_CACHE_HOME/mathreel or
~/.cache/mathreel). The key is a SHA-256 of the video's identity (resolved path, size in bytes, mtime in
nanoseconds), the number of frames asked for, `max_side`, the reader that decoded them and the cache format
version: editing or replacing the video changes its size or mtime and therefore the key. An entry is built in
place, each file written under a temporary name and renamed, the manifest last: an entry is complete when its
manifest parses and every file it lists exists (`complete_entry`), so a concurrent reader sees either no entry or a
complete one. Only exact frames are ever written here (previews live elsewhere).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mathreel.core.errors import InputError

if TYPE_CHECKING:  # pragma: no cover - typing only
    import numpy as np

CACHE_FORMAT = 2  # bump when the manifest or the JPEG settings change, so old entries are not reused
MANIFEST = "manifest.json"


@dataclass(frozen=True)
class SampledFrames:
    """The frames a model is shown: where they sit in the video and the cached JPEG of each.

    `indices[i]`, `times[i]` (seconds, presentation time) and `paths[i]` describe sampled frame i; repeated indices
    (n > total frames) share one JPEG. `reader` names the decoder that produced them (decord or pyav).
    """

    video_path: Path
    total_frames: int
    fps: float
    duration: float
    indices: tuple[int, ...]
    times: tuple[float, ...]
    paths: tuple[Path, ...]
    reader: str = ""

    def __len__(self) -> int:
        return len(self.indices)

    def jpeg_bytes(self, i: int) -> bytes:
        """The JPEG of sampled frame i, as sent to a model (e.g. in a data URL)."""
        return self.paths[i].read_bytes()

    def arrays(self) -> list[np.ndarray]:
        """The sampled frames as RGB uint8 arrays, decoded from the cached JPEGs on demand (what the model sees)."""
        import numpy as np
        from PIL import Image

        decoded: dict[Path, np.ndarray] = {}
        for path in self.paths:
            if path not in decoded:
                with Image.open(path) as image:
                    decoded[path] = np.asarray(image.convert("RGB"))
        return [decoded[path] for path in self.paths]


def frames_dir(cache_dir: str | Path | None = None) -> Path:
    """The folder holding frame cache entries: `<cache_dir, else core.cache.cache_base()>/frames`."""
    from mathreel.core.cache import cache_base as shared_root

    return Path(cache_dir).expanduser() / "frames" if cache_dir else shared_root() / "frames"


def identity(path: Path) -> dict[str, Any]:
    """What makes a video 'the same file' for the cache: resolved path, size and modification time (ns)."""
    try:
        stat = path.stat()
    except FileNotFoundError:
        raise InputError(str(path), "video file not found") from None
    except OSError as error:
        raise InputError(str(path), f"cannot read video file: {error.strerror}") from None
    if not path.is_file():
        raise InputError(str(path), "not a video file (it is a directory or a device)")
    return {"video": str(path.resolve()), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}


def cache_key(
    ident: dict[str, Any], num_frames: int, max_side: int | None, reader: str, sampling: dict[str, Any] | None = None
) -> str:
    """A stable folder name for (video identity, N, max_side, reader, cache format, and the placement rule's fields
    when it is not the uniform one)."""
    fields = {
        **ident,
        **(sampling or {}),
        "num_frames": num_frames,
        "max_side": max_side,
        "reader": reader,
        "format": CACHE_FORMAT,
    }
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:32]


def load_entry(entry: Path, ident: dict[str, Any]) -> SampledFrames | None:
    """A complete cache entry for this exact file, or None (absent, other file, damaged or files missing)."""
    complete = complete_entry(entry)
    if complete is None:
        return None
    manifest, frames = complete
    if not isinstance(manifest, dict) or any(manifest.get(key) != value for key, value in ident.items()):
        return None  # a (vanishingly unlikely) key collision with another file
    return frames


def complete_entry(entry: Path) -> tuple[dict[str, Any], SampledFrames] | None:
    """(manifest, frames) when the entry's manifest parses and every JPEG it lists exists, else None."""
    try:
        manifest = json.loads((entry / MANIFEST).read_text(encoding="utf-8"))
        frames = frames_from_manifest(entry, manifest)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if not all(path.is_file() for path in set(frames.paths)):
        return None
    return manifest, frames


def frames_from_manifest(entry: Path, manifest: dict[str, Any]) -> SampledFrames:
    """Rebuild SampledFrames from a manifest (paths are stored relative to the entry)."""
    return SampledFrames(
        video_path=Path(manifest["video"]),
        total_frames=int(manifest["total_frames"]),
        fps=float(manifest["fps"]),
        duration=float(manifest["duration"]),
        indices=tuple(int(i) for i in manifest["indices"]),
        times=tuple(float(t) for t in manifest["times"]),
        paths=tuple(entry / name for name in manifest["files"]),
        reader=str(manifest["reader"]),
    )


def frame_file(index: int) -> str:
    return f"{index:07d}.jpg"
