"""`mathreel serve`: start the web app on the embedded demo set or a data directory."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from mathreel.core.errors import InputError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="start the MathReel web app",
        description="Start the MathReel web app (Browse, Score, Ask, Judge). Without --data it serves the embedded "
        "demo set.",
    )
    parser.add_argument("--data", type=Path, default=None, help="dataset folder (default: MATHREEL_DATA or the demo)")
    parser.add_argument("--host", default=None, help="address to listen on (default: GRADIO_SERVER_NAME or 127.0.0.1)")
    parser.add_argument("--port", type=int, default=None, help="port (default: GRADIO_SERVER_PORT or 7860)")
    parser.add_argument("--share", action="store_true", help="also open a public Gradio share link (needs internet)")
    parser.add_argument(
        "--max-file-size", default=None, help="largest upload, e.g. 50mb (default: MATHREEL_MAX_FILE_SIZE or 50mb)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from mathreel.cli import options

    options.check(args, options.PORT)
    options.check_file_size(args.max_file_size)
    env_size = os.environ.get("MATHREEL_MAX_FILE_SIZE", "").strip()
    if args.max_file_size is None and env_size:
        options.check_file_size(env_size, "MATHREEL_MAX_FILE_SIZE")
    if args.data is not None and not args.data.is_dir():
        raise InputError(str(args.data), "not a directory (give the dataset folder to --data)")
    # Before gradio is imported: no telemetry or version check reaches the internet.
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    from mathreel.webapp.app import launch
    from mathreel.webapp.settings import Settings

    settings = Settings.from_env(
        data_dir=args.data, host=args.host, port=args.port, share=args.share or None, max_file_size=args.max_file_size
    )
    launch(settings, block=True)
    return 0
