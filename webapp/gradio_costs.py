"""Per-event work Gradio repeats without need, done once per server instead.

Every `gr.update(...)` an event returns makes Gradio (6.x) build a fresh component for the session and rebuild its
config, and the config holds the component's API schema: pydantic's `model_json_schema` of the component's data
model, 1-5 ms each time, on the server's event loop (every other visitor waits for it). A Browse switch returns a
few dozen updates, so under a crowd the schema alone cost more than the switch's own work. The schema depends only
on the data model class, so it is computed once per class here. Gradio keeps it per component instance
(`_api_info_cache`), which a fresh instance per update never reuses.
"""

from __future__ import annotations

import threading
from typing import Any

_lock = threading.Lock()
_schemas: dict[type, dict[str, Any]] = {}


def schema_once_per_model() -> bool:
    """Install the memo on gradio's base `Component.api_info` (idempotent). False when this Gradio has no such
    method or cache attribute (another version): then nothing is changed."""
    from gradio.components.base import Component

    original = Component.__dict__.get("api_info")
    if original is None or getattr(original, "schema_once", False):
        return original is not None

    def api_info(self: Any) -> dict[str, Any]:
        cached = getattr(self, "_api_info_cache", None)
        model = getattr(self, "data_model", None)
        if cached is not None or model is None:
            return original(self)
        with _lock:
            schema = _schemas.get(model)
        if schema is None:
            schema = original(self)
            with _lock:
                _schemas[model] = schema
        self._api_info_cache = schema
        return schema

    api_info.schema_once = True  # type: ignore[attr-defined]
    api_info.__doc__ = original.__doc__
    Component.api_info = api_info  # type: ignore[method-assign]
    return True
