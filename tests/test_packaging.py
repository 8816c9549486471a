"""The distribution's package list matches the folders, so an installed (non-editable) MathReel has every module."""

from __future__ import annotations

from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"mathreel.core": "core", "mathreel.cli": "cli", "mathreel.webapp": "webapp"}


def _config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def test_every_package_folder_is_listed_and_every_listed_package_exists():
    found = {"mathreel"}
    for name, folder in FOLDERS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join([name, *relative]))
    assert set(_config()["packages"]) == found


def test_the_subpackages_map_to_their_top_level_folders():
    assert _config()["package-dir"] == {"mathreel": "mathreel", **FOLDERS}


def test_a_source_checkout_imports_the_subpackages_from_its_own_tree(tmp_path):
    import subprocess
    import sys

    # -S: no site-packages, so no editable install to lean on; only the repository on the path, as on a Space.
    code = "import mathreel.core, mathreel.cli; print(mathreel.core.__file__); print(mathreel.cli.__file__)"
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-S", "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == [str(ROOT / "core" / "__init__.py"), str(ROOT / "cli" / "__init__.py")]
