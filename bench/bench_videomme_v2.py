"""Each Video-MME-v2 reproduction against the real upstream code, on the same generated files: the figures to 0.01
and the letter read from every response.

    .venv/bin/python bench/bench_videomme_v2.py --video-mme-v2 GITDIR --lmms-eval GITDIR --evalscope GITDIR \
        [--groups 800] [--responses 20000] [--seed 7]

GITDIR is a git directory (a clone's `.git`, or a bare mirror) of MME-Benchmarks/Video-MME-v2,
EvolvingLMMs-Lab/lmms-eval and modelscope/evalscope. Each upstream file is read with `git show COMMIT:PATH` into a
temporary directory at run time and the functions are taken out of it there (their modules import torch, loguru or
evalscope's own types, which are not needed to score): no upstream code is part of MathReel.

- The official script (evaluation/test_video_mme_v2.py @ b24176a): its own `evaluate(data, output)` runs on the
  prediction TSV read back with pandas, as the script does, and writes its `_rating.json`; that object is compared
  with `mathreel score --extractor official`'s `official_rating`, every key, to 0.01. Two files: the rows in
  dataset order (taxonomy as the dataset places it), and the rows shuffled (taxonomy on every row, so the script
  does not stop at `int(nan)`), where the positional grouping changes the figure.
- lmms-eval (lmms_eval/tasks/videomme_v2/utils.py @ 394a8e4): `videomme_v2_process_results` on each line's filtered
  answer, then `_compute_all_subscores` over the lines in the order a two-process run writes them; its twelve
  figures against `--extractor lmms-eval`'s. The taxonomy is on every row (on the dataset's own placement the
  function raises TypeError, which `--extractor lmms-eval` reports).
- evalscope (evalscope/utils/multi_choices.py @ fde259d): `parse_answers` on every answer, plain accuracy, against
  `--extractor evalscope`'s `all`.
- Every reader also reads N generated responses; the count of letters that differ from the reproduction's is
  printed (0 means the reproduction reads exactly what the reference reads).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import csv
import io
import json
import random
import re
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_reference import upstream  # noqa: E402  (git show COMMIT:PATH into a temporary folder)

from mathreel.core.extract.evalscope_extract import extract_choice_evalscope  # noqa: E402
from mathreel.core.extract.reference import (  # noqa: E402
    extract_choice_lmms_videomme_v2,
    extract_choice_videomme_v2,
)
from mathreel.core.results import read_results  # noqa: E402
from mathreel.core.scoring import score  # noqa: E402

OFFICIAL = ("b24176a14506c48a9f3e156d9f20068db6c4782b", "evaluation/test_video_mme_v2.py")
LMMS = ("394a8e4bc2d67407aff44d805bf49a4b943bee00", "lmms_eval/tasks/videomme_v2/utils.py")
EVALSCOPE = ("fde259d2a32ab8a4cdb3af44dc8b18f504f1e277", "evalscope/utils/multi_choices.py")
LETTERS = "ABCDEFGH"
STRUCTURES = ("[1,2,3,4]", "[1, [2, 3], 4]", "[[1,2],3,4]")
COLUMNS = (
    "video_id",
    "url",
    "group_type",
    "group_structure",
    "question_id",
    "question",
    "options",
    "answer",
    "level",
    "second_head",
    "third_head",
)
SECOND = tuple(f"Second head {i}" for i in range(10))
THIRD = tuple(f"Third head {i}" for i in range(33))
# Answer styles, {L} the letter given, {l} it in lower case, {X} another capital.
STYLES = (
    "{L}",
    "{L}.",
    "({L})",
    "The answer is {L}.",
    "Final Answer: {L}",
    "Based on the frames, Final Answer: {L}",
    "<think>Looking at it</think> Final Answer: {L}",
    "ANSWER: {L}",
    "final answer: {l}",
    "I cannot tell.",
    "{L}. Some option text",
    "The best answer is {L}",
    "Answer: ({L})",
    "{X} is wrong, so {L}.",
    "",
)
PIECES = (
    "The answer is",
    "Final Answer:",
    "The best option is",
    "Answer:",
    "Option:",
    "ANSWER:",
    "answer:",
    "(B)",
    "C.",
    "D)",
    "A",
    "B",
    "E",
    "H",
    "G",
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
    "**ANSWER:** F",
    "Z",
    "[LETTER]",
    "<think>",
    "</think>",
)


# -- upstream code, read at run time ---------------------------------------------------------------------------
def definitions(path: Path, names: tuple[str, ...], namespace: dict[str, Any]) -> dict[str, Any]:
    """The named top-level functions and assignments of an upstream module, executed in `namespace`."""
    tree = ast.parse(path.read_text())
    wanted = [
        node
        for node in tree.body
        if (isinstance(node, ast.FunctionDef) and node.name in names)
        or (isinstance(node, ast.Assign) and any(getattr(t, "id", None) in names for t in node.targets))
    ]
    exec(compile(ast.Module(wanted, []), str(path), "exec"), namespace)
    return namespace


# -- generated files -------------------------------------------------------------------------------------------
def records(groups: int, rng: random.Random, tagged: bool) -> list[dict]:
    """`groups` videos of four questions (about two thirds relevance groups), each with a generated reply."""
    rows = []
    for g in range(groups):
        video = f"{g + 1:03d}"
        kind = "relevance" if rng.random() < 0.65 else "logic"
        structure = rng.choice(STRUCTURES)
        taxonomy = (rng.randint(1, 3), rng.choice(SECOND), rng.choice(THIRD))
        for k in range(1, 5):
            on_row = tagged or kind == "relevance" or k == 4
            gold = rng.choice(LETTERS)
            said = gold if rng.random() < 0.55 else rng.choice(LETTERS)
            style = rng.choice(STYLES)
            reply = style.format(L=said, l=said.lower(), X=rng.choice("ABCDEFGH"))
            rows.append(
                {
                    "video_id": video,
                    "url": "",
                    "group_type": kind,
                    "group_structure": structure,
                    "question_id": f"{video}-{k}",
                    "question": f"Question {k}?",
                    "options": "\n".join(f"{c}. option {c.lower()}" for c in LETTERS),
                    "answer": gold,
                    "level": taxonomy[0] if on_row else None,
                    "second_head": taxonomy[1] if on_row else None,
                    "third_head": taxonomy[2] if on_row else None,
                    "prediction": reply,
                }
            )
    return rows


def write_tsv(path: Path, rows: list[dict]) -> Path:
    """The official script's TSV: parquet columns (levels as floats, empty when null), index, video, prediction."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow([*COLUMNS, "index", "video", "prediction"])
        for index, row in enumerate(rows):
            level = "" if row["level"] is None else f"{float(row['level'])}"
            writer.writerow(
                [level if c == "level" else ("" if row[c] is None else row[c]) for c in COLUMNS]
                + [index, row["video_id"], row["prediction"]]
            )
    return path


