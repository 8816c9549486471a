"""The `mathreel` command line: one small module per command, heavy imports only inside each command's run."""

from __future__ import annotations

import argparse
import importlib
import sys

from core.errors import MathReelError

# Command name -> module with `register(subparsers)` and `run(args) -> int`.
COMMANDS: dict[str, str] = {
    "serve": "core.cli.serve",
    "run": "core.cli.run",
    "score": "core.cli.score",
    "judge": "core.cli.judge",
    "data": "core.cli.data",
    "show": "core.cli.show",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mathreel",
        description="Browse, run and score VideoMathQA, Video-MME and MathVerse.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in COMMANDS.values():
        importlib.import_module(module_name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        return int(args.handler(args) or 0)
    except MathReelError as error:
        print(f"mathreel: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("mathreel: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
