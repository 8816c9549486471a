"""A visitor's runs kept on the server between visits: the result files they scored and how they read them, stored
under a random key that only their browser holds, so a reload or a shared link opened in the same browser brings the
runs back, and no other visitor can list or open them.

The key is a random token in the browser's local storage (`gr.BrowserState`); the server never lists visitors and
never serves this folder: it keeps each visitor's files in `<cache>/visitors/<sha256 of the token>/` (the token
itself is stored nowhere), at most `keep_files` files and `keep_mb` MB a visitor, and removes a visitor's folder
`keep_days` after their last visit. On load the files are read and scored again by core, as on upload.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import secrets
import shutil
import stat
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mathreel.webapp.errors import log
from mathreel.webapp.scored_runs import digest, judge_inputs, score_options, score_uploads

if TYPE_CHECKING:
    from mathreel.webapp.scored_runs import Run
    from mathreel.webapp.settings import Settings

STORAGE_KEY = "mathreel-visitor"  # the browser's local-storage key holding the visitor's token
TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(32)
MANIFEST = "runs.json"
PRUNE_EVERY = 3600.0  # seconds between two sweeps of expired visitors


def new_token() -> str:
    """A visitor's key: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def valid_token(value: Any) -> str | None:
    """`value` when it is a token this server hands out, else None (a browser's stored value is not trusted)."""
    return value if isinstance(value, str) and TOKEN.fullmatch(value) else None


@dataclass
class Kept:
    """What a visitor's folder holds: the result files (name, digest, size in bytes), the options they were read
    with, and the judgment and review files they were scored with (the Score tab's judging boxes)."""

    files: list[dict[str, Any]] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    judgments: list[dict[str, Any]] = field(default_factory=list)
    reviews: list[dict[str, Any]] = field(default_factory=list)

    def listed(self) -> list[dict[str, Any]]:
        return [*self.files, *self.judgments, *self.reviews]


JUDGING = ("judgments", "reviews")  # the Score tab's judging boxes, kept beside the result files


