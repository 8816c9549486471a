"""Proof of install: resolve MathReel's full dependency set from wheels only, for every common platform and Python.

Run: .venv/bin/python scripts/check_install.py [--python 3.10,3.11,3.12,3.13] [--jobs 4]

For each (platform, Python) it asks pip to resolve requirements.txt against the package index without building
anything (`pip install --dry-run --ignore-installed --only-binary=:all: --platform ... --python-version ...
--target ... --report`) and prints a table: how many packages, which frame readers come along, or pip's error.

Why the markers are evaluated here: pip evaluates environment markers against the machine it runs on, not the
--platform asked for, so decord's marker would say "install" on every target when run on x86-64 Linux. This script
evaluates each requirement's marker for the target platform itself and passes pip only the ones that apply.
(Markers inside dependencies' own metadata are still evaluated by pip for the host; none of them decides a
platform-specific wheel in this dependency set.)

pysrt publishes only a source archive (pysrt 1.1.2: pure Python, setup.py declares `chardet`), which installs on
any platform without a compiler; "wheels only" cannot include it, so it is replaced by its declared dependency and
listed in the table's last column. Only the public index (https://pypi.org/simple) is asked: pip configuration
files and PIP_* index/find-links settings of this machine are ignored.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Platform:
    """A target machine: its wheel tags (newest first is not required) and its marker environment."""

    label: str
    tags: tuple[str, ...]
    sys_platform: str
    platform_machine: str
    platform_system: str


PLATFORMS = (
    Platform(
        "Linux x86-64",
        (
            "manylinux_2_28_x86_64",
            "manylinux_2_17_x86_64",
            "manylinux2014_x86_64",
            "manylinux2010_x86_64",
            "manylinux1_x86_64",
            "linux_x86_64",
        ),
        "linux",
        "x86_64",
        "Linux",
    ),
    Platform(
        "Linux aarch64",
        ("manylinux_2_28_aarch64", "manylinux_2_17_aarch64", "manylinux2014_aarch64", "linux_aarch64"),
        "linux",
        "aarch64",
        "Linux",
    ),
    Platform(
        "macOS arm64",
        (
            "macosx_14_0_arm64",
            "macosx_13_0_arm64",
            "macosx_12_0_arm64",
            "macosx_11_0_arm64",
            "macosx_11_0_universal2",
            "macosx_10_9_universal2",
        ),
        "darwin",
        "arm64",
        "Darwin",
    ),
    Platform("Windows x86-64", ("win_amd64",), "win32", "AMD64", "Windows"),
)
PYTHONS = ("3.10", "3.11", "3.12", "3.13")
READERS = ("decord", "av")
PURE_PYTHON_SDISTS = {"pysrt": ("chardet",)}  # name -> its declared dependencies (see the module docstring)


def requirements_for(platform: Platform, python: str) -> list[str]:
    """requirements.txt's lines whose markers hold on `platform` with `python` (markers removed)."""
    from packaging.requirements import Requirement

    environment = {
        "sys_platform": platform.sys_platform,
        "platform_machine": platform.platform_machine,
        "platform_system": platform.platform_system,
        "python_version": python,
        "python_full_version": f"{python}.0",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "os_name": "nt" if platform.sys_platform == "win32" else "posix",
    }
    kept = []
    for line in (REPO / "requirements.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate(environment):
            requirement.marker = None
            kept.extend(PURE_PYTHON_SDISTS.get(requirement.name.lower(), (str(requirement),)))
    return kept


def _public_index_env() -> dict[str, str]:
    """This process's environment without local pip configuration: only the public index answers."""
    dropped = {"PIP_FIND_LINKS", "PIP_EXTRA_INDEX_URL", "PIP_INDEX_URL", "PIP_NO_INDEX"}
    env = {key: value for key, value in os.environ.items() if key not in dropped}
    return {**env, "PIP_CONFIG_FILE": os.devnull}


def resolve(platform: Platform, python: str) -> dict:
    """pip's dry-run resolution for one target: {"ok", "packages", "readers"} or {"ok": False, "error"}."""
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "report.json"
        command = [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--dry-run",
            "--quiet",
            "--ignore-installed",
            "--disable-pip-version-check",
            "--index-url",
            "https://pypi.org/simple",
            "--only-binary=:all:",
            "--python-version",
            python,
            "--implementation",
            "cp",
            "--target",
            str(Path(scratch) / "target"),
            "--report",
            str(report),
        ]
        for tag in platform.tags:
            command += ["--platform", tag]
        done = subprocess.run(
            [*command, *requirements_for(platform, python)], capture_output=True, text=True, env=_public_index_env()
        )
        if done.returncode != 0:
            lines = [line for line in done.stderr.splitlines() if line.startswith("ERROR")] or [done.stderr.strip()]
            return {"ok": False, "error": lines[0][:150]}
        installs = json.loads(report.read_text(encoding="utf-8"))["install"]
    versions = {item["metadata"]["name"].lower(): item["metadata"]["version"] for item in installs}
    readers = [f"{name} {versions[name]}" for name in READERS if name in versions]
    return {"ok": True, "packages": len(versions), "readers": readers}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=",".join(PYTHONS), help="comma-separated Python versions")
    parser.add_argument("--jobs", type=int, default=4, help="resolutions run at once (they mostly wait on the index)")
    args = parser.parse_args()
    targets = [(platform, python) for platform in PLATFORMS for python in args.python.split(",")]
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda target: resolve(*target), targets))
    sdists = ", ".join(PURE_PYTHON_SDISTS)
    print("| Platform | Python | Resolves (wheels only) | Packages | Frame readers | Pure-Python sdists |")
    print("|---|---|---|---|---|---|")
    for (platform, python), result in zip(targets, results, strict=True):
        if result["ok"]:
            readers = ", ".join(result["readers"])
            print(f"| {platform.label} | {python} | yes | {result['packages']} | {readers} | {sdists} |")
        else:
            print(f"| {platform.label} | {python} | **no**: {result['error']} | | | |")
    return 0 if all(result["ok"] for result in results) else 1


if __name__ == "__main__":
    sys.exit(main())
