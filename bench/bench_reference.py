"""Each pinned reference reproduction against the real upstream code, on the same files: the figure to the digit
and the letter read from every response.

    .venv/bin/python bench/bench_reference.py --parse-answer GITDIR --lmms-eval GITDIR [--responses 20000]

GITDIR is a git directory (a clone's `.git`, or a bare mirror) of thanku-all/parse_answer and of
EvolvingLMMs-Lab/lmms-eval. The upstream files are read with `git show COMMIT:PATH` into a temporary directory,
run from there and removed afterwards: no upstream code is part of MathReel.

- `eval_your_results.py` (afd52cf, today's; e1e2bff, the 2024-06-18 first version) runs whole, through its own
  `eval_your_results` function with `skip_missing=True` (its command line asserts 300 videos per duration), on
  Video-MME templates written here (current keys, and the first version's keys for e1e2bff) and on the template
  kept in tests/data; its printed overall is compared with `mathreel`'s `--extractor official` /
  `official-2024-06-18` figure.
- lmms-eval's extractors (videomme/utils.py `extract_characters_regex` at bd51fab; `mcq_extract.py` at 7a69a9a)
  are taken from their source files and run with lmms-eval's Video-MME aggregation rule (correct over all); the
  figure is compared with `--extractor lmms-regex` / `lmms-mcq-extract`.
- Every extractor also reads N generated responses; the count of letters that differ from the reproduction's is
  printed (0 means the reproduction reads exactly what the reference reads).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib.util
import io
import json
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mathreel.core.extract.mcq_extract import extract_choice_mcq  # noqa: E402
from mathreel.core.extract.reference import (  # noqa: E402
    extract_choice_lmms_videomme,
    extract_choice_official,
    extract_choice_official_2024_06_18,
)
from mathreel.core.results import read_results  # noqa: E402
from mathreel.core.scoring import score  # noqa: E402

PIECES = (
    "The answer is",
    "The best answer is",
    "Answer:",
    "Option:",
    "The correct answer",
    "The correct option",
    "Best answer:",
    "Best option:",
    "answer:",
    "(B)",
    "C.",
    "D)",
    "A",
    "B",
    "C",
    "D",
    "E",
    "Based on the video,",
    "I think",
    "答案是",
    "the",
    "it",
    "is",
    "not",
    "Each",
    "clip",
    ".",
    ",",
    "\n",
    "(",
    ")",
    "**Answer:**",
    "my answer is",
    "Definitely",
    "option",
    "Jade.",
)


def upstream(git_dir: Path, commit: str, path: str, into: Path) -> Path:
    """One upstream file at one commit, written under `into` (never into the repository)."""
    text = subprocess.run(
        ["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"], check=True, capture_output=True, text=True
    ).stdout
    target = into / f"{commit[:7]}_{Path(path).name}"
    target.write_text(text)
    return target


def load_module(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def function_from(path: Path, name: str):
    """One function out of a module whose other imports cannot load here (lmms-eval's task utils)."""
    tree = ast.parse(path.read_text())
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    namespace = {"re": re}
    exec(compile(ast.Module([node], []), str(path), "exec"), namespace)
    return namespace[name]


def responses(count: int, seed: int = 12) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choice(PIECES) for _ in range(rng.randint(0, 12))) for _ in range(count)]


