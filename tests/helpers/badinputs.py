"""Generated bad (and awkward-but-valid) result files for the reliability suite.

`generate(directory)` writes every case into `directory` and returns them with what must happen when they are
scored: either a refusal (`mathreel score` exits 2 with one stderr line naming the file and a problem word; the
app shows one message) or a score with a known number of questions and correct answers. The same cases feed the
command-line suite (tests/test_reliability_cli.py) and the app suite (tests/test_reliability_app.py).

Valid files use Video-MME questions with made-up ids and the real taxonomy, so the benchmark is detected from the
field values; cases that join to annotations use the embedded demo set.
"""

from __future__ import annotations

import codecs
import csv
import gzip
import io
import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

LETTERS = ("A", "B", "C", "D")
OPTIONS = ["A. 1", "B. 2", "C. 3", "D. 4"]
HUGE = 5 * 1024 * 1024  # one 5 MB line: large enough to find quadratic or unbounded code paths
FORMULAS = (
    '=HYPERLINK("http://example.invalid/x","click") The answer is {}.',
    "+cmd|' /C calc'!A0 The answer is {}.",
    "-2+3 = 1, so the answer is {}.",
    "@SUM(1+1) The answer is {}.",
    "=1+1 then the answer is {}.",
)
SCRIPTS = (
    '<img src=x onerror="window.__xss=1"> The answer is {}.',
    "<script>window.__xss=1</script> The answer is {}.",
    '<a href="javascript:window.__xss=1">link</a> The answer is {}.',
    "<svg onload=window.__xss=1></svg> The answer is {}.",
)


@dataclass(frozen=True)
class Case:
    """One generated file and its expected outcome.

    `problem`: for a refusal, words of which the message must contain at least one (lower case).
    `n`/`correct`: for a valid file, the overall denominator and correct count. `benchmark_key` is the app's
    "benchmark:mode" choice (the CLI passes it as --benchmark/--mode); `annotations` joins to the demo set.
    """

    name: str
    filename: str
    content: bytes
    problem: tuple[str, ...] = ()
    n: int | None = None
    correct: int | None = None
    benchmark_key: str = ""
    annotations: bool = False
    app: bool = True  # False when the app cannot express the options (e.g. a mode the benchmark lacks)
    notes: str = ""
    responses: dict[str, str] = field(default_factory=dict)  # question_id -> literal response that must survive

    @property
    def valid(self) -> bool:
        return self.n is not None

    def cli_args(self) -> list[str]:
        """`mathreel score` options equivalent to the app's choices."""
        args: list[str] = []
        bench, _, mode = self.benchmark_key.partition(":")
        if bench:
            args += ["--benchmark", bench]
        if mode:
            args += ["--mode", mode]
        return args


# -- building blocks --------------------------------------------------------------------------------------------


def question(i: int, gold: str, response: Any, **extra: Any) -> dict[str, Any]:
    """A plain Video-MME record with gold answer and options (scores without annotations)."""
    record = {
        "question_id": f"{i:03d}-1",
        "video_id": f"v{i:03d}",
        "duration": ("short", "medium", "long")[i % 3],
        "domain": "Knowledge",
        "sub_category": "Astronomy",
        "task_type": "Counting Problem",
        "options": OPTIONS,
        "answer": gold,
        "response": response,
    }
    record.update(extra)
    return record


def gold_of(i: int) -> str:
    return LETTERS[i % 4]


def wrong_of(i: int) -> str:
    return LETTERS[(i + 1) % 4]


def run_records(n: int, correct: int, template: str = "The answer is {}.") -> list[dict[str, Any]]:
    """`n` questions of which exactly the first `correct` are answered right."""
    return [question(i, gold_of(i), template.format(gold_of(i) if i < correct else wrong_of(i))) for i in range(n)]


def jsonl(records: Iterable[dict[str, Any]], newline: str = "\n") -> bytes:
    return newline.join(json.dumps(r, ensure_ascii=False) for r in records).encode() + newline.encode()


def as_json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, indent=1).encode()


def csv_bytes(records: list[dict[str, Any]], delimiter: str = ",", encoding: str = "utf-8") -> bytes:
    out = io.StringIO(newline="")
    columns = list(records[0]) if records else ["question_id", "response"]
    writer = csv.DictWriter(out, fieldnames=columns, delimiter=delimiter, lineterminator="\r\n")
    writer.writeheader()
    for record in records:
        writer.writerow({k: json.dumps(v) if isinstance(v, list) else v for k, v in record.items()})
    return out.getvalue().encode(encoding)


