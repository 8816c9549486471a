"""Bounded load test of `mathreel serve` on 127.0.0.1, each action timed beside Gradio's own floor in the same run.

Every session repeats, interleaved: Gradio's trivial event (`/floor_event`), Browse's first question
(`/first_question`), Gradio's trivial upload of the small file (`/floor_upload`), the Score tab's upload of the same
12-answer file (`/rescore`), and one step of the reading walk over that run (`/next_question`). The floor events
live in the same server (bench/load_floor.py adds them beside the app's tabs), so they queue and wait for the cores
exactly as the app's events do; the ratio app p50 / floor p50 is what MathReel adds to what Gradio costs.

Phases, each bounded in requests and time:
  1. idle: one session;
  2. crowd: SESSIONS sessions at once;
  3. crowd + hostile (per --heavy kind): the same while one more visitor (one visitor token, several browser
     tabs) sends costly uploads at once: `xlsx` (--hostile workbooks: ZIP bombs of a million rows and 150,000-row
     sheets, kilobytes to 2.6 MB that cost seconds each), `nested` (20,000 nested \\boxed{), `rows` (48 MB of long
     rows). Prints each hostile upload's own outcome and when the last other visitor's upload finished.

    python bench/bench_load.py [--sessions 30] [--rounds 2] [--heavy xlsx] [--hostile 6] [--score-seconds 10]

gradio_client is made with download_files=False: the bench times events, not the client fetching the frames and
video a browser fetches afterwards (from its cache when they were seen before).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from helpers import badinputs  # noqa: E402
from helpers.appserver import free_port, stop, wait_until_answering  # noqa: E402
from test_reliability_app import nested_boxed_file  # noqa: E402

KEY = "videomme:mcq"  # the small file's benchmark: the walk steps through its answers
ACTIONS = (
    ("browse", "floor_event", "Browse first question"),
    ("upload", "floor_upload", "12-answer upload"),
    ("walk", "floor_event", "reading walk step"),
)
VIEW = (8, False, False, False)  # frames, chain of thought, subtitles, all subtitle lines


def client_for(url: str) -> Any:
    from gradio_client import Client

    return Client(url, verbose=False, download_files=False, httpx_kwargs={"timeout": 600})


def heavy_files(kind: str, directory: Path, count: int) -> list[Path]:
    from helpers import xlsx_files as X

    if kind == "nested":
        return [nested_boxed_file(directory / "heavy-nested.jsonl", 20_000)]
    if kind == "rows":
        path = directory / "heavy-rows.jsonl"  # 70,000 rows of ~450 characters: 48 MB, under the 50 MB limit
        path.write_bytes(
            badinputs.jsonl(badinputs.run_records(70_000, 35_000, "Reasoning. " * 40 + "The answer is {}."))
        )
        return [path]
    books = [X.zip_bomb(), X.many_rows(150_000)]
    paths = []
    for i in range(count):
        path = directory / f"hostile-{i}.xlsx"
        path.write_bytes(books[i % 2])
        paths.append(path)
    return paths


class Timings:
    """Seconds per action, and when each small upload finished (for the ordering against hostile ones)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.values: dict[str, list[float]] = {}
        self.upload_done: list[float] = []

    def add(self, name: str, seconds: float) -> None:
        with self.lock:
            self.values.setdefault(name, []).append(seconds)


def timed(timings: Timings, name: str, job: Any) -> Any:
    start = time.perf_counter()
    result = job.result(timeout=600)
    timings.add(name, time.perf_counter() - start)
    return result


def session(url: str, small: Path, rounds: int, timings: Timings) -> None:
    from gradio_client import handle_file

    client, token = client_for(url), secrets.token_urlsafe(32)
    try:
        for _ in range(rounds):
            timed(timings, "floor_event", client.submit("ping", api_name="/floor_event"))
            timed(timings, "browse", client.submit(KEY, *VIEW, False, api_name="/first_question"))
            timed(timings, "floor_upload", client.submit([handle_file(str(small))], api_name="/floor_upload"))
            timed(
                timings,
                "upload",
                client.submit([handle_file(str(small))], "", "robust", "", False, token, api_name="/rescore"),
            )
            with timings.lock:
                timings.upload_done.append(time.monotonic())
            timed(timings, "floor_event", client.submit("ping", api_name="/floor_event"))
            client.submit(api_name="/run_choices").result(timeout=600)  # the browser's runs.change
            client.submit(small.name, "all", False, api_name="/set_walk").result(timeout=600)
            timed(timings, "walk", client.submit(False, *VIEW, api_name="/next_question"))
    finally:
        client.close()