def template(answers: list[tuple[str, str]], first_generation: bool) -> list[dict]:
    """A Video-MME result template over 3 durations; `first_generation` uses the June 2024 keys."""
    keys = (
        ("duration_category", "video_category", "video_subcategory", "choices")
        if first_generation
        else ("duration", "domain", "sub_category", "options")
    )
    videos = []
    for v in range(0, len(answers), 3):
        questions = [
            {
                "question_id": f"{v // 3:03d}-{k + 1}",
                "task_type": "Counting Problem",
                "question": "?",
                keys[3]: ["A. a", "B. b", "C. c", "D. d"],
                "answer": gold,
                "response": response,
            }
            for k, (gold, response) in enumerate(answers[v : v + 3])
        ]
        videos.append(
            {
                "video_id": f"{v // 3:03d}",
                keys[0]: ("short", "medium", "long")[(v // 3) % 3],
                keys[1]: "Knowledge",
                keys[2]: "Astronomy",
                "missing": False,
                "questions": questions,
            }
        )
    return videos


def script_copy(path: Path, work: Path) -> Path:
    """The kept template (written with the upstream template's trailing commas, which MathReel reads) as strict
    JSON with `missing: false`, which the script needs."""
    videos = json.loads(re.sub(r",(\s*[}\]])", r"\1", path.read_text()))
    for video in videos:
        video.setdefault("missing", False)
    copy = work / f"kept_{path.name}"
    copy.write_text(json.dumps(videos))
    return copy


def script_overall(module, path: Path) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        module.eval_your_results(str(path), video_types="short,medium,long", skip_missing=True)
    return re.findall(r"Overall:\s*([\d.]+)%", out.getvalue())[-1]


def ours(path: Path, extractor: str) -> str:
    return f"{score(read_results(path), extractor=extractor).overall.accuracy:.1f}"


def compare_official(args, work: Path, answers: list[tuple[str, str]]) -> None:
    kept = ROOT / "tests" / "data" / "results" / "videomme_template.json"
    for commit, name, first in (
        ("afd52cfe3dde5b3685e0d4f760c10c756860c758", "official", False),
        ("e1e2bffb30b520143e28088db29f8231af1c7c8f", "official-2024-06-18", True),
    ):
        module = load_module(upstream(args.parse_answer, commit, "eval_your_results.py", work))
        written = work / f"template_{name}.json"
        written.write_text(json.dumps(template(answers, first)))
        files = [written] + ([] if first else [script_copy(kept, work)])
        for path in files:
            theirs, mine = script_overall(module, path), ours(path, name)
            print(
                f"eval_your_results.py@{commit[:7]} on {path.name}: {theirs}%; mathreel --extractor {name}: "
                f"{mine}% ({'same figure' if theirs == mine else 'DIFFERENT'})"
            )


def compare_lmms(args, work: Path, answers: list[tuple[str, str]]) -> None:
    regex = function_from(
        upstream(args.lmms_eval, "bd51fabcd70c7426b64249a805ed50f346370d67", "lmms_eval/tasks/videomme/utils.py", work),
        "extract_characters_regex",
    )
    mcq = load_module(
        upstream(
            args.lmms_eval,
            "7a69a9a12f8e6ea872f18762b496b424a8e63a6a",
            "lmms_eval/tasks/_task_utils/mcq_extract.py",
            work,
        )
    )
    path = work / "template_lmms.json"
    path.write_text(json.dumps(template(answers, False)))
    for name, theirs_fn in (
        ("lmms-regex", regex),
        ("lmms-mcq-extract", lambda s: mcq.extract_mcq_answer(s, choices=["A", "B", "C", "D"])),
    ):
        correct = sum(theirs_fn(r).lower() == g.lower() for g, r in answers)  # videomme_process_results' rule
        theirs = f"{100 * correct / len(answers):.1f}"
        mine = ours(path, name)
        print(
            f"lmms-eval {name} (correct over all) on {len(answers)} answers: {theirs}%; mathreel: {mine}% "
            f"({'same figure' if theirs == mine else 'DIFFERENT'})"
        )


def compare_letters(args, work: Path, texts: list[str]) -> None:
    pairs = []
    for commit, reproduction in (
        ("afd52cfe3dde5b3685e0d4f760c10c756860c758", extract_choice_official),
        ("e1e2bffb30b520143e28088db29f8231af1c7c8f", extract_choice_official_2024_06_18),
    ):
        script = upstream(args.parse_answer, commit, "eval_your_results.py", work)
        fn = function_from(script, "extract_characters_regex")
        pairs.append((f"eval_your_results.py@{commit[:7]}", fn, reproduction))
    fn = function_from(
        upstream(args.lmms_eval, "bd51fabcd70c7426b64249a805ed50f346370d67", "lmms_eval/tasks/videomme/utils.py", work),
        "extract_characters_regex",
    )
    pairs.append(("lmms-eval videomme extract_characters_regex@bd51fab", fn, extract_choice_lmms_videomme))
    mcq = load_module(
        upstream(
            args.lmms_eval,
            "7a69a9a12f8e6ea872f18762b496b424a8e63a6a",
            "lmms_eval/tasks/_task_utils/mcq_extract.py",
            work,
        )
    )
    pairs.append(
        (
            "lmms-eval extract_mcq_answer@7a69a9a",
            lambda s: mcq.extract_mcq_answer(s, ["A", "B", "C", "D"]),
            extract_choice_mcq,
        )
    )
    for label, theirs, mine in pairs:
        differ = sum((theirs(t) or "") != (mine(t).answer or "") for t in texts)
        print(f"{label}: {differ} of {len(texts):,} generated responses read differently")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parse-answer", type=Path, required=True, help="git dir of thanku-all/parse_answer")
    parser.add_argument("--lmms-eval", type=Path, required=True, help="git dir of EvolvingLMMs-Lab/lmms-eval")
    parser.add_argument("--responses", type=int, default=20000)
    args = parser.parse_args()
    texts = responses(args.responses)
    rng = random.Random(3)
    answers = [(rng.choice("ABCD"), text) for text in texts[:900]]
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        compare_official(args, work, answers)
        compare_lmms(args, work, answers)
        compare_letters(args, work, texts)


if __name__ == "__main__":
    main()
