"""Evidence bundles zipped for download: one bundle per request written under a folder, then stored in one zip.

The server runs this in a child process with a time and memory budget (webapp.bundle_zip), since a bundle reads
and scores its runs again and renders a page per question: seconds to minutes of CPU that must not hold the
server's own threads. Plain arguments in, plain values out, so the child imports no webapp module.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from mathreel.core.bundle.load import BundleRequest
from mathreel.core.bundle.write import plan_bundle, write_bundle
from mathreel.core.plural import counted

SITE = "mathreel-evidence"


def zip_bundles(requests: list[tuple[str, BundleRequest]], folder: str, name: str) -> tuple[str, list[str]]:
    """Write each (key, request) bundle into `folder`/mathreel-evidence/<key> and zip them all into `folder`/`name`;
    the zip's path and one line per bundle ("videomme:mcq: 2 runs, 300 questions")."""
    root = Path(folder)
    site = root / SITE
    made = []
    for key, request in requests:
        plan = plan_bundle(request)
        write_bundle(plan, site / re.sub(r"[^A-Za-z0-9_-]+", "-", key))
        runs = len(request.paths)
        made.append(f"{key}: {runs} run{'s' if runs > 1 else ''}, {counted(len(plan.pages), 'question')}")
    target = root / name
    with zipfile.ZipFile(target, "w") as archive:
        for path in sorted(site.rglob("*")):
            if path.is_file():
                kind = zipfile.ZIP_STORED if path.suffix == ".jpg" else zipfile.ZIP_DEFLATED
                archive.write(path, path.relative_to(root), compress_type=kind)
    return str(target), made
