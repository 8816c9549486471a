"""MathReel: browse, run and score VideoMathQA, Video-MME and MathVerse.

The distribution installs one top-level name, `mathreel`, with three subpackages kept in their own folders at the
repository's top: `mathreel.core` (core/, pure Python), `mathreel.cli` (cli/, the `mathreel` command) and
`mathreel.webapp` (webapp/, the Gradio app). pyproject.toml maps them for installs (editable or not). A source
checkout run without an install (a Hugging Face Space runs `python app.py` from the repository folder) finds them
beside this folder through `_SourceTree`, which answers for those three names only, and first: the subpackages
always come from the same tree as this file, even where another tree is installed in editable mode.
"""

from __future__ import annotations

import sys
from importlib.machinery import ModuleSpec, PathFinder
from pathlib import Path

__version__ = "0.1.0"

SUBPACKAGES = ("core", "cli", "webapp")


class _SourceTree:
    """Finds `mathreel.core`, `mathreel.cli` and `mathreel.webapp` in the folders beside this package.

    A meta path finder needs only `find_spec`; not subclassing `importlib.abc.MetaPathFinder` keeps
    `importlib.resources`, `tempfile` and `shutil` out of every command's start."""

    def __init__(self, root: Path) -> None:
        self.root = str(root)

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> ModuleSpec | None:
        prefix, _, name = fullname.rpartition(".")
        if prefix != __name__ or name not in SUBPACKAGES:
            return None
        return PathFinder.find_spec(fullname, [self.root])


def _from_source_tree() -> None:
    here = Path(__file__).resolve().parent
    if (here / "core").is_dir() or not (here.parent / "core" / "__init__.py").is_file():
        return  # installed from a wheel (the subpackages sit inside this folder), or not a source checkout
    if not any(isinstance(finder, _SourceTree) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SourceTree(here.parent))


_from_source_tree()
