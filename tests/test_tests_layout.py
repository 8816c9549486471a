"""How the tests share code: what several test modules use (fakes, file builders, the app server, a schema check)
lives in tests/helpers/ and is imported as `helpers.<module>`; a test module does not import another test module
(the ones that still do are listed and the list may only shrink)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
# Test modules that still import another test module's builders: each may only disappear from this list.
STILL_IMPORTING_TESTS = {
    "test_answer_view.py": {"test_question_join"},
    "test_cli_data_show.py": {"test_data", "test_view"},
    "test_cli_score.py": {"test_results"},
    "test_explain_paired.py": {"test_explain"},
    "test_explain_property.py": {"test_explain"},
    "test_explain_settings.py": {"test_explain"},
    "test_gallery_stream.py": {"test_data"},
    "test_judge_app.py": {"test_judge_runs"},
    "test_reading_audit.py": {"test_reading"},
    "test_readings.py": {"test_results"},
    "test_scoring.py": {"test_results"},
    "test_view.py": {"test_data"},
    "test_webapp.py": {"test_data"},
}


def imported_test_modules(path: Path) -> set[str]:
    """The test modules `path` imports (`test_x` or `tests.test_x`)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = (
            [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else [node.module or ""]
            if isinstance(node, ast.ImportFrom)
            else []
        )
        found |= {
            name.removeprefix("tests.")
            for name in names
            if name.removeprefix("tests.").split(".")[0].startswith("test_")
        }
    return found


def test_shared_test_code_lives_in_helpers():
    loose = sorted(p.name for p in TESTS.glob("*.py") if not p.name.startswith("test_") and p.name != "conftest.py")
    assert loose == [], "move shared test code into tests/helpers/"
    assert (TESTS / "helpers" / "__init__.py").is_file()
    assert sorted(p.name for p in (TESTS / "browser").glob("*.py") if not p.name.startswith("test_")) == [
        "conftest.py",
        "pages.py",
    ]  # the browser tests' own page helpers


def test_test_modules_do_not_import_each_other():
    found = {
        path.name: imported for path in sorted(TESTS.rglob("test_*.py")) if (imported := imported_test_modules(path))
    }
    assert found == STILL_IMPORTING_TESTS


def test_the_import_check_sees_both_spellings(tmp_path):
    module = tmp_path / "test_x.py"
    module.write_text("from test_data import make\nfrom tests.test_view import CUES\nfrom helpers import fake\n")
    assert imported_test_modules(module) == {"test_data", "test_view"}
