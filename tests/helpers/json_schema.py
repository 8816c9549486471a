"""A small JSON-schema checker for the keywords docs/report.schema.json uses (draft 2020-12: type, const, enum,
properties, required, additionalProperties, items, anyOf, $ref into $defs). Anything else in a schema is refused,
so a generator that starts writing another keyword fails the test instead of passing unchecked."""

from __future__ import annotations

from typing import Any

KNOWN = {
    "$schema",
    "$id",
    "$defs",
    "title",
    "description",
    "type",
    "const",
    "enum",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "anyOf",
    "$ref",
}
TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def errors(value: Any, schema: dict[str, Any], root: dict[str, Any] | None = None, where: str = "$") -> list[str]:
    """Every place where `value` breaks `schema`, as "path: problem" lines (empty when it conforms)."""
    root = schema if root is None else root
    unknown = set(schema) - KNOWN
    if unknown:
        return [f"{where}: schema keywords this checker does not know: {sorted(unknown)}"]
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/$defs/")
        return errors(value, root["$defs"][name], root, where)
    if "anyOf" in schema:
        if all(errors(value, option, root, where) for option in schema["anyOf"]):
            return [f"{where}: {value!r:.60} matches none of {len(schema['anyOf'])} options"]
        return []
    found: list[str] = []
    if "type" in schema:
        kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(TYPES[kind](value) for kind in kinds):
            return [f"{where}: {value!r:.60} is not {' or '.join(kinds)}"]
    if "const" in schema and value != schema["const"]:
        found.append(f"{where}: {value!r:.60} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{where}: {value!r:.60} is not one of {schema['enum']}")
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        found += [f"{where}: missing {key!r}" for key in schema.get("required", []) if key not in value]
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in properties:
                found += errors(item, properties[key], root, f"{where}.{key}")
            elif extra is False:
                found.append(f"{where}: unexpected key {key!r}")
            elif isinstance(extra, dict):
                found += errors(item, extra, root, f"{where}.{key}")
    if isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            found += errors(item, schema["items"], root, f"{where}[{index}]")
    return found
