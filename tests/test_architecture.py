"""The house rules that can be checked by reading the code: core/ imports neither the web app, the command line,
gradio nor plotly; the modules of core/, cli/ and webapp/ import one another without a cycle; webapp/ is built in
floors (WEBAPP_FLOORS) whose imports point down, and no tab imports another tab; no module imports another
module's private (`_name`) names.

The import graph is read with `ast` (nothing is imported): an edge for every `import` or `from ... import`
anywhere in a module, inside functions too, except under `if TYPE_CHECKING:` (the floor rules count those too: a
type named from a floor above is still an arrow up). Importing `a.b.c` also runs `a/__init__.py` and
`a/b/__init__.py`, so a package's `__init__` is an edge as well.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("core", "cli", "webapp")
FORBIDDEN_IN_CORE = ("mathreel.webapp", "mathreel.cli", "webapp", "cli", "gradio", "plotly")


def _module_name(path: Path, root: Path = ROOT) -> str:
    """The installed name: core/x.py is `mathreel.core.x` (pyproject.toml maps the folders)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["mathreel", *parts])


def _forbidden(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, module: str, is_package: bool, type_checking: bool = False) -> set[str]:
    """Every module name `tree` imports (absolute), skipping `if TYPE_CHECKING:` blocks unless `type_checking`."""
    found: set[str] = set()
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node) and not type_checking:
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".") if is_package else module.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)  # `from pkg import module`
        stack.extend(ast.iter_child_nodes(node))
    return found


