"""What the app shares between tabs: settings, the server's read-only datasets, and cross-tab links.

Nothing here holds a user's data: uploads and results live in each tab's `gr.State`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from webapp.settings import Settings

if TYPE_CHECKING:
    from core.data import Dataset


class DatasetCache:
    """The server's benchmark questions, loaded once per (benchmark, mode) and shared read-only.

    Datasets come from the server's data directory, not from users, so sharing them is safe;
    the lock keeps two first visitors from loading the same parquet twice.
    """

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._lock = threading.Lock()
        self._datasets: dict[tuple[str, str | None], Dataset] = {}

    def get(self, benchmark: str, mode: str | None) -> Dataset:
        key = (benchmark, mode)
        with self._lock:
            if key not in self._datasets:
                from core.data import load_dataset

                self._datasets[key] = load_dataset(benchmark, mode=mode, data_dir=self._settings.data_dir)
            return self._datasets[key]


@dataclass
class AppContext:
    """Handed to every tab builder. `links` carries what one tab offers later ones (e.g. "open in Browse")."""

    settings: Settings
    datasets: DatasetCache
    tabs: Any  # the gr.Tabs container, so a tab can switch to another by id
    links: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TabSpec:
    """One tab of the app: its id (for `gr.Tabs(selected=...)`), its label and the function that builds it."""

    id: str
    label: str
    build: Callable[[AppContext], None]
