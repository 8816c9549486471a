"""`mathreel serve` with Gradio's own floor beside the app, for bench/bench_load.py.

The floor is what any Gradio app costs under the same crowd, in the same server: `/floor_event` (a textbox echoed
back) and `/floor_upload` (files uploaded and counted, nothing read), each with Gradio's defaults (its own queue,
the app's default concurrency limit, no progress). The bench times each app action beside the matching floor call,
interleaved in every session, so the ratio says what MathReel adds to what Gradio costs at that moment.

    python bench/load_floor.py PORT      (run by bench_load.py; the environment is the server's)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))


def build(context: Any) -> None:
    """Hidden components and the two floor events (reachable through the API only)."""
    import gradio as gr

    text_in, text_out = gr.Textbox(visible=False), gr.Textbox(visible=False)
    files, count = gr.File(file_count="multiple", visible=False), gr.Number(visible=False)
    echo, take = gr.Button(visible=False), gr.Button(visible=False)
    echo.click(lambda text: text, text_in, text_out, api_name="floor_event", show_progress="hidden")
    take.click(lambda paths: len(paths or []), files, count, api_name="floor_upload", show_progress="hidden")


def tab() -> Any:
    from mathreel.webapp.context import TabSpec

    return TabSpec(id="floor", label="Floor", build=build)


def main() -> None:
    import mathreel.webapp.app as app
    from mathreel.cli import main as cli_main

    real = app.tab_specs
    app.tab_specs = lambda modules=None: [*real(modules), tab()]
    sys.exit(cli_main(["serve", "--host", "127.0.0.1", "--port", sys.argv[1]]))


if __name__ == "__main__":
    main()