def import_graph(
    packages: tuple[str, ...] = PACKAGES,
    root: Path = ROOT,
    type_checking: bool = False,
) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(edges between our modules, every imported name per module) of `packages` under `root`; with
    `type_checking`, imports under `if TYPE_CHECKING:` count too."""
    files = {
        (_module_name(p, root), p.name == "__init__.py"): p for pkg in packages for p in (root / pkg).rglob("*.py")
    }
    modules = {name for name, _ in files}
    edges: dict[str, set[str]] = {}
    raw: dict[str, set[str]] = {}
    for (name, is_package), path in files.items():
        names = _imports(ast.parse(path.read_text(encoding="utf-8")), name, is_package, type_checking)
        raw[name] = names
        targets = set()
        for imported in names:
            parts = imported.split(".")
            for i in range(1, len(parts) + 1):  # the module and every package above it
                prefix = ".".join(parts[:i])
                if prefix in modules and prefix != name and not name.startswith(prefix + "."):
                    targets.add(prefix)
        edges[name] = targets
    return edges, raw


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle as a path of module names (first == last), or None."""
    state: dict[str, int] = {}  # 1: on the stack, 2: done
    for start in sorted(edges):
        if state.get(start):
            continue
        path = [start]
        iters = [iter(sorted(edges[start]))]
        state[start] = 1
        while iters:
            nxt = next(iters[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                iters.pop()
            elif state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            elif not state.get(nxt):
                state[nxt] = 1
                path.append(nxt)
                iters.append(iter(sorted(edges.get(nxt, ()))))
    return None


def test_core_cli_and_webapp_have_no_import_cycle():
    edges, _ = import_graph()
    assert len(edges) > 50 and any(name.startswith("mathreel.webapp.") for name in edges)  # the walk found them
    assert find_cycle(edges) is None, " -> ".join(find_cycle(edges) or [])


def test_core_never_imports_webapp_cli_gradio_or_plotly():
    _, raw = import_graph(("core",))
    bad = sorted(
        f"{module} imports {name}"
        for module, names in raw.items()
        for name in names
        if _forbidden(name, FORBIDDEN_IN_CORE)
    )
    assert bad == []


def test_the_checks_can_fail():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    tree = ast.parse("import gradio\nif TYPE_CHECKING:\n    import plotly\ndef f():\n    from mathreel.webapp import x")
    assert _imports(tree, "mathreel.core.m", False) == {"gradio", "mathreel.webapp", "mathreel.webapp.x"}
    assert _imports(ast.parse("from . import sib\nfrom ..up import y"), "mathreel.core.pkg.m", False) == {
        "mathreel.core.pkg",
        "mathreel.core.pkg.sib",
        "mathreel.core.up",
        "mathreel.core.up.y",
    }


# -- the floors of webapp/ -------------------------------------------------------------------------------------------

# Every module of webapp/ on its floor, lowest first; a floor is split into rooms. A module imports modules on the
# floors below its own and modules of its own room, nothing else: imports point down or sideways within a room.
# Below the tabs each floor is one room; on the tabs floor each tab (its module and the parts only it uses) is a
# room of its own, so no tab imports another tab. Tabs reach each other through `AppContext` (context.BrowseLinks).
# A new module goes into this table (the test fails on a module it does not place).
WEBAPP_FLOORS: tuple[tuple[str, dict[str, tuple[str, ...]]], ...] = (
    (
        "base",
        {
            "base": (
                "__init__",
                "settings",
                "html",
                "errors",
                "context",
                "present",
                "benchmark_keys",
                "downloads",
                "isolate",
                "preload",
                "startup",
                "server_paths",
                "fair_queue",
                "gradio_costs",
            )
        },
    ),
    (
        "runs and state",
        {"runs and state": ("scored_runs", "judged_runs", "reading_flow", "review_state", "visitor", "shown_answer")},
    ),
    ("shared views", {"shared views": ("charts", "judge_card", "review_box")}),
    (
        "tabs",
        {
            "browse": (
                "browse",
                "browse_events",
                "browse_review",
                "browse_audit",
                "browse_groups",
                "gallery_stream",
                "browse_file",
                "browse_table",
                "browse_page",
                "browse_panels",
                "browse_handlers",
                "browse_address",
                "browse_layout",
                "browse_walk",
                "browse_load",
            ),
            "score": ("score", "reference", "score_kept", "bundle_zip", "score_explain", "score_groups"),
            "ask": ("ask", "ask_run"),
            "judge": ("judge", "review"),
        },
    ),
    ("shell", {"shell": ("app",)}),
)
TAB_FLOOR = "tabs"


def placement(floors: tuple = WEBAPP_FLOORS, package: str = "mathreel.webapp") -> dict[str, tuple[int, str, str]]:
    """Module name -> (floor number, floor name, room)."""
    found = {}
    for level, (floor, rooms) in enumerate(floors):
        for room, names in rooms.items():
            for name in names:
                found[package if name == "__init__" else f"{package}.{name}"] = (level, floor, room)
    return found


def unplaced(
    edges: dict[str, set[str]],
    floors: tuple = WEBAPP_FLOORS,
    package: str = "mathreel.webapp",
) -> tuple[list[str], list[str]]:
    """(modules of `package` the floors do not place, placed names that are no module)."""
    placed = placement(floors, package)
    modules = {name for name in edges if name == package or name.startswith(package + ".")}
    return sorted(modules - set(placed)), sorted(set(placed) - modules)


def _where(name: str, at: tuple[int, str, str]) -> str:
    _, floor, room = at
    return f"{name} ({floor if floor != TAB_FLOOR else 'tab ' + room})"


def upward_imports(
    edges: dict[str, set[str]], floors: tuple = WEBAPP_FLOORS, package: str = "mathreel.webapp"
) -> list[str]:
    """Every import of a module on a higher floor than the importer's."""
    placed = placement(floors, package)
    return sorted(
        f"{_where(source, placed[source])} imports {_where(target, placed[target])}"
        for source, targets in edges.items()
        if source in placed
        for target in targets
        if target in placed and placed[target][0] > placed[source][0]
    )


def tab_imports(
    edges: dict[str, set[str]], floors: tuple = WEBAPP_FLOORS, package: str = "mathreel.webapp"
) -> list[str]:
    """Every import from one room of a floor into another room of it: on the tabs floor, a tab importing a tab."""
    placed = placement(floors, package)
    return sorted(
        f"{_where(source, placed[source])} imports {_where(target, placed[target])}"
        for source, targets in edges.items()
        if source in placed
        for target in targets
        if target in placed and placed[target][0] == placed[source][0] and placed[target][2] != placed[source][2]
    )


def private_imports(raw: dict[str, set[str]], modules: set[str]) -> list[str]:
    """Every `from our.module import _name`: a private name taken from another module."""
    return sorted(
        f"{module} imports {name}"
        for module, names in raw.items()
        for name in names
        if name.rpartition(".")[0] in modules
        and name.rpartition(".")[2].startswith("_")
        and not name.rpartition(".")[2].startswith("__")
    )


def test_every_webapp_module_is_on_a_floor():
    edges, _ = import_graph(("webapp",))
    missing, stale = unplaced(edges)
    assert missing == [], f"place these in WEBAPP_FLOORS: {missing}"
    assert stale == [], f"WEBAPP_FLOORS names modules that do not exist: {stale}"


def test_webapp_imports_point_down_the_floors():
    edges, _ = import_graph(("webapp",), type_checking=True)
    assert upward_imports(edges) == []


def test_no_tab_imports_another_tab():
    edges, _ = import_graph(("webapp",), type_checking=True)
    assert tab_imports(edges) == []


def test_no_module_imports_another_modules_private_name():
    edges, raw = import_graph(type_checking=True)
    assert private_imports(raw, set(edges)) == []


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_the_floor_checks_can_fail(tmp_path):
    """In a temporary tree: two tabs importing each other inside functions (the old circle), one of them taking a
    private name, a type-only import of a tab from a tab, a floor below importing a tab, a module no floor places
    and a placed one that is gone: each reported."""
    tree = _tree(
        tmp_path,
        {
            "webapp/__init__.py": "",
            "webapp/context.py": "from mathreel.webapp.score import Run\n",
            "webapp/browse.py": "def f():\n    from mathreel.webapp.score import _private\n",
            "webapp/score.py": "def g():\n    from mathreel.webapp import browse\n",
            "webapp/ask.py": "if TYPE_CHECKING:\n    from mathreel.webapp.judge import J\n",
            "webapp/judge.py": "",
            "webapp/stray.py": "",
        },
    )
    floors = (
        ("base", {"base": ("__init__", "context", "gone")}),
        ("tabs", {"browse": ("browse",), "score": ("score",), "ask": ("ask",), "judge": ("judge",)}),
    )
    edges, raw = import_graph(("webapp",), root=tree, type_checking=True)
    assert tab_imports(edges, floors) == [
        "mathreel.webapp.ask (tab ask) imports mathreel.webapp.judge (tab judge)",
        "mathreel.webapp.browse (tab browse) imports mathreel.webapp.score (tab score)",
        "mathreel.webapp.score (tab score) imports mathreel.webapp.browse (tab browse)",
    ]
    assert upward_imports(edges, floors) == ["mathreel.webapp.context (base) imports mathreel.webapp.score (tab score)"]
    assert private_imports(raw, set(edges)) == ["mathreel.webapp.browse imports mathreel.webapp.score._private"]
    assert unplaced(edges, floors) == (["mathreel.webapp.stray"], ["mathreel.webapp.gone"])
    runtime, _ = import_graph(("webapp",), root=tree)
    assert "mathreel.webapp.judge" not in runtime["mathreel.webapp.ask"]  # the type-only import is no runtime edge
    assert find_cycle(runtime) == ["mathreel.webapp.browse", "mathreel.webapp.score", "mathreel.webapp.browse"]


# Statements, not lines: the size of a function must not depend on how the formatter wraps its calls. 40 statements
# is about the 60 lines of the compact style this limit started from.
MAX_FUNCTION_STATEMENTS = 40
# Functions in webapp/ still over the limit, each named: another change in flight is splitting them. This list may
# only shrink (the test fails when a listed function is short enough, so its entry must then be removed).
LONG_FUNCTIONS_IN_FLIGHT: set[str] = set()


def statements(node: ast.AST) -> int:
    """The statements in a function's body, nested ones included (the `def` itself not counted)."""
    return sum(isinstance(n, ast.stmt) for n in ast.walk(node)) - 1


def long_functions(folder: str = "webapp", root: Path = ROOT, limit: int = MAX_FUNCTION_STATEMENTS) -> dict[str, int]:
    """Every function (nested ones included) of `folder`'s modules with more than `limit` statements, as
    path:name -> statements."""
    found = {}
    for path in sorted((root / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                size = statements(node)
                if size > limit:
                    found[f"{path.relative_to(root).as_posix()}:{node.name}"] = size
    return found


def test_no_function_in_webapp_is_over_40_statements():
    found = long_functions()
    over = {name: size for name, size in found.items() if name not in LONG_FUNCTIONS_IN_FLIGHT}
    assert over == {}, "split these into layout, handlers and wiring: " + ", ".join(
        f"{name} ({size} statements)" for name, size in over.items()
    )
    fixed = sorted(LONG_FUNCTIONS_IN_FLIGHT - set(found))
    assert fixed == [], f"now short enough: remove {fixed} from LONG_FUNCTIONS_IN_FLIGHT"


def test_the_size_check_counts_statements_not_lines(tmp_path):
    folder = tmp_path / "pkg"
    folder.mkdir()
    body = "\n".join(f"    x{i} = {i}" for i in range(41))
    wrapped = "    call(\n" + "".join(f"        {i},\n" for i in range(80)) + "    )"  # one statement, 82 lines
    (folder / "m.py").write_text(f"def long():\n{body}\n\ndef short():\n{wrapped}\n    return 1\n", encoding="utf-8")
    assert long_functions("pkg", tmp_path) == {"pkg/m.py:long": 41}


_BARE_IMPORT = r"(?<![\w.])(?:from\s+(?:core|cli|webapp)(?:\.\w+)*\s+import|import\s+(?:core|cli|webapp)\b)"


def bare_imports_in_strings(root: Path) -> list[str]:
    """Code run in a subprocess (`python -c "..."`) that imports the source folders by their bare names: it works
    only from the repository's root, and ruff's import ban cannot see inside strings."""
    import re

    found = []
    for path in sorted(root.rglob("*.py")):
        if any(part.startswith(".") or part in ("build", "node_modules") for part in path.relative_to(root).parts):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.search(_BARE_IMPORT, node.value):
                found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_no_code_string_imports_core_cli_or_webapp_by_their_bare_names():
    assert bare_imports_in_strings(ROOT) == []


def test_the_bare_name_check_can_fail(tmp_path):
    bare = "from " + "cli import main; main()"  # split, so that this file itself passes the check
    (tmp_path / "t.py").write_text(f'CODE = "{bare}"\nOK = "from mathreel.cli import main"\n')
    assert bare_imports_in_strings(tmp_path) == ["t.py:1"]
