"""math-verify's worker pool: verdicts bounded by CPU time (the same on a loaded machine), a stalled worker said
so, hostile math screened before sympy, a per-file CPU budget, and callers served in turn."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from mathreel.core.extract import equivalence_engine as engine
from mathreel.core.extract import math_budget
from mathreel.core.extract.equivalence import clear_memo, math_equivalence
from mathreel.core.extract.free_verdict import free_verdict
from mathreel.core.extract.math_screen import hostile_reason

# (x+y+1)^{10} against its expansion: about 0.8 s of CPU; (x+y+1)^4 (x-y)^4 about 0.4 s. On a loaded machine a
# wall-clock deadline of 2 s cuts them off; a CPU limit of 2 s never does.
EXPANDED_10 = (
    "x^{10} + 10 x^{9} y + 10 x^{9} + 45 x^{8} y^{2} + 90 x^{8} y + 45 x^{8} + 120 x^{7} y^{3} + 360 x^{7} y^{2} + "
    "360 x^{7} y + 120 x^{7} + 210 x^{6} y^{4} + 840 x^{6} y^{3} + 1260 x^{6} y^{2} + 840 x^{6} y + 210 x^{6} + "
    "252 x^{5} y^{5} + 1260 x^{5} y^{4} + 2520 x^{5} y^{3} + 2520 x^{5} y^{2} + 1260 x^{5} y + 252 x^{5} + "
    "210 x^{4} y^{6} + 1260 x^{4} y^{5} + 3150 x^{4} y^{4} + 4200 x^{4} y^{3} + 3150 x^{4} y^{2} + 1260 x^{4} y + "
    "210 x^{4} + 120 x^{3} y^{7} + 840 x^{3} y^{6} + 2520 x^{3} y^{5} + 4200 x^{3} y^{4} + 4200 x^{3} y^{3} + "
    "2520 x^{3} y^{2} + 840 x^{3} y + 120 x^{3} + 45 x^{2} y^{8} + 360 x^{2} y^{7} + 1260 x^{2} y^{6} + "
    "2520 x^{2} y^{5} + 3150 x^{2} y^{4} + 2520 x^{2} y^{3} + 1260 x^{2} y^{2} + 360 x^{2} y + 45 x^{2} + "
    "10 x y^{9} + 90 x y^{8} + 360 x y^{7} + 840 x y^{6} + 1260 x y^{5} + 1260 x y^{4} + 840 x y^{3} + "
    "360 x y^{2} + 90 x y + 10 x + y^{10} + 10 y^{9} + 45 y^{8} + 120 y^{7} + 210 y^{6} + 252 y^{5} + "
    "210 y^{4} + 120 y^{3} + 45 y^{2} + 10 y + 1"
)
# Past any limit, and past the screen: each power multiplies out to 231 terms (under its limit of 400), their
# product is what sympy grinds at for many seconds. (x+y+1)^{60} alone is 1,891 terms: screened.
COSTLY = "z = (x+y+{k})^{{20}}(x+y+{k1})^{{20}}", "(x+y+{k1})^{{20}}(x+y+{k2})^{{20}}"


def costly_pair(k: int) -> tuple[str, str]:
    return COSTLY[0].format(k=k, k1=k + 1), COSTLY[1].format(k1=k + 1, k2=k + 2)


# MathVerse-like answers that the fast path leaves to math-verify, plus the two heavy ones and one far past any
# limit (sympy expands both sides for many seconds).
PAIRS = [
    ("2\\sqrt{5}", "\\sqrt{20}"),
    ("y = 3x + 1", "y = 1 + 3x"),
    ("\\frac{\\sqrt{3}}{2}", "\\sin(60^\\circ)"),
    ("(x+1)(x-1)", "x^2 - 1"),
    ("\\frac{x^2-1}{x-1}", "x+1"),
    ("2\\pi r", "\\pi d"),
    ("[1, 4)", "[1, 4]"),
    ("\\sin^2 x + \\cos^2 x", "1"),
    ("3\\sqrt{2}", "\\sqrt{18}"),
    ("y=-x^2+4x+1", "y = -(x-2)^2 + 5"),
    ("(x+y+1)^{10}", EXPANDED_10),
    costly_pair(1),
]
CPU_LIMIT = 2.0


def _verdicts() -> list[tuple[bool | None, str]]:
    clear_memo()
    engine.restart_worker()  # a cold worker each time: sympy's own caches start empty
    return [(v.equal, v.explanation) for v in (math_equivalence(p, g) for p, g in PAIRS)]


def _busy(count: int) -> list[subprocess.Popen[bytes]]:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


@pytest.mark.xdist_group("machine")
def test_verdicts_are_the_same_on_a_loaded_machine() -> None:
    old = engine.set_deadline_for_tests(CPU_LIMIT)
    try:
        quiet = _verdicts()
        hogs = _busy((os.cpu_count() or 1) + 1)  # more runnable processes than cores
        try:
            loaded = _verdicts()
        finally:
            for hog in hogs:
                hog.kill()
                hog.wait()
    finally:
        engine.set_deadline_for_tests(old)
    assert loaded == quiet
    assert quiet[10][0] is True, quiet[10]  # decided, loaded or not
    assert quiet[11] == (None, f"math-verify took longer than {CPU_LIMIT:g} s of CPU time; a judge can decide")


def test_a_stalled_worker_is_said_so_and_not_remembered() -> None:
    """A worker that gets no CPU at all (stopped here) is stuck, not slow: "worker stalled", and the next try
    with a working worker decides."""
    clear_memo()
    math_equivalence("2\\sqrt{7}", "\\sqrt{28}")  # a warm worker
    pids = engine.worker_pids()
    old = engine.set_stall_for_tests(1.0)
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    try:
        stalled = math_equivalence("5\\sqrt{2}", "\\sqrt{50}")
    finally:
        engine.set_stall_for_tests(old)
        for pid in set(pids) & set(engine.worker_pids()):
            os.kill(pid, signal.SIGCONT)
    assert stalled.equal is None and stalled.explanation.startswith("undecidable (worker stalled)"), stalled
    assert len(set(pids) & set(engine.worker_pids())) < len(pids)  # the stalled one was replaced
    assert math_equivalence("5\\sqrt{2}", "\\sqrt{50}").equal is True


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("10^{10^{10}}", "digits"),
        ("9^9^9^9", "digits"),
        ("10**10**10", "digits"),
        ("2^{-10^{9}}", "digits"),
        ("\\left(10\\right)^{\\left(10^{10}\\right)}", "digits"),
        ("(x+1)^{100000}", "exponent over"),
        ("100000!", "factorial"),
        ("(10^{10})!", "factorial"),
        ("(" * 25 + "1" + ")" * 25, "nested"),
        ("+".join(["x"] * 500), "terms"),
        ("(x+y+1)^{60}", "expands to 1,891 terms"),
        ("z = \\left(x+y+9\\right)^{60}", "expands to 1,891 terms"),
        ("(a+b+c+d)^{12}", "expands to 455 terms"),
        ("(x+1)^{400}", "expands to 401 terms"),
    ],
)
def test_hostile_math_is_named_from_its_text(text: str, found: str) -> None:
    assert found in (hostile_reason(text) or ""), hostile_reason(text)


@pytest.mark.parametrize(
    "text",
    [
        "2^{1000}",
        "2^{2^{2^{2^{2}}}}",
        "e^{x^2}",
        "(x+y+1)^{26}",
        "(x+1)^{300}",
        "(x-1)^{2}(x+1)^{3}",
        "(x^{a+b}+1)^{2}",
        "x^{y^{z}}",
        "20!",
        "10^{-3}",
        "1^{10^{10}}",
        "y=-x^2+3x+1",
        "\\frac{\\sqrt{3}}{2}",
        "Hello! The answer is 5!",
        EXPANDED_10,
    ],
)
def test_ordinary_math_passes_the_screen(text: str) -> None:
    assert hostile_reason(text) is None


def test_hostile_math_never_reaches_the_worker() -> None:
    clear_memo()
    before = engine.worker_cpu_seconds()
    verdict = math_equivalence("10^{10^{10}}", "1")
    read = free_verdict("We multiply it out and the result is $(10^{10})!$ exactly, as shown.", "5")
    assert engine.worker_cpu_seconds() == before
    assert verdict.equal is None and verdict.explanation.startswith("undecidable (hostile math): 10^{10^{10}}")
    assert read.equivalence.equal is None and "hostile math" in read.equivalence.explanation


def test_a_file_of_costly_answers_costs_its_budget_not_one_limit_each(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ten answers that each would use the whole per-check limit: together they get the file's budget, the rest
    are undecidable for this file only (the same pair outside the file is checked again)."""
    clear_memo()
    monkeypatch.setattr(math_budget, "FILE_BUDGET_SECONDS", 1.0)
    monkeypatch.setattr(math_budget, "FILE_BUDGET_PER_ANSWER", 0.0)
    old = engine.set_deadline_for_tests(0.6)
    pairs = [costly_pair(k) for k in range(1, 11)]
    try:
        before = engine.worker_cpu_seconds()
        with math_budget.file_budget(len(pairs)) as budget:
            verdicts = [math_equivalence(p, g) for p, g in pairs]
        used = engine.worker_cpu_seconds() - before
        again = math_equivalence(*pairs[-1])
    finally:
        engine.set_deadline_for_tests(old)
    assert all(v.equal is None for v in verdicts)
    assert verdicts[0].explanation == "math-verify took longer than 0.6 s of CPU time; a judge can decide"
    spent = [v for v in verdicts if "budget for this file (1 s of CPU time) is spent" in v.explanation]
    assert len(spent) >= 8 and budget.refused == len(spent), [v.explanation for v in verdicts]
    assert used < 2.0, used  # the budget and one check's overshoot, not ten limits
    assert again.explanation == "math-verify took longer than 0.6 s of CPU time; a judge can decide"


