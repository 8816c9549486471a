"""Finding a benchmark's root folder from what the user gave: `--data DIR`, `MATHREEL_DATA`, `hf:<org>/<name>`, or
nothing (the embedded demo set).

One DIR serves all three benchmarks: DIR may be a benchmark's own root (the folder holding its annotation files,
as downloaded), or a parent holding `videomathqa/`, `videomme/` and `mathverse/` subfolders, like `assets/demo`.
Which one it is, is decided by the files present: DIR itself is tried first, then DIR/<benchmark>.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path

from mathreel.core.data.layouts import Layout
from mathreel.core.data.paths import demo_dir
from mathreel.core.errors import InputError

HF_PREFIX = "hf:"


@dataclass(frozen=True)
class Located:
    """A benchmark root and how it was chosen (`source` is "demo", the path given, or the hf: id)."""

    root: Path
    source: str


def annotation_files(root: Path, patterns: tuple[str, ...]) -> list[Path]:
    """The files of the first pattern that matches anything under `root`, in name order (shards)."""
    for pattern in patterns:
        matches = sorted(p for p in root.glob(pattern) if p.is_file())
        if matches:
            return matches
    return []


def _is_root(folder: Path, layout: Layout) -> bool:
    return folder.is_dir() and bool(annotation_files(folder, layout.all_patterns))


def find_root(base: Path, layout: Layout, *, source: str, title: str) -> Path:
    """`base` if it is the benchmark's root, else `base/<subdir>`, else the parent of a `base` that is the root's
    annotation folder (Video-MME's `videomme/` holding the parquet); InputError saying what was looked for."""
    candidates = [base, base / layout.subdir]
    if base.name == layout.subdir:
        candidates.append(base.parent)
    for candidate in candidates:
        if _is_root(candidate, layout):
            return candidate
    looked = ", ".join(layout.all_patterns)
    raise InputError(
        source,
        f"no {title} data found: looked for {looked} in {base} and in {base / layout.subdir}",
    )


def benchmarks_in(directory: Path) -> list[str]:
    """The names of the benchmarks whose files `directory` holds (as a root, a parent, or an annotation folder)."""
    from mathreel.core.benchmarks import BENCHMARKS

    found = []
    for name, bench in BENCHMARKS.items():
        layout = bench.layout
        if layout is None:
            continue
        try:
            find_root(directory, layout, source=str(directory), title=bench.title)
        except InputError:
            continue
        found.append(name)
    return found


def data_spec(data_dir: str | os.PathLike[str] | None) -> str | None:
    """The data location the user asked for: the argument, else `MATHREEL_DATA`, else None (demo set)."""
    if data_dir is not None and str(data_dir).strip():
        return str(data_dir).strip()
    env = os.environ.get("MATHREEL_DATA", "").strip()
    return env or None


def locate(data_dir: str | os.PathLike[str] | None, layout: Layout, title: str) -> Located:
    """The root of one benchmark for `data_dir` (see the module docstring for the rules)."""
    spec = data_spec(data_dir)
    if spec is None:
        base, source = demo_dir(), "demo"
        if not base.is_dir():
            raise InputError(str(base), "the demo set is missing; give --data DIR or set MATHREEL_DATA")
    elif spec.startswith(HF_PREFIX):
        base, source = fetch_hub(spec[len(HF_PREFIX) :], layout), spec
    else:
        base, source = Path(spec).expanduser(), spec
        if not base.is_dir():
            problem = "is a file, not a data directory" if base.exists() else "no such data directory"
            raise InputError(spec, problem)
    return Located(find_root(base, layout, source=source, title=title), source)


def fetch_hub(repo_id: str, layout: Layout) -> Path:
    """Download a dataset's annotation files (and loose subtitles) from the Hugging Face Hub; returns the folder.

    Videos are not fetched (tens of gigabytes): place them under the root's video folder yourself. Without
    internet the error says so instead of showing a connection traceback.
    """
    repo_id = repo_id.strip()
    if repo_id.count("/") != 1 or any(not part for part in repo_id.split("/")):
        raise InputError(f"{HF_PREFIX}{repo_id}", "a Hugging Face dataset id looks like hf:<org>/<name>")
    patterns = tuple(f"{layout.subdir}/{p}" for p in layout.all_patterns) + layout.all_patterns + layout.extra_fetch
    return Path(_download(repo_id, patterns))


@functools.lru_cache(maxsize=16)
def _download(repo_id: str, patterns: tuple[str, ...]) -> str:
    source = f"{HF_PREFIX}{repo_id}"
    try:
        import huggingface_hub
        from huggingface_hub import errors
    except ImportError:
        raise InputError(source, "huggingface_hub is not installed; download the dataset and give --data DIR") from None
    try:
        return huggingface_hub.snapshot_download(repo_id, repo_type="dataset", allow_patterns=list(patterns))
    except errors.LocalEntryNotFoundError:
        raise InputError(
            source,
            "cannot reach the Hugging Face Hub (no internet?) and no copy is cached; "
            "download the dataset elsewhere and give --data DIR",
        ) from None
    except errors.RepositoryNotFoundError:
        raise InputError(source, "no such dataset on the Hugging Face Hub (or it is gated: log in first)") from None
    except (errors.HfHubHTTPError, OSError) as error:
        first_line = (str(error).splitlines() or [""])[0][:200]
        raise InputError(source, f"download failed ({type(error).__name__}: {first_line})") from None
