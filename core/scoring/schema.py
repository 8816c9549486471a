"""The JSON schema of `mathreel score --json`, generated from the types that build it (`core.scoring.json_types`),
so the documented format cannot drift from the printed one.

    python -m mathreel.core.scoring.schema > docs/report.schema.json

prints it. tests/test_report_schema.py checks that the committed file is what this prints, and that real
`mathreel score --json` outputs validate against it.
"""

from __future__ import annotations

import inspect
import json
import sys
import types
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

from mathreel.core.scoring import json_types

__all__ = ["report_schema", "schema_text"]

DRAFT = "https://json-schema.org/draft/2020-12/schema"
# Keys a TypedDict cannot declare: a group scheme's kinds name their own scores beside `total`.
OPEN_KEYS: dict[type, dict[str, Any]] = {json_types.GroupsJSON: json_types.GROUP_KIND_SCORES}
_SIMPLE = {str: "string", int: "integer", float: "number", bool: "boolean", type(None): "null"}


def _names() -> dict[str, Any]:
    """The names json_types imports only for type checking (its own module's names are found without help)."""
    from mathreel.core.results.recorded import JoinHow

    return {"JoinHow": JoinHow}


def _type(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    """The schema of one annotation; a TypedDict goes into `defs` once and is referred to by name."""
    if tp is Any:
        return {}
    if tp in _SIMPLE:
        return {"type": _SIMPLE[tp]}
    if is_typeddict(tp):
        name = tp.__name__
        if name not in defs:
            defs[name] = {}  # placed first: a TypedDict that refers to itself terminates
            defs[name] = _object(tp, defs)
        return {"$ref": f"#/$defs/{name}"}
    origin, args = get_origin(tp), get_args(tp)
    if origin is Literal:
        return {"const": args[0]} if len(args) == 1 else {"enum": list(args)}
    if origin in (Union, types.UnionType):
        options = [_type(arg, defs) for arg in args]
        if all(set(option) == {"type"} for option in options):
            return {"type": [option["type"] for option in options]}
        return {"anyOf": options}
    if origin is list:
        return {"type": "array", "items": _type(args[0], defs)}
    if origin is dict:
        return {"type": "object", "additionalProperties": _type(args[1], defs)}
    raise TypeError(f"no JSON schema for {tp!r}")


def _object(typed: type, defs: dict[str, Any]) -> dict[str, Any]:
    """A TypedDict as a closed JSON object: its keys, the required ones, its docstring as the description."""
    hints = get_type_hints(typed, localns=_names())
    found: dict[str, Any] = {"type": "object"}
    doc = inspect.getdoc(typed)
    if doc and not doc.startswith(typed.__name__ + "("):  # a TypedDict without a docstring gets a made-up one
        found["description"] = " ".join(doc.split())
    found["properties"] = {key: _type(hint, defs) for key, hint in hints.items()}
    found["required"] = [key for key in hints if key in typed.__required_keys__]  # type: ignore[attr-defined]
    found["additionalProperties"] = OPEN_KEYS.get(typed, False)
    return found


def report_schema() -> dict[str, Any]:
    """The JSON schema (draft 2020-12) of the object `mathreel score --json` prints (`Report.to_dict`)."""
    defs: dict[str, Any] = {}
    root = _object(json_types.ReportJSON, defs)
    return {"$schema": DRAFT, "title": "MathReel score report", **root, "$defs": dict(sorted(defs.items()))}


def schema_text() -> str:
    """The schema as the committed file holds it."""
    return json.dumps(report_schema(), indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":  # pragma: no cover - the command line
    sys.stdout.write(schema_text())