def known_accuracy_file(n: int, correct: int) -> bytes:
    """A JSONL run with `n` questions and `correct` right answers (used by the concurrency test)."""
    return jsonl(run_records(n, correct))


def _demo_videomme() -> list[tuple[str, str]]:
    """(question_id, gold letter) of the embedded demo Video-MME set, read through core."""
    from mathreel.core.data import demo_dir, load_dataset

    return [(q.question_id, q.answer) for q in load_dataset("videomme", data_dir=demo_dir()).questions]


def _nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def _other_benchmark(name: str) -> bytes:
    from mathreel.core.data import demo_dir

    return (demo_dir() / "results" / name).read_bytes()


# -- the cases --------------------------------------------------------------------------------------------------


def refusals() -> list[Case]:
    """Files that must be refused with a message naming the problem."""
    rng = random.Random(7)
    valid = jsonl(run_records(4, 2))
    valid_json = as_json(run_records(4, 2))
    no_response = [{k: v for k, v in r.items() if k != "response"} for r in run_records(3, 1)]
    no_gold = [{k: v for k, v in r.items() if k != "answer"} for r in run_records(3, 1)]
    bad_middle = valid.split(b"\n")
    bad_middle[1] = b'{"question_id": "001-1", "response": "B",, }'
    latin1 = csv_bytes([question(0, "A", "Réponse : la bonne réponse est A, café")], encoding="latin-1")
    cp1252 = jsonl([question(0, "A", "\u201cThe answer is A\u201d")]).decode().encode("cp1252")
    null_middle = run_records(3, 3)
    null_middle[1]["response"] = None
    template_empty = [
        {"video_id": "001", "duration": "short", "domain": "Knowledge", "sub_category": "Astronomy", "questions": []}
    ]
    template_strings = [
        {
            "video_id": "001",
            "duration": "short",
            "domain": "Knowledge",
            "sub_category": "Astronomy",
            "questions": ["What is shown?"],
        }
    ]
    mixed = [question(0, "A", "A"), {"model_answer": "B", "problem_version": "Text Lite", "question": "?"}]
    nan_gold = jsonl(run_records(2, 2)).replace(b'"answer": "A"', b'"answer": NaN')
    return [
        Case("empty", "empty.jsonl", b"", ("empty",)),
        Case("whitespace-only", "blank.json", b" \n\t\r\n  \n", ("empty",)),
        Case("bom-only", "bom_only.jsonl", codecs.BOM_UTF8, ("empty",)),
        Case("bom-then-whitespace", "bom_blank.csv", codecs.BOM_UTF8 + b" \r\n\t\n", ("empty",)),
        Case("truncated-json-array", "truncated.json", valid_json[: len(valid_json) * 2 // 3], ("json",)),
        Case("truncated-jsonl-last-line", "truncated.jsonl", valid[:-40], ("truncated", "json")),
        Case("invalid-jsonl-middle-line", "badline.jsonl", b"\n".join(bad_middle), ("json",)),
        Case("invalid-json-syntax", "syntax.json", b'[{"question_id": "001-1", "response": }]', ("json",)),
        Case("json-trailing-garbage", "garbage_after.json", valid_json + b"\nthis is not json", ("json",)),
        Case("json-number", "number.json", b"42", ("json holding a number",)),
        Case("json-string", "string.json", b'"The answer is A"', ("json holding a string",)),
        Case("json-null", "null.json", b"null", ("json holding null",)),
        Case("json-true", "true.json", b"true", ("json holding a boolean",)),
        Case("json-empty-list", "emptylist.json", b"[]", ("no records", "empty")),
        Case("json-list-of-numbers", "numbers.json", b"[1, 2, 3]", ("object",)),
        Case("json-list-of-lists", "lists.json", b"[[1, 2], [3]]", ("object",)),
        Case("json-list-of-nulls", "nulls.json", b"[null, null]", ("object",)),
        Case("json-empty-object", "emptyobj.json", b"{}", ("layout",)),
        Case("json-object-not-records", "summary.json", as_json({"model": "x", "accuracy": 0.5}), ("layout",)),
        Case("jsonl-of-lists", "lists.jsonl", b'["001-1", "A"]\n["001-2", "B"]\n', ("object", "json")),
        Case("deeply-nested-array", "nested.json", _nested(100_000), ("nested", "deep", "json")),
        Case(
            "deeply-nested-response",
            "nested_response.jsonl",
            b'{"question_id": "000-1", "response": ' + _nested(50_000) + b"}\n",
            ("nested", "deep", "json"),
        ),
        Case("no-response-field", "noresponse.jsonl", jsonl(no_response), ("response",)),
        Case("response-null", "nullresponse.jsonl", jsonl(question(i, "A", None) for i in range(2)), ("response",)),
        Case("response-null-middle", "nullmiddle.jsonl", jsonl(null_middle), ("response",)),
        Case("no-ids", "noids.jsonl", jsonl([{"response": "The answer is A."}] * 3), ("layout", "id")),
        Case("no-gold-without-annotations", "nogold.jsonl", jsonl(no_gold), ("gold", "annotations")),
        Case("nan-gold", "nangold.jsonl", nan_gold, ("gold", "annotations")),
        Case("binary-random", "random.jsonl", bytes(rng.randrange(256) for _ in range(4096)), ("binary", "utf-8")),
        Case("binary-png", "image.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(200), ("binary",)),
        Case("binary-gzip", "results.jsonl.gz", gzip.compress(valid, mtime=0), ("binary", "utf-8")),
        Case("binary-nul-in-csv", "nulbyte.csv", b"question_id,response\n001-1,The answer\x00 is A\n", ("binary",)),
        Case(
            "utf16-le-bom", "utf16le.jsonl", codecs.BOM_UTF16_LE + valid.decode().encode("utf-16-le"), ("utf-16 text",)
        ),
        Case(
            "utf16-be-bom",
            "utf16be.csv",
            codecs.BOM_UTF16_BE + csv_bytes(run_records(2, 1)).decode().encode("utf-16-be"),
            ("utf-16 text",),
        ),
        Case("utf16-le-no-bom", "utf16le_nobom.jsonl", valid.decode().encode("utf-16-le"), ("utf-16 text",)),
        Case("latin1-csv", "latin1.csv", latin1, ("utf-8",)),
        Case("cp1252-jsonl", "cp1252.jsonl", cp1252, ("utf-8",)),
        Case("fake-parquet", "fake.parquet", b"PAR1" + bytes(range(256)) * 4 + b"PAR1", ("parquet",)),
        Case("huge-line-garbage", "huge.txt", b"x" * HUGE, ("layout",)),
        Case(
            "huge-line-truncated-json",
            "huge_truncated.jsonl",
            b'{"question_id": "000-1", "answer": "A", "response": "' + b"y" * HUGE,
            ("truncated", "json"),
        ),
        Case(
            "html-page",
            "download.html",
            b"<!DOCTYPE html><html><body><h1>404 Not Found</h1></body></html>\n",
            ("layout",),
        ),
        Case("csv-header-only", "header.csv", b"question_id,answer,response\r\n", ("header", "no rows")),
        Case(
            "csv-ragged-row",
            "ragged.csv",
            b"question_id,response\n001-1,The answer is A,extra,fields\n",
            ("more fields",),
        ),
        Case("csv-without-id-or-response", "other.csv", b"name,score\nalice,3\nbob,4\n", ("layout",)),
        Case("semicolon-csv", "semicolon.csv", csv_bytes(run_records(2, 1), delimiter=";"), ("layout", "more fields")),
        Case("template-zero-questions", "template_empty.json", as_json(template_empty), ("no answered questions",)),
        Case(
            "template-question-not-object", "template_strings.json", as_json(template_strings), ("not a json object",)
        ),
        Case("mixed-layouts", "mixed.json", as_json(mixed), ("layout",)),
        Case(
            "unknown-benchmark",
            "notaxonomy.jsonl",
            jsonl([{"question_id": "x1", "answer": "A", "response": "The answer is A."}]),
            ("benchmark",),
        ),
        Case(
            "mathverse-file-as-videomme",
            "mathverse_as_videomme.json",
            _other_benchmark("mathverse_synthetic-model-a_output.json"),
            ("mathverse",),
            benchmark_key="videomme:mcq",
        ),
        Case(
            "videomathqa-file-as-videomme",
            "videomathqa_as_videomme.jsonl",
            _other_benchmark("videomathqa_mcq_synthetic-model-a_samples.jsonl"),
            ("videomathqa",),
            benchmark_key="videomme:mcq",
        ),
        Case(
            "videomme-file-as-mathverse",
            "videomme_as_mathverse.json",
            _other_benchmark("videomme_synthetic-model-a_results.json"),
            ("video-mme",),
            benchmark_key="mathverse:default",
        ),
        Case(
            "mode-the-benchmark-lacks",
            "badmode.jsonl",
            valid,
            ("mode", "mbin"),
            benchmark_key="videomme:mbin",
            app=False,
        ),
        Case(
            "huge-integer",
            "bigint.jsonl",
            valid.replace(b'"answer": "A"', b'"answer": ' + b"9" * 5000, 1),
            ("4300 digits",),
        ),
        Case(
            "nul-after-sniff-csv",
            "late_nul.csv",
            csv_bytes(run_records(200, 100)) + b"199-1,The answer\x00 is A\r\n",
            ("nul byte",),
        ),
        Case(
            "dict-question-id",
            "dict_id.jsonl",
            jsonl([question(0, "A", "A", question_id={"id": "000-1"})]),
            ("question id",),
        ),
        Case(
            "list-question-id", "list_id.jsonl", jsonl([question(0, "A", "A", question_id=["000-1"])]), ("question id",)
        ),
        Case(
            "list-dimension-value",
            "list_dim.jsonl",
            jsonl([question(0, "A", "A", duration=["short"])]),
            ("duration", "label"),
        ),
        Case(
            "lmms-empty-resps",
            "lmms_empty.jsonl",
            jsonl([{"doc_id": 0, "doc": question(0, "A", None), "resps": [], "filtered_resps": []}]),
            ("response",),
        ),
    ]


def valid_cases() -> list[Case]:
    """Awkward files that are valid and must score to known numbers."""
    bom_csv = codecs.BOM_UTF8 + csv_bytes(run_records(5, 3))
    formula = [
        question(i, gold_of(i), FORMULAS[i].format(gold_of(i) if i % 2 == 0 else wrong_of(i)))
        for i in range(len(FORMULAS))
    ]
    formula_ids = [question(0, "A", "The answer is A."), question(1, "B", "The answer is A.")]
    formula_ids[0]["question_id"], formula_ids[1]["question_id"] = "=1+2", "@SUM(A1:A9)"
    scripts = [
        question(i, gold_of(i), SCRIPTS[i].format(gold_of(i) if i < 3 else wrong_of(i))) for i in range(len(SCRIPTS))
    ]
    traversal = run_records(3, 2)
    for i, record in enumerate(traversal):
        record["question_id"] = ["../../etc/passwd", "..\\..\\windows\\win.ini", "/../../root/.ssh/id_rsa"][i]
    dupes = run_records(4, 2)
    dupes.append(dict(dupes[0], response=f"The answer is {wrong_of(0)}."))
    demo = _demo_videomme()
    joined = [{"question_id": qid, "response": f"The answer is {gold}."} for qid, gold in demo[:5]]
    traversal_joined = [{"question_id": f"../{qid}", "response": f"The answer is {gold}."} for qid, gold in demo[:3]]
    typed = run_records(4, 0)
    typed[0]["response"], typed[1]["response"] = 2, 3.5  # numbers: read as text, nothing to extract
    typed[2]["response"] = [f"The answer is {gold_of(2)}."]  # lmms-eval style list: first item
    typed[3]["response"] = [[f"The answer is {gold_of(3)}."]]
    keyed = {r["question_id"]: {k: v for k, v in r.items() if k != "question_id"} for r in run_records(3, 1)}
    nan_dims = jsonl(run_records(3, 2, "The answer is {}.")).replace(
        b'"domain": "Knowledge"', b'"domain": "Knowledge", "difficulty": NaN, "score": Infinity, "weight": -Infinity'
    )
    huge = [question(0, "A", "Let me think. " + "z" * HUGE + " The answer is A.")]
    unicode_records = run_records(3, 2, "答案是 {}。 🎬")
    unicode_records[2]["response"] = "The answer is " + wrong_of(2) + " — naïve ∑ 🎬"
    blank_lines = jsonl(run_records(4, 3)).replace(b"\n", b"\n\n\n")
    multiline = csv_bytes(
        [question(i, gold_of(i), f'Line one,\n"quoted"\nThe answer is {gold_of(i)}.') for i in range(3)]
    )
    return [
        Case("bom-csv", "bom.csv", bom_csv, n=5, correct=3, notes="UTF-8 BOM is valid CSV"),
        Case("bom-jsonl", "bom.jsonl", codecs.BOM_UTF8 + jsonl(run_records(4, 1)), n=4, correct=1),
        Case(
            "formula-injection-csv",
            "formulas.csv",
            csv_bytes(formula),
            n=5,
            correct=2,  # "-2+3 = 1, so the answer is C." computes option A's value: a conflict, not C's
            notes="the third response's working gives option A's value before naming C: no reading (a conflict)",
            responses={r["question_id"]: r["response"] for r in formula},
        ),
        Case("formula-injection-ids", "formula_ids.csv", csv_bytes(formula_ids), n=2, correct=1),
        Case(
            "html-script-responses",
            "scripts.jsonl",
            jsonl(scripts),
            n=4,
            correct=3,
            responses={r["question_id"]: r["response"] for r in scripts},
        ),
        Case("path-traversal-ids", "traversal.jsonl", jsonl(traversal), n=3, correct=2),
        Case(
            "path-traversal-ids-joined",
            "traversal_joined.jsonl",
            jsonl(traversal_joined),
            n=len(demo),
            correct=0,
            benchmark_key="videomme:mcq",
            annotations=True,
            notes="unknown ids; every annotated question missing",
        ),
        Case("duplicate-ids", "dupes.jsonl", jsonl(dupes), n=4, correct=2, notes="later duplicate dropped, warned"),
        Case(
            "missing-questions",
            "partial.jsonl",
            jsonl(joined),
            n=len(demo),
            correct=5,
            annotations=True,
            benchmark_key="videomme:mcq",
        ),
        Case("wrong-types-number-and-list", "types.jsonl", jsonl(typed), n=4, correct=2),
        Case("object-keyed-by-id", "keyed.json", as_json(keyed), n=3, correct=1),
        Case("single-object-not-list", "single.json", as_json(question(0, "A", "The answer is A.")), n=1, correct=1),
        Case("nan-infinity-fields", "nan.jsonl", nan_dims, n=3, correct=2),
        Case("huge-single-line", "huge.jsonl", jsonl(huge), n=1, correct=1),
        Case("crlf-jsonl", "crlf.jsonl", jsonl(run_records(3, 1), newline="\r\n"), n=3, correct=1),
        Case("cr-only-jsonl", "cr.jsonl", jsonl(run_records(3, 1), newline="\r"), n=3, correct=1),
        Case(
            "line-separators-in-responses",
            "u2028.jsonl",
            jsonl(run_records(3, 2, "Step one.\u2028Step two.\u2029\u0085The answer is {}.")),
            n=3,
            correct=2,
            notes="raw U+2028/U+2029/U+0085 inside JSON strings are not line ends",
        ),
        Case(
            "fullwidth-gold",
            "fullwidth_gold.jsonl",
            jsonl([question(0, "\uff21", "The answer is A."), question(1, "B", "The answer is B.")]),
            n=2,
            correct=2,
            notes="full-width gold letters normalised (NFKC) with a note",
        ),
        Case("trailing-commas", "trailing.json", as_json(run_records(3, 3)).replace(b"}\n]", b"},\n]"), n=3, correct=3),
        Case("unicode-responses", "unicode.jsonl", jsonl(unicode_records), n=3, correct=2),
        Case("blank-lines-jsonl", "blank_lines.jsonl", blank_lines, n=4, correct=3),
        Case(
            "escaped-nul-in-response",
            "escaped_nul.jsonl",
            jsonl(run_records(2, 2, "\u0000The answer is {}.")),
            n=2,
            correct=2,
        ),
        Case("tsv", "run.tsv", csv_bytes(run_records(3, 2), delimiter="\t"), n=3, correct=2),
        Case("csv-quoted-newlines", "multiline.csv", multiline, n=3, correct=3),
        Case("given-benchmark", "given.jsonl", jsonl(run_records(4, 4)), n=4, correct=4, benchmark_key="videomme:mcq"),
    ]


def all_cases() -> list[Case]:
    return refusals() + valid_cases()


def generate(directory: Path, cases: Callable[[], list[Case]] = all_cases) -> list[tuple[Case, Path]]:
    """Write every case into its own sub-folder of `directory` (file names repeat across cases)."""
    written = []
    for case in cases():
        folder = directory / case.name
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / case.filename
        path.write_bytes(case.content)
        written.append((case, path))
    return written
