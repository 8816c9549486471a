"""The report's JSON schema (docs/report.schema.json) is generated from the types that build `mathreel score
--json`, the committed file is what the generator prints, and real outputs of every demo file under every
extractor its benchmark offers conform to it; the checker refuses outputs that do not."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest
from helpers.json_schema import errors

from mathreel.cli import main
from mathreel.core.benchmarks import get_benchmark
from mathreel.core.scoring.json_types import SCHEMA_VERSION, ReportJSON
from mathreel.core.scoring.schema import report_schema, schema_text

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "docs" / "report.schema.json"
DEMO = ROOT / "assets" / "demo" / "results"


def _benchmark(name: str) -> str:
    """The benchmark a demo file is named after ("videomme-v2_synthetic-model-a_predictions.tsv")."""
    return name.split("_", 1)[0]


def cases() -> list[tuple[str, str]]:
    """Every demo result file with "robust" and each reproduction its benchmark offers."""
    return [
        (path.name, extractor)
        for path in sorted(DEMO.iterdir())
        for extractor in ["robust", *get_benchmark(_benchmark(path.name)).reproductions]
    ]


def printed(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    here = Path.cwd()
    os.chdir(ROOT)
    try:
        assert main(["score", *args]) == 0
    finally:
        os.chdir(here)
    return json.loads(capsys.readouterr().out)


def test_the_committed_schema_is_the_generated_one():
    assert COMMITTED.read_text(encoding="utf-8") == schema_text(), (
        "docs/report.schema.json is stale: python -m mathreel.core.scoring.schema > docs/report.schema.json"
    )


@pytest.mark.parametrize(("name", "extractor"), cases())
def test_score_json_of_every_demo_file_and_extractor_conforms(name, extractor, capsys):
    report = printed(["--json", "--rows", "--extractor", extractor, f"assets/demo/results/{name}"], capsys)
    assert report["schema"] == SCHEMA_VERSION == 1
    assert errors(report, report_schema()) == []


def test_every_optional_part_of_the_report_is_exercised_by_the_demo_outputs(capsys):
    """The cases above reach groups, group items, each reproduction's own object and a judge's rule reading."""
    v2 = "assets/demo/results/videomme-v2_synthetic-model-a_predictions.tsv"
    seen = set()
    for extractor in ("official", "lmms-eval", "evalscope"):
        seen |= set(printed(["--json", "--rows", "--extractor", extractor, v2], capsys))
    judged = printed(
        [
            "--json",
            "--rows",
            "assets/demo/results/videomathqa_mcq_synthetic-model-a_samples.jsonl",
            "--judge",
            "assets/demo/judgments/videomathqa_mcq_synthetic-model-a_judgments.jsonl",
        ],
        capsys,
    )
    assert errors(judged, report_schema()) == []
    assert any(row["rule"] is not None for row in judged["rows"])
    assert set(ReportJSON.__optional_keys__) <= seen | set(judged)


def test_the_check_fails_on_a_renamed_a_retyped_or_a_missing_field(capsys):
    report = printed(["--json", "assets/demo/results/videomme_synthetic-model-a_results.json"], capsys)
    schema = report_schema()
    assert errors(report, schema) == []
    renamed = copy.deepcopy(report)
    renamed["overall"]["acc"] = renamed["overall"].pop("accuracy")
    assert errors(renamed, schema) == ["$.overall: missing 'accuracy'", "$.overall: unexpected key 'acc'"]
    retyped = {**report, "answers": str(report["answers"])}
    assert errors(retyped, schema) == [f"$.answers: '{report['answers']}' is not integer"]
    missing = {key: value for key, value in report.items() if key != "schema"}
    assert errors(missing, schema) == ["$: missing 'schema'"]
    assert errors({**report, "schema": 2}, schema) == ["$.schema: 2 is not 1"]


def test_the_schema_is_closed_and_documents_each_object():
    schema = report_schema()
    assert schema["additionalProperties"] is False and set(schema["required"]) == set(ReportJSON.__required_keys__)
    for name, definition in schema["$defs"].items():
        assert definition.get("description"), f"{name} has no docstring"
    assert schema["$defs"]["GroupsJSON"]["additionalProperties"] == {"type": ["number", "null"]}


def test_every_top_level_field_is_described_in_the_docs():
    text = (ROOT / "docs" / "report.md").read_text(encoding="utf-8")
    undocumented = [key for key in report_schema()["properties"] if f"`{key}`" not in text]
    assert undocumented == []
