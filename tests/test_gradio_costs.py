"""webapp.gradio_costs: Gradio's per-update API schema computed once per data model, with the same result.

Each `gr.update(...)` makes Gradio build the component again and ask its `api_info()`: pydantic's JSON schema of
the data model. The memo must give what Gradio gives (the schema with its description moved), for components with
a fixed model and for one whose model depends on its settings (File: one file or a list), and be installed once.
"""

from __future__ import annotations

import gradio as gr

from mathreel.webapp.gradio_costs import schema_once_per_model


def _gradios_own(component: gr.components.Component) -> dict:
    schema = component.data_model.model_json_schema()
    schema["additional_description"] = schema.pop("description", None)
    return schema


def test_the_schema_is_gradios_and_computed_once_per_model() -> None:
    assert schema_once_per_model() and schema_once_per_model()  # installed, and a second call changes nothing
    first, second = gr.Gallery(render=False), gr.Gallery(render=False)
    assert first.api_info() == _gradios_own(first)
    assert second.api_info() is first.api_info()  # the second instance reuses the first's schema
    one, many = gr.File(render=False), gr.File(file_count="multiple", render=False)
    assert one.data_model is not many.data_model
    assert one.api_info() == _gradios_own(one) and many.api_info() == _gradios_own(many)
    assert one.api_info() != many.api_info()
    # components with their own api_info are untouched
    assert gr.Textbox(render=False).api_info() == {"type": "string"}