def write_lmms(path: Path, rows: list[dict], process_results) -> tuple[Path, list[dict]]:
    """An lmms-eval 0.7 log: the upstream `process_results` makes each line's metric dict; lines rank by rank."""
    lines, dicts = [], []
    for doc_id, row in enumerate(rows):
        doc = {c: row[c] for c in COLUMNS}
        metric = process_results(doc, [row["prediction"]])["videomme_v2_overall_score"]
        dicts.append(metric)
        lines.append(
            {
                "doc_id": doc_id,
                "target": row["answer"],
                "filtered_resps": row["prediction"],
                "token_counts": [None],
                **dict.fromkeys(("videomme_v2_overall_score", "videomme_v2_overall_acc"), metric),
            }
        )
    order = [i for rank in (0, 1) for i in range(rank, len(lines), 2)]
    path.write_text("".join(json.dumps(lines[i]) + "\n" for i in order))
    return path, [dicts[i] for i in order]


# -- comparisons -----------------------------------------------------------------------------------------------
def within(theirs: dict, mine: dict, path: str = "") -> list[str]:
    """Keys (dotted) where two nested figure dicts differ by 0.01 or more, or where only one has the key."""
    differ = []
    for key in sorted(set(theirs) | set(mine), key=str):
        a, b = theirs.get(key), mine.get(str(key))
        if isinstance(a, dict) and isinstance(b, dict):
            differ += within(a, b, f"{path}{key}.")
        elif a is None or b is None or abs(float(a) - float(b)) >= 0.01:
            differ.append(f"{path}{key}: {a} vs {b}")
    return differ


def report(label: str, differ: list[str], figure: str) -> None:
    verdict = "all agree to 0.01" if not differ else f"{len(differ)} DIFFER: {'; '.join(differ[:5])}"
    print(f"{label}: {figure}; {verdict}")


def compare_official(args, work: Path, in_order: list[dict], tagged: list[dict]) -> None:
    import pandas as pd

    script = upstream(args.video_mme_v2, *OFFICIAL, work)
    names = ("extract_characters_regex_v2", "cal_relevance", "cal_logic", "get_final_rating", "evaluate")
    module = definitions(script, names, {"re": re, "ast": ast, "json": json, "pd": pd})
    shuffled = list(tagged)
    random.Random(args.seed + 1).shuffle(shuffled)
    for label, rows in (("dataset order", in_order), ("rows shuffled", shuffled)):
        path = write_tsv(work / f"Video-MME-v2_{label.replace(' ', '_')}.tsv", rows)
        output = work / f"scored_{path.name}"
        with contextlib.redirect_stdout(io.StringIO()):
            module["evaluate"](pd.read_csv(path, sep="\t"), str(output))
        theirs = json.loads(output.with_name(output.name.replace(".tsv", "_rating.json")).read_text())
        mine = score(read_results(path), extractor="official")
        total, own = mine.upstream.value["final_rating"]["total"], score(read_results(path)).groups.total.score
        figure = (
            f"total {theirs['final_rating']['total']:.2f} (script) vs {total:.2f} (mathreel), MathReel's own {own:.2f}"
        )
        report(
            f"official test_video_mme_v2.py@{OFFICIAL[0][:7]}, {len(rows)} rows, {label}",
            within(theirs, mine.upstream.value),
            figure,
        )
        for effect in mine.groups.effects:
            print(f"    reported: {effect.text()}")


