#!/usr/bin/env bash
# mypy on mathreel.core, mathreel.cli and mathreel.webapp (configured in pyproject.toml). The packages live in core/,
# cli/ and webapp/ at the repository's top but are imported as mathreel.*, which mypy cannot map from the folders, so
# it reads them through a tree of links laid out as installed (kept in .mypy_cache/, so mypy's cache stays valid
# between runs). MYPY names the mypy to run (default .venv's). Extra arguments go to mypy.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mypy="${MYPY:-$root/.venv/bin/mypy}"
tree="$root/.mypy_cache/src"
mkdir -p "$tree/mathreel"
ln -sfn "$root/mathreel/__init__.py" "$tree/mathreel/__init__.py"
for package in core cli webapp; do
  ln -sfn "$root/$package" "$tree/mathreel/$package"
done
cd "$tree"
"$mypy" --config-file "$root/pyproject.toml" --cache-dir "$root/.mypy_cache" "$@"
