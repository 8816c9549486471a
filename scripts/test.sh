#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs Debian's Chromium (for the browser tests),
# MathReel with its test tools in .venv, then runs ruff and pytest. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium >/dev/null
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[dev]'

.venv/bin/ruff check .
if [ "$#" -gt 0 ] && [[ "$1" != -* ]]; then
  # Explicit test paths: one run, as asked.
  .venv/bin/python -m pytest "$@"
else
  # The browser tests run in a process of their own: Playwright's sync API keeps an event loop in the main
  # thread, which would break the asyncio.run of the client and judge tests if they shared one process.
  .venv/bin/python -m pytest --ignore=tests/browser "$@"
  .venv/bin/python -m pytest tests/browser "$@"
fi
