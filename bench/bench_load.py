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
     tabs) sends costly work at once: `xlsx` (--hostile workbooks: ZIP bombs of a million rows and 150,000-row
     sheets, kilobytes to 2.6 MB that cost seconds each), `nested` (20,000 nested \\boxed{), `rows` (48 MB of long
     rows), `math` (MathVerse files of 100 hostile answers each: exponent towers and factorials, powers of sums
     that expand to thousands of terms, and products of powers the screen lets through), `judge` (the Judge tab
     run over a 12-answer file against the visitor's own endpoint, which replies 1.9 MB of "{" to every call),
     `reviews` (a 1.4 MB review file of 3,000 reviewers read as the Score tab's reviews, then a run scored with
     them: the agreement). Prints each hostile job's own outcome, when the last other visitor's upload finished,
     and the others' p50 / p95 against the same crowd alone (the issue's bar: under 2x).

    python bench/bench_load.py [--sessions 30] [--rounds 2] [--heavy xlsx,math,judge,reviews] [--hostile 6]
                               [--score-seconds 10]

gradio_client is made with download_files=False: the bench times events, not the client fetching the frames and
video a browser fetches afterwards (from its cache when they were seen before).
"""

from __future__ import annotations

import argparse
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


DEMO = ROOT / "assets" / "demo"
DEMO_RESULTS = DEMO / "results" / "videomathqa_mcq_synthetic-model-b_samples.jsonl"
DEMO_JUDGMENTS = DEMO / "judgments" / "videomathqa_mcq_synthetic-model-b_judgments.jsonl"
DEMO_REVIEWS = DEMO / "reviews" / "videomathqa_mcq_synthetic-model-b_reviews.jsonl"
KINDS = ("xlsx", "nested", "rows", "math", "judge", "reviews")


def heavy_files(kind: str, directory: Path, count: int) -> list[Path]:
    import json

    from helpers import xlsx_files as X

    if kind == "math":
        sys.path.insert(0, str(ROOT / "bench"))
        from mathverse_load import HOSTILE_KINDS, hostile_records

        paths = []
        for name in HOSTILE_KINDS:
            path = directory / f"hostile-math-{name}.json"
            path.write_text(json.dumps(hostile_records(100, name)))
            paths.append(path)
        return paths
    if kind == "judge":
        path = directory / "to-judge.jsonl"
        path.write_bytes(badinputs.known_accuracy_file(12, 7))
        return [path]
    if kind == "reviews":
        base = [json.loads(line) for line in DEMO_REVIEWS.read_text().splitlines() if line.strip()]
        categorised = [r for r in base if r.get("category_verdict")]
        path = directory / "reviews-3000.jsonl"
        path.write_text(
            "".join(json.dumps({**categorised[i % len(categorised)], "reviewer": f"r{i}"}) + "\n" for i in range(3000))
        )
        return [path]
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


def hostile_job(kind: str, client: Any, path: Path, token: str, judge_url: str) -> str:
    """One hostile visitor tab's work of `kind`, run to its end; what happened to it, in a few words."""
    from gradio_client import handle_file

    if kind == "judge":  # the Judge tab over a file, against the visitor's own endpoint
        client.submit(handle_file(str(path)), judge_url, "hostile-model", "", 4, api_name="/run_file").result(
            timeout=900
        )
        return "judged"
    if kind == "reviews":  # the reviews read (Score tab), then a run scored with them: the agreement
        client.submit([handle_file(str(DEMO_JUDGMENTS))], [handle_file(str(path))], api_name="/judging").result(
            timeout=900
        )
        path = DEMO_RESULTS
    box, *_ = client.submit([handle_file(str(path))], "", "robust", "", False, token, api_name="/rescore").result(
        timeout=900
    )
    return f"refused: {box['value'][:90]}" if box["visible"] else "scored"


def with_hostile(
    url: str, small: Path, kind: str, heavy: list[Path], sessions: int, rounds: int, crowd: Timings
) -> None:
    """The crowd while one more visitor (one token, a tab per file) sends every `heavy` job of `kind` at once;
    the others' times against `crowd` (the same crowd alone)."""
    from helpers.fake_openai import FakeOpenAI

    token, clients = secrets.token_urlsafe(32), [client_for(url) for _ in heavy]
    endpoint = FakeOpenAI(reply="{" * 1_900_000).start() if kind == "judge" else None
    judge_url = endpoint.base_url if endpoint else ""
    start = time.monotonic()
    done: list[tuple[float, str]] = []

    def run(client: Any, path: Path) -> None:
        try:
            what = hostile_job(kind, client, path, token, judge_url)
        except Exception as error:  # the bench reports whatever happened to the hostile visitor
            what = f"failed: {type(error).__name__}: {str(error)[:90]}"
        done.append((time.monotonic() - start, f"{path.name}: {what}"))

    threads = [threading.Thread(target=run, args=(c, p), daemon=True) for c, p in zip(clients, heavy, strict=True)]
    for thread in threads:
        thread.start()
    try:
        timings = phase(url, small, sessions, rounds)
        report(f"{sessions} sessions + {len(heavy)} hostile {kind}", timings)
        for thread in threads:
            thread.join(timeout=900)
    finally:
        for client in clients:
            client.close()
        if endpoint is not None:
            endpoint.stop()
    done.sort()
    last_small = max(timings.upload_done) - start
    print(
        f"  the others' last small upload finished at {last_small:.1f} s; hostile jobs finished at: "
        + "; ".join(f"{s:.1f} s {what}" for s, what in done),
        flush=True,
    )
    against_crowd(kind, timings, crowd)


def against_crowd(kind: str, timings: Timings, crowd: Timings) -> None:
    """The others' p50 / p95 with the hostile visitor, over the same crowd's alone (the issue's bar: under 2x)."""
    parts = []
    for action, _, label in ACTIONS:
        with_it, alone = timings.values[action], crowd.values[action]
        parts.append(f"{label} {pct(with_it, 50) / pct(alone, 50):.2f}x / {pct(with_it, 95) / pct(alone, 95):.2f}x")
    print(f"  others with hostile {kind} against the crowd alone (p50 / p95): " + "; ".join(parts), flush=True)


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
    parser.add_argument("--heavy", default="xlsx", help=f"comma-separated: {', '.join(KINDS)} (empty: none)")
    parser.add_argument("--hostile", type=int, default=6, help="how many xlsx uploads the hostile visitor sends")
    parser.add_argument("--score-seconds", type=int, default=10)
    args = parser.parse_args()

    kinds = [kind for kind in args.heavy.split(",") if kind]
    if not set(kinds) <= set(KINDS):
        parser.error(f"--heavy takes {', '.join(KINDS)}")
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
            crowd = phase(url, small, args.sessions, args.rounds)
            report(f"{args.sessions} sessions", crowd)
            for kind, heavy in zip(kinds, heavies, strict=True):
                with_hostile(url, small, kind, heavy, args.sessions, args.rounds, crowd)


if __name__ == "__main__":
    main()
