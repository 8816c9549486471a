"""Hugging Face Space entry point: `python app.py` serves MathReel on 0.0.0.0:7860, configured by the environment.

Spaces run this file from the repository folder, so `mathreel` (with core/, webapp/ and cli/ beside it) is imported
from there and the demo set is found in `assets/demo` without installing the package (requirements.txt holds the
dependencies only).
Every setting is an environment variable (a Space's "Variables and secrets"); see webapp.settings.ENV and the README.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mathreel.webapp.settings import Settings

# A Space listens on every interface, behind Hugging Face's proxy (which appends the client's address to
# X-Forwarded-For: fair shares go by it); the environment (see webapp.settings.ENV) may say otherwise.
SPACE_DEFAULTS = {"host": "0.0.0.0", "port": 7860, "proxy_hops": 1}


def settings_from_env(environ: Mapping[str, str] | None = None) -> Settings:
    """Settings for a hosted app: Space defaults, overridden by the environment (webapp.settings.ENV)."""
    from mathreel.webapp.settings import Settings

    return Settings.from_env(environ, defaults=SPACE_DEFAULTS)


def main() -> int:
    """Build the app from the environment and serve it until stopped."""
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    from mathreel.core.errors import MathReelError

    try:
        settings = settings_from_env()
    except MathReelError as error:
        print(f"mathreel: {error}", file=sys.stderr)
        return 2
    from mathreel.webapp.app import launch

    launch(settings, block=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
