"""Run one piece of visitor-supplied work in a child process with a time and a memory budget.

Scoring an upload is pure Python. In a server thread it holds the GIL (slowing every other visitor's Browse) and
cannot be stopped: a file that costs minutes of CPU or gigabytes of memory takes the whole server with it. In a
child process it uses at most one core, the parent's threads keep the GIL, and when the budget runs out the child
is killed and the visitor gets one line saying which limit was hit and how to raise it.

Children come from a forkserver that has already imported core's reader and scorer, so a small file costs a fork
and a pickle, not a fresh interpreter.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mathreel.core.errors import InputError, MathReelError

# Imported once by the forkserver, not by every child: core's reader, extractors and scorer, and pandas, which core
# imports lazily for CSV, Excel and parquet files and which takes a second or more to import. Never a webapp module:
# the work sent to a child is core's `score_file` with plain arguments, since unpickling a name defined in webapp/
# makes the child import gradio, which cost seconds per upload.
PRELOAD = [
    "mathreel.core.scoring.files",
    "mathreel.core.scoring.scorer",
    "mathreel.core.results",
    "mathreel.core.extract",
    "mathreel.core.results.run_settings",
    "mathreel.core.view",
    "mathreel.cli",
    "pandas",
]
# A result larger than this comes back through a file the parent made (in /dev/shm where there is one), not through
# the pipe: a 2,700-answer report pickles to about 2 MB, and through a 64 KB pipe buffer every block waited for the
# parent to be scheduled (0.1-0.9 s for the whole report at load 25; bench/README.md).
SPOOL_ABOVE_BYTES = 64 * 1024
_context_lock = threading.Lock()
_context: Any = None


@dataclass(frozen=True)
class Budget:
    """How much one visitor's job may take; `what` names the job in the message when it is stopped."""

    seconds: float = 60.0
    memory_mb: int = 2048
    what: str = "scoring"
    settings: tuple[str, str] = ("MATHREEL_SCORE_SECONDS", "MATHREEL_SCORE_MEMORY_MB")  # that raise the limits
    per: str = "file"
    elsewhere: str = "`mathreel score`"


DEFAULT_BUDGET = Budget()


def _mp_context() -> Any:
    global _context
    with _context_lock:
        if _context is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(PRELOAD)
            _context = context
        return _context


def warm_up() -> None:
    """Start the forkserver now, at server start, rather than inside the first visitor's budget."""
    from multiprocessing import forkserver

    _mp_context()
    forkserver.ensure_running()


def _child(connection: Any, memory_mb: int, fn: Callable[..., Any], args: tuple[Any, ...], spool: str = "") -> None:
    """In the child: cap the address space, run, and send back ("ok", result), ("refused", (core's one line, the
    setting that fixes it)) or ("error", what went wrong). Exceptions travel as text: not every exception class can
    be unpickled. A large outcome is written to `spool` (a file the parent made and removes) and ("spooled", size)
    is sent instead."""
    import pickle
    import resource

    from mathreel.core.errors import MathReelError

    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        outcome: tuple[str, Any] = ("ok", fn(*args))
    except MemoryError:
        outcome = ("memory", None)
    except ImportError as error:  # a library's shared object that no longer fits under the cap cannot be mapped
        outcome = ("memory", None) if "failed to map" in str(error) else ("error", f"ImportError: {error}")
    except MathReelError as error:
        outcome = ("refused", (str(error), error.fix))
    except Exception as error:  # a bug: the parent logs it
        outcome = ("error", f"{type(error).__name__}: {error}")
    try:
        payload = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
        if spool and len(payload) > SPOOL_ABOVE_BYTES:
            with open(spool, "wb") as handle:
                handle.write(payload)
            connection.send(("spooled", len(payload)))
        else:
            connection.send_bytes(payload)
    except Exception as error:  # an unpicklable result or exception: say so rather than hang
        connection.send(("error", f"result could not be sent back: {type(error).__name__}"))
    finally:
        connection.close()


def run_isolated(fn: Callable[..., Any], args: tuple[Any, ...], budget: Budget, source: str) -> Any:
    """fn(*args) in a child process, its result or its exception; InputError naming `source` over budget."""
    context = _mp_context()
    spool = spool_file()
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(send, budget.memory_mb, fn, args, spool), daemon=True)
    try:
        process.start()
        send.close()
        if not receive.poll(budget.seconds):
            raise InputError(
                source,
                f"{budget.what} stopped after {budget.seconds:g} s, the server's limit per "
                f"{budget.per} ({budget.settings[0]}); {budget.elsewhere} on your own machine has none",
            )
        try:
            status, value = _received(receive, spool)
        except EOFError:
            status, value = "memory", None  # killed by the kernel, most often for memory
    finally:
        receive.close()
        process.kill()
        process.join(timeout=10)
        with contextlib.suppress(OSError):
            os.unlink(spool)
    if status == "memory":
        raise InputError(
            source,
            f"{budget.what} needed more than {budget.memory_mb} MB, the server's limit per "
            f"{budget.per} ({budget.settings[1]}); {budget.elsewhere} on your own machine has none",
        )
    if status == "refused":
        message, fix = value
        raise MathReelError(message, fix=fix)
    if status == "error":
        raise RuntimeError(value)
    return value


def spool_file() -> str:
    """An empty file only this user can read, for the child to write a large outcome into (in memory where /dev/shm
    is a writable directory)."""
    shm = "/dev/shm"
    folder = shm if os.path.isdir(shm) and os.access(shm, os.W_OK) else None
    handle, path = tempfile.mkstemp(prefix="mathreel-outcome-", dir=folder)
    os.close(handle)
    return path


def _received(receive: Any, spool: str) -> tuple[str, Any]:
    """The child's (status, value): from the pipe, or from the spool file when it says the outcome is there."""
    message = pickle.loads(receive.recv_bytes())
    if message[0] != "spooled":
        return message
    with open(spool, "rb") as handle:
        return pickle.loads(handle.read())
