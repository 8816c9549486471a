"""How the tests share code: what several test modules use (fakes, file builders, the app server, a schema check)
lives in tests/helpers/ and is imported as `helpers.<module>` (fixtures several modules use are in conftest.py);
a test module does not import another test module."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


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
    assert found == {}, "move what they share into tests/helpers/"


def test_the_import_check_sees_both_spellings(tmp_path):
    module = tmp_path / "test_x.py"
    module.write_text("from test_data import make\nfrom tests.test_view import CUES\nfrom helpers import fake\n")
    assert imported_test_modules(module) == {"test_data", "test_view"}