class VisitorStore:
    """Each visitor's runs on disk, bounded per visitor and expired after `keep_days` without a visit."""

    def __init__(self, root: Path, keep_days: int = 7, keep_files: int = 20, keep_mb: int = 100) -> None:
        self.root = Path(root)
        self.keep_days, self.keep_files, self.keep_bytes = keep_days, keep_files, keep_mb * 1024 * 1024
        self._lock = threading.Lock()
        self._pruned = 0.0

    @classmethod
    def of(cls, settings: Settings) -> VisitorStore:
        from mathreel.core.cache import cache_base

        return cls(cache_base() / "visitors", settings.keep_days, settings.keep_files, settings.keep_mb)

    def folder(self, token: str) -> Path:
        """The visitor's folder, named by a hash of the token (the folder name does not give the token away)."""
        return self.root / hashlib.sha256(token.encode()).hexdigest()[:40]

    def save(
        self,
        token: str,
        files: list[tuple[str, str]],
        options: dict[str, Any],
        judging: dict[str, list[tuple[str, str]]] | None = None,
    ) -> list[str]:
        """Keep `files` ((path, name as uploaded), in order), `options` and the `judging` files (judgments and
        reviews, as `files`) as the visitor's runs, in place of what was kept before; nothing at all forgets them.
        One bound for all of them, the result files first. Returns the names not kept (over a per-visitor bound)."""
        folder = self.folder(token)
        kept, skipped, total = Kept(options=options), [], 0
        sections = [("files", files), *((kind, (judging or {}).get(kind, [])) for kind in JUDGING)]
        for section, given_files in sections:
            for path, given in given_files:
                name = Path(given).name if Path(given).name not in ("", ".", "..") else "file"
                size = os.path.getsize(path)
                if len(kept.listed()) >= self.keep_files or total + size > self.keep_bytes:
                    skipped.append(name)
                    continue
                sha = digest(path)
                target = folder / "files" / sha / name
                if not target.is_file():
                    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
                    shutil.copyfile(path, target)
                getattr(kept, section).append({"name": name, "digest": sha, "size": size})
                total += size
        with self._lock:
            if not kept.listed():
                shutil.rmtree(folder, ignore_errors=True)
            else:
                _write_manifest(folder, kept)
                _drop_unlisted(folder / "files", {f["digest"] for f in kept.listed()})
        self.prune()
        return skipped

    def load(self, token: str) -> tuple[list[tuple[Path, str]], dict[str, Any]]:
        """The visitor's kept result files ((path, name)) and options; nothing when none are kept. A visit restarts
        the expiry clock."""
        self.prune()
        kept = self._kept(token)
        if kept is None:
            return [], {}
        with contextlib.suppress(OSError):
            os.utime(self.folder(token) / MANIFEST)
        return self._present(token, kept.files), kept.options

    def load_judging(self, token: str) -> dict[str, list[tuple[Path, str]]]:
        """The visitor's kept judgment and review files ((path, name)) by kind ("judgments", "reviews")."""
        kept = self._kept(token) or Kept()
        return {kind: self._present(token, getattr(kept, kind)) for kind in JUDGING}

    def _kept(self, token: str) -> Kept | None:
        try:
            return Kept(**json.loads((self.folder(token) / MANIFEST).read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError):
            return None

    def _present(self, token: str, listed: list[dict[str, Any]]) -> list[tuple[Path, str]]:
        files = [(self.folder(token) / "files" / f["digest"] / f["name"], f["name"]) for f in listed]
        return [(path, name) for path, name in files if path.is_file()]

    def prune(self, now: float | None = None) -> None:
        """Remove the folders of visitors not seen for `keep_days` (at most once an hour; a failure is logged)."""
        now = time.time() if now is None else now
        if now - self._pruned < PRUNE_EVERY:
            return
        self._pruned = now
        cutoff = now - self.keep_days * 86400
        try:
            entries = list(os.scandir(self.root))
        except OSError:
            return
        for entry in entries:
            try:
                if stat.S_ISDIR(entry.stat(follow_symlinks=False).st_mode) and _last_visit(Path(entry.path)) < cutoff:
                    shutil.rmtree(entry.path)
            except OSError as error:
                log.warning("expired visitor folder not removed: %s", error)


def _last_visit(folder: Path) -> float:
    """When the visitor last saved or loaded their runs (the folder's own time for a folder without a manifest)."""
    try:
        return (folder / MANIFEST).stat().st_mtime
    except OSError:
        return folder.stat().st_mtime


def _write_manifest(folder: Path, kept: Kept) -> None:
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    staging = folder / f".{MANIFEST}.{secrets.token_hex(4)}"
    staging.write_text(json.dumps(asdict(kept), ensure_ascii=False), encoding="utf-8")
    os.replace(staging, folder / MANIFEST)


def _drop_unlisted(files: Path, keep: set[str]) -> None:
    """Remove stored files no longer among the visitor's runs."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(files):
            if entry.name not in keep:
                shutil.rmtree(entry.path, ignore_errors=True)


# How many proxies in front of the server append the client's address to X-Forwarded-For (Settings.proxy_hops,
# set when the app is built): 0 trusts no header (anyone can write one), 1 on a Hugging Face Space.
_proxy_hops = 0


def set_proxy_hops(hops: int) -> None:
    """Trust the last `hops` entries of X-Forwarded-For (only the proxies in front of this server write them)."""
    global _proxy_hops
    _proxy_hops = max(0, hops)


def visitor_key(token: Any, request: Any = None) -> str:
    """Whose turn a costly file takes (webapp.fair_queue): "address/token", hashed. Fair shares go by the client's
    address (a browser token costs nothing to forge; an address does), the browser token (every tab of one browser
    shares it), else the page session, is the visitor within it. Hashes, so neither is held beyond the request."""
    token_key = valid_token(token) or str(getattr(request, "session_hash", None) or "")
    address = client_address(request)
    member = hashlib.sha256(token_key.encode()).hexdigest()[:16] if token_key else ""
    group = hashlib.sha256(address.encode()).hexdigest()[:16] if address else member
    return f"{group}/{member}" if group or member else ""


def client_address(request: Any) -> str:
    """The client's address as Gradio's request gives it (`request.client.host`, the TCP peer), or, behind
    `_proxy_hops` trusted proxies, the entry they added to X-Forwarded-For; "" when there is no request."""
    if request is None:
        return ""
    peer = ""
    try:
        peer = str(getattr(getattr(request, "client", None), "host", None) or "")
    except Exception:  # a request rebuilt from its pickled state may lack the field
        peer = ""
    if _proxy_hops <= 0:
        return peer
    try:
        headers = getattr(request, "headers", None)
        forwarded = str((headers.get("x-forwarded-for") if headers is not None else None) or "")
    except Exception:
        forwarded = ""
    entries = [entry.strip() for entry in forwarded.split(",") if entry.strip()]
    # the proxies append: the last `_proxy_hops` entries are theirs, whatever the client wrote before them
    return entries[-_proxy_hops] if len(entries) >= _proxy_hops else peer


def kept_runs(store: VisitorStore, settings: Settings, token: str) -> list[Run]:
    """The visitor's kept files read and scored again, with the options they were read with and the judgments and
    reviews kept beside them, so the figures are those shown before (a file that no longer scores is left out and
    logged: the visitor sees the others)."""
    files, options = store.load(token)
    if not files:
        return []
    judging = store.load_judging(token)
    judged, reviews, errors = judge_inputs(*([str(path) for path, _ in judging[kind]] for kind in JUDGING))
    chosen = score_options(
        settings,
        options.get("key"),
        options.get("extractor"),
        options.get("denominator"),
        options.get("use_data"),
        judged=judged,
        reviews=reviews,
    )
    runs, failed = score_uploads([str(path) for path, _ in files], chosen, visitor=visitor_key(token))
    for message in [*errors, *failed]:
        log.info("a kept run no longer scores: %s", message)
    return runs


def restorer(store: VisitorStore, settings: Settings) -> Callable[[Any], tuple[str, list[Run]]]:
    """The page-load handler: the visitor's token (a new one when the browser holds none) and their kept runs."""

    def restore(value: Any) -> tuple[str, list[Run]]:
        token = valid_token(value) or new_token()
        try:
            return token, kept_runs(store, settings, token)
        except Exception:  # the page must open even if the kept runs cannot be read
            log.exception("kept runs not restored")
            return token, []

    return restore


def options_kept(options: Any) -> dict[str, Any]:
    """ScoreOptions as kept beside the files (what the Score tab's controls were set to)."""
    return {
        "key": options.benchmark_key,
        "extractor": options.extractor,
        "denominator": options.denominator,
        "use_data": options.annotations is not None,
    }


def browser_secret(store: VisitorStore) -> str:
    """The key gr.BrowserState encrypts the token with in the browser, the same across restarts of this server (a
    new one would make every stored token unreadable). It is sent to the page, so it hides nothing from the
    browser's owner: what keeps a visitor's runs theirs is the token being random and held by their browser alone."""
    path = store.root / ".browser-secret"
    try:
        return path.read_text(encoding="ascii").strip()
    except OSError:
        pass
    store.root.mkdir(parents=True, exist_ok=True, mode=0o700)
    value = secrets.token_urlsafe(24)
    staging = store.root / f".browser-secret.{secrets.token_hex(4)}"
    staging.write_text(value, encoding="ascii")
    os.chmod(staging, 0o600)
    os.replace(staging, path)
    return path.read_text(encoding="ascii").strip()


def expiry_text(store: VisitorStore) -> str:
    """What the page says about keeping a visitor's runs."""
    return (
        f"Your runs, and the judgments and reviews they are scored with, are kept on this server for this browser "
        f"only, under a random key in its local storage, for {store.keep_days} days after your last visit (at most "
        f"{store.keep_files} files, {store.keep_bytes // (1024 * 1024)} MB): a reload or a link opened in this "
        "browser brings them back; nobody else can list or open them. Clearing the files above forgets them."
    )