def compare_lmms(args, work: Path, tagged: list[dict]) -> None:
    utils = upstream(args.lmms_eval, *LMMS, work)
    quiet = SimpleNamespace(info=lambda *a, **k: None, warning=lambda *a, **k: None)
    names = (
        "cal_relevance",
        "cal_logic",
        "extract_characters_regex",
        "videomme_v2_process_results",
        "_compute_all_subscores",
    )
    module = definitions(utils, names, {"ast": ast, "re": re, "defaultdict": defaultdict, "eval_logger": quiet})
    path, dicts = write_lmms(work / "samples_videomme_v2.jsonl", tagged, module["videomme_v2_process_results"])
    theirs = {f"videomme_v2_{k}": v for k, v in module["_compute_all_subscores"](dicts).items()}
    mine = score(read_results(path), extractor="lmms-eval").upstream.value
    figure = f"overall_score {theirs['videomme_v2_overall_score']:.2f} vs {mine['videomme_v2_overall_score']:.2f}"
    report(f"lmms-eval videomme_v2@{LMMS[0][:7]}, {len(dicts)} lines", within(theirs, mine), figure)


def evalscope_reader(args, work: Path):
    source = upstream(args.evalscope, *EVALSCOPE, work)
    names = (
        "_ANSWER_MARKER_RE",
        "_BRACKETED_LABEL_RE",
        "_PLAIN_LABEL_RE",
        "_LABEL_TOKEN_RE",
        "_fallback_parse_answer",
        "_label_prefix",
        "_last_labelled_answer",
        "parse_answers",
        "answer_character",
    )
    namespace = definitions(
        source, names, {"re": re, "Optional": Any, "TaskState": Any, "Union": Any, "List": Any, "Choices": Any}
    )
    state = SimpleNamespace(choices=list(LETTERS))

    def read(text: str) -> str:
        return "".join(sorted(namespace["parse_answers"](state, completion=text)))

    return read


def compare_evalscope(args, work: Path, rows: list[dict]) -> None:
    read = evalscope_reader(args, work)
    theirs = 100 * sum(read(row["prediction"]) == row["answer"] for row in rows) / len(rows)
    path = write_tsv(work / "Video-MME-v2_evalscope.tsv", rows)
    mine = score(read_results(path), extractor="evalscope").upstream.value["all"]
    report(
        f"evalscope parse_answers@{EVALSCOPE[0][:7]}, {len(rows)} answers",
        within({"all": theirs}, {"all": mine}),
        f"accuracy {theirs:.2f}% vs {mine:.2f}%",
    )


def compare_letters(args, work: Path) -> None:
    rng = random.Random(args.seed + 2)
    texts = [" ".join(rng.choice(PIECES) for _ in range(rng.randint(0, 12))) for _ in range(args.responses)]
    official = definitions(upstream(args.video_mme_v2, *OFFICIAL, work), ("extract_characters_regex_v2",), {"re": re})[
        "extract_characters_regex_v2"
    ]
    lmms = definitions(upstream(args.lmms_eval, *LMMS, work), ("extract_characters_regex",), {"re": re})[
        "extract_characters_regex"
    ]
    evalscope = evalscope_reader(args, work)
    for label, theirs, mine in (
        (f"official extract_characters_regex_v2@{OFFICIAL[0][:7]}", official, extract_choice_videomme_v2),
        (f"lmms-eval videomme_v2 extract_characters_regex@{LMMS[0][:7]}", lmms, extract_choice_lmms_videomme_v2),
        (f"evalscope parse_answers@{EVALSCOPE[0][:7]}", evalscope, extract_choice_evalscope),
    ):
        differ = sum((theirs(t) or "") != (mine(t, tuple(LETTERS)).answer or "") for t in texts)
        print(f"{label}: {differ} of {len(texts):,} generated responses read differently")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--video-mme-v2", type=Path, required=True, help="git dir of MME-Benchmarks/Video-MME-v2")
    parser.add_argument("--lmms-eval", type=Path, required=True, help="git dir of EvolvingLMMs-Lab/lmms-eval")
    parser.add_argument("--evalscope", type=Path, required=True, help="git dir of modelscope/evalscope")
    parser.add_argument("--groups", type=int, default=800)
    parser.add_argument("--responses", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    in_order = records(args.groups, random.Random(args.seed), tagged=False)
    tagged = records(args.groups, random.Random(args.seed), tagged=True)
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        compare_official(args, work, in_order, tagged)
        compare_lmms(args, work, tagged)
        compare_evalscope(args, work, in_order)
        compare_letters(args, work)


if __name__ == "__main__":
    main()
