"""An on-disk cache of judge replies, so a re-run costs nothing and an interrupted run resumes.

One JSON file per entry, named by sha256(endpoint URL, model, prompt version, full prompt) and written atomically
(temporary file + rename), so concurrent writers and a kill mid-write never leave a half entry. The endpoint is
part of the name because a model name proves nothing: on a shared server a visitor may point the judge at their own
endpoint under the operator's model name, and its replies must never answer anyone else's requests. Only replies
that passed validation are stored: a failure is asked again on the next run. Entries hold the raw reply, never a
key or an endpoint URL.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from pathlib import Path
from urllib.parse import urlsplit


def endpoint_identity(base_url: str) -> str:
    """The endpoint as the cache knows it: scheme and host lower-cased, credentials, default port and trailing
    slashes dropped, so spellings of one server share entries and different servers never do."""
    parts = urlsplit(base_url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    try:
        port = parts.port
    except ValueError:
        port = None
    if port is not None and port != {"http": 80, "https": 443}.get(scheme):
        host = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    path = re.sub(r"/+", "/", parts.path).rstrip("/")
    query = f"?{parts.query}" if parts.query else ""
    return f"{scheme}://{host}{path}{query}"


def cache_key(base_url: str, model: str, prompt_version: str, prompt: str) -> str:
    """The entry name: sha256 over the endpoint (`endpoint_identity`), the judge model, the prompt version and the
    full prompt."""
    digest = hashlib.sha256()
    for part in (endpoint_identity(base_url), model, prompt_version, prompt):
        data = part.encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(8, "big"))  # length-prefixed, so the parts cannot run together
        digest.update(data)
    return digest.hexdigest()


def default_cache_dir() -> Path:
    """`<MATHREEL_CACHE or ~/.cache/mathreel>/judge`."""
    from mathreel.core.cache import cache_base

    return cache_base() / "judge"


class JudgeCache:
    """Replies by cache key under `root/<first two hex digits>/<key>.json`."""

    def __init__(self, root: str | Path | None = None) -> None:
        self.root = Path(root) if root is not None else default_cache_dir()

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> str | None:
        """The cached raw reply, or None (missing or unreadable entries are misses, rewritten on success)."""
        try:
            entry = json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            return None
        reply = entry.get("reply") if isinstance(entry, dict) else None
        return reply if isinstance(reply, str) else None

    def put(self, key: str, model: str, prompt_version: str, reply: str) -> None:
        """Store a validated reply atomically."""
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        entry = {"model": model, "prompt_version": prompt_version, "reply": reply}
        handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{key[:8]}.", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(entry, out, ensure_ascii=False)
            os.replace(temp, path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
