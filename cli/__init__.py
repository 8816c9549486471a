"""The `mathreel` command line: one small module per command, heavy imports only inside each command's run."""

from __future__ import annotations

import argparse
import gc
import importlib
import sys

from mathreel.core.errors import MathReelError

# Command name -> module with `register(subparsers)` and `run(args) -> int`.
COMMANDS: dict[str, str] = {
    "serve": "mathreel.cli.serve",
    "run": "mathreel.cli.run",
    "score": "mathreel.cli.score",
    "explain": "mathreel.cli.explain",
    "audit": "mathreel.cli.audit",
    "judge": "mathreel.cli.judge",
    "data": "mathreel.cli.data",
    "show": "mathreel.cli.show",
    "agreement": "mathreel.cli.agreement",
    "bundle": "mathreel.cli.bundle",
}

# What the command line asks for where an error names a setting that gets past it (core.errors.Fix).
FIXES: dict[str, str] = {
    "benchmark": "pass --benchmark (or --annotations)",
    "mode": "pass --mode",
    "annotations": "give the dataset with --annotations",
    "judge_base_url": "pass --base-url or set MATHREEL_JUDGE_BASE_URL",
    "judge_model": "pass --model or set MATHREEL_JUDGE_MODEL",
}


def error_line(error: MathReelError) -> str:
    """The error's one line, with the flag that fixes it when it names one."""
    fix = FIXES.get(error.fix or "")
    return f"{error}; {fix}" if fix else str(error)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser with every command, or with `command` alone: a command line that names its command parses the
    same with only that command registered, and skips importing the other nine modules."""
    parser = argparse.ArgumentParser(
        prog="mathreel",
        description="Browse, run and score VideoMathQA, Video-MME and MathVerse.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    names = [command] if command in COMMANDS else list(COMMANDS)
    for name in names:
        importlib.import_module(COMMANDS[name]).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    parser = build_parser(arguments[0] if arguments else None)
    args = parser.parse_args(arguments)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        _check_data_option(args)
        code = int(args.handler(args) or 0)
        sys.stdout.flush()  # a full disk or a closed pipe shows here, not in the interpreter's last flush
        if argv is None:
            # The process ends now: the interpreter's last full collection would walk every object the command
            # made (a file's rows, its report), about 4% of a 2,700-answer `score --json`, to free memory the
            # exit frees anyway. Frozen objects are left to it; atexit handlers still run.
            gc.freeze()
        return code
    except MathReelError as error:
        print(f"mathreel: {error_line(error)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("mathreel: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`mathreel data list | head`): stop quietly, as other Unix tools do.
        _silence_stdout()
        return 0
    except OSError as error:
        # The system refused a read or write no check foresaw (a full disk, /dev/full, a cache path that is a
        # file): one line naming the path, and stdout silenced so the final flush cannot raise again.
        _silence_stdout()
        print(f"mathreel: {_os_problem(error)}", file=sys.stderr)
        return 2


def _check_data_option(args: argparse.Namespace) -> None:
    """An `hf:` dataset id (from --data or MATHREEL_DATA) checked before any command uses it."""
    import os

    for spec in (getattr(args, "data", None), os.environ.get("MATHREEL_DATA", "").strip()):
        if spec and str(spec).startswith("hf:"):
            from mathreel.core.data.paths import check_hf_id

            check_hf_id(str(spec))


def _os_problem(error: OSError) -> str:
    """`path: reason` for an OSError, or `cannot write the output: reason` when no file is named (stdout)."""
    reason = error.strerror or str(error)
    if error.filename is not None:
        return f"{error.filename}: {reason}"
    return f"cannot write the output: {reason}"


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush does not raise a second time."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
