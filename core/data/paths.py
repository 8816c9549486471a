"""Where things live (assets, demo set, cache) and the guard that keeps dataset-supplied names inside the root.

A video id or image path comes from a dataset file, which a user may have downloaded from anywhere: it must never
name a file outside the data directory. Names are checked component by component and the joined path is checked
for containment after normalisation. Symlinks are deliberately not resolved in that check: the Hugging Face cache
links every file to a blob outside the snapshot folder, and users often symlink a big `videos/` folder to another
disk; both are choices of whoever owns the data directory, not of the dataset file.
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath, PureWindowsPath

from mathreel.core.assets import assets_dir
from mathreel.core.cache import cache_base
from mathreel.core.errors import InputError

__all__ = ["assets_dir", "cache_base", "check_hf_id", "demo_dir", "inside"]


def demo_dir() -> Path:
    """The embedded demo set: `assets/demo`, laid out exactly like the real benchmarks."""
    return assets_dir() / "demo"


def _normal(path: Path) -> Path:
    return Path(os.path.normpath(os.path.abspath(path)))


def _check_parts(name: str, source: str, allow_dirs: bool) -> tuple[str, ...]:
    """The components of a dataset-supplied name, or InputError if it could step outside its folder."""
    problem = None
    if not name or "\x00" in name:
        problem = "is empty or holds a NUL byte"
    elif PurePosixPath(name).is_absolute() or PureWindowsPath(name).is_absolute() or PureWindowsPath(name).drive:
        problem = "is an absolute path"
    elif not allow_dirs and ("/" in name or "\\" in name):
        problem = "holds a path separator"
    parts = tuple(p for p in name.replace("\\", "/").split("/") if p)
    if problem is None and any(p in (".", "..") for p in parts):
        problem = "holds '.' or '..'"
    if problem is None and name.startswith("~"):
        problem = "starts with '~'"
    if problem:
        raise InputError(source, f"unsafe file name {name!r}: it {problem}")
    return parts


def inside(root: Path, folder: str, name: str, *, source: str, suffix: str = "", allow_dirs: bool = False) -> Path:
    """`root/folder/<name><suffix>`, guaranteed (after normalisation) to stay inside `root`.

    `name` comes from a dataset record: a video id (`allow_dirs=False`, one plain file name) or a relative image
    path (`allow_dirs=True`, no '..', not absolute). It is checked before `suffix` (".mp4") is appended.
    """
    parts = _check_parts(name, source, allow_dirs)
    parts = (*parts[:-1], parts[-1] + suffix)
    base = _normal(root)
    candidate = _normal(base.joinpath(folder, *parts)) if folder else _normal(base.joinpath(*parts))
    if candidate != base and base not in candidate.parents:
        raise InputError(source, f"unsafe file name {name!r}: it points outside {base}")
    return candidate


# The Hugging Face Hub's own rule for repository ids (huggingface_hub `validate_repo_id`): org/name, each part
# letters, digits, "-", "_", "." not at either end, no "--" or "..", at most 96 characters in all.
_HF_PART = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")


def check_hf_id(spec: str) -> None:
    """Refuse an `hf:<org>/<name>` whose id the Hub would reject, in one line, before any download is tried."""
    repo_id = spec[3:].strip() if spec.startswith("hf:") else spec
    parts = repo_id.split("/")
    if (
        len(parts) != 2
        or len(repo_id) > 96
        or "--" in repo_id
        or ".." in repo_id
        or not all(_HF_PART.fullmatch(part) for part in parts)
    ):
        raise InputError(
            spec, "not a Hugging Face dataset id; it looks like hf:<org>/<name> (letters, digits, '-', '_', '.')"
        )
