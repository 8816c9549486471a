"""Benches that compare this tree with an earlier one (`--against REF`) in the same run.

`tree_of(ref)` unpacks the ref's `mathreel/`, `core/` and `cli/` (git archive) into a temporary folder; a child
process with that folder first on PYTHONPATH imports the ref's readers (`mathreel/__init__.py` maps its
subpackages to the folders beside it). The bench script itself is always this tree's, so both trees are measured
by the same code, alternating, on the same machine, at the same load.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def tree_of(ref: str, into: Path) -> Path:
    """The ref's code unpacked under `into` (returned), for a child process to import."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref, "mathreel", "core", "cli"], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def run_child(script: Path, arguments: list[str], tree: Path | None) -> dict:
    """`script --child ...` in a fresh process importing `tree` (None: this tree); its one JSON line."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tree), env.get("PYTHONPATH", "")]))
    run = subprocess.run(
        [sys.executable, str(script), "--child", *arguments],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=str(tree or ROOT),
    )
    return json.loads(run.stdout.strip().splitlines()[-1])


# `mathreel.core.extract` is a lazy package (its modules load on first use), so importing it alone costs nothing:
# the figure is the first reading, which loads the choice reader and compiles the regexes it needs.
_IMPORT = (
    "import re, dataclasses, json, fractions, typing, functools, bisect, unicodedata, mathreel.core, time\n"
    "start = time.perf_counter()\nfrom mathreel.core.extract import extract_choice\n"
    "extract_choice('The answer is B.', ('A', 'B', 'C', 'D'))\nprint(time.perf_counter() - start)"
)


def import_ms(tree: Path | None, cached: bool, rounds: int) -> float:
    """The fastest of `rounds` first readings (`mathreel.core.extract` imported and one answer read, ms) in fresh
    processes, the standard library and `mathreel.core` imported first; `cached`: with bytecode written by a first
    run (as installed copies have it), else compiled from source each time. Bytecode goes to a temporary folder,
    never into the tree."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, PYTHONPYCACHEPREFIX=cache)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        if not cached:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        if tree is not None:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tree), env.get("PYTHONPATH", "")]))
        times = []
        for _ in range(rounds + cached):
            run = subprocess.run(
                [sys.executable, "-c", _IMPORT],
                capture_output=True,
                text=True,
                check=True,
                env=env,
                cwd=str(tree or ROOT),
            )
            times.append(1000 * float(run.stdout))
        return min(times[cached:])


def compare_imports(ref: str, rounds: int) -> dict[str, tuple[float, float]]:
    """{"cached": (ref's ms, this tree's ms), "source": (...)}, alternating trees."""
    with tempfile.TemporaryDirectory() as folder:
        tree = tree_of(ref, Path(folder))
        return {
            kind: (import_ms(tree, kind == "cached", rounds), import_ms(None, kind == "cached", rounds))
            for kind in ("cached", "source")
        }


def compare(script: Path, arguments: list[str], ref: str, rounds: int) -> tuple[list[dict], list[dict]]:
    """Each tree's child results, `rounds` of each, alternating (ref first): (ref's, this tree's)."""
    with tempfile.TemporaryDirectory() as folder:
        tree = tree_of(ref, Path(folder))
        theirs, ours = [], []
        for _ in range(rounds):
            theirs.append(run_child(script, arguments, tree))
            ours.append(run_child(script, arguments, None))
    return theirs, ours


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())