def phase(url: str, small: Path, sessions: int, rounds: int) -> Timings:
    timings = Timings()
    with ThreadPoolExecutor(max_workers=sessions) as pool:
        for future in [pool.submit(session, url, small, rounds, timings) for _ in range(sessions)]:
            future.result()
    return timings


def pct(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


def report(name: str, t: Timings) -> None:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    for action, floor, label in ACTIONS:
        app, base = t.values[action], t.values[floor]
        print(
            f"| {name} | {label} | {len(app)} | {pct(app, 50):.2f} / {pct(app, 95):.2f} s | "
            f"{pct(base, 50):.2f} / {pct(base, 95):.2f} s | **{pct(app, 50) / pct(base, 50):.1f}x** / "
            f"{pct(app, 95) / pct(base, 95):.1f}x | {load} |",
            flush=True,
        )


def with_hostile(url: str, small: Path, heavy: list[Path], sessions: int, rounds: int) -> None:
    """The crowd while one more visitor (one token, a tab per file) uploads every `heavy` file at once."""
    from gradio_client import handle_file

    token, clients = secrets.token_urlsafe(32), [client_for(url) for _ in heavy]
    start = time.monotonic()
    jobs = [
        c.submit([handle_file(str(p))], "", "robust", "", False, token, api_name="/rescore")
        for c, p in zip(clients, heavy, strict=True)
    ]
    done: list[tuple[float, str]] = []
    for job in jobs:  # each hostile upload's own finishing time, whatever order they finish in
        job.add_done_callback(lambda finished: done.append(outcome(finished, start)))
    timings = phase(url, small, sessions, rounds)
    report(f"{sessions} sessions + {len(heavy)} hostile uploads ({heavy[0].suffix})", timings)
    for job in jobs:
        with contextlib.suppress(Exception):  # reported by outcome()
            job.result(timeout=900)
    for client in clients:
        client.close()
    done.sort()
    last_small = max(timings.upload_done) - start
    print(
        f"  the others' last small upload finished at {last_small:.1f} s; hostile uploads finished at: "
        + "; ".join(f"{s:.1f} s {what}" for s, what in done),
        flush=True,
    )


def outcome(job: Any, start: float) -> tuple[float, str]:
    try:
        box, *_ = job.result(timeout=900)
        what = f"refused: {box['value'][:90]}" if box["visible"] else "scored"
    except Exception as error:  # the bench reports whatever happened to the hostile visitor
        what = f"failed: {type(error).__name__}: {str(error)[:90]}"
    return time.monotonic() - start, what


@contextmanager
def floor_server(env: dict[str, str], log_dir: Path) -> Iterator[str]:
    """`mathreel serve` with the floor events (bench/load_floor.py) on a free port; always terminated."""
    port = free_port()
    log = log_dir / "serve.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, str(ROOT / "bench" / "load_floor.py"), str(port)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_until_answering(url, process, log, timeout=300)
        yield url
    finally:
        stop(process)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--heavy", default="xlsx", help="comma-separated: xlsx, nested, rows (empty: none)")
    parser.add_argument("--hostile", type=int, default=6, help="how many xlsx uploads the hostile visitor sends")
    parser.add_argument("--score-seconds", type=int, default=10)
    args = parser.parse_args()

    kinds = [kind for kind in args.heavy.split(",") if kind]
    if not set(kinds) <= {"xlsx", "nested", "rows"}:
        parser.error("--heavy takes xlsx, nested, rows")
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        small = base / "small.jsonl"
        small.write_bytes(badinputs.known_accuracy_file(12, 7))
        heavies = [heavy_files(kind, base, args.hostile) for kind in kinds]
        env = {
            **os.environ,
            "MATHREEL_CACHE": str(base / "cache"),
            "GRADIO_TEMP_DIR": str(base / "gradio"),
            "GRADIO_ANALYTICS_ENABLED": "False",
            "MATHREEL_SCORE_SECONDS": str(args.score_seconds),
            "PYTHONPATH": str(ROOT),
        }
        env.pop("MATHREEL_DATA", None)
        with floor_server(env, base) as url:
            phase(url, small, 1, 1)  # warm-up
            print(
                "| phase | action | n | app p50 / p95 | Gradio floor p50 / p95 | app / floor p50 / p95 | "
                "load average after |\n|---|---|---|---|---|---|---|",
                flush=True,
            )
            report("idle, 1 session", phase(url, small, 1, args.rounds * 3))
            report(f"{args.sessions} sessions", phase(url, small, args.sessions, args.rounds))
            for heavy in heavies:
                with_hostile(url, small, heavy, args.sessions, args.rounds)


if __name__ == "__main__":
    main()