def test_a_files_costly_checks_are_cut_sooner_then_not_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Costly answers past the screen: the first at the full limit per check, then at the lowered limit, then none
    run ("time limit"); the file's CPU stays near the costly ceiling however many there are (the limits are
    scaled down here, as `set_deadline_for_tests` does; the real ones are 5 s, 1.5 s and 6.5 s)."""
    clear_memo()
    monkeypatch.setattr(math_budget, "COSTLY_CHECK_SECONDS", 0.3)
    monkeypatch.setattr(math_budget, "COSTLY_SECONDS", 0.6)
    monkeypatch.setattr(math_budget, "COSTLY_CEILING_SECONDS", 1.1)
    old = engine.set_deadline_for_tests(0.6)
    pairs = [costly_pair(k) for k in range(1, 9)]
    try:
        math_equivalence("2\\sqrt{7}", "\\sqrt{28}")  # a warm worker
        before = engine.worker_cpu_seconds()
        with math_budget.file_budget(len(pairs)) as budget:
            verdicts = [math_equivalence(p, g) for p, g in pairs]
            ordinary = math_equivalence("3\\sqrt{5}", "\\sqrt{45}")  # not run either, for this file
            notes = [budget.note(v.explanation) for v in verdicts]
        used = engine.worker_cpu_seconds() - before
        assert math_equivalence("3\\sqrt{5}", "\\sqrt{45}").equal is True  # outside the file: decided
    finally:
        engine.set_deadline_for_tests(old)
    said = [v.explanation for v in verdicts]
    assert said[0] == "math-verify took longer than 0.6 s of CPU time; a judge can decide", said
    assert said[1] == said[2] == "math-verify took longer than 0.3 s of CPU time; a judge can decide", said
    spent = "math-verify's time for costly checks in this file (1.1 s of CPU time) is spent; a judge can decide"
    assert said[3:] == [spent] * 5 and ordinary.explanation == spent, said
    assert all(v.equal is None for v in verdicts) and notes == [None] * 8
    assert budget.undecided == {"time limit": 8} and budget.refused == 6
    assert 1.1 <= budget.costly < 1.1 + 0.6, budget.costly  # the ceiling and at most one lowered check over it
    assert used < 2.0, used  # three checks, not eight limits
    assert budget.warning().startswith("8 answers undecided by math-verify: time limit (8)")


def test_ordinary_heavy_checks_are_decided_whatever_they_cost() -> None:
    """The heaviest decidable answers known (sympy for most of a second quiet) are decided in an ordinary file. How
    much CPU they take depends on the machine (1.75 s under Python 3.10 on two loaded cores, over the costly mark):
    then they count towards the costly allowance, which lets them finish; no verdict depends on it. The time itself
    is a figure for bench/bench_mathverse.py, not an assertion here."""
    clear_memo()
    with math_budget.file_budget(2) as budget:
        verdicts = [math_equivalence("(x+y+1)^{10}", EXPANDED_10), math_equivalence("2\\sqrt{5}", "\\sqrt{20}")]
    assert [v.equal for v in verdicts] == [True, True]
    assert budget.undecided == {} and budget.out_of_cpu == 0 and budget.refused == 0, budget
    assert budget.costly < math_budget.COSTLY_SECONDS, budget  # well inside the allowance: two such checks fit


def test_callers_take_turns() -> None:
    """One caller's four queued checks do not make another caller's one check wait behind all of them."""
    pool = engine.WorkerPool(1)
    try:
        first = pool.submit("a", ["verify", "z = (x+y+1)^{60}", "(x+y+2)^{60}"], 1.0)  # holds the worker a while
        theirs = [pool.submit("a", ["verify", f"{k}\\sqrt{{2}}", f"\\sqrt{{{2 * k * k}}}"], 5.0) for k in (2, 3, 4)]
        mine = pool.submit("b", ["verify", "2\\sqrt{5}", "\\sqrt{20}"], 5.0)
        for job in [first, *theirs, mine]:
            assert job.done.wait(300)
    finally:
        pool.stop()
    assert mine.outcome[0] == "answer" and mine.outcome[1][0] is True
    assert mine.turn < theirs[1].turn, [job.turn for job in [first, *theirs, mine]]


def test_checks_from_many_threads_all_get_their_own_answer() -> None:
    clear_memo()
    pairs = [(f"{k}\\sqrt{{3}}", f"\\sqrt{{{3 * k * k}}}") for k in range(2, 8)] + [("y=2x", "y=2x+1")]
    results: dict[int, bool | None] = {}

    def check(index: int) -> None:
        with math_budget.math_caller(f"visitor {index % 3}"):
            results[index] = math_equivalence(*pairs[index]).equal

    threads = [threading.Thread(target=check, args=(i,)) for i in range(len(pairs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == {**{i: True for i in range(6)}, 6: False}


def test_the_report_says_how_many_answers_a_limit_left_undecided(tmp_path) -> None:
    from mathreel.core.results import read_results
    from mathreel.core.scoring import score

    answers = ["10^{10^{10}}", "(20000000)!", "2\\sqrt{5}"]
    records = [
        {
            "sample_index": str(i + 1),
            "problem_index": str(i + 1),
            "problem_version": "Text Lite",
            "question": f"Problem {i}",
            "answer": "\\sqrt{20}",
            "question_type": "free-form",
            "model_answer": f"Working through the figure.\nTherefore, the answer is ${answer}$.",
            "metadata": {"split": "testmini", "subject": "Plane Geometry", "subfield": "Length"},
        }
        for i, answer in enumerate(answers)
    ]
    path = tmp_path / "mathverse_output.json"
    path.write_text(json.dumps(records))
    report = score(read_results(path))
    assert report.overall.correct == 1
    assert [("hostile math" in row.explanation) for row in report.rows] == [True, True, False]
    assert (
        "2 answers undecided by math-verify: hostile math (2); counted as not equal (a judge can decide them)"
        in report.warnings
    ), report.warnings


def test_a_check_stuck_in_one_c_call_is_ended_by_the_cpu_rlimit() -> None:
    """Python cannot interrupt one long C call (a key derivation here), so RLIMIT_CPU ends the process with
    SIGXCPU a second or two past the limit."""
    program = (
        "import hashlib\n"
        "from mathreel.core.extract.worker_guard import run_with_cpu_limit\n"
        "def spin():\n    while True:\n        pass\n"
        "print(run_with_cpu_limit(spin, 0.3)[0])\n"
        "run_with_cpu_limit(lambda: hashlib.pbkdf2_hmac('sha256', b'p', b's', 10 ** 9), 0.3)\n"
        "print('not reached')"
    )
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=600)
    assert run.stdout == "None\n"  # the Python loop was interrupted at its limit; the C call was not
    assert run.returncode == -signal.SIGXCPU


def test_a_worker_ended_by_its_cpu_rlimit_gives_the_same_verdict_as_one_interrupted() -> None:
    clear_memo()
    old = engine.set_deadline_for_tests(60.0)
    try:
        math_equivalence("2\\sqrt{7}", "\\sqrt{28}")  # a warm worker
        pids = engine.worker_pids()
        result: list = []
        thread = threading.Thread(target=lambda: result.append(math_equivalence(*costly_pair(3))))
        thread.start()
        assert wait_until_busy(pids)
        for pid in pids:
            os.kill(pid, signal.SIGXCPU)  # what the kernel sends at RLIMIT_CPU
        thread.join()
    finally:
        engine.set_deadline_for_tests(old)
    assert result[0].explanation == "math-verify took longer than 60 s of CPU time; a judge can decide"


def wait_until_busy(pids: list[int]) -> bool:
    """True once a worker has used CPU since the call (the check has started)."""
    import time

    def cpu(pid: int) -> int:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])

    start = {pid: cpu(pid) for pid in pids}
    for _ in range(600):
        if any(cpu(pid) > start[pid] + 10 for pid in pids):
            return True
        time.sleep(0.1)
    return False


def test_a_cheap_upload_scored_inline_queues_its_checks_under_its_visitor(tmp_path: Path) -> None:
    """On the server a small file is scored in the request's thread; its checks take that visitor's turns."""
    from mathreel.webapp.isolate import DEFAULT_BUDGET
    from mathreel.webapp.scored_runs import run_costed

    path = tmp_path / "small.jsonl"
    path.write_text('{"question_id": "q1", "response": "A"}\n')
    assert run_costed(math_budget.current_caller, (), str(path), DEFAULT_BUDGET, "visitor 7") == "visitor 7"
    assert run_costed(math_budget.current_caller, (), str(path), DEFAULT_BUDGET) is None
    # visitor keys are "address/token": made-up tokens from one client share one queue in the pool
    for token in ("token-1", "token-2"):
        assert run_costed(math_budget.current_caller, (), str(path), DEFAULT_BUDGET, f"addr9/{token}") == "addr9"
